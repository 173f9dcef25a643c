"""The values IR terms evaluate to, and the values an assignment gives variables.

* ``bool``; ``int`` (Nat, Int); ``Fraction`` or ``int`` (Rat, Real); ``ExactComplex``;
* ``Approx`` – a real or complex number computed with mpmath at ``PRECISION_DPS`` digits
  (sqrt 2, exp 1, π, ...); ``ApproxBool`` – a truth value decided on approximate numbers
  whose difference exceeded the tolerance ``TOLERANCE`` (reliable in practice, not exact);
* ``frozenset`` (finite sets), ``PredSet`` (sets known only by membership), ``tuple`` (lists),
  ``FunTable`` (finite table with a default), ``Closure`` (a lambda), ``Opaque`` elements;
* ``Witness`` – a variable's value given by a closed term (substituted before evaluation);
* ``Undetermined(reason)`` – the evaluator cannot decide (unbounded quantifier, comparison
  of approximate values within the tolerance, Isabelle ``ln`` at x ≤ 0, missing table...).

Why exact and approximate values are different types: a countermodel counts only when the
evaluator is exactly sure, so an approximate answer must never pass for an exact one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath

from provers.ir import Sort, Term, Var, free_vars, show, substitute

#: Decimal digits mpmath works with for transcendental values.
PRECISION_DPS = 50
#: Approximate values closer than this (relative to max(1, |a|, |b|)) compare as undecided.
TOLERANCE = Fraction(1, 10**30)

#: The mpmath context of every approximate value (its own precision, independent of mpmath.mp).
MP = mpmath.MPContext()
MP.dps = PRECISION_DPS
#: ``TOLERANCE`` as an mpmath number.
MP_TOLERANCE = MP.mpf(TOLERANCE.numerator) / TOLERANCE.denominator

#: Any value (see the module docstring).
Value = Any


class Undecided(Exception):
    """Raised inside an evaluation when a value cannot be determined; surfaces as
    ``Undetermined``."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Undetermined:
    reason: str

    def __bool__(self) -> bool:
        raise TypeError(f"undetermined truth value ({self.reason})")


@dataclass(frozen=True)
class Approx:
    """A number known to ``PRECISION_DPS`` digits (mpf or mpc), never treated as exact."""

    value: Any

    def __repr__(self) -> str:
        return f"Approx({MP.nstr(self.value, 20)})"


class ExactPoint(tuple):
    """A pair (a vector) of exact numbers taken as one value: the answer ``(3/5, 57/5)`` of
    "find the vector", pinned and compared like a number (equal as tuples are)."""

    __slots__ = ()

    def __str__(self) -> str:
        return "(" + ", ".join(str(x) for x in self) + ")"

    __repr__ = __str__


@dataclass(frozen=True)
class Witness:
    """A real given by a closed term (``arctan (3/2)``), in an assignment: ``evaluate``
    substitutes the term for the variable, so that ``tan B = 3/2`` at B = arctan (3/2) is
    decided exactly by the closed forms (``surds``: tan (arctan c) = c), which the value
    alone, an approximation, never could."""

    term: Term

    def __str__(self) -> str:
        return show(self.term)

    def __repr__(self) -> str:
        return f"Witness({show(self.term)})"


@dataclass(frozen=True)
class ApproxBool:
    value: bool


@dataclass(frozen=True)
class ExactComplex:
    re: Fraction
    im: Fraction

    def __post_init__(self) -> None:
        object.__setattr__(self, "re", Fraction(self.re))
        object.__setattr__(self, "im", Fraction(self.im))

    def __add__(self, o: ExactComplex) -> ExactComplex:
        return ExactComplex(self.re + o.re, self.im + o.im)

    def __sub__(self, o: ExactComplex) -> ExactComplex:
        return ExactComplex(self.re - o.re, self.im - o.im)

    def __mul__(self, o: ExactComplex) -> ExactComplex:
        return ExactComplex(self.re * o.re - self.im * o.im, self.re * o.im + self.im * o.re)

    def __neg__(self) -> ExactComplex:
        return ExactComplex(-self.re, -self.im)

    def inv(self) -> ExactComplex:
        d = self.re * self.re + self.im * self.im
        return ExactComplex(0, 0) if d == 0 else ExactComplex(self.re / d, -self.im / d)

    def __repr__(self) -> str:
        return f"({self.re}+{self.im}i)"


@dataclass(frozen=True)
class Opaque:
    """An element of an opaque carrier (the ``index``-th element of sort ``sort``)."""

    sort: str
    index: int


#: What a ``FunTable.fill`` returns for a point it cannot read: the table's default stands.
NOT_READ = object()


@dataclass
class FunTable:
    """A function given by finitely many points and a default: ``entries[(a1, …)] = v``.

    ``fill``, while a solver's model is at hand, reads the model's function at a point the
    table does not list and records it there: a model's function is often piecewise over
    ranges (z3: ``λb. if 490 ≤ b ∧ b ≤ 751 then …``), which its literal points alone do not
    tabulate. ``settle`` drops it; the table then is the function it was read as, and any
    check of it is a check of a real function (a point never read is at the default)."""

    entries: dict[tuple, Any] = field(default_factory=dict)
    default: Any = 0
    fill: Callable[[tuple], Any] | None = field(default=None, compare=False, repr=False)

    def __call__(self, *args: Any) -> Any:
        key = tuple(args)
        if key in self.entries:
            return self.entries[key]
        if self.fill is not None:
            v = self.fill(key)
            if v is not NOT_READ:
                self.entries[key] = v
                return v
        return self.default

    def settle(self) -> FunTable:
        """The table without its ``fill`` (a model is not kept, nor sent between processes)."""
        self.fill = None
        return self

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, FunTable)
            and self.default == other.default
            and all(self(*k) == other(*k) for k in set(self.entries) | set(other.entries))
        )

    def __hash__(self) -> int:
        # equal tables may list different points (a point at the default value or not)
        return hash(("FunTable", self.default))


@dataclass(frozen=True)
class Closure:
    vars: tuple[Var, ...]
    body: Term
    env: Any = field(compare=False, hash=False, repr=False)

    def __str__(self) -> str:
        return f"(λ {' '.join(v.name for v in self.vars)}. {show(self.body)})"


def same_closure(a: Closure, b: Closure) -> bool:
    """``a`` and ``b`` are one function: the same body up to the names of their parameters,
    over the same values of its other free names (``f = λx y. …`` where f's value is that very
    λ: a definition met by construction). False means only "not shown equal"."""
    if len(a.vars) != len(b.vars) or any(p.sort != q.sort for p, q in zip(a.vars, b.vars, strict=True)):
        return False
    if (free_vars(b.body) - set(b.vars)) & set(a.vars):
        return False  # renaming b's parameters to a's would capture a name b reads (λy. y + x as λx. x + x)
    if substitute(b.body, dict(zip(b.vars, a.vars, strict=True))) != a.body:
        return False
    for v in free_vars(a.body) - set(a.vars):
        x, y = a.env.get(v.name, _MISSING), b.env.get(v.name, _MISSING)
        if x is _MISSING or y is _MISSING or not (x is y or _plain_equal(x, y)):
            return False
    return True


_MISSING = object()


def _plain_equal(x: Any, y: Any) -> bool:
    """Equal exact numbers or truth values (no approximations, no functions)."""
    plain = (bool, int, Fraction)
    return isinstance(x, plain) and isinstance(y, plain) and type(x) is type(y) and x == y


@dataclass(eq=False)
class Sequence:
    """A function on ℕ (or ℤ: ``var``'s sort) given by a recurrence: ``initial`` values below
    ``start`` (any other index below it: 0), and for
    m ≥ ``start`` the value of ``rule`` with ``var`` = m, where ``rule`` may apply the
    function itself (named ``name``) at smaller indices. ``definition`` is the premise it
    was read from (``∀n ≥ c. u (n + k) = e``): that premise holds for it by construction.
    ``env`` gives the rule's other free names; values are computed bottom-up and memoized."""

    name: str
    var: Var
    start: int
    rule: Term
    initial: dict[int, Any]
    definition: Term
    env: Any = field(repr=False)
    memo: dict[int, Any] = field(default_factory=dict, repr=False)

    @property
    def closed_terms(self) -> bool:
        """Whether an initial value is a ``Witness``: elements are then computed as closed
        terms (``closed_terms._element_term``), the arithmetic of witnesses being undefined."""
        return any(isinstance(v, Witness) for v in self.initial.values())

    def __str__(self) -> str:
        inits = ", ".join(f"{self.name} {i} = {v}" for i, v in sorted(self.initial.items()))
        return f"({inits}; {self.name} {self.var.name} = {show(self.rule)} for {self.var.name} ≥ {self.start})"


@dataclass(frozen=True)
class PredSet:
    """A set known by its membership test (``infinite``: True / False / None = unknown)."""

    elem: Sort
    contains: Callable[[Any], Any] = field(compare=False, hash=False)
    infinite: bool | None = None
    #: the premise ``∀x. x ∈ S ↔ P x`` (P closed) it was built from: that premise holds for it
    definition: Any = field(default=None, compare=False, hash=False)


@dataclass(frozen=True)
class Decision:
    """``value`` is True/False/None; ``exact`` tells an exact answer from an approximate one."""

    value: bool | None
    exact: bool
    reason: str = ""


def renamed_model(model: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """``model`` with its variables renamed by ``names`` (old → new), values that name
    variables renamed with them: a ``Sequence`` reads its own name and the other variables
    of its recurrence, and holds of the premise it was read from only when that premise
    is its ``definition`` word for word (a model renamed by its keys alone no longer
    satisfied the renamed premises: ``algebra/problem_2017``)."""
    if not any(k in names for k in model):
        return model
    seen: dict[int, Any] = {}
    return {names.get(k, k): _renamed_value(x, names, seen) for k, x in model.items()}


def _renamed_value(x: Any, names: dict[str, str], seen: dict[int, Any]) -> Any:
    if id(x) in seen:
        return seen[id(x)]

    def term(t: Any) -> Any:
        if not isinstance(t, Term):
            return t
        mapping = {v: Var(names[v.name], v.sort) for v in free_vars(t) if v.name in names}
        return substitute(t, mapping) if mapping else t

    if isinstance(x, Sequence):
        out = Sequence(names.get(x.name, x.name), x.var, x.start, term(x.rule), dict(x.initial),
                       term(x.definition), {}, dict(x.memo))
        seen[id(x)] = out
        env = x.env if isinstance(x.env, dict) else {}
        out.env = {names.get(k, k): _renamed_value(v, names, seen) for k, v in env.items()}
        return out
    if isinstance(x, PredSet) and x.definition is not None:
        out = PredSet(x.elem, x.contains, x.infinite, term(x.definition))
        seen[id(x)] = out
        return out
    return x
