"""One wall-clock budget, passed down explicitly through every stage of a check.

Why: a check has a total budget (``check_equivalence(total_timeout=...)``) and a problem has
its own (``Reranker(problem_timeout=...)``). Exact evaluation (quantifier enumeration),
fingerprints, alignment enumeration and solver calls all look at the same ``Deadline`` in
their loops, so no stage can run past the caller's budget. A stage that finds it spent
raises :class:`DeadlineExceeded`; the caller that set the deadline turns that into an
``inconclusive`` answer (never into a verdict).
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

__all__ = ["Deadline", "DeadlineExceeded", "check_seconds"]


class DeadlineExceeded(TimeoutError):
    """The budget ran out; ``args[0]`` names the stage that noticed."""


@dataclass(frozen=True)
class Deadline:
    """A point in ``time.monotonic()`` time (``math.inf``: no limit)."""

    at: float

    @classmethod
    def after(cls, seconds: float) -> Deadline:
        return cls(time.monotonic() + seconds)

    @classmethod
    def never(cls) -> Deadline:
        return cls(math.inf)

    def left(self) -> float:
        """Seconds left (negative once expired; ``inf`` without a limit)."""
        return self.at - time.monotonic()

    def expired(self) -> bool:
        return time.monotonic() >= self.at

    def check(self, stage: str) -> None:
        """Raise :class:`DeadlineExceeded` naming ``stage`` if the budget is spent."""
        if time.monotonic() >= self.at:
            raise DeadlineExceeded(stage)

    def sooner(self, other: Deadline | None) -> Deadline:
        """The earlier of two deadlines (``None`` is no limit)."""
        return self if other is None or self.at <= other.at else other


def check_seconds(name: str, value: object) -> float:
    """``value`` as a finite number of seconds > 0, else a ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{name} must be a number of seconds, got {value!r}")
    if not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a finite number of seconds > 0, got {value!r}")
    return float(value)
