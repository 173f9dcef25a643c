"""The ONE description of Lean/Isabelle semantics for SMT: IR → core IR + true facts.

Why: z3 and cvc5 must agree with the exact evaluator on every operation, so the meaning of
each IR op is written down once, here, as a rewrite into a small core that both emitters
(``provers.backends.smt.emit``) translate mechanically. The core is IR too (no second term language):

* sorts Bool, Int, Real, opaque sorts, ``FunSort`` of those (function variables) and
  ``SetSort`` of those (set variables, as arrays);
* ops ``true false not and or implies iff ite eq lt le add sub mul neg``, ``div`` on Real
  (x / 0 = 0), ``ediv``/``emod`` on Int (Euclidean, x / 0 = 0, x % 0 = x), ``cast`` Int → Real,
  ``floor`` Real → Int, ``apply`` of a function variable, ``mem`` in a set variable;
* ``Quant`` (forall/exists) over Bool/Int/Real/opaque variables;
* ``Uninterpreted`` symbols: the user's own, and the lowering's fresh symbols (names start
  with ``%``): ``%sqrt``, ``%exp``, ``%ln`` (log on x > 0), ``%ln_neg`` (Isabelle ln on x ≤ 0),
  ``%sin`` ..., ``%pi``, and ``%t<hash>`` for a whole subterm the solvers cannot model
  (a function of its free variables, so congruence still holds).

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
from dataclasses import dataclass, field
from fractions import Fraction

from provers.ir import (
    BOOL,
    COMPLEX,
    INT,
    NAT,
    RAT,
    REAL,
    App,
    BigOp,
    FunSort,
    Lam,
    Num,
    OpaqueSort,
    Quant,
    SetBuilder,
    SetSort,
    Sort,
    Term,
    Uninterpreted,
    Var,
    canonical,
    free_vars,
    provably_inhabited,
    substitute,
    subterms,
)

#: Literal exponents up to this are expanded into products.
MAX_EXPAND_POW = 256
#: Finite big operators / set literals up to this many elements are unrolled.
MAX_UNROLL = 200
#: Bounds n = k (k = first few values) for which a symbolic ∑/∏ gets its unrolled value.
SYMBOLIC_BIGOP_CASES = 5
#: Literal arguments of fact/choose/gcd/prime are evaluated up to this size.
MAX_LITERAL = 10**6


class Unsupported(Exception):
    """A construct the SMT encoding cannot represent soundly."""

    def __init__(self, what: str):
        super().__init__(what)
        self.what = what


@dataclass
class Lowered:
    """A validity question for the solvers: ``facts → formula`` over ``consts`` (Skolem
    constants for the obligation's outer ∀ variables and free variables)."""

    formula: Term
    facts: list[Term]
    consts: list[Var]  # original IR variables (names and sorts) for the model
    body: Term  # the original obligation body under the stripped outer ∀ (for validation)
    underspecified: bool = False
    notes: list[str] = field(default_factory=list)


# ---------------------------------------------------------------------------- core builders


def _c(op: str, sort: Sort, *args: Term) -> App:
    return App(op, tuple(args), sort)


def cint(v: int) -> Num:
    return Num(v, INT)


def creal(v: int | Fraction) -> Num:
    return Num(v, REAL)


T = _c("true", BOOL)
F = _c("false", BOOL)


def c_and(*xs: Term) -> Term:
    xs2 = [x for x in xs if x != T]
    if any(x == F for x in xs2):
        return F
    return T if not xs2 else xs2[0] if len(xs2) == 1 else _c("and", BOOL, *xs2)


def c_or(*xs: Term) -> Term:
    xs2 = [x for x in xs if x != F]
    if any(x == T for x in xs2):
        return T
    return F if not xs2 else xs2[0] if len(xs2) == 1 else _c("or", BOOL, *xs2)


def c_not(x: Term) -> Term:
    return F if x == T else T if x == F else _c("not", BOOL, x)


def c_imp(a: Term, b: Term) -> Term:
    return b if a == T else T if a == F or b == T else _c("implies", BOOL, a, b)


def c_eq(a: Term, b: Term) -> Term:
    return _c("iff" if a.sort == BOOL else "eq", BOOL, a, b)


def c_lt(a: Term, b: Term) -> Term:
    return _c("lt", BOOL, a, b)


def c_le(a: Term, b: Term) -> Term:
    return _c("le", BOOL, a, b)


def c_ite(c: Term, a: Term, b: Term) -> Term:
    if c == T:
        return a
    if c == F:
        return b
    return _c("ite", a.sort, c, a, b)


def c_add(a: Term, b: Term) -> Term:
    return _c("add", a.sort, a, b)


def c_sub(a: Term, b: Term) -> Term:
    return _c("sub", a.sort, a, b)


def c_mul(a: Term, b: Term) -> Term:
    return _c("mul", a.sort, a, b)


def c_neg(a: Term) -> Term:
    return Num(-a.value, a.sort) if isinstance(a, Num) else _c("neg", a.sort, a)


def c_num(v: int | Fraction, sort: Sort) -> Num:
    return Num(v, sort)


def c_abs(a: Term) -> Term:
    return c_ite(c_le(c_num(0, a.sort), a), a, c_neg(a))


def c_ufun(name: str, sort: Sort, *args: Term) -> Uninterpreted:
    return Uninterpreted(name, tuple(args), sort)


def core_sort(s: Sort) -> Sort:
    """Nat → Int, Rat → Real; functions/sets of those; Complex and lists are unsupported."""
    if s == NAT:
        return INT
    if s == RAT:
        return REAL
    if s in (BOOL, INT, REAL) or isinstance(s, OpaqueSort):
        return s
    if isinstance(s, FunSort):
        return FunSort(tuple(core_sort(a) for a in s.args), core_sort(s.result))
    if isinstance(s, SetSort):
        return SetSort(core_sort(s.elem))
    raise Unsupported(f"sort {s}")


def inhabited(s: Sort) -> Term:
    """A core formula true exactly when sort ``s`` has an element: ``true`` for the sorts that
    provably do (``ir.known_elements``), the Boolean constant ``%nonempty[S]`` for an opaque
    sort ``S`` that may be empty, and for a function sort "the codomain is inhabited or the
    domain is empty"."""
    if provably_inhabited(s):
        return T
    if isinstance(s, FunSort):
        return c_or(inhabited(s.result), c_not(c_and(*(inhabited(a) for a in s.args))))
    if isinstance(s, OpaqueSort):
        return c_ufun(f"%nonempty[{s.name}]", BOOL)
    return T


def _representable(s: Sort) -> bool:
    try:
        core_sort(s)
        return True
    except Unsupported:
        return False


_PI_LO, _PI_HI = Fraction(314159265, 10**8), Fraction(314159266, 10**8)
_SMALL_PRIMES = [p for p in range(2, 60) if all(p % d for d in range(2, int(p**0.5) + 1))]


# ---------------------------------------------------------------------------- lowering


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

    def ufun(self, name: str, sort: Sort, *args: Term) -> Uninterpreted:
        return c_ufun(name, sort, *args)

    # -- entry ------------------------------------------------------------------------

    def lower(self, t: Term, pol: int = 1) -> Term:
        """Lower ``t``; an unsupported subterm of a representable sort becomes opaque."""
        try:
            return self._lower(t, pol)
        except Unsupported as e:
            if t.sort == BOOL or t.sort in (NAT, INT, RAT, REAL) or isinstance(t.sort, OpaqueSort):
                if all(v.sort == COMPLEX or _representable(v.sort) for v in free_vars(t)) and not isinstance(t, Var):
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
        args = [p for v in order for p in (complex_parts(v) if v.sort == COMPLEX else (self._lower(v, 0),))]
        self.underspecified = True
        out = self.ufun(name, core_sort(t.sort), *args)
        if t.sort == NAT:
            self.fact(c_le(cint(0), out))
        return out

    # -- binders ----------------------------------------------------------------------

    def _binder_vars(self, v: Var) -> list[Var]:
        if isinstance(v.sort, SetSort) or isinstance(v.sort, FunSort) and not _unary_scalar_fun(v.sort):
            raise Unsupported(f"quantifier over {v.sort}")
        if v.sort == COMPLEX:
            return list(complex_parts(v))
        return [Var(v.name, core_sort(v.sort))]

    # -- complex numbers as pairs of reals --------------------------------------------

    def lower_c(self, t: Term) -> tuple[Term, Term]:
        """(re, im) of a Complex-sorted term, as core Real terms."""
        zero = creal(0)
        if isinstance(t, Var):
            return complex_parts(t)
        if isinstance(t, Num):
            return creal(t.value), zero
        if not isinstance(t, App):
            if isinstance(t, BigOp):
                return self._bigop_c(t)
            raise Unsupported(f"complex {type(t).__name__}")
        op, args = t.op, t.args
        if op == "I":
            return zero, creal(1)
        if op == "cast":
            a = args[0]
            if a.sort == COMPLEX:
                return self.lower_c(a)
            x = self.lower(a, 0)
            return (_c("cast", REAL, x) if core_sort(a.sort) == INT else x), zero
        if op == "ite":
            c = self.lower(args[0], 0)
            (ar, ai), (br, bi) = self.lower_c(args[1]), self.lower_c(args[2])
            return c_ite(c, ar, br), c_ite(c, ai, bi)
        if op in ("add", "sub"):
            (ar, ai), (br, bi) = self.lower_c(args[0]), self.lower_c(args[1])
            f = c_add if op == "add" else c_sub
            return f(ar, br), f(ai, bi)
        if op == "neg":
            ar, ai = self.lower_c(args[0])
            return c_neg(ar), c_neg(ai)
        if op == "conj":
            ar, ai = self.lower_c(args[0])
            return ar, c_neg(ai)
        if op == "mul":
            return _cmul(self.lower_c(args[0]), self.lower_c(args[1]))
        if op == "inv":
            return _cinv(self.lower_c(args[0]))
        if op == "div":
            return _cmul(self.lower_c(args[0]), _cinv(self.lower_c(args[1])))
        if op == "apply" and is_complex_fun(args[0].sort) and isinstance(args[0], Var):
            f = args[0]
            xs = [p for a in args[1:] for p in (self.lower_c(a) if a.sort == COMPLEX else (self.lower(a, 0),))]
            fr, fi = complex_fun_parts(f)
            return _c("apply", REAL, fr, *xs), _c("apply", REAL, fi, *xs)
        if op in ("pow", "zpow") and isinstance(args[1], Num) and abs(int(args[1].value)) <= 64:
            k = int(args[1].value)
            p = _cpower(self.lower_c(args[0]), abs(k))
            return p if k >= 0 else _cinv(p)
        raise Unsupported(f"complex operation {op}")

    def _bigop_c(self, t: BigOp) -> tuple[Term, Term]:
        elems = self._finite_elems(t.domain)
        if elems is None or t.kind != "sum" and len(elems) > 64:
            raise Unsupported("complex big operator without literal bounds")
        acc = (creal(0), creal(0)) if t.kind == "sum" else (creal(1), creal(0))
        for e in elems:
            term = self.lower_c(substitute(t.body, {t.var: e}))
            acc = (c_add(acc[0], term[0]), c_add(acc[1], term[1])) if t.kind == "sum" else _cmul(acc, term)
        return acc

    def _quant(self, t: Quant, pol: int) -> Term:
        if t.kind == "exists1":
            v = t.vars[0]
            w = Var(_fresh(v.name, t), v.sort)
            body2 = Quant("forall", (w,), App("implies", (substitute(t.body, {v: w}), App("eq", (w, v), BOOL)), BOOL))
            return self._lower(Quant("exists", (v,), App("and", (t.body, body2), BOOL)), pol)
        if any(_mentions_rat(v.sort) for v in t.vars) and not ((t.kind == "forall" and pol == 1) or (t.kind == "exists" and pol == -1)):
            raise Unsupported("quantifier over ℚ in a position where ℝ would not be sound")
        cvars = tuple(cv for v in t.vars for cv in self._binder_vars(v))
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

    # -- main dispatch ----------------------------------------------------------------

    def _lower(self, t: Term, pol: int) -> Term:
        if isinstance(t, Var):
            return Var(t.name, core_sort(t.sort))
        if isinstance(t, Num):
            if t.sort == COMPLEX:
                raise Unsupported("complex value outside an equation")
            return Num(t.value, core_sort(t.sort))
        if isinstance(t, Quant):
            return self._quant(t, pol)
        if isinstance(t, Uninterpreted):
            if any(not _representable(a.sort) for a in t.args):
                raise Unsupported(f"uninterpreted {t.symbol} on unsupported sorts")
            args = [self.lower(a, 0) for a in t.args]
            out = self.ufun(t.symbol, core_sort(t.sort), *args)
            if t.sort == NAT:
                self.fact(c_le(cint(0), out), partial=False)
                self.nat_valued.add((t.symbol, tuple(a.sort for a in t.args)))
            return out
        if isinstance(t, BigOp):
            return self._bigop(t)
        if isinstance(t, (Lam, SetBuilder)):
            raise Unsupported(f"{type(t).__name__} outside an application")
        if isinstance(t, App):
            return self._app(t, pol)
        raise Unsupported(f"term {type(t).__name__}")

    def _app(self, t: App, pol: int) -> Term:
        op, args, sort = t.op, t.args, t.sort
        if op in ("eq", "ne") and args[0].sort == COMPLEX:
            (ar, ai), (br, bi) = self.lower_c(args[0]), self.lower_c(args[1])
            r = c_and(c_eq(ar, br), c_eq(ai, bi))
            return r if op == "eq" else c_not(r)
        if op in ("re", "im", "cabs"):
            zr, zi = self.lower_c(args[0])
            if op == "re":
                return zr
            if op == "im":
                return zi
            return self.sqrt(c_add(c_mul(zr, zr), c_mul(zi, zi)))
        if sort == COMPLEX or any(a.sort == COMPLEX for a in args):
            raise Unsupported(f"complex numbers in {op}")
        if op == "true":
            return T
        if op == "false":
            return F
        if op == "not":
            return c_not(self.lower(args[0], -pol))
        if op in ("and", "or"):
            xs = [self.lower(a, pol) for a in args]
            return c_and(*xs) if op == "and" else c_or(*xs)
        if op == "implies":
            return c_imp(self.lower(args[0], -pol), self.lower(args[1], pol))
        if op == "iff":
            return _c("iff", BOOL, self.lower(args[0], 0), self.lower(args[1], 0))
        if op == "ite":
            c = self.lower(args[0], 0)
            return c_ite(c, self.lower(args[1], pol), self.lower(args[2], pol))
        if op in ("eq", "ne"):
            r = self._eq(args[0], args[1], pol if op == "eq" else -pol)
            return r if op == "eq" else c_not(r)
        if op == "mem":
            return self._mem(args[0], args[1], pol)
        if op == "subset":
            x = Var(_fresh("x", t), args[0].sort.elem)  # type: ignore[attr-defined]
            return self._lower(Quant("forall", (x,), App("implies", (App("mem", (x, args[0]), BOOL), App("mem", (x, args[1]), BOOL)), BOOL)), pol)
        if op == "card":
            return self._card(args[0], t)
        if op == "finite":
            if _finite_shape(args[0]):
                return T
            raise Unsupported("finiteness of a set")
        if op == "apply":
            return self._apply(args[0], args[1:], pol)
        if op in ("lt", "le", "gt", "ge"):
            a, b = self.lower(args[0], 0), self.lower(args[1], 0)
            if op in ("gt", "ge"):
                a, b = b, a
            return c_lt(a, b) if op in ("lt", "gt") else c_le(a, b)
        return self._term(t)

    # -- equality, sets, functions ----------------------------------------------------

    def _eq(self, a: Term, b: Term, pol: int) -> Term:
        s = a.sort
        if isinstance(s, FunSort):
            xs = tuple(Var(_fresh(f"a{i}", a, b), srt) for i, srt in enumerate(s.args))
            fa = App("apply", (a, *xs), s.result)
            fb = App("apply", (b, *xs), s.result)
            return self._lower(Quant("forall", xs, App("eq", (fa, fb), BOOL)), pol)
        if isinstance(s, SetSort):
            x = Var(_fresh("x", a, b), s.elem)
            return self._lower(Quant("forall", (x,), App("iff", (App("mem", (x, a), BOOL), App("mem", (x, b), BOOL)), BOOL)), pol)
        return c_eq(self.lower(a, 0), self.lower(b, 0))

    def _apply(self, f: Term, args: tuple[Term, ...], pol: int) -> Term:
        if isinstance(f, Lam):
            return self.lower(substitute(f.body, dict(zip(f.vars, args, strict=True))), pol)
        if isinstance(f, Var):
            cargs = [self.lower(a, 0) for a in args]
            out = _c("apply", core_sort(f.sort.result), Var(f.name, core_sort(f.sort)), *cargs)  # type: ignore[attr-defined]
            if f.sort.result == NAT:  # type: ignore[attr-defined]
                self.fact(c_le(cint(0), out), partial=False)
            return out
        raise Unsupported("application of a function-valued expression")

    def _mem(self, x: Term, s: Term, pol: int) -> Term:
        cx = self.lower(x, 0)
        if isinstance(s, Var):
            return _c("mem", BOOL, cx, Var(s.name, core_sort(s.sort)))
        if isinstance(s, SetBuilder):
            return self.lower(substitute(s.body, {s.var: x}), pol)
        if not isinstance(s, App):
            raise Unsupported(f"membership in {type(s).__name__}")
        op, a = s.op, s.args
        if op == "set_of":
            return c_or(*(c_eq(cx, self.lower(e, 0)) for e in a))
        if op == "range":
            return c_and(c_le(cint(0), cx), c_lt(cx, self.lower(a[0], 0)))
        if op in ("Icc", "Ico", "Ioc", "Ioo"):
            lo, hi = self.lower(a[0], 0), self.lower(a[1], 0)
            return c_and(
                c_le(lo, cx) if op in ("Icc", "Ico") else c_lt(lo, cx),
                c_le(cx, hi) if op in ("Icc", "Ioc") else c_lt(cx, hi),
            )
        if op in ("union", "inter", "setdiff"):
            m1, m2 = self._mem(x, a[0], pol), self._mem(x, a[1], pol if op != "setdiff" else -pol)
            return c_or(m1, m2) if op == "union" else c_and(m1, m2) if op == "inter" else c_and(m1, c_not(m2))
        if op == "filter":
            return c_and(self._mem(x, a[1], pol), self._apply(a[0], (x,), pol))
        if op == "divisors":
            n = self.lower(a[0], 0)
            return c_and(c_not(c_eq(n, cint(0))), c_le(cint(1), cx), c_le(cx, n), self._dvd(cx, n))
        if op == "image":
            elems = self._finite_elems(a[1])
            if elems is not None:
                return c_or(*(c_eq(cx, self._apply(a[0], (e,), 0)) for e in elems))
            y = Var(_fresh("y", x, s), a[1].sort.elem)  # type: ignore[attr-defined]
            return self._lower(Quant("exists", (y,), App("and", (App("mem", (y, a[1]), BOOL), App("eq", (App("apply", (a[0], y), x.sort), x), BOOL)), BOOL)), pol)
        raise Unsupported(f"membership in {op}")

    def _finite_elems(self, s: Term) -> list[Term] | None:
        """Element terms of a finite set with literal bounds, or None."""
        if isinstance(s, App):
            if s.op == "set_of" and len(s.args) <= MAX_UNROLL:
                if all(isinstance(e, Num) for e in s.args):
                    return [Num(v, s.sort.elem) for v in sorted({e.value for e in s.args})]  # type: ignore[attr-defined]
                return None
            if s.op == "range" and isinstance(s.args[0], Num) and s.args[0].value <= MAX_UNROLL:
                return [Num(i, NAT) for i in range(int(s.args[0].value))]
            if s.op in ("Icc", "Ico", "Ioc", "Ioo") and s.args[0].sort in (NAT, INT) and all(isinstance(e, Num) for e in s.args):
                lo, hi = int(s.args[0].value), int(s.args[1].value)  # type: ignore[attr-defined]
                lo += s.op in ("Ioc", "Ioo")
                hi -= s.op in ("Ico", "Ioo")
                if hi - lo + 1 <= MAX_UNROLL:
                    return [Num(i, s.args[0].sort) for i in range(lo, hi + 1)]
        return None

    def _card(self, s: Term, t: Term) -> Term:
        elems = self._finite_elems(s)
        if elems is not None:
            return cint(len(elems))
        if isinstance(s, App):
            if s.op == "range":
                return self.lower(s.args[0], 0)
            if s.op in ("Icc", "Ico", "Ioc", "Ioo") and s.args[0].sort in (NAT, INT):
                lo, hi = self.lower(s.args[0], 0), self.lower(s.args[1], 0)
                n = c_add(c_sub(hi, lo), cint(1 - (s.op in ("Ico", "Ioc")) - 2 * (s.op == "Ioo")))
                return c_ite(c_le(cint(0), n), n, cint(0))
            if s.op == "filter":
                inner = self._finite_elems(s.args[1])
                if inner is not None:
                    out: Term = cint(0)
                    for e in inner:
                        out = c_add(out, c_ite(self._apply(s.args[0], (e,), 0), cint(1), cint(0)))
                    return out
        raise Unsupported("card of a set without literal bounds")

    def _bigop(self, t: BigOp) -> Term:
        sort = core_sort(t.sort)
        dom = t.domain
        cond = None
        if isinstance(dom, App) and dom.op == "filter":
            cond, dom = dom.args[0], dom.args[1]
        elems = self._finite_elems(dom)
        if elems is None:
            return self._symbolic_bigop(t, dom, cond)
        unit = c_num(0 if t.kind == "sum" else 1, sort)
        acc: Term = unit
        for e in elems:
            term = self.lower(substitute(t.body, {t.var: e}), 0)
            if cond is not None:
                term = c_ite(self._apply(cond, (e,), 0), term, unit)
            acc = c_add(acc, term) if t.kind == "sum" else c_mul(acc, term)
        return acc

    def _symbolic_bigop(self, t: BigOp, dom: Term, cond: Term | None) -> Term:
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
            concrete = App(dom.op, (*dom.args[:-1], Num(k, hi.sort)), dom.sort)
            if cond is not None:
                concrete = App("filter", (cond, concrete), dom.sort)
            unrolled = self._bigop(BigOp(t.kind, t.var, concrete, t.body))
            self.fact(c_imp(c_eq(chi, c_num(k, core_sort(hi.sort))), c_eq(total, unrolled)))
        return total

    # -- numeric terms ----------------------------------------------------------------

    def _dvd(self, a: Term, b: Term) -> Term:
        return c_ite(c_eq(a, cint(0)), c_eq(b, cint(0)), c_eq(_c("emod", INT, b, a), cint(0)))

    def _term(self, t: App) -> Term:
        op, args, sort = t.op, t.args, t.sort
        csort = core_sort(sort)
        asort = args[0].sort if args else None
        if op in ("fact", "choose", "gcd", "lcm", "prime", "digits", "list_sum", "list_length", "even", "odd", "dvd") and all(
            isinstance(a, Num) and abs(a.value) <= MAX_LITERAL for a in args
        ) and op not in ("digits",):
            from provers.semantics.evaluate import evaluate

            v = evaluate(t, {})
            if isinstance(v, bool):
                return T if v else F
            if isinstance(v, int):
                return Num(v, csort)
        if op == "sign" or op in ("abs", "min", "max"):
            x = [self.lower(a, 0) for a in args]
            if op == "abs":
                return c_abs(x[0])
            if op == "min":
                return c_ite(c_le(x[0], x[1]), x[0], x[1])
            if op == "max":
                return c_ite(c_le(x[0], x[1]), x[1], x[0])
            zero = c_num(0, csort)
            return c_ite(c_lt(zero, x[0]), c_num(1, csort), c_ite(c_lt(x[0], zero), c_num(-1, csort), zero))
        if op in ("add", "mul", "neg"):
            x = [self.lower(a, 0) for a in args]
            return _c(op, csort, *x)
        if op == "sub":
            a, b = self.lower(args[0], 0), self.lower(args[1], 0)
            if sort == NAT:
                return c_ite(c_le(b, a), c_sub(a, b), cint(0))
            return c_sub(a, b)
        if op == "div":
            a, b = self.lower(args[0], 0), self.lower(args[1], 0)
            return _c("ediv" if sort == NAT else "div", csort, a, b)
        if op == "inv":
            return _c("div", csort, creal(1), self.lower(args[0], 0))
        if op in ("mod", "emod", "ediv"):
            a, b = self.lower(args[0], 0), self.lower(args[1], 0)
            return _c("ediv" if op == "ediv" else "emod", INT, a, b)
        if op in ("fdiv", "fmod"):
            a, b = self.lower(args[0], 0), self.lower(args[1], 0)
            q = c_ite(c_le(cint(0), b), _c("ediv", INT, a, b), _c("ediv", INT, c_neg(a), c_neg(b)))
            return q if op == "fdiv" else c_sub(a, c_mul(b, q))
        if op in ("pow", "zpow"):
            return self._pow(t)
        if op in ("rpow", "powr"):
            return self._rpow(t)
        if op == "cast":
            x = self.lower(args[0], 0)
            if sort == COMPLEX:
                raise Unsupported("complex numbers")
            if core_sort(asort) == INT and csort == REAL:  # type: ignore[arg-type]
                return _c("cast", REAL, x)
            return x
        if op in ("floor", "ceil", "nat_floor", "nat_ceil", "round", "frac"):
            x = self.lower(args[0], 0)
            if core_sort(asort) == INT:  # type: ignore[arg-type]
                fl, ce = x, x
            else:
                fl = _c("floor", INT, x)
                ce = c_neg(_c("floor", INT, c_neg(x)))
            if op == "floor":
                return fl
            if op == "ceil":
                return ce
            if op == "nat_floor":
                return c_ite(c_le(cint(0), fl), fl, cint(0))
            if op == "nat_ceil":
                return c_ite(c_le(cint(0), ce), ce, cint(0))
            if op == "round":
                return _c("floor", INT, c_add(x, creal(Fraction(1, 2))))
            return c_sub(x, _c("cast", REAL, fl))
        if op == "to_nat":
            x = self.lower(args[0], 0)
            return c_ite(c_le(cint(0), x), x, cint(0))
        if op == "nat_abs":
            return c_abs(self.lower(args[0], 0))
        if op == "dvd":
            return self._dvd(self.lower(args[0], 0), self.lower(args[1], 0))
        if op in ("even", "odd"):
            x = self.lower(args[0], 0)
            return c_eq(_c("emod", INT, x, cint(2)), cint(0 if op == "even" else 1))
        if op == "prime":
            x = self.lower(args[0], 0)
            q = x if asort == NAT else c_abs(x)
            p = self.ufun("%prime", BOOL, q)
            self.fact(c_imp(p, c_le(cint(2), q)))
            self.fact(c_imp(c_and(p, c_not(c_eq(q, cint(2)))), c_eq(_c("emod", INT, q, cint(2)), cint(1))))
            self.fact(c_imp(c_and(c_le(cint(0), q), c_le(q, cint(_SMALL_PRIMES[-1] + 1))),
                            c_eq(p, c_or(*(c_eq(q, cint(pp)) for pp in _SMALL_PRIMES)))))
            return p
        if op in ("fact", "choose", "gcd", "lcm"):
            return self._intfun(t)
        if op in ("sqrt", "signed_sqrt"):
            x = self.lower(args[0], 0)
            if op == "sqrt":
                return self.sqrt(x)
            return c_ite(c_le(creal(0), x), self.sqrt(x), c_neg(self.sqrt(c_neg(x))))
        if op == "root":
            return self._root(t)
        if op == "exp":
            return self.exp(self.lower(args[0], 0))
        if op == "log":
            x = self.lower(args[0], 0)
            return c_ite(c_eq(x, creal(0)), creal(0), self.ln_pos(c_abs(x)))
        if op == "ln":
            return self.isa_ln(self.lower(args[0], 0))
        if op == "logb":
            b, x = self.lower(args[0], 0), self.lower(args[1], 0)
            lg = lambda y: c_ite(c_eq(y, creal(0)), creal(0), self.ln_pos(c_abs(y)))  # noqa: E731
            return _c("div", REAL, lg(x), lg(b))
        if op == "isa_log":
            b, x = self.lower(args[0], 0), self.lower(args[1], 0)
            return _c("div", REAL, self.isa_ln(x), self.isa_ln(b))
        if op == "pi":
            return self.pi()
        if op in ("sin", "cos", "tan", "arctan", "arcsin", "arccos", "sinh", "cosh", "tanh"):
            return self._trig(op, self.lower(args[0], 0))
        if op in ("isa_arcsin", "isa_arccos"):
            return self.isa_arc(op[4:], self.lower(args[0], 0))
        raise Unsupported(f"operation {op}")

    def _pow(self, t: App) -> Term:
        base, e = t.args
        csort = core_sort(t.sort)
        b = self.lower(base, 0)
        if isinstance(e, Num):
            n = int(e.value)
            if abs(n) <= MAX_EXPAND_POW:
                p = _power(b, abs(n), csort)
                return p if n >= 0 else _c("div", csort, c_num(1, csort), p)
        n_ = self.lower(e, 0)
        name = f"%{t.op}_{csort}"
        p = self.ufun(name, csort, b, n_)
        self.fact(c_imp(c_eq(n_, cint(0)), c_eq(p, c_num(1, csort))))
        for k in (1, 2, 3):
            self.fact(c_imp(c_eq(n_, cint(k)), c_eq(p, _power(b, k, csort))))
        self.fact(c_imp(c_lt(c_num(0, csort), b), c_lt(c_num(0, csort), p)))
        if t.op == "pow":
            self.fact(c_imp(c_le(c_num(0, csort), b), c_le(c_num(0, csort), p)))
            self.fact(c_imp(c_eq(b, c_num(1, csort)), c_eq(p, c_num(1, csort))))
            self.fact(c_imp(c_and(c_eq(b, c_num(0, csort)), c_le(cint(1), n_)), c_eq(p, c_num(0, csort))))
            self.fact(c_imp(c_le(cint(1), n_), c_eq(p, c_mul(b, self.ufun(name, csort, b, c_sub(n_, cint(1)))))))
            self.fact(c_imp(c_and(c_le(c_num(1, csort), b), c_le(cint(1), n_)), c_le(b, p)))
        return p

    def _rpow(self, t: App) -> Term:
        base, e = t.args
        x = self.lower(base, 0)
        zero = creal(0)
        if isinstance(e, Num):
            y = Fraction(e.value)
            if y.denominator == 1 and abs(y) <= MAX_EXPAND_POW:
                k = int(y)
                zp = _power(x, abs(k), REAL)
                zp = zp if k >= 0 else _c("div", REAL, creal(1), zp)
                if t.op == "rpow":
                    return zp  # Real.rpow_intCast holds for every x
                return c_ite(c_eq(x, zero), zero, c_ite(c_lt(zero, x), zp, self.ufun("%powr_neg", REAL, x, creal(y))))
        yv = self.lower(e, 0)
        r = self.ufun("%" + t.op, REAL, x, yv)
        if t.op == "rpow":
            self.fact(c_imp(c_eq(x, zero), c_eq(r, c_ite(c_eq(yv, zero), creal(1), zero))), partial=False)
        else:
            self.fact(c_imp(c_eq(x, zero), c_eq(r, zero)), partial=False)
            self.fact(c_imp(c_and(c_not(c_eq(x, zero)), c_eq(yv, zero)), c_eq(r, creal(1))))
        self.fact(c_imp(c_lt(zero, x), c_lt(zero, r)))
        self.fact(c_imp(c_and(c_lt(zero, x), c_eq(yv, zero)), c_eq(r, creal(1))))
        self.fact(c_imp(c_and(c_lt(zero, x), c_eq(yv, creal(1))), c_eq(r, x)))
        self.fact(c_imp(c_eq(x, creal(1)), c_eq(r, creal(1))) if t.op == "rpow" else
                  c_imp(c_eq(x, creal(1)), c_eq(r, creal(1))))
        if isinstance(e, Num):
            y = Fraction(e.value)
            p, q = y.numerator, y.denominator
            if abs(p) <= 16 and q <= 16:
                lhs = _power(r, q, REAL)
                rhs = _power(x, abs(p), REAL)
                eqn = c_eq(lhs, rhs) if p > 0 else c_eq(c_mul(lhs, rhs), creal(1))
                self.fact(c_imp(c_lt(zero, x), eqn))
                if t.op == "rpow" and q == 2:  # x < 0: |x|^y · cos(pπ/2) with p odd = 0
                    self.fact(c_imp(c_lt(x, zero), c_eq(r, zero)), partial=False)
        return r

    def _root(self, t: App) -> Term:
        n, xt = t.args
        x = self.lower(xt, 0)
        if isinstance(n, Num):
            k = int(n.value)
            if k == 0:
                return creal(0)
            if k == 1:
                return x
            if k == 2:
                return c_ite(c_le(creal(0), x), self.sqrt(x), c_neg(self.sqrt(c_neg(x))))
            if isinstance(x, Num) and _exact_root(abs(Fraction(x.value)), k) is not None:
                r0 = _exact_root(abs(Fraction(x.value)), k)
                return creal(r0 if x.value >= 0 else -r0)
            if k <= 16:
                r = self.ufun("%root", REAL, cint(k), x)
                self.fact(c_imp(c_le(creal(0), x), c_and(c_le(creal(0), r), c_eq(_power(r, k, REAL), x))), partial=False)
                self.fact(c_imp(c_lt(x, creal(0)), c_and(c_le(r, creal(0)), c_eq(_power(c_neg(r), k, REAL), c_neg(x)))), partial=False)
                return r
        nn = self.lower(n, 0)
        r = self.ufun("%root", REAL, nn, x)
        self.fact(c_imp(c_eq(nn, cint(0)), c_eq(r, creal(0))))
        self.fact(c_imp(c_and(c_le(cint(1), nn), c_lt(creal(0), x)), c_lt(creal(0), r)))
        self.fact(c_imp(c_and(c_le(cint(1), nn), c_lt(x, creal(0))), c_lt(r, creal(0))))
        return r

    def _intfun(self, t: App) -> Term:
        op = t.op
        xs = [self.lower(a, 0) for a in t.args]
        f = self.ufun("%" + op + ("" if t.sort == NAT else "_int"), INT, *xs)
        zero, one = cint(0), cint(1)
        if op == "fact":
            n = xs[0]
            self.fact(c_le(one, f))
            self.fact(c_le(n, f))
            for k in range(0, 6):
                self.fact(c_imp(c_eq(n, cint(k)), c_eq(f, cint(math.factorial(k)))))
            self.fact(c_imp(c_le(one, n), c_eq(f, c_mul(n, self.ufun("%fact", INT, c_sub(n, one))))))
        elif op == "choose":
            n, k = xs
            self.fact(c_le(zero, f))
            self.fact(c_imp(c_lt(n, k), c_eq(f, zero)))
            self.fact(c_imp(c_eq(k, zero), c_eq(f, one)))
            self.fact(c_imp(c_eq(k, n), c_eq(f, one)))
            self.fact(c_imp(c_eq(k, one), c_eq(f, n)))
            self.fact(c_imp(c_le(k, n), c_le(one, f)))
        else:
            a, b = xs
            self.fact(c_le(zero, f))
            if op == "gcd":
                self.fact(self._dvd(f, a))
                self.fact(self._dvd(f, b))
                self.fact(c_eq(c_eq(f, zero), c_and(c_eq(a, zero), c_eq(b, zero))))
                self.fact(c_imp(c_not(c_eq(a, zero)), c_le(f, c_abs(a))))
            else:
                self.fact(self._dvd(a, f))
                self.fact(self._dvd(b, f))
                self.fact(c_eq(c_eq(f, zero), c_or(c_eq(a, zero), c_eq(b, zero))))
        return f

    # -- transcendental symbols (all facts below are true theorems about ℝ) -------------

    def sqrt(self, x: Term) -> Term:
        if isinstance(x, Num):  # literal: exact when the root is rational
            v = Fraction(x.value)
            if v <= 0:
                return creal(0)
            r = _exact_root(v, 2)
            if r is not None:
                return creal(r)
        s = self.ufun("%sqrt", REAL, x)
        self.fact(c_le(creal(0), s), partial=False)
        self.fact(c_imp(c_le(creal(0), x), c_eq(c_mul(s, s), x)), partial=False)
        self.fact(c_imp(c_lt(x, creal(0)), c_eq(s, creal(0))), partial=False)
        return s

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
                    out.append(c_imp(pre, c_lt(self.ufun(name, REAL, a), self.ufun(name, REAL, b))))
        return out

    def exp(self, x: Term) -> Term:
        self._note_monotone("%exp", x)
        e = self.ufun("%exp", REAL, x)
        self.fact(c_lt(creal(0), e))
        self.fact(c_le(c_add(x, creal(1)), e))
        self.fact(c_imp(c_eq(x, creal(0)), c_eq(e, creal(1))))
        self.fact(c_imp(c_lt(x, creal(0)), c_lt(e, creal(1))))
        self.fact(c_imp(c_lt(creal(0), x), c_lt(creal(1), e)))
        return e

    def ln_pos(self, x: Term) -> Term:
        """Natural log, meaningful for x > 0 (callers guard the other cases)."""
        self._note_monotone("%ln", x)
        lg = self.ufun("%ln", REAL, x)
        pos = c_lt(creal(0), x)
        self.fact(c_imp(c_eq(x, creal(1)), c_eq(lg, creal(0))))
        self.fact(c_imp(c_and(pos, c_lt(x, creal(1))), c_lt(lg, creal(0))))
        self.fact(c_imp(c_lt(creal(1), x), c_lt(creal(0), lg)))
        self.fact(c_imp(pos, c_le(lg, c_sub(x, creal(1)))))
        self.fact(c_imp(pos, c_eq(self.ufun("%exp", REAL, lg), x)))
        return lg

    def isa_ln(self, x: Term) -> Term:
        return c_ite(c_lt(creal(0), x), self.ln_pos(x), self.ufun("%ln_neg", REAL, x))

    def pi(self) -> Term:
        p = self.ufun("%pi", REAL)
        self.fact(c_and(c_lt(creal(_PI_LO), p), c_lt(p, creal(_PI_HI))))
        return p

    def _trig(self, op: str, x: Term) -> Term:
        zero, one = creal(0), creal(1)
        if op in ("sinh", "cosh", "tanh"):
            ep, em = self.exp(x), self.exp(c_neg(x))
            sh = _c("div", REAL, c_sub(ep, em), creal(2))
            ch = _c("div", REAL, c_add(ep, em), creal(2))
            return sh if op == "sinh" else ch if op == "cosh" else _c("div", REAL, sh, ch)
        if op in ("sin", "cos", "tan"):
            s, c = self.ufun("%sin", REAL, x), self.ufun("%cos", REAL, x)
            for v in (s, c):
                self.fact(c_and(c_le(creal(-1), v), c_le(v, one)))
            self.fact(c_eq(c_add(c_mul(s, s), c_mul(c, c)), one))
            self.fact(c_imp(c_eq(x, zero), c_and(c_eq(s, zero), c_eq(c, one))))
            return s if op == "sin" else c if op == "cos" else _c("div", REAL, s, c)
        pi = self.pi()
        half = _c("div", REAL, pi, creal(2))
        if op == "arctan":
            a = self.ufun("%arctan", REAL, x)
            self.fact(c_and(c_lt(c_neg(half), a), c_lt(a, half)))
            self.fact(c_eq(c_eq(x, zero), c_eq(a, zero)))
            self.fact(c_eq(c_lt(zero, x), c_lt(zero, a)))
            return a
        # Mathlib clamps: arcsin x = ±π/2 and arccos x = 0 / π outside [-1, 1]
        a = self.arc_in_range(op, x)
        if op == "arcsin":
            return c_ite(c_le(one, x), half, c_ite(c_le(x, creal(-1)), c_neg(half), a))
        return c_ite(c_le(one, x), zero, c_ite(c_le(x, creal(-1)), pi, a))

    def arc_in_range(self, op: str, x: Term) -> Term:
        """``%arcsin`` / ``%arccos``: the inverse functions, specified on [-1, 1] (where Lean and
        Isabelle agree)."""
        zero, one = creal(0), creal(1)
        pi = self.pi()
        half = _c("div", REAL, pi, creal(2))
        a = self.ufun("%" + op, REAL, x)
        inrange = c_and(c_le(creal(-1), x), c_le(x, one))
        if op == "arcsin":
            self.fact(c_imp(inrange, c_and(c_le(c_neg(half), a), c_le(a, half), c_eq(self._trig("sin", a), x))))
            ends = ((creal(0), zero), (one, half), (creal(-1), c_neg(half)))
        else:
            self.fact(c_imp(inrange, c_and(c_le(zero, a), c_le(a, pi), c_eq(self._trig("cos", a), x))))
            ends = ((one, zero), (creal(-1), pi), (creal(0), half))
        for at, value in ends:  # the values at 0 and ±1 (sin and cos facts alone miss them)
            self.fact(c_imp(c_eq(x, at), c_eq(a, value)))
        return a

    def isa_arc(self, op: str, x: Term) -> Term:
        """Isabelle's arcsin / arccos: the inverse functions on [-1, 1], a fixed unknown outside
        (``%arcsin_out``, read back from models as ``@arcsin``, like ``%ln_neg``)."""
        inrange = c_and(c_le(creal(-1), x), c_le(x, creal(1)))
        return c_ite(inrange, self.arc_in_range(op, x), self.ufun(f"%{op}_out", REAL, x))


def _nat_range_axioms(consts: list[Var], symbols: set[tuple[str, tuple[Sort, ...]]]) -> list[Term]:
    """∀ args ∈ ℕ, f args ≥ 0 for ℕ-valued function variables and user symbols: true, and
    stated once globally (a per-application fact under a ∀ only guards that ∀)."""
    out: list[Term] = []
    sigs: list[tuple[Term | None, str, tuple[Sort, ...]]] = []
    for v in consts:
        if isinstance(v.sort, FunSort) and v.sort.result == NAT and all(_representable(a) for a in v.sort.args):
            sigs.append((Var(v.name, core_sort(v.sort)), v.name, v.sort.args))
    for name, args in sorted(symbols, key=lambda k: (k[0], str(k[1]))):
        if args:
            sigs.append((None, name, args))
    for fvar, name, args in sigs:
        if any(isinstance(a, (FunSort, SetSort)) or a == COMPLEX for a in args):
            continue
        xs = tuple(Var(f"%a{i}", core_sort(a)) for i, a in enumerate(args))
        app_ = _c("apply", INT, fvar, *xs) if fvar is not None else c_ufun(name, INT, *xs)
        guard = c_and(*(c_le(cint(0), x) for x, a in zip(xs, args, strict=True) if a == NAT))
        out.append(Quant("forall", xs, c_imp(guard, c_le(cint(0), app_))))
    return out


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
    if s.op in ("Icc", "Ico", "Ioc", "Ioo"):
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


def _cmul(a: tuple[Term, Term], b: tuple[Term, Term]) -> tuple[Term, Term]:
    (ar, ai), (br, bi) = a, b
    return c_sub(c_mul(ar, br), c_mul(ai, bi)), c_add(c_mul(ar, bi), c_mul(ai, br))


def _cinv(a: tuple[Term, Term]) -> tuple[Term, Term]:
    """1 / (x + iy) = (x - iy) / (x² + y²), and 0⁻¹ = 0 (the guarded division gives it)."""
    ar, ai = a
    d = c_add(c_mul(ar, ar), c_mul(ai, ai))
    return _c("div", REAL, ar, d), _c("div", REAL, c_neg(ai), d)


def _cpower(a: tuple[Term, Term], n: int) -> tuple[Term, Term]:
    if n == 0:
        return creal(1), creal(0)
    if n == 1:
        return a
    half = _cpower(a, n // 2)
    sq = _cmul(half, half)
    return _cmul(sq, a) if n % 2 else sq


def _exact_root(v: Fraction, k: int) -> Fraction | None:
    from provers.semantics.exact import rational_root as _rational_root

    return _rational_root(v, k)


def _power(b: Term, n: int, sort: Sort) -> Term:
    """b^n as a balanced product (shared subterms; n = 0 gives 1)."""
    if n == 0:
        return c_num(1, sort)
    if isinstance(b, Num):
        return c_num(Fraction(b.value) ** n, sort)
    if n == 1:
        return b
    half = _power(b, n // 2, sort)
    sq = c_mul(half, half)
    return c_mul(sq, b) if n % 2 else sq


def _fresh(base: str, *ts: Term) -> str:
    taken = set()
    for t in ts:
        taken |= {s.name for s in subterms(t) if isinstance(s, Var)}
    i = 0
    while f"{base}%{i}" in taken:
        i += 1
    return f"{base}%{i}"


#: Operations folded to a numeral when all their arguments are numerals (exact results only).
_FOLDABLE = frozenset({
    "add", "sub", "mul", "neg", "div", "mod", "ediv", "emod", "fdiv", "fmod", "inv", "pow", "zpow",
    "abs", "min", "max", "sign", "cast", "floor", "ceil", "nat_floor", "nat_ceil", "round", "to_nat",
    "nat_abs", "frac", "fact", "choose", "gcd", "lcm", "dvd", "prime", "even", "odd", "sqrt",
    "signed_sqrt", "root", "eq", "ne", "lt", "le", "gt", "ge", "list_sum", "list_length", "rpow", "powr",
    "log", "logb", "exp", "card",
})
_MAX_FOLD_BITS = 4096


def fold_ground(t: Term) -> Term:
    """Replace ground subterms whose exact value the evaluator knows by numerals.

    Sound because the evaluator is exact (approximate or undecided values are left alone);
    it spares the solvers e.g. gcd (20!) 200000 or the digits of 2^100.
    """
    from provers.semantics.evaluate import evaluate

    def fn(s: Term) -> Term | None:
        if not isinstance(s, App) or s.op not in _FOLDABLE:
            return None
        if not all(isinstance(a, Num) or (isinstance(a, App) and a.op in ("digits", "range", "Icc", "Ico", "Ioc", "Ioo", "set_of", "divisors", "filter") and not free_vars(a)) for a in s.args):
            return None
        if s.sort == COMPLEX or any(a.sort == COMPLEX for a in s.args):
            return None
        v = evaluate(s, {})
        if isinstance(v, bool):
            return T if v else F
        if isinstance(v, (int, Fraction)) and not isinstance(v, bool):
            if Fraction(v).numerator.bit_length() > _MAX_FOLD_BITS or Fraction(v).denominator.bit_length() > _MAX_FOLD_BITS:
                return None
            if s.sort == NAT and v < 0 or s.sort in (NAT, INT) and Fraction(v).denominator != 1:
                return None
            return Num(v, s.sort)
        return None

    from provers.ir import map_term

    return map_term(t, fn)


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
        if v.sort != COMPLEX and not is_complex_fun(v.sort) and not _representable(v.sort):
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
