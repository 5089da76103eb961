"""Stalker: pure opponent modelling, Ruru's decisions (Taylor 2014, §4.6.2, Fig 10)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

from spyglass.games.resistance.observation import GameView, MissionResult, Proposal
from spyglass.games.resistance.tables import MAX_ATTEMPTS
from spyglass.resistance.bots.expert_rules import must_hold_spy_without
from spyglass.resistance.bots.registry import register
from spyglass.resistance.bots.ruru import Ruru

#: A behaviour: for a subject seat, one bool per relevant action in the game so far —
#: True when the action is in line with the behaviour ("complementary"), else False.
Behaviour = Callable[[GameView, int], Iterator[bool]]


def _voted(game: GameView) -> Iterator[Proposal]:
    return (p for p in game.proposals if p.votes is not None)


def _missions(game: GameView) -> Iterator[tuple[Proposal, MissionResult]]:
    """Each completed mission with the proposal that sent it."""
    results = {m.mission: m for m in game.missions}
    for p in game.proposals:
        if p.approved and p.mission in results:
            yield p, results[p.mission]


# --- category 1: perfect-information behaviours --------------------------------------
def selects_team_featuring_self(game, s):
    return (s in p.team for p in game.proposals if p.leader == s)


def votes_for_team_featuring_self(game, s):
    return (p.votes[s] for p in _voted(game) if s in p.team)


def votes_for_team_not_featuring_self(game, s):
    return (p.votes[s] for p in _voted(game) if s not in p.team)


def votes_for_team3_not_featuring_self(game, s):
    # "three-man teams without the subject" = teams bound to hold a spy from its view
    n = game.n_players
    return (p.votes[s] for p in _voted(game) if must_hold_spy_without(p.team, s, n))


def votes_against_team_on_fifth_attempt(game, s):
    return (not p.votes[s] for p in _voted(game) if p.attempt == MAX_ATTEMPTS)


# --- category 2: competence-based behaviours ------------------------------------------
def selects_successful_team(game, s):
    return (not m.sabotaged for p, m in _missions(game) if p.leader == s)


def votes_for_successful_team(game, s):
    return (p.votes[s] for p, m in _missions(game) if p.votes is not None and not m.sabotaged)


def votes_for_unsuccessful_team(game, s):
    return (p.votes[s] for p, m in _missions(game) if p.votes is not None and m.sabotaged)


def votes_for_team_with_two_sabotages(game, s):
    return (p.votes[s] for p, m in _missions(game) if p.votes is not None and m.fails >= 2)


def team_on_is_unsuccessful(game, s):
    return (m.sabotaged for _, m in _missions(game) if s in m.team)


PERFECT: dict[str, Behaviour] = {
    "selectsTeamFeaturingSelf": selects_team_featuring_self,
    "votesForTeamFeaturingSelf": votes_for_team_featuring_self,
    "votesForTeamNotFeaturingSelf": votes_for_team_not_featuring_self,
    "votesForTeam3NotFeaturingSelf": votes_for_team3_not_featuring_self,
    "votesAgainstTeamOnFifthAttempt": votes_against_team_on_fifth_attempt,
}
COMPETENCE: dict[str, Behaviour] = {
    "selectsSuccessfulTeam": selects_successful_team,
    "votesForSuccessfulTeam": votes_for_successful_team,
    "votesForUnsuccessfulTeam": votes_for_unsuccessful_team,
    "votesForTeamWithTwoSabotages": votes_for_team_with_two_sabotages,
    "teamOnIsUnsuccessful": team_on_is_unsuccessful,
}
BEHAVIOURS: dict[str, Behaviour] = {**PERFECT, **COMPETENCE}

#: The five configurations of Taylor 2014, §4.7.3.
PRESETS: dict[str, tuple[str, ...]] = {
    "all": tuple(BEHAVIOURS),
    "perfect": tuple(PERFECT),
    "competence": tuple(COMPETENCE),
    "no_team_on": tuple(b for b in BEHAVIOURS if b != "teamOnIsUnsuccessful"),
    "team_on": ("teamOnIsUnsuccessful",),
}

ROLES = ("spy", "resistance")


def parse_behaviours(spec: str) -> tuple[str, ...]:
    """A preset name (``all``, ``perfect``...) or behaviour names joined by ``+``."""
    if spec in PRESETS:
        return PRESETS[spec]
    names = tuple(b for b in spec.split("+") if b)
    unknown = [b for b in names if b not in BEHAVIOURS]
    if unknown or not names:
        raise ValueError(
            f"unknown behaviours {unknown or spec!r}; use a preset "
            f"({', '.join(PRESETS)}) or names joined by '+' from: {', '.join(BEHAVIOURS)}"
        )
    return names


@register("stalker")
class Stalker(Ruru):
    """Suspicion from how well each opponent fits its own spy and resistance models.

    Seed: for every opponent (by name) and role, each modelled behaviour keeps a
    frequency, updated once roles are revealed at the end of a game. An opponent's play
    so far in this game fits a frequency ``f`` as the average over its relevant actions
    of ``f`` (action in line with the behaviour) or ``1 - f`` (against it); the fit to a
    role model is the average over behaviours; suspicion is
    ``0.5 * (1 - r) + 0.5 * s`` (Fig 10) for resistance fit ``r`` and spy fit ``s``.
    Decisions are Ruru's: the scores are for measuring (§4.5), not acting.

    ``behaviours``: a preset of §4.7.3 — ``all`` (default), ``perfect``,
    ``competence``, ``no_team_on`` (all but teamOnIsUnsuccessful), ``team_on`` — or
    behaviour names joined by ``+``.

    Choices: a frequency is estimated with one imaginary action each way,
    ``(in_line + 1) / (actions + 2)``, so an unseen opponent fits both models at 0.5;
    behaviours without any relevant action this game are left out of the average (no
    relevant action at all gives 0.5). "Three-man teams without the subject" is
    generalised to teams bound to hold a spy from the subject's view, "two sabotages"
    to two or more fail cards, and (un)successful means the mission failed or not.
    Models live in ``self.memory`` under the opponent's name, so they restart whenever
    the name changes (the burst model).
    """

    def __init__(self, *, behaviours: str = "all") -> None:
        super().__init__()
        self.behaviours = parse_behaviours(str(behaviours))
        self.params = {"behaviours": behaviours}

    # --- model storage -------------------------------------------------------------
    def model_key(self, seat: int) -> str:
        """Whose model describes ``seat``: its name (Nosey overrides this)."""
        return self.game.names[seat]

    def _model(self, seat: int) -> dict:
        models = self.memory.setdefault("stalker_models", {})
        model = models.setdefault(self.model_key(seat), {r: {} for r in ROLES})
        for role in ROLES:
            for b in self.behaviours:
                model[role].setdefault(b, [0, 0])
        return model

    def frequency(self, seat: int, role: str, behaviour: str) -> float:
        """The modelled frequency of ``behaviour`` for ``seat`` in ``role``."""
        in_line, total = self._model(seat)[role][behaviour]
        return (in_line + 1) / (total + 2)

    # --- fitting -------------------------------------------------------------------
    def fit(self, seat: int, role: str) -> float:
        """How well ``seat``'s play this game fits its model for ``role`` (0..1)."""
        fits = []
        for b in self.behaviours:
            samples = list(BEHAVIOURS[b](self.game, seat))
            if samples:
                f = self.frequency(seat, role, b)
                fits.append(sum(f if x else 1.0 - f for x in samples) / len(samples))
        return sum(fits) / len(fits) if fits else 0.5

    def suspicion(self):
        return {
            p: 0.5 * (1.0 - self.fit(p, "resistance")) + 0.5 * self.fit(p, "spy")
            for p in self.others()
        }

    # --- learning ------------------------------------------------------------------
    def on_game_complete(self, resistance_won, spies):
        for p in self.others():
            model = self._model(p)["spy" if p in spies else "resistance"]
            for b in self.behaviours:
                for x in BEHAVIOURS[b](self.game, p):
                    model[b][0] += int(bool(x))
                    model[b][1] += 1
