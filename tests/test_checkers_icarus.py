"""ICARUS on Checkers: the baseline is plain UCT node for node, EPIC's episodes are the
thesis's (Whitehouse 2014, §8.3.2, eq. 8.9), and the enhancements search and play."""

from __future__ import annotations

import numpy as np
import pytest

from spyglass.arena.match import play_match
from spyglass.games import registry
from spyglass.games.checkers import kernel as K
from spyglass.games.checkers.episodes import episode
from spyglass.games.checkers.icarus_entry import ICARUS
from spyglass.games.checkers.search_entry import ENTRY
from spyglass.rng import make_rng
from spyglass.search.icarus import spec as S
from spyglass.search.icarus.driver import IcarusUCTSearch
from spyglass.search.sampled.driver import GameShape, SearchSettings, UCTSearch
from tests.test_checkers import play, position


def checkers_position(moves: int, seed: int) -> np.ndarray:
    g = registry.make("checkers")
    s = g.new_state(0)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        legal = g.legal_actions(s)
        g.kernel.apply(s, legal[int(rng.integers(len(legal)))])
    return s


def test_episodes_start_where_a_non_chained_capture_is_available():
    g = registry.make("checkers")
    s = position("b2 c3 g3", "d4 d6 f6 h8", to_move=1)
    play(g, s, "h8g7")  # Black now must capture c3xe5: a new episode, Black's (M_1)
    assert episode(s, 0) == 0
    play(g, s, "c3e5")  # the chain goes on: the same episode
    assert s[K.CHAIN] >= 0 and episode(s, 0) == -1
    play(g, s, "e5c7")  # chain over; White has no capture: still the same episode
    assert g.kernel.actor(s) == 1 and episode(s, 0) == -1
    s = g.new_state(0)
    assert episode(s, 0) == -1  # a quiet opening


@pytest.mark.parametrize("seed", [1, 2])
def test_baseline_icarus_is_todays_uct_node_for_node(seed):
    g = registry.make("checkers")
    shape, st = GameShape.of(g), SearchSettings(iterations=1000)
    s = checkers_position(seed * 9, seed)
    a = UCTSearch(ENTRY, shape, st).search(s, make_rng(seed))
    b = IcarusUCTSearch(ENTRY, ICARUS, shape, st, S.parse("base")).search(s, make_rng(seed))
    assert a.action == b.action
    assert a.pool.used == b.pool.used
    assert (a.pool.data[: a.pool.used] == b.pool.data[: b.pool.used]).all()


@pytest.mark.parametrize("text", ["epic", "lgrf", "rave", "mast", "nast2", "epic+lgrf",
                                  "ERML"])
def test_enhancements_search_legally_and_deterministically(text):
    g = registry.make("checkers")
    shape, st = GameShape.of(g), SearchSettings(iterations=300)
    s = checkers_position(12, 3)
    search = IcarusUCTSearch(ENTRY, ICARUS, shape, st, S.parse(text))
    first = search.search(s, make_rng(9))
    used = search.pool.used
    again = search.search(s, make_rng(9))
    assert first.action == again.action and used == search.pool.used
    assert first.action in g.legal_actions(s)


def test_epic_records_episodes_and_an_enhanced_uct_plays():
    g = registry.make("checkers")
    shape, st = GameShape.of(g), SearchSettings(iterations=200)
    search = IcarusUCTSearch(ENTRY, ICARUS, shape, st, S.parse("epic"))
    search.search(g.new_state(0), make_rng(1))
    assert search.records.hmeta[0] > 100  # positions-in-episode were captured
    r = play_match(g, ["uct:iterations=200,enhance=epic+lgrf", "random"], seed=3)
    assert r.error is None and r.rewards[0] >= 0.5


def test_the_ch8_experiment_runs_on_checkers_seeded():
    from spyglass.experiments import icarus as X

    assert len(X.combos_for("checkers")) == 16
    a = X.table_8_1("checkers", 10, 2, seed=3, combos=["-", "E"])
    b = X.table_8_1("checkers", 10, 2, seed=3, combos=["-", "E"])
    assert a["rates"] == b["rates"] and a["rates"]["E"]["n"] == 2


@pytest.mark.slow
def test_enhancement_costs_include_epic_on_checkers():
    from spyglass.experiments import icarus as X

    costs = X.enhancement_costs("checkers", iterations=300, repeats=1, names=("", "epic"))
    assert costs["baseline"] == 1.0 and 0 < costs["epic"] < 2
