"""Metrics: hand-computed cases, brute-force enumeration, and known pass@k values."""

from __future__ import annotations

import math
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rerank.metrics import (
    BootstrapResult,
    bootstrap_ci,
    class_rank_fn,
    cohen_kappa,
    judge_report,
    labeling_cost,
    mean_n_at_k,
    n_at_k,
    paired_bootstrap_ci,
    pass_at_k,
    ppv,
    relative_efficiency,
    sa_pass,
    sa_pass_soft,
)

# ----------------------------------------------------------------------------- pass@k


def _pass_at_k_comb(n: int, c: int, k: int) -> float:
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def test_pass_at_k_known_values():
    assert pass_at_k(10, 0, 1) == 0.0
    assert pass_at_k(10, 10, 1) == 1.0
    assert pass_at_k(10, 3, 1) == pytest.approx(0.3)
    # 1 - C(8,2)/C(10,2) = 1 - 28/45
    assert pass_at_k(10, 2, 2) == pytest.approx(17 / 45)
    # n - c < k: every k-subset holds a correct sample
    assert pass_at_k(5, 3, 3) == 1.0
    assert pass_at_k(10, 1, 10) == 1.0


def test_pass_at_k_large_n_is_stable():
    # C(2000, 100) overflows a float; the product form does not.
    v = pass_at_k(2000, 7, 100)
    assert 0.0 < v < 1.0
    assert v == pytest.approx(_pass_at_k_comb(2000, 7, 100), rel=1e-9)


@given(
    st.integers(1, 30).flatmap(
        lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(1, n))
    )
)
@settings(max_examples=200, deadline=None)
def test_pass_at_k_matches_binomial_formula(args):
    n, c, k = args
    assert pass_at_k(n, c, k) == pytest.approx(_pass_at_k_comb(n, c, k), abs=1e-12)


@pytest.mark.parametrize(
    "args,err",
    [
        ((0, 0, 1), ValueError),
        ((5, 6, 1), ValueError),
        ((5, 2, 6), ValueError),
        ((5, 2, 0), ValueError),
        ((5.0, 2, 1), TypeError),
    ],
)
def test_pass_at_k_rejects_bad_arguments(args, err):
    with pytest.raises(err):
        pass_at_k(*args)


# ----------------------------------------------------------------------------- n@k


def test_n_at_k_deterministic_when_k_equals_n():
    correct = [False, False, True, False]
    assert n_at_k(correct, 1, ranking=[2, 0, 1, 3]) == 1.0
    assert n_at_k(correct, 1, ranking=[0, 2, 1, 3]) == 0.0
    assert n_at_k(correct, 2, ranking=[0, 2, 1, 3]) == 1.0
    assert n_at_k(correct, 2, ranking=[3, 0, 2, 1]) == 0.0
    # a selector that stops early (fewer than n picks) just has fewer chances
    assert n_at_k(correct, 3, ranking=[0]) == 0.0


def test_n_at_k_first_sample_baseline_by_enumeration():
    # rank_fn = "first sample of the subset": 1@k = P(min index of a random k-subset is correct)
    correct = np.array([0, 1, 0, 0, 1, 0], dtype=bool)
    big_n, k = 6, 3

    def first(sub):
        return list(sub)

    expected = np.mean([correct[min(s)] for s in combinations(range(big_n), k)])
    # hand value: P(min = 1) = C(4,2)/C(6,3) = 6/20, P(min = 4) = C(1,2)/20 = 0
    assert expected == pytest.approx(6 / 20)
    assert n_at_k(correct, 1, k, rank_fn=first) == pytest.approx(6 / 20)


@given(
    st.lists(st.booleans(), min_size=1, max_size=9).flatmap(
        lambda c: st.tuples(st.just(c), st.integers(1, len(c)))
    )
)
@settings(max_examples=60, deadline=None)
def test_k_at_k_with_any_ranking_equals_pass_at_k(args):
    # n = k: the whole subset is "selected", so n@k is exactly pass@k.
    correct, k = args

    def reverse(sub):
        return list(sub)[::-1]

    v = n_at_k(correct, k, k, rank_fn=reverse)
    assert v == pytest.approx(pass_at_k(len(correct), sum(correct), k), abs=1e-12)


def test_n_at_k_recomputes_the_ranking_per_subset():
    # "Majority" selector on values: picks a member of the most frequent value class.
    values = [1, 1, 2, 2, 2, 3]
    correct = [True, True, False, False, False, False]
    calls = []

    def majority(sub):
        calls.append(tuple(sub))
        sub = list(sub)
        best = max(sub, key=lambda i: (sum(values[j] == values[i] for j in sub), -i))
        return [best]

    v = n_at_k(correct, 1, 4, rank_fn=majority)
    # brute force with the same rule
    hits = []
    for s in combinations(range(6), 4):
        best = max(s, key=lambda i: (sum(values[j] == values[i] for j in s), -i))
        hits.append(correct[best])
    assert v == pytest.approx(np.mean(hits))
    assert len(calls) == math.comb(6, 4)
    assert len(set(calls)) == math.comb(6, 4)


def test_n_at_k_monte_carlo_is_seeded_and_close_to_exact():
    rng = np.random.default_rng(1)
    correct = rng.random(14) < 0.3

    def first(sub):
        return list(sub)

    exact = n_at_k(correct, 1, 7, rank_fn=first, method="exact")
    mc1 = n_at_k(correct, 1, 7, rank_fn=first, method="monte_carlo", n_subsets=4000, seed=3)
    mc2 = n_at_k(correct, 1, 7, rank_fn=first, method="monte_carlo", n_subsets=4000, seed=3)
    assert mc1 == mc2
    # 4000 draws of a Bernoulli: standard error <= 0.008
    assert abs(mc1 - exact) < 0.04
    # auto switches to Monte Carlo above the enumeration limit
    auto = n_at_k(correct, 1, 7, rank_fn=first, max_exact_subsets=10, n_subsets=4000, seed=3)
    assert auto == mc1


def test_n_at_k_argument_errors():
    with pytest.raises(ValueError, match="rank_fn"):
        n_at_k([True, False, False], 1, 2, ranking=[0, 1])
    with pytest.raises(ValueError, match="exceeds k"):
        n_at_k([True, False], 3, ranking=[0, 1])
    with pytest.raises(ValueError, match="exceeds the number"):
        n_at_k([True, False], 1, 3, rank_fn=list)
    with pytest.raises(ValueError, match="needs ranking"):
        n_at_k([True, False], 1)
    with pytest.raises(ValueError, match="outside the subset"):
        n_at_k([True, False, False], 1, 2, rank_fn=lambda sub: [0] if 0 not in sub else [1])
    with pytest.raises(ValueError, match="empty"):
        n_at_k([], 1)


def test_mean_n_at_k():
    correct = [[True, False], [False, True], [False, False]]
    rankings = [[0, 1], [0, 1], [1, 0]]
    assert mean_n_at_k(correct, rankings, 1) == pytest.approx(1 / 3)
    assert mean_n_at_k(correct, rankings, 2) == pytest.approx(2 / 3)


# ----------------------------------------------------------------------------- labeling cost


def test_labeling_cost_design_formula_hand_values():
    # k = 4, curve 1@k..4@k = 0.4, 0.6, 0.7, 0.8
    v = [0.4, 0.6, 0.7, 0.8]
    # sum_{n=2}^{3} n (n@k - (n-1)@k) + (1 - 4@k) = 2*0.2 + 3*0.1 + 0.2
    assert labeling_cost(v) == pytest.approx(0.9)
    # expected checks: 1*0.4 + 2*0.2 + 3*0.1 + 4*0.1 + 4*0.2
    assert labeling_cost(v, "expected_checks") == pytest.approx(2.3)


def test_labeling_cost_is_linear_in_the_curve():
    a = [1.0, 1.0, 1.0, 1.0]
    b = [0.0, 0.0, 1.0, 1.0]
    mean = [0.5, 0.5, 1.0, 1.0]
    for f in ("design", "expected_checks"):
        assert labeling_cost(mean, f) == pytest.approx(
            (labeling_cost(a, f) + labeling_cost(b, f)) / 2
        )


def test_labeling_cost_validation_and_efficiency():
    with pytest.raises(ValueError, match="non-decreasing"):
        labeling_cost([0.5, 0.4])
    with pytest.raises(ValueError):
        labeling_cost([])
    with pytest.raises(ValueError, match="formula"):
        labeling_cost([0.5], "paper")
    assert labeling_cost([0.3]) == pytest.approx(0.7)
    assert relative_efficiency(1.0, 4.0) == pytest.approx(0.75)
    assert relative_efficiency(4.0, 4.0) == 0.0
    with pytest.raises(ValueError):
        relative_efficiency(1.0, 0.0)


# ----------------------------------------------------------------------------- bootstrap


def test_bootstrap_is_seeded_and_brackets_the_mean():
    x = np.random.default_rng(0).random(200)
    r1 = bootstrap_ci(x, seed=5, n_resamples=500)
    r2 = bootstrap_ci(x, seed=5, n_resamples=500)
    assert isinstance(r1, BootstrapResult)
    assert r1 == r2
    assert r1.low < r1.estimate < r1.high
    assert r1.estimate == pytest.approx(x.mean())
    # a constant sample has a degenerate interval
    c = bootstrap_ci(np.ones(30), n_resamples=100)
    assert (c.low, c.estimate, c.high) == (1.0, 1.0, 1.0)


def test_paired_bootstrap_keeps_the_pairing():
    rng = np.random.default_rng(2)
    base = rng.random(100)
    a = base + 0.1
    # identical per-problem difference: a paired resample always gives exactly 0.1,
    # an unpaired one would not.
    r = paired_bootstrap_ci(a, base, n_resamples=300)
    assert r.low == pytest.approx(0.1) and r.high == pytest.approx(0.1)
    with pytest.raises(ValueError):
        paired_bootstrap_ci([1, 2], [1, 2, 3])


# ----------------------------------------------------------------------------- judge vs labels


def test_judge_report_hand_counts_and_inconclusive_policies():
    verdicts = ["equivalent", "equivalent", "inequivalent", "inconclusive", "inequivalent", None]
    labels = [1, 0, 0, 1, 1, 0]
    r = judge_report(verdicts, labels)  # exclude: 4 decided
    assert (r.tp, r.fp, r.tn, r.fn) == (1, 1, 1, 1)
    assert r.n == 6 and r.n_inconclusive == 2 and r.coverage == pytest.approx(4 / 6)
    assert r.agreement == pytest.approx(0.5)
    assert r.precision == pytest.approx(0.5)
    assert r.recall == pytest.approx(0.5)
    assert r.negative_confirmation == pytest.approx(0.5)
    assert r.kappa == pytest.approx(0.0)
    neg = judge_report(verdicts, labels, inconclusive="negative")
    assert (neg.tp, neg.fp, neg.tn, neg.fn) == (1, 1, 2, 2)
    pos = judge_report(verdicts, labels, inconclusive="positive")
    assert (pos.tp, pos.fp, pos.tn, pos.fn) == (2, 2, 1, 1)
    with pytest.raises(ValueError):
        judge_report(verdicts, labels, inconclusive="drop")
    with pytest.raises(ValueError, match="cannot read verdict"):
        judge_report(["maybe"], [1])


def test_cohen_kappa_hand_value():
    # 2x2 table: both yes 20, a yes b no 5, a no b yes 10, both no 15 (n = 50)
    a = [1] * 20 + [1] * 5 + [0] * 10 + [0] * 15
    b = [1] * 20 + [0] * 5 + [1] * 10 + [0] * 15
    p_o = 35 / 50
    p_e = (25 / 50) * (30 / 50) + (25 / 50) * (20 / 50)
    assert cohen_kappa(a, b) == pytest.approx((p_o - p_e) / (1 - p_e))
    assert cohen_kappa([1, 0, 1], [1, 0, 1]) == pytest.approx(1.0)
    assert math.isnan(cohen_kappa([1, 1], [1, 1]))


def test_ppv():
    # e = 0.5, m = 0.2, f = 0.1: 0.4 / (0.4 + 0.05)
    assert ppv(0.5, 0.2, 0.1) == pytest.approx(0.4 / 0.45)
    assert ppv(0.3, 0.0, 0.0) == 1.0
    assert math.isnan(ppv(0.0, 0.5, 0.0))
    with pytest.raises(ValueError):
        ppv(1.5, 0.1, 0.1)


# ----------------------------------------------------------------------------- SA-PASS


def test_sa_pass_and_soft():
    assert sa_pass([True, True], True) is True
    assert sa_pass([True, False], True) is False
    assert sa_pass([True, True], False) is False
    assert sa_pass([True, None], True) is False
    assert sa_pass_soft([True, True, False, False], True) == pytest.approx(0.75)
    assert sa_pass_soft([True, True, True], False) == pytest.approx(0.5)
    assert sa_pass_soft([False], None) == 0.0
    assert sa_pass_soft([], True) == 1.0
    with pytest.raises(TypeError):
        sa_pass_soft(["yes"], True)


@given(st.lists(st.booleans(), max_size=8), st.booleans())
@settings(deadline=None)
def test_sa_pass_soft_is_one_iff_sa_pass(forward, backward):
    assert (sa_pass_soft(forward, backward) == 1.0) == sa_pass(forward, backward)


def test_class_rank_fn_matches_the_full_pipeline_and_brute_force():
    from rerank.combine import combine, symbolic_scores
    from rerank.select import select_top_n

    classes = [[0, 2, 5], [1, 4], [3]]
    semantic = np.array([0.2, 0.9, 0.3, 0.8, 0.1, 0.25])
    correct = [False, True, False, False, True, False]
    rank = class_rank_fn(classes, semantic, rule="log", alpha=0.5)
    # k = N: identical to scoring and selecting the whole pool
    full = select_top_n(combine(symbolic_scores(classes, 6), semantic, "log", 0.5), classes, None)
    assert rank(np.arange(6)) == full
    # k < N: brute force, rebuilding the restricted classes by hand
    hits = []
    for sub in combinations(range(6), 3):
        local = [[sub.index(i) for i in c if i in sub] for c in classes]
        local = [c for c in local if c]
        sym = symbolic_scores(local, 3)
        picks = select_top_n(combine(sym, semantic[list(sub)], "log", 0.5), local, 1)
        hits.append(correct[sub[picks[0]]])
    assert n_at_k(correct, 1, 3, rank_fn=rank) == pytest.approx(np.mean(hits))
    # symbolic only: the majority class wins, lowest index first
    assert class_rank_fn(classes)(np.array([1, 2, 4, 5]))[0] == 1
    assert class_rank_fn(classes)(np.arange(6))[:3] == [0, 1, 3]
