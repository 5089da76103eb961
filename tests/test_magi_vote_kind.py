"""Magi's scalar ``vote_kind`` (used when learning, roles revealed) must name the same
behaviour as ``vote_category`` (used while playing, per configuration): they are two
codings of one rule, so they are checked against each other on every configuration."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from spyglass.games.resistance.observation import Proposal
from spyglass.games.resistance.tables import spy_configurations
from spyglass.resistance.bots.magi import VOTE_KINDS, vote_category, vote_kind


@st.composite
def cases(draw):
    n = draw(st.integers(5, 10))
    size = draw(st.integers(2, 5))
    team = tuple(sorted(draw(st.lists(st.integers(0, n - 1), min_size=size, max_size=size,
                                      unique=True))))
    voter = draw(st.integers(0, n - 1))
    return n, Proposal(1, 1, team[0], team, None, False), voter, draw(st.booleans())


@settings(max_examples=200, deadline=None)
@given(cases())
def test_vote_kind_matches_vote_category_on_every_configuration(case):
    n, prop, voter, succeeded = case
    masks = [int(m) for m in spy_configurations(n)]
    bits = np.array([[(m >> s) & 1 for s in range(n)] for m in masks])
    kinds = vote_category(prop, voter, n, bits, succeeded)
    for mask, kind in zip(masks, kinds, strict=True):
        spies = frozenset(s for s in range(n) if mask >> s & 1)
        assert vote_kind(prop, voter, n, spies, succeeded) == VOTE_KINDS[int(kind)]
