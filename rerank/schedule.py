"""Anytime clustering: a time budget per problem, spent on the checks that matter most.

:class:`AnytimeClusterer` is a :class:`rerank.cluster.Clusterer` whose ``add`` does only the
cheap work (parse, canonical form, signature, fingerprint); the engine runs when the classes
are asked for (:meth:`AnytimeClusterer.resolve`), in three stages, until the budget is spent:

1. **Priority checks.** Candidates with identical canonical forms are one class from the
   start. Pairs of class *representatives* are checked in :func:`pair_priority` order:
   pairs that involve the largest class first (merging into the largest class is what moves
   the top-n), pairs the screens separate never. Verdicts go to the verdict cache.
2. **Replay.** The plain clusterer's loop runs over the candidates in order, exactly as
   without a budget, reading verdicts from the cache; a pair missing from it is checked
   while budget remains, and once the budget is spent it is left *undecided*: recorded as a
   :class:`rerank.cluster.PairDecision` with ``how="budget"`` and status ``inconclusive``, and
   the candidate is flagged :data:`UNDECIDED_FLAG`. The replay makes the result with a large
   enough budget identical to the result without one, and a cut-short run a prefix of it: a
   decided pair always has the verdict it has without a budget (the same check), only fewer
   pairs are decided.
3. **Per-candidate tests** (vacuity, truth) for members of the largest classes first.

Sound as the plain clusterer: only an ``equivalent`` verdict (or identical canonical forms)
merges. Deterministic given the same verdicts: the order depends only on the pool, never on
the clock; the clock only says where the work stops.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from itertools import combinations
from typing import Any

from provers.deadline import Deadline
from provers.ir import Statement
from rerank.cluster import Candidate, Clusterer, ClusterStats, PairDecision, UnionFind, separated

__all__ = ["UNDECIDED_FLAG", "AnytimeClusterer", "check_budget", "pair_priority"]

UNDECIDED_FLAG = "undecided: budget spent"
"""Flag of a candidate with a comparison left unchecked because the budget was spent."""

#: Counters of real work, kept across replays (the others describe the replayed result).
_WORK = ("checks", "solver_calls", "vacuity_checks", "vacuity_solver_calls", "truth_checks",
         "truth_solver_calls")


def check_budget(value: object) -> float:
    """``value`` as seconds ≥ 0 (``math.inf``: no limit, but the anytime order), else ValueError."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value) or value < 0:
        raise ValueError(f"budget must be a number of seconds ≥ 0, got {value!r}")
    return float(value)


def pair_priority(a: int, b: int, size: dict[int, int]) -> tuple[int, int, int, int]:
    """Sort key of a pair of class representatives (smaller first): the pair whose larger
    class is largest, then whose smaller class is largest, then by index (deterministic)."""
    big, small = max(size[a], size[b]), min(size[a], size[b])
    return (-big, -small, min(a, b), max(a, b))


class AnytimeClusterer(Clusterer):
    """A clusterer that stops when ``budget`` seconds of work are spent (see module doc).

    ``clock``: the time source the budget is measured with (``time.monotonic``; tests pass
    a counter to make "spent" a number of checks). ``undecided``: pairs the last
    :meth:`resolve` left unchecked; ``tests_skipped``: candidates whose vacuity or truth test
    did not run; ``complete``: neither happened.
    """

    def __init__(self, *args: Any, budget: float, clock: Callable[[], float] = time.monotonic,
                 **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.budget = check_budget(budget)
        self.clock = clock
        self._tests = (self.check_vacuous, self.check_truth)
        self._tested: set[int] = set()
        self._dirty = False
        self._since: float | None = None  # clock() when the current add / resolve began
        self.undecided: list[tuple[int, int]] = []
        self.tests_skipped = 0

    # ------------------------------------------------------------------ budget

    def _left(self) -> float:
        limit = self.budget if self.problem_timeout is None else min(self.budget, self.problem_timeout)
        running = 0.0 if self._since is None else self.clock() - self._since
        return limit - self.spent - running

    def _expired(self) -> bool:
        return self._left() <= 0

    def _deadline(self) -> Deadline | None:
        """The engine's deadline for what is left (engine code reads ``time.monotonic``)."""
        left = self._left()
        return None if left == math.inf else Deadline(time.monotonic() + max(left, 0.0))

    def _start(self) -> None:
        self._since = self.clock()

    def _stop(self) -> None:
        if self._since is not None:
            self.spent += self.clock() - self._since
            self._since = None

    @property
    def complete(self) -> bool:
        return not self.undecided and not self.tests_skipped

    # ------------------------------------------------------------------ adding

    def add(self, candidate: str | Statement) -> int:
        """Parse and screen ``candidate`` (no engine check yet); return its index."""
        self._start()
        try:
            i = self._uf.add()
            self._members[i] = [i]
            saved = (self.check_vacuous, self.check_truth)
            self.check_vacuous = self.check_truth = False  # run in resolve(), within the budget
            try:
                c = self._prepare(i, candidate, self._deadline())
            finally:
                self.check_vacuous, self.check_truth = saved
            self.candidates.append(c)
            k = len(self.candidates)
            self.stats.k, self.stats.naive_pairs = k, k * (k - 1) // 2
            self._dirty = True
            return i
        finally:
            self._stop()

    def resolve(self) -> None:
        """Spend what is left of the budget on the stages of the module doc (idempotent)."""
        if not self._dirty:
            return
        self._dirty = False
        self._start()
        try:
            self._priority_checks()
            self._replay()
            self._candidate_tests()
        finally:
            self._stop()

    # ------------------------------------------------------------------ stages

    def _cached(self, a: Candidate, b: Candidate) -> str | None:
        ck = (self.relation, self.timeout, *sorted((a.key or f"#{a.index}", b.key or f"#{b.index}")))
        return self.cache.get(ck)

    def _check(self, a: Candidate, b: Candidate) -> bool:
        return self._same(a, b, self._deadline())

    def _priority_checks(self) -> None:
        cands = self.candidates
        uf = UnionFind()
        by_key: dict[str, int] = {}
        for c in cands:
            uf.add()
            if c.compared and c.key is not None:
                uf.union(by_key.setdefault(c.key, c.index), c.index)
        tried: set[tuple[int, int]] = set()
        while not self._expired():
            groups = [g for g in uf.groups() if cands[g[0]].compared]
            size = {g[0]: len(g) for g in groups}
            open_pairs = []
            for a, b in combinations(sorted(size), 2):
                if (a, b) in tried:
                    continue
                known = "separated" if separated(cands[a], cands[b]) else self._cached(cands[a], cands[b])
                if known is None:
                    open_pairs.append((a, b))
                    continue
                tried.add((a, b))  # settled by a screen or by earlier work: free
                if known == "equivalent":
                    uf.union(a, b)
                    break  # the classes changed: recompute the pairs
            else:
                if not open_pairs:
                    return
                a, b = min(open_pairs, key=lambda p: pair_priority(p[0], p[1], size))
                tried.add((a, b))
                if self._check(cands[a], cands[b]):
                    uf.union(a, b)

    def _replay(self) -> None:
        """The plain clusterer's loop over every candidate, verdicts from the cache; a pair
        not in it is checked while budget remains, else left undecided."""
        work = {name: getattr(self.stats, name) for name in _WORK}
        self.stats = ClusterStats(k=self.stats.k, naive_pairs=self.stats.naive_pairs, **work)
        self._uf = UnionFind()
        self._members = {}
        self.decisions = []
        self.undecided = []
        for c in self.candidates:
            if UNDECIDED_FLAG in c.flags:
                c.flags.remove(UNDECIDED_FLAG)
            i = self._uf.add()
            self._members[i] = [i]
            if not c.compared:
                self._skipped(c, i)
                continue
            if self._join_twin(c):
                continue
            for root in self._roots_in_order(c, exclude=i):
                rep = self.candidates[self._representative(root)]
                if not rep.compared:
                    self._skipped(rep, 1)
                    continue
                free = (rep.key is not None and rep.key == c.key) or separated(rep, c) is not None \
                    or self._cached(rep, c) is not None
                if not free and self._expired():
                    self.stats.budget_skips += 1
                    self.undecided.append((rep.index, c.index))
                    self.decisions.append(PairDecision(rep.index, c.index, "budget", "inconclusive",
                                                       "not checked: budget spent"))
                    if UNDECIDED_FLAG not in c.flags:
                        c.flags.append(UNDECIDED_FLAG)
                    continue
                if self._check(rep, c) if not free else self._same(rep, c):
                    self._merge(root, i)
                    break

    def _candidate_tests(self) -> None:
        """Vacuity / truth tests, members of the largest classes first."""
        want_vacuous, want_truth = self._tests
        if not (want_vacuous or want_truth):
            return
        self.tests_skipped = 0
        order = [i for g in sorted(self._members.values(), key=lambda g: (-len(g), g[0])) for i in g]
        for i in order:
            c = self.candidates[i]
            if i in self._tested or not c.compared:
                continue
            if self._expired():
                self.tests_skipped += 1
                continue
            if want_vacuous:
                c.vacuous = self._vacuous(c, self._deadline())
                if c.vacuous:
                    c.flags.append("vacuous")
            if want_truth:
                c.holds = self._holds(c, self._deadline())
                if c.holds is False:
                    c.flags.append("refuted")
            if self._expired() and (want_vacuous and c.vacuous is None or want_truth and c.holds is None):
                self.tests_skipped += 1  # cut short: may run again if budget is ever added
            else:
                self._tested.add(i)
