"""The learned opponent model of the ``mtismcts`` bot (``model=learned``, issue 31).

Per-opponent behaviour rates counted across games (Taylor 2014, §3.6, §4.1) become
likelihoods over spy configurations for a Bayes update of φ, in place of eq. 2 of
Cowling et al. 2015, §V.
"""

from __future__ import annotations

import numpy as np
import pytest

from spyglass.games.resistance.observation import GameView, PublicRecord
from spyglass.games.resistance.tables import spy_configurations
from spyglass.resistance.arena.referee import play_game
from spyglass.resistance.arena.spec import parse_spec
from spyglass.resistance.bots.learned_likelihood import DEFAULTS, LearnedLikelihood
from spyglass.resistance.bots.mtismcts import MTISMCTSBot
from spyglass.search.inference import Belief

NAMES = ("me", "a", "b", "c", "d")
CONFIGS = spy_configurations(5)


def _model(memory=None):
    return LearnedLikelihood({} if memory is None else memory, CONFIGS, NAMES, seat=0)


def test_vote_likelihood_follows_the_rates_per_configuration():
    m = _model()
    like = m.votes((1, 2), (False, True, True, False, False), attempt=1)
    # Configuration {3, 4}: the team is clean; seats 1, 2 approve on it (resistance),
    # 3, 4 reject off it (spies).
    k = [int(c) for c in CONFIGS].index(0b11000)
    on_res, off_spy = DEFAULTS["approve_clean_on"][1], DEFAULTS["approve_clean_off"][0]
    expected = on_res * on_res * (1 - off_spy) * (1 - off_spy)
    assert like[k] == pytest.approx(expected, rel=0.05)  # BehaviourStats clips to [.03, .97]
    assert np.all(m.votes((1, 2), (True,) * 5, attempt=5) == 1.0)  # last attempt: no news


def test_mission_likelihood_is_the_spies_fail_distribution():
    m = _model()
    like = m.mission((1, 2), fails=2, my_card=0)
    s = m.rates["sabotage"][0][1]
    for k, c in enumerate(CONFIGS.tolist()):
        both = (c >> 1) & 1 and (c >> 2) & 1
        assert like[k] == pytest.approx(s * s if both else 0.0)
    like = m.mission((1, 2), fails=0, my_card=0)
    k = [int(c) for c in CONFIGS].index(0b00110)
    assert like[k] == pytest.approx((1 - s) ** 2)


def test_it_learns_across_games_from_the_revealed_roles():
    memory: dict = {}
    record = PublicRecord(5, NAMES)
    for attempt in range(1, 4):  # seat 1 (a spy) votes for the spied team every time
        record.begin_attempt(1, attempt, 1)
        record.add_proposal(1, (1, 2), (False, True, False, False, False), False)
    before = _model(memory).rates["approve_spied_on"][0][1]
    m = _model(memory)
    m.learn(GameView(record), frozenset({1, 4}))
    after = _model(memory).rates["approve_spied_on"][0][1]
    assert after > before
    assert _model(memory).stats.chances("a", True, "approve_spied_on") == 3
    assert _model(memory).stats.chances("me", False, "approve_clean_off") == 0  # not itself


def test_belief_reweight_is_bayes_and_checks_its_input():
    b = Belief(np.ones(4))
    b.reweight([1.0, 3.0, 0.0, 0.0])
    assert b.phi.tolist() == pytest.approx([0.25, 0.75, 0.0, 0.0])
    b.reweight(np.zeros(4))  # a model that rules out everything is ignored
    assert b.phi.tolist() == pytest.approx([0.25, 0.75, 0.0, 0.0])
    with pytest.raises(ValueError, match="one finite non-negative value"):
        b.reweight([1.0, -1.0, 0.0, 0.0])


def test_bot_option_plays_validates_and_is_recorded():
    (spec,) = parse_spec("mtismcts:iterations=60,model=learned")
    assert spec.make().params["model"] == "learned"
    assert "model" not in MTISMCTSBot(iterations=60).params
    r = play_game([MTISMCTSBot(iterations=60, model="learned")] + ["scepticbot"] * 4, seed=4)
    assert r.error is None, r.error
    with pytest.raises(ValueError, match="model must be one of search, learned"):
        MTISMCTSBot(model="oracle")


def test_bluff_roles_spy_makes_resistance_members_search_trueonly():
    spy_seat_game = play_game(
        [MTISMCTSBot(iterations=60, bluff="split", t1=30, bluff_roles="spy")]
        + ["randombot"] * 4, seed=2, spies=(0, 1))
    res_seat_game = play_game(
        [MTISMCTSBot(iterations=60, bluff="split", t1=30, bluff_roles="spy")]
        + ["randombot"] * 4, seed=2, spies=(3, 4))
    assert spy_seat_game.error is None and res_seat_game.error is None
    assert "psi" in spy_seat_game.to_record()["extra"]["0"]["belief"][0]  # a spy keeps ψ
    assert "psi" not in res_seat_game.to_record()["extra"]["0"]["belief"][0]  # TRUEONLY
    assert MTISMCTSBot(bluff_roles="spy").params["bluff_roles"] == "spy"
    assert "bluff_roles" not in MTISMCTSBot().params
    with pytest.raises(ValueError, match="bluff_roles must be one of both, spy"):
        MTISMCTSBot(bluff_roles="resistance")


def test_psi_model_learned_updates_psi_from_the_public_record_by_the_rates():
    """``psi_model=learned``: a spy's ψ is the public's Bayes posterior under the learned
    rates (no seat is "this bot"), not eq. 2 over the merged tree."""
    bot = MTISMCTSBot(iterations=60, bluff="split", t1=30, bluff_roles="spy",
                      model="learned", psi_model="learned")
    rec = play_game([bot] + ["randombot"] * 4, seed=2, spies=(0, 1)).to_record()
    assert rec["setup"]["bots"][0] == "mtismcts" and bot.params["psi_model"] == "learned"
    traj = rec["extra"]["0"]["belief"]
    first = rec["events"][0]
    public = LearnedLikelihood({}, CONFIGS, rec["setup"]["bots"], seat=-1)
    expect = public.proposal(first["leader"], first["team"])
    expect = expect / expect.sum()
    assert traj[0]["type"] == "start" and traj[1]["type"] == "proposal"
    np.testing.assert_allclose(traj[1]["psi"], expect, atol=1e-5)
    votes = public.votes(first["team"], first["votes"], first["attempt"]) * expect
    np.testing.assert_allclose(traj[2]["psi"], votes / votes.sum(), atol=1e-5)
    with pytest.raises(ValueError, match="psi_model=learned needs model=learned"):
        MTISMCTSBot(psi_model="learned")
    with pytest.raises(ValueError, match="psi_model must be one of search, learned"):
        MTISMCTSBot(model="learned", psi_model="oracle")
    assert "psi_model" not in MTISMCTSBot(model="learned").params


def test_expert_rules_veto_the_search_choice():
    """``expert=spy``: a leader is on its team, a spy approves every team holding a spy
    and leads no other spy (Taylor 2014, §4.2); ``expert=none`` breaks these rules."""
    def broken(expert: str) -> int:
        n = 0
        for seed in range(6):
            spies = (0, 2) if seed % 2 else (3, 4)
            bot = MTISMCTSBot(iterations=40, model="learned", expert=expert)
            rec = play_game([bot] + ["randombot"] * 4, seed=seed, spies=spies).to_record()
            assert rec["setup"]["bots"][0] == "mtismcts"
            for e in rec["events"]:
                if e["type"] != "proposal":
                    continue
                team, spy = set(e["team"]), set(spies)
                if e["leader"] == 0:
                    n += 0 not in team or (0 in spy and len(team & spy) > 1)
                if 0 in spy and e.get("votes") and team & spy:
                    n += not e["votes"][0]
        return n

    assert broken("spy") == 0
    assert broken("none") > 0
    assert MTISMCTSBot(expert="lead").params["expert"] == "lead"
    assert "expert" not in MTISMCTSBot().params
    with pytest.raises(ValueError,
                       match="expert must be one of none, lead, lead_vote, spy, lead_nospy"):
        MTISMCTSBot(expert="oracle")


def test_expert_lead_nospy_keeps_the_team_rules_without_the_vote_rule():
    """``expert=lead_nospy``: a spy leader on its team without the other spy, and the spy
    votes by its search (it rejected some team holding a spy in these games)."""
    bad = rejected_spied = 0
    for seed in range(6):
        spies = (0, 2)
        bot = MTISMCTSBot(iterations=40, model="learned", expert="lead_nospy")
        rec = play_game([bot] + ["randombot"] * 4, seed=seed, spies=spies).to_record()
        for e in rec["events"]:
            if e["type"] != "proposal":
                continue
            team = set(e["team"])
            if e["leader"] == 0:
                bad += 0 not in team or 2 in team
            if e.get("votes") and team & set(spies):
                rejected_spied += not e["votes"][0]
    assert bad == 0
    assert rejected_spied > 0
