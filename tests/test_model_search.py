"""How a solver call answers when its first model is spurious, and what it gives the evaluator.

A spurious model is blocked and the solver asked again (up to ``solve.MAX_MODELS``), unless
the evaluator was undecided for a reason another model does not get past
(``solve.MODEL_INDEPENDENT``): then the call answers at once. An answer that is not
definitive is asked again with the quantifiers' facts conjoined (``constrain_facts``).
"""

import importlib
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from provers.backends.base import Proved, Refuted, Unknown
from provers.backends.smt.lower import lower_obligation
from provers.ir import (
    INT,
    NAT,
    REAL,
    FunSort,
    Quant,
    Var,
    app,
    exists_,
    forall_,
    free_vars,
    implies,
    num,
    subterms,
)
from provers.ir.ops import uninterpreted
from provers.ir.terms import Lam, SetBuilder
from provers.semantics import PROBES, decide, sample_assignments, truth

solve_module = importlib.import_module("provers.backends.smt.solve")

x, y = Var("x", REAL), Var("y", REAL)
k = Var("k", INT)


def _evaluator_reasons() -> dict[str, str]:
    """One formula per obstacle of ``MODEL_INDEPENDENT``, and the reason the evaluator gives
    for it at x = -1 (so a reworded reason fails here, not silently in the solver loop)."""
    f = Var("f", FunSort((REAL,), REAL))
    formulas = {
        "uninterpreted symbol": app("le", num(0, REAL), uninterpreted("g", (x,), REAL)),
        # (a polynomial predicate is decided by its sign cells: `LEAST y. 0 < y` has no least element)
        "LEAST over ℝ": app("eq", uninterpreted("LEAST", (Lam((y,), app("lt", num(0, REAL), app("exp", y))),), REAL), x),
        # (over ℤ too: `LEAST k. 0 < k` is 1, by its sign cells; `k mod 3 = 1` has none)
        "LEAST over all of ℤ": app("eq", uninterpreted("LEAST", (Lam((k,), app("eq", app("emod", k, num(3, INT)),
                                                                             num(1, INT))),), INT), num(1, INT)),
        "ln at x ≤ 0": app("eq", app("ln", x), num(0, REAL)),
        # (a one-sided ray {k. 0 < k} is known infinite, card 0, and so is one cut by remainders,
        # {k. 0 < k ∧ k mod 2 = 0}: the squares are an infinite set the evaluator cannot tell)
        "card of an infinite set": app("eq", app("card", SetBuilder(k, app("and", app("lt", num(0, INT), k), Quant(
            "exists", (Var("j", INT),), app("eq", k, app("mul", Var("j", INT), Var("j", INT))))))), num(0, NAT)),
        "lambdas compared": app("eq", Lam((y,), app("add", y, x)), Lam((y,), app("add", x, y))),
        "∀ over ℝ": forall_([y], app("le", app("mul", y, y), app("add", app("mul", y, y), app("exp", y)))),
        "table at an irrational point": app("eq", app("apply", f, app("sqrt", num(2, REAL))), num(0, REAL)),
    }
    from provers.semantics import FunTable

    env = {"x": -1, "f": FunTable({(1,): 1}, 0)}
    return {name: decide(t, env).reason for name, t in formulas.items()}


@pytest.mark.parametrize("name", list(_evaluator_reasons()))
def test_every_model_independent_obstacle_is_a_reason_the_evaluator_gives(name):
    reason = _evaluator_reasons()[name]
    assert reason, f"{name}: the evaluator decided it"
    assert solve_module.MODEL_INDEPENDENT.match(reason), f"{name}: {reason!r} is not matched"


@pytest.mark.parametrize("reason", [
    "∃ over an unbounded domain (y : Real)",  # another point may give the probes a witness
    "approximate values 1.41421356237 and 1.41421356237 agree within tolerance",
    "6000000! too large to evaluate",
    "",
])
def test_obstacles_another_model_can_get_past_are_not_listed(reason):
    assert not solve_module.MODEL_INDEPENDENT.match(reason)


def _count_models(monkeypatch) -> list[int]:
    asked = [0]
    block = solve_module._blocking_clause

    def counting(em, model):
        asked[0] += 1
        return block(em, model)

    monkeypatch.setattr(solve_module, "_blocking_clause", counting)
    return asked


@pytest.mark.parametrize("solver", ["z3", "cvc5"])
def test_a_model_undecided_by_the_obligation_shape_ends_the_search(monkeypatch, solver):
    """``x powr 2 = x · x`` fails only where Isabelle leaves ``ln x`` unspecified (x < 0):
    every model of the negation is undecided for that reason, so the first one is read and
    none is blocked (before: three more models asked for, each as undecided)."""
    asked = _count_models(monkeypatch)
    ob = forall_([x], app("eq", app("powr", x, num(2, REAL)), app("mul", x, x)))
    r = solve_module.solve(solver, ob, 2.0)
    assert isinstance(r, Unknown) and r.satisfiable
    assert "Isabelle ln is unspecified" in r.reason
    assert asked[0] == 0


@pytest.mark.parametrize("solver", ["z3", "cvc5"])
def test_a_model_another_one_may_improve_on_is_still_blocked(monkeypatch, solver):
    """``x² = 2 → x = 1`` at an irrational model: the solver is asked again (and a
    validated countermodel comes back, at √2 or −√2 or from a later model)."""
    asked = _count_models(monkeypatch)
    two = app("eq", app("mul", x, x), num(2, REAL))
    ob = forall_([x], implies(two, app("eq", x, num(1, REAL))))
    r = solve_module.solve(solver, ob, 2.0)
    assert isinstance(r, Refuted)
    assert truth(implies(two, app("eq", x, num(1, REAL))), {"x": r.model["x"]}) is not True
    assert asked[0] <= solve_module.MAX_MODELS


# ---- a quantifier's facts conjoined where the negated obligation asserts it -----------

def _powr_premise():
    """``¬ ∀x. x powr (1/2) = 1``: true (x = 0). Its ∀ is asserted by the negation, and the
    facts of ``%powr x (1/2)`` in its body (``0 powr y = 0``, positive for x > 0, …) were
    hypotheses the solver could make false, so every model made the ∀ vacuous. (Written
    with ``x powr 2`` before; at x < 0 that is now one constant's square, with no fact about
    x: stop 42.)"""
    half = num(Fraction(1, 2), REAL)
    return app("not", forall_([x], app("eq", app("powr", x, half), num(1, REAL))))


def test_facts_are_hypotheses_by_default_and_conjoined_when_asked():
    ob = _powr_premise()
    default, constrained = lower_obligation(ob), lower_obligation(ob, constrain_facts=True)
    assert default.constrainable and constrained.constrainable
    assert default.formula != constrained.formula
    # ¬(∀x. body), beside the ∀'s instances at the obligation's ground terms (0, 1, 1/2)
    inner = lambda lo: next(s for s in subterms(lo.formula) if isinstance(s, Quant)).body  # noqa: E731
    assert inner(default).op == "implies"  # facts → body
    assert inner(constrained).op == "and"  # facts ∧ body (no guards over ℝ)
    # a ∀ the obligation asserts itself keeps its facts as hypotheses either way
    plain = forall_([x], app("eq", app("powr", x, num(Fraction(1, 2), REAL)), num(1, REAL)))
    assert not lower_obligation(app("implies", app("eq", y, num(0, REAL)), plain)).constrainable


def test_a_vacuous_premise_model_is_asked_again_with_the_facts_conjoined():
    """cvc5 answered "spurious model: the obligation holds under the model" before."""
    r = solve_module.solve("cvc5", _powr_premise(), 2.0)
    assert isinstance(r, Proved), r


def _premise_formulas():
    c = st.fractions(min_value=-3, max_value=3, max_denominator=2).map(lambda v: num(v, REAL))
    power = st.tuples(st.sampled_from(["powr"]), st.integers(1, 3)).map(
        lambda t: app(t[0], y, num(t[1], REAL)))
    term = st.one_of(power, power.map(lambda p: app("add", p, x)), power.map(lambda p: app("mul", x, p)))
    atom = st.tuples(st.sampled_from(["eq", "le", "lt"]), term, c).map(lambda t: app(t[0], t[1], t[2]))
    conclusion = st.tuples(st.sampled_from(["eq", "le", "lt"]), c).map(lambda t: app(t[0], x, t[1]))
    return st.one_of(
        st.tuples(atom, conclusion).map(lambda t: app("implies", forall_([y], t[0]), t[1])),
        atom.map(lambda a: app("not", forall_([y], a))),
        st.tuples(atom, conclusion).map(lambda t: app("or", t[1], app("not", forall_([y], t[0])))),
    )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_premise_formulas())
def test_conjoined_facts_never_prove_what_the_evaluator_or_a_default_countermodel_refutes(phi):
    """Both lowerings, both solvers: a proof under either is never contradicted by a
    validated countermodel of the other, nor by the exact evaluator at sampled points."""
    vs = sorted(free_vars(phi), key=lambda v: v.name)
    falsified = [s for s in sample_assignments(vs, 16, seed=3) if truth(phi, s) is False]
    _assert_both_lowerings_agree(phi, forall_(vs, phi), falsified, "constrain_facts")


def _assert_both_lowerings_agree(phi, closed, falsified, option: str) -> None:
    """``closed`` lowered without and with ``option``, on both solvers: no proof where the
    evaluator falsified ``phi`` at a point, every countermodel re-checked, never a proof and
    a countermodel together."""
    results = []
    for on in (False, True):
        lowered = lower_obligation(closed, **{option: on})
        for solver in ("z3", "cvc5"):
            r = solve_module._ask(solver, lowered, 1.0)
            results.append(r)
            if isinstance(r, Proved):
                assert not falsified, (solver, option, on, falsified[0], phi)
            if isinstance(r, Refuted):
                assert truth(phi, r.model) is False, (solver, option, on, r.model, phi)
    kinds = {type(r) for r in results}
    assert not (Proved in kinds and Refuted in kinds), (results, phi)


# ---- an asserted ∃ outside binders: Skolem constants whose values the evaluator probes ----

n = Var("n", INT)


def _product_premise(bound: int):
    """``(∃ a b. 7 < a ∧ 7 < b ∧ x = a·b) → x > bound`` over ℝ."""
    a, b = Var("a", REAL), Var("b", REAL)
    premise = exists_([a, b], app("and", app("lt", num(7, REAL), a), app("lt", num(7, REAL), b),
                                 app("eq", x, app("mul", a, b))))
    return implies(premise, app("lt", num(bound, REAL), x))


def test_an_asserted_exists_outside_binders_becomes_constants_when_asked():
    default = lower_obligation(_product_premise(60))
    assert default.witnessable and not default.witnesses
    lowered = lower_obligation(_product_premise(60), witness_existentials=True)
    assert [name for _, name in lowered.witnesses] == ["a", "b"]
    assert not any(isinstance(s, Quant) for s in subterms(lowered.formula))
    # asserted by the obligation itself (∃ in the conclusion), or under a ∀: still quantified
    a = Var("a", REAL)
    concluded = implies(app("lt", num(0, REAL), x), exists_([a], app("lt", x, a)))
    nested = implies(forall_([y], exists_([a], app("lt", y, a))), app("lt", num(0, REAL), x))
    lo = lower_obligation(concluded, witness_existentials=True)
    assert not lo.witnessable and not lo.witnesses
    # the ∃ under the asserted ∀ stays quantified there (only the ∀'s instances at the
    # obligation's ground terms, ∃a. x < a …, stand outside every binder)
    lo = lower_obligation(nested, witness_existentials=True)
    assert any(isinstance(s, Quant) and s.kind == "forall" and any(isinstance(t, Quant) and t.kind == "exists"
                                                                   for t in subterms(s.body))
               for s in subterms(lo.formula))


def test_the_evaluator_probes_the_values_it_is_given_first():
    """∃ a b. 7 < a ∧ 7 < b ∧ 64 = a·b: 8 is no probe value of ℝ; given as a hint, it is
    tried, and a hint that is no witness changes nothing."""
    premise = _product_premise(60).args[0]
    assert decide(premise, {"x": 64}).value is None
    assert decide(premise, {"x": 64, PROBES: (("a", (8,)), ("b", (8,)))}).value is True
    assert decide(premise, {"x": 64, PROBES: (("a", (9,)), ("b", (9,)))}).value is None


@pytest.mark.parametrize("solver", ["z3", "cvc5"])
def test_a_witness_from_the_model_validates_the_countermodel(solver):
    """49 < x = a·b: the model's a and b are no small probe values, so every model of the
    first question is spurious ("∃ over an unbounded domain (a : Real, b : Real)"); the
    second, with a and b as constants, gives them."""
    r = solve_module.solve(solver, forall_([x], _product_premise(60)), 2.0)
    assert isinstance(r, Refuted), r
    assert set(r.model) == {"x", PROBES} and 49 < r.model["x"] <= 60
    # the witnesses stay in the countermodel: it re-checks exactly without the solver
    hints = dict(r.model[PROBES])
    assert hints["a"][0] * hints["b"][0] == r.model["x"]
    assert truth(_product_premise(60), r.model) is False
    assert isinstance(solve_module.solve(solver, forall_([x], _product_premise(49)), 2.0), Proved)


def _exists_premises():
    k = Var("k", INT)
    coef = st.integers(-3, 3).map(lambda v: num(v, INT))
    term = st.tuples(coef, coef).map(lambda t: app("add", app("mul", t[0], app("mul", k, k)), app("mul", t[1], k)))
    atom = st.tuples(st.sampled_from(["eq", "le", "lt"]), term).map(lambda t: app(t[0], t[1], n))
    bound = st.integers(-12, 12).map(lambda v: num(v, INT))
    conclusion = st.tuples(st.sampled_from(["eq", "le", "lt"]), bound).map(lambda t: app(t[0], n, t[1]))
    return st.one_of(
        st.tuples(atom, conclusion).map(lambda t: implies(exists_([k], t[0]), t[1])),
        st.tuples(atom, conclusion).map(lambda t: app("or", t[1], app("not", exists_([k], t[0])))),
    )


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_exists_premises())
# found by hypothesis: z3's countermodel n = -10 needs its witness k > 10 (no probe value)
# to re-check; it failed here while the witnesses were dropped from the model
@example(implies(exists_([k], app("lt", app("neg", k), n)), app("eq", n, num(-9, INT))))
def test_witnessed_existentials_agree_with_quantified_ones_and_the_evaluator(phi):
    """Both lowerings, both solvers: a proof under either is never contradicted by a
    validated countermodel of the other, nor by the exact evaluator at points of n."""
    falsified = [{"n": v} for v in range(-40, 41) if truth(phi, {"n": v}) is False]
    _assert_both_lowerings_agree(phi, forall_([n], phi), falsified, "witness_existentials")
