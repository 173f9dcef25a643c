"""Rerank many problems: JSONL (or Parquet) in, JSONL out, resumable, local or on Dask.

Input records: ``{id, informal, candidates[, informalizations, logprobs, prior, greedy,
labels]}``.  ``prior`` (one log-weight or null per candidate), else ``logprobs``, else
``greedy`` (the index of the greedy decode) is the prior score used with ``prior_weight``.
Output: one JSON line per input record, ``{id, status: "ok", ...ranking}`` or
``{id, status: "error", error}``; ``labels`` and ``logprobs`` are carried over so that
``rerank eval`` can read the output alone.

Durability: every record is written as one complete line, flushed and fsynced before the
next, so an interrupted run (Ctrl-C, ``kill -9``) loses no finished record; a rerun
truncates a trailing partial line, skips ids already present and appends the rest.  When a
run completes, the file is rewritten (atomically) in input order, so local, multi-process
and Dask runs produce identical files.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = [
    "BatchSummary",
    "iter_records",
    "process_record",
    "read_done_ids",
    "run_batch",
]


@dataclass
class BatchSummary:
    total: int = 0
    skipped: int = 0
    ok: int = 0
    errors: int = 0
    error_ids: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        return (
            f"{self.total} records: {self.ok} reranked, {self.errors} errors, "
            f"{self.skipped} already done"
        )


# ------------------------------------------------------------------------ input


def iter_records(path: str | Path) -> Iterator[tuple[str, dict[str, Any] | None, str | None]]:
    """Yield ``(id, record, problem)`` per input record; ``problem`` says why a line is
    unusable (its record is then None).  Records without an ``id`` are named ``line-N``
    (``row-N`` for Parquet) so reruns find them again."""
    path = Path(path)
    if path.suffix.lower() in (".parquet", ".pq"):
        import pyarrow.parquet as pq

        for n, rec in enumerate(pq.read_table(path).to_pylist(), start=1):
            rid = rec.get("id")
            yield (str(rid) if rid is not None else f"row-{n}"), rec, None
        return
    with open(path, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, start=1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                yield f"line-{n}", None, f"{path}:{n}: invalid JSON ({e.msg} at column {e.colno})"
                continue
            if not isinstance(rec, dict):
                yield f"line-{n}", None, f"{path}:{n}: expected a JSON object, got {type(rec).__name__}"
                continue
            rid = rec.get("id")
            yield (str(rid) if rid is not None else f"line-{n}"), rec, None


def _check_record(rec: dict[str, Any]) -> str | None:
    """Why a record cannot be reranked, or None."""
    informal = rec.get("informal")
    if not isinstance(informal, str):
        return f"field 'informal' must be a string, got {type(informal).__name__}"
    cands = rec.get("candidates")
    if not isinstance(cands, list) or not cands:
        return "field 'candidates' must be a non-empty list of strings"
    bad = [i for i, c in enumerate(cands) if not isinstance(c, str)]
    if bad:
        return f"candidates {bad[:5]} are not strings"
    for name in ("informalizations", "logprobs", "prior", "labels"):
        v = rec.get(name)
        if v is not None and (not isinstance(v, list) or len(v) != len(cands)):
            return f"field {name!r} must be a list of {len(cands)} values (one per candidate)"
    infs = rec.get("informalizations")
    if infs is not None and any(t is not None and not isinstance(t, str) for t in infs):
        return "informalizations must be strings or null"
    for name in ("logprobs", "prior"):
        v = rec.get(name)
        if v is not None and any(x is not None and (isinstance(x, bool) or not isinstance(x, (int, float)))
                                 for x in v):
            return f"{name} must be numbers or null"
    g = rec.get("greedy")
    if g is not None and (isinstance(g, bool) or not isinstance(g, int) or not 0 <= g < len(cands)):
        return f"field 'greedy' must be a candidate index in [0, {len(cands)}), got {g!r}"
    return None


def record_prior(rec: dict[str, Any]) -> list[float | None] | None:
    """The prior of a record: ``prior``, else ``logprobs``, else a flag on ``greedy``."""
    from rerank.prior import from_greedy

    if rec.get("prior") is not None:
        return list(rec["prior"])
    if rec.get("logprobs") is not None:
        return list(rec["logprobs"])
    if rec.get("greedy") is not None:
        return list(from_greedy(len(rec["candidates"]), rec["greedy"]))
    return None


# ------------------------------------------------------------------------ work

_RERANKERS: dict[str, Any] = {}
_RERANKERS_LOCK = threading.Lock()


def _reranker(params: dict[str, Any]) -> Any:
    """One Reranker per parameter set and process (workers reuse models and caches)."""
    from rerank.api import Reranker

    key = json.dumps(params, sort_keys=True, default=str)
    with _RERANKERS_LOCK:
        if key not in _RERANKERS:
            _RERANKERS[key] = Reranker(**params)
        return _RERANKERS[key]


_THREADS_SET: list[int] = []


def _one_torch_thread() -> None:
    """Parallel workers each get one torch thread: several intra-op thread pools on the same
    cores spin against each other (a short sentence took 1 s instead of 0.06 s)."""
    if not _THREADS_SET:
        _THREADS_SET.append(1)
        try:
            import torch

            torch.set_num_threads(1)
        except Exception:  # torch missing or already initialized differently: not fatal
            pass


def process_record(
    rid: str,
    rec: dict[str, Any] | None,
    problem: str | None,
    params: dict[str, Any],
    parallel: bool = False,
    timing: bool = False,
) -> dict[str, Any]:
    """Rerank one record; any failure becomes an error record (never an exception).
    ``parallel``: running beside other workers (limits torch to one thread); ``timing``:
    add wall-clock times (which makes reruns differ)."""
    if parallel:
        _one_torch_thread()
    if rec is None:
        return {"id": rid, "status": "error", "error": problem or "unusable record"}
    why = _check_record(rec)
    if why is not None:
        return {"id": rid, "status": "error", "error": f"record {rid}: {why}"}
    t0 = time.perf_counter()
    try:
        r = _reranker(params).rerank(
            rec["informal"], rec["candidates"], rec.get("informalizations"), cache={},
            prior=record_prior(rec),
        )
    except Exception as e:  # one bad problem must not stop the batch
        return {"id": rid, "status": "error", "error": f"record {rid}: {type(e).__name__}: {e}"}
    out: dict[str, Any] = {"id": rid, "status": "ok", "informal": rec["informal"]}
    out.update(r.to_dict(timing=timing))
    if timing:
        out["timing"]["total"] = time.perf_counter() - t0
    for name in ("labels", "logprobs", "prior", "greedy"):
        if rec.get(name) is not None:
            out[name] = rec[name]
    return out


# ------------------------------------------------------------------------ output


def _repair_tail(path: Path) -> None:
    """Truncate a trailing partial line left by an interrupted writer."""
    if not path.exists():
        return
    with open(path, "rb+") as f:
        f.seek(0, os.SEEK_END)
        size = f.tell()
        if size == 0:
            return
        f.seek(size - 1)
        if f.read(1) == b"\n":
            return
        pos = size
        chunk = 65536
        while pos > 0:
            start = max(0, pos - chunk)
            f.seek(start)
            data = f.read(pos - start)
            nl = data.rfind(b"\n")
            if nl >= 0:
                f.truncate(start + nl + 1)
                return
            pos = start
        f.truncate(0)


def read_done_ids(path: str | Path, repair: bool = True) -> dict[str, dict[str, Any]]:
    """Records already in ``path`` by id.  ``repair`` first truncates a partial last line
    (the batch runner does; a reader such as ``rerank eval`` just skips it)."""
    path = Path(path)
    if repair:
        _repair_tail(path)
    done: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return done
    with open(path, encoding="utf-8") as f:
        for line in f:
            try:
                rec = json.loads(line)
            except json.JSONDecodeError:
                continue  # a corrupt line (never written by us): its id will be redone
            if isinstance(rec, dict) and "id" in rec:
                done.setdefault(str(rec["id"]), rec)
    return done


class _Writer:
    """Append one record per line, each flushed and fsynced before returning."""

    def __init__(self, path: Path) -> None:
        self.f = open(path, "a", encoding="utf-8")

    def write(self, rec: dict[str, Any]) -> None:
        self.f.write(json.dumps(rec, ensure_ascii=False, allow_nan=False) + "\n")
        self.f.flush()
        os.fsync(self.f.fileno())

    def close(self) -> None:
        self.f.close()


def _rewrite_in_order(path: Path, order: list[str]) -> None:
    """Rewrite ``path`` with one record per id in input order (atomic replace)."""
    done = read_done_ids(path)
    with open(path, encoding="utf-8") as f:
        current = [json.loads(line).get("id") for line in f if line.strip()]
    wanted = [rid for rid in order if rid in done]
    if [str(x) for x in current] == wanted:
        return
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for rid in wanted:
                f.write(json.dumps(done[rid], ensure_ascii=False, allow_nan=False) + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# ------------------------------------------------------------------------ runner


def run_batch(
    in_path: str | Path,
    out_path: str | Path,
    params: dict[str, Any] | None = None,
    *,
    workers: int = 1,
    scheduler: str | Any | None = None,
    progress: bool = True,
    retry_errors: bool = False,
    timing: bool = False,
) -> BatchSummary:
    """Rerank every record of ``in_path`` into ``out_path`` (see the module docstring).

    ``params`` are :class:`rerank.Reranker` arguments.  ``workers > 1`` uses that many local
    processes; ``scheduler`` (an address or a ``distributed.Client``) runs the records on a
    Dask cluster.  ``retry_errors`` recomputes records whose earlier result was an error;
    ``timing`` adds per-record wall-clock times (seconds) under ``timing``.
    """
    params = dict(params or {})
    from rerank.api import Reranker

    Reranker(**params)  # fail fast on a bad configuration, before any work
    in_path, out_path = Path(in_path), Path(out_path)
    if not in_path.exists():
        raise FileNotFoundError(f"input file {in_path} does not exist")
    out_path.parent.mkdir(parents=True, exist_ok=True)
    records = list(iter_records(in_path))
    order: list[str] = []
    seen: set[str] = set()
    todo: list[tuple[str, dict[str, Any] | None, str | None]] = []
    done = read_done_ids(out_path)
    if retry_errors and any(r.get("status") == "error" for r in done.values()):
        keep = {rid: r for rid, r in done.items() if r.get("status") != "error"}
        _write_all(out_path, list(keep.values()))
        done = keep
    summary = BatchSummary(total=len(records))
    for rid, rec, problem in records:
        if rid in seen:
            rid_new = f"{rid}#dup{len(order)}"
            problem = problem or f"duplicate id {rid!r} in {in_path}"
            rec, rid = None, rid_new
        seen.add(rid)
        order.append(rid)
        if rid in done:
            summary.skipped += 1
        else:
            todo.append((rid, rec, problem))
    writer = _Writer(out_path)
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(todo), desc="rerank", unit="problem", file=sys.stderr)

    def emit(out: dict[str, Any]) -> None:
        writer.write(out)
        if out.get("status") == "ok":
            summary.ok += 1
        else:
            summary.errors += 1
            summary.error_ids.append(str(out["id"]))
        if bar is not None:
            bar.update(1)

    try:
        if scheduler is not None:
            _run_dask(todo, params, scheduler, emit, timing)
        elif workers > 1:
            _run_processes(todo, params, workers, emit, timing)
        else:
            for rid, rec, problem in todo:
                emit(process_record(rid, rec, problem, params, False, timing))
    finally:
        writer.close()
        if bar is not None:
            bar.close()
    _rewrite_in_order(out_path, order)
    return summary


def _write_all(path: Path, recs: list[dict[str, Any]]) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps(r, ensure_ascii=False, allow_nan=False) + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _run_processes(todo: list, params: dict[str, Any], workers: int, emit: Any, timing: bool) -> None:
    """Local worker processes (loky: robust to worker crashes and safe with torch)."""
    from concurrent.futures import as_completed

    from joblib.externals.loky import get_reusable_executor

    ex = get_reusable_executor(max_workers=workers, timeout=60)
    futures = {
        ex.submit(process_record, rid, rec, prob, params, True, timing): rid
        for rid, rec, prob in todo
    }
    for fut in as_completed(futures):
        rid = futures[fut]
        try:
            out = fut.result()
        except Exception as e:  # a worker died: record it, keep going
            out = {"id": rid, "status": "error", "error": f"record {rid}: worker failed: {type(e).__name__}: {e}"}
        emit(out)


def _run_dask(todo: list, params: dict[str, Any], scheduler: str | Any, emit: Any, timing: bool) -> None:
    """Submit every record to a Dask ``distributed`` cluster; write results as they finish."""
    from distributed import Client, as_completed

    own = not isinstance(scheduler, Client)
    client = Client(scheduler) if own else scheduler
    try:
        futures = [
            client.submit(process_record, rid, rec, prob, params, True, timing, key=f"rerank-{i}-{rid}", pure=False)
            for i, (rid, rec, prob) in enumerate(todo)
        ]
        ids = {f.key: rid for f, (rid, _, _) in zip(futures, todo, strict=True)}
        for fut in as_completed(futures):
            rid = ids[fut.key]
            try:
                out = fut.result()
            except Exception as e:
                out = {"id": rid, "status": "error", "error": f"record {rid}: dask task failed: {type(e).__name__}: {e}"}
            emit(out)
    finally:
        if own:
            client.close()


# ------------------------------------------------------------------------ training-data filter

KEEP_MODES = ("majority", "semantic", "both", "either")


def _group_pairs(records: list[tuple[str, dict[str, Any] | None, str | None]]) -> list:
    """Pair records ``{id, informal, formal[, informalization]}`` grouped into one problem
    per informal text (first-appearance order); problem records pass through unchanged."""
    out: list = []
    groups: dict[str, dict[str, Any]] = {}
    for rid, rec, problem in records:
        if rec is None or "candidates" in rec or not isinstance(rec.get("formal"), str):
            out.append((rid, rec, problem))
            continue
        informal = rec.get("informal")
        if not isinstance(informal, str):
            out.append((rid, None, f"record {rid}: field 'informal' must be a string"))
            continue
        g = groups.get(informal)
        if g is None:
            g = groups[informal] = {"informal": informal, "candidates": [], "pair_ids": [],
                                    "informalizations": []}
            out.append((rid, g, None))
        g["candidates"].append(rec["formal"])
        g["pair_ids"].append(rid)
        g["informalizations"].append(rec.get("informalization"))
    for g in groups.values():
        if all(t is None for t in g["informalizations"]):
            g["informalizations"] = None
    return out


def filter_file(
    in_path: str | Path,
    out_path: str | Path,
    params: dict[str, Any] | None = None,
    *,
    keep: str = "majority",
    tau: float = 0.5,
    dedup: float = 0.95,
) -> dict[str, int]:
    """Training-data filter: write the consistent (informal, formal) pairs of each problem.

    Input records are problems ``{id, informal, candidates[, informalizations]}`` or pairs
    ``{id, informal, formal[, informalization]}`` (pairs with the same informal text form
    one pool; a kept pair's output ``id`` is its own).

    A pair is consistent when its formal statement is in the problem's largest class
    (``majority``; ties: every largest class, unparseable candidates never), when its
    semantic score is at least ``tau`` (``semantic``), or ``both`` / ``either``.  Problems
    whose informal text has cosine >= ``dedup`` with an earlier problem's are dropped first
    (faiss index; ``dedup=1`` disables this).  When every class is a singleton there is no
    majority; vacuous candidates are never the majority.
    """
    if keep not in KEEP_MODES:
        raise ValueError(f"keep must be one of {KEEP_MODES}, got {keep!r}")
    from embeddings import near_duplicates
    from rerank.api import Reranker

    rr = Reranker(**(params or {}))
    records = _group_pairs(list(iter_records(in_path)))
    usable = [(rid, rec) for rid, rec, problem in records if problem is None and rec is not None
              and _check_record(rec) is None]
    stats = {"problems": len(records), "errors": len(records) - len(usable), "duplicates": 0,
             "pairs": 0, "kept": 0}
    if usable and dedup < 1.0:
        dup = near_duplicates([rec["informal"] for _, rec in usable], dedup,
                              encoder=rr._embedder(), backend="faiss")
        stats["duplicates"] = len(dup.drop)
        usable = [usable[i] for i in dup.keep]
    Path(out_path).parent.mkdir(parents=True, exist_ok=True)
    Path(out_path).write_text("")  # a filter run always writes a fresh file
    writer = _Writer(Path(out_path))
    try:
        for rid, rec in usable:
            try:
                r = rr.rerank(rec["informal"], rec["candidates"], rec.get("informalizations"))
            except Exception:
                stats["errors"] += 1
                continue
            parsed = [i for i in range(r.k) if r.errors[i] is None]
            top = max((len(c) for c in r.classes if any(i in parsed for i in c)), default=0)
            for i, formal in enumerate(r.candidates):
                stats["pairs"] += 1
                size = len(r.classes[r.class_index(i)])
                in_major = (i in parsed and size == top and (top > 1 or r.k == 1)
                            and "vacuous" not in r.flags[i])
                sem_ok = r.semantic[i] >= tau and i in parsed
                ok = {"majority": in_major, "semantic": sem_ok, "both": in_major and sem_ok,
                      "either": in_major or sem_ok}[keep]
                if ok:
                    stats["kept"] += 1
                    pair_ids = rec.get("pair_ids")
                    writer.write({"id": pair_ids[i] if pair_ids else rid, "candidate": i,
                                  "informal": rec["informal"], "formal": formal,
                                  "class_size": size, "symbolic": r.symbolic[i],
                                  "semantic": r.semantic[i]})
    finally:
        writer.close()
    return stats
