"""Tokenizer for Lean 4 theorem statements.

Comments (``--``, nested ``/- -/``) and docstrings are dropped; every token keeps its
character offset so errors point at the right line and column. Identifiers keep their dots
(``Real.sqrt``, ``h.1``, ``s.card``): the elaborator resolves namespaces and field notation.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from provers.errors import InputTooLargeError, ParseError

MAX_CHARS = 100_000

#: Multi-character symbols, longest first so the scanner is greedy.
SYMBOLS = sorted(
    [
        "Π", "∑'", "∏'", "⋃₀", "⋂₀", "⟪", "⟫", "⁅", "⁆", "⧸", "≃*", "≃+*", "≃+", "→ₗ", "≃ₗ", "→L",
        "≃ₜ", "→ᵃ", "→+*", "→*", "→+", "//", "[MOD", "[ZMOD", "[PMOD", "[SMOD", "/.", ":=", "=>", "↦", "->", "<->", "<=", ">=", "!=", "≠", "≤", "≥", "→", "↔", "∧", "∨", "¬",
        "∀", "∃!", "∃", "λ", "∑", "∏", "⋃", "⋂", "∈", "∉", "⊆", "⊂", "⊇", "⊃", "∪", "∩", "\\",
        "∣", "%", "^", "*", "/", "+", "-", "=", "<", ">", "(", ")", "[", "]", "{", "}", "⟨", "⟩",
        ",", ":", "|", "⌊", "⌋₊", "⌋", "⌈", "⌉₊", "⌉", "↑", "√", "⁻¹'", "⁻¹", "!", "∘", "•",
        "×ˢ", "×", "''", "∅", "·", "⦃", "⦄", "$", "<|", "|>", "|>.", "≡", "@", "_", "∞", "ᶜ",
        "∆", "⊔", "⊓", "⊤", "⊥", "∫", "∂", "∠", "π", "ℝ≥0∞", "ℝ≥0", "++", "::", "..", ";",
        "∃ᶠ", "∀ᶠ", "⨆", "⨅", "∮", "√", "∛", "‖", "≃", "≅", "→+*", "→*", "→+", "→ₗ", "≪", "⋆",
        "#", "?", "&&", "||", "<;>", "%[", "⊢", "∤", "⬝", "ᵀ", "†", "≈", "≺", "≼", "⊊", "∗",
        "\\/", "/\\",
    ],
    key=len,
    reverse=True,
)

#: ASCII spellings read as the symbol they stand for.
_ASCII = {"\\/": "∨", "/\\": "∧"}

#: Symbols by first character (longest first), so the scanner tries only a few.
_BY_FIRST: dict[str, list[str]] = {}
for _s in SYMBOLS:
    _BY_FIRST.setdefault(_s[0], []).append(_s)

_SUBSCRIPTS = "₀₁₂₃₄₅₆₇₈₉ₐₑₒₓₔₕₖₗₘₙₚₛₜᵢᵣᵤᵥⱼ"
_GREEK_NOT_IDENT = {"λ", "Π", "Σ"}
# Modifier letters Lean uses as postfix operators (complement, transpose), not name parts.
_POSTFIX_LETTERS = {"ᶜ", "ᵀ"}
# Letter-like symbols that Lean treats as identifiers (∞ is a term of its own).
_LETTERLIKE = "ℕℤℚℝℂ𝔽𝕜𝓝𝓟ℓ"


@lru_cache(maxsize=4096)
def _ident_start(c: str) -> bool:
    if c in _GREEK_NOT_IDENT or c in _POSTFIX_LETTERS:
        return False
    return c.isalpha() or c == "_" or c in _LETTERLIKE or ("\u03b1" <= c <= "\u03c9") or (
        "\u0391" <= c <= "\u03a9"
    ) or ("\U0001d400" <= c <= "\U0001d7ff")


@lru_cache(maxsize=4096)
def _ident_rest(c: str) -> bool:
    return _ident_start(c) or c.isdigit() or c in "'!?" or c in _SUBSCRIPTS


@dataclass(frozen=True)
class Token:
    kind: str  # "ident", "num", "str", "sym", "eof"
    text: str
    pos: int
    end: int
    space_before: bool = True

    def __repr__(self) -> str:
        return f"{self.kind}:{self.text!r}@{self.pos}"


def strip_comments(text: str) -> str:
    """Replace comments and docstrings by spaces (same length, so offsets are kept)."""
    if "--" not in text and "/-" not in text:
        return text
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        nxt = [p for p in (text.find('"', i), text.find("--", i), text.find("/-", i)) if p >= 0]
        if not nxt:
            break
        i = min(nxt)
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if text.startswith("--", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
            continue
        if text.startswith("/-", i):
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/-", j):
                    depth += 1
                    j += 2
                elif text.startswith("-/", j):
                    depth -= 1
                    j += 2
                else:
                    j += 1
            if depth:
                raise ParseError.at_offset("unterminated comment /- ... -/", text, i)
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
            continue
        i += 1
    return "".join(out)


def _quoted_name_end(text: str, i: int, end: int) -> int:
    """End of ``«an identifier»`` (possibly continued by ``.name`` parts)."""
    j = text.find("»", i)
    if j < 0 or j >= end:
        raise ParseError.at_offset("unterminated «identifier»", text, i)
    j += 1
    while j < end and (_ident_rest(text[j]) or (text[j] == "." and j + 1 < end and _ident_start(text[j + 1]))):
        j += 1
    return j


def _numeral_end(text: str, i: int, end: int) -> int:
    """End of a numeral: ``1_000``, ``0x1F``, ``0.5``, ``1e-3``."""
    j = i
    while j < end and (text[j].isdigit() or text[j] == "_"):
        j += 1
    if text.startswith(("0x", "0b", "0o"), i):
        j = i + 2
        while j < end and text[j].isalnum():
            j += 1
    elif j + 1 < end and text[j] == "." and text[j + 1].isdigit():
        j += 1
        while j < end and text[j].isdigit():
            j += 1
    if j < end and text[j] in "eE" and j + 1 < end and (text[j + 1].isdigit() or (text[j + 1] in "+-" and j + 2 < end and text[j + 2].isdigit())):
        j += 2
        while j < end and text[j].isdigit():
            j += 1
    return j


def _string_end(text: str, i: int, end: int) -> int:
    j = i + 1
    while j < end and text[j] != '"':
        j += 2 if text[j] == "\\" else 1
    if j >= end:
        raise ParseError.at_offset("unterminated string literal", text, i)
    return j + 1


def _name_end(text: str, i: int, end: int) -> int:
    """End of a (qualified) name; ``Type*``/``Sort _`` are one name, and a final ``!``/``?``
    is left out (``n!`` is ``n !``, the factorial)."""
    j = i + 1
    while j < end:
        if _ident_rest(text[j]):
            j += 1
        elif text[j] == "." and j + 1 < end and (_ident_start(text[j + 1]) or text[j + 1].isdigit()):
            j += 1
        else:
            break
    if text[i:j] in ("Type", "Sort") and j < end and text[j] in "*_":
        j += 1
    while text[j - 1] in "!?" and j - i > 1:
        j -= 1
    return j


def _field_end(text: str, i: int, end: int) -> int:
    """End of the field name after the ``.`` at ``i`` (``(Nat.digits 10 n).sum``, ``x.1``):
    one field; ``(12 : ℕ).divisors.card`` is two projections, ``.divisors`` then ``.card``."""
    j = i + 1
    while j < end and _ident_rest(text[j]):
        j += 1
    return j


def tokenize(text: str, start: int = 0, end: int | None = None) -> list[Token]:
    """Tokens of ``text[start:end]`` (comments must already be blanked out)."""
    if len(text) > MAX_CHARS:
        raise InputTooLargeError(f"input of {len(text)} characters exceeds the limit of {MAX_CHARS}")
    end = len(text) if end is None else end
    toks: list[Token] = []
    i = start
    space = True
    while i < end:
        c = text[i]
        if c.isspace():
            i += 1
            space = True
            continue
        if c == "«":
            j = _quoted_name_end(text, i, end)
            toks.append(Token("ident", text[i:j].replace("«", "").replace("»", ""), i, j, space))
        elif c.isdigit():
            j = _numeral_end(text, i, end)
            toks.append(Token("num", text[i:j], i, j, space))
        elif c == '"':
            j = _string_end(text, i, end)
            toks.append(Token("str", text[i:j], i, j, space))
        elif text.startswith(("ℝ≥0", "ℕ+"), i):
            sym = "ℝ≥0∞" if text.startswith("ℝ≥0∞", i) else text[i : i + (3 if c == "ℝ" else 2)]
            j = i + len(sym)
            toks.append(Token("ident", sym, i, j, space))
        elif _ident_start(c):
            j = _name_end(text, i, end)
            toks.append(Token("ident", text[i:j], i, j, space))
        elif c == "." and i + 1 < end and (_ident_start(text[i + 1]) or text[i + 1].isdigit()) and not space and toks:
            j = _field_end(text, i, end)  # field access after a closing bracket
            toks.append(Token("proj", text[i + 1 : j], i, j, False))
        else:
            sym = next((s for s in _BY_FIRST.get(c, ()) if text.startswith(s, i)), c)
            # Lean 4's ASCII spellings of ∨ and ∧ (`infixr:30 " \/ "`, `infixr:35 " /\ "`);
            # unknown characters become one-character symbols: the parser reports them
            # with a position when (and only when) they matter
            j = i + len(sym)
            toks.append(Token("sym", _ASCII.get(sym, sym), i, j, space))
        i, space = j, False
    toks.append(Token("eof", "", end, end, True))
    return toks
