"""The Scotland Yard belief trace (Whitehouse 2014, Fig. 7.8's plot, on §4.2.12's game):
it reads the seekers' particle filter without changing the game, and the hard
constraints bind it (after Mr X surfaces, every particle holds his true station)."""

from __future__ import annotations

import numpy as np

from spyglass.arena.match import play_match
from spyglass.experiments.cells import game_seed
from spyglass.experiments.scotlandyard import mrx_spec, seekers_spec
from spyglass.experiments.scotlandyard_beliefs import summary, timeline, trace_game
from spyglass.games import registry

K_TEST = 30


def test_tracing_changes_nothing_and_surfacing_pins_the_belief():
    rec = trace_game(5, 0, K_TEST)
    plain = play_match(registry.make("scotlandyard"),
                       [mrx_spec("trueonly", K_TEST), seekers_spec("inf", K_TEST)],
                       seed=game_seed(5, 0))
    assert rec["moves"] == len(plain.actions)
    assert rec["actions"] == [a for _s, a in plain.actions]
    assert rec["scores"] == [int(x) for x in registry.make("scotlandyard").win_scores(
        plain.rewards)]
    steps = rec["steps"]
    assert len(steps) == rec["moves"] + 1
    p = np.array([s["p_truth"] for s in steps])
    assert ((p >= 0) & (p <= 1 + 1e-9)).all()
    pinned = [s for s in steps if s["n_poss"] == 1]
    assert pinned, "Mr X surfaces after his third move"
    assert all(abs(s["p_truth"] - 1) < 1e-9 and s["p_hard"] == 1 for s in pinned)
    assert all(abs(s["p_moves"] - 1) < 1e-9 for s in pinned)
    assert all(s["p_moves"] > 0 for s in steps)  # the exact propagation keeps the truth
    x = timeline(steps)
    assert x[0] == 0 and (np.diff(x) >= 0).all()
    s = summary([rec])
    hidden = [st for st in steps[1:] if st["n_poss"] > 1]
    assert s["all"]["games"] == 1 and s["all"]["hidden_steps"] == len(hidden)
