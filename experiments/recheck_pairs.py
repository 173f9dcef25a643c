"""Re-check the pairs stage 1 left inconclusive, side by side with an earlier tree.

Why: a decisiveness change is measured where it matters, on the pairs the engine could not
decide, and each newly decided pair is a new claim to read. A seeded sample of the
inconclusive pairs of a stage-1 cache (``experiments/paper_tables.py --cache``) is checked
under ``relation`` by this tree (``head``) and by ``--base`` (``base``), each in its own
long-lived worker, one working at a time (``side_by_side.run_alternating``)::

    nice -n 5 .venv/bin/python experiments/recheck_pairs.py ../shared/data/isabelle_math_400.jsonl \
        --cache experiments/out/paper_clusters_symbolic_t1_v4.jsonl --base /work/prev \
        --sample 150 --timeout 1 --out /tmp/recheck.jsonl

Prints the counts per tree, every pair whose status differs between the trees (with both
candidates' ids and the head's reason) and the time ratio; writes per-pair records (JSONL).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


def inconclusive_pairs(data: Path, cache: Path, sample: int, seed: int = 0, reason: str = "") -> list[dict[str, Any]]:
    """``sample`` inconclusive pairs of the cache (all when 0) whose reason matches the regular
    expression ``reason``, with both candidates' texts."""
    problems = {}
    for line in data.read_text().splitlines():
        if line.strip():
            rec = json.loads(line)
            problems[rec["id"]] = rec
    pairs = []
    for line in cache.read_text().splitlines():
        rec = json.loads(line)
        cands = problems.get(rec["id"], {}).get("candidates")
        for d in rec.get("evidence", {}).get("decisions", []):
            if d["status"] == "inconclusive" and cands and re.search(reason, d.get("reason", "")):
                pairs.append({"id": rec["id"], "a": d["a"], "b": d["b"], "language": problems[rec["id"]]["language"],
                              "A": cands[d["a"]]["formal"], "B": cands[d["b"]]["formal"]})
    if sample and sample < len(pairs):
        pairs = random.Random(seed).sample(pairs, sample)
    return pairs


def worker(tree: str, relation: str, timeout: float) -> None:
    sys.path.insert(0, tree)
    from provers.engine.equivalence import check_equivalence

    print(json.dumps({"ready": tree}), flush=True)
    for line in sys.stdin:
        item = json.loads(line)
        t0 = time.perf_counter()
        try:
            v = check_equivalence(item["A"], item["B"], relation=relation, timeout=timeout, language=item["language"])
            status, reason = str(getattr(v.status, "value", v.status)), v.reason
        except Exception as e:  # noqa: BLE001 - a failure is recorded, the run goes on
            status, reason = "error", f"{type(e).__name__}: {e}"
        print(json.dumps({"id": item["id"], "a": item["a"], "b": item["b"], "status": status,
                          "reason": reason[:400], "time": time.perf_counter() - t0}), flush=True)


def summarize(results: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, rows in results.items():
        counts: dict[str, int] = {}
        for r in rows:
            counts[r["status"]] = counts.get(r["status"], 0) + 1
        out[name] = {"counts": counts, "time": sum(r["time"] for r in rows)}
    if {"head", "base"} <= results.keys():
        pairs = zip(results["base"], results["head"], strict=True)
        out["changed"] = [{"id": b["id"], "a": b["a"], "b": b["b"], "base": b["status"], "head": h["status"],
                           "reason": h["reason"]} for b, h in pairs if b["status"] != h["status"]]
        out["time_ratio_head_over_base"] = out["head"]["time"] / max(out["base"]["time"], 1e-9)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", nargs="?", help="the problems (JSONL with candidates)")
    ap.add_argument("--cache", help="a stage-1 cache of experiments/paper_tables.py")
    ap.add_argument("--base", help="a checkout of the earlier commit (omit: this tree only)")
    ap.add_argument("--relation", default="symbolic", help="equivalence relation to check under")
    ap.add_argument("--sample", type=int, default=150, help="inconclusive pairs to re-check (0: all)")
    ap.add_argument("--reason", default="", help="only pairs whose stage-1 reason matches this regex")
    ap.add_argument("--timeout", type=float, default=1.0, help="seconds per solver call")
    ap.add_argument("--out", default="experiments/out/recheck_pairs.jsonl", help="per-pair records (JSONL)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker(args.worker, args.relation, args.timeout)
        return 0
    if not args.data or not args.cache:
        ap.error("data and --cache are required")
    sys.path.insert(0, str(HERE))
    from side_by_side import run_alternating, start_worker

    pairs = inconclusive_pairs(Path(args.data), Path(args.cache), args.sample, reason=args.reason)
    trees = {"head": HERE.parent, **({"base": Path(args.base).resolve()} if args.base else {})}
    wargs = ["--relation", args.relation, "--timeout", str(args.timeout)]
    workers = {name: start_worker(__file__, tree, wargs) for name, tree in trees.items()}
    results = run_alternating(workers, [json.dumps(p) for p in pairs], Path(args.out), label="tree", desc="pairs")
    summary = summarize(results)
    Path(args.out).with_suffix(".summary.json").write_text(json.dumps(summary, indent=1))
    for name in trees:
        print(f"{name}: {summary[name]['counts']}  ({summary[name]['time']:.1f} s)")
    for c in summary.get("changed", []):
        print(f"  {c['id'].split('/')[-2]}/{c['id'].split('/')[-1]} #{c['a']}–#{c['b']}: "
              f"{c['base']} → {c['head']}: {c['reason'][:200]}")
    if "time_ratio_head_over_base" in summary:
        print(f"time head / base: {summary['time_ratio_head_over_base']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
