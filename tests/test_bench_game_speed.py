"""``spyglass bench --game G --only speed``: written once, for every registered game
(issue 26, item 5)."""

from __future__ import annotations

from spyglass.bench import all_benchmarks, benchmark_games
from spyglass.bench.game_speed import first_decisions, game_speed
from spyglass.games import registry


def test_every_registered_game_has_the_speed_benchmark():
    assert set(registry.names()) <= set(benchmark_games())
    for name in registry.names():
        assert "speed" in all_benchmarks(name)


def test_speed_measures_each_seat_and_says_what_does_not_apply():
    g = registry.make("phantom")
    states = first_decisions(g)
    assert sorted(states) == [0, 1]
    assert all(int(g.kernel.actor(s)) == seat for seat, s in states.items())
    out = game_speed("phantom", quick=True, searches=["soismcts", "moismcts_exp3"])
    assert out["random_playouts_per_s"] > 0
    assert out["soismcts_seat0_iterations_per_s"] > 0 and "soismcts_seat1_vs_playouts" in out
    # Phantom has no simultaneous moves: EXP3 at them is left out with a note
    assert "not applicable" in out["moismcts_exp3_note"]


def test_perfect_information_games_also_measure_uct_and_its_icarus_loop():
    from spyglass.bench.game_speed import SEARCHES

    othello, phantom = registry.make("othello"), registry.make("phantom")
    for label in ("uct", "icarus_uct_mast"):
        applies = SEARCHES[label][2]
        assert applies(othello) and not applies(phantom)
