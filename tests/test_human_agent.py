"""The terminal player reads what a person types as the game names it (issue 32, item 9):
the game parses first, a name the game knows but that is not legal now is refused (never
reinterpreted as a position in the move list), and a bare ``q`` quits only where it names
no move."""

from __future__ import annotations

import numpy as np
import pytest

from spyglass.agents.human import HumanAgent, HumanQuit
from spyglass.games.base import IllegalMove
from spyglass.games.registry import make


def _typist(answers: list[str]) -> tuple[HumanAgent, list[str]]:
    lines: list[str] = []
    it = iter(answers)
    return HumanAgent(read=lambda prompt: next(it), write=lines.append), lines


def _position(game, want, seed_range=range(200)):
    """The first seeded position (state, seat, view, legal) where ``want(game, view,
    legal)`` holds, playing first-legal moves from each deal."""
    for seed in seed_range:
        state = game.new_state(seed)
        k = game.kernel
        for _ in range(40):
            if k.is_terminal(state):
                break
            seat = int(k.actor(state))
            view, legal = game.view(state, seat), game.legal_actions(state)
            if want(game, view, legal):
                return state, seat, view, legal
            k.apply(state, legal[0])
    raise AssertionError("no such position in the seeds tried")


def _names(game, view, legal):
    return {game.action_text(a, view) for a in legal}


def test_a_rank_not_held_is_refused_not_read_as_a_list_position():
    game = make("doudizhu")
    # The player may play singles but holds no 7, and the list has at least 7 moves:
    # the old reader played legal[6] (a different card) for "7".
    _, seat, view, legal = _position(
        game, lambda g, v, lg: "7" not in _names(g, v, lg) and "8" in _names(g, v, lg)
        and len(lg) >= 7)
    with pytest.raises(IllegalMove):
        game.parse_action("7", legal, view)
    human, lines = _typist(["7", "8"])
    human.start(game, seat, view, 0)
    played = human.act(view, legal)
    assert game.action_text(played, view) == "8"
    assert any("'7' is not a legal move" in line for line in lines)


def test_q_plays_the_queen_where_it_names_a_move():
    game = make("minidoudizhu")
    _, seat, view, legal = _position(game, lambda g, v, lg: "Q" in _names(g, v, lg))
    human, _ = _typist(["q"])
    human.start(game, seat, view, 0)
    assert game.action_text(human.act(view, legal), view) == "Q"


@pytest.mark.parametrize("word", ["q", "quit", "Q"])
def test_q_quits_where_it_names_no_move(word):
    game = make("phantom")
    state = game.new_state(1)
    seat = int(game.kernel.actor(state))
    view, legal = game.view(state, seat), game.legal_actions(state)
    human, _ = _typist([word])
    human.start(game, seat, view, 0)
    with pytest.raises(HumanQuit):
        human.act(view, legal)


def test_numbers_still_pick_from_the_list_where_they_name_no_move():
    game = make("phantom")
    state = game.new_state(1)
    seat = int(game.kernel.actor(state))
    view, legal = game.view(state, seat), game.legal_actions(state)
    human, _ = _typist(["3"])
    human.start(game, seat, view, 0)
    assert human.act(view, np.asarray(legal).tolist()) == legal[2]


def test_a_card_not_held_in_hearts_is_refused():
    game = make("hearts")
    _, seat, view, legal = _position(game, lambda g, v, lg: "2♣" not in _names(g, v, lg))
    with pytest.raises(IllegalMove):
        game.parse_action("2c", legal, view)
