"""Game-specific structured views for the browser, built from one seat's information only.

Why: the generic page shows ``game.view_text`` and buttons from ``game.action_text``;
a game's own page (The Resistance: the mission track, proposals and votes) needs the
same information as data. Everything here is computed from the seat's *view* and the
seat's own observation keys (``history``: ``(obs, actor, view before the move)``), never
from the full state, so it cannot reveal more than the seat knows. The replay
(:func:`replay_steps`) is the exception by design: it is for finished games only, and
shows everything.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spyglass.arena.history import iter_replay
from spyglass.games.base import Game

_LOW = (1 << 20) - 1


def _seats(mask: int) -> list[int]:
    return [j for j in range(64) if mask >> j & 1]


def resistance_details(view: np.ndarray, seat: int,
                       history: list[tuple[int, int, np.ndarray]]) -> dict:
    """The Resistance as seat ``seat`` knows it: roles it knows, track, proposals, votes."""
    from spyglass.games.resistance import kernel as K
    from spyglass.games.resistance import protocol as P

    v = [int(x) for x in view]
    n = v[K.N]
    spies = None if v[K.SPIES] == P.UNKNOWN_SPIES else _seats(v[K.SPIES])
    missions = []
    for m in range(5):
        team = v[P.TEAMS_DONE + m]
        fails = (v[K.HISTORY] >> (4 * m)) & 15
        missions.append({
            "size": int(K.TEAM_SIZE[n, m]), "fails_needed": int(K.FAILS_NEEDED[n, m]),
            "team": _seats(team) if team else None,
            "fails": fails if team else None,
            "sabotaged": bool(team) and fails >= int(K.FAILS_NEEDED[n, m]),
        })
    proposals: list[dict] = []
    for obs, actor, before in history:
        tag, low = obs & ~_LOW, obs & _LOW
        if tag == K.OBS_TEAM:
            proposals.append({"mission": int(before[K.MISSION]) + 1,
                              "attempt": int(before[K.ATTEMPT]) + 1, "leader": actor,
                              "team": _seats(low), "approve": None})
        elif tag == K.OBS_VOTES and proposals:
            proposals[-1]["approve"] = _seats(low)
    phase = {K.PROPOSE: "propose", K.VOTE: "vote", K.MISSION_PHASE: "mission",
             K.OVER: "over"}[v[K.PHASE]]
    my_choice = None
    if phase == "vote" and v[K.CURSOR] > seat:
        my_choice = "approve" if v[K.VOTES] >> seat & 1 else "reject"
    if phase == "mission" and v[K.TEAM] >> seat & 1 and v[K.CURSOR] > seat:
        my_choice = "fail" if v[K.FAILS] else "success"
    return {
        "kind": "resistance", "n": n, "seat": seat,
        "spy": spies is not None and seat in spies, "spies": spies,
        "mission": v[K.MISSION] + 1, "attempt": v[K.ATTEMPT] + 1, "leader": v[K.LEADER],
        "phase": phase, "team": _seats(v[K.TEAM]) if phase in ("vote", "mission") else [],
        "team_size": int(K.TEAM_SIZE[n, min(v[K.MISSION], 4)]),
        "res_wins": v[K.RES_WINS], "spy_wins": v[K.SPY_WINS],
        "winner": None if v[K.WINNER] < 0 else ("resistance" if v[K.WINNER] == K.RESISTANCE
                                                 else "spies"),
        "missions": missions, "proposals": proposals, "my_choice": my_choice,
    }


def _ranks(counts: Any) -> list[int]:
    """Rank counts (13 values) as the sorted list of ranks, one entry a card."""
    return [r for r in range(len(counts)) for _ in range(int(counts[r]))]


def cheat_details(view: np.ndarray, seat: int,
                  history: list[tuple[int, int, np.ndarray]]) -> dict:
    """Cheat as seat ``seat`` knows it (Bitan & Kraus 2018, §4): its hand, the pile's
    size (and only its own cards on it), the reference rank, the opponent's hand size and
    the cards it is known to hold, and the claims history from the seat's observation
    keys: a claim shows its rank and count (and its cards only to its claimant); a call
    reveals the pile, and whether the called claim was true, to both."""
    from spyglass.games.cheat import kernel as K

    v = [int(x) for x in view]
    opp = 1 - seat
    names = K.RANK_NAMES
    claims: list[dict] = []
    events: list[dict] = []
    for obs, actor, before in history:
        obs = int(obs)
        if obs & K.OBS_CALL:
            truth = bool((obs >> 52) & 1)
            pile = _ranks([(obs >> (3 * r)) & 7 for r in range(13)])
            called = claims[-1] if claims else None
            taker = actor if truth else (called["by"] if called else opp)
            if called is not None:
                called.update(called_by=actor, truth=truth, pile=pile, taker=taker)
            events.append({"type": "call", "by": actor, "truth": truth, "pile": pile,
                           "taker": taker})
        elif obs >= K.OBS_TAKE_OPP:
            events.append({"type": "take", "by": actor, "card": None})
        elif obs >= K.OBS_TAKE_OWN:
            events.append({"type": "take", "by": actor, "card": obs - K.OBS_TAKE_OWN})
        else:
            if obs >= K.OBS_CLAIM_OPP:
                b = obs - K.OBS_CLAIM_OPP
                d, k, cards = b // 4, b % 4 + 1, None
            else:
                a = obs - K.OBS_CLAIM_OWN
                b, code = divmod(a - K.CLAIM0, K.BLOCK)
                d, k = b // 4, b % 4 + 1
                cards = [(code // 13 ** (3 - i)) % 13 for i in range(k)]
            ref = int(before[K.V_REF])
            rank = (ref + 1) % 13 if d == 0 else (ref + 12) % 13
            claim = {"n": len(claims) + 1, "by": actor, "rank": rank, "count": k,
                     "direction": ("up", "down")[d], "cards": cards, "called_by": None,
                     "truth": None, "pile": None, "taker": None}
            claims.append(claim)
            events.append({"type": "claim", **claim})
    to_move, result = v[K.V_TO_MOVE], v[K.V_RESULT]
    mine = to_move == seat and result == K.PLAYING
    ref = v[K.V_REF]
    return {
        "kind": "cheat", "seat": seat, "opponent": opp, "names": list(names),
        "hand": _ranks(v[K.V_HAND:K.V_HAND + 13]),
        "opp_hand": v[K.V_OPP_HAND], "opp_known": _ranks(v[K.V_KNOWN:K.V_KNOWN + 13]),
        "pile": sum(v[K.V_PILE:K.V_PILE + 13]) + v[K.V_OPP_PILE],
        "my_pile": _ranks(v[K.V_PILE:K.V_PILE + 13]), "opp_pile": v[K.V_OPP_PILE],
        "deck": v[K.V_DECK_N], "starter": v[K.V_STARTER], "ref": ref,
        "up": (ref + 1) % 13, "down": (ref + 12) % 13,
        "last_claim": None if v[K.V_LAST_BY] < 0 else {"by": v[K.V_LAST_BY],
                                                       "rank": ref, "count": v[K.V_LAST_K]},
        "round": v[K.V_ROUND], "max_rounds": v[K.V_MAX_ROUNDS], "to_move": to_move,
        "forced": bool(v[K.V_FORCED]),
        "can_call": mine and v[K.V_PREV_KIND] == K.K_CLAIM and v[K.V_LAST_BY] == opp,
        "can_take": mine and not v[K.V_FORCED] and v[K.V_DECK_N] > 0,
        "can_claim": mine and not v[K.V_FORCED],
        "max_claim": K.MAX_CLAIM, "claim0": K.CLAIM0, "block": K.BLOCK,
        # Legal ids below this are listed in the message; claims the page builds.
        "client_builds": K.CLAIM0,
        "calls": [v[K.V_CALLS], v[K.V_CALLS + 1]],
        "calls_ok": [v[K.V_CALLS_OK], v[K.V_CALLS_OK + 1]],
        "caught": [v[K.V_CAUGHT_N], v[K.V_CAUGHT_N + 1]],
        "winner": None if result == K.PLAYING else ("draw" if result == K.DRAW else result),
        "claims": claims, "events": events,
    }


def outcome(game: Game, rewards: tuple[float, ...] | None, labels: tuple[str, ...],
            seat: int | None) -> dict:
    """Who won, said from ``seat``'s side ("You won.", "You lost: Bob won."); ``seat``
    None is a spectator. Winners are the seats with a positive win score
    (:meth:`Game.win_scores`: a team in The Resistance, a tie in Hearts)."""
    if rewards is None:
        return {"outcome": "none", "winners": [], "text": "The game ended without a result."}
    scores = game.win_scores(rewards)
    winners = [j for j, x in enumerate(scores) if x > 0]
    names = " and ".join(labels[j] for j in winners)
    if len(winners) == len(scores) and len(scores) > 1:
        return {"outcome": "draw", "winners": winners, "text": "A draw."}
    if seat is None:
        return {"outcome": "watched", "winners": winners, "text": f"Won by {names}."}
    if seat in winners:
        others = " and ".join(labels[j] for j in winners if j != seat)
        return {"outcome": "won", "winners": winners,
                "text": f"You won, with {others}." if others else "You won."}
    return {"outcome": "lost", "winners": winners,
            "text": f"You lost: {names} won."}


def _trick(view: list[int], leader: int, first: int, n_played: int,
           card: Any) -> list[dict]:
    """The trick in play, in order from its leader: ``{"seat", "card"}``."""
    if not n_played % 4:
        return []
    plays = [((leader + i) % 4, view[first + (leader + i) % 4]) for i in range(4)]
    return [{"seat": p, "card": card(c)} for p, c in plays if c >= 0]


def hearts_details(view: np.ndarray, seat: int,
                   history: list[tuple[int, int, np.ndarray]]) -> dict:
    """Hearts as seat ``seat`` knows it: its hand, the trick in play and who led, the
    public counts. A card is ``{"id", "rank" (0 = 2 .. 12 = ace), "suit" (clubs,
    diamonds, hearts, spades)}`` (static/views/cards.js draws it)."""
    from spyglass.games.hearts import kernel as K

    v = [int(x) for x in view]

    def card(c: int) -> dict:
        return {"id": c, "rank": c >> 2, "suit": c & 3}

    def cards(mask: int) -> list[dict]:
        return [card(c) for c in range(52) if mask >> c & 1]

    trick = (_trick(v, v[K.LEADER], K.V_TRICK, v[K.N_PLAYED], card)
             if v[K.PHASE] == K.PLAYING else [])
    return {
        "kind": "hearts", "phase": {K.PASSING: "pass", K.PLAYING: "play"}.get(v[K.PHASE], "over"),
        "hand": cards(v[K.V_HAND]), "passed": cards(v[K.V_PASSED]),
        "received": cards(v[K.V_RECEIVED]), "trick": trick,
        "leader": v[K.LEADER] if trick else None, "to_move": v[K.TO_MOVE],
        "broken": bool(v[K.BROKEN]), "deal": v[K.DEAL_NO] + 1,
        "points": v[K.V_POINTS:K.V_POINTS + 4], "score": v[K.V_SCORE:K.V_SCORE + 4],
        "tricks": v[K.V_TRICKS:K.V_TRICKS + 4],
    }


def spades_details(view: np.ndarray, seat: int,
                   history: list[tuple[int, int, np.ndarray]]) -> dict:
    """Spades as seat ``seat`` knows it: its hand, the trick and who led, every bid made,
    tricks, the teams' scores and bags (cards as in :func:`hearts_details`)."""
    from spyglass.games.spades import kernel as K

    v = [int(x) for x in view]

    def card(c: int) -> dict:
        return {"id": c, "rank": c % 13, "suit": c // 13}

    trick = (_trick(v, v[K.LEADER], K.V_TRICK, v[K.N_PLAYED], card)
             if v[K.PHASE] == K.PLAYING else [])
    return {
        "kind": "spades", "phase": {K.BIDDING: "bid", K.PLAYING: "play"}.get(v[K.PHASE], "over"),
        "hand": [card(c) for c in range(52) if v[K.V_HAND] >> c & 1], "trick": trick,
        "leader": v[K.LEADER] if trick else None, "to_move": v[K.TO_MOVE],
        "broken": bool(v[K.BROKEN]), "round": v[K.ROUND_NO] + 1,
        "bids": [None if b < 0 else b for b in v[K.V_BIDS:K.V_BIDS + 4]],
        "tricks": v[K.V_TRICKS:K.V_TRICKS + 4], "score": v[K.V_SCORE:K.V_SCORE + 2],
        "bags": v[K.V_BAGS:K.V_BAGS + 2],
    }


def phantom_details(view: np.ndarray, seat: int,
                    history: list[tuple[int, int, np.ndarray]]) -> dict:
    """Phantom (m,n,k) as seat ``seat`` knows it: its own marks and the squares where it
    was refused (the opponent's marks it has found); the rest is unknown."""
    from spyglass.games.phantom import kernel as K

    v = [int(x) for x in view]
    m, n = v[K.V_M], v[K.V_N]
    own, refused = v[K.V_OWN], v[K.V_REFUSED]
    return {"kind": "phantom", "m": m, "n": n, "k": v[K.V_K],
            "own": [a for a in range(m * n) if own >> a & 1],
            "refused": [a for a in range(m * n) if refused >> a & 1],
            "mark": "X" if seat == 0 else "O", "other": "O" if seat == 0 else "X",
            "opp_count": v[K.V_OPP_COUNT]}


def othello_details(view: np.ndarray, seat: int,
                    history: list[tuple[int, int, np.ndarray]]) -> dict:
    """Othello (perfect information): the discs; the legal moves come with the message."""
    from spyglass.games.othello import kernel as K

    def squares(bits: int) -> list[int]:
        return [a for a in range(64) if (bits >> a) & 1]

    return {"kind": "othello", "black": squares(int(view[K.BLACK]) & (2**64 - 1)),
            "white": squares(int(view[K.WHITE]) & (2**64 - 1)),
            "you": "black" if seat == 0 else "white"}


def checkers_details(view: np.ndarray, seat: int,
                     history: list[tuple[int, int, np.ndarray]]) -> dict:
    """Checkers (perfect information): the pieces (squares ``row * 8 + col``, row 0 the
    top row "8"), the piece that must go on capturing, the quiet-move count."""
    from spyglass.games.checkers import kernel as K

    def squares(x: Any) -> list[int]:
        bits = int(np.int64(x).view(np.uint64))
        return [a for a in range(64) if bits >> a & 1]

    chain = int(view[K.CHAIN])
    return {"kind": "checkers", "you": ("black", "white")[seat],
            "black": squares(view[K.P0]), "white": squares(view[K.P1]),
            "kings": squares(view[K.KINGS]), "chain": chain if chain >= 0 else None,
            "to_move": int(view[K.TO_MOVE]), "quiet": int(view[K.QUIET]),
            "quiet_limit": K.QUIET_LIMIT}


def _checkers_move(action: int) -> dict:
    """A Checkers action id as its from and to squares (the kernel's id layout)."""
    sq, d, jump = action >> 3, (action >> 1) & 3, action & 1
    step = (-9, -7, 9, 7)[d] * (2 if jump else 1)
    return {"from": sq, "to": sq + step, "jump": bool(jump)}


def backgammon_details(view: np.ndarray, seat: int,
                       history: list[tuple[int, int, np.ndarray]]) -> dict:
    """Backgammon from ``seat``'s side (everything on the board is public; the future
    dice are not in a view): ``points[q - 1]`` is its own point ``q`` as +n of its own
    checkers or -n of the opponent's; the bar, the borne-off, the dice and their uses."""
    from spyglass.games.backgammon import kernel as K

    v = [int(x) for x in view]
    sign = 1 if seat == 0 else -1
    result = v[K.RESULT]
    return {"kind": "backgammon", "you": "xo"[seat], "other": "xo"[1 - seat],
            "points": [v[K.index_of(seat, q)] * sign for q in range(1, 25)],
            "bar": [v[K.BAR0 + seat], v[K.BAR0 + 1 - seat]],
            "off": [v[K.OFF0 + seat], v[K.OFF0 + 1 - seat]],
            "dice": [v[K.HI], v[K.LO]] if result == K.PLAYING else [],
            "uses": [v[K.NHI], v[K.NLO]], "left": v[K.LEFT], "to_move": v[K.TO_MOVE],
            "turn": v[K.TURN], "max_turns": v[K.MAX_TURNS]}


def _backgammon_move(action: int) -> dict:
    """A Backgammon action id as own point ``from`` (25 the bar), ``to`` (0: off), die."""
    from spyglass.games.backgammon import kernel as K

    if action == K.PASS:
        return {}
    q, die = action // 6 + 1, action % 6 + 1
    return {"from": q, "to": max(q - die, 0), "die": die}


def _climb_round(history: list[tuple[int, int, np.ndarray]], n: int, cards_of: Any,
                 leading: Any) -> list[dict | None]:
    """Each seat's move in the round in play (Dou Di Zhu and its mini version): ``None``
    (no move yet), ``{"pass": True}`` or ``{"cards": [...]}``, from the public moves in
    the seat's own observation history. ``cards_of(obs)`` gives ``(kind, ranks)`` with
    kind "play", "kicker", "pass" or "other"; ``leading(view)`` is true when the move
    made from ``view`` leads a new round."""
    plays: list[dict | None] = [None] * n
    for obs, actor, before in history:
        kind, ranks = cards_of(int(obs))
        if kind == "play":
            if leading(before):
                plays = [None] * n
            plays[actor] = {"cards": list(ranks)}
        elif kind == "kicker" and plays[actor] is not None:
            plays[actor]["cards"] += ranks
        elif kind == "pass":
            plays[actor] = {"pass": True}
    return plays


def doudizhu_details(view: np.ndarray, seat: int,
                     history: list[tuple[int, int, np.ndarray]]) -> dict:
    """Dou Di Zhu as seat ``seat`` knows it (Whitehouse 2014, §4.2.1): its own hand, the
    hand sizes, the landlord and the kitty once shown, each seat's move in the round in
    play, the move to beat and the kickers still due; every move is public."""
    from spyglass.games.doudizhu import kernel as K
    from spyglass.games.doudizhu import tables as T

    v = [int(x) for x in view]

    def cards_of(obs: int) -> tuple[str, list[int]]:
        a = (obs - 1) % T.N_ACTIONS
        c = int(T.A_CAT[a])
        if a == T.PASS:
            return "pass", []
        if c == T.BID_CAT:
            return "other", []
        return ("kicker" if c in (T.KICK_SOLO, T.KICK_PAIR) else "play"), T.action_cards(a)

    counts = v[K.V_HAND:K.V_HAND + T.N_RANKS]
    lord, phase = v[K.LANDLORD], {K.BIDDING: "bid", K.PLAYING: "play"}.get(v[K.PHASE], "over")
    last = v[K.LAST_ACTION]
    return {
        "kind": "doudizhu", "names": list(T.RANK_CHARS), "n": 3, "phase": phase,
        "hand": _ranks(counts), "sizes": v[K.V_SIZE:K.V_SIZE + 3],
        "landlord": lord if lord >= 0 and phase != "bid" else None,
        "kitty": _ranks(v[K.V_KITTY:K.V_KITTY + T.N_RANKS]) if phase != "bid" else [],
        "bid": v[K.BID], "faceup": None if v[K.FACEUP] < 0 else v[K.FACEUP],
        "to_move": v[K.TO_MOVE], "winner": None if v[K.WINNER] < 0 else v[K.WINNER],
        "plays": _climb_round(history, 3, cards_of, lambda b: int(b[K.LAST_ACTION]) < 0),
        "to_beat": None if last < 0 or phase != "play" else {
            "by": v[K.LAST_PLAYER], "what": T.CAT_NAMES[int(T.A_CAT[last])]},
        "kickers_due": v[K.K_LEFT],
    }


def _doudizhu_move(action: int) -> dict:
    """A Dou Di Zhu action's cards and the kickers it waits for (none for pass/bids)."""
    from spyglass.games.doudizhu import tables as T

    c = int(T.A_CAT[action])
    if action == T.PASS or c == T.BID_CAT:
        return {}
    return {"cards": T.action_cards(action), "kicker": c in (T.KICK_SOLO, T.KICK_PAIR),
            "kickers": int(T.A_NK[action]),
            "kicker_kind": None if not int(T.A_NK[action]) else
            "solo" if int(T.A_KKIND[action]) == T.K_SOLO else "pair"}


def minidoudizhu_details(view: np.ndarray, seat: int,
                         history: list[tuple[int, int, np.ndarray]]) -> dict:
    """Mini Dou Di Zhu as seat ``seat`` knows it (Whitehouse 2014, §4.2.2): its own hand,
    the opponent's hand size, each seat's move in the round in play."""
    from spyglass.games.minidoudizhu import kernel as K
    from spyglass.games.minidoudizhu.game import RANK_NAMES

    v = [int(x) for x in view]

    def cards_of(obs: int) -> tuple[str, list[int]]:
        a = obs - 1
        if a == K.PASS:
            return "pass", []
        size, rank = divmod(a, K.N_RANKS)
        return "play", [rank] * (size + 1)

    sizes = [0, 0]
    sizes[seat] = sum(v[K.V_HAND:K.V_HAND + K.N_RANKS])
    sizes[1 - seat] = v[K.V_OPP_SIZE]
    last_size = v[K.V_LAST_SIZE]
    return {
        "kind": "minidoudizhu", "names": list(RANK_NAMES), "n": 2, "phase": "play"
        if v[K.V_TO_MOVE] >= 0 else "over", "hand": _ranks(v[K.V_HAND:K.V_HAND + K.N_RANKS]),
        "sizes": sizes, "landlord": None, "kitty": [], "to_move": v[K.V_TO_MOVE],
        "winner": None if v[K.V_WINNER] < 0 else v[K.V_WINNER],
        "plays": _climb_round(history, 2, cards_of, lambda b: int(b[K.V_LAST_SIZE]) == 0),
        "to_beat": None if last_size == 0 else {
            "by": 1 - v[K.V_TO_MOVE] if v[K.V_TO_MOVE] >= 0 else None,
            "what": f"{last_size} of a kind"},
        "kickers_due": 0,
    }


def _minidoudizhu_move(action: int) -> dict:
    from spyglass.games.minidoudizhu import kernel as K

    if action == K.PASS:
        return {}
    size, rank = divmod(action, K.N_RANKS)
    return {"cards": [rank] * (size + 1), "kicker": False, "kickers": 0}


def saboteur_details(view: np.ndarray, seat: int,
                     history: list[tuple[int, int, np.ndarray]]) -> dict:
    """Saboteur (one round) as seat ``seat`` knows it (Whitehouse 2014, §4.2.13): the
    grid (cells ``row * cols + col``: ``{"edges", "dead"}`` for a tunnel card, "start", or
    a goal face down unless turned up, with what this seat saw of it), its own role and
    hand, every seat's broken tools, hand size and the goals it looked at, the stock."""
    from spyglass.games.saboteur import game as G
    from spyglass.games.saboteur import kernel as K

    v = [int(x) for x in view]
    n = v[K.V_NP]
    goal_at = {int(c): g for g, c in enumerate(K.GOAL_CELLS)}
    cells: list[dict | None] = []
    for c in range(K.CELLS):
        x = v[K.V_CELL + c]
        if x == K.START:
            cells.append({"kind": "start", "edges": 15})
        elif x >= K.GOAL0 or c in goal_at:
            g = goal_at[c]
            rev, known = v[K.V_GOAL_REV + g], v[K.V_GOAL_KNOWN + g]
            card = known if known >= 0 else None
            edges = None
            if rev and card is not None:
                edges = int(K.GOAL_EDGES[card])
                edges = ((edges << 2) | (edges >> 2)) & 15 if rev == 2 else edges
            cells.append({"kind": "goal", "goal": g, "up": bool(rev), "card": card,
                          "name": None if card is None else G.GOAL_NAMES[card],
                          "edges": edges})
        elif x > K.EMPTY:
            t, rot = divmod(x - 1, 2)
            cells.append({"kind": "tunnel", "edges": G.placed_edges(t, rot),
                          "dead": t >= K.N_PASSAGE, "cut": t < K.N_PASSAGE
                          and not v[K.V_REACH + c]})
        else:
            cells.append(None)
    hand = [t for t in range(K.N_TYPES) for _ in range(v[K.V_HAND + t])]
    to_move = v[K.V_TO_MOVE]
    return {
        "kind": "saboteur", "n": n, "rows": K.ROWS, "cols": K.COLS, "cells": cells,
        "role": G.ROLE_NAMES[v[K.V_ROLE]], "tools": list(K.TOOL_NAMES),
        "hand": [{"card": t, "name": G.card_text(t),
                  "edges": int(K.TUNNEL_EDGES[t]) if t < K.N_TUNNEL else None,
                  "dead": K.N_PASSAGE <= t < K.N_TUNNEL} for t in hand],
        "seats": [{"cards": v[K.V_HAND_N + q],
                   "broken": [K.TOOL_NAMES[k] for k in range(3) if v[K.V_BROKEN + q] >> k & 1],
                   "looked": [G.goal_text(g) for g in range(3) if v[K.V_PEEKED + q] >> g & 1],
                   "discarded": v[K.V_DISC_N + q]} for q in range(n)],
        "stock": v[K.V_STOCK_N], "to_move": to_move if to_move >= 0 else None,
        "winner": None if to_move >= 0 else ("gold-diggers" if v[K.V_RESULT] == K.DIGGERS_WIN
                                             else "saboteurs"),
    }


def _saboteur_move(action: int) -> dict:
    """A Saboteur action id as the card it plays and where: ``cell`` (a tunnel card with
    its ``rot`` and ``edges`` as placed, a rockfall, a map's goal) or ``target`` (a seat);
    ``discard`` for a discard."""
    from spyglass.games.saboteur import game as G
    from spyglass.games.saboteur import kernel as K

    a = action
    if a < K.PLACE_N:
        tr, c = divmod(a, K.CELLS)
        t, rot = divmod(tr, 2)
        return {"card": t, "rot": rot, "cell": c, "edges": G.placed_edges(t, rot)}
    if a < K.REPAIR2:
        kind, rest = (K.BREAK_PICK, a - K.BREAK) if a < K.REPAIR else (K.REPAIR_PICK, a - K.REPAIR)
        tool, q = divmod(rest, K.MAX_PLAYERS)
        return {"card": kind + tool, "target": q, "tool": K.TOOL_NAMES[tool]}
    if a < K.ROCKFALL:
        kw, q = divmod(a - K.REPAIR2, K.MAX_PLAYERS)
        k, w = divmod(kw, 2)
        return {"card": K.REPAIR_PL + k, "target": q,
                "tool": K.TOOL_NAMES[int(K.DOUBLE_TOOLS[k, w])]}
    if a < K.MAP:
        return {"card": K.ROCKFALL_CARD, "cell": a - K.ROCKFALL}
    if a < K.DISCARD:
        return {"card": K.MAP_CARD, "cell": int(K.GOAL_CELLS[a - K.MAP])}
    return {"card": a - K.DISCARD, "discard": True}


def lotrc_details(view: np.ndarray, seat: int,
                  history: list[tuple[int, int, np.ndarray]]) -> dict:
    """LOTR: The Confrontation as seat ``seat`` knows it (Whitehouse 2014, §4.2.5; the
    thesis's interface, §6.3.2, marked what each side had found out): the 16 regions
    (``r = 4a + b``, row ``a + b`` of the diamond from the Shire to Mordor), its own
    characters by name and whether the opponent knows where each is, the opponent's
    pieces per region with the ones this seat has identified (their whereabouts are
    public knowledge, kept in the view), both hands, the combat in play, the setup."""
    from spyglass.games.lotrc import game as G
    from spyglass.games.lotrc import kernel as K

    v = [int(x) for x in view]
    opp = 1 - seat
    mask = v[K.V_MASK:K.V_MASK + 18]
    own = [{"i": i, "name": G.char_name(9 * seat + i), "region": v[K.V_OWN + i],
            "strength": int(K.STRENGTH[9 * seat + i]),
            "known": v[K.V_OWN + i] >= 0 and mask[9 * seat + i] == 1 << v[K.V_OWN + i]}
           for i in range(9)]
    known = {c: mask[c].bit_length() - 1 for c in range(9 * opp, 9 * opp + 9)
             if mask[c] and mask[c] & (mask[c] - 1) == 0}
    regions = [{"r": r, "name": K.REGION_NAMES[r], "row": (r >> 2) + (r & 3),
                "col": (r & 3) - (r >> 2), "theirs": v[K.V_OCOUNT + r],
                "known": [G.char_name(c) for c, at in known.items() if at == r]}
               for r in range(16)]
    phase = v[K.V_PHASE]
    combat = None
    if v[K.V_C] >= 0 and phase != K.P_SETUP:
        att, dfd = v[K.V_C + 1], v[K.V_C + 2]
        shown, mine = v[K.V_PICK + opp], v[K.V_PICK + seat]
        combat = {"region": K.REGION_NAMES[v[K.V_C]], "attacker": G.char_name(att),
                  "defender": G.char_name(dfd),
                  "my_card": None if mine < 0 else G.card_name(seat, mine),
                  "their_card": None if shown < 0 else G.card_name(opp, shown),
                  "their_chosen": shown != -1}
    result = v[K.V_RESULT]
    return {
        "kind": "lotrc", "side": G.SIDE_NAMES[seat], "other": G.SIDE_NAMES[opp],
        "regions": regions, "own": own,
        "defeated": [G.char_name(c) for c in range(18) if mask[c] == 0],
        "hand": [G.card_name(seat, k) for k in range(9) if v[K.V_HAND + seat] >> k & 1],
        "their_hand": [G.card_name(opp, k) for k in range(9) if v[K.V_HAND + opp] >> k & 1],
        "combat": combat, "to_move": v[K.V_ACTOR] if result < 0 else None,
        "turn": v[K.V_PLIES] + 1, "max_turns": v[K.V_MAX_TURNS], "shire_win": v[K.V_SHIRE_WIN],
        "placing": K.REGION_NAMES[int(K.FRONT[v[K.V_PLACED]])] if phase == K.P_SETUP else None,
        "winner": None if result < 0 else "draw" if result == K.DRAW else G.SIDE_NAMES[result],
    }


def _lotrc_move(action: int) -> dict:
    """A LOTR:C action id: a character (``from``: its index among the mover's nine) to a
    region ``to``; a combat card (``card``: its index among the side's nine); a retreat
    to region ``retreat``; else {}."""
    from spyglass.games.lotrc import kernel as K

    if action < K.N_MOVES:
        return {"from": action // 16, "to": action % 16}
    if action < K.RETREAT0:
        return {"card": action - K.CARD0}
    if action < K.STAY:
        return {"retreat": action - K.RETREAT0}
    return {}


_SY_MAP: dict | None = None


def scotlandyard_details(view: np.ndarray, seat: int,
                         history: list[tuple[int, int, np.ndarray]]) -> dict:
    """Scotland Yard as seat ``seat`` knows it (Whitehouse 2014, §4.2.12): the map (each
    station's place on the printed board and the edges by type), the detectives' stations
    and tickets, Mr X's tickets and travel log (a ticket per move, his station after a
    surfacing move), the stations he may be on (public: the seekers' constraint set), and
    his station only in his own view."""
    global _SY_MAP
    from spyglass.games.scotlandyard import board as B
    from spyglass.games.scotlandyard import kernel as K
    from spyglass.games.scotlandyard.game import PIECES

    if _SY_MAP is None:
        _SY_MAP = {"xy": B.station_positions(), "edges": [list(e) for e in B.EDGES],
                   "edge_names": list(B.EDGE_NAMES)}
    v = [int(x) for x in view]
    nd, turn, result = v[K.N_DET], v[K.TURN], v[K.RESULT]
    log = []
    for m in range(1, v[K.MOVES] + 1):
        code = int(K.log_entry(view, m))
        shown = None
        if K.surfaces_after(view, m):
            shown = v[K.SEEN + bin(v[K.SURFACE] & ((1 << m) - 1)).count("1")] or None
        log.append({"move": m, "ticket": K.TICKET_NAMES[(code & 7) - 1],
                    "double": bool(code & 8), "seen": shown})
    surfacing = [m for m in range(1, v[K.ROUNDS] + 1) if K.surfaces_after(view, m)]
    two = v[K.N_SEATS] == 2
    return {
        "kind": "scotlandyard", "map": _SY_MAP, "mrx": seat == 0,
        "you": "Mr X" if seat == 0 else "the seekers" if two else f"detective {PIECES[seat]}",
        "mrx_at": v[K.MRX_POS] if seat == 0 else None,
        "mrx_tickets": dict(zip(("taxi", "bus", "underground", "black", "double"),
                                v[K.MRX_TK:K.MRX_TK + 5], strict=True)),
        "detectives": [{"d": d, "colour": PIECES[d], "at": v[K.DET_POS + d - 1],
                        "tickets": dict(zip(("taxi", "bus", "underground"),
                                            v[K.DET_TK + 3 * (d - 1):K.DET_TK + 3 * d],
                                            strict=True))} for d in range(1, nd + 1)],
        "log": log, "rounds": v[K.ROUNDS], "surfacing": surfacing,
        "last_seen": v[K.LAST_SEEN] or None,
        "possible": B.mask_stations(view[K.POSS:K.POSS + K.WORDS]),
        "to_move": None if result != K.PLAYING else turn,
        "piece": None if result != K.PLAYING else ("Mr X" if turn == 0 else PIECES[turn]),
        "from": None if result != K.PLAYING or (turn == 0 and seat != 0)
        else (v[K.MRX_POS] if turn == 0 else v[K.DET_POS + turn - 1]),
        "double": v[K.DBL],
        "winner": None if result == K.PLAYING else ("Mr X" if result == K.MRX_WON
                                                     else "the detectives"),
    }


def _scotlandyard_move(action: int) -> dict:
    """A Scotland Yard move id as the station it goes ``to`` and its ``ticket``."""
    from spyglass.games.scotlandyard import kernel as K

    if action >= K.N_MOVE_IDS:
        return {}
    t, st = divmod(action, K.N_STATIONS)
    return {"to": st + 1, "ticket": K.TICKET_NAMES[t]}


# One structured view per game that has a page of its own (static/views/<game>.js
# draws it); every other game gets the generic text view.
DETAILS = {"resistance": resistance_details, "cheat": cheat_details,
           "hearts": hearts_details, "spades": spades_details, "phantom": phantom_details,
           "othello": othello_details, "checkers": checkers_details,
           "backgammon": backgammon_details, "doudizhu": doudizhu_details,
           "minidoudizhu": minidoudizhu_details, "saboteur": saboteur_details,
           "lotrc": lotrc_details, "scotlandyard": scotlandyard_details}
# What a legal move is, for the drawn views that choose moves on the board (from and to
# squares, the cards put down); added to each legal move the seat is sent.
MOVES = {"checkers": _checkers_move, "backgammon": _backgammon_move,
         "doudizhu": _doudizhu_move, "minidoudizhu": _minidoudizhu_move,
         "saboteur": _saboteur_move, "lotrc": _lotrc_move,
         "scotlandyard": _scotlandyard_move}


def game_details(game: Game, view: np.ndarray, seat: int,
                 history: list[tuple[int, int, np.ndarray]]) -> dict | None:
    """The structured view of ``game`` for its own page, or None (generic page only)."""
    build = DETAILS.get(game.name)
    return None if build is None else build(view, seat, history)


def move_details(game: Game, action: int) -> dict:
    """What legal move ``action`` is, for ``game``'s drawn view ({} if it needs nothing)."""
    build = MOVES.get(game.name)
    return {} if build is None else build(int(action))


def replay_steps(record: dict) -> dict[str, Any]:
    """Every move of a finished game with everything revealed, for the replay page.

    Each step has the actor, the move in words (as its actor chose it), the full state in
    words after it, and for The Resistance the public track as seat 0 would see it plus
    the true roles. Beliefs recorded by search bots (``extra[seat]["belief"]``) are
    turned into the probability each bot gave the *true* spy configuration, over time.
    """
    from spyglass.arena.history import game_of

    game = game_of(record)
    state0 = np.array(game.new_state(record.get("deal") or record["seed"]), dtype=np.int64)
    roles = list(game.roles(state0))
    steps = [{"move": 0, "actor": None, "text": "the deal",
              "state_text": game.state_text(state0)}]
    prev = state0.copy()
    history: list[tuple[int, int, np.ndarray]] = []
    for rep, seat, action in iter_replay(record, game):
        before_view = game.view(prev, 0)
        obs = int(game.kernel.observe(prev, action, 0))
        history.append((obs, seat, before_view))
        step = {"move": len(steps), "actor": seat,
                "text": f"{record['agents'][seat]} (seat {seat}): "
                        f"{game.action_text(action, game.view(prev, seat))}",
                "state_text": game.state_text(rep.state)}
        if game.name == "resistance":
            step["details"] = resistance_details(game.view(rep.state, 0), 0, history)
        steps.append(step)
        prev = rep.state.copy()
    return {"game": game.name, "title": game.title, "agents": record["agents"],
            "roles": roles, "rewards": record.get("rewards"), "steps": steps,
            "chat": list((record.get("web") or {}).get("chat") or []),
            "beliefs": beliefs(record, game, state0)}


def beliefs(record: dict, game: Game, state0: np.ndarray) -> list[dict]:
    """Per search bot that recorded beliefs: P(true spy configuration) after each event,
    and its suspicion (spy marginal) of every seat (Cowling, Whitehouse & Powley 2015,
    Figs 4-6 plot the first)."""
    out = []
    if game.name != "resistance":
        return out
    from spyglass.games.resistance import kernel as K

    true_mask = int(state0[K.SPIES])
    for seat, extra in sorted((record.get("extra") or {}).items()):
        if not isinstance(extra, dict) or not isinstance(extra.get("belief"), list):
            continue
        configs = [int(c) for c in extra.get("configs", [])]
        try:
            true_index = configs.index(true_mask)
        except ValueError:
            continue
        truth, suspicion = [], []
        for entry in extra["belief"]:
            phi = entry.get("phi") or []
            truth.append(float(phi[true_index]) if true_index < len(phi) else None)
            suspicion.append(entry.get("marginals"))
        out.append({"seat": int(seat), "agent": record["agents"][int(seat)],
                    "truth": truth, "suspicion": suspicion,
                    "events": [e.get("type") for e in extra["belief"]]})
    return out
