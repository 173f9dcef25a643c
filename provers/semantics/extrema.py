"""The evaluator's ``LEAST`` / ``GREATEST``: Isabelle's extreme element of a predicate.

Why a module of its own: the extreme element is searched, not computed — over the finite
domain the predicate's conjuncts bound, from an image's least value, or across the sign cells
of the polynomials it compares (``polynomials.polynomial_cells``) — and where no such element
exists Isabelle's value is unspecified (THE of nothing), so the search must say undecided
rather than return the last point it tried. ``evaluate.term_value`` sends every ``LEAST`` /
``GREATEST`` of a λ here (``least_or_greatest``); the universal quantifier's cell scan shares
``integers_near``.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from provers.ir import INT, NAT, RAT, REAL, App, Lam, Term, Var, conjuncts, equated
from provers.semantics.domains import bound_domain, image_lower_bound
from provers.semantics.evaluate import (
    Env,
    as_number,
    at_irrational,
    cells_of,
    count_step,
    exact_value,
    term_value,
    truth_triple,
)
from provers.semantics.values import Undecided

#: Largest ℕ value ``LEAST n. P n`` is searched up to when P bounds no finite domain.
MAX_LEAST_SEARCH = 100_000


def least_or_greatest(lam: Lam, least: bool, env: Env) -> Any:
    """Isabelle's ``LEAST x. P x`` / ``GREATEST x. P x`` over ℕ or ℤ: the extreme x where P
    holds exactly — over the finite domain P's conjuncts bound, or (LEAST over ℕ) the first n
    from 0 up. Where no such x exists the value is unspecified (THE of nothing): undecided."""
    if len(lam.vars) == 1 and isinstance(lam.body, App) and lam.body.op == "eq" \
            and (only := equated(lam.vars[0], lam.body)) is not None:
        # LEAST x. x = e: the one element of {e} (``Least (λx. E = x)``, ``intermediate_algebra/
        # problem_1838``, was the sign cells of E − x at every sampled point, 4 ms each)
        return term_value(only, env)
    if len(lam.vars) == 1 and lam.vars[0].sort in (REAL, RAT):
        return _real_extremum(lam.vars[0], lam.body, least, env)
    if len(lam.vars) != 1 or lam.vars[0].sort not in (NAT, INT):
        raise Undecided("LEAST/GREATEST over a sort other than ℕ, ℤ, ℚ or ℝ")
    v = lam.vars[0]
    dom = bound_domain(v, conjuncts(lam.body), frozenset(), exact_value(env))
    start = 0
    if dom is None and least and v.sort == INT:
        # an image of bounded terms (``∃a b. n = a·b ∧ a, b > 1``) is searched from its least value
        start = image_lower_bound(v, lam.body)  # type: ignore[assignment]
        if start is None:
            return _integer_extremum(v, lam.body, least, env)
    elif dom is None and not (least and v.sort == NAT):
        return _integer_extremum(v, lam.body, least, env)
    candidates = sorted(dom, reverse=not least) if dom is not None else range(start, start + MAX_LEAST_SEARCH)
    for x in candidates:
        count_step()
        r, exact, why = truth_triple(lam.body, {**env, v.name: x})
        if r is None or not exact:  # an approximate False could hide the extreme x
            raise Undecided(why or "approximate")
        if r:
            return x
    raise Undecided(f"{'LEAST' if least else 'GREATEST'} of a predicate with no witness found")


def integers_near(roots: tuple[Any, ...]) -> set[int] | None:
    """The integers next to each root (floor − 1 … floor + 2), or None when a root is too
    large to place: the least integer above a root is in the cell after it when that cell
    holds one, so every cell's integers are represented (floats err by far less than 1)."""
    if any(abs(float(r)) > 2.0**50 for r in roots):
        return None
    return {m + d for r in roots for m in (math.floor(float(r)),) for d in (-1, 0, 1, 2)}


def _integer_extremum(v: Var, body: Term, least: bool, env: Env) -> Any:
    """``LEAST z :: int. P z`` (``GREATEST`` from the other end; ℕ's ``GREATEST``) when P
    bounds no finite domain, by the sign cells of the polynomials P compares
    (``polynomials.polynomial_cells``; sums over ranges that depend on z in closed form): P is
    false on the outer cell at that end (else no extreme element: undecided), and the first
    integer where P holds, scanning the integers next to each root from there, is the
    extreme one — every cell's first integer is next to the root that opens it."""
    what = "LEAST" if least else "GREATEST"
    cells = cells_of(v, body, env)
    if cells is None:
        raise Undecided(f"{what} over an unbounded domain of {v.sort}")
    samples, roots = cells
    near = integers_near(roots)
    if near is None:
        raise Undecided(f"{what} over {v.sort}: a root too large to scan from")
    # a point of the outer cell (ℕ's GREATEST: the top one, above 0 too)
    outer = int(samples[0]) if least else max(int(samples[-1]), 0 if v.sort == NAT else int(samples[-1]))
    r, exact, _ = truth_triple(body, {**env, v.name: outer})
    if r is None or not exact:
        raise Undecided(f"{what} over {v.sort}: the predicate is undecided at {outer}")
    if r:
        raise Undecided(f"{what} over {v.sort} of a set with no {'least' if least else 'greatest'} element")
    points = sorted(z for z in near | ({0} if v.sort == NAT else set()) if v.sort == INT or z >= 0)
    for z in points if least else reversed(points):
        count_step()
        r, exact, why = truth_triple(body, {**env, v.name: z})
        if r is None or not exact:
            raise Undecided(why or f"{what} over {v.sort}: the predicate is undecided at {z}")
        if r:
            return z
    raise Undecided(f"{what} of a predicate that holds nowhere")


def _real_extremum(v: Var, body: Term, least: bool, env: Env) -> Any:
    """``LEAST x :: real. P x`` (ℚ likewise, ``GREATEST`` from the other end) by the sign cells
    of the polynomials P compares (``polynomials.polynomial_cells``): P has one truth value on each
    open cell, so scanning cells and roots upward, the first place P holds is the least
    element when it is a root; when it is an open cell (the unbounded one first, or one whose
    lower root fails P) the set has no least element and Isabelle's value is unspecified
    (THE of nothing): undecided, as for an empty set or an irrational least element."""
    what = "LEAST" if least else "GREATEST"
    cells = cells_of(v, body, env)
    if cells is None:
        raise Undecided(f"{what} over {v.sort} of a predicate that is not polynomial in {v.name}")
    samples, roots = cells
    # samples[i] < roots[i] < samples[i + 1]: cells and roots alternate, from the lowest cell
    order = [("cell", samples[0])] + [item for r, q in zip(roots, samples[1:], strict=True)
                                      for item in (("root", r), ("cell", q))]
    for kind, x in order if least else reversed(order):
        count_step()
        if kind == "root" and not isinstance(x, Fraction):
            r = at_irrational(body, env, v, x)
        else:
            r, exact, _ = truth_triple(body, {**env, v.name: as_number(x)})
            r = r if exact else None
        if r is None:
            raise Undecided(f"{what} over {v.sort}: the predicate is undecided at {x}")
        if r and kind == "cell":
            raise Undecided(f"{what} over {v.sort} of a set with no {'least' if least else 'greatest'} element")
        if r:
            if not isinstance(x, Fraction):
                raise Undecided(f"{what} over {v.sort} is irrational")
            return as_number(x)
    raise Undecided(f"{what} of a predicate that holds nowhere")
