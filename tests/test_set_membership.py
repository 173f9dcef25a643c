"""Membership in a set-builder is its predicate (``Set.mem_setOf_eq``, ``mem_Collect_eq``):
the normal form writes ``t ∈ {y | P y}`` as ``P t``, so ``x ∈ {1..}`` and ``1 ≤ x`` are one
term and a set whose body holds such a membership is read by its comparisons (its cells)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.engine.normal import normalize, simplify_logic
from provers.ir import INT, REAL, SetBuilder, Var, and_, app, canon_key, num
from provers.semantics.evaluate import truth

CARD = '''theorem
fixes n :: nat
assumes h0 : "n > 0"
shows "card {x::real. %s} = n"'''


def _check(a: str, b: str) -> provers.Verdict:
    return provers.check_equivalence(CARD % a, CARD % b, relation="symbolic", language="isabelle", timeout=1.0)


def test_membership_in_an_unbounded_interval_is_its_bound():
    a = provers.parse('theorem\nfixes x :: int\nassumes h0 : "x \\<in> {1..}"\nshows "x * x \\<ge> 1"', "isabelle")
    b = provers.parse('theorem\nfixes x :: int\nassumes h0 : "1 \\<le> x"\nshows "x * x \\<ge> 1"', "isabelle")
    assert [canon_key(p) for p in normalize(a).premises] == [canon_key(p) for p in normalize(b).premises]


def test_a_real_set_written_with_an_interval_is_counted_by_its_cells():
    """`{x::real. x ∈ {1..} ∧ (x + 2)² < 20}` is an interval: card 0, as for `0 < x` (MATH
    algebra/problem_405: the evaluator could not count it and the pair was inconclusive)."""
    v = _check("x \\<in> {1..} \\<and> x^2 + 4 * x + 4 < 20", "x > 0 \\<and> x^2 + 4 * x + 4 < 20")
    assert str(v.status) == "equivalent", v.reason


def test_a_finite_real_set_written_with_an_interval_refutes_an_infinite_one():
    """`{x::real. x ∈ {1..} ∧ x² ≤ 1}` is {1} (card 1), the other an interval (card 0)."""
    v = _check("x \\<in> {1..} \\<and> x^2 + 4 * x + 4 < 20", "x \\<in> {1..} \\<and> x^2 \\<le> 1")
    assert str(v.status) == "inequivalent", v.reason
    assert v.countermodel


OPS = ("lt", "le", "eq", "ne", "gt", "ge")


@settings(max_examples=60, deadline=None)
@given(op=st.sampled_from(OPS), c=st.integers(-5, 5), d=st.integers(-5, 5), x=st.integers(-8, 8),
       real=st.booleans())
def test_the_rewrite_agrees_with_the_evaluator(op, c, d, x, real):
    """Differential: `t ∈ {y | y ⋈ c ∧ y ≠ d}` and its rewrite have the same exact value at
    every point, `t` a compound term of the free variable."""
    sort = REAL if real else INT
    y, v = Var("y", sort), Var("v", sort)
    member = app("add", v, num(1, sort))
    term = app("mem", member, SetBuilder(y, and_(app(op, y, num(c, sort)), app("ne", y, num(d, sort)))))
    rewritten = simplify_logic(term)
    assert "mem" not in repr(rewritten)
    env = {"v": Fraction(x) if real else x}
    assert truth(rewritten, env) == truth(term, env) is not None


LEAST = "theorem t : IsLeast {t : ℕ | %s < t ∧ (Nat.lcm 12 t)^3 = (12 * t)^2} 18 := by sorry"


def test_sae_keeps_a_conclusion_membership_as_one_leaf():
    """FormalAlign `mathd_numbertheory_629` and its mutant `7 < t`: the two sets are equal (no t
    in 1..7 meets the equation), so the leaves `18 ∈ S` and `18 ∈ S'` match. Unfolding the
    membership at the conclusion's top made the leaves `0 < 18` and `7 < 18`, refuted as
    `0 = 7`: a wrong `inequivalent` (the held-out mutants caught it)."""
    same = provers.check_equivalence(LEAST % "0", LEAST % "7", relation="sae", language="lean4", timeout=1.0)
    assert str(same.status) == "equivalent", same.reason
    other = provers.check_equivalence(LEAST % "0", LEAST % "20", relation="sae", language="lean4", timeout=1.0)
    assert str(other.status) == "inequivalent", other.reason


def test_sae_keeps_a_membership_under_a_peeled_forall_as_one_leaf():
    """A conclusion's ∀ is peeled into the prefix, so its body's leaves are ``sae``'s leaves:
    `x ∈ {y | 1 ≤ y ≤ 9}` and `x ∈ {y | 0 < y < 10}` over ℕ are one leaf each, equal sets.
    Unfolded under the ∀ they were `x ≥ 1` against `0 < x`, which no orientation matches."""
    a = "theorem t : ∀ x : ℕ, x ∈ {y : ℕ | y ≥ 1 ∧ y ≤ 9} := by sorry"
    b = "theorem t : ∀ x : ℕ, x ∈ {y : ℕ | 0 < y ∧ y < 10} := by sorry"
    v = provers.check_equivalence(a, b, relation="sae", language="lean4", timeout=1.0)
    assert str(v.status) == "equivalent", v.reason
