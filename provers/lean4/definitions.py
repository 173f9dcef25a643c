"""Definitions before the theorem (``def``/``abbrev``): unfolded, or named by their text.

Why: ``def f (x : ℕ) : ℕ := x + 1`` and ``def f (x : ℕ) : ℕ := x + 5`` before the same
``theorem t : f 1 = 2`` state different things; a shared unknown symbol ``f`` would make them
syntactically equal. So a definition is either

* **unfolded**: its body is elaborated (with the ``open`` namespaces and definitions before it)
  into an IR value, a ``Lam`` over its parameters for a function, and every use of the name is
  replaced by that value (applications beta-reduce). This covers definitions whose parameters
  are explicit and typed by sorts the IR has (``def g (n : ℕ) : ℝ := √(n + 1) - √n``,
  ``def a : ℕ := 3``, ``def P (x : ℝ) : Prop := 0 < x``); ``abbrev N := ℤ`` makes ``N`` the
  sort ℤ; or
* **named by its text**: otherwise (type parameters, instance arguments, pattern-matching
  equations, recursion, a body the frontend cannot elaborate) the name becomes the
  uninterpreted symbol ``name@<digest>``, where the digest hashes the header text up to the end
  of the definition (comments removed, whitespace collapsed). Identical definitions in
  identical contexts share a symbol; different bodies never do. Printers show the bare name
  (``ir.display_symbol``).

``def R := ℝ`` used as a type is refused: Lean does not see ℝ's instances (numerals, ``+``,
``<``) through a ``def``, so such a statement does not mean what it would with ℝ.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from provers.errors import InputTooLargeError, ParseError
from provers.ir import BOOL, TYPE, FunSort, Lam, OpaqueSort, Sort, Term, Var, free_vars
from provers.lean4.sorts import unfixed
from provers.lean4.syntax import BinderGroup, Syn

#: Sorts a type-valued definition body may name (``Type``, ``Type*``, ``Type u``, ``Sort u``).
_UNIVERSES = ("Type", "Type*", "Type _", "Sort", "Sort*", "Sort _")


@dataclass(frozen=True)
class Definition:
    """What a name defined before the theorem means (see the module docstring)."""

    name: str
    symbol: str
    sort: Sort
    value: Term | None = None  # the unfolded value (a Lam for a function), or None
    type_value: Sort | None = None  # `abbrev N := ℤ`: the sort N names
    type_refusal: str = ""  # `def R := ℝ`: why R cannot be used as a type
    note: str = ""

    @property
    def unfolded(self) -> bool:
        return self.value is not None or self.type_value is not None


def digest(context: str) -> str:
    """12 hex digits identifying a definition's text in its context."""
    return hashlib.sha1(" ".join(context.split()).encode("utf-8")).hexdigest()[:12]


def _universe(syn: Syn | None) -> bool:
    if syn is None:
        return False
    while syn.kind == "paren":
        syn = syn.args[0]
    if syn.kind == "ident":
        return syn.val in _UNIVERSES
    return syn.kind == "app" and syn.args[0].kind == "ident" and syn.args[0].val in ("Type", "Sort")


def define(el, name: str, kind: str, groups: list[BinderGroup], type_syn: Syn | None,
           body: Syn | None, context: str, *, equations: bool, self_reference: bool,
           at: int) -> Definition:
    """The meaning of ``kind name groups : type_syn := body`` (``el``: an ``Elaborator`` with
    the opens and the earlier definitions; ``context``: the header text up to here)."""
    symbol = f"{name}@{digest(context)}"
    if body is not None and not groups and (type_syn is None or _universe(type_syn)):
        alias, certain = el.type_or_prop(body)
        if alias is not None and certain and alias != BOOL:
            if kind == "abbrev":
                return Definition(name, symbol, TYPE, type_value=alias)
            return Definition(
                name, symbol, TYPE, type_refusal=(
                    f"`{name}` is defined with `def {name} := {el.src(body)}`: Lean does not see "
                    f"the instances of {el.src(body)} (numerals, arithmetic, order) through a "
                    f"`def`, so it is not that type; write `abbrev {name} := {el.src(body)}` or "
                    f"use {el.src(body)} directly"))
    if body is not None and groups and _type_family(el, groups, type_syn, body):
        raise ParseError.at_offset(
            f"`{kind} {name}` defines a family of types: not modelled; write the type itself "
            "in the statement", el.text, at)
    why = _why_not_unfolded(groups, body, equations, self_reference)
    if why is None:
        try:
            value = _unfold(el, groups, type_syn, body)  # type: ignore[arg-type]
        except InputTooLargeError:
            raise
        except ParseError as e:
            value, why = None, f"its body could not be elaborated ({e.reason})"
        if value is not None:
            return Definition(name, symbol, value.sort, value=value)
        why = why or "its sort could not be determined"
    return Definition(name, symbol, _signature(el, groups, type_syn, body, symbol), note=(
        f"definition {name} is kept as the uninterpreted symbol {symbol} ({why})"))


def _type_family(el, groups: list[BinderGroup], type_syn: Syn | None, body: Syn) -> bool:
    if type_syn is not None and not _universe(type_syn):
        return False
    try:
        with el.bind(_binder_vars(el, groups)):
            s, certain = el.type_or_prop(body)
    except ParseError:
        return False
    return s is not None and certain and s != BOOL


def _binder_vars(el, groups: list[BinderGroup]) -> list[Var]:
    out = []
    for g in groups:
        if g.type is None or g.style == "instance":
            continue
        s = el.elab_type(g.type)
        if s is None:
            continue
        out.extend(Var(n, s) for n in g.names)
    return out


def _why_not_unfolded(groups: list[BinderGroup], body: Syn | None, equations: bool,
                      self_reference: bool) -> str | None:
    if body is None or equations:
        return "defined by pattern matching"
    if self_reference:
        return "recursive"
    for g in groups:
        if g.style != "explicit":
            return f"{g.style} parameters"
        if g.type is None:
            return "untyped parameters"
        if g.pred is not None:
            return "binder predicates"
    return None


def _unfold(el, groups: list[BinderGroup], type_syn: Syn | None, body: Syn) -> Term | None:
    params: list[Var] = []
    for g in groups:
        s = el.elab_type(g.type)
        if s is None or s == TYPE or isinstance(s, OpaqueSort) and s.name in ("Type", "Sort"):
            return None  # a type parameter or a hypothesis-like parameter
        params.extend(Var(n, s) for n in g.names)
    with el.bind(params):
        expected = el.elab_type(type_syn) if type_syn is not None else None
        if type_syn is not None and expected is None:
            return None  # `: x > 0`: a proof, not a value
        if expected == BOOL:
            t = el.prop(body)
        else:
            t, _ = el.elab(body, expected)
            t = el.coerce(t, expected, body)
    if unfixed(t.sort) or not free_vars(t) <= set(params):
        return None
    return Lam(tuple(params), t) if params else t


def _signature(el, groups: list[BinderGroup], type_syn: Syn | None, body: Syn | None,
               symbol: str) -> Sort:
    """The sort of a definition kept as a symbol: its explicit term parameters → its type
    (from the signature, else from the body when it elaborates)."""
    args: list[Sort] = []
    scope: list[Var] = []
    for g in groups:
        if g.style == "instance" or g.type is None:
            continue
        try:
            s = el.elab_type(g.type)
        except ParseError:
            s = None
        if s is None:
            continue
        scope.extend(Var(n, s) for n in g.names)
        if g.style == "explicit" and s != TYPE:
            args.extend(s for _ in g.names)
    result: Sort | None = None
    try:
        with el.bind(scope):
            if type_syn is not None:
                result = el.elab_type(type_syn)
            elif body is not None:
                t, _ = el.elab(body, None)
                result = None if unfixed(t.sort) else t.sort
    except InputTooLargeError:
        raise
    except ParseError:
        result = None
    if result is None:
        result = OpaqueSort(symbol)
    return FunSort(tuple(args), result) if args else result


__all__ = ["Definition", "define", "digest"]
