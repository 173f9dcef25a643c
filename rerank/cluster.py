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
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, MutableMapping
from dataclasses import asdict, dataclass, field
from typing import Any

from provers.errors import ParseError
from provers.ir import Statement

__all__ = [
    "RELATIONS",
    "Candidate",
    "ClusterStats",
    "Clusterer",
    "UnionFind",
    "cluster",
]

RELATIONS = ("symbolic", "sae", "logical", "syntactic")

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
    signature: Hashable | None = None
    fingerprint: Hashable | None = None
    vacuous: bool | None = None
    flags: list[str] = field(default_factory=list)

    @property
    def parsed(self) -> bool:
        return self.statement is not None


@dataclass
class ClusterStats:
    """What clustering cost, against the k(k-1)/2 checks of the naive all-pairs method.

    ``checks`` counts calls to the equivalence engine (each may run several solver calls);
    ``solver_calls`` sums the backend calls the verdicts report (equal to ``checks`` when a
    verdict does not say).  The other counters are pairs settled without the engine.
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
    merges: int = 0

    @property
    def ratio_to_naive(self) -> float:
        """Engine checks as a fraction of the naive method's (NaN when k < 2)."""
        return self.checks / self.naive_pairs if self.naive_pairs else math.nan

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["ratio_to_naive"] = None if math.isnan(self.ratio_to_naive) else self.ratio_to_naive
        return d


def _default_checker(a: Statement, b: Statement, relation: str, timeout: float) -> Any:
    from provers.equivalence import check_equivalence

    return check_equivalence(a, b, relation=relation, timeout=timeout)


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
        cache: MutableMapping[Hashable, str] | None = None,
        checker: Checker | None = None,
    ) -> None:
        if relation not in RELATIONS:
            raise ValueError(f"relation must be one of {RELATIONS}, got {relation!r}")
        if not timeout > 0:
            raise ValueError(f"timeout must be > 0, got {timeout}")
        self.relation = relation
        self.language = language
        self.timeout = float(timeout)
        self.fingerprints = fingerprints
        self.check_vacuous = check_vacuous
        self.cache: MutableMapping[Hashable, str] = {} if cache is None else cache
        self.checker = checker or _default_checker
        self.candidates: list[Candidate] = []
        self.stats = ClusterStats()
        self._uf = UnionFind()

    # ------------------------------------------------------------------ adding

    def add(self, candidate: str | Statement) -> int:
        """Parse ``candidate``, merge it into the class it provably belongs to, return its index."""
        i = self._uf.add()
        c = self._prepare(i, candidate)
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
            if self._same(rep, c):
                self._uf.union(root, i)
                self.stats.merges += 1
                break
        return i

    def extend(self, candidates: list[str | Statement]) -> list[int]:
        return [self.add(c) for c in candidates]

    # ------------------------------------------------------------------ reading

    @property
    def classes(self) -> list[list[int]]:
        """Classes as lists of candidate indices, each sorted, ordered by lowest member."""
        return self._uf.groups()

    def class_of(self, i: int) -> list[int]:
        root = self._uf.find(i)
        return [j for j in range(len(self.candidates)) if self._uf.find(j) == root]

    @property
    def errors(self) -> list[str | None]:
        return [c.error for c in self.candidates]

    # ------------------------------------------------------------------ internals

    def _prepare(self, i: int, candidate: str | Statement) -> Candidate:
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
        c.key = canonical_form(c.statement)
        if self.relation != "syntactic":
            c.signature = _signature(c.statement, self.relation)
            if self.fingerprints:
                c.fingerprint = _fingerprint(c.statement, self.relation)
        if self.check_vacuous:
            c.vacuous = self._vacuous(c.statement)
            if c.vacuous:
                c.flags.append("vacuous")
        return c

    def _vacuous(self, st: Statement) -> bool | None:
        if not st.hypotheses:
            return False
        try:
            from provers.equivalence import vacuous
        except ImportError:
            return None
        self.stats.vacuity_checks += 1
        try:
            out = vacuous(st)
        except Exception:
            return None
        if isinstance(out, bool):
            return out
        status = getattr(out, "status", None)
        if status is not None:
            return status in ("proved", "vacuous", True)
        return None

    def _roots_by_size(self, exclude: int) -> list[int]:
        roots: dict[int, int] = {}
        for j in range(len(self.candidates)):
            if j == exclude:
                continue
            r = self._uf.find(j)
            roots.setdefault(r, j)  # first (lowest) member
        return sorted(roots, key=lambda r: (-self._uf.size[r], roots[r]))

    def _representative(self, root: int) -> int:
        """The lowest-index member of ``root``'s class (a parsed one if any)."""
        members = [j for j in range(len(self.candidates)) if self._uf.find(j) == root]
        for j in members:
            if self.candidates[j].parsed:
                return j
        return members[0]

    def _same(self, a: Candidate, b: Candidate) -> bool:
        """Whether ``a`` and ``b`` are provably equivalent; counts how it was decided."""
        s = self.stats
        if a.key is not None and a.key == b.key:
            s.syntactic_hits += 1
            return True
        if self.relation == "syntactic":
            s.inequivalent += 1
            return False
        if a.signature != b.signature:
            s.signature_skips += 1
            return False
        if a.fingerprint is not None and b.fingerprint is not None and a.fingerprint != b.fingerprint:
            s.fingerprint_skips += 1
            return False
        ck = (self.relation, *sorted((a.key or f"#{a.index}", b.key or f"#{b.index}")))
        status = self.cache.get(ck)
        if status is not None:
            s.cache_hits += 1
        else:
            s.checks += 1
            try:
                verdict = self.checker(a.statement, b.statement, self.relation, self.timeout)
                status = _status(verdict)
                s.solver_calls += _solver_calls(verdict)
            except Exception as e:  # an engine failure is an inconclusive pair, never a crash
                status = "inconclusive"
                b.flags.append(f"check_error with {a.index}: {type(e).__name__}: {e}")
            self.cache[ck] = status
        if status == "equivalent":
            s.equivalent += 1
            return True
        if status == "inequivalent":
            s.inequivalent += 1
        else:
            s.inconclusive += 1
        return False


def canonical_form(st: Statement) -> str:
    """A key equal for statements that differ only by renaming, ``>``/``<`` flips, the order
    of commutative arguments and of premises: such statements are equivalent under every
    relation, so equal keys merge without a solver and key the verdict cache."""
    try:
        from provers.normal import normalize
        from provers.relations import canon_key
    except ImportError:  # engine not installed: alpha-canonical form of the IR
        return "ir:" + st.canonical_key()
    try:
        nf = normalize(st)
        inst = sorted(repr(i) for i in nf.instances)
        types = [str(v.sort) for v in nf.types]
        return "nf:" + repr((canon_key(nf.closed()), inst, types))
    except Exception:
        return "ir:" + st.canonical_key()


def _signature(st: Statement, relation: str) -> Hashable | None:
    """A structural signature two equivalent statements must share, or None (no bucketing)."""
    try:
        from provers.equivalence import signature
    except ImportError:
        return None
    try:
        return signature(st, relation)
    except Exception:
        return None


def _fingerprint(st: Statement, relation: str) -> Hashable | None:
    """Truth values on sampled assignments (provers.evaluate), or None when not available."""
    try:
        from provers.evaluate import fingerprint
    except ImportError:
        return None
    try:
        return fingerprint(st, relation)
    except Exception:
        return None


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
