"""Where a reproduction's result goes: ``OUT.json`` (the numbers, to diff and replot)
beside ``OUT.png`` (the figure people would rather look at), written the same way by
every experiment that keeps both."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path


def write_result(result: dict, out: Path, plot: Callable[[dict, Path], None]) -> list[Path]:
    """Write ``result`` to ``OUT.json`` and ``plot(result, OUT.png)``; return both paths."""
    out.parent.mkdir(parents=True, exist_ok=True)
    js = out.with_suffix(".json")
    js.write_text(json.dumps(result, indent=1) + "\n")
    png = out.with_suffix(".png")
    plot(result, png)
    return [js, png]


def load_jsonl(path: Path) -> list[dict]:
    """Per-game records appended one JSON line each by a resumable run (a half-written
    last line, from a killed run, is dropped)."""
    if not path.exists():
        return []
    rows = []
    for line in path.read_text().splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return rows
