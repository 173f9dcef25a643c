"""experiments/inconclusive_causes.py: one cause per inconclusive pair of a stage-1 cache."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "experiments"))
sys.path.insert(0, str(ROOT))

import inconclusive_causes as ic  # noqa: E402


def _row(pid: str, decisions: list[dict], ill: tuple[int, ...] = ()) -> dict:
    cands = [{"ill_formed": i in ill} for i in range(4)]
    return {"id": pid, "evidence": {"candidates": cands, "decisions": decisions}}


def test_each_pair_gets_the_first_cause_that_applies(tmp_path, capsys):
    pin_failure = ("different numbers of variables: 1 vs 2; standardized comparison undecided: value projections "
                   "L = L' under Γ, Γ': not asked: the uniqueness …; answer pins A: pinned; B: unknown (premises (B): "
                   "no model found (z3: spurious model: evaluator undecided (Isabelle ln is unspecified for x ≤ 0)))")
    rows = [
        _row("data/MATH/algebra/problem_1.json", [
            {"a": 0, "b": 1, "status": "inconclusive", "reason": "z3: timeout after 0.15s (timeout)"},
            {"a": 0, "b": 2, "status": "inconclusive", "reason": "anything"},  # 2 is ill-formed
            {"a": 1, "b": 3, "status": "inconclusive", "reason": pin_failure},
            {"a": 1, "b": 2, "status": "equivalent", "reason": ""},
        ], ill=(2,)),
        _row("data/MATH/algebra/problem_2.json", [
            {"a": 0, "b": 1, "status": "inconclusive", "reason": "z3: timeout after 0.15s (timeout)"},
        ]),
    ]
    by_cause, by_problem, examples = ic.attribute(rows)
    assert by_cause == {"solver timeout": 2, "a side the prover's checker would reject (ill-formed)": 1,
                        "pin: Isabelle's ln unspecified at x ≤ 0 (the answer truly depends on it)": 1}
    assert by_problem["data/MATH/algebra/problem_1.json"] == 3
    assert examples["solver timeout"] == ("algebra/problem_1", 0, 1)
    assert ic.half_share(by_problem) == 1  # problem_1 holds 3 of 4
    cache = tmp_path / "cache.jsonl"
    cache.write_text("".join(json.dumps(r) + "\n" for r in rows))
    data = tmp_path / "data.jsonl"
    labels = [(1, 1), (1, 1), (0, 0), (0, 1)]  # (label, paper_syntax_ok) per candidate
    data.write_text("".join(json.dumps({"id": r["id"], "candidates": [
        {"label": lab, "paper_syntax_ok": ok} for lab, ok in labels]}) + "\n" for r in rows))
    ic.main([str(cache), "--report", str(tmp_path / "r.md"), "--plot", str(tmp_path / "c.png"), "--data", str(data)])
    report = (tmp_path / "r.md").read_text()
    assert "4 over 2 problems (2.00 per problem)" in report
    # pairs (0,1) twice: both correct, syntax ok; (0,2): one correct, a syntax error; (1,3): one correct, ok
    assert "| both correct | 2 | 0 |" in report and "| one correct | 1 | 1 |" in report
    assert (tmp_path / "c.png").stat().st_size > 0


def test_pairs_are_counted_by_how_their_sides_read_in_isabelle(tmp_path):
    """A side the checker rejects, a side applying a name no theory defines (``composite n``:
    Isabelle reads it as a free function variable), or two meaningful statements: only the
    last group's causes are what the engine itself leaves undecided."""
    texts = [
        'theorem\nfixes n :: nat\nassumes h0 : "n = 3"\nshows "n + 1 = 4"',
        'theorem\nfixes n :: nat\nassumes h0 : "composite n"\nshows "n > 3"',
        'theorem\nfixes x :: real\nassumes h0 : "x > 2"\nshows "x * x > 4"',
        'theorem\nfixes y :: real\nshows "y mod 2 = 0"',
        'theorem\nfixes x :: int\nassumes h0 : "x powr 2 = 4"\nshows "x = 2"',
        'theorem\nfixes x :: real\nassumes h0 : "x > 0" and h1 : "x powr 2 = 4 powr (1/2)"\nshows "x = 2"',
        'theorem\nfixes k :: nat\nassumes h0 : "k powr 2 = 4"\nshows "k = 2"',
    ]
    rows = [_row("data/MATH/algebra/problem_9.json", [
        {"a": 0, "b": 2, "status": "inconclusive", "reason": "z3: timeout after 0.15s (timeout)"},
        {"a": 1, "b": 2, "status": "inconclusive", "reason": "z3: timeout after 0.15s (timeout)"},
        {"a": 1, "b": 3, "status": "inconclusive", "reason": "anything"},
        {"a": 4, "b": 5, "status": "inconclusive", "reason": "z3: timeout after 0.15s (timeout)"},
        {"a": 2, "b": 5, "status": "inconclusive", "reason": "z3: timeout after 0.15s (timeout)"},
        {"a": 5, "b": 6, "status": "inconclusive", "reason": "z3: timeout after 0.15s (timeout)"},
        {"a": 0, "b": 1, "status": "equivalent", "reason": ""},
    ], ill=(3,))]
    data = tmp_path / "data.jsonl"
    data.write_text(json.dumps({"id": rows[0]["id"], "language": "isabelle",
                                "candidates": [{"formal": t, "label": 0, "paper_syntax_ok": 1} for t in texts]}) + "\n")
    sides, causes = ic.pair_sides(rows, data)
    # x powr 2 over ℤ reads ln at negative x; with 0 < x kept (and 4 powr ½), or over ℕ, it does not
    assert sides == {ic.SIDES[ic.MEANINGFUL]: 3, ic.SIDES[2]: 1, ic.SIDES[1]: 1, ic.SIDES[0]: 1}
    assert causes == {"solver timeout": 3}
    assert f"| {ic.SIDES[ic.MEANINGFUL]} | 3 | 3.00 |" in ic.report(rows, "cache.jsonl", data)


def test_problems_are_ranked_by_their_pairs_between_meaningful_sides(tmp_path):
    """The per-problem table: only pairs between two meaningful sides count, and a pair counts as
    having a correct side when either candidate is labelled correct in the cache."""
    texts = [
        'theorem\nfixes n :: nat\nassumes h0 : "n = 3"\nshows "n + 1 = 4"',
        'theorem\nfixes x :: real\nassumes h0 : "x > 2"\nshows "x * x > 4"',
        'theorem\nfixes n :: nat\nassumes h0 : "composite n"\nshows "n > 3"',
        'theorem\nfixes m :: nat\nassumes h0 : "m = 4"\nshows "m * 2 = 8"',
    ]
    timeout = "z3: timeout after 0.15s (timeout)"
    one = _row("data/MATH/algebra/problem_1.json", [
        {"a": 0, "b": 1, "status": "inconclusive", "reason": timeout},
        {"a": 1, "b": 3, "status": "inconclusive", "reason": timeout},
        {"a": 0, "b": 2, "status": "inconclusive", "reason": timeout},  # 2 invents `composite`
    ])
    two = _row("data/MATH/algebra/problem_2.json", [
        {"a": 0, "b": 3, "status": "inconclusive", "reason": "anything"},
    ])
    one["correct"], two["correct"] = [False, False, True, True], [False, False, False, False]
    data = tmp_path / "data.jsonl"
    data.write_text("".join(json.dumps({"id": r["id"], "language": "isabelle",
                                        "candidates": [{"formal": t, "label": 0, "paper_syntax_ok": 1} for t in texts]})
                            + "\n" for r in (one, two)))
    ranked = ic.meaningful_by_problem([two, one], data)
    assert [(pid, n, with_correct) for pid, n, with_correct, _ in ranked] == [
        ("algebra/problem_1", 2, 1), ("algebra/problem_2", 1, 0)]
    assert ranked[0][3] == {"solver timeout": 2}
    assert "| algebra/problem_1 | 2 | 1 | solver timeout (2) |" in ic.report([one, two], "cache.jsonl", data)
