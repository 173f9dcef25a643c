"""The evaluator's memo of quantified subformulas never changes a value: it keys on the exact
values a subformula reads, never on values that compare equal while meaning different things."""

import importlib
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ir_vocab import Z, i, j

from provers.ir import INT, FunSort, Quant, Var, app, implies
from provers.semantics import Closure, FunTable, truth
from provers.semantics.evaluate import IFF_SIDES
from provers.semantics.memo import Memo, Unkeyable, value_key
from provers.semantics.quantifiers import QUANTIFIER_VALUES
from provers.semantics.values import Undecided

a, b = Var("a", INT), Var("b", INT)
f = Var("f", FunSort((INT,), INT))


def _bounded(body):
    """∀ i ∈ [0, 20]. body"""
    return Quant("forall", (i,), implies(app("and", app("le", Z(0), i), app("le", i, Z(20))), body))


@pytest.fixture(autouse=True)
def _fresh_memo():
    QUANTIFIER_VALUES.clear()
    IFF_SIDES.clear()
    yield
    QUANTIFIER_VALUES.clear()
    IFF_SIDES.clear()


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-30, 30), st.integers(-30, 30)), min_size=2, max_size=12))
def test_remembered_values_equal_fresh_evaluations(points):
    """Evaluated in sequence (the memo filling up) and each alone on an empty memo: the same
    truth value at every point, and the repeated points are answered from the memo."""
    formula = _bounded(app("le", app("mul", a, i), app("add", b, Z(100))))
    remembered = []
    hits = QUANTIFIER_VALUES.hits
    for p, q in points + points:
        remembered.append(truth(formula, {"a": p, "b": q}))
    assert QUANTIFIER_VALUES.hits - hits >= len(points)
    for (p, q), got in zip(points + points, remembered, strict=True):
        QUANTIFIER_VALUES.clear()
        assert truth(formula, {"a": p, "b": q}) is got
        assert got is (max(p * 0, p * 20) <= q + 100)


def test_function_tables_are_keyed_by_their_points():
    formula = _bounded(app("le", app("apply", f, i), Z(5)))
    small = FunTable({(3,): 4}, 0)
    assert truth(formula, {"f": small}) is True
    big = FunTable({(3,): 9}, 0)  # the same default: the hash is the same, the key is not
    assert truth(formula, {"f": big}) is False
    small.entries[(4,)] = 7  # mutated after it was remembered: not the remembered table
    assert truth(formula, {"f": small}) is False
    assert value_key(FunTable({(1,): 0}, 0)) == value_key(FunTable({}, 0))  # a point at the default


def test_closures_are_keyed_by_what_they_capture():
    """Closures compare equal whatever they capture (λi. i + k at k = 0 and k = 9); their
    memo keys do not, so a term reading one is remembered apart for each; a closure that
    captures itself too deeply has no key."""
    k = Var("k", INT)
    formula = _bounded(app("le", app("apply", f, i), Z(20)))
    low, high = Closure((j,), app("add", j, k), {"k": 0}), Closure((j,), app("add", j, k), {"k": 9})
    assert low == high
    assert value_key(low) != value_key(high)
    assert value_key(low) == value_key(Closure((j,), app("add", j, k), {"k": 0, "unread": 5}))
    for _ in range(2):  # the second time from the memo
        assert truth(formula, {"f": low}) is True
        assert truth(formula, {"f": high}) is False
    g = Var("g", f.sort)
    env: dict = {}
    env["g"] = Closure((j,), app("apply", g, j), env)  # reads itself
    with pytest.raises(Unkeyable):
        value_key(env["g"])


def test_a_set_builder_reading_a_closure_is_enumerated_once_per_value():
    """``{n ∈ [0, 50]. f n = n}`` with f a closure: remembered by the closure's key, the same
    finite set at another sampled point, another set for another closure."""
    from provers.ir import SetBuilder
    from provers.semantics.comprehensions import SET_VALUES
    from provers.semantics.evaluate import evaluate

    n = Var("n", INT)
    k = Var("k", INT)
    fixed = SetBuilder(n, app("and", app("le", Z(0), n), app("le", n, Z(50)), app("eq", app("apply", f, n), n)))
    identity, shift = Closure((j,), app("add", j, k), {"k": 0}), Closure((j,), app("add", j, k), {"k": 1})
    SET_VALUES.clear()
    assert evaluate(fixed, {"f": identity}) == frozenset(range(51))
    hits = SET_VALUES.hits
    assert evaluate(fixed, {"f": identity, "x": 3}) == frozenset(range(51))
    assert SET_VALUES.hits == hits + 1
    assert evaluate(fixed, {"f": shift}) == frozenset()


def test_integers_and_booleans_are_different_keys():
    assert value_key(1) != value_key(True)
    assert value_key(Fraction(1)) != value_key(1)  # the evaluator coerces; the key need not


def test_an_exhausted_step_budget_is_not_remembered():
    memo = Memo()
    formula = _bounded(app("le", a, Z(0)))
    key = memo.key(formula, {"a": 1})
    memo.put_undecided(key, Undecided("evaluation step budget exhausted"))
    assert memo.get(key) is Memo.MISSING
    memo.put_undecided(key, Undecided("∃ over an unbounded domain (x : ℝ)"))
    with pytest.raises(Undecided, match="unbounded"):
        memo.get(key)


def test_an_evaluation_that_ran_out_of_steps_is_decided_again_with_its_budget(monkeypatch):
    """A ∀ that ran out of steps is undecided for that call only: with the full budget the
    counterexample at i = 15 is found (the memo does not answer "undecided" for it)."""
    ev = importlib.import_module("provers.semantics.evaluate")

    formula = _bounded(app("ne", app("mul", a, i), Z(15)))
    monkeypatch.setattr(ev, "STEP_BUDGET", 5)
    assert truth(formula, {"a": 1}) is None
    monkeypatch.setattr(ev, "STEP_BUDGET", 200_000)
    assert truth(formula, {"a": 1}) is False


def test_a_table_still_reading_its_model_is_never_a_memo_key():
    """A table with ``fill`` reads points as the evaluation goes (a solver's model behind it):
    a result kept under the points it listed before would be taken for another table listing
    the same points, whose function differs at those read later."""
    lazy = FunTable({(0,): 1}, 0, fill=lambda point: 1)  # 1 everywhere, as read
    eager = FunTable({(0,): 1}, 0)  # 1 at 0 only
    with pytest.raises(Unkeyable):
        value_key(lazy)
    body = _bounded(app("eq", app("apply", f, i), Z(1)))
    assert truth(body, {"f": lazy}) is True
    assert truth(body, {"f": eager}) is False
    assert value_key(lazy.settle()) != value_key(eager)  # settled: keyed by all it read


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(-30, 30), st.integers(-30, 30)), min_size=2, max_size=12))
def test_remembered_iff_sides_equal_fresh_evaluations(points):
    """``Γ ↔ Γ'`` evaluated once per alignment at the same points: Γ's truth at a point is
    remembered (stop 62), and never differs from a fresh evaluation — the other side, renamed
    (a ↔ b), is a different formula with its own entries."""
    gamma = app("and", app("le", app("mul", a, b), Z(10)), app("ge", app("add", a, b), Z(0)))
    renamed = app("and", app("le", app("mul", b, a), Z(10)), app("ge", app("sub", b, a), Z(0)))
    formula = app("iff", gamma, renamed)
    hits = IFF_SIDES.hits
    remembered = [truth(formula, {"a": p, "b": q}) for p, q in points + points]
    assert IFF_SIDES.hits - hits >= 2 * len(points)
    for (p, q), got in zip(points + points, remembered, strict=True):
        IFF_SIDES.clear()
        QUANTIFIER_VALUES.clear()
        assert truth(formula, {"a": p, "b": q}) is got
        assert got is ((p * q <= 10 and p + q >= 0) == (q * p <= 10 and q - p >= 0))


def test_an_iff_side_that_ran_out_of_steps_is_decided_again_with_its_budget(monkeypatch):
    ev = importlib.import_module("provers.semantics.evaluate")

    side = app("and", _bounded(app("ne", app("mul", a, i), Z(15))), app("ge", a, Z(0)))
    formula = app("iff", side, app("ge", a, Z(0)))
    monkeypatch.setattr(ev, "STEP_BUDGET", 5)
    assert truth(formula, {"a": 1}) is None
    monkeypatch.setattr(ev, "STEP_BUDGET", 200_000)
    assert truth(formula, {"a": 1}) is False  # the side is false at i = 15, the other true
