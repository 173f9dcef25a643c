"""The one vocabulary of outcomes, from a backend call up to a verdict.

Strings once named these in several modules; a typo there was a silent wrong branch. Each
status is a ``StrEnum`` member, so it still equals its word (``v.status == "equivalent"``),
prints as it and is written to JSON as it: users' code and stored results keep working.

* ``Status``: what happened to one proof obligation, to one backend call (``Proved`` /
  ``Refuted`` / ``Unknown`` results carry it as ``.status``) and to one relation under one
  alignment (an ``Outcome``, which may also be ``structural``);
* ``VerdictStatus``: the answer of an equivalence check;
* ``PinStatus``: what answer pinning found for one normal form.
"""

from __future__ import annotations

from enum import StrEnum


class Status(StrEnum):
    PROVED = "proved"
    REFUTED = "refuted"  # by a countermodel the exact evaluator re-checked
    UNKNOWN = "unknown"
    PENDING = "pending"  # not asked yet
    STRUCTURAL = "structural"  # the shapes cannot match (relations only)

    @property
    def decided(self) -> bool:
        return self in (Status.PROVED, Status.REFUTED)


class VerdictStatus(StrEnum):
    EQUIVALENT = "equivalent"
    INEQUIVALENT = "inequivalent"
    INCONCLUSIVE = "inconclusive"


class PinStatus(StrEnum):
    PINNED = "pinned"  # Γ has a model and Γ ⊢ L = v
    FREE = "free"  # two models of Γ give L different values
    VACUOUS = "vacuous"  # Γ is contradictory
    UNKNOWN = "unknown"
    NOT_APPLICABLE = "n/a"  # the conclusion is not L ⋈ c


__all__ = ["PinStatus", "Status", "VerdictStatus"]
