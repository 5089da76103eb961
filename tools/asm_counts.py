"""Static counts of a game's compiled search entry points: instructions, calls, NRT sites.

Issue 26 merges copied loops into one loop per family; a merge that adds calls or
reference-count traffic shows here before it shows in a timing. Run it in each tree
with an empty numba cache so the entry points are compiled afresh (``inspect_asm`` needs
a compiled, not a cache-loaded, library):

    NUMBA_CACHE_DIR=$(mktemp -d) PYTHONPATH=. python tools/asm_counts.py resistance \
        run_so run_pom run_so_icarus

Each entry point is compiled by one small search of the first decision of
``new_state(0)``; the counts are of its ``inspect_asm()`` text: instruction lines,
``call`` instructions (and how many are indirect) and occurrences of ``NRT_incref`` and
``NRT_decref``.
"""

from __future__ import annotations

import argparse
import importlib
import re

#: The agent spec that compiles each entry point, and its module.
SPECS = {"run_so": ("soismcts:iterations=50", "search_entry"),
         "run_pom": ("soismcts_pom:iterations=50", "search_entry"),
         "run_mo": ("moismcts:iterations=50", "search_entry"),
         "run_so_icarus": ("soismcts:iterations=50,enhance=rave", "icarus_entry"),
         "run_mo_icarus": ("moismcts:iterations=50,enhance=rave", "icarus_entry")}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("entry", nargs="+", choices=sorted(SPECS))
    args = ap.parse_args()
    from spyglass.arena.agent_spec import parse_agent
    from spyglass.games import registry

    g = registry.make(args.game)
    s = g.new_state(0)
    while len(g.legal_actions(s)) < 2:
        g.kernel.apply(s, g.legal_actions(s)[0])
    seat = int(g.kernel.actor(s))
    for name in args.entry:
        spec, module = SPECS[name]
        agent = parse_agent(spec).factory()
        seen = g.view(s, seat)
        agent.start(g, seat, seen, 0)
        agent.act(seen, g.legal_actions(s))
        fn = getattr(importlib.import_module(f"spyglass.games.{args.game}.{module}"), name)
        for asm in fn.inspect_asm().values():
            lines = [ln for ln in asm.splitlines()
                     if ln.startswith("\t") and not ln.startswith("\t.")]
            calls = [ln for ln in lines if re.match(r"\tcall", ln)]
            indirect = sum("*" in ln for ln in calls)
            print(f"{args.game} {name}: {len(lines):,} instructions, {len(calls)} calls "
                  f"({indirect} indirect), NRT_incref {asm.count('NRT_incref')}, "
                  f"NRT_decref {asm.count('NRT_decref')}")


if __name__ == "__main__":
    main()
