"""Sums, card and set-builders (issue 14, item 2), before and after, on the pairs that have them.

::

    git archive <base commit> | tar -x -C /tmp/base
    nice -n 10 python experiments/bench_sums.py ../shared/data --base /tmp/base --timeout 1 \\
        --out experiments/out/sums_pairs.jsonl

Pairs: every GTED (reference, candidate) pair whose texts contain a big operator (``∑``/``∏``),
``card`` or a set-builder, under ``sae`` and ``symbolic``; and, for the FormalAlign mutants
whose aligned statement has one, the aligned statement against each of its mutants under
``sae`` (first ``--mutant-records`` such records). Each tree runs in its own worker process
(cwd and PYTHONPATH the tree: the solver pool's workers import from the cwd), one after the
other, 1 s per solver call. Prints the status transitions and, for every verdict decided after
and not before, whether it agrees with the human label (GTED ``label``; a mutant is
meaning-changing unless ``mutation`` is null).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
PATTERN = re.compile(r"∑|∏|Finset\.sum|Finset\.prod|\\<Sum>|\\<Prod>|card|\{ *[a-zA-Z_]\w* *(:[^}|]*)?\|")


def pairs(data: Path, mutant_records: int) -> list[dict]:
    out: list[dict] = []
    for line in open(data / "lean_pairs_gted.jsonl"):
        r = json.loads(line)
        if PATTERN.search(r["reference"]) or PATTERN.search(r["candidate"]):
            for rel in ("sae", "symbolic"):
                out.append({"id": r["id"], "relation": rel, "a": r["reference"], "b": r["candidate"],
                            "human": "equivalent" if r["label"] else "inequivalent", "part": "gted"})
    taken = 0
    for line in open(data / "lean_mutants_formalalign_valid.jsonl"):
        r = json.loads(line)
        aligned = [c for c in r["candidates"] if c["mutation"] is None]
        if not aligned or not PATTERN.search(aligned[0]["formal"]) or taken >= mutant_records:
            continue
        taken += 1
        for i, c in enumerate(r["candidates"]):
            if c is aligned[0]:
                continue
            out.append({"id": f"{r['id']}#{i}", "relation": "sae", "a": aligned[0]["formal"], "b": c["formal"],
                        "human": "inequivalent" if c["label"] == 0 else "equivalent", "part": "mutants",
                        "mutation": c["mutation"]})
    return out


def worker(items_path: str, timeout: float) -> None:
    from tqdm import tqdm

    import provers

    items = [json.loads(line) for line in open(items_path)]
    for it in tqdm(items, file=sys.stderr, desc=str(Path(provers.__file__).parents[1])):
        try:
            v = provers.check_equivalence(it["a"], it["b"], relation=it["relation"], timeout=timeout, language="lean4")
            status, reason = v.status, v.reason
        except Exception as e:  # parse errors: the pair is not checkable by either tree
            status, reason = "error", f"{type(e).__name__}: {e}"
        print(json.dumps({"status": status, "reason": reason[:300]}), flush=True)


def run_tree(tree: Path, items_path: Path, timeout: float) -> list[dict]:
    env = dict(os.environ, PYTHONPATH=str(tree), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1")
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", str(items_path), "--timeout", str(timeout)]
    res = subprocess.run(cmd, cwd=str(tree), env=env, stdout=subprocess.PIPE, text=True, check=True)
    return [json.loads(line) for line in res.stdout.splitlines() if line.strip()]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="?", help="the shared data folder")
    ap.add_argument("--base", help="a checkout of the commit before the change")
    ap.add_argument("--timeout", type=float, default=1.0, help="seconds per solver call")
    ap.add_argument("--mutant-records", type=int, default=20, help="FormalAlign records (with a sum/card/set-builder) to use")
    ap.add_argument("--out", default="experiments/out/sums_pairs.jsonl", help="per-pair records (JSONL)")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.worker:
        worker(a.worker, a.timeout)
        return 0
    items = pairs(Path(a.data), a.mutant_records)
    out = Path(a.out).resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    items_path = out.with_suffix(".items.jsonl")
    items_path.write_text("".join(json.dumps(it) + "\n" for it in items))
    before = run_tree(Path(a.base).resolve(), items_path, a.timeout)
    after = run_tree(HERE, items_path, a.timeout)
    moves: Counter = Counter()
    with open(out, "w") as f:
        for it, b, c in zip(items, before, after, strict=True):
            rec = {k: it[k] for k in ("id", "relation", "part", "human")} | {"before": b["status"], "after": c["status"],
                                                                              "reason_after": c["reason"]}
            f.write(json.dumps(rec) + "\n")
            moves[(it["part"], it["relation"], b["status"], c["status"])] += 1
            if b["status"] != c["status"]:
                agree = c["status"] == it["human"] if c["status"] in ("equivalent", "inequivalent") else None
                print(f"{it['part']:8} {it['relation']:9} {it['id']}: {b['status']} -> {c['status']} "
                      f"(human {it['human']}{'' if agree is None else ', agrees' if agree else ', DISAGREES'})")
    print(f"\n{len(items)} checks")
    for (part, rel, b, c), n in sorted(moves.items()):
        print(f"{part:8} {rel:9} {b:>12} -> {c:<12} {n}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
