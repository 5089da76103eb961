"""Game records as JSON Lines: one game per line, appended as games finish."""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Protocol


class Recordable(Protocol):
    """A game's result that makes its own record (The Resistance's ``GameResult``)."""

    def to_record(self) -> dict: ...


def record_line(result: Recordable | dict) -> str:
    """One game as a single JSON line (no trailing newline)."""
    rec = result if isinstance(result, dict) else result.to_record()
    return json.dumps(rec, separators=(",", ":"), allow_nan=False)  # standard JSON only


def append_records(path: str | Path, results: Iterable[Recordable | dict]) -> int:
    """Append games to a JSON Lines file, flushing so that a crash loses nothing written."""
    n = 0
    with open(path, "a", encoding="utf-8") as fh:
        for r in results:
            fh.write(record_line(r) + "\n")
            n += 1
        fh.flush()
    return n


def iter_records(path: str | Path) -> Iterator[dict]:
    """Read game records; a torn last line (from a crash mid-write) is skipped."""
    with open(path, encoding="utf-8") as fh:
        lines = fh.readlines()
    for i, line in enumerate(lines):
        line = line.strip()
        if not line:
            continue
        try:
            yield json.loads(line)
        except json.JSONDecodeError as exc:
            if i == len(lines) - 1:
                return  # an interrupted final write
            raise ValueError(f"{path}: line {i + 1} is not a valid game record: {exc}") from exc
