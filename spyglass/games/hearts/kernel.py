"""The rules of Hearts, once, as numba-compiled kernels over a small int64 state.

Four players, a 52-card deck, 13 cards each (Whitehouse 2014, §4.2.3). Cards are
numbered as in OpenSpiel's ``hearts``: ``card = rank * 4 + suit`` with ranks 0..12 for
2..A and suits clubs 0, diamonds 1, hearts 2, spades 3 (so 2♣ = 0, J♦ = 37, Q♠ = 43).
An action id is a card (``n_actions = 52``): the card passed in the passing phase, the
card played in the play phase (the phase is public).

Rules (the thesis's, with OpenSpiel's defaults where it is silent; every OpenSpiel
option is a flag of the same name, see ``F_*``):

* **Passing.** Each player passes 3 cards, one card per move (the thesis's sequential
  selection, §4.2.3), seat 0 first, then 1, 2, 3, as OpenSpiel orders them. Nobody sees
  the cards received until all have passed (the last pass ``move_reveals``). The
  direction rotates left, right, across, none over the deals of a game (every fourth
  deal no cards are passed); ``fixed_dir`` >= 0 fixes it instead (one-deal games and the
  OpenSpiel cross-check). Left = seat + 1.
* **Play.** The holder of 2♣ leads it (``F_LEAD_ANY_CLUB``: any club). Players must
  follow suit. On the first trick a player who cannot follow may not play a heart or
  Q♠ unless it has nothing else (``F_NO_PTS_FIRST``). Hearts may not be led until broken
  (a heart played, or Q♠ with ``F_QS_BREAKS``) unless the leader holds only hearts
  (``F_MUST_BREAK``; ``F_LEAD_H_NOT_QS``: a leader holding only Q♠ besides hearts may
  lead a heart). The highest card of the led suit wins; the winner leads next.
* **Points.** A heart 1, Q♠ 13 (``F_JD_BONUS``: J♦ -10). Shooting the moon (one player
  takes every heart and Q♠) scores -26 for the shooter and +26 for each other player,
  as OpenSpiel computes it, which ranks the same as the thesis's "every other player
  scores 26". ``F_AVOID_BONUS``: -5 for a player who took no trick (not on a moon).
* **Game.** ``target`` > 0: deals are played until a player's total reaches ``target``
  at the end of a deal (thesis: 50); ``target`` = 0: a single deal. New deals are drawn
  from a generator kept in the state (``RNG``), so that a game is a pure function of its
  seed; ``sample`` redraws that generator, so a determinization does not know the
  future deals. With a bonus option on a game could in principle last forever:
  ``MAX_DEALS`` ends it.
* **Reward** (``F_POINTS_REWARD`` off, the thesis's): by final placing on the totals,
  fewest points first: 1 for first, ½ for second or third, 0 for last. Tied players
  share the mean of the values of the places they tie for (two tied for first get
  (1 + ½) / 2 = ¾ each; all four tied get ½). The thesis's win statistic, "first or
  equal first", is :func:`first_or_equal_first`. ``F_POINTS_REWARD`` on (one deal only):
  ``(26 - points) / 62``: OpenSpiel's return ``26 - points`` (0 .. 62 with J♦ and a
  moon) mapped into [0, 1].

What a player learns (observations, view): its own hand, the cards it passed and
received, every card played and by whom, and the public consequences: everyone's points
and totals, who is void. Voids are kept as *forbidden groups*: the card groups are
clubs, diamonds, hearts, spades other than Q♠, and Q♠ (``G_QS``); failing to follow
spades forbids both spade groups. Leading a heart before hearts are broken, or playing
a heart or Q♠ on the first trick when not following, shows that the player held
nothing else the rules allowed, and forbids those groups too (exact inference, so that
``sample`` draws only states in which the moves seen were legal).

State layout (``STATE_SIZE`` int64 values; masks are 52-bit card masks):

=============  ===============================================================
TO_MOVE        seat to act, -1 when the game is over
PHASE          PASSING, PLAYING or OVER
DEAL_NO        deals finished so far
PASS_DIR       this deal's direction: 0 none, 1 left, 2 across, 3 right (OpenSpiel's)
N_PLAYED       cards played this deal
LEADER         leader of the current trick
BROKEN         hearts broken
FIRST_LEADER   who held 2♣ and led the first trick (-1 while passing)
FORBID         bit ``5 * p + g``: player p holds no card of group g (public)
FLAGS          rule options, ``F_*``
TARGET         the game's target score (0: one deal)
FIXED_DIR      -1 rotate, else the pass direction of every deal
RNG_HI/RNG_LO  the generator of future deals (two 32-bit halves)
HAND + p       p's hand
PASSED + p     the cards p passed this deal (removed from its hand until all pass)
PLAYED + p     the cards p played this deal
TRICK + p      the card p played to the current trick, -1 none
POINTS + p     p's points this deal so far (OpenSpiel's points, J♦ included)
PENALTY + p    hearts and Q♠ p took this deal (0..26; 26 = shot the moon)
TRICKS + p     tricks p took this deal
SCORE + p      p's total over the finished deals
=============  ===============================================================

View layout (``VIEW_SIZE``): the public fields above (``V_TO_MOVE`` .. ``V_FIXED_DIR``
in the same order), then ``V_SEAT``, ``V_HAND`` (own hand), ``V_PASSED`` (own passed
cards), ``V_RECEIVED`` (cards received, 0 until everyone has passed), ``V_NPASSED + p``
(cards p has passed), and the public ``PLAYED``, ``TRICK``, ``POINTS``, ``PENALTY``,
``TRICKS``, ``SCORE`` blocks. The order of play within finished tricks is left out: it
does not change which states are consistent with the view.

Observation keys: a card played is public, ``OBS_CARD + card`` for every seat. A pass
is ``OBS_CARD + card`` for the passer and ``OBS_HIDDEN_PASS`` for the others. The last
pass of a deal reveals to each seat the cards it receives and who leads (holds 2♣):
``REVEAL_PASS | (leader << 59) | (c << 53) | received`` with ``c`` the card for the
passer and 63 for the others. The last card of a deal that does not end the game
reveals each seat's new hand: ``REVEAL_DEAL | (leader << 59) | (card << 53) | new
hand`` (leader 0 when the next deal starts with passing).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.cards.bits import highest_index, lowest_index, popcount
from spyglass.games.cards.deal import bit, choose_subset, deal_three, nth_bit
from spyglass.games.cards.deal import rand_small as _rand_small
from spyglass.rng import next_u64, rand_below

_choose_subset = choose_subset  # the names the tests and older callers use

N_CARDS, N_PLAYERS, N_TRICKS, PASS_N = 52, 4, 13, 3
CLUBS, DIAMONDS, HEARTS, SPADES = 0, 1, 2, 3
TWO_CLUBS, JACK_DIAMONDS, QUEEN_SPADES = 0, 37, 43
ALL_CARDS = (1 << 52) - 1
CLUB_MASK = 0x1111111111111  # one bit per rank in the clubs position of each nibble
HEART_MASK = CLUB_MASK << HEARTS
SPADE_MASK = CLUB_MASK << SPADES
QS_BIT = 1 << QUEEN_SPADES
#: Card groups for forbidden-card inference: the suits, with Q♠ apart from the spades.
G_CLUBS, G_DIAMONDS, G_HEARTS, G_SPADES, G_QS = 0, 1, 2, 3, 4
N_GROUPS = 5
GROUP_MASKS = np.array([CLUB_MASK, CLUB_MASK << 1, HEART_MASK, SPADE_MASK & ~QS_BIT, QS_BIT],
                       dtype=np.int64)
MAX_DEALS = 100
#: Pass directions of a game's deals in turn: left, right, across, none.
ROTATION = np.array([1, 3, 2, 0], dtype=np.int64)

# Option flags (OpenSpiel's parameter names in the comments).
F_PASS_CARDS = 1        # pass_cards
F_NO_PTS_FIRST = 2      # no_pts_on_first_trick
F_LEAD_ANY_CLUB = 4     # can_lead_any_club
F_JD_BONUS = 8          # jd_bonus
F_AVOID_BONUS = 16      # avoid_all_tricks_bonus
F_MUST_BREAK = 32       # must_break_hearts
F_QS_BREAKS = 64        # qs_breaks_hearts
F_LEAD_H_NOT_QS = 128   # can_lead_hearts_instead_of_qs
F_POINTS_REWARD = 256   # reward by points (one deal) instead of by placing
DEFAULT_FLAGS = F_PASS_CARDS | F_NO_PTS_FIRST | F_MUST_BREAK | F_QS_BREAKS

PASSING, PLAYING, OVER = 0, 1, 2

# State fields.
TO_MOVE, PHASE, DEAL_NO, PASS_DIR, N_PLAYED, LEADER, BROKEN, FIRST_LEADER = range(8)
FORBID, FLAGS, TARGET, FIXED_DIR, RNG_HI, RNG_LO = range(8, 14)
HAND, PASSED, PLAYED, TRICK, POINTS, PENALTY, TRICKS, SCORE = 16, 20, 24, 28, 32, 36, 40, 44
STATE_SIZE = 48

# View fields: the public scalars keep their state index (TO_MOVE .. FIXED_DIR).
V_SEAT, V_HAND, V_PASSED, V_RECEIVED, V_NPASSED = 14, 15, 16, 17, 18
V_PLAYED, V_TRICK, V_POINTS, V_PENALTY, V_TRICKS, V_SCORE = 22, 26, 30, 34, 38, 42
VIEW_SIZE = 46
N_PUBLIC = 12  # TO_MOVE .. FIXED_DIR

OBS_HIDDEN_PASS = 1
OBS_CARD = 64
REVEAL_PASS = 1 << 62
REVEAL_DEAL = 1 << 61
CARD_SHIFT = 53
LEAD_SHIFT = 59

#: Uniform proposals ``sample`` tries before it draws exactly by counting.
SAMPLE_TRIES = 24


@njit(cache=True, inline="always")
def group_of(c: int) -> int:
    return G_QS if c == QUEEN_SPADES else c & 3


@njit(cache=True, inline="always")
def card_points(c: int, flags: int) -> int:
    if c & 3 == HEARTS:
        return 1
    if c == QUEEN_SPADES:
        return 13
    if c == JACK_DIAMONDS and flags & F_JD_BONUS:
        return -10
    return 0


# --- dealing --------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _rng_of(s: np.ndarray) -> np.ndarray:
    r = np.empty(1, dtype=np.uint64)
    r[0] = (np.uint64(s[RNG_HI]) << np.uint64(32)) | np.uint64(s[RNG_LO])
    return r


@njit(cache=True, inline="always")
def _store_rng(s: np.ndarray, r: np.ndarray) -> None:
    s[RNG_HI] = np.int64(r[0] >> np.uint64(32))
    s[RNG_LO] = np.int64(r[0] & np.uint64(0xFFFFFFFF))


@njit(cache=True)
def draw_hands(r: np.ndarray, hands: np.ndarray) -> None:
    """Deal 13 cards to each of 4 hands (masks into ``hands``) from generator ``r``."""
    deck = np.arange(N_CARDS)
    for i in range(N_CARDS - 1, 0, -1):
        k = rand_below(r, i + 1)
        t = deck[i]
        deck[i] = deck[k]
        deck[k] = t
    for p in range(N_PLAYERS):
        h = 0
        for i in range(13 * p, 13 * p + 13):
            h |= bit(deck[i])
        hands[p] = h


@njit(cache=True, inline="always")
def deal_direction(s: np.ndarray, deal_no: int) -> int:
    if not s[FLAGS] & F_PASS_CARDS:
        return 0
    if s[FIXED_DIR] >= 0:
        return s[FIXED_DIR]
    return ROTATION[deal_no % 4]


@njit(cache=True)
def start_deal(s: np.ndarray) -> None:
    """Deal new hands from the state's generator and reset the deal's fields."""
    r = _rng_of(s)
    hands = np.zeros(N_PLAYERS, dtype=np.int64)
    draw_hands(r, hands)
    _store_rng(s, r)
    for p in range(N_PLAYERS):
        s[HAND + p] = hands[p]
        s[PASSED + p] = 0
        s[PLAYED + p] = 0
        s[TRICK + p] = -1
        s[POINTS + p] = 0
        s[PENALTY + p] = 0
        s[TRICKS + p] = 0
    s[PASS_DIR] = deal_direction(s, s[DEAL_NO])
    s[N_PLAYED] = 0
    s[BROKEN] = 0 if s[FLAGS] & F_MUST_BREAK else 1
    s[FORBID] = 0
    _begin_play_or_pass(s)


@njit(cache=True, inline="always")
def _holder(s: np.ndarray, c: int) -> int:
    b = bit(c)
    for p in range(N_PLAYERS):
        if s[HAND + p] & b:
            return p
    return -1


@njit(cache=True, inline="always")
def _begin_play_or_pass(s: np.ndarray) -> None:
    if s[PASS_DIR] == 0:
        s[PHASE] = PLAYING
        lead = _holder(s, TWO_CLUBS)
        s[FIRST_LEADER] = lead
        s[LEADER] = lead
        s[TO_MOVE] = lead
    else:
        s[PHASE] = PASSING
        s[FIRST_LEADER] = -1
        s[LEADER] = -1
        s[TO_MOVE] = 0


@njit(cache=True)
def new_state(seed_rng: np.ndarray, flags: int, target: int, fixed_dir: int) -> np.ndarray:
    """A game's first state, its first deal drawn from ``seed_rng`` (a generator state)."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[FLAGS] = flags
    s[TARGET] = target
    s[FIXED_DIR] = fixed_dir
    _store_rng(s, seed_rng)
    start_deal(s)
    return s


# --- legal moves ----------------------------------------------------------------------


@njit(cache=True, inline="always")
def legal_mask(s: np.ndarray) -> int:
    """The actor's legal cards as a mask (OpenSpiel's order of rules)."""
    p = s[TO_MOVE]
    if p < 0:
        return 0
    hand = s[HAND + p]
    if s[PHASE] == PASSING:
        return hand
    n = s[N_PLAYED]
    flags = s[FLAGS]
    leading = n % 4 == 0
    if not leading:
        follow = hand & (CLUB_MASK << (s[TRICK + s[LEADER]] & 3))
        if follow:
            return follow
    if n == 0:
        if flags & F_LEAD_ANY_CLUB:
            return hand & CLUB_MASK
        return hand & 1
    if flags & F_NO_PTS_FIRST and n < 4:
        safe = hand & ~HEART_MASK & ~QS_BIT
        if safe:
            return safe
    if leading:
        ok = hand if s[BROKEN] else hand & ~HEART_MASK
        if flags & F_LEAD_H_NOT_QS and ok == QS_BIT:
            ok = 0
        if ok:
            return ok
    return hand


@njit(cache=True, inline="always")
def actor(s: np.ndarray) -> int:
    return s[TO_MOVE]


@njit(cache=True, inline="always")
def is_terminal(s: np.ndarray) -> bool:
    return s[TO_MOVE] < 0


@njit(cache=True, inline="always")
def n_legal(s: np.ndarray) -> int:
    return popcount(legal_mask(s))


@njit(cache=True, inline="always")
def legal_action(s: np.ndarray, i: int) -> int:
    return nth_bit(legal_mask(s), i)


@njit(cache=True, inline="always")
def legal_actions(s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal cards into ``out`` in increasing order; return how many."""
    x = legal_mask(s)
    n = 0
    while x:
        out[n] = lowest_index(x)
        n += 1
        x &= x - 1
    return n


# --- moves ----------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _is_last_pass(s: np.ndarray) -> bool:
    return s[PHASE] == PASSING and s[TO_MOVE] == 3 and popcount(s[PASSED + 3]) == PASS_N - 1


@njit(cache=True, inline="always")
def _pass(s: np.ndarray, a: int) -> None:
    p = s[TO_MOVE]
    b = bit(a)
    s[HAND + p] &= ~b
    s[PASSED + p] |= b
    if popcount(s[PASSED + p]) < PASS_N:
        return
    if p < 3:
        s[TO_MOVE] = p + 1
        return
    d = s[PASS_DIR]
    for q in range(N_PLAYERS):
        s[HAND + (q + d) % 4] |= s[PASSED + q]
    s[PHASE] = PLAYING
    lead = _holder(s, TWO_CLUBS)
    s[FIRST_LEADER] = lead
    s[LEADER] = lead
    s[TO_MOVE] = lead


@njit(cache=True, inline="always")
def _forbid_groups(s: np.ndarray, p: int, groups: int) -> None:
    s[FORBID] |= groups << (5 * p)


@njit(cache=True, inline="always")
def _infer(s: np.ndarray, p: int, a: int) -> None:
    """Record what playing ``a`` shows about p's hand (see the module docstring)."""
    n = s[N_PLAYED]
    flags = s[FLAGS]
    suit = a & 3
    if n % 4 == 0:
        if suit == HEARTS and not s[BROKEN]:
            # Only hearts (or, with F_LEAD_H_NOT_QS, hearts and Q♠) were left.
            g = (1 << G_CLUBS) | (1 << G_DIAMONDS) | (1 << G_SPADES)
            if not flags & F_LEAD_H_NOT_QS:
                g |= 1 << G_QS
            _forbid_groups(s, p, g)
        return
    led = s[TRICK + s[LEADER]] & 3
    if suit == led:
        return
    g = 1 << led
    if led == SPADES:
        g |= 1 << G_QS
    if flags & F_NO_PTS_FIRST and n < 4 and (suit == HEARTS or a == QUEEN_SPADES):
        g |= (1 << G_CLUBS) | (1 << G_DIAMONDS) | (1 << G_SPADES)
    _forbid_groups(s, p, g)


@njit(cache=True, inline="always")
def _trick_winner(s: np.ndarray) -> int:
    lead = s[LEADER]
    led = s[TRICK + lead] & 3
    best = lead
    best_rank = s[TRICK + lead] >> 2
    for q in range(N_PLAYERS):
        c = s[TRICK + q]
        if c & 3 == led and (c >> 2) > best_rank:
            best = q
            best_rank = c >> 2
    return best


@njit(cache=True)
def _end_deal(s: np.ndarray) -> None:
    """Score the deal (moon, bonuses), then end the game or deal the next hands."""
    flags = s[FLAGS]
    shooter = -1
    for p in range(N_PLAYERS):
        if s[PENALTY + p] == 26:
            shooter = p
    for p in range(N_PLAYERS):
        if shooter >= 0:
            s[POINTS + p] += -26 if p == shooter else 26
        elif flags & F_AVOID_BONUS and s[TRICKS + p] == 0:
            s[POINTS + p] -= 5
        s[SCORE + p] += s[POINTS + p]
    s[DEAL_NO] += 1
    top = s[SCORE]
    for p in range(1, N_PLAYERS):
        top = max(top, s[SCORE + p])
    if s[TARGET] <= 0 or top >= s[TARGET] or s[DEAL_NO] >= MAX_DEALS:
        s[PHASE] = OVER
        s[TO_MOVE] = -1
        return
    start_deal(s)


@njit(cache=True, inline="always")
def _play(s: np.ndarray, a: int) -> None:
    p = s[TO_MOVE]
    b = bit(a)
    _infer(s, p, a)
    s[HAND + p] &= ~b
    s[PLAYED + p] |= b
    if s[N_PLAYED] % 4 == 0:
        for q in range(N_PLAYERS):
            s[TRICK + q] = -1
        s[LEADER] = p
    s[TRICK + p] = a
    if a & 3 == HEARTS or (a == QUEEN_SPADES and s[FLAGS] & F_QS_BREAKS):
        s[BROKEN] = 1
    s[N_PLAYED] += 1
    if s[N_PLAYED] % 4:
        s[TO_MOVE] = (p + 1) % 4
        return
    w = _trick_winner(s)
    flags = s[FLAGS]
    for q in range(N_PLAYERS):
        c = s[TRICK + q]
        s[POINTS + w] += card_points(c, flags)
        if c & 3 == HEARTS or c == QUEEN_SPADES:
            s[PENALTY + w] += 1 if c != QUEEN_SPADES else 13
    s[TRICKS + w] += 1
    s[LEADER] = w
    s[TO_MOVE] = w
    if s[N_PLAYED] == N_CARDS:
        _end_deal(s)


@njit(cache=True, inline="always")
def apply(s: np.ndarray, a: int) -> None:
    """The actor passes or plays card ``a`` (a legal action) in place."""
    if s[PHASE] == PASSING:
        _pass(s, a)
    else:
        _play(s, a)


@njit(cache=True)
def _game_continues_after_deal(s: np.ndarray) -> bool:
    """Whether the deal being finished by the last card leaves the game going on."""
    t = s.copy()
    _play(t, legal_action(s, 0))
    return t[TO_MOVE] >= 0


@njit(cache=True, inline="always")
def _holder_after_pass(s: np.ndarray, a: int) -> int:
    """Who holds 2♣ once the last pass (card ``a`` by seat 3) is made."""
    d = s[PASS_DIR]
    if a == TWO_CLUBS:
        return (3 + d) % 4
    for q in range(N_PLAYERS):
        if s[PASSED + q] & 1:
            return (q + d) % 4
    return _holder(s, TWO_CLUBS)


@njit(cache=True, inline="always")
def observe(s: np.ndarray, a: int, j: int) -> int:
    """Player ``j``'s observation key of the actor playing ``a`` (before ``apply``)."""
    p = s[TO_MOVE]
    if s[PHASE] == PASSING:
        if _is_last_pass(s):
            passer = (j - s[PASS_DIR] + 4) % 4
            received = s[PASSED + passer]
            if passer == p:
                received |= bit(a)
            seen = a if j == p else 63
            lead = _holder_after_pass(s, a)
            return (REVEAL_PASS | (np.int64(lead) << LEAD_SHIFT)
                    | (np.int64(seen) << CARD_SHIFT) | received)
        return OBS_CARD + a if j == p else OBS_HIDDEN_PASS
    if s[N_PLAYED] == N_CARDS - 1 and _game_continues_after_deal(s):
        t = s.copy()
        _play(t, a)
        lead = max(t[FIRST_LEADER], 0)
        return (REVEAL_DEAL | (np.int64(lead) << LEAD_SHIFT)
                | (np.int64(a) << CARD_SHIFT) | t[HAND + j])
    return OBS_CARD + a


@njit(cache=True, inline="always")
def move_reveals(s: np.ndarray) -> bool:
    """The last pass (cards received) and the last card of a deal (the next hands)."""
    if s[TO_MOVE] < 0:
        return False
    return _is_last_pass(s) or (s[PHASE] == PLAYING and s[N_PLAYED] == N_CARDS - 1)


@njit(cache=True)
def simultaneous(s: np.ndarray) -> bool:
    """The passes: hidden moves of a round closed by a reveal (EXP3 applies there)."""
    return s[PHASE] == PASSING and s[TO_MOVE] >= 0


# --- rewards --------------------------------------------------------------------------


@njit(cache=True, inline="always")
def reward(s: np.ndarray, j: int) -> float:
    """The thesis's placing reward (1, ½, ½, 0; ties share), or the points reward."""
    if s[TO_MOVE] >= 0:
        return 0.0
    mine = s[SCORE + j]
    if s[FLAGS] & F_POINTS_REWARD:
        return (26.0 - mine) / 62.0
    better = 0
    equal = 0
    for q in range(N_PLAYERS):
        t = s[SCORE + q]
        if t < mine:
            better += 1
        elif t == mine:
            equal += 1
    # Places better .. better + equal - 1 (0-based) with values 1, .5, .5, 0.
    total = 0.0
    for place in range(better, better + equal):
        total += 1.0 if place == 0 else (0.0 if place == 3 else 0.5)
    return total / equal


@njit(cache=True, inline="always")
def first_or_equal_first(s: np.ndarray, j: int) -> bool:
    """The thesis's win statistic (Whitehouse 2014, §8.3): fewest points, ties included."""
    for q in range(N_PLAYERS):
        if s[SCORE + q] < s[SCORE + j]:
            return False
    return True


@njit(cache=True, inline="always")
def _random_card(hand: int, n: int, led: int, broken: int, flags: int, rng: np.ndarray) -> int:
    """A uniformly random legal card (:func:`legal_mask`'s rules, from the arguments)."""
    if n & 3 == 0:
        if n == 0:
            m = hand & (CLUB_MASK if flags & F_LEAD_ANY_CLUB else 1)
        else:
            m = hand if broken else hand & ~HEART_MASK
            if flags & F_LEAD_H_NOT_QS and m == QS_BIT:
                m = 0
            if m == 0:
                m = hand
    else:
        m = hand & (CLUB_MASK << led)
        if m == 0:
            m = hand
            if n < 4 and flags & F_NO_PTS_FIRST:
                safe = hand & ~HEART_MASK & ~QS_BIT
                if safe:
                    m = safe
    return nth_bit(m, _rand_small(rng, popcount(m)))


@njit(cache=True)
def _playout_deal(s: np.ndarray, rng: np.ndarray) -> None:
    """Play the rest of the deal's play phase with uniformly random legal cards, then
    end the deal (:func:`_end_deal`).

    The same cards, drawn in the same way, as :func:`apply` move by move, but with the
    hands, the trick and the turn in local variables, the trick scored from a mask of
    its cards, and without what only views need (inferences, cards played by whom):
    ~25 % faster than :func:`apply`'s path, and playouts are most of a search's time."""
    h0, h1, h2, h3 = s[HAND], s[HAND + 1], s[HAND + 2], s[HAND + 3]
    flags = s[FLAGS]
    n = s[N_PLAYED]
    p = s[TO_MOVE]
    broken = s[BROKEN]
    leader = s[LEADER]
    qs_breaks = (flags & F_QS_BREAKS) != 0
    tmask = 0
    led = 0
    if n & 3:
        led = s[TRICK + leader] & 3
        for q in range(N_PLAYERS):
            if s[TRICK + q] >= 0:
                tmask |= bit(s[TRICK + q])
    while n < N_CARDS:
        if p == 0:
            hand = h0
        elif p == 1:
            hand = h1
        elif p == 2:
            hand = h2
        else:
            hand = h3
        c = _random_card(hand, n, led, broken, flags, rng)
        b = bit(c)
        if p == 0:
            h0 ^= b
        elif p == 1:
            h1 ^= b
        elif p == 2:
            h2 ^= b
        else:
            h3 ^= b
        s[TRICK + p] = c
        if n & 3 == 0:
            leader = p
            led = c & 3
            tmask = b
        else:
            tmask |= b
        if c & 3 == HEARTS or (c == QUEEN_SPADES and qs_breaks):
            broken = 1
        n += 1
        if n & 3:
            p = (p + 1) & 3
            continue
        # The highest card of the led suit wins: find who played it.
        top = highest_index(tmask & (CLUB_MASK << led))
        w = 0
        for q in range(1, N_PLAYERS):
            if s[TRICK + q] == top:
                w = q
        penalty = popcount(tmask & HEART_MASK) + 13 * ((tmask >> QUEEN_SPADES) & 1)
        s[POINTS + w] += penalty
        if flags & F_JD_BONUS and (tmask >> JACK_DIAMONDS) & 1:
            s[POINTS + w] -= 10
        s[PENALTY + w] += penalty
        s[TRICKS + w] += 1
        p = w
        leader = w
    s[HAND], s[HAND + 1], s[HAND + 2], s[HAND + 3] = h0, h1, h2, h3
    s[N_PLAYED] = n
    s[BROKEN] = broken
    s[LEADER] = leader
    s[TO_MOVE] = p
    _end_deal(s)


@njit(cache=True)
def playout(s: np.ndarray, rng: np.ndarray) -> None:
    """Uniformly random legal cards until the game ends (in place).

    Random passes are drawn a player's remaining passes at a time (a uniform subset,
    the same law as uniform single-card passes), and the play phase is
    :func:`_playout_deal`, so the final scores are those of the same random game played
    move by move (``tests/test_hearts.py`` checks it against :func:`apply`)."""
    while s[TO_MOVE] >= 0:
        p = s[TO_MOVE]
        if s[PHASE] == PASSING:
            k = PASS_N - popcount(s[PASSED + p])
            if p == 3:
                k -= 1  # the last card goes through apply (it ends the passing)
            if k > 0:
                gone = _choose_subset(s[HAND + p], k, rng)
                s[HAND + p] &= ~gone
                s[PASSED + p] |= gone
                if p < 3:
                    s[TO_MOVE] = p + 1
                    continue
            m = s[HAND + p]
            _pass(s, nth_bit(m, _rand_small(rng, popcount(m))))
            continue
        _playout_deal(s, rng)


@njit(cache=True)
def random_games(n_games: int, flags: int, target: int, fixed_dir: int,
                 rng: np.ndarray) -> int:
    """Play ``n_games`` uniformly random games; return seat 0's first places (benchmarks)."""
    wins = 0
    for _ in range(n_games):
        r = np.empty(1, dtype=np.uint64)
        r[0] = next_u64(rng) | np.uint64(1)
        s = new_state(r, flags, target, fixed_dir)
        playout(s, rng)
        wins += first_or_equal_first(s, 0)
    return wins


# --- views, keys, determinizations ----------------------------------------------------


@njit(cache=True)
def view(s: np.ndarray, j: int, v: np.ndarray) -> None:
    """Write player ``j``'s view (layout in the module docstring) into ``v``."""
    for i in range(N_PUBLIC):
        v[i] = s[i]
    v[V_SEAT] = j
    v[V_HAND] = s[HAND + j]
    v[V_PASSED] = s[PASSED + j]
    done = s[PHASE] != PASSING and s[PASS_DIR] != 0
    v[V_RECEIVED] = s[PASSED + (j - s[PASS_DIR] + 4) % 4] if done else 0
    for p in range(N_PLAYERS):
        v[V_NPASSED + p] = popcount(s[PASSED + p])
        v[V_PLAYED + p] = s[PLAYED + p]
        v[V_TRICK + p] = s[TRICK + p]
        v[V_POINTS + p] = s[POINTS + p]
        v[V_PENALTY + p] = s[PENALTY + p]
        v[V_TRICKS + p] = s[TRICKS + p]
        v[V_SCORE + p] = s[SCORE + p]


@njit(cache=True, inline="always")
def _mix(h: int, x: int) -> int:
    """Fold ``x`` (< 2**62 in absolute value) into a 31-bit hash ``h``, 26 bits at a time
    (products stay below 2**62, so nothing overflows uncompiled)."""
    if x < 0:
        x = (1 << 61) - x
    for _ in range(3):
        h = ((h ^ (x & 0x3FFFFFF)) * 1000003 + 12345) & 0x7FFFFFFF
        x >>= 26
    return h


@njit(cache=True)
def view_key(v: np.ndarray) -> int:
    """A 62-bit hash of a view (two independent 31-bit folds)."""
    a = 0x1234567
    b = 0x7654321
    for i in range(VIEW_SIZE):
        a = _mix(a, v[i])
        b = _mix(b, v[VIEW_SIZE - 1 - i] + i)
    return (np.int64(a) << 31) | b


@njit(cache=True)
def info_key(s: np.ndarray, j: int) -> int:
    """A hash of ``j``'s view (equal for states ``j`` cannot tell apart)."""
    v = np.zeros(VIEW_SIZE, dtype=np.int64)
    view(s, j, v)
    return view_key(v)


@njit(cache=True, inline="always")
def _allowed(forbid: int, p: int) -> int:
    """The cards p may hold, as a mask."""
    ok = ALL_CARDS
    for g in range(N_GROUPS):
        if (forbid >> (5 * p + g)) & 1:
            ok &= ~GROUP_MASKS[g]
    return ok


@njit(cache=True, inline="always")
def _other(j: int, k: int) -> int:
    """The ``k``-th seat (0..2) other than ``j``, in seat order."""
    return k + (k >= j)


@njit(cache=True)
def sample(v: np.ndarray, j: int, rng: np.ndarray, s: np.ndarray) -> bool:
    """Write into ``s`` a state drawn uniformly from those consistent with ``j``'s view.

    Consistent means: every public field as in the view; ``j``'s hand, passed and
    received cards as in the view; each other player holds its public number of cards
    (while passing: 13 between its hand and the cards it has passed); no player holds a
    card of a group it is known not to hold (``FORBID``); the cards ``j`` passed and
    has not seen played are in the receiver's hand; 2♣, until played, is the first
    leader's. The unknown cards are dealt uniformly under these constraints by
    :func:`spyglass.games.cards.deal.deal_three` (up to ``SAMPLE_TRIES`` uniform
    proposals, then exactly by counting), so the draw is exactly uniform. Then the
    hidden passes are drawn: while passing, a uniform subset of the right size of each
    other player's 13 cards; after, for a player whose passed cards ``j`` did not see,
    a uniform 3-subset of what its receiver holds or has played (every such subset is
    consistent). The generator of future deals is redrawn.
    """
    for i in range(N_PUBLIC):
        s[i] = v[i]
    hi = next_u64(rng)
    s[RNG_HI] = np.int64(hi >> np.uint64(32))
    s[RNG_LO] = np.int64(hi & np.uint64(0xFFFFFFFF)) | 1
    played = 0
    for p in range(N_PLAYERS):
        s[PLAYED + p] = v[V_PLAYED + p]
        s[TRICK + p] = v[V_TRICK + p]
        s[POINTS + p] = v[V_POINTS + p]
        s[PENALTY + p] = v[V_PENALTY + p]
        s[TRICKS + p] = v[V_TRICKS + p]
        s[SCORE + p] = v[V_SCORE + p]
        s[HAND + p] = 0
        s[PASSED + p] = 0
        played |= v[V_PLAYED + p]
    phase = v[PHASE]
    d = v[PASS_DIR]
    hand = v[V_HAND]
    s[HAND + j] = hand
    s[PASSED + j] = v[V_PASSED]
    passing = phase == PASSING
    # Cards known to be in a hand: j's unplayed passed cards (the receiver's), and 2♣
    # (the first leader's) until played.
    receiver, received_fixed = -1, 0
    if not passing and d != 0:
        receiver = (j + d) % 4
        received_fixed = v[V_PASSED] & ~played
    leader_2c = -1
    if not passing and not (played & 1) and not (hand & 1):
        leader_2c = v[FIRST_LEADER]
    unknown = ALL_CARDS & ~(hand | played | v[V_PASSED] | received_fixed
                            | (1 if leader_2c >= 0 else 0))
    forbid = v[FORBID]
    c0 = c1 = c2 = 0
    a0 = a1 = a2 = 0
    for k in range(3):
        p = _other(j, k)
        fixed = (received_fixed if p == receiver else 0) | (1 if p == leader_2c else 0)
        size = 13 if passing else 13 - popcount(v[V_PLAYED + p])
        cap = size - popcount(fixed)
        if k == 0:
            c0, a0 = cap, _allowed(forbid, p)
        elif k == 1:
            c1, a1 = cap, _allowed(forbid, p)
        else:
            c2, a2 = cap, _allowed(forbid, p)
    if c0 < 0 or c1 < 0 or c2 < 0 or c0 + c1 + c2 != popcount(unknown):
        return False
    ok, h0, h1, h2 = deal_three(unknown, c0, c1, c2, a0, a1, a2, GROUP_MASKS, SAMPLE_TRIES,
                                rng)
    if not ok:
        return False
    for k in range(3):
        p = _other(j, k)
        held = (h0 if k == 0 else (h1 if k == 1 else h2))
        held |= (received_fixed if p == receiver else 0) | (1 if p == leader_2c else 0)
        if passing:
            gone = _choose_subset(held, v[V_NPASSED + p], rng)
            s[PASSED + p] = gone
            s[HAND + p] = held & ~gone
        else:
            s[HAND + p] = held
    if not passing and d != 0:
        passer_j = (j - d + 4) % 4
        s[PASSED + passer_j] = v[V_RECEIVED]
        for p in range(N_PLAYERS):
            if p == j or p == passer_j:
                continue
            r = (p + d) % 4
            pool = (s[HAND + r] | s[PLAYED + r])
            if r == receiver:
                pool &= ~v[V_PASSED]
            s[PASSED + p] = _choose_subset(pool, PASS_N, rng)
    return True


# The protocol tuple (imported last so the functions above are defined).
from spyglass.search.protocol import Kernel  # noqa: E402

KERNEL = Kernel(
    actor=actor,
    n_legal=n_legal,
    legal_action=legal_action,
    legal_actions=legal_actions,
    apply=apply,
    observe=observe,
    move_reveals=move_reveals,
    is_terminal=is_terminal,
    reward=reward,
    playout=playout,
    view=view,
    sample=sample,
    info_key=info_key,
)
