"""Tournament statistics from game records: win rates with intervals, 2012 behaviour columns.

Everything is computed from game records (:meth:`GameResult.to_record`) as integer counts
per bot, so that statistics do not depend on the order games finish in. Games that ended
with a bot error are counted as errors (per bot that caused them) and excluded from win
rates and behaviour columns.

Intervals: the 2012 competition (Taylor 2014, §5, "59.3% (e=0.88 n=12000)") reported the
Agresti–Coull estimate ``(w+1.92)/(n+3.84)`` with half-width
``1.96·sqrt(p(1-p)/(n+3.84))``; any method of statsmodels' ``proportion_confint``
(``wilson``, ``beta``, ``jeffreys``, ...) may be chosen instead.

Behaviour columns (Taylor 2014, §5.1, "Reading Competition Output"):

* as spy, *voted*: share of resistance members' votes on teams with the bot on them
  that were positive; *selected*: share of teams put forward by resistance leaders that
  included the bot;
* as resistance, share of spy-free teams the bot approved, share of teams with spies it
  rejected, and share of its own proposals that were spy-free.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field

import numpy as np

# scipy.stats and statsmodels are imported inside the functions that need them: together
# they take 1-2 s to import, which every command line start (``spyglass game`` included,
# through the tournament modules) would otherwise pay for nothing.

FIELDS = (
    "played",  # every game the bot sat in, errors included
    "errors",  # games ended by an error of this bot
    "games", "wins",  # the counted games (no error) and those won
    "spy_games", "spy_wins", "res_games", "res_wins",
    "spy_votes", "spy_votes_for",  # resistance votes on teams with this spy / positive
    "spy_res_teams", "spy_res_teams_on",  # teams led by resistance / including this spy
    "res_clean_votes", "res_clean_approved",  # own votes on spy-free teams / approvals
    "res_spied_votes", "res_spied_rejected",  # own votes on teams with spies / rejections
    "res_proposals", "res_proposals_clean",  # own proposals as resistance / spy-free
)
F = {name: i for i, name in enumerate(FIELDS)}
K = len(FIELDS)

INTERVAL_2012 = "agresti-coull-2012"
INTERVAL_METHODS = (INTERVAL_2012, "wilson", "agresti_coull", "beta", "jeffreys", "normal")
EXCLUSION_NOTE = "games ended by a bot error are excluded from win rates and behaviour columns"

_DUP_SUFFIX = re.compile(r"#\d+$")


# --- one game ----------------------------------------------------------------------------
def seat_labels(record: dict) -> list[str]:
    """The bot each seat counts for: the tournament's pool label, else the seat name."""
    players = record.get("tournament", {}).get("players")
    if players:
        return list(players)
    return [_DUP_SUFFIX.sub("", name) for name in record["setup"]["bots"]]


def game_ok(record: dict) -> bool:
    """Whether a game counts: it finished with a winner and no error."""
    return record.get("error") is None and record["outcome"]["winner"] is not None


def seat_counts(record: dict) -> np.ndarray:
    """Per-seat counts (rows: seats, columns: :data:`FIELDS`) of one game record."""
    n = record["setup"]["players"]
    rows = [[0] * K for _ in range(n)]
    for row in rows:
        row[F["played"]] = 1
    err = record.get("error")
    if err is not None:
        seat = err.get("seat")
        if isinstance(seat, int) and 0 <= seat < n:
            rows[seat][F["errors"]] = 1
        return np.array(rows, dtype=np.int64)
    if not game_ok(record):
        return np.array(rows, dtype=np.int64)
    spies = frozenset(record["roles"]["spies"])
    resistance = [s for s in range(n) if s not in spies]
    spies_won = record["outcome"]["winner"] == "spies"
    for seat, row in enumerate(rows):
        spy = seat in spies
        won = int(spy == spies_won)
        row[F["games"]] = 1
        row[F["wins"]] = won
        row[F["spy_games" if spy else "res_games"]] = 1
        row[F["spy_wins" if spy else "res_wins"]] = won
    for ev in record["events"]:
        if ev["type"] != "proposal":
            continue
        team, leader, votes = ev["team"], ev["leader"], ev["votes"]
        on_team = [s for s in team if s in spies]
        if leader not in spies:
            lead = rows[leader]
            lead[F["res_proposals"]] += 1
            lead[F["res_proposals_clean"]] += not on_team
            for s in spies:
                rows[s][F["spy_res_teams"]] += 1
            for s in on_team:
                rows[s][F["spy_res_teams_on"]] += 1
        if votes is None:  # a forced fifth proposal: nobody voted
            continue
        if on_team:
            yes = sum(1 for r in resistance if votes[r])
            for s in on_team:
                rows[s][F["spy_votes"]] += len(resistance)
                rows[s][F["spy_votes_for"]] += yes
            for r in resistance:
                rows[r][F["res_spied_votes"]] += 1
                rows[r][F["res_spied_rejected"]] += not votes[r]
        else:
            for r in resistance:
                rows[r][F["res_clean_votes"]] += 1
                rows[r][F["res_clean_approved"]] += bool(votes[r])
    return np.array(rows, dtype=np.int64)


# --- many games ----------------------------------------------------------------------------
@dataclass
class Tally:
    """Integer counts per bot and per spy configuration, added game by game."""

    labels: list[str] = field(default_factory=list)
    counts: np.ndarray = field(default_factory=lambda: np.zeros((0, K), dtype=np.int64))
    played: int = 0  # game records seen
    ok: int = 0  # games counted
    spy_wins: int = 0  # counted games won by the spies
    #: spy seats -> [counted games, spy wins]
    configs: dict[tuple[int, ...], list[int]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._row = {label: i for i, label in enumerate(self.labels)}
        if len(self.counts) < len(self.labels):
            self.counts = np.zeros((len(self.labels), K), dtype=np.int64)

    def row(self, label: str) -> int:
        """The row of ``label``, added on first sight."""
        i = self._row.get(label)
        if i is None:
            i = self._row[label] = len(self.labels)
            self.labels.append(label)
            self.counts = np.vstack([self.counts, np.zeros((1, K), dtype=np.int64)])
        return i

    @property
    def errors(self) -> int:
        """Game records that are not counted (a bot error, or no winner)."""
        return self.played - self.ok

    def add_record(self, record: dict) -> None:
        """Count one game record."""
        rows = [self.row(label) for label in seat_labels(record)]
        spies = tuple(record["roles"]["spies"])
        ok = game_ok(record)
        self.add_games(np.array([rows]), seat_counts(record)[None], [ok],
                       [record["outcome"]["winner"] == "spies"], [spies])

    def add_games(
        self,
        rows: np.ndarray,
        counts: np.ndarray,
        ok: Sequence[bool],
        spies_won: Sequence[bool],
        spies: Sequence[tuple[int, ...]],
    ) -> None:
        """Count games given as arrays: bot rows (games, seats), counts (games, seats, K)."""
        np.add.at(self.counts, np.asarray(rows).ravel(), counts.reshape(-1, K))
        for good, won, sp in zip(ok, spies_won, spies, strict=True):
            self.played += 1
            if good:
                self.ok += 1
                self.spy_wins += bool(won)
                cell = self.configs.setdefault(tuple(sp), [0, 0])
                cell[0] += 1
                cell[1] += bool(won)

    def get(self, label: str, name: str) -> int:
        return int(self.counts[self._row[label], F[name]])


def tally_records(records: Iterable[dict], labels: Sequence[str] = ()) -> Tally:
    """A :class:`Tally` of game records."""
    tally = Tally(list(labels))
    for rec in records:
        tally.add_record(rec)
    return tally


# --- intervals -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rate:
    """A proportion with its interval; ``estimate`` is the point the method reports."""

    wins: int
    n: int
    rate: float  # wins / n
    estimate: float  # (w+1.92)/(n+3.84) for the 2012 method, else wins / n
    low: float
    high: float
    method: str
    half_width: float  # the 2012 "e"; half the interval's width for other methods

    def to_dict(self) -> dict:
        return asdict(self)


def rate_interval(wins: int, n: int, method: str = INTERVAL_2012, alpha: float = 0.05) -> Rate:
    """Win rate ``wins/n`` with a (1-alpha) interval; ``method`` as in :data:`INTERVAL_METHODS`."""
    if method not in INTERVAL_METHODS:
        raise ValueError(f"unknown interval method {method!r}; choose one of "
                         + ", ".join(INTERVAL_METHODS))
    wins, n = int(wins), int(n)
    if n == 0:
        nan = float("nan")
        return Rate(wins, n, nan, nan, nan, nan, method, nan)
    rate = wins / n
    if method == INTERVAL_2012:
        if alpha != 0.05:
            raise ValueError("the 2012 Agresti–Coull interval is defined for 95% only")
        est = (wins + 1.92) / (n + 3.84)
        e = 1.96 * math.sqrt(est * (1 - est) / (n + 3.84))
        return Rate(wins, n, rate, est, max(0.0, est - e), min(1.0, est + e), method, e)
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(wins, n, alpha=alpha, method=method)
    low, high = float(low), float(high)
    return Rate(wins, n, rate, rate, low, high, method, (high - low) / 2)


def share(part: int, whole: int) -> float:
    """``part / whole``, NaN when nothing was counted."""
    return part / whole if whole else float("nan")


# --- per bot -----------------------------------------------------------------------------------
BEHAVIOUR = {
    # column: (numerator, denominator, what it means)
    "spy_voted": ("spy_votes_for", "spy_votes",
                  "as spy: share of resistance votes on its teams that approved"),
    "spy_selected": ("spy_res_teams_on", "spy_res_teams",
                     "as spy: share of resistance leaders' teams it was on"),
    "res_approve_clean": ("res_clean_approved", "res_clean_votes",
                          "as resistance: share of spy-free teams it approved"),
    "res_reject_spied": ("res_spied_rejected", "res_spied_votes",
                         "as resistance: share of teams with spies it rejected"),
    "res_select_clean": ("res_proposals_clean", "res_proposals",
                         "as resistance: share of its own proposals that were spy-free"),
}


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


def bot_stats(tally: Tally, method: str = INTERVAL_2012) -> list[BotStats]:
    """Statistics per bot, best overall win rate first."""
    out = []
    for label in tally.labels:
        g = {name: tally.get(label, name) for name in FIELDS}
        out.append(BotStats(
            label=label,
            played=g["played"],
            errors=g["errors"],
            overall=rate_interval(g["wins"], g["games"], method),
            spy=rate_interval(g["spy_wins"], g["spy_games"], method),
            resistance=rate_interval(g["res_wins"], g["res_games"], method),
            behaviour={k: share(g[a], g[b]) for k, (a, b, _) in BEHAVIOUR.items()},
            behaviour_n={k: g[b] for k, (_, b, _) in BEHAVIOUR.items()},
        ))
    out.sort(key=lambda s: (-_nan0(s.overall.rate), s.label))
    return out


def _nan0(x: float) -> float:
    return 0.0 if math.isnan(x) else x


# --- the spy team (balanced model) and comparing runs ------------------------------------------
def spy_team_rate(tally: Tally, method: str = INTERVAL_2012) -> Rate:
    """The spies' win rate over all counted games (for the balanced model)."""
    return rate_interval(tally.spy_wins, tally.ok, method)


def compare_proportions(wins1: int, n1: int, wins2: int, n2: int) -> dict:
    """Test whether two win rates differ: two-proportion z-test and Fisher's exact test.

    Returns both rates, their difference with a 95% (Newcombe/Wilson) interval, the
    z statistic and its two-sided p-value, and Fisher's exact two-sided p-value.
    """
    for w, n in ((wins1, n1), (wins2, n2)):
        if n <= 0 or not 0 <= w <= n:
            raise ValueError(f"cannot compare {w} wins out of {n} games")
    from scipy.stats import fisher_exact
    from statsmodels.stats.proportion import confint_proportions_2indep, proportions_ztest

    z, p_z = proportions_ztest([wins1, wins2], [n1, n2])
    low, high = confint_proportions_2indep(wins1, n1, wins2, n2, method="newcomb")
    _, p_f = fisher_exact([[wins1, n1 - wins1], [wins2, n2 - wins2]])
    return {
        "rate1": wins1 / n1, "n1": n1, "wins1": wins1,
        "rate2": wins2 / n2, "n2": n2, "wins2": wins2,
        "difference": wins1 / n1 - wins2 / n2,
        "difference_low": float(low), "difference_high": float(high),
        "z": float(np.nan_to_num(z)), "p_ztest": float(np.nan_to_num(p_z, nan=1.0)),
        "p_fisher": float(p_f),
    }
