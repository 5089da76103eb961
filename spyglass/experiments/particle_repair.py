"""How often the particle filter collapses, with and without the game's particle repair.

One seat's :class:`~spyglass.search.particles.ParticleFilter` follows seeded games of
uniformly random moves; the same seeds are run with the game's repair hook
(``spyglass.games.<game>.repair``) and without it (every contradicted particle ruled
out), so the two arms see the very same games. Reported per arm: collapses (every
particle ruled out at once), resamplings and repairs per 100 observed moves, and the
mean effective sample size over the moves, and the filter's CPU time per update
(``--search-every N`` also times MT-ISMCTS searches from the particles). Other modes:
``--smoke`` (the agent against random players), ``--timing`` (the agent's costs in
whole games), ``--strength ITERATIONS`` (against SO-ISMCTS, JSON lines for
:func:`paired_summary`). Used for docs/inference.md::

    spyglass experiment particle-repair cheat --seeds 20 --moves 100
    spyglass experiment particle-repair cheat --strength 1000 --seeds 300 \
        --repair off --out off.jsonl
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from spyglass.agents.mt_ismcts import particle_repair
from spyglass.games import registry
from spyglass.rng import make_rng
from spyglass.search.particles import ParticleFilter


@dataclass
class FilterRun:
    """Totals of one arm over its games."""

    moves: int = 0
    collapses: int = 0
    resamples: int = 0
    repairs: int = 0
    repairs_failed: int = 0
    ess_sum: float = 0.0
    seconds: float = 0.0  # CPU time in the filter's updates
    search_iterations: int = 0
    search_seconds: float = 0.0  # CPU time of MT-ISMCTS searches from the particles

    @property
    def search_rate(self) -> float:
        return self.search_iterations / max(self.search_seconds, 1e-9)

    @property
    def ms_per_move(self) -> float:
        return 1000.0 * self.seconds / max(self.moves, 1)

    def per_100(self, x: int) -> float:
        return 100.0 * x / max(self.moves, 1)

    @property
    def mean_ess(self) -> float:
        return self.ess_sum / max(self.moves, 1)


def follow(game_name: str, seeds: range, particles: int = 16, repair: bool = True,
           seat: int = 0, max_moves: int = 100, search_every: int = 0,
           iterations: int = 1000, **options) -> FilterRun:
    """Seat ``seat``'s filter over the first ``max_moves`` moves of random games."""
    game = registry.make(game_name, **options)
    fix = particle_repair(game) if repair else None
    if repair and fix is None:
        raise ValueError(f"game {game_name!r} has no particle repair")
    k = game.kernel
    out = FilterRun()
    mt = None
    if search_every:
        from spyglass.agents.mt_ismcts import mt_entry
        from spyglass.agents.search_support import search_settings, shape_of
        from spyglass.search.sampled.mt_driver import MTSearch

        mt = MTSearch(mt_entry(game), shape_of(game), search_settings({"iterations": iterations}))
    for seed in seeds:
        s = game.new_state(seed)
        pick = np.random.default_rng(seed)
        pf = ParticleFilter(k, game.state_size, game.view_size, seat, particles,
                            make_rng(seed), None, repair=fix)
        pf.reset(game.view(s, seat))
        for move in range(max_moves):
            if k.is_terminal(s):
                break
            actor = int(k.actor(s))
            if mt is not None and actor == seat and move % search_every == 0 \
                    and k.n_legal(s) > 1:
                t0 = time.process_time()
                mt.search(pf.particles, pf.weights, seat, make_rng(seed * 1000 + move))
                out.search_seconds += time.process_time() - t0
                out.search_iterations += iterations
            legal = game.legal_actions(s)
            a = legal[int(pick.integers(len(legal)))]
            obs = int(k.observe(s, a, seat))
            k.apply(s, a)
            if obs == 0 and actor != seat:
                continue  # unseen: the referee does not tell the seat
            view = game.view(s, seat)
            t0 = time.process_time()
            pf.update(obs, actor, view)
            out.seconds += time.process_time() - t0
            for i in range(pf.n):
                if not pf.consistent(i, view):
                    raise AssertionError(f"seed {seed}: particle {i} is inconsistent")
            out.moves += 1
            out.ess_sum += pf.ess_history[-1]
        out.collapses += pf.collapses
        out.resamples += pf.resamples
        out.repairs += pf.repairs
        out.repairs_failed += pf.repairs_failed
    return out


def strength(game_name: str, seeds: range, iterations: int = 1000, particles: int = 32,
             repair: bool = True, out=None) -> list[tuple[int, int, float, dict]]:
    """``mtismcts_pf`` (with or without repair) against ``soismcts`` at equal iterations,
    in both seats of each seeded deal; one ``(seed, seat, score, extra)`` per game (score:
    the win score of ``game.win_scores``, a draw ½). ``out``: a file to append JSON lines
    to as games finish."""
    import json

    from spyglass.agents import registry as agents
    from spyglass.arena.match import play_match

    game = registry.make(game_name)
    rows = []
    for seed in seeds:
        for seat in range(2):
            pf = agents.make("mtismcts_pf", iterations=iterations, particles=particles,
                             repair=repair)
            so = agents.make("soismcts", iterations=iterations)
            res = play_match(game, [pf, so] if seat == 0 else [so, pf], seed=seed)
            if not res.ok:
                raise RuntimeError(f"seed {seed}, seat {seat}: {res.error}")
            score = game.win_scores(list(res.rewards))[seat]
            row = (seed, seat, float(score), res.extra.get(seat) or {})
            rows.append(row)
            if out is not None:
                out.write(json.dumps({"seed": seed, "seat": seat, "score": score,
                                      "repair": repair, "extra": row[3]}) + "\n")
                out.flush()
    return rows


def smoke(game_name: str, seeds: range, repair: bool, particles: int = 16,
          iterations: int = 200) -> tuple[int, int, int]:
    """``mtismcts_pf`` (search opponent model) against uniformly random players, as in
    the agent tests: ``(moves, collapses, resamples)`` summed over the seeded games."""
    from spyglass.agents import registry as agents
    from spyglass.arena.match import play_match

    game = registry.make(game_name)
    moves = collapses = resamples = 0
    for seed in seeds:
        pf = agents.make("mtismcts_pf", iterations=iterations, particles=particles,
                         repair=repair)
        res = play_match(game, [pf] + ["random"] * (game.n_players - 1), seed=seed)
        if not res.ok:
            raise RuntimeError(f"seed {seed}: {res.error}")
        moves += len(res.to_record()["actions"])
        collapses += res.extra[0]["collapses"]
        resamples += res.extra[0]["resamples"]
    return moves, collapses, resamples


def timing(game_name: str, seeds: range, iterations: int = 1000,
           particles: int = 32) -> dict[bool, tuple[float, float]]:
    """CPU cost of ``mtismcts_pf`` with and without repair, measured side by side (the
    two arms alternate, seed by seed) against random players: ``{repair: (search
    iterations per second in its decisions, ms per observed move in the filter)}``."""
    from spyglass.agents.mt_ismcts import MTISMCTSPFAgent
    from spyglass.arena.match import play_match

    class Timed(MTISMCTSPFAgent):
        agent_name = "mtismcts_pf"

        def observe(self, obs, actor, view):
            t0 = time.process_time()
            super().observe(obs, actor, view)
            tot[self.settings["repair"]][1] += time.process_time() - t0
            tot[self.settings["repair"]][3] += 1

        def act(self, view, legal):
            t0 = time.process_time()
            a = super().act(view, legal)
            if len(legal) > 1:
                tot[self.settings["repair"]][0] += time.process_time() - t0
                tot[self.settings["repair"]][2] += self.settings["iterations"]
            return a

    game = registry.make(game_name)
    tot = {False: [0.0, 0.0, 0, 0], True: [0.0, 0.0, 0, 0]}
    for seed in seeds:
        for rep in (False, True):
            agent = Timed(iterations=iterations, particles=particles, repair=rep)
            res = play_match(game, [agent] + ["random"] * (game.n_players - 1), seed=seed)
            if not res.ok:
                raise RuntimeError(f"seed {seed}: {res.error}")
    return {rep: (v[2] / max(v[0], 1e-9), 1000.0 * v[1] / max(v[3], 1))
            for rep, v in tot.items()}


def paired_summary(path_on: str, path_off: str) -> dict:
    """The strength runs' JSON lines (``--strength``), paired by (seed, seat): each
    arm's score with a 95% Wilson interval (a draw counts ½: ``wins`` are half-points
    rounded down), and the mean paired difference with a 95% t interval."""
    import json
    import math

    from scipy import stats as sps
    from statsmodels.stats.proportion import proportion_confint

    def load(path):
        with open(path) as f:
            return {(r["seed"], r["seat"]): r["score"] for r in map(json.loads, f)}

    on, off = load(path_on), load(path_off)
    keys = sorted(set(on) & set(off))
    n = len(keys)
    if n < 2:
        raise ValueError("fewer than two paired games")
    out: dict = {"pairs": n}
    for name, arm in (("on", on), ("off", off)):
        pts = sum(arm[k] for k in keys)
        lo, hi = proportion_confint(int(pts), n, method="wilson")
        out[name] = (pts / n, lo, hi)
    d = np.array([on[k] - off[k] for k in keys])
    se = d.std(ddof=1) / math.sqrt(n)
    half = sps.t.ppf(0.975, n - 1) * se
    out["difference"] = (float(d.mean()), float(d.mean() - half), float(d.mean() + half))
    out["discordant"] = (int((d > 0).sum()), int((d < 0).sum()))
    return out


def main(argv: list[str] | None = None) -> None:
    import argparse

    ap = argparse.ArgumentParser(prog="spyglass experiment particle-repair",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--particles", type=int, default=16)
    ap.add_argument("--moves", type=int, default=100)
    ap.add_argument("--strength", type=int, default=0, metavar="ITERATIONS",
                    help="play mtismcts_pf against soismcts at this budget instead")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--repair", choices=("on", "off"), default="on")
    ap.add_argument("--out")
    ap.add_argument("--smoke", action="store_true",
                    help="mtismcts_pf against random players instead")
    ap.add_argument("--search-every", type=int, default=0,
                    help="also time a 1,000-iteration MT-ISMCTS search from the particles "
                         "at every N-th move where the seat is to act")
    ap.add_argument("--timing", action="store_true",
                    help="CPU cost of mtismcts_pf with and without repair, side by side")
    args = ap.parse_args(argv)
    if args.timing:
        seeds = range(args.first_seed, args.first_seed + args.seeds)
        for rep, (its, ms) in timing(args.game, seeds).items():
            print(f"{args.game} timing repair={rep}: {its:,.0f} search iterations/s, "
                  f"{ms:.1f} ms per observed move")
        return
    if args.smoke:
        for rep in (False, True):
            m, c, r = smoke(args.game, range(args.seeds), rep, args.particles)
            print(f"{args.game} smoke repair={rep}: {m} moves, collapses/100 "
                  f"{100 * c / m:.1f}, resamples/100 {100 * r / m:.1f}")
        return
    if args.strength:
        with open(args.out, "a") as f:
            strength(args.game, range(args.first_seed, args.first_seed + args.seeds),
                     args.strength, repair=args.repair == "on", out=f)
        return
    for rep in (False, True):
        r = follow(args.game, range(args.seeds), args.particles, rep, max_moves=args.moves,
                   search_every=args.search_every)
        print(f"{args.game} repair={rep}: {r.moves} moves, collapses/100 "
              f"{r.per_100(r.collapses):.1f}, resamples/100 {r.per_100(r.resamples):.1f}, "
              f"repairs/100 {r.per_100(r.repairs):.1f} (failed "
              f"{r.per_100(r.repairs_failed):.1f}), mean ESS {r.mean_ess:.2f} / "
              f"{args.particles}, {r.ms_per_move:.2f} ms CPU per update"
              + (f", MT-ISMCTS {r.search_rate:,.0f} iterations/s" if args.search_every else ""))


if __name__ == "__main__":
    main()
