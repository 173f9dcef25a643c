"""An unparseable candidate comes after every parseable one in the selection (issue 16: the
guide's example selected [0, 1, 4] at n = 3, 4 being the prose "The answer is x = 2.")."""

from __future__ import annotations

import pytest

from rerank import Reranker
from rerank.ranking import Ranking

# the example of docs/guide.md, "Python API: one problem"
INFORMAL = "Find the real number x such that 2x + 3 = 7. Show that x = 2."
CANDIDATES = [
    "theorem t (x : ℝ) (h : 2 * x + 3 = 7) : x = 2 := by sorry",
    "theorem t (x : ℝ) (h : 2 * x + 3 = 7) : x = 3 := by sorry",
    "theorem t (x : ℝ) (h : 2 * x = 4) : x = 2 := by sorry",
    "theorem t (y : ℝ) (h : 7 = 3 + 2 * y) : 2 = y := by sorry",
    "The answer is x = 2.",
]


@pytest.fixture(scope="module")
def guide_ranking() -> Ranking:
    return Reranker(n=3).rerank(INFORMAL, CANDIDATES)


def test_guide_example_fills_with_a_parseable_candidate_not_the_prose(guide_ranking):
    r = guide_ranking
    assert r.classes == [[0, 2, 3], [1], [4]]
    assert r.selected[0] == 0
    # the big class again (1 is refuted: x = 3 is false, so it comes after every sound one)
    assert r.selected[1] in (2, 3) and r.selected[2] in (1, 2, 3)
    assert 4 not in r.selected and r.unparsed_selected == []
    assert r.order[-1] == 4  # the prose is last in the full order


def test_unparseable_fills_the_list_only_when_no_parseable_is_left_and_the_ranking_says_so():
    r = Reranker(n=4, informalizer="none").rerank(
        INFORMAL, [CANDIDATES[4], CANDIDATES[0], "Clearly x = 2.", CANDIDATES[1]]
    )
    assert r.selected[:2] in ([1, 3], [3, 1])
    assert r.selected[2:] == [0, 2]  # parseable ones exhausted: the rest, flagged on the ranking
    assert r.unparsed_selected == [0, 2]
    d = r.to_dict()
    assert d["unparsed_selected"] == [0, 2]
    assert Ranking.from_dict(d).unparsed_selected == [0, 2]


def test_behind_moves_flagged_candidates_last_keeping_both_orders():
    from rerank.select import behind, select_top_n

    # classes {0, 2}, {1}, {3}: the -inf candidate 3 fills round one before 2's round two
    order = select_top_n([0.9, 0.5, 0.8, float("-inf")], [[0, 2], [1], [3]], None)
    assert order == [0, 1, 3, 2]
    assert behind(order, [False, False, False, True]) == [0, 1, 2, 3]
    assert behind([2, 0, 1], [True, False, True]) == [1, 2, 0]  # 0 and 2 flagged
