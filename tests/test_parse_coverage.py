"""experiments/parse_coverage.py: record shapes, counts, grouping; never stops on a bad record."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "experiments"))

import parse_coverage  # noqa: E402


def test_counts_on_mixed_record_shapes(tmp_path: Path, capsys):
    rows = [
        {"id": "a", "header": "import Mathlib\n\n", "formal": "theorem a (x : ℝ) : x = x := by"},
        {"id": "b", "formal": "theorem b : orderOf (1 : ℕ) = 1 :="},
        {"id": "c", "candidates": [{"formal": "theorem c : 1 = 1 := sorry"}, {"formal": "just prose"}]},
        {"id": "d", "reference": "theorem d (n : ℕ) : n = n := sorry", "candidate": "def d := 1"},
    ]
    path = tmp_path / "data.jsonl"
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    summary = parse_coverage.main([str(path), "--markdown"])
    out = capsys.readouterr().out
    assert summary["statements"] == 6
    assert summary["parsed"] == 4 and summary["failed"] == 2 and summary["crashed"] == 0
    assert summary["with_uninterpreted"] == 1
    assert "orderOf (1)" in out and "| `data.jsonl` | 6 | 4 (66.7%) | 2 |" in out
