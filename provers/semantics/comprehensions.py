"""The evaluator's big operators and set-builders: ∑ / ∏ / card / ``{x | φ}`` exactly.

Why a module of its own: a set or a sum over a finite domain is enumerated, but the domain
must first be found (bounds read off φ, polynomial images, periodic sets, tables a solver's
model settled) and an infinite set recognised as such, and closed values are remembered
across the many points an obligation is evaluated at. ``evaluate.term_value`` dispatches every
``BigOp`` and ``SetBuilder`` here (``big_operator_value``, ``set_builder_value``, ``closed_cached``).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from provers.ir import (
    INT,
    NAT,
    RAT,
    REAL,
    TRUE,
    App,
    BigOp,
    Num,
    ProdSort,
    Quant,
    SetBuilder,
    Term,
    Uninterpreted,
    Var,
    and_,
    app,
    conjuncts,
    free_vars,
    substitute,
    subterms,
)
from provers.semantics import numeric
from provers.semantics.approx import is_approx, normalized
from provers.semantics.closed_forms import closed_form
from provers.semantics.domains import (
    MAX_DOMAIN,
    bound_domain,
    eliminate_components,
    pins_finitely,
    probe_values,
    split_pair,
    split_tuple,
)
from provers.semantics.evaluate import (
    PROBES,
    STEP_BUDGET,
    Env,
    as_number,
    at_irrational,
    cells_of,
    count_step,
    enclosure_bounds,
    exact_value,
    past_points,
    step_state,
    tabled_points,
    term_value,
    truth_triple,
    value_sort_key,
)
from provers.semantics.memo import STEP_BUDGET_REASON, Memo
from provers.semantics.order_bounds import (
    MAX_INTERVAL,
    dense_interval_infinite,
    integer_interval,
    integer_ray_infinite,
    periodic_interval,
)
from provers.semantics.sets import finite_elements
from provers.semantics.values import PredSet, Undecided, Undetermined


def _tabled_set(t: SetBuilder, env: Env) -> list[Any] | PredSet | None:
    """``{x | φ}`` with conjuncts of φ that read x only through settled tables: one false off
    the tables' listed points confines the set to those points (returned as the finite domain
    ``_setbuilder`` counts); all true there, they remove finitely many points from the set the
    other conjuncts give — infinite when those bound a non-degenerate interval of ℝ / ℚ
    (``digits`` a constant table in ``card {n. 10 ≤ n ≤ 99 ∧ sum_list (digits n) = 7}`` over
    ℝ: 0 or infinite). None when no conjunct is such, or this says nothing."""
    v = t.var
    parts = conjuncts(t.body)
    tabled = [(c, pts) for c in parts if v in free_vars(c) and (pts := tabled_points(v, c, env)) is not None]
    if not tabled:
        return None
    points = sorted({p for _, listed in tabled for p in listed})
    at_off = [truth_triple(c, {**env, v.name: past_points(points)}) for c, _ in tabled]
    if any(r is None or not ex for r, ex, _ in at_off):
        return None
    if not all(r for r, _, _ in at_off):  # off the listed points nothing belongs
        return points
    rest = [c for c in parts if all(c is not d for d, _ in tabled)]
    body = app("and", *rest) if len(rest) > 1 else (rest[0] if rest else TRUE)
    if v.sort in (RAT, REAL) and dense_interval_infinite(v, body, exact_value(env), enclosure_bounds(env)):
        return PredSet(v.sort, lambda x: term_value(t.body, {**env, v.name: x}), True)
    return None


#: Values of closed big operators and set-builders (no free variable, no uninterpreted
#: symbol): the same ``∑ k in Icc 1 1319, …`` or ``card {n | 100 ≤ n ≤ 999 ∧ 11 ∣ n}`` is
#: evaluated under every candidate model and sampled point of an obligation.
_CLOSED_VALUES: dict[Term, Any] = {}


_CLOSED_VALUES_MAX = 256


#: Closed terms whose evaluation ran out of steps, by (term, probing depth, probes) → the
#: most steps it was given: evaluation is deterministic, so given no more it fails again
#: (problem_880's ``card {x. 1000 ≤ x ≤ 9999 ∧ ∃a b c. …}`` ran to the budget at every
#: sampled point of a fingerprint, 2 s each).
_CLOSED_EXHAUSTED: dict[tuple, int] = {}


def closed_cached(t: Term, env: Env, compute: Callable[[Term, Env], Any]) -> Any:
    closed = not free_vars(t) and not any(isinstance(s, Uninterpreted) for s in subterms(t))
    if not closed:
        return compute(t, env)
    if t in _CLOSED_VALUES:
        return _CLOSED_VALUES[t]
    key: tuple | None = (t, getattr(step_state, "probing", 0), env.get(PROBES))
    try:
        hash(key)
    except TypeError:
        key = None
    given = getattr(step_state, "left", STEP_BUDGET)
    if key is not None and _CLOSED_EXHAUSTED.get(key, -1) >= given:
        step_state.left = -1
        raise Undecided(STEP_BUDGET_REASON)
    try:
        value = compute(t, env)
    except Undecided:
        if key is not None and getattr(step_state, "left", 0) < 0:
            if len(_CLOSED_EXHAUSTED) >= _CLOSED_VALUES_MAX:
                _CLOSED_EXHAUSTED.clear()
            _CLOSED_EXHAUSTED[key] = max(given, _CLOSED_EXHAUSTED.get(key, -1))
        raise
    if len(_CLOSED_VALUES) >= _CLOSED_VALUES_MAX:
        _CLOSED_VALUES.clear()
    _CLOSED_VALUES[t] = value
    return value


#: ranges longer than this are summed through their closed form when there is one
CLOSED_FORM_FIRST = 64


@functools.lru_cache(maxsize=4096)
def _sums_inside(body: Term) -> bool:
    """Whether a big operator's body holds another one (asked at every evaluation of it)."""
    return any(isinstance(s, BigOp) for s in subterms(body))


def big_operator_value(t: BigOp, env: Env) -> Any:
    return closed_cached(t, env, _bigop_value)


def _bigop_value(t: BigOp, env: Env) -> Any:
    try:
        domain = term_value(t.domain, env)
        if isinstance(domain, PredSet) and domain.infinite is True:
            # Isabelle's sum / prod over an infinite set is 0 / 1 (comm_monoid_set.F); a Lean
            # Finset is never infinite
            return numeric.zero(t.sort) if t.kind == "sum" else numeric.one(t.sort)
        dom = finite_elements(domain, f"domain of {'∑' if t.kind == 'sum' else '∏'}")
        if len(dom) > MAX_DOMAIN:
            raise Undecided("big operator over too large a domain")
    except Undecided:
        closed = closed_form(t)  # equal for every value of the bounds: exact on huge ranges
        if closed is None:
            raise
        return term_value(closed, env)
    if len(dom) > CLOSED_FORM_FIRST or _sums_inside(t.body):
        closed = closed_form(t)  # a sum of sums is quadratic in its range; the closed form is not
        if closed is not None:
            return term_value(closed, env)
    acc: Any = numeric.zero(t.sort) if t.kind == "sum" else numeric.one(t.sort)
    op = "add" if t.kind == "sum" else "mul"
    for x in sorted(dom, key=value_sort_key):
        count_step()
        acc = numeric.arith(op, t.sort, [acc, term_value(t.body, {**env, t.var.name: x})])
    return normalized(acc)


_ORDER_ATOMS = frozenset({"lt", "le", "gt", "ge"})


def _without_range_bounds(v: Var, body: Term, dom: range, env: Env) -> Term:
    """``body`` without its conjuncts ``v ⋈ e`` / ``e ⋈ v`` (e free of v) that hold at both
    ends of the integer range ``dom``, hence at every member (the solutions of v ⋈ e are an
    interval): ``card {n. 1000 ≤ n ∧ n < 10000 ∧ p n}`` tests only ``p n`` per member."""
    if len(dom) < 2:
        return body
    parts = conjuncts(body)
    keep = []
    for g in parts:
        if (isinstance(g, App) and g.op in _ORDER_ATOMS and v in g.args
                and not any(v in free_vars(a) for a in g.args if a != v)
                and all(truth_triple(g, {**env, v.name: x})[:2] == (True, True) for x in (dom[0], dom[-1]))):
            continue
        keep.append(g)
    if len(keep) == len(parts):
        return body
    return app("and", *keep) if len(keep) > 1 else keep[0] if keep else TRUE


def _polynomial_set(v: Var, body: Term, env: Env) -> Any:
    """``{v | body}`` decided by the sign cells of the polynomials ``body`` compares
    (``polynomials.polynomial_cells``): infinite (a ``PredSet``) when ``body`` is exactly true at
    a point of an open cell, so on the whole cell; when it is exactly false at every such
    point, the finite set of its members among the candidates left (the rational roots over
    ℝ / ℚ; over ℕ / ℤ the integers between the outer points); None otherwise."""
    cells = cells_of(v, body, env)
    if cells is None:
        return None
    samples, roots = cells
    irrational = [r for r in roots if not isinstance(r, Fraction)]
    members: range | list[Any] | None
    if v.sort in (NAT, INT):
        # beyond every root (below too over ℤ) the body has one truth value; the set lies
        # between those outer points, from 0 over ℕ (whose lower cell is not sampled)
        low, high = int(samples[0]), int(samples[-1])
        probes = [max(high, 0)] if v.sort == NAT else [low, high]
        start = 0 if v.sort == NAT else low + 1
        members = range(start, high) if high - start <= MAX_DOMAIN else None
    else:
        probes = [as_number(q) for q in samples]
        members = [as_number(q) for q in roots if isinstance(q, Fraction)]

    def holds(x: Any) -> bool | None:
        count_step()
        r, ex, _ = truth_triple(body, {**env, v.name: x})
        return r if ex else None

    everywhere_false = True
    for x in probes:
        r = holds(x)
        if r:
            return PredSet(v.sort, lambda y: term_value(body, {**env, v.name: y}), True)
        everywhere_false = everywhere_false and r is False
    if not everywhere_false or members is None:
        return None
    if v.sort in (REAL, RAT) and any(at_irrational(body, env, v, r) is not False for r in irrational):
        return None  # an irrational member (or one undecided): the set is not a set of numerals
    keep = []
    for x in members:
        r = holds(x)
        if r is None:
            return None
        if r:
            keep.append(x)
    return frozenset(keep)


#: Finite set-builder values by the values they read (``memo``): ``{n ∈ {1000..9999}. n =
#: reverse n}`` with ``reverse`` a closure was enumerated again at every sampled point of
#: every obligation (1103 times, most of ``problem_880``'s time; docs/benchmarks.md, stop 43).
SET_VALUES = Memo(max_entries=256)


def _image_set(t: SetBuilder, env: Env) -> frozenset | None:
    """``{x | (∃k̄. x = e k̄ ∧ φ k̄) ∧ ψ x}`` as the values of e at the k̄ that satisfy
    φ k̄ ∧ ψ (e k̄), when those k̄ lie in finite domains. Why: Isabelle's ``{(a, b). P a b}``
    is ``{p | ∃a b. p = (a, b) ∧ P a b}``, and a pair variable has no domain of its own to
    enumerate (``domains.bound_domain`` bounds it only through its components' guards
    written on p); nor has an x bounded only through k̄. None when the body has no such ∃ or
    some k is not bounded."""
    v = t.var
    parts = conjuncts(t.body)
    for i, part in enumerate(parts):
        if not (isinstance(part, Quant) and part.kind == "exists"):
            continue
        inner = conjuncts(part.body)
        for j, eq in enumerate(inner):
            e = _solved_for(v, eq)
            if e is None or not free_vars(e) & set(part.vars):
                continue
            conds = [substitute(c, {v: e}) for c in inner[:j] + inner[j + 1:] + parts[:i] + parts[i + 1:]]
            out: set[Any] = set()
            try:
                if _collect_images(part.vars, conds, e, env, out, [MAX_DOMAIN]):
                    return frozenset(out)
            except Undecided:
                return None
    return None


def _solved_for(v: Var, eq: Term) -> Term | None:
    """e when ``eq`` is ``v = e`` or ``e = v`` with v not in e."""
    if not (isinstance(eq, App) and eq.op == "eq"):
        return None
    a, b = eq.args
    if a == v and v not in free_vars(b):
        return b
    if b == v and v not in free_vars(a):
        return a
    return None


def _collect_images(ks: tuple[Var, ...], conds: list[Term], e: Term, env: Env, out: set[Any],
                    left: list[int]) -> bool:
    """Add to ``out`` the value of ``e`` at every k̄ (over finite domains) where all ``conds``
    hold exactly; False when some k has no finite domain. ``Undecided`` when a condition is,
    or past ``left[0]`` points (``domains.MAX_DOMAIN``: three witnesses over 0..10⁴ would
    spend the whole step budget before failing)."""
    if not ks:
        left[0] -= 1
        if left[0] < 0:
            raise Undecided("image set over more points than a domain may have")
        for c in conds:
            r, ex, why = truth_triple(c, env)
            if r is None or not ex:
                raise Undecided(why or "image-set condition decided only approximately")
            if not r:
                return True
        x = term_value(e, env)
        if is_approx(x) or isinstance(x, Undetermined):
            raise Undecided("an image known only approximately")  # equal images would not merge
        out.add(x)
        return True
    for i, k in enumerate(ks):
        others = ks[:i] + ks[i + 1:]
        dom = bound_domain(k, conds, frozenset(others), exact_value(env), enclosure_bounds(env))
        if dom is None:
            continue
        for x in dom:
            count_step()
            if not _collect_images(others, conds, e, {**env, k.name: x}, out, left):
                return False
        return True
    return False


def set_builder_value(t: SetBuilder, env: Env) -> Any:
    key, got = SET_VALUES.lookup(t, env)
    if got is not Memo.MISSING:
        return got
    value = _setbuilder(t, env)
    if key is not None and isinstance(value, frozenset):  # a set known by its predicate keeps its env
        SET_VALUES.put(key, value)
    return value


def periodic_set(v: Var, body: Term, env: Env) -> frozenset | PredSet | None:
    """``{v | body}`` over an integer interval cut by periodic conditions
    (``order_bounds.periodic_interval``): the conditions evaluated over one period, the members
    written out (up to ``MAX_INTERVAL``), or None. Over an interval unbounded on a side, a
    residue where they hold recurs forever: an infinite set (``{d :: int. d mod 10 = 3}``,
    whose card Isabelle takes as 0); none, the empty set."""
    found = periodic_interval(v, body, exact_value(env))
    if found is None:
        return None
    lo, hi, removed, rest, period = found
    if lo is not None and hi is not None and hi < lo:
        return frozenset()
    if lo is not None and hi is not None and hi - lo + 1 > MAX_INTERVAL:
        return None
    condition = and_(*rest)
    start = lo if lo is not None else hi - period + 1 if hi is not None else 0
    end = min(hi, start + period - 1) if hi is not None else start + period - 1
    residues = []
    for x in range(start, end + 1):
        count_step()
        r, exact, why = truth_triple(condition, {**env, v.name: x})
        if r is None or not exact:
            raise Undecided(why or "a periodic condition decided only approximately")
        if r:
            residues.append(x)
    if lo is None or hi is None:
        if not residues:
            return frozenset()
        return PredSet(v.sort, lambda x: term_value(body, {**env, v.name: x}), True)
    return frozenset(y for x in residues for y in range(x, hi + 1, period)) - removed


def _setbuilder(t: SetBuilder, env: Env) -> Any:
    v = t.var
    parts = conjuncts(t.body)
    fixed = [g for g in parts if v not in free_vars(g)]
    if fixed:  # conjuncts v does not occur in: exactly false, the set is empty; true, they go
        r, exact, _ = truth_triple(and_(*fixed), env)
        if r is False and exact:
            return frozenset()
        if r is True and exact:  # ``{n | n. h0 ∧ h1}`` with h0, h1 hypothesis names (free truth values)
            return _setbuilder(SetBuilder(v, and_(*(g for g in parts if v in free_vars(g)))), env)
    dom = bound_domain(v, parts, frozenset(), exact_value(env), enclosure_bounds(env))
    if dom is None and (interval := integer_interval(v, t.body, exact_value(env))) is not None:
        return interval
    if dom is None and (periodic := periodic_set(v, t.body, env)) is not None:
        return periodic
    tabled = _tabled_set(t, env) if dom is None else None
    if isinstance(tabled, PredSet):
        return tabled
    if tabled is not None:
        dom = tabled  # no member off the tables' listed points: those are the domain
    if dom is not None:
        keep = []
        parts = split_pair(v, t.body) if isinstance(v.sort, ProdSort) else None
        body = _without_range_bounds(v, t.body, dom, env) if isinstance(dom, range) else t.body
        for x in dom:
            count_step()
            if parts is not None:  # a pair: its body over the components
                r, ex, why = truth_triple(parts[2], {**env, parts[0].name: x[0], parts[1].name: x[1]})
            else:
                r, ex, why = truth_triple(body, {**env, v.name: x})
            if r is None or not ex:
                raise Undecided(why or "set-builder membership decided only approximately")
            if r:
                keep.append(x)
        return frozenset(keep)
    image = _image_set(t, env)
    if image is not None:
        return image

    def contains(x: Any) -> Any:
        return term_value(t.body, {**env, v.name: x})

    infinite = dense_interval_infinite(v, t.body, exact_value(env), enclosure_bounds(env))
    if infinite is False:
        return frozenset()
    if infinite is None and integer_ray_infinite(v, t.body, exact_value(env)):
        infinite = True  # {n. 1 ≤ n}: Isabelle's {1..}
    if infinite is None:  # {x. 0 < x ∧ x² + 4x + 4 < 20}: an open interval of ℝ or ℚ
        decided = _polynomial_set(v, t.body, env)
        if decided is not None:
            return decided
    if infinite is None and _infinite_slice(t, env):
        infinite = True
    return PredSet(v.sort, contains, infinite)


#: Values each other component of a tuple takes while one is looked at (``_infinite_slice``),
#: and the most such points per component (smallest first: a pair's other component takes
#: all six values, a triple's other two their first combinations).
SLICE_VALUES = 6


SLICE_POINTS = 12


def _infinite_slice(t: SetBuilder, env: Env) -> bool:
    """Whether a set of tuples ``{(a, b). φ a b}`` is infinite because one slice is: with the
    other components at small values, the polynomial cells of the one left
    (``_polynomial_set``) show φ true on an open interval, or beyond every root over ℕ / ℤ.
    Why: ``card {(a, b). 0 < a < 100 ∧ 0 < b < 100 ∧ a ≠ b}`` over ℝ × ℝ is 0 in Isabelle
    (card of an infinite set) and was "not a known finite set"; so was a set of triples one
    of whose disjuncts leaves two components free."""
    split = split_tuple(t.var, t.body) if isinstance(t.var.sort, ProdSort) else None
    if split is None:
        return False
    components, phi = split
    if t.var in free_vars(phi):
        return False  # still read as a whole tuple somewhere
    components, phi = eliminate_components(components, phi)
    if phi == TRUE and components:
        return True  # a component left free: a copy of ℕ, ℤ, ℚ or ℝ
    tops = conjuncts(phi)
    for free in components:
        if any(pins_finitely(free, g) for g in tops):
            continue  # every slice through free is finite (x + y − z = 0 fixes x)
        others = [c for c in components if c != free]
        values = [probe_values(c.sort)[:SLICE_VALUES] for c in others]
        points = sorted(itertools.product(*(range(len(vs)) for vs in values)), key=lambda ix: (sum(ix), ix))
        for ix in points[:SLICE_POINTS]:
            xs = [vs[i] for vs, i in zip(values, ix, strict=True)]
            count_step()
            at = {c: Num(x, c.sort) for c, x in zip(others, xs, strict=True)}
            found = _polynomial_set(free, substitute(phi, at), env)
            if isinstance(found, PredSet) and found.infinite:
                return True
    return False
