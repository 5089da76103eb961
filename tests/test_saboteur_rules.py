"""Saboteur's rules on hand-checked scripted positions, and a connectivity invariant.

References: Whitehouse 2014, §4.2.13 (the game as the thesis used it: hidden roles, hands
of six from a common stock, three goal cards one of which is gold, tunnel, rockfall,
broken-tool and map cards) and §7.5.5; the published card game's rules (Moyersoen 2004)
for the counts, the layout and the card effects (see :mod:`spyglass.games.saboteur.kernel`).
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from spyglass.games import registry
from spyglass.games.saboteur import kernel as K
from spyglass.games.saboteur.game import Saboteur, cell_text
from spyglass.rng import make_rng

NS, EW, CURVE_NE, CURVE_NW, T_NEW, T_NES, CROSS = range(7)
X_N, X_E, X_NE, X_NS, X_NW, X_EW, X_NES, X_NEW, X_CROSS = range(7, 16)


def cell(name: str) -> int:
    """``"c4"`` -> the cell index (column letter, row number from the top)."""
    return (int(name[1:]) - 1) * K.COLS + ord(name[0]) - ord("a")


def place_id(t: int, rot: int, where: str) -> int:
    return (t * 2 + rot) * K.CELLS + cell(where)


def position(n_players: int = 4, hands: dict | None = None, board: dict | None = None,
             goals=(0, 1, 2), saboteurs=(3,), stock=(), to_move: int = 0) -> np.ndarray:
    """A scripted state: ``hands`` seat -> card types, ``board`` cell name -> (type, rot)
    tunnel cards, ``goals`` the goal card at j2, j4, j6, ``stock`` drawn from its end
    (the last seat holds no cards: the rest of the deck is its discards)."""
    roles = np.array([1 if q in saboteurs else 0 for q in range(n_players)], dtype=np.int64)
    deck = np.zeros(K.DECK_SIZE, dtype=np.int64)
    s = K.new_state(n_players, roles, np.array(goals, dtype=np.int64), deck)
    s[K.HAND:K.DISC] = 0
    for q in range(n_players):
        cards = (hands or {}).get(q, [])
        for t in cards:
            s[K.HAND + q * K.N_TYPES + t] += 1
        s[K.HAND_N + q] = len(cards)
    for i, t in enumerate(stock):
        s[K.STOCK + i] = t
    s[K.STOCK_N] = len(stock)
    for name, (t, rot) in (board or {}).items():
        s[K.CELL + cell(name)] = 1 + 2 * t + rot
    # The cards nobody holds lie in the last seat's face-down discards, so that the
    # position's cards add up to the deck (what a determinization deals out).
    rest = K.COUNTS.copy()
    rest -= s[K.HAND:K.HAND + n_players * K.N_TYPES].reshape(n_players, K.N_TYPES).sum(0)
    rest -= np.bincount(np.array(stock, dtype=np.int64), minlength=K.N_TYPES)
    for t, _ in (board or {}).values():
        rest[t] -= 1
    assert (rest >= 0).all()
    last = n_players - 1
    s[K.DISC + last * K.N_TYPES:K.DISC + (last + 1) * K.N_TYPES] = rest
    s[K.DISC_N + last] = rest.sum()
    s[K.TO_MOVE] = to_move
    K.compute_reach(s)
    return s


def legal(s: np.ndarray) -> list[int]:
    out = np.empty(K.N_ACTIONS, dtype=np.int64)
    return out[: K.legal_actions(s, out)].tolist()


def placements(s: np.ndarray) -> set[str]:
    g = Saboteur(int(s[K.NP]))
    return {g.action_text(a) for a in legal(s) if a < K.PLACE_N}


# --- the set-up (published rules) -----------------------------------------------------


def test_the_deck_roles_and_hands_are_the_published_counts():
    assert K.COUNTS[: K.N_TUNNEL].sum() == 40 and K.COUNTS[K.N_TUNNEL:].sum() == 27
    assert K.COUNTS[: K.N_PASSAGE].sum() == 31  # 9 dead ends, one of each shape
    assert (K.COUNTS[K.BREAK_PICK:K.REPAIR_PICK] == 3).all()
    assert (K.COUNTS[K.REPAIR_PICK:K.REPAIR_PL] == 2).all()
    assert (K.COUNTS[K.REPAIR_PL:K.ROCKFALL_CARD] == 1).all()
    assert K.COUNTS[K.ROCKFALL_CARD] == 3 and K.COUNTS[K.MAP_CARD] == 6
    assert [int(K.SABOTEURS[n]) for n in range(3, 11)] == [1, 1, 2, 2, 3, 3, 3, 4]
    assert [int(K.DIGGERS[n]) for n in range(3, 11)] == [3, 4, 4, 5, 5, 6, 7, 7]
    assert [int(K.HAND_SIZES[n]) for n in range(3, 11)] == [6, 6, 6, 5, 5, 4, 4, 4]
    for n in (3, 7, 10):
        g = registry.make("saboteur", n)
        s = g.new_state(5)
        hs = int(K.HAND_SIZES[n])
        assert [int(s[K.HAND_N + q]) for q in range(n)] == [hs] * n
        assert int(s[K.STOCK_N]) == 67 - n * hs
        hands = s[K.HAND:K.HAND + n * K.N_TYPES].reshape(n, K.N_TYPES).sum(0)
        stock = np.bincount(s[K.STOCK:K.STOCK + int(s[K.STOCK_N])], minlength=K.N_TYPES)
        assert (hands + stock == K.COUNTS).all()
        assert sum(g.saboteurs(s)) >= 0 and len(g.saboteurs(s)) <= K.SABOTEURS[n]
        assert sorted(int(x) for x in s[K.GOAL_CARD:K.GOAL_CARD + 3]) == [0, 1, 2]


def test_the_goals_lie_seven_spaces_from_the_start_one_space_apart():
    assert cell_text(K.START_CELL) == "b4"
    assert [cell_text(c) for c in K.GOAL_CELLS] == ["j2", "j4", "j6"]  # cols b..j: 7 between


# --- tunnel cards ---------------------------------------------------------------------


def test_a_tunnel_card_must_fit_every_neighbour_and_join_the_start():
    s = position(hands={0: [NS]})
    # An N-S straight fits above and below the start (its openings meet the start's), not
    # beside it (its rock side would face the start's opening).
    assert placements(s) == {"NS b3", "NS b5"}
    s = position(hands={0: [CURVE_NE]})
    # Upright N-E: west of the start? its E opening meets the start's W: a4. Below: b5
    # (N meets the start's S). Turned (S-W): above b3 (S meets N) and right c4 (W meets E).
    assert placements(s) == {"NE a4", "NE b5", "SW b3", "SW c4"}


def test_a_dead_end_blocks_the_tunnel():
    s = position(hands={0: [EW, CROSS]}, board={"c4": (X_EW, 0)})
    got = placements(s)
    # d4 touches the dead end's east stub, but nothing there joins the start.
    assert not any(p.endswith(" d4") for p in got)
    assert "EW a4" in got and "NESW b3" in got


def test_broken_tools_stop_tunnelling_until_repaired():
    s = position(hands={0: [K.BREAK_PICK, NS], 1: [K.REPAIR_PL, NS], 2: [NS]})
    g = Saboteur(4)
    a = g.parse_action("break pick 1", legal(s))
    K.apply(s, a)
    assert s[K.BROKEN + 1] == 1 and s[K.GONE + K.BREAK_PICK] == 1
    assert K.actor(s) == 1
    acts = legal(s)
    assert not any(x < K.PLACE_N for x in acts), "a broken tool forbids tunnel cards"
    # The double repair mends either of its tools, but only a broken one.
    names = {g.action_text(x) for x in acts}
    assert "repair pick 1 with pick/lantern" in names
    assert not any("lantern" in n and n.startswith("repair lantern") for n in names)
    K.apply(s, g.parse_action("repair pick 1 with pick/lantern", acts))
    assert s[K.BROKEN + 1] == 0
    # No two broken tools of one kind on a seat: break pick is illegal on a broken pick.
    s2 = position(hands={0: [K.BREAK_PICK]})
    s2[K.BROKEN + 2] = 1
    names = {g.action_text(x) for x in legal(s2)}
    assert "break pick 2" not in names and "break pick 0" in names


def test_rockfall_removes_a_tunnel_card_and_cuts_what_lay_beyond():
    s = position(hands={0: [K.ROCKFALL_CARD]}, board={"c4": (EW, 0), "d4": (EW, 0)})
    assert s[K.REACH + cell("d4")] == 1
    g = Saboteur(4)
    names = {g.action_text(x) for x in legal(s)}
    assert {"rockfall c4", "rockfall d4"} <= names
    assert "rockfall b4" not in names and "rockfall j4" not in names  # start and goals stay
    K.apply(s, g.parse_action("rockfall c4", legal(s)))
    assert s[K.CELL + cell("c4")] == K.EMPTY
    assert s[K.REACH + cell("d4")] == 0, "d4 is cut off from the start"
    assert s[K.GONE + EW] == 1 and s[K.GONE + K.ROCKFALL_CARD] == 1


def test_a_map_shows_one_goal_to_its_player_only():
    s = position(hands={0: [K.MAP_CARD], 1: [NS]}, goals=(2, 0, 1))
    g = Saboteur(4)
    a = g.parse_action("map j4", legal(s))
    own, other = K.observe(s, a, 0), K.observe(s, a, 1)
    assert "it is gold" in g.observation_text(own, 0, 0)
    assert "gold" not in g.observation_text(other, 1, 0)
    K.apply(s, a)
    v0, v1 = g.view(s, 0), g.view(s, 1)
    assert v0[K.V_GOAL_KNOWN + 1] == K.GOLD and v1[K.V_GOAL_KNOWN + 1] == -1
    assert v1[K.V_PEEKED + 0] == 2  # everyone saw which goal seat 0 looked at
    # Seat 0's determinizations all put the gold at j4; seat 1's do not all.
    rng = make_rng(1)
    t = np.zeros(K.STATE_SIZE, dtype=np.int64)
    golds0, golds1 = set(), set()
    for _ in range(60):
        assert K.sample(v0, 0, rng, t)
        golds0.add(int(np.flatnonzero(t[K.GOAL_CARD:K.GOAL_CARD + 3] == 0)[0]))
        assert K.sample(v1, 1, rng, t)
        golds1.add(int(np.flatnonzero(t[K.GOAL_CARD:K.GOAL_CARD + 3] == 0)[0]))
    assert golds0 == {1} and golds1 == {0, 1, 2}


def _road() -> dict:
    """A tunnel from the start along row 4 to h4 (the deck has only three E-W straights)."""
    return {"c4": (CROSS, 0), "d4": (CROSS, 0), "e4": (CROSS, 0), "f4": (T_NEW, 0),
            "g4": (T_NEW, 0), "h4": (EW, 0)}


def test_reaching_a_stone_goal_turns_it_up_towards_the_tunnel_and_play_goes_on():
    # The gold at j2; j4 holds the N-W stone. An E-W straight on i4 reaches j4 from the
    # west: the stone is turned up as it lies (upright N-W opens west, towards i4).
    s = position(hands={0: [EW, NS], 1: [NS]}, board=_road(), goals=(0, 2, 1))
    g = Saboteur(4)
    a = g.parse_action("EW i4", legal(s))
    obs = K.observe(s, a, 1)
    assert "j4 turned up: stone" in g.observation_text(obs, 1, 0)
    K.apply(s, a)
    assert s[K.RESULT] == K.PLAYING and K.actor(s) == 1
    assert s[K.GOAL_REV + 1] == 1  # upright N-W opens west, towards i4
    assert s[K.REACH + cell("j4")] == 1, "a turned-up stone joins the tunnel"
    # The other stone (N-E) reached from the west opens only after turning (S-W).
    s = position(hands={0: [EW], 1: [NS]}, board=_road(), goals=(0, 1, 2))
    K.apply(s, g.parse_action("EW i4", legal(s)))
    assert s[K.GOAL_REV + 1] == 2 and s[K.RESULT] == K.PLAYING


def test_reaching_the_gold_ends_the_round_for_the_gold_diggers():
    s = position(hands={0: [EW, NS], 1: [NS]}, board=_road(), goals=(1, 0, 2),
                 saboteurs=(1, 3))
    g = Saboteur(4)
    K.apply(s, g.parse_action("EW i4", legal(s)))
    assert s[K.RESULT] == K.DIGGERS_WIN and K.is_terminal(s)
    assert g.rewards(s) == (1.0, 0.0, 1.0, 0.0)
    assert g.win_scores(g.rewards(s)) == [1.0, 0.0, 1.0, 0.0]


def test_a_stone_goal_can_lead_on_to_the_gold():
    # The tunnel reaches j4 (the N-W stone, upright: opens N and W); its north opening
    # meets j3, where an N-S straight reaches the gold on j2.
    s = position(hands={0: [EW], 1: [NS]}, board=_road(), goals=(0, 2, 1))
    g = Saboteur(4)
    K.apply(s, g.parse_action("EW i4", legal(s)))
    assert "NS j3" in placements(s)
    K.apply(s, g.parse_action("NS j3", legal(s)))
    assert s[K.RESULT] == K.DIGGERS_WIN


def test_running_out_of_cards_ends_the_round_for_the_saboteurs():
    # The stock is empty; seat 1 has no cards (skipped); seats 0 and 2 hold one each.
    s = position(hands={0: [NS], 2: [K.MAP_CARD]}, saboteurs=(2,))
    g = Saboteur(4)
    K.apply(s, g.parse_action("discard NS", legal(s)))
    assert K.actor(s) == 2, "a seat with no cards is skipped"
    assert s[K.DISC_N + 0] == 1 and s[K.DISC + 0 * K.N_TYPES + NS] == 1
    obs = K.observe(s, g.parse_action("map j2", legal(s)), 0)
    assert g.observation_text(obs, 0, 2) == "seat 2 played map j2"
    K.apply(s, g.parse_action("discard map", legal(s)))
    assert K.is_terminal(s) and s[K.RESULT] == K.SABOTEURS_WIN
    assert g.rewards(s) == (0.0, 0.0, 1.0, 0.0)


def test_a_discard_draws_and_is_face_down_to_the_others():
    s = position(hands={0: [NS, CROSS]}, stock=[K.MAP_CARD, T_NES])
    g = Saboteur(4)
    a = g.parse_action("discard NESW", legal(s))
    assert K.observe(s, a, 1) == K.observe(s, g.parse_action("discard NS", legal(s)), 1)
    assert "you drew NES" in g.observation_text(K.observe(s, a, 0), 0, 0)
    K.apply(s, a)
    assert s[K.HAND + T_NES] == 1 and s[K.STOCK_N] == 1 and s[K.HAND_N] == 2


# --- a connectivity invariant (hypothesis) --------------------------------------------


def _edges_of(t: int, rot: int) -> int:
    e = int(K.TUNNEL_EDGES[t])
    return ((e << 2) | (e >> 2)) & 15 if rot else e


def _bfs(s: np.ndarray) -> set[int]:
    """An independent reading of "joined to the start": passages linked by openings."""
    def edges(c):
        v = int(s[K.CELL + c])
        if v == K.START:
            return 15, True
        if v >= K.GOAL0:
            rev = int(s[K.GOAL_REV + v - K.GOAL0])
            if rev == 0:
                return None, False
            e = int(K.GOAL_EDGES[int(s[K.GOAL_CARD + v - K.GOAL0])])
            return (((e << 2) | (e >> 2)) & 15 if rev == 2 else e), True
        if v == K.EMPTY:
            return None, False
        t, rot = divmod(v - 1, 2)
        e = int(K.TUNNEL_EDGES[t])
        return (((e << 2) | (e >> 2)) & 15 if rot else e), t < K.N_PASSAGE

    seen, todo = {K.START_CELL}, [K.START_CELL]
    step = {0: -K.COLS, 1: 1, 2: K.COLS, 3: -1}
    while todo:
        c = todo.pop()
        e, _ = edges(c)
        r, k = divmod(c, K.COLS)
        for d in range(4):
            nr, nk = r + (d == 2) - (d == 0), k + (d == 1) - (d == 3)
            if not (e >> d) & 1 or not (0 <= nr < K.ROWS and 0 <= nk < K.COLS):
                continue
            nb = c + step[d]
            ne, passage = edges(nb)
            if nb in seen or ne is None or not passage or not (ne >> ((d + 2) % 4)) & 1:
                continue
            seen.add(nb)
            todo.append(nb)
    return seen


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), picks=st.lists(st.integers(0, 10**6), max_size=67),
       n=st.integers(3, 10))
def test_reach_is_exactly_what_joins_the_start_and_gold_found_means_joined(seed, picks, n):
    g = registry.make("saboteur", n)
    s = g.new_state(seed)
    for p in picks:
        if K.is_terminal(s):
            break
        acts = legal(s)
        a = acts[p % len(acts)]
        if a < K.PLACE_N:  # every new tunnel card opens onto a joined passage ...
            c = a % K.CELLS
            assert any(s[K.REACH + nb] for nb in K.NEIGHBOUR[c] if nb >= 0)
        K.apply(s, a)
        if a < K.PLACE_N:  # ... and fits every card already beside it, opening to opening
            t, rot = divmod(a // K.CELLS, 2)
            mine = _edges_of(t, rot)
            for d, nb in enumerate(K.NEIGHBOUR[c]):
                v = int(s[K.CELL + nb]) if nb >= 0 else K.EMPTY
                if K.EMPTY < v < K.START:
                    theirs = _edges_of(*divmod(v - 1, 2))
                    assert (mine >> d) & 1 == (theirs >> ((d + 2) % 4)) & 1
        reach = {c for c in range(K.CELLS) if s[K.REACH + c]}
        assert reach == _bfs(s)
        gold = int(K.GOAL_CELLS[int(np.flatnonzero(s[K.GOAL_CARD:K.GOAL_CARD + 3] == 0)[0])])
        assert (s[K.RESULT] == K.DIGGERS_WIN) == (gold in reach)


def test_typed_moves_accept_openings_in_any_order_and_name_known_illegal_moves():
    import pytest

    from spyglass.games.base import IllegalMove

    s = position(hands={0: [CURVE_NE, K.MAP_CARD]})
    g = Saboteur(4)
    acts = legal(s)
    assert g.parse_action("en b5", acts) == place_id(CURVE_NE, 0, "b5")
    assert g.parse_action("ws c4", acts) == place_id(CURVE_NE, 1, "c4")
    with pytest.raises(IllegalMove):
        g.parse_action("NE c4", acts)  # a real move, not legal here
    with pytest.raises(ValueError):
        g.parse_action("dig to the gold", acts)


def test_determinized_roles_follow_the_role_deck_with_one_card_unseen():
    """Five players: 2 saboteur and 4 digger cards, one left unseen (published rules). A
    digger's other seats are each a saboteur with chance 2/5, a saboteur's with 1/5."""
    g = registry.make("saboteur", 5)
    rng = make_rng(3)
    t = np.zeros(K.STATE_SIZE, dtype=np.int64)
    for seed in range(40):
        s = g.new_state(seed)
        if s[K.ROLE] == 0:
            break
    for j, want in ((0, 2 / 5), (int(np.flatnonzero(s[K.ROLE:K.ROLE + 5])[0]), 1 / 5)):
        v = g.view(s, j)
        n = 4000
        counts = np.zeros(5)
        for _ in range(n):
            assert K.sample(v, j, rng, t)
            counts += t[K.ROLE:K.ROLE + 5]
        others = [q for q in range(5) if q != j]
        assert counts[j] == n * s[K.ROLE + j]
        assert np.allclose(counts[others] / n, want, atol=0.03), counts / n
