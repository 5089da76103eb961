"""Scotland Yard: the board's graph, hand-checked scripted positions for each rule, and the
seekers' determinizations against a brute-force enumeration.

References: Whitehouse 2014, §4.2.12 (the game as the thesis plays it) and §7.3 (Example
2, the constraint set); the published rules (Ravensburger 1983: tickets, start cards,
surfacing after moves 3, 8, 13, 18 and 24, double moves, black tickets and the ferry).
"""

from __future__ import annotations

from collections import Counter, deque

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from spyglass.games import registry
from spyglass.games.scotlandyard import board as B
from spyglass.games.scotlandyard import kernel as K
from spyglass.rng import make_rng


def poss(s: np.ndarray) -> set[int]:
    return set(B.mask_stations(s[K.POSS:K.POSS + B.WORDS]))


def state(mrx: int, dets: tuple[int, ...], rounds: int = 24, seats: int = 2,
          cr: float = 0.0) -> np.ndarray:
    """A fresh game with the given stations (the seekers' set: the undrawn start cards)."""
    return K.new_state(len(dets), rounds, seats, cr, (mrx, *dets))


def move(t: int, st: int) -> int:
    return t * B.N_STATIONS + st - 1


def legal(s: np.ndarray) -> list[int]:
    out = np.empty(K.MAX_LEGAL, dtype=np.int64)
    return out[:K.legal_actions(s, out)].tolist()


# --- the board ------------------------------------------------------------------------

def test_the_board_has_199_stations_and_the_published_edge_counts():
    kinds = Counter(t for _, _, t in B.EDGES)
    assert [kinds[t] for t in range(4)] == [346, 99, 20, 3]
    pairs = [(min(a, b), max(a, b), t) for a, b, t in B.EDGES]
    assert len(set(pairs)) == len(pairs), "an edge is listed twice"
    assert all(a != b for a, b, _ in pairs)
    assert {s for a, b, _ in pairs for s in (a, b)} == set(range(1, 200))
    # the Thames ferry: Whitehall - 115 - 157 - Greenwich (black tickets only)
    assert {(a, b) for a, b, t in pairs if t == B.FERRY} == {(108, 115), (115, 157), (157, 194)}
    # the two edges on which the transcriptions disagree (docs/scotland-yard.md)
    assert (13, 14, B.TAXI) in pairs and (187, 199, B.BUS) not in pairs


def test_an_edited_board_file_is_refused_until_its_digest_is_updated(tmp_path):
    """The compiled code embeds the board, so a changed board.txt must change board.py."""
    edited = tmp_path / "board.txt"
    edited.write_text(B.BOARD_FILE.read_text() + "1 2 taxi\n")
    with pytest.raises(RuntimeError, match="BOARD_SHA256"):
        B.read_edges(edited)
    assert len(B.read_edges(edited, sha256=None)) == len(B.EDGES) + 1


def test_the_board_tables_are_symmetric_and_the_taxi_graph_is_connected():
    for t in range(5):
        for u in range(1, 200):
            for v in B.ADJ[t, u, :B.DEG[t, u]]:
                assert u in B.ADJ[t, v, :B.DEG[t, v]]
                assert B.NB[t, u, (v - 1) // B.BITS] >> ((v - 1) % B.BITS) & 1
    seen, todo = {1}, deque([1])
    while todo:  # every station is a taxi stop and taxis reach them all
        u = todo.popleft()
        for v in B.ADJ[B.TAXI, u, :B.DEG[B.TAXI, u]]:
            if int(v) not in seen:
                seen.add(int(v))
                todo.append(int(v))
    assert len(seen) == 199
    assert set(B.START_CARDS) <= seen and len(B.START_CARDS) == 18


# --- scripted positions ---------------------------------------------------------------

def test_the_constraint_set_grows_by_the_ticket_shown_thesis_example_2():
    """§7.3, Example 2: Mr X at 11 or 12 moving by taxi can reach 3, 10, 22 or 3, 23."""
    s = state(11, (1, 199))
    s[K.POSS:K.POSS + 4] = B.station_mask([11, 12])
    K.apply(s, move(K.TAXI, 22))
    assert poss(s) == {3, 10, 22, 23}
    assert K.observe(state(11, (1, 199)), move(K.TAXI, 22), 1) == K.OBS_HIDDEN + K.TAXI


def test_mr_x_surfaces_after_moves_3_8_13_18_and_the_last():
    s = state(11, (1, 199), rounds=24)
    assert [m for m in range(1, 25) if K.surfaces_after(s, m)] == [3, 8, 13, 18, 24]
    assert [m for m in range(1, 11) if K.surfaces_after(state(11, (1,), rounds=10), m)] == \
        [3, 8, 10]
    # Mr X: 11 -> 3 -> 4 -> 13 (taxi); detectives shuffle 1 <-> 8 and 199 <-> 198.
    path = [3, 4, 13]
    det = [(8, 198), (1, 199), (8, 198)]
    for i, st in enumerate(path):
        a = move(K.TAXI, st)
        key = K.observe(s, a, 1)
        if i < 2:
            assert key == K.OBS_HIDDEN + K.TAXI and len(poss(s)) > 0
        else:
            assert key == 1 + a  # the third move is seen whole
        K.apply(s, a)
        for d, st_d in enumerate(det[i], start=1):
            assert K.actor(s) == 1 and s[K.TURN] == d
            K.apply(s, move(K.TAXI, st_d))
    assert poss(s) == {13} and s[K.LAST_SEEN] == 13 and s[K.LAST_SEEN_MOVE] == 3
    assert s[K.SEEN] == 13
    K.apply(s, move(K.UNDERGROUND, 89))  # move 4 is hidden again
    assert poss(s) == {46, 67, 89}


def test_a_double_move_is_two_moves_before_the_detectives_and_shows_a_surfacing_first_move():
    s = state(11, (1, 199))
    s[K.MOVES] = 2
    assert K.DOUBLE in legal(s)
    K.apply(s, K.DOUBLE)
    assert s[K.MRX_TK + K.DOUBLE_CARD] == 1 and K.actor(s) == 0
    assert K.DOUBLE not in legal(s)  # one card per round
    a = move(K.TAXI, 22)
    assert K.observe(s, a, 1) == 1 + a  # move 3 surfaces
    K.apply(s, a)
    assert poss(s) == {22} and K.actor(s) == 0 and s[K.TURN] == 0
    K.apply(s, move(K.BUS, 65))  # move 4: hidden, still Mr X's round
    assert poss(s) == {3, 23, 34, 65} and s[K.TURN] == 1
    assert K.log_entry(s, 3) == 8 + K.TAXI + 1 and K.log_entry(s, 4) == 8 + K.BUS + 1
    # no double move without a card or without two moves left
    t = state(11, (1, 199), rounds=24)
    t[K.MRX_TK + K.DOUBLE_CARD] = 0
    assert K.DOUBLE not in legal(t)
    t = state(11, (1, 199), rounds=24)
    t[K.MOVES] = 23
    assert K.DOUBLE not in legal(t)


def test_black_tickets_hide_the_transport_and_only_they_take_the_ferry():
    s = state(115, (1, 199))
    names = {a: (a // B.N_STATIONS, a % B.N_STATIONS + 1) for a in legal(s)}
    assert (K.BLACK, 108) in names.values() and (K.BLACK, 157) in names.values()
    assert (K.TAXI, 108) not in names.values()  # 108-115 is a ferry only
    assert K.observe(s, move(K.BLACK, 157), 1) == K.OBS_HIDDEN + K.BLACK
    s[K.POSS:K.POSS + 4] = B.station_mask([115])
    K.apply(s, move(K.BLACK, 157))
    assert poss(s) == {102, 108, 114, 126, 127, 157}  # every edge of 115, ferry included
    assert s[K.MRX_TK + K.BLACK] == 1
    t = state(115, (1, 199))
    t[K.MRX_TK + K.BLACK] = 0
    assert all(a // B.N_STATIONS != K.BLACK for a in legal(t))


def test_detectives_tickets_go_to_mr_x_and_nobody_ends_on_a_detective():
    s = state(11, (3, 10))
    assert move(K.TAXI, 3) not in legal(s) and move(K.TAXI, 10) not in legal(s)
    K.apply(s, move(K.TAXI, 22))
    taxi = s[K.MRX_TK + K.TAXI]
    assert move(K.TAXI, 11) in legal(s)  # detective 1 at 3 may go to 11 (Mr X left it)
    K.apply(s, move(K.TAXI, 4))
    assert s[K.MRX_TK + K.TAXI] == taxi + 1
    assert s[K.DET_TK + K.TAXI] == K.DETECTIVE_TICKETS[0] - 1
    s2 = state(11, (3, 4))
    K.apply(s2, move(K.TAXI, 22))
    assert move(K.TAXI, 4) not in legal(s2)  # detective 2 stands there
    K.apply(s2, move(K.TAXI, 12))
    assert move(K.TAXI, 3) in legal(s2) and move(K.TAXI, 13) in legal(s2)


def test_running_out_of_tickets_skips_a_detective_and_ends_the_game_when_none_can_move():
    s = state(11, (1, 199), rounds=24)
    s[K.DET_TK:K.DET_TK + 3] = 0  # detective 1 has no tickets left
    K.apply(s, move(K.TAXI, 22))
    assert s[K.TURN] == 2  # skipped
    s[K.DET_TK + 3:K.DET_TK + 6] = (1, 0, 0)
    K.apply(s, move(K.TAXI, 198))  # detective 2's last move; then Mr X
    assert s[K.TURN] == 0
    K.apply(s, move(K.TAXI, 23))
    assert K.is_terminal(s) and s[K.RESULT] == K.MRX_WON  # no detective can move
    assert K.reward(s, 0) == 1.0 and K.reward(s, 1) == 0.0
    # Mr X without a usable ticket has only PASS, and loses
    t = state(2, (1, 199))
    t[K.MRX_TK:K.MRX_TK + 4] = 0
    assert legal(t) == [K.PASS]
    assert K.observe(t, K.PASS, 1) == 1 + K.PASS
    K.apply(t, K.PASS)
    assert K.is_terminal(t) and t[K.RESULT] == K.SEEKERS_WON


def test_mr_x_surrounded_has_only_pass_and_the_seekers_learn_where_he_may_be():
    s = state(2, (10, 20))  # 2's neighbours: taxi 10 and 20 only
    s[K.POSS:K.POSS + 4] = B.station_mask([2, 5])
    assert legal(s) == [K.PASS]
    K.apply(s, K.PASS)
    assert poss(s) == {2}  # 5 has free neighbours: he would have moved


def test_capture_ends_the_game_and_coalition_reduction_pays_the_catcher_more():
    s = state(22, (23, 1), seats=3, cr=0.25)
    s[K.POSS:K.POSS + 4] = B.station_mask([22, 3])
    s[K.TURN] = 1
    assert K.actor(s) == 1 and K.move_reveals(s)  # 23 reaches 22, where Mr X may be
    a = move(K.TAXI, 22)
    assert K.observe(s, a, 0) == K.observe(s, a, 2) == 1 + a + K.OBS_DETECTIVE + K.OBS_CAPTURE
    K.apply(s, a)
    assert K.is_terminal(s) and s[K.CAPTURER] == 1 and poss(s) == {22}
    assert [K.reward(s, j) for j in range(3)] == [0.0, 1.0, 0.75]
    g = registry.make("scotlandyard", 3, detectives=2, coalition_reduction=0.25)
    assert g.win_scores(g.rewards(s)) == [0.0, 1.0, 1.0]
    t = state(22, (23, 1))
    t[K.TURN] = 1
    K.apply(t, move(K.TAXI, 13))  # a miss: 13 is no longer possible
    assert 13 not in poss(t) and not K.is_terminal(t)


def test_mr_x_wins_when_the_detectives_have_answered_his_last_move():
    s = state(11, (1, 199), rounds=2)
    for mrx, d1, d2 in ((22, 8, 198), (23, 1, 199)):
        K.apply(s, move(K.TAXI, mrx))
        K.apply(s, move(K.TAXI, d1))
        assert not K.is_terminal(s)
        K.apply(s, move(K.TAXI, d2))
    assert K.is_terminal(s) and s[K.RESULT] == K.MRX_WON and poss(s) == {23}


def test_options_are_checked():
    with pytest.raises(ValueError, match="coalition_reduction needs a seat per detective"):
        registry.make("scotlandyard", 2, coalition_reduction=0.1)
    with pytest.raises(ValueError, match="do not fit"):
        registry.make("scotlandyard", 4, detectives=5)
    g = registry.make("scotlandyard", 6)
    s = g.new_state(0)
    assert len(set(s[[K.MRX_POS, *range(K.DET_POS, K.DET_POS + 5)]].tolist())) == 6
    assert g.parse_action("t 46", [move(K.TAXI, 46)]) == move(K.TAXI, 46)


@settings(max_examples=40, deadline=None)
@given(hs.integers(0, 10**6), hs.integers(1, 5), hs.integers(1, 24))
def test_random_games_keep_pieces_apart_and_tickets_conserved(seed, detectives, rounds):
    """Along random games: detectives on distinct stations, Mr X never on one (unless just
    caught), Mr X in the constraint set, and every ticket accounted for (a detective's
    spent ticket is Mr X's, Mr X's spent ones are in his log)."""
    g = registry.make("scotlandyard", 2, detectives=detectives, rounds=rounds)
    s = g.new_state(seed)
    rng = np.random.default_rng(seed)
    doubles = 0
    while True:
        dets = s[K.DET_POS:K.DET_POS + detectives].tolist()
        assert len(set(dets)) == detectives
        assert (s[K.MRX_POS] in dets) == (s[K.CAPTURER] > 0)
        assert int(s[K.MRX_POS]) in poss(s) and s[K.MOVES] <= rounds
        log = [int(K.log_entry(s, m)) & 7 for m in range(1, int(s[K.MOVES]) + 1)]
        for t in range(3):
            spent = sum(K.DETECTIVE_TICKETS[t] - s[K.DET_TK + 3 * d + t]
                        for d in range(detectives))
            assert s[K.MRX_TK + t] == K.MRX_TICKETS[t] + spent - log.count(t + 1)
        assert s[K.MRX_TK + K.BLACK] == detectives - log.count(K.BLACK + 1)
        assert s[K.MRX_TK + K.DOUBLE_CARD] == K.MRX_DOUBLES - doubles
        assert (s[K.DET_TK:K.DET_TK + 3 * detectives] >= 0).all()
        if K.is_terminal(s):
            break
        acts = g.legal_actions(s)
        a = acts[int(rng.integers(len(acts)))]
        doubles += a == K.DOUBLE
        K.apply(s, a)


# --- determinizations against brute force ---------------------------------------------

def _consistent_positions(g, history) -> set[int]:
    """Every station Mr X can be on given the seekers' observations, found by replaying
    all of Mr X's histories that give those observations (no use of ``POSS``)."""
    s0, trail = history
    starts = [c for c in B.START_CARDS
              if c not in s0[K.DET_POS:K.DET_POS + g.detectives].tolist()]
    frontier = {}
    for c in starts:
        t = s0.copy()
        t[K.MRX_POS] = c
        frontier[t.tobytes()] = t
    for a, key in trail:
        nxt = {}
        for t in frontier.values():
            if t[K.TURN] == 0 and a is None:  # a hidden Mr X move: any action with this key
                choices = [b for b in g.legal_actions(t) if K.observe(t, b, 1) == key]
            else:
                choices = [a] if a in g.legal_actions(t) and K.observe(t, a, 1) == key else []
            for b in choices:
                u = t.copy()
                K.apply(u, b)
                nxt[u.tobytes()] = u
        frontier = nxt
    return {int(t[K.MRX_POS]) for t in frontier.values()}


@pytest.mark.parametrize("seed", range(6))
def test_the_seekers_constraint_set_is_exactly_the_brute_force_one(seed):
    g = registry.make("scotlandyard", 2, detectives=2, rounds=5)
    rng = np.random.default_rng(seed)
    s = g.new_state(seed)
    history = (s.copy(), [])
    checked = 0
    while not K.is_terminal(s):
        acts = g.legal_actions(s)
        a = acts[int(rng.integers(len(acts)))]
        key = K.observe(s, a, 1)
        hidden = s[K.TURN] == 0 and key >= K.OBS_HIDDEN
        history[1].append((None if hidden else a, key))
        K.apply(s, a)
        assert _consistent_positions(g, history) == poss(s)
        checked += 1
    assert checked > 3


def test_sampled_determinizations_are_uniform_over_the_constraint_set():
    g = registry.make("scotlandyard")
    s = g.new_state(4)
    K.apply(s, g.legal_actions(s)[0])
    v = g.view(s, 1)
    where = poss(s)
    rng = make_rng(9)
    t = np.zeros(g.state_size, dtype=np.int64)
    n = 300 * len(where)
    counts = Counter()
    for _ in range(n):
        assert K.sample(v, 1, rng, t)
        counts[int(t[K.MRX_POS])] += 1
    assert set(counts) == where
    from scipy.stats import chisquare
    assert chisquare(list(counts.values())).pvalue > 1e-4
    assert K.sample(g.view(s, 0), 0, rng, t) and (t == s).all()  # Mr X knows it all


def test_the_seekers_particle_filter_keeps_mr_x_on_possible_stations():
    """``mtismcts_pf`` as the seekers (Whitehouse 2014, §7.3: inference over Mr X's
    station): after every observed move each particle puts Mr X on a station of the
    constraint set, and it plays legal moves."""
    from spyglass.agents import registry as agents

    g = registry.make("scotlandyard", 2, detectives=3, rounds=8)
    s = g.new_state(2)
    seekers = agents.make("mtismcts_pf", iterations=60, particles=16, model_iterations=8)
    seekers.start(g, 1, g.view(s, 1), 2)
    rng = np.random.default_rng(2)
    while not K.is_terminal(s):
        acts = g.legal_actions(s)
        if K.actor(s) == 1:
            a = seekers.act(g.view(s, 1), acts)
            assert a in acts
        else:
            a = acts[int(rng.integers(len(acts)))]
        obs, actor = K.observe(s, a, 1), K.actor(s)
        K.apply(s, a)
        seekers.observe(obs, actor, g.view(s, 1))
        where = poss(s)
        assert {int(p[K.MRX_POS]) for p in seekers.belief.particles} <= where


def test_belief_propagation_matches_thesis_example_2():
    """§7.3, Example 2: φ(11) = 1/4, φ(12) = 3/4 and a taxi move give φ'(3) = 1/3 · 1/4 +
    1/2 · 3/4, φ'(10) = φ'(22) = 1/12 and φ'(23) = 3/8."""
    from spyglass.games.scotlandyard.belief import propagate

    s = state(11, (1, 199))
    phi = np.zeros(200)
    phi[11], phi[12] = 0.25, 0.75
    out = propagate(phi, registry.make("scotlandyard", detectives=2).view(s, 1),
                    K.OBS_HIDDEN + K.TAXI)
    want = {3: 1 / 12 + 3 / 8, 10: 1 / 12, 22: 1 / 12, 23: 3 / 8}
    assert {int(v): pytest.approx(p) for v, p in want.items()} == \
        {int(v): out[v] for v in np.flatnonzero(out)}


@pytest.mark.parametrize("seed", range(3))
def test_propagated_beliefs_live_exactly_on_the_constraint_set(seed):
    from spyglass.games.scotlandyard.belief import propagate

    g = registry.make("scotlandyard", 2, detectives=3, rounds=12)
    s = g.new_state(seed)
    phi = np.zeros(200)
    phi[sorted(poss(s))] = 1.0
    rng = np.random.default_rng(seed)
    while not K.is_terminal(s):
        acts = g.legal_actions(s)
        a = acts[int(rng.integers(len(acts)))]
        before = g.view(s, 1)
        obs = K.observe(s, a, 1)
        K.apply(s, a)
        phi = propagate(phi, before, obs)
        assert set(np.flatnonzero(phi).tolist()) == poss(s)
        assert phi.sum() == pytest.approx(1.0)


def test_the_bench_measures_from_mr_x_s_and_the_seekers_first_decisions():
    from spyglass.bench.scotlandyard import decision_states, playout_rate

    g = registry.make("scotlandyard")
    states = decision_states(g)
    assert [int(K.actor(s)) for s in states.values()] == [0, 1]
    assert playout_rate(g, 20) > 0
