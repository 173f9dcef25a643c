"""``check_equivalence(a, b, relation=...)``: normal forms → alignments → obligations → verdict.

Order of work, cheapest first:

1. parse (text) and normalize both sides; alignment-independent structure (type variables,
   instance binders, variable sorts, premises on one side only for ``sae``);
2. rank admissible alignments (``provers.engine.align``); for each, the relation's obligations are
   first checked *cheaply*: syntactic identity proves, and exact evaluation at sampled points
   (fingerprints, ``provers.semantics.evaluate``) refutes — a point where an obligation is false is a
   validated countermodel, since the evaluator is exact;
3. the surviving alignments, best first, go to the backend (``provers.backends.smt.Portfolio`` by
   default; any ``provers.backends.base.Backend``) until one has all obligations proved.

Every stage runs against one ``provers.deadline.Deadline`` (the check's total budget, or the
caller's if sooner); when it passes, the check stops where it is and answers
``inconclusive`` with a reason starting ``deadline``.

``equivalent`` needs one alignment with every obligation proved; ``inequivalent`` needs every
admissible alignment ruled out (structure or validated countermodel) and the enumeration to be
exhaustive; anything else is ``inconclusive`` with the reason.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from provers.backends.base import Backend, Proved, Refuted, Unknown
from provers.deadline import Deadline, DeadlineExceeded, check_seconds
from provers.engine.align import Alignment, alignments, drop_unused, match_types
from provers.engine.answers import complete_model
from provers.engine.normal import NormalForm, normalize, sort_mentions, statement_symbols
from provers.engine.relations import (
    PROVED,
    REFUTED,
    RELATIONS,
    STRUCTURAL,
    Outcome,
    canon_key,
    check_logical_pointwise,
    check_sae,
    check_symbolic,
    check_syntactic,
    close,
    iff,
    rename_onto,
    trivial_obligation,
    vacuous_obligation,
    value_route,
)
from provers.engine.verdict import EQUIVALENT, INCONCLUSIVE, INEQUIVALENT, Obligation, Verdict
from provers.errors import ParseError
from provers.ir import (
    FLOAT,
    TRUE,
    App,
    IRError,
    OpaqueSort,
    Quant,
    Sort,
    Statement,
    Term,
    Var,
    VarBinder,
    has_uninterpreted,
    known_elements,
    subterms,
)
from provers.semantics import FunTable, Opaque, numeral_probes, sample_assignments, truth

DEFAULT_MAX_ALIGNMENTS = 24
FINGERPRINT_POINTS = 24


# --------------------------------------------------------------------------------------
# inputs
# --------------------------------------------------------------------------------------


def as_statement(x: Any, language: str, side: str) -> Statement:
    """A ``Statement`` from a ``Statement`` or text; a ParseError names the side."""
    if isinstance(x, Statement):
        return x
    if not isinstance(x, str):
        raise TypeError(f"statement {side}: expected a Statement or text, got {type(x).__name__}")
    from provers import parse

    try:
        return parse(x, language)
    except ParseError as e:
        raise ParseError(f"statement {side}: {e.reason}", e.line, e.column, e.text) from e


def default_backend() -> Backend | None:
    """The SMT portfolio when it is installed in this tree, else None (cheap checks only)."""
    try:
        from provers.backends.smt import Portfolio  # type: ignore[attr-defined]
    except ImportError:
        return None
    try:
        return Portfolio()
    except Exception:  # noqa: BLE001 - a broken backend must not break equivalence checking
        return None


# --------------------------------------------------------------------------------------
# the prover: syntactic identity, fingerprints, backend, per-call cache
# --------------------------------------------------------------------------------------


def _strip_forall(f: Term) -> tuple[tuple[Var, ...], Term]:
    vs: list[Var] = []
    while isinstance(f, Quant) and f.kind == "forall":
        vs.extend(f.vars)
        f = f.body
    return tuple(vs), f


def _trivially_valid(body: Term) -> bool:
    if body == TRUE:
        return True
    if isinstance(body, App) and body.op in ("iff", "eq") and len(body.args) == 2:
        return canon_key(body.args[0]) == canon_key(body.args[1])
    if isinstance(body, App) and body.op == "implies":
        p, q = body.args
        return canon_key(p) == canon_key(q)
    return False


class _Evaluator:
    """Exact evaluation at sampled points: a point where an obligation is exactly false is a
    validated countermodel (the evaluator is exact), so it refutes before any solver runs."""

    def __init__(self) -> None:
        self.truth = truth
        self.sample = sample_assignments
        self.ok = True

    def counterexample(self, vs: tuple[Var, ...], body: Term, n: int, seed: int,
                       carriers: frozenset[str] = frozenset(),
                       deadline: Deadline | None = None, probes: list[dict] | None = None) -> dict | None:
        """A sampled assignment where ``body`` is exactly False, or None
        (``DeadlineExceeded`` once ``deadline`` passes). ``probes``: points to try first
        (models of the premises, say), completed with default values where they lack a
        variable and skipped where they cannot be."""
        if not self.ok or not vs or not all(samplable(v.sort, carriers) for v in vs):
            return None
        try:
            points = self.sample(list(vs), n, seed)
        except Exception:  # noqa: BLE001 - e.g. a sort the sampler does not support
            return None
        names = {v.name for v in vs}
        first = [p for p in (complete_model({k: x for k, x in pr.items() if k in names}, vs) for pr in probes or [])
                 if p is not None]
        points = first + numeral_probes(vs, [body], points[0] if points else {}) + points
        for env in points:
            try:
                val = self.truth(body, env, deadline)
            except DeadlineExceeded:
                raise
            except Exception:  # noqa: BLE001 - evaluation errors are "unknown", never "false"
                val = None
            if val is False:
                return {(k.name if isinstance(k, Var) else str(k)): v for k, v in env.items()}
        return None


@dataclass
class Prover:
    """``prove(name, closed formula, cheap=False) -> Obligation``; results cached by formula.
    Raises ``DeadlineExceeded`` once ``deadline`` has passed (evaluation or solving)."""

    backend: Backend | None
    timeout: float
    deadline: Deadline
    points: int = FINGERPRINT_POINTS
    seed: int = 0

    def __post_init__(self) -> None:
        self.evaluator = _Evaluator()
        #: names of the statements' type variables: a countermodel may give them any number
        #: of elements; a fixed type the IR does not model (``Fin 1``) only as many as it has
        self.carriers: frozenset[str] = frozenset()
        self.cache: dict[Term, Obligation] = {}
        self.cheap_cache: dict[tuple[Term, str], Obligation] = {}
        self.solver_calls = 0
        self.probes: list[dict] = []
        self._probe_tag = ""

    def use_probes(self, points: list[dict]) -> None:
        """Try ``points`` (variable name → value) first when looking for a countermodel, e.g.
        models of the premises, where the premises of two statements are worth comparing.
        Cheap "unknown" results are remembered per set of probes."""
        self.probes = [dict(p) for p in points]
        self._probe_tag = repr(self.probes)

    def __call__(self, name: str, formula: Term, cheap: bool = False) -> Obligation:
        hit = self.cache.get(formula)
        if hit is None and cheap:
            hit = self.cheap_cache.get((formula, self._probe_tag))
        if hit is not None:
            return Obligation(name, formula, hit.status, hit.by, hit.detail, hit.model, 0.0)
        t0 = time.perf_counter()
        ob = Obligation(name, formula)
        vs, body = _strip_forall(formula)
        if _trivially_valid(body):
            ob.status, ob.by = "proved", "syntactic"
        else:
            model = self.evaluator.counterexample(vs, body, self.points, self.seed, self.carriers,
                                                  self.deadline, self.probes)
            if model is not None:
                ob.status, ob.by, ob.model = "refuted", "fingerprint", model
                ob.detail = "false at a sampled point (exact evaluation)"
            elif cheap:
                ob.status, ob.detail = "unknown", "not decided by cheap checks"
            else:
                self._solve(ob)
        ob.time = time.perf_counter() - t0
        if ob.status == "unknown" and cheap:
            self.cheap_cache[(formula, self._probe_tag)] = ob
        else:
            self.cache[formula] = ob
        return ob

    def _check_model(self, ob: Obligation, model: dict) -> None:
        """Keep a solver countermodel only if it refutes the obligation for EVERY meaning of
        its uninterpreted symbols (and of values the languages leave unspecified, ``@ln``):
        the backend may have chosen an interpretation, but ``orderOf`` or Isabelle's ``ln 0``
        have one fixed meaning we do not know. Re-evaluate with the variables only."""
        vs, body = _strip_forall(ob.formula)
        names = {v.name for v in vs}
        env = {k: v for k, v in model.items() if k in names}
        too_many = _invented_elements(env, self.carriers)
        if too_many:
            ob.status, ob.model = "unknown", None
            ob.detail = (f"countermodel uses elements of {too_many} that the type may not have "
                         "(it is not a type variable)")
            return
        if len(env) < len(model) or has_uninterpreted(body):
            verdict = None
            if self.evaluator.ok:
                try:
                    verdict = self.evaluator.truth(body, env, self.deadline)
                except DeadlineExceeded:
                    raise
                except Exception:  # noqa: BLE001 - cannot re-check: not a certificate
                    verdict = None
            if verdict is not False:
                ob.status, ob.model = "unknown", None
                ob.detail = "countermodel depends on an interpretation of uninterpreted symbols"
                return
        ob.status, ob.model = "refuted", env
        ob.detail = "countermodel validated by the exact evaluator"

    def _solve(self, ob: Obligation) -> None:
        if self.backend is None:
            ob.status, ob.detail = "unknown", "no prover backend available"
            return
        left = self.deadline.left()
        if left <= 0.05:
            raise DeadlineExceeded("solving")
        self.solver_calls += 1
        try:
            res = self.backend.prove(ob.formula, timeout=min(self.timeout, left))
        except Exception as e:  # noqa: BLE001 - a backend crash is "unknown", never a verdict
            ob.status, ob.detail = "unknown", f"backend error: {type(e).__name__}: {e}"
            return
        ob.by = getattr(res, "backend", "") or getattr(self.backend, "name", "backend")
        if isinstance(res, Proved):
            ob.status = "proved"
        elif isinstance(res, Refuted):
            self._check_model(ob, dict(res.model))
        elif isinstance(res, Unknown):
            ob.status, ob.detail = "unknown", res.reason
        else:
            ob.status, ob.detail = "unknown", f"unexpected backend answer {res!r}"


# --------------------------------------------------------------------------------------
# countermodels in both statements' own names
# --------------------------------------------------------------------------------------


def _two_sided(model: dict | None, a: NormalForm, b: NormalForm, al: Alignment | None, b_names: dict[str, str] | None = None) -> dict | None:
    if model is None:
        return None
    a_names = {v.name for v in a.variables}
    A = {k: v for k, v in model.items() if k in a_names}
    B: dict[str, Any] = {}
    if al is not None:
        for va, vb in al.pairs:
            if va.name in model:
                B[vb.name] = model[va.name]
    if b_names:
        for new, old in b_names.items():
            if new in model:
                B[old] = model[new]
    known = a_names | {va.name for va, _ in (al.pairs if al else ())} | set(b_names or ())
    for k, v in model.items():  # e.g. the answer value α of the standardized comparison
        if k not in known:
            A.setdefault(k, v)
            B.setdefault(k, v)
    return {"A": A, "B": B}


# --------------------------------------------------------------------------------------
# main entry point
# --------------------------------------------------------------------------------------


_CHECKS = {"syntactic": check_syntactic, "sae": check_sae, "symbolic": check_symbolic}


def check_equivalence(
    a: Statement | str,
    b: Statement | str,
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
    answer_cache: dict | None = None,
) -> Verdict:
    """Decide whether statements ``a`` and ``b`` are equivalent under ``relation``
    (``syntactic`` | ``sae`` | ``symbolic`` | ``logical``).

    ``timeout``: seconds per backend call; ``total_timeout`` (default 4 × timeout): the whole
    check (both finite and > 0, else ValueError). ``deadline``: the caller's own budget (e.g.
    a problem's); the check stops at whichever comes first, with an ``inconclusive`` verdict
    whose reason starts with ``deadline``. ``backend``: any ``provers.backends.base.Backend``
    (default: the SMT portfolio). Text inputs are parsed as ``language`` (``language_b`` for
    ``b`` if given); a parse error is a ``ParseError`` whose message starts with
    ``statement A`` or ``statement B``.

    ``answer_cache``: a dict the caller keeps across checks (e.g. one per problem) in which
    the ``symbolic`` relation stores each normal form's answer pin
    (``provers.engine.answers``), so a candidate's answer is pinned once, not once per pair.
    Use one dict per ``timeout``: a pin left unknown by a short timeout is reused as is.
    """
    if relation not in RELATIONS:
        raise ValueError(f"unknown relation {relation!r}; expected one of {RELATIONS}")
    timeout = check_seconds("timeout", timeout)
    budget = check_seconds("total_timeout", total_timeout) if total_timeout is not None else 4 * timeout
    t0 = time.perf_counter()
    stop = Deadline.after(budget).sooner(deadline)
    sa = as_statement(a, language, "A")
    sb = as_statement(b, language_b or language, "B")
    if backend is None and relation != "syntactic":
        backend = default_backend()
    if hasattr(backend, "with_sources"):
        # a Lean backend renders obligations from each statement's own text where it can
        backend = backend.with_sources(sa, sb)  # type: ignore[union-attr]
    prover = Prover(backend, timeout, stop, fingerprint_points, seed)
    try:
        # a variable never shares a name with a symbol of either statement (one solver
        # symbol, one evaluator table, one Lean name per binding)
        reserved = statement_symbols(sa) | statement_symbols(sb)
        na, nb = normalize(sa, reserved), normalize(sb, reserved)
        v = _decide(na, nb, relation, prover, max_alignments, answer_cache)
    except DeadlineExceeded as e:
        whose = "the caller's deadline" if stop is deadline else f"the check's {budget:g} s budget"
        v = Verdict(INCONCLUSIVE, relation, reason=f"deadline: {whose} ran out during {e.args[0] if e.args else 'the check'}")
    except (IRError, RecursionError, ValueError) as e:
        # an ill-formed term or an engine limit: never a verdict, never a crashed batch
        v = Verdict(INCONCLUSIVE, relation, reason=f"unsupported: {type(e).__name__}: {e}")
    unmodelled = [f"statement {side} uses {what}" for side, st in (("A", sa), ("B", sb))
                  if (what := _unmodelled_meaning(st))]
    if v.status == INEQUIVALENT and unmodelled:
        # e.g. Lean's Float: a structural difference or a countermodel says nothing about it
        v = Verdict(INCONCLUSIVE, relation, alignment=v.alignment, obligations=v.obligations,
                    reason=f"unsupported: {'; '.join(unmodelled)}, whose meaning the engine does "
                           f"not model (the inequivalence found: {v.reason})")
    elif v.status == INCONCLUSIVE and unmodelled:
        v.reason += f" (unsupported: {'; '.join(unmodelled)})"
    if v.status == INCONCLUSIVE and (sa.has_uninterpreted() or sb.has_uninterpreted()):
        v.reason += " (the statements contain uninterpreted symbols)"
    v.time = time.perf_counter() - t0
    v.solver_calls = prover.solver_calls
    return v


def _unmodelled_meaning(st: Statement) -> str:
    """What in ``st`` has a meaning no check can rely on for a refutation ("" if nothing):
    Lean's ``Float`` (untyped decimals elaborate there). Proofs stay sound (congruence holds
    for any meaning), so only ``inequivalent`` verdicts are withdrawn."""
    for t in st.terms():
        for s in subterms(t):
            if getattr(s, "sort", None) == FLOAT:
                return "Float arithmetic (untyped decimal literals elaborate at Float in Lean)"
    if any(isinstance(b, VarBinder) and FLOAT.name in sort_mentions(b.var.sort) for b in st.binders):
        return "Float variables"
    return ""


def _decide(na: NormalForm, nb: NormalForm, relation: str, prover: Prover, budget: int,
            answer_cache: dict | None = None) -> Verdict:
    nb, why = match_types(na, nb)
    prover.carriers = frozenset(v.name for v in na.types)
    if why is not None:
        if relation == "logical":
            return Verdict(INCONCLUSIVE, relation, reason=f"unsupported: {why}")
        return Verdict(INEQUIVALENT, relation, reason=why, structural=True, route="structure")
    if relation == "logical":
        return _logical(na, nb, prover, budget)
    if relation == "sae" and bool(na.premises) != bool(nb.premises):
        side = "A" if na.premises else "B"
        return Verdict(INEQUIVALENT, relation, reason=f"premises on one side only (statement {side})", structural=True,
                       route="structure")

    route: Outcome | None = None
    route_names: dict[str, str] = {}
    if relation == "symbolic":
        na, nb = drop_unused(na), drop_unused(nb)
        # a renaming settles it for free; otherwise the standardized comparison comes first,
        # as it needs no alignment
        early = alignments(na, nb, budget, prover.deadline)
        for al in early.items:
            out = check_symbolic(na, rename_onto(nb, al), prover, cheap=True)
            if out.status == PROVED:
                return _verdict(EQUIVALENT, relation, al, out.obligations, tried=1, als=early, route=_proof_route(out))
        r = value_route(na, nb, prover, pins=answer_cache)
        if r is not None:
            route, route_names = r
            if route.status == PROVED:
                return _verdict(EQUIVALENT, relation, None, route.obligations,
                                reason="numeric-conclusion standardization: same answer values", route=route.route)

    als = alignments(na, nb, budget, prover.deadline)
    if not als.items:
        reason = als.failure or "no admissible alignment"
        if route is not None and not route.ruled_out:
            return _verdict(INCONCLUSIVE, relation, None, route.obligations, reason=f"{reason}; standardized comparison undecided: {route.reason}")
        if als.failure is None:  # there are alignments but none enumerated
            return Verdict(INCONCLUSIVE, relation, reason="alignment budget exhausted", budget_exhausted=True, alignments_total=als.total)
        ob = route.obligations if route is not None else []
        cm = _two_sided(route.model, na, nb, None, route_names) if route is not None else None
        how = "; ".join(x for x in ("structure", route.route if route is not None else "") if x)
        return _verdict(INEQUIVALENT, relation, None, ob, reason=reason, structural=cm is None, countermodel=cm,
                        route=how)

    if not als.exhaustive and relation in ("sae", "symbolic") and (route is None or route.ruled_out):
        diag = _diagonal_refutation(na, rename_onto(nb, als.items[0]), prover)
        if diag is not None:
            cm = _two_sided(diag.model, na, nb, als.items[0])
            v = _verdict(INEQUIVALENT, relation, als.items[0], [diag], countermodel=cm, tried=0, als=als,
                         route="; ".join(x for x in ("fingerprint", route.route if route is not None else "") if x))
            v.budget_exhausted = False
            v.reason = f"{diag.name} false at a point where all variables of each sort share one value: every one of the {als.total} admissible alignments is refuted there"
            return v

    check = _CHECKS[relation]
    ruled: list[str] = []
    survivors: list[tuple[Alignment, NormalForm]] = []
    last_model: tuple[dict, Alignment] | None = None
    outcomes: dict[int, Outcome] = {}
    kinds: set[str] = set()
    # models of each side's premises found by the value route: the points where two
    # premise sets and conclusions are worth comparing (B's through each alignment)
    probes_a = route.witnesses.get("A", []) if route is not None else []
    probes_b = route.witnesses.get("B", []) if route is not None else []

    def probe(al: Alignment) -> None:
        if probes_a or probes_b:
            onto = {vb.name: va.name for va, vb in al.pairs}
            prover.use_probes(probes_a + [{onto.get(route_names.get(k, k), k): x for k, x in m.items()}
                                          for m in probes_b])

    # pass 1: cheap checks on every enumerated alignment
    for al in als.items:
        nbr = rename_onto(nb, al)
        probe(al)
        out = check(na, nbr, prover, cheap=True)
        if out.status == PROVED:
            return _verdict(EQUIVALENT, relation, al, out.obligations, tried=len(ruled) + 1, als=als,
                            route=_proof_route(out))
        if out.ruled_out:
            ruled.append(_ruled_line(al, out, na, nb))
            kinds.add(_refutation_route(out))
            if out.model is not None:
                last_model = (out.model, al)
            outcomes[id(al)] = out
        else:
            survivors.append((al, nbr))
    # pass 2: the backend on the survivors, best first
    unknown_reasons: list[str] = []
    best_unknown: tuple[Alignment, Outcome] | None = None
    if relation != "syntactic":
        for al, nbr in survivors:
            probe(al)
            out = check(na, nbr, prover, cheap=False)
            if out.status == PROVED:
                return _verdict(EQUIVALENT, relation, al, out.obligations, tried=len(ruled) + len(unknown_reasons) + 1,
                                als=als, route=_proof_route(out))
            if out.ruled_out:
                ruled.append(_ruled_line(al, out, na, nb))
                kinds.add(_refutation_route(out))
                outcomes[id(al)] = out
                if out.model is not None:
                    last_model = (out.model, al)
            else:
                unknown_reasons.append(out.reason)
                best_unknown = best_unknown or (al, out)
    tried = len(als.items)
    all_ruled = not survivors or (relation != "syntactic" and not unknown_reasons)
    route_ruled = route is None or route.ruled_out
    if all_ruled and route_ruled and als.exhaustive:
        cm = None
        obs: list[Obligation] = []
        if last_model is not None:
            cm = _two_sided(last_model[0], na, nb, last_model[1])
            obs = [o for o in outcomes.get(id(last_model[1]), Outcome(REFUTED)).obligations]
        elif route is not None and route.model is not None:
            cm = _two_sided(route.model, na, nb, None, route_names)
        order = ("structure", "fingerprint", "countermodel")
        how = [k for k in order if k in kinds] + ([route.route] if route is not None and route.route else [])
        v = _verdict(INEQUIVALENT, relation, als.items[0], obs, tried=tried, als=als, countermodel=cm, structural=cm is None,
                     route="; ".join(dict.fromkeys(how)))
        v.reason = f"all {tried} admissible alignment(s) ruled out"
        v.ruled_out = ruled
        return v
    if relation == "syntactic" and all_ruled:
        reason = "alignment budget exhausted before a syntactic match"
    elif all_ruled and not als.exhaustive:
        reason = f"alignment budget exhausted: {tried} of {als.total} alignments ruled out"
    else:
        reason = "; ".join(dict.fromkeys(r for r in unknown_reasons if r)) or "not decided"
        if route is not None and not route.ruled_out:
            reason += f"; standardized comparison: {route.reason or 'undecided'}"
    al0, out0 = best_unknown if best_unknown else (als.items[0], None)
    v = _verdict(INCONCLUSIVE, relation, al0, out0.obligations if out0 else [], tried=tried, als=als)
    v.reason = reason
    v.ruled_out = ruled
    return v


def samplable(s: Sort, carriers: frozenset[str]) -> bool:
    """Whether sampled values of sort ``s`` are genuine: every opaque type it mentions is a
    type variable (any elements will do) or known to have the ≥ 3 elements the sampler
    invents (``ir.known_elements``): ``Fin 1`` has one, ``Fin 0`` none."""
    return all(n in carriers or known_elements(OpaqueSort(n)) >= 3 for n in sort_mentions(s))


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


def _diagonal_refutation(na: NormalForm, nbr: NormalForm, prover: Prover) -> Obligation | None:
    """Evaluate ⋀Γ ↔ ⋀Γ' and C ↔ C' at "diagonal" points, where all variables of one sort
    take the same value. Such a point is fixed by every sort-preserving alignment, so a
    difference there refutes the obligation under ALL alignments at once (used when the
    alignment budget is too small to enumerate them). Premise-free SAE is covered too: a tree
    match implies ⊢ C ↔ C'."""
    ev = prover.evaluator
    if not ev.ok or not na.variables:
        return None
    sorts = list(dict.fromkeys(v.sort for v in na.variables))
    if not all(samplable(s, prover.carriers) for s in sorts):
        return None
    reps = tuple(Var(f"_d{i}", s) for i, s in enumerate(sorts))
    items = []
    if na.premises or nbr.premises:
        items.append(("premises ⋀Γ ↔ ⋀Γ'", iff(na.premise(), nbr.premise())))
    items.append(("conclusions C ↔ C'", iff(na.conclusion, nbr.conclusion)))
    try:
        points = ev.sample(list(reps), prover.points, prover.seed)
    except Exception:  # noqa: BLE001 - a sort the sampler does not support
        return None
    body_all = iff(items[0][1], items[-1][1])
    points = numeral_probes(reps, [body_all], points[0] if points else {}) + points
    for env in points:
        full = {v.name: env[reps[sorts.index(v.sort)].name] for v in na.variables}
        for name, body in items:
            try:
                val = ev.truth(body, full, prover.deadline)
            except DeadlineExceeded:
                raise
            except Exception:  # noqa: BLE001 - undecided, never false
                val = None
            if val is False:
                return Obligation(name, close(body, na.variables), "refuted", "fingerprint", "false at a diagonal point (exact evaluation)", full)
    return None


def _ruled_line(al: Alignment, out: Outcome, na: NormalForm, nb: NormalForm) -> str:
    names = ", ".join(f"{a}↔{b}" for a, b in al.names()) or "(no variables)"
    if out.status == STRUCTURAL:
        return f"[{names}] structure: {out.reason}"
    cm = _two_sided(out.model, na, nb, al)
    return f"[{names}] {out.reason}; countermodel {cm}"


def _proof_route(out: Outcome) -> str:
    """``syntactic`` when identity up to renaming proved every obligation, else ``alignment``."""
    return "syntactic" if all(o.by == "syntactic" for o in out.obligations) else "alignment"


def _refutation_route(out: Outcome) -> str:
    if out.status == STRUCTURAL:
        return "structure"
    bad = next((o for o in out.obligations if o.status == "refuted"), None)
    return "fingerprint" if bad is not None and bad.by == "fingerprint" else "countermodel"


def _verdict(status: str, relation: str, al: Alignment | None, obs: list[Obligation], reason: str = "", tried: int = 0, als: Any = None, countermodel: dict | None = None, structural: bool = False, route: str = "") -> Verdict:
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


def _logical(na: NormalForm, nb: NormalForm, prover: Prover, budget: int) -> Verdict:
    rel = "logical"
    da, db = drop_unused(na), drop_unused(nb)
    obs: list[Obligation] = []
    als = alignments(da, db, min(budget, 4), prover.deadline)
    for al in als.items:
        out = check_logical_pointwise(da, rename_onto(db, al), prover)
        obs.extend(out.obligations)
        if out.status == PROVED:
            return _verdict(EQUIVALENT, rel, al, out.obligations, reason="pointwise equivalent under an alignment", als=als, tried=1,
                            route="logical (pointwise, one alignment)")
    ta, tb = na.closed(), nb.closed()
    whole = prover("T ↔ T'", iff(ta, tb))
    if whole.status == "proved":
        return _verdict(EQUIVALENT, rel, None, [whole], reason="T ↔ T' proved", route="logical (whole statements)")
    pa = prover("T (statement A)", ta)
    pb = prover("T' (statement B)", tb)
    for proved, refuted, side in ((pa, pb, "B"), (pb, pa, "A")):
        if proved.status == "proved" and refuted.status == "refuted":
            cm = {"A": {}, "B": {}}
            cm[side] = dict(refuted.model or {})
            return _verdict(INEQUIVALENT, rel, None, [whole, pa, pb], reason=f"statement {'A' if side == 'B' else 'B'} is provable, statement {side} is refuted", countermodel=cm,
                            route="logical (one statement proved, the other refuted)")
    return _verdict(INCONCLUSIVE, rel, None, [whole, pa, pb], reason=whole.detail or "T ↔ T' not decided")


# --------------------------------------------------------------------------------------
# vacuity and triviality
# --------------------------------------------------------------------------------------


def _single(st: Statement | str, formula_of, name: str, timeout: float, language: str, backend: Backend | None, deadline: Deadline | None) -> Obligation:
    timeout = check_seconds("timeout", timeout)
    s = as_statement(st, language, "A")
    nf = normalize(s)
    if backend is None:
        backend = default_backend()
    prover = Prover(backend, timeout, Deadline.after(2 * timeout).sooner(deadline))
    prover.carriers = frozenset(v.name for v in nf.types)
    formula = formula_of(nf)
    try:
        return prover(name, formula)
    except DeadlineExceeded as e:
        return Obligation(name, formula, "unknown", detail=f"deadline: the budget ran out during {e.args[0] if e.args else 'the check'}")


def vacuous(statement: Statement | str, timeout: float = 5.0, language: str = "lean4", backend: Backend | None = None, deadline: Deadline | None = None) -> Obligation:
    """Do the premises prove False? ``status``: ``proved`` (vacuous), ``refuted`` (a model of
    the premises was found: not vacuous), ``unknown``. Bounded by 2 × ``timeout`` and by
    ``deadline``."""
    return _single(statement, vacuous_obligation, "premises prove False", timeout, language, backend, deadline)


def trivial(statement: Statement | str, timeout: float = 5.0, language: str = "lean4", backend: Backend | None = None, deadline: Deadline | None = None) -> Obligation:
    """Does the conclusion hold without the premises? ``status``: ``proved`` (trivial),
    ``refuted`` (countermodel to the bare conclusion), ``unknown``."""
    return _single(statement, trivial_obligation, "conclusion holds without premises", timeout, language, backend, deadline)


def provable(statement: Statement | str, timeout: float = 5.0, language: str = "lean4", backend: Backend | None = None, deadline: Deadline | None = None) -> Obligation:
    """Does a prover prove the whole statement ``∀x̄. ⋀Γ → C`` outright? (the "naive"
    baseline keeps such candidates). ``status``: ``proved``, ``refuted``, ``unknown``."""
    return _single(statement, lambda nf: nf.closed(), "statement holds", timeout, language, backend, deadline)


__all__ = ["check_equivalence", "has_uninterpreted", "provable", "trivial", "vacuous"]
