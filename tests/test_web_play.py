"""A place people want to play in (issue 32), server side: the end of a game is told
from each viewer's side; the table page's data never breaks the page while bots finish.
(The pages themselves: tests/test_web_browser.py.)"""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx", reason="the web extra is not installed (pip install '.[web]')")

import contextlib  # noqa: E402
import json  # noqa: E402
import time  # noqa: E402

from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402
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


SPECTATOR_KEYS = {"type", "spectator", "table", "log", "chat"}


def test_lobby_join_then_a_spectator_sees_only_public_information(client):
    seats = [{"kind": "human", "open": True}] + [{"kind": "bot", "bot": "random"}] * 4
    t = client.post("/api/tables", json={"game": "resistance", "seats": seats}).json()
    tid = t["table"]["id"]
    assert t["invites"] == [] and t["table"]["status"] == "waiting"  # nobody holds a link
    lobby = client.get("/api/lobby").json()
    assert tid in [x["id"] for x in lobby["open"]]
    assert client.post(f"/api/tables/{tid}/join", json={"name": ""}).status_code == 400
    j = client.post(f"/api/tables/{tid}/join", json={"name": "Zoe"}).json()
    assert j["seat"] == 0 and j["name"] == "Zoe" and j["token"] in j["url"]
    assert tid not in [x["id"] for x in client.get("/api/lobby").json()["open"]]
    again = client.post(f"/api/tables/{tid}/join", json={"name": "Max"})
    assert again.status_code == 409 and "no free seat" in again.json()["detail"]
    with client.websocket_connect(f"/ws/{tid}?token={j['token']}") as seat, \
            client.websocket_connect(f"/ws/{tid}?watch=1") as spec:
        assert tid in [x["id"] for x in client.get("/api/lobby").json()["playing"]]
        private: set[str] = set()

        def pick(m):
            # Everything this seat was shown privately (its view, its role).
            private.update(line for line in m["view_text"].splitlines() if "spy" in line.lower())
            return m["legal"][0]["id"]

        last, _ = play(seat, 1, pick=pick)
        assert last["result"]["outcome"] in ("won", "lost")
        seen = []
        while True:
            m = spec.receive_json()
            seen.append(m)
            if m["table"]["status"] == "finished" and m.get("result", {}).get("game_id"):
                break
    assert len(seen) >= 2
    table = client.app.state.server.tables[tid]
    labels = table.labels
    for m in seen[:-1]:
        # Before the end: the public table and who moved, nothing else.
        assert set(m) == SPECTATOR_KEYS, set(m)
        text = json.dumps(m)
        assert '"spy"' not in text and "SPY" not in text
        assert not any(line in text for line in private)
        assert all(line.removesuffix(" moved") in labels for line in m["log"])
    end = seen[-1]["result"]
    assert end["outcome"] in ("watched", "draw") and end["text"].startswith(("Won by", "A draw"))
    assert end["roles"] == list(table.game.roles(table.state))  # after the end: everything


def test_a_spectator_may_not_act(client):
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}]
    t = client.post("/api/tables", json={"game": "phantom", "seats": seats}).json()
    with client.websocket_connect(f"/ws/{t['table']['id']}?watch=1") as spec:
        assert spec.receive_json()["spectator"] is True
        spec.send_json({"type": "act", "seq": 1, "move": 0, "action": 0})
        with pytest.raises(WebSocketDisconnect):
            while True:
                spec.receive_json()


def _error(ws, limit=200):
    for _ in range(limit):
        m = ws.receive_json()
        if m["type"] == "error":
            return m["message"]
    raise AssertionError("no error message")


def _chat_until(ws, pred, limit=200):
    for _ in range(limit):
        m = ws.receive_json()
        if m["type"] == "state" and pred(m.get("chat", [])):
            return m
    raise AssertionError("no such chat")


def test_chat_is_bounded_separated_stored_and_replayed(client):
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}]
    t = client.post("/api/tables", json={"game": "phantom", "seats": seats}).json()
    tid, tok = t["table"]["id"], t["invites"][0]["token"]
    with client.websocket_connect(f"/ws/{tid}?token={tok}") as seat, \
            client.websocket_connect(f"/ws/{tid}?watch=1") as spec:
        hostile = "<img src=x onerror=alert(1)> hi"
        seat.send_json({"type": "chat", "text": hostile})
        m = _chat_until(seat, lambda c: c and c[-1]["text"] == hostile)
        assert m["chat"][-1] == {"move": m["chat"][-1]["move"], "seat": 0, "name": "Ada",
                                      "text": hostile, "to": "all"}
        _chat_until(spec, lambda c: c and c[-1]["text"] == hostile)  # spectators read seats
        spec.send_json({"type": "chat", "text": "go left!"})
        _chat_until(spec, lambda c: c and c[-1]["text"] == "go left!")
        # ... but a seat never reads the spectators (no coaching).
        table = client.app.state.server.tables[tid]
        assert all(c["text"] != "go left!" for c in table.chat_for(spectator=False))
        for bad, why in (("", "non-empty"), ("x" * 301, "at most 300"), (7, "non-empty")):
            seat.send_json({"type": "chat", "text": bad})
            assert why in _error(seat)
        # Rate limit: 20 a minute per client and table (three were taken above: two
        # lines and the refusals count too).
        refused = None
        for i in range(25):
            seat.send_json({"type": "chat", "text": f"line {i}"})
            while refused is None:
                m = seat.receive_json()
                if m["type"] == "error":
                    refused = m["message"]
                elif m["chat"] and m["chat"][-1]["text"] == f"line {i}":
                    break
            if refused:
                break
        assert "chat messages a minute" in refused and i < 20
        seat.send_json({"type": "refresh"})  # the state again, to play from
        last, _ = play(seat, 1, pick=lambda m: m["legal"][0]["id"])
    game_id = last["result"]["game_id"]
    rec = client.get(f"/api/games/{game_id}").json()
    texts = [c["text"] for c in rec["web"]["chat"]]
    assert hostile in texts and "go left!" in texts and len(texts) <= 20
    assert client.get(f"/api/games/{game_id}/replay").json()["chat"] == rec["web"]["chat"]


def test_a_bad_clock_is_refused(client):
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}]
    for bad in (1, 10**6, "30", True):
        r = client.post("/api/tables", json={"game": "phantom", "seats": seats, "clock": bad})
        assert r.status_code == 400 and "'clock'" in r.json()["detail"], bad


def test_a_person_out_of_time_is_replaced_by_a_named_bot_and_the_game_is_unrated(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 'g.sqlite3'}", workers=1,
                     settings=web_settings(clock_grace=0.5), time_limit=20)
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}]
    with TestClient(app) as c:
        t = c.post("/api/tables", json={"game": "phantom", "seats": seats, "clock": 5}).json()
        tid, tok = t["table"]["id"], t["invites"][0]["token"]
        with c.websocket_connect(f"/ws/{tid}?token={tok}") as ws:
            m = ws.receive_json()
            while not m["your_turn"]:
                m = ws.receive_json()
            assert m["table"]["clock"] == 5 and 0 < m["table"]["seconds_left"] <= 5.5
            # Ada never moves: after 5 s and the grace, a bot plays her seat to the end.
            while not (m["table"]["status"] == "finished" and m.get("result", {}).get("game_id")):
                m = ws.receive_json()
        notes = " ".join(m["table"]["notes"])
        assert "Ada (seat 0) ran out of time (5s a move, 0.5s grace)" in notes
        assert "the bot 'random' plays the seat" in notes
        rec = c.get(f"/api/games/{m['result']['game_id']}").json()
        assert not rec["web"]["rated"]
        assert any("after its person ran out of time" in u for u in rec["web"]["unrated"])
        assert len(rec["actions"]) >= 7  # the game went on without her


def _game_over(c, tid, seconds=60):
    """The finished table's public data (polled: nobody is connected)."""
    import time

    end = time.time() + seconds
    while time.time() < end:
        t = c.get(f"/api/tables/{tid}").json()
        if t["status"] == "finished" and t["game_id"]:
            return t
        time.sleep(0.1)
    raise AssertionError("the table stalled")


@contextlib.contextmanager
def _adas_turn(tmp_path, **limits):
    """A server with ``limits`` and Ada (a person) against the bot random at Phantom; Ada
    opens her page, waits for her turn and closes the page. Yields (client, table id,
    token, the message that said it was her turn)."""
    app = create_app(f"sqlite:///{tmp_path / 'g.sqlite3'}", workers=1,
                     settings=web_settings(**limits), time_limit=20)
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}]
    with TestClient(app) as c:
        t = c.post("/api/tables", json={"game": "phantom", "seats": seats}).json()
        tid, tok = t["table"]["id"], t["invites"][0]["token"]
        with c.websocket_connect(f"/ws/{tid}?token={tok}") as ws:
            m = ws.receive_json()
            while not m["your_turn"]:
                m = ws.receive_json()
        yield c, tid, tok, m


def test_an_unclocked_person_who_leaves_on_their_move_is_replaced_by_a_bot(tmp_path):
    """The declared rule (README, web section): without a clock, a seat with no page open
    for ``away_seconds`` on its move is played by the bot 'random'; the game is unrated."""
    with _adas_turn(tmp_path, away_seconds=1.0) as (c, tid, _tok, m):
        assert m["table"]["clock"] is None and m["table"]["away_left"] is None
        t = _game_over(c, tid)  # a second after Ada closed her page, a bot plays her seat
        notes = " ".join(t["notes"])
        assert "Ada (seat 0) left the table (no page open for 1s on their move)" in notes
        assert not t["rated"] and any("after its person left the table" in u
                                      for u in t["unrated"])


def test_a_person_who_comes_back_in_time_keeps_the_seat(tmp_path):
    import time

    with _adas_turn(tmp_path, away_seconds=2.0) as (c, tid, tok, _m):
        for _ in range(50):  # everyone is told the seat is empty, and the countdown
            left = c.get(f"/api/tables/{tid}").json()["away_left"]
            if left is not None:
                break
            time.sleep(0.05)
        assert left is not None and 0 < left <= 2.0
        with c.websocket_connect(f"/ws/{tid}?token={tok}") as ws:  # back in time
            m = ws.receive_json()
            time.sleep(3.0)  # longer than the limit: the count started again
            t = c.get(f"/api/tables/{tid}").json()
            assert t["status"] == "playing" and not t["notes"] and t["away_left"] is None
            assert m["your_turn"]
            move = m["table"]["move"]
            ws.send_json({"type": "act", "seq": 1, "move": move,
                          "action": m["legal"][0]["id"]})
            while m["table"]["move"] == move:  # her move counted, as hers
                m = ws.receive_json()
                assert m["type"] == "state", m
        assert not c.get(f"/api/tables/{tid}").json()["notes"]


def test_an_unclocked_person_idle_with_the_page_open_is_replaced_after_the_idle_limit(
        tmp_path):
    with _adas_turn(tmp_path, idle_seconds=1.5) as (c, tid, tok, _m), \
            c.websocket_connect(f"/ws/{tid}?token={tok}") as ws:
        m = ws.receive_json()
        while not (m["table"]["status"] == "finished" and m.get("result", {}).get("game_id")):
            m = ws.receive_json()  # the page stays open; Ada never moves
    assert "Ada (seat 0) did not move for 1.5s (a table without a clock)" in " ".join(
        m["table"]["notes"])
    assert not m["table"]["rated"]


def test_rematch_same_seats_new_deal_one_link_per_person(client):
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}]
    t = client.post("/api/tables", json={"game": "phantom", "seats": seats, "clock": 60}).json()
    tid, tok = t["table"]["id"], t["invites"][0]["token"]
    early = client.post(f"/api/tables/{tid}/rematch", json={"token": tok})
    assert early.status_code == 409  # not finished yet
    with client.websocket_connect(f"/ws/{tid}?token={tok}") as ws:
        last, _ = play(ws, 1, pick=lambda m: m["legal"][0]["id"])
        assert last["rematch"] is None
        assert client.post(f"/api/tables/{tid}/rematch",
                           json={"token": "not-a-seat"}).status_code == 403
        r = client.post(f"/api/tables/{tid}/rematch", json={"token": tok}).json()
        assert client.post(f"/api/tables/{tid}/rematch", json={"token": tok}).json() == r
        m = ws.receive_json()
        assert m["rematch"] == r["url"]  # told on the old table's page too
    srv = client.app.state.server
    old, new = srv.tables[tid], srv.tables[r["table"]]
    assert new.id != old.id and new.seed != old.seed and new.status == "waiting"
    assert new.labels == old.labels and [s.kind for s in new.seats] == ["human", "bot"]
    assert new.clock == 60
    new_token = r["url"].split("token=")[1]
    with client.websocket_connect(f"/ws/{new.id}?token={new_token}") as ws:
        m = ws.receive_json()
        assert m["seat"] == 0 and m["you"] == "Ada"


def test_a_forgotten_table_link_leads_to_its_replay(client):
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}]
    t = client.post("/api/tables", json={"game": "phantom", "seats": seats}).json()
    tid, tok = t["table"]["id"], t["invites"][0]["token"]
    with client.websocket_connect(f"/ws/{tid}?token={tok}") as ws:
        last, _ = play(ws, 1, pick=lambda m: m["legal"][0]["id"])
    client.app.state.server.tables.pop(tid)  # as after a restart, or 200 newer games
    r = client.get(f"/table/{tid}?seat=0&token={tok}", follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == f"/replay/{last['result']['game_id']}"
    unknown = client.get("/table/no-such-table")
    assert unknown.status_code == 404 and "No such table" in unknown.text
    assert "text/html" in unknown.headers["content-type"]


def test_ratings_are_computed_again_only_after_a_new_game(client):
    store = client.app.state.server.store
    calls = []
    real = store.compute_ratings
    store.compute_ratings = lambda game: calls.append(game) or real(game)
    try:
        first = client.get("/api/ratings?game=phantom").json()
        assert client.get("/api/ratings?game=phantom").json() == first
        assert calls == ["phantom"]
        # A newly stored game of that game makes them stale: computed once more.
        t = client.post("/api/tables", json={"game": "phantom", "seats": [
            {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]}).json()
        table = client.app.state.server.tables[t["table"]["id"]]
        end = time.time() + 60
        while table.game_id is None:
            assert time.time() < end, "the bots' game was not stored"
            time.sleep(0.02)
        client.get("/api/ratings?game=phantom")
        client.get("/api/ratings?game=phantom")
        client.get("/api/ratings?game=hearts")
        assert calls == ["phantom", "phantom", "hearts"]
    finally:
        store.compute_ratings = real


@pytest.mark.parametrize("path", ["/", "/lobby", "/games", "/ratings", "/rules",
                                  "/rules/hearts", "/replay/x", "/table/no-such-table"])
def test_every_page_has_the_favicon(client, path):
    page = client.get(path, follow_redirects=False)
    assert '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">' in page.text
    icon = client.get("/static/favicon.svg")
    assert icon.status_code == 200 and icon.headers["content-type"].startswith("image/svg")
