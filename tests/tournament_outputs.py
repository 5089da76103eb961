"""Readers of a tournament results directory, shared by the tournament tests."""

from __future__ import annotations

import json
from pathlib import Path

from spyglass.arena.records import iter_records


def records_by_index(out: Path) -> dict[int, dict]:
    """The game records of ``out`` by tournament game index; no game may appear twice."""
    recs = list(iter_records(out / "games.jsonl"))
    by_index = {r["tournament"]["game"]: r for r in recs}
    assert len(by_index) == len(recs), "a game was recorded twice"
    return by_index


def results_json(out: Path) -> dict:
    return json.loads((out / "results.json").read_text())
