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

from provers.ir import (
    REAL,
    App,
    Num,
    Term,
    Var,
    app,
    conjuncts,
    free_vars,
    fresh_name,
    map_term,
    substitute,
)
from provers.semantics.approx import is_approx, is_rational
from provers.semantics.evaluate import evaluate, truth
from provers.semantics.surds import INVERSE_PAIRS


def _real(c: Fraction) -> Num:
    return Num(c, REAL)


def _holds(claim: Term) -> bool:
    return truth(claim) is True  # exact: a numeral at once, a closed irrational by certified bounds


def _squared(c: Term) -> Term:
    return _real(Fraction(c.value) ** 2) if isinstance(c, Num) else app("mul", c, c)


def _signed_square(c: Term) -> Term:
    if isinstance(c, Num):
        return _real(Fraction(c.value) * abs(Fraction(c.value)))
    return app("mul", c, app("abs", c))


def _within_one(y: Term) -> Term:
    return app("and", app("le", _real(Fraction(-1)), y), app("le", y, _real(Fraction(1))))


#: The values f takes, as a fact about y: of the fresh variable standing for f (x)
#: (``abstracted_applications``), and of the right sides c that ``f (x) = c`` can have (``SOLUTIONS``).
RANGES: dict[str, Callable[[Term], Term]] = {
    "sin": _within_one,
    "cos": _within_one,
    "exp": lambda y: app("lt", _real(Fraction(0)), y),
    "sqrt": lambda y: app("le", _real(Fraction(0)), y),
}


def _inverse(f: str, solve: Callable[[Term], Term]) -> Callable[[Term], Term | None]:
    """``solve`` where c lies in f's range (``RANGES``, decided exactly), else None."""
    return lambda c: solve(c) if f not in RANGES or _holds(RANGES[f](c)) else None


#: f (x) = c → the x solving it, for a closed real c (a numeral, or -1/√10: its range is then
#: checked by certified bounds); None where c is outside f's range. One entry per function.
SOLUTIONS: dict[str, Callable[[Term], Term | None]] = {
    "tan": _inverse("tan", lambda c: app("arctan", c)),
    "sin": _inverse("sin", lambda c: app("arcsin", c)),
    "cos": _inverse("cos", lambda c: app("arccos", c)),
    "exp": _inverse("exp", lambda c: app("log", c)),
    "ln": _inverse("ln", lambda c: app("exp", c)),
    "log": _inverse("log", lambda c: app("exp", c)),
    "sqrt": _inverse("sqrt", _squared),  # Real.sqrt (c²) = c for c ≥ 0
    "signed_sqrt": _inverse("signed_sqrt", _signed_square),  # Isabelle sqrt: sign x · √|x|
}


def equation_witnesses(candidates: Iterable[Var], facts: Iterable[Term], identities: bool | Iterable[Term] = False
                       ) -> dict[Var, Term]:
    """A closed term for each of ``candidates`` that an equation among ``facts`` solves:
    ``f v = c`` with f in ``SOLUTIONS`` and c closed with a real value; with
    ``identities`` (True, or the facts among which to take them), also ``v = t`` for a closed
    t (after the earlier solutions are put in, so ``U = 24 · cos V`` follows ``cos V = 2/3``).
    Each variable gets its first solution."""
    free = set(candidates)
    eqs = [f for f in facts if isinstance(f, App) and f.op == "eq"]
    by_identity = set(eqs) if identities is True else set(identities or ())
    found: dict[Var, Term] = {}
    changed = True
    while changed and free:
        changed = False
        for e in eqs:
            for lhs, rhs in ((e.args[0], e.args[1]), (e.args[1], e.args[0])):
                w = _solution(lhs, substitute(rhs, found), free, e in by_identity)
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
    c = evaluate(rhs)
    if is_rational(c):
        arg: Term = _real(Fraction(c))
    elif is_approx(c) and rhs.sort == REAL:
        arg = rhs  # irrational (-1/√10): the closed term itself, its range certified
    else:
        return None
    t = SOLUTIONS[lhs.op](arg)
    return None if t is None else linear_solution(lhs.args[0], t, free)


def linear_solution(arg: Term, value: Term, free: set[Var]) -> tuple[Var, Term] | None:
    """(v, the term making ``arg`` equal ``value``) where ``arg`` is v under additions,
    subtractions, negations, and products and quotients by closed terms (``sin (θ + π/4)``,
    ``cos (d · 300/360)``), or None. A closed factor may be 0: the witness then is wrong
    and the exact check of the model it enters says so."""
    while not isinstance(arg, Var):
        if not (isinstance(arg, App) and arg.sort == REAL and arg.op in _UNDO):
            return None
        if arg.op == "neg":
            arg, value = arg.args[0], app("neg", value)
            continue
        x, y = arg.args
        if not free_vars(y):
            arg, value = x, app(_UNDO[arg.op], value, y)
        elif not free_vars(x) and arg.op in ("add", "mul"):
            arg, value = y, app(_UNDO[arg.op], value, x)
        elif not free_vars(x) and arg.op == "sub":
            arg, value = y, app("sub", x, value)
        else:
            return None
    return (arg, value) if arg in free and arg.sort == REAL else None


#: The operation undoing ``x ∘ c`` for a closed c: x + c = w ⟹ x = w - c, and so on.
_UNDO = {"add": "sub", "sub": "add", "mul": "div", "div": "mul", "neg": "neg"}


def abstracted_applications(candidates: Iterable[Var], body: Term
                            ) -> tuple[Term, list[tuple[Var, str, Term, Var]]] | None:
    """``body`` with each application f (arg) of an equation ``f (arg) = t`` (t not closed;
    f in ``SOLUTIONS``; arg linear in one candidate v that occurs nowhere else) replaced by a
    fresh real y, and the list (y, f, arg, v). Why: ``cos C = A / B`` is polynomial once cos C
    is a variable y ∈ [-1, 1]; a model then gives y a rational value and C = arccos y solves
    the equation exactly (``Prover._abstracted_inverse_model`` re-checks the whole point). None when no
    such application exists."""
    free = set(candidates)
    eqs = [f for f in hypotheses(body) if isinstance(f, App) and f.op == "eq"]
    taken: list[tuple[Var, str, Term, Var]] = []
    used = {v.name for v in free_vars(body)}
    for e in eqs:
        for lhs, rhs in ((e.args[0], e.args[1]), (e.args[1], e.args[0])):
            if not (isinstance(lhs, App) and lhs.op in SOLUTIONS and len(lhs.args) == 1 and free_vars(rhs)):
                continue
            solved = linear_solution(lhs.args[0], Var("_", REAL), free)
            if solved is None or any(v == solved[0] for *_, v in taken):
                continue
            v = solved[0]
            y = Var(fresh_name(f"{lhs.op}_{v.name}", used), REAL)
            used.add(y.name)
            abstracted = map_term(body, lambda t, lhs=lhs, y=y: y if t == lhs else None)
            if v in free_vars(abstracted):
                continue  # v occurs elsewhere: its value is not f⁻¹ (y) alone
            body = abstracted
            taken.append((y, lhs.op, lhs.args[0], v))
            break
    return (body, taken) if taken else None


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


def assumed(body: Term) -> list[Term]:
    """The conjuncts a countermodel of the obligation's body makes true: of the antecedent of
    ``H → X`` and of the argument of ``¬`` (an equation there may fix a variable's value;
    one of the conclusion may not: the countermodel must make it false)."""
    if isinstance(body, App) and body.op in ("implies", "not"):
        return list(conjuncts(body.args[0]))
    return []


def hypotheses(body: Term) -> list[Term]:
    """The conjuncts an obligation's body assumes or asserts: of the antecedent of ``H → X``,
    of both sides of ``A ↔ B``, of the argument of ``¬``, and of the body itself."""
    out = list(conjuncts(body))
    if isinstance(body, App) and body.op in ("implies", "iff"):
        out += [c for a in body.args for c in conjuncts(a)]
    elif isinstance(body, App) and body.op == "not":
        out += conjuncts(body.args[0])
    return out


__all__ = ["SOLUTIONS", "assumed", "equation_witnesses", "hypotheses", "simplify_inverses"]
