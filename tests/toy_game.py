"""A tiny hidden-information game for the play-layer tests (referee, records, tournaments),
independent of the real games: "Secret numbers".

Each of 2-3 players is dealt a secret number 0-3. For ``rounds`` rounds, players move in
seat order, each choosing a number 0-3 other than its own secret. A move is partially
observable: the mover sees it; the others see only its parity. A player scores one point
for each of its moves equal to the next seat's secret, plus the parity of the sum of its
moves; the top score wins (a tie splits the reward). It exercises everything the referee
must keep apart: hidden deals, moves others see only in part, views, sampling.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.agents.base import Agent
from spyglass.games.base import Game
from spyglass.params import Param
from spyglass.rng import rand_below
from spyglass.search.protocol import Kernel, legal_actions_from

# state: [players, rounds, turn, secret0..2, move0..8]; view: [players, rounds, turn,
# own secret, obs0..8] where obs is the move (own) or 4 + parity (others'), -1 not yet.
N, R, T, SEC, MOV = 0, 1, 2, 3, 6
STATE_SIZE, VIEW_SIZE, MAX_MOVES = 15, 13, 9


@njit(cache=True)
def actor(s):
    if s[T] >= s[N] * s[R]:
        return -1
    return s[T] % s[N]


@njit(cache=True)
def n_legal(s):
    return 0 if actor(s) < 0 else 3


@njit(cache=True)
def legal_action(s, i):
    own = s[SEC + actor(s)]
    return i if i < own else i + 1


@njit(cache=True)
def apply(s, a):
    s[MOV + s[T]] = a
    s[T] += 1


@njit(cache=True)
def observe(s, a, j):
    if j == actor(s):
        return a
    return 4 + a % 2


@njit(cache=True)
def move_reveals(s):
    return False


@njit(cache=True)
def is_terminal(s):
    return actor(s) < 0


@njit(cache=True)
def score(s, j):
    n = s[N]
    target = s[SEC + (j + 1) % n]
    pts = 0
    total = 0
    for t in range(s[T]):
        if t % n == j:
            total += s[MOV + t]
            if s[MOV + t] == target:
                pts += 1
    return pts + total % 2


@njit(cache=True)
def reward(s, j):
    best = -1
    for i in range(s[N]):
        best = max(best, score(s, i))
    if score(s, j) < best:
        return 0.0
    ties = 0
    for i in range(s[N]):
        if score(s, i) == best:
            ties += 1
    return 1.0 / ties


@njit(cache=True)
def playout(s, rng):
    while actor(s) >= 0:
        apply(s, legal_action(s, rand_below(rng, 3)))


@njit(cache=True)
def view(s, j, v):
    v[:] = -1
    v[N] = s[N]
    v[R] = s[R]
    v[T] = s[T]
    v[3] = s[SEC + j]
    for t in range(s[T]):
        v[4 + t] = s[MOV + t] if t % s[N] == j else 4 + s[MOV + t] % 2


@njit(cache=True)
def sample(v, j, rng, s):
    s[:] = -1
    s[N] = v[N]
    s[R] = v[R]
    s[T] = v[T]
    for i in range(v[N]):
        s[SEC + i] = v[3] if i == j else rand_below(rng, 4)
    for t in range(v[T]):
        if t % v[N] == j:
            s[MOV + t] = v[4 + t]
        else:
            parity = v[4 + t] - 4
            secret = s[SEC + t % v[N]]
            a = parity + 2 * rand_below(rng, 2)
            if a == secret:
                a = (a + 2) % 4
            s[MOV + t] = a
    return True


@njit(cache=True)
def info_key(s, j):
    v = np.full(VIEW_SIZE, -1, np.int64)
    view(s, j, v)
    h = np.int64(1469598103934665603)
    for x in v:
        h = (h ^ (x + 2)) * np.int64(1099511628211)
    return h & np.int64(0x7FFFFFFFFFFFFFFF)


KERNEL = Kernel(actor, n_legal, legal_action, legal_actions_from(n_legal, legal_action), apply,
                observe, move_reveals, is_terminal, reward, playout, view, sample, info_key)


class SecretNumbers(Game):
    """The toy game (see the module docstring)."""

    name = "toy"
    title = "Secret numbers"
    min_players = 2
    max_players = 3
    information = "imperfect"
    has_roles = False
    options = (Param("rounds", int, 2, "moves per player", low=1, high=3),)

    def __init__(self, n_players: int | None = None, **options) -> None:
        super().__init__(n_players, **options)
        self.kernel = KERNEL
        self.state_size, self.view_size = STATE_SIZE, VIEW_SIZE
        self.n_actions = 4
        self.max_moves = self.n_players * self.settings["rounds"]

    def new_state(self, seed: int) -> np.ndarray:
        s = np.full(STATE_SIZE, -1, np.int64)
        s[N], s[R], s[T] = self.n_players, self.settings["rounds"], 0
        s[SEC:SEC + self.n_players] = np.random.default_rng(seed).integers(0, 4, self.n_players)
        return s

    def action_text(self, action: int, view=None) -> str:
        return f"n{action}"

    def parse_action(self, text: str, legal: list[int], view=None) -> int:
        for a in legal:
            if self.action_text(a) == text.strip().lower():
                return a
        raise ValueError(f"{text!r} is not a legal move here; legal: "
                         + ", ".join(self.action_text(a) for a in legal))

    def view_text(self, view: np.ndarray, seat: int) -> str:
        seen = " ".join("?" if x < 0 else (f"n{x}" if x < 4 else "odd" if x == 5 else "even")
                        for x in view[4:4 + view[T]])
        return f"secret n{view[3]}; moves so far: {seen or 'none'}"

    def observation_text(self, obs: int, seat: int, actor: int, view=None) -> str:
        if obs < 4:
            return f"seat {actor} played n{obs}"
        return f"seat {actor} played an {'odd' if obs == 5 else 'even'} number"

    def state_text(self, state: np.ndarray) -> str:
        n = int(state[N])
        secrets = ", ".join(f"seat {j}: n{state[SEC + j]}" for j in range(n))
        return f"secrets: {secrets}; scores: " + ", ".join(
            str(score(state, j)) for j in range(n))


class FirstLegal(Agent):
    """Always the lowest legal action."""

    agent_name = "first"

    def act(self, view, legal):
        return legal[0]


class RandomToy(Agent):
    """A uniformly random legal action, from its own seed."""

    agent_name = "randomtoy"
    params = (Param("bias", float, 0.0, "unused; for spec tests", low=0.0, high=1.0),)

    def start(self, game, seat, view, seed):
        super().start(game, seat, view, seed)
        self.rng = np.random.default_rng(seed)

    def act(self, view, legal):
        return legal[int(self.rng.integers(len(legal)))]


class Recorder(Agent):
    """Records every input it gets (copied), to compare agents' inputs across games."""

    agent_name = "recorder"

    def start(self, game, seat, view, seed):
        super().start(game, seat, view, seed)
        self.log = [("start", seat, view.tolist(), bool(view.flags.writeable))]

    def observe(self, obs, actor, view):
        self.log.append(("observe", obs, actor, view.tolist(), bool(view.flags.writeable)))

    def act(self, view, legal):
        self.log.append(("act", view.tolist(), list(legal)))
        return legal[-1]

    def record_extra(self):
        return {"inputs": len(self.log)}


class RoleNumbers(SecretNumbers):
    """The toy game with roles: a seat with an odd secret is "odd", else "even" (for the
    tournaments' per-role figures)."""

    name = "toyroles"

    def roles(self, state: np.ndarray) -> tuple[str, ...]:
        return tuple("odd" if state[SEC + j] % 2 else "even" for j in range(self.n_players))
