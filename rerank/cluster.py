"""Equivalence classes of k candidates, with as few equivalence checks as possible.

The naive method checks all k(k-1)/2 pairs.  :class:`Clusterer` adds candidates one at a
time (the same code serves one-shot calls and generation loops) and, for each new one:

1. parses it; a candidate that does not parse is a singleton class that keeps its error;
2. compares it only with class *representatives* (a union-find holds the classes, so a pair
   that is already connected is never checked), largest class first, and stops at the
   first class it provably joins;
3. skips, without a solver, every representative whose structural *signature* or
   *fingerprint* differs (those pairs cannot be equivalent under the relation);
4. answers identical canonical forms without a solver, and looks every other pair up in a
   verdict cache keyed by canonical forms before asking the engine.

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

import math
import time
from collections.abc import Callable, Hashable, MutableMapping
from dataclasses import asdict, dataclass, field
from typing import Any

from provers.deadline import Deadline, DeadlineExceeded, check_seconds
from provers.errors import ParseError
from provers.ir import Statement

__all__ = [
    "RELATIONS",
    "Candidate",
    "ClusterStats",
    "Clusterer",
    "PairDecision",
    "UnionFind",
    "cluster",
]

RELATIONS = ("symbolic", "sae", "logical", "syntactic")

#: Seconds for one vacuity check: contradictory premises are usually easy to refute, and
#: this check runs once per candidate with premises, so it gets a shorter budget.
VACUITY_TIMEOUT = 2.0

#: Flag of a candidate whose comparisons were skipped because the problem's budget was spent.
BUDGET_FLAG = "unchecked: problem time budget spent"

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
    """One candidate as the clusterer sees it."""

    index: int
    text: str
    statement: Statement | None = None
    error: str | None = None
    key: str | None = None
    signature: Signature | None = None
    fingerprint: tuple | None = None
    vacuous: bool | None = None
    holds: bool | None = None
    flags: list[str] = field(default_factory=list)

    @property
    def parsed(self) -> bool:
        return self.statement is not None


@dataclass
class ClusterStats:
    """What clustering cost, against the k(k-1)/2 checks of the naive all-pairs method.

    ``checks`` counts calls to the equivalence engine; ``solver_calls`` the backend (SMT)
    calls they made (the engine refutes many pairs by exact fingerprints with none).
    ``vacuity_checks``/``vacuity_solver_calls``: the separate per-candidate vacuity test.
    ``budget_skips``: pairs left unchecked because the problem's time budget was spent.
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
    unparsed_skips: int = 0
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


class CountingBackend:
    """Delegates to a prover backend and counts the calls (the honest "solver calls")."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = getattr(inner, "name", "backend")
        self.calls = 0

    def prove(self, obligation: Any, timeout: float = 5.0) -> Any:
        self.calls += 1
        return self.inner.prove(obligation, timeout=timeout)


_BACKEND: list[Any] = []


def default_backend() -> Any:
    """The engine's default backend (SMT portfolio), created once per process."""
    if not _BACKEND:
        try:
            from provers.engine.equivalence import default_backend as make
        except ImportError:
            return None
        _BACKEND.append(make())
    return _BACKEND[0]


def _status(verdict: Any) -> str:
    status = getattr(verdict, "status", verdict)
    status = getattr(status, "value", status)  # an Enum status
    if status not in ("equivalent", "inequivalent", "inconclusive"):
        raise ValueError(f"equivalence checker returned an unknown status {status!r}")
    return str(status)


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
        check_truth: bool = False,
        cache: MutableMapping[Hashable, str] | None = None,
        checker: Checker | None = None,
        backend: Any = None,
        problem_timeout: float | None = None,
    ) -> None:
        """``backend``: the prover backend (default: the process-wide SMT portfolio, whose
        verdict cache is shared across problems); pass a fresh one to isolate a run.
        ``problem_timeout``: seconds of engine time for the whole problem (None: no limit
        beyond the per-check budgets). ``check_truth``: also ask whether each candidate holds
        outright (``holds``: True proved, False refuted by a validated countermodel, None
        undecided); a false statement is never a faithful formalization of a true problem."""
        if relation not in RELATIONS:
            raise ValueError(f"relation must be one of {RELATIONS}, got {relation!r}")
        self.relation = relation
        self.language = language
        self.timeout = check_seconds("timeout", timeout)
        self.problem_timeout = None if problem_timeout is None else check_seconds("problem_timeout", problem_timeout)
        self.spent = 0.0  # engine seconds used so far (counted against problem_timeout)
        self.fingerprints = fingerprints
        self.check_vacuous = check_vacuous
        self.check_truth = check_truth
        self.cache: MutableMapping[Hashable, str] = {} if cache is None else cache
        self.checker = checker
        self._backend: CountingBackend | None = None if backend is None else CountingBackend(backend)
        self.candidates: list[Candidate] = []
        self.decisions: list[PairDecision] = []
        self.stats = ClusterStats()
        self._uf = UnionFind()
        self._members: dict[int, list[int]] = {}  # root -> its class, sorted

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
        if not c.parsed:
            self.stats.unparsed_skips += i  # pairs with every earlier candidate
            return i
        for root in self._roots_by_size(exclude=i):
            rep = self.candidates[self._representative(root)]
            if not rep.parsed:
                self.stats.unparsed_skips += 1
                continue
            identical = rep.key is not None and rep.key == c.key  # merges without the engine
            if deadline is not None and deadline.expired() and not identical:
                self.stats.budget_skips += 1
                if BUDGET_FLAG not in c.flags:
                    c.flags.append(BUDGET_FLAG)
                continue
            if self._same(rep, c, deadline):
                joined = self._members.pop(root) + self._members.pop(i)
                self._members[self._uf.union(root, i)] = sorted(joined)
                self.stats.merges += 1
                break
        return i

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
            try:
                import provers

                c.statement = provers.parse(candidate, self.language)
            except ParseError as e:
                c.error = f"parse error: {e}"
                c.flags.append("parse_error")
            except ImportError as e:
                c.error = f"no {self.language} frontend available: {e}"
                c.flags.append("parse_error")
            except RecursionError:
                c.error = "parse error: statement nested too deeply"
                c.flags.append("parse_error")
            except Exception as e:  # a frontend bug must not crash the problem
                c.error = f"internal parser error ({type(e).__name__}): {e}"
                c.flags.append("parse_error")
        else:
            c = Candidate(i, repr(candidate))
            c.error = f"candidate must be a string or Statement, got {type(candidate).__name__}"
            c.flags.append("parse_error")
        if c.statement is None:
            return c
        # the fingerprint is bounded by the evaluator's step budget and the problem's deadline,
        # not by a wall-clock of its own: classes and statistics must not depend on the load
        describe(c, self.relation, self.fingerprints, deadline)
        if self.check_vacuous:
            c.vacuous = self._vacuous(c.statement, deadline)
            if c.vacuous:
                c.flags.append("vacuous")
        if self.check_truth:
            c.holds = self._holds(c.statement, deadline)
            if c.holds is False:
                c.flags.append("refuted")
        return c

    def _counting_backend(self) -> CountingBackend | None:
        if self._backend is None:
            inner = default_backend()
            if inner is None:
                return None
            self._backend = CountingBackend(inner)
        return self._backend

    def _engine_check(self, a: Statement, b: Statement, deadline: Deadline | None) -> Any:
        from provers.engine.equivalence import check_equivalence

        # the syntactic relation never calls a solver: do not start one for it
        backend = None if self.relation == "syntactic" else self._counting_backend()
        before = backend.calls if backend is not None else 0
        try:
            return check_equivalence(
                a, b, relation=self.relation, timeout=self.timeout, backend=backend,
                deadline=deadline,
            )
        finally:
            if backend is not None:
                self.stats.solver_calls += backend.calls - before

    def _vacuous(self, st: Statement, deadline: Deadline | None = None) -> bool | None:
        """True: premises prove False; False: a model of the premises exists (or there are
        no premises); None: undecided."""
        if not any(h.style != "instance" for h in st.hypotheses) and not st.defines:
            return False
        if deadline is not None and deadline.expired():
            return None
        try:
            from provers.engine.equivalence import vacuous
        except ImportError:
            return None
        self.stats.vacuity_checks += 1
        backend = self._counting_backend()
        before = backend.calls if backend is not None else 0
        try:
            out = vacuous(st, timeout=min(self.timeout, VACUITY_TIMEOUT), backend=backend, deadline=deadline)
        except Exception:
            return None
        finally:
            if backend is not None:
                self.stats.vacuity_solver_calls += backend.calls - before
        status = getattr(out, "status", None)
        return {"proved": True, "refuted": False}.get(status)

    def _holds(self, st: Statement, deadline: Deadline | None = None) -> bool | None:
        """True: the whole statement ⊢ ∀x̄. ⋀Γ → C was proved; False: refuted by a validated
        countermodel; None: undecided."""
        if deadline is not None and deadline.expired():
            return None
        from provers.engine.equivalence import provable

        self.stats.truth_checks += 1
        backend = self._counting_backend()
        before = backend.calls if backend is not None else 0
        try:
            out = provable(st, timeout=min(self.timeout, VACUITY_TIMEOUT), backend=backend, deadline=deadline)
        except Exception:
            return None
        finally:
            if backend is not None:
                self.stats.truth_solver_calls += backend.calls - before
        return {"proved": True, "refuted": False}.get(getattr(out, "status", None))

    def _roots_by_size(self, exclude: int) -> list[int]:
        """Class roots, largest class first, ties by lowest member."""
        roots = [r for r in self._members if r != exclude]
        return sorted(roots, key=lambda r: (-len(self._members[r]), self._members[r][0]))

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
            self.decisions.append(PairDecision(a.index, b.index, "syntactic", "equivalent"))
            return True
        why = separated(a, b)
        if why is not None:
            if why == "signature":
                s.signature_skips += 1
            else:
                s.fingerprint_skips += 1
            self.decisions.append(PairDecision(a.index, b.index, why, "inequivalent"))
            return False
        ck = (self.relation, self.timeout, *sorted((a.key or f"#{a.index}", b.key or f"#{b.index}")))
        status = self.cache.get(ck)
        how, reason = "cache", ""
        if status is not None:
            s.cache_hits += 1
        else:
            s.checks += 1
            how = "engine"
            try:
                if self.checker is not None:
                    verdict = self.checker(a.statement, b.statement, self.relation, self.timeout)
                    s.solver_calls += _solver_calls(verdict)
                else:
                    verdict = self._engine_check(a.statement, b.statement, deadline)
                status = _status(verdict)
                reason = str(getattr(verdict, "reason", "") or "")
            except Exception as e:  # an engine failure is an inconclusive pair, never a crash
                status = "inconclusive"
                reason = f"check error: {type(e).__name__}: {e}"
                b.flags.append(f"check_error with {a.index}: {type(e).__name__}: {e}")
            if not (deadline is not None and deadline.expired()):
                self.cache[ck] = status  # a pair cut short by this problem's budget is not a verdict to reuse
        self.decisions.append(PairDecision(a.index, b.index, how, status, reason))
        if status == "equivalent":
            s.equivalent += 1
            return True
        if status == "inequivalent":
            s.inequivalent += 1
        else:
            s.inconclusive += 1
        return False


def describe(c: Candidate | Statement, relation: str, fingerprints: bool = True, deadline: Deadline | None = None) -> Candidate:
    """Fill in a parsed candidate's canonical form, signature and fingerprint (a bare
    ``Statement`` is wrapped first); the fingerprint stops evaluating at ``deadline``."""
    if isinstance(c, Statement):
        c = Candidate(0, c.source, statement=c)
    assert c.statement is not None
    c.key = canonical_form(c.statement)
    c.signature = signature(c.statement, relation)
    if fingerprints:
        c.fingerprint = fingerprint(c.statement, relation, deadline=deadline)
    return c


def canonical_form(st: Statement) -> str:
    """A key equal for statements that differ only by renaming, ``>``/``<`` flips, the order
    of commutative arguments and of premises: such statements are equivalent under every
    relation, so equal keys merge without a solver and key the verdict cache."""
    try:
        from provers.engine.normal import normalize
        from provers.engine.relations import canon_key
    except ImportError:  # engine not installed: alpha-canonical form of the IR
        return "ir:" + st.canonical_key()
    try:
        nf = normalize(st)
        inst = sorted(repr(i) for i in nf.instances)
        types = [str(v.sort) for v in nf.types]
        return "nf:" + repr((canon_key(nf.closed()), inst, types))
    except Exception:
        return "ir:" + st.canonical_key()


# ---------------------------------------------------------------------- buckets and fingerprints
#
# Both are computed once per candidate and compared per pair with no solver.  They are
# deliberately coarser than the engine's own checks (``provers.engine.equivalence._decide``), so a
# pair they separate is one the engine would also rule out:
# * type-variable and instance-binder counts must match (``match_types``);
# * an admissible alignment preserves the quantifier blocks and the multiset of (block,
#   sort) of the variables (``provers.engine.align.admissible_matrix``; unused variables dropped
#   first for ``symbolic``); ``sae`` also needs premises on both sides or on neither;
# * ``symbolic`` can also match through the numeric-conclusion route, which needs no
#   alignment but equal sorts of the standardized value and answer;
# * fingerprints evaluate ⋀Γ and C exactly at "diagonal" points, where every variable of a
#   sort takes that sort's value: such a point is fixed by every sort-preserving alignment,
#   so a difference refutes ⊢ ∀x̄. ⋀Γ ↔ ⋀Γ' (or C ↔ C') under all alignments at once.


@dataclass(frozen=True)
class Signature:
    base: tuple[int, int]
    aligned: tuple
    route: tuple[str, str] | None = None


def _shape(s: Any) -> str:
    """A sort with carrier names erased (type variables may be renamed by the engine)."""
    from provers.ir import FunSort, ListSort, OpaqueSort, SetSort

    if isinstance(s, OpaqueSort):
        return "?"
    if isinstance(s, FunSort):
        return "(" + ",".join(_shape(a) for a in s.args) + ")->" + _shape(s.result)
    if isinstance(s, SetSort):
        return f"Set({_shape(s.elem)})"
    if isinstance(s, ListSort):
        return f"List({_shape(s.elem)})"
    return str(s)


def _form(st: Statement, relation: str) -> Any:
    from provers.engine.align import drop_unused
    from provers.engine.normal import normalize

    nf = normalize(st)
    return drop_unused(nf) if relation == "symbolic" else nf


def signature(st: Statement, relation: str) -> Signature | None:
    """What two statements must share to be equivalent under ``relation`` (None: no bucket)."""
    if relation == "logical":
        return None
    try:
        from collections import Counter

        from provers.engine.relations import standardize

        nf = _form(st, relation)
        blocks = nf.blocks()
        where = {v: i for i, (_, vs) in enumerate(blocks) for v in vs}
        counts = Counter((where[v], _shape(v.sort)) for v in nf.variables)
        aligned: tuple = (tuple(k for k, _ in blocks), tuple(sorted(counts.items())))
        if relation in ("sae", "syntactic"):
            aligned += (bool(nf.premises),)
        route = None
        if relation == "symbolic":
            std = standardize(nf)
            if std is not None:
                route = (_shape(std[0].sort), _shape(std[2].sort))
        return Signature((len(nf.types), len(nf.instances)), aligned, route)
    except Exception:  # engine not installed or an odd statement: no bucketing
        return None


def _diagonal_points(sorts: list[Any], n: int) -> list[dict[str, Any]]:
    """Point j gives every sort its own value, the same in every statement."""
    import zlib

    from provers.ir import Var
    from provers.semantics import sample_assignments

    per_sort = {}
    for s in sorts:
        seed = zlib.crc32(str(s).encode())
        per_sort[s] = [p["_d"] for p in sample_assignments([Var("_d", s)], n, seed)]
    return [{str(s): per_sort[s][j] for s in sorts} for j in range(n)]


FINGERPRINT_POINTS = 16


@dataclass(frozen=True)
class Fingerprint:
    """``diagonal``: (⋀Γ, C) truth values at the diagonal points; ``answers``: for the
    symbolic value route, the truth of the answer predicate ``α ⋈ c`` by value of α."""

    diagonal: tuple | None
    answers: tuple | None = None


def fingerprint(st: Statement, relation: str, points: int = FINGERPRINT_POINTS, deadline: Deadline | None = None) -> Fingerprint | None:
    """Exact truth values at diagonal points (None where undecided, and at every point left
    when ``deadline`` passes); None when not applicable (``logical``/``syntactic``, carrier
    sorts, no evaluator)."""
    if relation in ("logical", "syntactic"):
        return None
    try:
        from provers.semantics import truth

        nf = _form(st, relation)
    except Exception:
        return None
    diagonal: tuple | None = None
    try:
        sorts = sorted({v.sort for v in nf.variables}, key=str)
        if not any("?" in _shape(s) for s in sorts):
            prem, concl = nf.premise(), nf.conclusion
            out = []
            for diag in _diagonal_points(sorts, points):
                env = {v.name: diag[str(v.sort)] for v in nf.variables}
                out.append((_truth(truth, prem, env, deadline), _truth(truth, concl, env, deadline)))
            diagonal = tuple(out)
    except Exception:
        diagonal = None
    answers = _answers(nf, points, deadline) if relation == "symbolic" else None
    return Fingerprint(diagonal, answers)


def _answers(nf: Any, points: int, deadline: Deadline | None = None) -> tuple | None:
    """``((value of α, truth of α ⋈ c), ...)`` at shared sample values of α's sort and at
    c - 1, c, c + 1 (where the predicates of different answers part)."""
    try:
        from fractions import Fraction

        from provers.engine.relations import standardize
        from provers.ir import NAT, Var, app
        from provers.semantics import evaluate, truth

        std = standardize(nf)
        if std is None:
            return None
        lhs, op, c = std
        alpha = Var("_alpha", lhs.sort)
        pred = app(op, alpha, c)
        values = [d[str(lhs.sort)] for d in _diagonal_points([lhs.sort], points)]
        try:
            cv = evaluate(c, {}, deadline)
        except DeadlineExceeded:
            return None
        if isinstance(cv, (int, Fraction)) and not isinstance(cv, bool):
            for d in (0, 1, -1):
                values.append(cv + d)
        out = {}
        for v in values:
            if not isinstance(v, (int, Fraction)) or isinstance(v, bool) or v in out:
                continue
            if lhs.sort == NAT and (v < 0 or not isinstance(v, int)):
                continue
            out[v] = _truth(truth, pred, {"_alpha": v}, deadline)
        return tuple(sorted(out.items()))
    except Exception:
        return None


def _truth(truth: Callable[..., Any], t: Any, env: dict[str, Any], deadline: Deadline | None = None) -> bool | None:
    """Exact truth value, None when undecided (or the deadline passed: unknown, never false)."""
    if deadline is not None and deadline.expired():
        return None
    try:
        v = truth(t, env, deadline)
    except Exception:
        return None
    return v if isinstance(v, bool) else None


def _differ(a: tuple | None, b: tuple | None) -> bool:
    if a is None or b is None or len(a) != len(b):
        return False
    for (pa, ca), (pb, cb) in zip(a, b, strict=True):
        if pa is not None and pb is not None and pa != pb:
            return True
        if ca is not None and cb is not None and ca != cb:
            return True
    return False


def _answers_differ(a: tuple | None, b: tuple | None) -> bool:
    if a is None or b is None:
        return False
    da = dict(a)
    return any(v in da and da[v] is not None and t is not None and da[v] != t for v, t in b)


def separated(a: Candidate, b: Candidate) -> str | None:
    """Why ``a`` and ``b`` cannot be equivalent (``"signature"`` / ``"fingerprint"``), or None.

    The aligned route is closed by a signature mismatch or a diagonal fingerprint
    difference; the symbolic value route (when both standardize) by different value
    sorts or an answer value where the two answer predicates disagree.
    """
    sa, sb = a.signature, b.signature
    if sa is None or sb is None:
        return None
    if sa.base != sb.base:
        return "signature"
    fa, fb = a.fingerprint, b.fingerprint
    aligned_sig_ok = sa.aligned == sb.aligned
    aligned_fp_ok = not (fa is not None and fb is not None and _differ(fa.diagonal, fb.diagonal))
    route_sig_ok = sa.route is not None and sa.route == sb.route
    route_fp_ok = not (fa is not None and fb is not None and _answers_differ(fa.answers, fb.answers))
    if (aligned_sig_ok and aligned_fp_ok) or (route_sig_ok and route_fp_ok):
        return None
    if not aligned_sig_ok and not route_sig_ok:
        return "signature"
    return "fingerprint"


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
