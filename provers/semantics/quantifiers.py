"""The evaluator's quantifiers: ∀ / ∃ / ∃! decided exactly or left undecided.

Why a module of its own: a binder over a finite domain is enumerated, but most binders of a
statement range over ℕ, ℤ or ℝ, and deciding those is where the evaluator's cleverness (and
most of its code) lies — probes at the points a solver's model or the formula's guards name,
sign cells of polynomial bodies, periodic and tabled domains, identities proved once for all
values, and the budget that keeps a nested binder from stalling a batch. ``evaluate.term_value``
dispatches every ``Quant`` here (``quantifier_value``); the helpers it shares with the big operators
and set-builders (``comprehensions``) live in ``evaluate``.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from provers.ir import (
    COMPLEX,
    INT,
    NAT,
    NEGATED,
    RAT,
    REAL,
    App,
    BigOp,
    Lam,
    Num,
    Quant,
    SetBuilder,
    Term,
    Var,
    and_,
    app,
    by_identity,
    cast,
    conjuncts,
    free_vars,
    is_numeric,
    map_term,
    or_,
    provably_inhabited,
    substitute,
    subterms,
    unfold,
)
from provers.semantics import numeric
from provers.semantics.algebraic import AlgebraicReal, algebraic_truth
from provers.semantics.approx import is_rational, truth_value
from provers.semantics.closed_forms import PolynomialReader
from provers.semantics.comprehensions import periodic_set
from provers.semantics.domains import (
    MAX_DOMAIN,
    bound_domain,
    disjuncts,
    guards,
    instance_solution,
    probe_values,
    pull_equated_binder,
)
from provers.semantics.evaluate import (
    PROBES,
    Env,
    as_number,
    at_irrational,
    cells_of,
    count_step,
    exact_truth,
    exact_value,
    free_vars_by_identity,
    past_points,
    step_state,
    tabled_points,
    truth_triple,
    value_sort_key,
)
from provers.semantics.extrema import integers_near
from provers.semantics.identities import polynomial_identity
from provers.semantics.integer_bounds import numeral_lower_bound
from provers.semantics.linear import decide_linear
from provers.semantics.memo import NESTED_PROBES_REASON, Memo
from provers.semantics.rational_identities import rational_identity
from provers.semantics.values import ApproxBool, Closure, FunTable, PredSet, Sequence, Undecided

#: Quantified subformulas' values by the values they read (``memo``): a pool's pairs and an
#: outer binder's probes evaluate the same premise at the same point again and again.
QUANTIFIER_VALUES = Memo()


def quantifier_value(t: Quant, env: Env) -> Any:
    key, got = QUANTIFIER_VALUES.lookup(t, env)
    if got is not Memo.MISSING:
        return got
    try:
        value = _quant_value(t, env)
    except Undecided as e:
        # not when the budget ran out inside (another reason may hide it)
        if key is not None and getattr(step_state, "left", 0) >= 0:
            QUANTIFIER_VALUES.put_undecided(key, e)
        raise
    if key is not None:
        QUANTIFIER_VALUES.put(key, value)
    return value


def _quant_value(t: Quant, env: Env) -> Any:
    if t.kind == "exists1":
        return _exists_unique(t, env)
    want = t.kind == "exists"  # the value that settles the quantifier early
    restricting = guards(t.kind, t.body)
    for i, v in enumerate(t.vars):
        rest = t.vars[:i] + t.vars[i + 1 :]
        dom = bound_domain(v, restricting, frozenset(rest), exact_value(env))
        if dom is not None:
            body = Quant(t.kind, rest, t.body) if rest else t.body
            return _enumerate(body, v, dom, want, env)
    tabled = _through_tables(t, want, env)  # no finite domain: the tables' points may do
    if tabled is not None:
        return tabled
    dom = _iff_domain(t, env) if want is False else None
    if dom is None and not want:
        dom = _counterexample_domain(t, env)
    if dom is not None:
        return _enumerate(t.body, t.vars[0], dom, want, env)
    if want:  # ∃ v̄. … ∧ ∀x. L = R: the instances of the ∀ may leave one candidate, or none
        solution = instance_solution(t.vars, restricting, exact_value(env))
        if solution is False:
            return False
        if solution is not None:
            r, ex, why = truth_triple(t.body, {**env, **solution})
            if r is None:
                raise Undecided(why)
            return truth_value(r, ex)
    scoped = _miniscoped(t, want, env)
    if scoped is not None:
        return scoped
    pulled = pull_equated_binder(t)
    if pulled is not None:
        r, ex, _ = truth_triple(pulled, env)  # the same truth, perhaps over bounded domains
        if r is not None:
            return truth_value(r, ex)
    return _probe(t, want, env)


def _through_tables(t: Quant, want: bool, env: Env) -> Any:
    """``∀x. φ`` / ``∃x. φ`` over an infinite sort where x occurs only as the argument of
    functions given by settled tables (a model's ``f``, ``g``): off every listed point each
    table is at its default, so φ is decided at the listed points and at one point off them.
    Why: ``∀x. f x > 0`` at a solver's model of f was "∀ over an unbounded domain", no probe
    covers ℝ, and the model was thrown away. None when it does not apply or a point is
    undecided."""
    if len(t.vars) != 1:
        return None
    points = tabled_points(t.vars[0], t.body, env)
    if points is None:
        return None
    for point in (*points, past_points(points)):
        r, exact, _ = truth_triple(t.body, {**env, t.vars[0].name: point})
        if r is None or not exact:
            return None
        if r == want:
            return want
    return not want


def _miniscoped(t: Quant, want: bool, env: Env) -> Any:
    """``∀x̄. A ∨ B x̄`` with A not reading x̄ is ``A ∨ ∀x̄. B x̄`` (``∃x̄. A ∧ B x̄`` is
    ``A ∧ ∃x̄. B x̄``): the parts that read no binder are decided once, before any probe. Why:
    ``∀x. (∃a b. a + b = m ∧ a·b = 28) → P x = 0`` is true at m = 0 whatever P, yet no probe
    of x shows it, and a probe's counterexample is all an unbounded ∀ can otherwise find.
    None when no such part decides (the caller probes as before)."""
    bound = set(t.vars)
    parts = conjuncts(t.body) if want else disjuncts(t.body)
    outside = [p for p in parts if not free_vars(p) & bound]
    if not outside:
        return None
    settles = not want  # a true disjunct settles a ∀, a false conjunct an ∃
    for p in outside:
        r, ex, _ = truth_triple(p, env)
        if r is None or not ex:
            return None
        if r == settles:
            return settles
    inside = [p for p in parts if free_vars(p) & bound]
    if not inside:  # ∀x̄. False is True over an empty sort (Fin 0), ∃x̄. True False
        return not settles if all(provably_inhabited(v.sort) for v in t.vars) else None
    return quantifier_value(Quant(t.kind, t.vars, and_(*inside) if want else or_(*inside)), env)


#: ¬(a ⋈ b) as one order atom, for ℕ and ℤ.
_NEGATED_ORDER = {"le": ("lt", True), "lt": ("le", True), "ge": ("lt", False), "gt": ("le", False)}


def _counterexample_domain(t: Quant, env: Env) -> list[Any] | None:
    """``∀x. g x → a ⋈ b`` (``∀ a ∈ S, 314 ≤ a``: IsLeast) where the negated conclusion
    bounds x (``a < 314``): a counterexample lies in that finite domain, so the ∀ is decided
    by enumerating it, whatever the guard."""
    if len(t.vars) != 1 or t.vars[0].sort not in (NAT, INT):
        return None
    body = t.body
    while isinstance(body, App) and body.op == "implies":
        body = body.args[1]
    if not (isinstance(body, App) and body.op in _NEGATED_ORDER):
        return None
    op, swap = _NEGATED_ORDER[body.op]
    a, b = body.args
    negated = app(op, *((b, a) if swap else (a, b)))
    dom = bound_domain(t.vars[0], [negated], frozenset(), exact_value(env))
    return None if dom is None else list(dom)


def _iff_domain(t: Quant, env: Env) -> list[Any] | None:
    """``∀x. A x ↔ B x`` (``x ∈ S ↔ P x``, a set's definition) where each side holds only on
    a finite domain: both sides are false off the union of the two, so the iff holds there."""
    if len(t.vars) != 1 or not (isinstance(t.body, App) and t.body.op == "iff"):
        return None
    v, value_of = t.vars[0], exact_value(env)
    funs = _closures(t, env)  # `f x < 9` with f the closure λx. |x + 4|: bounded once unfolded
    sides = unfold(t.body, funs).args if funs else t.body.args
    doms = [bound_domain(v, conjuncts(side), frozenset(), value_of) for side in sides]
    if any(d is None for d in doms):
        return None
    union = set(doms[0]) | set(doms[1])  # type: ignore[arg-type]
    return None if len(union) > MAX_DOMAIN else sorted(union, key=value_sort_key)


def _exists_unique(t: Quant, env: Env) -> Any:
    v = t.vars[0]
    dom = bound_domain(v, conjuncts(t.body), frozenset(), exact_value(env))
    if dom is None:
        raise Undecided(f"∃! over an unbounded domain of {v.sort}")
    count, exact = 0, True
    for x in dom:
        count_step()
        r, ex, why = truth_triple(t.body, {**env, v.name: x})
        if r is None:
            raise Undecided(why)
        exact &= ex
        count += bool(r)
    return truth_value(count == 1, exact)


def _enumerate(body: Term, v: Var, dom: Any, want: bool, env: Env) -> Any:
    """∀ (``want`` False) or ∃ (``want`` True) over the finite domain ``dom`` of ``v``."""
    undecided, exact = "", True
    for x in dom:
        count_step()
        r, ex, why = truth_triple(body, {**env, v.name: x})
        if r is None:
            undecided = undecided or why
            continue
        if r == want:
            if ex:
                return want
            exact = False
            undecided = undecided or "approximate"
        else:
            exact &= ex
    if undecided:
        if not exact and undecided == "approximate":
            return ApproxBool(want)
        raise Undecided(undecided)
    return truth_value(not want, exact)


def _probe(t: Quant, want: bool, env: Env) -> Any:
    """Unbounded: an exact witness (∃) or counterexample (∀) among probe values still decides;
    a polynomial identity is its coefficient equations."""
    vars_ = t.vars
    identity = None if want else polynomial_identity(t)
    if identity is None and not want:
        identity = _unfolded_identity(t, env)
    if identity is not None:
        r, ex, why = truth_triple(identity, env)
        if r is None:
            raise Undecided(why)
        return truth_value(r, ex)
    if want and (differs := _differs(t.body)) is not None:
        # ∃x̄. a ≠ b is ¬∀x̄. a = b: false exactly when that is a polynomial identity, true
        # when it is none (a nonzero polynomial has a non-root in an infinite domain)
        same = Quant("forall", vars_, app("eq", *differs))
        identity = polynomial_identity(same) or _unfolded_identity(same, env)
        if identity is not None:
            r, ex, _ = truth_triple(identity, env)
            if r is not None and ex:
                return not r
    if len(vars_) == 1 and vars_[0].sort in (NAT, INT):
        periodic = _periodic_quantifier(vars_[0], t.body, want, env)
        if periodic is not None:
            return periodic
    nested = getattr(step_state, "probing", 0)
    hints = dict(env.get(PROBES, ()))
    values = [[*hints.get(v.name, ()), *probe_values(v.sort)] for v in vars_]
    if len(vars_) == 1 and values[0]:
        values[0] += [x for x in _guard_points(vars_[0], t.body) if x not in values[0]]
    if all(values) and len(vars_) <= 3:
        values = [vs + _members_of_predsets(v, t.body, env) for v, vs in zip(vars_, values, strict=True)]
        positions = _small_first(tuple(len(v) for v in values))
        witness_only = None if want else _witness_only(t.body)
        step_state.probing = nested + 1
        try:
            for p in positions[:NESTED_PROBE_COMBINATIONS] if nested else positions:
                combo = tuple(v[k] for v, k in zip(values, p, strict=True))
                count_step()
                inner = {**env, **{v.name: x for v, x in zip(vars_, combo, strict=True)}}
                if witness_only is not None and _probed_only(witness_only, inner):
                    break  # the body is never false at a probe: no counterexample to find
                witness_only = None  # looked at the first combination only
                r, ex, _ = truth_triple(t.body, inner)
                if r == want and ex:
                    return want
        finally:
            step_state.probing = nested
    if not want and _meets_definitions(t, env):
        return True
    if not want:
        decided = _rational_identity(t, env)
        if decided is not None:
            return decided
    funs = _closures(t, env)
    if funs:  # the closures' bodies in place: `∃n. f n = n + 1987` at f = λx. x is `∃n. n = n + 1987`
        t = Quant(t.kind, t.vars, unfold(t.body, funs))
    decided = _by_cells(t, want, env)
    if decided is None:
        decided = decide_linear(t, want, exact_truth(env), exact_value(env))
    if decided is None:
        decided = _powr_pieces(t, want, env)
    if decided is None and not want:
        decided = _exponential_identity(t, env)
    if decided is None:
        decided = _at_finitely_many_points(t, env)
    if decided is not None:
        return decided
    names = ", ".join(f"{v.name} : {v.sort}" for v in vars_)
    fewer = f"; {NESTED_PROBES_REASON}" if nested else ""
    raise Undecided(f"{'∃' if want else '∀'} over an unbounded domain ({names}{fewer})")


def _negated_conjuncts(body: Term) -> list[Term] | None:
    """The conjuncts of ``¬body`` with the negation pushed onto atoms (``¬(A → B)`` is ``A ∧
    ¬B``, ``¬(A ∨ B)`` is ``¬A ∧ ¬B``), or None when some part does not negate that way."""
    if isinstance(body, App) and body.op == "implies":
        rest = _negated_conjuncts(body.args[1])
        return None if rest is None else [*conjuncts(body.args[0]), *rest]
    if isinstance(body, App) and body.op == "or":
        out: list[Term] = []
        for a in body.args:
            part = _negated_conjuncts(a)
            if part is None:
                return None
            out += part
        return out
    if isinstance(body, App) and body.op == "not":
        return conjuncts(body.args[0])
    if isinstance(body, App) and body.op in NEGATED and len(body.args) == 2:
        return [app(NEGATED[body.op], *body.args)]
    return None


def _periodic_quantifier(v: Var, body: Term, want: bool, env: Env) -> bool | None:
    """``∃v. φ`` as ``{v | φ} ≠ ∅`` and ``∀v. φ`` as ``{v | ¬φ} = ∅`` over ℕ / ℤ, when that set
    is an interval (bounded or not) cut by periodic conditions (``periodic_set``: one period
    decides it); None otherwise. Why: ``∀z. z > x → z mod 11 ≠ 0`` has no counterexample among
    the small probes when x = 1001, yet one period past x holds one
    (``prealgebra/problem_1054``)."""
    parts = conjuncts(body) if want else _negated_conjuncts(body)
    if not parts:
        return None
    try:
        found = periodic_set(v, and_(*parts), env)
    except Undecided:
        return None
    if found is None:
        return None
    nonempty = bool(found) if isinstance(found, frozenset) else True  # a PredSet only when infinite
    return nonempty if want else not nonempty


#: Most points ``_guard_points`` adds to a variable's probe values.
GUARD_POINTS = 16


@by_identity()
def _guard_points(v: Var, body: Term) -> list[Fraction | int]:
    """Points around the numerals ``body`` compares ``v`` with (c, c ± 1/2, c ± 1 and the
    midpoints between them), probed after the usual values: ``∀x. 0 ≤ x < 7 → f x = 2`` with
    a piecewise f is false at 6, which no small probe reaches. Remembered per quantifier: it
    is asked at every evaluation of one (read only, never changed by the caller)."""
    cs: set[Fraction] = set()
    for s in subterms(body):
        if isinstance(s, App) and s.op in ("lt", "le", "gt", "ge", "eq", "ne") and len(s.args) == 2:
            for a, b in (s.args, s.args[::-1]):
                if a == v and isinstance(b, Num) and isinstance(b.value, (int, Fraction)):
                    cs.add(Fraction(b.value))
    if not cs:
        return []
    ordered = sorted(cs)
    half = Fraction(1, 2)
    points = {p for c in ordered for p in (c - 1, c - half, c, c + half, c + 1)} | {(a + b) / 2 for a, b in zip(ordered, ordered[1:], strict=False)}
    if v.sort in (NAT, INT):
        points = {p for p in points if p.denominator == 1 and (v.sort == INT or p >= 0)}
    elif v.sort not in (RAT, REAL):
        return []
    out = sorted(points, key=lambda p: (abs(p), p))[:GUARD_POINTS]
    return [int(p) if p.denominator == 1 else p for p in out]


def _by_cells(t: Quant, want: bool, env: Env) -> bool | None:
    """A ∀ / ∃ over one number variable whose body compares polynomials in it, decided on the
    sign cells of those polynomials (``polynomials.polynomial_cells``): the body has one truth
    value on each open cell, so one rational point per cell and the roots (irrational ones
    by the field evaluator; none over ℚ) are every case; over ℕ / ℤ the integers next to each
    root (the least one above it stands for the cell after it) and the outer points (0 over ℕ). Why: a
    model's premise ``∀x. x² − m·x + n ≠ 0 ∨ x = p ∨ x = q`` was "∀ over an unbounded
    domain" whenever no probe refuted it. None when the body is not of that form, a root is
    too large for its integer neighbours to be found, or it is undecided at some point."""
    if len(t.vars) != 1:
        return None
    v = t.vars[0]
    cells = cells_of(v, t.body, env)
    if cells is None:
        return None
    samples, roots = cells
    points: list[Any]
    if v.sort in (NAT, INT):
        near = integers_near(roots)
        if near is None:
            return None
        points = sorted({int(samples[0]), int(samples[-1]), *near} | ({0} if v.sort == NAT else set()))
        points = [z for z in points if v.sort == INT or z >= 0]
    else:
        points = [*map(as_number, samples), *(r for r in roots if v.sort == REAL or isinstance(r, Fraction))]
    undecided = False
    for x in points:
        if isinstance(x, AlgebraicReal):
            r = at_irrational(t.body, env, v, x)
        else:
            count_step()
            r, exact, _ = truth_triple(t.body, {**env, v.name: x})
            r = r if exact else None
        if r is None:
            undecided = True
        elif r == want:
            return want
    return None if undecided else not want


#: Largest numeral exponent k of ``v powr k`` that ``_powr_pieces`` reads as a power.
MAX_POWR_PIECES_EXPONENT = 16


#: The unknown e = exp (Isabelle's ln at x ≤ 0): ``v powr k`` is eᵏ at every v < 0.
_EXP_LN_NEG = Var("exp(ln⁻)", REAL)


def _powr_pieces(t: Quant, want: bool, env: Env) -> bool | None:
    """A ∀ / ∃ over one number variable v whose body reads ``v powr k`` (k a positive integer
    numeral; the base v or v cast to ℝ), decided piece by piece: v > 0, where it is vᵏ (the
    quantifier over that half-line goes back to the evaluator: sign cells, identities); v = 0,
    where it is 0; and v < 0, where Isabelle's ``powr`` is exp (k · ln v) with ln one
    unspecified constant at every v ≤ 0 (``ln_neg_is_const``), so eᵏ for one e > 0 — its value
    when the assignment fixes ln there (``@ln``), else the piece is decided only when it is so
    for every e: a ∀ of an equation that is not an identity in v whatever e
    (``∀x. x² + 1 = x powr 2 + 1`` is false at x < 0: x² = e² fails somewhere). Why: GPT-4's
    Isabelle writes ``x powr 2`` for x², and every ∀ over such a body was "unbounded"."""
    if len(t.vars) != 1 or t.vars[0].sort not in (NAT, INT, RAT, REAL):
        return None
    v = t.vars[0]

    def exponent(s: Term) -> int | None:
        if isinstance(s, App) and s.op == "powr" and (s.args[0] == v or s.args[0] == cast(v, REAL)) \
                and isinstance(s.args[1], Num) and s.args[1].value == int(s.args[1].value) \
                and 0 < s.args[1].value <= MAX_POWR_PIECES_EXPONENT:
            return int(s.args[1].value)
        return None

    if not any(exponent(s) is not None for s in subterms(t.body)):
        return None

    def body_with(power: Callable[[Term, int], Term]) -> Term:
        return map_term(t.body, lambda s: power(s.args[0], k) if (k := exponent(s)) is not None else None)

    zero = Num(0, v.sort)

    def piece(guard: Term, body: Term) -> Term:
        return Quant(t.kind, (v,), and_(guard, body) if want else app("implies", guard, body))

    results: list[bool | None] = []
    r, exact, _ = truth_triple(piece(app("gt", v, zero), body_with(lambda b, k: app("pow", b, Num(k, NAT)))), env)
    results.append(r if exact else None)
    r, exact, _ = truth_triple(t.body, {**env, v.name: 0})
    results.append(r if exact else None)
    if v.sort != NAT:
        results.append(_negative_powr_piece(v, want, env, body_with, lambda body: piece(app("lt", v, zero), body)))
    if want in results:
        return want
    return None if None in results else not want


def _negative_powr_piece(v: Var, want: bool, env: Env, body_with: Callable[[Callable[[Term, int], Term]], Term],
                         piece: Callable[[Term], Term]) -> bool | None:
    """``_powr_pieces``' v < 0 piece, ``v powr k`` read as eᵏ (``piece``: the quantifier over
    v < 0 of a body). With ln fixed at x ≤ 0 by the assignment (a constant ``@ln`` table), e
    is known; otherwise only a ∀ of an equation that no e makes an identity in v is decided
    (False): an identity on the infinitely many v < 0 is one on every v."""
    fix = env.get("@ln")
    if isinstance(fix, FunTable) and not fix.entries and fix.fill is None:
        e = numeric.exp(fix.default)  # exactly 1 at ln = 0, else transcendental
        if not is_rational(e):
            return None
        r, exact, _ = truth_triple(piece(body_with(lambda b, k: Num(Fraction(e) ** k, REAL))), env)
        return r if exact else None
    if want:
        return None
    env = {k: x for k, x in env.items() if k != _EXP_LN_NEG.name}
    e_powers = body_with(lambda b, k: app("pow", _EXP_LN_NEG, Num(k, NAT)))
    if isinstance(e_powers, App) and e_powers.op == "implies" and _EXP_LN_NEG not in free_vars(e_powers.args[0]):
        # a guard no v < 0 meets (∀x. x > 0 → …): the piece holds whatever e
        r, exact, _ = truth_triple(Quant("exists", (v,), and_(app("lt", v, Num(0, v.sort)), e_powers.args[0])), env)
        if r is False and exact:
            return True
    if v not in free_vars(e_powers):  # a statement about e alone: true (false) for every e > 0?
        positive = app("gt", _EXP_LN_NEG, Num(0, REAL))
        for claim, answer in ((e_powers, True), (app("not", e_powers), False)):
            r, exact, _ = truth_triple(Quant("forall", (_EXP_LN_NEG,), app("implies", positive, claim)), env)
            if r is True and exact:
                return answer
        return None
    identity = polynomial_identity(Quant("forall", (v,), e_powers))
    if identity is None:
        return None
    r, exact, _ = truth_triple(identity, env)
    return r if exact else None


def _exponential_identity(t: Quant, env: Env) -> bool | None:
    """``∀n : ℕ. [c ≤ n →] L = R`` whose sides, with the other variables at their rational
    values, are the same exponential polynomial Σ cⱼ·n^dⱼ·rⱼⁿ (``closed_forms.PolynomialReader``,
    exact for n ≥ c): True (a geometric sequence's premise ``∀n ≥ 1. a·r^(n−1) = a / 3^(n−1)``
    with r = 1/3, probed and never refuted, was "∀ over an unbounded domain"). Two different
    ones give None, not False: a counterexample is the probes' to find."""
    if len(t.vars) != 1 or t.vars[0].sort != NAT:
        return None
    n, body, low = t.vars[0], t.body, 0
    if isinstance(body, App) and body.op == "implies":
        for g in conjuncts(body.args[0]):
            bound = numeral_lower_bound(g, n)
            if bound is None:
                return None
            low = max(low, bound)
        body = body.args[1]
    if not (isinstance(body, App) and body.op == "eq" and is_numeric(body.args[0].sort)) or body.args[0].sort == COMPLEX:
        return None
    scalars: dict[Var, Term] = {}
    for v in free_vars(body) - {n}:
        x = env.get(v.name)
        if isinstance(x, bool) or not isinstance(x, (int, Fraction)):
            return None
        scalars[v] = Num(x, v.sort)
    body = substitute(body, scalars) if scalars else body
    reader = PolynomialReader(n, low)
    sides = [reader.read(side) for side in body.args]
    if any(p is None or any(atoms or r == 0 for _, r, atoms in p) for p in sides):
        return None
    left, right = ({m: c for m, c in p.items() if c} for p in sides)  # type: ignore[union-attr]
    return True if left == right else None


def _at_finitely_many_points(t: Quant, env: Env) -> bool | None:
    """A ∀ / ∃ whose guard allows finitely many points, some irrational (``∀x. x² = 2 → x <
    a``), decided exactly at them by the algebraic evaluator (``algebraic._State.quantified``)
    when its free variables have number values; None otherwise."""
    point = {}
    for v in free_vars(t):
        x = env.get(v.name)
        if isinstance(x, bool) or not isinstance(x, (int, Fraction, AlgebraicReal)):
            return None
        point[v.name] = x
    count_step()
    return algebraic_truth(t, point)


def _witness_only(body: Term) -> Quant | None:
    """The ∃ a ∀'s body is false only where it is false (the body itself, or the conclusion
    of ``g → ∃ȳ. B``), or None."""
    while isinstance(body, App) and body.op == "implies":
        body = body.args[1]
    return body if isinstance(body, Quant) and body.kind == "exists" else None


def _probed_only(q: Quant, env: Env) -> bool:
    """No variable of the ∃ ``q`` has a finite domain under ``env``: ``q`` is then settled by
    a witness among probes or left undecided, never false, so a ∀ over it
    (``∀x. ∃a b c. p x = a·x² + b·x + c``) has no counterexample to find by probing. Asked at
    the ∀'s first probe only (a domain that appears at another is not looked for)."""
    restricting = guards("exists", q.body)
    value_of = exact_value(env)
    return all(bound_domain(v, restricting, frozenset(q.vars) - {v}, value_of) is None for v in q.vars)


#: Probe combinations tried for a ∀/∃ over up to three unbounded variables.
PROBE_COMBINATIONS = 400


#: ... and for one probed inside another's probe: it is probed again at every outer probe
#: (``∀x. ∃a b c. p x = a·x² + b·x + c`` tried 400 × 400 combinations, ~40 s on one problem).
NESTED_PROBE_COMBINATIONS = 24


@functools.lru_cache(maxsize=256)
def _small_first(lengths: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The first ``PROBE_COMBINATIONS`` position tuples for lists of ``lengths``, by increasing
    sum of positions: every variable runs over its small probes before any takes a large one
    (in ``itertools.product``'s order the first of three variables took only 3 of its 12
    values within the limit)."""
    def with_sum(ls: tuple[int, ...], total: int) -> Iterator[tuple[int, ...]]:
        if len(ls) == 1:
            if total < ls[0]:
                yield (total,)
            return
        for k in range(min(total, ls[0] - 1) + 1):
            for rest in with_sum(ls[1:], total - k):
                yield (k, *rest)

    if not lengths or any(n == 0 for n in lengths):
        return ()
    every = (p for total in range(sum(n - 1 for n in lengths) + 1) for p in with_sum(lengths, total))
    return tuple(itertools.islice(every, PROBE_COMBINATIONS))


def _rational_identity(t: Quant, env: Env) -> Any:
    """``∀x. [g →] L = R`` over ℝ with divisions: the zero rational function, checked exactly
    at each point where a divisor vanishes (``rational_identities``); None if not decided."""
    found = rational_identity(t, exact_value(env))
    if found is None or not found.generic:
        return None
    v, exact = t.vars[0], True
    for r in found.exceptional:
        count_step()
        holds, ex, why = truth_triple(t.body, {**env, v.name: r})
        if holds is None:
            raise Undecided(why)
        if not holds:
            return truth_value(False, ex)
        exact &= ex
    return truth_value(True, exact)


def _closures(t: Quant, env: Env) -> dict[Var, tuple[tuple[Var, ...], Term]] | None:
    """The functions of ``t``'s body that ``env`` gives as closures, as definitions to unfold
    (``f`` → parameters and body), or None when one cannot be: its captured values differ
    from ``env``'s or the binder captures one of its free names."""
    bound = {v.name for v in t.vars}
    inner = t.body
    while isinstance(inner, Quant) and inner.kind == "forall":  # ∀x, ∀y, … binds them too
        bound |= {v.name for v in inner.vars}
        inner = inner.body
    funs: dict[Var, tuple[tuple[Var, ...], Term]] = {}
    for v in free_vars_by_identity(t.body):
        f = env.get(v.name)
        if not isinstance(f, Closure):
            continue
        params = {p.name for p in f.vars}
        others = {u.name for u in free_vars_by_identity(f.body)} - params
        if others & bound or any(n not in env or n not in f.env or f.env[n] != env[n] for n in others):
            return None
        funs[v] = (f.vars, f.body)
    return funs


def _differs(body: Term) -> tuple[Term, Term] | None:
    """(a, b) when ``body`` is ``a ≠ b`` or ``¬(a = b)``."""
    if isinstance(body, App) and body.op == "not" and isinstance(body.args[0], App) and body.args[0].op == "eq":
        body = app("ne", *body.args[0].args)
    if isinstance(body, App) and body.op == "ne" and len(body.args) == 2:
        return body.args[0], body.args[1]
    return None


def _unfolded_identity(t: Quant, env: Env) -> Term | None:
    """``∀x. f (x + 3) = 3x² + 7x + 4`` with ``f`` the closure λx. a·x² + b·x + c: a
    polynomial identity once the closure is unfolded (its coefficient equations in a, b, c)."""
    funs = _closures(t, env)
    return polynomial_identity(Quant(t.kind, t.vars, unfold(t.body, funs))) if funs else None


#: Members of a set known by its predicate that ``first_members`` finds, and how far it seeks.
PREDSET_MEMBERS, PREDSET_SCAN = 3, 10_000


#: First members per PredSet (scanned once, not at every evaluation of a ∀ over it); the set
#: itself is kept beside them, so that its id is not reused while cached.
_FIRST_MEMBERS: dict[int, tuple[PredSet, list[int]]] = {}


def first_members(pset: PredSet, tick: Callable[[], None] | None = None) -> list[int]:
    """The first ``PREDSET_MEMBERS`` naturals the set contains exactly, below ``PREDSET_SCAN``
    (fewer where it has fewer there, or where a membership is undecided: the scan stops).
    ``tick``: the evaluator's step counter, when called inside an evaluation."""
    hit = _FIRST_MEMBERS.get(id(pset))
    if hit is not None and hit[0] is pset:
        return hit[1]
    members: list[int] = []
    for n in range(PREDSET_SCAN):
        if tick is not None:
            tick()  # the step budget or the deadline: raised, nothing cached
        try:
            member = pset.contains(n)
        except Undecided:
            break
        if member is True:
            members.append(n)
            if len(members) == PREDSET_MEMBERS:
                break
    if len(_FIRST_MEMBERS) >= 64:
        _FIRST_MEMBERS.clear()
    _FIRST_MEMBERS[id(pset)] = (pset, members)
    return members


def _members_of_predsets(v: Var, body: Term, env: Env) -> list[Any]:
    """The first members of each set ``S`` (a ``PredSet`` of ℕ in ``env``) that ``body``
    tests ``v ∈ S`` against: where ``x ∈ S ↔ P x`` and ``x ∈ S ↔ P' x`` differ, if anywhere
    near (``14 n % 100 = 46`` holds first at 39, which the small probe values miss)."""
    if v.sort != NAT:
        return []
    out: list[Any] = []
    for s in subterms(body):
        if isinstance(s, App) and s.op == "mem" and s.args[0] == v and isinstance(s.args[1], Var):
            pset = env.get(s.args[1].name)
            if isinstance(pset, PredSet):
                out.extend(first_members(pset, count_step))
    return out


def _folded(t: Term) -> Term:
    """``t`` with its closed numeral arithmetic folded, as the normal form a recurrence's
    definition was read from folds it (``(3 / 5) * a n`` is ``3/5 * a n``)."""
    from provers.semantics.folding import fold_numerals  # folding evaluates: imported when asked

    return fold_numerals(t)


def _meets_definitions(t: Quant, env: Env) -> bool:
    """∀ȳ. [g →] f ȳ = e holds everywhere when ``env`` gives ``f`` the closure λȳ. e of that
    very definition (every term denotes in Lean and Isabelle, so e = e for every ȳ): with
    the closures unfolded the body reads ``g → e = e`` or ``e = e``. Only closures whose
    captured values agree with ``env`` and whose free names the binder does not capture."""
    for v in free_vars(t.body):
        f = env.get(v.name)
        if isinstance(f, PredSet) and f.definition is not None and f.definition == t:
            return True  # the set built from this very premise (its predicate closed)
        if isinstance(f, Sequence) and f.definition in (t, _folded(t)):
            others = {u.name for u in free_vars(t)} - {f.name}
            if all(n in env and n in f.env and f.env[n] == env[n] for n in others):
                return True  # the recurrence it was computed by
    funs = _closures(t, env)
    if not funs:
        return False
    # a closure λi. e[n := to_nat i] over ℤ applied at ↑n reads e again (to_nat (↑n) = n)
    body = map_term(unfold(t.body, funs), _natural_again)
    params = list(t.vars)
    while isinstance(body, Quant) and body.kind == "forall":  # `∀ x, ∀ y, y ≠ 0 → f x y = …`
        params += body.vars
        body = body.body
    if isinstance(body, App) and body.op == "implies":
        g, body = body.args
        if not any(isinstance(s, (Quant, SetBuilder, BigOp, Lam)) for s in subterms(body)):
            # under its guard (no binder in between), `if g then e else e'` is e
            body = map_term(body, lambda s: s.args[1] if isinstance(s, App) and s.op == "ite" and s.args[0] == g else None)
            if isinstance(body, App) and body.op == "eq" and body.args[0] != body.args[1]:
                # a piecewise closure: the branch its guard selects (`if x < 0 then … else if
                # 0 ≤ x ∧ x < 4 then 2 else …` is 2 wherever 0 ≤ x < 4)
                body = app("eq", *(_branch_under(a, g, tuple(params), env) for a in body.args))
    return isinstance(body, App) and body.op in ("eq", "iff") and len(body.args) == 2 and body.args[0] == body.args[1]


#: Most conditions of an ``if`` chain ``_branch_under`` decides.
MAX_GUARDED_BRANCHES = 8


def _branch_under(e: Term, g: Term, params: tuple[Var, ...], env: Env) -> Term:
    """``e``'s ``if c then a else b`` chain reduced where ``g`` holds: c is dropped as false
    when ∃ȳ. g ∧ c is exactly false, taken as true when ∃ȳ. g ∧ ¬c is."""
    for _ in range(MAX_GUARDED_BRANCHES):
        if not (isinstance(e, App) and e.op == "ite"):
            break
        c, a, b = e.args
        if c == g:
            e = a
            continue
        for branch, other in ((a, app("not", c)), (b, c)):
            r, exact, _ = truth_triple(Quant("exists", params, app("and", g, other)), env)
            if r is False and exact:
                e = branch
                break
        else:
            break
    return e


def _natural_again(t: Term) -> Term | None:
    """``to_nat (↑n)`` as ``n`` for a natural ``n``."""
    if isinstance(t, App) and t.op == "to_nat" and isinstance(t.args[0], App) and t.args[0].op == "cast" \
            and t.args[0].args[0].sort == NAT:
        return t.args[0].args[0]
    return None
