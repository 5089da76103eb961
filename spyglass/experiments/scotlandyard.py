"""Whitehouse 2014, §7.5.5 and Fig. 7.7: inference and self-determinization on Scotland
Yard, as paired cells (:mod:`spyglass.experiments.cells`).

"The experimental conditions are as in Section 7.5.1, with the exception that the 'spy'
player algorithms are now applied to Mr X, the 'non-spy' algorithms to the player
controlling the seekers, and the initial conditions (the starting locations of Mr X and
the seekers) are chosen randomly for each game." So, from §7.5.1: two seats (Mr X; one
player for all five detectives, §4.2.12), ten cells, 1,000 games each:

* seekers: MT-ISMCTS at ``K`` = 20,000 iterations, with particle-filter inference
  (``mtismcts_pf``, its default ``model=search``) or without (``model=none``: each
  decision's determinizations drawn afresh from the seekers' view, uniform over the
  stations Mr X may be on), never self-determinizing;
* Mr X: TRUEONLY at ``K`` iterations, or PURE, SPLIT, TWOSTEP or BLUFF at ``2K`` (the
  last three half on self-determinizations, half on true determinizations: ``t1=0.5``).

Game ``i`` of every cell has the same start stations (drawn from the start cards by the
game's seed) and the same seats' seeds, so the cells are paired by game. Mr X as
TRUEONLY is ``model=none``: he sees everything, so his belief is the true state whatever
the model, and the opponent model would only cost time.

Commands::

    spyglass experiment scotlandyard run --games 60 --iterations 1000 --seed 77 \\
        --cells noinf-trueonly,inf-trueonly,inf-pure,inf-split,inf-twostep,inf-bluff \\
        --out docs/figures/sy_fig77_k1000.jsonl
    spyglass experiment scotlandyard table docs/figures/sy_fig77_k1000.jsonl

Fig. 7.8-style belief plots of the ``inf-trueonly`` games: ``spyglass experiment
scotlandyard-beliefs`` (:mod:`spyglass.experiments.scotlandyard_beliefs`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from spyglass.experiments.cells import Cell, Design, cell
from spyglass.experiments.cells import main as cells_main
from spyglass.search.selfdet import VARIANTS

MRX, SEEKERS = 0, 1
#: The seekers with and without inference (§7.5.1's two non-spy players).
SEEKER_MODELS = {"noinf": "none", "inf": "search"}


def mrx_spec(variant: str, k: int) -> str:
    """Mr X's agent: TRUEONLY at ``k`` iterations, a self-determinizing variant at 2k."""
    if variant == "trueonly":
        return f"mtismcts_pf:iterations={k},model=none"
    return f"mtismcts_pf:iterations={2 * k},bluff={variant}"


def seekers_spec(kind: str, k: int) -> str:
    """The seekers' agent at ``k`` iterations, with (``inf``) or without inference."""
    model = SEEKER_MODELS[kind]
    return f"mtismcts_pf:iterations={k}" + ("" if model == "search" else f",model={model}")


def fig77_cells(k: int) -> list[Cell]:
    """Fig. 7.7's ten bars: each Mr X variant against each kind of seekers."""
    return [cell(f"{kind}-{v}", "scotlandyard", (mrx_spec(v, k), seekers_spec(kind, k)))
            for kind in SEEKER_MODELS for v in VARIANTS]


#: The paired comparisons of §7.5.5's text (a minus b, the player in ``seat``).
COMPARISONS = (
    ("inference: seekers' wins with minus without (Mr X TRUEONLY)", "inf-trueonly",
     "noinf-trueonly", SEEKERS),
    *((f"{v.upper()} over TRUEONLY: Mr X's wins against inference", f"inf-{v}",
       "inf-trueonly", MRX) for v in VARIANTS[1:]),
    *((f"{v.upper()} over TRUEONLY: Mr X's wins without inference", f"noinf-{v}",
       "noinf-trueonly", MRX) for v in VARIANTS[1:]),
)

DESIGN = Design("fig77", fig77_cells, games=1000, iterations=20_000,
                seats={MRX: "Mr X", SEEKERS: "seekers"}, comparisons=COMPARISONS)


def main(argv: Sequence[str] | None = None) -> int:
    return cells_main(DESIGN, argv, "spyglass experiment scotlandyard",
                      __doc__.split("\n\n")[0])


if __name__ == "__main__":
    sys.exit(main())
