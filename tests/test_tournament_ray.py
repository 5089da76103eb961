"""The Ray backend on a local cluster gives the same games and results as the process pool."""

from __future__ import annotations

import json

import pytest

from spyglass import tournament

pytestmark = pytest.mark.ray


def test_ray_matches_the_local_pool(tmp_path):
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'spyglass[ray]')")
    kw = dict(games=120, seed=21, chunk=30, progress=False)
    bots = ["randombot", "randombot", "randombot"]
    on_ray = tournament.run(bots, out=tmp_path / "ray", backend="ray", workers=2, **kw)
    local = tournament.run(bots, out=tmp_path / "local", workers=2, **kw)
    assert on_ray.complete and on_ray.to_dict() == local.to_dict()
    manifest = json.loads((tmp_path / "ray" / "tournament.json").read_text())
    assert manifest["last_run_backend"] == "ray"
    lines = {p: sorted((tmp_path / p / "games.jsonl").read_text().splitlines())
             for p in ("ray", "local")}
    assert lines["ray"] == lines["local"]
