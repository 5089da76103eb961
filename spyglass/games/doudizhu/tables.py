"""Dou Di Zhu's action ids as tables: what each id is (category, ranks, kickers).

Built once at import in plain Python and read by the compiled kernel as constant
arrays. The ids (``N_ACTIONS`` in all) are laid out category by category:

============  =====  ==========================================================
category      ids    a base move of ...
============  =====  ==========================================================
SOLO          15     one card of rank r (3 .. 2, black joker, red joker)
PAIR          13     two of rank r (3 .. 2)
TRIO          13     three of rank r, no kicker
BOMB          13     four of rank r
ROCKET        1      both jokers (the "nuke")
SOLO_CHAIN    36     5 .. 12 consecutive single ranks within 3 .. A
PAIR_CHAIN    52     3 .. 10 consecutive pairs within 3 .. A
PLANE         45     2 .. 6 consecutive trios within 3 .. A, no kickers
TRIO_SOLO     13     a trio, one solo kicker to follow
TRIO_PAIR     13     a trio, one pair kicker to follow
PLANE_SOLO    38     2 .. 5 consecutive trios, as many solo kickers to follow
PLANE_PAIR    30     2 .. 4 consecutive trios, as many pair kickers to follow
QUAD_SOLO     13     four of a kind, two solo kickers to follow (thesis "quadplex")
QUAD_PAIR     13     four of a kind, two pair kickers to follow
KICK_SOLO     15     a solo kicker of rank r (only while kickers are due)
KICK_PAIR     13     a pair kicker of rank r (only while kickers are due)
PASS          1      pass (in play and in the auction)
BID           3      bid 1, 2, 3 (the auction)
============  =====  ==========================================================

Chains are numbered by length, then by their lowest rank (``head``); the longest
chains are bounded by the ranks (3 .. A) and by the 20 cards of the largest hand.
"""

from __future__ import annotations

import numpy as np

N_RANKS = 15
BLACK_JOKER, RED_JOKER = 13, 14
TWO = 12
RANK_CHARS = "3456789TJQKA2BR"
LIMIT = np.array([4] * 13 + [1, 1], dtype=np.int64)

(SOLO, PAIR, TRIO, BOMB, ROCKET, SOLO_CHAIN, PAIR_CHAIN, PLANE, TRIO_SOLO, TRIO_PAIR,
 PLANE_SOLO, PLANE_PAIR, QUAD_SOLO, QUAD_PAIR, KICK_SOLO, KICK_PAIR, PASS_CAT, BID_CAT) = range(18)
N_CATS = 18
CAT_NAMES = ("solo", "pair", "trio", "bomb", "rocket", "solo chain", "pair chain", "airplane",
             "trio + solo", "trio + pair", "airplane + solos", "airplane + pairs",
             "four + two solos", "four + two pairs", "solo kicker", "pair kicker", "pass", "bid")

#: Kicker kinds of a base move.
K_NONE, K_SOLO, K_PAIR = 0, 1, 2

# (category, cards per rank, min length, max length, number of single-rank heads,
#  kicker kind, kickers per trio/quad, kicker multiplicity cap)
_SPEC = (
    (SOLO, 1, 1, 1, 15, K_NONE, 0, 0),
    (PAIR, 2, 1, 1, 13, K_NONE, 0, 0),
    (TRIO, 3, 1, 1, 13, K_NONE, 0, 0),
    (BOMB, 4, 1, 1, 13, K_NONE, 0, 0),
    (ROCKET, 1, 2, 2, 1, K_NONE, 0, 0),
    (SOLO_CHAIN, 1, 5, 12, 0, K_NONE, 0, 0),
    (PAIR_CHAIN, 2, 3, 10, 0, K_NONE, 0, 0),
    (PLANE, 3, 2, 6, 0, K_NONE, 0, 0),
    (TRIO_SOLO, 3, 1, 1, 13, K_SOLO, 1, 1),
    (TRIO_PAIR, 3, 1, 1, 13, K_PAIR, 1, 1),
    (PLANE_SOLO, 3, 2, 5, 0, K_SOLO, 1, 3),
    (PLANE_PAIR, 3, 2, 4, 0, K_PAIR, 1, 1),
    (QUAD_SOLO, 4, 1, 1, 13, K_SOLO, 2, 1),
    (QUAD_PAIR, 4, 1, 1, 13, K_PAIR, 2, 1),
    (KICK_SOLO, 1, 1, 1, 15, K_NONE, 0, 0),
    (KICK_PAIR, 2, 1, 1, 13, K_NONE, 0, 0),
    (PASS_CAT, 0, 0, 0, 1, K_NONE, 0, 0),
    (BID_CAT, 0, 0, 0, 3, K_NONE, 0, 0),
)


def _build():
    cat, head, length, width, nk, kkind, kcap = [], [], [], [], [], [], []
    first = np.zeros(N_CATS + 1, dtype=np.int64)
    for c, w, lo, hi, singles, kind, per, cap in _SPEC:
        first[c] = len(cat)
        if c == ROCKET:
            rows = [(BLACK_JOKER, 2)]
        elif c in (PASS_CAT, BID_CAT):
            rows = [(i, 0) for i in range(singles)]
        elif singles:
            rows = [(r, 1) for r in range(singles)]
        else:
            rows = [(h, n) for n in range(lo, hi + 1) for h in range(0, 12 - n + 1)]
        for h, n in rows:
            cat.append(c)
            head.append(h)
            length.append(n)
            width.append(w)
            nk.append(per * n if kind else 0)
            kkind.append(kind)
            kcap.append(cap)
    first[N_CATS] = len(cat)
    arr = [np.array(x, dtype=np.int64) for x in (cat, head, length, width, nk, kkind, kcap)]
    return (*arr, first)


A_CAT, A_HEAD, A_LEN, A_WIDTH, A_NK, A_KKIND, A_KCAP, FIRST = _build()
N_ACTIONS = len(A_CAT)
PASS = int(FIRST[PASS_CAT])
BID1 = int(FIRST[BID_CAT])
KICK_SOLO0 = int(FIRST[KICK_SOLO])
KICK_PAIR0 = int(FIRST[KICK_PAIR])
#: The base-move ids (everything before the kicker actions).
N_BASE = KICK_SOLO0


def action_cards(a: int) -> list[int]:
    """The ranks of the cards action ``a`` puts down (kickers: the kicker's cards)."""
    c, h, n, w = int(A_CAT[a]), int(A_HEAD[a]), int(A_LEN[a]), int(A_WIDTH[a])
    if c == ROCKET:
        return [BLACK_JOKER, RED_JOKER]
    if c in (PASS_CAT, BID_CAT):
        return []
    return [r for r in range(h, h + n) for _ in range(w)]
