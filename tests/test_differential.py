"""Differential property tests: z3, cvc5 and the exact evaluator never contradict each other.

Random formulas over the decidable fragment (linear and polynomial integer / real arithmetic
with Lean and Isabelle division and modulo, truncated subtraction, casts, floor, powers with
the lowering's sign facts). For each:
- a solver's Proved means no sampled assignment makes the formula exactly False;
- a Refuted model is re-checked here: the formula is exactly False under it;
- z3 and cvc5 never answer Proved and Refuted on the same formula.
"""

from fractions import Fraction

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provers.backends.base import Proved, Refuted
from provers.backends.smt import solve
from provers.ir import INT, NAT, REAL, Var, app, cast, forall_, free_vars, num
from provers.semantics import sample_assignments, truth

N_VARS = [Var("n", NAT), Var("m", NAT)]
I_VARS = [Var("i", INT), Var("j", INT)]
R_VARS = [Var("x", REAL), Var("y", REAL)]


def nat_terms(depth):
    leaf = st.one_of(st.sampled_from(N_VARS), st.integers(0, 6).map(lambda v: num(v, NAT)))
    if depth == 0:
        return leaf
    sub = nat_terms(depth - 1)
    lit = st.integers(0, 4).map(lambda v: num(v, NAT))
    return st.one_of(
        leaf,
        st.tuples(st.sampled_from(["add", "sub"]), sub, sub).map(lambda t: app(t[0], t[1], t[2])),
        st.tuples(st.sampled_from(["mul", "div", "mod"]), sub, lit).map(lambda t: app(t[0], t[1], t[2])),
        st.tuples(st.sampled_from(["div", "mod"]), sub, sub).map(lambda t: app(t[0], t[1], t[2])),
        int_terms(depth - 1).map(lambda t: app("to_nat", t)),
    )


def int_terms(depth):
    leaf = st.one_of(st.sampled_from(I_VARS), st.integers(-6, 6).map(lambda v: num(v, INT)))
    if depth == 0:
        return leaf
    sub = int_terms(depth - 1)
    lit = st.integers(-4, 4).map(lambda v: num(v, INT))
    return st.one_of(
        leaf,
        st.tuples(st.sampled_from(["add", "sub", "min", "max"]), sub, sub).map(lambda t: app(t[0], t[1], t[2])),
        st.tuples(st.sampled_from(["mul", "ediv", "emod", "fdiv", "fmod"]), sub, lit).map(lambda t: app(t[0], t[1], t[2])),
        st.tuples(st.sampled_from(["ediv", "emod", "fdiv", "fmod"]), sub, sub).map(lambda t: app(t[0], t[1], t[2])),
        sub.map(lambda t: app("abs", t)),
        st.tuples(sub, st.integers(2, 3)).map(lambda t: app("pow", t[0], num(t[1], NAT))),
        nat_terms(depth - 1).map(lambda t: cast(t, INT)),
        real_terms(depth - 1).map(lambda t: app("floor", t)),
    )


def real_terms(depth):
    leaf = st.one_of(
        st.sampled_from(R_VARS),
        st.fractions(min_value=-5, max_value=5, max_denominator=4).map(lambda v: num(v, REAL)),
    )
    if depth == 0:
        return leaf
    sub = real_terms(depth - 1)
    return st.one_of(
        leaf,
        st.tuples(st.sampled_from(["add", "sub", "mul", "div"]), sub, sub).map(lambda t: app(t[0], t[1], t[2])),
        int_terms(depth - 1).map(lambda t: cast(t, REAL)),
        sub.map(lambda t: app("abs", t)),
        st.tuples(sub, st.integers(2, 3)).map(lambda t: app("pow", t[0], num(t[1], NAT))),
    )


def atoms(depth):
    rel = st.sampled_from(["eq", "ne", "lt", "le", "gt", "ge"])
    return st.one_of(
        st.tuples(rel, nat_terms(depth), nat_terms(depth)),
        st.tuples(rel, int_terms(depth), int_terms(depth)),
        st.tuples(rel, real_terms(depth), real_terms(depth)),
    ).map(lambda t: app(t[0], t[1], t[2]))


def formulas():
    a = atoms(2)
    return st.one_of(
        a,
        st.tuples(st.sampled_from(["and", "or", "implies", "iff"]), a, a).map(lambda t: app(t[0], t[1], t[2])),
        a.map(lambda t: app("not", t)),
    )


def _check(phi):
    vs = sorted(free_vars(phi), key=lambda v: v.name)
    closed = forall_(vs, phi)
    samples = sample_assignments(vs, 24, seed=7) + [
        {v.name: (Fraction(3, 2) if v.sort == REAL else 3) for v in vs},
        {v.name: (Fraction(-7, 3) if v.sort == REAL else (-7 if v.sort == INT else 7)) for v in vs},
    ]
    falsified = [s for s in samples if truth(phi, s) is False]
    verdicts = {}
    for solver in ("z3", "cvc5"):
        r = solve(solver, closed, 2.0)
        verdicts[solver] = r
        if isinstance(r, Proved):
            assert not falsified, (solver, "proved a formula false at", falsified[0], phi)
        if isinstance(r, Refuted):
            assert truth(phi, r.model) is False, (solver, r.model, phi)
    kinds = {type(r) for r in verdicts.values()}
    assert not (Proved in kinds and Refuted in kinds), (verdicts, phi)


@settings(max_examples=int(__import__('os').environ.get('DIFF_EXAMPLES', '120')), deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(formulas())
def test_solvers_and_evaluator_agree_on_random_formulas(phi):
    _check(phi)


def test_known_tricky_cases():
    n, i, j, x = N_VARS[0], I_VARS[0], I_VARS[1], R_VARS[0]
    cases = [
        app("eq", app("add", app("sub", n, num(3, NAT)), num(3, NAT)), n),  # false at n < 3
        app("eq", app("ediv", i, j), app("fdiv", i, j)),  # differ for negative divisors
        app("implies", app("ne", j, num(0, INT)), app("ge", app("emod", i, j), num(0, INT))),  # Lean: r >= 0
        app("ge", app("emod", i, j), num(0, INT)),  # ... except i % 0 = i
        app("le", app("fmod", i, num(-2, INT)), num(0, INT)),
        app("eq", app("mul", app("div", x, x), x), x),  # holds also at x = 0
        app("eq", app("div", x, x), num(1, REAL)),  # false at x = 0
    ]
    for phi in cases:
        _check(phi)
    assert isinstance(solve("z3", forall_([i, j], cases[2]), 5.0), Proved)
    r = solve("z3", forall_([i, j], cases[3]), 5.0)
    assert isinstance(r, Refuted) and r.model["j"] == 0 and r.model["i"] < 0
    assert isinstance(solve("cvc5", forall_([x], cases[5]), 5.0), Proved)
    assert isinstance(solve("z3", forall_([x], cases[6]), 5.0), Refuted)
