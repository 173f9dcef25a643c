"""The lowering's rewrite of each IR operation into the core: ``LOWERING``, one handler
``(lowerer, term, polarity) -> core term`` per operation (or the reason it has none).

Polarity (1 positive, -1 negative, 0 both) is what a quantifier over ℚ needs to know to be
read over ℝ soundly; values are lowered at polarity 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING

from provers.backends.smt.core import (
    F,
    T,
    Unsupported,
    c_abs,
    c_add,
    c_and,
    c_div,
    c_dvd,
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
    cint,
    core_app,
    core_sort,
    creal,
    fresh_name,
)
from provers.backends.smt.sets import cardinality, finite_shape
from provers.backends.smt.symbols import (
    arc_in_range,
    exp,
    isa_ln,
    log,
    pi,
    signed_sqrt,
    sin_cos,
    sqrt,
)
from provers.ir import (
    BOOL,
    COMMUTATIVE,
    COMPLEX,
    INT,
    NAT,
    REAL,
    SET_FORMERS,
    App,
    BigOp,
    Num,
    OpTable,
    Quant,
    Term,
    Uninterpreted,
    Var,
    app,
    free_vars,
)
from provers.semantics import evaluate
from provers.semantics.exact import is_prime, rational_root

if TYPE_CHECKING:
    from provers.backends.smt.lower import Lowerer

#: Literal exponents up to this are expanded into products.
MAX_EXPAND_POW = 256
#: Literal arguments of fact/choose/gcd/prime are evaluated up to this size.
MAX_LITERAL = 10**6
_SMALL_PRIMES = [p for p in range(2, 60) if is_prime(p)]

Handler = Callable[["Lowerer", App, int], Term]


_LISTS = "lists have no SMT sort: a term with one becomes an opaque symbol"


_SET_VALUE = ("a set is lowered through membership (x ∈ S, card, finite, ∑ over it), "
              "never as a value of its own")


_COMPLEX_VALUE = "Complex-valued: lowered as a pair of reals (COMPLEX_PARTS)"


#: The lowering's rewrite of each operation (``handler(lowerer, term, polarity)``).
LOWERING: OpTable[Handler] = OpTable("SMT lowering", unsupported={
    "digits": _LISTS,
    **dict.fromkeys(SET_FORMERS, _SET_VALUE),
    "I": _COMPLEX_VALUE, "conj": _COMPLEX_VALUE,
})


def _args(lw: Lowerer, t: App) -> list[Term]:
    """The arguments lowered at polarity 0 (they are values, not formulas)."""
    return [lw.lower(a, 0) for a in t.args]


# -- logic ---------------------------------------------------------------------------


#: Isabelle's integer ranges as lists, and the interval each one enumerates in order
_RANGES = {"upto": "Icc", "upt": "Ico"}  # [a..b] over ℤ, [a..<b] over ℕ


@LOWERING.register("list_sum", "list_length")
def _list_of_range(lw: Lowerer, t: App, pol: int) -> Term:
    """``sum_list [a..b]`` and ``length [a..<b]``: the sum over the interval and its number of
    elements (the range lists its interval's integers once each, in order), lowered like any
    sum (closed forms for symbolic ends). Any other list has no SMT sort."""
    xs = t.args[0]
    if not (isinstance(xs, Uninterpreted) and xs.symbol in _RANGES and len(xs.args) == 2):
        raise Unsupported(_LISTS)
    interval = app(_RANGES[xs.symbol], *xs.args)
    if t.op == "list_length":
        return lw.lower(app("card", interval), pol)
    i = Var(fresh_name("i", interval), xs.args[0].sort)
    return lw.lower(BigOp("sum", i, interval, i), pol)


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


# -- relations -----------------------------------------------------------------------


@LOWERING.register("eq", "ne")
def _equality(lw: Lowerer, t: App, pol: int) -> Term:
    a, b = t.args
    roots = _equal_roots(a, b)
    if roots is not None:
        r = lw.lower(roots, pol if t.op == "eq" else -pol)
        return r if t.op == "eq" else c_not(r)
    if a.sort == COMPLEX:
        (ar, ai), (br, bi) = lw.lower_c(a), lw.lower_c(b)
        r = c_and(c_eq(ar, br), c_eq(ai, bi))
    else:
        r = lw.equality(a, b, pol if t.op == "eq" else -pol)
    return r if t.op == "eq" else c_not(r)


def _equal_roots(a: Term, b: Term) -> Term | None:
    """``√x = √y`` without the roots: Isabelle's ``sqrt`` is strictly increasing on ℝ (x = y);
    Lean's ``Real.sqrt`` is injective on x ≥ 0 and 0 below (x = y, or both x ≤ 0 and y ≤ 0).
    Two square-root symbols tied only through their squares are hard for the solvers
    (MATH precalculus/problem_24307: equal distances)."""
    if not (isinstance(a, App) and isinstance(b, App) and a.op == b.op and a.op in ("sqrt", "signed_sqrt")):
        return None
    x, y = a.args[0], b.args[0]
    same = app("eq", x, y)
    if a.op == "signed_sqrt":
        return same
    zero = Num(0, x.sort)
    return app("or", same, app("and", app("le", x, zero), app("le", y, zero)))


@LOWERING.register("lt", "le", "gt", "ge")
def _order(lw: Lowerer, t: App, pol: int) -> Term:
    a, b = _args(lw, t)
    if t.op in ("gt", "ge"):
        a, b = b, a
    return c_lt(a, b) if t.op in ("lt", "gt") else c_le(a, b)


# -- sets and functions --------------------------------------------------------------


@LOWERING.register("mem")
def _membership(lw: Lowerer, t: App, pol: int) -> Term:
    return lw.membership(t.args[0], t.args[1], pol)


@LOWERING.register("subset")
def _subset(lw: Lowerer, t: App, pol: int) -> Term:
    a, b = t.args
    x = Var(fresh_name("x", t), a.sort.elem)  # type: ignore[attr-defined]
    return lw.lower_strict(Quant("forall", (x,), app("implies", app("mem", x, a), app("mem", x, b))), pol)


@LOWERING.register("card")
def _cardinality(lw: Lowerer, t: App, pol: int) -> Term:
    return cardinality(lw, t.args[0])


@LOWERING.register("finite")
def _finite(lw: Lowerer, t: App, pol: int) -> Term:
    if finite_shape(t.args[0]):
        return T
    raise Unsupported("finiteness of a set")


@LOWERING.register("apply")
def _application(lw: Lowerer, t: App, pol: int) -> Term:
    return lw.application(t.args[0], t.args[1:], pol)


# -- arithmetic ----------------------------------------------------------------------


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


# -- powers --------------------------------------------------------------------------


def _power_sign_facts(lw: Lowerer, b: Term, p: Term, n: int) -> None:
    """The sign of bⁿ (n ≥ 2) as linear facts about the product term: b is 0 exactly when bⁿ
    is; an even power is ≥ 0, an odd one has b's sign. The solvers' nonlinear search finds
    them, but not always within a quick call (`(10A + B)³ = 912673 → 10A + B > 0` took z3
    0.08–0.2 s, a timeout at 0.15 s under load)."""
    zero = c_num(0, p.sort)
    lw.fact(c_iff(c_eq(p, zero), c_eq(b, zero)))
    if n % 2 == 0:
        lw.fact(c_le(zero, p))
    else:
        lw.fact(c_iff(c_lt(zero, p), c_lt(zero, b)))


@LOWERING.register("pow", "zpow")
def _pow(lw: Lowerer, t: App, pol: int) -> Term:
    """A literal exponent expands into products; a symbolic one is a fresh symbol with the
    power's values at 0..3, its sign, and (``pow``) its recursion."""
    rewritten = _sqrt_squared(lw, t)
    if rewritten is not None:
        return rewritten
    base, e = t.args
    csort = core_sort(t.sort)
    b = lw.lower(base, 0)
    zero, one = c_num(0, csort), c_num(1, csort)
    if isinstance(e, Num):
        n = int(e.value)
        if abs(n) <= MAX_EXPAND_POW:
            p = c_power(b, abs(n), csort)
            if abs(n) >= 2 and not isinstance(b, Num):
                _power_sign_facts(lw, b, p, abs(n))
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
            if k == 0:
                return c_ite(c_eq(x, zero), zero, one)  # exp (0 · ln x) = 1
            # x < 0: exp (k · ln x) = eᵏ with e = exp (ln x) > 0 one constant, as Isabelle's ln
            # is one unspecified constant at every x ≤ 0 (ln_neg_is_const)
            e_neg = c_ufun("%powr_neg", REAL)
            lw.fact(c_lt(zero, e_neg))
            neg = c_power(e_neg, abs(k), REAL)
            neg = neg if k >= 0 else c_div(one, neg)
            return c_ite(c_eq(x, zero), zero, c_ite(c_lt(zero, x), zp, neg))
    yv = lw.lower(e, 0)
    r = c_ufun("%" + t.op, REAL, x, yv)
    if isinstance(base, Num) and base.value > 0 and base.value != 1 \
            and not any(free_vars(yv) & sc.vars for sc in lw.scopes):
        _integer_exponent_values(lw, Fraction(base.value), yv, r)
    if t.op == "rpow":
        lw.fact(c_imp(c_eq(x, zero), c_eq(r, c_ite(c_eq(yv, zero), one, zero))))
    else:
        lw.fact(c_imp(c_eq(x, zero), c_eq(r, zero)))
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
                lw.fact(c_imp(c_lt(x, zero), c_eq(r, zero)))
    return r


#: ``c powr y`` with a numeral base c and y symbolic: its exact value at the integers y = −K … K.
INTEGER_EXPONENT_FACTS = 12


def _integer_exponent_values(lw: Lowerer, c: Fraction, y: Term, r: Term) -> None:
    """``c powr y`` (c > 0, c ≠ 1) at integer y is cʸ exactly: facts the solver may use to pick
    a model whose power the evaluator confirms (``a · 10 powr b = 7·10⁻⁷ / 2000`` with
    1 ≤ a < 10 at b = −10), where any other b gives a power the solver guessed. The exponent
    is recorded (``Lowerer.real_exponents``); with ``integral_exponents`` the solver is told y
    is one of those integers, a restriction that only serves to find models (``solve`` never takes a
    proof from that question). Only for an exponent no binder of the obligation binds: under
    a quantifier the facts multiply the solver's instances (``prealgebra/problem_465``'s
    ``∀n. ∃p q. p / 10 powr q = …`` took 2.4× as long) for models no one asked for."""
    for k in range(-INTEGER_EXPONENT_FACTS, INTEGER_EXPONENT_FACTS + 1):
        lw.fact(c_imp(c_eq(y, creal(k)), c_eq(r, creal(c ** k))))
    lw.real_exponents = True
    if lw.integral_exponents:  # one of the integers where the power is known
        lw.fact(c_and(c_eq(y, c_to_real(c_floor(y))), c_le(creal(-INTEGER_EXPONENT_FACTS), y),
                      c_le(y, creal(INTEGER_EXPONENT_FACTS))))


# -- rounding and integer conversions ------------------------------------------------


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


# -- number theory -------------------------------------------------------------------


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
    return c_dvd(*_args(lw, t))


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
    lw.fact(c_dvd(f, a))
    lw.fact(c_dvd(f, b))
    lw.fact(c_eq(c_eq(f, zero), c_and(c_eq(a, zero), c_eq(b, zero))))
    lw.fact(c_imp(c_not(c_eq(a, zero)), c_le(f, c_abs(a))))
    lw.fact(c_imp(c_not(c_eq(b, zero)), c_le(f, c_abs(b))))
    # gcd 0 b = |b| (Lean's Nat.gcd_zero_left, Int.gcd; Isabelle's gcd_0_left): the one value
    # the divisibility facts leave open without "greatest"
    lw.fact(c_imp(c_eq(a, zero), c_eq(f, c_abs(b))))
    lw.fact(c_imp(c_eq(b, zero), c_eq(f, c_abs(a))))


def _lcm_facts(lw: Lowerer, f: Term, a: Term, b: Term) -> None:
    zero = cint(0)
    lw.fact(c_le(zero, f))
    lw.fact(c_dvd(a, f))
    lw.fact(c_dvd(b, f))
    lw.fact(c_eq(c_eq(f, zero), c_or(c_eq(a, zero), c_eq(b, zero))))


_INTEGER_FACTS: dict[str, Callable[..., None]] = {
    "fact": _factorial_facts, "choose": _choose_facts, "gcd": _gcd_facts, "lcm": _lcm_facts,
}


@LOWERING.register(*_INTEGER_FACTS)
@_folding_literals
def _integer_function(lw: Lowerer, t: App, pol: int) -> Term:
    """A fresh symbol (``%fact``, ``%gcd_int`` ...) with the true facts that pin it down.
    gcd and lcm are commutative in both libraries: their arguments are put in one order, so
    that ``gcd a b`` and ``gcd b a`` (statements aligned by renaming) are one application."""
    xs = _args(lw, t)
    if t.op in COMMUTATIVE:
        xs = sorted(xs, key=repr)
    f = c_ufun("%" + t.op + ("" if t.sort == NAT else "_int"), INT, *xs)
    _INTEGER_FACTS[t.op](lw, f, *xs)
    return f


# -- real analysis -------------------------------------------------------------------


#: Real functions of one argument that are a fresh symbol with its facts (``symbols``).
_SYMBOLS: dict[str, Callable[[Lowerer, Term], Term]] = {
    "signed_sqrt": signed_sqrt, "exp": exp, "log": log, "ln": isa_ln,
}


def _squared(t: Term) -> Term | None:
    """u when ``t`` is ``u ^ 2`` or ``u * u``."""
    if isinstance(t, App) and t.op in ("pow", "zpow") and isinstance(t.args[1], Num) and t.args[1].value == 2:
        return t.args[0]
    if isinstance(t, App) and t.op == "mul" and t.args[0] == t.args[1]:
        return t.args[0]
    return None


@LOWERING.register("sqrt")
def _sqrt(lw: Lowerer, t: App, pol: int) -> Term:
    """Mathlib ``Real.sqrt``: √(u²) = |u| for every real u (no fresh symbol, and linear when
    u is); otherwise the symbol ``%sqrt`` with its exact definition (``symbols.sqrt``)."""
    u = _squared(t.args[0])
    if u is not None:
        return c_abs(lw.lower(u, 0))
    return sqrt(lw, lw.lower(t.args[0], 0))


def _sqrt_squared(lw: Lowerer, t: App) -> Term | None:
    """(√u)² = u for u ≥ 0 and 0 for u < 0 (Real.sqrt u = 0 there): linear in u, where the
    product of the symbol with itself would be nonlinear."""
    base, e = t.args
    if isinstance(e, Num) and e.value == 2 and isinstance(base, App) and base.op == "sqrt":
        u = lw.lower(base.args[0], 0)
        return c_ite(c_le(creal(0), u), u, creal(0))
    return None


@LOWERING.register(*_SYMBOLS)
def _real_function(lw: Lowerer, t: App, pol: int) -> Term:
    return _SYMBOLS[t.op](lw, lw.lower(t.args[0], 0))


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
            return signed_sqrt(lw, x)
        if isinstance(x, Num):
            exact = rational_root(abs(Fraction(x.value)), k)
            if exact is not None:
                return creal(exact if x.value >= 0 else -exact)
        if k <= 16:
            r = c_ufun("%root", REAL, cint(k), x)
            lw.fact(c_imp(c_le(creal(0), x), c_and(c_le(creal(0), r), c_eq(c_power(r, k, REAL), x))))
            lw.fact(c_imp(c_lt(x, creal(0)), c_and(c_le(r, creal(0)), c_eq(c_power(c_neg(r), k, REAL), c_neg(x)))))
            return r
    nn = lw.lower(n, 0)
    r = c_ufun("%root", REAL, nn, x)
    lw.fact(c_imp(c_eq(nn, cint(0)), c_eq(r, creal(0))))
    lw.fact(c_imp(c_and(c_le(cint(1), nn), c_lt(creal(0), x)), c_lt(creal(0), r)))
    lw.fact(c_imp(c_and(c_le(cint(1), nn), c_lt(x, creal(0))), c_lt(r, creal(0))))
    return r


@LOWERING.register("logb")
def _logb(lw: Lowerer, t: App, pol: int) -> Term:
    b, x = _args(lw, t)
    return c_div(log(lw, x), log(lw, b))


@LOWERING.register("isa_log")
def _isa_log(lw: Lowerer, t: App, pol: int) -> Term:
    b, x = _args(lw, t)
    return c_div(isa_ln(lw, x), isa_ln(lw, b))


@LOWERING.register("pi")
def _pi(lw: Lowerer, t: App, pol: int) -> Term:
    return pi(lw)


@LOWERING.register("sinh", "cosh", "tanh")
def _hyperbolic(lw: Lowerer, t: App, pol: int) -> Term:
    x = lw.lower(t.args[0], 0)
    ep, em = exp(lw, x), exp(lw, c_neg(x))
    sh, ch = c_div(c_sub(ep, em), creal(2)), c_div(c_add(ep, em), creal(2))
    return sh if t.op == "sinh" else ch if t.op == "cosh" else c_div(sh, ch)


@LOWERING.register("sin", "cos", "tan")
def _circular(lw: Lowerer, t: App, pol: int) -> Term:
    s, c = sin_cos(lw, lw.lower(t.args[0], 0))
    return s if t.op == "sin" else c if t.op == "cos" else c_div(s, c)


@LOWERING.register("arctan")
def _arctan(lw: Lowerer, t: App, pol: int) -> Term:
    x = lw.lower(t.args[0], 0)
    zero = creal(0)
    half = c_div(pi(lw), creal(2))
    a = c_ufun("%arctan", REAL, x)
    lw.fact(c_and(c_lt(c_neg(half), a), c_lt(a, half)))
    lw.fact(c_eq(c_eq(x, zero), c_eq(a, zero)))
    lw.fact(c_eq(c_lt(zero, x), c_lt(zero, a)))
    return a


@LOWERING.register("arcsin", "arccos")
def _clamped_arc(lw: Lowerer, t: App, pol: int) -> Term:
    """Mathlib clamps: arcsin x = ±π/2 and arccos x = 0 / π outside [-1, 1]."""
    x = lw.lower(t.args[0], 0)
    p = pi(lw)
    half = c_div(p, creal(2))
    a = arc_in_range(lw, t.op, x)
    above, below = c_le(creal(1), x), c_le(x, creal(-1))
    if t.op == "arcsin":
        return c_ite(above, half, c_ite(below, c_neg(half), a))
    return c_ite(above, creal(0), c_ite(below, p, a))


@LOWERING.register("isa_arcsin", "isa_arccos")
def _isabelle_arc(lw: Lowerer, t: App, pol: int) -> Term:
    """Isabelle's arcsin / arccos: the inverse functions on [-1, 1], a fixed unknown outside
    (``%arcsin_out``, read back from models as ``@arcsin``, like ``%ln_neg``)."""
    op = t.op.removeprefix("isa_")
    x = lw.lower(t.args[0], 0)
    inrange = c_and(c_le(creal(-1), x), c_le(x, creal(1)))
    return c_ite(inrange, arc_in_range(lw, op, x), c_ufun(f"%{op}_out", REAL, x))


# -- complex numbers -----------------------------------------------------------------


@LOWERING.register("re", "im", "cabs")
def _complex_projection(lw: Lowerer, t: App, pol: int) -> Term:
    zr, zi = lw.lower_c(t.args[0])
    if t.op == "re":
        return zr
    if t.op == "im":
        return zi
    return sqrt(lw, c_add(c_mul(zr, zr), c_mul(zi, zi)))
