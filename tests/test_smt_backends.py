"""Backends answer within a hard bound whatever the solvers do, and their models validate."""

import os
import threading
import time

import pytest

from provers.backends.base import Proved, Refuted, Unknown
from provers.backends.cache import VerdictCache
from provers.backends.smt import Cvc5Backend, Portfolio, WorkerPool, Z3Backend
from provers.ir import INT, NAT, REAL, BigOp, FunSort, Quant, Var, app, cast, forall_, implies, num
from provers.semantics import truth

x, y = Var("x", REAL), Var("y", REAL)
n, m = Var("n", NAT), Var("m", NAT)
a, b, c = Var("a", INT), Var("b", INT), Var("c", INT)


@pytest.fixture(scope="module")
def pool():
    p = WorkerPool(max_workers=4, memory_mb=4096)
    yield p
    p.close()


def _body(f):
    while isinstance(f, Quant) and f.kind == "forall":
        f = f.body
    return f


def fermat3():
    """x³ + y³ ≠ z³ over positive integers: true, and beyond both solvers."""
    pos = app("and", app("lt", num(0, INT), a), app("lt", num(0, INT), b), app("lt", num(0, INT), c))
    cube = lambda t: app("pow", t, num(3, NAT))  # noqa: E731
    return forall_([a, b, c], implies(pos, app("ne", app("add", cube(a), cube(b)), cube(c))))


@pytest.mark.parametrize("backend_cls", [Z3Backend, Cvc5Backend, Portfolio])
def test_backends_prove_and_refute_with_validated_models(pool, backend_cls):
    be = backend_cls(pool=pool)
    valid = forall_([x], implies(app("gt", x, num(1, REAL)), app("gt", app("mul", x, x), x)))
    assert isinstance(be.prove(valid, 5.0), Proved)
    invalid = forall_([n, m], app("eq", app("add", app("sub", n, m), m), n))
    r = be.prove(invalid, 5.0)
    assert isinstance(r, Refuted)
    assert set(r.model) == {"n", "m"} and r.model["n"] < r.model["m"]
    assert truth(_body(invalid), r.model) is False


def test_function_variables_come_back_as_tables(pool):
    f = Var("f", FunSort((INT,), INT))
    claim = forall_([f, a], app("eq", app("apply", f, a), app("apply", f, num(0, INT))))
    r = Z3Backend(pool=pool).prove(claim, 5.0)
    assert isinstance(r, Refuted)
    assert truth(_body(claim), r.model) is False


def test_hard_nonlinear_instance_is_unknown_within_its_bound(pool):
    t0 = time.monotonic()
    r = Portfolio(pool=pool, use_cache=False).prove(fermat3(), timeout=1.0)
    assert isinstance(r, Unknown)
    assert time.monotonic() - t0 < 30  # generous sanity bound: the call returned


def test_a_worker_that_overruns_its_hard_limit_is_killed_and_replaced(pool):
    before = pool.restarts
    res = pool.run([("z3", fermat3(), 60.0)], hard_limit=1.0)
    assert isinstance(res[0], Unknown) and "killed" in res[0].reason
    assert pool.restarts == before + 1
    assert isinstance(Z3Backend(pool=pool).prove(forall_([x], app("ge", app("mul", x, x), num(0, REAL))), 5.0), Proved)


def test_batch_of_100_survives_a_crashing_solver(pool):
    be = Z3Backend(pool=pool, use_cache=False)
    obligations = []
    for k in range(100):
        if k == 37:
            obligations.append(fermat3())
        else:
            obligations.append(forall_([n], app("lt", n, app("add", n, num(k + 1, NAT)))))
    stop = threading.Event()

    def killer():
        # kill the worker while it is stuck on obligation 37 (a solver crash)
        while not stop.is_set():
            for w in list(pool.workers):
                if w.job is not None and 9.6 < w.deadline - time.monotonic() < 16:  # the 10 s job, 1 s in
                    os.kill(w.proc.pid, 9)
                    return
            time.sleep(0.05)

    th = threading.Thread(target=killer, daemon=True)
    th.start()
    results = []
    for k, ob in enumerate(obligations):
        results.append(be.prove(ob, timeout=10.0 if k == 37 else 5.0))
    stop.set()
    th.join(timeout=5)
    assert len(results) == 100
    assert isinstance(results[37], Unknown)
    assert "crashed" in results[37].reason or "killed" in results[37].reason
    assert all(isinstance(r, Proved) for k, r in enumerate(results) if k != 37)


def test_cache_makes_repeats_free_and_renames_models(pool, tmp_path):
    cache = VerdictCache(tmp_path / "v.sqlite")
    be = Portfolio(pool=pool, cache=cache)
    claim = forall_([n, m], app("eq", app("add", app("sub", n, m), m), n))
    r1 = be.prove(claim, 5.0)
    assert isinstance(r1, Refuted)
    hits = cache.hits
    p, q = Var("p", NAT), Var("q", NAT)
    renamed = forall_([p, q], app("eq", app("add", app("sub", p, q), q), p))
    r2 = be.prove(renamed, 5.0)
    assert cache.hits == hits + 1
    assert isinstance(r2, Refuted) and set(r2.model) == {"p", "q"}
    assert truth(_body(renamed), r2.model) is False
    again = VerdictCache(tmp_path / "v.sqlite")  # persisted on disk
    assert isinstance(again.get(renamed, "portfolio", 5.0), Refuted)


def test_non_formulas_and_unsupported_terms_are_unknown(pool):
    be = Portfolio(pool=pool)
    assert isinstance(be.prove(num(1, INT), 1.0), Unknown)
    out = be.prove_many([forall_([x], app("eq", cast(num(1, NAT), REAL), num(1, REAL))), "junk"], 2.0)
    assert isinstance(out[0], Proved) and isinstance(out[1], Unknown)


def test_portfolio_on_a_one_worker_pool_runs_solvers_in_turn():
    small = WorkerPool(max_workers=1)
    try:
        be = Portfolio(pool=small, use_cache=False)
        assert isinstance(be.prove(forall_([x], app("ge", app("mul", x, x), num(0, REAL))), 5.0), Proved)
        assert isinstance(be.prove(forall_([n], app("gt", n, num(0, NAT))), 5.0), Refuted)
        assert len(small.workers) == 1
    finally:
        small.close()


def test_module_level_prove_uses_shared_backends():
    from provers.backends.smt import prove

    claim = forall_([x], app("ge", app("abs", x), num(0, REAL)))
    assert isinstance(prove(claim, 5.0), Proved)
    assert isinstance(prove(claim, 5.0, backend="cvc5"), Proved)
    with pytest.raises(ValueError):
        prove(claim, 1.0, backend="vampire")


def test_each_z3_obligation_starts_from_a_fresh_context():
    """z3's answer within a time limit depends on what its context already holds: one
    long-lived context made a GTED verdict (numbertheory_notequiv2i2jasqbsqdiv8, logical)
    depend on the 29 pairs checked before it. Every obligation gets its own context."""
    import z3

    from provers.backends.smt.solve import solve

    x = Var("x", INT)
    ob = forall_([x], implies(app("lt", num(1, INT), x), app("lt", num(0, INT), x)))
    assert isinstance(solve("z3", ob, 5.0), Proved)
    first = z3.main_ctx()
    assert isinstance(solve("z3", ob, 5.0), Proved)
    assert z3.main_ctx() is not first


def test_a_z3_context_made_ahead_serves_exactly_one_obligation():
    """A worker makes the next obligation's context after answering (``fresh_z3_context``
    with ``ahead``): the next obligation takes that context, and the one after it a new one
    (one context per obligation still)."""
    import z3

    from provers.backends.smt.emit import fresh_z3_context
    from provers.backends.smt.solve import solve

    x = Var("x", INT)
    ob = forall_([x], implies(app("lt", num(1, INT), x), app("lt", num(0, INT), x)))
    fresh_z3_context(ahead=True)
    made = z3.main_ctx()
    assert isinstance(solve("z3", ob, 5.0), Proved)
    assert z3.main_ctx() is made
    assert isinstance(solve("z3", ob, 5.0), Proved)
    assert z3.main_ctx() is not made


def test_a_sum_of_an_unknown_nat_function_has_a_model_with_nat_values(pool):
    """``∑ i ∈ {490..751}, f i = 516`` over f : ℕ → ℕ (intermediate_algebra/problem_687 #7):
    the global ``∀a ≥ 0, f a ≥ 0`` made z3 time out on this satisfiable question; without a
    binder each application's own fact suffices, and the model's table is ℕ-valued."""
    f = Var("f", FunSort((NAT,), NAT))
    i = Var("i", NAT)
    total = BigOp("sum", i, app("Icc", num(490, NAT), num(751, NAT)), app("apply", f, i))
    claim = forall_([f], app("ne", total, num(516, NAT)))
    r = Z3Backend(pool=pool).prove(claim, 5.0)
    assert isinstance(r, Refuted), r
    table = r.model["f"]
    assert sum(table(k) for k in range(490, 752)) == 516
    assert all(v >= 0 for v in [*table.entries.values(), table.default])
    assert truth(_body(claim), r.model) is False


def test_an_assumed_forall_is_also_stated_at_the_obligations_ground_terms(pool):
    """``∀x. x · f x = k`` beside ``f 1500 = 15`` is contradictory at x = 0, a point no term of the
    formula applies f to (algebra/problem_1332 #4: its vacuity test timed out); stated at the
    obligation's numerals and variables as well, the premise is refuted at once. An assumed ∀
    implies its instances: where the premises are consistent nothing changes."""
    f = Var("f", FunSort((REAL,), REAL))
    k = Var("k", REAL)
    xr = Var("x", REAL)
    law = Quant("forall", (xr,), app("eq", app("mul", xr, app("apply", f, xr)), k))
    contradictory = forall_([f, k], app("not", app("and", app("eq", app("apply", f, num(1500, REAL)), num(15, REAL)), law)))
    assert isinstance(Z3Backend(pool=pool).prove(contradictory, 5.0), Proved)
    consistent = forall_([f, k], app("not", app("and", app("eq", app("apply", f, num(1500, REAL)), num(0, REAL)), law)))
    assert not isinstance(Z3Backend(pool=pool).prove(consistent, 5.0), Proved)  # k = 0, f = 0 is a model
