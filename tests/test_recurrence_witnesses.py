"""A recurrence with an irrational initial value (``a 2 = 1 / √3``) is computed exactly: its
elements are closed terms, kept compact in ℚ(√m) (``surds.form_term``), and compared with
other values by their certified sign. Before, the initial value was dropped (only rationals
were read), so the sequence tried met neither side and FormalAlign's ``amc12a_2009_p25``
mutants (``a 2 = 1 / √6``, ``a 8 = 1`` …) stayed inconclusive."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.ir import NAT, REAL, FunSort, Num, Var, app, app_sorted
from provers.semantics import evaluate
from provers.semantics.values import Sequence, Witness

A = Var("a", FunSort((NAT,), REAL))

REFERENCE = """theorem amc12a_2009_p25
  (a : ℕ → ℝ)
  (h₀ : a 1 = 1)
  (h₁ : a 2 = 1 / Real.sqrt 3)
  (h₂ : ∀ n, 1 ≤ n → a (n + 2) = (a n + a (n + 1)) / (1 - a n * a (n + 1))) :
  abs (a 2009) = 0 :="""


def test_mutated_initial_values_of_a_tangent_recurrence_are_refuted():
    for old, new in (("a 2 = 1 / Real.sqrt 3", "a 2 = 1 / Real.sqrt 6"), ("a 1 = 1)", "a 8 = 1)"),
                     ("a 2 = 1 / Real.sqrt 3", "a 3 = 1 / Real.sqrt 3")):
        mutant = REFERENCE.replace(old, new)
        v = provers.check_equivalence(REFERENCE, mutant, relation="sae", language="lean4", timeout=1.0)
        assert v.status == "inequivalent", (new, v.reason)
        assert v.countermodel is not None


def _sequence(a1: int, c: int, k: int) -> Sequence:
    """a 1 = a1, a 2 = c + √k, a (n + 2) = a n + 2 · a (n + 1), as the evaluator's value."""
    n = Var("n_idx", NAT)
    at = lambda i: app_sorted("apply", REAL, A, i)  # noqa: E731
    rule = app("add", at(app("sub", n, Num(2, NAT))), app("mul", Num(2, REAL), at(app("sub", n, Num(1, NAT)))))
    a2 = Witness(app("add", Num(c, REAL), app("sqrt", Num(k, REAL))))
    return Sequence("a", n, 3, rule, {0: 0, 1: a1, 2: a2}, Num(0, NAT), {})


@settings(max_examples=25, deadline=None)
@given(st.integers(-5, 5), st.integers(-5, 5), st.sampled_from([2, 3, 5, 6, 7]), st.integers(3, 12))
def test_elements_are_exact_and_agree_with_floating_point(a1, c, k, m):
    seq = _sequence(a1, c, k)
    floats = [0.0, float(a1), c + math.sqrt(k)]
    for _ in range(3, m + 1):
        floats.append(floats[-2] + 2 * floats[-1])
    value = evaluate(app_sorted("apply", REAL, A, Num(m, NAT)), {"a": seq})
    approx = float(evaluate(value.term, {}).value) if isinstance(value, Witness) else float(value)
    assert math.isclose(approx, floats[m], rel_tol=1e-9, abs_tol=1e-9)
    # the recurrence holds exactly between consecutive elements, and a perturbed value does not
    at = lambda i: app_sorted("apply", REAL, A, Num(i, NAT))  # noqa: E731
    holds = app("eq", at(m), app("add", at(m - 2), app("mul", Num(2, REAL), at(m - 1))))
    assert evaluate(holds, {"a": seq}) is True
    off = app("eq", at(m), app("add", at(m - 2), app("mul", Num(Fraction(201, 100), REAL), at(m - 1))))
    assert evaluate(off, {"a": seq}) is (floats[m - 1] == 0)
