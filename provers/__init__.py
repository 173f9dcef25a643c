"""Formal statements and proving: IR, frontends, normal form, alignment, relations, backends.

Public entry points::

    st = provers.parse(text, language="lean4")        # or "isabelle"; raises provers.ParseError
    v = provers.check_equivalence(a, b, relation="sae", timeout=5.0)
"""

from __future__ import annotations

from typing import Any

from provers.errors import InputTooLargeError, ParseError
from provers.ir import Statement

LANGUAGES = ("lean4", "isabelle")

__all__ = ["LANGUAGES", "InputTooLargeError", "ParseError", "Statement", "check_equivalence", "parse"]


def parse(text: str, language: str = "lean4", imports: tuple[str, ...] = (), strict: bool = False) -> Statement:
    """Parse one theorem statement into the IR; raise ``ParseError`` for anything else.
    ``imports`` (Isabelle): theories beyond ``Complex_Main`` the statement is meant for, so
    that ``Statement.checker_errors`` does not list what they provide. ``strict``: also a
    ``ParseError`` (at the construct) for text the prover itself would reject although it
    reads here (``Statement.checker_errors``), for callers that keep only usable text."""
    if language == "lean4":
        from provers.lean4.parser import parse_lean

        return parse_lean(text)
    if language == "isabelle":
        from provers.isabelle.parser import parse_isabelle

        statement = parse_isabelle(text, tuple(imports))
        if strict and statement.checker_errors:
            from provers.isabelle.checker import locate

            errors = statement.checker_errors
            more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
            raise ParseError.at_offset(f"Isabelle would reject it: {errors[0]}{more}", text, locate(text, errors[0]))
        return statement
    raise ValueError(f"unknown language {language!r}; expected one of {LANGUAGES}")


def check_equivalence(a: Any, b: Any, relation: str = "sae", timeout: float = 5.0, **kwargs: Any):
    """Decide whether two statements (``Statement`` or text) are equivalent under ``relation``.

    Returns a ``provers.engine.verdict.Verdict``: ``equivalent`` / ``inequivalent`` / ``inconclusive``.
    """
    from provers.engine.equivalence import check_equivalence as _check

    return _check(a, b, relation=relation, timeout=timeout, **kwargs)
