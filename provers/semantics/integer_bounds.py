"""What one guard says about an integer variable: it divides a nonzero number (``v ∣ m``, a
factor of a product equal to m, a remainder of zero, a congruence), it is a summand of a
natural sum equal to a number, a factor of a product below one, or it is at least a numeral.

Why a module of its own: each reads one guard and gives a bound, without enumerating anything;
``domains.bound_domain`` combines them into the finite domain of a bound variable.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Iterator
from fractions import Fraction
from typing import Any

from provers.ir import INT, NAT, App, Num, Term, Var, free_vars, subterms
from provers.semantics.approx import is_rational
from provers.semantics.closed_forms import PolynomialReader
from provers.semantics.polynomials import difference_polynomial, linear_in


def numeral_lower_bound(g: Term, n: Var) -> int | None:
    """c when the guard ``g`` says n ≥ c with c a numeral (``c ≤ n``, ``n ≥ c``, ``n > c - 1``,
    ``n ≠ 0`` over ℕ), else None: where a recurrence starts, or an identity over ℕ holds from."""
    if not (isinstance(g, App) and len(g.args) == 2):
        return None
    a, b = g.args
    op = {"ge": "le", "gt": "lt"}.get(g.op, g.op)
    if g.op in ("ge", "gt"):
        a, b = b, a
    if op in ("le", "lt") and b == n and isinstance(a, Num) and isinstance(a.value, (int, Fraction)):
        return math.floor(a.value) + 1 if op == "lt" else math.ceil(a.value)
    if g.op == "ne" and n in g.args and Num(0, NAT) in g.args:
        return 1
    return None


def numeral_low(x: Var, guards: Iterable[Term]) -> int | None:
    """The greatest numeral lower bound of ``x`` among ``guards`` (0 over ℕ), or None."""
    found = [c for g in guards if (c := numeral_lower_bound(g, x)) is not None]
    if x.sort == NAT:
        found.append(0)
    return max(found) if found else None


def product_bound(v: Var, a: Term, b: Term, op: str, value: Callable[[Term], Any],
                   guards: list[Term]) -> int | None:
    """m with v ≤ m when the guard is ``v · u < w`` (or ≤) with w's value known, v ≥ 0 and
    u ≥ L ≥ 1 by numeral bounds among ``guards`` (or ℕ): then L·v ≤ u·v < w (and no v at all
    when w ≤ 0, L = 0). Why: "m = c·d with c, d > 1 and m < n" (every factorization below n)
    leaves c and d unbounded otherwise."""
    if not (isinstance(a, App) and a.op == "mul" and len(a.args) == 2 and v in a.args):
        return None
    u = a.args[1] if a.args[0] == v else a.args[0]
    w = value(b)
    if not isinstance(u, Var) or u == v or not is_rational(w) or isinstance(w, bool):
        return None

    low_u, low_v = numeral_low(u, guards), numeral_low(v, guards)
    if low_u is None or low_u < 0 or low_v is None or low_v < 0:
        return None
    top = math.ceil(Fraction(w)) - 1 if op == "lt" else math.floor(Fraction(w))  # u·v ≤ top
    if top < 0:
        return -1  # a product of two nonnegative numbers is never negative: no v at all
    return top // low_u if low_u >= 1 else None


def divisor_bound(v: Var, g: App, value: Callable[[Term], Any]) -> int | None:
    """|m| when the guard says v divides a nonzero integer m: ``v ∣ m``, ``a % v = b % v``
    with a ≠ b (``a ≡ b [MOD v]``: v ∣ a − b; modulo 0 it reads a = b, false), or a product
    of integers with the factor v equal to m (``r₁ * r₂ = 28``, whatever r₂ is)."""
    if v.sort not in (NAT, INT):
        return None
    if g.op == "dvd" and g.args[0] == v:
        m = _remainder_free_of(v, g.args[1], value)
    elif g.op == "dvd" and (base := _power_base(v, g.args[0])) is not None:
        m = value(g.args[1]) if v not in free_vars(g.args[1]) else None  # bᵛ ∣ m ≠ 0: bᵛ ≤ |m|
        return _log_floor(base, abs(m)) if isinstance(m, int) and not isinstance(m, bool) and m != 0 else None
    elif g.op == "eq" and (e := _mod_of_zero(v, g)) is not None:  # e mod v = 0: v ∣ e
        m = _remainder_free_of(v, e, value)
    elif g.op == "eq" and all(isinstance(x, App) and x.op in _MODS and x.args[1] == v for x in g.args):
        a, b = value(g.args[0].args[0]), value(g.args[1].args[0])  # type: ignore[attr-defined]
        m = a - b if isinstance(a, int) and isinstance(b, int) else None
    elif g.op == "eq" and (other := _beside_factor(v, g)) is not None:
        m = value(other) if v not in free_vars(other) else None
    elif g.op == "eq" and (other := _beside_lcm(v, g)) is not None:
        m = value(other) if v not in free_vars(other) else None  # lcm(a, v) = m ≠ 0: v ∣ m
    elif g.op == "eq":
        m = _constant_term(v, g, value)  # v·Q(v, …) + c = 0 over ℤ: v ∣ c
    else:
        return None
    return abs(m) if isinstance(m, int) and not isinstance(m, bool) and m != 0 else None


def _power_base(v: Var, t: Term) -> int | None:
    """|b| when ``t`` is ``b ^ v`` with b an integer numeral, |b| ≥ 2 (a natural exponent)."""
    if (isinstance(t, App) and t.op == "pow" and t.args[1] == v and isinstance(t.args[0], Num)
            and isinstance(t.args[0].value, int) and abs(t.args[0].value) >= 2):
        return abs(t.args[0].value)
    return None


def _log_floor(base: int, m: int) -> int:
    """The largest y with base^y ≤ m (m ≥ 1): ``15^n ∣ 942!`` leaves n ≤ 1955."""
    y, power = 0, base
    while power <= m:
        y, power = y + 1, power * base
    return y


def _constant_term(v: Var, eq: App, value: Callable[[Term], Any]) -> int | None:
    """``c`` when ``eq`` reads ``v·Q + c = 0`` with Q a polynomial with integer coefficients in
    v and integer-valued atoms (other variables included) and c of exact integer value: an
    integer v then divides c (an integer root divides the constant term: ``x² + m·x + 28 = 0``
    gives x ∣ 28 whatever m is). None otherwise."""
    diff = difference_polynomial(v, eq.args[0], eq.args[1], False)
    if diff is None:
        return None
    c = 0
    moves = False
    for (deg, ratio, atoms), coeff in diff.items():
        if ratio != 1 or coeff.denominator != 1 or any(a.sort not in (NAT, INT) for a in atoms):
            return None
        if deg >= 1:
            moves = True
            continue
        term = int(coeff)
        for a in atoms:
            w = value(a)
            if not isinstance(w, int) or isinstance(w, bool):
                return None
            term *= w
        c += term
    return c if moves else None


def _beside_lcm(v: Var, eq: App) -> Term | None:
    """The other side of an equation one side of which is ``lcm`` with the argument v (each
    argument of a nonzero lcm divides it, over ℕ and ℤ alike), or None."""
    a, b = eq.args
    for x, other in ((a, b), (b, a)):
        if isinstance(x, App) and x.op == "lcm" and v in x.args:
            return other
    return None


#: remainders: each is its dividend modulo 0, and 0 exactly at the divisor's multiples otherwise
_MODS = ("mod", "emod", "fmod")


def _numeral_lower_bounds(guards: list[Term]) -> Iterator[tuple[Var, Any, bool]]:
    """``(x, c, strict)`` for each guard ``x > c`` / ``x ≥ c`` (either way round) with x an
    integer variable and c a rational numeral."""
    for g in guards:
        if isinstance(g, App) and g.op in ("gt", "ge", "lt", "le") and len(g.args) == 2:
            x, c = g.args if g.op in ("gt", "ge") else g.args[::-1]
            if isinstance(x, Var) and x.sort in (NAT, INT) and isinstance(c, Num) and is_rational(c.value):
                yield x, c.value, g.op in ("gt", "lt")


def nonnegative_vars(guards: list[Term]) -> frozenset[Var]:
    """The integer variables the guards say are at least a nonnegative numeral (``r > 0``)."""
    return frozenset(x for x, c, _ in _numeral_lower_bounds(guards) if x.sort == INT and c >= 0)


@functools.lru_cache(maxsize=4096)
def _nat_summands(t: Term, nonneg: frozenset[Var] = frozenset()) -> tuple[tuple[int, Term | None], ...] | None:
    """``t``, written with ``+`` and ``*`` only, as c₀ + Σ cᵢ·xᵢ (``PolynomialReader``) with
    integer cᵢ ≥ 0 and variables xᵢ that are ℕ or in ``nonneg`` (``(c, None)`` for a constant),
    or None. Remembered: it depends on the term only, and an enumeration asks it again at
    every point (`counting_and_probability/problem_880` read one sum 160 000 times)."""
    if not all(isinstance(s, (Num, Var)) or isinstance(s, App) and s.op in ("add", "mul") for s in subterms(t)):
        return None
    poly = PolynomialReader(None, None).read(t)
    if poly is None:
        return None
    out: list[tuple[int, Term | None]] = []
    for (_, _, atoms), c in poly.items():
        x = atoms[0] if len(atoms) == 1 else None
        if c < 0 or c.denominator != 1 or len(atoms) > 1 or \
                atoms and not (isinstance(x, Var) and (x.sort == NAT or x in nonneg)):
            return None
        out.append((int(c), x))
    return tuple(out)


def nat_sum_bound(v: Var, a: Term, b: Term, value: Callable[[Term], Any],
                   nonneg: frozenset[Var] = frozenset()) -> int | None:
    """m with v ≤ m when one side is c₀ + Σ cᵢ·xᵢ over nonnegative integer variables (ℕ, or
    ``nonneg``; v itself may be any integer), v among them with cᵢ > 0, and the other side has
    an exact value w: every summand is at most w − c₀."""
    for side, other in ((a, b), (b, a)):
        terms = _nat_summands(side, nonneg | {v}) if v in free_vars(side) else None
        if not terms:
            continue
        c_v = sum(c for c, x in terms if x == v)
        if c_v <= 0:
            continue
        w = value(other)
        if not is_rational(w) or isinstance(w, bool):
            return None
        c0 = sum(c for c, x in terms if x is None)
        return max(math.floor((Fraction(w) - c0) / c_v), -1)
    return None


def _mod_of_zero(v: Var, eq: App) -> Term | None:
    """``e`` when ``eq`` is ``e mod v = 0`` (either side), else None."""
    for a, b in (eq.args, eq.args[::-1]):
        if (isinstance(a, App) and a.op in _MODS and a.args[1] == v
                and isinstance(b, Num) and b.value == 0):
            return a.args[0]
    return None


def _remainder_free_of(v: Var, e: Term, value: Callable[[Term], Any]) -> Any:
    """An integer m with v ∣ e ⟺ v ∣ m: e's value, or c₀ when e is c₁·v + c₀ with integer
    coefficients (``(60 + n) mod n = 0``: n ∣ 60); None otherwise."""
    if v not in free_vars(e):
        return value(e)
    line = linear_in(v, e, Num(0, e.sort), value)
    if line is None or line[0].denominator != 1 or line[1].denominator != 1:
        return None
    return int(line[1])


def _beside_factor(v: Var, eq: App) -> Term | None:
    """The other side of an equation one side of which is a product of integers with the
    factor v, or None."""
    a, b = eq.args
    return b if v in _factors(a) else a if v in _factors(b) else None


def zero_product_factor(v: Var, eq: App, value: Callable[[Term], Any], guards: list[Term]) -> bool:
    """``eq`` reads ``v · w₁ ⋯ = 0`` over ℕ/ℤ and every other factor is a positive numeral or a
    variable the guards say is at least 1 (``∃ r s. m = r * s ∧ r > 0 ∧ s > 0`` at m = 0, where
    "v divides m" bounds nothing): then v = 0."""
    other = _beside_factor(v, eq)
    if other is None or value(other) != 0:
        return False
    product = eq.args[0] if other is eq.args[1] else eq.args[1]
    rest = list(_factors(product))
    rest.remove(v)
    positive = _at_least_one(guards)
    return all(isinstance(f, Num) and f.value >= 1 or f in positive for f in rest)


def _at_least_one(guards: list[Term]) -> frozenset[Var]:
    """The integer variables the guards say are at least 1 (``r > 0``, ``r ≥ 1``, ``0 < r``)."""
    return frozenset(x for x, c, strict in _numeral_lower_bounds(guards) if (c >= 0 if strict else c >= 1))


def _factors(t: Term) -> list[Term]:
    """The factors of a product of integers (``a * (b * c)``: a, b, c); [t] for another term."""
    if isinstance(t, App) and t.op == "mul" and t.sort in (NAT, INT):
        return [f for a in t.args for f in _factors(a)]
    return [t]
