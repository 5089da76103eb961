"""What the web server refuses before any route runs, and the limits it keeps.

Why a module of its own: these are the server's promises to its operator and its
visitors (README, "Web security: what is guaranteed"), kept in one place with their
defaults -- :class:`WebSettings` -- so the docs, ``spyglass serve``'s options and the tests
read the same numbers. Here:

* :class:`Guard`, an ASGI middleware: a request body larger than the limit is refused
  (413) before it is read; a state-changing request (POST, PUT, PATCH, DELETE) from a
  foreign ``Origin`` is refused (403); every HTTP response carries the security headers
  (CSP, ``X-Frame-Options: DENY``, ``Referrer-Policy``, ``nosniff``) and, when the client
  has none, a signed identity cookie;
* :class:`Identity`: a server-issued identity (an id signed with the server's secret,
  HMAC-SHA256 from the standard library) -- ratings belong to it, names are display only;
* :class:`RateLimit`: a per-client token bucket (table creation).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spyglass.web.seats import Budget

COOKIE = "spyglass_id"
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
HEADERS = [
    (b"content-security-policy",
     b"default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
     b"img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
     b"form-action 'self'; object-src 'none'"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
]


@dataclass(frozen=True)
class WebSettings:
    """The server's limits and trust settings (defaults are the documented ones)."""

    tables: int = 500  # tables not finished, server-wide
    waiting_per_client: int = 10  # waiting tables one client may hold
    creates_per_minute: int = 10  # table creations per client per minute (burst: same)
    waiting_minutes: float = 30.0  # a waiting table expires after this long
    sockets_per_seat: int = 4
    sockets_per_client: int = 32
    spectators_per_table: int = 50
    joins_per_minute: int = 20  # lobby seat takings per client per minute
    chats_per_minute: int = 20  # chat lines per client per table per minute (burst: same)
    clock_grace: float = 15.0  # seconds after a person's move clock before a bot takes over
    # A person who leaves never stalls a table, clock or not: on their move, a seat with no
    # page open for `away_seconds`, or (without a clock) a move not made in `idle_seconds`
    # even with the page open, is played by a bot from then on (the game is unrated).
    away_seconds: float = 300.0
    idle_seconds: float = 3600.0
    body_bytes: int = 64 * 1024  # request body, refused before it is read
    message_bytes: int = 4096  # one WebSocket message
    budget: Budget = field(default_factory=Budget)
    models: Path | None = None  # the operator's Cheat model files (serve --models)
    origins: tuple[str, ...] = ()  # allowed besides the server's own origin
    secret: bytes | None = None  # signs identities; None: a file in the data directory
    # Tests only (never from a request): people's tables take the creator's seed; such
    # tables show it to every seat and are never rated.
    person_seeds: bool = False


def default_secret() -> bytes:
    """The server's signing secret: kept in a file (mode 0600) in the user's data
    directory, so identities survive a restart."""
    import platformdirs

    folder = Path(platformdirs.user_data_dir("spyglass", appauthor=False))
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "web-secret"
    if not path.exists():
        path.touch(mode=0o600)
        path.write_text(secrets.token_hex(32))
    return bytes.fromhex(path.read_text().strip())


class Identity:
    """Signed identities: ``ID.SIGNATURE`` (HMAC-SHA256 of the id with the secret)."""

    def __init__(self, secret: bytes) -> None:
        self.secret = secret

    def _sign(self, ident: str) -> str:
        mac = hmac.new(self.secret, ident.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(mac).decode().rstrip("=")

    def derive(self, text: str) -> str:
        """A secret only this server can compute from ``text`` (HMAC with its secret):
        a rematch seat's token from the old seat's token hash, so it is never stored."""
        return self._sign("derive|" + text)

    def issue(self) -> str:
        ident = secrets.token_urlsafe(12)
        return f"{ident}.{self._sign(ident)}"

    def verify(self, value: str | None) -> str | None:
        """The id of a cookie value this server issued, else None."""
        if not value or len(value) > 100 or "." not in value:
            return None
        ident, _, sig = value.partition(".")
        return ident if hmac.compare_digest(sig, self._sign(ident)) else None


class RateLimit:
    """A token bucket per client: ``per_minute`` events, refilled continuously."""

    def __init__(self, per_minute: int) -> None:
        self.rate, self.cap = per_minute / 60.0, float(per_minute)
        self.buckets: dict[str, tuple[float, float]] = {}

    def allow(self, client: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        if len(self.buckets) > 10_000:  # forget clients whose buckets are full again
            self.buckets = {k: v for k, v in self.buckets.items()
                            if v[0] + (now - v[1]) * self.rate < self.cap}
        level, last = self.buckets.get(client, (self.cap, now))
        level = min(self.cap, level + (now - last) * self.rate)
        if level < 1.0:
            self.buckets[client] = (level, now)
            return False
        self.buckets[client] = (level - 1.0, now)
        return True


def header(scope: dict, name: bytes) -> str | None:
    for k, v in scope.get("headers", []):
        if k == name:
            return v.decode("latin-1")
    return None


def own_origin(scope: dict) -> str:
    """The origin a page of this server has (from the request's Host)."""
    scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", "http"),
                                              scope.get("scheme", "http"))
    return f"{scheme}://{header(scope, b'host') or ''}"


def origin_allowed(scope: dict, origins: tuple[str, ...]) -> bool:
    """No Origin (not a browser's cross-site request), the server's own, or a listed one."""
    origin = header(scope, b"origin")
    return origin is None or origin == own_origin(scope) or origin in origins


def cookie(scope: dict, name: str) -> str | None:
    raw = header(scope, b"cookie")
    if not raw:
        return None
    for part in raw.split(";"):
        k, _, v = part.strip().partition("=")
        if k == name:
            return v
    return None


class Guard:
    """ASGI middleware (see the module docstring)."""

    def __init__(self, app: Any, settings: WebSettings, identity: Identity) -> None:
        self.app, self.settings, self.identity = app, settings, identity

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.settings.body_bytes
        length = header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            await _plain(send, 413, f"the request body is over {limit} bytes")
            return
        if scope["method"] in STATE_CHANGING and not origin_allowed(scope, self.settings.origins):
            await _plain(send, 403, "cross-site request refused (Origin not allowed)")
            return
        if scope["method"] in STATE_CHANGING or header(scope, b"transfer-encoding"):
            # Read the body here, bounded, so no route ever parses more than the limit.
            chunks, seen, more = [], 0, True
            while more:
                msg = await receive()
                if msg["type"] != "http.request":
                    return  # the client went away
                chunks.append(msg.get("body", b""))
                seen += len(chunks[-1])
                more = msg.get("more_body", False)
                if seen > limit:
                    await _plain(send, 413, f"the request body is over {limit} bytes")
                    return
            body = b"".join(chunks)
            sent = False

            async def replay() -> dict:
                nonlocal sent
                if not sent:
                    sent = True
                    return {"type": "http.request", "body": body, "more_body": False}
                return await receive()

            receive = replay
        new_id = None
        if self.identity.verify(cookie(scope, COOKIE)) is None:
            new_id = self.identity.issue()

        async def send_with_headers(msg: dict) -> None:
            if msg["type"] == "http.response.start":
                headers = list(msg.get("headers", [])) + HEADERS
                if new_id is not None:
                    secure = "; Secure" if scope.get("scheme") == "https" else ""
                    headers.append((b"set-cookie", (
                        f"{COOKIE}={new_id}; Path=/; HttpOnly; SameSite=Lax; "
                        f"Max-Age=31536000{secure}").encode()))
                msg = {**msg, "headers": headers}
            await send(msg)

        await self.app(scope, receive, send_with_headers)


async def _plain(send: Any, status: int, text: str) -> None:
    import json

    body = json.dumps({"detail": text}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())] + HEADERS})
    await send({"type": "http.response.body", "body": body})
