"""Rigorous interval enclosures of real-valued IR terms at a point, to certify comparisons.

Why: the evaluator computes √2, log 3, π, sin 1 … as mpmath floats (``Approx``); a comparison
between them is then only approximately decided and a solver countermodel that depends on it
is thrown away ("falsity only approximate"). Here the same term is evaluated with
outward-rounded interval arithmetic (mpmath's ``iv`` context and its directed-rounding
``libmp`` primitives, the same ones ``iv`` is built on): every enclosure CONTAINS the true
value, so two disjoint enclosures certify ``<`` / ``≠`` exactly. Precision is refined
(``PRECISIONS``) until the enclosures separate or the cap is reached. Overlapping enclosures
never certify equality (two irrational values may agree to any number of digits); only
enclosures that are the same single point do, since a zero-width rigorous enclosure IS the
value (``sqrt 4``, ``floor (sqrt 2)``). Exact equalities of irrational values come from
``surds`` instead.

Each operation's enclosure is one handler of ``INTERVAL`` and follows the evaluator's meaning
of the operation (docs/semantics.md): Mathlib ``Real.sqrt`` is 0 below 0, ``Real.log`` is
log |x| with log 0 = 0, ``x / 0 = 0``, Isabelle ``ln`` is unspecified at x ≤ 0 (no enclosure
there) … Subterms without a handler (variables, finite sums, tables) take the exact value the
evaluator gives them; an inexact one has no enclosure.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath.libmp as libmp
from mpmath.ctx_iv import MPIntervalContext

from provers.ir import INT, NAT, RAT, REAL, App, BigOp, Num, OpTable, Term, substitute
from provers.semantics.approx import is_rational
from provers.semantics.exact import MAX_EXPONENT
from provers.semantics.values import Undecided

#: Working precisions in bits, tried in order; the last is the cap.
PRECISIONS = (64, 192, 640)
#: Enclosures with an endpoint beyond 2**MAX_MAGNITUDE_BITS are not used (no exact endpoints).
MAX_MAGNITUDE_BITS = 4096

_ORDERED = (NAT, INT, RAT, REAL)
#: Operations enclosed on integer-valued terms too (the others are exact there: evaluated).
_INTEGER_SAFE = frozenset({"add", "mul", "neg", "abs", "min", "max", "sign", "pow", "cast",
                           "floor", "ceil", "round", "nat_floor", "nat_ceil", "sub", "to_nat"})

Interval = Any  # an mpmath ``ivmpf``


class NoEnclosure(Undecided):
    """A subterm has no enclosure at any precision (no handler and no exact value)."""


@dataclass
class Enclosing:
    """One enclosure pass: the interval context at one precision and ``exact``, the
    evaluator's value of a subterm without a handler (the caller caches it across passes)."""

    prec: int
    exact: Callable[[Term], Any]
    iv: MPIntervalContext = field(init=False)

    def __post_init__(self) -> None:
        self.iv = _context(self.prec)
        self._points = _points(self.prec)

    def point(self, q: int | Fraction) -> Interval:
        """The enclosure of a rational. Remembered per precision and thread: the same few
        numbers come back in every comparison (a twelfth of the evaluator's time on the
        heaviest problems went into building them again)."""
        hit = self._points.get(q)
        if hit is None:
            f = Fraction(q)
            hit = self.iv.mpf(f.numerator)
            if f.denominator != 1:
                hit = hit / self.iv.mpf(f.denominator)
            if len(self._points) >= POINTS_KEPT:
                self._points.clear()
            self._points[q] = hit
        return hit

    def span(self, lo: Any, hi: Any) -> Interval:
        """The interval between two raw libmp endpoints."""
        return self.iv.make_mpf((lo, hi))

    def between(self, lo: Fraction, hi: Fraction) -> Interval:
        """An interval that contains [lo, hi] (rationals rounded outward)."""
        return self.span(self.point(lo)._mpi_[0], self.point(hi)._mpi_[1])


_contexts = threading.local()  # per thread: one interval context per precision (costly to build)


#: Enclosures of rationals kept per precision and thread (``Enclosing.point``).
POINTS_KEPT = 4096


def _points(prec: int) -> dict[int | Fraction, Interval]:
    by_prec = getattr(_contexts, "points", None)
    if by_prec is None:
        by_prec = _contexts.points = {}
    return by_prec.setdefault(prec, {})


def _context(prec: int) -> MPIntervalContext:
    by_prec = getattr(_contexts, "by_prec", None)
    if by_prec is None:
        by_prec = _contexts.by_prec = {}
    if prec not in by_prec:
        by_prec[prec] = MPIntervalContext()
        by_prec[prec].prec = prec
    return by_prec[prec]


Handler = Callable[[Enclosing, App, list[Interval]], Interval]

#: The enclosure of each operation (``handler(enclosing, term, argument enclosures)``).
INTERVAL: OpTable[Handler] = OpTable("interval evaluator")
_handles = INTERVAL.register


def enclose(t: Term, en: Enclosing) -> Interval:
    """An interval that contains the value of the real-valued term ``t``; Undecided if none."""
    if isinstance(t, Num):
        if t.sort not in _ORDERED:
            raise Undecided("no enclosure of a non-real numeral")
        return en.point(t.value)
    if isinstance(t, App) and t.sort in _ORDERED and t.op in INTERVAL.handlers:
        if t.sort in (RAT, REAL) or t.op in _INTEGER_SAFE:
            return INTERVAL.handlers[t.op](en, t, [enclose(a, en) for a in t.args])
    if isinstance(t, BigOp) and t.sort in (RAT, REAL):
        return _big_operator(t, en)
    try:
        v = en.exact(t)
    except Undecided as e:
        raise NoEnclosure(e.reason) from None
    if is_rational(v):
        return en.point(v)
    raise NoEnclosure(f"no enclosure of {type(t).__name__} {getattr(t, 'op', '')}".rstrip())


#: Most terms of a ∑ / ∏ enclosed term by term (``_big_operator``).
MAX_ENCLOSED_TERMS = 1000


def _big_operator(t: BigOp, en: Enclosing) -> Interval:
    """∑ / ∏ over a finite domain of exact numbers, enclosed term by term: Σ_{n=1}^{44} cos (n°)
    has no exact value but a tight enclosure, which separates it from Σ_{n=1}^{47} cos (n°)."""
    try:
        domain = en.exact(t.domain)
    except Undecided as e:
        raise NoEnclosure(e.reason) from None
    if not isinstance(domain, frozenset) or len(domain) > MAX_ENCLOSED_TERMS \
            or not all(is_rational(x) for x in domain) or t.var.sort not in _ORDERED:
        raise NoEnclosure("no enclosure of a ∑ / ∏ over a domain that is not a small set of numbers")
    total = en.point(0 if t.kind == "sum" else 1)
    for x in sorted(domain):
        term = enclose(substitute(t.body, {t.var: Num(x, t.var.sort)}), en)
        total = total + term if t.kind == "sum" else total * term
    return total


def bounds(x: Interval) -> tuple[Fraction, Fraction]:
    """The exact endpoints of an enclosure (Undecided when infinite, NaN or enormous)."""
    lo, hi = x._mpi_
    return _endpoint(lo), _endpoint(hi)


def ends(x: Interval) -> tuple[Fraction | None, Fraction | None]:
    """``bounds``, with an infinite endpoint as None (an enclosure [0, +∞) of a positive
    value the evaluator cannot compute, Isabelle's ``(-5) powr 3``)."""
    lo, hi = x._mpi_
    return (None if lo == libmp.fninf else _endpoint(lo)), (None if hi == libmp.finf else _endpoint(hi))


def _endpoint(raw: Any) -> Fraction:
    """One exact endpoint (Undecided when infinite, NaN or enormous)."""
    if raw in (libmp.finf, libmp.fninf, libmp.fnan):
        raise Undecided("unbounded enclosure")
    if raw != libmp.fzero and not -4 * MAX_MAGNITUDE_BITS < raw[2] < raw[2] + raw[3] < MAX_MAGNITUDE_BITS:
        raise Undecided("enclosure too large or too fine")
    p, q = libmp.to_rational(raw)
    return Fraction(p, q)


def exact_point(x: Interval) -> Fraction | None:
    """The value of a zero-width enclosure, else None."""
    lo, hi = bounds(x)
    return lo if lo == hi else None


def point_int(x: Interval, what: str) -> int:
    """An argument that must be an exact integer (an exponent, a root's degree)."""
    v = exact_point(x)
    if v is None or v.denominator != 1:
        raise Undecided(f"{what} is not an exact integer")
    return int(v)


def sign(x: Interval) -> int | None:
    """The certified sign of every value in ``x``, or None when it contains values of both."""
    lo, hi = ends(x)
    if lo is not None and lo > 0:
        return 1
    if hi is not None and hi < 0:
        return -1
    if lo == hi == 0:
        return 0
    return None


def separation(a: Interval, b: Interval) -> int | None:
    """The certified sign of a − b (0 only for the same single point), else None."""
    alo, ahi = ends(a)
    blo, bhi = ends(b)
    if ahi is not None and blo is not None and ahi < blo:
        return -1
    if alo is not None and bhi is not None and alo > bhi:
        return 1
    if alo == ahi == blo == bhi and alo is not None:
        return 0
    return None


def _monotone(en: Enclosing, x: Interval, fn: Callable[..., Any], increasing: bool = True) -> Interval:
    """Enclosure of a monotone libmp function ``fn(raw, prec, rnd)`` over ``x``."""
    lo, hi = x._mpi_
    if increasing:
        return en.span(fn(lo, en.prec, libmp.round_floor), fn(hi, en.prec, libmp.round_ceiling))
    return en.span(fn(hi, en.prec, libmp.round_floor), fn(lo, en.prec, libmp.round_ceiling))


def _clamped(en: Enclosing, x: Interval, low: int | None, high: int | None) -> Interval:
    """``x`` with its endpoints clamped into [low, high] (None: unbounded on that side)."""
    lo, hi = bounds(x)
    if low is not None:
        lo, hi = max(lo, low), max(hi, low)
    if high is not None:
        lo, hi = min(lo, high), min(hi, high)
    return en.between(lo, hi)


def _nonzero(x: Interval, what: str) -> bool:
    """Whether ``x`` excludes 0 (False when it is exactly 0; Undecided when it straddles)."""
    s = sign(x)
    if s is None:
        raise Undecided(f"{what}: the enclosure contains 0")
    return s != 0


# -- arithmetic ------------------------------------------------------------------------


@_handles("add")
def _add(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    return xs[0] + xs[1]


@_handles("mul")
def _mul(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    return xs[0] * xs[1]


@_handles("neg")
def _neg(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    return -xs[0]


@_handles("sub")
def _sub(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    d = xs[0] - xs[1]
    return _clamped(en, d, 0, None) if t.sort == NAT else d  # truncated subtraction on ℕ


@_handles("div")
def _div(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    return xs[0] / xs[1] if _nonzero(xs[1], "divisor") else en.point(0)  # x / 0 = 0


@_handles("inv")
def _inv(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    return 1 / xs[0] if _nonzero(xs[0], "inverse") else en.point(0)


@_handles("cast")
def _cast(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    return xs[0]


@_handles("abs")
def _abs(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    return abs(xs[0])


@_handles("min", "max")
def _min_max(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    (alo, ahi), (blo, bhi) = bounds(xs[0]), bounds(xs[1])
    pick = min if t.op == "min" else max
    return en.between(pick(alo, blo), pick(ahi, bhi))


@_handles("sign")
def _sign(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    s = sign(xs[0])
    if s is None:
        raise Undecided("sign of an enclosure containing 0")
    return en.point(s)


@_handles("pow", "zpow")
def _pow(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    n = point_int(xs[1], "exponent")
    if abs(n) > MAX_EXPONENT:
        raise Undecided("exponent too large")
    if n >= 0:
        return xs[0] ** n
    return 1 / xs[0] ** (-n) if _nonzero(xs[0], "negative power") else en.point(0)  # 0⁻¹ = 0


# -- roots, exp, log, powers with real exponents ---------------------------------------


@_handles("sqrt")
def _sqrt(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    return en.iv.sqrt(_clamped(en, xs[0], 0, None))  # Real.sqrt x = √(max x 0)


def _odd_extension(en: Enclosing, x: Interval, root: Callable[[Interval], Interval]) -> Interval:
    """sign(x)·root(|x|) for an increasing ``root`` with root(0) = 0 (Isabelle sqrt, root)."""
    lo, hi = bounds(x)
    up = root(_clamped(en, x, 0, None))
    down = -root(_clamped(en, -x, 0, None))
    if lo >= 0:
        return up
    if hi <= 0:
        return down
    return en.span(down._mpi_[0], up._mpi_[1])


@_handles("signed_sqrt")
def _signed_sqrt(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    return _odd_extension(en, xs[0], en.iv.sqrt)


@_handles("root")
def _root(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    n = point_int(xs[0], "root degree")
    if n == 0:
        return en.point(0)
    if n < 0:
        raise Undecided("negative root degree")

    def nth(y: Interval) -> Interval:
        return _monotone(en, y, lambda r, prec, rnd: libmp.mpf_nthroot(r, n, prec, rnd))

    return _odd_extension(en, xs[1], nth)


#: exp is not enclosed beyond this argument: mpmath reduces it by ln 2 computed to as many
#: bits as the argument has (``x powr (5 powr 6431564)`` at x = 2 ran for minutes); far
#: smaller arguments already give values past ``MAX_MAGNITUDE_BITS``, cheaply.
MAX_EXP_ARGUMENT = 2.0**64


def _bounded_exp(en: Enclosing, x: Interval) -> Interval:
    """``exp(x)``; Undecided when ``x`` reaches beyond ±``MAX_EXP_ARGUMENT``."""
    if not (-MAX_EXP_ARGUMENT < float(x.a) and float(x.b) < MAX_EXP_ARGUMENT):
        raise Undecided("exp of an argument too large to enclose")
    return en.iv.exp(x)


@_handles("exp")
def _exp(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    return _bounded_exp(en, xs[0])


def mathlib_log(en: Enclosing, x: Interval) -> Interval:
    """Real.log: log |x|, log 0 = 0."""
    s = sign(x)
    if s is None:
        raise Undecided("log of an enclosure containing 0")
    return en.point(0) if s == 0 else en.iv.log(abs(x))


def isabelle_ln(en: Enclosing, x: Interval) -> Interval:
    """Isabelle ln: enclosed for x > 0 only (unspecified at x ≤ 0)."""
    if sign(x) != 1:
        raise Undecided("Isabelle ln at a point not certified positive")
    return en.iv.log(x)


@_handles("log")
def _log(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    return mathlib_log(en, xs[0])


@_handles("ln")
def _ln(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    return isabelle_ln(en, xs[0])


@_handles("logb", "isa_log")
def _log_base(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    log = mathlib_log if t.op == "logb" else isabelle_ln
    b, x = xs
    lb = log(en, b)
    return log(en, x) / lb if _nonzero(lb, "log of the base") else en.point(0)


@_handles("rpow")
def _rpow(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    """Real.rpow: x > 0: exp(y log x); 0^0 = 1, 0^y = 0; x < 0: exp(y log|x|)·cos(yπ)."""
    x, y = xs
    s = sign(x)
    if s is None:
        raise Undecided("rpow of a base enclosure containing 0")
    if s == 0:
        return en.point(0 if _nonzero(y, "rpow exponent") else 1)
    mag = _bounded_exp(en, y * en.iv.log(abs(x)))
    return mag if s > 0 else mag * en.iv.cos(y * en.iv.pi)


@_handles("powr")
def _powr(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    """Isabelle powr: 0 at x = 0, exp(y ln x) for x > 0; for x < 0 also exp(y ln x), with
    ln x unspecified: some value in (0, +∞), 1 at y = 0 (``(-5) powr 3 + 133 = 0`` is false
    whatever ln (-5) is)."""
    x, y = xs
    s = sign(x)
    if s == 0:
        return en.point(0)
    if s == -1:
        return en.point(1) if sign(y) == 0 else en.iv.mpf([0, en.iv.inf])
    if s != 1:
        raise Undecided("powr of a base not certified positive")
    return _bounded_exp(en, y * en.iv.log(x))


# -- trigonometry ----------------------------------------------------------------------


@_handles("pi")
def _pi(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    return +en.iv.pi


@_handles("sin")
def _sin(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    return en.iv.sin(xs[0])


@_handles("cos")
def _cos(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    return en.iv.cos(xs[0])


@_handles("tan")
def _tan(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    c = en.iv.cos(xs[0])
    return en.iv.sin(xs[0]) / c if _nonzero(c, "tan: cos") else en.point(0)  # sin / cos, / 0 = 0


@_handles("arctan")
def _arctan(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    return _monotone(en, xs[0], libmp.mpf_atan)


@_handles("arcsin", "arccos")
def _clamped_arc(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    """Mathlib clamps the argument into [-1, 1]."""
    x = _clamped(en, xs[0], -1, 1)
    if t.op == "arcsin":
        return _monotone(en, x, libmp.mpf_asin)
    return _monotone(en, x, libmp.mpf_acos, increasing=False)


@_handles("isa_arcsin", "isa_arccos")
def _isabelle_arc(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    lo, hi = bounds(xs[0])
    if lo < -1 or hi > 1:
        raise Undecided("Isabelle arcsin/arccos outside [-1, 1] is unspecified")
    if t.op == "isa_arcsin":
        return _monotone(en, xs[0], libmp.mpf_asin)
    return _monotone(en, xs[0], libmp.mpf_acos, increasing=False)


@_handles("sinh", "cosh", "tanh")
def _hyperbolic(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    up, down = _bounded_exp(en, xs[0]), _bounded_exp(en, -xs[0])
    sinh, cosh = (up - down) / 2, (up + down) / 2
    if t.op == "sinh":
        return sinh
    return cosh if t.op == "cosh" else sinh / cosh


# -- rounding --------------------------------------------------------------------------

_ROUNDING: dict[str, Callable[[Fraction], int]] = {
    "floor": math.floor,
    "ceil": math.ceil,
    "round": lambda v: math.floor(v + Fraction(1, 2)),
    "nat_floor": lambda v: max(math.floor(v), 0),
    "nat_ceil": lambda v: max(math.ceil(v), 0),
}


@_handles(*_ROUNDING)
def _rounding(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    """Exact when both endpoints round to the same integer (rounding is monotone)."""
    lo, hi = bounds(xs[0])
    r = _ROUNDING[t.op]
    if r(lo) != r(hi):
        raise Undecided(f"{t.op} of an enclosure that straddles an integer")
    return en.point(r(lo))


@_handles("to_nat")
def _to_nat(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    """Int.toNat / Isabelle ``nat``: max x 0."""
    return _clamped(en, xs[0], 0, None)


@_handles("frac")
def _frac(en: Enclosing, t: App, xs: list[Interval]) -> Interval:
    lo, hi = bounds(xs[0])
    if math.floor(lo) != math.floor(hi):
        raise Undecided("frac of an enclosure that straddles an integer")
    return xs[0] - en.point(math.floor(lo))
