"""Questions about one statement: are its premises contradictory (``vacuous``), does its
conclusion hold without them (``trivial``), does the whole statement hold (``provable``)?

The clusterer asks the first and the last of every candidate: a vacuity test decided here is
kept on the candidate's ``Profile``, where answer pinning and ``check_equivalence`` reuse it.
"""

from __future__ import annotations

from typing import Any

from provers.backends.base import Backend
from provers.deadline import Deadline, DeadlineExceeded, check_seconds
from provers.engine.answers import holds_by_definitions, holds_by_pin, pin_answer
from provers.engine.definitions import definitions
from provers.engine.formulas import VACUITY_NAME, trivial_obligation, vacuous_obligation
from provers.engine.profile import Profile, as_statement
from provers.engine.prover import Prover, carriers_of, default_backend
from provers.engine.verdict import FULL, Obligation
from provers.ir import Statement
from provers.semantics.samplers import solution_points
from provers.status import Status


def _single(st: Statement | Profile | str, formula_of: Any, timeout: float, language: str,
            backend: Backend | None, deadline: Deadline | None) -> tuple[Profile, Prover, Any]:
    timeout = check_seconds("timeout", timeout)
    profile = st if isinstance(st, Profile) else Profile.of(as_statement(st, language, "A"), fingerprints=False)
    nf = profile.normal_form
    prover = Prover(backend if backend is not None else default_backend(), timeout,
                    Deadline.after(2 * timeout).sooner(deadline))
    prover.carriers = carriers_of(nf)
    return profile, prover, formula_of(nf)


def _bounded(name: str, formula: Any, ask: Any) -> Obligation:
    try:
        return ask()
    except DeadlineExceeded as e:
        return Obligation(name, formula, Status.UNKNOWN,
                          detail=f"deadline: the budget ran out during {e.args[0] if e.args else 'the check'}")


def vacuous(statement: Statement | Profile | str, timeout: float = 5.0, language: str = "lean4",
            backend: Backend | None = None, deadline: Deadline | None = None) -> Obligation:
    """Do the premises prove False? ``status``: ``proved`` (vacuous), ``refuted`` (a model of
    the premises was found: not vacuous), ``unknown``. Bounded by 2 × ``timeout`` and by
    ``deadline``. Given a ``Profile``, a decided answer is kept there (``Profile.vacuity``)
    for answer pinning to reuse."""
    profile, prover, formula = _single(statement, vacuous_obligation, timeout, language, backend, deadline)
    # the conclusion's answer (`b = 144`) is where a faithful statement's premises hold
    # (`gcd a b = 9`, `lcm a b = 5040`): a model no sampled point and no solver finds
    answers = solution_points(profile.normal_form.conclusion)
    if answers:
        prover.use_probes(answers)
    return _bounded(VACUITY_NAME, formula, lambda: profile.decide_vacuity(prover))


def trivial(statement: Statement | Profile | str, timeout: float = 5.0, language: str = "lean4",
            backend: Backend | None = None, deadline: Deadline | None = None) -> Obligation:
    """Does the conclusion hold without the premises? ``status``: ``proved`` (trivial),
    ``refuted`` (countermodel to the bare conclusion), ``unknown``."""
    name = "conclusion holds without premises"
    _, prover, formula = _single(statement, trivial_obligation, timeout, language, backend, deadline)
    return _bounded(name, formula, lambda: prover(name, formula, effort=FULL))


def provable(statement: Statement | Profile | str, timeout: float = 5.0, language: str = "lean4",
             backend: Backend | None = None, deadline: Deadline | None = None) -> Obligation:
    """Does the whole statement ``∀x̄. ⋀Γ → C`` hold? (the "naive" baseline keeps such
    candidates; the selection demotes refuted ones). One solver call on the closed statement,
    then, for a conclusion ``L ⋈ c``, its answer pin without a solver (definitions, sampled
    points, small integers: ``answers.holds_by_pin``). Given a ``Profile`` whose vacuity test
    was decided (``vacuous``), no call is made for contradictory premises (over a ∀ prefix)
    and the premises' model is the first point tried as a countermodel. ``status``:
    ``proved``, ``refuted`` (the countermodel exactly checked), ``unknown``."""
    name = "statement holds"
    profile, prover, formula = _single(statement, lambda nf: nf.closed(), timeout, language, backend, deadline)
    vacuity = profile.vacuity  # decided before on this profile (a Clusterer's vacuity test)
    if vacuity is not None and vacuity.status == Status.PROVED and \
            all(kind == "forall" for kind, _ in profile.normal_form.prefix):
        # ⊢ ∀x̄. ¬⋀Γ gives ∀x̄. ⋀Γ → C (with an ∃ in the prefix it would also need the sort
        # inhabited): no second call
        return Obligation(name, formula, Status.PROVED, vacuity.by,
                          f"the premises are contradictory ({vacuity.detail or vacuity.by})")
    if vacuity is not None and vacuity.status == Status.REFUTED and vacuity.model:
        # a model of the premises: where a wrong answer's conclusion is false (`x + 2 = 5`
        # with `x = 4`), a point no sampler draws
        prover.use_probes([vacuity.model])

    def ask() -> Obligation:
        # cheapest first: a statement whose premises define everything its conclusion
        # mentions is decided by substitution and exact evaluation, without a solver
        nf = profile.normal_form
        defs = definitions(nf, prover.deadline)  # read once: the pin below uses them too
        ob = holds_by_definitions(nf, name, formula, prover.deadline, defs)
        if ob is None:
            ob = prover(name, formula, effort=FULL)
        if ob.status == Status.UNKNOWN and not profile.unmodelled:
            # the answer read off the premises, without further solver calls: with them the
            # pin cost a Reranker 10% more time for 2 more decided truths of 250
            pin = pin_answer(nf, prover, vacuity=profile.vacuity, cheap=True, deadline=prover.deadline,
                             defs=defs)
            ob = holds_by_pin(nf, pin, name, formula, prover.deadline) or ob
        if ob.status == Status.REFUTED and profile.unmodelled:
            return Obligation(name, formula, Status.UNKNOWN,
                              detail=f"countermodel withdrawn: the statement uses {profile.unmodelled}, "
                              "whose meaning the engine does not model")
        return ob

    return _bounded(name, formula, ask)


__all__ = ["provable", "trivial", "vacuous"]
