"""Golden file of the Lean obligations rendered for every pair of lean_pairs_gted.jsonl.

Any change to rendering (printer, original-text reuse, binders, opens) or to the obligations
the SAE relation builds shows up as a diff of ``tests/fixtures/lean_obligations.golden.jsonl``
in review. Regenerate with
``python experiments/render_gted_obligations.py ../shared/data/lean_pairs_gted.jsonl --write``.
The data file is read from ``../shared/data`` beside the repository, never copied into it.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parents[2] / "shared/data/lean_pairs_gted.jsonl"
GOLDEN = ROOT / "tests/fixtures/lean_obligations.golden.jsonl"
sys.path.insert(0, str(ROOT / "experiments"))

import render_gted_obligations as rgo  # noqa: E402

pytestmark = pytest.mark.skipif(not DATA.exists(), reason=f"data file absent: {DATA}")


@pytest.fixture(scope="module")
def rendered() -> list[dict]:
    return rgo.render_file(DATA)


def test_golden_file_matches_rendering(rendered: list[dict]) -> None:
    golden = [json.loads(line) for line in GOLDEN.read_text(encoding="utf-8").splitlines()]
    assert len(golden) == len(rendered), "pair count changed: regenerate the golden file"
    diffs = [(g["id"], g, r) for g, r in zip(golden, rendered, strict=True) if g != r]
    msg = "\n".join(f"{i}:\n  golden:   {rgo.dumps(g)}\n  rendered: {rgo.dumps(r)}" for i, g, r in diffs[:3])
    assert not diffs, f"{len(diffs)} pair(s) render differently (rerun the script with --write " \
        f"and review the diff):\n{msg}"
    # byte-identical serialization: the file is what --write produces
    assert GOLDEN.read_text(encoding="utf-8") == "".join(rgo.dumps(r) + "\n" for r in rendered)


def test_rendering_is_deterministic(rendered: list[dict]) -> None:
    assert rgo.render_file(DATA) == rendered


def test_rendered_obligations_are_safe_and_use_original_text(rendered: list[dict]) -> None:
    """Every rendered theorem passes the security screen with the portfolio as its proof, and
    most two-sided obligations quote at least one component as the statements wrote it."""
    from provers.backends.lean.render import DEFAULT_TACTICS, tactic_script
    from provers.backends.lean.security import check_safe_statement

    proof = tactic_script(DEFAULT_TACTICS)
    theorems = [(r, o["theorem"]) for r in rendered for o in r.get("obligations", []) if "theorem" in o]
    assert len(theorems) >= 150
    for r, th in theorems:
        check_safe_statement("\n".join([*r["opens"], f"{th} := {proof}"]), allowed_proofs=[proof])
    by_id = {r["id"]: [o.get("theorem", "") for o in r.get("obligations", [])] for r in rendered}
    # each side as its statement wrote it: `abs` on A's side, `|·|` on B's; B's `a^2` unspaced
    assert "((a * b + abs (a - b) ≤ 1) ↔ (a * b + |a - b| ≤ 1))" in \
        by_id["gted/minif2f/algebra_sqineq_unitcircatbpabsamblt1/0"][1]
    assert "(a^2 * b * (a - b) + b^2 * c * (b - c) + c^2 * a * (c - a) ≥ 0)" in \
        by_id["gted/minif2f/imo_1983_p6/0"][1]
