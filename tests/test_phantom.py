"""Phantom (m,n,k): rule invariants (hypothesis), scripted games, sampling, the game class."""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spyglass.games.phantom import kernel as K
from spyglass.games.phantom.game import Phantom
from spyglass.rng import make_rng

ROOT = Path(__file__).resolve().parents[1]


def lines_of(m: int, n: int, k: int) -> list[int]:
    """Every k-in-a-row as a bitmask, listed independently of the kernel."""
    out = []
    for r in range(n):
        for c in range(m):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(k)]
                if all(0 <= rr < n and 0 <= cc < m for rr, cc in cells):
                    out.append(sum(1 << (rr * m + cc) for rr, cc in cells))
    return out


def has_line(mask: int, lines: list[int]) -> bool:
    return any(mask & ln == ln for ln in lines)


boards = st.tuples(st.integers(1, 5), st.integers(1, 5)).flatmap(
    lambda mn: st.tuples(st.just(mn[0]), st.just(mn[1]), st.integers(1, max(mn)))
)


def play_random(m: int, n: int, k: int, seed: int, check=None) -> np.ndarray:
    """A uniformly random game; ``check(before, action, after, observations)`` each move."""
    s = K.new_state(m, n, k)
    rng = np.random.default_rng(seed)
    moves = 0
    while not K.is_terminal(s):
        legal = [K.legal_action(s, i) for i in range(K.n_legal(s))]
        a = legal[int(rng.integers(len(legal)))]
        obs = [K.observe(s, a, j) for j in range(2)]
        before = s.copy()
        K.apply(s, a)
        if check is not None:
            check(before, a, s, obs)
        moves += 1
        assert moves <= 2 * m * n - 1, "more moves than max_moves"
    return s


@settings(max_examples=150, deadline=None)
@given(boards, st.integers(0, 10**6))
def test_random_games_obey_the_rules(board, seed):
    m, n, k = board
    lines = lines_of(m, n, k)
    full = (1 << (m * n)) - 1
    refused = [0, 0]

    def check(before, a, after, obs):
        p = int(before[K.TO_MOVE])
        o = 1 - p
        legal = [K.legal_action(before, i) for i in range(K.n_legal(before))]
        # Legal squares: everything not own and not already refused, in increasing order.
        blocked = int(before[K.STONES + p]) | refused[p]
        assert legal == [x for x in range(m * n) if not (blocked >> x) & 1]
        if (int(before[K.STONES + o]) >> a) & 1:
            # Rejected: the board and the turn do not change; the actor learns the square.
            refused[p] |= 1 << a
            assert after[K.STONES] == before[K.STONES]
            assert after[K.STONES + 1] == before[K.STONES + 1]
            assert after[K.TO_MOVE] == p
            assert obs[p] == K.OBS_OWN + 2 * a + 1 and obs[o] == K.OBS_UNSEEN
        else:
            assert after[K.STONES + p] == before[K.STONES + p] | (1 << a)
            assert obs[p] == K.OBS_OWN + 2 * a
            assert obs[o] in (K.OBS_OPP_PLACED, K.OBS_OPP_WON, K.OBS_OPP_DREW)
        # The game ends exactly on a line or a full board.
        x, y = int(after[K.STONES]), int(after[K.STONES + 1])
        ended = has_line(x, lines) or has_line(y, lines) or (x | y) == full
        assert K.is_terminal(after) == ended
        if ended:
            r = int(after[K.RESULT])
            assert r == (p if has_line(int(after[K.STONES + p]), lines) else K.DRAW)
            assert obs[o] == (K.OBS_OPP_WON if r == p else K.OBS_OPP_DREW)
        elif obs[o] != K.OBS_UNSEEN:
            assert obs[o] == K.OBS_OPP_PLACED
        # Each view holds only its own marks and the squares it was refused on.
        for j in range(2):
            v = np.zeros(K.VIEW_SIZE, dtype=np.int64)
            K.view(after, j, v)
            assert v[K.V_OWN] == after[K.STONES + j]
            assert v[K.V_REFUSED] == refused[j] == after[K.KNOWN + j]
            assert v[K.V_OPP_COUNT] == bin(int(after[K.STONES + 1 - j])).count("1")

    s = play_random(m, n, k, seed, check)
    rewards = [K.reward(s, j) for j in range(2)]
    assert sorted(rewards) in ([0.0, 1.0], [0.5, 0.5])


def play_script(m, n, k, moves):
    s = K.new_state(m, n, k)
    for a in moves:
        assert not K.is_terminal(s)
        legal = [K.legal_action(s, i) for i in range(K.n_legal(s))]
        assert a in legal
        K.apply(s, a)
    return s


def test_line_starts_are_every_square_a_line_of_k_fits_from():
    """The mask arithmetic of ``set_line_starts`` against a square-by-square count."""
    for m, n in itertools.product(range(1, 9), repeat=2):
        if m * n > K.MAX_SQUARES:
            continue
        for k in range(1, max(m, n) + 2):
            want = [0, 0, 0, 0]
            for r, c in itertools.product(range(n), range(m)):
                bit = 1 << (r * m + c)
                fits = (c + k <= m, r + k <= n, c + k <= m and r + k <= n,
                        c >= k - 1 and r + k <= n)
                for d in range(4):
                    want[d] |= bit if fits[d] else 0
            s = np.zeros(K.STATE_SIZE, dtype=np.int64)
            K.set_line_starts(s, m, n, k)
            assert s[K.LINES:K.LINES + 4].tolist() == want, (m, n, k)


def test_scripted_row_win_for_the_first_player():
    # X: a1 b1 c1 (0, 1, 2); O: a2 b2 (3, 4).
    s = play_script(3, 3, 3, [0, 3, 1, 4, 2])
    assert K.is_terminal(s) and s[K.RESULT] == 0
    assert (K.reward(s, 0), K.reward(s, 1)) == (1.0, 0.0)


def test_scripted_refusals_and_a_second_player_diagonal():
    # X a1(0); O tries a1 -> refused, then b2(4); X c1(2); O tries c1 -> refused, a3(6)...
    s = play_script(3, 3, 3, [0, 0, 4, 2, 2, 6, 1])
    # X made a1, c1, b1: the top row.
    assert s[K.RESULT] == 0
    s = play_script(3, 3, 3, [0, 2, 3, 4, 5, 6])
    # O: c1(2), b2(4), a3(6) -- the anti-diagonal.
    assert s[K.RESULT] == 1 and K.reward(s, 1) == 1.0
    s = play_script(3, 3, 3, [0, 0, 0 + 4])
    assert s[K.KNOWN + 1] == 1 and s[K.STONES + 1] == 1 << 4 and s[K.TO_MOVE] == 0


def test_scripted_draw_scores_a_half():
    # X: a1 c1 b2 a3... a full 3x3 board without a line:
    # X O X / X O O / O X X  -> squares X: 0 2 3 7 8, O: 1 4 5 6
    s = play_script(3, 3, 3, [0, 1, 2, 4, 3, 5, 7, 6, 8])
    assert s[K.RESULT] == K.DRAW
    assert (K.reward(s, 0), K.reward(s, 1)) == (0.5, 0.5)


def test_scripted_444_diagonal():
    # X: a1 b2 c3 d4 (0, 5, 10, 15); O: b1 c1 d1 (1, 2, 3), trying a1 first (refused).
    s = play_script(4, 4, 4, [0, 0, 1, 5, 2, 10, 3, 15])
    assert s[K.RESULT] == 0 and s[K.KNOWN + 1] == 1


def consistent_placements(v: np.ndarray) -> Counter:
    """Exact list of the opponent's possible marks for view ``v`` (brute force)."""
    m, n, k = (int(v[x]) for x in (K.V_M, K.V_N, K.V_K))
    j = int(v[K.V_SEAT])
    lines = lines_of(m, n, k)
    own, refused = int(v[K.V_OWN]), int(v[K.V_REFUSED])
    free = [x for x in range(m * n) if not ((own | refused) >> x) & 1]
    need = int(v[K.V_OPP_COUNT]) - bin(refused).count("1")
    out = Counter()
    for combo in itertools.combinations(free, need):
        opp = refused | sum(1 << x for x in combo)
        r = int(v[K.V_RESULT])
        if r == 1 - j:
            ok = has_line(opp, lines) and any(
                not has_line(opp & ~(1 << x), lines)
                for x in range(m * n)
                if (opp >> x) & 1 and not (refused >> x) & 1
            )
        else:
            ok = not has_line(opp, lines)
        if ok:
            out[opp] = 0
    return out


@settings(max_examples=40, deadline=None)
@given(boards, st.integers(0, 10**6), st.integers(0, 40), st.integers(0, 1))
def test_sample_is_consistent_and_covers_exactly_the_consistent_placements(board, seed, cut, j):
    m, n, k = board
    s = K.new_state(m, n, k)
    rng = np.random.default_rng(seed)
    for _ in range(cut):
        if K.is_terminal(s):
            break
        K.apply(s, K.legal_action(s, int(rng.integers(K.n_legal(s)))))
    v = np.zeros(K.VIEW_SIZE, dtype=np.int64)
    K.view(s, j, v)
    truth = consistent_placements(v)
    assert int(s[K.STONES + 1 - j]) in truth
    krng = make_rng(seed)
    s2 = np.zeros(K.STATE_SIZE, dtype=np.int64)
    v2 = np.zeros_like(v)
    draws = 30 * len(truth)
    for _ in range(min(draws, 600)):
        assert K.sample(v, j, krng, s2)
        K.view(s2, j, v2)
        assert (v2 == v).all()
        assert K.info_key(s2, j) == K.info_key(s, j)
        assert int(s2[K.STONES + 1 - j]) in truth
        assert s2[K.KNOWN + 1 - j] & ~s2[K.STONES + j] == 0
        truth[int(s2[K.STONES + 1 - j])] += 1
    if draws <= 600:
        # Uniform: with 30 expected draws each, every placement shows up.
        assert min(truth.values()) > 0


def test_sample_is_uniform():
    # After X b2 (4) and O's first mark, X's view allows 8 placements equally.
    s = play_script(3, 3, 3, [4, 0])
    v = np.zeros(K.VIEW_SIZE, dtype=np.int64)
    K.view(s, 0, v)
    rng = make_rng(7)
    s2 = np.zeros(K.STATE_SIZE, dtype=np.int64)
    counts = Counter()
    for _ in range(8000):
        assert K.sample(v, 0, rng, s2)
        counts[int(s2[K.STONES + 1])] += 1
    assert len(counts) == 8
    assert all(850 < c < 1150 for c in counts.values()), counts


def test_sample_falls_back_to_counting_when_draws_fail():
    # An impossible view (k=1: any opponent mark would be a line, yet the game goes on):
    # every random draw fails, the exact count finds nothing, and sample says so.
    v = np.array([3, 3, 1, 0, 0, -1, 1, 0, 1, 1], dtype=np.int64)
    s2 = np.zeros(K.STATE_SIZE, dtype=np.int64)
    assert not K.sample(v, 0, make_rng(1), s2)


def test_game_options_and_words():
    g = Phantom()
    assert (g.m, g.n, g.k, g.n_actions, g.max_moves) == (4, 4, 4, 16, 31)
    t = Phantom(m=3, n=3, k=3)
    assert [t.action_text(a) for a in (0, 4, 8)] == ["a1", "b2", "c3"]
    assert t.parse_action(" B2 ", [4, 5]) == 4
    with pytest.raises(ValueError, match="not a legal move"):
        t.parse_action("a1", [4, 5])
    with pytest.raises(ValueError, match="not a legal move"):
        t.parse_action("zz", [4, 5])
    with pytest.raises(ValueError, match="k=5"):
        Phantom(m=3, n=4, k=5)
    with pytest.raises(ValueError, match="at most 62 squares"):
        Phantom(m=8, n=8, k=4)
    with pytest.raises(TypeError):
        Phantom(m=2.5)
    with pytest.raises(ValueError, match="2 players"):
        Phantom(3)
    s = t.new_state(0)
    for a in (4, 4, 0):
        K.apply(s, a)
    text = t.view_text(t.view(s, 1), 1)
    assert text.splitlines()[1:3] == [" 1 O . .", " 2 . X ."] and "(0 unseen)" in text
    assert t.observation_text(K.OBS_OWN + 2 * 4 + 1, 1, 1).startswith("you tried b2: refused")
    assert "unseen" in t.observation_text(K.OBS_OPP_PLACED, 0, 1)


_NOJIT_SCRIPT = """
import numpy as np
from spyglass.games.phantom import kernel as K
from spyglass.rng import make_rng
out = []
for seed in range(30):
    rng = make_rng(seed)
    s = K.new_state(4, 4, 4) if seed % 2 else K.new_state(3, 3, 3)
    while not K.is_terminal(s):
        a = K.random_action(s, rng)
        out.append((int(a), int(K.observe(s, a, 0)), int(K.observe(s, a, 1))))
        K.apply(s, a)
        v = np.zeros(K.VIEW_SIZE, dtype=np.int64)
        K.view(s, seed % 2, v)
        s2 = np.zeros(K.STATE_SIZE, dtype=np.int64)
        out.append((bool(K.sample(v, seed % 2, rng, s2)), tuple(int(x) for x in s2),
                    int(K.info_key(s, 0))))
    out.append(tuple(int(x) for x in s))
import hashlib
print(hashlib.sha256(repr(out).encode()).hexdigest())
"""


def test_numba_disabled_gives_the_same_games():
    runs = []
    for flag in ("0", "1"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=flag, PYTHONPATH=str(ROOT))
        r = subprocess.run([sys.executable, "-c", _NOJIT_SCRIPT], env=env, capture_output=True,
                           text=True, timeout=300, check=False)
        assert r.returncode == 0, r.stderr
        runs.append(r.stdout.strip())
    assert runs[0] == runs[1] and len(runs[0]) == 64
