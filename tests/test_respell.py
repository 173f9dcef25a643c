"""A statement respelled without changing its meaning (``experiments/respell.py``: ASCII
notation, type names, hypothesis names, binder groups split, hypotheses in another order) is
never "inequivalent" to itself. Two such bugs were found by this check (stop 59): ``Equiv ℝ ℝ``
against ``ℝ ≃ ℝ`` (two opaque sorts), and Isabelle's inferred type variables ``'t3`` against
``'t2`` when the assumptions come in another order."""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import provers

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "experiments"))
from respell import RESPELLINGS, check, isabelle_respellings, lean_respellings  # noqa: E402

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"


def _sample(name: str, language: str, n: int) -> list[str]:
    path = DATA / name
    if not path.exists():
        pytest.skip(f"{path} is not here")
    rows = [json.loads(line) for line in itertools.islice(path.open(), n)]
    texts = [r["formal"] if "formal" in r else r["candidates"][0]["formal"] for r in rows]
    return [t for t in texts if _parses(t, language)]


def _parses(text: str, language: str) -> bool:
    try:
        provers.parse(text, language)
    except provers.ParseError:
        return False
    return True


@pytest.mark.parametrize(("name", "language"), [("minif2f_lean4.jsonl", "lean4"), ("isabelle_math_400.jsonl", "isabelle")])
def test_no_respelling_of_real_statements_is_inequivalent(name, language):
    texts = _sample(name, language, 30)
    assert len(texts) >= 20
    statuses = [row["status"] for t in texts for row in check(t, language, ("sae",), 1.0)]
    assert "inequivalent" not in statuses
    assert statuses.count("equivalent") >= 0.9 * len(statuses)


def test_isabelle_type_variables_are_matched_up_to_renaming():
    """``John ≠ Sam`` with John, Sam never fixed: Isabelle infers a type variable for them,
    numbered in the order the assumptions are read."""
    text = ('theorem fixes n :: nat assumes h0 : "n = 6" and h1 : "John \\<noteq> Sam" '
            'shows "count_seating_permutations n = 48"')
    swapped = isabelle_respellings(text)["assumptions swapped"]
    for relation in ("sae", "symbolic"):
        v = provers.check_equivalence(text, swapped, relation=relation, language="isabelle", timeout=1.0)
        assert v.status == "equivalent", v.reason
    # two type variables used differently are still told apart
    other = text.replace('"John \\<noteq> Sam"', '"John \\<noteq> Sam \\<and> (f :: \'b \\<Rightarrow> \'b) = f"')
    assert provers.check_equivalence(text, other, relation="sae", language="isabelle", timeout=1.0).status != "equivalent"


LEAN = [
    "theorem t (σ : Equiv ℝ ℝ) (h₀ : ∀ x, σ.1 x = 4 * x ^ 3 + 1) : σ.2 33 = 2 := by sorry",
    "theorem t (a b : ℕ) (h₀ : 0 < a ∧ 0 < b) (h₁ : a + b = 10) (h₂ : a ≤ b) : a * b ≤ 25 := by sorry",
    "theorem t (f : ℝ → ℝ) (h₀ : ∀ x, f x = x ^ 2 - 1) (h₁ : f 3 ≠ 7) : ∃ y, f y ≥ 0 := by sorry",
]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(LEAN), st.lists(st.sampled_from(["ascii operators", "type names", "hypothesis names",
                                                        "binder groups split", "hypotheses swapped",
                                                        "symmetric operands swapped", "+ and * commuted",
                                                        "hypothesis into the goal", "binder predicates expanded",
                                                        "numerals as sums", "¬ and ≠ by their definitions"]),
                                       min_size=1, max_size=3))
def test_respellings_composed_never_change_a_verdict(text, kinds):
    respelled = text
    for kind in kinds:
        respelled = lean_respellings(respelled).get(kind, respelled)
    v = provers.check_equivalence(text, respelled, relation="sae", language="lean4", timeout=1.0)
    assert v.status == "equivalent", (kinds, respelled, v.reason)


def test_every_language_has_respellings():
    assert set(RESPELLINGS) == {"lean4", "isabelle"}


def test_type_variables_only_terms_mention_and_ascii_binders():
    """``continuous_on UNIV f`` leaves UNIV's element type to inference (``'t2`` or ``'t8``
    by the order of the assumptions: ``algebra/problem_753``); ``EX! r.`` is ASCII for ``∃!``."""
    text = ('theorem fixes x a :: real and f :: "real \\<Rightarrow> real" assumes h0 : "continuous_on UNIV f" '
            'and h1 : "\\<forall> x. f x = (if x \\<le> a then 5 * x powr 2 + 2 else 11 * x)" shows "a = 1 / 5"')
    swapped = isabelle_respellings(text)["assumptions swapped"]
    assert provers.check_equivalence(text, swapped, relation="sae", language="isabelle", timeout=1.0).status == "equivalent"
    unique = 'theorem fixes x :: real assumes "\\<exists>! r. r * r = x" shows "x = 0"'
    ascii_unique = isabelle_respellings(unique)["ascii symbols"]
    assert "EX!" in ascii_unique
    assert provers.check_equivalence(unique, ascii_unique, relation="sae", language="isabelle", timeout=1.0).status == "equivalent"


def test_isabelle_ascii_membership_is_membership():
    """``x : A``, ``∀x:A. P``, ``{x:A. P}`` and ``x ~: A`` are HOL's ASCII for ∈ / ∉ (inside a
    term a lone colon is nothing else: type constraints are ``::``)."""
    text = ('theorem fixes A :: "nat set" and x :: nat assumes "\\<forall>y\\<in>A. y > 0" and "A = {1..5}" '
            'and "x \\<notin> {7}" shows "(\\<Sum>i\\<in>A. i) = 15 \\<and> {z\\<in>A. z > 2} = {3,4,5}"')
    ascii_text = isabelle_respellings(text)["ascii symbols"]
    assert "~:" in ascii_text and "\\<in>" not in ascii_text
    assert provers.check_equivalence(text, ascii_text, relation="sae", language="isabelle", timeout=1.0).status == "equivalent"


def test_symmetric_operands_and_commuted_sums_keep_the_meaning():
    """``a = b`` read as ``b = a``, ``P ∧ Q`` as ``Q ∧ P``; ``+`` and ``*`` commuted where every
    term is a number (ℕ to ℝ: Lean's ``binop%`` types the tree at once, so the order of the
    operands changes no coercion)."""
    text = "theorem t (x y : ℝ) (n : ℕ) (h₀ : x + 2 * y = 7 ∧ y > 0) (h₁ : n * x = 3) : y + x * n = 3 + y := by sorry"
    out = lean_respellings(text)
    assert "((3 + y) = (y + x * n))" in out["symmetric operands swapped"]
    assert "((2 * y) + (x))" in out["+ and * commuted"]
    for kind in ("symmetric operands swapped", "+ and * commuted"):
        for relation in ("sae", "symbolic"):
            v = provers.check_equivalence(text, out[kind], relation=relation, language="lean4", timeout=1.0)
            assert v.status == "equivalent", (kind, relation, v.reason)


def test_products_in_a_group_are_never_commuted():
    """``a * b`` in a group is not ``b * a``: the respelling only applies where every term is a number."""
    text = "theorem t {G : Type*} [Group G] (a b : G) (h : a * b = b * a) : a * b * a = a * a * b := by sorry"
    assert "+ and * commuted" not in lean_respellings(text)


def test_isabelle_conjunctions_and_equations_respelled():
    """A top-level ``A ∧ B`` assumption split in two or its conjuncts swapped, ``l = r`` as
    ``r = l``; a ``∧`` under a binder or an implication is left alone."""
    text = ('theorem fixes x y :: real assumes h0 : "x > 0 \\<and> y = 2 * x" and h1 : "x + y = 3" '
            'shows "x = 1 \\<and> y = 2"')
    out = isabelle_respellings(text)
    assert 'h0 : "x > 0" and conj_0_1: "y = 2 * x"' in out["conjunction split"]
    assert '"(y = 2) \\<and> (x = 1)"' in out["conjuncts swapped"]
    assert '"(3) = (x + y)"' in out["equations reversed"]
    for kind in ("conjunction split", "conjuncts swapped", "equations reversed"):
        v = provers.check_equivalence(text, out[kind], relation="sae", language="isabelle", timeout=1.0)
        assert v.status == "equivalent", (kind, v.reason)
    bound = 'theorem fixes f :: "real \\<Rightarrow> real" assumes "\\<forall>x. f x > 0 \\<and> f x < 1" shows "f 0 < 2"'
    assert "conjunction split" not in isabelle_respellings(bound)


def test_isabelle_relations_by_their_converses():
    """``a > b`` is Isabelle's syntax for ``b < a``, ``a ≥ b`` for ``b ≤ a``, ``a ≠ b`` for
    ``¬ a = b``; a relation inside a conjunction or an implication is left alone."""
    text = ('theorem fixes x y :: real assumes h0 : "x > 2 * y" and h1 : "y \\<ge> 1" and h2 : "x \\<noteq> 5" '
            'and h3 : "x > 0 \\<longrightarrow> y > 0" shows "x < 7"')
    flipped = isabelle_respellings(text)["relations flipped"]
    assert '"(2 * y) < (x)"' in flipped and '"(1) \\<le> (y)"' in flipped and '"\\<not> ((x) = (5))"' in flipped
    assert '"x > 0 \\<longrightarrow> y > 0"' in flipped and '"(7) > (x)"' in flipped
    for relation in ("sae", "symbolic"):
        v = provers.check_equivalence(text, flipped, relation=relation, language="isabelle", timeout=1.0)
        assert v.status == "equivalent", (relation, v.reason)


def test_isabelle_sums_commuted_at_the_top_of_a_relation():
    """``x + y + real n = 3`` as ``real n + y + x = 3``; a side mixing ``+`` with another
    operator at its top (``x + 2 * (y + 1)``) is left alone (precedence)."""
    text = ('theorem fixes x y :: real and n :: nat assumes h0 : "x + 2 * (y + 1) = 7" '
            'and h1 : "real n + x \\<le> 3" shows "x + y + real n = 3"')
    out = isabelle_respellings(text)["sums commuted"]
    assert '"(x) + (real n) \\<le> (3)"' in out and '"(real n) + (y) + (x) = (3)"' in out
    assert '"x + 2 * (y + 1) = 7"' in out
    for relation in ("sae", "symbolic"):
        assert provers.check_equivalence(text, out, relation=relation, language="isabelle", timeout=1.0).status == "equivalent"


def test_lean_binders_and_definitions_respelled():
    """Stop 61's respellings: the last hypothesis moved into the goal (a theorem's binders are
    its type's leading arrows), ``∀ x > 0, p`` / ``∃ n ∈ s, p`` as Mathlib's ``binderPred``
    macro expands them, ``¬p`` as ``p → False``, ``a ≠ b`` as ``a = b → False`` (their
    definitions), numerals as sums of ones (``12`` as ``(1 + 11)``; not in ``Fin 5``)."""
    text = ("theorem t (x : ℝ) (a : Fin 5) (h₀ : ∀ y > 0, y ≠ x) (h₁ : ∃ n ∈ Finset.range 10, (n : ℝ) = x) : "
            "¬ (x = 12) := by sorry")
    out = lean_respellings(text)
    assert ": (∃ n ∈ Finset.range 10, (n : ℝ) = x) → (¬ (x = 12))" in out["hypothesis into the goal"]
    assert "∀ y, y > (0) → (y ≠ x)" in out["binder predicates expanded"]
    assert "∃ n, n ∈ (Finset.range 10) ∧ ((n : ℝ) = x)" in out["binder predicates expanded"]
    assert "((y) = (x) → False)" in out["¬ and ≠ by their definitions"]
    assert "Fin 5" in out["numerals as sums"] and "(1 + 11)" in out["numerals as sums"]
    for kind in ("hypothesis into the goal", "binder predicates expanded", "¬ and ≠ by their definitions",
                 "numerals as sums"):
        for relation in ("sae", "symbolic"):
            v = provers.check_equivalence(text, out[kind], relation=relation, language="lean4", timeout=1.0)
            assert v.status == "equivalent", (kind, relation, v.reason)


def test_isabelle_assumption_into_the_conclusion_and_bounded_quantifiers():
    """``assumes "A" shows "C"`` as ``shows "A ⟶ C"``; ``∀k∈{1..10}. P`` as ``∀k. k ∈ {1..10} ⟶ P``
    (``Ball``); numerals as sums (a superscript, a decimal and ``{1..10}``'s bound stay)."""
    text = ('theorem fixes x :: real and f :: "nat \\<Rightarrow> nat" '
            'assumes h0 : "\\<forall>k\\<in>{1..10}. f k = 2 * k" and h1 : "x > 2.5" shows "x\\<^sup>2 + 12 > f 3"')
    out = isabelle_respellings(text)
    assert '"(x > 2.5) \\<longrightarrow> (x\\<^sup>2 + 12 > f 3)"' in out["assumption into the conclusion"]
    assert "\\<forall>k. k \\<in> ({1..10}) \\<longrightarrow> (f k = 2 * k)" in out["bounded quantifiers expanded"]
    assert "(1 + 11)" in out["numerals as sums"] and "2.5" in out["numerals as sums"] and "{1..10}" in out["numerals as sums"]
    for kind in ("assumption into the conclusion", "bounded quantifiers expanded", "numerals as sums"):
        for relation in ("sae", "symbolic"):
            v = provers.check_equivalence(text, out[kind], relation=relation, language="isabelle", timeout=1.0)
            assert v.status == "equivalent", (kind, relation, v.reason)
    several = 'theorem fixes p :: real assumes h : "p > 0" shows "p = 6" "p > 1"'
    assert "assumption into the conclusion" not in isabelle_respellings(several)


def test_lean_arithmetic_and_notation_respelled():
    """Stop 61: ``a - b`` as ``a + -b`` and ``a / b`` as ``a * b⁻¹`` only where the operation is
    a ring's / a field's (never ℕ's truncated ``-`` or its rounding ``/``), ``2 * x`` as
    ``x + x``, ``Real.sqrt x`` as ``x.sqrt`` for a theorem variable no binder rebinds,
    ``x ∈ Set.Icc a b`` by its bounds, implicit binders made explicit."""
    text = ("theorem t {x y : ℝ} (h₀ : 0 ≤ x ∧ x ≤ 1) (h₁ : 2 * y - x / 3 = 1) : "
            "Real.sqrt x ≤ 1 + y ∧ ∀ z : ℝ, Real.sqrt z ≥ 0 := by sorry")
    out = lean_respellings(text)
    icc = text.replace("0 ≤ x ∧ x ≤ 1", "x ∈ Set.Icc 0 1")
    bounds = lean_respellings(icc)["intervals by their bounds"]
    assert "(0 ≤ x ∧ x ≤ 1)" in bounds
    assert provers.check_equivalence(icc, bounds, relation="sae", language="lean4", timeout=1.0).status == "equivalent"
    assert "((2 * y) + -(x / 3))" in out["subtraction as adding the negation"]
    assert "((x) * (3)⁻¹)" in out["division as multiplying by the inverse"]
    assert "((y) + (y))" in out["2 * x as x + x"]
    assert "x.sqrt ≤ 1 + y" in out["dot notation"] and "Real.sqrt z" in out["dot notation"]
    assert out["binder styles swapped"].startswith("theorem t (x y : ℝ)")
    for kind in ("subtraction as adding the negation", "division as multiplying by the inverse", "2 * x as x + x",
                 "dot notation", "binder styles swapped"):
        for relation in ("sae", "symbolic"):
            v = provers.check_equivalence(text, out[kind], relation=relation, language="lean4", timeout=1.0)
            assert v.status == "equivalent", (kind, relation, v.reason)
    nat = "theorem t (n : ℕ) (h : n - 1 = 7) (h' : 3 ∣ n) : n / 2 = 4 := by sorry"
    out = lean_respellings(nat)
    assert "subtraction as adding the negation" not in out and "division as multiplying by the inverse" not in out
    assert "((n) % (3) = 0)" in out["∣ as a zero remainder"]
    v = provers.check_equivalence(nat, out["∣ as a zero remainder"], relation="symbolic", language="lean4", timeout=1.0)
    assert v.status == "equivalent", v.reason


def test_isabelle_parity_and_intervals_by_their_definitions():
    """``even n`` as ``2 dvd n``, ``x ∈ {a..<b}`` as ``a ≤ x ∧ x < b``; a binder's range
    (``∀k∈{1..9}``) and a function's argument (``f x ∈ {0..1}``) are no membership to respell."""
    text = ('theorem fixes n :: nat and f :: "nat \\<Rightarrow> nat" assumes "even n" and "n \\<in> {1..<10}" '
            'and "\\<forall>k\\<in>{1..9}. f k \\<in> {0..1}" shows "odd (n + 1)"')
    out = isabelle_respellings(text)
    assert '"(2 dvd n)"' in out["even / odd by their definitions"] and "(\\<not> 2 dvd (n + 1))" in out["even / odd by their definitions"]
    bounds = out["intervals by their bounds"]
    assert '"(1 \\<le> n \\<and> n < 10)"' in bounds and "\\<forall>k\\<in>{1..9}. f k \\<in> {0..1}" in bounds
    for kind in ("even / odd by their definitions", "intervals by their bounds"):
        for relation in ("sae", "symbolic"):
            v = provers.check_equivalence(text, out[kind], relation=relation, language="isabelle", timeout=1.0)
            assert v.status == "equivalent", (kind, relation, v.reason)


def test_bound_variables_renamed_keep_the_verdict():
    """Alpha-renaming (stop 61). An untyped bound ``y`` whose type the frontend cannot infer gets
    the invented sort ``α_y``, "the type of y": renamed ``y_b`` it was ``α_y_b``, and ProofNet
    ``exercise_1_19a`` was "inequivalent" to itself for its variable sorts; now the invented
    sort is renamed with its variable. And an obligation ``p ↔ p'`` identical up to renaming is
    proved before any function definition is unfolded (Isabelle ``∀ x_b. P x_b = …`` against
    ``∀ x. P x = …`` was sent to the solvers, which refuse complex big operators)."""
    lean = ("theorem t (z : ℂ) (hz : abs z = 1) (s : ℕ → ℂ) (h : s = (λ n => ∑ i in (range n), i * z ^ i)) : "
            "¬ ∃ y, Tendsto s atTop (𝓝 y) := by sorry")
    renamed = lean_respellings(lean)["bound variables renamed"]
    assert "∃ y_b, Tendsto s atTop (𝓝 y_b)" in renamed and "λ n_b =>" in renamed
    isabelle = ('theorem fixes K :: complex and ri :: "int \\<Rightarrow> complex" and P :: "complex \\<Rightarrow> complex" '
                'assumes h0 : "\\<forall> x. P x = x powr 7 - 7" and h1 : "K = (\\<Prod>i = 1..6. ri i)" shows "K * K = 1"')
    renamed_isabelle = isabelle_respellings(isabelle)["bound variables renamed"]
    assert "\\<forall> x_b. P x_b = x_b powr 7 - 7" in renamed_isabelle
    for relation in ("sae", "symbolic"):
        for text, other, language in ((lean, renamed, "lean4"), (isabelle, renamed_isabelle, "isabelle")):
            v = provers.check_equivalence(text, other, relation=relation, language=language, timeout=1.0)
            assert v.status == "equivalent", (language, relation, v.reason)
    # a ∏'s body is parsed at precedence 67: the k of `2 ^ k` is not the bound one, never renamed
    prod = "theorem t (n : ℕ) : (∏ k in Finset.Icc 1 n, 1 + (1 : ℝ) / 2 ^ k) < 5 / 2 := by sorry"
    assert "bound variables renamed" not in lean_respellings(prod)


def test_a_sort_naming_a_bound_variable_is_renamed_with_it():
    """``∀ X : Type, ∀ s : Set (Set X), …`` renamed ``X_b`` (ProofNet ``exercise_13_3b``): the
    sorts inside the binder name it, and the canonical key names them by the binder, as it
    names the variable — the respelling was inconclusive (symbols at two sorts for the
    solvers). A sort naming another binder is another key; a free variable's sort that names an
    outer variable keeps naming it inside a binder of the same name."""
    from provers.engine.normal import normalize
    from provers.ir import canon_key

    def key(text: str) -> str:
        return canon_key(normalize(provers.parse(text, "lean4")).conclusion)

    text = ("theorem t : ¬ ∀ X : Type, ∀ s : Set (Set X), (∀ t : Set X, t ∈ s → Set.Infinite tᶜ) → "
            "Set.Infinite (⋃₀ s)ᶜ := by sorry")
    renamed = lean_respellings(text)["bound variables renamed"]
    assert "∀ X_b : Type" in renamed and "Set (Set X_b)" in renamed
    assert key(text) == key(renamed)
    for relation in ("sae", "symbolic"):
        assert provers.check_equivalence(text, renamed, relation=relation, timeout=1.0).status == "equivalent"
    two = "theorem t : ∀ X : Type, ∀ Y : Type, ∀ s : Set {Z}, s = s := by sorry"
    assert key(two.format(Z="X")) != key(two.format(Z="Y"))  # which binder the sort names matters
    # m's type names the outer n: a bound n shadowing it does not capture it
    free = "theorem t (n : ℕ) (m : Fin n) : ¬ ∀ {k} : ℕ, (m : ℕ) < {k} + 1 := by sorry"
    assert key(free.format(k="n")) == key(free.format(k="k"))


def test_quantified_variables_swapped_are_one_formula():
    """``∀ x y, P`` and ``∀ y x, P`` (one kind of quantifier commutes): the canonical form orders a
    block's variables by their first occurrence, so the two are identical up to renaming — the
    respelling was inconclusive for 23 of 98 Lean statements and 24 of 173 Isabelle ones
    (stop 61), sent to solvers that time out. A block whose sort names another of its variables
    (``∀ n (x : Fin n)``) keeps its order."""
    from provers.ir import INT, NAT, REAL, OpaqueSort, Quant, Var, app, canon_key, num

    text = ("theorem t (f : ℝ → ℝ → ℝ) (h₀ : ∀ x y, f x y = x + 2 * y) (h₁ : ∃ (a b : ℝ), f a b = 0) : "
            "f 1 1 = 3 := by sorry")
    swapped = lean_respellings(text)["quantified variables swapped"]
    assert "∀ y x, f x y" in swapped and "∃ (b a : ℝ)" in swapped
    for relation in ("sae", "symbolic"):
        v = provers.check_equivalence(text, swapped, relation=relation, language="lean4", timeout=1.0)
        assert v.status == "equivalent", (relation, v.reason)
    x, y = Var("x", INT), Var("y", INT)
    body = app("lt", x, app("add", y, num(1, INT)))
    assert canon_key(Quant("forall", (x, y), body)) == canon_key(Quant("forall", (y, x), body))
    assert canon_key(Quant("forall", (x, y), body)) != canon_key(Quant("exists", (y, x), body))
    # a sort is read by its words: `a` is not named by `Real` (before stop 62 a substring test
    # kept every `∀ a b : ℝ` in its written order)
    a, b = Var("a", REAL), Var("b", REAL)
    real_body = app("lt", a, app("add", b, num(1, REAL)))
    assert canon_key(Quant("forall", (a, b), real_body)) == canon_key(Quant("forall", (b, a), real_body))
    # …while `x : Fin n` names n: the block keeps its order
    n, k = Var("n", NAT), Var("k", OpaqueSort("Fin n"))
    fin_body = app("eq", n, n)
    assert canon_key(Quant("forall", (n, k), fin_body)) != canon_key(Quant("forall", (k, n), fin_body))
