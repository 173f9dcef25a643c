"""Generation loops: candidates added one at a time give the one-shot result, at every step."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provers.ir import REAL, Hypothesis, Statement, Var, VarBinder, app, num
from rerank import Reranker

INFORMAL = "Find the real number x such that 2x + 3 = 7. Show that x = 2."

def _lin(v: str, swap: bool = False, flip: bool = False, concl: str = "eq", value: int = 2) -> Statement:
    """``(v : ℝ) (h : 2 * v + 3 = 7) : v ⋈ value``, written in several equivalent ways."""
    x = Var(v, REAL)
    two_x = app("mul", num(2, REAL), x)
    lhs = app("add", num(3, REAL), two_x) if swap else app("add", two_x, num(3, REAL))
    hyp = app("eq", num(7, REAL), lhs) if flip else app("eq", lhs, num(7, REAL))
    c = app(concl, num(value, REAL), x) if flip else app(concl, x, num(value, REAL))
    return Statement((VarBinder(x), Hypothesis("h", hyp)), c)


POOL = [
    _lin("x"),
    _lin("y", swap=True),
    _lin("x", value=3),
    "Let x be a real number with 2x + 3 = 7. Then x = 2.",
    _lin("x", flip=True),
    _lin("x", concl="gt", value=1),
    _lin("z"),
]


@pytest.fixture(scope="module")
def rr() -> Reranker:
    return Reranker(relation="symbolic", timeout=2.0)



@pytest.fixture(autouse=True, scope="module")
def _one_torch_thread():
    """Torch's default intra-op threads spin against each other on a busy 2-core machine
    (a short sentence took 1 s instead of 0.06 s); one thread is what batch workers use."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)

def _same(a, b) -> None:
    assert a.classes == b.classes
    assert a.selected == b.selected
    assert a.order == b.order
    assert a.scores == b.scores
    assert a.semantic == b.semantic
    assert a.symbolic == b.symbolic
    assert a.errors == b.errors


def test_session_equals_one_shot_at_every_step(rr):
    s = rr.start(INFORMAL)
    for m, cand in enumerate(POOL, start=1):
        s.add(cand)
        inc = s.ranking(n=3)
        one = Reranker(**rr.get_params()).rerank(INFORMAL, POOL[:m], n=3)
        _same(inc, one)
        assert inc.stats["checks"] <= one.stats["checks"]
        assert inc.stats["solver_calls"] <= one.stats["solver_calls"]
    final = s.ranking(n=3)
    assert [0, 1, 4, 6] in final.classes  # same answer, written four ways
    assert final.selected[0] in (0, 1, 4, 6)
    assert final.stats["checks"] < final.stats["naive_pairs"]


def test_session_with_given_informalizations(rr):
    infs = [f"statement number {i} about x" for i in range(len(POOL))]
    s = rr.start(INFORMAL)
    for cand, text in zip(POOL, infs, strict=True):
        s.add(cand, informalization=text)
    _same(s.ranking(2), rr.rerank(INFORMAL, POOL, infs, n=2))
    assert s.back_translations == infs


def test_settled_pairs_are_never_rechecked(rr):
    s = rr.start(INFORMAL)
    s.extend(POOL)
    before = dict(s.ranking().stats)
    for _ in range(3):
        s.ranking(n=2)
    assert s.ranking().stats == before  # asking for the ranking costs no checks
    s.add(POOL[0])  # a repeat joins its class by canonical form, with no engine check
    after = s.ranking().stats
    assert after["checks"] == before["checks"]
    assert after["syntactic_hits"] == before["syntactic_hits"] + 1


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.permutations(range(len(POOL))))
def test_any_arrival_order_matches_one_shot_in_that_order(rr, perm):
    cands = [POOL[i] for i in perm]
    s = rr.start(INFORMAL)
    for c in cands:
        s.add(c)
    _same(s.ranking(3), rr.rerank(INFORMAL, cands, n=3))
    # the partition does not depend on arrival order (relabelled to original indices)
    classes = sorted(sorted(perm[i] for i in c) for c in s.classes)
    assert [0, 1, 4, 6] in classes


def test_empty_session_ranks_nothing(rr):
    r = rr.start(INFORMAL).ranking()
    assert r.selected == [] and r.classes == []


def test_a_bad_informalization_is_rejected_and_leaves_the_session_usable(rr):
    s = rr.start(INFORMAL)
    s.add(POOL[0])
    with pytest.raises(TypeError, match="informalization must be a string"):
        s.add(POOL[1], informalization=42)
    assert s.k == 1
    s.add(POOL[1])
    assert s.ranking().classes == [[0, 1]]


def test_priors_added_one_at_a_time_give_the_one_shot_result():
    rr = Reranker(relation="syntactic", informalizer="none", check_truth=False, prior_weight=0.3)
    cands = [_lin("x", value=3), _lin("x", value=4), _lin("x", value=5)]
    logprobs = [-3.0, -0.5, -2.0]
    s = rr.start(INFORMAL)
    for c, lp in zip(cands, logprobs, strict=True):
        s.add(c, prior=lp)
    one_shot = rr.rerank(INFORMAL, cands, prior=logprobs)
    assert s.ranking(3).order == one_shot.order == [1, 2, 0]
    assert Reranker(relation="syntactic", informalizer="none", check_truth=False).rerank(
        INFORMAL, cands, prior=logprobs).selected == [0]  # prior_weight 0: ignored
    with pytest.raises(ValueError):
        s.add(cands[0], prior=float("nan"))
