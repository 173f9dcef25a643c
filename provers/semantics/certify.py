"""Certified comparisons of real values that the evaluator knows only approximately.

Why: a comparison of √2, log 3, π … decided on mpmath floats is only approximate, and a
countermodel resting on it cannot count. Here the sign of a − b is certified exactly, in
order of cost: interval enclosures at a low precision (``interval``), then the closed forms
(``surds``: the only route to a certified EQUALITY of irrational values), then enclosures at
higher precisions up to the cap. None means "not certified": the caller keeps its
approximate (never exact) answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from provers.ir import INT, NAT, RAT, REAL, Term
from provers.semantics.interval import PRECISIONS, Enclosing, enclose, separation
from provers.semantics.surds import form_of
from provers.semantics.values import Undecided

_ORDERED = (NAT, INT, RAT, REAL)


def certified_sign(a: Term, b: Term, exact: Callable[[Term], Any]) -> int | None:
    """The sign of a − b (-1, 0, 1) when certified, else None. ``exact(t)`` is the
    evaluator's value of a subterm (used where no enclosure or form handler applies)."""
    if a.sort not in _ORDERED or b.sort not in _ORDERED:
        return None
    cache: dict[int, Any] = {}
    first = _separated(a, b, PRECISIONS[0], exact, cache)
    if first is not None:
        return first
    try:
        fa, fb = form_of(a, exact), form_of(b, exact)
    except Undecided:
        fa = fb = None
    if fa is not None and fb is not None and fa == fb:
        return 0
    for prec in PRECISIONS[1:]:
        s = _separated(a, b, prec, exact, cache)
        if s is not None:
            return s
    return None


def _separated(a: Term, b: Term, prec: int, exact: Callable[[Term], Any],
               cache: dict[int, Any]) -> int | None:
    en = Enclosing(prec, exact, cache)
    try:
        return separation(enclose(a, en), enclose(b, en))
    except (Undecided, ArithmeticError, ValueError):
        return None
