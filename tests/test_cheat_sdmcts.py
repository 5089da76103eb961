"""SDMCTS for Cheat: the abstractions, the Smooth-UCT search and the MGA/PMGA/FPMGA agents."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from spyglass.agents import registry as agents
from spyglass.agents.sdmcts import SEARCH_PARAMS, search_cheat
from spyglass.arena.match import play_match
from spyglass.games import registry
from spyglass.games.cheat import abstraction as A
from spyglass.games.cheat import kernel as K
from spyglass.params import validate
from spyglass.rng import make_rng

GAME = registry.make("cheat")
DEFAULTS = validate(SEARCH_PARAMS, {}, owner="test")


def _states(seed: int, n_games: int = 3):
    rng = np.random.default_rng(seed)
    for g in range(n_games):
        s = GAME.new_state(seed + g)
        while not K.is_terminal(s):
            yield s.copy()
            acts = GAME.legal_actions(s)
            K.apply(s, acts[int(rng.integers(len(acts)))])


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 127), min_size=16, max_size=16))
def test_the_32_bit_key_holds_the_16_attributes_without_loss(values):
    a = np.array([v % (1 << int(w)) for v, w in zip(values, A.WIDTHS, strict=True)], dtype=np.int64)
    key = A.pack(a)
    assert 0 <= key < 1 << 32
    out = np.zeros(16, dtype=np.int64)
    A.unpack(key, out)
    assert (out == a).all()


def test_abstract_actions_map_to_legal_concrete_moves_that_keep_their_promise():
    mask = np.zeros(18, dtype=np.int64)
    for s in _states(7):
        legal = set(GAME.legal_actions(s))
        n = A.legal(s, mask)
        assert n == mask.sum() >= 1
        attrs = np.zeros(16, dtype=np.int64)
        A.attrs(s, int(s[K.TO_MOVE]), attrs)
        assert all(0 <= x < 1 << int(w) for x, w in zip(attrs, A.WIDTHS, strict=True))
        for a in np.flatnonzero(mask):
            c = A.concrete(s, int(a))
            assert c in legal
            if a >= A.A_CLAIM0:
                b = a - A.A_CLAIM0
                t = s.copy()
                K.apply(t, c)
                assert t[K.LAST_K] == b % 4 + 1
                assert K.last_claim_true(t) == ((b // 4) % 2 == 0)
                assert t[K.REF] == K.claimed_rank(s[K.REF], b // 8)
        r = A.rollout(s, make_rng(3))
        assert mask[r] == 1
        if A.heuristic_call(s):
            assert r == A.A_CALL and not K.last_claim_true(s)


def _opp_claim_view():
    for s in _states(21):
        j = int(s[K.TO_MOVE])
        if s[K.PREV_KIND] == K.K_CLAIM and s[K.LAST_BY] == 1 - j and not s[K.FORCED]:
            return GAME.view(s, j), j
    raise AssertionError("no claim found")


def test_packed_and_naive_keys_find_the_same_nodes_and_the_search_is_seeded():
    v, j = _opp_claim_view()
    runs = []
    for key in ("packed", "naive", "packed"):
        q, n, ok, sims = search_cheat(v, j, [1, 0], 200, dict(DEFAULTS, key=key), make_rng(5))
        runs.append((q, n, ok, sims))
    (q0, n0, ok0, s0), (q1, n1, _, s1), (q2, n2, _, _) = runs
    assert ok0.tolist() == [1, 1] and s0 == s1 == 400
    assert (n0 == n1).all() and np.allclose(q0, q1)      # the same tree either way
    assert (n0 == n2).all() and np.allclose(q0, q2)      # same seed, same search
    assert n0[0].sum() == 200 and n0[1].sum() == 200     # one root per hypothesis


def test_agents_play_cheat_and_fpmga_is_recorded_as_omniscient():
    for spec in ("mga", "fpmga", "pmga"):
        r = play_match(GAME, [agents.make(spec, iterations=30), agents.make("random")],
                       seed=4)
        assert r.ok and sum(r.rewards) == 1.0
        assert r.omniscient == ((0,) if spec == "fpmga" else ())


def test_the_search_is_the_same_with_numba_disabled():
    import os
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[1]
    code = (
        "import numpy as np\n"
        "from spyglass.agents.sdmcts import SEARCH_PARAMS, search_cheat\n"
        "from spyglass.bench.cheat import positions\n"
        "from spyglass.params import validate\n"
        "from spyglass.rng import make_rng\n"
        "v, j = positions(1, seed=3)[0]\n"
        "q, n, ok, s = search_cheat(v, j, [1, 0], 20, validate(SEARCH_PARAMS, {}, owner='t'),"
        " make_rng(2))\n"
        "print(s, n.tolist(), np.round(q, 9).tolist())\n"
    )
    outs = []
    for disable in ("1", "0"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=disable, PYTHONPATH=str(root))
        r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, timeout=600, check=True)
        outs.append(r.stdout)
    assert outs[0] == outs[1] and outs[0].startswith("40 ")
