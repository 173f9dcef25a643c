"""Values of quantified subformulas, remembered by the values of the names they read.

Why: the same premise (``∃ a b c. … ∀x. p x = a·x² + b·x + c``) is evaluated at the same
sampled point for every pair of a pool, and inside a probe of an outer binder for every
value of variables it does not read; each evaluation can cost the evaluator its whole step
budget. The value of a term is a function of the values of its free variables, of the
uninterpreted symbols it applies and of the assignment's fixed unspecified values (``@ln``),
so those values, compared exactly, are the key.

Only values with a structural, immutable key take part (numbers, algebraic and complex
numbers, opaque elements, tuples and finite sets of those, function tables snapshotted, and
closures by their parameters, body and the keys of the values they capture); sets known by
a membership test compare equal whatever they capture, so a term reading one is never
remembered. An ``Undecided`` is remembered with its reason,
except an exhausted step budget (another evaluation may have more steps left); a deadline
is never remembered (it is not an ``Undecided``), nor an ``Undecided`` of a quantifier probed
with the smaller budget it gets inside another quantifier's probe.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from provers.ir import Term, by_identity, free_vars, symbol_names
from provers.semantics.algebraic import AlgebraicReal
from provers.semantics.values import (
    Approx,
    ApproxBool,
    Closure,
    ExactComplex,
    FunTable,
    Opaque,
    Undecided,
    Undetermined,
)

#: Entries kept (the memo is emptied when full).
MAX_ENTRIES = 20_000
#: The reasons that are not remembered: they depend on the steps left or on how deeply the
#: term was nested in probes (``quantifiers.NESTED_PROBE_COMBINATIONS``), not on the term.
STEP_BUDGET_REASON = "evaluation step budget exhausted"
NESTED_PROBES_REASON = "fewer probes inside an outer probe"

_SCALARS = (bool, int, Fraction, str, AlgebraicReal, ExactComplex, Opaque, Approx, ApproxBool, Undetermined)


class Unkeyable(Exception):
    """A value without a structural key (a closure, a set known by its predicate, …)."""


#: Closures captured inside closures are keyed this deep at most (a closure whose
#: environment holds itself would otherwise never end).
MAX_CLOSURE_DEPTH = 3


def value_key(v: Any, depth: int = 0) -> Any:
    """A hashable key equal for two values exactly when they are the same value."""
    if isinstance(v, _SCALARS):
        return (type(v), v)
    if isinstance(v, Closure):  # λx̄. e is determined by x̄, e and the values e reads besides x̄
        if depth >= MAX_CLOSURE_DEPTH:
            raise Unkeyable("closure nested too deeply")
        names = _scope(v.body)
        params = {p.name for p in v.vars}
        env = v.env if isinstance(v.env, dict) else {}
        read = tuple((n, value_key(env[n], depth + 1)) if n in env else (n,) for n in names if n not in params)
        fixed = tuple((n, value_key(x, depth + 1)) for n, x in env.items() if n.startswith("@"))
        return (Closure, v.vars, v.body, read + fixed)
    if isinstance(v, tuple):
        return (tuple, tuple(value_key(x, depth) for x in v))
    if isinstance(v, frozenset):
        return (frozenset, frozenset(value_key(x, depth) for x in v))
    if isinstance(v, FunTable) and v.fill is not None:
        # still reading a solver's model: a result would depend on points it reads later, and
        # another table listing the same points now may be another function there
        raise Unkeyable("a table still reading its model")
    if isinstance(v, FunTable):  # mutable: its points now, those not at the default
        default = value_key(v.default)
        points = ((value_key(k), value_key(x)) for k, x in v.entries.items())
        return (FunTable, frozenset(p for p in points if p[1] != default), default)
    raise Unkeyable(type(v).__name__)


class _Raised:
    """A remembered ``Undecided``."""

    __slots__ = ("reason",)

    def __init__(self, reason: str):
        self.reason = reason


class _Key:
    """A term and the keys of the values it reads, hashed once for the lookup and the store
    (a term keeps its own hash: ``ir.terms``)."""

    __slots__ = ("term", "values", "_hash")

    def __init__(self, term: Term, values: tuple):
        self.term, self.values = term, values
        self._hash = hash((term, values))

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, _Key) and self.values == other.values
                and (self.term is other.term or self.term == other.term))


def rememberable(reason: str) -> bool:
    """Whether an evaluation undecided for ``reason`` is undecided at any budget: not when it
    ran out of steps, nor when it was probed with the smaller budget inside another probe."""
    return STEP_BUDGET_REASON not in reason and NESTED_PROBES_REASON not in reason


@by_identity()
def _scope(t: Term) -> tuple[str, ...]:
    """The names whose values ``t`` reads (free variables, symbols)."""
    return tuple(sorted({v.name for v in free_vars(t)} | symbol_names(t)))


class Memo:
    """``key(term, env)``, then ``get`` (a remembered value or ``MISSING``) and ``put``."""

    MISSING = object()

    def __init__(self, max_entries: int = MAX_ENTRIES):
        self.max_entries = max_entries
        self._values: dict[_Key, Any] = {}
        self.hits = 0

    def key(self, t: Term, env: dict[str, Any]) -> _Key | None:
        """The key of ``t`` under ``env``, or None when a value it reads has no key."""
        names = _scope(t)
        try:
            values = tuple((n, value_key(env[n])) if n in env else (n,) for n in names)
            fixed = tuple((n, value_key(x)) for n, x in env.items() if n.startswith("@"))
        except Unkeyable:
            return None
        return _Key(t, values + fixed)

    def lookup(self, t: Term, env: dict[str, Any]) -> tuple[_Key | None, Any]:
        """``t``'s key under ``env`` and its remembered value (``MISSING`` when there is none,
        or no key)."""
        key = self.key(t, env)
        return key, (self.MISSING if key is None else self.get(key))

    def get(self, key: _Key) -> Any:
        """The remembered value (raises the remembered ``Undecided``), or ``MISSING``."""
        got = self._values.get(key, self.MISSING)
        if got is self.MISSING:
            return got
        self.hits += 1
        if isinstance(got, _Raised):
            raise Undecided(got.reason)
        return got

    def put(self, key: _Key, value: Any) -> None:
        if len(self._values) >= self.max_entries:
            self._values.clear()
        self._values[key] = value

    def put_undecided(self, key: _Key, e: Undecided) -> None:
        if rememberable(e.reason):
            self.put(key, _Raised(e.reason))

    def clear(self) -> None:
        self._values.clear()
