"""Certified comparisons of real values that the evaluator knows only approximately.

Why: a comparison of √2, log 3, π … decided on mpmath floats is only approximate, and a
countermodel resting on it cannot count. Here the sign of a − b is certified exactly, in
order of cost: interval enclosures at a low precision (``interval``), then the closed forms
(``surds``), and for sin / cos / tan at rational multiples of π the cyclotomic fields
(``cyclotomic``) — the only routes to a certified EQUALITY of irrational values — then
enclosures at higher precisions up to the cap. None means "not certified": the caller keeps its
approximate (never exact) answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from provers.ir import INT, NAT, RAT, REAL, Term
from provers.semantics.cyclotomic import difference_is_zero
from provers.semantics.interval import PRECISIONS, Enclosing, NoEnclosure, enclose, ends, separation
from provers.semantics.surds import form_of
from provers.semantics.values import Undecided

_ORDERED = (NAT, INT, RAT, REAL)
_FAILURES = (Undecided, ArithmeticError, ValueError)


def certified_sign(a: Term, b: Term, exact: Callable[[Term], Any]) -> int | None:
    """The sign of a − b (-1, 0, 1) when certified, else None. ``exact(t)`` is the
    evaluator's value of a subterm (used where no enclosure or form handler applies; each
    subterm is evaluated at most once here)."""
    if a.sort not in _ORDERED or b.sort not in _ORDERED:
        return None
    cached = _memoized(exact)
    refinable = True
    for i, prec in enumerate(PRECISIONS):
        if i == 1:  # enclosures overlap at low precision: maybe equal, try the closed forms
            try:
                fa, fb = form_of(a, cached), form_of(b, cached)
            except _FAILURES:
                fa = fb = None
            if fa is not None and fb is not None and fa == fb:
                return 0
            if (fa is None or fb is None) and difference_is_zero(a, b, cached):
                return 0  # cos (2π/7)·cos (4π/7)·cos (8π/7) and 1/8
            if not refinable:
                return None
        en = Enclosing(prec, cached)
        try:
            ea, eb = enclose(a, en), enclose(b, en)
            s = separation(ea, eb)
            if s is None and None in (*ends(ea), *ends(eb)):
                refinable = False  # an infinite end (Isabelle's (-5) powr 3) stays infinite
        except NoEnclosure:
            refinable = False  # no precision helps; the closed forms still may
            continue
        except _FAILURES:
            continue
        if s is not None:
            return s
    return None


def _memoized(exact: Callable[[Term], Any]) -> Callable[[Term], Any]:
    """``exact`` evaluating each subterm (by identity) once, an Undecided included."""
    seen: dict[int, tuple[bool, Any]] = {}

    def value(t: Term) -> Any:
        key = id(t)
        if key not in seen:
            try:
                seen[key] = (True, exact(t))
            except Undecided as e:
                seen[key] = (False, e)
        ok, v = seen[key]
        if not ok:
            raise v
        return v

    return value
