"""The rules kernel: tables, legal actions, state invariants at every step, observations,
determinism, and the same results with the JIT disabled.

The expected numbers come from the official table in shared/seeds/README.md (5 players:
Cowling et al. 2015, §III, Taylor 2014, §2.1); see ``OFFICIAL`` in conftest.py.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from math import comb

import numpy as np
from conftest import OFFICIAL, SIZES
from hypothesis import given, settings
from hypothesis import strategies as st

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance import tables as T
from spyglass.rng import make_rng


def bits(x: int) -> int:
    return bin(int(x)).count("1")


def test_tables_match_the_official_table():
    for n, (spies, sizes, fails) in OFFICIAL.items():
        assert T.SPIES_BY_PLAYERS[n] == T.N_SPIES[n] == spies
        assert T.TEAM_SIZES_BY_PLAYERS[n] == sizes
        assert tuple(T.TEAM_SIZE[n]) == sizes
        assert tuple(T.FAILS_NEEDED[n]) == fails
        assert tuple(T.fails_needed(n, m) for m in range(5)) == fails
        assert len(T.spy_configurations(n)) == comb(n, spies)
        for k in range(1, n + 1):
            start, count = T.TEAM_START[n, k], T.TEAM_COUNT[n, k]
            teams = T.TEAMS[start : start + count]
            assert count == comb(n, k) == len(set(teams.tolist()))
            assert all(bits(t) == k and t < (1 << n) for t in teams)


def check_state(s: np.ndarray, forced: bool) -> None:
    """Every invariant a reachable state must satisfy."""
    n = int(s[K.N])
    spies, sizes, fails_needed = OFFICIAL[n]
    assert bits(s[K.SPIES]) == spies and 0 < s[K.SPIES] < (1 << n)
    assert s[K.RULES] == (K.FORCED_FIFTH if forced else 0)
    res, spy = int(s[K.RES_WINS]), int(s[K.SPY_WINS])
    assert 0 <= res <= 3 and 0 <= spy <= 3
    # The public history of fail counts decides every finished mission by the table.
    sabotaged = 0
    for m in range(res + spy):
        f = (int(s[K.HISTORY]) >> (4 * m)) & 15
        assert f <= min(spies, sizes[m])
        sabotaged += f >= fails_needed[m]
    assert sabotaged == spy
    assert int(s[K.HISTORY]) >> (4 * (res + spy)) == 0
    phase = int(s[K.PHASE])
    if phase == K.OVER:
        assert s[K.CURSOR] == 0
        end = int(s[K.END])
        if end == K.END_MISSIONS_RES:
            assert res == 3 and spy < 3 and s[K.WINNER] == K.RESISTANCE
        elif end == K.END_MISSIONS_SPY:
            assert spy == 3 and res < 3 and s[K.WINNER] == K.SPY_SIDE
        else:
            assert end == K.END_REJECTIONS and not forced
            assert s[K.ATTEMPT] == 5 and s[K.WINNER] == K.SPY_SIDE and res < 3 and spy < 3
        return
    assert s[K.WINNER] == -1 and s[K.END] == K.END_PLAYING
    assert res < 3 and spy < 3
    m = int(s[K.MISSION])
    assert m == res + spy and 0 <= m <= 4
    assert 0 <= s[K.ATTEMPT] <= 4
    assert 0 <= s[K.LEADER] < n
    team, cursor = int(s[K.TEAM]), int(s[K.CURSOR])
    if phase == K.PROPOSE:
        assert team == 0 and s[K.VOTES] == 0
    elif phase == K.VOTE:
        assert bits(team) == sizes[m] and team < (1 << n)
        assert 0 <= cursor < n and 0 <= s[K.VOTES] < (1 << cursor)
        assert not (forced and s[K.ATTEMPT] == 4), "the forced fifth proposal is not voted on"
    else:
        assert phase == K.MISSION_PHASE
        assert bits(team) == sizes[m] and (team >> cursor) & 1
        played = team & ((1 << cursor) - 1)
        assert 0 <= s[K.FAILS] <= bits(played & int(s[K.SPIES]))


def walk_game(n: int, forced: bool, seed: int, p_approve: float) -> tuple[np.ndarray, int]:
    """Play one game with random legal actions, checking everything at every step."""
    rng = random.Random(seed)
    configs = T.spy_configurations(n)
    s = K.new_state(n, int(configs[rng.randrange(len(configs))]), rng.randrange(n),
                    K.FORCED_FIFTH if forced else 0)
    out = np.zeros(K.MAX_ACTIONS, dtype=np.int64)
    spies, sizes, _ = OFFICIAL[n]
    last_leader = None
    proposals = steps = 0
    while not K.is_terminal(s):
        check_state(s, forced)
        phase, actor = int(s[K.PHASE]), int(K.actor(s))
        k = K.legal_actions(s, out)
        acts = [int(a) for a in out[:k]]
        assert k == K.n_legal(s) and len(set(acts)) == k
        assert all(K.is_legal(s, a) and K.legal_action(s, i) == a for i, a in enumerate(acts))
        if phase == K.PROPOSE:
            size = sizes[int(s[K.MISSION])]
            assert actor == s[K.LEADER]
            assert k == comb(n, size) and all(bits(a) == size for a in acts)
            assert not K.is_legal(s, (1 << (size + 1)) - 1) and not K.is_legal(s, 1 << n)
            if last_leader is not None:  # the leader passes to the next seat every proposal
                assert actor == (last_leader + 1) % n
            last_leader = actor
            proposals += 1
            a = acts[rng.randrange(k)]
        elif phase == K.VOTE:
            assert acts == [0, 1] and not K.is_legal(s, 2)
            a = int(rng.random() < p_approve)
        else:
            spy = bool(int(s[K.SPIES]) >> actor & 1)
            assert acts == ([0, 1] if spy else [0]), "only spies may play a fail card"
            a = acts[rng.randrange(k)]
        check_observations(s, a, n, actor)
        K.apply(s, a)
        steps += 1
        assert steps <= 5 * 5 * (1 + n) + 5 * 5, "the game must end"
    check_state(s, forced)
    assert proposals <= 25
    return s, proposals


def check_observations(s: np.ndarray, a: int, n: int, actor: int) -> None:
    """Proposals are public; a vote/card is seen by its player only, until the reveal."""
    phase, cursor = int(s[K.PHASE]), int(s[K.CURSOR])
    obs = [int(K.observe(s, a, o)) for o in range(n)]
    if phase == K.PROPOSE:
        assert obs == [K.OBS_TEAM | a] * n
        return
    if phase == K.VOTE:
        last = cursor == n - 1
        reveal = K.OBS_VOTES | (int(s[K.VOTES]) | (a << cursor))
    else:
        team = int(s[K.TEAM])
        last = team >> (cursor + 1) == 0
        reveal = K.OBS_FAILS | (int(s[K.FAILS]) + a)
    if last:
        assert obs == [reveal] * n
    else:
        assert obs[actor] == K.OBS_OWN | a
        assert all(obs[o] == K.OBS_HIDDEN for o in range(n) if o != actor)
        # What the others see does not depend on the hidden choice.
        assert all(K.observe(s, 1 - a, o) == K.OBS_HIDDEN for o in range(n) if o != actor)


@settings(max_examples=150, deadline=None)
@given(
    n=st.sampled_from(SIZES),
    forced=st.booleans(),
    seed=st.integers(0, 2**32),
    p_approve=st.sampled_from([0.2, 0.5, 0.8, 1.0]),
)
def test_random_games_reach_only_legal_states_and_end(n, forced, seed, p_approve):
    s, _ = walk_game(n, forced, seed, p_approve)
    assert K.is_terminal(s) and K.actor(s) == -1 and K.n_legal(s) == 0
    spies = [seat for seat in range(n) if int(s[K.SPIES]) >> seat & 1]
    for seat in range(n):
        expected = 1.0 if (s[K.WINNER] == K.SPY_SIDE) == (seat in spies) else 0.0
        assert K.reward(s, seat) == expected


def test_every_size_and_rule_reaches_every_ending():
    """Over many seeded random games each possible ending happens (and no impossible one)."""
    for n in SIZES:
        for forced in (False, True):
            ends = set()
            for seed in range(60):
                s, _ = walk_game(n, forced, seed, p_approve=0.55)
                ends.add(int(s[K.END]))
            want = {K.END_MISSIONS_RES, K.END_MISSIONS_SPY}
            assert ends == (want if forced else want | {K.END_REJECTIONS})


def test_random_games_same_seed_same_games():
    for n in SIZES:
        a, b = make_rng(42), make_rng(42)
        assert K.random_games(n, 500, 0, a) == K.random_games(n, 500, 0, b)
        assert a[0] == b[0]
    # and different seeds give different streams
    assert len({K.random_games(5, 200, 0, make_rng(seed)) for seed in range(10)}) > 1


def test_random_playouts_are_legal_from_any_midgame_state():
    for n in SIZES:
        for seed in range(20):
            rng = random.Random(seed)
            s, _ = walk_game(n, seed % 2 == 1, seed, 0.6)  # only for a valid spy mask
            s = K.new_state(n, int(s[K.SPIES]), rng.randrange(n), int(s[K.RULES]))
            for _ in range(rng.randrange(30)):  # a few random steps, then playout
                if K.is_terminal(s):
                    break
                K.apply(s, K.random_action(s, make_rng(rng.randrange(2**32))))
            g = make_rng(seed)
            while not K.is_terminal(s):
                a = K.random_action(s, g)
                assert K.is_legal(s, a)
                K.apply(s, a)
                check_state(s, bool(s[K.RULES]))


_NOJIT_SCRIPT = """
import json
from spyglass.resistance.arena.referee import play_game
from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.options import Rules
from spyglass.rng import make_rng
out = {
    "spy_wins_5": int(K.random_games(5, 40, 0, make_rng(11))),
    "spy_wins_10": int(K.random_games(10, 20, K.FORCED_FIFTH, make_rng(12))),
    "record": play_game(["randombot"] * 7, seed=3, rules=Rules("forced")).to_record(),
}
print(json.dumps(out))
"""


def test_kernel_runs_the_same_without_jit():
    """NUMBA_DISABLE_JIT=1 (a subprocess) gives the same playouts and the same game."""
    env = dict(os.environ, NUMBA_DISABLE_JIT="1")
    proc = subprocess.run([sys.executable, "-c", _NOJIT_SCRIPT], env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    from spyglass.games.resistance.options import Rules
    from spyglass.resistance.arena.referee import play_game

    assert got["spy_wins_5"] == K.random_games(5, 40, 0, make_rng(11))
    assert got["spy_wins_10"] == K.random_games(10, 20, K.FORCED_FIFTH, make_rng(12))
    record = play_game(["randombot"] * 7, seed=3, rules=Rules("forced")).to_record()
    assert got["record"] == json.loads(json.dumps(record))
