"""experiments/recheck_pairs.py: which pairs it re-checks, and what its summary reports."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "experiments"))

import recheck_pairs as rp  # noqa: E402

A = 'theorem\nfixes x :: real\nassumes h0 : "x = 2"\nshows "x + 1 = 3"'
B = 'theorem\nfixes y :: real\nassumes h0 : "y = 2"\nshows "y + 1 = 4"'


def _files(tmp_path: Path) -> tuple[Path, Path]:
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps({"id": "p", "language": "isabelle", "candidates": [{"formal": A}, {"formal": B}]}) + "\n")
    cache = tmp_path / "cache.jsonl"
    decisions = [{"a": 0, "b": 1, "status": "inconclusive", "reason": "deadline: the check's 4 s budget ran out"},
                 {"a": 0, "b": 0, "status": "equivalent", "reason": "same key"}]
    cache.write_text(json.dumps({"id": "p", "evidence": {"decisions": decisions}}) + "\n" + json.dumps({"id": "q"}) + "\n")
    return data, cache


def test_only_inconclusive_pairs_matching_the_reason_are_taken(tmp_path: Path) -> None:
    data, cache = _files(tmp_path)
    pairs = rp.inconclusive_pairs(data, cache, sample=0)
    assert [(p["a"], p["b"], p["A"], p["B"]) for p in pairs] == [(0, 1, A, B)]
    assert rp.inconclusive_pairs(data, cache, sample=0, reason="budget ran out")
    assert rp.inconclusive_pairs(data, cache, sample=0, reason="timeout after") == []


def test_summary_counts_statuses_and_lists_changes() -> None:
    base = [{"id": "p", "a": 0, "b": 1, "status": "inconclusive", "reason": "", "time": 2.0}]
    head = [{"id": "p", "a": 0, "b": 1, "status": "inequivalent", "reason": "refuted", "time": 1.0}]
    s = rp.summarize({"base": base, "head": head})
    assert s["base"]["counts"] == {"inconclusive": 1} and s["head"]["counts"] == {"inequivalent": 1}
    assert s["changed"] == [{"id": "p", "a": 0, "b": 1, "base": "inconclusive", "head": "inequivalent",
                             "reason": "refuted"}]
    assert s["time_ratio_head_over_base"] == 0.5
