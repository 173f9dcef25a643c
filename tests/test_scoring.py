"""rerank.scoring / rerank.prior / rerank.evidence: the selection rules on small pools whose
right answer is known by construction."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from rerank.cluster import Clusterer
from rerank.evidence import degenerate, problem_evidence
from rerank.prior import from_greedy, from_logprobs, from_order, prior_vector
from rerank.scoring import DEMOTIONS, PoolEvidence, Selector, support

FLAT = [0.5] * 4  # semantic scores that prefer nobody


def pool(classes, k, **kw) -> PoolEvidence:
    return PoolEvidence(classes=classes, parsed=kw.pop("parsed", [True] * k), **kw)


# ------------------------------------------------------------------ symbolic support


def test_a_proved_pair_beats_a_first_singleton():
    ev = pool([[0], [1, 2], [3]], 4)
    for sel in (Selector(alpha=1.0), Selector(), Selector(rule="linear", alpha=0.7)):
        assert sel.select(ev, FLAT).order[0] in (1, 2)


def test_all_singletons_without_evidence_keep_the_first_sample():
    ev = pool([[0], [1], [2], [3]], 4)
    assert Selector().select(ev, FLAT).order[0] == 0
    assert Selector(undecided_weight=1.0, truth_weight=2.0).select(ev, FLAT).order == [0, 1, 2, 3]


def test_undecided_pairs_lend_support_and_break_ties_by_evidence():
    # 1 is undecided with 2 and 3; 0 was separated from everybody
    ev = pool([[0], [1], [2], [3]], 4, undecided=[(1, 2), (1, 3)])
    assert Selector(undecided_weight=0.0).select(ev, FLAT).order[0] == 0  # index
    out = Selector(undecided_weight=0.5).select(ev, FLAT)
    assert out.order[0] == 1
    assert support(ev, 0.5).tolist() == [1.0, 2.0, 1.5, 1.5]
    # an undecided pair whose numeric answers differ lends nothing
    ev2 = pool([[0], [1], [2], [3]], 4, undecided=[(1, 2), (1, 3)],
               answers=["eq 7", "eq 7", "eq 8", "eq 9"])
    assert support(ev2, 0.5).tolist() == [1.0, 1.0, 1.0, 1.0]


def test_undecided_support_counts_a_class_pair_once_and_by_class_size():
    ev = pool([[0, 1], [2], [3]], 4, undecided=[(0, 2), (1, 2)])
    assert support(ev, 1.0).tolist() == [3.0, 3.0, 3.0, 1.0]


def test_a_proved_class_outranks_an_unproved_one_of_the_same_size():
    ev = pool([[0, 1], [2, 3]], 4, holds=[None, None, True, None])
    assert Selector(alpha=1.0, truth_weight=0.0).select(ev, FLAT).order[0] == 0
    assert Selector(alpha=1.0, truth_weight=1.0).select(ev, FLAT).order[0] in (2, 3)


# ------------------------------------------------------------------ tiers


@pytest.mark.parametrize("fact", [
    {"vacuous": [True, True, True, False]},
    {"degenerate": [True, True, True, False]},
    {"holds": [False, False, False, None]},
])
def test_a_demoted_class_never_wins_however_large(fact):
    ev = pool([[0, 1, 2], [3]], 4, **fact)
    sem = [0.9, 0.9, 0.9, 0.1]
    out = Selector().select(ev, sem)
    assert out.order[0] == 3
    assert out.demoted[0] in DEMOTIONS and out.demoted[3] is None
    assert Selector(demote=()).select(ev, sem).order[0] in (0, 1, 2)


def test_unparsed_and_demoted_come_after_every_sound_candidate_in_the_top_n():
    # classes {0, 1} and {3}; 2 does not parse, 4 is vacuous: the top 3 are all sound
    ev = pool([[0, 1], [2], [3], [4]], 5, parsed=[True, True, False, True, True],
              vacuous=[False, False, None, False, True])
    sem = [0.2, 0.2, 0.99, 0.3, 0.99]
    out = Selector().select(ev, sem)
    assert set(out.order[:3]) == {0, 1, 3}
    assert out.order[3:] == [4, 2]
    assert out.scores[2] == -math.inf and out.tiers == [0, 0, 2, 0, 1]


# ------------------------------------------------------------------ safety rule and prior


def test_keep_first_margin_keeps_candidate_0_on_near_ties_only():
    ev = pool([[0], [1], [2], [3]], 4)
    near = [0.50, 0.52, 0.1, 0.1]
    far = [0.30, 0.90, 0.1, 0.1]
    assert Selector(alpha=0.0).select(ev, near).order[0] == 1
    kept = Selector(alpha=0.0, keep_first_margin=0.1).select(ev, near)
    assert kept.order[0] == 0 and kept.kept_first
    assert Selector(alpha=0.0, keep_first_margin=0.1).select(ev, far).order[0] == 1


def test_keep_first_never_keeps_a_demoted_first_candidate():
    ev = pool([[0], [1], [2], [3]], 4, vacuous=[True, False, False, False])
    out = Selector(keep_first_margin=100.0).select(ev, [0.9, 0.1, 0.1, 0.1])
    assert out.order[0] == 1 and not out.kept_first


def test_prior_is_a_weighted_third_score():
    ev = pool([[0], [1], [2], [3]], 4)
    greedy = from_greedy(4, index=2, strength=2.0)
    assert Selector(prior_weight=0.0).select(ev, FLAT, greedy).order[0] == 0
    assert Selector(prior_weight=0.3).select(ev, FLAT, greedy).order[0] == 2
    # a large symbolic margin is not overturned by a small prior weight
    ev2 = pool([[0, 1, 3], [2]], 4)
    assert Selector(prior_weight=0.1).select(ev2, FLAT, greedy).order[0] in (0, 1, 3)


def test_prior_helpers():
    assert from_logprobs([-4.0, -6.0], lengths=[2, 6]) == [-2.0, -1.0]
    o = from_order(4)
    assert o[0] == 0.0 and all(a > b for a, b in zip(o, o[1:], strict=False))
    assert prior_vector(None, 3) is None
    assert prior_vector([None, None], 2) is None
    assert prior_vector([-1.0, None, -3.0], 3).tolist() == [-1.0, -3.0, -3.0]
    with pytest.raises(ValueError):
        prior_vector([1.0], 2)
    with pytest.raises(ValueError):
        from_greedy(3, index=3)


def test_selector_rejects_bad_settings():
    for bad in ({"alpha": 1.5}, {"undecided_weight": -1}, {"keep_first_margin": -0.1},
                {"demote": ("nonsense",)}, {"tie_break": "random"}, {"prior_weight": True}):
        with pytest.raises(ValueError):
            Selector(**bad)
    with pytest.raises(ValueError):
        Selector().select(pool([[0], [1]], 2), [0.1])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=8), st.data())
def test_order_is_a_permutation_and_sound_tier_first(labels, data):
    k = len(labels)
    classes: dict[int, list[int]] = {}
    for i, c in enumerate(labels):
        classes.setdefault(c, []).append(i)
    parsed = data.draw(st.lists(st.booleans(), min_size=k, max_size=k))
    vac = data.draw(st.lists(st.sampled_from([True, False, None]), min_size=k, max_size=k))
    sem = data.draw(st.lists(st.floats(0, 1), min_size=k, max_size=k))
    # an unparsed candidate is its own class (the clusterer never merges it)
    cls = [[i for i in m if parsed[i]] for m in classes.values()] + [[i] for i in range(k) if not parsed[i]]
    ev = PoolEvidence(classes=[c for c in cls if c], parsed=parsed, vacuous=vac)
    out = Selector(undecided_weight=0.5, keep_first_margin=0.2).select(ev, sem)
    assert sorted(out.order) == list(range(k))
    tiers = [out.tiers[i] for i in out.order]
    assert tiers == sorted(tiers)


# ------------------------------------------------------------------ evidence


def isa(text: str):
    return provers.parse(text, "isabelle")


def test_degenerate_statements():
    assert degenerate(isa('theorem fixes k :: real assumes h0: "k = 7" shows "k = 7"'))
    assert degenerate(isa('theorem fixes x :: real shows "x = x"'))
    assert not degenerate(isa('theorem fixes k :: real assumes h0: "k = 3 + 4" shows "k = 7"'))
    assert not degenerate(isa('theorem shows "(2::nat) + 3 = 5"'))


def test_clusterer_records_every_decision_and_the_evidence_is_json():
    cands = [
        'theorem fixes x :: real assumes h0: "2 * x + 3 = 7" shows "x = 2"',
        'theorem fixes y :: real assumes h0: "2 * y = 4" shows "y = 2"',
        'theorem fixes x :: real assumes h0: "2 * x + 3 = 7" shows "x = 3"',
        "this is prose",
    ]
    c = Clusterer("symbolic", "isabelle", 2.0, check_truth=True)
    c.extend(cands)
    assert c.classes == [[0, 1], [2], [3]]
    assert [c.candidates[i].holds for i in range(3)] == [True, True, False]
    d = {(x.a, x.b): x for x in c.decisions}
    assert d[(0, 1)].status == "equivalent" and d[(0, 1)].how in ("engine", "cache", "syntactic")
    assert (0, 2) in d and d[(0, 2)].status == "inequivalent"
    ev = json.loads(json.dumps(problem_evidence(c)))
    assert ev["candidates"][0]["answer"] == {"op": "eq", "value": "2", "sort": "Real"}
    assert ev["candidates"][3]["parsed"] is False
    assert ev["separated"][0][2] is not None  # x = 2 vs x = 3: ruled out without a solver
    pe = PoolEvidence.from_clusterer(c)
    assert pe.holds[:3] == [True, True, False] and pe.answers[:3] == ["eq 2", "eq 2", "eq 3"]


def test_selected_candidate_with_evidence_support_from_real_statements():
    # two equivalent candidates (a class of 2) beat a first singleton that is refuted
    cands = [
        'theorem fixes x :: real assumes h0: "2 * x + 3 = 7" shows "x = 3"',
        'theorem fixes x :: real assumes h0: "2 * x + 3 = 7" shows "x = 2"',
        'theorem fixes y :: real assumes h0: "2 * y = 4" shows "y = 2"',
    ]
    c = Clusterer("symbolic", "isabelle", 2.0, check_truth=True)
    c.extend(cands)
    out = Selector(alpha=1.0).select(PoolEvidence.from_clusterer(c), np.zeros(3))
    assert out.order[0] in (1, 2) and out.order[-1] == 0


# ------------------------------------------------------------------ answers


def test_split_answer_and_exact_answer_values():
    from embeddings.answer import answer_value, split_answer

    q, a = split_answer("Find k such that f(x) = a(x-h)^2 + k. The final answer is $7$.")
    assert q == "Find k such that f(x) = a(x-h)^2 + k." and a == "$7$"
    assert split_answer("What is 2 + 2?") == ("What is 2 + 2?", None)
    assert split_answer("... Show that it is \\textbf{(C) }36.")[1] == "\\textbf{(C) }36"
    cases = {"7": 7, "$-6.5$": Fraction(-13, 2), "\\frac{5}{2}": Fraction(5, 2),
             "-\\dfrac{1}{3}": Fraction(-1, 3), "1,000": 1000, "k = 7": 7,
             "\\textbf{(E)}\\ 26": 26, "\\boxed{40}": 40, "5/2": Fraction(5, 2)}
    for text, value in cases.items():
        assert answer_value(text) == value, text
    for text in ("5r^5", "[2, 3)", "\\mathrm{(C)}", "", None, "40\\pi"):
        assert answer_value(text) is None, text


def test_answer_weight_demotes_a_candidate_with_the_wrong_answer():
    from rerank import Reranker

    informal = "If 2x + 3 = 7, what is x? The final answer is 2."
    cands = [
        'theorem fixes x :: real assumes h0: "2 * x + 3 = 8" shows "x = 5 / 2"',
        'theorem fixes x :: real assumes h0: "2 * x + 3 = 7" shows "x = 2"',
    ]
    same = ["If 2x + 3 = 7, what is x?"] * 2
    common = dict(language="isabelle", relation="syntactic", informalizer="given", alpha=0.0,
                  check_vacuous=False, check_truth=False, keep_first_margin=None)
    assert Reranker(answer_weight=0.0, **common).rerank(informal, cands, same).selected == [0]
    r = Reranker(answer_weight=0.1, **common).rerank(informal, cands, same)
    assert r.selected == [1] and r.semantic[1] - r.semantic[0] == pytest.approx(0.2)
