"""Certified three-valued verdicts of an equivalence check.

* ``equivalent`` only when every obligation of ONE admissible alignment was proved;
* ``inequivalent`` only when every admissible alignment was ruled out, each by a structural
  failure or by a validated countermodel (an exact-evaluator fingerprint difference or a solver
  model re-checked by the evaluator);
* ``inconclusive`` otherwise, with the reason (timeout, unsupported construct, uninterpreted
  symbol, alignment budget). A failed proof search is never inequivalence.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from provers.ir import Term, show
from provers.status import Status, VerdictStatus

#: Share of the per-call limit (``timeout``) a solver call gets, by effort. Measured on 80
#: MATH problems at 1 s per call (docs/benchmarks.md, "Quick solver calls"): 560 of 569
#: decided solver calls answered within 0.1 s and all but five vacuity tests within 0.3 s;
#: the rest of the limit was spent on calls that ended unknown. So obligations are asked at
#: ``QUICK`` effort, and the vacuity test (which decides the vacuous tier) at ``FULL`` of the
#: limit its caller gives it (a clusterer: ``VACUITY_SHARE`` of its own).
#: ``QUICK`` is the smallest share that kept 99 % of the decided quick portfolio calls on all
#: of ``isabelle_math_400`` (1177 of 1186 within 0.15 s, a loaded machine); the quick calls that
#: time out were a third of the engine's time (docs/benchmarks.md, stop 32).
QUICK = 0.15
FULL = 1.0
#: The joint value obligation of two sides whose answers the pins did not settle
#: (``relations._pinned_route``) gets this share: on 60 MATH problems (the 20 slowest of stage 1
#: v36 and 40 drawn at random) 5 of its 312 quick calls decided, all within 0.01 s, while 178
#: ran to their limit (40 s, a sixth of those problems' time; docs/benchmarks.md, stop 42).
BRIEF = 0.05
#: Share of the solver limit for a candidate's vacuity test (``rerank.cluster``, of its
#: ``VACUITY_TIMEOUT`` or the limit, the smaller). Of 68 vacuity tests decided on 60 MATH
#: problems at the whole 1 s limit, 66 were decided within 0.3 s, while the 42 that ran out
#: cost as much as the rest of those problems' solver calls (docs/benchmarks.md, stop 43).
VACUITY_SHARE = 0.3
#: The vacuity test an answer pin asks itself (``answers._vacuity``: the check had not decided
#: that side's vacuity in the form the pin states it) gets the same share of the check's limit.
#: At the whole limit, such calls on all of isabelle_math_400 decided within 0.033 s when they
#: decided at all (15 of 31), and the 7 that ran to the 1 s limit cost 7.3 s of 330
#: (docs/benchmarks.md, stop 63).
PIN_VACUITY = VACUITY_SHARE


@dataclass
class Obligation:
    """A closed IR formula to prove, and what happened to it.

    ``status``: a ``Status`` (``proved`` | ``refuted`` | ``unknown`` | ``pending``; a plain
    word is converted); ``by``: ``fingerprint``, ``syntactic`` or the backend's name;
    ``model``: the countermodel when refuted."""

    name: str
    formula: Term
    status: Status = Status.PENDING
    by: str = ""
    detail: str = ""
    model: dict[str, Any] | None = None
    time: float = 0.0

    def __post_init__(self) -> None:
        self.status = Status(self.status)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "formula": show(self.formula),
            "status": self.status.value,
            "by": self.by,
            "detail": self.detail,
            "model": jsonable(self.model),
            "time": round(self.time, 4),
        }


def jsonable(v: Any) -> Any:
    """``v`` with exact values written as JSON can hold them (a Fraction as ``"1/3"``)."""
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, Fraction):
        return str(v)
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    return str(v)


def _fmt(v: Any) -> str:
    if isinstance(v, Fraction):
        return str(v)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k}: {_fmt(x)}" for k, x in v.items()) + "}"
    return str(v)


@dataclass
class Verdict:
    """The answer of ``check_equivalence`` and its certificate.

    ``alignment``: pairs (variable of A, variable of B) of the deciding alignment (the proving
    one, or the best-ranked one otherwise); ``countermodel``: ``{"A": {name: value},
    "B": {name: value}}`` in each statement's own names; ``alignments_tried`` /
    ``alignments_total``; ``budget_exhausted``: the alignment budget cut enumeration short;
    ``ruled_out``: one line per rejected alignment (structural reason or countermodel);
    ``solver_calls``: backend calls made (fingerprints and syntactic checks are free);
    ``route``: what decided it (``syntactic``, ``alignment``, ``answer value (propagation)``,
    ``answer value (solver)``, ``value projections``, ``fingerprint``, ``countermodel``,
    ``structure``, ``vacuity`` (one premise set contradictory, the other with a model),
    ``logical ...``; joined by ``; `` when an inequivalence needed the aligned
    comparison and the value route both ruled out); empty when inconclusive.
    ``warnings``: what the verdict, which is about meaning, does not say, such as a statement
    whose text the prover itself would reject (``Statement.checker_errors``: ``B: Isabelle
    would reject the text: raw Unicode '≠' …``): equivalent in meaning, not usable as is."""

    status: VerdictStatus
    relation: str
    alignment: list[tuple[str, str]] = field(default_factory=list)
    obligations: list[Obligation] = field(default_factory=list)
    countermodel: dict[str, dict[str, Any]] | None = None
    reason: str = ""
    time: float = 0.0
    alignments_tried: int = 0
    alignments_total: int = 0
    budget_exhausted: bool = False
    structural: bool = False
    ruled_out: list[str] = field(default_factory=list)
    solver_calls: int = 0
    route: str = ""
    warnings: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        try:
            self.status = VerdictStatus(self.status)
        except ValueError:
            raise ValueError(f"unknown verdict status {self.status!r}") from None

    @property
    def equivalent(self) -> bool:
        return self.status == VerdictStatus.EQUIVALENT

    def explain(self) -> str:
        """A short human-readable certificate."""
        lines = [f"{self.status.upper()} under {self.relation} ({self.time:.2f} s)"]
        if self.route:
            lines.append(f"  decided by: {self.route}")
        if self.reason:
            lines.append(f"  reason: {self.reason}")
        if self.alignment:
            lines.append("  alignment: " + ", ".join(f"{a} ↔ {b}" for a, b in self.alignment))
        if self.alignments_total:
            extra = " (budget exhausted)" if self.budget_exhausted else ""
            lines.append(f"  alignments tried: {self.alignments_tried} of {self.alignments_total}{extra}")
        for ob in self.obligations:
            by = f" by {ob.by}" if ob.by else ""
            lines.append(f"  [{ob.status}{by}] {ob.name}: {show(ob.formula)}")
            if ob.detail and ob.status != Status.PROVED:
                lines.append(f"      {ob.detail}")
        if self.countermodel:
            for side in ("A", "B"):
                vals = self.countermodel.get(side) or {}
                if vals:
                    lines.append(f"  countermodel {side}: " + ", ".join(f"{k} = {_fmt(v)}" for k, v in vals.items()))
        for w in self.warnings:
            lines.append(f"  warning: {w}")
        for r in self.ruled_out[:6]:
            lines.append(f"  ruled out: {r}")
        if len(self.ruled_out) > 6:
            lines.append(f"  ... and {len(self.ruled_out) - 6} more alignments ruled out")
        return "\n".join(lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "relation": self.relation,
            "alignment": [list(p) for p in self.alignment],
            "obligations": [o.to_dict() for o in self.obligations],
            "countermodel": jsonable(self.countermodel),
            "reason": self.reason,
            "time": round(self.time, 4),
            "alignments_tried": self.alignments_tried,
            "alignments_total": self.alignments_total,
            "budget_exhausted": self.budget_exhausted,
            "structural": self.structural,
            "ruled_out": list(self.ruled_out),
            "solver_calls": self.solver_calls,
            "route": self.route,
            "warnings": list(self.warnings),
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)
