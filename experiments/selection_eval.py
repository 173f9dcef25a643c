"""Honest evaluation of candidate selection: does it beat the first sample on problems it
has never seen?

::

    python experiments/selection_eval.py ../shared/data/isabelle_math_400.jsonl \\
        --lean ../shared/data/lean_mutants_formalalign_valid.jsonl --out docs/

One command, three stages, each cached under ``experiments/out/`` (gitignored):

1. *Clustering* (expensive, resumable): ``paper_tables.run_clustering`` on every problem
   (classes, every pair decision with its route, vacuity, fingerprints, answers, our rule
   back-translations: :mod:`rerank.evidence`).  Lean pools (FormalAlign mutants: one
   aligned statement + mutants per problem) go through the same stage with the Lean
   frontend.  Re-running after the engine improves only needs a new cache file.
2. *Semantic features* (minutes, embeddings cached in ``experiments/out/embeddings.sqlite``):
   every similarity variant (model, back-translation source, question/answer parts, BM25).
3. *Tables* (minutes): every selection choice is replayed with the library's own
   :class:`rerank.scoring.Selector` from the cached evidence, so the code evaluated is the
   code shipped.

Protocol (the issue's, and docs/experiments.md "Selection on unseen problems"):

* two correctness rules: ``label`` (human label alone) and ``label+syntax`` (label and
  Isabelle's syntax check, the paper's rule);
* two pool kinds: *exchangeable* (the data's order; Lean pools, which list the aligned
  statement first, are shuffled with seeds) and *privileged-first* (each pool is reordered
  so that position 0 holds a correct candidate with probability 45%, the rate of the
  held-out set's greedy first sample; the other candidates keep their order; averaged
  over seeds);
* every tuned choice (semantic variant, rule, α, normalization, undecided-pair weight,
  keep-first margin, prior weight, component switches) is chosen by problem-level
  cross-validation (5 folds, repeated with seeds) on the training folds only; the
  reported 1@k is out of fold, averaged over repeats;
* paired bootstrap CIs against the first sample; first sample, random (expected) and oracle
  always shown; a per-component ablation.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import re
import sys
import time
import zlib
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
for p in (ROOT, ROOT / "experiments"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import paper_tables as pt  # noqa: E402

from embeddings import DEFAULT_MODEL  # noqa: E402
from embeddings.answer import answer_value, split_answer  # noqa: E402
from rerank.combine import DEFAULT_EPS, combine, normalize_scores  # noqa: E402
from rerank.metrics import paired_bootstrap_ci  # noqa: E402
from rerank.scoring import DEMOTED, SOUND, UNPARSED, PoolEvidence, Selector, support  # noqa: E402
from rerank.select import select_top_n  # noqa: E402

OUT = ROOT / "experiments" / "out"
RULES_CORRECT = ("label", "label+syntax")
PRIVILEGED_RATE = 0.45
N_FOLDS = 5
ALPHAS = tuple(round(a, 2) for a in np.linspace(0.0, 1.0, 11))

# ---------------------------------------------------------------------------- pools


@dataclass
class Pool:
    """One problem's candidates as the selection sees them, plus their labels."""

    id: str
    correct: dict[str, np.ndarray]
    ev: PoolEvidence
    semantic: dict[str, np.ndarray] = field(default_factory=dict)
    old_symbolic: np.ndarray | None = None
    old_semantic: np.ndarray | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    greedy: int | None = None  # position of a candidate the user flags as the greedy decode
    memo: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def k(self) -> int:
        return self.ev.k

    def permuted(self, perm: Sequence[int], greedy: int | None = None) -> Pool:
        """The same pool with candidate ``perm[p]`` at position ``p``."""
        perm = list(perm)
        inv = {old: new for new, old in enumerate(perm)}
        ev = self.ev
        pev = PoolEvidence(
            classes=sorted((sorted(inv[i] for i in c) for c in ev.classes), key=lambda c: c[0]),
            parsed=[ev.parsed[i] for i in perm],
            vacuous=[ev.vacuous[i] for i in perm],
            degenerate=[ev.degenerate[i] for i in perm],
            holds=[ev.holds[i] for i in perm],
            ill_formed=[ev.ill_formed[i] for i in perm],
            undecided=[(inv[a], inv[b]) for a, b in ev.undecided],
            answers=[ev.answers[i] for i in perm],
            similarity=None if ev.similarity is None else ev.similarity[np.ix_(perm, perm)],
        )
        take = lambda a: None if a is None else np.asarray(a)[perm]  # noqa: E731
        return Pool(
            id=self.id,
            correct={r: v[perm] for r, v in self.correct.items()},
            ev=pev,
            semantic={n: v[perm] for n, v in self.semantic.items()},
            old_symbolic=take(self.old_symbolic),
            old_semantic=take(self.old_semantic),
            meta=self.meta,
            greedy=greedy,
        )


def _seed(*parts: Any) -> int:
    return zlib.crc32("|".join(map(str, parts)).encode())


def privileged_perms(pools: Sequence[Pool], seed: int, rate: float = PRIVILEGED_RATE,
                     rule: str = "label") -> list[list[int]]:
    """Per pool, a reordering whose position 0 holds a correct candidate with overall
    probability ``rate`` (pools with none correct, or all correct, cannot choose; the
    probability for mixed pools is set so that the overall rate is ``rate``); the chosen
    candidate moves to the front and the others keep their order."""
    n = len(pools)
    all_c = sum(1 for p in pools if p.correct[rule].all())
    mixed = [p for p in pools if p.correct[rule].any() and not p.correct[rule].all()]
    q = min(1.0, max(0.0, (rate * n - all_c) / max(1, len(mixed))))
    perms = []
    for p in pools:
        c = p.correct[rule]
        rng = np.random.default_rng(_seed("privileged", seed, p.id))
        want_correct = rng.random() < q
        pick_from = np.flatnonzero(c if (want_correct and c.any()) or not (~c).any() else ~c)
        first = int(rng.choice(pick_from))
        perms.append([first] + [i for i in range(p.k) if i != first])
    return perms


def shuffle_perms(pools: Sequence[Pool], seed: int) -> list[list[int]]:
    return [np.random.default_rng(_seed("shuffle", seed, p.id)).permutation(p.k).tolist()
            for p in pools]


# ---------------------------------------------------------------------------- stage 1


def evidence_from_record(e: dict[str, Any], statements: Sequence[Any] | None = None) -> PoolEvidence:
    """:class:`PoolEvidence` from a stage-1 cache record.  ``statements`` (a re-parse of the
    candidates) fills in what older records lack (``degenerate``); a record whose problem
    ran over its budget keeps only what parsing tells (singleton classes)."""
    k = e["k"]
    if "error" in e or "evidence" not in e:
        parsed = [s is not None for s in statements] if statements is not None else [True] * k
        return PoolEvidence(classes=[[i] for i in range(k)], parsed=parsed)
    ev = PoolEvidence.from_evidence(e["evidence"], e["classes"], statements)
    if all(h is None for h in ev.holds) and "proved" in e:  # records without the truth check:
        ev.holds = [p if p is None else bool(p) for p in e["proved"]]  # the naive baseline's proofs
    return ev


def reparse(rec: dict[str, Any], language: str) -> list[Any]:
    """Statements of a record's candidates (None where they do not parse): cheap, and
    deterministic, so fields added to the evidence after a cache was made can be filled in."""
    import provers

    out = []
    for c in rec["candidates"]:
        try:
            out.append(provers.parse(c["formal"], language))
        except Exception:  # noqa: BLE001 - unparsed: no statement
            out.append(None)
    return out


def load_records(data: Path, limit: int | None = None) -> list[dict[str, Any]]:
    """``paper_tables.load_problems``, except that a repeated id gets ``#LINE`` appended
    (FormalAlign's file has 15 records all named ``formalalign/valid/Error:``)."""
    import json
    import tempfile

    seen: Counter = Counter()
    lines = []
    with open(data, encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            rec = json.loads(line)
            seen[rec.get("id")] += 1
            if seen[rec.get("id")] > 1 or rec.get("id") == "formalalign/valid/Error:":
                rec["id"] = f"{rec.get('id')}#{lineno}"
            lines.append(json.dumps(rec))
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False, encoding="utf-8") as tmp:
        tmp.write("\n".join(lines) + "\n")
    try:
        return pt.load_problems(tmp.name, limit)
    finally:
        os.unlink(tmp.name)


def pt_ids(data: Path) -> list[str]:
    return [r["id"] for r in load_records(data)]


def load_pools(data: Path, cache: Path, language: str, timeout: float, budget: float,
               limit: int | None, cached_only: bool, naive: bool, relation: str = "symbolic",
               subset: set[str] | None = None) -> tuple[list[Pool], list[dict], list[dict]]:
    """Stage 1 (clustering, unless ``cached_only``) and the pools it gives."""
    records = load_records(data, limit)
    if subset is not None:
        records = [r for r in records if r["id"] in subset]
    if cached_only:
        done = pt.read_cache(cache)
        records = [r for r in records if r["id"] in done]
    else:
        done = pt.run_clustering(records, cache, timeout, relation, 1, True, budget,
                                 language=language, naive=naive)
    pools, entries = [], []
    for r in records:
        e = done[r["id"]]
        ev = evidence_from_record(e, reparse(r, language))
        label = np.array([int(c.get("label", 0)) == 1 for c in r["candidates"]])
        syntax = np.array([int(c.get("paper_syntax_ok", 1)) == 1 for c in r["candidates"]])
        pools.append(Pool(
            id=r["id"],
            correct={"label": label, "label+syntax": label & syntax},
            ev=ev,
            old_symbolic=None if "error" in e else np.asarray(e["symbolic"], float),
            old_semantic=None if "error" in e else np.asarray(e["semantic"], float),
            meta={"level": r.get("level"), "type": r.get("type"), "error": e.get("error"),
                  "rule_bt": e.get("rule_back_translations")},
        ))
        entries.append(e)
    return pools, records, entries


# ---------------------------------------------------------------------------- stage 2

#: model short name -> sentence-transformers name or directory (``--mpnet DIR`` adds mpnet)
MODELS = {"minilm": DEFAULT_MODEL}


def seeded_subset(ids: Sequence[str], n: int | None, seed: int = 0) -> set[str]:
    """``n`` ids drawn with a seeded permutation of the sorted ids (all when n is None)."""
    ordered = sorted(ids)
    if n is None or n >= len(ordered):
        return set(ordered)
    return {ordered[i] for i in np.random.default_rng(seed).permutation(len(ordered))[:n]}


class Texts:
    """The texts of one problem that similarity variants compare."""

    def __init__(self, rec: dict[str, Any], pool: Pool, with_answer: bool) -> None:
        informal = reference_text(rec, with_answer)
        self.informal = informal
        self.question, self.answer = split_answer(informal)
        given = [c.get("informalization") for c in rec["candidates"]]
        self.given = [t if isinstance(t, str) and t.strip() else None for t in given]
        self.given_q = [None if t is None else (split_answer(t)[0] or None) for t in self.given]
        self.given_a = [None if t is None else split_answer(t)[1] for t in self.given]
        rule = pool.meta.get("rule_bt") or [None] * pool.k
        self.rule = [t if t else None for t in rule]


def reference_text(rec: dict[str, Any], with_answer: bool = True) -> str:
    """The informal text candidates are compared with, its final answer appended when asked
    and known."""
    if with_answer and rec.get("answer") is not None:
        return f"{rec['informal']} The final answer is ${rec['answer']}$."
    return rec["informal"]


def cosines(encode: Callable[[Sequence[str]], Any], ref: str, texts: Sequence[str | None]) -> np.ndarray:
    """Cosine of each text to ``ref`` under ``encode`` (texts to vectors); 0 where there is none."""
    out = np.zeros(len(texts))
    idx = [i for i, t in enumerate(texts) if t]
    if not idx:
        return out
    v = np.asarray(encode([ref] + [texts[i] for i in idx]), dtype=np.float64)
    v /= np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-12)
    out[idx] = v[1:] @ v[0]
    return out


_TOKEN = re.compile(r"[a-z]+|\d+|[^\sa-z\d]")


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text.lower())


def _bm25(ref: str, texts: Sequence[str | None]) -> np.ndarray:
    from rank_bm25 import BM25Okapi

    idx = [i for i, t in enumerate(texts) if t]
    out = np.zeros(len(texts))
    if len(idx) < 2:
        return out
    bm = BM25Okapi([_tokens(texts[i]) for i in idx])
    s = np.asarray(bm.get_scores(_tokens(ref)), dtype=np.float64)
    if s.max() > 0:
        s = s / s.max()
    out[idx] = s
    return out


def answer_agreement(ref_answer: str | None, pool: Pool, given_a: Sequence[str | None] | None) -> np.ndarray:
    """+1 / -1 / 0 per candidate: its formal conclusion's exact answer equals / differs from
    the reference answer / no exact comparison (from the back-translation's stated answer
    when the formal one is unknown and ``given_a`` is passed)."""
    ref = answer_value(ref_answer)
    out = np.zeros(pool.k)
    if ref is None:
        return out
    for i, key in enumerate(pool.ev.answers):
        val = None
        if key is not None:
            op, _, v = key.partition(" ")
            try:
                val = Fraction(v) if op == "eq" else None
            except ValueError:
                val = None
        if val is None and given_a is not None:
            val = answer_value(given_a[i])
        if val is not None:
            out[i] = 1.0 if val == ref else -1.0
    return out


def semantic_features(pools: Sequence[Pool], records: Sequence[dict], models: dict[str, str],
                      cache_path: Path, progress: bool = True, bm25: bool = True,
                      only: dict[str, set[str]] | None = None, precision: str = "float32") -> list[str]:
    """Fill ``pool.semantic`` with every variant; returns the variant names.

    Names: ``MODEL:REF:CAND`` with REF ``q`` (question part) or ``qa`` (question + answer
    as one text), CAND ``given`` / ``given_q`` (question part) / ``rule`` / ``both`` (mean
    of given and rule); ``bm25:REF:CAND``; ``ans`` (exact answer agreement alone)."""
    from embeddings import Embedder

    names: list[str] = []
    embs = {m: Embedder(path, cache_path=cache_path, batch_size=32, precision=precision)
            for m, path in models.items()}
    only = only or {}
    texts = [Texts(r, p, with_answer=True) for r, p in zip(records, pools, strict=True)]
    if progress:
        from tqdm import tqdm

        it = tqdm(list(zip(pools, texts, strict=True)), desc="semantic", unit="problem", file=sys.stderr)
    else:
        it = zip(pools, texts, strict=True)
    for pool, t in it:
        feats: dict[str, np.ndarray] = {}
        refs = {"qa": t.informal, "q": t.question}
        for m, emb in embs.items():
            if m in only and pool.id not in only[m]:
                continue
            for rname, ref in refs.items():
                feats[f"{m}:{rname}:given"] = cosines(emb.encode, ref, t.given)
                feats[f"{m}:{rname}:given_q"] = cosines(emb.encode, ref, t.given_q)
                if m in only:  # a comparison model: the given back-translations only
                    continue
                feats[f"{m}:{rname}:rule"] = cosines(emb.encode, ref, t.rule)
                g, r = feats[f"{m}:{rname}:given"], feats[f"{m}:{rname}:rule"]
                feats[f"{m}:{rname}:both"] = np.where((g != 0) & (r != 0), (g + r) / 2, g + r)
        if bm25:
            for rname, ref in refs.items():
                feats[f"bm25:{rname}:given"] = _bm25(ref, t.given)
                feats[f"bm25:{rname}:given_q"] = _bm25(ref, t.given_q)
                feats[f"bm25:{rname}:rule"] = _bm25(ref, t.rule)
        feats["ans"] = answer_agreement(t.answer, pool, None)
        feats["ans+bt"] = answer_agreement(t.answer, pool, t.given_a)
        pool.semantic.update(feats)
        names += [n for n in feats if n not in names]
    return names


def with_answer_term(pools: Sequence[Pool], base: str, weight: float, ans: str = "ans") -> str:
    """Add ``base + weight * answer agreement`` as a variant (the question part compared by
    embedding, the answer part exactly); returns its name."""
    name = f"{base}+{weight:g}*{ans}"
    for p in pools:
        if name not in p.semantic:
            p.semantic[name] = p.semantic[base] + weight * p.semantic[ans]
    return name


# ---------------------------------------------------------------------------- methods


@dataclass(frozen=True)
class Config(Selector):
    """One way to pick: the library's Selector knobs, plus which semantic variant to use and
    the ablation's class-size switch (``class_size=False``: every candidate its own class)."""

    semantic: str | None = None
    class_size: bool = True

    def label(self) -> str:
        fields = sorted(dataclasses.fields(self), key=lambda f: f.name != "semantic")  # semantic first
        d = {f.name: getattr(self, f.name) for f in fields if getattr(self, f.name) != f.default}
        return ", ".join(f"{k}={v}" for k, v in d.items()) or "defaults"

    def selector(self) -> Selector:
        knobs = {f.name: getattr(self, f.name) for f in dataclasses.fields(Selector)}
        knobs["alpha"] = self.alpha if self.semantic else 1.0
        return Selector(**knobs)


def greedy_prior(pool: Pool) -> np.ndarray | None:
    """The user's flag for the greedy decode as a prior (log-weight 1 vs 0)."""
    if pool.greedy is None:
        return None
    p = np.zeros(pool.k)
    p[pool.greedy] = 1.0
    return p


def config_order(pool: Pool, cfg: Config) -> list[int]:
    """Full pick order of ``pool`` under ``cfg`` (the library's Selector)."""
    ev = pool.ev
    if not cfg.class_size:
        ev = dataclasses.replace(ev, classes=[[i] for i in range(ev.k)], undecided=[])
    sem = pool.semantic[cfg.semantic] if cfg.semantic else np.zeros(pool.k)
    return cfg.selector().select(ev, sem, greedy_prior(pool)).order


def old_order(pool: Pool, rule: str, alpha: float) -> list[int]:
    """Selection before this work (Reranker as cached by stage 1: class size, vacuous =
    singleton, unparsed never picked first, ties by index)."""
    if pool.old_symbolic is None:
        return list(range(pool.k))
    s = combine(pool.old_symbolic, pool.old_semantic, rule=rule, alpha=alpha)
    s = np.where(pool.ev.parsed, s, -math.inf)
    return select_top_n(s, pool.ev.classes, None)


# ---------------------------------------------------------------------------- scoring grids


def hits_matrix(instances: Sequence[Sequence[Pool]], orders_of: Callable[[Pool, Any], list[int]],
                grid: Sequence[Any], rules: Sequence[str] = RULES_CORRECT) -> dict[str, np.ndarray]:
    """rule -> (len(grid), n_problems) 1@k hits averaged over the pool instances (seeds),
    for any ``orders_of(pool, item)`` (slow path: one full order per cell)."""
    n = len(instances[0])
    out = {r: np.zeros((len(grid), n)) for r in rules}
    for pools in instances:
        for g, item in enumerate(grid):
            for j, p in enumerate(pools):
                top = orders_of(p, item)[0]
                for r in rules:
                    out[r][g, j] += p.correct[r][top]
    for r in rules:
        out[r] /= len(instances)
    return out


_F = {"log": lambda s: np.log(np.maximum(s, DEFAULT_EPS)), "linear": lambda s: s,
      "quadratic": lambda s: s**2}


def _structure(pool: Pool, cfg: Config) -> tuple[np.ndarray, np.ndarray]:
    """(tiers, support) of ``pool`` under ``cfg``, from the library's own pieces (memoized
    per pool: they do not depend on the semantic variant, rule, α or margin)."""
    key = ("structure", cfg.undecided_weight, cfg.consensus_weight, cfg.truth_weight, cfg.demote,
           cfg.exclude_unparsed, cfg.class_size)
    hit = pool.memo.get(key)
    if hit is not None:
        return hit
    ev = pool.ev
    if not cfg.class_size:
        ev = dataclasses.replace(ev, classes=[[i] for i in range(ev.k)], undecided=[])
    sel = cfg.selector()
    k = ev.k
    demoted = [ev.demotion(i, sel.demote) if ev.parsed[i] else None for i in range(k)]
    tiers = np.array([UNPARSED if (sel.exclude_unparsed and not ev.parsed[i])
                      else DEMOTED if demoted[i] is not None else SOUND for i in range(k)])
    sup = support(ev, sel.undecided_weight, sel.truth_weight, eligible=tiers == SOUND,
                  consensus_weight=sel.consensus_weight)
    pool.memo[key] = (tiers, sup)
    return tiers, sup


def top_picks(pool: Pool, base: Config, alphas: np.ndarray, margins: Sequence[float | None],
              prior_weights: Sequence[float] = (0.0,)) -> np.ndarray:
    """First pick of ``pool`` for every (prior weight, α, margin) of ``base`` at once:
    shape (W, A, M).

    The same arithmetic and lexicographic order as :meth:`rerank.scoring.Selector.select`
    (checked against it on a sample by :func:`verify_fast_path`), vectorized."""
    tiers, sup = _structure(pool, base)
    sem = pool.semantic[base.semantic] if base.semantic else np.zeros(pool.k)
    k = pool.k
    f = _F[base.rule]
    fs = f(normalize_scores(sup / k, base.normalize, base.temperature))
    fm = f(normalize_scores(sem, base.normalize, base.temperature))
    if not base.semantic:
        alphas = np.ones_like(alphas)
    mix = alphas[:, None] * fs[None, :] + (1 - alphas)[:, None] * fm[None, :]
    prior = greedy_prior(pool)
    layers = []
    for w in prior_weights:
        if prior is not None and w > 0:
            fp = f(normalize_scores(prior, "softmax", 1.0))
            layers.append((1 - w) * mix + w * fp[None, :])
        else:
            layers.append(mix)
    scores = np.concatenate(layers)  # (W*A, k)
    scores = np.where(tiers[None, :] == UNPARSED, -math.inf, scores)
    a = scores.shape[0]
    idx = np.broadcast_to(np.arange(k), (a, k))
    keys: list[np.ndarray] = [idx]
    if base.tie_break == "evidence":
        keys += [np.broadcast_to(-sem, (a, k)), np.broadcast_to(-sup, (a, k))]
    keys += [-scores, np.broadcast_to(tiers, (a, k))]
    best = np.lexsort(keys, axis=-1)[:, 0]
    out = np.empty((a, len(margins)), dtype=np.int64)
    rows = np.arange(a)
    same = (best != 0) & (tiers[best] == tiers[0]) & (tiers[0] != UNPARSED)
    gap = np.where(same, scores[rows, best] - np.where(same, scores[:, 0], 0.0), math.inf)
    for j, m in enumerate(margins):
        keep = same & (gap <= m) if m is not None else np.zeros(a, bool)
        out[:, j] = np.where(keep, 0, best)
    return out.reshape(len(prior_weights), len(alphas), len(margins))


def config_grid(bases: Sequence[Config], alphas: Sequence[float], margins: Sequence[float | None],
                prior_weights: Sequence[float] = (0.0,)) -> list[Config]:
    """Every base × prior weight × margin × α, in that nesting order (earlier rows win CV
    ties, so simpler settings come first)."""
    return [dataclasses.replace(b, alpha=float(a), keep_first_margin=m, prior_weight=float(w))
            for b in bases for w in prior_weights for m in margins
            for a in (alphas if b.semantic else alphas[:1])]


def grid_hits(instances: Sequence[Sequence[Pool]], bases: Sequence[Config], alphas: Sequence[float],
              margins: Sequence[float | None], rules: Sequence[str] = RULES_CORRECT,
              prior_weights: Sequence[float] = (0.0,)) -> tuple[list[Config], dict[str, np.ndarray]]:
    """The grid of :func:`config_grid` and its hit matrices (fast path)."""
    grid = config_grid(bases, alphas, margins, prior_weights)
    n = len(instances[0])
    out = {r: np.zeros((len(grid), n), dtype=np.float32) for r in rules}
    al = np.asarray(alphas, dtype=np.float64)
    for pools in instances:
        correct = {r: np.stack([p.correct[r] for p in pools]) if len({p.k for p in pools}) == 1
                   else None for r in rules}
        row = 0
        for b in bases:
            a_used = al if b.semantic else al[:1]
            picks = np.stack([top_picks(p, b, a_used, margins, prior_weights) for p in pools])
            # picks: (n, W, A, M) -> rows in the order of config_grid: W, M, A
            picks = picks.transpose(1, 3, 2, 0).reshape(-1, n)
            for r in rules:
                if correct[r] is not None:
                    vals = np.take_along_axis(correct[r][None, :, :], picks[:, :, None], axis=2)[:, :, 0]
                else:
                    vals = np.array([[pools[j].correct[r][t] for j, t in enumerate(row_)] for row_ in picks])
                out[r][row:row + picks.shape[0]] += vals
            row += picks.shape[0]
    for r in rules:
        out[r] /= len(instances)
    return grid, out


def verify_fast_path(pools: Sequence[Pool], grid: Sequence[Config], n: int = 300, seed: int = 0) -> int:
    """Compare :func:`top_picks` with the library's Selector on ``n`` random (pool, config)
    cells; raises on the first difference, returns how many were checked."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        p = pools[int(rng.integers(len(pools)))]
        c = grid[int(rng.integers(len(grid)))]
        fast = int(top_picks(p, c, np.array([c.alpha]), [c.keep_first_margin], [c.prior_weight])[0, 0, 0])
        slow = config_order(p, c)[0]
        if fast != slow:
            raise AssertionError(f"fast path {fast} != Selector {slow} on {p.id} with {c.label()}")
    return n


def folds(ids: Sequence[str], n_folds: int, seed: int) -> np.ndarray:
    order = sorted(range(len(ids)), key=lambda i: ids[i])
    perm = np.random.default_rng(seed).permutation(len(ids))
    fold = np.empty(len(ids), dtype=int)
    for j, p in enumerate(perm):
        fold[order[p]] = j % n_folds
    return fold


def cross_validate(choose: Callable[[np.ndarray, str], int], report: dict[str, np.ndarray],
                   ids: Sequence[str], repeats: int, n_folds: int = N_FOLDS) -> tuple[dict[str, np.ndarray], Counter]:
    """Out-of-fold per-problem 1@k for each rule of ``report`` (rule -> (rows, n)), averaged
    over ``repeats`` seeded fold splits, where ``choose(train_mask, rule) -> row`` sees the
    training folds only.  Also counts the rows chosen (first rule)."""
    n = len(ids)
    oof = {r: np.zeros(n) for r in report}
    chosen: Counter = Counter()
    first = next(iter(report))
    for rep in range(repeats):
        fold = folds(ids, n_folds, seed=rep)
        for f in range(n_folds):
            train, test = fold != f, fold == f
            for r, h in report.items():
                row = choose(train, r)
                if r == first:
                    chosen[row] += 1
                oof[r][test] += h[row, test]
    return {r: v / repeats for r, v in oof.items()}, chosen


def argbest(h: np.ndarray, mask: np.ndarray, rows: Sequence[int] | None = None) -> int:
    """Row with the best mean over ``mask`` (ties: the earliest row, i.e. the simpler setting)."""
    idx = np.arange(h.shape[0]) if rows is None else np.asarray(rows)
    means = h[idx][:, mask].mean(axis=1).round(9)
    return int(idx[int(np.argmax(means))])


def library_agreement(pools: Sequence[Pool], records: Sequence[dict], cfg: Config, n: int,
                      timeout: float) -> tuple[int, int]:
    """Run ``rerank.Reranker`` itself (the library default, given back-translations, the
    informal text with its answer) on the first ``n`` clustered problems and count how often
    its pick is the pick the evaluation replays from the cache for ``cfg``."""
    from rerank import Reranker

    rr = Reranker(language="isabelle", informalizer="given", timeout=timeout)
    same = total = 0
    for p, r in zip(pools, records, strict=True):
        if total >= n:
            break
        if p.meta.get("error"):
            continue
        informal = Texts(r, p, with_answer=True).informal
        out = rr.rerank(informal, [c["formal"] for c in r["candidates"]],
                        [c.get("informalization") for c in r["candidates"]])
        same += int(out.selected[0] == config_order(p, cfg)[0])
        total += 1
    return same, total


# ---------------------------------------------------------------------------- report helpers


def ci_vs(a: np.ndarray, b: np.ndarray, n: int, seed: int = 0) -> dict[str, float]:
    return paired_bootstrap_ci(a, b, n_resamples=n, seed=seed).to_dict()


def pct(x: float) -> str:
    return f"{100 * x:.1f}"


def delta(d: dict[str, float]) -> str:
    return f"{100 * d['estimate']:+.1f} [{100 * d['low']:+.1f}, {100 * d['high']:+.1f}]"


def main(argv: Sequence[str] | None = None) -> int:  # pragma: no cover - thin CLI, see run()
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("data", type=Path, help="isabelle_math_400.jsonl")
    ap.add_argument("--lean", type=Path, default=None, help="lean_mutants_formalalign_valid.jsonl (optional)")
    ap.add_argument("--cache", type=Path, default=OUT / "paper_clusters_symbolic_t1_v2.jsonl")
    ap.add_argument("--lean-cache", type=Path, default=OUT / "lean_mutant_clusters_t1.jsonl")
    ap.add_argument("--embeddings", type=Path, default=OUT / "embeddings.sqlite")
    ap.add_argument("--out", type=Path, default=ROOT / "docs")
    ap.add_argument("--report", type=Path, default=OUT / "selection_eval.md")
    ap.add_argument("--timeout", type=float, default=1.0)
    ap.add_argument("--problem-budget", type=float, default=120.0)
    ap.add_argument("--mpnet", type=Path, default=None,
                    help="directory of all-mpnet-base-v2 (assembled from its PyPI parts, see "
                    "docs/experiments.md); adds mpnet variants on --mpnet-subset problems")
    ap.add_argument("--mpnet-subset", type=int, default=100)
    ap.add_argument("--model", default=None,
                    help="embedding model (name or directory) behind the `minilm:` variants, for "
                    "measuring another one in the library's place, on the Isabelle and the Lean pools "
                    "(default: the packaged MiniLM)")
    ap.add_argument("--precision", default="float32", choices=["float32", "bfloat16"],
                    help="arithmetic of the embedding model (its vectors are cached under their own key)")
    ap.add_argument("--lean-relation", default="syntactic",
                    help="relation of the Lean pools' classes (symbolic takes hours on 21 candidates)")
    ap.add_argument("--lean-subset", type=int, default=None, help="seeded subset of the Lean problems")
    ap.add_argument("--repeats", type=int, default=5, help="CV repeats (5-fold each)")
    ap.add_argument("--seeds", type=int, default=5, help="privileged-first reorderings")
    ap.add_argument("--bootstrap", type=int, default=2000)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--cached-only", action="store_true")
    ap.add_argument("--check-library", type=int, default=10,
                    help="run Reranker() on this many problems and compare with the replayed default")
    args = ap.parse_args(argv)
    return run(args)


def run(args: argparse.Namespace) -> int:
    from selection_tables import build_report  # the tables live in their own module

    t0 = time.perf_counter()
    pools, records, _ = load_pools(args.data, args.cache, "isabelle", args.timeout,
                                   args.problem_budget, args.limit, args.cached_only, naive=True)
    models = dict(MODELS)
    if args.model is not None:
        models["minilm"] = str(args.model)
    only = {}
    if args.mpnet is not None:
        models["mpnet"] = str(args.mpnet)
        only["mpnet"] = seeded_subset([p.id for p in pools], args.mpnet_subset)
    names = semantic_features(pools, records, models, args.embeddings, only=only, precision=args.precision)
    lean = None
    if args.lean is not None:
        lpools, lrecords, _ = load_pools(args.lean, args.lean_cache, "lean4", args.timeout,
                                         args.problem_budget, None, args.cached_only, naive=True,
                                         relation=args.lean_relation,
                                         subset=seeded_subset(pt_ids(args.lean), args.lean_subset))
        semantic_features(lpools, lrecords, models, args.embeddings, bm25=False, precision=args.precision)
        lean = lpools
    cmd = "python experiments/selection_eval.py " + " ".join(
        a if not os.path.isabs(a) else os.path.relpath(a, ROOT) for a in (sys.argv[1:]))
    args.records = records
    text = build_report(pools, names, lean, args, cmd)
    args.report.parent.mkdir(parents=True, exist_ok=True)
    args.report.write_text(text + "\n", encoding="utf-8")
    print(text)
    print(f"\nreport: {args.report}; wall time {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
