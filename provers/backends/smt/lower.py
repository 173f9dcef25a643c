"""The ONE description of Lean/Isabelle semantics for SMT: IR → core terms + true facts.

Why: z3 and cvc5 must agree with the exact evaluator on every operation, so the meaning of
each IR op is written down once, here, as a rewrite into the core (``provers.backends.smt.core``)
that both emitters (``provers.backends.smt.emit``) translate mechanically. Each operation's
rewrite is one entry of ``LOWERING`` (an ``OpTable``); membership in each set former is one
entry of ``MEMBERSHIP``, and each Complex-valued operation one entry of ``COMPLEX_PARTS``.

The lowering's fresh symbols have names starting with ``%``: ``%sqrt``, ``%exp``, ``%ln``
(log on x > 0), ``%ln_neg`` (Isabelle ln on x ≤ 0), ``%sin`` ..., ``%pi``, and ``%t<hash>``
for a whole subterm the solvers cannot model (a function of its free variables, so
congruence still holds).

Facts about fresh symbols are TRUE statements about the real functions (never more): they
can only rule out impossible interpretations, never make a false formula provable. A fact
whose free variables are bound by a quantifier is inserted at that quantifier (``fact → body``
under ∀, ``fact ∧ body`` under ∃, both equivalent under the intended meaning). When only
partial facts are given (``underspecified``), a solver model is just a candidate and the
exact evaluator must confirm it.

Complex numbers are pairs of reals (``z`` becomes ``z.re``, ``z.im``; division by 0 gives 0
componentwise, as in Mathlib). Lowering raises ``Unsupported(what)`` for what cannot be
encoded soundly (complex-valued functions, quantifiers over functions, existential ℚ).
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from provers.backends.smt.core import (
    F,
    T,
    Unsupported,
    c_abs,
    c_add,
    c_and,
    c_div,
    c_ediv,
    c_emod,
    c_eq,
    c_floor,
    c_iff,
    c_imp,
    c_ite,
    c_le,
    c_lt,
    c_mul,
    c_neg,
    c_not,
    c_num,
    c_or,
    c_power,
    c_sub,
    c_to_real,
    c_ufun,
    check_core,
    cint,
    core_app,
    core_sort,
    creal,
    inhabited,
    representable,
)
from provers.ir import (
    BOOL,
    COMPLEX,
    FALSE,
    INT,
    INTERVALS,
    NAT,
    RAT,
    REAL,
    TRUE,
    App,
    BigOp,
    FunSort,
    Lam,
    Num,
    OpaqueSort,
    OpTable,
    Quant,
    SetBuilder,
    SetSort,
    Sort,
    Term,
    Uninterpreted,
    Var,
    app,
    canonical,
    free_vars,
    map_term,
    substitute,
    subterms,
)
from provers.semantics import evaluate
from provers.semantics.exact import is_prime, rational_root

#: Literal exponents up to this are expanded into products.
MAX_EXPAND_POW = 256
#: Finite big operators / set literals up to this many elements are unrolled.
MAX_UNROLL = 200
#: Bounds n = k (k = first few values) for which a symbolic ∑/∏ gets its unrolled value.
SYMBOLIC_BIGOP_CASES = 5
#: Literal arguments of fact/choose/gcd/prime are evaluated up to this size.
MAX_LITERAL = 10**6


@dataclass
class Lowered:
    """A validity question for the solvers: ``facts → formula`` over ``consts`` (Skolem
    constants for the obligation's outer ∀ variables and free variables). ``formula`` and
    ``facts`` are core terms (checked on construction)."""

    formula: Term
    facts: list[Term]
    consts: list[Var]  # original IR variables (names and sorts) for the model
    body: Term  # the original obligation body under the stripped outer ∀ (for validation)
    underspecified: bool = False
    notes: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        for t in (self.formula, *self.facts):
            check_core(t)


_PI_LO, _PI_HI = Fraction(314159265, 10**8), Fraction(314159266, 10**8)
_SMALL_PRIMES = [p for p in range(2, 60) if is_prime(p)]

Handler = Callable[["Lowerer", App, int], Term]
_LISTS = "lists have no SMT sort: a term with one becomes an opaque symbol"
_SET_VALUE = ("a set is lowered through membership (x ∈ S, card, finite, ∑ over it), "
              "never as a value of its own")
_COMPLEX_VALUE = "Complex-valued: lowered as a pair of reals (COMPLEX_PARTS)"

#: The lowering's rewrite of each operation (``handler(lowerer, term, polarity)``).
LOWERING: OpTable[Handler] = OpTable("SMT lowering", unsupported={
    "digits": _LISTS, "list_sum": _LISTS, "list_length": _LISTS,
    **{op: _SET_VALUE for op in ("set_of", "range", *INTERVALS, "union", "inter", "setdiff",
                                 "image", "filter", "divisors")},
    "I": _COMPLEX_VALUE, "conj": _COMPLEX_VALUE,
})
#: Operations that take Complex arguments outside ``COMPLEX_PARTS``.
_ON_COMPLEX = frozenset({"eq", "ne", "re", "im", "cabs"})


class _Scope:
    def __init__(self, vars_: frozenset[Var], kind: str):
        self.vars = vars_
        self.kind = kind  # forall / exists / term (lambda, big operator, set-builder)
        self.facts: list[Term] = []


class Lowerer:
    """Rewrites one obligation; collects facts per scope. Use ``lower_obligation``."""

    def __init__(self) -> None:
        self.top_facts: list[Term] = []
        self.scopes: list[_Scope] = []
        self.underspecified = False
        self.seen_facts: set[Term] = set()
        self.monotone: dict[str, list[Term]] = {}  # strictly increasing symbol -> top-level args
        self.nat_valued: set[tuple[str, tuple[Sort, ...]]] = set()  # ℕ-valued user symbols

    # -- facts ------------------------------------------------------------------------

    def fact(self, f: Term, partial: bool = True) -> None:
        """Record a TRUE fact at the innermost scope binding one of its variables."""
        if partial:
            self.underspecified = True
        if f == T:
            return
        fv = free_vars(f)
        for sc in reversed(self.scopes):
            if fv & sc.vars:
                if sc.kind == "term":
                    return  # cannot state a fact inside a term binder: drop it (sound)
                if f not in sc.facts:
                    sc.facts.append(f)
                return
        if f not in self.seen_facts:
            self.seen_facts.add(f)
            self.top_facts.append(f)

    # -- entry ------------------------------------------------------------------------

    def lower(self, t: Term, pol: int = 1) -> Term:
        """Lower ``t``; an unsupported subterm of a representable sort becomes opaque."""
        try:
            return self.lower_strict(t, pol)
        except Unsupported as e:
            if t.sort == BOOL or t.sort in (NAT, INT, RAT, REAL) or isinstance(t.sort, OpaqueSort):
                if all(v.sort == COMPLEX or representable(v.sort) for v in free_vars(t)) and not isinstance(t, Var):
                    return self.opaque(t)
            raise e

    def opaque(self, t: Term) -> Term:
        """A subterm the solvers cannot model, as an uninterpreted function of its free
        variables (keyed by its alpha-canonical form, so equal subterms stay equal)."""
        fv = sorted(free_vars(t), key=lambda v: (v.name, str(v.sort)))
        key = repr(canonical(t, free_prefix="_v"))
        order: list[Var] = []
        for s in subterms(t):
            if isinstance(s, Var) and s in fv and s not in order:
                order.append(s)
        name = "%t" + hashlib.sha1(key.encode()).hexdigest()[:16]
        args = [p for v in order for p in (complex_parts(v) if v.sort == COMPLEX else (self.lower_strict(v, 0),))]
        self.underspecified = True
        out = c_ufun(name, core_sort(t.sort), *args)
        if t.sort == NAT:
            self.fact(c_le(cint(0), out))
        return out

    def lower_strict(self, t: Term, pol: int) -> Term:
        if isinstance(t, Var):
            return Var(t.name, core_sort(t.sort))
        if isinstance(t, Num):
            if t.sort == COMPLEX:
                raise Unsupported("complex value outside an equation")
            return Num(t.value, core_sort(t.sort))
        if isinstance(t, Quant):
            return self.quantifier(t, pol)
        if isinstance(t, Uninterpreted):
            return self.uninterpreted(t)
        if isinstance(t, BigOp):
            return self.big_operator(t)
        if isinstance(t, (Lam, SetBuilder)):
            raise Unsupported(f"{type(t).__name__} outside an application")
        if isinstance(t, App):
            return self.operation(t, pol)
        raise Unsupported(f"term {type(t).__name__}")

    def operation(self, t: App, pol: int) -> Term:
        if t.op not in _ON_COMPLEX and (t.sort == COMPLEX or any(a.sort == COMPLEX for a in t.args)):
            raise Unsupported(f"complex numbers in {t.op}")
        handler = LOWERING.get(t.op)
        if handler is None:
            raise Unsupported(f"operation {t.op}")
        return handler(self, t, pol)

    def uninterpreted(self, t: Uninterpreted) -> Term:
        if any(not representable(a.sort) for a in t.args):
            raise Unsupported(f"uninterpreted {t.symbol} on unsupported sorts")
        args = [self.lower(a, 0) for a in t.args]
        out = c_ufun(t.symbol, core_sort(t.sort), *args)
        if t.sort == NAT:
            self.fact(c_le(cint(0), out), partial=False)
            self.nat_valued.add((t.symbol, tuple(a.sort for a in t.args)))
        return out

    # -- binders ----------------------------------------------------------------------

    def binder_vars(self, v: Var) -> list[Var]:
        if isinstance(v.sort, SetSort) or isinstance(v.sort, FunSort) and not _unary_scalar_fun(v.sort):
            raise Unsupported(f"quantifier over {v.sort}")
        if v.sort == COMPLEX:
            return list(complex_parts(v))
        return [Var(v.name, core_sort(v.sort))]

    def quantifier(self, t: Quant, pol: int) -> Term:
        if t.kind == "exists1":
            v = t.vars[0]
            w = Var(_fresh(v.name, t), v.sort)
            unique = Quant("forall", (w,), app("implies", substitute(t.body, {v: w}), app("eq", w, v)))
            return self.lower_strict(Quant("exists", (v,), app("and", t.body, unique)), pol)
        if any(_mentions_rat(v.sort) for v in t.vars) and not ((t.kind == "forall" and pol == 1) or (t.kind == "exists" and pol == -1)):
            raise Unsupported("quantifier over ℚ in a position where ℝ would not be sound")
        cvars = tuple(cv for v in t.vars for cv in self.binder_vars(v))
        scope = _Scope(frozenset(cvars), t.kind)
        self.scopes.append(scope)
        try:
            body = self.lower(t.body, pol)
        finally:
            self.scopes.pop()
        guards = [c_le(cint(0), Var(v.name, INT)) for v in t.vars if v.sort == NAT]
        guards += scope.facts
        # SMT sorts are never empty, Lean's may be (`Fin 0`, a type variable): over an empty
        # sort ∀ is true and ∃ false, whatever the body
        nonempty = c_and(*(inhabited(v.sort) for v in t.vars))
        if t.kind == "forall":
            return c_or(c_not(nonempty), Quant("forall", cvars, c_imp(c_and(*guards), body)))
        return c_and(nonempty, Quant("exists", cvars, c_and(*guards, body)))

    # -- complex numbers as pairs of reals --------------------------------------------

    def lower_c(self, t: Term) -> tuple[Term, Term]:
        """(re, im) of a Complex-sorted term, as core Real terms."""
        if isinstance(t, Var):
            return complex_parts(t)
        if isinstance(t, Num):
            return creal(t.value), creal(0)
        if isinstance(t, BigOp):
            return self.big_operator_c(t)
        if not isinstance(t, App):
            raise Unsupported(f"complex {type(t).__name__}")
        handler = COMPLEX_PARTS.get(t.op)
        if handler is None:
            raise Unsupported(f"complex operation {t.op}")
        return handler(self, t)

    def big_operator_c(self, t: BigOp) -> tuple[Term, Term]:
        elems = self.finite_elements(t.domain)
        if elems is None or t.kind != "sum" and len(elems) > 64:
            raise Unsupported("complex big operator without literal bounds")
        acc = (creal(0), creal(0)) if t.kind == "sum" else (creal(1), creal(0))
        for e in elems:
            term = self.lower_c(substitute(t.body, {t.var: e}))
            acc = (c_add(acc[0], term[0]), c_add(acc[1], term[1])) if t.kind == "sum" else _cmul(acc, term)
        return acc

    # -- equality, sets, functions ----------------------------------------------------

    def equality(self, a: Term, b: Term, pol: int) -> Term:
        s = a.sort
        if isinstance(s, FunSort):
            xs = tuple(Var(_fresh(f"a{i}", a, b), srt) for i, srt in enumerate(s.args))
            return self.lower_strict(Quant("forall", xs, app("eq", app("apply", a, *xs), app("apply", b, *xs))), pol)
        if isinstance(s, SetSort):
            x = Var(_fresh("x", a, b), s.elem)
            return self.lower_strict(Quant("forall", (x,), app("iff", app("mem", x, a), app("mem", x, b))), pol)
        return c_eq(self.lower(a, 0), self.lower(b, 0))

    def application(self, f: Term, args: tuple[Term, ...], pol: int) -> Term:
        if isinstance(f, Lam):
            return self.lower(substitute(f.body, dict(zip(f.vars, args, strict=True))), pol)
        if isinstance(f, Var):
            cargs = [self.lower(a, 0) for a in args]
            out = core_app("apply", core_sort(f.sort.result), Var(f.name, core_sort(f.sort)), *cargs)  # type: ignore[attr-defined]
            if f.sort.result == NAT:  # type: ignore[attr-defined]
                self.fact(c_le(cint(0), out), partial=False)
            return out
        raise Unsupported("application of a function-valued expression")

    def membership(self, x: Term, s: Term, pol: int) -> Term:
        cx = self.lower(x, 0)
        if isinstance(s, Var):
            return core_app("mem", BOOL, cx, Var(s.name, core_sort(s.sort)))
        if isinstance(s, SetBuilder):
            return self.lower(substitute(s.body, {s.var: x}), pol)
        if not isinstance(s, App):
            raise Unsupported(f"membership in {type(s).__name__}")
        handler = MEMBERSHIP.get(s.op)
        if handler is None:
            raise Unsupported(f"membership in {s.op}")
        return handler(self, x, cx, s, pol)

    def finite_elements(self, s: Term) -> list[Term] | None:
        """Element terms of a finite set with literal bounds, or None."""
        if isinstance(s, App):
            if s.op == "set_of" and len(s.args) <= MAX_UNROLL:
                if all(isinstance(e, Num) for e in s.args):
                    return [Num(v, s.sort.elem) for v in sorted({e.value for e in s.args})]  # type: ignore[attr-defined, union-attr]
                return None
            if s.op == "range" and isinstance(s.args[0], Num) and s.args[0].value <= MAX_UNROLL:
                return [Num(i, NAT) for i in range(int(s.args[0].value))]
            if s.op in INTERVALS and s.args[0].sort in (NAT, INT) and all(isinstance(e, Num) for e in s.args):
                lo, hi = int(s.args[0].value), int(s.args[1].value)  # type: ignore[attr-defined]
                lo += s.op in ("Ioc", "Ioo")
                hi -= s.op in ("Ico", "Ioo")
                if hi - lo + 1 <= MAX_UNROLL:
                    return [Num(i, s.args[0].sort) for i in range(lo, hi + 1)]
        return None

    def cardinality(self, s: Term) -> Term:
        elems = self.finite_elements(s)
        if elems is not None:
            return cint(len(elems))
        if isinstance(s, App):
            if s.op == "range":
                return self.lower(s.args[0], 0)
            if s.op in INTERVALS and s.args[0].sort in (NAT, INT):
                lo, hi = self.lower(s.args[0], 0), self.lower(s.args[1], 0)
                n = c_add(c_sub(hi, lo), cint(1 - (s.op in ("Ico", "Ioc")) - 2 * (s.op == "Ioo")))
                return c_ite(c_le(cint(0), n), n, cint(0))
            if s.op == "filter":
                inner = self.finite_elements(s.args[1])
                if inner is not None:
                    out: Term = cint(0)
                    for e in inner:
                        out = c_add(out, c_ite(self.application(s.args[0], (e,), 0), cint(1), cint(0)))
                    return out
        raise Unsupported("card of a set without literal bounds")

    def big_operator(self, t: BigOp) -> Term:
        sort = core_sort(t.sort)
        dom = t.domain
        cond = None
        if isinstance(dom, App) and dom.op == "filter":
            cond, dom = dom.args[0], dom.args[1]
        elems = self.finite_elements(dom)
        if elems is None:
            return self.symbolic_big_operator(t, dom, cond)
        unit = c_num(0 if t.kind == "sum" else 1, sort)
        acc: Term = unit
        for e in elems:
            term = self.lower(substitute(t.body, {t.var: e}), 0)
            if cond is not None:
                term = c_ite(self.application(cond, (e,), 0), term, unit)
            acc = c_add(acc, term) if t.kind == "sum" else c_mul(acc, term)
        return acc

    def symbolic_big_operator(self, t: BigOp, dom: Term, cond: Term | None) -> Term:
        """∑/∏ over range n, Icc a n, Ico a n with symbolic n: an opaque function of the
        free variables plus its true values for the first few bounds (n = k → unrolled)."""
        if not (isinstance(dom, App) and (dom.op == "range" or dom.op in ("Icc", "Ico") and isinstance(dom.args[0], Num))):
            raise Unsupported("big operator with symbolic bounds")
        total = self.opaque(t)
        hi = dom.args[-1]
        lo = 0 if dom.op == "range" else int(dom.args[0].value)  # type: ignore[attr-defined]
        chi = self.lower(hi, 0)
        start = lo if dom.op in ("range", "Ico") else lo - 1  # bound giving the empty domain
        for k in range(start, start + SYMBOLIC_BIGOP_CASES):
            if hi.sort == NAT and k < 0:
                continue
            concrete = app(dom.op, *dom.args[:-1], Num(k, hi.sort))
            if cond is not None:
                concrete = app("filter", cond, concrete)
            unrolled = self.big_operator(BigOp(t.kind, t.var, concrete, t.body))
            self.fact(c_imp(c_eq(chi, c_num(k, core_sort(hi.sort))), c_eq(total, unrolled)))
        return total

    def dvd(self, a: Term, b: Term) -> Term:
        return c_ite(c_eq(a, cint(0)), c_eq(b, cint(0)), c_eq(c_emod(b, a), cint(0)))

    # -- transcendental symbols (all facts below are true theorems about ℝ) -------------

    def sqrt(self, x: Term) -> Term:
        if isinstance(x, Num):  # literal: exact when the root is rational
            v = Fraction(x.value)
            if v <= 0:
                return creal(0)
            r = rational_root(v, 2)
            if r is not None:
                return creal(r)
        s = c_ufun("%sqrt", REAL, x)
        self.fact(c_le(creal(0), s), partial=False)
        self.fact(c_imp(c_le(creal(0), x), c_eq(c_mul(s, s), x)), partial=False)
        self.fact(c_imp(c_lt(x, creal(0)), c_eq(s, creal(0))), partial=False)
        return s

    def signed_sqrt(self, x: Term) -> Term:
        return c_ite(c_le(creal(0), x), self.sqrt(x), c_neg(self.sqrt(c_neg(x))))

    def _note_monotone(self, name: str, x: Term) -> None:
        bound = frozenset().union(*(sc.vars for sc in self.scopes)) if self.scopes else frozenset()
        args = self.monotone.setdefault(name, [])
        if not (free_vars(x) & bound) and x not in args and len(args) < 12:
            args.append(x)

    def monotone_facts(self) -> list[Term]:
        """x < y → f x < f y for exp (on ℝ) and ln (on x > 0), over top-level arguments."""
        out = []
        for name, args in self.monotone.items():
            for a in args:
                for b in args:
                    if a is b:
                        continue
                    pre = c_lt(a, b) if name == "%exp" else c_and(c_lt(creal(0), a), c_lt(a, b))
                    out.append(c_imp(pre, c_lt(c_ufun(name, REAL, a), c_ufun(name, REAL, b))))
        return out

    def exp(self, x: Term) -> Term:
        self._note_monotone("%exp", x)
        e = c_ufun("%exp", REAL, x)
        self.fact(c_lt(creal(0), e))
        self.fact(c_le(c_add(x, creal(1)), e))
        self.fact(c_imp(c_eq(x, creal(0)), c_eq(e, creal(1))))
        self.fact(c_imp(c_lt(x, creal(0)), c_lt(e, creal(1))))
        self.fact(c_imp(c_lt(creal(0), x), c_lt(creal(1), e)))
        return e

    def ln_pos(self, x: Term) -> Term:
        """Natural log, meaningful for x > 0 (callers guard the other cases)."""
        self._note_monotone("%ln", x)
        lg = c_ufun("%ln", REAL, x)
        pos = c_lt(creal(0), x)
        self.fact(c_imp(c_eq(x, creal(1)), c_eq(lg, creal(0))))
        self.fact(c_imp(c_and(pos, c_lt(x, creal(1))), c_lt(lg, creal(0))))
        self.fact(c_imp(c_lt(creal(1), x), c_lt(creal(0), lg)))
        self.fact(c_imp(pos, c_le(lg, c_sub(x, creal(1)))))
        self.fact(c_imp(pos, c_eq(c_ufun("%exp", REAL, lg), x)))
        return lg

    def log(self, x: Term) -> Term:
        """Mathlib ``Real.log``: log |x|, log 0 = 0."""
        return c_ite(c_eq(x, creal(0)), creal(0), self.ln_pos(c_abs(x)))

    def isa_ln(self, x: Term) -> Term:
        return c_ite(c_lt(creal(0), x), self.ln_pos(x), c_ufun("%ln_neg", REAL, x))

    def pi(self) -> Term:
        p = c_ufun("%pi", REAL)
        self.fact(c_and(c_lt(creal(_PI_LO), p), c_lt(p, creal(_PI_HI))))
        return p

    def sin_cos(self, x: Term) -> tuple[Term, Term]:
        s, c = c_ufun("%sin", REAL, x), c_ufun("%cos", REAL, x)
        for v in (s, c):
            self.fact(c_and(c_le(creal(-1), v), c_le(v, creal(1))))
        self.fact(c_eq(c_add(c_mul(s, s), c_mul(c, c)), creal(1)))
        self.fact(c_imp(c_eq(x, creal(0)), c_and(c_eq(s, creal(0)), c_eq(c, creal(1)))))
        return s, c

    def arc_in_range(self, op: str, x: Term) -> Term:
        """``%arcsin`` / ``%arccos``: the inverse functions, specified on [-1, 1] (where Lean and
        Isabelle agree)."""
        zero, one = creal(0), creal(1)
        pi = self.pi()
        half = c_div(pi, creal(2))
        a = c_ufun("%" + op, REAL, x)
        inrange = c_and(c_le(creal(-1), x), c_le(x, one))
        if op == "arcsin":
            self.fact(c_imp(inrange, c_and(c_le(c_neg(half), a), c_le(a, half), c_eq(self.sin_cos(a)[0], x))))
            ends = ((creal(0), zero), (one, half), (creal(-1), c_neg(half)))
        else:
            self.fact(c_imp(inrange, c_and(c_le(zero, a), c_le(a, pi), c_eq(self.sin_cos(a)[1], x))))
            ends = ((one, zero), (creal(-1), pi), (creal(0), half))
        for at, value in ends:  # the values at 0 and ±1 (sin and cos facts alone miss them)
            self.fact(c_imp(c_eq(x, at), c_eq(a, value)))
        return a


# --------------------------------------------------------------------------------------
# The table: each operation's rewrite
# --------------------------------------------------------------------------------------


def _args(lw: Lowerer, t: App) -> list[Term]:
    """The arguments lowered at polarity 0 (they are values, not formulas)."""
    return [lw.lower(a, 0) for a in t.args]


# -- logic -----------------------------------------------------------------------------


@LOWERING.register("true")
def _true(lw: Lowerer, t: App, pol: int) -> Term:
    return T


@LOWERING.register("false")
def _false(lw: Lowerer, t: App, pol: int) -> Term:
    return F


@LOWERING.register("not")
def _not(lw: Lowerer, t: App, pol: int) -> Term:
    return c_not(lw.lower(t.args[0], -pol))


@LOWERING.register("and")
def _and(lw: Lowerer, t: App, pol: int) -> Term:
    return c_and(*(lw.lower(a, pol) for a in t.args))


@LOWERING.register("or")
def _or(lw: Lowerer, t: App, pol: int) -> Term:
    return c_or(*(lw.lower(a, pol) for a in t.args))


@LOWERING.register("implies")
def _implies(lw: Lowerer, t: App, pol: int) -> Term:
    return c_imp(lw.lower(t.args[0], -pol), lw.lower(t.args[1], pol))


@LOWERING.register("iff")
def _iff(lw: Lowerer, t: App, pol: int) -> Term:
    return c_iff(lw.lower(t.args[0], 0), lw.lower(t.args[1], 0))


@LOWERING.register("ite")
def _ite(lw: Lowerer, t: App, pol: int) -> Term:
    c = lw.lower(t.args[0], 0)
    return c_ite(c, lw.lower(t.args[1], pol), lw.lower(t.args[2], pol))


# -- relations -------------------------------------------------------------------------


@LOWERING.register("eq", "ne")
def _equality(lw: Lowerer, t: App, pol: int) -> Term:
    a, b = t.args
    if a.sort == COMPLEX:
        (ar, ai), (br, bi) = lw.lower_c(a), lw.lower_c(b)
        r = c_and(c_eq(ar, br), c_eq(ai, bi))
    else:
        r = lw.equality(a, b, pol if t.op == "eq" else -pol)
    return r if t.op == "eq" else c_not(r)


@LOWERING.register("lt", "le", "gt", "ge")
def _order(lw: Lowerer, t: App, pol: int) -> Term:
    a, b = _args(lw, t)
    if t.op in ("gt", "ge"):
        a, b = b, a
    return c_lt(a, b) if t.op in ("lt", "gt") else c_le(a, b)


# -- sets and functions ----------------------------------------------------------------


@LOWERING.register("mem")
def _membership(lw: Lowerer, t: App, pol: int) -> Term:
    return lw.membership(t.args[0], t.args[1], pol)


@LOWERING.register("subset")
def _subset(lw: Lowerer, t: App, pol: int) -> Term:
    a, b = t.args
    x = Var(_fresh("x", t), a.sort.elem)  # type: ignore[attr-defined]
    return lw.lower_strict(Quant("forall", (x,), app("implies", app("mem", x, a), app("mem", x, b))), pol)


@LOWERING.register("card")
def _cardinality(lw: Lowerer, t: App, pol: int) -> Term:
    return lw.cardinality(t.args[0])


@LOWERING.register("finite")
def _finite(lw: Lowerer, t: App, pol: int) -> Term:
    if _finite_shape(t.args[0]):
        return T
    raise Unsupported("finiteness of a set")


@LOWERING.register("apply")
def _application(lw: Lowerer, t: App, pol: int) -> Term:
    return lw.application(t.args[0], t.args[1:], pol)


# -- arithmetic ------------------------------------------------------------------------


@LOWERING.register("add", "mul", "neg")
def _ring(lw: Lowerer, t: App, pol: int) -> Term:
    return core_app(t.op, core_sort(t.sort), *_args(lw, t))


@LOWERING.register("sub")
def _sub(lw: Lowerer, t: App, pol: int) -> Term:
    a, b = _args(lw, t)
    if t.sort == NAT:
        return c_ite(c_le(b, a), c_sub(a, b), cint(0))
    return c_sub(a, b)


@LOWERING.register("div")
def _div(lw: Lowerer, t: App, pol: int) -> Term:
    a, b = _args(lw, t)
    return c_ediv(a, b) if t.sort == NAT else c_div(a, b)


@LOWERING.register("inv")
def _inv(lw: Lowerer, t: App, pol: int) -> Term:
    return c_div(creal(1), lw.lower(t.args[0], 0))


@LOWERING.register("mod", "emod")
def _euclidean_mod(lw: Lowerer, t: App, pol: int) -> Term:
    return c_emod(*_args(lw, t))


@LOWERING.register("ediv")
def _euclidean_div(lw: Lowerer, t: App, pol: int) -> Term:
    return c_ediv(*_args(lw, t))


@LOWERING.register("fdiv", "fmod")
def _floor_division(lw: Lowerer, t: App, pol: int) -> Term:
    a, b = _args(lw, t)
    q = c_ite(c_le(cint(0), b), c_ediv(a, b), c_ediv(c_neg(a), c_neg(b)))
    return q if t.op == "fdiv" else c_sub(a, c_mul(b, q))


@LOWERING.register("abs")
def _abs(lw: Lowerer, t: App, pol: int) -> Term:
    return c_abs(lw.lower(t.args[0], 0))


@LOWERING.register("min", "max")
def _min_max(lw: Lowerer, t: App, pol: int) -> Term:
    a, b = _args(lw, t)
    return c_ite(c_le(a, b), a, b) if t.op == "min" else c_ite(c_le(a, b), b, a)


@LOWERING.register("sign")
def _sign(lw: Lowerer, t: App, pol: int) -> Term:
    x = lw.lower(t.args[0], 0)
    s = core_sort(t.sort)
    zero = c_num(0, s)
    return c_ite(c_lt(zero, x), c_num(1, s), c_ite(c_lt(x, zero), c_num(-1, s), zero))


@LOWERING.register("cast")
def _cast(lw: Lowerer, t: App, pol: int) -> Term:
    x = lw.lower(t.args[0], 0)
    if core_sort(t.args[0].sort) == INT and core_sort(t.sort) == REAL:
        return c_to_real(x)
    return x


# -- powers ----------------------------------------------------------------------------


@LOWERING.register("pow", "zpow")
def _pow(lw: Lowerer, t: App, pol: int) -> Term:
    """A literal exponent expands into products; a symbolic one is a fresh symbol with the
    power's values at 0..3, its sign, and (``pow``) its recursion."""
    base, e = t.args
    csort = core_sort(t.sort)
    b = lw.lower(base, 0)
    zero, one = c_num(0, csort), c_num(1, csort)
    if isinstance(e, Num):
        n = int(e.value)
        if abs(n) <= MAX_EXPAND_POW:
            p = c_power(b, abs(n), csort)
            return p if n >= 0 else core_app("div", csort, one, p)
    n_ = lw.lower(e, 0)
    name = f"%{t.op}_{csort}"
    p = c_ufun(name, csort, b, n_)
    lw.fact(c_imp(c_eq(n_, cint(0)), c_eq(p, one)))
    for k in (1, 2, 3):
        lw.fact(c_imp(c_eq(n_, cint(k)), c_eq(p, c_power(b, k, csort))))
    lw.fact(c_imp(c_lt(zero, b), c_lt(zero, p)))
    if t.op == "pow":
        lw.fact(c_imp(c_le(zero, b), c_le(zero, p)))
        lw.fact(c_imp(c_eq(b, one), c_eq(p, one)))
        lw.fact(c_imp(c_and(c_eq(b, zero), c_le(cint(1), n_)), c_eq(p, zero)))
        lw.fact(c_imp(c_le(cint(1), n_), c_eq(p, c_mul(b, c_ufun(name, csort, b, c_sub(n_, cint(1)))))))
        lw.fact(c_imp(c_and(c_le(one, b), c_le(cint(1), n_)), c_le(b, p)))
    return p


@LOWERING.register("rpow", "powr")
def _real_power(lw: Lowerer, t: App, pol: int) -> Term:
    """Mathlib ``rpow`` / Isabelle ``powr``: an integer literal exponent expands into
    products; otherwise a fresh symbol with the values at x = 0, x = 1, y = 0, y = 1, its sign,
    and for a literal p/q the equation r^q = x^p on x > 0."""
    base, e = t.args
    x = lw.lower(base, 0)
    zero, one = creal(0), creal(1)
    if isinstance(e, Num):
        y = Fraction(e.value)
        if y.denominator == 1 and abs(y) <= MAX_EXPAND_POW:
            k = int(y)
            zp = c_power(x, abs(k), REAL)
            zp = zp if k >= 0 else c_div(one, zp)
            if t.op == "rpow":
                return zp  # Real.rpow_intCast holds for every x
            return c_ite(c_eq(x, zero), zero, c_ite(c_lt(zero, x), zp, c_ufun("%powr_neg", REAL, x, creal(y))))
    yv = lw.lower(e, 0)
    r = c_ufun("%" + t.op, REAL, x, yv)
    if t.op == "rpow":
        lw.fact(c_imp(c_eq(x, zero), c_eq(r, c_ite(c_eq(yv, zero), one, zero))), partial=False)
    else:
        lw.fact(c_imp(c_eq(x, zero), c_eq(r, zero)), partial=False)
        lw.fact(c_imp(c_and(c_not(c_eq(x, zero)), c_eq(yv, zero)), c_eq(r, one)))
    lw.fact(c_imp(c_lt(zero, x), c_lt(zero, r)))
    lw.fact(c_imp(c_and(c_lt(zero, x), c_eq(yv, zero)), c_eq(r, one)))
    lw.fact(c_imp(c_and(c_lt(zero, x), c_eq(yv, one)), c_eq(r, x)))
    lw.fact(c_imp(c_eq(x, one), c_eq(r, one)))
    if isinstance(e, Num):
        y = Fraction(e.value)
        p, q = y.numerator, y.denominator
        if abs(p) <= 16 and q <= 16:
            lhs = c_power(r, q, REAL)
            rhs = c_power(x, abs(p), REAL)
            lw.fact(c_imp(c_lt(zero, x), c_eq(lhs, rhs) if p > 0 else c_eq(c_mul(lhs, rhs), one)))
            if t.op == "rpow" and q == 2:  # x < 0: |x|^y · cos(pπ/2) with p odd = 0
                lw.fact(c_imp(c_lt(x, zero), c_eq(r, zero)), partial=False)
    return r


# -- rounding and integer conversions --------------------------------------------------

#: (x, ⌊x⌋, ⌈x⌉) -> the rounding operation's value
_ROUNDING: dict[str, Callable[[Term, Term, Term], Term]] = {
    "floor": lambda x, fl, ce: fl,
    "ceil": lambda x, fl, ce: ce,
    "nat_floor": lambda x, fl, ce: c_ite(c_le(cint(0), fl), fl, cint(0)),
    "nat_ceil": lambda x, fl, ce: c_ite(c_le(cint(0), ce), ce, cint(0)),
    "round": lambda x, fl, ce: c_floor(c_add(x, creal(Fraction(1, 2)))),
    "frac": lambda x, fl, ce: c_sub(x, c_to_real(fl)),
}


@LOWERING.register(*_ROUNDING)
def _rounding(lw: Lowerer, t: App, pol: int) -> Term:
    x = lw.lower(t.args[0], 0)
    if core_sort(t.args[0].sort) == INT:
        fl, ce = x, x
    else:
        fl, ce = c_floor(x), c_neg(c_floor(c_neg(x)))
    return _ROUNDING[t.op](x, fl, ce)


@LOWERING.register("to_nat")
def _to_nat(lw: Lowerer, t: App, pol: int) -> Term:
    x = lw.lower(t.args[0], 0)
    return c_ite(c_le(cint(0), x), x, cint(0))


@LOWERING.register("nat_abs")
def _nat_abs(lw: Lowerer, t: App, pol: int) -> Term:
    return c_abs(lw.lower(t.args[0], 0))


# -- number theory ---------------------------------------------------------------------


def _folding_literals(handler: Handler) -> Handler:
    """``handler``, except that on literal arguments the evaluator's exact value is used."""

    def lowered(lw: Lowerer, t: App, pol: int) -> Term:
        if all(isinstance(a, Num) and abs(a.value) <= MAX_LITERAL for a in t.args):
            v = evaluate(t, {})
            if isinstance(v, bool):
                return T if v else F
            if isinstance(v, int):
                return Num(v, core_sort(t.sort))
        return handler(lw, t, pol)

    return lowered


@LOWERING.register("dvd")
@_folding_literals
def _dvd(lw: Lowerer, t: App, pol: int) -> Term:
    return lw.dvd(*_args(lw, t))


@LOWERING.register("even", "odd")
@_folding_literals
def _parity(lw: Lowerer, t: App, pol: int) -> Term:
    return c_eq(c_emod(lw.lower(t.args[0], 0), cint(2)), cint(0 if t.op == "even" else 1))


@LOWERING.register("prime")
@_folding_literals
def _prime(lw: Lowerer, t: App, pol: int) -> Term:
    x = lw.lower(t.args[0], 0)
    q = x if t.args[0].sort == NAT else c_abs(x)
    p = c_ufun("%prime", BOOL, q)
    lw.fact(c_imp(p, c_le(cint(2), q)))
    lw.fact(c_imp(c_and(p, c_not(c_eq(q, cint(2)))), c_eq(c_emod(q, cint(2)), cint(1))))
    lw.fact(c_imp(c_and(c_le(cint(0), q), c_le(q, cint(_SMALL_PRIMES[-1] + 1))),
                  c_eq(p, c_or(*(c_eq(q, cint(pp)) for pp in _SMALL_PRIMES)))))
    return p


def _factorial_facts(lw: Lowerer, f: Term, n: Term) -> None:
    one = cint(1)
    lw.fact(c_le(one, f))
    lw.fact(c_le(n, f))
    for k in range(0, 6):
        lw.fact(c_imp(c_eq(n, cint(k)), c_eq(f, cint(math.factorial(k)))))
    lw.fact(c_imp(c_le(one, n), c_eq(f, c_mul(n, c_ufun("%fact", INT, c_sub(n, one))))))


def _choose_facts(lw: Lowerer, f: Term, n: Term, k: Term) -> None:
    zero, one = cint(0), cint(1)
    lw.fact(c_le(zero, f))
    lw.fact(c_imp(c_lt(n, k), c_eq(f, zero)))
    lw.fact(c_imp(c_eq(k, zero), c_eq(f, one)))
    lw.fact(c_imp(c_eq(k, n), c_eq(f, one)))
    lw.fact(c_imp(c_eq(k, one), c_eq(f, n)))
    lw.fact(c_imp(c_le(k, n), c_le(one, f)))


def _gcd_facts(lw: Lowerer, f: Term, a: Term, b: Term) -> None:
    zero = cint(0)
    lw.fact(c_le(zero, f))
    lw.fact(lw.dvd(f, a))
    lw.fact(lw.dvd(f, b))
    lw.fact(c_eq(c_eq(f, zero), c_and(c_eq(a, zero), c_eq(b, zero))))
    lw.fact(c_imp(c_not(c_eq(a, zero)), c_le(f, c_abs(a))))


def _lcm_facts(lw: Lowerer, f: Term, a: Term, b: Term) -> None:
    zero = cint(0)
    lw.fact(c_le(zero, f))
    lw.fact(lw.dvd(a, f))
    lw.fact(lw.dvd(b, f))
    lw.fact(c_eq(c_eq(f, zero), c_or(c_eq(a, zero), c_eq(b, zero))))


_INTEGER_FACTS: dict[str, Callable[..., None]] = {
    "fact": _factorial_facts, "choose": _choose_facts, "gcd": _gcd_facts, "lcm": _lcm_facts,
}


@LOWERING.register(*_INTEGER_FACTS)
@_folding_literals
def _integer_function(lw: Lowerer, t: App, pol: int) -> Term:
    """A fresh symbol (``%fact``, ``%gcd_int`` ...) with the true facts that pin it down."""
    xs = _args(lw, t)
    f = c_ufun("%" + t.op + ("" if t.sort == NAT else "_int"), INT, *xs)
    _INTEGER_FACTS[t.op](lw, f, *xs)
    return f


# -- real analysis ---------------------------------------------------------------------


@LOWERING.register("sqrt")
def _sqrt(lw: Lowerer, t: App, pol: int) -> Term:
    return lw.sqrt(lw.lower(t.args[0], 0))


@LOWERING.register("signed_sqrt")
def _signed_sqrt(lw: Lowerer, t: App, pol: int) -> Term:
    return lw.signed_sqrt(lw.lower(t.args[0], 0))


@LOWERING.register("root")
def _root(lw: Lowerer, t: App, pol: int) -> Term:
    """Isabelle ``root n x``: literal n up to 16 is a fresh symbol r with r^n = x (odd
    extension below 0); symbolic n only gets root 0 x = 0 and the sign."""
    n, xt = t.args
    x = lw.lower(xt, 0)
    if isinstance(n, Num):
        k = int(n.value)
        if k == 0:
            return creal(0)
        if k == 1:
            return x
        if k == 2:
            return lw.signed_sqrt(x)
        if isinstance(x, Num):
            exact = rational_root(abs(Fraction(x.value)), k)
            if exact is not None:
                return creal(exact if x.value >= 0 else -exact)
        if k <= 16:
            r = c_ufun("%root", REAL, cint(k), x)
            lw.fact(c_imp(c_le(creal(0), x), c_and(c_le(creal(0), r), c_eq(c_power(r, k, REAL), x))), partial=False)
            lw.fact(c_imp(c_lt(x, creal(0)), c_and(c_le(r, creal(0)), c_eq(c_power(c_neg(r), k, REAL), c_neg(x)))), partial=False)
            return r
    nn = lw.lower(n, 0)
    r = c_ufun("%root", REAL, nn, x)
    lw.fact(c_imp(c_eq(nn, cint(0)), c_eq(r, creal(0))))
    lw.fact(c_imp(c_and(c_le(cint(1), nn), c_lt(creal(0), x)), c_lt(creal(0), r)))
    lw.fact(c_imp(c_and(c_le(cint(1), nn), c_lt(x, creal(0))), c_lt(r, creal(0))))
    return r


@LOWERING.register("exp")
def _exp(lw: Lowerer, t: App, pol: int) -> Term:
    return lw.exp(lw.lower(t.args[0], 0))


@LOWERING.register("log")
def _log(lw: Lowerer, t: App, pol: int) -> Term:
    return lw.log(lw.lower(t.args[0], 0))


@LOWERING.register("ln")
def _ln(lw: Lowerer, t: App, pol: int) -> Term:
    return lw.isa_ln(lw.lower(t.args[0], 0))


@LOWERING.register("logb")
def _logb(lw: Lowerer, t: App, pol: int) -> Term:
    b, x = _args(lw, t)
    return c_div(lw.log(x), lw.log(b))


@LOWERING.register("isa_log")
def _isa_log(lw: Lowerer, t: App, pol: int) -> Term:
    b, x = _args(lw, t)
    return c_div(lw.isa_ln(x), lw.isa_ln(b))


@LOWERING.register("pi")
def _pi(lw: Lowerer, t: App, pol: int) -> Term:
    return lw.pi()


@LOWERING.register("sinh", "cosh", "tanh")
def _hyperbolic(lw: Lowerer, t: App, pol: int) -> Term:
    x = lw.lower(t.args[0], 0)
    ep, em = lw.exp(x), lw.exp(c_neg(x))
    sh, ch = c_div(c_sub(ep, em), creal(2)), c_div(c_add(ep, em), creal(2))
    return sh if t.op == "sinh" else ch if t.op == "cosh" else c_div(sh, ch)


@LOWERING.register("sin", "cos", "tan")
def _circular(lw: Lowerer, t: App, pol: int) -> Term:
    s, c = lw.sin_cos(lw.lower(t.args[0], 0))
    return s if t.op == "sin" else c if t.op == "cos" else c_div(s, c)


@LOWERING.register("arctan")
def _arctan(lw: Lowerer, t: App, pol: int) -> Term:
    x = lw.lower(t.args[0], 0)
    zero = creal(0)
    half = c_div(lw.pi(), creal(2))
    a = c_ufun("%arctan", REAL, x)
    lw.fact(c_and(c_lt(c_neg(half), a), c_lt(a, half)))
    lw.fact(c_eq(c_eq(x, zero), c_eq(a, zero)))
    lw.fact(c_eq(c_lt(zero, x), c_lt(zero, a)))
    return a


@LOWERING.register("arcsin", "arccos")
def _clamped_arc(lw: Lowerer, t: App, pol: int) -> Term:
    """Mathlib clamps: arcsin x = ±π/2 and arccos x = 0 / π outside [-1, 1]."""
    x = lw.lower(t.args[0], 0)
    pi = lw.pi()
    half = c_div(pi, creal(2))
    a = lw.arc_in_range(t.op, x)
    above, below = c_le(creal(1), x), c_le(x, creal(-1))
    if t.op == "arcsin":
        return c_ite(above, half, c_ite(below, c_neg(half), a))
    return c_ite(above, creal(0), c_ite(below, pi, a))


@LOWERING.register("isa_arcsin", "isa_arccos")
def _isabelle_arc(lw: Lowerer, t: App, pol: int) -> Term:
    """Isabelle's arcsin / arccos: the inverse functions on [-1, 1], a fixed unknown outside
    (``%arcsin_out``, read back from models as ``@arcsin``, like ``%ln_neg``)."""
    op = t.op.removeprefix("isa_")
    x = lw.lower(t.args[0], 0)
    inrange = c_and(c_le(creal(-1), x), c_le(x, creal(1)))
    return c_ite(inrange, lw.arc_in_range(op, x), c_ufun(f"%{op}_out", REAL, x))


# -- complex numbers -------------------------------------------------------------------


@LOWERING.register("re", "im", "cabs")
def _complex_projection(lw: Lowerer, t: App, pol: int) -> Term:
    zr, zi = lw.lower_c(t.args[0])
    if t.op == "re":
        return zr
    if t.op == "im":
        return zi
    return lw.sqrt(c_add(c_mul(zr, zr), c_mul(zi, zi)))


# --------------------------------------------------------------------------------------
# Membership in each set former: x ∈ S as a formula
# --------------------------------------------------------------------------------------

MemberHandler = Callable[[Lowerer, Term, Term, App, int], Term]
#: ``handler(lowerer, x, lowered x, the set term, polarity)`` for each set-valued operation.
MEMBERSHIP: dict[str, MemberHandler] = {}


def _member_of(*ops: str) -> Callable[[MemberHandler], MemberHandler]:
    def deco(fn: MemberHandler) -> MemberHandler:
        for op in ops:
            MEMBERSHIP[op] = fn
        return fn

    return deco


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
    return c_and(c_not(c_eq(n, cint(0))), c_le(cint(1), cx), c_le(cx, n), lw.dvd(cx, n))


@_member_of("image")
def _in_image(lw: Lowerer, x: Term, cx: Term, s: App, pol: int) -> Term:
    f, dom = s.args
    elems = lw.finite_elements(dom)
    if elems is not None:
        return c_or(*(c_eq(cx, lw.application(f, (e,), 0)) for e in elems))
    y = Var(_fresh("y", x, s), dom.sort.elem)  # type: ignore[attr-defined]
    return lw.lower_strict(Quant("exists", (y,), app("and", app("mem", y, dom), app("eq", app("apply", f, y), x))), pol)


# --------------------------------------------------------------------------------------
# Complex-valued operations: (re, im) pairs of core Real terms
# --------------------------------------------------------------------------------------

ComplexHandler = Callable[[Lowerer, App], tuple[Term, Term]]
#: ``handler(lowerer, term) -> (re, im)`` for each operation with a Complex value.
COMPLEX_PARTS: dict[str, ComplexHandler] = {}


def _complex(*ops: str) -> Callable[[ComplexHandler], ComplexHandler]:
    def deco(fn: ComplexHandler) -> ComplexHandler:
        for op in ops:
            COMPLEX_PARTS[op] = fn
        return fn

    return deco


@_complex("I")
def _c_unit(lw: Lowerer, t: App) -> tuple[Term, Term]:
    return creal(0), creal(1)


@_complex("cast")
def _c_cast(lw: Lowerer, t: App) -> tuple[Term, Term]:
    a = t.args[0]
    if a.sort == COMPLEX:
        return lw.lower_c(a)
    x = lw.lower(a, 0)
    return (c_to_real(x) if core_sort(a.sort) == INT else x), creal(0)


@_complex("ite")
def _c_ite(lw: Lowerer, t: App) -> tuple[Term, Term]:
    c = lw.lower(t.args[0], 0)
    (ar, ai), (br, bi) = lw.lower_c(t.args[1]), lw.lower_c(t.args[2])
    return c_ite(c, ar, br), c_ite(c, ai, bi)


@_complex("add", "sub")
def _c_additive(lw: Lowerer, t: App) -> tuple[Term, Term]:
    (ar, ai), (br, bi) = lw.lower_c(t.args[0]), lw.lower_c(t.args[1])
    f = c_add if t.op == "add" else c_sub
    return f(ar, br), f(ai, bi)


@_complex("neg")
def _c_neg(lw: Lowerer, t: App) -> tuple[Term, Term]:
    ar, ai = lw.lower_c(t.args[0])
    return c_neg(ar), c_neg(ai)


@_complex("conj")
def _c_conj(lw: Lowerer, t: App) -> tuple[Term, Term]:
    ar, ai = lw.lower_c(t.args[0])
    return ar, c_neg(ai)


@_complex("mul")
def _c_mul(lw: Lowerer, t: App) -> tuple[Term, Term]:
    return _cmul(lw.lower_c(t.args[0]), lw.lower_c(t.args[1]))


@_complex("inv")
def _c_inv(lw: Lowerer, t: App) -> tuple[Term, Term]:
    return _cinv(lw.lower_c(t.args[0]))


@_complex("div")
def _c_div(lw: Lowerer, t: App) -> tuple[Term, Term]:
    return _cmul(lw.lower_c(t.args[0]), _cinv(lw.lower_c(t.args[1])))


@_complex("apply")
def _c_apply(lw: Lowerer, t: App) -> tuple[Term, Term]:
    f, args = t.args[0], t.args[1:]
    if not (is_complex_fun(f.sort) and isinstance(f, Var)):
        raise Unsupported("complex operation apply")
    xs = [p for a in args for p in (lw.lower_c(a) if a.sort == COMPLEX else (lw.lower(a, 0),))]
    fr, fi = complex_fun_parts(f)
    return core_app("apply", REAL, fr, *xs), core_app("apply", REAL, fi, *xs)


@_complex("pow", "zpow")
def _c_power(lw: Lowerer, t: App) -> tuple[Term, Term]:
    base, e = t.args
    if not (isinstance(e, Num) and abs(int(e.value)) <= 64):
        raise Unsupported(f"complex operation {t.op}")
    k = int(e.value)
    p = _cpower(lw.lower_c(base), abs(k))
    return p if k >= 0 else _cinv(p)


def _cmul(a: tuple[Term, Term], b: tuple[Term, Term]) -> tuple[Term, Term]:
    (ar, ai), (br, bi) = a, b
    return c_sub(c_mul(ar, br), c_mul(ai, bi)), c_add(c_mul(ar, bi), c_mul(ai, br))


def _cinv(a: tuple[Term, Term]) -> tuple[Term, Term]:
    """1 / (x + iy) = (x - iy) / (x² + y²), and 0⁻¹ = 0 (the guarded division gives it)."""
    ar, ai = a
    d = c_add(c_mul(ar, ar), c_mul(ai, ai))
    return c_div(ar, d), c_div(c_neg(ai), d)


def _cpower(a: tuple[Term, Term], n: int) -> tuple[Term, Term]:
    if n == 0:
        return creal(1), creal(0)
    if n == 1:
        return a
    half = _cpower(a, n // 2)
    sq = _cmul(half, half)
    return _cmul(sq, a) if n % 2 else sq


def is_complex_fun(s: Sort) -> bool:
    """ℂ-valued functions of ℂ / scalar arguments: a pair of real functions of the real parts."""
    return (
        isinstance(s, FunSort) and s.result == COMPLEX
        and all(a == COMPLEX or a in (BOOL, NAT, INT, RAT, REAL) for a in s.args)
    )


def complex_fun_parts(f: Var) -> tuple[Var, Var]:
    """The real and imaginary part functions standing for a ℂ-valued function variable."""
    assert isinstance(f.sort, FunSort)
    args = tuple(p for a in f.sort.args for p in ((REAL, REAL) if a == COMPLEX else (core_sort(a),)))
    fs = FunSort(args, REAL)
    return Var(f.name + ".re", fs), Var(f.name + ".im", fs)


def complex_parts(v: Var) -> tuple[Var, Var]:
    """The two real variables standing for a Complex variable."""
    return Var(v.name + ".re", REAL), Var(v.name + ".im", REAL)


# --------------------------------------------------------------------------------------
# Sorts and shapes
# --------------------------------------------------------------------------------------


def _mentions_rat(s: Sort) -> bool:
    if s == RAT:
        return True
    if isinstance(s, FunSort):
        return any(_mentions_rat(a) for a in s.args) or _mentions_rat(s.result)
    if isinstance(s, SetSort):
        return _mentions_rat(s.elem)
    return False


def _unary_scalar_fun(s: Sort) -> bool:
    """Functions the emitters represent as arrays (one scalar argument, scalar result)."""
    def scalar(x: Sort) -> bool:
        return x in (BOOL, NAT, INT, RAT, REAL) or isinstance(x, OpaqueSort)

    return isinstance(s, FunSort) and len(s.args) == 1 and scalar(s.args[0]) and scalar(s.result)


def _finite_shape(s: Term) -> bool:
    """Sets finite by construction (a sound, incomplete test)."""
    if not isinstance(s, App):
        return False
    if s.op in ("set_of", "range", "divisors"):
        return True
    if s.op in INTERVALS:
        return s.args[0].sort in (NAT, INT)
    if s.op in ("filter", "image"):
        return _finite_shape(s.args[1])
    if s.op == "setdiff":
        return _finite_shape(s.args[0])
    if s.op == "inter":
        return _finite_shape(s.args[0]) or _finite_shape(s.args[1])
    if s.op == "union":
        return _finite_shape(s.args[0]) and _finite_shape(s.args[1])
    return False


def _fresh(base: str, *ts: Term) -> str:
    taken = set()
    for t in ts:
        taken |= {s.name for s in subterms(t) if isinstance(s, Var)}
    i = 0
    while f"{base}%{i}" in taken:
        i += 1
    return f"{base}%{i}"


# --------------------------------------------------------------------------------------
# Obligations
# --------------------------------------------------------------------------------------

#: Operations folded to a numeral when all their arguments are numerals (exact results only).
_FOLDABLE = frozenset({
    "add", "sub", "mul", "neg", "div", "mod", "ediv", "emod", "fdiv", "fmod", "inv", "pow", "zpow",
    "abs", "min", "max", "sign", "cast", "floor", "ceil", "nat_floor", "nat_ceil", "round", "to_nat",
    "nat_abs", "frac", "fact", "choose", "gcd", "lcm", "dvd", "prime", "even", "odd", "sqrt",
    "signed_sqrt", "root", "eq", "ne", "lt", "le", "gt", "ge", "list_sum", "list_length", "rpow", "powr",
    "log", "logb", "exp", "card",
})
#: Ground set arguments a foldable operation may have (``card (range 5)``, ``list_sum (digits 10 n)``).
_GROUND_SETS = frozenset({"digits", "range", *INTERVALS, "set_of", "divisors", "filter"})
_MAX_FOLD_BITS = 4096


def fold_ground(t: Term) -> Term:
    """Replace ground subterms whose exact value the evaluator knows by numerals.

    Sound because the evaluator is exact (approximate or undecided values are left alone);
    it spares the solvers e.g. gcd (20!) 200000 or the digits of 2^100.
    """

    def fn(s: Term) -> Term | None:
        if not isinstance(s, App) or s.op not in _FOLDABLE:
            return None
        if not all(isinstance(a, Num) or (isinstance(a, App) and a.op in _GROUND_SETS and not free_vars(a)) for a in s.args):
            return None
        if s.sort == COMPLEX or any(a.sort == COMPLEX for a in s.args):
            return None
        v = evaluate(s, {})
        if isinstance(v, bool):
            return TRUE if v else FALSE
        if isinstance(v, (int, Fraction)) and not isinstance(v, bool):
            if Fraction(v).numerator.bit_length() > _MAX_FOLD_BITS or Fraction(v).denominator.bit_length() > _MAX_FOLD_BITS:
                return None
            if s.sort == NAT and v < 0 or s.sort in (NAT, INT) and Fraction(v).denominator != 1:
                return None
            return Num(v, s.sort)
        return None

    return map_term(t, fn)


def _nat_range_axioms(consts: list[Var], symbols: set[tuple[str, tuple[Sort, ...]]]) -> list[Term]:
    """∀ args ∈ ℕ, f args ≥ 0 for ℕ-valued function variables and user symbols: true, and
    stated once globally (a per-application fact under a ∀ only guards that ∀)."""
    out: list[Term] = []
    sigs: list[tuple[Term | None, str, tuple[Sort, ...]]] = []
    for v in consts:
        if isinstance(v.sort, FunSort) and v.sort.result == NAT and all(representable(a) for a in v.sort.args):
            sigs.append((Var(v.name, core_sort(v.sort)), v.name, v.sort.args))
    for name, args in sorted(symbols, key=lambda k: (k[0], str(k[1]))):
        if args:
            sigs.append((None, name, args))
    for fvar, name, args in sigs:
        if any(isinstance(a, (FunSort, SetSort)) or a == COMPLEX for a in args):
            continue
        xs = tuple(Var(f"%a{i}", core_sort(a)) for i, a in enumerate(args))
        app_ = core_app("apply", INT, fvar, *xs) if fvar is not None else c_ufun(name, INT, *xs)
        guard = c_and(*(c_le(cint(0), x) for x, a in zip(xs, args, strict=True) if a == NAT))
        out.append(Quant("forall", xs, c_imp(guard, c_le(cint(0), app_))))
    return out


def lower_obligation(obligation: Term, fold: bool = True) -> Lowered:
    """Lower a closed formula (free variables count as universally quantified).

    ``fold`` first replaces exactly-known ground subterms by numerals (``fold_ground``);
    tests of the encodings themselves turn it off.
    """
    if obligation.sort != BOOL:
        raise Unsupported(f"obligation of sort {obligation.sort}, not a formula")
    consts: list[Var] = []
    body = obligation
    while isinstance(body, Quant) and body.kind == "forall":
        consts.extend(body.vars)
        body = body.body
    if len({v.name for v in consts}) != len(consts):
        raise Unsupported("outer ∀ rebinds a variable name")
    for v in sorted(free_vars(body) - set(consts), key=lambda v: v.name):
        consts.append(v)
    lw = Lowerer()
    original_body = body
    if fold:
        body = fold_ground(body)
    facts: list[Term] = []
    for v in consts:
        if v.sort != COMPLEX and not is_complex_fun(v.sort) and not representable(v.sort):
            raise Unsupported(f"variable {v.name} of sort {v.sort}")
        if v.sort == NAT:
            facts.append(c_le(cint(0), Var(v.name, INT)))
        # an outer ∀ over an empty sort is vacuous: proving it for inhabited ones suffices
        if inhabited(v.sort) != T and inhabited(v.sort) not in facts:
            facts.append(inhabited(v.sort))
    formula = lw.lower(body, 1)
    facts.extend(lw.top_facts)
    facts.extend(lw.monotone_facts())
    facts.extend(_nat_range_axioms(consts, lw.nat_valued))
    return Lowered(formula, facts, consts, original_body, lw.underspecified)
