"""The FastAPI application: pages, the JSON API and the WebSocket of each seat.

Routes (a seat's ``token`` is its secret; nothing else reveals a seat's view):

* ``GET /`` new table form; ``GET /table/{id}?seat=J&token=T`` a seat's page;
  ``GET /games``, ``/ratings``, ``/replay/{game_id}`` (shareable), ``/rules`` and
  ``/rules/{game}`` (each game's rules, from its own ``rules.md``);
* ``GET /api/games_info`` games, options, bots (with their one-line help);
  ``GET /api/rules/{game}`` a game's rules as text blocks, its options and bots;
  ``POST /api/tables`` create a table
  (returns one invite link per person's seat and the creator's ``cancel_token``);
  ``GET /api/tables/{id}`` public info; ``POST /api/tables/{id}/start`` (any seat's
  token; bots-only tables start at once); ``POST /api/tables/{id}/cancel`` (the cancel
  token; waiting tables only);
* ``WS /ws/{id}?token=T``: the seat's live view. The server sends ``state`` messages
  (that seat's view only) and ``error`` messages; the client sends
  ``{"type": "act", "seq": N, "move": M, "action": A}`` (see :meth:`Table.submit`).
  A socket that sends a binary frame (close 1003), an oversize message (1009) or a
  message that is not a JSON object of a known type (4400) is closed; an unknown table
  or wrong token closes with 4403, too many sockets with 4429;
* ``GET /api/games`` (filters: game, player, kind), ``/api/games/{id}`` (the record,
  finished games only), ``/api/games/{id}/replay``, ``/api/ratings?game=``,
  ``/api/export.jsonl`` (JSON Lines that ``spyglass replay`` reads).

Every request passes :class:`~spyglass.web.guard.Guard` first (body size, Origin,
security headers, identity cookie); the limits are :class:`~spyglass.web.guard.WebSettings`.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import json
import os
import secrets
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI, HTTPException, Request, WebSocket
from fastapi.responses import (
    FileResponse,
    JSONResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from fastapi.staticfiles import StaticFiles

from spyglass.agents.recommended import best as best_agent
from spyglass.games import registry
from spyglass.games.base import Game
from spyglass.web.guard import (
    COOKIE,
    Guard,
    Identity,
    RateLimit,
    WebSettings,
    cookie,
    default_secret,
    origin_allowed,
)
from spyglass.web.rules import rules_page
from spyglass.web.seats import (
    BotChoice,
    bot_help,
    bot_names,
    check_bot,
    model_names,
    stored_spec,
)
from spyglass.web.store import Store, Writer
from spyglass.web.tables import (
    CANCELLED,
    FINISHED,
    PLAYING,
    WAITING,
    Refused,
    Seat,
    Table,
    hash_token,
)
from spyglass.web.workers import WorkerPool

STATIC = Path(__file__).with_name("static")
LOBBY_ROWS = 100  # tables listed in the lobby, per list
CLOCK_MIN, CLOCK_MAX = 5, 3600  # a move's clock, seconds
MAX_SEATS = 64
# WebSocket close codes the page explains (table.js): the socket is not retried.
CLOSE_BINARY, CLOSE_TOO_BIG, CLOSE_MALFORMED = 1003, 1009, 4400
CLOSE_NOT_VALID, CLOSE_TOO_MANY = 4403, 4429


@dataclass
class Plan:
    """A validated create-table request (built off the event loop)."""

    game: Game
    seed: int
    chosen_seed: bool
    people: list[tuple[int, str]]  # (seat, display name)
    open_seats: frozenset[int]  # people's seats left for anyone in the lobby to take
    clock: float | None  # seconds a person has for each move (None: no clock)
    bots: list[tuple[int, BotChoice]]
    # A rematch: the new table's id, the finished table's, and the people's tokens
    # (derived from their old tokens: Server.rematch_token).
    table_id: str | None = None
    rematch_of: str | None = None
    tokens: dict[int, str] | None = None


def display_name(raw: Any) -> str:
    """A person's display name as given (a string, trimmed to 40 characters; '' if none).
    Only ever shown as text: the pages never insert it as HTML."""
    return (raw if isinstance(raw, str) else "").strip()[:40]


def bot_seat(j: int, choice: BotChoice) -> Seat:
    return Seat(j, "bot", choice.label, spec=choice.spec, classic=choice.classic,
                name=choice.name, settings=choice.settings, omniscient=choice.omniscient,
                about=choice.about)


class Server:
    """The live tables, the bot workers and the store, shared by every request."""

    def __init__(self, db_url: str, workers: int, time_limit: float,
                 settings: WebSettings | None = None) -> None:
        self.settings = settings or WebSettings()
        self.store = Store(db_url)
        self.pool: WorkerPool | None = None
        self.n_workers = workers
        self.time_limit = time_limit
        self.tables: dict[str, Table] = {}
        # The operator's model files, listed once at start-up (serve --models DIR).
        self.models = model_names(self.settings.models)
        self.identity = Identity(self.settings.secret or default_secret())
        self.creations = RateLimit(self.settings.creates_per_minute)
        self.joins = RateLimit(self.settings.joins_per_minute)
        self.chats = RateLimit(self.settings.chats_per_minute)
        self.sockets: collections.Counter[str] = collections.Counter()  # per client
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
        elif event == "extra":
            self._write("live_update", table.id, extra=data["extra"])
        elif event == "drop":
            self._write("live_drop", table.id)

    def restore(self) -> list[str]:
        """Rebuild the tables a previous server left unfinished, replaying their moves
        through the rules; playing ones go on (bots restarted from the deal and told every
        move so far). A table whose moves do not replay is stored as a game with an error;
        one table that cannot be read never stops the others. Returns one line per table,
        for the log."""
        out = []
        for row in self.store.live_tables():
            if row["id"] in self.tables:
                continue
            try:
                out.append(self._restore(row))
            except Exception as exc:  # noqa: BLE001 — one bad row must not stop the rest
                out.append(f"table {row['id']}: cannot be rebuilt "
                           f"({type(exc).__name__}: {exc}); dropped")
                self.tables.pop(row["id"], None)
                self._write("live_drop", row["id"])
        return out

    def _table(self, game: Game, seats: list[Seat], seed: int,
               table_id: str | None = None) -> Table:
        """A table of this server (its workers, limits and store), new or rebuilt."""
        table = Table(game, seats, seed, self.workers(), self.time_limit, self.save,
                      self.journal, table_id=table_id)
        table.away_limit = self.settings.away_seconds
        table.idle_limit = self.settings.idle_seconds
        return table

    def _restore(self, row: dict) -> str:
        game = registry.make(row["game"], row["players"], **row["options"])
        person = any(s["kind"] == "human" for s in row["seats"])
        seats = []
        for j, s in enumerate(row["seats"]):
            seat = Seat(j, s["kind"], s["label"], token_hash=s.get("token_hash", ""),
                        spec=s.get("spec", ""), classic=bool(s.get("classic")),
                        replaced=s.get("replaced", ""), identity=s.get("identity", ""),
                        open=bool(s.get("open")))
            if seat.kind == "bot" and not seat.replaced:
                # The stored spec is checked again as data (this server's budget/models).
                try:
                    c = check_bot(stored_spec(seat.spec, seat.classic), game,
                                  budget=self.settings.budget, models=self.models,
                                  with_person=person)
                    seat = bot_seat(j, c)
                    seat.label = s["label"]
                except (ValueError, TypeError) as exc:
                    seat.replaced = f"it cannot be rebuilt here: {exc}"
            seats.append(seat)
        extra = row.get("extra") or {}
        table = self._table(game, seats, row["seed"], table_id=row["id"])
        table.created, table.started = row["created"], row["started"]
        table.notes = list(row["notes"])
        table.unrated = list(extra.get("unrated", []))
        table.creator_hash = extra.get("creator", "")
        table.client = extra.get("client", "")
        table.shown_seed = extra.get("shown_seed")
        table.chat = list(extra.get("chat") or [])
        table.clock, table.grace = extra.get("clock"), float(extra.get("grace") or 0.0)
        table.rematch_of = extra.get("rematch_of")
        if any(s.replaced for s in seats):
            table.unrated.append("a bot was replaced")
        self.tables[table.id] = table
        try:
            table.replay(row["actions"])
        except ValueError as exc:
            table.error = f"the stored moves do not replay: {exc}"
            table.notes.append(f"the table stopped: {table.error}")
            asyncio.get_running_loop().create_task(table.finish())
            return f"table {table.id}: {table.error}"
        if row["status"] == PLAYING:
            table.start()
        return (f"table {table.id} ({game.title}): rebuilt at move "
                f"{len(table.actions)}, {row['status']}")

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
        done = [t for t in self.tables.values() if t.status in (FINISHED, CANCELLED)]
        for t in sorted(done, key=lambda t: t.finished or 0)[: max(0, len(done) - 200)]:
            self.tables.pop(t.id, None)

    def sweep(self, now: float | None = None) -> int:
        """Cancel the waiting tables older than the limit; returns how many."""
        now = time.time() if now is None else now
        limit = 60 * self.settings.waiting_minutes
        old = [t for t in self.tables.values()
               if t.status == WAITING and now - t.created > limit]
        for t in old:
            t.cancel(f"nobody started it within {self.settings.waiting_minutes:g} minutes")
        self._forget_old()
        return len(old)

    def prepare(self, body: Any) -> Plan:
        """Validate the create form's JSON (no side effects: run it off the event loop);
        ValueError/TypeError name the problem."""
        if not isinstance(body, dict):
            raise ValueError("send a JSON object")
        name = body.get("game", "resistance")
        seats_in = body.get("seats")
        if not isinstance(seats_in, list) or not 0 < len(seats_in) <= MAX_SEATS:
            raise ValueError("'seats' must be a list with one entry per seat")
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise ValueError("'options' must be an object")
        game = registry.make(str(name)[:40], len(seats_in), **options)
        for j, s in enumerate(seats_in):
            if not isinstance(s, dict) or s.get("kind") not in ("human", "bot"):
                raise ValueError(f"seat {j}: give {{'kind': 'human'|'bot', ...}}")
        person = any(s["kind"] == "human" for s in seats_in)
        seed = body.get("seed")
        chosen = seed is not None
        if chosen and person and not self.settings.person_seeds:
            raise ValueError("a table with a person never takes a chosen seed (the seed "
                             "would tell its creator the deal); leave 'seed' out")
        if seed is None:
            seed = secrets.randbelow(2**63)
        if type(seed) is not int or not 0 <= seed < 2**63:
            raise ValueError(f"seed must be an integer 0 <= seed < 2**63, not {seed!r}")
        people, bots, open_seats = [], [], set()
        for j, s in enumerate(seats_in):
            if s["kind"] == "human":
                label = display_name(s.get("name")) or f"player {j}"
                people.append((j, label))
                if s.get("open") is True:
                    open_seats.add(j)
            else:
                try:
                    bots.append((j, check_bot(s.get("bot", ""), game,
                                              budget=self.settings.budget,
                                              models=self.models, with_person=person)))
                except (ValueError, TypeError) as exc:
                    raise ValueError(f"seat {j}: {exc}") from None
        clock = body.get("clock")
        if clock is not None and (type(clock) not in (int, float)
                                  or not CLOCK_MIN <= clock <= CLOCK_MAX):
            raise ValueError(f"'clock' is the seconds a person has for each move, "
                             f"{CLOCK_MIN}..{CLOCK_MAX}, or null for none; not {clock!r}")
        return Plan(game, seed, chosen, people, frozenset(open_seats),
                    None if clock is None else float(clock), bots)

    def open(self, plan: Plan, client: str) -> tuple[Table, list[dict], str]:
        """A table from a validated plan (on the event loop): its invites and the
        creator's cancel token. ValueError when the server or the client is at a limit."""
        self.sweep()
        st = self.settings
        if sum(t.status in (WAITING, PLAYING) for t in self.tables.values()) >= st.tables:
            raise ValueError(f"the server has {st.tables} tables in play; try later")
        if plan.people and sum(t.status == WAITING and t.client == client
                               for t in self.tables.values()) >= st.waiting_per_client:
            raise ValueError(f"you have {st.waiting_per_client} tables waiting for players; "
                             "start or cancel one first")
        given = plan.tokens or {}
        tokens = {j: given.get(j) or secrets.token_urlsafe(16) for j, _ in plan.people
                  if j not in plan.open_seats}
        by_seat: dict[int, Seat] = {
            j: Seat(j, "human", label, token_hash=hash_token(tokens[j]) if j in tokens else "",
                    open=j in plan.open_seats)
            for j, label in plan.people}
        by_seat.update({j: bot_seat(j, c) for j, c in plan.bots})
        seats = [by_seat[j] for j in range(len(by_seat))]
        table = self._table(plan.game, seats, plan.seed, table_id=plan.table_id)
        table.rematch_of = plan.rematch_of
        cancel = secrets.token_urlsafe(16)
        table.creator_hash, table.client = hash_token(cancel), client
        if plan.clock is not None and plan.people:
            table.clock, table.grace = plan.clock, st.clock_grace
        if plan.chosen_seed:
            table.unrated.append("the creator chose the seed")
            if plan.people:  # tests only (WebSettings.person_seeds): every seat sees it
                table.shown_seed = plan.seed
        table.unrated += [f"seat {s.index} is a privileged bot" for s in seats if s.omniscient]
        self.tables[table.id] = table
        self._write("live_create", {
            "id": table.id, "game": plan.game.name, "players": plan.game.n_players,
            "options": dict(plan.game.settings), "seed": str(plan.seed),
            "seats": table.persisted_seats(), "status": WAITING, "notes": [],
            "created": table.created, "started": None, "extra": table.extra_row()})
        invites = [{"seat": s.index, "name": s.label,
                    "url": f"/table/{table.id}?seat={s.index}&token={tokens[s.index]}",
                    "token": tokens[s.index]} for s in seats if s.index in tokens]
        return table, invites, cancel

    def rematch_plan(self, table: Table) -> Plan:
        """The same seats (people by name, bots by their specs, checked again), the same
        options and clock, a new random deal. Off the event loop: it builds bots."""
        game = registry.make(table.game.name, table.game.n_players, **table.game.settings)
        people = [(s.index, s.label) for s in table.seats if s.kind == "human"]
        bots = []
        for s in table.seats:
            if s.kind == "bot":
                bots.append((s.index, check_bot(stored_spec(s.spec, s.classic), game,
                                                budget=self.settings.budget,
                                                models=self.models, with_person=True)))
        new_id = secrets.token_urlsafe(9)
        tokens = {s.index: self.rematch_token(new_id, s.token_hash) for s in table.seats
                  if s.kind == "human" and s.token_hash}
        return Plan(game, secrets.randbelow(2**63), False, people, frozenset(), table.clock,
                    bots, table_id=new_id, rematch_of=table.id, tokens=tokens)

    def rematch_token(self, new_id: str, old_hash: str) -> str:
        """A person's token at rematch ``new_id``: derived from their old seat's token
        hash with the server's secret, so it is stored nowhere and the old link can be
        led to the new seat after a restart (:meth:`rematch_of`)."""
        return self.identity.derive(f"rematch|{new_id}|{old_hash}")

    def rematch_of(self, table_id: str, token: str) -> tuple[Table, int, str] | None:
        """The live rematch of finished table ``table_id`` and the seat and token there of
        the person holding ``token`` at the old table, if there is one."""
        old_hash = hash_token(token)
        for t in self.tables.values():
            if t.rematch_of != table_id[:32]:
                continue
            new = self.rematch_token(t.id, old_hash)
            for s in t.seats:
                if s.token_hash and secrets.compare_digest(s.token_hash, hash_token(new)):
                    return t, s.index, new
        return None

    def create(self, body: Any, client: str = "local") -> tuple[Table, list[dict]]:
        """:meth:`prepare` then :meth:`open` (for callers already off the event loop)."""
        table, invites, _ = self.open(self.prepare(body), client)
        return table, invites

    def table(self, table_id: str) -> Table:
        t = self.tables.get(table_id)
        if t is None:
            raise HTTPException(404, "no such table")
        return t


async def json_body(request: Request) -> Any:
    """The request's JSON, only with ``Content-Type: application/json`` (so a cross-site
    form or ``text/plain`` body is never read as JSON); the body size is already bounded."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise HTTPException(415, "send the body as JSON with Content-Type: application/json")
    try:
        return json.loads(await request.body())
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise HTTPException(400, "the body must be JSON") from None


def client_of(conn: Request | WebSocket) -> str:
    """The client's address (behind a reverse proxy: the proxy's, see the README)."""
    return conn.client.host if conn.client else "unknown"


def create_app(db_url: str | None = None, workers: int | None = None,
               time_limit: float = 30.0, settings: WebSettings | None = None) -> FastAPI:
    """The app; ``db_url`` defaults to a SQLite file under the user's data directory;
    ``settings`` are the limits (:class:`~spyglass.web.guard.WebSettings`)."""
    from spyglass.web.store import default_url

    server = Server(db_url or default_url(), workers or max(1, min(2, os.cpu_count() or 1)),
                    time_limit, settings)
    st = server.settings

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        for line in server.restore():
            print(f"spyglass serve: {line}", file=sys.stderr)

        async def sweeper() -> None:
            while True:
                await asyncio.sleep(max(1.0, min(30.0, 30 * st.waiting_minutes)))
                server.sweep()

        task = asyncio.get_running_loop().create_task(sweeper())
        yield
        task.cancel()
        await server.stop()
        if server.pool is not None:
            server.pool.close()

    app = FastAPI(title="Spyglass", docs_url="/api/docs", redoc_url=None, lifespan=lifespan)
    app.state.server = server
    app.add_middleware(Guard, settings=st, identity=server.identity)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def page(name: str) -> FileResponse:
        return FileResponse(STATIC / name, media_type="text/html")

    @app.get("/")
    def index() -> FileResponse:
        return page("index.html")

    @app.get("/table/{table_id}")
    def table_page(table_id: str, token: str = "") -> Response:
        if table_id in server.tables:
            return page("table.html")
        # A finished table the server has forgotten (a restart, or 200 newer games):
        # a player's link leads to the rematch asked for there, if any, else to the
        # game's replay; an unknown link gets a page that says so.
        found = server.rematch_of(table_id, token[:100]) if token else None
        if found is not None:
            new, j, new_token = found
            return RedirectResponse(f"/table/{new.id}?seat={j}&token={new_token}",
                                    status_code=303)
        game_id = server.store.game_of_table(table_id)
        if game_id is not None:
            return RedirectResponse(f"/replay/{game_id}", status_code=303)
        return FileResponse(STATIC / "notfound.html", media_type="text/html", status_code=404)

    @app.get("/lobby")
    def lobby_page() -> FileResponse:
        return page("lobby.html")

    @app.get("/api/lobby")
    def lobby() -> dict:
        """Tables with free open seats (to join) and games in play (to watch)."""
        live = sorted(server.tables.values(), key=lambda t: -t.created)
        return {"open": [t.public() for t in live if t.free_seats()][:LOBBY_ROWS],
                "playing": [t.public() for t in live if t.status == PLAYING][:LOBBY_ROWS]}

    @app.post("/api/tables/{table_id}/join")
    async def join_table(table_id: str, request: Request) -> dict:
        """Take a free open seat: the seat's link (its secret token), shown once."""
        table = server.table(table_id)
        body = await json_body(request)
        name = display_name(body.get("name") if isinstance(body, dict) else None)
        if not name:
            raise HTTPException(400, "give your name: {'name': '...'} (1-40 characters)")
        if not server.joins.allow(client_of(request)):
            raise HTTPException(429, f"at most {st.joins_per_minute} seats a minute from one "
                                     "client; try again shortly")
        try:
            seat, token = table.take(name)
        except Refused as exc:
            raise HTTPException(409, str(exc)) from None
        return {"seat": seat.index, "name": seat.label, "token": token,
                "url": f"/table/{table.id}?seat={seat.index}&token={token}"}

    @app.get("/games")
    def games_page() -> FileResponse:
        return page("games.html")

    @app.get("/ratings")
    def ratings_page() -> FileResponse:
        return page("ratings.html")

    @app.get("/replay/{game_id}")
    def replay_page(game_id: str) -> FileResponse:
        return page("replay.html")

    @app.get("/rules")
    def rules_index_html() -> FileResponse:
        return page("rules.html")

    @app.get("/rules/{game}")
    def rules_html(game: str) -> FileResponse:
        # An unknown game: the same page, which says so (with the list of games).
        return FileResponse(STATIC / "rules.html", media_type="text/html",
                            status_code=200 if game in registry.GAMES else 404)

    @app.get("/api/rules/{game}")
    def game_rules(game: str) -> dict:
        """A game's rules for players (its own rules.md), options and bots."""
        if game not in registry.GAMES:
            raise HTTPException(404, f"no game named {game[:40]!r}; games: "
                                     f"{', '.join(registry.names())}")
        g = registry.make(game)
        helps = bot_help(g)
        return rules_page(game, [{"name": k, "help": helps[k]} for k in bot_names(g)])

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
                        "bots": bot_names(g), "bot_help": bot_help(g),
                        # The default opponent: spyglass/agents/recommended.py.
                        "best": best_agent(name).spec})
        return {"games": out, "models": sorted(server.models)}

    @app.post("/api/tables")
    async def create_table(request: Request) -> JSONResponse:
        body = await json_body(request)
        client = client_of(request)
        if not server.creations.allow(client):
            raise HTTPException(429, f"at most {st.creates_per_minute} tables a minute from "
                                     "one client; try again shortly")
        try:
            # Building bots to check them is real work: off the event loop.
            plan = await asyncio.get_running_loop().run_in_executor(None, server.prepare, body)
            table, invites, cancel = server.open(plan, client)
        except (ValueError, TypeError) as exc:
            raise HTTPException(400, str(exc)) from None
        if all(s.kind == "bot" for s in table.seats):
            table.start()
        return JSONResponse({"table": table.public(), "invites": invites,
                             "cancel_token": cancel})

    @app.get("/api/tables/{table_id}")
    def table_info(table_id: str) -> dict:
        return server.table(table_id).public()

    async def token_of(request: Request) -> str:
        body = await json_body(request)
        token = body.get("token") if isinstance(body, dict) else None
        return token if isinstance(token, str) else ""

    @app.post("/api/tables/{table_id}/start")
    async def start_table(table_id: str, request: Request) -> dict:
        table = server.table(table_id)
        if table.seat_by_token(await token_of(request)) is None:
            raise HTTPException(403, "only a player of this table may start it")
        table.start()
        return table.public()

    rematch_lock = asyncio.Lock()

    @app.post("/api/tables/{table_id}/rematch")
    async def rematch(table_id: str, request: Request) -> dict:
        """A seat of a finished game asks for a rematch: same seats, a new deal. The
        first ask makes the table; every person is given their own new link (also
        after a restart, once the finished table is forgotten: :meth:`Server.rematch_of`)."""
        token = await token_of(request)
        if table_id not in server.tables:
            found = server.rematch_of(table_id, token[:100])
            if found is not None:
                new, j, new_token = found
                return {"table": new.id, "url": f"/table/{new.id}?seat={j}&token={new_token}"}
            if server.store.game_of_table(table_id) is not None:
                raise HTTPException(409, "this finished table is no longer held by the "
                                         "server (it restarted, or many games followed): "
                                         "no rematch can be made from it now")
        table = server.table(table_id)
        seat = table.seat_by_token(token)
        if seat is None:
            raise HTTPException(403, "only a player of this table may ask for a rematch")
        if table.status != FINISHED:
            raise HTTPException(409, f"the game is {table.status}; a rematch follows a "
                                     "finished game")
        async with rematch_lock:
            if table.rematch is None:
                if not server.creations.allow(client_of(request)):
                    raise HTTPException(429, f"at most {st.creates_per_minute} tables a "
                                             "minute from one client; try again shortly")
                try:
                    plan = await asyncio.get_running_loop().run_in_executor(
                        None, server.rematch_plan, table)
                    new, invites, _ = server.open(plan, client_of(request))
                except (ValueError, TypeError) as exc:
                    raise HTTPException(409, f"no rematch: {exc}") from None
                table.rematch = {"table": new.id,
                                 "links": {i["seat"]: i["url"] for i in invites}}
                table._notify()
        return {"table": table.rematch["table"], "url": table.rematch["links"][seat.index]}

    @app.post("/api/tables/{table_id}/cancel")
    async def cancel_table(table_id: str, request: Request) -> dict:
        table = server.table(table_id)
        token = await token_of(request)
        if not table.creator_hash or not secrets.compare_digest(
                table.creator_hash, hash_token(token)):
            raise HTTPException(403, "only the table's creator (its cancel token) may cancel it")
        if table.status != WAITING:
            raise HTTPException(409, f"the table is {table.status}; only a waiting table "
                                     "can be cancelled")
        table.cancel("its creator cancelled it")
        return table.public()

    @app.websocket("/ws/{table_id}")
    async def play(ws: WebSocket, table_id: str) -> None:
        if not origin_allowed(ws.scope, st.origins):
            await ws.close(code=CLOSE_NOT_VALID)  # before accept: the handshake gets 403
            return
        await ws.accept()
        table = server.tables.get(table_id)
        if table is not None and ws.query_params.get("watch") == "1":
            await watch(ws, table)
            return
        token = ws.query_params.get("token", "")
        seat = table.seat_by_token(token) if table else None
        if table is None or seat is None:
            await ws.close(code=CLOSE_NOT_VALID, reason="this link is not valid")
            return
        client = await admit(ws, len(seat.listeners) >= st.sockets_per_seat,
                             "too many connections to this seat")
        if client is None:
            return
        ident = server.identity.verify(cookie(ws.scope, COOKIE))
        if ident:
            table.bind(seat, ident)
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

        async def close(code: int, why: str) -> None:
            with contextlib.suppress(Exception):
                await ws.close(code=code, reason=why)

        task = asyncio.create_task(sender())
        table.join(seat)
        wake.set()
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None:
                    await close(CLOSE_BINARY, "binary messages are not accepted")
                    break
                if len(text) > st.message_bytes:
                    await close(CLOSE_TOO_BIG, f"a message is at most {st.message_bytes} bytes")
                    break
                try:
                    msg = json.loads(text)
                except (json.JSONDecodeError, RecursionError):
                    await close(CLOSE_MALFORMED, "a message must be JSON")
                    break
                kind = msg.get("type") if isinstance(msg, dict) else None
                if kind == "act":
                    try:
                        table.submit(seat, msg)
                    except Refused as exc:
                        await ws.send_json({"type": "error", "message": str(exc)})
                elif kind == "refresh":
                    wake.set()
                elif kind == "chat":
                    await chat(ws, table, seat, client, msg)
                else:
                    await close(CLOSE_MALFORMED, "a message must be a JSON object with a "
                                                 "known 'type' (act, chat, refresh)")
                    break
        except Exception:  # noqa: BLE001 — the socket is gone; the table plays on
            pass
        finally:
            seat.listeners.discard(wake.set)
            task.cancel()
            release(client)

    async def chat(ws: WebSocket, table: Table, seat: Seat | None, client: str,
                   msg: dict) -> None:
        """One chat line, rate-limited per client and table; refusals name the problem."""
        if not server.chats.allow(f"{client} {table.id}"):
            await ws.send_json({"type": "error", "message": f"at most "
                                f"{st.chats_per_minute} chat messages a minute; wait a moment"})
            return
        try:
            table.say(seat, msg.get("text"))
        except Refused as exc:
            await ws.send_json({"type": "error", "message": str(exc)})

    async def admit(ws: WebSocket, full: bool, why: str) -> str | None:
        """Count a new socket against its client's cap (one rule for seats and spectators);
        ``full`` is the seat's or table's own cap. None: closed with 4429 and ``why``."""
        client = client_of(ws)
        if full or server.sockets[client] >= st.sockets_per_client:
            reason = why if full else "too many connections from you"
            await ws.close(code=CLOSE_TOO_MANY, reason=reason)
            return None
        server.sockets[client] += 1
        return client

    def release(client: str) -> None:
        server.sockets[client] -= 1
        if server.sockets[client] <= 0:
            del server.sockets[client]

    async def watch(ws: WebSocket, table: Table) -> None:
        """A spectator: public information only (Table.spectator_message); it sends
        nothing but 'refresh' and is bounded per table and per client."""
        client = await admit(ws, len(table.watchers) >= st.spectators_per_table,
                             "too many spectators at this table")
        if client is None:
            return
        wake = asyncio.Event()
        table.watchers.add(wake.set)

        async def sender() -> None:
            while True:
                await wake.wait()
                wake.clear()
                await ws.send_json(table.spectator_message())

        task = asyncio.create_task(sender())
        wake.set()
        try:
            while True:
                frame = await ws.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text = frame.get("text")
                if text is None or len(text) > st.message_bytes:
                    break
                try:
                    msg = json.loads(text)
                except (json.JSONDecodeError, RecursionError):
                    break
                kind = msg.get("type") if isinstance(msg, dict) else None
                if kind == "chat":
                    await chat(ws, table, None, client, msg)
                    continue
                if kind != "refresh":
                    with contextlib.suppress(Exception):
                        await ws.close(code=CLOSE_MALFORMED,
                                       reason="a spectator may only send 'chat' or 'refresh'")
                    break
                wake.set()
        except Exception:  # noqa: BLE001 — the socket is gone
            pass
        finally:
            table.watchers.discard(wake.set)
            task.cancel()
            release(client)

    @app.get("/api/games")
    async def list_games(game: str | None = None, player: str | None = None,
                         kind: str | None = None, limit: int = 100, offset: int = 0) -> dict:
        # Bounded before the database sees them (SQLite refuses integers over 2**63).
        limit, offset = max(1, min(limit, 1000)), max(0, min(offset, 10**9))
        player = player[:200] if player else player
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
