"""Hearts (one deal) side by side with OpenSpiel's ``hearts`` under matching options.

A rules cross-check against an independent implementation (Lanctot et al. 2019,
OpenSpiel): seeded random deals are played in both at once, move by move. Our deal is
fed to OpenSpiel as its chance moves (the pass direction, then the 52 cards dealt round
the table), and every pass and card is then the same action id in both (``rank * 4 +
suit``). Asserted at every step: the player to move, the legal action set, and each
player's information (OpenSpiel's information state string, parsed: current hand, cards
passed and received, every card played and by whom, points) against our view; at the
end, the points (OpenSpiel's return is ``26 - points``). Each of OpenSpiel's eight
boolean options is exercised. Needs the ``crosscheck`` extra; skipped without it.
"""

from __future__ import annotations

import numpy as np
import pytest

from spyglass.games.hearts import kernel as K
from spyglass.games.hearts.game import DIRECTIONS, RULE_FLAGS, Hearts

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install -e '.[crosscheck]')"
)

RANKS = "23456789TJQKA"
SUITS = "CDHS"


def card_id(text: str) -> int:
    return RANKS.index(text[0]) * 4 + SUITS.index(text[1])


def mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def parse_info(info: str) -> dict:
    """Hand, passed, received, played-by-seat and points from an information state."""
    lines = info.split("\n")
    out = {"hand": 0, "passed": 0, "received": 0, "played": [0, 0, 0, 0],
           "points": [0, 0, 0, 0]}
    i = lines.index("Hand: ")
    for row in lines[i + 1:i + 5]:
        suit = SUITS.index(row[0])
        if row.endswith("none"):
            continue
        for ch in row[2:]:
            out["hand"] |= 1 << (RANKS.index(ch) * 4 + suit)
    for line in lines:
        if line.startswith("Passed Cards: "):
            out["passed"] = mask(card_id(t) for t in line[len("Passed Cards: "):].split())
        elif line.startswith("Received Cards: "):
            out["received"] = mask(card_id(t) for t in line[len("Received Cards: "):].split())
    if "Tricks:" in lines:
        j = lines.index("Tricks:") + 2
        while j < len(lines) and lines[j] and not lines[j].startswith("Points"):
            row = lines[j]
            leader = (len(row) - len(row.lstrip(" "))) // 3
            for k, t in enumerate(row.split()):
                out["played"][(leader + k) % 4] |= 1 << card_id(t)
            j += 1
    if "Points:" in lines:
        j = lines.index("Points:")
        out["points"] = [int(lines[j + 1 + p].split(": ")[1]) for p in range(4)]
    return out


def play_side_by_side(os_game, game: Hearts, seed: int) -> int:
    """One random deal in both implementations; returns the number of moves."""
    rng = np.random.default_rng(seed)
    s = game.new_state(seed)
    k = game.kernel
    st = os_game.new_initial_state()
    st.apply_action(int(s[K.PASS_DIR]))
    hands = [[c for c in range(52) if (int(s[K.HAND + p]) >> c) & 1] for p in range(4)]
    for i in range(52):
        st.apply_action(hands[i % 4][i // 4])
    moves = 0
    while True:
        assert st.is_terminal() == bool(k.is_terminal(s)), (seed, moves)
        if st.is_terminal():
            break
        p = st.current_player()
        assert p == k.actor(s), (seed, moves)
        legal = game.legal_actions(s)
        assert list(st.legal_actions()) == legal, (seed, moves)
        for j in range(4):
            info = parse_info(st.information_state_string(j))
            v = game.view(s, j)
            assert info["hand"] == int(v[K.V_HAND]), (seed, moves, j)
            assert info["passed"] == int(v[K.V_PASSED]), (seed, moves, j)
            assert info["received"] == int(v[K.V_RECEIVED]), (seed, moves, j)
            assert info["played"] == [int(v[K.V_PLAYED + q]) for q in range(4)], (seed, moves)
            assert info["points"] == [int(v[K.V_POINTS + q]) for q in range(4)], (seed, moves)
        a = legal[int(rng.integers(len(legal)))]
        st.apply_action(a)
        k.apply(s, a)
        moves += 1
    returns = st.returns()
    points = game.scores(s)
    assert [26 - x for x in points] == [round(r) for r in returns], seed
    # The placing reward ranks by those returns (ties share).
    order = sorted(returns, reverse=True)
    for j in range(4):
        places = [i for i, r in enumerate(order) if r == returns[j]]
        want = sum((1.0, 0.5, 0.5, 0.0)[i] for i in places) / len(places)
        assert game.rewards(s)[j] == pytest.approx(want)
    return moves


OPTION_SETS = [
    {},
    {"no_pts_on_first_trick": False, "qs_breaks_hearts": False},
    {"can_lead_any_club": True, "jd_bonus": True, "avoid_all_tricks_bonus": True},
    {"must_break_hearts": False, "can_lead_hearts_instead_of_qs": True},
    {"can_lead_hearts_instead_of_qs": True, "qs_breaks_hearts": False},
    {"pass_cards": False, "jd_bonus": True},
]


def games_for(options: dict):
    os_game = pyspiel.load_game("hearts", options)
    assert os_game.num_distinct_actions() == 52
    ours = {d: Hearts(target=0, pass_direction=d, **options) for d in DIRECTIONS}
    return os_game, ours


def run_games(options: dict, seeds: range) -> int:
    os_game, ours = games_for(options)
    total = 0
    for seed in seeds:
        d = "none" if options.get("pass_cards") is False else DIRECTIONS[seed % 4]
        total += play_side_by_side(os_game, ours[d], seed)
    return total


def test_option_names_are_openspiels():
    params = pyspiel.load_game("hearts").get_parameters()
    assert sorted(params) == sorted(name for name, _f, _d in RULE_FLAGS)
    for name, _flag, default in RULE_FLAGS:
        assert params[name] == default, name


@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_hearts_matches_openspiel(options):
    n = 1000 if not options else 200
    total = run_games(options, range(n))
    assert total >= n * 52


@pytest.mark.slow
@pytest.mark.parametrize("options", OPTION_SETS, ids=lambda o: ",".join(o) or "defaults")
def test_hearts_matches_openspiel_many(options):
    run_games(options, range(1000, 21000))
