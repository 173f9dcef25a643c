"""Issue 14's targets, side by side: the commit before the work against this tree, in one run.

::

    git worktree add --detach /tmp/base 5121e98     # the commit before issue 14
    nice -n 10 python experiments/bench_decide.py --base /tmp/base --timeout 1 \
        --math 40 --mutants 25 --gted 0 --embed 40 --out experiments/out/decide.jsonl

Each tree runs in its own long-lived worker process (``PYTHONPATH`` = that tree; one process
runs at a time, so the comparison is one worker against one worker on the same machine and
load; the order of the trees alternates per item so that load drifts hit both alike).
Items, each a row of the shared data (``../shared/data``):

* ``math``: one ``isabelle_math_400`` problem of the verdict fixture's 40-problem sample,
  clustered (``symbolic``, Isabelle, 1 s per solver call, cold verdict cache): wall time,
  engine checks, inconclusive checks, solver calls, k − #classes (one proof per merge);
* ``mutants``: one FormalAlign row: every parsed mutant checked against the aligned statement
  under ``sae``: certified inequivalent / equivalent (listed) / inconclusive / parse error;
* ``gted``: one GTED pair under ``sae``: the verdict against the human label;
* ``embed``: the back-translations of one ``isabelle_math_400`` problem embedded (MiniLM,
  one torch thread): milliseconds, the model loaded once beforehand.

The summary (JSON, also written beside ``--out``) has the issue's figures per tree and the
ratios; per-item records go to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE / "experiments"))
from side_by_side import run_alternating, sample_indices, start_worker  # noqa: E402

DATA = HERE.parent / "shared" / "data"


def _rows(name: str) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (DATA / name).read_text().splitlines() if x.strip()]


# --------------------------------------------------------------------------------------
# worker: one tree; items "<part> <index>" on stdin, one JSON line per item on stdout
# --------------------------------------------------------------------------------------


def worker(tree: str, timeout: float, truth: bool | str = False) -> None:  # noqa: C901 - one handler per part, kept together
    sys.path.insert(0, tree)
    import provers
    from provers.errors import ParseError

    assert Path(provers.__file__).resolve().is_relative_to(Path(tree).resolve()), provers.__file__
    import provers.engine.equivalence as eq
    from rerank.cluster import Clusterer

    rows: dict[str, list[dict[str, Any]]] = {}
    verdicts: list[Any] = []
    real = eq.check_equivalence

    def recording(*args: Any, **kw: Any) -> Any:
        v = real(*args, **kw)
        verdicts.append(v)
        return v

    eq.check_equivalence = recording
    model: dict[str, Any] = {}

    def math(i: int) -> dict[str, Any]:
        row = rows.setdefault("math", _rows("isabelle_math_400.jsonl"))[i]
        verdicts.clear()
        c = Clusterer("symbolic", "isabelle", timeout, cache={}, check_truth=truth)
        t0 = time.perf_counter()
        c.extend([cand["formal"] for cand in row["candidates"]])
        dt = time.perf_counter() - t0
        s = c.stats
        return {"id": row["id"], "time": dt, "checks": s.checks, "inconclusive": s.inconclusive,
                "solver_calls": s.solver_calls + getattr(s, "vacuity_solver_calls", 0),
                "k": s.k, "classes": len(c.classes), "classes_list": [list(x) for x in c.classes],
                "holds": [cand.holds for cand in c.candidates] if truth else None,
                "vacuous": [cand.vacuous for cand in c.candidates]}

    def mutants(i: int) -> dict[str, Any]:
        all_rows = rows.setdefault("mutants", _rows("lean_mutants_formalalign_valid.jsonl"))
        row = all_rows[i]
        ref = [c for c in row["candidates"] if c["label"] == 1]
        out: dict[str, Any] = {"id": row.get("id", i), "counts": Counter(), "equivalent": [], "time": 0.0}
        if not ref:
            return out
        try:
            a = provers.parse(ref[0]["formal"], "lean4")
        except ParseError:
            out["counts"]["reference parse error"] += 1
            return out
        t0 = time.perf_counter()
        for j, cand in enumerate(row["candidates"]):
            if cand["label"] == 1:
                continue
            try:
                b = provers.parse(cand["formal"], "lean4")
            except ParseError:
                out["counts"]["parse error"] += 1
                continue
            v = real(a, b, relation="sae", timeout=timeout)
            out["counts"][str(v.status)] += 1
            if str(v.status) == "equivalent":
                out["equivalent"].append({"candidate": j, "mutation": cand.get("mutation"),
                                          "reason": getattr(v, "route", "") or v.reason or ""})
        out["time"] = time.perf_counter() - t0
        return out

    def gted(i: int) -> dict[str, Any]:
        sys.path.insert(0, str(Path(tree) / "experiments"))
        import verdict_fixture as vf

        row = rows.setdefault("gted", _rows("lean_pairs_gted.jsonl"))[i]
        t0 = time.perf_counter()
        try:
            a = vf._gted_parse(row["reference"], row.get("header", ""))
            b = vf._gted_parse(row["candidate"], row.get("candidate_header", ""))
            status = str(real(a, b, relation="sae", timeout=timeout).status)
        except ParseError:
            status = "parse error"
        return {"id": row["id"], "label": row["label"], "status": status, "time": time.perf_counter() - t0}

    def embed(i: int) -> dict[str, Any]:
        import torch

        row = rows.setdefault("math", _rows("isabelle_math_400.jsonl"))[i]
        if "m" not in model:
            torch.set_num_threads(1)
            from embeddings.embed import shared_embedder

            model["m"] = shared_embedder()
            model["m"].encode(["warm up"])
        texts = [row["informal"]] + [c.get("informalization") or c.get("informal") or "" for c in row["candidates"]]
        t0 = time.perf_counter()
        model["m"].encode(texts)
        return {"id": row["id"], "ms": 1000 * (time.perf_counter() - t0), "texts": len(texts)}

    parts = {"math": math, "mutants": mutants, "gted": gted, "embed": embed}
    print(json.dumps({"ready": str(Path(provers.__file__).parent)}), flush=True)
    for line in sys.stdin:
        part, i = line.split()
        try:
            rec = parts[part](int(i))
        except Exception as e:  # noqa: BLE001 - a crash is a figure to report, not a stop
            rec = {"error": f"{type(e).__name__}: {e}"[:300]}
        rec.update(part=part, index=int(i))
        print(json.dumps(rec, default=lambda o: dict(o) if isinstance(o, Counter) else str(o)), flush=True)


# --------------------------------------------------------------------------------------
# driver
# --------------------------------------------------------------------------------------


def summarize(recs: list[dict[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {"errors": [r for r in recs if "error" in r]}
    by = {p: [r for r in recs if r["part"] == p and "error" not in r] for p in ("math", "mutants", "gted", "embed")}
    if by["math"]:
        m = by["math"]
        times = sorted(r["time"] for r in m)
        out["math"] = {
            "problems": len(m),
            "inconclusive_per_problem": statistics.fmean(r["inconclusive"] for r in m),
            "checks_per_problem": statistics.fmean(r["checks"] for r in m),
            "solver_calls_per_problem": statistics.fmean(r["solver_calls"] for r in m),
            "ideal_proofs_per_problem": statistics.fmean(r["k"] - r["classes"] for r in m),
            "within_2x_ideal": sum(r["solver_calls"] <= 2 * (r["k"] - r["classes"]) for r in m),
            "time_median": statistics.median(times), "time_mean": statistics.fmean(times),
            "time_p90": times[int(0.9 * (len(times) - 1))], "time_total": sum(times),
        }
    if by["mutants"]:
        c: Counter = Counter()
        for r in by["mutants"]:
            c.update(r["counts"])
        parsed = c["inequivalent"] + c["equivalent"] + c["inconclusive"]
        out["mutants"] = {
            "counts": dict(c), "certified_of_parsed": c["inequivalent"] / max(parsed, 1),
            "certified_of_all": c["inequivalent"] / max(parsed + c["parse error"], 1),
            "equivalent": [dict(e, row=r["id"]) for r in by["mutants"] for e in r["equivalent"]],
            "time_total": sum(r["time"] for r in by["mutants"]),
        }
    if by["gted"]:
        g = by["gted"]
        pos = [r for r in g if r["label"] == 1]
        out["gted"] = {
            "pairs": len(g), "recall_sae": sum(r["status"] == "equivalent" for r in pos) / max(len(pos), 1),
            "equivalent_on_inequivalent": sorted(r["id"] for r in g if r["label"] != 1 and r["status"] == "equivalent"),
            "time_total": sum(r["time"] for r in g),
        }
    if by["embed"]:
        ms = sorted(r["ms"] for r in by["embed"])
        out["embed"] = {"problems": len(ms), "ms_median": statistics.median(ms), "ms_mean": statistics.fmean(ms)}
    return out


def slowest_rows(cache: Path, n: int) -> list[int]:
    """Row indices in ``isabelle_math_400`` of the ``n`` problems slowest to cluster in ``cache``."""
    rows = [json.loads(line)["id"] for line in (DATA / "isabelle_math_400.jsonl").read_text().splitlines()]
    times = {r["id"]: r.get("time_cluster", 0.0) for r in map(json.loads, cache.read_text().splitlines())}
    return sorted(range(len(rows)), key=lambda i: -times.get(rows[i], 0.0))[:n]


def rows_by_ids(path: Path) -> list[int]:
    """Rows of isabelle_math_400 whose id ends with one of the lines of ``path``."""
    wanted = [x.strip() for x in path.read_text().splitlines() if x.strip()]
    ids = [r["id"] for r in _rows("isabelle_math_400.jsonl")]
    out = [i for i, pid in enumerate(ids) if any(pid.endswith(w) for w in wanted)]
    missing = [w for w in wanted if not any(pid.endswith(w) for pid in ids)]
    if missing:
        raise SystemExit(f"--ids: no problem ends with {missing}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", help="a checkout of the commit before issue 14")
    ap.add_argument("--timeout", type=float, default=1.0, help="seconds per solver call")
    ap.add_argument("--truth", nargs="?", const="full", choices=["full", "refute"], default=None,
                    help="MATH part: also the per-candidate truth check (check_truth=True; 'refute': "
                    "check_truth='refute', what a Reranker with truth_weight 0 asks, in both trees; a tree "
                    "without that mode runs the full check)")
    ap.add_argument("--math", type=int, default=40, help="problems of the 40-problem MATH sample (0: none)")
    ap.add_argument("--slowest", type=int, default=0,
                    help="also the N problems slowest to cluster in --stage1 (the tail the sample misses)")
    ap.add_argument("--stage1", help="a stage-1 clusters cache (experiments/paper_tables.py --cache) for --slowest")
    ap.add_argument("--ids", help="also these isabelle_math_400 problems: a file of ids (one per line; a suffix "
                    "such as algebra/problem_2017.json is enough), the problems a change is meant for")
    ap.add_argument("--mutants", type=int, default=25, help="FormalAlign rows, shuffled with seed 0 (0: none)")
    ap.add_argument("--gted", type=int, default=0, help="GTED pairs (0: all)  (-1: none)")
    ap.add_argument("--embed", type=int, default=40, help="MATH problems to embed (0: none)")
    ap.add_argument("--out", default="experiments/out/decide.jsonl", help="per-item records (JSONL)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker(args.worker, args.timeout, {None: False, "full": True, "refute": "refute"}[args.truth])
        return 0
    if not args.base:
        ap.error("--base is required (a checkout of the commit before issue 14)")

    items = [("math", i) for i in sample_indices(400)[: args.math]]
    if args.slowest:
        if not args.stage1:
            ap.error("--slowest needs --stage1")
        items += [("math", i) for i in slowest_rows(Path(args.stage1), args.slowest) if ("math", i) not in items]
    if args.ids:
        items += [("math", i) for i in rows_by_ids(Path(args.ids)) if ("math", i) not in items]
    mut = list(range(244))
    random.Random(0).shuffle(mut)
    items += [("mutants", i) for i in mut[: args.mutants]]
    if args.gted >= 0:
        items += [("gted", i) for i in range(args.gted or 298)]
    items += [("embed", i) for i in sample_indices(400)[: args.embed]]
    trees = {"base": Path(args.base).resolve(), "head": HERE}
    workers = {name: start_worker(__file__, tree, ["--timeout", str(args.timeout), *(["--truth", args.truth] if args.truth else [])]) for name, tree in trees.items()}
    recs = run_alternating(workers, [f"{part} {i}" for part, i in items], Path(args.out), label="tree")
    summary = {name: summarize(r) for name, r in recs.items()}
    b, h = summary["base"].get("math"), summary["head"].get("math")
    if b and h:
        summary["ratio_math_time_total"] = b["time_total"] / max(h["time_total"], 1e-9)
        summary["ratio_math_time_median"] = b["time_median"] / max(h["time_median"], 1e-9)
    summary["load_average"] = os.getloadavg()
    print(json.dumps(summary, indent=1))
    Path(args.out).with_suffix(".summary.json").write_text(json.dumps(summary, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
