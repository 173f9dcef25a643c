"""Where a clustering's solver time goes, obligation by obligation.

Runs the plain clusterer (``symbolic``, 1 s per call, the truth check for refutations, as
``bench_decide.py`` does) on chosen ``isabelle_math_400`` problems with ``Prover._solve``
instrumented, and writes one JSONL row per solver call: the problem, the obligation's name
(numbers blanked), its time limit, seconds, status, who asked (the clusterer's vacuity or truth
test, a pair check, answer pinning) and the operations its formula uses. The summary groups
the calls by obligation and asker: how many, how long, how many decided, how many ran to
their limit. It is how stop 43 found the vacuity test asked twice and the joint value
obligation's undecidable calls (docs/benchmarks.md).

    HF_HUB_OFFLINE=1 nice .venv/bin/python experiments/obligation_profile.py \\
        ../shared/data/isabelle_math_400.jsonl --ids IDS.txt --out calls.jsonl
    .venv/bin/python experiments/obligation_profile.py --summary calls.jsonl
"""

from __future__ import annotations

import argparse
import collections
import json
import re
import sys
import time
from pathlib import Path
from typing import Any

#: the frames that say who asked for a solver call (innermost last)
ASKERS = ("_vacuous", "_holds", "_same", "value_route", "pin_answer", "_asked_vacuity_differs")


def record(data: Path, ids: list[str], out: Path) -> None:
    from tqdm import tqdm

    from provers.engine import prover as P
    from provers.ir import App
    from provers.ir.traverse import subterms
    from rerank.cluster import Clusterer

    rows: list[dict[str, Any]] = []
    solve = P.Prover._solve

    def instrumented(self: Any, ob: Any, effort: float = 1.0) -> None:
        t0 = time.monotonic()
        solve(self, ob, effort)
        frames, frame = [], sys._getframe(1)  # who asked: function names only (no source read)
        while frame is not None and len(frames) < 15:
            frames.append(frame.f_code.co_name)
            frame = frame.f_back
        rows.append({
            "name": re.sub(r"[0-9]+", "N", ob.name)[:70], "limit": round(self.timeout * effort, 3),
            "seconds": round(time.monotonic() - t0, 4), "status": ob.status.value,
            "asked_by": next((name for name in frames if name in ASKERS), "-"),
            "ops": sorted({t.op for t in subterms(ob.formula) if isinstance(t, App)}),
        })

    P.Prover._solve = instrumented
    problems = {r["id"]: r for r in map(json.loads, data.open())}
    with out.open("w") as f:
        for pid in tqdm(ids, desc="problems"):
            c = Clusterer("symbolic", "isabelle", 1.0, check_truth="refute", problem_timeout=120)
            t0 = time.monotonic()
            c.extend([cand["formal"] for cand in problems[pid]["candidates"]])
            total = time.monotonic() - t0
            for r in rows:
                f.write(json.dumps({"id": pid, **r}) + "\n")
            f.write(json.dumps({"id": pid, "problem_seconds": round(total, 3)}) + "\n")
            rows.clear()


def summary(path: Path) -> None:
    groups: dict[tuple, list[float]] = collections.defaultdict(lambda: [0, 0.0, 0, 0])
    total = solver = 0.0
    for row in map(json.loads, path.open()):
        if "problem_seconds" in row:
            total += row["problem_seconds"]
            continue
        g = groups[(row["name"], row["limit"], row["asked_by"])]
        g[0] += 1
        g[1] += row["seconds"]
        g[2] += row["status"] != "unknown"
        g[3] += row["seconds"] >= 0.9 * row["limit"]
        solver += row["seconds"]
    print(f"problems {total:.1f} s, of which solver calls {solver:.1f} s")
    print("| seconds | calls | decided | at the limit | obligation (limit s, asked by) |\n|---|---|---|---|---|")
    for (name, limit, by), (n, s, d, lim) in sorted(groups.items(), key=lambda kv: -kv[1][1])[:25]:
        print(f"| {s:.1f} | {n} | {d} | {lim} | {name} ({limit:g}, {by}) |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="?", type=Path, help="isabelle_math_400.jsonl")
    ap.add_argument("--ids", type=Path, help="file of problem ids, one per line")
    ap.add_argument("--out", type=Path, help="JSONL of the solver calls")
    ap.add_argument("--summary", type=Path, help="summarize an --out file instead of running")
    args = ap.parse_args()
    if args.summary:
        summary(args.summary)
        return
    if not (args.data and args.ids and args.out):
        ap.error("data, --ids and --out are needed to run")
    record(args.data, [line.strip() for line in args.ids.open() if line.strip()], args.out)
    summary(args.out)


if __name__ == "__main__":
    main()
