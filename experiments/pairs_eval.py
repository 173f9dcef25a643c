"""Reference-based evaluation: check_equivalence(reference, candidate) against human labels.

Usage::

    .venv/bin/python experiments/pairs_eval.py ../shared/data/lean_pairs_gted.jsonl \
        [--relations sae,symbolic,logical,syntactic] [--timeout 5] [--limit N] \
        [--jsonl out.jsonl] [--write-docs docs/experiments.md]

For each relation: a confusion table of verdicts (equivalent / inequivalent / inconclusive /
parse error) against the human label, the precision of ``equivalent`` (the figure that matters
for soundness), coverage (share of pairs decided), and the time per pair. Every
``equivalent`` verdict on a human-inequivalent pair is listed with its id so it can be read.
A pair that fails (parse error, crash) is counted and the run goes on.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tqdm import tqdm  # noqa: E402

from provers import ParseError, parse  # noqa: E402
from provers.engine.equivalence import check_equivalence  # noqa: E402

SECTION = "## Reference-based evaluation on GTED pairs"
STATUSES = ("equivalent", "inequivalent", "inconclusive", "parse error", "error")


def _opens(header: str) -> str:
    """The ``open ...`` lines of a header (they change how names resolve, e.g. ``π``)."""
    return "\n".join(line for line in header.splitlines() if line.strip().startswith("open ") and " in" not in line)


def _parse(text: str, header: str, side: str):
    src = text
    opens = _opens(header or "")
    if opens:
        src = opens + "\n" + text
    try:
        return parse(src, "lean4")
    except ParseError:
        if opens:  # the parser may not accept headers: try the bare statement
            return parse(text, "lean4")
        raise


def evaluate(rows: list[dict[str, Any]], relation: str, timeout: float, out: Any = None) -> dict[str, Any]:
    table: Counter = Counter()
    times: list[float] = []
    false_equiv: list[str] = []
    reasons: Counter = Counter()
    for row in tqdm(rows, desc=relation, unit="pair"):
        label = bool(row["label"])
        t0 = time.perf_counter()
        rec: dict[str, Any] = {"id": row["id"], "relation": relation, "label": label}
        try:
            a = _parse(row["reference"], row.get("header", ""), "A")
        except ParseError as e:
            a, rec["error"] = None, f"reference: {e}"
        try:
            b = _parse(row["candidate"], row.get("candidate_header", ""), "B")
        except ParseError as e:
            b, rec["error"] = None, rec.get("error", "") + f" candidate: {e}"
        if a is None or b is None:
            status = "parse error"
        else:
            try:
                v = check_equivalence(a, b, relation=relation, timeout=timeout)
                status = v.status
                rec["verdict"] = v.to_dict()
                if status == "inconclusive":
                    reasons[_reason_class(v.reason)] += 1
            except Exception as e:  # noqa: BLE001 - one bad pair must not stop the run
                status = "error"
                rec["error"] = f"{type(e).__name__}: {e}"
        dt = time.perf_counter() - t0
        times.append(dt)
        rec["status"], rec["time"] = status, round(dt, 4)
        table[(status, label)] += 1
        if status == "equivalent" and not label:
            false_equiv.append(row["id"])
        if out is not None:
            out.write(json.dumps(rec, ensure_ascii=False, default=str) + "\n")
    n = len(rows)
    eq_true, eq_false = table[("equivalent", True)], table[("equivalent", False)]
    decided = sum(table[(s, lab)] for s in ("equivalent", "inequivalent") for lab in (True, False))
    ineq_true, ineq_false = table[("inequivalent", True)], table[("inequivalent", False)]
    return {
        "relation": relation,
        "n": n,
        "table": {f"{s}|{lab}": table[(s, lab)] for s in STATUSES for lab in (True, False)},
        "precision_equivalent": eq_true / (eq_true + eq_false) if eq_true + eq_false else None,
        "precision_inequivalent": ineq_false / (ineq_true + ineq_false) if ineq_true + ineq_false else None,
        "coverage": decided / n if n else 0.0,
        "recall_equivalent": eq_true / max(1, sum(table[(s, True)] for s in STATUSES)),
        "time_mean": statistics.mean(times) if times else 0.0,
        "time_median": statistics.median(times) if times else 0.0,
        "time_max": max(times) if times else 0.0,
        "false_equivalent": false_equiv,
        "inconclusive_reasons": dict(reasons.most_common(8)),
    }


def _reason_class(reason: str) -> str:
    r = reason.lower()
    for key in ("timeout", "uninterpreted", "unsupported", "budget", "no prover", "not decided"):
        if key in r:
            return key
    return re.sub(r"[^a-z ]", "", r)[:40] or "other"


def _pct(x: float | None) -> str:
    return "—" if x is None else f"{100 * x:.1f}%"


def render(results: list[dict[str, Any]], command: str, data: str) -> str:
    lines = [SECTION, "", f"Data: `{data}` (human equivalence labels). Command:", "", "```", command, "```", ""]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines += [f"Machine: {os.cpu_count()} cores, load average {load} at the end of the run (shared with other jobs); per-call backend timeout as in the command, whole check bounded by 4 × timeout.", ""]
    lines += [
        "Verdicts against human labels (rows: verdict; columns: human says equivalent / not).",
        "`precision(eq)` = share of `equivalent` verdicts that humans also call equivalent;",
        "`precision(ineq)` = share of `inequivalent` verdicts on human-inequivalent pairs;",
        "`coverage` = share of pairs decided (equivalent or inequivalent).",
        "",
    ]
    for r in results:
        t = r["table"]
        lines += [f"### relation `{r['relation']}` ({r['n']} pairs)", "", "| verdict | human: equivalent | human: not equivalent |", "|---|---|---|"]
        for s in STATUSES:
            lines.append(f"| {s} | {t[f'{s}|True']} | {t[f'{s}|False']} |")
        lines += [
            "",
            f"precision(eq) {_pct(r['precision_equivalent'])}, precision(ineq) {_pct(r['precision_inequivalent'])}, "
            f"coverage {_pct(r['coverage'])}, recall of human-equivalent pairs {_pct(r['recall_equivalent'])}; "
            f"time per pair mean {r['time_mean']:.3f} s, median {r['time_median']:.3f} s, max {r['time_max']:.2f} s.",
            "",
        ]
        if r["false_equivalent"]:
            lines.append("`equivalent` on human-inequivalent pairs: " + ", ".join(f"`{i}`" for i in r["false_equivalent"]))
            lines.append("")
        if r["inconclusive_reasons"]:
            lines.append("Inconclusive, by reason: " + ", ".join(f"{k} {v}" for k, v in r["inconclusive_reasons"].items()))
            lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def write_section(path: Path, text: str) -> None:
    """Replace this experiment's section of ``path`` (others' sections are kept)."""
    old = path.read_text() if path.exists() else "# Experiments\n"
    if SECTION in old:
        start = old.index(SECTION)
        nxt = old.find("\n## ", start + len(SECTION))
        new = old[:start] + text + (old[nxt + 1:] if nxt != -1 else "")
    else:
        new = old.rstrip() + "\n\n" + text
    path.write_text(new)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", help="JSONL with reference, candidate, label (e.g. lean_pairs_gted.jsonl)")
    ap.add_argument("--relations", default="syntactic,sae,symbolic,logical")
    ap.add_argument("--timeout", type=float, default=5.0, help="seconds per backend call")
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--jsonl", default="", help="write one record per (pair, relation) here")
    ap.add_argument("--write-docs", default="", help="markdown file whose section to (re)write")
    ap.add_argument("--notes", default="", help="markdown appended to the section (reading of the results)")
    args = ap.parse_args(argv)
    rows = [json.loads(line) for line in open(args.data, encoding="utf-8") if line.strip()]
    if args.limit:
        rows = rows[: args.limit]
    out = open(args.jsonl, "w", encoding="utf-8") if args.jsonl else None
    results = [evaluate(rows, rel.strip(), args.timeout, out) for rel in args.relations.split(",") if rel.strip()]
    if out is not None:
        out.close()
    command = ".venv/bin/python experiments/pairs_eval.py " + " ".join(argv if argv is not None else sys.argv[1:])
    text = render(results, command, args.data)
    if args.notes:
        text = text.rstrip() + "\n\n" + Path(args.notes).read_text().strip() + "\n"
    print(text)
    if args.write_docs:
        write_section(Path(args.write_docs), text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
