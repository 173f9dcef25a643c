"""Diagnostics: does an equivalence relation accept harmless rewrites and reject perturbations?

Usage::

    .venv/bin/python experiments/diagnostics.py ../shared/data/minif2f_lean4.jsonl \
        [--statements 100] [--rewrites 4] [--perturbations 4] [--seed 0] [--timeout 1] \
        [--workers 2] [--relations sae,symbolic,logical] [--jsonl out.jsonl] \
        [--report out.md] [--plot docs/img/diagnostics.png] \
        [--write-fixture tests/fixtures/diagnostics_sample.jsonl --fixture-statements 15]

A seeded sample of statements is parsed; ``provers.perturb`` builds labelled rewrites
(meaning-preserving) and perturbations (meaning-changing, each labelled ``effective`` by the
SAE engine and an exact-evaluation witness); every variant is checked against its original
under each relation. The report gives, per kind of change, the equivalent / inequivalent /
inconclusive rates and the time per check, then lists every exception: a rewrite not proved
equivalent, a perturbation not proved inequivalent, and — the soundness bugs — a rewrite
judged inequivalent or an effective perturbation judged equivalent.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import random
import signal
import statistics
import sys
import time
from collections import Counter
from multiprocessing import connection as mp_connection
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tqdm import tqdm  # noqa: E402

from provers import ParseError, check_equivalence, parse  # noqa: E402
from provers.perturb import (  # noqa: E402
    PERTURBATION_KINDS,
    REWRITE_KINDS,
    Variant,
    label_effect,
    perturbations,
    rewrites,
)

SECTION = "## Diagnostics: rewrites and perturbations"
RELATIONS = ("sae", "symbolic", "logical")
STATUSES = ("equivalent", "inequivalent", "inconclusive")


# --------------------------------------------------------------------------------------
# building the two sets
# --------------------------------------------------------------------------------------


def load(path: Path, n: int, seed: int) -> tuple[list[dict[str, Any]], list[str]]:
    """``n`` parsed records chosen with ``seed`` (file order kept), and the parse failures."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    failures: list[str] = []
    parsed = []
    for r in rows:
        try:
            r["statement"] = parse(r["formal"], "lean4")
            parsed.append(r)
        except ParseError as e:
            failures.append(f"{r.get('id')}: {e}")
    rng = random.Random(seed)
    chosen = sorted(rng.sample(range(len(parsed)), min(n, len(parsed))))
    return [parsed[i] for i in chosen], failures


def build(records: list[dict[str, Any]], n_rw: int, n_pt: int, seed: int) -> list[tuple[dict, Variant]]:
    """(record, variant) pairs; perturbations are not labelled yet (the workers do that)."""
    out = []
    for r in records:
        st = r["statement"]
        try:
            vs = rewrites(st, seed=seed, n=n_rw) + perturbations(st, seed=seed, n=n_pt, check=False)
        except Exception as e:  # noqa: BLE001 - a generator failure is reported, never fatal
            print(f"warning: {r['id']}: variant generation failed: {type(e).__name__}: {e}", file=sys.stderr)
            continue
        out.extend((r, v) for v in vs)
    return out


# --------------------------------------------------------------------------------------
# checking
# --------------------------------------------------------------------------------------


def _summary(v: Any, dt: float) -> dict[str, Any]:
    return {
        "status": v.status,
        "reason": v.reason,
        "time": round(dt, 4),
        "countermodel": v.countermodel is not None,
        "structural": bool(getattr(v, "structural", False)),
    }


def check_one(original: Any, variant: Variant, relations: tuple[str, ...], timeout: float) -> dict[str, Any]:
    """Label a perturbation (its SAE verdict is reused) and check it under each relation."""
    out: dict[str, Any] = {}
    if not variant.preserving:
        t0 = time.perf_counter()
        variant = label_effect(original, variant, timeout=timeout)
        if variant.verdict is not None and "sae" in relations:
            out["sae"] = _summary(variant.verdict, time.perf_counter() - t0)
    for rel in relations:
        if rel in out:
            continue
        t0 = time.perf_counter()
        try:
            v = check_equivalence(original, variant.statement, relation=rel, timeout=timeout)
            out[rel] = _summary(v, time.perf_counter() - t0)
        except Exception as e:  # noqa: BLE001 - one failing check never stops the batch
            out[rel] = {"status": "error", "reason": f"{type(e).__name__}: {e}", "time": time.perf_counter() - t0,
                        "countermodel": False, "structural": False}
    return {"effective": variant.effective, "evidence": variant.evidence, "checks": out}


def roundtrip(v: Variant) -> bool:
    """Does the printed text parse back to the variant (so the text alone reproduces it)?"""
    if v.language != v.statement.language:
        return False
    try:
        return parse(v.text, v.language).canonical_key() == v.statement.canonical_key()
    except Exception:  # noqa: BLE001 - a printer/parser disagreement is reported, not fatal
        return False


def _failed(reason: str, relations: tuple[str, ...], elapsed: float) -> dict[str, Any]:
    row = {"status": "error", "reason": reason, "time": round(elapsed, 4), "countermodel": False, "structural": False}
    return {"effective": None, "evidence": reason, "checks": {rel: dict(row) for rel in relations}}


def _worker(conn: Any, pairs: list[tuple[dict, Variant]], relations: tuple[str, ...], timeout: float) -> None:
    """Worker loop (forked, so ``pairs`` is shared): receive an index, answer its checks.
    Its own process group, so a hard kill also takes its solver processes."""
    os.setpgrp()
    while True:
        try:
            i = conn.recv()
        except (EOFError, OSError):
            return
        if i is None:
            return
        r, v = pairs[i]
        try:
            res = check_one(r["statement"], v, relations, timeout)
        except Exception as e:  # noqa: BLE001 - reported as an error row
            res = _failed(f"{type(e).__name__}: {e}", relations, 0.0)
        conn.send((i, res))


class _Slot:
    """One worker process and the task it is running."""

    def __init__(self, ctx: Any, pairs: list, relations: tuple[str, ...], timeout: float) -> None:
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_worker, args=(child, pairs, relations, timeout))
        self.proc.start()
        child.close()
        self.task: int | None = None
        self.started = 0.0

    def submit(self, i: int) -> None:
        self.task, self.started = i, time.monotonic()
        self.conn.send(i)

    def kill(self) -> None:
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            self.proc.kill()
        self.proc.join()
        self.conn.close()

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except (BrokenPipeError, OSError):
            pass
        self.proc.join(timeout=10)
        if self.proc.is_alive():
            self.kill()


def run(pairs: list[tuple[dict, Variant]], relations: tuple[str, ...], timeout: float, workers: int,
        hard_limit: float | None = None) -> list[dict[str, Any]]:
    """Check every pair in ``workers`` forked worker processes. A variant whose checks run past
    ``hard_limit`` seconds (default 30 × timeout + 10: the engine's exact evaluator has no
    time bound of its own) has its worker killed with its solver processes and replaced; the
    variant is reported as an error, and the batch goes on."""
    limit = hard_limit if hard_limit is not None else 30 * timeout + 10
    ctx = mp.get_context("fork")
    results: list[dict[str, Any] | None] = [None] * len(pairs)
    pending = list(range(len(pairs)))[::-1]
    slots = [_Slot(ctx, pairs, relations, timeout) for _ in range(max(1, min(workers, len(pairs))))]
    try:
        with tqdm(total=len(pairs), desc="checks", unit="variant") as bar:
            while pending or any(s.task is not None for s in slots):
                for s in slots:
                    if s.task is None and pending:
                        s.submit(pending.pop())
                busy = [s for s in slots if s.task is not None]
                ready = mp_connection.wait([s.conn for s in busy], timeout=0.5)
                for k, s in enumerate(slots):
                    if s.task is None:
                        continue
                    if s.conn in ready:
                        try:
                            i, res = s.conn.recv()
                            results[i] = res
                        except (EOFError, OSError):
                            results[s.task] = _failed("worker died", relations, time.monotonic() - s.started)
                            s.kill()
                            slots[k] = _Slot(ctx, pairs, relations, timeout)
                    elif time.monotonic() - s.started > limit:
                        results[s.task] = _failed(f"hard time limit {limit:.0f} s exceeded (killed)", relations,
                                                  time.monotonic() - s.started)
                        s.kill()
                        slots[k] = _Slot(ctx, pairs, relations, timeout)
                    else:
                        continue
                    s.task = None
                    bar.update()
    finally:
        for s in slots:
            s.stop()
    rows = []
    for (r, v), res in zip(pairs, results, strict=True):
        assert res is not None
        rows.append({
            "id": r["id"], "formal": r["formal"], "kind": v.kind, "preserving": v.preserving,
            "description": v.description, "site": v.site, "text": v.text, "language": v.language,
            "roundtrip": roundtrip(v), **res,
        })
    return rows


# --------------------------------------------------------------------------------------
# report
# --------------------------------------------------------------------------------------


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:.0f}%" if d else "–"


def soundness_bugs(rows: list[dict[str, Any]], relation: str = "sae") -> list[dict[str, Any]]:
    """Wrong verdicts: a rewrite judged inequivalent, an effective perturbation judged equivalent."""
    bad = []
    for r in rows:
        st = r["checks"].get(relation, {}).get("status")
        if r["preserving"] and st == "inequivalent":
            bad.append(r)
        elif not r["preserving"] and r["effective"] is True and st == "equivalent":
            bad.append(r)
    return bad


_CAUSES = (
    ("hard time limit", "killed at the hard per-variant limit"),
    ("interpretation of uninterpreted", "countermodel needs an interpretation of uninterpreted symbols"),
    ("has no table", "solver model not validated: an uninterpreted symbol has no interpretation"),
    ("unsupported", "sort or construct unsupported by z3/cvc5 (Complex functions, ℕ+, NNReal, ...)"),
    ("approximate", "solver model not validated: irrational values known only approximately"),
    ("irrational", "solver model not validated: irrational values known only approximately"),
    ("not finite", "solver model not validated: infinite set in the model"),
    ("unbounded domain", "solver model not validated: quantifier over an unbounded domain"),
    ("holds under the model", "solver model not validated: the obligation holds under it"),
    ("timeout", "solver timeout"),
    ("INCOMPLETE", "solver incomplete (quantifiers)"),
)


def inconclusive_cause(reason: str) -> str:
    """A coarse category of an inconclusive verdict's reason (for the report)."""
    for key, cause in _CAUSES:
        if key in reason:
            return cause
    return "other"


def report(rows: list[dict[str, Any]], relations: tuple[str, ...], meta: dict[str, Any]) -> str:
    lines = [SECTION, ""]
    lines.append(
        f"Command: `{meta['command']}` — {meta['statements']} miniF2F statements (seed {meta['seed']}), "
        f"{sum(r['preserving'] for r in rows)} rewrites and {sum(not r['preserving'] for r in rows)} perturbations, "
        f"per-check timeout {meta['timeout']} s, {meta['workers']} workers, wall time {meta['wall']:.0f} s "
        f"(commit {meta.get('commit', '?')}, load average {meta.get('load', '?')} at the start)."
    )
    lines.append("")
    lines.append("Each variant is checked against its original. Cells: equivalent / inequivalent / inconclusive "
                 "(share of the kind's variants), then the mean time per check. Perturbations the generator "
                 "labelled not effective (the engine proved them equivalent: the change does not matter) are "
                 "counted apart, in the `not effective` column.")
    lines.append("")
    for preserving, title in ((True, "Rewrites (meaning-preserving)"), (False, "Perturbations (meaning-changing)")):
        lines.append(f"### {title}")
        lines.append("")
        head = "| kind | n |" + ("" if preserving else " not effective |") + "".join(f" {rel} eq / ineq / inc | {rel} s |" for rel in relations)
        lines.append(head)
        lines.append("|" + "---|" * (head.count("|") - 1))
        kinds = REWRITE_KINDS if preserving else PERTURBATION_KINDS
        group = [r for r in rows if r["preserving"] == preserving]
        for kind in (*kinds, "all"):
            rs = [r for r in group if kind in ("all", r["kind"])]
            if not rs:
                continue
            cells = [f"**{kind}**" if kind == "all" else kind, str(len(rs))]
            if not preserving:
                cells.append(str(sum(r["effective"] is False for r in rs)))
            for rel in relations:
                c = Counter(r["checks"][rel]["status"] for r in rs)
                cells.append(" / ".join(_pct(c[s], len(rs)) for s in STATUSES) + (f" (+{c['error']} err)" if c["error"] else ""))
                cells.append(f"{statistics.mean(r['checks'][rel]['time'] for r in rs):.2f}")
            lines.append("| " + " | ".join(cells) + " |")
        lines.append("")
    pts = [r for r in rows if not r["preserving"]]
    eff = [r for r in pts if r["effective"] is not False]
    ineq = [r for r in eff if r["checks"].get("sae", {}).get("status") == "inequivalent"]
    cm = [r for r in ineq if r["checks"]["sae"]["countermodel"]]
    rws = [r for r in rows if r["preserving"]]
    rw_eq = [r for r in rws if r["checks"].get("sae", {}).get("status") == "equivalent"]
    lines.append("### Targets (SAE)")
    lines.append("")
    lines.append(f"- rewrites proved equivalent: {len(rw_eq)} / {len(rws)} ({_pct(len(rw_eq), len(rws))}); "
                 f"judged inequivalent: {sum(r['checks'].get('sae', {}).get('status') == 'inequivalent' for r in rws)}.")
    lines.append(f"- perturbations not labelled ineffective: {len(eff)}; proved inequivalent: {len(ineq)} "
                 f"({_pct(len(ineq), len(eff))}), of which {len(cm)} with a validated countermodel and "
                 f"{len(ineq) - len(cm)} structurally (sorts or premise shapes differ); judged equivalent: "
                 f"{sum(r['checks'].get('sae', {}).get('status') == 'equivalent' for r in eff)}.")
    bad_print = [r for r in rows if not r["roundtrip"]]
    lines.append(f"- printed variants that do not parse back to the same statement (printer/parser round trip): "
                 f"{len(bad_print)} / {len(rows)}" + (": " + ", ".join(f"`{r['id']}` {r['kind']}" for r in bad_print[:10]) if bad_print else "") + ".")
    bugs = soundness_bugs(rows)
    lines.append(f"- soundness bugs (wrong SAE verdicts): {len(bugs)}.")
    lines.append("")
    inc = [r for r in rows if r["checks"].get("sae", {}).get("status") in ("inconclusive", "error")]
    if inc:
        causes = Counter(inconclusive_cause(r["checks"]["sae"]["reason"]) for r in inc)
        lines.append("Why SAE stayed inconclusive (first matching cause per variant): "
                     + "; ".join(f"{c}: {k}" for c, k in causes.most_common()) + ".")
        lines.append("")
    lines.append("### Exceptions (SAE), each with its reason")
    lines.append("")
    for r in bugs:
        lines.append(f"- **WRONG VERDICT** `{r['id']}` {r['kind']}: {r['description']} — {r['checks']['sae']['reason']}; {r['evidence']}")
    for r in rws:
        st = r["checks"].get("sae", {})
        if st.get("status") == "inconclusive":
            lines.append(f"- rewrite `{r['id']}` {r['kind']} ({r['description'][:90]}): inconclusive — {st['reason'][:200]}")
    for r in pts:
        st = r["checks"].get("sae", {})
        if r["effective"] is False:
            lines.append(f"- not effective `{r['id']}` {r['kind']} ({r['description'][:90]}): {r['evidence'][:160]}")
        elif st.get("status") == "inconclusive":
            lines.append(f"- perturbation `{r['id']}` {r['kind']} ({r['description'][:90]}): inconclusive — {st['reason'][:200]}")
    lines.append("")
    return "\n".join(lines)


def plot(rows: list[dict[str, Any]], relations: tuple[str, ...], path: Path) -> None:
    """Stacked bars: per relation and set (rewrites / effective perturbations), status shares."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    sets = {"rewrites": [r for r in rows if r["preserving"]],
            "perturbations": [r for r in rows if not r["preserving"] and r["effective"] is not False]}
    labels, data = [], {s: [] for s in STATUSES}
    for rel in relations:
        for name, rs in sets.items():
            labels.append(f"{rel}\n{name}")
            c = Counter(r["checks"][rel]["status"] for r in rs)
            for s in STATUSES:
                data[s].append(100 * c[s] / len(rs) if rs else 0)
    fig, ax = plt.subplots(figsize=(9, 4))
    bottom = [0.0] * len(labels)
    colors = {"equivalent": "#4c9a2a", "inequivalent": "#c0392b", "inconclusive": "#999999"}
    for s in STATUSES:
        ax.bar(labels, data[s], bottom=bottom, label=s, color=colors[s])
        bottom = [b + d for b, d in zip(bottom, data[s], strict=True)]
    ax.set_ylabel("% of variants")
    ax.set_title("Verdicts on meaning-preserving rewrites and meaning-changing perturbations")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), ncol=3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


# --------------------------------------------------------------------------------------
# regression fixture
# --------------------------------------------------------------------------------------


def write_fixture(rows: list[dict[str, Any]], path: Path, n_statements: int, seed: int, n_rw: int, n_pt: int, max_time: float = 1.0) -> int:
    """The first ``n_statements`` statements' variants whose SAE check was decided quickly and
    whose printed text parses back to the variant: each line carries the original and variant
    texts, what regenerates the variant (seed, counts, kind, description) and the verdict."""
    ids = list(dict.fromkeys(r["id"] for r in rows))[:n_statements]
    out = []
    for r in rows:
        sae = r["checks"].get("sae", {})
        if r["id"] not in ids or sae.get("time", 99) > max_time or sae.get("status") == "error" or not r["roundtrip"]:
            continue
        out.append({
            "id": r["id"], "formal": r["formal"], "seed": seed, "n_rewrites": n_rw, "n_perturbations": n_pt,
            "kind": r["kind"], "preserving": r["preserving"], "description": r["description"],
            "text": r["text"], "language": r["language"], "effective": r["effective"], "sae": sae["status"],
        })
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in out))
    return len(out)


def _commit() -> str:
    import subprocess

    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=10,
                             cwd=Path(__file__).resolve().parents[1])
        return out.stdout.strip() or "?"
    except (OSError, subprocess.SubprocessError):
        return "?"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("data", type=Path)
    ap.add_argument("--statements", type=int, default=100)
    ap.add_argument("--rewrites", type=int, default=4, help="rewrites per statement")
    ap.add_argument("--perturbations", type=int, default=4, help="perturbations per statement")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=1.0, help="seconds per backend call")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--hard-limit", type=float, default=None, help="kill a variant's checks after this many seconds")
    ap.add_argument("--relations", default=",".join(RELATIONS))
    ap.add_argument("--jsonl", type=Path, help="write one record per variant")
    ap.add_argument("--report", type=Path, help="write the markdown section here")
    ap.add_argument("--plot", type=Path, help="bar chart (png)")
    ap.add_argument("--write-fixture", type=Path, help="regression sample for tests/")
    ap.add_argument("--fixture-statements", type=int, default=15)
    args = ap.parse_args(argv)
    relations = tuple(x.strip() for x in args.relations.split(",") if x.strip())
    if not args.data.exists():
        print(f"error: data file {args.data} not found", file=sys.stderr)
        return 1
    t0 = time.perf_counter()
    load_avg = f"{os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else "?"
    records, failures = load(args.data, args.statements, args.seed)
    if failures:
        print(f"{len(failures)} statements failed to parse (skipped)", file=sys.stderr)
    pairs = build(records, args.rewrites, args.perturbations, args.seed)
    rows = run(pairs, relations, args.timeout, args.workers, args.hard_limit)
    wall = time.perf_counter() - t0
    cmd = "python experiments/diagnostics.py " + " ".join(sys.argv[1:] if argv is None else argv)
    meta = {"command": cmd, "statements": len(records), "seed": args.seed, "timeout": args.timeout,
            "workers": args.workers, "wall": wall, "commit": _commit(), "load": load_avg}
    text = report(rows, relations, meta)
    print(text)
    if args.report:
        args.report.write_text(text)
    if args.jsonl:
        with args.jsonl.open("w") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
    if args.plot:
        plot(rows, relations, args.plot)
    if args.write_fixture:
        n = write_fixture(rows, args.write_fixture, args.fixture_statements, args.seed, args.rewrites, args.perturbations)
        print(f"wrote {n} fixture records to {args.write_fixture}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
