"""One first-decision MT-ISMCTS search, for counting its cache misses with cachegrind.

Hardware counters are not available in the VMs Spyglass is measured on, so issue 17's
miss counts come from cachegrind, which is deterministic. Run it twice, with 0 and with
N iterations, and subtract (the difference is the search alone); set
``NUMBA_CPU_NAME=generic`` and run once without valgrind first, so that both runs load
the same cached machine code instead of compiling under valgrind:

    export NUMBA_CPU_NAME=generic
    python tools/cachegrind_search.py 0            # fills numba's cache
    for it in 0 100000; do
      valgrind --tool=cachegrind --cache-sim=yes --D1=32768,8,64 --LL=1048576,16,64 \\
        --cachegrind-out-file=cg.$it python tools/cachegrind_search.py $it
    done
    grep ^summary cg.0 cg.100000
"""

from __future__ import annotations

import sys

import numpy as np

from spyglass.games.resistance.search_kernel import search_spec

try:  # PublicTrack moved out of the search binding; older checkouts still have it there
    from spyglass.games.resistance.public_track import PublicTrack
except ImportError:
    from spyglass.games.resistance.search_kernel import PublicTrack
from spyglass.rng import make_rng
from spyglass.search.mtismcts import MTISMCTS


def main(iterations: int, players: int = 5) -> None:
    spec = search_spec(players)
    track = PublicTrack(players, 0, 0, 0)
    phi = ((spec.dets[:, 0] & 1) == 0).astype(np.float64)
    m = MTISMCTS(spec)
    m.search(track.root(), phi, make_rng(0), searcher=0, iterations=100)  # load the code
    if iterations:
        m.search(track.root(), phi, make_rng(1), searcher=0, iterations=iterations)


if __name__ == "__main__":
    main(int(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 5)
