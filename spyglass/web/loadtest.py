"""``spyglass bench --only web``: a bounded load test of the web app on loopback.

Many bot tables (The Resistance, 5 random bots: the bots' thinking is negligible, so the
server's own cost is measured) are created at once over HTTP, beside a few scripted web
clients, each a person at a table with four random bots, playing over a real WebSocket.
Reported: the tables in play at once, games per minute, and the person's move latency
(p50/p99) -- from sending the move to receiving the state that shows it (the server
answers before the bots move, so bot thinking is excluded) -- plus the server-side
latency of the same moves. Spectators watch bot tables and each person chats on its
first turns, so both are part of the load. Bounded in count and in time; only 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from pathlib import Path

import numpy as np

from spyglass.bench import benchmark

BOTS5 = [{"kind": "bot", "bot": "random"}] * 5
PERSON = [{"kind": "human", "name": "load"}] + [{"kind": "bot", "bot": "random"}] * 4
CHATS = 5  # chat lines each person sends (one on each of its first turns)


async def _spectator(base: str, table_id: str, seen: list[int]) -> None:
    """Watch one table to its end (public messages only); counts the messages."""
    import websockets

    async with websockets.connect(base.replace("http", "ws") + f"/ws/{table_id}?watch=1",
                                  max_size=2**22) as ws:
        async for raw in ws:
            seen.append(1)
            if json.loads(raw)["table"]["status"] in ("finished", "cancelled"):
                return


async def _client(base: str, http, seed: int, latencies: list[float]) -> None:
    import websockets

    r = await http.post(f"{base}/api/tables",
                        json={"game": "resistance", "seats": PERSON, "seed": seed})
    r.raise_for_status()
    data = r.json()
    ws_url = base.replace("http", "ws") + f"/ws/{data['table']['id']}?token=" \
        + data["invites"][0]["token"]
    seq = 0
    async with websockets.connect(ws_url, max_size=2**22) as ws:
        sent_at, sent_move = None, -1
        async for raw in ws:
            m = json.loads(raw)
            if m["type"] != "state":
                continue
            move = m["table"]["move"]
            if sent_at is not None and move > sent_move:
                latencies.append(time.perf_counter() - sent_at)
                sent_at = None
            if m["table"]["status"] == "finished":
                return
            if m["your_turn"] and sent_at is None and move != sent_move:
                seq += 1
                sent_move = move
                sent_at = time.perf_counter()
                if seq <= CHATS:
                    await ws.send(json.dumps({"type": "chat", "text": f"move {move}, my turn"}))
                await ws.send(json.dumps({"type": "act", "seq": seq, "move": move,
                                          "action": m["legal"][0]["id"]}))


async def _load(base: str, tables: int, clients: int, limit: float,
                spectators: int) -> dict:
    import httpx

    latencies: list[float] = []
    t0 = time.perf_counter()
    async with httpx.AsyncClient(timeout=30) as http:
        created = await asyncio.gather(*[
            http.post(f"{base}/api/tables",
                      json={"game": "resistance", "seats": BOTS5, "seed": 1000 + i})
            for i in range(tables)])
        for r in created:
            r.raise_for_status()
        people = [asyncio.create_task(_client(base, http, 5000 + i, latencies))
                  for i in range(clients)]
        seen: list[int] = []
        watchers = [asyncio.create_task(_spectator(base, r.json()["table"]["id"], seen))
                    for r in created[:spectators]]
        peak, total = 0, tables + clients
        while time.perf_counter() - t0 < limit:
            live = (await http.get(f"{base}/api/tables")).json()["tables"]
            peak = max(peak, len(live))
            if not live and all(p.done() for p in people):
                stored = await http.get(f"{base}/api/games", params={"limit": 1000})
                if len(stored.json()["games"]) >= total:  # every game is in the database
                    break
            await asyncio.sleep(0.05)
        for p in people + watchers:
            p.cancel()
        await asyncio.gather(*people, *watchers, return_exceptions=True)
        elapsed = time.perf_counter() - t0
        stored = (await http.get(f"{base}/api/games", params={"limit": 1000})).json()["games"]
        stats = (await http.get(f"{base}/api/stats")).json()
    return {"latencies": latencies, "elapsed": elapsed, "peak": peak, "games": len(stored),
            "server_p99": stats["person_move_ms_p99"], "spectator_messages": len(seen)}


def run_load(tables: int, clients: int, limit: float, workers: int = 2,
             spectators: int = 20) -> dict[str, float]:
    """Run the load test; returns its figures (see the module docstring)."""
    from spyglass.web.guard import WebSettings
    from spyglass.web.serving import running_server

    # One client creates every table at once: its per-client limits are raised to that.
    # The people's tables take fixed seeds (an operator's setting, unrated games) so every
    # run plays the same deals.
    settings = WebSettings(creates_per_minute=tables + clients,
                           waiting_per_client=tables + clients, secret=b"load test",
                           person_seeds=True)
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'load.sqlite3'}"
        with running_server(url, workers=workers, time_limit=10, settings=settings) as base:
            out = asyncio.run(_load(base, tables, clients, limit, min(spectators, tables)))
    lat = np.array(out["latencies"] or [float("nan")]) * 1000
    return {
        "web tables at once (peak)": float(out["peak"]),
        "web tables created": float(tables + clients),
        "web games finished": float(out["games"]),
        "web games/minute": out["games"] / out["elapsed"] * 60,
        "web person move p50 ms (lower is better)": float(np.percentile(lat, 50)),
        "web person move p99 ms (lower is better)": float(np.percentile(lat, 99)),
        "web person moves measured": float(len(out["latencies"])),
        "web person move p99 ms on the server (lower is better)":
            float("nan") if out["server_p99"] is None else float(out["server_p99"]),
        "web run seconds": out["elapsed"],
        "web spectators": float(min(spectators, tables)),
        "web spectator messages": float(out["spectator_messages"]),
        "web chat lines sent": float(clients * CHATS),
    }


@benchmark("web")
def web_load(quick: bool) -> dict[str, float]:
    """Loopback load: 60 bot tables (20 watched) + 5 people chatting (quick: 20 (10) + 3),
    at most 120 s (quick 60 s)."""
    if quick:
        return run_load(tables=20, clients=3, limit=60, spectators=10)
    return run_load(tables=60, clients=5, limit=120)
