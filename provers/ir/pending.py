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
from dataclasses import dataclass, fields, replace
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


def _parts(s: Sort) -> list[tuple[str, Sort | tuple[Sort, ...]]]:
    """The sort-valued fields of a compound sort (``FunSort``: args and result)."""
    if isinstance(s, (BaseSort, OpaqueSort, SortVar)):
        return []
    out: list[tuple[str, Sort | tuple[Sort, ...]]] = []
    for name in _field_names(type(s)):
        value = getattr(s, name)
        if isinstance(value, Sort) or (isinstance(value, tuple) and all(isinstance(x, Sort) for x in value)):
            out.append((name, value))
    return out


def map_sort(s: Sort, fn: Callable[[Sort], Sort]) -> Sort:
    """``s`` with ``fn`` applied to each immediate sort part (a leaf comes back unchanged)."""
    parts = _parts(s)
    if not parts:
        return s
    new = {name: (tuple(fn(x) for x in v) if isinstance(v, tuple) else fn(v)) for name, v in parts}
    return replace(s, **new)  # type: ignore[type-var]


def sort_children(s: Sort) -> tuple[Sort, ...]:
    out: list[Sort] = []
    for _, v in _parts(s):
        out.extend(v if isinstance(v, tuple) else (v,))
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
        pa, pb = _parts(a), _parts(b)
        if type(a) is type(b) and pa and _same_shape(a, b, pa, pb):
            for (_, x), (_, y) in zip(pa, pb, strict=True):
                for xi, yi in zip(x if isinstance(x, tuple) else (x,), y if isinstance(y, tuple) else (y,), strict=True):
                    self.unify(xi, yi)
            return
        raise SortClash(f"{self.show(self.resolve(a))} vs {self.show(self.resolve(b))}")

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
        return map_sort(s, lambda x: self.ground(x, default))


def _same_shape(a: Sort, b: Sort, pa: list, pb: list) -> bool:
    """Same constructor, same non-sort fields, same number of sort parts in each field."""
    for name in _field_names(type(a)):
        if name not in dict(pa) and getattr(a, name) != getattr(b, name):
            return False
    return all(
        (isinstance(x, tuple) == isinstance(y, tuple)) and (not isinstance(x, tuple) or len(x) == len(y))
        for (_, x), (_, y) in zip(pa, pb, strict=True)
    )
