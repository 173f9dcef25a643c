"""Closed forms of ∑ over integer ranges with symbolic bounds (Faulhaber, geometric series,
rows of Pascal's triangle).

Why: solvers cannot reason about ``∑ k in range n, (2k+1)`` for all n (the lowering gives it
an opaque value pinned only at n = 0..4), so two candidates that sum the same thing in
different ways (``range n`` vs ``Icc 1 n``, ``2k+1`` vs ``2k-1``) stayed apart. Here a sum
whose body is exactly a polynomial in the index (with coefficients free of it) plus
geometric terms ``c·r^k`` becomes one IR term in the bounds, with the IR's own semantics:

* the body is read as a polynomial only where that is its exact meaning: ring operations,
  casts (ring embeddings), field division by a numeral, numeral powers, and ℕ subtraction
  ``a - b`` only when ``a - b ≥ 0`` is proved on the whole index domain (``2k - 1`` on
  ``Icc 1 n`` is polynomial, on ``range n`` it is not: it truncates at k = 0);
* ``Σ_{k=L}^{E-1} p(k) = F(E) - F(L)`` with ``F(m) = Σ_{k<m} p(k)`` (exact rational
  coefficients, fitted by interpolation) and ``Σ r^k = (r^E - r^L) / (r - 1)``; a range
  that may be empty (``E < L`` possible) is guarded by ``if L ≤ E``;
* over ℕ / ℤ the value is computed in ℤ as ``N / D`` with ``D`` the common denominator:
  ``D`` divides ``N`` exactly, so Euclidean division is exact, and a ℕ sum is ``toNat`` of it.
A whole row of binomials ``∑ k ∈ {0..n}. C(n, k)`` is ``2 ^ n``, and a sum inside the body
is read through its own closed form (``∑ j < n. ∑ k ≤ j. C(j, k)`` is geometric).
Anything else (ℕ/ℤ division, ``%``, ``ite``, products of geometric and polynomial terms,
complex numbers) gives ``None``: the caller keeps its other encoding.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache, lru_cache
from math import lcm

from provers.ir import (
    COMPLEX,
    INT,
    INTERVALS,
    NAT,
    RAT,
    REAL,
    App,
    BigOp,
    Num,
    Term,
    Var,
    app,
    cast,
    free_vars,
    is_numeric,
)
from provers.ir.sorts import Sort

#: Largest power of the index (after expansion) given a closed form.
MAX_DEGREE = 12
#: Largest numeral exponent expanded while reading a polynomial.
MAX_EXPONENT = 12

#: A monomial: the index's degree, a geometric base (1 for none) and a sorted tuple of
#: atoms (index-free terms the polynomial does not look into, with multiplicity).
Monomial = tuple[int, Fraction, tuple[Term, ...]]
Poly = dict[Monomial, Fraction]

_ONE: Monomial = (0, Fraction(1), ())


def _key(t: Term) -> str:
    return repr(t)


def _mono_mul(a: Monomial, b: Monomial) -> Monomial:
    return (a[0] + b[0], a[1] * b[1], tuple(sorted(a[2] + b[2], key=_key)))


def _add(p: Poly, q: Poly, scale: Fraction = Fraction(1)) -> Poly:
    out = dict(p)
    for m, c in q.items():
        out[m] = out.get(m, Fraction(0)) + scale * c
        if out[m] == 0:
            del out[m]
    return out


def _mul(p: Poly, q: Poly) -> Poly:
    out: Poly = {}
    for m1, c1 in p.items():
        for m2, c2 in q.items():
            out = _add(out, {_mono_mul(m1, m2): c1 * c2})
    return out


def _const(c: Fraction | int) -> Poly:
    return {_ONE: Fraction(c)} if c else {}


def _atom(t: Term) -> Poly:
    return {(0, Fraction(1), (t,)): Fraction(1)}


class PolynomialReader:
    """Reads a term as a polynomial in ``index`` (None where that is not its exact meaning)."""

    def __init__(self, index: Var | None, low: int | None):
        self.index = index
        self.low = low  # a proved lower bound of the index on the domain, or None

    def read(self, t: Term) -> Poly | None:
        if isinstance(t, Num):
            return _const(Fraction(t.value))
        if self.index is not None and t == self.index:
            return {(1, Fraction(1), ()): Fraction(1)}
        if isinstance(t, BigOp) and self.index is not None and self.index in free_vars(t):
            inner = closed_form(t)  # ∑ j ≤ k. C(k, j) is 2 ^ k: the outer sum reads that
            return None if inner is None else self.read(inner)
        if isinstance(t, App) and t.sort != COMPLEX:
            handler = _READERS.get(t.op)
            if handler is not None:
                out = handler(self, t)
                if out is not None:
                    return out
        if self.index is None or self.index not in free_vars(t):
            return _atom(_strip_casts(t)) if _numeric_scalar(t) else None
        return None

    def read_add(self, t: App) -> Poly | None:
        a, b = self.read(t.args[0]), self.read(t.args[1])
        return None if a is None or b is None else _add(a, b)

    def read_mul(self, t: App) -> Poly | None:
        a, b = self.read(t.args[0]), self.read(t.args[1])
        return None if a is None or b is None else _mul(a, b)

    def read_neg(self, t: App) -> Poly | None:
        a = self.read(t.args[0])
        return None if a is None else _add({}, a, Fraction(-1))

    def read_sub(self, t: App) -> Poly | None:
        a, b = self.read(t.args[0]), self.read(t.args[1])
        if a is None or b is None:
            return None
        d = _add(a, b, Fraction(-1))
        if t.sort == NAT and not self._nonnegative(d):
            return None  # truncation may bite: not a polynomial on this domain
        return d

    def read_cast(self, t: App) -> Poly | None:
        return self.read(t.args[0])  # ℕ → ℤ → ℚ → ℝ are ring embeddings

    def read_div(self, t: App) -> Poly | None:
        if t.sort in (NAT, INT):
            return self._exact_quotient(t)  # ℕ division floors: only an exact one reads
        if not isinstance(t.args[1], Num):  # by c·rᵏ (c, r ≠ 0): times c⁻¹·(r⁻¹)ᵏ, in a field
            d = self.read(t.args[1])
            if d is None or len(d) != 1:
                return None
            ((deg, r, atoms), c), = d.items()
            a = self.read(t.args[0])
            if a is None or deg or atoms or r == 0 or c == 0:
                return None
            return _mul(a, {(0, 1 / r, ()): 1 / c})
        if t.args[1].value == 0:
            return None  # x / 0 = 0 is not a polynomial identity
        a = self.read(t.args[0])
        return None if a is None else _add({}, a, 1 / Fraction(t.args[1].value))

    def read_ediv(self, t: App) -> Poly | None:
        return self._exact_quotient(t)

    read_fdiv = read_ediv

    def _exact_quotient(self, t: App) -> Poly | None:
        """``p div d`` over ℕ / ℤ (any rounding) by a nonzero numeral d, as ``p / d`` where that
        is its exact value at every integer: p a polynomial in the index alone with p(k) / d an
        integer at deg p + 1 consecutive k (then at every integer k: an integer-valued
        polynomial is an integer combination of binomials). The closed forms' own
        ``N div D`` (``polynomial_term``) is of this kind: ``(m² + m − 650) div 2``."""
        d = t.args[1]
        if not isinstance(d, Num) or d.value == 0:
            return None
        q = self.read(t.args[0])
        if q is None or any(m[1] != 1 or m[2] for m in q):
            return None
        q = _add({}, q, 1 / Fraction(d.value))
        degree = max((m[0] for m in q), default=0)
        for k in range(degree + 1):
            if sum(c * k ** m[0] for m, c in q.items()).denominator != 1:
                return None
        return q

    def read_pow(self, t: App) -> Poly | None:
        base, e = t.args
        if isinstance(e, Num):
            if e.value > MAX_EXPONENT:
                return None
            b = self.read(base)
            if b is None:
                return None
            out = _const(1)
            for _ in range(int(e.value)):
                out = _mul(out, b)
            return out
        if self.index is None or self.index not in free_vars(e):
            return None
        if not isinstance(base, Num):  # a numeral quotient (3 / 2) ^ k
            b = PolynomialReader(None, None).read(base)
            if b is None or set(b) - {_ONE}:
                return None
            base = Num(b.get(_ONE, Fraction(0)), base.sort)
        # r ^ (a·k + b) = r^b · (r^a)^k with a ∈ ℕ, b ∈ ℤ numerals (b < 0: r ≠ 0, in ℚ; the
        # exponent is read exactly on the domain, so a·k + b ≥ 0 there: r ^ (k - 1) for k ≥ 1)
        ep = PolynomialReader(self.index, self.low).read(e)
        if ep is None or any(m[1] != 1 or m[2] or m[0] > 1 for m in ep) or any(c.denominator != 1 for c in ep.values()):
            return None
        a, b = int(ep.get((1, Fraction(1), ()), 0)), int(ep.get(_ONE, 0))
        r = Fraction(base.value)
        if a < 0 or (b < 0 and r == 0):
            return None
        return {(0, r**a, ()): r**b} if a else None

    def read_powr(self, t: App) -> Poly | None:
        """``b powr ↑e`` (Isabelle) and ``b ^ (↑e : ℝ)`` (Mathlib's rpow) with a positive
        numeral base and a ℕ exponent cast to ℝ are ``b ^ e``: exp(e · ln b) = bᵉ."""
        base, e = t.args
        if not (isinstance(base, Num) and isinstance(base.value, (int, Fraction)) and base.value > 0
                and isinstance(e, App) and e.op == "cast" and e.args[0].sort == NAT):
            return None
        return self.read_pow(app("pow", base, e.args[0]))

    read_rpow = read_powr

    def _nonnegative(self, d: Poly) -> bool:
        """d ≥ 0 for every index value ≥ the domain's lower bound (coefficients of the
        Taylor shift all ≥ 0); only for polynomials in the index alone."""
        if any(m[1] != 1 or m[2] for m in d):
            return False
        if not any(m[0] for m in d):
            return d.get(_ONE, Fraction(0)) >= 0
        if self.low is None:
            return False
        shifted: Poly = {}
        step = {(1, Fraction(1), ()): Fraction(1), **_const(self.low)}
        for (deg, _, _), c in d.items():
            power = _const(1)
            for _ in range(deg):
                power = _mul(power, step)
            shifted = _add(shifted, power, c)
        return all(c >= 0 for c in shifted.values())


#: How each operation is read as a polynomial (absent: an atom when free of the index).
_READERS = {op: getattr(PolynomialReader, f"read_{op}")
            for op in ("add", "mul", "neg", "sub", "cast", "div", "ediv", "fdiv", "pow", "powr", "rpow")}


def _numeric_scalar(t: Term) -> bool:
    return is_numeric(t.sort) and t.sort != COMPLEX


def _strip_casts(t: Term) -> Term:
    while isinstance(t, App) and t.op == "cast":
        t = t.args[0]
    return t


@cache
def faulhaber(d: int) -> tuple[Fraction, ...]:
    """Coefficients (constant first) of F(m) = Σ_{k<m} k^d, a polynomial of degree d + 1,
    fitted exactly by Lagrange interpolation at m = 0..d+1."""
    xs = list(range(d + 2))
    ys, acc = [], Fraction(0)
    for m in xs:
        ys.append(acc)
        acc += Fraction(m) ** d if (m or d) else Fraction(1)
    coeffs = [Fraction(0)] * (d + 2)
    for i, xi in enumerate(xs):
        basis = [Fraction(1)]
        denom = Fraction(1)
        for j, xj in enumerate(xs):
            if j == i:
                continue
            basis = [Fraction(0)] + basis  # multiply by (m - xj)
            for q in range(len(basis) - 1):
                basis[q] -= xj * basis[q + 1]
            denom *= xi - xj
        for q, c in enumerate(basis):
            coeffs[q] += ys[i] * c / denom
    return tuple(coeffs)


def _compose(coeffs: tuple[Fraction, ...], x: Poly) -> Poly:
    out: Poly = {}
    power = _const(1)
    for c in coeffs:
        out = _add(out, power, c)
        power = _mul(power, x)
    return out


def _bounds(domain: Term) -> tuple[Term, Term, int | None] | None:
    """(L, E, a lower bound of the index) with the domain = {k | L ≤ k < E} (L, E of the
    index sort), or None for other domains."""
    if not isinstance(domain, App):
        return None
    if domain.op == "range":
        return Num(0, NAT), domain.args[0], 0
    if domain.op not in INTERVALS or domain.args[0].sort not in (NAT, INT):
        return None
    a, b = domain.args
    one = Num(1, a.sort)
    lo = a if domain.op in ("Icc", "Ico") else app("add", a, one)
    end = app("add", b, one) if domain.op in ("Icc", "Ioc") else b
    low = int(a.value) + (domain.op in ("Ioc", "Ioo")) if isinstance(a, Num) else (0 if a.sort == NAT else None)
    return lo, end, low


@lru_cache(maxsize=4096)
def closed_form(t: BigOp) -> Term | None:
    """An IR term equal to the sum ``t`` for every value of its free variables, or None."""
    found = closed_form_with_facts(t)
    return None if found is None else found[0]


def closed_form_with_facts(t: BigOp) -> tuple[Term, list[Term]] | None:
    """The closed form and facts true for every value that help a solver use it: over ℕ/ℤ,
    ``N % D = 0`` for the numerator (D divides N exactly, e.g. 2 ∣ n² - n, which a solver
    cannot derive itself and needs to compare with ``n * (n - 1) / 2``)."""
    if t.kind != "sum" or t.sort == COMPLEX or not _numeric_scalar(t.body):
        return None
    b = _bounds(t.domain)
    if b is None:
        return None
    lo, end, low = b
    row = _binomial_row(t, lo, end)
    if row is not None:
        return row, []
    body = PolynomialReader(t.var, low).read(t.body)
    bounds = PolynomialReader(None, None)
    lp, ep = bounds.read(lo), bounds.read(end)
    if body is None or lp is None or ep is None:
        return None
    if any(m[0] > MAX_DEGREE for m in body):
        return None
    if any(m[1] != 1 for m in body) and t.var.sort != NAT:
        return None  # r ^ k needs a ℕ exponent
    total: Poly = {}
    for (deg, r, atoms), c in body.items():
        coeff = {(0, Fraction(1), atoms): c}
        if r == 1:
            f = faulhaber(deg)
            part = _add(_compose(f, ep), _compose(f, lp), Fraction(-1))
        elif deg:
            return None  # k^d · r^k: no closed form here
        else:
            part = _add(_geometric_power(r, end, t.sort), _geometric_power(r, lo, t.sort), Fraction(-1))
            part = _add({}, part, 1 / (r - 1))
        total = _add(total, _mul(coeff, part))
    work = INT if t.sort in (NAT, INT) else t.sort
    value, facts = polynomial_term(total, work)
    if t.sort == NAT:
        value = app("to_nat", value)
    gap = _add(ep, lp, Fraction(-1))
    if not _nonneg_atoms(gap):
        value = app("ite", app("le", cast(lo, work) if lo.sort != work else lo, cast(end, work) if end.sort != work else end),
                    value, Num(0, t.sort) if t.sort == NAT else Num(0, work))
    return value, facts


def _binomial_row(t: BigOp, lo: Term, end: Term) -> Term | None:
    """``∑ k ∈ {0..n}. C(n, k) = 2 ^ n`` (a whole row of Pascal's triangle), for every n; None
    for other sums."""
    body = _strip_casts(t.body)
    if not (isinstance(body, App) and body.op == "choose" and body.args[1] == t.var):
        return None
    n = body.args[0]
    if t.var in free_vars(n):
        return None
    bounds = PolynomialReader(None, None)
    lp, ep, top = bounds.read(lo), bounds.read(end), bounds.read(app("add", n, Num(1, NAT)))
    if lp is None or ep is None or top is None or any(c != 0 for c in lp.values()) \
            or any(c != 0 for c in _add(ep, top, Fraction(-1)).values()):
        return None
    return cast(app("pow", Num(2, NAT), n), t.sort)


def _geometric_power(r: Fraction, exponent: Term, sort: Sort) -> Poly:
    """r ^ exponent (a ℕ term) as a polynomial, a numeral offset pulled out (r^(n+1) = r·r^n)
    so that equal powers written differently meet."""
    ep = PolynomialReader(None, None).read(exponent)
    if ep is not None and set(ep) <= {_ONE}:
        return _const(r ** int(ep.get(_ONE, 0)))
    offset, rest = 0, exponent
    if ep is not None:
        others = [(m, c) for m, c in ep.items() if m != _ONE]
        shift = ep.get(_ONE, Fraction(0))
        if len(others) == 1 and others[0][1] == 1 and others[0][0][0] == 0 and len(others[0][0][2]) == 1 \
                and others[0][0][2][0].sort == NAT and shift.denominator == 1 and shift >= 0:
            offset, rest = int(shift), others[0][0][2][0]
    base = Num(r, INT if sort in (NAT, INT) else sort)
    return {(0, Fraction(1), (app("pow", base, rest),)): r**offset}


def _nonneg_atoms(p: Poly) -> bool:
    """p ≥ 0 for all values: nonnegative coefficients of ℕ-valued atoms."""
    return all(c >= 0 and m[1] == 1 and m[0] == 0 and all(a.sort == NAT for a in m[2]) for m, c in p.items())


def polynomial_term(p: Poly, work: Sort) -> tuple[Term, list[Term]]:
    """The polynomial as an IR term of sort ``work`` (ℤ: Euclidean division by the common
    denominator, exact because the value is an integer: stated as a fact)."""
    denom = lcm(*(c.denominator for c in p.values())) if p and work == INT else 1
    terms: list[Term] = []
    for (_, _, atoms), c in sorted(p.items(), key=lambda mc: (-len(mc[0][2]), [_key(a) for a in mc[0][2]])):
        factors: list[Term] = [_embed(a, work) for a in atoms]
        scaled = c * denom
        prod: Term | None = None
        for f in factors:
            prod = f if prod is None else app("mul", prod, f)
        if prod is None:
            terms.append(Num(scaled, work))
        elif scaled == 1:
            terms.append(prod)
        elif scaled == -1 and work != NAT:
            terms.append(app("neg", prod))
        else:
            terms.append(app("mul", Num(scaled, work), prod))
    out: Term = Num(0, work)
    for i, x in enumerate(terms):
        out = x if i == 0 else app("add", out, x)
    if denom != 1:
        d = Num(denom, INT)
        return app("ediv", out, d), [app("eq", app("emod", out, d), Num(0, INT))]
    return out, []


def _embed(a: Term, work: Sort) -> Term:
    return a if a.sort == work else cast(a, work)


def affine_terms(v: Var, eq: Term) -> tuple[Term, Term] | None:
    """``(c₁, c₀)`` with ``eq`` exactly ``c₁·v + c₀ = 0``, c₁ and c₀ terms of v's sort free of v
    (c₁'s first coefficient positive; over ℤ scaled to integer coefficients), or None when
    ``eq`` is no such equation over v's own sort (v absent, of higher degree, under a function
    the reader does not know)."""
    if not (isinstance(eq, App) and eq.op == "eq" and eq.args[0].sort == v.sort and v.sort in (NAT, INT, RAT, REAL)):
        return None
    reader = PolynomialReader(v, None)
    a, b = reader.read(eq.args[0]), reader.read(eq.args[1])
    if a is None or b is None:
        return None
    ones: Poly = {}
    rest: Poly = {}
    for m, c in [*a.items(), *((m, -c) for m, c in b.items())]:
        deg, ratio, atoms = m
        if ratio != 1 or deg > 1 or any(v in free_vars(x) for x in atoms):
            return None
        part = ones if deg == 1 else rest
        key = (0, ratio, atoms)
        part[key] = part.get(key, Fraction(0)) + c
    ones = {m: c for m, c in ones.items() if c}
    rest = {m: c for m, c in rest.items() if c}
    if not ones:
        return None
    scale = Fraction(lcm(*(c.denominator for c in (*ones.values(), *rest.values()))))
    if min(ones.items(), key=lambda mc: repr(mc[0]))[1] < 0:  # -n·k = … reads n·k = …
        scale = -scale
    work = INT if v.sort == NAT else v.sort  # ℕ's c₀ may be negative
    c1, facts1 = polynomial_term({m: c * scale for m, c in ones.items()}, work)
    c0, facts0 = polynomial_term({m: c * scale for m, c in rest.items()}, work)
    return None if facts1 or facts0 else (c1, c0)


__all__ = ["Poly", "PolynomialReader", "affine_terms", "closed_form", "closed_form_with_facts", "faulhaber", "polynomial_term"]
