"""The one typed intermediate representation (IR) of formal statements.

Every frontend (Lean 4, Isabelle) produces it and every backend (evaluator, z3, cvc5, Lean
REPL) consumes it. Terms are immutable and hashable. Each operation name has exactly ONE
meaning (see ``OPS`` and docs/semantics.md); where Lean and Isabelle disagree the IR has two
operations, so a term never needs to know which language it came from.

Quick reference::

    x = Var("x", REAL)
    t = app("lt", app("add", x, num(1, REAL)), num(2, REAL))   # x + 1 < 2
    forall_([x], t)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from fractions import Fraction

# --------------------------------------------------------------------------------------
# Sorts
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Sort:
    """Base class of sorts. Compare by value; ``str`` gives a readable name."""

    def __str__(self) -> str:  # pragma: no cover - overridden
        return self.__class__.__name__


@dataclass(frozen=True)
class BaseSort(Sort):
    """Bool (Prop), Nat, Int, Rat, Real, Complex."""

    name: str

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class FunSort(Sort):
    """Total function sort ``args -> result`` (curried application is not modelled)."""

    args: tuple[Sort, ...]
    result: Sort

    def __str__(self) -> str:
        return " → ".join([*(str(a) for a in self.args), str(self.result)])


@dataclass(frozen=True)
class SetSort(Sort):
    """Sets and finite sets of ``elem`` (Lean ``Set``/``Finset``, Isabelle ``set``)."""

    elem: Sort

    def __str__(self) -> str:
        return f"Set {self.elem}"


@dataclass(frozen=True)
class ListSort(Sort):
    """Finite lists, e.g. the result of ``Nat.digits``."""

    elem: Sort

    def __str__(self) -> str:
        return f"List {self.elem}"


@dataclass(frozen=True)
class OpaqueSort(Sort):
    """A carrier the IR does not model (a group ``G``, a space ``X``, ``Type``)."""

    name: str

    def __str__(self) -> str:
        return self.name


BOOL = BaseSort("Bool")
NAT = BaseSort("Nat")
INT = BaseSort("Int")
RAT = BaseSort("Rat")
REAL = BaseSort("Real")
COMPLEX = BaseSort("Complex")
TYPE = OpaqueSort("Type")
#: ``Sort u``: a universe that contains Prop, so ``(α : Sort u)`` is not ``(α : Type*)``
#: (``Type u`` and ``Type*`` are both TYPE).
SORT = OpaqueSort("Sort")
#: Lean's ``Float`` (where untyped decimals like ``0.1 + 0.2 = 0.3`` elaborate): not modelled,
#: so a verdict that depends on its meaning is inconclusive.
FLOAT = OpaqueSort("Float")

#: Numeric sorts in the order of their canonical embeddings (ℕ ⊂ ℤ ⊂ ℚ ⊂ ℝ ⊂ ℂ).
NUMERIC_ORDER: tuple[BaseSort, ...] = (NAT, INT, RAT, REAL, COMPLEX)
FIELDS = frozenset({RAT, REAL, COMPLEX})
ORDERED = frozenset({NAT, INT, RAT, REAL})


def is_universe(s: Sort) -> bool:
    """The sort of a type variable: ``Type*`` / ``Type u`` (TYPE) or ``Sort u`` (SORT)."""
    return s == TYPE or s == SORT


def is_numeric(s: Sort) -> bool:
    return s in NUMERIC_ORDER


#: "Infinitely many" for ``known_elements``.
MANY = 1 << 30
_INFINITE_TYPES = frozenset({"NNReal", "ℝ≥0", "ENNReal", "ℝ≥0∞", "EReal", "ℕ+", "PNat", "ENat",
                             "ℕ∞", "Type", "Sort"})
_FIN = re.compile(r"^Fin (\d+)$")
_FIN_SUCC = re.compile(r"^Fin \(.+?\s*\+\s*(\d+)\)$")
_ZMOD = re.compile(r"^ZMod (\d+)$")


def known_elements(s: Sort) -> int:
    """A lower bound on the number of elements of ``s`` (0: it may be empty).

    Numbers, Prop, sets and lists are inhabited; ``Fin k`` has k elements and ``Fin (n + k)``
    at least k; ``ZMod n`` at least one (``ZMod 0`` is ℤ); ℝ≥0, ℕ+, ... infinitely many;
    a function sort is inhabited when its codomain is; an Isabelle type variable (``'a``)
    has at least one (HOL types are never empty). Everything else the IR does not model —
    a type variable ``(α : Type*)``, ``Empty``, a subtype ``{n : ℕ // n < 0}``, ``↥S`` — may be
    empty: a binder over it can be dropped by nobody, and no countermodel may invent its
    elements."""
    if s == BOOL:
        return 2
    if isinstance(s, BaseSort):
        return MANY
    if isinstance(s, (SetSort, ListSort)):
        return 1
    if isinstance(s, FunSort):
        return 1 if known_elements(s.result) >= 1 else 0
    if isinstance(s, OpaqueSort):
        name = s.name
        if name in _INFINITE_TYPES or name.startswith("'"):
            return MANY if name in _INFINITE_TYPES else 1
        m = _FIN.match(name) or _FIN_SUCC.match(name)
        if m:
            return int(m.group(1))
        m = _ZMOD.match(name)
        if m:
            return int(m.group(1)) or MANY
        if name.startswith("ZMod "):
            return 1
    return 0


def provably_inhabited(s: Sort) -> bool:
    """Whether ``s`` certainly has an element (only then may ``∀ x : s`` with ``x`` unused be
    dropped: over an empty sort it is vacuously true)."""
    return known_elements(s) >= 1


def widest(*sorts: Sort) -> Sort:
    """The widest numeric sort among ``sorts`` (where a cast from every other one exists)."""
    nums = [s for s in sorts if is_numeric(s)]
    if not nums:
        raise IRError(f"no numeric sort among {', '.join(map(str, sorts))}")
    return max(nums, key=NUMERIC_ORDER.index)


# --------------------------------------------------------------------------------------
# Terms
# --------------------------------------------------------------------------------------


class IRError(ValueError):
    """An ill-formed IR term (wrong sorts or arity). Frontends turn it into ParseError."""


@dataclass(frozen=True)
class Term:
    """Base class of terms. Every term knows its ``sort`` (a field or a property)."""

    def __str__(self) -> str:
        return show(self)


@dataclass(frozen=True)
class Var(Term):
    name: str
    sort: Sort  # type: ignore[assignment]


@dataclass(frozen=True)
class Num(Term):
    """An exact numeral: ``int`` or ``Fraction`` (a decimal ``0.5`` is ``Fraction(1, 2)``)."""

    value: int | Fraction
    sort: Sort  # type: ignore[assignment]

    def __post_init__(self) -> None:
        v = self.value
        if isinstance(v, bool) or not isinstance(v, (int, Fraction)):
            raise IRError(f"numeral value must be int or Fraction, got {v!r}")
        if isinstance(v, Fraction) and v.denominator == 1:
            object.__setattr__(self, "value", int(v))
        if not is_numeric(self.sort):
            raise IRError(f"numeral {v} cannot have sort {self.sort}")
        if self.sort in (NAT,) and self.value < 0:
            raise IRError(f"negative numeral {v} of sort Nat")
        if self.sort in (NAT, INT) and isinstance(self.value, Fraction):
            raise IRError(f"fractional numeral {v} of sort {self.sort}")


@dataclass(frozen=True)
class App(Term):
    """Application of an interpreted operation from ``OPS``; ``sort`` is the result sort."""

    op: str
    args: tuple[Term, ...]
    sort: Sort  # type: ignore[assignment]


@dataclass(frozen=True)
class Uninterpreted(Term):
    """Anything the IR does not interpret (``orderOf g``, ``IsClopen s``, ``deriv f x``).

    Still a function of its arguments: equal arguments give equal values (congruence).
    """

    symbol: str
    args: tuple[Term, ...]
    sort: Sort  # type: ignore[assignment]


QUANTIFIERS = ("forall", "exists", "exists1")


@dataclass(frozen=True)
class Quant(Term):
    """``∀``, ``∃`` or ``∃!`` over typed binders (``exists1`` takes exactly one binder)."""

    kind: str
    vars: tuple[Var, ...]
    body: Term

    @property
    def sort(self) -> Sort:
        return BOOL


@dataclass(frozen=True)
class Lam(Term):
    vars: tuple[Var, ...]
    body: Term

    @property
    def sort(self) -> Sort:
        return FunSort(tuple(v.sort for v in self.vars), self.body.sort)


BIG_OPS = ("sum", "prod")


@dataclass(frozen=True)
class BigOp(Term):
    """``∑ var ∈ domain, body`` / ``∏``; ``domain`` is a finite-set term."""

    kind: str
    var: Var
    domain: Term
    body: Term

    @property
    def sort(self) -> Sort:
        return self.body.sort


@dataclass(frozen=True)
class SetBuilder(Term):
    """``{var | body}``."""

    var: Var
    body: Term

    @property
    def sort(self) -> Sort:
        return SetSort(self.var.sort)


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


def app(op: str, *args: Term) -> App:
    """Build an application, checking arity and computing the result sort."""
    info = OPS.get(op)
    if info is None:
        raise IRError(f"unknown operation {op!r}")
    if info.arity is not None and len(args) != info.arity:
        raise IRError(f"{op} takes {info.arity} arguments, got {len(args)}")
    if op in ("and", "or") and len(args) < 2:
        raise IRError(f"{op} needs at least two arguments")
    if op in ("cast", "set_of"):
        raise IRError(f"{op} needs an explicit result sort: use cast()/app_sorted()")
    return App(op, tuple(args), info.sort_rule(tuple(a.sort for a in args)))


def app_sorted(op: str, sort: Sort, *args: Term) -> App:
    """Build an application whose result sort is not determined by its arguments."""
    if op == "set_of":
        if not isinstance(sort, SetSort) or any(a.sort != sort.elem for a in args):
            raise IRError(f"set literal of sort {sort} with elements {[str(a.sort) for a in args]}")
        return App(op, tuple(args), sort)
    if op == "cast":
        return cast(args[0], sort)  # type: ignore[return-value]
    raise IRError(f"{op} does not take an explicit sort")


def cast(t: Term, target: Sort) -> Term:
    """Canonical embedding of ``t`` into the wider numeric sort ``target``; numerals fold."""
    if t.sort == target:
        return t
    if not (is_numeric(t.sort) and is_numeric(target)):
        raise IRError(f"no cast from {t.sort} to {target}")
    if NUMERIC_ORDER.index(target) < NUMERIC_ORDER.index(t.sort):
        raise IRError(f"cast from {t.sort} down to {target} is not an embedding")
    if isinstance(t, Num):
        return Num(t.value, target)
    if isinstance(t, App) and t.op == "cast":
        return App("cast", t.args, target)
    return App("cast", (t,), target)


def num(value: int | Fraction | str, sort: Sort) -> Num:
    if isinstance(value, str):
        value = Fraction(value)
    return Num(value, sort)


TRUE = App("true", (), BOOL)
FALSE = App("false", (), BOOL)


def and_(*args: Term) -> Term:
    """n-ary conjunction, flattening nested ones; ``and_()`` is True."""
    flat: list[Term] = []
    for a in args:
        if isinstance(a, App) and a.op == "and":
            flat.extend(a.args)
        elif a != TRUE:
            flat.append(a)
    if not flat:
        return TRUE
    return flat[0] if len(flat) == 1 else app("and", *flat)


def or_(*args: Term) -> Term:
    flat: list[Term] = []
    for a in args:
        if isinstance(a, App) and a.op == "or":
            flat.extend(a.args)
        elif a != FALSE:
            flat.append(a)
    if not flat:
        return FALSE
    return flat[0] if len(flat) == 1 else app("or", *flat)


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


# --------------------------------------------------------------------------------------
# Traversal, substitution, alpha-canonical form
# --------------------------------------------------------------------------------------


def children(t: Term) -> tuple[Term, ...]:
    if isinstance(t, (App, Uninterpreted)):
        return t.args
    if isinstance(t, (Quant, Lam)):
        return (*t.vars, t.body)
    if isinstance(t, BigOp):
        return (t.var, t.domain, t.body)
    if isinstance(t, SetBuilder):
        return (t.var, t.body)
    return ()


def subterms(t: Term) -> Iterator[Term]:
    """All subterms, pre-order, iteratively (safe on deep terms)."""
    stack = [t]
    while stack:
        s = stack.pop()
        yield s
        stack.extend(reversed(children(s)))


def size(t: Term) -> int:
    return sum(1 for _ in subterms(t))


def depth(t: Term) -> int:
    best, stack = 0, [(t, 1)]
    while stack:
        s, d = stack.pop()
        best = max(best, d)
        stack.extend((c, d + 1) for c in children(s))
    return best


def _binders(t: Term) -> tuple[Var, ...]:
    if isinstance(t, (Quant, Lam)):
        return t.vars
    if isinstance(t, (BigOp, SetBuilder)):
        return (t.var,)
    return ()


def free_vars(t: Term) -> frozenset[Var]:
    if isinstance(t, Var):
        return frozenset({t})
    if isinstance(t, (Quant, Lam)):
        return free_vars(t.body) - frozenset(t.vars)
    if isinstance(t, BigOp):
        return free_vars(t.domain) | (free_vars(t.body) - {t.var})
    if isinstance(t, SetBuilder):
        return free_vars(t.body) - {t.var}
    out: frozenset[Var] = frozenset()
    for c in children(t):
        out |= free_vars(c)
    return out


def rebuild(t: Term, kids: tuple[Term, ...]) -> Term:
    """``t`` with its children replaced (same shape as ``children(t)``)."""
    if isinstance(t, App):
        return replace(t, args=kids)
    if isinstance(t, Uninterpreted):
        return replace(t, args=kids)
    if isinstance(t, (Quant, Lam)):
        return replace(t, vars=tuple(kids[:-1]), body=kids[-1])  # type: ignore[arg-type]
    if isinstance(t, BigOp):
        return replace(t, var=kids[0], domain=kids[1], body=kids[2])  # type: ignore[arg-type]
    if isinstance(t, SetBuilder):
        return replace(t, var=kids[0], body=kids[1])  # type: ignore[arg-type]
    return t


def substitute(t: Term, mapping: dict[Var, Term]) -> Term:
    """Capture-avoiding substitution of free variables."""
    if not mapping:
        return t
    if isinstance(t, Var):
        return mapping.get(t, t)
    bound = _binders(t)
    if bound:
        inner = {k: v for k, v in mapping.items() if k not in bound}
        incoming = frozenset().union(*(free_vars(v) for v in inner.values())) if inner else frozenset()
        renames: dict[Var, Term] = {}
        taken = {v.name for v in incoming} | {v.name for v in free_vars(t)}
        for b in bound:
            if b in incoming:
                fresh = fresh_name(b.name, taken)
                taken.add(fresh)
                renames[b] = Var(fresh, b.sort)
        inner_all = {**inner, **renames}
        if isinstance(t, BigOp):
            return replace(
                t,
                var=renames.get(t.var, t.var),  # type: ignore[arg-type]
                domain=substitute(t.domain, mapping),
                body=substitute(t.body, inner_all),
            )
        new_vars = tuple(renames.get(b, b) for b in bound)
        body = substitute(t.body, inner_all)  # type: ignore[attr-defined]
        if isinstance(t, SetBuilder):
            return replace(t, var=new_vars[0], body=body)  # type: ignore[arg-type]
        return replace(t, vars=new_vars, body=body)  # type: ignore[arg-type]
    kids = children(t)
    if not kids:
        return t
    return rebuild(t, tuple(substitute(c, mapping) for c in kids))


def fresh_name(base: str, taken: set[str] | frozenset[str]) -> str:
    i = 1
    while f"{base}_{i}" in taken:
        i += 1
    return f"{base}_{i}"


def symbol_names(t: Term) -> frozenset[str]:
    """Symbols of the ``Uninterpreted`` subterms of ``t``."""
    return frozenset(s.symbol for s in subterms(t) if isinstance(s, Uninterpreted))


def rename_apart(t: Term, avoid: frozenset[str] | set[str], mapping: dict[Var, Var] | None = None) -> Term:
    """``t`` with every bound variable named in ``avoid`` renamed to a fresh name, and free
    variables renamed by ``mapping``. Used so that a variable never shares its name with an
    uninterpreted symbol (``(padicValNat : ℕ → ℕ → ℕ)`` beside Mathlib's ``padicValNat``):
    solvers, the evaluator and printers name both by their text."""
    taken = set(avoid) | {v.name for v in subterms(t) if isinstance(v, Var)}
    if mapping:
        taken |= {v.name for v in mapping.values()}
    return _apart(t, frozenset(avoid), dict(mapping or {}), taken)


def _apart(t: Term, avoid: frozenset[str], env: dict[Var, Var], taken: set[str]) -> Term:
    def rename(b: Var, i: int, depth: int) -> Var:
        if b.name not in avoid:
            return b
        nb = Var(fresh_name(b.name, taken), b.sort)
        taken.add(nb.name)
        return nb

    return _rebind(t, env, rename, 0)  # type: ignore[arg-type]


def _rebind(t: Term, env: dict[Var, Term], rename: Callable[[Var, int, int], Var], depth: int) -> Term:
    """``t`` with free variables replaced by ``env`` and each binder's variables renamed by
    ``rename(var, position, depth)`` (capture-free: each binder gets its own names)."""
    if isinstance(t, Var):
        return env.get(t, t)
    bound = _binders(t)
    if bound:
        inner = dict(env)
        fresh = []
        for i, b in enumerate(bound):
            nv = rename(b, i, depth)
            inner[b] = nv
            fresh.append(nv)
        if isinstance(t, BigOp):
            return replace(t, var=fresh[0], domain=_rebind(t.domain, env, rename, depth),
                           body=_rebind(t.body, inner, rename, depth + 1))
        body = _rebind(t.body, inner, rename, depth + 1)  # type: ignore[attr-defined]
        if isinstance(t, SetBuilder):
            return replace(t, var=fresh[0], body=body)
        return replace(t, vars=tuple(fresh), body=body)  # type: ignore[arg-type]
    kids = children(t)
    if not kids:
        return t
    return rebuild(t, tuple(_rebind(c, env, rename, depth) for c in kids))


def map_term(t: Term, fn: Callable[[Term], Term | None]) -> Term:
    """Bottom-up rewrite: ``fn`` returns a replacement or None to keep the node."""
    kids = children(t)
    if kids:
        t = rebuild(t, tuple(map_term(c, fn) for c in kids))
    out = fn(t)
    return t if out is None else out


def canonical(t: Term, free_prefix: str | None = None) -> Term:
    """Alpha-canonical form: each bound variable renamed by its binder depth and position
    (``_b<depth>.<i>``, de Bruijn levels). The canonical form of a subterm does not depend on
    its siblings, so reordering the operands of ``∧`` after canonicalizing stays stable.

    With ``free_prefix`` the free variables are renamed too (``_v0, …`` in order of first
    occurrence), which makes the hash invariant under renaming a whole statement.
    """
    free_map: dict[Var, Term] = {}
    if free_prefix is not None:
        fv = free_vars(t)
        for s in subterms(t):
            if isinstance(s, Var) and s in fv and s not in free_map:
                free_map[s] = Var(f"{free_prefix}{len(free_map)}", s.sort)
    return _canon(t, free_map, 0)


def _canon(t: Term, env: dict[Var, Term], depth: int) -> Term:
    return _rebind(t, env, lambda b, i, d: Var(f"_b{d}.{i}", b.sort), depth)


def has_uninterpreted(t: Term) -> bool:
    return any(isinstance(s, Uninterpreted) for s in subterms(t))


# --------------------------------------------------------------------------------------
# Statements
# --------------------------------------------------------------------------------------

BINDER_STYLES = ("explicit", "implicit", "strict_implicit", "instance")


@dataclass(frozen=True)
class VarBinder:
    """A theorem variable ``(x : ℝ)`` / ``{n : ℕ}`` / Isabelle ``fixes x :: real``."""

    var: Var
    style: str = "explicit"
    #: the binder's type as written (``ℝ`` for ``(x y : ℝ)``) when it came from Lean text,
    #: else ""; not part of equality (the Lean backend renders obligations from it)
    source: str = field(default="", compare=False)


@dataclass(frozen=True)
class Hypothesis:
    """A named premise ``(h₀ : 0 < x)`` / ``assumes h0: "0 < x"``; instance binders
    ``[Group G]`` are hypotheses with style ``instance`` and an Uninterpreted formula."""

    name: str | None
    formula: Term
    style: str = "explicit"
    #: the proposition as written (``0 < x``, ``Group G``) when it came from Lean text, else ""
    source: str = field(default="", compare=False)


Binder = VarBinder | Hypothesis


@dataclass(frozen=True)
class Statement:
    """A parsed theorem statement: ordered binders (variables and hypotheses interleaved,
    as written, so dependency order is kept) and a conclusion.

    ``source``/``header`` keep the original text for printers and the Lean backend;
    ``notes`` records frontend decisions a user should know (defaulted polymorphic sorts).
    """

    binders: tuple[Binder, ...]
    conclusion: Term
    language: str = "lean4"
    name: str | None = None
    header: str = ""
    source: str = field(default="", compare=False)
    notes: tuple[str, ...] = field(default=(), compare=False)
    defines: tuple[tuple[Var, Term], ...] = ()
    #: the conclusion as written when it came from Lean text, else "" (not part of equality)
    conclusion_source: str = field(default="", compare=False)

    @property
    def variables(self) -> tuple[Var, ...]:
        return tuple(b.var for b in self.binders if isinstance(b, VarBinder))

    @property
    def hypotheses(self) -> tuple[Hypothesis, ...]:
        return tuple(b for b in self.binders if isinstance(b, Hypothesis))

    def as_formula(self) -> Term:
        """The closed formula ``∀ vars, hyps → conclusion`` (binders kept in order)."""
        body = self.conclusion
        for b in reversed(self.binders):
            if isinstance(b, VarBinder):
                if is_universe(b.var.sort):
                    continue
                body = Quant("forall", (b.var,), body)
            else:
                body = app("implies", b.formula, body)
        return body

    def terms(self) -> Iterator[Term]:
        for b in self.binders:
            if isinstance(b, Hypothesis):
                yield b.formula
        yield self.conclusion

    def has_uninterpreted(self) -> bool:
        return any(has_uninterpreted(t) for t in self.terms())

    def canonical_key(self) -> str:
        """Hash key invariant under renaming of variables, hypotheses and bound variables."""
        return repr(canonical(self.as_formula(), free_prefix="_v"))


# --------------------------------------------------------------------------------------
# Neutral printing (debugging, error messages, certificates)
# --------------------------------------------------------------------------------------

_INFIX = {
    "add": "+", "sub": "-", "mul": "*", "div": "/", "mod": "%", "ediv": "/ₑ", "emod": "%ₑ",
    "fdiv": "div", "fmod": "mod", "pow": "^", "zpow": "^", "rpow": "^ᵣ", "powr": "powr",
    "eq": "=", "ne": "≠", "lt": "<", "le": "≤", "gt": ">", "ge": "≥", "and": "∧", "or": "∨",
    "implies": "→", "iff": "↔", "mem": "∈", "subset": "⊆", "union": "∪", "inter": "∩",
    "dvd": "∣", "setdiff": "\\",
}


def show(t: Term) -> str:
    """A compact, language-neutral rendering (fully parenthesized, unambiguous)."""
    if isinstance(t, Var):
        return t.name
    if isinstance(t, Num):
        v = t.value
        return f"({v} : {t.sort})" if isinstance(v, Fraction) or t.sort != NAT else str(v)
    if isinstance(t, App):
        if t.op in _INFIX and len(t.args) >= 2:
            return "(" + f" {_INFIX[t.op]} ".join(show(a) for a in t.args) + ")"
        if t.op == "cast":
            return f"(↑{show(t.args[0])} : {t.sort})"
        if t.op == "not":
            return f"¬{show(t.args[0])}"
        if not t.args:
            return t.op
        return f"{t.op}(" + ", ".join(show(a) for a in t.args) + ")"
    if isinstance(t, Uninterpreted):
        return f"?{t.symbol}(" + ", ".join(show(a) for a in t.args) + ")"
    if isinstance(t, Quant):
        q = {"forall": "∀", "exists": "∃", "exists1": "∃!"}[t.kind]
        vs = " ".join(f"({v.name} : {v.sort})" for v in t.vars)
        return f"({q} {vs}, {show(t.body)})"
    if isinstance(t, Lam):
        vs = " ".join(f"({v.name} : {v.sort})" for v in t.vars)
        return f"(fun {vs} => {show(t.body)})"
    if isinstance(t, BigOp):
        s = "∑" if t.kind == "sum" else "∏"
        return f"({s} {t.var.name} ∈ {show(t.domain)}, {show(t.body)})"
    if isinstance(t, SetBuilder):
        return f"{{{t.var.name} : {t.var.sort} | {show(t.body)}}}"
    return repr(t)


def show_statement(st: Statement) -> str:
    parts = []
    for b in st.binders:
        if isinstance(b, VarBinder):
            parts.append(f"({b.var.name} : {b.var.sort})")
        else:
            parts.append(f"({b.name or '_'} : {show(b.formula)})")
    return " ".join(parts) + " ⊢ " + show(st.conclusion)
