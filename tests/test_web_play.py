"""A place people want to play in (issue 32), server side: the end of a game is told
from each viewer's side; the table page's data never breaks the page while bots finish.
(The pages themselves: tests/test_web_browser.py.)"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx", reason="the web extra is not installed (pip install '.[web]')")

from fastapi.testclient import TestClient  # noqa: E402
from web_play import play, web_settings  # noqa: E402

from spyglass.games.registry import make  # noqa: E402
from spyglass.web.app import create_app  # noqa: E402
from spyglass.web.views import outcome  # noqa: E402


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = tmp_path_factory.mktemp("web") / "games.sqlite3"
    app = create_app(f"sqlite:///{db}", workers=1, settings=web_settings(), time_limit=20)
    with TestClient(app) as c:
        yield c


def test_the_result_is_said_from_each_side():
    res = make("resistance", 5)
    labels = ("Ada", "Bob", "Cy", "Di", "Ed")
    team = (1.0, 0.0, 1.0, 1.0, 0.0)  # the resistance (0, 2, 3) won
    assert outcome(res, team, labels, 0) == {
        "outcome": "won", "winners": [0, 2, 3], "text": "You won, with Cy and Di."}
    assert outcome(res, team, labels, 1)["text"] == "You lost: Ada and Cy and Di won."
    assert outcome(res, team, labels, None)["text"] == "Won by Ada and Cy and Di."
    ph = make("phantom")
    assert outcome(ph, (1.0, 0.0), ("Ada", "bot"), 0)["text"] == "You won."
    assert outcome(ph, (0.0, 1.0), ("Ada", "bot"), 0)["text"] == "You lost: bot won."
    assert outcome(ph, (0.5, 0.5), ("Ada", "bot"), 0)["outcome"] == "draw"
    assert outcome(ph, None, ("Ada", "bot"), 0)["outcome"] == "none"


def test_a_person_is_told_their_own_result(client):
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}]
    t = client.post("/api/tables", json={"game": "phantom", "seats": seats}).json()
    inv = t["invites"][0]
    with client.websocket_connect(f"/ws/{t['table']['id']}?token={inv['token']}") as ws:
        last, _ = play(ws, 1, pick=lambda m: m["legal"][0]["id"])
    r = last["result"]
    mine, theirs = r["rewards"]
    want = "won" if mine > theirs else "lost" if mine < theirs else "draw"
    assert r["outcome"] == want
    assert r["text"] == {"won": "You won.", "lost": "You lost: random won.",
                         "draw": "A draw."}[want]
