"""Points where ⋀Γ ↔ ⋀Γ' or C ↔ C' fails under every admissible alignment at once.

Why: seven real variables have 5040 alignments, far beyond the budget the engine enumerates
(``equivalence.DEFAULT_MAX_ALIGNMENTS``), so "every alignment ruled out" cannot be shown one
alignment at a time. A point that no alignment can move into agreement refutes them all:

* a **diagonal** point, where all variables of a sort share one value, is fixed by every
  sort-preserving alignment (``diagonal_refutation``);
* a **model of one side's premises that its definitions fix** (``a = 4, …, s = a + … + f``)
  against the other side's premises (``s = a·…·f/√3``): an alignment maps B's variables
  one-to-one onto A's, so B's premises can hold at the aligned point only where every value B's
  definitions pin a variable to is taken by a distinct variable of its sort at the point. Those
  few placements (none when the pinned values are not a sub-multiset of the point's) are all
  evaluated; when B's premises fail at each, ⋀Γ' is false there under every alignment while
  ⋀Γ is true (``pinned_refutation``).

Both certificates are re-checked by the exact evaluator under the first alignment.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from provers.engine.definitions import definitions
from provers.engine.formulas import close, iff
from provers.engine.normal import NormalForm
from provers.engine.points import exact_truth, samplable
from provers.engine.prover import Prover
from provers.engine.verdict import Obligation
from provers.ir import Var
from provers.semantics import numeral_probes, sample_assignments
from provers.semantics.approx import values_equal
from provers.semantics.values import Undecided
from provers.status import Status

PREMISES = "premises ⋀Γ ↔ ⋀Γ'"
#: At most this many places where the other side's premises are evaluated (``aligned_assignments``).
MAX_PLACES = 120


def diagonal_refutation(na: NormalForm, nbr: NormalForm, prover: Prover) -> Obligation | None:
    """Evaluate ⋀Γ ↔ ⋀Γ' and C ↔ C' at "diagonal" points, where all variables of one sort
    take the same value. Such a point is fixed by every sort-preserving alignment, so a
    difference there refutes the obligation under ALL alignments at once (used when the
    alignment budget is too small to enumerate them). Premise-free SAE is covered too: a tree
    match implies ⊢ C ↔ C'."""
    if not na.variables:
        return None
    sorts = list(dict.fromkeys(v.sort for v in na.variables))
    if not all(samplable(s, prover.carriers) for s in sorts):
        return None
    reps = tuple(Var(f"_d{i}", s) for i, s in enumerate(sorts))
    items = []
    if na.premises or nbr.premises:
        items.append((PREMISES, iff(na.premise(), nbr.premise())))
    items.append(("conclusions C ↔ C'", iff(na.conclusion, nbr.conclusion)))
    try:
        points = sample_assignments(list(reps), prover.points, prover.seed)
    except ValueError:  # a sort the sampler has no values for
        return None
    body_all = iff(items[0][1], items[-1][1])
    points = numeral_probes(reps, [body_all], points[0] if points else {}) + points
    for env in points:
        full = {v.name: env[reps[sorts.index(v.sort)].name] for v in na.variables}
        for name, body in items:
            if exact_truth(body, full, prover.deadline) is False:
                return Obligation(name, close(body, na.variables), Status.REFUTED, "fingerprint",
                                  "false at a diagonal point (exact evaluation)", full)
    return None


def pinned_refutation(na: NormalForm, nb: NormalForm, nbr: NormalForm, pairs: tuple[tuple[Var, Var], ...],
                      prover: Prover) -> Obligation | None:
    """⋀Γ ↔ ⋀Γ' refuted under every alignment at a model of one side's premises fixed by its
    definitions (module docstring). ``pairs``: one alignment (A's variable, B's variable) and
    ``nbr`` B renamed onto A by it, under which the certificate is stated and re-checked."""
    formula = iff(na.premise(), nbr.premise())
    for side, other, onto_a in ((na, nb, None), (nb, na, {b.name: a.name for a, b in pairs})):
        point = _defined_model(side, prover)
        if point is None or any(kind != "forall" for kind, _ in other.prefix):
            continue
        pins = definitions(other, prover.deadline).values
        places = aligned_assignments(point, side, other, pins)
        if places is None or any(exact_truth(other.premise(), at, prover.deadline) is not False for at in places):
            continue
        full = point if onto_a is None else {onto_a[k]: x for k, x in point.items()}
        if exact_truth(formula, full, prover.deadline) is False:
            which = "A" if onto_a is None else "B"
            return Obligation(PREMISES, close(formula, na.variables), Status.REFUTED, "propagation",
                              f"false under every alignment at the model {which}'s definitions fix: the other "
                              f"side's premises fail wherever an alignment puts its variables (exact evaluation)",
                              full)
    return None


def aligned_assignments(point: dict[str, Any], side: NormalForm, other: NormalForm, pins: dict[str, Any],
                        cap: int = MAX_PLACES) -> list[dict[str, Any]] | None:
    """The distinct assignments of ``point``'s values to ``other``'s variables that an
    alignment (one-to-one per sort) can make while every variable ``other``'s definitions
    pin (``pins``) gets its pinned value: the only places where ``other``'s premises can
    hold. None when there are more than ``cap`` or an exact comparison is undecided."""
    per_sort: list[list[dict[str, Any]]] = []
    for sort in dict.fromkeys(v.sort for v in other.variables):
        mine = [v for v in other.variables if v.sort == sort]
        classes = _equality_classes([point[v.name] for v in side.variables if v.sort == sort])
        if classes is None or sum(n for _, n in classes) != len(mine):
            return None
        left = [n for _, n in classes]
        fixed, free = {}, []
        for v in mine:
            if v.name not in pins:
                free.append(v)
                continue
            k = _class_of(pins[v.name], classes)
            if k is None:
                return None
            if k < 0 or left[k] == 0:
                return []  # no alignment gives v its pinned value
            left[k] -= 1
            fixed[v.name] = classes[k][0]
        ways = []
        for way in _arrangements(left):
            ways.append({**fixed, **{v.name: classes[k][0] for v, k in zip(free, way, strict=True)}})
            if len(ways) > cap:
                return None
        per_sort.append(ways)
    out: list[dict[str, Any]] = [{}]
    for ways in per_sort:
        out = [{**a, **b} for a in out for b in ways]
        if len(out) > cap:
            return None
    return out


def _arrangements(counts: list[int]) -> Iterator[tuple[int, ...]]:
    """The distinct sequences holding class k exactly ``counts[k]`` times."""
    if not any(counts):
        yield ()
        return
    for k, n in enumerate(counts):
        if n:
            counts[k] -= 1
            for rest in _arrangements(counts):
                yield (k, *rest)
            counts[k] += 1


def _defined_model(nf: NormalForm, prover: Prover) -> dict[str, Any] | None:
    """Every variable's value by the premises' definitions, when ⋀Γ is exactly true there
    (a universal prefix only: an ∃ variable is no coordinate of a point)."""
    if not nf.premises or not nf.variables or any(kind != "forall" for kind, _ in nf.prefix):
        return None
    values = definitions(nf, prover.deadline).values
    if any(v.name not in values for v in nf.variables):
        return None
    point = {v.name: values[v.name] for v in nf.variables}
    return point if exact_truth(nf.premise(), point, prover.deadline) is True else None


def _equality_classes(values: list[Any]) -> list[tuple[Any, int]] | None:
    """(value, how many) per class of exactly equal values; None when a comparison is undecided."""
    classes: list[tuple[Any, int]] = []
    for x in values:
        k = _class_of(x, classes)
        if k is None:
            return None
        if k < 0:
            classes.append((x, 1))
        else:
            classes[k] = (classes[k][0], classes[k][1] + 1)
    return classes


def _class_of(x: Any, classes: list[tuple[Any, int]]) -> int | None:
    """Index of the class whose value is exactly ``x``; -1 when none is; None when a comparison
    is undecided or only approximate."""
    for i, (y, _) in enumerate(classes):
        try:
            same, approx = values_equal(x, y)
        except Undecided:
            return None
        if approx:
            return None
        if same:
            return i
    return -1
