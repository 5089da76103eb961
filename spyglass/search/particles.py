"""Particle-filter inference for games whose hidden state is too large to enumerate.

A :class:`ParticleFilter` is one player's belief: ``N`` full states (*particles*), each
consistent with everything the player has observed, with weights. It follows the game
move by move. When an opponent moves, each particle is advanced by a move the opponent
could have made *in that particle* that the player would have seen exactly as it did
(``kernel.observe``), drawn by an opponent model, and the particle's weight is multiplied
by the model's probability of what was observed,

    w_i <- w_i * sum over consistent a of pi(a | the opponent's information set in i)

(Bayes' rule with the opponent model as likelihood; Cowling, Whitehouse & Powley 2015,
§II and §V). A move the player does not see at all (every legal move looks the same to
it: a hidden vote, an unseen stone) leaves the weight alone, but the move is still drawn
from the model, so the particle's hidden moves are the ones the opponent would likely
make; when a later move reveals them (the last vote of a round) the particles that drew
unlikely ones are ruled out, which weights them by the model in the Monte Carlo sense.
A particle with no consistent move, or whose view no longer equals the player's (the
game's consistency check), gets weight 0: hard constraints are exact.
When the effective sample size ``(sum w)^2 / sum w^2`` falls below
``resample_below * N`` (or a particle was ruled out) the particles are resampled
(systematic resampling) and a ``fresh`` fraction of them is replaced by new states drawn
with ``kernel.sample`` from the player's current view; when every weight is 0 all are
redrawn. This is Silver & Veness's (2010) particle filter with *reinvigoration* (they
add particles by domain-specific local moves; here the game's own sampler supplies
them, which needs no domain knowledge and keeps the belief from locking onto a wrong
model -- the role of the ``(1 - n(v)/N)`` term of Cowling et al.'s eq. 2).

**Repair** (optional, per game): when the observation contradicts a particle -- chance
revealed (the card a player draws), or exact cards shown (a card played, a pile turned
up) that the particle put elsewhere -- no move in it explains the observation. A game
with a repair hook (``spyglass.games.<game>.repair.repair``, :data:`Repair`) then edits
the particle before the move: it redraws the chance outcomes the observation reveals
and the hidden cards it speaks about, keeping the rest (the opponents' hands the
particle's history put there). The repaired particle goes through the transition and
the consistency check like any other. A game without the hook, or a repair that
returns 0, falls back to ruling the particle out.

*Weights.* The repair is an importance-sampling step (a move of an SMC sampler, Del
Moral, Doucet & Jasra 2006, with a backward kernel): with ``gamma`` the filter's target
before the move and ``K`` the repair, a repaired particle ``x'`` is multiplied by
``(1 - a(x')) gamma(x') / sum of gamma(x) K(x -> x')`` over the contradicted particles
``x`` that could have become ``x'``, and a particle that needed no repair by ``a(x')``
(any ``a`` in [0, 1] keeps the estimate unbiased). The hook returns the first factor,
and the repair module's optional ``kept_weight(s, obs, seat)`` the second. When the
repair redraws a *block* ``z`` of the hidden state from the target given the rest
``y`` (fixed by the observation, not by the particle), conditioned on explaining the
observation, the choice ``a = P(explains | y)`` makes both factors that same
probability: the filter weights every particle by the chance, given the cards the
block leaves alone, that the block is as the observation shows. docs/inference.md
derives each game's factor and says what is approximated (above all: the target is
the uniform deal under the hard constraints; how the redrawn cards change the opponent
model's likelihoods of *past* moves is not recomputed). ``repair_weights=False`` keeps
the old rule (a repaired particle keeps its weight) for comparison.

Opponent models (``model``):

* ``"search"`` (default): the opponent's policy is the visit distribution of a small
  SO-ISMCTS search (``model_iterations``) from *the opponent's* view in the particle,
  mixed with uniform (``epsilon``): ``pi(a) = (1 - eps) n(a)/n + eps/|A|``. This is the
  paper's idea that the search's own statistics are an opponent model (Cowling et al.
  2015, §V; Whitehouse 2014, §7.2) made per particle, because a particle's opponent
  information set is unique to it (its hand); the uniform share keeps a move the model
  thinks unlikely from wiping out a particle (robustness to a wrong model). Particles
  whose opponent information set is the same share one search.
* ``"playout"``: the default playout policy (uniform over legal actions). It adds to the
  hard constraints only the count of legal alternatives, and is nearly free.

**ψ** (:class:`PublicParticleFilter`): a self-determinizing player (Cowling, Whitehouse
& Powley 2015, §VI; :mod:`spyglass.search.selfdet`) keeps a second particle set, its
model of what the opponents have inferred: full states consistent with the *public*
history only, as an observer who does not know the player's private information would
sample them. Each ψ particle is drawn from an opponent ``j``'s view of one of the
player's own φ particles (``kernel.sample`` from ``j``'s view, so the player's hidden
cards, role or position are redrawn) and remembers ``j``, its *observer*. It follows the
game like φ, with the same opponent model, with two differences: a move of the player
itself must look, in the particle, as it looked to the observer (its observation key,
which the player knows: the key the observer gets in the first of the player's own φ
particles that explained the move, repaired where needed), and is weighted by the
model's probability of it (the observers read the player's moves: that is what
bluffing plays on); and no particle is checked against the
player's view, which most of them contradict. An opponent's move must look in a ψ
particle as it looked to the player: its public part in the games here (a card shown, a
ticket, a vote); where the player sees more of it than the others (a card passed to it),
ψ keeps that too, a named approximation. ψ reads only the player's φ particles and
observations, never the true state.

Everything random is drawn from the generator given to the filter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from spyglass.rng import rand_below, rand_float
from spyglass.search.sampled.pool import MAX_SAMPLE_TRIES

MODELS = ("search", "playout")

#: A policy model: (state, actor, legal action ids) -> probabilities over them.
PolicyModel = Callable[[np.ndarray, int, list[int]], np.ndarray]

#: A game's particle repair: (particle before the move, observation, seat, rng) -> float.
#: It edits the particle so that some legal move of the actor gives the seat the
#: observation (redrawing chance the observation reveals, moving the hidden cards it
#: contradicts, keeping the rest) and returns the importance correction of the
#: particle's weight (> 0), or returns 0.0 when it cannot (see
#: ``spyglass.games.cheat.repair`` and the module docstring).
Repair = Callable[[np.ndarray, int, int, np.ndarray], float]


class WeightedStates(NamedTuple):
    """A belief a search samples determinizations from: full states and their weights."""

    states: np.ndarray
    weights: np.ndarray


class ParticleFilter:
    """``n`` weighted particles of ``seat``'s belief in one game (module docstring).

    ``kernel``: the game's :class:`~spyglass.search.protocol.Kernel`; ``policy``: the
    opponent model (None: uniform over legal actions); ``rng``: a generator state
    (:mod:`spyglass.rng`), shared with the caller so one seed fixes everything.
    """

    def __init__(self, kernel, state_size: int, view_size: int, seat: int, n: int,
                 rng: np.ndarray, policy: PolicyModel | None = None,
                 resample_below: float = 0.5, fresh: float = 0.1,
                 repair: Repair | None = None, repair_weights: bool = True) -> None:
        if not isinstance(n, int) or n < 1:
            raise ValueError(f"the number of particles must be a positive integer, not {n!r}")
        if not 0.0 <= resample_below <= 1.0:
            raise ValueError(f"resample_below must lie in [0, 1], not {resample_below!r}")
        if not 0.0 <= fresh <= 1.0:
            raise ValueError(f"fresh must lie in [0, 1], not {fresh!r}")
        self.k = kernel
        self.seat = seat
        self.n = n
        self.rng = rng
        self.policy = policy
        self.resample_below = resample_below
        self.fresh = fresh
        self.repair = repair
        self.repair_weights = repair_weights
        #: the repair module's weight of a particle that needs no repair, if it has one
        self.kept_weight = _kept_weight_of(repair)
        self.state_size = state_size
        self.particles = np.zeros((n, state_size), dtype=np.int64)
        self.weights = np.full(n, 1.0 / n)
        #: whose observations each particle must explain (φ: the seat; ψ: an opponent)
        self.observer = np.full(n, seat, dtype=np.int64)
        self._v = np.zeros(view_size, dtype=np.int64)
        #: set by a ψ that follows this filter: record how seats 0..key_seats-1 saw the
        #: seat's own last move (``own_keys``), from a particle that explained it
        self.key_seats = 0
        self.own_keys: np.ndarray | None = None
        self.resamples = 0
        self.collapses = 0
        self.repairs = 0
        self.repairs_failed = 0
        self.ess_history: list[float] = []

    #: whether the seat's own moves are weighted by the opponent model (ψ: the observers
    #: read them) rather than known
    models_seat = False

    @property
    def belief(self) -> WeightedStates:
        """The particles and their weights, for a search to sample from."""
        return WeightedStates(self.particles, self.weights)

    # -- building ---------------------------------------------------------------
    def _draw(self, view: np.ndarray, out: np.ndarray) -> int:
        """Write a fresh particle into ``out``; return its observer."""
        for _ in range(MAX_SAMPLE_TRIES):
            if self.k.sample(view, self.seat, self.rng, out):
                return self.seat
        raise RuntimeError(f"the game's sampler found no state consistent with seat "
                           f"{self.seat}'s view in {MAX_SAMPLE_TRIES} tries")

    def reset(self, view: np.ndarray) -> None:
        """Draw every particle afresh from ``view`` (uniform weights)."""
        view = np.ascontiguousarray(view, dtype=np.int64)
        for i in range(self.n):
            self.observer[i] = self._draw(view, self.particles[i])
        self.weights[:] = 1.0 / self.n

    # -- following the game -------------------------------------------------------
    def ess(self) -> float:
        """The effective sample size of the normalised weights."""
        w = self.weights
        total = w.sum()
        return float(total * total / np.dot(w, w)) if total > 0 else 0.0

    def consistent(self, i: int, view: np.ndarray) -> bool:
        """Whether particle ``i`` shows ``seat`` exactly ``view`` (the game's check)."""
        self.k.view(self.particles[i], self.seat, self._v)
        return bool(np.array_equal(self._v, view))

    def _target(self, i: int, obs: int, actor: int) -> tuple[int, int]:
        """(seat, key): particle ``i`` must show ``seat`` the move as ``key``."""
        return self.seat, obs

    def update(self, obs: int, actor: int, view: np.ndarray) -> None:
        """``actor`` moved; ``seat`` saw ``obs`` and now has ``view`` (``Agent.observe``)."""
        k = self.k
        view = np.ascontiguousarray(view, dtype=np.int64)
        cache: dict[int, tuple[list[int], np.ndarray]] = {}
        self.own_keys = None
        for i in range(self.n):
            if self.weights[i] <= 0.0:
                continue
            s = self.particles[i]
            if k.actor(s) != actor:
                self.weights[i] = 0.0
                continue
            seat, key = self._target(i, obs, actor)
            legal = [int(k.legal_action(s, q)) for q in range(k.n_legal(s))]
            cons = [q for q, a in enumerate(legal) if k.observe(s, a, seat) == key]
            if cons and self.kept_weight is not None and self.repair_weights:
                # a particle that explains the observation is weighted by the game's
                # block likelihood too, so repaired and kept particles are comparable
                self.weights[i] *= float(self.kept_weight(s, key, seat))
                if self.weights[i] <= 0.0:
                    continue
            if not cons and self.repair is not None:
                # the observation contradicts the particle (revealed chance or cards):
                # let the game edit just that part; its importance correction
                # (gamma(x') / sum of gamma(x) K(x -> x') over the contradicted x that
                # the repair could have turned into x') multiplies the weight
                fix = float(self.repair(s, key, seat, self.rng))
                if fix > 0.0:
                    legal = [int(k.legal_action(s, q)) for q in range(k.n_legal(s))]
                    cons = [q for q, a in enumerate(legal) if k.observe(s, a, seat) == key]
                if cons:
                    self.repairs += 1
                    if self.repair_weights:
                        self.weights[i] *= fix
                else:
                    self.repairs_failed += 1
            if not cons:
                self.weights[i] = 0.0
                continue
            own = actor == self.seat and not self.models_seat
            if own or len(legal) == 1 or self.policy is None:
                # own move (one consistent action), a forced move, or uniform play: the
                # likelihood is the share of consistent moves
                like = len(cons) / len(legal) if not own else 1.0
                pick = cons[rand_below(self.rng, len(cons))]
            else:
                akey = int(k.info_key(s, actor))
                if akey not in cache:
                    cache[akey] = (legal, self.policy(s, actor, legal))
                pol_legal, pi = cache[akey]
                if pol_legal != legal:  # the actor's legal set is part of its information
                    pi = self.policy(s, actor, legal)
                pc = pi[cons]
                like = float(pc.sum())
                pick = cons[_draw_index(pc, like, self.rng)]
            if self.key_seats and actor == self.seat and self.own_keys is None:
                self.own_keys = np.array([k.observe(s, legal[pick], j)
                                          for j in range(self.key_seats)])
            k.apply(s, legal[pick])
            self.weights[i] *= like
            if not self.consistent(i, view):
                self.weights[i] = 0.0
        self._maintain(view)

    def _maintain(self, view: np.ndarray) -> None:
        total = self.weights.sum()
        if total <= 0.0:
            self.collapses += 1
            self.reset(view)
            self.ess_history.append(float(self.n))
            return
        self.weights /= total
        ess = self.ess()
        self.ess_history.append(ess)
        # a particle ruled out by a hard constraint is replaced at once, so every particle
        # is always consistent with the view (the search never draws a dead one anyway)
        if ess < self.resample_below * self.n or not self.weights.all():
            self._resample(view)

    def _resample(self, view: np.ndarray) -> None:
        """Systematic resampling, then a ``fresh`` share redrawn from ``view``."""
        self.resamples += 1
        n = self.n
        n_fresh = int(round(self.fresh * n))
        n_keep = n - n_fresh
        out = np.zeros_like(self.particles)  # fields a sampler leaves unwritten stay 0
        if n_keep:
            cum = np.cumsum(self.weights)
            cum[-1] = 1.0
            u0 = rand_float(self.rng) / n_keep
            idx = np.searchsorted(cum, u0 + np.arange(n_keep) / n_keep, side="right")
            idx = np.minimum(idx, n - 1)
            out[:n_keep] = self.particles[idx]
            self.observer[:n_keep] = self.observer[idx]
        for i in range(n_keep, n):
            self.observer[i] = self._draw(view, out[i])
        self.particles = out
        self.weights[:] = 1.0 / n


class PublicParticleFilter(ParticleFilter):
    """ψ: ``n`` weighted states consistent with the public history (module docstring).

    ``phi``: the player's own filter, the source of fresh particles (an opponent's view
    of one of its particles, resampled by the game's sampler) and of how the others saw
    the player's own moves (``phi.own_keys``); ``n_players``: the seats. Call
    :meth:`update` after ``phi`` has followed the move.
    """

    models_seat = True

    def __init__(self, phi: ParticleFilter, n_players: int, n: int, rng: np.ndarray,
                 policy: PolicyModel | None = None, resample_below: float = 0.5,
                 fresh: float = 0.1, repair: Repair | None = None) -> None:
        if n_players < 2:
            raise ValueError("self-determinization needs an opponent: a game of 2+ seats")
        super().__init__(phi.k, phi.state_size, phi._v.shape[0], phi.seat, n, rng, policy,
                         resample_below, fresh, repair, phi.repair_weights)
        self.phi = phi
        phi.key_seats = n_players
        self.n_players = n_players
        self._ov = np.zeros_like(phi._v)
        self._own_keys: np.ndarray | None = None

    def _draw(self, view: np.ndarray, out: np.ndarray) -> int:
        """A state an opponent could hold possible: its view of one of φ's particles,
        resampled (``view``, the player's own, is not used: ψ must not rely on it)."""
        k, phi = self.k, self.phi
        cum = np.cumsum(phi.weights)
        for _ in range(MAX_SAMPLE_TRIES):
            d = min(int(np.searchsorted(cum, rand_float(self.rng) * cum[-1], side="right")),
                    phi.n - 1)
            j = rand_below(self.rng, self.n_players - 1)
            j += j >= self.seat
            k.view(phi.particles[d], j, self._ov)
            if k.sample(self._ov, j, self.rng, out):
                return j
        raise RuntimeError(f"the game's sampler found no state consistent with an "
                           f"opponent's view in {MAX_SAMPLE_TRIES} tries")

    def consistent(self, i: int, view: np.ndarray) -> bool:
        """ψ's particles may contradict the player's view: no check beyond the moves."""
        return True

    def _target(self, i: int, obs: int, actor: int) -> tuple[int, int]:
        if actor != self.seat:
            return self.seat, obs  # the public part of an opponent's move, as seen
        j = int(self.observer[i])
        return j, int(self._own_keys[j])

    def update(self, obs: int, actor: int, view: np.ndarray) -> None:
        """Call after ``phi`` has followed the same move."""
        self._own_keys = self.phi.own_keys if actor == self.seat else None
        if actor == self.seat and self._own_keys is None:
            # no φ particle explained the own move (φ was redrawn): start ψ afresh
            self.collapses += 1
            self.reset(view)
            return
        super().update(obs, actor, view)


def _kept_weight_of(repair: Repair | None):
    """``kept_weight(s, obs, j)`` of the module that defines ``repair``, or None."""
    if repair is None:
        return None
    import sys

    return getattr(sys.modules.get(getattr(repair, "__module__", ""), None), "kept_weight",
                   None)


def _draw_index(p: np.ndarray, total: float, rng: np.ndarray) -> int:
    x = rand_float(rng) * total
    for q in range(len(p) - 1):
        x -= p[q]
        if x < 0.0:
            return q
    return len(p) - 1


def search_policy(search, view_size: int, epsilon: float, rng: np.ndarray,
                  kernel) -> PolicyModel:
    """The ``"search"`` opponent model: a small SO-ISMCTS (``search``, an
    :class:`~spyglass.search.sampled.driver.ISMCTSSearch`) from the actor's own view in the
    particle; its root visit shares mixed with ``epsilon`` of uniform."""
    if not 0.0 <= epsilon <= 1.0:
        raise ValueError(f"epsilon must lie in [0, 1], not {epsilon!r}")
    v = np.zeros(view_size, dtype=np.int64)

    def policy(state: np.ndarray, actor: int, legal: list[int]) -> np.ndarray:
        m = len(legal)
        if m == 1:
            return np.ones(1)
        kernel.view(state, actor, v)
        res = search.search(v, actor, rng)
        stats = res.action_stats()
        visits = np.array([stats.get(a, (0, 0, 0.0))[0] for a in legal], dtype=np.float64)
        tot = visits.sum()
        base = visits / tot if tot > 0 else np.full(m, 1.0 / m)
        return (1.0 - epsilon) * base + epsilon / m

    return policy
