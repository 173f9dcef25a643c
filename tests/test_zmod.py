"""``ZMod n`` arithmetic computed exactly (``semantics.zmod``) and ∀ over its variables decided
at the points where it can fail (``engine.finite_sorts``): differential tests against plain
modular arithmetic and brute-force enumeration, and miniF2F's ZMod statements with their
meaning-changing mutants."""

from __future__ import annotations

import itertools
import math
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from provers.engine import finite_sorts
from provers.engine.equivalence import check_equivalence
from provers.engine.one_statement import provable
from provers.ir import INT, NAT, Num, OpaqueSort, Uninterpreted, Var, app
from provers.semantics import zmod
from provers.semantics.evaluate import truth
from provers.semantics.values import Opaque, Undecided
from provers.status import Status

MATHD_668 = """theorem mathd_numbertheory_668
  (l r : ZMod 7)
  (h₀ : l = (2 + 3)⁻¹)
  (h₁ : r = 2⁻¹ + 3⁻¹) :
  l - r = 1 := sorry"""
MATHD_232 = ("theorem mathd_numbertheory_232 (x y z : ZMod 31) (h₀ : x = 3⁻¹) (h₁ : y = 5⁻¹) "
             "(h₂ : z = (x + y)⁻¹) : z = 29 := sorry")


def _element(n: int, r: int) -> Opaque:
    return Opaque(f"ZMod {n}", r)


def _op(symbol: str, n: int, *args: object) -> Uninterpreted:
    sort = OpaqueSort(f"ZMod {n}")
    terms = tuple(a if not isinstance(a, int) else Num(a, NAT) for a in args)
    return Uninterpreted(symbol, terms or (), sort)


def _value(symbol: str, n: int, residues: list[int], extra: list = ()) -> int:
    sort = OpaqueSort(f"ZMod {n}")
    args = [Var(f"a{i}", sort) for i in range(len(residues))] + [Var("k", NAT) for _ in extra]
    t = Uninterpreted(symbol, tuple(args), sort)
    assert zmod.interprets(t)
    out = zmod.value(t, [_element(n, r) for r in residues] + list(extra))
    assert isinstance(out, Opaque) and out.sort == f"ZMod {n}" and 0 <= out.index < n
    return out.index


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 60), st.data())
def test_ring_operations_agree_with_modular_arithmetic(n, data):
    a, b = data.draw(st.integers(0, n - 1)), data.draw(st.integers(0, n - 1))
    k = data.draw(st.integers(0, 40))
    assert _value("HAdd.hAdd", n, [a, b]) == (a + b) % n
    assert _value("HSub.hSub", n, [a, b]) == (a - b) % n
    assert _value("HMul.hMul", n, [a, b]) == a * b % n
    assert _value("Neg.neg", n, [a]) == -a % n
    assert _value("HPow.hPow", n, [a], [k]) == (a ** k) % n


@settings(max_examples=300, deadline=None)
@given(st.integers(1, 60), st.data())
def test_the_inverse_of_a_unit_is_its_inverse_and_of_zero_is_zero(n, data):
    a = data.draw(st.integers(0, n - 1))
    if a == 0 or n == 1:
        assert _value("Inv.inv", n, [a]) == 0  # ZMod.inv_zero
    elif math.gcd(a, n) == 1:
        inv = _value("Inv.inv", n, [a])
        assert a * inv % n == 1
    else:  # Bezout's coefficient: Mathlib's value is not computed here, never guessed
        with pytest.raises(Undecided):
            _value("Inv.inv", n, [a])


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([2, 3, 5, 7, 11, 13, 31]), st.data())
def test_division_is_multiplication_by_the_inverse_in_a_prime_field(p, data):
    a, b = data.draw(st.integers(0, p - 1)), data.draw(st.integers(0, p - 1))
    expected = 0 if b == 0 else a * pow(b, -1, p) % p
    assert _value("HDiv.hDiv", p, [a, b]) == expected


def test_division_on_a_composite_modulus_and_zmod_zero_are_not_modelled():
    with pytest.raises(Undecided):
        _value("HDiv.hDiv", 10, [3, 7])
    with pytest.raises(Undecided):  # a modulus too large to test for primality: not read, not hung on
        _value("HDiv.hDiv", 10**30 + 57, [3, 7])
    assert zmod.modulus(OpaqueSort("ZMod 0")) is None  # ZMod 0 is ℤ
    assert zmod.modulus(OpaqueSort("ZMod p")) is None
    assert zmod.modulus(OpaqueSort("Fin 7")) is None


def test_numerals_and_casts_reduce_mod_n():
    assert zmod.value(_op("12", 7), []) == _element(7, 5)
    cast = Uninterpreted("↑", (Var("z", INT),), OpaqueSort("ZMod 7"))
    assert zmod.interprets(cast)
    assert zmod.value(cast, [-1]) == _element(7, 6)


def _numeral(sort: OpaqueSort, k: int) -> Uninterpreted:
    return Uninterpreted(str(k), (), sort)


def _defining(x: Var, y: Var, a: int, b: int, c: int):
    """x = a ∧ y = b·x + c (a chain of definitions, as MATH-style premises are written)."""
    s = x.sort
    rhs = Uninterpreted("HAdd.hAdd", (Uninterpreted("HMul.hMul", (_numeral(s, b), x), s), _numeral(s, c)), s)
    return app("and", app("eq", x, _numeral(s, a)), app("eq", y, rhs))


@settings(max_examples=150, deadline=None)
@given(st.integers(2, 13), st.data())
def test_the_points_visited_decide_as_brute_force_enumeration_does(n, data):
    """∀ x y. (Γ ↔ Γ'), (Γ → Γ') and Γ for two chains of definitions: the decision from the
    sides' solutions agrees with evaluating all n² points, and a countermodel is one."""
    sort = OpaqueSort(f"ZMod {n}")
    x, y = Var("x", sort), Var("y", sort)
    gamma = _defining(x, y, *(data.draw(st.integers(0, 2 * n)) for _ in range(3)))
    other = _defining(x, y, *(data.draw(st.integers(0, 2 * n)) for _ in range(3)))
    for body in (app("iff", gamma, other), app("implies", gamma, other), app("implies", other, gamma), gamma):
        brute = all(truth(body, {"x": _element(n, i), "y": _element(n, j)})
                    for i, j in itertools.product(range(n), repeat=2))
        found = finite_sorts.decided((x, y), body, None)
        assert found is not None
        holds, point, _ = found
        assert holds == brute
        if not holds:
            assert truth(body, point) is False  # the countermodel is re-checked


def test_mathd_numbertheory_668_and_232_are_proved():
    for text in (MATHD_668, MATHD_232):
        ob = provable(text, timeout=2.0)
        assert ob.status == Status.PROVED, ob.detail


def test_a_changed_constant_is_certified_inequivalent_at_the_premises_solution():
    """The mutant x = 6⁻¹ of mathd_numbertheory_232: the premises differ at A's solution
    (x, y, z) = (3⁻¹, 5⁻¹, (x + y)⁻¹) = (21, 25, 29) in ZMod 31; 31³ points are never visited."""
    v = check_equivalence(MATHD_232, MATHD_232.replace("3⁻¹", "6⁻¹"), relation="sae", timeout=2.0)
    assert v.status.value == "inequivalent", v.reason
    assert v.countermodel is not None
    a = v.countermodel["A"]
    assert (a["x"].index, a["y"].index, a["z"].index) == (21, 25, 29)
    assert 3 * 21 % 31 == 1 and 5 * 25 % 31 == 1 and (21 + 25) * 29 % 31 == 1


@settings(max_examples=25, deadline=None)
@given(st.integers(2, 60))
def test_a_perturbed_numeral_changes_the_verdict_exactly_when_its_residue_changes(c):
    """l = (2 + 3)⁻¹ against l = (c + 3)⁻¹ in ZMod 7: equivalent iff c ≡ 2 (mod 7) (every
    residue is a unit or 0, whose inverse is 0 ≠ 3 = 5⁻¹)."""
    mutant = MATHD_668.replace("(2 + 3)⁻¹", f"({c} + 3)⁻¹")
    v = check_equivalence(MATHD_668, mutant, relation="sae", timeout=2.0)
    assert v.status.value == ("equivalent" if c % 7 == 2 else "inequivalent"), v.reason


def test_renaming_the_variables_keeps_the_verdict():
    renamed = re.sub(r"\bx\b", "u", re.sub(r"\by\b", "v", re.sub(r"\bz\b", "w", MATHD_232)))
    assert "(u v w : ZMod 31)" in renamed
    v = check_equivalence(MATHD_232, renamed, relation="sae", timeout=2.0)
    assert v.status.value == "equivalent", v.reason
    w = check_equivalence(MATHD_232, renamed.replace("5⁻¹", "7⁻¹"), relation="sae", timeout=2.0)
    assert w.status.value == "inequivalent", w.reason


def test_non_units_and_too_many_points_stay_undecided():
    ob = provable("theorem t (a : ZMod 10) : a * a⁻¹ * a = a := sorry", timeout=1.0)
    assert ob.status == Status.UNKNOWN  # true in Mathlib, but 2⁻¹ in ZMod 10 is not computed
    ob = provable("theorem t (a : ZMod 10) : a * a⁻¹ = 1 := sorry", timeout=1.0)
    assert ob.status == Status.REFUTED and ob.model == {"a": _element(10, 0)}  # 0 · 0⁻¹ = 0


def test_a_binder_over_zmod_ranges_over_its_residues():
    """∃ / ∀ inside a statement: 3 is not a square mod 7 (squares 0, 1, 2, 4), 5 · 3 = 1, and
    every b ≠ 0 has an inverse; squares mod 8 are not idempotent (2² = 4)."""
    cases = {
        "theorem t : ∃ a : ZMod 7, a * a = 3 := sorry": Status.REFUTED,
        "theorem t : ∃ a : ZMod 7, a * 3 = 1 := sorry": Status.PROVED,
        "theorem t (b : ZMod 7) (h : b ≠ 0) : ∃ a : ZMod 7, a * b = 1 := sorry": Status.PROVED,
        "theorem t : ∀ a b : ZMod 7, ∃ c : ZMod 7, a + c = b := sorry": Status.PROVED,
        "theorem t : ∀ a : ZMod 8, a ^ 2 = a := sorry": Status.REFUTED,
    }
    for text, expected in cases.items():
        ob = provable(text, timeout=2.0)
        assert ob.status == expected, (text, ob.detail)


def test_a_modulus_written_as_one_operation_on_numerals_is_read():
    """miniF2F writes ``ZMod (11 ^ 2)``: 121 residues, and 24⁻¹ = 116 there (24 · 116 = 23 · 121 + 1)."""
    from provers.ir import known_elements, zmod_modulus

    moduli = {"ZMod 7": 7, "ZMod (11 ^ 2)": 121, "ZMod (2 * 5)": 10, "ZMod (3 + 4)": 7, "ZMod 0": 0,
              "ZMod (2 ^ 100)": None, "ZMod p": None, "ZMod (p ^ 2)": None, "Fin 3": None}
    for name, n in moduli.items():
        assert zmod_modulus(OpaqueSort(name)) == n, name
    assert known_elements(OpaqueSort("ZMod (11 ^ 2)")) == 121
    text = "theorem mathd_numbertheory_233 (b : ZMod (11 ^ 2)) (h₀ : b = 24⁻¹) : b = 116 := sorry"
    assert provable(text, timeout=2.0).status == Status.PROVED
    assert provable(text.replace("116", "115"), timeout=2.0).status == Status.REFUTED
    v = check_equivalence(text, text.replace("24⁻¹", "25⁻¹"), relation="sae", timeout=2.0)
    assert v.status.value == "inequivalent", v.reason
    assert v.countermodel["A"]["b"] == Opaque("ZMod (11 ^ 2)", 116)
