"""Render the Lean obligations of every (reference, candidate) pair of a GTED-style JSONL.

For each pair: parse both statements (header + statement), normalize, take the engine's best
admissible alignment (``provers.engine.align.alignments``, first item) and collect the obligations
``provers.engine.relations.check_sae`` builds for it — exactly the formulas a backend is asked when
the cheap checks (syntactic identity, fingerprints) decide none of them, deduplicated as the
engine's per-call cache does. Each is rendered by ``obligation_from_ir`` with both statements
as sources (original text of their components, carrier binders, ``open`` lines) and Lean
symbols allowed, as ``LeanBackend.bind`` does.

One JSON record per pair, in file order: ``index``, ``id``, and either ``error`` (a parse
error), ``structural`` (no obligation: types/instances differ, premises on one side only, no
admissible alignment) or ``alignment`` and ``obligations`` (``name`` and ``theorem`` — the
rendered statement without the proof — or ``not_renderable`` with the reason), plus
``opens``. The output is deterministic.

Usage::

    python experiments/render_gted_obligations.py ../shared/data/lean_pairs_gted.jsonl         # check
    python experiments/render_gted_obligations.py ../shared/data/lean_pairs_gted.jsonl --write # update

The golden file is ``tests/fixtures/lean_obligations.golden.jsonl`` (checked by
``tests/test_lean_golden.py``): review its diff whenever rendering changes.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from provers import parse  # noqa: E402
from provers.backends.lean.render import (  # noqa: E402
    NotRenderable,
    SourceIndex,
    obligation_from_ir,
)
from provers.backends.lean.security import UnsafeLeanError  # noqa: E402
from provers.engine.align import alignments  # noqa: E402
from provers.engine.normal import normalize  # noqa: E402
from provers.engine.relations import check_sae, rename_onto  # noqa: E402
from provers.engine.sort_match import match_types  # noqa: E402
from provers.engine.verdict import Obligation  # noqa: E402
from provers.errors import ParseError  # noqa: E402
from provers.ir import Statement, Term  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests/fixtures/lean_obligations.golden.jsonl"
MAX_ALIGNMENTS = 24  # the engine's default budget (provers.engine.equivalence.DEFAULT_MAX_ALIGNMENTS)


def sae_obligations(a: Statement, b: Statement) -> tuple[list[tuple[str, Term]], list[list[str]], str]:
    """(obligations (name, closed formula), alignment name pairs, structural reason or "")."""
    na, nb = normalize(a), normalize(b)
    renamed, why = match_types(na, nb)
    nb = renamed[0]  # the first correspondence of the type variables, as the engine tries first
    if why is not None:
        return [], [], why
    als = alignments(na, nb, MAX_ALIGNMENTS)
    if not als.items:
        return [], [], als.failure or "alignment budget exhausted"
    al = als.items[0]
    seen: dict[Term, str] = {}

    def prove(name: str, formula: Term, cheap: bool = False) -> Obligation:
        if not cheap and formula not in seen:
            seen[formula] = name
        return Obligation(name, formula, "unknown", detail="recorded")

    out = check_sae(na, rename_onto(nb, al), prove)
    if not seen and out.status == "structural":
        return [], [list(p) for p in al.names()], out.reason
    return [(n, f) for f, n in seen.items()], [list(p) for p in al.names()], ""


def render_pair(index: int, rec: dict[str, Any]) -> dict[str, Any]:
    """The golden record of one pair (see the module docstring)."""
    out: dict[str, Any] = {"index": index, "id": rec.get("id", str(index))}
    try:
        a = parse(rec.get("header", "") + rec["reference"], "lean4")
        b = parse(rec.get("candidate_header", rec.get("header", "")) + rec["candidate"], "lean4")
    except ParseError as e:
        out["error"] = f"{type(e).__name__}: {e}"
        return out
    try:
        obligations, alignment, structural = sae_obligations(a, b)
    except (ValueError, RecursionError) as e:  # an engine limit: recorded, never a crash
        out["error"] = f"{type(e).__name__}: {e}"
        return out
    if structural:
        out["structural"] = structural
        return out
    index_ = SourceIndex((a, b))
    out["alignment"] = alignment
    out["opens"] = list(index_.opens)
    rendered = []
    for name, formula in obligations:
        item: dict[str, Any] = {"name": name}
        try:
            ob = obligation_from_ir(formula, sources=index_, lean_symbols=True)
            item["theorem"] = ob.statement()
        except (NotRenderable, UnsafeLeanError) as e:
            item["not_renderable"] = str(e)
        rendered.append(item)
    out["obligations"] = rendered
    return out


def render_file(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        return [render_pair(i, json.loads(line)) for i, line in enumerate(f) if line.strip()]


def dumps(rec: dict[str, Any]) -> str:
    return json.dumps(rec, ensure_ascii=False, sort_keys=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", type=Path, help="JSONL of {reference, candidate, header, ...} pairs")
    ap.add_argument("--write", action="store_true", help=f"write {GOLDEN.relative_to(ROOT)}")
    ap.add_argument("--golden", type=Path, default=GOLDEN)
    args = ap.parse_args(argv)
    if not args.data.exists():
        print(f"no such file: {args.data}", file=sys.stderr)
        return 2
    records = render_file(args.data)
    counts = {"pairs": len(records), "parse errors": 0, "structural": 0, "obligations": 0,
              "rendered": 0, "not renderable": 0, "with original text": 0}
    for r in records:
        counts["parse errors"] += "error" in r
        counts["structural"] += "structural" in r
        for o in r.get("obligations", []):
            counts["obligations"] += 1
            counts["rendered"] += "theorem" in o
            counts["not renderable"] += "not_renderable" in o
    print(", ".join(f"{k}: {v}" for k, v in counts.items() if k != "with original text"))
    text = "".join(dumps(r) + "\n" for r in records)
    if args.write:
        args.golden.parent.mkdir(parents=True, exist_ok=True)
        args.golden.write_text(text, encoding="utf-8")
        print(f"wrote {args.golden}")
        return 0
    old = args.golden.read_text(encoding="utf-8") if args.golden.exists() else ""
    if old == text:
        print("golden file up to date")
        return 0
    print("golden file differs: rerun with --write and review the diff", file=sys.stderr)
    return 1


if __name__ == "__main__":
    raise SystemExit(main())
