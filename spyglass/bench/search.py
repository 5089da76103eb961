"""Speed and memory of MT-ISMCTS at the first decision of a game (one core)."""

from __future__ import annotations

import time

import numpy as np

from spyglass.bench import benchmark
from spyglass.bench.latency import load_latency_ns
from spyglass.games.resistance.public_track import PublicTrack
from spyglass.games.resistance.search_kernel import search_spec
from spyglass.rng import make_rng
from spyglass.search.mtismcts import MTISMCTS


def first_decision(n_players: int, iterations: int, repeats: int) -> tuple[float, float]:
    """Best iterations/s and bytes/iteration of the first leader's search, as a bot runs it.

    The leader (seat 0) is a resistance member proposing the first team; determinizations
    come from its uniform belief and particle-filter counts are kept (inference on).
    Compilation (or loading from numba's cache) happens before the timing.
    """
    spec = search_spec(n_players)
    track = PublicTrack(n_players, 0, 0, 0)
    belief = ((spec.dets[:, 0] & 1) == 0).astype(np.float64)
    searcher = MTISMCTS(spec)
    searcher.search(track.root(), belief, make_rng(0), searcher=0, iterations=100)
    best, per_it = 0.0, 0.0
    for r in range(repeats):
        t0 = time.perf_counter()
        result = searcher.search(
            track.root(), belief, make_rng(r + 1), searcher=0, iterations=iterations
        )
        best = max(best, iterations / (time.perf_counter() - t0))
        per_it = max(per_it, result.bytes_peak / iterations)
    return best, per_it


@benchmark("search")
def search_speed(quick: bool) -> dict[str, float]:
    """MT-ISMCTS iterations per second at 5 and 10 players (100,000 iterations) and memory."""
    iterations = 20_000 if quick else 100_000
    repeats = 2 if quick else 3
    rate5, bytes5 = first_decision(5, iterations, repeats)
    rate10, bytes10 = first_decision(10, iterations, repeats)
    return {
        "mt_ismcts_iterations_per_s": rate5,
        "mt_ismcts_iterations_per_s_10p": rate10,
        "mt_ismcts_bytes_per_iteration": bytes5,
        "mt_ismcts_bytes_per_iteration_10p": bytes10,
    }


def scaling(n_players: int, budgets: dict[int, int]) -> dict[int, tuple[float, float]]:
    """Best iterations/s and bytes/iteration of the first decision at growing budgets.

    ``budgets``: iterations -> repeats. One searcher (one node pool) runs them back to
    back in one process, smallest first, as a bot's successive decisions would; the
    pool keeps its memory between searches, so only the first large one pays for
    growing it, and the best of the repeats does not.
    """
    spec = search_spec(n_players)
    track = PublicTrack(n_players, 0, 0, 0)
    belief = ((spec.dets[:, 0] & 1) == 0).astype(np.float64)
    searcher = MTISMCTS(spec)
    searcher.search(track.root(), belief, make_rng(0), searcher=0, iterations=100)
    out = {}
    for iterations, repeats in sorted(budgets.items()):
        best, per_it = 0.0, 0.0
        for r in range(repeats):
            t0 = time.perf_counter()
            result = searcher.search(track.root(), belief, make_rng(r + 1), searcher=0,
                                     iterations=iterations)
            best = max(best, iterations / (time.perf_counter() - t0))
            per_it = max(per_it, result.bytes_peak / iterations)
        out[iterations] = (best, per_it)
    return out


_LABEL = {10_000: "10k", 100_000: "100k", 1_000_000: "1m"}


@benchmark("search_scaling")
def search_scaling(quick: bool) -> dict[str, float | str]:
    """MT-ISMCTS speed as its tree outgrows the caches (issue 17), beside memory latency.

    10k, 100k and 1M iterations of the first decision at 5 and 10 players, best of a
    few each, and ns per dependent load at 1, 16 and 256 MB (ordinary pages, and 256 MB
    on huge pages as the search pools are): the probe tells the machine from the code.
    ``--quick`` skips the 1M runs (they take most of the time).
    """
    budgets = {10_000: 3, 100_000: 2} if quick else {10_000: 5, 100_000: 3, 1_000_000: 3}
    out: dict[str, float | str] = {}
    for n, suffix in ((5, ""), (10, "_10p")):
        for iterations, (rate, per_it) in scaling(n, budgets).items():
            label = _LABEL[iterations]
            out[f"mt_ismcts_iterations_per_s_at_{label}{suffix}"] = rate
            out[f"mt_ismcts_bytes_per_iteration_at_{label}{suffix}"] = per_it
    steps = 500_000 if quick else 2_000_000
    for mb in (1, 16, 256):
        out[f"mem_latency_ns_at_{mb}mb"] = load_latency_ns(mb << 20, steps=steps)
    out["mem_latency_ns_at_256mb_huge_pages"] = load_latency_ns(256 << 20, huge=True,
                                                                steps=steps)
    if quick:
        out["note"] = "--quick skips the 1M-iteration runs"
    return out


@benchmark("bluff")
def bluff_speed(quick: bool) -> dict[str, float]:
    """Iterations per second of a BLUFF/SPLIT spy's search (Cowling et al. 2015, §VI) at 5 players.

    Seat 0 is a spy (seats 0 and 1) choosing the first team: half the iterations sample
    self-determinizations from a uniform ψ (counting the merged tree), half sample the
    true configuration; the same split with TWOSTEP's fixed opponents is timed too.
    """
    from spyglass.search.selfdet import plan_phases, uniform_psi

    iterations = 20_000 if quick else 100_000
    spec = search_spec(5)
    track = PublicTrack(5, 0, 0, 0)
    phi = (spec.dets[:, 0] == 0b00011).astype(np.float64)
    psi = uniform_psi(spec.n_dets)
    searcher = MTISMCTS(spec)
    out = {}
    for variant in ("bluff", "twostep"):
        phases = plan_phases(variant, phi, psi, iterations=iterations)
        searcher.search(track.root(), phi, make_rng(0), searcher=0,
                        phases=plan_phases(variant, phi, psi, iterations=200), track=False)
        best = 0.0
        for r in range(2 if quick else 3):
            t0 = time.perf_counter()
            searcher.search(track.root(), phi, make_rng(r + 1), searcher=0, phases=phases,
                            track=False)
            best = max(best, iterations / (time.perf_counter() - t0))
        out[f"mt_ismcts_{variant}_iterations_per_s"] = best
    return out
