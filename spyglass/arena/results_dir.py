"""The files of a tournament's results directory, the same for every game.

``tournament.json`` (the manifest), ``games.jsonl`` (one record per game, appended as
games finish; each record carries its game index), ``results.json``, a per-bot CSV and
``winrates.png``; while a run is going, ``partial/chunk-<c>.<attempt>.jsonl`` holds the
games finished in chunks not yet complete (one file per attempt at a chunk, each line
written by one ``write`` call: a replay never truncates or interleaves with a file that a
killed attempt may still be writing). Helpers here write JSON atomically, cut a torn last
line and show progress; :mod:`spyglass.arena.tournament` runs the tournament. While a
run writes, it holds ``.lock`` (see :func:`hold`).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Callable, Collection, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

MANIFEST = "tournament.json"
GAMES = "games.jsonl"
RESULTS = "results.json"
PLOT = "winrates.png"
AGENTS_CSV = "agents.csv"  # every game's per-agent table
PARTIAL = "partial"  # per-chunk files of games finished in chunks not yet complete
LOCK = ".lock"  # held by the run writing the directory

try:
    import fcntl
except ImportError:  # not on POSIX: runs are not guarded against each other
    fcntl = None

# Descriptors of the locks this process holds. A forked child (a pool worker) shares each
# one's open file description, and a ``flock`` lasts until every descriptor of it is
# closed: a worker that outlives a killed run would keep the directory locked. Children
# close their copies at once; the parent's lock is unaffected.
_HELD: set[int] = set()


def _close_held_in_child() -> None:
    for fd in _HELD:
        try:
            os.close(fd)
        except OSError:
            pass
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_close_held_in_child)


@contextmanager
def hold(out_dir: Path | None, error: type[Exception]) -> Iterator[None]:
    """Hold the results directory ``out_dir`` for one run, or raise ``error``.

    Two runs on one directory (a resume started while the first still plays, two
    experiments given the same ``--out``) would both append the games they play and
    rewrite the outputs under each other; the second is refused at once instead. The lock
    is the kernel's (``flock``): a killed run leaves nothing that blocks the next one, and
    the file is removed when the run ends.
    """
    if out_dir is None or fcntl is None:
        yield
        return
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / LOCK
    while True:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise error(f"{str(out_dir)!r} is in use by another run (process {holder}): "
                        "wait for it to finish or stop it, then resume") from None
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:  # not a file that the previous holder unlinked as we opened it
            break
        os.close(fd)
    _HELD.add(fd)
    try:
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode("ascii"))
        yield
    finally:
        try:
            os.unlink(path)
        finally:
            _HELD.discard(fd)
            os.close(fd)


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


# --- reading records back (resume) -------------------------------------------------------------
class BadRecord(ValueError):
    """A record that is not one of this tournament's games (the message says why)."""


#: Usable records by game index: (line number, line text, record, what the table's check
#: made of it, e.g. pool rows).
Found = dict[int, tuple[int, str, dict, Any]]
Check = Callable[[dict, dict, int], Any]


def scan_records(path: Path, *, key: str, total: int, check: Check) -> tuple[Found, dict]:
    """Every usable record of a JSON Lines file by game index, and every bad line.

    A record's game index is ``record["tournament"][key]``; ``check(record, tournament,
    index)`` returns what the table keeps of a record or raises :class:`BadRecord`.
    Bad: not JSON, no valid game index, refused by ``check``, or one of two *different*
    records of the same game (which one is right cannot be known, so both are bad; an
    exact repeat of a line is harmless and read once).
    """
    good: Found = {}
    bad: dict[int, str] = {}
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            text = line.strip()
            if not text:
                continue
            try:
                rec = json.loads(text)
                t = rec.get("tournament") or {}
                index = t.get(key)
            except (ValueError, AttributeError, RecursionError):
                bad[number] = "not a valid game record"
                continue
            if type(index) is not int or not 0 <= index < total:
                bad[number] = f"no valid game index ({index!r})"
                continue
            try:
                kept = check(rec, t, index)
            except BadRecord as exc:
                bad[number] = str(exc)
                continue
            if index in good:
                first = good[index]
                if first[1] != text:
                    bad[first[0]] = f"game {index} is recorded differently on line {number}"
                    bad[number] = f"game {index} is recorded differently on line {first[0]}"
                continue
            good[index] = (number, text, rec, kept)
    conflicted = {good[i][0] for i in good} & set(bad)
    return {i: v for i, v in good.items() if v[0] not in conflicted}, bad


def read_records(path: Path, scan: Callable[[Path], tuple[Found, dict]], repair: bool,
                 error: type[Exception]) -> Found:
    """The usable records of ``games.jsonl`` (see :func:`scan_records`).

    A bad line stops with its line number (raised as ``error``), unless ``repair``: then
    bad lines are dropped (the original is kept as ``games.jsonl.bak``) and those games
    are played again."""
    if not path.exists():
        return {}
    good, bad = scan(path)
    if bad and not repair:
        shown = "; ".join(f"line {n}: {why}" for n, why in sorted(bad.items())[:5])
        more = f" (and {len(bad) - 5} more)" if len(bad) > 5 else ""
        raise error(
            f"{path}: {len(bad)} bad line(s): {shown}{more}. Nothing was chosen for you: "
            "continue with --repair to drop them (their games are played again)")
    if bad:
        backup = path.with_name(path.name + ".bak")
        os.replace(path, backup)
        with open(path, "w", encoding="utf-8") as fh:
            for _number, text, _, _ in sorted(good.values()):
                fh.write(text + "\n")
    return good


def partial_records(out_dir: Path, scan: Callable[[Path], tuple[Found, dict]],
                    done: Collection[int]) -> Found:
    """The usable records of partial chunk files that ``done`` lacks, by game index.

    Every attempt at a chunk has its own file; a game found in several is kept once (the
    first found: attempts at a chunk play the same games). A torn or otherwise bad line of
    a partial file is skipped: its game is played again."""
    found: Found = {}
    for path in partial_files(out_dir):
        good, _bad = scan(path)
        for index, item in good.items():
            if index not in done and index not in found:
                found[index] = item
    return found


def fold_partials(out_dir: Path, scan: Callable[[Path], tuple[Found, dict]],
                  done: set[int], count: Callable[[dict, Any], None]) -> int:
    """Move the games of partial chunk files into ``games.jsonl`` and count them once
    (``count(record, kept)``); then remove the partial files. Returns how many."""
    found = partial_records(out_dir, scan, done)
    if found:
        with open(out_dir / GAMES, "a", encoding="utf-8") as fh:
            fh.write("".join(found[i][1] + "\n" for i in sorted(found)))
            fh.flush()
            os.fsync(fh.fileno())
    for index in sorted(found):
        _, _, rec, kept = found[index]
        count(rec, kept)
        done.add(index)
    clear_partials(out_dir)
    return len(found)


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
