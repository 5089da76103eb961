"""OpenSpiel's Hearts ISMCTSBot as an agent (spyglass/agents/openspiel_hearts.py): the
OpenSpiel state it is handed lies in the seat's information set (the same information
state string as the true deal's) and is drawn from the seat's view alone; seeded games
with passing are legal; its settings reach the bot. Skipped without OpenSpiel."""

from __future__ import annotations

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (crosscheck extra)")

from spyglass.agents import registry  # noqa: E402
from spyglass.arena.match import play_match  # noqa: E402
from spyglass.games.hearts import kernel as K  # noqa: E402
from spyglass.games.hearts.game import Hearts  # noqa: E402


def _true_os_state(os_game, s0):
    st = os_game.new_initial_state()
    st.apply_action(int(s0[K.PASS_DIR]))
    hands = [[c for c in range(52) if (int(s0[K.HAND + p]) >> c) & 1] for p in range(4)]
    for i in range(52):
        st.apply_action(hands[i % 4][i // 4])
    return st


@pytest.mark.parametrize("direction", ["left", "none"])
def test_rebuilt_state_is_in_the_seats_information_set(direction):
    """At each of seat 1's decisions, the state rebuilt from its view has the true deal's
    information state string for seat 1, and (hidden cards drawn afresh) not always the
    true hands: nothing was copied from the true state."""
    game = Hearts(target=0, pass_direction=direction, reward="points")
    os_game = pyspiel.load_game("hearts")
    s = game.new_state(11)
    truth = _true_os_state(os_game, s)
    agent = registry.make("openspiel_ismcts", iterations=20)
    agent.start(game, 1, game.view(s, 1), 5)
    others = [registry.make("hearts_rules") for _ in range(4)]
    for p in range(4):
        others[p].start(game, p, game.view(s, p), p)
    checked = differs = 0
    while not game.kernel.is_terminal(s):
        p = int(game.kernel.actor(s))
        legal = game.legal_actions(s)
        if p == 1 and int(s[K.PHASE]) == K.PLAYING:
            rebuilt = agent.os_state(game.view(s, 1))
            assert rebuilt.information_state_string(1) == truth.information_state_string(1)
            differs += rebuilt.information_state_string(0) != truth.information_state_string(0)
            checked += 1
            a = agent.act(game.view(s, 1), legal)
        elif p == 1:
            a = agent.act(game.view(s, 1), legal)
        else:
            a = others[p].act(game.view(s, p), legal)
        assert a in legal
        obs = [int(game.kernel.observe(s, a, j)) for j in range(4)]
        game.kernel.apply(s, a)
        truth.apply_action(a)
        agent.observe(obs[1], p, game.view(s, 1))
        for j in range(4):
            others[j].observe(obs[j], p, game.view(s, j))
    assert checked >= 10 and differs >= 1


def test_seeded_games_with_passing_are_legal():
    """A several-deal game with passing: every move accepted by the referee, the budget
    as set (iterations per decision, and CPU seconds by calibration)."""
    game = Hearts(target=20)
    lineup = ["openspiel_ismcts:iterations=30", "hearts_rules",
              "openspiel_ismcts:seconds=0.005,final=visit_counts", "hearts_rules"]
    r = play_match(game, lineup, seed=2)
    assert r.ok, r.error
    assert r.extra[0]["openspiel_iterations"] == 30 * r.extra[0]["openspiel_decisions"]
    assert r.extra[2]["openspiel_decisions"] > 0
    per = r.extra[2]["openspiel_cpu_seconds"] / r.extra[2]["openspiel_decisions"]
    assert per < 0.05  # calibrated near 0.005 s (plus one 100-iteration probe)


def test_settings_and_refusals():
    agent = registry.make("openspiel_ismcts")
    assert agent.settings["c"] == pytest.approx(43.4)
    assert agent.settings["final"] == "most_visited"
    with pytest.raises(ValueError):
        registry.make("openspiel_ismcts", final="random")
    from spyglass.games.doudizhu.game import DouDiZhu

    g = DouDiZhu()
    with pytest.raises(ValueError, match="hearts"):
        agent.start(g, 0, g.view(g.new_state(1), 0), 1)


def test_paired_bench_runs_resumes_and_refuses_other_settings(tmp_path):
    """The one-command comparison (spyglass/bench/hearts_vs_ismctsbot.py) on two deals."""
    from spyglass.bench.hearts_vs_ismctsbot import run, summarize

    out = tmp_path / "h.jsonl"
    args = ("soismcts:iterations=20", "openspiel_ismcts:iterations=20")
    run(out, 2, *args, seed=3)
    recs = run(out, 2, *args, seed=3)  # resumed: nothing replayed
    assert [(r["deal"], r["swap"]) for r in recs] == [(3, 0), (3, 1), (4, 0), (4, 1)]
    with pytest.raises(ValueError, match="other settings"):  # the declared size included
        run(out, 3, *args, seed=3)
    s = summarize(recs)
    assert s["deals"] == 2 and "difference" in s
    for r in recs:  # one deal's points: 26 in all (or a moon: 78)
        assert sum(r["points"]) in (26, 78)
