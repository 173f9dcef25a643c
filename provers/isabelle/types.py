"""HOL types for the Isabelle frontend: the type classes it tracks, the pending sorts of one
statement (``HolSorts``: unification with classes, defaults), and the reader of HOL type
expressions.

Unknown types are the IR's pending sorts (``provers.ir.pending.SortVar``); pairs (``Prod``) are
a pre-sort of this frontend. Both exist only while a statement is elaborated:
``HolSorts.finish`` turns every sort into an IR sort (defaulting numeric type variables by the
documented rule) before any term leaves the frontend.
"""

from __future__ import annotations

from dataclasses import dataclass

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
    PendingSorts,
    ProdSort,
    SetSort,
    Sort,
    SortClash,
    SortVar,
)
from provers.isabelle.lexer import LexError, Token


@dataclass(frozen=True)
class Prod(Sort):
    """Isabelle ``'a × 'b`` (internal; leaves the frontend as an IR ``ProdSort``)."""

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

#: ``real^n`` up to this n is a product of n reals (``engine.products`` splits it).
MAX_VECTOR_DIM = 8

BASE_TYPES = {"nat": NAT, "int": INT, "rat": RAT, "real": REAL, "complex": COMPLEX, "bool": BOOL}


class HolSorts(PendingSorts):
    """The pending sorts of one HOL statement: Isabelle's type classes and defaults."""

    def __init__(self) -> None:
        super().__init__()
        self.user_tvars: dict[str, SortVar] = {}

    def user_tvar(self, name: str) -> SortVar:
        """The type variable the user wrote as ``'a`` (one per statement)."""
        if name not in self.user_tvars:
            self.user_tvars[name] = self.fresh(name=name)
        return self.user_tvars[name]

    def check_class(self, s: Sort, cls: str) -> None:
        if isinstance(s, OpaqueSort):
            return  # a carrier the IR does not model: trust the user's class
        if s not in CLASSES[cls]:
            raise SortClash(f"{show_sort(self.resolve(s))} is not {_CLASS_WORDS[cls]}")

    def show(self, s: Sort) -> str:
        return show_sort(s)

    def default(self, v: SortVar) -> Sort:
        """The documented default for a type variable nothing fixed."""
        cls = self.classes.get(v.id, {})
        if "integral" in cls or "intlike" in cls:
            return DEFAULT_INTEGRAL
        if cls:
            return DEFAULT_NUMERIC
        return OpaqueSort(self.names.get(v.id) or f"'t{v.id}")

    def finish(self, s: Sort, defaulted: dict[int, Sort] | None = None) -> Sort:
        """The IR sort of ``s``: defaults applied (the numeric ones recorded in ``defaulted``),
        curried functions flattened, pairs as product sorts."""

        def default(v: SortVar) -> Sort:
            d = self.default(v)
            if defaulted is not None and self.classes.get(v.id):
                defaulted[v.id] = d
            return d

        return _lower(self.ground(s, default))


def _lower(s: Sort) -> Sort:
    """A ground HOL sort as an IR sort: ``a ⇒ b ⇒ c`` is one two-argument function sort,
    a pair type a product sort (opaque until the normal form splits it)."""
    if isinstance(s, FunSort):
        args = [_lower(a) for a in s.args]
        res = _lower(s.result)
        if isinstance(res, FunSort):
            return FunSort((*args, *res.args), res.result)
        return FunSort(tuple(args), res)
    if isinstance(s, SetSort):
        return SetSort(_lower(s.elem))
    if isinstance(s, ListSort):
        return ListSort(_lower(s.elem))
    if isinstance(s, Prod):
        left, right = _lower(s.left), _lower(s.right)
        return ProdSort(f"{_paren(left)} × {_paren(right)}", (left, right))
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
    if isinstance(s, SortVar):
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

    def __init__(self, toks: list[Token], i: int, uni: HolSorts):
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
                base = self.uni.finish(s)
                name = f"{_postfix_arg(base)}^{dim.text}"
                if dim.kind == "num" and dim.text.isdigit() and 1 <= int(dim.text) <= MAX_VECTOR_DIM \
                        and isinstance(base, BaseSort):
                    s = ProdSort(name, (base,) * int(dim.text))  # its components, as a tuple
                else:
                    s = OpaqueSort(name)
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
