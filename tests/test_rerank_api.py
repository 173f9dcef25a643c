"""rerank.rerank / Reranker: selection from the majority class, class removal, safety rules.

Uses the real packaged sentence-transformers model for semantic scores.  Statements are
IR objects here (the Lean frontend has its own tests); Lean text is used where the
frontend is installed.
"""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rerank
from provers.ir import REAL, Statement, Var, VarBinder, app, num
from rerank import Ranking, Reranker

INFORMAL = "Find the real number x such that x plus one equals two."


def lin(name: str, a: int, b: int) -> Statement:
    x = Var(name, REAL)
    return Statement((VarBinder(x),), app("eq", app("add", x, num(a, REAL)), num(b, REAL)))



@pytest.fixture(autouse=True, scope="module")
def _one_torch_thread():
    """Torch's default intra-op threads spin against each other on a busy 2-core machine
    (a short sentence took 1 s instead of 0.06 s); one thread is what batch workers use."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)

def test_selects_from_the_known_majority_class():
    # class {0, 2, 4} (x + 1 = 2 up to renaming) is the majority
    cands = [lin("x", 1, 2), lin("x", 1, 3), lin("y", 1, 2), lin("x", 5, 0), lin("t", 1, 2)]
    same = ["x plus one equals two"] * 5
    r = rerank.rerank(INFORMAL, cands, informalizations=same, relation="syntactic", n=1)
    assert r.classes == [[0, 2, 4], [1], [3]]
    assert r.selected[0] in (0, 2, 4)
    assert r.symbolic == pytest.approx([0.6, 0.2, 0.6, 0.2, 0.6])


def test_alpha_one_is_pure_symbolic_and_alpha_zero_pure_semantic():
    cands = [lin("x", 1, 3), lin("x", 1, 2), lin("y", 1, 2)]
    infs = ["x plus one equals two", "the sky is blue today", "a cat sat on a mat"]
    sym = rerank.rerank(INFORMAL, cands, infs, alpha=1.0, relation="syntactic", n=2)
    assert sym.selected[0] in (1, 2) and sym.selected[1] == 0  # biggest class first
    # within the class the evidence breaks the tie: the better back-translation
    better = 1 if sym.semantic[1] > sym.semantic[2] else 2
    assert sym.selected[0] == better
    by_index = rerank.rerank(INFORMAL, cands, infs, alpha=1.0, relation="syntactic", n=2,
                             tie_break="index")
    assert by_index.selected == [1, 0]  # its first member by sample order
    sem = rerank.rerank(INFORMAL, cands, infs, alpha=0.0, relation="syntactic", n=2)
    assert sem.selected[0] == 0
    assert sem.semantic[0] == max(sem.semantic)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(0, 3), min_size=1, max_size=9), st.integers(1, 4))
def test_n_picks_never_repeat_a_class_while_others_remain(labels, n):
    cands = [lin(f"v{i}", 0, lab) for i, lab in enumerate(labels)]
    r = RR_NONE.rerank(INFORMAL, cands, n=n)
    assert len(r.selected) == min(n, len(cands))
    cls = [r.class_index(i) for i in r.selected]
    distinct_classes = len(r.classes)
    head = cls[: min(n, distinct_classes)]
    assert len(set(head)) == len(head)
    # the full order is a permutation and starts with the selection
    assert sorted(r.order) == list(range(len(cands)))
    assert r.order[: len(r.selected)] == r.selected


RR_NONE = Reranker(relation="syntactic", informalizer="none")


def test_unparseable_candidate_never_wins_even_with_the_best_back_translation():
    cands = ["not a theorem at all :: ???", lin("x", 1, 2), lin("x", 1, 3)]
    infs = [INFORMAL, "a cat sat on a mat", "the weather is nice"]
    r = rerank.rerank(INFORMAL, cands, infs, relation="syntactic", n=1, alpha=0.2)
    assert r.semantic[0] == pytest.approx(1.0, abs=1e-5)
    assert r.selected[0] != 0
    assert r.scores[0] == -math.inf
    assert "parse_error" in r.flags[0] and r.errors[0]


@pytest.mark.parametrize(
    "junk",
    [None, 17, "", "   ", "theorem", "∀∀∀ ((((", "x" * 100_000, "(" * 5000, {"a": 1}],
)
def test_garbage_candidates_never_crash(junk):
    r = RR_NONE.rerank(INFORMAL, [junk, lin("x", 1, 2)])
    assert r.selected == [1]
    assert r.errors[0]


def test_all_candidates_unparseable_still_returns_a_ranking():
    r = RR_NONE.rerank(INFORMAL, ["nope", "still nope"], n=2)
    assert r.selected == [0, 1]
    assert all(e for e in r.errors)


def test_input_errors_are_clear():
    with pytest.raises(TypeError, match="list"):
        RR_NONE.rerank(INFORMAL, "theorem x : 1 = 1")
    with pytest.raises(ValueError, match="2 informalizations given for 1 candidates"):
        RR_NONE.rerank(INFORMAL, [lin("x", 1, 2)], ["a", "b"])
    with pytest.raises(ValueError, match="relation"):
        Reranker(relation="fuzzy")
    with pytest.raises(ValueError, match="alpha"):
        Reranker(alpha=2.0)
    with pytest.raises(ValueError, match="n must be"):
        Reranker(n=0)


def test_to_dict_is_json_and_round_trips():
    r = rerank.rerank(INFORMAL, ["garbage", lin("x", 1, 2), lin("y", 1, 2)],
                      ["g", "x plus one is two", "y plus one is two"], relation="syntactic", n=2)
    d = r.to_dict()
    text = json.dumps(d, allow_nan=False)
    back = Ranking.from_dict(json.loads(text))
    assert back == r
    assert d["scores"][0] is None
    assert d["stats"]["naive_pairs"] == 3
    assert "timing" not in d and "timing" in r.to_dict(timing=True)


def test_get_and_set_params():
    rr = Reranker(alpha=0.3, rule="linear")
    p = rr.get_params()
    assert p["alpha"] == 0.3 and p["rule"] == "linear" and p["relation"] == "symbolic"
    clone = Reranker(**p)
    assert clone.get_params() == p
    rr.set_params(alpha=0.9)
    assert rr.alpha == 0.9
    with pytest.raises(ValueError, match="unknown parameter"):
        rr.set_params(beta=1)
    with pytest.raises(ValueError, match="alpha"):
        rr.set_params(alpha=3.0, rule="quadratic")
    assert rr.alpha == 0.9 and rr.rule == "linear"  # unchanged after a rejected update
    assert "alpha=0.9" in repr(rr)
    with pytest.raises(ValueError, match="embed_precision"):
        rr.set_params(embed_precision="float16")
    assert Reranker(embed_precision="bfloat16").embedder_.precision == "bfloat16"
    assert Reranker().embedder_.precision == "float32"


VAC = [
    "theorem v (x : ℝ) (h₀ : 1 < x) (h₁ : x < 0) : x = 5 := by sorry",
    "theorem v (y : ℝ) (h₁ : y < 0) (h₀ : 1 < y) : y = 5 := by sorry",
    "theorem v (z : ℝ) (h₀ : 1 < z) (h₁ : z < 0) : 5 = z := by sorry",
]
OK = [
    "theorem t (x : ℝ) (h : x + 1 = 2) : x = 1 := by sorry",
    "theorem t (a : ℝ) (h : 1 + a = 2) : a = 1 := by sorry",
]


def test_vacuous_candidates_are_flagged_and_cannot_win_by_class_size():
    cands = VAC + OK
    r = RR_NONE.rerank(INFORMAL, cands)
    assert [0, 1, 2] in r.classes and [3, 4] in r.classes
    for i in range(3):
        assert "vacuous" in r.flags[i] and "demoted_vacuous" in r.flags[i]
    assert r.selected == [3]
    assert r.order[:2] in ([3, 0], [3, 4]) and set(r.order[2:]) >= {1, 2}
    assert max(r.order.index(i) for i in (3, 4)) < min(r.order.index(i) for i in (0, 1, 2))
    loose = Reranker(relation="syntactic", informalizer="none", penalize_vacuous=False)
    r2 = loose.rerank(INFORMAL, cands)
    assert r2.selected == [0]  # without the guard the contradictory class would win
    assert "vacuous" in r2.flags[0] and "demoted_vacuous" not in r2.flags[0]


def test_symbolic_classes_come_from_the_engine_on_lean_text():
    cands = [
        "theorem t (x : ℝ) (h : 2 * x + 3 = 7) : x = 2 := by sorry",
        "theorem t (x : ℝ) (h : 2 * x + 3 = 7) : x = 3 := by sorry",
        "theorem t (x : ℝ) (h : 2 * x = 4) : x = 2 := by sorry",
        "theorem t (y : ℝ) (h : 7 = 3 + 2 * y) : 2 = y := by sorry",
        "theorem t (n : ℕ) (h : 2 * n + 3 = 7) : n = 2 := by sorry",
    ]
    r = Reranker(informalizer="none", timeout=5.0).rerank(INFORMAL, cands, n=3)
    # 2x + 3 = 7 and 2x = 4 agree only by a proof; over ℕ (4) the same answer 2, compared as a value
    assert [0, 2, 3, 4] in r.classes
    assert r.selected[0] in (0, 2, 3, 4)
    # x = 3 is refuted (2x + 3 = 7 forces x = 2): it comes after every sound candidate
    assert "refuted" in r.flags[1] and "demoted_refuted" in r.flags[1]
    assert r.order[-1] == 1
    s = r.stats
    assert s["equivalent"] >= 2 and s["checks"] < s["naive_pairs"] == 10


def test_default_keeps_the_first_sample_when_nothing_separates_the_candidates():
    # three pairwise inequivalent statements, no truth check, no back-translations: no
    # score separates them
    cands = [lin("x", 1, 2), lin("x", 2, 2), lin("x", 3, 2)]
    r = Reranker(relation="syntactic", informalizer="none", check_truth=False).rerank(INFORMAL, cands, n=3)
    assert r.classes == [[0], [1], [2]]
    assert r.selected == [0, 1, 2]
    # reversing the pool keeps its (new) first candidate: the rule follows position, not text
    r2 = Reranker(relation="syntactic", informalizer="none", check_truth=False).rerank(
        INFORMAL, cands[::-1], n=1)
    assert r2.selected == [0]


def test_a_proved_pair_beats_a_first_singleton_with_the_defaults():
    cands = [
        "theorem t (x : ℝ) (h : 2 * x + 3 = 7) : x ≠ 5 := by sorry",
        "theorem t (x : ℝ) (h : 2 * x + 3 = 7) : x = 2 := by sorry",
        "theorem t (y : ℝ) (h : 2 * y = 4) : y = 2 := by sorry",
    ]
    r = Reranker(informalizer="none", timeout=5.0).rerank(INFORMAL, cands)
    assert [1, 2] in r.classes
    assert r.selected[0] in (1, 2)


def test_api_and_cli_share_the_cross_validated_defaults():
    from typer.testing import CliRunner

    from rerank import defaults
    from rerank.cli import app

    params = Reranker().get_params()
    for name in ("alpha", "undecided_weight", "consensus_weight", "truth_weight", "semantic_text",
                 "answer_weight", "keep_first_margin"):
        assert params[name] == getattr(defaults, f"DEFAULT_{name.upper()}"), name
    help_text = CliRunner().invoke(app, ["select", "--help"]).output
    assert f"[default: {defaults.DEFAULT_ALPHA}]" in help_text


def test_the_live_ranking_sees_statement_similarity():
    # the clusterer's evidence carries the similarities consensus support weighs: renamed
    # copies are alike (1.0), a different reading less
    from rerank.cluster import Clusterer
    from rerank.scoring import PoolEvidence

    cands = [
        "theorem t (f : ℝ → ℝ) (h₀ : f 1 = 2) : f (f 1) = 5 := by sorry",
        "theorem t (g : ℝ → ℝ) (h : g 1 = 2) : g (g 1) = 5 := by sorry",
        "theorem t (x : ℝ) (h : 2 * x = 4) : x = 2 := by sorry",
    ]
    c = Clusterer("syntactic", "lean4", 1.0)
    c.extend(cands)
    sim = PoolEvidence.from_clusterer(c).similarity
    assert sim[0, 1] == 1.0 and 0 < sim[0, 2] < 0.7


def test_a_reranker_can_leave_ill_formed_candidates_apart():
    """``compare_ill_formed=False`` reaches the clusterer: the raw-Unicode spelling Isabelle
    rejects is a class of its own and flagged; by default it joins the ASCII spelling's class."""
    ascii_ = 'theorem fixes x :: real assumes h0 : "x \\<noteq> 1" shows "x + 1 \\<noteq> 2"'
    raw = 'theorem fixes x :: real assumes h0 : "x ≠ 1" shows "x + 1 ≠ 2"'
    kw = dict(relation="symbolic", language="isabelle", informalizer="none", timeout=1.0)
    together = Reranker(**kw).rerank(INFORMAL, [ascii_, raw])
    apart = Reranker(**kw, compare_ill_formed=False).rerank(INFORMAL, [ascii_, raw])
    assert together.classes == [[0, 1]] and apart.classes == [[0], [1]]
    assert any("not compared" in f for f in apart.flags[1])


def test_a_reranker_asks_the_engine_about_an_ill_formed_candidate_only_on_request():
    """By default a rejected text joins only the class of the same statement; ``x + 2 ≠ 3``
    (raw ≠, which Isabelle rejects) means the ASCII candidate's ``x + 1 ≠ 2`` under ``x ≠ 1``
    and is proved so only with ``compare_ill_formed=True``."""
    ascii_ = 'theorem fixes x :: real assumes h0 : "x \\<noteq> 1" shows "x + 1 \\<noteq> 2"'
    shifted = 'theorem fixes x :: real assumes h0 : "x ≠ 1" shows "x + 2 ≠ 3"'
    kw = dict(relation="symbolic", language="isabelle", informalizer="none", timeout=1.0)
    default = Reranker(**kw).rerank(INFORMAL, [ascii_, shifted])
    compared = Reranker(**kw, compare_ill_formed=True).rerank(INFORMAL, [ascii_, shifted])
    assert default.classes == [[0], [1]] and compared.classes == [[0, 1]]
    assert any("identity only" in f for f in default.flags[1])
    with pytest.raises(ValueError, match="compare_ill_formed"):
        Reranker(**kw, compare_ill_formed="skip")
