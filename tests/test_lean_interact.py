"""LeanInteractBackend: LeanInteract's own response models mapped with the REPL client's
rules, on a stand-in server object (no Lean toolchain here)."""

from __future__ import annotations

import pytest

li = pytest.importorskip("lean_interact", reason="lean-interact not installed (pip install '.[lean]')")

from lean_interact.interface import (  # noqa: E402
    Command,
    CommandResponse,
    LeanError,
    Message,
    Pos,
    Sorry,
)

from provers import check_equivalence, ir  # noqa: E402
from provers.backends.base import Proved, Unknown  # noqa: E402
from provers.backends.lean.interact import (  # noqa: E402
    LeanInteractBackend,
    LeanInteractTransport,
    result_from_response,
)
from provers.backends.lean.repl import LeanConfigError, LeanHeaderError, LeanImportError  # noqa: E402
from provers.backends.lean.security import UnsafeLeanError  # noqa: E402


def msg(severity: str, data: str) -> Message:
    return Message(pos=Pos(line=1, column=0), endPos=Pos(line=1, column=5), severity=severity, data=data)


class StandInServer:
    """Answers like a LeanInteract ``LeanServer``: typed responses, TimeoutError on a hang,
    ConnectionAbortedError when its REPL dies; ``restart`` after it was killed."""

    def __init__(self) -> None:
        self.requests: list[Command] = []
        self.alive = True
        self.restarts = 0
        self.envs = 0

    def is_alive(self) -> bool:
        return self.alive

    def restart(self) -> None:
        self.alive, self.restarts = True, self.restarts + 1

    def run(self, request: Command, *, timeout: float | None = None, verbose: bool = False):
        assert isinstance(request, Command)
        self.requests.append(request)
        cmd = request.cmd
        if "HANG" in cmd:
            self.alive = False  # LeanInteract kills a server that timed out
            raise TimeoutError(f"The Lean server did not respond in time ({timeout=})")
        if "DIE" in cmd:
            self.alive = False
            raise ConnectionAbortedError("The Lean server closed unexpectedly.")
        if "BROKEN_HEADER" in cmd:
            return LeanError(message="unknown package 'Mathlib'")
        self.envs += 1
        if "ERROR" in cmd:
            return CommandResponse(env=self.envs, messages=[msg("error", "unsolved goals\n⊢ False")])
        if "sorry" in cmd:
            return CommandResponse(env=self.envs, sorries=[Sorry(goal="⊢ True", proofState=0)],
                                   messages=[msg("warning", "declaration uses 'sorry'")])
        if "BACKTICK" in cmd:  # newer Lean spells the warning with backticks
            return CommandResponse(env=self.envs, messages=[msg("warning", "declaration uses `sorry`")])
        return CommandResponse(env=self.envs, messages=[msg("info", "ok")])


def test_responses_map_with_the_repl_rules():
    ok = result_from_response(CommandResponse(env=3, messages=[msg("info", "x")]))
    assert ok.ok and ok.env == 3
    err = result_from_response(CommandResponse(env=3, messages=[msg("error", "type mismatch")]))
    assert not err.ok and err.reason == "Lean error: type mismatch"
    sorry = result_from_response(CommandResponse(env=3, sorries=[Sorry(goal="⊢ 1 = 1")]))
    assert not sorry.ok and sorry.has_sorry and sorry.sorries[0].goal == "⊢ 1 = 1"
    warn = result_from_response(CommandResponse(env=3, messages=[msg("warning", "declaration uses `sorry`")]))
    assert not warn.ok and warn.reason == "proof uses sorry"
    refused = result_from_response(LeanError(message="Unknown environment."))
    assert not refused.ok and refused.error == "REPL error: Unknown environment."


def test_backend_proves_refuses_and_reports_like_the_repl_client():
    server = StandInServer()
    backend = LeanInteractBackend(server, header="import Mathlib")
    n = ir.Var("n", ir.NAT)
    proved = backend.prove(ir.forall_([n], ir.app("eq", ir.app("add", n, ir.num(0, ir.NAT)), n)), timeout=5)
    assert isinstance(proved, Proved) and proved.backend == "lean-interact"
    assert isinstance(backend.prove("ERROR = 1", timeout=5), Unknown)
    assert backend.prove("BACKTICK = 1", timeout=5).reason == "proof uses sorry"
    hung = backend.prove("HANG = 1", timeout=1)
    assert isinstance(hung, Unknown) and hung.reason.startswith("timeout")
    dead = backend.prove("DIE = 1", timeout=1)
    assert isinstance(dead, Unknown) and "server failure" in dead.reason
    assert isinstance(backend.prove("True", timeout=5), Proved)  # restarted, header re-run
    assert server.restarts == 2
    assert isinstance(backend.prove("True := by sorry\n#eval 1", timeout=5), Unknown)
    with pytest.raises(LeanImportError):
        backend.prove("import Evil\ntheorem t : True := by sorry", timeout=5)
    headers = [r for r in server.requests if r.cmd == "import Mathlib"]
    assert len(headers) == 3 and all(r.env is None for r in headers)
    bodies = [r for r in server.requests if r.cmd != "import Mathlib"]
    assert all(r.env is not None for r in bodies)  # every command reuses the header's env
    assert not any("#eval" in r.cmd or "sorry" in r.cmd or "Evil" in r.cmd for r in server.requests)
    backend.close()
    assert server.alive  # the caller's server keeps running


def test_transport_screens_before_anything_is_sent():
    server = StandInServer()
    t = LeanInteractTransport(server)
    with pytest.raises(UnsafeLeanError):
        t.check("theorem t : True := by sorry\nrun_cmd pure ()")
    assert server.requests == []
    with pytest.raises(LeanHeaderError):
        LeanInteractTransport(StandInServer(), header="import BROKEN_HEADER").check(
            "theorem t : True := by sorry")
    with pytest.raises(LeanConfigError):
        LeanInteractTransport(object())


def test_engine_with_a_lean_interact_backend():
    server = StandInServer()
    backend = LeanInteractBackend(server)
    v = check_equivalence("theorem t (x : ℕ) (h : 0 < x) : x ≠ 0", "theorem u (y : ℕ) (h : 1 ≤ y) : y ≠ 0",
                          backend=backend, timeout=5)
    assert v.status == "equivalent"  # the stand-in accepts every proof: this checks the wiring
    assert any("theorem obligation" in r.cmd for r in server.requests)
