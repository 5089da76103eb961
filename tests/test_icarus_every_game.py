"""ICARUS on every registered game through MO-ISMCTS (Whitehouse 2014, ch. 8): the
baseline is today's MO-ISMCTS node for node, every enhancement (AMAF and RAVE in each
player's tree included) searches legally and reproducibly, AMAF's records obey AMAF-6,
and the enhanced agents play whole games of Hearts, Backgammon and The Resistance."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from icarus_cases import ENHANCEMENTS, GAMES, OPTIONS, decision

from spyglass.agents.search_support import icarus_entry, search_entry
from spyglass.arena.match import play_match
from spyglass.games import registry
from spyglass.rng import make_rng
from spyglass.search.icarus import spec as S
from spyglass.search.icarus.driver import IcarusMOSearch
from spyglass.search.sampled.driver import GameShape, ISMCTSSearch, SearchSettings
from spyglass.search.sampled.pool import CHILD, KEY, SIBLING, VISITS

ROOT = Path(__file__).resolve().parents[1]


def _icarus(g, text: str, iterations: int, amaf_capture: str = "selection") -> IcarusMOSearch:
    return IcarusMOSearch(search_entry(g), icarus_entry(g), GameShape.of(g),
                          SearchSettings(iterations=iterations),
                          S.parse(text, S.Tuning(amaf_capture=amaf_capture)), g.title)


@pytest.mark.timeout(1800)  # the first call compiles the game's ICARUS entry points
@pytest.mark.parametrize("game_name", GAMES)
def test_baseline_icarus_mo_is_todays_moismcts_on_every_game(game_name):
    """Spec 1 through the ICARUS loop: the same pool bit for bit, the same decision."""
    g, s, p, view = decision(game_name, 3)
    shape, st = GameShape.of(g), SearchSettings(iterations=150)
    a = ISMCTSSearch(search_entry(g), shape, "mo", st).search(view, p, make_rng(3))
    b = _icarus(g, "", 150).search(view, p, make_rng(3))
    assert a.action == b.action and a.pool.used == b.pool.used
    assert (a.pool.data[: a.pool.used] == b.pool.data[: b.pool.used]).all()
    # Bit for bit (fdata shares its memory with data: some words are not floats).
    assert a.pool.fdata[: a.pool.used].tobytes() == b.pool.fdata[: b.pool.used].tobytes()


@pytest.mark.parametrize("text", ENHANCEMENTS)
@pytest.mark.parametrize("game_name", GAMES)
def test_every_enhancement_searches_every_game(game_name, text):
    g, s, p, view = decision(game_name, 5)
    if "epic" in text or text == "ERML":
        if not icarus_entry(g).has_episodes:
            with pytest.raises(ValueError, match="episode function"):
                _icarus(g, text, 40)
            return
    search = _icarus(g, text, 60)
    first = search.search(view, p, make_rng(9))
    used = search.pool.used
    again = search.search(view, p, make_rng(9))
    assert first.action == again.action and used == search.pool.used
    assert first.action in g.legal_actions(s)
    assert first.iterations == 60


def _root_children(pool, root):
    ch = int(pool.data[root, CHILD])
    while ch >= 0:
        yield ch
        ch = int(pool.data[ch, SIBLING])


@pytest.mark.parametrize("game_name", ["hearts", "resistance", "backgammon", "phantom"])
@pytest.mark.parametrize("text", ["amaf", "rave"])
def test_amaf_records_follow_amaf_6_at_the_root(game_name, text):
    """At the searcher's root (it chooses there every iteration; an expansion node in the
    first k, k its legal actions, a selection node after): AMAF-6 (§8.2.3) credits a
    child at each later choice of it (the move chosen is played at that very step), so its
    AMAF visits are at least its visits less the one that created it, and at most the
    iterations after the k (one update per iteration); some sibling not chosen is updated
    (moves played later count); the baseline's statistics are those of a real search."""
    g, s, p, view = decision(game_name, 2)
    search = _icarus(g, text, 200)
    res = search.search(view, p, make_rng(4))
    amaf, pool = search.records.amaf, search.pool
    kids = [c for c in _root_children(pool, res.decision_node) if pool.data[c, KEY] < -1]
    k = len(g.legal_actions(s))
    assert len(kids) == k
    assert sum(int(pool.data[c, VISITS]) for c in kids) == res.iterations
    for c in kids:
        assert pool.data[c, VISITS] - 1 <= amaf[c, 1] <= res.iterations - k
        assert 0.0 <= amaf[c, 0] <= amaf[c, 1]  # rewards in [0, 1]
    if game_name in ("hearts", "phantom"):  # the searcher plays more moves later
        assert sum(amaf[c, 1] for c in kids) > res.iterations - k


def test_rave_changes_the_search_and_amaf_is_not_rave():
    g, s, p, view = decision("hearts", 2)
    runs = {}
    for text in ("", "rave", "amaf"):
        r = _icarus(g, text, 300).search(view, p, make_rng(6))
        runs[text] = r.pool.data[: r.pool.used].copy()
    assert runs[""].shape != runs["rave"].shape or (runs[""] != runs["rave"]).any()
    assert runs["amaf"].shape != runs["rave"].shape or (runs["amaf"] != runs["rave"]).any()


@pytest.mark.parametrize("game_name,lineup", [
    ("hearts", ["moismcts:iterations=60,enhance=rave", "random", "random", "random"]),
    ("backgammon", ["moismcts:iterations=15,enhance=rave", "random"]),
    ("backgammon", ["uct:iterations=15,enhance=ERML", "random"]),
    ("resistance", ["moismcts:iterations=60,enhance=epic+lgrf"] + ["random"] * 4),
    ("resistance", ["moismcts:iterations=60,enhance=rave>mast"] + ["random"] * 4),
])
def test_enhanced_agents_play_whole_games(game_name, lineup):
    g = registry.make(game_name, **OPTIONS.get(game_name, {}))
    r = play_match(g, lineup, seed=1)
    assert r.error is None and g.kernel.is_terminal(r.state)
    again = play_match(g, lineup, seed=1)
    assert again.rewards == r.rewards


def test_resistance_episodes_are_missions():
    """L_i when seat i is about to propose a new mission's first team; -1 otherwise
    (a rejected team's successor continues the mission)."""
    from spyglass.games.resistance import kernel as K
    from spyglass.games.resistance.episodes import episode

    g = registry.make("resistance")
    starts = 0
    for seed in range(10):
        s = g.new_state(seed)
        rng = np.random.default_rng(seed)
        while not g.kernel.is_terminal(s):
            legal = g.legal_actions(s)
            before = (int(s[K.MISSION]), int(s[K.RES_WINS] + s[K.SPY_WINS]))
            a = legal[int(rng.integers(len(legal)))]
            g.kernel.apply(s, a)
            lab = int(episode(s, a))
            new_mission = (not g.kernel.is_terminal(s)
                           and int(s[K.RES_WINS] + s[K.SPY_WINS]) == before[1] + 1)
            assert lab == (int(s[K.LEADER]) if new_mission else -1)
            starts += lab >= 0
    assert starts >= 15  # most games end two missions or more before the last


def test_resistance_enhanced_game_and_tournament_through_the_cli(cli, tmp_path):
    """A lineup of game-general agents (the registry's kind, not the ``enhance=`` text)
    sends The Resistance to the game-general referee: a game and a tournament play
    through, with and without enhancements."""
    r = cli("game", "--game", "resistance", "--seed", "2",
            "--agent", "moismcts:iterations=40,enhance=epic+lgrf", "--agent", "random")
    assert r.exit_code == 0, r.output
    assert "rewards: moismcts:iterations=40,enhance=epic+lgrf" in r.output
    r = cli("tournament", "--game", "resistance", "moismcts:iterations=30,enhance=epic+lgrf",
            "random", "--games", "3", "--seed", "1", "--out", tmp_path / "t", "--workers", "1",
            "-q")
    assert r.exit_code == 0, r.output
    assert "3 games played" in r.output or "3 games counted" in r.output
    r = cli("game", "--game", "resistance", "--seed", "2", "--agent", "moismcts:iterations=20",
            "--agent", "random")
    assert r.exit_code == 0 and "rewards: moismcts:iterations=20" in r.output, r.output


_NOJIT = """
from spyglass.games import registry
from spyglass.arena.match import play_match
for name, lineup in [("hearts", ["moismcts:iterations=8,enhance=rave"] + ["random"] * 3),
                     ("resistance", ["moismcts:iterations=8,enhance=amaf>epic+lgrf"]
                      + ["random"] * 4)]:
    g = registry.make(name, **({"target": 0} if name == "hearts" else {}))
    r = play_match(g, lineup, seed=4)
    assert r.error is None, r.error
    print(name, r.rewards)
"""


def test_rave_and_resistance_icarus_run_with_numba_disabled():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", _NOJIT], env=env, capture_output=True, text=True,
                       timeout=600, check=False)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "hearts" in r.stdout and "resistance" in r.stdout


@pytest.mark.parametrize("capture", ["selection", "tree"])
@pytest.mark.parametrize("game_name", ["minidoudizhu", "backgammon"])
def test_amaf_records_follow_amaf_6_in_every_tree(game_name, capture):
    """Every move node of every player's tree: each visit chose it, and its action was
    then played at that step, so its AMAF visits are at least its visits even where its
    player had played the same action earlier in the iteration (passes and checker moves
    repeat), and at most the iterations; under AMAF-6 (``selection``, §8.2.3) less the
    visit that created it (its parent was then an expansion node: no capture there), which
    ``amaf_capture=tree`` (a named departure) credits too."""
    g, s, p, view = decision(game_name, 2)
    search = _icarus(g, "amaf", 300, capture)
    res = search.search(view, p, make_rng(4))
    amaf, data = search.records.amaf, search.pool.data
    moves = [n for n in range(search.pool.used) if data[n, KEY] < -1 and data[n, VISITS] > 0]
    assert len(moves) > 100
    uncredited = 1 if capture == "selection" else 0
    for n in moves:
        assert data[n, VISITS] - uncredited <= amaf[n, 1] <= res.iterations, n
    short = sum(amaf[n, 1] < data[n, VISITS] for n in moves)
    assert (short > 10) if capture == "selection" else short == 0
