"""The contract test's bots: a recorder of every input, and a role-blind steady player."""

from __future__ import annotations

import hashlib

from spyglass.resistance.bots.base import Bot


class Steady(Bot):
    """Plays the same whatever its role: approve everything, lead with the first seats,
    never sabotage. So the game's public course does not depend on who the spies are."""

    bot_name = "steady"

    def select(self, players, count):
        return list(players[:count])

    def vote(self, team):
        return True

    def sabotage(self):
        return False


class Recorder(Steady):
    """Hashes every input it receives (arguments and its whole view) at every call."""

    bot_name = "recorder"

    def _see(self, *args):
        g = self.game
        view = (g.mission, g.attempt, g.wins, g.losses, g.leader, g.team, g.phase, g.names,
                g.players, g.n_spies, g.proposals, g.missions, g.winner, g.rules,
                self.seat, self.spy, sorted(self.spies), self.name, self.rng.random())
        self._h = getattr(self, "_h", hashlib.sha256())
        self._h.update(repr((args, view)).encode())

    def on_game_revealed(self, *a):
        self._see("revealed", *a)

    def on_mission_attempt(self, *a):
        self._see("attempt", *a)

    def on_team_selected(self, *a):
        self._see("team", *a)

    def on_vote_complete(self, *a):
        self._see("votes", *a)

    def on_mission_complete(self, *a):
        self._see("mission", *a)

    def select(self, players, count):
        self._see("select", players, count)
        return super().select(players, count)

    def vote(self, team):
        self._see("vote", team)
        return True

    def record_extra(self):
        return self._h.hexdigest()
