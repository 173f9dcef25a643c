"""An ∃ over ℚ or ℝ that one linear equation decides, eliminated: ``∃k:ℝ. 60 + n = k·n`` is
``n ≠ 0 ∨ 60 + n = 0``.

Why: MATH candidates write "n divides 60 + n" as ``∃k. 60 + n = k * n`` and leave k real (a
fixed ``n :: real``, or a set ``{n. … ∧ (∃k. …)}`` whose element type Isabelle infers as real).
Over a field that condition is true everywhere but at one point, which neither the solvers
(a quantifier over a nonlinear product) nor the evaluator (``card`` of a set known only by
membership, ``{n :: real. 1 ≤ n ≤ 9 ∧ (∃k. 60 + n = k * n)}``) could see; written without the
quantifier, the set is an interval and its card is 0 (it is infinite), and ``∃k. ↑n = 729 * k``
is simply true.

Exactness: over a field, ``∃k. c₁·k + c₀ = 0`` holds iff ``c₁ ≠ 0 ∨ c₀ = 0`` (k = −c₀/c₁, or
any k). Only an equation that is affine in k with coefficients free of k counts: it is read
by ``closed_forms.affine_terms`` (ring operations, casts as embeddings, division by terms
free of k; ℕ subtraction only where it cannot truncate), so ``c₁·k + c₀`` is its exact value.
k must occur in no other conjunct of the ∃ (with k in others too, the solvers and the
evaluator's one-point rules see k = −c₀/c₁ themselves).
"""

from __future__ import annotations

from provers.ir import (
    FALSE,
    FIELDS,
    TRUE,
    App,
    Num,
    Quant,
    Term,
    and_,
    app,
    conjuncts,
    free_vars,
    or_,
    provably_inhabited,
)
from provers.ir.sorts import COMPLEX
from provers.ir.traverse import map_term, subterms
from provers.semantics.closed_forms import affine_terms

__all__ = ["eliminate_linear_exists"]


def eliminate_linear_exists(t: Term) -> Term:
    """``t`` with every ∃ over ℚ/ℝ that a linear equation decides eliminated (module docstring)."""
    if not any(isinstance(s, Quant) and s.kind == "exists" for s in subterms(t)):
        return t  # most premises: no rebuilding
    out = map_term(t, lambda s: _eliminated(s) if isinstance(s, Quant) and s.kind == "exists" else None)
    return _folded(out) if out is not t else t


def _eliminated(q: Quant) -> Term | None:
    """One ∃ node with its eliminable variables removed, or None when none is."""
    body = conjuncts(q.body)
    left = list(q.vars)
    for v in q.vars:
        if v.sort not in FIELDS or v.sort == COMPLEX:
            continue
        uses = [i for i, c in enumerate(body) if v in free_vars(c)]
        line = affine_terms(v, body[uses[0]]) if len(uses) == 1 else None
        if line is not None:
            body[uses[0]] = _solvable(*line)
            left.remove(v)
    if len(left) == len(q.vars):
        return None
    return _folded(Quant("exists", tuple(left), and_(*body)) if left else and_(*body))


def _folded(t: Term) -> Term:
    """``t`` with the truth constants an elimination left folded away (``True ∧ P`` is P;
    ``∃x. True`` is True only where x's type is provably inhabited)."""
    def fold(s: Term) -> Term | None:
        if isinstance(s, Quant) and s.body in (TRUE, FALSE):
            vacuous = TRUE if s.kind == "forall" else FALSE  # ∀x. True, ∃x. False: any type
            if s.body == vacuous or all(provably_inhabited(v.sort) for v in s.vars):
                return s.body
            return None
        if not (isinstance(s, App) and s.op in ("and", "or")):
            return None
        unit, zero = (TRUE, FALSE) if s.op == "and" else (FALSE, TRUE)
        if zero in s.args:
            return zero
        return (and_ if s.op == "and" else or_)(*s.args) if unit in s.args else None  # the unit dropped

    return map_term(t, fold)


def _is_zero(t: Term) -> bool:
    return isinstance(t, Num) and t.value == 0


def _solvable(c1: Term, c0: Term) -> Term:
    """``c₁ ≠ 0 ∨ c₀ = 0``, folded where c₁ or c₀ is a numeral (``affine_terms`` never gives a
    zero c₁: a numeral c₁ is nonzero)."""
    if isinstance(c1, Num) or _is_zero(c0):
        return TRUE
    if isinstance(c0, Num):
        return app("ne", c1, Num(0, c1.sort))
    return app("or", app("ne", c1, Num(0, c1.sort)), app("eq", c0, Num(0, c0.sort)))
