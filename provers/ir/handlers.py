"""Handler tables: one consumer's meaning of each operation, keyed by operation name.

Every consumer of the IR (evaluator, SMT lowering, printers, informalizer, display) gives
each operation of ``OPS`` either a handler or a reason why it has none, in one ``OpTable``
(in the style of pysmt's walkers and sympy's printers). A new operation is added to ``OPS``
first; ``tests/test_ops_coverage.py`` then names every table that still lacks it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterator, Mapping
from typing import Generic, TypeVar

from provers.errors import IRError
from provers.ir.ops import OPS

H = TypeVar("H")


class OpTable(Generic[H]):
    """Handlers by operation name for the consumer ``consumer``.

    ``unsupported`` maps the operations the consumer deliberately does not handle to the
    reason. ``universe`` is the set of operation names the table ranges over (``OPS``, or a
    backend's own core vocabulary). Registering an unknown name or one name twice raises.
    """

    def __init__(self, consumer: str, unsupported: Mapping[str, str] | None = None,
                 universe: Collection[str] = OPS.keys()) -> None:
        self.consumer = consumer
        self.universe = universe
        self.handlers: dict[str, H] = {}
        self.unsupported: dict[str, str] = {}
        for op, why in (unsupported or {}).items():
            self._claim(op)
            if not why.strip():
                raise IRError(f"{consumer}: operation {op!r} unsupported without a reason")
            self.unsupported[op] = why

    def _claim(self, op: str) -> None:
        if op not in self.universe:
            raise IRError(f"{self.consumer}: unknown operation {op!r}")
        if op in self.handlers or op in self.unsupported:
            raise IRError(f"{self.consumer}: operation {op!r} registered twice")

    def add(self, op: str, handler: H) -> None:
        self._claim(op)
        self.handlers[op] = handler

    def register(self, *ops: str) -> Callable[[H], H]:
        """Decorator: ``handler`` is the meaning of each of ``ops``."""

        def deco(handler: H) -> H:
            for op in ops:
                self.add(op, handler)
            return handler

        return deco

    def get(self, op: str) -> H | None:
        return self.handlers.get(op)

    def __contains__(self, op: object) -> bool:
        return op in self.handlers

    def __iter__(self) -> Iterator[str]:
        return iter(self.handlers)

    def why_unsupported(self, op: str) -> str:
        """The reason ``op`` has no handler (for the consumer's own error message)."""
        return self.unsupported.get(op, f"operation {op!r} is not handled by the {self.consumer}")

    def missing(self) -> set[str]:
        """Operations of the universe with neither a handler nor a reason."""
        return set(self.universe) - set(self.handlers) - set(self.unsupported)
