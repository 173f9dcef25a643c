"""Equations between polynomials in rational unknowns with surd coefficients, split along
the basis of the surds before the solvers see them.

Why: with a, b, c integers, ``a·(3 + √7)² + b·(3 + √7) + c = 0`` is the two linear equations
16a + 3b + c = 0 and 6a + b = 0, because 1 and √7 are linearly independent over ℚ (as are
the √m·L of ``surds.Form``'s basis). Given √7 as a symbol whose square is 7, z3 and cvc5
search a nonlinear problem and time out (MATH intermediate_algebra/problem_589, a quadratic
with integer coefficients and the root 3 + √7: the answer's second value 6/7 was never found).

A value is rational when its sort is ℕ, ℤ or ℚ (or it is the cast of one), or it is a real
variable that a conjunction it appears in says is an integer or a rational (``↑⌊a⌋ = a``,
``∃n :: rat. a = ↑n``: Isabelle's ``a ∈ ℤ``, ``a ∈ ℚ``); a hypothesis says it for its
conclusion too. The rewrite is an equivalence wherever those conjuncts hold — inside the
conjunction or under the hypothesis — so it is sound at either polarity.
"""

from __future__ import annotations

from fractions import Fraction

from provers.ir import ANALYTIC, INT, NAT, RAT, REAL, App, Num, Term, Var, and_, app, conjuncts
from provers.ir.terms import Quant
from provers.ir.traverse import bound_variables, children, free_vars, rebuild, subterms
from provers.semantics import evaluate
from provers.semantics.closed_forms import PolynomialReader, polynomial_term
from provers.semantics.surds import ONE, Form, form_of
from provers.semantics.values import Undecided

#: Polynomials with more monomials are left to the solvers.
MAX_MONOMIALS = 64

_RATIONAL_SORTS = (NAT, INT, RAT)


#: Operations whose closed forms (``surds.FORMS``) may be irrational: a formula without one
#: has no surd to split along (one walk over it, most obligations).
IRRATIONAL_OPS = ANALYTIC | {"pi", "powr", "rpow", "logb", "isa_log"}


def split_surd_equations(t: Term) -> Term:
    """``t`` with each real equation (or ≠) between polynomials in rational unknowns whose
    coefficients are surds replaced by the equations of its components along the basis."""
    if not any(isinstance(s, App) and s.op in IRRATIONAL_OPS for s in subterms(t)):
        return t
    return _rewrite(t, frozenset())


def _rewrite(t: Term, rational: frozenset[Var]) -> Term:
    if isinstance(t, App):
        if t.op in ("and", "implies"):
            said = conjuncts(t) if t.op == "and" else conjuncts(t.args[0])
            rational = rational | frozenset(v for c in said for v in _said_rational(c))
        elif t.op in ("eq", "ne") and t.args[0].sort == REAL:
            split = _split(t, rational)
            if split is not None:
                return split
    bound = bound_variables(t)
    if bound:
        rational = rational - frozenset(bound)
    kids = children(t)
    if not kids:
        return t
    new = tuple(k if isinstance(k, Var) else _rewrite(k, rational) for k in kids)
    return t if all(a is b for a, b in zip(new, kids, strict=True)) else rebuild(t, new)


def _said_rational(c: Term) -> tuple[Var, ...]:
    """The real variable the conjunct ``c`` says is an integer (``↑⌊a⌋ = a``) or the cast of
    a number of a rational sort (``a = ↑n``, ``∃n :: rat. a = ↑n``)."""
    if isinstance(c, Quant) and c.kind == "exists" and len(c.vars) == 1 and c.vars[0].sort in _RATIONAL_SORTS:
        c, n = c.body, c.vars[0]
        if isinstance(c, App) and c.op == "eq":
            for v, e in (c.args, c.args[::-1]):
                if isinstance(v, Var) and v.sort == REAL and isinstance(e, App) and e.op == "cast" and e.args == (n,):
                    return (v,)
        return ()
    if isinstance(c, App) and c.op == "eq":
        for v, e in (c.args, c.args[::-1]):
            if isinstance(v, Var) and v.sort == REAL and isinstance(e, App) and e.op == "cast":
                if e.args[0].sort in _RATIONAL_SORTS and v not in free_vars(e):  # a = ↑n, n :: rat
                    return (v,)
                if isinstance(e.args[0], App) and e.args[0].op == "floor" and e.args[0].args == (v,):
                    return (v,)  # ↑⌊a⌋ = a
    return ()


def _split(t: App, rational: frozenset[Var]) -> Term | None:
    """The components along the basis of ``lhs − rhs`` read as a polynomial
    (``closed_forms.PolynomialReader``) whose atoms are closed terms (their closed forms, the
    coefficients) or rational unknowns (the monomials), or None."""
    poly = PolynomialReader(None, None).read(app("sub", *t.args))
    if poly is None or len(poly) > MAX_MONOMIALS:
        return None
    components: dict[tuple[Term, ...], Form] = {}  # rational monomial ↦ its surd coefficient
    for (_, _, atoms), c in poly.items():
        coefficient: Form | None = Form.rational(c)
        unknowns = []
        for a in atoms:
            if free_vars(a):
                if not (a.sort in _RATIONAL_SORTS or a in rational):
                    return None  # an unknown that may be irrational: no basis to split along
                unknowns.append(a)
                continue
            form = _closed_form(a)
            coefficient = None if form is None or coefficient is None else coefficient * form
            if coefficient is None:
                return None
        key = tuple(unknowns)
        components[key] = components[key] + coefficient if key in components else coefficient
    keys = {k for c in components.values() for k in c.terms}
    if not keys - {(1, ONE)} or not any(components):
        return None  # no surd, or no unknown: nothing to split (the evaluator folds it)
    parts = []
    for k in sorted(keys, key=repr):
        along = {(0, Fraction(1), m): c.terms[k] for m, c in components.items() if k in c.terms}
        parts.append(app("eq", polynomial_term(along, REAL)[0], Num(0, REAL)))
    return and_(*parts) if t.op == "eq" else app("not", and_(*parts))


def _closed_form(t: Term) -> Form | None:
    try:
        return form_of(t, lambda s: evaluate(s, {}))
    except (Undecided, ArithmeticError, ValueError, RecursionError):
        return None
