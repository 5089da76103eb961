"""A person at a web table, scripted over the TestClient's WebSocket (for the restart and
PostgreSQL tests)."""

from __future__ import annotations

import time

from spyglass.games.cheat.game import claim_id


def next_turn(ws, m=None):
    """The first state message (from ``m`` on) where it is our turn or the game is stored."""
    while True:
        if m is None:
            m = ws.receive_json()
        if m["type"] == "error":
            raise AssertionError(m["message"])
        if m["your_turn"] or (m["table"]["status"] == "finished"
                              and m.get("result", {}).get("game_id")):
            return m
        m = None


def cheat_move(m):
    d = m["details"]
    ids = [x["id"] for x in m["legal"]]
    if d["forced"] or (0 in ids and m["table"]["move"] % 3 == 0):
        return 0
    return claim_id(m["table"]["move"] % 2, d["hand"][:1 + m["table"]["move"] % 2])


def play(ws, seq, moves=None, pick=cheat_move):
    """Make ``moves`` moves (None: to the end); returns (last message, next seq)."""
    made, r = 0, None
    while moves is None or made < moves:
        m = next_turn(ws, r)
        if m["table"]["status"] == "finished":
            return m, seq
        ws.send_json({"type": "act", "seq": seq, "move": m["table"]["move"],
                      "action": pick(m)})
        seq += 1
        made += 1
        while True:  # until the server shows the move made
            r = ws.receive_json()
            if r["type"] == "error":
                raise AssertionError(r["message"])
            if r["table"]["move"] > m["table"]["move"]:
                break
    return None, seq


def settle(server, table_id):
    """Wait (on the server's loop) until the table waits for a person or has ended."""
    t = server.tables[table_id]
    end = time.time() + 60
    while t._waiting is None and t.status != "finished":
        assert time.time() < end, "the table neither waited for a person nor ended"
        time.sleep(0.01)


def web_settings(**limits):
    """The web server's settings for tests: a fixed secret (no file in the user's data
    directory), no per-client limits on creating tables (tests create many; the
security tests set their own), and people's tables that take a seed (so a test knows the deal; such
    tables are unrated and show the seed to every seat)."""
    from spyglass.web.guard import WebSettings

    limits = {"creates_per_minute": 10_000, "waiting_per_client": 10_000,
              "person_seeds": True, **limits}
    return WebSettings(secret=b"spyglass tests", **limits)
