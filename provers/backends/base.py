"""The contract every prover backend (evaluator, z3, cvc5, portfolio, Lean REPL) follows.

``prove(obligation, timeout)`` asks whether the closed IR formula ``obligation`` is valid and
answers ``Proved``, ``Refuted`` (with a countermodel that the exact evaluator re-checked) or
``Unknown`` (with the reason). A failed proof search is ``Unknown``, never ``Refuted``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from provers.ir import Term


@dataclass(frozen=True)
class Proved:
    backend: str = ""
    time: float = 0.0
    detail: str = ""


@dataclass(frozen=True)
class Refuted:
    """``model`` maps variable names (of the obligation's free/outer-∀ variables) to exact
    values (int, Fraction, bool, complex pairs, or finite tables for functions)."""

    model: dict[str, Any] = field(default_factory=dict)
    backend: str = ""
    time: float = 0.0


@dataclass(frozen=True)
class Unknown:
    reason: str
    backend: str = ""
    time: float = 0.0


ProofResult = Proved | Refuted | Unknown


class Backend(Protocol):
    name: str

    def prove(self, obligation: Term, timeout: float = 5.0) -> ProofResult: ...
