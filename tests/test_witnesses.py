"""Values read off equations (``engine/witnesses.py``): ``tan B = 3/2`` solved by
B = arctan (3/2), certified exactly through ``values.Witness`` and ``surds.INVERSE_PAIRS``,
then used as a countermodel or as the witness of an ∃. Real z3 and cvc5."""

from fractions import Fraction

import mpmath
from hypothesis import given, settings
from hypothesis import strategies as st

from provers.backends.smt import Portfolio
from provers.deadline import Deadline
from provers.engine.equivalence import check_equivalence
from provers.engine.prover import Prover
from provers.engine.witnesses import SOLUTIONS, equation_witnesses, simplify_inverses
from provers.ir import INT, REAL, Num, Quant, Var, app
from provers.semantics import evaluate, truth
from provers.semantics.values import Approx, Witness
from provers.status import Status

B, C, U, X = (Var(n, REAL) for n in "BCUX")
rationals = st.fractions(min_value=-5, max_value=5, max_denominator=12)


def _num(c) -> Num:
    return Num(Fraction(c), REAL)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(sorted(SOLUTIONS)), rationals)
def test_a_solution_satisfies_its_equation_exactly_and_a_perturbed_one_does_not(op, c):
    w = SOLUTIONS[op](c)
    if w is None:  # outside the range: no real solves it
        assert op in ("sin", "cos", "exp", "sqrt")
        assert (op in ("sin", "cos") and abs(c) > 1) or (op in ("exp", "sqrt") and c <= 0) or (op == "sqrt" and c < 0)
        return
    env = {"X": Witness(w)} if not isinstance(w, Num) else {"X": w.value}
    assert truth(app("eq", app(op, X), _num(c)), env) is True
    assert truth(app("eq", app(op, X), _num(c + Fraction(1, 997))), env) is False
    # the evaluator's exact verdict agrees with plain floating point
    f = {"tan": mpmath.tan, "sin": mpmath.sin, "cos": mpmath.cos, "exp": mpmath.exp, "ln": mpmath.log,
         "log": lambda x: mpmath.log(abs(x)), "sqrt": mpmath.sqrt,
         "signed_sqrt": lambda x: mpmath.sign(x) * mpmath.sqrt(abs(x))}[op]
    v = evaluate(w)
    x = v.value if isinstance(v, Approx) else mpmath.mpf(Fraction(v).numerator) / Fraction(v).denominator
    assert abs(f(x) - mpmath.mpf(c.numerator) / c.denominator) < 1e-12


@settings(max_examples=40, deadline=None)
@given(rationals)
def test_an_inverse_pair_is_certified_only_where_its_identity_holds(c):
    # Mathlib's arcsin clamps: sin (arcsin 2) = 1, never 2
    assert truth(app("eq", app("sin", app("arcsin", _num(c))), _num(c))) is (abs(c) <= 1)
    assert truth(app("eq", app("cos", app("arccos", _num(c))), _num(c))) is (abs(c) <= 1)
    assert truth(app("eq", app("tan", app("arctan", _num(c))), _num(c))) is True
    # Mathlib's log is log |x|: exp (log c) = |c| (and exp (log 0) = 1)
    assert truth(app("eq", app("exp", app("log", _num(c))), _num(c))) is (c > 0)


def test_solutions_chain_through_identities():
    facts = [app("eq", U, app("mul", _num(24), app("cos", B))), app("eq", app("cos", B), _num(Fraction(2, 3)))]
    assert equation_witnesses([B, U], facts) == {B: app("arccos", _num(Fraction(2, 3)))}
    found = equation_witnesses([B, U], facts, identities=True)
    assert set(found) == {B, U}
    assert truth(app("eq", U, _num(16)), {"B": Witness(found[B]), "U": Witness(found[U])}) is True
    assert simplify_inverses(app("cos", app("arccos", _num(2)))) == app("cos", app("arccos", _num(2)))
    assert simplify_inverses(app("cos", app("arccos", _num(Fraction(1, 2))))) == _num(Fraction(1, 2))


def _prover() -> Prover:
    return Prover(Portfolio(), 1.0, Deadline.after(30))


def test_premises_with_tangents_are_proved_satisfiable_by_their_solutions():
    body = app("and", app("eq", C, _num(32)), app("eq", app("tan", B), _num(Fraction(3, 2))))
    ob = _prover()("sat", Quant("exists", (B, C), body))
    assert ob.status == Status.PROVED and "arctan" in ob.detail
    # the variables no equation gives are left to the evaluator's ∃ (here over a bounded range)
    n = Var("n", INT)
    partial = app("and", app("eq", app("tan", B), _num(7)), app("lt", Num(0, INT), n), app("lt", n, Num(3, INT)))
    ob = _prover()("sat", Quant("exists", (B, n), partial))
    assert ob.status == Status.PROVED and "arctan" in ob.detail
    # a contradictory pair is never "witnessed": tan B = 3/2 and B = 0
    bad = app("and", app("eq", B, _num(0)), app("eq", app("tan", B), _num(Fraction(3, 2))))
    assert _prover()("sat", Quant("exists", (B,), bad)).status != Status.PROVED


def test_a_countermodel_solves_the_cosine_premise_by_arccos():
    a = '''theorem
fixes V T :: real
assumes h0 : "cos V = 2 / 3"
and h1 : "V = 0"
shows "T = 16"'''
    b = '''theorem
fixes V T :: real
assumes h0 : "cos V = 2 / 3"
shows "T = 16"'''
    v = check_equivalence(a, b, relation="symbolic", language="isabelle", timeout=1.0)
    # A's premises are contradictory (cos 0 = 1), B's hold at V = arccos (2/3) with T free
    assert v.status == "inequivalent", v.explain()


def test_the_area_of_a_triangle_given_by_tangents_is_separated_from_a_free_answer():
    a = '''theorem
fixes B C BC :: real and area :: "real \\<Rightarrow> real \\<Rightarrow> real \\<Rightarrow> real"
assumes h0 : "BC = 32" and h1 : "tan B = 3 / 2" and h2 : "tan C = 1 / 2"
shows "area B C BC = 192"'''
    b = a.replace('"area B C BC = 192"', '"area_ABC = 192"').replace(
        ' and area :: "real \\<Rightarrow> real \\<Rightarrow> real \\<Rightarrow> real"', "")
    v = check_equivalence(a, b, relation="symbolic", language="isabelle", timeout=1.0)
    assert v.status == "inequivalent", v.explain()
    assert "arctan" in v.explain()
