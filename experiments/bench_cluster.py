"""Clustering a few MATH problems end to end, one process: the whole-process timing used to
compare two trees side by side (e.g. before and after the candidate profile, issue 13).

::

    git worktree add /tmp/base <base commit>          # or any checkout of the other tree
    python experiments/bench_cluster.py --tree /tmp/base ../shared/data/isabelle_math_400.jsonl
    python experiments/bench_cluster.py --tree . ../shared/data/isabelle_math_400.jsonl

Problems: the first ``--problems`` of the verdict fixture's 40-problem sample
(``random.Random(0)``); ``symbolic``, Isabelle, ``--timeout`` seconds per solver call, vacuity
test on, empty verdict cache. Prints one JSON line: problems, candidates, engine checks,
solver calls, classes and the clustering seconds (imports excluded).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", help="isabelle_math_400.jsonl")
    ap.add_argument("--tree", default=".", help="the checkout to import provers/ and rerank/ from")
    ap.add_argument("--problems", type=int, default=6)
    ap.add_argument("--timeout", type=float, default=1.0)
    args = ap.parse_args()
    sys.path.insert(0, str(Path(args.tree).resolve()))
    from rerank.cluster import Clusterer

    rows = [json.loads(x) for x in Path(args.data).read_text().splitlines() if x.strip()]
    sample = sorted(random.Random(0).sample(range(len(rows)), 40))[: args.problems]
    t0 = time.perf_counter()
    totals = {"problems": len(sample), "candidates": 0, "checks": 0, "solver_calls": 0, "classes": 0}
    for i in sample:
        c = Clusterer("symbolic", "isabelle", args.timeout, cache={})
        c.extend([cand["formal"] for cand in rows[i]["candidates"]])
        totals["candidates"] += c.stats.k
        totals["checks"] += c.stats.checks
        totals["solver_calls"] += c.stats.solver_calls + c.stats.vacuity_solver_calls
        totals["classes"] += len(c.classes)
    totals["seconds"] = round(time.perf_counter() - t0, 3)
    print(json.dumps(totals))


if __name__ == "__main__":
    main()
