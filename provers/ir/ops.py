"""The operation table ``OPS``: one meaning (and one sort rule) per operation name, and the
constructors that check it (``app``, ``cast``, ``num``, ``and_`` ...)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from provers.errors import IRError
from provers.ir.sorts import (
    BOOL,
    COMPLEX,
    FIELDS,
    INT,
    NAT,
    NUMERIC_ORDER,
    ORDERED,
    RAT,
    REAL,
    FunSort,
    ListSort,
    SetSort,
    Sort,
    is_numeric,
)
from provers.ir.terms import App, Num, Quant, Term, Uninterpreted, Var

# --------------------------------------------------------------------------------------
# Operations: one meaning per name
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class OpInfo:
    """What an operation means. ``arity`` None = variadic. ``sort_rule`` computes the result
    sort from argument sorts and raises IRError when they do not fit."""

    name: str
    arity: int | None
    meaning: str
    sort_rule: Callable[[tuple[Sort, ...]], Sort] = field(repr=False, compare=False)


def _same_numeric(allowed: frozenset[Sort] | None = None) -> Callable[[tuple[Sort, ...]], Sort]:
    def rule(sorts: tuple[Sort, ...]) -> Sort:
        if not sorts or any(s != sorts[0] for s in sorts):
            raise IRError(f"arguments must share one sort, got {', '.join(map(str, sorts))}")
        s = sorts[0]
        if not is_numeric(s) or (allowed is not None and s not in allowed):
            raise IRError(f"sort {s} not allowed here")
        return s

    return rule


def _pred_same(allowed: frozenset[Sort] | None = None) -> Callable[[tuple[Sort, ...]], Sort]:
    inner = _same_numeric(allowed)

    def rule(sorts: tuple[Sort, ...]) -> Sort:
        inner(sorts)
        return BOOL

    return rule


def _eq_rule(sorts: tuple[Sort, ...]) -> Sort:
    if sorts[0] != sorts[1]:
        raise IRError(f"cannot compare {sorts[0]} with {sorts[1]}")
    return BOOL


def _bools(sorts: tuple[Sort, ...]) -> Sort:
    if any(s != BOOL for s in sorts):
        raise IRError("logical connective applied to a non-proposition")
    return BOOL


def _const(result: Sort) -> Callable[[tuple[Sort, ...]], Sort]:
    return lambda sorts: result


def _fixed(args: tuple[Sort, ...], result: Sort) -> Callable[[tuple[Sort, ...]], Sort]:
    def rule(sorts: tuple[Sort, ...]) -> Sort:
        if tuple(sorts) != args:
            raise IRError(
                f"expected ({', '.join(map(str, args))}), got ({', '.join(map(str, sorts))})"
            )
        return result

    return rule


def _to(result: Sort, allowed: frozenset[Sort]) -> Callable[[tuple[Sort, ...]], Sort]:
    def rule(sorts: tuple[Sort, ...]) -> Sort:
        if any(s not in allowed for s in sorts):
            raise IRError(f"argument sort {', '.join(map(str, sorts))} not allowed here")
        return result

    return rule


def _pow_rule(sorts: tuple[Sort, ...]) -> Sort:
    if not is_numeric(sorts[0]) or sorts[1] != NAT:
        raise IRError(f"x ^ n needs a numeric base and a Nat exponent, got {sorts}")
    return sorts[0]


def _zpow_rule(sorts: tuple[Sort, ...]) -> Sort:
    if sorts[0] not in FIELDS or sorts[1] != INT:
        raise IRError(f"zpow needs a field base and an Int exponent, got {sorts}")
    return sorts[0]


def _apply_rule(sorts: tuple[Sort, ...]) -> Sort:
    f = sorts[0]
    if not isinstance(f, FunSort) or tuple(sorts[1:]) != f.args:
        raise IRError(f"cannot apply {f} to ({', '.join(map(str, sorts[1:]))})")
    return f.result


def _set_elem(sorts: tuple[Sort, ...]) -> Sort:
    if not isinstance(sorts[1], SetSort) or sorts[1].elem != sorts[0]:
        raise IRError(f"membership of {sorts[0]} in {sorts[1]}")
    return BOOL


def _sets_same(result: Sort | None) -> Callable[[tuple[Sort, ...]], Sort]:
    def rule(sorts: tuple[Sort, ...]) -> Sort:
        if not all(isinstance(s, SetSort) for s in sorts) or len(set(sorts)) != 1:
            raise IRError(f"set operation on {', '.join(map(str, sorts))}")
        return result or sorts[0]

    return rule


def _interval(sorts: tuple[Sort, ...]) -> Sort:
    if sorts[0] != sorts[1] or sorts[0] not in ORDERED:
        raise IRError(f"interval bounds of sorts {sorts}")
    return SetSort(sorts[0])


def _set_literal(sorts: tuple[Sort, ...]) -> Sort:
    if len(set(sorts)) > 1:
        raise IRError(f"set literal mixes {', '.join(map(str, sorts))}")
    raise IRError("empty set literal needs an explicit sort; use app_sorted")


def _ite(sorts: tuple[Sort, ...]) -> Sort:
    if sorts[0] != BOOL or sorts[1] != sorts[2]:
        raise IRError(f"if-then-else on {sorts}")
    return sorts[1]


def _card(sorts: tuple[Sort, ...]) -> Sort:
    if not isinstance(sorts[0], SetSort):
        raise IRError(f"card of a non-set {sorts[0]}")
    return NAT


def _list_sum(sorts: tuple[Sort, ...]) -> Sort:
    if not isinstance(sorts[0], ListSort) or not is_numeric(sorts[0].elem):
        raise IRError(f"sum of {sorts[0]}")
    return sorts[0].elem


def _image(sorts: tuple[Sort, ...]) -> Sort:
    f, s = sorts
    if not isinstance(f, FunSort) or not isinstance(s, SetSort) or f.args != (s.elem,):
        raise IRError(f"image of {s} under {f}")
    return SetSort(f.result)


def _filter(sorts: tuple[Sort, ...]) -> Sort:
    p, s = sorts
    if not isinstance(s, SetSort) or p != FunSort((s.elem,), BOOL):
        raise IRError(f"filter of {s} by {p}")
    return s


_ORD = frozenset(ORDERED)
_NUM = frozenset(NUMERIC_ORDER)
_REALISH = frozenset({RAT, REAL})
_NATINT = frozenset({NAT, INT})
_ANY_NUMERIC = frozenset(NUMERIC_ORDER)

OPS: dict[str, OpInfo] = {}


def _op(name: str, arity: int | None, meaning: str, rule: Callable) -> None:
    OPS[name] = OpInfo(name, arity, meaning, rule)


# logic
_op("true", 0, "True", _const(BOOL))
_op("false", 0, "False", _const(BOOL))
_op("not", 1, "¬p", _bools)
_op("and", None, "conjunction (n-ary, ≥ 2 args)", _bools)
_op("or", None, "disjunction (n-ary, ≥ 2 args)", _bools)
_op("implies", 2, "p → q", _bools)
_op("iff", 2, "p ↔ q", _bools)
_op("ite", 3, "if c then a else b", _ite)
# relations
_op("eq", 2, "a = b (any sort)", _eq_rule)
_op("ne", 2, "a ≠ b (any sort)", _eq_rule)
_op("lt", 2, "a < b (ordered numeric sorts)", _pred_same(_ORD))
_op("le", 2, "a ≤ b", _pred_same(_ORD))
_op("gt", 2, "a > b", _pred_same(_ORD))
_op("ge", 2, "a ≥ b", _pred_same(_ORD))
# arithmetic
_op("add", 2, "a + b", _same_numeric())
_op("mul", 2, "a * b", _same_numeric())
_op("neg", 1, "-a (Int and fields; never Nat)", _same_numeric(frozenset({INT, RAT, REAL, COMPLEX})))
_op("sub", 2, "a - b; on Nat truncated at 0 (Lean and Isabelle agree)", _same_numeric())
_op("div", 2, "a / b: on Nat floor division with a / 0 = 0; in a field a / 0 = 0. Never on Int: use ediv/fdiv", _same_numeric(frozenset({NAT, RAT, REAL, COMPLEX})))
_op("mod", 2, "a % b on Nat; a % 0 = a", _same_numeric(frozenset({NAT})))
_op("ediv", 2, "Lean Int.ediv (Euclidean: remainder ≥ 0); x / 0 = 0", _same_numeric(frozenset({INT})))
_op("emod", 2, "Lean Int.emod, 0 ≤ r < |b|; x % 0 = x", _same_numeric(frozenset({INT})))
_op("fdiv", 2, "Isabelle div on int: floor(a / b); x div 0 = 0", _same_numeric(frozenset({INT})))
_op("fmod", 2, "Isabelle mod on int: sign of divisor; x mod 0 = x", _same_numeric(frozenset({INT})))
_op("inv", 1, "x⁻¹ in a field, 0⁻¹ = 0", _same_numeric(frozenset({RAT, REAL, COMPLEX})))
_op("pow", 2, "x ^ n, n : Nat (monoid power, 0 ^ 0 = 1)", _pow_rule)
_op("zpow", 2, "x ^ n, n : Int in a field; x ^ (-n) = (x ^ n)⁻¹", _zpow_rule)
_op("rpow", 2, "Mathlib Real.rpow x ^ y (x > 0: exp(y log x); 0 ^ 0 = 1, 0 ^ y = 0; x < 0: exp(y log|x|) cos(yπ))", _fixed((REAL, REAL), REAL))
_op("powr", 2, "Isabelle x powr y: 0 if x = 0, else exp(y ln x)", _fixed((REAL, REAL), REAL))
_op("abs", 1, "|x| (Complex.abs is cabs)", _same_numeric(frozenset({INT, RAT, REAL})))
_op("cabs", 1, "complex modulus, a Real", _fixed((COMPLEX,), REAL))
_op("min", 2, "min a b", _same_numeric(_ORD))
_op("max", 2, "max a b", _same_numeric(_ORD))
_op("sign", 1, "sign x ∈ {-1, 0, 1}", _same_numeric(frozenset({INT, RAT, REAL})))
# casts and conversions
_op("cast", 1, "canonical embedding ℕ → ℤ → ℚ → ℝ → ℂ (result sort on the node)", _const(REAL))
_op("floor", 1, "⌊x⌋ : Int", _to(INT, _REALISH | _NATINT))
_op("ceil", 1, "⌈x⌉ : Int", _to(INT, _REALISH | _NATINT))
_op("nat_floor", 1, "⌊x⌋₊ : Nat, 0 for x < 0", _to(NAT, _REALISH))
_op("nat_ceil", 1, "⌈x⌉₊ : Nat, 0 for x ≤ 0", _to(NAT, _REALISH))
_op("round", 1, "Mathlib round: ⌊x + 1/2⌋ (halves round up)", _to(INT, _REALISH))
_op("to_nat", 1, "Int.toNat: max x 0; Isabelle nat", _fixed((INT,), NAT))
_op("nat_abs", 1, "Int.natAbs", _fixed((INT,), NAT))
_op("frac", 1, "Int.fract x = x - ⌊x⌋", _same_numeric(_REALISH))
# real analysis
_op("sqrt", 1, "Mathlib Real.sqrt: √x for x ≥ 0, 0 for x < 0", _fixed((REAL,), REAL))
_op("signed_sqrt", 1, "Isabelle sqrt: sign(x)·√|x|", _fixed((REAL,), REAL))
_op("root", 2, "Isabelle root n x: real n-th root, odd extension, root 0 x = 0", _fixed((NAT, REAL), REAL))
_op("exp", 1, "exp x", _fixed((REAL,), REAL))
_op("log", 1, "Mathlib Real.log: log|x|, log 0 = 0", _fixed((REAL,), REAL))
_op("logb", 2, "Mathlib Real.logb b x = log x / log b", _fixed((REAL, REAL), REAL))
_op("ln", 1, "Isabelle ln: natural log for x > 0, unspecified (a fixed unknown) for x ≤ 0", _fixed((REAL,), REAL))
_op("isa_log", 2, "Isabelle log b x = ln x / ln b", _fixed((REAL, REAL), REAL))
for _f in ("sin", "cos", "tan", "arctan", "sinh", "cosh", "tanh"):
    _op(_f, 1, f"Mathlib/Isabelle {_f} on ℝ (tan x = sin x / cos x, so tan(π/2) = 0)", _fixed((REAL,), REAL))
_op("arcsin", 1, "Mathlib Real.arcsin: inverse of sin on [-1, 1], clamped outside (arcsin x = π/2 for x ≥ 1, -π/2 for x ≤ -1)", _fixed((REAL,), REAL))
_op("arccos", 1, "Mathlib Real.arccos = π/2 - arcsin x (0 for x ≥ 1, π for x ≤ -1)", _fixed((REAL,), REAL))
_op("isa_arcsin", 1, "Isabelle arcsin: inverse of sin on [-1, 1]; unspecified (a fixed unknown) outside", _fixed((REAL,), REAL))
_op("isa_arccos", 1, "Isabelle arccos: inverse of cos on [-1, 1]; unspecified (a fixed unknown) outside", _fixed((REAL,), REAL))
_op("pi", 0, "π", _const(REAL))
# complex
_op("I", 0, "imaginary unit", _const(COMPLEX))
_op("re", 1, "real part", _fixed((COMPLEX,), REAL))
_op("im", 1, "imaginary part", _fixed((COMPLEX,), REAL))
_op("conj", 1, "complex conjugate", _fixed((COMPLEX,), COMPLEX))
# number theory
_op("fact", 1, "n !", _fixed((NAT,), NAT))
_op("choose", 2, "Nat.choose n k (0 when k > n)", _fixed((NAT, NAT), NAT))
_op("gcd", 2, "gcd (≥ 0; gcd 0 0 = 0)", _same_numeric(_NATINT))
_op("lcm", 2, "lcm (≥ 0; lcm x 0 = 0)", _same_numeric(_NATINT))
_op("dvd", 2, "a ∣ b: ∃ c, b = a * c (so 0 ∣ 0, and 0 ∣ b only for b = 0)", _pred_same(_NATINT))
_op("prime", 1, "Nat.Prime / prime (on Int: |p| prime — Isabelle prime on int needs p > 0)", _pred_same(_NATINT))
_op("even", 1, "Even n", _pred_same(_NATINT))
_op("odd", 1, "Odd n", _pred_same(_NATINT))
_op("digits", 2, "Nat.digits b n: little-endian digits (b ≥ 2)", _fixed((NAT, NAT), ListSort(NAT)))
_op("list_sum", 1, "sum of a list", _list_sum)
_op("list_length", 1, "length of a list", lambda s: NAT)
# functions and sets
_op("apply", None, "f x₁ … xₙ for a function-sorted term f", _apply_rule)
_op("mem", 2, "x ∈ S", _set_elem)
_op("subset", 2, "S ⊆ T", _sets_same(BOOL))
_op("union", 2, "S ∪ T", _sets_same(None))
_op("inter", 2, "S ∩ T", _sets_same(None))
_op("setdiff", 2, "S \\ T", _sets_same(None))
_op("set_of", None, "finite set literal {a, b, c} (node sort gives the element sort)", _set_literal)
_op("range", 1, "Finset.range n = {0, …, n-1}", _fixed((NAT,), SetSort(NAT)))
_op("Icc", 2, "[a, b]", _interval)
_op("Ico", 2, "[a, b)", _interval)
_op("Ioc", 2, "(a, b]", _interval)
_op("Ioo", 2, "(a, b)", _interval)
_op("card", 1, "number of elements of a finite set (Finset.card, Isabelle card; 0 if infinite)", _card)
_op("image", 2, "f '' S / Finset.image f S", _image)
_op("filter", 2, "Finset.filter p S", _filter)
_op("divisors", 1, "Nat.divisors n (empty for n = 0)", _fixed((NAT,), SetSort(NAT)))
_op("finite", 1, "S is finite", lambda s: BOOL)


# --------------------------------------------------------------------------------------
# Op families: sets of operations several consumers treat alike (declared here, once)
# --------------------------------------------------------------------------------------

#: Propositional connectives.
CONNECTIVES = frozenset({"not", "and", "or", "implies", "iff"})
#: Binary relations between two operands of one sort (equality at any sort, order on numbers).
RELATION_OPS = ("eq", "ne", "lt", "le", "gt", "ge")
#: The order relations (ordered numeric sorts).
ORDER_OPS = frozenset({"lt", "le", "gt", "ge"})
#: The relation that holds with the operands swapped: ``a < b`` iff ``b > a``.
DUAL = {"eq": "eq", "ne": "ne", "lt": "gt", "gt": "lt", "le": "ge", "ge": "le"}
#: ``>``/``≥`` read as ``<``/``≤`` with the operands swapped.
FLIPPED = {"gt": "lt", "ge": "le"}
#: The relation whose atom on the same operands is the other's negation (a linear order:
#: ``¬(a < b)`` is ``a ≥ b``).
NEGATED = {"eq": "ne", "ne": "eq", "lt": "ge", "ge": "lt", "le": "gt", "gt": "le"}
#: The order relation of the same direction with the other strictness: ``<`` ↔ ``≤``.
STRICTNESS = {"lt": "le", "le": "lt", "gt": "ge", "ge": "gt"}
#: Operations whose arguments commute (``and``/``or`` are n-ary: any order).
COMMUTATIVE = frozenset({"add", "mul", "and", "or", "eq", "ne", "iff", "gcd", "lcm", "min", "max",
                         "union", "inter"})
#: Field and ring arithmetic on one sort: ``+ * - neg / ⁻¹`` (Nat ``-`` truncated, ``x / 0 = 0``).
ARITHMETIC = frozenset({"add", "mul", "neg", "sub", "div", "inv"})
#: Integer division and remainder in their language-specific flavours (``x / 0 = 0``, ``x % 0 = x``).
INT_DIVISION = frozenset({"mod", "ediv", "emod", "fdiv", "fmod"})
#: Rounding to an integer: ``⌊x⌋ ⌈x⌉ ⌊x⌋₊ ⌈x⌉₊ round``.
ROUNDING = frozenset({"floor", "ceil", "nat_floor", "nat_ceil", "round"})
#: Real functions of one real argument (evaluated with mpmath where not rational).
ANALYTIC = frozenset({"sqrt", "signed_sqrt", "exp", "log", "ln", "sin", "cos", "tan", "arcsin",
                      "arccos", "isa_arcsin", "isa_arccos", "arctan", "sinh", "cosh", "tanh"})
#: Bounded intervals ``[a, b]``, ``[a, b)``, ``(a, b]``, ``(a, b)``.
INTERVALS = ("Icc", "Ico", "Ioc", "Ioo")
#: Binary set operations ``∪ ∩ \\``.
SET_OPS = frozenset({"union", "inter", "setdiff"})
#: Operations whose value is a set.
SET_FORMERS = frozenset({"set_of", "range", *INTERVALS, *SET_OPS, "image", "filter", "divisors"})
#: Isabelle's meanings where Lean's differ (no Lean/Mathlib function means the same).
ISABELLE_ONLY = frozenset({"powr", "signed_sqrt", "root", "ln", "isa_log", "isa_arcsin",
                           "isa_arccos"})

# --------------------------------------------------------------------------------------
# Checking constructors: the only way application nodes are built
# --------------------------------------------------------------------------------------


def with_arguments(t: App, args: tuple[Term, ...]) -> App:
    """``t`` with its arguments replaced by terms of the same sorts, unchecked: for the walks
    that rebuild a term around substituted or renamed children (``traverse.rebuild``)."""
    return App(t.op, args, t.sort)


def app(op: str, *args: Term) -> App:
    """Build an application, checking arity and computing the result sort."""
    info = _known(op, args)
    if op in _EXPLICIT_SORT:
        raise IRError(f"{op} needs an explicit result sort: use cast()/app_sorted()")
    return App(op, tuple(args), info.sort_rule(tuple(a.sort for a in args)))


def app_sorted(op: str, sort: Sort, *args: Term) -> App:
    """Build exactly the application ``op(args) : sort``, checking that ``sort`` is the one
    the operation's rule gives (``cast`` and ``set_of`` take their result sort from here:
    a cast must be an embedding, a set literal's elements must have the element sort)."""
    info = _known(op, args)
    if op == "set_of":
        if not isinstance(sort, SetSort) or any(a.sort != sort.elem for a in args):
            raise IRError(f"set literal of sort {sort} with elements {[str(a.sort) for a in args]}")
    elif op == "cast":
        _check_embedding(args[0].sort, sort)
    elif info.sort_rule(tuple(a.sort for a in args)) != sort:
        raise IRError(f"{op}({', '.join(str(a.sort) for a in args)}) is not of sort {sort}")
    return App(op, tuple(args), sort)


#: Operations whose result sort is not a function of their argument sorts.
_EXPLICIT_SORT = frozenset({"cast", "set_of"})


def _known(op: str, args: tuple[Term, ...]) -> OpInfo:
    info = OPS.get(op)
    if info is None:
        raise IRError(f"unknown operation {op!r}")
    if info.arity is not None and len(args) != info.arity:
        raise IRError(f"{op} takes {info.arity} arguments, got {len(args)}")
    if op in ("and", "or") and len(args) < 2:
        raise IRError(f"{op} needs at least two arguments")
    return info


def _check_embedding(source: Sort, target: Sort) -> None:
    if not (is_numeric(source) and is_numeric(target)):
        raise IRError(f"no cast from {source} to {target}")
    if NUMERIC_ORDER.index(target) <= NUMERIC_ORDER.index(source):
        raise IRError(f"cast from {source} to {target} is not a strict embedding")


def cast(t: Term, target: Sort) -> Term:
    """Canonical embedding of ``t`` into the wider numeric sort ``target``; numerals fold."""
    if t.sort == target:
        return t
    _check_embedding(t.sort, target)
    if isinstance(t, Num):
        return Num(t.value, target)
    if isinstance(t, App) and t.op == "cast":
        return app_sorted("cast", target, t.args[0])
    return app_sorted("cast", target, t)


def num(value: int | Fraction | str, sort: Sort) -> Num:
    if isinstance(value, str):
        value = Fraction(value)
    return Num(value, sort)


TRUE = App("true", (), BOOL)
FALSE = App("false", (), BOOL)


def _flat(op: str, unit: Term, args: tuple[Term, ...]) -> Term:
    """n-ary ``op`` (``and``/``or``), flattening nested ones and dropping its unit."""
    flat: list[Term] = []
    for a in args:
        if isinstance(a, App) and a.op == op:
            flat.extend(a.args)
        elif a != unit:
            flat.append(a)
    if not flat:
        return unit
    return flat[0] if len(flat) == 1 else app(op, *flat)


def and_(*args: Term) -> Term:
    """n-ary conjunction, flattening nested ones; ``and_()`` is True."""
    return _flat("and", TRUE, args)


def or_(*args: Term) -> Term:
    """n-ary disjunction, flattening nested ones; ``or_()`` is False."""
    return _flat("or", FALSE, args)


def implies(p: Term, q: Term) -> Term:
    return app("implies", p, q)


def not_(p: Term) -> Term:
    return app("not", p)


def forall_(vars: list[Var] | tuple[Var, ...], body: Term) -> Term:
    return Quant("forall", tuple(vars), body) if vars else body


def exists_(vars: list[Var] | tuple[Var, ...], body: Term) -> Term:
    return Quant("exists", tuple(vars), body) if vars else body


def uninterpreted(symbol: str, args: tuple[Term, ...] | list[Term], sort: Sort) -> Uninterpreted:
    return Uninterpreted(symbol, tuple(args), sort)


#: Digest suffix of a symbol that names a definition by its text (``f@0123456789ab``).
_DIGEST = re.compile(r"@[0-9a-f]{12}")


def display_symbol(symbol: str) -> str:
    """A symbol (or opaque sort name) as people write it: without definition digests."""
    return _DIGEST.sub("", symbol)
