"""Any OpenSpiel game as a Spyglass game, searched by Spyglass's agents on a slow path.

``openspiel_game("leduc_poker")`` is a :class:`~spyglass.games.base.Game` over a
``pyspiel`` game: the referee, tournaments and the ISMCTS agents (SO, POM, MO) and UCT play
it. Its kernel is plain Python over OpenSpiel's C++ states (no numba), and the searches run
their own loops as plain Python (:func:`~spyglass.envs.sources.python_search_entry`):
far slower than a compiled game (docs/ecosystems.md gives the measured rates).

How OpenSpiel's model is mapped onto Spyglass's:

* State: an ``int64`` array ``[chance seed, L, a_0 .. a_{L-1}]``, the OpenSpiel history
  (chance outcomes included) with a seed for chance still to come. Chance is not a
  player in Spyglass: a chance node met after a move is resolved at once from the seed
  and the history's length, so the state holds every future chance outcome (as Spyglass's
  own games draw them at the deal; a determinization re-draws the seed).
* View: ``[seat, id]``, where ``id`` names, in a table of this game, the seat's
  OpenSpiel information-state strings at every step of the history so far: what the seat
  knows, and nothing else (the table holds no state). The table keeps one entry per
  distinct information state met, for the game object's lifetime: a process playing
  millions of games should make a fresh game now and then.
* Sampling (``Kernel.sample``): a history is rebuilt step by step, chance outcomes by
  their probabilities and other seats' moves uniformly, keeping at each step only a
  candidate under which the seat's information state string is the recorded one; a
  dead end fails the draw (the search draws again). The draws are consistent with what
  the seat knows, not exactly its posterior (other seats' later moves are not reweighted).
  Assumes that every player knows how many steps the history has (true of OpenSpiel's
  turn-based games here).
* Observation key of a move: a hash of the seat's information state string after it.
  No move is unseen; ``move_reveals`` is false (simultaneous-move games are played as
  OpenSpiel's turn-based conversion).
* Rewards: OpenSpiel's returns scaled from [min_utility, max_utility] to [0, 1].
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from typing import Any, ClassVar

import numpy as np
import pyspiel

from spyglass.envs.sources import (
    Game,
    Kernel,
    python_search_entry,
    rand_below,
    rand_float,
)

CACHE_SIZE = 200_000
MASK63 = (1 << 63) - 1


def _hash63(text: str) -> int:
    """A positive 63-bit hash of a string (never 0)."""
    h = int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")
    return (h & MASK63) or 1


def _mix(seed: int, step: int) -> float:
    """A uniform float in [0, 1) from (seed, step): splitmix64."""
    z = (seed + 0x9E3779B97F4A7C15 * (step + 1)) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return ((z ^ (z >> 31)) >> 11) / 9007199254740992.0


def _pick(outcomes: list[tuple[int, float]], u: float) -> int:
    for a, p in outcomes:
        u -= p
        if u < 0:
            return a
    return outcomes[-1][0]


class _Rules:
    """The plain-Python kernel of one OpenSpiel game (see the module docstring)."""

    def __init__(self, game: pyspiel.Game) -> None:
        self.game = game
        self.n_players = game.num_players()
        lo, hi = game.min_utility(), game.max_utility()
        self.lo, self.span = lo, (hi - lo) or 1.0
        longest = getattr(game, "max_history_length", None)
        longest = longest() if longest is not None else 0
        self.max_len = max(longest, game.max_game_length() * 2 + 64)
        self.state_size = 2 + self.max_len
        self.cache: OrderedDict[bytes, pyspiel.State] = OrderedDict()
        self.infos: list[tuple[str, ...]] = []
        self.info_ids: dict[tuple[str, ...], int] = {}

    # --- OpenSpiel states from Spyglass state arrays ------------------------------------

    def _key(self, s: np.ndarray) -> bytes:
        return s[: 2 + int(s[1])].tobytes()

    def _remember(self, s: np.ndarray, st: pyspiel.State) -> None:
        self.cache[self._key(s)] = st
        if len(self.cache) > CACHE_SIZE:
            self.cache.popitem(last=False)

    def state(self, s: np.ndarray) -> pyspiel.State:
        """The OpenSpiel state of array ``s`` (not to be changed: clone it)."""
        st = self.cache.get(self._key(s))
        if st is None:
            st = self.game.new_initial_state()
            for a in s[2: 2 + int(s[1])]:
                st.apply_action(int(a))
            self._remember(s, st)
        return st

    def _push(self, s: np.ndarray, st: pyspiel.State, a: int) -> None:
        """Play ``a`` on ``st`` (in place) and append it to ``s``; then any chance nodes."""
        st.apply_action(a)
        n = int(s[1])
        if n >= self.max_len:
            raise RuntimeError(f"{self.game}: a history longer than {self.max_len} steps")
        s[2 + n] = a
        s[1] = n + 1
        while st.is_chance_node():
            self._push(s, st, _pick(st.chance_outcomes(), _mix(int(s[0]), int(s[1]))))
            return

    def new_state(self, seed: int) -> np.ndarray:
        s = np.zeros(self.state_size, dtype=np.int64)
        s[0] = seed & MASK63
        st = self.game.new_initial_state()
        while st.is_chance_node():
            self._push(s, st, _pick(st.chance_outcomes(), _mix(int(s[0]), int(s[1]))))
        self._remember(s, st)
        return s

    def info_string(self, st: pyspiel.State, j: int) -> str:
        return st.information_state_string(j)

    # --- the Kernel functions ------------------------------------------------------------

    def actor(self, s: np.ndarray) -> int:
        st = self.state(s)
        return -1 if st.is_terminal() else int(st.current_player())

    def n_legal(self, s: np.ndarray) -> int:
        st = self.state(s)
        return 0 if st.is_terminal() else len(st.legal_actions())

    def legal_action(self, s: np.ndarray, i: int) -> int:
        return int(self.state(s).legal_actions()[i])

    def legal_actions(self, s: np.ndarray, out: np.ndarray) -> int:
        st = self.state(s)
        if st.is_terminal():
            return 0
        legal = st.legal_actions()
        out[: len(legal)] = legal
        return len(legal)

    def apply(self, s: np.ndarray, a: int) -> None:
        st = self.state(s).clone()
        self._push(s, st, int(a))
        self._remember(s, st)

    def observe(self, s: np.ndarray, a: int, j: int) -> int:
        return _hash63(self.info_string(self.state(s).child(int(a)), j))

    def move_reveals(self, s: np.ndarray) -> bool:
        return False

    def is_terminal(self, s: np.ndarray) -> bool:
        return bool(self.state(s).is_terminal())

    def reward(self, s: np.ndarray, j: int) -> float:
        return (self.state(s).returns()[j] - self.lo) / self.span

    def playout(self, s: np.ndarray, rng: np.ndarray) -> None:
        st = self.state(s).clone()
        while not st.is_terminal():
            legal = st.legal_actions()
            self._push(s, st, int(legal[rand_below(rng, len(legal))]))
        self._remember(s, st)

    def view(self, s: np.ndarray, j: int, v: np.ndarray) -> None:
        st = self.game.new_initial_state()
        seq = [self.info_string(st, j)]
        for a in s[2: 2 + int(s[1])]:
            st.apply_action(int(a))
            seq.append(self.info_string(st, j))
        key = tuple(seq)
        ident = self.info_ids.get(key)
        if ident is None:
            ident = self.info_ids[key] = len(self.infos)
            self.infos.append(key)
        v[0], v[1] = j, ident

    def sample(self, v: np.ndarray, j: int, rng: np.ndarray, s: np.ndarray) -> bool:
        target = self.infos[int(v[1])]
        st = self.game.new_initial_state()
        s[0] = int(rand_float(rng) * 2**62)
        s[1] = 0
        for step in range(1, len(target)):
            if st.is_chance_node():
                options = list(st.chance_outcomes())
            else:
                options = [(a, 1.0) for a in st.legal_actions()]
            while options:
                # draw one candidate by its weight, without replacement
                total = sum(p for _, p in options)
                u = rand_float(rng) * total
                i = 0
                while i < len(options) - 1 and u >= options[i][1]:
                    u -= options[i][1]
                    i += 1
                a = options.pop(i)[0]
                child = st.child(a)
                if self.info_string(child, j) == target[step]:
                    st = child
                    s[1 + step] = a
                    s[1] = step
                    break
            else:
                return False
        self._remember(s, st)
        return True

    def info_key(self, s: np.ndarray, j: int) -> int:
        return _hash63(self.info_string(self.state(s), j))

    def kernel(self) -> Kernel:
        return Kernel(self.actor, self.n_legal, self.legal_action, self.legal_actions,
                      self.apply, self.observe, self.move_reveals, self.is_terminal,
                      self.reward, self.playout, self.view, self.sample, self.info_key)


class OpenSpielGame(Game):
    """An OpenSpiel game as a Spyglass game (see the module docstring); made by
    :func:`openspiel_game`."""

    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    information = "imperfect"
    spec: ClassVar[str] = ""

    def __init__(self, n_players: int | None = None, **options: Any) -> None:
        super().__init__(n_players, **options)
        game = pyspiel.load_game(self.spec)
        if game.get_type().dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
            game = pyspiel.convert_to_turn_based(game)
        self.pyspiel_game = game
        self.rules = _Rules(game)
        self.kernel = self.rules.kernel()
        self.search_entry = python_search_entry(self.kernel)
        self.state_size = self.rules.state_size
        self.view_size = 2
        self.n_actions = game.num_distinct_actions()
        self.max_moves = game.max_game_length()

    def new_state(self, seed: int) -> np.ndarray:
        return self.rules.new_state(self.check_seed(seed))

    def action_text(self, action: int, view: np.ndarray | None = None) -> str:
        st = self.pyspiel_game.new_initial_state()
        while st.is_chance_node():
            st.apply_action(st.chance_outcomes()[0][0])
        player = max(int(st.current_player()), 0) if view is None else int(view[0])
        try:
            return st.action_to_string(player, int(action))
        except Exception:  # noqa: BLE001 — not every game names actions out of context
            return str(int(action))

    def view_text(self, view: np.ndarray, seat: int) -> str:
        return self.rules.infos[int(view[1])][-1]

    def observation_text(self, obs: int, seat: int, actor: int,
                         view: np.ndarray | None = None) -> str:
        return f"seat {actor} moved" + ("" if view is None else f"; {self.view_text(view, seat)}")

    def config(self) -> dict:
        return {"game": self.name, "players": self.n_players, "options": {"spec": self.spec}}


def openspiel_game(spec: str) -> OpenSpielGame:
    """The OpenSpiel game ``spec`` (as ``pyspiel.load_game`` takes it, e.g.
    ``"liars_dice(numdice=1)"``) as a Spyglass game."""
    probe = pyspiel.load_game(spec)
    kind = probe.get_type()
    if kind.dynamics not in (pyspiel.GameType.Dynamics.SEQUENTIAL,
                             pyspiel.GameType.Dynamics.SIMULTANEOUS):
        raise ValueError(f"{spec}: only sequential or simultaneous-move games")
    if not kind.provides_information_state_string:
        raise ValueError(f"{spec}: the game gives no information state strings")
    n = probe.num_players()
    cls = type(f"OpenSpiel_{kind.short_name}", (OpenSpielGame,), {
        "name": f"openspiel_{kind.short_name}", "title": f"OpenSpiel {kind.long_name}",
        "min_players": n, "max_players": n, "spec": spec,
        "information": ("perfect" if kind.information
                        == pyspiel.GameType.Information.PERFECT_INFORMATION else "imperfect")})
    return cls(n)
