"""``check_equivalence(a, b, relation=...)``: profiles → alignments → obligations → verdict.

The path of one pair, cheapest first:

1. **profiles** (``provers.engine.profile``): each side parsed (text) and normalized once;
   its canonical key and signature, and its diagonal fingerprint when the caller computed
   one (callers that compare one statement many times, like the clusterer, pass the same
   ``Profile`` every time);
2. **structure**: type variables and instance binders must match (``sort_match.match_types``);
   ``sae`` needs premises on both sides or neither;
3. **screen**: the profiles' signatures and fingerprints separate the pair when no
   admissible alignment exists, or one diagonal point refutes them all (and, for
   ``symbolic``, the value route too) — the very screen the clusterer applies. A diagonal
   point answers at once; a structural separation lets the engine's own structure checks
   name the precise reason, and the screen's verdict stands if they do not decide;
4. **symbolic shortcuts**: a renaming that proves it for free; then the numeric-conclusion
   standardization (``relations.value_route``), settled by answer pinning per side;
5. **alignments** (``align.alignments``), ranked; when there are none, the verdict follows
   from the structure and the value route; when too many to enumerate, a diagonal point may
   still refute them all;
Steps 6–8 are the alignment search (``provers.engine.search.AlignmentSearch``):

6. **cheap pass** over every alignment: syntactic identity proves, exact evaluation at
   sampled points refutes (a validated countermodel: the evaluator is exact);
7. **backend pass** over the survivors, best first (``provers.backends.smt.Portfolio`` by
   default; any ``provers.backends.base.Backend``, bound to the two statements first) until
   one alignment has every obligation proved;
8. **verdict**: ``equivalent`` needs one alignment with every obligation proved;
   ``inequivalent`` needs every admissible alignment ruled out (structure or validated
   countermodel), the enumeration exhaustive and the value route ruled out, or (``sae``,
   ``symbolic``) one side's premises proved contradictory while the other's have a validated
   model: ``⋀Γ ↔ ⋀Γ'`` then fails at that model under every alignment (the vacuity tests
   the clusterer already ran cost nothing; a check left undecided runs them); anything else is
   ``inconclusive`` with the reason. A refutation is withdrawn when a statement has a meaning
   the engine does not model (Lean's ``Float``).

Every stage runs against one ``provers.deadline.Deadline`` (the check's total budget, or the
caller's if sooner); when it passes, the check stops where it is and answers
``inconclusive`` with a reason starting ``deadline``. Questions about one statement
(``vacuous``, ``trivial``, ``provable``) are in ``provers.engine.one_statement``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import MutableMapping
from dataclasses import replace
from typing import Any

from provers.backends.base import Backend
from provers.deadline import Deadline, DeadlineExceeded, check_seconds
from provers.engine.align import Alignments, alignments, drop_unused
from provers.engine.answers import AnswerPin
from provers.engine.every_alignment import diagonal_refutation, pinned_refutation
from provers.engine.formulas import VACUITY_NAME, iff
from provers.engine.normal import NormalForm, conclusion_binders_kept, premise_exists_lifted
from provers.engine.one_statement import provable, trivial, vacuous
from provers.engine.profile import Profile, Separation, as_statement, unmodelled_meaning
from provers.engine.prover import FINGERPRINT_POINTS, Prover, carriers_of, default_backend
from provers.engine.relations import (
    PROVED,
    REFUTED,
    RELATIONS,
    check_logical_pointwise,
    check_symbolic,
    rename_onto,
    value_route,
)
from provers.engine.search import (
    AlignmentSearch,
    ValueRoute,
    proof_route,
    route_countermodel,
    route_ruled_out,
    two_sided,
    verdict_at,
)
from provers.engine.sort_match import match_types
from provers.engine.unfolding import without_defined_functions, without_defined_scalars
from provers.engine.verdict import QUICK, Obligation, Verdict
from provers.ir import FALSE, IRError, Statement, free_vars, has_uninterpreted
from provers.status import Status, VerdictStatus

EQUIVALENT, INEQUIVALENT, INCONCLUSIVE = VerdictStatus

log = logging.getLogger(__name__)

DEFAULT_MAX_ALIGNMENTS = 24
#: When every alignment within the budget was refuted by the cheap checks, the rest are
#: enumerated too (cheap checks only), up to this many admissible alignments in all (6!).
MAX_CHEAP_ALIGNMENTS = 720


# --------------------------------------------------------------------------------------
# inputs
# --------------------------------------------------------------------------------------


def as_profile(x: Any, relation: str, language: str, side: str, deadline: Deadline | None = None) -> Profile:
    """The profile of ``x`` (a ``Profile``, a ``Statement`` or text) under ``relation``. A
    profile made here has no fingerprint: for one pair, evaluating 16 diagonal points costs
    more than it saves (the search evaluates the alignments it needs); callers comparing one
    statement many times (the clusterer) pass profiles with fingerprints."""
    if isinstance(x, Profile):
        return x.under(relation, deadline)
    return Profile.of(as_statement(x, language, side), relation, fingerprints=False, deadline=deadline)


def bound_backend(backend: Any, relation: str, a: Statement, b: Statement) -> Backend | None:
    """The backend of one check, bound to its two statements (``Backend.bind``); the
    default portfolio when None; no backend at all for ``syntactic``."""
    if relation == "syntactic" and backend is None:
        return None
    if backend is None:
        backend = default_backend()
    if not isinstance(backend, Backend):
        raise TypeError(f"backend: {type(backend).__name__} is not a provers.backends.base.Backend "
                        "(subclass it and implement prove(obligation, timeout))")
    return backend.bind(a, b)


# --------------------------------------------------------------------------------------
# main entry point
# --------------------------------------------------------------------------------------


def check_equivalence(
    a: Statement | Profile | str,
    b: Statement | Profile | str,
    relation: str = "sae",
    timeout: float = 5.0,
    language: str = "lean4",
    backend: Backend | None = None,
    max_alignments: int = DEFAULT_MAX_ALIGNMENTS,
    total_timeout: float | None = None,
    fingerprint_points: int = FINGERPRINT_POINTS,
    seed: int = 0,
    language_b: str | None = None,
    deadline: Deadline | None = None,
    answer_cache: MutableMapping[Any, AnswerPin] | None = None,
) -> Verdict:
    """Decide whether statements ``a`` and ``b`` are equivalent under ``relation``
    (``syntactic`` | ``sae`` | ``symbolic`` | ``logical``).

    ``a``, ``b``: a ``Statement``, its ``Profile`` (``Profile.of``: normalized once, reused by
    every check it enters) or text, parsed as ``language`` (``language_b`` for ``b`` if
    given); a parse error is a ``ParseError`` whose message starts with ``statement A`` or
    ``statement B``. ``timeout``: seconds of the longest backend call (the vacuity test's;
    the other obligations get ``QUICK`` × ``timeout``, see ``verdict.QUICK``); ``total_timeout`` (default
    4 × timeout): the whole check (both finite and > 0, else ValueError). ``deadline``: the
    caller's own budget (e.g. a problem's); the check stops at whichever comes first, with an
    ``inconclusive`` verdict whose reason starts with ``deadline``. ``backend``: a
    ``provers.backends.base.Backend`` (default: the SMT portfolio), bound to the two
    statements before any obligation.

    ``answer_cache``: a dict the caller keeps across checks (e.g. one per problem) in which
    the ``symbolic`` relation stores each normal form's answer pin
    (``provers.engine.answers``), so a candidate's answer is pinned once, not once per pair.
    Use one dict per ``timeout``: a pin left unknown by a short timeout is reused as is.
    """
    if relation not in RELATIONS:
        raise ValueError(f"unknown relation {relation!r}; expected one of {RELATIONS}")
    timeout = check_seconds("timeout", timeout)
    budget = check_seconds("total_timeout", total_timeout) if total_timeout is not None else 4 * timeout
    # the alignments' scipy.optimize takes 0.6-1.3 s to import, sympy (exact algebra: algebraic
    # models, rational identities) ~0.8 s: once per process, and not on the first check's clock
    # (it cost that check a quarter of its budget, so its verdict depended on the order)
    import scipy.optimize  # noqa: F401
    import sympy  # noqa: F401
    t0 = time.perf_counter()
    stop = Deadline.after(budget).sooner(deadline)
    sa, sb = as_statement(a, language, "A"), as_statement(b, language_b or language, "B")
    prover = Prover(bound_backend(backend, relation, sa, sb), timeout, stop, fingerprint_points, seed)
    try:
        pa = as_profile(a if isinstance(a, Profile) else sa, relation, language, "A", stop)
        pb = as_profile(b if isinstance(b, Profile) else sb, relation, language, "B", stop)
        v = _decide(pa, pb, relation, prover, max_alignments, answer_cache)
    except DeadlineExceeded as e:
        whose = "the caller's deadline" if stop is deadline else f"the check's {budget:g} s budget"
        v = Verdict(INCONCLUSIVE, relation, reason=f"deadline: {whose} ran out during {e.args[0] if e.args else 'the check'}")
    except (IRError, RecursionError, ValueError) as e:
        # an ill-formed term or an engine limit: never a verdict, never a crashed batch
        v = Verdict(INCONCLUSIVE, relation, reason=f"unsupported: {type(e).__name__}: {e}")
    v = _qualified(v, sa, sb)
    v.time = time.perf_counter() - t0
    v.solver_calls = prover.solver_calls
    return v


#: the prover that checks a language's text, for warnings
PROVER_NAMES = {"isabelle": "Isabelle", "lean4": "Lean"}


def _qualified(v: Verdict, sa: Statement, sb: Statement) -> Verdict:
    """``v`` with what the engine does not model said: a refutation of a statement whose
    meaning it does not model (Lean's ``Float``) is withdrawn; an inconclusive verdict names
    uninterpreted symbols."""
    unmodelled = [f"statement {side} uses {what}" for side, st in (("A", sa), ("B", sb))
                  if (what := unmodelled_meaning(st))]
    if v.status == INEQUIVALENT and unmodelled:
        # e.g. Lean's Float: a structural difference or a countermodel says nothing about it
        v = Verdict(INCONCLUSIVE, v.relation, alignment=v.alignment, obligations=v.obligations,
                    reason=f"unsupported: {'; '.join(unmodelled)}, whose meaning the engine does "
                           f"not model (the inequivalence found: {v.reason})")
    elif v.status == INCONCLUSIVE and unmodelled:
        v.reason += f" (unsupported: {'; '.join(unmodelled)})"
    if v.status == INCONCLUSIVE and (sa.has_uninterpreted() or sb.has_uninterpreted()):
        v.reason += " (the statements contain uninterpreted symbols)"
    v.warnings += [f"{side}: {PROVER_NAMES.get(st.language, st.language)} would reject the text: {e}"
                   for side, st in (("A", sa), ("B", sb)) for e in st.checker_errors]
    return v


def _decide(pa: Profile, pb: Profile, relation: str, prover: Prover, budget: int,
            answer_cache: MutableMapping[Any, AnswerPin] | None = None) -> Verdict:
    """Steps 2–8 of the module docstring."""
    # a variable never shares a name with a symbol of either statement (one solver symbol,
    # one evaluator table, one Lean name per binding)
    na, nb = pa.normal_form_beside(pb), pb.normal_form_beside(pa)
    own = {"A": na is pa.normal_form, "B": nb is pb.normal_form}
    renamed, why = match_types(na, nb)
    prover.carriers = carriers_of(na, nb)
    if why is not None:
        if relation == "logical":
            return Verdict(INCONCLUSIVE, relation, reason=f"unsupported: {why}")
        return Verdict(INEQUIVALENT, relation, reason=why, structural=True, route="structure")
    verdicts = []
    for nb in renamed:  # several when more than one correspondence of type variables fits
        v = _decide_renamed(pa, pb, na, nb, relation, prover, budget, answer_cache, own)
        if v.status != INEQUIVALENT:
            return v
        verdicts.append(v)
    if len(verdicts) > 1:
        verdicts[0].reason += f" (and under each of the {len(verdicts)} correspondences of the type variables)"
    return verdicts[0]


def _decide_renamed(pa: Profile, pb: Profile, na: NormalForm, nb: NormalForm, relation: str, prover: Prover,
                    budget: int, answer_cache: MutableMapping[Any, AnswerPin] | None,
                    own: dict[str, bool]) -> Verdict:
    """Steps 3–8 with B's type variables renamed to A's."""
    if relation == "logical":
        return _logical(na, nb, prover, budget)
    if relation == "sae" and bool(na.premises) != bool(nb.premises):
        side = "A" if na.premises else "B"
        return Verdict(INEQUIVALENT, relation, reason=f"premises on one side only (statement {side})", structural=True,
                       route="structure")
    separation = pa.separation(pb)
    if separation is not None and separation.how == "fingerprint":
        return _separated(separation, relation)  # refuted at once, with the diagonal point
    # a structural separation: the engine's own structure checks give the precise reason
    try:
        v = _aligned(na, nb, relation, prover, budget, answer_cache, own, pa, pb)
    except DeadlineExceeded:
        if separation is None:
            raise
        return _separated(separation, relation)  # the structure alone decides
    if separation is not None and v.status != INEQUIVALENT:
        # the screen is never finer than the engine: what it separates the engine rules out
        if v.status == EQUIVALENT:
            log.error("screen separated a pair the engine proved equivalent (%s): keeping the proof",
                      separation.reason)
            return v
        return _separated(separation, relation)
    return v


def _aligned(na: NormalForm, nb: NormalForm, relation: str, prover: Prover, budget: int,
             answer_cache: MutableMapping[Any, AnswerPin] | None, own: dict[str, bool],
             pa: Profile, pb: Profile) -> Verdict:
    """Steps 4–8: the symbolic shortcuts, the alignments and their search."""
    route: ValueRoute | None = None
    known = _vacuity_differs(pa, pb, relation, None)  # the clusterer's tests, when it ran them
    if known is not None:
        return known
    if relation == "symbolic":
        na, nb = drop_unused(na), drop_unused(nb)
        vacuity = {side: p.vacuity_asked for side, p in (("A", pa), ("B", pb))
                   if own[side] and p.vacuity_asked is not None}
        shortcut, route = _symbolic_shortcuts(na, nb, prover, budget, answer_cache, vacuity)
        if shortcut is not None:
            return shortcut
    als = alignments(na, nb, budget, prover.deadline)
    if not als.items and als.failure is not None and relation == "symbolic":
        unfolded = _with_definitions_unfolded(na, nb, relation, prover, budget, (pa, pb))
        if unfolded is not None and unfolded.status == EQUIVALENT:
            return unfolded
        if unfolded is not None and unfolded.status == INCONCLUSIVE:
            return _aligned_elsewhere(na, nb, relation, als, route, unfolded,
                                      "with the functions and variables the premises define unfolded")
    if not als.items and relation == "symbolic" and (na.peeled or nb.peeled):
        kept = _with_conclusion_binders_kept(na, nb, relation, prover, budget)
        if kept is not None and (kept.status == EQUIVALENT or kept.countermodel is not None):
            return kept  # proved, or refuted at a validated point
        if kept is not None and kept.status == INCONCLUSIVE:
            return _aligned_elsewhere(na, nb, relation, als, route, kept, "with the variables a conclusion binds kept there")
    if not als.items:
        return _without_alignment(na, nb, relation, als, route)
    if not als.exhaustive and relation in ("sae", "symbolic") and (route is None or route.outcome.ruled_out):
        diagonal = _diagonal_verdict(na, nb, relation, als, prover, route)
        if diagonal is not None:
            return diagonal
    if not als.exhaustive:  # every alignment can never be ruled out one by one: ask now
        early = _asked_vacuity_differs(pa, pb, relation, prover)
        if early is not None:
            return early
    both_vacuous = relation in ("sae", "symbolic") and _both_vacuous(pa, pb)
    if both_vacuous:
        # ⋀Γ ↔ ⋀Γ' holds under every alignment: no solver is asked it (they timed out on it,
        # intermediate_algebra/problem_1403); the conclusions decide
        na, nb = replace(na, premises=(FALSE,)), replace(nb, premises=(FALSE,))
    search = AlignmentSearch(na, nb, relation, prover, als, route)
    v = search.cheap_pass() or search.backend_pass() or search.verdict()
    if v.budget_exhausted and not search.survivors and relation != "syntactic" and als.total <= MAX_CHEAP_ALIGNMENTS:
        v = _all_alignments_cheaply(na, nb, relation, prover, als.total, route) or v
    if both_vacuous and v.status == EQUIVALENT:  # the certificate says why the premises stand as FALSE
        v.obligations = [replace(p.vacuity, name=f"{VACUITY_NAME} ({side})")  # type: ignore[arg-type]
                         for side, p in (("A", pa), ("B", pb))] + v.obligations
        why = "both premise sets are contradictory (their vacuity tests), so ⋀Γ ↔ ⋀Γ' holds as false ↔ false"
        v.reason = f"{why}; {v.reason}" if v.reason else why
    if v.status == INCONCLUSIVE:
        return _asked_vacuity_differs(pa, pb, relation, prover) or v
    return v


def _asked_vacuity_differs(pa: Profile, pb: Profile, relation: str, prover: Prover) -> Verdict | None:
    try:
        return _vacuity_differs(pa, pb, relation, prover)
    except DeadlineExceeded:
        return None


def _vacuity_differs(pa: Profile, pb: Profile, relation: str, prover: Prover | None) -> Verdict | None:
    """``inequivalent`` when one side's premises are contradictory (proved) and the other's
    have a validated model: under ``sae`` and ``symbolic`` every alignment needs
    ``⊢ ⋀Γ ↔ ⋀Γ'``, and at that model one side is true and the other false whatever the
    renaming. ``prover`` None: only the vacuity tests already decided (free); else they are
    decided now at the check's ``QUICK`` share, A's first and B's only when A's is."""
    if relation not in ("sae", "symbolic"):
        return None
    obs: dict[str, Obligation] = {}
    for side, p in (("A", pa), ("B", pb)):
        if not p.normal_form.premises:
            return None
        ob = p.vacuity if prover is None else p.decide_vacuity(prover, effort=QUICK)
        if ob is None or not ob.status.decided:
            return None
        obs[side] = ob
    if obs["A"].status == obs["B"].status:
        return None
    empty, other = ("A", "B") if obs["A"].status == Status.PROVED else ("B", "A")
    return Verdict(
        INEQUIVALENT, relation, obligations=[obs["A"], obs["B"]],
        countermodel={empty: {}, other: dict(obs[other].model or {})},
        reason=(f"the premises of {empty} are contradictory and those of {other} have a model: "
                "⋀Γ ↔ ⋀Γ' fails there under every alignment (any values of "
                f"{empty}'s variables)"),
        route="vacuity")


def _all_alignments_cheaply(na: NormalForm, nb: NormalForm, relation: str, prover: Prover, total: int,
                            route: ValueRoute | None) -> Verdict | None:
    """Every admissible alignment through the cheap checks (identity, sampled exact
    evaluation), when the budgeted ones were all refuted that way: five same-sort variables
    have 120 alignments, each refuted in milliseconds at a sampled point. The verdict when
    the cheap checks decide every one of them (the first budget's results are cached by the
    prover); None when one survives or the deadline passes (the caller keeps its own)."""
    try:
        every = alignments(na, nb, total, prover.deadline)
        search = AlignmentSearch(na, nb, relation, prover, every, route)
        proved = search.cheap_pass(until_survivor=True)
    except DeadlineExceeded:
        return None
    if proved is not None:
        return proved
    return None if search.survivors else search.verdict()


def _symbolic_shortcuts(na: NormalForm, nb: NormalForm, prover: Prover, budget: int,
                        answer_cache: MutableMapping[Any, AnswerPin] | None,
                        vacuity: dict[str, Obligation]) -> tuple[Verdict | None, ValueRoute | None]:
    """A renaming that proves it by cheap checks; else the standardized comparison, which
    needs no alignment. Returns the verdict if one of them proves the pair, and the value
    route's outcome (None when the conclusions are not ``L ⋈ c``)."""
    early = alignments(na, nb, budget, prover.deadline)
    for al in early.items:
        out = check_symbolic(na, rename_onto(nb, al), prover, cheap=True)
        if out.status == PROVED:
            return verdict_at(EQUIVALENT, "symbolic", al, out.obligations, tried=1, als=early, route=proof_route(out)), None
    r = value_route(na, nb, prover, pins=answer_cache, vacuity=vacuity)
    if r is None:
        return None, None
    route = ValueRoute(*r)
    if route.outcome.status == PROVED:
        return verdict_at(EQUIVALENT, "symbolic", None, route.outcome.obligations,
                        reason="numeric-conclusion standardization: same answer values",
                        route=route.outcome.route), route
    return None, route


def _separated(sep: Separation, relation: str) -> Verdict:
    """The verdict of a pair the profiles' screen separates."""
    return Verdict(INEQUIVALENT, relation, reason=sep.reason, countermodel=sep.countermodel,
                   structural=sep.countermodel is None,
                   route="structure" if sep.how == "signature" else "fingerprint")


def _with_definitions_unfolded(na: NormalForm, nb: NormalForm, relation: str, prover: Prover,
                               budget: int, profiles: tuple[Profile, Profile]) -> Verdict | None:
    """The two statements compared with the functions and variables their premises define
    unfolded away (``without_defined_functions``, ``without_defined_scalars``: the same
    theorems over fewer variables) and the witnesses of their ∃ premises made variables
    (``premise_exists_lifted``: ``(∃c p. Φ c p q) → C q`` is ``∀c p. Φ c p q → C q``), when
    that gives them an alignment; None when it does not
    (nothing to unfold, still no alignment, or a conclusion the definitions close, whose
    answer would be lost: x = 3 ∧ y = 4 ⊢ x + y = 7 and a = 8 ⊢ a = 8 are both true, with
    the answers 7 and 8). ``symbolic`` aligns the variables a statement leaves free: a proof
    here is a proof of the pair, an undecided search leaves it at most inconclusive, and a
    refutation of every alignment leaves the value route to decide. Why: ``∀x. Q x = e ⊢
    Q r = c`` against ``⊢ e[r] = c`` has no alignment as written (3 variables against 1),
    and where ``e`` reads ``r powr 3`` at a negative root no value route pins the answer;
    ``∃c p. ∀g. e g = c·(g² + p)² + q ⊢ q = −27`` against the same with c, p fixed had 1
    variable against 3."""
    ua, ub = (premise_exists_lifted(without_defined_scalars(without_defined_functions(nf))) for nf in (na, nb))
    if ua is na and ub is nb:
        return None
    if any(free_vars(nf.conclusion) and not free_vars(u.conclusion) for nf, u in ((na, ua), (nb, ub))):
        return None
    als = alignments(ua, ub, budget, prover.deadline)
    if not als.items:
        return None
    if _both_vacuous(*profiles):
        # both premise sets proved contradictory (the vacuity tests): so are the unfolded ones
        ua, ub = replace(ua, premises=(FALSE,)), replace(ub, premises=(FALSE,))
    search = AlignmentSearch(ua, ub, relation, prover, als, None)
    v = search.cheap_pass() or search.backend_pass() or search.verdict()
    note = "with the functions and variables the premises define unfolded"
    v.reason = f"{v.reason} ({note})".strip() if v.status == EQUIVALENT else v.reason
    v.route = "definitions unfolded"
    return v


def _both_vacuous(pa: Profile, pb: Profile) -> bool:
    """Both premise sets proved contradictory by their vacuity tests (already decided: none is
    asked here). Their conjunctions are then both False under every alignment, so the premises
    obligation ⋀Γ ↔ ⋀Γ' holds and they can stand as FALSE (variables renamed keep a
    contradiction one)."""
    return all(p.vacuity is not None and p.vacuity.status == Status.PROVED for p in (pa, pb))


def _aligned_elsewhere(na: NormalForm, nb: NormalForm, relation: str, als: Alignments, route: ValueRoute | None,
                       there: Verdict, how: str) -> Verdict:
    """No alignment as written, but one once the statements are rewritten (``how``), where the
    check was undecided (``there``): no structural inequivalence, at most what the value route
    says."""
    v = _without_alignment(na, nb, relation, als, route)
    if v.status != INEQUIVALENT:
        return v
    return Verdict(INCONCLUSIVE, relation, reason=f"{v.reason}; yet {how} they align, and there: {there.reason}",
                   route=v.route)


def _with_conclusion_binders_kept(na: NormalForm, nb: NormalForm, relation: str, prover: Prover,
                                  budget: int) -> Verdict | None:
    """The pair compared with the surplus variables of one side bound in its conclusion
    again (``normal.conclusion_binders_kept``), when that aligns them; None otherwise. Why:
    how many variables a conclusion's ∀ (or ¬∃) adds depends on how it is written, so a
    different count alone is no structural difference there."""
    d = len(na.variables) - len(nb.variables)
    ua, ub = (conclusion_binders_kept(na, d), nb) if d > 0 else (na, conclusion_binders_kept(nb, -d))
    if d == 0 or ua is None or ub is None:
        return None
    als = alignments(ua, ub, budget, prover.deadline)
    if not als.items:
        return None
    search = AlignmentSearch(ua, ub, relation, prover, als, None)
    v = search.cheap_pass() or search.backend_pass() or search.verdict()
    if v.status == EQUIVALENT:
        v.reason = f"{v.reason} (with the variables a conclusion binds kept there)".strip()
    v.route = "conclusion binders kept"
    return v


def _without_alignment(na: NormalForm, nb: NormalForm, relation: str, als: Alignments,
                       route: ValueRoute | None) -> Verdict:
    """No admissible alignment was enumerated: the structure and the value route decide."""
    reason = als.failure or "no admissible alignment"
    if route is not None and route.undecided:
        return verdict_at(INCONCLUSIVE, relation, None, route.outcome.obligations,
                        reason=f"{reason}; standardized comparison undecided: {route.outcome.reason}")
    if als.failure is None:  # there are alignments but none enumerated
        return Verdict(INCONCLUSIVE, relation, reason="alignment budget exhausted", budget_exhausted=True,
                       alignments_total=als.total)
    ob = route.outcome.obligations if route is not None else []
    model = route_countermodel(route)
    cm = two_sided(model, na, nb, None, route.names) if route is not None and model is not None else None
    how = "; ".join(x for x in ("structure", route.outcome.route if route is not None else "") if x)
    return verdict_at(INEQUIVALENT, relation, None, ob, reason=reason + route_ruled_out(route), structural=cm is None,
                    countermodel=cm, route=how)


def _diagonal_verdict(na: NormalForm, nb: NormalForm, relation: str, als: Alignments, prover: Prover,
                      route: ValueRoute | None) -> Verdict | None:
    """Too many alignments to enumerate: one point that every alignment fixes (a diagonal
    point) or cannot move into agreement (a model the definitions fix) may refute them all
    (``every_alignment``)."""
    nbr = rename_onto(nb, als.items[0])
    ob = diagonal_refutation(na, nbr, prover)
    where = "at a point where all variables of each sort share one value"
    if ob is None:
        ob = pinned_refutation(na, nb, nbr, als.items[0].pairs, prover)
        where = "at the model one side's definitions fix (the other side's premises fail wherever an alignment puts its variables)"
    if ob is None:
        return None
    cm = two_sided(ob.model, na, nb, als.items[0])
    how = "fingerprint" if ob.by == "fingerprint" else "countermodel"
    v = verdict_at(INEQUIVALENT, relation, als.items[0], [ob], countermodel=cm, tried=0, als=als,
                 route="; ".join(x for x in (how, route.outcome.route if route is not None else "") if x))
    v.budget_exhausted = False
    v.reason = f"{ob.name} false {where}: every one of the {als.total} admissible alignments is refuted there"
    return v


def _logical(na: NormalForm, nb: NormalForm, prover: Prover, budget: int) -> Verdict:
    rel = "logical"
    da, db = drop_unused(na), drop_unused(nb)
    obs: list[Obligation] = []
    als = alignments(da, db, min(budget, 4), prover.deadline)
    for al in als.items:
        out = check_logical_pointwise(da, rename_onto(db, al), prover)
        obs.extend(out.obligations)
        if out.status == PROVED:
            return verdict_at(EQUIVALENT, rel, al, out.obligations, reason="pointwise equivalent under an alignment", als=als, tried=1,
                            route="logical (pointwise, one alignment)")
    ta, tb = na.closed(), nb.closed()
    whole = prover("T ↔ T'", iff(ta, tb))
    if whole.status == PROVED:
        return verdict_at(EQUIVALENT, rel, None, [whole], reason="T ↔ T' proved", route="logical (whole statements)")
    pa = prover("T (statement A)", ta)
    pb = prover("T' (statement B)", tb)
    for proved, refuted, side in ((pa, pb, "B"), (pb, pa, "A")):
        if proved.status == PROVED and refuted.status == REFUTED:
            cm = {"A": {}, "B": {}}
            cm[side] = dict(refuted.model or {})
            return verdict_at(INEQUIVALENT, rel, None, [whole, pa, pb], reason=f"statement {'A' if side == 'B' else 'B'} is provable, statement {side} is refuted", countermodel=cm,
                            route="logical (one statement proved, the other refuted)")
    return verdict_at(INCONCLUSIVE, rel, None, [whole, pa, pb], reason=whole.detail or "T ↔ T' not decided")


# ``vacuous``, ``trivial`` and ``provable`` live in ``one_statement``; named here as before
__all__ = ["Profile", "as_profile", "check_equivalence", "has_uninterpreted", "provable", "trivial", "vacuous"]
