"""Faults during a batch: solver worker processes and the informalizer server killed at random
(seeded) points. Every record is written exactly once, as a result or an error, and a rerun
recomputes nothing (issue 16). Also: a solver worker whose caller was killed exits quietly."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# pairs that need a solver (no syntactic or fingerprint shortcut), so workers are busy; the
# coefficient a is drawn per record, so no earlier test in the process has cached the verdicts
SHAPES = [
    "theorem t (x : ℝ) (h : {a} * x = {b}) : x = 2",
    "theorem t (y : ℝ) (h : y * {a} = {b}) : y = 2",
    "theorem t (x : ℝ) (h : {b} = {a} * x) : 2 = x",
    "theorem t (x : ℝ) (h : {a} * x + 1 = {c}) : x = 2",
    "theorem t (z : ℝ) (h : {c} = 1 + z * {a}) : 2 = z",
]


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
        text = body["messages"][-1]["content"].rsplit("\n\n", 1)[-1]
        data = json.dumps({"choices": [{"message": {"content": f"In words: {text}"}}]}).encode()
        # latency, so a kill can land mid-request and the batch outlasts the chaos thread's first
        # two turns (0.2–0.8 s): with 0.02 s a fast machine finished the five records before the
        # server was ever taken down, and "the faults really happened" failed (stop 50's CI)
        time.sleep(0.1)
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
        except OSError:
            pass


class RestartableServer:
    """An OpenAI-compatible server on a fixed port that can be killed and started again."""

    def __init__(self) -> None:
        self.httpd: ThreadingHTTPServer | None = None
        self.port = 0
        self.start()

    def start(self) -> None:
        self.httpd = ThreadingHTTPServer(("127.0.0.1", self.port), _Handler)
        self.httpd.daemon_threads = True
        self.port = self.httpd.server_address[1]
        threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()

    def kill(self) -> None:
        if self.httpd is not None:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.httpd = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"


def _chaos(stop: threading.Event, server: RestartableServer, seed: int, kills: dict) -> None:
    """Every 0.1-0.4 s (seeded), in turn: SIGKILL a random solver worker, take the server down
    for a while."""
    from provers.backends.smt.pool import default_pool

    rng = random.Random(seed)
    pool = default_pool()
    turn = 0
    while not stop.wait(rng.uniform(0.1, 0.4)):
        turn += 1
        if turn % 2:
            pids = pool.pids()
            if pids:
                try:
                    os.kill(rng.choice(pids), signal.SIGKILL)
                    kills["solver"] += 1
                except ProcessLookupError:
                    pass
        else:
            server.kill()
            kills["server"] += 1
            stop.wait(rng.uniform(0.05, 0.3))
            server.start()


@pytest.mark.timeout(240)
def test_killing_solver_workers_and_the_informalizer_loses_and_duplicates_nothing(tmp_path):
    from embeddings import OpenAIInformalizer
    from rerank.batch import run_batch

    rng = random.Random(16)
    recs = []
    for i in range(5):
        a = rng.randint(11, 97)
        cands = [shape.format(a=a, b=2 * a, c=2 * a + 1) for shape in rng.sample(SHAPES, rng.randint(2, 3))]
        recs.append({"id": f"p{i}", "informal": f"Show that x = 2 when {a}x = {2 * a}.", "candidates": cands})
    inp = tmp_path / "in.jsonl"
    inp.write_text("".join(json.dumps(r) + "\n" for r in recs), encoding="utf-8")
    out = tmp_path / "out.jsonl"

    server = RestartableServer()
    inf = OpenAIInformalizer(model="m", base_url=server.url, timeout=2.0, max_retries=2, backoff=0.0)
    params = {"informalizer": inf, "relation": "symbolic", "timeout": 1.0}
    stop, kills = threading.Event(), {"solver": 0, "server": 0}
    chaos = threading.Thread(target=_chaos, args=(stop, server, 16, kills), daemon=True)
    chaos.start()
    try:
        s = run_batch(inp, out, params, progress=False)
    finally:
        stop.set()
        chaos.join(timeout=5)
    try:
        assert kills["solver"] > 0 and kills["server"] > 0  # the faults really happened
        lines = out.read_text(encoding="utf-8").splitlines()
        got = [json.loads(x) for x in lines]
        assert [g["id"] for g in got] == [r["id"] for r in recs]  # each once, input order
        assert all(g["status"] in ("ok", "error") for g in got)
        assert s.ok + s.errors == len(recs) and s.skipped == 0
        for g in got:
            if g["status"] == "ok":  # a fault is at worst an undecided pair or a flag
                assert sorted(i for c in g["classes"] for i in c) == list(range(len(g["candidates"])))
        before = out.read_bytes()
        again = run_batch(inp, out, params, progress=False)
        assert (again.skipped, again.ok, again.errors) == (len(recs), 0, 0)  # nothing recomputed
        assert out.read_bytes() == before
    finally:
        server.kill()
        inf.close()


SOLVER_CALLER = textwrap.dedent("""
    import provers
    from provers.engine.normal import normalize
    from provers.backends.smt.pool import WorkerPool

    hard = normalize(provers.parse("theorem t (x y z : ℤ) : x ^ 3 + y ^ 3 + z ^ 3 ≠ 33")).closed()
    pool = WorkerPool(max_workers=1)
    print("solving", flush=True)
    pool.run([("z3", hard, 3.0)])
""")


@pytest.mark.timeout(60)
def test_a_solver_worker_whose_caller_was_killed_exits_quietly():
    caller = subprocess.Popen([sys.executable, "-c", SOLVER_CALLER], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert caller.stdout.readline().strip() == b"solving"
    time.sleep(1.0)  # the worker is inside z3 now
    caller.kill()
    # the worker shares the caller's stderr: it reaches EOF only once the worker has exited
    _, err = caller.communicate(timeout=45)
    assert b"Traceback" not in err and b"BrokenPipeError" not in err, err.decode(errors="replace")


LONG_SOLVER_CALLER = SOLVER_CALLER.replace('("z3", hard, 3.0)', '("z3", hard, 120.0)')


@pytest.mark.timeout(60)
def test_a_solver_worker_ends_soon_after_its_caller_dies_mid_check():
    """A caller killed while its worker is in a 120 s check: the worker notices its parent is
    gone (``pool._exit_with_parent``) and ends within seconds, not when the check does."""
    caller = subprocess.Popen([sys.executable, "-c", LONG_SOLVER_CALLER], cwd=ROOT, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert caller.stdout.readline().strip() == b"solving"
    time.sleep(1.0)  # the worker is inside z3 now
    started = time.monotonic()
    caller.kill()
    # the worker shares the caller's stderr: it reaches EOF only once the worker has exited
    _, err = caller.communicate(timeout=30)
    assert time.monotonic() - started < 15
    assert b"Traceback" not in err, err.decode(errors="replace")
