"""A binder equated to a term under a nested quantifier (``pull_equated_binder``) and the
bound a product guard gives a factor (``v · u < w`` with u ≥ 1): "every factorization below
n" read exactly instead of "∀ over an unbounded domain"."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.ir import INT, NAT, Num, Quant, Var, app
from provers.semantics import truth
from provers.semantics.domains import bound_domain, pull_equated_binder

SMALLEST = '''theorem
fixes n :: nat
assumes h2 : "\\<forall> m < n. \\<forall> c d. m = c * d \\<and> c > 1 \\<and> d > 1 \\<and> c \\<noteq> d
  \\<and> abs(c - d) = 10 \\<longrightarrow> n \\<le> m"
shows "n = 24"'''


def test_the_smallest_factorization_premise_of_prealgebra_1441_is_decided():
    # ∀ m < n (over ℤ: unbounded below). ∀ c d. m = c·d ∧ c, d > 1 ∧ |c − d| = 10 → n ≤ m:
    # true up to n = 24 = 2 · 12, false from 25 on (m = 24 is such a product below n)
    premise = provers.parse(SMALLEST, "isabelle").hypotheses[0].formula
    assert [truth(premise, {"n": n}) for n in (0, 7, 24, 25, 200)] == [True, True, True, False, False]


def test_the_pulled_quantifier_binds_the_inner_variables_and_drops_the_equated_one():
    m, c, d, n = Var("m", INT), Var("c", INT), Var("d", INT), Var("n", INT)
    inner = Quant("forall", (c, d), app("implies", app("and", app("eq", m, app("mul", c, d)), app("gt", c, Num(1, INT))),
                                        app("le", n, m)))
    pulled = pull_equated_binder(Quant("forall", (m,), app("implies", app("lt", m, n), inner)))
    assert isinstance(pulled, Quant) and pulled.vars == (c, d)
    assert m not in {v for v in _vars(pulled)}


def test_an_inner_variable_named_like_a_free_one_is_renamed_not_captured():
    # ∀m. m < c → ∀c. m = 2·c → P c m: the inner c is not the free c of the guard
    m, c = Var("m", INT), Var("c", INT)
    p = Var("p", INT)
    t = Quant("forall", (m,), app("implies", app("lt", m, c),
                                  Quant("forall", (c,), app("implies", app("eq", m, app("mul", Num(2, INT), c)),
                                                            app("ne", app("add", c, m), p)))))
    pulled = pull_equated_binder(t)
    assert pulled is not None and isinstance(pulled, Quant)
    (fresh,) = pulled.vars
    assert fresh.name != "c"
    for cv, pv in itertools.product(range(-4, 5), range(-6, 7)):
        env = {"c": cv, "p": pv}
        # brute force of the original over a box wide enough for its witnesses
        expected = all(not (mv < cv) or all(not (mv == 2 * k) or k + mv != pv for k in range(-20, 21))
                       for mv in range(-40, 41))
        assert truth(pulled, env) in (expected, None)


def test_an_existential_is_pulled_the_same_way():
    # ∃m. m > 5 ∧ ∃k. m = 3·k ∧ k < 4: m = 6 or 9 (k = 2, 3)
    m, k = Var("m", NAT), Var("k", NAT)
    t = Quant("exists", (m,), app("and", app("gt", m, Num(5, NAT)),
                                  Quant("exists", (k,), app("and", app("eq", m, app("mul", Num(3, NAT), k)),
                                                            app("lt", k, Num(4, NAT))))))
    pulled = pull_equated_binder(t)
    assert pulled is not None and truth(pulled, {}) is True and truth(t, {}) is True


def test_a_product_of_naturals_below_zero_leaves_nothing_to_check():
    # ∀x y : ℕ. x·y < n → y − x ≠ 10 at n = 0 holds (no x·y < 0), at n = 1 fails (0, 10)
    x, y, n = Var("x", NAT), Var("y", NAT), Var("n", NAT)
    t = Quant("forall", (x, y), app("implies", app("lt", app("mul", x, y), n),
                                    app("ne", app("sub", y, x), Num(10, NAT))))
    assert truth(t, {"n": 0}) is True
    assert truth(t, {"n": 1}) is False


def test_nothing_is_pulled_without_an_equation_on_an_outer_binder():
    m, c = Var("m", INT), Var("c", INT)
    t = Quant("forall", (m,), app("implies", app("lt", m, Num(3, INT)),
                                  Quant("forall", (c,), app("implies", app("eq", c, Num(2, INT)), app("le", m, c)))))
    assert pull_equated_binder(t) is None


@settings(max_examples=150, deadline=None)
@given(n=st.integers(-5, 60), low_c=st.integers(-2, 3), low_d=st.integers(1, 4), diff=st.integers(0, 12))
def test_every_factorization_below_n_agrees_with_brute_force(n, low_c, low_d, diff):
    # ∀m < n. ∀c d. m = c·d ∧ c > low_c ∧ d ≥ low_d ∧ d − c = diff → n ≤ m, over ℤ; with
    # low_c ≥ 0 the products are bounded and the evaluator must decide it, and agree
    m, c, d, nv = Var("m", INT), Var("c", INT), Var("d", INT), Var("n", INT)
    guard = app("and", app("eq", m, app("mul", c, d)), app("gt", c, Num(low_c, INT)), app("ge", d, Num(low_d, INT)),
                app("eq", app("sub", d, c), Num(diff, INT)))
    t = Quant("forall", (m,), app("implies", app("lt", m, nv), Quant("forall", (c, d), app("implies", guard, app("le", nv, m)))))
    got = truth(t, {"n": n})
    box = range(-70, 71)
    expected = all(not (cv * dv < n and cv > low_c and dv >= low_d and dv - cv == diff) or n <= cv * dv
                   for cv in box for dv in box)
    if low_c >= 0:
        assert got is expected
    else:
        assert got in (expected, None)


@settings(max_examples=200, deadline=None)
@given(w=st.integers(-10, 80), low_u=st.integers(0, 5), low_v=st.integers(0, 4), strict=st.booleans())
def test_a_product_guard_bounds_a_factor_soundly(w, low_u, low_v, strict):
    # every v ≥ low_v with some u ≥ low_u and v·u < w (≤ w) lies in the domain found; a
    # factor ≥ 1 always bounds v, a factor ≥ 0 only when the product must be negative
    v, u = Var("v", INT), Var("u", INT)
    guards = [app("lt" if strict else "le", app("mul", v, u), Num(w, INT)),
              app("ge", v, Num(low_v, INT)), app("ge", u, Num(low_u, INT))]
    dom = bound_domain(v, guards, frozenset({u}), lambda e: e.value if isinstance(e, Num) else None)
    if low_u == 0 and (w > 0 if strict else w >= 0):
        return  # v·0 < w for every v: nothing bounds v
    assert dom is not None
    members = set(dom)
    for vv in range(low_v, 90):
        if any((vv * uu < w if strict else vv * uu <= w) for uu in range(low_u, 90)):
            assert vv in members


def _vars(t):
    from provers.ir import subterms

    return [s for s in subterms(t) if isinstance(s, Var)]


def test_an_inner_binder_that_shadows_the_outer_one_is_not_pulled():
    # ∀m. m < 3 → ∀m. m = 5 → m > 4: the inner equation is about the inner m (true for every
    # outer m); reading it as the outer m's would make the statement "5 < 3 → …"
    m = Var("m", INT)
    t = Quant("forall", (m,), app("implies", app("lt", m, Num(3, INT)),
                                  Quant("forall", (m,), app("implies", app("eq", m, Num(5, INT)), app("gt", m, Num(4, INT))))))
    assert pull_equated_binder(t) is None
    assert truth(t, {}) in (True, None)
