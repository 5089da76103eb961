"""MTISMCTSBot: many-tree ISMCTS with particle-filter inference (Cowling et al. 2015, §IV-V).

Every decision is a search (:class:`~spyglass.search.mtismcts.MTISMCTS`) from the start
of the current round of moves (the proposal, the first vote, the first mission card),
so that the earlier voters' hidden votes are chosen by their own trees. Determinizations
are sampled from the bot's belief φ over spy configurations. After each search the bot
walks its decision tree along what it then observes and updates φ by eq. 2 of Cowling et al. 2015
(``inference=True``); with ``inference=False`` only hard constraints (a mission with
``f`` fail cards had at least ``f`` spies) change φ. A spy knows the configuration.

Self-determinization (Cowling et al. 2015, §VI, :mod:`spyglass.search.selfdet`): ``bluff`` picks
the variant, ``trueonly`` (default), ``pure``, ``split``, ``twostep`` or ``bluff``; all
but the first keep a second belief ψ (the bot's model of what the others have inferred:
uniform over every configuration at the start whatever the bot's role, constrained by
public mission results only, and updated by eq. 2 from the merged tree). ``t1``: the
self-determinizing iterations of SPLIT/TWOSTEP/BLUFF (default half of ``iterations``).
``psi_counts``: ``"all"`` (default, the paper's merged tree: visits summed over every
tree, the decision tree included) or ``"phase1"`` (only the self-determinizing phase's
visits; the departure that the runs recorded before 2026-11-27 used).
The variants are meant for spies, who have something to hide; resistance members can
use them too, but they only spend iterations on configurations they know are false.

Parameters: ``iterations`` per decision (default 20 000, as in Cowling et al. 2015, §VII) or
``seconds`` per decision; ``bandit`` "ucbt" (UCB-Tuned, default) or "ucb1" with
exploration constant ``c`` (default 0.7); ``inference``; ``bluff``; ``t1``; ``seed``
(default: drawn from the referee's seeded ``self.rng``, so games replay exactly);
``workers`` (default 1): root-parallel search over that many threads
(:mod:`spyglass.search.root_parallel`; deterministic per seed and worker count);
``playout``: ``"random"`` (default, the paper's uniformly random playouts) or
``"rules"`` (a departure: the rule-based policy of
:mod:`spyglass.games.resistance.rule_playout`, issue 31).
``psi_model`` (with ``model="learned"``): ``"search"`` (default, the paper's: ψ updated
by eq. 2 from the merged tree) or ``"learned"`` (a departure, issue 31: ψ, the bot's
model of what the others have inferred, updated by the learned per-opponent rates from
the public record alone, the bot's own moves judged by the rates of the pool of players).
``expert``: expert rules that veto the search's choice at the decision (a departure,
issue 31; Taylor 2014, §4.2 lists them among the rules most 2012 competition bots share):
``"none"`` (default); ``"lead"``: a leader is always on its own team; ``"lead_vote"``:
also, a spy approves every team holding a spy; ``"spy"``: also, a spy leader takes no
other spy when it can; ``"lead_nospy"``: ``"lead"`` and that last rule, without the vote
rule. The search runs as usual; the bot then plays the most visited
action the rules allow (with ``bluff=bluff``, eq. 3 among the allowed actions).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.knowledge import spy_marginals
from spyglass.games.resistance.public_track import PublicTrack
from spyglass.games.resistance.search_kernel import (
    check_playout,
    fails_constraint,
    search_spec,
)
from spyglass.games.resistance.tables import mask_to_seats, seats_to_mask
from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.learned_likelihood import LearnedLikelihood
from spyglass.resistance.bots.registry import register
from spyglass.rng import make_rng
from spyglass.search.bandits import DEFAULT_BANDIT, DEFAULT_C, bandit_code
from spyglass.search.inference import Belief, MergedTreeWalk, TreeWalk
from spyglass.search.mtismcts import MTISMCTS, SearchResult
from spyglass.search.root_parallel import (
    MAX_WORKERS,
    ParallelMergedTreeWalk,
    ParallelSearchResult,
    ParallelTreeWalk,
    RootParallelMTISMCTS,
)
from spyglass.search.selfdet import (
    PSI_COUNTS,
    bluff_choice,
    check_variant,
    plan_phases,
    uniform_psi,
)

DEFAULT_ITERATIONS = 20_000
#: Opponent models of the inference: ``search`` (eq. 2 of Cowling et al. 2015, the
#: opponents' own trees) or ``learned`` (per-opponent rates counted across games,
#: :mod:`spyglass.resistance.bots.learned_likelihood`; a departure, issue 31).
MODELS = ("search", "learned")
#: Who self-determinizes with ``bluff``: ``both`` roles (default, as before) or only a
#: ``spy`` (a resistance member then searches TRUEONLY: it has nothing to hide).
BLUFF_ROLES = ("both", "spy")
#: How ψ is updated (``psi_model``): eq. 2 from the merged tree, or the learned rates.
PSI_MODELS = ("search", "learned")
#: Expert-rule sets (``expert``), each of the first four including the ones before it.
EXPERT = ("none", "lead", "lead_vote", "spy", "lead_nospy")
_DIGITS = 5  # rounding of probabilities in the game record


@register("mtismcts")
class MTISMCTSBot(Bot):
    """MT-ISMCTS for both roles: particle-filter inference, optional bluffing (bluff=)."""

    def __init__(
        self,
        *,
        iterations: int | None = None,
        seconds: float | None = None,
        bandit: str = DEFAULT_BANDIT,
        c: float = DEFAULT_C,
        inference: bool = True,
        bluff: str = "trueonly",
        t1: int | None = None,
        seed: int | None = None,
        workers: int = 1,
        psi_counts: str = "all",
        playout: str = "random",
        model: str = "search",
        bluff_roles: str = "both",
        psi_model: str = "search",
        expert: str = "none",
    ) -> None:
        super().__init__()
        if type(workers) is not int or not 1 <= workers <= MAX_WORKERS:
            raise ValueError(f"workers must be an integer from 1 to {MAX_WORKERS}, "
                             f"not {workers!r}")
        if workers > 1 and iterations is not None and iterations < workers:
            raise ValueError(f"iterations ({iterations}) must be at least workers ({workers})")
        self.workers = workers
        if iterations is not None and seconds is not None:
            raise ValueError("give mtismcts either iterations or seconds, not both")
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None and (
            isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1
        ):
            raise ValueError(f"iterations must be a positive integer, not {iterations!r}")
        if seconds is not None and (
            isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or seconds <= 0
        ):
            raise ValueError(f"seconds must be a positive number, not {seconds!r}")
        bandit_code(bandit)
        if isinstance(c, bool) or not isinstance(c, (int, float)) or c < 0:
            raise ValueError(f"the exploration constant c must be a number >= 0, not {c!r}")
        if not isinstance(inference, bool):
            raise ValueError(f"inference must be True or False, not {inference!r}")
        bluff = check_variant(bluff)
        self.playout = check_playout(playout)
        if model not in MODELS:
            raise ValueError(f"model must be one of {', '.join(MODELS)}, not {model!r}")
        self.model = model
        if bluff_roles not in BLUFF_ROLES:
            raise ValueError(f"bluff_roles must be one of {', '.join(BLUFF_ROLES)}, "
                             f"not {bluff_roles!r}")
        self.bluff_roles = bluff_roles
        if psi_model not in PSI_MODELS:
            raise ValueError(f"psi_model must be one of {', '.join(PSI_MODELS)}, "
                             f"not {psi_model!r}")
        if psi_model == "learned" and model != "learned":
            raise ValueError("psi_model=learned needs model=learned (the learned rates)")
        self.psi_model = psi_model
        if expert not in EXPERT:
            raise ValueError(f"expert must be one of {', '.join(EXPERT)}, not {expert!r}")
        self.expert = EXPERT.index(expert)
        if psi_counts not in PSI_COUNTS:
            raise ValueError(f"psi_counts must be one of {', '.join(PSI_COUNTS)}, "
                             f"not {psi_counts!r}")
        if t1 is not None:
            if isinstance(t1, bool) or not isinstance(t1, int) or t1 < 0:
                raise ValueError(f"t1 must be a non-negative integer, not {t1!r}")
            if iterations is None:
                raise ValueError("t1 counts iterations: give iterations, not seconds")
            if t1 > iterations:
                raise ValueError(f"t1 ({t1}) cannot exceed iterations ({iterations})")
            if bluff not in ("split", "twostep", "bluff"):
                raise ValueError(f"t1 is for split, twostep and bluff, not {bluff}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError(f"seed must be an integer, not {seed!r}")
        self.iterations = iterations
        self.seconds = seconds
        self.bandit = bandit
        self.c = float(c)
        self.inference = inference
        self.bluff = self.variant = bluff
        self.t1 = t1
        self.seed = seed
        self.params: dict[str, Any] = {
            "iterations": iterations,
            "seconds": seconds,
            "bandit": bandit,
            "c": self.c,
            "inference": inference,
            "bluff": bluff,
            "t1": t1,
            "seed": seed,
        }
        if workers != 1:  # absent at 1, so records of single-worker games are unchanged
            self.params["workers"] = workers
        if playout != "random":  # absent by default, so earlier records are unchanged
            self.params["playout"] = playout
        if model != "search":
            self.params["model"] = model
        if bluff_roles != "both":
            self.params["bluff_roles"] = bluff_roles
        if psi_model != "search":
            self.params["psi_model"] = psi_model
        if expert != "none":
            self.params["expert"] = expert
        self.psi_counts = psi_counts
        if bluff != "trueonly":  # ψ exists only for the self-determinizing variants
            self.params["psi_counts"] = psi_counts

    # --- set-up ------------------------------------------------------------------------
    def on_game_revealed(self, players: tuple[int, ...], spies: frozenset[int]) -> None:
        n = len(players)
        self.spec = search_spec(n, self.playout)
        self.configs = self.spec.dets[:, 0].copy()
        if self.workers > 1:
            self.searcher = RootParallelMTISMCTS(self.spec, workers=self.workers,
                                                 bandit=self.bandit, c=self.c)
        else:
            self.searcher = MTISMCTS(self.spec, bandit=self.bandit, c=self.c)
        seed = self.seed if self.seed is not None else self.rng.getrandbits(63)
        self.search_rng = make_rng(seed)
        self.spy_mask = seats_to_mask(spies) if self.spy else 0  # a spy knows the spies
        if self.spy:
            weights = self.configs == seats_to_mask(spies)
        else:
            weights = (self.configs >> self.seat) & 1 == 0
        self.belief_state = Belief(weights.astype(np.float64))
        # This game's variant: TRUEONLY for a resistance member when only spies bluff.
        self.variant = self.bluff if self.spy or self.bluff_roles == "both" else "trueonly"
        # ψ knows nothing private: uniform whatever this bot's role (Cowling et al. 2015, §VI).
        self.psi = Belief(uniform_psi(len(self.configs))) if self.variant != "trueonly" else None
        self.psi_walk: MergedTreeWalk | None = None
        self.track: PublicTrack | None = None
        self.walk: TreeWalk | None = None
        self.last: SearchResult | None = None
        self.learned = (LearnedLikelihood(self.memory, self.configs, self.game.names, self.seat)
                        if self.model == "learned" else None)
        # ψ by the learned rates: the public's view, so no seat is "this bot" (seat -1);
        # it only reads the counts (self.learned learns them, once per game).
        self.psi_learned = (LearnedLikelihood(self.memory, self.configs, self.game.names, -1)
                            if self.psi is not None and self.psi_model == "learned" else None)
        self.my_card = 0
        self.skip = 0
        self.trajectory: list[dict] = []
        self.searches = 0
        self.iterations_done = 0
        self._record("start")

    def on_mission_attempt(self, mission: int, attempt: int, leader: int) -> None:
        if self.track is None:
            self.track = PublicTrack(
                self.game.n_players, self.seat, leader, self.game.rules.flags
            )
        self.track.check(mission, attempt, leader)

    # --- decisions ---------------------------------------------------------------------
    def _search(self, allowed=None) -> int:
        """Search the current round; return the chosen legal-action index (one that
        ``allowed(index)`` accepts, if given and any does)."""
        assert self.track is not None
        chain = self.track.chain()
        phi = self.belief_state.phi
        phases = plan_phases(self.variant, phi, None if self.psi is None else self.psi.phi,
                             iterations=self.iterations, seconds=self.seconds,
                             t1=self.t1 if self.variant != "trueonly" else None,
                             psi_counts=self.psi_counts)
        result = self.searcher.search(
            self.track.root(),
            phi,
            self.search_rng,
            searcher=self.seat,
            chain=chain,
            phases=phases,
            track=self._eq2(),
        )
        self.last = result
        parallel = isinstance(result, ParallelSearchResult)
        tree_walk = ParallelTreeWalk if parallel else TreeWalk
        merged_walk = ParallelMergedTreeWalk if parallel else MergedTreeWalk
        self.walk = tree_walk(result) if self._eq2() else None
        self.psi_walk = (merged_walk(result)
                         if self.psi is not None and self.psi_learned is None else None)
        # The round's earlier hidden moves are the chain to the decision node: the walk
        # starts below them, so their steps are skipped when the round is revealed.
        self.skip = len(chain)
        self.searches += 1
        self.iterations_done += result.iterations
        if allowed is None or allowed(result.action_index):
            if self.variant == "bluff":
                return bluff_choice(result.action_stats(), result.merged_action_visits())
            return result.action_index
        stats = {a: v for a, v in result.action_stats().items() if allowed(a) and v[0] > 0}
        if not stats:  # no allowed action was visited: the first allowed one
            return next(a for a in range(K.n_legal(self.track.s)) if allowed(a))
        if self.variant == "bluff":
            merged = result.merged_action_visits()
            return bluff_choice(stats, {a: merged.get(a, 0) for a in stats})
        return max(stats, key=lambda a: (stats[a][0], -a))

    def _eq2(self) -> bool:
        """Whether φ is updated by eq. 2 from the search's counts."""
        return self.inference and not self.spy and self.learned is None

    def _learned(self, likelihood) -> None:
        """Bayes update of φ by the learned opponent model (a resistance member's)."""
        if self.inference and not self.spy:
            self.belief_state.reweight(likelihood)

    def _team_rule(self, start: int, count: int):
        """The expert rules' test of a proposal's action index (None: no rule)."""
        if not self.expert:
            return None
        me = 1 << self.seat
        others = 0  # the other spies, for a spy leader under "spy" (when a team can skip them)
        if self.expert >= EXPERT.index("spy") and self.game.n_players - K.popcount(
                self.spy_mask) + 1 >= count:
            others = self.spy_mask & ~me

        def allowed(i: int) -> bool:
            team = int(K.TEAMS[start + i])
            return bool(team & me) and not team & others

        return allowed

    def select(self, players: tuple[int, ...], count: int) -> list[int]:
        s = self.track.s
        start = int(K.TEAM_START[self.game.n_players, count])
        team = int(K.TEAMS[start + self._search(self._team_rule(start, count))])
        assert K.popcount(team) == count and s[K.PHASE] == K.PROPOSE
        return list(mask_to_seats(team))

    def vote(self, team: tuple[int, ...]) -> bool:
        rule = None
        if (EXPERT.index("lead_vote") <= self.expert <= EXPERT.index("spy")
                and seats_to_mask(team) & self.spy_mask):
            rule = lambda i: i == 1  # noqa: E731 (index 1: approve)
        return bool(self._search(rule))

    def sabotage(self) -> bool:
        self.my_card = self._search()
        return bool(self.my_card)

    # --- observations ------------------------------------------------------------------
    def _walk(self, steps) -> None:
        steps, self.skip = steps[self.skip :], 0
        if self.walk is not None:
            self.walk.walk(steps, self.belief_state)
        if self.psi_walk is not None:
            self.psi_walk.walk(steps, self.psi)

    def on_team_selected(self, leader: int, team: tuple[int, ...]) -> None:
        self._walk(self.track.propose(seats_to_mask(team)))
        if self.learned is not None:
            self._learned(self.learned.proposal(leader, team))
        if self.psi_learned is not None:
            self.psi.reweight(self.psi_learned.proposal(leader, team))
        self._record("proposal")

    def on_vote_complete(self, votes: tuple[bool, ...]) -> None:
        if self.learned is not None:
            prop = self.game.proposals[-1]  # this vote's proposal (recorded before it)
            self._learned(self.learned.votes(prop.team, votes, prop.attempt))
            if self.psi_learned is not None:
                self.psi.reweight(self.psi_learned.votes(prop.team, votes, prop.attempt))
        self._walk(self.track.votes(votes))
        self._record("votes")

    def on_mission_complete(self, fails: int) -> None:
        team = int(self.track.s[K.TEAM])
        mine = self.my_card if (team >> self.seat) & 1 else 0
        mission_team = tuple(mask_to_seats(team))
        # Algorithm 7: the hard constraint first, then the inference step.
        keep = fails_constraint(self.configs, team, fails)
        self.belief_state.constrain(keep)
        if self.psi is not None:
            self.psi.constrain(keep)  # public: the others see the fail count too
        if self.learned is not None:
            self._learned(self.learned.mission(mission_team, fails, mine))
        if self.psi_learned is not None:  # the public does not know this bot's card
            self.psi.reweight(self.psi_learned.mission(mission_team, fails, 0))
        self._walk(self.track.mission(fails, mine))
        self.my_card = 0
        self._record("mission")

    def on_game_complete(self, resistance_won: bool, spies: frozenset[int]) -> None:
        if self.learned is not None:
            self.learned.learn(self.game, spies)

    # --- beliefs -----------------------------------------------------------------------
    def belief(self) -> np.ndarray:
        """φ over spy configurations, in the order of ``tables.spy_configurations(n)``."""
        return self.belief_state.phi

    def spy_marginals(self) -> np.ndarray:
        """Each seat's probability of being a spy under φ (own seat: 0 or 1)."""
        return spy_marginals(self.configs, self.game.n_players, self.belief_state.phi)

    def suspicion(self) -> dict[int, float]:
        m = self.spy_marginals()
        return {p: float(m[p]) for p in self.others()}

    def _record(self, kind: str) -> None:
        entry = {
            "event": len(self.trajectory),
            "type": kind,
            "phi": [round(float(x), _DIGITS) for x in self.belief_state.phi],
            "marginals": [round(float(x), _DIGITS) for x in self.spy_marginals()],
        }
        if self.psi is not None:
            entry["psi"] = [round(float(x), _DIGITS) for x in self.psi.phi]
        self.trajectory.append(entry)

    def record_extra(self) -> dict | None:
        """The belief trajectory and search totals, for the game record (key "extra")."""
        if not hasattr(self, "trajectory"):
            return None
        return {
            "configs": [int(c) for c in self.configs],
            "belief": self.trajectory,
            "searches": self.searches,
            "iterations": self.iterations_done,
        }
