"""Run bot files written for the 2012 Resistance competition framework, unmodified.

Such files import ``player`` (:mod:`spyglass.compat.player`: ``Bot``, ``Player``),
``game`` (:mod:`spyglass.compat.game`: ``State``) and ``util``
(:mod:`spyglass.compat.util`: ``Variable``). :mod:`spyglass.compat.loader` imports bot
files with those names resolvable and finds their bot classes;
:func:`spyglass.compat.adapter.adapter_for` turns a 2012 bot class into a Spyglass bot.
Files written for Python 2 are converted in memory (:mod:`spyglass.compat.py2`, run
with the Python 2 behaviour of :mod:`spyglass.compat.py2_runtime`), and the 2012 table
conventions a bot can observe are matched (:mod:`spyglass.compat.table`).
Usually none of this is called directly: give ``path/to/file.py[:Class]`` or
``module.Class`` wherever a bot is expected (``play_game``, the CLI).
"""
