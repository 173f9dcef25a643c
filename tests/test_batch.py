"""Batch runs: error records, resume after SIGKILL, partial lines, Parquet, workers, Dask."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from rerank.batch import read_done_ids, run_batch

GOOD = "theorem t (x : ℝ) (h : 2 * x + 3 = 7) : x = 2 := by sorry"
SAME = "theorem t (y : ℝ) (h : 3 + 2 * y = 7) : y = 2 := by sorry"
WRONG = "theorem t (x : ℝ) (h : 2 * x + 3 = 7) : x = 3 := by sorry"
NEEDS_SMT = "theorem t (x : ℝ) (h : 2 * x = 4) : x = 2 := by sorry"
PROSE = "x is two."

# no back-translations and no model: these tests are about the runner, not the scores
FAST = {"relation": "syntactic", "informalizer": "none", "check_vacuous": False,
        "check_truth": False}


def problem(i: int, **extra) -> dict:
    rec = {"id": f"p{i}", "informal": f"Problem {i}: 2x + 3 = 7, show x = 2.",
           "candidates": [GOOD, WRONG, SAME, NEEDS_SMT, PROSE][: 2 + i % 4],
           "labels": [1, 0, 1, 1, 0][: 2 + i % 4]}
    rec.update(extra)
    return rec


def write_jsonl(path: Path, recs: list, raw_lines: tuple = ()) -> Path:
    with open(path, "w", encoding="utf-8") as f:
        for r in recs:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
        for line in raw_lines:
            f.write(line + "\n")
    return path


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines()]


def test_bad_records_become_error_records_and_the_rest_succeed(tmp_path):
    recs = [problem(0), {"id": "no-cands", "informal": "x"}, problem(1),
            {"id": "bad-cands", "informal": "x", "candidates": [1, 2]},
            {"id": "bad-labels", "informal": "x", "candidates": [GOOD], "labels": [1, 0]},
            problem(2), {"informal": "no id", "candidates": [GOOD]}]
    inp = write_jsonl(tmp_path / "in.jsonl", recs, raw_lines=("{not json", "[1, 2]"))
    out = tmp_path / "out.jsonl"
    s = run_batch(inp, out, FAST, progress=False)
    got = lines(out)
    assert [r["id"] for r in got] == ["p0", "no-cands", "p1", "bad-cands", "bad-labels", "p2",
                                      "line-7", "line-8", "line-9"]
    status = {r["id"]: r["status"] for r in got}
    assert [k for k, v in status.items() if v == "ok"] == ["p0", "p1", "p2", "line-7"]
    errors = {r["id"]: r["error"] for r in got if r["status"] == "error"}
    assert "candidates" in errors["no-cands"]
    assert "not strings" in errors["bad-cands"]
    assert "'labels' must be a list of 1" in errors["bad-labels"]
    assert "invalid JSON" in errors["line-8"] and "in.jsonl:8" in errors["line-8"]
    assert "expected a JSON object" in errors["line-9"]
    assert (s.ok, s.errors, s.skipped) == (4, 5, 0)
    ok = {r["id"]: r for r in got if r["status"] == "ok"}
    assert ok["p1"]["labels"] == [1, 0, 1] and ok["p1"]["classes"] == [[0, 2], [1]]


def test_rerun_skips_finished_ids_and_retry_errors_redoes_errors(tmp_path):
    inp = write_jsonl(tmp_path / "in.jsonl", [problem(i) for i in range(4)], raw_lines=("oops",))
    out = tmp_path / "out.jsonl"
    run_batch(inp, out, FAST, progress=False)
    first = out.read_text()
    s = run_batch(inp, out, FAST, progress=False)
    assert (s.skipped, s.ok, s.errors) == (5, 0, 0)
    assert out.read_text() == first
    s = run_batch(inp, out, FAST, progress=False, retry_errors=True)
    assert (s.skipped, s.errors) == (4, 1)
    assert out.read_text() == first  # same records, same order


def test_duplicate_ids_are_reported_not_merged(tmp_path):
    inp = write_jsonl(tmp_path / "in.jsonl", [problem(0), problem(1), problem(0)])
    out = tmp_path / "out.jsonl"
    s = run_batch(inp, out, FAST, progress=False)
    got = lines(out)
    assert [r["id"] for r in got] == ["p0", "p1", "p0#dup2"]
    assert got[2]["status"] == "error" and "duplicate id 'p0'" in got[2]["error"]
    assert (s.ok, s.errors) == (2, 1)


def test_partial_last_line_is_truncated_and_redone(tmp_path):
    inp = write_jsonl(tmp_path / "in.jsonl", [problem(i) for i in range(5)])
    out = tmp_path / "out.jsonl"
    run_batch(inp, out, FAST, progress=False)
    full = out.read_text()
    kept = full.splitlines(keepends=True)[:2]
    out.write_text("".join(kept) + full.splitlines()[2][:25])  # a torn write
    assert set(read_done_ids(out, repair=False)) == {"p0", "p1"}
    assert out.read_text() != "".join(kept)  # a reader leaves the file alone
    assert set(read_done_ids(out)) == {"p0", "p1"}
    assert out.read_text() == "".join(kept)  # the torn tail is gone
    run_batch(inp, out, FAST, progress=False)
    assert out.read_text() == full


SCRIPT = """
import sys
from rerank.batch import run_batch
run_batch(sys.argv[1], sys.argv[2], {"relation": "syntactic", "informalizer": "none",
          "check_vacuous": False}, progress=False)
"""


def test_sigkill_midway_then_rerun_gives_every_record_exactly_once(tmp_path):
    n = 250
    inp = write_jsonl(tmp_path / "in.jsonl", [problem(i) for i in range(n)])
    out = tmp_path / "out.jsonl"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT, str(inp), str(out)], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline and proc.poll() is None:
            if out.exists() and out.read_text(encoding="utf-8", errors="replace").count("\n") >= 3:
                break
            time.sleep(0.01)
        assert proc.poll() is None, "the batch finished before it could be killed"
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    written = out.read_bytes().count(b"\n")
    assert 3 <= written < n
    s = run_batch(inp, out, FAST, progress=False)
    assert s.skipped >= 3 and s.skipped + s.ok == n and s.errors == 0
    got = lines(out)
    assert [r["id"] for r in got] == [f"p{i}" for i in range(n)]  # once each, input order


def test_parquet_input_gives_the_jsonl_output(tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    recs = [problem(i) for i in range(4)]
    pq.write_table(pa.Table.from_pylist(recs), tmp_path / "in.parquet")
    run_batch(tmp_path / "in.parquet", tmp_path / "a.jsonl", FAST, progress=False)
    run_batch(write_jsonl(tmp_path / "in.jsonl", recs), tmp_path / "b.jsonl", FAST, progress=False)
    assert (tmp_path / "a.jsonl").read_text() == (tmp_path / "b.jsonl").read_text()


def test_worker_processes_and_dask_give_the_local_output(tmp_path):
    distributed = pytest.importorskip("distributed")
    recs = [problem(i) for i in range(8)]
    inp = write_jsonl(tmp_path / "in.jsonl", recs, raw_lines=("garbage",))
    params = {"relation": "symbolic", "informalizer": "none", "timeout": 2.0}
    run_batch(inp, tmp_path / "local.jsonl", params, progress=False)
    run_batch(inp, tmp_path / "procs.jsonl", params, workers=2, progress=False)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        run_batch(inp, tmp_path / "dask.jsonl", params, scheduler=cluster.scheduler_address,
                  progress=False)
    local = (tmp_path / "local.jsonl").read_text()
    assert len(local.splitlines()) == 9
    assert sum(json.loads(x).get("stats", {}).get("solver_calls", 0) for x in local.splitlines()) > 0
    assert (tmp_path / "procs.jsonl").read_text() == local
    assert (tmp_path / "dask.jsonl").read_text() == local


def test_timing_is_opt_in(tmp_path):
    inp = write_jsonl(tmp_path / "in.jsonl", [problem(0)])
    run_batch(inp, tmp_path / "a.jsonl", FAST, progress=False)
    run_batch(inp, tmp_path / "b.jsonl", FAST, progress=False, timing=True)
    a, b = lines(tmp_path / "a.jsonl")[0], lines(tmp_path / "b.jsonl")[0]
    assert "timing" not in a
    assert b["timing"]["total"] >= b["timing"]["parse_cluster"] >= 0
    del b["timing"]
    assert a == b


def test_bad_configuration_fails_before_any_work(tmp_path):
    inp = write_jsonl(tmp_path / "in.jsonl", [problem(0)])
    with pytest.raises(ValueError, match="relation"):
        run_batch(inp, tmp_path / "out.jsonl", {"relation": "nope"}, progress=False)
    assert not (tmp_path / "out.jsonl").exists()
    with pytest.raises(FileNotFoundError, match="does not exist"):
        run_batch(tmp_path / "missing.jsonl", tmp_path / "out.jsonl", FAST, progress=False)


def test_prior_fields_pick_among_candidates_the_scores_cannot_separate(tmp_path):
    # three singleton classes, no back-translations: only the prior separates them
    cands = [GOOD, WRONG, NEEDS_SMT]
    recs = [
        {"id": "greedy", "informal": "x", "candidates": cands, "greedy": 2},
        {"id": "logprobs", "informal": "x", "candidates": cands, "logprobs": [-9.0, -1.0, -5.0]},
        {"id": "prior", "informal": "x", "candidates": cands, "prior": [0.0, None, 3.0],
         "logprobs": [-9.0, -1.0, -5.0]},
        {"id": "bad-greedy", "informal": "x", "candidates": cands, "greedy": 3},
        {"id": "bad-prior", "informal": "x", "candidates": cands, "prior": ["a", 1, 2]},
    ]
    inp = write_jsonl(tmp_path / "in.jsonl", recs)
    weighted = tmp_path / "weighted.jsonl"
    run_batch(inp, weighted, {**FAST, "prior_weight": 0.5}, progress=False)
    got = {r["id"]: r for r in lines(weighted)}
    assert got["greedy"]["selected"] == [2] and got["greedy"]["greedy"] == 2
    assert got["logprobs"]["selected"] == [1]
    assert got["prior"]["selected"] == [2]  # an explicit prior wins over logprobs
    assert got["bad-greedy"]["status"] == "error" and "greedy" in got["bad-greedy"]["error"]
    assert got["bad-prior"]["status"] == "error" and "prior" in got["bad-prior"]["error"]
    ignored = tmp_path / "ignored.jsonl"
    run_batch(inp, ignored, FAST, progress=False)
    assert {r["id"]: r.get("selected") for r in lines(ignored)}["greedy"] == [0]
