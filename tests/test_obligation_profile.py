"""experiments/obligation_profile.py: the recorded solver calls of a real clustering, and the
summary that groups them by obligation and asker."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "experiments"))

import obligation_profile as op  # noqa: E402

MATH = ROOT.parent / "shared" / "data" / "isabelle_math_400.jsonl"


def test_the_summary_groups_calls_by_obligation_limit_and_asker(tmp_path, capsys):
    rows = [
        {"id": "p", "name": "premises prove False", "limit": 0.3, "seconds": 0.31, "status": "unknown",
         "asked_by": "_vacuous", "ops": []},
        {"id": "p", "name": "premises prove False", "limit": 0.3, "seconds": 0.01, "status": "proved",
         "asked_by": "_vacuous", "ops": []},
        {"id": "p", "name": "value projections", "limit": 0.05, "seconds": 0.02, "status": "unknown",
         "asked_by": "value_route", "ops": ["sin"]},
        {"id": "p", "problem_seconds": 1.5},
    ]
    path = tmp_path / "calls.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    op.summary(path)
    out = capsys.readouterr().out
    assert "problems 1.5 s, of which solver calls 0.3 s" in out
    assert "| 0.3 | 2 | 1 | 1 | premises prove False (0.3, _vacuous) |" in out
    assert "| 0.0 | 1 | 0 | 0 | value projections (0.05, value_route) |" in out


@pytest.mark.skipif(not MATH.exists(), reason="isabelle_math_400 (../shared/data) not present")
def test_a_recorded_clustering_names_each_solver_call(tmp_path):
    pid = json.loads(MATH.open().readline())["id"]
    out = tmp_path / "calls.jsonl"
    op.record(MATH, [pid], out)
    rows = [json.loads(line) for line in out.open()]
    assert rows[-1]["id"] == pid and rows[-1]["problem_seconds"] > 0
    for r in rows[:-1]:
        assert r["asked_by"] in (*op.ASKERS, "-") and r["limit"] > 0 and r["status"] in ("proved", "refuted", "unknown")
