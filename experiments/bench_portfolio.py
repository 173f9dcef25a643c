"""Solver configuration and portfolio control, before and after, side by side (issue 14, item 4).

::

    git archive <base commit> | tar -x -C /tmp/base      # the tree before the change
    nice -n 10 python experiments/bench_portfolio.py ../shared/data/isabelle_math_400.jsonl \
        --base /tmp/base --timeout 1 --out experiments/out/portfolio.jsonl

The verdict fixture's 40 ``isabelle_math_400`` problems (``side_by_side.sample_indices``), each
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
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from side_by_side import run_alternating, sample_indices, start_worker  # noqa: E402

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

    data = str(Path(args.data).resolve())
    n_rows = sum(1 for x in Path(data).read_text().splitlines() if x.strip())
    sample = sample_indices(n_rows)
    sample = sample[: args.limit] if args.limit else sample
    variants = [v for v in VARIANTS if v != "before" or args.base]
    trees = {"before": Path(args.base or HERE).resolve(), "after": HERE, "after-s0": HERE}
    stagger = {"before": None, "after": None, "after-s0": "0"}
    procs = {v: start_worker(__file__, trees[v], [data, "--timeout", str(args.timeout)],
                             {"PROVERS_PORTFOLIO_STAGGER": stagger[v]} if stagger[v] is not None else None)
             for v in variants}
    print(f"load average at start: {os.getloadavg()}", file=sys.stderr)
    results = run_alternating(procs, [str(i) for i in sample], Path(args.out), desc="problems")
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
