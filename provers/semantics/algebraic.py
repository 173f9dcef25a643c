"""Irrational algebraic model values (nlsat, cvc5's coverings) and their exact re-check.

Why: a nonlinear real obligation is often refuted only at irrational points (x² = 2 against
x² = 3: every countermodel has x = ±√2). The solvers give such a value as a polynomial and
an isolating interval; ``AlgebraicReal`` keeps exactly that, and ``algebraic_truth`` decides
a formula of the field fragment (numerals, + - * /, natural powers, comparisons,
connectives, if-then-else; no binders, no other operation) at such a point EXACTLY, as the
exact evaluator (``provers.semantics``) does at rational points, with the same meanings
(x / 0 = 0). A countermodel with an algebraic value counts only when this re-check says
False; anything outside the fragment is undecided (None), never guessed.

How: equality of two values is decided by the minimal polynomial of their difference
(sympy, exact algebra: the difference is 0 iff that polynomial is y); the sign of a nonzero
difference by interval arithmetic over exact rationals, with each algebraic value's
isolating interval refined by bisection (exact signs of its polynomial) until the interval
of the difference excludes 0, which it eventually does because the difference is not 0.

The solvers' values are read into ``AlgebraicReal`` by ``provers.backends.smt.model_values``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from provers.ir import BOOL, INT, NAT, RAT, REAL, App, Num, OpTable, Term, Var

#: Bisection rounds before a sign is left undecided (each halves every isolating interval).
MAX_REFINE = 400
#: Largest natural exponent evaluated.
MAX_EXPONENT = 64
#: Sorts of the field fragment's numbers.
_FIELD = (REAL, RAT)


@dataclass(frozen=True)
class AlgebraicReal:
    """The only real root of the integer polynomial ``coeffs`` (constant term first) in the
    open interval (``lo``, ``hi``); neither end is a root."""

    coeffs: tuple[int, ...]
    lo: Fraction
    hi: Fraction

    def __post_init__(self) -> None:
        if not (self.lo < self.hi) or poly_at(self.coeffs, self.lo) == 0 or poly_at(self.coeffs, self.hi) == 0:
            raise ValueError("not an isolating interval")
        if _count_roots(self.coeffs, self.lo, self.hi) != 1:
            raise ValueError(f"polynomial {self.coeffs} has not exactly one root in ({self.lo}, {self.hi})")

    def __float__(self) -> float:
        return float((self.lo + self.hi) / 2)

    def __str__(self) -> str:
        terms = [f"{c}·x^{k}" if k else f"{c}" for k, c in enumerate(self.coeffs) if c]
        return f"root of {' + '.join(reversed(terms))} in ({self.lo}, {self.hi}) ≈ {float(self):.12g}"

    def refined(self) -> AlgebraicReal:
        """The same number with its isolating interval halved."""
        mid = (self.lo + self.hi) / 2
        v = poly_at(self.coeffs, mid)
        if v == 0:  # hit exactly: the number is rational (cannot happen for a minimal polynomial)
            eps = (self.hi - self.lo) / 1024
            return AlgebraicReal(self.coeffs, mid - eps, mid + eps)
        if (poly_at(self.coeffs, self.lo) > 0) != (v > 0):
            return AlgebraicReal(self.coeffs, self.lo, mid)
        return AlgebraicReal(self.coeffs, mid, self.hi)

    def sympy(self) -> Any:
        """The number as a sympy ``CRootOf`` (exact)."""
        import sympy

        x = sympy.Symbol("x")
        p = sympy.Poly(list(reversed(self.coeffs)), x)
        below = _count_roots(self.coeffs, None, self.lo)
        return sympy.CRootOf(p, below)


def poly_at(coeffs: tuple[int, ...], x: Fraction) -> Fraction:
    acc = Fraction(0)
    for c in reversed(coeffs):
        acc = acc * x + c
    return acc


def _count_roots(coeffs: tuple[int, ...], lo: Fraction | None, hi: Fraction | None) -> int:
    """Distinct real roots in [lo, hi] (None: unbounded), exactly (Sturm, via sympy)."""
    import sympy

    x = sympy.Symbol("x")
    p = sympy.Poly(list(reversed(coeffs)), x).sqf_part()
    return int(p.count_roots(None if lo is None else sympy.Rational(lo.numerator, lo.denominator),
                             None if hi is None else sympy.Rational(hi.numerator, hi.denominator)))


# --------------------------------------------------------------------------------------
# exact truth at algebraic points
# --------------------------------------------------------------------------------------


class _Undecided(Exception):
    pass


Value = Any  # sympy number (exact) for numbers, bool for formulas
Interval = tuple[Fraction, Fraction]
Handler = Callable[[App, dict[str, Any]], Value]

#: Exact meaning of each operation of the field fragment over sympy numbers.
EXACT: OpTable[Handler] = OpTable("algebraic evaluator")


def algebraic_truth(formula: Term, env: dict[str, Any]) -> bool | None:
    """True / False when ``formula`` is exactly decided at ``env`` (ints, Fractions and
    ``AlgebraicReal`` values), else None (outside the field fragment, or undecided)."""
    try:
        import sympy  # noqa: F401

        points = {k: v.sympy() if isinstance(v, AlgebraicReal) else v for k, v in env.items()}
        state = _State(env, points)
        v = state.ev(formula)
        return v if isinstance(v, bool) else None
    except Exception:  # noqa: BLE001 - anything unexpected is undecided, never a verdict
        return None


class _State:
    def __init__(self, env: dict[str, Any], points: dict[str, Any]):
        self.env = env
        self.points = points

    def ev(self, t: Term) -> Value:
        import sympy

        if isinstance(t, Num):
            if t.sort not in (NAT, INT, RAT, REAL):
                raise _Undecided(f"numeral of sort {t.sort}")
            v = Fraction(t.value)
            return sympy.Rational(v.numerator, v.denominator)
        if isinstance(t, Var):
            if t.sort not in (NAT, INT, RAT, REAL) or t.name not in self.points:
                raise _Undecided(f"variable {t.name}")
            v = self.points[t.name]
            if isinstance(v, bool):
                raise _Undecided("truth value as a number")
            if isinstance(v, (int, Fraction)):
                f = Fraction(v)
                return sympy.Rational(f.numerator, f.denominator)
            return v
        if isinstance(t, App):
            handler = EXACT.get(t.op)
            if handler is None:
                raise _Undecided(f"operation {t.op}")
            return handler(t, self)  # type: ignore[arg-type]
        raise _Undecided(type(t).__name__)

    def sign(self, d: Any) -> int:
        """The exact sign of the sympy number ``d``."""
        import sympy

        if d.has(sympy.Float):
            raise _Undecided("inexact number")
        if d.is_Rational:
            return int(d.p > 0) - int(d.p < 0)
        y = sympy.Dummy("y")
        mp = sympy.minimal_polynomial(d, y, polys=True)
        if mp.degree() == 1 and mp.coeff_monomial(1) == 0:
            return 0
        # nonzero: enclose d with exact rational intervals, refined until 0 is excluded
        alg = {k: v for k, v in self.env.items() if isinstance(v, AlgebraicReal)}
        for _ in range(MAX_REFINE):
            lo, hi = _enclose(d, alg)
            if lo > 0:
                return 1
            if hi < 0:
                return -1
            if not alg:
                raise _Undecided("no algebraic value to refine")
            alg = {k: v.refined() for k, v in alg.items()}
        raise _Undecided("sign not separated from 0")


def _enclose(d: Any, alg: dict[str, AlgebraicReal]) -> Interval:
    """An interval with exact rational ends containing the sympy number ``d`` (built from
    rationals and the CRootOf values of ``alg``)."""
    import sympy

    roots = {v.sympy(): v for v in alg.values()}

    def iv(e: Any) -> Interval:
        if e.is_Rational:
            f = Fraction(int(e.p), int(e.q))
            return f, f
        if e in roots:  # one of the model's numbers (a CRootOf, or a radical sympy chose)
            return roots[e].lo, roots[e].hi
        if isinstance(e, sympy.CRootOf):
            raise _Undecided("unknown algebraic number")
        if e.is_Add:
            lo = hi = Fraction(0)
            for a in e.args:
                l2, h2 = iv(a)
                lo, hi = lo + l2, hi + h2
            return lo, hi
        if e.is_Mul:
            acc: Interval = (Fraction(1), Fraction(1))
            for a in e.args:
                acc = _imul(acc, iv(a))
            return acc
        if e.is_Pow and e.exp.is_Integer:
            base = iv(e.base)
            n = int(e.exp)
            if n < 0:
                base = _iinv(base)
                n = -n
            acc = (Fraction(1), Fraction(1))
            for _ in range(n):
                acc = _imul(acc, base)
            return acc
        raise _Undecided(f"cannot enclose {e.func.__name__}")

    return iv(d)


def _imul(a: Interval, b: Interval) -> Interval:
    ps = [a[0] * b[0], a[0] * b[1], a[1] * b[0], a[1] * b[1]]
    return min(ps), max(ps)


def _iinv(a: Interval) -> Interval:
    if a[0] <= 0 <= a[1]:
        raise _Undecided("interval contains 0")
    return 1 / a[1], 1 / a[0]


def _numeric(*ops: str) -> Callable[[Callable[..., Value]], Callable[..., Value]]:
    """Register ``fn(state, *argument values)`` for ``ops``, on real arguments and results
    only (ℕ subtraction truncates and ℤ division rounds: those stay undecided here)."""

    def deco(fn: Callable[..., Value]) -> Callable[..., Value]:
        def handler(t: App, st: _State) -> Value:
            if t.sort not in (*_FIELD, BOOL) or any(a.sort not in _FIELD for a in t.args[:1 if t.op == "pow" else None]):
                raise _Undecided(f"{t.op} outside the reals")
            return fn(st, *(st.ev(a) for a in t.args))

        for op in ops:
            EXACT.add(op, handler)  # type: ignore[arg-type]
        return fn

    return deco


def _div(st: _State, a: Value, b: Value) -> Value:
    return 0 * a if st.sign(b) == 0 else a / b  # x / 0 = 0 (Lean and Isabelle)


def _pow(st: _State, a: Value, n: Value) -> Value:
    if not n.is_Integer or not 0 <= int(n) <= MAX_EXPONENT:
        raise _Undecided("exponent")
    return a ** int(n)


_numeric("add")(lambda st, a, b: a + b)
_numeric("sub")(lambda st, a, b: a - b)
_numeric("mul")(lambda st, a, b: a * b)
_numeric("neg")(lambda st, a: -a)
_numeric("div")(_div)
_numeric("pow")(_pow)
_numeric("eq")(lambda st, a, b: st.sign(a - b) == 0)
_numeric("ne")(lambda st, a, b: st.sign(a - b) != 0)
_numeric("lt")(lambda st, a, b: st.sign(a - b) < 0)
_numeric("le")(lambda st, a, b: st.sign(a - b) <= 0)
_numeric("gt")(lambda st, a, b: st.sign(a - b) > 0)
_numeric("ge")(lambda st, a, b: st.sign(a - b) >= 0)
EXACT.add("true", lambda t, st: True)  # type: ignore[arg-type]
EXACT.add("false", lambda t, st: False)  # type: ignore[arg-type]


def _bool(v: Value) -> bool:
    if not isinstance(v, bool):
        raise _Undecided("not a truth value")
    return v


@EXACT.register("not")
def _not(t: App, st: _State) -> Value:
    return not _bool(st.ev(t.args[0]))


@EXACT.register("and")
def _and(t: App, st: _State) -> Value:
    return all(_bool(st.ev(a)) for a in t.args)


@EXACT.register("or")
def _or(t: App, st: _State) -> Value:
    return any(_bool(st.ev(a)) for a in t.args)


@EXACT.register("implies")
def _implies(t: App, st: _State) -> Value:
    return (not _bool(st.ev(t.args[0]))) or _bool(st.ev(t.args[1]))


@EXACT.register("iff")
def _iff(t: App, st: _State) -> Value:
    return _bool(st.ev(t.args[0])) == _bool(st.ev(t.args[1]))


@EXACT.register("ite")
def _ite(t: App, st: _State) -> Value:
    return st.ev(t.args[1]) if _bool(st.ev(t.args[0])) else st.ev(t.args[2])


@EXACT.register("cast")
def _cast(t: App, st: _State) -> Value:
    return st.ev(t.args[0])  # ℕ/ℤ/ℚ → ℝ: the same number


__all__ = ["AlgebraicReal", "algebraic_truth"]
