"""The web app's API and WebSockets (FastAPI's TestClient, fast): tables of people and
bots play whole games; the stored record replays through the rules; and people who try
to cheat are refused -- wrong token, another seat's token, acting out of turn, malformed
messages, replayed messages -- while nobody learns another seat's hidden information."""

from __future__ import annotations

import json
import time

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx", reason="the web extra is not installed (pip install '.[web]')")

from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402
from web_play import web_settings  # noqa: E402

from spyglass.arena.history import replay_history  # noqa: E402
from spyglass.web.app import create_app  # noqa: E402
from spyglass.web.seats import Budget  # noqa: E402

RANDOM3 = [{"kind": "bot", "bot": "random"}] * 3


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = tmp_path_factory.mktemp("web") / "games.sqlite3"
    app = create_app(f"sqlite:///{db}", workers=1, settings=web_settings(), time_limit=20)
    with TestClient(app) as c:
        yield c


def server(client):
    return client.app.state.server


def create(client, seats, game="resistance", seed=None, **extra):
    body = {"game": game, "seats": seats, **extra}
    if seed is not None:
        body["seed"] = seed
    r = client.post("/api/tables", json=body)
    assert r.status_code == 200, r.text
    return r.json()


_HELD: dict[int, list] = {}  # state messages read while looking for an error, per socket


def until(ws, pred, limit=2000):
    """The first state message (held back ones first) that satisfies ``pred``."""
    held = _HELD.setdefault(id(ws), [])
    while held:
        m = held.pop(0)
        if pred(m):
            return m
    for _ in range(limit):
        m = ws.receive_json()
        if m["type"] == "state" and pred(m):
            return m
    raise AssertionError("no such message")


def finished(m):
    return m["table"]["status"] == "finished" and m.get("result", {}).get("game_id")


def play_out(ws, pick=lambda m: m["legal"][0]["id"], first_seq=1):
    """Play this (only) person's seat to the end; returns the last message."""
    seq = first_seq
    while True:
        m = until(ws, lambda m: m["your_turn"] or finished(m))
        if finished(m):
            return m
        ws.send_json({"type": "act", "seq": seq, "move": m["table"]["move"], "action": pick(m)})
        seq += 1


def wait_turn(client, table_id, timeout=30.0):
    """The human seat the table is waiting for (read from the server, for the test only)."""
    t = server(client).tables[table_id]
    end = time.time() + timeout
    while time.time() < end:
        if t._waiting is not None:
            return t._waiting[0]
        if t.status == "finished":
            return None
        time.sleep(0.005)
    raise AssertionError("the table never waited for a person")


def test_person_against_bots_whole_game_is_stored_and_replays(client, cli, tmp_path):
    seats = [{"kind": "human", "name": "ann"}] + RANDOM3 + [{"kind": "bot", "bot": "pandsbot"}]
    t = create(client, seats)
    inv = t["invites"][0]
    assert [i["seat"] for i in t["invites"]] == [0]
    with client.websocket_connect(f"/ws/{t['table']['id']}?token={inv['token']}") as ws:
        last = play_out(ws)
    rewards = last["result"]["rewards"]
    assert sorted(set(rewards)) == [0.0, 1.0]
    rec = client.get(f"/api/games/{last['result']['game_id']}").json()
    assert rec["format"] == "spyglass-game"
    assert rec["seed"] == server(client).tables[t["table"]["id"]].seed
    assert rec["web"]["rated"], rec["web"]["unrated"]
    assert rec["agents"] == ["ann", "random", "random#2", "random#3", "pandsbot"]
    assert rec["web"]["kinds"] == ["human", "bot", "bot", "bot", "bot"]
    assert not rec["web"]["replaced"]
    replayed = replay_history(rec)
    assert replayed.rewards == tuple(rewards)
    # The export is JSON Lines of the same records (what `spyglass replay` reads).
    lines = client.get("/api/export.jsonl").text.splitlines()
    assert any(json.loads(line) == rec for line in lines)
    for line in lines:
        replay_history(json.loads(line))
    export = tmp_path / "export.jsonl"
    export.write_text("\n".join(lines) + "\n")
    out = cli("replay", str(export), "--check")
    assert out.exit_code == 0
    assert f"{len(lines)} of {len(lines)} game(s) replay exactly" in out.output
    games = client.get("/api/games", params={"player": "ann"}).json()["games"]
    assert games and games[0]["id"] == last["result"]["game_id"]
    assert client.get("/api/games", params={"player": "nobody-like-this"}).json()["games"] == []
    stats = client.get("/api/stats").json()
    assert stats["person_moves"] >= 1 and 0 < stats["person_move_ms_p99"] < 10_000
    names = {r["name"] for r in client.get("/api/ratings?game=resistance").json()["ratings"]}
    assert {"random", "pandsbot"} <= names
    # A person is rated under the identity the server issued (its cookie), shown by name.
    assert any(n.startswith("person:ann [") for n in names), names
    replay = client.get(f"/api/games/{last['result']['game_id']}/replay").json()
    assert len(replay["steps"]) == len(rec["actions"]) + 1
    assert replay["roles"].count("spy") == 2


def test_bots_only_table_plays_and_is_stored(client):
    t = create(client, [{"kind": "bot", "bot": "random"},
                        {"kind": "bot", "bot": "moismcts:iterations=50"}], game="phantom", seed=3)
    assert t["invites"] == []
    tid = t["table"]["id"]
    end = time.time() + 60
    while server(client).tables[tid].game_id is None:
        assert time.time() < end, "the bots' game did not finish"
        time.sleep(0.05)
    rec = client.get(f"/api/games/{server(client).tables[tid].game_id}").json()
    assert replay_history(rec).finished
    assert client.get("/api/games", params={"game": "phantom", "kind": "bots"}).json()["games"]


def test_wrong_token_and_unknown_table_are_refused(client):
    t = create(client, [{"kind": "human"}] + RANDOM3 + [{"kind": "bot", "bot": "random"}])
    for url in (f"/ws/{t['table']['id']}?token=not-the-token", f"/ws/{t['table']['id']}",
                f"/ws/no-such-table?token={t['invites'][0]['token']}"):
        with pytest.raises(WebSocketDisconnect) as err:
            with client.websocket_connect(url) as ws:
                ws.receive_json()
        assert err.value.code == 4403
    start = client.post(f"/api/tables/{t['table']['id']}/start", json={"token": "x"})
    assert start.status_code == 403


def test_two_people_see_only_their_own_seat_and_cannot_cheat(client):
    seats = [{"kind": "human", "name": "a"}, {"kind": "human", "name": "b"}] + RANDOM3
    t = create(client, seats, seed=12)
    tid = t["table"]["id"]
    tok = {i["seat"]: i["token"] for i in t["invites"]}
    public = client.get(f"/api/tables/{tid}").text
    assert tok[0] not in public and tok[1] not in public and "spy" not in public
    table = server(client).tables[tid]
    game = table.game
    with client.websocket_connect(f"/ws/{tid}?token={tok[0]}") as w0, \
            client.websocket_connect(f"/ws/{tid}?token={tok[1]}") as w1:
        ws = {0: w0, 1: w1}
        seq = {0: 0, 1: 0}
        checked = 0
        moves = 0
        while True:
            turn = wait_turn(client, tid)
            if turn is None:
                break
            other = 1 - turn
            now = len(table.actions)
            m = until(ws[turn], lambda m, now=now: m["your_turn"] and m["table"]["move"] == now)
            # What a seat is shown is exactly its own view, rendered.
            view = game.view(table.state, turn)
            assert m["seat"] == turn and m["view_text"] == game.view_text(view, turn)
            assert "result" not in m
            d = m["details"]
            if not d["spy"]:
                assert d["spies"] is None and "SPY" not in m["view_text"]
            if checked < 3:
                checked += 1
                move = m["table"]["move"]
                # Out of turn: the other person acts now.
                seq[other] += 1
                ws[other].send_json({"type": "act", "seq": seq[other], "move": move,
                                     "action": m["legal"][0]["id"]})
                assert "not your turn" in until_error(ws[other])["message"]
                # Malformed acts (messages that are not JSON objects close the socket:
                # see test_web_security.py).
                b = seq[turn]
                for bad in (json.dumps({"type": "act"}),
                            json.dumps({"type": "act", "seq": b + 1, "move": move,
                                        "action": "1"}),
                            json.dumps({"type": "act", "seq": b + 2, "move": move,
                                        "action": True}),
                            json.dumps({"type": "act", "seq": b + 3, "move": move,
                                        "action": 10**9}),
                            json.dumps({"type": "act", "seq": 2**70, "move": move,
                                        "action": 0})):
                    ws[turn].send_text(bad)
                    assert until_error(ws[turn])["type"] == "error", bad
                seq[turn] = b + 3
            # A legal move, then the same message again (replayed) and a fresh one for
            # the move that is over.
            seq[turn] += 1
            msg = {"type": "act", "seq": seq[turn], "move": m["table"]["move"],
                   "action": m["legal"][-1]["id"]}
            ws[turn].send_json(msg)
            ws[turn].send_json(msg)
            assert "stale" in until_error(ws[turn])["message"]
            seq[turn] += 1
            ws[turn].send_json({**msg, "seq": seq[turn]})
            err = until_error(ws[turn])["message"]
            # (a table with people is dealt at random: the legal move may have ended the
            # game, and then the refusal says so)
            assert "is over" in err or "not your turn" in err or "game is finished" in err
            moves += 1
        assert moves > 5 and table.status == "finished"
        for j in (0, 1):
            last = until(ws[j], finished)
            assert last["result"]["roles"] == list(game.roles(table.state))
    rec = client.get(f"/api/games/{table.game_id}").json()
    replay_history(rec)


def until_error(ws, limit=2000):
    """The next error message; state messages on the way are held for :func:`until`."""
    for _ in range(limit):
        m = ws.receive_json()
        if m["type"] == "error":
            return m
        _HELD.setdefault(id(ws), []).append(m)
    raise AssertionError("no error message")


def test_reconnect_to_the_same_seat(client):
    t = create(client, [{"kind": "human", "name": "r"}] + RANDOM3 + [{"kind": "bot",
                                                                        "bot": "random"}], seed=8)
    url = f"/ws/{t['table']['id']}?token={t['invites'][0]['token']}"
    with client.websocket_connect(url) as ws:
        m = until(ws, lambda m: m["your_turn"])
        ws.send_json({"type": "act", "seq": 1, "move": m["table"]["move"],
                      "action": m["legal"][0]["id"]})
        moved = m["table"]["move"]
        until(ws, lambda x: x["table"]["move"] > moved)
    with client.websocket_connect(url) as ws:
        m = until(ws, lambda m: True)
        assert m["seat"] == 0 and m["last_seq"] == 1 and m["table"]["move"] >= 1
        _HELD[id(ws)] = [m]  # it may be our turn: play_out reads it again
        last = play_out(ws, first_seq=2)
    assert last["result"]["game_id"]


def test_bad_tables_are_refused_with_a_reason(client):
    human = {"kind": "human"}
    cases = [
        ({"game": "chess", "seats": [human] * 2}, "no game named"),
        ({"game": "resistance", "seats": [human] * 3}, "5 to 10 players"),
        ({"game": "resistance", "seats": [human] * 4 + [{"kind": "bot", "bot": "nosuchbot"}]},
         "no bot named"),
        ({"game": "resistance", "seats": [human] * 4 + [{"kind": "bot", "bot": "/tmp/evil.py"}]},
         "not a registered name"),
        ({"game": "resistance", "seats": [human] * 4
          + [{"kind": "bot", "bot": "os.system:x=1"}]}, "not a registered name"),
        ({"game": "resistance", "seats": [human] * 4
          + [{"kind": "bot", "bot": "moismcts:iterations=-4"}]}, "iterations"),
        ({"game": "resistance", "seats": [human] * 5, "seed": -1}, "seed"),
        ({"game": "phantom", "seats": [human, {"kind": "alien"}]}, "seat 1"),
    ]
    for body, why in cases:
        r = client.post("/api/tables", json=body)
        assert r.status_code == 400 and why in r.json()["detail"], (body, r.text)
    assert client.post("/api/tables", content=b"{",
                       headers={"content-type": "application/json"}).status_code == 400


def test_a_bot_over_its_time_limit_is_replaced_and_the_game_goes_on(tmp_path):
    # A budget above what the bot can do in the time limit: the limit is what stops it.
    settings = web_settings(budget=Budget(iterations=10**9, seconds=0.1))
    app = create_app(f"sqlite:///{tmp_path / 'g.sqlite3'}", workers=1, settings=settings,
                     time_limit=0.2)
    with TestClient(app) as c:
        t = create(c, [{"kind": "human", "name": "p"},
                       {"kind": "bot", "bot": "moismcts:iterations=100000000"}], game="phantom")
        with c.websocket_connect(f"/ws/{t['table']['id']}?token={t['invites'][0]['token']}") as ws:
            last = play_out(ws)
        rec = c.get(f"/api/games/{last['result']['game_id']}").json()
        assert "1" in rec["web"]["replaced"] and "did not answer" in rec["web"]["replaced"]["1"]
        assert any("replaced by a random agent" in n for n in last["table"]["notes"])
        assert rec["web"]["rated"] is False
        assert "bot in seat 1 was replaced" in rec["web"]["unrated"]
        assert replay_history(rec).finished


def test_games_info_lists_games_and_bots(client):
    info = client.get("/api/games_info").json()["games"]
    res = next(g for g in info if g["name"] == "resistance")
    assert "pandsbot" in res["bots"] and "moismcts" in res["bots"] and "mtismcts" in res["bots"]
    # Each game's default opponent is its recommended agent (spyglass/agents/recommended.py).
    from spyglass.agents.recommended import best

    assert all(g["best"] == best(g["name"]).spec for g in info)
    for page in ("/", "/games", "/ratings"):
        assert client.get(page).status_code == 200
