"""Premises that define functions (``∀x. f x = e``, ``∀x. g → q x = e``) and identities with
divisions: the obligations without the defined functions (``engine.unfolding``), closures off
their guard, rational-function identities at a point, linear equations as finite domains.
Each route ends in a verdict the exact evaluator re-checks; the properties say it is the
right one for every numeral the statement may carry."""

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.engine import equivalence
from provers.engine.definitions import function_equations
from provers.engine.unfolding import definitional_directions, unfold_function_definitions
from provers.ir import BOOL, INT, REAL, FunSort, Num, Quant, Var, app, free_vars
from provers.semantics import Closure, evaluate, truth
from provers.semantics.rational_identities import rational_identity
from provers.status import Status

QUADRATIC = """theorem amc12a_2009_p9 (a b c : ℝ) (f : ℝ → ℝ)
  (h₀ : ∀ x, f (x + 3) = 3 * x^2 + 7 * x + 4)
  (h₁ : ∀ x, f x = a * x^2 + b * x + c) :
  a + b + c = 2 := sorry"""

GUARDED = """theorem mathd_algebra_35 (p q : ℝ → ℝ)
  (h₀ : ∀ x, p x = 2 - x^2)
  (h₁ : ∀ x, x ≠ 0 -> q x = 6 / x) :
  p (q 2) = -7 := sorry"""

PARTIAL_FRACTIONS = """theorem mathd_algebra_13 (a b : ℝ)
  (h₀ : ∀ x, (x - 3 ≠ 0 ∧ x - 5 ≠ 0) → 4 * x / (x^2 - 8 * x + 15) = a / (x - 3) + b / (x - 5)) :
  a = -6 ∧ b = 10 := sorry"""


def sae(a: str, b: str):
    return provers.check_equivalence(a, b, relation="sae", timeout=1.0)


# --- unfolding -----------------------------------------------------------------------------


def _premises_iff(text_a: str, text_b: str):
    sa, sb = provers.parse(text_a, "lean4"), provers.parse(text_b, "lean4")
    ga = app("and", *(h.formula for h in sa.hypotheses))
    gb = app("and", *(h.formula for h in sb.hypotheses))
    vs = tuple(b.var for b in sa.binders if hasattr(b, "var"))
    return Quant("forall", vs, app("iff", ga, gb)), vs


def test_a_shared_definition_is_unfolded_away():
    formula, vs = _premises_iff(QUADRATIC, QUADRATIC.replace("7 * x + 4", "8 * x + 4"))
    u = unfold_function_definitions(formula)
    assert u is not None
    assert [f.name for f, _, _ in u.functions] == ["f"]
    assert "f" not in {v.name for v in free_vars(u.formula)}
    # the reduced obligation is false exactly at the model of the first premise set
    a, b, c = 3, -11, 10  # f x = 3x² - 11x + 10 meets f (x + 3) = 3x² + 7x + 4
    env = {"a": a, "b": b, "c": c}
    inner = u.formula.body
    assert truth(inner, env) is False
    f, params, e = u.functions[0]
    assert truth(formula.body, {**env, "f": Closure(params, e, env)}) is False


def test_a_defining_hypothesis_of_an_implication_or_a_vacuity_test_is_unfolded():
    """``∀f x̄. (D ∧ H) → X`` and ``∀f x̄. ¬(D ∧ H)`` lose f the same way (the uniqueness and
    vacuity obligations of answer pinning); a model of the reduced vacuity test, with f as
    its closure, is a model of the premises."""
    st_ = provers.parse(QUADRATIC, "lean4")
    h0, h1 = (h.formula for h in st_.hypotheses)
    vs = tuple(b.var for b in st_.binders if hasattr(b, "var"))
    implication = Quant("forall", vs, app("implies", app("and", h0, h1), st_.conclusion))
    vacuity = Quant("forall", vs, app("not", app("and", h0, h1)))
    for formula in (implication, vacuity):
        u = unfold_function_definitions(formula)
        assert u is not None and "f" not in {v.name for v in free_vars(u.formula)}
    u = unfold_function_definitions(vacuity)
    env = {"a": 3, "b": -11, "c": 10}
    assert truth(u.formula.body, env) is False  # (3, -11, 10) is a model of the premises
    f, params, e = u.functions[0]
    assert truth(app("and", h0, h1), {**env, "f": Closure(params, e, env)}) is True
    assert truth(implication.body, {**env, "f": Closure(params, e, env)}) is True  # a + b + c = 2


def test_a_definition_on_one_side_only_is_kept():
    formula, _ = _premises_iff(QUADRATIC, QUADRATIC.replace("f x = a", "f x = 2 * a"))
    assert unfold_function_definitions(formula) is None


def test_an_iff_of_two_different_definitions_is_split_into_directions_that_unfold():
    formula, _ = _premises_iff(QUADRATIC, QUADRATIC.replace("f x = a", "f x = 2 * a"))
    directions = definitional_directions(formula)
    assert directions is not None
    for d in directions:
        u = unfold_function_definitions(d)
        assert u is not None and "f" not in {v.name for v in free_vars(u.formula)}
    shared, _ = _premises_iff(QUADRATIC, QUADRATIC.replace("7 * x + 4", "8 * x + 4"))
    assert definitional_directions(shared) is None  # unfolds as a whole already


@settings(max_examples=6, deadline=None)
@given(st.integers(-4, 4).filter(lambda k: k != 1))
def test_two_definitions_of_one_function_are_refuted_through_a_direction(k):
    """f x = a x² + … against f x = k·a x² + …: no definition is shared, so the premises' iff
    is decided as its directions; a model of one direction (f the closure of its side's
    definition) refutes the iff: exactly one side's premises hold there."""
    mutant = QUADRATIC.replace("f x = a", f"f x = ({k}) * a")
    v = sae(QUADRATIC, mutant)
    assert v.status == "inequivalent", v.reason
    ob = next(o for o in v.obligations if o.name.startswith("premises"))
    assert "direction" in ob.detail
    env = dict(ob.model)
    holds = [truth(app("and", *(h.formula for h in provers.parse(t, "lean4").hypotheses)), env)
             for t in (QUADRATIC, mutant)]
    assert True in holds and holds.count(True) == 1


# aime_1996_p5 over ℝ: f' = 3x² + 6x + 4 > 0, so f has one real root and the premises (three
# distinct roots a, b, c) are contradictory whatever f's constant term
CUBIC_ROOTS = """theorem aime_1996_p5 (a b c r s t : ℝ) (f g : ℝ → ℝ)
  (h₀ : ∀ x, f x = x^3 + 3 * x^2 + 4 * x - 11)
  (h₁ : ∀ x, g x = x^3 + r * x^2 + s * x + t)
  (h₂ : f a = 0) (h₃ : f b = 0) (h₄ : f c = 0)
  (h₅ : g (a + b) = 0) (h₆ : g (b + c) = 0) (h₇ : g (c + a) = 0)
  (h₈ : List.Pairwise (·≠·) [a, b, c]) :
  t = 23 := sorry"""


@settings(max_examples=4, deadline=None)
@given(st.integers(-30, 30).filter(lambda k: k != -11))
def test_two_definitions_with_empty_premise_sets_are_equivalent(k):
    """Each direction of the premises' iff unfolds its own f; both sets are empty over ℝ."""
    v = sae(CUBIC_ROOTS, CUBIC_ROOTS.replace("4 * x - 11", f"4 * x + ({k})"))
    assert v.status == "equivalent", v.reason


@settings(max_examples=4, deadline=None)
@given(st.lists(st.integers(-4, 4), min_size=3, max_size=3, unique=True))
def test_a_cubic_with_three_real_roots_is_refuted_by_the_vacuity_route(roots):
    """The mutant's premises have a model (its roots, g through their pairwise sums) while the
    original's are empty: ⋀Γ ↔ ⋀Γ' fails there under all 1440 alignments at once."""
    p, q, r = roots
    mutant = CUBIC_ROOTS.replace("x^3 + 3 * x^2 + 4 * x - 11", f"(x - ({p})) * (x - ({q})) * (x - ({r}))")
    v = sae(CUBIC_ROOTS, mutant)
    assert v.status == "inequivalent", v.reason
    assert v.route == "vacuity" and v.countermodel["A"] == {}
    model = v.countermodel["B"]
    assert sorted([model["a"], model["b"], model["c"]]) == sorted(roots)
    st_ = provers.parse(mutant, "lean4")
    assert truth(app("and", *(h.formula for h in st_.hypotheses)), model) is True


def test_a_function_used_unapplied_is_kept():
    f = Var("f", FunSort((REAL,), REAL))
    x, y = Var("x", REAL), Var("y", REAL)
    definition = Quant("forall", (x,), app("eq", app("apply", f, x), app("mul", x, x)))
    uses_f = app("eq", f, f)  # f itself, not applied: not a place beta reduction reaches
    formula = Quant("forall", (f, y), app("implies", definition, uses_f))
    assert unfold_function_definitions(formula) is None


@settings(max_examples=12, deadline=None)
@given(st.integers(-9, 9).filter(lambda k: k != 7))
def test_a_perturbed_numeral_beside_a_shared_definition_is_refuted(k):
    mutant = QUADRATIC.replace("7 * x + 4", f"({k}) * x + 4")
    v = sae(QUADRATIC, mutant)
    assert v.status == "inequivalent", v.reason
    assert v.countermodel is not None


def test_the_definition_unfolded_keeps_the_statement_equivalent_to_itself():
    renamed = QUADRATIC.replace("(f : ℝ → ℝ)", "(g : ℝ → ℝ)").replace("f (", "g (").replace("f x", "g x")
    assert sae(QUADRATIC, renamed).status == "equivalent"


# --- guarded definitions --------------------------------------------------------------------


@settings(max_examples=8, deadline=None)
@given(st.integers(-5, 9).filter(lambda c: c != 0))
def test_a_definition_with_another_guard_is_refuted_off_the_guard(c):
    mutant = GUARDED.replace("x ≠ 0 ->", f"x ≠ {c} ->")
    v = sae(GUARDED, mutant)
    assert v.status == "inequivalent", v.reason
    q = v.countermodel["A"]["q"]
    # q meets one premise and not the other: it differs from 6 / x at 0 or at c
    assert isinstance(q, Closure)


def test_the_same_guarded_definition_is_not_refuted():
    assert sae(GUARDED, GUARDED).status == "equivalent"


# --- rational identities --------------------------------------------------------------------


def test_partial_fractions_hold_at_their_coefficients_only():
    h = provers.parse(PARTIAL_FRACTIONS, "lean4").hypotheses[0].formula
    assert truth(h, {"a": Fraction(-6), "b": Fraction(10)}) is True
    assert truth(h, {"a": Fraction(-6), "b": Fraction(11)}) is False
    # the guard x ≠ 8 leaves x = 5, where Lean's 20 / 0 = 0 but a / 2 + b / 0 = -3
    other = PARTIAL_FRACTIONS.replace("x - 5 ≠ 0)", "x - 8 ≠ 0)")
    h8 = provers.parse(other, "lean4").hypotheses[0].formula
    assert truth(h8, {"a": Fraction(-6), "b": Fraction(10)}) is False


@settings(max_examples=40, deadline=None)
@given(st.integers(-6, 6), st.integers(-6, 6), st.integers(-4, 4), st.integers(-4, 4), st.booleans())
def test_partial_fractions_against_their_exceptional_points(a, b, c, d, guarded):
    """(a x + b) / ((x - c)(x - d)) = A / (x - c) + B / (x - d) with A, B the partial-fraction
    coefficients: true off c and d; at x = c (division by 0 is 0) only if B / (c − d) = 0,
    at x = d only if A / (d − c) = 0, unless the guard excludes them."""
    if c == d:
        return
    big_a, big_b = Fraction(a * c + b, c - d), Fraction(a * d + b, d - c)
    guard = f"(x - ({c}) ≠ 0 ∧ x - ({d}) ≠ 0) → " if guarded else ""
    text = (f"theorem t (p q : ℝ) (h : ∀ x : ℝ, {guard}({a} * x + ({b})) / ((x - ({c})) * (x - ({d}))) "
            f"= p / (x - ({c})) + q / (x - ({d}))) : p = q := sorry")
    h = provers.parse(text, "lean4").hypotheses[0].formula
    expected = True if guarded else (big_a == 0 and big_b == 0)
    assert truth(h, {"p": big_a, "q": big_b}) is expected
    assert truth(h, {"p": big_a + 1, "q": big_b}) is False
    found = rational_identity(h, lambda t: evaluate(t, {"p": big_a, "q": big_b}))
    assert found is not None and found.generic
    assert set(found.exceptional) == {Fraction(c), Fraction(d)}


def test_an_irrational_exceptional_point_is_left_undecided():
    text = "theorem t (p : ℝ) (h : ∀ x : ℝ, 1 / (x^2 - 2) = p / (x^2 - 2)) : p = 1 := sorry"
    h = provers.parse(text, "lean4").hypotheses[0].formula
    assert rational_identity(h, lambda t: Fraction(1)) is None
    assert truth(h, {"p": Fraction(2)}) is False  # a rational point where 1 ≠ 2 decides


@settings(max_examples=12, deadline=None)
@given(st.integers(-9, 9).filter(lambda k: k != 4))
def test_a_perturbed_partial_fraction_numerator_is_refuted(k):
    v = sae(PARTIAL_FRACTIONS, PARTIAL_FRACTIONS.replace("4 * x /", f"({k}) * x /"))
    assert v.status == "inequivalent", v.reason


# --- linear equations as domains ------------------------------------------------------------


def test_a_guard_of_two_different_linear_equations_is_vacuous():
    text = PARTIAL_FRACTIONS.replace("(x - 3 ≠ 0 ∧ x - 5 ≠ 0)", "(x - 3 = 0 ∧ x - 5 = 0)")
    h = provers.parse(text, "lean4").hypotheses[0].formula
    for a, b in ((0, 0), (-6, 10), (1, 2)):
        assert truth(h, {"a": Fraction(a), "b": Fraction(b)}) is True
    assert sae(PARTIAL_FRACTIONS, text).status == "inequivalent"


def test_a_linear_equation_with_no_integer_solution_bounds_an_integer_quantifier():
    text = "theorem t : ¬ ∃ n : ℤ, 2 * n + 1 = 0 := sorry"
    st_ = provers.parse(text, "lean4")
    assert truth(st_.conclusion, {}) is True


# --- sets defined through a defined function ------------------------------------------------

ABS_SET = """theorem mathd_algebra_185 (s : Finset ℤ) (f : ℤ → ℤ)
  (h₀ : ∀ x, f x = abs (x + 4))
  (h₁ : ∀ x, x ∈ s ↔ f x < 9) :
  s.card = 17 := sorry"""


def test_an_absolute_value_bound_is_a_finite_domain():
    text = "theorem t : ({x : ℤ | abs (x + 4) < 9} : Set ℤ).ncard = 17 := sorry"
    st_ = provers.parse(text, "lean4")
    assert truth(st_.conclusion, {}) is True
    assert truth(provers.parse(text.replace("= 17", "= 18"), "lean4").conclusion, {}) is False


@settings(max_examples=10, deadline=None)
@given(st.integers(-12, 12).filter(lambda k: k != 4))
def test_a_perturbed_shift_inside_the_defined_function_is_refuted(k):
    v = sae(ABS_SET, ABS_SET.replace("abs (x + 4)", f"abs (x + ({k}))"))
    assert v.status == "inequivalent", v.reason
    cm = v.countermodel["A"]
    assert cm["s"] == frozenset(range(-12, 5))  # the set the first statement defines


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 20).filter(lambda c: c != 9))
def test_a_perturbed_bound_of_the_set_is_refuted(c):
    assert sae(ABS_SET, ABS_SET.replace("f x < 9", f"f x < {c}")).status == "inequivalent"


# --- small integer points after the solvers -------------------------------------------------

NONLINEAR_NAT = """theorem aime_1991_p1 (x y : ℕ) (h₀ : 0 < x ∧ 0 < y)
  (h₁ : x * y + (x + y) = 71) (h₂ : x^2 * y + x * y^2 = 880) :
  x^2 + y^2 = 146 := sorry"""


def test_small_integer_points_come_smallest_first():
    from provers.ir import INT, NAT
    from provers.semantics import integer_points

    pts = integer_points([Var("x", NAT), Var("y", INT)])
    assert pts[:4] == [{"x": 0, "y": 0}, {"x": 0, "y": 1}, {"x": 1, "y": 0}, {"x": 0, "y": -1}]
    assert {"x": 5, "y": 11} in pts and {"x": 40, "y": -40} in pts
    assert all(p["x"] >= 0 for p in pts)
    assert integer_points([Var("r", REAL)])[:3] == [{"r": 0}, {"r": 1}, {"r": -1}]  # reals too,
    from provers.semantics.samplers import REAL_BOX

    assert len(integer_points([Var("r", REAL)])) == 2 * REAL_BOX + 1  # over a smaller box
    assert integer_points([Var("r", BOOL)]) == []


GEOMETRY_339 = ("theorem fixes h r :: real assumes h0 : \"h = 10\" and h1 : \"r = sqrt 3\" "
                "shows  \"h * pi * r powr 2 = 40 * pi\"")


def test_a_real_countermodel_with_pi_is_found_at_a_small_integer_point():
    # geometry/problem_339, candidates 3 and 6: C ↔ C' fails at h = 10, r = 2; the solvers'
    # models are irrational (π) or put r < 0, where Isabelle's r powr 2 is unspecified
    other = GEOMETRY_339.replace("h * pi * r powr 2 = 40 * pi",
                                 "pi * h * (r powr 2) + 1/3 * pi * (h powr 2) * r = 40 * pi")
    v = provers.check_equivalence(GEOMETRY_339, other, relation="symbolic", language="isabelle", timeout=1.0)
    assert v.status == "inequivalent", v.reason


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 30), st.integers(1, 5))
def test_an_integer_point_refuting_a_real_identity_with_pi_is_a_countermodel(k, d):
    # ∀h r. (h·π·r powr 2 = k·π) ↔ (h·r powr 2 = k + d): false at h = k, r = 1
    from provers.backends.smt import Portfolio
    from provers.deadline import Deadline
    from provers.engine.prover import Prover
    from provers.isabelle.parser import parse_isabelle

    body = parse_isabelle(f'theorem fixes h r :: real shows "(h * pi * r powr 2 = {k} * pi) = '
                          f'(h * r powr 2 = {k + d})"').conclusion
    hr = (Var("h", REAL), Var("r", REAL))
    ob = Prover(Portfolio(), 1.0, Deadline.after(30))("identity", Quant("forall", hr, body))
    assert ob.status == Status.REFUTED, ob.detail
    assert truth(body, ob.model) is False


@settings(max_examples=6, deadline=None)
@given(st.sampled_from([3, 5, 6]))
def test_a_raised_power_in_a_nonlinear_integer_system_is_refuted_at_its_model(e):
    v = sae(NONLINEAR_NAT, NONLINEAR_NAT.replace("x^2 * y +", f"x^{e} * y +"))
    assert v.status == "inequivalent", v.reason
    cm = v.countermodel["A"]
    assert {cm["x"], cm["y"]} == {5, 11}  # the one model of the first premise set


FLOOR_REMAINDER = """theorem amc12a_2016_p3 (f : ℝ → ℝ → ℝ)
  (h₀ : ∀ x, ∀ y, y ≠ 0 -> f x y = x - y * Int.floor (x / y)) :
  f (3 / 8) (-(2 / 5)) = -(1 / 40) := sorry"""


@settings(max_examples=8, deadline=None)
@given(st.sampled_from(["y = 0", "y ≠ 7", "y ≠ 1", "x ≠ 0"]))
def test_a_two_argument_definition_under_another_guard_is_refuted(guard):
    """∀x, ∀y nested: the closure off its guard meets its own premise (both binders unfolded)."""
    v = sae(FLOOR_REMAINDER, FLOOR_REMAINDER.replace("y ≠ 0 ->", f"{guard} ->"))
    assert v.status == "inequivalent", v.reason


# --- the conclusion's answer as a probe -----------------------------------------------------

FLOOR_SUM = """theorem aime_1991_p6 (r : ℝ)
  (h₀ : ∑ k in Finset.Icc (19 : ℕ) 91, (Int.floor (r + k / 100)) = 546) :
  Int.floor (100 * r) = 743 := sorry"""


def test_solution_points_read_the_answer_off_linear_equations():
    from provers.semantics.samplers import solution_points

    def points(conclusion: str, binders: str = "(r a b x y : ℝ) (n : ℕ)"):
        return solution_points(provers.parse(f"theorem t {binders} : {conclusion} := sorry", "lean4").conclusion)

    assert points("Int.floor (100 * r) = 743") == [{"r": Fraction(743, 100)}]
    assert points("a = -6 ∧ b = 10")[0] == {"a": -6, "b": 10}
    assert points("2 * n + 1 = 8") == []  # no natural solution
    assert points("x + y = 3") == []  # two variables: not read


@settings(max_examples=8, deadline=None)
@given(st.integers(400, 700).filter(lambda k: k != 546))
def test_a_perturbed_sum_is_refuted_at_the_answer_point(k):
    """r = 7.43 (from ⌊100 r⌋ = 743) meets the first premise; the sum there is 546, not k."""
    v = sae(FLOOR_SUM, FLOOR_SUM.replace("= 546)", f"= {k})"))
    assert v.status == "inequivalent", v.reason


# --- least elements of a set given by its predicate -----------------------------------------

TWO_LEAST = """theorem mathd_numbertheory_13 (u v : ℕ) (S : Set ℕ)
  (h₀ : ∀ (n : ℕ), n ∈ S ↔ 0 < n ∧ (14 * n) % 100 = 46)
  (h₁ : IsLeast S u) (h₂ : IsLeast (S \\ {u}) v) :
  ((u + v) : ℚ) / 2 = 64 := sorry"""


def test_least_points_pin_the_least_elements_of_an_infinite_set():
    from provers.engine.definitions import least_points, set_definitions

    st_ = provers.parse(TWO_LEAST, "lean4")
    vs = tuple(b.var for b in st_.binders if hasattr(b, "var"))
    body = app("and", *(h.formula for h in st_.hypotheses))
    (s, value), = set_definitions(vs, body)
    point = least_points(vs, body, {"S": value, "u": 0, "v": 0})
    assert point is not None and (point["u"], point["v"]) == (39, 89)
    assert truth(body, point) is True  # the set meets its own definition, u and v are its least


@settings(max_examples=8, deadline=None)
@given(st.sampled_from([97, 101, 103, 107, 108, 109, 113]))
def test_a_perturbed_modulus_of_the_set_is_refuted(m):
    v = sae(TWO_LEAST, TWO_LEAST.replace("% 100 = 46", f"% {m} = 46"))
    assert v.status == "inequivalent", v.reason


def test_the_clusterer_separates_a_vacuous_candidate_by_its_vacuity_tests():
    """The clusterer decides every candidate's vacuity once; a pair whose tests differ is
    inequivalent without any alignment being searched."""
    from rerank.cluster import Clusterer

    mutant = CUBIC_ROOTS.replace("x^3 + 3 * x^2 + 4 * x - 11", "x^3 - x")
    c = Clusterer("symbolic", "lean4", 1.0, cache={})
    c.extend([CUBIC_ROOTS, mutant])
    assert [x.vacuous for x in c.candidates] == [True, False]
    assert c.classes == [[0], [1]]
    (d,) = c.decisions
    assert d.status == "inequivalent" and "premises of A are contradictory" in d.reason


LIGHTS = """theorem
fixes red_light yellow_light blue_light :: "int \\<Rightarrow> bool"
assumes h0 : "\\<forall>t. t \\<ge> 0 \\<longrightarrow> red_light t = (t mod 2 = 0)"
and h1 : "\\<forall>t. t \\<ge> 0 \\<longrightarrow> yellow_light t = (t mod 3 = 0)"
and h2 : "\\<forall>t. t \\<ge> 0 \\<longrightarrow> blue_light t = (t mod 5 = 0)"
shows  "card {t. t \\<in> {0..420} \\<and> red_light t \\<and> yellow_light t \\<and> blue_light t} = 15\""""


@settings(max_examples=5, deadline=None)
@given(st.sampled_from([4, 7, 11, 13, 25]))
def test_predicates_defined_by_an_iff_are_given_their_definitions(k):
    """``p t = (t mod 5 = 0)`` over bool is ``∀t. p t ↔ …``: p is the closure of its definition
    at the probes (a random table never meets it), so the count is computed exactly: 15
    multiples of 30 in 0..420, and another count for another modulus."""
    from math import lcm

    mutant = LIGHTS.replace("t mod 5 = 0", f"t mod {k} = 0")
    v = provers.check_equivalence(LIGHTS, mutant, relation="symbolic", timeout=1.0, language="isabelle")
    assert v.status == "inequivalent", v.reason
    assert str(420 // lcm(2, 3, k) + 1) in v.reason or v.countermodel is not None


# --- piecewise definitions -------------------------------------------------------------------


def _piecewise(k: int, guard: str, other: str, second_premise: bool) -> str:
    body = (f"(h₀ : ∀ x, {guard} → f x = x + {k}) (h₁ : ∀ y, {other.replace('x', 'y')} → f y = x ^ 2)"
            if second_premise else f"(h₀ : ∀ x, ({guard} → f x = x + {k}) ∧ ({other} → f x = x ^ 2))")
    return f"theorem t (f : ℝ → ℝ) {body.replace('f y = x ^ 2', 'f y = y ^ 2')} : f 3 + f (-2) = 10 := sorry"


@settings(max_examples=12, deadline=None)
@given(st.integers(-5, 5), st.sampled_from([("x ≥ 0", "x < 0"), ("0 ≤ x", "¬ (0 ≤ x)"), ("x ≠ 0", "x = 0")]),
       st.booleans())
def test_complementary_guarded_equations_define_a_piecewise_function(k, guards, second_premise):
    """``(g → f x = e₁) ∧ (¬g → f x = e₂)`` (one premise or two) is ``f x = if g then e₁ else
    e₂``: the definitions close the answer and the pin is exact (algebra/problem_801: the
    correct candidates stated f this way and were never pinned). The property: the pinned
    value is the piecewise function's own, for every constant."""
    from provers.engine.answers import pin_answer
    from provers.engine.definitions import definitions
    from provers.engine.profile import Profile

    guard, other = guards
    st_ = provers.parse(_piecewise(k, guard, other, second_premise))
    nf = Profile.of(st_, "symbolic").normal_form
    defs = definitions(nf)
    assert defs.complete and len(defs.funs) == 1, defs.notes

    def f(x: int) -> int:
        holds = {"x ≥ 0": x >= 0, "0 ≤ x": x >= 0, "x ≠ 0": x != 0}[guard]
        return x + k if holds else x * x

    pin = pin_answer(nf, lambda *a, **kw: (_ for _ in ()).throw(AssertionError("no solver needed")))
    assert pin.status.value == "pinned" and pin.value == f(3) + f(-2)


def test_guards_that_are_not_complementary_define_nothing():
    from provers.engine.definitions import complementary, definitions
    from provers.engine.profile import Profile

    text = "theorem t (f : ℝ → ℝ) (h₀ : ∀ x, x > 0 → f x = x) (h₁ : ∀ x, x < 0 → f x = -x) : f 1 = 1 := sorry"
    nf = Profile.of(provers.parse(text), "symbolic").normal_form
    assert not definitions(nf).funs  # f 0 is left open
    x, y = Var("x", REAL), Var("y", REAL)
    assert not complementary(app("lt", x, y), app("le", x, y))
    assert complementary(app("lt", x, y), app("le", y, x))  # ¬(x < y) is y ≤ x
    assert complementary(app("eq", x, y), app("ne", y, x))
    assert complementary(app("gt", x, y), app("not", app("lt", y, x)))


# --- a function defined as a λ (Isabelle's ``f ≡ λx y. …``) ---------------------------------

ELLIPSE_RECTANGLE = """theorem
fixes x y :: real
assumes h0 : "x powr 2 - 2 * x * y + 3 * y powr 2 = 5"
and h1 : "rectangle \\<equiv> \\<lambda>x y. (abs (2 * x) * abs (2 * y))"
shows  "rectangle x y = 10 * sqrt 3\""""

ELLIPSE_PREDICATE = """theorem
fixes x y :: real and ellipse :: "real \\<Rightarrow> real \\<Rightarrow> bool"
assumes h0 : "x powr 2 - 2 * x * y + 3 * y powr 2 = 5"
and h1 : "ellipse x y"
shows  "rectangle_area = 10 * sqrt 3\""""


def test_a_function_equal_to_a_lambda_is_a_definition_that_unfolds():
    """``rectangle = λx y. e`` says ``∀x y. rectangle x y = e`` (extensionality): the vacuity
    test loses ``rectangle`` like a ∀-definition, and the closure meets the equation at any
    point, irrational ones included (x² − 2xy + 3y² = 5 has no rational point)."""
    from provers.engine.formulas import vacuous_obligation
    from provers.engine.normal import normalize
    from provers.semantics.algebraic import AlgebraicReal

    nf = normalize(provers.parse(ELLIPSE_RECTANGLE, "isabelle"))
    u = unfold_function_definitions(vacuous_obligation(nf))
    assert u is not None and {v.name for v in free_vars(u.formula)} == set()
    f, params, e = u.functions[0]
    assert f.name == "rectangle" and len(params) == 2
    root5 = AlgebraicReal((-5, 0, 1), Fraction(2), Fraction(3))
    env = {"x": root5, "y": 0, "rectangle": Closure(params, e, {})}
    assert truth(nf.premise(), env) is True
    assert truth(nf.premise(), {**env, "x": AlgebraicReal((-6, 0, 1), Fraction(2), Fraction(3))}) is False
    # the answer at that point: rectangle √5 0 = 0 ≠ 10√3
    assert truth(nf.conclusion, env) is False


def test_a_lambda_defined_answer_at_an_irrational_model_decides_the_value_route():
    """The premises have irrational models only: with the λ read as a definition, the answer
    ``rectangle x y`` takes the value 0 at x = √5, y = 0, and a free predicate's constant table
    is read at an irrational point too; inconclusive at ``d0ed9ac``."""
    v = provers.check_equivalence(ELLIPSE_RECTANGLE, ELLIPSE_PREDICATE, relation="symbolic",
                                  language="isabelle", timeout=1.0)
    assert v.status == "inequivalent", v.reason
    assert "L = 0 at a model of Γ" in v.reason and "re-checked by the exact evaluator" in v.reason


PRIME_FACTORS = r"""theorem
fixes n :: int and a b :: int and prime_factors :: "int set"
assumes h0 : "composite n"
and h1 : "n = a * b"
and h2 : "abs (a - b) = 10"
and h3 : "prime_factors = {p. prime p \<and> p dvd n}"
shows  "card prime_factors = %d"
"""


def test_a_set_named_by_a_hypothesis_is_substituted():
    """``S = {p | prime p ∧ p ∣ n}`` (``prealgebra/problem_1441``): S is replaced by its
    comprehension, so a solver needs no array for it; before, every model z3 gave of these
    premises read S at sample points only and was spurious."""
    st_ = provers.parse(PRIME_FACTORS % 2, "isabelle")
    vs = tuple(b.var for b in st_.binders if hasattr(b, "var"))
    vacuity = Quant("forall", vs, app("not", app("and", *(h.formula for h in st_.hypotheses))))
    u = unfold_function_definitions(vacuity)
    assert u is not None and [s.name for s, _, _ in u.functions] == ["prime_factors"]
    assert "prime_factors" not in {v.name for v in free_vars(u.formula)}
    ob = equivalence.vacuous(PRIME_FACTORS % 2, timeout=2.0, language="isabelle")
    assert ob.status == Status.REFUTED  # a model of the premises: not vacuous
    # the other premises hold there; the set meets its definition by construction
    assert truth(app("and", *(h.formula for h in st_.hypotheses[:3])), ob.model) is True


@pytest.mark.parametrize("k", [1, 3])
def test_a_wrong_count_of_a_defined_set_is_refuted(k):
    """n = 2 · 12 has two prime factors: claiming k ≠ 2 of them is refuted with a model where
    the set is its comprehension's value."""
    text = PRIME_FACTORS.replace('h2 : "abs (a - b) = 10"', 'h2 : "a = 2 \\<and> b = 12"') % k
    ob = equivalence.provable(text, timeout=2.0, language="isabelle")
    assert ob.status == Status.REFUTED
    assert ob.model["n"] == 24


ALTERNATING = r"""theorem
fixes a :: "int \<Rightarrow> int"
assumes h0 : "\<forall> n. a n = (-1)^(n + 1) * (3 * n + %d)"
shows  "sum a {1..100} = -150"
"""


def test_a_function_on_the_integers_defined_at_the_naturals_has_a_model():
    """``a :: int ⇒ int`` with ``(-1)^(n + 1)``: ``^`` takes a natural exponent, so Isabelle
    reads ``∀n :: nat. a (int n) = …`` (``intermediate_algebra/problem_1364``). λi. e[n :=
    to_nat i] meets that premise, and the evaluator sees it met; before, every model z3 gave
    (its power with a variable exponent is loose) was spurious and the premises undecided."""
    st_ = provers.parse(ALTERNATING % 2, "isabelle")
    premise = st_.hypotheses[0].formula
    (f, params, e), = function_equations(premise, guarded=True)
    assert f.name == "a" and [p.sort for p in params] == [INT]
    assert function_equations(premise) == []  # says nothing of a at negative integers: no unfolding
    closure = Closure(params, e, {})
    assert truth(premise, {"a": closure}) is True
    assert truth(premise, {"a": Closure(params, app("add", e, Num(1, INT)), {})}) is False
    ob = equivalence.vacuous(ALTERNATING % 2, timeout=2.0, language="isabelle")
    assert ob.status == Status.REFUTED


@pytest.mark.parametrize("c, total", [(2, -150), (5, -150), (1, -150)])
def test_a_sum_of_a_function_defined_at_the_naturals_is_pinned(c, total):
    """∑ i ∈ {1..100}. a i reads a at integers ≥ 0 only, where the premise defines it: the
    answer is pinned (−150 whatever the constant, the terms pair off as −3), and a perturbed
    stated answer is refuted."""
    ob = equivalence.provable(ALTERNATING % c, timeout=2.0, language="isabelle")
    assert ob.status == Status.PROVED
    wrong = (ALTERNATING % c).replace("= -150", f"= {total + 1}")
    assert equivalence.provable(wrong, timeout=2.0, language="isabelle").status == Status.REFUTED
