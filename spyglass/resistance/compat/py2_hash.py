"""CPython 2.7's hash of a 2012 ``Player``, so that sets of Players iterate as they did.

A set iterates in the order of its hash-table slots, so a 2012 bot that takes the first
member of a set (``sorted(list(self.spies), key=...)[0]`` with a tie, ``list(spies)[0]``)
chooses by hash. The 2012 framework's ``Player`` hashed as ``hash(index) ^ hash(name)``
under CPython 2.7, whose string hash was deterministic; Python 3's is randomized per
process. Emulating 2.7's values makes a set of Players iterate in 2.7's order (except
where two members share a slot: Python 3 probes collisions differently) and still the
same in every process, so seeded games replay exactly. Dicts are not helped: Python 3
dicts iterate in insertion order whatever the hashes.

Measured on the Vienna line-up (docs/search-speed.md): with seat-only hashes the 2012
GarboA file's spies were voted onto teams 51.0% of the time against 46.2-46.5% under
the 2012 framework; with these hashes 46.6-47.5%.
"""

from __future__ import annotations

from functools import lru_cache

_MASK = (1 << 64) - 1


def _signed(x: int) -> int:
    x &= _MASK
    x = x - (1 << 64) if x >> 63 else x
    return -2 if x == -1 else x  # CPython reserves -1 for errors


@lru_cache(maxsize=4096)  # a table has a handful of names, hashed on every set lookup
def str_hash(s: str) -> int:
    """CPython 2.7's ``hash`` of a byte string on a 64-bit build, without ``-R``
    (``string_hash`` in Objects/stringobject.c); ``s`` is taken as UTF-8 bytes."""
    data = s.encode("utf-8")
    if not data:
        return 0
    x = data[0] << 7
    for byte in data:
        x = ((1000003 * x) ^ byte) & _MASK
    return _signed(x ^ len(data))


@lru_cache(maxsize=4096)  # the same few (seat, name) pairs, hashed on every set lookup
def player_hash(index: int, name: str) -> int:
    """``hash(index) ^ hash(name)`` as CPython 2.7 computed it for a 2012 ``Player``
    (a name that is not a string, which no 2012 table gives, hashes as in Python 3)."""
    name_hash = str_hash(name) if isinstance(name, str) else hash(name)
    return _signed((-2 if index == -1 else index) ^ name_hash)
