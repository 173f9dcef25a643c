"""Embeddings with the packaged model, caches, cosine helpers and the vector index."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from embeddings import (
    Embedder,
    VectorIndex,
    cosine_matrix,
    cosine_similarity,
    default_embedder,
    l2_normalize,
    near_duplicates,
    semantic_scores,
)


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    """The shared packaged-model embedder (loading takes a few seconds, done once)."""
    e = default_embedder()
    assert e is default_embedder()
    return e


def test_import_is_lazy():
    code = (
        "import sys, embeddings; "
        "print(any(m in sys.modules for m in ('torch', 'sentence_transformers', 'faiss')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
    assert "not loaded" in repr(Embedder())


# ----------------------------------------------------------------------------- real model


def test_similar_sentences_are_closer_than_unrelated(embedder):
    informal = "The sum of two even integers is even."
    close = "If a and b are even integers, then a + b is even."
    far = "The train leaves the station at noon on Sundays."
    v = embedder.encode([informal, close, far])
    assert v.shape == (3, 384) and v.dtype == np.float32
    np.testing.assert_allclose(np.linalg.norm(v, axis=1), 1.0, atol=1e-5)
    assert cosine_similarity(v[0], v[1]) > cosine_similarity(v[0], v[2]) + 0.3


def test_semantic_scores_rank_faithful_back_translations_first(embedder):
    informal = "Find the number of positive divisors of 36."
    back = [
        "The number 36 has exactly 9 positive divisors.",
        "For every real x, x squared is nonnegative.",
        None,
        "   ",
    ]
    s = semantic_scores(informal, back, embedder)
    assert s.shape == (4,)
    assert s[0] > s[1]
    assert s[2] == 0.0 and s[3] == 0.0  # no back-translation: no evidence
    assert -1.0 <= s.min() and s.max() <= 1.0
    assert semantic_scores(informal, [None], embedder).tolist() == [0.0]
    np.testing.assert_allclose(semantic_scores(informal, back), s, atol=1e-6)


def test_memory_cache_and_duplicate_texts(embedder):
    e = Embedder(model_instance=embedder.model)
    a = e.encode(["alpha beta", "gamma delta", "alpha beta"])
    assert e.n_encoded == 2  # the duplicate is encoded once
    np.testing.assert_array_equal(a[0], a[2])
    b = e.encode(["gamma delta", "alpha beta"])
    assert e.n_encoded == 2  # all from the cache
    np.testing.assert_array_equal(b[1], a[0])
    single = e.encode("gamma delta")
    assert single.shape == (384,)
    e.clear_cache()
    e.encode(["gamma delta"])
    assert e.n_encoded == 3


def test_disk_cache_persists_across_embedders(embedder, tmp_path):
    path = tmp_path / "cache" / "emb.sqlite"
    e1 = Embedder(model_instance=embedder.model, cache_path=path)
    v1 = e1.encode(["one statement", "another statement"])
    e1.close()
    e2 = Embedder(model_instance=embedder.model, cache_path=path)
    v2 = e2.encode(["another statement", "one statement"])
    assert e2.n_encoded == 0
    np.testing.assert_array_equal(v2[::-1], v1)
    # a different model name is a different cache key
    e3 = Embedder("other-model", model_instance=embedder.model, cache_path=path)
    e3.encode(["one statement"])
    assert e3.n_encoded == 1


def test_missing_model_is_not_downloaded():
    e = Embedder("some-org/no-such-model-for-tests")
    with pytest.raises(OSError, match="downloads are disabled"):
        e.encode(["x"])


def test_bad_arguments(embedder):
    with pytest.raises(ValueError):
        Embedder(batch_size=0)
    with pytest.raises(TypeError):
        embedder.encode(["ok", 3])
    assert embedder.encode([]).shape == (0, 384)


# ----------------------------------------------------------------------------- cosine helpers


def test_cosine_helpers_hand_values():
    assert cosine_similarity([1, 0], [0, 1]) == pytest.approx(0.0)
    assert cosine_similarity([1, 1], [2, 2]) == pytest.approx(1.0)
    assert cosine_similarity([1, 0], [-3, 0]) == pytest.approx(-1.0)
    assert cosine_similarity([0, 0], [1, 0]) == 0.0  # zero vector: no direction
    np.testing.assert_allclose(
        cosine_similarity(np.array([[1, 0], [0, 2]]), np.array([1, 1])),
        [1 / np.sqrt(2)] * 2,
    )
    m = cosine_matrix(np.array([[1, 0], [0, 1]]), np.array([[1, 0], [1, 1], [0, -1]]))
    np.testing.assert_allclose(m, [[1, 1 / np.sqrt(2), 0], [0, 1 / np.sqrt(2), -1]])
    np.testing.assert_allclose(np.linalg.norm(l2_normalize(np.array([[3, 4]])), axis=1), 1)
    with pytest.raises(ValueError, match="dimension"):
        cosine_matrix(np.ones((2, 3)), np.ones((2, 4)))


# ----------------------------------------------------------------------------- index


def test_index_search_hand_case():
    idx = VectorIndex(backend="numpy")
    idx.add(np.array([[1, 0], [0, 1], [1, 1]], dtype=np.float32))
    scores, ids = idx.search(np.array([1.0, 0.1]), k=2)
    assert ids.tolist() == [[0, 2]]
    assert scores[0, 0] == pytest.approx(1 / np.sqrt(1.01), abs=1e-6)
    assert len(idx) == 3 and idx.dim == 2
    with pytest.raises(ValueError, match="dimension"):
        idx.add(np.ones((1, 3)))
    with pytest.raises(ValueError, match="empty"):
        VectorIndex().search(np.ones(2))


def test_numpy_and_faiss_backends_agree():
    rng = np.random.default_rng(0)
    data = rng.standard_normal((300, 16)).astype(np.float32)
    queries = rng.standard_normal((5, 16)).astype(np.float32)
    results = {}
    for backend in ("numpy", "faiss"):
        idx = VectorIndex(backend=backend)
        idx.add(data[:200])
        idx.add(data[200:])  # incremental adds
        results[backend] = idx.search(queries, k=7)
    np.testing.assert_array_equal(results["numpy"][1], results["faiss"][1])
    np.testing.assert_allclose(results["numpy"][0], results["faiss"][0], atol=1e-5)
    auto = VectorIndex(backend="auto", faiss_threshold=100)
    auto.add(data[:50])
    assert auto.active_backend == "numpy"
    auto.add(data[50:])
    assert auto.active_backend == "faiss"


def _vectors_with_duplicates() -> np.ndarray:
    rng = np.random.default_rng(3)
    base = rng.standard_normal((6, 32))
    near = base[[1, 1, 4]] + 1e-3 * rng.standard_normal((3, 32))
    # rows: 0..5 distinct, 6 and 7 near 1, 8 near 4
    return np.vstack([base, near])


@pytest.mark.parametrize("backend", ["numpy", "faiss"])
def test_near_duplicates_groups_and_drops(backend):
    x = _vectors_with_duplicates()
    nd = near_duplicates(x, threshold=0.99, backend=backend)
    assert nd.groups == [[1, 6, 7], [4, 8]]
    assert nd.drop == [6, 7, 8]
    assert nd.keep == [0, 1, 2, 3, 4, 5]
    assert all(i < j and s >= 0.99 for i, j, s in nd.pairs)


def test_near_duplicates_is_transitive():
    # a~b and b~c above the threshold, a~c below it: one group
    t = np.radians([0.0, 10.0, 20.0])
    x = np.stack([np.cos(t), np.sin(t)], axis=1)
    nd = near_duplicates(x, threshold=np.cos(np.radians(12.0)))
    assert nd.groups == [[0, 1, 2]]
    assert nd.drop == [1, 2]


def test_near_duplicates_on_texts(embedder):
    texts = [
        "Find all real x such that x^2 = 4.",
        "Prove that there are infinitely many primes.",
        "Find all real x such that x^2 = 4.",
        "Find every real number x with x^2 = 4.",
    ]
    nd = near_duplicates(texts, threshold=0.999, encoder=embedder)
    assert nd.groups == [[0, 2]] and nd.drop == [2]
    loose = near_duplicates(texts, threshold=0.8, encoder=embedder)
    assert 1 in loose.keep and [0, 2, 3] in loose.groups
    # the default encoder is the shared packaged-model embedder
    assert near_duplicates(texts, threshold=0.999).groups == [[0, 2]]
    with pytest.raises(ValueError, match="threshold"):
        near_duplicates(texts, threshold=2.0, encoder=embedder)
    assert near_duplicates([], encoder=embedder).groups == []


# ----------------------------------------------------------------------------- rule informalizer


def _example_statement(h0: str = "h0", h1: str = "h1"):
    from fractions import Fraction

    from provers.ir import REAL, Hypothesis, Statement, Var, VarBinder, app, num

    x, y = Var("x", REAL), Var("y", REAL)
    return Statement(
        (
            VarBinder(x),
            VarBinder(y),
            Hypothesis(h0, app("ne", x, num(0, REAL))),
            Hypothesis(h1, app("eq", app("mul", num(2, REAL), x), y)),
        ),
        app("eq", app("div", x, y), num(Fraction(1, 2), REAL)),
    )


def test_rule_informalizer_reads_the_example():
    from embeddings import RuleInformalizer

    text = RuleInformalizer().informalize([_example_statement()])[0]
    assert text == "For all real numbers x and y, if x ≠ 0 and 2x = y, then x / y = 1/2."
    # hypothesis names are not part of the meaning
    assert RuleInformalizer().describe(_example_statement("a", "b")) == text


def test_rule_informalizer_terms():
    from embeddings.rule_informalizer import describe_term
    from provers import ir
    from provers.ir import NAT, REAL, Var, app, num

    n, p, i = Var("n", NAT), Var("p", NAT), Var("i", NAT)
    x, y = Var("x", REAL), Var("y", REAL)
    primes = ir.Quant(
        "forall",
        (n,),
        ir.Quant("exists", (p,), app("and", app("ge", p, n), app("prime", p))),
    )
    assert describe_term(primes) == (
        "for every natural number n, there exists a natural number p such that p ≥ n and p is prime"
    )
    assert describe_term(app("not", app("dvd", num(3, NAT), app("add", n, num(1, NAT))))) == (
        "3 does not divide n + 1"
    )
    evens = app("filter", ir.Lam((i,), app("even", i)), app("Icc", num(1, NAT), num(100, NAT)))
    assert describe_term(app("eq", app("card", evens), num(50, NAT))) == (
        "(the number of elements of {i ∈ {1, …, 100} | i is even}) = 50"
    )
    assert describe_term(app("sub", x, app("sub", y, x))) == "x - (y - x)"
    assert describe_term(app("pow", app("neg", x), num(2, NAT))) == "(-x)^2"
    assert describe_term(app("neg", app("pow", x, num(2, NAT)))) == "-x^2"
    assert describe_term(app("div", n, num(2, NAT))) == "⌊n / 2⌋"  # Nat division floors
    assert describe_term(ir.cast(app("fact", n), REAL)) == "n!"
    disj = app("implies", app("lt", x, y), app("or", app("eq", x, y), app("gt", x, num(-1, REAL))))
    assert describe_term(disj) == "if x < y, then x = y or x > -1"
    square = ir.SetBuilder(x, app("eq", app("pow", x, num(2, NAT)), num(4, REAL)))
    assert describe_term(square) == "the set of real numbers x such that x^2 = 4"
    total = ir.BigOp("sum", i, app("range", n), i)
    assert describe_term(total) == "the sum of i over i in {0, …, n - 1}"
    odd = ir.Uninterpreted("orderOf", (Var("g", ir.OpaqueSort("G")),), NAT)
    assert describe_term(app("eq", odd, num(2, NAT))) == "orderOf(g) = 2"


def test_rule_informalizer_parses_texts_and_reports_failures():
    from embeddings import InformalizationError, RuleInformalizer
    from provers.errors import ParseError

    known = {"thm": _example_statement()}

    def parser(text):
        if text not in known:
            raise ParseError("not a statement")
        return known[text]

    strict = RuleInformalizer(parser=parser)
    assert strict.informalize(["thm"])[0].startswith("For all real numbers x and y")
    with pytest.raises(InformalizationError, match="cannot read"):
        strict.informalize(["thm", "hello world"])
    lenient = RuleInformalizer(parser=parser, on_error="empty")
    out = lenient.informalize(["hello world", "thm"])
    assert out[0] == "" and out[1].endswith("= 1/2.")
    with pytest.raises(TypeError):
        strict.describe(42)


def test_rule_reading_is_close_to_the_informal_statement(embedder):
    from embeddings import RuleInformalizer

    reading = RuleInformalizer().describe(_example_statement())
    s = semantic_scores(
        "Let x and y be real numbers with x nonzero and 2x = y. Show that x/y = 1/2.",
        [reading, "Every group of prime order is cyclic."],
        embedder,
    )
    assert s[0] > s[1]


def test_rule_informalizer_binders_chains_and_unknown_predicates():
    from embeddings.rule_informalizer import describe_statement, describe_term
    from provers import ir
    from provers.ir import INT, NAT, REAL, Statement, Var, VarBinder, app, num

    fsort = ir.FunSort((REAL,), REAL)
    f, g, x = Var("f", fsort), Var("g", fsort), Var("x", REAL)
    s = Var("S", ir.SetSort(INT))
    st = Statement(
        (VarBinder(f), VarBinder(g), VarBinder(s)),
        app("eq", app("apply", f, num(0, REAL)), app("apply", g, num(0, REAL))),
    )
    assert describe_statement(st) == (
        "For all functions f and g from real numbers to real numbers and every set S of "
        "integers, f(0) = g(0)."
    )
    # nested binary disjunctions read as one list
    eqs = [app("eq", x, num(v, REAL)) for v in (1, 2, 3)]
    chain = app("or", eqs[0], app("or", eqs[1], eqs[2]))
    assert describe_term(chain) == "x = 1, x = 2 or x = 3"
    assert describe_term(app("mul", num(-2, REAL), app("pow", x, num(2, NAT)))) == "-2x^2"
    # a Bool-valued application the reader has no words for (f : ℝ → Prop) still reads
    p = Var("p", ir.FunSort((REAL,), ir.BOOL))
    assert describe_term(app("implies", app("apply", p, x), app("apply", p, x))) == (
        "if p(x), then p(x)"
    )
    assert describe_term(app("ite", app("apply", p, x), x, num(0, REAL))) == (
        "(if p(x) then x else 0)"
    )


# ----------------------------------------------------------------------------- batching

BATCH_TEXTS = [
    "Find the number of positive divisors of 36.",
    "The number 36 has exactly 9 positive divisors.",
    "For every real x, x squared is nonnegative.",
    "If a and b are even integers, then a + b is even, and moreover their product is "
    "divisible by four, which shows that the sum of two even numbers is again even.",
    "x = 2",
    "Let n be a positive integer. Show that the sum of the first n odd numbers equals n "
    "squared, that is, 1 + 3 + 5 + ... + (2n - 1) = n^2, for every n greater than zero.",
]


def test_a_vector_does_not_depend_on_its_batch():
    """One call for a problem's texts, yet the bits of each vector are those of the text
    alone (padding couples a batch; texts are padded to a length of their own)."""
    together = Embedder(cache=False).encode(BATCH_TEXTS)
    alone = np.stack([Embedder(cache=False).encode(t) for t in BATCH_TEXTS])
    subset = Embedder(cache=False).encode(BATCH_TEXTS[3:] + BATCH_TEXTS[:1])
    assert np.array_equal(together, alone)
    assert np.array_equal(subset, together[[3, 4, 5, 0]])


def test_one_shot_and_incremental_rankings_score_identically():
    """Fresh embedders without caches on both sides: equality comes from batch-independent
    vectors, not from one side reading the other's cache."""
    from rerank import Reranker

    cands = ["theorem t (x : ℝ) (h : 2 * x = 4) : x = 2", "theorem t (x : ℝ) (h : 2 * x = 4) : x = 3",
             "theorem t (y : ℝ) (h : 4 = 2 * y) : y = 2", "no theorem here"]
    infs = BATCH_TEXTS[1:5]
    opts = {"relation": "syntactic", "informalizer": "given", "check_vacuous": False}
    one = Reranker(embedder=Embedder(cache=False), **opts).rerank(BATCH_TEXTS[0], cands, infs)
    session = Reranker(embedder=Embedder(cache=False), **opts).start(BATCH_TEXTS[0])
    for c, t in zip(cands, infs, strict=True):
        session.add(c, t)
        session.ranking()
    inc = session.ranking()
    assert inc.semantic == one.semantic and inc.scores == one.scores and inc.order == one.order
    assert all(s != 0.0 for s in one.semantic)


def test_ranking_the_same_problem_again_encodes_nothing():
    from rerank import Reranker

    emb = Embedder()
    rr = Reranker(embedder=emb, relation="syntactic", informalizer="given", check_vacuous=False)
    cands = ["theorem t (x : ℝ) : x ^ 2 ≥ 0", "theorem t (x : ℝ) : x * x ≥ 0"]
    first = rr.rerank(BATCH_TEXTS[0], cands, BATCH_TEXTS[1:3])
    assert emb.n_encoded == 3  # the informal text and two back-translations, in one call
    again = rr.rerank(BATCH_TEXTS[0], cands, BATCH_TEXTS[1:3])
    assert emb.n_encoded == 3 and again.semantic == first.semantic


@pytest.fixture(scope="module")
def bf16_embedder() -> Embedder:
    return Embedder(precision="bfloat16")


def test_bfloat16_vectors_are_close_to_float32_and_cached_apart(embedder, bf16_embedder, tmp_path):
    texts = ["The sum of two even integers is even.", "Find all real x with x^2 = 4.",
             "If a and b are even integers, then a + b is even."]
    v32, v16 = embedder.encode(texts), bf16_embedder.encode(texts)
    assert v16.dtype == np.float32 and v16.shape == v32.shape
    np.testing.assert_allclose(np.linalg.norm(v16, axis=1), 1.0, atol=1e-5)
    cos = (v32 * v16).sum(axis=1)
    assert cos.min() > 0.99 and not np.array_equal(v32, v16)  # close, yet really bfloat16
    assert {p.dtype for p in bf16_embedder.model.parameters()} == {__import__("torch").bfloat16}
    # one disk cache, two precisions: neither reads the other's vectors
    path = tmp_path / "emb.sqlite"
    Embedder(model_instance=embedder.model, cache_path=path).encode(texts)
    again = Embedder(precision="bfloat16", model_instance=bf16_embedder.model, cache_path=path)
    np.testing.assert_array_equal(again.encode(texts), v16)
    assert again.n_encoded == len(texts)


def test_bfloat16_vector_does_not_depend_on_its_batch(bf16_embedder):
    texts = ["short", "a somewhat longer sentence about prime numbers and their sums",
             "x", "another sentence of middling length here"]
    together = bf16_embedder.encode(texts)
    bf16_embedder.clear_cache()
    alone = np.stack([bf16_embedder.encode(t) for t in texts])
    np.testing.assert_array_equal(together, alone)


def test_precision_is_checked(embedder, bf16_embedder):
    with pytest.raises(ValueError, match="precision must be one of"):
        Embedder(precision="float16")
    with pytest.raises(ValueError, match="computes in float32"):
        Embedder(precision="bfloat16", model_instance=embedder.model)
    with pytest.raises(ValueError, match="computes in bfloat16"):
        Embedder(model_instance=bf16_embedder.model)
    assert "bfloat16" in repr(bf16_embedder) and "precision" not in repr(Embedder())
