"""Variables of product sorts split into their components (a normal-form step).

Why: a point written ``A :: real × real`` (or ``real^2``) is opaque to the solvers and to the
evaluator (no model may invent elements of a sort the IR does not model), so every
comparison mentioning one ended inconclusive. ``∀ A :: α × β. P A`` means ``∀ a b. P (a, b)``,
so each variable of a product sort (in the prefix or under an inner ∀/∃) becomes one
variable per component, and the pair operations with a fixed meaning reduce to the
components (``semantics.pairs``). Function variables that take or return pairs
(``f :: real × real ⇒ real``) are curried: ``f (a, b)`` becomes ``f a b`` over a function of
the components (a bijection of function spaces), when every occurrence applies them fully.

Pairs written out reduce the same way with no product variable to split (``(x, y) = (0, 0)``
over two reals), except a conclusion ``(a, b) = (2, 4)`` with a closed side: it stays an
answer that the value route compares whole (the SMT lowering reduces it for the solvers).

What is left (a pair in a set-builder, an unknown function of a pair) keeps its product sort
and stays opaque, as before. The components of one variable are recorded as dependent in
order (``NormalForm.deps``): an alignment maps a point's components onto one point's
components, in order, never onto unrelated numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

from provers.ir import (
    App,
    FunSort,
    ProdSort,
    Quant,
    Sort,
    Term,
    Uninterpreted,
    Var,
    app,
    conjuncts,
    free_vars,
    map_term,
    rebuild,
    substitute,
    subterms,
)
from provers.semantics.pairs import changed, components, has_products, pair, reduce, simplify

if TYPE_CHECKING:  # normal.py imports this module
    from provers.engine.normal import NormalForm

_SUBSCRIPT = str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉")


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


def _flattenable(t: Term) -> bool:
    """Whether ``_flat_terms`` can write ``t`` out: written-out pairs, or pairs (two parts)
    reached by ``fst``/``snd`` (a vector of ``real^3`` not written out has no projections here)."""
    if not isinstance(t.sort, ProdSort):
        return True
    parts = components(t)
    if parts is not None:
        return all(_flattenable(p) for p in parts)
    return _projectable(t.sort)


def _projectable(s: Sort) -> bool:
    return not isinstance(s, ProdSort) or (len(s.parts) == 2 and all(_projectable(p) for p in s.parts))


def _rebuild_sorted(s: Sort, values: list[Term]) -> Term:
    it = iter(values)

    def build(x: Sort) -> Term:
        if isinstance(x, ProdSort):
            return pair(tuple(build(p) for p in x.parts), x)
        return next(it)

    return build(s)


def _fully_applied(f: Var, terms: list[Term]) -> bool:
    """Every occurrence of ``f`` is the head of an application to all its arguments, each one
    it can write out (and no binder inside reuses the name: its occurrences are another
    variable)."""
    arity = len(f.sort.args)  # type: ignore[attr-defined]
    heads = occurrences = 0
    for t in terms:
        for s in subterms(t):
            if f in getattr(s, "vars", ()) or getattr(s, "var", None) == f:
                return False
            if s == f:
                occurrences += 1
            elif isinstance(s, App) and s.op == "apply" and s.args[0] == f:
                if len(s.args) - 1 != arity or not all(_flattenable(a) for a in s.args[1:]):
                    return False
                heads += 1
    return occurrences == heads


def split_terms(terms: list[Term], variables: list[Var], splitter: Splitter, isabelle: bool,
                pairs: bool) -> tuple[list[Term], dict[Var, list[Var]]]:
    """``terms`` with the product ``variables`` replaced by their components (and inner
    ∀/∃ over products split), pair operations reduced; each split variable → its components.
    ``pairs``: the terms bind or write out a pair (``_has_pairs``), so there is work to do
    even with no variable to split."""
    mapping: dict[Var, Term] = {}
    split: dict[Var, list[Var]] = {}
    curried: dict[Var, Callable[[tuple[Term, ...]], Term]] = {}
    for v in variables:
        if isinstance(v.sort, ProdSort):
            split[v], mapping[v] = splitter.split(v)
        elif isinstance(v.sort, FunSort) and has_products(v.sort) and _fully_applied(v, terms):
            split[v], curried[v] = splitter.curry(v)
    if not split and not pairs:
        return terms, {}

    def fix(s: Term) -> Term | None:
        if isinstance(s, App) and s.op == "apply" and s.args[0] in curried:
            return curried[s.args[0]](s.args[1:])  # type: ignore[index]
        if _splits(s):
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
        return changed(s, reduce(s, isabelle))

    def split_term(t: Term) -> Term:
        return map_term(substitute(t, mapping) if mapping else t, fix)

    *premises, conclusion = terms
    out = [split_term(t) for t in premises]
    if isinstance(conclusion, App) and conclusion.op == "eq":
        eq = rebuild(conclusion, tuple(split_term(a) for a in conclusion.args))
        reduced = None if _pair_answer(eq) else fix(eq)  # "(x, y) = (2, 4)" stays an answer
        out.append(eq if reduced is None else reduced)
    else:
        out.append(split_term(conclusion))
    return out, split


def _pair_answer(eq: App) -> bool:
    """``a = c`` between two written-out pairs of which one is closed: the value route
    (``standardize``) compares such answers whole, so the equality is not reduced to its
    components (the solvers get the components from the lowering)."""
    return all(components(s) is not None for s in eq.args) and any(not free_vars(s) for s in eq.args)


def _splits(s: Term) -> bool:
    """A ∀ or ∃ over a pair (∃! is left alone: Isabelle's ``∃!x y. P`` nests, a split would
    claim one unique pair)."""
    return isinstance(s, Quant) and s.kind in ("forall", "exists") and any(isinstance(v.sort, ProdSort) for v in s.vars)


def _has_pairs(terms: list[Term]) -> bool:
    """Whether an inner ∀/∃ binds a pair or a pair is written out (``(x, y) = (0, 0)``):
    either is work even with no product variable to split."""
    return any(_splits(s) or components(s) is not None for t in terms for s in subterms(t))


def split_normal_form(nf: NormalForm) -> NormalForm:
    """``nf`` with its product variables split (see the module docstring); ``nf`` itself
    when it has none."""
    terms = [*nf.premises, nf.conclusion]
    variables = [v for v in nf.variables if has_products(v.sort)]
    pairs = _has_pairs(terms)
    if not variables and not pairs:
        return nf
    taken = {s.name for t in terms for s in subterms(t) if isinstance(s, Var)} | {v.name for v in nf.variables}
    isabelle = nf.source is not None and nf.source.language == "isabelle"
    new_terms, split = split_terms(terms, variables, Splitter(taken), isabelle, pairs)
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
