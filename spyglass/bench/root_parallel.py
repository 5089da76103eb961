"""Root-parallel MT-ISMCTS (``mtismcts:workers=N``): wall-clock iterations per second of
one 5-player search at 1 and 2 workers, side by side (the gain needs free cores)."""

from __future__ import annotations

import time

from spyglass.bench import benchmark


def _rates(iterations: int, rounds: int) -> dict[str, float]:
    import numpy as np

    from spyglass.games.resistance.public_track import PublicTrack
    from spyglass.games.resistance.search_kernel import search_spec
    from spyglass.rng import make_rng
    from spyglass.search.mtismcts import MTISMCTS
    from spyglass.search.root_parallel import RootParallelMTISMCTS

    spec = search_spec(5)
    belief = ((spec.dets[:, 0] & 1) == 0).astype(np.float64)  # seat 0 is resistance
    root = PublicTrack(5, 0, 0, 0).root()
    searchers = {"1_worker": MTISMCTS(spec), "2_workers": RootParallelMTISMCTS(spec, workers=2)}
    best = dict.fromkeys(searchers, 0.0)
    for s in searchers.values():  # warm-up: compiled code, pools
        s.search(root, belief, make_rng(0), searcher=0, iterations=1000)
    for r in range(rounds):  # interleaved, best of the rounds
        for name, s in searchers.items():
            t0 = time.perf_counter()
            s.search(root, belief, make_rng(r + 1), searcher=0, iterations=iterations)
            best[name] = max(best[name], iterations / (time.perf_counter() - t0))
    searchers["2_workers"].close()
    return {f"mt_ismcts_root_parallel_iterations_per_s_{k}": v for k, v in best.items()}


@benchmark("root_parallel")
def root_parallel_speed(quick: bool) -> dict[str, float]:
    """MT-ISMCTS iterations per wall-second at 1 and 2 root-parallel workers."""
    return _rates(100_000 if quick else 400_000, 3)
