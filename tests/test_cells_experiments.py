"""The paired-cells runner (spyglass.experiments.cells) and the two reproductions on it:
Whitehouse 2014 Fig. 7.7 (Scotland Yard) and §7.5.5 (Saboteur). Records, the pairing
(game i is the same deal in every cell), rotating seats, resuming, and the manifest that
declares a run's size before it is played."""

from __future__ import annotations

import json

import pytest

from spyglass.experiments import cells, saboteur, scotlandyard
from spyglass.experiments.ledger import read_cells_paired


def labels(game, result) -> dict:
    """A test outcome: who sat where, and the game's result."""
    return {"labels": list(result.labels), **cells.win_scores(game, result)}


def _lines(path):
    return path.read_text().splitlines()


def test_cells_play_the_same_deal_at_each_index(tmp_path):
    # two cells with the same players: game i is the same game in both (deal and seats'
    # seeds from the index), and different indices are different games
    out = tmp_path / "r.jsonl"
    same = ["random", "random"]
    rows = cells.run("t", [cells.cell("a", "scotlandyard", same),
                           cells.cell("b", "scotlandyard", same)], 4, out, seed=9)
    by = {(r["cell"], r["i"]): (r["scores"], r["moves"]) for r in rows}
    assert all(by[("a", i)] == by[("b", i)] for i in range(4))
    assert len({by[("a", i)][1] for i in range(4)}) > 1
    assert [json.loads(x)["cell"] for x in _lines(out)] == ["a", "b"] * 4  # index by index
    assert all(sum(r["scores"]) == 1 for r in rows)  # Mr X or the seekers


def test_rotating_cells_put_the_tested_player_in_the_same_random_seat(tmp_path):
    tested, other = "random:seed=5", "random"
    cs = [cells.cell("x", "saboteur", [tested] + [other] * 4, rotate=True),
          cells.cell("y", "saboteur", [other] * 5, rotate=True)]
    rows = cells.run("t", cs, 6, tmp_path / "r.jsonl", seed=3, outcome=labels)
    shifts = {}
    for r in rows:
        assert r["shift"] == cells.seat_shift(3, r["i"], 5)
        shifts.setdefault(r["i"], set()).add(r["shift"])
        if r["cell"] == "x":
            assert r["labels"][r["shift"]].startswith(tested)
            assert sum(lab.startswith(tested) for lab in r["labels"]) == 1
    assert all(len(s) == 1 for s in shifts.values())  # the same seat in both cells
    assert len({next(iter(s)) for s in shifts.values()}) > 1  # and not always the same
    wins = cells.seat_wins(rows, "x", 0)
    for r in rows:
        if r["cell"] == "x":
            assert wins[r["i"]] == (r["scores"][r["shift"]] == 1)


def test_a_stopped_run_resumes_without_replaying(tmp_path):
    out = tmp_path / "r.jsonl"
    cs = [cells.cell("a", "scotlandyard", ["random", "random"]),
          cells.cell("b", "scotlandyard", ["random", "random:seed=4"])]
    full = _lines_of_run(cs, 3, tmp_path / "full.jsonl")
    # a run killed after four games, half-way through writing the fifth
    out.write_text("\n".join(full[:4]) + "\n" + full[4][:20])
    rows = cells.run("t", cs, 3, out, seed=2)
    lines = _lines(out)
    assert lines[:4] == full[:4] and lines[4] == full[4][:20]
    assert sorted(lines[5:]) == sorted(full[4:])  # only the missing games, as before
    assert len(rows) == 6
    # the analysis reads complete indices only
    assert len(cells.complete([json.loads(x) for x in full[:5]])) == 4


def _lines_of_run(cs, games, path):
    cells.run("t", cs, games, path, seed=2)
    return _lines(path)


def test_the_manifest_declares_the_size_before_the_first_game(tmp_path):
    out = tmp_path / "r.jsonl"
    cs = [cells.cell("a", "scotlandyard", ["random", "random"])]
    declared = {"games_per_cell": 2, "seed": 1}
    cells.run("t", cs, 2, out, manifest=declared)
    stored = json.loads(cells.manifest_path(out).read_text())
    assert stored["declared"] == declared and "declared_at" in stored
    before = out.read_text()
    cells.run("t", cs, 2, out, manifest=declared)  # the same run: nothing to play
    assert out.read_text() == before
    with pytest.raises(ValueError, match="not changed or grown"):
        cells.run("t", cs, 3, out, manifest={"games_per_cell": 3, "seed": 1})
    assert out.read_text() == before


def test_scotland_yard_fig77_small_seeded_run(tmp_path, capsys):
    """Fig. 7.7's cells at a tiny budget: the bars' players (§7.5.1: TRUEONLY at K, the
    self-determinizing variants at 2K; seekers with and without inference), records, the
    table and the ledger's reader."""
    specs = {c.name: c.seats for c in scotlandyard.fig77_cells(1000)}
    assert len(specs) == 10
    assert specs["noinf-trueonly"] == ("mtismcts_pf:iterations=1000,model=none",
                                       "mtismcts_pf:iterations=1000,model=none")
    assert specs["inf-split"] == ("mtismcts_pf:iterations=2000,bluff=split",
                                  "mtismcts_pf:iterations=1000")
    out = tmp_path / "sy.jsonl"
    argv = ["run", "--games", "2", "--iterations", "8", "--seed", "4", "--out", str(out),
            "--cells", "noinf-trueonly,inf-trueonly,inf-pure"]
    assert scotlandyard.main(argv) == 0
    rows = cells.load(out)
    assert sorted((r["cell"], r["i"]) for r in rows) == sorted(
        (c, i) for c in ("noinf-trueonly", "inf-trueonly", "inf-pure") for i in range(2))
    assert all(r["experiment"] == "fig77" and sum(r["scores"]) == 1 for r in rows)
    manifest = json.loads(cells.manifest_path(out).read_text())["declared"]
    assert manifest["games_per_cell"] == 2 and manifest["iterations"] == 8
    assert manifest["cells"]["inf-pure"] == ["mtismcts_pf:iterations=16,bluff=pure",
                                             "mtismcts_pf:iterations=8"]
    assert "PURE over TRUEONLY" in capsys.readouterr().out
    assert scotlandyard.main(["table", str(out), "--plot", str(tmp_path / "f.png")]) == 0
    assert (tmp_path / "f.png").stat().st_size > 0
    ev = read_cells_paired(str(out), "inf-pure", "inf-trueonly", 0)
    assert ev["n"] == 2
    # growing the declared run is refused (exit 2), the records untouched
    before = out.read_text()
    assert scotlandyard.main([*argv[:2], "3", *argv[3:]]) == 2
    assert scotlandyard.main([*argv[:2], "3", *argv[3:], "--declare-only"]) == 2
    assert out.read_text() == before


def test_saboteur_755_small_seeded_run(tmp_path):
    out = tmp_path / "sab.jsonl"
    assert saboteur.main(["run", "--games", "2", "--iterations", "5", "--seed", "6",
                          "--out", str(out)]) == 0
    rows = cells.load(out)
    assert sorted((r["cell"], r["i"]) for r in rows) == [
        ("cardcheat", 0), ("cardcheat", 1), ("control", 0), ("control", 1),
        ("inference", 0), ("inference", 1)]
    by = {(r["cell"], r["i"]): r for r in rows}
    assert all(by[(c, i)]["shift"] == by[("control", i)]["shift"]
               for c in ("inference", "cardcheat") for i in (0, 1))
    assert all(len(r["scores"]) == saboteur.PLAYERS for r in rows)
    assert read_cells_paired(str(out), "inference", "control", 0)["n"] == 2
    assert read_cells_paired(str(out), "cardcheat", "control", 0)["n"] == 2


def test_spyglass_experiment_scotlandyard_and_saboteur_hand_over_their_arguments(tmp_path):
    from typer.testing import CliRunner

    from spyglass.cli import _load_commands
    from spyglass.cli.app import app

    _load_commands()
    out = tmp_path / "r.jsonl"
    cells.run("fig77", [cells.cell("inf-trueonly", "scotlandyard", ["random"] * 2),
                        cells.cell("noinf-trueonly", "scotlandyard", ["random"] * 2)], 2, out)
    runner = CliRunner()
    res = runner.invoke(app, ["experiment", "scotlandyard", "table", str(out)])
    assert res.exit_code == 0, res.output
    assert "inference: seekers' wins" in res.output
    bad = runner.invoke(app, ["experiment", "saboteur", "run", "--games", "1", "--out",
                              str(out), "--cells", "bogus"])
    assert bad.exit_code == 2


@pytest.mark.parametrize("page", ["scotland-yard.md", "saboteur.md"])
def test_the_doc_pages_show_the_ledgers_rows(page):
    """docs/scotland-yard.md's and docs/saboteur.md's results tables are the ledger's,
    computed from the stored games."""
    from pathlib import Path

    from spyglass.experiments.ledger import compute, page_table

    root = Path(__file__).resolve().parent.parent
    table = page_table(compute(root=root), page)
    assert table.count("\n") >= 2
    assert table in (root / "docs" / page).read_text(), \
        f"docs/{page}'s reproductions table is stale: paste ledger.page_table(...)"
