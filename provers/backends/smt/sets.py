"""Sets in the lowering: membership in each set former as a formula (``MEMBERSHIP``), finite
sets with literal bounds unrolled, their cardinality, and big operators over them.

Why through membership: the core has set variables only; a set former is never a value of
its own, it is what ``x ∈ S`` means (``x ∈ Icc a b`` is ``a ≤ x ∧ x ≤ b``).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING

from provers.backends.smt.core import (
    Unsupported,
    c_add,
    c_and,
    c_dvd,
    c_eq,
    c_imp,
    c_ite,
    c_le,
    c_lt,
    c_mul,
    c_not,
    c_num,
    c_or,
    c_sub,
    cint,
    core_sort,
    fresh_name,
)
from provers.ir import (
    COMPLEX,
    INT,
    INTERVALS,
    NAT,
    SET_FORMERS,
    App,
    BigOp,
    Num,
    OpTable,
    Quant,
    SetBuilder,
    Term,
    Uninterpreted,
    Var,
    app,
    conjuncts,
    free_vars,
    substitute,
    subterms,
)
from provers.semantics import Undetermined, evaluate
from provers.semantics.closed_forms import closed_form_with_facts
from provers.semantics.domains import MAX_DOMAIN, bound_domain

if TYPE_CHECKING:
    from provers.backends.smt.lower import Lowerer

#: Finite big operators / set literals up to this many elements are unrolled.
MAX_UNROLL = 200
#: A ∑/∏ over a range or an integer interval with numeral bounds is unrolled up to this many
#: terms (one addend each; above it the value is opaque, and a model that meets the statement
#: through it is spurious: `∑ i ∈ {490..751}, f i = 516` had a free total).
MAX_UNROLL_BIG_OPERATOR = 300
#: Bounds n = k (k = first few values) for which a symbolic ∑/∏ gets its unrolled value.
SYMBOLIC_BIGOP_CASES = 5

MemberHandler = Callable[["Lowerer", Term, Term, App, int], Term]

#: ``handler(lowerer, x, lowered x, the set term, polarity)`` for each set former.
MEMBERSHIP: OpTable[MemberHandler] = OpTable("SMT lowering (membership)", universe=SET_FORMERS)
_member_of = MEMBERSHIP.register


@_member_of("set_of")
def _in_literal(lw: Lowerer, x: Term, cx: Term, s: App, pol: int) -> Term:
    return c_or(*(c_eq(cx, lw.lower(e, 0)) for e in s.args))


@_member_of("range")
def _in_range(lw: Lowerer, x: Term, cx: Term, s: App, pol: int) -> Term:
    return c_and(c_le(cint(0), cx), c_lt(cx, lw.lower(s.args[0], 0)))


@_member_of(*INTERVALS)
def _in_interval(lw: Lowerer, x: Term, cx: Term, s: App, pol: int) -> Term:
    lo, hi = lw.lower(s.args[0], 0), lw.lower(s.args[1], 0)
    return c_and(
        c_le(lo, cx) if s.op in ("Icc", "Ico") else c_lt(lo, cx),
        c_le(cx, hi) if s.op in ("Icc", "Ioc") else c_lt(cx, hi),
    )


@_member_of("union", "inter", "setdiff")
def _in_combination(lw: Lowerer, x: Term, cx: Term, s: App, pol: int) -> Term:
    m1, m2 = lw.membership(x, s.args[0], pol), lw.membership(x, s.args[1], pol if s.op != "setdiff" else -pol)
    return c_or(m1, m2) if s.op == "union" else c_and(m1, m2) if s.op == "inter" else c_and(m1, c_not(m2))


@_member_of("filter")
def _in_filter(lw: Lowerer, x: Term, cx: Term, s: App, pol: int) -> Term:
    return c_and(lw.membership(x, s.args[1], pol), lw.application(s.args[0], (x,), pol))


@_member_of("divisors")
def _in_divisors(lw: Lowerer, x: Term, cx: Term, s: App, pol: int) -> Term:
    n = lw.lower(s.args[0], 0)
    return c_and(c_not(c_eq(n, cint(0))), c_le(cint(1), cx), c_le(cx, n), c_dvd(cx, n))


@_member_of("image")
def _in_image(lw: Lowerer, x: Term, cx: Term, s: App, pol: int) -> Term:
    f, dom = s.args
    elems = finite_elements(dom)
    if elems is not None:
        return c_or(*(c_eq(cx, lw.application(f, (e,), 0)) for e in elems))
    y = Var(fresh_name("y", x, s), dom.sort.elem)  # type: ignore[attr-defined]
    return lw.lower_strict(Quant("exists", (y,), app("and", app("mem", y, dom), app("eq", app("apply", f, y), x))), pol)


def finite_elements(s: Term, limit: int = MAX_UNROLL) -> list[Term] | None:
    """Element terms of a finite set with literal bounds (ranges and intervals of at most
    ``limit`` elements), or None."""
    if isinstance(s, App):
        if s.op == "set_of" and len(s.args) <= MAX_UNROLL:
            if all(isinstance(e, Num) for e in s.args):
                return [Num(v, s.sort.elem) for v in sorted({e.value for e in s.args})]  # type: ignore[attr-defined, union-attr]
            return None
        if s.op == "range" and isinstance(s.args[0], Num) and s.args[0].value <= limit:
            return [Num(i, NAT) for i in range(int(s.args[0].value))]
        if s.op in INTERVALS and s.args[0].sort in (NAT, INT) and all(isinstance(e, Num) for e in s.args):
            lo, hi = int(s.args[0].value), int(s.args[1].value)  # type: ignore[attr-defined]
            lo += s.op in ("Ioc", "Ioo")
            hi -= s.op in ("Ico", "Ioo")
            if hi - lo + 1 <= limit:
                return [Num(i, s.args[0].sort) for i in range(lo, hi + 1)]
    return None


def cardinality(lw: Lowerer, s: Term) -> Term:
    elems = finite_elements(s)
    if elems is not None:
        return cint(len(elems))
    if isinstance(s, SetBuilder):
        return _builder_cardinality(lw, s)
    if isinstance(s, App):
        if s.op == "set_of" and len(s.args) <= MAX_UNROLL:
            return _distinct_count(lw, s.args)
        if s.op == "range":
            return lw.lower(s.args[0], 0)
        if s.op in INTERVALS and s.args[0].sort in (NAT, INT):
            lo, hi = lw.lower(s.args[0], 0), lw.lower(s.args[1], 0)
            n = c_add(c_sub(hi, lo), cint(1 - (s.op in ("Ico", "Ioc")) - 2 * (s.op == "Ioo")))
            return c_ite(c_le(cint(0), n), n, cint(0))
        if s.op == "filter":
            inner = finite_elements(s.args[1])
            if inner is not None:
                out: Term = cint(0)
                for e in inner:
                    out = c_add(out, c_ite(lw.application(s.args[0], (e,), 0), cint(1), cint(0)))
                return out
    raise Unsupported("card of a set without literal bounds")


def _distinct_count(lw: Lowerer, elems: tuple[Term, ...]) -> Term:
    """card {a, b, c}: how many of the elements differ from every element before them (the
    solvers saw an opaque count before, unrelated to a, b and c)."""
    out: Term = cint(0)
    for i, e in enumerate(elems):
        new = c_and(*(c_not(lw.lower(app("eq", e, d), 0)) for d in elems[:i]))
        out = c_add(out, c_ite(new, cint(1), cint(0)))
    return out


def _builder_cardinality(lw: Lowerer, s: SetBuilder) -> Term:
    """card {x | P x} over ℕ/ℤ with numeral bounds among P's conjuncts: a closed set is
    counted exactly by the evaluator (up to its domain cap, else the reason), one with free
    variables is unrolled into Σ (if P e then 1 else 0) over at most ``MAX_UNROLL`` values."""
    if s.var.sort not in (NAT, INT) and free_vars(s):
        raise Unsupported(f"card of a set-builder over {s.var.sort}")
    if not free_vars(s):  # over ℝ: 0 when the evaluator sees an infinite interval
        n = evaluate(app("card", s), {})
        if isinstance(n, Undetermined):
            raise Unsupported(f"card of a set-builder not enumerated ({n.reason}; the evaluator "
                              f"enumerates at most {MAX_DOMAIN} candidates between numeral bounds)")
        return cint(int(n))
    dom = bound_domain(s.var, conjuncts(s.body), frozenset(), _ground_value)
    if dom is None:
        raise Unsupported("card of a set-builder without numeral bounds")
    values = sorted(dom)
    if len(values) > MAX_UNROLL:
        raise Unsupported(f"card of a set-builder over {len(values)} candidates (cap {MAX_UNROLL})")
    out: Term = cint(0)
    for v in values:
        member = lw.lower(substitute(s.body, {s.var: Num(v, s.var.sort)}), 0)
        out = c_add(out, c_ite(member, cint(1), cint(0)))
    return out


def _ground_value(e: Term) -> object:
    """The exact value of a closed term, or None (what ``bound_domain`` reads bounds with)."""
    if free_vars(e):
        return None
    v = evaluate(e, {})
    return None if isinstance(v, Undetermined) else v


def big_operator(lw: Lowerer, t: BigOp) -> Term:
    sort = core_sort(t.sort)
    dom = t.domain
    cond = None
    if isinstance(dom, App) and dom.op == "filter":
        cond, dom = dom.args[0], dom.args[1]
    if t.sort != COMPLEX and not any(isinstance(s, Uninterpreted) for s in subterms(t)):
        value = _ground_value(t)  # closed: its exact value, not a 1000-term unrolling
        if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
            return c_num(value, sort)
    elems = finite_elements(dom, MAX_UNROLL_BIG_OPERATOR)
    if elems is None:
        closed = closed_form_with_facts(t) if cond is None else None
        if closed is not None:
            value, facts = closed
            for f in facts:
                lw.fact(lw.lower(f, 0))
            return lw.lower(value, 0)
        return symbolic_big_operator(lw, t, dom, cond)
    unit = c_num(0 if t.kind == "sum" else 1, sort)
    terms: list[Term] = []
    for e in elems:
        term = lw.lower(substitute(t.body, {t.var: e}), 0)
        if cond is not None:
            term = c_ite(lw.application(cond, (e,), 0), term, unit)
        terms.append(term)
    return _balanced(c_add if t.kind == "sum" else c_mul, terms, unit)


def _balanced(combine: Callable[[Term, Term], Term], terms: list[Term], unit: Term) -> Term:
    """``unit ∘ t₁ ∘ … ∘ tₙ`` as a balanced tree: a chain of hundreds of addends nests as deep
    as the emitters' recursion limit."""
    if not terms:
        return unit
    while len(terms) > 1:
        paired = [combine(a, b) for a, b in zip(terms[::2], terms[1::2], strict=False)]
        terms = paired + terms[len(paired) * 2:]
    return combine(unit, terms[0])


def symbolic_big_operator(lw: Lowerer, t: BigOp, dom: Term, cond: Term | None) -> Term:
    """∑/∏ over range n, Icc a n, Ico a n with symbolic n: an opaque function of the
    free variables plus its true values for the first few bounds (n = k → unrolled)."""
    if not (isinstance(dom, App) and (dom.op == "range" or dom.op in ("Icc", "Ico") and isinstance(dom.args[0], Num))):
        raise Unsupported("big operator with symbolic bounds")
    if not finite_shape(dom):
        # `∑ i ∈ {1..3}` with i real is over an infinite interval, not three terms (and
        # unrolling its "first values" recursed without end)
        raise Unsupported(f"big operator over an interval of {dom.args[0].sort}")
    total = lw.opaque(t)
    hi = dom.args[-1]
    lo = 0 if dom.op == "range" else int(dom.args[0].value)  # type: ignore[attr-defined]
    chi = lw.lower(hi, 0)
    start = lo if dom.op in ("range", "Ico") else lo - 1  # bound giving the empty domain
    for k in range(start, start + SYMBOLIC_BIGOP_CASES):
        if hi.sort == NAT and k < 0:
            continue
        concrete = app(dom.op, *dom.args[:-1], Num(k, hi.sort))
        if cond is not None:
            concrete = app("filter", cond, concrete)
        unrolled = big_operator(lw, BigOp(t.kind, t.var, concrete, t.body))
        lw.fact(c_imp(c_eq(chi, c_num(k, core_sort(hi.sort))), c_eq(total, unrolled)))
    return total


def finite_shape(s: Term) -> bool:
    """Sets finite by construction (a sound, incomplete test)."""
    if not isinstance(s, App):
        return False
    if s.op in ("set_of", "range", "divisors"):
        return True
    if s.op in INTERVALS:
        return s.args[0].sort in (NAT, INT)
    if s.op in ("filter", "image"):
        return finite_shape(s.args[1])
    if s.op == "setdiff":
        return finite_shape(s.args[0])
    if s.op == "inter":
        return finite_shape(s.args[0]) or finite_shape(s.args[1])
    if s.op == "union":
        return finite_shape(s.args[0]) and finite_shape(s.args[1])
    return False
