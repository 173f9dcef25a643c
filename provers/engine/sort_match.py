"""Matching the types and sorts of two statements before their variables are aligned.

Why apart from ``align``: an alignment pairs variables of one sort, so what counts as "one
sort" decides which statements can be equivalent at all, and a sort named by text or by an
inference counter would make a statement inequivalent to itself (stop 59's respellings,
``experiments/respell.py``). Here: type variables matched up to renaming (Lean's ``{G :
Type*}``, ``match_types``; Isabelle's inferred ``'t3``, ``schematic_types``); dependent sorts
that name object variables (``x : Fin n``, ``[CharP F p]``) compared by their shape with those
names blanked (``sort_shapes``, ``instance_shapes``) and renamed with the variables
(``rename_sort``, ``rename_types``, ``objects_renamed``) once an alignment pairs them.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import replace

from provers.engine.normal import NormalForm, sort_mentions
from provers.ir import (
    OpaqueSort,
    Sort,
    Term,
    Uninterpreted,
    Var,
    is_universe,
    map_term,
    rename_sort,
    renamed_within,
    sort_words,
    subterms,
)

#: orders of the type variables tried when matching instance binders (5! = 120)
MAX_TYPE_ORDERS = 120


def names_within(s: Sort) -> set[str]:
    """The words of the opaque sort names in ``s`` (the variables a dependent sort names; the
    variable an invented ``α_x`` is the type of)."""
    return {w for n in sort_mentions(s) for w in sort_words(n)}


def dependent_sorts(nf: NormalForm) -> bool:
    """Whether a variable's sort names another variable (``x : Fin n``)."""
    names = {v.name for v in nf.variables}
    return any(names_within(v.sort) & names for v in nf.variables)


def sorts_name_variables(nf: NormalForm) -> bool:
    """Whether any sort in ``nf`` — of a variable or of a term (``(k : ZMod p)``, ``2 : ZMod p``)
    — names one of its variables: renaming those variables must rename those sorts."""
    names = {v.name for v in nf.variables}
    return any(names_within(OpaqueSort(n)) & names for n in nf.opaque_sorts)


def sort_shapes(nf: NormalForm) -> dict[Var, Sort]:
    """Each variable's sort with the statement's variables it names replaced by ``·``: what
    two statements' dependent sorts must share whatever their variables are called."""
    blank = dict.fromkeys((v.name for v in nf.variables), "·")
    return {v: rename_sort(v.sort, blank) for v in nf.variables}


def rename_types(nf: NormalForm, mapping: dict[str, str]) -> NormalForm:
    """``nf`` with its type variables (opaque carriers) renamed, for aligning ``[Group G]``
    with ``[Group H]``."""
    if not mapping or all(k == v for k, v in mapping.items()):
        return nf

    def tm(t: Term) -> Term:
        return map_term(t, _renamer(mapping, objects=False))

    def tv(v: Var) -> Var:
        return Var(v.name, rename_sort(v.sort, mapping))

    return replace(
        nf,
        prefix=tuple((k, tv(v)) for k, v in nf.prefix),
        premises=tuple(tm(p) for p in nf.premises),
        conclusion=tm(nf.conclusion),
        types=tuple(Var(mapping.get(v.name, v.name), v.sort) for v in nf.types),
        instances=tuple(tm(i) for i in nf.instances),
        deps=tuple((tv(v), frozenset(tv(u) for u in ds)) for v, ds in nf.deps),
    )


def match_types(a: NormalForm, b: NormalForm) -> tuple[list[NormalForm], str | None]:
    """B with its type variables renamed to A's, once per correspondence under which the
    universes, the instance binders and the sorts of the object variables agree (binder order
    first; auto-bound ``α β`` are bound in order of use, not as ``{X Y}`` are written). Returns
    (the renamed Bs, failure reason or None); a verdict of inequivalence needs every one ruled out."""
    if not a.types and not b.types:
        return _schematic_types_matched(a, b), None
    if len(a.types) != len(b.types):
        return [b], f"type variables differ: {len(a.types)} vs {len(b.types)}"
    for ta, tb in zip(a.types, b.types, strict=True):
        if ta.sort != tb.sort:  # `α : Sort u` ranges over Prop too, `α : Type*` does not
            return [b], f"binder universes differ: {ta.name} : {ta.sort} vs {tb.name} : {tb.sort}"
    ia = instance_shapes(a)
    sa = sorted(repr(v.sort) for _, v in a.prefix)
    fits, first = [], None
    for order in itertools.islice(itertools.permutations(b.types), MAX_TYPE_ORDERS):
        if any(ta.sort != tb.sort for ta, tb in zip(a.types, order, strict=True)):
            continue
        b2 = rename_types(b, {tb.name: ta.name for ta, tb in zip(a.types, order, strict=True)})
        if instance_shapes(b2) != ia:
            first = first or b2
            continue
        fits.append(b2)
    if not fits:
        return [first or b], "instance binders differ"
    same_sorts = [b2 for b2 in fits if sorted(repr(v.sort) for _, v in b2.prefix) == sa]
    return same_sorts or fits, None


def objects_renamed(t: Term, names: dict[str, str]) -> Term:
    """``t`` with the object variables ``names`` renames (and the names inside type symbols)."""
    return map_term(t, _renamer(names, objects=True))


def _renamer(mapping: dict[str, str], objects: bool) -> Callable[[Term], Term | None]:
    """The ``map_term`` step renaming ``mapping``'s names: in every sort and type symbol, and as
    variables — the object variables (``objects``; bound ones too, their sorts may name the
    renamed ones: ``∀ a : Fin n``) or the carriers (``[Group G]``)."""
    def fix(u: Term) -> Term | None:
        if isinstance(u, Var):
            name = mapping[u.name] if u.name in mapping and is_universe(u.sort) != objects else u.name
            out = Var(name, rename_sort(u.sort, mapping))
            return out if out != u else None
        if isinstance(u, Uninterpreted) and is_universe(u.sort) and not u.args:
            named = renamed_within(u.symbol, mapping)  # a type as a term: `(Fin m) → ℝ`
            return replace(u, symbol=named) if named != u.symbol else None
        if "sort" in getattr(u, "__dataclass_fields__", {}):
            ns = rename_sort(u.sort, mapping)
            return replace(u, sort=ns) if ns != u.sort else None  # type: ignore[call-arg]
        return None

    return fix


def instance_shapes(nf: NormalForm) -> list[str]:
    """The instance binders with the object variables they name blanked (``[CharP F p]``):
    which of them an alignment pairs is checked with the alignment (``_instances_agree``)."""
    blank = dict.fromkeys((v.name for v in nf.variables), "·")
    return sorted(repr(objects_renamed(i, blank)) for i in nf.instances)


def instances_agree(a: NormalForm, b: NormalForm, pairs: dict[Var, Var]) -> bool:
    names = {vb.name: va.name for vb, va in pairs.items()}
    return sorted(repr(objects_renamed(i, names)) for i in b.instances) == sorted(repr(i) for i in a.instances)


def schematic_types(nf: NormalForm) -> list[str]:
    """Isabelle's type variables (``'a``, ``'t3`` inferred for a name never fixed) in the sorts
    of ``nf``'s variables, then of its terms, in order of first use."""
    out: dict[str, None] = {}
    for _, v in nf.prefix:
        out.update(dict.fromkeys(sorted(n for n in sort_mentions(v.sort) if n.startswith("'"))))
    for t in (*nf.premises, nf.conclusion):  # `continuous_on UNIV f`: UNIV's 't2 nothing else fixes
        for sub in subterms(t):
            out.update(dict.fromkeys(sorted(n for n in sort_mentions(sub.sort) if n.startswith("'"))))
    return list(out)


def _schematic_types_matched(a: NormalForm, b: NormalForm) -> list[NormalForm]:
    """B with its schematic type variables renamed to A's, once per correspondence under which
    the variables' sorts agree (all of them when none does). A statement holds at every
    instance of its type variables, so their names mean nothing: ``'t3`` and ``'t2`` are the
    counters of two inferences of one statement (its assumptions in another order)."""
    ta, tb = schematic_types(a), schematic_types(b)
    if not ta or len(ta) != len(tb):
        return [b]
    sa = sorted(repr(v.sort) for _, v in a.prefix)
    renamed = [rename_types(b, dict(zip(order, ta, strict=True)))
               for order in itertools.islice(itertools.permutations(tb), MAX_TYPE_ORDERS)]
    return [b2 for b2 in renamed if sorted(repr(v.sort) for _, v in b2.prefix) == sa] or [b]
