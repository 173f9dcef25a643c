"""The command line's choices, built from the library's own tuples: a value the library
accepts is a choice of the CLI the moment it is added there (one list to update)."""

from __future__ import annotations

from enum import Enum

from embeddings.embed import PRECISIONS
from provers import LANGUAGES
from provers.engine.relations import RELATIONS
from rerank.api import INFORMALIZERS
from rerank.batch import KEEP_MODES
from rerank.cluster import ILL_FORMED_NAMES
from rerank.combine import NORMALIZERS, RULES


def choices(name: str, values: tuple[str, ...]) -> type[Enum]:
    """A typer choice type whose values are ``values``, in their order."""
    return Enum(name, {v: v for v in values}, type=str)  # type: ignore[return-value]


Relation = choices("Relation", RELATIONS)
Rule = choices("Rule", RULES)
Language = choices("Language", LANGUAGES)
Normalize = choices("Normalize", NORMALIZERS)
InformalizerName = choices("InformalizerName", INFORMALIZERS)
KeepMode = choices("KeepMode", KEEP_MODES)
Precision = choices("Precision", PRECISIONS)
IllFormed = choices("IllFormed", tuple(ILL_FORMED_NAMES))

__all__ = ["IllFormed", "InformalizerName", "KeepMode", "Language", "Normalize", "Precision", "Relation", "Rule", "choices"]
