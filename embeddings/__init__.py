"""Back-translation (informalizers), sentence embeddings, similarity and a vector index.

Importing this package is cheap: torch, sentence-transformers and faiss load on first use,
and ``RuleInformalizer`` (which reads the IR of ``provers``) is imported on first access.
"""

from typing import Any

from .embed import DEFAULT_MODEL, Embedder, default_embedder, default_model_path, shared_embedder
from .index import NearDuplicates, VectorIndex, near_duplicates
from .informalize import (
    GivenInformalizer,
    InformalizationError,
    Informalizer,
    InformalizerConfigError,
    OpenAIInformalizer,
)
from .similarity import cosine_matrix, cosine_similarity, l2_normalize, semantic_scores

__all__ = [
    "DEFAULT_MODEL",
    "Embedder",
    "GivenInformalizer",
    "InformalizationError",
    "Informalizer",
    "InformalizerConfigError",
    "NearDuplicates",
    "OpenAIInformalizer",
    "RuleInformalizer",
    "VectorIndex",
    "cosine_matrix",
    "cosine_similarity",
    "default_embedder",
    "shared_embedder",
    "default_model_path",
    "l2_normalize",
    "near_duplicates",
    "semantic_scores",
]


def __getattr__(name: str) -> Any:
    if name == "RuleInformalizer":
        from .rule_informalizer import RuleInformalizer

        return RuleInformalizer
    raise AttributeError(f"module 'embeddings' has no attribute {name!r}")
