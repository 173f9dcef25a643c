"""Exact cosine vector index: faiss for large corpora, numpy for small ones.

Both backends store L2-normalized float32 vectors and score by inner product, so they
return the same neighbours (up to float rounding); ``backend="auto"`` switches to faiss
at ``faiss_threshold`` vectors.  :func:`near_duplicates` is what the training-data filter
uses to drop repeated informal statements.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from .similarity import TextEncoder

__all__ = ["NearDuplicates", "VectorIndex", "near_duplicates"]

BACKENDS = ("auto", "numpy", "faiss")


def _unit_rows(x: np.ndarray, dim: int | None) -> np.ndarray:
    a = np.asarray(x, dtype=np.float32)
    if a.ndim == 1:
        a = a[None, :]
    if a.ndim != 2:
        raise ValueError(f"vectors must be 2-D (n, dim), got shape {a.shape}")
    if dim is not None and a.shape[1] != dim:
        raise ValueError(f"vectors have dimension {a.shape[1]}, index has {dim}")
    if not np.isfinite(a).all():
        raise ValueError("vectors contain NaN or inf")
    norms = np.linalg.norm(a, axis=1, keepdims=True)
    return np.ascontiguousarray(np.divide(a, norms, out=np.zeros_like(a), where=norms > 0))


class VectorIndex:
    """Add vectors, search the k most cosine-similar ones, find all pairs above a threshold.

    Ids are insertion positions (0, 1, 2, ...).  ``backend``: ``"numpy"`` (brute force),
    ``"faiss"`` (``IndexFlatIP``) or ``"auto"`` (numpy below ``faiss_threshold`` vectors).
    """

    def __init__(
        self, dim: int | None = None, backend: str = "auto", faiss_threshold: int = 4096
    ) -> None:
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {BACKENDS}, got {backend!r}")
        if dim is not None and (not isinstance(dim, int) or dim < 1):
            raise ValueError(f"dim must be a positive integer, got {dim!r}")
        self.dim = dim
        self.backend = backend
        self.faiss_threshold = faiss_threshold
        self._chunks: list[np.ndarray] = []
        self._matrix: np.ndarray | None = None
        self._faiss = None

    def __len__(self) -> int:
        return sum(c.shape[0] for c in self._chunks)

    def __repr__(self) -> str:
        return f"VectorIndex(dim={self.dim}, size={len(self)}, backend={self.active_backend!r})"

    @property
    def active_backend(self) -> str:
        """The backend searches use now ("numpy" or "faiss")."""
        if self.backend != "auto":
            return self.backend
        return "faiss" if len(self) >= self.faiss_threshold else "numpy"

    def add(self, vectors: np.ndarray) -> np.ndarray:
        """Add vectors (normalized here); returns their ids."""
        a = _unit_rows(vectors, self.dim)
        if self.dim is None:
            self.dim = a.shape[1]
        start = len(self)
        self._chunks.append(a)
        self._matrix = None
        if self._faiss is not None:
            self._faiss.add(a)
        return np.arange(start, start + a.shape[0])

    def _data(self) -> np.ndarray:
        if self._matrix is None:
            dim = self.dim or 0
            self._matrix = (
                np.concatenate(self._chunks) if self._chunks else np.zeros((0, dim), np.float32)
            )
            self._chunks = [self._matrix] if self._chunks else []
        return self._matrix

    def _faiss_index(self):
        if self._faiss is None:
            import faiss

            index = faiss.IndexFlatIP(self.dim)
            if len(self):
                index.add(self._data())
            self._faiss = index
        return self._faiss

    def search(self, queries: np.ndarray, k: int = 10) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` nearest ids per query and their cosines, best first.

        Returns ``(scores, ids)`` of shape ``(n_queries, min(k, len(self)))``; ties are
        ordered by lower id in the numpy backend.
        """
        if not isinstance(k, int) or k < 1:
            raise ValueError(f"k must be a positive integer, got {k!r}")
        if self.dim is None:
            raise ValueError("the index is empty: add vectors before searching")
        q = _unit_rows(queries, self.dim)
        kk = min(k, len(self))
        if kk == 0:
            return np.zeros((q.shape[0], 0), np.float32), np.zeros((q.shape[0], 0), np.int64)
        if self.active_backend == "faiss":
            scores, ids = self._faiss_index().search(q, kk)
            return scores, ids.astype(np.int64)
        sims = q @ self._data().T
        order = np.argsort(-sims, axis=1, kind="stable")[:, :kk]
        return np.take_along_axis(sims, order, axis=1), order.astype(np.int64)

    def pairs_above(self, threshold: float) -> list[tuple[int, int, float]]:
        """All pairs ``(i, j, cosine)`` with ``i < j`` and cosine >= ``threshold``."""
        n = len(self)
        if n < 2:
            return []
        data = self._data()
        out: list[tuple[int, int, float]] = []
        if self.active_backend == "faiss":
            # range_search keeps scores > radius; step just below to keep ">=".
            radius = float(np.nextafter(np.float32(threshold), np.float32(-np.inf)))
            lims, scores, ids = self._faiss_index().range_search(data, radius)
            for i in range(n):
                for s, j in zip(
                    scores[lims[i] : lims[i + 1]], ids[lims[i] : lims[i + 1]], strict=True
                ):
                    if j > i and s >= threshold:
                        out.append((i, int(j), float(s)))
        else:
            block = 1024
            for start in range(0, n, block):
                sims = data[start : start + block] @ data.T
                rows, cols = np.nonzero(sims >= threshold)
                for r, c in zip(rows, cols, strict=True):
                    i = start + int(r)
                    if int(c) > i:
                        out.append((i, int(c), float(sims[r, c])))
        out.sort(key=lambda p: (p[0], p[1]))
        return out


@dataclass
class NearDuplicates:
    """Groups of near-duplicate items (each sorted, listed by first member) and what to drop.

    ``keep`` holds the lowest index of every group and every non-duplicated item;
    ``drop`` the other members of each group.
    """

    groups: list[list[int]]
    keep: list[int]
    drop: list[int]
    pairs: list[tuple[int, int, float]] = field(default_factory=list)


def near_duplicates(
    items: Sequence[str] | np.ndarray,
    threshold: float = 0.95,
    *,
    encoder: TextEncoder | None = None,
    backend: str = "auto",
    faiss_threshold: int = 4096,
) -> NearDuplicates:
    """Group items whose cosine similarity is >= ``threshold`` (transitively).

    ``items`` are texts (embedded with ``encoder``, by default the shared packaged-model
    embedder) or an array of vectors.  Groups are
    connected components of the similarity graph; the first (lowest-index) member of
    each group is kept and the rest dropped, so the result is deterministic.
    """
    if not -1.0 <= threshold <= 1.0:
        raise ValueError(f"threshold must be a cosine in [-1, 1], got {threshold}")
    if isinstance(items, np.ndarray):
        vectors = items
    else:
        texts = list(items)
        if texts and not all(isinstance(t, str) for t in texts):
            raise TypeError("items must be texts or a 2-D array of vectors")
        if not texts:
            return NearDuplicates([], [], [])
        if encoder is None:
            from .embed import default_embedder

            encoder = default_embedder()
        vectors = encoder.encode(texts)
    vectors = np.asarray(vectors)
    n = vectors.shape[0] if vectors.ndim == 2 else 0
    if n == 0:
        return NearDuplicates([], [], [])
    index = VectorIndex(backend=backend, faiss_threshold=faiss_threshold)
    index.add(vectors)
    pairs = index.pairs_above(threshold)
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for i, j, _ in pairs:
        ri, rj = find(i), find(j)
        if ri != rj:
            parent[max(ri, rj)] = min(ri, rj)
    members: dict[int, list[int]] = {}
    for i in range(n):
        members.setdefault(find(i), []).append(i)
    groups = [m for m in members.values() if len(m) > 1]
    groups.sort(key=lambda g: g[0])
    drop = sorted(i for g in groups for i in g[1:])
    dropped = set(drop)
    keep = [i for i in range(n) if i not in dropped]
    return NearDuplicates(groups, keep, drop, pairs)
