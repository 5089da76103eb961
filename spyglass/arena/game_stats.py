"""Tournament statistics for every game: The Resistance's 2012 records are counted here
too (through :mod:`spyglass.resistance.arena.stats`), as are action-history records.

Per agent (the pool label each seat played for) and per seat:

* **mean reward**: the game's own reward (in [0, 1]), averaged over the counted games;
* **win score**: the game's own (:meth:`~spyglass.games.base.Game.win_scores`, named by
  its ``win_statistic``); by default 1 for a game where the agent's reward is the unique
  maximum, ``1/k`` when it shares the maximum with ``k - 1`` others (a two-player draw
  scores ½, as in Whitehouse 2014, §4.2.7 for Phantom), 0 otherwise; Hearts counts
  first or equal first as a win (1 for each seat tied for first, §8.3), The Resistance
  every member of the winning side (the 2012 competition's win). The **win rate** is
  its mean. In team games that keep the default (Dou Di Zhu's peasants, Spades'
  partners) the winning side shares the top reward, so the win score splits it; there
  the **mean reward** is the share of games the agent's side won, the figure to read.

Paired by deal (:func:`pairwise`): a tournament's blocks share a deal, so every two
agents are also compared block by block (a sign test, Holm-adjusted over the pairs).

By role (an extension for games whose records give each seat a role: The Resistance's
spy / resistance, Dou Di Zhu's landlord / peasant): the same sums per role and per
(agent, role), so that The Resistance's 2012 columns "as spy" / "as resistance" are the
same figures as any game's per-seat ones, counted by the same code.

Intervals (95 %): when every score is 0 or 1 the win rate is a binomial proportion and
gets :func:`spyglass.arena.stats.rate_interval` (the chosen method, Wilson by default);
with draws it is the mean of scores in {0, ½, 1} and gets the normal interval of a mean,
``x̄ ± 1.96 s/√n`` (clipped to [0, 1]), labelled ``normal-mean``. Mean rewards always get
the normal interval of a mean (:func:`spyglass.arena.stats.mean_interval`).

Games ended by an error are not counted in rates; each is charged to the erring seat's
agent (``errors``). Everything is kept as sums, so the order games finish in and resuming
do not change the figures.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field

from spyglass.arena.stats import Rate, mean_interval, rate_interval
from spyglass.games.base import shared_top

#: The default win score (kept under its old name for callers of this module).
win_scores = shared_top


@dataclass
class Sums:
    """Running sums of one agent (or one agent in one seat)."""

    played: int = 0
    errors: int = 0
    games: int = 0
    reward: float = 0.0
    reward_sq: float = 0.0
    score: float = 0.0
    score_sq: float = 0.0
    wins: int = 0
    draws: int = 0

    def add(self, reward: float, score: float) -> None:
        self.games += 1
        self.reward += reward
        self.reward_sq += reward * reward
        self.score += score
        self.score_sq += score * score
        if score == 1.0:
            self.wins += 1
        elif score > 0:
            self.draws += 1


def win_rate(s: Sums, method: str = "wilson") -> Rate:
    """The win rate of ``s`` with its interval (see the module docstring)."""
    if s.draws == 0:
        return rate_interval(s.wins, s.games, method)
    return mean_interval(s.score, s.score_sq, s.games)


@dataclass
class GameTally:
    """Sums per agent, per (agent, seat), per seat, and head-to-head for two players."""

    labels: list[str]
    players: int
    agents: dict[str, Sums] = field(default_factory=dict)
    seats: dict[tuple[str, int], Sums] = field(default_factory=dict)
    by_seat: list[Sums] = field(default_factory=list)
    #: (row agent, column agent) -> the row agent's sums in games against the column agent
    pairs: dict[tuple[str, str], Sums] = field(default_factory=dict)
    games: int = 0
    errors: int = 0
    #: the first error message charged to each agent (or to the game, key ""), for reports
    first_errors: dict[str, str] = field(default_factory=dict)
    #: the game's win scores of one game's rewards (``Game.win_scores``)
    scorer: Callable[[Sequence[float]], list[float]] = shared_top
    #: role -> sums of every seat that played it; (agent, role) -> that agent's sums
    by_role: dict[str, Sums] = field(default_factory=dict)
    agent_roles: dict[tuple[str, str], Sums] = field(default_factory=dict)
    #: (agent a, agent b), a < b -> block -> a's win scores minus b's in the block's games
    #: (a block's games share one deal: the pairing unit of :func:`pairwise`)
    blocks: dict[tuple[str, str], dict[int, float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in self.labels:
            self.agents.setdefault(name, Sums())
        while len(self.by_seat) < self.players:
            self.by_seat.append(Sums())

    def add(self, lineup: Sequence[str], rewards: Sequence[float] | None,
            error_seat: int | None, roles: Sequence[str] | None = None,
            block: int | None = None) -> None:
        """One game: the agent label per seat, its rewards (None if it ended by an error),
        the seat that erred (None for a fault of the game's code), each seat's role
        (None, or ``""`` for a seat, in games without roles) and the block of games that
        share its deal (None when games are not paired)."""
        for name in lineup:
            self.agents.setdefault(name, Sums()).played += 1
        if len(lineup) > self.players:  # a tally built before its first game's size was known
            self.players = len(lineup)
            self.__post_init__()
        if rewards is None:
            self.errors += 1
            if error_seat is not None and 0 <= error_seat < len(lineup):
                self.agents[lineup[error_seat]].errors += 1
            return
        self.games += 1
        scores = self.scorer(rewards)
        for j, name in enumerate(lineup):
            self.agents[name].add(rewards[j], scores[j])
            self.seats.setdefault((name, j), Sums()).add(rewards[j], scores[j])
            self.by_seat[j].add(rewards[j], scores[j])
            if roles and roles[j]:
                self.by_role.setdefault(roles[j], Sums()).add(rewards[j], scores[j])
                self.agent_roles.setdefault((name, roles[j]), Sums()).add(rewards[j],
                                                                          scores[j])
            for i, other in enumerate(lineup):
                if i != j and other != name:
                    self.pairs.setdefault((name, other), Sums()).add(rewards[j], scores[j])
        if block is not None:
            self._add_block(lineup, scores, block)

    def _add_block(self, lineup: Sequence[str], scores: Sequence[float], block: int) -> None:
        total: dict[str, float] = {}
        for name, score in zip(lineup, scores, strict=True):
            total[name] = total.get(name, 0.0) + score
        names = sorted(total)
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                cell = self.blocks.setdefault((a, b), {})
                cell[block] = cell.get(block, 0.0) + total[a] - total[b]

    def add_record(self, record: dict) -> None:
        """One tournament game record (its ``tournament.lineup`` labels the seats)."""
        lineup = record.get("tournament", {}).get("lineup") or record["agents"]
        error = record.get("error")
        if error is not None:
            seat = error.get("seat", -1)
            seat = seat if isinstance(seat, int) and 0 <= seat < len(lineup) else None
            self.first_errors.setdefault("" if seat is None else lineup[seat],
                                         str(error.get("message", error)))
            self.add(lineup, None, seat)
        else:
            self.add(lineup, record["rewards"], None, record.get("roles"),
                     record.get("tournament", {}).get("block"))

    @property
    def roles(self) -> list[str]:
        """The roles seen, in order of first sight (empty for a game without roles)."""
        return list(self.by_role)

    def role_sums(self, label: str, role: str) -> Sums:
        """``label``'s sums in ``role`` (empty if it never played it)."""
        return self.agent_roles.get((label, role), Sums())


def tally_records(records: Iterable[dict], labels: Sequence[str], players: int,
                  scorer: Callable[[Sequence[float]], list[float]] = shared_top) -> GameTally:
    """A :class:`GameTally` of tournament records (``scorer``: the game's win scores)."""
    tally = GameTally(list(labels), players, scorer=scorer)
    for rec in records:
        tally.add_record(rec)
    return tally


@dataclass
class AgentResult:
    """One agent's figures, ready for tables, CSV and JSON."""

    label: str
    played: int
    errors: int
    games: int
    win_rate: Rate
    mean_reward: Rate
    seats: list[Rate]
    #: role -> win rate in that role (empty for a game without roles)
    roles: dict[str, Rate] = field(default_factory=dict)

    def to_dict(self) -> dict:
        d = asdict(self)
        if not self.roles:  # games without roles keep their results.json as it was
            del d["roles"]
        return d


def agent_results(tally: GameTally, method: str = "wilson") -> list[AgentResult]:
    """Per-agent results (win rate overall and in each seat), best win rate first."""
    out = []
    for name in tally.labels:
        s = tally.agents[name]
        seats = [win_rate(tally.seats.get((name, j), Sums()), method)
                 for j in range(tally.players)]
        roles = {role: win_rate(tally.role_sums(name, role), method) for role in tally.roles}
        out.append(AgentResult(name, s.played, s.errors, s.games, win_rate(s, method),
                               mean_interval(s.reward, s.reward_sq, s.games), seats, roles))
    return sorted(out, key=lambda r: -1.0 if r.games == 0 else -r.win_rate.rate)


def seat_results(tally: GameTally) -> list[Rate]:
    """Mean reward of each seat, whoever sat there (the game's seat advantage)."""
    return [mean_interval(s.reward, s.reward_sq, s.games) for s in tally.by_seat]


def head_to_head(tally: GameTally, method: str = "wilson") -> dict[str, dict[str, Rate]]:
    """Row agent's win rate in games against the column agent."""
    return {a: {b: win_rate(tally.pairs[(a, b)], method)
                for b in tally.labels if (a, b) in tally.pairs}
            for a in tally.labels}


def role_results(tally: GameTally, method: str = "wilson") -> dict[str, dict[str, Rate]]:
    """Per role, whoever played it: the win rate and the mean reward (the side's share
    of wins in a team game), e.g. how often the spies or the landlord win."""
    return {role: {"win_rate": win_rate(s, method),
                   "mean_reward": mean_interval(s.reward, s.reward_sq, s.games)}
            for role, s in tally.by_role.items()}


def pairwise(tally: GameTally) -> list[dict]:
    """Every two agents compared on the deals they both played (a paired design: a block
    plays one deal in every seating, so seat and deal luck cancel within it).

    Per pair, a block counts for ``a`` when ``a``'s win scores over the block's games
    exceed ``b``'s, for ``b`` when less, else it is tied; the two-sided sign test on the
    untied blocks (McNemar's exact test, :func:`spyglass.arena.paired.paired_test`)
    asks whether either is ahead more often than chance. The pairs are one family, read
    together to rank the pool, so ``p_holm`` is Holm-adjusted over them."""
    from spyglass.arena.paired import holm, paired_test

    rows = []
    for (a, b), cells in sorted(tally.blocks.items()):
        ahead = {k: d > 1e-12 for k, d in cells.items()}
        behind = {k: d < -1e-12 for k, d in cells.items()}
        t = paired_test(ahead, behind)
        rows.append({"a": a, "b": b, "blocks": t["pairs"], "a_ahead": t["only_a"],
                     "b_ahead": t["only_b"], "tied": t["neither"], "p_sign": t["p_mcnemar"]})
    adjusted, _ = holm([r["p_sign"] for r in rows])
    for row, p in zip(rows, adjusted, strict=True):
        row["p_holm"] = p
    return rows


def results_section(tally: GameTally, method: str = "wilson") -> dict:
    """Every game's per-agent, per-seat and head-to-head figures as plain data (the
    ``results.json`` keys every tournament has), plus ``roles`` when the game has any."""
    h2h = head_to_head(tally, method)
    out = {
        "agents": [a.to_dict() for a in agent_results(tally, method)],
        "seats": [s.to_dict() for s in seat_results(tally)],
        "head_to_head": {a: {b: r.to_dict() for b, r in row.items()} for a, row in h2h.items()},
    }
    if tally.by_role:
        out["roles"] = {role: {k: r.to_dict() for k, r in rates.items()}
                        for role, rates in role_results(tally, method).items()}
    if tally.blocks:
        out["pairwise"] = pairwise(tally)
    return out
