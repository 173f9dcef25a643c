"""Throughput of the SMT backends (z3, cvc5, portfolio) on obligations from miniF2F.

Each statement S (parsed with ``provers.parse(text, "lean4")``) gives two obligations over
its theorem variables: ``∀ vars, S ↔ S'`` with S' = S after alpha-renaming its bound
variables (valid), and ``∀ vars, S ↔ S''`` with S'' = S with its first numeral changed
(usually refutable). Each backend answers the set three times: with a cold verdict cache,
with the same cache warm (the same Term objects again), and warm on renamed copies (every
theorem variable renamed: new objects, found through the alpha-canonical key, models renamed
back).

    .venv/bin/python experiments/bench_backends.py ../shared/data/minif2f_lean4.jsonl \
        --limit 100 --timeout 1.0
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import sys
import time
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import provers  # noqa: E402
from provers.backends.base import Proved, Refuted  # noqa: E402
from provers.backends.cache import VerdictCache  # noqa: E402
from provers.backends.smt import Cvc5Backend, Portfolio, WorkerPool, Z3Backend  # noqa: E402
from provers.ir import Num, Quant, Term, Var, app, canonical, map_term, substitute  # noqa: E402


def split(formula: Term) -> tuple[list, Term]:
    vars_: list = []
    while isinstance(formula, Quant) and formula.kind == "forall":
        vars_.extend(formula.vars)
        formula = formula.body
    return vars_, formula


def perturb(t: Term) -> Term | None:
    """``t`` with its first numeral (in pre-order) increased by one."""
    done = [False]

    def fn(s: Term) -> Term | None:
        if isinstance(s, Num) and not done[0]:
            done[0] = True
            return replace(s, value=s.value + 1 if isinstance(s.value, int) else s.value + Fraction(1))
        return None

    out = map_term(t, fn)
    return out if done[0] else None


def obligations(path: str, limit: int | None) -> tuple[list[Term], int]:
    out: list[Term] = []
    failed = 0
    with open(path, encoding="utf-8") as fh:
        for k, line in enumerate(fh):
            if limit is not None and k >= limit:
                break
            rec = json.loads(line)
            try:
                st = provers.parse(rec["formal"], "lean4")
            except Exception:  # noqa: BLE001 - a parse failure is counted, not fatal
                failed += 1
                continue
            vars_, body = split(st.as_formula())
            same = canonical(body)  # bound variables renamed, theorem variables kept
            out.append(_close(vars_, app("iff", body, same)))
            pert = perturb(body)
            if pert is not None:
                out.append(_close(vars_, app("iff", body, pert)))
    return out, failed


def renamed(ob: Term) -> Term:
    """The obligation with every outer ∀ variable renamed (a fresh, alpha-equal object)."""
    vars_, body = split(ob)
    new = [Var(v.name + "_r", v.sort) for v in vars_]
    return _close(new, substitute(body, dict(zip(vars_, new, strict=True))))


def _close(vars_: list, body: Term) -> Term:
    return Quant("forall", tuple(vars_), body) if vars_ else body


def run(backend, obs: list[Term], timeout: float) -> tuple[float, collections.Counter]:
    counts: collections.Counter = collections.Counter()
    t0 = time.perf_counter()
    for ob in backend.prove_many(obs, timeout):
        counts[type(ob).__name__] += 1
    return time.perf_counter() - t0, counts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("data", help="miniF2F JSONL (fields: formal)")
    ap.add_argument("--limit", type=int, default=100, help="number of statements (default 100)")
    ap.add_argument("--timeout", type=float, default=1.0, help="seconds per obligation")
    ap.add_argument("--backends", default="z3,cvc5,portfolio", help="comma-separated subset of z3,cvc5,portfolio")
    ap.add_argument("--cold-only", action="store_true", help="skip the warm-cache passes")
    args = ap.parse_args()
    obs, failed = obligations(args.data, args.limit)
    print(f"{len(obs)} obligations from {args.limit} statements ({failed} did not parse); timeout {args.timeout}s")
    pool = WorkerPool(max_workers=4)
    run(Z3Backend(pool=pool, use_cache=False), obs[:2], args.timeout)  # start workers
    print(f"load average: {os.getloadavg()}")
    print("| backend | cache | obligations/s | proved | refuted | unknown | wall s | solver CPU s |")
    print("|---|---|---|---|---|---|---|---|")
    chosen = {"z3": Z3Backend, "cvc5": Cvc5Backend, "portfolio": Portfolio}
    for name in args.backends.split(","):
        be = chosen[name](pool=pool, cache=VerdictCache())
        passes = (("cold", obs), ("warm", obs), ("warm, renamed", [renamed(o) for o in obs]))
        for label, batch in passes[:1] if args.cold_only else passes:
            cpu0 = solver_cpu(pool)
            wall, c = run(be, batch, args.timeout)
            cpu = solver_cpu(pool) - cpu0
            print(f"| {be.name} | {label} | {len(obs) / wall:.1f} | {c[Proved.__name__]} | "
                  f"{c[Refuted.__name__]} | {c['Unknown']} | {wall:.1f} | {cpu:.1f} |", flush=True)
    pool.close()


_CPU_SEEN: dict[int, float] = {}


def solver_cpu(pool: WorkerPool) -> float:
    """CPU seconds used so far by the pool's solver workers: live ones from /proc, killed
    (reaped) ones from RUSAGE_CHILDREN."""
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pool.pids():
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
            _CPU_SEEN[pid] = (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            pass
    live = sum(v for k, v in _CPU_SEEN.items() if k in pool.pids())
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return live + r.ru_utime + r.ru_stime


if __name__ == "__main__":
    main()
