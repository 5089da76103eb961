"""The rules of Lord of the Rings: The Confrontation, once, as numba-compiled kernels.

Whitehouse 2014, §4.2.5-4.2.6, with the published board game (Knizia 2002, classic game)
where the thesis leaves a rule open; every such choice is listed in ``docs/lotrc.md``.

Board. The 4x4 diamond from the Shire (Light's home) to Mordor (Dark's home). Region
``r = 4*a + b`` with ``a, b`` in 0..3; the Shire is ``(0, 0)``, Mordor ``(3, 3)``. Light
moves *forward* to ``(a+1, b)`` or ``(a, b+1)``, Dark to ``(a-1, b)`` or ``(a, b-1)``;
*backward* is the other way; *sideways* is ``(a+1, b-1)`` / ``(a-1, b+1)`` (the same row of
the diamond, row = ``a + b``). Row 3 is the mountains: one character of a side per region
and no sideways moves between them; the Shire and Mordor hold four of a side, every
other region two. Light alone may take the Tunnel of Moria (Eregion -> Fangorn) and
follow the Anduin downstream (Mirkwood -> Fangorn -> Rohan).

Seats: 0 is Dark (moves first, §4.2.6), 1 is Light. Characters ``c`` 0..8 are Dark's
(:data:`DARK_NAMES`), 9..17 Light's (:data:`LIGHT_NAMES`).

Chance is part of the state (``CHANCE``, a hidden xorshift state that picks each combat's
defender, §4.2.6 step 2) and is re-drawn by :func:`sample`.

Perfect recall (§4.2.6): ``MASK + c`` is the set of regions where character ``c``'s
opponent knows ``c`` may stand. It grows when a piece of ``c``'s side moves out of a
region ``c`` may be in, shrinks to the regions the side still occupies, and collapses to
one region when ``c`` is revealed in combat (0 once ``c`` is defeated). Both sides'
masks are public (each player knows what the other has seen), so they are in both
views; :func:`sample` places the hidden pieces by an exact randomised search that keeps
every piece inside its mask and every region at its public piece count.

Observation keys: a 62-bit hash of the observer's view after the move, shifted left by 8
bits, plus ``a + 1`` in the low byte for the actor (so the actor's own action can be read
back, and its keys differ across actions); ``view`` records the last movement (public)
and the last combat (public once resolved), from which the words are made.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.rng import next_u64, rand_below
from spyglass.search.protocol import Kernel

DARK, LIGHT = 0, 1
DARK_NAMES = ("Orcs", "Shelob", "Saruman", "Flying Nazgul", "Balrog", "Witch King",
              "Black Rider", "Warg", "Cave Troll")
LIGHT_NAMES = ("Frodo", "Sam", "Pippin", "Merry", "Gandalf", "Aragorn", "Legolas",
               "Gimli", "Boromir")
# Dark characters (global ids).
ORCS, SHELOB, SARUMAN, NAZGUL, BALROG, WITCH_KING, BLACK_RIDER, WARG, CAVE_TROLL = range(9)
# Light characters (global ids).
FRODO, SAM, PIPPIN, MERRY, GANDALF, ARAGORN, LEGOLAS, GIMLI, BOROMIR = range(9, 18)
STRENGTH = np.array([2, 5, 4, 3, 5, 5, 3, 2, 9, 1, 2, 1, 2, 5, 4, 3, 3, 0], dtype=np.int64)

REGION_NAMES = ("Shire", "Arthedain", "Rhudaur", "High Pass", "Cardolan", "Eregion",
                "Misty Mountains", "Mirkwood", "Enedwaith", "Moria", "Fangorn", "Dagorlad",
                "Gap of Rohan", "Rohan", "Gondor", "Mordor")
SHIRE, EREGION, MIRKWOOD, MORIA, FANGORN, ROHAN, GONDOR, MORDOR = 0, 5, 7, 9, 10, 13, 14, 15
LIGHT_START = (1, 4, 2, 5, 8)  # Arthedain, Cardolan, Rhudaur, Eregion, Enedwaith
DARK_START = (14, 11, 13, 10, 7)  # Gondor, Dagorlad, Rohan, Fangorn, Mirkwood
FRONT = np.array(DARK_START + LIGHT_START, dtype=np.int64)  # the placement order

# Combat cards, by side (an index into the side's nine; HAND holds a 9-bit mask).
DARK_CARDS = ("1", "2", "3", "4", "5", "6", "Magic", "Eye of Sauron", "Retreat")
LIGHT_CARDS = ("1", "2", "3", "4", "5", "Magic", "Noble Sacrifice", "Retreat",
               "Elven Cloak")
D_MAGIC, D_EYE, D_RETREAT = 6, 7, 8
L_MAGIC, L_NOBLE, L_RETREAT, L_CLOAK = 5, 6, 7, 8
ALL_CARDS = 0x1FF

# Action ids.
N_MOVES = 9 * 16  # local character * 16 + destination region
CARD0 = N_MOVES  # + card index
RETREAT0 = CARD0 + 9  # + region
STAY = RETREAT0 + 16  # fight on (decline an ability)
SWAP = STAY + 1  # Sam takes Frodo's place
NOCARDS = SWAP + 1  # Saruman: no cards are played
N_ACTIONS = NOCARDS + 1

# Phases.
P_MOVE, P_LDEC, P_DDEC, P_CARD1, P_CARD2, P_OVER, P_RDEC, P_SETUP = range(8)
DRAW = 2

# State layout.
LOC = 0  # + c: region, -1 defeated
MASK = 18  # + c: regions c's opponent knows c may be in (0: defeated)
HAND = 36  # + side: cards in hand
PICK = 38  # + side: card chosen in this combat, -1 none
PHASE, ACTOR, TURN, PLIES, RESULT = 40, 41, 42, 43, 44
C_REG, C_ATT, C_DEF, C_FROM, C_FIRST, C_NOCARDS, C_SEEN = 45, 46, 47, 48, 49, 50, 51
E_FROM, E_TO = 52, 53  # the last movement (public)
LC_ATT, LC_DEF, LC_DC, LC_LC, LC_OUT = 54, 55, 56, 57, 58  # the last combat resolved
SHIRE_WIN, MAX_TURNS, CHANCE = 59, 60, 61
LAST = 62  # the last action's public kind: LAST_MOVE, LAST_CARD, or the decision's id
PLACED = 63  # placement phase: regions filled so far (Dark's five, then Light's five)
STATE_SIZE = 64
LAST_MOVE, LAST_CARD = 0, 1

# LC_OUT flags.
OUT_ATT_DEAD, OUT_DEF_DEAD, OUT_RETREAT, OUT_NOCARDS, OUT_TEXT = 1, 2, 4, 8, 16
OUT_SHELOB, OUT_TUNNEL, OUT_SWAP = 32, 64, 128

# View layout.
V_SEAT, V_PHASE, V_ACTOR, V_TURN, V_PLIES, V_RESULT, V_SHIRE_WIN, V_MAX_TURNS = range(8)
V_HAND = 8  # + side
V_PICK = 10  # + side: own pick; the opponent's only when shown (Gandalf), else -2 if made
V_C = 12  # C_REG .. C_SEEN (7)
V_E = 19  # E_FROM, E_TO
V_LC = 21  # LC_ATT .. LC_OUT (5)
V_OWN = 26  # + local: own characters' regions
V_OCOUNT = 35  # + region: the opponent's pieces there
V_MASK = 51  # + c: every character's mask
V_LAST = 69
V_PLACED = 70
VIEW_SIZE = 71
PICK_HIDDEN = -2

_M62 = (1 << 62) - 1


@njit(cache=True, inline="always")
def _mix(h):
    """A bijection of 62-bit values (xorshift with masks: no overflow when uncompiled)."""
    h ^= (h << 13) & _M62
    h ^= h >> 7
    h ^= (h << 17) & _M62
    return h


@njit(cache=True, inline="always")
def _side(c):
    return DARK if c < 9 else LIGHT


@njit(cache=True, inline="always")
def _cap(r):
    row = (r >> 2) + (r & 3)
    if row == 0 or row == 6:
        return 4
    if row == 3:
        return 1
    return 2


@njit(cache=True, inline="always")
def _count(s, side, r):
    n = 0
    for c in range(9 * side, 9 * side + 9):
        if s[LOC + c] == r:
            n += 1
    return n


@njit(cache=True)
def _counts(s, cnt):
    cnt[:] = 0
    for c in range(18):
        r = s[LOC + c]
        if r >= 0:
            cnt[16 * _side(c) + r] += 1


@njit(cache=True, inline="always")
def _at(a, b):
    if a < 0 or a > 3 or b < 0 or b > 3:
        return -1
    return 4 * a + b


@njit(cache=True)
def _neighbour(r, side, k):
    """Region ``r``'s k-th neighbour for ``side``: k = 0, 1 forward, 2, 3 backward,
    4, 5 sideways (-1 if off the board or a sideways step between mountains)."""
    a, b = r >> 2, r & 3
    d = 1 if side == LIGHT else -1
    if k == 0:
        return _at(a + d, b)
    if k == 1:
        return _at(a, b + d)
    if k == 2:
        return _at(a - d, b)
    if k == 3:
        return _at(a, b - d)
    if a + b == 3:  # never sideways in the mountains
        return -1
    if k == 4:
        return _at(a + 1, b - 1)
    return _at(a - 1, b + 1)


@njit(cache=True)
def _targets(s, c, cnt):
    """The bitmask of regions character ``c`` may move to now."""
    side = _side(c)
    opp = 1 - side
    r = s[LOC + c]
    own = 16 * side
    foe = 16 * opp
    dests = 0
    for k in range(2):
        d = _neighbour(r, side, k)
        if d >= 0 and cnt[own + d] < _cap(d):
            dests |= 1 << d
    if side == LIGHT:
        if r == EREGION and cnt[own + FANGORN] < _cap(FANGORN):
            dests |= 1 << FANGORN
        if r == MIRKWOOD and cnt[own + FANGORN] < _cap(FANGORN):
            dests |= 1 << FANGORN
        if r == FANGORN and cnt[own + ROHAN] < _cap(ROHAN):
            dests |= 1 << ROHAN
        if c == ARAGORN:  # may attack any adjacent region
            for k in range(2, 6):
                d = _neighbour(r, side, k)
                if d >= 0 and cnt[foe + d] > 0 and cnt[own + d] < _cap(d):
                    dests |= 1 << d
    else:
        if c == WITCH_KING:  # may attack sideways
            for k in range(4, 6):
                d = _neighbour(r, side, k)
                if d >= 0 and cnt[foe + d] > 0 and cnt[own + d] < _cap(d):
                    dests |= 1 << d
        elif c == NAZGUL:  # may attack a lone Light character anywhere
            for d in range(16):
                if d != r and cnt[foe + d] == 1 and cnt[own + d] < _cap(d):
                    dests |= 1 << d
        elif c == BLACK_RIDER:  # may move forward any number of regions to attack
            front = 1 << r
            for _ in range(6):
                nxt = 0
                for x in range(16):
                    if (front >> x) & 1:
                        for k in range(2):
                            d = _neighbour(x, side, k)
                            if d >= 0 and cnt[own + d] < _cap(d):
                                if cnt[foe + d] > 0:
                                    dests |= 1 << d
                                else:
                                    nxt |= 1 << d
                front = nxt
                if front == 0:
                    break
    return dests


@njit(cache=True)
def _retreats(s, c, cnt, backward):
    """Regions ``c`` may retreat to: backward (or sideways), empty of enemies, not full."""
    side = _side(c)
    out = 0
    r = s[LOC + c]
    k0 = 2 if backward else 4
    for k in range(k0, k0 + 2):
        d = _neighbour(r, side, k)
        if d >= 0 and cnt[16 * (1 - side) + d] == 0 and cnt[16 * side + d] < _cap(d):
            out |= 1 << d
    return out


@njit(cache=True)
def _light_dark(s):
    """The Light and the Dark character of the combat in progress."""
    a, d = s[C_ATT], s[C_DEF]
    if a >= 9:
        return a, d
    return d, a


# --- legal actions ----------------------------------------------------------------------


@njit(cache=True)
def legal_actions(s, out):
    ph = s[PHASE]
    n = 0
    if ph == P_MOVE:
        cnt = np.zeros(32, np.int64)
        _counts(s, cnt)
        side = s[TURN]
        for loc in range(9):
            c = 9 * side + loc
            if s[LOC + c] < 0:
                continue
            dests = _targets(s, c, cnt)
            for d in range(16):
                if (dests >> d) & 1:
                    out[n] = 16 * loc + d
                    n += 1
    elif ph == P_CARD1 or ph == P_CARD2:
        hand = s[HAND + s[ACTOR]]
        for k in range(9):
            if (hand >> k) & 1:
                out[n] = CARD0 + k
                n += 1
    elif ph == P_LDEC:
        cnt = np.zeros(32, np.int64)
        _counts(s, cnt)
        light, _ = _light_dark(s)
        opts = _retreats(s, light, cnt, light == PIPPIN)
        for d in range(16):
            if (opts >> d) & 1:
                out[n] = RETREAT0 + d
                n += 1
        out[n] = STAY
        n += 1
        if light == FRODO and s[LOC + SAM] == s[C_REG]:
            out[n] = SWAP
            n += 1
    elif ph == P_DDEC:
        out[0] = STAY
        out[1] = NOCARDS
        n = 2
    elif ph == P_SETUP:  # which character of those still at home fills the next region
        side = s[ACTOR]
        home = MORDOR if side == DARK else SHIRE
        r = FRONT[s[PLACED]]
        for loc in range(9):
            if s[LOC + 9 * side + loc] == home:
                out[n] = 16 * loc + r
                n += 1
    elif ph == P_RDEC:  # where the Retreat card takes the actor's character
        cnt = np.zeros(32, np.int64)
        _counts(s, cnt)
        light, dark = _light_dark(s)
        opts = _retreats(s, light if s[ACTOR] == LIGHT else dark, cnt, True)
        for d in range(16):
            if (opts >> d) & 1:
                out[n] = RETREAT0 + d
                n += 1
    return n


@njit(cache=True)
def n_legal(s):
    out = np.empty(N_ACTIONS, np.int64)
    return legal_actions(s, out)


@njit(cache=True)
def legal_action(s, i):
    out = np.empty(N_ACTIONS, np.int64)
    legal_actions(s, out)
    return out[i]


# --- the flow of a turn -------------------------------------------------------------------


@njit(cache=True)
def _refresh(s, side):
    """Drop from ``side``'s masks the regions it no longer occupies."""
    occ = 0
    for c in range(9 * side, 9 * side + 9):
        if s[LOC + c] >= 0:
            occ |= 1 << s[LOC + c]
    for c in range(9 * side, 9 * side + 9):
        s[MASK + c] &= occ


@njit(cache=True)
def _defeat(s, c):
    s[LOC + c] = -1
    s[MASK + c] = 0


@njit(cache=True)
def _finish(s, winner):
    s[RESULT] = winner
    s[PHASE] = P_OVER
    s[ACTOR] = -1


@njit(cache=True)
def _decided(s):
    """Set the result if Frodo or the whole of Dark has been defeated; True if over."""
    if s[LOC + FRODO] < 0:
        _finish(s, DARK)
        return True
    for c in range(9):
        if s[LOC + c] >= 0:
            return False
    _finish(s, LIGHT)
    return True


@njit(cache=True)
def _end_turn(s):
    s[C_REG] = -1
    s[C_ATT] = -1
    s[C_DEF] = -1
    s[C_FROM] = -1
    s[C_FIRST] = 0
    s[C_NOCARDS] = 0
    s[C_SEEN] = 0
    if _count(s, DARK, SHIRE) >= s[SHIRE_WIN]:
        _finish(s, DARK)
        return
    s[PLIES] += 1
    s[TURN] = 1 - s[TURN]
    if s[PLIES] >= s[MAX_TURNS]:
        _finish(s, DRAW)
        return
    s[PHASE] = P_MOVE
    s[ACTOR] = s[TURN]
    if not _can_move(s, s[TURN]):  # a player who cannot move loses
        _finish(s, 1 - s[TURN])


@njit(cache=True)
def _can_move(s, side):
    """Whether ``side`` has a move (stops at the first character that has one)."""
    cnt = np.zeros(32, np.int64)
    _counts(s, cnt)
    for c in range(9 * side, 9 * side + 9):
        if s[LOC + c] >= 0 and _targets(s, c, cnt) != 0:
            return True
    return False


# Steps of the flow inside one ``apply`` (a loop, not mutual recursion: numba).
ST_DONE, ST_COMBAT, ST_LIGHT, ST_DARK, ST_CARDS, ST_AFTER, ST_END = range(7)


@njit(cache=True)
def _draw_defender(s):
    """Chance: a uniformly random defender among the enemies in the combat region."""
    x = _mix(s[CHANCE])
    s[CHANCE] = x
    foe = 1 - _side(s[C_ATT])
    n = _count(s, foe, s[C_REG])
    k = (x >> 20) % n
    for c in range(9 * foe, 9 * foe + 9):
        if s[LOC + c] == s[C_REG]:
            if k == 0:
                return c
            k -= 1
    return -1


@njit(cache=True)
def _record(s, out, dc, lc):
    s[LC_ATT] = s[C_ATT]
    s[LC_DEF] = s[C_DEF]
    s[LC_DC] = dc
    s[LC_LC] = lc
    s[LC_OUT] = out
    return ST_AFTER


@njit(cache=True)
def _start_combat(s):
    """Step 2 of §4.2.6: the defender is drawn; both characters are revealed."""
    d = _draw_defender(s)
    s[C_DEF] = d
    s[C_NOCARDS] = 0
    s[C_SEEN] = 0
    s[MASK + s[C_ATT]] = 1 << s[C_REG]
    s[MASK + d] = 1 << s[C_REG]
    return ST_LIGHT


@njit(cache=True)
def _light_text(s):
    """Character texts, Light first: instant defeats, then Frodo's or Pippin's retreat."""
    light, dark = _light_dark(s)
    if dark == WARG:  # the Warg: the enemy character's text is ignored
        return ST_DARK
    if light == BOROMIR:
        _defeat(s, dark)
        _defeat(s, light)
        return _record(s, OUT_TEXT | OUT_ATT_DEAD | OUT_DEF_DEAD, -1, -1)
    if (light == MERRY and dark == WITCH_KING) or (light == LEGOLAS and dark == NAZGUL) \
            or (light == GIMLI and dark == ORCS):
        _defeat(s, dark)
        return _record(s, OUT_TEXT | (OUT_DEF_DEAD if dark == s[C_DEF] else OUT_ATT_DEAD),
                       -1, -1)
    frodo = light == FRODO and s[C_DEF] == FRODO
    if frodo or (light == PIPPIN and s[C_ATT] == PIPPIN):
        cnt = np.zeros(32, np.int64)
        _counts(s, cnt)
        if _retreats(s, light, cnt, not frodo) != 0 or (frodo and s[LOC + SAM] == s[C_REG]):
            s[PHASE] = P_LDEC  # a real choice (otherwise Light would only be asked to stay)
            s[ACTOR] = LIGHT
            return ST_DONE
    return ST_DARK


@njit(cache=True)
def _dark_text(s):
    """Character texts, Dark second: the Orcs' first blow, Saruman's choice."""
    light, dark = _light_dark(s)
    if dark == ORCS and s[C_ATT] == ORCS and s[C_FIRST] == 1:
        _defeat(s, light)
        return _record(s, OUT_TEXT | OUT_DEF_DEAD, -1, -1)
    if dark == SARUMAN:
        s[PHASE] = P_DDEC
        s[ACTOR] = DARK
        return ST_DONE
    return ST_CARDS


@njit(cache=True)
def _start_cards(s):
    if s[C_NOCARDS] == 1:
        return _resolve(s, -1, -1)
    for side in range(2):
        if s[HAND + side] == 0:  # all nine played: take them back
            s[HAND + side] = ALL_CARDS
    light, dark = _light_dark(s)
    s[C_SEEN] = 1 if (light == GANDALF and dark != WARG) else 0
    s[PHASE] = P_CARD1
    s[ACTOR] = DARK
    return ST_DONE


@njit(cache=True)
def _best_discard(hand, n_strength):
    """Magic: the highest strength card already played (0 if none)."""
    best = 0
    for k in range(n_strength):
        if not (hand >> k) & 1:
            best = k + 1
    return best


@njit(cache=True)
def _move_revealed(s, c, d):
    s[LOC + c] = d
    s[MASK + c] = 1 << d
    _refresh(s, _side(c))


@njit(cache=True)
def _retreat_card(s, c):
    """The Retreat card: ``c`` goes back to its one legal retreat region, or its player
    chooses between two (``P_RDEC``). ``ST_END`` (no effect) when it cannot retreat."""
    cnt = np.zeros(32, np.int64)
    _counts(s, cnt)
    opts = _retreats(s, c, cnt, True)
    if opts == 0:
        return ST_END
    if opts & (opts - 1):  # two choices
        s[PHASE] = P_RDEC
        s[ACTOR] = _side(c)
        return ST_DONE
    for d in range(16):
        if (opts >> d) & 1:
            _move_revealed(s, c, d)
    s[LC_OUT] |= OUT_RETREAT
    return ST_AFTER


@njit(cache=True)
def _resolve(s, dc, lc):
    """Steps 3-5: card texts (Dark's first), then strengths; -1 cards when none played."""
    light, dark = _light_dark(s)
    out = 0 if dc >= 0 else OUT_NOCARDS
    if dc >= 0:
        s[HAND + DARK] &= ~(1 << dc)
        s[HAND + LIGHT] &= ~(1 << lc)
    s[PICK + DARK] = -1
    s[PICK + LIGHT] = -1
    _record(s, out, dc, lc)  # the cards are public from here
    dark_card = dc >= 0 and dark != CAVE_TROLL  # Cave Troll: Dark's card is void
    dval = 0
    if dark_card:
        if dc < 6:
            dval = dc + 1
        elif dc == D_MAGIC:
            dval = _best_discard(s[HAND + DARK], 6)
        elif dc == D_RETREAT:
            step = _retreat_card(s, dark)
            if step != ST_END:
                return step
    lval = 0
    if lc >= 0:
        if lc < 5:
            lval = lc + 1
        elif not (dark_card and dc == D_EYE):  # the Eye cancels Light's text card
            if lc == L_MAGIC:
                lval = _best_discard(s[HAND + LIGHT], 5)
            elif lc == L_RETREAT:
                step = _retreat_card(s, light)
                if step != ST_END:
                    return step
            elif lc == L_NOBLE:
                _defeat(s, light)
                _defeat(s, dark)
                return _record(s, out | OUT_ATT_DEAD | OUT_DEF_DEAD, dc, lc)
            elif lc == L_CLOAK:
                dval = 0
    ls = STRENGTH[light]
    if light == SAM and dark != WARG and s[LOC + FRODO] == s[C_REG]:
        ls = 5
    lt = ls + lval
    dt = STRENGTH[dark] + dval
    if lt <= dt:
        _defeat(s, light)
        out |= OUT_ATT_DEAD if light == s[C_ATT] else OUT_DEF_DEAD
    if dt <= lt:
        _defeat(s, dark)
        out |= OUT_ATT_DEAD if dark == s[C_ATT] else OUT_DEF_DEAD
    if dark == SHELOB and dt > lt:  # back to Gondor after defeating an enemy
        if s[LOC + SHELOB] != GONDOR and _count(s, LIGHT, GONDOR) == 0 \
                and _count(s, DARK, GONDOR) < _cap(GONDOR):
            _move_revealed(s, SHELOB, GONDOR)
            out |= OUT_SHELOB
    return _record(s, out, dc, lc)


@njit(cache=True)
def _after_combat(s):
    for side in range(2):
        _refresh(s, side)
    if _decided(s):
        return ST_DONE
    att = s[C_ATT]
    if s[LOC + att] == s[C_REG] and _count(s, 1 - _side(att), s[C_REG]) > 0:
        s[C_FIRST] = 0
        return ST_COMBAT  # the attacker fights on against the next defender
    return ST_END


@njit(cache=True)
def _move(s, c, d):
    side = _side(c)
    r = s[LOC + c]
    s[E_FROM] = r
    s[E_TO] = d
    s[LC_ATT] = -1
    s[LC_DEF] = -1
    s[LC_DC] = -1
    s[LC_LC] = -1
    s[LC_OUT] = 0
    # The opponent sees that a piece left r for d, not which.
    for x in range(9 * side, 9 * side + 9):
        if (s[MASK + x] >> r) & 1:
            s[MASK + x] |= 1 << d
    if side == LIGHT and r == EREGION and d == FANGORN:  # the Tunnel of Moria
        if s[LOC + BALROG] == MORIA:
            _defeat(s, c)
            s[MASK + BALROG] = 1 << MORIA
            s[LC_ATT] = c
            s[LC_DEF] = BALROG
            s[LC_OUT] = OUT_TUNNEL | OUT_ATT_DEAD
            _refresh(s, side)
            return ST_DONE if _decided(s) else ST_END
        s[MASK + BALROG] &= ~(1 << MORIA)  # Light learns the Balrog is not there
    s[LOC + c] = d
    _refresh(s, side)
    if c == FRODO and d == MORDOR:
        _finish(s, LIGHT)
        return ST_DONE
    if _count(s, 1 - side, d) > 0:
        s[C_REG] = d
        s[C_ATT] = c
        s[C_FROM] = r
        s[C_FIRST] = 1
        return ST_COMBAT
    return ST_END


@njit(cache=True)
def _place(s, c, d):
    """Placement: ``c`` leaves home for the next front region; the opponent sees a piece
    arrive there, as for a move."""
    side = _side(c)
    home = s[LOC + c]
    for x in range(9 * side, 9 * side + 9):
        if (s[MASK + x] >> home) & 1:
            s[MASK + x] |= 1 << d
    s[LOC + c] = d
    s[E_FROM] = home
    s[E_TO] = d
    s[PLACED] += 1
    if s[PLACED] == 10:  # both sides placed: Dark moves first
        s[PHASE] = P_MOVE
        s[TURN] = DARK
        s[ACTOR] = DARK
    elif s[PLACED] == 5:
        s[ACTOR] = LIGHT
        s[TURN] = LIGHT


@njit(cache=True)
def _drive(s, step):
    while step != ST_DONE:
        if step == ST_COMBAT:
            step = _start_combat(s)
        elif step == ST_LIGHT:
            step = _light_text(s)
        elif step == ST_DARK:
            step = _dark_text(s)
        elif step == ST_CARDS:
            step = _start_cards(s)
        elif step == ST_AFTER:
            step = _after_combat(s)
        else:
            _end_turn(s)
            step = ST_DONE


@njit(cache=True)
def apply(s, a):
    ph = s[PHASE]
    step = ST_DONE
    s[LAST] = LAST_MOVE if ph == P_MOVE or ph == P_SETUP else LAST_CARD if a < RETREAT0 else a
    if ph == P_SETUP:
        _place(s, 9 * s[ACTOR] + a // 16, a % 16)
    elif ph == P_MOVE:
        step = _move(s, 9 * s[TURN] + a // 16, a % 16)
    elif ph == P_CARD1:
        s[PICK + DARK] = a - CARD0
        s[PHASE] = P_CARD2
        s[ACTOR] = LIGHT
    elif ph == P_CARD2:
        s[PICK + LIGHT] = a - CARD0
        step = _resolve(s, s[PICK + DARK], s[PICK + LIGHT])
    elif ph == P_LDEC:
        light, _ = _light_dark(s)
        if a == STAY:
            step = ST_DARK
        elif a == SWAP:  # Sam takes Frodo's place (and is revealed)
            s[C_DEF] = SAM
            s[MASK + SAM] = 1 << s[C_REG]
            step = ST_DARK
        else:
            _move_revealed(s, light, a - RETREAT0)
            step = _record(s, OUT_RETREAT, -1, -1)
    elif ph == P_DDEC:
        if a == NOCARDS:
            s[C_NOCARDS] = 1
        step = ST_CARDS
    elif ph == P_RDEC:
        light, dark = _light_dark(s)
        _move_revealed(s, light if s[ACTOR] == LIGHT else dark, a - RETREAT0)
        s[LC_OUT] |= OUT_RETREAT
        step = ST_AFTER
    _drive(s, step)


# --- protocol -------------------------------------------------------------------------


@njit(cache=True)
def actor(s):
    return s[ACTOR]


@njit(cache=True)
def is_terminal(s):
    return s[PHASE] == P_OVER


@njit(cache=True)
def reward(s, j):
    r = s[RESULT]
    if r == DRAW:
        return 0.5
    if r < 0:
        return 0.0
    return 1.0 if r == j else 0.0


@njit(cache=True)
def move_reveals(s):
    """Moves (a combat's defender is drawn and revealed), the second card (the first is
    shown) and decisions (after them the next defender may be drawn) reveal hidden
    things."""
    ph = s[PHASE]
    return ph == P_MOVE or ph == P_CARD2 or ph == P_LDEC or ph == P_DDEC or ph == P_RDEC


@njit(cache=True)
def simultaneous(s):
    """The combat cards, chosen simultaneously unless Gandalf makes Dark show first."""
    return (s[PHASE] == P_CARD1 or s[PHASE] == P_CARD2) and s[C_SEEN] == 0


@njit(cache=True)
def playout(s, rng):
    out = np.empty(N_ACTIONS, np.int64)
    while s[PHASE] != P_OVER:
        n = legal_actions(s, out)
        apply(s, out[rand_below(rng, n)])


@njit(cache=True)
def view(s, j, v):
    v[:] = -1
    v[V_SEAT] = j
    v[V_PHASE] = s[PHASE]
    v[V_ACTOR] = s[ACTOR]
    v[V_TURN] = s[TURN]
    v[V_PLIES] = s[PLIES]
    v[V_RESULT] = s[RESULT]
    v[V_SHIRE_WIN] = s[SHIRE_WIN]
    v[V_MAX_TURNS] = s[MAX_TURNS]
    v[V_HAND] = s[HAND]
    v[V_HAND + 1] = s[HAND + 1]
    v[V_PICK + j] = s[PICK + j]
    o = 1 - j
    if s[PICK + o] >= 0:
        v[V_PICK + o] = s[PICK + o] if (o == DARK and s[C_SEEN] == 1) else PICK_HIDDEN
    for i in range(7):
        v[V_C + i] = s[C_REG + i]
    v[V_E] = s[E_FROM]
    v[V_E + 1] = s[E_TO]
    for i in range(5):
        v[V_LC + i] = s[LC_ATT + i]
    for i in range(9):
        v[V_OWN + i] = s[LOC + 9 * j + i]
    for r in range(16):
        v[V_OCOUNT + r] = 0
    for c in range(9 * o, 9 * o + 9):
        if s[LOC + c] >= 0:
            v[V_OCOUNT + s[LOC + c]] += 1
    for c in range(18):
        v[V_MASK + c] = s[MASK + c]
    v[V_LAST] = s[LAST]
    v[V_PLACED] = s[PLACED]


@njit(cache=True)
def _view_hash(v):
    """A 62-bit hash of a view: three fields per mixing round (every field + 3 lies in
    0 .. 2**20, so packing them is one-to-one)."""
    h = np.int64(0x2545F4914F6CDD1D) & _M62
    for i in range(0, VIEW_SIZE - 2, 3):
        h = _mix(h ^ ((v[i] + 3) | ((v[i + 1] + 3) << 20) | ((v[i + 2] + 3) << 40)))
    for i in range(VIEW_SIZE - VIEW_SIZE % 3, VIEW_SIZE):
        h = _mix(h ^ (v[i] + 3))
    return h


@njit(cache=True)
def info_key(s, j):
    v = np.empty(VIEW_SIZE, np.int64)
    view(s, j, v)
    return _view_hash(v)


@njit(cache=True)
def observe(s, a, j):
    t = s.copy()
    apply(t, a)
    v = np.empty(VIEW_SIZE, np.int64)
    view(t, j, v)
    h = (_view_hash(v) >> 8) | (np.int64(1) << 53)
    code = a + 1 if j == s[ACTOR] else 0
    return (h << 8) | code


@njit(cache=True)
def sample(v, j, rng, s):
    """A full state consistent with view ``v``: ``j``'s own pieces as seen, the opponent's
    placed by a randomised exact search inside their masks and the public counts, a
    hidden opponent card drawn from its hand, a fresh chance state."""
    s[:] = -1
    s[PHASE] = v[V_PHASE]
    s[ACTOR] = v[V_ACTOR]
    s[TURN] = v[V_TURN]
    s[PLIES] = v[V_PLIES]
    s[RESULT] = v[V_RESULT]
    s[SHIRE_WIN] = v[V_SHIRE_WIN]
    s[MAX_TURNS] = v[V_MAX_TURNS]
    s[HAND] = v[V_HAND]
    s[HAND + 1] = v[V_HAND + 1]
    for i in range(7):
        s[C_REG + i] = v[V_C + i]
    s[E_FROM] = v[V_E]
    s[E_TO] = v[V_E + 1]
    for i in range(5):
        s[LC_ATT + i] = v[V_LC + i]
    for c in range(18):
        s[MASK + c] = v[V_MASK + c]
    s[LAST] = v[V_LAST]
    s[PLACED] = v[V_PLACED]
    for i in range(9):
        s[LOC + 9 * j + i] = v[V_OWN + i]
    s[PICK + j] = v[V_PICK + j]
    o = 1 - j
    p = v[V_PICK + o]
    if p == PICK_HIDDEN:
        hand = v[V_HAND + o]
        k = rand_below(rng, _popcount9(hand))
        for x in range(9):
            if (hand >> x) & 1:
                if k == 0:
                    p = x
                    break
                k -= 1
    s[PICK + o] = p
    s[CHANCE] = (np.int64(next_u64(rng) >> np.uint64(2)) & _M62) | 1
    # The opponent's live pieces: an exact depth-first search in random order.
    chars = np.empty(9, np.int64)
    n = 0
    for x in range(9 * o, 9 * o + 9):
        s[LOC + x] = -1
        if v[V_MASK + x] != 0:
            chars[n] = x
            n += 1
    for i in range(n - 1, 0, -1):
        k = rand_below(rng, i + 1)
        chars[i], chars[k] = chars[k], chars[i]
    room = np.empty(16, np.int64)
    for r in range(16):
        room[r] = v[V_OCOUNT + r]
    offset = np.empty(9, np.int64)
    nxt = np.zeros(9, np.int64)
    for i in range(n):
        offset[i] = rand_below(rng, 16)
    depth = 0
    while 0 <= depth < n:
        c = chars[depth]
        if s[LOC + c] >= 0:  # undo the previous choice at this depth
            room[s[LOC + c]] += 1
            s[LOC + c] = -1
        placed = False
        while nxt[depth] < 16:
            r = (offset[depth] + nxt[depth]) % 16
            nxt[depth] += 1
            if room[r] > 0 and (v[V_MASK + c] >> r) & 1:
                room[r] -= 1
                s[LOC + c] = r
                placed = True
                break
        if placed:
            depth += 1
        else:
            nxt[depth] = 0
            depth -= 1
    return depth == n


@njit(cache=True, inline="always")
def _popcount9(x):
    n = 0
    for k in range(9):
        n += (x >> k) & 1
    return n


KERNEL = Kernel(actor, n_legal, legal_action, legal_actions, apply, observe, move_reveals,
                is_terminal, reward, playout, view, sample, info_key)

