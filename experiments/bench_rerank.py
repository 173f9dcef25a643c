"""Benchmark the reranker's clustering against the naive all-pairs method, and its growth in k.

::

    python experiments/bench_rerank.py ../shared/data/isabelle_math_400.jsonl --limit 30 --timeout 1

For each problem (the first ``--limit`` of the file), in one process:

* **library**: ``rerank.cluster.cluster`` (union-find, checks against class representatives
  only, signature buckets, fingerprints, canonical-form hits, verdict cache), vacuity
  check off so that both sides do the same job (clustering);
* **naive all-pairs**: every one of the k(k-1)/2 pairs goes to
  ``provers.check_equivalence`` (no union-find, no buckets, no clusterer fingerprints,
  ``fingerprint_points=0`` inside the engine, and a backend without a verdict cache).
  The clustering module has no option for this, so it is a clearly-labelled loop here.

Each method gets a fresh SMT portfolio (its verdict cache empty) per problem and k, so
no run profits from an earlier one.  Reported per problem: wall time, engine checks,
solver (backend) calls, and the ideal number of proofs, one per merge (k − classes).
Growth in k: k = 5, 10, 20, 40 by resampling each problem's candidates with replacement
(seeded); duplicates are exact copies, which the library settles by canonical form.
Peak memory: the Python heap (tracemalloc) and the resident set of this process and of
the solver worker processes (``resource.getrusage``).
"""

from __future__ import annotations

import argparse
import json
import resource
import signal
import sys
import time
import tracemalloc
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "experiments"))

from paper_tables import load_problems  # noqa: E402

import provers  # noqa: E402
from provers.errors import ParseError  # noqa: E402
from rerank.cluster import Clusterer, CountingBackend, UnionFind  # noqa: E402

KS = (5, 10, 20, 40)


class RunTimeout(BaseException):  # not swallowed by the library's `except Exception`
    """One (problem, k, method) run exceeded ``--run-budget``."""


def _alarm(signum: int, frame: Any) -> None:
    raise RunTimeout


def guarded(fn: Any, cands: Sequence[str], timeout: float, budget: float) -> dict[str, Any] | None:
    """``fn(cands, timeout)``, or None when it runs over ``budget`` seconds (0: no limit)."""
    if budget <= 0:
        return fn(cands, timeout)
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, budget)
    try:
        return fn(cands, timeout)
    except RunTimeout:
        return None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def fresh_backend(cache: bool) -> Any:
    """A new SMT portfolio (shared solver worker pool, own verdict cache or none)."""
    from provers.backends.smt import Portfolio

    return Portfolio(use_cache=cache)


def run_library(cands: Sequence[str], timeout: float) -> dict[str, Any]:
    """The library's clustering of one pool, with a fresh backend and verdict cache."""
    # its own backend, so that its verdict cache starts empty (the clusterer otherwise
    # shares the process-wide one across problems)
    c = Clusterer("symbolic", "isabelle", timeout, check_vacuous=False, cache={},
                  backend=fresh_backend(cache=True))
    t0 = time.perf_counter()
    c.extend(list(cands))
    dt = time.perf_counter() - t0
    k = len(cands)
    n_cls = len(c.classes)
    return {"time": dt, "checks": c.stats.checks, "solver_calls": c.stats.solver_calls,
            "classes": n_cls, "ideal": k - n_cls, "inconclusive": c.stats.inconclusive,
            "partition": sorted(map(sorted, c.classes))}


def run_naive(cands: Sequence[str], timeout: float) -> dict[str, Any]:
    """NAIVE ALL-PAIRS (benchmark reference, not the library): every pair checked."""
    from provers.engine.equivalence import check_equivalence

    backend = CountingBackend(fresh_backend(cache=False))
    t0 = time.perf_counter()
    sts = []
    for text in cands:
        try:
            sts.append(provers.parse(text, "isabelle"))
        except (ParseError, RecursionError):
            sts.append(None)
    uf = UnionFind()
    for _ in cands:
        uf.add()
    checks = inconclusive = 0
    for i in range(len(cands)):
        for j in range(i + 1, len(cands)):
            if sts[i] is None or sts[j] is None:
                continue
            checks += 1
            try:
                v = check_equivalence(sts[i], sts[j], relation="symbolic", timeout=timeout,
                                      backend=backend, fingerprint_points=0)
                status = v.status
            except Exception:  # noqa: BLE001 - an engine failure is inconclusive
                status = "inconclusive"
            if status == "equivalent":
                uf.union(i, j)
            elif status == "inconclusive":
                inconclusive += 1
    dt = time.perf_counter() - t0
    n_cls = len(uf.groups())
    return {"time": dt, "checks": checks, "solver_calls": backend.calls, "classes": n_cls,
            "ideal": len(cands) - n_cls, "inconclusive": inconclusive,
            "partition": sorted(map(sorted, uf.groups()))}


def resample(cands: Sequence[str], k: int, rng: np.random.Generator) -> list[str]:
    """k candidates drawn with replacement (k = len(cands) gives the original pool)."""
    if k == len(cands):
        return list(cands)
    return [cands[i] for i in rng.integers(0, len(cands), size=k)]


def summarize(rows: list[dict[str, Any]]) -> dict[str, float]:
    def mean(key: str) -> float:
        return float(np.mean([r[key] for r in rows]))

    ideal = sum(r["ideal"] for r in rows)
    return {
        "problems": len(rows),
        "time_mean": mean("time"),
        "time_median": float(np.median([r["time"] for r in rows])),
        "checks_mean": mean("checks"),
        "solver_calls_mean": mean("solver_calls"),
        "ideal_mean": mean("ideal"),
        "classes_mean": mean("classes"),
        "inconclusive_mean": mean("inconclusive"),
        "checks_per_ideal": sum(r["checks"] for r in rows) / ideal if ideal else float("nan"),
        "solver_calls_per_ideal": sum(r["solver_calls"] for r in rows) / ideal if ideal else float("nan"),
    }


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data")
    ap.add_argument("--limit", type=int, default=30, help="first N problems")
    ap.add_argument("--naive-limit", type=int, default=None,
                    help="run the naive method on the first N of those (default: all)")
    ap.add_argument("--naive-ks", default="5,10", help="k values for the naive method too")
    ap.add_argument("--ks", default=",".join(map(str, KS)))
    ap.add_argument("--timeout", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--run-budget", type=float, default=0.0,
                    help="seconds per (problem, k, method) run; a run over it is dropped "
                         "(with its pair) and counted")
    ap.add_argument("--img", default=str(ROOT / "docs" / "img" / "bench_rerank_k.png"))
    ap.add_argument("--json", default=str(ROOT / "experiments" / "out" / "bench_rerank.json"))
    args = ap.parse_args(argv)
    from tqdm import tqdm

    problems = load_problems(args.data, args.limit)
    ks = [int(x) for x in args.ks.split(",")]
    naive_ks = {int(x) for x in args.naive_ks.split(",") if x}
    n_naive = args.naive_limit if args.naive_limit is not None else len(problems)
    rng = np.random.default_rng(args.seed)
    pools = {k: [resample([c["formal"] for c in p["candidates"]], k, rng) for p in problems]
             for k in ks}
    tracemalloc.start()
    lib: dict[int, list[dict[str, Any]]] = {k: [] for k in ks}
    nav: dict[int, list[dict[str, Any]]] = {k: [] for k in ks}
    lib_paired: dict[int, list[dict[str, Any]]] = {k: [] for k in ks}
    disagree = 0
    over: dict[str, int] = {"library": 0, "naive": 0}
    t_all = time.perf_counter()
    with tqdm(total=sum(len(problems) + (n_naive if k in naive_ks else 0) for k in ks),
              desc="bench", file=sys.stderr) as bar:
        for k in ks:
            for i, cands in enumerate(pools[k]):
                a = guarded(run_library, cands, args.timeout, args.run_budget)
                bar.update(1)
                b = None
                if k in naive_ks and i < n_naive:
                    b = guarded(run_naive, cands, args.timeout, args.run_budget)
                    bar.update(1)
                    if b is None:
                        over["naive"] += 1
                if a is None:
                    over["library"] += 1
                    continue
                if k in naive_ks and i < n_naive:
                    if b is None:
                        continue  # keep the paired comparison on the same problems
                    nav[k].append(b)
                    lib_paired[k].append(a)
                    if b["partition"] != a["partition"]:
                        disagree += 1
                lib[k].append(a)
            # results so far after every k (a long run can be cut short and still report)
            out = collect(args, argv, lib, nav, lib_paired, over, disagree, t_all)
            Path(args.json).parent.mkdir(parents=True, exist_ok=True)
            Path(args.json).write_text(json.dumps(out, indent=1), encoding="utf-8")
            plot(out, Path(args.img))
    tracemalloc.stop()
    print(render(out))
    return 0


def collect(args: Any, argv: Sequence[str] | None, lib: dict, nav: dict, lib_paired: dict,
            over: dict, disagree: int, t_all: float) -> dict[str, Any]:
    """Summary of the runs so far (memory figures are the peaks up to now)."""
    _, peak = tracemalloc.get_traced_memory()
    return {
        "command": "python experiments/bench_rerank.py " + " ".join(argv or sys.argv[1:]),
        "timeout": args.timeout,
        "library": {k: summarize(v) for k, v in lib.items() if v},
        "naive": {k: summarize(v) for k, v in nav.items() if v},
        "library_on_naive_subset": {k: summarize(v) for k, v in lib_paired.items() if v},
        "runs_over_budget": dict(over),
        "run_budget": args.run_budget,
        "partition_disagreements": disagree,
        "peak_python_heap_mb": peak / 2**20,
        "max_rss_self_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "max_rss_solver_children_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
        "wall_s": time.perf_counter() - t_all,
    }


def plot(out: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    path.parent.mkdir(parents=True, exist_ok=True)
    fig, ax = plt.subplots(figsize=(5.5, 3.8))
    ks = sorted(out["library"])
    n_lib = max(out["library"][k]["problems"] for k in ks)
    ax.plot(ks, [out["library"][k]["time_mean"] for k in ks], marker="o",
            label=f"library clustering ({n_lib} problems)")
    nk = sorted(out["naive"])
    if nk:
        n_nav = out["naive"][nk[0]]["problems"]
        ax.plot(nk, [out["library_on_naive_subset"][k]["time_mean"] for k in nk], marker="^",
                ls="--", label=f"library, same {n_nav} problems as naive")
        ax.plot(nk, [out["naive"][k]["time_mean"] for k in nk], marker="s",
                label=f"naive all-pairs ({n_nav} problems)")
    ax.set_xlabel("k (candidates per problem)")
    ax.set_ylabel("seconds per problem (mean)")
    ax.set_xscale("log", base=2)
    ax.set_xticks(ks, [str(k) for k in ks])
    ax.grid(alpha=0.3)
    ax.legend()
    ax.set_title(f"Clustering time vs k (timeout {out['timeout']:g} s per solver call)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def render(out: dict[str, Any]) -> str:
    lines = [f"Command: `{out['command']}`", ""]
    lines.append("| method | k | problems | s/problem (mean) | median | engine checks | "
                 "solver calls | ideal proofs (k − classes) | checks / ideal | solver calls / ideal | inconclusive |")
    lines.append("|---|---|---|---|---|---|---|---|---|---|---|")

    def row(name: str, k: Any, s: dict[str, float]) -> None:
        lines.append(
            f"| {name} | {k} | {s['problems']} | {s['time_mean']:.2f} | {s['time_median']:.2f} | "
            f"{s['checks_mean']:.1f} | {s['solver_calls_mean']:.1f} | {s['ideal_mean']:.1f} | "
            f"{s['checks_per_ideal']:.2f} | {s['solver_calls_per_ideal']:.2f} | {s['inconclusive_mean']:.2f} |")

    for k in sorted(out["naive"]):
        row("library (same problems)", k, out["library_on_naive_subset"][k])
        row("naive all-pairs", k, out["naive"][k])
    for k in sorted(out["library"]):
        row("library", k, out["library"][k])
    lines.append("")
    lines.append(f"Runs over the {out['run_budget']:g} s budget (dropped): {out['runs_over_budget']}. "
                 f"Partitions that differ between the two methods: {out['partition_disagreements']}. "
                 f"Peak Python heap (tracemalloc): {out['peak_python_heap_mb']:.0f} MB; max RSS: "
                 f"{out['max_rss_self_mb']:.0f} MB (this process), "
                 f"{out['max_rss_solver_children_mb']:.0f} MB (largest solver worker). "
                 f"Wall time {out['wall_s']:.0f} s.")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
