"""How many EPIC records a search needs under EPIC-7 and under ``epic_avail=visited``.

Whitehouse 2014, EPIC-6/7 (§8.3.1): every position-in-episode that was *available* counts
its availability from the search's start, so the records EPIC-7 needs are those ever
available or visited; ``visited`` makes only the visited ones. This plays N uniformly
random playouts from the first decision of ``new_state(0)`` (the simulation policy of an
EPIC search before it has learnt anything) and prints both counts, to size the records'
table (``spyglass.search.icarus.driver.TABLE_BITS``; docs/icarus.md, Departures):

    python tools/count_epic_records.py resistance 5000
"""

from __future__ import annotations

import sys

import numpy as np

from spyglass.games import registry


def main(name: str, n: int) -> None:
    opts = {"hearts": {"target": 0}, "spades": {"target": 0}}.get(name, {})
    g = registry.make(name, **opts)
    episode = type(g).capability("episode")
    if episode is None:
        raise SystemExit(f"{name} has no episode function (EPIC is refused there)")
    s0 = g.new_state(0)
    rng = np.random.default_rng(1)
    visited, available = set(), set()
    for it in range(1, n + 1):
        s = s0.copy()
        pos: tuple = ("root",)  # the episode in progress at the root (as the loops do)
        while not g.kernel.is_terminal(s):
            legal = g.legal_actions(s)
            p = int(g.kernel.actor(s))
            a = legal[int(rng.integers(len(legal)))]
            for b in legal:
                (visited if b == a else available).add((pos, b, p))
            g.kernel.apply(s, a)
            label = int(episode(s, a))
            pos = (label,) if label >= 0 else pos + ((a, p),)
        if it in (100, 300, 1000, 5000) or it == n:
            print(f"{name} {it} playouts: visited {len(visited)}, "
                  f"EPIC-7 (visited or available) {len(visited | available)}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
