"""Anytime clustering (``Reranker(budget=...)``, :mod:`rerank.schedule`): a spent budget
leaves pairs undecided and says so, never changes a decided verdict, and with enough budget
gives exactly the result without one."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from oracles import RecordingOracle as Oracle
from oracles import distinct

from rerank import Reranker
from rerank.cluster import Clusterer
from rerank.schedule import UNDECIDED_FLAG, AnytimeClusterer, pair_priority

INFORMAL = "Find the real number x such that 2x + 3 = 7. Show that x = 2."

# equivalent only by a proof (different canonical forms), one refuted answer, prose, ℕ
POOL = [
    "theorem t (x : ℝ) (h : 2 * x + 3 = 7) : x = 2 := by sorry",
    "The answer is two.",
    "theorem t (x : ℝ) (h : 2 * x + 3 = 7) : x = 3 := by sorry",
    "theorem t (x : ℝ) (h : 2 * x = 4) : x = 2 := by sorry",
    "theorem t (y : ℝ) (h : 7 = 3 + 2 * y) : 2 = y := by sorry",
    "theorem t (n : ℕ) (h : 2 * n + 3 = 7) : n = 2 := by sorry",
    "theorem t (x : ℝ) (h : x + x = 4) : x = 2 := by sorry",
]


def _rr(**kw) -> Reranker:
    return Reranker(informalizer="none", timeout=5.0, **kw)


def _valid(r, k: int, n: int) -> None:
    """What every ranking owes its reader, complete or not."""
    assert sorted(r.order) == list(range(k)) and r.selected == r.order[:n]
    assert sorted(i for c in r.classes for i in c) == list(range(k))
    parsed = [e is None for e in r.errors]
    pos = {i: p for p, i in enumerate(r.order)}
    assert all(pos[i] < pos[j] for i in range(k) for j in range(k) if parsed[i] and not parsed[j])
    assert json.loads(json.dumps(r.to_dict()))["complete"] == r.complete


def test_no_budget_ranks_completely():
    r = _rr().rerank(INFORMAL, POOL, n=3)
    assert r.complete and r.pairs_undecided == 0
    _valid(r, len(POOL), 3)


def test_a_spent_budget_is_marked_incomplete_and_still_a_valid_ranking():
    r = _rr(budget=0).rerank(INFORMAL, POOL, n=3)
    assert not r.complete and r.pairs_undecided > 0
    _valid(r, len(POOL), 3)
    assert r.stats["checks"] == 0  # no engine at all: screens only
    assert any(UNDECIDED_FLAG in f for f in r.flags)
    assert r.errors[1] is not None and r.order.index(1) == len(POOL) - 1


def test_a_large_budget_gives_the_result_without_one():
    none = _rr().rerank(INFORMAL, POOL, n=3)
    for budget in (math.inf, 1e6):
        big = _rr(budget=budget).rerank(INFORMAL, POOL, n=3)
        assert big.complete and big.pairs_undecided == 0
        for field in ("classes", "selected", "order", "scores", "symbolic", "semantic", "flags", "errors"):
            assert getattr(big, field) == getattr(none, field), field
    # proved, not syntactic; the ℕ statement (5) states the same answer, compared as a value
    assert [0, 3, 4, 5, 6] in none.classes


def test_the_budget_and_its_infinity_round_trip_through_params():
    rr = _rr(budget=math.inf)
    assert rr.get_params()["budget"] == math.inf
    assert json.dumps(rr.rerank(INFORMAL, POOL[:2]).to_dict()["params"]["budget"]) == '"inf"'
    with pytest.raises(ValueError, match="budget"):
        _rr(budget=-1)
    with pytest.raises(ValueError, match="budget"):
        _rr(budget="1s")


# ------------------------------------------------------------------ scripted verdicts


def _clusterer(oracle: Oracle, budget: float | None) -> Clusterer:
    kw = {"checker": oracle, "fingerprints": False, "check_vacuous": False}
    if budget is None:
        return Clusterer("sae", **kw)
    # the clock counts checks: "spent" is a number of engine calls, deterministically
    return AnytimeClusterer("sae", budget=budget, clock=lambda: float(len(oracle.calls)), **kw)


def _run(truth, inconclusive, budget):
    oracle = Oracle(truth, inconclusive)
    c = _clusterer(oracle, budget)
    for i in range(len(truth)):
        c.add(distinct(i))
    if isinstance(c, AnytimeClusterer):
        c.resolve()
    return c


@settings(max_examples=80, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=10),
       st.sets(st.tuples(st.integers(0, 9), st.integers(0, 9)), max_size=6),
       st.integers(0, 40))
@example(truth=[0, 0, 0, 0], inc={(0, 1), (0, 2)}, budget=3)  # cut: {0, 3}; without a budget: {0}, {1, 2, 3}
def test_a_budget_never_changes_a_decided_verdict_only_how_many_are_decided(truth, inc, budget):
    k = len(truth)
    inconclusive = frozenset(frozenset(p) for p in inc if p[0] != p[1] and max(p) < k)
    full = _run(truth, inconclusive, None)
    cut = _run(truth, inconclusive, budget)
    verdict = {frozenset((d.a, d.b)): d.status for d in full.decisions}
    oracle = Oracle(truth, inconclusive)
    for d in cut.decisions:
        if d.how == "budget":
            assert d.status == "inconclusive" and (d.a, d.b) in cut.undecided
            continue
        # the same verdict as the engine (here: the oracle) gives, and as the run without a budget
        assert d.status == oracle(distinct(d.a), distinct(d.b), "sae", 1.0)
        assert verdict.get(frozenset((d.a, d.b)), d.status) == d.status
    # classes only ever merge on a proof: each cut class lies inside one true class (not
    # always inside one class of the run without a budget: with undecided pairs the greedy
    # merge depends on the order of the checks; truth [0, 0, 0, 0] with 0–1 and 0–2 undecided
    # gives {0}, {1, 2, 3} without a budget and may join 3 to 0 first with one)
    for g in cut.classes:
        assert len({truth[i] for i in g}) == 1
    if cut.complete:
        assert cut.classes == full.classes
    assert len(cut.undecided) == cut.stats.budget_skips


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=1, max_size=10))
def test_an_unlimited_budget_gives_the_classes_and_decisions_without_one(truth):
    full = _run(truth, frozenset(), None)
    anytime = _run(truth, frozenset(), math.inf)
    assert anytime.complete and anytime.classes == full.classes
    assert [(d.a, d.b, d.status) for d in anytime.decisions] == [(d.a, d.b, d.status) for d in full.decisions]


def test_the_first_checks_go_to_the_largest_classes():
    # 0,1,2 share a canonical form (a free class of 3); 3 and 4 are singletons
    oracle = Oracle([0, 0, 0, 0, 1])
    c = AnytimeClusterer("sae", budget=1, clock=lambda: float(len(oracle.calls)), checker=oracle,
                         fingerprints=False, check_vacuous=False)
    for i in (0, 0, 0, 3, 4):
        c.add(distinct(i))
    c.resolve()
    assert not c.complete
    assert [0, 1, 2, 3] in c.classes  # the one check joined the large class
    assert pair_priority(0, 3, {0: 3, 3: 1, 4: 1}) < pair_priority(3, 4, {0: 3, 3: 1, 4: 1})


def test_incremental_resolves_reuse_verdicts():
    oracle = Oracle([0, 1, 0, 1, 0])
    c = AnytimeClusterer("sae", budget=math.inf, checker=oracle, fingerprints=False, check_vacuous=False)
    for i in range(5):
        c.add(distinct(i))
        c.resolve()
    calls = len(oracle.calls)
    c._dirty = True
    c.resolve()
    assert len(oracle.calls) == calls and c.classes == [[0, 2, 4], [1, 3]]


# ------------------------------------------------------------------ CLI and batch


def test_cli_select_and_batch_take_a_budget(tmp_path):
    from typer.testing import CliRunner

    from rerank.cli import app

    runner = CliRunner()
    assert "--budget" in runner.invoke(app, ["select", "--help"]).output
    problem = {"informal": INFORMAL, "candidates": POOL[:4]}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(problem))
    res = runner.invoke(app, ["select", str(path), "--budget", "0", "--informalizer", "none", "--json"],
                        catch_exceptions=False)
    d = json.loads(res.output)
    assert d["complete"] is False and d["pairs_undecided"] > 0 and d["params"]["budget"] == 0
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": "a", **problem}) + "\n")
    res = runner.invoke(app, ["batch", str(inp), str(tmp_path / "out.jsonl"), "--budget", "0",
                              "--informalizer", "none", "--no-progress"], catch_exceptions=False)
    rec = json.loads((tmp_path / "out.jsonl").read_text())
    assert rec["complete"] is False and rec["pairs_undecided"] == d["pairs_undecided"]
