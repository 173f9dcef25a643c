"""Exact values of sin, cos and tan at rational multiples of π, in a cyclotomic field.

Why: ``cos (2π/7) · cos (4π/7) · cos (8π/7) = 1/8`` and ``sin 20° · sin 40° · sin 80° = √3/8``
are MATH answers, and the evaluator knew them only approximately: the closed forms
(``surds``) have sin and cos at multiples of π/12 only, and interval enclosures never certify
an equality. Every such value lies in ℚ(ζ) for ζ = e^{2πi/M}: cos (2πk/M) = (ζᵏ + ζ⁻ᵏ)/2,
sin (2πk/M) = (ζᵏ − ζ⁻ᵏ)/(2i) with i = ζ^{M/4}, and √m for a rational m (Gauss sums). In
the power basis 1, ζ, …, ζ^{φ(M)−1}, i.e. modulo the cyclotomic polynomial Φ_M, which is
irreducible over ℚ, each element has exactly one representation: a value is 0 iff its
representation is 0 and rational iff it is a constant. So equalities are certified
(``certify``) and rational values read off exactly (``engine.definitions.value_of``).

The fragment, one handler per operation (``ELEMENTS``), with the evaluator's meanings:
subterms the evaluator gives a rational value; + − · and natural powers; x / 0 = 0 (both
languages, in a field); sin, cos, tan at q·π with q rational (tan = sin / cos, so 0 where
cos is 0, as in Mathlib and Isabelle); √ of a rational (Mathlib's ``sqrt`` is 0 below 0,
Isabelle's ``signed_sqrt`` is −√|x|). Anything else, or a field of degree φ(M) above
``MAX_DEGREE``, is no value (None), never a guess.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from functools import lru_cache
from typing import Any

from provers.ir import NAT, RAT, REAL, App, OpTable, Term
from provers.semantics.approx import is_rational
from provers.semantics.surds import PI, factor, form_of, sqrt_of_rational

#: Largest degree φ(M) of the field worked in (products cost O(φ(M)²) rational operations).
MAX_DEGREE = 96
#: Largest natural exponent.
MAX_EXPONENT = 64
#: Most nodes of a term looked at.
MAX_NODES = 200

Element = tuple[Fraction, ...]  # coefficients of 1, ζ, …, ζ^{φ(M)−1}
Exact = Callable[[Term], Any]


class _Outside(Exception):
    """The term is outside the fragment (or beyond its bounds)."""


# --------------------------------------------------------------------------------------
# the field ℚ(ζ_M)
# --------------------------------------------------------------------------------------


@lru_cache(maxsize=64)
def cyclotomic_polynomial(m: int) -> tuple[int, ...]:
    """Φ_m's integer coefficients, constant term first: x^m − 1 divided by Φ_d for every
    proper divisor d of m."""
    poly = [-1] + [0] * (m - 1) + [1]
    for d in range(1, m):
        if m % d == 0:
            poly = _exact_quotient(poly, list(cyclotomic_polynomial(d)))
    return tuple(poly)


def _exact_quotient(a: list[int], b: list[int]) -> list[int]:
    """a / b for integer polynomials with b monic dividing a."""
    a = list(a)
    out = [0] * (len(a) - len(b) + 1)
    for i in range(len(out) - 1, -1, -1):
        c = a[i + len(b) - 1]
        out[i] = c
        for j, bj in enumerate(b):
            a[i + j] -= c * bj
    return out


class Field:
    """ℚ(ζ_M): elements as coefficient tuples of length φ(M)."""

    def __init__(self, m: int) -> None:
        self.m = m
        self.phi = cyclotomic_polynomial(m)
        self.degree = len(self.phi) - 1

    def constant(self, q: Fraction) -> Element:
        return (Fraction(q),) + (Fraction(0),) * (self.degree - 1)

    def root(self, k: int) -> Element:
        """ζᵏ."""
        return self._reduced([Fraction(0)] * (k % self.m) + [Fraction(1)])

    def _reduced(self, coeffs: list[Fraction]) -> Element:
        c = list(coeffs)
        n = self.degree
        for i in range(len(c) - 1, n - 1, -1):  # Φ monic: x^n = −Σ φ_j x^j
            top = c[i]
            if top:
                for j in range(n):
                    c[i - n + j] -= top * self.phi[j]
        c = c[:n] + [Fraction(0)] * max(0, n - len(c))
        return tuple(c)

    def add(self, a: Element, b: Element) -> Element:
        return tuple(x + y for x, y in zip(a, b, strict=True))

    def neg(self, a: Element) -> Element:
        return tuple(-x for x in a)

    def mul(self, a: Element, b: Element) -> Element:
        return self._reduced(_poly_mul(list(a), list(b)))

    def power(self, a: Element, n: int) -> Element:
        out, base = self.constant(Fraction(1)), a
        while n:
            if n & 1:
                out = self.mul(out, base)
            base, n = self.mul(base, base), n >> 1
        return out

    def inverse(self, a: Element) -> Element:
        """a⁻¹ for a ≠ 0: extended Euclid against Φ_M (irreducible, so gcd 1)."""
        r0, r1 = [Fraction(c) for c in self.phi], _trimmed(list(a))
        s0, s1 = [Fraction(0)], [Fraction(1)]
        while len(r1) > 1 or r1[0] == 0:
            if len(r1) == 1:
                raise ArithmeticError("no inverse of 0")
            q, r = _divmod(r0, r1)
            r0, r1 = r1, r
            s0, s1 = s1, _trimmed(_poly_sub(s0, _poly_mul(q, s1)))
        return self._reduced([c / r1[0] for c in s1])

    def is_zero(self, a: Element) -> bool:
        return not any(a)

    def rational(self, a: Element) -> Fraction | None:
        return a[0] if not any(a[1:]) else None


def _trimmed(p: list[Fraction]) -> list[Fraction]:
    while len(p) > 1 and p[-1] == 0:
        p.pop()
    return p or [Fraction(0)]


def _poly_mul(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    out = [Fraction(0)] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                if y:
                    out[i + j] += x * y
    return out


def _poly_sub(a: list[Fraction], b: list[Fraction]) -> list[Fraction]:
    n = max(len(a), len(b))
    return [(a[i] if i < len(a) else 0) - (b[i] if i < len(b) else 0) for i in range(n)]


def _divmod(a: list[Fraction], b: list[Fraction]) -> tuple[list[Fraction], list[Fraction]]:
    a = _trimmed(list(a))
    b = _trimmed(list(b))
    q = [Fraction(0)] * max(1, len(a) - len(b) + 1)
    while len(a) >= len(b) and any(a):
        c = a[-1] / b[-1]
        shift = len(a) - len(b)
        q[shift] = c
        for j, bj in enumerate(b):
            a[shift + j] -= c * bj
        a = _trimmed(a[:-1]) if len(a) > 1 else [Fraction(0)]
    return q, a


# --------------------------------------------------------------------------------------
# which field a term needs
# --------------------------------------------------------------------------------------


def _multiple_of_pi(t: Term, exact: Exact) -> Fraction | None:
    """q with ``t`` = q·π exactly (its closed form, ``surds``), or None."""
    try:
        f = form_of(t, exact)
    except (ArithmeticError, ValueError, RecursionError):
        return None
    if f is None or set(f.terms) - {(1, PI)}:
        return None
    return f.terms.get((1, PI), Fraction(0))


def _order_for_sqrt(m: int) -> int:
    """An M with √m ∈ ℚ(ζ_M), m squarefree: 8 for 2, p for p ≡ 1 (mod 4), 4p otherwise."""
    order = 1
    for p in _prime_divisors(m):
        order = math.lcm(order, 8 if p == 2 else p if p % 4 == 1 else 4 * p)
    return order


def _prime_divisors(m: int) -> list[int]:
    """The primes dividing m (``surds.factor``); outside the fragment where it is not certain."""
    fs = factor(m)
    if fs is None:
        raise _Outside("a number too large to factor")
    return sorted(fs)


# --------------------------------------------------------------------------------------
# elements of terms, one handler per operation
# --------------------------------------------------------------------------------------


class _Reader:
    """Reads terms into one field; ``order`` first collects the M the atoms need."""

    def __init__(self, exact: Exact) -> None:
        self.exact = exact
        self.nodes = 0
        self.field: Field | None = None
        self.m = 1
        self._values: dict[int, Any] = {}

    def value(self, t: Term) -> Any:
        key = id(t)
        if key not in self._values:
            try:
                self._values[key] = self.exact(t)
            except Exception:  # noqa: BLE001 - no exact value: the handlers decide
                self._values[key] = None
        return self._values[key]

    def rational(self, t: Term) -> Fraction | None:
        v = self.value(t)
        return Fraction(v) if is_rational(v) and not isinstance(v, bool) else None

    def need(self, m: int) -> None:
        self.m = math.lcm(self.m, m)

    def element(self, t: Term) -> Element:
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise _Outside("too large")
        q = self.rational(t)
        if q is not None:
            if self.field is None:
                return ()
            return self.field.constant(q)
        if not (isinstance(t, App) and t.sort in (REAL, RAT)):
            raise _Outside("not a real term of the fragment")
        handler = ELEMENTS.get(t.op)
        if handler is None:
            raise _Outside(f"no handler for {t.op}")
        return handler(self, t)


Handler = Callable[[_Reader, App], Element]
ELEMENTS: OpTable[Handler] = OpTable("cyclotomic values")
_element = ELEMENTS.register


def _both(r: _Reader, t: App) -> tuple[Element, Element]:
    return r.element(t.args[0]), r.element(t.args[1])


@_element("add")
def _add(r: _Reader, t: App) -> Element:
    a, b = _both(r, t)
    return r.field.add(a, b) if r.field else ()


@_element("sub")
def _sub(r: _Reader, t: App) -> Element:
    a, b = _both(r, t)
    return r.field.add(a, r.field.neg(b)) if r.field else ()


@_element("neg")
def _neg(r: _Reader, t: App) -> Element:
    a = r.element(t.args[0])
    return r.field.neg(a) if r.field else ()


@_element("mul")
def _mul(r: _Reader, t: App) -> Element:
    a, b = _both(r, t)
    return r.field.mul(a, b) if r.field else ()


def _quotient(r: _Reader, a: Element, b: Element) -> Element:
    if r.field is None:
        return ()
    if r.field.is_zero(b):
        return r.field.constant(Fraction(0))  # x / 0 = 0
    return r.field.mul(a, r.field.inverse(b))


@_element("div")
def _div(r: _Reader, t: App) -> Element:
    a, b = _both(r, t)
    return _quotient(r, a, b)


@_element("inv")
def _inv(r: _Reader, t: App) -> Element:
    b = r.element(t.args[0])
    return _quotient(r, r.field.constant(Fraction(1)) if r.field else (), b)


@_element("pow")
def _pow(r: _Reader, t: App) -> Element:
    n = r.rational(t.args[1]) if t.args[1].sort == NAT else None
    if n is None or n.denominator != 1 or not 0 <= n <= MAX_EXPONENT:
        raise _Outside("exponent")
    a = r.element(t.args[0])
    return r.field.power(a, int(n)) if r.field else ()


def _angle(r: _Reader, t: App, sine: bool) -> Fraction:
    """h with the argument = 2π·h (a rational multiple of π); ζ^{M·h} needs h·M integral,
    and a sine i = ζ^{M/4} too."""
    q = _multiple_of_pi(t.args[0], r.value)
    if q is None:
        raise _Outside("not a rational multiple of π")
    half = q / 2
    r.need(math.lcm(half.denominator, 4) if sine else half.denominator)
    return half


def _cosine(f: Field, half: Fraction) -> Element:
    """cos 2πh = (ζᵏ + ζ⁻ᵏ)/2 with k = h·M."""
    k = int(half * f.m) % f.m
    return f.mul(f.add(f.root(k), f.root(-k)), f.constant(Fraction(1, 2)))


def _sine(f: Field, half: Fraction) -> Element:
    """sin 2πh = (ζᵏ − ζ⁻ᵏ)/(2i) = −i·(ζᵏ − ζ⁻ᵏ)/2, i = ζ^{M/4}."""
    k = int(half * f.m) % f.m
    minus_half_i = f.mul(f.root(f.m // 4), f.constant(Fraction(-1, 2)))
    return f.mul(f.add(f.root(k), f.neg(f.root(-k))), minus_half_i)


@_element("cos")
def _cos(r: _Reader, t: App) -> Element:
    half = _angle(r, t, sine=False)
    return _cosine(r.field, half) if r.field else ()


@_element("sin")
def _sin(r: _Reader, t: App) -> Element:
    half = _angle(r, t, sine=True)
    return _sine(r.field, half) if r.field else ()


@_element("tan")
def _tan(r: _Reader, t: App) -> Element:
    half = _angle(r, t, sine=True)
    if r.field is None:
        return ()
    return _quotient(r, _sine(r.field, half), _cosine(r.field, half))  # sin / cos, / 0 = 0


def _root(r: _Reader, t: App, below_zero: Callable[[Fraction], Fraction | None]) -> Element:
    """√q for a rational q ≥ 0; below 0 what ``below_zero(q)`` says (the rational whose root
    is taken, with a sign) — None: outside."""
    q = r.rational(t.args[0])
    if q is None:
        raise _Outside("root of an irrational value")
    sign = 1
    if q < 0:
        target = below_zero(q)
        if target is None or target == 0:
            return r.field.constant(Fraction(0)) if r.field else ()
        sign, q = (-1 if target < 0 else 1), abs(target)
    form = sqrt_of_rational(q)  # s·√m with m squarefree
    if form is None:
        raise _Outside("root of a large number")
    if not form.terms:
        return r.field.constant(Fraction(0)) if r.field else ()
    ((m, _), scale), = form.terms.items()
    r.need(_order_for_sqrt(m))
    if r.field is None:
        return ()
    return r.field.mul(r.field.constant(sign * scale), _sqrt_squarefree(r.field, m))


def _sqrt_squarefree(f: Field, m: int) -> Element:
    """√m in ℚ(ζ_M): √2 = ζ₈ + ζ₈⁻¹; √p* = Σ (a/p) ζ_pᵃ (Gauss) with p* = ±p, and √p = −i·√−p."""
    out = f.constant(Fraction(1))
    for p in _prime_divisors(m):
        if p == 2:
            step = f.m // 8
            s = f.add(f.root(step), f.root(-step))
        else:
            step = f.m // p
            s = f.constant(Fraction(0))
            for a in range(1, p):
                legendre = pow(a, (p - 1) // 2, p)
                s = f.add(s, f.root(a * step) if legendre == 1 else f.neg(f.root(a * step)))
            if p % 4 == 3:  # s = √−p = i·√p
                s = f.mul(s, f.neg(f.root(f.m // 4)))
        out = f.mul(out, s)
    return out


@_element("sqrt")
def _sqrt(r: _Reader, t: App) -> Element:
    return _root(r, t, lambda q: Fraction(0))  # Mathlib: 0 below 0


@_element("signed_sqrt")
def _signed_sqrt(r: _Reader, t: App) -> Element:
    return _root(r, t, lambda q: q)  # Isabelle: −√|x| below 0


def _read(terms: tuple[Term, ...], exact: Exact) -> tuple[Field, list[Element]] | None:
    """The elements of ``terms`` in one field, or None (outside the fragment or its bounds)."""
    reader = _Reader(exact)
    try:
        for t in terms:  # first pass: the order M every atom needs
            reader.element(t)
        if reader.m == 1 or _totient(reader.m) > MAX_DEGREE:
            return None  # no atom (the evaluator is exact there already), or too large
        reader.field = Field(reader.m)
        reader.nodes = 0
        return reader.field, [reader.element(t) for t in terms]
    except (_Outside, ZeroDivisionError, ArithmeticError, ValueError, RecursionError):
        return None


def _totient(m: int) -> int:
    out = m
    for p in _prime_divisors(m):
        out -= out // p
    return out


def difference_is_zero(a: Term, b: Term, exact: Exact) -> bool | None:
    """Whether a − b is exactly 0, for real terms of the fragment; None outside it."""
    read = _read((a, b), exact)
    if read is None:
        return None
    f, (ea, eb) = read
    return f.is_zero(f.add(ea, f.neg(eb)))


def rational_value(t: Term, exact: Exact) -> Fraction | None:
    """The value of ``t`` when it is a rational number (cos(2π/7)·cos(4π/7)·cos(8π/7) = 1/8);
    None when it is irrational or outside the fragment."""
    if t.sort not in (REAL, RAT):
        return None
    read = _read((t,), exact)
    return None if read is None else read[0].rational(read[1][0])


__all__ = ["ELEMENTS", "MAX_DEGREE", "Field", "cyclotomic_polynomial", "difference_is_zero", "rational_value"]
