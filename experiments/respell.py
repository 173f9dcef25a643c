"""Respellings of real statements that cannot change their meaning, checked against the original.

Why: a verdict depends on how the frontends read text, and a reading that depends on the
spelling is unsound. Stop 59 found eight, the first: ``Equiv ℝ ℝ`` and ``ℝ ≃ ℝ`` were named as
two opaque sorts, so a statement written both ways was "inequivalent" to itself under ``sae``
(docs/experiments.md, "Respellings"). Every statement of the data is rewritten in ways Lean or
Isabelle read identically and checked against its original: ``inequivalent`` is a soundness
bug (each listed), ``inconclusive`` or a parse error of the respelled text a gap.

Lean (on the statement's tokens, up to its ``:=``): ASCII operators (``<=``, ``->``, ``/\\``,
``fun x =>``; not ``!=``, Lean 4's Boolean ``bne``), the number types by name (``Real``),
hypothesis names replaced, binder groups split or their first two variables swapped, two
adjacent hypotheses swapped, a variable renamed, ``∑ x ∈ s`` for ``∑ x in s``, ``√x`` for
``Real.sqrt x``, ``∀ (x : ℝ), P`` for ``∀ x : ℝ, P``, relations by their definitions
(``a > b`` as ``b < a``, ``a ≠ b`` as ``¬(a = b)``), ``=`` / ``∧`` / ``∨`` / ``↔`` with their
operands swapped, ``+`` and ``*`` commuted and ``a ∣ b`` as ``∃ c, b = a * c`` where every
term is a number, ``x ^ 2`` as ``x * x``; since stop 61 the last hypothesis moved into the
goal, binder predicates expanded (``∀ x > 0, p`` as ``∀ x, x > 0 → p``), ``↔`` / ``¬`` / ``≠``
by their definitions, numerals as sums of ones, ``a - b`` as ``a + -b`` and ``a / b`` as
``a * b⁻¹`` where the operation is a ring's or a field's, ``2 * x`` as ``x + x``, dot notation
(``Real.sqrt x`` as ``x.sqrt``), interval memberships by their bounds, ``a ∣ b`` as
``b % a = 0`` on ℕ / ℤ, implicit and explicit binders swapped. Isabelle: ASCII symbols (``<=``, ``-->``, ``ALL``,
``EX!``, ``~=``, ``:``), ``x\\<^sup>2`` for a variable's ``x^2``, ``fixes x y`` split or
reordered, a fixed variable renamed, assumption labels renamed, the first two assumptions
swapped, a top-level conjunction split into two assumptions or its conjuncts swapped, a
relation's sides swapped (``=`` with ``=``, ``<`` with ``>``, ``≠`` as ``¬ =``), a top-level
sum's summands reversed; since stop 61 the last assumption moved into the conclusion
(``A ⟶ C``), bounded quantifiers by their definitions, numerals as sums, ``even`` / ``odd`` as
``2 dvd``, interval memberships by their bounds. ``--kinds`` runs some of them only.

    .venv/bin/python experiments/respell.py ../shared/data/minif2f_lean4.jsonl ../shared/data/proofnet_lean4.jsonl \\
        ../shared/data/lean_pairs_gted.jsonl ../shared/data/isabelle_math_400.jsonl \\
        ../shared/data/lean_mutants_formalalign_valid.jsonl --out /tmp/respell.jsonl
"""

from __future__ import annotations

import argparse
import collections
import itertools
import json
import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tqdm import tqdm  # noqa: E402

from provers import ParseError, parse  # noqa: E402
from provers.engine.equivalence import check_equivalence  # noqa: E402
from provers.ir import App, FunSort, Hypothesis, subterms  # noqa: E402
from provers.lean4.lexer import Token, tokenize  # noqa: E402
from provers.lean4.pratt import TermParser  # noqa: E402

#: Lean's ASCII spellings of its Unicode operators (each token by its source text).
#: (``!=`` is Lean 4's Boolean ``bne``, not ``≠``: left out.)
LEAN_ASCII = {"≤": "<=", "≥": ">=", "→": "->", "↔": "<->", "∧": "/\\", "∨": "\\/", "↦": "=>", "λ": "fun"}
LEAN_TYPE_NAMES = {"ℝ": "Real", "ℕ": "Nat", "ℤ": "Int", "ℚ": "Rat", "ℂ": "Complex"}

#: Isabelle's ASCII spellings of its symbols.
ISABELLE_ASCII = {"\\<exists>!": "EX! ", "\\<le>": "<=", "\\<ge>": ">=", "\\<noteq>": "~=", "\\<longrightarrow>": "-->",
                  "\\<and>": "&", "\\<or>": "|", "\\<not>": "~", "\\<forall>": "ALL ", "\\<exists>": "EX ",
                  "\\<Rightarrow>": "=>", "\\<lambda>": "%", "\\<notin>": "~:", "\\<in>": ":"}


def _statement_tokens(text: str) -> list[Token]:
    """The tokens of a Lean statement before its proof (``:=``)."""
    tokens = tokenize(text)
    depth = 0
    for i, t in enumerate(tokens):
        depth += (t.text in ("(", "{", "⦃") or t.text.startswith("[")) - (t.text in (")", "}", "]", "⦄"))
        if t.text == ":=" and depth == 0:  # `(f := λ n => …)` in a binder is no proof
            return tokens[:i]
    return [t for t in tokens if t.kind != "eof"]


def _replaced(text: str, spans: list[tuple[int, int, str]]) -> str:
    for start, end, new in sorted(spans, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def _binder_groups(tokens: list[Token]) -> Iterator[tuple[int, int]]:
    """(index of the opening bracket, index of its closing one) of the theorem's top-level
    binder groups: ``(x : ℝ)``, ``{n : ℕ}``, ``[Group G]``."""
    depth, start = 0, None
    for i, t in enumerate(tokens):
        if t.text in ("(", "{", "⦃") or t.text.startswith("["):  # `[ZMOD n]` opens with its name
            if depth == 0:
                start = i
            depth += 1
        elif t.text in (")", "}", "]", "⦄"):
            depth -= 1
            if depth == 0 and start is not None:
                yield start, i
        elif depth == 0 and t.text == ":":
            return  # the conclusion starts


def lean_respellings(text: str) -> dict[str, str]:
    tokens = _statement_tokens(text)
    out: dict[str, str] = {}
    source = [text[t.pos:t.end] for t in tokens]
    ascii_spans = [(t.pos, t.end, LEAN_ASCII[s]) for t, s in zip(tokens, source, strict=True) if s in LEAN_ASCII]
    if ascii_spans:
        out["ascii operators"] = _replaced(text, [(a, b, f" {n} ") for a, b, n in ascii_spans])
    names = [(t.pos, t.end, LEAN_TYPE_NAMES[s]) for t, s in zip(tokens, source, strict=True)
             if t.kind == "ident" and s in LEAN_TYPE_NAMES]
    if names:
        out["type names"] = _replaced(text, names)
    groups = list(_binder_groups(tokens))
    hyps = {tokens[i + 1].text for i, j in groups if j > i + 2 and tokens[i + 2].text == ":"
            and tokens[i].text == "("} & _hypothesis_names(text)
    if hyps:
        out["hypothesis names"] = _replaced(text, [(t.pos, t.end, f"hyp_{t.text}") for t in tokens
                                                   if t.kind == "ident" and t.text in hyps])
    split = []
    for i, j in groups:
        colon = next((k for k in range(i + 1, j) if tokens[k].text == ":"), None)
        if tokens[i].text == "(" and colon is not None and colon > i + 2 \
                and all(tokens[k].kind == "ident" for k in range(i + 1, colon)):
            ty = text[tokens[colon + 1].pos:tokens[j - 1].end]
            split.append((tokens[i].pos, tokens[j].end, " ".join(f"({tokens[k].text} : {ty})" for k in range(i + 1, colon))))
    if split:
        out["binder groups split"] = _replaced(text, split)
    big = [tokens[k + 2] for k in range(len(tokens) - 2)
           if tokens[k].text in ("∑", "∏") and tokens[k + 1].kind == "ident" and tokens[k + 2].text == "in"]
    if big:
        out["∑ x ∈ s"] = _replaced(text, [(t.pos, t.end, "∈") for t in big])
    roots = []
    for k, t in enumerate(tokens[:-1]):
        nxt = tokens[k + 1]
        if t.text == "Real.sqrt" and (nxt.kind in ("ident", "num") or nxt.text == "("):
            roots.append((t.pos, nxt.pos, "√"))
    if roots:
        out["√ notation"] = _replaced(text, roots)
    variables = [tokens[k].text for i, j in groups if tokens[i].text in ("(", "{")
                 for k in range(i + 1, next((c for c in range(i + 1, j) if tokens[c].text == ":"), i + 1))
                 if tokens[k].kind == "ident" and tokens[k].text not in hyps]
    named = [v for v in variables if not any(t.text != v and t.text.startswith(v + ".") for t in tokens)]
    if named:
        v = named[0]
        out["variable renamed"] = _replaced(text, [(t.pos, t.end, f"{v}_r") for t in tokens if t.kind == "ident" and t.text == v])
        same = [(i, j) for i, j in groups if tokens[i].text == "(" and sum(1 for k in range(i + 1, j) if tokens[k].text == ":") == 1
                and tokens[i + 3].text == ":" and tokens[i + 1].kind == tokens[i + 2].kind == "ident"]
        if same:
            i, _ = same[0]
            a, b = tokens[i + 1], tokens[i + 2]
            out["binders reordered"] = _replaced(text, [(a.pos, a.end, b.text), (b.pos, b.end, a.text)])
    binders = _binders_parenthesized(text, tokens)
    if binders != text:
        out["binders parenthesized"] = binders
    for kind, table in (("relations flipped", _CONVERSES), ("symmetric operands swapped", _SYMMETRIC)):
        rewritten = _rewritten(text, tokens, groups, table)
        if rewritten != text:
            out[kind] = rewritten
    if _numeric_only(text):
        commuted = _rewritten(text, tokens, groups, _COMMUTED)
        if commuted != text:
            out["+ and * commuted"] = commuted
        divides = _rewritten(text, tokens, groups, _DIVIDES)
        if divides != text:
            out["∣ by its definition"] = divides
    split_hyps = _conjunction_hypotheses_split(text, tokens, groups, hyps)
    if split_hyps != text:
        out["hypothesis conjunction split"] = split_hyps
    if _numeric_only(text) and "Complex" not in text and "ℂ" not in text:
        negated = _negated_orders(text, tokens, groups)
        if negated != text:
            out["negated orders"] = negated
    if _only_field_arithmetic(text, "sub", frozenset({"Int", "Rat", "Real", "Complex"})):
        signed = _rewritten(text, tokens, groups, _SIGNED)
        if signed != text:
            out["subtraction as adding the negation"] = signed
    if _only_field_arithmetic(text, "div", frozenset({"Rat", "Real", "Complex"})):
        inverted = _rewritten(text, tokens, groups, _INVERTED)
        if inverted != text:
            out["division as multiplying by the inverse"] = inverted
    if _numeric_only(text):
        doubled = _doubled(text, tokens, groups)
        if doubled != text:
            out["2 * x as x + x"] = doubled
    rewrites: dict[str, Callable[[], str]] = {
        "dot notation": lambda: _dot_notation(text, tokens, groups),
        "intervals by their bounds": lambda: _intervals_by_bounds(text, tokens),
        "∣ as a zero remainder": lambda: _rewritten(text, tokens, groups, _DIVIDES_BY_REMAINDER)
        if _only_field_arithmetic(text, "dvd", frozenset({"Nat", "Int"})) else text,
        "quantified variables swapped": lambda: _quantified_variables_swapped(text, tokens),
        "bound variables renamed": lambda: _bound_variables_renamed(text, tokens, groups, hyps),
        "binder styles swapped": lambda: _binder_styles_swapped(text, tokens, groups),
        "x ^ 2 as x * x": lambda: _squares_multiplied(text, tokens),
        "hypothesis into the goal": lambda: _hypothesis_into_goal(text, tokens, groups, hyps),
        "binder predicates expanded": lambda: _binder_predicates_expanded(text, tokens),
        "↔ by its definition": lambda: _rewritten(text, tokens, groups, _IFF),
        "¬ and ≠ by their definitions": lambda: _negations_unfolded(text, tokens, groups),
        "numerals as sums": lambda: _numerals_as_sums(text, tokens, groups, hyps),
    }
    for kind, rewrite in rewrites.items():
        rewritten = rewrite()
        if rewritten != text:
            out[kind] = rewritten
    adjacent = [(g, h) for g, h in itertools.pairwise(groups) if tokens[g[0] + 1].text in hyps and tokens[h[0] + 1].text in hyps]
    if adjacent:  # two hypotheses with no binder between them: neither can mention what the other binds
        (i1, j1), (i2, j2) = adjacent[0]
        first, second = text[tokens[i1].pos:tokens[j1].end], text[tokens[i2].pos:tokens[j2].end]
        out["hypotheses swapped"] = _replaced(text, [(tokens[i1].pos, tokens[j1].end, second),
                                                     (tokens[i2].pos, tokens[j2].end, first)])
    return out


#: Lean's definitions of the relations by their converses: ``a > b`` is ``b < a`` (``GT.gt``),
#: ``a ≥ b`` is ``b ≤ a``, ``a ≠ b`` is ``¬(a = b)`` (``Ne``).
_CONVERSES = {">": "{b} < {a}", "≥": "{b} ≤ {a}", ">=": "{b} ≤ {a}", "≠": "¬({a} = {b})"}

#: Symmetric relations and connectives, read with their operands swapped: ``Eq`` is symmetric,
#: ``∧`` / ``∨`` / ``↔`` commute as propositions.
_SYMMETRIC = {"=": "{b} = {a}", "∧": "{b} ∧ {a}", "∨": "{b} ∨ {a}", "↔": "{b} ↔ {a}"}

#: ``+`` and ``*`` with their operands swapped: commutative on ℕ, ℤ, ℚ, ℝ, ℂ and functions to
#: them (pointwise), not on groups or matrices (``_numeric_only`` decides where it applies);
#: Lean's ``binop%`` elaborator types the whole tree at once, so the order of the operands
#: changes no coercion.
_COMMUTED = {"+": "{b} + {a}", "*": "{b} * {a}"}


#: ``a ∣ b`` by its definition in a semigroup (``Dvd.dvd a b := ∃ c, b = a * c``).
_DIVIDES = {"∣": "∃ c_dvd, {b} = {a} * c_dvd"}


#: ``a ↔ b`` as the two implications (``iff_iff_implies_and_implies``).
_IFF = {"↔": "({a} → {b}) ∧ ({b} → {a})"}

#: ``a - b`` as ``a + -b`` (``sub_eq_add_neg``: in a ring; not on ℕ, whose ``-`` truncates).
_SIGNED = {"-": "{a} + -{b}"}

#: ``a / b`` as ``a * b⁻¹`` (``div_eq_mul_inv``: in a field; not ℕ / ℤ division).
_INVERTED = {"/": "{a} * {b}⁻¹"}


def _only_field_arithmetic(text: str, op: str, sorts: frozenset[str]) -> bool:
    """Whether the parsed statement has the operation ``op`` and only at ``sorts`` (every
    variable and subterm a number, where the rewrite of ``op`` holds)."""
    if not _numeric_only(text):
        return False
    st = parse(text, "lean4")
    formulas = [h.formula for h in st.hypotheses] + [st.conclusion]
    found = [t for f in formulas for t in subterms(f) if isinstance(t, App) and t.op in (op, "ediv", "fdiv")]
    return bool(found) and all(t.op == op and str(t.args[0].sort if op == "dvd" else t.sort) in sorts for t in found)


def _doubled(text: str, tokens: list[Token], groups: list[tuple[int, int]]) -> str:
    """Every outermost ``2 * e`` as ``(e + e)`` (``two_mul``: in every semiring)."""

    def respell(node: Any) -> str | None:
        if node.kind == "binop" and node.val == "*" and len(node.args) == 2 \
                and text[node.args[0].pos:node.args[0].end] == "2":
            e = text[node.args[1].pos:node.args[1].end]
            return f"(({e}) + ({e}))"
        return None

    return _outermost(text, tokens, groups, respell)


#: ``a ∣ b`` as ``b % a = 0`` on ℕ and ℤ (``Nat.dvd_iff_mod_eq_zero``, ``Int.dvd_iff_emod_eq_zero``;
#: at a = 0 both say b = 0, since b % 0 = b).
_DIVIDES_BY_REMAINDER = {"∣": "{b} % {a} = 0"}

#: The namespaces whose functions a variable of that type reaches by dot notation.
_DOT_NAMESPACES = {"Real": "Real", "Nat": "Nat", "Int": "Int"}
#: Tokens that bind a name (a bound variable may shadow a theorem's).
_BINDING = frozenset({"∀", "∃", "∃!", "fun", "λ", "∑", "∏", "⋃", "⋂", "{"})


def _dot_notation(text: str, tokens: list[Token], groups: list[tuple[int, int]]) -> str:
    """``Real.sqrt x`` as ``x.sqrt`` (``Nat.gcd a b`` as ``a.gcd b``): a theorem variable of type
    ``Real`` / ``Nat`` / ``Int`` given first to a function of that namespace, and bound nowhere
    else in the statement (a bound ``x : ℕ`` would make ``x.sqrt`` ``Nat.sqrt``)."""
    try:
        st = parse(text, "lean4")
    except ParseError:
        return text
    sorts = {b.var.name: str(b.var.sort) for b in st.binders if hasattr(b, "var")}
    starts = {i for i, _ in groups}
    rebound = {tokens[k + 1].text for k in range(len(tokens) - 1) if tokens[k].text in _BINDING and k not in starts}
    spans = []
    for k in range(len(tokens) - 1):
        fn, v = tokens[k], tokens[k + 1]
        if fn.kind != "ident" or fn.text.count(".") != 1 or v.kind != "ident" or "." in v.text:
            continue
        ns, name = fn.text.split(".")
        if ns not in _DOT_NAMESPACES or _DOT_NAMESPACES[ns] != sorts.get(v.text) or v.text in rebound or not name:
            continue
        if k > 0 and tokens[k - 1].text == "@":
            continue
        spans.append((fn.pos, v.end, f"{v.text}.{name}"))
    return _replaced(text, spans)


#: Membership in an interval by its bounds (``Set.mem_Icc`` …, ``Finset.mem_range``).
_INTERVALS = {"Set.Icc": "{a} ≤ {x} ∧ {x} ≤ {b}", "Set.Ico": "{a} ≤ {x} ∧ {x} < {b}",
              "Set.Ioc": "{a} < {x} ∧ {x} ≤ {b}", "Set.Ioo": "{a} < {x} ∧ {x} < {b}",
              "Finset.Icc": "{a} ≤ {x} ∧ {x} ≤ {b}", "Finset.Ico": "{a} ≤ {x} ∧ {x} < {b}",
              "Finset.Ioc": "{a} < {x} ∧ {x} ≤ {b}", "Finset.Ioo": "{a} < {x} ∧ {x} < {b}"}
_SIMPLE = ("ident", "num")


def _intervals_by_bounds(text: str, tokens: list[Token]) -> str:
    """``x ∈ Set.Icc a b`` as ``(a ≤ x ∧ x ≤ b)`` (and the other intervals, ``Finset.range n`` as
    ``x < n``) where x, a and b are single names or numerals and x is no function's argument."""
    spans = []
    for k in range(1, len(tokens) - 3):
        x, mem, iv = tokens[k], tokens[k + 1], tokens[k + 2]
        if mem.text != "∈" or x.kind not in _SIMPLE or tokens[k - 1].text not in _BEFORE_A_SQUARE:
            continue
        if iv.text == "Finset.range" and tokens[k + 3].kind in _SIMPLE:
            end = k + 3
            new = f"({x.text} < {tokens[end].text})"
        elif iv.text in _INTERVALS and k + 4 < len(tokens) and tokens[k + 3].kind in _SIMPLE \
                and tokens[k + 4].kind in _SIMPLE:
            end = k + 4
            new = "(" + _INTERVALS[iv.text].format(x=x.text, a=tokens[k + 3].text, b=tokens[k + 4].text) + ")"
        else:
            continue
        after = tokens[end + 1] if end + 1 < len(tokens) else None
        if after is not None and (after.kind in _SIMPLE or after.text in ("(", ".", "^")):
            continue  # `Set.Icc a b c`: not the whole interval
        spans.append((x.pos, tokens[end].end, new))
    return _replaced(text, spans)


def _quantified_variables_swapped(text: str, tokens: list[Token]) -> str:
    """``∀ x y, P`` as ``∀ y x, P`` (and ``∃``, ``∀ (x y : ℝ)``): two quantifiers of one kind
    commute. Only two plain names side by side, the first two of the block."""
    spans = []
    for k in range(len(tokens) - 3):
        if tokens[k].text not in ("∀", "∃"):
            continue
        first = k + 1 + (tokens[k + 1].text == "(")
        a, b = tokens[first], tokens[first + 1] if first + 1 < len(tokens) else tokens[first]
        if first + 1 >= len(tokens) or a.kind != "ident" or b.kind != "ident" or "." in a.text + b.text:
            continue
        spans.extend([(a.pos, a.end, b.text), (b.pos, b.end, a.text)])
    return _replaced(text, spans)


#: Tokens whose bound names scope over a body that runs as far as it can (not ``∑`` / ``∏``:
#: Mathlib parses their body at precedence 67, so in ``∏ k in s, 1 + f k`` the k of ``f k``
#: is another, auto-bound, variable — miniF2F ``induction_pord1p1on2powklt5on2``).
_BINDERS = frozenset({"∀", "∃", "∃!", "fun", "λ"})


def _bound_variables_renamed(text: str, tokens: list[Token], groups: list[tuple[int, int]], hyps: set[str]) -> str:
    """Every variable a ``∀`` / ``∃`` / ``fun`` / ``∑`` … binds renamed (``x`` as ``x_b``):
    alpha-renaming changes nothing. Only a name bound once, no theorem variable or hypothesis,
    every occurrence of it inside its binder's scope (up to the bracket that closes it)."""
    top = {tokens[k].text for i, j in groups
           for k in range(i + 1, next((c for c in range(i + 1, j) if tokens[c].text == ":"), j))}
    names = [t.text for t in tokens if t.kind == "ident"]
    spans = []
    for k, t in enumerate(tokens[:-1]):
        if t.text not in _BINDERS:
            continue
        first = k + 1 + (tokens[k + 1].text == "(")
        bound = []
        while first < len(tokens) and tokens[first].kind == "ident" and "." not in tokens[first].text:
            bound.append(first)
            first += 1
        end = _scope_end(tokens, k)
        for b in bound:
            v = tokens[b].text
            if v in top or v in hyps or v == "_" or f"{v}_b" in names:
                continue
            uses = [m for m, u in enumerate(tokens) if u.kind == "ident" and (u.text == v or u.text.startswith(v + "."))]
            binds = [m for m in uses if m - 1 >= 0 and (tokens[m - 1].text in _BINDERS or tokens[m - 1].text == "("
                                                        and m - 2 >= 0 and tokens[m - 2].text in _BINDERS)]
            if len(binds) != 1 or any(not (b <= m <= end) or tokens[m].text != v for m in uses):
                continue
            spans.extend((tokens[m].pos, tokens[m].end, f"{v}_b") for m in uses)
    return _replaced(text, sorted(set(spans)))


def _binder_styles_swapped(text: str, tokens: list[Token], groups: list[tuple[int, int]]) -> str:
    """Implicit theorem binders ``{x : ℝ}`` made explicit, or (with none) the first explicit
    variable binder made implicit: a binder's style changes how it is applied, not what the
    theorem says."""
    implicit = [(i, j) for i, j in groups if tokens[i].text == "{" and any(tokens[k].text == ":" for k in range(i, j))]
    if implicit:
        return _replaced(text, [s for i, j in implicit for s in ((tokens[i].pos, tokens[i].end, "("),
                                                                  (tokens[j].pos, tokens[j].end, ")"))])
    for i, j in groups:
        if tokens[i].text == "(" and j > i + 3 and tokens[i + 2].text == ":":
            return _replaced(text, [(tokens[i].pos, tokens[i].end, "{"), (tokens[j].pos, tokens[j].end, "}")])
    return text


#: Openers: a token after which a binder's body may end (its scope closes).
_OPEN = ("(", "{", "⦃", "⟨")
_CLOSE = (")", "}", "]", "⦄", "⟩")


def _depth_change(t: Token) -> int:
    return (t.text in _OPEN or t.text.startswith("[")) - (t.text in _CLOSE)


def _scope_end(tokens: list[Token], start: int) -> int:
    """The index of the last token of the term starting at ``start`` that runs as far as it
    can (a binder's body): to the closing bracket of its scope, or the statement's end."""
    depth = 0
    for j in range(start, len(tokens)):
        depth += _depth_change(tokens[j])
        if depth < 0:
            return j - 1
    return len(tokens) - 1


def _hypothesis_into_goal(text: str, tokens: list[Token], groups: list[tuple[int, int]], hyps: set[str]) -> str:
    """The last hypothesis ``(h : A)`` moved into the goal as ``A → C`` (a theorem's binders
    are the leading arrows of its type), when nothing else names ``h``."""
    if not groups:
        return text
    i, j = groups[-1]
    if tokens[i].text != "(" or j <= i + 3 or tokens[i + 2].text != ":" or tokens[i + 1].text not in hyps:
        return text
    name = tokens[i + 1].text
    if sum(1 for t in tokens if t.text == name or t.text.startswith(name + ".")) > 1:
        return text
    if j + 2 >= len(tokens) or tokens[j + 1].text != ":":
        return text
    hypothesis = text[tokens[i + 3].pos:tokens[j - 1].end]
    goal = text[tokens[j + 2].pos:tokens[-1].end]
    return _replaced(text, [(tokens[i].pos, tokens[j].end, ""),
                            (tokens[j + 2].pos, tokens[-1].end, f"({hypothesis}) → ({goal})")])


#: Mathlib's binder predicates: ``∀ x > a, p`` is ``∀ x, x > a → p`` and ``∃ x > a, p`` is
#: ``∃ x, x > a ∧ p`` (``binderPred``, a macro).
_BINDER_PREDICATES = frozenset({">", "≥", "<", "≤", "≠", "∈", "∉", "⊆", "⊂", "⊇", "⊃"})


def _binder_predicates_expanded(text: str, tokens: list[Token]) -> str:
    """The outermost ``∀ x ⋈ a, p`` / ``∃ x ⋈ a, p`` written as the macro expands them."""
    spans: list[tuple[int, int, str]] = []
    last = -1
    for k, t in enumerate(tokens):
        if t.text not in ("∀", "∃") or k + 3 >= len(tokens) or tokens[k].pos < last:
            continue
        x, rel = tokens[k + 1], tokens[k + 2]
        if x.kind != "ident" or "." in x.text or rel.text not in _BINDER_PREDICATES:
            continue
        depth, comma = 0, None
        for j in range(k + 3, len(tokens)):
            depth += _depth_change(tokens[j])
            if depth < 0:
                break
            if depth == 0 and tokens[j].text == ",":
                comma = j
                break
        if comma is None or comma == k + 3 or comma + 1 >= len(tokens):
            continue
        end = _scope_end(tokens, comma + 1)
        bound = text[tokens[k + 3].pos:tokens[comma - 1].end]
        body = text[tokens[comma + 1].pos:tokens[end].end]
        joint = "→" if t.text == "∀" else "∧"
        spans.append((t.pos, tokens[end].end, f"{t.text} {x.text}, {x.text} {rel.text} ({bound}) {joint} ({body})"))
        last = tokens[end].end
    return _replaced(text, spans)


def _negations_unfolded(text: str, tokens: list[Token], groups: list[tuple[int, int]]) -> str:
    """Every outermost ``¬p`` as ``p → False`` (``Not``'s definition) and ``a ≠ b`` as
    ``a = b → False`` (``Ne``'s)."""

    def respell(node: Any) -> str | None:
        if node.kind == "prefix" and node.val == "¬" and node.args:
            inner = node.args[0]
            return f"(({text[inner.pos:inner.end]}) → False)"
        if node.kind == "binop" and node.val == "≠" and len(node.args) == 2:
            a, b = (text[x.pos:x.end] for x in node.args)
            return f"(({a}) = ({b}) → False)"
        return None

    return _outermost(text, tokens, groups, respell)


def _numerals_as_sums(text: str, tokens: list[Token], groups: list[tuple[int, int]], hyps: set[str]) -> str:
    """Every natural numeral n ≥ 2 of the hypotheses and the goal as ``(1 + (n - 1))``:
    ``OfNat`` numerals add up in every semiring, and in ``Fin`` / ``ZMod`` alike. Numerals in a
    type (``Fin 5``, ``ZMod 7``: an argument of a capitalized name) stay."""
    regions = [(i + 3, j) for i, j in groups if tokens[i].text == "(" and j > i + 3 and tokens[i + 1].text in hyps
               and tokens[i + 2].text == ":"]
    colon = next((k for k, t in enumerate(tokens) if t.text == ":" and all(not (i <= k <= j) for i, j in groups)), None)
    if colon is not None:
        regions.append((colon + 1, len(tokens)))
    spans = []
    for a, b in regions:
        for k in range(a, b):
            t, before = tokens[k], tokens[k - 1]
            if t.kind != "num" or not t.text.isdigit() or int(t.text) < 2 or len(t.text) > 12:
                continue
            if before.kind == "ident" and before.text.split(".")[-1][:1].isupper() or before.text == ".":
                continue  # `Fin 5`, `ZMod 7`, `x.2`
            if k + 1 < len(tokens) and tokens[k + 1].text == ".":
                continue
            spans.append((t.pos, t.end, f"(1 + {int(t.text) - 1})"))
    return _replaced(text, spans)


def _proposition_trees(text: str, tokens: list[Token], groups: list[tuple[int, int]]) -> Iterator[Any]:
    """The parse trees of the hypotheses' types and of the conclusion."""
    full = tokenize(text)
    starts = [i + 3 for i, j in groups if tokens[i].text == "(" and j > i + 3 and tokens[i + 2].text == ":"]
    colon = next((k for k, t in enumerate(tokens) if t.text == ":" and all(not (i <= k <= j) for i, j in groups)), None)
    if colon is not None:
        starts.append(colon + 1)
    for k in starts:
        try:
            yield TermParser(full, text, k).expr(0)
        except ParseError:
            continue


def _outermost(text: str, tokens: list[Token], groups: list[tuple[int, int]],
               respell: Callable[[Any], str | None]) -> str:
    """``text`` with every outermost node of the hypotheses' types and the conclusion that
    ``respell`` rewrites (it returns the node's new text, or None to look inside it)
    replaced; a node inside a ``(· ≠ ·)`` λ is left alone (parentheses would change which
    argument each ``·`` is)."""
    spans: list[tuple[int, int, str]] = []
    for tree in _proposition_trees(text, tokens, groups):
        stack = [tree]
        while stack:
            node = stack.pop()
            if "·" in text[node.pos:node.end]:
                continue
            new = respell(node)
            if new is not None:
                spans.append((node.pos, node.end, new))
                continue  # outermost only: spans never overlap
            stack.extend(node.args)
    return _replaced(text, spans)


def _rewritten(text: str, tokens: list[Token], groups: list[tuple[int, int]], table: dict[str, str]) -> str:
    """Every outermost binary operation of ``table`` in the hypotheses' types and the
    conclusion written by its template (operands parenthesized)."""

    def respell(node: Any) -> str | None:
        if node.kind == "binop" and node.val in table and len(node.args) == 2:
            a, b = (f"({text[x.pos:x.end]})" for x in node.args)
            return "(" + table[node.val].format(a=a, b=b) + ")"
        return None

    return _outermost(text, tokens, groups, respell)


def _numeric_only(text: str) -> bool:
    """Whether every variable and every subterm of the parsed statement is a number of ℕ, ℤ,
    ℚ, ℝ, ℂ, a proposition or a function between them: where ``+`` and ``*`` commute."""
    try:
        st = parse(text, "lean4")
    except ParseError:
        return False
    numeric = {"Nat", "Int", "Rat", "Real", "Complex", "Bool"}

    def ok(sort: object) -> bool:
        if isinstance(sort, FunSort):
            return all(ok(s) for s in (*sort.args, sort.result))
        return str(sort) in numeric

    formulas = [h.formula for h in st.hypotheses] + [st.conclusion]
    return all(ok(v.sort) for v in st.variables) and all(ok(t.sort) for f in formulas for t in subterms(f))


#: Tokens after which ``x ^ 2`` stands alone: openers, separators and binary operators looser
#: than ``^`` (not ``-``, which may be the prefix negation, nor ``√``, ``↑``, ``¬``).
_BEFORE_A_SQUARE = frozenset({"(", "[", ",", ":", "+", "*", "/", "=", "≠", "<", "≤", ">", "≥", "<=", ">=",
                              "∧", "∨", "→", "↔", "=>", "↦", "∣"})


def _conjunction_hypotheses_split(text: str, tokens: list[Token], groups: list[tuple[int, int]],
                                  hyps: set[str]) -> str:
    """``(h : A ∧ B)`` as ``(h : A) (h_2 : B)`` (each conjunct its own hypothesis), for a
    hypothesis no later binder names (``h.1``)."""
    full = tokenize(text)
    spans = []
    for i, j in groups:
        if tokens[i].text != "(" or j <= i + 3 or tokens[i + 2].text != ":" or tokens[i + 1].text not in hyps:
            continue
        name = tokens[i + 1].text
        if sum(1 for t in tokens if t.text == name or t.text.startswith(name + ".")) > 1:
            continue  # named again (`h.1`, `h.2`): splitting would break the reference
        try:
            tree = TermParser(full, text, i + 3).expr(0)
        except ParseError:
            continue
        if tree.kind != "binop" or tree.val != "∧" or tree.end != tokens[j - 1].end:
            continue
        a, b = (text[x.pos:x.end] for x in tree.args)
        spans.append((tokens[i].pos, tokens[j].end, f"({name} : {a}) ({name}_2 : {b})"))
    return _replaced(text, spans)


#: ``¬(a < b)`` is ``b ≤ a`` and ``¬(a ≤ b)`` is ``b < a`` in a linear order (ℕ, ℤ, ℚ, ℝ).
_NEGATED = {"<": "({b}) ≤ ({a})", "≤": "({b}) < ({a})", "<=": "({b}) < ({a})"}


def _negated_orders(text: str, tokens: list[Token], groups: list[tuple[int, int]]) -> str:
    """Every outermost ``¬(a < b)`` / ``¬(a ≤ b)`` of the hypotheses and the conclusion by
    its linear-order equivalent."""

    def respell(node: Any) -> str | None:
        inner = node.args[0] if node.kind == "prefix" and node.val == "¬" and node.args else None
        while inner is not None and inner.kind == "paren":
            inner = inner.args[0]
        if inner is not None and inner.kind == "binop" and inner.val in _NEGATED and len(inner.args) == 2:
            a, b = (text[x.pos:x.end] for x in inner.args)
            return "(" + _NEGATED[inner.val].format(a=a, b=b) + ")"
        return None

    return _outermost(text, tokens, groups, respell)


def _squares_multiplied(text: str, tokens: list[Token]) -> str:
    """``x ^ 2`` as ``(x * x)`` (``sq``: true in every monoid) for a variable standing alone:
    not an argument (``f x ^ 2`` is ``(f x) ^ 2``), not a field's owner (``x.1 ^ 2``)."""
    spans = []
    for k in range(1, len(tokens) - 2):
        x, hat, two = tokens[k], tokens[k + 1], tokens[k + 2]
        before, after = tokens[k - 1], tokens[k + 3] if k + 3 < len(tokens) else None
        if x.kind != "ident" or "." in x.text or hat.text != "^" or two.text != "2":
            continue
        if before.text not in _BEFORE_A_SQUARE:
            continue  # an argument (``f x ^ 2``), a prefix's operand (``-x ^ 2``, ``√x ^ 2``)
        if after is not None and (after.text in (".", "^") or after.kind in ("ident", "num") or after.text == "("):
            continue  # ``x ^ 2 ^ n``, ``x ^ 2.5``
        spans.append((x.pos, two.end, f"({x.text} * {x.text})"))
    return _replaced(text, spans)


def _binders_parenthesized(text: str, tokens: list[Token]) -> str:
    """``∀ x y : ℝ, P`` as ``∀ (x y : ℝ), P`` (and ``∃``): the type runs to the comma at the
    binder's depth."""
    spans = []
    for k, t in enumerate(tokens):
        if t.text not in ("∀", "∃") or k + 2 >= len(tokens) or tokens[k + 1].kind != "ident":
            continue
        colon = k + 1
        while colon < len(tokens) and tokens[colon].kind == "ident":
            colon += 1
        if colon >= len(tokens) or tokens[colon].text != ":":
            continue
        depth, end = 0, None
        for j in range(colon + 1, len(tokens)):
            depth += (tokens[j].text in ("(", "{", "⦃") or tokens[j].text.startswith("[")) - (tokens[j].text in (")", "}", "]", "⦄"))
            if depth < 0:
                break
            if depth == 0 and tokens[j].text == ",":
                end = j
                break
        if end is not None and end > colon + 1:
            spans.append((tokens[k + 1].pos, tokens[end - 1].end, "(" + text[tokens[k + 1].pos:tokens[end - 1].end] + ")"))
    spans.sort()
    kept, last = [], -1
    for a, b, new in spans:  # outermost first: nested binders inside a kept span stay as written
        if a >= last:
            kept.append((a, b, new))
            last = b
    return _replaced(text, kept)


def _hypothesis_names(text: str) -> set[str]:
    """The names the parsed statement gives its hypotheses (a variable named ``h`` is none)."""
    try:
        st = parse(text, "lean4")
    except ParseError:
        return set()
    return {b.name for b in st.binders if isinstance(b, Hypothesis) and b.name}


_FIXES = re.compile(r'(\b(?:fixes|and)\s+)((?:[A-Za-z_]\w*\s+)+[A-Za-z_]\w*)(\s*::\s*("[^"]*"|\w+))')
_LABEL = re.compile(r'(\b(?:assumes|and)\s+)([A-Za-z_]\w*)(\s*:(?!:))')
_ASSUMPTION = re.compile(r'(?:assumes|and)\s+(?:[A-Za-z_]\w*\s*:(?!:)\s*)?("[^"]*")')


def isabelle_respellings(text: str) -> dict[str, str]:
    out: dict[str, str] = {}
    ascii_text = text
    for sym, ascii in ISABELLE_ASCII.items():
        ascii_text = ascii_text.replace(sym, ascii)
    if ascii_text != text:
        out["ascii symbols"] = ascii_text
    body = min((m.start() for m in re.finditer(r"\b(?:assumes|shows)\b", text)), default=len(text))
    # `\<^sup>2` binds tighter than application (`sin(x)\<^sup>2` is sin (x²)), `^` looser:
    # only a variable standing alone (after an operator or a parenthesis) is respelled
    sup = re.sub(r'(?<=[(+\-*/=<>,\s"])([A-Za-z]\w*)\^([0-9])(?![0-9])(?=[\s)+\-*/=<>,"])',
                 lambda m: m.group(1) + "\\<^sup>" + m.group(2), text[body:])
    sup = text[:body] + sup  # terms only: `real^2` in `fixes` is a type (HOL-Analysis's vectors)
    sup = sup if sup == text or not re.search(r"\w\s+[A-Za-z]\w*\\<\^sup>", sup) else text  # `f x\<^sup>2`
    if sup != text:
        out["superscript powers"] = sup
    split = _FIXES.sub(lambda m: m.group(1) + " and ".join(f"{n}{m.group(3)}" for n in m.group(2).split()), text)
    if split != text:
        out["fixes split"] = split
    fixes = re.search(r"\bfixes\s+([A-Za-z_]\w*)\s+([A-Za-z_]\w*)\s*::", text)
    if fixes:
        a, b = fixes.span(1), fixes.span(2)
        out["fixes reordered"] = text[:a[0]] + fixes.group(2) + text[a[1]:b[0]] + fixes.group(1) + text[b[1]:]
        name = fixes.group(1)
        # every occurrence, bound ones too (`∀ P. f P`): a uniform renaming keeps the binding structure
        renamed = re.sub(rf"(?<![\w'\\<])(?<!\w\.){re.escape(name)}(?![\w'>])", f"{name}_r", text)
        if renamed != text:
            out["variable renamed"] = renamed
    relabelled = _LABEL.sub(lambda m: f"{m.group(1)}lab_{m.group(2)}{m.group(3)}", text)
    if relabelled != text:
        out["labels renamed"] = relabelled
    shows = re.search(r"\bshows\b", text)
    quoted = [m.span(1) for m in _ASSUMPTION.finditer(text) if shows is None or m.end() <= shows.start()]
    if len(quoted) >= 2:
        (a0, a1), (b0, b1) = quoted[:2]
        out["assumptions swapped"] = text[:a0] + text[b0:b1] + text[a1:b0] + text[a0:a1] + text[b1:]
    conjunctions = [(span, parts) for span in quoted if len(parts := _top_conjuncts(text[span[0] + 1:span[1] - 1])) > 1]
    conclusion = re.search(r'\bshows\s+(?:[A-Za-z_]\w*\s*:(?!:)\s*)?("[^"]*")', text)
    shown = [] if conclusion is None else [(conclusion.span(1), parts) for parts in
                                           [_top_conjuncts(conclusion.group(1)[1:-1])] if len(parts) > 1]
    if conjunctions or shown:
        swapped = [(a, b, '"' + " \\<and> ".join([f"({p})" for p in (parts[1], parts[0], *parts[2:])]) + '"')
                   for (a, b), parts in conjunctions + shown]
        out["conjuncts swapped"] = _replaced(text, swapped)
    relations = [((a, b), sides) for (a, b) in quoted + ([conclusion.span(1)] if conclusion else [])
                 if (sides := _relation_sides(text[a + 1:b - 1])) is not None]
    equations = [(span, (lhs, rhs)) for span, (lhs, rel, rhs) in relations if rel == "="]
    if equations:
        out["equations reversed"] = _replaced(text, [(a, b, f'"({rhs}) = ({lhs})"') for (a, b), (lhs, rhs) in equations])
    summed = [(span, (lhs, rel, rhs), (_top_summands(lhs), _top_summands(rhs))) for span, (lhs, rel, rhs) in relations]
    commuted = [(span, sides, sums) for span, sides, sums in summed if any(len(p) > 1 for p in sums)]
    if commuted:
        out["sums commuted"] = _replaced(text, [
            (a, b, '"' + f" {_SPELLED[rel]} ".join(" + ".join(f"({p})" for p in reversed(ps)) for ps in sums) + '"')
            for (a, b), (lhs, rel, rhs), sums in commuted])
    others = [(span, sides) for span, sides in relations if sides[1] != "="]
    if others:
        out["relations flipped"] = _replaced(text, [(a, b, '"' + _ISABELLE_FLIPPED[rel].format(l=lhs, r=rhs) + '"')
                                                    for (a, b), (lhs, rel, rhs) in others])
    for kind, rewrite in _ISABELLE_REWRITES.items():
        rewritten = rewrite(text)
        if rewritten != text:
            out[kind] = rewritten
    if conjunctions:
        split = [(a, b, " and ".join(f'{"" if k == 0 else f"conj_{n}_{k}: "}"{p}"' for k, p in enumerate(parts)))
                 for n, ((a, b), parts) in enumerate(conjunctions)]
        out["conjunction split"] = _replaced(text, split)
    return out


#: ``∀x y. P`` / ``∃x y. P`` with exactly two names (swapped, they are the same formula).
_ISABELLE_TWO_BOUND = re.compile(r"(\\<(?:forall|exists)>\s*)([A-Za-z]\w*) ([A-Za-z]\w*)(\s*\.)")

_ISABELLE_BINDER = re.compile(r"(\\<(?:forall|exists|lambda|Sum|Prod)>!?|\b(?:ALL|EX)\b|%)\s*((?:[A-Za-z]\w*\s*)+)(?=\.|\\<in>|::)")


def _isabelle_bound_variables_renamed(text: str) -> str:
    """Every variable a ``∀`` / ``∃`` / ``λ`` / ``∑`` … binds renamed (``x`` as ``x_b``) inside
    its quoted term, for a name no ``fixes`` declares, bound once in the statement, and not
    written before its binder or in another quoted term."""
    fixed = set()
    for m in _FIXES.finditer(text):
        fixed.update(m.group(2).split())
    fixed.update(re.findall(r"\bfixes\s+([A-Za-z_]\w*)", text))
    spans = []
    quotes = [(q.start(), q.end()) for q in re.finditer(r'"[^"]*"', text)]
    for m in _ISABELLE_BINDER.finditer(text):
        quote = next(((a, b) for a, b in quotes if a < m.start() < b), None)
        if quote is None:
            continue
        for v in m.group(2).split():
            word = rf"(?<![\w'\\<])(?<!\w\.){re.escape(v)}(?![\w'>])"  # `{1..n}` reads n, `p.n` does not
            uses = [u.start() for u in re.finditer(word, text)]
            binds = [b for b in _ISABELLE_BINDER.finditer(text) if v in b.group(2).split()]
            if v in fixed or len(binds) != 1 or re.search(rf"\b{re.escape(v)}_b\b", text):
                continue
            if any(not (m.start() <= u < quote[1]) for u in uses):
                continue
            spans.extend((u, u + len(v), f"{v}_b") for u in uses)
    return _replaced(text, sorted(set(spans)))


_ISABELLE_INTERVAL = re.compile(r"(?<=[\s(\"])([A-Za-z_]\w*|\d+)\s*\\<in>\s*\{([A-Za-z_]\w*|\d+)(<?)\.\.(<?)([A-Za-z_]\w*|\d+)\}")


def _isabelle_intervals_by_bounds(text: str) -> str:
    """``x ∈ {a..b}`` as ``(a ≤ x ∧ x ≤ b)`` (``{a<..<b}``, ``{a..<b}``, ``{a<..b}`` alike:
    ``atLeastAtMost_iff`` …) for single names or numerals, in the quoted terms."""
    body = min((m.start() for m in re.finditer(r"\b(?:assumes|shows)\b", text)), default=len(text))

    def one(m: re.Match) -> str:
        before = m.string[:m.start()].rstrip()
        if re.search(r"(\\<(?:forall|exists|Sum|Prod|Union|Inter|lambda)>!?|\b(?:ALL|EX|SOME|THE|LEAST|GREATEST)|[{%])$",
                     before):
            return m.group()  # `∀x ∈ {1..9}. P`, `{x ∈ {1..9}. P}`: a binder's range, no membership
        if re.search(r"[\w')]$", before):
            return m.group()  # `f x ∈ {1..9}`: x is an argument
        x, a, lo, hi, b = m.groups()
        left = "<" if lo else "\\<le>"
        right = "<" if hi else "\\<le>"
        return f"({a} {left} {x} \\<and> {x} {right} {b})"

    return text[:body] + _ISABELLE_INTERVAL.sub(one, text[body:])


def _parity_by_definition(text: str) -> str:
    """``even t`` as ``2 dvd t`` and ``odd t`` as ``\\<not> 2 dvd t`` (HOL's definitions) for an
    argument that is a name or a parenthesized term, in the quoted terms."""
    body = min((m.start() for m in re.finditer(r"\b(?:assumes|shows)\b", text)), default=len(text))

    def one(m: re.Match) -> str:
        arg = m.group(2)
        return f"(2 dvd {arg})" if m.group(1) == "even" else f"(\\<not> 2 dvd {arg})"

    arg = r"([A-Za-z_]\w*|\((?:[^()]|\([^()]*\))*\))"
    rewritten = re.sub(rf"\b(even|odd)\s+{arg}(?![\w(])", one, text[body:])
    return text[:body] + rewritten


_ASSUMPTION_WHOLE = re.compile(r'\b(assumes|and)\s+(?:[A-Za-z_]\w*\s*:(?!:)\s*)?("[^"]*")')


def _assumption_into_conclusion(text: str) -> str:
    """The last assumption ``A`` moved into the one conclusion ``C`` as ``A ⟶ C`` (a theorem's
    assumptions are the premises of its meta-implication)."""
    if re.search(r"\b(?:defines|obtains)\b", text):
        return text
    shows = list(re.finditer(r'\bshows\s+(?:[A-Za-z_]\w*\s*:(?!:)\s*)?("[^"]*")', text))
    if len(shows) != 1 or '"' in text[shows[0].end():] \
            or re.search(r"\\<Longrightarrow>|==>|⟹", shows[0].group(1)):  # several conclusions, or a `⟹`
        return text
    found = [m for m in _ASSUMPTION_WHOLE.finditer(text) if m.end() <= shows[0].start()]
    if not found:
        return text
    last = found[-1]
    if last.group(1) == "assumes" and len(found) > 1 or re.search(r"\\<Longrightarrow>|==>|⟹", last.group(2)):
        return text  # a meta-implication `⟹` has no place inside HOL's `⟶`
    a0, a1 = shows[0].span(1)
    moved = f'"({last.group(2)[1:-1]}) \\<longrightarrow> ({text[a0 + 1:a1 - 1]})"'
    return _replaced(text, [(last.start(), last.end(), ""), (a0, a1, moved)])


#: ``∀x∈A. P`` is ``∀x. x ∈ A ⟶ P`` and ``∃x∈A. P`` is ``∃x. x ∈ A ∧ P`` (``Ball``, ``Bex``).
_BOUNDED = re.compile(r"\\<(forall|exists)>\s*([A-Za-z_]\w*)\s*\\<in>")


def _bounded_quantifiers_expanded(text: str) -> str:
    """Every outermost bounded quantifier of the quoted terms written by its definition."""
    spans: list[tuple[int, int, str]] = []
    last = -1
    for m in _BOUNDED.finditer(text):
        if m.start() < last:
            continue
        quote_end = text.find('"', m.end())
        if quote_end < 0:
            continue
        depth, dot = 0, None
        for k in range(m.end(), quote_end):
            c = text[k]
            depth += (c in "([{") - (c in ")]}")
            if depth < 0:
                break
            if depth == 0 and c == "." and text[k + 1:k + 2] != "." and text[k - 1:k] != ".":
                dot = k
                break
        if dot is None:
            continue
        depth, end = 0, quote_end
        for k in range(dot + 1, quote_end):
            depth += (text[k] in "([{") - (text[k] in ")]}")
            if depth < 0:
                end = k
                break
        bound, body, x = text[m.end():dot].strip(), text[dot + 1:end].strip(), m.group(2)
        if not bound or not body:
            continue
        joint = "\\<longrightarrow>" if m.group(1) == "forall" else "\\<and>"
        spans.append((m.start(), end, f"\\<{m.group(1)}>{x}. {x} \\<in> ({bound}) {joint} ({body})"))
        last = end
    return _replaced(text, spans)


def _isabelle_numerals_as_sums(text: str) -> str:
    """Every numeral n ≥ 2 of the assumptions and conclusions as ``(1 + (n - 1))``: a numeral of
    any type is its sum of ones. Not a superscript (``x\\<^sup>2``), a decimal or part of a name."""
    body = min((m.start() for m in re.finditer(r"\b(?:assumes|shows)\b", text)), default=len(text))
    spans = []
    for q in re.finditer(r'"[^"]*"', text[body:]):
        for m in re.finditer(r"(?<![\w.'>\\])\d+(?![\w.'])", q.group()):
            if int(m.group()) >= 2 and len(m.group()) <= 12:
                start = body + q.start() + m.start()
                spans.append((start, start + len(m.group()), f"(1 + {int(m.group()) - 1})"))
    return _replaced(text, spans)


#: Tokens at the top of an assumption under which a ``\<and>`` is not a top-level conjunction
#: (a binder's body runs to the end; ``⟶``, ``∨``, ``↔`` bind looser than ``∧``).
_LOOSER = re.compile(r"\\<(?:longrightarrow|Longrightarrow|or|longleftrightarrow|forall|exists|lambda)>|-->|\||"
                     r"\b(?:ALL|EX|if|let|case|THE|SOME|LEAST|GREATEST)\b|[%.]")


#: Isabelle's relations, by the spellings a term's top level may use.
_RELATIONS = {"\\<noteq>": "≠", "\\<le>": "≤", "\\<ge>": "≥", "~=": "≠", "<=": "≤", ">=": "≥", "=": "=", "<": "<", ">": ">"}
#: At the top of a term, what makes a relation there no relation of the whole (``a = b ∧ c``,
#: ``x ∈ A = B``, ``a dvd b = c``).
_NOT_ONE_RELATION = re.compile(r"\\<(?:and|in|notin|subseteq|subset|equiv|Rightarrow)>|[&~:]|\bdvd\b|==|<-|->")
#: The converse (or the definition) of each relation: ``a > b`` is ``b < a``, ``a ≠ b`` is ``¬ a = b``.
_ISABELLE_FLIPPED = {"=": "({r}) = ({l})", "<": "({r}) > ({l})", ">": "({r}) < ({l})", "≤": "({r}) \\<ge> ({l})",
                     "≥": "({r}) \\<le> ({l})", "≠": "\\<not> (({l}) = ({r}))"}


#: One Isabelle spelling of each relation.
_SPELLED = {"=": "=", "≠": "\\<noteq>", "≤": "\\<le>", "≥": "\\<ge>", "<": "<", ">": ">"}


def _top_level(term: str, spellings: tuple[str, ...]) -> tuple[str, list[tuple[int, str]]] | None:
    """The top level of an Isabelle term: its text outside brackets (each of ``spellings``
    found there blanked, every other ``\\<symbol>`` kept whole) and where each spelling was
    found; None when the brackets do not balance. A ``<`` or ``>`` in an arrow (``-->``,
    ``<-``, ``=>``) or a symbol is not the relation."""
    depth, k, found, top = 0, 0, [], []
    while k < len(term):
        c = term[k]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0:
            spelled = next((sp for sp in spellings if term.startswith(sp, k)), None)
            if spelled is not None and not (spelled in "<>" and term.startswith(("\\<", "<-", "->", "=>", "==", "<>"),
                                                                               k - (c == ">"))):
                found.append((k, spelled))
                top.append(" ")
                k += len(spelled)
                continue
            if term.startswith("\\<", k):  # another symbol: kept whole
                close = term.find(">", k)
                top.append(term[k:close + 1] if close > 0 else c)
                k = close + 1 if close > 0 else k + 1
                continue
        if depth == 0:
            top.append(c)
        k += 1
    return None if depth != 0 else ("".join(top), found)


def _pieces(term: str, found: list[tuple[int, str]]) -> list[str]:
    """``term`` cut at the places ``found`` (the cuts themselves left out), each piece stripped."""
    bounds = [(0, 0), *((k, len(sp)) for k, sp in found), (len(term), 0)]
    return [term[bounds[i][0] + bounds[i][1]:bounds[i + 1][0]].strip() for i in range(len(bounds) - 1)]


def _top_summands(term: str) -> list[str]:
    """The summands of a term that is a sum at its top level and nothing else there (no ``-``,
    ``*``, ``/``, ``^``, binder, symbol or other operator beside the ``+``), else [term]."""
    scanned = _top_level(term, ("+",))
    if scanned is None or not scanned[1] or re.search(
            r"[-*/^<>=&|~:%.,]|\\<|\b(?:div|mod|powr|dvd|of|if|let|case)\b", scanned[0]):
        return [term]
    parts = _pieces(term, scanned[1])
    return parts if all(parts) else [term]


def _relation_sides(term: str) -> tuple[str, str, str] | None:
    """``(l, relation, r)`` of an Isabelle term whose top level is one relation, else None."""
    scanned = _top_level(term, tuple(_RELATIONS))
    if scanned is None or len(scanned[1]) != 1 or _LOOSER.search(scanned[0]) or _NOT_ONE_RELATION.search(scanned[0]):
        return None
    left, right = _pieces(term, scanned[1])
    return (left, _RELATIONS[scanned[1][0][1]], right) if left and right else None


def _top_conjuncts(term: str) -> list[str]:
    """The conjuncts of an Isabelle term whose top level is a ``\\<and>`` chain (else [term])."""
    scanned = _top_level(term, ("\\<and>",))
    if scanned is None or not scanned[1] or _LOOSER.search(scanned[0]) or "&" in scanned[0]:
        return [term]
    parts = _pieces(term, scanned[1])
    return parts if all(parts) else [term]


def _quantifiers_swapped(text: str) -> str:
    return _ISABELLE_TWO_BOUND.sub(lambda m: f"{m.group(1)}{m.group(3)} {m.group(2)}{m.group(4)}", text)


#: Isabelle respellings that each rewrite the whole text (stop 61), by name.
_ISABELLE_REWRITES: dict[str, Callable[[str], str]] = {
    "quantified variables swapped": _quantifiers_swapped,
    "bound variables renamed": _isabelle_bound_variables_renamed,
    "intervals by their bounds": _isabelle_intervals_by_bounds,
    "even / odd by their definitions": _parity_by_definition,
    "assumption into the conclusion": _assumption_into_conclusion,
    "bounded quantifiers expanded": _bounded_quantifiers_expanded,
    "numerals as sums": _isabelle_numerals_as_sums,
}

RESPELLINGS: dict[str, Callable[[str], dict[str, str]]] = {"lean4": lean_respellings, "isabelle": isabelle_respellings}


def statements(path: Path) -> Iterator[tuple[str, str, str]]:
    """(id, language, text) of every statement a data file holds (candidates, references)."""
    for row in map(json.loads, path.open()):
        language = row.get("language") or ("isabelle" if "isabelle" in path.name else "lean4")
        texts = [row[k] for k in ("formal", "reference", "candidate") if isinstance(row.get(k), str)]
        texts += [c["formal"] for c in row.get("candidates", []) if isinstance(c.get("formal"), str)]
        for i, t in enumerate(dict.fromkeys(texts)):
            yield f"{row.get('id', '?')}#{i}", language, t


#: Rewrites that keep the meaning but change the formula's structure (a relation becomes a
#: quantified one, ``↔`` two implications, ``∣`` an equation): ``sae`` compares a premise-free
#: statement's structure by design (the same relation at each leaf), so only the other
#: relations must agree on them.
RESTRUCTURING = frozenset({"∣ by its definition", "↔ by its definition", "∣ as a zero remainder"})


def check(text: str, language: str, relations: tuple[str, ...], timeout: float,
          kinds: frozenset[str] | None = None) -> list[dict]:
    """Each respelling of ``text`` against it, under each relation (statements that do not parse
    are skipped: their respellings have nothing to agree with)."""
    try:
        original = parse(text, language)
    except ParseError:
        return []
    rows = []
    for kind, respelled in RESPELLINGS[language](text).items():
        if kinds is not None and kind not in kinds:
            continue
        try:
            other = parse(respelled, language)
        except ParseError as e:
            rows.append({"respelling": kind, "status": "parse error", "reason": str(e)[:200]})
            continue
        for relation in relations:
            if relation == "sae" and kind in RESTRUCTURING:
                continue
            v = check_equivalence(original, other, relation=relation, timeout=timeout, language=language)
            rows.append({"respelling": kind, "relation": relation, "status": v.status, "reason": v.reason[:300]})
    return rows


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("data", nargs="+", type=Path, help="JSONL files of statements (candidates, references)")
    ap.add_argument("--relations", default="sae,symbolic", help="relations to check under (comma-separated)")
    ap.add_argument("--timeout", type=float, default=1.0, help="seconds per solver call")
    ap.add_argument("--limit", type=int, default=0, help="at most this many statements per file (0: all)")
    ap.add_argument("--out", type=Path, help="one JSON line per respelling checked")
    ap.add_argument("--kinds", help="only these respellings (comma-separated names, as in the table); default all")
    args = ap.parse_args(argv)
    relations = tuple(args.relations.split(","))
    kinds = frozenset(args.kinds.split(",")) if args.kinds else None
    todo = [s for path in args.data for k, s in enumerate(statements(path)) if not args.limit or k < args.limit]
    counts: collections.Counter = collections.Counter()
    unsound = []
    out = args.out.open("w") if args.out else None
    for sid, language, text in tqdm(todo, desc="respellings", unit="statement"):
        for row in check(text, language, relations, args.timeout, kinds):
            row = {"id": sid, **row}
            counts[(row["respelling"], row.get("relation", "-"), row["status"])] += 1
            if row["status"] == "inequivalent":
                unsound.append(row)
            if out:
                out.write(json.dumps(row, ensure_ascii=False) + "\n")
    print("| respelling | relation | equivalent | inconclusive | inequivalent | parse error |")
    print("|---|---|---:|---:|---:|---:|")
    for kind, relation in sorted({(k, r) for k, r, _ in counts}):
        c = {s: counts[(kind, relation, s)] for s in ("equivalent", "inconclusive", "inequivalent", "parse error")}
        print(f"| {kind} | {relation} | {c['equivalent']} | {c['inconclusive']} | {c['inequivalent']} | {c['parse error']} |")
    for row in unsound:
        print("UNSOUND", row["id"], row["respelling"], row["relation"], row["reason"][:200])
    return 1 if unsound else 0


if __name__ == "__main__":
    raise SystemExit(main())
