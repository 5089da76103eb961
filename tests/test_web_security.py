"""The web app's promises against a hostile visitor (issue 25; README, "Web security: what
is guaranteed"): one test per finding of the attack on ``spyglass serve`` -- a bot spec
that ran code (a pickle path, a ``.py:`` spec) or told whether a file exists, a seed that
gave away the deal, table floods, huge bot budgets, socket floods, huge bodies,
cross-site requests, a ``seq`` the database could not store, binary frames, untyped
classic-bot settings and a cheating bot at a person's table. Limits are lowered through
:class:`~spyglass.web.guard.WebSettings` so each test takes a second, and the defaults
are checked to be the documented ones."""

from __future__ import annotations

import contextlib
import json
import pickle
import time
from pathlib import Path

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx", reason="the web extra is not installed (pip install '.[web]')")

from fastapi.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402
from web_play import cheat_move, next_turn, play, settle, web_settings  # noqa: E402

from spyglass.web.app import create_app  # noqa: E402
from spyglass.web.guard import WebSettings  # noqa: E402
from spyglass.web.seats import Budget  # noqa: E402
from spyglass.web.store import Store  # noqa: E402

CHEAT = {"hand_size": 4, "max_rounds": 24}
PERSON5 = [{"kind": "human", "name": "p"}] + [{"kind": "bot", "bot": "random"}] * 4


def app_client(tmp_path, name="g", **limits) -> TestClient:
    """A TestClient on a fresh database; people's tables refuse seeds unless asked."""
    limits.setdefault("person_seeds", False)
    settings = web_settings(**limits)
    return TestClient(create_app(f"sqlite:///{tmp_path / (name + '.sqlite3')}", workers=1,
                                 time_limit=20, settings=settings))


def cheat_bots(bot: str) -> dict:
    return {"game": "cheat", "options": CHEAT,
            "seats": [{"kind": "bot", "bot": bot}, {"kind": "bot", "bot": "random"}]}


class Marker:
    """Unpickling this writes a file: proof that a pickle ran."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self):
        return (Path.write_text, (self.path, "the pickle ran"))


@pytest.fixture
def client(tmp_path):
    with app_client(tmp_path) as c:
        yield c


def test_defaults_are_the_documented_limits():
    s = WebSettings()
    assert (s.tables, s.waiting_per_client, s.creates_per_minute, s.waiting_minutes) == (
        500, 10, 10, 30.0)
    assert (s.sockets_per_seat, s.sockets_per_client, s.body_bytes, s.message_bytes) == (
        4, 32, 64 * 1024, 4096)
    assert s.budget == Budget(iterations=100_000, seconds=5.0)
    assert s.models is None and s.origins == () and not s.person_seeds
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = readme[readme.index("## Web security: what is guaranteed"):]
    for text in ("500", "10 per minute", "30 minutes", "4 per seat", "32 per client",
                 "64 KiB", "4096 bytes", "iterations=100000,seconds=5"):
        assert text in section, text


# --- 1. specs from the web are data, never code or paths ---------------------------------
def test_a_pickle_path_in_a_bot_spec_is_never_unpickled(client, tmp_path):
    evil, ran = tmp_path / "evil.pkl", tmp_path / "ran.txt"
    evil.write_bytes(pickle.dumps(Marker(ran)))
    r = client.post("/api/tables", json=cheat_bots(f"pmga:model={evil}"))
    assert r.status_code == 400 and "the server's models" in r.json()["detail"]
    time.sleep(0.5)  # a worker that did unpickle it would have written the file by now
    assert not ran.exists()


def test_a_py_spec_imports_nothing(client, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ran = tmp_path / "imported.txt"
    (tmp_path / "evil.py").write_text(f"open({str(ran)!r}, 'w').write('ran')\n")
    for spec in ("random:evil.py:", "evil.py", "evil.py:Evil", "spyglass.agents.uct.UCTAgent",
                 "../evil", "random:seed=1:evil.py"):
        r = client.post("/api/tables", json={"game": "phantom", "seats": [
            {"kind": "bot", "bot": spec}, {"kind": "bot", "bot": "random"}]})
        assert r.status_code == 400, (spec, r.text)
    assert not ran.exists()


def test_errors_never_tell_whether_a_server_file_exists(client, tmp_path):
    there = tmp_path / "there.joblib"
    there.write_bytes(b"not a model")
    details = []
    for path in (str(there), str(tmp_path / "absent.joblib"), "/etc/passwd"):
        r = client.post("/api/tables", json=cheat_bots(f"pmga:model={path}"))
        assert r.status_code == 400
        details.append(r.json()["detail"].replace(path, "PATH"))
    assert details[0] == details[1] == details[2], details


def test_models_are_chosen_by_name_from_the_operators_directory(tmp_path):
    models = tmp_path / "models"
    models.mkdir()
    (models / "forest.joblib").write_bytes(b"an operator's file")
    with app_client(tmp_path, models=models) as c:
        assert c.get("/api/games_info").json()["models"] == ["forest"]
        plan = c.app.state.server.prepare(cheat_bots("pmga:model=forest,iterations=50"))
        choice = plan.bots[0][1]
        assert choice.spec == "pmga:model=forest,iterations=50"
        assert choice.settings["model"] == str(models / "forest.joblib")
        r = c.post("/api/tables", json=cheat_bots("pmga:model=other"))
        assert r.status_code == 400 and "one of the server's models: forest" in r.text


# --- 2. the seed and identity ------------------------------------------------------------
def test_a_persons_table_never_takes_a_visitors_seed(client):
    r = client.post("/api/tables", json={"game": "resistance", "seats": PERSON5, "seed": 7})
    assert r.status_code == 400 and "never takes a chosen seed" in r.json()["detail"]
    t = client.post("/api/tables", json={"game": "resistance", "seats": PERSON5}).json()
    assert client.app.state.server.tables[t["table"]["id"]].shown_seed is None
    assert t["table"]["rated"] and t["table"]["seed"] is None
    # Bots-only tables may take one (for experiments); such games are not rated.
    b = client.post("/api/tables", json={"game": "phantom", "seed": 7, "seats": [
        {"kind": "bot", "bot": "random"}] * 2}).json()
    assert not b["table"]["rated"] and "the creator chose the seed" in b["table"]["unrated"]


def test_ratings_belong_to_a_signed_identity_not_a_name(tmp_path):
    with app_client(tmp_path) as c:
        ids = c.app.state.server.identity
        issued = c.get("/").cookies.get("spyglass_id")
        ident = ids.verify(issued)
        assert ident and ids.verify(issued[:-2] + "xx") is None
        assert ids.verify(f"{ident}x.{issued.split('.', 1)[1]}") is None


# --- 3. limits -----------------------------------------------------------------------------
def test_one_client_cannot_fill_the_server_with_tables(tmp_path):
    with app_client(tmp_path, creates_per_minute=3, waiting_per_client=100) as c:
        made = [c.post("/api/tables", json={"game": "resistance", "seats": PERSON5})
                for _ in range(4)]
        assert [r.status_code for r in made] == [200, 200, 200, 429]
        other = TestClient(c.app, client=("10.0.0.2", 5000))
        assert other.post("/api/tables", json={"game": "resistance",
                                               "seats": PERSON5}).status_code == 200
    with app_client(tmp_path, name="h", waiting_per_client=2) as c:
        made = [c.post("/api/tables", json={"game": "resistance", "seats": PERSON5})
                for _ in range(3)]
        assert [r.status_code for r in made] == [200, 200, 400]
        assert "tables waiting" in made[2].json()["detail"]
        # The creator cancels one (nobody else can), and may create again.
        first = made[0].json()
        tid = first["table"]["id"]
        bad = c.post(f"/api/tables/{tid}/cancel", json={"token": first["invites"][0]["token"]})
        assert bad.status_code == 403
        ok = c.post(f"/api/tables/{tid}/cancel", json={"token": first["cancel_token"]})
        assert ok.status_code == 200 and ok.json()["status"] == "cancelled"
        assert c.post("/api/tables", json={"game": "resistance",
                                           "seats": PERSON5}).status_code == 200
        # Waiting tables expire (30 minutes by default), and leave the database.
        server = c.app.state.server
        assert server.sweep(now=time.time() + 29 * 60) == 0
        assert server.sweep(now=time.time() + 31 * 60) == 2
        assert c.post("/api/tables", json={"game": "resistance",
                                           "seats": PERSON5}).status_code == 200
    live = Store(f"sqlite:///{tmp_path / 'h.sqlite3'}").live_tables()
    assert len(live) == 1


def test_a_bot_over_the_budget_is_refused_at_creation(client):
    for spec, why in (("moismcts:iterations=1000000000", "budget"),
                      ("moismcts:seconds=3600", "budget"),
                      ("pimc:d=1000,s=1000", "budget"),
                      ("moismcts_enum:iterations=1000000", "budget"),
                      ("mtismcts:workers=8", "cannot be set")):
        game = "resistance" if "_enum" in spec or "mtismcts" in spec else "phantom"
        n = 5 if game == "resistance" else 2
        r = client.post("/api/tables", json={"game": game, "seats": [
            {"kind": "bot", "bot": spec}] + [{"kind": "bot", "bot": "random"}] * (n - 1)})
        assert r.status_code == 400 and why in r.json()["detail"], (spec, r.text)
    ok = client.post("/api/tables", json={"game": "phantom", "seats": [
        {"kind": "bot", "bot": "moismcts:iterations=100000"}, {"kind": "bot", "bot": "random"}]})
    assert ok.status_code == 200


def test_sockets_per_seat_and_per_client_are_capped(tmp_path):
    with app_client(tmp_path, sockets_per_seat=2, sockets_per_client=3) as c:
        t = c.post("/api/tables", json={"game": "resistance", "seats": [
            {"kind": "human"}, {"kind": "human"}] + [{"kind": "bot", "bot": "random"}] * 3}
                   ).json()
        tid = t["table"]["id"]
        urls = [f"/ws/{tid}?token={i['token']}" for i in t["invites"]]
        with contextlib.ExitStack() as open_sockets:
            for url in (urls[0], urls[0]):
                open_sockets.enter_context(c.websocket_connect(url)).receive_json()
            with pytest.raises(WebSocketDisconnect) as err:  # a third on the same seat
                with c.websocket_connect(urls[0]) as ws:
                    ws.receive_json()
            assert err.value.code == 4429
            open_sockets.enter_context(c.websocket_connect(urls[1])).receive_json()
            with pytest.raises(WebSocketDisconnect) as err:  # a fourth from this client
                with c.websocket_connect(urls[1]) as ws:
                    ws.receive_json()
            assert err.value.code == 4429


def test_a_big_body_is_refused_before_it_is_read(client):
    big = b'{"game": "' + b"x" * (64 * 1024) + b'"}'
    r = client.post("/api/tables", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413

    def chunks():  # no Content-Length: counted as it arrives
        for _ in range(100):
            yield b" " * 1024

    r = client.post("/api/tables", content=chunks(),
                    headers={"content-type": "application/json"})
    assert r.status_code == 413


# --- 4. cross-site requests and headers ------------------------------------------------------
def test_cross_site_posts_are_refused(client):
    body = json.dumps({"game": "phantom", "seats": [{"kind": "bot", "bot": "random"}] * 2})
    r = client.post("/api/tables", content=body, headers={"content-type": "text/plain"})
    assert r.status_code == 415
    r = client.post("/api/tables", content="game=phantom",
                    headers={"content-type": "application/x-www-form-urlencoded"})
    assert r.status_code == 415
    r = client.post("/api/tables", content=body, headers={
        "content-type": "application/json", "origin": "http://evil.example"})
    assert r.status_code == 403
    r = client.post("/api/tables", content=body, headers={
        "content-type": "application/json", "origin": "http://testserver"})
    assert r.status_code == 200


def test_a_foreign_origin_cannot_open_a_seats_socket(client, tmp_path):
    t = client.post("/api/tables", json={"game": "resistance", "seats": PERSON5}).json()
    url = f"/ws/{t['table']['id']}?token={t['invites'][0]['token']}"
    with pytest.raises(WebSocketDisconnect):
        with client.websocket_connect(url, headers={"origin": "http://evil.example"}) as ws:
            ws.receive_json()
    with client.websocket_connect(url, headers={"origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "state"
    with app_client(tmp_path, name="o", origins=("http://friend.example",)) as c:
        t = c.post("/api/tables", json={"game": "resistance", "seats": PERSON5}).json()
        url = f"/ws/{t['table']['id']}?token={t['invites'][0]['token']}"
        with c.websocket_connect(url, headers={"origin": "http://friend.example"}) as ws:
            assert ws.receive_json()["type"] == "state"


def test_pages_carry_the_security_headers(client):
    for path in ("/", "/games", "/static/table.js", "/api/games_info"):
        h = client.get(path).headers
        assert "frame-ancestors 'none'" in h["content-security-policy"]
        assert "script-src 'self'" in h["content-security-policy"]
        assert h["x-frame-options"] == "DENY" and h["x-content-type-options"] == "nosniff"
        assert h["referrer-policy"] == "no-referrer"
    for page in ("index", "games", "ratings", "table", "replay"):  # no inline script
        html = (Path(__file__).resolve().parents[1] / "spyglass" / "web" / "static"
                / f"{page}.html").read_text()
        assert "<script>" not in html, page


# --- 5. numbers are bounded; a table always rebuilds -------------------------------------
def test_a_huge_seq_is_refused_and_the_table_survives_a_restart(tmp_path):
    body = {"game": "cheat", "seed": 3, "options": CHEAT,
            "seats": [{"kind": "human", "name": "s"}, {"kind": "bot", "bot": "random"}]}
    with app_client(tmp_path, person_seeds=True) as c:
        t = c.post("/api/tables", json=body).json()
        tid, token = t["table"]["id"], t["invites"][0]["token"]
        with c.websocket_connect(f"/ws/{tid}?token={token}") as ws:
            m = next_turn(ws)
            for seq, move in ((2**70, m["table"]["move"]), (1, 2**70), (1, -1)):
                ws.send_json({"type": "act", "seq": seq, "move": move, "action": cheat_move(m)})
                err = ws.receive_json()
                while err["type"] != "error":
                    err = ws.receive_json()
                assert "an integer" in err["message"]
            ws.send_json({"type": "refresh"})
            _, seq = play(ws, 1, moves=2)
        settle(c.app.state.server, tid)
        before = list(c.app.state.server.tables[tid].actions)
    with app_client(tmp_path, person_seeds=True) as c:
        table = c.app.state.server.tables[tid]
        assert table.status == "playing" and table.error is None
        assert table.actions[:len(before)] == before
        with c.websocket_connect(f"/ws/{tid}?token={token}") as ws:
            last, _ = play(ws, seq)
        assert last["result"]["error"] is None


def test_one_unreadable_table_does_not_stop_the_others_from_being_rebuilt(tmp_path):
    with app_client(tmp_path) as c:
        ids = [c.post("/api/tables", json={"game": "resistance", "seats": PERSON5}
                      ).json()["table"]["id"] for _ in range(2)]
    from sqlalchemy import update
    from sqlalchemy.orm import Session

    from spyglass.web.store import LiveTableRow

    store = Store(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    with Session(store.engine) as db:
        db.execute(update(LiveTableRow).where(LiveTableRow.id == ids[0])
                   .values(seats=[{"kind": "nonsense"}]))
        db.commit()
    with app_client(tmp_path) as c:
        assert ids[1] in c.app.state.server.tables


# --- 6. frames, classic settings, privileged bots ------------------------------------------
def test_binary_oversize_and_malformed_frames_close_the_socket_with_a_code(client):
    t = client.post("/api/tables", json={"game": "resistance", "seats": PERSON5}).json()
    url = f"/ws/{t['table']['id']}?token={t['invites'][0]['token']}"
    for send, code in ((lambda ws: ws.send_bytes(b"\x00\x01"), 1003),
                       (lambda ws: ws.send_text("x" * 5000), 1009),
                       (lambda ws: ws.send_text("not json"), 4400),
                       (lambda ws: ws.send_text("[1, 2]"), 4400),
                       (lambda ws: ws.send_json({"type": "teleport"}), 4400)):
        with pytest.raises(WebSocketDisconnect) as err:
            with client.websocket_connect(url) as ws:
                ws.receive_json()
                send(ws)
                for _ in range(50):
                    ws.receive_json()
        assert err.value.code == code
    with pytest.raises(WebSocketDisconnect) as err:  # the page says "this link is not valid"
        with client.websocket_connect(f"/ws/{t['table']['id']}?token=wrong") as ws:
            ws.receive_json()
    assert err.value.code == 4403
    js = (Path(__file__).resolve().parents[1] / "spyglass" / "web" / "static" / "table.js")
    assert "4403: \"This link is not valid" in js.read_text()


def test_classic_bot_settings_are_typed(client):
    for spec, why in (("pandsbot:tolerance=<img src=x onerror=alert(1)>", "tolerance"),
                      ("pandsbot:tolerance=-1", "at least"),
                      ("pandsbot:nonsense=1", "unknown parameter"),
                      ("trusty:x=1", "unknown parameter"),
                      ("moismcts_enum:iterations=ten", "iterations")):
        r = client.post("/api/tables", json={"game": "resistance", "seats": [
            {"kind": "bot", "bot": spec}] + [{"kind": "bot", "bot": "random"}] * 4})
        assert r.status_code == 400 and why in r.json()["detail"], (spec, r.text)
    r = client.post("/api/tables", json={"game": "resistance", "seats": [
        {"kind": "bot", "bot": "pandsbot:tolerance=0.1"}] + [{"kind": "bot", "bot": "random"}] * 4})
    assert r.status_code == 200


def test_a_cheating_bot_never_sits_with_a_person_and_is_never_rated(client):
    for game, spec in (("resistance", "cheatinguct"), ("resistance", "cheatinguct_ensemble"),
                       ("phantom", "cheatingensemble:d=2,s=10"), ("cheat", "fpmga")):
        n = 5 if game == "resistance" else 2
        seats = [{"kind": "human"}, {"kind": "bot", "bot": spec}] + [
            {"kind": "bot", "bot": "random"}] * (n - 2)
        r = client.post("/api/tables", json={"game": game, "seats": seats})
        assert r.status_code == 400 and "privileged" in r.json()["detail"], (spec, r.text)
    # At a bots-only table it may play (opened here without starting: no need to play),
    # and the game is never rated.
    server = client.app.state.server
    table, _, _ = server.open(server.prepare({"game": "phantom", "seats": [
        {"kind": "bot", "bot": "cheatingensemble:d=2,s=10"}, {"kind": "bot", "bot": "random"}]}),
        "testclient")
    t = table.public()
    assert not t["rated"] and "seat 0 is a privileged bot" in t["unrated"]
    assert table.to_record()["web"]["rated"] is False


def test_query_numbers_are_bounded(client):
    r = client.get("/api/games", params={"offset": 2**70, "limit": 2**70})
    assert r.status_code == 200 and r.json()["games"] == []


def test_serve_checks_its_limits_before_starting(cli, tmp_path):
    for args, why in ((["--bot-budget", "iterations=ten"], "iterations"),
                      (["--bot-budget", "seconds=60"], "--time-limit"),
                      (["--bot-budget", "depth=3"], "unknown parameter"),
                      (["--models", str(tmp_path / "absent")], "not a directory"),
                      (["--waiting-minutes", "0"], "--waiting-minutes")):
        out = cli("serve", "--db", f"sqlite:///{tmp_path / 'x.sqlite3'}", *args)
        assert out.exit_code != 0 and why in out.output, (args, out.output)


def test_the_data_only_spec_parser_and_signature_declarations():
    from spyglass.naming import parse_named_spec
    from spyglass.params import signature_params
    from spyglass.resistance.bots.pandsbot import PandSBot

    assert parse_named_spec("MoISMCTS: iterations=5 ,c=0.5") == (
        "moismcts", {"iterations": "5", "c": "0.5"})
    for bad in ("evil.py", "a/b", "pkg.mod.Class", "random:evil.py:", "", None, 3,
                "x" * 400, "random:=1", "random:1x=2"):
        with pytest.raises(ValueError):
            parse_named_spec(bad)
    decl = {p.name: p for p in signature_params(PandSBot)}
    assert decl["tolerance"].type is float and decl["tolerance"].default == 0.05
    with pytest.raises(ValueError):
        decl["tolerance"].convert("<img>")
