"""The ch. 8 reproduction (spyglass.experiments.icarus), small and seeded."""

from __future__ import annotations

import pytest

from spyglass.experiments import icarus as X


def test_table_cells_are_seeded_and_counted():
    records: list[dict] = []
    a = X.table_8_1("othello", 20, 2, seed=3, combos=["-", "E", "M", "EM"], records=records)
    b = X.table_8_1("othello", 20, 2, seed=3, combos=["-", "E", "M", "EM"])
    assert a["rates"] == b["rates"]
    # one record per game, giving each cell's wins (issue 28)
    assert len(records) == 8
    for name, r in a["rates"].items():
        mine = [x for x in records if x["cell"] == name]
        assert [x["i"] for x in mine] == [0, 1] and [x["seat"] for x in mine] == [0, 1]
        assert sum(x["win"] for x in mine) == r["wins"]
        assert all("enhance=" in x["seats"][x["seat"]] for x in mine)
    assert all(r["n"] == 2 and 0 <= r["low"] <= r["rate"] <= r["high"] <= 1
               for r in a["rates"].values())
    assert a["factors"]["E"]["n_with"] == 4 and a["factors"]["M"]["n_without"] == 4


def test_hearts_cell_and_combinations():
    hearts = X.combos_for("hearts")  # the recorded cells first (their seeds), then R
    assert len(hearts) == 16 and all("R" not in n for n in hearts[:8])
    assert all("R" in n for n in hearts[8:])
    assert len(X.combos_for("othello")) == 16
    res = X.table_8_1("hearts", 20, 1, seed=1, combos=["-", "L"])
    assert set(res["rates"]) == {"-", "L"}


def test_anova_finds_a_planted_effect():
    cells = {name: ([1] * 30 + [0] * 10 if "E" in name else [1] * 10 + [0] * 30)
             for name in X.combos_for("othello")}
    table = X.anova(cells)
    assert table["E"]["p"] < 1e-6 and table["M"]["p"] > 0.5


@pytest.mark.slow
def test_enhancement_costs_are_ratios():
    costs = X.enhancement_costs("othello", iterations=500, repeats=1, names=("", "mast"))
    assert costs["baseline"] == 1.0 and 0 < costs["mast"] < 2
