"""Closed numeral arithmetic is one numeral in the normal form (``normal.folded_numerals``):
``2 * 3`` and ``6`` are one term, computed by the exact evaluator under each operation's own
semantics — truncated ℕ subtraction, Lean's Euclidean and Isabelle's floor division, x / 0 = 0.
A folded value the solvers disagree with would make a wrong ``equivalent``: the differential
test below asks z3 to prove every folded equation."""

from __future__ import annotations

from fractions import Fraction

import z3
from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.engine.normal import normalize
from provers.ir import INT, NAT, REAL, App, Num, app, num
from provers.semantics.folding import folded_numerals


def _lean_answer(expr: str, sort: str = "ℕ"):
    nf = normalize(provers.parse(f"theorem t (x : {sort}) (h : x = {expr}) : x = x := by sorry", "lean4"))
    return nf.premises[0].args[1]


def _isabelle_answer(expr: str, sort: str = "int"):
    nf = normalize(provers.parse(f'theorem\nfixes x :: {sort}\nassumes "x = {expr}"\nshows "x = x"', "isabelle"))
    return nf.premises[0].args[1]


def test_each_language_keeps_its_own_division():
    assert _lean_answer("2 * 3") == Num(6, NAT)
    assert _lean_answer("7 - 9") == Num(0, NAT)  # truncated on ℕ
    assert _lean_answer("10 / 3 + 10 % 3") == Num(4, NAT)
    # -7 = (-2)·4 + 1 (Lean's Int./ is Euclidean); Isabelle's div floors -7 / -2 = 3.5 to 3
    assert _lean_answer("(-7) / (-2)", "ℤ") == Num(4, INT)
    assert _isabelle_answer("(-7) div (-2)") == Num(3, INT)
    assert _isabelle_answer("(-7) mod (-2)") == Num(-1, INT)
    assert _lean_answer("(1 : ℝ) / 0", "ℝ") == Num(0, REAL)
    assert _lean_answer("(1 : ℝ) / 2", "ℝ") == _lean_answer("0.5", "ℝ") == Num(Fraction(1, 2), REAL)


def test_only_closed_and_moderate_expressions_fold():
    assert isinstance(_lean_answer("2 ^ 200"), App)  # a numeral nobody writes stays a power
    nf = normalize(provers.parse("theorem t (x y : ℕ) (h : x = y + 2 * 3) : x = x := by sorry", "lean4"))
    assert nf.premises[0].args[1] == app("add", nf.premises[0].args[1].args[0], num(6, NAT))


def test_a_folded_statement_is_the_same_statement():
    """``2 / 5 * 60`` is 24: the premise is the reference's (gted mathd_algebra_459)."""
    a = "theorem t (a : ℚ) (h : 8 * a = 24) : a = 3 := by sorry"
    b = "theorem t (a : ℚ) (h : 8 * a = 2 / 5 * 60) : a = 3 := by sorry"
    for relation in ("syntactic", "sae", "symbolic"):
        assert provers.check_equivalence(a, b, relation=relation, timeout=1.0).status == "equivalent"
    c = "theorem t (a : ℚ) (h : 8 * a = 2 / 5 * 61) : a = 3 := by sorry"  # 24.4: another premise
    assert provers.check_equivalence(a, c, relation="sae", timeout=1.0).status == "inequivalent"


def _z3_value(t):
    """The z3 term of a closed integer expression of the generated fragment (Lean semantics)."""
    if isinstance(t, Num):
        return z3.IntVal(t.value)
    a, b = (_z3_value(x) for x in t.args)
    if t.op == "add":
        return a + b
    if t.op == "sub":
        return a - b
    if t.op == "mul":
        return a * b
    # z3's div / mod on Int are Euclidean, as Lean's Int.ediv / Int.emod (divisor ≠ 0 here)
    return a / b if t.op == "ediv" else a % b


_leaves = st.integers(-30, 30).map(lambda v: num(v, INT))
_exprs = st.recursive(
    _leaves,
    lambda sub: st.tuples(st.sampled_from(["add", "sub", "mul", "ediv", "emod"]), sub, sub).map(
        lambda t: app(t[0], t[1], t[2])),
    max_leaves=6,
)


@settings(max_examples=60, deadline=None)
@given(_exprs)
def test_folded_values_agree_with_z3(expr):
    """Differential: every folded ℤ expression (Euclidean division included) is the value z3
    computes for it; a zero divisor is Lean's x / 0 = 0, x % 0 = x, which z3 leaves open."""
    if not isinstance(expr, App):
        return
    folded = expr
    for _ in range(8):  # fold bottom-up as the normal form does
        folded = _fold_bottom_up(folded)
    if not isinstance(folded, Num):
        return
    if _has_zero_divisor(expr):
        return
    s = z3.Solver()
    s.set("timeout", 2000)
    s.add(_z3_value(expr) != z3.IntVal(folded.value))
    assert s.check() == z3.unsat, (expr, folded)


def _fold_bottom_up(t):
    if not isinstance(t, App):
        return t
    t = app(t.op, *(_fold_bottom_up(a) for a in t.args))
    return folded_numerals(t) or t


def _has_zero_divisor(t) -> bool:
    if not isinstance(t, App):
        return False
    if t.op in ("ediv", "emod") and isinstance(d := _fold_bottom_up(t.args[1]), Num) and d.value == 0:
        return True
    return any(_has_zero_divisor(a) for a in t.args)


def test_untyped_set_builder_takes_the_sort_of_the_set_it_equals():
    """``S = {x | 0 < x}`` with ``S : Set ℝ``: Lean unifies both sides, so x is real (it was a
    parse error: "cannot compare Set Real with Set Nat")."""
    st_ = provers.parse("theorem t (S : Set ℝ) (h : S = {x | 0 < x ∧ x < 1}) : (1 / 2 : ℝ) ∈ S := by sorry", "lean4")
    assert st_.hypotheses[0].formula.args[1].var.sort == REAL
    flipped = provers.parse("theorem t (S : Set ℝ) (h : {x | 0 < x ∧ x < 1} = S) : (1 / 2 : ℝ) ∈ S := by sorry", "lean4")
    assert flipped.hypotheses[0].formula.args[0].var.sort == REAL


def test_two_implications_are_one_biconditional():
    a = "theorem t (p : Prop) (x : ℝ) (h : p) : (0 < x → p) ∧ (p → 0 < x) := by sorry"
    b = "theorem t (p : Prop) (x : ℝ) (h : p) : 0 < x ↔ p := by sorry"
    for relation in ("syntactic", "sae", "symbolic"):
        assert provers.check_equivalence(a, b, relation=relation, timeout=1.0).status == "equivalent"
    c = "theorem t (p : Prop) (x : ℝ) (h : p) : (0 < x → p) ∧ (p → 1 < x) := by sorry"
    assert provers.check_equivalence(a, c, relation="syntactic", timeout=1.0).status != "equivalent"


def test_a_folded_complex_exponent_is_a_power():
    """Isabelle reads ``z powr 2`` on ℂ as ``z ^ 2`` (exp (2 · Ln z) = z², 0 powr 2 = 0); the
    same exponent written ``1 + 1`` folds to 2 and is read alike (isabelle_math_400
    intermediate_algebra/problem_405 respelled)."""
    a = ('theorem\nfixes z :: complex and b :: real\nassumes h0 : "z = Complex 9 b"\n'
         'and h1 : "Im (z powr 2) = Im (z powr 3)"\nshows  "b = 15"')
    b = a.replace("powr 2", "powr (1 + 1)")
    assert provers.check_equivalence(a, b, relation="sae", language="isabelle", timeout=1.0).status == "equivalent"
    zero = a.replace("powr 2", "powr (1 - 1)")  # 0 powr 0 = 0 but 0 ^ 0 = 1: no power
    assert "powr" in str(normalize(provers.parse(zero, "isabelle")).premises)


def test_a_quotient_has_one_spelling():
    """In a field ``b⁻¹`` is ``1 / b`` and ``a * b⁻¹`` is ``a / b`` (both zero at b = 0 in Lean
    and Isabelle): one term, decided without a solver (the respelling "division as multiplying
    by the inverse" timed out on nonlinear inequalities, stop 61). Not on ℕ / ℤ, whose ``/``
    rounds."""
    a = "theorem t (a b : ℝ) (h : 0 < b) : a / b ≤ a * b⁻¹ + b⁻¹ := by sorry"
    b = "theorem t (a b : ℝ) (h : 0 < b) : a * b⁻¹ ≤ a / b + 1 / b := by sorry"
    v = provers.check_equivalence(a, b, relation="sae", timeout=1.0)
    assert v.status == "equivalent" and v.route == "syntactic"
    nat = normalize(provers.parse("theorem t (a b : ℕ) : a / b * b ≤ a := by sorry", "lean4")).conclusion
    assert nat.args[0].args[0].op == "div"  # ℕ division stays as written
    other = "theorem t (a b : ℝ) (h : 0 < b) : a * b⁻¹ ≤ a / b + 1 / b - 1 := by sorry"  # false at b = 2
    assert provers.check_equivalence(a, other, relation="sae", timeout=1.0).status == "inequivalent"


OPAQUE_SORTS = ("ZMod 7", "NNReal", "Polynomial ℝ", "Fin 5", "ℕ+")


@given(st.sampled_from(OPAQUE_SORTS), st.integers(1, 10 ** 6), st.integers(1, 10 ** 6), st.sampled_from("+*"))
@settings(max_examples=40, deadline=None)
def test_numerals_on_a_sort_the_ir_does_not_model_add_and_multiply_as_naturals(sort, a, b, op):
    """``Nat.cast_add`` / ``Nat.cast_mul``: ``a + b`` on ``ZMod 7`` or ``NNReal`` is the numeral
    of the natural sum (each sort wraps or not alike on both sides); a numeral one off is not."""
    from provers.ir import Uninterpreted, canon_key

    folded = _lean_answer(f"{a} {op} {b}", sort)
    value = a + b if op == "+" else a * b
    assert isinstance(folded, Uninterpreted) and folded.symbol == str(value) and not folded.args
    assert canon_key(folded) == canon_key(_lean_answer(str(value), sort))
    assert canon_key(folded) != canon_key(_lean_answer(str(value + 1), sort))


def test_only_sums_and_products_of_opaque_numerals_fold():
    """Subtraction is truncated on ``NNReal`` and wraps on ``ZMod``: it stays as written; so do
    a sum with a variable in it and numerals past 2⁵³ (Lean's ``Float`` rounds there)."""
    from provers.ir import Uninterpreted

    for expr, sort in (("7 - 2", "NNReal"), ("2 - 3", "ZMod 7"), ("x + 1", "ZMod 7"),
                       (f"{2 ** 53} + 1", "NNReal"), ("(2 : NNReal) / 3", "NNReal")):
        t = _lean_answer(expr, sort)
        assert not (isinstance(t, Uninterpreted) and not t.args), (expr, t)


def test_a_numeral_respelled_as_a_sum_on_zmod_is_the_same_statement():
    """The respelling ``numerals as sums`` (``experiments/respell.py``) left these inconclusive:
    ``(3 : ZMod 7)`` written ``1 + 2`` is the same element, and the same statement."""
    a = "theorem t (x : ZMod 7) (h : x * 3 = 2) : x ^ 5 = 4 := by sorry"
    b = "theorem t (x : ZMod 7) (h : x * (1 + 2) = 2) : x ^ (1 + 4) = (1 + 3) := by sorry"
    c = "theorem t (x : ZMod 7) (h : x * (1 + 3) = 2) : x ^ 5 = 4 := by sorry"
    assert provers.check_equivalence(a, b, relation="sae", timeout=1.0).status == "equivalent"
    assert provers.check_equivalence(a, c, relation="sae", timeout=1.0).status != "equivalent"


def _hypothesis(text: str):
    return normalize(provers.parse(text, "lean4")).premises[0]


@given(st.integers(-30, 30), st.integers(-60, 60), st.sampled_from(["b = a * c", "b = c * a", "a * c = b"]))
@settings(max_examples=60, deadline=None)
def test_an_existential_product_is_divisibility(a, b, spelling):
    """``∃ c, b = a * c`` over ℤ is ``a ∣ b`` (the definition of ``Dvd.dvd``): the normal form
    writes it so, and at every point the exact evaluator gives the rewritten formula the truth
    of the ∃ as written (``0 ∣ b`` only for b = 0)."""
    from provers.ir import canon_key
    from provers.semantics.evaluate import truth

    rewritten = _hypothesis(f"theorem t (a b : ℤ) (h : ∃ c, {spelling}) : True := by sorry")
    assert canon_key(rewritten) == canon_key(_hypothesis("theorem t (a b : ℤ) (h : a ∣ b) : True := by sorry"))
    witness = (a == 0 and b == 0) or (a != 0 and b % a == 0)  # the ∃ decided by hand
    assert truth(rewritten, {"a": a, "b": b}) is witness


def test_only_a_product_with_the_bound_factor_alone_is_divisibility():
    """``∃ c, b = a * c + 1``, ``∃ c, b = c * c`` and ``∃ c, b = (a + c) * c`` stay ∃s; over ℝ,
    where every a ≠ 0 divides, the ∃ is no ``∣`` of the IR (ℕ / ℤ) either."""
    from provers.ir import App, Quant, subterms

    for h in ("∃ c, b = a * c + 1", "∃ c, b = c * c", "∃ c, b = (a + c) * c"):
        assert isinstance(_hypothesis(f"theorem t (a b : ℤ) (h : {h}) : True := by sorry"), Quant), h
    real = _hypothesis("theorem t (a b : ℝ) (h : ∃ c, b = a * c) : True := by sorry")
    assert not any(isinstance(s, App) and s.op == "dvd" for s in subterms(real))
