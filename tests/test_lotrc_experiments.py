"""The LOTR:C reproductions' runner (spyglass.experiments.lotrc; Whitehouse 2014 §5.1.1,
§6.3.2 Figs 6.2-6.3 and 6.8): the cells each experiment plays, the pairing of the tests,
resuming a stopped run."""

from __future__ import annotations

import json

from spyglass.experiments import lotrc


def _row(dark, light, i, winner, experiment="roundrobin", **more):
    return {"experiment": experiment, "setup": "fixed", "seed": 1, "dark": dark,
            "light": light, "i": i, "winner": winner, "moves": 10, **more}


def test_ensemble_shapes_follow_the_thesis():
    # §6.3.2: Light one tree of all iterations; Dark 10 : 1,000 (10 x 1,000 at 10,000)
    assert lotrc.player("pimc", 10_000, lotrc.DARK) == "pimc:d=10,s=1000"
    assert lotrc.player("pimc", 10_000, lotrc.LIGHT) == "pimc:d=1,s=10000"
    assert lotrc.player("cheatingensemble", 10_000, lotrc.LIGHT) == \
        "cheatingensemble:d=10,s=1000"
    assert lotrc.player("moismcts", 500, lotrc.LIGHT) == "moismcts:iterations=500"
    assert len(lotrc.roundrobin_cells(lotrc.ALGORITHMS, 100)) == 36
    assert lotrc.balance_cells(1000) == [("pimc:d=40,s=25", "pimc:d=1,s=1000"),
                                         ("pimc:d=40,s=25", "pimc:d=40,s=25"),
                                         ("pimc:d=1,s=1000", "pimc:d=40,s=25")]


def test_compare_side_pairs_on_opponent_and_seed_and_drops_unfinished_indices():
    rows = [
        # index 0: as Dark, a beats L, b loses to L -> a up
        _row("a:x=1", "L", 0, 0), _row("b:x=1", "L", 0, 1),
        _row("a:x=1", "a:y", 0, 1), _row("b:x=1", "a:y", 0, 1),
        # index 1: both win as Dark
        _row("a:x=1", "L", 1, 0), _row("b:x=1", "L", 1, 0),
        _row("a:x=1", "a:y", 1, 0), _row("b:x=1", "a:y", 1, 1),
        # index 2 is unfinished (one cell only): left out
        _row("a:x=1", "L", 2, 0),
    ]
    up, down, n = lotrc.compare_side(rows, "dark", "a", "b")
    assert (up, down, n) == (2, 0, 4)
    assert lotrc.compare_side(rows, "dark", "b", "a") == (0, 2, 4)
    # as Light: a (a:y) and L each met Dark a:x=1 and b:x=1 on indices 0 and 1
    assert lotrc.compare_side(rows, "light", "a", "L") == (2, 0, 4)


def test_head_to_head_reads_one_time_point():
    rows = [_row("moismcts:iterations=5", "pimc:d=1,s=9", 0, 0, "time1", seconds=1.0),
            _row("pimc:d=1,s=9", "moismcts:iterations=5", 0, 1, "time1", seconds=1.0),
            _row("moismcts:iterations=15", "pimc:d=1,s=27", 0, 1, "time3", seconds=3.0),
            _row("pimc:d=1,s=27", "moismcts:iterations=15", 0, 0, "time3", seconds=3.0)]
    assert lotrc.head_to_head(rows, "moismcts", "pimc", 1.0) == (1, 0, 1)
    assert lotrc.head_to_head(rows, "moismcts", "pimc", 3.0) == (0, 1, 1)


def test_a_stopped_run_resumes_without_replaying(tmp_path):
    out = tmp_path / "b.jsonl"
    cells = [("random", "random"), ("random:seed=3", "random")]
    lotrc.run("smoke", cells, 2, out)
    first = out.read_text()
    with out.open("a") as f:
        f.write('{"half a line')  # a killed run's last line
    rows = lotrc.run("smoke", cells, 3, out)
    assert out.read_text().startswith(first)
    assert sorted((r["dark"], r["i"]) for r in rows) == sorted(
        (d, i) for d, _ in cells for i in range(3))
    assert all(json.loads(line)["winner"] in (-1, 0, 1)
               for line in out.read_text().splitlines() if line.startswith("{\"exp"))


def test_a_worker_pool_plays_the_same_games(tmp_path):
    cells = [("random", "random:seed=5")]
    one = lotrc.run("smoke", cells, 3, tmp_path / "one.jsonl")
    two = lotrc.run("smoke", cells, 3, tmp_path / "two.jsonl", workers=2)
    key = sorted((r["i"], r["winner"], r["moves"]) for r in one)
    assert key == sorted((r["i"], r["winner"], r["moves"]) for r in two)
    # the backend can replay a job after a worker died (a new attempt of the same game)
    from dataclasses import replace

    from spyglass.experiments.cells import GameJob, play_job
    job = GameJob("smoke", lotrc.lotrc_cell("fixed", "random", "random"), 1, 0, lotrc.winner)
    assert play_job(replace(job, attempt=1)) == play_job(job)


def test_the_doc_page_shows_the_ledgers_rows():
    """docs/lotrc.md's results table is the ledger's, computed from the stored games."""
    from pathlib import Path

    from spyglass.experiments.ledger import compute, page_table

    root = Path(__file__).resolve().parent.parent
    table = page_table(compute(root=root), "lotrc.md")
    assert table.count("\n") > 10
    assert table in (root / "docs" / "lotrc.md").read_text(), \
        "docs/lotrc.md's reproductions table is stale: paste ledger.page_table(...)"


def test_spyglass_experiment_lotrc_hands_its_arguments_to_the_module():
    """``spyglass experiment lotrc`` is the module's own command line: the stored round
    robin's table comes out the same, and a wrong experiment name exits nonzero."""
    from typer.testing import CliRunner

    from spyglass.cli import _load_commands
    from spyglass.cli.app import app

    _load_commands()
    stored = "docs/figures/lotrc_balance_b1000.jsonl"
    runner = CliRunner()
    res = runner.invoke(app, ["experiment", "lotrc", "table", stored])
    assert res.exit_code == 0, res.output
    assert lotrc.table(lotrc.load(lotrc.Path(stored))) in res.output
    bad = runner.invoke(app, ["experiment", "lotrc", "run", "bogus", "--games", "1",
                              "--out", "x.jsonl"])
    assert bad.exit_code == 2
