"""Suspicion inaccuracy (Taylor 2014, §4.5): how far a bot's suspicion is from the truth.

The referee samples every bot's :meth:`~spyglass.resistance.bots.base.Bot.suspicion` after each
mission when ``track_suspicion`` is on and stores it in the game record. Once roles are
known, a score ``s`` in the range ``[l, u]`` becomes an inaccuracy

    i = (s - l) / (u - l)        for a resistance member,
    i = 1 - (s - l) / (u - l)    for a spy,

so 0 is a perfect read and 1 the worst. As in the seed, games in which the observer is
itself a spy are kept in sequence (they count towards the game number) but yield no
inaccuracies: a spy may report anything, from the truth to a cover story.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

_ANON = re.compile(r"^anon\d+$")
_COPY = re.compile(r"#\d+$")


def inaccuracy(score: float, spy: bool, lower: float = 0.0, upper: float = 1.0) -> float:
    """Taylor 2014, §4.5: the normalised suspicion for a resistance member, one minus it
    for a spy."""
    if upper <= lower:
        raise ValueError(f"the suspicion range needs lower < upper, got [{lower}, {upper}]")
    x = (float(score) - lower) / (upper - lower)
    return 1.0 - x if spy else x


def seat_label(record: dict, seat: int) -> str:
    """The bot in ``seat``, as a stable label across games.

    Copies at one table (``Magi#2``) share their bot's label, and the burst model's
    anonymous identities (``anon000123``) are de-obfuscated, as the seed's logs were
    (§4.5.1): to the tournament's label for the seat if the record has one, else to the
    bot's source.
    """
    setup = record["setup"]
    labels = setup.get("labels") or (record.get("tournament") or {}).get("players")
    if labels:
        return _COPY.sub("", str(labels[seat]))
    name = str(setup["bots"][seat])
    sources = setup.get("sources") or []
    if _ANON.match(name) and seat < len(sources):
        name = str(sources[seat])
    return _COPY.sub("", name)


@dataclass(frozen=True)
class Inaccuracy:
    """One observer's suspicion of one other seat after one mission, with its inaccuracy."""

    game: int  # 0-based index of the game among the observer's games
    record: int  # 0-based index of the record in the file
    observer: str
    observer_seat: int
    subject: str
    subject_seat: int
    subject_spy: bool
    mission: int
    suspicion: float
    inaccuracy: float


def record_inaccuracies(
    record: dict, record_index: int = 0, game_numbers: dict[str, int] | None = None
) -> list[Inaccuracy]:
    """The inaccuracies of every resistance observer in one game record.

    ``game_numbers`` counts games per observer label across calls (updated in place),
    so that each observer's games are numbered in the order it played them.
    """
    counts = {} if game_numbers is None else game_numbers
    spies = set(record.get("roles", {}).get("spies", []))
    rows: list[Inaccuracy] = []
    for seat_text, entries in sorted((record.get("suspicion") or {}).items(),
                                     key=lambda kv: int(kv[0])):
        seat = int(seat_text)
        observer = seat_label(record, seat)
        game = counts.get(observer, 0)
        counts[observer] = game + 1
        if seat in spies:
            continue  # a spy game: in sequence, but no statistics (§4.5.1)
        for entry in entries:
            for subject_text, score in sorted(entry["scores"].items(), key=lambda kv: int(kv[0])):
                subject = int(subject_text)
                if subject == seat:
                    continue
                is_spy = subject in spies
                rows.append(Inaccuracy(
                    game, record_index, observer, seat, seat_label(record, subject), subject,
                    is_spy, int(entry["mission"]), float(score), inaccuracy(score, is_spy),
                ))
    return rows


def inaccuracies(records: Iterable[dict]) -> list[Inaccuracy]:
    """Every inaccuracy in a stream of game records (aborted games are skipped).

    Tournament records (which finish out of order) are taken in game-index order.
    """
    counts: dict[str, int] = {}
    rows: list[Inaccuracy] = []
    indexed = list(enumerate(records))
    indexed.sort(key=lambda ir: (ir[1].get("tournament") or {}).get("game", ir[0]))
    for i, rec in indexed:
        if rec.get("error") or not rec.get("suspicion"):
            continue
        rows += record_inaccuracies(rec, i, counts)
    return rows


@dataclass(frozen=True)
class MissionSummary:
    """Mean inaccuracy of one observer after one mission, over games and subjects."""

    observer: str
    mission: int
    mean: float
    ci95: float  # half-width of a normal 95% interval over games
    games: int
    samples: int


def by_mission(rows: Iterable[Inaccuracy]) -> list[MissionSummary]:
    """Per observer and mission: the mean inaccuracy and its 95% interval.

    Each game contributes the mean over its subjects, so games (not players) are the
    independent samples behind the interval.
    """
    per_game: dict[tuple[str, int], dict[tuple[int, int], list[float]]] = defaultdict(
        lambda: defaultdict(list))
    for r in rows:
        per_game[(r.observer, r.mission)][(r.record, r.observer_seat)].append(r.inaccuracy)
    out = []
    for (observer, mission), games in sorted(per_game.items()):
        means = np.array([np.mean(v) for v in games.values()])
        half = 1.96 * means.std(ddof=1) / np.sqrt(len(means)) if len(means) > 1 else float("nan")
        out.append(MissionSummary(observer, mission, float(means.mean()), float(half),
                                  len(means), sum(len(v) for v in games.values())))
    return out


@dataclass(frozen=True)
class Curve:
    """Inaccuracy averaged over consecutive windows of an observer's games (§4.5.2)."""

    observer: str
    mission: int
    group: str  # "all", a subject's label, or "spies"/"resistance"
    x: np.ndarray  # centre of each window, in games
    y: np.ndarray  # mean inaccuracy in each window (NaN where it has no data)


def windowed(
    rows: Iterable[Inaccuracy], window: int, group_by: str = "all"
) -> list[Curve]:
    """Curves of mean inaccuracy per window of ``window`` games, one per mission and group.

    ``group_by`` is ``"all"`` (every subject together), ``"subject"`` (one group per
    observed bot) or ``"role"`` (spies and resistance members apart). Points sit at the
    centre of their window, as in the seed's plots.
    """
    if window < 1:
        raise ValueError(f"the averaging window must be at least 1 game, got {window}")
    if group_by not in ("all", "subject", "role"):
        raise ValueError(f"group_by must be 'all', 'subject' or 'role', not {group_by!r}")
    sums: dict[tuple[str, int, str], dict[int, list[float]]] = defaultdict(
        lambda: defaultdict(list))
    last_game: dict[str, int] = defaultdict(int)
    for r in rows:
        if group_by == "all":
            group = "all"
        elif group_by == "subject":
            group = r.subject
        else:
            group = "spies" if r.subject_spy else "resistance"
        sums[(r.observer, r.mission, group)][r.game // window].append(r.inaccuracy)
        last_game[r.observer] = max(last_game[r.observer], r.game)
    curves = []
    for (observer, mission, group), bins in sorted(sums.items()):
        n_bins = last_game[observer] // window + 1
        y = np.full(n_bins, np.nan)
        for b, values in bins.items():
            y[b] = float(np.mean(values))
        starts = np.arange(n_bins) * window
        sizes = np.minimum(window, last_game[observer] + 1 - starts)
        x = starts + (sizes - 1) / 2.0  # a last, partial window is centred on its games
        curves.append(Curve(observer, mission, group, x, y))
    return curves


__all__ = [
    "Curve",
    "Inaccuracy",
    "MissionSummary",
    "by_mission",
    "inaccuracies",
    "inaccuracy",
    "record_inaccuracies",
    "seat_label",
    "windowed",
]
