"""Property tests for the Lean 4 frontend.

- random well-formed IR statements (a small grammar over ℕ, ℤ, ℝ) print to Lean and parse
  back to the same statement;
- random junk text, token soup and random mutations of real statements never raise anything
  but ``ParseError`` (or parse).
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provers.errors import ParseError
from provers.ir import (
    INT,
    NAT,
    REAL,
    Hypothesis,
    Num,
    Quant,
    Sort,
    Statement,
    Term,
    Var,
    VarBinder,
    app,
    cast,
)
from provers.lean4.parser import parse_lean
from provers.lean4.printer import render
from provers.lean4.sorts import flat

ROOT = Path(__file__).resolve().parent.parent
REAL_STATEMENTS = [json.loads(line)["text"] for line in (ROOT / "tests/fixtures/lean/statements.jsonl").open(encoding="utf-8")]
SORTS = (NAT, INT, REAL)
NAMES = ("a", "b", "c", "x", "y", "z", "u", "v", "w")
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# -- a grammar of well-formed statements ----------------------------------------------------------


def numerals(sort: Sort) -> st.SearchStrategy[Term]:
    ints = st.integers(0, 50).map(lambda v: Num(v, sort))
    if sort == REAL:
        dec = st.builds(lambda p, q: Num(Fraction(p, q), REAL), st.integers(0, 99), st.sampled_from([2, 4, 5, 10, 8]))
        return st.one_of(ints, dec)
    return ints


@st.composite
def terms(draw, sort: Sort, env: tuple[Var, ...], depth: int) -> Term:
    vs = [v for v in env if v.sort == sort]
    leaf = st.one_of(numerals(sort), *( [st.sampled_from(vs)] if vs else []))
    if depth <= 0:
        return draw(leaf)
    sub = lambda s=sort: terms(s, env, depth - 1)  # noqa: E731
    choices = ["leaf", "add", "sub", "mul", "div", "pow"]
    if sort in (INT, REAL):
        choices += ["neg", "abs"]
    if sort in (NAT, INT):
        choices += ["mod"]
    if sort != NAT:
        choices += ["cast"]
    if sort == REAL:
        choices += ["sqrt", "inv"]
    kind = draw(st.sampled_from(choices))
    if kind == "leaf":
        return draw(leaf)
    if kind in ("add", "sub", "mul"):
        return app(kind, draw(sub()), draw(sub()))
    if kind == "div":
        return app("ediv" if sort == INT else "div", draw(sub()), draw(sub()))
    if kind == "mod":
        return app("emod" if sort == INT else "mod", draw(sub()), draw(sub()))
    if kind == "pow":
        return app("pow", draw(sub()), Num(draw(st.integers(0, 4)), NAT))
    if kind in ("neg", "abs", "sqrt", "inv"):
        return app(kind, draw(sub()))
    narrower = [s for s in SORTS if SORTS.index(s) < SORTS.index(sort)]
    return cast(draw(sub(draw(st.sampled_from(narrower)))), sort)


@st.composite
def formulas(draw, env: tuple[Var, ...], depth: int, fresh: list[int]) -> Term:
    kinds = ["rel", "rel"] + (["and", "or", "not", "implies", "iff", "forall", "exists", "dvd"] if depth > 0 else [])
    kind = draw(st.sampled_from(kinds))
    if kind in ("rel", "dvd"):
        sort = draw(st.sampled_from((NAT, INT) if kind == "dvd" else SORTS))
        op = "dvd" if kind == "dvd" else draw(st.sampled_from(["eq", "ne", "lt", "le", "gt", "ge"]))
        return app(op, draw(terms(sort, env, 2)), draw(terms(sort, env, 2)))
    sub = formulas(env, depth - 1, fresh)
    if kind in ("and", "or"):
        return flat(kind, *draw(st.lists(sub, min_size=2, max_size=3)))
    if kind == "not":
        return app("not", draw(sub))
    if kind in ("implies", "iff"):
        return app(kind, draw(sub), draw(sub))
    fresh[0] += 1
    v = Var(f"q{fresh[0]}", draw(st.sampled_from(SORTS)))
    body = draw(formulas((*env, v), depth - 1, fresh))
    return Quant(kind, (v,), body)


@st.composite
def statements(draw) -> Statement:
    names = draw(st.lists(st.sampled_from(NAMES), min_size=0, max_size=4, unique=True))
    env = tuple(Var(nm, draw(st.sampled_from(SORTS))) for nm in names)
    fresh = [0]
    binders: list = [VarBinder(v, draw(st.sampled_from(["explicit", "implicit"]))) for v in env]
    for i in range(draw(st.integers(0, 2))):
        binders.append(Hypothesis(f"h{i}", draw(formulas(env, 1, fresh))))
    return Statement(tuple(binders), draw(formulas(env, 2, fresh)), name="t")


@SETTINGS
@given(statements())
def test_random_statements_round_trip_through_the_printer(stmt: Statement):
    text = render(stmt)
    assert parse_lean(text) == stmt, text


@SETTINGS
@given(st.lists(st.sampled_from(NAMES), min_size=1, max_size=3, unique=True), st.data())
def test_random_terms_round_trip(names, data):
    env = tuple(Var(nm, data.draw(st.sampled_from(SORTS))) for nm in names)
    sort = data.draw(st.sampled_from(SORTS))
    t = data.draw(terms(sort, env, 3))
    stmt = Statement(tuple(VarBinder(v) for v in env), app("eq", t, t), name="t")
    assert parse_lean(render(stmt)) == stmt


# -- junk never crashes ---------------------------------------------------------------------------

FRAGMENTS = [
    "theorem", "lemma", "example", "def", "t", " ", "\n", "(", ")", "{", "}", "[", "]", "⟨", "⟩", ":",
    ":=", "by", "sorry", "x", "y", "n", "h₀", "ℝ", "ℕ", "ℤ", "ℂ", "Set", "Finset", "→", "↔", "∧", "∨",
    "¬", "∀", "∃", "∃!", ",", "∑", "∏", "in", "∈", "Finset.range", "Finset.Icc", "|", "⌊", "⌋", "⌋₊",
    "⌈", "⌉", "+", "-", "*", "/", "%", "^", "=", "≠", "<", "≤", "≥", ">", "∣", "1", "0.5", "2", "↑",
    "√", "!", "⁻¹", "fun", "=>", "λ", "↦", "≡", "[MOD", "[ZMOD", "--", "/-", "-/", "```", "```lean\n",
    "_", "·", ".1", ".card", "Real.sqrt", "Nat.Prime", "open", "Real", "import", "Mathlib", "if",
    "then", "else", "@", "$", "∘", "''", "Type*", "[Group G]", "IsLeast", "deriv", "{x | x > 0}",
    "(x : ℝ)", "«", "»", "\"", "∅", "..", "∫", "//", "Π", "⋃₀", "⟪", "⟫", "/.", "ℕ+", "ℝ≥0",
]


def _parse_or_parse_error(text: str) -> None:
    try:
        parse_lean(text)
    except ParseError:
        pass


@SETTINGS
@given(st.text(max_size=300))
def test_random_text_raises_only_parse_error(text: str):
    _parse_or_parse_error(text)


@SETTINGS
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=60))
def test_token_soup_raises_only_parse_error(parts: list[str]):
    _parse_or_parse_error(" ".join(parts))
    _parse_or_parse_error("theorem t " + "".join(parts))


@st.composite
def mutated(draw) -> str:
    text = draw(st.sampled_from(REAL_STATEMENTS))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        op = draw(st.sampled_from(["delete", "insert", "replace", "cut", "swap"]))
        piece = draw(st.sampled_from(FRAGMENTS))
        if op == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 5)):]
        elif op == "insert":
            text = text[:i] + piece + text[i:]
        elif op == "replace":
            text = text[:i] + piece + text[i + len(piece):]
        elif op == "cut":
            text = text[:i]
        else:
            j = draw(st.integers(0, len(text)))
            lo, hi = sorted((i, j))
            text = text[hi:] + text[lo:hi] + text[:lo]
    return text


@SETTINGS
@given(mutated())
def test_mutated_real_statements_raise_only_parse_error(text: str):
    _parse_or_parse_error(text)


def test_deep_nesting_is_refused_quickly():
    for opener, closer in [("(", ")"), ("|", "|"), ("f (", ")"), ("∀ x, ", ""), ("¬", ""), ("-", "")]:
        text = "theorem t (f : ℕ → ℕ) : " + opener * 400 + "1" + closer * 400 + " = 1 := sorry"
        _parse_or_parse_error(text)
