"""Sorts not known yet (``provers.ir.pending``) and Isabelle pre-terms: what both frontends
rely on while they infer sorts, and the guarantee that none of it reaches a Statement."""

from __future__ import annotations

import pytest

import provers
from provers.ir import (
    BOOL,
    INT,
    NAT,
    REAL,
    FunSort,
    IRError,
    ListSort,
    OpaqueSort,
    PendingSorts,
    ProdSort,
    SetSort,
    SortClash,
    SortVar,
    is_ground,
    subterms,
)
from provers.isabelle.finish import _FINISH
from provers.isabelle.preterm import PSEUDO_OPS, PreApp, PreNum, PreVar, free_vars, substitute
from provers.isabelle.types import HolSorts, Prod


def test_unify_solves_through_compound_sorts():
    ps = PendingSorts()
    a, b = ps.fresh(), ps.fresh()
    ps.unify(FunSort((a,), SetSort(b)), FunSort((REAL,), SetSort(a)))
    assert ps.resolve(b) == REAL
    assert ps.resolve(FunSort((a, b), ListSort(a))) == FunSort((REAL, REAL), ListSort(REAL))


def test_unify_refuses_clashes_and_cycles():
    ps = PendingSorts()
    a = ps.fresh()
    with pytest.raises(SortClash):
        ps.unify(SetSort(NAT), ListSort(NAT))
    with pytest.raises(SortClash):
        ps.unify(FunSort((NAT,), NAT), FunSort((NAT, NAT), NAT))
    with pytest.raises(SortClash, match="cyclic"):
        ps.unify(a, SetSort(a))


def test_a_frontend_pair_sort_unifies_without_teaching_the_ir():
    ps = HolSorts()
    a, b = ps.fresh(), ps.fresh()
    ps.unify(Prod(a, NAT), Prod(INT, b))
    assert ps.resolve(Prod(a, b)) == Prod(INT, NAT)
    lowered = ps.finish(Prod(a, b))
    assert lowered == ProdSort("int × nat", (INT, NAT))
    assert isinstance(lowered, OpaqueSort)  # still opaque to everything but the normal form


def test_classes_are_checked_when_a_variable_is_solved():
    ps = HolSorts()
    a = ps.fresh("num", "field")
    with pytest.raises(SortClash, match="nat is not a field"):
        ps.unify(a, NAT)
    b = ps.fresh("integral")
    c = ps.fresh()
    ps.unify(c, b)  # the class goes with the variable it was solved to
    assert ps.finish(c) == INT  # the documented default of an integral type


def test_ground_applies_defaults_once_and_leaves_no_variable():
    ps = PendingSorts()
    a, b = ps.fresh("num"), ps.fresh()
    s = ps.ground(FunSort((a, b), a), lambda v: NAT if "num" in ps.classes[v.id] else OpaqueSort("α"))
    assert s == FunSort((NAT, OpaqueSort("α")), NAT) and is_ground(s)
    assert not is_ground(SetSort(ps.fresh()))
    assert ps.resolve(a) == NAT  # later occurrences agree


def test_preterm_operations_are_checked_when_built():
    x = PreVar("x", SortVar(1))
    PreApp("isa:div", (x, x), SortVar(1))
    PreApp("add", (x, x), SortVar(1))
    with pytest.raises(IRError, match="unknown operation"):
        PreApp("isa:nonsense", (x,), SortVar(1))
    with pytest.raises(IRError, match="takes 2 arguments"):
        PreApp("add", (x,), SortVar(1))
    with pytest.raises(IRError):
        PreNum(True, NAT)


def test_every_pseudo_operation_has_a_meaning_when_sorts_are_known():
    assert set(PSEUDO_OPS) <= set(_FINISH)


def test_preterm_substitution_avoids_capture():
    from provers.isabelle.preterm import PreQuant

    x, y = PreVar("x", REAL), PreVar("y", REAL)
    body = PreQuant("forall", (y,), PreApp("lt", (x, y), BOOL))
    out = substitute(body, {x: y})
    assert isinstance(out, PreQuant) and out.vars[0].name != "y"
    assert free_vars(out) == {y}


@pytest.mark.parametrize("language,text", [
    ("isabelle", 'theorem "∀f::\'a ⇒ \'b. ∃x. f x = f x ∧ (1::nat) + 2 = 3"'),
    ("isabelle", 'lemma fixes x shows "x div 2 = x mod 3 ∧ card {..<n} = n"'),
    ("lean4", "theorem t (f) (n) : f n = n + 1 := sorry"),
    ("lean4", "theorem t (a : k) (v : V) [Field k] [AddCommGroup V] [Module k V] : a • v = 0 → a = 0 ∨ v = 0 := by sorry"),
])
def test_no_pending_sort_reaches_a_statement(language, text):
    st = provers.parse(text, language=language)
    for t in st.terms():
        for s in subterms(t):
            assert is_ground(s.sort), s
    for v in st.variables:
        assert is_ground(v.sort), v
