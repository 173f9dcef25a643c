"""The contract every prover backend (z3, cvc5, portfolio, Lean REPL, a chain of them) follows.

``prove(obligation, timeout)`` asks whether the closed IR formula ``obligation`` is valid and
answers ``Proved``, ``Refuted`` (with a countermodel, which the engine re-checks with the exact
evaluator) or ``Unknown`` (with the reason). A failed proof search is ``Unknown``, never
``Refuted``.

``bind(a, b)`` is called once per equivalence check with the two statements compared, before
any obligation of that check: a backend that can use them (Lean renders obligations from the
statements' own text) returns a copy that does; the default is the backend itself.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar

from provers.ir import Statement, Term
from provers.status import Status


@dataclass(frozen=True)
class Proved:
    backend: str = ""
    time: float = 0.0
    detail: str = ""
    status: ClassVar[Status] = Status.PROVED


@dataclass(frozen=True)
class Refuted:
    """``model`` maps variable names (of the obligation's free/outer-∀ variables) to exact
    values (int, Fraction, bool, complex pairs, or finite tables for functions)."""

    model: dict[str, Any] = field(default_factory=dict)
    backend: str = ""
    time: float = 0.0
    status: ClassVar[Status] = Status.REFUTED


@dataclass(frozen=True)
class Unknown:
    """``satisfiable``: the solver found a model of the negated obligation that the exact
    evaluator could not confirm (a "spurious model"). The obligation is then not provable in
    the solvers' encoding, so a portfolio stops there: another solver of the same encoding
    could only offer another model, and on the MATH candidates none ever did
    (docs/benchmarks.md, "a spurious model settles the portfolio")."""

    reason: str
    backend: str = ""
    time: float = 0.0
    satisfiable: bool = False
    status: ClassVar[Status] = Status.UNKNOWN


def settles(result: ProofResult | None) -> bool:
    """Whether ``result`` ends a portfolio call: a proof, a validated countermodel, or a
    model that shows no solver of the same encoding can prove the obligation."""
    return isinstance(result, (Proved, Refuted)) or (isinstance(result, Unknown) and result.satisfiable)


ProofResult = Proved | Refuted | Unknown


class Backend(ABC):
    """Subclass this and implement ``prove``; override ``bind`` to use the compared
    statements themselves (their source text, say)."""

    name: str = "backend"

    @abstractmethod
    def prove(self, obligation: Term, timeout: float = 5.0) -> ProofResult:
        """Is the closed formula ``obligation`` valid? Never raise for a hard formula:
        answer ``Unknown`` with the reason."""

    def bind(self, a: Statement, b: Statement | None = None) -> Backend:
        """This backend for the obligations of one check between ``a`` and ``b``."""
        return self


__all__ = ["Backend", "ProofResult", "Proved", "Refuted", "Unknown"]
