"""Whitehouse 2014, §7.5.5: particle-filter inference on Saboteur, as paired cells
(:mod:`spyglass.experiments.cells`).

"An ISMCTS player using inference was tested against four players not using inference.
The inference player's seat was randomised as were the identities of the saboteurs, so
an evenly matched player would have an expected win rate of 50%. Over 1000 trials, the
inference player achieved a win rate of 54.9% (±3.2% at 95% confidence)." Here, five
players of one round (:mod:`spyglass.games.saboteur`), MT-ISMCTS at ``K`` = 20,000
iterations (§7.5.1's budget; §7.5.5 does not restate it):

* ``inference``: one ``mtismcts_pf`` player (particle-filter inference over the roles,
  ``model=search``) and four without inference (``model=none``);
* ``control``: the same five seats, all without inference;
* ``cardcheat``: one ``mtismcts_cardcheat`` player ("ISMCTS players which 'cheat' (have
  access to all hidden information except the other players' roles)", §7.5.5: it sees
  every hand, the stock, the discards and the goal cards, not the roles) and the same
  four without inference. The thesis found "no significant advantage" for it.

The cells rotate their seats by the same per-game shift (the tested player, the cell's
seat 0, sits in a random seat, the same in every cell), and the deal (roles, goal cards,
the stock) is the game's seed: game ``i`` of every cell is the same deal with the
tested player in the same seat, so the inference player's (or the card cheater's) wins
are compared with a player without inference on the same deals (paired), not with an
assumed 50%: a seat's chance of winning depends on its role and on how often each team
wins, so an evenly matched player's rate need not be 50%. The table gives both.

Departure (docs/saboteur.md): the thesis builds two trees per player (as digger, as
saboteur); ``mtismcts_pf`` keeps one tree per root information set of each player.

Commands::

    spyglass experiment saboteur run --cells inference,control --games 80 \\
        --iterations 500 --seed 55 \\
        --out docs/figures/saboteur_755_k500.jsonl
    spyglass experiment saboteur table docs/figures/saboteur_755_k500.jsonl
    spyglass experiment saboteur run --cells cardcheat,control --games 80 \\
        --iterations 500 --seed 56 --out docs/figures/saboteur_cardcheat_k500.jsonl
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from spyglass.experiments.cells import Cell, Design, cell
from spyglass.experiments.cells import main as cells_main

PLAYERS = 5
TESTED = 0  # the cell's seat of the tested player (rotated into a random game seat)


def inference_spec(k: int) -> str:
    return f"mtismcts_pf:iterations={k}"


def plain_spec(k: int) -> str:
    return f"mtismcts_pf:iterations={k},model=none"


def cardcheat_spec(k: int) -> str:
    return f"mtismcts_cardcheat:iterations={k}"


def sab_cells(k: int) -> list[Cell]:
    """The inference player against four without, the all-without control, and the
    card cheater against the same four."""
    others = [plain_spec(k)] * (PLAYERS - 1)
    return [cell("inference", "saboteur", [inference_spec(k), *others], rotate=True),
            cell("control", "saboteur", [plain_spec(k), *others], rotate=True),
            cell("cardcheat", "saboteur", [cardcheat_spec(k), *others], rotate=True)]


COMPARISONS = (("inference: the tested seat's wins with minus without inference",
                "inference", "control", TESTED),
               ("cards: the tested seat's wins seeing every card (not the roles) minus not",
                "cardcheat", "control", TESTED))

DESIGN = Design("sab755", sab_cells, games=1000, iterations=20_000,
                seats={TESTED: "tested player"}, comparisons=COMPARISONS)


def main(argv: Sequence[str] | None = None) -> int:
    return cells_main(DESIGN, argv, "spyglass experiment saboteur",
                      __doc__.split("\n\n")[0])


if __name__ == "__main__":
    sys.exit(main())
