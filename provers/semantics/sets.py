"""Set values: finite sets are ``frozenset``s, other sets ``PredSet``s known by membership.

``HANDLERS`` maps the set operations whose value depends only on their arguments' values to
a handler ``(term, argument values) -> value``; the evaluator registers them in its table
(``image`` and ``filter`` apply function values, so they live with the evaluator).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from provers.ir import INT, INTERVALS, NAT, RAT, REAL, App, OpTable, Sort
from provers.semantics.approx import as_int_arg, compare, is_approx, truth_value, truthy
from provers.semantics.domains import MAX_DOMAIN, probe_values
from provers.semantics.values import PredSet, Undecided

Handler = Callable[[App, list[Any]], Any]

#: Handlers of the set operations whose value is a function of their arguments' values
#: (part of the evaluator's table ``evaluate.OPERATIONS``).
HANDLERS: OpTable[Handler] = OpTable("exact evaluator (sets)")
_handles = HANDLERS.register


def finite_elements(s: Any, what: str) -> frozenset:
    """The elements of a set value known to be finite (``what`` names it in the reason)."""
    if isinstance(s, frozenset):
        return s
    raise Undecided(f"{what} is not a known finite set")


@functools.lru_cache(maxsize=64)
def _has_approx(s: frozenset) -> bool:
    """Whether a finite set holds an approximate element. Memoized: ``∀x ∈ S``, a filter or
    a set difference asks it of the same set once per element tested (12 million element
    checks on 40 MATH problems, docs/benchmarks.md, stop 43)."""
    return any(is_approx(e) for e in s)


def member(x: Any, s: Any) -> Any:
    """Whether ``x ∈ s`` (a truth value, approximate when the test was)."""
    if isinstance(s, frozenset):
        if is_approx(x) or _has_approx(s):
            raise Undecided("membership with approximate values")
        return x in s
    if isinstance(s, PredSet):
        return s.contains(x)
    raise Undecided(f"membership in a non-set {s!r}")


@_handles("set_of")
def _set_literal(t: App, vals: list[Any]) -> Any:
    if any(is_approx(v) for v in vals):
        raise Undecided("set literal with approximate elements")
    return frozenset(vals)


@_handles("range")
def _range(t: App, vals: list[Any]) -> Any:
    n, approx = as_int_arg(vals[0])
    if approx:
        raise Undecided("range of an approximate bound")
    if n > MAX_DOMAIN:
        raise Undecided(f"range {n} too large to enumerate")
    return integers_between(0, n - 1)


@functools.lru_cache(maxsize=32)
def integers_between(a: int, b: int) -> frozenset:
    """{a, …, b}, one object per interval: a set hashes its elements once and remembers the
    hash, and every membership test hashes the set (``_has_approx``), so ``n ∈ {1..800}``
    asked at each of 800 elements built and hashed 800 sets (counting_and_probability/
    problem_994: 1.7 s of its 15)."""
    return frozenset(range(a, b + 1))


@_handles(*INTERVALS)
def _interval(t: App, vals: list[Any]) -> Any:
    op, (lo, hi), elem = t.op, vals, t.args[0].sort
    inc_lo, inc_hi = op in ("Icc", "Ico"), op in ("Icc", "Ioc")
    if elem in (NAT, INT) and not is_approx(lo) and not is_approx(hi):
        a = lo if inc_lo else lo + 1
        b = hi if inc_hi else hi - 1
        if b - a + 1 > MAX_DOMAIN:
            raise Undecided(f"interval of {b - a + 1} elements is too large to enumerate")
        return integers_between(a, b)

    def contains(x: Any) -> Any:
        s1, a1 = compare(x, lo)
        s2, a2 = compare(x, hi)
        ok = (s1 > 0 or (inc_lo and s1 == 0)) and (s2 < 0 or (inc_hi and s2 == 0))
        return truth_value(ok, not (a1 or a2))

    s, approx = compare(lo, hi)
    empty = s > 0 or (s == 0 and not (inc_lo and inc_hi))
    if empty and not approx:
        return frozenset()
    if s == 0 and not approx:
        return frozenset({lo})
    return PredSet(elem, contains, None if approx else True)


#: Most divisors listed (``30 ^ 13`` has 2744).
MAX_DIVISORS = 100_000


@_handles("divisors")
def _divisors(t: App, vals: list[Any]) -> Any:
    n, approx = as_int_arg(vals[0])
    if approx:
        raise Undecided("divisors of an approximate number")
    if n <= 10**7:
        return frozenset(d for d in range(1, n + 1) if n % d == 0) if n else frozenset()
    return _divisors_of_factored(n)


def _divisors_of_factored(n: int) -> frozenset[int]:
    """The divisors of a large n from its prime factorization (``30 ^ 8``: 729 of them), when
    trial division certifies it."""
    from provers.semantics.surds import factor

    primes = factor(n)
    if primes is None or math.prod(e + 1 for e in primes.values()) > MAX_DIVISORS:
        raise Undecided(f"divisors of {n}: its factorization is not certain or they are too many")
    out = [1]
    for p, e in primes.items():
        out = [d * p**i for d in out for i in range(e + 1)]
    return frozenset(out)


@_handles("mem")
def _membership(t: App, vals: list[Any]) -> Any:
    return member(vals[0], vals[1])


#: (on two finite sets, on the memberships of one element) for each binary set operation.
_ALGEBRA = {
    "union": (lambda a, b: a | b, lambda ma, mb: ma or mb),
    "inter": (lambda a, b: a & b, lambda ma, mb: ma and mb),
    "setdiff": (lambda a, b: a - b, lambda ma, mb: ma and not mb),
}


@_handles(*_ALGEBRA)
def _set_algebra(t: App, vals: list[Any]) -> Any:
    op, (a, b) = t.op, vals
    on_finite, on_membership = _ALGEBRA[op]
    if isinstance(a, frozenset) and isinstance(b, frozenset):
        return on_finite(a, b)
    if op in ("inter", "setdiff") and isinstance(a, frozenset):
        keep = []
        for e in a:
            m, approx = truthy(member(e, b))
            if approx:
                raise Undecided("membership decided only approximately")
            if m == (op == "inter"):
                keep.append(e)
        return frozenset(keep)

    def contains(x: Any) -> Any:
        ma, aa = truthy(member(x, a))
        mb, ab = truthy(member(x, b))
        return truth_value(on_membership(ma, mb), not (aa or ab))

    return PredSet(t.sort.elem, contains)  # type: ignore[attr-defined]


@_handles("subset")
def _subset(t: App, vals: list[Any]) -> Any:
    a, b = vals
    approx = False
    for e in finite_elements(a, "left side of ⊆"):
        m, ap = truthy(member(e, b))
        approx |= ap
        if not m:
            return truth_value(False, not ap)
    return truth_value(True, not approx)


@_handles("card")
def _card(t: App, vals: list[Any]) -> Any:
    a = vals[0]
    if isinstance(a, PredSet) and a.infinite:
        return 0
    return len(finite_elements(a, "argument of card"))


@_handles("finite")
def _finite(t: App, vals: list[Any]) -> Any:
    a = vals[0]
    if isinstance(a, frozenset):
        return True
    if isinstance(a, PredSet) and a.infinite is not None:
        return not a.infinite
    raise Undecided("finiteness of a set known only by membership")


def separated(a: Any, b: Any, elem: Sort, extra: list[Any]) -> bool:
    """Whether some element is exactly in one set and exactly not in the other.

    Why: sets known only by membership (``{x | x^2 = 4}``) cannot be compared by value, but
    one separating element decides ``a ≠ b`` exactly (a solver's countermodel to
    ``S = {x | P x} ↔ S = {x | Q x}`` is checked this way). Candidates: the elements of a
    finite side, small probe values of the element sort, and the given values (a model's)
    with their negations. Never decides ``a = b``."""
    candidates: list[Any] = []
    for s in (a, b):
        if isinstance(s, frozenset):
            candidates.extend(sorted(s, key=repr))
    candidates.extend(probe_values(elem))
    if elem in (INT, RAT, REAL):
        candidates.extend(x for v in extra for x in (v, -v))
    elif elem == NAT:
        candidates.extend(v for v in extra if isinstance(v, int) and v >= 0)
    seen: set[Any] = set()
    for x in candidates:
        if x in seen or (elem in (NAT, INT) and isinstance(x, Fraction) and x.denominator != 1):
            continue
        seen.add(x)
        try:
            ma, aa = truthy(member(x, a))
            mb, ab = truthy(member(x, b))
        except Undecided:
            continue
        if ma != mb and not (aa or ab):
            return True
    return False
