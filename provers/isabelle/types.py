"""Hindley–Milner bookkeeping for the Isabelle frontend: type variables, type classes,
unification, and the reader of HOL type expressions.

Type variables (``TVar``) and pairs (``Prod``) exist only while a statement is being
elaborated; ``Unifier.finish`` turns every sort into an IR sort (defaulting numeric type
variables by the documented rule) before any term leaves the frontend.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from provers.ir import (
    BOOL,
    COMPLEX,
    FIELDS,
    INT,
    NAT,
    NUMERIC_ORDER,
    RAT,
    REAL,
    BaseSort,
    FunSort,
    ListSort,
    OpaqueSort,
    SetSort,
    Sort,
)
from provers.isabelle.lexer import LexError, Token


@dataclass(frozen=True)
class TVar(Sort):
    """An unknown sort (internal to elaboration)."""

    id: int

    def __str__(self) -> str:
        return f"?{self.id}"


@dataclass(frozen=True)
class Prod(Sort):
    """Isabelle ``'a × 'b`` (internal; leaves the frontend as an OpaqueSort)."""

    left: Sort
    right: Sort

    def __str__(self) -> str:
        return f"({self.left} × {self.right})"


#: type classes as the frontend tracks them -> the IR sorts that belong to them.
CLASSES: dict[str, frozenset[Sort]] = {
    "num": frozenset(NUMERIC_ORDER),
    "neg": frozenset({INT, RAT, REAL, COMPLEX}),
    "field": frozenset(FIELDS),
    "integral": frozenset({NAT, INT}),
    # div/mod/gcd on a field exist in HOL-Computational_Algebra (Field_as_Ring): allowed,
    # kept uninterpreted; the class only makes an unfixed type default to int
    "intlike": frozenset(NUMERIC_ORDER),
    "ord": frozenset({NAT, INT, RAT, REAL}),
    "abs": frozenset({INT, RAT, REAL, COMPLEX}),
}
_CLASS_WORDS = {
    "num": "a number type", "neg": "a type with negation (not nat)", "field": "a field (real, rat, complex)",
    "integral": "nat or int", "intlike": "a number type", "ord": "an ordered number type", "abs": "a type with abs",
}

#: Default for a type variable nothing fixes (documented in docs/parsing_isabelle.md).
DEFAULT_INTEGRAL = INT
DEFAULT_NUMERIC = REAL

BASE_TYPES = {"nat": NAT, "int": INT, "rat": RAT, "real": REAL, "complex": COMPLEX, "bool": BOOL}


class TypeClash(Exception):
    """Two sorts that cannot be unified (the caller adds the position)."""


@dataclass
class Unifier:
    subst: dict[int, Sort] = field(default_factory=dict)
    classes: dict[int, set[str]] = field(default_factory=dict)
    names: dict[int, str] = field(default_factory=dict)
    user_tvars: dict[str, TVar] = field(default_factory=dict)
    count: int = 0

    def fresh(self, *classes: str, name: str | None = None) -> TVar:
        self.count += 1
        v = TVar(self.count)
        self.classes[v.id] = set(classes)
        if name:
            self.names[v.id] = name
        return v

    def user_tvar(self, name: str) -> TVar:
        """The type variable the user wrote as ``'a`` (one per statement)."""
        if name not in self.user_tvars:
            self.user_tvars[name] = self.fresh(name=name)
        return self.user_tvars[name]

    def resolve(self, s: Sort) -> Sort:
        if isinstance(s, TVar):
            t = self.subst.get(s.id)
            if t is None:
                return s
            r = self.resolve(t)
            self.subst[s.id] = r
            return r
        if isinstance(s, FunSort):
            return FunSort(tuple(self.resolve(a) for a in s.args), self.resolve(s.result))
        if isinstance(s, SetSort):
            return SetSort(self.resolve(s.elem))
        if isinstance(s, ListSort):
            return ListSort(self.resolve(s.elem))
        if isinstance(s, Prod):
            return Prod(self.resolve(s.left), self.resolve(s.right))
        return s

    def shallow(self, s: Sort) -> Sort:
        while isinstance(s, TVar) and s.id in self.subst:
            s = self.subst[s.id]
        return s

    def require(self, s: Sort, cls: str) -> None:
        s = self.shallow(s)
        if isinstance(s, TVar):
            self.classes.setdefault(s.id, set()).add(cls)
            return
        if isinstance(s, OpaqueSort):
            return  # a carrier the IR does not model: trust the user's class
        if s not in CLASSES[cls]:
            raise TypeClash(f"{show_sort(self.resolve(s))} is not {_CLASS_WORDS[cls]}")

    def unify(self, a: Sort, b: Sort) -> None:
        a, b = self.shallow(a), self.shallow(b)
        if a == b:
            return
        if isinstance(a, TVar) or isinstance(b, TVar):
            v, t = (a, b) if isinstance(a, TVar) else (b, a)
            assert isinstance(v, TVar)
            if self._occurs(v, t):
                raise TypeClash(f"cyclic type: {v} occurs in {show_sort(self.resolve(t))}")
            self.subst[v.id] = t
            for cls in self.classes.get(v.id, ()):
                self.require(t, cls)
            if isinstance(t, TVar) and v.id in self.names and t.id not in self.names:
                self.names[t.id] = self.names[v.id]
            return
        if isinstance(a, FunSort) and isinstance(b, FunSort) and len(a.args) == len(b.args):
            for x, y in zip(a.args, b.args, strict=False):
                self.unify(x, y)
            self.unify(a.result, b.result)
            return
        if type(a) is type(b) and isinstance(a, (SetSort, ListSort)):
            self.unify(a.elem, b.elem)  # type: ignore[attr-defined]
            return
        if isinstance(a, Prod) and isinstance(b, Prod):
            self.unify(a.left, b.left)
            self.unify(a.right, b.right)
            return
        raise TypeClash(f"{show_sort(self.resolve(a))} vs {show_sort(self.resolve(b))}")

    def _occurs(self, v: TVar, t: Sort) -> bool:
        t = self.shallow(t)
        if t == v:
            return True
        if isinstance(t, FunSort):
            return any(self._occurs(v, x) for x in (*t.args, t.result))
        if isinstance(t, (SetSort, ListSort)):
            return self._occurs(v, t.elem)
        if isinstance(t, Prod):
            return self._occurs(v, t.left) or self._occurs(v, t.right)
        return False

    def default(self, v: TVar) -> Sort:
        """The documented default for a type variable nothing fixed."""
        cls = self.classes.get(v.id, set())
        if "integral" in cls or "intlike" in cls:
            return DEFAULT_INTEGRAL
        if cls:
            return DEFAULT_NUMERIC
        return OpaqueSort(self.names.get(v.id) or f"'t{v.id}")

    def finish(self, s: Sort, defaulted: dict[int, Sort] | None = None) -> Sort:
        """The IR sort of ``s``: defaults applied, curried functions flattened, pairs opaque."""
        s = self.resolve(s)
        if isinstance(s, TVar):
            d = self.default(s)
            self.subst[s.id] = d
            if defaulted is not None and self.classes.get(s.id):
                defaulted[s.id] = d
            return d
        if isinstance(s, FunSort):
            args = [self.finish(a, defaulted) for a in s.args]
            res = self.finish(s.result, defaulted)
            if isinstance(res, FunSort):
                return FunSort((*args, *res.args), res.result)
            return FunSort(tuple(args), res)
        if isinstance(s, SetSort):
            return SetSort(self.finish(s.elem, defaulted))
        if isinstance(s, ListSort):
            return ListSort(self.finish(s.elem, defaulted))
        if isinstance(s, Prod):
            return OpaqueSort(f"{_paren(self.finish(s.left, defaulted))} × {_paren(self.finish(s.right, defaulted))}")
        return s


def _paren(s: Sort) -> str:
    t = show_sort(s)
    return f"({t})" if (" " in t and not t.endswith(" set") and not t.endswith(" list")) else t


def show_sort(s: Sort) -> str:
    """Isabelle syntax for an IR sort (also used by the printer)."""
    if isinstance(s, BaseSort):
        return {NAT: "nat", INT: "int", RAT: "rat", REAL: "real", COMPLEX: "complex", BOOL: "bool"}[s]
    if isinstance(s, FunSort):
        return " ⇒ ".join(_fun_arg(a) for a in (*s.args, s.result))
    if isinstance(s, SetSort):
        return f"{_postfix_arg(s.elem)} set"
    if isinstance(s, ListSort):
        return f"{_postfix_arg(s.elem)} list"
    if isinstance(s, OpaqueSort):
        return s.name
    if isinstance(s, Prod):
        return f"{_postfix_arg(s.left)} × {_postfix_arg(s.right)}"
    if isinstance(s, TVar):
        return "_"
    return str(s)


def _fun_arg(s: Sort) -> str:
    t = show_sort(s)
    return f"({t})" if isinstance(s, FunSort) else t


def _postfix_arg(s: Sort) -> str:
    t = show_sort(s)
    simple = isinstance(s, (BaseSort, SetSort, ListSort)) or (isinstance(s, OpaqueSort) and " " not in s.name)
    return t if simple else f"({t})"


# --------------------------------------------------------------------------------------
# Reading types
# --------------------------------------------------------------------------------------


class TypeReader:
    """Recursive-descent reader of HOL types over inner-syntax tokens."""

    def __init__(self, toks: list[Token], i: int, uni: Unifier):
        self.toks, self.i, self.uni = toks, i, uni

    def peek(self, k: int = 0) -> Token:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def next(self) -> Token:
        t = self.toks[self.i]
        self.i += 1
        return t

    def read(self) -> Sort:
        left = self.read_prod()
        if self.peek().text in ("⇒", "=>"):
            self.next()
            right = self.read()
            return FunSort((left,), right)
        return left

    def read_prod(self) -> Sort:
        left = self.read_postfix()
        if self.peek().text in ("×", "*"):
            self.next()
            return Prod(left, self.read_prod())
        return left

    def read_postfix(self) -> Sort:
        s = self.read_atom()
        while True:
            t = self.peek()
            if t.kind == "ident" and t.text not in ("and", "for", "where"):
                name = self.next().text
                if name == "set":
                    s = SetSort(s)
                elif name == "list":
                    s = ListSort(s)
                else:
                    s = OpaqueSort(f"{_postfix_arg(self.uni.finish(s))} {name}")
            elif t.text == "^" and self.peek(1).kind in ("num", "ident"):  # real^2 (Cartesian space)
                self.next()
                dim = self.next()
                s = OpaqueSort(f"{_postfix_arg(self.uni.finish(s))}^{dim.text}")
            else:
                return s

    def read_atom(self) -> Sort:
        t = self.next()
        if t.kind == "tvar":
            v = self.uni.user_tvar(t.text)
            if self.peek().text == "::":
                self.next()
                cls = self.next()
                if cls.kind != "ident":
                    raise LexError("expected a type class name after ::", cls.pos)
                # Constrained user type variables stay opaque carriers ('a::real_normed_vector)
            return v
        if t.kind == "ident":
            if t.text in BASE_TYPES:
                return BASE_TYPES[t.text]
            return OpaqueSort(t.text)
        if t.text == "(":
            first = self.read()
            args = [first]
            while self.peek().text == ",":
                self.next()
                args.append(self.read())
            if self.next().text != ")":
                raise LexError("expected ) in type", self.toks[self.i - 1].pos)
            if len(args) > 1:  # (a, b) fun / (a, b) map
                name = self.next()
                if name.kind != "ident":
                    raise LexError("expected a type constructor after (T1, T2)", name.pos)
                if name.text == "fun" and len(args) == 2:
                    return FunSort((args[0],), args[1])
                return OpaqueSort(f"({', '.join(show_sort(self.uni.finish(a)) for a in args)}) {name.text}")
            return first
        if t.text == "[":  # [a, b] ⇒ c
            args = [self.read()]
            while self.peek().text == ",":
                self.next()
                args.append(self.read())
            if self.next().text != "]":
                raise LexError("expected ] in type", self.toks[self.i - 1].pos)
            if self.peek().text not in ("⇒", "=>"):
                raise LexError("expected ⇒ after [T1, ..., Tn] in a type", self.peek().pos)
            self.next()
            res = self.read()
            for a in reversed(args):
                res = FunSort((a,), res)
            return res
        raise LexError(f"expected a type, found {t.text or 'end of text'!r}", t.pos)
