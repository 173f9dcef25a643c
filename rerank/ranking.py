"""The result of reranking one problem: what was chosen, and why.

A :class:`Ranking` is plain data (lists of ints, floats and strings) so that it can be
printed, compared between runs, and written as one JSON line by the batch runner.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Ranking"]


def _finite_or_none(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


@dataclass
class Ranking:
    """Reranking of k candidates for one informal statement.

    ``selected``: the top-n candidate indices, best first (each pick removes its class
    before the next).  ``classes``: the equivalence classes (lists of indices).
    ``symbolic``/``semantic``/``scores``: per-candidate symbolic score (class size / k; with
    ``undecided_weight`` or ``truth_weight`` the weighted support / k, see
    :mod:`rerank.scoring`), semantic score (cosine of back-translation and informal text,
    plus the exact answer term) and combined score (``-inf`` for unparseable candidates).
    Demoted candidates (vacuous, degenerate, refuted) keep their scores but are ordered
    after every sound one; their flags say why (``demoted_refuted``, ...).
    ``order``: every candidate, in the order the selection rule would pick them (so
    ``order[:m]`` is the top-m for any m; n@k for n > len(selected) reads it).
    ``flags``/``errors``: per-candidate flags (``parse_error``, ``vacuous``, ...) and the
    parse error message (None when it parsed).  ``stats``: solver statistics of the
    clustering (see :class:`rerank.cluster.ClusterStats`).  ``unparsed_selected``: selected
    candidates that do not parse; they come after every parseable one, so this is non-empty
    only when n exceeds the parseable candidates (the list was filled with them).
    ``complete``: every comparison and per-candidate test the clusterer needed was done;
    False when a time budget (``budget`` or ``problem_timeout``) ran out first, and then
    ``pairs_undecided`` pairs were left unchecked (their candidates stay apart).
    """

    selected: list[int]
    classes: list[list[int]]
    symbolic: list[float]
    semantic: list[float]
    scores: list[float]
    order: list[int] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)
    back_translations: list[str | None] = field(default_factory=list)
    flags: list[list[str]] = field(default_factory=list)
    errors: list[str | None] = field(default_factory=list)
    stats: dict[str, Any] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    timing: dict[str, float] = field(default_factory=dict, compare=False)
    unparsed_selected: list[int] = field(default_factory=list)
    complete: bool = True
    pairs_undecided: int = 0

    @property
    def k(self) -> int:
        return len(self.candidates) if self.candidates else len(self.scores)

    @property
    def best(self) -> int | None:
        """Index of the top pick (None for an empty pool)."""
        return self.selected[0] if self.selected else None

    @property
    def best_text(self) -> str | None:
        return self.candidates[self.best] if self.best is not None and self.candidates else None

    def class_index(self, i: int) -> int:
        """Position in ``classes`` of the class holding candidate ``i``."""
        for c, members in enumerate(self.classes):
            if i in members:
                return c
        raise IndexError(f"candidate {i} is in no class (k = {self.k})")

    def to_dict(self, timing: bool = False) -> dict[str, Any]:
        """JSON-ready dict (non-finite scores become null). ``timing`` adds wall-clock times,
        which are left out by default so that reruns produce identical records."""
        d: dict[str, Any] = {
            "selected": list(self.selected),
            "classes": [list(c) for c in self.classes],
            "symbolic": [_finite_or_none(x) for x in self.symbolic],
            "semantic": [_finite_or_none(x) for x in self.semantic],
            "scores": [_finite_or_none(x) for x in self.scores],
            "order": list(self.order),
            "candidates": list(self.candidates),
            "back_translations": list(self.back_translations),
            "flags": [list(f) for f in self.flags],
            "errors": list(self.errors),
            "stats": dict(self.stats),
            "params": dict(self.params),
            "unparsed_selected": list(self.unparsed_selected),
            "complete": self.complete,
            "pairs_undecided": self.pairs_undecided,
        }
        if timing:
            d["timing"] = dict(self.timing)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Ranking:
        """Inverse of :meth:`to_dict` (null scores read back as ``-inf``)."""

        def floats(xs: list[float | None]) -> list[float]:
            return [-math.inf if x is None else float(x) for x in xs]

        return cls(
            selected=list(d["selected"]),
            classes=[list(c) for c in d["classes"]],
            symbolic=floats(d["symbolic"]),
            semantic=floats(d["semantic"]),
            scores=floats(d["scores"]),
            order=list(d.get("order", [])),
            candidates=list(d.get("candidates", [])),
            back_translations=list(d.get("back_translations", [])),
            flags=[list(f) for f in d.get("flags", [])],
            errors=list(d.get("errors", [])),
            stats=dict(d.get("stats", {})),
            params=dict(d.get("params", {})),
            timing=dict(d.get("timing", {})),
            unparsed_selected=list(d.get("unparsed_selected", [])),
            complete=bool(d.get("complete", True)),
            pairs_undecided=int(d.get("pairs_undecided", 0)),
        )
