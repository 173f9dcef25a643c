"""∀ over ``ZMod n`` variables, decided by the exact evaluator at every point where it can fail.

Why: ``ZMod 31`` has 31 elements and its arithmetic is computed exactly
(``semantics.zmod``), so ``∀ x y z : ZMod 31. Φ`` is a finite check — but 31³ points are too
many to visit one by one. The obligations the engine asks are mostly ``⋀Γ ↔ ⋀Γ'``, ``C ↔ C'``
or ``⋀Γ → C``, and these can fail only where one side of the ``↔`` (the premises of the
``→``) holds; the premises of a MATH-style statement define each variable
(``x = 3⁻¹``, ``z = (x + y)⁻¹``), so those points are few: each variable an equation
``v = e`` defines takes e's value, the others every element. A point outside them makes
both sides false (the premises false), where the formula holds: so truth at all of them is a
proof, and falsity at one a countermodel that the evaluator has checked.
"""

from __future__ import annotations

import itertools
import logging
import math
from collections.abc import Iterator, Sequence
from typing import Any

from provers.deadline import Deadline, DeadlineExceeded
from provers.engine.points import exact_truth
from provers.ir import App, Term, Var, conjuncts, equated, free_vars
from provers.semantics import evaluate, zmod
from provers.semantics.values import Undetermined

log = logging.getLogger(__name__)

#: Most points visited for one obligation (7³ = 343 for three variables of ``ZMod 7``).
MAX_POINTS = 4096


def decided(vs: Sequence[Var], body: Term, deadline: Deadline | None) -> tuple[bool, dict[str, Any] | None, int] | None:
    """``∀ vs. body`` over ``ZMod n`` variables: ``(True, None, points)`` proved,
    ``(False, point, points)`` refuted at ``point``; None when it does not apply (a variable
    of another sort, a symbol the evaluator does not compute, too many points) or a point is
    undecided (the inverse of a non-unit)."""
    if any(zmod.modulus(v.sort) is None for v in vs) or not zmod.computed(body):
        return None
    sides = _sides(body)
    candidates: list[dict[str, Any]] = []
    for side in sides:
        points = _solutions(vs, side, deadline)
        if points is None:
            return None
        candidates.extend(points)
        if len(candidates) > MAX_POINTS:
            return None
    seen: set[tuple] = set()
    for env in candidates:
        key = tuple(env[v.name] for v in vs)  # elements (``Opaque``) are hashable
        if key in seen:
            continue
        seen.add(key)
        truth = exact_truth(body, env, deadline)
        if truth is None:
            return None
        if truth is False:
            return False, env, len(seen)
    return True, None, len(seen)


def _sides(body: Term) -> list[Term | None]:
    """Formulas outside whose solutions ``body`` holds: both sides of ``A ↔ B``, the
    antecedent of ``A → C``; None for any other body (it may fail anywhere)."""
    if isinstance(body, App) and body.op == "iff" and len(body.args) == 2:
        return list(body.args)
    if isinstance(body, App) and body.op == "implies" and len(body.args) == 2:
        return [body.args[0]]
    return [None]


def _solutions(vs: Sequence[Var], side: Term | None, deadline: Deadline | None) -> list[dict[str, Any]] | None:
    """A superset of the points of ``vs`` where the conjunction ``side`` holds (every point
    when None): the variables its equations ``v = e`` define, in turn, take e's value (e's
    variables defined before); the rest every element of their sort. None above
    ``MAX_POINTS``."""
    defined: dict[str, Any] = {}
    equations = _definitions(vs, side) if side is not None else []
    progress = True
    while progress:
        progress = False
        for v, e in equations:
            if v.name in defined or not {u.name for u in free_vars(e)} <= defined.keys():
                continue
            try:
                value = evaluate(e, dict(defined), deadline)
            except DeadlineExceeded:
                raise
            except Exception:  # noqa: BLE001 - an evaluator bug: no definition, never a verdict
                log.warning("evaluating %s failed", e, exc_info=True)
                continue
            if isinstance(value, Undetermined):
                continue  # not a definition after all: v ranges over its sort
            defined[v.name] = value
            progress = True
    free = [v for v in vs if v.name not in defined]
    if math.prod(zmod.modulus(v.sort) or 0 for v in free) > MAX_POINTS:
        return None
    return list(_points(free, defined))


def _definitions(vs: Sequence[Var], side: Term) -> list[tuple[Var, Term]]:
    """The conjuncts ``v = e`` (or ``e = v``) of ``side`` with v one of ``vs`` not in e."""
    equations = [c for c in conjuncts(side) if isinstance(c, App) and c.op == "eq" and len(c.args) == 2]
    return [(v, e) for c in equations for v in vs if (e := equated(v, c)) is not None]


def _points(free: Sequence[Var], defined: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for values in itertools.product(*(zmod.elements(v.sort) for v in free)):
        yield {**defined, **{v.name: x for v, x in zip(free, values, strict=True)}}


__all__ = ["MAX_POINTS", "decided"]
