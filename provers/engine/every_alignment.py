"""Points where ⋀Γ ↔ ⋀Γ' or C ↔ C' fails under every admissible alignment at once.

Why: seven real variables have 5040 alignments, far beyond the budget the engine enumerates
(``equivalence.DEFAULT_MAX_ALIGNMENTS``), so "every alignment ruled out" cannot be shown one
alignment at a time. A point that no alignment can move into agreement refutes them all:

* a **diagonal** point, where all variables of a sort share one value, is fixed by every
  sort-preserving alignment (``diagonal_refutation``);
* a **model of one side's premises that its definitions fix** (``a = 4, …, s = a + … + f``)
  against the other side's definitions (``s = a·…·f/√3``): an alignment maps B's variables
  one-to-one onto A's, so B's premises can hold at the aligned point only if every value B
  pins a variable of a sort to is taken by a distinct variable of that sort at the point. When
  the pinned values are not a sub-multiset of the point's values, ⋀Γ' is false there under
  every alignment while ⋀Γ is true (``pinned_refutation``).

Both certificates are re-checked by the exact evaluator under the first alignment.
"""

from __future__ import annotations

from typing import Any

from provers.engine.definitions import definitions
from provers.engine.formulas import close, iff
from provers.engine.normal import NormalForm
from provers.engine.prover import Prover, exact_truth, samplable
from provers.engine.verdict import Obligation
from provers.ir import Var
from provers.semantics import numeral_probes, sample_assignments
from provers.semantics.approx import values_equal
from provers.semantics.values import Undecided
from provers.status import Status

PREMISES = "premises ⋀Γ ↔ ⋀Γ'"


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
    definitions, where the other side's definitions pin values the point does not have
    (module docstring). ``pairs``: one alignment (A's variable, B's variable) and ``nbr`` B
    renamed onto A by it, under which the certificate is stated and re-checked."""
    formula = iff(na.premise(), nbr.premise())
    for side, other, onto_a in ((na, nb, None), (nb, na, {b.name: a.name for a, b in pairs})):
        point = _defined_model(side, prover)
        if point is None or not _pins_missed(point, side, other, prover):
            continue
        full = point if onto_a is None else {onto_a[k]: x for k, x in point.items()}
        if exact_truth(formula, full, prover.deadline) is False:
            which = "A" if onto_a is None else "B"
            return Obligation(PREMISES, close(formula, na.variables), Status.REFUTED, "propagation",
                              f"false under every alignment at the model {which}'s definitions fix: the "
                              f"other side pins values it does not have (exact evaluation)", full)
    return None


def _defined_model(nf: NormalForm, prover: Prover) -> dict[str, Any] | None:
    """Every variable's value by the premises' definitions, when ⋀Γ is exactly true there."""
    if not nf.premises or not nf.variables:
        return None
    values = definitions(nf, prover.deadline).values
    if any(v.name not in values for v in nf.variables):
        return None
    point = {v.name: values[v.name] for v in nf.variables}
    return point if exact_truth(nf.premise(), point, prover.deadline) is True else None


def _pins_missed(point: dict[str, Any], side: NormalForm, other: NormalForm, prover: Prover) -> bool:
    """Whether, for some sort, the values ``other``'s definitions pin its variables of that
    sort to cannot be matched one-to-one with equal values of ``side``'s variables at
    ``point`` (each comparison exact)."""
    pins = definitions(other, prover.deadline).values
    for sort in dict.fromkeys(v.sort for v in other.variables):
        free = [point[v.name] for v in side.variables if v.sort == sort]
        for v in other.variables:
            if v.sort != sort or v.name not in pins:
                continue
            match = _first_equal(pins[v.name], free)
            if match is None:
                return False  # an undecided comparison: no claim
            if match < 0:
                return True
            free.pop(match)
    return False


def _first_equal(x: Any, values: list[Any]) -> int | None:
    """Index of the first of ``values`` exactly equal to ``x``; -1 when none is; None when a
    comparison is undecided or only approximate."""
    for i, y in enumerate(values):
        try:
            same, approx = values_equal(x, y)
        except Undecided:
            return None
        if approx:
            return None
        if same:
            return i
    return -1
