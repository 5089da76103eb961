"""A classic 2012-style Resistance :class:`~spyglass.resistance.bots.base.Bot` playing as a
game-general :class:`~spyglass.agents.base.Agent`.

Why: the web tables (and anything else built on the generic referee) speak only the
``Agent`` protocol, but many of The Resistance's best players (PandSBot, MT-ISMCTS, ...)
are written against the Bot API. This adapter rebuilds the Bot API's calls from exactly
what the seat is told by the generic referee -- its view and its observation keys -- so
the bot learns nothing a seat would not know:

* ``start``: ``on_game_revealed`` (the spies only for a spy: the view has them) and the
  first ``on_mission_attempt``;
* a proposal key -> ``on_team_selected``; the votes' reveal -> ``on_vote_complete`` (and
  the next ``on_mission_attempt`` when rejected); the cards' reveal ->
  ``on_mission_complete`` (and the next attempt); own and hidden single votes/cards are
  not Bot-API events and are ignored;
* ``act``: ``select`` / ``vote`` / ``sabotage`` by phase. A resistance member on a mission
  has only the success card, and is not asked (the 2012 referee does not ask either).
  Answers are checked, and a bot's exceptions named, by :mod:`spyglass.resistance.arena.bot_answers`
  exactly as the Resistance referee does: a :class:`~spyglass.resistance.arena.bot_answers.BotError`
  reaches the game-general referee as the bot's own decision (``vote``, ``select``,
  ``on_vote_complete``...), value and reason;
* ``finish``: ``on_game_complete`` with the winner read from the final view and the spies
  from the rewards (the spies' side shares one reward).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from spyglass.agents.base import Agent
from spyglass.arena.watchdog import Overtime
from spyglass.games.resistance import kernel as K
from spyglass.games.resistance import protocol as P
from spyglass.games.resistance.observation import (
    PHASE_MISSION,
    PHASE_VOTING,
    GameView,
    PublicRecord,
)
from spyglass.games.resistance.options import Rules
from spyglass.games.resistance.tables import mask_to_seats, seats_to_mask
from spyglass.resistance.arena.bot_answers import (
    check_bool,
    check_team,
    failure,
    plain_small,
    plain_team,
)

_LOW = (1 << 20) - 1


class BotAgent(Agent):
    """Wraps one Bot instance for one game (see the module docstring)."""

    agent_name = "bot-adapter"

    def __init__(self, bot: Any, name: str = "") -> None:
        super().__init__()
        self.bot = bot
        self.name = name or getattr(type(bot), "bot_name", type(bot).__name__)

    # --- helpers --------------------------------------------------------------------
    def _tell(self, method: str, *args: Any, convert: Any = None) -> Any:
        """Call the bot's ``method``; its failure becomes a BotError naming the method."""
        try:
            value = getattr(self.bot, method)(*args)
            return value if convert is None else convert(value)
        except (KeyboardInterrupt, Overtime):
            raise  # the user's Ctrl-C; the referee's hard stop (it names the time-out)
        except BaseException as exc:  # noqa: BLE001 — SystemExit etc.: still the bot's failure
            raise failure(self.name, self.seat, method, exc) from exc

    def _new_attempt(self, v: np.ndarray) -> None:
        pub = self.public
        pub.begin_attempt(int(v[K.MISSION]) + 1, int(v[K.ATTEMPT]) + 1, int(v[K.LEADER]))
        self._tell("on_mission_attempt", pub.mission, pub.attempt, pub.leader)

    # --- the Agent protocol -----------------------------------------------------------
    def start(self, game: Any, seat: int, view: np.ndarray, seed: int) -> None:
        super().start(game, seat, view, seed)
        if game.name != "resistance":
            raise ValueError(f"a Resistance bot cannot play {game.title}")
        n = game.n_players
        rules = Rules(game.settings["fifth_rejection"])
        self.public = PublicRecord(n, tuple(f"seat {j}" for j in range(n)), rules)
        spies_mask = int(view[K.SPIES])
        spy = spies_mask != P.UNKNOWN_SPIES and bool(spies_mask >> seat & 1)
        self.bot._seat(seat, spy, GameView(self.public), random.Random(seed), {}, self.name)
        spies = frozenset(mask_to_seats(spies_mask)) if spy else frozenset()
        if spy:
            self.bot.spies = spies
        self._tell("on_game_revealed", tuple(range(n)), spies)
        self._new_attempt(view)

    def observe(self, obs: int, actor: int, view: np.ndarray) -> None:
        obs = int(obs)
        tag, low = obs & ~_LOW, obs & _LOW
        pub = self.public
        if tag == K.OBS_TEAM:
            team = mask_to_seats(low)
            pub.team = team
            self._tell("on_team_selected", actor, team)
            if int(view[K.PHASE]) == K.MISSION_PHASE:  # forced fifth proposal: no vote
                pub.add_proposal(actor, team, None, True)
                pub.phase = PHASE_MISSION
            else:
                pub.phase = PHASE_VOTING
        elif tag == K.OBS_VOTES:
            votes = tuple(bool(low >> j & 1) for j in range(pub.n_players))
            # A strict majority sends the team; a rejection never leaves the mission phase.
            approved = int(view[K.PHASE]) == K.MISSION_PHASE
            team = pub.team or ()
            pub.add_proposal(pub.leader, team, votes, approved)
            self._tell("on_vote_complete", votes)
            if approved:
                pub.phase = PHASE_MISSION
            elif int(view[K.PHASE]) != K.OVER:
                self._new_attempt(view)
        elif tag == K.OBS_FAILS:
            fails = low
            pub.add_mission(pub.leader, pub.team or (), fails)
            self._tell("on_mission_complete", fails)
            if int(view[K.PHASE]) != K.OVER:
                self._new_attempt(view)
        if int(view[K.PHASE]) == K.OVER:
            pub.end("resistance" if int(view[K.WINNER]) == K.RESISTANCE else "spies")

    def act(self, view: np.ndarray, legal: list[int]) -> int:
        phase = int(view[K.PHASE])
        n = self.public.n_players
        if phase == K.PROPOSE:
            mission = int(view[K.MISSION])
            count = int(K.TEAM_SIZE[n, mission])
            answer = self._tell("select", tuple(range(n)), count, convert=plain_team)
            team = check_team(self.name, self.seat, answer, count, n, mission + 1)
            return seats_to_mask(team)
        if phase == K.VOTE:
            answer = self._tell("vote", self.public.team or (), convert=plain_small)
            return int(check_bool(self.name, self.seat, "vote", answer))
        if legal == [0]:
            return 0
        return int(check_bool(self.name, self.seat, "sabotage",
                              self._tell("sabotage", convert=plain_small)))

    def finish(self, rewards: tuple[float, ...]) -> None:
        resistance_won = self.public.winner == "resistance"
        loser = min(rewards)
        winner = max(rewards)
        spy_reward = loser if resistance_won else winner
        spies = frozenset(j for j, r in enumerate(rewards) if r == spy_reward)
        self._tell("on_game_complete", resistance_won, spies)

    def suspicion(self) -> dict[int, float] | None:
        """The wrapped bot's suspicion scores, if it keeps any."""
        return self.bot.suspicion()

    def record_extra(self) -> dict | None:
        extra = getattr(self.bot, "record_extra", None)
        return extra() if extra is not None else None
