"""The files of a tournament's results directory, the same for every game.

``tournament.json`` (the manifest), ``games.jsonl`` (one record per game, appended as
games finish; each record carries its game index), ``results.json``, a per-bot CSV and
``winrates.png``; while a run is going, ``partial/chunk-<c>.<attempt>.jsonl`` holds the
games finished in chunks not yet complete (one file per attempt at a chunk, each line
written by one ``write`` call: a replay never truncates or interleaves with a file that a
killed attempt may still be writing). Helpers here write JSON atomically, cut a torn last
line and show progress; :mod:`spyglass.arena.tournament` runs the tournament.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

MANIFEST = "tournament.json"
GAMES = "games.jsonl"
RESULTS = "results.json"
PLOT = "winrates.png"
PARTIAL = "partial"  # per-chunk files of games finished in chunks not yet complete


def write_json(path: Path, data: dict) -> None:
    """Write ``data`` as JSON atomically (a crash leaves the old file or the new one)."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, allow_nan=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def no_nan(x: Any) -> Any:
    """Rates of nothing (a bot never a spy, an agent never seated) are NaN; JSON has null."""
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, dict):
        return {k: no_nan(v) for k, v in x.items()}
    if isinstance(x, list):
        return [no_nan(v) for v in x]
    return x


def truncate_torn_tail(path: Path) -> None:
    """Cut a half-written last line (a crash mid-write) so that appends start clean."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with open(path, "rb+") as fh:
        fh.seek(-1, os.SEEK_END)
        if fh.read(1) == b"\n":
            return
        size = fh.seek(0, os.SEEK_END)
        pos = max(0, size - (1 << 16))
        while True:
            fh.seek(pos)
            block = fh.read(size - pos)
            cut = block.rfind(b"\n")
            if cut >= 0 or pos == 0:
                fh.truncate(pos + cut + 1 if cut >= 0 else 0)
                return
            pos = max(0, pos - (1 << 16))


# --- partial files ----------------------------------------------------------------------------
def partial_stem(partial_dir: Path, chunk: int) -> Path:
    """The stem of a chunk's partial files: each attempt at it writes
    ``<stem>.<attempt>.jsonl`` (see :func:`attempt_path`)."""
    return partial_dir / f"chunk-{chunk:06d}"


def remove_partials(partial_dir: Path, chunk: int) -> None:
    """Remove every attempt's partial file of a chunk whose games are in ``games.jsonl``."""
    for path in partial_dir.glob(f"{partial_stem(partial_dir, chunk).name}.*.jsonl"):
        path.unlink(missing_ok=True)


def partial_files(out_dir: Path) -> list[Path]:
    """Every partial file of a results directory, in a fixed order."""
    folder = out_dir / PARTIAL
    return sorted(folder.glob("chunk-*.jsonl")) if folder.is_dir() else []


def clear_partials(out_dir: Path) -> None:
    """Remove the partial files and their folder (once their games are in ``games.jsonl``)."""
    folder = out_dir / PARTIAL
    if folder.is_dir():
        for path in folder.glob("chunk-*.jsonl"):
            path.unlink(missing_ok=True)
        try:
            folder.rmdir()  # only if empty
        except OSError:
            pass


def attempt_path(partial: str, attempt: int) -> str:
    """The partial file of one attempt at a chunk: ``<stem>.<attempt>.jsonl``."""
    return f"{partial}.{attempt}.jsonl"


class PartialSink:
    """Appends whole lines to a new file, one ``write`` call per line.

    A process killed between two games leaves only complete lines; one killed inside the
    call leaves at most a torn last line, which the fold skips (that game is replayed)."""

    def __init__(self, path: str) -> None:
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
        self._fd = os.open(path, flags, 0o644)

    def write_line(self, line: str) -> None:
        data = memoryview((line + "\n").encode("utf-8"))
        while data:  # a regular file takes it in one call; loop in case it does not
            data = data[os.write(self._fd, data):]

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> PartialSink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --- progress ---------------------------------------------------------------------------------
def progress_bar(enabled: bool):
    """A progress bar of games on stderr (games/s, elapsed, ETA); silent when disabled."""
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class GamesPerSecond(ProgressColumn):
        def render(self, task) -> Text:
            speed = task.finished_speed or task.speed
            return Text("–  games/s" if not speed else f"{speed:,.0f} games/s", style="cyan")

    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        GamesPerSecond(), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
        console=Console(stderr=True), disable=not enabled, transient=False,
    )
