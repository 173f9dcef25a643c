"""Answer pinning: the one value a numeric conclusion's expression takes under the premises.

Why: most MATH-style candidates read ``Γ ⊢ L ⋈ c`` with ``c`` closed (``m - n = 1``,
``x = 6``) and premises that pin the variables. Comparing two such candidates through the
obligation ∀x̄ ȳ. ⋀Γ(x̄) ∧ ⋀Γ'(ȳ) → L(x̄) = L'(ȳ) (``relations.value_route``) puts two copies
of every variable in front of a solver, which rarely decides it in a second. A person instead
solves each candidate once: finds the value of L, checks that it is the only one, and
compares numbers. ``pin_answer`` does that per normal form, so k candidates cost O(k) work:

1. propagation (no solver, ``provers.engine.definitions``): the premises that define
   variables and functions by closed terms are substituted into L. If L becomes closed,
   Γ ⊢ L = L[definitions] (its *closed form*; its value when the evaluator knows it
   exactly). The defined values are a model of Γ when every premise evaluates to True there;
   when every premise is a definition, Γ has a model even where the values are not exact (π);
2. a model of Γ otherwise: the vacuity obligation ∀x̄. ¬⋀Γ (``relations.vacuous_obligation``,
   shared with the clusterer's vacuity test) refuted by ``prove`` (sampled points, then the
   backend; every model re-checked here by the exact evaluator). Proved: Γ is contradictory
   (status ``vacuous``);
3. v = the exact value of L at the model (int / Fraction / bool; anything inexact is
   ``unknown``); uniqueness ⊢ ∀x̄. ⋀Γ → L = v: proved → ``pinned``; refuted by a validated
   model where L takes another exact value → ``free`` with both witnesses; else ``unknown``.

``pinned`` always comes with a proof that Γ has a model (a contradictory Γ pins nothing).
Witnesses are kept whatever the status: two candidates whose witnesses give L different
values already refute the value-projection obligation (``value_route`` re-checks the combined
model with the exact evaluator).

Irrational algebraic values are exact too: a solver's model of x² = 2 gives x as an
``AlgebraicReal`` (a polynomial and an isolating interval, re-checked by the exact field
evaluator), L's value there is computed exactly, and uniqueness is stated without a literal as
⊢ ∀x̄. ⋀Γ → p(L) = 0 ∧ lo < L < hi (``algebraic.is_root_of``). Closed forms in the field
fragment with roots (``3·√2``) get such values too; a transcendental closed form
(``π·(3/8)²·(3/16)``) is kept as a term and compared by a proof.

Pins depend only on a normal form's content, so they can be cached by ``pin_key`` (variable
names canonicalized; witnesses stored under the canonical names and renamed back on a hit).
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, field, replace
from typing import Any

from provers.deadline import Deadline, DeadlineExceeded
from provers.engine.definitions import (
    Definitions,
    Value,
    answer_is,
    definitions,
    exact_value,
    value_of,
)
from provers.engine.formulas import (
    SAT_NAME,
    VACUITY_NAME,
    close,
    satisfiable_obligation,
    solver_may_prove,
    standardize,
    vacuous_obligation,
)
from provers.engine.normal import NormalForm, premise_exists_lifted
from provers.engine.premise_models import (
    Model,
    constant_helpers,
    enumerated_model,
    mentioned_variables,
    other_value,
    premises_model,
    probe_points,
    validated,
)
from provers.engine.verdict import PIN_VACUITY, Obligation, jsonable
from provers.ir import (
    BOOL,
    REAL,
    Quant,
    Term,
    Var,
    and_,
    app,
    canonical,
    free_vars,
    has_uninterpreted,
    implies,
    provably_inhabited,
    show,
    subterms,
)
from provers.semantics.algebraic import AlgebraicReal, is_root_of
from provers.semantics.approx import is_approx
from provers.semantics.evaluate import Closure, evaluate, truth
from provers.semantics.folding import value_term
from provers.semantics.values import Undetermined, renamed_model
from provers.status import PinStatus, Status

log = logging.getLogger(__name__)

ProveFn = Callable[..., Obligation]

PINNED, FREE, VACUOUS, UNKNOWN, NOT_APPLICABLE = PinStatus

#: ``Obligation.by`` of steps that need no backend (anything else names a solver).
SOLVERLESS = frozenset({"syntactic", "fingerprint", "propagation", "evaluator"})


@dataclass
class AnswerPin:
    """What ``pin_answer`` found for one normal form.

    ``status``: ``pinned`` (Γ has a model and ⊢ Γ → L = ``closed_form``), ``free`` (two
    models give L different values), ``vacuous`` (⊢ ¬⋀Γ), ``unknown`` (``reason`` says why)
    or ``n/a`` (the conclusion is not ``L ⋈ c``). ``value``: L's exact value when known;
    ``closed_form``: a closed term equal to L under Γ (the value's literal, or the answer
    with the definitions substituted). ``witnesses``: ``(model, value of L)`` pairs, each model
    re-checked by the exact evaluator (⋀Γ true, L exact). ``sat``: the proof that Γ has a
    model (by a witness or because every premise is a definition). ``obligations``: the
    certificate (vacuity, uniqueness). ``by``: ``propagation`` (definitions alone),
    ``evaluator`` (sampled points and the exact evaluator, no backend) or ``solver``."""

    status: PinStatus
    value: Value | None = None
    witnesses: list[tuple[Model, Value]] = field(default_factory=list)
    obligations: list[Obligation] = field(default_factory=list)
    reason: str = ""
    by: str = ""
    closed_form: Term | None = None
    sat: Obligation | None = None

    def __post_init__(self) -> None:
        self.status = PinStatus(self.status)

    @property
    def satisfiable(self) -> bool:
        """Γ is known to have a model."""
        return self.sat is not None and self.sat.status == Status.PROVED

    @property
    def vacuity(self) -> Obligation | None:
        """The vacuity obligation (∀x̄. ¬⋀Γ) as decided here, for the clusterer's test."""
        return next((o for o in self.obligations if o.name == VACUITY_NAME), None)

    def renamed(self, names: dict[str, str]) -> AnswerPin:
        """The same pin with the witnesses' variable names mapped by ``names``."""
        ws = [(renamed_model(m, names), v) for m, v in self.witnesses]
        return replace(self, witnesses=ws, obligations=list(self.obligations))

    def labeled(self, side: str) -> AnswerPin:
        """The pin with its texts naming ``side`` (``A``/``B``, or nobody): pins are computed
        and cached without a side, since the same candidate is A in one pair and B in another."""
        def name(text: str) -> str:
            return text.replace(_SIDE, f" ({side})" if side else "")

        return replace(self, reason=name(self.reason),
                       obligations=[replace(o, name=name(o.name)) for o in self.obligations])

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status.value,
            "value": jsonable(self.value),
            "closed_form": show(self.closed_form) if self.closed_form is not None else None,
            "witnesses": [[jsonable(m), jsonable(v)] for m, v in self.witnesses],
            "obligations": [o.to_dict() for o in self.obligations],
            "reason": self.reason,
            "by": self.by,
        }


# --------------------------------------------------------------------------------------
# pin_answer
# --------------------------------------------------------------------------------------


def pin_answer(
    nf: NormalForm,
    prove: ProveFn,
    side: str = "",
    vacuity: Obligation | None = None,
    cache: MutableMapping[Any, AnswerPin] | None = None,
    cheap: bool = False,
    deadline: Deadline | None = None,
    defs: Definitions | None = None,
) -> AnswerPin:
    """Pin the value of ``nf``'s answer expression (see the module docstring).

    ``prove(name, closed formula, cheap=False) -> Obligation`` validates every countermodel
    it returns (``equivalence.Prover``); ``vacuity``: the vacuity obligation already decided
    by the caller (used when it is this normal form's, up to bound-variable names);
    ``cache``: pins by ``pin_key`` (not filled by ``cheap`` runs, whose unknowns are not
    final); ``deadline`` bounds the exact evaluations (``DeadlineExceeded`` propagates, as it
    does from ``prove``); ``defs``: ``definitions(nf)`` when the caller has them already."""
    deadline = deadline if deadline is not None else getattr(prove, "deadline", None)
    key = names = None
    if cache is not None:
        key, names = pin_key(nf)
        hit = cache.get(key)
        if hit is not None:
            back = {c: n for n, c in names.items()}
            return hit.renamed(back).labeled(side)
    # the witnesses of ∃ premises as variables (the same models of Γ, the same answer): a
    # solver's model names them and the exact evaluator checks the premises there; the vacuity
    # obligation is stated over them already (``formulas.vacuous_obligation``). The witness
    # models are projected back onto nf's variables, where Γ holds by those witnesses
    lifted = premise_exists_lifted(nf)
    pin = _pin(lifted, prove, vacuity, cheap, deadline, defs if lifted is nf else None)
    if lifted is not nf:
        kept = {v.name for v in nf.variables}
        pin = replace(pin, witnesses=[({k: x for k, x in m.items() if k in kept}, v) for m, v in pin.witnesses])
    if cache is not None and not cheap:
        cache[key] = pin.renamed(names)
    return pin.labeled(side)


#: where a pin's texts name its side (``AnswerPin.labeled`` fills it in)
_SIDE = " (⟨side⟩)"


def _pin(nf: NormalForm, prove: ProveFn, vacuity: Obligation | None, cheap: bool,
         deadline: Deadline | None, defs: Definitions | None) -> AnswerPin:
    std = standardize(nf)
    if std is None:
        return AnswerPin(NOT_APPLICABLE, reason="the conclusion is not L ⋈ c with c closed")
    if any(kind != "forall" for kind, _ in nf.prefix):
        return AnswerPin(NOT_APPLICABLE, reason="the prefix is not universal")
    lhs = std[0]
    obs: list[Obligation] = []

    def pin(status: PinStatus, reason: str = "", **kw: Any) -> AnswerPin:
        return AnswerPin(status, obligations=obs, reason=reason, by=_by(obs), **kw)

    # 1. propagation
    if defs is None:
        defs = definitions(nf, deadline)
    closed = defs.close(lhs, equated=True)
    closed_value = value_of(closed, {}, deadline) if closed is not None else None
    if closed is None and (partial := defs.partial_value(lhs, deadline)) is not None \
            and (literal := value_term(partial, lhs.sort)) is not None:
        # a function defined only where a guard holds, read only there: Γ ⊢ L = that value
        closed, closed_value = literal, partial
        defs.notes.append("functions only where their guards hold (" + ", ".join(f.name for f in defs.partial) + ")")
    mentioned = mentioned_variables(nf, lhs)
    witness = validated(nf, lhs, defs.values, deadline) if all(v.name in defs.values for v in mentioned) else None
    vac_formula = vacuous_obligation(nf)
    sat: Obligation | None = None
    sat_formula = satisfiable_obligation(nf)
    if witness is not None:
        obs.append(Obligation(VACUITY_NAME, vac_formula, Status.REFUTED, "propagation",
                              "model from the premises' definitions (exact evaluator)", dict(witness[0])))
        sat = _sat_by_model(sat_formula, witness[0])
    elif defs.complete:
        sat = Obligation(SAT_NAME, sat_formula, Status.PROVED, "propagation",
                         "every premise defines a variable or a function by earlier ones")

    # 2. a model of Γ, unless the definitions already close L and prove Γ satisfiable
    if witness is None and not (closed is not None and sat is not None):
        if not nf.premises and all(provably_inhabited(v.sort) for v in nf.variables):
            # Γ is True: any point is a model, but only base sorts have a value to start from;
            # a few probe points, for answers the evaluator leaves open at 0 (Isabelle's ln 0)
            witness = next((w for point in probe_points(mentioned)
                            if (w := validated(nf, lhs, point, deadline)) is not None), None)
            if witness is None:
                return pin(UNKNOWN, "no premises, and the answer has no exact value at the probe points")
        else:
            ob = _vacuity(nf, vac_formula, vacuity, prove, cheap)
            obs.append(ob)
            if ob.status == Status.PROVED:
                return pin(VACUOUS, f"premises{_SIDE} are contradictory")
            env = premises_model(nf, ob.model, mentioned, deadline) if ob.status == Status.REFUTED else None
            if env is None and ob.status != Status.PROVED:
                env = enumerated_model(nf, defs, mentioned, deadline)
                if env is not None:
                    obs[-1] = ob = Obligation(VACUITY_NAME, vac_formula, Status.REFUTED, "evaluator",
                                              "a model of the premises among small integers (exact evaluator)",
                                              dict(env))
            if env is None:
                if sat is None and ob.status == Status.REFUTED and ob.by == "propagation":
                    sat = Obligation(SAT_NAME, sat_formula, Status.PROVED, "propagation", ob.detail)
                why = (f"premises{_SIDE}: no model found ({ob.detail or 'unknown'})" if ob.status != Status.REFUTED
                       else "model of the premises not confirmed by the exact evaluator")
                return _without_model(nf, std, closed, closed_value, sat, ob, prove, cheap, obs, why, deadline)
            sat = sat or _sat_by_model(sat_formula, env)
            witness = validated(nf, lhs, env, deadline)
            if witness is None and closed is None:
                return _without_model(nf, std, closed, closed_value, sat, ob, prove, cheap, obs,
                                      "the answer has no exact value at the model of the premises", deadline)
        if witness is not None:
            sat = sat or _sat_by_model(sat_formula, witness[0])
    witnesses = [witness] if witness is not None else []

    # 3. uniqueness: by the definitions, else by a proof
    if closed is not None:
        v = closed_value if closed_value is not None else witness[1] if witness is not None else None
        if witness is not None and v != witness[1]:  # Γ ⊢ L = v, yet L ≠ v at a model of Γ
            return pin(UNKNOWN, f"inconsistent: propagation gives {v}, a model gives {witness[1]}",
                       witnesses=witnesses)
        form = value_term(v, lhs.sort) if v is not None else closed
        form = form if form is not None else closed
        defined = ", ".join(defs.notes) or "no definitions needed"
        result = f"{v}" if v is not None else show(closed)
        obs.append(Obligation(f"answer L = {result} under Γ{_SIDE}", _claim(nf, lhs, form), Status.PROVED,
                              "propagation", f"the premises define {defined}; L becomes {result}"))
        return pin(PINNED, value=v, witnesses=witnesses, closed_form=form, sat=sat)
    assert witness is not None and sat is not None
    return _from_witness(nf, lhs, witness, sat, prove, cheap, obs, deadline, defs=defs)


def _from_witness(nf: NormalForm, lhs: Term, witness: tuple[Model, Value], sat: Obligation, prove: ProveFn,
                  cheap: bool, obs: list[Obligation], deadline: Deadline | None,
                  more: list[tuple[Model, Value]] | None = None, defs: Definitions | None = None) -> AnswerPin:
    """Step 3 with a validated model: is L's value there its only value under Γ? Where the
    proof is left undecided, a second model among small integers (``enumerated_model``, with
    ``defs``) where L has another value says it is not."""
    _, v = witness
    witnesses = [witness, *(more or [])]

    def pin(status: PinStatus, reason: str = "", **kw: Any) -> AnswerPin:
        return AnswerPin(status, obligations=obs, reason=reason, by=_by(obs), sat=sat, **kw)

    other = other_value(nf, lhs, witness, deadline)
    if other is not None:  # before any solver call: it would look for a function
        return pin(FREE, f"L takes the values {v} and {other[1]} under Γ{_SIDE} (another value of a function "
                   "L reads)", witnesses=[*witnesses, other])
    lit = value_term(v, lhs.sort)
    claim = value_claim(nf, lhs, v)
    if claim is None:
        return pin(UNKNOWN, f"value {v} has no literal of sort {lhs.sort}", witnesses=witnesses)
    by_truth_values = _over_truth_values(nf, lhs, v, claim, deadline)
    if by_truth_values is not None:
        obs.append(by_truth_values)
        return pin(PINNED, value=v, witnesses=witnesses, closed_form=lit)
    ob = prove(f"answer L = {v} under Γ{_SIDE}", claim, cheap=cheap)
    obs.append(ob)
    if ob.status == Status.PROVED:
        return pin(PINNED, value=v, witnesses=witnesses, closed_form=lit)
    if ob.status == Status.REFUTED:
        other = validated(nf, lhs, ob.model, deadline)
        if other is not None and other[1] != v:
            return pin(FREE, f"L takes the values {v} and {other[1]} under Γ{_SIDE}", witnesses=[*witnesses, other])
        if other is None and premises_model(nf, ob.model, deadline=deadline) is not None:
            return pin(FREE, f"L is not always {v} under Γ{_SIDE} (its other value is not exact)",
                       witnesses=witnesses)
        return pin(UNKNOWN, f"uniqueness of the answer {v}{_SIDE}: countermodel not confirmed", witnesses=witnesses)
    if defs is not None and not cheap and any(f in nf.variables and not defs.defined(f)
                                               for f in constant_helpers(nf.premises)):
        # a free helper function (every constant function a model): where the answer goes
        # through one, a model with another answer is usually among small integers (asked only
        # there: elsewhere the search cost 3 % held out for no decision)
        other = validated(nf, lhs, enumerated_model(nf, defs, mentioned_variables(nf, lhs), deadline, avoid=(lhs, v)), deadline)
        if other is not None and other[1] != v:
            return pin(FREE, f"L takes the values {v} and {other[1]} under Γ{_SIDE} (models among small integers)",
                       witnesses=[*witnesses, other])
    return pin(UNKNOWN, f"uniqueness of the answer {v}{_SIDE}: {ob.detail or 'not proved'}", witnesses=witnesses)


#: Most truth values an answer may read for ``_over_truth_values`` to try all their assignments.
MAX_TRUTH_VALUES = 6


def _over_truth_values(nf: NormalForm, lhs: Term, v: Value, claim: Term,
                       deadline: Deadline | None) -> Obligation | None:
    """Γ ⊢ L = v proved by L's value at every assignment of the truth values it reads, when
    those are all it reads (at most ``MAX_TRUTH_VALUES``) and each gives exactly v: whatever Γ
    says, L = v. Why: a candidate that names its hypotheses inside a term (``card {n | n. h0 ∧
    h1 ∧ h2}``) reads free truth values, whose answer a solver is asked to prove unique in
    vain (``counting_and_probability/problem_997``). None when that does not settle it."""
    free = sorted(free_vars(lhs), key=lambda u: u.name)
    if not free or len(free) > MAX_TRUTH_VALUES or any(u.sort != BOOL for u in free):
        return None
    for bits in itertools.product((False, True), repeat=len(free)):
        if value_of(lhs, {u.name: b for u, b in zip(free, bits, strict=True)}, deadline) != v:
            return None
    names = ", ".join(u.name for u in free)
    return Obligation(f"answer L = {v} under Γ{_SIDE}", claim, Status.PROVED, "evaluator",
                      f"L reads only the truth values {names} and is {v} at each of their "
                      f"{2 ** len(free)} assignments (exact evaluator)")


def _without_model(nf: NormalForm, std: tuple[Term, str, Term], closed: Term | None, closed_value: Value | None,
                   sat: Obligation | None, vacuity: Obligation, prove: ProveFn, cheap: bool,
                   obs: list[Obligation], why: str, deadline: Deadline | None) -> AnswerPin:
    """No exact model of Γ to read L's value from (irrational solutions, say): pin L to its
    closed form, or to the stated answer c of ``L = c`` once ∀x̄. ⋀Γ → L = c is proved, and
    prove Γ satisfiable (``prove_satisfiable``; ``vacuity``: the vacuity obligation as
    decided)."""
    lhs, op, c = std

    def unknown(reason: str) -> AnswerPin:
        return AnswerPin(UNKNOWN, closed_value, [], obs, reason, _by(obs), closed, sat)

    if closed is not None:
        v, form = closed_value, closed
        result = f"{v}" if v is not None else show(closed)
        unique = Obligation(f"answer L = {result} under Γ{_SIDE}", _claim(nf, lhs, form), Status.PROVED,
                            "propagation", "the premises' definitions substituted into L")
    else:
        v = value_of(c, {}) if op == "eq" else None
        lit = value_term(v, lhs.sort) if v is not None else None
        if lit is None:
            return unknown(why)
        unique = prove(f"answer L = {v} (the stated answer) under Γ{_SIDE}", _claim(nf, lhs, lit), cheap=cheap)
        if unique.status != Status.PROVED:
            obs.append(unique)
            other = validated(nf, lhs, unique.model, deadline) if unique.status == Status.REFUTED else None
            if other is not None:  # a model after all, where L is not the stated answer
                return _from_witness(nf, lhs, other, _sat_by_model(satisfiable_obligation(nf), other[0]), prove,
                                     cheap, obs, deadline)
            return unknown(f"{why}; the stated answer {v} is not proved unique ({unique.detail or unique.status})")
        form = lit
    obs.append(unique)
    if sat is None:
        sat = prove_satisfiable(nf, prove, vacuity, cheap, deadline)
        obs.append(sat)
        if sat.status == Status.REFUTED:  # Γ has no model
            obs.append(Obligation(VACUITY_NAME, vacuous_obligation(nf), Status.PROVED, sat.by, sat.detail))
            return AnswerPin(VACUOUS, None, [], obs, f"premises{_SIDE} are contradictory", _by(obs))
        if sat.status != Status.PROVED:
            return unknown(f"{why}; premises not proved satisfiable ({sat.detail or sat.status})")
    return AnswerPin(PINNED, v, [], obs, "", _by(obs), form, sat)


def vacuity_by_definitions(nf: NormalForm, formula: Term, deadline: Deadline | None = None) -> Obligation | None:
    """The vacuity obligation ``formula`` of ``nf`` decided by the premises' definitions,
    without a solver (None: they do not decide it).

    Γ implies every definition it makes (``definitions``), so Γ is equivalent to the
    definitions and the other premises with them substituted. When those are closed, their
    truth decides: false, Γ is contradictory; true (or none left), Γ has a model by
    construction, each variable at its definition's value — every term denotes in Lean and
    Isabelle (``area = 32 − 4π`` has no exact value, and a solver's rational π is no model).
    Refuted this way, the obligation is "propagation"'s: ``prove_satisfiable`` takes it as a
    proof even where its model is partial."""
    lifted = premise_exists_lifted(nf)
    if not lifted.premises:
        return None
    try:
        defs = definitions(lifted, deadline)
        if not defs.used:
            return None
        rest = [defs.close(p) for i, p in enumerate(lifted.premises) if i not in defs.used]
        if any(r is None or has_uninterpreted(r) for r in rest):
            return None
        holds = truth(and_(*rest), {}, deadline) if rest else True
        if holds is False:
            return Obligation(VACUITY_NAME, formula, Status.PROVED, "propagation",
                              "with the variables the premises define at their definitions, the other "
                              "premises are exactly false (exact evaluation)")
        if holds is not True or not all(defs.defined(v) or provably_inhabited(v.sort) for v in lifted.variables):
            return None
        model = _defined_model(lifted, defs, deadline)
    except DeadlineExceeded:
        raise
    except Exception as e:  # noqa: BLE001 - a bug must not become a verdict: the solvers decide
        log.warning("vacuity by definitions failed: %s: %s", type(e).__name__, e, exc_info=True)
        return None
    what = "every premise defines a variable or a function by earlier ones" if not rest else \
        "the other premises hold exactly at the definitions' values"
    return Obligation(VACUITY_NAME, formula, Status.REFUTED, "propagation",
                      f"{what}: a model by construction", model)


def _defined_model(nf: NormalForm, defs: Definitions, deadline: Deadline | None) -> Model | None:
    """The model of Γ the definitions construct, as the exact evaluator sees it: each defined
    variable at its definition's value (a set, a number), each defined function as its
    closure, when ⋀Γ is exactly true there (``premises_model``, which also gives the other
    variables defaults); else the exact values of the defined scalars that are known (the
    model exists all the same: the evaluator cannot write it down)."""
    model: Model = {}
    for v, t in defs.terms.items():
        val = evaluate(t, {}, deadline)
        if not isinstance(val, Undetermined) and not is_approx(val):
            model[v.name] = val
    for f, (params, body) in defs.funs.items():
        model[f.name] = Closure(params, body, {})
    full = premises_model(nf, model, tuple(nf.variables), deadline)
    return full if full is not None else (dict(defs.values) or None)


def prove_satisfiable(nf: NormalForm, prove: ProveFn, vacuity: Obligation | None = None, cheap: bool = False,
                      deadline: Deadline | None = None, name: str = SAT_NAME) -> Obligation:
    """⊢ ∃x̄. ⋀Γ: ``proved``, Γ has a model; ``refuted``, Γ is contradictory.

    A backend is asked to prove the ∃ only when it binds no function or set variable
    (``formulas.solver_may_prove``: z3 has "proved" false ∃ statements over function
    variables). Over those, only a model counts: the vacuity obligation ∀x̄. ¬⋀Γ refuted with
    a model the exact evaluator confirms (``vacuity``: that obligation already decided)."""
    nf = premise_exists_lifted(nf)  # the witnesses of ∃ premises as variables, as the obligations state them
    formula = satisfiable_obligation(nf)
    if solver_may_prove(formula):
        ob = prove(name, formula, cheap=cheap)
        detail = ob.detail or ("∃x̄. ⋀Γ is false (exact evaluator)" if ob.status == Status.REFUTED else "")
        return Obligation(name, formula, ob.status, ob.by, detail, ob.model, ob.time)
    vac = _vacuity(nf, vacuous_obligation(nf), vacuity, prove, cheap)
    if vac.status == Status.PROVED:
        return Obligation(name, formula, Status.REFUTED, vac.by, "the premises prove False")
    bound = formula.vars if isinstance(formula, Quant) else ()
    env = premises_model(nf, vac.model, bound, deadline) if vac.status == Status.REFUTED else None
    if env is not None:
        return _sat_by_model(formula, env, name)
    if vac.status == Status.REFUTED and vac.by == "propagation":  # a model by construction
        return Obligation(name, formula, Status.PROVED, "propagation", vac.detail, vac.model)
    return Obligation(name, formula, Status.UNKNOWN, vac.by,
                      "over functions or sets only a model of the premises proves them satisfiable "
                      f"({vac.detail or vac.status})")


def _same_formula(f: Term, g: Term) -> bool:
    return f == g or canonical(f) == canonical(g)


def _vacuity(nf: NormalForm, formula: Term, decided: Obligation | None, prove: ProveFn,
             cheap: bool) -> Obligation:
    """The vacuity obligation of ``nf``: ``decided`` when it is that formula (up to bound
    names) and its model, if any, is in ``nf``'s names; else asked of ``prove``."""
    ob = decided if decided is not None and _same_formula(decided.formula, formula) else None
    if ob is None:
        ob = prove(VACUITY_NAME, formula, cheap=cheap, effort=PIN_VACUITY)
    return Obligation(VACUITY_NAME, ob.formula, ob.status, ob.by, ob.detail, ob.model, ob.time)


def _claim(nf: NormalForm, lhs: Term, form: Term) -> Term:
    """∀x̄. ⋀Γ → L = form."""
    eq = app("iff", lhs, form) if lhs.sort == BOOL else app("eq", lhs, form)
    return _under_premises(nf, eq)


def _under_premises(nf: NormalForm, body: Term) -> Term:
    return close(implies(nf.premise(), body) if nf.premises else body, nf.variables)


def value_claim(nf: NormalForm, lhs: Term, v: Value) -> Term | None:
    """∀x̄. ⋀Γ → L = v for an exact value ``v`` (an irrational one stated as "L is the root of
    p in (lo, hi)", ``algebraic.is_root_of``); None when v cannot be stated at L's sort."""
    lit = value_term(v, lhs.sort)
    if lit is not None:
        return _claim(nf, lhs, lit)
    if isinstance(v, AlgebraicReal) and lhs.sort == REAL:
        return _under_premises(nf, is_root_of(v, lhs))
    return None


def pinned_claim(nf: NormalForm, lhs: Term, pin: AnswerPin) -> Term | None:
    """∀x̄. ⋀Γ → L = the answer another statement is pinned to (its exact value, else its
    closed form); None when ``pin`` is not ``pinned`` or its answer cannot be stated at L's sort."""
    if pin.status != PINNED:
        return None
    if pin.value is not None:
        claim = value_claim(nf, lhs, pin.value)
        if claim is not None:
            return claim
    if pin.closed_form is not None and pin.closed_form.sort == lhs.sort:
        return _claim(nf, lhs, pin.closed_form)
    return None


def _sat_by_model(formula: Term, model: Model, name: str = SAT_NAME) -> Obligation:
    shown = ", ".join(f"{k} = {v}" for k, v in model.items())
    return Obligation(name, formula, Status.PROVED, "evaluator", f"model {{{shown}}} (exact evaluator)")


def _by(obs: list[Obligation]) -> str:
    if any(o.by and o.by not in SOLVERLESS for o in obs):
        return "solver"
    return "propagation" if all(o.by == "propagation" for o in obs) else "evaluator"


def combined_by(*pins: AnswerPin) -> str:
    """How a decision from several pins was reached: the costliest of their ``by``."""
    for how in ("solver", "evaluator"):
        if any(p.by == how for p in pins):
            return how
    return "propagation"


# --------------------------------------------------------------------------------------
# cache key
# --------------------------------------------------------------------------------------


def pin_key(nf: NormalForm) -> tuple[tuple, dict[str, str]]:
    """A key equal for normal forms that differ only in their variables' names, and the
    renaming of ``nf``'s variables to the key's canonical names (``_v0, _v1, …`` in order of
    first occurrence in Γ → C, then the unused prefix variables in prefix order)."""
    body = implies(nf.premise(), nf.conclusion) if nf.premises else nf.conclusion
    fv = free_vars(body)
    names: dict[str, str] = {}
    for s in subterms(body):
        if isinstance(s, Var) and s in fv and s.name not in names:
            names[s.name] = f"_v{len(names)}"
    unused = []
    for v in nf.variables:
        if v.name not in names:
            names[v.name] = f"_v{len(names)}"
            unused.append(str(v.sort))
    key = (repr(canonical(body, "_v")), tuple(unused), tuple(v.name for v in nf.types),
           tuple(repr(i) for i in nf.instances))
    return key, names




# --------------------------------------------------------------------------------------
# whole statements decided by their definitions or their pin
# --------------------------------------------------------------------------------------


def holds_by_definitions(nf: NormalForm, name: str, formula: Term,
                         deadline: Deadline | None = None, defs: Definitions | None = None) -> Obligation | None:
    """Whether ∀x̄. ⋀Γ → C holds when Γ defines everything C mentions (``r = 6 * sqrt 3``,
    ``θ = 5 * pi / 3``, ``x = r * cos θ``, ``∀t. f t = …``), read without a solver: C with the
    definitions substituted is closed, and the exact evaluator decides it (None: it does not
    apply or does not say). Why: solvers see π and cos through approximations and such a
    chain as a nonlinear system, while substitution makes it arithmetic on exact values.

    Proved when the substituted C is exactly true: under Γ every defined variable equals its
    defining term. Refuted when it is exactly false and Γ has a model: every premise that is
    not a definition closes to an exactly true formula too, and every undefined variable's
    sort is inhabited (the definitions, evaluated, are then the countermodel). ``defs``:
    ``definitions(nf)`` when the caller has them already."""
    if any(kind != "forall" for kind, _ in nf.prefix):
        return None
    if defs is None:
        defs = definitions(nf, deadline)
    if not defs.used:
        return None
    conclusion = defs.close(nf.conclusion, equated=True)
    if conclusion is None:
        return None
    verdict = truth(conclusion, {}, deadline)
    how = "the premises' definitions substituted into the conclusion"
    if verdict is True:
        return Obligation(name, formula, Status.PROVED, "definitions", f"{how}: exactly true")
    if verdict is not False:
        return None
    if not all(defs.defined(v) or provably_inhabited(v.sort) for v in nf.variables):
        return None
    for i, p in enumerate(nf.premises):
        if i not in defs.used:
            closed = defs.close(p)
            if closed is None or truth(closed, {}, deadline) is not True:
                return None
    return Obligation(name, formula, Status.REFUTED, "definitions",
                      f"{how}: exactly false, and the definitions are a model of the premises "
                      f"({'; '.join(defs.notes)})", dict(defs.values))


def holds_by_pin(nf: NormalForm, pin: AnswerPin, name: str, formula: Term,
                 deadline: Deadline | None = None) -> Obligation | None:
    """Whether the whole statement ∀x̄. ⋀Γ → L ⋈ c holds, read off its answer pin (None:
    the pin does not say). Why: a solver asked the closed statement at once rarely decides
    it, while a person reads the answer off the premises and compares it with c.

    Proved when Γ ⊢ L = v and ``v ⋈ c`` holds exactly (a contradictory Γ proves it too).
    Refuted by a witness of the pin (a model of Γ, exactly checked) where the conclusion is
    exactly false; the model is re-checked on ``nf`` itself before it is returned."""
    std = standardize(nf)
    if std is None or any(kind != "forall" for kind, _ in nf.prefix):
        return None
    lhs, op, c = std
    if pin.status == VACUOUS:
        proofs = [o for o in pin.obligations if o.name == VACUITY_NAME and o.status == Status.PROVED]
        if proofs:
            return Obligation(name, formula, Status.PROVED, proofs[0].by, "the premises are contradictory")
        return None
    for model, value in pin.witnesses:
        if truth(nf.conclusion, model, deadline) is False and truth(nf.premise(), model, deadline) is True:
            return Obligation(name, formula, Status.REFUTED, "answer pinning",
                              f"a model of the premises gives {show(lhs)} = {value}, where the conclusion is "
                              "false (exact evaluation)", dict(model))
    if pin.status != PINNED or pin.value is None:
        return None
    lit = value_term(pin.value, lhs.sort)
    if lit is not None:
        verdict = truth(app(op, lit, c), {}, deadline)
    else:  # an irrational value: the conclusion at a witness where L takes it
        verdict = next((truth(nf.conclusion, m, deadline) for m, v in pin.witnesses if v == pin.value), None)
    if verdict is True:
        return Obligation(name, formula, Status.PROVED, "answer pinning",
                          f"Γ ⊢ {show(lhs)} = {pin.value} ({pin.by or 'pinned'}), where the conclusion holds")
    return None


__all__ = [
    "AnswerPin",
    "answer_is",
    "combined_by",
    "exact_value",
    "holds_by_definitions",
    "holds_by_pin",
    "pin_answer",
    "pin_key",
    "pinned_claim",
    "prove_satisfiable",
    "value_claim",
    "vacuity_by_definitions",
]
