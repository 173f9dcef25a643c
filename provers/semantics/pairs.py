"""The meaning of pair operations: one handler per operation (``PAIR_OPERATIONS``) that
reduces an operation applied to written-out pairs to the components.

Why here: the normal form splits product variables into components (``engine.products``)
and the evaluator enumerates sets of pairs (``domains``); both need the same reductions.
Meanings: ``fst``/``snd``, ``=``/``≠`` componentwise, ``∈`` a literal set of pairs or a
Cartesian product of sets (``Times``, Isabelle's ``A × B``); Isabelle's
vector-space structure on products of reals (HOL-Analysis ``Product_Vector``, and the
Cartesian spaces ``real^n``): ``+``, ``-``, ``*⇩R``, ``midpoint`` componentwise, ``inner`` the sum
of products, ``norm`` and ``dist`` Euclidean (``dist x y = sqrt (dist (fst x) (fst y)² +
dist (snd x) (snd y)²)``, ``dist a b = |a - b|`` on ℝ). Lean's ``ℝ × ℝ`` carries the sup metric,
so the metric and vector operations are read only in Isabelle statements (``isabelle=``).
"""

from __future__ import annotations

from collections.abc import Callable

from provers.ir import (
    NAT,
    REAL,
    App,
    FunSort,
    IRError,
    Num,
    ProdSort,
    Sort,
    Term,
    Uninterpreted,
    and_,
    app,
    map_term,
    or_,
)

PAIR = "Pair"


def has_products(sort: Sort) -> bool:
    """Whether ``sort`` is a product or a function taking or returning one."""
    if isinstance(sort, ProdSort):
        return True
    if isinstance(sort, FunSort):
        return any(has_products(a) for a in (*sort.args, sort.result))
    return False


def pair(parts: tuple[Term, ...], sort: ProdSort) -> Term:
    return Uninterpreted(PAIR, parts, sort)


def components(t: Term) -> tuple[Term, ...] | None:
    """The components of a pair written out (``(a, b)``, ``vector [a, b]`` of ``real^2``, a
    zero of a product), else None."""
    if not isinstance(t, Uninterpreted) or not isinstance(t.sort, ProdSort):
        return None
    if t.symbol == PAIR and len(t.args) == len(t.sort.parts):
        return t.args
    if t.symbol == "vector" and len(t.args) == 1 and isinstance(t.args[0], Uninterpreted) \
            and t.args[0].symbol == "list" and len(t.args[0].args) == len(t.sort.parts):
        return t.args[0].args  # Isabelle's vector [x, y] $ 1 = x, $ 2 = y (lemma vector_2)
    if t.symbol == "0" and not t.args:
        return tuple(_zero(s) for s in t.sort.parts)
    return None


def _zero(s: Sort) -> Term:
    if isinstance(s, ProdSort):
        return pair(tuple(_zero(p) for p in s.parts), s)
    try:
        return Num(0, s)
    except IRError:  # a sort without numerals: an opaque zero
        return Uninterpreted("0", (), s)


def _leaves(t: Term) -> list[Term] | None:
    """The real leaves of a nested pair of reals, else None."""
    parts = components(t)
    if parts is None:
        return [t] if t.sort == REAL else None
    out: list[Term] = []
    for p in parts:
        sub = _leaves(p)
        if sub is None:
            return None
        out.extend(sub)
    return out


# --------------------------------------------------------------------------------------
# One handler per pair operation: (term, its arguments' components) -> reduced term or None
# --------------------------------------------------------------------------------------

Handler = Callable[[Term], "Term | None"]
PAIR_OPERATIONS: dict[str, Handler] = {}
#: operations read only in Isabelle statements (Lean's product metric differs)
ISABELLE_ONLY: frozenset[str] = frozenset({"add", "sub", "isa:minus", "minus", "neg", "uminus", "scaleR",
                                           "midpoint", "inner", "norm", "dist"})


def _handler(*names: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for n in names:
            PAIR_OPERATIONS[n] = fn
        return fn

    return register


@_handler("fst", "snd", "Prod.fst", "Prod.snd")
def _project(t: Term) -> Term | None:
    parts = components(t.args[0]) if len(t.args) == 1 else None  # type: ignore[attr-defined]
    if parts is None:
        return None
    return parts[0 if t.symbol.endswith("fst") else 1]  # type: ignore[attr-defined]


@_handler("eq", "ne")
def _equality(t: Term) -> Term | None:
    a, b = t.args  # type: ignore[attr-defined]
    pa, pb = components(a), components(b)
    if pa is None or pb is None:
        return None
    both = and_(*(reduce(app("eq", x, y)) for x, y in zip(pa, pb, strict=True)))
    return both if t.op == "eq" else app("not", both)  # type: ignore[attr-defined]


@_handler("mem")
def _member(t: Term) -> Term | None:
    """``(a, b) ∈ {p₁, …}`` as ``(a, b) = p₁ ∨ …``; ``(a, b) ∈ A × B`` (Isabelle's ``Times``) as
    ``a ∈ A ∧ b ∈ B``."""
    x, s = t.args  # type: ignore[attr-defined]
    parts = components(x)
    if parts is not None and isinstance(s, Uninterpreted) and s.symbol == "Times" and len(s.args) == len(parts) == 2:
        return and_(*(app("mem", p, factor) for p, factor in zip(parts, s.args, strict=True)))
    if parts is None or not (isinstance(s, App) and s.op == "set_of"):
        return None
    return or_(*(reduce(app("eq", x, e)) for e in s.args))


def _componentwise(op: str) -> Handler:
    def handler(t: Term) -> Term | None:
        parts = [components(a) for a in t.args]  # type: ignore[attr-defined]
        if any(p is None for p in parts) or _leaves(t.args[0]) is None:  # type: ignore[attr-defined]
            return None
        out = tuple(reduce(_arith(op, *xs)) for xs in zip(*parts, strict=True))  # type: ignore[misc]
        return pair(out, t.sort)  # type: ignore[arg-type]

    return handler


def _arith(op: str, *xs: Term) -> Term:
    if components(xs[0]) is not None:  # a nested pair: its operation, reduced again
        return Uninterpreted(op, xs, xs[0].sort)
    return app(op, *xs)


PAIR_OPERATIONS["add"] = _componentwise("add")
for _minus in ("sub", "isa:minus", "minus"):
    PAIR_OPERATIONS[_minus] = _componentwise("sub")
for _neg in ("neg", "uminus"):
    PAIR_OPERATIONS[_neg] = _componentwise("neg")


@_handler("scaleR")
def _scale(t: Term) -> Term | None:
    c, p = t.args  # type: ignore[attr-defined]
    parts = components(p)
    if parts is None or c.sort != REAL or _leaves(p) is None:
        return None
    return pair(tuple(reduce(Uninterpreted("scaleR", (c, x), x.sort) if components(x) is not None else app("mul", c, x))
                      for x in parts), p.sort)  # type: ignore[arg-type]


@_handler("midpoint")
def _midpoint(t: Term) -> Term | None:
    a, b = t.args  # type: ignore[attr-defined]
    la, lb = _leaves(a), _leaves(b)
    if la is None or lb is None or components(a) is None:
        return None
    return _rebuild_like(a, [app("div", app("add", x, y), Num(2, REAL)) for x, y in zip(la, lb, strict=True)])


def _rebuild_like(shape: Term, leaves: list[Term]) -> Term:
    """A pair of the shape of ``shape`` with ``leaves`` as its real leaves, in order."""
    it = iter(leaves)

    def build(s: Term) -> Term:
        parts = components(s)
        if parts is None:
            return next(it)
        return pair(tuple(build(p) for p in parts), s.sort)  # type: ignore[arg-type]

    return build(shape)


def _sum(terms: list[Term]) -> Term:
    out = terms[0]
    for x in terms[1:]:
        out = app("add", out, x)
    return out


def _square(x: Term) -> Term:
    return app("pow", x, Num(2, NAT))


@_handler("inner")
def _inner(t: Term) -> Term | None:
    la, lb = (_leaves(a) for a in t.args)  # type: ignore[attr-defined]
    if la is None or lb is None or len(la) < 2:
        return None
    return _sum([app("mul", x, y) for x, y in zip(la, lb, strict=True)])


@_handler("norm")
def _norm(t: Term) -> Term | None:
    la = _leaves(t.args[0]) if len(t.args) == 1 else None  # type: ignore[attr-defined]
    if la is None or len(la) < 2:
        return None
    return app("signed_sqrt", _sum([_square(x) for x in la]))


@_handler("dist")
def _dist(t: Term) -> Term | None:
    la, lb = (_leaves(a) for a in t.args)  # type: ignore[attr-defined]
    if la is None or lb is None or len(la) < 2:
        return None
    return app("signed_sqrt", _sum([_square(app("sub", x, y)) for x, y in zip(la, lb, strict=True)]))


def reduce(t: Term, isabelle: bool = True) -> Term:
    """``t`` with the pair operation at its root reduced (once its arguments are)."""
    name = t.op if isinstance(t, App) else t.symbol if isinstance(t, Uninterpreted) else None
    handler = PAIR_OPERATIONS.get(name) if name is not None else None
    if handler is None or (not isabelle and name in ISABELLE_ONLY):
        return t
    out = handler(t)
    return t if out is None else out


def simplify(t: Term, isabelle: bool = True) -> Term:
    """Every pair operation of ``t`` reduced, bottom-up."""
    return map_term(t, lambda s: changed(s, reduce(s, isabelle)))


def changed(old: Term, new: Term) -> Term | None:
    return None if new is old else new
