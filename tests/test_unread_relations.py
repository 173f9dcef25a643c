"""A relation the Lean frontend could not type is no structural difference.

``mathd_algebra_293`` (x : NNReal) with its equation's sides swapped was ``inequivalent`` to
itself under ``sae``: the tree's sort was taken from its first leaf, so ``36 * x * √(35x)``
(x first) read as an ℝ≥0 product, the equation became an uninterpreted ``Eq`` between two
sorts, and "relation vs atom" counted as a structural failure. Lean's ``binop%`` types a tree
by all its leaves, whatever their order."""

from __future__ import annotations

import provers
from provers.engine.relations import UNKNOWN, _match
from provers.ir import BOOL, REAL, Uninterpreted, Var, app

STATEMENT = ("theorem mathd_algebra_293 (x : NNReal) :\n    Real.sqrt (60 * x) * Real.sqrt (12 * x) * Real.sqrt (63 * x)"
             " = 36 * x * Real.sqrt (35 * x) := by")
SWAPPED = ("theorem mathd_algebra_293 (x : NNReal) :\n    36 * x * Real.sqrt (35 * x)"
           " = Real.sqrt (60 * x) * Real.sqrt (12 * x) * Real.sqrt (63 * x) := by")


def test_swapped_sides_of_an_equation_are_the_same_statement():
    for relation in ("sae", "symbolic"):
        v = provers.check_equivalence(STATEMENT, SWAPPED, relation=relation, language="lean4", timeout=1.0)
        assert v.status == "equivalent", (relation, v.reason)


def test_an_opaque_leaf_never_decides_the_sort_of_a_tree():
    for text in ("theorem t (x : NNReal) (y : ℝ) : x + y = 2 := by", "theorem t (x : NNReal) (y : ℝ) : y + x = 2 := by",
                 "theorem t (x : NNReal) : 36 * x = Real.sqrt (35 * x) := by"):
        c = provers.parse(text, "lean4").conclusion
        assert c.op == "eq" and c.args[0].sort == REAL == c.args[1].sort, (text, c)


def test_an_untyped_relation_against_a_relation_is_undecided_not_structural():
    a, b = Var("a", REAL), Var("b", REAL)
    typed, untyped = app("eq", a, b), Uninterpreted("Eq", (a, b), BOOL)

    def prove(*args, **kwargs):
        raise AssertionError("no obligation is asked")

    out = _match(typed, untyped, prove, (a, b), False, "C")
    assert out.status == UNKNOWN and not out.ruled_out, out
    # a genuine atom (a predicate variable applied) is still a different structure from a relation
    p = Uninterpreted("P", (a,), BOOL)
    assert _match(typed, p, prove, (a, b), False, "C").ruled_out


def test_an_untyped_equation_reads_the_same_either_way_round():
    """``(⋂ i, (u i).carrier) = ↑U`` (ProofNet ``exercise_1_8``) is kept uninterpreted, its
    sides' sorts unmodelled; with its sides swapped it is the same formula (Eq is symmetric),
    and ``a > b`` is ``b < a`` (``GT.gt``)."""
    text = ("theorem exercise_1_8 {F V : Type*} [AddCommGroup V] [Field F] [Module F V] {ι : Type*} "
            "(u : ι → Submodule F V) : ∃ U : Submodule F V, (⋂ (i : ι), (u i).carrier) = ↑U := by")
    swapped = text.replace("(⋂ (i : ι), (u i).carrier) = ↑U", "↑U = (⋂ (i : ι), (u i).carrier)")
    for relation in ("sae", "symbolic"):
        assert provers.check_equivalence(text, swapped, relation=relation, language="lean4",
                                         timeout=1.0).status == "equivalent"
    group = "theorem t {G : Type*} [Group G] (a b : G) (h : a * b = b * a) : a * b * a = a * a * b := by"
    other = group.replace("a * b * a = a * a * b", "a * a * b = a * b * a")
    assert provers.check_equivalence(group, other, relation="sae", language="lean4", timeout=1.0).status == "equivalent"
    # a different equation is still told apart
    wrong = group.replace("a * b * a = a * a * b", "a * b * b = a * a * b")
    assert provers.check_equivalence(group, wrong, relation="sae", language="lean4", timeout=1.0).status != "equivalent"


def test_an_untyped_disequation_is_the_negated_equation():
    """``a ≠ b`` on a group is ``¬(a = b)`` (``Ne``), whichever way round."""
    a = "theorem t {G : Type*} [Group G] (a b : G) (h : a * b ≠ b * a) : a ≠ 1 := by"
    b = "theorem t {G : Type*} [Group G] (a b : G) (h : ¬ (b * a = a * b)) : ¬ (1 = a) := by"
    for relation in ("sae", "symbolic"):
        assert provers.check_equivalence(a, b, relation=relation, language="lean4", timeout=1.0).status == "equivalent"
    c = "theorem t {G : Type*} [Group G] (a b : G) (h : a * b ≠ b * a) : a = 1 := by"
    assert provers.check_equivalence(a, c, relation="sae", language="lean4", timeout=1.0).status != "equivalent"


def test_a_conclusion_bound_variable_is_no_structural_difference_under_symbolic():
    """``¬ 7 ∣ 2ⁿ + 1`` against ``¬∃c, 2ⁿ + 1 = 7c``: the ∃ read as a ∀ of the statement gave
    1 variable against 2, "inequivalent" by structure, though ∣ is defined so (``Dvd``).
    With the surplus variable bound in its conclusion again they align: proved; with 5 for 7
    refuted at a point (n = 2: 5 = 5 · 1)."""
    a = "theorem t (n : ℕ) : ¬7 ∣ 2 ^ n + 1 := by"
    b = "theorem t (n : ℕ) : ¬(∃ c, (2 ^ n + 1) = 7 * c) := by"
    v = provers.check_equivalence(a, b, relation="symbolic", language="lean4", timeout=1.0)
    assert v.status == "equivalent", v.reason
    wrong = b.replace("7 * c", "5 * c")
    v = provers.check_equivalence(a, wrong, relation="symbolic", language="lean4", timeout=1.0)
    assert v.status == "inequivalent" and v.countermodel is not None, v.reason
    n = v.countermodel["A"]["n"]
    assert (2 ** n + 1) % 7 != 0 and (2 ** n + 1) % 5 == 0


def test_a_square_in_a_monoid_is_a_product():
    """``g ^ 2`` in a group is ``g * g`` (``pow_two``, every monoid); ``g ^ 3`` is not."""
    a = "theorem t {G : Type*} [Group G] (g : G) (h : g ^ 2 = 1) : g = g⁻¹ := by"
    b = "theorem t {G : Type*} [Group G] (g : G) (h : g * g = 1) : g = g⁻¹ := by"
    c = "theorem t {G : Type*} [Group G] (g : G) (h : g ^ 3 = 1) : g = g⁻¹ := by"
    for relation in ("sae", "symbolic"):
        assert provers.check_equivalence(a, b, relation=relation, language="lean4", timeout=1.0).status == "equivalent"
        assert provers.check_equivalence(a, c, relation=relation, language="lean4", timeout=1.0).status != "equivalent"
