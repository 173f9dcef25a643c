"""Rational-function identities in one real variable, at a point of the other variables.

Why: ``∀x, x ≠ 3 ∧ x ≠ 5 → 4x / (x² − 8x + 15) = a / (x − 3) + b / (x − 5)`` (partial
fractions) is a premise the exact evaluator could only refute, never confirm: the domain of x
is unbounded, and neither solver decides a ∀ with divisions. At a point (a, b) it is decided
the way it is on paper, with the IR's division (``x / 0 = 0``, Lean and Isabelle alike):

* off the *exceptional points* — the real zeros of every divisor (and of the divisors inside
  it) — every division is a field division, so the body holds there iff L − R is the zero
  rational function (``sympy.cancel``): a nonzero one vanishes at finitely many points only;
* at each exceptional point (finitely many, each rational here, else undecided) the caller
  evaluates ``guard → L = R`` exactly, with the IR's division.

``rational_identity`` returns the first fact and the points for the second; a guard does not
matter off the exceptional points (the body holds there whatever it says).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from provers.ir import RAT, REAL, App, Num, Quant, Term, Var, free_vars

#: Largest numeral exponent read (``x ^ 12``); larger powers are left undecided.
MAX_EXPONENT = 16
#: Most exceptional points one identity may have.
MAX_EXCEPTIONAL = 32


@dataclass(frozen=True)
class RationalIdentity:
    """``generic``: L − R is the zero rational function. ``exceptional``: the rational points
    where some divisor vanishes (the only places the body may still fail when ``generic``)."""

    generic: bool
    exceptional: tuple[Fraction, ...]


class _Reader:
    """Reads a term as a sympy rational function of the bound variable (None where that is
    not its exact meaning), collecting every divisor."""

    def __init__(self, x: Var, value_of: Callable[[Term], Any]):
        import sympy

        self.sympy = sympy
        self.x = x
        self.symbol = sympy.Symbol("x")
        self.value_of = value_of
        self.divisors: list[Any] = []

    def read(self, t: Term) -> Any:
        sp = self.sympy
        if t == self.x:
            return self.symbol
        if isinstance(t, Num):
            return sp.Rational(Fraction(t.value).numerator, Fraction(t.value).denominator)
        if self.x not in free_vars(t):
            v = self.value_of(t)
            if isinstance(v, bool) or not isinstance(v, (int, Fraction)):
                return None
            v = Fraction(v)
            return sp.Rational(v.numerator, v.denominator)
        if not isinstance(t, App):
            return None
        args = [self.read(a) for a in t.args] if t.op != "pow" else [self.read(t.args[0])]
        if any(a is None for a in args):
            return None
        if t.op == "add":
            return args[0] + args[1]
        if t.op == "sub" and t.sort in (RAT, REAL):
            return args[0] - args[1]
        if t.op == "mul":
            return args[0] * args[1]
        if t.op == "neg":
            return -args[0]
        if t.op == "cast":
            return args[0]
        if t.op in ("div", "inv") and t.sort in (RAT, REAL):
            num, den = (args[0], args[1]) if t.op == "div" else (sp.Integer(1), args[0])
            self.divisors.append(den)
            return num / den
        if t.op == "pow":
            e = t.args[1]
            if isinstance(e, Num) and Fraction(e.value).denominator == 1 and 0 <= e.value <= MAX_EXPONENT:
                return args[0] ** int(e.value)
        return None


def rational_identity(t: Quant, value_of: Callable[[Term], Any]) -> RationalIdentity | None:
    """``t`` = ``∀x. [guard →] L = R`` with x one variable over ℝ or ℚ and the other variables
    given exact rational values by ``value_of``; None when it is not of that shape, a term is
    not a rational function of x, or a divisor has an irrational zero."""
    if t.kind != "forall" or len(t.vars) != 1 or t.vars[0].sort not in (RAT, REAL):
        return None
    body = t.body.args[1] if isinstance(t.body, App) and t.body.op == "implies" else t.body
    if not (isinstance(body, App) and body.op == "eq" and body.args[0].sort in (RAT, REAL)):
        return None
    reader = _Reader(t.vars[0], value_of)
    lhs, rhs = reader.read(body.args[0]), reader.read(body.args[1])
    if lhs is None or rhs is None:
        return None
    sp, x = reader.sympy, reader.symbol
    points: set[Fraction] = set()
    for d in reader.divisors:
        if sp.cancel(d) == 0:
            return None  # division by 0 everywhere: the field reading is wrong off no point
        numerator, _ = sp.fraction(sp.together(d))
        poly = sp.Poly(numerator, x)
        for factor, _ in poly.factor_list()[1]:
            if factor.degree() == 1:
                c1, c0 = factor.all_coeffs()
                r = -sp.Rational(c0) / sp.Rational(c1)
                points.add(Fraction(int(r.p), int(r.q)))
            elif factor.degree() > 1 and factor.count_roots() > 0:
                return None  # an irrational exceptional point
        if len(points) > MAX_EXCEPTIONAL:
            return None
    generic = sp.cancel(sp.together(lhs - rhs)) == 0
    return RationalIdentity(bool(generic), tuple(sorted(points)))


__all__ = ["MAX_EXCEPTIONAL", "RationalIdentity", "rational_identity"]
