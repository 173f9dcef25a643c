"""Rerank many problems: JSONL (or Parquet) in, JSONL out, resumable, local or on Dask.

Input records: ``{id, informal, candidates[, informalizations, logprobs, prior, greedy,
labels]}``.  ``prior`` (one log-weight or null per candidate), else ``logprobs``, else
``greedy`` (the index of the greedy decode) is the prior score used with ``prior_weight``.
Output: one JSON line per input record, ``{id, status: "ok", ...ranking}`` or
``{id, status: "error", error}``; ``labels`` and ``logprobs`` are carried over so that
``rerank eval`` can read the output alone.

Bad input never stops a run: a line that is not JSON (or not UTF-8, or nested too deeply),
a field of the wrong type, a NaN or infinite number, a label that is not 0/1/true/false
becomes an error record naming the record and the field.  The output is always strict JSON.

Durability: every record is written as one complete line, flushed and fsynced before the
next, so an interrupted run (Ctrl-C, ``kill -9``) loses no finished record; a rerun
truncates a trailing partial line, moves lines that are not records aside (to
``OUT.corrupt``, with a warning naming the file and line), skips ids already present and
appends the rest.  When a run completes, the file is rewritten (atomically) in input order,
so local, multi-process and Dask runs produce identical files.
"""

from __future__ import annotations

import json
import logging
import math
import os
import sys
import tempfile
import threading
import time
import warnings
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

__all__ = [
    "BatchSummary",
    "CorruptOutputWarning",
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
    warnings: list[str] = field(default_factory=list)  # e.g. corrupt output lines moved aside

    def __str__(self) -> str:
        return (
            f"{self.total} records: {self.ok} reranked, {self.errors} errors, "
            f"{self.skipped} already done"
        )


class CorruptOutputWarning(RuntimeWarning):
    """A line of an existing output file was not a record; it was moved aside."""


# ------------------------------------------------------------------------ input


def _record_id(rec: dict[str, Any], fallback: str) -> tuple[str, str | None]:
    """The record's id (``fallback`` when absent) and why it is unusable, if it is."""
    rid = rec.get("id")
    if rid is None:
        return fallback, None
    if isinstance(rid, str) and _bad_unicode(rid, "id"):
        return fallback, f"record {fallback}: field 'id' is not valid UTF-8 text"
    if isinstance(rid, str) or (isinstance(rid, int) and not isinstance(rid, bool)):
        return str(rid), None
    return fallback, f"record {fallback}: field 'id' must be a string or an integer, got {type(rid).__name__}"


def iter_records(path: str | Path) -> Iterator[tuple[str, dict[str, Any] | None, str | None]]:
    """Yield ``(id, record, problem)`` per input record; ``problem`` says why a line is
    unusable (its record is then None).  Records without an ``id`` are named ``line-N``
    (``row-N`` for Parquet) so reruns find them again.  Bytes that are not UTF-8 are kept
    as lone surrogates, which :func:`check_record` reports with the field they are in."""
    path = Path(path)
    if path.suffix.lower() in (".parquet", ".pq"):
        import pyarrow.parquet as pq

        for n, rec in enumerate(pq.read_table(path).to_pylist(), start=1):
            rid, problem = _record_id(rec, f"row-{n}")
            yield rid, (None if problem else rec), problem
        return
    with open(path, "rb") as f:
        for n, raw in enumerate(f, start=1):
            line = raw.decode("utf-8", errors="surrogateescape")
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                yield f"line-{n}", None, f"{path}:{n}: invalid JSON ({e.msg} at column {e.colno})"
                continue
            except RecursionError:
                yield f"line-{n}", None, f"{path}:{n}: JSON nested too deeply to read"
                continue
            if not isinstance(rec, dict):
                yield f"line-{n}", None, f"{path}:{n}: expected a JSON object, got {type(rec).__name__}"
                continue
            rid, problem = _record_id(rec, f"line-{n}")
            yield rid, (None if problem else rec), problem


#: Longest informal text or back-translation accepted (candidates have the parsers' limits).
MAX_TEXT_CHARS = 100_000


def _bad_unicode(value: Any, where: str, depth: int = 0) -> str | None:
    """Path of the first string in ``value`` that holds a lone surrogate (bytes that were
    not UTF-8, or an escaped half of a surrogate pair), or None."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return where
        return None
    if depth > 50:  # deeper values are not read by the reranker
        return None
    if isinstance(value, list):
        for i, x in enumerate(value):
            bad = _bad_unicode(x, f"{where}[{i}]", depth + 1)
            if bad:
                return bad
    elif isinstance(value, dict):
        for k, x in value.items():
            bad = _bad_unicode(k, where, depth + 1) or _bad_unicode(x, f"{where}.{k}", depth + 1)
            if bad:
                return bad
    return None


def _is_finite_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def check_record(rec: dict[str, Any]) -> str | None:
    """Why a record cannot be reranked (naming the field), or None."""
    for name in ("informal", "candidates", "informalizations", "logprobs", "labels"):
        bad = _bad_unicode(rec.get(name), name)
        if bad:
            return f"field {bad!r} is not valid UTF-8 text"
    informal = rec.get("informal")
    if not isinstance(informal, str):
        return f"field 'informal' must be a string, got {type(informal).__name__}"
    if len(informal) > MAX_TEXT_CHARS:
        return f"field 'informal' is {len(informal)} characters; the limit is {MAX_TEXT_CHARS}"
    cands = rec.get("candidates")
    if not isinstance(cands, list) or not cands:
        return "field 'candidates' must be a non-empty list of strings"
    bad_items = [i for i, c in enumerate(cands) if not isinstance(c, str)]
    if bad_items:
        return f"field 'candidates': items {bad_items[:5]} are not strings"
    for name in ("informalizations", "logprobs", "prior", "labels"):
        v = rec.get(name)
        if v is not None and (not isinstance(v, list) or len(v) != len(cands)):
            return f"field {name!r} must be a list of {len(cands)} values (one per candidate)"
    for i, t in enumerate(rec.get("informalizations") or []):
        if t is not None and not isinstance(t, str):
            return f"field 'informalizations[{i}]' must be a string or null, got {type(t).__name__}"
        if t is not None and len(t) > MAX_TEXT_CHARS:
            return f"field 'informalizations[{i}]' is {len(t)} characters; the limit is {MAX_TEXT_CHARS}"
    for name in ("logprobs", "prior"):
        for i, x in enumerate(rec.get(name) or []):
            if x is not None and not _is_finite_number(x):
                return f"field '{name}[{i}]' must be a finite number or null, got {_show(x)}"
    for i, x in enumerate(rec.get("labels") or []):
        if not (isinstance(x, bool) or (_is_finite_number(x) and x in (0, 1))):
            return f"field 'labels[{i}]' must be 0, 1, true or false, got {_show(x)}"
    g = rec.get("greedy")
    if g is not None and (isinstance(g, bool) or not isinstance(g, int) or not 0 <= g < len(cands)):
        return f"field 'greedy' must be a candidate index in [0, {len(cands)}), got {_show(g)}"
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


def _show(x: Any) -> str:
    """A value for an error message: short, and NaN / infinity spelled out."""
    if isinstance(x, float) and not math.isfinite(x):
        return "NaN" if math.isnan(x) else ("Infinity" if x > 0 else "-Infinity")
    text = json.dumps(x, ensure_ascii=True)[:60] if isinstance(x, (str, int, float, bool)) else type(x).__name__
    return text


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
        except Exception as e:  # noqa: BLE001 - torch missing or already initialized differently: not fatal
            log.debug("torch threads left as they are: %s: %s", type(e).__name__, e)


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
    try:
        return _process(rid, rec, problem, params, parallel, timing)
    except Exception as e:  # a bug must cost one record, not the batch
        return {"id": rid, "status": "error", "error": f"record {rid}: internal error: {type(e).__name__}: {e}"}


def _process(
    rid: str, rec: dict[str, Any] | None, problem: str | None, params: dict[str, Any],
    parallel: bool, timing: bool,
) -> dict[str, Any]:
    if parallel:
        _one_torch_thread()
    if rec is None:
        return {"id": rid, "status": "error", "error": problem or "unusable record"}
    why = check_record(rec)
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


def _reject_constant(name: str) -> None:
    raise ValueError(f"{name} is not valid JSON")


def _parse_output_line(line: bytes) -> tuple[dict[str, Any] | None, str]:
    """An output record, or None and why the line is not one."""
    try:
        rec = json.loads(line.decode("utf-8"), parse_constant=_reject_constant)
    except UnicodeDecodeError as e:
        return None, f"not UTF-8 ({e.reason} at byte {e.start})"
    except RecursionError:
        return None, "JSON nested too deeply"
    except ValueError as e:  # JSONDecodeError, NaN / Infinity
        return None, f"not JSON ({e.msg if isinstance(e, json.JSONDecodeError) else e})"
    if not isinstance(rec, dict) or not isinstance(rec.get("id"), (str, int)) or isinstance(rec.get("id"), bool):
        return None, "not a record with an id"
    return rec, ""


def _scan(path: Path) -> tuple[list[dict[str, Any]], list[tuple[int, bytes, str]]]:
    """The records of an output file in file order, and its bad lines (number, bytes, why)."""
    recs: list[dict[str, Any]] = []
    bad: list[tuple[int, bytes, str]] = []
    if not path.exists():
        return recs, bad
    with open(path, "rb") as f:
        for n, line in enumerate(f, start=1):
            if not line.strip():
                continue
            rec, why = _parse_output_line(line)
            if rec is None:
                bad.append((n, line, why))
            else:
                recs.append(rec)
    return recs, bad


def read_done_ids(
    path: str | Path, repair: bool = True, notes: list[str] | None = None
) -> dict[str, dict[str, Any]]:
    """Records already in ``path`` by id (the first one of each id).

    ``repair`` (the batch runner) first truncates a partial last line, then moves every
    line that is not a record to ``PATH.corrupt`` (appended) and rewrites ``path`` without
    them, so the run can go on and a rerun does not fail again; each such line is reported
    with a warning naming the file and the line (also appended to ``notes``).  Without
    ``repair`` (a reader such as ``rerank eval``) bad lines are skipped and reported in
    ``notes`` only."""
    path = Path(path)
    if repair:
        _repair_tail(path)
    recs, bad = _scan(path)
    if bad:
        aside = path.with_name(path.name + ".corrupt")
        for n, _, why in bad:
            msg = f"{path}:{n}: {why}; " + (
                f"moved to {aside}, its record will be recomputed" if repair else "line skipped"
            )
            if notes is not None:
                notes.append(msg)
            if repair:
                warnings.warn(msg, CorruptOutputWarning, stacklevel=2)
        if repair:
            with open(aside, "ab") as f:
                for _, line, _ in bad:
                    f.write(line if line.endswith(b"\n") else line + b"\n")
                f.flush()
                os.fsync(f.fileno())
            _write_all(path, recs)
    done: dict[str, dict[str, Any]] = {}
    for rec in recs:
        done.setdefault(str(rec["id"]), rec)
    return done


def _dumps(rec: dict[str, Any]) -> str:
    """One strict-JSON line (no NaN / Infinity); strings that are not valid Unicode are
    written with ASCII escapes, which is still valid JSON."""
    text = json.dumps(rec, ensure_ascii=False, allow_nan=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(rec, ensure_ascii=True, allow_nan=False)
    return text + "\n"


def _safe_line(rec: dict[str, Any]) -> str:
    """``rec`` as a line; a result that cannot be written as JSON becomes an error record."""
    try:
        return _dumps(rec)
    except (ValueError, TypeError, RecursionError) as e:
        rid = str(rec.get("id"))
        return _dumps({"id": rid, "status": "error",
                       "error": f"record {rid}: result is not writable as JSON: {type(e).__name__}: {e}"})


class _Writer:
    """Append one record per line, each flushed and fsynced before returning."""

    def __init__(self, path: Path) -> None:
        self.f = open(path, "a", encoding="utf-8")

    def write(self, rec: dict[str, Any]) -> None:
        self.f.write(_safe_line(rec))
        self.f.flush()
        os.fsync(self.f.fileno())

    def close(self) -> None:
        self.f.close()


def _rewrite_in_order(path: Path, order: list[str]) -> None:
    """Rewrite ``path`` with one record per id in input order (atomic replace)."""
    recs, _ = _scan(path)
    done: dict[str, dict[str, Any]] = {}
    for rec in recs:
        done.setdefault(str(rec["id"]), rec)
    wanted = [rid for rid in order if rid in done]
    if [str(r["id"]) for r in recs] == wanted:
        return
    _write_all(path, [done[rid] for rid in wanted])


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
    connect_timeout: float = 10.0,
) -> BatchSummary:
    """Rerank every record of ``in_path`` into ``out_path`` (see the module docstring).

    ``params`` are :class:`rerank.Reranker` arguments.  ``workers > 1`` uses that many local
    processes; ``scheduler`` (an address or a ``distributed.Client``) runs the records on a
    Dask cluster (an unreachable address is a ``ConnectionError`` after ``connect_timeout``
    seconds, before any work).  ``retry_errors`` recomputes records whose earlier result was
    an error; ``timing`` adds per-record wall-clock times (seconds) under ``timing``.
    """
    params = dict(params or {})
    from rerank.api import Reranker

    Reranker(**params)  # fail fast on a bad configuration, before any work
    in_path, out_path = Path(in_path), Path(out_path)
    check_paths(in_path, out_path)
    keys = _explicit_keys(params)
    if keys and scheduler is not None:
        raise ValueError(
            "an informalizer's api_key= does not travel to Dask workers (keys are never "
            "pickled): set OPENAI_API_KEY in the workers' environment instead"
        )
    client, own_client = (None, False) if scheduler is None else _dask_client(scheduler, connect_timeout)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    records = list(iter_records(in_path))
    summary = BatchSummary(total=len(records))
    order, todo = _plan(records, in_path, out_path, retry_errors, summary)
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
        if client is not None:
            _run_dask(todo, params, client, emit, timing)
        elif workers > 1:
            _run_processes(todo, params, workers, emit, timing, keys)
        else:
            for rid, rec, problem in todo:
                emit(process_record(rid, rec, problem, params, False, timing))
    finally:
        writer.close()
        if bar is not None:
            bar.close()
        if own_client:
            client.close()
    _rewrite_in_order(out_path, order)
    return summary


def _plan(records: list[tuple[str, dict[str, Any] | None, str | None]], in_path: Path, out_path: Path,
          retry_errors: bool, summary: BatchSummary) -> tuple[list[str], list[tuple[str, dict[str, Any] | None, str | None]]]:
    """The output order of every record id, and the records still to compute: those not in
    ``out_path`` already (errors too when ``retry_errors``, which are then removed from it);
    a repeated id becomes an error record of its own."""
    order: list[str] = []
    seen: set[str] = set()
    todo: list[tuple[str, dict[str, Any] | None, str | None]] = []
    done = read_done_ids(out_path, notes=summary.warnings)
    if retry_errors and any(r.get("status") == "error" for r in done.values()):
        keep = {rid: r for rid, r in done.items() if r.get("status") != "error"}
        _write_all(out_path, list(keep.values()))
        done = keep
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
    return order, todo


def check_paths(in_path: Path, out_path: Path) -> None:
    """Refuse an input that is missing or a directory, and an output that is a directory or
    the input itself (the output is appended to and rewritten: it would eat the input)."""
    if not in_path.exists():
        raise FileNotFoundError(f"input file {in_path} does not exist")
    if in_path.is_dir():
        raise ValueError(f"input {in_path} is a directory, not a file")
    if out_path.is_dir():
        raise ValueError(f"output {out_path} is a directory, not a file")
    same = out_path.resolve() == in_path.resolve() or (out_path.exists() and os.path.samefile(in_path, out_path))
    if same:
        raise ValueError(f"output {out_path} is the input file: write the results to another file")


def _write_all(path: Path, recs: list[dict[str, Any]]) -> None:
    """Replace ``path`` by ``recs``, one per line (atomic)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            for r in recs:
                f.write(_safe_line(r))
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _explicit_keys(params: dict[str, Any]) -> dict[str, str]:
    """API keys given as ``api_key=`` to an informalizer among ``params`` (by key id)."""
    if not any(hasattr(v, "_key_id") for v in params.values()):
        return {}
    from embeddings.informalize import worker_keys

    return worker_keys(*params.values())


def _run_processes(todo: list, params: dict[str, Any], workers: int, emit: Any, timing: bool,
                   keys: dict[str, str] | None = None) -> None:
    """Local worker processes (loky: robust to worker crashes and safe with torch). ``keys``:
    explicit API keys, handed to each worker when it starts (pickles never carry them)."""
    from concurrent.futures import as_completed

    from joblib.externals.loky import get_reusable_executor

    if keys:
        from embeddings.informalize import install_worker_keys

        ex = get_reusable_executor(max_workers=workers, timeout=60, initializer=install_worker_keys,
                                   initargs=(keys,))
    else:
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


def _dask_client(scheduler: str | Any, timeout: float) -> tuple[Any, bool]:
    """A ``distributed.Client`` for ``scheduler`` (an address or a Client) and whether we own
    it.  The address is asked who it is first (a bounded ``identity`` round trip, in a
    thread of its own), so a host that does not answer, or answers with something other
    than the Dask protocol (which once ended in "MemoryError: Unable to allocate 3.07 EiB"),
    is one ``ConnectionError`` line after at most ``timeout`` seconds."""
    from distributed import Client

    if isinstance(scheduler, Client):
        return scheduler, False
    address = str(scheduler)
    host_port = address.split("://", 1)[-1].rsplit(":", 1)
    if address.startswith("tcp://") and len(host_port) == 2 and host_port[1].isdigit():
        import socket

        try:  # an unreachable host is said so at once (distributed retries until its timeout)
            socket.create_connection((host_port[0].strip("[]"), int(host_port[1])), timeout=timeout).close()
        except OSError as e:
            raise ConnectionError(f"cannot reach the Dask scheduler at {address}: {e.strerror or e}") from None
    why = _probe_scheduler(address, timeout)
    if why is None:
        try:
            return Client(address, timeout=timeout), True
        except Exception as e:  # noqa: BLE001 - it answered the probe but not the client
            why = _why(e)
    raise ConnectionError(f"cannot use the Dask scheduler at {address}: {why}")


def _why(e: BaseException) -> str:
    if isinstance(e, MemoryError):
        return "it answered, but not with the Dask protocol"
    text = str(e).strip().splitlines()[0][:200] if str(e).strip() else ""
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def _probe_scheduler(address: str, timeout: float) -> str | None:
    """None when ``address`` answers a Dask ``identity`` request as a scheduler within
    ``timeout`` seconds, else why not."""
    import asyncio

    from distributed.comm import connect

    async def ask() -> Any:
        comm = await connect(address, timeout=timeout)
        try:
            await comm.write({"op": "identity", "reply": True})
            return await comm.read()
        finally:
            comm.abort()

    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["reply"] = asyncio.run(asyncio.wait_for(ask(), timeout))
        except BaseException as e:  # noqa: BLE001 - reported to the caller
            box["error"] = e

    t = threading.Thread(target=run, name="dask-probe", daemon=True)
    t.start()
    t.join(timeout + 2.0)
    if "error" in box:
        e = box["error"]
        if isinstance(e, (TimeoutError, asyncio.TimeoutError)):
            return f"no answer within {timeout:g} s"
        return _why(e)
    reply = box.get("reply")
    if reply is None:
        return f"no answer within {timeout:g} s"
    if not (isinstance(reply, dict) and reply.get("type") == "Scheduler"):
        return f"it answered, but not as a Dask scheduler ({type(reply).__name__} reply)"
    return None


def _run_dask(todo: list, params: dict[str, Any], client: Any, emit: Any, timing: bool) -> None:
    """Submit every record to a Dask ``distributed`` cluster; write results as they finish."""
    from distributed import as_completed

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


def _dedup_encoder(rr: Any) -> Any:
    """The embedder that finds near-duplicate problems: the reranker's own, except MiniLM's
    static distillation (``STATIC_MODEL``, an option): a mean of token vectors, it finds "Find x
    with 2x + 3 = 7" and "Show that x = 3 when 2x + 3 = 9" near-duplicates (cosine ≥ 0.98);
    MiniLM itself reads the words in order."""
    from embeddings import DEFAULT_MODEL, STATIC_MODEL, shared_embedder

    if isinstance(rr.embedder, str) and rr.embedder == STATIC_MODEL:
        return shared_embedder(DEFAULT_MODEL, rr.embed_precision)
    return rr.embedder_


def filter_file(
    in_path: str | Path,
    out_path: str | Path,
    params: dict[str, Any] | None = None,
    *,
    keep: str = "majority",
    tau: float = 0.5,
    dedup: float = 0.95,
    progress: bool = True,
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
    majority; vacuous candidates are never the majority.  A statement the prover's own
    checker would reject (flag ``ill_formed``: raw Unicode in Isabelle source, a type
    ``Complex_Main`` lacks, …) is never kept, whatever its class: it still counts for the
    size of its class (by default, that of the same statement only: ``compare_ill_formed``).
    ``progress``: a progress bar over the problems on stderr.
    """
    if keep not in KEEP_MODES:
        raise ValueError(f"keep must be one of {KEEP_MODES}, got {keep!r}")
    from embeddings import near_duplicates
    from rerank.api import Reranker
    from rerank.cluster import ILL_FORMED_FLAG

    rr = Reranker(**(params or {}))
    check_paths(Path(in_path), Path(out_path))
    records = _group_pairs(list(iter_records(in_path)))
    usable = [(rid, rec) for rid, rec, problem in records if problem is None and rec is not None
              and check_record(rec) is None]
    stats = {"problems": len(records), "errors": len(records) - len(usable), "duplicates": 0,
             "pairs": 0, "kept": 0, "ill_formed": 0}
    if usable and dedup < 1.0:
        dup = near_duplicates([rec["informal"] for _, rec in usable], dedup,
                              encoder=_dedup_encoder(rr), backend="faiss")
        stats["duplicates"] = len(dup.drop)
        usable = [usable[i] for i in dup.keep]
    Path(out_path).parent.mkdir(parents=True, exist_ok=True)
    Path(out_path).write_text("")  # a filter run always writes a fresh file
    writer = _Writer(Path(out_path))
    from tqdm import tqdm

    try:
        for rid, rec in tqdm(usable, desc="filter", unit="problem", file=sys.stderr, disable=not progress):
            try:
                r = rr.rerank(rec["informal"], rec["candidates"], rec.get("informalizations"))
            except Exception:  # noqa: BLE001 - one bad problem is counted, the filter goes on
                log.warning("filter: record %s failed", rid, exc_info=True)
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
                if any(f.startswith(ILL_FORMED_FLAG) for f in r.flags[i]):
                    stats["ill_formed"] += 1
                    ok = False
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
