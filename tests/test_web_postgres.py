"""The web app on a real PostgreSQL (a throwaway server, see tests/pg_server.py): the
Alembic migrations run, a person plays a short game of Cheat against a bot with a server
restart in the middle, and the stored game, the games list, ratings and the export work.

Skipped, with the reason, without the web extra, psycopg, or a PostgreSQL server that can
be started here (apt-get install postgresql).
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("fastapi", reason="the web extra is not installed (pip install '.[web]')")
pytest.importorskip("httpx", reason="the web extra is not installed (pip install '.[web]')")

from fastapi.testclient import TestClient  # noqa: E402
from pg_server import Unavailable, temporary_postgres  # noqa: E402
from sqlalchemy import create_engine, inspect, text  # noqa: E402
from web_play import play, settle, web_settings  # noqa: E402

from spyglass.arena.history import replay_history  # noqa: E402
from spyglass.web.app import create_app  # noqa: E402
from spyglass.web.store import Store, normalize_url  # noqa: E402


@pytest.fixture(scope="module")
def pg_url():
    try:
        with temporary_postgres() as url:
            yield url
    except Unavailable as exc:
        pytest.skip(f"no PostgreSQL server: {exc}")


def test_migrations_make_the_schema_on_postgresql(pg_url):
    Store(pg_url)
    Store(pg_url)  # a second start finds the schema current
    engine = create_engine(pg_url)
    try:
        names = set(inspect(engine).get_table_names())
        with engine.connect() as db:
            version = db.execute(text("select version_num from alembic_version")).scalar()
            server = db.execute(text("select version()")).scalar()
    finally:
        engine.dispose()
    assert {"games", "players", "live_tables", "live_actions"} <= names
    assert version == "0004" and server.startswith("PostgreSQL")


def test_a_game_of_cheat_with_a_restart_on_postgresql(pg_url):
    body = {"game": "cheat", "seed": 8, "options": {"hand_size": 4, "max_rounds": 24},
            "seats": [{"kind": "human", "name": "pg"}, {"kind": "bot", "bot": "random"}]}
    with TestClient(create_app(pg_url, workers=1, settings=web_settings(), time_limit=20)) as c:
        t = c.post("/api/tables", json=body).json()
        tid, token = t["table"]["id"], t["invites"][0]["token"]
        with c.websocket_connect(f"/ws/{tid}?token={token}") as ws:
            _, seq = play(ws, 1, moves=2)
        settle(c.app.state.server, tid)
        before = list(c.app.state.server.tables[tid].actions)
    assert [r["id"] for r in Store(pg_url).live_tables()] == [tid]
    with TestClient(create_app(pg_url, workers=1, settings=web_settings(), time_limit=20)) as c:
        with c.websocket_connect(f"/ws/{tid}?token={token}") as ws:
            last, _ = play(ws, seq)
        game_id = last["result"]["game_id"]
        rec = c.get(f"/api/games/{game_id}").json()
        assert rec["actions"][:len(before)] == [list(x) for x in before]
        assert replay_history(rec).finished and rec["seed"] == 8
        listed = c.get("/api/games", params={"game": "cheat", "player": "pg"}).json()["games"]
        assert [g["id"] for g in listed] == [game_id]
        # The test chose the seed: the game is stored, never rated.
        assert rec["web"]["rated"] is False and rec["web"]["identities"]["0"]
        assert c.get("/api/ratings?game=cheat").json()["ratings"] == []
        lines = c.get("/api/export.jsonl").text.splitlines()
        assert [json.loads(line) for line in lines] == [rec]
    assert Store(pg_url).live_tables() == []


def test_plain_postgresql_urls_use_psycopg():
    assert normalize_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalize_url("postgresql+psycopg2://u@h/db") == "postgresql+psycopg2://u@h/db"
    assert normalize_url("sqlite:///x") == "sqlite:///x"
