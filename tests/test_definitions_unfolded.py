"""Statements that name a function by a premise against statements that write it out: with
the definitions unfolded (``without_defined_functions``) they align, and a proof there is a
proof of the theorems (``intermediate_algebra/problem_2132``: 3 variables against 1, and a
value route that cannot pin ``r powr 3`` at the negative root r = −5)."""

from __future__ import annotations

import provers
from provers.engine.normal import NormalForm, normalize
from provers.engine.unfolding import without_defined_functions
from provers.ir import FunSort

WRITTEN_OUT = '''theorem
fixes r :: real
assumes h0 : "r powr 2 + 2 * r - 15 = 0"
shows  "(r powr 3 - 1) / (r powr 5 + r powr 4 - r powr 3 - r powr 2) = 13 / 144"'''

NAMED = '''theorem
fixes r :: real and P Q :: "real \\<Rightarrow> real"
assumes h0 : "\\<forall> x. P x = x powr 2 + 2 * x - 15"
and h1 : "\\<forall> r. Q r = (r powr 3 - 1) / (r powr 5 + r powr 4 - r powr 3 - r powr 2)"
and h2 : "P r = 0"
shows  "Q r = 13 / 144"'''


def _nf(text: str) -> NormalForm:
    return normalize(provers.parse(text, "isabelle"))


def test_the_defined_functions_are_unfolded_away():
    nf = without_defined_functions(_nf(NAMED))
    assert [v.name for v in nf.variables] == ["r"]
    assert not any(isinstance(v.sort, FunSort) for v in nf.variables)
    assert len(nf.premises) == 1 and "P" not in str(nf.premises[0]) and "Q" not in str(nf.conclusion)


def test_a_statement_without_definitions_is_left_as_it_is():
    nf = _nf(WRITTEN_OUT)
    assert without_defined_functions(nf) is nf


def test_a_function_used_other_than_applied_is_kept():
    text = '''theorem
fixes f :: "nat \\<Rightarrow> nat"
assumes h0 : "\\<forall> x. f x = 2 * x"
shows "card (f ` {1, 2, 3}) = 3"'''
    nf = _nf(text)
    assert without_defined_functions(nf) is nf


def test_named_and_written_out_statements_are_proved_equivalent_both_ways():
    for a, b in ((NAMED, WRITTEN_OUT), (WRITTEN_OUT, NAMED)):
        v = provers.check_equivalence(provers.parse(a, "isabelle"), provers.parse(b, "isabelle"),
                                      relation="symbolic", timeout=1.0)
        assert v.status.value == "equivalent", v.reason
        assert v.route == "definitions unfolded"


def test_a_changed_definition_is_not_proved_equivalent():
    changed = NAMED.replace("(r powr 3 - 1)", "(r powr 3 - 2)")
    v = provers.check_equivalence(provers.parse(changed, "isabelle"), provers.parse(WRITTEN_OUT, "isabelle"),
                                  relation="symbolic", timeout=1.0)
    assert v.status.value != "equivalent"
