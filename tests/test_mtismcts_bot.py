"""The ``mtismcts`` bot: games at every size and rule, reproducibility, parameters, strength.

Strength (Cowling et al. 2015, §VII-A): resistance members using MT-ISMCTS with particle-filter
inference beat random spies far more often than random resistance members do, and with
inference on they win more often than with it off against MT-ISMCTS spies (TRUEONLY).
The default run checks the direction on a modest seeded sample; the significant version
is ``@pytest.mark.slow``.
"""

from __future__ import annotations

import pytest
from scipy.stats import fisher_exact

from spyglass.games.resistance.options import Rules
from spyglass.games.resistance.tables import spy_configurations
from spyglass.resistance.arena.referee import play_game
from spyglass.resistance.arena.spec import parse_spec
from spyglass.resistance.bots import available
from spyglass.resistance.bots.mtismcts import MTISMCTSBot
from spyglass.resistance.bots.random_bot import RandomBot


@pytest.mark.parametrize("n", range(5, 11))
@pytest.mark.parametrize("rule", ["spies_win", "forced"])
def test_plays_every_size_and_rule(n, rule):
    result = play_game([MTISMCTSBot(iterations=40) for _ in range(n)], seed=n,
                       rules=Rules(rule))
    assert result.error is None, result.error
    assert result.winner in ("resistance", "spies")
    if rule == "forced":
        assert all(e["votes"] is None for e in result.events
                   if e["type"] == "proposal" and e["attempt"] == 5)


def test_same_seed_same_game():
    def record(seed):
        r = play_game(["mtismcts:iterations=200"] * 3 + ["randombot"] * 2, seed=seed)
        assert r.error is None, r.error
        return r.to_record()

    a, b = record(21), record(21)
    assert a == b
    assert a["extra"]["0"]["belief"]  # the belief trajectory is in the record
    c = record(22)
    assert c["events"] != a["events"]


def test_explicit_seed_overrides_the_referee_stream():
    def events(seed, bot_seed):
        bots = [MTISMCTSBot(iterations=150, seed=bot_seed)] + [RandomBot() for _ in range(4)]
        return play_game(bots, seed=seed, spies=(3, 4)).events

    assert events(1, 99) == events(1, 99)


def test_registered_and_parsed_from_a_spec():
    assert available()["mtismcts"] is MTISMCTSBot
    (spec,) = parse_spec("mtismcts:iterations=100,bandit=ucb1,c=1.0,inference=false")
    bot = spec.make()
    assert (bot.iterations, bot.bandit, bot.c, bot.inference) == (100, "ucb1", 1.0, False)
    assert bot.params["iterations"] == 100
    result = play_game([spec] * 5, seed=3)
    assert result.error is None, result.error


def test_seconds_budget():
    bots = [MTISMCTSBot(seconds=0.002) for _ in range(5)]
    result = play_game(bots, seed=4)
    assert result.error is None, result.error
    assert all(b.iterations_done > 0 for b in bots)


@pytest.mark.parametrize(
    "params, message",
    [
        ({"iterations": 0}, "iterations"),
        ({"iterations": 10, "seconds": 1.0}, "not both"),
        ({"seconds": -1}, "seconds"),
        ({"bandit": "exp3x"}, "unknown bandit"),
        ({"c": -0.5}, "exploration constant"),
        ({"inference": "yes"}, "inference"),
        ({"seed": 1.5}, "seed"),
    ],
)
def test_bad_parameters_are_named(params, message):
    with pytest.raises(ValueError, match=message):
        MTISMCTSBot(**params)
    text = "mtismcts:" + ",".join(f"{k}={v}" for k, v in params.items())
    with pytest.raises(ValueError, match=message):  # BotSpecError is a ValueError too
        parse_spec(text)[0].make()


# --- strength (Cowling et al. 2015, §VII-A)
# ---------------------------------------------------------
def resistance_wins(make_res, make_spy, games: int, seed: int = 0) -> tuple[int, float]:
    """Resistance wins over ``games`` 5-player games cycling through the 10 spy pairs, and
    the resistance bots' mean final belief in the true configuration (if they keep one)."""
    configs = spy_configurations(5).tolist()
    wins, truth = 0, []
    for g in range(games):
        spies = [s for s in range(5) if (configs[g % 10] >> s) & 1]
        bots = [make_spy() if s in spies else make_res() for s in range(5)]
        result = play_game(bots, seed=seed + g, spies=spies)
        assert result.error is None, result.error
        wins += result.winner == "resistance"
        truth += [b.belief()[g % 10] for s, b in enumerate(bots)
                  if s not in spies and isinstance(b, MTISMCTSBot)]
    return wins, (sum(truth) / len(truth) if truth else 0.0)


def mtismcts(iterations: int, inference: bool = True):
    return lambda: MTISMCTSBot(iterations=iterations, inference=inference)


def test_strength_direction_small_seeded_sample():
    games = 30
    mt, _ = resistance_wins(mtismcts(300), RandomBot, games, seed=500)
    rnd, _ = resistance_wins(RandomBot, RandomBot, 200, seed=500)
    assert mt / games > rnd / 200 + 0.1, (mt, rnd)
    games, spies = 24, mtismcts(1500)
    on, truth_on = resistance_wins(mtismcts(1500), spies, games, seed=500)
    off, truth_off = resistance_wins(mtismcts(1500, inference=False), spies, games, seed=500)
    assert on > off, (on, off)
    assert truth_on > truth_off, (truth_on, truth_off)  # inference finds the spies


@pytest.mark.slow
def test_strength_is_significant():
    games = 200
    mt, _ = resistance_wins(mtismcts(1000), RandomBot, games, seed=10_000)
    rnd, _ = resistance_wins(RandomBot, RandomBot, 1000, seed=10_000)
    spies = mtismcts(2000)
    on, truth_on = resistance_wins(mtismcts(2000), spies, games, seed=10_000)
    off, truth_off = resistance_wins(mtismcts(2000, inference=False), spies, games, seed=10_000)
    _, p_random = fisher_exact([[mt, games - mt], [rnd, 1000 - rnd]], alternative="greater")
    _, p_inference = fisher_exact([[on, games - on], [off, games - off]],
                                  alternative="greater")
    print(f"\nMT-ISMCTS resistance vs random spies: {mt}/{games}; random resistance: "
          f"{rnd}/1000 (p={p_random:.2g}). Against MT-ISMCTS spies: inference on {on}/{games}, "
          f"off {off}/{games} (p={p_inference:.2g}); final belief in the truth "
          f"{truth_on:.3f} vs {truth_off:.3f}")
    assert p_random < 0.01 and mt / games > rnd / 1000 + 0.1
    assert p_inference < 0.01 and truth_on > truth_off
