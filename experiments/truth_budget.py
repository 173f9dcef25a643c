"""The per-candidate truth check (``equivalence.provable``, what ``Reranker(check_truth=True)``
asks of every candidate) at a given solver budget, over every parsed candidate of
``isabelle_math_400``: one JSON line per candidate with its status and time.

::

    nice python experiments/truth_budget.py 1.0 /tmp/truth_1.jsonl
    nice python experiments/truth_budget.py 0.3 /tmp/truth_03.jsonl
    nice python experiments/truth_budget.py 1.0 /tmp/lean_1.jsonl lean_mutants_formalalign_valid.jsonl lean4
    # the vacuity test at 0.15 s too (its status in each line; default 1 s)
    nice python experiments/truth_budget.py 0.15 /tmp/lean_v.jsonl lean_mutants_formalalign_valid.jsonl lean4 0.15

Each line also carries the candidate's vacuity (``equivalence.vacuous`` at 1 s or the fifth
argument's seconds, asked first, as the clusterer does): whether the truth check's budget matters depends on it.

Why: the check is about a fifth of a ``Reranker`` run, and almost all of that is the
undecided candidates waiting out their solver budget; comparing two budgets candidate by
candidate shows what a shorter one would save and which decisions it would lose
(docs/benchmarks.md, stop 31).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))
DATA = HERE.parent / "shared" / "data" / "isabelle_math_400.jsonl"


def main(argv: list[str]) -> int:
    from tqdm import tqdm

    from provers import parse
    from provers.engine import equivalence
    from provers.engine.profile import Profile

    timeout, out_path = float(argv[0]), Path(argv[1])
    data = DATA.parent / argv[2] if len(argv) > 2 else DATA
    language = argv[3] if len(argv) > 3 else "isabelle"
    vacuity_timeout = float(argv[4]) if len(argv) > 4 else 1.0
    rows = [json.loads(x) for x in data.read_text().splitlines() if x.strip()]
    with out_path.open("w") as out:
        for r in tqdm(rows, desc=f"truth at {timeout:g} s"):
            for i, c in enumerate(r["candidates"]):
                try:
                    prof = Profile.of(parse(c["formal"], language), "symbolic", fingerprints=False)
                except Exception:  # noqa: BLE001 - an unparsed candidate has no truth check
                    continue
                try:
                    vacuity = equivalence.vacuous(prof, timeout=vacuity_timeout).status.value
                except Exception as e:  # noqa: BLE001 - recorded, the run goes on
                    vacuity = f"error: {type(e).__name__}"
                t0 = time.monotonic()
                try:
                    status = equivalence.provable(prof, timeout=timeout).status.value
                except Exception as e:  # noqa: BLE001 - recorded, the run goes on
                    status = f"error: {type(e).__name__}"
                out.write(json.dumps({"id": r["id"], "i": i, "vacuity": vacuity, "status": status,
                                      "time": time.monotonic() - t0}) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
