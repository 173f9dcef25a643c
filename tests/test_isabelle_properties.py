"""Property tests of the Isabelle frontend: printer/parser round trip on random well-formed
statements, ASCII escapes equal their Unicode forms, and junk never raises anything but
ParseError."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provers.errors import ParseError
from provers.ir import Statement
from provers.isabelle.parser import parse_isabelle
from provers.isabelle.printer import render
from provers.isabelle.symbols import ESCAPES

VARS = {"real": ["a", "b"], "int": ["i", "j"], "nat": ["n", "k"]}
FIXES = 'fixes a b :: real and i j :: int and n k :: nat and f :: "real ⇒ real" and S :: "int set"'


@st.composite
def num(draw, sort: str, depth: int) -> str:
    leaf = depth <= 0 or draw(st.integers(0, 3)) == 0
    if leaf:
        choice = draw(st.integers(0, 2))
        if choice == 0:
            return draw(st.sampled_from(VARS[sort]))
        value = draw(st.integers(0, 40))
        if sort == "real" and draw(st.booleans()):
            return f"{value}.{draw(st.sampled_from(['5', '25', '125']))}"
        return f"({value}::{sort})" if choice == 1 else str(value)
    d = depth - 1
    ops = ["+", "-", "*"]
    unary: list[str] = []
    if sort == "real":
        ops += ["/", "powr"]
        unary = ["sqrt", "ln", "exp", "f", "abs", "sin"]
    elif sort == "int":
        ops += ["div", "mod"]
        unary = ["abs", "-"]
    else:
        ops += ["div", "mod"]
    kind = draw(st.integers(0, 4))
    if kind <= 1:
        op = draw(st.sampled_from(ops))
        return f"({draw(num(sort, d))} {op} {draw(num(sort, d))})"
    if kind == 2 and unary:
        fn = draw(st.sampled_from(unary))
        return f"({fn} {draw(num(sort, d))})" if fn != "-" else f"(- {draw(num(sort, d))})"
    if kind == 3:
        return f"({draw(num(sort, d))} ^ {draw(num('nat', d))})"
    # casts and typed functions across sorts
    if sort == "real":
        return draw(st.sampled_from([f"(real {draw(num('nat', d))})", f"(real_of_int {draw(num('int', d))})", f"(root 3 {draw(num('real', d))})", f"(log 2 {draw(num('real', d))})"]))
    if sort == "int":
        return draw(st.sampled_from([f"⌊{draw(num('real', d))}⌋", f"(int {draw(num('nat', d))})", f"⌈{draw(num('real', d))}⌉"]))
    return draw(st.sampled_from([f"(nat {draw(num('int', d))})", f"(card {{1..{draw(num('nat', d))}}})", f"(gcd {draw(num('nat', d))} {draw(num('nat', d))})"]))


@st.composite
def prop(draw, depth: int) -> str:
    d = depth - 1
    kind = draw(st.integers(0, 6 if depth > 0 else 1))
    if kind <= 1:
        sort = draw(st.sampled_from(["real", "int", "nat"]))
        rel = draw(st.sampled_from(["=", "<", "≤", "≠", ">", "≥"]))
        return f"{draw(num(sort, depth))} {rel} {draw(num(sort, depth))}"
    if kind == 2:
        op = draw(st.sampled_from(["∧", "∨", "⟶", "⟷"]))
        return f"({draw(prop(d))}) {op} ({draw(prop(d))})"
    if kind == 3:
        return f"¬ ({draw(prop(d))})"
    if kind == 4:
        q = draw(st.sampled_from(["∀", "∃"]))
        return f"({q}a::real. {draw(prop(d))})"
    if kind == 5:
        return draw(st.sampled_from([f"{draw(num('nat', d))} dvd {draw(num('nat', d))}", f"even {draw(num('int', 0))}", "i ∈ S", f"{draw(num('int', d))} ∈ {{1..10}}"]))
    return f"(∑x∈{{1..n}}. real x * {draw(num('real', d))}) = {draw(num('real', d))}"


@st.composite
def statement_text(draw) -> str:
    hyps = draw(st.lists(prop(2), max_size=3))
    concls = draw(st.lists(prop(2), min_size=1, max_size=2))
    parts = ["theorem", FIXES]
    if hyps:
        parts.append("assumes " + " and ".join(f'h{i}: "{h}"' for i, h in enumerate(hyps)))
    parts.append("shows " + " and ".join(f'"{c}"' for c in concls))
    return "\n".join(parts)


SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(statement_text())
def test_render_then_parse_is_the_identity(text: str):
    st1 = parse_isabelle(text)  # every generated statement is well-formed HOL
    assert isinstance(st1, Statement)
    printed = render(st1)
    st2 = parse_isabelle(printed)
    assert st2 == st1, printed
    assert render(st2) == printed


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(statement_text())
def test_ascii_escapes_equal_unicode(text: str):
    glyphs = render(parse_isabelle(text), symbols="unicode")
    st1 = parse_isabelle(glyphs)
    ascii_text = "".join(ESCAPES.get(c, c) for c in glyphs)
    assert all(ord(c) < 128 for c in ascii_text)
    assert ascii_text == render(st1)  # the printer's default is Isabelle's own spelling
    assert parse_isabelle(ascii_text) == st1
    # the same statement, but only the ASCII spelling is one Isabelle's checker accepts
    assert parse_isabelle(ascii_text).checker_errors == ()
    assert bool(st1.checker_errors) == any(ord(c) > 127 for c in glyphs)


JUNK_TOKENS = [
    "theorem", "lemma", "fixes", "assumes", "shows", "defines", "and", "for", "by", "sorry", '"', '"',
    "x", "y", "f", "::", ":", "real", "nat", "⇒", "(", ")", "{", "}", "[", "]", "\\<forall>", "∀", "∃!",
    ".", "..", "..<", "+", "-", "*", "/", "^", "=", "<", "≤", "⟶", "⟹", "⟦", "⟧", ";", "0", "1.5", "-3",
    "\\<", ">", "λ", "∑", "∈", "¦", "⌊", "⌋", "div", "mod", "dvd", "powr", "sqrt", "if", "then", "else",
    "let", "in", "card", "sum", "'a", "fun", "definition", "where", "|", "≡", "⋀", "(*", "*)", "\n",
]


@settings(max_examples=300, deadline=None)
@given(st.one_of(
    st.lists(st.sampled_from(JUNK_TOKENS), max_size=40).map(" ".join),
    st.lists(st.sampled_from(JUNK_TOKENS), max_size=40).map(lambda ts: 'theorem shows "' + " ".join(ts) + '"'),
    st.text(max_size=200),
))
def test_junk_raises_only_parse_error(text: str):
    try:
        result = parse_isabelle(text)
    except ParseError as e:
        assert e.reason and e.line >= 1 and e.column >= 1
    else:
        assert isinstance(result, Statement)


FIXTURE_TEXTS = [p.read_text(encoding="utf-8") for p in sorted((Path(__file__).parent / "fixtures" / "isabelle").glob("*.thy"))]


@st.composite
def mutated_fixture(draw) -> str:
    """A real candidate with a few spans deleted, duplicated or moved (half-edited LLM output)."""
    text = draw(st.sampled_from(FIXTURE_TEXTS))
    for _ in range(draw(st.integers(1, 4))):
        if not text:
            break
        i = draw(st.integers(0, len(text) - 1))
        j = min(len(text), i + draw(st.integers(1, 12)))
        kind = draw(st.integers(0, 2))
        if kind == 0:
            text = text[:i] + text[j:]
        elif kind == 1:
            text = text[:i] + text[i:j] * 2 + text[j:]
        else:
            k = draw(st.integers(0, len(text)))
            text = text[:k] + text[i:j] + text[k:]
    return text


@settings(max_examples=200, deadline=None)
@given(mutated_fixture())
def test_mutated_real_candidates_raise_only_parse_error(text: str):
    try:
        result = parse_isabelle(text)
    except ParseError as e:
        assert e.reason and 1 <= e.line <= text.count("\n") + 1
    else:
        assert parse_isabelle(render(result)) == result


def test_order_atoms_over_an_unmodelled_type_round_trip():
    """Found by the mutation property: `ixes t :: profit t > 4200` reads a comparison over an
    opaque type, kept as the uninterpreted `gt`; it must print as `>` again (printed as
    `gt (ixes t) …` it came back as a new free variable `gt`)."""
    text = ('theorem\nfixes t :: nat\nshows  "\\<forall> t.ixes t :: profit t > 4200 \\<Longrightarrow> t \\<le> 69"\n')
    result = parse_isabelle(text)
    assert "gt (" not in render(result)
    assert parse_isabelle(render(result)) == result
    for op in ("<", "\\<le>", ">", "\\<ge>"):
        st_ = parse_isabelle(f'theorem\nfixes a b :: "real^2"\nshows "a {op} b"')
        assert parse_isabelle(render(st_)) == st_


@settings(max_examples=40, deadline=None)
@given(st.integers(-3, 3), st.integers(-3, 3), st.integers(1, 4), st.integers(1, 5))
def test_complex_powr_at_a_positive_numeral_is_the_power(re, im, n, delta):
    """HOL-Analysis: z powr n = (if z = 0 then 0 else exp (n · Ln z)) = z ^ n for n ≥ 1, so
    ``Complex a b powr n`` is decided exactly; a perturbed right-hand side is false."""
    from provers.semantics import truth

    z = f"Complex ({re}) ({im})"
    power = " * ".join([f"({z})"] * n)
    holds = parse_isabelle(f'theorem\nshows "({z}) powr {n} = {power}"').conclusion
    off = parse_isabelle(f'theorem\nshows "({z}) powr {n} = {power} + {delta}"').conclusion
    assert truth(holds, {}) is True
    assert truth(off, {}) is False


def test_complex_powr_elsewhere_stays_uninterpreted():
    for exponent in ("0", "(1 / 2)", "w"):
        st_ = parse_isabelle(f'theorem\nfixes z w :: complex\nshows "z powr {exponent} = 1"')
        assert "powr" in repr(st_.conclusion)
