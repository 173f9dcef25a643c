"""Per-candidate priors: what the generator itself says about its samples.

A pool often starts with a greedy decode, which is right more often than the samples
after it; a log-probability says how sure the model was.  These helpers turn such facts
into one prior score per candidate (a log-weight: higher is more likely, only differences
matter), which :mod:`rerank.scoring` normalizes with a softmax and weighs against the
symbolic and semantic scores (``prior_weight``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = ["from_greedy", "from_logprobs", "from_order", "prior_vector"]


def from_logprobs(
    logprobs: Sequence[float], lengths: Sequence[int] | None = None
) -> list[float]:
    """Sequence log-probabilities as priors; with ``lengths`` (tokens per candidate) the
    per-token mean, so that long statements are not penalized for their length."""
    lp = np.asarray(logprobs, dtype=np.float64)
    if lp.ndim != 1:
        raise ValueError(f"logprobs must be one-dimensional, got shape {lp.shape}")
    if np.isnan(lp).any():
        raise ValueError("logprobs contain NaN")
    if lengths is not None:
        n = np.asarray(lengths, dtype=np.float64)
        if n.shape != lp.shape:
            raise ValueError(f"{n.size} lengths for {lp.size} logprobs")
        if (n <= 0).any():
            raise ValueError("lengths must be positive")
        lp = lp / n
    return lp.tolist()


def from_order(k: int, decay: float = 1.0) -> list[float]:
    """Sample order as a prior: candidate ``i`` gets ``-decay * log(1 + i)`` (the first
    sample most likely, later ones less and less apart)."""
    if k < 0:
        raise ValueError(f"k must be >= 0, got {k}")
    if decay < 0:
        raise ValueError(f"decay must be >= 0, got {decay}")
    return [-decay * math.log1p(i) for i in range(k)]


def from_greedy(k: int, index: int = 0, strength: float = 1.0) -> list[float]:
    """A flag for the greedy decode: candidate ``index`` gets ``strength``, every other 0."""
    if not 0 <= index < k:
        raise ValueError(f"greedy index {index} out of range for {k} candidates")
    out = [0.0] * k
    out[index] = float(strength)
    return out


def prior_vector(values: Sequence[float | None] | None, k: int) -> np.ndarray | None:
    """A prior for ``k`` candidates from user values (None: no prior).  A missing value
    (None) gets the lowest value given: no candidate gains from having no prior."""
    if values is None:
        return None
    vals = list(values)
    if len(vals) != k:
        raise ValueError(f"{len(vals)} prior values for {k} candidates")
    known = [float(v) for v in vals if v is not None]
    if not known:
        return None
    if any(math.isnan(v) or math.isinf(v) and v > 0 for v in known):
        raise ValueError("prior values must be finite numbers (or -inf)")
    low = min(known)
    return np.array([low if v is None else float(v) for v in vals], dtype=np.float64)
