"""Lean type expressions -> IR sorts: ``ℝ``, ``Set ℕ``, ``ℕ → ℝ``, ``Type*``, ``Sort u``,
Mathlib carriers the IR does not model (``ZMod n``, ``ℝ≥0``: opaque sorts), sets used as types
(``↥S``), and the auto-bound type variables of Lean's autoImplicit.

A mixin of ``elaborate.Elaborator``: a binder's type may be a term (``(x : S)`` with ``S`` a
set), so reading types uses the elaborator's scope and ``elab``.
"""

from __future__ import annotations

import re

from provers.errors import ParseError
from provers.ir import (
    BOOL,
    COMPLEX,
    INT,
    NAT,
    REAL,
    SORT,
    TYPE,
    BaseSort,
    FunSort,
    ListSort,
    OpaqueSort,
    SetSort,
    Sort,
    is_universe,
)
from provers.ir.display import show
from provers.lean4.lexer import tokenize
from provers.lean4.names import NAMES, PROP_HEADS, TYPE_HEADS
from provers.lean4.sorts import modelled
from provers.lean4.syntax import Syn

TYPE_NAMES = {
    "ℕ": NAT, "Nat": NAT, "ℤ": INT, "Int": INT, "ℚ": BaseSort("Rat"), "Rat": BaseSort("Rat"),
    "ℝ": REAL, "Real": REAL, "ℂ": COMPLEX, "Complex": COMPLEX, "Prop": BOOL, "Bool": BOOL,
    "Type": TYPE, "Type*": TYPE, "Type _": TYPE, "Sort*": SORT, "Sort": BOOL,
}

#: The symbol of each modelled type written by name (``type_name``).
CANONICAL_TYPE_NAMES = {"Nat": "ℕ", "Int": "ℤ", "Rat": "ℚ", "Real": "ℝ", "Complex": "ℂ"}
#: Mathlib's notations for the number types the IR does not model, by the type's name.
NOTATION_TYPES = {"ℝ≥0∞": "ENNReal", "ℕ∞": "ENat", "ℕ+": "PNat"}
#: One spelling per token in ``canonical_text``.
_CANONICAL_TOKENS = {**CANONICAL_TYPE_NAMES, "->": "→", "<->": "↔", "!=": "≠", "<=": "≤", ">=": "≥", "fun": "λ", "=>": "↦"}
#: Mathlib's bundled maps ``C α β`` (a structure coerced to a function α → β): their
#: coercion ``f x`` takes an argument of α (``Elaborator.equiv_ends``); the equivalences
#: among them also have an inverse (``σ.symm``, ``σ.2``).
BUNDLED_MAPS = frozenset({"Equiv", "RingHom", "MonoidHom", "AddMonoidHom", "MulEquiv", "RingEquiv", "AddEquiv"})
EQUIVALENCES = frozenset({"Equiv", "MulEquiv", "RingEquiv", "AddEquiv"})
#: Infix type formers kept as infixes (one spelling each).
_TYPE_INFIXES = {"×": "×", "→": "→", "->": "→"}
#: Mathlib's infix notations for type constructors, by the constructor they denote.
TYPE_NOTATIONS = {"≃": "Equiv", "→+*": "RingHom", "→*": "MonoidHom", "→+": "AddMonoidHom",
                  "≃*": "MulEquiv", "≃+*": "RingEquiv", "≃+": "AddEquiv"}

#: Lean's (non-relaxed) autoImplicit: an unbound single letter, optionally with a numeric
#: or subscript suffix or primes, in a theorem signature becomes an implicit variable.
AUTO_BOUND = re.compile(r"^[A-Za-z\u03b1-\u03c9](?:[0-9₀-₉]*)'*$")


def _math_letter(name: str) -> bool:
    """A single letter from Unicode's letterlike or math alphanumeric blocks (``𝕊``, ``ℒ``,
    ``𝔹``): an undeclared type named so is auto-bound (relaxed autoImplicit); ``ℍ`` is
    Mathlib notation (upper half plane, quaternions)."""
    core = name.rstrip("'").rstrip("0123456789₀₁₂₃₄₅₆₇₈₉")
    return len(core) == 1 and core.isalpha() and ord(core) >= 0x2100 and core != "ℍ"


def _sort_level(level: Syn) -> Sort:
    """``Sort 0`` is Prop, ``Sort (u + 1)`` / ``Sort 2`` are ``Type _``, any other level may
    be 0: a universe containing Prop."""
    while level.kind == "paren":
        level = level.args[0]
    if level.kind == "num":
        return BOOL if level.val == "0" else TYPE
    if level.kind == "binop" and level.val == "+" and level.args[1].kind == "num" and level.args[1].val != "0":
        return TYPE
    return SORT


class TypeExpressions:
    """Mixin of ``elaborate.Elaborator``: reading types (see the module docstring)."""

    def require_type(self, syn: Syn) -> Sort:
        s = self.elab_type(syn)
        if s is None:
            s = self.coe_sort(syn)
        if s is None:
            raise self.err(syn, f"{self.src(syn)!r} is not a type")
        return s

    def coe_sort(self, syn: Syn) -> Sort | None:
        """A set / subgroup / ideal used as a type (``∀ x : S``, ``(z : I)``): ``↥S``."""
        try:
            t, _ = self.elab(syn, None)
        except ParseError:
            return None
        if isinstance(t.sort, SetSort) or not modelled(t.sort) or is_universe(t.sort):
            return OpaqueSort(f"↥{show(t)}")
        return None

    def elab_type(self, syn: Syn) -> Sort | None:
        """The sort a type expression denotes, or None when ``syn`` is not a type."""
        s, _ = self.type_or_prop(syn)
        return s

    def type_or_prop(self, syn: Syn) -> tuple[Sort | None, bool]:
        """(sort, certain): ``certain`` False when only naming conventions decided."""
        k = syn.kind
        if k == "paren":
            return self.type_or_prop(syn.args[0])
        if k == "ident":
            return self.ident_type(syn.val, syn)
        if k == "app":
            return self.applied_type(syn)
        if k == "binop" and syn.val in ("→", "->"):
            a, ca = self.type_or_prop(syn.args[0])
            b, cb = self.type_or_prop(syn.args[1])
            if a is None and b is not None and syn.args[0].kind in ("ascr", "app", "ident"):
                a, ca = self.coe_sort(syn.args[0]), True
            if a is None or b is None:
                return None, True
            if isinstance(b, FunSort):
                return FunSort((a, *b.args), b.result), ca and cb
            return FunSort((a,), b), ca and cb
        if k == "binder" and syn.val == "Π":
            return OpaqueSort(self.src(syn)), True
        if k == "binder" and syn.val == "∀":
            # `(f_def : ∀ x, f x = 2 * x - 3)` is a hypothesis whatever its name; a ∀ whose
            # body is a type (a dependent function type) is rare in theorem statements.
            return None, True
        if k == "binop" and syn.val in ("×", "≃", "→+*", "→*", "→+", "≃*", "≃+*", "≃+", "→ₗ", "≃ₗ", "→L", "≃ₜ", "→ᵃ", "⧸"):
            a = self.elab_type(syn.args[0])
            b = self.elab_type(syn.args[1])
            if a is None or b is None:
                return None, True
            if syn.val in TYPE_NOTATIONS:  # a bundled map α → β: its coercion takes α
                self.equiv_ends[self.type_name(syn)] = (a, b)
            return OpaqueSort(self.type_name(syn)), True
        if k == "prefix" and syn.val == "↥":
            inner = syn.args[0]
            while inner.kind == "paren":
                inner = inner.args[0]
            if inner.kind == "ident" and inner.val in self.defs:
                return OpaqueSort("↥" + self.defs[inner.val].symbol), True
            return OpaqueSort(self.set_type_name(inner)), True
        if k == "prefix" and syn.val == "↑" and not self._proposition(syn.args[0]):
            # `(x : ↑(I ⊓ J))`: a subobject coerced to its type (CoeSort), as `↥`; a Bool
            # coerced to a proposition (`↑b`) stays a hypothesis
            return self.type_or_prop(Syn("prefix", syn.pos, syn.end, "↥", syn.args))
        if k == "other" and syn.val == "subtype":
            return OpaqueSort(self.canonical_text(syn)), True
        return None, True

    def ident_type(self, name: str, syn: Syn) -> tuple[Sort | None, bool]:
        """A name as a type: a known type, a local or defined type (or set, as ``↥S``), a
        Mathlib type family, or an auto-bound type variable; None for a proposition."""
        if name in TYPE_NAMES:
            return TYPE_NAMES[name], True
        if name in ("ℝ≥0", "NNReal"):
            return OpaqueSort("NNReal"), True
        if name in ("ℝ≥0∞", "ENNReal", "EReal", "ℕ∞", "ENat", "ℕ+", "PNat"):
            return OpaqueSort(NOTATION_TYPES.get(name, name)), True  # one sort per type
        if name in self.scope:
            v = self.scope[name]
            if is_universe(v.sort):
                return OpaqueSort(name), True
            if isinstance(v.sort, SetSort) or not modelled(v.sort):
                return OpaqueSort(f"↥{name}"), True
            return None, True
        if name in self.defs:
            d = self.defs[name]
            if d.type_refusal:
                raise self.err(syn, d.type_refusal)
            if d.type_value is not None:
                return d.type_value, True
            if d.sort == TYPE:
                return OpaqueSort(d.symbol), True
            if isinstance(d.sort, SetSort):
                return OpaqueSort(f"↥{d.symbol}"), True
            return None, True
        if name in TYPE_HEADS:
            return OpaqueSort(name), True
        if name.split(".")[-1] in PROP_HEADS or name in PROP_HEADS:
            return None, True
        if self.auto_bound is not None and name in self.auto_bound and (
                self.auto_mode == "infer" or is_universe(self.auto_bound[name].sort)):
            self.type_names.setdefault(name)  # `[TopologicalSpace α] (f : β → α)`: α is a type
            return OpaqueSort(name), True
        # (an ASCII capital may be a header's `abbrev I : Set ℝ` read as a carrier, unless an
        # instance binder names it: `[Ring R] (x : R)`)
        bare = (AUTO_BOUND.match(name) and (not name[:1].isupper() or name in self.with_instances)) or _math_letter(name)
        if self.auto_bound is not None and name not in self.auto_bound and bare:
            if name not in self.with_instances:
                self.type_variables.add(name)
            self.type_names.setdefault(name)
            return OpaqueSort(name), True  # an auto-bound implicit type variable (autoImplicit)
        if name[:1].isupper() and not name.startswith("Is"):
            return OpaqueSort(name), False
        return None, True

    def applied_type(self, syn: Syn) -> tuple[Sort | None, bool]:
        """``Set α``, ``Finset α``, ``List α``, ``Type u``, ``Sort u``, ``R[X]``, ``ZMod n``...
        as a type; None for a proposition (``Nat.Prime p``, a local predicate)."""
        head = syn.args[0]
        hname = head.val if head.kind == "ident" else ""
        if hname in ("Set", "Finset") and len(syn.args) == 2:
            e = self.elab_type(syn.args[1])
            return (SetSort(e) if e is not None else None), True
        if hname == "List" and len(syn.args) == 2:
            e = self.elab_type(syn.args[1])
            return (ListSort(e) if e is not None else None), True
        if hname == "Type":
            return TYPE, True
        if hname == "Sort":
            return _sort_level(syn.args[1]), True
        if len(syn.args) == 2 and syn.args[1].kind == "list" and hname not in NAMES and self.elab_type(head) is not None:
            return self.polynomials(syn), True  # R[X]: polynomials over R
        if hname in BUNDLED_MAPS and len(syn.args) == 3:
            a, b = self.elab_type(syn.args[1]), self.elab_type(syn.args[2])
            if a is not None and b is not None:
                self.equiv_ends[self.type_name(syn)] = (a, b)
        if hname in TYPE_HEADS or hname.split(".")[-1] in TYPE_HEADS:
            return OpaqueSort(self.type_name(syn)), True
        if hname in PROP_HEADS or hname.split(".")[-1] in PROP_HEADS or hname in NAMES:
            return None, True
        if hname in self.scope or hname in self.defs or hname.startswith("Is"):
            return None, True
        if hname in TYPE_NAMES and TYPE_NAMES[hname] not in (TYPE, SORT):  # `ℕ (q : ℕ)`: no type family
            raise self.err(syn, f"ill-typed {self.src(syn)!r}: the type {hname} is not a function")
        if hname[:1].isupper():
            return OpaqueSort(self.type_name(syn)), False
        if head.kind == "ident" and head.val in TYPE_NAMES:  # ℝ[X] and friends
            return self.polynomials(syn), True
        return None, True

    def type_name(self, syn: Syn) -> str:
        """One name per type however it is written, for the opaque sort of a type the IR does
        not model: ``ℝ ≃ ℝ`` and ``Equiv ℝ ℝ`` (or ``Equiv Real (ℝ)``) are one type, and an
        alignment only pairs variables of one sort — two names would make the same statement
        "inequivalent" for its spelling. Notations become their constructor
        (``TYPE_NOTATIONS``), the modelled types their symbol, redundant parentheses go."""
        k = syn.kind
        if k == "paren" and len(syn.args) == 1:
            return self.type_name(syn.args[0])
        if k == "ident":
            return CANONICAL_TYPE_NAMES.get(syn.val, syn.val)
        if k == "num":
            return syn.val
        if k == "app":
            return " ".join(self._type_argument(a) for a in syn.args)
        if k == "binop" and len(syn.args) == 2 and "field" in syn.extra:  # V →ₗ[F] W
            a, b = (self._type_argument(x) for x in syn.args)
            return f"{a} {syn.val}[{self.type_name(syn.extra['field'])}] {b}"
        if k == "binop" and len(syn.args) == 2 and (syn.val in TYPE_NOTATIONS or syn.val in _TYPE_INFIXES):
            a, b = (self._type_argument(x) for x in syn.args)
            if syn.val in TYPE_NOTATIONS:
                return f"{TYPE_NOTATIONS[syn.val]} {a} {b}"
            return f"{a} {_TYPE_INFIXES[syn.val]} {b}"
        return self.canonical_text(syn)

    def canonical_text(self, syn: Syn) -> str:
        """``syn``'s tokens in one spelling each (``Int`` as ``ℤ``, ``->`` as ``→``), one space
        apart: the name of a type only its text describes (``{p : ℤ // Squarefree p}``)."""
        tokens = tokenize(self.text, syn.pos, syn.end)
        return " ".join(_CANONICAL_TOKENS.get(t.text, t.text) for t in tokens if t.kind != "eof")

    def _proposition(self, syn: Syn) -> bool:
        """Whether ``syn`` elaborates to a truth value (or cannot be read at all)."""
        try:
            t, _ = self.elab(syn, None)
        except ParseError:
            return True
        return t.sort == BOOL

    def set_type_name(self, syn: Syn) -> str:
        """``↥S`` for a set or subobject used as a type, S named by its elaborated term (the
        spellings of one set, ``∨`` or ``\\/``, are one type), else as written."""
        try:
            t, _ = self.elab(syn, None)
        except ParseError:
            return f"↥{self.src(syn)}"
        return f"↥{show(t)}"

    def _type_argument(self, syn: Syn) -> str:
        name = self.type_name(syn)
        return f"({name})" if " " in name and not name.startswith(("(", "↥")) else name

    def polynomials(self, syn: Syn) -> Sort:
        """``R[X]`` is Mathlib's notation for ``Polynomial R``: one name for both spellings
        (other brackets stay as written)."""
        head, bracket = syn.args[0], syn.args[1]
        if bracket.kind == "list" and self.src(bracket).replace(" ", "") == "[X]":
            return OpaqueSort(f"Polynomial {self._type_argument(head)}")
        return OpaqueSort(self.src(syn))
