"""Tables, cross-validation and plots of ``selection_eval.py`` (see its docstring).

Every tuned choice is made inside the training folds by one procedure, :func:`two_stage`:
stage 1 picks the semantic variant by semantic-only 1@k, stage 2 picks everything else
(rule, normalization, α, undecided-pair weight, truth weight, keep-first margin, prior
weight) given that variant.  The reported 1@k is the out-of-fold mean over 5 folds × the
repeats; CIs are paired bootstraps over problems against the first sample.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import selection_eval as se
from selection_eval import ALPHAS, RULES_CORRECT, Config, Pool

NORMS = ("sum", "softmax")
COMB_RULES = ("log", "linear")
UNDECIDED = (0.0, 0.25, 0.5, 1.0)
TRUTH = (0.0, 0.5, 1.0, 2.0, 4.0)
PRIOR = (0.0, 0.1, 0.2, 0.3, 0.5)
MARGINS = {"log": (None, 0.1, 0.25, 0.5, 1.0), "linear": (None, 0.01, 0.025, 0.05, 0.1)}
ANSWER_WEIGHTS = (0.05, 0.1, 0.2)


@dataclasses.dataclass
class Family:
    """A grid of configurations and its hit matrices per pool kind and rule."""

    name: str
    grid: list[Config]
    hits: dict[str, dict[str, np.ndarray]]  # kind -> rule -> (len(grid), n)


def family(name: str, instances: dict[str, list[list[Pool]]], bases: Sequence[Config],
           alphas: Sequence[float], kinds: Sequence[str] | None = None,
           prior_weights: Sequence[float] = (0.0,)) -> Family:
    """Hit matrices of ``bases`` × α × margins (margins per rule) on each pool kind."""
    grid: list[Config] = []
    hits: dict[str, dict[str, list[np.ndarray]]] = {}
    by_rule: dict[str, list[Config]] = {}
    for b in bases:
        by_rule.setdefault(b.rule, []).append(b)
    for rule, bs in by_rule.items():
        margins = MARGINS.get(rule, MARGINS["linear"])
        for kind in kinds or list(instances):
            g, h = se.grid_hits(instances[kind], bs, alphas, margins, prior_weights=prior_weights)
            for r, m in h.items():
                hits.setdefault(kind, {}).setdefault(r, []).append(m)
        grid += se.config_grid(bs, alphas, margins, prior_weights)
    return Family(name, grid, {k: {r: np.concatenate(v) for r, v in d.items()} for k, d in hits.items()})


def cross_validate(choose: Any, report: dict[str, np.ndarray], ids: Sequence[str],
                   repeats: int) -> tuple[dict[str, np.ndarray], Counter]:
    """Out-of-fold per-problem 1@k for each rule of ``report`` (rule -> (rows, n)) where
    ``choose(train_mask, rule) -> row`` picks on the training folds only."""
    n = len(ids)
    oof = {r: np.zeros(n) for r in report}
    chosen: Counter = Counter()
    for rep in range(repeats):
        fold = se.folds(ids, se.N_FOLDS, seed=rep)
        for f in range(se.N_FOLDS):
            train, test = fold != f, fold == f
            for r, h in report.items():
                row = choose(train, r)
                if r == RULES_CORRECT[0]:
                    chosen[row] += 1
                oof[r][test] += h[row, test]
    return {r: v / repeats for r, v in oof.items()}, chosen


def argbest(h: np.ndarray, mask: np.ndarray, rows: Sequence[int] | None = None) -> int:
    """Row with the best mean over ``mask`` (ties: the earliest row)."""
    idx = np.arange(h.shape[0]) if rows is None else np.asarray(rows)
    means = h[idx][:, mask].mean(axis=1).round(9)
    return int(idx[int(np.argmax(means))])


def two_stage(sem_only: Family, comb: Family, tune_kind: str | Sequence[str]) -> Any:
    """The tuning procedure: semantic variant by semantic-only 1@k, then the combined
    configuration with that variant (both on the training folds of ``tune_kind``; several
    kinds: their mean)."""
    kinds = [tune_kind] if isinstance(tune_kind, str) else list(tune_kind)
    rows_of: dict[str | None, list[int]] = {}
    for i, c in enumerate(comb.grid):
        rows_of.setdefault(c.semantic, []).append(i)

    def mean_over(fam: Family, rule: str) -> np.ndarray:
        return sum(fam.hits[k][rule] for k in kinds) / len(kinds)

    cache: dict[str, tuple[np.ndarray, np.ndarray]] = {}

    def choose(train: np.ndarray, rule: str) -> int:
        if rule not in cache:
            cache[rule] = (mean_over(sem_only, rule), mean_over(comb, rule))
        hs, hc = cache[rule]
        v = sem_only.grid[argbest(hs, train)].semantic
        return argbest(hc, train, rows_of.get(v) or range(len(comb.grid)))

    return choose


def simple(fam: Family, tune_kind: str | Sequence[str]) -> Any:
    kinds = [tune_kind] if isinstance(tune_kind, str) else list(tune_kind)

    def choose(train: np.ndarray, rule: str) -> int:
        h = sum(fam.hits[k][rule] for k in kinds) / len(kinds)
        return argbest(h, train)

    return choose


def baselines(instances: list[list[Pool]]) -> dict[str, dict[str, np.ndarray]]:
    """first / random (expected) / oracle per rule, per problem, averaged over instances."""
    out: dict[str, dict[str, np.ndarray]] = {"first": {}, "random": {}, "oracle": {}}
    for r in RULES_CORRECT:
        out["first"][r] = np.mean([[p.correct[r][0] for p in ps] for ps in instances], axis=0)
        out["random"][r] = np.array([p.correct[r].mean() for p in instances[0]])
        out["oracle"][r] = np.array([p.correct[r].any() for p in instances[0]], dtype=float)
    return out


def variants_chosen(sem_only: Family, tune_kinds: Sequence[Any], ids: Sequence[str],
                    repeats: int) -> set[str | None]:
    """Every semantic variant stage 1 picks in some fold, repeat, rule and tuning kind."""
    out: set[str | None] = set()
    for k in tune_kinds:
        choose = simple(sem_only, k)
        for rep in range(repeats):
            fold = se.folds(ids, se.N_FOLDS, seed=rep)
            for f in range(se.N_FOLDS):
                for r in RULES_CORRECT:
                    out.add(sem_only.grid[choose(fold != f, r)].semantic)
    return out


def fmt_cell(x: np.ndarray, first: np.ndarray, n_boot: int, show_delta: bool = True) -> str:
    s = se.pct(float(np.mean(x)))
    if not show_delta:
        return s
    return f"{s} ({se.delta(se.ci_vs(x, first, n_boot))})"


def chosen_summary(fam: Family, chosen: Counter, top: int = 2) -> str:
    total = sum(chosen.values())
    return "; ".join(f"{fam.grid[row].label()} ({100 * n / total:.0f}% of folds)"
                     for row, n in chosen.most_common(top))


def build_report(pools: list[Pool], names: list[str], lean: list[Pool] | None, args: Any,
                 cmd: str) -> str:
    ids = [p.id for p in pools]
    repeats = args.repeats
    n_boot = args.bootstrap
    seeds = range(args.seeds)
    # answer-aware variants: the question part by embedding, the answer exactly
    variants = list(names)
    for base in [n for n in names if n.split(":")[-1] in ("given_q", "rule", "both")]:
        for w in ANSWER_WEIGHTS:
            variants.append(se.with_answer_term(pools, base, w))
    instances = {
        "exchangeable": [pools],
        "privileged": [[p.permuted(perm) for p, perm in zip(pools, se.privileged_perms(pools, s), strict=True)]
                       for s in seeds],
    }
    instances["privileged+flag"] = [[dataclasses.replace(p, greedy=0) for p in ps]
                                    for ps in instances["privileged"]]
    kinds = ("exchangeable", "privileged")
    base = {k: baselines(v) for k, v in instances.items()}
    se.verify_fast_path(pools, [Config(semantic=v, undecided_weight=0.5, truth_weight=1.0,
                                       keep_first_margin=0.25) for v in variants[:5]] +
                        [Config(semantic=variants[0], rule="linear", normalize="softmax",
                                keep_first_margin=0.05, alpha=0.3)])
    # ---- families
    sem_only = family("semantic only", instances,
                      [Config(semantic=v, undecided_weight=0.0, truth_weight=0.0) for v in variants],
                      (0.0,), kinds)
    sem_only_nomargin = Family(sem_only.name, [c for c in sem_only.grid if c.keep_first_margin is None], {
        k: {r: h[[i for i, c in enumerate(sem_only.grid) if c.keep_first_margin is None]]
            for r, h in d.items()} for k, d in sem_only.hits.items()})
    # variants any fold could choose in stage 1 of the procedure: stage 2 needs only these
    candidates_v = variants_chosen(sem_only, [*kinds, list(kinds)], ids, repeats)
    old_variant = "minilm:qa:given"
    comb_variants = sorted(candidates_v | {old_variant})
    comb_bases = [Config(semantic=v, rule=r, normalize=nz, undecided_weight=u, truth_weight=t)
                  for v in comb_variants for r in COMB_RULES for nz in NORMS
                  for u in UNDECIDED for t in TRUTH]
    comb = family("combined", instances, comb_bases, ALPHAS, kinds)
    sym_bases = [Config(semantic=None, undecided_weight=u, truth_weight=t) for u in UNDECIDED for t in TRUTH]
    sym = family("symbolic only", instances, sym_bases, (1.0,), kinds)
    prior_fam = family("combined + greedy prior", {"privileged": instances["privileged+flag"]},
                       comb_bases, ALPHAS, ["privileged"], prior_weights=PRIOR)
    old_sym = family("SymEq before", instances, [Config(semantic=None, demote=(), undecided_weight=0,
                                                        truth_weight=0, tie_break="index")], (1.0,), kinds)
    # ---- main table
    lines: list[str] = []
    add = lines.append
    add(f"Command: `{cmd}`  ")
    add(f"Problems: {len(pools)}; CV: {se.N_FOLDS}-fold × {repeats} repeats (seeded), every tuned "
        f"choice chosen on the training folds; privileged-first pools: {len(list(seeds))} seeded "
        f"reorderings (position 0 correct with probability {100 * se.PRIVILEGED_RATE:.0f}% under `label`); "
        f"CIs: paired bootstrap over problems ({n_boot} resamples), Δ against the first sample.")
    add("")
    results: dict[tuple[str, str, str], np.ndarray] = {}
    rows: list[tuple[str, dict[str, Any]]] = []

    def run(name: str, choose: Any, fam: Family, kind: str) -> None:
        oof, ch = cross_validate(choose, fam.hits[kind], ids, repeats)
        for r in RULES_CORRECT:
            results[(name, kind, r)] = oof[r]
        rows.append((name, {"kind": kind, "chosen": chosen_summary(fam, ch)}))

    for kind in kinds:
        run("symbolic only (before: class size, index ties)", simple(old_sym, kind), old_sym, kind)
        run("symbolic only", simple(sym, kind), sym, kind)
        run("semantic only (before: MiniLM, given, whole text)",
            simple(_subset(sem_only, lambda c: c.semantic == old_variant and c.keep_first_margin is None), kind),
            _subset(sem_only, lambda c: c.semantic == old_variant and c.keep_first_margin is None), kind)
        run("semantic only", simple(sem_only, kind), sem_only, kind)
        old_comb = _subset(comb, lambda c: c.semantic == old_variant and c.undecided_weight == 0
                           and c.truth_weight == 0 and c.keep_first_margin is None and c.rule == "log"
                           and c.normalize == "sum")
        run("combined (before: log rule, CV α)", simple(old_comb, kind), old_comb, kind)
        run("combined", two_stage(sem_only, comb, kind), comb, kind)
        run("combined, tuned on both pool kinds (the default)", two_stage(sem_only, comb, kinds), comb, kind)
    run("combined + greedy-flag prior", two_stage(sem_only, prior_fam, "privileged"), prior_fam, "privileged")
    names_order = list(dict.fromkeys(n for n, _ in rows))
    for rule in RULES_CORRECT:
        add(f"**1@k (%), correct = `{rule}`**, out of fold; in parentheses Δ vs first sample [95% CI]")
        add("")
        add("| method | exchangeable | privileged first |")
        add("|---|---|---|")
        for b in ("first", "random", "oracle"):
            add(f"| {dict(first='first sample', random='random (expected)', oracle='oracle (any correct)')[b]} | "
                + " | ".join(se.pct(float(base[k][b][rule].mean())) for k in kinds) + " |")
        for name in names_order:
            cells = []
            for kind in kinds:
                x = results.get((name, kind, rule))
                cells.append("" if x is None else fmt_cell(x, base[kind]["first"][rule], n_boot))
            if name.startswith("combined + greedy"):
                x = results[(name, "privileged", rule)]
                cells = ["(needs a flag)", fmt_cell(x, base["privileged"]["first"][rule], n_boot)]
            add(f"| {name} | " + " | ".join(cells) + " |")
        add("")
    add("Configurations the folds chose most often (`label` rule):")
    add("")
    for name, info in rows:
        add(f"- {name} [{info['kind']}]: {info['chosen']}")
    add("")
    # ---- semantic variants (no tuning inside a variant: each row is a fixed method)
    add("**Semantic score variants** (semantic only, exchangeable pools, every problem; each row is one "
        "fixed method, so these are not tuned figures; the CV row above chooses among them)")
    add("")
    add("| variant | 1@k `label` | 1@k `label+syntax` |")
    add("|---|---|---|")
    fs = base["exchangeable"]["first"]
    for i, c in enumerate(sem_only_nomargin.grid):
        h = sem_only_nomargin.hits["exchangeable"]
        add(f"| `{c.semantic}` | {fmt_cell(h['label'][i], fs['label'], n_boot)} | "
            f"{se.pct(float(h['label+syntax'][i].mean()))} |")
    add("")
    # ---- ablation
    lines += ablation(pools, instances, sem_only, comb, comb_variants, ids, repeats, n_boot, base)
    # ---- plots
    img = Path(args.out) / "img"
    plot_alpha(comb, sem_only, base, img, old_variant)
    add("![1@k vs alpha](img/selection_alpha.png)")
    add("")
    if lean is not None:
        lines += lean_section(lean, args, n_boot)
    return "\n".join(lines)


def _subset(fam: Family, keep: Any) -> Family:
    rows = [i for i, c in enumerate(fam.grid) if keep(c)]
    return Family(fam.name, [fam.grid[i] for i in rows],
                  {k: {r: h[rows] for r, h in d.items()} for k, d in fam.hits.items()})


ABLATIONS = (
    ("no exclusion of unparsed candidates", {"exclude_unparsed": False}),
    ("no vacuity demotion", {"demote": ("degenerate", "refuted")}),
    ("no degenerate demotion", {"demote": ("vacuous", "refuted")}),
    ("no refuted demotion", {"demote": ("vacuous", "degenerate")}),
    ("no class size (every candidate its own class)", {"class_size": False}),
    ("tie-break by index only", {"tie_break": "index"}),
)


def ablation(pools: list[Pool], instances: dict, sem_only: Family, comb: Family, variants: list[str],
             ids: list[str], repeats: int, n_boot: int, base: dict) -> list[str]:
    """Each component removed in turn from the combined method, re-tuned by CV."""
    out = ["**Ablation** (combined method, exchangeable pools, out of fold; each row re-tunes "
           "everything else by CV)", "", "| removed | 1@k `label` | 1@k `label+syntax` |", "|---|---|---|"]
    kind = "exchangeable"
    fs = base[kind]["first"]

    def row(name: str, choose: Any, fam: Family) -> None:
        oof, _ = cross_validate(choose, fam.hits[kind], ids, repeats)
        out.append(f"| {name} | {fmt_cell(oof['label'], fs['label'], n_boot)} | "
                   f"{fmt_cell(oof['label+syntax'], fs['label+syntax'], n_boot)} |")

    row("nothing (full method)", two_stage(sem_only, comb, kind), comb)
    row("semantic score", simple(_sym_from(comb), kind), _sym_from(comb))
    row("undecided-pair evidence", two_stage(sem_only, _subset(comb, lambda c: c.undecided_weight == 0), kind),
        _subset(comb, lambda c: c.undecided_weight == 0))
    row("truth evidence (proved bonus)", two_stage(sem_only, _subset(comb, lambda c: c.truth_weight == 0), kind),
        _subset(comb, lambda c: c.truth_weight == 0))
    row("keep-first margin", two_stage(sem_only, _subset(comb, lambda c: c.keep_first_margin is None), kind),
        _subset(comb, lambda c: c.keep_first_margin is None))
    inst = {kind: instances[kind]}
    for name, change in ABLATIONS:
        bases = [dataclasses.replace(c, **change) for c in comb.grid
                 if c.alpha == ALPHAS[0] and c.keep_first_margin is None]
        fam = family(name, inst, bases, ALPHAS, [kind])
        sem = family(name, inst, [dataclasses.replace(c, **change) for c in sem_only.grid
                                  if c.keep_first_margin is None], (0.0,), [kind])
        row(name, two_stage(sem, fam, kind), fam)
    out.append("")
    return out


def _sym_from(comb: Family) -> Family:
    """The combined grid at α = 1 (semantic score unused)."""
    return _subset(comb, lambda c: c.alpha == 1.0)


def plot_alpha(comb: Family, sem_only: Family, base: dict, img: Path, old_variant: str) -> None:
    """1@k vs α (all problems, descriptive) per pool kind: the method before this work
    and the new one at its most chosen structure."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    img.mkdir(parents=True, exist_ok=True)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    for ax, kind in zip(axes, ("exchangeable", "privileged"), strict=True):
        h = comb.hits[kind]["label"]
        curves: dict[str, list[float]] = {}
        for i, c in enumerate(comb.grid):
            if c.keep_first_margin is not None or c.normalize != "sum" or c.rule != "log":
                continue
            if c.semantic == old_variant and c.undecided_weight == 0 and c.truth_weight == 0:
                curves.setdefault("before: class size + MiniLM(given)", []).append(float(h[i].mean()))
            elif c.undecided_weight == 0.5 and c.truth_weight == 1.0:
                curves.setdefault(f"evidence support + {c.semantic}", []).append(float(h[i].mean()))
        for name, ys in curves.items():
            if len(ys) == len(ALPHAS):
                ax.plot(ALPHAS, [100 * y for y in ys], marker="o", ms=3, label=name)
        for b, style in (("first", "--"), ("oracle", ":")):
            ax.axhline(100 * base[kind][b]["label"].mean(), color="grey", ls=style, lw=1, label=f"{b} sample" if b == "first" else b)
        ax.set_title(f"{kind} pools (log rule, sum normalization)")
        ax.set_xlabel("α (weight of the symbolic score)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("1@k (%), correct = label")
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(img / "selection_alpha.png", dpi=110)
    plt.close(fig)


def lean_section(lean: list[Pool], args: Any, n_boot: int) -> list[str]:
    """FormalAlign mutant pools: how often the aligned statement is picked."""
    seeds = range(args.seeds)
    names = [n for n in lean[0].semantic if n.split(":")[-1] == "rule" or n == "ans"]
    for b in [n for n in names if n.endswith(":rule")]:
        for w in ANSWER_WEIGHTS:
            names.append(se.with_answer_term(lean, b, w))
    exch = [[p.permuted(perm) for p, perm in zip(lean, se.shuffle_perms(lean, s), strict=True)] for s in seeds]
    priv = [[p.permuted(perm) for p, perm in zip(lean, se.privileged_perms(lean, s), strict=True)] for s in seeds]
    inst = {"exchangeable": exch, "privileged": priv}
    ids = [p.id for p in lean]
    base = {k: baselines(v) for k, v in inst.items()}
    sem_only = family("semantic", inst, [Config(semantic=v) for v in names], (0.0,))
    comb = family("combined", inst, [Config(semantic=v, rule=r, undecided_weight=u, truth_weight=t)
                                     for v in names for r in COMB_RULES for u in (0.0, 0.5) for t in (0.0, 1.0)],
                  ALPHAS)
    sym = family("symbolic", inst, [Config(semantic=None, undecided_weight=u, truth_weight=t)
                                    for u in (0.0, 0.5) for t in (0.0, 1.0)], (1.0,))
    out = [f"**Lean: FormalAlign mutant pools** ({len(lean)} miniF2F problems, 1 aligned + 20 mutants "
           "each; the data lists the aligned statement first, so exchangeable pools are seeded "
           "shuffles; 1@k = how often the aligned statement is picked; back-translations are our "
           "rule-based ones; CV as above)", "",
           "| method | exchangeable | privileged first |", "|---|---|---|"]
    for b in ("first", "random", "oracle"):
        out.append(f"| {b} | " + " | ".join(se.pct(float(base[k][b]['label'].mean())) for k in inst) + " |")
    for name, fam, proc in (("symbolic only", sym, lambda k: simple(sym, k)),
                            ("semantic only", sem_only, lambda k: simple(sem_only, k)),
                            ("combined", comb, lambda k: two_stage(sem_only, comb, k)),
                            ("combined, tuned on both kinds", comb, lambda k: two_stage(sem_only, comb, list(inst)))):
        cells = []
        for k in inst:
            oof, _ = cross_validate(proc(k), {"label": fam.hits[k]["label"]}, ids, args.repeats)
            cells.append(fmt_cell(oof["label"], base[k]["first"]["label"], n_boot))
        out.append(f"| {name} | " + " | ".join(cells) + " |")
    out.append("")
    return out
