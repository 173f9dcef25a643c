"""A list of numbers read only through ``sum_list`` and ``length`` reaches the solvers as two
numbers with ``ℓ = 0 → s = 0`` (``lower.summarized_lists``): MATH's "her next three quiz
scores" (``prealgebra/problem_1405``), which no solver could take as a list. Differential-tested
against brute force over small lists; a countermodel comes back as a list the evaluator checks."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.backends.base import Proved, Refuted
from provers.backends.smt import lower_obligation, solve
from provers.ir import INT, NAT, ListSort, Num, Uninterpreted, Var, app, forall_, implies
from provers.semantics import evaluate

XS = Var("xs", ListSort(INT))


def _claim(length: int, total: int):
    """``∀xs. length xs = ℓ → sum_list xs ≠ s`` over ℤ lists."""
    return forall_([XS], implies(app("eq", app("list_length", XS), Num(length, NAT)),
                                 app("ne", app("list_sum", XS), Num(total, INT))))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 3), st.integers(-3, 3))
def test_sum_and_length_pairs_are_exactly_the_achievable_ones(length: int, total: int):
    """The claim holds iff no ℤ list of length ℓ with entries in −3..3 sums to s (brute force:
    enough here, as any s is reached by one list once ℓ ≥ 1); a refutation's model is a list
    of that length and sum."""
    reachable = any(sum(xs) == total for xs in itertools.product(range(-3, 4), repeat=length))
    r = solve("z3", _claim(length, total), 2.0)
    if reachable:
        assert isinstance(r, Refuted), r
        xs = r.model["xs"]
        assert len(xs) == length and sum(xs) == total
    else:
        assert isinstance(r, Proved), r


def test_a_list_read_another_way_is_left_alone():
    """``hd xs`` reads an element: the list stays a list (unsupported by the solvers)."""
    head = forall_([XS], app("ge", Uninterpreted("hd", (XS,), INT), app("list_sum", XS)))
    try:
        lowered = lower_obligation(head)
    except Exception as e:  # noqa: BLE001 - the lowering refuses a list variable
        assert "List" in str(e)
    else:
        assert not lowered.summarized


def test_a_list_name_bound_again_inside_is_left_alone():
    """``sum_list xs`` under an inner ``∀xs`` is the inner list's: no summary of the outer one
    (it would capture the inner occurrence)."""
    inner = forall_([XS], app("ge", app("list_sum", XS), Num(0, INT)))
    claim = forall_([XS], implies(app("eq", app("list_length", XS), Num(1, NAT)), inner))
    try:
        lowered = lower_obligation(claim)
    except Exception as e:  # noqa: BLE001 - the lowering refuses the list variable
        assert "List" in str(e) or "rebinds" in str(e)
    else:
        assert not lowered.summarized


def test_both_solvers_read_the_summary():
    for solver in ("z3", "cvc5"):
        r = solve(solver, _claim(2, 5), 2.0)
        assert isinstance(r, Refuted) and len(r.model["xs"]) == 2 and sum(r.model["xs"]) == 5, (solver, r)


SCORES = '''theorem
fixes alula_scores :: "nat list"
and next_scores :: "nat list"
assumes h0 : "alula_scores = [17, 10, 9, 14, 16, 8, 10]"
and h1 : "length next_scores = 3"
and h2 : "sum_list (alula_scores @ next_scores) / length (alula_scores @ next_scores) = 14"
shows  "sum_list next_scores = 56"'''


def test_the_quiz_scores_candidate_is_decided():
    """Its answer is pinned at 56, as the one written with a real x: equivalent; the same with
    57 stated is refuted (undecided before: the list variable had no solver sort)."""
    real = '''theorem
fixes sum :: real
assumes h0 : "sum = 17 + 10 + 9 + 14 + 16 + 8 + 10"
and h1 : "((sum + x) / 10) = 14"
shows  "x = 56"'''
    v = provers.check_equivalence(SCORES, real, relation="symbolic", language="isabelle", timeout=1)
    assert v.status.value == "equivalent", v.reason
    w = provers.check_equivalence(SCORES, SCORES.replace("= 56", "= 57"), relation="symbolic",
                                  language="isabelle", timeout=1)
    assert w.status.value == "inequivalent", w.reason


def test_append_is_evaluated():
    """``xs @ ys`` is the concatenation (the model's list is checked on the statement as written)."""
    both = Uninterpreted("append", (XS, Var("ys", ListSort(INT))), ListSort(INT))
    assert evaluate(app("list_sum", both), {"xs": (1, 2), "ys": (5,)}) == 8
    assert evaluate(app("list_length", both), {"xs": (1, 2), "ys": ()}) == 2
