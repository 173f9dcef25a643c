"""IR terms: variables, exact numerals, applications, uninterpreted symbols, binders."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from provers.errors import IRError
from provers.ir.sorts import BOOL, INT, NAT, FunSort, OpaqueSort, SetSort, Sort, is_numeric

# --------------------------------------------------------------------------------------
# Terms
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Term:
    """Base class of terms. Every term knows its ``sort`` (a field or a property)."""

    def __str__(self) -> str:
        from provers.ir.display import show

        return show(self)

    def __getstate__(self) -> dict:
        # what a node remembers about itself (its hash, ``traverse.free_vars``) stays out of
        # pickles: a solver worker is another process, with another string-hash seed
        return {k: v for k, v in self.__dict__.items() if not k.startswith("_")}


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


def opaque_numeral(t: Term) -> int | None:
    """The natural a numeral of a sort the IR does not model stands for (``(5 : ZMod 7)`` is
    the symbol ``5`` of sort ``ZMod 7``: Lean's ``OfNat`` literal), or None."""
    if isinstance(t, Uninterpreted) and not t.args and isinstance(t.sort, OpaqueSort) \
            and t.symbol.isascii() and t.symbol.isdigit() and t.symbol == str(int(t.symbol)):
        return int(t.symbol)
    return None


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


def _hash_kept(cls: type) -> None:
    """Compute a node's hash once: the dataclass hash hashes the fields, and so the whole
    subtree, at every dict or set lookup of a term. Kept out of pickles (``__getstate__``):
    a solver worker hashes strings with another seed."""
    fields_hash = cls.__hash__

    def __hash__(self: Term) -> int:
        kept = self.__dict__.get("_hash")
        if kept is None:
            kept = self.__dict__["_hash"] = fields_hash(self)
        return kept

    cls.__hash__ = __hash__  # type: ignore[method-assign]


for _cls in (Var, Num, App, Uninterpreted, Quant, Lam, BigOp, SetBuilder):
    _hash_kept(_cls)
