"""The particle-repair hook's contracts, on every registered game that implements it.

A game's ``spyglass.games.<game>.repair.repair(s, obs, j, rng)`` edits a particle ``s``
(seat ``j``'s, before the actor's move) that cannot explain the observation ``obs`` (see
:data:`spyglass.search.particles.Repair`). Checked: a repaired particle still shows
``j`` the view it showed before; some legal move of it gives ``obs``; after that move it
shows ``j`` exactly ``j``'s true view; repairs keep more of the particle's hidden
information than a fresh draw; the particle filter uses the hook (fewer collapses on the
same seeds), still works without it, and is deterministic with a seed, compiled or not.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from spyglass.agents.mt_ismcts import particle_repair
from spyglass.experiments.particle_repair import follow
from spyglass.games import registry
from spyglass.games.cards.bits import popcount
from spyglass.rng import make_rng
from spyglass.search.particles import ParticleFilter

ROOT = Path(__file__).resolve().parents[2]
TINY = os.environ.get("SPYGLASS_CONTRACT_TINY") == "1"
REPAIRING = [n for n in registry.names() if particle_repair(registry.make(n)) is not None]
N_GAMES = 1 if TINY else 3


def test_the_card_games_with_revealed_cards_have_a_repair():
    assert {"cheat", "hearts", "spades", "doudizhu"} <= set(REPAIRING)
    assert particle_repair(registry.make("phantom")) is None  # generic fallback


def _hidden_distance(name: str, g, a: np.ndarray, b: np.ndarray, j: int) -> int:
    """How many hidden cards two states place differently (from ``j``'s side)."""
    if name == "cheat":
        from spyglass.games.cheat.kernel import HAND, PBY
        o = 1 - j
        return int(sum(abs(a[HAND + 13 * o + r] - b[HAND + 13 * o + r])
                       + abs(a[PBY + 13 * o + r] - b[PBY + 13 * o + r]) for r in range(13)))
    mod = __import__(f"spyglass.games.{name}.kernel", fromlist=["HAND"])
    if name in ("doudizhu", "saboteur"):  # hands are counts per rank / card type
        n = mod.N_RANKS if name == "doudizhu" else mod.N_TYPES
        return int(sum(abs(a[mod.HAND + n * q + r] - b[mod.HAND + n * q + r])
                       for q in range(g.n_players) if q != j for r in range(n))) // 2
    return sum(popcount(int(a[mod.HAND + q]) ^ int(b[mod.HAND + q]))
               for q in range(g.n_players) if q != j) // 2


def _samples(g, s: np.ndarray, x: int, rng: np.ndarray, tries: int = 50) -> bool:
    v = g.view(s, x)
    out = np.zeros(g.state_size, dtype=np.int64)
    return any(g.kernel.sample(v, x, rng, out) for _ in range(tries))


@pytest.mark.parametrize("name", REPAIRING)
def test_repaired_particles_explain_the_move_and_match_the_view(name):
    g = registry.make(name)
    k = g.kernel
    fix = particle_repair(g)
    rng = make_rng(7)
    pick = np.random.default_rng(7)
    tried = repaired = 0
    kept = fresh = 0
    for seed in range(N_GAMES):
        s = g.new_state(seed)
        while not k.is_terminal(s):
            legal = g.legal_actions(s)
            a = legal[int(pick.integers(len(legal)))]
            for j in range(g.n_players):
                obs = int(k.observe(s, a, j))
                before = g.view(s, j)
                t = s.copy()
                k.apply(t, a)
                after = g.view(t, j)
                p = np.zeros(g.state_size, dtype=np.int64)
                assert k.sample(before, j, rng, p)
                if any(k.observe(p, b, j) == obs for b in g.legal_actions(p)):
                    continue
                tried += 1
                q = p.copy()
                if not fix(q, obs, j, rng):
                    continue
                repaired += 1
                moved = _hidden_distance(name, g, p, q, j)
                assert np.array_equal(g.view(q, j), before), "the repair changed the view"
                cons = [b for b in g.legal_actions(q) if k.observe(q, b, j) == obs]
                assert cons, "the repaired particle does not explain the observation"
                k.apply(q, cons[0])
                assert np.array_equal(g.view(q, j), after), "the repaired move's view differs"
                for x in range(g.n_players):  # a possible state: every seat's view samples
                    assert _samples(g, q, x, rng), f"seat {x}'s view of it is impossible"
                # a fresh draw that explains the move too (rejection), for comparison
                f = np.zeros(g.state_size, dtype=np.int64)
                for _ in range(300):
                    assert k.sample(before, j, rng, f)
                    if any(k.observe(f, b, j) == obs for b in g.legal_actions(f)):
                        kept += moved
                        fresh += _hidden_distance(name, g, p, f, j)
                        break
            k.apply(s, a)
    assert tried > 0 and repaired >= 0.5 * tried, (tried, repaired)
    assert kept < fresh, f"repairs moved {kept} hidden cards, fresh draws {fresh}"


@pytest.mark.parametrize("name", REPAIRING)
def test_filter_with_repair_collapses_less_and_stays_consistent(name):
    # ``follow`` asserts that every particle matches the view after every move
    seeds = range(2 if TINY else 4)
    on = follow(name, seeds, particles=8, repair=True, max_moves=40)
    off = follow(name, seeds, particles=8, repair=False, max_moves=40)
    assert on.moves == off.moves  # the same games
    assert on.repairs > 0 and off.repairs == 0
    assert on.collapses < off.collapses or off.collapses == on.collapses == 0
    assert on.collapses + on.resamples < off.collapses + off.resamples


def test_fallback_without_a_hook_rules_contradicted_particles_out():
    g = registry.make("phantom")
    run = follow("phantom", range(2), particles=8, repair=False, max_moves=30)
    assert run.moves > 0 and run.repairs == 0
    with pytest.raises(ValueError, match="no particle repair"):
        follow("phantom", range(1), repair=True)
    assert g is not None


def _particles_after(name: str, seed: int, moves: int = 30) -> bytes:
    g = registry.make(name)
    k = g.kernel
    s = g.new_state(seed)
    pick = np.random.default_rng(seed)
    pf = ParticleFilter(k, g.state_size, g.view_size, 0, 6, make_rng(seed),
                        repair=particle_repair(g))
    pf.reset(g.view(s, 0))
    h = hashlib.sha256()
    for _ in range(moves):
        if k.is_terminal(s):
            break
        legal = g.legal_actions(s)
        a = legal[int(pick.integers(len(legal)))]
        actor = int(k.actor(s))
        obs = int(k.observe(s, a, 0))
        k.apply(s, a)
        pf.update(obs, actor, g.view(s, 0))
        h.update(pf.particles.tobytes())
        h.update(pf.weights.tobytes())
    return h.digest()


@pytest.mark.parametrize("name", REPAIRING)
def test_same_seed_same_repaired_particles(name):
    assert _particles_after(name, 3) == _particles_after(name, 3)
    assert _particles_after(name, 3) != _particles_after(name, 4)


_DIGEST = """
import sys
sys.path.insert(0, {tests!r})
from contracts.test_particle_repair_contracts import REPAIRING, _particles_after
print([_particles_after(n, 1, 20).hex() for n in REPAIRING])
"""


def test_repairs_are_the_same_with_numba_disabled():
    if TINY:
        pytest.skip("already the uncompiled run")
    out = []
    for flag in ("0", "1"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=flag, PYTHONPATH=str(ROOT),
                   SPYGLASS_CONTRACT_TINY="1")
        r = subprocess.run([sys.executable, "-c", _DIGEST.format(tests=str(ROOT / "tests"))],
                           env=env, capture_output=True, text=True, timeout=900, check=False,
                           cwd=ROOT)
        assert r.returncode == 0, r.stderr[-2000:]
        out.append(r.stdout.strip())
    assert out[0] == out[1]


def test_the_agent_uses_the_hook_unless_told_not_to():
    from spyglass.agents import registry as agents

    g = registry.make("cheat")
    s = g.new_state(0)
    on = agents.make("mtismcts_pf", particles=4, model="playout")
    off = agents.make("mtismcts_pf", particles=4, model="playout", repair=False)
    for a in (on, off):
        a.start(g, 0, g.view(s, 0), 1)
    assert on.belief.repair is particle_repair(g) and off.belief.repair is None
    ph = agents.make("mtismcts_pf", particles=4, model="playout")
    p = registry.make("phantom")
    ph.start(p, 0, p.view(p.new_state(0), 0), 1)
    assert ph.belief.repair is None
