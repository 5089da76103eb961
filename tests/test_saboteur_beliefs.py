"""The Saboteur belief trace (Whitehouse 2014, §7.5.5, Fig. 7.8): it reads the inference
player's particle filter without changing the game, seats that player where the
``inference`` cell does, and compares with the deal's prior (§4.2.13's role deck)."""

from __future__ import annotations

import numpy as np

from spyglass.experiments import cells
from spyglass.experiments.saboteur import PLAYERS, sab_cells
from spyglass.experiments.saboteur_beliefs import summary, times, trace_game

K_TEST = 20


def test_the_trace_is_the_inference_cells_game_and_its_prior_is_the_deals():
    rec = trace_game(6, 1, K_TEST)
    inference = next(c for c in sab_cells(K_TEST) if c.name == "inference")
    plain = cells.play_job(cells.GameJob("sab755", inference, 6, 1))
    assert (rec["scores"], rec["moves"], rec["shift"]) == (
        plain["scores"], plain["moves"], plain["shift"])
    assert rec["seat"] == plain["shift"] % PLAYERS
    steps = rec["steps"]
    assert len(steps) == rec["moves"] + 1
    p = np.array([s["p_truth"] for s in steps])
    assert ((p >= 0) & (p <= 1 + 1e-9)).all()
    # five players, 2 saboteur and 4 digger cards, one unseen: 10 or 5 assignments
    want = 1 / 5 if rec["role"] == "saboteur" else 1 / 10
    assert all(abs(s["p_prior"] - want) < 1e-12 for s in steps)
    x = times(steps)
    assert x[0] == 0 and x[-1] == 1
    assert summary([rec])["all"]["games"] == 1
