"""Cheat at a web table (FastAPI's TestClient): a person plays a whole game against a bot
through the Cheat view's messages, claims built as the page builds them, and the view
shows nothing the seat may not know (the cards on the pile, the opponent's hand) --
checked by swapping the hidden part of the state for another consistent with the seat's
view: the seat's message must not change."""

from __future__ import annotations

import random

import numpy as np
import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx", reason="the web extra is not installed (pip install '.[web]')")

from fastapi.testclient import TestClient  # noqa: E402
from web_play import web_settings  # noqa: E402

from spyglass.arena.history import replay_history  # noqa: E402
from spyglass.games.cheat import kernel as K  # noqa: E402
from spyglass.games.cheat.game import claim_id  # noqa: E402
from spyglass.rng import make_rng  # noqa: E402
from spyglass.web.app import create_app  # noqa: E402

OPTIONS = {"hand_size": 5, "max_rounds": 40}


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    db = tmp_path_factory.mktemp("web") / "games.sqlite3"
    app = create_app(f"sqlite:///{db}", workers=1, settings=web_settings(), time_limit=20)
    with TestClient(app) as c:
        yield c


def create(client, seed, bot="random"):
    r = client.post("/api/tables", json={"game": "cheat", "options": OPTIONS, "seed": seed,
                                         "seats": [{"kind": "human", "name": "cy"},
                                                   {"kind": "bot", "bot": bot}]})
    assert r.status_code == 200, r.text
    return r.json()


def page_move(m, rng):
    """What a person clicking the Cheat page might send: call, take, or a claim of 1-4
    cards of the hand, its id built like the page's ``claimId``."""
    d = m["details"]
    ids = [x["id"] for x in m["legal"]]
    if d["forced"]:
        return K.CALL
    if K.CALL in ids and rng.random() < 0.4:
        return K.CALL
    if K.TAKE in ids and rng.random() < 0.2:
        return K.TAKE
    cards = rng.sample(d["hand"], rng.randint(1, min(4, len(d["hand"]))))
    return claim_id(rng.randrange(2), cards)


def test_person_plays_cheat_against_a_bot_and_sees_only_its_own_cards(client):
    rng = random.Random(3)
    t = create(client, seed=21)
    tid = t["table"]["id"]
    table = client.app.state.server.tables[tid]
    game = table.game
    swapped = 0
    seen_call = False
    with client.websocket_connect(f"/ws/{tid}?token={t['invites'][0]['token']}") as ws:
        seq = 0
        while True:
            m = ws.receive_json()
            assert m["type"] == "state", m
            if m["table"]["status"] == "finished" and m.get("result", {}).get("game_id"):
                break
            if not m["your_turn"]:
                continue
            d = m["details"]
            assert d["kind"] == "cheat" and d["seat"] == 0
            view = game.view(table.state, 0)
            assert d["hand"] == [r for r in range(13) for _ in range(view[K.V_HAND + r])]
            assert d["opp_hand"] == int(view[K.V_OPP_HAND])
            # The claims are not listed (the page builds them): only call/take.
            assert all(x["id"] < K.CLAIM0 for x in m["legal"])
            assert d["can_call"] == (K.CALL in [x["id"] for x in m["legal"]])
            assert d["can_take"] == (K.TAKE in [x["id"] for x in m["legal"]])
            seen_call |= any(c["called_by"] is not None for c in d["claims"])
            if swapped < 5 and m["table"]["move"] >= 2 * swapped + 1:
                # Another deal consistent with what seat 0 knows: same message.
                s = np.empty_like(table.state)
                assert K.sample(view, 0, make_rng(swapped), s)
                assert not np.array_equal(s, table.state) or swapped
                real = table.state.copy()
                before = table.seat_message(table.seats[0])
                table.state[:] = s
                try:
                    after = table.seat_message(table.seats[0])
                finally:
                    table.state[:] = real
                assert after == before
                swapped += 1
            seq += 1
            ws.send_json({"type": "act", "seq": seq, "move": m["table"]["move"],
                          "action": page_move(m, rng)})
            while True:  # a claim the rules refuse would come back as an error
                r = ws.receive_json()
                if r["type"] == "error":
                    raise AssertionError(r["message"])
                if r["table"]["move"] > m["table"]["move"] or r["table"]["status"] != "playing":
                    break
    assert swapped == 5 and seen_call
    rec = client.get(f"/api/games/{m['result']['game_id']}").json()
    assert rec["game"] == "cheat" and rec["options"]["hand_size"] == 5
    assert replay_history(rec).finished
    # The last message reveals everything (the game is over).
    assert "seat 1 hand" in m["result"]["state_text"]


def test_a_claim_of_cards_not_in_the_hand_is_refused(client):
    t = create(client, seed=4)
    tid = t["table"]["id"]
    with client.websocket_connect(f"/ws/{tid}?token={t['invites'][0]['token']}") as ws:
        while True:
            m = ws.receive_json()
            if m["type"] == "state" and m["your_turn"]:
                break
        hand = m["details"]["hand"]
        missing = next(r for r in range(13) if r not in hand)
        ids = [x["id"] for x in m["legal"]]
        bad = [claim_id(0, [missing]), claim_id(1, [missing, missing])]
        if K.CALL not in ids:
            bad.append(K.CALL)  # nothing to call
        for seq, action in enumerate(bad, start=1):
            ws.send_json({"type": "act", "seq": seq, "move": m["table"]["move"],
                          "action": action})
            while True:
                r = ws.receive_json()
                if r["type"] == "error":
                    break
            assert "refused: not a legal action" in r["message"]
        assert len(client.app.state.server.tables[tid].actions) == m["table"]["move"]
