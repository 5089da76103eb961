"""The arena: what serves every game.

One referee for agents of any game (:mod:`~spyglass.arena.match`), game records and their
replay (:mod:`~spyglass.arena.history`, :mod:`~spyglass.arena.records`), one tournament
engine (:mod:`~spyglass.arena.tournament`) driving a game's :class:`Table`, statistics
(:mod:`~spyglass.arena.stats`, :mod:`~spyglass.arena.game_stats`,
:mod:`~spyglass.arena.paired`), isolation of untrusted code
(:mod:`~spyglass.arena.sandbox`, :mod:`~spyglass.arena.agent_isolation`) and execution
backends. The Resistance's own tournament side (its 2012 Bot API referee, competition
models, suspicion, 2012 columns) is :mod:`spyglass.resistance`, a layer above this one.
"""
