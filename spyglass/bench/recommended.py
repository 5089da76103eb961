"""CPU seconds per decision of each game's recommended agent
(:mod:`spyglass.agents.recommended`): the numbers its table quotes.

Run: ``python -m spyglass.bench.recommended``. Seat 0 plays the recommended agent in one
seeded game (seed 1) against a fixed move (the middle legal one) in the other seats; the
first decisions (up to 8, the first, which compiles, left out) are timed in CPU time of
this process and the median is printed. One game, so a rough figure: it shows that an
entry keeps to the 0.25 CPU-second budget, not a speed benchmark.
"""

from __future__ import annotations

import statistics
import sys
import time

from spyglass.agents.recommended import best
from spyglass.arena.agent_spec import parse_agent
from spyglass.games import registry as games


def measure(name: str, decisions: int = 8) -> float | None:
    """Median CPU seconds per decision of ``name``'s recommended agent (None: not a
    game-general agent, e.g. a 2012 Bot-API bot)."""
    if name == "resistance":
        return None
    spec = parse_agent(best(name).spec)
    game = games.make(name)
    s = game.new_state(1)
    me = spec.make()
    me.start(game, 0, game.view(s, 0), 1)
    times: list[float] = []
    while not game.kernel.is_terminal(s) and len(times) < decisions:
        p = int(game.kernel.actor(s))
        legal = game.legal_actions(s)
        if p == 0 and len(legal) > 1:
            t0 = time.process_time()
            a = me.act(game.view(s, 0), legal)
            times.append(time.process_time() - t0)
        else:
            a = legal[len(legal) // 2]
        obs = int(game.kernel.observe(s, a, 0))
        game.kernel.apply(s, a)
        me.observe(obs, p, game.view(s, 0))
    if not times:
        return None
    return statistics.median(times[1:] or times)


def main(argv: list[str] | None = None) -> int:
    names = (argv if argv is not None else sys.argv[1:]) or games.names()
    for name in names:
        cpu = measure(name)
        shown = "not timed (2012 Bot API)" if cpu is None else f"{cpu:.4f} CPU s/decision"
        print(f"{name:14s} {best(name).spec:36s} {shown}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
