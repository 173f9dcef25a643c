"""Isabelle symbols: ``\\<name>`` ASCII escapes and their Unicode forms.

Isabelle sources write ``\\<forall>`` or ``∀`` interchangeably. The frontend decodes every
escape to one Unicode character first, keeping a map back to the original offsets so that
parse errors point into the text the user gave.
"""

from __future__ import annotations

from provers.errors import ParseError

#: ``\<name>`` -> Unicode (the glyphs Isabelle/jEdit shows; ``\<^sub>`` -> ``⇩``).
SYMBOLS: dict[str, str] = {
    "forall": "∀", "exists": "∃", "nexists": "∄", "And": "⋀", "Longrightarrow": "⟹",
    "longrightarrow": "⟶", "longleftrightarrow": "⟷", "Rightarrow": "⇒", "rightarrow": "→",
    "leftrightarrow": "↔", "Leftrightarrow": "⇔", "and": "∧", "or": "∨", "not": "¬",
    "le": "≤", "ge": "≥", "noteq": "≠", "in": "∈", "notin": "∉", "subseteq": "⊆",
    "subset": "⊂", "supseteq": "⊇", "supset": "⊃", "union": "∪", "inter": "∩",
    "Union": "⋃", "Inter": "⋂", "lbrakk": "⟦", "rbrakk": "⟧", "bar": "¦", "lfloor": "⌊",
    "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉", "Sum": "∑", "Prod": "∏", "lambda": "λ",
    "equiv": "≡", "times": "×", "circ": "∘", "cdot": "⋅", "bullet": "∙", "pi": "π",
    "infinity": "∞", "i": "ⅈ", "int": "ℤ", "nat": "ℕ", "rat": "ℚ", "real": "ℝ",
    "complex": "ℂ", "leftarrow": "←", "approx": "≈", "dots": "…", "emptyset": "∅",
    "open": "‹", "close": "›", "sqrt": "√", "angle": "∠", "Im": "ℑ", "Re": "ℜ",
    "^sub": "⇩", "^sup": "⇧", "^isub": "⇩", "^isup": "⇧", "minus": "-", "mapsto": "↦",
    "lparr": "⦇", "rparr": "⦈", "langle": "⟨", "rangle": "⟩", "sim": "∼", "star": "⋆",
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "zeta": "ζ",
    "eta": "η", "theta": "θ", "iota": "ι", "kappa": "κ", "mu": "μ", "nu": "ν", "xi": "ξ",
    "rho": "ρ", "sigma": "σ", "tau": "τ", "upsilon": "υ", "phi": "φ", "chi": "χ",
    "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ", "Lambda": "Λ",
    "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ",
    "Omega": "Ω", "lambda_": "λ",
}

#: Unicode -> the ASCII escape the printer could use (inverse of SYMBOLS, first wins).
ESCAPES: dict[str, str] = {}
for _name, _glyph in SYMBOLS.items():
    ESCAPES.setdefault(_glyph, f"\\<{_name}>")

#: Greek letters count as letters in identifiers (Isabelle treats them so).
GREEK = frozenset("αβγδεζηθικμνξρστυφχψωΓΔΘΛΞΠΣΥΦΨΩ")


def decode(text: str) -> tuple[str, list[int]]:
    """Replace every ``\\<name>`` by its glyph; return the text and, for each character of
    the result, its offset in ``text`` (one extra entry for the end)."""
    out: list[str] = []
    offsets: list[int] = []
    i, n = 0, len(text)
    while i < n:
        if text.startswith("\\<", i):
            j = text.find(">", i + 2)
            name = text[i + 2 : j] if j != -1 else ""
            if j == -1 or not name or len(name) > 40 or not all(c.isalnum() or c in "^_" for c in name):
                raise ParseError.at_offset("malformed Isabelle symbol escape (expected \\<name>)", text, i)
            glyph = SYMBOLS.get(name)
            if glyph is None:
                raise ParseError.at_offset(
                    f"unknown Isabelle symbol \\<{name}>: not part of HOL's term syntax", text, i
                )
            out.append(glyph)
            offsets.append(i)
            i = j + 1
            continue
        out.append(text[i])
        offsets.append(i)
        i += 1
    offsets.append(n)
    return "".join(out), offsets
