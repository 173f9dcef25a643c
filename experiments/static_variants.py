"""Can a static (embedding-bag) model replace MiniLM? Variants measured on both pool kinds.

Issue 14 asks for ≤ 50 ms of embedding per problem; ``STATIC_MODEL`` takes 3.5 ms and selects
as well as MiniLM on MATH pools but loses 30 points on the Lean mutant pools
(docs/experiments.md, "A static distillation of MiniLM"). This script asks whether cheap
changes to the static model close that gap, and whether a cascade (static first, MiniLM
only where the static model cannot tell candidates apart) could keep MiniLM's quality at
the static model's cost. It measures, per variant, how often the semantic score alone puts
a correct candidate first (cosine of the informal text — with its answer — against each
candidate's back-translation; ties shared), on

* ``lean_mutants_formalalign_valid``: the rule back-translations of the aligned statement
  and its 20 mutants (correct = the aligned statement);
* ``isabelle_math_400``: the given back-translations (correct = label, and label+syntax).

Variants (all token-vector means, a few microseconds per text):
``static`` as shipped; ``centered`` (the vocabulary's mean vector removed); ``abtt-D``
(centered, then the top D principal directions removed: "all-but-the-top"); ``lexical-λ``
(centered and abtt-10 vectors concatenated with λ × a random unit vector per token, so
that the cosine also counts shared tokens). Every grid point is reported on all the data:
the best one is an in-sample upper bound, which is enough to reject a variant that stays
below MiniLM.

    PYTHONPATH=. HF_HUB_OFFLINE=1 .venv/bin/python experiments/static_variants.py \\
        --report /tmp/static_variants.md --plot docs/img/static_variants.png
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from embeddings import DEFAULT_MODEL, STATIC_MODEL, Embedder  # noqa: E402
from embeddings.rule_informalizer import RuleInformalizer  # noqa: E402
from experiments.selection_eval import cosines, load_records, reference_text  # noqa: E402

DATA = ROOT.parent / "shared" / "data"

Encoder = Callable[[Sequence[str]], np.ndarray]


def lean_pools(path: Path) -> list[tuple[str, list[str | None], np.ndarray]]:
    informalizer = RuleInformalizer(language="lean4", on_error="empty")
    out = []
    for rec in load_records(path):
        texts = informalizer.informalize([c["formal"] for c in rec["candidates"]])
        label = np.array([int(c.get("label", 0)) == 1 for c in rec["candidates"]])
        out.append((reference_text(rec), [t or None for t in texts], label))
    return out


def math_pools(path: Path) -> dict[str, list[tuple[str, list[str | None], np.ndarray]]]:
    out: dict[str, list] = {"label": [], "label+syntax": []}
    for rec in load_records(path):
        given = [c.get("informalization") for c in rec["candidates"]]
        texts = [t if isinstance(t, str) and t.strip() else None for t in given]
        label = np.array([int(c.get("label", 0)) == 1 for c in rec["candidates"]])
        syntax = np.array([int(c.get("paper_syntax_ok", 1)) == 1 for c in rec["candidates"]])
        out["label"].append((reference_text(rec), texts, label))
        out["label+syntax"].append((reference_text(rec), texts, label & syntax))
    return out


def scores(encode: Encoder, ref: str, texts: Sequence[str | None]) -> np.ndarray:
    """Cosine of each text to ``ref``; ``-inf`` where there is no text (never the top pick)."""
    out = cosines(encode, ref, texts)
    out[[i for i, t in enumerate(texts) if not t]] = -np.inf
    return out


def pick_rate(encode: Encoder, pools: Sequence[tuple[str, list, np.ndarray]]) -> tuple[float, np.ndarray]:
    """Share of pools whose top semantic score is a correct candidate (ties shared), and the
    gap between the two best distinct scores per pool."""
    hits, gaps = [], []
    for ref, texts, correct in pools:
        s = np.round(scores(encode, ref, texts), 9)
        top = np.flatnonzero(s == s.max())
        hits.append(correct[top].mean())
        distinct = np.unique(s[np.isfinite(s)])[::-1]
        if len(distinct) >= 2:
            gaps.append(distinct[0] - distinct[1])
    return float(np.mean(hits)), np.asarray(gaps)


def static_variants(lams: Sequence[float], dims: Sequence[int]) -> dict[str, Encoder]:
    """Encoders built from the static model's token table (tokenizer and matrix)."""
    module = Embedder(STATIC_MODEL).model[0]
    table = module.embedding.weight.detach().numpy().astype(np.float64)
    tokenizer = module.tokenizer
    centered = table - table.mean(0)
    _, _, vt = np.linalg.svd(centered, full_matrices=False)

    def abtt(d: int) -> np.ndarray:
        return centered - (centered @ vt[:d].T) @ vt[:d]

    def bag(matrix: np.ndarray) -> Encoder:
        def encode(texts: Sequence[str]) -> np.ndarray:
            return np.stack([matrix[tokenizer.encode(t, add_special_tokens=False).ids or [0]].mean(0)
                             for t in texts])
        return encode

    rng = np.random.default_rng(0)
    identity = rng.standard_normal((table.shape[0], table.shape[1]))
    identity /= np.linalg.norm(identity, axis=1, keepdims=True)
    out: dict[str, Encoder] = {"static": bag(table), "centered": bag(centered)}
    for d in dims:
        out[f"abtt-{d}"] = bag(abtt(d))
    base = abtt(max(dims)) if dims else centered
    scale = float(np.median(np.linalg.norm(base, axis=1)))
    for lam in lams:
        out[f"lexical-{lam:g}"] = bag(np.hstack([base, lam * scale * identity]))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lean", type=Path, default=DATA / "lean_mutants_formalalign_valid.jsonl")
    ap.add_argument("--math", type=Path, default=DATA / "isabelle_math_400.jsonl")
    ap.add_argument("--cache", type=Path, default=ROOT / "experiments" / "out" / "embed_cache.sqlite",
                    help="MiniLM vectors are kept here between runs")
    ap.add_argument("--lambdas", type=float, nargs="*", default=[0.5, 1.0, 2.0])
    ap.add_argument("--dims", type=int, nargs="*", default=[1, 3, 10])
    ap.add_argument("--report", type=Path, default=None)
    ap.add_argument("--plot", type=Path, default=None)
    args = ap.parse_args(argv)

    from tqdm import tqdm

    lean = lean_pools(args.lean)
    math = math_pools(args.math)
    minilm = Embedder(DEFAULT_MODEL, cache_path=args.cache)
    encoders: dict[str, Encoder] = {"MiniLM (default)": minilm.encode}
    encoders.update(static_variants(args.lambdas, args.dims))
    rows = []
    for name, enc in tqdm(encoders.items(), desc="variants", unit="variant", file=sys.stderr):
        lean_rate, lean_gaps = pick_rate(enc, lean)
        label_rate, math_gaps = pick_rate(enc, math["label"])
        syntax_rate, _ = pick_rate(enc, math["label+syntax"])
        rows.append((name, lean_rate, label_rate, syntax_rate, lean_gaps, math_gaps))

    lines = [
        f"Semantic score alone, top candidate correct (ties shared), {len(lean)} Lean mutant pools "
        f"(rule back-translations) and {len(math['label'])} `isabelle_math_400` pools (given ones):",
        "",
        "| encoder | Lean mutants | MATH `label` | MATH `label+syntax` | median top gap Lean / MATH |",
        "|---|---:|---:|---:|---:|",
    ]
    for name, lr, ml, ms, lg, mg in rows:
        lines.append(f"| {name} | {100 * lr:.1f} | {100 * ml:.1f} | {100 * ms:.1f} | "
                     f"{np.median(lg):.4f} / {np.median(mg):.4f} |")
    static_rows = {r[0]: r for r in rows}
    lg, mg = static_rows["static"][4], static_rows["static"][5]
    q = [0.1, 0.25, 0.5, 0.75, 0.9]
    lines += ["", "Gap between the static model's two best scores (quantiles 10/25/50/75/90 %): Lean "
              + " / ".join(f"{x:.4f}" for x in np.quantile(lg, q)) + "; MATH "
              + " / ".join(f"{x:.4f}" for x in np.quantile(mg, q)) + "."]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.report:
        args.report.parent.mkdir(parents=True, exist_ok=True)
        args.report.write_text(text)
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        names = [r[0] for r in rows]
        x = np.arange(len(names))
        fig, ax = plt.subplots(figsize=(9, 4))
        for j, (label, col) in enumerate([("Lean mutants", 1), ("MATH label", 2), ("MATH label+syntax", 3)]):
            ax.bar(x + (j - 1) * 0.27, [100 * r[col] for r in rows], width=0.27, label=label)
        ax.set_xticks(x, names, rotation=30, ha="right")
        ax.set_ylabel("top semantic pick correct (%)")
        ax.set_title("Static-model variants against MiniLM (semantic score alone)")
        ax.legend()
        fig.tight_layout()
        args.plot.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(args.plot, dpi=120)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
