"""Our SO-ISMCTS beside OpenSpiel's C++ ``ISMCTSBot`` on Hearts, in one run.

Speed: iterations per second at the same decisions (seat 0's first pass of a deal and
the first choice of its first trick, see :func:`spyglass.bench.hearts.decision_states`)
at 20,000 iterations each, alternating the two programs so that both see the same
machine load. OpenSpiel's side is ``pyspiel.ISMCTSBot(seed, RandomRolloutEvaluator(1,
seed), c, 20000, max_world_samples=-1, NORMALIZED_VISIT_COUNT)`` playing ``hearts`` with
its defaults, fed the same deal as chance moves; ours is ``soismcts`` on the same deal
with the points reward (OpenSpiel's return ``26 - points``, scaled), so both optimise
the same thing.

Strength (``--games N``): single deals without passing (OpenSpiel's bot crashes in the
passing phase, see :func:`head_to_head`), two seats each (seats 0 and 2 vs 1 and 3,
then swapped, on the same deal), at equal iterations per move (or ``--game-seconds``
equal time); reported as the mean points per seat of each side and the share of games
in which one of the side's seats placed first or equal first.

Run: ``python -m spyglass.bench.hearts_openspiel [--iterations 20000] [--repeats 3]
[--games 0] [--game-iterations 1000]``. Needs ``pip install open_spiel``.
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


def head_to_head(n_deals: int, iterations: int, c: float, seed: int = 1,
                 seconds: float | None = None) -> dict:
    """Deals with our SO-ISMCTS in two seats and OpenSpiel's bot in the other two,
    each deal played twice with the seats swapped. ``seconds``: equal time per move
    instead of equal iterations.

    The deals are played without passing: OpenSpiel 2.0.2's ISMCTSBot crashes
    (segmentation fault in ``HeartsState::ResampleFromInfostate``) at a pass decision
    once another player has passed, so it cannot play the passing phase."""
    pyspiel = _pyspiel()
    os_game = pyspiel.load_game("hearts")
    games = {"none": Hearts(target=0, pass_direction="none", reward="points")}
    points = {"spyglass": [], "openspiel": []}
    first = {"spyglass": 0.0, "openspiel": 0.0}
    times = {"spyglass": 0.0, "openspiel": 0.0}
    for i in range(n_deals):
        game = games["none"]
        for swap in (0, 1):
            ours = {(0 + swap) % 4, (2 + swap) % 4}
            s = game.new_state(seed + i)
            st = os_state_like(pyspiel, os_game, game, seed + i, [])
            agents = {}
            for p in ours:
                a = (registry.make("soismcts", seconds=seconds, c=c) if seconds else
                     registry.make("soismcts", iterations=iterations, c=c))
                a.start(game, p, game.view(s, p), seed * 1000 + i * 4 + p)
                agents[p] = a
            bots = {p: os_bot(pyspiel, 10**9 if seconds else iterations,
                              seed * 1000 + i * 4 + p, c, seconds or -1.0)
                    for p in range(4) if p not in ours}
            while not game.kernel.is_terminal(s):
                p = int(game.kernel.actor(s))
                legal = game.legal_actions(s)
                t0 = time.perf_counter()
                if p in ours:
                    a = agents[p].act(game.view(s, p), legal) if len(legal) > 1 else legal[0]
                    times["spyglass"] += time.perf_counter() - t0
                else:
                    a = bots[p].step(st) if len(legal) > 1 else legal[0]
                    times["openspiel"] += time.perf_counter() - t0
                obs = [int(game.kernel.observe(s, a, j)) for j in range(4)]
                game.kernel.apply(s, a)
                st.apply_action(a)
                for j in ours:
                    agents[j].observe(obs[j], p, game.view(s, j))
            sc = game.scores(s)
            best = min(sc)
            for side, seats in (("spyglass", ours), ("openspiel", set(range(4)) - ours)):
                points[side] += [sc[p] for p in seats]
                first[side] += any(sc[p] == best for p in seats)
    n = 2 * n_deals
    return {side: {"mean_points": float(np.mean(points[side])),
                   "points_ci95": 1.96 * float(np.std(points[side]) / np.sqrt(len(points[side]))),
                   "deals_with_a_first_place": first[side] / n,
                   "seconds_thinking": times[side]} for side in points} | {"deals": n}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--iterations", type=int, default=20_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--c", type=float, default=0.7)
    ap.add_argument("--games", type=int, default=0, help="head-to-head deals (x2 seatings)")
    ap.add_argument("--game-iterations", type=int, default=1000)
    ap.add_argument("--game-seconds", type=float, default=None,
                    help="equal time per move in the head-to-head instead")
    ap.add_argument("--no-speed", action="store_true")
    ap.add_argument("--seed", type=int, default=1, help="first deal of the head-to-head")
    args = ap.parse_args(argv)
    out = {} if args.no_speed else {"speed": speed(args.iterations, args.repeats, args.c)}
    if args.games:
        out["head_to_head"] = head_to_head(args.games, args.game_iterations, args.c,
                                           seed=args.seed, seconds=args.game_seconds)
        out["head_to_head"]["budget"] = (f"{args.game_seconds} s per move"
                                         if args.game_seconds else
                                         f"{args.game_iterations} iterations per move")
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
