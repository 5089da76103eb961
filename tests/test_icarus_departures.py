"""The named departures from Whitehouse 2014's ICARUS specifications, each an option
whose default is the thesis's (``spyglass.search.icarus.spec.DEPARTURES``).

AMAF-6's capture (Whitehouse 2014, §8.2.3, Specification 2, with §8.2.2's selection,
expansion and simulation nodes): the records under a node are updated only when that
node was a *selection node* of the descent (every legal action already had a child);
``amaf_capture=tree``, a named departure, also updates them at the expansion node.

The hand-checkable case, in each loop (UCT, MO- and SO-ISMCTS): the root has k legal
actions, so each of the first k iterations expands one more root child and stops there
(one new node per iteration). The root is an expansion node in all of them, so after k
iterations AMAF-6 has updated no record at all; in iteration k+1 the root is a selection
node for the first time, and the child chosen there gets its first AMAF visit (its action
is played at that step, j = i + 1). Under ``tree`` every root child got one in the
iteration that created it.

EPIC-7's availability (§8.3.1, Specification 7): every record starts at (0, 0, 0) and
counts each time it was available (ψavail), visited or not; ``epic_avail=visited``, a
named departure, counts it only once the record has been visited.
"""

from __future__ import annotations

import numpy as np
import pytest
from icarus_cases import decision

from spyglass.agents import registry as agents
from spyglass.agents.search_support import icarus_entry, search_entry
from spyglass.games import registry
from spyglass.rng import make_rng
from spyglass.search.icarus import spec as S
from spyglass.search.icarus.driver import IcarusMOSearch, IcarusSOSearch, IcarusUCTSearch
from spyglass.search.sampled.driver import GameShape, SearchSettings
from spyglass.search.sampled.pool import CHILD, KEY, SIBLING, VISITS

LOOPS = ["uct", "mo", "so"]


def _search(loop: str, capture: str, iterations: int):
    """UCT on Othello's opening, or MO-/SO-ISMCTS at a Mini Dou Di Zhu decision, with
    ``amaf``: (the search, its result, the root's number of legal actions)."""
    combo = S.parse("amaf", S.Tuning(amaf_capture=capture))
    st = SearchSettings(iterations=iterations)
    if loop == "uct":
        g = registry.make("othello")
        s = g.new_state(0)
        search = IcarusUCTSearch(search_entry(g), icarus_entry(g), GameShape.of(g), st, combo)
        return search, search.search(s.copy(), make_rng(1)), len(g.legal_actions(s))
    g, s, p, view = decision("minidoudizhu", 2)
    cls = IcarusMOSearch if loop == "mo" else IcarusSOSearch
    search = cls(search_entry(g), icarus_entry(g), GameShape.of(g), st, combo, g.title)
    return search, search.search(view, p, make_rng(1)), len(g.legal_actions(s))


def _root_children(search, res) -> list[int]:
    data = search.pool.data
    out, ch = [], int(data[res.decision_node, CHILD])
    while ch >= 0:
        if _is_move(data, ch):
            out.append(ch)
        ch = int(data[ch, SIBLING])
    return out


def _is_move(data, node) -> bool:
    # UCT's edges are action ids (>= 0); the sampled loops' move keys are < -1.
    return int(data[node, KEY]) >= 0 or int(data[node, KEY]) < -1


@pytest.mark.parametrize("loop", LOOPS)
def test_amaf_6_captures_nothing_while_the_root_is_an_expansion_node(loop):
    _, _, k = _search(loop, "selection", 1)
    assert k >= 3
    search, res, _ = _search(loop, "selection", k)
    kids = _root_children(search, res)
    assert len(kids) == k and all(search.pool.data[c, VISITS] == 1 for c in kids)
    assert not search.records.amaf.any()  # no selection node yet: no AMAF record updated
    tree, tres, _ = _search(loop, "tree", k)
    assert all(tree.records.amaf[c, 1] >= 1 for c in _root_children(tree, tres))


@pytest.mark.parametrize("loop", LOOPS)
def test_amaf_6_captures_under_the_first_selection_node(loop):
    _, _, k = _search(loop, "selection", 1)
    search, res, _ = _search(loop, "selection", k + 1)
    amaf, data = search.records.amaf, search.pool.data
    kids = _root_children(search, res)
    again = [c for c in kids if data[c, VISITS] == 2]
    assert len(again) == 1  # the one chosen at the selection node
    assert amaf[again[0], 1] == 1.0  # its action was played at that step: j = i + 1
    assert all(amaf[c, 1] <= 1.0 for c in kids)  # one update per iteration at most
    others = np.setdiff1d(np.arange(amaf.shape[0]), kids)
    assert not amaf[others].any()  # the nodes below were expansion or simulation nodes
    tree, tres, _ = _search(loop, "tree", k + 1)
    chosen = [c for c in _root_children(tree, tres) if tree.pool.data[c, VISITS] == 2]
    assert tree.records.amaf[chosen[0], 1] >= 2.0  # also credited when it was created


def _epic_records(avail: str, iterations: int):
    """EPIC's records (visits, availability) after UCT with ``epic`` on Othello."""
    g = registry.make("othello")
    combo = S.parse("epic", S.Tuning(epic_avail=avail))
    search = IcarusUCTSearch(search_entry(g), icarus_entry(g), GameShape.of(g),
                             SearchSettings(iterations=iterations), combo)
    search.search(g.new_state(0), make_rng(5))
    rec = search.records
    used = rec.hkeys != 0
    return rec.hstat[used, 1], rec.hstat[used, 2]


def test_epic_7_counts_availability_of_records_not_yet_visited():
    # One iteration: the same playout either way (an unvisited record's value is +inf
    # whether it exists or not), each of its t moves one visit and one availability.
    n_all, m_all = _epic_records("all", 1)
    n_vis, m_vis = _epic_records("visited", 1)
    assert n_all.sum() == n_vis.sum() > 20  # the t moves' visits
    assert (m_vis == n_vis).all()  # no record existed when its alternatives were seen
    assert (m_all >= n_all).all() and (n_all == 0).sum() > 0  # available, never visited
    assert m_all.sum() > m_vis.sum() and len(n_all) > len(n_vis)
    # Later: a record first visited after it had been available reads the larger m.
    n_all, m_all = _epic_records("all", 60)
    n_vis, m_vis = _epic_records("visited", 60)
    assert ((n_all == 1) & (m_all > 1)).sum() > 0
    assert (m_all >= n_all).all() and (m_vis >= n_vis).all()


def test_departures_are_agent_settings_declared_once():
    assert S.parse("rave").cfg[S.C_AMAF_CAPTURE] == S.AMAF_SELECTION  # the thesis's
    tree = S.parse("rave", S.Tuning(amaf_capture="tree"))
    assert tree.cfg[S.C_AMAF_CAPTURE] == S.AMAF_TREE
    with pytest.raises(ValueError, match="amaf_capture must be one of selection, tree"):
        S.parse("rave", S.Tuning(amaf_capture="expansion"))
    for name in ("moismcts", "soismcts", "uct"):
        a = agents.make(name, iterations=10, enhance="rave", amaf_capture="tree")
        assert a.combo.cfg[S.C_AMAF_CAPTURE] == S.AMAF_TREE
        assert agents.make(name, enhance="rave").combo.cfg[S.C_AMAF_CAPTURE] == 0
        with pytest.raises(ValueError, match="amaf_capture"):
            agents.make(name, enhance="rave", amaf_capture="bogus")
    assert S.parse("epic").cfg[S.C_EPIC_AVAIL] == S.EPIC_AVAIL_ALL  # the thesis's
    assert S.parse("epic", S.Tuning(epic_avail="visited")).cfg[S.C_EPIC_AVAIL] == \
        S.EPIC_AVAIL_VISITED
    a = agents.make("moismcts", enhance="epic", epic_avail="visited")
    assert a.combo.cfg[S.C_EPIC_AVAIL] == S.EPIC_AVAIL_VISITED
    with pytest.raises(ValueError, match="epic_avail"):
        agents.make("uct", enhance="epic", epic_avail="some")
