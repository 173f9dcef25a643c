"""Sorts not known yet: the one representation both frontends use while they infer sorts.

A ``SortVar`` stands for a sort nothing has fixed yet (an Isabelle type variable, the sort of
a Lean binder written without a type). ``PendingSorts`` is what unification has learnt about
each one: a substitution (resolved with path compression), the classes each variable must
belong to (Isabelle's type classes; "num" for Lean's binders used in defaulted arithmetic)
and the name to give it when nothing fixes it.

A pending sort never reaches a ``Statement``: a frontend grounds every sort (``ground``, with
its own language's defaults) before it builds IR, and ``is_ground`` says whether one is done.
Compound sorts (functions, sets, lists, a frontend's own pair sort) are taken apart by their
dataclass fields, so a frontend may add a compound pre-sort without teaching this module.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields
from functools import cache

from provers.ir.sorts import BaseSort, OpaqueSort, Sort


@dataclass(frozen=True)
class SortVar(Sort):
    """A sort not known yet (exists only while a frontend elaborates a statement)."""

    id: int

    def __str__(self) -> str:
        return f"?{self.id}"


class SortClash(Exception):
    """Two sorts that cannot be made equal, or a sort outside a required class."""


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


_LEAVES = (BaseSort, OpaqueSort, SortVar)


def _is_sorts(value: object) -> bool:
    return isinstance(value, tuple) and all(isinstance(x, Sort) for x in value)


def map_sort(s: Sort, fn: Callable[[Sort], Sort]) -> Sort:
    """``s`` with ``fn`` applied to each immediate sort part (``s`` itself when nothing
    changes; a leaf comes back unchanged)."""
    if isinstance(s, _LEAVES):
        return s
    changed = False
    values = []
    for name in _field_names(type(s)):
        value = getattr(s, name)
        if isinstance(value, Sort):
            new = fn(value)
            changed = changed or new is not value
            value = new
        elif _is_sorts(value):
            new_tuple = tuple(fn(x) for x in value)
            changed = changed or any(a is not b for a, b in zip(new_tuple, value, strict=True))
            value = new_tuple
        values.append(value)
    return type(s)(*values) if changed else s


def sort_children(s: Sort) -> tuple[Sort, ...]:
    """The sorts right under ``s`` (``FunSort``: its argument sorts, then its result)."""
    if isinstance(s, _LEAVES):
        return ()
    out: list[Sort] = []
    for name in _field_names(type(s)):
        value = getattr(s, name)
        if isinstance(value, Sort):
            out.append(value)
        elif _is_sorts(value):
            out.extend(value)
    return tuple(out)


def is_ground(s: Sort) -> bool:
    """No sort variable anywhere in ``s``."""
    stack = [s]
    while stack:
        x = stack.pop()
        if isinstance(x, SortVar):
            return False
        stack.extend(sort_children(x))
    return True


class PendingSorts:
    """Sort variables of one statement and what unification has learnt about them.

    Subclasses give a language's meaning to classes (``check_class``) and how clash messages
    show sorts (``show``). ``ids`` numbers the variables (1, 2, ... unless a frontend numbers
    them together with the other fresh names of a statement)."""

    def __init__(self, ids: Iterator[int] | None = None) -> None:
        self.ids = ids if ids is not None else itertools.count(1)
        self.bound: dict[int, Sort] = {}
        #: variable id -> its classes, in the order they were required (messages are stable)
        self.classes: dict[int, dict[str, None]] = {}
        self.names: dict[int, str] = {}

    # ---- variables ------------------------------------------------------------------------
    def fresh(self, *classes: str, name: str | None = None) -> SortVar:
        v = SortVar(next(self.ids))
        self.classes[v.id] = dict.fromkeys(classes)
        if name:
            self.names[v.id] = name
        return v

    def shallow(self, s: Sort) -> Sort:
        """``s`` with a bound variable at its top replaced (its parts left as they are)."""
        while isinstance(s, SortVar) and s.id in self.bound:
            s = self.bound[s.id]
        return s

    def resolve(self, s: Sort) -> Sort:
        """``s`` with every bound variable replaced, all the way down."""
        if isinstance(s, SortVar):
            t = self.bound.get(s.id)
            if t is None:
                return s
            r = self.resolve(t)
            self.bound[s.id] = r
            return r
        if isinstance(s, _LEAVES):
            return s
        return map_sort(s, self.resolve)

    # ---- classes ----------------------------------------------------------------------------
    def require(self, s: Sort, cls: str) -> None:
        """``s`` must belong to class ``cls`` (recorded on a variable, checked on a sort)."""
        s = self.shallow(s)
        if isinstance(s, SortVar):
            self.classes.setdefault(s.id, {})[cls] = None
            return
        self.check_class(s, cls)

    def check_class(self, s: Sort, cls: str) -> None:
        """Raise ``SortClash`` when the known sort ``s`` is not in ``cls`` (default: any is)."""

    def show(self, s: Sort) -> str:
        return str(s)

    # ---- unification ------------------------------------------------------------------------
    def unify(self, a: Sort, b: Sort) -> None:
        a, b = self.shallow(a), self.shallow(b)
        if a == b:
            return
        if isinstance(a, SortVar) or isinstance(b, SortVar):
            v, t = (a, b) if isinstance(a, SortVar) else (b, a)
            self._bind(v, t)  # type: ignore[arg-type]
            return
        pairs = _matching_parts(a, b)
        if pairs is None:
            raise SortClash(f"{self.show(self.resolve(a))} vs {self.show(self.resolve(b))}")
        for x, y in pairs:
            self.unify(x, y)

    def _bind(self, v: SortVar, t: Sort) -> None:
        if self._occurs(v, t):
            raise SortClash(f"cyclic type: {v} occurs in {self.show(self.resolve(t))}")
        self.bound[v.id] = t
        for cls in list(self.classes.get(v.id, ())):
            self.require(t, cls)
        if isinstance(t, SortVar) and v.id in self.names and t.id not in self.names:
            self.names[t.id] = self.names[v.id]

    def _occurs(self, v: SortVar, t: Sort) -> bool:
        t = self.shallow(t)
        if t == v:
            return True
        return any(self._occurs(v, x) for x in sort_children(t))

    # ---- grounding -----------------------------------------------------------------------------
    def ground(self, s: Sort, default: Callable[[SortVar], Sort]) -> Sort:
        """``s`` with every variable resolved, and each one nothing fixed bound to
        ``default(var)`` (so that every later occurrence agrees)."""
        s = self.resolve(s)
        if isinstance(s, SortVar):
            d = default(s)
            self.bound[s.id] = d
            return d
        if isinstance(s, _LEAVES):
            return s
        return map_sort(s, lambda x: self.ground(x, default))


def _matching_parts(a: Sort, b: Sort) -> list[tuple[Sort, Sort]] | None:
    """The pairs of sort parts to unify when ``a`` and ``b`` are built the same way (same
    constructor, same other fields, as many parts in each field); None when they are not."""
    if type(a) is not type(b) or isinstance(a, _LEAVES):
        return None
    pairs: list[tuple[Sort, Sort]] = []
    for name in _field_names(type(a)):
        x, y = getattr(a, name), getattr(b, name)
        if isinstance(x, Sort):
            pairs.append((x, y))
        elif _is_sorts(x) and len(x) == len(y):
            pairs.extend(zip(x, y, strict=True))
        elif x != y or _is_sorts(x):
            return None
    return pairs
