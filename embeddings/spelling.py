"""Mathematical symbols spelled as words before a text is embedded.

Why: the packaged MiniLM's tokenizer (uncased WordPiece) loses these characters. Lower-casing
strips accents by decomposing each character (Unicode NFD) and dropping the combining marks,
and a negated relation is its plain relation plus a combining slash: ``x ≠ 3`` reaches the
model as ``x = 3``, ``a ∉ S`` as ``a ∈ S``, ``x ≮ y`` as ``x < y``. The others are not in its
vocabulary and become ``[UNK]``: ``⌊x⌋``, ``ℕ``, ``∣``, ``∑``, ``∀``. Back-translations of
Lean statements (the rule informalizer writes ``≠``, ``⌊ ⌋`` and ``∈``) then differ from a
mutant that swaps ``=`` for ``≠`` only where the model cannot see. Each such symbol is written
as the words a person reads aloud; characters the tokenizer keeps (``≤``, ``√``, ``∈``, ``π``)
are left alone, so texts without a listed symbol embed exactly as before.
"""

from __future__ import annotations

import re

__all__ = ["SPELLINGS", "spell_symbols"]

SPELLINGS: dict[str, str] = {
    # negated relations: NFD + accent stripping turns each into its positive form
    "≠": "not equal to",
    "∉": "not in",
    "⊄": "not a subset of",
    "⊈": "not a subset of or equal to",
    "≢": "not congruent to",
    "≮": "not less than",
    "≯": "not greater than",
    # not in the vocabulary: [UNK]
    "∤": "does not divide",
    "∣": "divides",
    "∄": "there is no",
    "∀": "for all",
    "∃": "there exists",
    "⇔": "if and only if",
    "⌊": "floor(",
    "⌋": ")",
    "⌈": "ceiling(",
    "⌉": ")",
    "ℕ": "natural numbers",
    "ℤ": "integers",
    "ℚ": "rational numbers",
    "ℂ": "complex numbers",
    "∑": "sum",
    "∏": "product",
    "∫": "integral",
    "⊇": "a superset of or equal to",
    "⊃": "a superset of",
    "∋": "contains",
    "∛": "cube root of",
    "∓": "minus or plus",
    "≅": "congruent to",
    "≃": "equivalent to",
    "∠": "angle",
    "∡": "angle",
    "△": "triangle",
    "⊥": "perpendicular to",
    "∥": "parallel to",
}
"""Each symbol the packaged tokenizer loses, and the words written in its place."""

_SYMBOL = re.compile("|".join(map(re.escape, SPELLINGS)))
_SPACES = re.compile(r"[ \t]{2,}")


def spell_symbols(text: str) -> str:
    """``text`` with every symbol of :data:`SPELLINGS` written as its words (surrounded by
    spaces, runs of spaces then collapsed); the text itself when it has none."""
    if not _SYMBOL.search(text):
        return text
    spelled = _SYMBOL.sub(lambda m: f" {SPELLINGS[m.group()]} ", text)
    return _SPACES.sub(" ", spelled).strip()
