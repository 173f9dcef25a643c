"""rerank.consensus and the consensus-weighted support: among candidates the engine could not
separate, the one most others resemble wins; the similarity ignores names and notation."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from rerank.consensus import similarity_matrix, statement_tokens
from rerank.scoring import PoolEvidence, Selector, support

ISA = [
    'theorem fixes x :: real assumes h0: "2 * x + 3 = 7" shows "x = 2"',
    'theorem fixes y :: real assumes h1: "2 * y + 3 = 7" shows "y = 2"',
    'theorem fixes x :: real assumes h0: "2 * x + 3 = 7" shows "x * x = 4"',
    'theorem fixes n :: nat assumes h0: "n mod 5 = 3" shows "n div 2 = 1"',
]


def parse(texts, language="isabelle"):
    return [provers.parse(t, language) for t in texts]


def test_renamed_variables_and_hypotheses_are_identical():
    s = similarity_matrix(parse(ISA))
    assert s[0, 1] == 1.0  # x/h0 vs y/h1: the same canonical formula
    assert 0 < s[0, 2] < 1 and s[0, 3] < s[0, 2]  # a shared premise counts; another problem less
    assert np.allclose(s, s.T) and not s.diagonal().any()


def test_lean_and_isabelle_notation_give_the_same_tokens():
    lean = provers.parse("theorem t (x : ℝ) (h₀ : 2 * x + 3 = 7) : x = 2 := by sorry", "lean4")
    assert statement_tokens(lean) == statement_tokens(parse(ISA[:1])[0])


def test_unparsed_candidates_are_like_nothing():
    s = similarity_matrix([*parse(ISA[:2]), None])
    assert s[2].tolist() == [0.0, 0.0, 0.0] and s[0, 1] == 1.0


def test_consensus_support_goes_to_the_candidate_the_others_resemble():
    # four singletons, every pair undecided: 0 is unlike the rest, 1..3 alike (2 most central)
    sim = np.array([[0, .1, .1, .1], [.1, 0, .8, .2], [.1, .8, 0, .8], [.1, .2, .8, 0]])
    und = [(a, b) for a in range(4) for b in range(a + 1, 4)]
    ev = PoolEvidence(classes=[[0], [1], [2], [3]], parsed=[True] * 4, undecided=und, similarity=sim)
    flat = [0.5] * 4
    assert Selector().select(ev, flat).order[0] == 0  # no consensus: the first sample stands
    assert np.allclose(support(ev, consensus_weight=1.0), [1.3, 2.1, 2.7, 2.1])
    assert Selector(consensus_weight=1.0).select(ev, flat).order[0] == 2
    # only undecided pairs lend: a separated (proved different) pair does not
    ev_sep = PoolEvidence(classes=ev.classes, parsed=ev.parsed, undecided=[(0, 1)], similarity=sim)
    assert np.allclose(support(ev_sep, consensus_weight=1.0), [1.1, 1.1, 1.0, 1.0])
    # nor a pair whose numeric answers differ
    ev_ans = PoolEvidence(classes=ev.classes, parsed=ev.parsed, undecided=und, similarity=sim,
                          answers=["eq 1", "eq 1", "eq 2", "eq 1"])
    assert support(ev_ans, consensus_weight=1.0)[2] == 1.0


def test_consensus_weighs_a_class_pair_by_the_mean_similarity_of_its_members():
    sim = np.array([[0, 1.0, .4], [1.0, 0, .2], [.4, .2, 0]])
    ev = PoolEvidence(classes=[[0, 1], [2]], parsed=[True] * 3, undecided=[(0, 2)], similarity=sim)
    assert np.allclose(support(ev, consensus_weight=1.0), [2.3, 2.3, 1.6])


def test_consensus_from_real_candidates_picks_the_majority_reading():
    # the engine cannot decide these (an uninterpreted operation), but three of four agree
    cands = [
        'theorem fixes f :: "real => real" assumes h0: "f 1 = 2" shows "f (f 1) = 5"',
        'theorem fixes g :: "real => real" assumes h0: "g 1 = 2" and h1: "g 2 = 5" shows "g (g 1) = 5"',
        'theorem fixes f :: "real => real" assumes h0: "f 1 = 2" and h1: "f 2 = 5" shows "f (f 1) = 5"',
        'theorem fixes f :: "real => real" assumes "f 1 = 2" and "f 2 = 5" shows "f (f 1) = 5"',
    ]
    sts = parse(cands)
    sim = similarity_matrix(sts)
    assert sim[1, 2] == sim[2, 3] == 1.0 and sim[0, 1] < 1.0
    und = [(a, b) for a in range(4) for b in range(a + 1, 4)]
    ev = PoolEvidence(classes=[[i] for i in range(4)], parsed=[True] * 4, undecided=und, similarity=sim)
    assert Selector(consensus_weight=1.0).select(ev, [0.5] * 4).order[0] in (1, 2, 3)


def test_bad_similarity_shape_is_an_error():
    try:
        PoolEvidence(classes=[[0], [1]], parsed=[True, True], similarity=np.zeros((3, 3)))
    except ValueError as e:
        assert "similarity" in str(e)
    else:
        raise AssertionError("accepted a 3 x 3 similarity for 2 candidates")


NAMES = st.sampled_from(["x", "y", "z", "a", "b", "t", "u", "w"])


@settings(max_examples=30, deadline=None)
@given(NAMES, NAMES, st.integers(1, 9), st.integers(1, 9))
def test_similarity_never_depends_on_variable_names(v1, v2, c1, c2):
    def stmt(v, hyp):
        return provers.parse(
            f'theorem fixes {v} :: real assumes {hyp}: "{c1} * {v} + {c2} = 7" shows "{v} > {c2}"',
            "isabelle")
    def other(v):
        return provers.parse(f'theorem fixes {v} :: real assumes h0: "2 * {v} + 3 = 7" shows "{v} * {v} = 4"',
                             "isabelle")
    base = [stmt("x", "h0"), other("x")]
    renamed = [stmt(v1, "h9"), other(v2)]
    assert np.array_equal(similarity_matrix(base), similarity_matrix(renamed))
