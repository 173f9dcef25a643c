"""Cosine similarity helpers and the semantic-consistency score.

semantic score of a candidate = cosine(embed(back-translation), embed(informal)): how
much of the original statement's meaning survives the round trip formal -> English.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np

__all__ = ["TextEncoder", "cosine_matrix", "cosine_similarity", "l2_normalize", "semantic_scores"]


class TextEncoder(Protocol):
    """Anything with ``encode(list[str]) -> (n, dim) array``, e.g. :class:`Embedder`."""

    def encode(self, texts: Sequence[str]) -> np.ndarray: ...


def l2_normalize(x: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length; all-zero rows stay zero (their cosine is 0)."""
    a = np.asarray(x, dtype=np.float64)
    norms = np.linalg.norm(a, axis=-1, keepdims=True)
    return np.divide(a, norms, out=np.zeros_like(a), where=norms > 0)


def cosine_matrix(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """All-pairs cosine similarity of the rows of ``a`` (m, d) and ``b`` (n, d) -> (m, n)."""
    a2 = np.atleast_2d(np.asarray(a, dtype=np.float64))
    b2 = np.atleast_2d(np.asarray(b, dtype=np.float64))
    if a2.shape[-1] != b2.shape[-1]:
        raise ValueError(f"dimension mismatch: {a2.shape[-1]} vs {b2.shape[-1]}")
    return np.clip(l2_normalize(a2) @ l2_normalize(b2).T, -1.0, 1.0)


def cosine_similarity(a: np.ndarray, b: np.ndarray) -> np.ndarray | float:
    """Row-wise cosine of ``a`` and ``b`` (same shape, or one a single vector).

    Two 1-D vectors give a float.
    """
    x = np.asarray(a, dtype=np.float64)
    y = np.asarray(b, dtype=np.float64)
    if x.shape[-1] != y.shape[-1]:
        raise ValueError(f"dimension mismatch: {x.shape[-1]} vs {y.shape[-1]}")
    sims = np.clip(np.sum(l2_normalize(x) * l2_normalize(y), axis=-1), -1.0, 1.0)
    return float(sims) if sims.ndim == 0 else sims


def semantic_scores(
    informal: str,
    back_translations: Sequence[str | None],
    encoder: TextEncoder | None = None,
) -> np.ndarray:
    """Cosine of each back-translation with the informal statement, one per candidate.

    ``encoder`` defaults to the shared packaged-model embedder.  A missing back-translation
    (``None`` or blank text, e.g. a failed informalization) scores 0.0 - no evidence -
    instead of embedding an empty string.
    """
    if not isinstance(informal, str):
        raise TypeError(f"informal must be a string, got {type(informal).__name__}")
    present = [i for i, t in enumerate(back_translations) if t is not None and str(t).strip()]
    scores = np.zeros(len(back_translations), dtype=np.float64)
    if not present:
        return scores
    if encoder is None:
        from .embed import default_embedder

        encoder = default_embedder()
    vecs = np.asarray(encoder.encode([informal] + [str(back_translations[i]) for i in present]))
    scores[present] = cosine_similarity(vecs[1:], vecs[0])
    return scores
