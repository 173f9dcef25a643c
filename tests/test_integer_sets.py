"""Sets of integers the evaluator writes out without testing every candidate: an integer
interval cut by remainders, divisibility and gcd counted over one period
(``order_bounds.periodic_interval``), and the integers among the reals between two bounds
(``domains._integral_points``). Differential-tested against counting one by one."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.engine.normal import normalize
from provers.ir import INT, REAL, SetBuilder, Var, and_, app, cast, num
from provers.semantics.evaluate import evaluate
from provers.semantics.values import PredSet

N_NAT, N_INT = Var("n", provers.ir.NAT), Var("n", INT)


@settings(max_examples=80, deadline=None)
@given(st.integers(-40_000, 0), st.integers(20_001, 60_000), st.integers(-12, 12), st.integers(0, 3),
       st.integers(-3, 3), st.integers(0, 11), st.booleans(), st.sampled_from(["mod", "dvd", "gcd"]))
def test_periodic_sets_agree_with_counting_one_by_one(lo, length, c, a, b, r, over_int, kind):
    """``card {n. lo ≤ n ≤ hi ∧ (a·n² + n + b) mod c = r}`` (or ``c ∣ a·n² + n + b``, or
    ``gcd (a·n² + n + b) c = r``) over an interval longer than the evaluator tests one by
    one: the count from one period equals Python's count with the same rounding (ℕ's %,
    Isabelle's floor mod — Python's %; gcd ≥ 0)."""
    v = N_INT if over_int else N_NAT
    sort = v.sort
    if not over_int:
        lo, b, c = max(lo, 0), abs(b), abs(c)
    hi = lo + length
    poly = app("add", app("add", app("mul", num(a, sort), app("pow", v, num(2, provers.ir.NAT))), v), num(b, sort))
    if kind == "dvd":
        cond = app("dvd", num(c, sort), poly)
    elif kind == "gcd":
        cond = app("eq", app("gcd", poly, num(c, sort)), num(r, sort))
    else:
        cond = app("eq", app("fmod" if over_int else "mod", poly, num(c, sort)), num(r, sort))
    body = and_(app("le", num(lo, sort), v), app("le", v, num(hi, sort)), cond)
    got = evaluate(app("card", provers.ir.SetBuilder(v, body)), {})

    def holds(x: int) -> bool:
        p = a * x * x + x + b
        if kind == "dvd":
            return p % c == 0
        if kind == "gcd":
            return math.gcd(p, c) == r
        return p % c == r

    if c == 0:  # x mod 0 = x, 0 ∣ x iff x = 0, gcd x 0 = |x|: not periodic, left to the rest
        return
    assert got == sum(1 for x in range(lo, hi + 1) if holds(x))


def test_five_digit_multiples_of_seven_are_counted():
    """``card {n :: nat. 10000 ≤ n ∧ n ≤ 99999 ∧ 7 dvd n}`` has 90 000 numbers to test, more
    than ``MAX_DOMAIN``: it was "not a known finite set"; one period of 7 decides it."""
    s = provers.parse('theorem shows "card {n::nat. 10000 \\<le> n \\<and> n \\<le> 99999 \\<and> 7 dvd n '
                      '\\<and> n \\<noteq> 14000} = 12856"', "isabelle")
    assert evaluate(s.conclusion, {}) is True
    assert sum(1 for n in range(10000, 100000) if n % 7 == 0 and n != 14000) == 12856


def test_a_divisor_that_depends_on_the_variable_is_not_periodic():
    """``(60 + n) mod n`` reads n outside the argument: no period, left to the rest."""
    from provers.semantics.order_bounds import periodic_interval

    body = and_(app("le", num(1, INT), N_INT), app("le", N_INT, num(90_000, INT)),
                app("eq", app("fmod", app("add", num(60, INT), N_INT), N_INT), num(0, INT)))
    assert periodic_interval(N_INT, body, lambda t: None) is None


X = Var("x", REAL)


@settings(max_examples=150, deadline=None)
@given(st.fractions(min_value=-40, max_value=40, max_denominator=6), st.fractions(min_value=0, max_value=60, max_denominator=6),
       st.sampled_from(["Icc", "Ico", "Ioc", "Ioo", "order"]), st.booleans())
def test_the_integers_between_two_real_bounds_are_counted(lo, width, kind, floor_form):
    """``card {x :: real. x ∈ {lo..hi} ∧ x ∈ ℤ}`` (each interval kind, or order atoms) is the
    number of integers there, counted one by one; ``x ∈ ℤ`` is ``↑⌊x⌋ = x``."""
    hi = lo + width
    integral = app("eq", cast(app("floor", X), REAL), X) if floor_form else app("eq", X, cast(app("floor", X), REAL))
    if kind == "order":
        bounds = and_(app("le", num(lo, REAL), X), app("lt", X, num(hi, REAL)))
        low_open, high_open = False, True
    else:
        bounds = app("mem", X, app(kind, num(lo, REAL), num(hi, REAL)))
        low_open, high_open = kind in ("Ioc", "Ioo"), kind in ("Ico", "Ioo")
    got = evaluate(app("card", SetBuilder(X, and_(bounds, integral))), {})
    expected = sum(1 for n in range(math.floor(lo) - 1, math.ceil(hi) + 2)
                   if (lo < n if low_open else lo <= n) and (n < hi if high_open else n <= hi))
    assert got == expected


def test_the_integers_between_seventeen_thirds_and_its_square():
    """``counting_and_probability/problem_486``'s candidate 7: ``{x. x ∈ {17/3..(17/3)²} ∧ x ∈
    ℤ}`` has the 27 integers 6 … 32; it was "not a known finite set"."""
    s = provers.parse('theorem shows "card {x::real. x \\<in> {17/3..(17/3)^2} \\<and> x \\<in> \\<int>} = 27"',
                      "isabelle")
    assert evaluate(s.conclusion, {}) is True
    assert Fraction(17, 3) ** 2 < 33


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 30), st.integers(1, 60))
def test_powers_dividing_a_number_are_bounded_by_its_logarithm(b, m):
    """``{n | bⁿ ∣ m!}`` is finite (bⁿ ≤ m!): its greatest element is computed exactly, and
    ``IsGreatest`` at it is true, one more false (FormalAlign mathd_numbertheory_43: 15ⁿ ∣ 942!
    against 945!, where the greatest is 233 and 234)."""
    fact = math.factorial(m)
    greatest = max(n for n in range(0, 400) if fact % b ** n == 0)
    for claimed, expected in ((greatest, True), (greatest + 1, False), (greatest - 1, False)):
        if claimed < 0:
            continue
        nf = normalize(provers.parse(
            f"theorem t : IsGreatest {{n : ℕ | {b}^n ∣ {m}! }} {claimed} := sorry", "lean4"))
        assert evaluate(nf.conclusion, {}) is expected, (b, m, claimed)


def test_the_power_of_fifteen_in_942_factorial():
    for m, answer in ((942, True), (945, False)):
        nf = normalize(provers.parse(
            f"theorem t : IsGreatest {{n : ℕ | 15^n ∣ {m}! }} 233 := sorry", "lean4"))
        assert evaluate(nf.conclusion, {}) is answer


@settings(max_examples=80, deadline=None)
@given(st.sampled_from([None, -30, 0, 7]), st.sampled_from([None, -5, 40]), st.integers(1, 12), st.integers(-3, 3),
       st.integers(0, 11), st.booleans(), st.sampled_from(["mod", "dvd"]))
def test_periodic_sets_unbounded_on_a_side_are_infinite_or_empty(lo, hi, c, a, r, over_int, kind):
    """``{n. lo ≤ n ∧ (a·n² + n) mod c = r}`` with a side unbounded: infinite (a
    ``PredSet``; Isabelle's card is then 0) exactly when some residue of one period holds it,
    else empty — counted against Python over a window of 2c numbers at the open end."""
    v = N_INT if over_int else N_NAT
    sort = v.sort
    if not over_int:
        lo, a = None if lo is None else max(lo, 0), abs(a)
    if lo is not None and hi is not None:
        hi = None  # a bounded interval is the other test's
    floor = lo if lo is not None else (0 if not over_int else None)
    if hi is not None and floor is not None:  # ℕ below hi: a finite interval, the other test's
        return
    poly = app("add", app("mul", num(a, sort), app("pow", v, num(2, provers.ir.NAT))), v)
    cond = app("dvd", num(c, sort), poly) if kind == "dvd" else \
        app("eq", app("fmod" if over_int else "mod", poly, num(c, sort)), num(r, sort))
    orders = ([app("le", num(lo, sort), v)] if lo is not None else []) + \
        ([app("le", v, num(hi, sort))] if hi is not None else [])
    got = evaluate(provers.ir.SetBuilder(v, and_(*orders, cond)), {})

    def holds(x: int) -> bool:
        p = a * x * x + x
        return p % c == 0 if kind == "dvd" else p % c == r

    window = range(hi - 2 * c + 1, hi + 1) if hi is not None and floor is None else \
        range(floor if floor is not None else -c, (floor if floor is not None else -c) + 2 * c)
    if any(holds(x) for x in window):
        assert isinstance(got, PredSet) and got.infinite is True
        assert evaluate(app("card", provers.ir.SetBuilder(v, and_(*orders, cond))), {}) == 0
    else:
        assert got == frozenset()


def test_days_with_a_given_last_digit_are_infinitely_many_integers():
    """``card {d :: int. d mod 10 = 3}`` (``number_theory/problem_827``) is Isabelle's card
    of an infinite set, 0: it was "not a known finite set", and its pair undecided."""
    s = provers.parse('theorem shows "card {d :: int. d mod 10 = 3} = 0"', "isabelle")
    assert evaluate(s.conclusion, {}) is True


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([None, -20, 0, 1001]), st.sampled_from([None, -3, 121]), st.integers(1, 12), st.integers(-3, 3),
       st.integers(0, 11), st.booleans(), st.booleans(), st.booleans())
def test_quantifiers_over_a_periodic_condition_agree_with_one_period(lo, hi, c, a, r, over_int, universal, equal):
    """``∀z. lo < z ∧ z < hi → (a·z + z²) mod c ≠ r`` (``∃z. … ∧ … = r``), unbounded on a side
    or both: decided by one period of c, which Python counts over a window of 2c at the open
    end (or the whole interval) — ``∀z. z > x → z mod 11 ≠ 0`` is false at every x."""
    v = N_INT if over_int else N_NAT
    sort = v.sort
    if not over_int:
        lo, hi, a = None if lo is None else max(lo, 0), None if hi is None else max(hi, 0), abs(a)
    poly = app("add", app("mul", num(a, sort), v), app("pow", v, num(2, provers.ir.NAT)))
    rem = app("fmod" if over_int else "mod", poly, num(c, sort))
    atom = app("eq" if equal else "ne", rem, num(r, sort))
    guards = ([app("lt", num(lo, sort), v)] if lo is not None else []) + \
        ([app("lt", v, num(hi, sort))] if hi is not None else [])
    if universal:
        q = provers.ir.Quant("forall", (v,), app("implies", and_(*guards), atom) if guards else atom)
    else:
        q = provers.ir.Quant("exists", (v,), and_(*guards, atom))

    def holds(x: int) -> bool:
        return ((a * x + x * x) % c == r) == equal

    start = lo + 1 if lo is not None else (0 if not over_int else None)
    if start is not None and hi is not None:
        xs = range(start, hi)
    elif start is not None:
        xs = range(start, start + 2 * c)
    elif hi is not None:
        xs = range(hi - 2 * c, hi)
    else:
        xs = range(-c, c)
    expected = all(holds(x) for x in xs) if universal else any(holds(x) for x in xs)
    assert evaluate(q, {}) is expected
