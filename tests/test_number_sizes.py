"""Exact arithmetic refuses numbers no statement names, instead of computing them past every
deadline (a product or power is one C-level operation the check's deadline cannot interrupt).

FormalAlign ``mathd_algebra_421`` with ``a⁹`` and its respelling ``a * a`` for ``a ^ 2``: a
sampled point made numbers of millions of bits, and one ``symbolic`` check ran for minutes
(its budget is 4 s); the coefficients of surd forms grew the same way in ``b⁹``."""

from __future__ import annotations

from fractions import Fraction

import pytest

import provers
from provers.ir import REAL
from provers.semantics.approx import Undecided
from provers.semantics.numeric import MAX_POWER_BITS, arith, power
from provers.semantics.surds import Form

STATEMENT = ("theorem mathd_algebra_421\n  (a b c d : ℝ)\n  (h₀ : b = a^9 + 4 * a + 6)\n  (h₁ : b = 1 / 2 * a^2 + a + 6)\n"
             "  (h₂ : d = c^2 + 4 * c + 6)\n  (h₃ : d = 1 / 2 * c^2 + c + 6)\n  (h₄ : a < c) :\n  c - a = 6 :=")


@pytest.mark.timeout(120)
@pytest.mark.parametrize("relation", ["sae", "symbolic"])
def test_a_statement_whose_sampled_points_explode_is_still_decided(relation):
    respelled = STATEMENT.replace("1 / 2 * a^2", "1 / 2 * (a * a)")
    v = provers.check_equivalence(STATEMENT, respelled, relation=relation, language="lean4", timeout=1.0)
    assert v.status == "equivalent", v.reason


def test_numbers_a_statement_names_are_computed_and_larger_ones_refused():
    assert power(3, 4096, REAL) == 3 ** 4096
    assert arith("mul", REAL, [2 ** 1000, 3 ** 1000]) == 6 ** 1000
    huge = 2 ** MAX_POWER_BITS
    with pytest.raises(Undecided):
        arith("mul", REAL, [huge, huge])
    with pytest.raises(Undecided):
        power(Fraction(huge, 3), 9, REAL)


def test_surd_forms_with_huge_coefficients_are_not_computed():
    small = Form.rational(Fraction(7, 3))
    assert small.power(9).as_rational() == Fraction(7, 3) ** 9
    assert Form.rational(Fraction(2 ** 30_000 + 1, 3)).power(9) is None
