"""Parse the bundled example candidates and print what the frontend understood.

Usage::

    python experiments/show_examples.py [examples/problems.jsonl]

For every problem and candidate: the variables with their sorts, the premises and the
conclusion as IR (``provers.ir.show``), notes the frontend made (defaulted sorts), or the
``ParseError`` (line, column, reason) for a candidate that is not a statement.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import provers  # noqa: E402
from provers.ir import Hypothesis, VarBinder, show  # noqa: E402


def describe(text: str, language: str = "lean4") -> list[str]:
    """Lines describing one candidate: its binders, premises and conclusion, or its error."""
    try:
        st = provers.parse(text, language=language)
    except provers.ParseError as e:
        return [f"    not a statement: {e}"]
    lines = []
    vs = [f"{b.var.name} : {b.var.sort}" for b in st.binders if isinstance(b, VarBinder)]
    lines.append("    binders:    " + (", ".join(vs) if vs else "(none)"))
    hyps = [b for b in st.binders if isinstance(b, Hypothesis)]
    if hyps:
        for h in hyps:
            lines.append(f"    premise:    {h.name or '_'} : {show(h.formula)}")
    else:
        lines.append("    premises:   (none)")
    lines.append(f"    conclusion: {show(st.conclusion)}")
    for note in st.notes:
        lines.append(f"    note:       {note}")
    if st.has_uninterpreted():
        lines.append("    (contains uninterpreted symbols)")
    return lines


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    path = Path(argv[0]) if argv else ROOT / "examples" / "problems.jsonl"
    with path.open(encoding="utf-8") as fh:
        problems = [json.loads(line) for line in fh if line.strip()]
    for p in problems:
        print(f"== {p['id']}: {p['informal']}")
        labels = p.get("labels") or [None] * len(p["candidates"])
        for i, (cand, label) in enumerate(zip(p["candidates"], labels, strict=False)):
            lines = cand.strip().splitlines() or [""]
            first = next((ln for ln in lines if "theorem" in ln or "lemma" in ln), lines[0])
            tag = "" if label is None else f"  [label {label}]"
            print(f"  [{i}] {first[:90]}{tag}")
            for line in describe(cand, p.get("language", "lean4")):
                print(line)
        print()


if __name__ == "__main__":
    main()
