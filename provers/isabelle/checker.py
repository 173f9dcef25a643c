"""What Isabelle's own checker rejects that this frontend reads past.

The parser is lenient on purpose: a candidate that writes ``≠`` for ``\\<noteq>`` or declares
``x :: "real^2"`` still has a meaning, and clustering uses it. But Isabelle itself rejects
such a text in a theory importing ``Complex_Main`` (the usual context of MATH-style
statements), and a statement Isabelle rejects is not a correct formalization: the selection
demotes it (``rerank.scoring.DEMOTIONS``, reason ``ill_formed``) while its meaning still
counts for its class.

Two rules, each a fact about Isabelle rather than about one dataset:

* Isabelle source writes its symbols in ASCII, ``\\<noteq>``, ``\\<alpha>``; the editor only
  renders them as glyphs. A raw non-ASCII character in the text (outside a comment) is not a
  symbol of the inner syntax.
* The vector type ``real^2`` (``'a ^ 'n``) is HOL-Analysis's ``Finite_Cartesian_Product``,
  which ``Complex_Main`` does not import.
"""

from __future__ import annotations

from collections.abc import Iterator

from provers.ir.sorts import FunSort, ListSort, OpaqueSort, ProdSort, SetSort, Sort
from provers.ir.statement import Statement
from provers.ir.traverse import subterms
from provers.isabelle.symbols import SYMBOLS

#: glyph -> its Isabelle spelling (the first name of the table's), for the message
_SPELLING: dict[str, str] = {}
for _name, _glyph in SYMBOLS.items():
    _SPELLING.setdefault(_glyph, f"\\<{_name}>")


def checker_errors(source: str, statement: Statement) -> tuple[str, ...]:
    """Why Isabelle (with ``Complex_Main``) would reject ``source``, which parsed as
    ``statement``; empty when it would not, as far as these rules see."""
    out = []
    raw = _first_raw_unicode(source)
    if raw is not None:
        ch, line, column = raw
        spelled = _SPELLING.get(ch)
        fix = f"; Isabelle writes {spelled}" if spelled else ""
        out.append(f"raw Unicode {ch!r} at line {line}, column {column}: not an Isabelle symbol{fix}")
    vector = next(_vector_sorts(statement), None)
    if vector is not None:
        out.append(f"the vector type {vector} needs HOL-Analysis (Finite_Cartesian_Product), "
                   "which Complex_Main does not import")
    return tuple(out)


def _first_raw_unicode(source: str) -> tuple[str, int, int] | None:
    """The first non-ASCII character outside ``(* … *)`` comments, with its line and column."""
    depth, i, n = 0, 0, len(source)
    while i < n:
        if source.startswith("(*", i):
            depth, i = depth + 1, i + 2
            continue
        if depth and source.startswith("*)", i):
            depth, i = depth - 1, i + 2
            continue
        if not depth and ord(source[i]) > 127:
            line = source.count("\n", 0, i) + 1
            return source[i], line, i - (source.rfind("\n", 0, i) + 1) + 1
        i += 1
    return None


def _vector_sorts(statement: Statement) -> Iterator[str]:
    """Names of the vector types (``real^2``) the statement's terms have, in order."""
    seen: set[Sort] = set()
    for v in statement.variables:
        yield from _vectors_in(v.sort, seen)
    for b in statement.hypotheses:
        for t in subterms(b.formula):
            yield from _vectors_in(t.sort, seen)
    for t in subterms(statement.conclusion):
        yield from _vectors_in(t.sort, seen)


def _vectors_in(s: Sort, seen: set[Sort]) -> Iterator[str]:
    if s in seen:
        return
    seen.add(s)
    if isinstance(s, OpaqueSort) and "^" in s.name:
        yield s.name
    parts: tuple[Sort, ...] = ()
    if isinstance(s, FunSort):
        parts = s.args + (s.result,)
    elif isinstance(s, (SetSort, ListSort)):
        parts = (s.elem,)
    elif isinstance(s, ProdSort):
        parts = s.parts
    for p in parts:
        yield from _vectors_in(p, seen)
