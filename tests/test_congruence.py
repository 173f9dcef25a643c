"""Equal by congruence (``engine/congruence.py``): two terms that differ at a few positions
are proved equal by proving the differing subterms equal, where the solver alone sees unrelated
set-builders. Differential-tested against the exact evaluator."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.deadline import Deadline
from provers.engine.congruence import MAX_DIFFERENCES, differences
from provers.engine.prover import Prover, default_backend
from provers.ir import BOOL, NAT, REAL, FunSort, SetBuilder, Var, and_, app, forall_, num
from provers.semantics.evaluate import evaluate
from provers.status import Status

X, C = Var("x", REAL), Var("c", REAL)


def _card(body) -> object:
    return app("card", SetBuilder(C, body))


def test_the_differing_predicates_of_two_set_builders_are_one_pair_with_the_bound_variable():
    left = app("eq", _card(app("eq", app("mul", C, C), X)), num(2, NAT))
    right = app("eq", _card(app("eq", app("mul", C, C), app("add", X, num(0, REAL)))), num(2, NAT))
    (d,) = differences(left, right)
    assert len(d.bound) == 1 and d.bound[0].sort == REAL  # the set-builder's variable
    assert d.left.op == "eq" and d.claim().op == "iff"  # the two predicates, not x and x + 0


def test_a_difference_with_no_proposition_above_it_stays_where_it_is():
    f = Var("f", FunSort((REAL,), REAL))
    left = app("eq", app("apply", f, app("add", X, num(1, REAL))), num(3, REAL))
    right = app("eq", app("apply", f, app("add", num(1, REAL), app("mul", X, num(1, REAL)))), num(3, REAL))
    (d,) = differences(left, right)
    assert d.left == X and d.claim().op == "eq"  # x = x·1: what makes the two arguments equal


def test_no_congruence_when_the_roots_differ_or_there_are_too_many_pairs():
    assert differences(app("lt", X, num(1, REAL)), app("le", X, num(1, REAL))) is None
    assert differences(app("add", X, num(1, REAL)), app("sub", X, num(1, REAL))) is None
    many_l = and_(*[app("eq", X, num(i, REAL)) for i in range(MAX_DIFFERENCES + 1)])
    many_r = and_(*[app("eq", X, num(i + 10, REAL)) for i in range(MAX_DIFFERENCES + 1)])
    assert differences(many_l, many_r) is None


def test_equal_up_to_bound_names_and_conjunct_order_leaves_only_the_real_difference():
    d_var = Var("d", REAL)
    left = and_(app("lt", X, num(1, REAL)),
                app("eq", app("card", SetBuilder(C, app("lt", C, X))), num(3, NAT)),
                app("gt", X, num(0, REAL)))
    right = and_(app("gt", X, num(0, REAL)),
                 app("eq", app("card", SetBuilder(d_var, app("lt", d_var, app("mul", X, num(1, REAL))))),
                     num(3, NAT)),
                 app("lt", X, num(1, REAL)))
    (d,) = differences(left, right)
    assert d.left.op == "lt" and d.right.op == "lt" and len(d.bound) == 1  # c < x against c < x·1
    assert differences(left, left) == []


def _prove(formula) -> object:
    return Prover(default_backend(), 1.0, Deadline.after(60))("test", formula)


def test_the_card_of_two_spellings_of_one_complex_norm_is_proved_equal():
    """MATH intermediate_algebra/problem_1069: ``|3 - c·i| = 7`` written two ways, inside the
    set whose card is the answer; the solver alone answered with a spurious model."""
    a = """theorem
fixes c :: real
assumes h0 : "norm (3 - complex_of_real c * \\<i>) = 7"
shows  "card {c. norm (3 - complex_of_real c * \\<i>) = 7} = 2"
"""
    b = """theorem
fixes c :: real
assumes h0 : "norm (Complex 3 (-c)) = 7"
shows  "card {c. norm (Complex 3 (-c)) = 7} = 2"
"""
    v = provers.check_equivalence(a, b, relation="symbolic", language="isabelle", timeout=1.0)
    assert v.status == "equivalent", v.reason
    assert any("congruence" in o.detail for o in v.obligations)


def test_a_pair_that_is_not_equal_everywhere_does_not_prove_the_whole():
    """``card {c | c < x}`` against ``card {c | c ≤ x}`` over ℝ: both sets are infinite (card 0)
    so the two terms are equal, but the differing predicates are not: congruence proves
    nothing (the obligation is left to the other routes, never proved by a false pair)."""
    left = forall_([X], app("eq", app("card", SetBuilder(C, app("lt", C, X))),
                            app("card", SetBuilder(C, app("le", C, X)))))
    ob = Prover(default_backend(), 1.0, Deadline.after(60))("test", left)
    assert "congruence" not in ob.detail


def _poly(a: int, b: int, c: int):
    """``a·c + b·x + c·c·x`` over ℝ (c the bound variable)."""
    return app("add", app("add", app("mul", num(a, REAL), C), app("mul", num(b, REAL), X)),
               app("mul", num(c, REAL), app("mul", C, X)))


def _count(poly) -> object:
    """``card {c : ℝ | poly c x = 0}`` (0 where the set is infinite, as Isabelle's card)."""
    return app("card", SetBuilder(C, app("eq", poly, num(0, REAL))))


@settings(max_examples=20, deadline=None)
@given(st.integers(-2, 2), st.integers(-2, 2), st.integers(-2, 2),
       st.integers(-2, 2), st.integers(-2, 2), st.integers(-2, 2), st.integers(1, 3), st.booleans())
def test_a_congruence_proof_agrees_with_the_exact_evaluator(a, b, c, d, e, f, scale, same):
    """Two counts of the real roots of ``a·c + b·x + e·c·x = 0``, the second sometimes a
    multiple of the first: equal by congruence (the solver alone sees two unrelated sets and
    a spurious model). Whatever the prover proves holds at every sampled x under the exact
    evaluator."""
    left = _count(_poly(a, b, c))
    right = _count(_poly(a * scale, b * scale, c * scale) if same else _poly(d, e, f))
    ob = _prove(forall_([X], app("eq", left, right)))
    if same:
        assert ob.status == Status.PROVED, ob.detail
    if ob.status == Status.PROVED:
        for x in (-2, -1, Fraction(-1, 2), 0, Fraction(1, 3), 1, 2):
            env = {"x": x}
            assert evaluate(left, env) == evaluate(right, env), (x, ob.detail)
    assert ob.formula.sort == BOOL
