"""Polynomial identities ∀x. p(x) = q(x) read as their coefficient equations: the rewrite is
exact (checked against pointwise evaluation), used by the evaluator, the algebraic checker
and the solvers, so "find a, b, c with … for all x" statements get models and refutations."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.ir import INT, NAT, REAL, Num, Quant, Var, app, cast
from provers.semantics import truth
from provers.semantics.identities import polynomial_identity

REF = """theorem mathd_algebra_140 (a b c : ℝ) (h₀ : 0 < a ∧ 0 < b ∧ 0 < c)
  (h₁ : ∀ x, 24 * x^2 - 19 * x - 35 = (((a * x) - 5) * ((2 * (b * x)) + c))) :
  a * b - 3 * c = -9 := sorry"""


def identity_of(text: str) -> Quant:
    st_ = provers.parse(text, "lean4")
    return st_.hypotheses[-1].formula


def test_the_identity_is_its_coefficient_equations():
    q = identity_of(REF)
    eqs = polynomial_identity(q)
    assert eqs is not None
    assert truth(eqs, {"a": 3, "b": 4, "c": 7}) is True  # (3x - 5)(8x + 7)
    assert truth(eqs, {"a": 4, "b": 3, "c": 7}) is False
    # the evaluator decides the ∀ itself, exactly, over the unbounded domain
    assert truth(q, {"a": 3, "b": 4, "c": 7}) is True
    assert truth(q, {"a": 3, "b": 4, "c": 8}) is False


def test_a_higher_power_makes_the_identity_impossible():
    q = identity_of(REF.replace("x^2", "x^5"))
    for env in ({"a": 3, "b": 4, "c": 7}, {"a": 0, "b": 0, "c": 0}):
        assert truth(q, env) is False


def test_not_polynomial_shapes_are_left_alone():
    x, a = Var("x", REAL), Var("a", REAL)
    n, m = Var("n", NAT), Var("m", NAT)
    sin_x = app("sin", x)
    assert polynomial_identity(Quant("forall", (x,), app("eq", sin_x, app("mul", a, x)))) is None
    # ℕ subtraction truncates: n - m is not a polynomial
    assert polynomial_identity(Quant("forall", (n,), app("eq", app("sub", n, m), Num(0, NAT)))) is None
    # an order guard restricts the domain to something the rewrite does not cover
    guarded = app("implies", app("lt", Num(0, REAL), x), app("eq", app("mul", a, x), x))
    assert polynomial_identity(Quant("forall", (x,), guarded)) is None
    # ∃ is not an identity
    assert polynomial_identity(Quant("exists", (x,), app("eq", app("mul", a, x), x))) is None


def test_a_guard_removing_points_keeps_the_rewrite():
    x, a = Var("x", REAL), Var("a", REAL)
    body = app("implies", app("ne", x, Num(1, REAL)), app("eq", app("mul", a, x), app("mul", Num(2, REAL), x)))
    eqs = polynomial_identity(Quant("forall", (x,), body))
    assert eqs is not None
    assert truth(eqs, {"a": 2}) is True and truth(eqs, {"a": 3}) is False


def test_mutants_of_an_identity_are_refuted_and_rewrites_proved():
    ref = provers.parse(REF, "lean4")
    for mutated in ("24 * x^5 - 19 * x - 35", "24 * x^2 - 18 * x - 35", "24 * x^2 - 19 * x - 36"):
        b = provers.parse(REF.replace("24 * x^2 - 19 * x - 35", mutated), "lean4")
        # a generous timeout: under a loaded machine the 4 × timeout check budget ran out
        v = provers.check_equivalence(ref, b, relation="sae", timeout=5.0)
        assert v.status == "inequivalent", (mutated, v.explain())
    solved = """theorem t (a b c : ℝ) (h₀ : 0 < a ∧ 0 < b ∧ 0 < c)
      (h₁ : 2 * a * b = 24 ∧ a * c - 10 * b = -19 ∧ 5 * c = 35) : a * b - 3 * c = -9 := sorry"""
    v = provers.check_equivalence(REF, solved, relation="symbolic", timeout=2.0, language="lean4")
    assert v.status == "equivalent", v.explain()


coeffs = st.lists(st.integers(-3, 3), min_size=1, max_size=4)


@settings(max_examples=60, deadline=None)
@given(p=coeffs, q=coeffs, scale=st.integers(-2, 2), a_value=st.integers(-2, 2), over_nat=st.booleans())
def test_the_rewrite_agrees_with_pointwise_evaluation(p, q, scale, a_value, over_nat):
    """A nonzero polynomial of degree d has at most d roots: the identity holds exactly when
    p and q agree at d + 1 points, which the evaluator checks one by one."""
    sort = NAT if over_nat else INT
    x, a = Var("x", sort), Var("a", INT)
    xi = x if sort == INT else cast(x, INT)

    def poly(cs, with_a):
        out = Num(0, INT)
        for i, c in enumerate(cs):
            term = app("mul", Num(c, INT), app("pow", xi, Num(i, NAT)))
            if with_a and i == 1:
                term = app("mul", app("mul", Num(scale, INT), a), term)
            out = app("add", out, term)
        return out

    body = app("eq", poly(p, True), poly(q, False))
    eqs = polynomial_identity(Quant("forall", (x,), body))
    assert eqs is not None
    degree = max(len(p), len(q))
    pointwise = all(truth(body, {"a": a_value, "x": i}) for i in range(degree + 1))
    assert truth(eqs, {"a": a_value}) is pointwise
    assert truth(Quant("forall", (x,), body), {"a": a_value}) is pointwise


def test_rational_coefficients_are_kept_exactly():
    x, a = Var("x", REAL), Var("a", REAL)
    body = app("eq", app("div", x, Num(2, REAL)), app("mul", a, x))
    eqs = polynomial_identity(Quant("forall", (x,), body))
    assert eqs is not None
    assert truth(eqs, {"a": Fraction(1, 2)}) is True
    assert truth(eqs, {"a": 0}) is False and truth(eqs, {"a": Fraction(1, 3)}) is False
