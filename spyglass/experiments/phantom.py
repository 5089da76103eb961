"""The phantom 4,4,4 round robin of Whitehouse 2014, §6.3.2 (Figures 6.4-6.5), reproduced.

Six players play every ordered pairing (player 1 = seat 0 moves first, player 2 = seat 1),
each at 10,000 iterations per move, the ensembles as 40 trees x 250 iterations:
cheating ensemble UCT, cheating UCT (both explicitly privileged: they see the true
state), MO-ISMCTS, determinized UCT (PIMC), SO-ISMCTS and SO-ISMCTS+POM. The thesis
ranks them, best first, in that order over both seats, and as player 2 finds
MO > POM > SO.

Games are seeded: game ``g`` of a pairing gives seat ``j`` the agent seed derived from
``(seed, pairing, g, j)``, so a run is reproducible and can be extended. Every game can
be kept as one record (:func:`record`; the command writes them beside the counts). Win rates count
wins only, as in the thesis's figures (a draw is not a win); intervals are Wilson 95%.

Games are played by :func:`play_game` below, a minimal referee (each agent receives only
its own view, or the full state if it is omniscient). When the generic referee
(``spyglass.arena.match.play_match``) is on the branch, it can replace it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from statsmodels.stats.proportion import proportion_confint

from spyglass.agents import registry
from spyglass.agents.base import Agent
from spyglass.games.base import Game
from spyglass.games.registry import make as make_game

#: The thesis's players, best first in its ranking (label -> agent name, settings at
#: ``iterations`` per move).
PLAYERS = ("cheating ensemble", "cheating UCT", "MO-ISMCTS", "determinized UCT",
           "SO-ISMCTS", "SO-ISMCTS+POM")


def player_settings(label: str, iterations: int) -> tuple[str, dict]:
    """Agent name and settings of ``label`` at ``iterations`` per move (ensembles: 40 trees)."""
    trees = 40
    per_tree = max(1, iterations // trees)
    table = {
        "cheating ensemble": ("cheatingensemble", {"d": trees, "s": per_tree}),
        "cheating UCT": ("cheatinguct", {"iterations": iterations}),
        "MO-ISMCTS": ("moismcts", {"iterations": iterations}),
        "determinized UCT": ("pimc", {"d": trees, "s": per_tree}),
        "SO-ISMCTS": ("soismcts", {"iterations": iterations}),
        "SO-ISMCTS+POM": ("soismcts_pom", {"iterations": iterations}),
    }
    if label not in table:
        raise ValueError(f"unknown player {label!r}; players: {', '.join(table)}")
    return table[label]


def play_game(game: Game, agents: list[Agent], seeds: list[int]) -> tuple[float, ...]:
    """One game; each agent sees only its own view (the full state if omniscient)."""
    k = game.kernel
    s = game.new_state(0)

    def seen_by(j: int) -> np.ndarray:
        return s.copy() if agents[j].omniscient else game.view(s, j)

    for j, agent in enumerate(agents):
        agent.start(game, j, seen_by(j), seeds[j])
    for _ in range(game.max_moves + 1):
        if k.is_terminal(s):
            break
        p = int(k.actor(s))
        legal = game.legal_actions(s)
        a = agents[p].act(seen_by(p), legal)
        if a not in legal:
            raise RuntimeError(f"seat {p} played {a}, not a legal action {legal}")
        obs = [int(k.observe(s, a, j)) for j in range(game.n_players)]
        k.apply(s, a)
        for j, agent in enumerate(agents):
            agent.observe(obs[j], p, seen_by(j))
    if not k.is_terminal(s):
        raise RuntimeError("the game did not end within max_moves")
    rewards = game.rewards(s)
    for agent in agents:
        agent.finish(rewards)
    return rewards


@dataclass
class RoundRobin:
    """Outcomes per ordered pairing: ``results[(p1, p2)] = [p1 wins, draws, p2 wins]``."""

    players: tuple[str, ...]
    iterations: int
    games: int
    seed: int
    results: dict[tuple[str, str], list[int]] = field(default_factory=dict)

    def rate(self, label: str, seat: int | None = None, draw: float = 0.0,
             ) -> tuple[float, float, float, int]:
        """``label``'s win rate over all its games (as player ``seat + 1`` only, if given)
        against every opponent (itself included, as in the thesis's round robin): rate,
        95% Wilson interval, games. ``draw=0.5`` gives the score instead (a draw is half
        a win; the interval then treats the score as a proportion, a slight overstatement
        of its width)."""
        wins = 0.0
        n = 0
        for (a, b), (w1, d, w2) in self.results.items():
            if a == label and seat in (None, 0):
                wins += w1 + draw * d
                n += w1 + d + w2
            if b == label and seat in (None, 1):
                wins += w2 + draw * d
                n += w1 + d + w2
        if n == 0:
            return 0.0, 0.0, 0.0, 0
        lo, hi = proportion_confint(wins, n, alpha=0.05, method="wilson")
        return wins / n, float(lo), float(hi), n

    def ranking(self, seat: int | None = None, draw: float = 0.0) -> list[str]:
        """The players by win rate (or score, ``draw=0.5``), best first."""
        return sorted(self.players, key=lambda p: -self.rate(p, seat, draw)[0])

    def to_json(self) -> dict:
        return {"players": list(self.players), "iterations": self.iterations,
                "games": self.games, "seed": self.seed,
                "results": [[a, b, *r] for (a, b), r in self.results.items()]}

    def table(self, draw: float = 0.0) -> str:
        """A markdown table of win rates (or scores) for both seats, player 1, player 2."""
        lines = ["| player | both seats | as player 1 | as player 2 |", "|---|---|---|---|"]
        for p in self.ranking(draw=draw):
            cells = []
            for seat in (None, 0, 1):
                r, lo, hi, n = self.rate(p, seat, draw)
                cells.append(f"{100 * r:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] (n={n})")
            lines.append(f"| {p} | " + " | ".join(cells) + " |")
        return "\n".join(lines)


def plot(rr: RoundRobin, path: str | Path) -> None:
    """Bars of win rates (top) and scores with a draw as ½ (bottom), with 95% intervals,
    for both seats, player 1 and player 2 (the thesis's Figure 6.5 (c) layout), through
    matplotlib's object API."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 6.4))
    titles = ("players 1 + 2", "as player 1", "as player 2")
    for row, (draw, what) in enumerate(((0.0, "win rate (%)"), (0.5, "score, draw = 1/2 (%)"))):
        for i, seat in enumerate((None, 0, 1)):
            ax = fig.add_subplot(2, 3, 3 * row + i + 1)
            rates = [rr.rate(p, seat, draw) for p in rr.players]
            y = [100 * r[0] for r in rates]
            err = [[100 * (r[0] - r[1]) for r in rates], [100 * (r[2] - r[0]) for r in rates]]
            ax.bar(range(len(y)), y, yerr=err, capsize=3, color="#4c72b0")
            ax.set_xticks(range(len(y)), rr.players, fontsize=7, rotation=30, ha="right")
            ax.set_ylim(0, 100)
            if row == 0:
                ax.set_title(titles[i], fontsize=9)
            if i == 0:
                ax.set_ylabel(what, fontsize=8)
    fig.suptitle(f"Phantom 4,4,4 round robin, {rr.iterations:,} iterations per move, "
                 f"{rr.games} games per ordered pairing", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def load(path: str | Path) -> RoundRobin:
    """A :class:`RoundRobin` from :meth:`RoundRobin.to_json` output."""
    d = json.loads(Path(path).read_text())
    rr = RoundRobin(tuple(d["players"]), d["iterations"], d["games"], d["seed"])
    for a, b, *r in d["results"]:
        rr.results[(a, b)] = list(r)
    return rr


def merge(runs: list[RoundRobin]) -> RoundRobin:
    """Runs of the same players and budget (different seeds) as one: counts are summed."""
    if not runs:
        raise ValueError("nothing to merge")
    first = runs[0]
    for r in runs[1:]:
        if (r.players, r.iterations) != (first.players, first.iterations):
            raise ValueError("runs with different players or budgets cannot be merged")
    seeds = [r.seed for r in runs]
    if len(set(seeds)) != len(seeds):
        raise ValueError("two runs with the same seed would count the same games twice")
    out = RoundRobin(first.players, first.iterations, sum(r.games for r in runs),
                     first.seed)
    for r in runs:
        for pair, tally in r.results.items():
            out.results[pair] = [x + y for x, y in zip(out.results.get(pair, [0, 0, 0]), tally,
                                                       strict=True)]
    return out


def record(seed: int, q: int, g: int, pair: tuple[str, str], specs: list[str],
           seeds: list[int], rewards) -> dict:
    """One game's record (a line of ``OUT.jsonl``): the run's ``seed``, the pairing's
    index ``q`` and players, the game ``i`` within it, the seats' agent specs and seeds,
    the rewards and each seat's ``scores`` (a win 1, a draw ½)."""
    from spyglass.games.base import shared_top

    return {"experiment": "phantom-roundrobin", "seed": seed, "q": q, "player1": pair[0],
            "player2": pair[1], "i": g, "seats": specs, "agent_seeds": seeds,
            "rewards": [float(x) for x in rewards],
            "scores": [float(x) for x in shared_top(rewards)]}


def _spec(setting: tuple[str, dict]) -> str:
    name, kw = setting
    return name + ":" + ",".join(f"{k}={v}" for k, v in kw.items())


def round_robin(games: int, *, iterations: int = 10_000, seed: int = 0,
                players: tuple[str, ...] = PLAYERS, m: int = 4, n: int = 4, k: int = 4,
                progress=None, records: list[dict] | None = None) -> RoundRobin:
    """Play ``games`` seeded games of every ordered pairing of ``players``; ``records``,
    if given, receives every game's :func:`record`."""
    if type(games) is not int or games < 1:
        raise ValueError(f"games must be a positive integer, not {games!r}")
    specs = {p: player_settings(p, iterations) for p in players}
    game = make_game("phantom", m=m, n=n, k=k)
    out = RoundRobin(tuple(players), iterations, games, seed)
    pairings = [(a, b) for a in players for b in players]
    for q, (a, b) in enumerate(pairings):
        tally = [0, 0, 0]
        for g in range(games):
            agents = [registry.make(specs[a][0], **specs[a][1]),
                      registry.make(specs[b][0], **specs[b][1])]
            base = ((seed * 1_000 + q) * 100_000 + g) * 2
            r = play_game(game, agents, [base, base + 1])
            tally[0 if r[0] > r[1] else 2 if r[1] > r[0] else 1] += 1
            if records is not None:
                records.append(record(seed, q, g, (a, b), [_spec(specs[a]), _spec(specs[b])],
                                      [base, base + 1], r))
            if progress is not None:
                progress(a, b, g, r)
        out.results[(a, b)] = tally
    return out


def main(argv: list[str] | None = None) -> None:
    """``python -m spyglass.experiments.phantom GAMES [ITERATIONS] [OUT.json [PLOT.png]]
    [--seed S]`` (OUT.json: the counts; the games' records beside it, OUT.jsonl)."""
    import argparse

    ap = argparse.ArgumentParser(prog="python -m spyglass.experiments.phantom",
                                 description="The phantom 4,4,4 round robin (§6.3.2).")
    ap.add_argument("games", type=int, nargs="?", default=4, help="per ordered pairing")
    ap.add_argument("iterations", type=int, nargs="?", default=10_000)
    ap.add_argument("out", type=Path, nargs="?", help="the counts (and OUT.jsonl, the games)")
    ap.add_argument("plot", type=Path, nargs="?")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    records: list[dict] = []
    rr = round_robin(args.games, iterations=args.iterations, seed=args.seed, records=records,
                     progress=lambda a, b, g, r: print(a, "v", b, g, r, flush=True))
    print(rr.table())
    if args.out:
        args.out.write_text(json.dumps(rr.to_json(), indent=1))
        args.out.with_suffix(".jsonl").write_text(
            "".join(json.dumps(x) + "\n" for x in records))
    if args.plot:
        plot(rr, args.plot)


if __name__ == "__main__":
    main()
