"""Variables of product sorts split into their components (a normal-form step).

Product sorts are Isabelle's pairs ``α × β`` and its Cartesian spaces ``real^n`` (n ≤ 8,
written ``vector [x, y]``); both carry the same Euclidean structure on reals.

Why: a point written ``A :: real × real`` is opaque to the solvers and to the evaluator (no
model may invent elements of a sort the IR does not model), so every comparison mentioning
one ended inconclusive. ``∀ A :: α × β. P A`` means ``∀ a b. P (a, b)``, so each variable of a
product sort (in the prefix or under an inner ∀/∃) becomes one variable per component, and
the pair operations with a fixed meaning reduce to their components
(``PAIR_OPERATIONS``, one handler per operation):

* ``fst``/``snd`` of a pair, ``=``/``≠`` componentwise, ``∈`` a literal set of pairs;
* Isabelle's vector-space structure on products of reals (HOL-Analysis ``Product_Vector``):
  ``+``, ``-``, ``*⇩R``, ``midpoint`` componentwise, ``inner`` the sum of products, ``norm``
  and ``dist`` Euclidean (``dist x y = sqrt (dist (fst x) (fst y)² + dist (snd x) (snd y)²)``
  with ``dist a b = |a - b|`` on ℝ). Lean's ``ℝ × ℝ`` carries the sup metric, so these are
  read only in Isabelle statements (Lean pairs are not product sorts in the IR yet);
* function variables that take or return pairs (``f :: real × real ⇒ real``) are curried:
  ``f (a, b)`` becomes ``f a b`` over a function of the components (a bijection of function
  spaces), when every occurrence applies them fully.

What is left (a pair in a set-builder, an unknown function of a pair) keeps its product sort
and stays opaque, as before. The components of one variable are recorded as dependent in
order (``NormalForm.deps``): an alignment maps a point's components onto one point's
components, in order, never onto unrelated numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from provers.ir import (
    NAT,
    REAL,
    App,
    FunSort,
    Num,
    ProdSort,
    Quant,
    Sort,
    Term,
    Uninterpreted,
    Var,
    and_,
    app,
    conjuncts,
    map_term,
    or_,
    substitute,
    subterms,
)

PAIR = "Pair"
_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


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
    except Exception:  # noqa: BLE001 - a sort without numerals: an opaque zero
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
    x, s = t.args  # type: ignore[attr-defined]
    if components(x) is None or not (isinstance(s, App) and s.op == "set_of"):
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
    return map_term(t, lambda s: _changed(s, reduce(s, isabelle)))


def _changed(old: Term, new: Term) -> Term | None:
    return None if new is old else new


# --------------------------------------------------------------------------------------
# Splitting variables
# --------------------------------------------------------------------------------------


class Splitter:
    """Fresh component names for one normal form (``A`` → ``A₁``, ``A₂``)."""

    def __init__(self, taken: set[str]):
        self.taken = taken

    def name(self, base: str, i: int) -> str:
        out = f"{base}{str(i).translate(_SUBSCRIPT)}"
        while out in self.taken:
            out += "'"
        self.taken.add(out)
        return out

    def split(self, v: Var) -> tuple[list[Var], Term]:
        """The component variables of ``v`` (flattened, in order) and ``v`` written as a pair of them."""
        assert isinstance(v.sort, ProdSort)
        leaves: list[Var] = []
        parts: list[Term] = []
        for i, s in enumerate(v.sort.parts, 1):
            c = Var(self.name(v.name, i), s)
            if isinstance(s, ProdSort):
                sub, value = self.split(c)
                leaves.extend(sub)
                parts.append(value)
            else:
                leaves.append(c)
                parts.append(c)
        return leaves, pair(tuple(parts), v.sort)

    def curry(self, f: Var) -> tuple[list[Var], Callable[[tuple[Term, ...]], Term]]:
        """Component functions of a function variable taking or returning pairs, and how a
        full application ``f xs`` reads through them."""
        s = f.sort
        assert isinstance(s, FunSort)
        flat_args: list[Sort] = []
        for a in s.args:
            flat_args.extend(_flat_sorts(a))
        results = _flat_sorts(s.result)
        fs = [Var(self.name(f.name, i) if len(results) > 1 else self.name(f.name, 0), FunSort(tuple(flat_args), r))
              for i, r in enumerate(results, 1)]

        def apply(xs: tuple[Term, ...]) -> Term:
            flat: list[Term] = []
            for x in xs:
                flat.extend(_flat_terms(x))
            values = [app("apply", g, *flat) for g in fs]
            return _rebuild_sorted(s.result, values)

        return fs, apply


def _flat_sorts(s: Sort) -> list[Sort]:
    if isinstance(s, ProdSort):
        return [x for p in s.parts for x in _flat_sorts(p)]
    return [s]


def _flat_terms(t: Term) -> list[Term]:
    if isinstance(t.sort, ProdSort):
        parts = components(t)
        if parts is None:
            parts = tuple(reduce(Uninterpreted(n, (t,), p)) for n, p in zip(("fst", "snd"), t.sort.parts, strict=True))
        return [x for p in parts for x in _flat_terms(p)]
    return [t]


def _rebuild_sorted(s: Sort, values: list[Term]) -> Term:
    it = iter(values)

    def build(x: Sort) -> Term:
        if isinstance(x, ProdSort):
            return pair(tuple(build(p) for p in x.parts), x)
        return next(it)

    return build(s)


def _fully_applied(f: Var, terms: list[Term]) -> bool:
    """Every occurrence of ``f`` is the head of an application to all its arguments."""
    arity = len(f.sort.args)  # type: ignore[attr-defined]
    heads = 0
    for t in terms:
        for s in subterms(t):
            if isinstance(s, App) and s.op == "apply" and s.args[0] == f:
                if len(s.args) - 1 != arity:
                    return False
                heads += 1
    total = sum(1 for t in terms for s in subterms(t) if s == f)
    return total == heads


def split_terms(terms: list[Term], variables: list[Var], splitter: Splitter, isabelle: bool
                ) -> tuple[list[Term], dict[Var, list[Var]]]:
    """``terms`` with the product ``variables`` replaced by their components (and inner
    ∀/∃ over products split), pair operations reduced; each split variable → its components."""
    mapping: dict[Var, Term] = {}
    split: dict[Var, list[Var]] = {}
    curried: dict[Var, Callable[[tuple[Term, ...]], Term]] = {}
    for v in variables:
        if isinstance(v.sort, ProdSort):
            split[v], mapping[v] = splitter.split(v)
        elif isinstance(v.sort, FunSort) and has_products(v.sort) and _fully_applied(v, terms):
            split[v], curried[v] = splitter.curry(v)
    if not split and not any(_binds_products(t) for t in terms):
        return terms, {}

    def fix(s: Term) -> Term | None:
        if isinstance(s, App) and s.op == "apply" and s.args[0] in curried:
            return curried[s.args[0]](s.args[1:])  # type: ignore[index]
        if isinstance(s, Quant) and any(isinstance(v.sort, ProdSort) for v in s.vars):
            inner: dict[Var, Term] = {}
            new_vars: list[Var] = []
            for v in s.vars:
                if isinstance(v.sort, ProdSort):
                    leaves, value = splitter.split(v)
                    inner[v] = value
                    new_vars.extend(leaves)
                else:
                    new_vars.append(v)
            return Quant(s.kind, tuple(new_vars), simplify(substitute(s.body, inner), isabelle))
        return _changed(s, reduce(s, isabelle))

    out = [map_term(substitute(t, mapping) if mapping else t, fix) for t in terms]
    return out, split


def _binds_products(t: Term) -> bool:
    return any(isinstance(s, Quant) and any(isinstance(v.sort, ProdSort) for v in s.vars) for s in subterms(t))


def split_normal_form(nf):  # type: ignore[no-untyped-def]
    """``nf`` with its product variables split (see the module docstring); ``nf`` itself
    when it has none."""
    terms = [*nf.premises, nf.conclusion]
    variables = [v for v in nf.variables if has_products(v.sort)]
    if not variables and not any(_binds_products(t) for t in terms):
        return nf
    taken = {s.name for t in terms for s in subterms(t) if isinstance(s, Var)} | {v.name for v in nf.variables}
    isabelle = nf.source is not None and nf.source.language == "isabelle"
    new_terms, split = split_terms(terms, variables, Splitter(taken), isabelle)
    prefix: list[tuple[str, Var]] = []
    deps: dict[Var, frozenset[Var]] = {}
    old_deps = nf.dependencies()

    def expand(vs: frozenset[Var]) -> frozenset[Var]:
        return frozenset(c for v in vs for c in split.get(v, [v]))

    for kind, v in nf.prefix:
        parts = split.get(v)
        if parts is None:
            prefix.append((kind, v))
            deps[v] = expand(old_deps.get(v, frozenset()))
            continue
        previous = expand(old_deps.get(v, frozenset()))
        for c in parts:  # each component depends on the one before: points align as points
            prefix.append((kind, c))
            deps[c] = previous
            previous = frozenset({c})
    premises: list[Term] = []
    for p in new_terms[:-1]:
        premises.extend(q for q in conjuncts(p) if q not in premises)
    return replace(nf, prefix=tuple(prefix), premises=tuple(premises), conclusion=new_terms[-1],
                   deps=tuple((v, deps[v]) for _, v in prefix))
