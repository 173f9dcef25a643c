"""`BackendChain`: ask backends in order until one decides (e.g. SMT first, Lean on what SMT
left unknown)."""

from __future__ import annotations

from provers import ir
from provers.backends.base import Backend, ProofResult, Proved, Refuted, Unknown


class BackendChain:
    """Ask backends in order until one decides: e.g. `BackendChain(smt, LeanBackend())` runs
    Lean only on what SMT left `Unknown`. Each backend gets the full `timeout`."""

    def __init__(self, *backends: Backend) -> None:
        if not backends:
            raise ValueError("BackendChain needs at least one backend")
        self.backends = backends
        self.name = "+".join(getattr(b, "name", type(b).__name__) for b in backends)

    def prove(self, obligation: ir.Term, timeout: float = 5.0) -> ProofResult:
        reasons = []
        spent = 0.0
        for b in self.backends:
            res = b.prove(obligation, timeout)
            spent += res.time
            if isinstance(res, (Proved, Refuted)):
                return res
            reasons.append(f"{getattr(b, 'name', '?')}: {res.reason}")
        return Unknown("; ".join(reasons), self.name, spent)
