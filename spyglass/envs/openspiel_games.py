"""Every Spyglass game as an OpenSpiel game (``pyspiel``; the ``crosscheck`` extra).

:func:`register_openspiel` registers each registered game as the Python game
``spyglass_<name>``, so ``pyspiel.load_game("spyglass_phantom(m=3,n=2,k=3)")`` works and
OpenSpiel's algorithms (CFR, exploitability, ISMCTS, random simulation tests) run on it.
Its parameters are the game's own options plus ``players`` and ``deals``.

How the two models meet:

* Chance. A Spyglass game draws every chance outcome when it makes its initial state
  (``Game.new_state(seed)``); chance is not a player. Here the game starts with one chance
  node whose outcomes are the *distinct* initial states of seeds ``0 .. deals-1``, each with
  its share of those seeds: the OpenSpiel game is exactly "the Spyglass game, dealt from one
  of ``deals`` seeds" (so a figure such as exploitability is exact for that game and says
  how many deals it used). A game whose initial state does not depend on the seed (Phantom,
  Othello, Checkers) has no chance node and is ``DETERMINISTIC``.
* Information. ``PERFECT_INFORMATION`` only for a game Spyglass declares perfect and whose
  start has no chance (a deal drawn up front is hidden from the players, e.g. Backgammon's
  dice: OpenSpiel would call that imperfect information). Everything else is
  ``IMPERFECT_INFORMATION``.
* Information state. The string is perfect recall: the seat's first view followed by every
  move as the seat observed it (actor and the game's observation key; moves it does not
  perceive at all are left out, as the seat never learns of them). The tensor is the seat's
  current view (the game's fixed-size view, as numbers). The observation string is the
  view in the game's words and the observation tensor the view.
* Utility: rewards are Spyglass's, in [0, 1]; two-player games are ``CONSTANT_SUM`` (every
  two-player game's rewards add up to 1: tested), others ``GENERAL_SUM``.
* ``resample_from_infostate`` draws a full state from the seat's view with the game's own
  determinization sampler (``Kernel.sample``), seeded from OpenSpiel's sampler. In the
  resampled state the other seats' information states start from their views in it (their
  true histories belong to the state that was resampled).
"""

from __future__ import annotations

import functools

import numpy as np
import pyspiel

from spyglass.envs.sources import Game, game_class, game_names, make_game, make_rng

PREFIX = "spyglass_"
#: seeds whose distinct deals make the chance node when ``deals`` is not given
DEFAULT_DEALS = 64
#: tries of the game's determinization sampler before resampling gives up
SAMPLE_TRIES = 100


def openspiel_name(name: str) -> str:
    """The OpenSpiel short name of a Spyglass game."""
    return PREFIX + name


def _chance(game: Game, deals: int) -> list[tuple[np.ndarray, float]]:
    """The distinct initial states of seeds ``0 .. deals-1``, each with its probability."""
    found: dict[bytes, list] = {}
    for seed in range(deals):
        s = np.array(game.new_state(seed), dtype=np.int64)
        found.setdefault(s.tobytes(), [s, 0])[1] += 1
    return [(s, n / deals) for s, n in found.values()]


def _deterministic(cls: type[Game]) -> bool:
    """Whether the game's initial state (default options) is the same for every seed."""
    game = cls()
    return len(_chance(game, 8)) == 1


@functools.cache
def game_type(name: str) -> pyspiel.GameType:
    """The OpenSpiel game type of the registered Spyglass game ``name``."""
    cls = game_class(name)
    deterministic = _deterministic(cls)
    perfect = cls.information == "perfect" and deterministic
    params = {p.name: p.default for p in cls.options if p.default is not None}
    params["players"] = cls.min_players
    params["deals"] = DEFAULT_DEALS
    two = cls.max_players == 2
    return pyspiel.GameType(
        short_name=openspiel_name(name),
        long_name=f"Spyglass {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(pyspiel.GameType.ChanceMode.DETERMINISTIC if deterministic
                     else pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC),
        information=(pyspiel.GameType.Information.PERFECT_INFORMATION if perfect
                     else pyspiel.GameType.Information.IMPERFECT_INFORMATION),
        utility=(pyspiel.GameType.Utility.CONSTANT_SUM if two
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class SpyglassGame(pyspiel.Game):
    """A Spyglass game with its options, as an OpenSpiel game (see the module docstring)."""

    spyglass_name = ""  # set per registered subclass

    def __init__(self, params: dict | None = None) -> None:
        params = dict(params or {})
        kind = game_type(self.spyglass_name)
        defaults = kind.parameter_specification
        players = int(params.pop("players", defaults["players"]))
        deals = int(params.pop("deals", defaults["deals"]))
        if deals < 1:
            raise ValueError(f"deals must be at least 1, not {deals}")
        self.game = make_game(self.spyglass_name, players, **params)
        deterministic = kind.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
        self.deals = None if deterministic else _chance(self.game, deals)
        # The type is the class's (constant-sum only if it is always two-player, e.g. not
        # Scotland Yard at 2 of its 2-6 seats), and the utility sum must agree with it.
        constant = kind.utility == pyspiel.GameType.Utility.CONSTANT_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=self.game.n_actions,
            max_chance_outcomes=0 if self.deals is None else len(self.deals),
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0 if constant else None,
            max_game_length=self.game.max_moves,
        )
        super().__init__(kind, info, {**dict(params), "players": players, "deals": deals})

    def new_initial_state(self) -> SpyglassState:
        return SpyglassState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> SeatObserver:
        return SeatObserver(self.game, iig_obs_type, params)


class _Shared:
    """What every state of one OpenSpiel game shares (the Spyglass game, the deals): kept
    out of ``clone()``, which deep-copies a Python state."""

    def __init__(self, game: Game, deals: list | None) -> None:
        self.game, self.deals = game, deals

    def __deepcopy__(self, memo: dict) -> _Shared:
        return self


class SpyglassState(pyspiel.State):
    """A Spyglass state in OpenSpiel; ``state`` is the full Spyglass state (None before the
    deal), ``records[j]`` what seat ``j`` has seen (its first view, then its observations)."""

    def __init__(self, game: SpyglassGame) -> None:
        super().__init__(game)
        self.shared = _Shared(game.game, game.deals)
        self.state: np.ndarray | None = None
        self.records: list[list] = [[] for _ in range(self.spy.n_players)]
        #: per seat: its first view, then (observation key, actor, view after) per move,
        #: exactly what the referee gives an agent (for :func:`agent_policy`)
        self.seen: list[list] = [[] for _ in range(self.spy.n_players)]
        if self.deals is None:
            self._deal(np.array(self.spy.new_state(0), dtype=np.int64))

    @property
    def spy(self) -> Game:
        """The Spyglass game."""
        return self.shared.game

    @property
    def deals(self) -> list | None:
        """The chance node's initial states and probabilities (None: no chance node)."""
        return self.shared.deals

    def _deal(self, s: np.ndarray) -> None:
        self.state = s.copy()
        for j in range(self.spy.n_players):
            v = self.spy.view(self.state, j)
            self.records[j] = [("start", tuple(int(x) for x in v))]
            self.seen[j] = [v]

    # --- the OpenSpiel state API ---------------------------------------------------------

    def current_player(self) -> int:
        if self.state is None:
            return pyspiel.PlayerId.CHANCE
        actor = int(self.spy.kernel.actor(self.state))
        return pyspiel.PlayerId.TERMINAL if actor < 0 else actor

    def _legal_actions(self, player: int) -> list[int]:
        return self.spy.legal_actions(self.state)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(i, p) for i, (_, p) in enumerate(self.deals)]

    def _apply_action(self, action: int) -> None:
        if self.state is None:
            self._deal(self.deals[action][0])
            return
        k, n = self.spy.kernel, self.spy.n_players
        actor = int(k.actor(self.state))
        keys = [int(k.observe(self.state, action, j)) for j in range(n)]
        k.apply(self.state, action)
        for j in range(n):
            if keys[j] != 0:  # UNSEEN: the seat does not perceive the move at all
                self.records[j].append((actor, keys[j]))
            self.seen[j].append((keys[j], actor, self.spy.view(self.state, j)))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        if self.state is None or player < 0:
            return self.spy.action_text(action)
        return self.spy.action_text(action, self.spy.view(self.state, player))

    def is_terminal(self) -> bool:
        return self.state is not None and bool(self.spy.kernel.is_terminal(self.state))

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.spy.n_players
        return list(self.spy.rewards(self.state))

    def resample_from_infostate(self, player_id: int, probability_sampler) -> SpyglassState:
        """A state ``player_id`` cannot tell from this one, drawn by the game's sampler."""
        new = self.clone()
        if self.state is None:
            return new
        view = self.spy.view(self.state, player_id)
        out = np.zeros(self.spy.state_size, dtype=np.int64)
        rng = make_rng(int(probability_sampler() * 2**53))
        for _ in range(SAMPLE_TRIES):
            if self.spy.kernel.sample(view, player_id, rng, out):
                break
        else:
            raise RuntimeError(f"{self.spy.title}: the sampler found no state for this view")
        new.state = out
        moves = len(self.seen[player_id])
        for j in range(self.spy.n_players):
            if j != player_id:
                v = self.spy.view(out, j)
                new.records[j] = [("resampled", moves, tuple(int(x) for x in v))]
                new.seen[j] = [v]
        return new

    def __str__(self) -> str:
        if self.state is None:
            return "(the deal is to come)"
        return self.spy.state_text(self.state)


class SeatObserver:
    """OpenSpiel's observer of one seat: perfect-recall information states, or the seat's
    current view (see the module docstring)."""

    def __init__(self, game: Game, iig_obs_type=None, params=None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; passed {params}")
        if iig_obs_type is None:
            iig_obs_type = pyspiel.IIGObservationType(perfect_recall=False)
        if (iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                or not iig_obs_type.public_info):
            raise ValueError("Spyglass games observe one seat's own information only "
                             "(public and single-player private information)")
        self.game = game
        self.perfect_recall = iig_obs_type.perfect_recall
        self.tensor = np.zeros(game.view_size, np.float32)
        self.dict = {"view": self.tensor}

    def set_from(self, state: SpyglassState, player: int) -> None:
        self.tensor[:] = 0.0 if state.state is None else self.game.view(state.state, player)

    def string_from(self, state: SpyglassState, player: int) -> str:
        if state.state is None:
            return f"seat {player}: the deal is to come"
        if self.perfect_recall:
            return f"seat {player}: " + " ".join(map(str, state.records[player]))
        return self.game.view_text(self.game.view(state.state, player), player)


def register_openspiel(names: list[str] | None = None) -> list[str]:
    """Register Spyglass's games (all, or ``names``) with OpenSpiel as ``spyglass_<name>``;
    the OpenSpiel names. Registering again is harmless."""
    done = set(pyspiel.registered_names())
    out = []
    for name in game_names() if names is None else names:
        short = openspiel_name(name)
        if short not in done:
            cls = type(f"Spyglass_{name}", (SpyglassGame,), {"spyglass_name": name})
            pyspiel.register_game(game_type(name), cls)
        out.append(short)
    return out
