"""Strict and non-strict bounds on a positive real quantifier are alike (a dense order).

Analysis statements bound a δ or an ε strictly or not at the author's whim: GTED
``exercise_4_21a`` states ``∃ δ > 0, ∀ p q, … → dist p q ≥ δ`` where its candidate says
``δ < dist p q``, and the solvers do not find the halved witness that shows them equivalent.
Here both are rewritten to one form, in which the bounds on such a variable are strict, so
that equal canonical keys prove the equivalence.

The rewrite (``strict_bounds``), for ``∃ δ, 0 < δ ∧ Ψ`` and ``∀ δ, 0 < δ ∧ … → Ψ`` with δ
of sort ℝ or ℚ: δ occurs in Ψ only bare, on one side of comparisons ``<, ≤, >, ≥`` whose
other side does not mention it, and Ψ is monotone in δ: every such comparison, read with its
polarity, gets truer as δ shrinks (δ on the small side in a positive position, on the large
side in a negative one), or every one as δ grows. Then each ``≤`` / ``≥`` on δ becomes
``<`` / ``>``. Why it is an equivalence, as δ shrinks (δ' = δ / 2 > 0; as δ grows, 2δ):

- positive ``δ ≤ t`` at δ gives ``δ' < t``, and ``δ < t`` gives ``δ' ≤ t`` (δ' < δ);
- negative ``t < δ'`` gives ``t ≤ δ``, and ``t ≤ δ'`` gives ``t < δ``;

so Ψ(δ) implies the rewritten Ψ at δ', and the rewritten Ψ at δ implies Ψ(δ'), atom by atom
through the monotone connectives. For ∃ this moves the witness; for ∀ instantiate 2δ (or δ/2).
Sufficient only: a rewrite that does not apply changes nothing.
"""

from __future__ import annotations

from provers.ir import (
    RAT,
    REAL,
    App,
    Num,
    Quant,
    Term,
    Var,
    and_,
    app,
    canon_key,
    conjuncts,
    foralls_outward,
    free_vars,
    subterms,
)

__all__ = ["same_up_to_bounds", "strict_bounds"]

#: comparison → (its strict form, whether its first argument is the small side)
_BOUNDS = {"lt": ("lt", True), "le": ("lt", True), "gt": ("gt", False), "ge": ("gt", False)}
_DENSE = (REAL, RAT)
_CONNECTIVES = frozenset({"and", "or", "not", "implies", "iff"})


def same_up_to_bounds(p: Term, q: Term) -> bool:
    """Whether ``p`` and ``q`` are one formula once their ∀s are pulled outward and the
    bounds on their positive ℝ / ℚ quantifiers made strict: then ``p ↔ q`` is valid."""
    if not (any(isinstance(s, Quant) for s in subterms(p)) and any(isinstance(s, Quant) for s in subterms(q))):
        return False
    return canon_key(strict_bounds(foralls_outward(p))) == canon_key(strict_bounds(foralls_outward(q)))


def strict_bounds(t: Term) -> Term:
    """``t`` with the bounds on every positive ℝ / ℚ quantifier that only bounds made strict
    (the module docstring says when, and why that is the same formula); ``t`` itself when
    nothing applies."""
    if isinstance(t, Quant):
        body = strict_bounds(t.body)
        out = t if body is t.body else Quant(t.kind, t.vars, body)
        for v in t.vars:
            out = _strict_on(out, v)
        return out
    if isinstance(t, App) and t.op in _CONNECTIVES:
        args = tuple(strict_bounds(a) for a in t.args)
        return t if all(a is b for a, b in zip(args, t.args, strict=True)) else app(t.op, *args)
    return t


def _strict_on(q: Quant, v: Var) -> Quant:
    if v.sort not in _DENSE or q.kind not in ("exists", "forall"):
        return q
    if q.kind == "exists":
        facts = conjuncts(q.body)
        guards = [p for p in facts if _positive(p, v)]
        rest = [p for p in facts if not _positive(p, v)]
        if not guards or not _monotone(and_(*rest), v):
            return q
        return Quant(q.kind, q.vars, and_(*guards, *(_strict(p, v) for p in rest)))
    if not (isinstance(q.body, App) and q.body.op == "implies"):
        return q
    hyps, goal = conjuncts(q.body.args[0]), q.body.args[1]
    guards = [p for p in hyps if _positive(p, v)]
    rest = [p for p in hyps if not _positive(p, v)]
    if not guards or not _monotone(app("implies", and_(*rest), goal), v):
        return q
    return Quant(q.kind, q.vars, app("implies", and_(*guards, *(_strict(p, v) for p in rest)), _strict(goal, v)))


def _positive(p: Term, v: Var) -> bool:
    """``0 < v`` or ``v > 0``."""
    if not (isinstance(p, App) and p.op in ("lt", "gt")):
        return False
    small, large = p.args if p.op == "lt" else p.args[::-1]
    return large == v and isinstance(small, Num) and small.value == 0


def _monotone(t: Term, v: Var) -> bool:
    """Whether ``v`` occurs in ``t`` only as a bound, all of them moving ``t`` one way, and at
    least one of them not strict (otherwise there is nothing to rewrite)."""
    ways: set[bool] = set()
    loose: list[bool] = []
    if not _bounds(t, v, True, ways, loose):
        return False
    return len(ways) == 1 and any(loose)


def _bounds(t: Term, v: Var, positive: bool, ways: set[bool], loose: list[bool]) -> bool:
    """Collect into ``ways`` whether each bound on ``v`` gets truer as ``v`` shrinks, read
    with its polarity; False where ``v`` occurs otherwise (inside a term, an iff, a binder
    of its own name)."""
    if v not in free_vars(t):
        return True
    if isinstance(t, Quant) and t.kind in ("exists", "forall"):
        return v not in t.vars and _bounds(t.body, v, positive, ways, loose)
    if not isinstance(t, App):
        return False
    if t.op in ("and", "or"):
        return all(_bounds(a, v, positive, ways, loose) for a in t.args)
    if t.op == "not":
        return _bounds(t.args[0], v, not positive, ways, loose)
    if t.op == "implies":
        return _bounds(t.args[0], v, not positive, ways, loose) and _bounds(t.args[1], v, positive, ways, loose)
    if t.op in _BOUNDS:
        a, b = t.args
        if a == v and v not in free_vars(b):
            v_small = _BOUNDS[t.op][1]
        elif b == v and v not in free_vars(a):
            v_small = not _BOUNDS[t.op][1]
        else:
            return False
        ways.add(v_small == positive)
        loose.append(t.op in ("le", "ge"))
        return True
    return False


def _strict(t: Term, v: Var) -> Term:
    """Every bound on ``v`` in ``t`` strict (``t`` checked by ``_bounds``)."""
    if v not in free_vars(t):
        return t
    if isinstance(t, Quant):
        return Quant(t.kind, t.vars, _strict(t.body, v))
    assert isinstance(t, App)
    if t.op in ("le", "ge"):
        return app(_BOUNDS[t.op][0], *t.args)
    if t.op in _BOUNDS:
        return t
    return app(t.op, *(_strict(a, v) for a in t.args))
