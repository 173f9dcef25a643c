"""Normalize the symbolic and semantic scores over the k candidates and combine them.

The symbolic-equivalence paper normalizes each score over the pool (``s / sum(s)``) and
combines the two with a log, linear or quadratic rule weighted by ``alpha``.  The
functions here take plain arrays (one value per candidate) so that any scorer can feed
them; :class:`ScoreCombiner` holds a configuration the way a scikit-learn estimator does.

Conventions (documented because the paper leaves them open):

* ``sum`` normalization clips negative values to 0 before dividing: a negative cosine
  means "unrelated", which is no evidence at all, and a negative share would break the
  log rule.  A pool whose scores are all 0 (after clipping) gets the uniform ``1/k``:
  the score then carries no preference, rather than dividing by zero.
* ``softmax`` uses ``exp(s / temperature)`` and accepts any real scores.
* The ``log`` rule uses ``log(max(s_hat, eps))`` with ``eps = 1e-12`` by default, so a
  zero share gives a very low but finite score and ``alpha`` in {0, 1} still works
  (``0 * log(eps) == 0``).
* With ``alpha = 1`` every rule ranks by the symbolic score alone and with ``alpha = 0``
  by the semantic score alone (all three rules are monotone in each share).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = [
    "DEFAULT_EPS",
    "NORMALIZERS",
    "RULES",
    "ScoreCombiner",
    "combine",
    "combine_normalized",
    "normalize_scores",
    "symbolic_scores",
]

NORMALIZERS = ("sum", "softmax", "none")
RULES = ("log", "linear", "quadratic")
DEFAULT_EPS = 1e-12

ArrayLike = Sequence[float] | np.ndarray


def _vector(name: str, scores: ArrayLike) -> np.ndarray:
    arr = np.asarray(scores, dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {arr.shape}")
    if np.isnan(arr).any():
        raise ValueError(f"{name} contains NaN")
    return arr


def _check_alpha(alpha: float) -> float:
    if not isinstance(alpha, (int, float, np.floating)) or isinstance(alpha, bool):
        raise TypeError(f"alpha must be a number, got {type(alpha).__name__}")
    if not 0.0 <= float(alpha) <= 1.0:
        raise ValueError(f"alpha must be in [0, 1], got {alpha}")
    return float(alpha)


def symbolic_scores(classes: Sequence[Sequence[int]], k: int | None = None) -> np.ndarray:
    """Symbolic score of each candidate: the size of its equivalence class divided by k.

    ``classes`` is a partition of ``range(k)`` (lists of candidate indices); candidates in
    no class count as singletons.  ``k`` defaults to the number of indices in ``classes``.
    """
    seen: dict[int, int] = {}
    for c, members in enumerate(classes):
        for i in members:
            i = int(i)
            if i < 0:
                raise ValueError(f"negative candidate index {i} in classes")
            if i in seen:
                raise ValueError(f"candidate {i} is in two classes ({seen[i]} and {c})")
            seen[i] = c
    if k is None:
        k = max(seen) + 1 if seen else 0
    if seen and max(seen) >= k:
        raise ValueError(f"class index {max(seen)} out of range for k={k}")
    sizes = np.ones(k, dtype=np.float64)
    for members in classes:
        for i in members:
            sizes[int(i)] = len(members)
    return sizes / k if k else sizes


def normalize_scores(
    scores: ArrayLike, method: str = "sum", temperature: float = 1.0
) -> np.ndarray:
    """Normalize scores over the k candidates so they sum to 1.

    ``sum``: ``max(s, 0) / sum(max(s, 0))`` (uniform when that sum is 0);
    ``softmax``: ``exp(s / temperature)`` normalized; ``none``: returned unchanged.
    """
    s = _vector("scores", scores)
    if method not in NORMALIZERS:
        raise ValueError(f"normalize must be one of {NORMALIZERS}, got {method!r}")
    if s.size == 0 or method == "none":
        return s.copy()
    if method == "sum":
        if np.isinf(s).any():
            raise ValueError("sum normalization needs finite scores")
        clipped = np.clip(s, 0.0, None)
        total = clipped.sum()
        if total <= 0.0:
            return np.full(s.size, 1.0 / s.size)
        return clipped / total
    if not temperature > 0:
        raise ValueError(f"temperature must be > 0, got {temperature}")
    if np.isposinf(s).any():
        raise ValueError("softmax needs scores < +inf")
    z = s / float(temperature)
    z = z - z.max() if np.isfinite(z.max()) else z
    e = np.exp(z)
    total = e.sum()
    if total <= 0.0:  # every score is -inf
        return np.full(s.size, 1.0 / s.size)
    return e / total


def combine_normalized(
    sym: ArrayLike,
    sem: ArrayLike,
    rule: str = "log",
    alpha: float = 0.5,
    eps: float = DEFAULT_EPS,
) -> np.ndarray:
    """Apply a combination rule to already-normalized shares ``sym`` and ``sem``.

    ``log``: ``alpha*log(sym) + (1-alpha)*log(sem)`` (shares floored at ``eps``);
    ``linear``: ``alpha*sym + (1-alpha)*sem``; ``quadratic``: ``alpha*sym**2 + (1-alpha)*sem**2``.
    """
    a = _vector("symbolic", sym)
    b = _vector("semantic", sem)
    if a.shape != b.shape:
        raise ValueError(f"symbolic has {a.size} scores but semantic has {b.size}")
    alpha = _check_alpha(alpha)
    if rule not in RULES:
        raise ValueError(f"rule must be one of {RULES}, got {rule!r}")
    if rule == "log":
        if not eps > 0:
            raise ValueError(f"eps must be > 0, got {eps}")
        if (a < 0).any() or (b < 0).any():
            raise ValueError("the log rule needs non-negative shares; normalize first")
        la = np.log(np.maximum(a, eps))
        lb = np.log(np.maximum(b, eps))
        return alpha * la + (1.0 - alpha) * lb
    if rule == "linear":
        return alpha * a + (1.0 - alpha) * b
    return alpha * a**2 + (1.0 - alpha) * b**2


def combine(
    symbolic: ArrayLike,
    semantic: ArrayLike,
    rule: str = "log",
    alpha: float = 0.5,
    normalize: str = "sum",
    temperature: float = 1.0,
    eps: float = DEFAULT_EPS,
) -> np.ndarray:
    """Final per-candidate scores: normalize both score vectors, then apply ``rule``."""
    return combine_normalized(
        normalize_scores(symbolic, normalize, temperature),
        normalize_scores(semantic, normalize, temperature),
        rule=rule,
        alpha=alpha,
        eps=eps,
    )


@dataclass(frozen=True)
class ScoreCombiner:
    """A reusable combination configuration (configure once, call per problem).

    >>> ScoreCombiner(rule="linear", alpha=1.0)([0.5, 0.25, 0.25], [0.1, 0.9, 0.2]).argmax()
    0
    """

    rule: str = "log"
    alpha: float = 0.5
    normalize: str = "sum"
    temperature: float = 1.0
    eps: float = DEFAULT_EPS

    def __post_init__(self) -> None:
        if self.rule not in RULES:
            raise ValueError(f"rule must be one of {RULES}, got {self.rule!r}")
        _check_alpha(self.alpha)
        if self.normalize not in NORMALIZERS:
            raise ValueError(f"normalize must be one of {NORMALIZERS}, got {self.normalize!r}")
        if not self.temperature > 0:
            raise ValueError(f"temperature must be > 0, got {self.temperature}")
        if not self.eps > 0:
            raise ValueError(f"eps must be > 0, got {self.eps}")

    def __call__(self, symbolic: ArrayLike, semantic: ArrayLike) -> np.ndarray:
        return self.combine(symbolic, semantic)

    def combine(self, symbolic: ArrayLike, semantic: ArrayLike) -> np.ndarray:
        """Normalize and combine one problem's scores."""
        return combine(
            symbolic,
            semantic,
            rule=self.rule,
            alpha=self.alpha,
            normalize=self.normalize,
            temperature=self.temperature,
            eps=self.eps,
        )
