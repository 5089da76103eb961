"""Cold compilation of every search entry point of one game, in CPU seconds (issue 26).

    python tools/cold_compile.py phantom [--warm] [--json]

Runs a fresh Python process with ``NUMBA_CACHE_DIR`` set to a new empty directory (so
nothing of the game, the search loops or the kernel is loaded from a cache), and in it,
in this order, times with ``time.process_time`` (this process's CPU time, which the load
of other work on the machine does not inflate much):

- ``rules``: importing Spyglass and the game, dealing, listing legal actions and viewing
  (the kernel functions Python calls; the search loops inline their own copies);
- one small search (a few iterations) through each compiled entry point the game has, as
  the drivers call them: SO-ISMCTS, SO-ISMCTS+POM, MO-ISMCTS, UCT on the true state (the
  cheating searches and PIMC), ICARUS SO, MO and UCT (with MAST), MT-ISMCTS over
  particles (the ``mtismcts_pf`` agent, particle filter included), the PIMC and cheating
  ensemble agents (whose loop is UCT's, already compiled: what is left is theirs), and
  SD-MCTS where the game has an abstraction.

Each row is the CPU time of its first call, compile and on-disk cache write included
(the search itself is a few iterations, milliseconds). ``--warm`` then runs the same
steps again in a second fresh process on the now filled cache: what a later run pays.
Prints a table (or ``--json``); exits 1 if the cold total is not under ``--limit`` s
(default 60, issue 26's target).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ITERATIONS = 20


def toy_package(where: Path) -> None:
    """Write ``tests/toy_game.py`` and its generated bindings as package ``toy_cold`` in
    ``where``: a game with no hand-written binding (as ``tests/test_bindings_toy.py``)."""
    import importlib

    from spyglass.games import bindings

    pkg = where / "toy_cold"
    pkg.mkdir(exist_ok=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "kernel.py").write_text((ROOT / "tests" / "toy_game.py").read_text())
    sys.path.insert(0, str(where))
    toy = importlib.import_module("toy_cold.kernel")
    for name, text in bindings.bindings_for(toy.SecretNumbers, "toy_cold").items():
        (pkg / name).write_text(text)


def make_game(game_name: str):
    """The registered game ``game_name``, or the toy game (``toy``; its package is in the
    directory ``$SPYGLASS_TOY_DIR``)."""
    if game_name == "toy":
        import importlib

        sys.path.insert(0, os.environ["SPYGLASS_TOY_DIR"])
        return importlib.import_module("toy_cold.kernel").SecretNumbers(2)
    from spyglass.games import registry

    return registry.make(game_name)


def _steps(game_name: str):
    """(label, thunk) for every entry point of the game; built lazily so each import is
    counted in the step that first needs it."""
    ctx: dict = {}

    def rules():
        from spyglass.bench.game_speed import first_decisions

        g = make_game(game_name)
        states = first_decisions(g)
        s = states[min(states)]
        p = int(g.kernel.actor(s))
        ctx.update(game=g, state=s, seat=p, view=g.view(s, p), legal=g.legal_actions(s))

    def sampled(alg):
        def run():
            from spyglass.agents.search_support import search_entry
            from spyglass.rng import make_rng
            from spyglass.search.sampled.driver import GameShape, ISMCTSSearch, SearchSettings

            g = ctx["game"]
            ISMCTSSearch(search_entry(g), GameShape.of(g), alg,
                         SearchSettings(iterations=ITERATIONS)).search(
                ctx["view"], ctx["seat"], make_rng(1))
        return run

    def uct():
        from spyglass.agents.search_support import search_entry
        from spyglass.rng import make_rng
        from spyglass.search.sampled.driver import GameShape, SearchSettings, UCTSearch

        g = ctx["game"]
        UCTSearch(search_entry(g), GameShape.of(g), SearchSettings(iterations=ITERATIONS)
                  ).search(ctx["state"].copy(), make_rng(1))

    def icarus(which):
        def run():
            from spyglass.agents.search_support import icarus_entry, search_entry
            from spyglass.rng import make_rng
            from spyglass.search.icarus import driver
            from spyglass.search.icarus.spec import parse
            from spyglass.search.sampled.driver import GameShape, SearchSettings

            g = ctx["game"]
            cls = {"so": driver.IcarusSOSearch, "mo": driver.IcarusMOSearch,
                   "uct": driver.IcarusUCTSearch}[which]
            search = cls(search_entry(g), icarus_entry(g), GameShape.of(g),
                         SearchSettings(iterations=ITERATIONS), parse("mast"), g.title)
            if which == "uct":
                search.search(ctx["state"].copy(), make_rng(1))
            else:
                search.search(ctx["view"], ctx["seat"], make_rng(1))
        return run

    def agent(name, **settings):
        def run():
            from spyglass.agents import registry as agents

            g, s, p = ctx["game"], ctx["state"], ctx["seat"]
            seen = s if agents.get(name).omniscient else ctx["view"]
            a = agents.make(name, **settings)
            a.start(g, p, seen, 1)
            a.act(seen, ctx["legal"])
        return run

    steps = [("rules", rules),
             ("SO-ISMCTS", sampled("so")),
             ("SO-ISMCTS+POM", sampled("pom")),
             ("MO-ISMCTS", sampled("mo")),
             ("UCT (cheating, PIMC)", uct),
             ("ICARUS SO", icarus("so")),
             ("ICARUS MO", icarus("mo")),
             ("ICARUS UCT", icarus("uct")),
             ("MT-ISMCTS (mtismcts_pf)", agent("mtismcts_pf", iterations=ITERATIONS,
                                               particles=8)),
             ("pimc agent", agent("pimc", d=2, s=ITERATIONS)),
             ("cheatingensemble agent", agent("cheatingensemble", d=2, s=ITERATIONS))]
    cls = type(make_game(game_name))
    if cls.capability("sdmcts_abstraction") is not None:
        steps.append(("SD-MCTS (mga)", agent("mga", iterations=ITERATIONS)))
    return steps


def child(game_name: str, only: list[str]) -> None:
    """Run the steps in this process (``rules`` and ``only``, if given); print one JSON
    object of label -> CPU seconds."""
    out = {}
    t0 = time.process_time()
    from spyglass.games import registry  # noqa: F401  (counted in "rules")

    first = time.process_time() - t0
    steps = [(k, f) for k, f in _steps(game_name) if not only or k in ("rules", *only)]
    for i, (label, run) in enumerate(steps):
        t = time.process_time()
        run()
        out[label] = time.process_time() - t + (first if i == 0 else 0.0)
    print(json.dumps(out))


def measure(game_name: str, cache_dir: str) -> dict[str, float]:
    """The steps' CPU seconds in a fresh process with ``NUMBA_CACHE_DIR=cache_dir``."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir, SPYGLASS_TOY_DIR=cache_dir + "-toy")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    done = subprocess.run([sys.executable, __file__, "--child", game_name], env=env,
                          capture_output=True, text=True, check=False)
    if done.returncode:
        sys.exit(f"{game_name}: the measuring process failed:\n{done.stderr[-4000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("game")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--warm", action="store_true", help="also a second run on the cache")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--limit", type=float, default=60.0)
    ap.add_argument("--only", action="append", default=[],
                    help="with --child (e.g. under py-spy): rules and this step only")
    args = ap.parse_args()
    if args.child:
        child(args.game, args.only)
        return
    with tempfile.TemporaryDirectory(prefix="spyglass-cold-") as cache:
        if args.game == "toy":
            Path(cache + "-toy").mkdir()
            toy_package(Path(cache + "-toy"))
        cold = measure(args.game, cache)
        warm = measure(args.game, cache) if args.warm else None
        shutil.rmtree(cache + "-toy", ignore_errors=True)
    result = {"game": args.game, "cold": cold, "cold_total": sum(cold.values())}
    if warm is not None:
        result.update(warm=warm, warm_total=sum(warm.values()))
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(f"{args.game}: CPU seconds, fresh process, empty NUMBA_CACHE_DIR")
        print(f"{'step':<26}{'cold':>8}" + (f"{'warm':>8}" if warm else ""))
        for label, sec in cold.items():
            print(f"{label:<26}{sec:8.1f}" + (f"{warm[label]:8.1f}" if warm else ""))
        print(f"{'total':<26}{result['cold_total']:8.1f}"
              + (f"{result['warm_total']:8.1f}" if warm else ""))
    sys.exit(0 if result["cold_total"] < args.limit else 1)


if __name__ == "__main__":
    main()
