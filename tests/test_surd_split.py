"""Equations with surd coefficients in rational unknowns, split along the basis of the surds
(``provers.backends.smt.surd_split``): the rewrite agrees with the exact evaluator wherever
the unknowns are rational, is not made where they may be irrational, and lets the solvers
find the models and proofs of MATH's "integer / rational coefficients with a root 3 + √7"
problems (real z3 and cvc5)."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.backends.smt.surd_split import split_surd_equations
from provers.deadline import Deadline
from provers.engine.align import drop_unused
from provers.engine.answers import pin_answer
from provers.engine.normal import normalize
from provers.engine.prover import Prover, default_backend
from provers.ir import INT, NAT, REAL, Num, Var, and_, app, cast, conjuncts, free_vars, substitute
from provers.semantics import truth
from provers.semantics.values import Closure

A, B, C = (Var(n, INT) for n in "abc")
X, Y = Var("x", REAL), Var("y", REAL)
ROOT = app("add", Num(3, REAL), app("signed_sqrt", Num(7, REAL)))  # 3 + √7 (Isabelle's sqrt)


def _quadratic_at_root(a, b, c):
    """a·(3 + √7)² + b·(3 + √7) + c = 0"""
    square = app("pow", ROOT, Num(2, NAT))
    return app("eq", app("add", app("add", app("mul", a, square), app("mul", b, ROOT)), c), Num(0, REAL))


def _no_surd_left(t) -> bool:
    return "sqrt" not in str(t)


def test_integer_coefficients_at_3_plus_sqrt7_split_into_two_linear_equations():
    eq = _quadratic_at_root(*(cast(v, REAL) for v in (A, B, C)))
    split = split_surd_equations(eq)
    parts = conjuncts(split)
    assert len(parts) == 2 and _no_surd_left(split)
    # 16a + 3b + c = 0 and 6a + b = 0: the minimal polynomial x² − 6x + 2 and its multiples
    assert truth(split, {"a": 1, "b": -6, "c": 2}) is True
    assert truth(split, {"a": 1, "b": -6, "c": 3}) is False


@settings(max_examples=60, deadline=None)
@given(st.integers(-8, 8), st.integers(-50, 50), st.integers(-50, 50), st.booleans())
def test_split_agrees_with_the_exact_evaluator(a, b, c, on_the_line):
    """At integer points (on the solution line b = −6a, c = 2a or anywhere) the split and
    the original equation — decided exactly through the closed forms — have one truth value."""
    if on_the_line:
        b, c = -6 * a, 2 * a
    eq = _quadratic_at_root(*(cast(v, REAL) for v in (A, B, C)))
    env = {"a": a, "b": b, "c": c}
    original = truth(eq, env)
    assert original is not None
    assert truth(split_surd_equations(eq), env) is original
    assert truth(split_surd_equations(app("not", eq)), env) is (not original)
    ne = app("ne", *eq.args)
    assert truth(split_surd_equations(ne), env) is (not original)


def test_a_real_unknown_is_split_only_where_a_conjunct_says_it_is_rational():
    """x·√2 + y = 3·√2 + 1 has the real solutions y = 1 + (3 − x)·√2: no split without a fact;
    with ↑⌊x⌋ = x and y = ↑n (n :: int) it is x = 3 ∧ y = 1."""
    sqrt2 = app("signed_sqrt", Num(2, REAL))
    eq = app("eq", app("add", app("mul", X, sqrt2), Y), app("add", app("mul", Num(3, REAL), sqrt2), Num(1, REAL)))
    assert split_surd_equations(eq) == eq
    integral_x = app("eq", cast(app("floor", X), REAL), X)
    n = Var("n", INT)
    y_is_n = app("eq", Y, cast(n, REAL))
    rewritten = split_surd_equations(and_(integral_x, y_is_n, eq))
    assert _no_surd_left(rewritten)
    for x, y_value, expected in ((3, 1, True), (2, 1, False), (3, 2, False)):
        assert truth(rewritten, {"x": x, "y": y_value, "n": y_value}) is expected
    # under a hypothesis the conclusion is rewritten too; a binder rebinding x is not
    implication = app("implies", integral_x, app("and", y_is_n, eq))
    assert _no_surd_left(split_surd_equations(implication))
    rebound = app("implies", integral_x, provers.ir.Quant("exists", (X,), app("and", y_is_n, eq)))
    assert "sqrt" in str(split_surd_equations(rebound))


def test_equations_without_surds_or_unknowns_are_left_alone():
    plain = app("eq", app("add", cast(A, REAL), cast(B, REAL)), Num(3, REAL))
    assert split_surd_equations(plain) is plain
    ground = app("eq", app("mul", ROOT, ROOT), Num(16, REAL))
    assert split_surd_equations(ground) is ground
    assert not free_vars(ground)


def test_the_evaluator_certifies_a_closure_at_a_surd():
    """p (3 + √7) = 0 at p = λx. x² − 6x + 2 is exactly true: the sides are read as closed terms
    (the λ applied), which the closed forms decide, where p's value is only approximate."""
    p = Var("p", provers.ir.FunSort((REAL,), REAL))
    body = app("add", app("sub", app("pow", X, Num(2, NAT)), app("mul", Num(6, REAL), X)), Num(2, REAL))
    fact = app("eq", app("apply", p, ROOT), Num(0, REAL))
    assert truth(fact, {"p": Closure((X,), body, {})}) is True
    shifted = app("add", body, Num(Fraction(1, 10**9), REAL))
    assert truth(fact, {"p": Closure((X,), shifted, {})}) is False


def _pin(text: str):
    nf = drop_unused(normalize(provers.parse(text, "isabelle")))
    return pin_answer(nf, Prover(default_backend(), 1.0, Deadline.after(30.0)))


INTEGER_QUADRATIC = '''theorem
fixes p :: "real \\<Rightarrow> real"
assumes h0 : "\\<exists> a b c. a \\<in> \\<int> \\<and> b \\<in> \\<int> \\<and> c \\<in> \\<int> \\<and> (\\<forall> x. p x = a * x\\<^sup>2 + b * x + c)"
and h1 : "p (3 + sqrt 7) = 0"
shows  "p 2 / p 3 = 6 / 7"'''

RATIONAL_QUADRATIC = '''theorem
fixes p :: "real \\<Rightarrow> real"
assumes h0 : "\\<forall> x. p x = a * x\\<^sup>2 + b * x + c"
and h1 : "a \\<in> \\<rat>" and h2 : "b \\<in> \\<rat>" and h3 : "c \\<in> \\<rat>"
and h4 : "p (sqrt 7) = 22"
and h5 : "p (sqrt 11) = 30"
shows  "p (sqrt 17) = 42"'''


def test_integer_quadratic_with_root_3_plus_sqrt7_takes_two_values():
    """MATH intermediate_algebra/problem_589: the zero polynomial is allowed, so p 2 / p 3 is
    0 or 6/7 — two validated models (was: the second never found, a timeout)."""
    pin = _pin(INTEGER_QUADRATIC)
    assert pin.status == "free", pin
    assert {v for _, v in pin.witnesses} == {0, Fraction(6, 7)}


def test_rational_quadratic_through_sqrt7_and_sqrt11_is_pinned_at_42():
    """MATH intermediate_algebra/problem_1487: rational a, b, c with p(√7) = 22 and p(√11) = 30
    give b = 0, a = 2, c = 8, so p(√17) = 42 is proved (was: a spurious irrational model)."""
    pin = _pin(RATIONAL_QUADRATIC)
    assert pin.status == "pinned" and pin.value == 42, pin
    real = RATIONAL_QUADRATIC.replace('and h1 : "a \\<in> \\<rat>" and h2 : "b \\<in> \\<rat>" and h3 : "c \\<in> \\<rat>"\n', "")
    assert _pin(real).status != "pinned"  # real coefficients: p(√17) is not determined


SURDS = [app("signed_sqrt", Num(k, REAL)) for k in (2, 3, 6, 8, 12)] + [app("sqrt", Num(5, REAL))]
ATOMS = [cast(A, REAL), cast(B, REAL)]


def _expressions():
    leaves = st.one_of(st.sampled_from(ATOMS), st.sampled_from(SURDS),
                       st.integers(-4, 4).map(lambda k: Num(k, REAL)))

    def extend(children):
        binary = st.tuples(st.sampled_from(["add", "sub", "mul"]), children, children).map(
            lambda t: app(t[0], t[1], t[2]))
        power = st.tuples(children, st.integers(0, 3)).map(lambda t: app("pow", t[0], Num(t[1], NAT)))
        halved = children.map(lambda c: app("div", c, Num(2, REAL)))
        return st.one_of(binary, power, halved)

    return st.recursive(leaves, extend, max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(_expressions(), _expressions(), st.integers(-3, 3), st.integers(-3, 3))
def test_any_split_equation_has_the_truth_of_the_original_at_integer_points(lhs, rhs, a, b):
    """Random polynomials in two integer unknowns with coefficients in ℚ(√2, √3, √5): wherever
    the split is made, it is true exactly where the original equation is (decided exactly by
    the closed forms), at every integer point tried — and ≠ likewise."""
    eq = app("eq", lhs, rhs)
    split = split_surd_equations(eq)
    if split is eq:
        return
    env = {"a": a, "b": b}
    original = truth(eq, env)
    assert original is not None
    assert truth(split, env) is original
    assert truth(split_surd_equations(app("ne", lhs, rhs)), env) is (not original)


@settings(max_examples=300, deadline=None)
@given(_expressions(), st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3), st.integers(-3, 3))
def test_a_polynomial_equated_to_its_own_value_splits_into_equations_true_there(p, a, b, a2, b2):
    """p(a, b) = p(a₀, b₀) holds at (a₀, b₀): its split does too, and agrees with it at another
    integer point (where a surd coefficient usually makes it false)."""
    value = substitute(p, {A: Num(a, INT), B: Num(b, INT)})
    eq = app("eq", p, value)
    split = split_surd_equations(eq)
    if split is eq:
        return
    assert truth(split, {"a": a, "b": b}) is True
    original = truth(eq, {"a": a2, "b": b2})
    assert original is not None and truth(split, {"a": a2, "b": b2}) is original
