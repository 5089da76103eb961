"""A resumable run kept as JSON lines: the settings on the first line, then one record per
line, appended and flushed as each is made. The same command resumes the run (its
records are read back); a command with other settings is refused on that file. Used by
the head-to-head benches (Hearts and Dou Di Zhu against outside bots)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path


def read(path: Path) -> tuple[dict | None, list[dict]]:
    """The run's settings (None: no run yet) and its records."""
    if not path.exists() or path.stat().st_size == 0:
        return None, []
    lines = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    return lines[0].get("settings"), lines[1:]


@contextmanager
def resume(path: Path, settings: dict):
    """Open the run at ``path`` for ``settings``: yields its records so far and a function
    that appends records (a list, written and flushed together). A ValueError when the
    file holds a run with other settings."""
    old, records = read(path)
    if old is not None and old != settings:
        raise ValueError(f"{path} holds a run with other settings {old}; "
                         f"this command's are {settings}")
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a") as f:
        if old is None:
            f.write(json.dumps({"settings": settings}) + "\n")
            f.flush()

        def append(new: list[dict]) -> None:
            for rec in new:
                f.write(json.dumps(rec) + "\n")
            f.flush()
            records.extend(new)

        yield records, append


def main(out: Path, summary_only: bool, play: Callable[[], list[dict]],
         summarize: Callable[[list[dict]], dict]) -> int:
    """A bench's command: play (or resume) and print the summary as JSON, or only
    summarize ``out``; exit 2 with the message on a refused run or a missing extra."""
    try:
        records = read(out)[1] if summary_only else play()
    except (ValueError, RuntimeError, ImportError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(summarize(records), indent=2))
    return 0
