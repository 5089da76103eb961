"""The recommended agent of each game (spyglass/agents/recommended.py, issue 31 item 1):
every registered game answers ``spyglass bots --game G --best`` with one spec that
builds a registered player of that game, within the stated budget; a game the table
does not list gets the default."""

from __future__ import annotations

import pytest

from spyglass.agents.recommended import BUDGET_CPU_SECONDS, DEFAULT, RECOMMENDED, best
from spyglass.arena.agent_spec import parse_agent
from spyglass.games import registry as games
from spyglass.naming import split_spec
from spyglass.players import BOT2012, lookup


@pytest.mark.parametrize("name", games.names())
def test_every_game_has_a_buildable_recommendation(name):
    rec = best(name)
    player = lookup(split_spec(rec.spec).key)
    assert player is not None, rec.spec
    if player.kind == BOT2012:
        assert name == "resistance"
    else:
        agent = parse_agent(rec.spec).make()  # the settings validate
        assert not agent.omniscient  # fair play only
    assert rec.cpu_per_decision is None or rec.cpu_per_decision <= BUDGET_CPU_SECONDS
    assert rec.evidence and (rec.measured or "not measured" in rec.evidence.lower()
                             or "no measurement" in rec.evidence.lower())


def test_table_lists_only_registered_games_and_a_default_for_new_ones():
    assert set(RECOMMENDED) <= set(games.names())
    assert best("a_game_added_later") is DEFAULT
    assert lookup(split_spec(DEFAULT.spec).key) is not None


@pytest.mark.parametrize("name", ["hearts", "resistance", "doudizhu"])
def test_cli_prints_one_line(cli, name):
    r = cli("bots", "--game", name, "--best")
    assert r.exit_code == 0, r.output
    assert r.output.strip().splitlines() == [best(name).spec]
