"""Time per pair of ``check_equivalence`` on miniF2F statements.

Usage::

    .venv/bin/python experiments/equiv_bench.py ../shared/data/minif2f_lean4.jsonl \
        [--limit 100] [--relations sae,symbolic] [--timeout 5] [--write-docs docs/benchmarks.md]

For every statement the Lean parser reads, two pairs are checked: the statement against a
renamed copy with its hypotheses reversed (should be ``equivalent``) and against a copy whose
answer numeral (``E = c`` in the conclusion) is changed by one (should never be
``equivalent``). Reports verdict counts and time per pair (mean, median, p90, max) per kind.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tqdm import tqdm  # noqa: E402

from provers import ParseError, parse  # noqa: E402
from provers.engine.equivalence import check_equivalence  # noqa: E402
from provers.engine.normal import is_type_var  # noqa: E402
from provers.ir import INT, NAT, App, Hypothesis, Num, Statement, Var, VarBinder, app, substitute  # noqa: E402

SECTION = "## Equivalence"


def renamed_permuted(s: Statement) -> Statement:
    vs = [b.var for b in s.binders if isinstance(b, VarBinder) and not is_type_var(b.var)]
    mapping = {v: Var(f"v{i}_{v.name}", v.sort) for i, v in enumerate(vs)}
    vars_ = [VarBinder(mapping.get(b.var, b.var), b.style) for b in s.binders if isinstance(b, VarBinder)]
    hyps = [Hypothesis(f"g{i}", substitute(b.formula, mapping), b.style) for i, b in enumerate(s.binders) if isinstance(b, Hypothesis)]
    return Statement(tuple(vars_) + tuple(reversed(hyps)), substitute(s.conclusion, mapping), s.language)


def perturbed(s: Statement) -> Statement | None:
    c = s.conclusion
    if isinstance(c, App) and c.op == "eq" and isinstance(c.args[1], Num):
        old = c.args[1]
        value = Fraction(old.value) + 1
        new = Num(int(value) if old.sort in (NAT, INT) else value, old.sort)
        return Statement(s.binders, app("eq", c.args[0], new), s.language)
    return None


def _stats(ts: list[float]) -> str:
    if not ts:
        return "—"
    ts = sorted(ts)
    p90 = ts[min(len(ts) - 1, int(0.9 * len(ts)))]
    return f"{statistics.mean(ts) * 1000:.1f} / {statistics.median(ts) * 1000:.1f} / {p90 * 1000:.1f} / {ts[-1] * 1000:.0f}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data")
    ap.add_argument("--limit", type=int, default=100)
    ap.add_argument("--relations", default="sae,symbolic")
    ap.add_argument("--timeout", type=float, default=5.0)
    ap.add_argument("--write-docs", default="")
    args = ap.parse_args(argv)
    rows = [json.loads(line) for line in open(args.data, encoding="utf-8") if line.strip()][: args.limit]
    parsed = []
    for r in rows:
        try:
            parsed.append(parse(r["formal"] + (" sorry" if r["formal"].rstrip().endswith("by") else ""), "lean4"))
        except ParseError:
            continue
    lines = [SECTION, "", "Command:", "", "```", ".venv/bin/python experiments/equiv_bench.py " + " ".join(argv if argv is not None else sys.argv[1:]), "```", ""]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines += [f"Machine: {os.cpu_count()} cores, load average {load} at the end of the run (shared with other jobs).", ""]
    lines += [f"{len(parsed)} of {len(rows)} miniF2F statements parsed. Time per pair in ms: mean / median / p90 / max.", ""]
    lines += ["| relation | pair kind | pairs | verdicts | time per pair (ms) |", "|---|---|---|---|---|"]
    for rel in [r.strip() for r in args.relations.split(",") if r.strip()]:
        for kind, make in (("renamed + hypotheses reversed", renamed_permuted), ("answer numeral + 1", perturbed)):
            times: list[float] = []
            verdicts: Counter = Counter()
            for s in tqdm(parsed, desc=f"{rel}: {kind}", unit="pair"):
                t = make(s)
                if t is None:
                    continue
                t0 = time.perf_counter()
                v = check_equivalence(s, t, relation=rel, timeout=args.timeout)
                times.append(time.perf_counter() - t0)
                verdicts[v.status] += 1
            vs = ", ".join(f"{k} {n}" for k, n in sorted(verdicts.items()))
            lines.append(f"| {rel} | {kind} | {len(times)} | {vs} | {_stats(times)} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if args.write_docs:
        path = Path(args.write_docs)
        old = path.read_text() if path.exists() else "# Benchmarks\n"
        if SECTION + "\n" in old:
            start = old.index(SECTION + "\n")
            nxt = old.find("\n## ", start + len(SECTION))
            new = old[:start] + text + (old[nxt + 1:] if nxt != -1 else "")
        else:
            new = old.rstrip() + "\n\n" + text
        path.write_text(new)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
