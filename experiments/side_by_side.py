"""Side-by-side benchmark workers: one long-lived process per tree, one working at a time.

Why: a speed figure counts only as a ratio to the previous commit measured in the same run;
each bench script (``bench_pinning``, ``bench_portfolio``, ``bench_decide``) runs its own
worker entry point per tree and feeds it the same items through this driver, the order of
the trees rotating per item so that load drifts hit them alike.

Protocol: the worker is ``python <script> --worker <tree> ...`` started with ``cwd`` and
``PYTHONPATH`` set to the tree (the solver pool's processes import ``provers`` from there
too); it prints one JSON line ``{"ready": ...}``, then answers each item line on stdin
with one JSON line on stdout.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

#: Problems in the verdict fixture's MATH sample (``experiments/verdict_fixture.py``).
MATH_SAMPLE = 40


def sample_indices(n_rows: int, k: int = MATH_SAMPLE) -> list[int]:
    """The verdict fixture's MATH sample: ``k`` rows drawn with ``random.Random(0)``."""
    return sorted(random.Random(0).sample(range(n_rows), k))


def start_worker(script: str | Path, tree: Path, args: Iterable[str], env: Mapping[str, str] | None = None) -> subprocess.Popen:
    """``python script --worker tree *args`` in ``tree``; returns once it has said it is ready."""
    cmd = [sys.executable, str(Path(script).resolve()), "--worker", str(tree), *args]
    full_env = dict(os.environ, PYTHONPATH=str(tree), HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", **(env or {}))
    p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=str(tree), env=full_env)
    assert p.stdout is not None
    print(f"worker {tree}: {json.loads(p.stdout.readline())['ready']}", file=sys.stderr)
    return p


def run_alternating(workers: Mapping[str, subprocess.Popen], items: list[str], out_path: Path,
                    label: str = "variant", desc: str = "items") -> dict[str, list[dict[str, Any]]]:
    """Each item line to every worker in turn (the order rotating per item); each answer,
    tagged ``{label: name}``, is appended to ``out_path`` (JSONL) as it comes. Closes the
    workers at the end."""
    from tqdm import tqdm

    names = list(workers)
    results: dict[str, list[dict[str, Any]]] = {name: [] for name in names}
    out_path.parent.mkdir(parents=True, exist_ok=True)
    with out_path.open("w") as out:
        for n, item in enumerate(tqdm(items, desc=desc, unit="item")):
            for name in names[n % len(names):] + names[: n % len(names)]:
                p = workers[name]
                assert p.stdin is not None and p.stdout is not None
                p.stdin.write(f"{item}\n")
                p.stdin.flush()
                rec = json.loads(p.stdout.readline())
                rec[label] = name
                results[name].append(rec)
                out.write(json.dumps(rec) + "\n")
                out.flush()
    for p in workers.values():
        assert p.stdin is not None
        p.stdin.close()
        p.wait()
    return results
