"""ICARUS on every registered game through SO-ISMCTS (Whitehouse 2014, ch. 8 on §5.2's
one tree): the baseline is today's SO-ISMCTS node for node, every enhancement (AMAF and
RAVE in the one tree included) searches legally and reproducibly, AMAF's records obey
AMAF-6 at the root, and ``soismcts:enhance=`` agents play whole games. The compiled
entry points are the same per game as the MO tests' (one ``icarus_entry`` module each)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from icarus_cases import ENHANCEMENTS as ICARUS_CASES
from icarus_cases import GAMES, OPTIONS, decision

from spyglass.agents import registry as agents
from spyglass.agents.search_support import icarus_entry, search_entry
from spyglass.arena.match import play_match
from spyglass.games import registry
from spyglass.rng import make_rng
from spyglass.search.icarus import spec as S
from spyglass.search.icarus.driver import IcarusSOSearch
from spyglass.search.sampled.driver import GameShape, ISMCTSSearch, SearchSettings
from spyglass.search.sampled.pool import CHILD, KEY, SIBLING, VISITS

ROOT = Path(__file__).resolve().parents[1]
ENHANCEMENTS = ICARUS_CASES + ["amaf>lgrf"]


def _icarus(g, text: str, iterations: int, exp3: bool = False,
            amaf_capture: str = "selection") -> IcarusSOSearch:
    return IcarusSOSearch(search_entry(g), icarus_entry(g), GameShape.of(g),
                          SearchSettings(iterations=iterations, exp3=exp3),
                          S.parse(text, S.Tuning(amaf_capture=amaf_capture)), g.title)


def _same_pool(a, b) -> None:
    assert a.action == b.action and a.pool.used == b.pool.used
    assert (a.pool.data[: a.pool.used] == b.pool.data[: b.pool.used]).all()
    # Bit for bit (fdata shares its memory with data: some words are not floats).
    assert a.pool.fdata[: a.pool.used].tobytes() == b.pool.fdata[: b.pool.used].tobytes()


@pytest.mark.timeout(1800)  # the first call compiles the game's ICARUS SO entry point
@pytest.mark.parametrize("game_name", GAMES)
def test_baseline_icarus_so_is_todays_soismcts_on_every_game(game_name):
    """Spec 1 through the ICARUS SO loop: the same pool bit for bit, the same decision,
    on two positions (and with EXP3 where the game has simultaneous moves)."""
    for seed in (3, 8):
        g, s, p, view = decision(game_name, seed)
        shape, st = GameShape.of(g), SearchSettings(iterations=150)
        a = ISMCTSSearch(search_entry(g), shape, "so", st).search(view, p, make_rng(seed))
        b = _icarus(g, "", 150).search(view, p, make_rng(seed))
        _same_pool(a, b)
    st = SearchSettings(iterations=150, exp3=True)
    a = ISMCTSSearch(search_entry(g), shape, "so", st).search(view, p, make_rng(1))
    b = _icarus(g, "base", 150, exp3=True).search(view, p, make_rng(1))
    _same_pool(a, b)


@pytest.mark.parametrize("game_name", GAMES)
def test_every_enhancement_searches_every_game(game_name):
    g, s, p, view = decision(game_name, 5)
    base = _icarus(g, "", 60).search(view, p, make_rng(9)).pool
    base_data = base.data[: base.used].copy()
    changed = 0
    for text in ENHANCEMENTS:
        if ("epic" in text or text == "ERML") and not icarus_entry(g).has_episodes:
            with pytest.raises(ValueError, match="episode function"):
                _icarus(g, text, 40)
            continue
        search = _icarus(g, text, 60)
        first = search.search(view, p, make_rng(9))
        used = search.pool.used
        data = search.pool.data[:used].copy()
        again = search.search(view, p, make_rng(9))
        assert first.action == again.action and used == search.pool.used, text
        assert (data == search.pool.data[:used]).all(), text
        assert first.action in g.legal_actions(s), text
        assert first.iterations == 60, text
        changed += data.shape != base_data.shape or bool((data != base_data).any())
    assert changed >= 3  # the enhancements do change the search (not the baseline again)


def _root_children(pool, root):
    ch = int(pool.data[root, CHILD])
    while ch >= 0:
        yield ch
        ch = int(pool.data[ch, SIBLING])


@pytest.mark.parametrize("game_name", ["hearts", "resistance", "phantom", "othello"])
@pytest.mark.parametrize("text", ["amaf", "rave"])
def test_amaf_records_follow_amaf_6_at_the_root(game_name, text):
    """At the root (the searcher chooses there every iteration; an expansion node in the
    first k, k its legal actions, a selection node after): AMAF-6 (§8.2.3) credits a
    child at each later choice of it (the move chosen is played at that very step), so
    its AMAF visits are at least its visits less the one that created it, and at most the
    iterations after the k (one update per iteration); siblings not chosen are updated
    too (moves the searcher played later count)."""
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
    if game_name in ("hearts", "phantom", "othello"):  # the searcher plays more moves later
        assert sum(amaf[c, 1] for c in kids) > res.iterations - k


@pytest.mark.parametrize("capture", ["selection", "tree"])
@pytest.mark.parametrize("game_name", ["resistance", "backgammon", "minidoudizhu"])
def test_amaf_records_follow_amaf_6_in_the_whole_tree(game_name, capture):
    """Every move node, at any depth: each visit chose it, and its action was then played
    at that step, so its AMAF visits are at least its visits, even where its player had
    played the same action earlier in the iteration (votes, passes, checker moves
    repeat in these games), and at most the iterations; under AMAF-6 (``selection``,
    §8.2.3) less the visit that created it (its parent was then an expansion node),
    which ``amaf_capture=tree`` (a named departure) credits too."""
    g, s, p, view = decision(game_name, 2)
    search = _icarus(g, "amaf", 300, amaf_capture=capture)
    res = search.search(view, p, make_rng(4))
    amaf, data = search.records.amaf, search.pool.data
    moves = [n for n in range(search.pool.used) if data[n, KEY] < -1]
    assert len(moves) > 100
    uncredited = 1 if capture == "selection" else 0
    deep = short = 0
    for n in moves:
        assert data[n, VISITS] - uncredited <= amaf[n, 1] <= res.iterations, n
        deep += amaf[n, 1] > data[n, VISITS]
        short += amaf[n, 1] < data[n, VISITS]
    assert deep > 10  # siblings are updated by moves played later, at every depth
    assert (short > 10) if capture == "selection" else short == 0


def test_soismcts_takes_enhance_and_keeps_the_unchanged_loop_without_it():
    g = registry.make("phantom")
    s = g.new_state(1)
    view = g.view(s, 0)
    for spec in ({}, {"enhance": ""}, {"enhance": "base"}, {"enhance": "-"}):
        a = agents.make("soismcts", iterations=10, **spec)
        a.start(g, 0, view, 1)
        assert type(a.search) is ISMCTSSearch, spec
    a = agents.make("soismcts", iterations=10, enhance="rave>mast")
    a.start(g, 0, view, 1)
    assert isinstance(a.search, IcarusSOSearch) and a.search.algorithm == "so"
    with pytest.raises(ValueError, match="enhance"):
        agents.make("soismcts", enhance="rave>bogus")
    a = agents.make("soismcts", iterations=10, enhance="epic")  # Phantom has no episodes
    with pytest.raises(ValueError, match="episode function"):
        a.start(g, 0, view, 1)


@pytest.mark.parametrize("game_name,lineup", [
    ("hearts", ["soismcts:iterations=60,enhance=epic+lgrf", "random", "random", "random"]),
    ("phantom", ["soismcts:iterations=60,enhance=rave", "soismcts:iterations=60"]),
    ("backgammon", ["soismcts:iterations=15,enhance=ERML", "random"]),
    ("resistance", ["soismcts:iterations=60,enhance=rave>mast+epic"] + ["random"] * 4),
])
def test_enhanced_soismcts_plays_whole_games(game_name, lineup):
    g = registry.make(game_name, **OPTIONS.get(game_name, {}))
    r = play_match(g, lineup, seed=1)
    assert r.error is None and g.kernel.is_terminal(r.state)
    again = play_match(g, lineup, seed=1)
    assert again.rewards == r.rewards


def test_enhanced_soismcts_game_through_the_cli(cli):
    r = cli("game", "--game", "phantom", "--seed", "2",
            "--agent", "soismcts:iterations=40,enhance=epic", "--agent", "random")
    assert r.exit_code != 0 and "episode function" in r.output
    r = cli("game", "--game", "phantom", "--seed", "2",
            "--agent", "soismcts:iterations=40,enhance=rave>lgrf", "--agent", "random")
    assert r.exit_code == 0, r.output
    assert "rewards: soismcts:iterations=40,enhance=rave>lgrf" in r.output


_NOJIT = """
from spyglass.games import registry
from spyglass.arena.match import play_match
for lineup in (["soismcts:iterations=8,enhance=rave>lgrf", "soismcts:iterations=8"],
               ["soismcts:iterations=8,enhance=mast+nast2", "random"]):
    r = play_match(registry.make("phantom"), lineup, seed=4)
    assert r.error is None, r.error
    print("phantom", r.rewards)
"""


def test_icarus_so_runs_with_numba_disabled():
    env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONPATH=str(ROOT))
    r = subprocess.run([sys.executable, "-c", _NOJIT], env=env, capture_output=True, text=True,
                       timeout=600, check=False)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.count("phantom") == 2
