"""Marsh's BayesAgent: Bayesian spy probabilities, behaviour tracking, friendships, and a
spy that keeps the resistance as uncertain as it can."""

from __future__ import annotations

from itertools import combinations

import numpy as np

from spyglass.games.resistance.tables import WINS_NEEDED, mask_to_seats
from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.beliefs import all_teams, count_distribution
from spyglass.resistance.bots.configurations import Configurations
from spyglass.resistance.bots.expert_rules import is_last_attempt, must_hold_spy_without, spies_on
from spyglass.resistance.bots.registry import register

#: Chance that a spy on mission m (1-5) sabotages it: spies often let the first mission
#: pass to stay hidden and grow bolder as the game goes on; a spy always sabotages when
#: one more failure wins.
BETRAY_BY_MISSION = (0.6, 0.8, 0.85, 0.9, 1.0)


class Perspective:
    """Marsh's ResistancePerspective: spy probabilities as one resistance member sees them.

    ``spy_prob`` starts at spies / (players − 1) for everyone but the owner (0). After a
    mission, each player's probability is multiplied by P(fails | that player is a spy)
    — a sum over every spy combination and every choice of which of its spies on the
    team sabotaged (eq. 4 of Marsh, §4.1), each spy sabotaging with its betrayal
    probability — then all are renormalised to sum to the number of spies (Marsh sets
    the evidence P(fails) to 1 and normalises instead).
    """

    def __init__(self, n_players: int, n_spies: int, owner: int) -> None:
        self.n_players, self.n_spies, self.owner = n_players, n_spies, owner
        self.bits = Configurations.excluding(n_players, (owner,)).bits  # (combos, seats)
        self.spy_prob = np.full(n_players, n_spies / (n_players - 1))
        self.spy_prob[owner] = 0.0

    def copy(self) -> Perspective:
        other = Perspective.__new__(Perspective)
        other.__dict__.update(self.__dict__)
        other.spy_prob = self.spy_prob.copy()
        return other

    def likelihoods(self, teams: np.ndarray, fails: np.ndarray, betray: np.ndarray) -> np.ndarray:
        """P(``fails[t]`` fail cards | k is a spy) for each team row ``t`` and seat ``k``.

        ``teams`` is a (teams, seats) bool array; ``betray`` each seat's probability of
        sabotaging as a spy on this mission. Vectorised over teams and seats.
        """
        bits, sp = self.bits, self.spy_prob
        factor = np.where(bits, sp[None, :], 1.0 - sp[None, :])
        factor[:, self.owner] = 1.0
        # Product over every seat but k (k's spy probability is set to 1 for the question).
        ones = np.ones((len(bits), 1))
        before = np.cumprod(np.hstack([ones, factor[:, :-1]]), axis=1)
        after = np.cumprod(np.hstack([ones, factor[:, :0:-1]]), axis=1)[:, ::-1]
        without_k = before * after * bits  # zero for combos where k is not a spy
        size = int(teams[0].sum())
        members = np.array([np.flatnonzero(t) for t in teams])  # (teams, size)
        # Each combo's chance of exactly fails[t] sabotages among its spies on team t.
        probs = np.where(_team_bits(bits, members), betray[members][:, None, :], 0.0)
        dist = count_distribution(probs.reshape(-1, size)).reshape(len(teams), len(bits), -1)
        p_fails = np.take_along_axis(
            dist, np.minimum(fails, size)[:, None, None].repeat(len(bits), 1), axis=2
        )[:, :, 0]
        p_fails = np.where((fails > size)[:, None], 0.0, p_fails)
        return p_fails @ without_k

    def posterior(self, lik: np.ndarray) -> np.ndarray:
        """Rows of updated spy probabilities from rows of likelihoods (teams, seats)."""
        post = self.spy_prob[None, :] * lik
        post[:, self.owner] = 0.0
        return np.vstack([_normalise(row, self.n_spies, self.spy_prob) for row in post])

    def update(self, team, fails: int, betray: np.ndarray) -> None:
        """Bayes' rule after a mission with ``fails`` fail cards."""
        row = np.zeros((1, self.n_players), dtype=bool)
        row[0, list(team)] = True
        lik = self.likelihoods(row, np.array([fails]), betray)
        self.spy_prob = self.posterior(lik)[0]


def _team_bits(bits: np.ndarray, members: np.ndarray) -> np.ndarray:
    """(teams, combos, size): whether each team member is a spy in each combination."""
    return np.transpose(bits[:, members], (1, 0, 2))


def _normalise(row: np.ndarray, total: float, fallback: np.ndarray) -> np.ndarray:
    """Scale to sum ``total`` with no value above 1 (capped values stay at 1)."""
    if not row.sum() > 0:
        return fallback.copy()
    row = row.astype(float).copy()
    capped = np.zeros(len(row), dtype=bool)
    for _ in range(len(row)):
        free = ~capped
        rest = total - capped.sum()
        s = row[free].sum()
        if s <= 0:
            break
        row[free] *= rest / s
        over = free & (row > 1.0)
        if not over.any():
            break
        row[over] = 1.0
        capped |= over
    return np.minimum(row, 1.0)


def _certainty_cost(spy_prob: np.ndarray, owner: int, even: float) -> np.ndarray:
    """Eq. 5 for one perspective: Σ_k≠owner (spy_prob(k) − spies/(players−1))²; rows OK."""
    d = np.atleast_2d(spy_prob) - even
    d[:, owner] = 0.0
    return (d**2).sum(axis=1)


@register("bayesagent")
class BayesAgent(Bot):
    """Bayesian inference over spy/sabotage combinations (Marsh, §4.1).

    Resistance: spy probabilities by Bayes' rule (:class:`Perspective`), combined with
    three tracked behaviours into each player's "spyness" — *helpedSpies* (voted yes for
    a sabotaged mission or no for a clean one, against the other cases), *behavedLikeSpy*
    (led a team without itself; voted no on the game's very first proposal; voted yes,
    from outside, on a team as large as the resistance), *behavedLikeResistance* (voted
    against a team it was on, over all its votes) — and a friendship probability per
    pair, raised by every team a player nominates or votes for with the other on it.
    A spy combination's value is the product of its players' spyness and of their
    pairwise friendships. It nominates the least "spyish" players outside the top
    combination and approves only teams with nobody from it.

    Spy: keeps every resistance member's perspective; nominates, among all teams with
    enough spies to fail the mission, the one that — if all its spies sabotaged — leaves
    the resistance perspectives closest to even (eq. 5, the certainty-minimising spy);
    votes yes exactly for teams with enough spies to fail the mission; sabotages unless a
    simulated all-spies sabotage would raise some spy's probability to 1 in some
    perspective.

    Choices where Marsh is silent: the betrayal probability is one number for every
    player, by mission (:data:`BETRAY_BY_MISSION`; 1.0 when one more failure wins), not
    learnt per player; each behaviour ratio x scales spyness by
    (1 + ``weight`` · (x − neutral)), neutral 0.5 for helpedSpies and 0 for the others,
    a behaviour never observed counting as neutral; friendship of a and b is
    (1 + supports of one by the other) / (2 + all supports by either), a support being a
    nomination or yes vote. Two expert additions: with ``hammer`` (a switch, on by
    default) the resistance approves the fifth proposal (rejecting it loses the game
    outright); and, always on, a spy sabotages whenever that failure wins the game.
    "Team as large as the resistance" generalises to "team without the voter bound to
    hold a spy".
    """

    def __init__(self, *, weight: float = 0.5, hammer: bool = True) -> None:
        super().__init__()
        self.weight = weight
        self.hammer = hammer
        self.params = {"weight": weight, "hammer": hammer}

    def on_game_revealed(self, players, spies):
        n, ns = self.game.n_players, self.game.n_spies
        self.me = Perspective(n, ns, self.seat)
        self.views = {r: Perspective(n, ns, r) for r in players if r not in spies} \
            if self.spy else {}
        self.helped = np.zeros((n, 2))  # [for, considered]
        self.like_spy = np.zeros((n, 2))
        self.like_res = np.zeros((n, 2))
        self.supports = np.zeros((n, n))  # supports[a, b]: a nominated / voted for b
        self.support_acts = np.zeros(n)
        self.combos = [c for c in combinations(self.others(), ns)]

    # --- inference ------------------------------------------------------------------
    def betray(self, mission: int, losses: int) -> np.ndarray:
        b = 1.0 if losses == WINS_NEEDED - 1 else BETRAY_BY_MISSION[mission - 1]
        return np.full(self.game.n_players, b)

    def on_team_selected(self, leader, team):
        self.like_spy[leader] += (leader not in team, 1)
        self._support(leader, team)

    def on_vote_complete(self, votes):
        prop = self.game.proposals[-1]
        first = prop.mission == 1 and prop.attempt == 1
        for p, yes in enumerate(votes):
            if first:
                self.like_spy[p] += (not yes, 1)
            if yes and must_hold_spy_without(prop.team, p, self.game.n_players):
                self.like_spy[p] += (1, 1)
            elif must_hold_spy_without(prop.team, p, self.game.n_players):
                self.like_spy[p] += (0, 1)
            self.like_res[p] += (p in prop.team and not yes, 1)
            if yes:
                self._support(p, prop.team)

    def _support(self, p: int, team) -> None:
        self.support_acts[p] += 1
        for q in team:
            if q != p:
                self.supports[p, q] += 1

    def on_mission_complete(self, fails):
        result = self.game.missions[-1]
        losses_before = self.game.losses - (1 if result.sabotaged else 0)
        betray = self.betray(result.mission, losses_before)
        self.me.update(result.team, fails, betray)
        for view in self.views.values():
            view.update(result.team, fails, betray)
        votes = self.game.proposals[-1].votes
        for p, yes in enumerate(votes or ()):
            self.helped[p] += ((yes and result.sabotaged) or (not yes and not result.sabotaged),
                               1)

    def spyness(self) -> np.ndarray:
        """Bayes spy probability × the behaviour factors, per seat (own seat 0)."""
        def ratio(t: np.ndarray, neutral: float) -> np.ndarray:
            return np.where(t[:, 1] > 0, t[:, 0] / np.maximum(t[:, 1], 1), neutral)

        w = self.weight
        s = self.me.spy_prob.copy()
        s *= 1 + w * (ratio(self.helped, 0.5) - 0.5)
        s *= 1 + w * ratio(self.like_spy, 0.0)
        s *= 1 - w * ratio(self.like_res, 0.0) / 2
        s[self.seat] = 0.0
        return np.maximum(s, 0.0)

    def friendship(self, a: int, b: int) -> float:
        support = self.supports[a, b] + self.supports[b, a]
        return (1.0 + support) / (2.0 + self.support_acts[a] + self.support_acts[b])

    def top_combination(self) -> tuple[int, ...]:
        """The spy combination with the highest spyness × friendship value."""
        spyness = self.spyness()
        best, best_value = [], -1.0
        for combo in self.combos:
            value = float(np.prod(spyness[list(combo)]))
            for a, b in combinations(combo, 2):
                value *= self.friendship(a, b)
            if value > best_value + 1e-15:
                best, best_value = [combo], value
            elif abs(value - best_value) <= 1e-15:
                best.append(combo)
        return best[self.rng.randrange(len(best))]

    def suspicion(self) -> dict[int, float]:
        s = self.spyness()
        return {p: float(min(s[p], 1.0)) for p in self.others()}

    # --- resistance decisions ---------------------------------------------------------
    def select(self, players, count):
        if self.spy:
            return self.spy_select(count)
        top = set(self.top_combination())
        spyness = self.spyness()
        pool = [p for p in players if p not in top]
        self.rng.shuffle(pool)
        pool.sort(key=lambda p: spyness[p])
        return pool[:count]

    def vote(self, team):
        game = self.game
        if self.spy:
            return spies_on(team, self.spies) >= game.fails_needed
        if self.hammer and is_last_attempt(game):
            return True
        return not set(team) & set(self.top_combination())

    # --- spy decisions -----------------------------------------------------------------
    def _simulate(self, teams: np.ndarray):
        """For each team (masks) with all its spies sabotaging: every perspective's new
        spy probabilities, as a list of (perspective, (teams, seats) array)."""
        n = self.game.n_players
        rows = np.array([[(int(t) >> p) & 1 for p in range(n)] for t in teams], dtype=bool)
        spy_mask = np.array([p in self.spies for p in range(n)])
        fails = (rows & spy_mask[None, :]).sum(axis=1)
        betray = self.betray(self.game.mission, self.game.losses)
        return [(view, view.posterior(view.likelihoods(rows, fails, betray)))
                for view in self.views.values()]

    def spy_select(self, count: int) -> tuple[int, ...]:
        """The certainty-minimising nomination (eq. 5)."""
        n, game = self.game.n_players, self.game
        teams = all_teams(n, count)
        spy_bits = sum(1 << s for s in self.spies)
        enough = np.array([bin(int(t) & spy_bits).count("1") >= game.fails_needed
                           for t in teams])
        teams = teams[enough]
        even = game.n_spies / (n - 1)
        cost = np.zeros(len(teams))
        for view, post in self._simulate(teams):
            cost += _certainty_cost(post, view.owner, even)
        best = np.flatnonzero(cost <= cost.min() + 1e-12)
        return mask_to_seats(int(teams[best[self.rng.randrange(len(best))]]))

    def sabotage(self):
        game = self.game
        team = game.team
        if game.losses == WINS_NEEDED - 1 and spies_on(team, self.spies) >= game.fails_needed:
            return True
        mask = np.array([sum(1 << p for p in team)])
        for view, post in self._simulate(mask):
            revealed = (post[0] >= 1.0 - 1e-9) & (view.spy_prob < 1.0 - 1e-9)
            if revealed.any():
                return False
        return True
