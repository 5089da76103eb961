"""The drawn views' data (spyglass/web/views.py) for Checkers, Backgammon, Dou Di Zhu,
Mini Dou Di Zhu, Saboteur, LOTR:C and Scotland Yard: a seat's structured view is the same for every
state the seat cannot tell apart (so it shows nothing hidden from the seat), and what the
page is told about each legal move (its squares, points, cards) says the same move as the
game's words."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

from spyglass.games.registry import make
from spyglass.rng import make_rng
from spyglass.web.views import game_details, move_details


def _playout(name: str, options: dict, seed: int):
    """(game, state, seat, that seat's history) at every step of a random game."""
    g = make(name, **options)
    k, rng = g.kernel, random.Random(seed)
    s = g.new_state(seed)
    hist: dict[int, list] = {j: [] for j in range(g.n_players)}
    while legal := g.legal_actions(s):
        yield g, s, legal, hist
        actor, a = int(k.actor(s)), rng.choice(legal)
        for j in hist:
            hist[j].append((int(k.observe(s, a, j)), actor, g.view(s, j)))
        s = s.copy()
        k.apply(s, a)


@pytest.mark.parametrize("name,options", [
    ("checkers", {}), ("backgammon", {"max_turns": 12}), ("doudizhu", {}),
    ("doudizhu", {"bidding": True}), ("minidoudizhu", {}), ("saboteur", {"n_players": 3}),
    ("lotrc", {"max_turns": 30}), ("lotrc", {"setup": "placed", "max_turns": 20}),
    ("scotlandyard", {"detectives": 2, "rounds": 8}),
    ("scotlandyard", {"n_players": 3, "detectives": 2, "rounds": 8})])
def test_a_seats_drawn_view_is_the_same_across_its_information_set(name, options):
    rng = make_rng(5)
    steps = 0
    for g, s, _legal, hist in _playout(name, options, 5):
        for j in hist:
            view = g.view(s, j)
            mine = json.dumps(game_details(g, view, j, hist[j]), sort_keys=True)
            other = np.zeros_like(s)
            assert g.kernel.sample(view, j, rng, other)
            assert json.dumps(game_details(g, g.view(other, j), j, hist[j]),
                              sort_keys=True) == mine
        steps += 1
    assert steps > 5


CHARS = {"doudizhu": "3456789TJQKA2BR", "minidoudizhu": "JQKABR"}


@pytest.mark.parametrize("name,options", [
    ("checkers", {}), ("backgammon", {"max_turns": 12}), ("doudizhu", {}),
    ("minidoudizhu", {}), ("saboteur", {"n_players": 3}),
    ("lotrc", {"setup": "placed", "max_turns": 30}),
    ("scotlandyard", {"detectives": 2, "rounds": 8})])
def test_legal_moves_as_the_page_is_told_them_match_the_games_words(name, options):
    seen = 0
    for g, _s, legal, _hist in _playout(name, options, 8):
        for a in legal:
            m = move_details(g, a)
            text = g.action_text(a, g.view(_s, int(g.kernel.actor(_s))))
            if name == "checkers":
                sq = lambda x: f"{'abcdefgh'[x % 8]}{8 - x // 8}"  # noqa: E731
                assert sq(m["from"]) + sq(m["to"]) == text
                assert m["jump"] == (abs(m["to"] - m["from"]) > 9)
            elif name == "backgammon":
                if text == "pass":
                    assert m == {}
                    continue
                src, dst = text.split("/")
                assert src == ("bar" if m["from"] == 25 else str(m["from"]))
                assert dst.startswith("off") if m["to"] == 0 else dst == str(m["to"])
            elif name == "lotrc":
                from spyglass.games.lotrc.game import char_name
                from spyglass.games.lotrc.kernel import REGION_NAMES
                side = int(g.kernel.actor(_s))
                if "to" in m:
                    assert text == f"{char_name(9 * side + m['from'])}>{REGION_NAMES[m['to']]}"
                elif text.startswith("retreat>"):  # a region marked on the board
                    assert text == f"retreat>{REGION_NAMES[m['retreat']]}"
                else:
                    assert text.startswith("card:") == ("card" in m)
            elif name == "scotlandyard":
                assert text == (f"{m['ticket']} {m['to']}" if m else text) and (
                    bool(m) == (text not in ("double", "pass")))
            elif name == "saboteur":
                from spyglass.games.saboteur.game import card_text, cell_text, tunnel_text
                if "rot" in m:
                    assert text == f"{tunnel_text(m['card'], m['rot'])} {cell_text(m['cell'])}"
                elif m.get("discard"):
                    assert text == f"discard {card_text(m['card'])}"
                elif "target" in m:
                    assert text.startswith(("break", "repair")) and m["tool"] in text
                    assert text.split()[2] == str(m["target"])
                else:
                    assert text.endswith(cell_text(m["cell"]))
            elif text in ("pass",) or text.startswith("bid"):
                assert m == {}
            else:
                cards = "".join(CHARS[name][r] for r in m["cards"])
                assert cards == text.split("+")[0] or (m["kicker"] and "+" + cards == text)
                if name == "doudizhu" and not m["kicker"]:
                    assert m["kickers"] == text.count("s") + text.count("p") \
                        if "+" in text else m["kickers"] == 0
            seen += 1
    assert seen > 20


def test_scotland_yard_map_places_every_station_once_inside_the_board():
    from spyglass.games.scotlandyard.board import EDGES, station_positions

    xy = station_positions()
    assert len(xy) == 199 and len(set(xy)) == 199
    assert all(0 <= x <= 1620 and 0 <= y <= 1210 for x, y in xy)
    # Taxi rides are short on the printed board: no taxi edge crosses half the map.
    assert max(abs(xy[a - 1][0] - xy[b - 1][0]) for a, b, t in EDGES if t == 0) < 400
