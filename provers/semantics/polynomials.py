"""Polynomials in one bound variable: coefficients, roots and sign cells.

Why a module of its own: the finite domains of ``domains`` and the evaluator's quantifiers
both read a guard or a body as a polynomial in the variable they bind — ``a − b`` as c₁·v + c₀
(``linear_in``, ``linear_solutions``), as Σ cₖ·vᵏ with rational roots (``polynomial_roots``)
or real ones isolated exactly (``real_roots``), and a formula comparing such polynomials as
one truth value per sign cell (``polynomial_cells``, with sums over ranges that depend on v
read in closed form first, ``with_sums_in_closed_form``). Nothing here enumerates a domain.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from provers.ir import (
    INT,
    INTERVALS,
    NAT,
    RAT,
    REAL,
    App,
    BigOp,
    Num,
    Quant,
    SetBuilder,
    Term,
    Var,
    and_,
    app,
    by_identity,
    free_vars,
    map_term,
    or_,
    subterms,
)
from provers.semantics.approx import is_rational
from provers.semantics.closed_forms import PolynomialReader, closed_form


def linear_in(v: Var, a: Term, b: Term, value_of: Callable[[Term], Any] | None = None) -> tuple[Fraction, Fraction] | None:
    """(c₁, c₀) when ``a − b`` is c₁·v + c₀ with rational coefficients and c₁ ≠ 0; with
    ``value_of``, v-free factors that are not numerals (``9 powr 3``, a bound variable's
    value) count by their exact value."""
    if v.sort not in (NAT, INT, RAT, REAL):
        return None
    diff = difference_polynomial(v, a, b, False)
    if diff is None:
        return None
    c1 = c0 = Fraction(0)
    for (deg, r, atoms), c in diff.items():
        if not c:
            continue
        if value_of is not None:
            c = valued_coefficient(c, atoms, value_of)
            if c is None:
                return None
        if (atoms and value_of is None) or r != 1 or deg > 1:
            return None
        if deg == 1:
            c1 += c
        else:
            c0 += c
    return (c1, c0) if c1 else None


def affine_coefficients(v: Var, t: Term) -> tuple[Fraction, Fraction] | None:
    """(c₁, c₀) when ``t`` is c₁·v + c₀ with numerals (c₁ ≠ 0), else None."""
    return linear_in(v, t, Num(0, t.sort))


def valued_coefficient(c: Fraction, atoms: tuple[Term, ...], value: Callable[[Term], Any]) -> Fraction | None:
    """A monomial's coefficient times the exact values of its v-free atoms (``9 powr 3``, a
    bound variable's value), or None when one has no exact rational value."""
    for atom in atoms:
        w = value(atom)
        if not is_rational(w) or isinstance(w, bool):
            return None
        c *= Fraction(w)
    return c


#: Largest degree of a polynomial equation whose roots bound its variable.
MAX_ROOT_DEGREE = 6


def polynomial_roots(v: Var, a: Term, b: Term, value: Callable[[Term], Any],
                     nonnegative: bool = False) -> frozenset | None:
    """The values of ``v`` where ``a = b`` holds when ``a − b`` is a polynomial in v of degree
    2 … ``MAX_ROOT_DEGREE`` with coefficients of exact rational value: its integer roots over
    ℕ / ℤ, its rational roots over ℚ, and over ℝ its rational roots when it has no other real
    root (None otherwise: an irrational root has no exact value here). ``∃ k. k² = n`` is
    then decided at every n, and ``x² − 5x + 6 = 0`` bounds x to {2, 3}.

    ``nonnegative``: another guard says v ≥ 0 (over ℚ / ℝ), so only the roots ≥ 0 count and
    Isabelle's ``v powr k`` (k a positive integer numeral; unspecified for v < 0, 0 at v = 0)
    reads as ``v ^ k``: GPT-4's Isabelle writes ``r powr 3`` for a positive root r."""
    if v.sort not in (NAT, INT, RAT, REAL):
        return None
    coeffs = polynomial_coefficients(v, a, b, value, nonnegative)
    if coeffs is None or not 2 <= len(coeffs) - 1 <= MAX_ROOT_DEGREE:
        return None
    roots, complete = _rational_roots(coeffs, nonnegative)
    if v.sort in (NAT, INT):
        return frozenset(int(r) for r in roots if r.denominator == 1 and (v.sort == INT or r >= 0))
    return roots if v.sort == RAT or complete else None


def polynomial_coefficients(v: Var, a: Term, b: Term, value: Callable[[Term], Any],
                            powr_as_pow: bool) -> tuple[Fraction, ...] | None:
    """The coefficients of ``a − b`` as a polynomial in ``v`` from degree 0 up to its degree
    (``()`` for 0), each with its v-free atoms at their exact values, or None."""
    diff = difference_polynomial(v, a, b, powr_as_pow)
    if diff is None:
        return None
    coeffs: dict[int, Fraction] = {}
    for (deg, ratio, atoms), c in diff.items():
        c = valued_coefficient(c, atoms, value) if ratio == 1 else None
        if c is None:
            return None
        coeffs[deg] = coeffs.get(deg, Fraction(0)) + c
    degree = max((d for d, c in coeffs.items() if c), default=-1)
    return tuple(coeffs.get(d, Fraction(0)) for d in range(degree + 1))


@functools.lru_cache(maxsize=1024)
def _rational_roots(coeffs: tuple[Fraction, ...], nonnegative: bool = False) -> tuple[frozenset, bool]:
    """(the rational roots of Σ coeffs[i]·xⁱ, whether they are all of its real roots), both
    among the roots ≥ 0 only when ``nonnegative``."""
    import sympy

    x = sympy.Symbol("x")
    p = sympy.Poly([sympy.Rational(c.numerator, c.denominator) for c in reversed(coeffs)], x, domain="QQ")
    p = p.sqf_part()
    roots = frozenset(Fraction(int(r.p), int(r.q)) for r in p.ground_roots())
    if nonnegative:
        roots = frozenset(r for r in roots if r >= 0)
        return roots, p.count_roots(inf=0) == len(roots)
    return roots, p.count_roots() == len(roots)


#: Connectives through which ``polynomial_cells`` reads a set-builder's body.
_CONNECTIVES = frozenset({"and", "or", "not", "implies", "iff"})


#: Comparisons it reads as sign conditions of a polynomial in the set's variable.
_COMPARISONS = frozenset({"lt", "le", "gt", "ge", "eq", "ne"})


#: Largest degree of such a polynomial (its real roots are isolated exactly by sympy).
MAX_CELL_DEGREE = 8


def polynomial_cells(v: Var, body: Term, value: Callable[[Term], Any]
                     ) -> tuple[tuple[Fraction, ...], tuple[Any, ...]] | None:
    """``(samples, roots)`` for ``{v | body}`` over ℝ, ℚ, ℕ or ℤ when ``body`` is a combination
    by connectives of comparisons (and memberships in intervals with v-free ends) whose sides
    are polynomials in ``v`` of degree ≤
    ``MAX_CELL_DEGREE`` with coefficients of exact rational value (other variables at their
    values); else None. ``roots``: the real roots of the compared polynomials in increasing
    order, rational ones as ``Fraction``, the others as ``algebraic.AlgebraicReal`` (the exact
    evaluator decides ``body`` there); ``samples``: a rational point below the first root, one
    strictly between each two consecutive ones and one above the last, so that
    ``samples[i] < roots[i] < samples[i + 1]``.

    Why: on such an interval no compared polynomial changes sign, so ``body`` has one truth
    value there. True at a sample: the set contains an open interval and is infinite
    (``card {x. 0 < x ∧ x² + 4x + 4 < 20}`` is 0 in both libraries); false at every sample:
    the set is the roots where ``body`` holds, finite. Over ℕ or ℤ the outer samples are
    integers: true beyond every root, the set is infinite."""
    if v.sort not in (REAL, RAT, NAT, INT):
        return None
    body = with_sums_in_closed_form(v, body)
    polys: set[tuple[Fraction, ...]] = set()
    stack = [body]
    while stack:
        g = stack.pop()
        if v not in free_vars(g):
            continue
        if isinstance(g, App) and g.op in _CONNECTIVES:
            stack.extend(g.args)
            continue
        if isinstance(g, App) and g.op == "mem" and isinstance(g.args[1], App) and g.args[1].op in INTERVALS \
                and v not in free_vars(g.args[1]):
            # e ∈ Ico lo hi: the signs of e − lo and e − hi
            compared = [(g.args[0], bound) for bound in g.args[1].args]
        elif isinstance(g, App) and g.op in _COMPARISONS and len(g.args) == 2:
            compared = [(g.args[0], g.args[1])]
        else:
            return None
        for a, b in compared:
            coeffs = polynomial_coefficients(v, a, b, value, False)
            if coeffs is None or len(coeffs) - 1 > MAX_CELL_DEGREE:
                return None
            if len(coeffs) >= 2:
                polys.add(coeffs)
    return _cells(tuple(sorted(polys)))


#: Most ``if``s one comparison may hold for ``with_sums_in_closed_form`` to split it (2ⁿ cases).
MAX_LIFTED_IFS = 3


@by_identity()
def with_sums_in_closed_form(v: Var, body: Term) -> Term:
    """``body`` with each ∑ over a range that depends on ``v`` in its closed form
    (``closed_forms.closed_form``) and the closed forms' ``if L ≤ E`` guards lifted over the
    comparisons they sit in (``A[if c then a else b]`` is ``(c ∧ A[a]) ∨ (¬c ∧ A[b])``): the
    same predicate, and one ``polynomial_cells`` reads — ``(∑ i = −25..m. i) < 26`` is
    ``(−25 ≤ m + 1 ∧ (m² + m − 650) div 2 < 26) ∨ (¬(−25 ≤ m + 1) ∧ 0 < 26)``. ``body``
    itself when no such sum has a closed form."""
    sums = [s for s in subterms(body) if isinstance(s, BigOp) and s.kind == "sum" and v in free_vars(s.domain)]
    if not sums:
        return body
    forms = {s: closed_form(s) for s in sums}
    if any(f is None for f in forms.values()):
        return body
    replaced = map_term(body, lambda s: forms.get(s) if isinstance(s, BigOp) else None)

    def lift(g: Term, budget: int) -> Term | None:
        if isinstance(g, App) and g.op in _CONNECTIVES:
            args = [lift(a, budget) for a in g.args]
            return None if any(a is None for a in args) else app(g.op, *args)
        ite = next((s for s in subterms(g) if isinstance(s, App) and s.op == "ite"), None)
        if ite is None:
            return g
        if budget == 0 or any(isinstance(s, (Quant, BigOp, SetBuilder)) for s in subterms(g)):
            return None
        c, a, b = ite.args
        then = lift(map_term(g, lambda s: a if s == ite else None), budget - 1)
        other = lift(map_term(g, lambda s: b if s == ite else None), budget - 1)
        if then is None or other is None:
            return None
        return or_(and_(c, then), and_(app("not", c), other))

    lifted = lift(replaced, MAX_LIFTED_IFS)
    return body if lifted is None else lifted


@functools.lru_cache(maxsize=1024)
def _cells(polys: tuple[tuple[Fraction, ...], ...]) -> tuple[tuple[Fraction, ...], tuple[Any, ...]] | None:
    """``polynomial_cells`` of these polynomials (coefficients from degree 0 up); every
    comparison is exact (sympy); None when two roots could not be separated."""
    import sympy

    rational: set[Fraction] = set()
    irrational: list[Any] = []
    for coeffs in polys:
        rs, irr = real_roots(coeffs)
        rational.update(rs)
        irrational.extend(r for r in irr if not any(r == s for s in irrational))
    if not rational and not irrational:
        return (Fraction(0),), ()
    exact = [(sympy.Rational(q.numerator, q.denominator), q) for q in rational] + [(r.sympy(), r) for r in irrational]
    exact.sort(key=lambda pair: sympy.Float(pair[0].evalf(40), 40))
    ordered = [e for e, _ in exact]
    samples = [Fraction(math.floor(ordered[0].evalf(30))) - 1]
    for lo, hi in zip(ordered, ordered[1:], strict=False):
        q = _rational_between(lo, hi)
        if q is None:
            return None
        samples.append(q)
    samples.append(Fraction(math.ceil(ordered[-1].evalf(30))) + 1)
    return tuple(samples), tuple(r for _, r in exact)


@functools.lru_cache(maxsize=1024)
def real_roots(coeffs: tuple[Fraction, ...]) -> tuple[tuple[Fraction, ...], tuple[Any, ...]]:
    """Every real root of Σ coeffs[i]·xⁱ (a nonzero polynomial), each once: the rational ones,
    and the others as ``algebraic.AlgebraicReal`` (an irreducible factor of degree ≥ 2 and
    an isolating interval from sympy's exact real-root isolation)."""
    import sympy

    from provers.semantics.algebraic import AlgebraicReal

    x = sympy.Symbol("x")
    p = sympy.Poly([sympy.Rational(c.numerator, c.denominator) for c in reversed(coeffs)], x, domain="QQ")
    rational: list[Fraction] = []
    irrational: list[Any] = []
    for f, _mult in p.factor_list()[1]:
        _, g = f.clear_denoms()
        ints = tuple(int(c) for c in reversed(g.all_coeffs()))
        if len(ints) == 2:
            rational.append(Fraction(-ints[0], ints[1]))
            continue
        for (lo, hi), _m in g.intervals():
            irrational.append(AlgebraicReal(ints, Fraction(int(lo.p), int(lo.q)), Fraction(int(hi.p), int(hi.q))))
    return tuple(sorted(set(rational))), tuple(irrational)


def _rational_between(lo: Any, hi: Any) -> Fraction | None:
    """A rational strictly between two real algebraic numbers, checked exactly."""
    import sympy

    for digits in (30, 60, 120):
        a, b = sympy.Rational(lo.evalf(digits)), sympy.Rational(hi.evalf(digits))
        q = (a + b) / 2
        if bool(lo < q) and bool(q < hi):
            return Fraction(int(q.p), int(q.q))
    return None


def says_nonnegative(v: Var, g: Term) -> bool:
    """``0 < v``, ``0 ≤ v``, ``v > 0`` or ``v ≥ 0``."""
    if not (isinstance(g, App) and len(g.args) == 2 and g.op in ("lt", "le", "gt", "ge")):
        return False
    lhs, rhs = g.args if g.op in ("lt", "le") else reversed(g.args)
    return rhs == v and isinstance(lhs, Num) and lhs.value == 0


def _powr_as_pow(v: Var, t: Term) -> Term:
    """``t`` with ``v powr k`` (k a positive integer numeral) written ``v ^ k``: equal where
    v ≥ 0 (``0 powr k = 0``)."""
    def rewrite(s: Term) -> Term | None:
        if isinstance(s, App) and s.op == "powr" and s.args[0] == v and isinstance(s.args[1], Num):
            k = s.args[1].value
            if k == int(k) and 0 < k <= 64:
                return app("pow", v, Num(int(k), NAT))
        return None

    return map_term(t, rewrite)


@by_identity()  # a guard is read again at every point a quantifier over it is evaluated at
def difference_polynomial(v: Var, a: Term, b: Term, powr_as_pow: bool) -> dict | None:
    """``a − b`` read as a polynomial in ``v`` (``PolynomialReader`` monomials), or None
    (``∃ a b. … ∧ n = 100·a + b``: read at 90 values of a at each sampled n). ``powr_as_pow``
    is always passed: the cache keys its positional arguments, so the linear and polynomial
    readings of one guard share one entry."""
    if powr_as_pow:
        a, b = _powr_as_pow(v, a), _powr_as_pow(v, b)
    reader = PolynomialReader(v, None)
    p, q = reader.read(a), reader.read(b)
    if p is None or q is None:
        return None
    diff = dict(p)
    for m, c in q.items():
        diff[m] = diff.get(m, Fraction(0)) - c
    return diff


def linear_solutions(v: Var, a: Term, b: Term, value_of: Callable[[Term], Any] | None = None) -> frozenset | None:
    """The values of ``v`` where ``a = b`` holds when ``a − b`` is linear in v with numeral
    coefficients (or, with ``value_of``, coefficients of known value: ``60 + n = k · n`` at a
    given n) — one value, or none in ℕ/ℤ when the root is not one — else None."""
    line = linear_in(v, a, b, value_of)
    if line is None:
        return None
    root = -line[1] / line[0]
    if v.sort in (NAT, INT):
        ok = root.denominator == 1 and (v.sort == INT or root >= 0)
        return frozenset({int(root)}) if ok else frozenset()
    return frozenset({root})
