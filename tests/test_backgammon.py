"""Backgammon's rules on hand-made positions, invariants under random play, the hidden
dice, EPIC's episodes and the searches playing it (UCT and its ICARUS playouts)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spyglass.agents import registry as agents
from spyglass.arena.match import play_match
from spyglass.games import registry
from spyglass.games.backgammon import kernel as K
from spyglass.games.backgammon.episodes import ROLL, episode
from spyglass.games.backgammon.game import Backgammon
from spyglass.rng import make_rng

GAME = Backgammon()


def position(p: int, d1: int, d2: int, own: dict[int, int], opp: dict[int, int],
             bar: int = 0, off: int | None = None) -> np.ndarray:
    """Seat ``p`` to play ``d1``-``d2``; ``own``/``opp``: checkers by ``p``'s own point
    numbers (1-24); the rest of ``p``'s 15 are borne off unless ``off`` says otherwise."""
    s = np.zeros(K.STATE_SIZE, dtype=np.int64)
    sign = 1 if p == 0 else -1
    for q, n in own.items():
        s[K.index_of(p, q)] = sign * n
    for q, n in opp.items():
        s[K.index_of(p, q)] = -sign * n
    s[K.BAR0 + p] = bar
    s[K.OFF0 + p] = 15 - sum(own.values()) - bar if off is None else off
    s[K.OFF0 + 1 - p] = 15 - sum(opp.values())
    s[K.RESULT] = K.PLAYING
    s[K.MAX_TURNS] = 500
    s[K.DRNG] = 12345
    K._start_turn(s, p, d1, d2)
    return s


def moves(s: np.ndarray) -> list[str]:
    return [GAME.action_text(a) for a in GAME.legal_actions(s)]


@pytest.mark.parametrize("p", [0, 1])
def test_opening_moves_and_the_same_for_either_seat(p):
    s = position(p, 3, 1, {24: 2, 13: 5, 8: 3, 6: 5}, {1: 2, 12: 5, 17: 3, 19: 5})
    assert moves(s) == ["6/5", "6/3", "8/7", "8/5", "13/10", "24/23", "24/21"]  # 12 held
    assert s[K.LEFT] == 2


def test_a_checker_on_the_bar_must_enter_first_and_blocked_points_are_closed():
    s = position(0, 6, 5, {13: 14}, {19: 2, 20: 2, 21: 2, 22: 2, 23: 2, 24: 2}, bar=1)
    assert moves(s) == ["pass"]  # a closed board: no entry, no other move
    s = position(0, 6, 2, {13: 14}, {19: 2, 23: 1}, bar=1)
    # bar/19 (6) is blocked; bar/23 (2) enters, hitting the blot
    assert moves(s) == ["bar/23"]
    K.apply(s, GAME.legal_actions(s)[0])
    assert s[K.BAR1] == 1 and s[K.index_of(0, 23)] == 1
    assert moves(s) == ["13/7", "23/17"]


def test_both_dice_must_be_played_when_possible():
    # 6-1: the 6 from 8 lands on a blocked 2; 1 then 6 (8/7/1) plays both, so 8/7 is
    # legal, and nothing else lets both dice play.
    s = position(0, 6, 1, {8: 1}, {2: 2, 6: 2, 1: 0, 20: 2}, off=14)
    assert s[K.LEFT] == 2
    assert moves(s) == ["8/7"]


def test_the_larger_die_when_only_one_can_be_played():
    # 6-5 with one checker on 12: 12/6 or 12/7 but then no second move (points 1 and 2
    # are blocked); only the larger die may be played.
    s = position(0, 6, 5, {12: 1}, {1: 2, 2: 2}, off=14)
    assert s[K.LEFT] == 1
    assert moves(s) == ["12/6"]


def test_doubles_are_four_moves():
    s = position(0, 2, 2, {24: 2, 13: 13}, {})
    assert s[K.LEFT] == 4 and s[K.NHI] == 4
    for _ in range(4):
        assert K.actor(s) == 0
        K.apply(s, GAME.legal_actions(s)[0])
    assert K.actor(s) == 1


def test_bearing_off_exact_and_from_the_highest_point_only():
    s = position(0, 6, 2, {5: 2, 2: 1}, {}, off=12)
    # the 6 bears off from the highest point (5) only; the 2 bears off 2 or moves 5/3
    assert moves(s) == ["2/off", "5/3", "5/off(6)"]
    s = position(0, 4, 3, {7: 1, 3: 1}, {}, off=13)
    # not all home: no bearing off before 7/4 or 7/3
    assert moves(s) == ["7/4", "7/3"]


def test_winning_and_gammon_scoring():
    for scoring, pts in (("winloss", 1), ("gammons", 2), ("full", 2)):
        s = position(0, 6, 5, {1: 1}, {13: 15}, off=14)  # o bore off nothing: a gammon
        s[K.SCORING] = ("winloss", "gammons", "full").index(scoring)
        K.apply(s, GAME.legal_actions(s)[0])
        assert K.is_terminal(s) and s[K.RESULT] == 0 and K.points(s) == pts
        most = 1 + s[K.SCORING]
        assert K.reward(s, 0) == pytest.approx((1 + pts / most) / 2)
        assert K.reward(s, 0) + K.reward(s, 1) == pytest.approx(1.0)
    s = position(0, 6, 5, {1: 1}, {3: 15}, off=14)  # o still in x's home: a backgammon
    s[K.SCORING] = K.FULL
    K.apply(s, GAME.legal_actions(s)[0])
    assert K.points(s) == 3 and K.reward(s, 1) == 0.0
    s[K.SCORING] = K.GAMMONS
    assert K.points(s) == 2 and K.reward(s, 0) == 1.0 and K.reward(s, 1) == 0.0


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_random_play_keeps_checkers_and_plays_the_dice(seed):
    s = GAME.new_state(seed)
    rng = np.random.default_rng(seed)
    turn_moves, turn_left = 0, int(s[K.LEFT])
    while not K.is_terminal(s):
        for j in range(2):
            on = sum(int(x) for x in s[:24] if (x > 0 if j == 0 else x < 0))
            assert abs(on) + s[K.BAR0 + j] + s[K.OFF0 + j] == 15
        p = K.actor(s)
        acts = GAME.legal_actions(s)
        a = acts[int(rng.integers(len(acts)))]
        if a != K.PASS:
            assert a % 6 + 1 in (s[K.HI], s[K.LO]), "a move not of a die shown"
            turn_moves += 1
        K.apply(s, a)
        if K.actor(s) != p:
            assert turn_moves == turn_left <= (4 if turn_left > 2 else 2)
            turn_moves, turn_left = 0, int(s[K.LEFT])


def test_future_dice_are_hidden_and_redrawn_by_sample():
    s = GAME.new_state(7)
    v = GAME.view(s, 0)
    assert v[K.DRNG] == 0 and (GAME.view(s, 1) == v).all()
    rolls = set()
    rng = make_rng(3)
    for _ in range(30):
        t = np.zeros_like(s)
        assert K.sample(v, 0, rng, t)
        assert (GAME.view(t, 0) == v).all()
        while K.actor(t) == K.actor(s):  # finish this turn: the next roll shows
            K.apply(t, GAME.legal_actions(t)[0])
        rolls.add((int(t[K.HI]), int(t[K.LO])))
    assert len(rolls) > 5  # different determinizations, different dice
    assert (GAME.new_state(7) == s).all()


def test_the_roll_after_a_turn_is_in_the_observation_and_a_chance_node():
    s = GAME.new_state(2)
    assert not K.move_reveals(s) or s[K.LEFT] <= 1
    while s[K.LEFT] > 1:
        K.apply(s, GAME.legal_actions(s)[0])
    assert K.move_reveals(s)
    a = GAME.legal_actions(s)[0]
    obs = K.observe(s, a, 0)
    t = s.copy()
    K.apply(t, a)
    text = GAME.observation_text(obs, 0, int(K.actor(s)))
    assert f"rolled {t[K.HI]}-{t[K.LO]}" in text


def test_epic_episodes_are_turns():
    s = GAME.new_state(4)
    labels = []
    while not K.is_terminal(s) and len(labels) < 40:
        p = K.actor(s)
        a = GAME.legal_actions(s)[0]
        K.apply(s, a)
        labels.append((episode(s, a), K.actor(s) != p or K.is_terminal(s)))
    assert labels and all((lab == ROLL) == ended and not K.is_terminal(s) or lab == -1
                          for lab, ended in labels)
    assert any(lab == ROLL for lab, _ in labels)


def test_uct_and_icarus_uct_play_backgammon_to_the_end():
    game = registry.make("backgammon")
    lineup = ["uct:iterations=30,enhance=epic+mast", "uct:iterations=30"]
    r = play_match(game, lineup, seed=3)
    assert r.error is None and sorted(r.rewards) == [0.0, 1.0]
    a = agents.make("uct", iterations=10, enhance="rave")  # AMAF in the MO-ISMCTS trees
    s = game.new_state(0)
    seat = int(K.actor(s))
    a.start(game, seat, game.view(s, seat), 0)
    assert a.act(game.view(s, seat), game.legal_actions(s)) in game.legal_actions(s)


def test_uct_beats_random_players():
    game = registry.make("backgammon")
    wins = 0
    for i in range(2):
        lineup = ["uct:iterations=60", "random"][:: 1 if i % 2 == 0 else -1]
        r = play_match(game, lineup, seed=i)
        wins += r.rewards[i % 2] == 1.0
    assert wins == 2


@pytest.mark.slow
def test_uct_beats_random_players_often():
    game = registry.make("backgammon")
    wins = 0
    for i in range(20):
        lineup = ["uct:iterations=200", "random"][:: 1 if i % 2 == 0 else -1]
        wins += play_match(game, lineup, seed=100 + i).rewards[i % 2] == 1.0
    assert wins >= 17


def test_cli_game_records_and_replays(cli, tmp_path):
    rec = tmp_path / "bg.jsonl"
    r = cli("game", "--game", "backgammon", "--seed", "1", "--record", rec)
    assert r.exit_code == 0, r.output
    assert "rolled" in r.output and "won (1 point(s))" in r.output
    check = cli("replay", rec, "--check")
    assert check.exit_code == 0 and "1 of 1 game(s) replay exactly" in check.output


def test_cli_play_shows_the_board_and_refuses_a_bad_move(cli):
    r = cli("play", "--game", "backgammon", "--seed", "3", "--agent", "random",
            input="8/5\nq\n")
    assert r.exit_code == 0, r.output
    out = r.output
    assert "13  14  15" in out and "you are x (seat 0)" in out and "dice 4-1" in out
    assert "is not a legal move here" in out and "you left the game" in out


def test_uct_on_backgammon_is_seeded():
    game = registry.make("backgammon")
    s = game.new_state(11)
    seat = int(K.actor(s))
    v, legal = game.view(s, seat), game.legal_actions(s)
    picks = []
    for _ in range(2):
        a = agents.make("uct", iterations=300, seed=4)
        a.start(game, seat, v, 0)
        picks.append((a.act(v, legal), a.last.iterations, a.last.action_stats()))
    assert picks[0] == picks[1] and picks[0][1] == 300


def test_the_chapter_8_experiment_takes_backgammon():
    from spyglass.experiments import icarus as X

    assert X.combos_for("backgammon")[:8] == [n for n in X.RUN_ORDER if "R" not in n]
    wins = X.play_cell("backgammon", "E", 5, 1, 1)
    assert len(wins) == 1 and set(wins) <= {0, 1}
    assert wins == X.play_cell("backgammon", "E", 5, 1, 1)  # seeded
