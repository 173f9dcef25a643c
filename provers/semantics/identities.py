"""Polynomial identities: ``∀x. p(x) = q(x)`` is ``⋀ (coefficients of p − q in x) = 0``.

Why: "find a, b, c with 24x² − 19x − 35 = (ax − 5)(2bx + c) for all x" is a common shape,
and neither solver finds a model of a ∀ over nonlinear real arithmetic, nor can the exact
evaluator check one (the domain is unbounded). A polynomial over an infinite integral
domain (ℕ, ℤ, ℚ, ℝ) vanishes at every point, or at every point off finitely many hyperplanes
``x ≠ c``, exactly when each of its coefficients is zero, so the rewrite is an equivalence
with the IR's own semantics, for the solvers and the evaluator alike.

Read as a polynomial only where that is its exact meaning (``closed_forms.PolynomialReader``: ring
operations, casts, division by a nonzero numeral outside ℕ, numeral powers, ℕ subtraction
never); anything else — a function applied to a bound variable, ℤ division, a complex
variable — gives None and the caller keeps its other encoding.
"""

from __future__ import annotations

from fractions import Fraction
from math import lcm

from provers.ir import (
    COMPLEX,
    INT,
    NAT,
    TRUE,
    App,
    Num,
    Quant,
    Term,
    Var,
    app,
    by_identity,
    free_vars,
    is_numeric,
)
from provers.semantics.closed_forms import Poly, PolynomialReader, polynomial_term

#: Most coefficient equations one identity may become (the product of degrees + 1).
MAX_EQUATIONS = 64


def _guard_ok(g: Term, bound: frozenset[Var]) -> bool:
    """``x ≠ e`` (or a conjunction of them) with e free of the bound variables: it removes a
    hyperplane, and a polynomial vanishing off finitely many hyperplanes is zero."""
    if isinstance(g, App) and g.op == "and":
        return all(_guard_ok(a, bound) for a in g.args)
    if isinstance(g, App) and g.op == "ne":
        a, b = g.args
        return (a in bound and not free_vars(b) & bound) or (
            b in bound and not free_vars(a) & bound
        )
    if isinstance(g, App) and g.op == "not" and isinstance(g.args[0], App) and g.args[0].op == "eq":
        return _guard_ok(app("ne", *g.args[0].args), bound)
    return False


@by_identity()  # an outer binder's probes ask it of the same ∀ at every value tried
def polynomial_identity(t: Quant) -> Term | None:
    """The coefficient equations equivalent to the identity ``t``, or None."""
    if t.kind != "forall" or not t.vars:
        return None
    bound = frozenset(t.vars)
    if any(not is_numeric(v.sort) or v.sort == COMPLEX for v in t.vars):
        return None
    body = t.body
    if isinstance(body, App) and body.op == "implies":
        if not _guard_ok(body.args[0], bound):
            return None
        body = body.args[1]
    if (
        not (isinstance(body, App) and body.op == "eq" and is_numeric(body.args[0].sort))
        or body.args[0].sort == COMPLEX
    ):
        return None
    reader = PolynomialReader(None, None)
    p, q = reader.read(body.args[0]), reader.read(body.args[1])
    if p is None or q is None:
        return None
    groups: dict[tuple[tuple[Var, int], ...], Poly] = {}
    diff: Poly = dict(p)
    for m, c in q.items():
        diff[m] = diff.get(m, Fraction(0)) - c
        if diff[m] == 0:
            del diff[m]
    for (deg, r, atoms), c in diff.items():
        powers: dict[Var, int] = {}
        rest: list[Term] = []
        for a in atoms:
            if a in bound:
                powers[a] = powers.get(a, 0) + 1  # type: ignore[index]
            elif free_vars(a) & bound:
                return None  # sin x, f x, x / y: not a polynomial in the bound variables
            else:
                rest.append(a)
        key = tuple(sorted(powers.items(), key=lambda kv: kv[0].name))
        g = groups.setdefault(key, {})
        g[(deg, r, tuple(rest))] = g.get((deg, r, tuple(rest)), Fraction(0)) + c
    if len(groups) > MAX_EQUATIONS:
        return None
    work = INT if body.args[0].sort == NAT else body.args[0].sort
    equations: list[Term] = []
    for g in groups.values():
        g = {m: c for m, c in g.items() if c}
        if not g:
            continue
        scale = lcm(*(c.denominator for c in g.values()))
        term, facts = polynomial_term({m: c * scale for m, c in g.items()}, work)
        assert not facts  # integer coefficients: no division
        equations.append(app("eq", term, Num(0, work)))
    if not equations:
        return TRUE
    return equations[0] if len(equations) == 1 else app("and", *equations)


__all__ = ["MAX_EQUATIONS", "polynomial_identity"]
