"""Live tables survive a server restart: a game is played part way, the server stops, a
new server over the same database rebuilds the table by replaying its stored moves
through the rules (bots restarted from the deal and told every move), and the person
reconnects with the same seat token and plays to the end. The database holds only a
hash of each token; stored moves that the rules refuse end the table with an error."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx", reason="the web extra is not installed (pip install '.[web]')")

from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402
from web_play import cheat_move, next_turn, play, settle, web_settings  # noqa: E402

from spyglass.arena.history import replay_history  # noqa: E402
from spyglass.web.app import create_app  # noqa: E402
from spyglass.web.store import Store  # noqa: E402


@pytest.mark.parametrize("bot", ["random", "moismcts:iterations=30"])
def test_cheat_table_survives_a_restart(tmp_path, bot):
    url = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    body = {"game": "cheat", "seed": 17, "options": {"hand_size": 5, "max_rounds": 30},
            "seats": [{"kind": "human", "name": "rex"}, {"kind": "bot", "bot": bot}]}
    with TestClient(create_app(url, workers=1, settings=web_settings(), time_limit=20)) as c:
        t = c.post("/api/tables", json=body).json()
        tid, token = t["table"]["id"], t["invites"][0]["token"]
        with c.websocket_connect(f"/ws/{tid}?token={token}") as ws:
            _, seq = play(ws, 1, moves=3)
        settle(c.app.state.server, tid)
        before = list(c.app.state.server.tables[tid].actions)
        assert len(before) >= 3
    # The database holds the table and its moves, never the token itself.
    assert token.encode() not in (tmp_path / "g.sqlite3").read_bytes()
    live = Store(url).live_tables()
    assert [r["id"] for r in live] == [tid]
    assert [(s, a) for _, s, a, _ in live[0]["actions"]] == before

    with TestClient(create_app(url, workers=1, settings=web_settings(), time_limit=20)) as c:
        table = c.app.state.server.tables[tid]
        assert table.status == "playing" and table.actions[:len(before)] == before
        with pytest.raises(WebSocketDisconnect):
            with c.websocket_connect(f"/ws/{tid}?token=not-{token}") as ws:
                ws.receive_json()
        with c.websocket_connect(f"/ws/{tid}?token={token}") as ws:
            # An old message (seq already used before the restart) is refused.
            m = next_turn(ws)
            ws.send_json({"type": "act", "seq": seq - 1, "move": m["table"]["move"],
                          "action": cheat_move(m)})
            err = ws.receive_json()
            while err["type"] != "error":
                err = ws.receive_json()
            assert "stale" in err["message"]
            ws.send_json({"type": "act", "seq": seq, "move": m["table"]["move"],
                          "action": cheat_move(m)})
            last, _ = play(ws, seq + 1)
        rec = c.get(f"/api/games/{last['result']['game_id']}").json()
        assert rec["actions"][:len(before)] == [list(x) for x in before]
        assert replay_history(rec).finished and rec["seed"] == 17
        assert not rec["web"]["replaced"], rec["web"]["notes"]
    assert Store(url).live_tables() == []


def test_resistance_table_with_classic_bots_survives_a_restart(tmp_path):
    url = f"sqlite:///{tmp_path / 'r.sqlite3'}"
    seats = [{"kind": "human", "name": "ann"}, {"kind": "bot", "bot": "pandsbot"},
             {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "bounder"},
             {"kind": "bot", "bot": "logicalbot"}]

    def first(m):
        return m["legal"][0]["id"]

    with TestClient(create_app(url, workers=1, settings=web_settings(), time_limit=20)) as c:
        t = c.post("/api/tables", json={"game": "resistance", "seed": 4, "seats": seats}).json()
        tid, token = t["table"]["id"], t["invites"][0]["token"]
        with c.websocket_connect(f"/ws/{tid}?token={token}") as ws:
            _, seq = play(ws, 1, moves=3, pick=first)
        settle(c.app.state.server, tid)
        before = list(c.app.state.server.tables[tid].actions)
    with TestClient(create_app(url, workers=1, settings=web_settings(), time_limit=20)) as c:
        with c.websocket_connect(f"/ws/{tid}?token={token}") as ws:
            last, _ = play(ws, seq, pick=first)
        rec = c.get(f"/api/games/{last['result']['game_id']}").json()
    assert rec["actions"][:len(before)] == [list(x) for x in before]
    assert len(rec["actions"]) > len(before)
    assert not rec["web"]["replaced"], rec["web"]["notes"]
    assert replay_history(rec).finished


def test_stored_moves_the_rules_refuse_end_the_table_with_an_error(tmp_path):
    url = f"sqlite:///{tmp_path / 'b.sqlite3'}"
    body = {"game": "cheat", "seed": 2, "options": {"hand_size": 4},
            "seats": [{"kind": "human", "name": "a"}, {"kind": "human", "name": "b"}]}
    with TestClient(create_app(url, workers=1, settings=web_settings())) as c:
        tid = c.post("/api/tables", json=body).json()["table"]["id"]
        actor = c.app.state.server.tables[tid].game.kernel.actor(
            c.app.state.server.tables[tid].state)
    # A stored move that is no action of the game at all.
    Store(url).live_action(tid, 0, int(actor), 10**9, None)
    with TestClient(create_app(url, workers=1, settings=web_settings())) as c:
        table = c.app.state.server.tables[tid]
        settle(c.app.state.server, tid)
        import time

        end = time.time() + 30
        while table.game_id is None:
            assert time.time() < end
            time.sleep(0.01)
        rec = c.get(f"/api/games/{table.game_id}").json()
    assert "do not replay" in rec["error"]["message"]
    assert Store(url).live_tables() == []


def _two_people_finish_othello(c):
    """Ada and Bob play a whole Othello game (turns strictly alternate: a player who
    cannot move passes); returns the table id and their tokens."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bob"}]
    t = c.post("/api/tables", json={"game": "othello", "seats": seats}).json()
    tid = t["table"]["id"]
    tokens = [i["token"] for i in t["invites"]]
    c.post(f"/api/tables/{tid}/start", json={"token": tokens[0]})
    with c.websocket_connect(f"/ws/{tid}?token={tokens[0]}") as a, \
            c.websocket_connect(f"/ws/{tid}?token={tokens[1]}") as b:
        socks, last = (a, b), None
        while last is None:
            for ws in socks:
                m = next_turn(ws)
                if m["table"]["status"] == "finished":
                    last = m
                    break
                ws.send_json({"type": "act", "seq": m["table"]["move"] + 1,
                              "move": m["table"]["move"], "action": m["legal"][0]["id"]})
    return tid, tokens


def test_rematch_links_survive_a_restart(tmp_path):
    """Ada asks for a rematch; the server restarts before Bob has opened his new link. Bob's
    old link (page or rematch button) still leads to his seat at the rematch; a wrong token
    leads to the old game's replay, never to a seat; nobody's token is stored."""
    url = f"sqlite:///{tmp_path / 'g.sqlite3'}"
    with TestClient(create_app(url, workers=1, settings=web_settings(), time_limit=20)) as c:
        tid, (ada, bob) = _two_people_finish_othello(c)
        r = c.post(f"/api/tables/{tid}/rematch", json={"token": ada}).json()
        new_id, ada_new = r["table"], r["url"].split("token=")[1]
        bob_url = c.app.state.server.tables[tid].rematch["links"][1]
    db = (tmp_path / "g.sqlite3").read_bytes()
    assert ada_new.encode() not in db and bob_url.split("token=")[1].encode() not in db

    with TestClient(create_app(url, workers=1, settings=web_settings(), time_limit=20)) as c:
        assert tid not in c.app.state.server.tables  # finished tables are not rebuilt
        page = c.get(f"/table/{tid}?seat=1&token={bob}", follow_redirects=False)
        assert page.status_code == 303 and page.headers["location"] == bob_url
        again = c.post(f"/api/tables/{tid}/rematch", json={"token": bob}).json()
        assert again == {"table": new_id, "url": bob_url}
        stranger = c.get(f"/table/{tid}?seat=1&token=not-{bob}", follow_redirects=False)
        assert stranger.headers["location"].startswith("/replay/")
        assert c.post(f"/api/tables/{tid}/rematch",
                      json={"token": f"not-{bob}"}).status_code == 409
        with c.websocket_connect(f"/ws/{new_id}?token={bob_url.split('token=')[1]}") as ws:
            m = ws.receive_json()
            assert m["seat"] == 1 and m["you"] == "Bob"
        with c.websocket_connect(f"/ws/{new_id}?token={ada_new}") as ws:
            assert ws.receive_json()["you"] == "Ada"
