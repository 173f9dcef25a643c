"""Closed numeral arithmetic as the numeral it denotes: ``2 * 3`` is ``6``, ``10 / 3`` on ℕ is
``3``, ``(1 : ℝ) / 2`` is ``1/2``.

Why: the normal form (``engine.normal``) folds them so that two spellings of one number are
one term, compared without a solver; the evaluator folds a premise before comparing it with
the definition a recurrence was read from. The value is the exact evaluator's, under each
operation's own semantics (truncated ℕ subtraction, Lean's Euclidean and Isabelle's floor
division, x / 0 = 0), so folding is as sound as the evaluator the verdicts already rest on.
"""

from __future__ import annotations

from fractions import Fraction

from provers.ir import (
    BOOL,
    FALSE,
    INT,
    NAT,
    RAT,
    REAL,
    TRUE,
    App,
    IRError,
    Num,
    ProdSort,
    Sort,
    Term,
    map_term,
    num,
)
from provers.semantics.algebraic import AlgebraicReal
from provers.semantics.evaluate import evaluate
from provers.semantics.pairs import pair
from provers.semantics.values import ExactComplex, Value

#: Arithmetic that a closed numeral expression is folded through (``folded_numerals``).
FOLDED_OPS = frozenset({"add", "mul", "sub", "neg", "div", "inv", "pow", "zpow", "mod", "ediv", "emod", "fdiv",
                        "fmod", "abs", "min", "max", "cast", "floor", "ceil", "nat_floor", "nat_ceil", "round",
                        "to_nat", "nat_abs", "sign", "frac"})

#: Folded values larger than this many bits stay as written (a numeral nobody writes).
_FOLDED_BITS = 128


def fold_numerals(t: Term) -> Term:
    """``t`` with every closed arithmetic expression of numerals folded (``folded_numerals``)."""
    return map_term(t, lambda s: folded_numerals(s) if isinstance(s, App) and s.op in FOLDED_OPS else None)


def folded_numerals(s: App) -> Term | None:
    """A closed arithmetic expression of numerals (``2 * 3``, ``10 ^ 2``, ``(1 : ℝ) / 2``,
    ``7 - 9`` on ℕ) as the numeral it denotes, computed by the exact evaluator under the
    operation's own semantics (truncated ℕ subtraction, floor or Euclidean division, x / 0 = 0):
    ``6`` and ``2 * 3`` are then one term, compared without a solver."""
    if not all(isinstance(a, Num) for a in s.args):
        return None
    value = evaluate(s)
    if isinstance(value, ExactComplex) and value.im == 0:
        value = value.re  # a complex numeral with no imaginary part (`(1 + 1 : ℂ)`)
    return numeral(value, s.sort, _FOLDED_BITS)


def numeral(value: object, sort: Sort, max_bits: int) -> Num | None:
    """The numeral of an exact value at ``sort``: None for a value that is not an exact number
    (a truth value, an approximation, undecided), has more than ``max_bits`` bits in its
    numerator or denominator, or that ``sort`` does not hold (a negative ℕ, a fraction in ℤ)."""
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        return None
    q = Fraction(value)
    if max(q.numerator.bit_length(), q.denominator.bit_length()) > max_bits:
        return None
    try:
        return Num(value, sort)
    except IRError:
        return None


def value_term(v: Value, sort: Sort) -> Term | None:
    """The IR literal of value ``v`` at ``sort``: a truth value, a number, a pair of them (None
    when the sort has no such literal). Shared by the engine's answers and definitions and by
    the SMT lowering's library facts."""
    if sort == BOOL:
        return TRUE if v is True else FALSE if v is False else None
    if isinstance(v, tuple):
        if not isinstance(sort, ProdSort) or len(sort.parts) != len(v):
            return None
        parts = tuple(value_term(x, s) for x, s in zip(v, sort.parts, strict=True))
        return None if any(x is None for x in parts) else pair(parts, sort)  # type: ignore[arg-type]
    if isinstance(v, (bool, AlgebraicReal)) or sort not in (NAT, INT, RAT, REAL):
        return None
    if sort in (NAT, INT) and isinstance(v, Fraction):
        return None
    if sort == NAT and v < 0:
        return None
    return num(v, sort)
