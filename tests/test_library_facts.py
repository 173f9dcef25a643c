"""Library functions' values at the obligation's numerals, stated to the solvers
(``smt.lower.library_facts``): each fact is true of the evaluator's one meaning (a wrong value
would let a solver prove what is false), and with them a premise that contradicts the
library's value is proved contradictory instead of ending in spurious models."""

from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.backends.smt.lower import library_facts
from provers.ir import BOOL, INT, NAT, Num, Quant, SetSort, Uninterpreted, Var, app, app_sorted
from provers.semantics import truth

n, p = Var("n", NAT), Var("p", NAT)


def _applied(symbol: str, sort, arg=n):
    return Uninterpreted(symbol, (arg,), sort)


def test_the_values_at_the_numerals_of_the_obligation_are_stated():
    pf = _applied("prime_factors", SetSort(NAT))
    body = app("implies", app("and", app("eq", n, Num(78, NAT)), app("eq", pf, app_sorted("set_of", SetSort(NAT), p))),
               app("eq", p, Num(13, NAT)))
    facts = library_facts(body, [n, p])
    wanted = app("implies", app("eq", n, Num(78, NAT)),
                 app("eq", pf, app_sorted("set_of", SetSort(NAT), Num(2, NAT), Num(3, NAT), Num(13, NAT))))
    assert wanted in facts
    assert all(f.args[0].args[1].value in (0, 1, 13, 78) for f in facts)  # numerals of the obligation, 0 and 1


def test_an_application_under_a_binder_gets_no_fact():
    """``prime_factors m`` with m bound inside the obligation: a fact about it would need
    to live in that binder's scope, so none is stated."""
    m = Var("m", NAT)
    inner = app("eq", _applied("prime_factors", SetSort(NAT), m), app_sorted("set_of", SetSort(NAT), p))
    body = app("and", app("eq", n, Num(78, NAT)), Quant("exists", (m,), inner))
    assert library_facts(body, [n, p]) == []


def test_no_fact_without_a_library_function():
    f = Uninterpreted("my_function", (n,), NAT)
    assert library_facts(app("eq", f, Num(78, NAT)), [n]) == []


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 5000), st.sampled_from([
    ("prime_factors", NAT, SetSort(NAT)), ("prime_factors", INT, SetSort(INT)),
    ("Nat.primeFactors", NAT, SetSort(NAT)), ("Nat.totient", NAT, NAT),
    ("Squarefree", NAT, BOOL), ("Squarefree", INT, BOOL), ("IsSquare", INT, BOOL),
]))
def test_every_stated_fact_is_true_for_the_evaluator(c, signature):
    """Differential: the lowering's facts against the exact evaluator, which re-checks every
    countermodel — a fact it does not confirm would be an axiom the semantics denies."""
    symbol, arg_sort, sort = signature
    x = Var("x", arg_sort)
    body = app("eq", Uninterpreted(symbol, (x,), sort), Uninterpreted(symbol, (x,), sort)) if sort != BOOL \
        else Uninterpreted(symbol, (x,), sort)
    body = app("and", body, app("eq", x, Num(c, arg_sort)))
    facts = library_facts(body, [x])
    assert facts, "a value at the obligation's numeral is stated"
    for fact in facts:  # x = c' → f x = v, checked where its premise holds: at x = c'
        at = fact.args[0].args[1].value
        assert truth(fact, {"x": at}) is True, fact


PREMISES_CONTRADICT_THE_LIBRARY = (
    'theorem fixes n p :: nat assumes h0 : "n = 78" and h1 : "prime_factors n = {p}" shows "p = 13"'
)
PREMISES_AGREE_WITH_THE_LIBRARY = (
    'theorem fixes n p :: nat assumes h0 : "n = 78" and h1 : "prime_factors n = {2, 3, p}" shows "p = 13"'
)


def test_a_premise_contradicting_a_library_value_is_proved_contradictory():
    """prealgebra/problem_878 #6: no p has prime_factors 78 = {p}; the other statement's
    premises have a model (p = 13), so the two are inequivalent — before the facts, every
    solver model gave prime_factors 78 some other set and the pair stayed inconclusive."""
    v = provers.check_equivalence(PREMISES_CONTRADICT_THE_LIBRARY, PREMISES_AGREE_WITH_THE_LIBRARY,
                                  relation="symbolic", language="isabelle", timeout=2.0)
    assert v.status == "inequivalent", v.reason
    assert "contradictory" in v.reason
