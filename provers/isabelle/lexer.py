"""Tokens of Isabelle's inner (term and type) syntax, over symbol-decoded text.

The outer syntax (``theorem``, ``fixes``, quoted strings) is read by ``statement.py``; each
quoted string is lexed here. Offsets are into the decoded text of the whole input, so
errors can be mapped back to the user's line and column.
"""

from __future__ import annotations

from dataclasses import dataclass

from provers.isabelle.symbols import GREEK

#: Operators, longest first so that ``..<`` wins over ``..`` and ``<``.
OPERATORS = sorted(
    [
        "⟹", "==>", "⟶", "-->", "⟷", "<->", "<-->", "=", "≠", "~=", "≤", "<=", "≥", ">=", "<", ">",
        "∧", "&", "/\\", "∨", "|", "\\/", "¬", "~", "+", "-", "*", "/", "^", "(", ")", "[", "]",
        "{", "}", ",", ".", "..", "..<", "<..", "<..<", "::", ":", "~:", ";", "∈", "∉", "⊆", "⊂",
        "⊇", "⊃", "∪", "∩", "⟦", "⟧", "¦", "⌊", "⌋", "⌈", "⌉", "∀", "∃", "∃!", "∄", "λ", "%",
        "∑", "∏", "`", "∘", "×", "!", "#", "@", "≡", "⇒", "=>", "⇧", "ℤ", "ℕ", "ℚ", "ℝ", "ℂ",
        "ⅈ", "π", "∞", "⋀", "→", "↔", "⋃", "⋂", "∙", "⋅", "√", "←", "≈", "…", "∅", "$",
        "'", "\\", "?", "*⇩R", "[:", ":]", "...", "∠", "ℑ", "ℜ", "⦇", "⦈", "⟨", "⟩", "∼", "⋆", "↦",
    ],
    key=len,
    reverse=True,
)
#: HOL's ASCII membership (``x : A``, ``∀x:A. P``, ``{x:A. P}``; ``~:``): inside a term a lone
#: colon is nothing else (type constraints are ``::``).
_ASCII_MEMBERSHIP = {":": "∈", "~:": "∉"}
_OP_FIRST = {op[0] for op in OPERATORS}
_OPS_BY_FIRST: dict[str, list[str]] = {}
for _op in OPERATORS:  # longest first within each bucket
    _OPS_BY_FIRST.setdefault(_op[0], []).append(_op)

#: theory names that may qualify a constant (``List.length`` reads as ``length``)
THEORIES = frozenset({
    "HOL", "List", "Real", "Transcendental", "Groups", "Set", "Nat", "Int", "Complex", "Num",
    "Rings", "Fields", "Power", "Orderings", "Lattices_Big", "Binomial", "Factorial", "Divides",
    "Euclidean_Division", "GCD", "Parity", "Archimedean_Field", "NthRoot", "Real_Vector_Spaces",
    "Finite_Set", "Groups_Big", "Rat", "Fact", "Primes", "Set_Interval", "Groups_List",
})


@dataclass(frozen=True)
class Token:
    kind: str  # "num" | "ident" | "tvar" | "op" | "eof"
    text: str
    pos: int  # offset into the decoded input


class LexError(Exception):
    """Raised with an offset; the caller turns it into ParseError."""

    def __init__(self, reason: str, pos: int):
        super().__init__(reason)
        self.reason = reason
        self.pos = pos


def _is_letter(c: str) -> bool:
    return ("a" <= c <= "z") or ("A" <= c <= "Z") or c in GREEK


def _is_ident_char(c: str) -> bool:
    return _is_letter(c) or c.isdigit() or c in "_'⇩"


def _ident_end(text: str, i: int, end: int) -> int:
    while i < end and _is_ident_char(text[i]):
        i += 1
    return i


def _numeral_end(text: str, i: int, end: int) -> int:
    """End of the numeral at ``i`` (``12``, ``0.5``); a name glued to it is an error."""
    j = i
    while j < end and text[j].isdigit():
        j += 1
    if j + 1 < end and text[j] == "." and text[j + 1].isdigit():
        j += 1
        while j < end and text[j].isdigit():
            j += 1
    if j < end and (_is_letter(text[j]) or text[j] == "_") and not text.startswith("⇩", j):
        # 2x, 3pi: a number glued to a name is not HOL syntax
        k = _ident_end(text, j, end)
        raise LexError(
            f"'{text[i:k]}' is not a HOL term: write multiplication explicitly ({text[i:j]} * {text[j:k]})",
            i,
        )
    return j


def _name_span(text: str, i: int, end: int) -> tuple[int, int]:
    """Span of the name at ``i``; of a qualified ``Theory.const`` (``List.length``,
    ``Real.sqrt``), the constant's name only."""
    j = _ident_end(text, i, end)
    while text[i:j] in THEORIES and j + 1 < end and text[j] == "." and _is_letter(text[j + 1]):
        i = j + 1
        j = _ident_end(text, i, end)
    return i, j


def tokenize(text: str, start: int, end: int) -> list[Token]:
    """Tokens of ``text[start:end]`` (one quoted term), ending with an ``eof`` token."""
    toks: list[Token] = []
    i = start
    while i < end:
        c = text[i]
        if c.isspace():
            i += 1
            continue
        if text.startswith("(*", i):  # comment inside a term
            j = text.find("*)", i + 2, end)
            if j == -1:
                raise LexError("unterminated comment (*", i)
            i = j + 2
            continue
        if c.isdigit():
            j = _numeral_end(text, i, end)
            toks.append(Token("num", text[i:j], i))
            i = j
            continue
        if c == "'" and i + 1 < end and _is_letter(text[i + 1]):
            j = _ident_end(text, i + 1, end)
            toks.append(Token("tvar", text[i:j], i))
            i = j
            continue
        if _is_letter(c) or (c == "_" and i + 1 < end and _is_ident_char(text[i + 1])):
            i, j = _name_span(text, i, end)
            if text[i:j] == "EX" and j < end and text[j] == "!":
                j += 1  # `EX! x. P x`: ASCII for ∃!
            toks.append(Token("ident", text[i:j], i))
            i = j
            continue
        if c in _OP_FIRST:
            for op in _OPS_BY_FIRST[c]:
                if text.startswith(op, i) and i + len(op) <= end:
                    toks.append(Token("op", _ASCII_MEMBERSHIP.get(op, op), i))
                    i += len(op)
                    break
            continue
        if c == '"':
            raise LexError('unexpected " inside a term (unbalanced quotes?)', i)
        raise LexError(f"unexpected character {c!r} in a HOL term", i)
    toks.append(Token("eof", "", end))
    return toks
