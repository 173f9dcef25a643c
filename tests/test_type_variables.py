"""Type variables of Lean statements: auto-bound ones are type variables (``(x : R) [Ring R]``
binds ``R`` as ``{R : Type*}`` does), and the type variables of two statements correspond by
what they mean, not by the order they are written in (stop 37; at the commit before, each pair
below that is equivalent was declared *inequivalent*)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.ir import REAL, SORT, TYPE, FunSort, OpaqueSort, VarBinder


def _binders(text: str) -> dict[str, object]:
    return {b.var.name: b.var.sort for b in provers.parse(text, "lean4").binders if isinstance(b, VarBinder)}


def _sae(a: str, b: str) -> provers.Verdict:
    return provers.check_equivalence(a, b, relation="sae", language="lean4", timeout=1)


def test_auto_bound_type_with_an_instance_is_a_type_variable():
    sorts = _binders("theorem t (x : R) [Ring R] (hx : IsNilpotent x) : IsUnit (1 + x) := sorry")
    assert sorts["R"] == TYPE and sorts["x"] == OpaqueSort("R")


def test_auto_bound_universe_follows_the_class():
    """``Nonempty`` takes ``Sort u``: Lean leaves the auto-bound variable there."""
    assert _binders("theorem t [Nonempty α] (x : α) : x = x := sorry")["α"] == SORT
    assert _binders("theorem t [TopologicalSpace α] (x : α) : x = x := sorry")["α"] == TYPE


def test_auto_bound_type_used_after_a_term_use_is_a_type():
    sorts = _binders("theorem t [TopologicalSpace α] [LinearOrder α] {f g : β → α} [TopologicalSpace β] "
                     "(hf : Continuous f) : IsClosed {b : β | f b ≤ g b} := sorry")
    assert sorts["f"] == FunSort((OpaqueSort("β"),), OpaqueSort("α"))
    assert sorts["α"] == TYPE and sorts["β"] == TYPE


@pytest.mark.parametrize("a, b", [
    # proofnet exercise_10_1_13 (human label: equivalent): binders reordered, R auto-bound
    ("theorem e {R : Type*} [Ring R] {x : R} (hx : IsNilpotent x) : IsUnit (1 + x) := sorry",
     "theorem e (x : R) [Ring R] (hx : IsNilpotent x) : IsUnit (1 + x) := sorry"),
    # the same type variables declared in the other order
    ("theorem a {G H : Type*} [Group G] [Group H] (f : G →* H) (x : G) : f (x * x) = f x * f x := sorry",
     "theorem b {H G : Type*} [Group H] [Group G] (f : G →* H) (x : G) : f (x * x) = f x * f x := sorry"),
    # auto-bound in order of use (H, then G) against {G H}
    ("theorem a {G H : Type*} [Group G] [Group H] (f : H →* G) (x : H) : f (x * x) = f x * f x := sorry",
     "theorem b (f : H →* G) [Group G] [Group H] (x : H) : f (x * x) = f x * f x := sorry"),
])
def test_statements_differing_only_in_type_variable_order_are_equivalent(a: str, b: str):
    assert _sae(a, b).status.value == "equivalent"
    assert _sae(b, a).status.value == "equivalent"


def test_a_changed_conclusion_is_still_not_equivalent():
    a = "theorem a {G H : Type*} [Group G] [Group H] (f : G →* H) (x : G) : f (x * x) = f x * f x := sorry"
    b = "theorem b {H G : Type*} [Group H] [Group G] (f : G →* H) (x : G) : f (x * x) = f x := sorry"
    assert _sae(a, b).status.value != "equivalent"


def test_universes_still_separate_sort_from_type():
    v = _sae("theorem a {α : Type*} [Nonempty α] (x : α) : x = x := sorry",
             "theorem b [Nonempty α] (x : α) : x = x := sorry")
    assert v.status.value == "inequivalent" and "universes" in v.reason


def test_different_instances_are_structural_under_every_order():
    v = _sae("theorem a {X Y : Type*} [TopologicalSpace X] [TopologicalSpace Y] [LinearOrder Y] [OrderTopology Y] "
             "{f g : X → Y} (hf : Continuous f) : IsClosed {x | f x ≤ g x} := sorry",
             "theorem b [TopologicalSpace α] [LinearOrder α] [OrderClosedTopology α] {f g : β → α} "
             "[TopologicalSpace β] (hf : Continuous f) : IsClosed {b : β | f b ≤ g b} := sorry")
    assert v.status.value == "inequivalent" and v.reason == "instance binders differ"


@settings(max_examples=25, deadline=None)
@given(st.permutations(["A", "B", "C"]), st.permutations(["Group A", "Ring B", "Field C"]))
def test_the_order_of_type_binders_never_changes_a_verdict(order: list[str], instances: list[str]):
    body = "(f : A →* A) (g : B →+* C) (a : A) (b : B) : f (a * a) = f a * f a ∧ g (b * b) = g b * g b := sorry"
    a = f"theorem a {{A B C : Type*}} [Group A] [Ring B] [Field C] {body}"
    b = f"theorem b {{{' '.join(order)} : Type*}} {' '.join(f'[{i}]' for i in instances)} {body}"
    assert _sae(a, b).status.value == "equivalent"
    changed = b.replace("g b * g b := sorry", "g b + g b := sorry")
    assert _sae(a, changed).status.value != "equivalent"


@pytest.mark.parametrize("b", [
    "theorem b : ∀ {X : Type*} [MetricSpace X] (f : X → X), Isometry f → Function.Injective f := sorry",
    "theorem b {X : Type*} (hX : MetricSpace X) (f : X → X) (h : Isometry f) : Function.Injective f := sorry",
])
def test_type_binders_and_classes_in_the_conclusion_or_as_hypotheses(b: str):
    """`∀ {X : Type*} [MetricSpace X], …` states what the theorem binders state (the instance
    binder was dropped and X stayed an object variable: "type variables differ: 1 vs 0"), and a
    class of type variables written as a hypothesis is the same proposition as an instance."""
    a = "theorem a {X : Type*} [MetricSpace X] (f : X → X) (h : Isometry f) : Function.Injective f := sorry"
    assert _sae(a, b).status.value == "equivalent"
    other = b.replace("MetricSpace", "PseudoMetricSpace")
    v = _sae(a, other)
    assert v.status.value == "inequivalent" and v.reason == "instance binders differ"


def test_an_instance_binder_inside_a_quantifier_is_kept():
    s = provers.parse("theorem b : ∀ {X : Type*} [MetricSpace X] (x : X), x = x := sorry", "lean4")
    assert "MetricSpace" in str(s.conclusion)


# ---- notation the normal form erases: funext, Fact ---------------------------------------------


@pytest.mark.parametrize("a, b", [
    # proofnet exercise_5_1 (human label: equivalent): the constant function written two ways
    ("theorem a {f : ℝ → ℝ} (hf : ∀ x y : ℝ, |(f x - f y)| ≤ (x - y) ^ 2) : ∃ c, f = λ x => c := sorry",
     "theorem b (f : ℝ → ℝ) (hf : ∀ x y : ℝ, |f x - f y| ≤ (x - y) ^ 2) : ∃ c : ℝ, ∀ x : ℝ, f x = c := sorry"),
    ("theorem a (f : ℝ → ℝ) (h : f = fun x => 2 * x) : f 1 = 2 := sorry",
     "theorem b (f : ℝ → ℝ) (h : ∀ y, f y = y + y) : f 1 = 2 := sorry"),
    ("theorem a (p : ℕ) [Fact p.Prime] : p > 1 := sorry", "theorem b (p : ℕ) (hp : p.Prime) : p > 1 := sorry"),
])
def test_notation_variants_are_equivalent(a: str, b: str):
    assert _sae(a, b).status.value == "equivalent"


def test_a_lambda_takes_the_function_sort_of_the_other_side():
    s = provers.parse("theorem t (f : ℝ → ℝ) : ∃ c, f = fun x => c := sorry", "lean4")
    assert s.conclusion.vars[0].sort == REAL  # was a sort nothing fixed, and the `=` uninterpreted


def test_funext_and_fact_keep_differences():
    a = "theorem a (f : ℝ → ℝ) : f = fun x => 2 * x := sorry"
    assert _sae(a, "theorem b (f : ℝ → ℝ) : ∀ y, f y = y + y := sorry").status.value == "equivalent"
    assert _sae(a, "theorem b (f : ℝ → ℝ) : ∀ y, f y = y + 1 := sorry").status.value == "inequivalent"
    assert _sae("theorem a (p : ℕ) [Fact p.Prime] : p > 1 := sorry",
                "theorem b (p : ℕ) [Fact (1 < p)] : p > 1 := sorry").status.value != "equivalent"


def test_an_eta_expanded_constant_is_compared_as_a_function_not_pointwise():
    # isabelle_math_400 algebra/problem_1020: `inv_h = inv h` is `inv_h = (λx1'. inv h x1')`
    # after the frontend's eta-expansion; read pointwise it gained a variable, and its pairs
    # with the pointwise candidates became inconclusive where the numbers of variables differ
    from provers.engine.normal import normalize

    base = ('theorem t: fixes x :: real and h inv_h :: "real \\<Rightarrow> real" '
            'assumes "\\<forall>x. h x = 7 * x - 2" and "\\<forall>x. inv_h x = (x + 2) / 7" shows ')
    whole = normalize(provers.parse(base + '"inv_h = inv h"', "isabelle"))
    assert whole.conclusion.op == "eq"  # a function equality: no pointwise variable added
    written = normalize(provers.parse(base + '"inv_h = (\\<lambda>y. (y + 2) / 7)"', "isabelle"))
    assert len(written.variables) == len(whole.variables) + 1  # a λ the statement writes is read pointwise


def test_an_eta_redex_is_recognized_by_its_structure_not_its_binder_names():
    from provers.engine.normal import normalize

    # a primed binder an author writes is an ordinary λ, read pointwise
    written = normalize(provers.parse("theorem t (f : ℝ → ℝ) : f = fun x' => 2 * x' := sorry", "lean4"))
    assert written.conclusion.op == "eq" and len(written.variables) == 2
    # `f = fun x => g x` is the function equality f = g, whatever the binder is called
    eta = normalize(provers.parse("theorem t (f g : ℝ → ℝ) : f = fun x => g x := sorry", "lean4"))
    assert len(eta.variables) == 2


# ---- Isabelle's schematic type variables hold any number of elements ------------------------

UNFIXED = '''theorem
fixes a :: real
assumes h0 : "a = 2"
shows  "card {f, g, h} = 3"'''

COUNTED = '''theorem
fixes a :: real
assumes h0 : "a = 2"
shows  "card {a, a + 1, a + 2} = 3"'''


def test_an_isabelle_schematic_type_is_instantiated_with_enough_elements():
    """f, g, h never fixed have a schematic type ``'t``: the statement claims card {f, g, h} = 3
    at every type and every f, g, h — false where they are equal, true where three distinct
    ones are picked. A countermodel of ``'t`` may use three elements (ℕ is a type), so the
    claim is told apart from a true one (was: no countermodel may invent elements of a type
    'that is not a type variable')."""
    st = provers.parse(UNFIXED, "isabelle")
    sorts = {v.sort for v in st.variables if v.name in ("f", "g", "h")}
    assert len(sorts) == 1 and all(isinstance(s, OpaqueSort) and s.name.startswith("'") for s in sorts)
    v = provers.check_equivalence(UNFIXED, COUNTED, relation="symbolic", timeout=1.0, language="isabelle")
    assert v.status == "inequivalent", v.explain()
    assert provers.check_equivalence(UNFIXED, UNFIXED, relation="symbolic", timeout=1.0,
                                     language="isabelle").status == "equivalent"
