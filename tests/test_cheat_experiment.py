"""The simulated population, the predictive model and the §5 experiment (small, seeded)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from spyglass.agents import registry as agents
from spyglass.agents.cheat_model import FEATURES, cross_validate, load_model
from spyglass.agents.cheat_population import population
from spyglass.arena.history import replay_history
from spyglass.arena.match import play_match
from spyglass.experiments.cheat import (
    claims_dataset,
    compare,
    population_logs,
    read_records,
    run_experiment,
    train_model,
)
from spyglass.games import registry
from spyglass.games.cheat import kernel as K


@pytest.fixture(scope="module")
def logs(tmp_path_factory):
    path = tmp_path_factory.mktemp("cheat") / "pop.jsonl"
    population_logs(path, subjects=10, matches=3, seed=3)
    return path


def test_the_population_behaves_like_the_papers_people(logs):
    """Bluffs ~40-45 % of claims, Take-a-Card ~20-24 % of moves, calls ~0.105 of turns
    (Bitan & Kraus 2018, §5): checked within generous bands on 15 seeded games."""
    recs = read_records([logs])
    assert len(recs) == 15
    tot = {"claims": 0, "lies": 0, "takes": 0, "calls": 0, "moves": 0}
    for rec in recs:
        replay_history(rec)  # the records replay through the rules
        for extra in rec["extra"].values():
            for k in tot:
                tot[k] += extra[k]
    assert 0.3 <= tot["lies"] / tot["claims"] <= 0.55
    assert 0.12 <= tot["takes"] / tot["moves"] <= 0.32
    assert 0.04 <= tot["calls"] / tot["moves"] <= 0.2
    assert len({json.dumps(s, sort_keys=True) for s in population(6, 1)}) == 6


def test_claims_dataset_labels_every_claim_by_its_truth(logs):
    recs = read_records([logs])
    x, y, g = claims_dataset(recs)
    assert x.shape[1] == len(FEATURES) and len(x) == len(y) == len(g)
    lies = 0
    for rec in recs:
        s = replay_history(rec).state
        lies += int(s[K.LIES]) + int(s[K.LIES + 1])
    assert y.sum() == lies
    assert set(g.tolist()) == {a for rec in recs for a in rec["agents"]}
    # A claim of more cards than the answering seat can't see is always a lie.
    impossible = x[:, FEATURES.index("impossible")] == 1
    assert (y[impossible] == 1).all()


def test_grouped_cross_validation_and_the_saved_model(logs, tmp_path):
    out = tmp_path / "m.joblib"
    m = train_model([logs], out, seed=2, folds=3, trees=50)
    assert 0.6 < m["auc"] <= 1.0 and 0 < m["tpr"] < 1 and 0 < m["tnr"] < 1
    assert m["players"] == 10
    model = load_model(out)
    x, y, g = claims_dataset(read_records([logs]))
    assert model.predict_proba(x[:5]).shape == (5, 2)
    with pytest.raises(ValueError, match="at least 2 players"):
        cross_validate(x, y, np.array(["one"] * len(y)), seed=1)
    bad = tmp_path / "bad.joblib"
    bad.write_text("nope")
    with pytest.raises(ValueError, match="not a Cheat model"):
        load_model(bad)
    # PMGA uses it.
    r = play_match(registry.make("cheat"),
                   [agents.make("pmga", iterations=20, model=str(out)),
                    agents.make("cheatsim", **population(1, 5)[0])], seed=9)
    assert r.ok


def test_compare_runs_anova_and_holm_corrected_pairs():
    rows = {n: [{"v": float(x)} for x in np.random.default_rng(i).normal(i, 1, 8)]
            for i, n in enumerate(("a", "b", "c"))}
    t = compare(rows, "v")
    assert 0 <= t["anova"]["p"] < 0.05 and len(t["pairwise"]) == 3
    assert all(p["p_holm"] <= 1 for p in t["pairwise"])


def test_a_small_seeded_experiment_runs_end_to_end(tmp_path):
    kw = dict(subjects=2, iterations=15, seed=4, train_subjects=6, train_matches=2,
              accuracies=(0.55, 1.0))
    res = run_experiment(tmp_path / "a", **kw)
    assert set(res["conditions"]) == {"mga", "pmga", "fpmga", "ismcts", "best_subject"}
    assert set(res["sweep"]) == {"0.55", "1.00"}
    assert (tmp_path / "a" / "results.json").exists()
    again = run_experiment(tmp_path / "b", **kw)
    assert again["conditions"] == res["conditions"]  # same seed, same experiment


def test_cli_trains_a_model_and_refuses_missing_logs(cli, tmp_path, logs):
    r = cli("experiment", "cheat-model", str(logs), "--out", str(tmp_path / "m.joblib"),
            "--folds", "3")
    assert r.exit_code == 0, r.output
    assert "AUC" in r.output and (tmp_path / "m.joblib").exists()
    r = cli("experiment", "cheat-model", str(tmp_path / "none.jsonl"))
    assert r.exit_code == 2 and "no log file" in r.output


@pytest.mark.slow
def test_fpmga_beats_mga_on_card_difference(tmp_path):
    res = run_experiment(tmp_path, subjects=10, iterations=200, seed=1, train_subjects=30,
                         accuracies=(0.85,))
    c = res["conditions"]
    assert c["fpmga"]["card_difference"][0] < c["mga"]["card_difference"][0]
