"""Strict and non-strict bounds on a positive ℝ / ℚ quantifier (engine.density): the rewrite
keeps the formula's truth value exactly (checked on the cells its numerals cut ℝ into, and by
both solvers), applies only where the body is monotone in the variable, and lets the engine
prove GTED exercise_4_21a's candidate equal to its reference."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.backends.base import Refuted
from provers.backends.smt import solve
from provers.engine.density import same_up_to_bounds, strict_bounds
from provers.ir import INT, REAL, Quant, Var, and_, app, num, show
from provers.semantics import truth

d = Var("δ", REAL)
ZERO = num(0, REAL)
POSITIVE = app("lt", ZERO, d)

# an atom: (op, δ first?, the numeral it is compared with)
atoms = st.tuples(st.sampled_from(["lt", "le", "gt", "ge"]), st.booleans(),
                  st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(2), Fraction(3)]))


def _atom(op: str, delta_first: bool, c: Fraction):
    return app(op, d, num(c, REAL)) if delta_first else app(op, num(c, REAL), d)


@st.composite
def bodies(draw, depth: int = 2):
    """A formula of bounds on δ joined by ∧, ∨, ¬, →."""
    if depth == 0 or draw(st.booleans()):
        return _atom(*draw(atoms))
    op = draw(st.sampled_from(["and", "or", "not", "implies"]))
    if op == "not":
        return app("not", draw(bodies(depth - 1)))
    return app(op, draw(bodies(depth - 1)), draw(bodies(depth - 1)))


def _cells(body) -> list[Fraction]:
    """One δ > 0 in every cell the numerals cut (0, ∞) into: the body is constant on each."""
    from provers.ir import Num, subterms

    cuts = sorted({Fraction(s.value) for s in subterms(body) if isinstance(s, Num) and s.value > 0})
    points = set(cuts) | {cuts[0] / 2, cuts[-1] + 1}
    points |= {(a + b) / 2 for a, b in zip(cuts, cuts[1:], strict=False)}
    return sorted(points)


def _exactly(formula) -> bool:
    """∃ δ > 0, Ψ or ∀ δ, 0 < δ → Ψ, decided on the cells."""
    q = formula
    values = [truth(q.body, {"δ": x}) for x in _cells(q.body)]
    assert None not in values
    return any(values) if q.kind == "exists" else all(values)


@settings(max_examples=60, deadline=None)
@given(bodies(), st.sampled_from(["exists", "forall"]))
def test_the_rewrite_keeps_the_truth_value(body, kind):
    formula = (Quant("exists", (d,), and_(POSITIVE, body)) if kind == "exists"
               else Quant("forall", (d,), app("implies", POSITIVE, body)))
    rewritten = strict_bounds(formula)
    assert _exactly(rewritten) == _exactly(formula), (show(formula), show(rewritten))
    if rewritten != formula:  # both solvers agree that nothing changed (linear real arithmetic)
        for solver in ("z3", "cvc5"):
            assert not isinstance(solve(solver, app("iff", formula, rewritten), 5.0), Refuted)


def test_a_body_bounding_both_ways_is_left_alone():
    # ∃ δ > 0, δ ≤ 1 ∧ 1 ≤ δ holds (δ = 1); with strict bounds it would not
    both = Quant("exists", (d,), and_(POSITIVE, app("le", d, num(1, REAL)), app("le", num(1, REAL), d)))
    assert strict_bounds(both) == both
    # nor a variable of a sort with no point between two others
    k = Var("k", INT)
    discrete = Quant("exists", (k,), and_(app("lt", num(0, INT), k), app("le", k, num(1, INT))))
    assert strict_bounds(discrete) == discrete
    # nor one that occurs inside a term (δ² is not a bound on δ)
    square = Quant("exists", (d,), and_(POSITIVE, app("le", app("mul", d, d), num(1, REAL))))
    assert strict_bounds(square) == square
    assert not same_up_to_bounds(square, strict_bounds(square).body)


def test_gted_exercise_4_21a_is_proved_equal_to_its_reference():
    ref = ("theorem exercise_4_21a {X : Type*} [MetricSpace X] (K F : Set X) (hK : IsCompact K) "
           "(hF : IsClosed F) (hKF : Disjoint K F) : ∃ (δ : ℝ), δ > 0 ∧ ∀ (p q : X), p ∈ K → q ∈ F → "
           "dist p q ≥ δ := by sorry")
    cand = ("theorem exists_pos_forall_lt_dist_extracted [MetricSpace α] {K F : Set α} : IsCompact K → "
            "IsClosed F → Disjoint K F → ∃ δ > 0, ∀ p ∈ K, ∀ q ∈ F, δ < dist p q := by sorry")
    v = provers.check_equivalence(ref, cand, relation="sae", timeout=1.0)
    assert v.status == "equivalent", v.reason
    assert any("strict" in o.detail for o in v.obligations)
    # δ bounding dist from above instead is another statement
    other = cand.replace("δ < dist p q", "dist p q < δ")
    assert provers.check_equivalence(ref, other, relation="sae", timeout=1.0).status != "equivalent"


def test_a_limit_stated_with_either_bound_is_one_theorem():
    strict = "theorem a (a : ℕ → ℝ) (l : ℝ) : ∀ ε > 0, ∃ N : ℕ, ∀ n ≥ N, |a n - l| < ε := by sorry"
    loose = ("theorem b (a : ℕ → ℝ) (l : ℝ) : ∀ ε : ℝ, 0 < ε → ∃ N : ℕ, ∀ n : ℕ, N ≤ n → "
             "|a n - l| ≤ ε := by sorry")
    v = provers.check_equivalence(strict, loose, relation="logical", timeout=1.0)
    assert v.status == "equivalent", v.reason
