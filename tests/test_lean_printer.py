"""Lean 4 printer: explicit output that the frontend reads back to the same IR."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from provers.errors import ParseError
from provers.ir import INT, NAT, REAL, Hypothesis, Num, Statement, Var, VarBinder, app, cast
from provers.lean4.parser import parse_lean
from provers.lean4.printer import PrintError, render, render_sort, render_term

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = [json.loads(line) for line in (ROOT / "tests/fixtures/lean/statements.jsonl").open(encoding="utf-8")]
EXAMPLES = [json.loads(line) for line in (ROOT / "examples/problems.jsonl").open(encoding="utf-8")]


def roundtrip(text: str) -> tuple:
    st = parse_lean(text)
    out = render(st)
    return st, parse_lean(out), out


def test_numerals_carry_their_sort_and_decimals_stay_exact():
    assert render_term(Num(2, NAT)) == "(2 : ℕ)"
    assert render_term(Num(Fraction(1, 2), REAL)) == "(0.5 : ℝ)"
    assert render_term(Num(Fraction(-3, 40), REAL)) == "(-(0.075 : ℝ))"
    with pytest.raises(PrintError):
        render_term(Num(Fraction(1, 3), REAL))


def test_casts_are_explicit():
    n = Var("n", NAT)
    assert render_term(app("add", cast(n, REAL), Num(1, REAL))) == "((↑n : ℝ) + (1 : ℝ))"
    text = render_term(cast(app("add", n, Num(1, NAT)), REAL))
    assert text == "(↑(n + (1 : ℕ)) : ℝ)"


def test_render_full_theorem_with_binder_styles():
    x, n = Var("x", REAL), Var("n", NAT)
    st = Statement(
        binders=(VarBinder(x), VarBinder(n, "implicit"), Hypothesis("h₀", app("lt", Num(0, REAL), x))),
        conclusion=app("le", cast(n, REAL), x),
        name="foo",
        header="import Mathlib",
    )
    out = render(st)
    assert out.startswith("import Mathlib\n\ntheorem foo")
    assert "(x : ℝ)" in out and "{n : ℕ}" in out and "(h₀ : ((0 : ℝ) < x))" in out
    assert out.rstrip().endswith(":= by sorry")
    assert parse_lean(out) == st


def test_isabelle_only_operations_have_no_lean_spelling():
    with pytest.raises(PrintError, match="powr"):
        render_term(app("powr", Var("x", REAL), Var("y", REAL)))
    assert render_sort(INT) == "ℤ"


@pytest.mark.parametrize("fx", [f for f in FIXTURES if f["id"].startswith("minif2f/")], ids=lambda f: f["id"])
def test_minif2f_fixtures_round_trip(fx: dict):
    st, back, out = roundtrip(fx["text"])
    assert back == st, out


@pytest.mark.parametrize("fx", [f for f in FIXTURES if f["id"].startswith("proofnet/")], ids=lambda f: f["id"])
def test_proofnet_fixtures_render_or_refuse_cleanly(fx: dict):
    st = parse_lean(fx["text"])
    try:
        out = render(st)
    except PrintError:
        return
    try:
        parse_lean(out)
    except ParseError:
        pass  # unmodelled Mathlib structure: allowed to be lossy, never a crash


def test_example_candidates_round_trip():
    n = 0
    for p in EXAMPLES:
        for cand in p["candidates"]:
            try:
                st = parse_lean(cand)
            except ParseError:
                continue
            assert parse_lean(render(st)) == st
            n += 1
    assert n >= 15


def test_round_trip_keeps_semantics_that_matter():
    for src in [
        "theorem t : 1 / 2 = 0 := sorry",
        "theorem t (n : ℕ) : (n + 1 : ℝ) = ((n + 1 : ℕ) : ℝ) := sorry",
        "theorem t (a b : ℕ) (h : a - b = 0) : a ≤ b := sorry",
        "theorem t (x : ℝ) : x ^ (1/2) = x ^ (1/2 : ℝ) := sorry",
        "theorem t : (-7 : ℤ) / 2 = -4 ∧ (-7 : ℤ) % 2 = 1 := sorry",
        "theorem t (f : ℕ → ℝ) : ∀ n, f n ≤ ∑ i in Finset.range n, f i := sorry",
        "theorem t : ∃! x : ℝ, x ^ 3 = 8 ∧ x > 0 := sorry",
        "theorem t (S : Set ℝ) (h : S = {x : ℝ | 0 < x ∧ x < 1}) : (1/2 : ℝ) ∈ S := sorry",
    ]:
        st, back, out = roundtrip(src)
        assert back == st, out


# ---------------------------------------------------------------- strict mode (obligations)

def _fold_fractions(t):
    """`((p : ℝ) / (q : ℝ))`, how strict mode writes a fraction, back to the numeral p/q."""
    from provers.ir import App, map_term

    def fold(s):
        if isinstance(s, App) and s.op == "div" and all(isinstance(a, Num) for a in s.args) \
                and s.args[1].value != 0 and s.sort != NAT:
            return Num(Fraction(s.args[0].value) / Fraction(s.args[1].value), s.sort)
        return None

    return map_term(t, fold)


def test_strict_rendering_means_the_ir_to_the_frontend():
    """The obligation printer's output, read by the Lean frontend, is the IR it printed (up to
    bound-variable names, which strict mode makes unique): on random statements."""
    import sys

    from hypothesis import HealthCheck, given, settings

    from provers.backends.lean.render import obligation_from_ir
    from provers.ir import canonical

    sys.path.insert(0, str(ROOT / "tests"))
    from test_lean_properties import statements

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(statements())
    def check(stmt: Statement) -> None:
        formula = stmt.as_formula()
        ob = obligation_from_ir(formula)
        back = parse_lean(f"theorem t : {ob.goal} := sorry").conclusion
        assert canonical(_fold_fractions(back)) == canonical(_fold_fractions(formula)), ob.goal

    check()
