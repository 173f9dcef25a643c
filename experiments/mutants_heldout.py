"""FormalAlign mutants outside the bench sample: every mutant of the rows `bench_decide.py`
does not use (its 25-row sample, seed-0 shuffle, was read while developing), checked against
the row's aligned statement under ``sae``, 1 s per solver call; one JSON line per mutant.

    python experiments/mutants_heldout.py --tree . --out /tmp/held_main.jsonl
    python experiments/mutants_heldout.py --tree /work/prev --out /tmp/held_prev.jsonl
    python experiments/mutants_heldout.py --summary /tmp/held_prev.jsonl /tmp/held_main.jsonl

The summary splits the held-out rows in two halves (the first may be read to find what to
build next; the second is for the figure): "certified of the parsed meaning-changing" is
certified / (parsed − proved equivalent), the measure of issue 14's target.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "lean_mutants_formalalign_valid.jsonl"
SAMPLE = 25  # bench_decide.py --mutants 25


def held_out_rows(n_rows: int) -> list[int]:
    idx = list(range(n_rows))
    random.Random(0).shuffle(idx)
    return idx[SAMPLE:]


def halves(n_rows: int) -> dict[str, list[int]]:
    """The held-out rows, and their two halves (the first may be read, the second is the figure)."""
    rows = held_out_rows(n_rows)
    half = (len(rows) + 1) // 2
    return {"all": rows, "first": rows[:half], "second": rows[half:]}


def run(tree: str, out: Path, timeout: float, part: str = "all") -> None:
    sys.path.insert(0, str(Path(tree).resolve()))
    from tqdm import tqdm

    import provers
    from provers.errors import ParseError

    rows = [json.loads(x) for x in DATA.read_text().splitlines() if x.strip()]
    with out.open("w") as fh:
        for i in tqdm(halves(len(rows))[part], desc="rows", unit="row"):
            aligned = [c for c in rows[i]["candidates"] if c["label"] == 1]
            if not aligned:
                continue
            try:
                a = provers.parse(aligned[0]["formal"], "lean4")
            except ParseError as e:
                fh.write(json.dumps({"row": i, "ref_error": str(e)[:200]}) + "\n")
                continue
            for j, c in enumerate(rows[i]["candidates"]):
                if c["label"] == 1:
                    continue
                rec = {"row": i, "cand": j, "mutation": c.get("mutation")}
                try:
                    b = provers.parse(c["formal"], "lean4")
                except ParseError as e:
                    rec.update(status="parse error", reason=str(e)[:200])
                else:
                    t0 = time.perf_counter()
                    v = provers.check_equivalence(a, b, relation="sae", timeout=timeout)
                    rec.update(status=str(v.status), reason=(v.reason or "")[:200], time=time.perf_counter() - t0)
                fh.write(json.dumps(rec) + "\n")
                fh.flush()


def summary(paths: list[str]) -> None:
    parts = {f"{k} half" if k != "all" else k: set(v) for k, v in halves(len(DATA.read_text().splitlines())).items()}
    for p in paths:
        recs = [json.loads(x) for x in Path(p).read_text().splitlines() if x.strip()]
        recs = [r for r in recs if "ref_error" not in r]
        for name, keep in parts.items():
            c = Counter(r["status"] for r in recs if r["row"] in keep)
            ok, eq = c["inequivalent"], c["equivalent"]
            parsed = ok + eq + c["inconclusive"]
            print(f"{p}  {name:11s}  parse errors {c['parse error']:5d}  certified {ok:5d}  equivalent {eq:4d}  "
                  f"inconclusive {c['inconclusive']:4d}  of parsed meaning-changing "
                  f"{100 * ok / max(parsed - eq, 1):.1f}% ({ok}/{parsed - eq})")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tree", default=".", help="checkout whose provers/ is measured")
    ap.add_argument("--out", help="per-mutant records (JSONL)")
    ap.add_argument("--timeout", type=float, default=1.0, help="seconds per solver call")
    ap.add_argument("--part", choices=("all", "first", "second"), default="all",
                    help="which held-out rows to run: all, or the half that may be read (first) or not (second)")
    ap.add_argument("--summary", nargs="+", help="summarize these record files instead of running")
    args = ap.parse_args(argv)
    if args.summary:
        summary(args.summary)
        return 0
    if not args.out:
        ap.error("--out is required to run")
    run(args.tree, Path(args.out), args.timeout, args.part)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
