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

from provers.ir import INT, NAT, RAT, REAL, App, Num, Term, Var, and_, app, cast, conjuncts
from provers.ir.terms import Quant
from provers.ir.traverse import bound_variables, children, free_vars, rebuild, subterms
from provers.semantics import evaluate
from provers.semantics.surds import ONE, Form, form_of
from provers.semantics.values import Undecided

#: Polynomials with more monomials, or a higher power of one unknown, are left to the solvers.
MAX_MONOMIALS = 64
MAX_DEGREE = 12

_RATIONAL_SORTS = (NAT, INT, RAT)

Monomial = tuple[tuple[Term, int], ...]  # sorted (atom, exponent) pairs; () is 1
Polynomial = dict[Monomial, Form]


#: Operations whose closed forms (``surds.FORMS``) may be irrational: a formula without one
#: has no surd to split along (one walk over it, most obligations).
IRRATIONAL_OPS = frozenset({"sqrt", "signed_sqrt", "powr", "rpow", "pi", "exp", "ln", "log", "logb", "isa_log",
                            "sin", "cos", "tan", "arcsin", "arccos", "arctan", "isa_arcsin", "isa_arccos"})


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
    left, right = (_polynomial(a, rational) for a in t.args)
    if left is None or right is None:
        return None
    difference = _add(left, {m: -c for m, c in right.items()})
    keys = {k for c in difference.values() for k in c.terms}
    if not keys - {(1, ONE)} or not any(m for m in difference):
        return None  # no surd, or no unknown: nothing to split (the evaluator folds it)
    parts = [app("eq", _term({m: c.terms.get(k, Fraction(0)) for m, c in difference.items()}), Num(0, REAL))
             for k in sorted(keys, key=repr)]
    return and_(*parts) if t.op == "eq" else app("not", and_(*parts))


def _polynomial(t: Term, rational: frozenset[Var]) -> Polynomial | None:
    """``t`` as Σ coefficient·monomial over its rational atoms, or None."""
    if _is_atom(t, rational):
        return {((t, 1),): Form.rational(1)}
    if not free_vars(t):
        try:
            form = form_of(t, lambda s: evaluate(s, {}))
        except (Undecided, ArithmeticError, ValueError, RecursionError):
            return None
        return None if form is None else ({(): form} if form.terms else {})
    if not isinstance(t, App):
        return None
    if t.op in ("add", "sub", "mul"):
        a, b = (_polynomial(x, rational) for x in t.args)
        if a is None or b is None:
            return None
        if t.op == "add":
            return _add(a, b)
        if t.op == "sub":
            return _add(a, {m: -c for m, c in b.items()})
        return _multiply(a, b)
    if t.op == "neg":
        a = _polynomial(t.args[0], rational)
        return None if a is None else {m: -c for m, c in a.items()}
    if t.op == "pow" and isinstance(t.args[1], Num) and 0 <= t.args[1].value <= MAX_DEGREE:
        base = _polynomial(t.args[0], rational)
        out: Polynomial | None = {(): Form.rational(1)}
        for _ in range(int(t.args[1].value)):
            if base is None or out is None:
                return None
            out = _multiply(out, base)
        return out
    if t.op == "div" and not free_vars(t.args[1]):
        a, d = _polynomial(t.args[0], rational), _polynomial(t.args[1], rational)
        if a is None or d is None or set(d) != {()}:
            return None  # a zero divisor (x / 0 = 0) or an unknown one
        inverse = d[()].inverse()
        return None if inverse is None else _multiply(a, {(): inverse})
    return None


def _is_atom(t: Term, rational: frozenset[Var]) -> bool:
    if t.sort in _RATIONAL_SORTS:
        return bool(free_vars(t))
    if isinstance(t, App) and t.op == "cast" and t.args[0].sort in _RATIONAL_SORTS:
        return bool(free_vars(t))
    return isinstance(t, Var) and t in rational


def _add(a: Polynomial, b: Polynomial) -> Polynomial:
    out = dict(a)
    for m, c in b.items():
        s = out[m] + c if m in out else c
        if s.terms:
            out[m] = s
        else:
            out.pop(m, None)
    return out


def _multiply(a: Polynomial, b: Polynomial) -> Polynomial | None:
    out: Polynomial = {}
    for ma, ca in a.items():
        for mb, cb in b.items():
            c = ca * cb
            m = _monomial_product(ma, mb)
            if c is None or m is None:
                return None
            out = _add(out, {m: c})
            if len(out) > MAX_MONOMIALS:
                return None
    return out


def _monomial_product(a: Monomial, b: Monomial) -> Monomial | None:
    powers: dict[Term, int] = dict(a)
    for atom, e in b:
        powers[atom] = powers.get(atom, 0) + e
        if powers[atom] > MAX_DEGREE:
            return None
    return tuple(sorted(powers.items(), key=lambda p: repr(p[0])))


def _term(p: dict[Monomial, Fraction]) -> Term:
    """Σ q·monomial as a real term (rational atoms cast to ℝ)."""
    out: Term | None = None
    for m, q in sorted(p.items(), key=lambda x: repr(x[0])):
        if q == 0:
            continue
        factor: Term = Num(q, REAL)
        for atom, e in m:
            x = cast(atom, REAL)
            factor = app("mul", factor, x if e == 1 else app("pow", x, Num(e, NAT)))
        out = factor if out is None else app("add", out, factor)
    return out if out is not None else Num(0, REAL)
