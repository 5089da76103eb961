"""Help for players (issue 32, item 8): every game's rules written once beside the game
(``rules.md``, :meth:`Game.rules`) and served by the web app as text blocks, with the
game's options in words and each bot's one-line help from the registry. (The pages in a
browser: tests/test_web_browser.py, ``test_rules_pages_and_help_on_the_new_table_page``.)"""

from __future__ import annotations

import re

import pytest

from spyglass.games import registry
from spyglass.players import players
from spyglass.web.rules import blocks

# A source a rules text cites: the thesis, a paper or a published rulebook, by its year
# (docs/references.md), or a rulebook named as such.
CITATION = re.compile(r"(Whitehouse|Taylor|Cowling|Bitan|Knizia|Lanctot|Moyersoen|"
                      r"Ravensburger|Eskridge)\b.*(\d{4}|rulebook)")


@pytest.mark.parametrize("name", registry.names())
def test_every_game_declares_its_rules_with_a_source(name):
    cls = registry.game_class(name)
    text = cls.rules()
    assert text.startswith(f"# {cls.title}\n"), "rules.md opens with the game's title"
    parts = blocks(text)
    heads = [b["h"] for b in parts if "h" in b]
    assert heads and heads[-1] == "Sources", heads
    sources = parts[-1]["ul"]
    assert sources and all(CITATION.search(s) for s in sources), sources
    words = " ".join(b.get("p", "") + " ".join(b.get("ul", [])) for b in parts)
    assert len(words.split()) >= 60, "a few paragraphs, not a line"
    for p in cls.options:  # the options a player can set are the ones the text may name
        assert p.help, f"{name}: option {p.name} has no help"


def test_blocks_cut_the_markdown_the_games_write():
    text = ("# T\n\nOne\ntwo.\n\n## Head\n\n- an item\n  that goes on\n- two\nAfter.\n"
            "## Sources\n\n- X 2014, §1.\n")
    assert blocks(text) == [{"p": "One two."}, {"h": "Head"},
                            {"ul": ["an item that goes on", "two"]}, {"p": "After."},
                            {"h": "Sources"}, {"ul": ["X 2014, §1."]}]
    assert blocks("<script>x</script>") == [{"p": "<script>x</script>"}]  # text, drawn as text


def test_every_registered_player_has_one_line_of_help():
    """The bots' descriptions the new-table and rules pages show (and `spyglass bots`)."""
    missing = [k for k, p in players().items() if not p.help.strip()]
    assert not missing, missing
    assert all("\n" not in p.help for p in players().values())


fastapi = pytest.importorskip("fastapi", reason="the web extra is not installed")


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    from fastapi.testclient import TestClient
    from web_play import web_settings

    from spyglass.web.app import create_app

    db = tmp_path_factory.mktemp("web") / "games.sqlite3"
    app = create_app(f"sqlite:///{db}", workers=1, settings=web_settings())
    with TestClient(app) as c:
        yield c


def test_rules_api_and_pages(client):
    r = client.get("/api/rules/resistance")
    assert r.status_code == 200
    d = r.json()
    assert d["title"] == "The Resistance" and d["players"] == "5-10"
    assert {"h": "Five rejections"} in d["blocks"]
    assert d["options"] == [{"name": "fifth_rejection", "label": "fifth rejection",
                             "default": "spies_win", "choices": ["spies_win", "forced"],
                             "help": d["options"][0]["help"]}]
    bots = {b["name"]: b["help"] for b in d["bots"]}
    assert "pandsbot" in bots and bots["random"]
    for url in ("/rules", "/rules/hearts"):
        page = client.get(url)
        assert page.status_code == 200 and "text/html" in page.headers["content-type"]
        assert 'src="/static/rules.js"' in page.text


@pytest.mark.parametrize("name", ["nosuchgame", "..%2F..%2Fetc%2Fpasswd", "hearts.md",
                                  "spyglass.games.hearts"])
def test_a_name_that_is_no_game_is_refused_and_opens_nothing(client, name):
    r = client.get(f"/api/rules/{name}")
    assert r.status_code == 404  # a path with slashes matches no route at all
    assert "/" in name.replace("%2F", "/") or "no game named" in r.json()["detail"]
    assert client.get(f"/rules/{name}").status_code == 404


def test_games_info_gives_each_bot_its_help(client):
    games = {g["name"]: g for g in client.get("/api/games_info").json()["games"]}
    for g in games.values():
        assert set(g["bot_help"]) == set(g["bots"])
    assert games["hearts"]["bot_help"]["random"]


def test_the_terminal_player_is_no_bot_for_a_web_seat(client):
    """`human` (the 2012 API's terminal player) waits for stdin: a web seat would lose it
    to a random bot at its first move, so it is neither offered nor accepted."""
    from spyglass.games.registry import make
    from spyglass.web.seats import bot_names, check_bot

    game = make("resistance", 5)
    assert "human" not in bot_names(game) and "pandsbot" in bot_names(game)
    with pytest.raises(ValueError, match="no bot named 'human'"):
        check_bot("human", game)
    seats = [{"kind": "bot", "bot": "human"}] + [{"kind": "bot", "bot": "random"}] * 4
    r = client.post("/api/tables", json={"game": "resistance", "seats": seats})
    assert r.status_code == 400 and "no bot named 'human'" in r.json()["detail"]


def test_a_table_says_what_each_bot_is(client):
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "soismcts:iterations=20"}]
    t = client.post("/api/tables", json={"game": "phantom", "seats": seats}).json()["table"]
    assert [s["about"] for s in t["seats"]] == [
        "", players()["soismcts"].help]
    assert t["seats"][1]["about"].startswith("SO-ISMCTS")
