"""Competition models: exact counts per configuration and seat (Taylor 2014, §4.4, Cowling et al.
2015, §VII-A)."""

from __future__ import annotations

import math
from collections import Counter
from itertools import combinations

import numpy as np
import pytest

from spyglass.games.resistance.tables import seats_to_mask
from spyglass.resistance.arena.schedule import ScheduleError, build_schedule


def games_of(s):
    return [(tuple(lineup), int(mask)) for lineup, mask in zip(s.lineups.tolist(), s.spy_masks,
                                                               strict=True)]


def chunk_ranges(s):
    return [(int(s.chunk_starts[c]), int(s.chunk_starts[c + 1])) for c in range(s.n_chunks)]


# --- permutations (Taylor 2014, §4.4.1)
# ------------------------------------------------------------
@pytest.mark.parametrize("k,players,expected", [(5, 5, 1200), (6, 5, 7200), (7, 5, 25200)])
def test_permutation_set_size_is_figure_5(k, players, expected):
    # Figure 6: k!/(k-5)! x 10 for five players; "1,200 seating and role permutations" for
    # 5 competitors, "the possible 7,200" for 6.
    s = build_schedule("permutations", k, players=players, games=100, seed=0)
    assert s.set_size == expected == math.perm(k, players) * 10


def test_two_whole_sets_play_every_permutation_exactly_twice():
    s = build_schedule("permutations", 5, games=2400, seed=3)
    counts = Counter(games_of(s))
    assert len(counts) == 1200 and set(counts.values()) == {2}
    assert s.whole_sets and s.sets == 2
    for seat in range(5):  # every bot in every seat equally often...
        assert Counter(s.lineups[:, seat].tolist()) == {b: 480 for b in range(5)}
    spy_seats = ((s.spy_masks[:, None] >> np.arange(5)) & 1).astype(bool)
    # ...and a spy in exactly 2/5 of its games
    assert Counter(s.lineups[spy_seats].tolist()) == {b: 960 for b in range(5)}
    for lineup, _ in counts:  # an ordered choice: no bot twice at one table
        assert len(set(lineup)) == 5


def test_each_repetition_is_a_complete_set():
    s = build_schedule("permutations", 5, games=3000, seed=1)
    g = games_of(s)
    assert len(set(g[:1200])) == 1200 and len(set(g[1200:2400])) == 1200
    assert len(set(g[2400:])) == 600  # a partial set: a subset, nothing twice
    assert not s.whole_sets and "not a whole number of sets" in s.describe()


def test_half_a_set_with_six_competitors():
    # Taylor 2014, §4.4.1: "3,600 games with 6 competitors would consist of only half of the
    # possible 7,200 permutations".
    s = build_schedule("permutations", 6, games=3600, seed=2)
    assert s.sets == 0.5 and len(set(games_of(s))) == 3600


def test_small_pool_is_padded_by_duplicates():
    s = build_schedule("permutations", 2, games=1200, seed=0)
    assert s.set_size == 1200  # five competitors after padding: 0,1,0,1,0
    assert Counter(s.lineups.ravel().tolist()) == {0: 3600, 1: 2400}
    assert all(sorted(row) == [0, 0, 0, 1, 1] for row in s.lineups.tolist())


def test_seven_players_have_three_spies_and_35_placements():
    s = build_schedule("permutations", 7, players=7, games=500, seed=0)
    assert s.set_size == math.factorial(7) * 35
    assert all(bin(int(m)).count("1") == 3 for m in s.spy_masks)
    assert all(sorted(row) == list(range(7)) for row in s.lineups.tolist())


def test_huge_sets_are_sampled_without_materialising():
    s = build_schedule("permutations", 10, players=10, games=2000, seed=0)
    assert s.set_size == math.factorial(10) * math.comb(10, 4)
    assert len(set(games_of(s))) == 2000
    assert all(sorted(row) == list(range(10)) for row in s.lineups.tolist())


def test_fixed_chunks_and_determinism():
    a = build_schedule("permutations", 5, games=1000, seed=7, chunk_size=300)
    assert chunk_ranges(a) == [(0, 300), (300, 600), (600, 900), (900, 1000)]
    b = build_schedule("permutations", 5, games=1000, seed=7, chunk_size=300)
    c = build_schedule("permutations", 5, games=1000, seed=8, chunk_size=300)
    assert a.digest() == b.digest() != c.digest()
    assert a.game(5) == b.game(5) and a.game(5).chunk == 0 and a.game(950).chunk == 3
    assert len(set(a.seeds.tolist())) == 1000


# --- balanced (Cowling et al. 2015, §VII-A)
# ----------------------------------------------------------------
def test_balanced_plays_each_of_the_ten_configurations_equally():
    # Cowling et al. 2015, §VII-A: "each of the 10 possible spy configurations was tested 100 times,
    # each time with all the spy players using one algorithm and all the non-spy players
    # using another".
    s = build_schedule("balanced", 2, games=1000, seed=4)
    expected = {seats_to_mask(c): 100 for c in combinations(range(5), 2)}
    assert Counter(s.spy_masks.tolist()) == expected
    for lineup, mask in games_of(s):
        assert all((b == 0) == bool(mask >> seat & 1) for seat, b in enumerate(lineup))
    assert s.set_size == 10 and s.whole_sets


def test_balanced_with_one_bot_and_seven_players():
    s = build_schedule("balanced", 1, players=7, games=70, seed=0)
    assert set(Counter(s.spy_masks.tolist()).values()) == {2} and len(set(s.spy_masks)) == 35
    assert not s.lineups.any()
    with pytest.raises(ScheduleError, match="one spy bot and one resistance bot"):
        build_schedule("balanced", 3, games=10, seed=0)


# --- burst (Taylor 2014, §4.4.2)
# --------------------------------------------------------------------
def test_burst_covers_every_permutation_with_fresh_identities():
    s = build_schedule("burst", 6, games=7200, seed=5, burst=100)
    # Figure 7: C(k, g) x g! x g!/(s!r!) games: 6 x 120 x 10.
    assert s.set_size == 7200 and s.n_chunks == 72
    assert set(Counter(games_of(s)).values()) == {1} and len(set(games_of(s))) == 7200
    seen_ids: set[int] = set()
    for lo, hi in chunk_ranges(s):
        assert hi - lo == 100
        # "every subsequent b games are guaranteed to feature the same bots"
        assert len({frozenset(row) for row in s.lineups[lo:hi].tolist()}) == 1
        # each bot keeps one identity within the burst, and identities are never reused
        pairs = {(b, i) for row, ids in zip(s.lineups[lo:hi].tolist(),
                                            s.identities[lo:hi].tolist(), strict=True)
                 for b, i in zip(row, ids, strict=True)}
        assert len(pairs) == 5 and len({i for _, i in pairs}) == 5
        assert not seen_ids & {i for _, i in pairs}
        seen_ids |= {i for _, i in pairs}
    assert s.game(0).names is not None and s.game(0).names[0].startswith("anon")


def test_burst_blocks_when_the_size_does_not_divide_a_combination():
    s = build_schedule("burst", 5, games=2400, seed=0, burst=500)
    sizes = Counter(hi - lo for lo, hi in chunk_ranges(s))
    assert sizes == {500: 4, 200: 2}  # 1200 = 500 + 500 + 200, twice
    assert set(Counter(games_of(s)).values()) == {2}


def test_burst_truncates_to_n_games_and_pads_small_pools():
    s = build_schedule("burst", 2, games=250, seed=0, burst=100)
    assert chunk_ranges(s) == [(0, 100), (100, 200), (200, 250)]
    ids = s.identities[:100]
    assert len(set(ids.ravel().tolist())) == 5  # padded copies are distinct competitors


def test_bad_arguments_are_named():
    with pytest.raises(ScheduleError, match="unknown competition model"):
        build_schedule("league", 5, games=10, seed=0)
    with pytest.raises(ScheduleError, match="5 to 10 players"):
        build_schedule("permutations", 5, players=4, games=10, seed=0)
    with pytest.raises(ScheduleError, match="burst size"):
        build_schedule("burst", 5, games=10, seed=0)
    with pytest.raises(ScheduleError, match="only applies to the burst model"):
        build_schedule("permutations", 5, games=10, seed=0, burst=10)
    with pytest.raises(ScheduleError, match="positive integer"):
        build_schedule("permutations", 5, games=0, seed=0)
