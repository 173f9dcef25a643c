"""An ∃ over ℚ/ℝ decided by one linear equation is eliminated (``engine/elimination.py``), and an
integer set given by its bounds alone is written out (``semantics.order_bounds.integer_interval``):
MATH's "n divides 60 + n" written over the reals and "multiples of 9³ between 9⁴ and 9⁵" with a
real multiplier. Differential-tested against the exact evaluator."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import provers
from provers.engine.elimination import eliminate_linear_exists
from provers.ir import INT, NAT, RAT, REAL, TRUE, Quant, SetBuilder, Var, and_, app, cast, num
from provers.semantics.closed_forms import affine_terms
from provers.semantics.evaluate import evaluate, truth

X, K = Var("x", REAL), Var("k", REAL)
N = Var("n", NAT)


def _exists_k(p: int, q: int, r: int, s: int):
    """``∃k:ℝ. (p·x + q)·k = r·x + s``."""
    lhs = app("mul", app("add", app("mul", num(p, REAL), X), num(q, REAL)), K)
    rhs = app("add", app("mul", num(r, REAL), X), num(s, REAL))
    return Quant("exists", (K,), app("eq", lhs, rhs))


@settings(max_examples=150, deadline=None)
@given(st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3),
       st.fractions(min_value=-4, max_value=4, max_denominator=3))
def test_elimination_agrees_with_solving_for_k(p: int, q: int, r: int, s: int, x: Fraction):
    """Over a field, ∃k. c₁k = c₀ holds iff c₁ ≠ 0 or c₀ = 0: the quantifier-free form the
    normal form writes has that truth value at every x (the points where c₁ vanishes included:
    x = −q/p is among the sampled rationals)."""
    assume(p or q)  # 0·k: k does not occur, nothing to eliminate
    formula = _exists_k(p, q, r, s)
    eliminated = eliminate_linear_exists(formula)
    assert not isinstance(eliminated, Quant)
    c1, c0 = p * x + q, r * x + s
    assert truth(eliminated, {"x": x}) is (c1 != 0 or c0 == 0)


def test_a_variable_elsewhere_or_of_another_field_stays_quantified():
    """k in a second conjunct, a rational k in a real equation (∃q:ℚ. ↑q = x asks x to be
    rational), a quadratic k: nothing is eliminated."""
    two = Quant("exists", (K,), and_(app("eq", app("mul", X, K), num(1, REAL)), app("lt", K, num(3, REAL))))
    assert eliminate_linear_exists(two) == two
    q = Var("q", RAT)
    rational = Quant("exists", (q,), app("eq", cast(q, REAL), X))
    assert eliminate_linear_exists(rational) == rational
    square = Quant("exists", (K,), app("eq", app("mul", K, K), X))
    assert eliminate_linear_exists(square) == square
    assert affine_terms(K, app("eq", app("mul", K, K), X)) is None


def test_a_numeral_coefficient_makes_the_condition_true():
    """``∃k:ℝ. ↑n = 729·k`` holds for every n."""
    formula = Quant("exists", (K,), app("eq", cast(N, REAL), app("mul", num(729, REAL), K)))
    assert eliminate_linear_exists(formula) == TRUE


DIVIDES_OVER_R = '''theorem
fixes n :: real
shows "card {n. n \\<ge> 1 \\<and> n \\<le> 9 \\<and> (\\<exists> k. 60 + n = k * n)} = 6"'''


def test_a_real_divisibility_set_is_an_interval_with_card_zero():
    """``{n :: real. 1 ≤ n ≤ 9 ∧ ∃k. 60 + n = k·n}`` is [1, 9]: infinite, card 0 in Isabelle.
    The statement is the same as one stating the interval (equivalent), and not the same as
    one whose set is finite (a perturbed bound on ℕ: inequivalent)."""
    interval = '''theorem
fixes n :: real
shows "card {n::real. n \\<ge> 1 \\<and> n \\<le> 9} = 6"'''
    v = provers.check_equivalence(DIVIDES_OVER_R, interval, relation="symbolic", language="isabelle", timeout=1)
    assert v.status.value == "equivalent", v.reason


def test_card_of_a_large_integer_interval_is_computed():
    """52 487 naturals between 9⁴ and 9⁵: more than the evaluator tests one by one, written
    out from the bounds (through the casts ↑n to ℝ); a removed point counts."""
    lo, hi = app("pow", num(9, NAT), num(4, NAT)), app("pow", num(9, NAT), num(5, NAT))
    body = and_(app("lt", cast(lo, REAL), cast(N, REAL)), app("lt", cast(N, REAL), cast(hi, REAL)))
    assert evaluate(app("card", SetBuilder(N, body)), {}) == 9**5 - 9**4 - 1
    without = and_(body, app("ne", N, num(7000, NAT)))
    assert evaluate(app("card", SetBuilder(N, without)), {}) == 9**5 - 9**4 - 2
    z = Var("z", INT)
    ray = SetBuilder(z, app("lt", z, num(5, INT)))  # bounded on one side only: infinite, card 0
    assert evaluate(app("card", ray), {}) == 0


MULTIPLES_REAL_K = '''theorem
fixes multiples :: "nat set"
assumes h0 : "multiples = {x. (\\<exists>k::real. real x = k * (9^3)) \\<and> x > 9^4 \\<and> x < 9^5}"
shows  "card multiples = 71"'''


def test_a_real_multiplier_makes_every_number_a_multiple():
    """With k real, every x is a multiple of 9³: the set has 52 487 elements, not 71, so the
    candidate is refuted against the one counting true multiples — and matches the same count
    stated without the multiplier."""
    stated = MULTIPLES_REAL_K.replace("= 71", f"= {9**5 - 9**4 - 1}")
    plain = '''theorem
fixes multiples :: "nat set"
assumes h0 : "multiples = {x. x > 9^4 \\<and> x < 9^5}"
shows  "card multiples = 52487"'''
    v = provers.check_equivalence(stated, plain, relation="symbolic", language="isabelle", timeout=1)
    assert v.status.value == "equivalent", v.reason
    w = provers.check_equivalence(MULTIPLES_REAL_K, plain, relation="symbolic", language="isabelle", timeout=1)
    assert w.status.value == "inequivalent", w.reason


def test_a_variable_of_a_possibly_empty_type_keeps_its_quantifier():
    """``∃ (a : α) (k : ℝ). 2·k = 3`` is ``∃ a : α. True``: false when α is empty (a Lean type
    variable may be), so it is not folded to True (over ℝ, or an Isabelle ``'a``, it is)."""
    from provers.ir import OpaqueSort

    a = Var("a", OpaqueSort("α"))
    eq = app("eq", app("mul", num(2, REAL), K), num(3, REAL))
    assert eliminate_linear_exists(Quant("exists", (a, K), eq)) == Quant("exists", (a,), TRUE)
    assert eliminate_linear_exists(Quant("exists", (X, K), eq)) == TRUE
    assert eliminate_linear_exists(Quant("exists", (Var("b", OpaqueSort("'a")), K), eq)) == TRUE


SAME = [
    # the ∃ at the conclusion's own level: sae compares it as one atom, both true
    ("theorem t (n : ℝ) : (∃ k : ℝ, n = 2 * k) ∧ n = n := by sorry",
     "theorem t (n : ℝ) : (∃ k : ℝ, n = 2 * k ∧ 0 ≤ k ^ 2) ∧ n = n := by sorry"),
    # folded to True it left `n` unused, and symbolic's alignment without a variable
    ("theorem t (n : ℝ) : ∃ k : ℝ, n = 2 * k := by sorry",
     "theorem t (n : ℝ) : ∃ k : ℝ, n = 2 * k ∧ 0 ≤ k ^ 2 := by sorry"),
    # a premise folded to True left the statement without premises
    ("theorem t (n : ℝ) (h : ∃ k : ℝ, n = 2 * k) : n * 0 = 0 := by sorry",
     "theorem t (n : ℝ) (h : ∃ k : ℝ, n = 2 * k ∧ 0 ≤ k ^ 2) : n * 0 = 0 := by sorry"),
]


@pytest.mark.parametrize("a,b", SAME)
@pytest.mark.parametrize("relation", ["sae", "symbolic"])
def test_the_elimination_never_turns_the_same_statement_inequivalent(a, b, relation):
    """Only inside term binders, and only where no prefix variable loses its last occurrence
    (the versions of stop 47 answered `inequivalent` to the first two pairs, `d974d75`
    `equivalent`): the ∃ both sides write the same is true for every n."""
    v = provers.check_equivalence(a, b, relation=relation, language="lean4", timeout=1.0)
    assert str(v.status) != "inequivalent", v.reason
