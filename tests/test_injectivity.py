"""``inj f`` / ``inj_on f A`` (Isabelle) and ``Function.Injective`` / ``Set.InjOn`` /
``Function.Bijective`` (Lean) mean the property written out (∀a b. f a = f b → a = b), so that
a statement saying it by hand is the same statement, and a countermodel may choose f.

Before, Isabelle's ``inj f`` was an uninterpreted symbol: ``intermediate_algebra/problem_706``'s
``assumes "inj f"`` and ``assumes "∀a b. f a = f b ⟶ a = b"`` stayed apart (4 inconclusive pairs).
"""

from __future__ import annotations

import provers
from provers.engine.equivalence import provable

FE = '"\\<forall> x y. f x * f (x + y) = f (2 * x + y) - x * f (x + y) + x"'


def _isa(premise: str, conclusion: str = '"f x = 1 - x"') -> str:
    return f'theorem fixes x :: real and f :: "real \\<Rightarrow> real" assumes h0: {premise} and h1: {FE} shows {conclusion}'


def test_isabelle_inj_is_the_property_written_out():
    by_name = _isa('"inj f"')
    by_hand = _isa('"\\<forall> a b. f a = f b \\<longrightarrow> a = b"')
    v = provers.check_equivalence(by_name, by_hand, relation="sae", language="isabelle", timeout=2)
    assert v.status == "equivalent", v.reason
    other = _isa('"\\<forall> a b. f a = f b \\<longrightarrow> a = b + 1"')
    assert provers.check_equivalence(by_name, other, relation="sae", language="isabelle", timeout=2).status != "equivalent"


def test_inj_on_restricts_to_its_set_and_a_countermodel_chooses_f():
    """``inj_on f {0..1}`` says nothing about f 2 and f 3: refuted with f 2 = f 3 (re-checked
    by the exact evaluator); ``inj f`` proves f 2 ≠ f 3."""
    on = 'theorem fixes f :: "int \\<Rightarrow> int" assumes "inj_on f {0..1}" shows "f 2 \\<noteq> f 3"'
    everywhere = 'theorem fixes f :: "int \\<Rightarrow> int" assumes "inj f" shows "f 2 \\<noteq> f 3"'
    assert provable(everywhere, 2.0, "isabelle").status == "proved"
    assert provable(on, 2.0, "isabelle").status == "refuted"
    inside = 'theorem fixes f :: "int \\<Rightarrow> int" assumes "inj_on f {0..1}" shows "f 0 \\<noteq> f 1"'
    assert provable(inside, 2.0, "isabelle").status == "proved"


def test_isabelle_bij_is_inj_and_surj():
    a = 'theorem fixes f :: "int \\<Rightarrow> int" assumes "bij f" shows "f 1 \\<noteq> f 2"'
    b = 'theorem fixes f :: "int \\<Rightarrow> int" assumes "inj f \\<and> surj f" shows "f 1 \\<noteq> f 2"'
    assert provers.check_equivalence(a, b, relation="sae", language="isabelle", timeout=2).status == "equivalent"
    assert provable(a, 2.0, "isabelle").status == "proved"


def test_lean_bijective_and_inj_on_are_read_like_isabelle():
    def lean(h: str, c: str = "f 2 ≠ f 3", sort: str = "ℝ") -> str:
        return f"theorem X (f : {sort} → {sort}) (h : {h}) : {c} := by sorry"

    bij = lean("Function.Bijective f")
    both = lean("Function.Injective f ∧ Function.Surjective f")
    assert provers.check_equivalence(bij, both, relation="sae", language="lean4", timeout=2).status == "equivalent"
    assert provable(bij, 2.0, "lean4").status == "proved"
    assert provable(lean("Set.InjOn f (Set.Icc 0 1)", sort="ℤ"), 2.0, "lean4").status == "refuted"
    assert provable(lean("Set.InjOn f (Set.Icc 0 1)", "f 0 ≠ f 1"), 2.0, "lean4").status == "proved"
    # the Lean and Isabelle readings of one statement are one formula
    isa = 'theorem fixes f :: "real \\<Rightarrow> real" assumes "inj f" shows "f 2 \\<noteq> f 3"'
    assert provers.check_equivalence(lean("Function.Injective f"), provers.parse(isa, "isabelle"),
                                     relation="sae", language="lean4", timeout=2).status == "equivalent"
