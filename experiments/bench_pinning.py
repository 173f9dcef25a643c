"""Answer pinning, before and after, side by side: clustering a fixed MATH sample.

::

    git archive <base commit> | tar -x -C /tmp/base      # the tree before the change
    nice -n 10 python experiments/bench_pinning.py ../shared/data/isabelle_math_400.jsonl \
        --base /tmp/base --timeout 1 --out experiments/out/pinning.jsonl

The sample is ``experiments/verdict_fixture.py``'s: 40 problems drawn with ``random.Random(0)``.
Each problem is clustered (``rerank.cluster.Clusterer``, ``symbolic``, Isabelle, 1 s per solver
call, vacuity test on, verdict cache empty) by three variants, one after the other, each in
its own long-lived worker process (one process runs at a time; the order of the variants
rotates per problem so that load drifts hit them alike):

* ``before``: the tree given by ``--base``;
* ``after``: this tree (pins computed per check);
* ``after+cache``: this tree with one ``answer_cache`` per problem passed to every check (what
  the clusterer gets once pins are wired into its per-candidate profile).

``--pins`` instead counts what ``pin_answer`` decides on each parsed candidate of the sample.

Per problem: wall time, engine checks, inconclusive checks, solver calls (pair checks and
vacuity tests; ``solver_runs``: those that missed the backend's verdict cache, i.e. really
ran a solver), classes; for ``after*`` also the routes of decided verdicts and whether the
value-projection obligation was still an inconclusive reason. Summary at the end.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE / "experiments"))
from side_by_side import run_alternating, sample_indices, start_worker  # noqa: E402

VARIANTS = ("before", "after", "after+cache")




# --------------------------------------------------------------------------------------
# worker: one tree, problems by index on stdin, one JSON line per problem on stdout
# --------------------------------------------------------------------------------------


def worker(tree: str, data: str, timeout: float, cache: bool) -> None:
    sys.path.insert(0, tree)
    import provers
    import provers.engine.equivalence as eq
    from rerank.cluster import Clusterer, default_backend

    assert Path(provers.__file__).resolve().is_relative_to(Path(tree).resolve()), provers.__file__
    rows = [json.loads(x) for x in Path(data).read_text().splitlines() if x.strip()]
    real = eq.check_equivalence
    verdicts: list[Any] = []
    state: dict[str, Any] = {}

    def recording(*args: Any, **kw: Any) -> Any:
        if cache:
            kw.setdefault("answer_cache", state["pins"])
        v = real(*args, **kw)
        verdicts.append(v)
        return v

    eq.check_equivalence = recording
    print(json.dumps({"ready": str(Path(provers.__file__).parent)}), flush=True)
    for line in sys.stdin:
        i = int(line)
        verdicts.clear()
        state["pins"] = {}
        c = Clusterer("symbolic", "isabelle", timeout, cache={})
        vcache = getattr(default_backend(), "cache", None)
        misses = vcache.misses if vcache is not None else 0
        t0 = time.perf_counter()
        c.extend([cand["formal"] for cand in rows[i]["candidates"]])
        dt = time.perf_counter() - t0
        runs = (vcache.misses - misses) if vcache is not None else None
        s = c.stats
        routes = Counter(getattr(v, "route", "") or v.status for v in verdicts if v.status != "inconclusive")
        value_undecided = sum(1 for v in verdicts if v.status == "inconclusive"
                              and "value projections" in (v.reason or ""))
        reasons = Counter((v.reason or "")[:160] for v in verdicts if v.status == "inconclusive")
        print(json.dumps({
            "id": rows[i]["id"], "time": dt, "checks": s.checks, "inconclusive": s.inconclusive,
            "equivalent": s.equivalent, "inequivalent": s.inequivalent,
            "solver_calls": s.solver_calls + s.vacuity_solver_calls,
            "pair_solver_calls": s.solver_calls, "solver_runs": runs, "k": s.k, "classes": len(c.classes),
            "classes_list": c.classes, "routes": dict(routes), "value_undecided": value_undecided,
            "inconclusive_reasons": dict(reasons),
        }), flush=True)


# --------------------------------------------------------------------------------------
# per candidate: what pin_answer decides (this tree only)
# --------------------------------------------------------------------------------------


def pin_census(data: str, timeout: float, limit: int) -> dict[str, Any]:
    """``pin_answer`` on every parsed candidate of the sample: statuses and how they were
    reached (``status/by``), one fresh ``Prover`` per candidate."""
    import provers
    from provers.deadline import Deadline
    from provers.engine.align import drop_unused
    from provers.engine.answers import pin_answer
    from provers.engine.normal import normalize
    from provers.engine.prover import Prover, default_backend

    rows = [json.loads(x) for x in Path(data).read_text().splitlines() if x.strip()]
    sample = sample_indices(len(rows))
    sample = sample[:limit] if limit else sample
    backend = default_backend()
    counts: Counter = Counter()
    for i in sample:
        for cand in rows[i]["candidates"]:
            try:
                nf = drop_unused(normalize(provers.parse(cand["formal"], "isabelle")))
            except Exception:  # noqa: BLE001 - unparsable candidates are counted, not pinned
                counts["parse error"] += 1
                continue
            pin = pin_answer(nf, Prover(backend, timeout, Deadline.after(10 * timeout)))
            counts[f"{pin.status}/{pin.by}" if pin.by else pin.status] += 1
    return dict(counts.most_common())


# --------------------------------------------------------------------------------------
# driver
# --------------------------------------------------------------------------------------


def summarize(rows: list[dict[str, Any]]) -> dict[str, Any]:
    def mean(k: str) -> float:
        return statistics.fmean(r[k] for r in rows)

    times = sorted(r["time"] for r in rows)
    routes: Counter = Counter()
    for r in rows:
        routes.update(r["routes"])
    return {
        "problems": len(rows),
        "checks": mean("checks"), "inconclusive": mean("inconclusive"),
        "solver_calls": mean("solver_calls"), "pair_solver_calls": mean("pair_solver_calls"),
        "solver_runs": mean("solver_runs"),
        "value_undecided": mean("value_undecided"),
        "ideal_proofs": statistics.fmean(r["k"] - r["classes"] for r in rows),
        "time_mean": statistics.fmean(times), "time_median": statistics.median(times),
        "time_p90": times[int(0.9 * (len(times) - 1))], "time_total": sum(times),
        "routes": dict(routes.most_common()),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", help="isabelle_math_400.jsonl")
    ap.add_argument("--base", help="a checkout of the commit before the change (for 'before')")
    ap.add_argument("--timeout", type=float, default=1.0, help="seconds per solver call")
    ap.add_argument("--limit", type=int, default=0, help="first N problems of the sample only")
    ap.add_argument("--out", default="experiments/out/pinning.jsonl", help="per-problem records (JSONL)")
    ap.add_argument("--pins", action="store_true", help="only count pin_answer's statuses per candidate (this tree)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    ap.add_argument("--cache", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker(args.worker, args.data, args.timeout, args.cache)
        return 0
    if args.pins:
        print(json.dumps(pin_census(args.data, args.timeout, args.limit), indent=1))
        return 0
    n_rows = sum(1 for x in Path(args.data).read_text().splitlines() if x.strip())
    sample = sample_indices(n_rows)
    sample = sample[: args.limit] if args.limit else sample
    data = str(Path(args.data).resolve())
    trees = {"after": (HERE, False), "after+cache": (HERE, True)}
    if args.base:
        trees = {"before": (Path(args.base).resolve(), False), **trees}
    workers = {name: start_worker(__file__, tree, [data, "--timeout", str(args.timeout), *(["--cache"] if cache else [])])
               for name, (tree, cache) in trees.items()}
    results = run_alternating(workers, [str(i) for i in sample], Path(args.out), desc="problems")
    summary = {name: summarize(rows) for name, rows in results.items()}
    if "before" in results:
        for name in ("after", "after+cache"):
            b, a = summary["before"], summary[name]
            summary[name]["speedup_total"] = b["time_total"] / a["time_total"]
            same = sum(1 for x, y in zip(results["before"], results[name], strict=True)
                       if x["classes_list"] == y["classes_list"])
            summary[name]["same_classes"] = same
    print(json.dumps(summary, indent=1))
    Path(args.out).with_suffix(".summary.json").write_text(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
