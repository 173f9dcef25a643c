"""The prover the relations ask: ``prove(name, closed formula, cheap=False) -> Obligation``.

Cheapest first: syntactic identity proves (``⊢ t = t``); a closed formula without
uninterpreted symbols is decided by exact evaluation; exact evaluation at sampled points
refutes (a point where the formula is exactly false is a validated countermodel, since the
evaluator is exact); then the backend, whose countermodels are re-checked by the evaluator
before they count. Results are cached per formula for the length of one check.
"""

from __future__ import annotations

import itertools
import logging
import time
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from provers.backends.base import Backend, Proved, Refuted, Unknown
from provers.backends.smt import Portfolio
from provers.deadline import Deadline, DeadlineExceeded
from provers.engine import finite_sorts
from provers.engine.congruence import differences
from provers.engine.definitions import (
    definition_choices,
)
from provers.engine.density import same_up_to_bounds
from provers.engine.formulas import close, dropped_guard_lemma
from provers.engine.normal import sort_mentions
from provers.engine.points import exact_truth, falsifying_point, sampled_counterexample
from provers.engine.recurrences import (
    RELAXED_INSTANCES,
    Recurrence,
    initial_indices,
    instantiate_recurrences,
    recurrences,
)
from provers.engine.unfolding import Unfolded, definitional_directions, unfold_function_definitions
from provers.engine.verdict import FULL, QUICK, Obligation
from provers.engine.witnesses import (
    RANGES,
    SOLUTIONS,
    abstracted_applications,
    assumed,
    equation_witnesses,
    hypotheses,
    linear_solution,
    simplify_inverses,
)
from provers.ir import (
    ANALYTIC,
    INT,
    NAT,
    RAT,
    REAL,
    TRUE,
    App,
    BigOp,
    Lam,
    Num,
    OpaqueSort,
    Quant,
    SetBuilder,
    Term,
    Var,
    and_,
    app,
    canon_key,
    conjuncts,
    free_vars,
    has_uninterpreted,
    implies,
    known_elements,
    show,
    strip_forall,
    substitute,
    subterms,
    unfold,
)
from provers.semantics import (
    PROBES,
    Closure,
    FunTable,
    Opaque,
    Sequence,
    angle_points,
    evaluate,
    integer_points,
)
from provers.semantics.approx import is_rational
from provers.semantics.identities import polynomial_identity
from provers.semantics.values import Undetermined, Witness
from provers.status import Status

log = logging.getLogger(__name__)

#: Sampled points at which an obligation is evaluated before any backend runs.
FINGERPRINT_POINTS = 24
#: After the solvers give up, small integer points are enumerated for at most this long ...
ENUMERATION_SECONDS = 0.1
#: ... and at most this share of the check's time left, once these many points are done
#: (binder-free obligations: each point costs microseconds; (1, 18) is point 190).
ENUMERATION_SHARE = 0.1
ENUMERATION_MIN_POINTS = 500


def default_backend() -> Backend:
    """The SMT portfolio (z3 and cvc5 in contained worker processes)."""
    return Portfolio()


#: Functions whose values at integer points are transcendental: each point of a real
#: enumeration through them is an interval certification (``_enumerated_model`` skips them:
#: precalculus/problem_59 took 30 s instead of 7).
_TRANSCENDENTAL_AT_POINTS = (ANALYTIC - {"sqrt", "signed_sqrt"}) | {"isa_log", "logb"}
#: operations that take Isabelle's ``ln`` of their first n arguments: (n, the guard that keeps
#: it specified: ``le`` 0 ≤ x, since 0 powr y = 0; ``lt`` 0 < x)
_LN_ARGUMENTS = {"powr": (1, "le"), "ln": (1, "lt"), "isa_log": (2, "lt")}


def _trivially_valid(body: Term) -> bool:
    if body == TRUE:
        return True
    if isinstance(body, App) and body.op in ("iff", "eq", "implies") and len(body.args) == 2:
        return canon_key(body.args[0]) == canon_key(body.args[1])
    return False


def _dense_bounds(body: Term) -> bool:
    """``p ↔ q`` (or ``p → q``) whose sides differ only in how their ∀s nest and whether
    the bounds on a positive ℝ / ℚ quantifier are strict (``density``)."""
    if isinstance(body, App) and body.op in ("iff", "implies"):
        return same_up_to_bounds(*body.args)
    return False


@dataclass
class Prover:
    """``prove(name, closed formula, cheap=False, effort=QUICK) -> Obligation``; results
    cached by formula (an unknown only for requests of no more effort). ``effort``: the share
    of ``timeout`` a solver call gets. Raises ``DeadlineExceeded`` once ``deadline`` has
    passed (evaluation or solving)."""

    backend: Backend | None
    timeout: float
    deadline: Deadline
    points: int = FINGERPRINT_POINTS
    seed: int = 0

    def __post_init__(self) -> None:
        #: names of the statements' type variables: a countermodel may give them any number
        #: of elements; a fixed type the IR does not model (``Fin 1``) only as many as it has
        self.carriers: frozenset[str] = frozenset()
        self.cache: dict[Term, Obligation] = {}
        self._effort: dict[Term, float] = {}  # the effort an unknown in ``cache`` was asked at
        self.cheap_cache: dict[tuple[Term, str], Obligation] = {}
        self.solver_calls = 0
        #: truth values at sampled points, by body, then by point (``points.point_key``): the cheap
        #: pass, the backend pass and each set of probes ask the same points again
        self.point_truths: dict[Term, dict[frozenset, bool | None]] = {}
        self.probes: list[dict] = []
        self._probe_tag = ""

    def use_probes(self, points: list[dict]) -> None:
        """Try ``points`` (variable name → value) first when looking for a countermodel, e.g.
        models of the premises, where the premises of two statements are worth comparing.
        Cheap "unknown" results are remembered per set of probes."""
        self.probes = [dict(p) for p in points]
        self._probe_tag = repr(self.probes)

    def __call__(self, name: str, formula: Term, cheap: bool = False, effort: float = QUICK) -> Obligation:
        hit = self.cache.get(formula)
        if hit is not None and hit.status == Status.UNKNOWN and self._effort.get(formula, FULL) < effort:
            hit = None
        if hit is None and cheap:
            hit = self.cheap_cache.get((formula, self._probe_tag))
        if hit is not None:
            return Obligation(name, formula, hit.status, hit.by, hit.detail, hit.model, 0.0)
        t0 = time.perf_counter()
        ob = Obligation(name, formula)
        vs, body = strip_forall(formula)
        if _trivially_valid(body):  # `p ↔ p'` up to renaming: nothing to unfold or ask
            ob.status, ob.by = Status.PROVED, "syntactic"
            return self._remember(ob, formula, cheap, effort, t0)
        unfolded = unfold_function_definitions(formula)
        if unfolded is not None:
            self._unfolded(ob, unfolded, cheap, effort)
            return self._remember(ob, formula, cheap, effort, t0)
        directions = definitional_directions(formula)
        if directions is not None:
            self._both_directions(ob, directions, cheap, effort)
            return self._remember(ob, formula, cheap, effort, t0)
        closed = not vs and not has_uninterpreted(body)  # (a trivially valid body returned above)
        closed_truth = exact_truth(body, {}, self.deadline) if closed else None
        if _dense_bounds(body):
            ob.status, ob.by = Status.PROVED, "syntactic"
            ob.detail = ("one formula once the ∀s are pulled outward and the bounds on a positive ℝ / ℚ "
                         "quantifier made strict (a dense order: δ / 2 or 2δ is the other side's witness)")
        elif closed_truth is not None:  # closed: the exact evaluator is the semantics itself
            ob.status, ob.by = (Status.PROVED, "evaluator") if closed_truth else (Status.REFUTED, "fingerprint")
            ob.detail = f"closed formula, exactly {'true' if closed_truth else 'false'} (exact evaluation)"
            ob.model = None if closed_truth else {}
        elif closed and (witnessed := self._witness_proof(body)) is not None:
            ob.status, ob.by, ob.detail = Status.PROVED, "evaluator", witnessed
        elif self._decided_on_finite_sorts(ob, vs, body):
            pass
        else:
            model = sampled_counterexample(vs, body, self.points, self.seed, self.carriers, self.deadline,
                                           self.probes, self.point_truths)
            if model is not None:
                ob.status, ob.by, ob.model = Status.REFUTED, "fingerprint", model
                ob.detail = "false at a sampled point (exact evaluation)"
            elif cheap:
                ob.status, ob.detail = Status.UNKNOWN, "not decided by cheap checks"
            elif not self._proved_by_dropped_guard(ob, effort):
                self._solve(ob, effort)
        return self._remember(ob, formula, cheap, effort, t0)

    def _decided_on_finite_sorts(self, ob: Obligation, vs: tuple[Var, ...], body: Term) -> bool:
        """∀ over ``ZMod n`` variables, by exact evaluation at every point where the body can
        fail (``finite_sorts.decided``). False, and ``ob`` untouched, when that does not apply."""
        found = finite_sorts.decided(vs, body, self.deadline)
        if found is None:
            return False
        holds, point, visited = found
        if holds:
            ob.status, ob.by = Status.PROVED, "evaluator"
            ob.detail = f"exactly true at each of the {visited} point(s) of ZMod n where it could fail"
        else:
            ob.status, ob.by, ob.model = Status.REFUTED, "fingerprint", point
            ob.detail = "false at a point of ZMod n (exact evaluation)"
        return True

    def _proved_by_dropped_guard(self, ob: Obligation, effort: float) -> bool:
        """``(∀ȳ. G → P) ↔ (∀ȳ. P)`` proved by its quantifier-free lemma ``∀ȳ. ¬G → P``
        (``formulas.dropped_guard_lemma``); False, and ``ob`` untouched, otherwise."""
        found = dropped_guard_lemma(ob.formula)
        if found is None:
            return False
        lemma, guard = found
        inner = self(f"{ob.name} (the dropped guard)", lemma, cheap=False, effort=effort)
        if inner.status != Status.PROVED:
            return False
        ob.status, ob.by = Status.PROVED, inner.by
        ob.detail = f"the guard {show(guard)} changes nothing: the body holds where it fails"
        return True

    def _remember(self, ob: Obligation, formula: Term, cheap: bool, effort: float, t0: float) -> Obligation:
        ob.time = time.perf_counter() - t0
        if ob.status == Status.UNKNOWN and cheap:
            self.cheap_cache[(formula, self._probe_tag)] = ob
        else:
            self.cache[formula] = ob
            self._effort[formula] = effort
        return ob

    def _unfolded(self, ob: Obligation, unfolded: Unfolded, cheap: bool, effort: float) -> None:
        """Decide ``ob`` by its equivalent without the functions a hypothesis defines; a
        countermodel gets each function as the closure of its definition and is re-checked
        on the original obligation."""
        inner = self(ob.name, unfolded.formula, cheap, effort)
        names = ", ".join(f.name for f, _, _ in unfolded.functions)
        ob.status, ob.by = inner.status, inner.by
        ob.detail = f"{inner.detail} (with {names} unfolded: defined by a hypothesis)"
        if inner.status != Status.REFUTED:
            return
        model = dict(inner.model or {})
        for f, params, e in unfolded.functions:
            if params:
                model[f.name] = Closure(params, e, model)
            elif not isinstance(value := evaluate(e, model, self.deadline), Undetermined):
                model[f.name] = value  # a set S = e: e's value; else S is read through e alone
        if exact_truth(strip_forall(ob.formula)[1], model, self.deadline) is True:
            log.warning("a countermodel of the unfolded obligation %s holds on the original", ob.name)
            ob.status, ob.model = Status.UNKNOWN, None
            ob.detail = f"countermodel of the unfolded obligation not confirmed ({names} unfolded)"
            return
        ob.model = model

    def _both_directions(self, ob: Obligation, directions: tuple[Term, Term], cheap: bool,
                         effort: float) -> None:
        """Decide ``A ↔ B`` as ``A → B`` and ``B → A`` (each unfolds the functions its own
        hypothesis defines): proved when both are; a countermodel of either refutes it (one
        side true, the other false there; the iff is re-evaluated and must not be true)."""
        inner = []
        for arrow, d in zip(("→", "←"), directions, strict=True):
            o = self(f"{ob.name} {arrow}", d, cheap, effort)
            if o.status == Status.REFUTED:
                # A → B false (A true, B false) makes A ↔ B false: the direction's countermodel
                # (validated, or a closure model valid by construction) refutes the iff; the
                # exact evaluator may not reach B's ∀ over the reals, but must never say True
                if exact_truth(strip_forall(ob.formula)[1], dict(o.model or {}), self.deadline) is not True:
                    ob.status, ob.by, ob.model = Status.REFUTED, o.by, o.model
                    ob.detail = f"{o.detail} (direction {arrow} of the iff)"
                    return
                log.warning("a countermodel of direction %s of %s makes the iff true", arrow, ob.name)
                o = Obligation(o.name, o.formula, Status.UNKNOWN, o.by, "countermodel not confirmed on the iff")
            inner.append(o)
        if all(o.status == Status.PROVED for o in inner):
            ob.status, ob.by = Status.PROVED, inner[0].by if inner[0].by == inner[1].by else f"{inner[0].by}+{inner[1].by}"
            ob.detail = f"both directions proved ({inner[0].detail}; {inner[1].detail})"
            return
        ob.status = Status.UNKNOWN
        ob.detail = "; ".join(f"direction {arrow}: {o.status.value} ({o.detail})"
                              for arrow, o in zip(("→", "←"), inner, strict=True))

    def _check_model(self, ob: Obligation, model: dict) -> None:
        """Keep a solver countermodel only if it refutes the obligation for EVERY meaning of
        its uninterpreted symbols (and of values the languages leave unspecified, ``@ln``):
        the backend may have chosen an interpretation, but ``orderOf`` or Isabelle's ``ln 0``
        have one fixed meaning we do not know. Re-evaluate with the variables only, and the
        witnesses the solver named for ∃s (``PROBES``: where the evaluator looks first, no
        interpretation; their elements of opaque types are counted like the variables')."""
        vs, body = strip_forall(ob.formula)
        names = {v.name for v in vs} | {PROBES}
        env = {k: v for k, v in model.items() if k in names}
        too_many = _invented_elements(env, self.carriers)
        if too_many:
            ob.status, ob.model = Status.UNKNOWN, None
            ob.detail = (f"countermodel uses elements of {too_many} that the type may not have "
                         "(it is not a type variable)")
            return
        reinterpreted = len(env) < len(model) or has_uninterpreted(body)
        if reinterpreted and exact_truth(body, env, self.deadline) is not False:
            ob.status, ob.model = Status.UNKNOWN, None
            ob.detail = "countermodel depends on an interpretation of uninterpreted symbols"
            return
        ob.status, ob.model = Status.REFUTED, env
        ob.detail = "countermodel validated by the exact evaluator"

    def _solve(self, ob: Obligation, effort: float = FULL) -> None:
        if self.backend is None:
            ob.status, ob.detail = Status.UNKNOWN, "no prover backend available"
            return
        vs, body = strip_forall(ob.formula)
        recs = recurrences(vs, body)  # read once: asked before the ∀ over ℤ, after it over ℕ
        integer_recurrences = any(m.sort == INT for _, m, *_ in recs)
        if integer_recurrences:
            # ∀ over ℤ with a function: a solver's model of the ∀ itself almost never comes,
            # its instances' model extended by the recurrence often does (cheaper, so first)
            self._recurrence_model(ob, effort, vs, body, recs)
            if ob.status == Status.REFUTED:
                return
        left = self.deadline.left()
        if left <= 0.05:
            raise DeadlineExceeded("solving")
        self.solver_calls += 1
        try:
            res = self.backend.prove(ob.formula, timeout=min(self.timeout * effort, left))
        except Exception as e:  # noqa: BLE001 - a backend crash is "unknown", never a verdict
            log.warning("backend %s failed on %s: %s: %s", self.backend.name, ob.name, type(e).__name__, e,
                        exc_info=True)
            ob.status, ob.detail = Status.UNKNOWN, f"backend error: {type(e).__name__}: {e}"
            return
        ob.by = getattr(res, "backend", "") or self.backend.name
        if isinstance(res, Proved):
            ob.status = Status.PROVED
        elif isinstance(res, Refuted):
            self._check_model(ob, dict(res.model))
        elif isinstance(res, Unknown):
            ob.status, ob.detail = Status.UNKNOWN, res.reason
        else:
            ob.status, ob.detail = Status.UNKNOWN, f"unexpected backend answer {res!r}"
        if ob.status == Status.UNKNOWN and not integer_recurrences:
            self._recurrence_model(ob, effort, vs, body, recs)
        if ob.status == Status.UNKNOWN:
            self._definition_model(ob, effort)
        if ob.status == Status.UNKNOWN and "unspecified" in ob.detail:
            self._specified_model(ob, effort)
        if ob.status == Status.UNKNOWN:
            self._inverse_model(ob, effort)
        if ob.status == Status.UNKNOWN:
            self._enumerated_model(ob)
        if ob.status == Status.UNKNOWN:
            self._decided_on_domains(ob)
        if ob.status == Status.UNKNOWN:
            self._by_congruence(ob, effort)

    def _by_congruence(self, ob: Obligation, effort: float) -> None:
        """``∀x̄. L ↔ R`` (or ``L = R``) proved where L and R differ (``congruence``): each
        differing pair is its own, smaller obligation; all must be proved. Asked only after
        the whole was left unknown, and only where a difference lies under a binder (a set-
        builder, big operator, λ or quantifier), which is where the solvers fail and a pair
        is easier than the whole: elsewhere the pairs cost 10 % more solver calls on
        ``isabelle_math_400`` for no decision. A refuted pair says nothing of the whole."""
        _, body = strip_forall(ob.formula)
        if not (isinstance(body, App) and body.op in ("iff", "eq") and len(body.args) == 2):
            return
        diffs = differences(*body.args)
        if not diffs or not any(d.bound for d in diffs):
            return  # no difference under a binder: the pairs are no easier than the whole
        proved = []
        for d in diffs:
            inner = self(f"{ob.name} (where they differ)", close(d.claim()), cheap=False, effort=effort)
            if inner.status != Status.PROVED:
                return
            proved.append(inner)
        bys = sorted({o.by for o in proved})
        ob.status, ob.by, ob.model = Status.PROVED, "+".join(bys), None
        ob.detail = "equal by congruence, where they differ: " + "; ".join(
            f"{show(d.claim())} ({o.detail or o.by})" for d, o in zip(diffs, proved, strict=True))

    def _witness_proof(self, body: Term) -> str | None:
        """Why a closed ``∃x̄. φ`` holds, if values its equations give (``witnesses``:
        ``tan B = 3/2`` by B = arctan (3/2), ``BC = 32`` by 32) make φ, or its ∃ over the other
        variables, exactly true; else None. No solver call."""
        if not (isinstance(body, Quant) and body.kind == "exists"):
            return None
        found = equation_witnesses(body.vars, conjuncts(body.body), identities=True)
        if not found:
            return None
        rest = tuple(v for v in body.vars if v not in found)
        env = {v.name: Witness(t) for v, t in found.items()}
        if exact_truth(Quant("exists", rest, body.body) if rest else body.body, env, self.deadline) is not True:
            return None
        return ("witnessed by the values its equations give: "
                + ", ".join(f"{name} = {w}" for name, w in env.items()) + " (exact evaluation)")

    def _inverse_model(self, ob: Obligation, effort: float) -> None:
        """A countermodel where the obligation's equations ``f v = c`` (tan, sin, cos, exp,
        ln, sqrt) fix v by the inverse function (``witnesses``): the solvers' own models of
        them are spurious (they know tan by a few facts only). With those values put in and
        f (f⁻¹ c) = c simplified, the solver is asked for the other variables, if any; the
        model is re-checked exactly on the original formula."""
        vs, body = strip_forall(ob.formula)
        if not equation_witnesses(vs, hypotheses(body)):
            self._abstracted_inverse_model(ob, vs, body, effort)
            return  # no equation an inverse function solves (identities alone: the solver's business)
        found = equation_witnesses(vs, hypotheses(body), identities=assumed(body))
        rest = tuple(v for v in vs if v not in found)
        env: dict = {}
        by = "evaluator"
        if rest:
            reduced = simplify_inverses(substitute(body, found))
            model = self._solver_model(ob, Quant("forall", rest, reduced), effort)
            if model is None:
                return
            env, by = model
        env.update({v.name: Witness(t) for v, t in found.items()})
        self._accept(ob, body, env, by, "the values of " + ", ".join(f"{v.name} = {show(t)}" for v, t in found.items())
                     + " solve its equations, the solver's for the rest" * bool(rest))

    def _abstracted_inverse_model(self, ob: Obligation, vs: tuple[Var, ...], body: Term, effort: float) -> None:
        """A countermodel where ``f v = t`` with t not closed (``cos C = A / B``): f v made a
        variable y within f's range (``witnesses.abstracted_applications``), the solver's
        model of the polynomial rest gives y a rational value, and v = f⁻¹ (y) solves the
        equation exactly; the whole point is re-checked on the original formula."""
        abstracted = abstracted_applications(vs, body)
        if abstracted is None:
            return
        reduced, taken = abstracted
        ranges = [RANGES[f](y) for y, f, _, _ in taken if f in RANGES]
        rest = tuple(v for v in vs if v not in {v for *_, v in taken}) + tuple(y for y, *_ in taken)
        formula = implies(and_(*ranges), reduced) if ranges else reduced
        found = self._solver_model(ob, Quant("forall", rest, formula), effort)
        if found is None:
            return
        env, by = found
        solved = {}
        for y, f, arg, v in taken:
            c = env.get(y.name)
            term = SOLUTIONS[f](Num(Fraction(c), REAL)) if is_rational(c) else None
            solution = None if term is None else linear_solution(arg, term, {v})
            if solution is None:
                return
            solved[v.name] = Witness(solution[1])
        point = {k: x for k, x in env.items() if k not in {y.name for y, *_ in taken}} | solved
        self._accept(ob, body, point, by, "the solver's model with " + ", ".join(
            f"{f} {v.name} as a variable, {v.name} = {f}⁻¹ of its value" for _, f, _, v in taken))

    def _enumeration_deadline(self) -> Deadline:
        """``ENUMERATION_SECONDS``, at most ``ENUMERATION_SHARE`` of the check's time left."""
        left = max(self.deadline.left(), 0.0)
        return Deadline.after(min(ENUMERATION_SECONDS, left * ENUMERATION_SHARE)).sooner(self.deadline)

    def _enumerated_model(self, ob: Obligation) -> None:
        """A countermodel among the small integer points (``integer_points``), after the
        solver gave up: nonlinear integer systems (``x·y + x + y = 71``) have their models
        there. At most ``ENUMERATION_SECONDS``, and a share of the check's time left: every
        unknown obligation over integers pays it (0.05 s missed n = 864 in
        ``mathd_numbertheory_709``); none with a binder (``∑ i = -25..n, i``: the cost of a
        point grows with its value, 0.3 s a pair in MATH ``algebra/problem_2104``)."""
        vs, body = strip_forall(ob.formula)
        if any(isinstance(s, (Quant, BigOp, SetBuilder, Lam)) for s in subterms(body)):
            return  # a sum or quantifier over the variable: the cost grows with its value
        symbols = has_uninterpreted(body)
        points = angle_points(vs, body) if not symbols else None
        what = "a common angle (kπ/12)" if points else "a small integer point"
        if points is None and any(v.sort in (RAT, REAL) for v in vs) and (symbols or any(
                isinstance(s, App) and s.op in _TRANSCENDENTAL_AT_POINTS for s in subterms(body))):
            # sin 2, exp 3: certified by intervals at each point, 500 of them cost seconds; a
            # symbol without a table leaves every point undecided (algebra/problem_1900: 1.7 s);
            # angle variables only under sin / cos / tan take kπ/12, exact surds (angle_points)
            return
        points = points or integer_points(vs)
        if not points:
            return
        stop = self._enumeration_deadline()
        try:
            for i, env in enumerate(points):
                # the first points whatever the load (a verdict should not depend on it); the
                # check's own deadline still holds
                if i >= ENUMERATION_MIN_POINTS and stop.expired():
                    return
                if exact_truth(body, env, self.deadline if i < ENUMERATION_MIN_POINTS else stop) is False:
                    ob.status, ob.by, ob.model = Status.REFUTED, "fingerprint", env
                    ob.detail = f"false at {what} (exact evaluation, after the solvers)"
                    return
        except DeadlineExceeded:
            if self.deadline.expired():
                raise

    def _decided_on_domains(self, ob: Obligation) -> None:
        """∀x̄ over ℕ / ℤ whose guards bound each variable to a finite domain (``a = 315``,
        ``lcm a b = 5040``: b divides 5040), after the solvers gave up: the exact evaluator
        decides it by enumeration — proved, or refuted at the point it falls at
        (``falsifying_point``, re-checked). Within the time ``_enumerated_model`` has."""
        vs, body = strip_forall(ob.formula)
        if not vs or any(v.sort not in (NAT, INT) for v in vs) or has_uninterpreted(body):
            return
        stop = self._enumeration_deadline()
        try:
            verdict = exact_truth(Quant("forall", vs, body), {}, stop)  # one ∀: each guard bounds any of them
            if verdict is True:
                ob.status, ob.by = Status.PROVED, "evaluator"
                ob.detail = "every variable bounded to a finite domain by the guards: exactly true there"
            elif verdict is False:
                model = falsifying_point(vs, body, stop)
                if model is not None and exact_truth(body, model, stop) is False:
                    ob.status, ob.by, ob.model = Status.REFUTED, "evaluator", model
                    ob.detail = "false at a point of the finite domain the guards give (exact evaluation)"
        except DeadlineExceeded:
            if self.deadline.expired():
                raise

    def _definition_model(self, ob: Obligation, effort: float) -> None:
        """A countermodel through the functions the obligation defines (``∀x. f x = x + 2``):
        with each choice of definitions unfolded the solver sees no function and no ∀ over
        it (``f (g x) = g (f x)`` becomes ``x² + 2 = (x + 2)²``); its model, with f as the
        closure of its definition, is re-checked exactly on the original formula."""
        vs, body = strip_forall(ob.formula)
        for funs in definition_choices(vs, body):
            reduced = unfold(body, funs)
            if free_vars(reduced) & funs.keys():
                continue  # f also used as a value (f '' S, Injective f): not unfolded away
            if not _quantifier_free_for_solvers(reduced):
                continue  # a ∀ left over (powr, ∀t. f (2 + t) = f (2 - t)): the solvers time out again
            rest = tuple(v for v in vs if v not in funs)
            found = self._solver_model(ob, Quant("forall", rest, reduced) if rest else reduced, effort)
            if found is None:
                continue
            env, by = found
            for f, (params, rhs) in funs.items():
                env[f.name] = Closure(params, rhs, env)
            if self._accept(ob, body, env, by, "the solver's values with the functions given by their definitions"):
                return

    def _specified_model(self, ob: Obligation, effort: float) -> None:
        """A countermodel where Isabelle's ``ln`` is specified: ``x powr 2`` with x < 0 is
        ``exp (2 · ln x)``, unknown, so a solver model with a negative base proves nothing.
        Asked again with every base (and ``ln`` argument) over the outer variables kept
        where the value is known (``x ≥ 0``, ``x > 0``), its model is re-checked exactly."""
        vs, body = strip_forall(ob.formula)
        names = set(vs)
        guards = []
        for t in subterms(body):
            if not (isinstance(t, App) and t.op in _LN_ARGUMENTS):
                continue
            for a in t.args[:_LN_ARGUMENTS[t.op][0]]:
                if free_vars(a) <= names:
                    g = app(_LN_ARGUMENTS[t.op][1], Num(0, a.sort), a)
                    if g not in guards:
                        guards.append(g)
        if not guards:
            return
        guarded = app("implies", app("and", *guards) if len(guards) > 1 else guards[0], body)
        found = self._solver_model(ob, Quant("forall", vs, guarded) if vs else guarded, effort)
        if found is not None:
            env, by = found
            self._accept(ob, body, env, by, "the solver's values where every ln is specified")

    def _recurrence_model(self, ob: Obligation, effort: float, vs: tuple[Var, ...], body: Term,
                          recs: list[Recurrence]) -> None:
        """A countermodel through the recurrences ``recs`` the obligation ∀vs. body states:
        the solver models their first instances instead of the ∀ (``instantiate_recurrences``),
        and its values below each recurrence, extended by it (a ``Sequence``), are re-checked
        exactly."""
        if not recs:
            return
        found = self._solver_model(ob, Quant("forall", vs, instantiate_recurrences(body, recs)) if vs else body, effort)
        if found is None:
            return
        model, by = found
        for u, m, start, rule, premise in recs:
            table = model.get(u.name)
            if not callable(table):
                continue
            env = dict(model)
            env[u.name] = Sequence(u.name, m, start, rule, {i: table(i) for i in initial_indices(m, start)}, premise, env)
            how = f"the solver's {u.name} below index {start}, extended by its recurrence"
            if self._accept(ob, body, env, by, how):
                return
            for point in _index_points(vs, body, u, model):
                if self._accept(ob, body, {**env, **point}, by, how + ", its index variables searched"):
                    return

    def _solver_model(self, ob: Obligation, formula: Term, effort: float) -> tuple[dict, str] | None:
        """The backend's countermodel of an auxiliary ``formula`` (its variables' values only)
        and who found it, or None: a candidate for ``ob``, re-checked by ``_accept``."""
        left = self.deadline.left()
        if left <= 0.05 or self.backend is None:
            return None
        self.solver_calls += 1
        try:
            res = self.backend.prove(formula, timeout=min(self.timeout * effort, left))
        except Exception as e:  # noqa: BLE001 - a backend crash is "unknown", never a verdict
            log.warning("backend %s failed on an auxiliary form of %s: %s", self.backend.name, ob.name, e)
            return None
        if not isinstance(res, Refuted):
            return None
        names = {v.name for v in strip_forall(formula)[0]} | {PROBES}
        return {k: x for k, x in res.model.items() if k in names}, getattr(res, "backend", "") or self.backend.name

    def _accept(self, ob: Obligation, body: Term, env: dict, by: str, how: str) -> bool:
        """``ob`` refuted at ``env`` if its body is exactly False there."""
        if exact_truth(body, env, self.deadline) is not False:
            return False
        ob.status, ob.model, ob.by = Status.REFUTED, env, by
        ob.detail = f"countermodel: {how}, validated by the exact evaluator"
        return True


#: Values an index variable of a recurrence is searched over (``_index_points``): ℕ from 0,
#: ℤ alternating around 0; at most ``INDEX_POINTS`` points in all.
INDEX_SEARCH = 2 * RELAXED_INSTANCES
INDEX_POINTS = 64


def _index_points(vs: tuple[Var, ...], body: Term, u: Var, model: dict) -> list[dict]:
    """Other values of the variables ``body`` applies the sequence ``u`` at (``u k = 0``), the
    model's other values kept. Why: a model of the recurrence's first instances leaves u free
    beyond them and puts k there (z3: k = 7719), where the sequence the recurrence computes
    has another value; the index it needs is usually among the first few."""
    indices = sorted({a for s in subterms(body) if isinstance(s, App) and s.op == "apply" and s.args[0] == u
                      for a in s.args[1:] if isinstance(a, Var) and a in vs and a.sort in (NAT, INT)},
                     key=lambda v: v.name)
    if not indices or len(indices) > 2:
        return []
    per = INDEX_SEARCH if len(indices) == 1 else int(INDEX_POINTS ** 0.5)
    values = {v: [i if v.sort == NAT else (i + 1) // 2 * (1 if i % 2 else -1) for i in range(per)] for v in indices}
    points = [dict(zip((v.name for v in indices), combo, strict=True))
              for combo in itertools.product(*values.values())]
    return [p for p in sorted(points, key=lambda p: sum(abs(x) for x in p.values()))
            if any(model.get(k) != x for k, x in p.items())][:INDEX_POINTS]


def _quantifier_free_for_solvers(t: Term) -> bool:
    """Every quantifier of ``t`` is a definition met by itself (``∀x. e = e`` once unfolded)
    or a polynomial identity (the lowering turns it into coefficient equations)."""
    for q in subterms(t):
        if not isinstance(q, Quant) or polynomial_identity(q) is not None:
            continue
        body = q.body.args[1] if isinstance(q.body, App) and q.body.op == "implies" else q.body
        if not _trivially_valid(body):
            return False
    return True


def carriers_of(*nfs: Any) -> frozenset[str]:
    """The types a countermodel may give any elements: the type variables the normal forms
    bind (Lean's ``(α : Type*)``) and Isabelle's schematic type variables (``'a``, or ``'t16``
    inferred for a free name never fixed), for which the statement holds at every type —
    ℕ among them, so a countermodel may use as many elements as it needs."""
    out = {v.name for nf in nfs for v in nf.types}
    for nf in nfs:
        for v in nf.variables:
            out |= {n for n in sort_mentions(v.sort) if n.startswith("'")}
    return frozenset(out)


def _invented_elements(env: dict, carriers: frozenset[str]) -> str:
    """The first opaque type of which ``env`` uses more elements than it is known to have."""
    stack = list(env.values())
    while stack:
        v = stack.pop()
        if isinstance(v, Opaque):
            if v.sort not in carriers and v.index >= known_elements(OpaqueSort(v.sort)):
                return v.sort
        elif isinstance(v, FunTable):
            stack.extend(v.entries.values())
            stack.extend(x for k in v.entries for x in k)
            stack.append(v.default)
        elif isinstance(v, (frozenset, set, tuple, list)):
            stack.extend(v)
    return ""
