"""Cost of building IR terms: parse every statement of a JSONL, take its canonical key, lower
it for the SMT solvers; side by side for several source trees, in one run on one machine.

Usage::

    python experiments/bench_construction.py DATA.jsonl TREE [TREE ...] [--language lean4]
                                             [--rounds 5] [--repeat 3]

Each TREE is a checkout of the project (e.g. this one and an export of the previous
commit: ``git archive <commit> | tar -x -C /tmp/before``). Every round runs each tree once,
in a fresh interpreter, one after the other (interleaved, so load changes hit all trees
alike); after one untimed warm-up pass (lazy imports, lexer caches) a run parses all statements ``--repeat`` times and reports the best CPU time
(``time.process_time``) of parsing alone, of parsing plus ``Statement.canonical_key`` (which
rebuilds every term), and of lowering every parsed statement (``lower_obligation`` of
``Statement.as_formula()``: the SMT core terms). Prints the best round per tree and the
ratio to the first tree.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

_CHILD = r"""
import json, sys, time
sys.path.insert(0, sys.argv[1])
import provers
from provers.backends.smt import lower_obligation
texts = json.loads(sys.stdin.read())
lang = sys.argv[2]
repeat = int(sys.argv[3])
def run(key):
    best = None
    for _ in range(repeat):
        t0 = time.process_time()
        for t in texts:
            try:
                st = provers.parse(t, language=lang)
            except Exception:
                continue
            if key:
                st.canonical_key()
        dt = time.process_time() - t0
        best = dt if best is None else min(best, dt)
    return best
for t in texts:  # warm-up: lazy imports, lexer caches
    try:
        provers.parse(t, language=lang).canonical_key()
    except Exception:
        pass
parsed = []
for t in texts:
    try:
        parsed.append(provers.parse(t, language=lang).as_formula())
    except Exception:
        pass
def lower_all():
    best = None
    for _ in range(repeat):
        t0 = time.process_time()
        for f in parsed:
            try:
                lower_obligation(f)
            except Exception:
                pass
        dt = time.process_time() - t0
        best = dt if best is None else min(best, dt)
    return best
parse_only = run(False)
with_key = run(True)
lowering = lower_all()
print(json.dumps({"parse": parse_only, "parse_key": with_key, "lower": lowering, "file": provers.__file__}))
"""


_MEASURES = ("parse", "parse_key", "lower")


def _texts(path: Path, language: str) -> list[str]:
    out = []
    for line in path.read_text().splitlines():
        rec = json.loads(line)
        if "formal" in rec:
            header = rec.get("header") or ""
            out.append(header + rec["formal"] if language == "lean4" else rec["formal"])
        for c in rec.get("candidates") or ():
            out.append(c["formal"])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", type=Path, help="JSONL of statements ({header, formal} or {candidates})")
    ap.add_argument("trees", nargs="+", type=Path, help="project checkouts to compare")
    ap.add_argument("--language", default="lean4", help="frontend: lean4 or isabelle")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds over the trees")
    ap.add_argument("--repeat", type=int, default=3, help="passes over the data per run (best kept)")
    args = ap.parse_args()
    texts = _texts(args.data, args.language)
    payload = json.dumps(texts)
    best: dict[Path, dict[str, float]] = {}
    for r in range(args.rounds):
        for tree in args.trees:
            out = subprocess.run(
                [sys.executable, "-c", _CHILD, str(tree.resolve()), args.language, str(args.repeat)],
                input=payload, capture_output=True, text=True, check=True,
            )
            res = json.loads(out.stdout.strip().splitlines()[-1])
            if not res["file"].startswith(str(tree.resolve())):
                raise SystemExit(f"{tree}: imported {res['file']} instead")
            cur = best.setdefault(tree, {k: float("inf") for k in _MEASURES})
            for k in _MEASURES:
                cur[k] = min(cur[k], res[k])
            print(f"round {r + 1}: {tree}: " + ", ".join(f"{k} {res[k]:.3f} s" for k in _MEASURES), file=sys.stderr)
    base = best[args.trees[0]]
    print(f"{len(texts)} statements, best of {args.rounds} rounds x {args.repeat} passes (CPU s)")
    print("| tree | parse | per statement | parse + canonical key | lower | ratio (parse) | ratio (+ key) | ratio (lower) |")
    print("|---|---|---|---|---|---|---|---|")
    for tree in args.trees:
        b = best[tree]
        print(f"| {tree} | {b['parse']:.3f} s | {1000 * b['parse'] / len(texts):.2f} ms | {b['parse_key']:.3f} s | "
              f"{b['lower']:.3f} s | " + " | ".join(f"{b[k] / base[k]:.3f}" for k in _MEASURES) + " |")


if __name__ == "__main__":
    main()
