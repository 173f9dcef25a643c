"""Values read off equations (``engine/witnesses.py``): ``tan B = 3/2`` solved by
B = arctan (3/2), certified exactly through ``values.Witness`` and ``surds.INVERSE_PAIRS``,
then used as a countermodel or as the witness of an ∃. Real z3 and cvc5."""

import math
from fractions import Fraction

import mpmath
from hypothesis import given, settings
from hypothesis import strategies as st

from provers.backends.smt import Portfolio
from provers.deadline import Deadline
from provers.engine.equivalence import check_equivalence
from provers.engine.prover import Prover
from provers.engine.witnesses import SOLUTIONS, equation_witnesses, simplify_inverses
from provers.ir import INT, REAL, Num, Quant, Var, app, cast
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
    w = SOLUTIONS[op](_num(c))
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


# -- linear arguments, identities among the assumptions, atoms of the closed forms ----------

affine = st.tuples(st.fractions(min_value=-4, max_value=4, max_denominator=6).filter(lambda a: a != 0),
                   st.fractions(min_value=-3, max_value=3, max_denominator=6), st.booleans())


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["sin", "cos", "tan"]), st.fractions(min_value=-1, max_value=1, max_denominator=9), affine)
def test_an_equation_of_an_affine_argument_is_solved_exactly(op, c, shape):
    """f (a·X + b) = c, b possibly a multiple of π: the solution satisfies it exactly, and a
    perturbed right-hand side is exactly false there (both certified, not approximate)."""
    a, b, with_pi = shape
    shift = app("mul", _num(b), app("pi")) if with_pi else _num(b)
    arg = app("add", app("mul", _num(a), X), shift)
    found = equation_witnesses([X], [app("eq", app(op, arg), _num(c))])
    assert set(found) == {X}
    env = {"X": Witness(found[X])}
    assert truth(app("eq", app(op, arg), _num(c)), env) is True
    assert truth(app("eq", app(op, arg), _num(c + Fraction(1, 997))), env) is False


def test_an_identity_is_taken_from_the_premises_only():
    """``cos V = 2/3 ∧ T = 24 V`` has the model V = arccos (2/3), T = 24 arccos (2/3), exactly
    checked; the conclusion's ``area = 0`` does not fix the answer a countermodel must avoid."""
    from provers.engine.equivalence import vacuous
    from provers.engine.witnesses import assumed

    st_ = 'theorem\nfixes T V :: real\nassumes "cos V = 2/3" and "T = V * 24"\nshows "T = 16"'
    ob = vacuous(st_, timeout=1.0, language="isabelle")
    assert ob.status == Status.REFUTED, ob.detail
    assert "arccos" in ob.detail
    area = Var("area", REAL)
    body = app("implies", app("eq", B, _num(1)), app("eq", area, _num(0)))
    assert assumed(body) == [app("eq", B, _num(1))]
    assert set(equation_witnesses([B, area], [body.args[0], body.args[1]], identities=assumed(body))) == {B}


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["arcsin", "arccos", "arctan"]), st.fractions(min_value=-2, max_value=2, max_denominator=7),
       st.fractions(min_value=-3, max_value=3, max_denominator=5))
def test_atoms_of_the_closed_forms_agree_with_the_numbers(op, u, k):
    """An inverse function at a rational is an atom of the closed forms: equalities the forms
    certify hold in high precision, and arcsin u + arccos u - π/2 (zero) is never a divisor
    giving 1 (x / 0 = 0)."""
    atom = app(op, _num(u))
    twice = app("add", atom, atom)
    assert truth(app("eq", twice, app("mul", _num(2), atom))) is True
    assert truth(app("eq", app("mul", _num(k), atom), app("mul", atom, _num(k)))) is True
    zero = app("sub", app("add", app("arcsin", _num(u)), app("arccos", _num(u))), app("div", app("pi"), _num(2)))
    if abs(u) <= 1:
        assert truth(app("eq", app("div", zero, zero), _num(1))) is not True
    mp = {"arcsin": mpmath.asin, "arccos": mpmath.acos, "arctan": mpmath.atan}[op]
    x = mpmath.mpf(u.numerator) / u.denominator
    if abs(x) <= 1 or op == "arctan":
        value = mp(x)
        decided = truth(app("lt", app("mul", _num(k), atom), _num(1)))
        assert decided is None or decided == bool(k * value < 1)


def test_an_equation_whose_right_side_has_variables_is_solved_after_the_solvers_model():
    # precalculus/problem_1203: cos C = A / B with A, B integers; cos C as a variable in
    # [-1, 1] makes the rest polynomial, and C = arccos of its model value solves it exactly
    a = '''theorem fixes A B C :: real and angle_C :: real assumes h0 : "B = (A + C) / 2"
and h1 : "cos angle_C = A / C" and h2 : "A \\<in> \\<int>" and h3 : "B \\<in> \\<int>" and h4 : "C \\<in> \\<int>"
shows  "area_triangle_ABC = 6 * sqrt 6"'''
    b = 'theorem fixes x :: real assumes h0: "x = 6 * sqrt 6" shows "x = 6 * sqrt 6"'
    v = check_equivalence(a, b, relation="symbolic", language="isabelle", timeout=1.0)
    assert v.status == "inequivalent", v.explain()  # A's answer is free at a model of its premises


@settings(max_examples=25, deadline=None)
@given(st.sampled_from(["sin", "cos", "exp", "tan"]), st.integers(1, 6), st.integers(-3, 3))
def test_a_model_through_an_abstracted_application_satisfies_the_equation_exactly(op, k, shift):
    # a model of f (v + shift) = a / b ∧ a + b = k ∧ 0 < b (a countermodel of its negation):
    # the solvers' own models are spurious (they know f by a few facts); f (v + shift) as a
    # variable gives a rational value, v its exact inverse, and the point is re-checked
    a, b, v = Var("a", INT), Var("b", INT), Var("v", REAL)
    ratio = app("div", cast(a, REAL), cast(b, REAL))
    body = app("and", app("eq", app(op, app("add", v, _num(shift))), ratio),
               app("eq", app("add", a, b), Num(k, INT)), app("lt", Num(0, INT), b))
    ob = _prover()("premises", Quant("forall", (v, a, b), app("not", body)))
    if op == "exp" and k == 1:  # a / b > 0 needs a ≥ 1, so b = k − a ≤ 0: no model
        assert ob.status != Status.REFUTED
        return
    assert ob.status == Status.REFUTED, ob.detail
    assert truth(body, ob.model) is True


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["sin", "cos", "tan", "exp"]), st.fractions(-3, 3, max_denominator=7), st.sampled_from([2, 3, 5, 10]))
def test_an_irrational_right_side_is_solved_by_the_inverse_of_the_closed_term(op, q, m):
    """``cos V = q·√m`` (MATH precalculus/problem_804: cos θ = −1/√10) is solved by
    V = arccos (q·√m) where q·√m is certified within [-1, 1] (sin, cos; > 0 for exp), and the
    equation then holds exactly, a perturbed right side not; outside the range, no solution."""
    c = app("mul", _num(q), app("sqrt", _num(m)))
    value = float(q) * math.sqrt(m)
    w = SOLUTIONS[op](c)
    inside = {"sin": -1 <= value <= 1, "cos": -1 <= value <= 1, "tan": True, "exp": value > 0}[op]
    if not inside:
        assert w is None
        return
    assert w is not None
    env = {"X": Witness(w)}
    assert truth(app("eq", app(op, X), c), env) is True
    assert truth(app("eq", app(op, X), app("add", c, _num(Fraction(1, 997)))), env) is False


COS_THETA = '''theorem
fixes t u :: real and l1 l2 :: "real \\<Rightarrow> real*real" and theta :: real
assumes h0 : "\\<forall> t. l1 t = (5 + 2 * t, -1 + t)"
and h1 : "\\<forall> u. l2 u = (-7 - u, 3 + u)"
and h2 : "cos theta = ((2 * -1) + (1 * 1)) / (sqrt ((2^2 + 1^2) * ((-1)^2 + 1^2)))"
shows  "cos theta = 0"'''


def test_an_answer_pinned_to_a_surd_through_an_irrational_inverse():
    """MATH precalculus/problem_804: cos θ = (2·(−1) + 1·1) / √((2² + 1²)((−1)² + 1²)) = −1/√10,
    solved by θ = arccos (−1/√10) (its range certified) and the answer cos θ read back as the
    algebraic −1/√10 (root of 10x² − 1): the same answer as a plain statement of it, another
    than cos θ = 0 (inconclusive at ``ffc83b6``: no model of the premises)."""
    same = 'theorem fixes theta :: real assumes h0 : "cos theta = -1 / sqrt 10" shows "cos theta = 0"'
    other = 'theorem fixes theta :: real assumes h0 : "cos theta = 0" shows "cos theta = 0"'
    v = check_equivalence(COS_THETA, same, relation="symbolic", language="isabelle", timeout=1.0)
    assert v.status == "equivalent", v.reason
    v = check_equivalence(COS_THETA, other, relation="symbolic", language="isabelle", timeout=1.0)
    assert v.status == "inequivalent", v.reason
    assert "10x^2 - 1" in v.reason
