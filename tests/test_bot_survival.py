"""Every registered bot survives many random-seeded games at every table size, 5 to 10.

"Survives" means the referee records no error: every team, vote and card is legal and
no callback raises, under both fifth-rejection rules, with suspicion tracking on (so
``suspicion()`` is exercised too), learning memory kept across the bot's games, and
mixed tables where the bot sits beside copies of itself and other bots.

Bots that need a person at the terminal (``interactive = True``) are skipped. A bot
whose defaults are too slow for thousands of games (e.g. a search bot) may declare
``survival_params = {...}``: small settings used here instead; without it, a bot that
takes an ``iterations`` (or else ``seconds``) budget gets a small one.

The default run plays ``QUICK_GAMES`` per size per bot; the full check (500 games per
size, 3,000 per bot) is marked slow: ``pytest -m slow tests/test_bot_survival.py``.
"""

from __future__ import annotations

import inspect
import math
import random

import pytest

from spyglass.games.resistance.options import Rules
from spyglass.resistance.arena.referee import play_game
from spyglass.resistance.arena.spec import BotSpec
from spyglass.resistance.bots import available

QUICK_GAMES = 12
FULL_GAMES = 500
SIZES = range(5, 11)
#: Table-mates: cheap bots with different habits (random, always approving, rule-based).
MATES = ("randombot", "hippie", "deceiver", "ruru", "rebounder")


def _bots() -> list:
    params = []
    for name, cls in available().items():
        marks = []
        if getattr(cls, "interactive", False):
            marks.append(pytest.mark.skip(reason=f"{name} needs a person at a terminal"))
        params.append(pytest.param(name, marks=marks, id=name))
    return params


#: Search budgets small enough for thousands of games, by parameter name.
SMALL_BUDGETS = {"iterations": 30, "seconds": 0.005}


def _spec(name: str) -> BotSpec:
    cls = available()[name]
    extra = getattr(cls, "survival_params", None)
    if extra is None:
        accepted = inspect.signature(cls.__init__).parameters
        budget = next((k for k in SMALL_BUDGETS if k in accepted), None)
        extra = {budget: SMALL_BUDGETS[budget]} if budget else {}
    return BotSpec(name, tuple(sorted(extra.items())))


def _check_suspicion(result, n: int) -> None:
    for seat, entries in result.suspicion.items():
        for entry in entries:
            assert 1 <= entry["mission"] <= 5
            for key, value in entry["scores"].items():
                assert 0 <= int(key) < n, f"seat {seat} reported suspicion of seat {key}"
                assert math.isfinite(value) and -1e-9 <= value <= 1 + 1e-9, (
                    f"seat {seat}: suspicion {value} of seat {key} is not in [0, 1]")


def survive(name: str, games_per_size: int, seed: int = 0) -> int:
    """Play the games; fail with the first bot error. Returns the number of games."""
    spec = _spec(name)
    mates = [m for m in MATES if m in available()]
    played = 0
    for n in SIZES:
        rng = random.Random(f"{name}/{n}/{seed}")
        memory: dict = {}
        for g in range(games_per_size):
            copies = rng.randint(1, n)
            lineup = [spec] * copies + [rng.choice(mates) for _ in range(n - copies)]
            rng.shuffle(lineup)
            game_seed = rng.getrandbits(62)
            rules = Rules("forced" if g % 3 == 2 else "spies_win")
            result = play_game(lineup, seed=game_seed, rules=rules, memory=memory,
                               track_suspicion=True)
            assert result.ok, (
                f"{name} failed at {n} players (seed {game_seed}, rules {rules}): "
                f"{result.error}\n{result.error.detail}")
            assert result.winner in ("resistance", "spies")
            _check_suspicion(result, n)
            played += 1
    return played


@pytest.mark.parametrize("name", _bots())
def test_bot_survives_random_games_at_every_size(name):
    assert survive(name, QUICK_GAMES) == QUICK_GAMES * len(SIZES)


@pytest.mark.slow
@pytest.mark.parametrize("name", _bots())
def test_bot_survives_500_games_at_every_size(name):
    assert survive(name, FULL_GAMES, seed=1) == FULL_GAMES * len(SIZES)
