"""Competition models: which bots sit where, who the spies are, and each game's seed.

A schedule is a deterministic function of its arguments (and the seed): the same call
gives the same list of games on every machine, which is what makes tournaments
reproducible whatever backend plays them, and resumable.

Models (Taylor 2014, §4.4):

* ``permutations`` — the 2012 competition (§4.4.1): every ordered choice of P bots from
  the pool × every distinct spy placement, ``k!/(k-P)! × P!/(S!R!)`` games per complete
  set (Figure 5); the pool is padded by duplicates when it has fewer than P bots. Each
  repetition of the set is shuffled with the seed; a partial last repetition is a random
  subset of the set, so N should be a whole number of sets.
* ``burst`` — §4.4.2: for each combination of P competitors its permutations are
  shuffled and cut into bursts of B games; all bursts are shuffled (Figure 7). Every
  burst gives each bot a fresh anonymous identity and a fresh memory, so cross-game
  learning lasts at most B games.
* ``balanced`` — Cowling et al. 2015, §VII-A: one algorithm plays every spy seat and another every
  resistance seat, and each spy configuration (10 for 5 players) is played equally often.

Games are grouped in *chunks* (a burst, or ``chunk_size`` consecutive games): a chunk is
played in order by one worker with one fresh memory, so results do not depend on how
many workers there are, and learning bots learn within a chunk only.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

import numpy as np

from spyglass.games.resistance.options import check_players
from spyglass.games.resistance.tables import mask_to_seats, spy_configurations

MODELS = ("permutations", "burst", "balanced")
DEFAULT_CHUNK = 250
#: Above this many games per combination, bursts sample their games instead of cutting
#: up one shuffled permutation of the whole combination (which would not fit in memory).
_MAX_SHUFFLE = 5_000_000
_MAX_SET = 2**62
#: Most games one tournament may schedule (its arrays stay within a few hundred MB).
MAX_GAMES = 10_000_000


class ScheduleError(ValueError):
    """A tournament schedule that cannot be built from the given arguments."""


@dataclass(frozen=True)
class GameSpec:
    """One scheduled game: pool index per seat, spy seats, seed, chunk and identities."""

    index: int
    lineup: tuple[int, ...]
    spies: tuple[int, ...]
    seed: int
    chunk: int
    #: Seat names for the game (burst identities), or None to use the bots' labels.
    names: tuple[str, ...] | None = None


@dataclass
class Schedule:
    """Every game of a tournament, stored as compact arrays; see :meth:`game`."""

    model: str
    players: int
    pool_size: int
    games: int
    seed: int
    set_size: int
    lineups: np.ndarray  # (games, players) pool indices
    spy_masks: np.ndarray  # (games,)
    seeds: np.ndarray  # (games,)
    chunk_starts: np.ndarray  # (chunks + 1,): chunk c is games chunk_starts[c]:[c+1]
    identities: np.ndarray | None = None  # (games, players) anonymous ids (burst)
    burst: int | None = None

    def __len__(self) -> int:
        return self.games

    @property
    def n_chunks(self) -> int:
        return len(self.chunk_starts) - 1

    @property
    def sets(self) -> float:
        """How many complete sets N games amount to (2012: "comprehensive sets played")."""
        return self.games / self.set_size

    @property
    def whole_sets(self) -> bool:
        return self.games % self.set_size == 0

    def chunk_of(self, index: int) -> int:
        return int(np.searchsorted(self.chunk_starts, index, side="right") - 1)

    def game(self, index: int) -> GameSpec:
        """The spec of game ``index`` (0-based)."""
        names = None
        if self.identities is not None:
            names = tuple(f"anon{int(u):06d}" for u in self.identities[index])
        elif self.model == "balanced":
            # Every seat's name says nothing of its bot: with the bots' own labels, a
            # resistance bot would find the spies as the seats not named like itself.
            names = tuple(f"seat{i}" for i in range(self.players))
        return GameSpec(
            index=index,
            lineup=tuple(int(x) for x in self.lineups[index]),
            spies=mask_to_seats(int(self.spy_masks[index])),
            seed=int(self.seeds[index]),
            chunk=self.chunk_of(index),
            names=names,
        )

    def chunk(self, c: int) -> list[GameSpec]:
        """The games of chunk ``c``, in the order they are played."""
        return [self.game(i) for i in range(self.chunk_starts[c], self.chunk_starts[c + 1])]

    def digest(self) -> str:
        """A hash of every game of the schedule, stored in the manifest to check resumes."""
        h = hashlib.sha256()
        h.update(f"{self.model}/{self.players}/{self.pool_size}/{self.games}".encode())
        for arr in (self.lineups, self.spy_masks, self.seeds, self.chunk_starts):
            h.update(np.ascontiguousarray(arr, dtype=np.int64).tobytes())
        if self.identities is not None:
            h.update(np.ascontiguousarray(self.identities, dtype=np.int64).tobytes())
        return h.hexdigest()

    def describe(self) -> str:
        """What the 2012 competition printed before starting, plus chunking."""
        unit = {"balanced": "spy configurations", "burst": "permutations",
                "permutations": "permutations"}[self.model]
        lines = [
            f"Model: {self.model}; {self.games} games of {self.players} players "
            f"from a pool of {self.pool_size} bot(s); seed {self.seed}.",
            f"One complete set of {unit} is {self.set_size} games; "
            f"{self.games} games is {self.sets:.6g} set(s).",
        ]
        if not self.whole_sets:
            lines.append(
                f"Warning: {self.games} is not a whole number of sets of {self.set_size}: "
                "some permutations are played more often than others."
            )
        if self.burst is not None:
            lines.append(f"Burst size {self.burst}: {self.n_chunks} bursts, each with fresh "
                         "identities and memory.")
        else:
            lines.append(f"{self.n_chunks} chunk(s); cross-game memory lasts one chunk.")
        return "\n".join(lines)


def _rng(seed: int, *tags: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([seed & (2**64 - 1), *tags]))


def _game_seeds(seed: int, n: int) -> np.ndarray:
    state = np.random.SeedSequence([seed & (2**64 - 1), 0x5EED]).generate_state(n, np.uint64)
    return (state >> np.uint64(1)).astype(np.int64)


def _ordered_choices(ranks: np.ndarray, k: int, p: int, block: int = 65536) -> np.ndarray:
    """Unrank ordered choices of ``p`` items out of ``k`` (lexicographic order)."""
    if len(ranks) > block:  # bound the (games x k) work arrays
        return np.concatenate([_ordered_choices(ranks[i:i + block], k, p, block)
                               for i in range(0, len(ranks), block)])
    n = len(ranks)
    out = np.empty((n, p), dtype=np.int64)
    used = np.zeros((n, k), dtype=bool)
    rows = np.arange(n)
    rest = ranks.astype(np.int64).copy()
    for j in range(p):
        weight = math.perm(k - j - 1, p - j - 1)
        digit = rest // weight
        rest %= weight
        # The digit-th still unused item: first column where the count of free items
        # reaches digit + 1.
        cum = np.cumsum(~used, axis=1)
        pick = np.argmax(cum == (digit + 1)[:, None], axis=1)
        out[:, j] = pick
        used[rows, pick] = True
    return out


def _combination(rank: int, k: int, p: int) -> tuple[int, ...]:
    """Unrank a ``p``-subset of ``range(k)`` in lexicographic order."""
    out, x = [], 0
    for j in range(p):
        while True:
            count = math.comb(k - x - 1, p - j - 1)
            if rank < count:
                break
            rank -= count
            x += 1
        out.append(x)
        x += 1
    return tuple(out)


def _sample_set(rng: np.random.Generator, set_size: int, n: int) -> np.ndarray:
    """Indices into a set of ``set_size``: whole shuffled repetitions, then a random subset."""
    full, rem = divmod(n, set_size)
    parts = [rng.permutation(set_size) for _ in range(full)]
    if rem:
        parts.append(rng.choice(set_size, rem, replace=False))
    return np.concatenate(parts) if parts else np.zeros(0, dtype=np.int64)


def _padded(pool_size: int, players: int) -> np.ndarray:
    """Pool index of each competitor: the pool, cycled to at least ``players`` entries."""
    return np.arange(max(pool_size, players)) % pool_size


def _fixed_chunks(n: int, size: int) -> np.ndarray:
    return np.append(np.arange(0, n, size), n).astype(np.int64)


def _permutations(pool_size, players, games, seed, chunk_size) -> Schedule:
    competitors = _padded(pool_size, players)
    k = len(competitors)
    configs = spy_configurations(players)
    n_conf = len(configs)
    set_size = math.perm(k, players) * n_conf
    if set_size > _MAX_SET:
        raise ScheduleError(f"a pool of {k} bots for {players} players has too many permutations")
    idx = _sample_set(_rng(seed, 1), set_size, games)
    lineups = competitors[_ordered_choices(idx // n_conf, k, players)]
    return Schedule(
        "permutations", players, pool_size, games, seed, set_size,
        lineups.astype(np.int16), configs[idx % n_conf], _game_seeds(seed, games),
        _fixed_chunks(games, chunk_size),
    )


def _balanced(pool_size, players, games, seed, chunk_size) -> Schedule:
    if pool_size not in (1, 2):
        raise ScheduleError(
            "the balanced model takes one spy bot and one resistance bot "
            f"(or one bot for both), not {pool_size} bots"
        )
    configs = spy_configurations(players)
    idx = _sample_set(_rng(seed, 2), len(configs), games)
    masks = configs[idx]
    seats = np.arange(players)
    is_res = ((masks[:, None] >> seats[None, :]) & 1) == 0
    lineups = (is_res & (pool_size == 2)).astype(np.int16)  # 0 = spy bot, 1 = resistance bot
    return Schedule(
        "balanced", players, pool_size, games, seed, len(configs), lineups, masks,
        _game_seeds(seed, games), _fixed_chunks(games, chunk_size),
    )


def _burst(pool_size, players, games, seed, burst) -> Schedule:
    if burst is None or burst < 1:
        raise ScheduleError("the burst model needs a burst size of at least 1 (--burst B)")
    competitors = _padded(pool_size, players)
    k = len(competitors)
    configs = spy_configurations(players)
    n_conf = len(configs)
    per_combo = math.factorial(players) * n_conf  # games per combination of competitors
    n_combos = math.comb(k, players)
    blocks = -(-per_combo // burst)
    bursts_per_set = n_combos * blocks
    if bursts_per_set > 20_000_000:
        raise ScheduleError(
            f"a pool of {k} bots for {players} players has too many bursts per set "
            f"({bursts_per_set}); use fewer bots or a larger burst"
        )
    order_rng = _rng(seed, 3)
    chosen: list[tuple[int, int, int]] = []  # (repetition, combination, block)
    total, rep = 0, 0
    while total < games:
        for b in order_rng.permutation(bursts_per_set):
            c, j = divmod(int(b), blocks)
            chosen.append((rep, c, j))
            total += min(burst, per_combo - j * burst)
            if total >= games:
                break
        rep += 1
    # Cut each combination's shuffled permutations once, however its bursts are spread.
    groups: dict[tuple[int, int], list[int]] = {}
    for r, c, j in chosen:
        groups.setdefault((r, c), []).append(j)
    elements: dict[tuple[int, int, int], np.ndarray] = {}
    for (r, c), wanted in groups.items():
        if per_combo <= _MAX_SHUFFLE:
            perm = _rng(seed, 4, r, c).permutation(per_combo)
            for j in wanted:
                elements[(r, c, j)] = perm[j * burst:(j + 1) * burst]
        else:
            for j in wanted:
                size = min(burst, per_combo - j * burst)
                elements[(r, c, j)] = _rng(seed, 5, r, c, j).choice(per_combo, size, False)
    # Fresh anonymous identities per burst, one per competitor (a padded pool's copies of
    # a bot are distinct competitors): unique across the tournament, in no pattern.
    ids = _rng(seed, 6).choice(max(10**6, 10 * k * len(chosen)), (len(chosen), k), False)
    entry_parts, id_parts, mask_parts, starts = [], [], [], [0]
    for b, key in enumerate(chosen):
        e = elements[key]
        combo = np.array(_combination(key[1], k, players))
        entries = combo[_ordered_choices(e // n_conf, players, players)]
        entry_parts.append(entries)
        id_parts.append(ids[b][entries])
        mask_parts.append(configs[e % n_conf])
        starts.append(starts[-1] + len(e))
    lineups = competitors[np.concatenate(entry_parts)[:games]].astype(np.int16)
    identities = np.concatenate(id_parts)[:games]
    masks = np.concatenate(mask_parts)[:games]
    chunk_starts = np.unique(np.minimum(np.array(starts, dtype=np.int64), games))
    return Schedule(
        "burst", players, pool_size, games, seed, per_combo * n_combos, lineups, masks,
        _game_seeds(seed, games), chunk_starts, identities, burst,
    )


def build_schedule(
    model: str,
    pool_size: int,
    *,
    players: int = 5,
    games: int,
    seed: int,
    burst: int | None = None,
    chunk_size: int = DEFAULT_CHUNK,
) -> Schedule:
    """Build the schedule of a tournament; raises :class:`ScheduleError` on bad input."""
    if model not in MODELS:
        raise ScheduleError(f"unknown competition model {model!r}; choose one of "
                            + ", ".join(MODELS))
    try:
        check_players(players)
    except ValueError as exc:
        raise ScheduleError(str(exc)) from None
    if pool_size < 1:
        raise ScheduleError("a tournament needs at least one bot")
    if type(games) is not int or not 1 <= games <= MAX_GAMES:
        raise ScheduleError(f"the number of games must be a positive integer (at most "
                            f"{MAX_GAMES:,}), not {games!r}")
    if type(chunk_size) is not int or not 1 <= chunk_size <= MAX_GAMES:
        raise ScheduleError(f"the chunk size must be an integer of at least 1, not {chunk_size!r}")
    if burst is not None and (type(burst) is not int or not 1 <= burst <= MAX_GAMES):
        raise ScheduleError(f"the burst size must be a positive integer, not {burst!r}")
    if type(seed) is not int or not 0 <= seed < 2**64:
        raise ScheduleError(f"the seed must be an integer from 0 to 2**64-1, not {seed!r}")
    if model == "burst":
        return _burst(pool_size, players, games, seed, burst)
    if burst is not None:
        raise ScheduleError("--burst only applies to the burst model (--model burst)")
    if model == "balanced":
        return _balanced(pool_size, players, games, seed, chunk_size)
    return _permutations(pool_size, players, games, seed, chunk_size)


__all__ = [
    "DEFAULT_CHUNK", "MAX_GAMES", "MODELS", "GameSpec", "Schedule", "ScheduleError",
    "build_schedule",
]
