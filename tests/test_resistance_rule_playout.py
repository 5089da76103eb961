"""The rule-based playout policy of The Resistance (issue 31) and the ``playout`` option.

The policy (``spyglass.games.resistance.rule_playout``) plays a few of the 2012 bots'
common expert rules (Taylor 2014, §4.2); it must play only legal moves, finish every
game, and use the spies only where a spy would know them.
"""

from __future__ import annotations

import pytest

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.rule_playout import rule_action, rule_playout
from spyglass.games.resistance.search_kernel import PLAYOUTS, search_spec
from spyglass.games.resistance.tables import (
    FAILS_NEEDED,
    FORCED_FIFTH,
    N_SPIES,
    spy_configurations,
)
from spyglass.resistance.arena.referee import play_game
from spyglass.resistance.arena.spec import parse_spec
from spyglass.resistance.bots.mtismcts import MTISMCTSBot
from spyglass.rng import make_rng


def _deals():
    for n in range(5, 11):
        configs = spy_configurations(n)
        for k in range(0, len(configs), max(1, len(configs) // 7)):
            for rules in (0, FORCED_FIFTH):
                yield n, int(configs[k]), k % n, rules


def test_rule_policy_plays_legal_moves_and_its_rules():
    rng = make_rng(7)
    for n, spies, leader, rules in _deals():
        s = K.new_state(n, spies, leader, rules)
        suspects = 0
        while s[K.PHASE] != K.OVER:
            a = int(rule_action(s, suspects, rng))
            assert K.is_legal(s, a), (n, s.tolist(), a)
            ph, actor = int(s[K.PHASE]), int(K.actor(s))
            spy = (spies >> actor) & 1
            if ph == K.PROPOSE:
                assert (a >> actor) & 1  # leaders pick themselves
                if spy:
                    assert K.popcount(a & spies) == 1  # ... and a spy no other spy
            elif ph == K.VOTE and spy:
                assert a == int(s[K.TEAM] & spies != 0)  # spies back teams with a spy
            elif ph == K.MISSION_PHASE and spy:
                below = K.popcount(int(s[K.TEAM]) & spies & ((1 << actor) - 1))
                assert a == int(below < FAILS_NEEDED[n, s[K.MISSION]])
            mission, team, on = int(s[K.MISSION]), int(s[K.TEAM]), ph == K.MISSION_PHASE
            K.apply(s, a)
            if on and (s[K.PHASE] != K.MISSION_PHASE or s[K.MISSION] != mission):
                if (int(s[K.HISTORY]) >> (4 * mission)) & 15:
                    suspects |= team
        assert s[K.WINNER] in (K.RESISTANCE, K.SPY_SIDE)


def test_resistance_rules_use_public_suspects_only():
    # A resistance voter (seat 0) rejects a team with a suspect, approves the same team
    # when nobody is suspected (it cannot see the spies), and approves the last attempt.
    n, spies = 5, 0b11000
    s = K.new_state(n, spies, 1, 0)
    K.apply(s, 0b00011)  # leader 1 proposes seats 0 and 1; seat 0 votes first
    rng = make_rng(1)
    assert rule_action(s, 0, rng) == 1
    assert rule_action(s, 0b00010, rng) == 0
    s[K.ATTEMPT] = 4
    assert rule_action(s, 0b00010, rng) == 1
    # Not on a team of 3 at 5 players: the team must hold a spy.
    s = K.new_state(n, spies, 1, 0)
    K.apply(s, 0b01110)
    assert rule_action(s, 0, rng) == 0


def test_rule_playout_finishes_games_and_is_seeded():
    for n in (5, 7, 10):
        k = N_SPIES[n]
        spies = (1 << k) - 1
        ends = []
        for _ in range(2):
            s = K.new_state(n, spies, 0, 0)
            rule_playout(s, make_rng(3))
            assert s[K.PHASE] == K.OVER
            ends.append(s.tolist())
        assert ends[0] == ends[1]


def test_search_spec_binds_the_playout_and_refuses_unknown_ones():
    assert set(PLAYOUTS) == {"random", "rules"}
    assert search_spec(5).kernel.playout is K.playout
    rules = search_spec(5, "rules")
    assert rules.kernel.playout is rule_playout and rules.run is not search_spec(5).run
    with pytest.raises(ValueError, match="playout must be one of random, rules"):
        search_spec(5, "greedy")


def test_bot_option_plays_validates_and_is_recorded():
    (spec,) = parse_spec("mtismcts:iterations=60,playout=rules")
    bot = spec.make()
    assert bot.params["playout"] == "rules"
    assert "playout" not in MTISMCTSBot(iterations=60).params  # default records unchanged
    r = play_game([MTISMCTSBot(iterations=60, playout="rules", bluff="split")]
                  + ["randombot"] * 4, seed=5)
    assert r.error is None, r.error
    with pytest.raises(ValueError, match="playout must be one of"):
        MTISMCTSBot(playout="smart")


def test_rule_playout_differs_from_random_in_the_search():
    # The hook reaches the compiled loop: the same seeded search gives other statistics.
    def visits(playout):
        bot_spec = search_spec(5, playout)
        from spyglass.search.mtismcts import MTISMCTS

        root = K.new_state(5, 0, 0, 0)
        belief = ((bot_spec.dets[:, 0] & 1) == 0).astype(float)  # seat 0 is resistance
        res = MTISMCTS(bot_spec).search(root, belief, make_rng(2), searcher=0, iterations=500)
        return [res.pool.visits(c) for c in res.pool.children(res.decision_node)]

    assert visits("random") != visits("rules")
