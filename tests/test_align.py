"""Alignments: admissible bijections, ranked by cost, enumerated exhaustively or cut by budget."""

import itertools
import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from provers.engine.align import alignments, drop_unused, murty
from provers.engine.normal import normalize
from provers.ir import INT, NAT, REAL, Hypothesis, Statement, Var, VarBinder, app, num


def nf(vs, hyps, concl):
    return normalize(Statement(tuple(VarBinder(v) for v in vs) + tuple(Hypothesis(None, h) for h in hyps), concl))


def test_best_alignment_follows_roles_not_only_names():
    x, y = Var("x", REAL), Var("y", REAL)
    a, b = Var("a", REAL), Var("b", REAL)
    A = nf([x, y], [app("eq", y, app("mul", num(2, REAL), x))], app("lt", x, num(1, REAL)))
    B = nf([b, a], [app("eq", b, app("mul", num(2, REAL), a))], app("lt", a, num(1, REAL)))
    al = alignments(A, B)
    assert al.exhaustive and al.total == 2
    assert dict(al.items[0].names()) == {"x": "a", "y": "b"}
    assert al.items[0].cost <= al.items[1].cost


def test_sorts_are_preserved_and_mismatches_are_structural():
    x, n = Var("x", REAL), Var("n", NAT)
    A = nf([x, n], [], app("lt", x, x))
    B = nf([Var("y", REAL), Var("m", INT)], [], app("lt", Var("y", REAL), Var("y", REAL)))
    al = alignments(A, B)
    assert not al.items and "sorts differ" in al.failure
    C = nf([Var("y", REAL)], [], app("lt", Var("y", REAL), Var("y", REAL)))
    assert "numbers of variables" in alignments(A, C).failure
    for it in alignments(A, nf([Var("m", NAT), Var("y", REAL)], [], A.conclusion)).items:
        assert all(p.sort == q.sort for p, q in it.pairs)


def test_budget_cuts_enumeration_and_says_so():
    vs = [Var(f"x{i}", REAL) for i in range(5)]
    ws = [Var(f"y{i}", REAL) for i in range(5)]
    concl = app("lt", vs[0], vs[1])
    A = nf(vs, [], concl)
    B = nf(ws, [], app("lt", ws[0], ws[1]))
    cut = alignments(A, B, budget=10)
    assert len(cut.items) == 10 and not cut.exhaustive and cut.total == 120
    full = alignments(A, B, budget=200)
    assert full.exhaustive and len(full.items) == 120
    assert len({it.pairs for it in full.items}) == 120


def test_unused_variables_can_be_dropped():
    x, z = Var("x", REAL), Var("z", REAL)
    A = nf([x, z], [], app("lt", x, num(1, REAL)))
    assert drop_unused(A).variables == (x,)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 5), st.integers(0, 10**6))
def test_murty_enumerates_assignments_in_cost_order(n, seed):
    rng = np.random.default_rng(seed)
    cost = rng.integers(0, 10, size=(n, n)).astype(float)
    got = murty(cost, math.factorial(n) + 3)
    assert len(got) == math.factorial(n)
    assert len({p for _, p in got}) == len(got)
    totals = [c for c, _ in got]
    assert totals == sorted(totals)
    brute = sorted(sum(cost[i, p[i]] for i in range(n)) for p in itertools.permutations(range(n)))
    assert np.allclose(totals, brute)


def test_dependent_sorts_are_renamed_with_their_variables():
    """A sort naming a variable (``x : EuclideanSpace ℝ (Fin n)``, ``φ : G ≃* G``) is renamed
    with it: ProofNet's statements respelled with ``n`` as ``n_r`` were "inequivalent" for
    their sorts (``experiments/respell.py``, stop 59)."""
    import provers

    def same(a: str, b: str) -> str:
        return provers.check_equivalence(a, b, relation="sae", language="lean4", timeout=1.0).status

    a = "theorem t (n : ℕ) (x y : EuclideanSpace ℝ (Fin n)) : ‖x + y‖ ≤ ‖x‖ + ‖y‖ := sorry"
    assert same(a, a.replace("(n : ℕ)", "(m : ℕ)").replace("Fin n", "Fin m")) == "equivalent"
    g = "theorem t {G : Type*} [Group G] (φ : G ≃* G) (x : G) : φ (x * x) = φ x * φ x := sorry"
    assert same(g, g.replace("G", "H").replace("Hroup", "Group")) == "equivalent"
    # the variable a sort names must be the one aligned: x : Fin m is no x : Fin n
    fin_n = "theorem t (n m : ℕ) (x : Fin n) : (x : ℕ) < n := sorry"
    fin_m = "theorem t (n m : ℕ) (x : Fin m) : (x : ℕ) < n := sorry"
    assert same(fin_n, fin_m) != "equivalent"
    assert same(fin_n, "theorem t (m n : ℕ) (x : Fin m) : (x : ℕ) < m := sorry") == "equivalent"


def test_instance_binders_naming_object_variables_follow_the_alignment():
    """``[CharP F p]`` names the variable p: renamed with it (ProofNet ``exercise_5_6_14``
    respelled was "inequivalent": instance binders differ), and held to the alignment."""
    import provers

    def status(a: str, b: str) -> str:
        return provers.check_equivalence(a, b, relation="sae", language="lean4", timeout=1.0).status

    a = "theorem t {p m : ℕ} (hp : Nat.Prime p) {F : Type*} [Field F] [CharP F p] (hm : m = p ^ 2) : m ≠ 0 := sorry"
    q = "theorem t {q m : ℕ} (hp : Nat.Prime q) {F : Type*} [Field F] [CharP F q] (hm : m = q ^ 2) : m ≠ 0 := sorry"
    assert status(a, q) == "equivalent"
    other = a.replace("[CharP F p]", "[CharP F m]")
    assert status(a, other) != "equivalent"
    fin = "theorem t (m : ℕ) {X : Type*} [NormedSpace ℝ ((Fin m) → ℝ)] : m = m := sorry"
    assert status(fin, fin.replace("(m : ℕ)", "(k : ℕ)").replace("Fin m", "Fin k").replace("m = m", "k = k")) == "equivalent"


def test_sorts_of_terms_naming_a_variable_are_renamed_with_it():
    """``(k : ZMod p)`` and the numeral ``2 : ZMod p`` name p though no variable's sort does
    (miniF2F ``mathd_numbertheory_764`` with p renamed was inconclusive against itself)."""
    import provers

    a = ("theorem t (p : ℕ) (h₀ : Nat.Prime p) (h₁ : 7 ≤ p) : "
         "(∑ k in Finset.Icc 1 (p - 2), (k : ZMod p)⁻¹ * ((k : ZMod p) + 1)⁻¹) = 2 := by sorry")
    b = a.replace("(p : ℕ)", "(q : ℕ)").replace("Prime p", "Prime q").replace("≤ p", "≤ q") \
        .replace("(p - 2)", "(q - 2)").replace("ZMod p", "ZMod q")
    assert provers.check_equivalence(a, b, relation="sae", language="lean4", timeout=1.0).status == "equivalent"
