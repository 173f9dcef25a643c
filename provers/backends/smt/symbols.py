"""The lowering's fresh real-function symbols and the TRUE facts that constrain them:
``%sqrt``, ``%exp``, ``%ln`` (log on x > 0), ``%ln_neg`` (Isabelle ln on x ≤ 0: one constant), ``%pi``,
``%sin``/``%cos``, ``%arcsin``/``%arccos`` (on [-1, 1]).

Why true facts only: a fact can rule out an impossible interpretation of a symbol, never make
a false formula provable; a model that is still wrong is caught by the exact evaluator.
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from provers.backends.smt.core import (
    c_abs,
    c_add,
    c_and,
    c_div,
    c_eq,
    c_imp,
    c_ite,
    c_le,
    c_lt,
    c_mul,
    c_neg,
    c_sub,
    c_ufun,
    creal,
)
from provers.ir import REAL, Num, Term
from provers.semantics.exact import rational_root

if TYPE_CHECKING:
    from provers.backends.smt.lower import Lowerer

_PI_LO, _PI_HI = Fraction(314159265, 10**8), Fraction(314159266, 10**8)


def sqrt(lw: Lowerer, x: Term) -> Term:
    if isinstance(x, Num):  # literal: exact when the root is rational
        v = Fraction(x.value)
        if v <= 0:
            return creal(0)
        r = rational_root(v, 2)
        if r is not None:
            return creal(r)
    s = c_ufun("%sqrt", REAL, x)
    lw.fact(c_le(creal(0), s))
    lw.fact(c_imp(c_le(creal(0), x), c_eq(c_mul(s, s), x)))
    lw.fact(c_imp(c_lt(x, creal(0)), c_eq(s, creal(0))))
    return s


def signed_sqrt(lw: Lowerer, x: Term) -> Term:
    return c_ite(c_le(creal(0), x), sqrt(lw, x), c_neg(sqrt(lw, c_neg(x))))


def exp(lw: Lowerer, x: Term) -> Term:
    lw.note_monotone("%exp", x)
    e = c_ufun("%exp", REAL, x)
    lw.fact(c_lt(creal(0), e))
    lw.fact(c_le(c_add(x, creal(1)), e))
    lw.fact(c_imp(c_eq(x, creal(0)), c_eq(e, creal(1))))
    lw.fact(c_imp(c_lt(x, creal(0)), c_lt(e, creal(1))))
    lw.fact(c_imp(c_lt(creal(0), x), c_lt(creal(1), e)))
    return e


def ln_pos(lw: Lowerer, x: Term) -> Term:
    """Natural log, meaningful for x > 0 (callers guard the other cases)."""
    lw.note_monotone("%ln", x)
    lg = c_ufun("%ln", REAL, x)
    pos = c_lt(creal(0), x)
    lw.fact(c_imp(c_eq(x, creal(1)), c_eq(lg, creal(0))))
    lw.fact(c_imp(c_and(pos, c_lt(x, creal(1))), c_lt(lg, creal(0))))
    lw.fact(c_imp(c_lt(creal(1), x), c_lt(creal(0), lg)))
    lw.fact(c_imp(pos, c_le(lg, c_sub(x, creal(1)))))
    lw.fact(c_imp(pos, c_eq(c_ufun("%exp", REAL, lg), x)))
    return lg


def log(lw: Lowerer, x: Term) -> Term:
    """Mathlib ``Real.log``: log |x|, log 0 = 0."""
    return c_ite(c_eq(x, creal(0)), creal(0), ln_pos(lw, c_abs(x)))


def isa_ln(lw: Lowerer, x: Term) -> Term:
    """Isabelle ``ln``: for x ≤ 0 one unspecified constant, ``THE x. False``
    (``ln_neg_is_const``), the same for every such x."""
    return c_ite(c_lt(creal(0), x), ln_pos(lw, x), c_ufun("%ln_neg", REAL))


def pi(lw: Lowerer) -> Term:
    p = c_ufun("%pi", REAL)
    lw.fact(c_and(c_lt(creal(_PI_LO), p), c_lt(p, creal(_PI_HI))))
    return p


def sin_cos(lw: Lowerer, x: Term) -> tuple[Term, Term]:
    s, c = c_ufun("%sin", REAL, x), c_ufun("%cos", REAL, x)
    for v in (s, c):
        lw.fact(c_and(c_le(creal(-1), v), c_le(v, creal(1))))
    lw.fact(c_eq(c_add(c_mul(s, s), c_mul(c, c)), creal(1)))
    lw.fact(c_imp(c_eq(x, creal(0)), c_and(c_eq(s, creal(0)), c_eq(c, creal(1)))))
    return s, c


def arc_in_range(lw: Lowerer, op: str, x: Term) -> Term:
    """``%arcsin`` / ``%arccos``: the inverse functions, specified on [-1, 1] (where Lean and
    Isabelle agree)."""
    zero, one = creal(0), creal(1)
    p = pi(lw)
    half = c_div(p, creal(2))
    a = c_ufun("%" + op, REAL, x)
    inrange = c_and(c_le(creal(-1), x), c_le(x, one))
    if op == "arcsin":
        lw.fact(c_imp(inrange, c_and(c_le(c_neg(half), a), c_le(a, half), c_eq(sin_cos(lw, a)[0], x))))
        ends = ((creal(0), zero), (one, half), (creal(-1), c_neg(half)))
    else:
        lw.fact(c_imp(inrange, c_and(c_le(zero, a), c_le(a, p), c_eq(sin_cos(lw, a)[1], x))))
        ends = ((one, zero), (creal(-1), p), (creal(0), half))
    for at, value in ends:  # the values at 0 and ±1 (sin and cos facts alone miss them)
        lw.fact(c_imp(c_eq(x, at), c_eq(a, value)))
    return a
