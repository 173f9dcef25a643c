"""``rerank perturb``: labelled rewrites and perturbations of one statement.

Reads a statement from a file (or ``-`` for stdin), prints its meaning-preserving rewrites and
meaning-changing perturbations, each printed back to the source language with what was done
and where; perturbations are labelled ``effective`` by the equivalence engine unless
``--no-check``. ``--jsonl`` prints one JSON object per variant (for scripts testing an
evaluator). Exit codes: 0 success, 1 bad input (missing file, text that is not a statement).
"""

from __future__ import annotations

import json

import typer

from provers import ParseError, parse
from provers.perturb import PERTURBATION_KINDS, REWRITE_KINDS, perturbations, rewrites
from rerank.choices import Language
from rerank.textfile import read_text

app = typer.Typer(add_completion=False, help=__doc__.splitlines()[0] if __doc__ else None)


def _read(source: str) -> str:
    try:
        return read_text(source)
    except ValueError as e:  # missing, a directory, not UTF-8: one line, no traceback
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(1) from None


def perturb(
    source: str = typer.Argument(..., help="File holding one theorem statement, or - for stdin."),
    language: Language = typer.Option(Language("lean4"), help="Language of the statement."),
    seed: int = typer.Option(0, help="Seed: the same seed gives the same variants."),
    n_rewrites: int = typer.Option(None, "--rewrites", min=0, help="How many rewrites (default: one per applicable kind)."),
    n_perturbations: int = typer.Option(None, "--perturbations", min=0, help="How many perturbations (default: one per applicable kind)."),
    kinds: str = typer.Option("", help="Comma-separated kinds to use (default all): " + ", ".join(REWRITE_KINDS + PERTURBATION_KINDS)),
    check: bool = typer.Option(True, help="Label each perturbation effective / not effective with the engine (SAE)."),
    timeout: float = typer.Option(2.0, min=0.01, max=7 * 24 * 3600.0, help="Seconds per solver call when checking."),
    jsonl: bool = typer.Option(False, "--jsonl", help="One JSON object per variant."),
) -> None:
    """Print labelled meaning-preserving rewrites and meaning-changing perturbations of a statement."""
    text = _read(source)
    wanted = [k.strip() for k in kinds.split(",") if k.strip()]
    unknown = [k for k in wanted if k not in REWRITE_KINDS + PERTURBATION_KINDS]
    if unknown:
        typer.echo(f"error: unknown kind(s) {', '.join(unknown)}", err=True)
        raise typer.Exit(1)
    try:
        st = parse(text, language.value)
    except ParseError as e:
        typer.echo(f"error: cannot parse {source} as {language.value}: {e}", err=True)
        raise typer.Exit(1) from e
    except ValueError as e:
        typer.echo(f"error: {e}", err=True)
        raise typer.Exit(1) from e
    rw_kinds = [k for k in wanted if k in REWRITE_KINDS] if wanted else None
    pt_kinds = [k for k in wanted if k in PERTURBATION_KINDS] if wanted else None
    out = []
    if rw_kinds != [] and n_rewrites != 0:
        out += rewrites(st, seed=seed, n=n_rewrites, kinds=rw_kinds)
    if pt_kinds != [] and n_perturbations != 0:
        out += perturbations(st, seed=seed, n=n_perturbations, kinds=pt_kinds, check=check, timeout=timeout)
    for v in out:
        if jsonl:
            typer.echo(json.dumps(v.to_dict(), ensure_ascii=False))
            continue
        label = "rewrite" if v.preserving else "perturbation"
        if not v.preserving and check:
            label += {True: ", effective", False: ", NOT effective", None: ", effect undecided"}[v.effective]
        typer.echo(f"-- [{v.kind}] ({label}) {v.description}")
        if v.evidence:
            typer.echo(f"--   {v.evidence}")
        typer.echo(v.text)
        typer.echo("")


app.command()(perturb)

if __name__ == "__main__":  # pragma: no cover
    app()
