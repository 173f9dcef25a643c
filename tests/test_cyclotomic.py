"""sin, cos and tan at rational multiples of π computed exactly in a cyclotomic field
(``provers.semantics.cyclotomic``): known identities certified, wrong ones refuted, and the
verdicts differential-tested against sympy's minimal polynomials and mpmath."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.semantics.cyclotomic import (
    Field,
    cyclotomic_polynomial,
    difference_is_zero,
    rational_value,
)
from provers.semantics.evaluate import evaluate


def _sides(claim: str, language: str = "isabelle"):
    text = f'theorem shows "{claim}"' if language == "isabelle" else f"theorem t : {claim} := by sorry"
    c = provers.parse(text, language).conclusion
    return c.args


def _exact(t):
    return evaluate(t, {})


@pytest.mark.parametrize("claim, holds", [
    ("cos (2 * pi / 7) * cos (4 * pi / 7) * cos (8 * pi / 7) = 1 / 8", True),
    ("sin (20 * pi / 180) * sin (40 * pi / 180) * sin (80 * pi / 180) = sqrt 3 / 8", True),
    ("tan (pi / 7) * tan (2 * pi / 7) * tan (3 * pi / 7) = sqrt 7", True),
    ("cos (36 * pi / 180) = (1 + sqrt 5) / 4", True),
    ("cos (pi / 5) - cos (2 * pi / 5) = 1 / 2", True),
    ("cos (2 * pi / 13) + cos (6 * pi / 13) + cos (8 * pi / 13) = (sqrt 13 - 1) / 4", True),
    # perturbed: refuted, never certified
    ("cos (2 * pi / 7) * cos (4 * pi / 7) * cos (8 * pi / 7) = 1 / 7", False),
    ("cos (36 * pi / 180) = (1 + sqrt 5) / 3", False),
    ("tan (pi / 7) * tan (2 * pi / 7) * tan (3 * pi / 7) = sqrt 6", False),
])
def test_known_identities_are_certified_and_perturbed_ones_refuted(claim, holds):
    a, b = _sides(claim)
    assert difference_is_zero(a, b, _exact) is holds
    assert evaluate(provers.parse(f'theorem shows "{claim}"', "isabelle").conclusion, {}) is holds


def test_rational_values_are_read_off_exactly():
    a, _ = _sides("cos (2 * pi / 7) * cos (4 * pi / 7) * cos (8 * pi / 7) = 0")
    assert rational_value(a, _exact) == Fraction(1, 8)
    irrational, _ = _sides("cos (2 * pi / 7) = 0")
    assert rational_value(irrational, _exact) is None


def test_division_by_zero_and_roots_below_zero_follow_each_language():
    tan, zero = _sides("tan (pi / 2) = 0")  # sin / cos with x / 0 = 0, as Mathlib and Isabelle
    assert difference_is_zero(tan, zero, _exact) is True
    signed, minus_root = _sides("sqrt (-2) + sqrt 2 * cos (pi / 7) = - sqrt 2 + sqrt 2 * cos (pi / 7)")
    assert difference_is_zero(signed, minus_root, _exact) is True  # Isabelle: sqrt (-2) = -√2
    mathlib, _ = _sides("Real.sqrt (-2) + Real.cos (π / 7) = 0", "lean4")
    only_cos, _ = _sides("Real.cos (π / 7) = 0", "lean4")
    assert difference_is_zero(mathlib, only_cos, _exact) is True  # Mathlib: √ is 0 below 0


def test_outside_the_fragment_is_no_answer():
    a, b = _sides("cos 1 * cos (pi / 7) = 1 / 8")  # cos 1: not a rational multiple of π
    assert difference_is_zero(a, b, _exact) is None
    a, b = _sides("cos (pi / 7) + cos (pi / 11) = cos (pi / 13)")  # ℚ(ζ₂₀₀₂): degree 720 > MAX_DEGREE
    assert difference_is_zero(a, b, _exact) is None
    a, b = _sides("cos (pi / 60) = cos (pi / 30) ^ 2")  # ℚ(ζ₁₂₀), degree 32: decided
    assert difference_is_zero(a, b, _exact) is False


@pytest.mark.parametrize("m", range(1, 41))
def test_cyclotomic_polynomials_match_sympy(m):
    x = sympy.Symbol("x")
    expected = [int(c) for c in reversed(sympy.Poly(sympy.cyclotomic_poly(m, x), x).all_coeffs())]
    assert list(cyclotomic_polynomial(m)) == expected


def test_field_inverses():
    f = Field(28)
    for k in range(1, 28):
        a = f.add(f.root(k), f.constant(Fraction(k, 3)))
        assert f.mul(a, f.inverse(a)) == f.constant(Fraction(1))


_ANGLES = st.tuples(st.integers(-12, 12), st.sampled_from([3, 5, 7, 8, 9, 10, 12]))
#: at most two angles: every field stays within MAX_DEGREE (three can need ℚ(ζ₂₅₂₀)); no tan at
#: an odd multiple of π/2, where it is 0 (x / 0) for the languages and a pole for sympy / mpmath
_TERMS = st.lists(st.tuples(st.sampled_from(["cos", "sin", "tan"]), _ANGLES, st.integers(-3, 3)),
                  min_size=1, max_size=2).filter(
    lambda ts: not any(fn == "tan" and (2 * k) % n == 0 and (2 * k // n) % 2 for fn, (k, n), _ in ts))


def _claim(terms, constant: Fraction) -> tuple[str, object]:
    parts, expr = [], sympy.Integer(0)
    for fn, (k, n), c in terms:
        parts.append(f"{c} * {fn} ({k} * pi / {n})")
        expr += c * getattr(sympy, fn)(k * sympy.pi / n)
    return " + ".join(parts) + f" = {constant.numerator} / {constant.denominator}", expr - sympy.Rational(
        constant.numerator, constant.denominator)


def _lhs(terms) -> str:
    return " + ".join(f"{c} * {fn} ({k} * pi / {n})" for fn, (k, n), c in terms)


@settings(max_examples=40, deadline=None)
@given(_TERMS, st.fractions(min_value=-3, max_value=3, max_denominator=8))
def test_zero_test_agrees_with_sympy_minimal_polynomials(terms, constant):
    claim, difference = _claim(terms, constant)
    a, b = _sides(claim)
    ours = difference_is_zero(a, b, _exact)
    if ours is None:  # every angle a multiple of π/12 or a zero coefficient: exact already
        ours = evaluate(provers.parse(f'theorem shows "{claim}"', "isabelle").conclusion, {})
        assert isinstance(ours, bool), claim
    y = sympy.Dummy("y")
    assert ours == (sympy.minimal_polynomial(difference, y) == y), claim


@settings(max_examples=40, deadline=None)
@given(_TERMS, st.integers(1, 50))
def test_a_perturbed_constant_always_breaks_an_equality(terms, d):
    """A value equals itself and never itself plus 1/d; a rational value, when there is one,
    is mpmath's to 40 digits."""
    lhs = _lhs(terms)
    for rhs, expected in ((lhs, True), (f"{lhs} + 1 / {d}", False)):
        a, b = _sides(f"{lhs} = {rhs}")
        ours = difference_is_zero(a, b, _exact)
        if ours is None:  # no angle the evaluator cannot compute exactly itself
            ours = evaluate(provers.parse(f'theorem shows "{lhs} = {rhs}"', "isabelle").conclusion, {})
        assert ours is expected, (lhs, rhs)
    v = rational_value(_sides(f"{lhs} = 0")[0], _exact)
    if v is not None:
        mpmath.mp.dps = 50
        approx = sum(c * getattr(mpmath, fn)(k * mpmath.pi / n) for fn, (k, n), c in terms)  # no tan at π/2: n ≠ 2
        assert abs(approx - mpmath.mpf(v.numerator) / v.denominator) < mpmath.mpf(10) ** -40


def test_equivalence_of_a_trigonometric_answer():
    """``precalculus/problem_302``: a statement with the closed premise cos (2π/7)·… = 1/8 and
    one naming the product x have the same answer, 1/8; another answer does not."""
    closed = '''theorem
assumes h0 : "cos (2 * pi / 7) * cos (4 * pi / 7) * cos (8 * pi / 7) = 1 / 8"
shows  "cos (2 * pi / 7) * cos (4 * pi / 7) * cos (8 * pi / 7) = 1 / 8"'''
    named = '''theorem
fixes x :: real
assumes h0 : "x = cos(2 * pi / 7) * cos(4 * pi / 7) * cos(8 * pi / 7)"
shows  "x = 1 / 8"'''
    v = provers.check_equivalence(provers.parse(closed, "isabelle"), provers.parse(named, "isabelle"),
                                  relation="symbolic", timeout=1.0)
    assert v.status.value == "equivalent", v.reason
    wrong = provers.check_equivalence(provers.parse(named, "isabelle"),
                                      provers.parse(named.replace('"x = 1 / 8"', '"x = 1 / 9"'), "isabelle"),
                                      relation="symbolic", timeout=1.0)
    assert wrong.status.value == "inequivalent", wrong.reason
