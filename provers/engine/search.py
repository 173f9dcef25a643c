"""Steps 6–8 of ``check_equivalence``: the search over a pair's admissible alignments.

The cheap pass (syntactic identity, exact evaluation at sampled points) runs over every
enumerated alignment, then the backend over the survivors, best first; ``verdict`` adds up
what they found: ``equivalent`` with one alignment whose every obligation is proved,
``inequivalent`` only when every alignment and the value route are ruled out and the
enumeration was exhaustive. Also here: how a verdict names its alignment, its countermodel in
both statements' own names, and the value route's outcome that the search folds in.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from provers.engine.align import Alignment, Alignments
from provers.engine.normal import NormalForm
from provers.engine.prover import Prover
from provers.engine.relations import (
    PROVED,
    REFUTED,
    STRUCTURAL,
    Outcome,
    check_sae,
    check_symbolic,
    check_syntactic,
    rename_onto,
)
from provers.engine.verdict import Obligation, Verdict
from provers.semantics.samplers import solution_points
from provers.semantics.values import renamed_model
from provers.status import Status, VerdictStatus

EQUIVALENT, INEQUIVALENT, INCONCLUSIVE = VerdictStatus

#: Countermodels of ruled-out alignments tried first on the next ones.
FOUND_PROBES = 3
#: The backend pass stops at this many alignments it left undecided: the verdict can then
#: no longer be "inequivalent" (that needs every alignment ruled out), and on all 400 MATH
#: problems every proof came from the first alignment the backend tried (923 passes, none
#: after an undecided one; docs/benchmarks.md, "(stop 29)"), while the rest cost 8 % of the time.
BACKEND_UNDECIDED_ALIGNMENTS = 1

CHECKS = {"syntactic": check_syntactic, "sae": check_sae, "symbolic": check_symbolic}


@dataclass
class ValueRoute:
    """The value route's outcome and B's renaming (new name → B's own name)."""

    outcome: Outcome
    names: dict[str, str]

    @property
    def undecided(self) -> bool:
        return not self.outcome.ruled_out


def route_countermodel(route: ValueRoute | None) -> dict | None:
    """The value route's countermodel: only a refuted route has one (a structural outcome may
    carry models that prove a fact about one side, e.g. two different answers)."""
    return route.outcome.model if route is not None and route.outcome.status == Status.REFUTED else None


def route_ruled_out(route: ValueRoute | None) -> str:
    """Why the value route is ruled out, for the reason of an inequivalence."""
    if route is None or not route.outcome.reason:
        return ""
    return f"; standardized comparison ruled out: {route.outcome.reason}"


@dataclass
class AlignmentSearch:
    """Steps 6–8: the alignments, cheaply then with the backend, and what they add up to."""

    na: NormalForm
    nb: NormalForm
    relation: str
    prover: Prover
    als: Alignments
    route: ValueRoute | None
    ruled: list[str] = field(default_factory=list)
    kinds: set[str] = field(default_factory=set)
    outcomes: dict[int, Outcome] = field(default_factory=dict)
    last_model: tuple[dict, Alignment] | None = None
    survivors: list[tuple[Alignment, NormalForm]] = field(default_factory=list)
    unknown_reasons: list[str] = field(default_factory=list)
    best_unknown: tuple[Alignment, Outcome] | None = None
    found: list[dict] = field(default_factory=list)
    untried: int = 0  # alignments the backend pass left (``BACKEND_UNDECIDED_ALIGNMENTS``)

    @functools.cached_property
    def answer_points(self) -> list[dict]:
        """Where A's conclusion equations hold (``samplers.solution_points``): the same for
        every alignment, since alignments rename B onto A."""
        return solution_points(self.na.conclusion)

    def cheap_pass(self, until_survivor: bool = False) -> Verdict | None:
        """Syntactic identity and sampled exact evaluation on every enumerated alignment
        (``until_survivor``: stop at the first one they leave open)."""
        for al in self.als.items:
            if until_survivor and self.survivors:
                return None
            nbr = rename_onto(self.nb, al)
            self._probe(al, nbr)
            out = CHECKS[self.relation](self.na, nbr, self.prover, cheap=True)
            if out.status == PROVED:
                return verdict_at(EQUIVALENT, self.relation, al, out.obligations, tried=len(self.ruled) + 1,
                                als=self.als, route=proof_route(out))
            if out.ruled_out:
                self._rule_out(al, out)
            else:
                self.survivors.append((al, nbr))
        return None

    def backend_pass(self) -> Verdict | None:
        """The backend on the alignments the cheap pass left open, best first."""
        if self.relation == "syntactic":
            return None
        for i, (al, nbr) in enumerate(self.survivors):
            self._probe(al, nbr)
            out = CHECKS[self.relation](self.na, nbr, self.prover, cheap=False)
            if out.status == PROVED:
                return verdict_at(EQUIVALENT, self.relation, al, out.obligations,
                                tried=len(self.ruled) + len(self.unknown_reasons) + 1, als=self.als,
                                route=proof_route(out))
            if out.ruled_out:
                self._rule_out(al, out)
            else:
                self.unknown_reasons.append(out.reason)
                self.best_unknown = self.best_unknown or (al, out)
                if len(self.unknown_reasons) >= BACKEND_UNDECIDED_ALIGNMENTS:
                    self.untried = len(self.survivors) - i - 1
                    break
        return None

    def verdict(self) -> Verdict:
        """Inequivalent when every alignment and the value route are ruled out and the
        enumeration was exhaustive; else inconclusive with the reasons."""
        tried = len(self.als.items)
        all_ruled = not self.survivors or (self.relation != "syntactic" and not self.unknown_reasons)
        route = self.route
        if all_ruled and (route is None or not route.undecided) and self.als.exhaustive:
            return self._refuted(tried)
        if self.relation == "syntactic" and all_ruled:
            reason = "alignment budget exhausted before a syntactic match"
        elif all_ruled and not self.als.exhaustive:
            reason = f"alignment budget exhausted: {tried} of {self.als.total} alignments ruled out"
        else:
            reason = "; ".join(dict.fromkeys(r for r in self.unknown_reasons if r)) or "not decided"
            if self.untried:
                reason += f" ({self.untried} more alignment(s) not sent to the backend after an undecided one)"
            if route is not None and route.undecided:
                reason += f"; standardized comparison: {route.outcome.reason or 'undecided'}"
        al0, out0 = self.best_unknown if self.best_unknown else (self.als.items[0], None)
        v = verdict_at(INCONCLUSIVE, self.relation, al0, out0.obligations if out0 else [], tried=tried, als=self.als)
        v.reason = reason
        v.ruled_out = self.ruled
        return v

    def _refuted(self, tried: int) -> Verdict:
        cm = None
        obs: list[Obligation] = []
        route = self.route
        if self.last_model is not None:
            cm = two_sided(self.last_model[0], self.na, self.nb, self.last_model[1])
            obs = list(self.outcomes.get(id(self.last_model[1]), Outcome(REFUTED)).obligations)
        elif (model := route_countermodel(route)) is not None:
            assert route is not None
            cm = two_sided(model, self.na, self.nb, None, route.names)
        order = ("structure", "fingerprint", "countermodel")
        how = [k for k in order if k in self.kinds] + ([route.outcome.route] if route is not None and route.outcome.route else [])
        v = verdict_at(INEQUIVALENT, self.relation, self.als.items[0], obs, tried=tried, als=self.als, countermodel=cm,
                     structural=cm is None, route="; ".join(dict.fromkeys(how)))
        v.reason = f"all {tried} admissible alignment(s) ruled out" + route_ruled_out(route)
        v.ruled_out = self.ruled
        return v

    def _rule_out(self, al: Alignment, out: Outcome) -> None:
        self.ruled.append(_ruled_line(al, out, self.na, self.nb))
        self.kinds.add(_refutation_route(out))
        self.outcomes[id(al)] = out
        if out.model is not None:
            self.last_model = (out.model, al)
            if out.model not in self.found:
                self.found = [out.model, *self.found][:FOUND_PROBES]

    def _probe(self, al: Alignment, nbr: NormalForm) -> None:
        """Models of each side's premises found by the value route are the points where two
        premise sets and conclusions are worth comparing (B's through the alignment); so are
        the points where a conclusion's equations hold (its answer: ``⌊100 r⌋ = 743``); the
        countermodels of alignments already ruled out (over A's variables) often refute the
        next alignment too (a permutation of variables that share a value changes nothing)."""
        probes: list[dict] = self.answer_points + solution_points(nbr.conclusion)
        if self.route is not None:
            probes_a = self.route.outcome.witnesses.get("A", [])
            probes_b = self.route.outcome.witnesses.get("B", [])
            onto = {vb.name: va.name for va, vb in al.pairs}
            names = self.route.names
            probes += probes_a + [renamed_model(m, {k: onto.get(names.get(k, k), k) for k in m}) for m in probes_b]
        if probes or self.found:
            self.prover.use_probes(self.found + probes)


def _ruled_line(al: Alignment, out: Outcome, na: NormalForm, nb: NormalForm) -> str:
    names = ", ".join(f"{a}↔{b}" for a, b in al.names()) or "(no variables)"
    if out.status == STRUCTURAL:
        return f"[{names}] structure: {out.reason}"
    cm = two_sided(out.model, na, nb, al)
    return f"[{names}] {out.reason}; countermodel {cm}"


def proof_route(out: Outcome) -> str:
    """``syntactic`` when identity up to renaming proved every obligation, else ``alignment``."""
    return "syntactic" if all(o.by == "syntactic" for o in out.obligations) else "alignment"


def _refutation_route(out: Outcome) -> str:
    if out.status == STRUCTURAL:
        return "structure"
    bad = next((o for o in out.obligations if o.status == REFUTED), None)
    return "fingerprint" if bad is not None and bad.by == "fingerprint" else "countermodel"


def verdict_at(status: VerdictStatus, relation: str, al: Alignment | None, obs: list[Obligation], reason: str = "", tried: int = 0, als: Any = None, countermodel: dict | None = None, structural: bool = False, route: str = "") -> Verdict:
    return Verdict(
        status=status,
        relation=relation,
        alignment=al.names() if al is not None else [],
        obligations=list(obs),
        countermodel=countermodel,
        reason=reason,
        alignments_tried=tried,
        alignments_total=als.total if als is not None else 0,
        budget_exhausted=bool(als is not None and not als.exhaustive),
        structural=structural,
        route=route if status != INCONCLUSIVE else "",
    )


def two_sided(model: dict | None, a: NormalForm, b: NormalForm, al: Alignment | None, b_names: dict[str, str] | None = None) -> dict | None:
    if model is None:
        return None
    a_names = {v.name for v in a.variables}
    A = {k: v for k, v in model.items() if k in a_names}
    onto_b: dict[str, str] = {}  # the model's name of a variable of B → B's own name
    if al is not None:
        onto_b.update((va.name, vb.name) for va, vb in al.pairs if va.name in model)
    if b_names:
        onto_b.update((new, old) for new, old in b_names.items() if new in model)
    B: dict[str, Any] = renamed_model({k: model[k] for k in onto_b}, onto_b)
    known = a_names | {va.name for va, _ in (al.pairs if al else ())} | set(b_names or ())
    for k, v in model.items():  # e.g. the answer value α of the standardized comparison
        if k not in known:
            A.setdefault(k, v)
            B.setdefault(k, v)
    return {"A": A, "B": B}
