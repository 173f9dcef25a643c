"""Alignments: admissible bijections, ranked by cost, enumerated exhaustively or cut by budget."""

import itertools
import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from provers.engine.align import alignments, drop_unused, murty
from provers.engine.normal import normalize
from provers.ir import INT, NAT, REAL, Hypothesis, Statement, Var, VarBinder, app, num


def nf(vs, hyps, concl):
    return normalize(Statement(tuple(VarBinder(v) for v in vs) + tuple(Hypothesis(None, h) for h in hyps), concl))


def test_best_alignment_follows_roles_not_only_names():
    x, y = Var("x", REAL), Var("y", REAL)
    a, b = Var("a", REAL), Var("b", REAL)
    A = nf([x, y], [app("eq", y, app("mul", num(2, REAL), x))], app("lt", x, num(1, REAL)))
    B = nf([b, a], [app("eq", b, app("mul", num(2, REAL), a))], app("lt", a, num(1, REAL)))
    al = alignments(A, B)
    assert al.exhaustive and al.total == 2
    assert dict(al.items[0].names()) == {"x": "a", "y": "b"}
    assert al.items[0].cost <= al.items[1].cost


def test_sorts_are_preserved_and_mismatches_are_structural():
    x, n = Var("x", REAL), Var("n", NAT)
    A = nf([x, n], [], app("lt", x, x))
    B = nf([Var("y", REAL), Var("m", INT)], [], app("lt", Var("y", REAL), Var("y", REAL)))
    al = alignments(A, B)
    assert not al.items and "sorts differ" in al.failure
    C = nf([Var("y", REAL)], [], app("lt", Var("y", REAL), Var("y", REAL)))
    assert "numbers of variables" in alignments(A, C).failure
    for it in alignments(A, nf([Var("m", NAT), Var("y", REAL)], [], A.conclusion)).items:
        assert all(p.sort == q.sort for p, q in it.pairs)


def test_budget_cuts_enumeration_and_says_so():
    vs = [Var(f"x{i}", REAL) for i in range(5)]
    ws = [Var(f"y{i}", REAL) for i in range(5)]
    concl = app("lt", vs[0], vs[1])
    A = nf(vs, [], concl)
    B = nf(ws, [], app("lt", ws[0], ws[1]))
    cut = alignments(A, B, budget=10)
    assert len(cut.items) == 10 and not cut.exhaustive and cut.total == 120
    full = alignments(A, B, budget=200)
    assert full.exhaustive and len(full.items) == 120
    assert len({it.pairs for it in full.items}) == 120


def test_unused_variables_can_be_dropped():
    x, z = Var("x", REAL), Var("z", REAL)
    A = nf([x, z], [], app("lt", x, num(1, REAL)))
    assert drop_unused(A).variables == (x,)


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 5), st.integers(0, 10**6))
def test_murty_enumerates_assignments_in_cost_order(n, seed):
    rng = np.random.default_rng(seed)
    cost = rng.integers(0, 10, size=(n, n)).astype(float)
    got = murty(cost, math.factorial(n) + 3)
    assert len(got) == math.factorial(n)
    assert len({p for _, p in got}) == len(got)
    totals = [c for c, _ in got]
    assert totals == sorted(totals)
    brute = sorted(sum(cost[i, p[i]] for i in range(n)) for p in itertools.permutations(range(n)))
    assert np.allclose(totals, brute)
