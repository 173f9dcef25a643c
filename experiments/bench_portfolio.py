"""Solver configuration and portfolio control, before and after, side by side (issue 14, item 4).

::

    git archive <base commit> | tar -x -C /tmp/base      # the tree before the change
    nice -n 10 python experiments/bench_portfolio.py ../shared/data/isabelle_math_400.jsonl \
        --base /tmp/base --timeout 1 --out experiments/out/portfolio.jsonl

The verdict fixture's 40 ``isabelle_math_400`` problems (``bench_pinning.sample_indices``), each
clustered (``rerank.cluster.Clusterer``, ``symbolic``, Isabelle, 1 s per solver call, caches
empty) by each variant in its own long-lived worker process, one process running at a time,
the order rotating per problem:

* ``before``: the tree given by ``--base``;
* ``after``: this tree (losers stopped, z3 first with the default stagger);
* ``after-s0``: this tree with ``PROVERS_PORTFOLIO_STAGGER=0`` (both solvers at once, losers
  stopped): what the stagger alone adds.

Per problem: wall time, solver CPU seconds (user + system time of the solver worker
processes: the live ones read from ``/proc``, the killed ones from ``RUSAGE_CHILDREN``),
engine checks, inconclusive checks, solver calls, classes. Summary at the end, with the
ratios against ``before``.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_pinning import sample_indices  # noqa: E402

HERE = Path(__file__).resolve().parents[1]
VARIANTS = ("before", "after", "after-s0")


def _cpu_of(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return 0.0


def worker(tree: str, data: str, timeout: float) -> None:
    """Serve problem indices on stdin, one JSON record per problem on stdout."""
    import provers
    from provers.backends.smt.pool import default_pool
    from rerank.cluster import Clusterer

    assert Path(provers.__file__).resolve().is_relative_to(Path(tree).resolve()), provers.__file__
    rows = [json.loads(x) for x in Path(data).read_text().splitlines() if x.strip()]
    pool = default_pool()
    seen: dict[int, float] = {}  # worker pid -> CPU seconds already counted

    def solver_cpu() -> float:
        """CPU of solver workers since the last call (live ones by /proc, reaped ones by rusage)."""
        total = 0.0
        for pid in pool.pids():
            now = _cpu_of(pid)
            total += now - seen.get(pid, 0.0)
            seen[pid] = now
        reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
        r = reaped.ru_utime + reaped.ru_stime
        total += r - seen.get(-1, 0.0)
        seen[-1] = r
        # a reaped worker's CPU appears in rusage in full: remove what /proc already counted
        for pid in [p for p in seen if p > 0 and p not in pool.pids()]:
            total -= seen.pop(pid)
        return total

    print(json.dumps({"ready": str(Path(provers.__file__).parent)}), flush=True)
    for line in sys.stdin:
        i = int(line)
        c = Clusterer("symbolic", "isabelle", timeout, cache={})
        solver_cpu()
        t0 = time.perf_counter()
        c.extend([cand["formal"] for cand in rows[i]["candidates"]])
        dt = time.perf_counter() - t0
        cpu = solver_cpu()
        s = c.stats
        print(json.dumps({
            "id": rows[i]["id"], "time": dt, "solver_cpu": cpu, "checks": s.checks,
            "inconclusive": s.inconclusive, "equivalent": s.equivalent, "inequivalent": s.inequivalent,
            "solver_calls": s.solver_calls + s.vacuity_solver_calls, "k": s.k, "classes": len(c.classes),
            "classes_list": c.classes,
        }), flush=True)


def _start(tree: Path, data: str, timeout: float, stagger: str | None) -> subprocess.Popen:
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", str(tree), data, "--timeout", str(timeout)]
    env = dict(os.environ, PYTHONPATH=str(tree), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    if stagger is not None:
        env["PROVERS_PORTFOLIO_STAGGER"] = stagger
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=str(tree), env=env)
    assert p.stdout is not None
    print(f"worker {tree}: provers from {json.loads(p.stdout.readline())['ready']}", file=sys.stderr)
    return p


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    times = sorted(r["time"] for r in rows)
    checks = sum(r["checks"] for r in rows)
    return {
        "problems": len(rows),
        "time_mean": statistics.fmean(times), "time_median": statistics.median(times),
        "solver_cpu_total": sum(r["solver_cpu"] for r in rows),
        "solver_cpu_per_check": sum(r["solver_cpu"] for r in rows) / max(1, checks),
        "solver_calls": statistics.fmean(r["solver_calls"] for r in rows),
        "checks": statistics.fmean(r["checks"] for r in rows),
        "inconclusive": statistics.fmean(r["inconclusive"] for r in rows),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", help="isabelle_math_400.jsonl")
    ap.add_argument("--base", help="a checkout of the commit before the change (for 'before')")
    ap.add_argument("--timeout", type=float, default=1.0, help="seconds per solver call")
    ap.add_argument("--limit", type=int, default=0, help="first N problems of the sample only")
    ap.add_argument("--out", default="experiments/out/portfolio.jsonl", help="per-problem records (JSONL)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker(args.worker, args.data, args.timeout)
        return 0
    from tqdm import tqdm

    data = str(Path(args.data).resolve())
    n_rows = sum(1 for x in Path(data).read_text().splitlines() if x.strip())
    sample = sample_indices(n_rows)
    sample = sample[: args.limit] if args.limit else sample
    variants = [v for v in VARIANTS if v != "before" or args.base]
    trees = {"before": Path(args.base or HERE).resolve(), "after": HERE, "after-s0": HERE}
    stagger = {"before": None, "after": None, "after-s0": "0"}
    procs = {v: _start(trees[v], data, args.timeout, stagger[v]) for v in variants}
    results: dict[str, list[dict[str, Any]]] = {v: [] for v in variants}
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    print(f"load average at start: {os.getloadavg()}", file=sys.stderr)
    with out.open("w") as fh:
        for n, i in enumerate(tqdm(sample, desc="problems")):
            for v in variants[n % len(variants):] + variants[: n % len(variants)]:
                p = procs[v]
                assert p.stdin is not None and p.stdout is not None
                p.stdin.write(f"{i}\n")
                p.stdin.flush()
                rec = json.loads(p.stdout.readline())
                rec["variant"] = v
                results[v].append(rec)
                fh.write(json.dumps(rec) + "\n")
                fh.flush()
    for p in procs.values():
        assert p.stdin is not None
        p.stdin.close()
        p.wait()
    summary = {v: summarize(rs) for v, rs in results.items()}
    if "before" in summary:
        b = summary["before"]
        for v in variants:
            s = summary[v]
            s["ratio_time_mean"] = s["time_mean"] / b["time_mean"]
            s["ratio_solver_cpu"] = s["solver_cpu_total"] / max(1e-9, b["solver_cpu_total"])
        changed = [(rb["id"], rb["classes_list"], ra["classes_list"])
                   for rb, ra in zip(results["before"], results["after"], strict=True)
                   if rb["classes_list"] != ra["classes_list"]]
        summary["classes_changed"] = changed
    summary["load_average_end"] = os.getloadavg()
    print(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
