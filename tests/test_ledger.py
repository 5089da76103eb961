"""The reproduction ledger (issue 28): the committed page is what the stored data give,
and the verdict rule does what docs/reproductions.md says."""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

from spyglass.experiments.ledger import compute, markdown, verdict
from spyglass.experiments.ledger_claims import CLAIMS, Claim

ROOT = Path(__file__).resolve().parent.parent


@functools.cache
def _stored_rows() -> list[dict]:
    """The ledger of the committed data, computed once for this file (~45 s)."""
    return compute(root=ROOT)


def stored_rows() -> list[dict]:
    return copy.deepcopy(_stored_rows())


def test_committed_page_and_json_are_what_the_stored_data_give():
    rows = stored_rows()
    assert (ROOT / "docs" / "reproductions.md").read_text() == markdown(rows), \
        "docs/reproductions.md is stale: run `spyglass experiment ledger`"
    stored = json.loads((ROOT / "docs" / "reproductions.json").read_text())
    assert [(r["id"], r["verdict"]) for r in stored] == [(r["id"], r["verdict"]) for r in rows]


def test_every_claim_has_one_verdict_and_unique_id():
    rows = stored_rows()
    assert len({r["id"] for r in rows}) == len(CLAIMS)
    assert {r["verdict"] for r in rows} <= {"reproduced", "contradicted",
                                            "too small to decide", "not run"}


def _claim(kind: str, **kw) -> Claim:
    base = dict(id="x", source="cowling2015", where="", claim="", kind=kind, reader="none",
                args={}, family="f", page="p.md", unit="pairs", published_size=100,
                declared=10)
    return Claim(**{**base, **kw})


def _ev(est: float, low: float, high: float, p_null: float = 1.0) -> dict:
    return {"estimate": est, "low": low, "high": high, "p_null": p_null}


def test_verdict_rule_direction():
    c = _claim("direction", sign=1)
    assert verdict(c, _ev(5, 1, 9), 0.01) == "reproduced"
    assert verdict(c, _ev(-5, -9, -1), 0.01) == "contradicted"
    # not significant is never "reproduced", however close
    assert verdict(c, _ev(5, -0.1, 9), 0.06) == "too small to decide"
    assert verdict(c, None, None) == "not run"


def test_verdict_rule_magnitude_and_equal():
    m = _claim("magnitude", published=30.0)
    assert verdict(m, _ev(27, 21, 31, 1e-9), 0.3) == "reproduced"
    assert verdict(m, _ev(17, 10, 24, 1e-6), 0.001) == "contradicted"
    assert verdict(m, _ev(10, -5, 35, 0.4), 0.4) == "too small to decide"
    # a run grown after looking: its looks count against finding the effect at all
    grown = _claim("magnitude", published=30.0, looks=3)
    assert verdict(grown, _ev(27, 1, 53, 0.03), 0.8) == "too small to decide"
    e = _claim("equal", margin=5.0)
    assert verdict(e, _ev(1, -2, 4), 0.5) == "reproduced"
    assert verdict(e, _ev(7, 2, 12), 0.01) == "contradicted"
    assert verdict(e, _ev(0, -28, 28), 1.0) == "too small to decide"


def test_readers_agree_with_each_experiments_own_summary():
    """Each reader against the numbers the experiment itself stored or computes."""
    from spyglass.experiments import ledger
    from spyglass.experiments.outputs import load_jsonl
    from spyglass.experiments.phantom import load

    fig = ROOT / "docs" / "figures"
    # the Phantom run's per-game records give its stored counts and scores
    rr = load(fig / "phantom_roundrobin_200_s2028.json")
    records = fig / "phantom_roundrobin_200_s2028.jsonl"
    tally: dict[tuple[str, str], list[int]] = {}
    for r in load_jsonl(records):
        s1, s2 = r["scores"]
        t = tally.setdefault((r["player1"], r["player2"]), [0, 0, 0])
        t[0 if s1 > s2 else 2 if s2 > s1 else 1] += 1
    assert tally == rr.results
    for seat, i in (("p2", 1), ("both", None)):
        ev = ledger.read_phantom_score(str(records), "MO-ISMCTS", "SO-ISMCTS", seat)
        want = rr.rate("MO-ISMCTS", i, 0.5)[0] - rr.rate("SO-ISMCTS", i, 0.5)[0]
        assert abs(ev["estimate"] - 100 * want) < 1e-9
        assert ev["n"] == rr.rate("MO-ISMCTS", i)[3] == (1200 if i else 2400)
    res = json.loads((fig / "fig1_k20000_n300.json").read_text())
    e = next(x for x in res["effects"] if x["effect"] == "BLUFF over TRUEONLY")
    ev = ledger.read_fig1_effect(str(fig / "fig1_k20000_n300.json"), "BLUFF over TRUEONLY")
    assert abs(ev["estimate"] - e["difference_pp"]) < 1e-9
    assert abs(ev["p_null"] - e["p_mcnemar"]) < 1e-12
    res = json.loads((fig / "doudizhu_landlords.json").read_text())
    c = next(x for x in res["comparisons"] if (x["a"], x["b"]) == ("ismcts", "pimc"))
    ev = ledger.read_ddz_landlords(str(fig / "doudizhu_landlords.deals.jsonl"),
                                   "ismcts", "pimc")
    assert abs(ev["estimate"] - 100 * c["difference"]) < 1e-9
    assert abs(ev["p_null"] - c["p_sign_flip"]) < 1e-12
    split = res["interaction_split"]
    ev = ledger.read_ddz_interaction(str(fig / "doudizhu_landlords.deals.jsonl"))
    want = split["gain_where_cheating_helps"] - split["gain_elsewhere"]
    assert abs(ev["estimate"] - 100 * want) < 1e-9
    assert abs(ev["p_null"] - split["p_welch"]) < 1e-9

    # Runs re-run with per-game records (issue 28): Table 5.1's 30 deals give the totals
    # the first run stored; Mini Dou Di Zhu's records give its stored difference.
    from spyglass.experiments.cells import load as load_records

    first = json.loads((fig / "doudizhu_pimc.json").read_text())["cheating"]["rows"]
    recs = load_records(fig / "doudizhu_table51_n30.jsonl")
    for row, seat in (("landlord", 0), ("peasant 2", 1), ("peasant 3", 2),
                      ("peasants 2 & 3", 1)):
        for cell, key in ((row, "cheating"), ("determinized", "determinized")):
            wins = sum(r["scores"][seat] for r in recs if r["cell"] == cell)
            assert wins == first[row][key]["wins"], (row, key)
    mini = json.loads((fig / "minidoudizhu_ismcts_vs_pimc.json").read_text())
    ev = ledger.read_cells_deals(str(fig / "minidoudizhu_ismcts_vs_pimc.jsonl"),
                                 "ISMCTS", "PIMC", 0)
    assert ev["n"] == mini["deals"]
    assert abs(ev["estimate"] - 100 * mini["difference"]["mean"]) < 1e-9
    # the unpaired ICARUS runs re-run with records give the factors' stored totals
    from spyglass.experiments.ledger_claims import _RECORDED

    for records in _RECORDED:
        totals = str(fig / records.replace(".jsonl", ".json"))
        for factor in json.loads(Path(totals).read_text())["factors"]:
            a = ledger.read_icarus_factor(str(fig / records), factor)
            b = ledger.read_icarus_factor(totals, factor)
            assert (a["test"], a["estimate"]) == (b["test"], b["estimate"]), (records, factor)


def test_cli_check_passes_on_the_repository_and_fails_on_a_stale_page(tmp_path):
    import subprocess
    import sys

    cmd = [sys.executable, "-c", "from spyglass.cli import main; main()", "experiment",
           "ledger", "--check", "--root"]
    ok = subprocess.run(cmd + [str(ROOT)], capture_output=True, text=True)
    assert ok.returncode == 0, ok.stderr
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "figures").symlink_to(ROOT / "docs" / "figures")
    page = (ROOT / "docs" / "reproductions.md").read_text()
    (tmp_path / "docs" / "reproductions.md").write_text(page.replace("reproduced", "holds", 1))
    stale = subprocess.run(cmd + [str(tmp_path)], capture_output=True, text=True)
    assert stale.returncode == 2
    assert "differs from the stored data" in stale.stderr


def test_every_claim_names_an_existing_page_and_a_known_reader():
    from spyglass.experiments.ledger import READERS

    for c in CLAIMS:
        assert (ROOT / "docs" / c.page.split("#")[0]).exists(), c.id
        assert c.not_run or c.reader in READERS, c.id
        assert c.kind != "equal" or c.margin, c.id
        assert c.kind != "magnitude" or c.published is not None or c.not_run, c.id


def test_pages_state_only_the_ledgers_verdicts():
    """A line of a page tagged ``<!-- ledger: ID ... -->`` may name only the verdicts the
    ledger gives those rows (so a page cannot drift from the ledger unnoticed)."""
    import re

    mark = re.compile(r"<!-- ledger: ([^>]*?) -->")
    words = {"reproduced": "reproduced", "contradicted": "contradicted",
             "too small": "too small to decide", "not run": "not run"}
    verdicts = {r["id"]: r["verdict"] for r in stored_rows()}
    tagged = 0
    for page in sorted((ROOT / "docs").glob("*.md")):
        for line in page.read_text().splitlines():
            m = mark.search(line)
            if not m:
                continue
            ids = m.group(1).split()
            given = {verdicts[i] for i in ids}  # an unknown id fails here
            text = mark.sub("", line).lower().replace("not reproduced", "")
            said = {v for w, v in words.items() if w in text}
            assert said, f"{page.name}: a tagged line names no verdict: {line}"
            assert said <= given, f"{page.name}: {sorted(said - given)} not the ledger's: {line}"
            tagged += 1
    assert tagged >= 25
