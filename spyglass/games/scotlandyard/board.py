"""The Scotland Yard board as tables for the compiled kernel, read once from ``board.txt``.

``board.txt`` is the published board's graph (its header names the source and the checks).
Stations are numbered 1..199 as printed; row 0 of every table is unused. Edge types:
``TAXI, BUS, UNDERGROUND, FERRY``; ``ANY`` is the union of all four (where a black
ticket goes). Sets of stations are bitmasks of ``WORDS`` int64 words holding ``BITS``
stations each (station ``s`` is bit ``(s - 1) % BITS`` of word ``(s - 1) // BITS``), so no
word ever sets its sign bit.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

N_STATIONS = 199
TAXI, BUS, UNDERGROUND, FERRY, ANY = range(5)
EDGE_NAMES = ("taxi", "bus", "underground", "ferry")
BITS = 50
WORDS = 4

#: The start cards of the published game (Ravensburger 1983): every piece draws one, Mr X
#: first, so no two pieces share a station.
START_CARDS = (13, 26, 29, 34, 50, 53, 91, 94, 103, 112, 117, 132, 138, 141, 155, 174, 197, 198)

BOARD_FILE = Path(__file__).with_name("board.txt")
#: SHA-256 of ``board.txt``. The compiled kernel and searches embed the board's tables, and
#: numba's cache notices changes to Python sources only: editing ``board.txt`` means
#: updating this line too, which makes every compiled function that uses the board
#: recompile (:func:`spyglass.search.cache.flush_stale_caches`, called by the kernel and
#: the generated entry points, fingerprints this file).
BOARD_SHA256 = "c6327ba005625a3a2b4f295c4a314c83b335a2384bdf4cc78454a4c2c868cf9a"


def read_edges(path: Path = BOARD_FILE, sha256: str | None = BOARD_SHA256
               ) -> list[tuple[int, int, int]]:
    """The board's undirected edges ``(a, b, type)`` as listed in ``path`` (whose digest
    must be ``sha256`` unless that is None)."""
    data = path.read_bytes()
    if sha256 is not None and hashlib.sha256(data).hexdigest() != sha256:
        raise RuntimeError(f"{path} changed: set BOARD_SHA256 in {__file__} to its new "
                           "SHA-256 (so that the compiled code using the board recompiles)")
    edges = []
    for line in data.decode().splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        a, b, kind = line.split()
        edges.append((int(a), int(b), EDGE_NAMES.index(kind)))
    return edges


def _tables(edges: list[tuple[int, int, int]]):
    nbrs = [[set() for _ in range(N_STATIONS + 1)] for _ in range(5)]
    for a, b, t in edges:
        for typ in (t, ANY):
            nbrs[typ][a].add(b)
            nbrs[typ][b].add(a)
    max_deg = max(len(n) for per in nbrs for n in per)
    adj = np.zeros((5, N_STATIONS + 1, max_deg), dtype=np.int64)
    deg = np.zeros((5, N_STATIONS + 1), dtype=np.int64)
    masks = np.zeros((5, N_STATIONS + 1, WORDS), dtype=np.int64)
    for typ in range(5):
        for s in range(1, N_STATIONS + 1):
            out = sorted(nbrs[typ][s])
            deg[typ, s] = len(out)
            adj[typ, s, : len(out)] = out
            for v in out:
                masks[typ, s, (v - 1) // BITS] |= 1 << ((v - 1) % BITS)
    return adj, deg, masks


EDGES = read_edges()
#: ``ADJ[type, s, :DEG[type, s]]``: the stations one edge of ``type`` from ``s``, ascending.
#: ``NB[type, s]``: the same set as a bitmask.
ADJ, DEG, NB = _tables(EDGES)
MAX_DEGREE = ADJ.shape[2]


def station_mask(stations) -> np.ndarray:
    """A set of stations as ``WORDS`` mask words."""
    m = np.zeros(WORDS, dtype=np.int64)
    for s in stations:
        m[(s - 1) // BITS] |= 1 << ((s - 1) % BITS)
    return m


def mask_stations(words) -> list[int]:
    """The stations of a mask, ascending."""
    return [w * BITS + b + 1 for w in range(WORDS) for b in range(BITS)
            if (int(words[w]) >> b) & 1]


POSITIONS_FILE = Path(__file__).with_name("positions.txt")


def station_positions(path: Path = POSITIONS_FILE) -> list[tuple[int, int]]:
    """Where each station is drawn, ``(x, y)`` for stations 1..199 in order (the map in
    the browser; the rules never use it)."""
    out: dict[int, tuple[int, int]] = {}
    for line in path.read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            s, x, y = (int(w) for w in line.split())
            out[s] = (x, y)
    if sorted(out) != list(range(1, N_STATIONS + 1)):
        raise RuntimeError(f"{path} must place every station 1..{N_STATIONS} once")
    return [out[s] for s in range(1, N_STATIONS + 1)]
