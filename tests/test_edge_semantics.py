"""What Lean 4 + Mathlib and Isabelle/HOL text means at its edges, through the whole engine.

Each row is a statement with a value left open: at the value its language gives the
expression the engine must prove the statement, at a wrong value refute it (``provable``:
parse, normal form, exact evaluation or the solvers). The rows are the places where a
reading from ordinary arithmetic goes wrong: truncated ℕ subtraction, division and remainder
by 0 and of negatives (Lean's Euclidean ``/`` and ``%`` on ℤ, ``Int.tdiv``; Isabelle's floor
``div``/``mod``), ``Real.sqrt`` and ``Real.log`` of negatives against Isabelle's odd ``sqrt``,
``0 ^ 0`` and ``0 powr 0``, casts pushed to the leaves by Lean's ``binop%`` (``((7 : ℕ) / 2 :
ℝ)`` is 7/2), numerals in ``ZMod n``, Mathlib's conventions at 0 (``Nat.minFac 0 = 2``,
``Nat.totient 0 = 0``, ``Nat.log 1 n = 0``), big operators over intervals.
"""

from __future__ import annotations

import pytest

from provers.engine.one_statement import provable
from provers.status import Status

LEAN = [
    ('theorem t : (7 : ℕ) - 9 = {v}', '0', '2'),
    ('theorem t (n : ℕ) (h : n = 3) : n - 5 + 5 = {v}', '5', '3'),
    ('theorem t : (7 : ℝ) / 0 = {v}', '0', '7'),
    ('theorem t : (7 : ℕ) % 0 = {v}', '7', '0'),
    ('theorem t : (7 : ℕ) / 0 = {v}', '0', '7'),
    ('theorem t : (-7 : ℤ) / 0 = {v}', '0', '-7'),
    ('theorem t : (-7 : ℤ) / 2 = {v}', '-4', '-3'),
    ('theorem t : (-7 : ℤ) % 2 = {v}', '1', '-1'),
    ('theorem t : (7 : ℤ) / (-2) = {v}', '-3', '-4'),
    ('theorem t : (7 : ℤ) % (-2) = {v}', '1', '-1'),
    ('theorem t : (-7 : ℤ) / (-2) = {v}', '4', '3'),
    ('theorem t : (-7 : ℤ) % (-2) = {v}', '1', '-1'),
    ('theorem t : Int.fdiv (-7) 2 = {v}', '-4', '-3'),
    ('theorem t : Int.tdiv (-7) 2 = {v}', '-3', '-4'),
    ('theorem t : Int.fmod 7 (-2) = {v}', '-1', '1'),
    ('theorem t : Int.tmod (-7) 2 = {v}', '-1', '1'),
    ('theorem t : Real.sqrt (-4) = {v}', '0', '2'),
    ('theorem t : Real.log (-1) = {v}', '0', '1'),
    ('theorem t : Real.log 0 = {v}', '0', '1'),
    ('theorem t : Real.log (-2) = Real.log 2 + {v}', '0', '1'),
    ('theorem t : (Finset.range 5).sum id = {v}', '10', '15'),
    ('theorem t : ∑ i in Finset.range 5, i = {v}', '10', '15'),
    ('theorem t : ∑ i in Finset.Icc 1 5, i = {v}', '15', '10'),
    ('theorem t : ∑ i in Finset.Ico 1 5, i = {v}', '10', '15'),
    ('theorem t : ∑ i in Finset.Ioc 1 5, i = {v}', '14', '15'),
    ('theorem t : ∏ i in Finset.Icc 1 5, i = {v}', '120', '24'),
    ('theorem t : Nat.choose 5 2 = {v}', '10', '20'),
    ('theorem t : Nat.choose 2 5 = {v}', '0', '1'),
    ('theorem t : ((7 : ℕ) / 2 : ℝ) = {v}', '7/2', '3'),
    ('theorem t : ((7 : ℝ) / 2) = {v}', '7/2', '3'),
    ('theorem t : (2 : ℝ) ^ (-1 : ℤ) = {v}', '1/2', '2'),
    ('theorem t : (0 : ℝ) ^ (-1 : ℤ) = {v}', '0', '1'),
    ('theorem t : (0 : ℝ)⁻¹ = {v}', '0', '1'),
    ('theorem t : Int.toNat (-3) = {v}', '0', '3'),
    ('theorem t : Int.natAbs (-3) = {v}', '3', '0'),
    ('theorem t : ⌊(-2.5 : ℝ)⌋ = {v}', '-3', '-2'),
    ('theorem t : ⌈(-2.5 : ℝ)⌉ = {v}', '-2', '-3'),
    ('theorem t : round (2.5 : ℝ) = {v}', '3', '2'),
    ('theorem t : round (-2.5 : ℝ) = {v}', '-2', '-3'),
    ('theorem t : ⌊(-2.5 : ℝ)⌋₊ = {v}', '0', '2'),
    ('theorem t : ⌈(2.5 : ℝ)⌉₊ = {v}', '3', '2'),
    ('theorem t : Nat.factorial 5 = {v}', '120', '24'),
    ('theorem t : (5 : ℕ)! = {v}', '120', '24'),
    ('theorem t : Nat.gcd 0 0 = {v}', '0', '1'),
    ('theorem t : Nat.lcm 0 5 = {v}', '0', '5'),
    ('theorem t : Int.gcd (-4) 6 = {v}', '2', '3'),
    ('theorem t : Real.logb 2 8 = {v}', '3', '4'),
    ('theorem t : Real.logb 1 8 = {v}', '0', '1'),
    ('theorem t : Real.logb 0 8 = {v}', '0', '1'),
    ('theorem t : (Finset.filter (fun n => n % 3 = 0) (Finset.range 10)).card = {v}', '4', '3'),
    ('theorem t : ((3 : ℝ) ^ ((1:ℝ)/2)) ^ 2 = {v}', '3', '9'),
    ('theorem t : (-8 : ℝ) ^ ((1:ℝ)/3) = {v}', '1', '-2'),
    ('theorem t : (-1 : ℝ) ^ ((1:ℝ)/2) = {v}', '0', '1'),
    ('theorem t : (0 : ℝ) ^ (0 : ℝ) = {v}', '1', '0'),
    ('theorem t : (0 : ℝ) ^ (-1 : ℝ) = {v}', '0', '1'),
    ('theorem t : (0 : ℕ) ^ 0 = {v}', '1', '0'),
    ('theorem t : Real.cos Real.pi = {v}', '-1', '1'),
    ('theorem t : Complex.abs (3 + 4 * Complex.I) = {v}', '5', '7'),
    ('theorem t : (Nat.digits 10 123).sum = {v}', '6', '123'),
    ('theorem t : (Nat.divisors 12).card = {v}', '6', '5'),
    ('theorem t : (Nat.properDivisors 12).sum id = {v}', '16', '28'),
    ('theorem t : Nat.totient 12 = {v}', '4', '6'),
    ('theorem t : Nat.totient 1 = {v}', '1', '0'),
    ('theorem t : Nat.totient 0 = {v}', '0', '1'),
    ('theorem t : ({1, 2, 2, 3} : Finset ℕ).card = {v}', '3', '4'),
    ('theorem t : ([1, 2, 2, 3] : List ℕ).length = {v}', '4', '3'),
    ('theorem t : Nat.sqrt 10 = {v}', '3', '4'),
    ('theorem t : ((2:ℕ) - 3 : ℤ) = {v}', '-1', '0'),
    ('theorem t : (((2:ℕ) : ℤ) - 3 : ℤ) = {v}', '-1', '0'),
    ('theorem t : ((10 : ℕ) : ℤ) % (-3) = {v}', '1', '-2'),
    ('theorem t : Nat.log 2 8 = {v}', '3', '2'),
    ('theorem t : Nat.log 2 7 = {v}', '2', '3'),
    ('theorem t : Nat.log 1 7 = {v}', '0', '7'),
    ('theorem t : Nat.clog 2 9 = {v}', '4', '3'),
    ('theorem t : (17 : ℕ).minFac = {v}', '17', '1'),
    ('theorem t : (1 : ℕ).minFac = {v}', '1', '0'),
    ('theorem t : Nat.fib 10 = {v}', '55', '89'),
    ('theorem t : |(-3 : ℤ)| = {v}', '3', '-3'),
    ('theorem t : Int.sign (-3) = {v}', '-1', '1'),
    ('theorem t : max (3 : ℝ) 5 - min 3 5 = {v}', '2', '0'),
    ('theorem t : (2 : ℤ) ^ 10 % 7 = {v}', '2', '3'),
    ('theorem t : (3 : ℕ) ∣ {v}', '9', '10'),
    ('theorem t : Real.sin 0 + Real.exp 0 = {v}', '1', '0'),
    ('theorem t : Real.arctan 1 * 4 = Real.pi * {v}', '1', '2'),
    ('theorem t : (5 : ℚ) / 3 = {v}', '5/3', '1'),
    ('theorem t : ((5 : ℚ) / 3).floor = {v}', '1', '2'),
    ('theorem t : ((5 : ℤ) / 3 : ℚ) = {v}', '5/3', '1'),
    ('theorem t : (Finset.Icc (-2 : ℤ) 2).card = {v}', '5', '4'),
    ('theorem t : (Finset.Ioo (0 : ℕ) 5).card = {v}', '4', '5'),
    ('theorem t : ∑ k in Finset.range 0, k = {v}', '0', '1'),
    ('theorem t : ∏ k in Finset.range 0, (k + 2) = {v}', '1', '0'),
    ('theorem t : (Finset.range 10).filter (fun n => Nat.Prime n) = {v}', '{2, 3, 5, 7}', '{2, 3, 5}'),
    ('theorem t : Nat.Prime {v}', '97', '91'),
    ('theorem t : ¬ Nat.Prime {v}', '1', '2'),
    ('theorem t : ((-3 : ℤ) : ℝ) ^ 2 = {v}', '9', '-9'),
    ('theorem t : (Int.negSucc 2 : ℤ) = {v}', '-3', '-2'),
    ('theorem t : ((3 : ZMod 5) * 4 : ZMod 5) = {v}', '12', '3'),
    ('theorem t : (0.5 : ℝ) + 0.25 = {v}', '3/4', '1/2'),
    ('theorem t : (1e2 : ℝ) = {v}', '100', '12'),
    ('theorem t : (2 : ℝ)⁻¹ + 2⁻¹ = {v}', '1', '2'),
    ('theorem t : Real.sqrt 16 + Real.sqrt 9 = {v}', '7', '25'),
    ('theorem t : (16 : ℝ) ^ ((1 : ℝ) / 4) = {v}', '2', '4'),
    ('theorem t : (8 : ℕ) ^ (1 / 3) = {v}', '1', '2'),
    ('theorem t : (8 : ℝ) ^ (1 / 3 : ℝ) = {v}', '2', '1'),
    ('theorem t : (8 : ℝ) ^ (1 / 3 : ℕ) = {v}', '1', '2'),
]

ISABELLE = [
    ('shows "(7::nat) - 9 = {v}"', '0', '2'),
    ('shows "(7::real) / 0 = {v}"', '0', '7'),
    ('shows "(7::nat) mod 0 = {v}"', '7', '0'),
    ('shows "(7::nat) div 0 = {v}"', '0', '7'),
    ('shows "(-7::int) div 0 = {v}"', '0', '-7'),
    ('shows "(-7::int) mod 0 = {v}"', '-7', '0'),
    ('shows "(-7::int) div 2 = {v}"', '-4', '-3'),
    ('shows "(-7::int) mod 2 = {v}"', '1', '-1'),
    ('shows "(7::int) div (-2) = {v}"', '-4', '-3'),
    ('shows "(7::int) mod (-2) = {v}"', '-1', '1'),
    ('shows "(-7::int) div (-2) = {v}"', '3', '4'),
    ('shows "(-7::int) mod (-2) = {v}"', '-1', '1'),
    ('shows "sqrt (-4) = {v}"', '-2', '0'),
    ('shows "sqrt 16 + sqrt 9 = {v}"', '7', '25'),
    ('shows "ln (1::real) = {v}"', '0', '1'),
    ('shows "(0::real) powr 0 = {v}"', '0', '1'),
    ('shows "(0::real) powr 2 = {v}"', '0', '1'),
    ('shows "(4::real) powr (1/2) = {v}"', '2', '4'),
    ('shows "(8::real) powr (1/3) = {v}"', '2', '1'),
    ('shows "root 3 (-8) = {v}"', '-2', '2'),
    ('shows "inverse (0::real) = {v}"', '0', '1'),
    ('shows "(0::real) ^ 0 = {v}"', '1', '0'),
    ('shows "nat (-3) = {v}"', '0', '3'),
    ('shows "floor (-2.5::real) = {v}"', '-3', '-2'),
    ('shows "ceiling (-2.5::real) = {v}"', '-2', '-3'),
    ('shows "(\\<Sum>i<5. i) = ({v}::nat)"', '10', '15'),
    ('shows "(\\<Sum>i\\<in>{1..5}. i) = ({v}::nat)"', '15', '10'),
    ('shows "(\\<Sum>i\\<in>{1..<5}. i) = ({v}::nat)"', '10', '15'),
    ('shows "(\\<Prod>i\\<in>{1..5}. i) = ({v}::nat)"', '120', '24'),
    ('shows "(5::nat) choose 2 = {v}"', '10', '20'),
    ('shows "(2::nat) choose 5 = {v}"', '0', '1'),
    ('shows "fact 5 = ({v}::nat)"', '120', '24'),
    ('shows "gcd (0::nat) 0 = {v}"', '0', '1'),
    ('shows "lcm (0::nat) 5 = {v}"', '0', '5'),
    ('shows "gcd (-4::int) 6 = {v}"', '2', '-2'),
    ('shows "card {n::nat. n < 10 \\<and> n mod 3 = 0} = {v}"', '4', '3'),
    ('shows "card {1::nat, 2, 2, 3} = {v}"', '3', '4'),
    ('shows "length [1::nat, 2, 2, 3] = {v}"', '4', '3'),
    ('shows "cos pi = {v}"', '-1', '1'),
    ('shows "arctan 1 * 4 = pi * {v}"', '1', '2'),
    ('shows "log 2 8 = {v}"', '3', '4'),
    ('shows "real (7 div 2) = {v}"', '3', '7/2'),
    ('shows "real 7 / 2 = {v}"', '7/2', '3'),
    ('shows "(7::real) / 2 = {v}"', '7/2', '3'),
    ('shows "int (2 - 3) = {v}"', '0', '-1'),
    ('shows "int 2 - 3 = {v}"', '-1', '0'),
    ('shows "\\<bar>-3::int\\<bar> = {v}"', '3', '-3'),
    ('shows "max (3::real) 5 - min 3 5 = {v}"', '2', '0'),
    ('shows "(2::int) ^ 10 mod 7 = {v}"', '2', '3'),
    ('shows "(3::nat) dvd {v}"', '9', '10'),
    ('shows "prime ({v}::nat)"', '97', '91'),
    ('shows "\\<not> prime ({v}::nat)"', '1', '2'),
    ('shows "sin 0 + exp 0 = ({v}::real)"', '1', '0'),
    ('shows "(0.5::real) + 0.25 = {v}"', '3/4', '1/2'),
    ('shows "(2::real) powr (-1) = {v}"', '1/2', '2'),
    ('shows "sqrt (x\\<^sup>2) = {v}" if "x = (-3::real)"', '3', '-3'),
    ('shows "cmod (3 + 4 * \\<i>) = {v}"', '5', '7'),
    ('shows "(\\<Sum>k\\<in>{}. (k::nat)) = {v}"', '0', '1'),
    ('shows "(\\<Prod>k\\<in>{}. (k::nat)) = {v}"', '1', '0'),
    ('shows "card {-2..(2::int)} = {v}"', '5', '4'),
    ('shows "card {0<..<(5::nat)} = {v}"', '4', '5'),
    ('shows "Max {1::nat, 5, 3} = {v}"', '5', '3'),
    ('shows "Min {1::nat, 5, 3} = {v}"', '1', '5'),
    ('shows "(LEAST n::nat. n > 3) = {v}"', '4', '3'),
    ('shows "(GREATEST n::nat. n < 3) = {v}"', '2', '3'),
    ('shows "(-1::int) ^ 3 = {v}"', '-1', '1'),
    ('shows "(27::real) powr (1/3) = {v}"', '3', '9'),
    ('shows "ln (exp 2) = ({v}::real)"', '2', '1'),
    ('shows "(10::nat) - 3 * 4 = {v}"', '0', '2'),
    ('shows "real ((10::nat) - 12) = {v}"', '0', '-2'),
    ('shows "of_nat (10 - 12) = ({v}::int)"', '0', '-2'),
    ('shows "\\<lfloor>(7::real) / 2\\<rfloor> = {v}"', '3', '4'),
    ('shows "\\<lceil>(7::real) / 2\\<rceil> = {v}"', '4', '3'),
    ('shows "round (2.5::real) = {v}"', '3', '2'),
    ('shows "round (-2.5::real) = {v}"', '-2', '-3'),
    ('shows "(5::int) div 3 * 3 + 5 mod 3 = {v}"', '5', '6'),
    ('shows "even ({v}::nat)"', '4', '3'),
    ('shows "odd ({v}::int)"', '-3', '-2'),
    ('shows "(2::nat) ^ 3 ^ 2 = {v}"', '512', '64'),
    ('shows "(1::real) / 3 + 1 / 6 = {v}"', '1/2', '1/3'),
    ('shows "tan (pi / 4) = {v}"', '1', '0'),
]


def _isabelle(body: str) -> str:
    if " if " not in body:
        return "theorem t:\n  " + body
    conclusion, premise = body.split(" if ")
    return "theorem t:\n  assumes h: " + premise + "\n  " + conclusion


@pytest.mark.parametrize(("statement", "value", "wrong"), LEAN, ids=[r[0][12:60] for r in LEAN])
def test_lean_value_is_proved_and_a_wrong_one_refuted(statement, value, wrong):
    right = provable(statement.replace("{v}", value), timeout=5.0, language="lean4")
    assert right.status == Status.PROVED, right.detail
    other = provable(statement.replace("{v}", wrong), timeout=5.0, language="lean4")
    assert other.status == Status.REFUTED, other.detail


@pytest.mark.parametrize(("statement", "value", "wrong"), ISABELLE, ids=[r[0][6:60] for r in ISABELLE])
def test_isabelle_value_is_proved_and_a_wrong_one_refuted(statement, value, wrong):
    right = provable(_isabelle(statement.replace("{v}", value)), timeout=5.0, language="isabelle")
    assert right.status == Status.PROVED, right.detail
    other = provable(_isabelle(statement.replace("{v}", wrong)), timeout=5.0, language="isabelle")
    assert other.status == Status.REFUTED, other.detail
