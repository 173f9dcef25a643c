"""The portfolio stops its losing solver at once, starts the second solver only when the first
is slow, and a hung solver still cannot hang a call (real z3 and cvc5 worker processes)."""

import os
import signal
import threading
import time

import pytest

from provers.backends.base import Proved, Unknown, settles
from provers.backends.smt import Portfolio, WorkerPool
from provers.ir import INT, NAT, REAL, ListSort, Var, app, forall_, implies, num

n = Var("n", NAT)
x = Var("x", REAL)
a, b, c = Var("a", INT), Var("b", INT), Var("c", INT)

# (n² + n) % 2 = 0: z3 proves it in milliseconds, cvc5 does not prove it within a minute
EVEN = forall_([n], app("eq", app("mod", app("add", app("mul", n, n), n), num(2, NAT)), num(0, NAT)))
EASY = forall_([x], app("ge", app("mul", x, x), num(0, REAL)))


def fermat3():
    """x³ + y³ ≠ z³ over positive integers: true, and beyond both solvers."""
    pos = app("and", app("lt", num(0, INT), a), app("lt", num(0, INT), b), app("lt", num(0, INT), c))
    cube = lambda t: app("pow", t, num(3, NAT))  # noqa: E731
    return forall_([a, b, c], implies(pos, app("ne", app("add", cube(a), cube(b)), cube(c))))


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False


@pytest.fixture
def pool():
    p = WorkerPool(max_workers=2)
    yield p
    p.close()


def _portfolio(pool: WorkerPool, stagger: float) -> Portfolio:
    be = Portfolio(pool=pool, use_cache=False)
    be.stagger = stagger
    return be


def test_the_losing_cvc5_worker_is_killed_as_soon_as_z3_proves(pool):
    be = _portfolio(pool, stagger=0.0)  # both solvers start at once
    r = be.prove(EVEN, timeout=60.0)
    assert isinstance(r, Proved) and r.backend == "z3"
    assert pool.killed_losers == 1 and pool.interrupted == 0
    (loser,) = pool.stopped_pids
    assert not _alive(loser)  # stopped now, not after its 60 s
    assert len(pool.workers) == 2 and loser not in pool.pids()  # replaced at once
    assert isinstance(be.prove(EASY, timeout=10.0), Proved)  # and the pool goes on


def test_a_losing_z3_worker_is_interrupted_and_kept(pool):
    res = pool.run([("z3", fermat3(), 60.0), ("z3", EASY, 10.0)], first_definitive=True)
    assert res[0] is None and isinstance(res[1], Proved)
    assert pool.interrupted == 1 and pool.killed_losers == 0 and pool.restarts == 0
    (w,) = [w for w in pool.workers if w.abandoned]
    msg = None
    while msg is None:  # a worker started for this call may say READY before its answer
        assert w.conn.poll(50.0)  # its 60 s check was cancelled: it answers well before
        msg = w.receive()
    job, answer = msg
    w.job, w.abandoned = None, False
    assert isinstance(answer, Unknown) and ("interrupted" in answer.reason or "canceled" in answer.reason)
    assert w.proc.is_alive()  # the same process serves the next job
    assert isinstance(pool.run([("z3", EASY, 10.0)])[0], Proved)
    assert pool.restarts == 0


def test_cheapest_first_the_second_solver_starts_only_when_the_first_is_slow(pool):
    jobs_before = next(pool.ids)
    r = _portfolio(pool, stagger=30.0).prove(EVEN, timeout=60.0)
    assert isinstance(r, Proved) and r.backend == "z3"
    assert next(pool.ids) == jobs_before + 2  # one job only: cvc5 never started
    assert pool.killed_losers == 0 and pool.interrupted == 0


def test_when_the_first_solver_gives_up_early_the_second_starts_at_once(pool):
    # z3 gives up at once on a sort it does not support; cvc5 then runs (and also gives up)
    # although the stagger is far longer: both answers are reported
    xs = Var("xs", ListSort(REAL))
    unsupported = forall_([x, xs], app("implies", app("eq", xs, xs), app("eq", x, app("add", x, x))))
    r = _portfolio(pool, stagger=600.0).prove(unsupported, timeout=1.0)
    assert isinstance(r, Unknown) and not settles(r)
    assert "z3: unsupported" in r.reason and "cvc5: unsupported" in r.reason


def test_a_first_solver_that_runs_out_the_whole_limit_before_the_stagger_ends_the_call(pool):
    # z3 runs out its 1 s on fermat3, the call's limit, before the 600 s stagger: the call is
    # over, cvc5 never starts (a call shorter than the stagger costs its limit, not 1.5 × it)
    jobs_before = next(pool.ids)
    r = _portfolio(pool, stagger=600.0).prove(fermat3(), timeout=1.0)
    assert isinstance(r, Unknown) and not r.satisfiable and not settles(r)  # no model: not settled
    assert "z3: timeout" in r.reason and "cvc5" not in r.reason
    assert next(pool.ids) == jobs_before + 2  # one job only


def test_a_hung_solver_cannot_hang_the_call(pool):
    """Fault injection: the z3 worker is frozen (SIGSTOP) mid-check, so it can neither answer
    nor be interrupted; the call still returns, and the frozen worker is killed and replaced."""
    frozen: list[int] = []

    def freeze() -> None:
        for _ in range(2000):
            busy = [w for w in pool.workers if w.job is not None and w.solver == "z3"]
            if busy:
                os.kill(busy[0].proc.pid, signal.SIGSTOP)
                frozen.append(busy[0].proc.pid)
                return
            time.sleep(0.005)

    pool.run([("z3", EASY, 5.0)])  # start the worker first
    t = threading.Thread(target=freeze)
    t.start()
    res = pool.run([("z3", fermat3(), 1.0)], hard_limit=3.0)
    t.join()
    assert frozen, "the fault was not injected"
    assert isinstance(res[0], Unknown) and "killed" in res[0].reason
    assert not _alive(frozen[0]) and frozen[0] not in pool.pids()
    assert isinstance(pool.run([("z3", EASY, 10.0)])[0], Proved)


def test_a_loser_with_little_budget_left_runs_out_instead_of_being_restarted(pool):
    """Killing costs a restart (about half a CPU second): a cvc5 loser with at most
    ``KILL_WORTH`` seconds left is left to finish; the pool collects its answer later."""
    from provers.backends.smt.pool import KILL_WORTH

    res = pool.run([("z3", EVEN, 10.0), ("cvc5", EVEN, min(1.0, KILL_WORTH))], first_definitive=True)
    assert isinstance(res[0], Proved)
    assert pool.killed_losers == 0 and pool.restarts == 0
    (w,) = [w for w in pool.workers if w.abandoned]
    assert w.solver == "cvc5" and w.proc.is_alive()
    # the next call needing both workers waits for its answer (or its hard deadline)
    assert isinstance(pool.run([("z3", EASY, 10.0), ("z3", EASY, 10.0)])[1], Proved)
    assert not any(w.abandoned for w in pool.workers)


# exp x ≠ x + 1 (false at 0): both solvers know exp only by a few facts, so z3's model puts
# exp x = x + 1 elsewhere, where the exact evaluator finds the obligation true: spurious
EXP_SPURIOUS = forall_([x], app("ne", app("exp", x), app("add", x, num(1, REAL))))


def test_a_spurious_model_settles_the_portfolio_without_the_second_solver(pool):
    """A model of the negation shows that no solver of the same encoding can prove the
    obligation: cvc5 is not asked after z3's spurious model (it only ever offered another)."""
    # cvc5 would start only if z3 had not answered within 2 s (z3's model takes ≈ 0.1 s; with
    # a 0.1 s stagger a loaded machine let cvc5 start and answer first)
    r = _portfolio(pool, stagger=2.0).prove(EXP_SPURIOUS, timeout=5.0)
    assert isinstance(r, Unknown) and r.satisfiable and settles(r)
    assert r.reason.startswith("z3: spurious model") and "cvc5" not in r.reason


def test_a_spurious_model_settles_a_pool_too_small_for_both_solvers():
    small = WorkerPool(max_workers=1)  # the solvers run one after the other
    try:
        r = Portfolio(pool=small, use_cache=False).prove(EXP_SPURIOUS, timeout=5.0)
    finally:
        small.close()
    assert isinstance(r, Unknown) and r.satisfiable and "cvc5" not in r.reason


def test_a_late_solver_gets_what_is_left_of_the_call():
    """Started after the stagger, the second solver ends with the first (a call where both give
    up costs its timeout), but never gets less than ``LATE_SHARE`` of its own timeout."""
    from provers.backends.smt.pool import LATE_SHARE, late_timeout

    assert late_timeout(0.3, 0.1) == pytest.approx(0.2)
    assert late_timeout(1.0, 0.0) == 1.0
    assert late_timeout(1.0, 0.9) == LATE_SHARE
    assert late_timeout(1.0, 5.0) == LATE_SHARE


def _answer(w):
    """The worker's next answer (job, result), past its ``READY`` and its checks' phases."""
    msg = None
    while msg is None:
        assert w.conn.poll(30)
        msg = w.receive()
    return msg


def test_a_job_sent_to_a_starting_worker_gets_the_warm_deadline_once_it_is_ready():
    """A replacement worker is cold until it says READY (its solvers imported); a job sent
    before that was given the cold grace, and READY brings its deadline down to the warm one,
    counted from READY. Before the handshake it kept the cold deadline (2 s for a 0.05 s job)."""
    from provers.backends.smt.pool import _Worker, warm_limit

    w = _Worker(1024)
    try:
        assert not w.warm
        w.job, w.timeout, w.deadline = 7, 0.05, time.monotonic() + 100.0  # as ``run`` sets them
        w.cold_deadline = True
        assert w.conn.poll(30), "the worker never said READY"
        assert w.receive() is None  # READY, not an answer
        assert w.warm
        assert w.deadline <= time.monotonic() + warm_limit(0.05)
        assert not w.cold_deadline
        w.conn.send((7, "z3", EASY, 5.0, 0))
        got, res = _answer(w)
        assert got == 7 and isinstance(res, Proved)
    finally:
        w.kill()


def test_ready_leaves_a_callers_hard_limit_alone():
    """``run(..., hard_limit=…)`` overrides the kill deadline; a worker's READY does not
    shorten it to the warm one."""
    from provers.backends.smt.pool import _Worker

    w = _Worker(1024)
    try:
        w.job, w.timeout, w.deadline = 7, 0.05, time.monotonic() + 100.0
        w.cold_deadline = False  # as ``run`` sets it when given a hard limit
        assert w.conn.poll(30), "the worker never said READY"
        assert w.receive() is None and w.warm
        assert w.deadline > time.monotonic() + 90.0
    finally:
        w.kill()


def test_a_stop_that_comes_just_before_z3s_check_still_cancels_it():
    """The flag is up but the check starts anyway (the SIGINT was handled in Python after
    ``solve`` looked at the flag, before z3 installed its own handler): the worker's
    interrupter thread cancels the check. Before it, the check ran its whole limit."""
    import z3

    from provers.backends.smt import pool as pool_module
    from provers.backends.smt.solve import CANCEL

    interrupter = threading.Thread(target=pool_module._interrupt_z3, daemon=True)
    interrupter.start()
    ia, ib, ic = z3.Ints("ia ib ic")
    s = z3.Solver()
    s.set("timeout", 60_000)
    s.add(ia > 0, ib > 0, ic > 0, ia**3 + ib**3 == ic**3)  # fermat3's negation: beyond z3
    try:
        with CANCEL.lock:
            CANCEL.requested = True
        pool_module._STOP.set()
        started = time.monotonic()
        assert s.check() == z3.unknown
        assert s.reason_unknown() in ("interrupted", "canceled")
        assert time.monotonic() - started < 30.0  # well before its own 60 s limit
        try:  # the context's last error, which z3py raises at the interrupter's next call
            z3.Z3_get_numeral_string(z3.main_ctx().ref(), ia.as_ast())
        except z3.Z3Exception:
            pass
        time.sleep(5 * pool_module.INTERRUPT_EVERY)
        assert interrupter.is_alive()  # it died there once (a worker then lost its interrupter)
    finally:
        with CANCEL.lock:
            CANCEL.requested = False
    time.sleep(3 * pool_module.INTERRUPT_EVERY)  # the interrupter has seen the flag down
    easy = z3.Solver()
    easy.set("timeout", 60_000)
    easy.add(ia > 0, ia < 0)
    assert easy.check() == z3.unsat  # a check after the stop is not interrupted


def test_a_stop_that_arrives_after_its_job_was_answered_does_not_cancel_the_next():
    """The pool sends SIGINT to a loser that, unseen, has just answered: the signal reaches an
    idle worker. The next job carries the count of stops sent before it and is not cancelled
    (before the count, it was answered ``canceled`` at once)."""
    from provers.backends.smt.pool import _Worker

    w = _Worker(1024)
    try:
        assert w.conn.poll(30), "the worker never said READY"
        assert w.receive() is None
        w.stops += 1  # as ``stop`` counts it
        os.kill(w.proc.pid, signal.SIGINT)
        time.sleep(0.5)  # the late stop is handled while the worker waits for a job
        w.conn.send((8, "z3", EASY, 5.0, w.stops))
        got, res = _answer(w)
        assert got == 8 and isinstance(res, Proved), res
        assert w.proc.is_alive()
    finally:
        w.kill()


def test_the_deadline_follows_the_check_and_then_the_model():
    """A worker says when its check starts and when it has answered (``solve.PHASE``): the pool
    waits for a check its limit and ``CHECK_GRACE``, and for a model ``WARM_GRACE`` more."""
    from provers.backends.smt.pool import CHECK_GRACE, PHASE, WARM_FACTOR, WARM_GRACE, _Worker

    w = _Worker(1024)
    try:
        assert w.conn.poll(30) and w.receive() is None  # READY
        w.job, w.timeout, w.deadline = 9, 5.0, time.monotonic() + 100.0
        w.conn.send((9, "z3", EASY, 5.0, 0))
        phases = []
        while True:
            assert w.conn.poll(30)
            raw_before = time.monotonic()
            msg = w.receive()
            if msg is not None:
                break
            phases.append((w.phase, w.deadline - raw_before))
        assert msg[0] == 9 and isinstance(msg[1], Proved)
        kinds = [k for k, _ in phases]
        assert kinds[0] == "check" and "checked" in kinds
        check_left = dict(phases)["check"]
        assert check_left <= 5.0 * (1 + WARM_FACTOR) + CHECK_GRACE + 0.01
        assert check_left > 5.0  # the whole limit, counted from the check's start
        checked_left = dict(phases)["checked"]
        assert WARM_GRACE - 0.01 < checked_left <= 5.0 * (1 + WARM_FACTOR) + WARM_GRACE + 0.01
    finally:
        w.kill()
    assert PHASE == "phase"


def test_a_check_past_its_limit_is_abandoned_and_the_pool_goes_on(pool, monkeypatch):
    """A solver still inside its check past its limit (z3's nlsat and cvc5's coverings ignore
    theirs) is not waited for: the call answers Unknown, naming the timeout, and the worker is
    reaped or killed later. Simulated with a negative grace: the deadline passes as the check
    starts, and a 60 s check comes back at once."""
    import provers.backends.smt.pool as pool_module

    monkeypatch.setattr(pool_module, "CHECK_GRACE", -100.0)
    (res,) = pool.run([("z3", fermat3(), 60.0)])
    assert isinstance(res, Unknown) and res.reason.startswith("timeout: z3 still checking"), res
    (w,) = [w for w in pool.workers if w.job is not None]
    assert w.abandoned
    monkeypatch.setattr(pool_module, "CHECK_GRACE", 0.1)
    assert isinstance(pool.run([("z3", EASY, 10.0)])[0], Proved)  # another worker serves it


def test_a_caller_hard_limit_is_not_moved_by_the_phases(pool, monkeypatch):
    """A call with ``hard_limit`` keeps that deadline whatever the worker reports: with a
    check grace that would abandon every check at once, the job still gets its answer."""
    import provers.backends.smt.pool as pool_module

    monkeypatch.setattr(pool_module, "CHECK_GRACE", -100.0)
    (res,) = pool.run([("z3", EASY, 10.0)], hard_limit=30.0)
    assert isinstance(res, Proved), res
