"""One registry, one name per player (issue 27 item 3, issue 26 item 6): every surface (the
command line, `spyglass bots`, the web app, the Python API) routes a spec to a player by
the registry's kind, never by the spec's text."""

from __future__ import annotations

import pytest

from spyglass import players as registry
from spyglass.agents import registry as agents
from spyglass.games import registry as games
from spyglass.resistance.arena.bot_loader import load_class
from spyglass.resistance.bots.registry import RENAMED
from spyglass.web.seats import bot_names, check_bot, stored_spec

GENERIC = ("random", "moismcts", "soismcts", "soismcts_pom", "pimc", "cheatinguct")


def test_every_name_is_one_player_of_one_kind():
    players = registry.players()
    assert set(p.kind for p in players.values()) == set(registry.KINDS)
    for name in GENERIC:  # the generic names mean the game-general agents
        assert players[name].kind == registry.AGENT
    for old, new in RENAMED.items():  # the 2012 Bot-API bots that had them are renamed
        assert old in GENERIC and players[new].kind == registry.BOT2012
    assert players["pandsbot"].kind == registry.BOT2012


def test_a_name_cannot_be_registered_in_both_kinds():
    from spyglass.agents.base import Agent

    registry.players()
    try:
        @agents.register("pandsbot")
        class Clash(Agent):  # noqa: F841
            pass

        # The agents' and the bots' registries do not import each other (their layers);
        # the one table of players, above both, refuses the clash wherever it is read.
        with pytest.raises(ValueError, match="one name, one player"):
            registry.players()
        with pytest.raises(ValueError, match="one name, one player"):
            registry.lineup_kind(["pandsbot", "randombot"])
    finally:
        agents.REGISTRY.forget("pandsbot")
    assert registry.lookup("pandsbot").kind == registry.BOT2012


def test_routing_is_by_kind_not_by_text():
    # No `enhance=` needed: a registered agent name is an agent whatever its settings.
    assert registry.lineup_kind(["moismcts:iterations=5", "random"]) == registry.AGENT
    assert registry.lineup_kind(["moismcts_enum:iterations=5", "pandsbot"]) == registry.BOT2012
    assert registry.kind_of("path/to/bots.py") is None  # a file's contents decide
    assert registry.lineup_kind(["path/to/bots.py"]) == registry.BOT2012  # The Resistance's
    with pytest.raises(ValueError, match="mixes game-general agents"):
        registry.lineup_kind(["random", "pandsbot"])


def test_the_2012_loader_says_an_agent_name_is_an_agent():
    assert load_class("randombot").bot_name == "randombot"
    with pytest.raises(ValueError, match="is a game-general agent"):
        load_class("moismcts")


def test_tournament_api_refuses_a_mixed_lineup():
    from spyglass import tournament

    with pytest.raises(tournament.TournamentError, match="mixes"):
        tournament.run(["random", "pandsbot"], games=2, progress=False)


def test_cli_routes_by_kind(cli):
    r = cli("tournament", "random", "pandsbot", "--games", "2")
    assert r.exit_code == 2 and "mixes" in r.output
    r = cli("bots")
    assert r.exit_code == 0
    lines = {ln.split()[1]: ln for ln in r.output.splitlines() if ln.startswith("│ ")
             and len(ln.split()) > 3 and ln.split()[1] in ("moismcts", "moismcts_enum")}
    assert "agent" in lines["moismcts"] and "bot2012" in lines["moismcts_enum"]
    r = cli("bots", "--game", "phantom")
    assert "pandsbot" not in r.output and "randombot" not in r.output


def test_web_seats_use_the_same_names():
    resistance = games.make("resistance", 5)
    assert not check_bot("moismcts:iterations=10", resistance).classic
    assert check_bot("moismcts_enum:iterations=10", resistance).classic
    assert check_bot("randombot", resistance).classic
    assert not check_bot("random", resistance).classic
    names = bot_names(resistance)
    assert not any(n.startswith("classic:") for n in names) and len(names) == len(set(names))
    with pytest.raises(ValueError, match="no bot named 'pandsbot'"):
        check_bot("pandsbot", games.make("phantom"))
    # A table stored before the rename: its stored classic flag (data), not the text, decides.
    assert stored_spec("moismcts:iterations=9", True) == "moismcts_enum:iterations=9"
    assert stored_spec("moismcts:iterations=9", False) == "moismcts:iterations=9"


def test_a_game_specific_player_declares_its_games_once():
    """``plays`` on the class: refused at the start of another game, and listed (by
    ``spyglass bots`` and the web app's tables) only for its own games."""
    import pytest

    players = registry.players()
    assert players["doudizhu_rules"].games == ("doudizhu",)
    assert players["soismcts"].games is None
    assert players["pandsbot"].games == ("resistance",)
    g = games.make("othello")
    agent = agents.make("doudizhu_rules")
    with pytest.raises(ValueError, match="doudizhu_rules plays only doudizhu, not 'othello'"):
        agent.start(g, 0, g.view(g.new_state(0), 0), 0)
    from spyglass.web.seats import _players

    listed = _players(games.make("saboteur"))
    assert "soismcts" in listed and "doudizhu_rules" not in listed and "mga" not in listed
