"""Irrational algebraic model values (nlsat, cvc5's coverings) and their exact re-check.

Why: a nonlinear real obligation is often refuted only at irrational points (x² = 2 against
x² = 3: every countermodel has x = ±√2). The solvers give such a value as a polynomial and
an isolating interval; ``AlgebraicReal`` keeps exactly that, and ``algebraic_truth`` decides
a formula of the field fragment (numerals, + - * /, natural powers, comparisons,
connectives, if-then-else, and ∀ / ∃ over the finitely many points a guard allows — the roots
of a polynomial equation, ``_State.quantified``; no other binder or operation) at such a point EXACTLY, as the
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

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from provers.ir import (
    BOOL,
    INT,
    NAT,
    RAT,
    REAL,
    App,
    FunSort,
    Num,
    OpTable,
    Quant,
    Term,
    Var,
    app,
    free_vars,
    subterms,
    unfold,
)
from provers.semantics.domains import guards
from provers.semantics.identities import polynomial_identity
from provers.semantics.polynomials import MAX_CELL_DEGREE, polynomial_coefficients, real_roots
from provers.semantics.values import Closure, FunTable, same_closure

#: Bisection rounds before a sign is left undecided (each halves every isolating interval).
MAX_REFINE = 400
#: Refinement round after which a sign not yet separated from 0 gets the exact test for 0.
ZERO_TEST_ROUND = 4
#: Largest natural exponent evaluated.
MAX_EXPONENT = 64
#: Sorts of the field fragment's numbers.
_FIELD = (REAL, RAT)
#: Largest bound on a number's degree (over each radicand, the lcm of its radicals' indices;
#: their product, times its roots' degrees) for which its minimal polynomial is computed.
#: Denominators are rationalized first (``sympy.radsimp``): composed as they were,
#: ``4 / ((√5 + 1)(5^(1/4) + 1)(5^(1/8) + 1)(5^(1/16) + 1))`` ran for minutes in factoring,
#: rationalized it takes 0.2 s, but checking a degree-16 value took a minute more; within
#: bound 4 every case tried took under a second (docs/benchmarks.md).
MAX_DEGREE = 4


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

    @classmethod
    def _trusted(cls, coeffs: tuple[int, ...], lo: Fraction, hi: Fraction) -> AlgebraicReal:
        """Without the root count: for intervals derived from an isolating one by a sign change."""
        out = object.__new__(cls)
        object.__setattr__(out, "coeffs", coeffs)
        object.__setattr__(out, "lo", lo)
        object.__setattr__(out, "hi", hi)
        return out

    def __eq__(self, other: object) -> bool:
        """Exact: the same number, whatever polynomial and interval describe it (two values are
        equal iff the gcd of their polynomials has a root where their intervals overlap)."""
        if isinstance(other, AlgebraicReal):
            lo, hi = max(self.lo, other.lo), min(self.hi, other.hi)
            if lo >= hi:
                return False
            g = _gcd(self.coeffs, other.coeffs)
            return len(g) > 1 and _count_roots(g, lo, hi) == 1
        if isinstance(other, (int, Fraction)) and not isinstance(other, bool):
            return self.lo < other < self.hi and poly_at(self.coeffs, Fraction(other)) == 0
        return NotImplemented

    def __hash__(self) -> int:
        return hash(AlgebraicReal)  # equal numbers may be given by different polynomials

    def __float__(self) -> float:
        v = self
        for _ in range(80):  # to double precision
            if v.hi - v.lo <= abs(v.lo + v.hi) * Fraction(1, 2**54) + Fraction(1, 2**1074):
                break
            v = v.refined()
        return float((v.lo + v.hi) / 2)

    def __str__(self) -> str:
        return f"{float(self):.12g} (the root of {self.polynomial()} in ({self.lo}, {self.hi}))"

    def polynomial(self) -> str:
        """``coeffs`` as text in x, highest power first (``x^2 - 2``)."""
        out = ""
        for k in range(len(self.coeffs) - 1, -1, -1):
            c = self.coeffs[k]
            if c == 0:
                continue
            mag = "" if abs(c) == 1 and k else str(abs(c))
            mono = mag + ("x" if k == 1 else f"x^{k}" if k else "")
            out += (" - " if c < 0 else " + " if out else "") + mono if out or c > 0 else "-" + mono
        return out

    def refined(self) -> AlgebraicReal:
        """The same number with its isolating interval halved."""
        mid = (self.lo + self.hi) / 2
        v = poly_at(self.coeffs, mid)
        if v == 0:  # hit exactly: the number is rational (cannot happen for a minimal polynomial)
            eps = (self.hi - self.lo) / 1024
            return AlgebraicReal(self.coeffs, mid - eps, mid + eps)
        at_lo = poly_at(self.coeffs, self.lo) > 0
        if at_lo == (poly_at(self.coeffs, self.hi) > 0):  # a root of even multiplicity: count
            try:
                return AlgebraicReal(self.coeffs, self.lo, mid)
            except ValueError:
                return AlgebraicReal(self.coeffs, mid, self.hi)
        if at_lo != (v > 0):
            return AlgebraicReal._trusted(self.coeffs, self.lo, mid)
        return AlgebraicReal._trusted(self.coeffs, mid, self.hi)

    def surd(self) -> Term | None:
        """The number as a closed term (-b ± √D) / 2a when its polynomial is a quadratic, else
        None: as a ``values.Witness`` it reaches the operations outside the field fragment
        (√, log, trigonometric functions), which the closed forms and enclosures decide."""
        c = list(self.coeffs)
        while c and c[-1] == 0:
            c.pop()
        if len(c) != 3:
            return None
        c0, c1, c2 = c
        disc = c1 * c1 - 4 * c0 * c2
        if disc <= 0:
            return None
        vertex, v = Fraction(-c1, 2 * c2), self
        for _ in range(200):  # the roots lie on either side of the vertex, never at it
            if not v.lo < vertex < v.hi:
                break
            v = v.refined()
        else:
            return None
        sign = (1 if v.lo >= vertex else -1) * (1 if c2 > 0 else -1)
        root = app("mul", Num(Fraction(sign), REAL), app("sqrt", Num(Fraction(disc), REAL)))
        return app("div", app("add", Num(Fraction(-c1), REAL), root), Num(Fraction(2 * c2), REAL))

    def sympy(self) -> Any:
        """The number as a sympy ``CRootOf`` of its minimal polynomial (exact; a radical when
        sympy writes quadratic roots so)."""
        return _as_sympy(self.coeffs, self.lo, self.hi)


def poly_at(coeffs: tuple[int, ...], x: Fraction) -> Fraction:
    acc = Fraction(0)
    for c in reversed(coeffs):
        acc = acc * x + c
    return acc


@functools.lru_cache(maxsize=1024)
def _as_sympy(coeffs: tuple[int, ...], lo: Fraction, hi: Fraction) -> Any:
    import sympy

    x = sympy.Symbol("x")
    for f, _ in sympy.Poly(list(reversed(coeffs)), x).factor_list()[1]:
        fc = tuple(int(c) for c in reversed(f.all_coeffs()))
        if _count_roots(fc, lo, hi) == 1:
            # a quadratic root as its radical (3·√3, not CRootOf(x² - 27, 1)): sympy then
            # simplifies (3·√3)² to 27 itself, which keeps later values' degrees low
            return sympy.CRootOf(f, _count_roots(fc, None, lo), radicals=f.degree() <= 2)
    raise ValueError(f"no factor of {coeffs} has a root in ({lo}, {hi})")


def _gcd(p: tuple[int, ...], q: tuple[int, ...]) -> tuple[int, ...]:
    import sympy

    x = sympy.Symbol("x")
    g = sympy.gcd(sympy.Poly(list(reversed(p)), x), sympy.Poly(list(reversed(q)), x))
    return tuple(int(c) for c in reversed(g.all_coeffs()))


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


_UNSET = object()


def _in_sort(x: int | Fraction | AlgebraicReal, sort: Any) -> bool:
    """Whether the exact number ``x`` is a value of the number sort (an ``AlgebraicReal`` is
    irrational: its polynomial is a minimal one of degree ≥ 2)."""
    if isinstance(x, AlgebraicReal):
        return sort == REAL
    f = Fraction(x)
    return sort in (RAT, REAL) or (f.denominator == 1 and (sort == INT or f >= 0))


Value = Any  # sympy number (exact) for numbers, bool for formulas
Interval = tuple[Fraction, Fraction]
Handler = Callable[[App, dict[str, Any]], Value]

#: Exact meaning of each operation of the field fragment over sympy numbers.
EXACT: OpTable[Handler] = OpTable("algebraic evaluator")


def _closures_applied(term: Term, env: dict[str, Any]) -> Term:
    """``term`` with each application of a variable whose value is a closure (a function the
    premises define: ``rectangle x y``) replaced by the closure's body at the arguments,
    where the body's other names mean here what they meant in the closure (the field
    evaluator reads tables, ``_apply``, but has no closures)."""
    if not any(isinstance(c, Closure) for c in env.values()):
        return term
    funs = {}
    for v in subterms(term):
        c = env.get(v.name) if isinstance(v, Var) and isinstance(v.sort, FunSort) else None
        if v not in funs and isinstance(c, Closure) and same_closure(c, Closure(c.vars, c.body, env)):
            funs[v] = (c.vars, c.body)
    return unfold(term, funs) if funs else term


def algebraic_truth(formula: Term, env: dict[str, Any]) -> bool | None:
    """True / False when ``formula`` is exactly decided at ``env`` (ints, Fractions and
    ``AlgebraicReal`` values), else None (outside the field fragment, or undecided)."""
    try:
        import sympy  # noqa: F401

        formula = _closures_applied(formula, env)
        v = _State(env).ev(formula)
        return v if isinstance(v, bool) else None
    except Exception:  # noqa: BLE001 - anything unexpected is undecided, never a verdict
        return None


#: Largest term whose exact value is computed (sympy's minimal polynomials grow fast).
MAX_VALUE_NODES = 80


def algebraic_value(term: Term, env: dict[str, Any]) -> int | Fraction | AlgebraicReal | None:
    """The exact value of the real-valued ``term`` at ``env`` (ints, Fractions and
    ``AlgebraicReal`` values): a rational, or an ``AlgebraicReal`` given by the minimal
    polynomial of the value and an isolating interval; None outside the field fragment (with
    roots), for terms of more than ``MAX_VALUE_NODES`` nodes, or when undecided."""
    term = _closures_applied(term, env)
    if term.sort not in _FIELD or not _in_fragment(term, env):
        return None
    try:
        state = _State(env)
        return _as_number(state.ev(term), state)
    except Exception:  # noqa: BLE001 - anything unexpected is undecided, never a value
        return None


def _in_fragment(term: Term, env: dict[str, Any]) -> bool:
    n = 0
    stack = [term]
    while stack:
        t = stack.pop()
        n += 1
        if n > MAX_VALUE_NODES:
            return False
        if isinstance(t, App):
            if t.op not in EXACT:
                return False
            stack.extend(t.args)
        elif isinstance(t, Var):
            if t.name not in env:
                return False
        elif not isinstance(t, Num):
            return False
    return True


def algebraic_number(d: Any) -> int | Fraction | AlgebraicReal | None:
    """The sympy number ``d`` (Σ q·√m, say) as an exact value, or None when undecided (beyond
    the degree bound ``MAX_DEGREE``)."""
    try:
        return _as_number(d, _State({}))
    except Exception:  # noqa: BLE001 - anything unexpected is no value, never a wrong one
        return None


def _as_number(d: Any, state: _State) -> int | Fraction | AlgebraicReal:
    import sympy

    if d.has(sympy.Float):
        raise _Undecided("inexact number")
    if d.is_Rational:
        f = Fraction(int(d.p), int(d.q))
        return int(f) if f.denominator == 1 else f
    y = sympy.Dummy("y")
    mp = sympy.minimal_polynomial(_rationalized(d), y, polys=True)
    _, mp = mp.clear_denoms()
    coeffs = tuple(int(c) for c in reversed(mp.all_coeffs()))
    if len(coeffs) == 2:  # degree 1: rational after all
        f = Fraction(-coeffs[0], coeffs[1])
        return int(f) if f.denominator == 1 else f
    for i in range(MAX_REFINE):
        lo, hi = state.enclose(d, _bits(i))
        if lo < hi and poly_at(coeffs, lo) != 0 and poly_at(coeffs, hi) != 0 and _count_roots(coeffs, lo, hi) == 1:
            return AlgebraicReal._trusted(coeffs, lo, hi)
        state.refine()
    raise _Undecided("no isolating interval")


def _bits(i: int) -> int:
    """Precision of rational root bounds in refinement round ``i``."""
    return 16 + 4 * i


def is_root_of(value: AlgebraicReal, t: Term) -> Term:
    """The formula ``p(t) = 0 ∧ lo < t ∧ t < hi`` of the real term ``t``: it holds iff
    ``t`` equals ``value`` (the only root of p in the interval), so an obligation can state
    "t = value" without a literal for the number."""
    from provers.ir import and_, app, num

    poly: Term | None = None
    for k, c in enumerate(value.coeffs):
        if c == 0:
            continue
        mono: Term = num(c, REAL) if k == 0 else app("mul", num(c, REAL), t if k == 1 else app("pow", t, num(k, NAT)))
        poly = mono if poly is None else app("add", poly, mono)
    assert poly is not None
    return and_(app("eq", poly, num(0, REAL)), app("lt", num(value.lo, REAL), t), app("lt", t, num(value.hi, REAL)))


class _State:
    """One evaluation: the point's values as sympy numbers, and the algebraic ones'
    isolating intervals, refined in place as signs need them."""

    def __init__(self, env: dict[str, Any]):
        self.env = env
        self.points = {k: v.sympy() if isinstance(v, AlgebraicReal) else v for k, v in env.items()}
        #: isolating intervals of the sympy ``CRootOf`` numbers met so far
        self.roots: dict[Any, AlgebraicReal] = {}

    def enclose(self, d: Any, bits: int) -> Interval:
        import sympy

        for r in d.atoms(sympy.CRootOf):
            if r not in self.roots:
                self.roots[r] = _isolated(r)
        return _enclose(d, self.roots, bits)

    def refine(self) -> None:
        self.roots = {r: v.refined() for r, v in self.roots.items()}

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
        if isinstance(t, Quant):
            identity = polynomial_identity(t)
            if identity is not None:
                return self.ev(identity)
            return self.quantified(t)
        raise _Undecided(type(t).__name__)

    def quantified(self, t: Quant) -> bool:
        """A ∀ / ∃ whose variable's only possible counterexamples / witnesses are finitely
        many points (``points``): ``∀x. p(x) = 0 → φ``, ``∃x. p(x) = 0 ∧ φ`` with p a nonzero
        polynomial in x whose coefficients have rational values here (its real roots, the
        irrational ones as algebraic numbers), ``x = e`` and disjunctions of those; ``∀x. A ↔
        B`` with points for both sides (elsewhere both are false). Why: "a and b are the
        roots" written ``∀x. 2x² − 10x + 5 = 0 → x = a ∨ x = b``, with irrational roots, left
        every countermodel (a = b) undecided (MATH algebra/problem_1270)."""
        if t.kind not in ("forall", "exists"):
            raise _Undecided(f"quantifier {t.kind}")
        want = t.kind == "exists"
        for i, v in enumerate(t.vars):
            if v.sort not in (NAT, INT, RAT, REAL):
                continue
            rest = frozenset(t.vars[:i] + t.vars[i + 1:])
            found = [self.points_of(v, g, rest) for g in guards(t.kind, t.body)]
            if not want and isinstance(t.body, App) and t.body.op in ("iff", "eq") and t.body.args[0].sort == BOOL:
                sides = [self.points_of(v, side, rest) for side in t.body.args]
                found.append(None if None in sides else [x for side in sides for x in side])
            points = next((p for p in found if p is not None), None)
            if points is None:
                continue
            body = Quant(t.kind, tuple(u for u in t.vars if u in rest), t.body) if rest else t.body
            return any(self.at(v, x, body) == want for x in points if _in_sort(x, v.sort)) == want
        raise _Undecided("quantifier without finitely many points to look at")

    def points_of(self, v: Var, g: Term, bound: frozenset[Var]) -> list[Any] | None:
        """The exact values of ``v`` (int, Fraction, ``AlgebraicReal``) outside of which the
        formula ``g`` is false, or None when they are not known; ``g`` mentions none of the
        ``bound`` variables."""
        if v not in free_vars(g) or free_vars(g) & bound or not isinstance(g, App):
            return None
        if g.op == "or":
            parts = [self.points_of(v, a, bound) for a in g.args]
            return None if None in parts else [x for p in parts for x in p]  # type: ignore[union-attr]
        if g.op != "eq" or g.args[0].sort == BOOL:
            return None
        for side, other in (g.args, g.args[::-1]):
            if side == v and v not in free_vars(other):
                try:
                    return [_as_number(self.ev(other), self)]
                except _Undecided:
                    return None
        coeffs = polynomial_coefficients(v, g.args[0], g.args[1], self.rational_value, False)
        if not coeffs or len(coeffs) - 1 > MAX_CELL_DEGREE:  # not a polynomial in v with rational
            return None  # coefficients, the zero one, or one of a degree sympy may take long on
        rational, irrational = real_roots(coeffs)
        return [*(int(r) if r.denominator == 1 else r for r in rational), *irrational]

    def at(self, v: Var, x: Any, body: Term) -> bool:
        """``body`` with ``v`` at the rational or algebraic ``x``."""
        import sympy

        saved = self.points.get(v.name, _UNSET)
        if isinstance(x, AlgebraicReal):
            self.points[v.name] = x.sympy()
        else:
            f = Fraction(x)
            self.points[v.name] = sympy.Rational(f.numerator, f.denominator)
        try:
            return _bool(self.ev(body))
        finally:
            if saved is _UNSET:
                del self.points[v.name]
            else:
                self.points[v.name] = saved

    def rational_value(self, e: Term) -> Fraction | None:
        """``e``'s value when it is rational, else None (for a polynomial's coefficients)."""
        try:
            d = self.ev(e)
        except _Undecided:
            return None
        if isinstance(d, bool) or not getattr(d, "is_Rational", False):
            return None
        return Fraction(int(d.p), int(d.q))

    def sign(self, d: Any) -> int:
        """The exact sign of the sympy number ``d``."""
        import sympy

        if d.has(sympy.Float):
            raise _Undecided("inexact number")
        if d.is_Rational:
            return int(d.p > 0) - int(d.p < 0)
        # enclose d with exact rational intervals, refined until 0 is excluded; a few rounds
        # first, since a nonzero d is usually separated at once, then the exact test for 0
        nonzero = False
        for i in range(MAX_REFINE):
            lo, hi = self.enclose(d, _bits(i))
            if lo > 0:
                return 1
            if hi < 0:
                return -1
            if i == ZERO_TEST_ROUND and not nonzero:
                if _is_zero(d):
                    return 0
                nonzero = True
            self.refine()
        raise _Undecided("sign not separated from 0")


def _isolated(r: Any) -> AlgebraicReal:
    """The sympy ``CRootOf`` real number ``r`` with an isolating interval of its own."""
    import sympy

    if not r.is_real:
        raise _Undecided("complex root")
    _, f = sympy.Poly(r.poly, r.poly.gen, domain="QQ").clear_denoms()
    coeffs = tuple(int(c) for c in reversed(f.all_coeffs()))
    (lo, hi), _mult = f.intervals()[r.index]
    lo, hi = Fraction(int(lo.p), int(lo.q)), Fraction(int(hi.p), int(hi.q))
    if lo == hi:
        raise _Undecided("rational root")
    return AlgebraicReal(coeffs, lo, hi)


def _rationalized(d: Any) -> Any:
    """``d`` with rationalized denominators, for ``minimal_polynomial``; Undecided when its
    degree bound exceeds ``MAX_DEGREE``."""
    import sympy

    indices: dict[Any, int] = {}
    for p in d.atoms(sympy.Pow):
        if p.exp.is_Rational and not p.exp.is_Integer:
            indices[p.base] = math.lcm(indices.get(p.base, 1), int(p.exp.q))
    bound = math.prod(indices.values()) * math.prod(int(r.poly.degree()) for r in d.atoms(sympy.CRootOf))
    if bound > MAX_DEGREE:
        raise _Undecided(f"degree bound {bound} beyond {MAX_DEGREE}")
    r = sympy.radsimp(d)
    if any(isinstance(p, sympy.Pow) and p.exp.is_negative and p.base.is_Add for p in sympy.preorder_traversal(r)):
        raise _Undecided("a denominator with radicals that radsimp does not rationalize")
    return r


@functools.lru_cache(maxsize=256)
def _is_zero(d: Any) -> bool:
    """d = 0, exactly: by division when d is a polynomial in one model value r (a CRootOf of
    an irreducible f: q(r) = 0 iff f divides q), else by d's minimal polynomial. Memoized:
    the same number comes back at every sample point and obligation of a problem (267 tests
    of 7 numbers, 4.3 s, on one MATH problem: docs/benchmarks.md, stop 43)."""
    import sympy

    gens = d.atoms(sympy.CRootOf)
    if len(gens) == 1 and not any(p.exp.is_Rational and not p.exp.is_Integer for p in d.atoms(sympy.Pow)):
        (r,) = gens
        x = r.poly.gen
        try:
            q = sympy.Poly(d.xreplace({r: x}), x, domain="QQ")
        except (sympy.PolynomialError, sympy.CoercionFailed):
            q = None
        if q is not None and r.poly.is_irreducible:
            return q.rem(sympy.Poly(r.poly, x, domain="QQ")).is_zero
    y = sympy.Dummy("y")
    mp = sympy.minimal_polynomial(_rationalized(d), y, polys=True)
    return mp.degree() == 1 and mp.coeff_monomial(1) == 0


def _enclose(d: Any, roots: dict[Any, AlgebraicReal], bits: int = 16) -> Interval:
    """An interval with exact rational ends containing the sympy number ``d`` (built from
    rationals, ``CRootOf`` numbers (isolating intervals in ``roots``) and rational powers of
    positive numbers, whose roots are bounded to ``bits`` binary digits)."""
    import sympy

    def iv(e: Any) -> Interval:
        if e.is_Rational:
            f = Fraction(int(e.p), int(e.q))
            return f, f
        if isinstance(e, sympy.CRootOf):
            return roots[e].lo, roots[e].hi
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
        if e.is_Pow and e.exp.is_Rational:
            base = iv(e.base)
            n, q = int(e.exp.p), int(e.exp.q)
            if n < 0:
                base = _iinv(base)
                n = -n
            if q != 1:
                if base[0] < 0:
                    raise _Undecided("root of a number not known to be positive")
                base = (_nth_root(base[0], q, bits, up=False), _nth_root(base[1], q, bits, up=True))
            acc = (Fraction(1), Fraction(1))
            for _ in range(n):
                acc = _imul(acc, base)
            return acc
        raise _Undecided(f"cannot enclose {e.func.__name__}")

    return iv(d)


def _nth_root(a: Fraction, q: int, bits: int, up: bool) -> Fraction:
    """A bound k / 2^bits of a^(1/q) for a ≥ 0: below it (``up`` False) or above it."""
    target = (a.numerator << (bits * q)) // a.denominator  # ⌊a·2^(bits·q)⌋
    k = _iroot(target, q)  # k^q ≤ target < (k + 1)^q
    return Fraction(k + (1 if up else 0), 1 << bits)


def _iroot(n: int, q: int) -> int:
    """⌊n^(1/q)⌋ for an integer n ≥ 0."""
    if n < 2:
        return n
    x = 1 << -(-n.bit_length() // q)  # ≥ the root
    while True:
        y = ((q - 1) * x + n // x ** (q - 1)) // q
        if y >= x:
            return x
        x = y


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
_numeric("abs")(lambda st, a: a if st.sign(a) >= 0 else -a)
_numeric("inv")(lambda st, a: 0 * a if st.sign(a) == 0 else 1 / a)


@_numeric("sqrt")
def _sqrt(st: _State, a: Value) -> Value:
    import sympy

    return 0 * a if st.sign(a) <= 0 else sympy.sqrt(a)  # Real.sqrt x = 0 for x < 0


@_numeric("signed_sqrt")
def _signed_sqrt(st: _State, a: Value) -> Value:
    import sympy

    s = st.sign(a)
    return 0 * a if s == 0 else sympy.sqrt(a) if s > 0 else -sympy.sqrt(-a)  # Isabelle sqrt


@_numeric("powr")
def _powr(st: _State, a: Value, y: Value) -> Value:
    s = st.sign(a)
    if s == 0:
        return 0 * a  # 0 powr y = 0
    if s < 0 or not _small_rational(y):
        raise _Undecided("powr of a negative base or at an irrational exponent")  # ln x, x < 0: unspecified
    return a ** y


@_numeric("rpow")
def _rpow(st: _State, a: Value, y: Value) -> Value:
    s = st.sign(a)
    if not _small_rational(y):
        raise _Undecided("rpow at an irrational exponent")
    if s == 0:
        return 1 + 0 * a if y == 0 else 0 * a  # 0 ^ 0 = 1, 0 ^ y = 0
    if s < 0 and not y.is_Integer:
        raise _Undecided("rpow of a negative base at a non-integer exponent")  # cos(yπ)
    return a ** y  # x < 0, y ∈ ℤ: |x|^y·cos(yπ) = x^y


def _small_rational(y: Value) -> bool:
    return bool(y.is_Rational) and abs(int(y.p)) <= MAX_EXPONENT and int(y.q) <= MAX_EXPONENT


@EXACT.register("root")
def _root(t: App, st: _State) -> Value:
    """Isabelle ``root n x``: the real n-th root, extended oddly to x < 0; root 0 x = 0."""
    import sympy

    n, x = t.args
    if not isinstance(n, Num) or x.sort not in _FIELD:
        raise _Undecided("root of a symbolic degree")
    k = int(n.value)
    if not 0 <= k <= MAX_EXPONENT:
        raise _Undecided("root degree")
    a = st.ev(x)
    s = st.sign(a)
    if k == 0 or s == 0:
        return 0 * a
    r = a ** sympy.Rational(1, k) if s > 0 else -((-a) ** sympy.Rational(1, k))
    return r


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


@EXACT.register("apply")
def _apply(t: App, st: _State) -> Value:
    """A settled table (a solver's whole interpretation: its entries and a default) at the
    arguments' exact values: a rational point is looked up; a point with an irrational
    coordinate is no entry's key when every key is rational, so the default is the value
    there (``table of function looked up at an approximate point`` before)."""
    import sympy

    f = t.args[0]
    table = st.env.get(f.name) if isinstance(f, Var) else None
    if not isinstance(table, FunTable) or table.fill is not None:
        raise _Undecided("application of a function without a settled table")
    point = []
    for a in t.args[1:]:
        d = st.ev(a)
        point.append(d if isinstance(d, bool) else _as_number(d, st))
    if any(isinstance(x, AlgebraicReal) for x in point):
        if not all(isinstance(k, (bool, int, Fraction)) for key in table.entries for k in key):
            raise _Undecided("table with irrational keys at an irrational point")
        value = table.default
    else:
        value = table.entries.get(tuple(point), table.default)
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, Fraction)):
        v = Fraction(value)
        return sympy.Rational(v.numerator, v.denominator)
    raise _Undecided("a table value that is not a number or a truth value")


@EXACT.register("cast")
def _cast(t: App, st: _State) -> Value:
    return st.ev(t.args[0])  # ℕ/ℤ/ℚ → ℝ: the same number


__all__ = ["AlgebraicReal", "algebraic_truth", "algebraic_value", "is_root_of"]
