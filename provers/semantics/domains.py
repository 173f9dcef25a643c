"""Finite domains of bound variables: the values a guarded binder must range over.

Why: ``∀ x, x ∈ S → P`` and ``∃ n : ℕ, n < 10 ∧ P`` range over finitely many values, so the
evaluator decides them exactly by enumerating those; the guards (antecedents of ∀,
conjuncts of ∃) say which. Unbounded binders are only probed at a few small values.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Collection
from fractions import Fraction
from typing import Any

from provers.ir import (
    BOOL,
    FLIPPED,
    INT,
    NAT,
    RAT,
    REAL,
    TRUE,
    App,
    Num,
    ProdSort,
    Quant,
    SetBuilder,
    Sort,
    Term,
    Var,
    and_,
    app,
    by_identity,
    conjuncts,
    free_vars,
    fresh_name,
    one_point,
    or_,
    substitute,
)
from provers.semantics import zmod
from provers.semantics.approx import is_rational
from provers.semantics.closed_forms import affine_terms
from provers.semantics.integer_bounds import (
    divisor_bound,
    nat_sum_bound,
    nonnegative_vars,
    numeral_low,
    product_bound,
    zero_product_factor,
)
from provers.semantics.linear import solved_for
from provers.semantics.order_bounds import above, below, enclosed, is_cast_of, order_bound
from provers.semantics.pairs import pair, simplify
from provers.semantics.polynomials import (
    difference_polynomial,
    linear_in,
    linear_solutions,
    polynomial_roots,
    says_nonnegative,
    valued_coefficient,
)
from provers.semantics.values import FunTable

#: Largest finite domain a quantifier, set or big operator is enumerated over.
MAX_DOMAIN = 20_000
#: Largest set of pairs enumerated (each pair costs an evaluation of the guards; a larger one
#: would only exhaust the evaluator's step budget, slowly).
MAX_PAIR_DOMAIN = 2_000


def guards(kind: str, body: Term) -> list[Term]:
    """Conjuncts that restrict a bound variable: antecedents of ∀, conjuncts of ∃."""
    out: list[Term] = []
    if kind == "forall":
        while isinstance(body, App) and body.op == "implies":
            out.extend(conjuncts(body.args[0]))
            body = body.args[1]
        if isinstance(body, App) and body.op == "or":  # ¬g ∨ P
            for a in body.args:
                if isinstance(a, App) and a.op == "not":
                    out.extend(conjuncts(a.args[0]))
    else:
        out.extend(conjuncts(body))
    return out


def _one_point(t: Term) -> Term:
    """``∃x. x = e ∧ P x`` as ``P e`` (e free of x), for every such x of a leading ∃: the
    shape ``{(x, y). P x y}`` takes once its pattern ``p = (x, y)`` is split."""
    if not (isinstance(t, Quant) and t.kind == "exists"):
        return t
    left, body, _ = one_point(t.vars, conjuncts(t.body))
    out = app("and", *body) if len(body) > 1 else (body[0] if body else TRUE)
    return Quant("exists", tuple(left), out) if left else out


def disjuncts(t: Term) -> list[Term]:
    """The disjuncts of ``t``, ``A₁ ∧ A₂ → B`` read as ``¬A₁ ∨ ¬A₂ ∨ B``."""
    if isinstance(t, App) and t.op == "or":
        return [d for a in t.args for d in disjuncts(a)]
    if isinstance(t, App) and t.op == "implies":
        return [app("not", a) for a in conjuncts(t.args[0])] + disjuncts(t.args[1])
    return [t]


@by_identity()  # evaluated again at every point an outer binder or a model gives
def pull_equated_binder(t: Quant) -> Term | None:
    """``∀v̄. G → ∀w̄. (v = e ∧ R) → S`` as ``∀(v̄ ∖ v) w̄. G[e] ∧ R[e] → S[e]`` (e free of v),
    and ``∃v̄. G ∧ ∃w̄. v = e ∧ R`` as ``∃(v̄ ∖ v) w̄. G[e] ∧ R[e]``; None when no binder of
    ``t`` is equated so. The same truth (pull w̄ out, then the one-point rule for v), but v's
    range (``∀m < n`` over ℤ: unbounded below) gives way to w̄'s, which the guards may bound
    (``m = c·d ∧ c > 1 ∧ d > 1``: ``prealgebra/problem_1441``'s "the smallest such n")."""
    if t.kind not in ("forall", "exists"):
        return None
    exists = t.kind == "exists"
    split = conjuncts if exists else disjuncts
    parts = split(t.body)
    for i, part in enumerate(parts):
        inner_vars: tuple[Var, ...] = ()
        inner = [part]
        if isinstance(part, Quant) and part.kind == t.kind:
            inner_vars, inner = part.vars, split(part.body)
        for j, q in enumerate(inner):
            equation = q if exists else (q.args[0] if isinstance(q, App) and q.op == "not" else None)
            if not (isinstance(equation, App) and equation.op == "eq"):
                continue
            for x, e in (equation.args, equation.args[::-1]):
                if not (isinstance(x, Var) and x in t.vars and x not in free_vars(e) and x.sort == e.sort) \
                        or x in inner_vars:  # an inner binder of x's name: the equation is about it
                    continue
                others = [*parts[:i], *parts[i + 1 :]]
                outer = [v for v in t.vars if v != x]
                clash = {v.name for v in outer} | {v.name for p in others for v in free_vars(p)}
                renames: dict[Var, Term] = {}
                for w in inner_vars:
                    if w.name in clash:  # a w̄ named like an outer binder or a free name elsewhere
                        fresh = Var(fresh_name(w.name, clash | {u.name for u in free_vars(part)}), w.sort)
                        clash.add(fresh.name)
                        renames[w] = fresh
                kept = [*others, *(substitute(q2, renames) for q2 in inner[:j] + inner[j + 1 :])]
                body = substitute(and_(*kept) if exists else or_(*kept), {x: substitute(e, renames)})
                binders = (*outer, *(renames.get(w, w) for w in inner_vars))
                return Quant(t.kind, binders, body) if binders else body  # type: ignore[arg-type]
    return None


def split_pair(v: Var, t: Term) -> tuple[Var, Var, Term] | None:
    """``t`` about a pair variable ``v`` of numbers, written over its components ``a, b``
    (``fst v`` is ``a``; the pattern's ``∃x y. v = (x, y) ∧ P x y`` is ``P a b``), or None."""
    parts = v.sort.parts if isinstance(v.sort, ProdSort) else ()
    if len(parts) != 2 or not all(p in (NAT, INT, RAT, REAL) for p in parts):
        return None
    split = split_tuple(v, t)
    return None if split is None else (*split[0], split[1])  # type: ignore[return-value]


def split_tuple(v: Var, t: Term) -> tuple[tuple[Var, ...], Term] | None:
    """``t`` about a tuple variable ``v`` of numbers (pairs nested: ``(a, b, c)`` is
    ``(a, (b, c))``), written over its components (``v.1``, ``v.2.1``, ``v.2.2``), or None."""
    components: list[Var] = []

    def spelled(name: str, s: Sort) -> Term | None:
        if isinstance(s, ProdSort):
            parts = [spelled(f"{name}.{i}", p) for i, p in enumerate(s.parts, 1)]
            return None if any(p is None for p in parts) else pair(tuple(parts), s)  # type: ignore[arg-type]
        if s not in (NAT, INT, RAT, REAL):
            return None
        components.append(Var(name, s))  # "." : no name clash
        return components[-1]

    whole = spelled(v.name, v.sort) if isinstance(v.sort, ProdSort) else None
    if whole is None:
        return None
    return tuple(components), _one_point(simplify(substitute(t, {v: whole})))


def eliminate_components(components: tuple[Var, ...], phi: Term) -> tuple[tuple[Var, ...], Term]:
    """The components of a tuple set ``{(x₁, …, xₙ). φ}`` that φ does not determine, and φ
    over them: the one-point rule on φ's equations for the components over ℝ or ℚ
    (``linear.solved_for``: ``c₁·xᵢ + c₀ = 0`` with c₁ a nonzero numeral gives ``xᵢ = −c₀/c₁``;
    the set's tuples are in one-to-one correspondence with the solutions of what is left, so
    one is infinite exactly when the other is). Why: ``{(r₁, w₁, r₂, w₂). r₁ + w₁ = 3 ∧ r₂ +
    w₂ = 3}`` over ℝ⁴ has no infinite slice through one component (each equation fixes it
    given the others), yet it is a plane: ``∑`` over it is 0 in Isabelle
    (``counting_and_probability/problem_964``)."""
    dense = [c for c in components if c.sort in (RAT, REAL)]
    solved, facts, _ = one_point(dense, conjuncts(phi), solve=solved_for)
    left = tuple(c for c in components if c not in dense or c in solved)
    rest = [h for f in facts for h in conjuncts(simplify(f)) if h != TRUE]
    return left, (app("and", *rest) if len(rest) > 1 else rest[0] if rest else TRUE)


def pins_finitely(v: Var, g: Term) -> bool:
    """``g`` is an equation that holds at finitely many v whatever the other variables are: a
    polynomial in v whose leading coefficient is a nonzero numeral (``v + w = 3``,
    ``2·v² = w``). A slice of a set through such a conjunct is finite."""
    if not (isinstance(g, App) and g.op == "eq" and v in free_vars(g) and v.sort in (NAT, INT, RAT, REAL)):
        return False
    diff = difference_polynomial(v, g.args[0], g.args[1], False)
    if diff is None:
        return False
    degree = max((deg for (deg, _, _), c in diff.items() if c), default=0)
    if degree == 0:
        return False
    leading = [(atoms, r, c) for (deg, r, atoms), c in diff.items() if deg == degree and c]
    return all(not atoms and r == 1 for atoms, r, _ in leading) and sum(c for _, _, c in leading) != 0


def _pair_domain(v: Var, guards: list[Term], others: frozenset[Var],
                 value_of: Callable[[Term], Any],
                 bounds_of: Callable[[Term], tuple[Fraction, Fraction] | None] | None = None
                 ) -> list[tuple[Any, Any]] | None:
    """The pairs ``(a, b)`` outside of which the guards on a pair variable fail: a's domain,
    then b's at each a (``{(x, y). x ∈ {1..6} ∧ y ∈ {1..x}}``)."""
    got = split_pair(v, app("and", *guards) if len(guards) > 1 else (guards[0] if guards else TRUE))
    if got is None:
        return None
    a, b, written = got
    split = conjuncts(written)
    firsts = bound_domain(a, split, others | {b}, value_of, bounds_of)
    if firsts is None:
        return None
    out: list[tuple[Any, Any]] = []
    for x in firsts:
        seconds = bound_domain(b, [substitute(g, {a: Num(x, a.sort)}) for g in split], others, value_of, bounds_of)
        if seconds is None:
            return None
        out.extend((x, y) for y in seconds)
        if len(out) > MAX_PAIR_DOMAIN:
            return None
    return out


def bound_domain(v: Var, guards: list[Term], others: frozenset[Var],
                 value_of: Callable[[Term], Any],
                 bounds_of: Callable[[Term], tuple[Fraction, Fraction] | None] | None = None) -> Collection[Any] | None:
    """A finite set of values outside of which the guards fail, or None.

    ``value_of(e)`` is the exact value of a term ``e`` that mentions neither ``v`` nor the
    ``others`` bound beside it, or None when it has none; ``bounds_of(e)`` (optional) rational
    bounds of an ``e`` without an exact value (a certified enclosure of ``200 π``), for an
    integer ``v < e``: the domain is then a superset, each member still evaluated exactly."""
    if v.sort == BOOL:
        return (False, True)
    if (n := zmod.modulus(v.sort)) is not None and n <= MAX_DOMAIN:
        return zmod.elements(v.sort)  # `∃ a : ZMod 7`: its seven residues
    if isinstance(v.sort, ProdSort):
        return _pair_domain(v, guards, others, value_of, bounds_of)
    lo: Any = 0 if v.sort == NAT else None
    hi: Any = None
    finite: frozenset | None = None

    def value(e: Term) -> Any:
        if v in free_vars(e) or free_vars(e) & others:
            return None
        return value_of(e)

    unfolded = _unfold_set_builders(guards)
    nonnegative = v.sort in (RAT, REAL) and any(says_nonnegative(v, g) for g in unfolded)
    progressions: list[tuple[Fraction, Fraction, Var]] = []
    nonneg = nonnegative_vars(unfolded) if v.sort in (NAT, INT) else frozenset()
    for g in unfolded:
        if isinstance(g, Quant) and g.kind == "exists":
            image = _image_domain(v, g, others, value)
            if image is not None:  # `∃ d ∈ D, n = 10 * d + 1`: n among the images
                finite = image if finite is None else finite & image
            elif v.sort in (NAT, INT) and (step := _progression(v, g, others)) is not None:
                progressions.append(step)  # `∃ k. n = 729 * k`: used once n's range is known
            continue
        if not isinstance(g, App) or len(g.args) != 2:
            continue
        a, b = g.args
        op = g.op
        if op == "mem" and a == v:
            s = value(b)
            if isinstance(s, frozenset):
                finite = s if finite is None else finite & s
            continue
        if op == "eq" and (a == v or b == v):
            w = value(b if a == v else a)
            if w is not None:
                finite = frozenset({w}) if finite is None else finite & {w}
            continue
        if (op == "eq" and v.sort in (NAT, INT)
                and (m := nat_sum_bound(v, a, b, value, nonneg)) is not None):
            hi = m if hi is None else min(hi, m)  # `n = 100a + 10b + c` over ℕ at a given n: a ≤ n / 100
        if op == "eq":
            roots = linear_solutions(v, a, b, value)
            if roots is None:
                roots = _table_preimage(v, a, b, value)
            if roots is None:
                roots = polynomial_roots(v, a, b, value, nonnegative)
            if roots is not None:  # `x - 3 = 0`; `f x = 0` with f a table
                finite = roots if finite is None else finite & roots
                continue
        m = divisor_bound(v, g, value)
        if m is not None:  # v ∣ m with m ≠ 0: |v| ≤ |m|
            hi = m if hi is None else min(hi, m)
            lo = max(lo, -m) if lo is not None else -m
            continue
        if op == "eq" and v.sort in (NAT, INT) and zero_product_factor(v, g, value, unfolded):
            finite = frozenset({0}) if finite is None else finite & {0}  # v·w = 0 with w ≥ 1: v = 0
            continue
        if op in FLIPPED:
            op, a, b = FLIPPED[op], b, a
        if op in ("lt", "le") and v.sort in (NAT, INT):
            a, b = (v if is_cast_of(x, v) else x for x in (a, b))  # ↑n < 200 π bounds n like n < 200 π
        line = linear_in(v, a, b, value) if op in ("lt", "le") and v.sort in (NAT, INT) and a != v and b != v else None
        if line is not None:  # c₁·v + c₀ < 0 (`x + 4 < 9`, `-9 < x + 4`)
            r = -line[1] / line[0]
            if line[0] > 0:
                c = below(r, op == "lt")
                hi = c if hi is None else min(hi, c)
            else:
                c = above(r, op == "lt")
                lo = c if lo is None else max(lo, c)
            continue
        if op in ("lt", "le") and v.sort in (NAT, INT) and (m := product_bound(v, a, b, op, value, unfolded)) is not None:
            hi = m if hi is None else min(hi, m)  # `c * d < n` with c ≥ 0, d ≥ 2: c ≤ (n - 1) / 2
            continue
        if op in ("lt", "le") and a != v and v in free_vars(a):
            c = b if not free_vars(b) else _literal(value(b), b.sort)  # or the others' values
            m = _monotone_bound(v, a, op, c) if c is not None else None
            if m is not None:  # p(v) < c with p nondecreasing on ℕ: v ≤ m
                hi = m if hi is None else min(hi, m)
            continue
        if op not in ("lt", "le") or v.sort not in (NAT, INT):
            continue
        if a == v:
            w = value(b)
            if not is_rational(w):
                w = enclosed(b, 1, v, others, bounds_of)  # v < w ≤ its upper bound
            if is_rational(w):
                c = below(w, op == "lt")
                hi = c if hi is None else min(hi, c)
        elif b == v:
            w = value(a)
            if not is_rational(w):
                w = enclosed(a, 0, v, others, bounds_of)  # its lower bound ≤ w < v
            if is_rational(w):
                c = above(w, op == "lt")
                lo = c if lo is None else max(lo, c)
    if finite is not None:
        return finite
    if v.sort in (RAT, REAL) and (points := _integral_points(v, unfolded, value)) is not None:
        return points
    if lo is not None and hi is not None:
        for c1, c0, k in progressions:  # v = c₁·k + c₀ in [lo, hi]: only the k that reach it
            first, last = sorted(((lo - c0) / c1, (hi - c0) / c1))
            ks = range(max(math.ceil(first), 0 if k.sort == NAT else math.ceil(first)), math.floor(last) + 1)
            if len(ks) <= MAX_DOMAIN:
                return [int(x) for j in ks if lo <= (x := c1 * j + c0) <= hi]
        if hi - lo + 1 > MAX_DOMAIN:
            return None
        return range(lo, hi + 1) if hi >= lo else ()
    return None


def _integral_points(v: Var, guards: list[Term], value: Callable[[Term], Any]) -> range | None:
    """The integers between v's bounds when a guard says the real (or rational) v is an
    integer (``↑⌊v⌋ = v``: Isabelle's ``v ∈ ℤ``) and others bound it on both sides by exact
    values (order atoms, ``v ∈ {a..b}`` and the other intervals), or None. Why: ``card {x.
    x ∈ {17/3..(17/3)²} ∧ x ∈ ℤ}`` (``counting_and_probability/problem_486``) was "not a
    known finite set"."""
    if not any(_says_integral(v, g) for g in guards):
        return None
    lo: int | None = None
    hi: int | None = None
    for g in guards:
        for upper, w, strict in _real_bounds(v, g, value):
            if upper:
                hi = below(w, strict) if hi is None else min(hi, below(w, strict))
            else:
                lo = above(w, strict) if lo is None else max(lo, above(w, strict))
    if lo is None or hi is None or hi - lo + 1 > MAX_DOMAIN:
        return None
    return range(lo, hi + 1) if hi >= lo else range(0)


def _says_integral(v: Var, g: Term) -> bool:
    """``↑⌊v⌋ = v`` (either way round)."""
    if not (isinstance(g, App) and g.op == "eq" and v in g.args):
        return False
    other = g.args[1] if g.args[0] == v else g.args[0]
    return (isinstance(other, App) and other.op == "cast" and isinstance(other.args[0], App)
            and other.args[0].op == "floor" and other.args[0].args[0] == v)


#: For each interval, whether its lower and its upper end are excluded.
_OPEN_ENDS = {"Icc": (False, False), "Ico": (False, True), "Ioc": (True, False), "Ioo": (True, True)}


def _real_bounds(v: Var, g: Term, value: Callable[[Term], Any]) -> list[tuple[bool, Any, bool]]:
    """The exact bounds a guard puts on v: (is it an upper bound, its value, strict) — an
    order atom (``order_bound``) or membership in an interval with exact ends."""
    if isinstance(g, App) and g.op == "mem" and len(g.args) == 2 and g.args[0] == v \
            and isinstance(g.args[1], App) and g.args[1].op in _OPEN_ENDS:
        ends = [(upper, value(end), is_open) for upper, end, is_open
                in zip((False, True), g.args[1].args, _OPEN_ENDS[g.args[1].op], strict=True)]
        return [e for e in ends if is_rational(e[1]) and not isinstance(e[1], bool)]
    bound = order_bound(v, g, value)
    return [] if bound is None else [bound]


def _progression(v: Var, q: Quant, others: frozenset[Var]) -> tuple[Fraction, Fraction, Var] | None:
    """``(c₁, c₀, k)`` when ``∃k. B`` has a conjunct ``v = c₁·k + c₀`` (numeral coefficients,
    k an integer): v's values are then an arithmetic progression, of which only the terms in
    v's range need testing (a superset: membership is still evaluated at each)."""
    if len(q.vars) != 1 or q.vars[0].sort not in (NAT, INT):
        return None
    k = q.vars[0]
    for c in conjuncts(q.body):
        if isinstance(c, App) and c.op == "eq":
            for x, e in (c.args, c.args[::-1]):
                if x == v and v not in free_vars(e) and not free_vars(e) & others:
                    line = linear_in(k, e, Num(0, e.sort))
                    if line is not None and line[0].denominator == 1 and line[1].denominator == 1:
                        return line[0], line[1], k
    return None


def _table_preimage(v: Var, a: Term, b: Term, value: Callable[[Term], Any]) -> frozenset | None:
    """``f v = w`` with ``f`` a function given by a table (a sampled or model function) whose
    default is not w: v is among the table's points where it takes w (``LEAST n. f n = 0``
    searched 100 000 naturals of a random table)."""
    for app_side, other in ((a, b), (b, a)):
        if not (isinstance(app_side, App) and app_side.op == "apply" and app_side.args[1:] == (v,)):
            continue
        table, w = value(app_side.args[0]), value(other)
        if not isinstance(table, FunTable) or not is_rational(w) or isinstance(w, bool):
            return None
        values = [table.default, *table.entries.values()]
        if not all(is_rational(x) and not isinstance(x, bool) for x in values) or table.default == w:
            return None  # compared exactly, or not at all
        points = (k[0] for k, x in table.entries.items() if len(k) == 1 and x == w)
        return frozenset(k for k in points if is_rational(k) and (v.sort != NAT or (k == int(k) and k >= 0)))
    return None


#: Points a ∀ conjunct of an ∃ is instantiated at to pin the ∃'s variables (``instance_solution``).
INSTANCE_POINTS = (0, 1, 2, 3, 4, 5, 6, 7)


def instance_solution(vs: tuple[Var, ...], conjuncts_: list[Term],
                      value: Callable[[Term], Any]) -> dict[str, Fraction] | bool | None:
    """``∃ v̄. … ∧ (∀x. L = R) ∧ …`` with L − R affine in v̄ (over ℚ / ℝ) at each numeral x:
    every witness meets the instances at x = 0, 1, 2, … (linear equations in v̄, exact where
    their coefficients have exact values), so their unique solution is the only candidate
    (``∃ a b c. … ∧ ∀x. p x = a·x² + b·x + c`` with p a table: a, b, c read off p's values).
    Returns that solution, False when the instances have none (no witness), None when they do
    not determine v̄ or the shape does not apply."""
    if not vs or any(v.sort not in (RAT, REAL) for v in vs):
        return None
    names = frozenset(vs)
    for q in conjuncts_:
        if not (isinstance(q, Quant) and q.kind == "forall" and len(q.vars) == 1
                and q.vars[0].sort in (NAT, INT, RAT, REAL) and isinstance(q.body, App) and q.body.op == "eq"
                and names <= free_vars(q.body)):
            continue
        rows = []
        for x0 in INSTANCE_POINTS:
            row = _instance_row(vs, substitute(q.body, {q.vars[0]: Num(x0, q.vars[0].sort)}), value)
            if row is not None:
                rows.append(row)
        solved = _solve_linear(rows, len(vs))
        if solved is False:
            return False
        if solved is not None:
            return {v.name: x for v, x in zip(vs, solved, strict=True)}
    return None


def _instance_row(vs: tuple[Var, ...], eq: App, value: Callable[[Term], Any]) -> tuple[list[Fraction], Fraction] | None:
    """(coefficients of v̄, right-hand side) of the instance ``L = R`` when L − R is affine in
    v̄ with exact coefficients; None otherwise."""
    lhs, rhs = eq.args
    names = frozenset(vs)
    coeffs = []
    for v in vs:
        diff = difference_polynomial.__wrapped__(v, lhs, rhs, False)  # a fresh instance: not worth caching
        if diff is None:
            return None
        c1 = Fraction(0)
        for (deg, ratio, atoms), c in diff.items():
            if deg == 0:
                continue
            if deg > 1 or ratio != 1 or any(free_vars(a) & names for a in atoms):
                return None
            c = valued_coefficient(c, atoms, value)
            if c is None:
                return None
            c1 += c
        coeffs.append(c1)
    zero = {v: Num(0, v.sort) for v in vs}
    at_zero = [value(substitute(side, zero)) for side in (lhs, rhs)]
    if not all(is_rational(w) and not isinstance(w, bool) for w in at_zero):
        return None
    return coeffs, Fraction(at_zero[1]) - Fraction(at_zero[0])


def _solve_linear(rows: list[tuple[list[Fraction], Fraction]], n: int) -> list[Fraction] | bool | None:
    """The unique solution of the rows (coefficients · v̄ = rhs), False when there is none,
    None when they leave v̄ undetermined. Gaussian elimination over ℚ."""
    m = [list(c) + [r] for c, r in rows]
    rank = 0
    for col in range(n):
        pivot = next((i for i in range(rank, len(m)) if m[i][col] != 0), None)
        if pivot is None:
            continue
        m[rank], m[pivot] = m[pivot], m[rank]
        p = m[rank][col]
        m[rank] = [x / p for x in m[rank]]
        for i in range(len(m)):
            if i != rank and m[i][col] != 0:
                f = m[i][col]
                m[i] = [a - f * b for a, b in zip(m[i], m[rank], strict=True)]
        rank += 1
    if any(all(x == 0 for x in row[:n]) and row[n] != 0 for row in m):
        return False
    if rank < n:
        return None
    return [m[i][n] for i in range(n)]


def image_lower_bound(v: Var, body: Term) -> int | None:
    """A numeral below which ``body`` is false at every integer ``v``, when ``body`` says ``v``
    is an image ``∃ȳ. v = e(ȳ) ∧ G`` (``e`` free of v) and ``G``'s numeral bounds on ȳ bound
    ``e`` below (sums, and products of nonnegative factors, of bounded variables and
    numerals): ``LEAST n :: int. ∃a b. a·b = n ∧ a > 1 ∧ b > 1 ∧ |a − b| = 10`` is searched
    from 4 (``prealgebra/problem_1441``). Else None."""
    if not (isinstance(body, Quant) and body.kind == "exists"):
        return None
    shape = _image_shape(v, body)
    if shape is None or shape[1] is not None or len(shape[0]) != 1:
        return None
    (image,), _, guards_ = shape
    lows = {y: low for y in body.vars if (low := numeral_low(y, guards_)) is not None}

    def least(t: Term) -> Fraction | None:
        if isinstance(t, Num) and isinstance(t.value, (int, Fraction)):
            return Fraction(t.value)
        if isinstance(t, Var):
            return Fraction(lows[t]) if t in lows else None
        if not isinstance(t, App):
            return None
        if t.op == "cast" and t.args[0].sort in (NAT, INT):
            return least(t.args[0])
        parts_ = [least(a) for a in t.args]
        if any(p is None for p in parts_):
            return None
        if t.op == "add":
            return sum(parts_, Fraction(0))  # type: ignore[arg-type]
        if t.op == "mul" and all(p >= 0 for p in parts_):  # type: ignore[operator]
            return math.prod(parts_)  # type: ignore[arg-type]
        return None

    low = least(image)
    return None if low is None else math.ceil(low)


#: Operations under which nonnegative nondecreasing terms of a ℕ variable stay so.
_MONOTONE_OPS = frozenset({"add", "mul", "pow", "cast", "sqrt", "signed_sqrt", "div"})


def _monotone_in(v: Var, t: Term) -> bool:
    """``t`` is built from the ℕ variable ``v``, nonnegative numerals, ``+``, ``*``, ``^``
    (numeral exponent), casts, square roots and division by a positive numeral, so it is a
    nonnegative nondecreasing function of ``v`` (``√↑n``, ``x ^ 2 + 4 * x + 4``)."""
    if t == v:
        return True
    if isinstance(t, Num):
        return is_rational(t.value) and t.value >= 0
    if not (isinstance(t, App) and t.op in _MONOTONE_OPS and t.sort in (NAT, INT, RAT, REAL)):
        return False
    if t.op == "pow":
        return _monotone_in(v, t.args[0]) and isinstance(t.args[1], Num)
    if t.op == "div":
        d = t.args[1]
        return _monotone_in(v, t.args[0]) and isinstance(d, Num) and is_rational(d.value) and d.value > 0
    return all(_monotone_in(v, a) for a in t.args)


def _equated(v: Var, c: Term) -> list[Term] | None:
    """The terms ``e`` such that ``c`` implies ``v = e`` for one of them: ``v = e`` itself, or
    a disjunction each of whose disjuncts has such a conjunct; None otherwise."""
    def one(t: Term) -> Term | None:
        for a in conjuncts(t):
            if isinstance(a, App) and a.op == "eq":
                for x, e in (a.args, a.args[::-1]):
                    if x == v and v not in free_vars(e):
                        return e
        return None

    if isinstance(c, App) and c.op == "or":
        es = [one(d) for d in c.args]
        return None if any(e is None for e in es) else es  # type: ignore[return-value]
    e = one(c)
    return None if e is None else [e]


def _image_domain(v: Var, q: Quant, others: frozenset[Var], value: Callable[[Term], Any]) -> frozenset | None:
    """The values ``v`` can take under ``∃ȳ. B`` when B's conjuncts bound each y to a finite
    domain and one conjunct says ``v = e₁(ȳ) ∨ … ∨ v = eₖ(ȳ)``, or ``c₁(ȳ)·v + c₀(ȳ) = 0``: the
    eᵢ (the root −c₀/c₁) at every such ȳ (a superset: membership is still evaluated at each).
    None when it does not apply, when c₁ and c₀ both vanish at some ȳ (every v would do), or
    when the enumeration would exceed ``MAX_DOMAIN``."""
    shape = _image_shape(v, q)
    if shape is None:
        return None
    eqs, line, guards_ = shape
    ys = frozenset(q.vars)
    if any(free_vars(e) & (others - ys) for e in (*eqs, *(line or ()))):
        return None
    combos = _witnesses(list(q.vars), guards_, others | {v}, value)
    if combos is None:
        return None
    out = set()
    for lits in combos:
        for e in eqs:
            w = value(substitute(e, lits))
            if w is None:
                return None
            out.add(w)
        if line is not None:
            c1, c0 = (value(substitute(c, lits)) for c in line)
            if not (is_rational(c1) and is_rational(c0)) or isinstance(c1, bool) or isinstance(c0, bool):
                return None
            if c1 == 0:
                if c0 == 0:
                    return None  # every v satisfies it at this ȳ
                continue
            root = -Fraction(c0) / Fraction(c1)
            if v.sort in (NAT, INT):
                if root.denominator != 1 or (v.sort == NAT and root < 0):
                    continue
                root = int(root)
            out.add(root)
    return frozenset(out)


def _witnesses(ys: list[Var], guards_: list[Term], others: frozenset[Var],
               value: Callable[[Term], Any]) -> list[dict[Var, Term]] | None:
    """The values of ``ys`` (as numerals) outside of which a guard fails, one variable at a
    time: each y's domain is read with the ys before it fixed (``r₁ · r₂ = n`` pins r₂ once r₁
    is chosen, where alone each only divides n), and a combination at which a guard is exactly
    false is dropped (no witness there). None when some y has no finite domain, a value is
    not a rational, or more than ``MAX_DOMAIN`` combinations would be visited."""
    out: list[dict[Var, Term]] = []
    visited = 0

    def extend(rest: list[Var], gs: list[Term], lits: dict[Var, Term],
               found: tuple[Var, list[Var], Collection[Any]] | None = None) -> bool:
        nonlocal visited
        if not rest:
            out.append(lits)
            return True
        found = found or _first_bounded(rest, gs, others, value)
        if found is None:
            return False
        y, remaining, d = found
        open_ = frozenset(remaining)
        for x in d:
            visited += 1
            n = _literal(x, y.sort)
            if n is None or visited > MAX_DOMAIN:
                return False
            fixed = [substitute(g, {y: n}) if y in free_vars(g) else g for g in gs]
            closed = (g for g, g0 in zip(fixed, gs, strict=True) if g is not g0 and not free_vars(g) & open_)
            if any(value(g) is False for g in closed):
                continue  # a guard false at these values: none of them is a witness
            if not extend(remaining, fixed, {**lits, y: n}):
                return False
        return True

    first = _first_bounded(ys, guards_, others, value)
    if first is None or not _few_enough(first, guards_, others, value):
        return None
    return out if extend(ys, guards_, {}, first) else None


def _few_enough(first: tuple[Var, list[Var], Collection[Any]], guards_: list[Term], others: frozenset[Var],
                value: Callable[[Term], Any]) -> bool:
    """Whether ``_witnesses`` looks able to finish from ``first`` (``_first_bounded``): that
    variable's domain times the others' read with it fixed at its first value stays within
    ``MAX_DOMAIN`` (10³ values of each of three independent digits: given up at once, not
    after ``MAX_DOMAIN`` visits)."""
    y, rest, d = first
    if not d:
        return True  # no value at all: nothing to enumerate
    n = _literal(next(iter(d)), y.sort)
    if n is None:
        return False
    size = len(d)
    fixed = [substitute(g, {y: n}) for g in guards_]
    for z in rest:
        dz = bound_domain(z, fixed, others | (frozenset(rest) - {z}), value)
        if dz is None:
            return True  # no estimate: the visits stay bounded by MAX_DOMAIN
        size *= max(len(dz), 1)
        if size > MAX_DOMAIN:
            return False
    return True


def _first_bounded(ys: list[Var], guards_: list[Term], others: frozenset[Var],
                   value: Callable[[Term], Any]) -> tuple[Var, list[Var], Collection[Any]] | None:
    """The first of ``ys`` the guards give a finite domain with the others unknown, the ys
    left, and that domain; None when none has one."""
    for i, y in enumerate(ys):
        rest = ys[:i] + ys[i + 1:]
        d = bound_domain(y, guards_, others | frozenset(rest), value)
        if d is not None:
            return y, rest, d
    return None


@by_identity()  # the same ∃ȳ. B is a guard at every value of an outer binder
def _image_shape(v: Var, q: Quant) -> tuple[list[Term], tuple[Term, Term] | None, list[Term]] | None:
    """``(e₁ … eₖ, None, the conjuncts free of v)`` for ``_image_domain``; or, without a
    conjunct ``v = e``, ``([], (c₁, c₀), all the conjuncts)`` for the first that reads
    ``c₁(ȳ)·v + c₀(ȳ) = 0`` (``x² + m·x + 28 = 0`` in ``{m. ∃x. …}``; v must satisfy it, so the
    roots are a superset; the ȳ may be bounded by it, ``x ∣ 28``, as its bounds never depend
    on v); or None."""
    body = conjuncts(q.body)
    eqs = next((es for c in body if v in free_vars(c) and (es := _equated(v, c)) is not None), None)
    if eqs is not None:
        return eqs, None, [c for c in body if v not in free_vars(c)]
    line = next((ln for c in body if v in free_vars(c) and (ln := affine_terms(v, c)) is not None), None)
    return None if line is None else ([], line, body)


def _literal(w: Any, sort: Sort) -> Num | None:
    """The numeral of an exact rational value (None for anything else)."""
    return Num(w, sort) if is_rational(w) and not isinstance(w, bool) else None


@functools.lru_cache(maxsize=512)
def _monotone_bound(v: Var, p: Term, op: str, c: Term) -> int | None:
    """The largest ``v`` that can satisfy ``p(v) < c`` (``op`` lt) or ``p(v) ≤ c`` (le), for
    ``p`` nondecreasing in the ℕ variable ``v`` and ``c`` closed (``x^2 + 4 * x + 4 < 20``:
    x ≤ 1; ``√↑n < 7/2``: n ≤ 12), found by binary search with the exact evaluator; None when
    the atom is not shown false anywhere up to ``MAX_DOMAIN``. Cached: a guard is met again
    at every point a quantifier or set over it is evaluated at."""
    if v.sort != NAT or free_vars(c) or not _monotone_in(v, p):
        return None
    from provers.semantics.evaluate import truth  # the evaluator imports this module

    def fails(x: int) -> bool:
        return truth(app(op, substitute(p, {v: Num(x, NAT)}), c), {}) is False

    if not fails(MAX_DOMAIN):
        return None
    lo, hi = -1, MAX_DOMAIN  # fails(hi); not known at lo
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if fails(mid):
            hi = mid
        else:
            lo = mid
    return hi - 1


def _unfold_set_builders(guards: list[Term]) -> list[Term]:
    """``v ∈ {x | P x}`` is ``P v``: its conjuncts bound v as well (``IsGreatest {n | n < 100
    ∧ …} m`` reads ``∀ a ∈ S, a ≤ m``, whose counterexamples then lie below 100); ``|e| < c`` is its two
    linear halves."""
    out: list[Term] = []
    for g in guards:
        if isinstance(g, App) and g.op == "mem" and isinstance(g.args[1], SetBuilder):
            sb = g.args[1]
            out.extend(conjuncts(substitute(sb.body, {sb.var: g.args[0]})))
        elif isinstance(g, App) and g.op in ("lt", "le", "gt", "ge"):
            op, a, b = (FLIPPED[g.op], g.args[1], g.args[0]) if g.op in FLIPPED else (g.op, *g.args)
            if isinstance(a, App) and a.op == "abs" and a.sort in (INT, RAT, REAL):
                # |e| < c is -c < e ∧ e < c
                out.extend([app(op, a.args[0], b), app(op, app("neg", b), a.args[0])])
            else:
                out.append(g)
        else:
            out.append(g)
    return out


def probe_values(sort: Sort) -> list[Any]:
    """Small values an unbounded binder is tried at (a witness or counterexample among them
    still decides the quantifier exactly)."""
    if sort == NAT:
        return list(range(0, 12))
    if sort == INT:
        return [0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 10, -10]
    if sort in (RAT, REAL):
        return [0, 1, -1, 2, -2, Fraction(1, 2), Fraction(-1, 2), 3, -3, Fraction(1, 3), 10, -10]
    return []
