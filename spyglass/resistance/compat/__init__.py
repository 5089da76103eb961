"""Run bot files written for the 2012 Resistance competition framework, unmodified.

Such files import ``player`` (:mod:`spyglass.resistance.compat.player`: ``Bot``,
``Player``), ``game`` (:mod:`spyglass.resistance.compat.game`: ``State``) and ``util``
(:mod:`spyglass.resistance.compat.util`: ``Variable``).
:mod:`spyglass.resistance.compat.loader` imports bot files with those names resolvable and
finds their bot classes; :func:`spyglass.resistance.compat.adapter.adapter_for` turns a 2012
bot class into a Spyglass bot. Files written for Python 2 are converted in memory
(:mod:`spyglass.resistance.compat.py2`, run with the Python 2 behaviour of
:mod:`spyglass.resistance.compat.py2_runtime`), and the 2012 table conventions a bot can
observe are matched (:mod:`spyglass.resistance.compat.table`).
Usually none of this is called directly: give ``path/to/file.py[:Class]`` or
``module.Class`` wherever a bot is expected (``play_game``, the CLI).
"""
