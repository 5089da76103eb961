"""Cheating minimax, determinized minimax and information-set expectimax in Mini Dou Di
Zhu, exactly over every deal (Whitehouse 2014, §5.1.2, Figs 5.6-5.7).

The thesis's agents, all deterministic, so one game per deal and matchup is exact; a
matchup's value is player 1's win probability, the sum of the probabilities (under
shuffling) of the 8,832 deals it wins (:func:`minidoudizhu_exact.deals`):

* **cheating minimax** sees both hands and plays by the tie-broken value
  ``m_eps(s) = max_a -m_eps(f(s, a)) + eps * mean_a -m_eps(f(s, a))`` (the thesis's
  formula; ``eps`` = 1e-3): among equally winning or losing moves, the one that leaves
  the opponent more chances to go wrong. (The hidden cards never affect play, so they
  are not part of its state.)
* **determinized minimax** solves every state of its information set (at most 66 hands
  for the opponent) with that minimax and plays the move with the largest total
  probability of the states in which minimax chose it (weighted majority vote).
* **information-set expectimax** searches the tree of its own information sets: the
  value of an opponent node is the expectation over the states of the information set
  of the opponent's best reply *in that state*, valued by the information set the reply
  leads to (the thesis's equation; the opponent is assumed to see the state).
* **with inference**: the determinized player removes from its information set every
  opponent hand in which a model of the opponent (deterministic) would not have made
  the moves it saw; "correct" when the model is the opponent's actual algorithm,
  "incorrect" when it is another (expectimax for a minimax opponent, determinized minimax
  for an expectimax one). If no hand is left (only possible with a wrong model) it falls
  back to the hands without inference. Expectimax with inference is not played: the
  thesis found it within 0.2 % of expectimax without and left it out of Fig 5.7.

Probabilities of states are those of the game's sampler: the opponent's hand is a
uniform draw of the physical cards the player has not seen, so a hand ``h`` out of the
unseen counts ``U`` has weight ``prod_r C(U_r, h_r)``. Ties between moves go to the
lowest action id. The game is the compiled kernel's (its rules are re-stated here in
Python for memoisation; a test checks both agree move by move).

The thesis gives Fig 5.7 as a plot (its numbers are not in the text) and says: the win
rate of cheating minimax is about 40 % above determinized minimax's (depending on the
opponent); inference adds about 10 % to determinized minimax (23 % with the correct
model) but leaves it below expectimax without inference; expectimax is about 30 % above
determinized minimax and about 10 % below cheating minimax.

Run: ``spyglass experiment minidoudizhu-fig57`` (all 15 matchups, every deal).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path

from spyglass.experiments.minidoudizhu_exact import deals as all_deals
from spyglass.experiments.outputs import write_result

LIMITS = (4, 4, 4, 4, 1, 1)
N_RANKS = 6
PASS = 24
EPS = 1e-3
Hand = tuple[int, ...]

PLAYER1 = ("cheating minimax", "determinized minimax", "determinized minimax + inference "
           "(incorrect model)", "determinized minimax + inference (correct model)",
           "expectimax")
PLAYER2 = ("cheating minimax", "determinized minimax", "expectimax")
_ALG = {"cheating minimax": "cheat", "determinized minimax": "det", "expectimax": "exp"}
_INCORRECT = {"cheat": "exp", "det": "exp", "exp": "det"}


# --- rules ----------------------------------------------------------------------------------
def legal(hand: Hand, ls: int, lr: int) -> list[int]:
    """Legal action ids in increasing order (play ``(size - 1) * 6 + rank``, or ``PASS``)."""
    out = []
    for size in range(1, 5):
        if ls and size != ls:
            continue
        for r in range(N_RANKS):
            if hand[r] >= size and (ls == 0 or r > lr):
                out.append((size - 1) * N_RANKS + r)
    if ls:
        out.append(PASS)
    return out


def remove(hand: Hand, a: int) -> Hand:
    size, r = a // N_RANKS + 1, a % N_RANKS
    return hand[:r] + (hand[r] - size,) + hand[r + 1:]


def add(hand: Hand, a: int) -> Hand:
    size, r = a // N_RANKS + 1, a % N_RANKS
    return hand[:r] + (hand[r] + size,) + hand[r + 1:]


def after(a: int) -> tuple[int, int]:
    """The play to answer after ``a`` (``(0, 0)``: the next player leads)."""
    return (0, 0) if a == PASS else (a // N_RANKS + 1, a % N_RANKS)


@cache
def subhands(pool: Hand, n: int) -> tuple[tuple[Hand, int], ...]:
    """Every hand of ``n`` cards out of ``pool`` (counts), with its number of physical
    draws ``prod C(pool_r, h_r)``."""
    out: list[tuple[Hand, int]] = []

    def rec(i: int, left: int, cur: tuple[int, ...], ways: int) -> None:
        if i == N_RANKS:
            if left == 0:
                out.append((cur, ways))
            return
        for k in range(min(left, pool[i]) + 1):
            rec(i + 1, left - k, cur + (k,), ways * math.comb(pool[i], k))

    rec(0, n, (), 1)
    return tuple(out)


def _minus(a: Hand, b: Hand) -> Hand:
    return tuple(x - y for x, y in zip(a, b, strict=True))


def _argmax(values: dict[int, float]) -> int:
    best = max(values.values())
    return min(a for a, v in values.items() if v >= best - 1e-12)


# --- cheating minimax -----------------------------------------------------------------------
@cache
def cheat_values(mover: Hand, other: Hand, ls: int, lr: int) -> tuple[tuple[int, float], ...]:
    """``(a, -m_eps(f(s, a)))`` for each legal move of the player to move."""
    out = []
    for a in legal(mover, ls, lr):
        if a == PASS:
            out.append((a, -m_eps(other, mover, 0, 0)))
            continue
        left = remove(mover, a)
        if not any(left):
            out.append((a, 1.0))
        else:
            out.append((a, -m_eps(other, left, *after(a))))
    return tuple(out)


@cache
def m_eps(mover: Hand, other: Hand, ls: int, lr: int) -> float:
    """The tie-broken minimax value for the player to move."""
    vals = [v for _, v in cheat_values(mover, other, ls, lr)]
    return max(vals) + EPS * sum(vals) / len(vals)


def cheat_choice(mover: Hand, other: Hand, ls: int, lr: int) -> int:
    return _argmax(dict(cheat_values(mover, other, ls, lr)))


# --- determinized minimax -------------------------------------------------------------------
def vote(own: Hand, hands: list[tuple[Hand, int]], ls: int, lr: int) -> int:
    """Weighted majority vote of minimax over the opponent ``hands`` (with weights)."""
    votes: dict[int, float] = {}
    for h, w in hands:
        a = cheat_choice(own, h, ls, lr)
        votes[a] = votes.get(a, 0.0) + w
    return _argmax(votes)


@cache
def det_choice(own: Hand, pool: Hand, n: int, ls: int, lr: int) -> int:
    """Determinized minimax without inference (``pool``: unseen cards, ``n``: the
    opponent's hand size)."""
    return vote(own, list(subhands(pool, n)), ls, lr)


# --- information-set expectimax -------------------------------------------------------------
@cache
def my_values(own: Hand, pool: Hand, n: int, ls: int, lr: int) -> tuple[tuple[int, float], ...]:
    """The expectimax value of each of my moves (my turn)."""
    out = []
    for a in legal(own, ls, lr):
        if a == PASS:
            out.append((a, ev_opp(own, pool, n, 0, 0)))
            continue
        left = remove(own, a)
        out.append((a, 1.0 if not any(left) else ev_opp(left, pool, n, *after(a))))
    return tuple(out)


@cache
def ev_opp(own: Hand, pool: Hand, n: int, ls: int, lr: int) -> float:
    """Expectimax value of an opponent node: over its possible hands, its best reply."""
    reply: dict[int, float] = {}
    total = 0.0
    value = 0.0
    for h, w in subhands(pool, n):
        best = math.inf
        for a in legal(h, ls, lr):
            v = reply.get(a)
            if v is None:
                if a == PASS:
                    v = max(x for _, x in my_values(own, pool, n, 0, 0))
                else:
                    size = a // N_RANKS + 1
                    v = -1.0 if size == n else max(
                        x for _, x in my_values(own, remove(pool, a), n - size, *after(a)))
                reply[a] = v
            best = min(best, v)
        value += w * best
        total += w
    return value / total


def exp_choice(own: Hand, pool: Hand, n: int, ls: int, lr: int) -> int:
    return _argmax(dict(my_values(own, pool, n, ls, lr)))


# --- players --------------------------------------------------------------------------------
def choose(alg: str, own: Hand, opp: Hand, played: Hand, ls: int, lr: int) -> int:
    """What ``alg`` plays with hand ``own`` (``opp``, the opponent's hand, only for the
    cheating player; ``played``: every card played so far, by both)."""
    if alg == "cheat":
        return cheat_choice(own, opp, ls, lr)
    pool = _minus(_minus(LIMITS, own), played)
    n = sum(opp)
    if alg == "det":
        return det_choice(own, pool, n, ls, lr)
    if alg == "exp":
        return exp_choice(own, pool, n, ls, lr)
    raise ValueError(f"unknown algorithm {alg!r}")


class Inferring:
    """Determinized minimax that keeps only the opponent hands consistent with ``model``."""

    def __init__(self, own: Hand, model: str) -> None:
        self.model = model
        self.initial = [h for h, _ in subhands(_minus(LIMITS, own), sum(own))]
        self.alive = self.initial  # the opponent's possible initial hands
        self.opp_played: Hand = (0,) * N_RANKS
        self.fallbacks = 0

    def observe(self, a: int, my_hand: Hand, played: Hand, ls: int, lr: int) -> None:
        """The opponent played ``a`` from the position (``played``, ``ls``, ``lr``)."""
        legal_ok = []
        for c in self.alive:
            cur = _minus(c, self.opp_played)
            if a != PASS and cur[a % N_RANKS] < a // N_RANKS + 1:
                continue
            legal_ok.append((c, cur))
        kept = [c for c, cur in legal_ok
                if choose(self.model, cur, my_hand, played, ls, lr) == a]
        if a != PASS:
            self.opp_played = add(self.opp_played, a)
        if not kept:
            # The model was wrong about this move (or an earlier one): back to every hand
            # that could have made the plays seen (holding their cards is all it takes).
            self.fallbacks += 1
            kept = [c for c in self.initial
                    if all(x >= y for x, y in zip(c, self.opp_played, strict=True))]
        self.alive = kept

    def act(self, own: Hand, played: Hand, ls: int, lr: int) -> int:
        pool = _minus(_minus(LIMITS, own), played)
        hands = []
        for c in self.alive:
            h = _minus(c, self.opp_played)
            hands.append((h, math.prod(math.comb(p, k) for p, k in zip(pool, h, strict=True))))
        return vote(own, hands, ls, lr)


def play(p1: str, p2: str, h0: Hand, h1: Hand) -> tuple[int, int]:
    """One game of player 1 (``PLAYER1`` name) against player 2 (``PLAYER2`` name) from
    the deal ``h0``, ``h1``: the winner (0 or 1) and the inferring player's fallbacks."""
    hands = [h0, h1]
    played: Hand = (0,) * N_RANKS
    ls = lr = 0
    p = 0
    inferring = None
    if "inference" in p1:
        model = _ALG[p2] if "correct model" in p1 and "incorrect" not in p1 \
            else _INCORRECT[_ALG[p2]]
        inferring = Inferring(h0, model)
    algs = ("inf" if inferring else _ALG[p1], _ALG[p2])
    while True:
        own, opp = hands[p], hands[1 - p]
        if algs[p] == "inf":
            a = inferring.act(own, played, ls, lr)
        else:
            a = choose(algs[p], own, opp, played, ls, lr)
        if a not in legal(own, ls, lr):
            raise RuntimeError(f"{algs[p]} chose an illegal move {a}")
        if p == 1 and inferring is not None:
            inferring.observe(a, hands[0], played, ls, lr)
        if a != PASS:
            hands[p] = remove(own, a)
            played = add(played, a)
            if not any(hands[p]):
                return p, (inferring.fallbacks if inferring else 0)
        ls, lr = after(a)
        p = 1 - p


def matchups(p1s: tuple[str, ...] = PLAYER1, p2s: tuple[str, ...] = PLAYER2
             ) -> Iterator[tuple[str, str]]:
    for b in p2s:
        for a in p1s:
            yield a, b


def run(p1s: tuple[str, ...] = PLAYER1, p2s: tuple[str, ...] = PLAYER2,
        limit: int | None = None, on_matchup: Callable[[dict], None] | None = None) -> dict:
    """Player 1's exact win probability in each matchup over every deal (or the first
    ``limit`` deals, for tests: then the probability is renormalised over them);
    ``on_matchup`` sees the partial result after each matchup."""
    deals = all_deals()
    if limit is not None:
        deals = deals[:limit]
    mass = sum(p for _, _, p in deals)
    out: dict = {"deals": len(deals), "eps": EPS, "matchups": []}
    for a, b in matchups(p1s, p2s):
        value = 0.0
        won = 0
        fallbacks = 0
        for h0, h1, prob in deals:
            w, f = play(a, b, h0, h1)
            value += prob * (w == 0)
            won += w == 0
            fallbacks += f > 0
        out["matchups"].append({"player1": a, "player2": b, "p1_win": value / mass,
                                "deals_won": won, "deals_with_fallback": fallbacks})
        print(f"{a} vs {b}: {100 * value / mass:.2f} %", file=sys.stderr, flush=True)
        if on_matchup is not None:
            on_matchup(out)
    return out


def plot(result: dict, path: Path) -> None:
    """Fig 5.7's layout: a group of bars per player 2, a bar per player 1."""
    import numpy as np
    from matplotlib.figure import Figure

    rows = result["matchups"]
    p2s = list(dict.fromkeys(r["player2"] for r in rows))
    p1s = list(dict.fromkeys(r["player1"] for r in rows))
    val = {(r["player1"], r["player2"]): r["p1_win"] for r in rows}
    fig = Figure(figsize=(10, 4))
    ax = fig.subplots()
    x = np.arange(len(p2s))
    width = 0.8 / len(p1s)
    for k, a in enumerate(p1s):
        ax.bar(x - 0.4 + width * (k + 0.5), [val.get((a, b), np.nan) for b in p2s], width,
               label=a)
    ax.set_xticks(x, [f"player 2: {b}" for b in p2s])
    ax.set_ylabel("player 1 win probability (exact)")
    ax.set_ylim(0, 1.22)  # room for the legend above the bars
    ax.set_yticks(np.linspace(0, 1, 6))
    ax.set_title(f"Mini Dou Di Zhu, all {result['deals']} deals weighted (Whitehouse 2014 "
                 "Fig 5.7)", fontsize=9)
    ax.legend(fontsize=7, loc="upper center", ncol=3)
    fig.tight_layout()
    fig.savefig(path)


def write(result: dict, out: Path) -> list[Path]:
    """``OUT.json`` and ``OUT.png``."""
    return write_result(result, out, plot)


def main(argv: list[str] | None = None) -> None:
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=Path("docs/figures/minidoudizhu_fig57"))
    ap.add_argument("--limit", type=int, default=None, help="only the first N deals")
    args = ap.parse_args(argv)
    partial = args.out.with_suffix(".partial.json")
    partial.parent.mkdir(parents=True, exist_ok=True)
    res = run(limit=args.limit,
              on_matchup=lambda r: partial.write_text(json.dumps(r, indent=1) + "\n"))
    partial.unlink()
    write(res, args.out)
    print(json.dumps(res, indent=1))


if __name__ == "__main__":
    main()
