"""Fingerprints of the game-general searches on every registered game (issue 26).

Issue 26 merges the copied search loops (sampled/, icarus/) into one loop per algorithm
with compiled hooks; the same seed must still give the same trees, decisions and games.
This module hashes, for every game in the registry:

- *decisions*: at two seeded positions (``icarus_cases.decision``), the whole node pool
  (every record, bit for bit), the decision and the iteration count of SO-ISMCTS (with and
  without EXP3), SO-ISMCTS+POM, MO-ISMCTS (with and without EXP3) and UCT on the true
  state (the cheating search), and of ICARUS SO-, MO-ISMCTS and UCT with each enhancement
  of ``icarus_cases.ENHANCEMENTS`` (EPIC only where the game has an episode function);
- *records*: one seeded game of each game-general search agent in every seat (SO, POM,
  MO, MT over particles, PIMC, the cheating ensembles, UCT where the game has perfect
  information, and a few ICARUS combinations), the record and the last decision's pool.

Small budgets keep it cheap once compiled. ``python tests/search_identity_games.py
--record`` writes ``tests/search_identity_games.json`` (only on code known to be right;
the file's "note" names the commit); ``tests/test_search_identity_games.py`` compares.
A change that must alter some enhancements re-records only theirs:
``--rerecord=rave,amaf,ERML,epic GAME...`` rewrites the hashes whose enhancement text
(``icarus ...`` keys, ``enhance=`` of game keys) contains one of the words, and writes
nothing for a game where any other hash differs (it prints them).
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # run as a script
    sys.path.insert(0, str(HERE))

from icarus_cases import ENHANCEMENTS, GAMES, OPTIONS, decision  # noqa: E402

HASH_FILE = HERE / "search_identity_games.json"
ITERATIONS = 120
ICARUS_ITERATIONS = 50
#: Agent specs played for one seeded game each (all seats the same agent).
AGENT_SPECS = ("soismcts:iterations=25", "soismcts:iterations=25,exp3=true",
               "soismcts_pom:iterations=25", "moismcts:iterations=25",
               "moismcts:iterations=25,exp3=true",
               "mtismcts_pf:iterations=25,particles=16",
               "pimc:d=2,s=12", "cheatinguct:iterations=25", "cheatingensemble:d=2,s=12",
               "soismcts:iterations=25,enhance=rave>mast",
               "moismcts:iterations=25,enhance=lgrf+nast2",
               "soismcts:iterations=25,enhance=amaf>mast-ucb")
PERFECT_SPECS = ("uct:iterations=25", "uct:iterations=25,enhance=rave>mast")
EPIC_SPECS = ("moismcts:iterations=25,enhance=ERML", "soismcts:iterations=25,enhance=epic")


def _digest(obj) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()


def pool_digest(result, pool=None) -> list:
    """A search result's decision, iterations and whole pool (bit for bit)."""
    pool = result.pool if pool is None else pool
    used = int(pool.used)
    h = hashlib.sha256(pool.data[:used].tobytes())
    h.update(pool.fdata[:used].tobytes())
    return [int(result.action), int(result.iterations), used, h.hexdigest()]


def _last_digest(agent) -> list | None:
    """The agent's last decision: its search pool, and an ensemble's votes."""
    last = getattr(agent, "last", None)
    if last is None:
        return None
    if hasattr(last, "pool"):
        return pool_digest(last)
    return [pool_digest(last, agent.uct.pool), sorted(last.votes.items()),
            sorted(last.visits.items())]


def _has_episodes(g) -> bool:
    from spyglass.agents.search_support import icarus_entry

    return bool(icarus_entry(g).has_episodes)


def decision_hashes(game_name: str) -> dict[str, str]:
    """One hash per (game, search, enhancement): its pools at two seeded decisions."""
    from spyglass.agents.search_support import icarus_entry, search_entry
    from spyglass.rng import make_rng
    from spyglass.search.icarus import spec as S
    from spyglass.search.icarus.driver import IcarusMOSearch, IcarusSOSearch, IcarusUCTSearch
    from spyglass.search.sampled.driver import GameShape, ISMCTSSearch, SearchSettings, UCTSearch

    out: dict[str, list] = {}
    for seed in (3, 8):
        g, s, p, view = decision(game_name, seed)
        shape = GameShape.of(g)
        entry = search_entry(g)
        for alg in ("so", "pom", "mo"):
            for exp3 in ((False, True) if alg != "pom" else (False,)):
                st = SearchSettings(iterations=ITERATIONS, exp3=exp3)
                r = ISMCTSSearch(entry, shape, alg, st).search(view, p, make_rng(seed))
                out.setdefault(f"{alg} exp3={exp3}", []).append(pool_digest(r))
        st = SearchSettings(iterations=ITERATIONS)
        r = UCTSearch(entry, shape, st).search(s.copy(), make_rng(seed))
        out.setdefault("uct", []).append(pool_digest(r))
        icarus = icarus_entry(g)
        st = SearchSettings(iterations=ICARUS_ITERATIONS)
        for text in ["", *ENHANCEMENTS]:
            combo = S.parse(text)
            if combo.uses_epic and not icarus.has_episodes:
                continue
            for name, cls in (("so", IcarusSOSearch), ("mo", IcarusMOSearch)):
                r = cls(entry, icarus, shape, st, combo, g.title).search(view, p,
                                                                       make_rng(seed))
                out.setdefault(f"icarus {name} {text}", []).append(pool_digest(r))
            r = IcarusUCTSearch(entry, icarus, shape, st, combo, g.title).search(
                s.copy(), make_rng(seed))
            out.setdefault(f"icarus uct {text}", []).append(pool_digest(r))
    return {f"{game_name} {k}": _digest(v) for k, v in out.items()}


def record_hashes(game_name: str) -> dict[str, str]:
    """One hash per (game, agent spec): one seeded game's record and last search pool."""
    from spyglass.agents import registry as agents
    from spyglass.arena.agent_spec import parse_agent
    from spyglass.arena.match import play_match
    from spyglass.games import registry

    g = registry.make(game_name, **OPTIONS.get(game_name, {}))
    specs = list(AGENT_SPECS)
    if g.information == "perfect":
        specs += PERFECT_SPECS
    if _has_episodes(g):
        specs += EPIC_SPECS
    out = {}
    for spec in specs:
        made = []
        parsed = parse_agent(spec)

        def factory(parsed=parsed, made=made):
            a = parsed.factory()
            made.append(a)
            return a

        factory.agent_name = parsed.label
        r = play_match(g, [factory] * g.n_players, seed=17)
        if r.error is not None:
            raise RuntimeError(f"{game_name} {spec}: {r.error}")
        last = [_last_digest(a) for a in made]
        out[f"{game_name} game {spec}"] = _digest([r.to_record(), last])
    del agents
    return out


def all_hashes(games=GAMES) -> dict[str, str]:
    out = {}
    for name in games:
        out.update(decision_hashes(name))
        out.update(record_hashes(name))
    return out


def recorded() -> dict[str, str]:
    return json.loads(HASH_FILE.read_text())["hashes"]


if __name__ == "__main__":
    games = [a for a in sys.argv[1:] if not a.startswith("--")] or GAMES
    if "--record" in sys.argv:
        import subprocess

        commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                                cwd=HERE).stdout.strip()
        for name in games:  # one game at a time: a long run keeps what it finished
            data = json.loads(HASH_FILE.read_text()) if HASH_FILE.exists() else {}
            data["hashes"] = {**data.get("hashes", {}), **all_hashes([name])}
            # which commit each game was recorded on; the first recording's note is kept
            data.setdefault("note", f"recorded on commit {commit}")
            data.setdefault("recorded", {})[name] = commit
            HASH_FILE.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
            print(f"{name}: {len(data['hashes'])} hashes in {HASH_FILE}", flush=True)
    elif any(a.startswith("--rerecord=") for a in sys.argv):
        words = next(a for a in sys.argv if a.startswith("--rerecord="))[11:].split(",")

        def enhancement(key: str) -> str:
            spec = key.split(" ", 1)[1]
            if spec.startswith("icarus "):
                return spec.split(" ", 2)[2] if spec.count(" ") >= 2 else ""
            return spec.split("enhance=", 1)[1] if "enhance=" in spec else ""

        for name in games:
            got, want = all_hashes([name]), recorded()
            changed = sorted(k for k in got if got[k] != want.get(k))
            others = [k for k in changed if not any(w in enhancement(k) for w in words)]
            same = sorted(k for k in got if k not in changed
                          and any(w in enhancement(k) for w in words))
            print(f"{name}: {len(changed)} of {len(got)} differ; others differing: {others}; "
                  f"matching the words but unchanged: {same}", flush=True)
            if not others:
                data = json.loads(HASH_FILE.read_text())
                data["hashes"].update({k: got[k] for k in changed})
                HASH_FILE.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    else:
        got = all_hashes(games)
        want = recorded()
        bad = [k for k, v in got.items() if want.get(k) != v]
        print(json.dumps(got, indent=1))
        print(f"{len(got) - len(bad)}/{len(got)} match; differ: {bad}")
