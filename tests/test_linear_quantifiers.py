"""∃ / ∀ over several number variables decided where the body is linear in them
(``provers/semantics/linear.py``): the one-point rule on equations solved for a binder,
disjunctions split, Fourier–Motzkin over ℚ / ℝ. Differential-tested against z3 deciding the
same quantified formula, and on the statements that were "over an unbounded domain"."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.ir import INT, REAL, Quant, Var, and_, app, num, or_
from provers.semantics.evaluate import evaluate, truth
from provers.semantics.linear import decide_linear
from provers.semantics.values import FunTable

X, Y, Z = Var("x", REAL), Var("y", REAL), Var("z", REAL)
K = Var("k", REAL)  # free: its value comes from the assignment
OPS = ["eq", "ne", "lt", "le", "gt", "ge"]
Z3_OPS = {"eq": lambda a, b: a == b, "ne": lambda a, b: a != b, "lt": lambda a, b: a < b,
          "le": lambda a, b: a <= b, "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b}

atom = st.tuples(st.lists(st.integers(-3, 3), min_size=4, max_size=4), st.sampled_from(OPS))


def _ir_atom(spec, bound):
    (cx, cy, ck, c0), op = spec
    lhs = app("add", app("add", app("mul", num(cx, REAL), bound[0]), app("mul", num(cy, REAL), bound[1])),
              app("mul", num(ck, REAL), K))
    return app(op, lhs, num(c0, REAL))


def _z3_atom(spec, zs, k):
    (cx, cy, ck, c0), op = spec
    return Z3_OPS[op](cx * zs[0] + cy * zs[1] + ck * k, c0)


def _shape(kind, atoms, build):
    """One of a few boolean shapes over the atoms (and / or / implies / not)."""
    a = [build(s) for s in atoms]
    if kind == 0:
        return a[0] if len(a) == 1 else (and_(*a) if not isinstance(a[0], z3.ExprRef) else z3.And(*a))
    if kind == 1:
        return or_(*a) if not isinstance(a[0], z3.ExprRef) else z3.Or(*a)
    first, rest = a[0], a[1:] or a
    if isinstance(first, z3.ExprRef):
        return z3.Implies(first, z3.And(*rest)) if kind == 2 else z3.Not(z3.And(first, *rest))
    return app("implies", first, and_(*rest)) if kind == 2 else app("not", and_(first, *rest))


@settings(max_examples=200, deadline=None)
@given(st.lists(atom, min_size=1, max_size=3), st.integers(0, 3), st.booleans(),
       st.fractions(min_value=-3, max_value=3, max_denominator=2))
def test_agrees_with_z3_on_linear_real_quantifiers(atoms, shape, existential, k):
    """Whatever the procedure decides is what z3 decides for the same ∃ / ∀ over two reals
    (k, free, at a rational value); it decides every such formula (no ≠-split or size bound
    is reached at this size)."""
    body = _shape(shape, atoms, lambda s: _ir_atom(s, (X, Y)))
    q = Quant("exists" if existential else "forall", (X, Y), body)
    got = evaluate(q, {"k": k})
    zx, zy = z3.Reals("x y")
    zbody = _shape(shape, atoms, lambda s: _z3_atom(s, (zx, zy), z3.RealVal(str(k))))
    s = z3.Solver()
    s.add(z3.Exists([zx, zy], zbody) if existential else z3.Not(z3.ForAll([zx, zy], zbody)))
    r = s.check()
    assert r in (z3.sat, z3.unsat)
    expected = (r == z3.sat) if existential else (r == z3.unsat)
    assert got is expected, (str(q), k)


def test_no_solution_of_a_parallel_system_is_decided():
    """``algebra/problem_1884``'s premise at K = 12: the lines 6x + 4y = 7 and 12x + 8y = 7
    are parallel, so no (x, y) meets both (it was "∃ over an unbounded domain")."""
    system = Quant("exists", (X, Y), and_(
        app("eq", app("add", app("mul", num(6, REAL), X), app("mul", num(4, REAL), Y)), num(7, REAL)),
        app("eq", app("add", app("mul", K, X), app("mul", num(8, REAL), Y)), num(7, REAL))))
    assert evaluate(system, {"k": 12}) is False
    assert evaluate(system, {"k": 11}) is True  # one crossing point
    assert evaluate(app("not", system), {"k": 12}) is True


def test_a_strict_chain_with_no_room_is_infeasible():
    """x < y < z < x + 1/2 ∧ z − x > 1: strictness kept through the elimination."""
    half = num(Fraction(1, 2), REAL)
    chain = and_(app("lt", X, Y), app("lt", Y, Z), app("lt", Z, app("add", X, half)))
    assert evaluate(Quant("exists", (X, Y, Z), chain), {}) is True
    wide = and_(chain, app("gt", app("sub", Z, X), num(1, REAL)))
    assert evaluate(Quant("exists", (X, Y, Z), wide), {}) is False
    touching = and_(app("le", X, Y), app("le", Y, X), app("ne", X, Y))
    assert evaluate(Quant("exists", (X, Y), touching), {}) is False


def test_integer_binders_solved_by_unit_equations_in_each_disjunct():
    """``counting_and_probability/problem_994``'s ``∃a b c :: int. n = 100a + 10b + c ∧ (a = 6
    ∧ b = 6 ∨ …)``: each disjunct fixes two digits and the third solves the equation (c has
    coefficient 1), so every integer n is in the set; with the third coefficient 2 instead,
    only the parity of n − 660 decides, which the one-point rule must not claim."""
    a, b, c, n = (Var(s, INT) for s in "abcn")

    def body(cc):
        digits = app("add", app("add", app("mul", a, num(100, INT)), app("mul", b, num(10, INT))),
                     app("mul", num(cc, INT), c))
        pairs = or_(and_(app("eq", a, num(6, INT)), app("eq", b, num(6, INT))),
                    and_(app("eq", a, num(6, INT)), app("eq", c, num(6, INT))))
        return Quant("exists", (a, b, c), and_(app("eq", n, digits), pairs))

    for value in (357, -4, 0, 661):
        assert evaluate(body(1), {"n": value}) is True
    # 2c = n − 660 with a = b = 6, or n = 606 + 10b with a = c = 6: no integer solution at n = 3
    assert truth(body(2), {"n": 3}) is not True


def test_a_congruence_over_two_reals_holds():
    """``∀a b. a − b = 0 → f a = f b`` (``counting_and_probability/problem_214``'s premise) is
    true whatever f: a is solved as b, and ``f b = f b`` holds."""
    a, b = Var("a", REAL), Var("b", REAL)
    f = Var("f", provers.ir.FunSort((REAL,), REAL))
    congruence = Quant("forall", (a, b), app("implies", app("eq", app("sub", a, b), num(0, REAL)),
                                               app("eq", app("apply", f, a), app("apply", f, b))))
    table = FunTable({(Fraction(1, 2),): 3, (1,): 9}, default=Fraction(-7, 4))
    assert evaluate(congruence, {"f": table}) is True


def test_nonlinear_or_other_sorts_are_left_to_the_rest_of_the_evaluator():
    """A product of two binders, or a binder of another sort, is not this procedure's."""
    square = Quant("exists", (X, Y), app("eq", app("mul", X, Y), num(2, REAL)))
    assert decide_linear(square, True, lambda p: None, lambda t: None) is None
    s = Var("s", provers.ir.SetSort(REAL))
    other = Quant("exists", (s,), app("mem", num(1, REAL), s))
    assert decide_linear(other, True, lambda p: None, lambda t: None) is None


DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "isabelle_math_400.jsonl"


@pytest.mark.skipif(not DATA.exists(), reason="isabelle_math_400.jsonl not present")
def test_a_vacuous_candidate_is_told_from_one_with_the_answer():
    """``algebra/problem_1884``: candidate 2 (no (x, y) meets both lines) against candidate 7
    (no (x, y) meets either line — false, so its premises are contradictory) was inconclusive;
    K = 12 meets 2's premises and not 7's, which the exact evaluator now confirms."""
    row = next(r for r in map(json.loads, DATA.open()) if r["id"].endswith("algebra/problem_1884.json"))
    a, b = (provers.parse(row["candidates"][i]["formal"], "isabelle") for i in (2, 7))
    v = provers.check_equivalence(a, b, relation="symbolic", timeout=1.0)
    assert v.status.value == "inequivalent", str(v)[:2000]


def test_a_large_system_gives_up_instead_of_blowing_up():
    """Fourier–Motzkin squares the bounds it eliminates through: past ``MAX_CONSTRAINTS``
    products the system is left undecided (None) before they are built; the same shape over
    three variables and three bounds is decided (False: x₁ − x₀ < 2 against x₀ + 2 < x₁)."""
    from provers.semantics.linear import MAX_CONSTRAINTS

    def system(n: int, bounds: int) -> Quant:
        vs = [Var(f"x{i}", REAL) for i in range(n)]
        rows = [app("lt", app("sub", vs[i], vs[j]), num(i + j + 1, REAL)) for i in range(n) for j in range(n) if i != j]
        for c in range(bounds):
            rows.append(app("lt", app("add", vs[0], num(c, REAL)), vs[1]))
            rows.append(app("lt", vs[0], app("add", vs[2], num(c, REAL))))
        return Quant("exists", tuple(vs), and_(*rows))

    big = system(6, 25)
    assert len(conjuncts_of(big)) < MAX_CONSTRAINTS  # the blow-up is the elimination's, not the input's
    assert decide_linear(big, True, lambda p: None, lambda t: None) is None
    assert decide_linear(system(3, 3), True, lambda p: None, lambda t: None) is False


def conjuncts_of(q: Quant) -> list:
    return list(q.body.args)
