"""SMT backends (z3, cvc5, portfolio) with faithful Lean/Isabelle semantics.

Public API (other modules code against these names)::

    from provers.backends.smt import Portfolio, Z3Backend, Cvc5Backend, WorkerPool, VerdictCache
    backend = Portfolio()                       # or Z3Backend(), Cvc5Backend()
    r = backend.prove(obligation, timeout=5.0)  # obligation: closed IR formula (free vars = ∀)
    # r is provers.backends.base.Proved | Refuted(model) | Unknown(reason)
    #   Proved:   the formula is valid (negation unsat) under exact Lean/Isabelle semantics
    #   Refuted:  r.model maps the outer-∀ / free variable names to exact values (int,
    #             Fraction, bool, ExactComplex, frozenset, FunTable for functions; user
    #             uninterpreted symbols by symbol name; "@ln" for Isabelle ln at x ≤ 0);
    #             the exact evaluator has confirmed the body is False under it. When the
    #             model fixes uninterpreted symbols or "@ln", it shows the formula is not
    #             provable, not that it is false for the symbols' intended meaning.
    #   Unknown:  timeout, "unsupported: ...", "spurious model: ...", solver crash
    backend.prove_many(obligations, timeout)    # one result per obligation, never raises
    Portfolio(pool=WorkerPool(max_workers=4, memory_mb=4096), cache=VerdictCache("v.sqlite"))

    from provers.backends.smt import prove
    prove(obligation, timeout=5.0, backend="portfolio")  # shared backend per name ("z3", "cvc5")

    from provers.backends.smt import solve, lower_obligation
    solve("z3", obligation, timeout)            # in-process call (no containment): tests, debugging

Modules: ``core`` (the checked fragment the emitters translate), ``lower`` (IR → core: scopes,
facts, dispatch) with its tables ``rewrites.LOWERING``, ``sets.MEMBERSHIP``,
``complex_pairs.COMPLEX_PARTS`` and the fresh symbols of ``symbols``; ``emit`` (core → z3 /
cvc5, table ``EMITTERS``), ``solve`` (one call, model validation), ``pool``, ``backends``.
Exact evaluation and fingerprints live in ``provers.semantics`` (``evaluate``, ``truth``,
``decide``, ``sample_assignments``, ``fingerprint``). Semantics: ``docs/semantics.md``.
"""

from provers.backends.base import ProofResult
from provers.backends.cache import VerdictCache
from provers.backends.smt.backends import Cvc5Backend, Portfolio, SolverBackend, Z3Backend
from provers.backends.smt.core import Unsupported
from provers.backends.smt.lower import Lowered, lower_obligation
from provers.backends.smt.pool import WorkerPool, default_pool
from provers.backends.smt.solve import solve
from provers.ir import Term

_SHARED: dict[str, SolverBackend] = {}


def prove(obligation: Term, timeout: float = 5.0, backend: str = "portfolio") -> ProofResult:
    """Validity of ``obligation`` with a process-wide backend (shared pool and cache)."""
    classes = {"portfolio": Portfolio, "z3": Z3Backend, "cvc5": Cvc5Backend}
    if backend not in classes:
        raise ValueError(f"unknown backend {backend!r}; expected one of {sorted(classes)}")
    if backend not in _SHARED:
        _SHARED[backend] = classes[backend]()
    return _SHARED[backend].prove(obligation, timeout)


__all__ = [
    "Cvc5Backend",
    "Lowered",
    "Portfolio",
    "SolverBackend",
    "Unsupported",
    "VerdictCache",
    "WorkerPool",
    "Z3Backend",
    "default_pool",
    "lower_obligation",
    "prove",
    "solve",
]
