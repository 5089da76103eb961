"""Lord of the Rings: The Confrontation: every character text and card text, checked in
hand-built positions (Whitehouse 2014, §4.2.6; the published classic rules, Knizia 2002,
as listed in docs/lotrc.md), plus rule invariants under random play (hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from spyglass.games.lotrc import kernel as K
from spyglass.games.lotrc.episodes import episode
from spyglass.games.lotrc.game import FIXED_SETUP, Confrontation
from spyglass.rng import make_rng

G = Confrontation()
R = {name: r for r, name in enumerate(K.REGION_NAMES)}


def position(where: dict[int, str], turn: int = K.DARK, game: Confrontation = G) -> np.ndarray:
    """A state with exactly the characters of ``where`` on the board (the rest defeated),
    ``turn`` to move, full hands, each side's pieces unknown to the other."""
    s = game.new_state(0)
    s[K.LOC:K.LOC + 18] = -1
    occ = [0, 0]
    for c, name in where.items():
        s[K.LOC + c] = R[name]
        occ[c >= 9] |= 1 << R[name]
    for c in range(18):
        s[K.MASK + c] = occ[c >= 9] if c in where else 0
    s[K.TURN] = s[K.ACTOR] = turn
    return s


def act(s: np.ndarray, text: str) -> None:
    j = int(G.kernel.actor(s))
    v = G.view(s, j)
    G.kernel.apply(s, G.parse_action(text, G.legal_actions(s), v))


def moves(s: np.ndarray) -> set[str]:
    v = G.view(s, int(G.kernel.actor(s)))
    return {G.action_text(a, v) for a in G.legal_actions(s)}


def cards(s: np.ndarray, dark: str, light: str) -> None:
    assert s[K.PHASE] == K.P_CARD1
    act(s, f"card:{dark}")
    act(s, f"card:{light}")


def alive(s: np.ndarray, c: int) -> bool:
    return s[K.LOC + c] >= 0


# --- movement (§4.2.6 "Game structure"; the published board) ----------------------------


def test_forward_moves_respect_region_capacities():
    # Two Light pieces fill Enedwaith; a mountain holds one piece of a side.
    s = position({K.GIMLI: "Cardolan", K.MERRY: "Enedwaith", K.PIPPIN: "Enedwaith",
                  K.LEGOLAS: "Eregion", K.BOROMIR: "Moria", K.FRODO: "Shire",
                  K.ORCS: "Mordor"}, turn=K.LIGHT)
    got = moves(s)
    assert "Gimli>Eregion" in got and "Gimli>Enedwaith" not in got
    assert "Legolas>Moria" not in got and "Legolas>Misty Mountains" in got
    assert "Frodo>Arthedain" in got and "Frodo>Cardolan" in got
    assert not any(m.startswith("Gimli>Shire") for m in got)  # never backwards


def test_tunnel_and_river_are_for_light_only():
    s = position({K.LEGOLAS: "Eregion", K.GIMLI: "Mirkwood", K.MERRY: "Fangorn",
                  K.FRODO: "Shire", K.ORCS: "Gondor"}, turn=K.LIGHT)
    got = moves(s)
    assert {"Legolas>Fangorn", "Gimli>Fangorn", "Merry>Rohan"} <= got
    d = position({K.ORCS: "Fangorn", K.WARG: "Rohan", K.FRODO: "Shire"})
    assert "Orcs>Mirkwood" not in moves(d) and "Warg>Fangorn" not in moves(d)


def test_the_balrog_in_moria_defeats_a_character_in_the_tunnel():
    s = position({K.PIPPIN: "Eregion", K.FRODO: "Shire", K.BALROG: "Moria",
                  K.ORCS: "Mordor"}, turn=K.LIGHT)
    act(s, "Pippin>Fangorn")
    assert not alive(s, K.PIPPIN) and s[K.LOC + K.BALROG] == R["Moria"]
    assert s[K.MASK + K.BALROG] == 1 << R["Moria"]  # revealed to Light
    t = position({K.PIPPIN: "Eregion", K.FRODO: "Shire", K.BALROG: "Mordor",
                  K.ORCS: "Moria"}, turn=K.LIGHT)
    act(t, "Pippin>Fangorn")
    assert t[K.LOC + K.PIPPIN] == R["Fangorn"]
    assert not t[K.MASK + K.BALROG] >> R["Moria"] & 1  # Light learns where it is not


def test_no_sideways_moves_in_the_mountains():
    s = position({K.WITCH_KING: "Misty Mountains", K.GIMLI: "Moria", K.FRODO: "Shire"})
    assert "Witch King>Moria" not in moves(s)
    t = position({K.ARAGORN: "Moria", K.ORCS: "Misty Mountains", K.FRODO: "Shire"},
                 turn=K.LIGHT)
    assert "Aragorn>Misty Mountains" not in moves(t)


def test_special_moves_of_aragorn_witch_king_nazgul_and_black_rider():
    # Aragorn may attack any adjacent region (backwards, sideways), only to attack.
    s = position({K.ARAGORN: "Eregion", K.ORCS: "Arthedain", K.WARG: "Enedwaith",
                  K.FRODO: "Shire"}, turn=K.LIGHT)
    got = moves(s)
    assert {"Aragorn>Arthedain", "Aragorn>Enedwaith"} <= got
    assert "Aragorn>Cardolan" not in got and "Aragorn>Rhudaur" not in got
    # The Witch King may attack sideways.
    d = position({K.WITCH_KING: "Fangorn", K.GIMLI: "Rohan", K.FRODO: "Shire"})
    got = moves(d)
    assert "Witch King>Rohan" in got and "Witch King>Mirkwood" not in got
    # The Flying Nazgul may attack a single Light character anywhere.
    n = position({K.NAZGUL: "Gondor", K.FRODO: "Shire", K.GIMLI: "Cardolan",
                  K.MERRY: "Rhudaur", K.PIPPIN: "Rhudaur"})
    got = moves(n)
    assert {"Flying Nazgul>Shire", "Flying Nazgul>Cardolan"} <= got
    assert "Flying Nazgul>Rhudaur" not in got
    # The Black Rider may move forward any number of regions to attack.
    # (through regions free of Light, never onto an empty region further than one step).
    b = position({K.BLACK_RIDER: "Mordor", K.FRODO: "Eregion", K.GIMLI: "Shire",
                  K.MERRY: "Arthedain", K.PIPPIN: "Cardolan"})
    got = moves(b)
    assert {"Black Rider>Eregion", "Black Rider>Arthedain", "Black Rider>Cardolan"} <= got
    assert "Black Rider>Shire" not in got  # every way there passes a Light character
    assert "Black Rider>Moria" not in got and "Black Rider>Gondor" in got


# --- character texts (step 2 of combat) -------------------------------------------------


def test_boromir_defeats_his_opponent_and_himself():
    s = position({K.BOROMIR: "Cardolan", K.CAVE_TROLL: "Eregion", K.FRODO: "Shire",
                  K.ORCS: "Mordor"}, turn=K.LIGHT)
    act(s, "Boromir>Eregion")
    assert not alive(s, K.BOROMIR) and not alive(s, K.CAVE_TROLL)
    assert s[K.HAND] == s[K.HAND + 1] == K.ALL_CARDS  # no cards were played


def test_merry_legolas_gimli_defeat_their_foes_at_once():
    for light, dark in ((K.MERRY, K.WITCH_KING), (K.LEGOLAS, K.NAZGUL), (K.GIMLI, K.ORCS)):
        # The Dark character attacks; the Light text resolves first.
        s = position({light: "Eregion", dark: "Moria", K.FRODO: "Shire", K.WARG: "Mordor"})
        act(s, f"{K.DARK_NAMES[dark]}>Eregion")
        assert alive(s, light) and not alive(s, dark)
        assert s[K.HAND] == K.ALL_CARDS and s[K.TURN] == K.LIGHT


def test_the_orcs_defeat_the_first_defender_when_attacking():
    s = position({K.ORCS: "Moria", K.MERRY: "Eregion", K.FRODO: "Shire"})
    act(s, "Orcs>Eregion")
    assert not alive(s, K.MERRY) and s[K.LOC + K.ORCS] == R["Eregion"]
    assert s[K.HAND] == K.ALL_CARDS
    # Defending, the Orcs fight normally.
    t = position({K.ORCS: "Eregion", K.MERRY: "Cardolan", K.FRODO: "Shire"}, turn=K.LIGHT)
    act(t, "Merry>Eregion")
    assert t[K.PHASE] == K.P_CARD1


def test_the_warg_makes_light_texts_void():
    s = position({K.BOROMIR: "Cardolan", K.WARG: "Eregion", K.FRODO: "Shire"}, turn=K.LIGHT)
    act(s, "Boromir>Eregion")
    assert s[K.PHASE] == K.P_CARD1 and alive(s, K.BOROMIR) and alive(s, K.WARG)
    cards(s, "1", "1")  # Warg 2+1 beats Boromir 0+1
    assert not alive(s, K.BOROMIR) and alive(s, K.WARG)


def test_frodo_may_retreat_sideways_when_attacked():
    s = position({K.FRODO: "Eregion", K.WITCH_KING: "Moria", K.GIMLI: "Shire"})
    act(s, "Witch King>Eregion")
    assert s[K.PHASE] == K.P_LDEC
    assert moves(s) == {"retreat>Rhudaur", "retreat>Enedwaith", "stay"}
    act(s, "retreat>Rhudaur")
    assert s[K.LOC + K.FRODO] == R["Rhudaur"] and s[K.LOC + K.WITCH_KING] == R["Eregion"]
    assert s[K.MASK + K.FRODO] == 1 << R["Rhudaur"]  # Dark saw where he went


def test_no_question_when_frodo_has_nowhere_to_go():
    # In the mountains Frodo cannot go sideways and Sam is not with him: no decision.
    s = position({K.FRODO: "Moria", K.ORCS: "Fangorn", K.GIMLI: "Shire"})
    act(s, "Orcs>Moria")
    assert G.kernel.is_terminal(s) and G.rewards(s) == (1.0, 0.0)  # the Orcs' first blow


def test_sam_may_take_frodos_place_with_strength_five():
    for chance in range(1, 64):  # the defender is drawn: take a stream that draws Frodo
        s = position({K.FRODO: "Eregion", K.SAM: "Eregion", K.WITCH_KING: "Moria"})
        s[K.CHANCE] = chance
        act(s, "Witch King>Eregion")
        if s[K.C_DEF] == K.FRODO:
            break
    assert s[K.C_DEF] == K.FRODO and "swap" in moves(s)
    act(s, "swap")
    assert s[K.MASK + K.SAM] == 1 << R["Eregion"]  # Sam is revealed
    cards(s, "1", "1")  # Witch King 5+1 ties Sam 5+1 (with Frodo): both fall
    assert not alive(s, K.SAM) and not alive(s, K.WITCH_KING) and alive(s, K.FRODO)


def test_pippin_may_retreat_backwards_when_attacking():
    s = position({K.PIPPIN: "Eregion", K.CAVE_TROLL: "Moria", K.FRODO: "Shire"},
                 turn=K.LIGHT)
    act(s, "Pippin>Moria")
    assert moves(s) == {"retreat>Eregion", "retreat>Enedwaith", "stay"}
    act(s, "retreat>Enedwaith")
    assert s[K.LOC + K.PIPPIN] == R["Enedwaith"] and alive(s, K.CAVE_TROLL)


def test_saruman_may_decide_that_no_cards_are_played():
    s = position({K.GIMLI: "Eregion", K.SARUMAN: "Moria", K.FRODO: "Shire"}, turn=K.LIGHT)
    act(s, "Gimli>Moria")
    assert s[K.PHASE] == K.P_DDEC and moves(s) == {"stay", "nocards"}
    act(s, "nocards")
    assert not alive(s, K.GIMLI) and alive(s, K.SARUMAN)  # 4 against 3
    assert s[K.HAND] == s[K.HAND + 1] == K.ALL_CARDS


def test_gandalf_makes_dark_show_its_card_first():
    s = position({K.GANDALF: "Eregion", K.ORCS: "Moria", K.FRODO: "Shire"}, turn=K.LIGHT)
    act(s, "Gandalf>Moria")
    assert not K.simultaneous(s)
    act(s, "card:6")
    assert G.view(s, K.LIGHT)[K.V_PICK + K.DARK] == 5  # Light sees the 6
    t = position({K.GIMLI: "Eregion", K.WARG: "Moria", K.FRODO: "Shire"}, turn=K.LIGHT)
    act(t, "Gimli>Moria")
    assert K.simultaneous(t)
    act(t, "card:6")
    assert G.view(t, K.LIGHT)[K.V_PICK + K.DARK] == K.PICK_HIDDEN


def test_shelob_returns_to_gondor_after_a_victory():
    s = position({K.SHELOB: "Moria", K.MERRY: "Eregion", K.FRODO: "Shire"})
    act(s, "Shelob>Eregion")
    cards(s, "1", "1")  # 5+1 against 2+1
    assert not alive(s, K.MERRY) and s[K.LOC + K.SHELOB] == R["Gondor"]
    assert s[K.MASK + K.SHELOB] == 1 << R["Gondor"]


def test_the_cave_trolls_own_card_is_void():
    s = position({K.GANDALF: "Eregion", K.CAVE_TROLL: "Moria", K.FRODO: "Shire"},
                 turn=K.LIGHT)
    act(s, "Gandalf>Moria")
    cards(s, "6", "5")  # 9+0 against 5+5
    assert alive(s, K.GANDALF) and not alive(s, K.CAVE_TROLL)


# --- card texts (step 3 of combat) ----------------------------------------------------


def _duel(dark_card: str, light_card: str, light=K.LEGOLAS, dark=K.BLACK_RIDER, hands=None):
    s = position({light: "Eregion", dark: "Moria", K.FRODO: "Shire", K.ORCS: "Mordor"},
                 turn=K.LIGHT)
    if hands is not None:
        s[K.HAND], s[K.HAND + 1] = hands
    act(s, f"{K.LIGHT_NAMES[light - 9]}>Moria")
    cards(s, dark_card, light_card)
    return s


def test_strength_cards_add_and_a_tie_defeats_both():
    s = _duel("3", "4")  # Black Rider 3+3 against Legolas 3+4
    assert alive(s, K.LEGOLAS) and not alive(s, K.BLACK_RIDER)
    s = _duel("4", "4")
    assert not alive(s, K.LEGOLAS) and not alive(s, K.BLACK_RIDER)
    assert s[K.HAND] == K.ALL_CARDS & ~(1 << 3) and s[K.HAND + 1] == K.ALL_CARDS & ~(1 << 3)


def test_noble_sacrifice_defeats_both_unless_the_eye_cancels_it():
    s = _duel("6", "Noble Sacrifice")
    assert not alive(s, K.LEGOLAS) and not alive(s, K.BLACK_RIDER)
    s = _duel("Eye of Sauron", "Noble Sacrifice")  # 3+0 against 3+0: a tie
    assert not alive(s, K.LEGOLAS) and not alive(s, K.BLACK_RIDER)
    s = _duel("Eye of Sauron", "Noble Sacrifice", dark=K.WITCH_KING)  # 5 against 3
    assert not alive(s, K.LEGOLAS) and alive(s, K.WITCH_KING)


def test_elven_cloak_voids_darks_strength_card():
    s = _duel("6", "Elven Cloak")  # 3+0 against 3+0
    assert not alive(s, K.LEGOLAS) and not alive(s, K.BLACK_RIDER)
    s = _duel("6", "Elven Cloak", light=K.ARAGORN)  # 4 against 3
    assert alive(s, K.ARAGORN) and not alive(s, K.BLACK_RIDER)


def test_magic_is_worth_the_best_strength_card_already_played():
    played_5 = K.ALL_CARDS & ~(1 << 4)
    s = _duel("4", "Magic", hands=(K.ALL_CARDS, played_5))  # 3+4 against 3+5
    assert alive(s, K.LEGOLAS) and not alive(s, K.BLACK_RIDER)
    s = _duel("1", "Magic")  # nothing played yet: 3+1 against 3+0
    assert not alive(s, K.LEGOLAS)
    s = _duel("Magic", "1", hands=(K.ALL_CARDS & ~(1 << 5), K.ALL_CARDS))  # 3+6 vs 3+1
    assert not alive(s, K.LEGOLAS) and alive(s, K.BLACK_RIDER)


def test_retreat_cards_move_the_character_back_darks_first():
    s = _duel("Retreat", "5")  # Dark's text first: the Black Rider leaves before the 5
    assert alive(s, K.BLACK_RIDER) and alive(s, K.LEGOLAS)  # two ways back: Dark chooses
    assert s[K.PHASE] == K.P_RDEC and moves(s) == {"retreat>Rohan", "retreat>Fangorn"}
    act(s, "retreat>Fangorn")
    assert s[K.LOC + K.BLACK_RIDER] == R["Fangorn"] and s[K.LOC + K.LEGOLAS] == R["Moria"]
    t = _duel("6", "Retreat")  # Light retreats out of Moria (to Eregion or Enedwaith)
    assert t[K.PHASE] == K.P_RDEC
    act(t, "retreat>Eregion")
    assert t[K.LOC + K.LEGOLAS] == R["Eregion"] and alive(t, K.BLACK_RIDER)


def test_cards_come_back_when_all_nine_are_played():
    s = position({K.LEGOLAS: "Eregion", K.BLACK_RIDER: "Moria", K.FRODO: "Shire",
                  K.ORCS: "Mordor"}, turn=K.LIGHT)
    s[K.HAND] = s[K.HAND + 1] = 0
    act(s, "Legolas>Moria")
    assert s[K.HAND] == s[K.HAND + 1] == K.ALL_CARDS


# --- winning (§4.2.6 "Objectives") ----------------------------------------------------


def test_frodo_in_mordor_wins_for_light_even_with_dark_there():
    s = position({K.FRODO: "Gondor", K.ORCS: "Mordor"}, turn=K.LIGHT)
    act(s, "Frodo>Mordor")
    assert G.kernel.is_terminal(s) and G.rewards(s) == (0.0, 1.0)


def test_defeating_frodo_wins_for_dark():
    s = position({K.FRODO: "Eregion", K.ORCS: "Moria", K.GIMLI: "Shire"})
    act(s, "Orcs>Eregion")
    assert s[K.PHASE] == K.P_LDEC
    act(s, "stay")  # the Orcs' first blow
    assert G.kernel.is_terminal(s) and G.rewards(s) == (1.0, 0.0)


def test_dark_wins_with_four_in_the_shire_or_three_when_so_set():
    where = {K.ORCS: "Shire", K.WARG: "Shire", K.SHELOB: "Shire", K.SARUMAN: "Arthedain",
             K.FRODO: "Mirkwood"}
    s = position(where)
    act(s, "Saruman>Shire")
    assert G.rewards(s) == (1.0, 0.0)
    g3 = Confrontation(shire_win=3)
    t = position({K.ORCS: "Shire", K.WARG: "Shire", K.SARUMAN: "Arthedain",
                  K.FRODO: "Mirkwood"}, game=g3)
    g3.kernel.apply(t, g3.parse_action("Saruman>Shire", g3.legal_actions(t),
                                       g3.view(t, 0)))
    assert g3.rewards(t) == (1.0, 0.0)


def test_light_wins_when_every_dark_character_is_defeated():
    s = position({K.GIMLI: "Eregion", K.ORCS: "Moria", K.FRODO: "Shire"}, turn=K.LIGHT)
    act(s, "Gimli>Moria")
    assert G.rewards(s) == (0.0, 1.0)


def test_a_player_who_cannot_move_loses():
    # Dark's last piece walks into the Shire, where it cannot move forward: at Dark's
    # next turn Dark has no move and loses.
    s = position({K.SARUMAN: "Arthedain", K.FRODO: "Mirkwood", K.GIMLI: "Eregion"})
    act(s, "Saruman>Shire")  # one Dark piece in the Shire: no win, no more Dark moves
    assert not G.kernel.is_terminal(s)
    act(s, "Gimli>Misty Mountains")
    assert G.kernel.is_terminal(s) and G.rewards(s) == (0.0, 1.0)


# --- setups, episodes, knowledge -------------------------------------------------------


def test_setups():
    s = G.new_state(3)
    for c, r in FIXED_SETUP.items():
        assert s[K.LOC + c] == r
    rnd = Confrontation(setup="random")
    seen = set()
    for seed in range(20):
        t = rnd.new_state(seed)
        for c, home in ((K.FRODO, K.SHIRE), (K.SAM, K.SHIRE), (K.BALROG, K.MORDOR)):
            assert t[K.LOC + c] == home
        seen.add(t[K.LOC:K.LOC + 18].tobytes())
    assert len(seen) > 15


def test_players_may_place_their_own_pieces():
    g = Confrontation(setup="placed")
    s = g.new_state(1)
    order = ["Cave Troll", "Orcs", "Warg", "Black Rider", "Flying Nazgul",
             "Aragorn", "Gimli", "Boromir", "Pippin", "Merry"]
    for name in order:
        j = int(g.kernel.actor(s))
        assert j == (K.DARK if name in K.DARK_NAMES else K.LIGHT)
        v = g.view(s, j)
        region = K.REGION_NAMES[int(K.FRONT[int(s[K.PLACED])])]
        g.kernel.apply(s, g.parse_action(f"{name}>{region}", g.legal_actions(s), v))
    assert s[K.PHASE] == K.P_MOVE and g.kernel.actor(s) == K.DARK
    for c, r in FIXED_SETUP.items():  # the same placement as the fixed setup
        assert s[K.LOC + c] == r
    # Light saw pieces arrive, not which: any Dark character may be in Gondor.
    assert all(s[K.MASK + c] >> R["Gondor"] & 1 for c in range(9))


def test_epic_episodes_start_at_each_fresh_move():
    s = position({K.LEGOLAS: "Eregion", K.BLACK_RIDER: "Moria", K.FRODO: "Shire",
                  K.ORCS: "Mordor"}, turn=K.LIGHT)
    act(s, "Legolas>Moria")
    assert episode(s, 0) == -1  # inside the combat
    act(s, "card:1")
    act(s, "card:5")
    assert episode(s, 0) == K.DARK  # Dark's movement episode begins


def _invariants(s: np.ndarray) -> None:
    for c in range(18):
        r = int(s[K.LOC + c])
        if r < 0:
            assert s[K.MASK + c] == 0
        else:
            assert s[K.MASK + c] >> r & 1, "a character outside what its opponent allows"
    for side in (0, 1):
        for r in range(16):
            n = sum(1 for c in range(9 * side, 9 * side + 9) if s[K.LOC + c] == r)
            assert n <= (4 if r in (0, 15) else 1 if (r >> 2) + (r & 3) == 3 else 2)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(["fixed", "random"]))
def test_random_play_keeps_knowledge_true_and_capacities(seed, setup):
    """Every character stands inside the region set its opponent allows it, regions never
    overflow, and every determinization keeps the hidden pieces inside those sets."""
    g = Confrontation(setup=setup)
    s = g.new_state(seed)
    rng = np.random.default_rng(seed)
    krng = make_rng(seed)
    while not g.kernel.is_terminal(s):
        _invariants(s)
        j = int(rng.integers(2))
        s2 = np.zeros(K.STATE_SIZE, np.int64)
        assert g.kernel.sample(g.view(s, j), j, krng, s2)
        _invariants(s2)
        assert (g.view(s2, j) == g.view(s, j)).all()
        acts = g.legal_actions(s)
        g.kernel.apply(s, acts[int(rng.integers(len(acts)))])
    _invariants(s)


def test_the_opponent_sees_that_a_piece_moved_not_which():
    """§4.2.6, Implementation: "move Frodo from Cardolan to Eregion" is seen by the
    opponent as "move a character from Cardolan to Eregion"."""
    s = position({K.FRODO: "Cardolan", K.GIMLI: "Cardolan", K.ORCS: "Mordor"}, turn=K.LIGHT)
    v = G.view(s, K.LIGHT)
    frodo = G.parse_action("Frodo>Eregion", G.legal_actions(s), v)
    gimli = G.parse_action("Gimli>Eregion", G.legal_actions(s), v)
    assert G.kernel.observe(s, frodo, K.DARK) == G.kernel.observe(s, gimli, K.DARK)
    assert G.kernel.observe(s, frodo, K.LIGHT) != G.kernel.observe(s, gimli, K.LIGHT)
    act(s, "Frodo>Eregion")
    cardolan, eregion = 1 << R["Cardolan"], 1 << R["Eregion"]
    assert s[K.MASK + K.FRODO] == s[K.MASK + K.GIMLI] == cardolan | eregion


def test_knowledge_of_a_revealed_character_is_lost_when_it_mixes_with_others():
    """§4.2.6: a known character entering a square with an unknown one, then one of them
    leaving: both are unknown."""
    s = position({K.GIMLI: "Eregion", K.ORCS: "Moria", K.MERRY: "Cardolan",
                  K.FRODO: "Shire"}, turn=K.LIGHT)
    s[K.LOC + K.ORCS] = R["Misty Mountains"]
    s[K.MASK + K.ORCS] = 1 << R["Misty Mountains"]  # Dark's Orcs elsewhere: no combat
    s[K.MASK + K.GIMLI] = 1 << R["Eregion"]  # Dark knows Gimli (seen in a combat)
    act(s, "Merry>Eregion")  # an unknown Light piece joins him
    act(s, "Orcs>Rhudaur")
    act(s, "Gimli>Moria")  # one of the two leaves: Dark cannot tell which
    both = (1 << R["Eregion"]) | (1 << R["Moria"])
    assert s[K.MASK + K.GIMLI] == both  # no longer known
    assert s[K.MASK + K.MERRY] & both == both  # (Merry may also still be in the Shire)
