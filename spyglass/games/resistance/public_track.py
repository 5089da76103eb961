"""One seat's view of a real game of The Resistance, replayed as a kernel state.

A search bot (MT-ISMCTS with inference, the ISMCTS family with tree reuse) must walk its
last search tree along what happened since. :class:`PublicTrack` keeps the public state
of the game as a kernel state without spies, advances it with the public events the
referee reports, and turns each event into the steps along which that seat's tree is
walked: its own moves by action index, everyone else's by observation key.
"""

from __future__ import annotations

import numpy as np

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.search_kernel import move_reveals
from spyglass.games.resistance.tables import TEAM_COUNT, TEAM_SIZE, TEAM_START, TEAMS


def team_index(n_players: int, mission: int, team_mask: int) -> int:
    """The legal-action index of a team (a bitmask) on ``mission`` (0-based)."""
    k = int(TEAM_SIZE[n_players, mission])
    start = int(TEAM_START[n_players, k])
    teams = TEAMS[start : start + int(TEAM_COUNT[n_players, k])]
    hits = np.flatnonzero(teams == team_mask)
    if len(hits) != 1:
        raise ValueError(f"{team_mask:#x} is not a team of {k} of {n_players} players")
    return int(hits[0])


# Walk steps: ("own", action_index[, public]) for the seat's own move (public: a proposal,
# seen by everyone as it is); ("obs", key, informative) for everyone else's.
Step = tuple


class PublicTrack:
    """One seat's view of a real game, as a kernel state without spies.

    It advances with the public events and gives, for each, the steps along which the
    seat's last search tree is walked: its own moves by action index, everyone else's
    by the observation key the search used. An observation is *informative* when it
    depends on what was played (proposals, vote and card reveals); a hidden vote or card
    looks the same whatever it was, so it carries no evidence and gives no update.
    """

    def __init__(self, n_players: int, me: int, leader: int, rules_flags: int) -> None:
        self.n = n_players
        self.me = me
        self.s = K.new_state(n_players, 0, leader, rules_flags)

    def root(self) -> np.ndarray:
        """A copy of the current public state (spies unset), the search root."""
        return self.s.copy()

    def check(self, mission: int, attempt: int, leader: int) -> None:
        """Fail loudly if the replica disagrees with the referee (a bug, never a guess)."""
        s = self.s
        got = (int(s[K.PHASE]), int(s[K.MISSION]) + 1, int(s[K.ATTEMPT]) + 1, int(s[K.LEADER]))
        if got != (K.PROPOSE, mission, attempt, leader):
            raise RuntimeError(
                f"public state out of step: expected a proposal for mission {mission}, "
                f"attempt {attempt}, leader {leader}; have phase/mission/attempt/leader {got}"
            )

    def chain(self) -> list[int]:
        """Keys of the hidden moves before the seat's own in the current round."""
        c = self.s.copy()
        keys = []
        while K.actor(c) != self.me:
            if K.is_terminal(c) or c[K.PHASE] == K.PROPOSE:
                raise RuntimeError(f"seat {self.me} does not act in the current round")
            keys.append(int(K.observe(c, 0, self.me)))
            K.apply(c, 0)
        return keys

    def _step(self, a: int, index: int) -> list[Step]:
        s = self.s
        key = int(K.observe(s, a, self.me))
        if K.actor(s) == self.me:
            # A proposal is public; a vote or card stays hidden until the round's reveal.
            steps: list[Step] = [("own", index, True)] if s[K.PHASE] == K.PROPOSE else [
                ("own", index)]
            if move_reveals(s):
                steps.append(("obs", key, True))
        else:
            steps = [("obs", key, key != K.OBS_HIDDEN)]
        K.apply(s, a)
        return steps

    def propose(self, team_mask: int) -> list[Step]:
        """The leader proposed ``team_mask``."""
        idx = team_index(self.n, int(self.s[K.MISSION]), team_mask)
        return self._step(int(team_mask), idx)

    def votes(self, votes) -> list[Step]:
        """Everyone's votes, in seat order."""
        steps: list[Step] = []
        for v in votes:
            steps += self._step(int(bool(v)), int(bool(v)))
        return steps

    def mission(self, fails: int, my_card: int = 0) -> list[Step]:
        """The mission's cards: ``fails`` in all, ``my_card`` the seat's own (if on it).

        Who played the others' fail cards is unknown; they are placed on the first
        other members, which changes no observation key (only the total is revealed).
        """
        s = self.s
        team = int(s[K.TEAM])
        others_fails = int(fails) - (int(my_card) if (team >> self.me) & 1 else 0)
        steps: list[Step] = []
        while s[K.PHASE] == K.MISSION_PHASE:
            if K.actor(s) == self.me:
                steps += self._step(int(my_card), int(my_card))
            else:
                a = 1 if others_fails > 0 else 0
                others_fails -= a
                steps += self._step(a, a)
        return steps
