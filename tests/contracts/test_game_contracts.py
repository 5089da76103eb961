"""The game protocol's contracts, checked on every registered game.

Adding a game to :mod:`spyglass.games.registry` runs these on it (at its default options
and player count, plus any small settings listed in ``SETTINGS``). What is checked:
random play terminates within ``max_moves`` with legal actions only; determinizations
are consistent with the viewer's view; an agent's inputs (view, info key, legal actions,
observation keys) do not leak what it cannot know; the actor's observation keys tell its
actions apart; the same seed gives the same game; rewards lie in [0, 1].

``SPYGLASS_CONTRACT_TINY=1`` shrinks the runs (used for the NUMBA_DISABLE_JIT=1 pass).
``SPYGLASS_CONTRACT_GAMES=phantom,hearts`` checks only those games (a game author's run,
the uncompiled pass included)::

    SPYGLASS_CONTRACT_GAMES=phantom python -m pytest -q -n0 tests/contracts/test_game_contracts.py
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from spyglass.games import registry
from spyglass.games.base import Game
from spyglass.rng import make_rng
from spyglass.search.protocol import UNSEEN

ROOT = Path(__file__).resolve().parents[2]
TINY = os.environ.get("SPYGLASS_CONTRACT_TINY") == "1"


def _games() -> list[str]:
    """The registered games to check: all, or those ``SPYGLASS_CONTRACT_GAMES`` names."""
    names = registry.names()
    wanted = [w.strip() for w in os.environ.get("SPYGLASS_CONTRACT_GAMES", "").split(",")
              if w.strip()]
    unknown = sorted(set(wanted) - set(names))
    if unknown:
        raise ValueError(f"SPYGLASS_CONTRACT_GAMES: no game {', '.join(unknown)}; "
                         f"registered: {', '.join(names)}")
    return [n for n in names if n in wanted] if wanted else names

#: Small settings per game (player count, options) besides its defaults.
SETTINGS: dict[str, list[tuple[int | None, dict]]] = {
    "resistance": [(5, {}), (7, {"fifth_rejection": "forced"})],
    "phantom": [(None, {"m": 3, "n": 3, "k": 3}), (None, {}), (None, {"m": 5, "n": 3, "k": 3})],
    "hearts": [(None, {}), (None, {"target": 0, "pass_direction": "across"}),
               (None, {"target": 0, "jd_bonus": True, "avoid_all_tricks_bonus": True,
                       "can_lead_any_club": True, "can_lead_hearts_instead_of_qs": True,
                       "qs_breaks_hearts": False, "no_pts_on_first_trick": False}),
               (None, {"target": 26, "pass_direction": "none", "reward": "placing"})],
    "spades": [(None, {"target": 150}), (None, {"target": 0, "spades_never_break": True}),
               (None, {"round_value": True})],
    "doudizhu": [(None, {}), (None, {"bidding": True}), (None, {"four_with_two": False})],
    "scotlandyard": [(None, {}), (3, {"detectives": 2, "rounds": 8, "coalition_reduction": 0.25})],
    "lotrc": [(None, {}), (None, {"setup": "random", "shire_win": 3}),
              (None, {"setup": "placed"})],
    "saboteur": [(None, {}), (5, {})],
}


def _cases() -> list[tuple[str, int | None, dict]]:
    out = []
    for name in _games():
        settings = SETTINGS.get(name, [(None, {})])
        if TINY:
            settings = settings[:1]
        out += [(name, n, opts) for n, opts in settings]
    return out


CASES = _cases()
IDS = [f"{name}-{n or 'default'}-{','.join(f'{k}={v}' for k, v in o.items()) or 'defaults'}"
       for name, n, o in CASES]
N_GAMES = 3 if TINY else 25


@pytest.fixture(params=CASES, ids=IDS)
def game(request) -> Game:
    name, n, opts = request.param
    return registry.make(name, n, **opts)


def legal(g: Game, s: np.ndarray) -> list[int]:
    return g.legal_actions(s)


def random_states(g: Game, n_games: int, seed: int):
    """Yield states reached by uniformly random play (every state of each game)."""
    rng = np.random.default_rng(seed)
    for game_no in range(n_games):
        s = g.new_state(int(rng.integers(1 << 30)) + game_no)
        yield s.copy()
        while not g.kernel.is_terminal(s):
            acts = legal(g, s)
            g.kernel.apply(s, acts[int(rng.integers(len(acts)))])
            yield s.copy()


def test_random_play_terminates_with_legal_actions_and_rewards_in_range(game):
    k = game.kernel
    rng = np.random.default_rng(1)
    for seed in range(N_GAMES):
        s = game.new_state(seed)
        assert s.dtype == np.int64 and s.shape == (game.state_size,)
        moves = 0
        while not k.is_terminal(s):
            acts = legal(game, s)
            assert acts, "a live state must have a legal action"
            assert all(0 <= a < game.n_actions for a in acts)
            assert all(x < y for x, y in zip(acts, acts[1:], strict=False)), "not increasing"
            assert 0 <= k.actor(s) < game.n_players
            k.apply(s, acts[int(rng.integers(len(acts)))])
            moves += 1
            assert moves <= game.max_moves, "the game outlived max_moves"
        assert k.actor(s) == -1 and k.n_legal(s) == 0
        rewards = game.rewards(s)
        assert len(rewards) == game.n_players
        assert all(0.0 <= r <= 1.0 for r in rewards)


def test_legal_actions_lists_the_indexed_legal_actions(game):
    """``legal_actions(s, out)`` (what the searches call) writes exactly the ids that
    ``legal_action(s, 0..n_legal-1)`` gives, in that order, and nothing past them."""
    k = game.kernel
    out = np.empty(game.n_actions + 1, dtype=np.int64)
    for s in random_states(game, 2 if TINY else 6, seed=4):
        out[:] = -7
        n = int(k.legal_actions(s, out))
        assert n == k.n_legal(s)
        assert out[:n].tolist() == [int(k.legal_action(s, i)) for i in range(n)]
        assert (out[n:] == -7).all()


def test_playout_finishes_from_any_state(game):
    k = game.kernel
    krng = make_rng(5)
    for i, s in enumerate(random_states(game, 4 if TINY else 10, seed=2)):
        if i % 3:
            continue
        k.playout(s, krng)
        assert k.is_terminal(s)
        assert all(0.0 <= r <= 1.0 for r in game.rewards(s))


def _views_equal(g: Game, a: np.ndarray, b: np.ndarray, j: int) -> bool:
    return bool((g.view(a, j) == g.view(b, j)).all())


def test_determinizations_are_consistent_and_nothing_leaks(game):
    """For states s and seats j, s2 = sample(view(s, j)) is a state j cannot tell from s.

    Then j's inputs must agree: view, info key, legal actions when j acts, the key of
    j's own move when the move reveals nothing hidden; and after any action, equal
    observation keys for j must leave j with equal views (a view may not learn what the
    observation did not say).
    """
    k = game.kernel
    krng = make_rng(11)
    checked = 0
    for i, s in enumerate(random_states(game, 3 if TINY else 12, seed=3)):
        if i % 2:
            continue
        actor = k.actor(s)
        for j in range(game.n_players):
            v = game.view(s, j)
            s2 = np.zeros(game.state_size, dtype=np.int64)
            assert k.sample(v, j, krng, s2), f"sample failed for seat {j} at {s}"
            checked += 1
            assert (game.view(s2, j) == v).all(), f"sampled state shows seat {j} another view"
            assert k.info_key(s2, j) == k.info_key(s, j)
            assert k.actor(s2) == actor and k.is_terminal(s2) == k.is_terminal(s)
            if k.is_terminal(s):
                continue
            acts = legal(game, s)
            if actor == j:
                assert legal(game, s2) == acts, "the actor's legal set depends on hidden state"
                if not k.move_reveals(s):
                    for a in acts:
                        assert k.observe(s, a, j) == k.observe(s2, a, j)
            for a in set(acts) & set(legal(game, s2)):
                o1, o2 = k.observe(s, a, j), k.observe(s2, a, j)
                assert o1 >= 0 and o2 >= 0
                t1, t2 = s.copy(), s2.copy()
                k.apply(t1, a)
                k.apply(t2, a)
                if o1 == o2:
                    assert _views_equal(game, t1, t2, j), (
                        f"seat {j}'s view after {a} differs although its observation is equal"
                    )
                    assert k.info_key(t1, j) == k.info_key(t2, j)
    assert checked > 0


def test_states_with_equal_views_have_equal_keys_and_info_keys_differ_otherwise(game):
    k = game.kernel
    seen: dict[bytes, int] = {}
    keys: dict[int, bytes] = {}
    for s in random_states(game, 4 if TINY else 20, seed=4):
        for j in range(game.n_players):
            v = game.view(s, j).tobytes()
            key = int(k.info_key(s, j))
            assert seen.setdefault(v, key) == key
            assert keys.setdefault(key, v) == v, "two different views share an info key"


def test_actor_observation_keys_tell_its_actions_apart_and_unseen_moves_change_nothing(game):
    """The actor's keys differ across its actions and are never UNSEEN; a move another
    seat does not perceive (UNSEEN) leaves that seat's view and info key as they were."""
    k = game.kernel
    for s in random_states(game, 3 if TINY else 10, seed=5):
        if k.is_terminal(s):
            continue
        j = k.actor(s)
        acts = legal(game, s)
        obs = [k.observe(s, a, j) for a in acts]
        assert len(set(obs)) == len(obs), f"seat {j} cannot tell its own moves apart"
        assert UNSEEN not in obs
        for a in acts[:4]:
            t = s.copy()
            k.apply(t, a)
            for i in range(game.n_players):
                if k.observe(s, a, i) == UNSEEN:
                    assert (game.view(t, i) == game.view(s, i)).all()
                    assert k.info_key(t, i) == k.info_key(s, i)


def test_the_same_seed_gives_the_same_game(game):
    k = game.kernel

    def run(seed: int) -> tuple:
        s = game.new_state(seed)
        start = s.copy()
        k.playout(s, make_rng(seed))
        v = game.view(s, 0)
        s2 = np.zeros(game.state_size, dtype=np.int64)
        ok = k.sample(game.view(start, 0), 0, make_rng(seed + 1), s2)
        return start.tobytes(), s.tobytes(), v.tobytes(), ok, s2.tobytes()

    for seed in range(3 if TINY else 10):
        assert run(seed) == run(seed)


def test_words_round_trip(game):
    k = game.kernel
    for s in random_states(game, 2 if TINY else 5, seed=6):
        if k.is_terminal(s):
            assert game.state_text(s)
            continue
        j = k.actor(s)
        v = game.view(s, j)
        acts = legal(game, s)
        for a in acts:
            assert game.parse_action(game.action_text(a, v), acts, v) == a
        with pytest.raises(ValueError):
            game.parse_action("certainly not a move", acts, v)
        assert game.view_text(v, j)
        a = acts[0]
        for seat in range(game.n_players):
            obs = k.observe(s, a, seat)
            t = s.copy()
            k.apply(t, a)
            assert game.observation_text(obs, seat, j, game.view(t, seat))


_DIGEST = """
import hashlib, os, numpy as np
from spyglass.games import registry
from spyglass.rng import make_rng
wanted = [w.strip() for w in os.environ.get("SPYGLASS_CONTRACT_GAMES", "").split(",") if w.strip()]
h = hashlib.sha256()
for name in [n for n in registry.names() if not wanted or n in wanted]:
    g = registry.make(name)
    for seed in range(4):
        s = g.new_state(seed)
        rng = make_rng(seed)
        while not g.kernel.is_terminal(s):
            for j in range(g.n_players):
                s2 = np.zeros(g.state_size, dtype=np.int64)
                g.kernel.sample(g.view(s, j), j, rng, s2)
                h.update(s2.tobytes())
                h.update(str(int(g.kernel.info_key(s, j))).encode())
            acts = g.legal_actions(s)
            a = acts[int(rng[0] % np.uint64(len(acts)))]
            h.update(str([int(g.kernel.observe(s, a, j)) for j in range(g.n_players)]).encode())
            g.kernel.apply(s, a)
        h.update(s.tobytes())
print(h.hexdigest())
"""


def test_contracts_hold_with_numba_disabled():
    """The tiny contract run under NUMBA_DISABLE_JIT=1, and the same games both ways."""
    if TINY:
        pytest.skip("already the uncompiled run")
    digests = []
    for flag in ("0", "1"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=flag, PYTHONPATH=str(ROOT))
        r = subprocess.run([sys.executable, "-c", _DIGEST], env=env, capture_output=True,
                           text=True, timeout=600, check=False)
        assert r.returncode == 0, r.stderr[-2000:]
        digests.append(r.stdout.strip())
    assert digests[0] == digests[1]
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", SPYGLASS_CONTRACT_TINY="1",
               PYTHONPATH=str(ROOT))
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", __file__,
         "-k", "not numba_disabled"],
        env=env, capture_output=True, text=True, timeout=600, check=False, cwd=ROOT,
    )
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-2000:]
    assert hashlib.sha256(r.stdout.encode()).hexdigest()  # ran and reported
