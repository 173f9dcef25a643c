"""Number sets given by order bounds: whether they are infinite, and which integers they hold.

Why: ``card {x :: real. 100 ≤ x ∧ x ≤ 999}`` is 0 (the card of an infinite set) and
``card {n. 9⁴ < n ∧ n < 9⁵}`` has 52 487 elements — more than a finite domain enumerates
one test at a time (``domains.MAX_DOMAIN``), yet their bounds say everything. A set's
conjuncts are read as order atoms between the variable and exact values (``v ≠ c`` removing
points), optionally cut by conditions periodic in v (remainders, divisibility). The bound
helpers here (``below``, ``above``, ``order_bound``, ``enclosed``) also serve
``domains.bound_domain``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from provers.ir import FLIPPED, INT, NAT, RAT, REAL, App, Num, Term, Var, and_, conjuncts, free_vars
from provers.semantics.approx import is_rational
from provers.semantics.polynomials import linear_in


def is_cast_of(t: Term, v: Var) -> bool:
    return isinstance(t, App) and t.op == "cast" and t.args[0] == v


def enclosed(e: Term, end: int, v: Var, others: frozenset[Var],
              bounds_of: Callable[[Term], tuple[Fraction, Fraction] | None] | None) -> Fraction | None:
    """The lower (``end`` 0) or upper (1) rational bound of ``e`` from ``bounds_of``."""
    if bounds_of is None or v in free_vars(e) or free_vars(e) & others:
        return None
    got = bounds_of(e)
    return None if got is None else got[end]


def below(w: Any, strict: bool) -> int:
    """The largest integer < w (``strict``) or ≤ w, for a rational w."""
    return math.ceil(w) - 1 if strict else math.floor(w)


def above(w: Any, strict: bool) -> int:
    """The smallest integer > w (``strict``) or ≥ w, for a rational w."""
    return math.floor(w) + 1 if strict else math.ceil(w)


def _removes_a_point(v: Var, g: Term) -> bool:
    """``v ≠ e`` with e free of v: true everywhere but at one point."""
    return (isinstance(g, App) and g.op == "ne" and v in g.args
            and v not in free_vars(g.args[1] if g.args[0] == v else g.args[0]))


def dense_interval_infinite(v: Var, body: Term, value_of: Callable[[Term], Any],
                            bounds_of: Callable[[Term], tuple[Fraction, Fraction] | None] | None = None
                            ) -> bool | None:
    """Whether ``{v | body}`` over ℝ or ℚ is infinite, read off its conjuncts: True when they
    are order atoms between ``v`` and exact rational values bounding a non-degenerate interval,
    plus atoms ``v ≠ c`` (finitely many points removed) and closed conjuncts that are exactly
    true; False when the bounds leave no point at all (the set is empty); None otherwise.

    Why: ``card {x :: real. 100 ≤ x ∧ x ≤ 999}`` is 0 in Isabelle and Lean (card of an infinite
    set), and the evaluator could not count it. A bound with no exact value (``x < 200 π``)
    counts by its certified enclosure (``bounds_of``), on the inner side: then only True
    (a non-degenerate interval certainly lies inside) is claimed, never False."""
    if v.sort not in (REAL, RAT):
        return None
    lo: tuple[Fraction, bool] | None = None  # (bound, strict)
    hi: tuple[Fraction, bool] | None = None
    by_enclosure = False  # a bound known only by its enclosure
    for g in conjuncts(body):
        if v not in free_vars(g):
            if value_of(g) is not True:
                return None
            continue
        if isinstance(g, App) and g.op == "or" and any(
                v not in free_vars(d) and value_of(d) is True or _removes_a_point(v, d) for d in g.args):
            continue  # true everywhere (``11 ≠ 0 ∨ x = 0``: ``11 dvd x`` over ℝ), or off one point
        if not isinstance(g, App) or len(g.args) != 2:
            return None
        op, (a, b) = g.op, g.args
        if op == "ne" and v in (a, b):
            if v in free_vars(b if a == v else a):
                return None
            continue
        if op in FLIPPED:
            op, a, b = FLIPPED[op], b, a
        if op not in ("lt", "le"):
            return None
        upper = a == v
        w = value_of(b) if a == v else value_of(a) if b == v else None
        if a != v and b != v and (line := linear_in(v, a, b, value_of)) is not None:  # 11·v ≥ 100
            w, upper = -line[1] / line[0], line[0] > 0
        elif not is_rational(w) and v in (a, b):
            # the inner end: below the true upper bound, above the true lower one
            inner = enclosed(b if a == v else a, 0 if upper else 1, v, frozenset(), bounds_of)
            if inner is not None:
                w, by_enclosure = inner, True
        if not is_rational(w) or isinstance(w, bool):
            return None
        bound = (Fraction(w), op == "lt")
        if upper:  # v < w or v ≤ w
            hi = bound if hi is None or (bound[0], not bound[1]) < (hi[0], not hi[1]) else hi
        else:  # w < v or w ≤ v
            lo = bound if lo is None or bound > lo else lo
    if lo is None or hi is None or lo[0] < hi[0]:
        return True
    if by_enclosure:
        return None  # inner ends that meet say nothing about the true bounds
    if lo[0] > hi[0] or lo[1] or hi[1]:
        return False
    return None  # a single point, which the ≠ atoms may remove


def _integer_bounds(v: Var, body: Term, value_of: Callable[[Term], Any]
                    ) -> tuple[int | None, int | None, frozenset] | None:
    """``(lo, hi, removed)`` when the conjuncts of ``body`` are order atoms between the ℕ/ℤ
    variable v and exact values (``lo ≤ v ≤ hi``, a side None when unbounded; 0 below for ℕ)
    and atoms ``v ≠ c`` (``removed``: the c of exact value); None otherwise."""
    if v.sort not in (NAT, INT):
        return None
    lo: int | None = 0 if v.sort == NAT else None
    hi: int | None = None
    removed: set = set()
    for g in conjuncts(body):
        if _removes_a_point(v, g):
            c = value_of(g.args[1] if g.args[0] == v else g.args[0])  # type: ignore[attr-defined]
            if is_rational(c) and not isinstance(c, bool):
                removed.add(c)
            continue
        bound = order_bound(v, g, value_of)
        if bound is None:
            return None
        upper, w, strict = bound
        if upper:  # v < w, v ≤ w
            c = below(w, strict)
            hi = c if hi is None else min(hi, c)
        else:  # w < v, w ≤ v
            c = above(w, strict)
            lo = c if lo is None else max(lo, c)
    return lo, hi, frozenset(removed)


def order_bound(v: Var, g: Term, value_of: Callable[[Term], Any]) -> tuple[bool, Any, bool] | None:
    """(is it an upper bound, its exact rational value, strict) when ``g`` is an order atom
    between v (or ``↑v``: it bounds v as v does) and a term free of v of exact value; else None."""
    if not (isinstance(g, App) and len(g.args) == 2 and g.op in ("lt", "le", "gt", "ge")):
        return None
    op, (a, b) = (FLIPPED[g.op], g.args[::-1]) if g.op in ("gt", "ge") else (g.op, g.args)
    a, b = (v if is_cast_of(x, v) else x for x in (a, b))
    if v not in (a, b):
        return None
    other = b if a == v else a
    w = value_of(other) if v not in free_vars(other) else None
    if not is_rational(w) or isinstance(w, bool):
        return None
    return a == v, w, op == "lt"


def integer_ray_infinite(v: Var, body: Term, value_of: Callable[[Term], Any]) -> bool:
    """Whether ``{v | body}`` over ℕ or ℤ is certainly infinite because its conjuncts are
    order atoms between v and exact values bounding it on one side only (``{n. 1 ≤ n}``,
    Isabelle's ``{1..}``), plus ``v ≠ c`` atoms (finitely many points removed); with ``prime v``
    conjuncts, bounding it below only (there are primes beyond any bound), where ``v ∣ e`` at
    e = 0 holds of every v (``{p. prime p ∧ p dvd n}`` at n = 0: every prime)."""
    parts = conjuncts(body)
    primes = [g for g in parts if isinstance(g, App) and g.op == "prime" and (g.args[0] == v or is_cast_of(g.args[0], v))]
    rest = [g for g in parts if g not in primes and not _divides_zero(v, g, value_of)]
    bounds = _integer_bounds(v, and_(*rest), value_of)
    if bounds is None:
        return False
    return bounds[1] is None if primes else (bounds[0] is None or bounds[1] is None)


def _divides_zero(v: Var, g: Term, value_of: Callable[[Term], Any]) -> bool:
    """``g`` reads ``v ∣ e`` with e exactly 0 (true of every v)."""
    if not (isinstance(g, App) and g.op == "dvd" and len(g.args) == 2):
        return False
    a, e = g.args
    if not (a == v or is_cast_of(a, v)) or v in free_vars(e):
        return False
    x = value_of(e)
    return is_rational(x) and not isinstance(x, bool) and x == 0


#: Largest integer interval written out as a finite set without testing its elements.
MAX_INTERVAL = 1_000_000


def integer_interval(v: Var, body: Term, value_of: Callable[[Term], Any]) -> frozenset | None:
    """``{v | body}`` over ℕ or ℤ as a finite set when its conjuncts are only order atoms
    bounding v on both sides by exact values (and ``v ≠ c`` atoms), up to ``MAX_INTERVAL``
    elements; None otherwise. Why: ``card {n. 9^4 < n ∧ n < 9^5}`` has 52 487 elements, more
    than ``domains.MAX_DOMAIN`` elements to test one by one, and none of them needs a test."""
    bounds = _integer_bounds(v, body, value_of)
    if bounds is None or bounds[0] is None or bounds[1] is None:
        return None
    lo, hi, removed = bounds
    if hi - lo + 1 > MAX_INTERVAL:
        return None
    return frozenset(range(lo, hi + 1)) - removed if hi >= lo else frozenset()


#: Longest period ``periodic_interval`` evaluates a body over (one evaluation per residue).
MAX_PERIOD = 20_000


#: Remainders, divisibility and gcd with a fixed nonzero c: periodic in their first (``dvd``:
#: second; ``gcd``: either, None) argument with |c| as period, for every rounding the IR has
#: (ℕ's %, Lean's emod, Isabelle's floor mod; gcd x c is gcd (x mod c) c); quotients and lcm
#: are not.
_PERIODIC_OPS: dict[str, int | None] = {"mod": 0, "emod": 0, "fmod": 0, "dvd": 1, "gcd": None}


#: Ring operations under which a polynomial with integer coefficients stays one (ℕ's
#: truncated subtraction is not among them).
_INTEGER_RING = {NAT: frozenset({"add", "mul", "pow"}), INT: frozenset({"add", "mul", "pow", "sub", "neg"})}


def periodic_interval(v: Var, body: Term, value_of: Callable[[Term], Any]
                      ) -> tuple[int | None, int | None, frozenset, list[Term], int] | None:
    """``(lo, hi, removed, rest, period)`` when ``{v | body}`` over ℕ or ℤ is an interval
    [lo, hi] (order atoms with exact bounds, a side None when unbounded, ``v ≠ c`` removing
    points) cut by conjuncts
    ``rest`` that read v only through remainders and divisibility by nonzero divisors of
    exact integer value (``v mod 11 = 0``, ``3 ∣ v² + 1``): those are periodic with the
    least common multiple of the divisors as period, since p(v + c) ≡ p(v) (mod c) for a
    polynomial p with integer coefficients. None otherwise. Why: ``card {x. 9⁴ < x ∧ x <
    9⁵ ∧ x mod 729 = 0}`` ranges over 52 487 numbers, more than ``domains.MAX_DOMAIN`` to test,
    though one period of 729 decides them all."""
    if v.sort not in (NAT, INT):
        return None
    orders, rest = [], []
    for g in conjuncts(body):
        (rest if v in free_vars(g) and _periodic_only(v, g) is not None else orders).append(g)
    if not rest:
        return None
    bounds = _integer_bounds(v, and_(*orders), value_of)
    if bounds is None:
        return None
    period = 1
    for g in rest:
        for divisor in _periodic_only(v, g) or ():
            c = value_of(divisor)
            if not isinstance(c, int) or isinstance(c, bool) or c == 0:
                return None
            period = math.lcm(period, abs(c))
            if period > MAX_PERIOD:
                return None
    lo, hi, removed = bounds
    return lo, hi, removed, rest, period


def _periodic_only(v: Var, g: Term) -> list[Term] | None:
    """The divisors through which alone ``g`` reads v (each under a remainder or a
    divisibility whose argument is an integer polynomial in v), or None."""
    divisors: list[Term] = []

    def walk(t: Term) -> bool:
        if v not in free_vars(t):
            return True
        if isinstance(t, App) and t.op in _PERIODIC_OPS and len(t.args) == 2:
            at = _PERIODIC_OPS[t.op]
            if at is None:  # gcd: either argument may be the fixed one
                at = 0 if v not in free_vars(t.args[1]) else 1
            argument, divisor = t.args[at], t.args[1 - at]
            if v in free_vars(divisor) or not _integer_polynomial(v, argument):
                return False
            divisors.append(divisor)
            return True
        if isinstance(t, App):
            return all(walk(a) for a in t.args)
        return False  # v itself outside a remainder, or under a binder

    return divisors if walk(g) and divisors else None


def _integer_polynomial(v: Var, t: Term) -> bool:
    """``t`` is a polynomial in v with integer coefficients, of v's own sort throughout."""
    if t == v or (v not in free_vars(t) and t.sort == v.sort):
        return True
    if isinstance(t, App) and t.sort == v.sort and t.op in _INTEGER_RING[v.sort]:
        if t.op == "pow":
            return isinstance(t.args[1], Num) and _integer_polynomial(v, t.args[0])
        return all(_integer_polynomial(v, a) for a in t.args)
    return False
