"""Score normalization, combination rules and top-n selection against hand values."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rerank.combine import (
    DEFAULT_EPS,
    ScoreCombiner,
    combine,
    combine_normalized,
    normalize_scores,
    symbolic_scores,
)
from rerank.select import (
    class_of,
    select_by_logprob,
    select_kmeans,
    select_naive,
    select_random,
    select_top_n,
)

# ----------------------------------------------------------------------------- normalization


def test_sum_normalization_hand_values():
    np.testing.assert_allclose(normalize_scores([1, 3]), [0.25, 0.75])
    # negative cosines are clipped to 0 (no evidence), not allowed to subtract
    np.testing.assert_allclose(normalize_scores([-0.5, 0.5, 1.5]), [0.0, 0.25, 0.75])
    # all zero (or all negative): uniform
    np.testing.assert_allclose(normalize_scores([0, 0, 0, 0]), [0.25] * 4)
    np.testing.assert_allclose(normalize_scores([-1, -2]), [0.5, 0.5])
    assert normalize_scores([]).size == 0


def test_softmax_normalization_hand_values():
    s = normalize_scores([0.0, math.log(3.0)], "softmax")
    np.testing.assert_allclose(s, [0.25, 0.75])
    # temperature 2 halves the logits: weights 1 and sqrt(3)
    t = normalize_scores([0.0, math.log(3.0)], "softmax", temperature=2.0)
    np.testing.assert_allclose(t, [1 / (1 + math.sqrt(3)), math.sqrt(3) / (1 + math.sqrt(3))])
    # large values do not overflow
    big = normalize_scores([1000.0, 1000.0], "softmax")
    np.testing.assert_allclose(big, [0.5, 0.5])


@pytest.mark.parametrize(
    "kwargs",
    [
        {"method": "l2"},
        {"method": "softmax", "temperature": 0.0},
        {"method": "softmax", "temperature": -1.0},
    ],
)
def test_normalization_rejects_bad_arguments(kwargs):
    with pytest.raises(ValueError):
        normalize_scores([1.0, 2.0], **kwargs)


def test_normalization_rejects_nan_and_matrices():
    with pytest.raises(ValueError, match="NaN"):
        normalize_scores([1.0, float("nan")])
    with pytest.raises(ValueError, match="one-dimensional"):
        normalize_scores([[1.0, 2.0]])


@given(st.lists(st.floats(-1, 1, allow_nan=False), min_size=1, max_size=20))
@settings(deadline=None)
def test_normalized_scores_are_a_distribution(xs):
    for method in ("sum", "softmax"):
        s = normalize_scores(xs, method)
        assert np.all(s >= 0)
        assert s.sum() == pytest.approx(1.0)


# ----------------------------------------------------------------------------- rules


SYM = [0.5, 0.3, 0.2]
SEM = [0.2, 0.2, 0.6]


def test_log_rule_hand_values():
    out = combine_normalized(SYM, SEM, "log", alpha=0.5)
    expected = [0.5 * math.log(s) + 0.5 * math.log(t) for s, t in zip(SYM, SEM, strict=True)]
    np.testing.assert_allclose(out, expected)
    out = combine_normalized(SYM, SEM, "log", alpha=0.25)
    np.testing.assert_allclose(out[2], 0.25 * math.log(0.2) + 0.75 * math.log(0.6))


def test_linear_and_quadratic_hand_values():
    np.testing.assert_allclose(
        combine_normalized(SYM, SEM, "linear", alpha=0.3), [0.29, 0.23, 0.48]
    )
    np.testing.assert_allclose(
        combine_normalized(SYM, SEM, "quadratic", alpha=0.3),
        [0.3 * 0.25 + 0.7 * 0.04, 0.3 * 0.09 + 0.7 * 0.04, 0.3 * 0.04 + 0.7 * 0.36],
    )


def test_log_rule_epsilon_for_zero_shares():
    out = combine_normalized([1.0, 0.0], [0.5, 0.5], "log", alpha=0.5)
    assert np.isfinite(out).all()
    assert out[1] == pytest.approx(0.5 * math.log(DEFAULT_EPS) + 0.5 * math.log(0.5))
    # alpha = 0 ignores the zero symbolic share entirely
    out0 = combine_normalized([1.0, 0.0], [0.5, 0.5], "log", alpha=0.0)
    np.testing.assert_allclose(out0, [math.log(0.5)] * 2)


def test_combine_normalizes_first():
    sym = symbolic_scores([[0, 1, 2], [3]], 4)  # 0.75, 0.75, 0.75, 0.25
    np.testing.assert_allclose(sym, [0.75, 0.75, 0.75, 0.25])
    sem = [0.9, 0.1, 0.5, 0.5]
    out = combine(sym, sem, "linear", alpha=0.5)
    sym_hat = np.array([0.3, 0.3, 0.3, 0.1])
    sem_hat = np.array([0.9, 0.1, 0.5, 0.5]) / 2.0
    np.testing.assert_allclose(out, 0.5 * sym_hat + 0.5 * sem_hat)


@pytest.mark.parametrize("rule", ["log", "linear", "quadratic"])
@pytest.mark.parametrize("norm", ["sum", "softmax"])
def test_alpha_one_is_pure_symbolic_and_alpha_zero_pure_semantic(rule, norm):
    classes = [[0, 3, 5], [1, 4], [2]]
    sym = symbolic_scores(classes, 6)
    sem = np.array([0.1, 0.9, 0.7, 0.3, 0.2, 0.4])
    by_sym = select_top_n(sym, classes, n=None)
    by_sem = select_top_n(sem, classes, n=None)
    c1 = ScoreCombiner(rule=rule, alpha=1.0, normalize=norm)
    c0 = ScoreCombiner(rule=rule, alpha=0.0, normalize=norm)
    assert select_top_n(c1(sym, sem), classes, n=None) == by_sym
    assert select_top_n(c0(sym, sem), classes, n=None) == by_sem
    assert by_sym[0] == 0  # the majority class, lowest index
    assert by_sem[0] == 1  # the best back-translation


def test_combination_trades_off_the_two_scores():
    # class {0, 1, 3}: big, poor back-translations (1 the best of them);
    # candidate 2: singleton with a great one
    classes = [[0, 1, 3], [2]]
    sym = symbolic_scores(classes, 4)
    sem = [0.05, 0.1, 0.9, 0.1]
    picks = [select_top_n(combine(sym, sem, "log", a), classes)[0] for a in (0.1, 0.9)]
    assert picks == [2, 1]


def test_score_combiner_validation():
    with pytest.raises(ValueError, match="rule"):
        ScoreCombiner(rule="max")
    with pytest.raises(ValueError, match="alpha"):
        ScoreCombiner(alpha=1.5)
    with pytest.raises(TypeError, match="alpha"):
        ScoreCombiner(alpha="0.5")
    with pytest.raises(ValueError, match="normalize"):
        ScoreCombiner(normalize="l1")
    with pytest.raises(ValueError, match="temperature"):
        ScoreCombiner(normalize="softmax", temperature=0)
    with pytest.raises(ValueError, match="semantic has 2"):
        combine([0.5, 0.5, 0.0], [0.5, 0.5])
    with pytest.raises(ValueError, match="non-negative"):
        combine([0.5, 0.5], [-0.1, 0.2], normalize="none")


def test_symbolic_scores_validation():
    with pytest.raises(ValueError, match="two classes"):
        symbolic_scores([[0, 1], [1]])
    with pytest.raises(ValueError, match="out of range"):
        symbolic_scores([[0, 5]], 3)
    # unlisted candidates are singletons
    np.testing.assert_allclose(symbolic_scores([[0, 2]], 3), [2 / 3, 1 / 3, 2 / 3])


# ----------------------------------------------------------------------------- selection


def test_select_top_n_removes_the_class_of_each_pick():
    classes = [[0, 1, 2], [3, 4], [5]]
    scores = [0.9, 0.8, 0.7, 0.6, 0.5, 0.1]
    assert select_top_n(scores, classes, n=1) == [0]
    assert select_top_n(scores, classes, n=3) == [0, 3, 5]
    # classes exhausted: a second round in score order, still one per class
    assert select_top_n(scores, classes, n=5) == [0, 3, 5, 1, 4]
    assert select_top_n(scores, classes, n=None) == [0, 3, 5, 1, 4, 2]
    assert select_top_n(scores, classes, n=5, when_exhausted="stop") == [0, 3, 5]


def test_select_top_n_ties_go_to_the_lower_index():
    assert select_top_n([0.5, 0.7, 0.7, 0.7], None, n=2) == [1, 2]
    assert select_top_n([0.7, 0.7, 0.7], [[1, 2], [0]], n=2) == [0, 1]
    # NaN ranks last
    assert select_top_n([float("nan"), 0.1, -1.0], None, n=3) == [1, 2, 0]


@given(
    st.integers(2, 12).flatmap(
        lambda k: st.tuples(
            st.lists(st.integers(0, 3), min_size=k, max_size=k),
            st.lists(st.floats(-5, 5, allow_nan=False), min_size=k, max_size=k),
            st.integers(1, k),
        )
    )
)
@settings(max_examples=150, deadline=None)
def test_no_two_picks_share_a_class_while_other_classes_remain(args):
    labels, scores, n = args
    classes = [[i for i, lab in enumerate(labels) if lab == c] for c in sorted(set(labels))]
    picks = select_top_n(scores, classes, n)
    assert len(picks) == n
    assert len(set(picks)) == n
    n_classes = len(classes)
    first_round = [labels[i] for i in picks[:n_classes]]
    assert len(set(first_round)) == len(first_round)
    # the first pick is the best score overall, lowest index on ties
    best = max(scores)
    assert picks[0] == scores.index(best)


def test_select_top_n_validation():
    with pytest.raises(ValueError, match="two classes"):
        select_top_n([1, 2, 3], [[0, 1], [1, 2]])
    with pytest.raises(ValueError, match="out of range"):
        select_top_n([1, 2], [[0, 2]])
    with pytest.raises(ValueError, match="n must be"):
        select_top_n([1, 2], None, n=0)
    with pytest.raises(ValueError, match="when_exhausted"):
        select_top_n([1, 2], None, when_exhausted="wrap")
    assert select_top_n([], None) == []
    np.testing.assert_array_equal(class_of([[2, 0]], 4), [0, 1, 0, 2])


def test_baselines_logprob_random_naive():
    assert select_by_logprob([-3.0, -1.0, -2.0], n=2) == [1, 2]
    assert select_by_logprob([-3.0, -1.0, -2.0], n=2, classes=[[1, 2], [0]]) == [1, 0]
    r1 = select_random(10, n=4, seed=7)
    assert r1 == select_random(10, n=4, seed=7)
    assert len(set(r1)) == 4 and all(0 <= i < 10 for i in r1)
    assert sorted(select_random(10, n=None, seed=1)) == list(range(10))
    assert select_naive([False, True, False, True], n=1) == [1]
    assert select_naive([False, True, False, True], n=3) == [1, 3, 0]
    assert select_naive([False, False], n=1) == [0]  # nothing proved: first sample


def test_kmeans_picks_the_largest_cluster_nearest_its_centroid():
    rng = np.random.default_rng(0)
    big = np.array([5.0, 0.0]) + 0.1 * rng.standard_normal((6, 2))
    small = np.array([-5.0, 0.0]) + 0.1 * rng.standard_normal((3, 2))
    x = np.vstack([small, big])  # indices 0-2 small cluster, 3-8 big cluster
    centroid = big.mean(axis=0)
    nearest = 3 + int(np.argmin(np.linalg.norm(big - centroid, axis=1)))
    picks = select_kmeans(x, n=2, seed=0)
    assert picks[0] == nearest
    assert picks[1] in (0, 1, 2)
    assert select_kmeans(x, n=2, seed=0) == picks


def test_kmeans_degenerate_inputs():
    assert select_kmeans(np.ones((4, 3)), n=1) == [0]  # identical points: one cluster
    assert select_kmeans(np.zeros((1, 3)), n=1) == [0]
    assert select_kmeans(np.zeros((0, 3)), n=1) == []
    with pytest.raises(ValueError, match="2-D"):
        select_kmeans(np.zeros(3))
