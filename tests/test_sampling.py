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


def test_points_already_evaluated_are_read_back_not_evaluated_again(monkeypatch):
    """A check asks an obligation cheaply, then with the backend, at the same points: with the
    prover's ``seen`` the second search evaluates nothing and finds what the first found; another
    body is evaluated afresh."""
    body = app("le", Num(0, REAL), app("mul", x, x))  # true everywhere: every point is tried
    seen_values = _count_evaluations(monkeypatch)
    seen: dict = {}
    assert prover.sampled_counterexample((x,), body, 24, 0, seen=seen) is None
    first = len(seen_values)
    assert first > prover.UNDECIDED_POINTS and seen
    assert prover.sampled_counterexample((x,), body, 24, 0, seen=seen) is None
    assert len(seen_values) == first
    late = prover.sample_assignments([x], 24, 0)[23]["x"]
    other = app("not", app("eq", app("mul", x, x), Num(late * late, REAL)))
    model = prover.sampled_counterexample((x,), other, 24, 0, seen=seen)
    assert model is not None and model["x"] * model["x"] == late * late and len(seen_values) > first


def test_a_point_is_keyed_by_every_value_its_functions_read():
    """Two points whose closure ``p = λt. a·t`` reads different ``a`` are different points (the
    closure alone compares equal: its environment is not part of it); a table still reading a
    solver's model has no key; exact algebraic numbers are keyed by their value."""
    from fractions import Fraction

    from provers.semantics import Closure
    from provers.semantics.algebraic import AlgebraicReal
    from provers.semantics.values import FunTable

    t, a = Var("t", REAL), Var("a", REAL)
    line = app("mul", a, t)

    def point(av):
        env = {"a": av}
        env["p"] = Closure((t,), line, env)
        return env

    key = prover.point_key
    assert key(point(1)) == key(point(1)) and key(point(1)) != key(point(2))
    assert key({"p": Closure((t,), line, {"a": 1})}) != key({"p": Closure((t,), line, {"a": 2})})
    assert key({"f": FunTable({(1,): 2}, 0)}) == key({"f": FunTable({(1,): 2}, 0)}) != key({"f": FunTable({(1,): 3}, 0)})
    assert key({"f": FunTable({}, 0, fill=lambda args: 1)}) is None
    root2 = AlgebraicReal((-2, 0, 1), Fraction(1), Fraction(2))
    assert key({"y": root2}) == key({"y": AlgebraicReal((-2, 0, 1), Fraction(5, 4), Fraction(3, 2))})
    assert key({"y": root2}) != key({"y": AlgebraicReal((-3, 0, 1), Fraction(1), Fraction(2))})
    assert key({"y": 1}) != key({"y": True}) and key({"y": 1}) != key({"y": Fraction(1)})
