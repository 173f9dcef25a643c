"""Inverses of the affine functions a statement defines (``semantics.inverses``): ``inv f y``
and ``bij f`` get their one meaning where f is x ↦ c₁·x + c₀ with numerals c₁ ≠ 0 (MATH's
"f⁻¹" problems), in the evaluator and in the obligations the solvers see; any other f leaves
them undecided. The properties check the inverse against f itself for every numeral."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.engine.equivalence import provable
from provers.engine.unfolding import unfold_function_definitions
from provers.ir import REAL, TRUE, FunSort, Num, Quant, Uninterpreted, Var, app, free_vars, subterms
from provers.semantics import Closure, evaluate, truth
from provers.semantics.values import Undetermined
from provers.status import Status

X, Y, K = Var("x", REAL), Var("y", REAL), Var("k", REAL)
F = Var("f", FunSort((REAL,), REAL))
rationals = st.fractions(min_value=-20, max_value=20, max_denominator=7)


def affine(c1: Fraction, c0: Fraction) -> Closure:
    return Closure((X,), app("add", app("mul", Num(c1, REAL), X), Num(c0, REAL)), {})


def inv(f, y):
    return Uninterpreted("inv", (f, y), REAL)


MATH = """theorem
fixes x :: real and f :: "real \\<Rightarrow> real"
assumes h0 : "bij f"
and h1 : "\\<forall> x. f x = (4 * x + 1) / 3"
%s
shows  "%s"
"""


@settings(max_examples=40, deadline=None)
@given(rationals.filter(bool), rationals, rationals)
def test_the_inverse_of_an_affine_function_is_where_it_takes_the_value(c1, c0, y):
    env = {"f": affine(c1, c0), "y": y}
    at = evaluate(inv(F, Y), env)
    assert at == (y - c0) / c1
    assert truth(app("eq", app("apply", F, inv(F, Y)), Y), env) is True
    for prop in ("bij", "inj", "surj"):
        assert truth(Uninterpreted(prop, (F,), provers.ir.BOOL), env) is True


def test_a_function_that_is_not_an_affine_bijection_leaves_inv_undecided():
    square = Closure((X,), app("mul", X, X), {})  # inv f 4 is 2 or -2: SOME does not say
    by_variable = Closure((X,), app("mul", K, X), {"k": 0})  # k may be 0
    constant = Closure((X,), Num(3, REAL), {})
    for f in (square, by_variable, constant):
        assert isinstance(evaluate(inv(F, Num(4, REAL)), {"f": f}), Undetermined)
        assert isinstance(evaluate(Uninterpreted("bij", (F,), provers.ir.BOOL), {"f": f}), Undetermined)


def test_the_unfolded_obligation_has_neither_f_nor_inv():
    definition = Quant("forall", (X,), app("eq", app("apply", F, X),
                                           app("div", app("add", app("mul", Num(4, REAL), X), Num(1, REAL)), Num(3, REAL))))
    premise = app("and", Uninterpreted("bij", (F,), provers.ir.BOOL), definition)
    formula = Quant("forall", (F,), app("implies", premise, app("eq", inv(F, inv(F, Num(1, REAL))), Num(2, REAL))))
    u = unfold_function_definitions(formula)
    assert u is not None and [f.name for f, _, _ in u.functions] == ["f"]
    assert not free_vars(u.formula) and not any(isinstance(s, Uninterpreted) for s in subterms(u.formula))
    assert truth(u.formula, {}) is False  # inv f (inv f 1) = 1/8, not 2
    body = app("implies", TRUE, app("eq", inv(F, inv(F, Num(1, REAL))), Num(Fraction(1, 8), REAL)))
    assert truth(body, {"f": affine(Fraction(4, 3), Fraction(1, 3))}) is True


def test_a_math_inverse_statement_is_proved_and_its_wrong_answer_refuted():
    good = provable(MATH % ('and h2 : "f (inv f 1) = 1"', "inv f (inv f 1) = 1/8"), timeout=1.0, language="isabelle")
    assert good.status == Status.PROVED
    bad = provable(MATH % ('and h2 : "f (inv f 1) = 1"', "inv f (inv f 1) = 2"), timeout=1.0, language="isabelle")
    assert bad.status == Status.REFUTED


def test_the_inverse_under_a_non_affine_definition_is_not_decided():
    text = 'theorem\nfixes f :: "real \\<Rightarrow> real"\nassumes h0 : "\\<forall> x. f x = x * x"\nshows "inv f 4 = 2"'
    assert provable(text, timeout=1.0, language="isabelle").status == Status.UNKNOWN


@settings(max_examples=8, deadline=None)
@given(st.fractions(min_value=-3, max_value=3, max_denominator=4).filter(lambda k: k != Fraction(1, 2)))
def test_a_perturbed_inverse_value_makes_the_candidates_inequivalent(k):
    a = MATH % ("", "inv f 1 = 1/2")
    same = MATH % ('and h2 : "y = inv f 1"', "y = 1/2")
    other = MATH % ('and h2 : "y = inv f 1"', f"y = {k.numerator}/{k.denominator}")
    assert provers.check_equivalence(a, same, relation="symbolic", language="isabelle", timeout=1.0).status == "equivalent"
    v = provers.check_equivalence(a, other, relation="symbolic", language="isabelle", timeout=1.0)
    assert v.status == "inequivalent"
