"""The Resistance on the game protocol: same rules as the kernel, the referee's deal, views
that hide the spies and hidden choices, spy sampling uniform over the consistent sets."""

from __future__ import annotations

from collections import Counter
from types import SimpleNamespace

import numpy as np
import pytest

from spyglass.games.registry import make
from spyglass.games.resistance import kernel as K
from spyglass.games.resistance import protocol as P
from spyglass.games.resistance.knowledge import consistent_configurations
from spyglass.games.resistance.tables import mask_to_seats
from spyglass.resistance.arena.referee import derive_seed
from spyglass.rng import make_rng


def test_deal_is_the_referees():
    import random

    from spyglass.games.resistance.tables import spy_configurations

    for n in (5, 7, 10):
        g = make("resistance", n)
        for seed in range(20):
            deal = random.Random(derive_seed(seed, 0x5EA7))
            configs = spy_configurations(n)
            spies = int(configs[deal.randrange(len(configs))])
            leader = deal.randrange(n)
            s = g.new_state(seed)
            assert (int(s[K.SPIES]), int(s[K.LEADER])) == (spies, leader)


@pytest.mark.parametrize("n", [5, 8, 10])
def test_protocol_plays_the_kernels_rules(n):
    """The same moves give the same kernel fields; the legal sets are the kernel's, sorted."""
    g = make("resistance", n)
    rng = np.random.default_rng(n)
    for seed in range(20):
        s = g.new_state(seed)
        ks = s[: K.STATE_SIZE].copy()
        while not K.is_terminal(ks):
            want = sorted(int(K.legal_action(ks, i)) for i in range(K.n_legal(ks)))
            assert g.legal_actions(s) == want
            a = want[int(rng.integers(len(want)))]
            for j in range(n):
                assert g.kernel.observe(s, a, j) == K.observe(ks, a, j)
            g.kernel.apply(s, a)
            K.apply(ks, a)
            assert (s[: K.STATE_SIZE] == ks).all()
        assert g.rewards(s) == tuple(K.reward(ks, j) for j in range(n))


def _finished_missions(s: np.ndarray) -> list:
    out = []
    for m in range(5):
        team = int(s[P.TEAMS_DONE + m])
        if team:
            out.append(SimpleNamespace(team=mask_to_seats(team),
                                       fails=(int(s[K.HISTORY]) >> (4 * m)) & 15))
    return out


def test_views_hide_the_spies_and_hidden_choices():
    g = make("resistance", 5)
    s = g.new_state(3)
    spies = int(s[K.SPIES])
    leader = int(s[K.LEADER])
    team = int(g.legal_actions(s)[0])
    g.kernel.apply(s, team)
    g.kernel.apply(s, 1)  # seat 0 approves
    for j in range(5):
        v = g.view(s, j)
        assert v[K.SPIES] == (spies if (spies >> j) & 1 else P.UNKNOWN_SPIES)
        assert v[K.VOTES] == (1 if j == 0 else 0)
        assert v[P.V_SEAT] == j and v[K.LEADER] == leader


@pytest.mark.parametrize("n", [5, 7])
def test_sampled_spies_are_uniform_over_the_consistent_sets(n):
    g = make("resistance", n)
    rng = np.random.default_rng(7)
    krng = make_rng(7)
    # Random games until some mission has failed, then check a resistance seat's samples.
    for seed in range(200):
        s = g.new_state(seed)
        while not g.kernel.is_terminal(s) and not any(m.fails for m in _finished_missions(s)):
            acts = g.legal_actions(s)
            g.kernel.apply(s, acts[int(rng.integers(len(acts)))])
        if any(m.fails for m in _finished_missions(s)):
            break
    else:
        pytest.fail("no sabotaged mission in 200 random games")
    j = next(x for x in range(n) if not (int(s[K.SPIES]) >> x) & 1)
    allowed = set(consistent_configurations(n, _finished_missions(s), j).tolist())
    assert int(s[K.SPIES]) in allowed
    v = g.view(s, j)
    s2 = np.zeros(g.state_size, dtype=np.int64)
    counts = Counter()
    draws = 300 * len(allowed)
    for _ in range(draws):
        assert g.kernel.sample(v, j, krng, s2)
        counts[int(s2[K.SPIES])] += 1
    assert set(counts) == allowed
    expected = draws / len(allowed)
    assert all(abs(c - expected) < 5 * expected**0.5 for c in counts.values()), counts
    # A spy knows the spies: every sample keeps them.
    spy = mask_to_seats(int(s[K.SPIES]))[0]
    assert g.kernel.sample(g.view(s, spy), spy, krng, s2) and s2[K.SPIES] == s[K.SPIES]


def test_words():
    g = make("resistance", 5)
    s = g.new_state(0)
    v = g.view(s, 0)
    acts = g.legal_actions(s)
    assert g.action_text(acts[0], v) == "team 0,1"
    assert g.parse_action("team 1, 0", acts, v) == 0b11
    assert g.parse_action("0 1", acts, v) == 0b11
    with pytest.raises(ValueError, match="not a legal team"):
        g.parse_action("team 0,1,2", acts, v)
    g.kernel.apply(s, 0b11)
    v = g.view(s, 0)
    assert g.action_text(1, v) == "approve" and g.parse_action("reject", [0, 1], v) == 0
    obs = g.kernel.observe(s, 1, 1)
    g.kernel.apply(s, 1)
    text = g.observation_text(obs, 1, 0, g.view(s, 1))
    assert text == "seat 0 voted (hidden until all have voted)"
    with pytest.raises(ValueError, match="2 players|5 to 10"):
        make("resistance", 4)
    with pytest.raises(ValueError, match="fifth_rejection"):
        make("resistance", 5, fifth_rejection="never")


def test_roles_and_seeds():
    g = make("resistance", 6)
    s = g.new_state(np.int64(4))
    assert (s == g.new_state(4)).all()
    roles = g.roles(s)
    assert roles.count("spy") == 2 and roles.count("resistance") == 4
    assert tuple(j for j, r in enumerate(roles) if r == "spy") == g.spies(s)
    assert make("phantom").roles(make("phantom").new_state(0)) == ("", "")
    with pytest.raises(TypeError, match="seed"):
        g.new_state("4")
    with pytest.raises(TypeError, match="seed"):
        g.new_state(True)
