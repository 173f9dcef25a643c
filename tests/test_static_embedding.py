"""The static distillation of the packaged MiniLM (embeddings.static): built locally, once,
offline; a text's vector is its tokens' mean, independent of its batch; and it keeps MiniLM's
sense of which back-translation is faithful."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from embeddings import STATIC_MODEL, Embedder, cosine_similarity, semantic_scores
from embeddings.static import build_static_model, static_model_dir


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Distilled once for the module (about half a minute on one core)."""
    return build_static_model(tmp_path_factory.mktemp("static") / STATIC_MODEL)


def test_the_model_is_built_once_and_read_by_name(built, monkeypatch):
    stamp = (built / "modules.json").stat().st_mtime_ns
    assert build_static_model(built) == built and (built / "modules.json").stat().st_mtime_ns == stamp
    monkeypatch.setenv("RERANK_STATIC_MODEL_DIR", str(built))
    assert static_model_dir() == built
    e = Embedder(STATIC_MODEL)
    v = e.encode(["The sum of two even integers is even."])
    assert v.shape == (1, 384) and np.isclose(np.linalg.norm(v), 1.0, atol=1e-5)
    assert not [p for p in built.parent.glob(f".{STATIC_MODEL}.*") if p.is_dir()]  # no half-built model left


def test_a_vector_does_not_depend_on_its_batch(built):
    e = Embedder(str(built), cache=False)
    texts = ["x = 6", "The number 36 has exactly 9 positive divisors.", "Let f(x) = 2x + 3. Then f(2) = 7."]
    together = e.encode(texts)
    for i, t in enumerate(texts):
        np.testing.assert_array_equal(e.encode([t])[0], together[i])


def test_it_ranks_faithful_back_translations_first_like_minilm(built):
    e = Embedder(str(built))
    informal = "The sum of two even integers is even."
    v = e.encode([informal, "If a and b are even integers, then a + b is even.",
                  "The train leaves the station at noon on Sundays."])
    assert cosine_similarity(v[0], v[1]) > cosine_similarity(v[0], v[2])
    s = semantic_scores("Find the number of positive divisors of 36.",
                        ["The number 36 has exactly 9 positive divisors.",
                         "For every real x, x squared is nonnegative.", None], e)
    assert s[0] > s[1] and s[2] == 0.0
