"""Answer pinning: the one value a numeric conclusion's expression takes under the premises.

Why: most MATH-style candidates read ``Γ ⊢ L ⋈ c`` with ``c`` closed (``m - n = 1``,
``x = 6``) and premises that pin the variables. Comparing two such candidates through the
obligation ∀x̄ ȳ. ⋀Γ(x̄) ∧ ⋀Γ'(ȳ) → L(x̄) = L'(ȳ) (``relations.value_route``) puts two copies
of every variable in front of a solver, which rarely decides it in a second. A person instead
solves each candidate once: finds the value of L, checks that it is the only one, and
compares numbers. ``pin_answer`` does that per normal form, so k candidates cost O(k) work:

1. propagation (no solver): premises ``v = e`` (or ``e = v``) whose ``e`` is closed once the
   earlier definitions are substituted define ``v`` exactly (the exact evaluator computes
   ``e``). Γ implies every definition, so when L becomes closed its value v is pinned:
   Γ ⊢ L = v. When every variable of Γ gets a value and ⋀Γ evaluates to True, that
   assignment is a model of Γ;
2. a model of Γ otherwise: the vacuity obligation ∀x̄. ¬⋀Γ (``relations.vacuous_obligation``,
   shared with the clusterer's vacuity test) refuted by ``prove`` (sampled points, then the
   backend; every model re-checked here by the exact evaluator). Proved: Γ is contradictory
   (status ``vacuous``);
3. v = the exact value of L at the model (int / Fraction / bool; anything inexact is
   ``unknown``); uniqueness ⊢ ∀x̄. ⋀Γ → L = v: proved → ``pinned``; refuted by a validated
   model where L takes another exact value → ``free`` with both witnesses; else ``unknown``.

``pinned`` always comes with a validated model (a contradictory Γ pins nothing). Witnesses are
kept whatever the status: two candidates whose witnesses give L different values already
refute the value-projection obligation (``value_route`` re-checks the combined model).

Irrational models (x² = 2) are ``unknown``: the SMT model reader yields exact rationals only.

Pins depend only on a normal form's content, so they can be cached by ``pin_key`` (variable
names canonicalized; witnesses stored under the canonical names and renamed back on a hit).
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from provers.deadline import Deadline
from provers.engine.align import standardize
from provers.engine.normal import NormalForm
from provers.engine.verdict import Obligation
from provers.ir import (
    BOOL,
    FALSE,
    INT,
    NAT,
    RAT,
    REAL,
    TRUE,
    App,
    Term,
    Var,
    app,
    canonical,
    free_vars,
    implies,
    num,
    provably_inhabited,
    subterms,
)
from provers.semantics.evaluate import evaluate, truth

ProveFn = Callable[..., Obligation]

PINNED, FREE, VACUOUS, UNKNOWN, NOT_APPLICABLE = "pinned", "free", "vacuous", "unknown", "n/a"
PIN_STATUSES = (PINNED, FREE, VACUOUS, UNKNOWN, NOT_APPLICABLE)

#: ``Obligation.by`` of steps that need no backend (anything else names a solver).
SOLVERLESS = frozenset({"syntactic", "fingerprint", "propagation", "evaluator"})
VACUITY_NAME = "premises prove False"

#: A value of a base sort that every such sort has (for variables Γ does not mention).
_DEFAULT = {NAT: 0, INT: 0, RAT: 0, REAL: 0, BOOL: False}

Value = int | Fraction | bool
Model = dict[str, Any]


@dataclass
class AnswerPin:
    """What ``pin_answer`` found for one normal form.

    ``status``: ``pinned`` (Γ has a model and ⊢ Γ → L = value), ``free`` (two validated models
    give L different values), ``vacuous`` (⊢ ¬⋀Γ), ``unknown`` (``reason`` says why) or
    ``n/a`` (the conclusion is not ``L ⋈ c``). ``witnesses``: ``(model, value of L)`` pairs,
    each model re-checked by the exact evaluator (⋀Γ true, L exact). ``obligations``: the
    certificate (vacuity, uniqueness). ``by``: ``propagation`` (definitions alone),
    ``evaluator`` (sampled points and the exact evaluator, no backend) or ``solver``."""

    status: str
    value: Value | None = None
    witnesses: list[tuple[Model, Value]] = field(default_factory=list)
    obligations: list[Obligation] = field(default_factory=list)
    reason: str = ""
    by: str = ""

    @property
    def satisfiable(self) -> bool:
        """Γ has a validated model."""
        return bool(self.witnesses)

    @property
    def vacuity(self) -> Obligation | None:
        """The vacuity obligation (∀x̄. ¬⋀Γ) as decided here, for the clusterer's test."""
        return next((o for o in self.obligations if o.name == VACUITY_NAME), None)

    def renamed(self, names: dict[str, str]) -> AnswerPin:
        """The same pin with the witnesses' variable names mapped by ``names``."""
        ws = [({names.get(k, k): x for k, x in m.items()}, v) for m, v in self.witnesses]
        return replace(self, witnesses=ws, obligations=list(self.obligations))

    def to_dict(self) -> dict[str, Any]:
        from provers.engine.verdict import _jsonable

        return {
            "status": self.status,
            "value": _jsonable(self.value),
            "witnesses": [[_jsonable(m), _jsonable(v)] for m, v in self.witnesses],
            "obligations": [o.to_dict() for o in self.obligations],
            "reason": self.reason,
            "by": self.by,
        }


# --------------------------------------------------------------------------------------
# exact values
# --------------------------------------------------------------------------------------


def exact_value(v: Any) -> Value | None:
    """``v`` if the evaluator returned an exact number or truth value, else None."""
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else v
    return None


def _value_of(t: Term, env: Model, deadline: Deadline | None) -> Value | None:
    return exact_value(evaluate(t, env, deadline))


def value_term(v: Value, sort: Any) -> Term | None:
    """The IR literal of value ``v`` at ``sort`` (None when the sort has no such literal)."""
    if sort == BOOL:
        return TRUE if v is True else FALSE if v is False else None
    if isinstance(v, bool) or sort not in (NAT, INT, RAT, REAL):
        return None
    if sort in (NAT, INT) and isinstance(v, Fraction):
        return None
    if sort == NAT and v < 0:
        return None
    return num(v, sort)


def answer_is(lhs: Term, v: Value) -> Term | None:
    """``L = v`` (``L ↔ v`` for truth values), or None when v has no literal of L's sort."""
    lit = value_term(v, lhs.sort)
    if lit is None:
        return None
    return app("iff", lhs, lit) if lhs.sort == BOOL else app("eq", lhs, lit)


# --------------------------------------------------------------------------------------
# propagation
# --------------------------------------------------------------------------------------


def propagate(nf: NormalForm, deadline: Deadline | None = None) -> tuple[Model, list[str]]:
    """Exact values of the variables that Γ defines by closed values (``v = e`` / ``e = v``,
    ``e`` closed after substituting earlier definitions), and the definitions in words.
    Γ implies each of them."""
    prefix = set(nf.variables)
    env: Model = {}
    notes: list[str] = []
    changed = True
    while changed:
        changed = False
        for p in nf.premises:
            if not (isinstance(p, App) and p.op in ("eq", "iff") and len(p.args) == 2):
                continue
            for lhs, rhs in (p.args, p.args[::-1]):
                if not (isinstance(lhs, Var) and lhs in prefix and lhs.name not in env):
                    continue
                if any(u in prefix and u.name not in env for u in free_vars(rhs)):
                    continue
                val = _value_of(rhs, env, deadline)
                if val is None or value_term(val, lhs.sort) is None:
                    continue
                env[lhs.name] = val
                notes.append(f"{lhs.name} = {val}")
                changed = True
                break
    return env, notes


# --------------------------------------------------------------------------------------
# models
# --------------------------------------------------------------------------------------


def _complete(model: Model, vs: tuple[Var, ...]) -> Model | None:
    """``model`` with a default value for each variable of ``vs`` it lacks (None if a lacking
    variable's sort has no default: its values cannot be invented)."""
    out = dict(model)
    for v in vs:
        if v.name not in out:
            if v.sort not in _DEFAULT:
                return None
            out[v.name] = _DEFAULT[v.sort]
    return out


def premises_model(nf: NormalForm, model: Model | None, extra: tuple[Var, ...] = (),
                   deadline: Deadline | None = None) -> Model | None:
    """``model`` restricted to ``nf``'s variables (a solver's choice for an uninterpreted symbol
    is no model: its meaning is fixed, only unknown), completed with defaults for the
    variables of ``extra`` it lacks, when it gives a value to every variable whose sort may be
    empty and ⋀Γ is EXACTLY true there; else None."""
    if model is None:
        return None
    names = {v.name for v in nf.variables}
    env = _complete({k: x for k, x in model.items() if k in names}, extra)
    if env is None or any(v.name not in env for v in nf.variables if not provably_inhabited(v.sort)):
        return None  # over ``Fin 0`` there is no model at all, whatever Γ says
    if truth(nf.premise(), env, deadline) is not True:
        return None
    return env


def validated(nf: NormalForm, lhs: Term, model: Model | None, deadline: Deadline | None) -> tuple[Model, Value] | None:
    """``(model, L at model)`` when ⋀Γ is EXACTLY true at the model and L's value is exact
    (read back as a literal and confirmed by ``truth(L = value)``, a second path through the
    evaluator: a value mangled on the way out never becomes a witness)."""
    env = premises_model(nf, model, _mentioned(nf, lhs), deadline)
    if env is None:
        return None
    val = _value_of(lhs, env, deadline)
    claim = answer_is(lhs, val) if val is not None else None
    if claim is None or truth(claim, env, deadline) is not True:
        return None
    return env, val


def _mentioned(nf: NormalForm, lhs: Term) -> tuple[Var, ...]:
    fv = free_vars(lhs)
    for p in nf.premises:
        fv |= free_vars(p)
    return tuple(v for v in nf.variables if v in fv)


def _vacuity_formula(nf: NormalForm) -> Term:
    from provers.engine.relations import vacuous_obligation

    return vacuous_obligation(nf)


def _same_formula(f: Term, g: Term) -> bool:
    return f == g or canonical(f) == canonical(g)


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
) -> AnswerPin:
    """Pin the value of ``nf``'s answer expression (see the module docstring).

    ``prove(name, closed formula, cheap=False) -> Obligation`` validates every countermodel
    it returns (``equivalence.Prover``); ``vacuity``: the vacuity obligation already decided
    by the caller (used when it is this normal form's, up to bound-variable names);
    ``cache``: pins by ``pin_key`` (not filled by ``cheap`` runs, whose unknowns are not
    final); ``deadline`` bounds the exact evaluations (``DeadlineExceeded`` propagates, as it
    does from ``prove``)."""
    deadline = deadline if deadline is not None else getattr(prove, "deadline", None)
    key = names = None
    if cache is not None:
        key, names = pin_key(nf)
        hit = cache.get(key)
        if hit is not None:
            back = {c: n for n, c in names.items()}
            return hit.renamed(back)
    pin = _pin(nf, prove, side, vacuity, cheap, deadline)
    if cache is not None and not cheap:
        cache[key] = pin.renamed(names)
    return pin


def _pin(nf: NormalForm, prove: ProveFn, side: str, vacuity: Obligation | None, cheap: bool,
         deadline: Deadline | None) -> AnswerPin:
    std = standardize(nf)
    if std is None:
        return AnswerPin(NOT_APPLICABLE, reason="the conclusion is not L ⋈ c with c closed")
    lhs = std[0]
    label = f" ({side})" if side else ""
    obs: list[Obligation] = []

    # 1. propagation
    defs, notes = propagate(nf, deadline)
    pinned_by_defs: Value | None = None
    if not (free_vars(lhs) & set(nf.variables)) - {v for v in nf.variables if v.name in defs}:
        pinned_by_defs = _value_of(lhs, defs, deadline)
    witness = validated(nf, lhs, defs, deadline) if all(v.name in defs for v in _mentioned(nf, lhs)) else None
    vac_formula = _vacuity_formula(nf)
    if witness is not None:
        obs.append(Obligation(VACUITY_NAME, vac_formula, "refuted", "propagation",
                              "model from the premises' definitions (exact evaluator)", dict(witness[0])))

    # 2. a model of Γ
    if witness is None:
        if not nf.premises and all(provably_inhabited(v.sort) for v in nf.variables):
            # Γ is True: any point is a model, but only base sorts have a value to start from
            witness = validated(nf, lhs, {}, deadline)
            if witness is None:
                return AnswerPin(UNKNOWN, obligations=obs, by=_by(obs),
                                 reason="no premises, and the answer has no exact value at a default point")
        else:
            ob = vacuity if vacuity is not None and _same_formula(vacuity.formula, vac_formula) else None
            if ob is None:
                ob = prove(VACUITY_NAME, vac_formula, cheap=cheap)
            ob = Obligation(VACUITY_NAME, ob.formula, ob.status, ob.by, ob.detail, ob.model, ob.time)
            obs.append(ob)
            if ob.status == "proved":
                return AnswerPin(VACUOUS, obligations=obs, reason=f"premises{label} are contradictory",
                                 by=_by(obs))
            if ob.status == "refuted":
                witness = validated(nf, lhs, ob.model, deadline)
                if witness is None:
                    return AnswerPin(UNKNOWN, obligations=obs, by=_by(obs),
                                     reason="model of the premises not confirmed, or the answer's value there not exact")
            else:
                if pinned_by_defs is None:
                    return AnswerPin(UNKNOWN, obligations=obs, by=_by(obs),
                                     reason=f"premises{label}: no model found ({ob.detail or 'unknown'})")
                return AnswerPin(UNKNOWN, value=pinned_by_defs, obligations=obs, by=_by(obs),
                                 reason=f"answer is {pinned_by_defs} if the premises{label} have a model; none found "
                                        f"({ob.detail or 'unknown'})")
    if witness is None:
        return AnswerPin(UNKNOWN, obligations=obs, by=_by(obs), reason="the answer has no exact value at a model")
    model, v = witness
    witnesses = [witness]

    # 3. uniqueness
    claim = answer_is(lhs, v)
    if claim is None:
        return AnswerPin(UNKNOWN, witnesses=witnesses, obligations=obs, by=_by(obs),
                         reason=f"value {v} has no literal of sort {lhs.sort}")
    from provers.engine.relations import close

    u_name = f"answer L = {v} under Γ{label}"
    u_formula = close(implies(nf.premise(), claim) if nf.premises else claim, nf.variables)
    if pinned_by_defs is not None:
        if pinned_by_defs != v:  # Γ ⊢ L = pinned_by_defs, yet L = v at a model of Γ
            return AnswerPin(UNKNOWN, witnesses=witnesses, obligations=obs, by=_by(obs),
                             reason=f"inconsistent: propagation gives {pinned_by_defs}, a model gives {v}")
        defined = ", ".join(notes) or "no definitions needed"
        obs.append(Obligation(u_name, u_formula, "proved", "propagation",
                              f"the premises define {defined}; L evaluates to {v} (exact evaluator)"))
        return AnswerPin(PINNED, v, witnesses, obs, by=_by(obs))
    ob = prove(u_name, u_formula, cheap=cheap)
    obs.append(ob)
    if ob.status == "proved":
        return AnswerPin(PINNED, v, witnesses, obs, by=_by(obs))
    if ob.status == "refuted":
        other = validated(nf, lhs, ob.model, deadline)
        if other is not None and other[1] != v:
            return AnswerPin(FREE, None, [*witnesses, other], obs, by=_by(obs),
                             reason=f"L takes the values {v} and {other[1]} under Γ{label}")
        if other is None and premises_model(nf, ob.model, deadline=deadline) is not None:
            return AnswerPin(FREE, None, witnesses, obs, by=_by(obs),
                             reason=f"L is not always {v} under Γ{label} (its other value is not exact)")
        return AnswerPin(UNKNOWN, None, witnesses, obs, by=_by(obs),
                         reason=f"uniqueness of the answer {v}{label}: countermodel not confirmed")
    return AnswerPin(UNKNOWN, None, witnesses, obs, by=_by(obs),
                     reason=f"uniqueness of the answer {v}{label}: {ob.detail or 'not proved'}")


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


__all__ = [
    "PIN_STATUSES",
    "AnswerPin",
    "answer_is",
    "combined_by",
    "exact_value",
    "pin_answer",
    "pin_key",
    "propagate",
    "validated",
]
