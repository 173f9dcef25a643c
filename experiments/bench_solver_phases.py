"""Where a solver call's time goes, and what an incremental context (push/pop) could save
(issue 14, item 4).

::

    nice -n 5 python experiments/bench_solver_phases.py --math 40 --timeout 1 \
        --out experiments/out/solver_phases.json

Part 1 (record): the verdict fixture's ``--math`` ``isabelle_math_400`` problems are ranked
(``Reranker``, ``symbolic``, 1 s per solver call, no back-translation), every call that
reaches the SMT portfolio recorded with its obligation, answer and wall time as the engine
saw it (worker pool included).

Part 2 (replay): each distinct obligation the portfolio answered in under ``--fast`` seconds
is replayed in this process with the solver that answered it (z3 where neither did: a
cvc5 check can overrun its own limit, and in this process nothing would stop it), timing the phases of ``smt.solve.solve``:
lowering the IR, building the solver, emitting the background facts, emitting the negated
obligation, and the check. An incremental context shared by a problem's calls could at most
save building the solver and emitting the facts (each call's obligation is a different whole
formula, ``(Γ → C) ↔ (Γ' → C')`` and the like, not a common prefix plus a new goal); the
slow calls are solver time (timeouts) that no context sharing removes.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from side_by_side import sample_indices  # noqa: E402

DATA = HERE.parent / "shared" / "data" / "isabelle_math_400.jsonl"


def record(n: int, timeout: float) -> list[dict[str, Any]]:
    """Rank ``n`` problems of the sample; every portfolio call with its wall time."""
    from tqdm import tqdm

    from provers.backends.smt import backends
    from rerank import Reranker

    calls: list[dict[str, Any]] = []
    original = backends.SolverBackend.prove

    def prove(self: Any, obligation: Any, timeout: float = 5.0) -> Any:
        t0 = time.monotonic()
        res = original(self, obligation, timeout)
        calls.append({"obligation": obligation, "timeout": timeout, "answer": type(res).__name__,
                      "solver": res.backend if res.backend in ("z3", "cvc5") else "z3",
                      "wall": time.monotonic() - t0})
        return res

    backends.SolverBackend.prove = prove  # type: ignore[method-assign]
    rows = [json.loads(x) for x in DATA.read_text().splitlines() if x.strip()]
    rr = Reranker(language="isabelle", relation="symbolic", timeout=timeout, informalizer="none")
    try:
        for i in tqdm(sample_indices(len(rows))[:n], desc="record"):
            row = rows[i]
            rr.rerank(row["informal"], [c["formal"] for c in row["candidates"]])
    finally:
        backends.SolverBackend.prove = original  # type: ignore[method-assign]
    return calls


def replay(obligation: Any, timeout: float, solver: str) -> dict[str, float] | None:
    """Phase times (seconds) of one in-process call, or None where the lowering refuses it."""
    solve = importlib.import_module("provers.backends.smt.solve")
    from provers.backends.smt.lower import Unsupported, lower_obligation

    t0 = time.perf_counter()
    try:
        lowered = lower_obligation(obligation, fold=True)
        t1 = time.perf_counter()
        em = solve._emitter(solver)
        s = em.solver(int(timeout * 1000), lowered)
        t2 = time.perf_counter()
        for f in lowered.facts:
            s.add(em.emit(f))
        t3 = time.perf_counter()
        s.add(em.Z.Not(em.emit(lowered.formula)))
        t4 = time.perf_counter()
    except Unsupported:
        return None
    s.check()
    t5 = time.perf_counter()
    return {"lower": t1 - t0, "solver": t2 - t1, "facts": t3 - t2, "formula": t4 - t3, "check": t5 - t4}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--math", type=int, default=40, help="problems of the 40-problem MATH sample")
    ap.add_argument("--timeout", type=float, default=1.0, help="seconds per solver call")
    ap.add_argument("--fast", type=float, default=0.1, help="replay the calls answered within this many seconds")
    ap.add_argument("--out", type=Path, default=None, help="write the summary as JSON here")
    args = ap.parse_args(argv)

    from tqdm import tqdm

    calls = record(args.math, args.timeout)
    by_answer: Counter[str] = Counter()
    wall_by_answer: Counter[str] = Counter()
    for c in calls:
        by_answer[c["answer"]] += 1
        wall_by_answer[c["answer"]] += c["wall"]
    fast = [c for c in calls if c["wall"] < args.fast]
    summary: dict[str, Any] = {
        "problems": args.math, "calls": len(calls), "wall": sum(c["wall"] for c in calls),
        "by_answer": dict(by_answer), "wall_by_answer": dict(wall_by_answer),
        "fast_calls": len(fast), "fast_wall": sum(c["wall"] for c in fast),
        "slow_wall": sum(c["wall"] for c in calls if c["wall"] >= args.fast),
    }
    seen: set[Any] = set()
    distinct = []
    for c in fast:
        if c["obligation"] not in seen:
            seen.add(c["obligation"])
            distinct.append(c)
    phases: Counter[str] = Counter()
    replayed: Counter[str] = Counter()
    for c in tqdm(distinct, desc="replay"):
        p = replay(c["obligation"], c["timeout"], c["solver"])
        if p is not None:
            replayed[c["solver"]] += 1
            phases.update(p)
    n = max(sum(replayed.values()), 1)
    summary["replayed"] = dict(replayed)
    summary["phases_s"] = dict(phases)
    summary["ms_per_call"] = {k: 1000 * v / n for k, v in phases.items()}
    summary["shareable_ms_per_call"] = 1000 * (phases["solver"] + phases["facts"]) / n
    print(json.dumps(summary, indent=2))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(summary, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
