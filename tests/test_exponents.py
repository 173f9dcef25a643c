"""Equations between products of powers of positive numerals are equations of their exponents
(``provers/engine/exponents.py``): proved where the solvers alone cannot, and differential-tested
against the exact evaluator."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.engine.exponents import exponent_equation, exponent_equations
from provers.ir import INT, NAT, RAT, REAL, TRUE, App, Var, app, cast, num
from provers.semantics.evaluate import truth

X, Y = Var("x", NAT), Var("y", NAT)
Z = Var("z", INT)


def _eq(a, b) -> App:
    return app("eq", a, b)


def test_single_base():
    assert exponent_equation(_eq(app("pow", num(2, NAT), X), num(8, NAT))) == _eq(cast(X, INT), num(3, INT))


def test_two_primes_split():
    lhs = app("mul", app("pow", num(2, NAT), X), app("pow", num(3, NAT), Y))
    out = exponent_equation(_eq(lhs, num(72, NAT)))
    assert out == app("and", _eq(cast(X, INT), num(3, INT)), _eq(cast(Y, INT), num(2, INT)))


def test_identity_for_every_exponent():
    """GTED mathd_algebra_314: (1/4)^(n+1) · 2^(2n) = 1/4 holds for every n (under premises, so
    that `sae` compares conclusions by meaning, not leaf by leaf)."""
    v = provers.check_equivalence("theorem t (n : ℕ) (h : 0 < n) : (1/4 : ℝ)^(n+1) * 2^(2*n) = 1/4 := sorry",
                                  "theorem t (n : ℕ) (h : 0 < n) : (2 : ℝ) = 2 := sorry",
                                  relation="sae", language="lean4", timeout=1)
    assert v.status.value == "equivalent"


def test_premise_free_conclusions_keep_their_expressions_under_sae():
    v = provers.check_equivalence("theorem t (x : ℕ) : 2 ^ x = 8 := sorry", "theorem t (x : ℕ) : x = 3 := sorry",
                                  relation="sae", language="lean4", timeout=1)
    assert v.status.value != "equivalent"


@pytest.mark.parametrize("lang, a, b", [
    ("lean4", "theorem t (x : ℕ) (h : 2 ^ x = 8) : x = 3 := sorry", "theorem t (x : ℕ) (h : x = 3) : x = 3 := sorry"),
    ("lean4", "theorem t (n : ℕ) (h : (4:ℝ)^n = 2^(n+3)) : n = 3 := sorry",
     "theorem t (n : ℕ) (h : n = 3) : n = 3 := sorry"),
    ("lean4", "theorem t (x y : ℕ) (h : 2^x * 3^y = 72) : x + y = 5 := sorry",
     "theorem t (x y : ℕ) (h : x = 3 ∧ y = 2) : x + y = 5 := sorry"),
    ("lean4", "theorem t (x : ℝ) (h : (2:ℝ)^x = 8) : x = 3 := sorry", "theorem t (x : ℝ) (h : x = 3) : x = 3 := sorry"),
    ("isabelle", 'theorem fixes x :: real assumes "2 powr x = 16" shows "x = 4"',
     'theorem fixes x :: real assumes "x = 4" shows "x = 4"'),
])
def test_exponential_premises_are_decided(lang: str, a: str, b: str):
    """Each was inconclusive before (the solvers' models of 2 ^ x are spurious)."""
    v = provers.check_equivalence(a, b, relation="sae", language=lang, timeout=1)
    assert v.status.value == "equivalent", v.reason


def test_a_perturbed_numeral_is_refuted():
    v = provers.check_equivalence("theorem t (x : ℕ) (h : 2 ^ x = 8) : x = 3 := sorry",
                                  "theorem t (x : ℕ) (h : 2 ^ x = 16) : x = 3 := sorry",
                                  relation="sae", language="lean4", timeout=1)
    assert v.status.value == "inequivalent"


def test_left_alone():
    # real exponents over two primes: 2^x = 3^y has real solutions with x, y ≠ 0
    x, y = Var("x", REAL), Var("y", REAL)
    assert exponent_equation(_eq(app("rpow", num(2, REAL), x), app("rpow", num(3, REAL), y))) is None
    # a negative base, a variable base, ℕ's 1/4 (which is 0), no variable exponent
    assert exponent_equation(_eq(app("pow", num(-2, INT), X), num(4, INT))) is None
    assert exponent_equation(_eq(app("pow", Var("b", NAT), X), num(4, NAT))) is None
    assert exponent_equation(_eq(app("pow", app("div", num(1, NAT), num(4, NAT)), X), num(0, NAT))) is None
    assert exponent_equation(_eq(app("pow", num(2, NAT), num(3, NAT)), num(8, NAT))) is None
    # base 1: every exponent
    assert exponent_equation(_eq(app("pow", num(1, NAT), X), num(1, NAT))) == TRUE


BASES = st.sampled_from([Fraction(1), Fraction(2), Fraction(3), Fraction(4), Fraction(6), Fraction(9),
                         Fraction(1, 2), Fraction(2, 3), Fraction(8, 27), Fraction(12)])


@st.composite
def monomial(draw, sort):
    """A product of numeral powers at ``sort`` (ℕ exponents x, y; ℤ exponent z in a field)."""
    factors = []
    for _ in range(draw(st.integers(1, 3))):
        b = draw(BASES) if sort in (RAT, REAL) else Fraction(draw(st.sampled_from([1, 2, 3, 4, 6, 8, 9, 12])))
        base = num(b, sort) if b.denominator == 1 else app("div", num(b.numerator, sort), num(b.denominator, sort))
        kind = draw(st.sampled_from(["x", "y", "z", "k"] if sort in (RAT, REAL) else ["x", "y", "k"]))
        if kind == "k":
            factors.append(base if b.denominator != 1 or draw(st.booleans()) else num(b, sort))
        elif kind == "z":
            factors.append(app("zpow", base, Z))
        else:
            e = X if kind == "x" else app("add", Y, num(draw(st.integers(0, 2)), NAT))
            factors.append(app("pow", base, e))
    out = factors[0]
    for f in factors[1:]:
        out = app("mul", out, f) if sort not in (RAT, REAL) or draw(st.booleans()) else app("div", out, f)
    return out


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([NAT, INT, RAT, REAL]).flatmap(lambda s: st.tuples(monomial(s), monomial(s))),
       st.integers(0, 4), st.integers(0, 4), st.integers(-3, 3))
def test_rewrite_agrees_with_the_exact_evaluator(sides, x: int, y: int, z: int):
    eq = _eq(*sides)
    out = exponent_equation(eq)
    env = {"x": x, "y": y, "z": z}
    assert out is None or truth(out, env) == truth(eq, env), (eq, out, env)
    assert truth(exponent_equations(app("not", eq)), env) == truth(app("not", eq), env)


def test_huge_numerals_stay_cheap():
    """2 ^ 1000000000 is not computed (the exponent stays a term); a numeral beyond
    MAX_FACTORED is not factored (the equation is left to the other routes)."""
    x = Var("x", NAT)
    out = exponent_equation(_eq(app("pow", num(2, NAT), num(10**9, NAT)), app("pow", num(4, NAT), x)))
    assert out == _eq(num(10**9, INT), app("mul", num(2, INT), cast(x, INT)))
    big = 10**12 + 39
    assert exponent_equation(_eq(app("pow", num(big, NAT), x), num(big, NAT))) is None
