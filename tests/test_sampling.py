"""Sampled countermodels (``points.sampled_counterexample``): where the sampling stops."""

from __future__ import annotations

import importlib

from provers.ir import BOOL, REAL, Num, Var, app, uninterpreted

prover = importlib.import_module("provers.engine.points")
x = Var("x", REAL)


def _count_evaluations(monkeypatch) -> list:
    seen: list = []
    exact_truth = prover.exact_truth

    def counted(body, env, deadline):
        value = exact_truth(body, env, deadline)
        seen.append(value)
        return value

    monkeypatch.setattr(prover, "exact_truth", counted)
    return seen


def test_sampling_stops_after_points_the_evaluator_cannot_decide(monkeypatch):
    seen = _count_evaluations(monkeypatch)
    body = uninterpreted("mystery", (x,), BOOL)  # no exact value at any point
    assert prover.sampled_counterexample((x,), body, 24, 0) is None
    assert seen == [None] * prover.UNDECIDED_POINTS


def test_decided_points_are_all_tried_and_a_late_countermodel_is_found(monkeypatch):
    late = prover.sample_assignments([x], 24, 0)[23]["x"]  # -3/5, the last point
    body = app("not", app("eq", app("mul", x, x), Num(late * late, REAL)))  # false at ± late only
    seen = _count_evaluations(monkeypatch)
    model = prover.sampled_counterexample((x,), body, 24, 0)
    assert model is not None and model["x"] * model["x"] == late * late
    assert len(seen) > prover.UNDECIDED_POINTS and None not in seen


def test_remembered_assignments_are_the_same_points_in_fresh_dicts():
    """``sample_assignments`` is remembered by (variables, n, seed): the same points every time,
    as computed afresh, and a caller that changes its dicts changes nothing for the next one."""
    from provers.ir import INT, NAT, REAL, FunSort, SetSort, Var
    from provers.semantics.samplers import _assignments, sample_assignments

    vs = [Var("x", INT), Var("y", REAL), Var("f", FunSort((INT,), REAL)), Var("S", SetSort(NAT))]
    first = sample_assignments(vs, 24, 3)
    _assignments.cache_clear()
    fresh = sample_assignments(vs, 24, 3)
    assert first == fresh and first[0] is not fresh[0]
    fresh[0]["x"] = 99
    assert sample_assignments(vs, 24, 3)[0]["x"] == first[0]["x"] != 99
    assert sample_assignments(vs, 24, 4) != first  # another seed, other points
