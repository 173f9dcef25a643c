"""Sorts of the IR: base sorts, functions, sets, lists, opaque carriers; inhabitation."""

from __future__ import annotations

import re
from dataclasses import dataclass

from provers.errors import IRError

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


@dataclass(frozen=True)
class ProdSort(OpaqueSort):
    """A product ``A × B`` (Isabelle pairs), ``name`` as written, ``parts`` its components.

    Still an OpaqueSort to the solvers, which do not model pair values: a solver's model may
    never invent one. The evaluator has them (tuples, compared componentwise) and the
    samplers draw them componentwise. The normal form splits variables of it into their
    components (``engine.products``); what is left stays opaque to the solvers."""

    parts: tuple[Sort, ...] = ()


def product_sort(*parts: Sort) -> ProdSort:
    """``A × B`` (right-nested for more parts, as both languages read ``A × B × C``)."""
    if len(parts) > 2:
        return product_sort(parts[0], product_sort(*parts[1:]))

    def shown(s: Sort) -> str:
        t = str(s)
        return f"({t})" if " " in t else t

    return ProdSort(" × ".join(shown(p) for p in parts), tuple(parts))


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


#: The prefix of the opaque sort the Lean frontend invents for a binder whose type it cannot
#: infer (``∃ y, Tendsto s atTop (𝓝 y)``): ``α_y`` is "the type of y", so it is renamed with y
#: (stop 61: ``y`` renamed ``y_b`` made the sorts ``α_y`` and ``α_y_b`` differ, and the
#: statement "inequivalent" to itself).
INVENTED = "α_"


def sort_words(name: str) -> set[str]:
    """The names a sort's text mentions as words (``Fin n`` names n, ``Real`` names no ``a``;
    not ``succ`` of ``n.succ``); an invented ``α_x`` ("the type of x") names x too."""
    words = set(re.findall(r"(?<![\w'.])[^\W\d][\w']*", name))
    return words | {w[len(INVENTED):] for w in words if w.startswith(INVENTED)}


def rename_sort(s: Sort, mapping: dict[str, str]) -> Sort:
    """``s`` with the names ``mapping`` renames, where a sort mentions them as words
    (``renamed_within``): renaming a type variable or a variable a dependent type names renames
    the sorts that mention it."""
    if isinstance(s, ProdSort):
        parts = tuple(rename_sort(p, mapping) for p in s.parts)
        return s if parts == s.parts else product_sort(*parts)
    if isinstance(s, OpaqueSort):
        return OpaqueSort(mapping[s.name] if s.name in mapping else renamed_within(s.name, mapping))
    if isinstance(s, FunSort):
        return FunSort(tuple(rename_sort(a, mapping) for a in s.args), rename_sort(s.result, mapping))
    if isinstance(s, SetSort):
        return SetSort(rename_sort(s.elem, mapping))
    if isinstance(s, ListSort):
        return ListSort(rename_sort(s.elem, mapping))
    return s


def renamed_within(name: str, mapping: dict[str, str]) -> str:
    """The names ``mapping`` renames where they occur as words in an opaque sort's name: a
    dependent type names the variables it depends on (``Fin n``, ``Sylow p G``,
    ``MulEquiv G G``), so renaming those variables renames it."""
    if name.startswith(INVENTED) and name[len(INVENTED):] in mapping:
        return INVENTED + mapping[name[len(INVENTED):]]  # the invented type of a renamed variable
    keys = [k for k in mapping if k in name]
    if not keys:
        return name
    words = "|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True))
    return re.sub(rf"(?<![\w'.])({words})(?![\w'])", lambda m: mapping[m.group(1)], name)


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
_ZMOD = re.compile(r"^ZMod (?:(\d+)|\((\d+) ([*^+]) (\d+)\))$")
#: Largest exponent read in a modulus written as a power (``ZMod (11 ^ 2)``).
_MAX_MODULUS_EXPONENT = 64


def zmod_modulus(s: Sort) -> int | None:
    """n of ``ZMod n`` where n is a numeral or one operation on two numerals (miniF2F writes
    ``ZMod (11 ^ 2)``): 0 for ``ZMod 0`` (which is ℤ), None for any other sort."""
    m = _ZMOD.match(s.name) if isinstance(s, OpaqueSort) else None
    if m is None:
        return None
    if m.group(1) is not None:
        return int(m.group(1))
    a, op, b = int(m.group(2)), m.group(3), int(m.group(4))
    if op == "^":
        return a ** b if b <= _MAX_MODULUS_EXPONENT else None
    return a * b if op == "*" else a + b


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
    if isinstance(s, ProdSort):
        return min(known_elements(p) for p in s.parts)
    if isinstance(s, OpaqueSort):
        name = s.name
        if name in _INFINITE_TYPES or name.startswith("'"):
            return MANY if name in _INFINITE_TYPES else 1
        m = _FIN.match(name) or _FIN_SUCC.match(name)
        if m:
            return int(m.group(1))
        n = zmod_modulus(s)
        if n is not None:
            return n or MANY
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
