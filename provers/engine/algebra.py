"""What an algebraic instance binder says about its type's operations, in the normal form.

The IR keeps the operations of a type it does not model uninterpreted (``a * b`` on ``G`` is
``?HMul.hMul(a, b)``), so ``a * b * c`` and ``a * (b * c)`` were two different elements, and
``IsConj x y`` an opaque proposition. Under ``[Group G]`` they are not: ``*`` on ``G`` is
associative, and ``IsConj x y ↔ ∃ c, c * x * c⁻¹ = y`` (Mathlib ``isConj_iff``). Candidates
write either (GTED ``exercise_2_3_2``: ``∃ g, b * a = g * a * b * g⁻¹`` against ``IsConj (a * b)
(b * a)``). The normal form therefore writes every product (sum) of a type whose instance makes
``*`` (``+``) associative left-nested, and unfolds ``IsConj`` under a group instance. Only
classes that extend ``Semigroup`` (``AddSemigroup``) in Mathlib count; an unknown class changes
nothing.
"""

from __future__ import annotations

from collections.abc import Iterable

from provers.ir import (
    BOOL,
    OpaqueSort,
    Quant,
    Sort,
    Term,
    Uninterpreted,
    Var,
    app,
    free_vars,
    fresh_name,
    map_term,
)

__all__ = ["ADDITIVE", "GROUPS", "LOOSE_ADDITIVE", "LOOSE_MULTIPLICATIVE", "MULTIPLICATIVE", "algebra_normal"]

_RINGS = frozenset({"Semiring", "CommSemiring", "Ring", "CommRing", "DivisionRing", "Field"})
#: Mathlib classes whose ``*`` is associative (they extend ``Semigroup``).
MULTIPLICATIVE = _RINGS | frozenset({
    "Semigroup", "CommSemigroup", "Monoid", "CommMonoid", "LeftCancelMonoid", "RightCancelMonoid",
    "CancelMonoid", "CancelCommMonoid", "DivInvMonoid", "Group", "CommGroup"})
#: Mathlib classes whose ``+`` is associative (they extend ``AddSemigroup``).
ADDITIVE = _RINGS | frozenset({
    "AddSemigroup", "AddCommSemigroup", "AddMonoid", "AddCommMonoid", "AddGroup", "AddCommGroup"})
#: Mathlib classes in which ``IsConj x y ↔ ∃ c, c * x * c⁻¹ = y``.
GROUPS = frozenset({"Group", "CommGroup"})
#: Classes that give a type a ``*`` (``+``) with no associativity: beside an associative
#: instance, Lean's instance search may pick theirs (the most recent local instance), so a
#: type with one of them is left alone.
LOOSE_MULTIPLICATIVE = frozenset({
    "Mul", "HMul", "MulOneClass", "MulZeroClass", "MulZeroOneClass", "Distrib",
    "NonUnitalNonAssocSemiring", "NonAssocSemiring", "NonUnitalNonAssocRing", "NonAssocRing"})
LOOSE_ADDITIVE = frozenset({"Add", "HAdd", "AddZeroClass", "Distrib"})

_OPERATIONS = {"HMul.hMul": (MULTIPLICATIVE, LOOSE_MULTIPLICATIVE), "HAdd.hAdd": (ADDITIVE, LOOSE_ADDITIVE)}


def algebra_normal(t: Term, instances: Iterable[Term]) -> Term:
    """``t`` with the products and sums of each type that ``instances`` make associative
    written left-nested, and ``IsConj`` of a group's elements unfolded."""
    classes: dict[Sort, set[str]] = {}
    for inst in instances:
        if (isinstance(inst, Uninterpreted) and len(inst.args) == 1 and isinstance(inst.args[0], Var)
                and inst.sort == BOOL):
            classes.setdefault(OpaqueSort(inst.args[0].name), set()).add(inst.symbol)
    if not classes:
        return t

    def has(sort: Sort, wanted: frozenset[str], loose: frozenset[str] = frozenset()) -> bool:
        mine = classes.get(sort, set())
        return bool(mine & wanted) and not mine & loose

    def rw(s: Term) -> Term | None:
        if not isinstance(s, Uninterpreted):
            return None
        if s.symbol in _OPERATIONS and len(s.args) == 2 and has(s.sort, *_OPERATIONS[s.symbol]) and all(
                a.sort == s.sort for a in s.args):
            return _left_nested(s.symbol, s.sort, _operands(s.symbol, s))
        if (s.symbol == "IsConj" and len(s.args) == 2 and s.args[0].sort == s.args[1].sort
                and has(s.args[0].sort, GROUPS, LOOSE_MULTIPLICATIVE)):
            x, y = s.args
            c = Var(fresh_name("c", {v.name for v in free_vars(x) | free_vars(y)}), x.sort)
            inv = Uninterpreted("Inv.inv", (c,), x.sort)
            product = _left_nested("HMul.hMul", x.sort, [c, *_operands("HMul.hMul", x), inv])
            return Quant("exists", (c,), app("eq", product, y))
        return None

    return map_term(t, rw)


def _operands(symbol: str, t: Term) -> list[Term]:
    """The factors of a product (the terms of a sum) of one type, flattened."""
    if isinstance(t, Uninterpreted) and t.symbol == symbol and len(t.args) == 2 and all(
            a.sort == t.sort for a in t.args):
        return _operands(symbol, t.args[0]) + _operands(symbol, t.args[1])
    return [t]


def _left_nested(symbol: str, sort: Sort, operands: list[Term]) -> Term:
    out = operands[0]
    for x in operands[1:]:
        out = Uninterpreted(symbol, (out, x), sort)
    return out
