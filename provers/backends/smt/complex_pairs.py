"""Complex numbers in the lowering: a Complex-sorted term becomes a pair (re, im) of core Real
terms (``COMPLEX_PARTS``, one entry per Complex-valued operation); division by 0 gives 0
componentwise, as in Mathlib. A Complex variable ``z`` is the two reals ``z.re``, ``z.im``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from provers.backends.smt.core import (
    Unsupported,
    c_add,
    c_div,
    c_ite,
    c_mul,
    c_neg,
    c_sub,
    c_to_real,
    core_app,
    core_sort,
    creal,
)
from provers.backends.smt.sets import finite_elements
from provers.ir import (
    BOOL,
    COMPLEX,
    INT,
    NAT,
    RAT,
    REAL,
    App,
    BigOp,
    FunSort,
    Num,
    OpTable,
    Sort,
    Term,
    Var,
    substitute,
)

if TYPE_CHECKING:
    from provers.backends.smt.lower import Lowerer

ComplexHandler = Callable[["Lowerer", App], tuple[Term, Term]]

#: ``handler(lowerer, term) -> (re, im)`` for each operation with a Complex value.
COMPLEX_PARTS: OpTable[ComplexHandler] = OpTable("SMT lowering (complex pairs)")
_complex = COMPLEX_PARTS.register


@_complex("I")
def _c_unit(lw: Lowerer, t: App) -> tuple[Term, Term]:
    return creal(0), creal(1)


@_complex("cast")
def _c_cast(lw: Lowerer, t: App) -> tuple[Term, Term]:
    a = t.args[0]
    if a.sort == COMPLEX:
        return lw.lower_c(a)
    x = lw.lower(a, 0)
    return (c_to_real(x) if core_sort(a.sort) == INT else x), creal(0)


@_complex("ite")
def _c_ite(lw: Lowerer, t: App) -> tuple[Term, Term]:
    c = lw.lower(t.args[0], 0)
    (ar, ai), (br, bi) = lw.lower_c(t.args[1]), lw.lower_c(t.args[2])
    return c_ite(c, ar, br), c_ite(c, ai, bi)


@_complex("add", "sub")
def _c_additive(lw: Lowerer, t: App) -> tuple[Term, Term]:
    (ar, ai), (br, bi) = lw.lower_c(t.args[0]), lw.lower_c(t.args[1])
    f = c_add if t.op == "add" else c_sub
    return f(ar, br), f(ai, bi)


@_complex("neg")
def _c_neg(lw: Lowerer, t: App) -> tuple[Term, Term]:
    ar, ai = lw.lower_c(t.args[0])
    return c_neg(ar), c_neg(ai)


@_complex("conj")
def _c_conj(lw: Lowerer, t: App) -> tuple[Term, Term]:
    ar, ai = lw.lower_c(t.args[0])
    return ar, c_neg(ai)


@_complex("mul")
def _c_mul(lw: Lowerer, t: App) -> tuple[Term, Term]:
    return _cmul(lw.lower_c(t.args[0]), lw.lower_c(t.args[1]))


@_complex("inv")
def _c_inv(lw: Lowerer, t: App) -> tuple[Term, Term]:
    return _cinv(lw.lower_c(t.args[0]))


@_complex("div")
def _c_div(lw: Lowerer, t: App) -> tuple[Term, Term]:
    return _cmul(lw.lower_c(t.args[0]), _cinv(lw.lower_c(t.args[1])))


@_complex("apply")
def _c_apply(lw: Lowerer, t: App) -> tuple[Term, Term]:
    f, args = t.args[0], t.args[1:]
    if not (is_complex_fun(f.sort) and isinstance(f, Var)):
        raise Unsupported("complex operation apply")
    xs = [p for a in args for p in (lw.lower_c(a) if a.sort == COMPLEX else (lw.lower(a, 0),))]
    fr, fi = complex_fun_parts(f)
    return core_app("apply", REAL, fr, *xs), core_app("apply", REAL, fi, *xs)


@_complex("pow", "zpow")
def _c_power(lw: Lowerer, t: App) -> tuple[Term, Term]:
    base, e = t.args
    if not (isinstance(e, Num) and abs(int(e.value)) <= 64):
        raise Unsupported(f"complex operation {t.op}")
    k = int(e.value)
    p = _cpower(lw.lower_c(base), abs(k))
    return p if k >= 0 else _cinv(p)


def big_operator_c(lw: Lowerer, t: BigOp) -> tuple[Term, Term]:
    elems = finite_elements(t.domain)
    if elems is None or t.kind != "sum" and len(elems) > 64:
        raise Unsupported("complex big operator without literal bounds")
    acc = (creal(0), creal(0)) if t.kind == "sum" else (creal(1), creal(0))
    for e in elems:
        term = lw.lower_c(substitute(t.body, {t.var: e}))
        acc = (c_add(acc[0], term[0]), c_add(acc[1], term[1])) if t.kind == "sum" else _cmul(acc, term)
    return acc


def _cmul(a: tuple[Term, Term], b: tuple[Term, Term]) -> tuple[Term, Term]:
    (ar, ai), (br, bi) = a, b
    return c_sub(c_mul(ar, br), c_mul(ai, bi)), c_add(c_mul(ar, bi), c_mul(ai, br))


def _cinv(a: tuple[Term, Term]) -> tuple[Term, Term]:
    """1 / (x + iy) = (x - iy) / (x² + y²), and 0⁻¹ = 0 (the guarded division gives it)."""
    ar, ai = a
    d = c_add(c_mul(ar, ar), c_mul(ai, ai))
    return c_div(ar, d), c_div(c_neg(ai), d)


def _cpower(a: tuple[Term, Term], n: int) -> tuple[Term, Term]:
    if n == 0:
        return creal(1), creal(0)
    if n == 1:
        return a
    half = _cpower(a, n // 2)
    sq = _cmul(half, half)
    return _cmul(sq, a) if n % 2 else sq


def is_complex_fun(s: Sort) -> bool:
    """ℂ-valued functions of ℂ / scalar arguments: a pair of real functions of the real parts."""
    return (
        isinstance(s, FunSort) and s.result == COMPLEX
        and all(a == COMPLEX or a in (BOOL, NAT, INT, RAT, REAL) for a in s.args)
    )


def complex_fun_parts(f: Var) -> tuple[Var, Var]:
    """The real and imaginary part functions standing for a ℂ-valued function variable."""
    assert isinstance(f.sort, FunSort)
    args = tuple(p for a in f.sort.args for p in ((REAL, REAL) if a == COMPLEX else (core_sort(a),)))
    fs = FunSort(args, REAL)
    return Var(f.name + ".re", fs), Var(f.name + ".im", fs)


def complex_parts(v: Var) -> tuple[Var, Var]:
    """The two real variables standing for a Complex variable."""
    return Var(v.name + ".re", REAL), Var(v.name + ".im", REAL)
