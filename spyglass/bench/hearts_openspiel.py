"""Our SO-ISMCTS beside OpenSpiel's C++ ``ISMCTSBot`` on Hearts, in one run.

Speed: iterations per second at the same decisions (seat 0's first pass of a deal and
the first choice of its first trick, see :func:`spyglass.bench.hearts.decision_states`)
at 20,000 iterations each, alternating the two programs so that both see the same
machine load. OpenSpiel's side is ``pyspiel.ISMCTSBot(seed, RandomRolloutEvaluator(1,
seed), c, 20000, max_world_samples=-1, NORMALIZED_VISIT_COUNT)`` playing ``hearts`` with
its defaults, fed the same deal as chance moves; ours is ``soismcts`` on the same deal
with the points reward (OpenSpiel's return ``26 - points``, scaled), so both optimise
the same thing.

Strength (the head-to-head, both conditions in one resumable run) is
:mod:`spyglass.bench.hearts_vs_openspiel`, which uses this module's OpenSpiel helpers.

Run: ``python -m spyglass.bench.hearts_openspiel [--iterations 20000] [--repeats 3]``.
Needs ``pip install open_spiel``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from spyglass.agents import registry
from spyglass.bench.hearts import decision_states
from spyglass.games.hearts import kernel as K
from spyglass.games.hearts.game import Hearts


def _pyspiel():
    try:
        import pyspiel
    except ImportError:
        sys.exit("OpenSpiel is not installed: pip install open_spiel")
    return pyspiel


def os_state_like(pyspiel, os_game, game: Hearts, seed: int, moves: list[int]):
    """OpenSpiel's state for our deal ``seed`` after ``moves``."""
    s = game.new_state(seed)
    st = os_game.new_initial_state()
    st.apply_action(int(s[K.PASS_DIR]))
    hands = [[c for c in range(52) if (int(s[K.HAND + p]) >> c) & 1] for p in range(4)]
    for i in range(52):
        st.apply_action(hands[i % 4][i // 4])
    for a in moves:
        st.apply_action(a)
    return st


def moves_to(game: Hearts, seed: int, target: np.ndarray) -> list[int]:
    """The moves (lowest legal card each) from deal ``seed`` to state ``target``."""
    s = game.new_state(seed)
    out = []
    while not np.array_equal(s, target):
        a = game.legal_actions(s)[0]
        out.append(a)
        game.kernel.apply(s, a)
    return out


_KEEP: list = []


def os_bot(pyspiel, iterations: int, seed: int, c: float, seconds: float = -1.0):
    """OpenSpiel's ISMCTSBot with a random-rollout evaluator. The evaluator is kept
    alive here for the whole run, as a precaution: the bot refers to it."""
    ev = pyspiel.RandomRolloutEvaluator(1, seed)
    _KEEP.append(ev)
    return pyspiel.ISMCTSBot(seed, ev, c, iterations, -1,
                             pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT,
                             False, False, seconds)


def speed(iterations: int, repeats: int, c: float) -> dict:
    pyspiel = _pyspiel()
    os_game = pyspiel.load_game("hearts")
    game = Hearts(target=0, pass_direction="left", reward="points")
    out = {}
    for where, state in decision_states(game, 0).items():
        moves = moves_to(game, 0, state)
        seat = int(game.kernel.actor(state))
        view = game.view(state, seat)
        legal = game.legal_actions(state)
        ours, theirs = [], []
        for r in range(repeats + 1):
            agent = registry.make("soismcts", iterations=iterations, c=c)
            agent.start(game, seat, view, r)
            t0 = time.perf_counter()
            agent.act(view, legal)
            t_ours = time.perf_counter() - t0
            st = os_state_like(pyspiel, os_game, game, 0, moves)
            assert list(st.legal_actions()) == legal
            bot = os_bot(pyspiel, iterations, r, c)
            t0 = time.perf_counter()
            bot.step(st)
            t_os = time.perf_counter() - t0
            if r:  # the first round compiles ours
                ours.append(iterations / t_ours)
                theirs.append(iterations / t_os)
        out[where] = {"spyglass_soismcts_it_per_s": max(ours),
                      "openspiel_ismctsbot_it_per_s": max(theirs),
                      "ratio_best": max(ours) / max(theirs),
                      "ratio_median": float(np.median(ours) / np.median(theirs)),
                      "legal_moves": len(legal)}
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iterations", type=int, default=20_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--c", type=float, default=0.7)
    args = ap.parse_args(argv)
    print(json.dumps({"speed": speed(args.iterations, args.repeats, args.c)}, indent=2))


if __name__ == "__main__":
    main()
