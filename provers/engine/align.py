"""Admissible variable alignments between two normal forms, best first.

An alignment maps the object variables of statement B one-to-one onto those of statement A,
preserving sort, quantifier kind and dependency order: variables may be permuted only inside
one block of same-kind quantifiers (∀∀ commute, ∀∃ do not), and a variable whose sort or range
depends on another is aligned only with one whose dependency is aligned accordingly.

Ranking: cost = name edit distance (rapidfuzz, normalized to [0, 1]) + 2 × role distance
(Jaccard distance between role signatures: under which operation and argument position, in a
premise or in the conclusion, a variable occurs). The best alignment is
``scipy.optimize.linear_sum_assignment``; the next ones come from Murty's k-best partitioning.
When the admissible set is no larger than the budget, enumeration is exhaustive; otherwise
``Alignments.exhaustive`` is False and a verdict must not claim that all alignments failed.

Unused variables (occurring in no premise and not in the conclusion) can be dropped first with
``drop_unused``: sound for whole-statement (``logical``) and value (``symbolic``) comparisons,
because ``∀ x, P`` with ``x`` not in ``P`` is ``P`` over an inhabited sort; never for ``sae``,
which counts binders as structure. Only provably inhabited sorts are dropped
(``ir.known_elements``: numbers, Prop, sets, ``Fin 3``; a type variable, ``Empty``, a
subtype or a function into one may be empty).
"""

from __future__ import annotations

import heapq
import math
from collections import Counter
from dataclasses import dataclass, replace

import numpy as np
from rapidfuzz.distance import Levenshtein

from provers.deadline import Deadline
from provers.engine.normal import NormalForm
from provers.engine.sort_match import (
    dependent_sorts,
    instance_shapes,
    instances_agree,
    names_within,
    sort_shapes,
)
from provers.ir import (
    COMMUTATIVE,
    App,
    Term,
    Uninterpreted,
    Var,
    children,
    provably_inhabited,
    rename_sort,
)

_BIG = 1e6
NAME_WEIGHT = 1.0
ROLE_WEIGHT = 2.0


@dataclass(frozen=True)
class Alignment:
    """``pairs``: (variable of A, variable of B); ``cost``: rank key (lower is better)."""

    pairs: tuple[tuple[Var, Var], ...]
    cost: float

    def b_to_a(self) -> dict[Var, Var]:
        return {b: a for a, b in self.pairs}

    def names(self) -> list[tuple[str, str]]:
        return [(a.name, b.name) for a, b in self.pairs]


@dataclass(frozen=True)
class Alignments:
    """Ranked admissible alignments. ``total``: how many admissible ones exist (``None`` when
    the structure rules all out, with ``failure`` saying why); ``exhaustive``: every admissible
    alignment is in ``items``."""

    items: tuple[Alignment, ...]
    total: int
    exhaustive: bool
    failure: str | None = None


def role_signature(nf: NormalForm, v: Var) -> Counter:
    """Multiset of ``component:op:position`` roles of ``v`` (and of operations above it)."""
    roles: Counter = Counter()
    comps = [("P", p) for p in nf.premises] + [("C", nf.conclusion)]
    for comp, t in comps:
        stack: list[tuple[Term, str]] = [(t, "top")]
        while stack:
            s, role = stack.pop()
            if s == v:
                roles[f"{comp}:{role}"] += 1
                continue
            kids = children(s)
            if isinstance(s, App):
                op = s.op
            elif isinstance(s, Uninterpreted):
                op = "?" + s.symbol
            else:
                op = type(s).__name__
            for i, k in enumerate(kids):
                pos = "" if op in COMMUTATIVE else str(i)
                stack.append((k, f"{op}{pos}"))
    return roles


def _jaccard(a: Counter, b: Counter) -> float:
    if not a and not b:
        return 0.0
    inter = sum((a & b).values())
    union = sum((a | b).values())
    return 1.0 - inter / union


def drop_unused(nf: NormalForm) -> NormalForm:
    """``nf`` without prefix variables that occur nowhere, over provably inhabited sorts only
    (``∀ x : Fin 0, P`` is vacuously true, ``P`` need not be)."""
    used = nf.used_variables()
    named = {n for _, v in nf.prefix for n in names_within(v.sort)}  # `x : Fin n` uses n
    keep = tuple((k, v) for k, v in nf.prefix if v in used or v.name in named or not provably_inhabited(v.sort))
    if len(keep) == len(nf.prefix):
        return nf
    kept = {v for _, v in keep}
    return replace(nf, prefix=keep, deps=tuple((v, d) for v, d in nf.deps if v in kept))


def _block_index(nf: NormalForm) -> dict[Var, tuple[int, str]]:
    out: dict[Var, tuple[int, str]] = {}
    for i, (kind, vs) in enumerate(nf.blocks()):
        for v in vs:
            out[v] = (i, kind)
    return out


def _assign(cost: np.ndarray) -> tuple[float, tuple[int, ...]] | None:
    # scipy.optimize takes ~0.6 s to import: paid on the first alignment, not by `import rerank`
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(cost)
    total = float(cost[rows, cols].sum())
    if total >= _BIG:
        return None
    perm = [0] * len(rows)
    for r, c in zip(rows, cols, strict=False):
        perm[r] = int(c)
    return total, tuple(perm)


def murty(cost: np.ndarray, k: int, deadline: Deadline | None = None) -> list[tuple[float, tuple[int, ...]]]:
    """Up to ``k`` cheapest perfect assignments of a square matrix (entries ≥ ``_BIG`` are
    forbidden), in nondecreasing cost, by Murty's partitioning (``DeadlineExceeded`` once
    ``deadline`` passes)."""
    n = cost.shape[0]
    if n == 0:
        return [(0.0, ())]
    first = _assign(cost)
    if first is None:
        return []
    heap: list = [(first[0], 0, first[1], (), ())]
    counter = 1
    out: list[tuple[float, tuple[int, ...]]] = []
    while heap and len(out) < k:
        if deadline is not None:
            deadline.check("alignment enumeration")
        total, _, perm, forced, forbidden = heapq.heappop(heap)
        out.append((total, perm))
        forced_rows = {r for r, _ in forced}
        free_rows = [r for r in range(n) if r not in forced_rows]
        fixed = list(forced)
        for r in free_rows:
            new_forbidden = (*forbidden, (r, perm[r]))
            m = cost.copy()
            for fr, fc in fixed:
                keep = m[fr, fc]
                m[fr, :] = _BIG
                m[:, fc] = _BIG
                m[fr, fc] = keep
            for br, bc in new_forbidden:
                m[br, bc] = _BIG
            sol = _assign(m)
            if sol is not None:
                heapq.heappush(heap, (sol[0], counter, sol[1], tuple(fixed), new_forbidden))
                counter += 1
            fixed.append((r, perm[r]))
    return out


def admissible_matrix(a: NormalForm, b: NormalForm) -> tuple[np.ndarray, str | None]:
    """Cost matrix rows = A's variables, columns = B's; ``_BIG`` where not admissible."""
    va, vb = a.variables, b.variables
    if len(va) != len(vb):
        return np.zeros((0, 0)), f"different numbers of variables: {len(va)} vs {len(vb)}"
    ka = [k for k, _ in a.blocks()]
    kb = [k for k, _ in b.blocks()]
    if ka != kb:
        return np.zeros((0, 0)), "quantifier blocks differ"
    shape_a, shape_b = sort_shapes(a), sort_shapes(b)
    sa = Counter((_block_index(a)[v], shape_a[v]) for v in va)
    sb = Counter((_block_index(b)[v], shape_b[v]) for v in vb)
    if sa != sb:
        ms = sorted(f"{v.name} : {v.sort}" for v in va)
        ns = sorted(f"{v.name} : {v.sort}" for v in vb)
        return np.zeros((0, 0)), f"variable sorts differ: ({', '.join(ms)}) vs ({', '.join(ns)})"
    ba, bb = _block_index(a), _block_index(b)
    ra = {v: role_signature(a, v) for v in va}
    rb = {v: role_signature(b, v) for v in vb}
    m = np.full((len(va), len(vb)), _BIG)
    for i, x in enumerate(va):
        for j, y in enumerate(vb):
            if ba[x] != bb[y] or shape_a[x] != shape_b[y]:
                continue
            m[i, j] = NAME_WEIGHT * Levenshtein.normalized_distance(x.name, y.name) + ROLE_WEIGHT * _jaccard(ra[x], rb[y])
    return m, None


def _respects_deps(a: NormalForm, b: NormalForm, pairs: dict[Var, Var]) -> bool:
    """B's dependency of y on y' must be matched by A's dependency of σ(y) on σ(y')."""
    da, db = a.dependencies(), b.dependencies()
    for y, ys in db.items():
        x = pairs.get(y)
        if x is None:
            continue
        want = {pairs[u] for u in ys if u in pairs}
        if want != {u for u in da.get(x, frozenset()) if u in set(pairs.values())}:
            return False
    return True


def _sorts_agree(pairs: dict[Var, Var]) -> bool:
    """Under the alignment (B's variable ↦ A's), each of B's sorts renamed is its partner's:
    ``x : Fin m`` may pair with ``x : Fin n`` only where m pairs with n."""
    names = {vb.name: va.name for vb, va in pairs.items()}
    return all(rename_sort(vb.sort, names) == va.sort for vb, va in pairs.items())


def alignments(a: NormalForm, b: NormalForm, budget: int = 32, deadline: Deadline | None = None) -> Alignments:
    """Admissible alignments of B onto A, cheapest first, at most ``budget`` of them
    (``DeadlineExceeded`` once ``deadline`` passes)."""
    m, why = admissible_matrix(a, b)
    if why is not None:
        return Alignments((), 0, True, why)
    va, vb = a.variables, b.variables
    shape_a = sort_shapes(a)
    groups = Counter((_block_index(a)[v], shape_a[v]) for v in va)
    dependent = dependent_sorts(a) or dependent_sorts(b)
    with_objects = sorted(repr(i) for i in a.instances) != instance_shapes(a) or \
        sorted(repr(i) for i in b.instances) != instance_shapes(b)
    total = math.prod(math.factorial(c) for c in groups.values())
    items: list[Alignment] = []
    want = budget + (8 if a.deps else 0)  # dependency filtering may drop some
    ranked = murty(m, want, deadline)
    enumerated_all = len(ranked) < want or len(ranked) >= total
    cut = False
    for cost, perm in ranked:
        pairs = {vb[perm[i]]: va[i] for i in range(len(va))}
        if not _respects_deps(a, b, pairs) or dependent and not _sorts_agree(pairs) \
                or with_objects and not instances_agree(a, b, pairs):
            continue
        if len(items) >= budget:
            cut = True
            break
        items.append(Alignment(tuple((va[i], vb[perm[i]]) for i in range(len(va))), cost))
    if not items:
        if enumerated_all:
            return Alignments((), 0, True, "no alignment respects the binder dependencies")
        return Alignments((), total, False, None)
    return Alignments(tuple(items), total, enumerated_all and not cut)
