"""OpenSpiel games Spyglass lacks, as Spyglass games (spyglass.envs.openspiel_game): the
referee, the tournament engine and the ISMCTS agents play them on the plain-Python path."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (crosscheck extra)")
from spyglass.arena.match import play_match  # noqa: E402
from spyglass.arena.tournament import run_game_tournament  # noqa: E402
from spyglass.envs import openspiel_game  # noqa: E402
from spyglass.rng import make_rng  # noqa: E402

SPECS = ["leduc_poker", "liars_dice", "goofspiel(num_cards=4,imp_info=True)"]


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("agent", ["soismcts", "soismcts_pom", "moismcts"])
def test_the_ismcts_family_plays_openspiel_games(spec, agent):
    game = openspiel_game(spec)
    result = play_match(game, [f"{agent}:iterations=40", "random"], seed=5)
    assert result.error is None, result.error
    assert sum(result.rewards) == pytest.approx(1.0)  # zero-sum, scaled to [0, 1]


@pytest.mark.parametrize("spec", SPECS)
def test_sampled_states_keep_what_the_seat_knows(spec):
    """Every determinization the searches draw gives the seat its own information state
    and legal actions, and they vary. A draw may fail at a dead end (another seat dealt
    the seat's own card): the searches draw again, up to 100 times, and so does this."""
    game = openspiel_game(spec)
    rng, seen = np.random.default_rng(1), set()
    state = game.new_state(3)
    k, r = game.kernel, make_rng(9)
    while not k.is_terminal(state):
        seat = int(k.actor(state))
        view = game.view(state, seat)
        truth = game.rules.state(state).information_state_string(seat)
        for _ in range(5):
            s = np.zeros(game.state_size, dtype=np.int64)
            assert any(k.sample(view, seat, r, s) for _ in range(100))
            st = game.rules.state(s)
            assert st.information_state_string(seat) == truth
            assert game.legal_actions(s) == game.legal_actions(state)
            seen.add(s.tobytes())
        k.apply(state, int(rng.choice(game.legal_actions(state))))
    assert len(seen) > 1


def test_views_hide_the_other_seats_cards():
    """Leduc: deals that differ only in seat 1's card give seat 0 the same view."""
    game = openspiel_game("leduc_poker")
    by_view: dict[tuple, set] = {}
    for seed in range(40):
        s = game.new_state(seed)
        hands = game.rules.state(s).history()[:2]
        by_view.setdefault(tuple(game.view(s, 0)), set()).add(tuple(hands))
    assert any(len(h) > 1 for h in by_view.values())
    assert all(len({h[0] for h in hands}) == 1 for hands in by_view.values())


def test_a_tournament_through_the_one_engine():
    game = openspiel_game("liars_dice")
    res = run_game_tournament(game, ["soismcts:iterations=30", "random"], games=4, seed=2,
                              workers=1)
    assert sum(a.played for a in res.agents) == 8
