"""The Python side of the ICARUS searches: the records' arrays, budgets, pool growth.

Every decision starts with fresh records, as the thesis's Algorithm 8 initialises them
at each call (lines 2-4). The arrays are allocated once per searcher and cleared.
"""

from __future__ import annotations

import numpy as np

from spyglass.search.icarus.entry import IcarusEntry
from spyglass.search.icarus.records import H_FULL, HMETA_SIZE
from spyglass.search.icarus.spec import C_EPIC_AVAIL, C_USES_AMAF, EPIC_AVAIL_ALL, Combination
from spyglass.search.sampled.driver import (
    GameShape,
    ISMCTSSearch,
    SearchResult,
    SearchSettings,
    UCTSearch,
    _budget,
    _check,
    _most_visited,
)
from spyglass.search.sampled.entry import SearchEntry
from spyglass.search.sampled.pool import FULL

#: Hash-table slots for NAST and EPIC records (2**18: 8 MiB; new records stop at 3/4).
TABLE_BITS = 18
#: ... with EPIC-7's availability (``epic_avail=all``, the default): a record for every
#: position-in-episode that was available, not only those visited. 5,000 random playouts
#: from Hearts' first decision reach 613,367 of them (107,228 visited), past 2**19's
#: 393,216 (``tools/count_epic_records.py``; docs/icarus.md): 2**20 slots, 32 MiB.
TABLE_BITS_EPIC_7 = 20


class IcarusRecords:
    """The non-tree records of one search (see :mod:`.records`)."""

    def __init__(self, combo: Combination, n_players: int, n_actions: int,
                 table_bits: int | None = None) -> None:
        self.combo = combo
        self.mast = np.zeros((n_players * n_actions, 2), dtype=np.float64)
        self.lgr = np.full(n_players * n_actions, -1, dtype=np.int64)
        if table_bits is None:
            epic_7 = combo.uses_epic and combo.cfg[C_EPIC_AVAIL] == EPIC_AVAIL_ALL
            table_bits = TABLE_BITS_EPIC_7 if epic_7 else TABLE_BITS
        size = 1 << table_bits if (combo.uses_epic or combo.nast_n) else 2
        self.hkeys = np.zeros(size, dtype=np.uint64)
        self.hstat = np.zeros((size, 3), dtype=np.float64)
        self.hmeta = np.zeros(HMETA_SIZE, dtype=np.int64)
        self.amaf = np.zeros((16, 2), dtype=np.float64)

    def reset(self) -> None:
        self.mast[:] = 0.0
        self.lgr[:] = -1
        self.hkeys[:] = 0
        self.hmeta[:] = 0
        self.amaf[:] = 0.0

    def fit(self, capacity: int) -> None:
        """Grow the per-node AMAF statistics with the pool (keeping them)."""
        if self.amaf.shape[0] < capacity:
            grown = np.zeros((capacity, 2), dtype=np.float64)
            grown[: self.amaf.shape[0]] = self.amaf
            self.amaf = grown

    @property
    def table_full(self) -> bool:
        return bool(self.hmeta[H_FULL])


def check_episodes(icarus: IcarusEntry, combo: Combination, game_name: str) -> None:
    if combo.uses_epic and not icarus.has_episodes:
        raise ValueError(f"enhance: EPIC needs an episode function and {game_name} has none "
                         "(Whitehouse 2014, §8.3.2 defines them for Dou Di Zhu, Hearts, "
                         "LOTR:C, Checkers, Othello and Backgammon)")


class IcarusUCTSearch(UCTSearch):
    """UCT with an ICARUS combination (the UCT loop's ``run_icarus``,
    :mod:`spyglass.search.sampled.uct`); the same interface as UCTSearch."""

    def __init__(self, entry: SearchEntry, icarus: IcarusEntry, shape: GameShape,
                 settings: SearchSettings, combo: Combination, game_name: str = "the game"
                 ) -> None:
        super().__init__(entry, shape, settings)
        check_episodes(icarus, combo, game_name)
        self.icarus = icarus
        self.combo = combo
        self.records = IcarusRecords(combo, shape.n_players, shape.n_actions)

    def grow(self, state: np.ndarray, root: int, rng: np.ndarray, settings: SearchSettings,
             ) -> tuple[int, float]:
        shape, pool, rec, combo = self.shape, self.pool, self.records, self.combo
        state = np.ascontiguousarray(state, dtype=np.int64)

        def run(todo: int) -> int:
            pool.ensure(todo + 1)
            rec.fit(pool.capacity)
            pool.meta[FULL] = 0
            got = self.icarus.uct(state, shape.n_actions, shape.n_players, root, pool.data,
                                  pool.fdata, pool.meta, settings.kind, float(settings.c),
                                  todo, rng, shape.width, combo.cfg, combo.fcfg, rec.amaf,
                                  rec.mast, rec.lgr, rec.hkeys, rec.hstat, rec.hmeta)
            _check(pool.meta, shape, "ICARUS UCT search")
            return got

        return _budget(settings, run)

    def search(self, state: np.ndarray, rng: np.ndarray) -> SearchResult:
        self.records.reset()
        self.pool.reset()
        roots = self.pool.new_roots(1)
        node = int(roots[0])
        done, secs = self.grow(state, node, rng, self.settings)
        return SearchResult(_most_visited(self.pool, node, "ICARUS UCT search", False), done,
                            secs, node, roots, self.pool, move_keys=False)


class _IcarusSampledSearch(ISMCTSSearch):
    """An ISMCTS search whose compiled loop takes an ICARUS combination: the loop's
    arguments are today's, then the combination's configuration and its records."""

    algorithm = ""
    title = ""

    def __init__(self, entry: SearchEntry, icarus: IcarusEntry, shape: GameShape,
                 settings: SearchSettings, combo: Combination, game_name: str = "the game"
                 ) -> None:
        super().__init__(entry, shape, self.algorithm, settings)
        check_episodes(icarus, combo, game_name)
        loop = getattr(icarus, self.algorithm)
        if loop is None:
            raise ValueError(f"enhance: {game_name} has no ICARUS {self.title} entry point")
        self.combo = combo
        rec = self.records = IcarusRecords(combo, shape.n_players, shape.n_actions)
        uses_amaf = bool(combo.cfg[C_USES_AMAF])
        # SO's one tree holds every player's moves, so its loop is told how many there are.
        lead = (shape.n_players,) if self.algorithm == "so" else ()

        def run(*args):
            if uses_amaf:  # one AMAF record per node: as long as the pool (args[5])
                rec.fit(args[5].shape[0])
            return loop(*args, *lead, combo.cfg, combo.fcfg, rec.amaf, rec.mast, rec.lgr,
                        rec.hkeys, rec.hstat, rec.hmeta)

        self.run = run

    def search(self, view: np.ndarray, searcher: int, rng: np.ndarray) -> SearchResult:
        self.records.reset()
        return super().search(view, searcher, rng)


class IcarusMOSearch(_IcarusSampledSearch):
    """MO-ISMCTS with an ICARUS combination (:mod:`.mo`); the same interface as
    ISMCTSSearch. Every combination runs: AMAF/RAVE records live in each player's tree."""

    algorithm = "mo"
    title = "MO-ISMCTS"


class IcarusSOSearch(_IcarusSampledSearch):
    """SO-ISMCTS with an ICARUS combination (:data:`spyglass.search.sampled.so.run_icarus`);
    the same interface as ISMCTSSearch. Every combination runs: AMAF/RAVE records live in
    the one tree."""

    algorithm = "so"
    title = "SO-ISMCTS"
