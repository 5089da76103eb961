"""Fingerprints of MT-ISMCTS over particles (``mtismcts_pf``), to compare two commits.

For each game named, plays one seeded game per configuration (every self-determinization
variant, TWOSTEP with both opponent models, EXP3, UCB-Tuned; small budgets), every seat
the agent, and hashes the record with, at every decision, the whole node pool (bit for
bit), the per-player tree tables, the iterations of each phase and the merged visits.
Issue 26 runs MT on the multiple-tree loop; the same seed must still build the same
trees. ``tests/search_identity_mt.json`` holds the hashes recorded on ``main`` before
that change (commit named in its note); ``tests/test_search_identity_mt.py`` compares.
To compare two trees directly, write each one's hashes and diff them:

    PYTHONPATH=/tmp/old python tests/search_identity_mt.py /tmp/old.json phantom resistance
    PYTHONPATH=. python tests/search_identity_mt.py /tmp/new.json phantom resistance
    diff /tmp/old.json /tmp/new.json
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

from spyglass.agents.mt_ismcts import MTISMCTSPFAgent
from spyglass.arena.match import play_match
from spyglass.games import registry as games

OPTIONS = {"hearts": {"target": 0}, "spades": {"target": 0}}
CONFIGS = [dict(bluff="trueonly"), dict(bluff="pure"), dict(bluff="split", t1=0.3),
           dict(bluff="twostep", t1=0.4), dict(bluff="bluff"), dict(exp3=True),
           dict(model="playout", bluff="twostep"), dict(bandit="ucbt")]
SMALL = dict(iterations=80, particles=8, model_iterations=8)
HASH_FILE = Path(__file__).resolve().parent / "search_identity_mt.json"


def game_hash(name: str, config: dict, seed: int) -> str:
    """One seeded game of ``mtismcts_pf`` with ``config`` in every seat, hashed."""
    h = hashlib.sha256()

    class Hashing(MTISMCTSPFAgent):
        agent_name = "mtismcts_pf"

        def act(self, view, legal):
            a = super().act(view, legal)
            last = self.last
            if last is not None:
                used = int(last.pool.used)
                h.update(last.pool.data[:used].tobytes())
                h.update(last.pool.fdata[:used].tobytes())
                for table in (self.search.tkeys, self.search.troots, self.search.tcount):
                    h.update(table.tobytes())
                h.update(json.dumps([int(last.iterations), list(last.phase_iterations),
                                     sorted(last.merged_visits.items())]).encode())
            h.update(str(a).encode())
            return a

    def factory():
        return Hashing(**SMALL, **config)

    factory.agent_name = "mtismcts_pf"
    g = games.make(name, **OPTIONS.get(name, {}))
    r = play_match(g, [factory] * g.n_players, seed=seed)
    if r.error is not None:
        raise RuntimeError(f"{name} {config}: {r.error}")
    h.update(json.dumps(r.to_record(), sort_keys=True, default=str).encode())
    return h.hexdigest()[:16]


def hashes(name: str) -> dict[str, str]:
    """``name``'s hashes: one per configuration."""
    return {f"{name} {json.dumps(config, sort_keys=True)}": game_hash(name, config, 11 + i)
            for i, config in enumerate(CONFIGS)}


def recorded() -> dict[str, str]:
    return json.loads(HASH_FILE.read_text())["hashes"]


def main(out: str, names: list[str]) -> None:
    got = {}
    for name in names:
        got.update(hashes(name))
        print(name, "done", flush=True)
    with open(out, "w") as f:
        json.dump(got, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
