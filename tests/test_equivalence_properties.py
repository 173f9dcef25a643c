"""Property tests on miniF2F statements: presentation changes never change the verdict,
a changed answer is never called equivalent.

The fixture is 20 miniF2F-valid statements (Lean 4, DeepSeek-Prover-V1.5 release, MIT),
copied here so the tests do not read the data directory.
"""

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provers.engine.equivalence import check_equivalence
from provers.engine.normal import is_type_var
from provers.ir import NAT, App, Hypothesis, Num, Statement, Var, VarBinder, app, substitute

MINIF2F = [
    "theorem amc12a_2015_p10 (x y : ℤ) (h₀ : 0 < y) (h₁ : y < x) (h₂ : x + y + x * y = 80) : x = 26",
    "theorem mathd_numbertheory_33 (n : ℕ) (h₀ : n < 398) (h₁ : n * 7 % 398 = 1) : n = 57",
    "theorem mathd_numbertheory_48 (b : ℕ) (h₀ : 0 < b) (h₁ : 3 * b ^ 2 + 2 * b + 1 = 57) : b = 4",
    "theorem amc12a_2009_p5 (x : ℝ) (h₀ : x ^ 3 - (x + 1) * (x - 1) * x = 5) : x ^ 3 = 125",
    "theorem mathd_algebra_455 (x : ℝ) (h₀ : 2 * (2 * (2 * (2 * x))) = 48) : x = 3",
    "theorem mathd_algebra_69 (rows seats : ℕ) (h₀ : rows * seats = 450) (h₁ : (rows + 5) * (seats - 3) = 450) : rows = 25",
    "theorem mathd_algebra_126 (x y : ℝ) (h₀ : 2 * 3 = x - 9) (h₁ : 2 * -5 = y + 1) : x = 15 ∧ y = -11",
    "theorem amc12a_2008_p2 (x : ℝ) (h₀ : x * (1 / 2 + 2 / 3) = 1) : x = 6 / 7",
    "theorem mathd_numbertheory_335 (n : ℕ) (h₀ : n % 7 = 5) : 5 * n % 7 = 4",
    "theorem amc12b_2004_p3 (x y : ℕ) (h₀ : 2 ^ x * 3 ^ y = 1296) : x + y = 8",
    "theorem aime_1991_p1 (x y : ℕ) (h₀ : 0 < x ∧ 0 < y) (h₁ : x * y + (x + y) = 71) (h₂ : x ^ 2 * y + x * y ^ 2 = 880) : x ^ 2 + y ^ 2 = 146",
    "theorem mathd_algebra_43 (a b : ℝ) (f : ℝ → ℝ) (h₀ : ∀ x, f x = a * x + b) (h₁ : f 7 = 4) (h₂ : f 6 = 3) : f 3 = 0",
    "theorem mathd_algebra_140 (a b c : ℝ) (h₀ : 0 < a ∧ 0 < b ∧ 0 < c) (h₁ : ∀ x, 24 * x ^ 2 - 19 * x - 35 = (a * x - 5) * (2 * (b * x) + c)) : a * b - 3 * c = -9",
    "theorem mathd_algebra_35 (p q : ℝ → ℝ) (h₀ : ∀ x, p x = 2 - x ^ 2) (h₁ : ∀ x : ℝ, x ≠ 0 → q x = 6 / x) : p (q 2) = -7",
    "theorem mathd_algebra_48 (q e : ℂ) (h₀ : q = 9 - 4 * Complex.I) (h₁ : e = -3 - 4 * Complex.I) : q - e = 12",
    "theorem amc12_2000_p5 (x p : ℝ) (h₀ : x < 2) (h₁ : abs (x - 2) = p) : x - p = 2 - 2 * p",
    "theorem mathd_algebra_101 (x : ℝ) (h₀ : x ^ 2 - 5 * x - 4 ≤ 10) : x ≥ -2 ∧ x ≤ 7",
    "theorem algebra_apb4leq8ta4pb4 (a b : ℝ) (h₀ : 0 < a ∧ 0 < b) : (a + b) ^ 4 ≤ 8 * (a ^ 4 + b ^ 4)",
    "theorem amc12a_2021_p7 (x y : ℝ) : 1 ≤ (x * y - 1) ^ 2 + (x + y) ^ 2",
    "theorem mathd_algebra_141 (a b : ℝ) (h₁ : a * b = 180) (h₂ : 2 * (a + b) = 54) : a ^ 2 + b ^ 2 = 369",
]


def _parse_all() -> list[Statement]:
    try:
        from provers.lean4.parser import parse_lean
    except ImportError:
        return []
    out = []
    for text in MINIF2F:
        try:
            out.append(parse_lean(text + " := by sorry"))
        except Exception:  # noqa: BLE001 - a statement the parser cannot read is not a fixture
            continue
    return out


STATEMENTS = _parse_all()
needs_parser = pytest.mark.skipif(len(STATEMENTS) < 15, reason=f"Lean parser unavailable or reads only {len(STATEMENTS)} of {len(MINIF2F)} fixtures")


def rename(s: Statement, names: list[str]) -> Statement:
    """Rename every object variable (and hypothesis) of ``s`` to fresh ``names``."""
    vs = [b.var for b in s.binders if isinstance(b, VarBinder) and not is_type_var(b.var)]
    mapping = {v: Var(f"{names[i]}_{i}", v.sort) for i, v in enumerate(vs)}
    binders = []
    for i, b in enumerate(s.binders):
        if isinstance(b, VarBinder):
            binders.append(VarBinder(mapping.get(b.var, b.var), b.style))
        else:
            binders.append(Hypothesis(f"hh{i}", substitute(b.formula, mapping), b.style))
    return Statement(tuple(binders), substitute(s.conclusion, mapping), s.language)


def permute_hypotheses(s: Statement, order: list[int]) -> Statement:
    vars_ = [b for b in s.binders if isinstance(b, VarBinder)]
    hyps = [b for b in s.binders if isinstance(b, Hypothesis)]
    perm = sorted(range(len(hyps)), key=lambda i: order[i % len(order)] + i / 1000)
    return Statement(tuple(vars_) + tuple(hyps[i] for i in perm), s.conclusion, s.language)


def answer_numerals(t):
    """Numerals c of the conclusion's equalities ``E = c`` (top level or under ∧)."""
    if isinstance(t, App) and t.op == "and":
        return [n for a in t.args for n in answer_numerals(a)]
    if isinstance(t, App) and t.op == "eq" and isinstance(t.args[1], Num):
        return [t.args[1]]
    return []


def perturb(s: Statement, k: int, delta: int) -> Statement | None:
    nums = answer_numerals(s.conclusion)
    if not nums:
        return None
    old = nums[k % len(nums)]
    value = Fraction(old.value) + delta
    if old.sort == NAT and value < 0:
        value = Fraction(old.value) + abs(delta)
    new = Num(value, old.sort) if old.sort.name in ("Rat", "Real", "Complex") else Num(int(value), old.sort)

    def swap(t):
        if isinstance(t, App) and t.op == "and":
            return app("and", *(swap(a) for a in t.args))
        if isinstance(t, App) and t.op == "eq" and t.args[1] is old:
            return app("eq", t.args[0], new)
        return t

    return Statement(s.binders, swap(s.conclusion), s.language)


names_st = st.lists(st.sampled_from(["a", "b", "u", "v", "w", "t", "m", "k", "z", "q"]), min_size=6, max_size=6)


@needs_parser
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), names_st, st.lists(st.integers(0, 9), min_size=4, max_size=4))
def test_renaming_and_hypothesis_permutation_stay_equivalent(i, names, order):
    s = STATEMENTS[i % len(STATEMENTS)]
    t = permute_hypotheses(rename(s, names), order)
    v = check_equivalence(s, t, relation="sae", timeout=2.0)
    assert v.status == "equivalent", v.explain()


@needs_parser
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 10**6), st.integers(0, 3), st.sampled_from([-3, -1, 1, 2, 7]), st.sampled_from(["sae", "symbolic"]))
def test_changed_answer_is_never_equivalent(i, k, delta, relation):
    s = STATEMENTS[i % len(STATEMENTS)]
    t = perturb(s, k, delta)
    if t is None:
        return
    v = check_equivalence(s, t, relation=relation, timeout=2.0)
    assert v.status != "equivalent", v.explain()


@needs_parser
def test_every_fixture_is_equivalent_to_itself_and_perturbations_are_mostly_refuted():
    refuted = 0
    total = 0
    for s in STATEMENTS:
        assert check_equivalence(s, s).status == "equivalent"
        t = perturb(s, 0, 1)
        if t is not None:
            total += 1
            refuted += check_equivalence(s, t, timeout=2.0).status == "inequivalent"
    assert total >= 12 and refuted >= total * 0.75, (refuted, total)
