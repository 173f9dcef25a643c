"""Recurrences the premises state: ``∀n [≥ c]. u (n + k) = e``, read as a sequence.

Why a module of its own: a sequence defined by a recurrence (``a (n + 1) = a n + 3``, Fibonacci,
``∀n ≥ 1. a n = a (n − 1) + d`` over ℤ) is determined by its first values, so its premises
have a model as soon as those values are known — but no solver finds one (the recurrence is a
quantified equation over an uninterpreted function). ``recurrences`` reads the rule and where
it starts and ``initial_values`` the first values the premises state; the prover asks a
solver for a model of the recurrences' first instances instead of the ∀
(``instantiate_recurrences``, ``prover.Prover._recurrence_model``) and extends the values it
gives by the rule (``semantics.values.Sequence``), re-checked exactly; sampled points
(``points``) do the same with the premises' own first values.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from provers.engine.definitions import closed_witness
from provers.ir import (
    INT,
    NAT,
    NEGATED,
    RAT,
    REAL,
    App,
    BigOp,
    FunSort,
    Num,
    Quant,
    Term,
    Var,
    app,
    conjuncts,
    free_vars,
    map_term,
    num,
    substitute,
    subterms,
)
from provers.semantics.approx import is_approx
from provers.semantics.closed_forms import PolynomialReader, polynomial_term
from provers.semantics.evaluate import evaluate
from provers.semantics.integer_bounds import numeral_lower_bound
from provers.semantics.values import Undetermined

#: (u, m, start, rule, premise): u m = rule for m ≥ start, read off the premise
Recurrence = tuple[Var, Var, int, Term, Quant]


def recurrences(vs: tuple[Var, ...], body: Term) -> list[Recurrence]:
    """``∀n [≥ c]. u (n + k) = e`` among the subterms of ``body``, ``u : ℕ → α`` (or ``ℤ → α``
    with the guard n ≥ c stated) one of ``vs`` and ``e`` applying u only at indices below
    n + k (``u n``, ``u (n + 1)``, ``u (n - 1)`` with n ≥ 1 over ℕ, numerals below c + k): u
    is then determined above c + k by its values below, whatever those are, and the premise
    holds for the ``Sequence`` computed by it. Why ℤ: 69 MATH candidates index a sequence by
    ``int`` (``∀n ≥ 1. a n = a (n - 1) + d``), whose premises had no model a solver gives."""
    out: list[Recurrence] = []
    for q in subterms(body):
        if not (isinstance(q, Quant) and q.kind == "forall" and len(q.vars) == 1 and q.vars[0].sort in (NAT, INT)):
            continue
        n, eq, c = q.vars[0], q.body, 0
        if isinstance(eq, App) and eq.op == "implies":
            c = _recurrence_start(eq.args[0], n)  # type: ignore[assignment]
            bounded = n.sort == NAT or any(numeral_lower_bound(p, n) is not None for p in conjuncts(eq.args[0]))
            eq = eq.args[1]
        else:
            bounded = n.sort == NAT
        if c is None or not bounded or not (isinstance(eq, App) and eq.op == "eq"):
            continue  # over ℤ without a lower bound, no index comes first
        for lhs, rhs in (*(eq.args, eq.args[::-1]), *_solved_for_latest(eq, n)):
            shifted = _shift(lhs, n)
            if shifted is None:
                continue
            u, k = shifted
            if u not in vs or not _earlier(rhs, u, n, k, c):
                continue
            m = Var(f"{n.name}_idx", n.sort)
            rule = substitute(rhs, {n: app("sub", m, num(k, n.sort)) if k else m})
            out.append((u, m, c + k, rule, q))
            break
    return out


#: Indices below a ℤ recurrence's start given a value (the rule reads back this far at most
#: in MATH statements; any other index below keeps the ``Sequence``'s default).
INTEGER_LOOKBACK = 4


def initial_indices(m: Var, start: int) -> range:
    """The indices below ``start`` a ``Sequence`` over ``m``'s sort lists: all of them over ℕ,
    the last ``INTEGER_LOOKBACK`` over ℤ."""
    return range(start) if m.sort == NAT else range(start - INTEGER_LOOKBACK, start)


#: Instances n = 0, 1, … of a recurrence that a relaxed obligation keeps in its place.
RELAXED_INSTANCES = 12


def instantiate_recurrences(body: Term, recs: list[Recurrence]) -> Term:
    """``body`` with each recurrence premise replaced by its first instances: a weaker formula
    without the ∀ that solvers time out on; a model of it only gives the values below the
    recurrence (``Prover`` extends them by it and re-checks the original exactly)."""
    premises = {q for *_, q in recs}

    def instances(t: Term) -> Term | None:
        if isinstance(t, Quant) and t in premises:
            n = t.vars[0]
            return app("and", *(substitute(t.body, {n: Num(j, n.sort)}) for j in range(RELAXED_INSTANCES)))
        return None

    return map_term(body, instances)


def initial_values(u: Var, start: int, body: Term, env: dict[str, Any]) -> list[dict[int, Any]]:
    """The values ``u i = e`` (i < start) that ``body`` states, evaluated at ``env``: one
    table per side of ``body`` when it is ``Γ ↔ Γ'`` (two premise sets may disagree, ``u 0 =
    4`` against ``u 0 = 7``), the first statement of each index winning."""
    sides = body.args if isinstance(body, App) and body.op == "iff" else (body,)
    tables: list[dict[int, Any]] = []
    for side in sides:
        table: dict[int, Any] = {}
        for t in subterms(side):
            if not (isinstance(t, App) and t.op == "eq"):
                continue
            for lhs, rhs in (t.args, t.args[::-1]):
                if isinstance(lhs, App) and lhs.op == "apply" and lhs.args[0] == u and len(lhs.args) == 2 \
                        and isinstance(lhs.args[1], Num) and int(lhs.args[1].value) < start \
                        and u not in free_vars(rhs) and int(lhs.args[1].value) not in table:
                    v = _value_at(rhs, env)
                    if v is None and u.sort.result == REAL:  # `a 2 = 1 / √3`: exact as its term
                        v = closed_witness(rhs, env)
                    if v is not None:
                        table[int(lhs.args[1].value)] = v
        if table not in tables:
            tables.append(table)
    return tables


def _value_at(e: Term, env: dict[str, Any]) -> Any:
    """``e``'s exact value at ``env``, or None."""
    try:
        v = evaluate(e, env)
    except Exception:  # noqa: BLE001 - a term the evaluator cannot read gives no value
        return None
    return None if isinstance(v, Undetermined) or is_approx(v) else v


def _solved_for_latest(eq: App, n: Var) -> list[tuple[Term, Term]]:
    """``a (n + 2) - a (n + 1) = a (n + 1) - a n`` as ``a (n + 2) = 2·a (n + 1) - a n``: the
    equation solved for its latest term, when it is linear in it with a coefficient the
    sort can divide by (any over ℚ and ℝ, ±1 over ℤ; never ℕ, whose subtraction truncates)."""
    sort = eq.args[0].sort
    if sort not in (INT, RAT, REAL):
        return []
    shifts = [(s, _shift(s, n)) for s in subterms(eq)]
    shifts = [(s, sh) for s, sh in shifts if sh is not None]
    if not shifts:
        return []
    latest, (u, k) = max(shifts, key=lambda x: x[1][1])
    if latest.sort != sort:  # ↑(u (n + 2)) in ℝ for u : ℕ → ℕ: not solvable in u's sort
        return []
    reader = PolynomialReader(None, None)
    lhs, rhs = reader.read(eq.args[0]), reader.read(eq.args[1])
    if lhs is None or rhs is None:
        return []
    diff = dict(lhs)
    for mono, coef in rhs.items():
        diff[mono] = diff.get(mono, Fraction(0)) - coef
    key = (0, Fraction(1), (latest,))
    coef = diff.pop(key, Fraction(0))
    if coef == 0 or any(latest in atoms for (_, _, atoms) in diff) or (sort == INT and abs(coef) != 1):
        return []
    rest = {mono: -c / coef for mono, c in diff.items() if c}
    term, facts = polynomial_term(rest, sort)
    return [] if facts else [(latest, term)]


def _recurrence_start(g: Term, n: Var) -> int | None:
    """c when the guard of a recurrence says n ≥ c, possibly with an upper bound besides
    (``∀k < 10. w (k + 1) = 0.99 · w k``: the sequence that follows the rule at every index
    meets the bounded premise too), else None."""
    parts = g.args if isinstance(g, App) and g.op == "and" else (g,)
    starts = [numeral_lower_bound(p, n) if not _upper_bound(p, n) else 0 for p in parts]
    return None if any(c is None for c in starts) else max(starts)  # type: ignore[type-var]


def _upper_bound(g: Term, n: Var) -> bool:
    """The guard says n < N or n ≤ N, N free of n."""
    if not (isinstance(g, App) and g.op in ("lt", "le", "gt", "ge") and len(g.args) == 2):
        return False
    small, big = g.args if g.op in ("lt", "le") else g.args[::-1]
    return small == n and n not in free_vars(big)


def _shift(t: Term, n: Var) -> tuple[Var, int] | None:
    """(u, k) when ``t`` is ``u (n + k)`` (or ``u n``, k = 0) with ``u : ℕ → α`` (``ℤ → α`` for
    an integer n)."""
    if not (isinstance(t, App) and t.op == "apply" and len(t.args) == 2 and isinstance(t.args[0], Var)):
        return None
    u, arg = t.args
    if not (isinstance(u.sort, FunSort) and u.sort.args == (n.sort,) and u.sort.result in (NAT, INT, RAT, REAL)):
        return None
    k = _offset(arg, n)
    return (u, k) if k is not None and k >= 0 else None  # type: ignore[return-value]


def _offset(arg: Term, n: Var) -> int | None:
    """j for ``n + j`` / ``j + n`` / ``n`` (j ≥ 0) and -j for ``n - j``; None otherwise."""
    if arg == n:
        return 0
    if isinstance(arg, App) and arg.op == "add" and len(arg.args) == 2:
        a, b = arg.args
        if a == n and isinstance(b, Num):
            return int(b.value)
        if b == n and isinstance(a, Num):
            return int(a.value)
    if isinstance(arg, App) and arg.op == "sub" and arg.args[0] == n and isinstance(arg.args[1], Num) and arg.args[1].value > 0:
        return -int(arg.args[1].value)
    return None


def _earlier(rhs: Term, u: Var, n: Var, k: int, c: int) -> bool:
    """Every use of u in ``rhs`` is an application at an index below n + k for every n ≥ c
    (``n - j`` only where it does not truncate: j ≤ c). A branch of ``if g then a else b``
    is read where it is taken: ``if n = 0 then 1 else n · u (n - 1)`` uses u (n − 1) at n ≥ 1
    only (the factorial written as one equation)."""
    if isinstance(rhs, App) and rhs.op == "ite" and u not in free_vars(rhs.args[0]):
        g, then, other = rhs.args
        return (_earlier(then, u, n, k, max(c, numeral_lower_bound(g, n) or 0))
                and _earlier(other, u, n, k, max(c, _lower_bound_where_false(g, n) or 0)))
    uses = [t for t in subterms(rhs) if isinstance(t, App) and t.op == "apply" and t.args and t.args[0] == u]
    if sum(1 for t in subterms(rhs) if t == u) != len(uses):
        return False  # u passed as a value, or bound inside
    below = _indices_below(rhs, n)
    for t in uses:
        if len(t.args) != 2:
            return False
        arg = t.args[1]
        if isinstance(arg, Var) and arg in below:  # ∏ k in range (n + 1), u k
            if below[arg] > k:
                return False
            continue
        if isinstance(arg, Num):
            if int(arg.value) >= c + k:
                return False
            continue
        j = _offset(arg, n)
        if j is None or j >= k or (j < 0 and -j > c and n.sort == NAT):  # ℤ never truncates
            return False
    return True


def _lower_bound_where_false(g: Term, n: Var) -> int | None:
    """c when the guard's failing says n ≥ c (``n = 0``, ``n ≤ c - 1``, ``n < c``), else None:
    the lower bound of its negated atom."""
    if not (isinstance(g, App) and g.op in NEGATED and len(g.args) == 2):
        return None
    return numeral_lower_bound(app(NEGATED[g.op], *g.args), n)


def _indices_below(rhs: Term, n: Var) -> dict[Var, int]:
    """For each big operator of ``rhs`` over ``range (n + j)``, ``Ico a (n + j)`` or
    ``Icc a (n + j - 1)``: its bound variable and j (every index it takes is below n + j)."""
    out: dict[Var, int] = {}
    for b in subterms(rhs):
        if not (isinstance(b, BigOp) and isinstance(b.domain, App)):
            continue
        d = b.domain
        top = d.args[0] if d.op == "range" else d.args[1] if d.op in ("Ico", "Icc") and len(d.args) == 2 else None
        j = _offset(top, n) if top is not None else None
        if j is not None:
            out[b.var] = j + 1 if d.op == "Icc" else j
    return out
