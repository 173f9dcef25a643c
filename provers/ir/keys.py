"""Canonical forms: alpha-canonical terms and the hash keys built on them."""

from __future__ import annotations

import functools
from collections import Counter
from dataclasses import replace

from provers.ir.ops import COMMUTATIVE, FLIPPED, and_, app
from provers.ir.sorts import rename_sort, sort_words
from provers.ir.terms import App, BigOp, Num, Quant, SetBuilder, Term, Uninterpreted, Var
from provers.ir.traverse import (
    bound_variables,
    children,
    conjuncts,
    free_vars,
    map_term,
    rebind,
    rebuild,
    subterms,
)


def canonical(t: Term, free_prefix: str | None = None) -> Term:
    """Alpha-canonical form: each bound variable renamed by its binder depth and position
    (``_b<depth>.<i>``, de Bruijn levels). The canonical form of a subterm does not depend on
    its siblings, so reordering the operands of ``∧`` after canonicalizing stays stable.

    With ``free_prefix`` the free variables are renamed too (``_v0, …`` in order of first
    occurrence), which makes the hash invariant under renaming a whole statement.
    """
    if any(isinstance(s, Quant) and len(s.vars) > 1 for s in subterms(t)):
        t = map_term(t, _block_in_occurrence_order)
    t = _bound_names_in_sorts(t)
    free_map: dict[Var, Term] = {}
    if free_prefix is not None:
        fv = free_vars(t)
        for s in subterms(t):
            if isinstance(s, Var) and s in fv and s not in free_map:
                free_map[s] = Var(f"{free_prefix}{len(free_map)}", s.sort)
    return _canon(t, free_map, 0)


def _bound_names_in_sorts(t: Term) -> Term:
    """``t`` with the names of its bound variables, where sorts in their scope mention them as
    words, renamed as ``canonical`` renames the variables themselves (``_b<depth>.<i>``): a
    bound type (``∀ X : Type, ∀ s : Set X``) and the invented type ``α_y`` of a bound ``y`` are
    named by their binder, so ``∀ X_b : Type, ∀ s : Set X_b`` has the same key (a sort that
    names a bound variable means that variable: Lean's and Isabelle's scoping). A name that a
    variable declared outside its binder mentions (``m : Fin n`` used under ``∀ n``: m's n is the
    outer one) is left alone, and so is a name two binders bind (which one a sort means would
    depend on the scope of the term that carries it): nothing is captured, and such keys only
    differ where they could have been equal."""
    names: list[str] = []
    sorts = set()
    for sub in subterms(t):
        names.extend(v.name for v in bound_variables(sub))
        sorts.add(sub.sort)
    bound = set(names)
    if not bound or not any(sort_words(str(x)) & bound for x in sorts):
        return t
    twice = {n for n, k in Counter(names).items() if k > 1}
    renamable = bound - twice - _named_from_outside(t, frozenset()) - {v.name for v in free_vars(t)}
    return _renamed_sorts(t, {}, 0, frozenset(renamable)) if renamable else t


def _named_from_outside(t: Term, scope: frozenset[str]) -> set[str]:
    """The names that sorts of variables declared outside a binder of that name mention: a
    free variable's sort, a bound variable's sort at its binder, by the names not bound there."""
    if isinstance(t, Var):
        return set() if t.name in scope else sort_words(str(t.sort))
    out: set[str] = set()
    bound = bound_variables(t)
    if bound:
        inner = set(scope)
        for v in bound:
            out |= sort_words(str(v.sort)) - inner
            inner.add(v.name)
        if isinstance(t, BigOp):
            out |= _named_from_outside(t.domain, scope)
        out |= _named_from_outside(t.body, frozenset(inner))  # type: ignore[attr-defined]
        return out
    for c in children(t):
        out |= _named_from_outside(c, scope)
    return out


def _renamed_sorts(t: Term, names: dict[str, str], depth: int, renamable: frozenset[str]) -> Term:
    """``_bound_names_in_sorts``' walk (binder depths as ``rebind`` counts them)."""
    if isinstance(t, Var):
        return Var(t.name, rename_sort(t.sort, names)) if names else t
    if isinstance(t, Num):
        return Num(t.value, rename_sort(t.sort, names)) if names else t
    if isinstance(t, (App, Uninterpreted)):
        args = tuple(_renamed_sorts(a, names, depth, renamable) for a in t.args)
        return replace(t, args=args, sort=rename_sort(t.sort, names) if names else t.sort)
    bound = bound_variables(t)
    if not bound:
        return rebuild(t, tuple(_renamed_sorts(c, names, depth, renamable) for c in children(t)))
    inner = dict(names)
    fresh = []
    for i, b in enumerate(bound):  # a later variable's sort may name an earlier one (∀ (n) (x : Fin n))
        fresh.append(Var(b.name, rename_sort(b.sort, inner) if inner else b.sort))
        if b.name in renamable:
            inner[b.name] = f"_b{depth}.{i}"
    if isinstance(t, BigOp):
        return replace(t, var=fresh[0], domain=_renamed_sorts(t.domain, names, depth, renamable),
                       body=_renamed_sorts(t.body, inner, depth + 1, renamable))
    body = _renamed_sorts(t.body, inner, depth + 1, renamable)  # type: ignore[attr-defined]
    if isinstance(t, SetBuilder):
        return replace(t, var=fresh[0], body=body)
    return replace(t, vars=tuple(fresh), body=body)  # type: ignore[arg-type]


def _block_in_occurrence_order(s: Term) -> Term | None:
    """A ``∀x y. P`` / ``∃x y. P`` block with its variables in the order they first occur in
    P: two quantifiers of one kind commute, so ``∀x y`` and ``∀y x`` get one canonical form.
    Not where a variable's sort names another of the block (``∀n (x : Fin n)``)."""
    if not isinstance(s, Quant) or len(s.vars) < 2:
        return None
    names = {v.name for v in s.vars}
    if any(sort_words(str(v.sort)) & names for v in s.vars):
        return None
    first: dict[Var, int] = {}
    for i, sub in enumerate(subterms(s.body)):
        if isinstance(sub, Var) and sub in s.vars and sub not in first:
            first[sub] = i
    ordered = tuple(sorted(s.vars, key=lambda v: first.get(v, len(first) + s.vars.index(v))))
    return None if ordered == s.vars else Quant(s.kind, ordered, s.body)


def _canon(t: Term, env: dict[Var, Term], depth: int) -> Term:
    return rebind(t, env, lambda b, i, d: Var(f"_b{d}.{i}", b.sort), depth)


def canon_key(t: Term) -> str:
    """Alpha-canonical rendering with commutative arguments ordered and > / ≥ flipped: equal
    keys, equivalent formulas (the key of syntactic equivalence and of shared premises).
    Remembered per term: a check asks the key of one premise again and again."""
    return _canon_key(t)


@functools.lru_cache(maxsize=8192)
def _canon_key(t: Term) -> str:

    def rw(s: Term) -> Term | None:
        if isinstance(s, App):
            if s.op in FLIPPED:
                return app(FLIPPED[s.op], s.args[1], s.args[0])
            if s.op in COMMUTATIVE:
                args = tuple(sorted(s.args, key=repr))
                if args != s.args:
                    return app(s.op, *args)
        return None

    return repr(map_term(canonical(t), rw))


def shared_conjuncts_out(body: Term) -> Term:
    """``(X ∧ A) ↔ (X ∧ B)`` as ``X → (A ↔ B)``, X the conjuncts both sides state (equal
    canonical keys): the same formula, and the solvers compare only what differs. Two
    candidates' premises that share all but a guard dropped inside a ∀ time out together and
    are proved apart (GTED imo_1982_p1: cvc5 proves the one differing premise pair alone)."""
    if not (isinstance(body, App) and body.op == "iff" and len(body.args) == 2):
        return body
    left = [(canon_key(p), p) for p in conjuncts(body.args[0])]
    right = [(canon_key(p), p) for p in conjuncts(body.args[1])]
    shared = {k for k, _ in left} & {k for k, _ in right}
    only_left = [p for k, p in left if k not in shared]
    only_right = [p for k, p in right if k not in shared]
    if not shared or not (only_left or only_right):
        return body
    common = [p for k, p in left if k in shared]
    return app("implies", and_(*common), app("iff", and_(*only_left), and_(*only_right)))


def foralls_outward(t: Term) -> Term:
    """``A → ∀ȳ. B`` as ``∀ȳ. A → B`` (ȳ not free in A) and ``∀x̄. ∀ȳ. B`` as ``∀x̄ ȳ. B``:
    the same formula (over an empty sort both sides are true), so that ``∀ p ∈ K, ∀ q ∈ F,
    P`` and ``∀ p q, p ∈ K → q ∈ F → P`` get one canonical key once renamed."""

    def rw(s: Term) -> Term | None:
        if isinstance(s, App) and s.op == "implies":
            hyp, goal = s.args
            if isinstance(goal, Quant) and goal.kind == "forall" and not (free_vars(hyp) & set(goal.vars)):
                return Quant("forall", goal.vars, app("implies", hyp, goal.body))
        if isinstance(s, Quant) and s.kind == "forall" and isinstance(s.body, Quant) and s.body.kind == "forall":
            if not {v.name for v in s.vars} & {v.name for v in s.body.vars}:
                return Quant("forall", s.vars + s.body.vars, s.body.body)
        return None

    return map_term(t, rw)
