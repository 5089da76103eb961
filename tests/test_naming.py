"""One spec grammar and one registry class for both kinds of player (issue 27 item 3):
spyglass/naming.py splits every spec, and the agents' and the 2012 bots' parsers, the
web's data-only parser and the table of players all read the same split."""

from __future__ import annotations

import pytest

from spyglass.naming import (
    FILE,
    MODULE,
    NAME,
    Registry,
    UnknownName,
    is_file_source,
    parse_named_spec,
    split_spec,
)


@pytest.mark.parametrize("text,form,source,cls,settings", [
    ("random", NAME, "random", "", ""),
    (" MoISMCTS: iterations=5 ,c=0.5", NAME, "MoISMCTS", "", " iterations=5 ,c=0.5"),
    ("name:", NAME, "name", "", ""),
    ("name:model=a:b", NAME, "name", "", "model=a:b"),  # a value may hold a colon
    ("pkg.python_bots.Bot:k=1", MODULE, "pkg.python_bots.Bot", "", "k=1"),
    ("bots/x.py", FILE, "bots/x.py", "", ""),
    ("bots/x.py:Cls", FILE, "bots/x.py", "Cls", ""),
    ("bots/x.py:k=v,w=2", FILE, "bots/x.py", "", "k=v,w=2"),
    ("bots/x.py:Cls:k=v", FILE, "bots/x.py", "Cls", "k=v"),
    ("bots/x.py:Cls:", FILE, "bots/x.py", "Cls", ""),
])
def test_one_grammar(text, form, source, cls, settings):
    spec = split_spec(text)
    assert (spec.form, spec.source, spec.cls, spec.settings) == (form, source, cls, settings)
    assert is_file_source(text) == (form == FILE)


def test_both_apis_read_the_same_split(tmp_path):
    from spyglass.arena.agent_spec import AgentSpecError, parse_agent
    from spyglass.resistance.arena.spec import BotSpecError, parse_spec

    # Settings after a registered name, with spaces around the name, in both APIs.
    assert parse_agent(" random :seed=3").label == "random:seed=3"
    assert [s.name for s in parse_spec(" magi :tolerance=0.1")] == ["magi:tolerance=0.1"]
    # A part without '=' is a bad setting in both (the 2012 parser once took it for a name).
    with pytest.raises(AgentSpecError, match="expected key=value, got 'foo'"):
        parse_agent("random:foo")
    with pytest.raises(BotSpecError, match="expected key=value, got 'foo'"):
        parse_spec("magi:foo")
    # An agent file: its one class, named or not, with settings or not.
    path = tmp_path / "lowest.py"
    path.write_text("from spyglass.agents.base import Agent\n\n"
                    "class Lowest(Agent):\n    def act(self, view, legal):\n"
                    "        return min(legal)\n")
    for text in (str(path), f"{path}:Lowest", f"{path}:Lowest:"):
        assert parse_agent(text).label == "Lowest"


def test_web_parser_takes_the_name_form_only():
    assert parse_named_spec("MoISMCTS: iterations=5 ,c=0.5") == (
        "moismcts", {"iterations": "5", "c": "0.5"})
    for bad in ("x.py", "pkg.mod.Class", "random:evil.py:"):
        with pytest.raises(ValueError):
            parse_named_spec(bad)


def test_registry_class():
    class Base:
        pass

    reg = Registry(Base, "widget", "widget_name", lambda: ())

    @reg.register("Spinner")
    class Spinner(Base):
        pass

    assert Spinner.widget_name == "spinner"
    assert reg.find(" SPINNER ") is Spinner and reg.get("spinner") is Spinner
    assert reg.find("nothing") is None and reg.find(3) is None
    with pytest.raises(UnknownName, match="no widget named 'x'; widgets: spinner") as err:
        reg.get("x")
    assert isinstance(err.value, KeyError) and isinstance(err.value, ValueError)
    with pytest.raises(ValueError, match="already registered"):
        reg.register("spinner")(type("Other", (Base,), {}))
    with pytest.raises(TypeError, match="not a Base subclass"):
        reg.register("plain")(int)
    reg.forget("Spinner")
    assert reg.available() == {}


def test_both_registries_are_one_class():
    from spyglass.agents import registry as agents
    from spyglass.resistance.bots import registry as bots

    assert type(agents.REGISTRY) is type(bots.REGISTRY) is Registry
    assert bots.get("PandSBot").bot_name == "pandsbot"
    with pytest.raises(KeyError, match="no bot named 'nobody'"):  # as before: a KeyError
        bots.get("nobody")
    with pytest.raises(ValueError, match="no agent named 'nobody'"):
        agents.get("nobody")


def test_isolation_hosts_refuse_an_unknown_call():
    from spyglass.arena.agent_isolation import AgentHost
    from spyglass.games import registry as games
    from spyglass.resistance.arena.isolation import BotHost

    agent_host = AgentHost({"agent": "random", "game": games.make("phantom").config()})
    bot_host = BotHost({"source": "randombot", "params": []})
    for host in (agent_host, bot_host):
        with pytest.raises(ValueError, match="unknown call 'peek'"):
            host.call("peek", [])
