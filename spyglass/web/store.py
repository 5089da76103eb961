"""The database of games: every finished web game as its record, players, options, seed
and timestamps; ratings; JSON Lines export; and the live tables (their seats, with only
a hash of each person's secret token, and their moves so far) so that a restarted
server rebuilds them by replaying the moves through the rules.

SQLAlchemy 2 (SQLite by default, PostgreSQL by URL); the schema is created and upgraded
by the Alembic migrations in ``spyglass/web/migrations`` (shipped inside the package), run
by :func:`migrate` when the server starts -- never by ``create_all``, so a database made
by an older Spyglass is upgraded, not left behind.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Float,
    ForeignKey,
    Integer,
    String,
    create_engine,
    delete,
    select,
    update,
)
from sqlalchemy.engine import Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, relationship

MIGRATIONS = Path(__file__).with_name("migrations")


class Base(DeclarativeBase):
    pass


class GameRow(Base):
    """One finished game."""

    __tablename__ = "games"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40), index=True)
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict] = mapped_column(JSON)
    seed: Mapped[str] = mapped_column(String(24))  # 63-bit: stored as text for every backend
    created: Mapped[float] = mapped_column(Float)
    started: Mapped[float | None] = mapped_column(Float, nullable=True)
    finished: Mapped[float] = mapped_column(Float, index=True)
    outcome: Mapped[str] = mapped_column(String(200))
    humans: Mapped[int] = mapped_column(Integer)
    record: Mapped[dict] = mapped_column(JSON)
    # The live table it was played at (migration 0004; None for older games).
    table_id: Mapped[str | None] = mapped_column(String(32), nullable=True, index=True)
    seats: Mapped[list[PlayerRow]] = relationship(back_populates="game_row",
                                                  order_by="PlayerRow.seat")


class PlayerRow(Base):
    """One seat of a stored game."""

    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(10))
    name: Mapped[str] = mapped_column(String(200), index=True)
    role: Mapped[str] = mapped_column(String(40))
    reward: Mapped[float | None] = mapped_column(Float, nullable=True)
    game_row: Mapped[GameRow] = relationship(back_populates="seats")


class LiveTableRow(Base):
    """A table not finished yet (waiting or playing); its moves are :class:`LiveActionRow`."""

    __tablename__ = "live_tables"
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game: Mapped[str] = mapped_column(String(40))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict] = mapped_column(JSON)
    seed: Mapped[str] = mapped_column(String(24))
    seats: Mapped[list] = mapped_column(JSON)  # kind, label, spec, classic, token_hash, ...
    status: Mapped[str] = mapped_column(String(10))
    notes: Mapped[list] = mapped_column(JSON)
    created: Mapped[float] = mapped_column(Float)
    started: Mapped[float | None] = mapped_column(Float, nullable=True)
    # creator (hash of its cancel token), client, unrated (reasons): see Table.extra_row
    extra: Mapped[dict | None] = mapped_column(JSON, nullable=True)


class LiveActionRow(Base):
    """One move of a live table: ``seat`` played ``action`` (a person's message ``seq``)."""

    __tablename__ = "live_actions"
    table_id: Mapped[str] = mapped_column(ForeignKey("live_tables.id"), primary_key=True)
    move: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[int] = mapped_column(BigInteger)
    seq: Mapped[int | None] = mapped_column(BigInteger, nullable=True)


def default_url() -> str:
    """A SQLite file under the user's data directory."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("spyglass", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'spyglass-web.sqlite3'}"


def normalize_url(url: str) -> str:
    """``postgresql://...`` (or ``postgres://``) with the driver the web extra installs,
    psycopg 3 (SQLAlchemy would otherwise look for psycopg2)."""
    for plain in ("postgresql://", "postgres://"):
        if url.startswith(plain):
            return "postgresql+psycopg://" + url[len(plain):]
    return url


def migrate(url: str) -> None:
    """Bring the database at ``url`` up to the newest schema (Alembic ``upgrade head``)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.set_main_option("sqlalchemy.url", normalize_url(url).replace("%", "%%"))
    command.upgrade(cfg, "head")


class Store:
    """Reads and writes games (synchronous; the app calls it from a thread)."""

    def __init__(self, url: str) -> None:
        url = normalize_url(url)
        self.url = url
        migrate(url)
        args = {"check_same_thread": False} if url.startswith("sqlite") else {}
        self.engine: Engine = create_engine(url, connect_args=args)
        self._ratings: dict[str, tuple[tuple, list[dict]]] = {}  # game -> (key, ratings)

    # --- writes: each is an op on a session, so the server's writer can commit many at once
    def write(self, ops: list[tuple[str, tuple, dict]]) -> None:
        """Apply writes ``(name, args, kwargs)`` (``name``: ``live_create``,
        ``live_update``, ``live_action``, ``live_drop``, ``save``) in one transaction."""
        with Session(self.engine) as db:
            for name, args, kwargs in ops:
                getattr(self, "_" + name)(db, *args, **kwargs)
            db.commit()

    def live_create(self, row: dict) -> None:
        """Store a new table (``row``: the :class:`LiveTableRow` fields)."""
        self.write([("live_create", (row,), {})])

    def live_update(self, table_id: str, **fields: Any) -> None:
        """Change a live table's status, start time, seats or notes."""
        self.write([("live_update", (table_id,), fields)])

    def live_action(self, table_id: str, move: int, seat: int, action: int,
                    seq: int | None) -> None:
        """Append move number ``move`` of a live table."""
        self.write([("live_action", (table_id, move, seat, action, seq), {})])

    def live_drop(self, table_id: str) -> None:
        self.write([("live_drop", (table_id,), {})])

    def save(self, game_id: str, record: dict, kinds: list[str], roles: list[str],
             created: float, started: float | None, finished: float,
             live_id: str | None = None) -> None:
        """Store a finished game (and forget live table ``live_id``, in one transaction)."""
        self.write([("save", (game_id, record, kinds, roles, created, started, finished,
                              live_id), {})])

    @staticmethod
    def _live_create(db: Session, row: dict) -> None:
        db.add(LiveTableRow(**row))
        db.flush()  # before its moves (PostgreSQL checks their foreign key)

    @staticmethod
    def _live_update(db: Session, table_id: str, **fields: Any) -> None:
        db.execute(update(LiveTableRow).where(LiveTableRow.id == table_id).values(**fields))

    @staticmethod
    def _live_action(db: Session, table_id: str, move: int, seat: int, action: int,
                     seq: int | None) -> None:
        db.add(LiveActionRow(table_id=table_id, move=move, seat=seat, action=action, seq=seq))

    @staticmethod
    def _live_drop(db: Session, table_id: str) -> None:
        db.flush()
        db.execute(delete(LiveActionRow).where(LiveActionRow.table_id == table_id))
        db.execute(delete(LiveTableRow).where(LiveTableRow.id == table_id))

    @staticmethod
    def _save(db: Session, game_id: str, record: dict, kinds: list[str], roles: list[str],
              created: float, started: float | None, finished: float,
              live_id: str | None = None) -> None:
        rewards = record.get("rewards")
        if record.get("error"):
            outcome = "error: " + str(record["error"].get("message", ""))[:180]
        elif rewards:
            best = max(rewards)
            outcome = "won by " + ", ".join(
                record["agents"][j] for j, r in enumerate(rewards) if r == best)[:190]
        else:
            outcome = "unfinished"
        row = GameRow(id=game_id, game=record["game"], players=record["players"],
                      options=record["options"], seed=str(record["seed"]),
                      created=created, started=started, finished=finished,
                      outcome=outcome, humans=kinds.count("human"), record=record,
                      table_id=live_id)
        for j, name in enumerate(record["agents"]):
            row.seats.append(PlayerRow(
                seat=j, kind=kinds[j], name=player_name(name, kinds[j]), role=roles[j],
                reward=None if rewards is None else float(rewards[j])))
        db.add(row)
        if live_id is not None:
            Store._live_drop(db, live_id)

    def live_tables(self) -> list[dict]:
        """Every live table with its moves in order (``actions``: move, seat, action, seq)."""
        out = []
        with Session(self.engine) as db:
            for row in db.scalars(select(LiveTableRow).order_by(LiveTableRow.created)):
                moves = db.scalars(select(LiveActionRow)
                                   .where(LiveActionRow.table_id == row.id)
                                   .order_by(LiveActionRow.move)).all()
                out.append({"id": row.id, "game": row.game, "players": row.players,
                            "options": row.options, "seed": int(row.seed),
                            "seats": row.seats, "status": row.status, "notes": row.notes,
                            "created": row.created, "started": row.started,
                            "extra": row.extra or {},
                            "actions": [(m.move, m.seat, int(m.action), m.seq)
                                        for m in moves]})
        return out

    def games(self, game: str | None = None, player: str | None = None,
              kind: str | None = None, limit: int = 100, offset: int = 0) -> list[dict]:
        """Stored games, newest first, filtered by game, a player's name (substring) and
        ``kind`` (``human``: games with a person; ``bots``: bots only)."""
        q = select(GameRow).order_by(GameRow.finished.desc())
        if game:
            q = q.where(GameRow.game == game)
        if kind == "human":
            q = q.where(GameRow.humans > 0)
        elif kind == "bots":
            q = q.where(GameRow.humans == 0)
        if player:
            q = q.where(GameRow.id.in_(
                select(PlayerRow.game_id).where(PlayerRow.name.contains(player))))
        q = q.limit(max(1, min(limit, 1000))).offset(max(0, offset))
        with Session(self.engine) as db:
            return [summary(r) for r in db.scalars(q)]

    def record(self, game_id: str) -> dict | None:
        with Session(self.engine) as db:
            row = db.get(GameRow, game_id)
            return None if row is None else row.record

    def export(self, game: str | None = None) -> Iterator[str]:
        """JSON Lines of records, oldest first (``spyglass replay`` reads them)."""
        q = select(GameRow.record).order_by(GameRow.finished)
        if game:
            q = q.where(GameRow.game == game)
        with Session(self.engine) as db:
            for rec in db.scalars(q):
                yield json.dumps(rec, separators=(",", ":")) + "\n"

    def game_of_table(self, table_id: str) -> str | None:
        """The stored game played at live table ``table_id``, if any."""
        with Session(self.engine) as db:
            return db.scalars(select(GameRow.id).where(GameRow.table_id == table_id[:32])
                              .limit(1)).first()

    def ratings(self, game: str) -> list[dict]:
        """:meth:`compute_ratings`, computed again only when ``game`` has a new game
        (ratings are a replay of every game: 0.47 s for ~300 games)."""
        from sqlalchemy import func

        with Session(self.engine) as db:
            key = (game, *db.execute(select(func.count(GameRow.id), func.max(GameRow.finished))
                                     .where(GameRow.game == game)).one())
        cached = self._ratings.get(game)
        if cached is None or cached[0] != key:
            cached = (key, self.compute_ratings(game))
            self._ratings[game] = cached
        return [dict(d) for d in cached[1]]

    def compute_ratings(self, game: str) -> list[dict]:
        """OpenSkill (Plackett-Luce) ratings of every player of ``game``'s rated finished
        games, in order of play; a seat's rank is by reward (ties share a rank). A person
        is rated under the server-issued identity of the seat (``record["web"]
        ["identities"]``), shown with the name they last played under; a game marked
        unrated (``record["web"]["rated"]`` false: see the README) is left out."""
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        ratings: dict[str, Any] = {}
        played: dict[str, int] = {}
        shown: dict[str, str] = {}
        q = (select(GameRow).where(GameRow.game == game).order_by(GameRow.finished))
        with Session(self.engine) as db:
            for row in db.scalars(q):
                web = (row.record or {}).get("web") or {}
                if web.get("rated") is False:
                    continue
                idents = web.get("identities") or {}
                seats = [s for s in row.seats if s.reward is not None]
                if len(seats) < 2:
                    continue
                keys = []
                for s in seats:
                    ident = idents.get(str(s.seat)) if s.kind == "human" else None
                    key = f"id:{ident}" if ident else s.name
                    shown[key] = (f"{s.name} [{ident[:6]}]" if ident else s.name)
                    keys.append(key)
                teams = [[ratings.setdefault(k, model.rating(name=k))] for k in keys]
                new = model.rate(teams, ranks=[-s.reward for s in seats])
                # A player in several seats (three copies of a bot) moves by the mean of
                # its seats' updates.
                moves: dict[str, list] = {}
                for k, team in zip(keys, new, strict=True):
                    moves.setdefault(k, []).append(team[0])
                for k, got in moves.items():
                    old = ratings[k]
                    mu = old.mu + sum(r.mu - old.mu for r in got) / len(got)
                    sigma = sum(r.sigma for r in got) / len(got)
                    ratings[k] = model.rating(mu=mu, sigma=sigma, name=k)
                    played[k] = played.get(k, 0) + 1
        out = [{"name": shown[k], "mu": r.mu, "sigma": r.sigma, "ordinal": r.ordinal(),
                "games": played[k]} for k, r in ratings.items()]
        return sorted(out, key=lambda d: -d["ordinal"])


def player_name(label: str, kind: str) -> str:
    """A stored player's name: people are ``person:NAME``; a bot's is its spec (the
    ``#2`` of a second copy is dropped: it is the same player)."""
    base = label.split("#", 1)[0]
    return f"person:{base}" if kind == "human" else base


def summary(row: GameRow) -> dict:
    return {"id": row.id, "game": row.game, "players": row.players, "options": row.options,
            "seed": row.seed, "created": row.created, "finished": row.finished,
            "outcome": row.outcome, "humans": row.humans,
            "seats": [{"seat": s.seat, "kind": s.kind, "name": s.name, "role": s.role,
                       "reward": s.reward} for s in row.seats],
            "when": time.strftime("%Y-%m-%d %H:%M", time.gmtime(row.finished))}


class Writer:
    """Every write of a server, in order, on one thread, many to a transaction.

    Why: a table writes each move as it is played (so that it survives a restart); one
    commit per move would make the disk, not the games, set the pace (60 tables of bots
    play thousands of moves a minute). Writes queued while a commit is under way go in
    the next one. A batch that fails is retried one write at a time, so one bad write
    never loses the others. :meth:`submit` returns a future of the write's commit.
    """

    BATCH = 1000

    def __init__(self, store: Store) -> None:
        import queue
        import threading

        self.store = store
        self.queue: queue.SimpleQueue = queue.SimpleQueue()
        self.thread = threading.Thread(target=self._run, name="db-writer", daemon=True)
        self.thread.start()

    def submit(self, name: str, *args: Any, **kwargs: Any) -> Future:
        fut: Future = Future()
        self.queue.put((name, args, kwargs, fut))
        return fut

    def close(self) -> None:
        """Commit what is queued, then stop the thread."""
        self.queue.put(None)
        self.thread.join()

    def _run(self) -> None:
        import queue

        while True:
            batch = [self.queue.get()]
            while batch[-1] is not None and len(batch) < self.BATCH:
                try:
                    batch.append(self.queue.get_nowait())
                except queue.Empty:
                    break
            stop = batch[-1] is None
            ops = [b for b in batch if b is not None]
            try:
                if ops:
                    self.store.write([op[:3] for op in ops])
                for op in ops:
                    op[3].set_result(None)
            except Exception:  # noqa: BLE001 — retried one by one below
                for op in ops:
                    try:
                        self.store.write([op[:3]])
                        op[3].set_result(None)
                    except Exception as exc:  # noqa: BLE001 — reported; the tables play on
                        print(f"spyglass serve: a database write ({op[0]}) failed: {exc}",
                              file=sys.stderr)
                        op[3].set_exception(exc)
            if stop:
                return
