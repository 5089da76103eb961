"""Who sits where in a tournament of any game: seat rotation over deals shared by a block.

Games come in *blocks* of ``n`` games (``n`` = players). A block takes one group of ``n``
agents from the pool (every combination in turn; the pool repeated round the table when it
has fewer agents than seats) and one deal seed, and plays the ``n`` cyclic rotations of
the group over the seats, all from that same deal. So every agent of a group sits in every
seat once per block and meets the same deal, chance outcomes and hidden roles in each seat
(duplicate play; the agents' own seeds are fresh in every game): seats and roles are
balanced without the schedule knowing what a role is, which is how role balance works for
any game with ``has_roles``. A tournament of
``n × C`` games (``C`` groups) is exactly balanced; a shorter last round is reported.

Game ``i`` is a pure function of (pool size, players, tournament seed, ``i``), so a
resumed run plays exactly the games that are missing.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Seating:
    """Game ``index`` of a tournament: pool indices per seat, its block, the deal's seed
    (shared by the block) and the game's own seed (the agents' randomness)."""

    index: int
    block: int
    lineup: tuple[int, ...]
    deal: int
    seed: int


def groups(pool: int, players: int) -> list[tuple[int, ...]]:
    """The groups of pool indices that take turns at the table, in order."""
    if pool < 1:
        raise ValueError("the pool needs at least one agent")
    if pool < players:
        return [tuple(i % pool for i in range(players))]
    return list(itertools.combinations(range(pool), players))


def _mix(seed: int, *parts: int) -> int:
    ss = np.random.SeedSequence([int(seed), *parts])
    return int(ss.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def block_seed(seed: int, block: int) -> int:
    """The deal seed of a block (63 bits, from NumPy's SeedSequence([seed, 2, block]))."""
    return _mix(seed, 2, block)


def game_seed(seed: int, index: int) -> int:
    """Game ``index``'s own seed, which seeds its agents (SeedSequence([seed, 3, index])):
    fresh for every game, so that rotated games of a block differ in the agents' choices
    and not only in who sits where."""
    return _mix(seed, 3, index)


def seating(index: int, pool: int, players: int, seed: int) -> Seating:
    """Game ``index`` (see the module docstring)."""
    block, shift = divmod(index, players)
    gs = groups(pool, players)
    group = gs[block % len(gs)]
    lineup = group[shift:] + group[:shift]
    return Seating(index, block, lineup, block_seed(seed, block), game_seed(seed, index))


def schedule(games: int, pool: int, players: int, seed: int) -> list[Seating]:
    """All ``games`` games of a tournament."""
    gs = groups(pool, players)
    out = []
    for i in range(games):
        block, shift = divmod(i, players)
        group = gs[block % len(gs)]
        out.append(Seating(i, block, group[shift:] + group[:shift], block_seed(seed, block),
                           game_seed(seed, i)))
    return out


def balanced_games(pool: int, players: int) -> int:
    """The smallest number of games that gives every group every rotation once."""
    return players * len(groups(pool, players))
