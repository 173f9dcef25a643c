"""Anytime ranking: what a time budget per problem costs in accuracy and saves in time.

::

    nice -n 10 python experiments/bench_budget.py ../shared/data/isabelle_math_400.jsonl \
        --problems 40 --budgets 0.25 0.5 1 inf --timeout 1 --out experiments/out/budget

A seeded sample of ``--problems`` MATH problems (k = 10 Isabelle candidates each, their given
back-translations) is reranked with the library defaults and ``Reranker(budget=b)`` for each
budget ``b`` (``inf``: the anytime order without a limit; ``none``: no budget, the plain
clusterer). Each budget runs in its own worker process (PYTHONPATH = this tree, one torch
thread), one after the other, so no run reads verdicts an earlier budget computed. Reported
per budget: 1@k (the top pick has human label 1 and ``paper_syntax_ok`` 1, the paper's
rule), agreement of the top pick with the unbudgeted ranking, the share of complete
rankings, undecided pairs per problem, and wall time per problem (all of ``rerank``,
embedding included; the budget bounds the clustering part). A plot goes to ``--plot``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]

WORKER = r"""
import json, math, sys, time
import torch
torch.set_num_threads(1)
from rerank import Reranker
from tqdm import tqdm
data, budget, timeout, ids = sys.argv[1], sys.argv[2], float(sys.argv[3]), json.loads(sys.argv[4])
b = None if budget == "none" else float(budget)
rows = [json.loads(line) for line in open(data)]
rr = Reranker(language="isabelle", timeout=timeout, informalizer="given", budget=b)
rr.rerank("warm up", ["lemma x: \"(1::nat) = 1\""], ["one is one"])
for i in tqdm(ids, desc=f"budget {budget}", file=sys.stderr):
    row = rows[i]
    cands = [c["formal"] for c in row["candidates"]]
    infs = [c.get("informalization") for c in row["candidates"]]
    t0 = time.perf_counter()
    r = rr.rerank(row["informal"], cands, infs, cache={})
    wall = time.perf_counter() - t0
    top = r.selected[0]
    c = row["candidates"][top]
    print(json.dumps({"i": i, "budget": budget, "top": top, "wall": wall,
                      "cluster": r.timing.get("parse_cluster", 0.0), "embed": r.timing.get("embed", 0.0),
                      "correct": int(c.get("label") == 1 and c.get("paper_syntax_ok") == 1),
                      "complete": r.complete, "undecided": r.pairs_undecided,
                      "checks": r.stats["checks"], "classes": len(r.classes)}), flush=True)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--problems", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--budgets", nargs="+", default=["0.25", "0.5", "1", "inf", "none"])
    ap.add_argument("--timeout", type=float, default=1.0, help="seconds per solver call")
    ap.add_argument("--out", type=Path, default=ROOT / "experiments" / "out" / "budget")
    ap.add_argument("--plot", type=Path, default=ROOT / "docs" / "img" / "budget_tradeoff.png")
    ap.add_argument("--replot", action="store_true", help="only redraw the plot from --out's summary")
    args = ap.parse_args()
    if args.replot:
        _plot(json.loads(args.out.with_suffix(".summary.json").read_text()), args.plot)
        return
    n_rows = sum(1 for _ in args.data.open())
    ids = sorted(random.Random(args.seed).sample(range(n_rows), args.problems))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    recs: list[dict[str, Any]] = []
    with args.out.with_suffix(".jsonl").open("w") as f:
        for b in args.budgets:
            p = subprocess.run([sys.executable, "-c", WORKER, str(args.data.resolve()), b, str(args.timeout),
                                json.dumps(ids)], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True, check=True)
            for line in p.stdout.splitlines():
                recs.append(json.loads(line))
                f.write(line + "\n")
    ref_key = "none" if "none" in args.budgets else args.budgets[-1]
    ref = {r["i"]: r["top"] for r in recs if r["budget"] == ref_key}
    summary: dict[str, Any] = {"problems": args.problems, "seed": args.seed, "timeout": args.timeout,
                               "load_after": os.getloadavg(), "budgets": {}}
    for b in args.budgets:
        rs = [r for r in recs if r["budget"] == b]
        walls = [r["wall"] for r in rs]
        summary["budgets"][b] = {
            "one_at_k": 100 * statistics.fmean(r["correct"] for r in rs),
            "same_top_as_unbudgeted": 100 * statistics.fmean(r["top"] == ref[r["i"]] for r in rs),
            "complete": 100 * statistics.fmean(r["complete"] for r in rs),
            "undecided_per_problem": statistics.fmean(r["undecided"] for r in rs),
            "wall_median": statistics.median(walls), "wall_mean": statistics.fmean(walls),
            "cluster_mean": statistics.fmean(r["cluster"] for r in rs),
            "checks_mean": statistics.fmean(r["checks"] for r in rs),
        }
    print(json.dumps(summary, indent=2))
    args.out.with_suffix(".summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    _plot(summary, args.plot)


def _plot(summary: dict[str, Any], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    bs = summary["budgets"]
    labels = list(bs)
    xs = [bs[b]["cluster_mean"] for b in labels]
    ys = [bs[b]["one_at_k"] for b in labels]
    fig, ax = plt.subplots(figsize=(5.5, 3.6))
    ax.plot(xs, ys, "o-")
    for n, (b, x, y) in enumerate(zip(labels, xs, ys, strict=True)):
        name = "no budget" if b == "none" else ("budget ∞" if math.isinf(float(b)) else f"budget {b} s")
        ax.annotate(name, (x, y), textcoords="offset points", xytext=(-30, 8 + 11 * (n % 3)), fontsize=8)
    ax.set_xscale("log")
    ax.set_xlabel("mean clustering time per problem (s, log scale)")
    ax.set_ylabel("1@k (%)")
    ax.set_title(f"Budget per problem, isabelle_math_400 sample of {summary['problems']}", fontsize=9)
    ax.grid(alpha=0.3)
    ax.margins(x=0.15, y=0.2)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)


if __name__ == "__main__":
    main()
