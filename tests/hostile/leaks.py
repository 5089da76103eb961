"""Hostile bots that try to learn the roles, or forge what other bots see.

Each reports what it found through ``record_extra`` (``{"guess": [...], "found": ...}``),
so that the tests can check guesses against the true roles.
"""

from __future__ import annotations

import gc
import sys

from spyglass.resistance.bots.base import Bot


def _stem(name: str) -> str:
    return name.split("#", 1)[0]


class NameSnoop(Bot):
    """Balanced model: the seats not named like me are the spies (if names give it away)."""

    bot_name = "namesnoop"

    def on_game_revealed(self, players, spies):
        mine = _stem(self.name)
        self.guess = sorted(s for s, n in enumerate(self.game.names) if _stem(n) != mine)

    def record_extra(self):
        return {"guess": getattr(self, "guess", []), "found": None}


class FrameWalker(Bot):
    """Walks up the interpreter's frames looking for the referee's spies."""

    bot_name = "framewalker"

    def on_game_revealed(self, players, spies):
        self.guess, self.found = [], False
        frame = sys._getframe()
        while frame is not None:
            for value in list(frame.f_locals.values()):
                spies_seen = getattr(value, "spies", None)
                if (isinstance(spies_seen, tuple) and value is not self
                        and len(spies_seen) == self.game.n_spies):
                    self.guess, self.found = sorted(spies_seen), True
            frame = frame.f_back

    def record_extra(self):
        return {"guess": self.guess, "found": self.found}


class GcScanner(Bot):
    """Scans every object of the process for other bots and reads their roles."""

    bot_name = "gcscanner"

    def on_game_revealed(self, players, spies):
        found = set()
        for obj in gc.get_objects():
            if isinstance(obj, Bot) and obj is not self and getattr(obj, "spy", False):
                seat = getattr(obj, "seat", None)
                if isinstance(seat, int):
                    found.add(seat)
        self.found = bool(found)
        self.guess = sorted(found)

    def record_extra(self):
        return {"guess": self.guess, "found": self.found}


class Forger(Bot):
    """Rewrites the shared public record (and the records inside it) at every chance."""

    bot_name = "forger"

    def _forge(self):
        rec = getattr(self.game, "_r", None)
        if rec is None:
            return
        for attr, value in (("wins", 3), ("losses", 0), ("names", ("x",) * 5),
                            ("mission", 9), ("proposals", ()), ("missions", ())):
            try:
                object.__setattr__(rec, attr, value)
            except Exception:  # noqa: BLE001
                pass
        for p in getattr(self.game, "proposals", ()):
            try:
                object.__setattr__(p, "votes", (False,) * 5)
            except Exception:  # noqa: BLE001
                pass

    def on_mission_attempt(self, mission, attempt, leader):
        self._forge()

    def on_vote_complete(self, votes):
        self._forge()

    def on_mission_complete(self, fails):
        self._forge()


class Witness(Bot):
    """Plays at random and records what it sees of the public game at its end."""

    bot_name = "witness"

    def on_game_complete(self, resistance_won, spies):
        g = self.game
        self.seen = {"wins": g.wins, "losses": g.losses, "names": list(g.names),
                     "votes": [list(p.votes) if p.votes is not None else None
                               for p in g.proposals],
                     "missions": len(g.missions)}

    def record_extra(self):
        return getattr(self, "seen", None)
