"""How much of a JSONL of formal statements the frontends parse, and how much they interpret.

Usage::

    python experiments/parse_coverage.py DATA.jsonl [--language lean4|isabelle] [--field formal]
                                         [--markdown] [--limit N] [--where KEY=VALUE]

Record shapes are detected: ``{header, formal}`` (miniF2F / ProofNet: the statement is
``header + formal``), ``{candidates: [{formal, ...}, ...]}`` (isabelle_math_400, FormalAlign
mutants: every candidate), ``{reference, candidate}`` (statement pairs: both). ``--field``
names the statement field explicitly (also inside ``candidates``). ``--where KEY=VALUE`` keeps
only candidates (or records) whose field KEY equals VALUE, e.g. ``--where paper_syntax_ok=1``. The language comes from
``--language``, else from each record's ``language`` field, else ``lean4``.

Prints: statements parsed / failed (failure reasons grouped, with a count and one example
each), how many parsed statements contain an ``Uninterpreted`` node and the most common
uninterpreted symbols, and the parse time (parsing only, excluding file reading).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import provers  # noqa: E402
from provers.ir import Uninterpreted, subterms  # noqa: E402


def _matches(item: object, where: tuple[str, str] | None) -> bool:
    if where is None or not isinstance(item, dict) or where[0] not in item:
        return where is None
    return str(item[where[0]]) == where[1]


def statements(
    rec: dict, field: str | None, language: str, where: tuple[str, str] | None = None
) -> Iterator[tuple[str, str]]:
    """(label, text) for every statement in one record (that passes ``where``)."""
    rid = str(rec.get("id", "?"))
    header = rec.get("header") or ""

    def with_header(text: str) -> str:
        if language == "lean4" and header and header.strip() not in text:
            return header + text
        return text

    cands = rec.get("candidates")
    if isinstance(cands, list) and (field is None or field not in rec):
        key = field or "formal"
        for i, c in enumerate(cands):
            if not _matches(c, where):
                continue
            text = c.get(key) if isinstance(c, dict) else c
            if isinstance(text, str):
                yield f"{rid}#{i}", with_header(text)
        return
    if not _matches(rec, where):
        return
    if field is not None:
        val = rec.get(field)
        vals = val if isinstance(val, list) else [val]
        for i, v in enumerate(vals):
            if isinstance(v, str):
                yield (rid if len(vals) == 1 else f"{rid}#{i}"), with_header(v)
        return
    if isinstance(rec.get("formal"), str):
        yield rid, with_header(rec["formal"])
        return
    for key in ("reference", "candidate"):
        if isinstance(rec.get(key), str):
            yield f"{rid}/{key}", with_header(rec[key])


def _reason_key(reason: str) -> str:
    """Group failure reasons: quoted fragments and numbers replaced by placeholders."""
    key = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", reason)
    return re.sub(r"\d+", "N", key)[:90]


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--language", choices=provers.LANGUAGES, default=None)
    ap.add_argument("--field", default=None, help="statement field (default: detected)")
    ap.add_argument("--limit", type=int, default=None, help="only the first N records")
    ap.add_argument("--markdown", action="store_true", help="print a markdown table too")
    ap.add_argument("--where", default=None, metavar="KEY=VALUE",
                    help="keep only candidates/records whose field KEY equals VALUE")
    ap.add_argument("--top", type=int, default=15, help="how many reasons/symbols to list")
    args = ap.parse_args(argv)
    where = tuple(args.where.split("=", 1)) if args.where else None
    if where is not None and len(where) != 2:
        ap.error("--where takes KEY=VALUE")

    records = []
    with args.data.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            if args.limit is not None and n >= args.limit:
                break
            if line.strip():
                records.append(json.loads(line))
    items: list[tuple[str, str, str]] = []
    for rec in records:
        lang = args.language or rec.get("language") or "lean4"
        lang = "isabelle" if lang.startswith("isa") else lang
        items.extend((label, text, lang) for label, text in statements(rec, args.field, lang, where))

    parsed = 0
    with_unint = 0
    failures: Counter[str] = Counter()
    example: dict[str, tuple[str, str]] = {}
    crashes: Counter[str] = Counter()
    symbols: Counter[str] = Counter()
    elapsed = 0.0
    for label, text, lang in tqdm(items, desc=args.data.name, unit="stmt", file=sys.stderr):
        t0 = time.perf_counter()
        try:
            st = provers.parse(text, language=lang)
        except provers.ParseError as e:
            elapsed += time.perf_counter() - t0
            key = _reason_key(e.reason)
            failures[key] += 1
            example.setdefault(key, (label, str(e)))
            continue
        except Exception as e:  # a frontend bug: count it, keep going
            elapsed += time.perf_counter() - t0
            key = f"{type(e).__name__}: {str(e)[:60]}"
            crashes[key] += 1
            example.setdefault(key, (label, repr(e)[:200]))
            continue
        elapsed += time.perf_counter() - t0
        parsed += 1
        syms = {s.symbol for t in st.terms() for s in subterms(t) if isinstance(s, Uninterpreted)}
        if syms:
            with_unint += 1
            symbols.update(syms)

    total = len(items)
    failed = sum(failures.values())
    crashed = sum(crashes.values())

    def pct(k: int) -> float:
        return 100.0 * k / total if total else 0.0

    print(f"data: {args.data}  records: {len(records)}  statements: {total}")
    print(f"parsed:  {parsed} ({pct(parsed):.1f}%)")
    print(f"failed:  {failed} ({pct(failed):.1f}%)  [ParseError]")
    if crashed:
        print(f"crashed: {crashed} ({pct(crashed):.1f}%)  [frontend bugs: not ParseError]")
    clean = parsed - with_unint
    print(f"parsed without Uninterpreted: {clean} ({pct(clean):.1f}% of all)  "
          f"with Uninterpreted: {with_unint}")
    print(f"parse time: {elapsed:.2f} s total, {1000 * elapsed / max(total, 1):.2f} ms/statement")
    if failures:
        print("\nfailure reasons (count, reason, one example):")
        for key, n in failures.most_common(args.top):
            lab, msg = example[key]
            print(f"  {n:5d}  {key}\n         e.g. {lab}: {msg}")
    if crashes:
        print("\ncrashes:")
        for key, n in crashes.most_common(args.top):
            print(f"  {n:5d}  {key}  e.g. {example[key][0]}")
    if symbols:
        print("\nmost common uninterpreted symbols (statements containing them):")
        print("  " + ", ".join(f"{s} ({n})" for s, n in symbols.most_common(args.top)))
    summary = {
        "data": str(args.data), "statements": total, "parsed": parsed, "failed": failed,
        "crashed": crashed, "with_uninterpreted": with_unint, "seconds": round(elapsed, 3),
    }
    if args.markdown:
        print("\n| data | statements | parsed | failed | no Uninterpreted | parse time |")
        print("|---|---|---|---|---|---|")
        print(f"| `{args.data.name}` | {total} | {parsed} ({pct(parsed):.1f}%) | {failed} | "
              f"{clean} ({pct(clean):.1f}%) | {elapsed:.2f} s |")
    return summary


if __name__ == "__main__":
    main()
