"""Walking and rebuilding terms: children, free variables, substitution, renaming apart."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from provers.ir.ops import TRUE, with_arguments
from provers.ir.terms import App, BigOp, Lam, Num, Quant, SetBuilder, Term, Uninterpreted, Var

# --------------------------------------------------------------------------------------
# Traversal, substitution, alpha-canonical form
# --------------------------------------------------------------------------------------

_R = TypeVar("_R")


def by_identity(maxsize: int = 4096) -> Callable[[Callable[..., _R]], Callable[..., _R]]:
    """Cache a function of terms (positional arguments) by the argument objects themselves
    (kept beside the result, so that their ids are not reused while cached; emptied when
    full): for the same terms asked again and again in a hot loop, where hashing them would
    walk them. ``.cache_clear()``."""

    def wrap(fn: Callable[..., _R]) -> Callable[..., _R]:
        seen: dict[tuple[int, ...], tuple[tuple[Any, ...], _R]] = {}

        @functools.wraps(fn)
        def cached(*args: Any) -> _R:
            key = tuple(map(id, args))
            hit = seen.get(key)
            if hit is not None and all(a is b for a, b in zip(hit[0], args, strict=True)):
                return hit[1]
            out = fn(*args)
            if len(seen) >= maxsize:
                seen.clear()
            seen[key] = (args, out)
            return out

        cached.cache_clear = seen.clear  # type: ignore[attr-defined]
        return cached

    return wrap


def children(t: Term) -> tuple[Term, ...]:
    kind = type(t)  # the hottest walk of all: the leaf and application cases without isinstance
    if kind is App or kind is Uninterpreted:
        return t.args
    if kind is Var or kind is Num:
        return ()
    if isinstance(t, (Quant, Lam)):
        return (*t.vars, t.body)
    if isinstance(t, BigOp):
        return (t.var, t.domain, t.body)
    if isinstance(t, SetBuilder):
        return (t.var, t.body)
    return ()


def subterms(t: Term) -> Iterator[Term]:
    """All subterms, pre-order, iteratively (safe on deep terms)."""
    stack = [t]
    while stack:
        s = stack.pop()
        yield s
        stack.extend(reversed(children(s)))


def size(t: Term) -> int:
    return sum(1 for _ in subterms(t))


def depth(t: Term) -> int:
    best, stack = 0, [(t, 1)]
    while stack:
        s, d = stack.pop()
        best = max(best, d)
        stack.extend((c, d + 1) for c in children(s))
    return best


def bound_variables(t: Term) -> tuple[Var, ...]:
    """The variables the node ``t`` itself binds (a ∀/∃, λ, big operator or set-builder)."""
    if isinstance(t, (Quant, Lam)):
        return t.vars
    if isinstance(t, (BigOp, SetBuilder)):
        return (t.var,)
    return ()


def free_vars(t: Term) -> frozenset[Var]:
    """Kept on the node once computed (terms are immutable): the evaluator's domain search
    asks it of the same guards at every value of an outer binder."""
    kept = t.__dict__.get("_free_vars")
    if kept is not None:
        return kept
    if isinstance(t, Var):
        out = frozenset({t})
    elif isinstance(t, (Quant, Lam)):
        out = free_vars(t.body) - frozenset(t.vars)
    elif isinstance(t, BigOp):
        out = free_vars(t.domain) | (free_vars(t.body) - {t.var})
    elif isinstance(t, SetBuilder):
        out = free_vars(t.body) - {t.var}
    else:
        out = frozenset()
        for c in children(t):
            out |= free_vars(c)
    t.__dict__["_free_vars"] = out
    return out


def rebuild(t: Term, kids: tuple[Term, ...]) -> Term:
    """``t`` with its children replaced (same shape as ``children(t)``). Built by the class
    itself, not ``dataclasses.replace`` (which reads the fields anew at every node)."""
    kind = type(t)
    if kind is App:
        return with_arguments(t, kids)
    if kind is Uninterpreted:
        return Uninterpreted(t.symbol, kids, t.sort)
    if kind is Quant:
        return Quant(t.kind, tuple(kids[:-1]), kids[-1])  # type: ignore[arg-type]
    if kind is Lam:
        return Lam(tuple(kids[:-1]), kids[-1])  # type: ignore[arg-type]
    if kind is BigOp:
        return BigOp(t.kind, kids[0], kids[1], kids[2])  # type: ignore[arg-type]
    if kind is SetBuilder:
        return SetBuilder(kids[0], kids[1])  # type: ignore[arg-type]
    return t


def substitute(t: Term, mapping: dict[Var, Term]) -> Term:
    """Capture-avoiding substitution of free variables."""
    if not mapping:
        return t
    if isinstance(t, Var):
        return mapping.get(t, t)
    bound = bound_variables(t)
    if bound:
        inner = {k: v for k, v in mapping.items() if k not in bound}
        incoming = frozenset().union(*(free_vars(v) for v in inner.values())) if inner else frozenset()
        renames: dict[Var, Term] = {}
        taken = {v.name for v in incoming} | {v.name for v in free_vars(t)}
        for b in bound:
            if b in incoming:
                fresh = fresh_name(b.name, taken)
                taken.add(fresh)
                renames[b] = Var(fresh, b.sort)
        inner_all = {**inner, **renames}
        if isinstance(t, BigOp):
            return replace(
                t,
                var=renames.get(t.var, t.var),  # type: ignore[arg-type]
                domain=substitute(t.domain, mapping),
                body=substitute(t.body, inner_all),
            )
        new_vars = tuple(renames.get(b, b) for b in bound)
        body = substitute(t.body, inner_all)  # type: ignore[attr-defined]
        if isinstance(t, SetBuilder):
            return replace(t, var=new_vars[0], body=body)  # type: ignore[arg-type]
        return replace(t, vars=new_vars, body=body)  # type: ignore[arg-type]
    kids = children(t)
    if not kids:
        return t
    return rebuild(t, tuple(substitute(c, mapping) for c in kids))


def fresh_name(base: str, taken: set[str] | frozenset[str]) -> str:
    i = 1
    while f"{base}_{i}" in taken:
        i += 1
    return f"{base}_{i}"


def symbol_names(t: Term) -> frozenset[str]:
    """Symbols of the ``Uninterpreted`` subterms of ``t``."""
    return frozenset(s.symbol for s in subterms(t) if isinstance(s, Uninterpreted))


def rename_apart(t: Term, avoid: frozenset[str] | set[str], mapping: dict[Var, Var] | None = None) -> Term:
    """``t`` with every bound variable named in ``avoid`` renamed to a fresh name, and free
    variables renamed by ``mapping``. Used so that a variable never shares its name with an
    uninterpreted symbol (``(padicValNat : ℕ → ℕ → ℕ)`` beside Mathlib's ``padicValNat``):
    solvers, the evaluator and printers name both by their text."""
    taken = set(avoid) | {v.name for v in subterms(t) if isinstance(v, Var)}
    if mapping:
        taken |= {v.name for v in mapping.values()}
    return _apart(t, frozenset(avoid), dict(mapping or {}), taken)


def _apart(t: Term, avoid: frozenset[str], env: dict[Var, Var], taken: set[str]) -> Term:
    def rename(b: Var, i: int, depth: int) -> Var:
        if b.name not in avoid:
            return b
        nb = Var(fresh_name(b.name, taken), b.sort)
        taken.add(nb.name)
        return nb

    return rebind(t, env, rename, 0)  # type: ignore[arg-type]


def rebind(t: Term, env: dict[Var, Term], rename: Callable[[Var, int, int], Var], depth: int) -> Term:
    """``t`` with free variables replaced by ``env`` and each binder's variables renamed by
    ``rename(var, position, depth)`` (capture-free: each binder gets its own names)."""
    if isinstance(t, Var):
        return env.get(t, t)
    bound = bound_variables(t)
    if bound:
        inner = dict(env)
        fresh = []
        for i, b in enumerate(bound):
            nv = rename(b, i, depth)
            inner[b] = nv
            fresh.append(nv)
        if isinstance(t, BigOp):
            return replace(t, var=fresh[0], domain=rebind(t.domain, env, rename, depth),
                           body=rebind(t.body, inner, rename, depth + 1))
        body = rebind(t.body, inner, rename, depth + 1)  # type: ignore[attr-defined]
        if isinstance(t, SetBuilder):
            return replace(t, var=fresh[0], body=body)
        return replace(t, vars=tuple(fresh), body=body)  # type: ignore[arg-type]
    kids = children(t)
    if not kids:
        return t
    return rebuild(t, tuple(rebind(c, env, rename, depth) for c in kids))


def map_term(t: Term, fn: Callable[[Term], Term | None]) -> Term:
    """Bottom-up rewrite: ``fn`` returns a replacement or None to keep the node."""
    kids = children(t)
    if kids:
        t = rebuild(t, tuple(map_term(c, fn) for c in kids))
    out = fn(t)
    return t if out is None else out


def unfold(t: Term, funs: Mapping[Var, tuple[tuple[Var, ...], Term]]) -> Term:
    """``t`` with every full application ``f a₁ … aₙ`` of a function variable of ``funs``
    (``f`` → its parameters and body) replaced by the body at the arguments (beta reduction)."""

    def beta(s: Term) -> Term | None:
        if isinstance(s, App) and s.op == "apply" and s.args and s.args[0] in funs:
            params, body = funs[s.args[0]]  # type: ignore[index]
            if len(s.args) - 1 == len(params):
                return substitute(body, dict(zip(params, s.args[1:], strict=True)))
        return None

    return map_term(t, beta)


def beta_reduced(t: Term) -> Term:
    """``t`` with every λ applied to all its arguments reduced (a reduct that applies another
    λ is reduced too, up to 8 rounds): a definition ``f = (λ(r, θ, z). …)`` substituted into
    ``f (r, θ, z)`` leaves such an application, which the solvers cannot read."""
    def beta(s: Term) -> Term | None:
        if isinstance(s, App) and s.op == "apply" and isinstance(s.args[0], Lam) \
                and len(s.args) - 1 == len(s.args[0].vars):
            lam = s.args[0]
            return substitute(lam.body, dict(zip(lam.vars, s.args[1:], strict=True)))
        return None

    for _ in range(8):
        if not any(isinstance(x, App) and x.op == "apply" and isinstance(x.args[0], Lam) for x in subterms(t)):
            break
        t = map_term(t, beta)
    return t


def conjuncts(t: Term) -> list[Term]:
    """The conjuncts of ``t``: nested ``∧`` flattened, ``True`` dropped."""
    if isinstance(t, App) and t.op == "and":
        out: list[Term] = []
        for a in t.args:
            out.extend(conjuncts(a))
        return out
    return [] if t == TRUE else [t]


def equated(v: Var, fact: App) -> Term | None:
    """e when ``fact`` is ``v = e`` or ``e = v`` with e free of v, of v's sort."""
    for side, e in (fact.args, fact.args[::-1]):
        if side == v and v not in free_vars(e) and v.sort == e.sort:
            return e
    return None


def one_point(variables: Iterable[Var], facts: list[Term], also: Iterable[Term] = (),
              solve: Callable[[Var, App], Term | None] = equated) -> tuple[list[Var], list[Term], list[Term]]:
    """The one-point rule: each of ``variables`` that an equation among the facts gives a
    value e free of it (``solve``: by default the equation ``v = e`` itself) is replaced by e
    in the other facts and in ``also``, and that fact dropped, until none is left. Returns
    (the variables left, the facts left, ``also`` rewritten): ``∃x. x = e ∧ P x`` is ``P e``,
    and ``∀x. x = e ∧ Γ x → C x`` is ``Γ e → C e``."""
    left, facts, also = list(variables), list(facts), list(also)
    found = True
    while found:
        found = False
        for i, fact in enumerate(facts):
            if not (isinstance(fact, App) and fact.op == "eq"):
                continue
            named = [a for a in fact.args if isinstance(a, Var) and a in left]  # a side that is v first
            for v in [*named, *(x for x in left if x not in named)]:
                e = solve(v, fact)
                if e is not None:
                    left.remove(v)
                    facts = [substitute(f, {v: e}) for j, f in enumerate(facts) if j != i]
                    also = [substitute(t, {v: e}) for t in also]
                    found = True
                    break
            if found:
                break
    return left, facts, also


def whole_hypotheses(body: Term) -> list[Term]:
    """The conjuncts that are hypotheses of the whole of an obligation's ``body``: of H in
    ``H → X`` and ``¬H`` (the vacuity and uniqueness obligations), and those common to both
    sides of ``A ↔ B`` (``(D ∧ A') ↔ (D ∧ B')`` is ``D → (A' ↔ B')``). A definition among them
    may be substituted into the whole body."""
    if isinstance(body, App) and body.op in ("implies", "not"):
        return conjuncts(body.args[0])
    if isinstance(body, App) and body.op == "iff" and len(body.args) == 2:
        right = conjuncts(body.args[1])
        return [c for c in conjuncts(body.args[0]) if c in right]
    return []


def strip_forall(t: Term) -> tuple[tuple[Var, ...], Term]:
    """The variables of ``t``'s leading ∀s (outermost first) and the body under them."""
    vs: list[Var] = []
    while isinstance(t, Quant) and t.kind == "forall":
        vs.extend(t.vars)
        t = t.body
    return tuple(vs), t


def has_uninterpreted(t: Term) -> bool:
    return any(isinstance(s, Uninterpreted) for s in subterms(t))
