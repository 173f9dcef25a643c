"""Definitions before the theorem are unfolded or named by their text: two statements whose
definitions differ are never syntactically equal (issue 12, item 2)."""

from __future__ import annotations

import pytest

import rerank
from provers import check_equivalence, parse
from provers.errors import ParseError
from provers.ir import INT, NAT, REAL, Num, Uninterpreted, app, subterms

T = "theorem t : f 1 = 2"


def symbols(st) -> set[str]:
    return {s.symbol for t in st.terms() for s in subterms(t) if isinstance(s, Uninterpreted)}


def test_unfolded_definitions_make_different_statements():
    a = parse("def f (x : ℕ) : ℕ := x + 1\n" + T)
    b = parse("def f (x : ℕ) : ℕ := x + 5\n" + T)
    assert a.conclusion == app("eq", app("add", Num(1, NAT), Num(1, NAT)), Num(2, NAT))
    assert a.conclusion != b.conclusion
    for rel in ("syntactic", "sae", "symbolic"):
        v = check_equivalence(a, b, relation=rel, timeout=5)
        assert v.status != "equivalent", rel
    assert check_equivalence(a, b, relation="sae", timeout=5).status == "inequivalent"


def test_constants_and_predicates_unfold():
    assert parse("def a : ℕ := 3\ntheorem t : a = 3").conclusion == app("eq", Num(3, NAT), Num(3, NAT))
    st = parse("def P (x : ℝ) : Prop := 0 < x\ntheorem t (y : ℝ) (h : P y) : P (y + 1)")
    assert st.hypotheses[0].formula.op == "lt" and st.conclusion.op == "lt"
    st = parse("noncomputable def g (n : ℕ) : ℝ := Real.sqrt (n + 1) - Real.sqrt n\ntheorem t : g 0 = 1")
    assert not symbols(st) and st.conclusion.args[0].op == "sub"


def test_abbrev_type_aliases_are_their_sort_and_def_type_aliases_are_refused():
    assert parse("abbrev N := ℤ\ntheorem t (n : N) : n - 1 < n").variables[0].sort == INT
    assert parse("abbrev N := ℕ\ntheorem t (n : N) : n - 1 < n").variables[0].sort == NAT
    assert parse("abbrev R : Type := ℝ\ntheorem t (x : R) : x = x").variables[0].sort == REAL
    with pytest.raises(ParseError, match="abbrev R") as ei:  # never an ℕ variable plus a hypothesis
        parse("def R := ℝ\ntheorem t (x : R) : x + 1 > x")
    assert (ei.value.line, ei.value.column) == (2, 16)


def test_what_cannot_be_unfolded_is_a_symbol_with_a_digest_of_its_text():
    double = "def f : ℕ → ℕ\n| 0 => 1\n| (n + 1) => 2 * f n\ntheorem t : f 3 = 8"
    triple = double.replace("2 * f n", "3 * f n")
    a, b, a2 = parse(double), parse(triple), parse(double)
    (sa,), (sb,) = symbols(a), symbols(b)
    assert sa.startswith("f@") and sb.startswith("f@") and sa != sb
    assert symbols(a2) == {sa}  # the same definition in the same context: the same symbol
    assert any("pattern matching" in n for n in a.notes)
    assert check_equivalence(a, b, relation="syntactic").status != "equivalent"
    assert check_equivalence(a, a2, relation="syntactic").status == "equivalent"
    rec = parse("def f (x : ℕ) : ℕ := f x\ntheorem t : f 1 = 2")
    assert any("recursive" in n for n in rec.notes) and all("@" in s for s in symbols(rec))


@pytest.mark.parametrize("text, fragment", [
    ("local notation \"f\" => 3\n" + T, "`local notation`"),
    ('postfix:max "‼" => Nat.succ\n' + T, "`postfix`"),
    ("def Foo.f (x : ℕ) : ℕ := x + 1\nopen Foo\n" + T, "namespaced"),
    ("irreducible_def f (x : ℕ) : ℕ := x + 1\n" + T, "`irreducible_def`"),
    ("abbrev V (n : ℕ) := Fin n → ℝ\ntheorem t (v : V 3) : v = v", "family of types"),
    ("open Real\ndef sqrt (x : ℝ) : ℝ := x\ntheorem t : sqrt 4 = 4", "Mathlib"),
    ("variable (n : ℕ)\ndef f := n + 1\ntheorem t : f = 2", "`variable` n"),
    ("def f (x : ℕ) : ℕ := x + 1 where g := 2\n" + T, "`where`"),
    ("def f (x : ℕ) : ℕ := x\ndef f (x : ℕ) : ℕ := x + 1\n" + T, "already defined"),
])
def test_definitions_not_modelled_faithfully_are_parse_errors(text: str, fragment: str):
    with pytest.raises(ParseError) as ei:
        parse(text)
    assert fragment in ei.value.reason


def test_body_less_def_is_still_a_statement():
    st = parse("def ex (G : Type*) [Group G] (hG : Nat.card G = 5) :\n  CommGroup G :=")
    assert st.name == "ex"


def test_reranking_never_merges_different_definitions():
    informal = "f(2, 3) = 5"
    cands = [
        "def f (x y : ℕ) : ℕ := x + y\ntheorem t : f 2 3 = 5 := by sorry",
        "def f (x y : ℕ) : ℕ := x * y\ntheorem t : f 2 3 = 5 := by sorry",
        "theorem t (f : ℕ → ℕ → ℕ) : f 2 3 = 5 := by sorry",
    ]
    for relation in ("symbolic", "sae"):
        r = rerank.rerank(informal, cands, informalizations=[informal] * 3, n=1,
                          relation=relation)
        assert sorted(map(sorted, r.classes)) == [[0], [1], [2]], relation


def test_defined_names_print_and_read_back():
    from provers.lean4.printer import render

    for text in ("def f : ℕ → ℕ\n| 0 => 1\n| (n + 1) => 2 * f n\ntheorem t : f 3 = 8",
                 "abbrev I : Set ℝ := Set.Icc 0 1\ntheorem t (f : ℕ → I → ℝ) (x : I) : f 0 x = 0",
                 "def f (x : ℕ) : ℕ := x + 1\ntheorem t : f 1 = 2"):
        st = parse(text)
        out = render(st)
        assert "@" not in out.split("theorem")[1]
        assert parse(out) == st


def test_text_using_a_definition_is_never_sent_to_lean_as_is():
    """The Lean backend renders obligations from the statements' own text where it can; a
    component that uses a definition of the statement must come from the IR instead (Lean's
    environment does not have the candidate's definition, or has another one)."""
    from provers.backends.lean.render import SourceIndex, obligation_from_ir
    from provers.engine.normal import normalize

    st = parse("def P (x : ℝ) : Prop := 0 < x\ntheorem t (y : ℝ) (h : P y) (h2 : y < 3) : P (y + 1)")
    assert [h.source for h in st.hypotheses] == ["", "y < 3"] and st.conclusion_source == ""
    nf = normalize(st)
    ob = obligation_from_ir(nf.closed(), lean_symbols=True, sources=SourceIndex([st]))
    text = " ".join((*ob.binders, *ob.premises, ob.goal))
    assert "P " not in text and "(0 : ℝ) < " in text
