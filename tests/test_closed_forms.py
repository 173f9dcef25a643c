"""Closed forms of sums with symbolic bounds, exact card of bounded set-builders, and set
equality by characteristic predicates: real solvers, real evaluator, no stand-ins."""

from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import provers
from provers.ir import INT, NAT, REAL, BigOp, Num, Var, app, cast
from provers.semantics import evaluate, truth
from provers.semantics.closed_forms import closed_form, faulhaber
from provers.semantics.sets import separated


def lean(text: str):
    return provers.parse(text, language="lean4")


def check(a: str, b: str, relation: str = "symbolic", language: str = "lean4"):
    return provers.check_equivalence(a, b, relation=relation, timeout=2.0, language=language)


def assert_equivalent(a: str, b: str, relation: str = "symbolic", language: str = "lean4"):
    v = check(a, b, relation, language)
    assert v.status == "equivalent", v.explain()
    assert all(o.status == "proved" for o in v.obligations)


def assert_refuted(a: str, b: str, relation: str = "symbolic", language: str = "lean4"):
    """Inequivalent, and the countermodel really separates the two conclusions."""
    v = check(a, b, relation, language)
    assert v.status == "inequivalent", v.explain()
    sa, sb = provers.parse(a, language=language), provers.parse(b, language=language)
    if v.countermodel is not None and not sa.hypotheses and not sb.hypotheses:
        ta = truth(sa.conclusion, v.countermodel["A"])
        tb = truth(sb.conclusion, v.countermodel["B"])
        assert ta is not None and tb is not None and ta != tb, v.countermodel
    return v


# ---- Faulhaber coefficients -----------------------------------------------------------


@pytest.mark.parametrize("d", range(9))
def test_faulhaber_polynomials_sum_the_powers(d):
    coeffs = faulhaber(d)
    assert len(coeffs) == d + 2
    for m in range(25):
        assert sum(c * m**i for i, c in enumerate(coeffs)) == sum(Fraction(k) ** d for k in range(m))


# ---- the demo's odd sums and other known identities, proved for all n -------------------

ODD_RANGE = "theorem odd_sum (n : ℕ) (h₀ : 0 < n) : ∑ k in Finset.range n, (2 * k + 1) = n ^ 2 := by sorry"
ODD_ICC = "theorem odd_sum (n : ℕ) (h₀ : 0 < n) : ∑ k ∈ Finset.Icc 1 n, (2 * k - 1) = n ^ 2 := by sorry"


@pytest.mark.parametrize("relation", ["sae", "symbolic"])
def test_odd_sums_over_range_and_icc_are_equivalent(relation):
    assert_equivalent(ODD_RANGE, ODD_ICC, relation)


def test_truncating_odd_sum_over_range_is_not_the_odd_sum():
    # 2k - 1 over ℕ is 0 at k = 0: ∑ k < n, (2k - 1) = n² - 2n + 1 for n ≥ 1, not n²
    truncated = "theorem t (n : ℕ) (h₀ : 0 < n) : ∑ k in Finset.range n, (2 * k - 1) = n ^ 2 := by sorry"
    assert closed_form(lean(truncated).conclusion.args[0]) is None
    v = check(ODD_RANGE, truncated, "sae")
    assert v.status != "equivalent", v.explain()


def test_gauss_sum_with_truncating_division():
    gauss = "theorem g (n : ℕ) : ∑ k in Finset.range (n + 1), k = n * (n + 1) / 2 := by sorry"
    icc = "theorem g (n : ℕ) : ∑ k in Finset.Icc 1 n, k = n * (n + 1) / 2 := by sorry"
    assert_equivalent(gauss, icc, "sae")
    # ℕ subtraction and floor division agree with the closed form for every n (n = 0: 0 * 0 / 2)
    assert_equivalent("theorem g (n : ℕ) : ∑ k in Finset.range n, k = n * (n - 1) / 2 := by sorry",
                      "theorem g (n : ℕ) : 2 * ∑ k in Finset.range n, k = n * (n - 1) := by sorry")


def test_gauss_sum_perturbed_is_refuted_with_a_witness():
    assert_refuted("theorem g (n : ℕ) : ∑ k in Finset.Icc 1 n, k = n * (n + 1) / 2 := by sorry",
                   "theorem g (n : ℕ) : ∑ k in Finset.Icc 1 n, k = n * (n - 1) / 2 := by sorry")
    assert_refuted("theorem g (n : ℕ) : ∑ k in Finset.Icc 1 n, k = n * (n + 1) / 2 := by sorry",
                   "theorem g (n : ℕ) : ∑ k in Finset.Icc 2 n, k = n * (n + 1) / 2 := by sorry")


def test_sum_of_squares_over_reals():
    assert_equivalent(
        "theorem s (n : ℕ) : ∑ k in Finset.Icc 1 n, (k : ℝ) ^ 2 = n * (n + 1) * (2 * n + 1) / 6 := by sorry",
        "theorem s (n : ℕ) : ∑ k in Finset.range (n + 1), (k : ℝ) ^ 2 = n * (n + 1) * (2 * n + 1) / 6 := by sorry",
        "sae")
    assert_refuted(
        "theorem s (n : ℕ) : ∑ k in Finset.Icc 1 n, (k : ℝ) ^ 2 = n * (n + 1) * (2 * n + 1) / 6 := by sorry",
        "theorem s (n : ℕ) : ∑ k in Finset.Icc 1 n, (k : ℝ) ^ 2 = n * (n + 1) * (2 * n + 1) / 5 := by sorry")


def test_geometric_sums():
    assert_equivalent("theorem g (n : ℕ) : ∑ k in Finset.range n, 2 ^ k = 2 ^ n - 1 := by sorry",
                      "theorem g (n : ℕ) : ∑ k in Finset.range n, 2 ^ k + 1 = 2 ^ n := by sorry")
    assert_equivalent("theorem g (n : ℕ) : ∑ k in Finset.range n, (3 : ℤ) ^ (k + 1) = 3 * ∑ k in Finset.range n, (3 : ℤ) ^ k := by sorry",
                      "theorem g (n : ℕ) : 2 * ∑ k in Finset.range n, (3 : ℤ) ^ (k + 1) = 3 ^ (n + 1) - 3 := by sorry")
    assert_refuted("theorem g (n : ℕ) : ∑ k in Finset.range n, 2 ^ k = 2 ^ n - 1 := by sorry",
                   "theorem g (n : ℕ) : ∑ k in Finset.range n, 3 ^ k = 2 ^ n - 1 := by sorry")


def test_integer_interval_may_be_empty():
    # ∑ over Icc a b with b < a is 0, not the polynomial's value
    a, b, k = Var("a", INT), Var("b", INT), Var("k", INT)
    s = BigOp("sum", k, app("Icc", a, b), app("mul", k, k))
    cf = closed_form(s)
    assert cf is not None
    for x in range(-4, 5):
        for y in range(-6, 6):
            assert evaluate(cf, {"a": x, "b": y}) == sum(i * i for i in range(x, y + 1))


def test_huge_numeral_range_is_evaluated_exactly():
    t = lean("theorem h : ∑ k in Finset.range 1000000, k ^ 2 = 333332833333500000 := by sorry").conclusion
    assert evaluate(t, {}) is True


# ---- property tests: random polynomial bodies --------------------------------------------

_INDEX_DOMAINS = [("range", 0), ("Icc", 0), ("Icc", 1), ("Icc", 2), ("Ico", 1), ("Ioc", 0), ("Ioo", 1)]


def _body(k: Var, coeffs: list[int], sort, minus: int):
    """c0 + c1·k + c2·k^2 (+ geometric 2^k), minus a constant (truncating over ℕ)."""
    kk = k if sort == NAT else cast(k, sort)
    out = Num(abs(coeffs[0]) if sort == NAT else coeffs[0], sort)
    for i, c in enumerate(coeffs[1:], start=1):
        c = abs(c) if sort == NAT else c
        out = app("add", out, app("mul", Num(c, sort), app("pow", kk, Num(i, NAT))))
    if minus:
        out = app("sub", out, Num(minus, sort))
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(coeffs=st.lists(st.integers(-5, 5), min_size=1, max_size=4), sort=st.sampled_from([NAT, INT, REAL]),
       dom=st.sampled_from(_INDEX_DOMAINS), minus=st.integers(0, 3), geometric=st.booleans())
def test_closed_form_equals_exact_evaluation(coeffs, sort, dom, minus, geometric):
    k, n = Var("k", NAT), Var("n", NAT)
    body = _body(k, coeffs, sort, minus)
    if geometric:
        body = app("add", body, app("mul", Num(3, sort), app("pow", Num(2, sort), app("add", k, Num(1, NAT)))))
    op, lo = dom
    domain = app("range", n) if op == "range" else app(op, Num(lo, NAT), n)
    s = BigOp("sum", k, domain, body)
    cf = closed_form(s)
    if sort != NAT or not minus:
        assert cf is not None  # exactly polynomial (+ geometric): always given a closed form
    if cf is None:
        return  # a truncating ℕ subtraction the reader could not rule out
    for m in range(31):
        assert evaluate(cf, {"n": m}) == evaluate(s, {"n": m}), (m, str(cf))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(c=st.integers(-5, 5), d=st.integers(1, 5), base=st.fractions(min_value=-3, max_value=3, max_denominator=4),
       dom=st.sampled_from(_INDEX_DOMAINS))
def test_division_by_a_power_of_the_index_is_a_geometric_term(c, d, base, dom):
    # ∑ c / (d · bᵏ) over ℝ is ∑ (c/d) · (1/b)ᵏ (b ≠ 0; a quotient base (3/2)ᵏ too): a
    # geometric closed form, equal to the exact sum for every bound
    k, n = Var("k", NAT), Var("n", NAT)
    b = app("div", Num(base.numerator, REAL), Num(base.denominator, REAL))
    body = app("div", Num(c, REAL), app("mul", Num(d, REAL), app("pow", b, k)))
    op, lo = dom
    s = BigOp("sum", k, app("range", n) if op == "range" else app(op, Num(lo, NAT), n), body)
    cf = closed_form(s)
    assert (cf is None) == (base == 0)  # x / 0 = 0: not a geometric term
    for m in range(12):
        if cf is not None:
            assert evaluate(cf, {"n": m}) == evaluate(s, {"n": m}), (m, str(cf))


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=st.integers(1, 4), b=st.integers(0, 4), bump=st.sampled_from([-1, 1]), where=st.sampled_from(["a", "b"]))
def test_perturbed_coefficient_changes_the_verdict(a, b, bump, where):
    # ∑ k < n, (a k + b) = a n(n-1)/2 + b n, stated over ℤ without division
    lhs = f"2 * ∑ k in Finset.range n, ({a} * (k : ℤ) + {b})"
    rhs = f"{a} * (n : ℤ) * (n - 1) + 2 * {b} * n"
    good = f"theorem p (n : ℕ) : {lhs} = {rhs} := by sorry"
    a2, b2 = (a + bump, b) if where == "a" else (a, b + bump)
    if b2 < 0:
        b2 = b + 1
    other = f"theorem p (n : ℕ) : 2 * ∑ k in Finset.range n, ({a2} * (k : ℤ) + {b2}) = {rhs} := by sorry"
    assert_equivalent(good, f"theorem p (n : ℕ) : {rhs} = {lhs} := by sorry")
    assert_refuted(good, other)


# ---- card of bounded set-builders -----------------------------------------------------------


def test_card_of_bounded_set_builder_is_counted():
    builder = "theorem c : Set.ncard {n : ℕ | n < 100 ∧ 3 ∣ n} = 34 := by sorry"
    filtered = "theorem c : (Finset.filter (fun n => n % 3 = 0) (Finset.range 100)).card = 34 := by sorry"
    assert_equivalent(builder, filtered, "sae")
    assert_refuted(builder, "theorem c : Set.ncard {n : ℕ | n < 100 ∧ 3 ∣ n} = 33 := by sorry", "sae")


def test_card_of_set_builder_with_a_parameter_is_unrolled():
    assert_equivalent('theorem c: "card {x. x < (10::nat) \\<and> x mod m = 0} = k"',
                      'theorem c: "card {x. x < (10::nat) \\<and> m dvd x} = k"', "sae", "isabelle")


def test_card_over_the_cap_says_why():
    from provers.backends.smt.core import Unsupported
    from provers.backends.smt.lower import Lowerer
    from provers.backends.smt.sets import cardinality

    small = lean("theorem c : Set.ncard {n : ℕ | n < 1000 ∧ 3 ∣ n} = 1 := by sorry").conclusion.args[0]
    assert cardinality(Lowerer(), small.args[0]) == Num(334, INT)
    big = lean("theorem c : Set.ncard {n : ℕ | n < 10000000 ∧ 3 ∣ n} = 1 := by sorry").conclusion.args[0]
    with pytest.raises(Unsupported, match="enumerates at most"):
        cardinality(Lowerer(), big.args[0])


# ---- sets compared by their characteristic predicates ----------------------------------------


def test_set_builder_equalities_by_characteristic_predicate():
    assert_equivalent("theorem s : {x : ℝ | 2 * x + 1 > 5} = {x : ℝ | x > 2} := by sorry",
                      "theorem s : {x : ℝ | x + 1 > 3} = {x : ℝ | 2 < x} := by sorry", "sae")
    v = check("theorem s : {x : ℝ | 2 * x + 1 > 5} = {x : ℝ | x > 2} := by sorry",
              "theorem s : {x : ℝ | 2 * x + 1 > 7} = {x : ℝ | x > 2} := by sorry", "sae")
    assert v.status == "inequivalent", v.explain()


def test_separating_element_decides_set_inequality_only():
    x = Var("x", REAL)
    squares4 = evaluate(provers.ir.SetBuilder(x, app("eq", app("pow", x, Num(2, NAT)), Num(4, REAL))), {})
    squares9 = evaluate(provers.ir.SetBuilder(x, app("eq", app("pow", x, Num(2, NAT)), Num(9, REAL))), {})
    assert separated(squares4, squares9, REAL, [])
    assert separated(frozenset({2, -2}), squares9, REAL, [])
    assert not separated(frozenset({2, -2}), squares4, REAL, [])  # equal sets: never "separated"
    assert not separated(squares4, squares4, REAL, [Fraction(7, 3)])


def test_isabelle_interval_sums():
    odd_lt = 'theorem t: fixes n :: nat shows "(\\<Sum>k<n. 2*k + 1) = n^2"'
    assert_equivalent('theorem t: fixes n :: nat shows "(\\<Sum>k\\<in>{1..n}. 2*k - 1) = n^2"', odd_lt, "sae", "isabelle")
    assert_equivalent('theorem t: fixes n :: nat shows "(\\<Sum>k\\<in>{0..<n}. 2*k + 1) = n^2"', odd_lt, "sae", "isabelle")
    assert_equivalent('theorem t: fixes n :: nat shows "(\\<Sum>k=1..n. k) = n*(n+1) div 2"',
                      'theorem t: fixes n :: nat shows "2 * (\\<Sum>k=1..n. k) = n*(n+1)"', "symbolic", "isabelle")
    assert_refuted('theorem t: fixes n :: nat shows "(\\<Sum>k\\<in>{1..n}. 2*k - 1) = n^2"',
                   'theorem t: fixes n :: nat shows "(\\<Sum>k\\<in>{1..<n}. 2*k - 1) = n^2"', "symbolic", "isabelle")


def test_set_defined_by_membership_premise_is_pinned():
    # ∀ n, n ∈ S ↔ P n defines S = {n | P n}: card S is pinned by evaluation (33 both ways)
    defined = "theorem x (S : Finset ℕ) (h : ∀ n, n ∈ S ↔ 1 ≤ n ∧ n ≤ 100 ∧ 3 ∣ n) : S.card = 33 := by sorry"
    v = check(defined, "theorem x : (Finset.filter (fun n => 3 ∣ n) (Finset.Icc 1 100)).card = 33 := by sorry")
    assert v.status == "equivalent" and "answer value" in v.route, v.explain()
    v = check(defined, "theorem x (T : Finset ℕ) (h : ∀ n, n ∈ T ↔ 0 < n ∧ n < 101 ∧ n % 3 = 0) : T.card = 33 := by sorry")
    assert v.status == "equivalent", v.explain()
    # an unbounded predicate defines no finite value: not taken as a definition
    from provers.engine.definitions import definitions
    from provers.engine.normal import normalize

    nf = normalize(lean("theorem x (S : Finset ℕ) (h : ∀ n, n ∈ S ↔ 3 ∣ n) : S.card = 33 := by sorry"))
    assert not definitions(nf).terms


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(coeffs=st.lists(st.integers(-4, 4), min_size=1, max_size=3), sort=st.sampled_from([NAT, INT, REAL]),
       dom=st.sampled_from(_INDEX_DOMAINS), at=st.integers(0, 12), solver=st.sampled_from(["z3", "cvc5"]))
def test_solvers_agree_with_the_evaluator_on_closed_forms(coeffs, sort, dom, at, solver):
    """n = c → ∑ = (its exact value at c) is proved, and with the value + 1 refuted: the
    closed form as lowered (ediv, toNat, guards) means what the evaluator computes."""
    from provers.backends.base import Proved, Refuted
    from provers.backends.smt import solve
    from provers.ir import Quant

    k, n = Var("k", NAT), Var("n", NAT)
    op, lo = dom
    s = BigOp("sum", k, app("range", n) if op == "range" else app(op, Num(lo, NAT), n), _body(k, coeffs, sort, 0))
    assert closed_form(s) is not None
    value = evaluate(s, {"n": at})
    for claimed, want in ((value, Proved), (value + 1, Refuted)):
        ob = Quant("forall", (n,), app("implies", app("eq", n, Num(at, NAT)), app("eq", s, Num(claimed, sort))))
        r = solve(solver, ob, 5.0)
        assert isinstance(r, want), (str(ob), r)


# ---- closed big operators are their exact values ------------------------------------


def test_a_closed_sum_over_a_long_range_is_its_value_for_the_solvers():
    """In ℤ, 1 / k is 0 for k ≥ 2, so both sums are 1 and the premises agree: the solvers see
    the value 1 (not a 1300-term unrolling), the evaluator computes it once."""
    ref = """theorem imo_1979_p1 (p q : ℕ) (h₀ : 0 < q)
      (h₁ : ∑ k in Finset.Icc (1 : ℕ) 1319, ((-1:ℤ)^(k + 1) * ((1)/k)) = p/q) : 1979 ∣ p := sorry"""
    v = provers.check_equivalence(ref, ref.replace("1319", "1322"), relation="sae", timeout=2.0, language="lean4")
    assert v.status == "equivalent", v.explain()
    # and over ℚ the same change is a different number: refuted
    rat = ref.replace("(-1:ℤ)", "(-1:ℚ)")
    v = provers.check_equivalence(rat, rat.replace("1319", "1322"), relation="sae", timeout=2.0, language="lean4")
    assert v.status != "equivalent", v.explain()


def test_closed_sum_values_decide_a_statement():
    from provers.engine.equivalence import provable

    text = "theorem t : ∑ k in Finset.range 2000, (k : ℤ) * (-1) ^ k = {} := sorry"
    assert provable(text.format(-1000), 2.0, "lean4").status == "proved"
    assert provable(text.format(-999), 2.0, "lean4").status == "refuted"


# ---- rows of Pascal's triangle -----------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(shape=st.sampled_from(["Icc", "range", "Ico", "Icc_short", "Icc_1"]), nested=st.booleans(),
       cast_int=st.booleans())
def test_binomial_row_closed_form_against_the_definition(shape, nested, cast_int):
    """∑ k ∈ {0..n}. C(n, k) = 2 ^ n, and ∑ j < n. ∑ k ≤ j. C(j, k) = 2 ^ n - 1: the closed
    form (or its absence, for a domain that is not a whole row) checked against the sum
    computed here from math.comb, never against the evaluator's own closed form."""
    from math import comb

    k, j, n = Var("k", NAT), Var("j", NAT), Var("n", NAT)
    row_of = j if nested else n
    body = app("choose", row_of, k)
    if cast_int:
        body = cast(body, INT)
    one = Num(1, NAT)
    domain = {"Icc": app("Icc", Num(0, NAT), row_of), "range": app("range", app("add", row_of, one)),
              "Ico": app("Ico", Num(0, NAT), app("add", row_of, one)), "Icc_short": app("Ico", Num(0, NAT), row_of),
              "Icc_1": app("Icc", one, row_of)}[shape]
    inner = BigOp("sum", k, domain, body)
    s = BigOp("sum", j, app("range", n), inner) if nested else inner
    cf = closed_form(s)
    whole_row = shape in ("Icc", "range", "Ico")
    assert (cf is not None) == whole_row
    if cf is None:
        return
    lo = {"Icc": 0, "range": 0, "Ico": 0}[shape]
    for m in range(12):
        rows = range(m) if nested else [m]
        expected = sum(comb(r, i) for r in rows for i in range(lo, r + 1))
        assert evaluate(cf, {"n": m}) == expected, (m, str(cf))


def test_pascal_rows_make_the_statement_valid_for_every_n():
    """MATH counting_and_probability/problem_456: the n-th row's sum minus all earlier rows' is 1
    (evaluated from the closed forms at n = 2015: 21.8 s → 3.6 s for the problem's clustering)."""
    row = 'theorem fixes n :: nat shows "(\\<Sum>k\\<in>{0..n}. n choose k) = 2^n"'
    rows = 'theorem fixes n :: nat shows "(\\<Sum>j\\<in>{0..<n}. \\<Sum>k\\<in>{0..j}. j choose k) = 2^n - 1"'
    true = 'theorem fixes n :: nat shows "True"'
    for text in (row, rows):
        assert check(text, true, "logical", "isabelle").status == "equivalent"
    assert check(row.replace("2^n", "2^n + 1"), true, "logical", "isabelle").status == "inequivalent"


# --------------------------------------------------------------------------------------
# sums whose range depends on a quantified variable: closed forms inside sign cells
# --------------------------------------------------------------------------------------

_m, _i = Var("m", INT), Var("i", INT)


def _poly_sum(coeffs, lo):
    body = Num(0, INT)
    for k, c in enumerate(coeffs):
        term = Num(c, INT)
        for _ in range(k):
            term = app("mul", term, _i)
        body = app("add", body, term)
    return BigOp("sum", _i, app("Icc", Num(lo, INT), _m), body)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(coeffs=st.lists(st.integers(-3, 3), min_size=1, max_size=3), lo=st.integers(-6, 6),
       c=st.integers(-20, 40), op=st.sampled_from(["lt", "le", "ge", "gt", "eq", "ne"]),
       least=st.booleans())
def test_extremes_and_quantifiers_over_sums_with_a_symbolic_bound_agree_with_brute_force(coeffs, lo, c, op, least):
    """``LEAST / GREATEST m :: int. ∑ i = lo..m. p(i) ⋈ c`` and ``∀m. ∑ … ⋈ c → m < n`` by sign
    cells of the sum's closed form (``polynomials.with_sums_in_closed_form``), against the sums
    computed at every m of a window (the roots of p's sums stay well inside it): equal
    wherever decided, and decided whenever the extreme element exists."""
    from provers.ir import Lam, Uninterpreted, forall_, implies
    from provers.ir.sorts import BOOL
    from provers.semantics import decide

    pred = app(op, _poly_sum(coeffs, lo), Num(c, INT))
    window = range(-150, 151)
    holds = [z for z in window if truth(pred, {"m": z})]
    ext = Uninterpreted("LEAST" if least else "GREATEST", (Lam((_m,), pred),), INT)
    got = decide(app("eq", Var("n", INT), ext), {"n": 0})
    edge = window[0] if least else window[-1]
    if holds and edge not in holds:  # the extreme element exists (the ends stand for ±∞)
        want = min(holds) if least else max(holds)
        assert decide(app("eq", Var("n", INT), ext), {"n": want}).value is True
        assert got.value == (want == 0)
    else:
        assert got.value is None  # no extreme element: Isabelle leaves it unspecified
    bounded = forall_([_m], implies(pred, app("lt", _m, Var("n", INT))))
    for n in (-7, 0, 3, 12):
        d = decide(bounded, {"n": n})
        if d.value is not None:
            assert d.value == all(z < n for z in holds), (n, holds[-3:])
        if holds and window[-1] not in holds:
            assert d.value is not None  # bounded above: decided at every n
    assert BOOL  # the predicate's sort


def test_algebra_2104_the_least_n_with_sum_at_least_26():
    """``algebra/problem_2104``, "the smallest n with ∑ i = −25..n. i ≥ 26" (26): the premises
    with a ∀ over ℤ and the answer with LEAST are decided at every n. "Every m with a smaller
    sum is below n" (A) does not make n the least, "every m below n has a smaller sum" (B)
    does: at n = 27 A's premises hold and B's do not — inequivalent, by that countermodel
    (undecided before: "∀ over an unbounded domain")."""
    a = provers.parse('''theorem
fixes n :: int
assumes h0 : "(\\<Sum>i = -25..n. i) \\<ge> 26"
and h1 : "\\<forall>m. (\\<Sum>i = -25..m. i) < 26 \\<longrightarrow> m < n"
shows  "n = 26"''', language="isabelle")
    b = provers.parse('''theorem
fixes n :: int
assumes h0 : "(\\<Sum>i=-25..n. i) \\<ge> 26"
and h1 : "\\<forall>m < n. (\\<Sum>i=-25..m. i) < 26"
shows  "n = 26"''', language="isabelle")
    least = provers.parse('''theorem
fixes n :: int
assumes h0 : "(\\<Sum>k=-25..n. k) \\<ge> 26"
shows  "n = (LEAST n. (\\<Sum>k=-25..n. k) \\<ge> 26)"''', language="isabelle")
    for n, want in ((25, False), (26, True), (27, True)):
        assert truth(a.hypotheses[1].formula, {"n": n}) is want
    assert truth(least.conclusion, {"n": 26}) is True and truth(least.conclusion, {"n": 27}) is False
    assert truth(b.hypotheses[1].formula, {"n": 26}) is True and truth(b.hypotheses[1].formula, {"n": 27}) is False
    v = provers.check_equivalence(a, b, relation="symbolic", timeout=1.0)
    assert v.status == "inequivalent", v.explain()
    n = v.countermodel["A"]["n"]
    assert n > 26 and truth(a.hypotheses[1].formula, {"n": n}) is True
    assert truth(b.hypotheses[1].formula, {"n": n}) is False


def test_an_exact_integer_quotient_reads_as_a_polynomial_and_a_flooring_one_does_not():
    from provers.semantics.closed_forms import PolynomialReader

    k = Var("k", INT)
    reader = PolynomialReader(k, None)
    gauss = reader.read(app("ediv", app("mul", k, app("add", k, Num(1, INT))), Num(2, INT)))
    assert gauss == {(2, Fraction(1), ()): Fraction(1, 2), (1, Fraction(1), ()): Fraction(1, 2)}
    assert reader.read(app("ediv", k, Num(2, INT))) is None  # k div 2 floors at odd k
    assert reader.read(app("fdiv", app("add", app("mul", k, k), k), Num(2, INT))) is not None
    assert reader.read(app("ediv", app("mul", k, k), Num(0, INT))) is None


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(shape=st.sampled_from(["a*b", "a+b", "a*b+a", "2*a*b"]), la=st.integers(0, 3), lb=st.integers(0, 3),
       d=st.integers(0, 6), filt=st.sampled_from(["diff", "ne", "none"]))
def test_least_of_an_integer_image_is_searched_from_its_least_value(shape, la, lb, d, filt):
    """``LEAST n :: int. ∃a b. n = e(a, b) ∧ a > la ∧ b > lb ∧ …`` (no finite domain for n) is
    searched upward from the least value the bounds allow e (``domains.image_lower_bound``):
    the answer is the brute-force least image (every image below 61 is found by a, b ≤ 60)."""
    from provers.ir import Lam, Quant, Uninterpreted
    from provers.semantics import decide

    a, b, n = Var("a", INT), Var("b", INT), Var("n", INT)
    ops = {"a*b": app("mul", a, b), "a+b": app("add", a, b), "a*b+a": app("add", app("mul", a, b), a),
           "2*a*b": app("mul", Num(2, INT), app("mul", a, b))}
    fns = {"a*b": lambda x, y: x * y, "a+b": lambda x, y: x + y, "a*b+a": lambda x, y: x * y + x,
           "2*a*b": lambda x, y: 2 * x * y}
    extra = {"diff": (app("eq", app("abs", app("sub", a, b)), Num(d, INT)), lambda x, y: abs(x - y) == d),
             "ne": (app("ne", a, b), lambda x, y: x != y), "none": (None, lambda x, y: True)}[filt]
    parts = [app("eq", ops[shape], n), app("gt", a, Num(la, INT)), app("gt", b, Num(lb, INT))]
    if extra[0] is not None:
        parts.append(extra[0])
    pred = Quant("exists", (a, b), app("and", *parts))
    images = [fns[shape](x, y) for x in range(la + 1, 61) for y in range(lb + 1, 61) if extra[1](x, y)]
    want = min(images, default=None)
    least = Uninterpreted("LEAST", (Lam((n,), pred),), INT)
    if want is not None and want <= 60:
        assert decide(app("eq", Var("m", INT), least), {"m": want}).value is True
        assert decide(app("eq", Var("m", INT), least), {"m": want + 1}).value is False
