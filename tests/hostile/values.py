"""Hostile bots that answer with values built to fool or break the referee."""

from __future__ import annotations

import itertools

from spyglass.resistance.bots.base import Bot


class YesInt(int):
    """An int whose comparisons always answer True (7 passes ``0 <= seat < 5``)."""

    def __lt__(self, other):
        return True

    __le__ = __gt__ = __ge__ = __lt__

    def __hash__(self):
        return int.__hash__(self)


class LiarSeat(Bot):
    bot_name = "liarseat"

    def select(self, players, count):
        return [YesInt(len(players) + 2)] + list(players[: count - 1])


class BrokenGenerator(Bot):
    bot_name = "brokengenerator"

    def select(self, players, count):
        yield players[0]
        raise RuntimeError("boom while being read")


class EndlessSelect(Bot):
    bot_name = "endlessselect"

    def select(self, players, count):
        return itertools.count()


class HugeSelect(Bot):
    bot_name = "hugeselect"

    def select(self, players, count):
        return range(10**7)


class WordySuspicion(Bot):
    bot_name = "wordysuspicion"

    def suspicion(self):
        return {0: "high"}


class NanSuspicion(Bot):
    bot_name = "nansuspicion"

    def suspicion(self):
        return {p: float("nan") for p in self.game.players}


class Unstorable:
    pass


class BadExtra(Bot):
    """record_extra returns what JSON cannot store (an object, NaN, a set)."""

    bot_name = "badextra"

    def record_extra(self):
        return {"obj": Unstorable(), "nan": float("nan"), "set": {1, 2}}
