"""Regression sample of the rewrite/perturbation diagnostics (experiments/diagnostics.py).

Each fixture line is a miniF2F statement and one labelled variant of it, as printed Lean text,
with the SAE verdict at the time the fixture was written. The engine must never reject a
rewrite nor accept an effective perturbation; verdicts that were decided must stay decided
the same way. Regenerate (after an intended change of the generator) with::

    .venv/bin/python experiments/diagnostics.py ../shared/data/minif2f_lean4.jsonl \
        --statements 100 --rewrites 4 --perturbations 5 --seed 0 --timeout 1 \
        --write-fixture tests/fixtures/diagnostics_sample.jsonl --fixture-statements 15
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import provers
from provers.perturb import perturbations, rewrites

FIXTURE = Path(__file__).parent / "fixtures" / "diagnostics_sample.jsonl"
RECORDS = [json.loads(line) for line in FIXTURE.read_text().splitlines() if line.strip()]
TIMEOUT = 3.0


def _id(r: dict) -> str:
    return f"{r['id']}:{r['kind']}:{'rw' if r['preserving'] else 'pt'}"


def test_fixture_covers_both_sets_and_every_kind_family():
    assert len({r["id"] for r in RECORDS}) >= 10
    rws = [r for r in RECORDS if r["preserving"]]
    pts = [r for r in RECORDS if not r["preserving"]]
    assert len(rws) >= 30 and len(pts) >= 30
    assert len({r["kind"] for r in rws}) >= 5 and len({r["kind"] for r in pts}) >= 6


@pytest.mark.parametrize("rec", RECORDS, ids=_id)
def test_engine_verdict_on_fixture(rec):
    original = provers.parse(rec["formal"], "lean4")
    variant = provers.parse(rec["text"], rec["language"])
    v = provers.check_equivalence(original, variant, relation="sae", timeout=TIMEOUT)
    where = f"{rec['id']} {rec['kind']}: {rec['description']}\n{v.explain()}"
    if rec["preserving"]:
        assert v.status != "inequivalent", "SOUNDNESS: a meaning-preserving rewrite was rejected\n" + where
        if rec["sae"] == "equivalent":
            assert v.status == "equivalent", "regression: rewrite no longer proved equivalent\n" + where
    elif rec["effective"] is True:
        assert v.status != "equivalent", "SOUNDNESS: an effective perturbation was accepted\n" + where
        if rec["sae"] == "inequivalent":
            assert v.status == "inequivalent", "regression: perturbation no longer refuted\n" + where
    elif rec["effective"] is False:
        assert v.status != "inequivalent", "a change the engine proved irrelevant is now refuted\n" + where


def test_generator_still_produces_the_fixture_variants():
    """The fixture texts came from provers.perturb with these seeds: same seed, same variants."""
    cache: dict[tuple, dict] = {}
    for rec in RECORDS:
        key = (rec["id"], rec["seed"], rec["n_rewrites"], rec["n_perturbations"])
        if key not in cache:
            st = provers.parse(rec["formal"], "lean4")
            vs = rewrites(st, seed=rec["seed"], n=rec["n_rewrites"]) + perturbations(
                st, seed=rec["seed"], n=rec["n_perturbations"], check=False)
            cache[key] = {(v.kind, v.description): v for v in vs}
        v = cache[key].get((rec["kind"], rec["description"]))
        assert v is not None, f"{_id(rec)} is no longer generated: regenerate the fixture (see module doc)"
        assert v.text == rec["text"]


def _diagnostics_module():
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "experiments" / "diagnostics.py"
    spec = importlib.util.spec_from_file_location("diagnostics", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_report_flags_wrong_verdicts():
    d = _diagnostics_module()

    def row(preserving, effective, status, kind):
        check = {"status": status, "reason": "r", "time": 0.1, "countermodel": status == "inequivalent", "structural": False}
        return {"id": "p", "kind": kind, "preserving": preserving, "effective": effective, "description": "d",
                "evidence": "e", "roundtrip": True, "checks": {rel: dict(check) for rel in d.RELATIONS}}

    rows = [row(True, None, "equivalent", "rename"), row(True, None, "inequivalent", "swap_eq"),
            row(False, True, "equivalent", "drop_hypothesis"), row(False, False, "equivalent", "add_hypothesis"),
            row(False, True, "inequivalent", "change_numeral")]
    bugs = d.soundness_bugs(rows)
    assert [r["kind"] for r in bugs] == ["swap_eq", "drop_hypothesis"]  # not the ineffective one
    text = d.report(rows, d.RELATIONS, {"command": "c", "statements": 1, "seed": 0, "timeout": 1, "workers": 1, "wall": 1})
    assert text.count("WRONG VERDICT") == 2 and "soundness bugs (wrong SAE verdicts): 2" in text
    assert d.inconclusive_cause("z3: unsupported: variable z of sort Complex").startswith("sort or construct")
