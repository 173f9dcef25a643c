"""Series of exponential polynomials (``provers.semantics.series``): exact sums against partial
sums, summability and convergence against the terms' behaviour, and the MATH statements they
decide."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.engine.equivalence import check_equivalence
from provers.semantics import decide
from provers.semantics.series import convergent, series_sum, summable

#: (coefficient, degree, base) monomials c · nᵈ · rᵏ
monomials = st.lists(
    st.tuples(st.integers(-5, 5).filter(bool), st.integers(0, 3),
              st.fractions(min_value=-2, max_value=2, max_denominator=7).filter(bool)),
    min_size=1, max_size=3, unique_by=lambda m: (m[1], m[2]))


def as_poly(ms):
    return {(d, Fraction(r), ()): Fraction(c) for c, d, r in ms}


def term(ms, n):
    return sum(c * n**d * float(r) ** n for c, d, r in ms)


@settings(max_examples=80, deadline=None)
@given(monomials)
def test_sums_of_summable_terms_are_the_limits_of_their_partial_sums(ms):
    p = as_poly(ms)
    if not summable(p):  # a base of modulus ≥ 1: the terms do not tend to 0
        assert max(abs(term(ms, n)) for n in range(300, 310)) > 1e-9
        assert series_sum(p) == 0  # suminf / tsum of a non-summable function
        return
    partial = sum(term(ms, n) for n in range(2000))
    assert abs(float(series_sum(p)) - partial) <= 1e-6 * max(1.0, abs(partial))


@settings(max_examples=80, deadline=None)
@given(monomials)
def test_a_sequence_converges_exactly_when_its_terms_settle(ms):
    p = as_poly(ms)
    far = [term(ms, n) for n in range(400, 404)]
    if convergent(p):
        assert max(far) - min(far) < 1e-6
    else:  # grows, or oscillates between ±c
        assert max(far) - min(far) > 1e-3 or max(abs(x) for x in far) > 1e3


def isabelle(text):
    return provers.parse(f'theorem t: shows "{text}"', "isabelle").conclusion


def test_series_written_in_isabelle_and_lean_are_computed():
    assert decide(isabelle("suminf (\\<lambda>n. n / 10^n) = 10 / 81")).value is True
    # Isabelle's series start at n = 0: the MATH answer 1/2 is the sum from n = 1
    assert decide(isabelle("(\\<Sum>n. 2 * n / 3 ^ n - 1 / 2 ^ n) = - 1 / 2")).value is True
    assert decide(isabelle("(\\<Sum>n. 2 * n / 3 ^ n - 1 / 2 ^ n) = 1 / 2")).value is False
    assert decide(isabelle("\\<not> summable (\\<lambda>n::nat. (3/2::real) ^ n)")).value is True
    assert decide(isabelle("sums (\\<lambda>n::nat. 1 / (2::real) ^ n) 2")).value is True
    assert decide(isabelle("\\<not> convergent (\\<lambda>n::nat. (-1::real) ^ n)")).value is True
    # b powr (real n) with b > 0 is bⁿ (exp (n · ln b)); also inside finite sums
    assert decide(isabelle("suminf (\\<lambda>n::nat. 2 * n / 3 powr n - 1 / 2 powr n) = - 1 / 2")).value is True
    finite = provers.parse('theorem t: fixes n :: nat shows "(\\<Sum>k<n. 1 / 2 powr k) = 2 - 2 / 2 ^ n"', "isabelle")
    assert all(decide(finite.conclusion, {"n": m}).value is True for m in range(8))
    lean = provers.parse("theorem t : ∑' n : ℕ, (n:ℝ) ^ 2 / 2 ^ n = 6 := by sorry", "lean4").conclusion
    assert decide(lean).value is True
    # not an exponential polynomial: undecided, never guessed
    assert decide(isabelle("suminf (\\<lambda>n::nat. 1 / (n + 1) ^ 2) = 1")).value is None


#: isabelle_math_400 problem_359 (∑ n / 10ⁿ = 10 / 81), candidates 3 and 0: the series named by a
#: function the premises define, or by one given pointwise
SERIES_SUMMABLE = '''theorem
fixes f :: "nat \\<Rightarrow> real"
assumes h0 : "\\<forall>n. f n = n / (10 ^ n)"
and h1 : "summable f"
shows  "suminf f = 10 / 81"'''
SERIES_POINTWISE = '''theorem
fixes sum :: "nat \\<Rightarrow> real"
assumes h0 : "\\<forall>n. sum n = n / 10^n"
shows  "(\\<Sum>n. sum n) = 10 / 81"'''


def test_two_statements_of_one_series_are_equivalent_and_another_ratio_is_not():
    v = check_equivalence(SERIES_SUMMABLE, SERIES_POINTWISE, relation="symbolic", timeout=1, language="isabelle")
    assert v.status == "equivalent", v.reason
    other = SERIES_POINTWISE.replace("10^n", "9^n")  # ∑ n / 9ⁿ = 9 / 64
    v = check_equivalence(SERIES_SUMMABLE, other, relation="symbolic", timeout=1, language="isabelle")
    assert v.status == "inequivalent", v.reason
