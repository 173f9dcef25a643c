"""Values the evaluator knows as closed terms: a recurrence's elements and λ-valued variables.

Why a module of its own: some values are exact only as terms — an element of a recurrence
whose initial value is irrational (``a 2 = 1/√3``: a ``Witness`` holding its closed term), or
a function variable bound to a λ (a ``Closure``) whose value at an irrational point is only an
approximation. A relation between such values is decided by the certified sign of the two
sides written as closed terms (``certify.certified_sign`` through the closed forms of
``surds``), which sees through what the value hides. ``evaluate`` reads recurrences with
``sequence_at`` and sends relations over such values to ``witness_relation`` /
``closed_arguments``; ``closed_term`` is also the engine's way to write a model's value of a
term (``engine.definitions``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from provers.ir import (
    COMPLEX,
    INT,
    NAT,
    REAL,
    App,
    Lam,
    Num,
    Sort,
    Term,
    Var,
    beta_reduced,
    free_vars,
    is_numeric,
    map_term,
    size,
    substitute,
    subterms,
)
from provers.semantics.approx import is_approx
from provers.semantics.certify import certified_sign
from provers.semantics.evaluate import (
    DEADLINE_EVERY,
    SIGN_RELATION,
    Env,
    free_vars_by_identity,
    step_state,
    term_value,
)
from provers.semantics.surds import form_of, form_term
from provers.semantics.values import Closure, Sequence, Undecided, Witness

#: Largest index a recurrence is computed up to.
MAX_SEQUENCE_INDEX = 20_000


def sequence_at(f: Sequence, m: Any) -> Any:
    if not isinstance(m, int) or isinstance(m, bool) or (m < 0 and f.var.sort == NAT):
        raise Undecided(f"{f.name} applied at {m!r}, not an index of the sequence")
    if m < f.start:
        return f.initial.get(m, 0)
    if m in f.memo:
        return f.memo[m]
    if m > MAX_SEQUENCE_INDEX:
        raise Undecided(f"{f.name} {m}: beyond the recurrence's computed range")
    first = f.start + len(f.memo)  # filled bottom-up from start: no gaps
    inner = dict(f.env)
    inner[f.name] = f
    deadline = getattr(step_state, "deadline", None)
    for i in range(first, m + 1):  # bounded by MAX_SEQUENCE_INDEX and memoized: no step budget
        if deadline is not None and i % DEADLINE_EVERY == 0:
            deadline.check("exact evaluation")
        if f.closed_terms:  # an initial value is a witness (`a 2 = 1/√3`): elements as closed terms
            term = _element_term(f, i)
            value = term_value(term, {})
            f.memo[i] = Witness(term) if is_approx(value) else value
        else:
            f.memo[i] = term_value(f.rule, {**inner, f.var.name: i})
    return f.memo[m]


def witness_relation(t: App, vals: list[Any], env: Env) -> bool:
    """A relation with an argument whose value is known as a closed term (a ``Witness`` a
    function returned): decided by the certified sign of the two closed terms (the other
    argument closed under ``env`` when its value is inexact: ``1 / √6``)."""
    closed = [_value_term(v, a.sort) or _closed_side(a, env) for v, a in zip(vals, t.args, strict=True)]
    if any(c is None for c in closed):
        raise Undecided("a value known only as its closed term compared with an inexact one")
    if t.op in ("eq", "ne") and closed[0] == closed[1]:
        return t.op == "eq"
    sign = certified_sign(closed[0], closed[1], lambda u: term_value(u, {}))  # type: ignore[arg-type]
    if sign is None:
        raise Undecided("the sign of a difference of closed terms is not certified")
    return SIGN_RELATION[t.op](sign)


def _value_term(x: Any, sort: Sort) -> Term | None:
    """A value of ``sort`` as a closed term: a witness's own term, an exact number of the
    sort as a numeral; None for anything else."""
    if isinstance(x, Witness):
        return x.term if x.term.sort == sort else None
    if isinstance(x, (int, Fraction)) and not isinstance(x, bool) and is_numeric(sort) and sort != COMPLEX:
        if sort in (NAT, INT) and not isinstance(x, int) or sort == NAT and x < 0:
            return None
        return Num(x, sort)
    return None


def _closed_side(t: Term, env: Env) -> Term | None:
    """``t`` as a closed term: each application of a recurrence at an index replaced by that
    element's closed term (``a 1 + 2 · a 2``), the rest closed under ``env`` (``closed_term``)."""
    return closed_term(_elements_closed(t, env), env)


def _elements_closed(t: Term, env: Env) -> Term:
    """``t`` with each application ``u k`` of a recurrence (``env[u]`` a ``Sequence``) at an
    index it evaluates replaced by that element as a closed term, where it has one."""
    def element(s: Term) -> Term | None:
        if isinstance(s, App) and s.op == "apply" and len(s.args) == 2 and isinstance(s.args[0], Var) \
                and isinstance(env.get(s.args[0].name), Sequence):
            try:
                return _value_term(sequence_at(env[s.args[0].name], term_value(s.args[1], env)), s.sort)
            except Undecided:
                return None
        return None

    return map_term(t, element)


#: Largest closed term a recurrence's element is kept as (``sequence_at``).
MAX_WITNESS_TERM = 400


def _element_term(f: Sequence, m: int) -> Term:
    """Element m of a recurrence as a closed term: the rule at m with each earlier element
    it applies replaced by that element's value as a term (its witness's, or a numeral)."""
    term = _elements_closed(substitute(f.rule, {f.var: Num(m, f.var.sort)}), {**f.env, f.name: f})
    if any(isinstance(s, Var) and s.name == f.name for s in subterms(term)):
        raise Undecided(f"{f.name} {m}: an earlier element has no closed term")
    form = form_of(term, lambda u: term_value(u, {})) if term.sort == REAL else None
    compact = form_term(form, REAL) if form is not None else None
    term = compact if compact is not None else term  # ℚ(√3) stays a + b·√3: no blow-up
    if size(term) > MAX_WITNESS_TERM:
        raise Undecided(f"{f.name} {m}: its closed term grows past {MAX_WITNESS_TERM} nodes")
    return term


def closed_arguments(t: App, env: Env) -> tuple[Term, Term] | None:
    """``t``'s two sides as closed terms: each variable replaced by its exact rational value,
    its ``Witness`` term or its λ (``Closure``), applications of a λ reduced. The closed forms
    (``surds``) see through what a value hides: p (3 + √7) = 0 at p = λx. x² − 6x + 2 is a
    certified zero, where p's value at the point is only an approximation."""
    if not any(isinstance(env.get(v.name), Closure) for v in free_vars_by_identity(t)):
        return None  # rationals and witnesses the closed forms read already: nothing to gain
    closed = [closed_term(a, env, CLOSURE_DEPTH) for a in t.args]
    if any(c is None for c in closed):
        return None
    return tuple(map_term(beta_reduced(c), _branch_taken) for c in closed)  # type: ignore[return-value,arg-type]


def _branch_taken(t: Term) -> Term | None:
    """A closed ``if c then a else b`` as the branch c's exact truth value selects (a
    piecewise function at a point: the closed forms have no ``if``)."""
    if isinstance(t, App) and t.op == "ite" and not free_vars(t.args[0]):
        try:
            c = term_value(t.args[0], {})
        except Undecided:
            return None
        if isinstance(c, bool):
            return t.args[1] if c else t.args[2]
    return None


#: How deep closures referring to closures are unfolded by ``closed_term``.
CLOSURE_DEPTH = 3
_MISSING = object()


def closed_term(t: Term, env: Env, closure_depth: int = 0) -> Term | None:
    """``t`` with each free variable replaced by its value in ``env`` as a term: an exact
    rational as a numeral, a ``Witness`` as its term, and — ``closure_depth`` levels deep — a
    closure as its λ (over its own captured values); None where a variable has another value.
    The closed forms then read what a value hides (√7 behind a witness, the λ behind p)."""
    mapping: dict[Var, Term] = {}
    for v in free_vars(t):
        x = env.get(v.name, _MISSING)
        as_term = _value_term(x, v.sort)
        if as_term is not None:
            mapping[v] = as_term
        elif isinstance(x, Closure) and closure_depth > 0:
            body = closed_term(Lam(x.vars, x.body), x.env, closure_depth - 1)
            if body is None or body.sort != v.sort:
                return None
            mapping[v] = body
        else:
            return None
    return substitute(t, mapping) if mapping else t
