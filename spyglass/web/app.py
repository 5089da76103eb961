"""The FastAPI application: pages, the JSON API and the WebSocket of each seat.

Routes (a seat's ``token`` is its secret; nothing else reveals a seat's view):

* ``GET /`` new table form; ``GET /table/{id}?seat=J&token=T`` a seat's page;
  ``GET /games``, ``/ratings``, ``/replay/{game_id}`` (shareable);
* ``GET /api/games_info`` games, options, bots; ``POST /api/tables`` create a table
  (returns one invite link per person's seat); ``GET /api/tables/{id}`` public info;
  ``POST /api/tables/{id}/start`` (any seat's token; bots-only tables start at once);
* ``WS /ws/{id}?token=T``: the seat's live view. The server sends ``state`` messages
  (that seat's view only) and ``error`` messages; the client sends
  ``{"type": "act", "seq": N, "move": M, "action": A}`` (see :meth:`Table.submit`);
* ``GET /api/games`` (filters: game, player, kind), ``/api/games/{id}`` (the record,
  finished games only), ``/api/games/{id}/replay``, ``/api/ratings?game=``,
  ``/api/export.jsonl`` (JSON Lines that ``spyglass replay`` reads).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import os
import secrets
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles

from spyglass.games import registry
from spyglass.web.seats import bot_names, check_bot
from spyglass.web.store import Store, Writer
from spyglass.web.tables import FINISHED, PLAYING, WAITING, Refused, Seat, Table, hash_token
from spyglass.web.workers import WorkerPool

STATIC = Path(__file__).with_name("static")
MAX_TABLES = 500
MAX_MESSAGE = 4096


class Server:
    """The live tables, the bot workers and the store, shared by every request."""

    def __init__(self, db_url: str, workers: int, time_limit: float) -> None:
        self.store = Store(db_url)
        self.pool: WorkerPool | None = None
        self.n_workers = workers
        self.time_limit = time_limit
        self.tables: dict[str, Table] = {}
        # Server-side latency of people's moves (message in -> every seat told), seconds.
        self.latencies: collections.deque[float] = collections.deque(maxlen=100_000)
        # Every write goes through one thread, in order (a table's row before its moves,
        # its moves before its finished record, which drops the live rows), batched.
        self.writer = Writer(self.store)

    def _write(self, name: str, *args: Any, **kwargs: Any) -> Any:
        return self.writer.submit(name, *args, **kwargs)

    def journal(self, table: Table, event: str, **data: Any) -> None:
        """Persist a live table's progress (called by the table; see Table.journal)."""
        if event == "action":
            self._write("live_action", table.id, data["move"], data["seat"],
                        data["action"], data["seq"])
        elif event == "status":
            self._write("live_update", table.id, status=data["status"],
                        started=data["started"])
        elif event == "seats":
            self._write("live_update", table.id, seats=data["seats"],
                        notes=data["notes"])

    def restore(self) -> list[str]:
        """Rebuild the tables a previous server left unfinished, replaying their moves
        through the rules; playing ones go on (bots restarted from the deal and told every
        move so far). A table whose moves do not replay is stored as a game with an error.
        Returns one line per table, for the log."""
        out = []
        for row in self.store.live_tables():
            if row["id"] in self.tables:
                continue
            seats = [Seat(j, s["kind"], s["label"], token_hash=s.get("token_hash", ""),
                          spec=s.get("spec", ""), classic=bool(s.get("classic")),
                          replaced=s.get("replaced", ""))
                     for j, s in enumerate(row["seats"])]
            try:
                game = registry.make(row["game"], row["players"], **row["options"])
            except (ValueError, TypeError) as exc:
                out.append(f"table {row['id']}: cannot be rebuilt ({exc}); dropped")
                self._write("live_drop", row["id"])
                continue
            table = Table(game, seats, row["seed"], self.workers(), self.time_limit,
                          self.save, self.journal, table_id=row["id"])
            table.created, table.started = row["created"], row["started"]
            table.notes = list(row["notes"])
            self.tables[table.id] = table
            try:
                table.replay(row["actions"])
            except ValueError as exc:
                table.error = f"the stored moves do not replay: {exc}"
                table.notes.append(f"the table stopped: {table.error}")
                asyncio.get_running_loop().create_task(table.finish())
                out.append(f"table {table.id}: {table.error}")
                continue
            if row["status"] == PLAYING:
                table.start()
            out.append(f"table {table.id} ({game.title}): rebuilt at move "
                       f"{len(table.actions)}, {row['status']}")
        return out

    async def stop(self) -> None:
        """Stop every table's task (they stay live in the database), then the writes."""
        tasks = [t.task for t in self.tables.values() if t.task is not None and not t.task.done()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await asyncio.get_running_loop().run_in_executor(None, self.writer.close)

    def workers(self) -> WorkerPool:
        if self.pool is None:
            self.pool = WorkerPool(self.n_workers)
        return self.pool

    async def save(self, table: Table) -> None:
        rec = table.record
        assert rec is not None
        game_id = secrets.token_urlsafe(9)
        roles = list(table.game.roles(table.state))
        await asyncio.wrap_future(self.writer.submit(
            "save", game_id, rec, [s.kind for s in table.seats], roles,
            table.created, table.started, table.finished or 0.0, table.id))
        table.game_id = game_id
        self.latencies.extend(table.latencies)
        self._forget_old()

    def _forget_old(self) -> None:
        done = [t for t in self.tables.values() if t.status == FINISHED]
        for t in sorted(done, key=lambda t: t.finished or 0)[: max(0, len(done) - 200)]:
            self.tables.pop(t.id, None)

    def create(self, body: Any) -> tuple[Table, list[dict]]:
        """A table from the create form's JSON; ValueError/TypeError name the problem."""
        if not isinstance(body, dict):
            raise ValueError("send a JSON object")
        if sum(t.status != FINISHED for t in self.tables.values()) >= MAX_TABLES:
            raise ValueError(f"the server has {MAX_TABLES} tables in play; try later")
        name = body.get("game", "resistance")
        seats_in = body.get("seats")
        if not isinstance(seats_in, list) or not seats_in:
            raise ValueError("'seats' must be a list with one entry per seat")
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise ValueError("'options' must be an object")
        game = registry.make(str(name), len(seats_in), **options)
        seed = body.get("seed")
        if seed is None:
            seed = secrets.randbelow(2**63)
        if type(seed) is not int or not 0 <= seed < 2**63:
            raise ValueError(f"seed must be an integer 0 <= seed < 2**63, not {seed!r}")
        seats = []
        tokens: dict[int, str] = {}
        for j, s in enumerate(seats_in):
            if not isinstance(s, dict) or s.get("kind") not in ("human", "bot"):
                raise ValueError(f"seat {j}: give {{'kind': 'human'|'bot', ...}}")
            if s["kind"] == "human":
                label = str(s.get("name") or f"player {j}").strip()[:40] or f"player {j}"
                tokens[j] = secrets.token_urlsafe(16)
                seats.append(Seat(j, "human", label, token_hash=hash_token(tokens[j])))
            else:
                choice = check_bot(s.get("bot", ""), game)
                seats.append(Seat(j, "bot", choice.label, spec=choice.spec,
                                  classic=choice.classic))
        table = Table(game, seats, seed, self.workers(), self.time_limit, self.save,
                      self.journal)
        self.tables[table.id] = table
        self._write("live_create", {
            "id": table.id, "game": game.name, "players": game.n_players,
            "options": dict(game.settings), "seed": str(seed),
            "seats": table.persisted_seats(), "status": WAITING, "notes": [],
            "created": table.created, "started": None})
        invites = [{"seat": s.index, "name": s.label,
                    "url": f"/table/{table.id}?seat={s.index}&token={tokens[s.index]}",
                    "token": tokens[s.index]} for s in seats if s.kind == "human"]
        return table, invites

    def table(self, table_id: str) -> Table:
        t = self.tables.get(table_id)
        if t is None:
            raise HTTPException(404, f"no table {table_id!r}")
        return t


def create_app(db_url: str | None = None, workers: int | None = None,
               time_limit: float = 30.0) -> FastAPI:
    """The app; ``db_url`` defaults to a SQLite file under the user's data directory."""
    from spyglass.web.store import default_url

    server = Server(db_url or default_url(), workers or max(1, min(2, os.cpu_count() or 1)),
                    time_limit)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        for line in server.restore():
            print(f"spyglass serve: {line}", file=sys.stderr)
        yield
        await server.stop()
        if server.pool is not None:
            server.pool.close()

    app = FastAPI(title="Spyglass", docs_url="/api/docs", redoc_url=None, lifespan=lifespan)
    app.state.server = server
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, media_type="text/html")

    @app.get("/")
    def index() -> FileResponse:
        return page("index.html")

    @app.get("/table/{table_id}")
    def table_page(table_id: str) -> FileResponse:
        server.table(table_id)
        return page("table.html")

    @app.get("/games")
    def games_page() -> FileResponse:
        return page("games.html")

    @app.get("/ratings")
    def ratings_page() -> FileResponse:
        return page("ratings.html")

    @app.get("/replay/{game_id}")
    def replay_page(game_id: str) -> FileResponse:
        return page("replay.html")

    @app.get("/api/games_info")
    def games_info() -> dict:
        out = []
        for name in registry.names():
            cls = registry.game_class(name)
            g = cls()
            out.append({"name": name, "title": cls.title, "min_players": cls.min_players,
                        "max_players": cls.max_players,
                        "options": [{"name": p.name, "default": p.default,
                                     "choices": list(getattr(p, "choices", None) or []),
                                     "help": getattr(p, "help", "")} for p in cls.options],
                        "bots": bot_names(g)})
        return {"games": out}

    @app.post("/api/tables")
    async def create_table(request: Request) -> JSONResponse:
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            raise HTTPException(400, "the body must be JSON") from None
        try:
            table, invites = server.create(body)
        except (ValueError, TypeError) as exc:
            raise HTTPException(400, str(exc)) from None
        if not invites:
            table.start()
        return JSONResponse({"table": table.public(), "invites": invites})

    @app.get("/api/tables/{table_id}")
    def table_info(table_id: str) -> dict:
        return server.table(table_id).public()

    @app.post("/api/tables/{table_id}/start")
    async def start_table(table_id: str, request: Request) -> dict:
        table = server.table(table_id)
        try:
            body = await request.json()
        except (json.JSONDecodeError, UnicodeDecodeError):
            body = None
        token = body.get("token") if isinstance(body, dict) else None
        if table.seat_by_token(token or "") is None:
            raise HTTPException(403, "only a player of this table may start it")
        table.start()
        return table.public()

    @app.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        table = server.tables.get(table_id)
        seat = table.seat_by_token(ws.query_params.get("token", "")) if table else None
        if table is None or seat is None:
            await ws.close(code=4403, reason="unknown table or wrong token")
            return
        await ws.accept()
        wake = asyncio.Event()
        seat.listeners.add(wake.set)

        async def sender() -> None:
            seq = 0
            while True:
                await wake.wait()
                wake.clear()
                seq += 1
                msg = table.seat_message(seat)
                msg["seq"] = seq
                await ws.send_json(msg)

        task = asyncio.create_task(sender())
        table.join(seat)
        wake.set()
        try:
            while True:
                text = await ws.receive_text()
                if len(text) > MAX_MESSAGE:
                    await ws.send_json({"type": "error", "message": "message too long"})
                    continue
                try:
                    msg = json.loads(text)
                except json.JSONDecodeError:
                    await ws.send_json({"type": "error", "message": "not JSON"})
                    continue
                kind = msg.get("type") if isinstance(msg, dict) else None
                if kind == "act":
                    try:
                        table.submit(seat, msg)
                    except Refused as exc:
                        await ws.send_json({"type": "error", "message": str(exc)})
                elif kind == "refresh":
                    wake.set()
                else:
                    await ws.send_json({"type": "error",
                                        "message": f"unknown message type {kind!r}"})
        except WebSocketDisconnect:
            pass
        finally:
            seat.listeners.discard(wake.set)
            task.cancel()

    @app.get("/api/games")
    async def list_games(game: str | None = None, player: str | None = None,
                         kind: str | None = None, limit: int = 100, offset: int = 0) -> dict:
        rows = await asyncio.get_running_loop().run_in_executor(
            None, lambda: server.store.games(game, player, kind, limit, offset))
        return {"games": rows}

    def finished_record(game_id: str) -> dict:
        rec = server.store.record(game_id)
        if rec is None:
            raise HTTPException(404, f"no stored game {game_id!r}")
        return rec

    @app.get("/api/games/{game_id}")
    def game_record(game_id: str) -> dict:
        return finished_record(game_id)

    @app.get("/api/games/{game_id}/replay")
    def game_replay(game_id: str) -> dict:
        from spyglass.web.views import replay_steps

        return replay_steps(finished_record(game_id))

    @app.get("/api/ratings")
    def ratings(game: str = "resistance") -> dict:
        if game not in registry.names():
            raise HTTPException(400, f"no game named {game!r}")
        return {"game": game, "ratings": server.store.ratings(game)}

    @app.get("/api/export.jsonl")
    def export(game: str | None = None) -> StreamingResponse:
        return StreamingResponse(server.store.export(game), media_type="application/x-ndjson",
                                 headers={"Content-Disposition":
                                          'attachment; filename="spyglass-games.jsonl"'})

    @app.get("/api/stats")
    def stats() -> dict:
        """Public load figures: tables by status, and people's move latency on the server
        (from their message to every seat being told), over stored games."""
        lat = sorted(server.latencies)

        def pct(q: float) -> float | None:
            return None if not lat else 1000 * lat[min(len(lat) - 1, int(q * len(lat)))]

        by_status = collections.Counter(t.status for t in server.tables.values())
        return {"tables": dict(by_status), "person_moves": len(lat),
                "person_move_ms_p50": pct(0.5), "person_move_ms_p99": pct(0.99)}

    @app.get("/api/tables")
    def live_tables() -> dict:
        return {"tables": [t.public() for t in server.tables.values() if t.status == PLAYING]}

    return app
