"""ICARUS (Whitehouse 2014, ch. 8): the grammar, the baseline's exactness, every enhancement."""

from __future__ import annotations

import numpy as np
import pytest

from spyglass.agents import registry as agents
from spyglass.arena.match import play_match
from spyglass.games import registry
from spyglass.games.othello.icarus_entry import ICARUS
from spyglass.games.othello.search_entry import ENTRY
from spyglass.rng import make_rng
from spyglass.search.icarus import spec as S
from spyglass.search.icarus.driver import IcarusUCTSearch
from spyglass.search.sampled.driver import GameShape, SearchSettings, UCTSearch

ALL = ["rave", "amaf", "mast", "mast-egreedy", "mast-roulette", "mast-ucb", "tomast", "lgr",
       "lgrf", "nast1", "nast2", "nast4", "epic", "mast>mast", "0.3*mast+0.7*epic",
       *S.TABLE_8_1]


def othello_position(moves: int, seed: int) -> np.ndarray:
    g = registry.make("othello")
    s = g.new_state(0)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        legal = g.legal_actions(s)
        g.kernel.apply(s, legal[int(rng.integers(len(legal)))])
    return s


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_baseline_icarus_is_todays_uct_node_for_node(seed):
    """Specification 1 through the ICARUS loop: the same tree, bit for bit, and decision."""
    g = registry.make("othello")
    shape, st = GameShape.of(g), SearchSettings(iterations=1500)
    s = othello_position(seed * 7, seed)
    a = UCTSearch(ENTRY, shape, st).search(s, make_rng(seed))
    b = IcarusUCTSearch(ENTRY, ICARUS, shape, st, S.parse("base")).search(s, make_rng(seed))
    assert a.action == b.action
    assert a.pool.used == b.pool.used
    assert (a.pool.data[: a.pool.used] == b.pool.data[: b.pool.used]).all()


def test_an_enhancement_changes_the_tree():
    g = registry.make("othello")
    shape, st = GameShape.of(g), SearchSettings(iterations=800)
    s = g.new_state(0)
    a = UCTSearch(ENTRY, shape, st).search(s, make_rng(4))
    b = IcarusUCTSearch(ENTRY, ICARUS, shape, st, S.parse("mast")).search(s, make_rng(4))
    assert a.pool.used != b.pool.used or (a.pool.data[: a.pool.used]
                                          != b.pool.data[: b.pool.used]).any()


@pytest.mark.parametrize("text", ALL)
def test_every_enhancement_searches_legally_and_deterministically(text):
    g = registry.make("othello")
    shape, st = GameShape.of(g), SearchSettings(iterations=300)
    s = othello_position(10, 5)
    search = IcarusUCTSearch(ENTRY, ICARUS, shape, st, S.parse(text))
    first = search.search(s, make_rng(9))
    used = search.pool.used
    again = search.search(s, make_rng(9))
    assert first.action == again.action and used == search.pool.used
    assert first.action in g.legal_actions(s)


def test_records_are_captured():
    g = registry.make("othello")
    shape, st = GameShape.of(g), SearchSettings(iterations=200)
    s = g.new_state(0)
    search = IcarusUCTSearch(ENTRY, ICARUS, shape, st, S.parse("mast+lgrf+nast2+epic"))
    search.search(s, make_rng(1))
    rec = search.records
    # MAST counts every move of every playout: about 60 per iteration in Othello.
    assert 200 * 50 < rec.mast[:, 1].sum() < 200 * 125
    assert (rec.lgr >= 0).any()
    assert rec.hmeta[0] > 100 and not rec.table_full
    tomast = IcarusUCTSearch(ENTRY, ICARUS, shape, st, S.parse("tomast"))
    tomast.search(s, make_rng(1))
    assert tomast.records.mast[:, 1].sum() < 200 * 20  # tree moves only


def test_grammar():
    c = S.parse("rave+mast+epic")
    assert c.cfg[S.C_TREE] == S.TREE_RAVE and c.cfg[S.C_N_SIM] == 2
    assert S.parse("ERML").cfg[S.C_N_SIM] == 3
    assert S.parse("").is_baseline and S.parse("-").is_baseline and S.parse("base").is_baseline
    assert S.parse("nast5").nast_n == 5 and S.parse("nast").nast_n == 2
    c = S.parse("mast>0.25*lgrf+0.75*epic")
    assert c.cfg[S.C_TREE] == S.TREE_MIX and c.fcfg[S.F_SIM_W + 1] == 0.75
    for bad in ["foo", "epic>rave", "mast>lgr>epic", "lgr+lgrf", "nast2+nast3", "x*mast",
                "rave+amaf>mast", "0*mast"]:
        with pytest.raises(ValueError):
            S.parse(bad)


def test_agent_parameter_and_bad_input():
    g = registry.make("othello")
    r = play_match(g, ["uct:iterations=200,enhance=epic+lgrf", "uct:iterations=200"], seed=3)
    assert r.error is None
    with pytest.raises(ValueError, match="unknown enhancement"):
        agents.make("uct", enhance="mast+magic")


def _mo_pair(game_name: str, opts: dict, text: str, seed: int, iterations: int = 400):
    from spyglass.agents.search_support import icarus_entry, search_entry
    from spyglass.search.icarus.driver import IcarusMOSearch
    from spyglass.search.sampled.driver import ISMCTSSearch

    g = registry.make(game_name, **opts)
    s = g.new_state(seed)
    view = g.view(s, g.kernel.actor(s))
    shape, st = GameShape.of(g), SearchSettings(iterations=iterations)
    a = ISMCTSSearch(search_entry(g), shape, "mo", st).search(view, g.kernel.actor(s),
                                                             make_rng(seed))
    b = IcarusMOSearch(search_entry(g), icarus_entry(g), shape, st, S.parse(text),
                       g.title).search(view, g.kernel.actor(s), make_rng(seed))
    return g, s, a, b


@pytest.mark.parametrize("game_name,opts", [("phantom", {}), ("hearts", {"target": 0}),
                                           ("spades", {"target": 0}), ("minidoudizhu", {})])
def test_baseline_icarus_mo_is_todays_moismcts_node_for_node(game_name, opts):
    g, s, a, b = _mo_pair(game_name, opts, "", 3)
    assert a.action == b.action and a.pool.used == b.pool.used
    assert (a.pool.data[: a.pool.used] == b.pool.data[: b.pool.used]).all()


@pytest.mark.parametrize("text", ["mast", "mast-egreedy", "tomast", "lgrf", "nast2", "epic",
                                  "mast+lgrf+epic"])
def test_mo_enhancements_search_hearts(text):
    g, s, a, b = _mo_pair("hearts", {"target": 0}, text, 5, 200)
    assert b.action in g.legal_actions(s)


@pytest.mark.parametrize("game_name,opts", [("spades", {"target": 0}), ("minidoudizhu", {})])
@pytest.mark.parametrize("text", ["epic", "epic+lgrf", "mast+lgrf+epic"])
def test_mo_enhancements_search_spades_and_minidoudizhu(game_name, opts, text):
    g, s, a, b = _mo_pair(game_name, opts, text, 5, 200)
    assert b.action in g.legal_actions(s)


@pytest.mark.parametrize("game_name,opts", [("spades", {"target": 0}), ("minidoudizhu", {})])
def test_epic_lgrf_agent_plays_whole_games(game_name, opts):
    g = registry.make(game_name, **opts)
    lineup = ["moismcts:iterations=100,enhance=epic+lgrf", "random"] * (g.n_players // 2)
    for seed in range(2):
        r = play_match(g, lineup, seed=seed)
        assert r.error is None


def test_card_game_episodes():
    """Spades: D once a round is dealt, L_i when seat i is about to lead (as Hearts,
    Whitehouse 2014, eq. 8.7); Mini Dou Di Zhu: L_i when seat i makes a leading play
    (eq. 8.6)."""
    from spyglass.games.minidoudizhu import kernel as MK
    from spyglass.games.minidoudizhu.episodes import episode as mdd_episode
    from spyglass.games.spades import kernel as SK
    from spyglass.games.spades.episodes import DEAL
    from spyglass.games.spades.episodes import episode as spades_episode

    g = registry.make("spades", target=200)
    s = g.new_state(2)
    rng = make_rng(2)
    labels = []
    while not g.kernel.is_terminal(s):
        legal = g.legal_actions(s)
        a = legal[int(rng[0] % np.uint64(len(legal)))]
        rng[0] ^= np.uint64(0x9E3779B97F4A7C15)
        trick_start = s[SK.PHASE] == SK.PLAYING and s[SK.N_PLAYED] % 4 == 3
        g.kernel.apply(s, a)
        lab = int(spades_episode(s, a))
        labels.append(lab)
        if trick_start and s[SK.N_PLAYED] % 4 == 0 and s[SK.PHASE] == SK.PLAYING:
            assert lab == 1 + int(s[SK.TO_MOVE])
    rounds = int(s[SK.ROUND_NO])
    assert rounds >= 2 and labels.count(DEAL) == rounds - 1  # every new deal but the first
    assert sum(1 for x in labels if x >= 1) == 13 * rounds  # every trick of every round
    g = registry.make("minidoudizhu")
    for seed in range(20):
        s = g.new_state(seed)
        while not g.kernel.is_terminal(s):
            legal = g.legal_actions(s)
            a = legal[seed % len(legal)]
            g.kernel.apply(s, a)
            lab = int(mdd_episode(s, a))
            leading = not g.kernel.is_terminal(s) and s[MK.LAST_SIZE] == 0
            assert lab == (int(s[MK.TO_MOVE]) if leading else -1)


def test_mo_refuses_what_it_lacks():
    g, s, a, b = _mo_pair("phantom", {}, "rave>mast", 1)  # RAVE is in MO-ISMCTS's trees now
    assert b.action in g.legal_actions(s)
    with pytest.raises(ValueError, match="episode function"):
        _mo_pair("phantom", {}, "epic", 1)
