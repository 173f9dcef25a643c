"""What HOL's operators and constants mean, as builders of pre-terms.

``BINARY`` maps an infix operator to a builder; ``CONSTS`` maps a constant name to its arity
and builder. Each builder unifies sorts through ``inference.Inference`` and returns a pre-term;
names that are not here are free variables, exactly as in Isabelle. Meanings follow
docs/semantics.md: ``sqrt`` is ``signed_sqrt``, ``log b x`` is ``isa_log``, ``div``/``mod``
pick ``fdiv``/``fmod`` on int once sorts are known (see ``finish.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from provers.ir import (
    BOOL,
    COMPLEX,
    INT,
    NAT,
    NUMERIC_ORDER,
    RAT,
    REAL,
    App,
    FunSort,
    Hypothesis,
    ListSort,
    SetSort,
    Sort,
    Term,
    Uninterpreted,
    Var,
    cast,
    is_numeric,
    map_term,
    substitute,
)
from provers.isabelle.finish import number_set
from provers.isabelle.inference import Inference
from provers.isabelle.preterm import (
    PreApp,
    PreBigOp,
    PreLam,
    PreNum,
    PreQuant,
    PreSetBuilder,
    PreSym,
    PreTerm,
    PreVar,
)
from provers.isabelle.types import Prod

# --------------------------------------------------------------------------------------
# Binary operators
# --------------------------------------------------------------------------------------

BinHandler = Callable[[Inference, PreTerm, PreTerm, int], PreTerm]


def _logic(op: str) -> BinHandler:
    def h(e: Inference, a: PreTerm, b: PreTerm, pos: int) -> PreTerm:
        e.unify(a.sort, BOOL, pos, op)
        e.unify(b.sort, BOOL, pos, op)
        return PreApp(op, (a, b), BOOL)

    return h


def _rel(op: str, *classes: str) -> BinHandler:
    def h(e: Inference, a: PreTerm, b: PreTerm, pos: int) -> PreTerm:
        a, b = e.join(a, b, pos, f"the two sides of {_OPTEXT.get(op, op)}")
        for cls in classes:
            a2 = e.lift(a, cls, pos, _OPTEXT.get(op, op))
            if a2 is not a:
                a, b = a2, PreApp("cast", (b,), a2.sort)
        return PreApp(op, (a, b), BOOL)

    return h


def _arith(op: str, *classes: str) -> BinHandler:
    def h(e: Inference, a: PreTerm, b: PreTerm, pos: int) -> PreTerm:
        if op == "isa:divide":
            a, b = e.to_field(a, b, pos)
        else:
            a, b = e.join(a, b, pos, f"the two sides of {_OPTEXT.get(op, op)}")
        for cls in classes:
            a2 = e.lift(a, cls, pos, _OPTEXT.get(op, op))
            if a2 is not a:
                a, b = a2, PreApp("cast", (b,), a2.sort)
        return PreApp(op, (a, b), a.sort)

    return h


def _pow(e: Inference, a: PreTerm, b: PreTerm, pos: int) -> PreTerm:
    e.require(a.sort, "num", pos, "^")
    b = e.coerce(b, NAT, pos, "the exponent of ^ (Isabelle's ^ takes a nat exponent; use powr for a real one)")
    return PreApp("pow", (a, b), a.sort)


def _powr(e: Inference, a: PreTerm, b: PreTerm, pos: int) -> PreTerm:
    if e.shallow(a.sort) == COMPLEX or e.shallow(b.sort) == COMPLEX:  # complex powr (HOL-Analysis)
        a = e.coerce(a, COMPLEX, pos, "powr")
        if isinstance(b, PreNum) and b.value == int(b.value) and b.value >= 1:
            # z powr n = (if z = 0 then 0 else exp (n · Ln z)) = z ^ n for a numeral n ≥ 1
            return PreApp("pow", (a, PreNum(int(b.value), NAT)), COMPLEX)
        b = e.coerce(b, COMPLEX, pos, "powr")
        return PreSym("powr", (a, b), COMPLEX)
    a = e.coerce(a, REAL, pos, "powr (defined on real and complex)")
    b = e.coerce(b, REAL, pos, "powr (defined on real and complex)")
    return PreApp("powr", (a, b), REAL)


def _mem(neg: bool) -> BinHandler:
    def h(e: Inference, a: PreTerm, b: PreTerm, pos: int) -> PreTerm:
        bs = e.sorts.resolve(b.sort)
        if isinstance(bs, SetSort):  # f n ∈ {x::real. …} with f n :: nat: coerce the element
            a = e.coerce(a, bs.elem, pos, "∈ (the right side must be a set of the left side's type)")
        e.unify(b.sort, SetSort(a.sort), pos, "∈ (the right side must be a set of the left side's type)")
        t = PreApp("mem", (a, b), BOOL)
        return PreApp("not", (t,), BOOL) if neg else t

    return h


def _subset(flip: bool, proper: bool) -> BinHandler:
    def h(e: Inference, a: PreTerm, b: PreTerm, pos: int) -> PreTerm:
        if flip:
            a, b = b, a
        e.unify(a.sort, b.sort, pos, "⊆")
        e.unify(a.sort, SetSort(e.fresh()), pos, "⊆ (both sides must be sets)")
        t = PreApp("subset", (a, b), BOOL)
        if proper:
            t = PreApp("and", (t, PreApp("ne", (a, b), BOOL)), BOOL)
        return t

    return h


def _setop(op: str) -> BinHandler:
    def h(e: Inference, a: PreTerm, b: PreTerm, pos: int) -> PreTerm:
        e.unify(a.sort, b.sort, pos, op)
        e.unify(a.sort, SetSort(e.fresh()), pos, f"{op} (both sides must be sets)")
        return PreApp(op, (a, b), a.sort)

    return h


def _minus(e: Inference, a: PreTerm, b: PreTerm, pos: int) -> PreTerm:
    a, b = e.join(a, b, pos, "the two sides of -")
    return PreApp("isa:minus", (a, b), a.sort)


def _image(e: Inference, f: PreTerm, s: PreTerm, pos: int) -> PreTerm:
    x, y = e.fresh(), e.fresh()
    e.unify(f.sort, FunSort((x,), y), pos, "f ` A (f must be a function)")
    e.unify(s.sort, SetSort(x), pos, "f ` A (A must be a set of f's argument type)")
    return PreApp("image", (f, s), SetSort(y))


def _comp(e: Inference, f: PreTerm, g: PreTerm, pos: int) -> PreTerm:
    x = e.fresh_var("x", e.fresh())
    inner = e.apply_term(g, [x], pos)
    return PreLam((x,), e.apply_term(f, [inner], pos))


def _unint(sym: str, result: Callable[[Inference, PreTerm, PreTerm, int], Sort]) -> BinHandler:
    def h(e: Inference, a: PreTerm, b: PreTerm, pos: int) -> PreTerm:
        return PreSym(sym, (a, b), result(e, a, b, pos))

    return h


def _nth_sort(e: Inference, a: PreTerm, b: PreTerm, pos: int) -> Sort:
    elem = e.fresh()
    e.unify(a.sort, ListSort(elem), pos, "xs ! i (xs must be a list)")
    e.unify(b.sort, NAT, pos, "xs ! i (i must be a nat)")
    return elem


def _cons_sort(e: Inference, a: PreTerm, b: PreTerm, pos: int) -> Sort:
    e.unify(b.sort, ListSort(a.sort), pos, "x # xs")
    return b.sort


def _append_sort(e: Inference, a: PreTerm, b: PreTerm, pos: int) -> Sort:
    e.unify(a.sort, b.sort, pos, "xs @ ys")
    e.unify(a.sort, ListSort(e.fresh()), pos, "xs @ ys")
    return a.sort


def _times_sort(e: Inference, a: PreTerm, b: PreTerm, pos: int) -> Sort:
    x, y = e.fresh(), e.fresh()
    e.unify(a.sort, SetSort(x), pos, "A × B")
    e.unify(b.sort, SetSort(y), pos, "A × B")
    return SetSort(Prod(x, y))


def _inner_sort(e: Inference, a: PreTerm, b: PreTerm, pos: int) -> Sort:
    e.unify(a.sort, b.sort, pos, "∙")
    return REAL


def _scale_r(e: Inference, a: PreTerm, v: PreTerm, pos: int) -> PreTerm:
    a = e.coerce(a, REAL, pos, "r *⇩R v (r must be real)")
    return PreSym("scaleR", (a, v), v.sort)


def _choose(e: Inference, a: PreTerm, b: PreTerm, pos: int) -> PreTerm:
    e.unify(a.sort, NAT, pos, "choose")
    e.unify(b.sort, NAT, pos, "choose")
    return PreApp("choose", (a, b), NAT)


_OPTEXT = {"isa:eq": "=", "isa:minus": "-", "eq": "=", "ne": "≠", "lt": "<", "le": "≤", "gt": ">", "ge": "≥", "add": "+", "mul": "*",
           "isa:divide": "/", "isa:div": "div", "isa:mod": "mod", "isa:dvd": "dvd"}

BINARY: dict[str, BinHandler] = {
    "implies": _logic("implies"), "iff": _logic("iff"), "or": _logic("or"), "and": _logic("and"),
    "eq": _rel("isa:eq"), "ne": _rel("ne"),
    "lt": _rel("lt", "ord"), "le": _rel("le", "ord"), "gt": _rel("gt", "ord"), "ge": _rel("ge", "ord"),
    "mem": _mem(False), "notmem": _mem(True),
    "subset": _subset(False, False), "psubset": _subset(False, True),
    "supset": _subset(True, False), "psupset": _subset(True, True),
    # like div/mod: where nothing fixes the type, dvd is read on int (its meaning on a field,
    # a ≠ 0 ∨ b = 0, is almost never what `11 dvd n` in a set of untyped n means)
    "dvd": _rel("isa:dvd", "num", "intlike"),
    "add": _arith("add", "num"), "minus": _minus, "mul": _arith("mul", "num"),
    "divide": _arith("isa:divide", "num", "field"), "div": _arith("isa:div", "num", "intlike"),
    "mod": _arith("isa:mod", "num", "intlike"),
    "pow": _pow, "powr": _powr, "union": _setop("union"), "inter": _setop("inter"),
    "image": _image, "comp": _comp, "nth": _unint("nth", _nth_sort), "cons": _unint("Cons", _cons_sort),
    "append": _unint("append", _append_sort), "times_set": _unint("Times", _times_sort),
    "inner": _unint("inner", _inner_sort), "choose": _choose, "scaleR": _scale_r,
}


# --------------------------------------------------------------------------------------
# Constants: name -> (arity, builder). Unknown names are free variables (as in Isabelle).
# --------------------------------------------------------------------------------------

Builder = Callable[[Inference, list[PreTerm], int], PreTerm]
CONSTS: dict[str, tuple[int, Builder]] = {}
NULLARY: set[str] = set()


def _const(name: str, arity: int):
    def deco(fn: Builder) -> Builder:
        CONSTS[name] = (arity, fn)
        if arity == 0:
            NULLARY.add(name)
        return fn

    return deco


def _fixed(name: str, op: str, args: tuple[Sort, ...], result: Sort, *aliases: str) -> None:
    def build(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
        xs = [e.coerce(x, s, pos, f"the argument of {name}") for x, s in zip(xs, args, strict=True)]
        return PreApp(op, tuple(xs), result)

    for n in (name, *aliases):
        CONSTS[n] = (len(args), build)
        if not args:
            NULLARY.add(n)


_fixed("sqrt", "signed_sqrt", (REAL,), REAL)
_fixed("ln", "ln", (REAL,), REAL)
_fixed("log", "isa_log", (REAL, REAL), REAL)
_fixed("root", "root", (NAT, REAL), REAL)
_fixed("pi", "pi", (), REAL)
for _f in ("tan", "arctan", "sinh", "cosh", "tanh"):
    _fixed(_f, _f, (REAL,), REAL)
_fixed("arcsin", "isa_arcsin", (REAL,), REAL)  # unspecified outside [-1, 1], unlike Mathlib's
_fixed("arccos", "isa_arccos", (REAL,), REAL)
_fixed("real", "cast", (NAT,), REAL, "real_of_nat")
_fixed("real_of_int", "cast", (INT,), REAL)
_fixed("int", "cast", (NAT,), INT, "int_of_nat")
_fixed("nat", "to_nat", (INT,), NAT)
_fixed("complex_of_real", "cast", (REAL,), COMPLEX)
_fixed("binomial", "choose", (NAT, NAT), NAT)
_fixed("cmod", "cabs", (COMPLEX,), REAL)
_fixed("Re", "re", (COMPLEX,), REAL)
_fixed("Im", "im", (COMPLEX,), REAL)
_fixed("cnj", "conj", (COMPLEX,), COMPLEX)
_fixed("ii", "I", (), COMPLEX)
_fixed("True", "true", (), BOOL)
_fixed("False", "false", (), BOOL)


def _poly_unary(name: str, op: str, *classes: str, result: Sort | None = None) -> None:
    def build(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
        x = xs[0]
        for c in classes:
            x = e.lift(x, c, pos, name)
        return PreApp(op, (x,), result or x.sort)

    CONSTS[name] = (1, build)


_poly_unary("abs", "isa:abs", "abs")
_poly_unary("sgn", "isa:sgn", "num")
_poly_unary("inverse", "isa:inverse", "field")
_poly_unary("exp", "isa:exp", "num", "field")
_poly_unary("sin", "isa:sin", "num", "field")
_poly_unary("cos", "isa:cos", "num", "field")
_poly_unary("floor", "floor", "num", "ord", result=INT)
_poly_unary("ceiling", "ceil", "num", "ord", result=INT)
_poly_unary("round", "round", "num", "field", "ord", result=INT)
_poly_unary("frac", "frac", "num", "field", "ord")  # Archimedean_Field: frac x = x - of_int ⌊x⌋, as Int.fract
# prime / even / odd have their meaning on nat and int: where nothing fixes the type, int
# (like dvd, div and mod; on ℝ they would stay uninterpreted)
_poly_unary("prime", "isa:prime", "num", "intlike", result=BOOL)
_poly_unary("even", "isa:even", "num", "intlike", result=BOOL)
_poly_unary("odd", "isa:odd", "num", "intlike", result=BOOL)


def _cast_from(name: str, src: Sort, *classes: str) -> None:
    def build(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
        e.unify(xs[0].sort, src, pos, f"the argument of {name}")
        res = e.fresh(*classes)
        return PreApp("cast", (xs[0],), res)

    CONSTS[name] = (1, build)


_cast_from("of_nat", NAT, "num")
_cast_from("of_int", INT, "num", "neg")
_cast_from("of_real", REAL, "num", "field")
_cast_from("of_rat", RAT, "num", "field")


# Isabelle's binary numerals, as printed: `numeral (Bit0 (Bit1 One))` is 6 (type `num` read as ℕ)
_cast_from("numeral", NAT, "num")


@_const("One", 0)
def _one(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
    return PreNum(1, NAT)


def _bit(name: str, low: int) -> None:
    def build(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
        e.unify(xs[0].sort, NAT, pos, f"the argument of {name} (a binary numeral)")
        twice = PreApp("mul", (PreNum(2, NAT), xs[0]), NAT)
        return PreApp("add", (twice, PreNum(1, NAT)), NAT) if low else twice

    CONSTS[name] = (1, build)


_bit("Bit0", 0)
_bit("Bit1", 1)


def _same2(name: str, op: str, *classes: str) -> None:
    def build(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
        a, b = xs
        e.unify(a.sort, b.sort, pos, f"the arguments of {name}")
        for c in classes:
            e.require(a.sort, c, pos, name)
        return PreApp(op, (a, b), a.sort)

    CONSTS[name] = (2, build)


_same2("gcd", "isa:gcd", "num", "intlike")
_same2("lcm", "isa:lcm", "num", "intlike")
_same2("min", "min", "num", "ord")
_same2("max", "max", "num", "ord")


@_const("coprime", 2)
def _coprime(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
    """``coprime a b`` (Main, ``semiring_gcd``): no common divisor but units, which over ℕ
    and ℤ is ``gcd a b = 1`` (Lean's ``Nat.Coprime`` is read the same way)."""
    a, b = xs
    e.unify(a.sort, b.sort, pos, "the arguments of coprime")
    for c in ("num", "intlike"):
        e.require(a.sort, c, pos, "coprime")
    return PreApp("eq", (PreApp("isa:gcd", (a, b), a.sort), PreNum(1, a.sort)), BOOL)


@_const("fact", 1)
def _fact(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
    e.unify(xs[0].sort, NAT, pos, "the argument of fact")
    return PreApp("isa:fact", (xs[0],), e.fresh("num"))


@_const("Suc", 1)
def _suc(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
    e.unify(xs[0].sort, NAT, pos, "the argument of Suc")
    return PreApp("add", (xs[0], PreNum(1, NAT)), NAT)


@_const("card", 1)
def _card(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
    e.unify(xs[0].sort, SetSort(e.fresh()), pos, "card (its argument must be a set)")
    return PreApp("card", (xs[0],), NAT)


@_const("finite", 1)
def _finite(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
    e.unify(xs[0].sort, SetSort(e.fresh()), pos, "finite (its argument must be a set)")
    return PreApp("finite", (xs[0],), BOOL)


def _injective_on(e: Inference, f: PreTerm, domain: PreTerm | None, pos: int, what: str) -> PreTerm:
    """``inj_on f A`` (Main): ∀a ∈ A. ∀b ∈ A. f a = f b ⟶ a = b; ``inj f`` is ``inj_on f UNIV``,
    the same as Mathlib's ``Function.Injective`` (read alike by the Lean frontend). Written
    out, so that ``inj f`` and the property stated by hand are one formula, and a countermodel
    may pick f (an uninterpreted ``inj`` is a symbol no model can interpret)."""
    x, y = e.fresh(), e.fresh()
    e.unify(f.sort, FunSort((x,), y), pos, f"{what} (its argument must be a function)")
    a, b = e.fresh_var("a", x), e.fresh_var("b", x)
    same = BINARY["eq"](e, e.apply_term(f, [a], pos), e.apply_term(f, [b], pos), pos)
    body = BINARY["implies"](e, same, BINARY["eq"](e, a, b, pos), pos)
    if domain is not None:
        inside = BINARY["and"](e, BINARY["mem"](e, a, domain, pos), BINARY["mem"](e, b, domain, pos), pos)
        body = BINARY["implies"](e, inside, body, pos)
    return PreQuant("forall", (a, b), body)


@_const("inj", 1)
def _inj(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
    return _injective_on(e, xs[0], None, pos, "inj")


@_const("inj_on", 2)
def _inj_on(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
    return _injective_on(e, xs[0], xs[1], pos, "inj_on")


@_const("bij", 1)
def _bij(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
    """``bij f`` is ``inj f ∧ surj f`` (``bij_betw f UNIV UNIV``); surjectivity stays the
    uninterpreted ``surj`` (``semantics.inverses`` reads it for affine f), injectivity is
    written out (``_injective_on``)."""
    f = xs[0]
    inj = _injective_on(e, f, None, pos, "bij")
    return BINARY["and"](e, inj, PreSym("surj", (f,), BOOL), pos)


def _predicate(e: Inference, p: PreTerm, pos: int, what: str) -> tuple[PreVar, PreTerm]:
    """The variable and body of a predicate argument: a one-variable λ as written, any other
    P eta-expanded to ``λx. P x``."""
    if isinstance(p, PreLam) and len(p.vars) == 1:
        v, body = p.vars[0], p.body
    else:
        v = e.fresh_var("x", e.fresh())
        body = e.apply_term(p, [v], pos)
    e.unify(body.sort, BOOL, pos, f"{what} P (P must be a predicate)")
    return v, body


@_const("Collect", 1)
def _collect(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
    """``Collect P`` is ``{x. P x}``: HOL's set-builder constant, written out."""
    return PreSetBuilder(*_predicate(e, xs[0], pos, "Collect"))


def _extremum(binder: str):
    """``Least P`` / ``Greatest P``: the constants behind ``LEAST x. P x`` / ``GREATEST``
    (HOL's ``Orderings``), so ``Least (λn. 5 * n + 3 > -10)`` is the binder written out."""

    def build(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
        v, body = _predicate(e, xs[0], pos, binder.capitalize())
        e.require(v.sort, "ord", pos, binder)
        return PreSym(binder, (PreLam((v,), body),), v.sort)

    return build


CONSTS["Least"] = (1, _extremum("LEAST"))
CONSTS["Greatest"] = (1, _extremum("GREATEST"))


def _big(kind: str):
    def build(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
        f, dom = xs
        x = e.fresh()
        e.unify(dom.sort, SetSort(x), pos, f"{kind} f A (A must be a set)")
        if isinstance(f, PreLam) and len(f.vars) == 1:
            v, body = f.vars[0], f.body
            e.unify(v.sort, x, pos, f"{kind} f A")
        else:
            v = e.fresh_var("i", x)
            body = e.apply_term(f, [v], pos)
        e.require(body.sort, "num", pos, f"the summand of {kind}")
        return PreBigOp(kind, v, dom, body)

    return build


CONSTS["sum"] = (2, _big("sum"))
CONSTS["setsum"] = (2, _big("sum"))
CONSTS["prod"] = (2, _big("prod"))
CONSTS["setprod"] = (2, _big("prod"))


@_const("Complex", 2)
def _complex(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
    a, b = xs
    e.unify(a.sort, REAL, pos, "Complex a b")
    e.unify(b.sort, REAL, pos, "Complex a b")
    i = PreApp("I", (), COMPLEX)
    return PreApp("add", (PreApp("cast", (a,), COMPLEX), PreApp("mul", (i, PreApp("cast", (b,), COMPLEX)), COMPLEX)), COMPLEX)


def _unint_const(name: str, arity: int, scheme: Callable[[Inference, list[PreTerm], int], Sort]) -> None:
    def build(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
        return PreSym(name, tuple(xs), scheme(e, xs, pos))

    CONSTS[name] = (arity, build)
    if arity == 0:
        NULLARY.add(name)


def _to_real(e: Inference, xs: list[PreTerm], pos: int) -> Sort:
    if len(xs) == 2:
        e.unify(xs[0].sort, xs[1].sort, pos, "the arguments")
    return REAL


def _set_elem(e: Inference, xs: list[PreTerm], pos: int) -> Sort:
    x = e.fresh()
    e.unify(xs[0].sort, SetSort(x), pos, "Max/Min (the argument must be a set)")
    e.require(x, "ord", pos, "Max/Min")
    return x


def _pair_part(left: bool):
    def scheme(e: Inference, xs: list[PreTerm], pos: int) -> Sort:
        a, b = e.fresh(), e.fresh()
        e.unify(xs[0].sort, Prod(a, b), pos, "fst/snd (the argument must be a pair)")
        return a if left else b

    return scheme


def _list_fn(result: Callable[[Sort], Sort]):
    def scheme(e: Inference, xs: list[PreTerm], pos: int) -> Sort:
        x = e.fresh()
        e.unify(xs[0].sort, ListSort(x), pos, "a list function (the argument must be a list)")
        return result(x)

    return scheme


def _univ(e: Inference, xs: list[PreTerm], pos: int) -> Sort:
    return SetSort(e.fresh())


_unint_const("norm", 1, _to_real)
_unint_const("dist", 2, _to_real)
_unint_const("inner", 2, _to_real)  # u ∙ v written as a function
_unint_const("Max", 1, _set_elem)
_unint_const("Min", 1, _set_elem)
_unint_const("fst", 1, _pair_part(True))
_unint_const("snd", 1, _pair_part(False))
_unint_const("UNIV", 0, _univ)
_unint_const("rev", 1, _list_fn(ListSort))
_unint_const("set", 1, _list_fn(SetSort))
_unint_const("distinct", 1, _list_fn(lambda x: BOOL))
_unint_const("sorted", 1, _list_fn(lambda x: BOOL))
_unint_const("hd", 1, _list_fn(lambda x: x))
_unint_const("last", 1, _list_fn(lambda x: x))


def _prime_factors_sort(e: Inference, xs: list[PreTerm], pos: int) -> Sort:
    """HOL-Computational_Algebra: ``prime_factors :: 'a ⇒ 'a set`` on a factorial semiring —
    an unfixed type defaults to int, as for ``prime`` (computed exactly: semantics/library)."""
    for c in ("num", "intlike"):
        e.require(xs[0].sort, c, pos, "prime_factors")
    return SetSort(xs[0].sort)


_unint_const("prime_factors", 1, _prime_factors_sort)


@_const("length", 1)
def _length(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
    e.unify(xs[0].sort, ListSort(e.fresh()), pos, "length (its argument must be a list)")
    return PreApp("list_length", (xs[0],), NAT)


@_const("sum_list", 1)
def _sum_list(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
    x = e.fresh("num")
    e.unify(xs[0].sort, ListSort(x), pos, "sum_list (its argument must be a list of numbers)")
    return PreApp("list_sum", (xs[0],), x)


#: The symbol of a polynomial literal ``[:c₀, c₁, …:]`` (HOL-Computational_Algebra's
#: ``pCons c₀ (pCons c₁ …)``), read only as the first argument of ``poly``.
POLY_LITERAL = "poly_literal"


@_const("poly", 2)
def _poly(e: Inference, xs: list[PreTerm], pos: int) -> PreTerm:
    """``poly [:c₀, …, cₙ:] x`` is c₀ + c₁·x + … + cₙ·xⁿ (the value of the literal's polynomial
    at x); ``poly p`` of any other p stays the library constant, uninterpreted."""
    p, x = xs
    if not (isinstance(p, PreSym) and p.symbol == POLY_LITERAL):
        return PreSym("poly", (p, x), e.fresh())
    elem = p.args[0].sort if p.args else e.fresh("num")
    e.unify(x.sort, elem, pos, "poly [:…:] x (x has the coefficients' type)")
    total: PreTerm = PreNum(0, elem)
    for i, c in enumerate(p.args):
        term = c if i == 0 else PreApp("mul", (c, x if i == 1 else PreApp("pow", (x, PreNum(i, NAT)), elem)), elem)
        total = term if i == 0 else PreApp("add", (total, term), elem)
    return total


# --------------------------------------------------------------------------------------
# Library constants the IR does not model
# --------------------------------------------------------------------------------------

#: Constants of the HOL libraries these statements are checked against (Main, Complex_Main,
#: HOL-Analysis, HOL-Computational_Algebra, HOL-Number_Theory, HOL-Library) that have no
#: builder above. Used without ``fixes``, such a name is that constant, not a free variable:
#: reading ``range g`` or ``suminf f`` as a variable lets any interpretation refute the
#: statement, an unsound verdict. They become uninterpreted symbols (``Uninterpreted``):
#: congruence still proves ``bij f ⟷ bij f``, and no countermodel may choose their meaning.
#: A name wrongly listed here only costs refutations, never soundness.
HOL_CONSTANTS = frozenset({
    # Main: functions, sets, lists, options, orders, numbers
    "surj", "bij_betw", "inv", "inv_into", "range", "id", "the_inv",
    "map", "filter", "foldl", "foldr", "fold", "zip", "take", "drop", "concat", "replicate", "upt",
    "tl", "butlast", "remdups", "count_list", "prod_list", "sort", "sort_key", "sorted_list_of_set",
    "list_all", "list_ex", "listsum", "None", "Some", "the", "undefined",
    "Inf", "Sup", "Pow", "vimage", "Gcd", "Lcm", "arg_min", "arg_max", "is_singleton",
    "the_elem", "enumerate", "nat_of_num", "infinite", "dom", "ran", "product",
    "nth", "Domain",
    # Complex_Main: complex numbers, transcendental functions, limits, series, derivatives
    "cis", "Arg", "arg", "rcis", "csqrt", "Ln", "cot",
    "arsinh", "arcosh", "artanh", "suminf", "summable", "sums", "convergent", "LIMSEQ", "lim",
    "Lim", "limit", "prodinf", "bounded", "deriv", "DERIV", "has_derivative", "has_field_derivative",
    "has_real_derivative", "differentiable", "continuous", "continuous_on", "isCont",
    "monoseq", "incseq", "decseq", "mono", "strict_mono", "antimono", "bdd_above", "bdd_below",
    "Reals", "Ints", "Nats", "Rats", "at", "at_top", "at_bot", "nhds", "filterlim", "tendsto",
    # HOL-Analysis: vectors, matrices, measure, integration, geometry
    "det", "vector", "matrix", "transpose", "mat", "invertible", "matrix_inv", "trace", "rank",
    "cross3", "axis", "midpoint", "angle", "vangle", "collinear", "convex", "is_interval", "convex_hull",
    "closed_segment", "open_segment", "ball", "cball", "sphere", "cbox", "box", "interior",
    "closure", "frontier", "span", "dim", "measure", "emeasure", "lebesgue", "lborel",
    "content", "integral", "has_integral", "integrable_on", "lebesgue_integral",
    "set_integral", "orthogonal", "norm_vec", "row", "column", "rows", "columns",
    # HOL-Computational_Algebra / HOL-Number_Theory / HOL-Library
    "coeff", "degree", "pCons", "map_poly", "lead_coeff", "monom", "smult", "pderiv", "poly_roots",
    "order", "primes", "prime_factorization", "multiplicity",
    "totient", "cong", "ord", "residue_ring", "count", "mset", "size",
    "set_mset", "pochhammer", "harm",
})


def _identity(x: Term, sort: Sort) -> Term | None:
    """``id x`` is x (inference may have given the application a wider numeric sort)."""
    if x.sort == sort:
        return x
    if is_numeric(x.sort) and is_numeric(sort) and NUMERIC_ORDER.index(x.sort) < NUMERIC_ORDER.index(sort):
        return cast(x, sort)
    return None


def _constant(name: str, s: Sort) -> Term:
    """The library constant ``name`` at sort ``s``: HOL's sets of numbers written by name
    (``Reals``) as the set-builder their glyph (``ℝ``) gives, else an uninterpreted symbol."""
    if name in ("Ints", "Nats", "Rats", "Reals"):
        built = number_set(name, s, name)
        if built is not None:
            return built
    return Uninterpreted(name, (), s)


def as_constants(x: Any, names: dict[str, Sort]) -> Any:
    """A term (or hypothesis) with the implicit variables ``names`` (name → inferred sort)
    read as the library constants they are: ``c a₁ … aₙ`` becomes ``Uninterpreted(c, (a₁, …,
    aₙ))`` and a bare ``c`` a nullary one. ``substitute`` leaves a variable some binder binds
    alone (in Isabelle too a bound name shadows the constant)."""
    if isinstance(x, Hypothesis):
        return replace(x, formula=as_constants(x.formula, names))
    if not isinstance(x, Term):
        return x
    t = substitute(x, {Var(n, s): _constant(n, s) for n, s in names.items()})

    def applied(u: Term) -> Term | None:
        if isinstance(u, App) and u.op == "apply" and isinstance(head := u.args[0], Uninterpreted) \
                and head.symbol in names and not head.args:
            same = _identity(u.args[1], u.sort) if head.symbol == "id" and len(u.args) == 2 else None
            return same if same is not None else Uninterpreted(head.symbol, u.args[1:], u.sort)
        return None

    return map_term(t, applied)
