"""A live web table: the server's referee for one game between people and bots.

Why not :func:`spyglass.arena.match.play_match`: that referee is synchronous and calls
every agent in its own thread, while a web table must *wait* for people (for minutes,
across reconnects) without holding a thread, and must keep bots in worker processes.
So a table is an asyncio task that follows the same rules as the generic referee: it
holds the only full state; every action is validated by the game's compiled rules
(:func:`~spyglass.arena.match.check_action` against ``game.legal_actions``); each seat is
told only its own view and its own observation keys (``kernel.observe`` before
``apply``); seeds are derived as the referee derives them (``derive_seed(seed, 1, j)``
for seat ``j``), and the finished game is the same record (:mod:`spyglass.arena.history`)
so ``spyglass replay`` reads it.

People act through :meth:`Table.submit` (from a WebSocket), which checks the seat's
secret token upstream, then: the game is running, it is this seat's turn, the message's
``move`` is the current move number and its ``seq`` is larger than any the seat sent
before (so an old message replayed is refused), and the action is legal.

A table survives a restart of the server: it reports each step to its ``journal``
(the server stores the table, its seats with only a hash of each person's token, and
every move), and :meth:`Table.replay` rebuilds it from the stored moves through the
rules -- the one implementation of the rules, so a rebuilt table is the same game. Its
bots start again from the deal and are told every move so far before they next act.

A bot that fails (raises, answers illegally, or its worker does not answer within
``2 * time_limit + 1`` s) is reported in the table's notes and replaced by a random
agent; the game goes on, unrated. Every number a message carries is bounded
(:data:`MAX_SEQ`, the move number by the game's ``max_moves``), so nothing a person
sends can make a stored move unstorable.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from spyglass.agents.random_agent import RandomAgent
from spyglass.arena.match import MatchResult, check_action, derive_seed
from spyglass.games.base import Game
from spyglass.web.workers import WorkerDied, WorkerPool

WAITING, PLAYING, FINISHED, CANCELLED = "waiting", "playing", "finished", "cancelled"
# The largest message sequence number (JavaScript's largest exact integer; fits BIGINT).
MAX_SEQ = 2**53 - 1


CHAT_CHARS = 300  # one chat line, at most
CHAT_LINES = 500  # a table's chat, at most (stored with the game)
CHAT_SHOWN = 100  # the newest lines sent with each state message


def hash_token(token: str) -> str:
    """The stored form of a seat's secret token (the database never holds the token)."""
    return hashlib.sha256(token.encode()).hexdigest()


class Refused(ValueError):
    """A person's message that the table does not accept (the reason is shown to them)."""


@dataclass
class Seat:
    """One seat: a person (``token_hash`` of its secret) or a bot (``spec``)."""

    index: int
    kind: str  # "human" | "bot"
    label: str
    token_hash: str = ""  # sha256 of a person's secret token (the token is never kept)
    spec: str = ""
    classic: bool = False
    name: str = ""  # a bot's registered name and validated settings (how to build it)
    settings: dict = field(default_factory=dict)
    omniscient: bool = False
    about: str = ""  # a bot's one-line description (shown beside its spec)
    identity: str = ""  # a person's server-issued identity (the first to open the seat)
    joined: bool = False
    last_seq: int = -1
    replaced: str = ""  # why a failed bot was replaced by a random agent
    # An open seat is listed in the lobby until someone takes it (``token_hash`` is set
    # then: until that moment nobody holds a link to it).
    open: bool = False
    history: list[tuple[int, int, np.ndarray]] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    listeners: set[Callable[[], Any]] = field(default_factory=set)


class Table:
    """One game at one table (see the module docstring)."""

    def __init__(self, game: Game, seats: list[Seat], seed: int, pool: WorkerPool,
                 time_limit: float, on_finish: Callable[[Table], Any] | None = None,
                 journal: Callable[..., Any] | None = None, table_id: str | None = None
                 ) -> None:
        self.id = table_id or secrets.token_urlsafe(9)
        self.game, self.seats, self.seed = game, seats, seed
        self.pool, self.time_limit, self.on_finish = pool, time_limit, on_finish
        # journal(event, **data): the server persists the table as it goes ("status",
        # "action", "seats"; see Server.journal) so a restart can rebuild it.
        self.journal = journal
        self.status = WAITING
        self.state = np.array(game.new_state(seed), dtype=np.int64)
        # Bots start from the deal even when the table is rebuilt mid-game.
        self._views0 = [game.view(self.state, j) for j in range(game.n_players)]
        self.actions: list[tuple[int, int]] = []
        self.rewards: tuple[float, ...] | None = None
        self.extra: dict[int, Any] = {}
        self.notes: list[str] = []
        self.created = time.time()
        self.started: float | None = None
        self.finished: float | None = None
        self.error: str | None = None
        self.record: dict | None = None
        self.game_id: str | None = None  # the stored game's id, once saved
        # Why the game will not be rated (a bot replaced, a chosen seed, ...); persisted.
        self.unrated: list[str] = []
        self.creator_hash = ""  # hash of the creator's cancel token
        self.client = ""  # the creating client (per-client limits)
        self.shown_seed: int | None = None  # a creator-chosen seed, shown to every seat
        self.latencies: list[float] = []  # person's move: message in -> everyone told
        self.watchers: set[Callable[[], Any]] = set()  # spectators' wake-ups
        # Chat: {"move", "seat" (None: a spectator), "name", "text", "to"}; "to" is "all"
        # for a seat's line, "spectators" for a spectator's (so nobody watching can
        # coach a player: spectators read the seats, seats never read spectators).
        self.chat: list[dict] = []
        # Optional clock: seconds per move for a person; after it and ``grace`` more, a
        # bot plays the seat for the rest of the game (the game is then unrated).
        self.clock: float | None = None
        self.grace: float = 0.0
        self._deadline: float | None = None  # monotonic time the person's move runs out
        # A person who leaves: on their move, no page open for ``away_limit`` seconds (clock
        # or not), or no move for ``idle_limit`` seconds without a clock, and a bot plays
        # the seat (None: never; the server sets both from its settings).
        self.away_limit: float | None = None
        self.idle_limit: float | None = None
        self._away_since: float | None = None  # monotonic time the actor's last page closed
        # The rematch, once a seat asked for one: the new table's id and each person's
        # new link (each sent only to its own seat; kept in memory only).
        self.rematch: dict | None = None
        # The finished table this one is the rematch of (kept in the store, so the old
        # table's links still lead here after a restart).
        self.rematch_of: str | None = None
        self._waiting: tuple[int, asyncio.Future] | None = None
        self._local: dict[int, Any] = {}
        self._pending: list[tuple[int, int, int, np.ndarray]] = []
        self._worker: int | None = None
        self._generation = 0
        self.task: asyncio.Task | None = None

    # --- public information -------------------------------------------------------------
    @property
    def labels(self) -> tuple[str, ...]:
        from spyglass.arena.match import unique_labels

        return unique_labels([s.label for s in self.seats])

    def actor(self) -> int:
        return int(self.game.kernel.actor(self.state)) if self.status == PLAYING else -1

    def public(self) -> dict:
        """What anyone may know about the table (no tokens, no hidden information)."""
        return {
            "id": self.id, "game": self.game.name, "title": self.game.title,
            "seat_words": list(self.game.seat_names),  # the log's words for seats
            "players": self.game.n_players, "options": dict(self.game.settings),
            "status": self.status, "move": len(self.actions), "actor": self.actor(),
            "seats": [{"seat": s.index, "kind": s.kind, "label": lab, "joined": s.joined,
                       "replaced": s.replaced, "free": s.open and not s.token_hash,
                       "about": s.about}
                      for s, lab in zip(self.seats, self.labels, strict=True)],
            "notes": list(self.notes), "game_id": self.game_id,
            "rated": not self.unrated, "unrated": list(self.unrated),
            "seed": self.shown_seed, "clock": self.clock, "grace": self.grace,
            "seconds_left": (None if self._deadline is None or self._waiting is None else
                             round(max(0.0, self._deadline - time.monotonic()), 1)),
            # The person to move has left: seconds before a bot plays the seat.
            "away_left": (None if self._away_since is None or self._waiting is None
                          or self.away_limit is None else round(max(
                              0.0, self._away_since + self.away_limit - time.monotonic()), 1)),
        }

    def extra_row(self) -> dict:
        """What the store keeps besides seats and moves (see migration 0003)."""
        return {"creator": self.creator_hash, "client": self.client,
                "unrated": list(self.unrated), "shown_seed": self.shown_seed,
                "chat": list(self.chat), "clock": self.clock, "grace": self.grace,
                "rematch_of": self.rematch_of}

    def unrate(self, why: str) -> None:
        if why not in self.unrated:
            self.unrated.append(why)
            self._log("extra", extra=self.extra_row())

    def seat_by_token(self, token: str) -> Seat | None:
        """The human seat whose secret is ``token`` (constant-time comparison)."""
        if not isinstance(token, str):
            return None
        digest = hash_token(token)
        found = None
        for s in self.seats:
            if s.kind == "human" and secrets.compare_digest(s.token_hash, digest):
                found = s
        return found

    # --- starting -----------------------------------------------------------------------
    def join(self, seat: Seat) -> None:
        """A person opened their seat; the game starts when every person has."""
        seat.joined = True
        if self.status == WAITING and all(s.joined for s in self.seats if s.kind == "human"):
            self.start()

    def start(self) -> None:
        if self.status != WAITING:
            return
        self.status = PLAYING
        self.started = self.started or time.time()
        self._log("status", status=PLAYING, started=self.started)
        self.task = asyncio.get_running_loop().create_task(self._run())

    def _log(self, event: str, **data: Any) -> None:
        if self.journal is not None:
            self.journal(self, event, **data)

    def persisted_seats(self) -> list[dict]:
        """The seats as stored for a restart (a person's token only as its hash)."""
        return [{"kind": s.kind, "label": s.label, "token_hash": s.token_hash, "spec": s.spec,
                 "classic": s.classic, "replaced": s.replaced, "identity": s.identity,
                 "open": s.open}
                for s in self.seats]

    def free_seats(self) -> list[Seat]:
        """Open seats nobody has taken yet (only while the table waits)."""
        if self.status != WAITING:
            return []
        return [s for s in self.seats if s.open and not s.token_hash]

    def take(self, name: str) -> tuple[Seat, str]:
        """Someone from the lobby takes the first free open seat under ``name``: its
        secret token (shown once, to them). Refused when no seat is free."""
        free = self.free_seats()
        if not free:
            raise Refused("this table has no free seat")
        seat = free[0]
        token = secrets.token_urlsafe(16)
        seat.token_hash, seat.label = hash_token(token), name
        self._log("seats", seats=self.persisted_seats(), notes=list(self.notes))
        self._notify()
        return seat, token

    def bind(self, seat: Seat, identity: str) -> None:
        """The first server-issued identity to open a person's seat owns its rating."""
        if not seat.identity:
            seat.identity = identity
            self._log("seats", seats=self.persisted_seats(), notes=list(self.notes))

    def cancel(self, why: str) -> None:
        """A waiting table is cancelled (by its creator, or it expired): seats are told."""
        if self.status != WAITING:
            return
        self.status = CANCELLED
        self.finished = time.time()
        self.notes.append(f"the table was cancelled: {why}")
        self._log("drop")
        self._notify()

    def replay(self, moves: list[tuple[int, int, int, int | None]]) -> None:
        """Rebuild a table from its stored moves ``(move, seat, action, seq)``, each checked
        by the rules as if it were played now; ValueError at the first that is not."""
        for s in self.seats:
            if s.replaced:
                self._local_random(s.index)
        for move, seat, action, seq in moves:
            actor = int(self.game.kernel.actor(self.state))
            if move != len(self.actions) or seat != actor:
                raise ValueError(f"stored move {move} by seat {seat} does not follow "
                                 f"(move {len(self.actions)}, seat {actor} to play)")
            value, why = check_action(action, self.game.legal_actions(self.state))
            if value is None:
                raise ValueError(f"stored move {move}: action {action!r}: {why}")
            self._advance(actor, value)
            if seq is not None:
                self.seats[seat].last_seq = max(self.seats[seat].last_seq, int(seq))

    # --- people ---------------------------------------------------------------------------
    def submit(self, seat: Seat, msg: Any) -> None:
        """A person's action message; :class:`Refused` with the reason if it is not valid."""
        if not isinstance(msg, dict):
            raise Refused("a message must be a JSON object")
        seq, move, action = msg.get("seq"), msg.get("move"), msg.get("action")
        if type(seq) is not int or not 0 <= seq <= MAX_SEQ:
            raise Refused(f"the message's sequence number 'seq' must be an integer "
                          f"0..{MAX_SEQ}")
        if seq <= seat.last_seq:
            raise Refused(f"stale message: seq {seq} is not after {seat.last_seq}")
        if type(move) is not int or not 0 <= move <= self.game.max_moves:
            raise Refused(f"the message's move number 'move' must be an integer "
                          f"0..{self.game.max_moves}")
        seat.last_seq = seq
        if self.status != PLAYING:
            raise Refused(f"the game is {self.status}, not being played")
        if move != len(self.actions):
            raise Refused(f"move {move} is over: the game is at move {len(self.actions)}")
        if self._waiting is None or self._waiting[0] != seat.index:
            raise Refused("it is not your turn")
        legal = self.game.legal_actions(self.state)
        value, why = check_action(action, legal)
        if value is None:
            if len(why) > 200:  # Cheat has thousands of legal claims
                why = why[:200] + " ...])"
            raise Refused(f"action {action!r} refused: {why}")
        fut = self._waiting[1]
        self._waiting = None
        if not fut.done():
            fut.set_result((value, time.perf_counter(), seq))

    def say(self, seat: Seat | None, text: Any) -> None:
        """A chat line from a seat (None: a spectator); :class:`Refused` naming the
        problem. Stored as plain text: the pages show it as text, never as HTML."""
        if not isinstance(text, str) or not text.strip():
            raise Refused("a chat message needs a non-empty 'text'")
        text = " ".join(text.split())
        if len(text) > CHAT_CHARS:
            raise Refused(f"a chat message is at most {CHAT_CHARS} characters")
        if len(self.chat) >= CHAT_LINES:
            raise Refused(f"this table's chat is full ({CHAT_LINES} lines)")
        self.chat.append({
            "move": len(self.actions), "seat": None if seat is None else seat.index,
            "name": "spectator" if seat is None else self.labels[seat.index],
            "text": text, "to": "spectators" if seat is None else "all"})
        self._log("extra", extra=self.extra_row())
        self._notify()

    def chat_for(self, spectator: bool) -> list[dict]:
        lines = self.chat if spectator else [c for c in self.chat if c["to"] == "all"]
        return lines[-CHAT_SHOWN:]

    # --- what a seat is shown ---------------------------------------------------------------
    def seat_message(self, seat: Seat) -> dict:
        """Everything seat ``seat`` may see now (its view; after the end, everything)."""
        from spyglass.web.views import game_details, move_details, outcome

        game, j = self.game, seat.index
        view = game.view(self.state, j)
        actor = self.actor()
        details = game_details(game, view, j, seat.history)
        turn = actor == j and self._waiting is not None and self._waiting[0] == j
        legal = []
        if turn:
            if details is not None and details.get("client_builds") is not None:
                # Thousands of claims: the page builds them from the hand (the server
                # still checks every action); only the other moves are listed.
                k, first = game.kernel, details["client_builds"]
                ids = [int(k.legal_action(self.state, i))
                       for i in range(min(first, int(k.n_legal(self.state))))]
                ids = [a for a in ids if a < first]
            else:
                ids = game.legal_actions(self.state)
            legal = [{"id": a, "text": game.action_text(a, view), **move_details(game, a)}
                     for a in ids]
        msg = {
            "type": "state", "table": self.public(), "seat": j, "you": self.labels[j],
            "view_text": game.view_text(view, j), "log": list(seat.log), "legal": legal,
            "your_turn": turn, "last_seq": seat.last_seq, "details": details,
            "chat": self.chat_for(spectator=False),
            "rematch": self.rematch["links"].get(j) if self.rematch else None,
        }
        if self.status == FINISHED:
            msg["result"] = {
                "rewards": self.rewards, "error": self.error,
                "roles": list(game.roles(self.state)), "state_text": game.state_text(self.state),
                "game_id": self.game_id,
                **outcome(game, self.rewards, self.labels, j),
            }
        return msg

    def spectator_message(self) -> dict:
        """What a spectator may see: only public facts -- the table, who moved at each
        move (never what), and after the end everything, as in the replay."""
        from spyglass.web.views import outcome

        labels = self.labels
        msg = {"type": "state", "spectator": True, "table": self.public(),
               "log": [f"{labels[seat]} moved" for seat, _ in self.actions[-50:]],
               "chat": self.chat_for(spectator=True)}
        if self.status == FINISHED:
            msg["result"] = {
                "rewards": self.rewards, "error": self.error,
                "roles": list(self.game.roles(self.state)),
                "state_text": self.game.state_text(self.state), "game_id": self.game_id,
                **outcome(self.game, self.rewards, labels, None),
            }
        return msg

    def _notify(self) -> None:
        for s in self.seats:
            for fn in list(s.listeners):
                fn()
        for fn in list(self.watchers):
            fn()

    # --- the game loop ------------------------------------------------------------------------
    def _replace(self, seat: int, why: str) -> None:
        s = self.seats[seat]
        if s.replaced:
            return
        self._hand_over(seat, why, f"bot in seat {seat} was replaced",
                        f"bot {self.labels[seat]!r} in seat {seat} failed ({why}) and was "
                        f"replaced by a random agent")

    def _hand_over(self, seat: int, why: str, unrated: str, note: str) -> None:
        """A random agent plays ``seat`` from now on; the game is unrated, the notes say so."""
        self.seats[seat].replaced = why
        self.unrate(unrated)
        self.notes.append(note)
        self._local_random(seat)
        self._log("seats", seats=self.persisted_seats(), notes=list(self.notes))

    def _local_random(self, seat: int) -> None:
        agent = RandomAgent()
        agent.start(self.game, seat, self.game.view(self.state, seat),
                    derive_seed(self.seed, 2, seat))
        self._local[seat] = agent

    def _bots(self) -> list[Seat]:
        return [s for s in self.seats if s.kind == "bot" and not s.replaced]

    async def _worker_call(self, op: str, payload: Any) -> tuple[Any, dict]:
        assert self._worker is not None
        worker = self.pool.workers[self._worker]
        if worker.generation != self._generation:  # restarted for another table's bot
            for s in self._bots():
                self._replace(s.index, "its worker process was restarted")
            return None, {}
        try:
            return await self.pool.request(self._worker, op, self.id, payload,
                                           2 * self.time_limit + 1)
        except WorkerDied as exc:
            self._generation = -1
            for s in self._bots():
                self._replace(s.index, f"its worker {exc}")
            return None, {}

    def _errors(self, errors: dict) -> None:
        for seat, why in errors.items():
            self._replace(int(seat), why)

    async def _start_bots(self) -> None:
        bots = self._bots()
        if not bots:
            return
        self._worker = self.pool.pick()
        self._generation = self.pool.workers[self._worker].generation
        payload = {
            "game": self.game.name, "players": self.game.n_players,
            "options": dict(self.game.settings),
            "seats": [(s.index, s.name, s.settings, s.classic, self._views0[s.index],
                       derive_seed(self.seed, 1, s.index)) for s in bots],
        }
        _, errors = await self._worker_call("start", payload)
        self._errors(errors)

    async def _bot_action(self, actor: int, legal: list[int]) -> int:
        if self.seats[actor].replaced:
            return int(self._local[actor].act(self.game.view(self.state, actor), legal))
        pending = [(j, o, a, v) for j, o, a, v in self._pending if not self.seats[j].replaced]
        self._pending = []
        out, errors = await self._worker_call(
            "step", {"observe": pending,
                     "act": (actor, self.game.view(self.state, actor), legal)})
        self._errors(errors)
        if out is None or out.get("action") is None:
            self._replace(actor, "it gave no action")
            return int(self._local[actor].act(self.game.view(self.state, actor), legal))
        if out["seconds"] > self.time_limit:
            self.notes.append(f"bot {self.labels[actor]!r} took {out['seconds']:.2f}s "
                              f"(limit {self.time_limit:g}s)")
        return int(out["action"])

    def _advance(self, actor: int, action: int) -> None:
        """Play a checked ``action``: every seat is told its own observation."""
        game, k, n = self.game, self.game.kernel, self.game.n_players
        befores = [game.view(self.state, j) for j in range(n)]
        obs = [int(k.observe(self.state, action, j)) for j in range(n)]
        k.apply(self.state, action)
        self.actions.append((actor, action))
        for j, s in enumerate(self.seats):
            after = game.view(self.state, j)
            if s.kind == "human":
                s.history.append((obs[j], actor, befores[j]))
                if obs[j] != 0:
                    s.log.append(game.observation_text(obs[j], j, actor, after))
                if s.replaced:  # a bot plays this person's seat now
                    self._local[j].observe(obs[j], actor, after)
            elif s.replaced:
                self._local[j].observe(obs[j], actor, after)
            else:
                self._pending.append((j, obs[j], actor, after))

    async def _person(self, actor: int, legal: list[int]) -> tuple[int, float | None,
                                                                   int | None]:
        """The person's move; a bot's once the clock and grace run out, once the person
        has had no page open for ``away_limit`` seconds, or (without a clock) once the
        move has waited ``idle_limit`` seconds."""
        fut = asyncio.get_running_loop().create_future()
        self._waiting = (actor, fut)
        start = time.monotonic()
        if self.clock is not None:
            self._deadline = start + self.clock + self.grace
        self._notify()
        limits = [x for x in (self.clock is not None and self.clock + self.grace,
                              self.away_limit, self.clock is None and self.idle_limit) if x]
        if not limits:
            return await fut
        poll = min(1.0, min(limits) / 10)
        seat = self.seats[actor]
        try:
            while True:
                try:
                    return await asyncio.wait_for(asyncio.shield(fut), poll)
                except TimeoutError:
                    if fut.done():  # the move arrived just as the wait ran out: it counts
                        return fut.result()
                now = time.monotonic()
                if seat.listeners:
                    away, self._away_since = False, None
                else:
                    away = self._away_since is None
                    self._away_since = self._away_since or now
                    if away:  # the others are told the seat is empty, and until when
                        self._notify()
                why = self._overdue(now - start, now - (self._away_since or now))
                if why:
                    self._waiting = None
                    self._take_over(actor, why)
                    return int(self._local[actor].act(self.game.view(self.state, actor),
                                                      legal)), None, None
        finally:
            self._deadline = self._away_since = None

    def _overdue(self, waited: float, away: float) -> str | None:
        """Why a person's move, waited for ``waited`` seconds (their seat with no page
        open for ``away``), goes to a bot now; None while it may still come."""
        if self.clock is not None and waited >= self.clock + self.grace:
            return f"ran out of time ({self.clock:g}s a move, {self.grace:g}s grace)"
        if self.away_limit is not None and away >= self.away_limit:
            return f"left the table (no page open for {self.away_limit:g}s on their move)"
        if self.clock is None and self.idle_limit is not None and waited >= self.idle_limit:
            return f"did not move for {self.idle_limit:g}s (a table without a clock)"
        return None

    def _take_over(self, seat: int, why: str) -> None:
        """A bot plays a person's seat from now on (named in the notes); unrated."""
        self._hand_over(seat, why, f"a bot played seat {seat} after its person {why}",
                        f"{self.labels[seat]} (seat {seat}) {why}: the bot 'random' plays "
                        f"the seat from now on")

    async def _run(self) -> None:
        game, k = self.game, self.game.kernel
        try:
            await self._start_bots()
            self._notify()
            while True:
                actor = int(k.actor(self.state))
                if actor < 0:
                    break
                if len(self.actions) >= game.max_moves:
                    raise RuntimeError(f"the game did not end within {game.max_moves} moves")
                legal = game.legal_actions(self.state)
                t_in = seq = None
                if self.seats[actor].kind == "human" and not self.seats[actor].replaced:
                    action, t_in, seq = await self._person(actor, legal)
                else:
                    action = await self._bot_action(actor, legal)
                    if action not in legal:  # never trust a process's answer
                        self._replace(actor, f"illegal action {action!r}")
                        action = int(self._local[actor].act(game.view(self.state, actor), legal))
                self._advance(actor, action)
                self._log("action", move=len(self.actions) - 1, seat=actor, action=action,
                          seq=seq)
                self._notify()
                if t_in is not None:
                    self.latencies.append(time.perf_counter() - t_in)
            self.rewards = game.rewards(self.state)
            if self._bots():
                pending = [p for p in self._pending if not self.seats[p[0]].replaced]
                self._pending = []
                await self._worker_call("step", {"observe": pending, "act": None})
                extras, errors = await self._worker_call("finish", {"rewards": self.rewards})
                self._errors(errors)
                self.extra.update({int(s): v for s, v in (extras or {}).items()})
        except asyncio.CancelledError:
            # The server is stopping: the table stays live in the database, to be
            # rebuilt from its moves when the server starts again.
            self._waiting = None
            if self._worker is not None:
                self.pool.release(self._worker)
            raise
        except Exception as exc:  # noqa: BLE001 — a broken table must not take the server down
            self.error = f"{type(exc).__name__}: {exc}"
            self.notes.append(f"the table stopped: {self.error}")
        if self._worker is not None:
            self.pool.release(self._worker)
        await self.finish()

    async def finish(self) -> None:
        """The game is over (or broken): make its record, hand it to ``on_finish``."""
        self.status = FINISHED
        self.finished = time.time()
        self.record = self.to_record()
        if self.on_finish is not None:
            try:
                res = self.on_finish(self)
                if asyncio.iscoroutine(res):
                    await res
            except Exception as exc:  # noqa: BLE001
                self.notes.append(f"the game could not be stored: {exc}")
        self._notify()

    def to_record(self) -> dict:
        """The game record (:mod:`spyglass.arena.history`'s format) plus a ``web`` key."""
        result = MatchResult(self.game, self.seed, self.labels, actions=list(self.actions),
                             rewards=self.rewards, extra=dict(self.extra))
        rec = result.to_record()
        if self.error is not None:
            rec["error"] = {"agent": "(web table)", "seat": -1, "message": self.error}
        unrated = list(self.unrated) + [
            f"seat {s.index} has no server-issued identity" for s in self.seats
            if s.kind == "human" and not s.identity]
        rec["web"] = {
            "table": self.id, "rated": not unrated, "unrated": unrated,
            "identities": {str(s.index): s.identity for s in self.seats if s.identity},
            "kinds": [s.kind for s in self.seats],
            "replaced": {str(s.index): s.replaced for s in self.seats if s.replaced},
            "notes": list(self.notes), "chat": list(self.chat),
            "created": self.created, "started": self.started, "finished": self.finished,
        }
        return rec
