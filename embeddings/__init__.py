"""Back-translation (informalizers), sentence embeddings, similarity and a vector index.

Importing this package is cheap: torch, sentence-transformers and faiss load on first use,
``RuleInformalizer`` (which reads the IR of ``provers``) and the LLM informalizers (httpx)
are imported on first access.
"""

from typing import Any

from .embed import (
    DEFAULT_MODEL,
    STATIC_MODEL,
    Embedder,
    default_embedder,
    default_model_path,
    shared_embedder,
)
from .index import NearDuplicates, VectorIndex, near_duplicates
from .similarity import cosine_matrix, cosine_similarity, l2_normalize, semantic_scores

__all__ = [
    "DEFAULT_MODEL",
    "STATIC_MODEL",
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


_INFORMALIZE = ("GivenInformalizer", "InformalizationError", "Informalizer", "InformalizerConfigError",
                "OpenAIInformalizer")


def __getattr__(name: str) -> Any:
    if name in _INFORMALIZE:  # httpx (the OpenAI client) loads only when an informalizer is used
        from . import informalize

        return getattr(informalize, name)
    if name == "RuleInformalizer":
        from .rule_informalizer import RuleInformalizer

        return RuleInformalizer
    raise AttributeError(f"module 'embeddings' has no attribute {name!r}")
