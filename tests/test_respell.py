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
                                                        "binder groups split", "hypotheses swapped"]),
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
