"""The Resistance's tournament statistics: every game's figures plus the 2012 columns.

A :class:`ResistanceTally` feeds each 2012 record into the
:class:`~spyglass.arena.game_stats.GameTally` every game uses (rewards: 1 for the
winning side; roles: spy / resistance), so that the 2012 win rates overall, as spy and
as resistance (Taylor 2014, §5) are that tally's per-agent and per-(agent, role) win
rates, counted by the same code as any game's. On top it keeps what only The
Resistance's events say: the behaviour columns
(:mod:`spyglass.resistance.arena.counts`) and the spies' wins per spy configuration
(the balanced model's table). Everything is integer sums, so neither the order games
finish in nor resuming changes a figure.

Games that ended with a bot error are counted as errors (per bot that caused them) and
excluded from win rates and behaviour columns.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from spyglass.arena.game_stats import GameTally, Sums, win_rate
from spyglass.arena.stats import INTERVAL_2012, Rate, rate_interval
from spyglass.games.base import top_or_tied
from spyglass.resistance.arena.counts import (
    BEHAVIOUR,
    FIELDS,
    RESISTANCE,
    SPY,
    F,
    K,
    game_ok,
    rewards,
    roles,
    seat_counts,
    seat_labels,
)

EXCLUSION_NOTE = "games ended by a bot error are excluded from win rates and behaviour columns"

#: The 2012 win-count names of :meth:`ResistanceTally.get`: (role or None, Sums field).
_WIN_FIELDS = {
    "played": (None, "played"), "errors": (None, "errors"),
    "games": (None, "games"), "wins": (None, "wins"),
    "spy_games": (SPY, "games"), "spy_wins": (SPY, "wins"),
    "res_games": (RESISTANCE, "games"), "res_wins": (RESISTANCE, "wins"),
}


@dataclass
class ResistanceTally:
    """Every game's sums (:attr:`games`) plus the 2012 behaviour counts per bot and the
    spies' wins per spy configuration."""

    labels: list[str] = field(default_factory=list)
    players: int = 0
    #: per agent, seat and role; win score: each member of the winning side wins
    games: GameTally | None = None
    behaviour: np.ndarray = field(default_factory=lambda: np.zeros((0, K), dtype=np.int64))
    #: spy seats -> [counted games, spy wins]
    configs: dict[tuple[int, ...], list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.games is None:
            self.games = GameTally(list(self.labels), self.players, scorer=top_or_tied)
            for role in (SPY, RESISTANCE):  # this order in every table, whoever came first
                self.games.by_role[role] = Sums()
        self._row = {label: i for i, label in enumerate(self.labels)}
        if len(self.behaviour) < len(self.labels):
            self.behaviour = np.zeros((len(self.labels), K), dtype=np.int64)

    def row(self, label: str) -> int:
        """The row of ``label``, added on first sight."""
        i = self._row.get(label)
        if i is None:
            i = self._row[label] = len(self.labels)
            self.labels.append(label)
            self.games.labels.append(label)
            self.behaviour = np.vstack([self.behaviour, np.zeros((1, K), dtype=np.int64)])
        return i

    # --- the 2012 tally's figures, kept for readers of ``results.tally`` ---------------
    @property
    def ok(self) -> int:
        """Games counted."""
        return self.games.games

    @property
    def errors(self) -> int:
        """Game records that are not counted (a bot error, or no winner)."""
        return self.games.errors

    @property
    def played(self) -> int:
        """Game records seen."""
        return self.games.games + self.games.errors

    @property
    def spy_wins(self) -> int:
        """Counted games won by the spies."""
        return sum(w for _, w in self.configs.values())

    def get(self, label: str, name: str) -> int:
        """A count of ``label``: ``played``, ``errors``, ``games``, ``wins``,
        ``spy_games`` ... ``res_wins``, or a behaviour field."""
        if name in _WIN_FIELDS:
            role, attr = _WIN_FIELDS[name]
            s = (self.games.agents.get(label, Sums()) if role is None
                 else self.games.role_sums(label, role))
            return int(getattr(s, attr))
        return int(self.behaviour[self._row[label], F[name]])

    # --- adding games ------------------------------------------------------------------
    def add_record(self, record: dict) -> None:
        """Count one game record."""
        rows = [self.row(label) for label in seat_labels(record)]
        self.add_games(np.array([rows]), seat_counts(record)[None], [game_ok(record)],
                       [record["outcome"]["winner"] == "spies"],
                       [tuple(record["roles"]["spies"])])

    def add_games(self, rows: np.ndarray, counts: np.ndarray, ok: Sequence[bool],
                  spies_won: Sequence[bool], spies: Sequence[tuple[int, ...]]) -> None:
        """Count games given as arrays: bot rows (games, seats), counts (games, seats, K)
        from :func:`~spyglass.resistance.arena.counts.seat_counts`."""
        rows = np.asarray(rows)
        np.add.at(self.behaviour, rows.ravel(), counts.reshape(-1, K))
        errors = counts[..., F["errors"]]
        for g, (good, won, sp) in enumerate(zip(ok, spies_won, spies, strict=True)):
            lineup = [self.labels[i] for i in rows[g]]
            n = len(lineup)
            if not good:
                erred = np.flatnonzero(errors[g])
                self.games.add(lineup, None, int(erred[0]) if len(erred) else None)
                continue
            self.games.add(lineup, rewards(n, sp, bool(won)), None, roles(n, sp))
            cell = self.configs.setdefault(tuple(sp), [0, 0])
            cell[0] += 1
            cell[1] += bool(won)


def tally_records(records: Iterable[dict], labels: Sequence[str] = (),
                  players: int = 0) -> ResistanceTally:
    """A :class:`ResistanceTally` of game records."""
    tally = ResistanceTally(list(labels), players)
    for rec in records:
        tally.add_record(rec)
    return tally


# --- per bot -----------------------------------------------------------------------------------
def share(part: int, whole: int) -> float:
    """``part / whole``, NaN when nothing was counted."""
    return part / whole if whole else float("nan")


@dataclass
class BotStats:
    """One bot's results: win rates overall / as spy / as resistance, behaviour, errors."""

    label: str
    played: int
    errors: int
    overall: Rate
    spy: Rate
    resistance: Rate
    behaviour: dict[str, float]
    behaviour_n: dict[str, int]

    def to_dict(self) -> dict:
        return {
            "played": self.played,
            "errors": self.errors,
            "overall": self.overall.to_dict(),
            "spy": self.spy.to_dict(),
            "resistance": self.resistance.to_dict(),
            "behaviour": self.behaviour,
            "behaviour_n": self.behaviour_n,
        }


def bot_stats(tally: ResistanceTally, method: str = INTERVAL_2012) -> list[BotStats]:
    """Statistics per bot, best overall win rate first. The win rates are the generic
    tally's (:func:`~spyglass.arena.game_stats.win_rate`: every score is 0 or 1, so a
    binomial interval of ``method``)."""
    out = []
    t = tally.games
    for label in tally.labels:
        b = {name: tally.get(label, name) for name in FIELDS}
        s = t.agents.get(label, Sums())
        out.append(BotStats(
            label=label,
            played=s.played,
            errors=s.errors,
            overall=win_rate(s, method),
            spy=win_rate(t.role_sums(label, SPY), method),
            resistance=win_rate(t.role_sums(label, RESISTANCE), method),
            behaviour={k: share(b[x], b[y]) for k, (x, y, _) in BEHAVIOUR.items()},
            behaviour_n={k: b[y] for k, (_, y, _) in BEHAVIOUR.items()},
        ))
    out.sort(key=lambda s: (-_nan0(s.overall.rate), s.label))
    return out


def _nan0(x: float) -> float:
    return 0.0 if math.isnan(x) else x


def spy_team_rate(tally: ResistanceTally, method: str = INTERVAL_2012) -> Rate:
    """The spies' win rate over all counted games (for the balanced model)."""
    return rate_interval(tally.spy_wins, tally.ok, method)

