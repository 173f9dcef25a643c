"""Capture, and later compare, the engine's verdicts on the shared data.

A refactoring that "changes no verdict" is shown by capturing every verdict before it and
reproducing them after it::

    python experiments/verdict_fixture.py capture tests/fixtures/verdicts_before_reshape.jsonl \
        --data ../shared/data --timeout 1
    python experiments/verdict_fixture.py compare tests/fixtures/verdicts_before_reshape.jsonl \
        --data ../shared/data --timeout 1 [--decided-only]

(``tests/test_verdict_fixture.py`` runs the ``--decided-only`` comparison when the data is
present.)

Three parts, each record keyed by ``(part, id, relation)``:

* ``gted``: every pair of ``lean_pairs_gted.jsonl`` under the four relations (the status);
* ``math``: a seeded sample of 40 problems of ``isabelle_math_400.jsonl`` clustered by
  ``rerank.cluster.Clusterer`` (``symbolic``, 1 s per solver call): the classes and, per
  candidate, the parse status and the vacuity flag;
* ``diag``: the diagnostics sample ``tests/fixtures/diagnostics_sample.jsonl`` under ``sae``.

Only identifiers and results are written, never the data's text. A record whose outcome
depended on a clock (a verdict ``inconclusive`` for a timeout or budget, or a clustering
with any inconclusive check) is marked ``timed``: ``compare`` lists differences on those
separately from real ones and exits 1 only on real ones.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tqdm import tqdm  # noqa: E402

import provers  # noqa: E402
from provers.errors import ParseError  # noqa: E402

RELATIONS = ("syntactic", "sae", "symbolic", "logical")
MATH_SAMPLE = 40
TIMED_WORDS = ("timeout", "timed out", "budget", "deadline", "resource", "canceled", "interrupted")


def _timed(reason: str) -> bool:
    r = (reason or "").lower()
    return any(w in r for w in TIMED_WORDS)


def _gted_parse(text: str, header: str) -> Any:
    opens = "\n".join(
        ln for ln in (header or "").splitlines() if ln.strip().startswith("open ") and " in" not in ln
    )
    if opens:
        try:
            return provers.parse(opens + "\n" + text, "lean4")
        except ParseError:
            pass
    return provers.parse(text, "lean4")


Only = set[tuple[str, str, str]] | None  # keys to run (None: all)


def gted_records(data: Path, timeout: float, limit: int | None, only: Only = None) -> Iterator[dict[str, Any]]:
    rows = [json.loads(x) for x in (data / "lean_pairs_gted.jsonl").read_text().splitlines() if x.strip()]
    rows = rows[:limit] if limit else rows
    if only is not None:
        rows = [r for r in rows if any(("gted", r["id"], rel) in only for rel in RELATIONS)]
    for row in tqdm(rows, desc="gted", unit="pair"):
        try:
            a = _gted_parse(row["reference"], row.get("header", ""))
            b = _gted_parse(row["candidate"], row.get("candidate_header", ""))
        except ParseError as e:
            for rel in RELATIONS:
                yield {"part": "gted", "id": row["id"], "relation": rel, "status": "parse error",
                       "timed": False, "reason": str(e)[:120]}
            continue
        for rel in RELATIONS:
            if only is not None and ("gted", row["id"], rel) not in only:
                continue
            try:
                v = provers.check_equivalence(a, b, relation=rel, timeout=timeout)
                status, reason = v.status, v.reason or ""
            except Exception as e:  # noqa: BLE001 - a crash is a result to keep, not a stop
                status, reason = "error", f"{type(e).__name__}: {e}"
            yield {"part": "gted", "id": row["id"], "relation": rel, "status": status,
                   "timed": status == "inconclusive" and _timed(reason), "reason": reason[:120]}


def math_records(data: Path, timeout: float, limit: int | None, only: Only = None) -> Iterator[dict[str, Any]]:
    from rerank.cluster import Clusterer

    rows = [json.loads(x) for x in (data / "isabelle_math_400.jsonl").read_text().splitlines() if x.strip()]
    rng = random.Random(0)
    sample = sorted(rng.sample(range(len(rows)), MATH_SAMPLE))
    sample = sample[:limit] if limit else sample
    if only is not None:
        sample = [i for i in sample if ("math", rows[i]["id"], "symbolic") in only]
    for i in tqdm(sample, desc="math", unit="problem"):
        row = rows[i]
        c = Clusterer("symbolic", "isabelle", timeout, cache={})
        c.extend([cand["formal"] for cand in row["candidates"]])
        yield {"part": "math", "id": row["id"], "relation": "symbolic",
               "classes": c.classes,
               "parsed": [cand.parsed for cand in c.candidates],
               "vacuous": [cand.vacuous for cand in c.candidates],
               "timed": c.stats.inconclusive > 0}


def diag_records(timeout: float, limit: int | None, only: Only = None) -> Iterator[dict[str, Any]]:
    path = ROOT / "tests" / "fixtures" / "diagnostics_sample.jsonl"
    rows = [json.loads(x) for x in path.read_text().splitlines() if x.strip()]
    rows = rows[:limit] if limit else rows
    for n, rec in enumerate(tqdm(rows, desc="diag", unit="variant")):
        if only is not None and ("diag", f"{n}:{rec['id']}:{rec['kind']}", "sae") not in only:
            continue
        a = provers.parse(rec["formal"], "lean4")
        b = provers.parse(rec["text"], rec["language"])
        v = provers.check_equivalence(a, b, relation="sae", timeout=timeout)
        yield {"part": "diag", "id": f"{n}:{rec['id']}:{rec['kind']}", "relation": "sae",
               "status": v.status, "timed": v.status == "inconclusive" and _timed(v.reason or ""),
               "reason": (v.reason or "")[:120]}


def run(data: Path, timeout: float, parts: list[str], limit: int | None, only: Only = None) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    if "gted" in parts:
        out += gted_records(data, timeout, limit, only)
    if "math" in parts:
        out += math_records(data, timeout, limit, only)
    if "diag" in parts:
        out += diag_records(timeout, limit, only)
    return out


def load(path: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in path.read_text().splitlines() if x.strip()]


def key(r: dict[str, Any]) -> tuple[str, str, str]:
    return r["part"], r["id"], r["relation"]


def outcome(r: dict[str, Any]) -> Any:
    return r["classes"] if r["part"] == "math" else r["status"]


def compare(reference: list[dict[str, Any]], now: list[dict[str, Any]]) -> tuple[list, list, list]:
    """(real differences, clock-dependent differences, newly decided) as (key, before, after)
    triples. A verdict that was decided and changed is real; an inconclusive verdict that is now
    decided is listed apart (an engine that decides more is not a regression, but it must be
    read: each such change is a new claim)."""
    ref = {key(r): r for r in reference}
    real, timed, decided = [], [], []
    for r in now:
        k = key(r)
        if k not in ref:
            continue
        before, after = outcome(ref[k]), outcome(r)
        if before == after and (r["part"] != "math" or (ref[k]["parsed"], ref[k]["vacuous"]) == (r["parsed"], r["vacuous"])):
            continue
        if ref[k]["timed"] or r["timed"]:
            timed.append((k, before, after))
        elif r["part"] == "math" and before == after and ref[k]["parsed"] == r["parsed"] \
                and _vacuity_newly_decided(ref[k]["vacuous"], r["vacuous"]):
            decided.append((k, ref[k]["vacuous"], r["vacuous"]))
        elif _undecided(ref[k]) and not _undecided(r):
            decided.append((k, before, after))
        else:
            real.append((k, before, after))
    return real, timed, decided


def _vacuity_newly_decided(before: list, after: list) -> bool:
    """The same classes, and the vacuity tests differ only where the reference left them
    undecided (None): new claims (premises contradictory, or a model of them), read like a newly
    decided verdict."""
    return len(before) == len(after) and before != after and \
        all(b is None or b == a for b, a in zip(before, after, strict=True))


def _undecided(r: dict[str, Any]) -> bool:
    """An outcome a better engine may decide later: an inconclusive verdict, or a clustering
    (classes only ever merge on a proof, so a finer reference partition is not a verdict)."""
    return r["part"] != "math" and r["status"] == "inconclusive"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=("capture", "compare"))
    ap.add_argument("fixture", type=Path)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--timeout", type=float, default=1.0)
    ap.add_argument("--parts", default="gted,math,diag")
    ap.add_argument("--limit", type=int, default=None, help="first N items of each part (smoke runs)")
    ap.add_argument("--decided-only", action="store_true",
                    help="compare: re-run only the records whose reference outcome did not depend on a clock")
    args = ap.parse_args(argv)
    parts = args.parts.split(",")
    t0 = time.perf_counter()
    only = None
    if args.mode == "compare" and args.decided_only:
        only = {key(r) for r in load(args.fixture) if not r["timed"]}
    now = run(args.data, args.timeout, parts, args.limit, only)
    if args.mode == "capture":
        args.fixture.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in now))
        print(f"{len(now)} records written to {args.fixture} in {time.perf_counter() - t0:.0f} s")
        return 0
    real, timed, decided = compare(load(args.fixture), now)
    print(f"{len(now)} records compared in {time.perf_counter() - t0:.0f} s: "
          f"{len(real)} real differences, {len(timed)} clock-dependent, {len(decided)} newly decided")
    for label, diffs in (("REAL", real), ("clock-dependent", timed), ("newly decided", decided)):
        for k, before, after in diffs:
            print(f"  {label}: {k}: {before} -> {after}")
    return 1 if real else 0


if __name__ == "__main__":
    raise SystemExit(main())
