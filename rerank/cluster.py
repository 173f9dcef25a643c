"""Equivalence classes of k candidates, with as few equivalence checks as possible.

The naive method checks all k(k-1)/2 pairs.  :class:`Clusterer` adds candidates one at a
time (the same code serves one-shot calls and generation loops) and, for each new one:

1. parses it; a candidate that does not parse is a singleton class that keeps its error;
2. joins at once the class of an earlier candidate with its canonical key (the same
   statement up to renaming); else compares it only with class *representatives* (a
   union-find holds the classes, so a pair that is already connected is never checked),
   those with its fingerprint, then its signature, first, each tier largest class first,
   and stops at the first class it provably joins;
3. skips, without a solver, every representative that the engine's own screen separates
   (``Profile.separation``: structural *signature* or diagonal *fingerprint*; the engine
   answers ``inequivalent`` on every such pair, so the clusterer's cheap screens are never
   finer than the engine);
4. answers identical canonical keys without a solver, and looks every other pair up in a
   verdict cache keyed by canonical keys before asking the engine.

Everything about one candidate is its ``provers.engine.profile.Profile``, computed once (one
parse and one normal form per distinct text) and handed to every check it enters; answer
pins are shared across the problem's checks (``Clusterer.pins``). This module keeps only the
union-find, the cache lookups and the statistics.

Soundness: two candidates share a class only when a check said ``equivalent`` (or their
canonical forms are identical).  ``inconclusive`` keeps them apart.

Vacuous candidates (premises that prove False) are flagged; they prove anything, so
:mod:`rerank.api` does not let them win by class size alone.

Time: each check is bounded by its own budget (``provers.check_equivalence``), each
candidate's vacuity test by ``timeout``, its fingerprint by the evaluator's step budget, and
the whole problem by ``problem_timeout`` (engine time summed over every ``add``). Once a problem's budget is
spent, the remaining pairs are not checked (identical canonical forms still merge, at no
cost): the new candidate stays apart (sound: only ``equivalent`` merges) and is flagged
``unchecked: problem time budget spent``.
"""

from __future__ import annotations

import logging
import math
import time
from collections.abc import Callable, Hashable, MutableMapping
from dataclasses import asdict, dataclass, field
from typing import Any

import provers
from provers.backends.base import Backend
from provers.deadline import Deadline, check_seconds
from provers.engine import equivalence, one_statement  # through the modules: experiments wrap them
from provers.engine.answers import AnswerPin
from provers.engine.profile import Fingerprint, Profile, Signature
from provers.engine.prover import default_backend as engine_default_backend
from provers.engine.relations import RELATIONS
from provers.engine.verdict import VACUITY_SHARE
from provers.errors import ParseError
from provers.ir import IRError, Statement
from provers.status import Status, VerdictStatus

log = logging.getLogger(__name__)

__all__ = [
    "RELATIONS",
    "Candidate",
    "ClusterStats",
    "Clusterer",
    "PairDecision",
    "UnionFind",
    "cluster",
]

#: Seconds for one vacuity (or truth) check: contradictory premises are usually easy to
#: refute, and these checks run once per candidate, so they get a shorter budget.
VACUITY_TIMEOUT = 2.0

#: ``VACUITY_SHARE`` (``provers.engine.verdict``: one share for every vacuity test) of
#: ``VACUITY_TIMEOUT`` (or the solver limit, the smaller) for the vacuity test. A test left
#: undecided is not asked again by the pair checks' answer pinning (``Profile.vacuity_undecided``).

#: Share of the check's budget (``VACUITY_TIMEOUT`` at most) for the truth check of a candidate
#: whose vacuity test was left undecided: the solvers that could not decide the premises alone
#: rarely decide the whole statement with more time (of 1013 such MATH candidates 156 were
#: decided, all but 3 within this share; docs/benchmarks.md, stop 31), and waiting out the
#: whole budget on the others was most of the truth checks' time.
UNDECIDED_PREMISES_TRUTH_SHARE = 0.3

#: Share of the check's budget for a truth check asked only for a refutation
#: (``check_truth="refute"``: what a ``Reranker`` asks when ``truth_weight`` is 0, where a
#: proof changes no ranking and a countermodel demotes). Countermodels come early: of the 46
#: solver refutations of all isabelle_math_400 candidates 44 came within 0.15 s of a 1 s
#: budget, while the 841 undecided truth calls spent 90 s (docs/benchmarks.md, stop 33); at
#: 0.15, the 35 solver refutations on 280 problems all came within 0.045 s, while the calls
#: left undecided ran to the limit (docs/benchmarks.md, stop 44).
REFUTE_TRUTH_SHARE = 0.075

#: Flag of a candidate whose comparisons were skipped because the problem's budget was spent.
BUDGET_FLAG = "unchecked: problem time budget spent"
#: prefix of the flags that say why the prover's own checker would reject a parsed candidate
ILL_FORMED_FLAG = "ill_formed"
#: Flag of an ill-formed candidate a clusterer with ``compare_ill_formed=False`` leaves apart.
SET_ASIDE_FLAG = "not compared: the prover's checker rejects it"
#: Flag of an ill-formed candidate a clusterer with ``compare_ill_formed="identical"`` (the
#: default) compares by identity and the solver-free screens only.
IDENTITY_FLAG = "compared by identity only: the prover's checker rejects it"
#: The values of ``compare_ill_formed`` (``Clusterer``, ``Reranker``) by their command-line names.
ILL_FORMED_NAMES: dict[str, bool | str] = {"identical": "identical", "compare": True, "skip": False}
ILL_FORMED_MODES = tuple(ILL_FORMED_NAMES.values())


def check_ill_formed_mode(value: object) -> bool | str:
    """``value`` if it is a ``compare_ill_formed`` mode, else a ValueError naming them."""
    if value not in ILL_FORMED_MODES:
        raise ValueError(f"compare_ill_formed must be True, False or 'identical', got {value!r}")
    return value  # type: ignore[return-value]

#: ``checker(a, b, relation, timeout) -> verdict`` with ``.status`` in
#: equivalent / inequivalent / inconclusive (``provers.check_equivalence`` by default).
Checker = Callable[[Statement, Statement, str, float], Any]


class UnionFind:
    """Disjoint sets over ``0 .. n-1`` (path halving, union by size; the smaller root joins
    the larger, ties to the lower index, so the result does not depend on call order)."""

    def __init__(self) -> None:
        self.parent: list[int] = []
        self.size: list[int] = []

    def add(self) -> int:
        self.parent.append(len(self.parent))
        self.size.append(1)
        return len(self.parent) - 1

    def find(self, i: int) -> int:
        p = self.parent
        while p[i] != i:
            p[i] = p[p[i]]
            i = p[i]
        return i

    def connected(self, i: int, j: int) -> bool:
        return self.find(i) == self.find(j)

    def union(self, i: int, j: int) -> int:
        a, b = self.find(i), self.find(j)
        if a == b:
            return a
        if (self.size[a], -a) < (self.size[b], -b):
            a, b = b, a
        self.parent[b] = a
        self.size[a] += self.size[b]
        return a

    def groups(self) -> list[list[int]]:
        """Members of each set, sets ordered by their lowest member."""
        by_root: dict[int, list[int]] = {}
        for i in range(len(self.parent)):
            by_root.setdefault(self.find(i), []).append(i)
        return sorted(by_root.values(), key=lambda g: g[0])


@dataclass
class Candidate:
    """One candidate as the clusterer sees it: its text, its parse and its ``Profile``
    (``provers.engine.profile``: normal form, canonical key, signature, fingerprint, computed
    once and handed to every check the candidate enters)."""

    index: int
    text: str
    statement: Statement | None = None
    error: str | None = None
    profile: Profile | None = None
    key: str | None = None
    vacuous: bool | None = None
    holds: bool | None = None
    flags: list[str] = field(default_factory=list)
    #: why it is compared with nothing although it parsed ("" when it is compared)
    set_aside: str = ""

    @property
    def parsed(self) -> bool:
        return self.statement is not None

    @property
    def compared(self) -> bool:
        """Parsed and not set aside: what enters the checks and the per-candidate tests."""
        return self.statement is not None and not self.set_aside

    @property
    def ill_formed(self) -> bool:
        """Parsed, but the prover's own checker would reject the text (``Statement.checker_errors``)."""
        return self.statement is not None and bool(self.statement.checker_errors)

    @property
    def signature(self) -> Signature | None:
        return None if self.profile is None else self.profile.signature

    @property
    def fingerprint(self) -> Fingerprint | None:
        return None if self.profile is None else self.profile.fingerprint


@dataclass
class ClusterStats:
    """What clustering cost, against the k(k-1)/2 checks of the naive all-pairs method.

    ``checks`` counts calls to the equivalence engine; ``solver_calls`` the backend (SMT)
    calls they made (the engine refutes many pairs by exact fingerprints with none).
    ``vacuity_checks``/``vacuity_solver_calls``: the separate per-candidate vacuity test.
    ``budget_skips``: pairs left unchecked because the problem's time budget was spent.
    ``truth_skips``: pairs of a proved and a refuted statement (``check_truth``).
    ``set_aside_skips``: pairs with an ill-formed candidate left apart or, with
    ``compare_ill_formed="identical"``, left to the solver-free routes only.
    The other counters are pairs settled without the engine.
    """

    k: int = 0
    naive_pairs: int = 0
    checks: int = 0
    solver_calls: int = 0
    cache_hits: int = 0
    syntactic_hits: int = 0
    signature_skips: int = 0
    fingerprint_skips: int = 0
    truth_skips: int = 0
    unparsed_skips: int = 0
    set_aside_skips: int = 0
    equivalent: int = 0
    inequivalent: int = 0
    inconclusive: int = 0
    vacuity_checks: int = 0
    vacuity_solver_calls: int = 0
    truth_checks: int = 0
    truth_solver_calls: int = 0
    merges: int = 0
    budget_skips: int = 0

    @property
    def ratio_to_naive(self) -> float:
        """Engine checks as a fraction of the naive method's (NaN when k < 2)."""
        return self.checks / self.naive_pairs if self.naive_pairs else math.nan

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["ratio_to_naive"] = None if math.isnan(self.ratio_to_naive) else self.ratio_to_naive
        return d


@dataclass(frozen=True)
class PairDecision:
    """How one compared pair was settled: ``a`` the earlier candidate (a class
    representative), ``b`` the new one; ``how`` in ``syntactic`` (identical canonical
    forms), ``signature`` / ``fingerprint`` (separated without the engine), ``cache`` or
    ``engine``; ``status`` the verdict; ``reason`` the engine's (empty otherwise).  Scores
    read these to weigh pairs the engine left undecided (:mod:`rerank.evidence`)."""

    a: int
    b: int
    how: str
    status: str
    reason: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class CountingBackend(Backend):
    """Delegates to a prover backend and counts the calls (the honest "solver calls"); a copy
    bound to one pair (``bind``) forwards the binding and counts into the same total."""

    def __init__(self, inner: Backend, _count: list[int] | None = None) -> None:
        self.inner = inner
        self.name = inner.name
        self._count = [0] if _count is None else _count

    @property
    def calls(self) -> int:
        return self._count[0]

    def bind(self, a: Statement, b: Statement | None = None) -> CountingBackend:
        return CountingBackend(self.inner.bind(a, b), self._count)

    def prove(self, obligation: Any, timeout: float = 5.0) -> Any:
        self._count[0] += 1
        return self.inner.prove(obligation, timeout=timeout)


_BACKEND: list[Backend] = []


def default_backend() -> Backend:
    """The engine's default backend (SMT portfolio), created once per process."""
    if not _BACKEND:
        _BACKEND.append(engine_default_backend())
    return _BACKEND[0]


def _status(verdict: Any) -> VerdictStatus:
    """The status of a checker's verdict (a ``Verdict``, or anything with a ``.status`` word)."""
    status = getattr(verdict, "status", verdict)
    try:
        return VerdictStatus(status)
    except ValueError:
        raise ValueError(f"equivalence checker returned an unknown status {status!r}") from None


def _solver_calls(verdict: Any) -> int:
    for name in ("solver_calls", "backend_calls"):
        n = getattr(verdict, name, None)
        if isinstance(n, int):
            return n
    return 1


class Clusterer:
    """Incremental equivalence classes of candidates for one problem.

    ``add`` takes a candidate (text or an already-parsed ``Statement``) and returns its
    index; ``classes`` and ``stats`` describe the state at any moment.  Adding candidates
    in the same order always gives the same classes, whether they arrive at once or one by
    one, because the one-shot path is this same loop.
    """

    def __init__(
        self,
        relation: str = "symbolic",
        language: str = "lean4",
        timeout: float = 5.0,
        *,
        fingerprints: bool = True,
        check_vacuous: bool = True,
        check_truth: bool | str = False,
        cache: MutableMapping[Hashable, str] | None = None,
        checker: Checker | None = None,
        backend: Any = None,
        problem_timeout: float | None = None,
        imports: tuple[str, ...] = (),
        compare_ill_formed: bool | str = "identical",
    ) -> None:
        """``compare_ill_formed``: what is done with a candidate the prover's own checker
        rejects (``Statement.checker_errors``). ``"identical"`` (default): it joins only a class
        holding the same statement (its canonical key: a sampled pool repeats itself, rejected
        text included) and is separated by the solver-free screens, flagged ``IDENTITY_FLAG``;
        the engine is never asked about it, since what it would prove is our reading of a text
        the prover gives no meaning. ``True``: compared like any other (its meaning, as we read
        it, counts for its class). ``False``: compared with nothing, like one that does not
        parse — a singleton class, flagged ``SET_ASIDE_FLAG``, without vacuity or truth test
        (training-data filters, where only well-formed text can be kept).
        ``imports`` (Isabelle): theories beyond ``Complex_Main`` the candidates are checked
        with (``"HOL-Analysis.Analysis"``), so text they make valid is not flagged ill-formed
        (candidates given as ``Statement`` keep the checker errors they were parsed with).
        ``backend``: the prover backend (default: the process-wide SMT portfolio, whose
        verdict cache is shared across problems); pass a fresh one to isolate a run.
        ``problem_timeout``: seconds of engine time for the whole problem (None: no limit
        beyond the per-check budgets). ``check_truth``: also ask whether each candidate holds
        outright (``holds``: True proved, False refuted by a validated countermodel, None
        undecided); a false statement is never a faithful formalization of a true problem.
        ``check_truth="refute"``: the same check on ``REFUTE_TRUTH_SHARE`` of its budget, for
        callers that use only refutations (a proof found within it is still reported)."""
        check_ill_formed_mode(compare_ill_formed)
        if check_truth not in (True, False, "refute"):
            raise ValueError(f"check_truth must be True, False or 'refute', got {check_truth!r}")
        if relation not in RELATIONS:
            raise ValueError(f"relation must be one of {RELATIONS}, got {relation!r}")
        self.relation = relation
        self.language = language
        self.imports = tuple(imports)
        self.timeout = check_seconds("timeout", timeout)
        self.problem_timeout = None if problem_timeout is None else check_seconds("problem_timeout", problem_timeout)
        self.spent = 0.0  # engine seconds used so far (counted against problem_timeout)
        self.fingerprints = fingerprints
        self.check_vacuous = check_vacuous
        self.check_truth = check_truth
        self.compare_ill_formed = compare_ill_formed
        self.cache: MutableMapping[Hashable, str] = {} if cache is None else cache
        self._reasons: dict[Hashable, str] = {}  # why, for pairs this clusterer checked (the cache keeps statuses)
        self.checker = checker
        self._backend: CountingBackend | None = None if backend is None else CountingBackend(backend)
        self.candidates: list[Candidate] = []
        self.decisions: list[PairDecision] = []
        self.stats = ClusterStats()
        self._uf = UnionFind()
        self._members: dict[int, list[int]] = {}  # root -> its class, sorted
        # per problem: one parse and profile per distinct text; one vacuity and truth check per
        # canonical key; one answer pin per normal form
        self._profiled: dict[str, Candidate] = {}
        self._checked: dict[str, Candidate] = {}
        self.pins: dict[Any, AnswerPin] = {}

    # ------------------------------------------------------------------ adding

    def add(self, candidate: str | Statement) -> int:
        """Parse ``candidate``, merge it into the class it provably belongs to, return its index."""
        t0 = time.monotonic()
        deadline = None if self.problem_timeout is None else Deadline(t0 + self.problem_timeout - self.spent)
        try:
            return self._add(candidate, deadline)
        finally:
            self.spent += time.monotonic() - t0

    def _add(self, candidate: str | Statement, deadline: Deadline | None) -> int:
        i = self._uf.add()
        self._members[i] = [i]
        c = self._prepare(i, candidate, deadline)
        self.candidates.append(c)
        k = len(self.candidates)
        self.stats.k = k
        self.stats.naive_pairs = k * (k - 1) // 2
        if not c.compared:
            self._skipped(c, i)  # pairs with every earlier candidate
            return i
        if self._join_twin(c):
            return i
        for root in self._roots_in_order(c, exclude=i):
            rep = self.candidates[self._representative(root)]
            if not rep.compared:
                self._skipped(rep, 1)
                continue
            identical = rep.key is not None and rep.key == c.key  # merges without the engine
            if deadline is not None and deadline.expired() and not identical:
                self.stats.budget_skips += 1
                if BUDGET_FLAG not in c.flags:
                    c.flags.append(BUDGET_FLAG)
                continue
            if self._same(rep, c, deadline):
                self._merge(root, i)
                break
        return i

    def _skipped(self, c: Candidate, pairs: int) -> None:
        """Count ``pairs`` left unchecked because ``c`` is not compared."""
        if c.parsed:
            self.stats.set_aside_skips += pairs
        else:
            self.stats.unparsed_skips += pairs

    def extend(self, candidates: list[str | Statement]) -> list[int]:
        return [self.add(c) for c in candidates]

    # ------------------------------------------------------------------ reading

    @property
    def classes(self) -> list[list[int]]:
        """Classes as lists of candidate indices, each sorted, ordered by lowest member."""
        return sorted((list(m) for m in self._members.values()), key=lambda g: g[0])

    def class_of(self, i: int) -> list[int]:
        return list(self._members[self._uf.find(i)])

    @property
    def errors(self) -> list[str | None]:
        return [c.error for c in self.candidates]

    # ------------------------------------------------------------------ internals

    def _prepare(self, i: int, candidate: str | Statement, deadline: Deadline | None = None) -> Candidate:
        if isinstance(candidate, Statement):
            c = Candidate(i, candidate.source or "", statement=candidate)
        elif isinstance(candidate, str):
            c = Candidate(i, candidate)
            seen = self._profiled.get(candidate)
            if seen is not None:  # the same text again: its parse and profile are reused
                c.statement, c.profile, c.key = seen.statement, seen.profile, seen.key
                c.flags.extend(f for f in seen.flags if f.startswith("profile"))
            else:
                self._parse(c)
        else:
            c = Candidate(i, repr(candidate))
            c.error = f"candidate must be a string or Statement, got {type(candidate).__name__}"
            c.flags.append("parse_error")
        if c.statement is None:
            return c
        c.flags.extend(f"{ILL_FORMED_FLAG}: {e}" for e in c.statement.checker_errors)
        if c.statement.checker_errors and not self.compare_ill_formed:
            c.set_aside = SET_ASIDE_FLAG
            c.flags.append(SET_ASIDE_FLAG)
            return c  # no profile, no test: compared with nothing
        if c.statement.checker_errors and self.compare_ill_formed == "identical":
            c.flags.append(IDENTITY_FLAG)
        if c.key is None:
            # the fingerprint is bounded by the evaluator's step budget and the problem's
            # deadline, not by a wall-clock of its own: classes must not depend on the load
            describe(c, self.relation, self.fingerprints, deadline)
            if isinstance(candidate, str):
                self._profiled[candidate] = c
        # a statement with an earlier one's key is that statement up to renaming and the order
        # of premises and commutative arguments: the same vacuity and truth (a sampled pool
        # repeats its statements, spelled differently: spacing, `≠` or `\<noteq>`, premise order)
        checked = self._checked.setdefault(c.key, c) if c.key is not None else c
        if self.check_vacuous:
            c.vacuous = self._vacuous(c, deadline) if checked is c else checked.vacuous
            if c.vacuous:
                c.flags.append("vacuous")
        if self.check_truth:
            c.holds = self._holds(c, deadline) if checked is c else checked.holds
            if c.holds is False:
                c.flags.append("refuted")
        return c

    def _parse(self, c: Candidate) -> None:
        """``c.statement``, or ``c.error`` and a ``parse_error`` flag."""
        try:
            c.statement = provers.parse(c.text, self.language, imports=self.imports)
        except ParseError as e:
            c.error = f"parse error: {e}"
        except RecursionError:
            c.error = "parse error: statement nested too deeply"
        except Exception as e:  # noqa: BLE001 - a frontend bug must not crash the problem
            log.warning("candidate %d: internal parser error", c.index, exc_info=True)
            c.error = f"internal parser error ({type(e).__name__}): {e}"
        if c.error is not None:
            c.flags.append("parse_error")

    def _counting_backend(self) -> CountingBackend:
        if self._backend is None:
            self._backend = CountingBackend(default_backend())
        return self._backend

    def _engine_check(self, a: Candidate, b: Candidate, deadline: Deadline | None) -> Any:
        # the syntactic relation never calls a solver: do not start one for it
        backend = None if self.relation == "syntactic" else self._counting_backend()
        before = backend.calls if backend is not None else 0
        try:
            return equivalence.check_equivalence(
                a.profile or a.statement, b.profile or b.statement,  # type: ignore[arg-type]
                relation=self.relation, timeout=self.timeout, backend=backend,
                deadline=deadline, answer_cache=self.pins,
            )
        finally:
            if backend is not None:
                self.stats.solver_calls += backend.calls - before

    def _single(self, c: Candidate, ask: Callable[..., Any], counter: str, deadline: Deadline | None,
                share: float = 1.0) -> bool | None:
        """True / False / None from ``ask`` (``vacuous`` or ``provable``) on ``c``: proved /
        refuted / undecided; an internal failure is undecided, logged and flagged. ``share``:
        of the check's budget (``VACUITY_TIMEOUT`` at most)."""
        setattr(self.stats, counter + "_checks", getattr(self.stats, counter + "_checks") + 1)
        backend = self._counting_backend()
        before = backend.calls
        try:
            out = ask(c.profile or c.statement, timeout=min(self.timeout, VACUITY_TIMEOUT) * share,
                      backend=backend, deadline=deadline)
        except Exception as e:  # noqa: BLE001 - a failed check is undecided, never a crash
            log.warning("candidate %d: %s check failed", c.index, counter, exc_info=True)
            c.flags.append(f"{counter}_error: {type(e).__name__}: {e}")
            return None
        finally:
            name = counter + "_solver_calls"
            setattr(self.stats, name, getattr(self.stats, name) + backend.calls - before)
        return {Status.PROVED: True, Status.REFUTED: False}.get(out.status)

    def _vacuous(self, c: Candidate, deadline: Deadline | None = None) -> bool | None:
        """True: premises prove False; False: a model of the premises exists (or there are
        no premises); None: undecided."""
        st = c.statement
        assert st is not None
        if not any(h.style != "instance" for h in st.hypotheses) and not st.defines:
            return False
        if deadline is not None and deadline.expired():
            return None
        return self._single(c, one_statement.vacuous, "vacuity", deadline, VACUITY_SHARE)

    def _holds(self, c: Candidate, deadline: Deadline | None = None) -> bool | None:
        """True: the whole statement ⊢ ∀x̄. ⋀Γ → C was proved; False: refuted by a validated
        countermodel; None: undecided. Undecided premises: ``UNDECIDED_PREMISES_TRUTH_SHARE``;
        ``check_truth="refute"``: ``REFUTE_TRUTH_SHARE``."""
        if deadline is not None and deadline.expired():
            return None
        share = UNDECIDED_PREMISES_TRUTH_SHARE if self.check_vacuous and c.vacuous is None else 1.0
        if self.check_truth == "refute":
            share = min(share, REFUTE_TRUTH_SHARE)
        return self._single(c, one_statement.provable, "truth", deadline, share)

    def _join_twin(self, c: Candidate) -> bool:
        """Merge ``c`` into the class of the first earlier candidate with its canonical key
        (the same statement up to renaming), before comparing it with any other class:
        compared with the others first, it repeated their cached verdicts for the twin (99
        inconclusive and 113 inequivalent pairs on ``isabelle_math_400``)."""
        twin = self._checked.get(c.key) if c.key is not None else None
        if twin is None or twin is c or not twin.parsed:
            return False
        self._same(twin, c)  # identical keys: recorded as a syntactic equivalence
        self._merge(self._uf.find(twin.index), c.index)
        return True

    def _merge(self, root: int, i: int) -> None:
        """Join candidate ``i``'s (singleton) class into the class of ``root``."""
        joined = self._members.pop(root) + self._members.pop(i)
        self._members[self._uf.union(root, i)] = sorted(joined)
        self.stats.merges += 1

    def _roots_by_size(self, exclude: int) -> list[int]:
        """Class roots, largest class first, ties by lowest member."""
        roots = [r for r in self._members if r != exclude]
        return sorted(roots, key=lambda r: (-len(self._members[r]), self._members[r][0]))

    def _roots_in_order(self, c: Candidate, exclude: int) -> list[int]:
        """The classes ``c`` is compared with: those whose representative has ``c``'s exact
        fingerprint first (same truth values at every diagonal point and the same answers),
        then those with its signature (same quantifier blocks and sorts), each tier largest
        class first. Why: ``c`` joins the first class it is proved equivalent to, so every
        check before that one is spent on a class it does not join — 61 of stage 1's 1,067
        inconclusive checks were (v145); on those 31 problems this order leaves 215 of 239
        inconclusive checks and 431 of 461 solver calls, with the same classes."""
        roots = self._roots_by_size(exclude)
        fp, sig = c.fingerprint, c.signature

        def likeness(r: int) -> tuple[bool, bool]:
            rep = self.candidates[self._representative(r)]
            return (not (fp is not None and fp.diagonal is not None and rep.fingerprint == fp),
                    not (sig is not None and rep.signature == sig))

        return sorted(roots, key=likeness)  # stable: by size within each tier

    def _representative(self, root: int) -> int:
        """The lowest-index member of ``root``'s class (a parsed one if any)."""
        members = self._members[root]
        for j in members:
            if self.candidates[j].parsed:
                return j
        return members[0]

    def _same(self, a: Candidate, b: Candidate, deadline: Deadline | None = None) -> bool:
        """Whether ``a`` and ``b`` are provably equivalent; records and counts how it was decided."""
        s = self.stats
        if a.key is not None and a.key == b.key:
            s.syntactic_hits += 1
            self.decisions.append(PairDecision(a.index, b.index, "syntactic", VerdictStatus.EQUIVALENT))
            return True
        why = separated(a, b)
        if why is not None:
            setattr(s, f"{why}_skips", getattr(s, f"{why}_skips") + 1)
            self.decisions.append(PairDecision(a.index, b.index, why, VerdictStatus.INEQUIVALENT,
                                               truth_reason(a, b) if why == "truth" else ""))
            return False
        if self.compare_ill_formed == "identical" and (a.statement.checker_errors or b.statement.checker_errors):
            s.set_aside_skips += 1  # neither identical nor screened apart: the engine is not asked
            return False
        ck = (self.relation, self.timeout, *sorted((a.key or f"#{a.index}", b.key or f"#{b.index}")))
        status = self.cache.get(ck)
        how, reason = "cache", ""
        if status is not None:
            s.cache_hits += 1
            reason = self._reasons.get(ck, "the verdict of an earlier check of the same two statements (cache)")
        else:
            s.checks += 1
            how = "engine"
            try:
                if self.checker is not None:
                    verdict = self.checker(a.statement, b.statement, self.relation, self.timeout)
                    s.solver_calls += _solver_calls(verdict)
                else:
                    verdict = self._engine_check(a, b, deadline)
                status = _status(verdict)
                reason = str(getattr(verdict, "reason", "") or "")
            except Exception as e:  # noqa: BLE001 - an engine failure is an inconclusive pair, never a crash
                log.warning("check of candidates %d and %d failed", a.index, b.index, exc_info=True)
                status = VerdictStatus.INCONCLUSIVE
                reason = f"check error: {type(e).__name__}: {e}"
                b.flags.append(f"check_error with {a.index}: {type(e).__name__}: {e}")
            if not (deadline is not None and deadline.expired()):
                self.cache[ck] = status  # a pair cut short by this problem's budget is not a verdict to reuse
                self._reasons[ck] = reason
        self.decisions.append(PairDecision(a.index, b.index, how, status, reason))
        if status == VerdictStatus.EQUIVALENT:
            s.equivalent += 1
            return True
        if status == VerdictStatus.INEQUIVALENT:
            s.inequivalent += 1
        else:
            s.inconclusive += 1
        return False


def describe(c: Candidate | Statement, relation: str, fingerprints: bool = True,
             deadline: Deadline | None = None) -> Candidate:
    """Fill in a parsed candidate's profile and canonical key (a bare ``Statement`` is wrapped
    first); the fingerprint stops evaluating at ``deadline``. A statement the engine cannot
    normalize keeps the alpha-canonical key of its IR and no profile, flagged."""
    if isinstance(c, Statement):
        c = Candidate(0, c.source, statement=c)
    assert c.statement is not None
    try:
        c.profile = Profile.of(c.statement, relation, fingerprints=fingerprints, deadline=deadline)
    except (IRError, RecursionError, ValueError) as e:
        log.warning("candidate %d: no profile: %s: %s", c.index, type(e).__name__, e)
        c.flags.append(f"profile failed: {type(e).__name__}: {e}")
        c.key = "ir:" + c.statement.canonical_key()
        return c
    c.key = c.profile.key
    c.flags.extend(c.profile.notes)
    return c


def separated(a: Candidate, b: Candidate) -> str | None:
    """``"signature"`` / ``"fingerprint"``: the engine's own screen (``Profile.separation``)
    rules the pair out without a solver; ``"truth"``: the truth checks (``check_truth``)
    proved one statement and refuted the other; None: only the engine can tell."""
    if a.holds is not None and b.holds is not None and a.holds != b.holds:
        return "truth"
    if a.profile is None or b.profile is None:
        return None
    sep = a.profile.separation(b.profile)
    return None if sep is None else sep.how


def truth_reason(a: Candidate, b: Candidate) -> str:
    """Why two statements of different truth are inequivalent under every relation: each
    relation's equivalence (one alignment of premises and conclusions, the same answers
    under the same premises, or the statements themselves) carries one's truth to the
    other, so a proved statement is never equivalent to one with a validated countermodel."""
    proved, refuted = (a, b) if a.holds else (b, a)
    return (f"truth values differ: candidate {proved.index} is proved, candidate {refuted.index} "
            "refuted by a countermodel the exact evaluator validated")


def cluster(
    candidates: list[str | Statement],
    relation: str = "symbolic",
    language: str = "lean4",
    timeout: float = 5.0,
    **options: Any,
) -> Clusterer:
    """One-shot clustering: a :class:`Clusterer` with every candidate added in order."""
    c = Clusterer(relation, language, timeout, **options)
    c.extend(list(candidates))
    return c
