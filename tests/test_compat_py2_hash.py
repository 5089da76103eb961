"""2012 Players hash as under CPython 2.7, so sets of them iterate in 2.7's order.

The expected values were printed by CPython 2.7.18 (64-bit Linux, no ``-R``): ``hash(s)``
for each name, and ``[p.index for p in set(...)]`` for the 2012 framework's ``Player``
(``__hash__``: ``hash(self.index) ^ hash(self.name)``).
"""

from __future__ import annotations

import pytest

from spyglass.resistance.compat.player import Bot, Player
from spyglass.resistance.compat.py2_hash import player_hash, str_hash

PY27_STR_HASH = {
    "PandSBot": 7708047900130443533,
    "ScepticBot": 4938656301864377712,
    "Magi": 6306819796154687026,
    "Rebounder": 2868183784896495645,
    "GarboA": -2776538150696702078,
    "": 0,
    "été": 7663802489438502929,  # its UTF-8 bytes, as a Python 2 source's str literal
}


@pytest.mark.parametrize("name", list(PY27_STR_HASH))
def test_string_hash_is_cpython27s(name):
    assert str_hash(name) == PY27_STR_HASH[name]


def test_player_hash_xors_the_seat():
    assert player_hash(3, "GarboA") == -2776538150696702079
    assert hash(Player("GarboA", 3)) == -2776538150696702079


# Sets in the order CPython 2.7 iterated them; most are not seat order, which is what
# a seat-only hash gave.
# (members, order when inserted in that order, order when inserted in reverse): the
# third pair shares a slot, so there the order of insertion decides, in 2.7 as here.
PY27_SET_ORDER = [
    ((("PandSBot", 0), ("GarboA", 3)), [3, 0], [3, 0]),
    ((("Magi", 1), ("Rebounder", 4)), [4, 1], [4, 1]),
    ((("ScepticBot", 0), ("Magi", 2)), [0, 2], [2, 0]),
    ((("Bot", 0), ("Bot", 1), ("Bot", 2), ("Bot", 3), ("Bot", 4)), [4, 0, 1, 2, 3],
     [4, 0, 1, 2, 3]),
]


@pytest.mark.parametrize(("members", "order", "reversed_order"), PY27_SET_ORDER)
def test_sets_of_players_iterate_in_python27_order(members, order, reversed_order):
    players = [Player(n, i) for n, i in members]
    assert [p.index for p in set(players)] == order
    assert [p.index for p in set(reversed(players))] == reversed_order


class _Renamed(Bot):
    def __init__(self, game, index, spy):
        Bot.__init__(self, game, index, spy)
        Player.__init__(self, "SomethingElse", index)


class _Game:
    players = [Player("Renamed", 0), Player("Other", 1)]


def test_a_bot_equal_to_its_seat_hashes_as_its_seat():
    bot = _Renamed(_Game(), 0, False)
    bot._seat_identity = True  # the 2012 table mode
    seat = _Game.players[0]
    assert bot == seat and hash(bot) == hash(seat)
    assert bot in {seat} and {seat: 1}[bot] == 1
    bot._seat_identity = False  # the spyglass table: name-and-seat equality
    assert bot != seat and hash(bot) == player_hash(0, "SomethingElse")
