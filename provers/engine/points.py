"""Points at which an obligation is evaluated exactly: sampled assignments, points where the
functions, sets, sequences and scalars the premises define take their definitions, the usual
solutions of a functional equation, and a point falsifying a ∀ found in its finite domains.

Why one module: each is a candidate countermodel and nothing more — the evaluator is exact, so
a point where the formula is exactly False is a validated countermodel, and a point where it
is not proves nothing. ``prover.Prover`` asks them before and after the backend.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from provers.deadline import Deadline, DeadlineExceeded
from provers.engine.definitions import (
    function_definitions,
    guarded_definitions,
    least_points,
    scalar_definitions,
    set_definitions,
    with_scalar_definitions,
)
from provers.engine.normal import sort_mentions
from provers.engine.premise_models import complete_model
from provers.engine.recurrences import (
    initial_indices,
    initial_values,
    recurrences,
)
from provers.ir import (
    INT,
    NAT,
    RAT,
    REAL,
    BigOp,
    FunSort,
    Lam,
    Num,
    OpaqueSort,
    Quant,
    SetBuilder,
    Sort,
    Term,
    Var,
    app,
    known_elements,
    substitute,
    subterms,
)
from provers.semantics import (
    Closure,
    Sequence,
    evaluate,
    numeral_probes,
    sample_assignments,
    truth,
)
from provers.semantics.approx import is_approx
from provers.semantics.domains import bound_domain, guards
from provers.semantics.memo import Unkeyable, value_key
from provers.semantics.values import Undetermined

log = logging.getLogger(__name__)

#: The numeral and sampled points stop once this many in a row, from the first, leave the
#: evaluator undecided (an unbounded ∀ it can only probe, a value it cannot compute). On
#: isabelle_math_400 the sampling's misses were a quarter of a run's time, 34 s of it at
#: points where the evaluator decided nothing at all, and 39 of its 9882 countermodels came
#: after 8 undecided evaluations from the first (docs/benchmarks.md, stop 32).
UNDECIDED_POINTS = 8
#: Of those (after the probes), how many are tried again with defined functions unfolded.
DEFINED_POINTS = 6
#: Share of a check's remaining time the points with defined scalars may take.
DEFINED_SHARE = 0.25
#: Scalar definitions (``s = e``) also tried one at a time, at most this many, at this many points.
MAX_SINGLE_DEFINITIONS = 4
SINGLE_DEFINITION_POINTS = 3


def sampled_counterexample(vs: tuple[Var, ...], body: Term, n: int, seed: int,
                           carriers: frozenset[str] = frozenset(), deadline: Deadline | None = None,
                           probes: list[dict] | None = None,
                           seen: dict[Term, dict[frozenset, bool | None]] | None = None) -> dict | None:
    """A sampled assignment where ``body`` is exactly False, or None (``DeadlineExceeded``
    once ``deadline`` passes): a validated countermodel, since the evaluator is exact.
    ``probes``: points to try first (models of the premises, say), completed with default
    values where they lack a variable and skipped where they cannot be. ``seen``: truth values
    already computed, by body, then by point (``point_key``), read and filled: a check asks an
    obligation cheaply, then with the backend, and under other probes, at the same points.

    Order: the probes; points where the functions, sets and recurrences the premises define
    take their definitions; points where the scalars they define do (within ``DEFINED_SHARE``
    of the time left); the statement's numerals; the sampled points."""
    if not vs or not all(samplable(v.sort, carriers) for v in vs):
        return None

    known = seen.setdefault(body, {}) if seen is not None else None  # the body looked up once per search

    def truth_at(env: dict, within: Deadline | None) -> bool | None:
        key = point_key(env) if known is not None else None
        if key is not None and key in known:  # type: ignore[operator]
            return known[key]  # type: ignore[index]
        value = exact_truth(body, env, within)  # the step budget bounds it, not the clock: exact
        if key is not None:
            known[key] = value  # type: ignore[index]
        return value

    try:
        points = sample_assignments(list(vs), n, seed)
    except ValueError:  # a sort the sampler has no values for
        return None
    names = {v.name for v in vs}
    first = [p for p in (complete_model({k: x for k, x in pr.items() if k in names}, vs) for pr in probes or [])
             if p is not None]
    for env in first:
        if truth_at(env, deadline) is False:
            return _named(env)
    # lazily: a probe (a countermodel of an earlier alignment) often decides before the
    # defined points, which cost an evaluation of each definition, are computed. Where a
    # premise defines a scalar the evaluator walks the rest of the formula (nested
    # quantifiers over ℝ, probed at ~1 s a point): those points get a share of the time left
    for env in defined_points(vs, body, first + points[:DEFINED_POINTS]):
        if truth_at(env, deadline) is False:
            return _named(env)
    share = Deadline.after(max(deadline.left(), 0.0) * DEFINED_SHARE) if deadline is not None else None
    within = share.sooner(deadline) if share is not None else None
    try:
        for env in scalar_defined_points(vs, body, first + points, within):
            if truth_at(env, within) is False:
                return _named(env)
    except DeadlineExceeded:
        if deadline is not None and deadline.expired():
            raise
    tried, decided = 0, False
    for env in itertools.chain(numeral_probes(vs, [body], points[0] if points else {}), points):
        value = truth_at(env, deadline)
        if value is False:
            return _named(env)
        tried += 1
        decided = decided or value is not None
        if not decided and tried >= UNDECIDED_POINTS:
            break  # the evaluator decides nothing here: the rest would cost as much, for nothing
    return None


def point_key(env: dict) -> frozenset | None:
    """A hashable key equal only for points that give every name the same value (the
    evaluator's memo's ``value_key``: a closure by its body and the values it reads, a table
    by its points), or None for a point with a value that has no such key (a sequence, a table
    still reading a solver's model): those are evaluated afresh."""
    try:
        return frozenset((name, value_key(x)) for name, x in env.items())
    except Unkeyable:
        return None


def _named(env: dict) -> dict:
    return {(k.name if isinstance(k, Var) else str(k)): v for k, v in env.items()}


def _function_points(vs: tuple[Var, ...], body: Term, points: list[dict]) -> list[dict]:
    """``points`` with each function variable that ``body`` defines given its definition."""
    defs = function_definitions(vs, body)
    out = []
    for p in points if defs else []:
        q = dict(p)
        for f, params, e in defs:
            q[f.name] = Closure(params, e, q)
        out.append(q)
    return out


def scalar_defined_points(vs: tuple[Var, ...], body: Term, points: list[dict],
                          deadline: Deadline | None = None) -> Iterator[dict]:
    """``s = a / (a + b + d) + …``: ``points`` with s computed from the point's other values
    (also where the functions are given by their definitions); all definitions at once, then
    each alone (each side of Γ ↔ Γ' defines its own variable: together they may meet both).
    Computing a value stops at ``deadline`` (``DeadlineExceeded``)."""
    scalars = scalar_definitions(vs, body)
    if not scalars:
        return
    variants = [(scalars, points[:DEFINED_POINTS] + _function_points(vs, body, points[:DEFINED_POINTS]))]
    if len(scalars) > 1:
        variants += [([d], points[:SINGLE_DEFINITION_POINTS]) for d in scalars[:MAX_SINGLE_DEFINITIONS]]
    for defs, bases in variants:
        for p in bases:
            q = with_scalar_definitions(p, defs, deadline)
            if q is not None:
                yield q


def defined_points(vs: tuple[Var, ...], body: Term, points: list[dict]) -> Iterator[dict]:
    """``points`` with each function, set and sequence that ``body`` defines given its
    definition: a closure for ``∀ m > 0, f m = m² + m + 1`` (the evaluator sees such a premise
    met, ``quantifiers._meets_definitions``), the finite set of ``∀x. x ∈ S ↔ P x``, the sequence
    computed by a recurrence; random tables and sets almost never meet those premises."""
    functions = _function_points(vs, body, points)
    yield from functions
    # `∀x. x ∈ s ↔ f x < 9` with `∀x. f x = |x + 4|`: s at its set once f is its closure
    for p in functions[:2]:
        yield from ({**p, s.name: value} for s, value in set_definitions(vs, body, p))
    # `∀x. x ≠ 0 → q x = 6 / x` against `∀x. x ≠ 3 → …`: q as the definition where the guard
    # holds and off by one elsewhere (it meets its own premise, `_meets_definitions`)
    guarded = guarded_definitions(vs, body)
    for f, params, g, e in guarded:
        off = app("ite", g, e, app("add", e, Num(1, e.sort)))
        yield from ({**p, f.name: Closure(params, off, p)} for p in points[:2])
    # `∀x < 0. f x = −x² − 1`, `∀x. 0 ≤ x < 4 → f x = 2`, `∀x ≥ 4. f x = √x`: f piecewise, each
    # piece where its guard holds (the first that holds), which meets them all when they agree
    for f, pieces in _pieces(guarded).items():
        params, whole = pieces
        yield from ({**p, f.name: Closure(params, whole, p)} for p in points[:1])
    # `∀x. x ∈ S ↔ P x` with a finite {x | P x}: S at each side's set (a random finite set
    # almost never meets such a premise)
    for s, value in set_definitions(vs, body):
        for p in points[:2]:
            q = {**p, s.name: value}
            yield q
            least = least_points(vs, body, q)  # `IsLeast S u`, `IsLeast (S \ {u}) v`
            if least is not None:
                yield least
    # `∀n ≥ c. u (n + k) = e`: u computed by the recurrence from the initial values stated;
    # the other ℕ variables also past the largest numeral (`∑ k < n, u k > 10000` needs it)
    seen: set[Term] = set()
    for u, m, start, rule, premise in recurrences(vs, body):
        if premise in seen:
            continue
        seen.add(premise)
        big = max((int(s.value) for s in subterms(body) if isinstance(s, Num) and s.sort == NAT), default=0) + 1
        far = [{**p, **{v.name: big for v in vs if v.sort == NAT}} for p in points[:1]]
        for base in points[:2] + far:
            sampled = base.get(u.name)
            for stated in initial_values(u, start, body, base):
                # indices the premises leave free: the sampled table's values, or all 1 (a
                # prefix of zeros often makes the whole sequence 0)
                for fill in ([sampled] if callable(sampled) else []) + [lambda i: 1]:
                    initial = {i: stated[i] if i in stated else fill(i) for i in initial_indices(m, start)}
                    initial.update(stated)
                    q = dict(base)
                    q[u.name] = Sequence(u.name, m, start, rule, initial, premise, q)
                    yield q
    # `∃n. f (f n) ≠ n + 1990`: the functional equations' usual solutions, x + c, c·x, c
    defined = {f for f, *_ in function_definitions(vs, body)} | {f for f, *_ in guarded}
    for f in vs:
        if f not in defined:
            for line in _linear_functions(f, body):
                yield from ({**p, f.name: line} for p in points[:1])


#: Most linear functions ``_linear_functions`` proposes for one function variable.
LINEAR_FUNCTIONS = 10


def _linear_functions(f: Var, body: Term) -> list[Closure]:
    """λx. a·x + b for a unary function variable f : α → α (α a number sort): the identity,
    x + c/2 and x + c for the statement's numerals c (f (f n) = n + 1990 has x + 995), the
    constants 0 and 1, 2x and −x."""
    sort = f.sort
    if not (isinstance(sort, FunSort) and len(sort.args) == 1 and sort.args[0] == sort.result
            and sort.result in (NAT, INT, RAT, REAL)):
        return []
    numerals = sorted({Fraction(s.value) for s in subterms(body) if isinstance(s, Num) and s.value != 0},
                      key=lambda c: (abs(c), c))[:3]
    shifts = [c / 2 for c in numerals] + numerals
    pairs = [(1, 0), *((1, b) for b in shifts), (0, 0), (0, 1), (2, 0), (-1, 0)]
    x = Var("x", sort.result)
    out = []
    for a, b in dict.fromkeys(pairs):
        if sort.result in (NAT, INT) and Fraction(b).denominator != 1 or sort.result == NAT and (a < 0 or b < 0):
            continue
        line = app("add", app("mul", Num(a, x.sort), x), Num(int(b) if Fraction(b).denominator == 1 else b, x.sort))
        out.append(Closure((x,), line, {}))
    return out[:LINEAR_FUNCTIONS]


def _pieces(guarded: list[tuple[Var, tuple[Var, ...], Term, Term]]) -> dict[Var, tuple[tuple[Var, ...], Term]]:
    """Each function with two or more guarded definitions (``guarded_definitions``) as one
    nested ``if g₁ then e₁ else if g₂ then e₂ … else eₙ`` over the first one's parameters;
    none where a guard or a value has a binder (the pieces of a piecewise function compare)."""
    by_function: dict[Var, list[tuple[tuple[Var, ...], Term, Term]]] = {}
    for f, params, g, e in guarded:
        if any(isinstance(s, (Quant, SetBuilder, BigOp, Lam)) for s in (*subterms(g), *subterms(e))):
            return {}  # a guard `∃y. x = y·y` evaluated at every application: costly, and no piece
        by_function.setdefault(f, []).append((params, g, e))
    out: dict[Var, tuple[tuple[Var, ...], Term]] = {}
    for f, defs in by_function.items():
        params = defs[0][0]
        pieces: list[tuple[Term, Term]] = []
        for ps, g, e in defs:
            if len(ps) != len(params) or any(a.sort != b.sort for a, b in zip(ps, params, strict=True)):
                break
            renamed = dict(zip(ps, params, strict=True))
            piece = (substitute(g, renamed), substitute(e, renamed))
            if piece not in pieces:
                pieces.append(piece)
        else:
            if len(pieces) >= 2:
                whole = pieces[-1][1]
                for g, e in reversed(pieces[:-1]):
                    whole = app("ite", g, e, whole)
                out[f] = (params, whole)
    return out


def falsifying_point(vs: tuple[Var, ...], body: Term, deadline: Deadline | None) -> dict | None:
    """Values of ``vs`` where ``body`` is false, found one variable at a time in the finite
    domains its guards give (``domains.bound_domain``, as the evaluator decides the ∀), or
    None (a variable without a domain, nothing false, the time gone)."""
    env: dict[str, Any] = {}
    remaining = list(vs)
    restricting = guards("forall", body)
    while remaining:
        for i, v in enumerate(remaining):
            rest = remaining[:i] + remaining[i + 1:]
            dom = bound_domain(v, restricting, frozenset(rest), _value_under(env, deadline))
            if dom is None:
                continue
            for x in dom:
                at = {**env, v.name: x}
                if exact_truth(Quant("forall", tuple(rest), body) if rest else body, at, deadline) is False:
                    env, remaining = at, rest
                    break
            else:
                return None
            break
        else:
            return None
    return env


def _value_under(env: dict[str, Any], deadline: Deadline | None) -> Callable[[Term], Any]:
    """The exact value of a term under ``env``, or None (``bound_domain``'s ``value_of``)."""

    def value_of(e: Term) -> Any:
        v = evaluate(e, env, deadline)
        return None if isinstance(v, Undetermined) or is_approx(v) else v

    return value_of


def exact_truth(body: Term, env: dict, deadline: Deadline | None) -> bool | None:
    """``truth``, with an evaluator bug logged and read as undecided (never as false)."""
    try:
        return truth(body, env, deadline)
    except DeadlineExceeded:
        raise
    except Exception as e:  # noqa: BLE001 - a bug must not become a verdict
        log.warning("evaluation failed: %s: %s", type(e).__name__, e, exc_info=True)
        return None


def samplable(s: Sort, carriers: frozenset[str]) -> bool:
    """Whether sampled values of sort ``s`` are genuine: every opaque type it mentions is a
    type variable (any elements will do) or known to have the ≥ 3 elements the sampler
    invents (``ir.known_elements``): ``Fin 1`` has one, ``Fin 0`` none."""
    return all(n in carriers or known_elements(OpaqueSort(n)) >= 3 for n in sort_mentions(s))
