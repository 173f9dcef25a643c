"""Symbols the packaged tokenizer loses are spelled as words before embedding."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from embeddings import Embedder, default_embedder
from embeddings.spelling import SPELLINGS, spell_symbols


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return default_embedder()


@pytest.fixture(scope="module")
def tokenizer(embedder):
    return embedder.model.tokenizer


def _read_back(tokenizer, text: str) -> str:
    return "".join(t.removeprefix("##") for t in tokenizer.tokenize(text))


def test_every_listed_symbol_is_lost_by_the_packaged_tokenizer(tokenizer):
    # the table is exactly a list of losses: a symbol the tokenizer keeps must not be respelled
    for symbol in SPELLINGS:
        assert _read_back(tokenizer, symbol) != symbol, symbol


def test_every_spelling_reaches_the_model_intact(tokenizer):
    for symbol, words in SPELLINGS.items():
        tokens = tokenizer.tokenize(spell_symbols(f"a {symbol} b"))
        assert "[UNK]" not in tokens, (symbol, tokens)
        assert _read_back(tokenizer, words) == words.replace(" ", "").lower(), symbol


def test_negated_relations_no_longer_read_as_their_positive_form(embedder):
    raw = Embedder(model_instance=embedder.model, spell_symbols=False)
    pairs = [("x ≠ 3", "x = 3"), ("a ∉ S", "a ∈ S"), ("x ≮ y", "x < y")]
    for negated, plain in pairs:
        # without spelling the model cannot tell them apart at all
        assert raw.encode(negated) @ raw.encode(plain) == pytest.approx(1.0, abs=1e-6)
        assert embedder.encode(negated) @ embedder.encode(plain) < 0.99, negated


def test_a_negated_back_translation_ranks_above_its_equality_mutant(embedder):
    # a FormalAlign miniF2F problem and the rule reading of its aligned statement; the
    # mutant turns both ≠ into =, which the model could not see at all before
    informal = ("Find $A$ and $B$ such that \\[\\frac{4x}{x^2-8x+15} = \\frac{A}{x-3} + \\frac{B}{x-5}\\]"
                "for all $x$ besides 3 and 5. Express your answer as an ordered pair in the form $(A, B).$ "
                "Show that it is (-6, 10).")
    faithful = ("For all real numbers a and b, if (for every real number x, if x - 3 ≠ 0 and x - 5 ≠ 0, "
                "then 4x / (x^2 - 8x + 15) = a / (x - 3) + b / (x - 5)), then a = -6 and b = 10.")
    mutant = faithful.replace("≠", "=")
    raw = Embedder(model_instance=embedder.model, spell_symbols=False)
    ref, good, bad = raw.encode([informal, faithful, mutant])
    assert ref @ good == ref @ bad
    ref, good, bad = embedder.encode([informal, faithful, mutant])
    assert ref @ good > ref @ bad + 0.01


def test_texts_without_listed_symbols_are_unchanged_and_cached_as_before(embedder):
    text = "For every real x, if 0 ≤ x, then √(x^2) = x and x ∈ S."
    assert spell_symbols(text) == text
    raw = Embedder(model_instance=embedder.model, spell_symbols=False)
    assert (embedder.encode(text) == raw.encode(text)).all()


def test_floor_and_divisibility_read_as_words():
    assert spell_symbols("⌊x / 2⌋ ∣ n") == "floor( x / 2 ) divides n"
    assert spell_symbols("n ∈ ℕ, x ≠ 0") == "n ∈ natural numbers , x not equal to 0"


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from(list(SPELLINGS) + list("ab x=<≤√∈ "))))
def test_spelling_is_idempotent_and_leaves_no_listed_symbol(text):
    once = spell_symbols(text)
    assert spell_symbols(once) == once
    assert not any(symbol in once for symbol in SPELLINGS)
