"""Certified comparisons of transcendental values: interval enclosures (provers/semantics/
interval.py), exact closed forms (surds.py) and their use by the evaluator (certify.py)."""

from fractions import Fraction

import mpmath
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ir_vocab import N, R, x, y  # noqa: E402
from mpmath.libmp import to_rational

import provers
from provers.backends.base import Proved, Refuted
from provers.backends.smt import lower_obligation, solve
from provers.ir import app, forall_, implies
from provers.semantics import Approx, decide, evaluate, truth
from provers.semantics.interval import PRECISIONS, Enclosing, bounds, enclose
from provers.semantics.surds import Form, form_of, sqrt_of_rational


def lean(prop: str):
    return provers.parse(f"theorem t (x : ℝ) : {prop} := by sorry").conclusion


def enclosure(term, prec=PRECISIONS[0]):
    return bounds(enclose(term, Enclosing(prec, lambda t: evaluate(t))))


# --------------------------------------------------------------------------------------
# Comparisons that were "only approximate" are certified
# --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "prop, expected",
    [
        ("Real.sqrt 2 < 1.5", True),
        ("Real.sqrt 2 < 1.414", False),
        ("Real.sqrt 2 > 1.4142135623730950488", True),  # separated only past 64 bits
        ("Real.pi > 3.14159", True),
        ("Real.exp 1 < 2.718", False),
        ("Real.log 2 < 0.7", True),
        ("Real.sin 1 < Real.cos 1", False),
        ("Real.arctan 1 < Real.pi / 4 + 1 / 10 ^ 30", True),
        ("Int.floor (Real.sqrt 10) = 3", True),
        ("Real.sqrt 2 ≠ 1.41", True),
    ],
)
def test_comparisons_of_transcendental_values_are_certified(prop, expected):
    d = decide(lean(prop))
    assert d.exact and d.value is expected


@pytest.mark.parametrize(
    "prop",
    [
        "Real.log 8 = 3 * Real.log 2",
        "Real.sqrt 2 * Real.sqrt 3 = Real.sqrt 6",
        "Real.sqrt 8 = 2 * Real.sqrt 2",
        "(Real.sqrt 2) ^ 2 = 2",
        "1 / (1 + Real.sqrt 2) = Real.sqrt 2 - 1",
        "Real.log 6 = Real.log 2 + Real.log 3",
        "Real.log (Real.sqrt 8) = 3 / 2 * Real.log 2",
        "Real.exp (Real.log 2) = 2",
        "Real.logb 2 8 = 3",
        "Real.sin (Real.pi / 6) = 1 / 2",
        "Real.cos (Real.pi / 4) = Real.sqrt 2 / 2",
        "Real.tan (Real.pi / 4) = 1",
        "Real.log (-8) = 3 * Real.log 2",  # Mathlib: log |x|
        "Real.exp (Real.log 3 + Real.log 5) = 15",
        "Real.arctan 1 = Real.pi / 4",  # a principal value at a tangent of a multiple of π/12
    ],
)
def test_exact_identities_are_certified_by_closed_forms(prop):
    assert truth(lean(prop)) is True


@pytest.mark.parametrize(
    "prop",
    [
        "Real.sin 1 ^ 2 + Real.cos 1 ^ 2 = 1",  # true, but outside the closed forms
        "Real.arctan 2 + Real.arctan 3 = 3 * Real.pi / 4",
        "Real.exp 1 * Real.exp 1 = Real.exp 2",
    ],
)
def test_equalities_outside_the_closed_forms_stay_undecided(prop):
    d = decide(lean(prop))
    assert d.value is not False  # never refuted by floats or intervals
    assert not d.exact


def test_sqrt_squared_follows_lean_semantics_at_negative_points():
    t = lean("Real.sqrt x ^ 2 = x")
    assert truth(t, {"x": -3}) is False  # Real.sqrt (-3) = 0
    assert truth(t, {"x": 3}) is True
    assert truth(t, {"x": Fraction(2, 7)}) is True
    assert truth(lean("Real.sqrt (x ^ 2) = |x|"), {"x": -5}) is True
    assert truth(lean("Real.sqrt x * Real.sqrt x = x"), {"x": -2}) is False


def test_isabelle_unspecified_values_stay_undecided():
    assert truth(app("lt", app("ln", R(-1)), R(5))) is None  # ln at x ≤ 0 is unspecified
    assert truth(app("lt", app("isa_arcsin", R(2)), R(5))) is None
    assert truth(app("eq", app("signed_sqrt", R(-8)), app("neg", app("mul", R(2), app("sqrt", R(2)))))) is True
    assert truth(app("lt", app("ln", R(2)), R(1))) is True


def test_mathlib_junk_values_are_enclosed_by_their_definition():
    assert truth(app("eq", app("arccos", R(2)), R(0))) is True  # clamped
    assert truth(app("gt", app("arcsin", R(5)), R(Fraction(157, 100)))) is True  # π/2
    assert truth(app("eq", app("log", R(0)), R(0))) is True
    assert truth(app("lt", app("rpow", R(-8), R(Fraction(1, 3))), R(0))) is False  # = 1


# --------------------------------------------------------------------------------------
# Properties
# --------------------------------------------------------------------------------------

_UNARY = ["sqrt", "signed_sqrt", "exp", "log", "sin", "cos", "tan", "arctan", "arcsin", "arccos",
          "sinh", "cosh", "tanh"]
rationals = st.fractions(min_value=-50, max_value=50, max_denominator=1000)


@settings(max_examples=150, deadline=None)
@given(op=st.sampled_from(_UNARY), v=rationals)
def test_the_enclosure_contains_the_evaluators_value(op, v):
    term = app(op, R(v))
    _assert_contains(enclosure(term), evaluate(term))


@settings(max_examples=80, deadline=None)
@given(b=rationals.filter(lambda q: q != 0), e=st.fractions(min_value=-4, max_value=4, max_denominator=12))
def test_the_enclosure_of_a_real_power_contains_its_value(b, e):
    term = app("rpow", R(b), R(e))
    _assert_contains(enclosure(term, PRECISIONS[1]), evaluate(term))


def _assert_contains(bounds_, value):
    """The evaluator's 50-digit value lies in the enclosure (up to its own 1e-40 error)."""
    lo, hi = bounds_
    if isinstance(value, Approx):
        value = Fraction(*to_rational(value.value._mpf_))
    slack = Fraction(1, 10**40) * max(1, abs(value))
    assert lo - slack <= value <= hi + slack


_IDENTITIES = [  # (text with one numeral marked {}, the numeral): true identities
    ("Real.sqrt {} = 2 * Real.sqrt 2", 8),
    ("Real.sqrt 8 = {} * Real.sqrt 2", 2),
    ("Real.log {} = 3 * Real.log 2", 8),
    ("Real.log 8 = {} * Real.log 2", 3),
    ("Real.sqrt 2 * Real.sqrt {} = Real.sqrt 6", 3),
    ("Real.log 6 = Real.log 2 + Real.log {}", 3),
    ("Real.sqrt 12 + Real.sqrt 3 = {} * Real.sqrt 3", 3),
    ("Real.exp (2 * Real.log 3) = {}", 9),
]


@settings(max_examples=120, deadline=None)
@given(case=st.sampled_from(_IDENTITIES),
       delta=st.fractions(min_value=Fraction(-1, 2), max_value=Fraction(1, 2), max_denominator=10**9)
       .filter(lambda d: d != 0))
def test_perturbing_a_numeral_in_a_true_identity_certifies_falsity(case, delta):
    text, numeral = case
    assert truth(lean(text.format(numeral))) is True
    q = Fraction(numeral) + delta
    assert truth(lean(text.format(f"({q.numerator} / {q.denominator})"))) is False


@settings(max_examples=100, deadline=None)
@given(a=st.fractions(min_value=0, max_value=100, max_denominator=50),
       b=st.fractions(min_value=0, max_value=100, max_denominator=50))
def test_product_of_roots_is_the_root_of_the_product(a, b):
    prod = app("mul", app("sqrt", R(a)), app("sqrt", R(b)))
    assert truth(app("eq", prod, app("sqrt", R(a * b)))) is True
    assert truth(app("eq", app("pow", app("sqrt", R(a)), N(2)), R(a))) is True


@settings(max_examples=100, deadline=None)
@given(a=st.fractions(min_value=-30, max_value=30, max_denominator=30),
       b=st.fractions(min_value=-30, max_value=30, max_denominator=30))
def test_certified_order_agrees_with_high_precision_floats(a, b):
    lhs = app("add", app("sqrt", R(abs(a))), app("exp", R(a / 10)))
    rhs = app("add", app("log", R(b)), R(b))
    d = decide(app("lt", lhs, rhs))
    with mpmath.workdps(60):
        ma, mb = (mpmath.mpf(q.numerator) / q.denominator for q in (a, b))
        fa = mpmath.sqrt(abs(ma)) + mpmath.exp(ma / 10)
        fb = (mpmath.log(abs(mb)) if b != 0 else 0) + mb
    assert d.exact
    assert d.value is bool(fa < fb)


def test_closed_forms_are_canonical():
    assert sqrt_of_rational(Fraction(8)) == Form({(2, 0): Fraction(2)})
    assert sqrt_of_rational(Fraction(1, 2)) == Form({(2, 0): Fraction(1, 2)})
    three = form_of(app("add", app("sqrt", R(12)), app("sqrt", R(3))), evaluate)
    assert three == Form({(3, 0): Fraction(3)})
    inv = form_of(app("inv", app("add", app("sqrt", R(2)), app("sqrt", R(3)))), evaluate)
    assert inv == Form({(3, 0): Fraction(1), (2, 0): Fraction(-1)})  # 1/(√2+√3) = √3 − √2
    assert form_of(app("mul", app("pi"), app("log", R(2))), evaluate) is None  # outside the forms
    assert form_of(x, lambda t: evaluate(t)) is None  # no value for x


def test_an_engine_countermodel_that_was_only_approximate_is_certified():
    # before: "z3: spurious model: falsity only approximate" on both solvers, inconclusive
    a = provers.parse("theorem a : Real.log 8 = 3 * Real.log 2 := by sorry")
    b = provers.parse("theorem b : Real.log 8 = 3.01 * Real.log 2 := by sorry")
    v = provers.check_equivalence(a, b, relation="sae", timeout=5)
    assert v.status == "inequivalent", v.reason
    c = provers.parse("theorem c (x : ℝ) (h : x = Real.sqrt 2) : x < 1.5 := by sorry")
    d = provers.parse("theorem d (x : ℝ) (h : x = Real.sqrt 2) : x < 1.4 := by sorry")
    v = provers.check_equivalence(c, d, relation="sae", timeout=5)
    assert v.status == "inequivalent", v.reason


# --------------------------------------------------------------------------------------
# SMT lowering of square roots (provers/backends/smt/rewrites.py)
# --------------------------------------------------------------------------------------


def test_square_root_of_a_square_is_lowered_to_an_absolute_value():
    low = lower_obligation(forall_([x], app("eq", app("sqrt", app("pow", x, N(2))), app("abs", x))))
    assert "%sqrt" not in repr(low.formula) + repr(low.facts)
    low = lower_obligation(forall_([x], app("eq", app("pow", app("sqrt", x), N(2)), x)))
    assert "%sqrt" not in repr(low.formula) + repr(low.facts)


@pytest.mark.parametrize("solver", ["z3", "cvc5"])
def test_square_root_rewrites_are_sound_under_lean_semantics(solver):
    sq = app("pow", app("sqrt", x), N(2))
    assert isinstance(solve(solver, forall_([x], app("eq", app("sqrt", app("mul", x, x)), app("abs", x))), 5.0), Proved)
    assert isinstance(solve(solver, forall_([x], implies(app("le", R(0), x), app("eq", sq, x))), 5.0), Proved)
    r = solve(solver, forall_([x], app("eq", sq, x)), 5.0)  # false at every x < 0
    assert isinstance(r, Refuted) and r.model["x"] < 0
    assert truth(app("eq", sq, x), r.model) is False
    prod = app("mul", app("sqrt", x), app("sqrt", y))
    ok = implies(app("and", app("le", R(0), x), app("le", R(0), y)), app("eq", prod, app("sqrt", app("mul", x, y))))
    assert not isinstance(solve(solver, forall_([x, y], ok), 5.0), Refuted)


def test_closed_comparisons_of_transcendental_values_are_folded_before_solving():
    from provers.backends.smt.lower import fold_ground
    from provers.ir import FALSE, TRUE

    nested = app("sqrt", app("div", app("add", app("div", R(5), app("sqrt", R(80))),
                                        app("add", app("div", app("sqrt", R(845)), R(9)), app("sqrt", R(45)))),
                             app("sqrt", R(5))))
    assert fold_ground(app("eq", nested, R(Fraction(13, 6)))) == TRUE  # mathd_algebra_509
    assert fold_ground(app("lt", app("sqrt", R(2)), R(Fraction(7, 5)))) == FALSE
    assert fold_ground(app("eq", app("arctan", R(1)), app("div", app("pi"), R(4)))) == TRUE  # a principal value
    undecided = app("eq", app("add", app("arctan", R(2)), app("arctan", R(3))), app("div", app("mul", R(3), app("pi")), R(4)))
    assert fold_ground(undecided) == undecided  # true, but not certified: left to the solvers
    for solver in ("z3", "cvc5"):
        r = solve(solver, app("ne", nested, R(Fraction(13, 6))), 5.0)
        assert isinstance(r, Refuted)


def test_closed_powers_of_roots_are_folded_to_their_exact_value():
    """`a · (√7 powr 2) + c = 22` (MATH intermediate_algebra/problem_1487) is linear once
    √7 powr 2 is 7; an irrational or unspecified value (Isabelle's (−2) powr 2) stays."""
    from provers.backends.smt.lower import fold_ground

    assert fold_ground(app("mul", x, app("powr", app("signed_sqrt", R(7)), R(2)))) == app("mul", x, R(7))
    assert fold_ground(app("mul", app("sqrt", R(8)), app("sqrt", R(2)))) == R(4)
    assert fold_ground(app("rpow", R(8), R(Fraction(2, 3)))) == R(4)
    for kept in (app("powr", R(-2), R(2)), app("powr", app("sqrt", R(7)), R(3)), app("add", x, app("sqrt", R(2)))):
        assert fold_ground(kept) == kept


def test_exact_closed_comparisons_keep_the_ordinary_folding_limit():
    from provers.backends.smt.lower import fold_ground

    big = app("eq", app("mod", app("pow", N(1999), N(2000)), N(5)), N(1))  # 1999^2000: 21935 bits
    assert fold_ground(big) != fold_ground(app("eq", N(1), N(1)))


def test_exp_of_an_enormous_argument_is_not_enclosed():
    """``x powr (5 powr 6431564)`` (a MATH candidate) made mpmath compute ln 2 to millions of
    bits at x = 2: exp beyond ±MAX_EXP_ARGUMENT is undecided at once (never a wrong value);
    at x = 0 the statement is still decided (0 powr y = 0)."""
    from provers.semantics.interval import MAX_EXP_ARGUMENT
    from provers.semantics.values import Undecided

    with pytest.raises(Undecided):
        enclosure(app("exp", R(10**30)))
    assert MAX_EXP_ARGUMENT < 10**30 and enclosure(app("exp", R(1000)))[0] > 2 ** 1000
    st = provers.parse('theorem\nfixes x :: real\nassumes h0 : "x = 0"\nshows "x powr (5 powr 6431564) = 0"', "isabelle")
    assert truth(st.conclusion, {"x": 2}) is None
    assert truth(st.conclusion, {"x": 0}) is True


@given(st.fractions(), st.sampled_from([53, 113, 400]))
@settings(max_examples=200, deadline=None)
def test_a_remembered_point_still_encloses_its_rational(q, prec):
    """``Enclosing.point`` keeps enclosures of rationals per precision: the remembered one
    contains the rational at every precision, and is the one built fresh."""
    from provers.semantics.interval import Enclosing, bounds

    en = Enclosing(prec, lambda t: None)
    first, again = en.point(q), Enclosing(prec, lambda t: None).point(q)
    assert again is first
    lo, hi = bounds(first)
    assert lo <= q <= hi
    fresh = en.iv.mpf(q.numerator) / en.iv.mpf(q.denominator)
    assert bounds(fresh) == (lo, hi)


def test_remembered_points_are_bounded():
    from provers.semantics import interval

    en = interval.Enclosing(53, lambda t: None)
    for n in range(interval.POINTS_KEPT + 10):
        en.point(Fraction(n, 7))
    assert len(interval._points(53)) <= interval.POINTS_KEPT


@settings(max_examples=60, deadline=None)
@given(st.fractions(min_value=-9, max_value=-1, max_denominator=4), st.integers(-3, 3),
       st.fractions(min_value=-200, max_value=200, max_denominator=3), st.sampled_from(["eq", "lt", "gt"]),
       st.fractions(min_value=-4, max_value=4, max_denominator=5))
def test_isabelle_powr_of_a_negative_base_is_decided_only_where_every_ln_agrees(base, expo, k, op, ln_value):
    """x powr y for x < 0 is exp (y · ln x) with ln x unspecified: the enclosure (0, +∞) (1 at
    y = 0) decides ``x powr y + k ⋈ 0`` only where every value of ln x gives the same truth;
    checked against the evaluator with ln fixed at a sampled value (``@ln``)."""
    from provers.ir import REAL as REAL_
    from provers.ir import Num
    from provers.semantics.values import FunTable

    term = app(op, app("add", app("powr", Num(base, REAL_), Num(expo, REAL_)), Num(k, REAL_)), Num(0, REAL_))
    verdict = truth(term)
    if verdict is None:
        return
    fixed = truth(term, {"@ln": FunTable({}, ln_value)})
    assert fixed is None or fixed == verdict


# --------------------------------------------------------------------------------------
# Complex moduli at surd points (``surds.complex_form``)
# --------------------------------------------------------------------------------------


def _complex(re, im):
    """``↑re + ↑im · 𝑖`` over ℂ."""
    from provers.ir import COMPLEX, cast

    return app("add", cast(re, COMPLEX), app("mul", cast(im, COMPLEX), app("I")))


def test_the_modulus_of_a_complex_number_with_surd_parts_is_exact():
    """‖3 - √40·𝑖‖ = √(9 + 40) = 7 exactly (MATH intermediate_algebra/problem_1069's model
    c = √40 of ‖3 - c·𝑖‖ = 7); the evaluator alone gets 7 only approximately."""
    from provers.ir import COMPLEX, cast

    c = app("sqrt", R(40))
    z = app("sub", cast(R(3), COMPLEX), app("mul", cast(c, COMPLEX), app("I")))
    assert decide(app("eq", app("cabs", z), R(7))).value is True
    assert decide(app("eq", app("cabs", z), R(7))).exact
    assert decide(app("eq", app("cabs", z), app("sqrt", R(48)))).value is False
    assert form_of(app("im", z), evaluate) == -form_of(c, evaluate)


@settings(max_examples=60, deadline=None)
@given(st.integers(-5, 5), st.integers(-5, 5), st.integers(0, 12), st.integers(-5, 5), st.integers(-5, 5))
def test_complex_forms_agree_with_high_precision_floats(p, q, m, r, s):
    """(p + q√m) + (r + s√m)·𝑖 and its square: re, im and the modulus, where a closed form
    exists, equal mpmath's values at 50 digits."""
    root = app("sqrt", R(m))
    re = app("add", R(p), app("mul", R(q), root))
    im = app("add", R(r), app("mul", R(s), root))
    z = _complex(re, im)
    with mpmath.workdps(50):
        w = mpmath.mpc(p + q * mpmath.sqrt(m), r + s * mpmath.sqrt(m))
        for term, expected in ((z, w), (app("mul", z, z), w * w)):
            for op, value in (("re", expected.real), ("im", expected.imag), ("cabs", abs(expected))):
                f = form_of(app(op, term), evaluate)
                if f is not None:
                    assert all(L == 0 for _, L in f.terms)  # surds only: √m · 1
                    got = sum(mpmath.mpf(c.numerator) / c.denominator * mpmath.sqrt(k) for (k, _), c in f.terms.items())
                    assert abs(got - value) < mpmath.mpf(10) ** -40, (op, term)


@pytest.mark.parametrize("claim, holds", [
    ("arcsin (-1/2) = -pi/6", True),
    ("arccos (-1) = pi", True),
    ("arctan (sqrt 3) = pi / 3", True),
    ("arccos (sqrt 2 / 2) + arcsin (1/2) = 5 * pi / 12", True),
    ("arcsin (1/2) = pi / 5", False),
    ("arccos (1/2) = pi / 4", False),
])
def test_inverse_trigonometric_values_at_special_points_are_multiples_of_pi(claim, holds):
    """arcsin (1/2) is π/6, not an atom of its own: an equality with a multiple of π is
    certified (intervals never could), a wrong multiple refuted."""
    statement = provers.parse(f'theorem shows "{claim}"', "isabelle")
    assert evaluate(statement.conclusion, {}) is holds


@settings(max_examples=40, deadline=None)
@given(st.integers(-6, 6), st.sampled_from(["arcsin", "arccos", "arctan"]))
def test_principal_values_agree_with_mpmath(k, fn):
    """arcsin (sin (kπ/12)) is kπ/12 on [−π/2, π/2] (arccos on [0, π], arctan inside ±π/2): the
    form certified equals mpmath's value."""
    angle = {"arcsin": k, "arccos": k + 6, "arctan": max(-5, min(5, k))}[fn]
    inner = {"arcsin": "sin", "arccos": "cos", "arctan": "tan"}[fn]
    point = app(inner, app("div", app("mul", R(angle), app("pi")), R(12)))
    f = form_of(app(fn, point), evaluate)
    assert f is not None and set(f.terms) <= {(1, -1)}  # a multiple of π
    mpmath.mp.dps = 50
    value = float(f.terms.get((1, -1), 0)) * mpmath.pi
    expected = getattr(mpmath, {"arcsin": "asin", "arccos": "acos", "arctan": "atan"}[fn])(
        getattr(mpmath, inner)(angle * mpmath.pi / 12))
    assert abs(value - expected) < mpmath.mpf(10) ** -12
