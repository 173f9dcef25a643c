"""Lean 4 elaboration semantics: sorts, casts and operation meanings as Lean + Mathlib decide them.

Each case is one the equivalence engine depends on: a wrong sort here (ℕ division taken for
real division, a missing cast, truncated subtraction lost) turns into a wrong verdict later.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from provers.errors import ParseError
from provers.ir import (
    COMPLEX,
    INT,
    NAT,
    RAT,
    REAL,
    App,
    BigOp,
    FunSort,
    Num,
    Quant,
    Uninterpreted,
    Var,
    VarBinder,
    app,
    cast,
    subterms,
)
from provers.lean4.parser import parse_lean

n, m = Var("n", NAT), Var("m", NAT)
a, b = Var("a", NAT), Var("b", NAT)
x, y = Var("x", REAL), Var("y", REAL)
k = Var("k", INT)


def N(v, s=NAT):
    return Num(v, s)


def concl(stmt: str):
    return parse_lean(stmt + " := by sorry").conclusion


def lhs(stmt: str):
    return concl(stmt).args[0]


# -- numerals and division ----------------------------------------------------------------


def test_bare_one_half_is_nat_division():
    c = concl("theorem t : 1 / 2 = 0")
    assert c == app("eq", app("div", N(1), N(2)), N(0))
    assert c.args[0].sort == NAT


def test_ascribed_one_half_is_a_real_half():
    t = lhs("theorem t : (1/2 : ℝ) = 0.5")
    assert t == app("div", N(1, REAL), N(2, REAL))
    assert concl("theorem t : (1/2 : ℝ) = 0.5").args[1] == Num(Fraction(1, 2), REAL)


def test_one_half_in_real_context_is_real():
    # binrel%: the leaf x : ℝ makes every numeral real
    assert lhs("theorem t (x : ℝ) : 1 / 2 * x = x / 2") == app("mul", app("div", N(1, REAL), N(2, REAL)), x)


def test_nat_division_when_all_leaves_are_nat():
    assert lhs("theorem t (n : ℕ) : n / 2 = 3") == app("div", n, N(2))


def test_int_division_and_modulo_are_euclidean():
    c = concl("theorem t : (-7 : ℤ) / 2 = -4")
    assert c.args[0] == app("ediv", app("neg", N(7, INT)), N(2, INT))
    assert lhs("theorem t (k : ℤ) : k % 3 = 1") == app("emod", k, N(3, INT))
    assert lhs("theorem t (n : ℕ) : n % 3 = 1") == app("mod", n, N(3))


def test_unary_minus_defaults_to_int():
    assert concl("theorem t : -1 < 0") == app("lt", app("neg", N(1, INT)), N(0, INT))


def test_nat_subtraction_is_truncated_sub_on_nat():
    t = lhs("theorem t (a b : ℕ) : a - b = 0")
    assert t == app("sub", a, b) and t.sort == NAT


def test_decimal_literals_are_exact():
    assert concl("theorem t (x : ℝ) : x = 0.125").args[1] == Num(Fraction(1, 8), REAL)
    with pytest.raises(ParseError, match="decimal"):
        parse_lean("theorem t (n : ℕ) : n = (0.5 : ℕ) := sorry")


# -- casts ------------------------------------------------------------------------------


def test_ascription_casts_the_variable():
    assert lhs("theorem t (n : ℕ) : (n : ℝ) + 1 = 2") == app("add", cast(n, REAL), N(1, REAL))


def test_binop_uses_the_expected_type_like_lean():
    # (n + 1 : ℝ) is ↑n + 1 (binop% pushes the expected type to the leaves) ...
    assert lhs("theorem t (n : ℕ) : (n + 1 : ℝ) = 2") == app("add", cast(n, REAL), N(1, REAL))
    # ... while ((n + 1 : ℕ) : ℝ) casts the sum
    assert lhs("theorem t (n : ℕ) : ((n + 1 : ℕ) : ℝ) = 2") == cast(app("add", n, N(1)), REAL)


def test_mixed_leaves_unify_to_the_widest_sort():
    t = lhs("theorem t (n : ℕ) (k : ℤ) (x : ℝ) : n + k * x = 0")
    assert t == app("add", cast(n, REAL), app("mul", cast(k, REAL), x))


def test_relation_sides_unify():
    c = concl("theorem t (n : ℕ) (x : ℝ) : n < x")
    assert c == app("lt", cast(n, REAL), x)


def test_up_arrow_takes_the_sort_from_context():
    c = concl("theorem t (n : ℕ) (x : ℝ) : ↑n = x")
    assert c == app("eq", cast(n, REAL), x)
    c2 = concl("theorem t (n : ℕ) (x : ℝ) : x + ↑n = 0")
    assert c2.args[0] == app("add", x, cast(n, REAL))


def test_function_arguments_are_coerced_to_the_domain():
    c = concl("theorem t (f : ℝ → ℝ) (n : ℕ) : f n = f 2")
    assert c == app("eq", app("apply", Var("f", FunSort((REAL,), REAL)), cast(n, REAL)),
                    app("apply", Var("f", FunSort((REAL,), REAL)), N(2, REAL)))


def test_narrowing_is_rejected():
    with pytest.raises(ParseError, match="type mismatch"):
        parse_lean("theorem t (f : ℕ → ℝ) (x : ℝ) : f x = 0 := sorry")


def test_ill_typed_membership_is_a_parse_error_with_reason():
    with pytest.raises(ParseError) as ei:
        parse_lean("theorem t (x : ℝ) (h : x ∈ 3) : x = 1 := sorry")
    assert "Set Real" in ei.value.reason and ei.value.line == 1


# -- powers -------------------------------------------------------------------------------


def test_exponent_is_elaborated_alone_and_defaults_to_nat():
    # Lean's famous gotcha: in x ^ (1/2) the exponent is ℕ division, i.e. 0
    t = lhs("theorem t (x : ℝ) : x ^ (1/2) = 1")
    assert t == app("pow", x, app("div", N(1), N(2)))
    assert lhs("theorem t (x : ℝ) : x ^ (1/2 : ℝ) = 1") == app("rpow", x, app("div", N(1, REAL), N(2, REAL)))


def test_int_exponent_in_a_field_is_zpow_and_real_exponent_is_rpow():
    assert lhs("theorem t (x : ℝ) (k : ℤ) : x ^ k = 1") == app("zpow", x, k)
    assert lhs("theorem t (x y : ℝ) : x ^ y = 1") == app("rpow", x, y)
    assert lhs("theorem t (n : ℕ) : (2 : ℝ) ^ n = 1") == app("pow", N(2, REAL), n)


def test_power_base_participates_in_the_tree():
    # 2 ^ n * x: the base 2 becomes real, the exponent stays ℕ
    assert lhs("theorem t (n : ℕ) (x : ℝ) : 2 ^ n * x = 1") == app("mul", app("pow", N(2, REAL), n), x)


def test_power_is_right_associative_and_binds_tighter_than_neg():
    assert lhs("theorem t (x : ℝ) : -x ^ 2 = 1") == app("neg", app("pow", x, N(2)))
    assert lhs("theorem t (n : ℕ) : 2 ^ 3 ^ n = 1") == app("pow", N(2), app("pow", N(3), n))


# -- functions with fixed sorts -------------------------------------------------------------


def test_inverse_abs_sqrt_get_the_right_sorts():
    assert lhs("theorem t (x : ℝ) : x⁻¹ = 2") == app("inv", x)
    assert lhs("theorem t (k : ℤ) : |k| = 2") == app("abs", k) and lhs("theorem t (k : ℤ) : |k| = 2").sort == INT
    assert lhs("theorem t (n : ℕ) : √n = 2") == app("sqrt", cast(n, REAL))
    assert lhs("theorem t (x : ℝ) : Real.sqrt x = 2") == app("sqrt", x)
    assert lhs("theorem t (q : ℚ) : q⁻¹ = 2").sort == RAT


def test_real_functions_and_constants():
    c = concl("theorem t (x : ℝ) : Real.log (Real.exp x) + Real.sin π + Real.cos Real.pi = x")
    ops = {s.op for s in subterms(c) if isinstance(s, App)}
    assert {"log", "exp", "sin", "cos", "pi"} <= ops
    assert lhs("theorem t (x : ℝ) : Real.logb 2 x = 1") == app("logb", N(2, REAL), x)


def test_number_theory_functions():
    assert lhs("theorem t (n : ℕ) : n ! = 1") == app("fact", n)
    assert lhs("theorem t (n : ℕ) : Nat.factorial n = 1") == app("fact", n)
    assert lhs("theorem t : 5! = 120") == app("fact", N(5))
    assert lhs("theorem t (n : ℕ) : (n + 1)! = 1") == app("fact", app("add", n, N(1)))
    assert lhs("theorem t (n : ℕ) : Nat.choose n 2 = 1") == app("choose", n, N(2))
    assert lhs("theorem t (a b : ℕ) : Nat.gcd a b = 1") == app("gcd", a, b)
    assert lhs("theorem t (a b : ℕ) : Nat.lcm a b = 1") == app("lcm", a, b)
    assert concl("theorem t (p : ℕ) : Nat.Prime p") == app("prime", Var("p", NAT))
    assert concl("theorem t (n : ℕ) : Even n ∨ Odd n") == app("or", app("even", n), app("odd", n))
    assert concl("theorem t (a b : ℕ) : a ∣ b") == app("dvd", a, b)
    assert lhs("theorem t (k : ℤ) : Int.natAbs k = 1") == app("nat_abs", k)
    assert lhs("theorem t (k : ℤ) : Int.toNat k = 1") == app("to_nat", k)
    assert lhs("theorem t (n : ℕ) : (Nat.digits 10 n).sum = 1") == app("list_sum", app("digits", N(10), n))


def test_floor_ceil_variants():
    assert lhs("theorem t (x : ℝ) : ⌊x⌋ = 1") == app("floor", x)
    assert lhs("theorem t (x : ℝ) : ⌈x⌉ = 1") == app("ceil", x)
    assert lhs("theorem t (x : ℝ) : ⌊x⌋₊ = 1") == app("nat_floor", x)
    assert lhs("theorem t (x : ℝ) : Int.floor x = 1").sort == INT


def test_complex_numbers():
    z = Var("z", COMPLEX)
    c = concl("theorem t (z : ℂ) : z = 1 + Complex.I")
    assert c == app("eq", z, app("add", N(1, COMPLEX), app("I")))
    assert lhs("theorem t (z : ℂ) : Complex.abs z = 1") == app("cabs", z)


# -- binders: inference like Lean's unifier ------------------------------------------------------


def test_untyped_binder_sort_comes_from_use():
    st = parse_lean("theorem t (f : ℝ → ℝ) (h : ∀ x, f x = 2 * x) : f 1 = 2 := sorry")
    q = st.hypotheses[0].formula
    assert isinstance(q, Quant) and q.vars[0].sort == REAL
    q2 = concl("theorem t : ∀ n, n + 1 > n")
    assert q2.vars[0].sort == NAT


def test_untyped_binder_uses_later_occurrences_before_defaulting():
    # Lean defaults numerals only at the end: x is real because of f x
    q = concl("theorem t (f : ℝ → ℝ) : ∀ x, x + 1 > 0 ∧ f x = 0")
    assert q.vars[0].sort == REAL


def test_set_membership_binder():
    q = concl("theorem t (S : Finset ℤ) : ∀ x ∈ S, x ^ 2 ≥ 0")
    assert q.vars[0].sort == INT


def test_auto_bound_implicit_like_lean():
    # `∑ k in s, a + k * d`: the body stops before `+` (precedence 67), so the second k is
    # unbound and Lean's autoImplicit makes it an implicit variable of the theorem
    st = parse_lean("theorem t (a d : ℝ) (h₀ : (∑ k in Finset.range 5, a + k * d) = 70) : a = 42 / 5 := sorry")
    first = st.binders[0]
    assert isinstance(first, VarBinder) and first.var.name == "k" and first.style == "implicit"
    assert not st.has_uninterpreted()


def test_sum_over_int_interval_with_typed_binder():
    # miniF2F amc12a_2019_p21: z ^ k ^ 2 with k : ℤ is zpow
    s = lhs("theorem t (z : ℂ) : (∑ k : ℤ in Finset.Icc 1 12, z ^ k ^ 2) = 36")
    assert isinstance(s, BigOp) and s.var.sort == INT
    assert s.body == app("zpow", Var("z", COMPLEX), app("pow", Var("k", INT), N(2)))
    assert s.domain == app("Icc", N(1, INT), N(12, INT))


def test_cast_inside_sum_body():
    # miniF2F aime_1991_p6: Int.floor (r + k / 100) with k : ℕ from the domain
    s = lhs("theorem t (r : ℝ) : (∑ k in Finset.Icc (19 : ℕ) 91, Int.floor (r + k / 100)) = 546")
    assert s.body == app("floor", app("add", Var("r", REAL), app("div", cast(Var("k", NAT), REAL), N(100, REAL))))
    assert s.sort == INT


def test_is_least_is_unfolded():
    c = concl("theorem t : IsLeast {x : ℕ | 0 < x ∧ 7 ∣ x} 7")
    assert isinstance(c, App) and c.op == "and" and c.args[0].op == "mem"
    assert isinstance(c.args[1], Quant)


def test_unknown_function_gets_its_sort_from_context():
    st = parse_lean("theorem t (x : ℝ) (h : foo x = 2 * x) : True := sorry")
    u = st.hypotheses[0].formula.args[0]
    assert isinstance(u, Uninterpreted) and u.symbol == "foo" and u.sort == REAL


def test_instance_binders_and_opaque_carriers_never_crash():
    st = parse_lean("theorem t {G : Type*} [Group G] [Fintype G] (hG : Fintype.card G = 6) (a : G) : a ^ 6 = 1 := sorry")
    assert st.hypotheses[2].formula.args[0].sort == NAT
    pw = st.conclusion.args[0]
    assert isinstance(pw, Uninterpreted) and pw.sort.name == "G"


def test_leniencies_are_noted_and_limited():
    st = parse_lean("theorem t (x : ℝ) (h : 2 ^ x = 8) : x = 3 := sorry")
    assert st.hypotheses[0].formula.args[0] == app("rpow", N(2, REAL), x)
    assert any("real exponent" in note for note in st.notes)
    with pytest.raises(ParseError, match="no power"):
        parse_lean("theorem t (n : ℕ) (x : ℝ) (h : n ^ x = 8) : x = 3 := sorry")
    st2 = parse_lean("theorem t (z : ℂ) (h : abs z = 1) : True := sorry")
    assert st2.hypotheses[0].formula.args[0] == app("cabs", Var("z", COMPLEX))
    assert any("Complex.abs" in note for note in st2.notes)
    assert parse_lean("theorem t (x : ℝ) : x = 0.5 := sorry").notes == ()


def test_projection_applied_to_arguments_keeps_them():
    """``σ.2 2`` (an ``Equiv``'s inverse applied to 2) once lost its argument, so
    ``σ.2 2 = 10`` and ``σ.2 10 = 1`` read the same symbol and looked contradictory."""
    from provers import check_equivalence, parse
    from provers.ir import Uninterpreted

    st = parse("theorem t (σ : Equiv ℝ ℝ) (h₀ : σ.2 2 = 10) (h₁ : σ.2 10 = 1) : σ.1 (σ.1 10) = 1 := by sorry")
    h0, h1 = (h.formula.args[0] for h in st.hypotheses)
    assert isinstance(h0, Uninterpreted) and h0.symbol == "Prod.snd" and len(h0.args) == 2
    assert h0 != h1
    concl = st.conclusion.args[0]
    assert isinstance(concl.args[1], Uninterpreted) and concl.args[1].symbol == "Prod.fst"
    other = "theorem t (σ : Equiv ℝ ℝ) (h₀ : σ.2 2 = 10) (h₁ : σ.2 10 = 1) : σ.1 10 = 1 := by sorry"
    assert check_equivalence(st, other, relation="symbolic", timeout=2).status != "equivalent"


def test_an_equivs_functions_take_arguments_of_their_domain():
    """``σ : Equiv ℝ ℝ``: ``∀ x, σ.1 x = x - 8`` binds x over ℝ (it was read over ℕ, its
    sort inferred from the numerals alone), ``σ.2 0`` and ``σ.symm 0`` read 0 as a real. Over
    ℕ, ``x - 8`` and ``max (x - 8) 0`` are one function, and the two statements were called
    equivalent; over ℝ they differ below 8."""
    from provers import check_equivalence, parse
    from provers.ir import REAL, Quant

    for equiv in ("Equiv ℝ ℝ", "ℝ ≃ ℝ"):
        a = f"theorem t (σ : {equiv}) (h : ∀ x, σ.1 x = x - 8) : σ.2 0 = 8 := sorry"
        b = a.replace("x - 8", "max (x - 8) 0")
        st = parse(a)
        (h,) = st.hypotheses
        assert isinstance(h.formula, Quant) and h.formula.vars[0].sort == REAL
        assert st.conclusion.args[0].sort == REAL and st.conclusion.args[0].args[1].sort == REAL
        assert parse(a.replace("σ.2 0", "σ.symm 0")).conclusion == st.conclusion
        for relation in ("sae", "symbolic"):
            assert check_equivalence(a, b, relation=relation, timeout=1.0, language="lean4").status != "equivalent"


@pytest.mark.parametrize("spelling", ["ℝ ≃ ℝ", "Equiv Real ℝ", "(Equiv (ℝ) Real)"])
def test_one_type_however_written_is_one_sort(spelling):
    """``Equiv ℝ ℝ`` and ``ℝ ≃ ℝ`` are one type: their opaque sorts were named by the source
    text, so the same statement written both ways was "inequivalent" (variable sorts differ)
    under ``sae``. ``σ x`` is ``σ.toFun x``."""
    from provers import check_equivalence

    a = "theorem t (σ : Equiv ℝ ℝ) (h : ∀ x, σ.1 x = x ^ 3 - 8) : σ.2 19 = 3 := by sorry"
    b = f"theorem t (σ : {spelling}) (h : ∀ x, σ x = x ^ 3 - 8) : σ.symm 19 = 3 := by sorry"
    assert parse_lean(a).binders[0].var.sort == parse_lean(b).binders[0].var.sort
    for relation in ("sae", "symbolic"):
        assert check_equivalence(a, b, relation=relation, timeout=1.0, language="lean4").status == "equivalent"
    # notations of other structures name their constructor; a field in brackets is kept
    assert str(parse_lean("theorem t (f : ℝ →+* ℝ) : f 1 = 1 := sorry").binders[0].var.sort) == "RingHom ℝ ℝ"
    k = parse_lean("theorem t {K V : Type*} [Field K] [AddCommGroup V] [Module K V] (T : V →ₗ[K] V) : T = T := sorry")
    assert "[K]" in str(k.binders[-1].var.sort)
    pnat = [parse_lean(f"theorem t (n : {t}) : n = n := sorry").binders[0].var.sort for t in ("ℕ+", "PNat")]
    assert pnat[0] == pnat[1]


@pytest.mark.parametrize("field", ["3", "4", "5", "left_inv"])
def test_an_equivs_proof_fields_and_missing_fields_are_ill_typed(field):
    """FormalAlign's mutants write ``σ.4 x = …`` / ``σ.9 (σ.1 (σ.2 19))``: Lean rejects them
    (an Equiv has four fields, the last two proofs), so they are no statements to compare."""
    with pytest.raises(ParseError, match="fields of Equiv"):
        parse_lean(f"theorem t (σ : Equiv ℝ ℝ) (h : ∀ x, σ.{field} x = x ^ 3 - 8) : σ.2 19 = 3 := sorry")


# ---- auto-bound type variables have no instances (FormalAlign's variable_type mutants) ----


@pytest.mark.parametrize(
    "text",
    [
        "theorem t (S : Finset ℕ) (h₀ : ∀ (n : β), n ∣ (Nat.sqrt 196)) : ∑ k in S, k = 24 := sorry",
        "theorem t (S : Finset ℕ) (h₀ : ∀ (n : 𝕊), n ∈ S ↔ 2 ≤ n) : ∑ k in S, k = 111 := sorry",
        "theorem t (p q : ℕ) (h : ∑ k in Finset.Icc (1 : 𝔹) 9, k = p) : 3 ∣ p := sorry",
        "theorem t (x : ℒ) (h : x + x = x) : x = 0 := sorry",
        "theorem t (x : γ) : x ^ 2 = x := sorry",
    ],
)
def test_arithmetic_on_an_undeclared_type_variable_is_ill_typed(text):
    with pytest.raises(ParseError, match="auto-bound"):
        parse_lean(text)


def test_an_undeclared_type_variable_still_supports_equality_and_sets():
    s = parse_lean("theorem t (S : Set 𝕊) (f : α → α) (x : α) (y : 𝕊) (h : f x = x) (hy : y ∈ S) : f (f x) = x := sorry")
    assert len(s.hypotheses) == 2
    # a declared type with its instances is not a bare type variable
    parse_lean("theorem t {R : Type*} [CommRing R] (x : R) : x + 0 = x := sorry")


def test_an_auto_bound_type_with_an_instance_binder_has_numerals():
    s = parse_lean("theorem t (a : k) [Field k] (h : a ≠ 0) : a * a⁻¹ = 1 := sorry")
    assert s.hypotheses


def test_the_norm_is_abs_on_numbers_and_the_modulus_on_complex_numbers():
    import provers

    s = parse_lean("theorem t (z : ℂ) (x : ℝ) (n : ℤ) (h : ‖z‖ = 1) (h' : ‖x - 1‖ < 2) (h'' : ‖n‖ = 3) : True := sorry")
    ops = [h.formula.args[0] for h in s.hypotheses]
    assert [o.op for o in ops] == ["cabs", "abs", "abs"]
    assert ops[2].args[0].sort == REAL  # ‖n‖ = |(n : ℝ)|
    a = "theorem t (z : ℂ) (h : abs z = 1) : (abs (1 + z)) ^ 2 + (abs (1 - z)) ^ 2 = 4 := sorry"
    b = "theorem t (z : ℂ) (hz : ‖z‖ = 1) : ‖(1 + z)‖ ^ 2 + ‖(1 - z)‖ ^ 2 = 4 := sorry"
    assert provers.check_equivalence(a, b, relation="sae", timeout=1.0, language="lean4").status == "equivalent"


def test_spellings_of_set_types_and_instance_arguments_are_one_reading():
    """Found by ``experiments/respell.py`` on ProofNet: ``↥(closure {x | x = a ∨ x = b})`` was
    named by its text (``∨`` and ``\\/`` two sorts), ``[NormedSpace ℝ (Fin m → ℝ)]`` and its
    ``Real`` spelling two instances, ``(x : ↑(I ⊓ J))`` a hypothesis named x."""
    from provers import check_equivalence
    from provers.ir import Hypothesis, VarBinder

    g = ("theorem t {G : Type*} [Group G] (a b : G) (x y : ↥(Subgroup.closure {x | x = a ∨ x = b})) "
         ": x * y = y * x := sorry")
    assert check_equivalence(g, g.replace("∨", "\\/"), relation="sae", timeout=1.0, language="lean4").status == "equivalent"
    n = "theorem t (m : ℕ) {X : Type*} [NormedSpace ℝ ((Fin m) → ℝ)] : IsCompact (Metric.closedBall (0 : X) 1) := sorry"
    assert check_equivalence(n, n.replace("ℝ", "Real"), relation="sae", timeout=1.0, language="lean4").status == "equivalent"
    ideal = parse_lean("theorem t {R : Type*} [CommRing R] (I J : Ideal R) (x : ↑(I ⊓ J)) : x = x := sorry")
    assert [b.var.name for b in ideal.binders if isinstance(b, VarBinder)][-1] == "x"
    assert not [b for b in ideal.binders if isinstance(b, Hypothesis) and b.name == "x"]
    with pytest.raises(ParseError, match="not a function"):
        parse_lean("theorem t (a : ℕ (q : ℕ) → ℝ) : a 1 = 1 := sorry")


def test_a_type_only_its_text_describes_is_named_in_one_spelling():
    """``{p : ℤ // Squarefree p}`` and ``{p : Int // Squarefree p}`` are one subtype (ProofNet
    ``exercise_2_27a`` respelled was inconclusive against itself)."""
    from provers import check_equivalence

    a = "theorem t : ¬ Summable (λ i : {p : ℤ // Squarefree p} => (1 : ℚ) / i) := sorry"
    b = "theorem t : ¬ Summable (fun i : {p : Int // Squarefree p} => (1 : Rat) / i) := sorry"
    assert check_equivalence(a, b, relation="sae", timeout=1.0, language="lean4").status == "equivalent"


def test_deriv_of_a_function_alone_is_a_function():
    """``deriv f`` is f's derivative, a function like f: ``deriv (deriv f) x ≥ 3`` is a real
    comparison (it was a generic ``GE.ge`` of unknown sort, so ``3 ≤ deriv (deriv f) x`` was
    another statement)."""
    from provers import check_equivalence

    a = "theorem t (f : ℝ → ℝ) (h : deriv f 0 = 0) : deriv (deriv f) 1 ≥ 3 := sorry"
    b = "theorem t (f : ℝ → ℝ) (h : deriv f 0 = 0) : 3 ≤ deriv (deriv f) 1 := sorry"
    assert check_equivalence(a, b, relation="sae", timeout=1.0, language="lean4").status == "equivalent"


def test_polynomial_notation_names_its_ring_in_one_spelling():
    """``ℚ[X]`` and ``Rat[X]`` are ``Polynomial ℚ`` (GTED ``exercise_4_6_2`` respelled)."""
    sorts = [parse_lean(f"theorem t (p : {r}[X]) : p = p := sorry").binders[0].var.sort for r in ("ℚ", "Rat")]
    assert sorts[0] == sorts[1] == parse_lean("theorem t (p : Polynomial ℚ) : p = p := sorry").binders[0].var.sort


@pytest.mark.parametrize("hom", ["ℝ →+* ℝ", "RingHom ℝ ℝ", "ℝ →* ℝ", "ℝ →+ ℝ", "ℝ ≃+* ℝ", "ℝ ≃* ℝ"])
def test_a_bundled_maps_coercion_takes_arguments_of_its_domain(hom):
    """``f x`` for ``f : ℝ →+* ℝ`` read x with no sort, so ``∀ x, f x = x - 8`` bound x over ℕ,
    where ``x - 8`` and ``max (x - 8) 0`` are one function: the two statements were called
    equivalent (the same misreading stop 58 fixed for ``Equiv``). Over ℝ they differ below 8."""
    from provers import check_equivalence, parse
    from provers.ir import REAL, Quant

    a = f"theorem t (f : {hom}) (h : ∀ x, f x = x - 8) : f 10 = 2 := sorry"
    b = a.replace("x - 8", "max (x - 8) 0")
    (h,) = parse(a).hypotheses
    assert isinstance(h.formula, Quant) and h.formula.vars[0].sort == REAL
    for relation in ("sae", "symbolic"):
        assert check_equivalence(a, b, relation=relation, timeout=1.0, language="lean4").status != "equivalent"
