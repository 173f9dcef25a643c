"""Persistent solver worker processes with hard time bounds and memory caps.

Why: z3 and cvc5 can hang past their own limits, segfault, or eat all memory on a
pathological instance; one such call must never stop a batch. Each call runs in a worker
process, a fresh ``python`` started with ``subprocess`` and connected by a socket pair wrapped
in a ``multiprocessing.connection.Connection`` (IR terms are pickled across). Unlike
multiprocessing's spawn/forkserver it never re-imports the caller's ``__main__``, so scripts
without an ``if __name__ == "__main__"`` guard work. A worker that
overruns ``timeout * HARD_FACTOR + GRACE`` seconds (a warm one, whose solvers are imported:
``timeout * (1 + WARM_FACTOR) + WARM_GRACE``), dies, or hits its ``RLIMIT_AS`` cap is
killed (SIGKILL) and replaced, and the call answers ``Unknown``. A worker says ``READY`` once
its solvers are imported; from then on it is warm, and a job already in flight gets the warm
deadline (a replacement started beside a killed worker is ready in about 0.25 s, and waiting
out the cold grace for it cost 1.4 s of a 0.05 s call). Workers are reused between calls, so
the per-call overhead is one pickle round trip.

Phases: a worker says when its check starts and when the solver has answered
(``solve.PHASE``). A check still running ``CHECK_GRACE`` past its own limit (z3's nlsat and
cvc5's coverings ignore theirs) is abandoned: the call answers ``Unknown`` at once and a
fresh worker starts beside it; an answered check gets ``WARM_GRACE`` to read and validate its
model (the only late answers that were ever definitive).

Portfolio stop: when a ``first_definitive`` call has its answer (``base.settles``: a proof, a
validated countermodel, or a model showing the obligation unprovable), the losing solvers are stopped
at once instead of running to their own timeout (``WorkerPool.stop``): a z3 worker is
interrupted with SIGINT (z3 cancels its check and the worker answers ``Unknown`` and stays up;
a SIGINT while the worker runs Python code sets a flag that ``solve`` reads before each check,
and a thread of the worker interrupts z3's context while the flag is up, for a check that
started just after that look; a job counts only the stops sent after it); a cvc5
worker, which cannot be interrupted inside its check, is killed when more than ``KILL_WORTH``
seconds of its budget are left, and replaced at once by a fresh worker that imports the
solvers while the caller goes on (a restart costs no waiting, but CPU: shorter jobs run out).
"""

from __future__ import annotations

import itertools
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from multiprocessing.connection import Connection, wait

from provers.backends.base import ProofResult, Unknown, settles
from provers.ir import Term

HARD_FACTOR = 1.5
GRACE = 2.0
#: A warm worker (one that has answered a job: its solvers are imported) is given its job's
#: timeout plus this much (and ``WARM_FACTOR`` × the timeout) before it is killed: what is
#: left after the solver's own limit is model reading and validation. Waiting out
#: ``timeout * HARD_FACTOR + GRACE`` for a solver that ignores its limit (cvc5 in nonlinear
#: coverings) cost 53 s of 245 s on the MATH sample (docs/benchmarks.md); a late definitive
#: answer came in 1 of 48 such calls.
WARM_GRACE = 0.5
WARM_FACTOR = 0.25
#: Once a worker says its check has started (``solve.PHASE``), the call waits for it at most
#: the check's limit (and ``WARM_FACTOR`` of it) plus this much; then the job is abandoned
#: (the call answers ``Unknown`` at once, the worker is reaped or killed later, at
#: ``WARM_GRACE``). On ``isabelle_math_400`` no solver answer that came later than that was
#: definitive except a model still being validated, which is announced (``"checked"``) and
#: gets ``WARM_GRACE``; waiting out checks that ignore their limit (z3's nlsat, cvc5's
#: coverings) cost 27 kills of about 1 s and 64 late answers (docs/benchmarks.md, stop 55).
CHECK_GRACE = 0.1
DEFAULT_MEMORY_MB = 4096
#: What a worker sends, before any answer, once its solvers are imported.
READY = ("ready", None)
#: What a worker sends when its job's check starts or has answered: (``PHASE``, job, kind,
#: seconds the job may still need).
PHASE = "phase"


#: Seconds an interrupted (SIGINT) z3 worker has to answer before it is killed.
STOP_GRACE = 2.0
#: Solvers whose worker stops on SIGINT (z3 cancels a running check on SIGINT).
INTERRUPTIBLE = frozenset({"z3"})
#: A loser that cannot be interrupted is killed (and replaced) only when more than this many
#: seconds of its budget are left: a restart costs about half a CPU second (python, z3, cvc5
#: imports), more than letting a 1 s call run out (measured: killing every cvc5 loser at 1 s
#: per call cost more solver CPU than it saved, docs/benchmarks.md).
KILL_WORTH = 2.0
#: A job started late (``run``'s ``stagger``) gets what is left of the first job's timeout,
#: but at least this share of its own: a call where every solver gives up then costs its
#: timeout, not timeout + stagger (a 0.3 s call where both timed out took ≈ 0.53 s).
LATE_SHARE = 0.5


def late_timeout(timeout: float, elapsed: float) -> float:
    """The timeout of a job started ``elapsed`` seconds into a call (``LATE_SHARE``)."""
    return max(timeout - elapsed, timeout * LATE_SHARE)


def warm_limit(timeout: float) -> float:
    """Seconds a warm worker's job may run before it is killed."""
    return timeout * (1 + WARM_FACTOR) + WARM_GRACE


#: Seconds between two interrupts of z3 while a stop is requested (``_interrupt_z3``).
INTERRUPT_EVERY = 0.01
#: Wakes the worker's z3 interrupter: a stop was requested.
_STOP = threading.Event()


def _on_sigint(_signum: int, _frame: object) -> None:
    """Only flags: an exception raised at an arbitrary point could leave z3's Python objects
    half-built. z3 cancels a running check on SIGINT itself; ``solve`` looks at the flag
    before each check, and ``_interrupt_z3`` covers a check that starts after that look. A
    stop the pool sent before the job in flight is an old one (``CANCEL.base``) and ignored.
    No lock here: the handler runs in the main thread, which may hold ``CANCEL.lock``."""
    cancel = sys.modules["provers.backends.smt.solve"].CANCEL
    cancel.received += 1
    if cancel.received > cancel.base:
        cancel.requested = True
        _STOP.set()


def _interrupt_z3() -> None:
    """The worker's second thread: while a stop is requested, interrupt the current z3
    context every ``INTERRUPT_EVERY`` seconds. A SIGINT handled in Python just after
    ``solve`` looked at the flag and before z3's check installed its own handler was lost,
    and the check ran its whole limit (seen as a 50 s wait in a test). ``Z3_interrupt`` is
    made to be called from another thread, and one that comes before a check starts is
    forgotten, so it cannot cancel the next job's check (the flag is cleared, under
    ``CANCEL.lock``, before the worker reads its next job)."""
    try:
        import z3
    except ImportError:
        return
    cancel = sys.modules["provers.backends.smt.solve"].CANCEL
    while True:
        _STOP.wait()
        _STOP.clear()  # before looking at the flag: a stop set after this wakes the next wait
        while True:
            with cancel.lock:
                if not cancel.requested:
                    break
                ctx = getattr(z3.z3, "_main_ctx", None)
                try:
                    if ctx is not None:
                        ctx.interrupt()
                except Exception:  # noqa: BLE001 - z3py raises the context's last error, the
                    pass  # main thread's ("canceled" after a cancelled check): the thread lives on
            time.sleep(INTERRUPT_EVERY)


def worker_entry(fd: int, memory_mb: int) -> None:
    """Entry point of a worker process (``python -c``): serve jobs on socket ``fd``."""
    try:  # import the solvers now, while the caller does other work (a restart is then cheap)
        import cvc5.pythonic  # noqa: F401
        import z3  # noqa: F401

        import provers.backends.smt.solve  # noqa: F401
    except ImportError:
        pass
    if "provers.backends.smt.solve" in sys.modules:
        threading.Thread(target=_interrupt_z3, name="z3-interrupter", daemon=True).start()
    signal.signal(signal.SIGINT, _on_sigint)
    # a stop sent while the worker was starting was held pending (blocked, not ignored):
    # it is delivered now and cancels the job already waiting on the socket
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    _worker_main(Connection(fd), memory_mb)


#: How often a worker looks whether its caller is still alive (``_exit_with_parent``).
PARENT_POLL = 1.0


def _exit_with_parent(parent: int) -> None:
    """End the worker once its caller has died. Why: a caller killed while its worker was in a
    check the solver does not bound (z3's nlsat, cvc5's coverings ignore their limits) left the
    worker solving on, orphaned: two such ran 10 minutes at full CPU after their caller was
    killed. z3 releases the GIL inside its check, so this thread runs beside it."""
    while True:
        time.sleep(PARENT_POLL)
        if os.getppid() != parent:
            os._exit(0)


def _worker_main(conn: Connection, memory_mb: int) -> None:
    """Loop: receive (job id, solver, obligation, timeout, stops sent before it), answer
    (job id, result)."""
    try:
        import resource

        cap = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
    except (ImportError, ValueError, OSError):
        pass
    from provers.backends.smt.emit import fresh_z3_context
    from provers.backends.smt.solve import CANCEL, solve
    from provers.backends.smt.solve import PHASE as SOLVE_PHASE

    threading.Thread(target=_exit_with_parent, args=(os.getppid(),), daemon=True).start()
    try:
        conn.send(READY)
    except OSError:
        return
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        job, name, obligation, timeout, stops_before = msg

        def report(kind: str, seconds: float, job: int = job) -> None:
            try:
                conn.send((PHASE, job, kind, seconds))
            except OSError:
                pass  # the caller is gone: the answer's own send finds out

        SOLVE_PHASE.report = report
        with CANCEL.lock:
            CANCEL.base = stops_before
            CANCEL.requested = CANCEL.received > stops_before  # a stop sent for this job already
        try:
            res: ProofResult = solve(name, obligation, timeout)
        except MemoryError:
            res = Unknown("solver ran out of memory", name)
        except Exception as e:  # noqa: BLE001 - any solver failure is an Unknown
            res = Unknown(f"solver error: {type(e).__name__}: {e}"[:500], name)
        try:
            conn.send((job, res))
        except OSError:  # BrokenPipeError, ConnectionResetError: the caller is gone
            return  # exit quietly: a traceback would reach the caller's terminal
        except Exception as e:  # noqa: BLE001 - e.g. an unpicklable model
            try:
                conn.send((job, Unknown(f"result not transferable: {e}"[:300], name)))
            except OSError:
                return
        if name == "z3":  # the next z3 obligation's context, made while the caller is busy
            try:
                fresh_z3_context(ahead=True)
            except Exception:  # noqa: BLE001 - then the next call makes its own
                pass
        with CANCEL.lock:  # the interrupter stops before the next job can start a check
            CANCEL.requested = False


_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


class _Proc:
    """The bits of a worker process the pool needs."""

    def __init__(self, popen: subprocess.Popen):
        self.popen = popen
        self.pid = popen.pid

    def is_alive(self) -> bool:
        return self.popen.poll() is None


class _Worker:
    def __init__(self, memory_mb: int):
        parent, child = socket.socketpair()
        env = dict(os.environ)
        env["PYTHONPATH"] = _ROOT + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
        # SIGINT is blocked (held pending, not lost) until the worker's handler is installed:
        # a stop sent during start-up under load still cancels the job
        code = ("import signal; signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}); "
                f"from provers.backends.smt.pool import worker_entry; worker_entry({child.fileno()}, {memory_mb})")
        popen = subprocess.Popen(
            [sys.executable, "-c", code], pass_fds=(child.fileno(),), env=env,
            stdin=subprocess.DEVNULL, start_new_session=True,
        )
        child.close()
        self.proc = _Proc(popen)
        self.conn: Connection = Connection(parent.detach())
        self.job: int | None = None  # job in flight
        self.solver = ""  # the solver of the job in flight
        self.abandoned = False  # its caller stopped waiting (first-definitive portfolio)
        self.deadline = 0.0
        self.timeout = 0.0  # the job in flight's own timeout
        self.cold_deadline = False  # the job in flight's deadline allows for the start-up
        self.fixed_deadline = False  # the caller gave the job in flight a hard limit
        self.phase = ""  # the job in flight's last reported phase (``PHASE``): "check", "checked"
        self.warm = False  # said READY: started and imported, only the solving is left
        self.stops = 0  # SIGINTs sent to it (each job carries the count: ``CANCEL.base``)

    def receive(self) -> tuple | None:
        """The next message, or None when it was ``READY`` (the worker is warm from now on:
        a job in flight whose deadline allowed for the start-up gets the warm one, counted
        from now; a caller's ``hard_limit`` stays) or a ``PHASE`` (the deadline follows it:
        a started check gets its limit and ``CHECK_GRACE``, an answered one ``WARM_GRACE``
        for its model; not for an abandoned job or under a ``hard_limit``)."""
        msg = self.conn.recv()
        if msg == READY:
            if self.cold_deadline and self.job is not None:
                self.deadline = min(self.deadline, time.monotonic() + warm_limit(self.timeout))
            self.warm, self.cold_deadline = True, False
            return None
        if isinstance(msg, tuple) and len(msg) == 4 and msg[0] == PHASE:
            _, job, kind, seconds = msg
            if job == self.job and not self.abandoned and not self.fixed_deadline:
                self.phase = kind
                grace = CHECK_GRACE if kind == "check" else WARM_GRACE
                self.deadline = time.monotonic() + seconds * (1 + WARM_FACTOR) + grace
            return None
        return msg

    def kill(self) -> None:
        try:
            os.kill(self.proc.pid, 9)
        except (ProcessLookupError, OSError):
            pass
        try:
            self.proc.popen.wait(timeout=2)
        except subprocess.TimeoutExpired:
            pass
        self.conn.close()


class WorkerPool:
    """A small pool of solver workers; ``run`` answers a list of jobs concurrently."""

    def __init__(self, max_workers: int = 4, memory_mb: int = DEFAULT_MEMORY_MB):
        self.max_workers = max(1, max_workers)
        self.memory_mb = memory_mb
        self.workers: list[_Worker] = []
        self.ids = itertools.count()
        self.lock = threading.Lock()
        self.restarts = 0
        #: losing solvers stopped by ``stop``: interrupted (SIGINT, worker kept) and killed
        self.interrupted = 0
        self.killed_losers = 0
        #: pids of the workers ``stop`` killed (for tests and diagnostics; the last 100)
        self.stopped_pids: list[int] = []

    # -- worker management ------------------------------------------------------------

    def _reap(self, w: _Worker, block_until: float | None = None) -> None:
        """Collect (and discard) an abandoned job's answer, or kill the worker if overdue."""
        if w.job is None or not w.abandoned:
            return
        try:
            def left() -> float:
                return 0.0 if block_until is None else max(0.0, block_until - time.monotonic())

            while w.conn.poll(left()):
                if w.receive() is not None:
                    w.job, w.abandoned = None, False
                    return
        except (EOFError, OSError):
            self._replace(w)
            return
        if time.monotonic() > w.deadline:
            self._replace(w)

    def _start_spare(self) -> None:
        """A worker for the next call, started (and importing its solvers) in the background
        beside one that was killed or abandoned, while there is room for it."""
        if len(self.workers) < self.max_workers:
            self.workers.append(_Worker(self.memory_mb))

    def _replace(self, w: _Worker) -> None:
        w.kill()
        if w in self.workers:
            self.workers.remove(w)
            self.restarts += 1

    def stop(self, w: _Worker, budget_left: float = float("inf")) -> None:
        """Stop the job in flight on ``w``: its caller has its answer from another solver.
        ``budget_left``: seconds the job may still run under its own timeout."""
        w.abandoned = True
        try:
            while w.conn.poll(0):
                if w.receive() is not None:
                    w.job, w.abandoned = None, False
                    return  # it has answered already: a signal now would cancel its next job
        except (EOFError, OSError):
            self._replace(w)
            return
        if w.solver in INTERRUPTIBLE and w.proc.is_alive():
            try:
                w.stops += 1  # counted first: the job in flight was sent with the old count
                os.kill(w.proc.pid, signal.SIGINT)
                w.deadline = min(w.deadline, time.monotonic() + STOP_GRACE)
                self.interrupted += 1
                return
            except (ProcessLookupError, OSError):
                pass
        if budget_left <= KILL_WORTH:
            return  # cheaper to let it run out (reaped, or killed at its deadline, later)
        self._replace(w)
        self.killed_losers += 1
        self.stopped_pids = [*self.stopped_pids[-99:], w.proc.pid]
        self._start_spare()

    def _acquire(self) -> _Worker:
        while True:
            for w in list(self.workers):
                self._reap(w)
                if w.job is None and w.proc.is_alive():
                    return w
                if not w.proc.is_alive():
                    self._replace(w)
            if len(self.workers) < self.max_workers:
                w = _Worker(self.memory_mb)
                self.workers.append(w)
                return w
            busy = [w for w in self.workers if w.job is not None and w.abandoned]
            if not busy:
                raise RuntimeError("worker pool exhausted: max_workers is smaller than one call's jobs")
            soonest = min(w.deadline for w in busy)
            wait([w.conn for w in busy], timeout=max(0.01, soonest - time.monotonic()))

    # -- public -----------------------------------------------------------------------

    def run(
        self, jobs: list[tuple[str, Term, float]], first_definitive: bool = False, hard_limit: float | None = None,
        stagger: float = 0.0,
    ) -> list[ProofResult | None]:
        """Run (solver, obligation, timeout) jobs in parallel workers and return their results.

        With ``first_definitive`` the call returns as soon as one job ``settles`` the question
        (Proved, Refuted, or a spurious model: ``base.Unknown.satisfiable``); the others' slots
        are None and their workers are stopped (``stop``). ``stagger`` (with
        ``first_definitive``): the jobs after the first start only when the first has not
        settled the question within ``stagger`` seconds (or has given up earlier), so a
        cheap answer never pays for a second solver; a late job's timeout is what is left of
        its own timeout since the call began (at least ``LATE_SHARE`` of it). A first job that
        ran out its whole timeout before the stagger ends the call: the others never start
        (their slots stay None), so a call shorter than the stagger costs its timeout, not
        1.5 × (measured: the joint value obligation at 0.05 s took 0.097 s when it timed out,
        and the second solver never decided one; docs/benchmarks.md, stop 43).
        ``hard_limit`` overrides the kill deadline (default ``timeout * HARD_FACTOR + GRACE``).
        """
        with self.lock:
            pending: dict[int, tuple[int, _Worker, str, float]] = {}
            results: list[ProofResult | None] = [None] * len(jobs)
            waiting = list(range(len(jobs)))
            t0 = time.monotonic()
            held = stagger > 0 and first_definitive and len(jobs) > 1

            def launch(idx: int) -> None:
                name, obligation, timeout = jobs[idx]
                if held and idx > 0:
                    timeout = late_timeout(timeout, time.monotonic() - t0)
                w = self._acquire()
                job = next(self.ids)
                if hard_limit is not None:
                    limit = hard_limit
                elif w.warm:
                    limit = warm_limit(timeout)
                else:
                    limit = timeout * HARD_FACTOR + GRACE
                w.deadline = time.monotonic() + limit
                try:
                    w.conn.send((job, name, obligation, timeout, w.stops))
                except Exception as e:  # noqa: BLE001 - unpicklable term, dead worker
                    results[idx] = Unknown(f"could not send job: {e}"[:300], name)
                    self._replace(w)
                    return
                w.job, w.solver, w.abandoned, w.timeout = job, name, False, timeout
                w.cold_deadline = hard_limit is None and not w.warm
                w.fixed_deadline, w.phase = hard_limit is not None, ""
                pending[job] = (idx, w, name, time.monotonic())

            while waiting and (not held or not pending):
                launch(waiting.pop(0))
            while pending or waiting:
                if held and waiting and not pending and time.monotonic() - t0 >= jobs[0][2]:
                    break  # the first job ran out the call's whole limit before the stagger: over
                if waiting and (not pending or time.monotonic() - t0 >= stagger):
                    while waiting:
                        launch(waiting.pop(0))
                    continue
                now = time.monotonic()
                soonest = min(p[1].deadline for p in pending.values())
                if waiting:
                    soonest = min(soonest, t0 + stagger)
                ready = wait([p[1].conn for p in pending.values()], timeout=max(0.0, soonest - now))
                for job, (idx, w, name, started) in list(pending.items()):
                    if w.conn in ready:
                        try:
                            msg = w.receive()
                        except (EOFError, OSError):
                            res = Unknown("solver worker crashed", name, time.monotonic() - started)
                            self._replace(w)
                        else:
                            if msg is None:
                                continue  # READY: the answer is still to come
                            got_job, res = msg
                            w.job = None
                            if got_job != job:
                                res = Unknown("worker protocol error", name)
                        results[idx] = res
                        del pending[job]
                    elif time.monotonic() > w.deadline and w.phase == "check":
                        # past its limit inside the check: the call goes on without it
                        took = time.monotonic() - started
                        results[idx] = Unknown(
                            f"timeout: {name} still checking after {took:.2f}s ({w.timeout:g}s limit)", name, took)
                        w.abandoned = True
                        w.deadline = time.monotonic() + WARM_GRACE
                        self._start_spare()
                        del pending[job]
                    elif time.monotonic() > w.deadline:
                        results[idx] = Unknown(
                            f"timeout: worker killed after {time.monotonic() - started:.1f}s", name,
                            time.monotonic() - started,
                        )
                        self._replace(w)
                        self._start_spare()
                        del pending[job]
                if first_definitive and any(settles(r) for r in results):
                    now = time.monotonic()
                    for idx, w, _name, started in pending.values():
                        self.stop(w, started + jobs[idx][2] - now)
                    return results
            return results

    def pids(self) -> list[int]:
        return [w.proc.pid for w in self.workers]

    def close(self) -> None:
        with self.lock:
            for w in self.workers:
                try:
                    w.conn.send(None)
                except Exception:  # noqa: BLE001
                    pass
                w.kill()
            self.workers.clear()


_DEFAULT: WorkerPool | None = None


def default_pool() -> WorkerPool:
    """The process-wide pool (created on first use, closed at exit)."""
    global _DEFAULT
    if _DEFAULT is None:
        import atexit

        _DEFAULT = WorkerPool()
        atexit.register(_DEFAULT.close)
    return _DEFAULT
