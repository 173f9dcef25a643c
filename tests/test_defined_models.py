"""Models of premises built from their own definitions, checked exactly: a real defined by a
closed term it has no rational value for (a ``Witness``), a function defined piece by piece
(the pieces nested in one closure), and the points around a guard's numerals. FormalAlign's
constant mutants of aime_1997_p11 and mathd_algebra_480, which the solvers time out on."""

from fractions import Fraction

import provers
from provers.engine.definitions import guarded_definitions
from provers.engine.normal import normalize
from provers.engine.points import _pieces
from provers.ir import NAT, REAL, BigOp, Num, Quant, Uninterpreted, Var, app
from provers.semantics import truth
from provers.semantics.certify import certified_sign
from provers.semantics.evaluate import evaluate
from provers.semantics.quantifiers import _guard_points
from provers.semantics.values import Closure, Witness

AIME_1997_P11 = """theorem aime_1997_p11
  (x : ℝ)
  (h₀ : x = (∑ n in Finset.Icc (1 : ℕ) 44, Real.cos (n * π / 180)) / (∑ n in Finset.Icc (1 : ℕ) 44, Real.sin (n * π / 180))) :
  Int.floor (100 * x) = 241 := sorry"""

MATHD_ALGEBRA_480 = """theorem mathd_algebra_480
  (f : ℝ → ℝ)
  (h₀ : ∀ x < 0, f x = -(x^2) - 1)
  (h₁ : ∀ x, 0 ≤ x ∧ x < 4 → f x = 2)
  (h₂ : ∀ x ≥ 4, f x = Real.sqrt x) :
  f π = 2 := sorry"""


def _check(a: str, b: str):
    return provers.check_equivalence(a, b, relation="sae", timeout=1.0, language="lean4")


def test_a_premise_defining_x_by_another_sum_is_refuted_at_x_as_its_term():
    """x = Σ₁⁴⁴ cos n° / Σ₁⁴⁴ sin n° has no rational value; x given as that very term meets
    the premise (one term, one value) and the mutant's Σ₁⁴⁷ is certified different by
    enclosing the sums term by term."""
    mutant = AIME_1997_P11.replace("Finset.Icc (1 : ℕ) 44, Real.cos", "Finset.Icc (1 : ℕ) 47, Real.cos")
    v = _check(AIME_1997_P11, mutant)
    assert v.status == "inequivalent", v.explain()
    assert _check(AIME_1997_P11, AIME_1997_P11).status == "equivalent"


def test_one_term_has_one_value_whatever_it_is():
    opaque = Uninterpreted("mystery", (Num(2, REAL),), REAL)
    assert truth(app("eq", opaque, opaque), {}) is True
    assert truth(app("ne", opaque, opaque), {}) is False
    assert truth(app("eq", opaque, Uninterpreted("mystery", (Num(3, REAL),), REAL)), {}) is None
    x = Var("x", REAL)
    closed = app("add", app("signed_sqrt", Num(2, REAL)), app("pi"))
    assert truth(app("eq", x, closed), {"x": Witness(closed)}) is True


def test_sums_of_cosines_are_enclosed_term_by_term():
    n = Var("n", NAT)

    def cosines(last: int) -> BigOp:
        angle = app("div", app("mul", provers.ir.cast(n, REAL), app("pi")), Num(180, REAL))
        return BigOp("sum", n, app("Icc", Num(1, NAT), Num(last, NAT)), app("cos", angle))

    exact = lambda t: evaluate(t, {})  # noqa: E731
    assert certified_sign(cosines(44), cosines(47), exact) == -1  # cos 45°, 46°, 47° > 0
    assert certified_sign(cosines(47), cosines(44), exact) == 1


def test_a_piecewise_function_is_one_closure_that_meets_every_piece():
    """Changing one piece's bound (0 ≤ x < 4 to < 5 or < 7) contradicts the piece x ≥ 4 →
    f x = √x on (4, 5): f as the nested pieces meets the reference's premises (each piece's
    ∀ decided branch by branch) and fails the mutant's at 9/2 or 6 (a guard point)."""
    for bound in ("5", "7"):
        mutant = MATHD_ALGEBRA_480.replace("x < 4 → f x = 2", f"x < {bound} → f x = 2")
        v = _check(MATHD_ALGEBRA_480, mutant)
        assert v.status == "inequivalent", (bound, v.explain())
    reordered = MATHD_ALGEBRA_480.replace("(h₀ : ∀ x < 0, f x = -(x^2) - 1)\n  (h₁ : ∀ x, 0 ≤ x ∧ x < 4 → f x = 2)",
                                          "(h₁ : ∀ x, 0 ≤ x ∧ x < 4 → f x = 2)\n  (h₀ : ∀ x < 0, f x = -(x^2) - 1)")
    assert reordered != MATHD_ALGEBRA_480
    assert _check(MATHD_ALGEBRA_480, reordered).status == "equivalent"


def test_guard_points_surround_the_numerals_a_variable_is_compared_with():
    x, k = Var("x", REAL), Var("k", NAT)
    guard = app("and", app("le", Num(0, REAL), x), app("lt", x, Num(7, REAL)))
    points = _guard_points(x, guard)
    assert {0, 7, 6, Fraction(7, 2), Fraction(13, 2)} <= set(points)
    assert all(p >= 0 for p in _guard_points(k, app("lt", k, Num(3, NAT))))
    assert all(isinstance(p, int) for p in _guard_points(k, app("lt", k, Num(3, NAT))))
    assert _guard_points(x, app("lt", Var("y", REAL), Num(1, REAL))) == []


def test_the_premises_of_the_reference_hold_at_the_piecewise_closure():
    nf = normalize(provers.parse(MATHD_ALGEBRA_480, "lean4"))
    (params, whole), = _pieces(guarded_definitions(tuple(nf.variables), app("and", *nf.premises))).values()
    env = {"f": Closure(params, whole, {})}
    assert all(truth(p, env) is True for p in nf.premises)


IMO_1987_P4 = """theorem imo_1987_p4
  (f : ℕ → ℕ) :
  ∃ n, f (f n) ≠ n + 1987 := sorry"""


def test_a_functional_equation_is_refuted_by_its_linear_solution():
    """f (f n) = n + 1990 has the solution f n = n + 995 (half the numeral), where the mutant
    ∃n. f (f n) ≠ n + 1990 is false (no n: an identity once f is unfolded) and the reference
    true; = for ≠ is refuted at the identity. An odd numeral (1995) has no such solution: the
    two statements are true for every f, and nothing is claimed."""
    v = _check(IMO_1987_P4, IMO_1987_P4.replace("1987", "1990"))
    assert v.status == "inequivalent", v.explain()
    assert _check(IMO_1987_P4, IMO_1987_P4.replace("≠", "=")).status == "inequivalent"
    assert _check(IMO_1987_P4, IMO_1987_P4.replace("1987", "1995")).status != "inequivalent"


def test_an_existential_of_a_disequation_is_decided_by_its_identity():
    n, f = Var("n", NAT), Var("f", provers.ir.FunSort((NAT,), NAT))
    x = Var("x", NAT)
    ff = app("apply", f, app("apply", f, n))
    claim = Quant("exists", (n,), app("ne", ff, app("add", n, Num(1990, NAT))))
    assert truth(claim, {"f": Closure((x,), app("add", x, Num(995, NAT)), {})}) is False
    assert truth(claim, {"f": Closure((x,), app("add", x, Num(994, NAT)), {})}) is True
