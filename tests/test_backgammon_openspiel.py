"""Backgammon side by side with OpenSpiel's ``backgammon`` (Lanctot et al. 2019).

Seeded random games are played in both implementations at once, with OpenSpiel's chance
outcomes driven by our dice (who starts, the opening roll, every later roll). Our action
is one checker move; OpenSpiel's is two checker moves (a half-turn on doubles, which it
plays as two actions of the same player). So the legal moves are compared at OpenSpiel's
level: at every OpenSpiel decision, the set of positions (points, bars, borne-off
checkers) its legal actions lead to must equal the set our legal sequences of up to two
checker moves lead to (fewer where our turn ends sooner). A random OpenSpiel action is
played and one of our sequences reaching the same position with it. After every turn the
player to move must agree; at the end the winner and the returns (OpenSpiel's ±1, or ±1,
±2 with ``enable_gammons``, ±3 with ``full_scoring``: ours are the same points scaled into [0, 1]).

Needs OpenSpiel (``pip install open_spiel``); skipped without it. ``-m slow`` plays
thousands of games.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

from spyglass.games.backgammon import kernel as K
from spyglass.games.backgammon.game import Backgammon

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")

OS_SCORING = {"winloss": "winloss_scoring", "gammons": "enable_gammons",
              "full": "full_scoring"}
_SCORES = re.compile(r"Scores, X: (\d+), O: (\d+)")
_ROLL = re.compile(r"roll: (\d)(\d)")


def os_position(st) -> tuple[int, ...]:
    """OpenSpiel's position in our layout: 24 signed points, the bars, the borne off."""
    pts = [st.board(0, p) - st.board(1, p) for p in range(24)]
    off = [int(x) for x in _SCORES.search(str(st)).groups()]
    bars = [15 - off[j] - sum(st.board(j, p) for p in range(24)) for j in range(2)]
    return tuple(pts + bars + off)


def our_position(s: np.ndarray) -> tuple[int, ...]:
    return tuple(int(x) for x in s[:28])


def our_sequences(s: np.ndarray, depth: int, p: int) -> dict[tuple[int, ...], list[int]]:
    """Positions reachable by up to ``depth`` of ``p``'s checker moves in this turn
    (stopping where the turn ends) -> one sequence reaching each."""
    out: dict[tuple[int, ...], list[int]] = {}

    def walk(t: np.ndarray, seq: list[int]) -> None:
        if len(seq) == depth or K.actor(t) != p:
            out.setdefault(our_position(t), seq)
            return
        for i in range(int(K.n_legal(t))):
            a = int(K.legal_action(t, i))
            u = t.copy()
            K.apply(u, a)
            walk(u, [*seq, a])

    walk(s.copy(), [])
    return out


def chance_outcome(st, first: int | None, hi: int, lo: int) -> int:
    """OpenSpiel's chance outcome for the roll ``hi``-``lo`` (and who starts, at first)."""
    for a, _ in st.chance_outcomes():
        text = st.action_to_string(pyspiel.PlayerId.CHANCE, a)
        d = sorted(int(x) for x in _ROLL.search(text).groups())
        if d != [lo, hi]:
            continue
        if first is None or ("X starts" in text) == (first == 0):
            return a
    raise AssertionError(f"no OpenSpiel outcome for {hi}-{lo} (first {first})")


def play_side_by_side(os_game, game: Backgammon, seed: int) -> tuple[int, int]:
    """One game in both; returns (our checker moves, OpenSpiel decisions)."""
    rng = np.random.default_rng(seed)
    st = os_game.new_initial_state()
    s = game.new_state(seed)
    st.apply_action(chance_outcome(st, int(s[K.TO_MOVE]), int(s[K.HI]), int(s[K.LO])))
    moves = decisions = 0
    while not st.is_terminal():
        assert not K.is_terminal(s), f"seed {seed}: ours ended first"
        if st.is_chance_node():
            st.apply_action(chance_outcome(st, None, int(s[K.HI]), int(s[K.LO])))
            continue
        p = st.current_player()
        # OpenSpiel's second half of a double is a pass when our turn already ended
        # (no third die could be played); the set comparison checks that.
        assert p == K.actor(s) or "Extra turn: 1" in str(st), f"seed {seed}: players differ"
        assert os_position(st) == our_position(s), f"seed {seed}: positions differ"
        theirs: dict[tuple[int, ...], int] = {}
        for a in st.legal_actions():
            c = st.clone()
            c.apply_action(a)
            theirs.setdefault(os_position(c), a)
        ours = our_sequences(s, 2, p)
        assert set(theirs) == set(ours), (
            f"seed {seed}: legal moves differ at\n{st}\nonly OpenSpiel: "
            f"{[st.action_to_string(a) for p, a in theirs.items() if p not in ours]}\n"
            f"only ours: {[ours[p] for p in ours if p not in theirs]}")
        keys = sorted(theirs)
        pick = keys[int(rng.integers(len(keys)))]
        st.apply_action(theirs[pick])
        for a in ours[pick]:
            K.apply(s, a)
            moves += 1
        decisions += 1
    assert K.is_terminal(s), f"seed {seed}: OpenSpiel ended first"
    returns = st.returns()
    mine = game.rewards(s)
    scale = {"winloss": 1, "gammons": 2, "full": 3}[game.settings["scoring"]]
    assert [round((2 * r - 1) * scale, 9) for r in mine] == [round(r, 9) for r in returns], (
        f"seed {seed}: returns {returns} vs ours {mine}")
    return moves, decisions


def _run(n_games: int, scoring: str, first_seed: int) -> None:
    os_game = pyspiel.load_game("backgammon", {"scoring_type": OS_SCORING[scoring]})
    game = Backgammon(scoring=scoring)
    total = 0
    for seed in range(first_seed, first_seed + n_games):
        total += play_side_by_side(os_game, game, seed)[0]
    assert total > 50 * n_games  # real games were played


def test_random_games_match_openspiel():
    _run(20, "winloss", 0)


@pytest.mark.parametrize("scoring", ["gammons", "full"])
def test_random_games_with_gammons_match_openspiel(scoring):
    _run(6, scoring, 10_000)


@pytest.mark.slow
@pytest.mark.parametrize("block", range(4))
@pytest.mark.parametrize("scoring", ["winloss", "gammons", "full"])
def test_thousands_of_random_games_match_openspiel(scoring, block):
    """1,000 games per scoring (3,000 in all), in blocks of 250 to stay within the
    per-test timeout on a loaded machine."""
    first = {"winloss": 100_000, "gammons": 200_000, "full": 300_000}[scoring]
    _run(250, scoring, first + 250 * block)
