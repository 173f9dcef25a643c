"""`BackendChain`: ask backends in order until one decides (e.g. SMT first, Lean on what SMT
left unknown)."""

from __future__ import annotations

from provers import ir
from provers.backends.base import Backend, ProofResult, Proved, Refuted, Unknown


class BackendChain(Backend):
    """Ask backends in order until one decides: e.g. `BackendChain(smt, LeanBackend())` runs
    Lean only on what SMT left `Unknown`. Each backend gets the full `timeout`; `bind`
    binds every backend of the chain (so Lean still renders from the statements' text)."""

    def __init__(self, *backends: Backend) -> None:
        if not backends:
            raise ValueError("BackendChain needs at least one backend")
        for b in backends:
            if not isinstance(b, Backend):
                raise TypeError(f"BackendChain: {type(b).__name__} is not a provers.backends.base.Backend")
        self.backends = backends
        self.name = "+".join(b.name for b in backends)

    def bind(self, a: ir.Statement, b: ir.Statement | None = None) -> BackendChain:
        return BackendChain(*(backend.bind(a, b) for backend in self.backends))

    def prove(self, obligation: ir.Term, timeout: float = 5.0) -> ProofResult:
        reasons = []
        spent = 0.0
        for b in self.backends:
            res = b.prove(obligation, timeout)
            spent += res.time
            if isinstance(res, (Proved, Refuted)):
                return res
            reasons.append(f"{b.name}: {res.reason}")
        return Unknown("; ".join(reasons), self.name, spent)
