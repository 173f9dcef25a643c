"""Values of variables read off the equations that pin them: ``tan B = 3/2`` is solved by
B = arctan (3/2), ``cos V = 2/3`` by V = arccos (2/3), ``exp x = 5`` by x = log 5, and
``U = 24 · cos V`` by the value of its right-hand side.

Why: the solvers know tan, cos, exp only through a few facts, so their models of such
premises put B anywhere and the exact evaluator, which knows tan, rejects them ("spurious
model"); and an ∃ over the reals is never decided by evaluation. A solution by the inverse
function is exact (``values.Witness``: the evaluator substitutes the term, and
``surds.INVERSE_PAIRS`` certifies tan (arctan c) = c). Choosing it is a specialization, so
it is sound both ways it is used (``Prover``): a countermodel found with B = arctan (3/2) is
a countermodel, and a choice of values making the body of ∃x̄. φ exactly true proves it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from fractions import Fraction

from provers.ir import REAL, App, Num, Term, Var, app, conjuncts, free_vars, map_term, substitute
from provers.semantics.approx import is_rational
from provers.semantics.evaluate import evaluate
from provers.semantics.surds import INVERSE_PAIRS


def _real(c: Fraction) -> Num:
    return Num(c, REAL)


#: f (x) = c → the x solving it (None where c is outside f's range). One entry per function.
SOLUTIONS: dict[str, Callable[[Fraction], Term | None]] = {
    "tan": lambda c: app("arctan", _real(c)),
    "sin": lambda c: app("arcsin", _real(c)) if -1 <= c <= 1 else None,
    "cos": lambda c: app("arccos", _real(c)) if -1 <= c <= 1 else None,
    "exp": lambda c: app("log", _real(c)) if c > 0 else None,
    "ln": lambda c: app("exp", _real(c)),
    "log": lambda c: app("exp", _real(c)),
    "sqrt": lambda c: _real(c * c) if c >= 0 else None,  # Real.sqrt (c²) = c for c ≥ 0
    "signed_sqrt": lambda c: _real(c * abs(c)),  # Isabelle sqrt: sign x · √|x|
}


def equation_witnesses(candidates: Iterable[Var], facts: Iterable[Term], identities: bool = False) -> dict[Var, Term]:
    """A closed term for each of ``candidates`` that an equation among ``facts`` solves:
    ``f v = c`` with f in ``SOLUTIONS`` and c closed with a rational value; with
    ``identities``, also ``v = t`` for a closed t (after the earlier solutions are put in,
    so ``U = 24 · cos V`` follows ``cos V = 2/3``). Each variable gets its first solution."""
    free = set(candidates)
    eqs = [f for f in facts if isinstance(f, App) and f.op == "eq"]
    found: dict[Var, Term] = {}
    changed = True
    while changed and free:
        changed = False
        for e in eqs:
            for lhs, rhs in ((e.args[0], e.args[1]), (e.args[1], e.args[0])):
                w = _solution(lhs, substitute(rhs, found), free, identities)
                if w is not None:
                    v, t = w
                    found[v] = t
                    free.discard(v)
                    changed = True
                    break
    return found


def _solution(lhs: Term, rhs: Term, free: set[Var], identities: bool) -> tuple[Var, Term] | None:
    if free_vars(rhs):
        return None
    if isinstance(lhs, Var):
        return (lhs, rhs) if identities and lhs in free and lhs.sort == rhs.sort else None
    if not (isinstance(lhs, App) and lhs.op in SOLUTIONS and len(lhs.args) == 1):
        return None
    v = lhs.args[0]
    if not (isinstance(v, Var) and v in free and v.sort == REAL):
        return None
    c = evaluate(rhs)
    if not is_rational(c):
        return None
    t = SOLUTIONS[lhs.op](Fraction(c))
    return None if t is None else (v, t)


def simplify_inverses(t: Term) -> Term:
    """``t`` with f (g c) replaced by c for the pairs of ``surds.INVERSE_PAIRS`` at a numeral
    where the identity holds: what the solvers, which know tan only by facts, should see."""

    def rw(s: Term) -> Term | None:
        if not (isinstance(s, App) and len(s.args) == 1 and isinstance(s.args[0], App)):
            return None
        inner = s.args[0]
        cond = INVERSE_PAIRS.get((s.op, inner.op))
        if cond is None or len(inner.args) != 1 or not isinstance(inner.args[0], Num):
            return None
        c = inner.args[0].value
        return inner.args[0] if is_rational(c) and cond(Fraction(c)) else None

    return map_term(t, rw)


def hypotheses(body: Term) -> list[Term]:
    """The conjuncts an obligation's body assumes or asserts: of the antecedent of ``H → X``,
    of both sides of ``A ↔ B``, of the argument of ``¬``, and of the body itself."""
    out = list(conjuncts(body))
    if isinstance(body, App) and body.op in ("implies", "iff"):
        out += [c for a in body.args for c in conjuncts(a)]
    elif isinstance(body, App) and body.op == "not":
        out += conjuncts(body.args[0])
    return out


__all__ = ["SOLUTIONS", "equation_witnesses", "hypotheses", "simplify_inverses"]
