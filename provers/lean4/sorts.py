"""Small sort helpers shared by the Lean elaborator and its special-name handlers."""

from __future__ import annotations

from provers.ir import (
    NUMERIC_ORDER,
    App,
    BaseSort,
    FunSort,
    Lam,
    ListSort,
    Num,
    OpaqueSort,
    SetSort,
    Sort,
    SortVar,
    Term,
    app,
    is_numeric,
    map_term,
    substitute,
)
from provers.lean4.syntax import Syn

#: The sort of a term whose sort nothing fixes (an unknown function applied with no expected
#: type): an opaque carrier like any other in the IR. While elaborating, such a term is
#: "flexible" (see ``Res``) and is elaborated again where a sort is expected.
UNKNOWN = OpaqueSort("?")

Res = tuple[Term, bool]  # (term, flexible: its sort was only defaulted)


def modelled(s: Sort) -> bool:
    """Sorts the IR interprets: numbers, Prop, and sets/lists/functions of those."""
    if isinstance(s, BaseSort):
        return True
    if isinstance(s, (SetSort, ListSort)):
        return modelled(s.elem)
    if isinstance(s, FunSort):
        return all(modelled(a) for a in s.args) and modelled(s.result)
    return False


def can_cast(src: Sort, dst: Sort) -> bool:
    return is_numeric(src) and is_numeric(dst) and NUMERIC_ORDER.index(src) <= NUMERIC_ORDER.index(dst)


def unfixed(s: Sort | None) -> bool:
    """Nothing is known about ``s``: a binder's sort still being inferred (a pending
    ``SortVar``), or ``UNKNOWN``."""
    return isinstance(s, SortVar) or s == UNKNOWN


def term_syn(t: Term, like: Syn) -> Syn:
    """Wrap an already elaborated term as syntax (field notation inserts receivers this way)."""
    return Syn("term", like.pos, like.end, "", (), (), {"term": t})


def flat(op: str, *args: Term) -> Term:
    """n-ary ``and``/``or`` with nested runs flattened (``a ∧ (b ∧ c)`` is one node with three
    conjuncts, whatever the parenthesization); unlike ``ir.and_`` it keeps ``True`` operands."""
    out: list[Term] = []
    for a in args:
        if isinstance(a, App) and a.op == op:
            out.extend(a.args)
        else:
            out.append(a)
    return out[0] if len(out) == 1 else app(op, *out)


def conj(*args: Term) -> Term:
    return flat("and", *args)


def apply(f: Term, *args: Term) -> Term:
    """``f args`` with a lambda head beta-reduced (as the frontend reads ``(fun x => …) a``),
    so the same statement never has two IR shapes."""
    if isinstance(f, Lam) and len(f.vars) == len(args):
        return beta(f, args)
    return app("apply", f, *args)


def beta(f: Lam, args: tuple[Term, ...] | list[Term]) -> Term:
    """The body of ``f`` with its variables replaced by ``args``; a numeral substituted under a
    cast is folded (``↑n`` at ``n := 2`` is ``(2 : ℝ)``, as if written so)."""
    out = substitute(f.body, dict(zip(f.vars, args, strict=True)))

    def fold(t: Term) -> Term | None:
        if isinstance(t, App) and t.op == "cast" and isinstance(t.args[0], Num):
            return Num(t.args[0].value, t.sort)
        return None

    return map_term(out, fold) if any(isinstance(a, Num) for a in args) else out
