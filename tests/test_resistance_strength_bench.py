"""The paired comparison of spyglass.bench.resistance_strength (issue 31): games pair up
by seed, seats and spies; McNemar counts the games won by one run and not the other."""

from __future__ import annotations

import json

import pytest

from spyglass.bench.resistance_strength import summarise


def _run(tmp_path, name, spec, winners):
    d = tmp_path / name
    d.mkdir()
    with open(d / "games.jsonl", "w") as f:
        for g, w in enumerate(winners):
            bots = ["A", "B", "C", "D", spec]
            rec = {"setup": {"seed": 100 + g, "bots": bots,
                             "sources": ["/x/a.py:A", "/x/b.py:B", "/x/c.py:C", "/x/d.py:D",
                                         spec.split(":")[0]]},
                   "roles": {"spies": [0, 4] if g % 2 else [0, 1]},
                   "events": [{"type": "proposal", "leader": 4, "team": [2, 4],
                               "votes": [True] * 5}],
                   "outcome": {"winner": w}, "extra": {"4": {"searches": 3}},
                   "tournament": {"game": g}}
            f.write(json.dumps(rec) + "\n")
    return d


def test_paired_counts_and_roles(tmp_path):
    base = _run(tmp_path, "base", "bot:x=1", ["spies", "spies", "resistance", "resistance"])
    cand = _run(tmp_path, "cand", "bot:x=2", ["resistance", "spies", "resistance", "spies"])
    s = summarise([base, cand])
    b, c = s["runs"]
    # Seat 4 is a spy in the odd games: base wins games 1, 2; the candidate all four.
    assert b["all"]["wins"] == 2 and c["all"]["wins"] == 4
    assert c["paired"]["only_candidate"] == 2 and c["paired"]["only_baseline"] == 0
    assert c["resistance"]["n"] == 2 and c["searches"] == 12
    assert c["behaviour"]["select_clean"] == 1.0  # as resistance (games 0, 2): clean teams


def test_unpaired_runs_are_refused(tmp_path):
    base = _run(tmp_path, "base", "bot:x=1", ["spies"] * 2)
    other = _run(tmp_path, "other", "bot:x=2", ["spies"] * 3)
    with pytest.raises(ValueError, match="not the same games"):
        summarise([base, other])
