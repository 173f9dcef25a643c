"""The SMT core is a checked fragment of the IR: the lowering only ever produces core terms,
and the core constructor refuses anything outside the fragment."""

from __future__ import annotations

import pytest
from ir_vocab import N, R, Z, n, x
from test_smt_semantics import GROUND, SYMBOLIC

from provers.backends.smt import lower_obligation
from provers.backends.smt.core import CORE_OPS, check_core, cint, core_app, creal
from provers.errors import IRError
from provers.ir import BOOL, INT, NAT, REAL, FunSort, Var, app

OBLIGATIONS = [(name, t) for name, fact, twin in GROUND for t in (fact, twin)] + list(SYMBOLIC)


@pytest.mark.parametrize("fold", [True, False])
@pytest.mark.parametrize("name, obligation", OBLIGATIONS, ids=[o[0] for o in OBLIGATIONS])
def test_every_lowered_obligation_is_a_core_term(name, obligation, fold):
    low = lower_obligation(obligation, fold=fold)
    for t in (low.formula, *low.facts):
        check_core(t)


def test_the_core_covers_the_operations_the_lowering_uses():
    assert {"ediv", "emod", "div", "cast", "floor", "apply", "mem"} <= CORE_OPS
    assert not {"pow", "sqrt", "fdiv", "gt", "ne", "card"} & CORE_OPS


def test_core_applications_outside_the_fragment_are_refused():
    i = Var("i", INT)
    with pytest.raises(IRError, match="not a core operation"):
        core_app("pow", REAL, creal(2), Var("k", INT))
    with pytest.raises(IRError, match="not a core sort"):
        core_app("add", NAT, n, n)  # ℕ is Int in the core
    with pytest.raises(IRError, match="core div"):
        core_app("div", INT, i, cint(2))  # integer division is ediv
    with pytest.raises(IRError, match="function variable"):
        core_app("apply", REAL, app("neg", x), x)
    with pytest.raises(IRError):
        core_app("lt", BOOL, i, creal(1))  # the IR's sort rule still applies
    f = Var("f", FunSort((INT,), REAL))
    assert core_app("apply", REAL, f, i).sort == REAL


def test_check_core_finds_a_non_core_node():
    check_core(core_app("le", BOOL, cint(0), Var("i", INT)))
    with pytest.raises(IRError, match="not a core sort"):
        check_core(app("eq", N(1), N(1)))  # ℕ numerals are Int ones in the core
    with pytest.raises(IRError, match="not a core operation"):
        check_core(app("eq", app("sqrt", R(2)), R(1)))
    with pytest.raises(IRError, match="not a core operation"):
        check_core(app("ne", Z(1), Z(2)))


def test_a_model_value_quoted_in_a_reason_is_brief():
    """z3 prints some model values as pages of nested terms (a sum of 100 if-then-elses in
    MATH counting_and_probability/problem_490): the reason quotes its first characters only."""
    import z3

    from provers.backends.smt.emit import BRIEF_CHARS, Untranslatable, Z3Emitter
    from provers.ir import REAL

    em = Z3Emitter()
    x = z3.Real("x")
    huge = z3.Sum([z3.If(x == i, z3.RealVal(1) / 100, 0) for i in range(100)])
    with pytest.raises(Untranslatable) as err:
        em.value(huge, REAL)
    assert "characters)" in str(err.value) and len(str(err.value)) < BRIEF_CHARS + 80
