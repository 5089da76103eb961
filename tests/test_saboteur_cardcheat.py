"""The card-cheating Saboteur player: it sees all hidden information but the roles.

Whitehouse 2014, §7.5.5: "ISMCTS players which 'cheat' (have access to all hidden
information except the other players' roles) were tested against ISMCTS players which
do not". Its determinizations (:func:`spyglass.games.saboteur.roles.role_deals`) are the
true state with the other seats' roles drawn from the role deck of §4.2.13 and the
published rules (one card more than players, the spare unseen), given its own card.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spyglass.agents import registry as agents
from spyglass.arena.match import play_match
from spyglass.games import registry
from spyglass.games.saboteur import kernel as K
from spyglass.games.saboteur.roles import role_chances, role_deals
from spyglass.rng import make_rng


def _state_with(n: int, seat_role: int, seat: int = 0) -> np.ndarray:
    g = registry.make("saboteur", n)
    for seed in range(200):
        s = g.new_state(seed)
        if s[K.ROLE + seat] == seat_role:
            return s
    raise AssertionError("no deal with that role in 200 seeds")


def test_five_players_a_digger_considers_ten_assignments_a_saboteur_five():
    """Hand-checked: 2 saboteur and 4 digger cards for 5 players. A digger's other four
    seats hold two saboteurs (the spare a digger: C(4,2) = 6 ways) or one (the spare a
    saboteur: 4 ways); a saboteur's hold one (4 ways) or none (1 way). Every order of
    the deck is equally likely and the others' cards fix the spare, so each is 1/10 or
    1/5."""
    digger = role_chances(5, 0, 0)
    assert len(digger) == 10 and {p for _r, p in digger} == {Fraction(1, 10)}
    assert Counter(sum(r) for r, _p in digger) == {2: 6, 1: 4}
    saboteur = role_chances(5, 2, 1)
    assert len(saboteur) == 5 and {p for _r, p in saboteur} == {Fraction(1, 5)}
    assert all(r[2] == 1 for r, _p in saboteur)
    assert Counter(sum(r) for r, _p in saboteur) == {2: 4, 1: 1}


@settings(max_examples=40, deadline=None)
@given(n=st.integers(3, 10), seed=st.integers(0, 2**32), seat=st.integers(0, 9),
       moves=st.lists(st.integers(0, 10**6), max_size=30))
def test_role_deals_keep_everything_but_the_other_roles(n, seed, seat, moves):
    """Each state is the true one but for the other seats' roles; the assignments are
    exactly those the role deck allows beside the seat's own card, the true one among
    them, equally likely (the deck's orders are), their chances summing to 1."""
    seat %= n
    g = registry.make("saboteur", n)
    s = g.new_state(seed)
    out = np.empty(K.N_ACTIONS, dtype=np.int64)
    for m in moves:  # somewhere in a round: hands, stock and discards have moved
        if K.is_terminal(s):
            break
        K.apply(s, int(out[m % K.legal_actions(s, out)]))
    states, weights = role_deals(s, seat)
    roles = K.ROLE + np.arange(n)
    rest = np.ones(K.STATE_SIZE, dtype=bool)
    rest[roles] = False
    assert (states[:, rest] == s[rest]).all()
    assert (states[:, K.ROLE + seat] == s[K.ROLE + seat]).all()
    got = {tuple(r) for r in states[:, roles].tolist()}
    assert len(got) == len(states)
    sab_cards, dig_cards = int(K.SABOTEURS[n]), int(K.DIGGERS[n])
    want = set()
    for bits in range(1 << n):
        r = tuple((bits >> q) & 1 for q in range(n))
        if r[seat] == s[K.ROLE + seat] and sum(r) <= sab_cards and n - sum(r) <= dig_cards:
            want.add(r)
    assert got == want
    assert tuple(s[roles]) in got
    assert weights.sum() == pytest.approx(1.0)
    assert np.allclose(weights, 1 / len(weights))


def test_role_deals_are_the_distribution_the_sampler_draws_roles_from():
    """The cheater's role distribution is the fair players' (kernel.sample's roles from
    the same seat's view): five players, 6,000 draws, a chi-squared test per role."""
    from scipy.stats import chisquare

    g = registry.make("saboteur", 5)
    rng = make_rng(11)
    t = np.zeros(K.STATE_SIZE, dtype=np.int64)
    for role in (0, 1):
        s = _state_with(5, role)
        states, weights = role_deals(s, 0)
        index = {tuple(r): i for i, r in enumerate(states[:, K.ROLE:K.ROLE + 5].tolist())}
        counts = np.zeros(len(index))
        v = g.view(s, 0)
        n = 6000
        for _ in range(n):
            assert K.sample(v, 0, rng, t)
            counts[index[tuple(t[K.ROLE:K.ROLE + 5].tolist())]] += 1
        assert chisquare(counts, n * weights).pvalue > 1e-3, counts


def test_the_card_cheater_is_privileged_and_plays_only_games_with_role_deals():
    cls = agents.get("mtismcts_cardcheat")
    assert cls.omniscient is True
    assert cls.plays == ("saboteur",)
    a = agents.make("mtismcts_cardcheat", iterations=10)
    g = registry.make("resistance")
    s = g.new_state(1)
    with pytest.raises(ValueError, match="plays only saboteur"):
        a.start(g, 0, s, 1)


def test_the_card_cheater_plays_whole_rounds_legally_and_is_recorded_as_privileged():
    g = registry.make("saboteur", 3)
    seats = ["mtismcts_cardcheat:iterations=40", "mtismcts_pf:iterations=40,model=none",
             "random"]
    r = play_match(g, seats, seed=5)
    assert r.error is None and len(r.actions) > 0
    assert r.omniscient == (0,)
    again = play_match(g, seats, seed=5)
    assert again.actions == r.actions  # seeded: the same round
