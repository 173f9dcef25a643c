"""How many Lean mutants end inconclusive because a countermodel was "falsity only
approximate" (the evaluator could not certify a comparison of √2, log 3, π …)?

The sample and the calls are those of /work/notes/mutants_sample.py (the first N rows of
lean_mutants_formalalign_valid after ``random.Random(0).shuffle``; each label-0 candidate
checked against the first label-1 candidate under ``sae`` with a 1 s solver timeout); this
script also writes one JSONL record per pair so that two commits can be compared pair by pair.

    PYTHONPATH=<tree> nice -n 10 python experiments/approximate_countermodels.py 60 \
        --out experiments/out/approx_<tree>.jsonl
    python experiments/approximate_countermodels.py --compare before.jsonl after.jsonl
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import time
from pathlib import Path

DATA = Path("/work/shared/data/lean_mutants_formalalign_valid.jsonl")
APPROXIMATE = "falsity only approximate"


def run(n: int, out: Path) -> None:
    from tqdm import tqdm

    import provers
    from provers.errors import ParseError

    rows = [json.loads(line) for line in DATA.open()]
    random.Random(0).shuffle(rows)
    counts: collections.Counter[str] = collections.Counter()
    t0 = time.time()
    with out.open("w") as f:
        for k, r in enumerate(tqdm(rows[:n], desc="problems")):
            aligned = [c for c in r["candidates"] if c["label"] == 1]
            if not aligned:
                continue
            try:
                a = provers.parse(aligned[0]["formal"])
            except ParseError:
                continue
            for j, c in enumerate(r["candidates"]):
                if c["label"] == 1:
                    continue
                try:
                    b = provers.parse(c["formal"])
                except ParseError:
                    continue
                v = provers.check_equivalence(a, b, relation="sae", timeout=1)
                counts[v.status] += 1
                counts["approximate"] += APPROXIMATE in v.reason
                f.write(json.dumps({"row": k, "candidate": j, "mutation": c["mutation"],
                                    "status": v.status, "reason": v.reason}) + "\n")
    print(dict(counts), f"{time.time() - t0:.0f} s")


def compare(before: Path, after: Path) -> None:
    def load(p: Path) -> dict[tuple[int, int], dict]:
        return {(r["row"], r["candidate"]): r for r in map(json.loads, p.open())}

    b, a = load(before), load(after)
    approx = [k for k, r in b.items() if APPROXIMATE in r["reason"]]
    moved = collections.Counter((b[k]["status"], a[k]["status"]) for k in b if k in a)
    print(f"pairs: {len(b)}; 'falsity only approximate' before: {len(approx)}, "
          f"after: {sum(APPROXIMATE in r['reason'] for r in a.values())}")
    print("those before -> after:", collections.Counter(a[k]["status"] for k in approx if k in a))
    print("all status moves:", {f"{x} -> {y}": c for (x, y), c in moved.items() if x != y})
    for k in approx:
        if k in a and a[k]["status"] == "inconclusive":
            print("  still inconclusive:", k, a[k]["reason"][:160])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("n", nargs="?", type=int, default=25, help="number of problems (rows) to check")
    ap.add_argument("--out", type=Path, default=Path("experiments/out/approximate_countermodels.jsonl"),
                    help="JSONL output, one record per checked pair")
    ap.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"),
                    help="compare two JSONL outputs instead of running")
    args = ap.parse_args()
    if args.compare:
        compare(*args.compare)
    else:
        run(args.n, args.out)


if __name__ == "__main__":
    main()
