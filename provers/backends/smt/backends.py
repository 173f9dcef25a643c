"""z3, cvc5 and the portfolio of both, behind the ``Backend`` contract.

Why: callers (the equivalence engine, the reranker's batch runner) want one call,
``prove(obligation, timeout)``, that answers Proved / Refuted(validated model) / Unknown
within a hard time bound whatever the solvers do. Calls go to the shared worker pool and
through an optional verdict cache.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence

from provers.backends.base import Backend, ProofResult, Proved, Refuted, Unknown, settles
from provers.backends.cache import VerdictCache
from provers.backends.smt.pool import WorkerPool, default_pool
from provers.ir import BOOL, Term

#: Seconds the first solver of a portfolio runs alone before the others start (cheapest
#: first: most obligations are decided by z3 in milliseconds, and a second solver started
#: for them only costs a process's CPU and, when it loses, a restart). Override with the
#: environment variable ``PROVERS_PORTFOLIO_STAGGER`` (benchmarks).
DEFAULT_STAGGER = float(os.environ.get("PROVERS_PORTFOLIO_STAGGER", "0.1"))


class SolverBackend(Backend):
    """Runs the solvers in ``solvers`` concurrently; the first answer that ``settles`` the
    call wins (a proof, a validated countermodel, or a spurious model), and the losers are
    stopped at once (``WorkerPool.stop``)."""

    name = "smt"
    solvers: tuple[str, ...] = ()
    #: the solvers after the first start after this many seconds (``WorkerPool.run``)
    stagger: float = 0.0

    def __init__(self, pool: WorkerPool | None = None, cache: VerdictCache | None = None, use_cache: bool = True):
        self._pool = pool
        self.cache = cache if cache is not None else (VerdictCache() if use_cache else None)

    @property
    def pool(self) -> WorkerPool:
        if self._pool is None:
            self._pool = default_pool()
        return self._pool

    def prove(self, obligation: Term, timeout: float = 5.0) -> ProofResult:
        """Validity of the closed formula ``obligation`` (free variables read as ∀)."""
        if not isinstance(obligation, Term) or obligation.sort != BOOL:
            return Unknown(f"not a formula: {obligation!r}"[:200], self.name)
        if self.cache is not None:
            hit = self.cache.get(obligation, self.name, timeout)
            if hit is not None:
                return hit
        t0 = time.monotonic()
        pool = self.pool
        if len(self.solvers) <= pool.max_workers:
            results = pool.run([(s, obligation, timeout) for s in self.solvers], first_definitive=True,
                               stagger=self.stagger)
        else:  # a pool too small to run the solvers side by side: one after the other
            results = []
            for s in self.solvers:
                results.append(pool.run([(s, obligation, timeout)])[0])
                if settles(results[-1]):
                    break
            results += [None] * (len(self.solvers) - len(results))
        res = combine(results, self.solvers, time.monotonic() - t0)
        if self.cache is not None:
            self.cache.put(obligation, self.name, timeout, res)
        return res

    def prove_many(self, obligations: Sequence[Term], timeout: float = 5.0) -> list[ProofResult]:
        """``prove`` on each obligation; one failing obligation never affects the others."""
        out: list[ProofResult] = []
        for ob in obligations:
            try:
                out.append(self.prove(ob, timeout))
            except Exception as e:  # noqa: BLE001 - contain anything unexpected per item
                out.append(Unknown(f"backend error: {type(e).__name__}: {e}"[:300], self.name))
        return out


def combine(results: list[ProofResult | None], solvers: Sequence[str], elapsed: float) -> ProofResult:
    """First definitive answer; if the solvers contradict each other, Unknown (a bug to report)."""
    proved = [r for r in results if isinstance(r, Proved)]
    refuted = [r for r in results if isinstance(r, Refuted)]
    if proved and refuted:
        return Unknown(
            f"solvers disagree: {proved[0].backend} proved, {refuted[0].backend} refuted with {refuted[0].model}",
            "portfolio", elapsed,
        )
    if refuted:
        return refuted[0]
    if proved:
        return proved[0]
    reasons = "; ".join(f"{s}: {r.reason}" for s, r in zip(solvers, results, strict=False) if isinstance(r, Unknown))
    satisfiable = any(isinstance(r, Unknown) and r.satisfiable for r in results)
    return Unknown(reasons or "no answer", "+".join(solvers), elapsed, satisfiable)


class Z3Backend(SolverBackend):
    name = "z3"
    solvers = ("z3",)


class Cvc5Backend(SolverBackend):
    name = "cvc5"
    solvers = ("cvc5",)


class Portfolio(SolverBackend):
    """z3 and cvc5 in parallel worker processes, z3 first (``DEFAULT_STAGGER``)."""

    name = "portfolio"
    solvers = ("z3", "cvc5")
    stagger = DEFAULT_STAGGER
