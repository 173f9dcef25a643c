"""Top-n selection over equivalence classes, and the baselines it is compared with.

All functions take plain arrays: per-candidate scores, and classes as a list of lists of
candidate indices (a partition of ``range(k)``; an index in no class is a singleton).
They return candidate indices, best first.  Ties are always broken by the lower index,
so every function is deterministic (``select_random`` given its seed).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

__all__ = [
    "behind",
    "class_of",
    "select_kmeans",
    "select_by_logprob",
    "select_naive",
    "select_random",
    "select_top_n",
]

ArrayLike = Sequence[float] | np.ndarray


def _check_n(n: int | None, k: int) -> int:
    if n is None:
        return k
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):
        raise TypeError(f"n must be an integer, got {type(n).__name__}")
    if n < 1:
        raise ValueError(f"n must be >= 1, got {n}")
    return min(int(n), k)


def class_of(classes: Sequence[Sequence[int]] | None, k: int) -> np.ndarray:
    """Class id of each of the ``k`` candidates; unlisted candidates become singletons."""
    label = np.full(k, -1, dtype=np.int64)
    if classes is not None:
        for c, members in enumerate(classes):
            for i in members:
                i = int(i)
                if not 0 <= i < k:
                    raise ValueError(f"class member {i} out of range for {k} candidates")
                if label[i] != -1:
                    raise ValueError(f"candidate {i} is in two classes ({label[i]} and {c})")
                label[i] = c
    nxt = len(classes) if classes is not None else 0
    for i in np.flatnonzero(label == -1):
        label[i] = nxt
        nxt += 1
    return label


def _scores(scores: ArrayLike) -> np.ndarray:
    s = np.asarray(scores, dtype=np.float64)
    if s.ndim != 1:
        raise ValueError(f"scores must be one-dimensional, got shape {s.shape}")
    return s


def _order(s: np.ndarray) -> np.ndarray:
    """Indices by descending score, NaN last, ties by lower index (stable sort)."""
    key = np.where(np.isnan(s), np.inf, -s)
    return np.argsort(key, kind="stable")


def select_top_n(
    scores: ArrayLike,
    classes: Sequence[Sequence[int]] | None = None,
    n: int | None = 1,
    when_exhausted: str = "continue",
) -> list[int]:
    """Pick the best candidate, drop its whole class, repeat until ``n`` are chosen.

    ``n=None`` ranks every candidate.  NaN scores rank below every number.  When every
    class has given one candidate and fewer than ``n`` are chosen, ``when_exhausted``
    decides: ``"continue"`` (default) starts a new round over the candidates not yet
    chosen, again one per class and best first, so a class contributes its second member
    only after every class has contributed one; ``"stop"`` returns the shorter list (at
    most one candidate per class).
    """
    s = _scores(scores)
    k = s.size
    if when_exhausted not in ("continue", "stop"):
        raise ValueError(f"when_exhausted must be 'continue' or 'stop', got {when_exhausted!r}")
    if k == 0:
        return []
    n = _check_n(n, k)
    label = class_of(classes, k)
    order = _order(s)
    chosen: list[int] = []
    taken = np.zeros(k, dtype=bool)
    while len(chosen) < n:
        used_classes: set[int] = set()
        for i in order:
            if len(chosen) >= n:
                break
            if taken[i] or label[i] in used_classes:
                continue
            chosen.append(int(i))
            taken[i] = True
            used_classes.add(int(label[i]))
        if when_exhausted == "stop":
            break
    return chosen


def behind(order: Sequence[int], last: Sequence[bool]) -> list[int]:
    """``order`` with every candidate whose ``last`` flag is set moved behind all the others
    (each part keeps its order). The reranker puts unparseable candidates there: a -inf score
    alone would still let one fill a round of :func:`select_top_n` before a parseable
    candidate's second round, so it could be picked ahead of a statement."""
    return [int(i) for i in order if not last[i]] + [int(i) for i in order if last[i]]


def select_by_logprob(
    logprobs: ArrayLike,
    n: int | None = 1,
    classes: Sequence[Sequence[int]] | None = None,
) -> list[int]:
    """Baseline: rank by the generator's log-probability (higher first).

    Without ``classes`` this is a plain sort; with them it uses the same class removal
    as :func:`select_top_n`.
    """
    return select_top_n(logprobs, classes, n)


def select_random(k: int, n: int | None = 1, seed: int | None = 0) -> list[int]:
    """Baseline: ``n`` distinct candidates in a seeded random order."""
    if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 0:
        raise ValueError(f"k must be a non-negative integer, got {k!r}")
    if k == 0:
        return []
    n = _check_n(n, int(k))
    return [int(i) for i in np.random.default_rng(seed).permutation(int(k))[:n]]


def select_naive(proved: Sequence[bool], n: int | None = 1) -> list[int]:
    """Baseline "naive": keep the candidates a prover proves outright, first index first.

    The proved candidates come first in index order, then the others in index order, so
    with nothing proved this is the "first sample" baseline and ``n`` is always reached.
    """
    p = np.asarray(proved)
    if p.ndim != 1:
        raise ValueError(f"proved must be one-dimensional, got shape {p.shape}")
    p = p.astype(bool)
    if p.size == 0:
        return []
    n = _check_n(n, p.size)
    order = np.concatenate([np.flatnonzero(p), np.flatnonzero(~p)])
    return [int(i) for i in order[:n]]


def _kmeans_labels(x: np.ndarray, max_clusters: int | None, seed: int | None) -> np.ndarray:
    """Cluster rows of ``x`` with k-means, choosing the cluster count by silhouette."""
    from sklearn.cluster import KMeans
    from sklearn.metrics import silhouette_score

    k = x.shape[0]
    n_distinct = np.unique(np.round(x, 12), axis=0).shape[0]
    upper = min(k - 1, n_distinct)
    if max_clusters is not None:
        upper = min(upper, max_clusters)
    if upper < 2:
        return np.zeros(k, dtype=np.int64)
    best_labels: np.ndarray | None = None
    best_score = -np.inf
    for c in range(2, upper + 1):
        labels = KMeans(n_clusters=c, n_init=10, random_state=seed).fit_predict(x)
        if np.unique(labels).size < 2:
            continue
        score = silhouette_score(x, labels)
        if score > best_score + 1e-12:
            best_score, best_labels = score, labels
    if best_labels is None:
        return np.zeros(k, dtype=np.int64)
    return best_labels.astype(np.int64)


def select_kmeans(
    embeddings: np.ndarray,
    n: int | None = 1,
    max_clusters: int | None = None,
    seed: int | None = 0,
) -> list[int]:
    """Baseline: adaptive k-means on embeddings of the formal statements.

    The number of clusters (2 .. k-1, at most ``max_clusters``) is the one with the best
    silhouette score; with fewer than 3 candidates or identical embeddings everything is
    one cluster.  The pick is the candidate nearest the centroid of the largest cluster;
    the next picks come from the next largest clusters (the class-removal rule of
    :func:`select_top_n` with k-means clusters as classes).  Ties: lower index.
    """
    x = np.asarray(embeddings, dtype=np.float64)
    if x.ndim != 2:
        raise ValueError(f"embeddings must be a 2-D array (k, dim), got shape {x.shape}")
    if not np.isfinite(x).all():
        raise ValueError("embeddings contain NaN or inf")
    k = x.shape[0]
    if k == 0:
        return []
    n = _check_n(n, k)
    labels = _kmeans_labels(x, max_clusters, seed)
    ids = np.unique(labels)
    sizes = {int(c): int(np.sum(labels == c)) for c in ids}
    dist = np.empty(k)
    for c in ids:
        members = labels == c
        centroid = x[members].mean(axis=0)
        dist[members] = np.linalg.norm(x[members] - centroid, axis=1)
    # score: cluster size first, then closeness to the centroid (in [0, 1) so it never
    # outweighs one member of cluster size).
    closeness = 1.0 / (1.0 + dist)
    score = np.array([sizes[int(labels[i])] for i in range(k)], dtype=np.float64)
    score = score + 0.5 * closeness
    classes = [np.flatnonzero(labels == c).tolist() for c in ids]
    return select_top_n(score, classes, n)
