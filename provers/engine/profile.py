"""The candidate profile: what one statement is, computed once, whatever it is compared with.

``Profile.of(statement, relation)`` normalizes the statement once and derives from that one
normal form

* the canonical ``key``: equal for statements that differ only by renaming, ``>``/``<`` flips,
  the order of commutative arguments and of premises (equivalent under every relation);
* the structural ``signature``: what two statements must share to be equivalent under the
  relation (type-variable and instance counts; quantifier blocks and the sorts in each, after
  unused variables are dropped for ``symbolic``; premises on both sides or neither for
  ``sae``; for ``symbolic``, the sorts of the standardized answer ``L ⋈ c``);
* the ``fingerprint``: exact truth values of ⋀Γ and C at *diagonal* points, where every
  variable of a sort takes that sort's value (fixed by every sort-preserving alignment), and,
  for ``symbolic``, the truth of the answer predicate ``α ⋈ c`` at shared values of α;

and, lazily, the decided vacuity obligation and the answer pin (``provers.engine.answers``),
which share the vacuity work.

``separation(other)`` screens a pair with the signatures and fingerprints alone: a pair it
separates has no admissible alignment, or every alignment (and the value route) is refuted
at one diagonal point at once. ``check_equivalence`` runs this screen first, and the
clusterer skips exactly the pairs it separates, so the clusterer's cheap screens are never
finer than the engine.
"""

from __future__ import annotations

import logging
import zlib
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property
from typing import Any

from provers.deadline import Deadline, DeadlineExceeded
from provers.engine.align import drop_unused
from provers.engine.answers import AnswerPin, ProveFn, pin_answer, vacuity_by_definitions
from provers.engine.formulas import VACUITY_NAME, standardize, vacuous_obligation
from provers.engine.normal import (
    NormalForm,
    binders_kept_could_align,
    normalize,
    sort_mentions,
    statement_symbols,
)
from provers.engine.verdict import FULL, Obligation
from provers.errors import ParseError
from provers.ir import (
    FLOAT,
    NAT,
    NUMERIC_ORDER,
    FunSort,
    ListSort,
    OpaqueSort,
    SetSort,
    Sort,
    Statement,
    Term,
    Var,
    VarBinder,
    app,
    canon_key,
    subterms,
)
from provers.semantics import evaluate, sample_assignments, truth
from provers.status import Status

log = logging.getLogger(__name__)

#: Diagonal points per fingerprint.
DIAGONAL_POINTS = 16
#: Relations whose classes the signature and fingerprint screen (``logical`` compares whole
#: statements, ``syntactic`` has no fingerprint).
SCREENED = ("sae", "symbolic", "syntactic")


@dataclass(frozen=True)
class Signature:
    """``base``: type variables and instance binders; ``aligned``: what an admissible
    alignment preserves; ``route``: the sorts of ``(L, c)`` of a standardized ``L ⋈ c``."""

    base: tuple[int, int]
    aligned: tuple
    route: tuple[str, str] | None = None


@dataclass(frozen=True)
class Fingerprint:
    """``diagonal``: (⋀Γ, C) truth values at the diagonal points (None: undecided there);
    ``answers``: ``((value of α, truth of α ⋈ c), ...)`` for the symbolic value route."""

    diagonal: tuple | None
    answers: tuple | None = None


@dataclass(frozen=True)
class Separation:
    """Why two profiles cannot be equivalent: ``how`` is ``signature`` (structure) or
    ``fingerprint`` (a diagonal point, ``countermodel`` in each statement's names, or an
    answer value where the answer predicates differ)."""

    how: str
    reason: str
    countermodel: dict[str, dict[str, Any]] | None = None


@dataclass(eq=False)
class Profile:
    """One statement as every comparison sees it (see the module docstring).

    ``normal_form``: ``normalize(statement)``; ``form``: what the relation compares (for
    ``symbolic``, without unused variables); ``symbols``: its uninterpreted symbols;
    ``names``: every variable name in it (a pair whose other statement uses one of them as a
    symbol is normalized again, apart from it); ``unmodelled``: a meaning no refutation can
    rely on (Lean's ``Float``), "" if none; ``notes``: internal failures while profiling
    (logged; the clusterer shows them as flags); ``vacuity``: the vacuity obligation once
    decided (``decide_vacuity``); ``vacuity_effort``: the largest effort it was left
    undecided at (it is not asked again at that effort or less); ``vacuity_undecided``: that
    undecided obligation, which answer pinning takes (``vacuity_asked``) instead of asking it
    again (a clusterer gives its vacuity test a share of the limit; the same question at the
    whole limit inside every pair check would spend what the share saved)."""

    statement: Statement
    relation: str
    normal_form: NormalForm
    form: NormalForm
    signature: Signature | None
    fingerprint: Fingerprint | None
    symbols: frozenset[str]
    names: frozenset[str]
    unmodelled: str = ""
    notes: list[str] = field(default_factory=list)
    vacuity: Obligation | None = None
    vacuity_effort: float = 0.0
    vacuity_undecided: Obligation | None = None
    #: the premises' definitions were asked and did not decide the vacuity test (not again)
    definitions_undecided: bool = False

    @classmethod
    def of(cls, statement: Statement, relation: str = "sae", *, fingerprints: bool = True,
           deadline: Deadline | None = None) -> Profile:
        """The profile of ``statement`` under ``relation``; the fingerprint (``fingerprints``)
        stops evaluating at ``deadline`` (the points left are undecided). Raises what
        ``normalize`` raises (``IRError``, ``RecursionError``) for a statement it cannot
        normalize."""
        nf = normalize(statement)
        return cls._derive(statement, relation, nf, fingerprints, deadline)

    @classmethod
    def _derive(cls, statement: Statement, relation: str, nf: NormalForm, fingerprints: bool,
                deadline: Deadline | None) -> Profile:
        form = drop_unused(nf) if relation == "symbolic" else nf
        notes: list[str] = []
        sig = _guarded(notes, "signature", lambda: signature(form, relation))
        fp = None
        if fingerprints and relation in ("sae", "symbolic"):
            fp = _guarded(notes, "fingerprint", lambda: fingerprint(form, relation, deadline=deadline))
        return cls(statement, relation, nf, form, sig, fp, statement_symbols(statement),
                   _variable_names(statement, nf), unmodelled_meaning(statement), notes)

    @cached_property
    def key(self) -> str:
        """The canonical key (computed on first use: one check of a pair never needs it, and
        its sorting of commutative arguments is costly on very long terms)."""
        nf = self.normal_form
        return "nf:" + repr((canon_key(nf.closed()), sorted(repr(i) for i in nf.instances),
                             [str(v.sort) for v in nf.types]))

    def under(self, relation: str, deadline: Deadline | None = None) -> Profile:
        """This statement's profile under another relation (its normal form reused)."""
        if relation == self.relation:
            return self
        out = Profile._derive(self.statement, relation, self.normal_form, self.fingerprint is not None, deadline)
        out.vacuity, out.vacuity_effort = self.vacuity, self.vacuity_effort
        out.vacuity_undecided = self.vacuity_undecided
        out.definitions_undecided = self.definitions_undecided
        return out

    # ------------------------------------------------------------------ pairs

    def normal_form_beside(self, other: Profile) -> NormalForm:
        """The normal form to compare with ``other``: this one, unless one of its variables
        bears a name ``other`` uses as a symbol (one name, one solver symbol: see
        ``normal.apart_from_symbols``), in which case it is normalized again apart from it."""
        if self.names.isdisjoint(other.symbols):
            return self.normal_form
        return normalize(self.statement, self.symbols | other.symbols)

    def separation(self, other: Profile) -> Separation | None:
        """Why this statement and ``other`` cannot be equivalent under the relation, by
        signatures and fingerprints alone (None: the engine must look)."""
        if self.unmodelled or other.unmodelled:
            return None  # the engine withdraws such refutations; so does the screen
        sa, sb = self.signature, other.signature
        if sa is None or sb is None:
            return None
        if sa.base != sb.base:
            return Separation("signature", "type variables or instance binders differ")
        fa, fb = self.fingerprint, other.fingerprint
        point = None if fa is None or fb is None else _first_difference(fa.diagonal, fb.diagonal)
        if self.relation == "symbolic" and sa.aligned != sb.aligned and binders_kept_could_align(self.form, other.form):
            return None  # a conclusion's ∀ may account for the different variables (equivalence.py)
        aligned_open = sa.aligned == sb.aligned and point is None
        answer = None if fa is None or fb is None else _answer_difference(fa.answers, fb.answers)
        route_open = _comparable_routes(sa.route, sb.route) and answer is None
        if aligned_open or route_open:
            return None
        why = []
        if sa.aligned != sb.aligned:
            why.append("no admissible alignment (quantifier blocks, variable sorts or premises differ)")
        else:
            why.append(f"{point[1]} differ at a diagonal point, under every alignment")  # type: ignore[index]
        if self.relation == "symbolic":
            if not _comparable_routes(sa.route, sb.route):
                why.append("no standardized comparison (answers absent, or not both numbers)")
            else:
                why.append(f"the answer predicates differ at α = {answer}")
        how = "signature" if sa.aligned != sb.aligned and not _comparable_routes(sa.route, sb.route) else "fingerprint"
        model = None
        if point is not None and sa.aligned == sb.aligned:  # a countermodel only where a point refutes
            model = {"A": self._diagonal_model(point[0]), "B": other._diagonal_model(point[0])}
        return Separation(how, "; ".join(why), model)

    def _diagonal_model(self, j: int) -> dict[str, Any]:
        sorts = sorted({v.sort for v in self.form.variables}, key=str)
        diag = _diagonal_points(sorts, DIAGONAL_POINTS)[j]
        return {v.name: diag[str(v.sort)] for v in self.form.variables}

    # ------------------------------------------------------------------ one statement

    @property
    def answer(self) -> tuple[Term, str, Term] | None:
        """``(L, ⋈, c)`` of a conclusion ``L ⋈ c`` with ``c`` closed (``formulas.standardize``)."""
        return standardize(drop_unused(self.normal_form))

    @property
    def degenerate(self) -> bool:
        """The statement says nothing about its problem: its conclusion is ``True``, a
        comparison of a term with itself, or one of its own premises."""
        premises, c = self.normal_form.before_folding or (self.normal_form.premises, self.normal_form.conclusion)
        if c == app("true"):
            return True
        args = getattr(c, "args", ())
        if getattr(c, "op", None) in ("eq", "le", "ge", "iff") and len(args) == 2 and args[0] == args[1]:
            return True
        return any(c == p for p in premises)

    def decide_vacuity(self, prove: ProveFn, effort: float = FULL) -> Obligation:
        """The vacuity obligation ∀x̄. ¬⋀Γ, decided by the premises' definitions where they
        decide it (``answers.vacuity_by_definitions``), else asked of ``prove`` (the whole
        solver limit by default: ``effort``); kept once decided."""
        if self.vacuity is not None:
            return self.vacuity
        formula = vacuous_obligation(self.normal_form)
        if not self.definitions_undecided:
            constructed = vacuity_by_definitions(self.normal_form, formula, getattr(prove, "deadline", None))
            if constructed is not None:
                self.vacuity = constructed
                return constructed
            self.definitions_undecided = True
        if effort <= self.vacuity_effort:
            return Obligation(VACUITY_NAME, formula, Status.UNKNOWN,
                              detail=f"left undecided before at effort {self.vacuity_effort:g}")
        ob = prove(VACUITY_NAME, formula, effort=effort)
        if ob.status.decided:
            self.vacuity = ob
        else:
            self.vacuity_effort, self.vacuity_undecided = effort, ob
        return ob

    @property
    def vacuity_asked(self) -> Obligation | None:
        """The vacuity obligation as a whole test left it: decided, or undecided at ``FULL``
        effort of its limit (a clusterer's test on its share); None when it was not asked, or
        only quickly (the vacuity route). Answer pinning takes it instead of asking again."""
        return self.vacuity or (self.vacuity_undecided if self.vacuity_effort >= FULL else None)

    def pin(self, prove: ProveFn, cache: dict | None = None, cheap: bool = False) -> AnswerPin:
        """The answer pin of ``form`` (``answers.pin_answer``), reusing the decided vacuity
        obligation; ``cache``: pins by ``pin_key`` (one per problem, say)."""
        return pin_answer(self.form, prove, vacuity=self.vacuity, cache=cache, cheap=cheap)


# --------------------------------------------------------------------------------------
# what the profile is made of
# --------------------------------------------------------------------------------------


def _guarded(notes: list[str], what: str, compute: Any) -> Any:
    """``compute()``, or None with the failure logged and noted (a bug must not lose the
    candidate: without a signature or fingerprint it is only compared by the engine)."""
    try:
        return compute()
    except RecursionError:
        notes.append(f"{what}: statement nested too deeply")
    except Exception as e:  # noqa: BLE001 - an internal failure, recorded
        log.warning("profile %s failed: %s: %s", what, type(e).__name__, e, exc_info=True)
        notes.append(f"{what} failed: {type(e).__name__}: {e}")
    return None


def _variable_names(st: Statement, nf: NormalForm) -> frozenset[str]:
    names = {b.var.name for b in st.binders if isinstance(b, VarBinder)} | {v.name for v, _ in st.defines}
    for t in (*st.terms(), *nf.premises, nf.conclusion):
        names |= {s.name for s in subterms(t) if isinstance(s, Var)}
    return frozenset(names | {v.name for v in nf.variables})


def unmodelled_meaning(st: Statement) -> str:
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


def shape(s: Sort) -> str:
    """A sort with carrier names erased (type variables may be renamed by the engine)."""
    if isinstance(s, OpaqueSort):
        return "?"
    if isinstance(s, FunSort):
        return "(" + ",".join(shape(a) for a in s.args) + ")->" + shape(s.result)
    if isinstance(s, SetSort):
        return f"Set({shape(s.elem)})"
    if isinstance(s, ListSort):
        return f"List({shape(s.elem)})"
    return str(s)


def signature(form: NormalForm, relation: str) -> Signature | None:
    """What two statements must share to be equivalent under ``relation`` (None: no screen)."""
    if relation not in SCREENED:
        return None
    blocks = form.blocks()
    where = {v: i for i, (_, vs) in enumerate(blocks) for v in vs}
    counts = Counter((where[v], shape(v.sort)) for v in form.variables)
    aligned: tuple = (tuple(k for k, _ in blocks), tuple(sorted(counts.items())))
    if relation in ("sae", "syntactic"):
        aligned += (bool(form.premises),)
    route = None
    if relation == "symbolic":
        std = standardize(form)
        if std is not None:
            route = (shape(std[0].sort), shape(std[2].sort))
    return Signature((len(form.types), len(form.instances)), aligned, route)


def _diagonal_points(sorts: list[Sort], n: int) -> list[dict[str, Any]]:
    """Point j gives every sort its own value, the same in every statement."""
    per_sort = {}
    for s in sorts:
        seed = zlib.crc32(str(s).encode())
        per_sort[s] = [p["_d"] for p in sample_assignments([Var("_d", s)], n, seed)]
    return [{str(s): per_sort[s][j] for s in sorts} for j in range(n)]


def fingerprint(form: NormalForm, relation: str, points: int = DIAGONAL_POINTS,
                deadline: Deadline | None = None) -> Fingerprint:
    """Exact truth values at diagonal points (None where undecided, and at every point left
    when ``deadline`` passes); no diagonal for carrier sorts or sorts that cannot be sampled."""
    diagonal: tuple | None = None
    sorts = sorted({v.sort for v in form.variables}, key=str)
    if not any("?" in shape(s) for s in sorts):
        try:
            diag_points = _diagonal_points(sorts, points)
        except ValueError:  # a sort the sampler has no values for
            diag_points = None
        if diag_points is not None:
            prem, concl = form.premise(), form.conclusion
            out = []
            for diag in diag_points:
                env = {v.name: diag[str(v.sort)] for v in form.variables}
                out.append((_truth(prem, env, deadline), _truth(concl, env, deadline)))
            diagonal = tuple(out)
    answers = _answers(form, points, deadline) if relation == "symbolic" else None
    return Fingerprint(diagonal, answers)


def _answers(form: NormalForm, points: int, deadline: Deadline | None = None) -> tuple | None:
    """``((value of α, truth of α ⋈ c), ...)`` at shared sample values of α's sort and at
    c - 1, c, c + 1 (where the predicates of different answers part)."""
    std = standardize(form)
    if std is None:
        return None
    lhs, op, c = std
    alpha = Var("_alpha", lhs.sort)
    pred = app(op, alpha, c)
    try:
        values = [d[str(lhs.sort)] for d in _diagonal_points([lhs.sort], points)]
    except ValueError:  # a sort the sampler has no values for
        return None
    try:
        cv = evaluate(c, {}, deadline)
    except DeadlineExceeded:
        return None
    if isinstance(cv, (int, Fraction)) and not isinstance(cv, bool):
        values += [cv, cv + 1, cv - 1]
    out = {}
    for v in values:
        if not isinstance(v, (int, Fraction)) or isinstance(v, bool) or v in out:
            continue
        if lhs.sort == NAT and (v < 0 or not isinstance(v, int)):
            continue
        out[v] = _truth(pred, {"_alpha": v}, deadline)
    return tuple(sorted(out.items()))


def _truth(t: Term, env: dict[str, Any], deadline: Deadline | None = None) -> bool | None:
    """Exact truth value, None when undecided (or the deadline passed: unknown, never false)."""
    if deadline is not None and deadline.expired():
        return None
    try:
        return truth(t, env, deadline)
    except DeadlineExceeded:
        return None


def _first_difference(a: tuple | None, b: tuple | None) -> tuple[int, str] | None:
    """The first diagonal point where both statements' premises (or conclusions) are decided
    and differ: ``(index, "premises" | "conclusions")``."""
    if a is None or b is None or len(a) != len(b):
        return None
    for j, ((pa, ca), (pb, cb)) in enumerate(zip(a, b, strict=True)):
        if pa is not None and pb is not None and pa != pb:
            return j, "premises"
        if ca is not None and cb is not None and ca != cb:
            return j, "conclusions"
    return None


#: the sorts whose values the value route compares across sorts (``relations.value_route``
#: embeds both answers into the wider sort)
_NUMBER_SHAPES = frozenset(shape(s) for s in NUMERIC_ORDER)


def _comparable_routes(a: tuple[str, str] | None, b: tuple[str, str] | None) -> bool:
    """Both statements have a standardized comparison the value route can compare: the same
    sorts, or numbers of any sorts."""
    if a is None or b is None:
        return False
    return a == b or set(a) | set(b) <= _NUMBER_SHAPES


def _answer_difference(a: tuple | None, b: tuple | None) -> Any:
    """A value of α where both answer predicates are decided and differ (None: none)."""
    if a is None or b is None:
        return None
    da = dict(a)
    return next((v for v, t in b if v in da and da[v] is not None and t is not None and da[v] != t), None)


def as_statement(x: Any, language: str, side: str) -> Statement:
    """A ``Statement`` from a ``Statement``, a ``Profile`` or text; a ParseError names the side."""
    if isinstance(x, Profile):
        return x.statement
    if isinstance(x, Statement):
        return x
    if not isinstance(x, str):
        raise TypeError(f"statement {side}: expected a Statement, a Profile or text, got {type(x).__name__}")
    from provers import parse

    try:
        return parse(x, language)
    except ParseError as e:
        raise ParseError(f"statement {side}: {e.reason}", e.line, e.column, e.text) from e


__all__ = ["DIAGONAL_POINTS", "Fingerprint", "Profile", "Separation", "Signature", "as_statement", "fingerprint",
           "signature", "unmodelled_meaning"]
