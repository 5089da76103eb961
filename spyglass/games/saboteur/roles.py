"""Saboteur's role deals: what a player that sees every card but not the roles considers.

Whitehouse (2014, §7.5.5) tested "ISMCTS players which 'cheat' (have access to all
hidden information except the other players' roles)" against players that do not, and
found no significant advantage: in Saboteur the cards (hands, the stock's order,
face-down discards, the goal cards, other seats' map peeks) matter less than the roles.
:func:`role_deals` is that player's determinizations (the game's ``role_deals``
capability, used by the ``mtismcts_cardcheat`` agent): the true state with the other
seats' roles replaced by each assignment the seat cannot rule out, weighted by its
chance under the deal.

The deal (published rules; :mod:`spyglass.games.saboteur.kernel`): the role deck holds
one card more than there are players and the spare stays face down. Every order of a
multiset deck is equally likely, and the other seats' roles fix the spare, so every
assignment the seat's own card leaves possible has the same chance -- the same
distribution :func:`~spyglass.games.saboteur.kernel.sample` draws the roles from. The
weights are computed as a sequential draw all the same (exactly, as fractions), so
that the uniformity is something the tests check rather than assume.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import numpy as np

from spyglass.games.saboteur import kernel as K


def role_chances(n_players: int, seat: int, own: int) -> list[tuple[tuple[int, ...], Fraction]]:
    """Every role assignment (1 saboteur, 0 gold-digger, one per seat) with ``seat``
    holding ``own``, that has a positive chance under the deal, with that chance given
    ``own``: the other seats draw in turn from the role deck less ``own``."""
    out = []
    others = [q for q in range(n_players) if q != seat]
    for bits in itertools.product((0, 1), repeat=len(others)):
        sab = int(K.SABOTEURS[n_players]) - own
        dig = int(K.DIGGERS[n_players]) - (1 - own)
        p = Fraction(1)
        for b in bits:
            left = sab + dig
            p *= Fraction(sab if b else dig, left)
            if b:
                sab -= 1
            else:
                dig -= 1
            if p == 0:
                break
        if p > 0:
            roles = [0] * n_players
            roles[seat] = own
            for q, b in zip(others, bits, strict=True):
                roles[q] = b
            out.append((tuple(roles), p))
    return out


def role_deals(state: np.ndarray, seat: int) -> tuple[np.ndarray, np.ndarray]:
    """The states ``seat`` considers when it sees everything but the other roles: copies
    of the full ``state``, one per role assignment its own card leaves possible, and
    their chances (summing to 1)."""
    s = np.asarray(state, dtype=np.int64)
    n = int(s[K.NP])
    if not 0 <= seat < n:
        raise ValueError(f"seat must be 0-{n - 1}, not {seat}")
    deals = role_chances(n, seat, int(s[K.ROLE + seat]))
    states = np.repeat(s[None, :], len(deals), axis=0)
    for i, (roles, _p) in enumerate(deals):
        states[i, K.ROLE:K.ROLE + n] = roles
    return states, np.array([float(p) for _r, p in deals], dtype=np.float64)
