"""HOL inner-syntax notation the term parser knows: infix operators with their priorities
and associativity (HOL.thy, Orderings.thy, Groups.thy, Rings.thy, Set.thy), keywords, binders."""

from __future__ import annotations

#: infix operators: token -> (priority, associativity, handler name in ``constants.BINARY``)
INFIX: dict[str, tuple[int, str, str]] = {
    "⟶": (25, "right", "implies"), "-->": (25, "right", "implies"), "→": (25, "right", "implies"),
    "⟷": (25, "right", "iff"), "<->": (25, "right", "iff"), "<-->": (25, "right", "iff"),
    "↔": (25, "right", "iff"),
    "∨": (30, "right", "or"), "|": (30, "right", "or"), "\\/": (30, "right", "or"),
    "∧": (35, "right", "and"), "&": (35, "right", "and"), "/\\": (35, "right", "and"),
    "=": (50, "left", "eq"), "≠": (50, "left", "ne"), "~=": (50, "left", "ne"),
    "<": (50, "none", "lt"), "≤": (50, "none", "le"), "<=": (50, "none", "le"),
    ">": (50, "none", "gt"), "≥": (50, "none", "ge"), ">=": (50, "none", "ge"),
    "∈": (50, "none", "mem"), "∉": (50, "none", "notmem"), "⊆": (50, "none", "subset"),
    "⊂": (50, "none", "psubset"), "⊇": (50, "none", "supset"), "⊃": (50, "none", "psupset"),
    "dvd": (50, "none", "dvd"), "∘": (55, "left", "comp"),
    "+": (65, "left", "add"), "-": (65, "left", "minus"), "∪": (65, "left", "union"),
    "#": (65, "right", "cons"), "@": (65, "right", "append"), "choose": (65, "left", "choose"),
    "*": (70, "left", "mul"), "/": (70, "left", "divide"), "div": (70, "left", "div"),
    "mod": (70, "left", "mod"), "∩": (70, "left", "inter"), "∙": (70, "left", "inner"),
    "^": (80, "right", "pow"), "powr": (80, "right", "powr"), "×": (80, "right", "times_set"),
    "`": (90, "right", "image"), "!": (100, "left", "nth"), "*⇩R": (75, "right", "scaleR"),
}
KEYWORDS = frozenset({"if", "then", "else", "let", "in", "case", "of", "div", "mod", "dvd", "powr", "choose", "and", "where", "for"})
BINDERS = {"∀": "forall", "∃": "exists", "∃!": "exists1", "∄": "nexists", "ALL": "forall", "EX": "exists", "EX!": "exists1"}
BINDER_CONSTS = ("THE", "GREATEST", "LEAST", "SOME", "INF", "SUP")
ATOM_START_OPS = frozenset({"(", "[", "[:", "{", "⌊", "⌈", "ℤ", "ℕ", "ℚ", "ℝ", "ℂ", "ⅈ", "π", "∅"})

#: Outer-syntax words that cannot name an implicitly fixed variable (they could not be
#: declared in `fixes`, and in LLM output they mean a quote went missing).
OUTER_KEYWORDS = frozenset({"theorem", "lemma", "fixes", "assumes", "defines", "shows", "obtains", "and", "where"})
