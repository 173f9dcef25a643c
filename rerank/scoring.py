"""From what is known about a pool to the order in which its candidates are picked.

One function, :meth:`Selector.select`, serves the library (``RerankSession.ranking``) and the
experiments (which replay cached clustering evidence), so the evaluated code is the shipped
code.  Per candidate it computes

* the **symbolic support**: the size of its equivalence class, plus, for every class the
  engine could neither merge with it nor separate from it (an *undecided* pair), that
  class's size times a weight: ``undecided_weight`` plus ``consensus_weight`` times how
  alike the two classes' statements are (:mod:`rerank.consensus`); 0 when the two answers
  of numeric conclusions differ.  Divided by k it is ``Ranking.symbolic``; with both
  weights 0 it is the plain class size.  So when most checks are inconclusive, a candidate
  that nothing rules out from many others, and that looks like them, still outranks one
  that is ruled out from all;
* the **semantic** score (given by the caller);
* an optional **prior** (sample order, log-probabilities, a greedy flag: :mod:`rerank.prior`).

Shares are normalized over the pool and combined (:mod:`rerank.combine`): the log rule gives
``(1-w)·[α·log ŝsym + (1-α)·log ŝsem] + w·log p̂`` with ``w = prior_weight`` and ``p̂`` the
softmax of the prior (linear and quadratic likewise with the identity and the square).

The order is lexicographic: *tier* first (0 parsed and sound, 1 vacuous or degenerate,
2 unparsed), then the combined score, then the support, then the semantic score, then
the lower index (the sample order).  So an unparseable candidate never comes before a
parseable one, and a vacuous or degenerate class never wins, whatever the scores.

Safety rule (``keep_first_margin``): when the best candidate's combined score beats
candidate 0's by no more than the margin (and candidate 0 is in the same tier), candidate
0 is picked first: where the scores cannot separate candidates, the first sample stands.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from provers.status import VerdictStatus
from rerank.combine import DEFAULT_EPS, NORMALIZERS, RULES, normalize_scores
from rerank.select import select_top_n

__all__ = ["PoolEvidence", "Selection", "Selector", "support"]

#: tiers of the lexicographic order
SOUND, DEMOTED, UNPARSED = 0, 1, 2
#: what keeps a parsed candidate from winning (see :meth:`PoolEvidence.demotion`)
DEMOTIONS = ("vacuous", "degenerate", "refuted", "ill_formed")


@dataclass
class PoolEvidence:
    """What the clustering knows about one pool, as plain data (one entry per candidate).

    ``vacuous``: premises prove False (True / False / None undecided); ``degenerate``: the
    statement says nothing about its problem (:func:`rerank.evidence.degenerate`);
    ``holds``: the statement was proved outright (True), refuted by a validated
    countermodel (False), or neither (None); ``ill_formed``: the prover's own checker would
    reject the text although it parsed (``Statement.checker_errors``, the rules of
    ``provers.isabelle.checker``); ``undecided``: candidate pairs the engine left
    inconclusive; ``answers``: the exact answer of a numeric conclusion (``"eq 7"``) or None;
    ``similarity``: k × k statement similarities (:func:`rerank.consensus.similarity_matrix`)
    or None when unknown.
    """

    classes: list[list[int]]
    parsed: list[bool]
    vacuous: list[bool | None] = field(default_factory=list)
    degenerate: list[bool] = field(default_factory=list)
    holds: list[bool | None] = field(default_factory=list)
    ill_formed: list[bool] = field(default_factory=list)
    undecided: list[tuple[int, int]] = field(default_factory=list)
    answers: list[str | None] = field(default_factory=list)
    similarity: np.ndarray | None = None

    def __post_init__(self) -> None:
        k = len(self.parsed)
        if self.similarity is not None:
            self.similarity = np.asarray(self.similarity, dtype=np.float64)
            if self.similarity.shape != (k, k):
                raise ValueError(f"similarity has shape {self.similarity.shape} for {k} candidates")
        for name, empty in (("vacuous", None), ("degenerate", False), ("holds", None), ("ill_formed", False),
                            ("answers", None)):
            v = getattr(self, name)
            if not v:
                setattr(self, name, [empty] * k)
            elif len(v) != k:
                raise ValueError(f"{name} has {len(v)} entries for {k} candidates")

    @property
    def k(self) -> int:
        return len(self.parsed)

    def demotion(self, i: int, reasons: Sequence[str] = DEMOTIONS) -> str | None:
        """Why candidate ``i`` may never win (the first of ``reasons`` that applies)."""
        facts = {"vacuous": self.vacuous[i] is True, "degenerate": bool(self.degenerate[i]),
                 "refuted": self.holds[i] is False, "ill_formed": bool(self.ill_formed[i])}
        return next((r for r in reasons if facts[r]), None)

    @classmethod
    def from_evidence(cls, evidence: dict[str, Any], classes: list[list[int]],
                      statements: Sequence[Any] | None = None) -> PoolEvidence:
        """The inverse of :func:`rerank.evidence.problem_evidence` (a cached record);
        ``statements`` (a re-parse) fill in ``degenerate`` where the record lacks it, and
        the statement similarities."""
        from rerank.consensus import similarity_matrix
        from rerank.evidence import degenerate

        cands = evidence["candidates"]
        deg = []
        for i, c in enumerate(cands):
            d = c.get("degenerate")
            if d is None and statements is not None and statements[i] is not None:
                d = degenerate(statements[i])
            deg.append(bool(d))
        ill = []
        for i, c in enumerate(cands):  # a pure function of the text: the re-parse, when given, is current
            v = c.get("ill_formed")
            if statements is not None and statements[i] is not None:
                v = bool(statements[i].checker_errors)
            ill.append(bool(v))
        answers = []
        for c in cands:
            a = c.get("answer")
            answers.append(None if not a or a.get("value") is None else f"{a['op']} {a['value']}")
        return cls(
            classes=[list(c) for c in classes],
            parsed=[bool(c["parsed"]) for c in cands],
            vacuous=[c.get("vacuous") for c in cands],
            degenerate=deg,
            holds=[c.get("holds") for c in cands],
            ill_formed=ill,
            undecided=[(d["a"], d["b"]) for d in evidence["decisions"] if d["status"] == VerdictStatus.INCONCLUSIVE],
            answers=answers,
            similarity=None if statements is None else similarity_matrix(statements),
        )

    @classmethod
    def from_clusterer(cls, clusterer: Any) -> PoolEvidence:
        from rerank.consensus import similarity_matrix
        from rerank.evidence import answer_key, degenerate

        cands = clusterer.candidates
        return cls(
            classes=clusterer.classes,
            parsed=[c.parsed for c in cands],
            vacuous=[c.vacuous for c in cands],
            degenerate=[c.profile is not None and degenerate(c.profile) for c in cands],
            holds=[c.holds for c in cands],
            ill_formed=[c.ill_formed for c in cands],
            undecided=[(d.a, d.b) for d in clusterer.decisions if d.status == VerdictStatus.INCONCLUSIVE],
            answers=[answer_key(c) for c in cands],
            similarity=similarity_matrix([c.statement for c in cands]),
        )


def _class_ids(ev: PoolEvidence) -> tuple[np.ndarray, int]:
    cls_of = np.full(ev.k, -1, dtype=np.int64)
    for c, members in enumerate(ev.classes):
        for i in members:
            cls_of[int(i)] = c
    nxt = len(ev.classes)
    for i in range(ev.k):
        if cls_of[i] < 0:
            cls_of[i] = nxt
            nxt += 1
    return cls_of, nxt


def support(
    ev: PoolEvidence,
    undecided_weight: float = 0.0,
    truth_weight: float = 0.0,
    eligible: Sequence[bool] | None = None,
    consensus_weight: float = 0.0,
) -> np.ndarray:
    """Weighted class size of each candidate (see the module docstring).

    Undecided pairs count between classes: once per class pair, and not at all when the
    two classes' numeric answers differ; each with weight ``undecided_weight`` plus
    ``consensus_weight`` × the mean similarity of the two classes' members (none without
    ``ev.similarity``).  ``truth_weight``: a class whose statement was
    proved outright (and none of whose members was refuted) counts ``1 + truth_weight``
    times.  Only ``eligible`` candidates (default: all) lend or receive undecided support.
    """
    k = ev.k
    ok = np.ones(k, dtype=bool) if eligible is None else np.asarray(eligible, dtype=bool)
    cls_of, n_cls = _class_ids(ev)
    sizes = np.bincount(cls_of, minlength=n_cls).astype(np.float64)
    mass = sizes.copy()
    sim = ev.similarity if consensus_weight > 0 else None
    if (undecided_weight > 0 or sim is not None) and ev.undecided:
        answer: dict[int, str | None] = {}
        for i in range(k):
            answer.setdefault(int(cls_of[i]), ev.answers[i])
        pairs = {
            (min(ca, cb), max(ca, cb))
            for a, b in ev.undecided
            if ok[a] and ok[b] and (ca := int(cls_of[a])) != (cb := int(cls_of[b]))
        }
        for ca, cb in pairs:
            xa, xb = answer.get(ca), answer.get(cb)
            if xa is not None and xb is not None and xa != xb:
                continue
            w = undecided_weight
            if sim is not None:
                w += consensus_weight * float(sim[np.ix_(cls_of == ca, cls_of == cb)].mean())
            mass[ca] += w * sizes[cb]
            mass[cb] += w * sizes[ca]
    if truth_weight > 0:
        proved = np.zeros(n_cls, dtype=bool)
        refuted = np.zeros(n_cls, dtype=bool)
        for i in range(k):
            proved[cls_of[i]] |= ev.holds[i] is True
            refuted[cls_of[i]] |= ev.holds[i] is False
        mass = mass * np.where(proved & ~refuted, 1.0 + truth_weight, 1.0)
    return mass[cls_of]


def _one_class_at_a_time(key: list[int], tiers: list[int], classes: list[list[int]]) -> list[int]:
    """``key`` (best first) as picks that take one candidate per class per round, tier by
    tier: a whole tier is used up before the next one starts, so no unparsed (or demoted)
    candidate ever comes before a sound one in the top n."""
    k = len(key)
    rank_score = np.empty(k)
    rank_score[key] = -np.arange(k, dtype=np.float64)
    order: list[int] = []
    for tier in sorted(set(tiers)):
        members = [i for i in range(k) if tiers[i] == tier]
        local = {i: j for j, i in enumerate(members)}
        sub_classes = [[local[i] for i in c if i in local] for c in classes]
        sub = select_top_n(rank_score[members], [c for c in sub_classes if c], None)
        order.extend(members[j] for j in sub)
    return order


_TRANSFORM = {
    "log": lambda s, eps: np.log(np.maximum(s, eps)),
    "linear": lambda s, eps: s,
    "quadratic": lambda s, eps: s**2,
}


@dataclass
class Selection:
    """Per-candidate scores, tiers, demotion reasons and the full pick order of one pool."""

    symbolic: list[float]
    scores: list[float]
    order: list[int]
    tiers: list[int]
    demoted: list[str | None]
    kept_first: bool = False


@dataclass(frozen=True)
class Selector:
    """A selection configuration (see the module docstring for each knob).

    ``demote``: which facts keep a candidate from winning (any of ``DEMOTIONS``);
    ``tie_break``: ``"evidence"`` (support, then semantic score, then index) or ``"index"``
    (the sample order alone) among equal combined scores."""

    rule: str = "log"
    alpha: float = 0.5
    normalize: str = "sum"
    temperature: float = 1.0
    undecided_weight: float = 0.0
    consensus_weight: float = 0.0
    truth_weight: float = 0.0
    prior_weight: float = 0.0
    keep_first_margin: float | None = None
    exclude_unparsed: bool = True
    demote: tuple[str, ...] = DEMOTIONS
    tie_break: str = "evidence"
    eps: float = DEFAULT_EPS

    def __post_init__(self) -> None:
        if self.rule not in RULES:
            raise ValueError(f"rule must be one of {RULES}, got {self.rule!r}")
        if self.normalize not in NORMALIZERS:
            raise ValueError(f"normalize must be one of {NORMALIZERS}, got {self.normalize!r}")
        for name in ("alpha", "prior_weight"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= v <= 1.0:
                raise ValueError(f"{name} must be a number in [0, 1], got {v!r}")
        for name in ("undecided_weight", "consensus_weight", "truth_weight"):
            v = getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not v >= 0:
                raise ValueError(f"{name} must be a number >= 0, got {v!r}")
        m = self.keep_first_margin
        if m is not None and (isinstance(m, bool) or not isinstance(m, (int, float)) or not m >= 0):
            raise ValueError(f"keep_first_margin must be None or a number >= 0, got {m!r}")
        if not self.temperature > 0:
            raise ValueError(f"temperature must be > 0, got {self.temperature}")
        bad = [d for d in self.demote if d not in DEMOTIONS]
        if bad:
            raise ValueError(f"demote: unknown reasons {bad}; valid: {DEMOTIONS}")
        if self.tie_break not in ("evidence", "index"):
            raise ValueError(f"tie_break must be 'evidence' or 'index', got {self.tie_break!r}")

    def select(
        self,
        ev: PoolEvidence,
        semantic: Sequence[float],
        prior: Sequence[float] | np.ndarray | None = None,
    ) -> Selection:
        """Scores and pick order of one pool (``prior``: log-weights, or None)."""
        k = ev.k
        sem = np.asarray(semantic, dtype=np.float64)
        if sem.shape != (k,):
            raise ValueError(f"{sem.size} semantic scores for {k} candidates")
        if np.isnan(sem).any():
            raise ValueError("semantic scores contain NaN")
        if k == 0:
            return Selection([], [], [], [], [])
        demoted = [ev.demotion(i, self.demote) if ev.parsed[i] else None for i in range(k)]
        tiers = [
            UNPARSED if (self.exclude_unparsed and not ev.parsed[i])
            else DEMOTED if demoted[i] is not None
            else SOUND
            for i in range(k)
        ]
        sound = [t == SOUND for t in tiers]
        sup = support(ev, self.undecided_weight, self.truth_weight, eligible=sound,
                      consensus_weight=self.consensus_weight)
        symbolic = sup / k
        f = _TRANSFORM[self.rule]
        s_sym = normalize_scores(symbolic, self.normalize, self.temperature)
        s_sem = normalize_scores(sem, self.normalize, self.temperature)
        scores = self.alpha * f(s_sym, self.eps) + (1 - self.alpha) * f(s_sem, self.eps)
        if prior is not None and self.prior_weight > 0:
            p = np.asarray(prior, dtype=np.float64)
            if p.shape != (k,):
                raise ValueError(f"{p.size} prior values for {k} candidates")
            p_hat = normalize_scores(p, "softmax", 1.0)
            scores = (1 - self.prior_weight) * scores + self.prior_weight * f(p_hat, self.eps)
        scores = np.where(np.array(tiers) == UNPARSED, -math.inf, scores)
        if self.tie_break == "evidence":
            key = sorted(range(k), key=lambda i: (tiers[i], -scores[i], -sup[i], -sem[i], i))
        else:
            key = sorted(range(k), key=lambda i: (tiers[i], -scores[i], i))
        kept_first = False
        m = self.keep_first_margin
        best = key[0]
        if (m is not None and best != 0 and tiers[0] == tiers[best] != UNPARSED
                and scores[best] - scores[0] <= m):
            key.remove(0)
            key.insert(0, 0)
            kept_first = True
        return Selection(
            symbolic=symbolic.tolist(),
            scores=[float(x) for x in scores],
            order=_one_class_at_a_time(key, tiers, ev.classes),
            tiers=tiers,
            demoted=demoted,
            kept_first=kept_first,
        )
