"""Nonlinear reals: algebraic countermodels re-checked exactly, and solver configurations
that decide (z3) or give up at once (cvc5) instead of hanging. Real z3 and cvc5."""

import math
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import provers
from provers.backends.base import Proved, Refuted, Unknown
from provers.backends.smt.emit import real_logic
from provers.backends.smt.lower import lower_obligation
from provers.backends.smt.model_values import from_cvc5_text
from provers.backends.smt.solve import solve
from provers.engine.equivalence import check_equivalence
from provers.engine.formulas import close
from provers.engine.normal import normalize
from provers.ir import INT, NAT, RAT, REAL, FunSort, Num, Quant, Var, app
from provers.semantics import truth
from provers.semantics.algebraic import AlgebraicReal, algebraic_truth, algebraic_value, is_root_of

SQRT2 = AlgebraicReal((-2, 0, 1), Fraction(5, 4), Fraction(3, 2))
SQRT3 = AlgebraicReal((-3, 0, 1), Fraction(1), Fraction(2))
MINUS_SQRT2 = AlgebraicReal((2, 0, -1), Fraction(-3, 2), Fraction(-1))


def _obligation(text: str):
    nf = normalize(provers.parse(text, "lean4"))
    return close(nf.body(), nf.variables)


def _body(text: str):
    return normalize(provers.parse(text, "lean4")).body()


# ---- algebraic numbers ------------------------------------------------------------------


def test_cvc5_algebraic_numbers_are_read_exactly():
    v = from_cvc5_text("(_ real_algebraic_number <1*x^2 + (-2), (5/4, 3/2)>)")
    assert v == SQRT2
    with pytest.raises(ValueError):  # (1, 2) holds √2 but (0, 2) ... fine; (2, 3) holds no root
        AlgebraicReal((-2, 0, 1), Fraction(2), Fraction(3))
    with pytest.raises(ValueError):  # two roots inside
        AlgebraicReal((-2, 0, 1), Fraction(-2), Fraction(2))


@pytest.mark.parametrize(("text", "env", "expected"), [
    ("theorem t (x : ℝ) : x^3 = 2*x ∧ x > 1414/1000 ∧ x < 1415/1000 ∧ (x + 1)^2 = 3 + 2*x := by sorry",
     {"x": SQRT2}, True),
    ("theorem t (x y : ℝ) : x * y = 6 := by sorry", {"x": SQRT2, "y": SQRT3}, False),  # √6 ≠ 6
    ("theorem t (x y : ℝ) : (x * y)^2 = 6 ∧ x < y ∧ x / 0 = 0 := by sorry", {"x": SQRT2, "y": SQRT3}, True),
    ("theorem t (x y : ℝ) : x + y < 3.1462 := by sorry", {"x": SQRT2, "y": SQRT3}, False),  # √2+√3 = 3.14626…
    ("theorem t (x y : ℝ) : x + y < 3.1463 := by sorry", {"x": SQRT2, "y": SQRT3}, True),
    ("theorem t (x : ℝ) (h : x^2 = 2) : x^2 = 3 := by sorry", {"x": SQRT2}, False),
    # outside the field fragment: undecided, never guessed
    ("theorem t (x : ℝ) (n : ℕ) : n - 1 = 0 := by sorry", {"x": SQRT2, "n": 0}, None),
    ("theorem t (x : ℝ) : Real.exp x > 0 := by sorry", {"x": SQRT2}, None),
    # roots: Real.sqrt is 0 below 0, Isabelle's sqrt is odd (signed_sqrt)
    ("theorem t (x : ℝ) : Real.sqrt (x^2) = x := by sorry", {"x": SQRT2}, True),
    ("theorem t (x : ℝ) : Real.sqrt (x^2) = x := by sorry", {"x": MINUS_SQRT2}, False),
    ("theorem t (x : ℝ) : Real.sqrt x = 0 := by sorry", {"x": MINUS_SQRT2}, True),
    ("theorem t (x y : ℝ) : Real.sqrt (x^2 * y^2) = x * y ∧ Real.sqrt (x * y) ≠ Real.sqrt 6 ∧ |x - y| = y - x := by sorry",
     {"x": SQRT2, "y": SQRT3}, True),
    ("theorem t (x : ℝ) : x ^ (1/2 : ℝ) = Real.sqrt x ∧ x⁻¹ = x / 2 := by sorry", {"x": SQRT2}, True),
])
def test_algebraic_truth_is_exact(text, env, expected):
    assert algebraic_truth(_body(text), env) is expected


_x, _y = Var("x", REAL), Var("y", REAL)
_leaf = st.one_of(st.just(_x), st.just(_y), st.integers(-3, 3).map(lambda k: Num(k, REAL)))
_expr = st.recursive(_leaf, lambda e: st.tuples(st.sampled_from(["add", "sub", "mul", "div"]), e, e).map(
    lambda t: app(t[0], t[1], t[2])), max_leaves=6)
_formula = st.tuples(st.sampled_from(["eq", "lt", "le", "ne"]), _expr, _expr).map(lambda t: app(t[0], t[1], t[2]))
_rational = st.fractions(min_value=-4, max_value=4, max_denominator=5)


@settings(max_examples=60, deadline=None)
@given(_formula, _rational, _rational)
def test_algebraic_truth_agrees_with_the_exact_evaluator_at_rational_points(f, vx, vy):
    env = {"x": vx, "y": vy}
    assert algebraic_truth(f, env) == truth(f, env)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.integers(-5, 5), min_size=1, max_size=5), st.sampled_from([2, 3, 5, 7]))
def test_algebraic_truth_reduces_powers_of_square_roots_exactly(coeffs, q):
    """p(√q) = a + b·√q with a, b read off the even and odd coefficients."""
    root = AlgebraicReal((-q, 0, 1), Fraction(1), Fraction(q))
    poly = Num(0, REAL)
    for k, ck in enumerate(coeffs):
        poly = app("add", poly, app("mul", Num(ck, REAL), app("pow", _x, Num(k, provers.ir.NAT))))
    a = sum(ck * q ** (k // 2) for k, ck in enumerate(coeffs) if k % 2 == 0)
    b = sum(ck * q ** (k // 2) for k, ck in enumerate(coeffs) if k % 2 == 1)
    reduced = app("add", Num(a, REAL), app("mul", Num(b, REAL), _x))
    assert algebraic_truth(app("eq", poly, reduced), {"x": root}) is True
    assert algebraic_truth(app("eq", poly, app("add", reduced, Num(1, REAL))), {"x": root}) is False


def test_algebraic_numbers_compare_exactly_whatever_their_description():
    assert SQRT2 == AlgebraicReal((-4, 0, 2), Fraction(1), Fraction(2))  # not a minimal polynomial
    assert SQRT2 == AlgebraicReal((2, 0, -3, 0, 1), Fraction(13, 10), Fraction(3, 2))  # (x²-1)(x²-2)
    assert SQRT2 != MINUS_SQRT2 and SQRT2 != SQRT3 and SQRT2 != Fraction(7, 5)
    assert AlgebraicReal((-2, 0, 1), Fraction(1), Fraction(2)) != 1  # an end of the interval
    v = algebraic_value(app("mul", Num(2, REAL), app("sqrt", Num(2, REAL))), {})
    assert v == algebraic_value(app("sqrt", Num(8, REAL)), {}) and v.coeffs == (-8, 0, 1)
    assert algebraic_value(app("sqrt", Num(Fraction(9, 4), REAL)), {}) == Fraction(3, 2)
    assert algebraic_value(app("mul", _x, _x), {"x": SQRT2}) == 2  # rational after all: a Fraction
    assert isinstance(algebraic_value(app("mul", _x, _x), {"x": SQRT2}), int)
    assert algebraic_value(app("exp", _x), {"x": SQRT2}) is None  # outside the fragment


def test_numbers_beyond_the_degree_bound_are_left_unknown_not_computed():
    """x = 4 / ((√5+1)(5^¼+1)(5^⅛+1)(5^(1/16)+1)) (a MATH candidate) sent sympy's minimal
    polynomial into minutes of factoring inside one problem: beyond ``MAX_DEGREE`` a value is
    unknown (None), within it exact, denominators with radicals rationalized first."""
    from provers.semantics.algebraic import MAX_DEGREE

    def isabelle_rhs(expr):
        st = provers.parse(f'theorem\nfixes x :: real\nassumes h0 : "x = {expr}"\nshows "x > 0"', "isabelle")
        return st.hypotheses[0].formula.args[1]

    assert MAX_DEGREE < 1024
    assert algebraic_value(isabelle_rhs("4 / ((sqrt 5 + 1) * ((5 powr (1/4)) + 1) * ((5 powr (1/8)) + 1)"
                                        " * ((5 powr (1/16)) + 1))"), {}) is None
    v = algebraic_value(isabelle_rhs("(1 + root 4 5) / (root 4 5 + sqrt 5 + 2)"), {})
    assert isinstance(v, AlgebraicReal) and v.coeffs == (-1, -2, 16, -18, 9)


def test_quadratic_model_values_are_radicals_so_chains_of_square_roots_stay_exact():
    """A MATH geometry candidate: every length is pinned by a chain of square roots
    (BC = 3√3, AM = ⅔√(2BC² + 2AB² − BC²) = 2√11, …, CP = √34). Read as CRootOf(x² − 27),
    BC² stayed a power of a root and every premise went past the degree bound, so the false
    statement (CP = 4) stayed unknown; as radicals they simplify and it is refuted."""
    text = ('theorem fixes AB BC AM CN CP :: real assumes h0 : "AB = 6" and h1 : "BC = 3 * sqrt 3" '
            'and h2 : "AM = 2/3 * sqrt (2 * BC powr 2 + 2 * AB powr 2 - BC powr 2)" '
            'and h3 : "CN = 2/3 * sqrt (2 * BC powr 2 + 2 * AB powr 2 - AB powr 2)" '
            'and h4 : "CP = sqrt (AM powr 2 - (CN / 2) powr 2)" shows "CP = 4"')
    stmt = provers.parse(text, "isabelle")
    env = {"AB": 6, "BC": algebraic_value(app("mul", Num(3, REAL), app("sqrt", Num(3, REAL))), {}),
           "AM": algebraic_value(app("mul", Num(2, REAL), app("sqrt", Num(11, REAL))), {}),
           "CN": algebraic_value(app("mul", Num(2, REAL), app("sqrt", Num(10, REAL))), {}),
           "CP": algebraic_value(app("sqrt", Num(34, REAL)), {})}
    assert all(algebraic_truth(h.formula, env) is True for h in stmt.hypotheses)
    assert algebraic_truth(stmt.conclusion, env) is False
    assert algebraic_truth(stmt.conclusion, {**env, "CP": 4}) is True
    from provers.engine.equivalence import provable

    assert provable(text, timeout=2.0, language="isabelle").status == "refuted"


_radicand = st.integers(2, 30)


@settings(max_examples=40, deadline=None)
@given(st.integers(-4, 4), st.integers(-4, 4), _radicand, st.integers(-4, 4), _radicand)
def test_algebraic_values_of_sums_of_roots_are_exact(a, b, p, c, q):
    """a + b·√p + c·√q: its value isolates the number (checked against a 60-digit float), is
    described by the formula ``is_root_of`` exactly there, and two such sums are equal exactly
    when their 60-digit values agree."""
    import mpmath

    mpmath.mp.dps = 60
    term = app("add", app("add", Num(a, REAL), app("mul", Num(b, REAL), app("sqrt", Num(p, REAL)))),
               app("mul", Num(c, REAL), app("sqrt", Num(q, REAL))))
    v = algebraic_value(term, {})
    exact = a + b * mpmath.sqrt(p) + c * mpmath.sqrt(q)
    assert v is not None
    if isinstance(v, AlgebraicReal):
        assert mpmath.mpf(v.lo.numerator) / v.lo.denominator < exact < mpmath.mpf(v.hi.numerator) / v.hi.denominator
        assert algebraic_truth(is_root_of(v, _x), {"x": v}) is True
        assert algebraic_truth(is_root_of(v, term), {}) is True
        other = algebraic_value(app("add", term, Num(Fraction(1, 1000), REAL)), {})
        assert other != v and algebraic_truth(is_root_of(v, _x), {"x": other}) is False
    else:
        assert abs(exact - mpmath.mpf(v.numerator) / v.denominator) < mpmath.mpf(10) ** -50


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["sqrt", "signed_sqrt", "abs", "inv"]), _rational, st.integers(-3, 3))
def test_root_operations_agree_with_the_exact_evaluator_where_it_is_exact(op, r, k):
    """At rational points where the rational evaluator is exact (√(9/4), |x|, x⁻¹) both
    evaluators agree on ``op(x) = k`` and ``op(x²) = x``."""
    env = {"x": r}
    for f in (app("eq", app(op, _x), Num(k, REAL)), app("eq", app(op, app("mul", _x, _x)), _x)):
        want = truth(f, env)
        if want is not None:
            assert algebraic_truth(f, env) is want


# ---- solvers --------------------------------------------------------------------------


@pytest.mark.parametrize("solver", ["z3", "cvc5"])
def test_an_irrational_countermodel_is_used_once_rechecked(solver):
    """x² = 2 → x² = 3 fails only at x = ±√2: on main both solvers answered "spurious model"."""
    ob = _obligation("theorem t (x : ℝ) (h : x^2 = 2) : x^2 = 3 := by sorry")
    r = solve(solver, ob, 20.0)
    assert isinstance(r, Refuted), r
    x = r.model["x"]
    assert isinstance(x, AlgebraicReal) and x.coeffs == (-2, 0, 1)
    assert algebraic_truth(lower_obligation(ob).body, r.model) is False


def test_a_nonlinear_inequivalence_is_certified_by_an_algebraic_witness():
    """The premises x² = 2 and x² = 3 differ only at irrational points (no sampled point and
    no rational model can tell them apart): inconclusive on main, inequivalent now."""
    a = "theorem t (x : ℝ) (h : x^2 = 2) : x^4 = 4 := by sorry"
    b = "theorem t (x : ℝ) (h : x^2 = 3) : x^4 = 4 := by sorry"
    v = check_equivalence(a, b, relation="sae", language="lean4", timeout=20)
    assert v.status == "inequivalent", v.reason
    x = v.countermodel["A"]["x"]
    assert isinstance(x, AlgebraicReal) and x.coeffs in ((-2, 0, 1), (-3, 0, 1))
    premises = app("iff", app("eq", app("pow", _x, Num(2, provers.ir.NAT)), Num(2, REAL)),
                   app("eq", app("pow", _x, Num(2, provers.ir.NAT)), Num(3, REAL)))
    assert algebraic_truth(premises, {"x": x}) is False


def test_real_fragments_pick_the_nonlinear_logics():
    qf = lower_obligation(_obligation("theorem t (x y : ℝ) (h : x*y = 1) : x ≠ 0 := by sorry"))
    q = lower_obligation(_obligation("theorem t (a : ℝ) : (∃ x : ℝ, x^2 = a) ↔ a ≥ 0 := by sorry"))
    mixed = lower_obligation(_obligation("theorem t (x : ℝ) (n : ℕ) (h : x = n) : x ≥ 0 := by sorry"))
    assert (real_logic(qf), real_logic(q), real_logic(mixed)) == ("QF_NRA", "NRA", None)


def test_quantified_nonlinear_reals_are_proved_and_cvc5_gives_up_instead_of_hanging():
    """∃ x, x² = 2 ∧ x > 0: z3 proves it; cvc5 under ALL ran 8 s past a 3 s limit on main,
    under NRA with coverings it answers "incomplete" (whatever the time, not a timeout)."""
    ob = _obligation("theorem t : ∃ x : ℝ, x^2 = 2 ∧ x > 0 := by sorry")
    assert isinstance(solve("z3", ob, 10.0), Proved)
    r = solve("cvc5", ob, 10.0)
    assert isinstance(r, Unknown) and "timeout" not in r.reason, r
    disc = _obligation("theorem t (b c : ℝ) : (∃ x : ℝ, x^2 + b*x + c = 0) ↔ b^2 - 4*c ≥ 0 := by sorry")
    assert isinstance(solve("z3", disc, 10.0), Proved)


POWR_SYSTEM = """theorem
fixes a b :: real
assumes h0 : "a * b powr 2 = 27 / 5"
and h1 : "a powr 2 * b = 135"
shows  "a + 5 * b = 18\""""


def test_a_model_where_every_powr_is_specified_is_asked_for():
    """Isabelle's ``x powr 2`` is ``exp (2 ln x)``, unknown at x < 0: a solver model that picks a
    negative base proves nothing, so the model is asked again with the bases kept at x ≥ 0
    (a b² = 27/5, a² b = 135 has the one real solution a = 15, b = 3/5)."""
    from provers.engine.equivalence import vacuous

    ob = vacuous(POWR_SYSTEM, timeout=1.0, language="isabelle")
    assert ob.status == "refuted", ob.detail
    assert (ob.model["a"], ob.model["b"]) == (15, Fraction(3, 5))
    st_ = provers.parse(POWR_SYSTEM, "isabelle")
    assert truth(app("and", *(h.formula for h in st_.hypotheses)), ob.model) is True
    # where every model has a negative base the premise's truth is unknown either way
    negative = 'theorem\nfixes a :: real\nassumes h0 : "a powr 2 = 4"\nand h1 : "a < 0"\nshows "a = -2"'
    assert vacuous(negative, timeout=1.0, language="isabelle").status == "unknown"


SCIENTIFIC = """theorem
fixes red photon a b :: real
assumes h0 : "red = 7 * 10 powr (-7)"
and h1 : "1 / photon = 2000 * (1 / red)"
and h2 : "1 \\<le> a"
and h3 : "a < 10"
and h4 : "photon = a * 10 powr b"
shows  "a + b = -6.5\""""


def test_a_numerals_power_with_a_symbolic_exponent_is_known_at_integer_exponents():
    """``a · 10 powr b = 3.5·10⁻¹⁰`` with 1 ≤ a < 10 (``algebra/problem_578``): the solver
    guessed 10 powr b at some rational b (a model the evaluator rejects); 10 powr b is 10ᵇ at
    the integers, and the question restricted to them has the model a = 7/2, b = −10."""
    from provers.engine.equivalence import vacuous

    ob = vacuous(SCIENTIFIC, timeout=1.0, language="isabelle")
    assert ob.status == "refuted", ob.detail
    assert (ob.model["a"], ob.model["b"]) == (Fraction(7, 2), -10)
    st_ = provers.parse(SCIENTIFIC, "isabelle")
    assert truth(app("and", *(h.formula for h in st_.hypotheses)), ob.model) is True


def test_the_integer_exponent_restriction_never_proves():
    """``∀b. 10 powr b ≠ 5`` is false (b = log₁₀ 5); restricted to integer b it has no
    counterexample, and that unsat must not come back as a proof."""
    b = Var("b", REAL)
    never_five = Quant("forall", (b,), app("ne", app("powr", Num(10, REAL), b), Num(5, REAL)))
    assert lower_obligation(never_five).real_exponents
    assert not isinstance(solve("z3", never_five, 1.0), Proved)
    assert not isinstance(solve("cvc5", never_five, 1.0), Proved)
    # with the value at an integer exponent the restricted question refutes (b = 2)
    never_hundred = Quant("forall", (b,), app("ne", app("powr", Num(10, REAL), b), Num(100, REAL)))
    assert isinstance(solve("z3", never_hundred, 1.0), Refuted)


# ---- quadratic irrationals outside the field fragment ------------------------------------


@settings(max_examples=12, deadline=None)
@given(st.sampled_from([2, 3, 5, 6, 7, 10]))
def test_a_quadratic_irrational_model_reaches_log_through_its_closed_form(m):
    """x² = m → log x ≠ (log m) / 2 is false only at x = ±√m (Mathlib's log is log |x|):
    the solver's algebraic model, written as (-b ± √D) / 2a, is certified by the closed forms;
    the same with = (true at both roots) is never refuted."""
    from provers.backends.smt import Portfolio
    from provers.deadline import Deadline
    from provers.engine.prover import Prover
    from provers.ir import NAT, Quant
    from provers.semantics.values import Witness
    from provers.status import Status

    x = Var("x", REAL)
    m_ = Num(Fraction(m), REAL)
    half_log = app("div", app("log", m_), Num(Fraction(2), REAL))
    premise = app("eq", app("pow", x, Num(2, NAT)), m_)
    refuted = Prover(Portfolio(), 2.0, Deadline.after(60))(
        "t", Quant("forall", (x,), app("implies", premise, app("ne", app("log", x), half_log))))
    assert refuted.status == Status.REFUTED, refuted.detail
    assert isinstance(refuted.model["x"], Witness)
    assert truth(premise, refuted.model) is True
    kept = Prover(Portfolio(), 2.0, Deadline.after(60))(
        "t", Quant("forall", (x,), app("implies", premise, app("eq", app("log", x), half_log))))
    assert kept.status != Status.REFUTED


@settings(max_examples=60, deadline=None)
@given(st.integers(-6, 6).filter(bool), st.integers(-12, 12), st.integers(-12, 12), st.booleans())
def test_the_closed_form_of_a_quadratic_root_is_that_root(a, b, c, larger):
    import math

    from provers.ir import NAT

    disc = b * b - 4 * a * c
    assume(disc > 0 and math.isqrt(disc) ** 2 != disc)
    roots = sorted((-b + s * math.sqrt(disc)) / (2 * a) for s in (1, -1))
    r = roots[1] if larger else roots[0]
    gap = (roots[1] - roots[0]) / 4
    value = AlgebraicReal((c, b, a), Fraction(r - gap), Fraction(r + gap))
    t = value.surd()
    # exactly a root (closed forms), and the root of that interval (enclosures)
    poly = app("add", app("add", app("mul", Num(Fraction(a), REAL), app("pow", t, Num(2, NAT))),
                          app("mul", Num(Fraction(b), REAL), t)), Num(Fraction(c), REAL))
    assert truth(app("eq", poly, Num(Fraction(0), REAL))) is True
    assert truth(app("lt", Num(value.lo, REAL), t)) is True and truth(app("lt", t, Num(value.hi, REAL))) is True


# ---- quantifiers over the roots of a polynomial ----------------------------------------


def _isabelle_formula(text: str):
    from provers.isabelle.parser import parse_isabelle

    return parse_isabelle(f'theorem t: fixes a b :: real shows "{text}"').conclusion


@settings(max_examples=60, deadline=None)
@given(st.tuples(st.integers(-3, 3), st.integers(-6, 6), st.integers(-9, 9)).filter(lambda c: c[0] or c[1]),
       st.integers(0, 3), st.integers(0, 3), st.sampled_from(["forall", "iff", "exists"]))
def test_a_quantifier_over_a_polynomials_roots_is_decided_at_irrational_points_as_sympy_says(p, i, j, shape):
    """``∀x. p x = 0 → x = a ∨ x = b`` (and its ↔ and ∃ forms) at a, b among p's real roots,
    irrational ones included, and a rational point: the algebraic evaluator's truth value
    agrees with sympy's roots (an independent route); undecided is not allowed here."""
    import sympy

    from provers.semantics.polynomials import real_roots

    X = sympy.Symbol("x")
    poly = p[0] * X**2 + p[1] * X + p[2]
    roots = sorted(sympy.Poly(poly, X).real_roots())  # exact (radicals or rationals)
    rational, irrational = real_roots(tuple(Fraction(c) for c in reversed(p)))
    values = [*(Fraction(r) for r in rational), *irrational, Fraction(7, 3)]  # 7/3 is no root of these
    exact = [*(sympy.Rational(r.numerator, r.denominator) for r in rational),
             *(r.sympy() for r in irrational), sympy.Rational(7, 3)]
    a, b = values[i % len(values)], values[j % len(values)]
    sa, sb = exact[i % len(values)], exact[j % len(values)]
    p_text = f"({p[0]}) * x ^ 2 + ({p[1]}) * x + ({p[2]}) = 0"
    if shape == "forall":
        text = f"\\<forall>x. {p_text} \\<longrightarrow> x = a \\<or> x = b"
        expected = all(sympy.simplify(r - sa) == 0 or sympy.simplify(r - sb) == 0 for r in roots)
    elif shape == "iff":
        text = f"\\<forall>x. ({p_text}) = (x = a \\<or> x = b)"
        on = [sympy.simplify(poly.subs(X, s)) == 0 for s in (sa, sb)]
        expected = all(sympy.simplify(r - sa) == 0 or sympy.simplify(r - sb) == 0 for r in roots) and all(on)
    else:
        text = f"\\<exists>x. {p_text} \\<and> a < x \\<and> x \\<le> b"
        expected = any(bool(sa < r) and bool(r <= sb) for r in roots)
    got = algebraic_truth(_isabelle_formula(text), {"a": a, "b": b})
    assert got is expected, (text, a, b, roots)


def test_vieta_roots_written_as_a_quantifier_are_told_apart_at_an_irrational_model():
    """MATH algebra/problem_1270: "a and b are the roots of 2x² − 10x + 5" written once as two
    root equations (a = b allowed) and once with ``∀x. … → x = a ∨ x = b`` (a ≠ b). Every
    model telling them apart is irrational (a = b = (5 ± √15) / 2) and the ∀ was outside the
    exact field fragment: inconclusive before, inequivalent now with that model."""
    head = 'theorem\nfixes a b :: real\nassumes h0 : "2 * a^2 - 10 * a + 5 = 0"\nand h1 : "2 * b^2 - 10 * b + 5 = 0"\n'
    a = head + 'shows  "(2 * a - 3) * (4 * b - 6) = -22"'
    b = head + 'and h2 : "\\<forall>x. 2 * x^2 - 10 * x + 5 = 0 \\<longrightarrow> x = a \\<or> x = b"\nshows  "(2 * a - 3) * (4 * b - 6) = -22"'
    v = check_equivalence(provers.parse(a, "isabelle"), provers.parse(b, "isabelle"), relation="symbolic", timeout=1)
    assert v.status == "inequivalent", v.reason
    assert v.countermodel is not None


@pytest.mark.parametrize("text, expected", [
    ("\\<forall>x::real. x^2 = 2 \\<longrightarrow> x < 3", True),
    ("\\<forall>x::real. x^2 = 2 \\<longrightarrow> x < 1", False),  # x = √2 is the counterexample
    ("\\<exists>x::real. x^2 = 2 \\<and> x > 1", True),  # √2: no rational probe is a witness
    ("\\<exists>x::real. x^3 - 2 = 0 \\<and> x < 1", False),
    ("\\<forall>x::int. x^2 = 2 \\<longrightarrow> x = 5", True),  # no integer root: vacuous
])
def test_the_exact_evaluator_decides_quantifiers_over_irrational_roots(text, expected):
    """A ∀ / ∃ guarded by a polynomial equation with irrational roots at rational values of
    its other variables: "∀ over an unbounded domain" before, decided at the roots now."""
    from provers.isabelle.parser import parse_isabelle
    from provers.semantics.evaluate import decide

    d = decide(parse_isabelle(f'theorem t: shows "{text}"').conclusion)
    assert d.exact and d.value is expected, d


# ---- Isabelle's ln at x ≤ 0: one unspecified constant (ln_neg_is_const) ------------------

def _for_negatives(body) -> object:
    from provers.ir import Quant

    x, y = Var("x", REAL), Var("y", REAL)
    neg = app("and", app("lt", x, Num(0, REAL)), app("lt", y, Num(0, REAL)))
    return Quant("forall", (x, y), app("implies", neg, body(x, y)))


@pytest.mark.parametrize("solver", ["z3", "cvc5"])
def test_isabelle_ln_of_two_negatives_is_one_constant(solver):
    """``ln x = ln y`` and ``x powr 2 = y powr 2`` for x, y < 0 hold in Isabelle (both are
    ``THE x. False`` and its exp squared); ``x powr 2 = y powr 3`` there depends on the
    constant, so it is neither proved nor refuted."""
    two, three = Num(2, REAL), Num(3, REAL)
    same_ln = _for_negatives(lambda x, y: app("eq", app("ln", x), app("ln", y)))
    same_square = _for_negatives(lambda x, y: app("eq", app("powr", x, two), app("powr", y, two)))
    mixed = _for_negatives(lambda x, y: app("eq", app("powr", x, two), app("powr", y, three)))
    assert isinstance(solve(solver, same_ln, 5.0), Proved)
    assert isinstance(solve(solver, same_square, 5.0), Proved)
    assert isinstance(solve(solver, mixed, 5.0), Unknown)


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.integers(-3, 6), st.integers(-5, 5), max_size=4), st.integers(1, 9),
       st.integers(-2, 2))
def test_a_solver_table_at_an_irrational_point_is_what_the_solver_says(entries, q, shift):
    """z3's model of f (entries at rational points, an else-value) read as a settled table
    and applied at √q + shift, irrational or not, by the field evaluator (``algebraic._apply``):
    the same value z3 itself gives f there."""
    import z3

    from provers.semantics.values import FunTable

    f = z3.Function("f", z3.RealSort(), z3.RealSort())
    s = z3.Solver()
    for k, v in entries.items():
        s.add(f(k) == v)
    s.add(f(100) == 42)  # an else-value the entries do not give
    assert s.check() == z3.sat
    interp = s.model()[f]
    table = FunTable({(Fraction(e[0].as_fraction()),): Fraction(e[1].as_fraction()) for e in interp.as_list()[:-1]},
                     Fraction(interp.else_value().as_fraction()))
    expected = s.model().eval(f(z3.Sqrt(q) + shift), model_completion=True).as_fraction()
    root = AlgebraicReal((-q, 0, 1), Fraction(0), Fraction(q + 1)) if math.isqrt(q) ** 2 != q else math.isqrt(q)
    fx = app("apply", Var("f", FunSort((REAL,), REAL)), app("add", Var("x", REAL), Num(shift, REAL)))
    env = {"x": root, "f": table}
    assert algebraic_truth(app("eq", fx, Num(Fraction(expected), REAL)), env) is True
    assert algebraic_truth(app("eq", fx, Num(Fraction(expected) + 1, REAL)), env) is False


# ---- quantifiers over one number variable, on sign cells ------------------------------------

_COMPARE = ("eq", "ne", "lt", "le", "gt", "ge")


def _poly(v, coeffs):
    """Σ cᵢ·vⁱ as an IR term of v's sort."""
    term = Num(coeffs[0], v.sort)
    for k, c in enumerate(coeffs[1:], 1):
        if c:
            term = app("add", term, app("mul", Num(c, v.sort), app("pow", v, Num(k, NAT))))
    return term


_atoms = st.tuples(st.lists(st.integers(-6, 6), min_size=2, max_size=4), st.sampled_from(_COMPARE))


@settings(max_examples=40, deadline=None)
@given(st.sampled_from([REAL, INT]), _atoms, _atoms, st.sampled_from(["and", "or", "implies"]))
def test_a_polynomial_quantifier_is_decided_as_z3_decides_it(sort, first, second, connective):
    """∀v. p(v) ⋈ 0 ∘ q(v) ⋈' 0 over ℝ or ℤ: the evaluator decides it on the sign cells of p
    and q (exactly, at one point per cell and the roots), and agrees with z3 asked without
    constant folding (a countermodel it validates at a single point, or unsat)."""
    v = Var("v", sort)
    atoms = [app(op, _poly(v, cs), Num(0, sort)) for cs, op in (first, second)]
    body = app(connective, *atoms)
    ours = truth(Quant("forall", (v,), body))
    assert ours is not None
    z3 = solve("z3", Quant("forall", (v,), body), 5.0, fold=False)
    assume(not isinstance(z3, Unknown))
    assert ours is isinstance(z3, Proved), (body, z3)
    # ∃ is the dual: decided the same way
    assert truth(Quant("exists", (v,), app("not", body))) is (not ours)


def test_a_quantifier_decided_at_an_irrational_root():
    """∀x. x² ≠ 2 fails only at ±√2, which no probe is: false over ℝ, true over ℚ."""
    x = Var("x", REAL)
    assert truth(Quant("forall", (x,), app("ne", app("mul", x, x), Num(2, REAL)))) is False
    q = Var("q", RAT)
    assert truth(Quant("forall", (q,), app("ne", app("mul", q, q), Num(2, RAT)))) is True
    # "the roots of x² − 5x + 6 are 2 and 3", and not "2 alone"
    roots = app("ne", _poly(x, [6, -5, 1]), Num(0, REAL))
    assert truth(Quant("forall", (x,), app("or", roots, app("eq", x, Num(2, REAL)), app("eq", x, Num(3, REAL))))) is True
    assert truth(Quant("forall", (x,), app("or", roots, app("eq", x, Num(2, REAL))))) is False


@settings(max_examples=40, deadline=None)
@given(st.integers(-3000, 3000), st.integers(1, 7), st.integers(-3, 3), st.sampled_from(["ge", "gt", "ne"]))
def test_an_integer_quantifier_with_far_roots_is_decided_near_them(a, gap, c, op):
    """∀x : ℤ. (2x − a)(2x − a − gap) ⋈ c: the roots are far from 0 and close to each other,
    so the integers between them (if any) are the only place the body may change; the
    integers next to each root stand for every cell. Brute force over a window around the
    roots (the body has one value beyond them) agrees."""
    v = Var("v", INT)
    two_v = app("mul", Num(2, INT), v)
    product = app("mul", app("sub", two_v, Num(a, INT)), app("sub", two_v, Num(a + gap, INT)))
    body = app(op, product, Num(c, INT))
    ops = {"ge": lambda u: u >= c, "gt": lambda u: u > c, "ne": lambda u: u != c}
    window = range(a // 2 - 10, (a + gap) // 2 + 11)
    assert truth(Quant("forall", (v,), body)) is all(ops[op]((2 * x - a) * (2 * x - a - gap)) for x in window)
