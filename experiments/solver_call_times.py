"""Where a `Reranker`'s solver time goes: every solver call of a run over `isabelle_math_400`
(or a slice), with the obligation's name, its effort share, the answer and the portfolio's
wall time; then a summary by effort (how many decided calls answered late, what the calls
that ended unknown cost) and by obligation kind (calls, decided, seconds).

::

    nice python experiments/solver_call_times.py --part 0 --parts 2 --out /tmp/calls0.jsonl &
    nice python experiments/solver_call_times.py --part 1 --parts 2 --out /tmp/calls1.jsonl
    python experiments/solver_call_times.py --summary /tmp/calls0.jsonl /tmp/calls1.jsonl

Why: the per-call limit is shared out by effort (`provers.engine.verdict.QUICK`, `FULL`); a
share is worth what the decided calls need and costs what the undecided ones wait. Choosing
it needs the distribution of decided calls' times on the tuning data (docs/benchmarks.md,
stop 32).
"""

from __future__ import annotations

import argparse
import bisect
import json
import re
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))
DATA = HERE.parent / "shared" / "data" / "isabelle_math_400.jsonl"
LATE = (0.05, 0.1, 0.15, 0.2, 0.3, 0.5)


def record(part: int, parts: int, out: str, timeout: float) -> None:
    from tqdm import tqdm

    import provers.engine.prover as prover_module
    from rerank import Reranker

    calls: list[dict] = []
    solve = prover_module.Prover._solve

    def timed_solve(self, ob, effort=1.0):  # type: ignore[no-untyped-def]
        before = self.solver_calls
        t = time.perf_counter()
        solve(self, ob, effort)
        if self.solver_calls > before:  # a backend call was made (not a deadline refusal)
            calls.append({"problem": current[0], "name": re.sub(r"\d+", "N", ob.name.split(":")[0])[:60],
                          "effort": effort, "status": ob.status.value, "by": ob.by,
                          "wall": time.perf_counter() - t, "detail": ob.detail[:120]})

    prover_module.Prover._solve = timed_solve
    rows = [json.loads(line) for line in DATA.open()]
    rr = Reranker(language="isabelle", relation="symbolic", timeout=timeout, informalizer="none")
    current = [""]
    with open(out, "w") as f:
        for i, row in enumerate(tqdm(rows, desc=f"part {part}/{parts}")):
            if i % parts != part:
                continue
            current[0] = row["id"]
            calls.clear()
            t = time.perf_counter()
            rr.rerank(row["informal"], [c["formal"] for c in row["candidates"]])
            f.write(json.dumps({"problem": row["id"], "time": time.perf_counter() - t, "calls": calls}) + "\n")
            f.flush()


def summary(paths: list[str], timeout: float) -> dict:
    problems = [json.loads(line) for p in paths for line in open(p)]
    calls = [c for p in problems for c in p["calls"]]
    total = sum(p["time"] for p in problems)
    out: dict = {"problems": len(problems), "seconds": round(total, 1),
                 "solver_seconds": round(sum(c["wall"] for c in calls), 1), "by_effort": {}, "by_kind": {}}
    for effort in sorted({c["effort"] for c in calls}):
        cs = [c for c in calls if c["effort"] == effort]
        decided = sorted(c["wall"] for c in cs if c["status"] in ("proved", "refuted"))
        limit = effort * timeout
        undecided = [c for c in cs if c["status"] not in ("proved", "refuted")]
        out["by_effort"][f"{effort:g}"] = {
            "calls": len(cs), "decided": len(decided),
            "decided_after": {f"{s:g}s": len(decided) - bisect.bisect_right(decided, s) for s in LATE},
            "undecided_seconds": round(sum(c["wall"] for c in undecided), 1),
            "timeouts": sum(1 for c in undecided if c["wall"] >= 0.9 * limit),
        }
    kinds: dict = defaultdict(lambda: [0, 0, 0.0])
    for c in calls:
        k = kinds[f"{c['name']} @ {c['effort']:g}"]
        k[0] += 1
        k[1] += c["status"] in ("proved", "refuted")
        k[2] += c["wall"]
    for name, (n, d, s) in sorted(kinds.items(), key=lambda kv: -kv[1][2]):
        out["by_kind"][name] = {"calls": n, "decided": d, "seconds": round(s, 1)}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--part", type=int, default=0, help="this process's slice (problem index mod --parts)")
    ap.add_argument("--parts", type=int, default=1, help="number of slices")
    ap.add_argument("--timeout", type=float, default=1.0, help="seconds per solver call")
    ap.add_argument("--out", help="per-problem records (JSONL) to write")
    ap.add_argument("--summary", nargs="+", help="summarize these record files instead of running")
    args = ap.parse_args()
    if args.summary:
        print(json.dumps(summary(args.summary, args.timeout), indent=1, ensure_ascii=False))
    elif args.out:
        record(args.part, args.parts, args.out, args.timeout)
    else:
        ap.error("--out or --summary")


if __name__ == "__main__":
    main()
