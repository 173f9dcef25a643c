"""REPL / Kimina client: protocol handling against a scripted stand-in, and a real Lean if set."""

from __future__ import annotations

import json
import os
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from provers.backends.base import Backend
from provers.backends.lean.repl import (
    KiminaClient,
    LeanConfig,
    LeanConfigError,
    LeanHeaderError,
    LeanImportError,
    LeanRepl,
    LeanReplPool,
    LeanResult,
    ReplCrashError,
    ReplProtocolError,
    connect,
)
from provers.backends.lean.security import UnsafeLeanError

FAKE = Path(__file__).parent / "fixtures" / "fake_repl.py"
PROOF = "by decide"


@pytest.fixture
def log_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    log = tmp_path / "commands.jsonl"
    monkeypatch.setenv("FAKE_REPL_LOG", str(log))
    monkeypatch.setenv("FAKE_REPL_STATE", str(tmp_path / "crashed-once"))
    return log


def read_log(log: Path) -> list[dict]:
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines()]


def fake_config(header: str = "import Mathlib", **kw: object) -> LeanConfig:
    return LeanConfig(command=(sys.executable, str(FAKE)), header=header, **kw)  # type: ignore[arg-type]


def stmt(marker: str, proof: str = PROOF) -> str:
    return f"theorem t (x : ℕ) : {marker} x = x := {proof}"


# ---------------------------------------------------------------- results and errors

def test_ok_result_and_header_imported_once(log_path: Path) -> None:
    with LeanRepl(fake_config()) as repl:
        r1 = repl.check(stmt("OK"), timeout=5, allowed_proofs=[PROOF])
        r2 = repl.check(stmt("OK2"), timeout=5, allowed_proofs=[PROOF])
    assert r1.ok and r2.ok and not r1.messages
    log = read_log(log_path)
    assert [e["cmd"] for e in log] == ["import Mathlib", stmt("OK"), stmt("OK2")]
    header_env = None
    assert log[0]["env"] is header_env
    assert log[1]["env"] == log[2]["env"] == 1  # the header's env, reused


def test_error_message_maps_to_not_ok(log_path: Path) -> None:
    with LeanRepl(fake_config()) as repl:
        r = repl.check(stmt("ERROR"), timeout=5, allowed_proofs=[PROOF])
    assert not r.ok and not r.timed_out
    assert r.errors[0].data.startswith("unsolved goals")
    assert r.errors[0].pos is not None and r.errors[0].pos.column == 8
    assert r.reason == "Lean error: unsolved goals"


def test_sorry_is_never_accepted(log_path: Path) -> None:
    with LeanRepl(fake_config()) as repl:
        r = repl.check(stmt("OK", "by sorry"), timeout=5)
    assert not r.ok and r.has_sorry and r.sorries[0].goal == "⊢ True"
    assert not r.errors  # only a warning: still refused
    assert r.reason == "proof uses sorry"


def test_sorry_warning_alone_is_not_accepted() -> None:
    r = LeanResult.from_reply({"env": 3, "messages": [
        {"severity": "warning", "pos": {"line": 1, "column": 0}, "data": "declaration uses 'sorry'"}]})
    assert not r.ok


def test_repl_level_error_reply() -> None:
    r = LeanResult.from_reply({"message": "Unknown environment."})
    assert not r.ok and r.error == "REPL error: Unknown environment."


@pytest.mark.parametrize("reply", [
    [1, 2], {"env": "x"}, {"env": 1, "messages": "oops"},
    {"env": 1, "messages": [{"severity": "fatal", "data": "x"}]},
    {"env": 1, "messages": [{"severity": "error", "data": "x", "pos": {"line": "1"}}]},
    {"foo": 1},
])
def test_malformed_reply_shapes(reply: object) -> None:
    with pytest.raises(ReplProtocolError):
        LeanResult.from_reply(reply)


def test_malformed_reply_from_process_raises_and_restarts(log_path: Path) -> None:
    with LeanRepl(fake_config()) as repl:
        with pytest.raises(ReplProtocolError, match="malformed reply"):
            repl.check(stmt("MALFORMED"), timeout=5, allowed_proofs=[PROOF])
        with pytest.raises(ReplProtocolError, match="not a list"):
            repl.check(stmt("BADSHAPE"), timeout=5, allowed_proofs=[PROOF])
        assert repl.check(stmt("OK"), timeout=5, allowed_proofs=[PROOF]).ok
        assert repl.starts == 3  # never reuses a process that spoke garbage


# ---------------------------------------------------------------- timeouts, crashes, retry

def test_timeout_kills_restarts_and_reimports(log_path: Path) -> None:
    with LeanRepl(fake_config()) as repl:
        assert repl.check(stmt("OK"), timeout=5, allowed_proofs=[PROOF]).ok
        first_pid = repl.pid
        r = repl.check(stmt("HANG"), timeout=0.5, allowed_proofs=[PROOF])
        assert r.timed_out and not r.ok and r.reason.startswith("timeout")
        assert not repl.alive  # the hung process was killed
        assert repl.check(stmt("OK"), timeout=5, allowed_proofs=[PROOF]).ok
        assert repl.pid != first_pid
    log = read_log(log_path)
    pids = {e["pid"] for e in log}
    assert len(pids) == 2
    for pid in pids:  # every process imported the header before anything else
        assert [e for e in log if e["pid"] == pid][0]["cmd"] == "import Mathlib"


def test_crash_is_retried_once(log_path: Path) -> None:
    with LeanRepl(fake_config()) as repl:
        r = repl.check(stmt("CRASH_ONCE"), timeout=5, allowed_proofs=[PROOF])
        assert r.ok
        assert repl.starts == 2
    cmds = [e["cmd"] for e in read_log(log_path)]
    assert cmds == ["import Mathlib", stmt("CRASH_ONCE"), "import Mathlib", stmt("CRASH_ONCE")]


def test_second_crash_raises(log_path: Path) -> None:
    with LeanRepl(fake_config()) as repl:
        with pytest.raises(ReplCrashError, match="crashed twice"):
            repl.check(stmt("CRASH"), timeout=5, allowed_proofs=[PROOF])
        assert repl.check(stmt("OK"), timeout=5, allowed_proofs=[PROOF]).ok
    assert sum(e["cmd"] == stmt("CRASH") for e in read_log(log_path)) == 2


def test_header_failure_is_clear(log_path: Path) -> None:
    with LeanRepl(fake_config(header="import Nope HEADER_FAIL")) as repl:
        with pytest.raises(LeanHeaderError, match="unknown module prefix"):
            repl.check(stmt("OK"), timeout=5, allowed_proofs=[PROOF])


def test_memory_cap_is_applied(log_path: Path) -> None:
    with LeanRepl(fake_config(memory_limit_mb=512)) as repl:
        r = repl.check(stmt("RLIMIT"), timeout=5, allowed_proofs=[PROOF])
        assert r.messages[0].data == f"RLIMIT_AS={512 * 1024 * 1024}"
        with pytest.raises(ReplCrashError):  # allocation beyond the cap kills the command
            repl.check(stmt("ALLOC 1024"), timeout=10, allowed_proofs=[PROOF])
    with LeanRepl(fake_config(memory_limit_mb=None)) as repl:
        r = repl.check(stmt("RLIMIT"), timeout=5, allowed_proofs=[PROOF])
        assert r.messages[0].data != f"RLIMIT_AS={512 * 1024 * 1024}"


def test_max_commands_recycles_process(log_path: Path) -> None:
    with LeanRepl(fake_config(max_commands=2)) as repl:
        for i in range(5):
            assert repl.check(stmt(f"OK{i}"), timeout=5, allowed_proofs=[PROOF]).ok
        assert repl.starts == 3


def test_empty_header_sends_no_env(log_path: Path) -> None:
    with LeanRepl(fake_config(header="")) as repl:
        assert repl.check(stmt("OK"), timeout=5, allowed_proofs=[PROOF]).ok
    assert read_log(log_path) == [{"pid": read_log(log_path)[0]["pid"], "cmd": stmt("OK"),
                                   "env": None}]


# ---------------------------------------------------------------- pool

def test_pool_runs_commands_concurrently_on_distinct_workers(log_path: Path) -> None:
    results: list[LeanResult] = []
    barrier = threading.Barrier(4)

    def work(i: int) -> None:
        barrier.wait()
        results.append(pool.check(stmt(f"SLOW{i}"), timeout=10, allowed_proofs=[PROOF]))

    with LeanReplPool(fake_config(), size=2) as pool:
        threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert all(w.starts == 1 for w in pool.workers)
    assert len(results) == 4 and all(r.ok for r in results)
    log = read_log(log_path)
    assert len({e["pid"] for e in log}) == 2
    assert sum(e["cmd"] == "import Mathlib" for e in log) == 2


def test_single_repl_serializes_threads(log_path: Path) -> None:
    results: list[LeanResult] = []
    with LeanRepl(fake_config()) as repl:
        threads = [threading.Thread(target=lambda i=i: results.append(
            repl.check(stmt(f"SLOW{i}"), timeout=10, allowed_proofs=[PROOF]))) for i in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert repl.starts == 1
    assert len(results) == 3 and all(r.ok for r in results)


def test_pool_checkout_timeout(log_path: Path) -> None:
    with LeanReplPool(fake_config(), size=1) as pool:
        with pool.checkout():
            with pytest.raises(Exception, match="no free Lean REPL"):
                with pool.checkout(timeout=0.05):
                    pass


# ---------------------------------------------------------------- security: nothing unsafe is sent

SMUGGLED = [
    "theorem t : True := by sorry\n#eval IO.Process.run {cmd := \"touch\", args := #[\"/tmp/x\"]}",
    "theorem t : True\nrun_cmd pure ()\n:= by sorry",
    "/-- doc -/-/ #eval 1 -/\ntheorem t : True := by sorry",
    "theorem t : True := by sorry\nrun_cmd pure ()",
    "theorem t : True := by\n  run_tac pure ()",
    "open Lean in\n#eval 1",
]


@pytest.mark.parametrize("text", SMUGGLED)
def test_smuggled_commands_never_reach_the_process(log_path: Path, text: str) -> None:
    with LeanReplPool(fake_config(), size=1) as pool:
        assert pool.check(stmt("OK"), timeout=5, allowed_proofs=[PROOF]).ok
        with pytest.raises(UnsafeLeanError):
            pool.check(text, timeout=5)
        with pytest.raises(UnsafeLeanError):
            pool.workers[0].check(text, timeout=5)
    received = [e["cmd"] for e in read_log(log_path)]
    assert received == ["import Mathlib", stmt("OK")]


def test_candidate_imports_must_come_from_the_header(log_path: Path) -> None:
    with LeanRepl(fake_config(header="import Mathlib\nopen Real")) as repl:
        r = repl.check("import Mathlib.Data.Real.Basic\nimport Aesop\nopen Nat\n" + stmt("OK"),
                       timeout=5, allowed_proofs=[PROOF])
        assert r.ok
        with pytest.raises(LeanImportError, match="Evil"):
            repl.check("import Evil\n" + stmt("OK"), timeout=5, allowed_proofs=[PROOF])
    sent = read_log(log_path)[-1]["cmd"]
    assert sent == "open Nat\n" + stmt("OK")  # imports stripped, opens kept


# ---------------------------------------------------------------- configuration

def test_config_errors_name_the_variable(tmp_path: Path) -> None:
    with pytest.raises(LeanConfigError, match="no Lean configured"):
        LeanConfig.from_env(environ={})
    with pytest.raises(LeanConfigError, match="LEAN_PROJECT=.*no such directory"):
        LeanConfig.from_env(environ={"LEAN_PROJECT": str(tmp_path / "missing")})
    with pytest.raises(LeanConfigError, match="not a Lean project"):
        LeanConfig.from_env(environ={"LEAN_PROJECT": str(tmp_path)})
    with pytest.raises(LeanConfigError, match="LEAN_REPL.*not on PATH"):
        LeanConfig.from_env(environ={"LEAN_REPL": "no-such-repl-binary --x"})
    with pytest.raises(LeanConfigError, match="not an executable"):
        LeanConfig.from_env(environ={"LEAN_REPL": str(tmp_path / "bin" / "repl")})
    with pytest.raises(LeanConfigError, match="KIMINA_URL.*not an http"):
        LeanConfig.from_env(environ={"KIMINA_URL": "localhost:8000"})
    with pytest.raises(LeanConfigError, match="LEAN_REPL_MEMORY_MB"):
        LeanConfig.from_env(environ={"KIMINA_URL": "http://h", "LEAN_REPL_MEMORY_MB": "lots"})


def test_config_from_env_and_arguments(tmp_path: Path) -> None:
    (tmp_path / "lakefile.toml").write_text("name = \"x\"\n")
    cfg = LeanConfig.from_env(environ={"LEAN_PROJECT": str(tmp_path),
                                       "LEAN_REPL": f"{sys.executable} {FAKE}",
                                       "LEAN_REPL_MEMORY_MB": "0"})
    assert cfg.command == (sys.executable, str(FAKE)) and cfg.project == tmp_path.resolve()
    assert cfg.memory_limit_mb is None
    cfg2 = LeanConfig.from_env(repl=f"{sys.executable} {FAKE}", environ={"KIMINA_URL": "http://k:1"})
    assert cfg2.kimina_url == "http://k:1" and cfg2.memory_limit_mb == 16 * 1024
    assert isinstance(connect(cfg2), LeanReplPool)
    assert isinstance(connect(cfg2, prefer="kimina"), KiminaClient)


def test_unstartable_command_is_a_config_error(tmp_path: Path) -> None:
    repl = LeanRepl(LeanConfig(command=(str(tmp_path / "nope"),)))
    with pytest.raises(LeanConfigError, match="cannot start REPL"):
        repl.check(stmt("OK"), timeout=1, allowed_proofs=[PROOF])


# ---------------------------------------------------------------- Kimina transport

class _KiminaHandler(BaseHTTPRequestHandler):
    received: list[dict] = []

    def log_message(self, *args: object) -> None:  # keep test output quiet
        pass

    def do_POST(self) -> None:  # noqa: N802 (http.server API)
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).received.append({"path": self.path, "body": body,
                                    "auth": self.headers.get("Authorization")})
        code = body["snippet"]["code"]
        sid = body["snippet"]["id"]
        if self.path != "/api/check":
            out, status = {"detail": "Not Found"}, 404
        elif "HANG" in code:
            out, status = {"id": sid, "time": 1.0,
                           "error": "Lean REPL command timed out in 1 seconds"}, 200
        elif "GARBAGE" in code:
            self.send_response(200)
            self.end_headers()
            self.wfile.write(b"<html>")
            return
        elif "ERROR" in code:
            out, status = {"id": sid, "time": 0.1, "response": {"env": 0, "messages": [
                {"severity": "error", "pos": {"line": 5, "column": 2}, "data": "linarith failed"}]}}, 200
        elif "sorry" in code:
            out, status = {"results": [{"id": sid, "time": 0.1, "response": {"env": 0, "sorries": [
                {"pos": {"line": 5, "column": 1}, "endPos": {"line": 5, "column": 6},
                 "goal": "⊢ True"}]}}]}, 200
        else:
            out, status = {"id": sid, "time": 0.1, "response": {"env": 0}}, 200
        data = json.dumps(out).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def kimina_server() -> object:
    _KiminaHandler.received = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), _KiminaHandler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_kimina_transport(kimina_server: str) -> None:
    with KiminaClient(kimina_server, header="import Mathlib", api_key="k3y") as client:
        ok = client.check(stmt("OK"), timeout=5, allowed_proofs=[PROOF])
        err = client.check(stmt("ERROR"), timeout=5, allowed_proofs=[PROOF])
        sor = client.check(stmt("OK", "by sorry"), timeout=5)
        hang = client.check(stmt("HANG"), timeout=1, allowed_proofs=[PROOF])
        with pytest.raises(ReplProtocolError, match="not JSON"):
            client.check(stmt("GARBAGE"), timeout=5, allowed_proofs=[PROOF])
        with pytest.raises(UnsafeLeanError):
            client.check("theorem t : True := by sorry\n#eval 1", timeout=5)
    assert ok.ok and ok.env == 0
    assert not err.ok and err.errors[0].data == "linarith failed"
    assert not sor.ok and sor.has_sorry
    assert hang.timed_out and not hang.ok
    req = _KiminaHandler.received[0]
    assert req["path"] == "/api/check" and req["auth"] == "Bearer k3y"
    assert req["body"]["snippet"]["code"] == "import Mathlib\n\n" + stmt("OK")
    assert req["body"]["timeout"] == 5
    assert all("#eval" not in r["body"]["snippet"]["code"] for r in _KiminaHandler.received)
    assert len(_KiminaHandler.received) == 5


def test_kimina_http_error_and_unreachable(kimina_server: str) -> None:
    with KiminaClient(kimina_server, path="/wrong") as client:
        with pytest.raises(ReplProtocolError, match="HTTP 404"):
            client.check(stmt("OK"), timeout=5, allowed_proofs=[PROOF])
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()  # nothing listens there now
    with KiminaClient(f"http://127.0.0.1:{port}") as client:
        with pytest.raises(LeanConfigError, match="cannot reach Kimina"):
            client.check(stmt("OK"), timeout=2, allowed_proofs=[PROOF])


# ---------------------------------------------------------------- real Lean (optional)

def _real_config() -> LeanConfig | None:
    if not (os.environ.get("LEAN_PROJECT") or os.environ.get("LEAN_REPL")):
        return None
    return LeanConfig.from_env(header=os.environ.get("LEAN_HEADER", ""))


requires_lean = pytest.mark.skipif(
    not (os.environ.get("LEAN_PROJECT") or os.environ.get("LEAN_REPL")),
    reason="no real Lean REPL: set LEAN_PROJECT (Lean project with the REPL built) or LEAN_REPL")


@pytest.mark.lean
@requires_lean
def test_real_repl_core_obligations() -> None:
    cfg = _real_config()
    assert cfg is not None
    with LeanRepl(cfg) as repl:
        good = repl.check("theorem t (n : ℕ) : n + 0 = n := by simp", timeout=60,
                          allowed_proofs=["by simp"])
        bad = repl.check("theorem t : 2 + 2 = 5 := by decide", timeout=60,
                         allowed_proofs=["by decide"])
        sor = repl.check("theorem t : 2 + 2 = 4 := by sorry", timeout=60)
        hang = repl.check("theorem t : 2 ^ 2 ^ 2 ^ 2 ^ 2 ^ 2 = 0 := by decide", timeout=2,
                          allowed_proofs=["by decide"])
        again = repl.check("theorem t (a b : ℕ) : a + b = b + a := by omega", timeout=60,
                           allowed_proofs=["by omega"])
    assert good.ok, good.reason
    assert not bad.ok and bad.errors
    assert not sor.ok and sor.has_sorry
    assert not hang.ok
    assert again.ok, again.reason


# ---------------------------------------------------------------- rendering and LeanBackend

def test_portfolio_depends_on_imports() -> None:
    from provers.backends.lean.render import DEFAULT_TACTICS, portfolio_for

    assert portfolio_for("import Mathlib\nopen Real") == DEFAULT_TACTICS
    assert portfolio_for("") == ("rfl", "omega", "decide", "simp")
    assert portfolio_for("import Aesop") == ("rfl", "omega", "decide", "simp", "aesop")
    assert portfolio_for("import Mathlib.Tactic", ["linarith", "omega"]) == ("linarith", "omega")


def test_render_from_text_parts_and_screen() -> None:
    from provers.backends.lean.render import LeanObligation, render_theorem
    from provers.backends.lean.security import check_safe_statement

    ob = LeanObligation(goal="x ^ 2 ≥ 0", binders=("(x : ℝ)",), premises=("0 < x",),
                        opens=("open Real",))
    text, proof = render_theorem(ob, ("nlinarith", "positivity"))
    assert text == ("open Real\ntheorem obligation (x : ℝ) (h_obl_1 : 0 < x) :\n    x ^ 2 ≥ 0 := "
                    "by\n  intros\n  first\n  | (nlinarith; done)\n  | (positivity; done)")
    check_safe_statement(text, allowed_proofs=[proof])
    assert LeanObligation(goal="x = 1 -- note\n  ∧ y = 2").goal == "x = 1 ∧ y = 2"
    with pytest.raises(UnsafeLeanError):
        LeanObligation(goal="True := by sorry\n#eval 1")
    with pytest.raises(UnsafeLeanError):
        LeanObligation(goal="True", binders=("(x : ℕ) :=",))


def _strict(t, free=()):
    from provers.lean4.printer import LeanPrinter

    p = LeanPrinter(strict=True, isabelle=True)
    for v in free:
        p.bind(v)
    return p.term(t)


def test_render_from_ir() -> None:
    from provers import ir
    from provers.backends.lean.render import NotRenderable, obligation_from_ir

    x, n, i = ir.Var("x", ir.REAL), ir.Var("n", ir.NAT), ir.Var("i", ir.NAT)
    total = ir.BigOp("sum", i, ir.app("range", n), i)
    goal = ir.app("eq", ir.app("mul", ir.num(2, ir.NAT), total),
                  ir.app("mul", n, ir.app("sub", n, ir.num(1, ir.NAT))))
    ob = obligation_from_ir(goal, premises=[ir.app("lt", ir.num(0, ir.NAT), n)])
    assert ob.binders == ("(n : ℕ)",) and ob.premises == ("((0 : ℕ) < n)",)
    assert ob.goal == "(((2 : ℕ) * (∑ i ∈ (Finset.range n), i)) = (n * (n - (1 : ℕ))))"
    assert _strict(ir.app("le", ir.num(0, ir.REAL), ir.app("sqrt", x)), [x]) == \
        "((0 : ℝ) ≤ (Real.sqrt x))"
    a = ir.Var("a", ir.INT)
    assert _strict(ir.app("emod", a, ir.num(-3, ir.INT)), [a]) == "(Int.emod a (-(3 : ℤ)))"
    assert _strict(ir.cast(n, ir.REAL), [n]) == "(↑n : ℝ)"
    assert _strict(ir.num("1/3", ir.REAL)) == "((1 : ℝ) / (3 : ℝ))"
    # a bound variable never captures a free one of the same name
    inner = ir.forall_([ir.Var("n", ir.INT)], ir.app("le", ir.cast(n, ir.INT), ir.Var("n", ir.INT)))
    assert _strict(inner, [n]) == "(∀ (n_1 : ℤ), ((↑n : ℤ) ≤ n_1))"
    # a set in a sum or a count is a Finset, elsewhere a Set
    assert _strict(ir.app("card", ir.app("Icc", n, n)), [n]) == "(Finset.card (Finset.Icc n n))"
    assert _strict(ir.app("mem", x, ir.app("Icc", x, x)), [x]) == "(x ∈ (Set.Icc x x))"
    with pytest.raises(NotRenderable, match="Finset"):
        _strict(ir.app("card", ir.app("filter", ir.Lam((x,), ir.TRUE), ir.Var("S", ir.SetSort(ir.REAL)))),
                [ir.Var("S", ir.SetSort(ir.REAL))])
    digits = ir.uninterpreted("Nat.ofDigits", [ir.num(10, ir.NAT), n], ir.NAT)
    with pytest.raises(NotRenderable, match="Nat.ofDigits"):
        obligation_from_ir(ir.app("eq", digits, n))
    assert obligation_from_ir(ir.app("eq", digits, n), lean_symbols=True).goal == \
        "((Nat.ofDigits (10 : ℕ) n) = n)"
    with pytest.raises(NotRenderable, match="sort G"):  # opaque carrier: needs its binders
        obligation_from_ir(ir.app("eq", ir.uninterpreted("orderOf", [], ir.OpaqueSort("G")),
                                  ir.uninterpreted("orderOf", [], ir.OpaqueSort("G"))),
                           lean_symbols=True)
    with pytest.raises(NotRenderable, match="foo bar"):  # not a Lean name
        obligation_from_ir(ir.app("eq", ir.uninterpreted("foo bar", [n], ir.NAT), n),
                           lean_symbols=True)
    with pytest.raises(NotRenderable, match="Isabelle"):
        obligation_from_ir(ir.app("eq", ir.app("ln", x), x), isabelle=False)


def test_strict_names_and_finset_symbols() -> None:
    from provers import ir
    from provers.lean4.printer import LeanPrinter

    p = LeanPrinter(strict=True, lean_symbols=True)
    # keywords, Lean tokens and dangerous names never become binder names
    assert [p.bind(ir.Var(n, ir.NAT)) for n in ("λ1", "fun", "IO", "μ", "x₁")] == \
        ["v", "v_1", "v_2", "μ", "x₁"]
    i = ir.Var("i", ir.NAT)
    univ = ir.uninterpreted("Finset.univ", [], ir.SetSort(ir.NAT))
    assert p.term(ir.BigOp("sum", i, univ, i)) == "(∑ i ∈ Finset.univ, i)"
    p = LeanPrinter(strict=True, lean_symbols=True, projections={"den"})
    q = ir.Var("q", ir.RAT)
    p.bind(q)
    with pytest.raises(ValueError, match="field notation .den"):
        p.term(ir.uninterpreted("den", [q], ir.NAT))


def test_isabelle_operations_render_as_lean_expansions() -> None:
    """Isabelle's `ln` is unspecified on x ≤ 0: the obligation quantifies over every function
    that is Real.log on x > 0 (proving it proves it for Isabelle's ln, whatever it is)."""
    from provers import ir
    from provers.backends.lean.render import obligation_from_ir

    x, y, n = ir.Var("x", ir.REAL), ir.Var("y", ir.REAL), ir.Var("n", ir.NAT)
    ob = obligation_from_ir(ir.forall_([x, y], ir.app("eq", ir.app("powr", x, y), ir.app("ln", x))))
    assert ob.binders == ("(isa_ln : ℝ → ℝ)", "(h_isa_ln : ∀ x : ℝ, 0 < x → isa_ln x = Real.log x)")
    assert ob.goal == ("(∀ (x : ℝ) (y : ℝ), ((if x = (0 : ℝ) then (0 : ℝ) else Real.exp (y * isa_ln x))"
                       " = (isa_ln x)))")
    assert _strict(ir.app("signed_sqrt", x), [x]) == \
        "(if (0 : ℝ) ≤ x then Real.sqrt x else -Real.sqrt (-x))"
    assert "x ^ ((1 : ℝ) / (↑n : ℝ))" in _strict(ir.app("root", n, x), [n, x])
    a, b = ir.Var("a", ir.INT), ir.Var("b", ir.INT)
    assert _strict(ir.app("fdiv", a, b), [a, b]) == "(Int.fdiv a b)"
    isa_ln = ir.Var("isa_ln", ir.REAL)  # a variable of that name: the function gets another
    ob = obligation_from_ir(ir.app("lt", ir.app("isa_log", isa_ln, isa_ln), isa_ln))
    assert ob.binders[0] == "(isa_ln_1 : ℝ → ℝ)" and ob.binders[2] == "(isa_ln : ℝ)"
    # Isabelle's arcsin / arccos are Mathlib's only on [-1, 1]: constrained function variables
    ob = obligation_from_ir(ir.forall_([x], ir.app("eq", ir.app("isa_arcsin", x), ir.app("arcsin", x))))
    assert ob.binders == ("(isa_arcsin : ℝ → ℝ)",
                          "(h_isa_arcsin : ∀ x : ℝ, -1 ≤ x → x ≤ 1 → isa_arcsin x = Real.arcsin x)")
    assert ob.goal == "(∀ (x : ℝ), ((isa_arcsin x) = (Real.arcsin x)))"


SOURCE_A = ("import Mathlib\nopen Real\ntheorem t {G : Type*} [Group G] (x y : ℝ) (g : G) "
            "(h₀ : 0 < x ∧ x < sqrt y) (h₁ : orderOf g = 2) : g ^ 2 = 1 ∧ x ≤ y := by sorry")
SOURCE_B = ("import Mathlib\ntheorem u {G : Type*} [Group G] (a b : ℝ) (k : G) (h : 0 < a) "
            "(h' : a < √b) (h₁ : orderOf k = 2) : k ^ 2 = 1 ∧ a ≤ b := by sorry")


def _sae_obligations(a, b):
    from provers.engine.align import alignments
    from provers.engine.normal import normalize
    from provers.engine.relations import check_sae, rename_onto
    from provers.engine.sort_match import match_types
    from provers.engine.verdict import Obligation

    na, nb = normalize(a), normalize(b)
    renamed, why = match_types(na, nb)
    nb = renamed[0]  # the first correspondence of the type variables, as the engine tries first
    assert why is None
    obs = []

    def prove(name, f, cheap=False):
        obs.append(f)
        return Obligation(name, f, "unknown")

    check_sae(na, rename_onto(nb, alignments(na, nb, 4).items[0]), prove)
    return obs


def test_obligations_use_each_statements_own_text() -> None:
    from provers.backends.lean.render import obligation_from_ir
    from provers.lean4.parser import parse_lean

    a, b = parse_lean(SOURCE_A), parse_lean(SOURCE_B)
    premises, conclusions = _sae_obligations(a, b)
    ob = obligation_from_ir(premises, sources=(a, b), lean_symbols=True)
    assert ob.binders == ("{G : Type*}", "[Group G]") and ob.opens == ("open Real",)
    # A's hypotheses as written (h₀ is a run of two conjuncts); B's renamed a→x, b→y, k→g
    assert ob.goal == ("(∀ (x : ℝ) (y : ℝ) (g : G), (((0 < x ∧ x < sqrt y) ∧ (orderOf g = 2)) ↔ "
                       "((0 < x) ∧ (x < √y) ∧ (orderOf g = 2))))")
    assert obligation_from_ir(conclusions, sources=(a, b), lean_symbols=True).goal == \
        "(∀ (x : ℝ) (y : ℝ) (g : G), ((g ^ 2 = 1 ∧ x ≤ y) ↔ (g ^ 2 = 1 ∧ x ≤ y)))"
    # without the sources: the carrier G has no binder, so no rendering at all
    with pytest.raises(Exception, match="sort G"):
        obligation_from_ir(premises, lean_symbols=True)


def test_source_text_never_crosses_sides() -> None:
    """B's component must be rendered from B's text even when it equals A's IR: A's text there
    would make Lean check our reading of B instead of B."""
    from provers.backends.lean.render import obligation_from_ir
    from provers.lean4.parser import parse_lean

    a = parse_lean("theorem t (x : ℝ) (h : 0 < x) : x ^ 2 > 0 := sorry")
    b = parse_lean("theorem t (y : ℝ) (hy : (0:ℝ) < y) : y ^ 2 > 0 := sorry")
    premises, _ = _sae_obligations(a, b)
    assert obligation_from_ir(premises, sources=(a, b)).goal == "(∀ (x : ℝ), ((0 < x) ↔ ((0:ℝ) < x)))"
    # a formula that is not two-sided (which statement would it be?) uses no source text
    assert obligation_from_ir(premises.body.args[0], sources=(a, b),
                              premises=[premises.body.args[1]]).goal == "((0 : ℝ) < x)"


def test_source_text_the_screen_refuses_falls_back_to_the_ir() -> None:
    """A component whose text the screen refuses (a string literal) is printed from the IR;
    here the IR has no rendering either, so the obligation is NotRenderable (an `Unknown`),
    never text that the REPL client would have to refuse."""
    from provers import ir
    from provers.backends.lean.render import NotRenderable, obligation_from_ir
    from provers.lean4.parser import parse_lean

    a = parse_lean('theorem t (x : ℕ) (h : x = String.length "ab") : x > 0 := sorry')
    f = ir.forall_(list(a.variables), a.hypotheses[0].formula)
    with pytest.raises(NotRenderable):
        obligation_from_ir(f, sources=(a,), lean_symbols=True)
    ok = parse_lean("theorem t (x : ℕ) (h : x = 2) : x > 0 := sorry")
    assert obligation_from_ir(ir.forall_(list(ok.variables), ok.hypotheses[0].formula),
                              sources=(ok,)).goal == "(∀ (x : ℕ), (x = 2))"


@pytest.mark.parametrize("text, names, expected", [
    ("0 < x ∧ x.1 < f x", {"x": "y", "f": "g"}, "0 < y ∧ y.1 < g y"),
    ("∀ z, f z = x", {"x": "y", "f": "f"}, "∀ z, f z = y"),
    ("∀ y, f y = x", {"x": "y", "f": "f"}, None),          # capture of the new name
    ("∀ x, f x = 0", {"f": "g"}, None),                     # shadows a statement variable
    ("∀ z, f z = x", {"f": "f"}, None),                     # x is not in the matched IR
    ("∃ ⟨a, b⟩ : ℕ × ℕ, f a = x", {"x": "y", "f": "f"}, None),
    ("{z : ℝ | z < x}.Nonempty", {"x": "x_1"}, "{z : ℝ | z < x_1}.Nonempty"),
    ("(Finset.range n).card = n", {"n": "m"}, "(Finset.range m).card = m"),
])
def test_rename_source_text_is_token_level_and_refuses_capture(text, names, expected) -> None:
    from provers.backends.lean.source_text import rename_text

    assert rename_text(text, names, frozenset({"x", "f", "n"})) == expected


def test_lean_backend_maps_results(log_path: Path) -> None:
    from provers import ir
    from provers.backends.base import Proved, Unknown
    from provers.backends.lean.backend import LeanBackend

    n = ir.Var("n", ir.NAT)
    with LeanBackend(LeanReplPool(fake_config(), size=1)) as backend:
        proved = backend.prove(ir.forall_([n], ir.app("eq", ir.app("add", n, ir.num(0, ir.NAT)), n)),
                               timeout=5)
        failed = backend.prove("ERROR = 1", timeout=5)
        hung = backend.prove("HANG = 1", timeout=0.5)
        opaque = backend.prove(ir.app("eq", ir.uninterpreted("orderOf", [n], ir.NAT), n), timeout=5)
        unsafe = backend.prove("True := by sorry\n#eval 1", timeout=5)
        statement = backend.prove("import Mathlib\nopen Real\ntheorem t (x : ℝ) : x ^ 2 ≥ 0 := by sorry",
                                  timeout=5)
        commented = backend.prove("theorem c : True -- no proof yet", timeout=5)
    assert isinstance(proved, Proved) and proved.backend == "lean"
    assert isinstance(failed, Unknown) and failed.reason == "Lean error: unsolved goals"
    assert isinstance(hung, Unknown) and hung.reason.startswith("timeout")
    assert isinstance(opaque, Unknown) and "not renderable" in opaque.reason
    assert isinstance(unsafe, Unknown) and "refused before Lean" in unsafe.reason
    assert isinstance(statement, Proved)
    sent = [e["cmd"] for e in read_log(log_path)]
    assert sent[0] == "import Mathlib"
    assert sent[1].startswith("theorem obligation :\n    (∀ (n : ℕ), ((n + (0 : ℕ)) = n)) := by")
    assert "| (nlinarith; done)" in sent[1]
    assert sent[-2].startswith("open Real\ntheorem t (x : ℝ) : x ^ 2 ≥ 0 := by\n  intros")
    assert isinstance(commented, Proved) and sent[-1].startswith("theorem c : True := by\n")
    assert not any("sorry" in c or "#eval" in c or "orderOf" in c for c in sent)


def test_engine_sends_original_text_through_bind(log_path: Path) -> None:
    """check_equivalence → LeanBackend.bind(a, b): the REPL receives each statement's
    own hypothesis text (B's renamed onto A's variables), the carriers' binders and the
    headers' `open` lines. (The stand-in accepts every proof: this checks the wiring.)"""
    from provers import check_equivalence
    from provers.backends.lean.backend import LeanBackend
    from provers.lean4.parser import parse_lean

    a = parse_lean("import Mathlib\nopen Real\ntheorem t {G : Type*} [Group G] (x : ℝ) (g : G) "
                   "(h : orderOf g = 2 ∧ 0 < sqrt x) : g ^ 2 = 1 := by sorry")
    b = parse_lean("import Mathlib\ntheorem u {G : Type*} [Group G] (y : ℝ) (k : G) "
                   "(h : orderOf k = 2) (h' : 0 < √y ^ 3) : k ^ 2 = 1 := by sorry")
    with LeanBackend(LeanReplPool(fake_config(), size=1)) as backend:
        lean = backend.bind(a, b)
        assert lean.transport is backend.transport and lean.lean_symbols and not backend.lean_symbols
        v = check_equivalence(a, b, backend=lean, timeout=5)
    assert v.status == "equivalent", v.reason
    sent = [e["cmd"] for e in read_log(log_path)][1:]
    premises = next(c for c in sent if "orderOf g = 2 ∧ 0 < sqrt x" in c)
    assert premises.startswith("open Real\ntheorem obligation {G : Type*} [Group G] :\n")
    assert "↔ ((orderOf g = 2) ∧ (0 < √x ^ 3))" in premises


class _StubBackend(Backend):
    """A backend that always gives the same answer and counts its calls."""

    def __init__(self, name: str, answer: object) -> None:
        self.name, self.answer, self.calls = name, answer, 0

    def prove(self, obligation: object, timeout: float = 5.0) -> object:
        self.calls += 1
        return self.answer


def test_lean_inside_a_chain_still_renders_from_source_text(log_path: Path) -> None:
    """A chain binds each of its backends: Lean behind an SMT stage that answers Unknown still
    receives each statement's own hypothesis text (before `Backend.bind`, the chain hid Lean
    from the engine's per-pair binding and Lean got the IR's printing instead)."""
    from provers import check_equivalence
    from provers.backends.base import Unknown
    from provers.backends.chain import BackendChain
    from provers.backends.lean.backend import LeanBackend
    from provers.lean4.parser import parse_lean

    a = parse_lean("import Mathlib\nopen Real\ntheorem t {G : Type*} [Group G] (x : ℝ) (g : G) "
                   "(h : orderOf g = 2 ∧ 0 < sqrt x) : g ^ 2 = 1 := by sorry")
    b = parse_lean("import Mathlib\ntheorem u {G : Type*} [Group G] (y : ℝ) (k : G) "
                   "(h : orderOf k = 2) (h' : 0 < √y ^ 3) : k ^ 2 = 1 := by sorry")
    smt = _StubBackend("smt", Unknown("gave up", "smt"))
    with LeanBackend(LeanReplPool(fake_config(), size=1)) as lean:
        v = check_equivalence(a, b, backend=BackendChain(smt, lean), timeout=5)
    assert v.status == "equivalent", v.reason
    assert smt.calls >= 1  # the SMT stage was asked first
    sent = [e["cmd"] for e in read_log(log_path)][1:]
    premises = next(c for c in sent if "orderOf g = 2 ∧ 0 < sqrt x" in c)
    assert premises.startswith("open Real\ntheorem obligation {G : Type*} [Group G] :\n")
    assert "↔ ((orderOf g = 2) ∧ (0 < √x ^ 3))" in premises


def test_backend_chain_runs_lean_only_on_unknown(log_path: Path) -> None:
    from provers import ir
    from provers.backends.base import Proved, Refuted, Unknown
    from provers.backends.chain import BackendChain
    from provers.backends.lean.backend import LeanBackend

    Stub = _StubBackend

    n = ir.Var("n", ir.NAT)
    goal = ir.forall_([n], ir.app("le", n, ir.app("add", n, n)))
    with LeanBackend(LeanReplPool(fake_config(), size=1)) as lean:
        refuting = Stub("smt", Refuted({"n": 1}, "smt"))
        assert isinstance(BackendChain(refuting, lean).prove(goal), Refuted)
        assert read_log(log_path) == []  # Lean never started
        unknown = Stub("smt", Unknown("nonlinear", "smt"))
        res = BackendChain(unknown, lean).prove(goal, timeout=5)
        assert isinstance(res, Proved) and res.backend == "lean"
        both = BackendChain(unknown, Stub("other", Unknown("gave up", "other"))).prove(goal)
        assert isinstance(both, Unknown) and both.reason == "smt: nonlinear; other: gave up"
    assert len(read_log(log_path)) == 2  # header + the one obligation


@pytest.mark.lean
@requires_lean
def test_real_lean_backend() -> None:
    from provers import ir
    from provers.backends.base import Proved, Unknown
    from provers.backends.lean.backend import LeanBackend

    n = ir.Var("n", ir.NAT)
    with LeanBackend(config=_real_config()) as backend:
        assert isinstance(backend.prove("∀ n : ℕ, n + 0 = n", timeout=60), Proved)
        assert isinstance(backend.prove(
            ir.forall_([n], ir.app("le", n, ir.app("add", n, n))), timeout=60), Proved)
        assert isinstance(backend.prove("(2 : ℕ) + 2 = 5", timeout=60), Unknown)
        if "Mathlib" in backend.header:  # LEAN_HEADER="import Mathlib"
            x = ir.Var("x", ir.REAL)
            sq = ir.app("pow", x, ir.num(2, ir.NAT))
            assert isinstance(backend.prove(
                ir.forall_([x], ir.app("le", ir.num(0, ir.REAL), sq)), timeout=120), Proved)


@pytest.mark.lean
@requires_lean
def test_real_lean_sorts_and_source_obligations() -> None:
    """Core Lean is enough: ℕ/ℤ statements; the sort check agrees with the frontend, and an
    obligation rendered from both statements' own text is proved."""
    from provers import check_equivalence
    from provers.backends.lean.backend import LeanBackend
    from provers.backends.lean.sortcheck import check_sorts
    from provers.lean4.parser import parse_lean

    a = parse_lean("theorem t (a b : ℕ) (h : a ≤ b ∧ 0 < a) : a ≤ b + 1 := by sorry")
    b = parse_lean("theorem u (x y : ℕ) (h : 0 < x) (h' : x ≤ y) : x < y + 2 := by sorry")
    with LeanBackend(config=_real_config()) as backend:
        sorts = check_sorts(a, backend.transport, timeout=60)
        assert sorts.ok, sorts
        v = check_equivalence(a, b, backend=backend.bind(a, b), timeout=60)
    assert v.status == "equivalent", v.reason


@pytest.mark.lean
@pytest.mark.skipif(not os.environ.get("KIMINA_URL"),
                    reason="no Kimina Lean server: set KIMINA_URL")
def test_real_kimina_server() -> None:
    cfg = LeanConfig.from_env(kimina_url=os.environ["KIMINA_URL"],
                              header=os.environ.get("LEAN_HEADER", ""))
    with KiminaClient.from_config(cfg) as client:
        good = client.check("theorem t (a b : ℕ) : a + b = b + a := by omega", timeout=60,
                            allowed_proofs=["by omega"])
        bad = client.check("theorem t : 2 + 2 = 5 := by decide", timeout=60,
                           allowed_proofs=["by decide"])
    assert good.ok, good.reason
    assert not bad.ok


# ---------------------------------------------------------------- sorts checked by Lean

def test_lean_context_parsing() -> None:
    from provers.backends.lean.sortcheck import lean_context

    goal = ("G : Type u_1\ninst✝ : Group G\nx y : ℝ\nf : ℕ →\n  ℝ\nh₀ : 0 < x\n⊢ f 0 ≤ x")
    assert lean_context(goal) == {"G": "Type u_1", "x": "ℝ", "y": "ℝ", "f": "ℕ → ℝ",
                                  "h₀": "0 < x"}


def test_sorts_checked_against_lean_goal(log_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The stand-in answers with the local context real Lean prints for the statement; the
    check compares it with the frontend's sorts (and reports what differs)."""
    from provers.backends.lean.sortcheck import check_sorts
    from provers.lean4.parser import parse_lean

    st = parse_lean("import Mathlib\nopen Real\ntheorem t {G : Type*} [Group G] (x y : ℝ) "
                    "(f : ℕ → ℝ) (s : Finset ℕ) (h₀ : 0 < x) : f 0 ≤ x := by simp")
    monkeypatch.setenv("FAKE_REPL_GOAL", "G : Type u_1\ninst✝ : Group G\nx y : ℝ\nf : ℕ → ℝ\n"
                       "s : Finset ℕ\nh₀ : 0 < x\n⊢ f 0 ≤ x")
    with LeanReplPool(fake_config(), size=1) as pool:
        good = check_sorts(st, pool, timeout=5)
        monkeypatch.setenv("FAKE_REPL_GOAL", "G : Type u_1\nx : ℕ\ny n : ℝ\nf : ℕ → ℝ\n"
                           "s : Finset ℕ\nh₀ : ℝ\n⊢ f 0 ≤ x")
        pool.close()
    with LeanReplPool(fake_config(), size=1) as pool:
        bad = check_sorts(st, pool, timeout=5)
        err = check_sorts(parse_lean("theorem t (x : ℕ) : ERROR x = x := by sorry"), pool, timeout=5)
    assert good.ok and good.mismatches == () and good.ours["s"] == "Finset ℕ", good
    assert not bad.ok and set(bad.mismatches) == {
        "x: Lean ℕ, frontend ℝ", "n: Lean binds n : ℝ, the frontend does not",
        "h₀: a variable of type ℝ in Lean, a hypothesis for the frontend"}
    assert not err.ok and err.error.startswith("Lean did not elaborate")
    sent = [e["cmd"] for e in read_log(log_path) if "theorem" in e["cmd"]]
    assert sent[0].startswith("open Real\ntheorem t {G : Type*} [Group G]")
    # rebuilt from the components' texts: the candidate's own proof never reaches Lean
    assert sent[0].endswith("(s : Finset ℕ) (h₀ : 0 < x) :\n    f 0 ≤ x := by sorry")


# ---------------------------------------------------------------- issue 12: what is sent

def test_prove_keeps_the_candidates_imports(log_path: Path) -> None:
    """`LeanBackend.prove` on a theorem checks its imports like `pool.check` does."""
    from provers.backends.lean.backend import LeanBackend

    text = "import Evil.Pwn\ntheorem t : True := by sorry"
    with LeanBackend(LeanReplPool(fake_config(), size=1)) as backend:
        with pytest.raises(LeanImportError, match="Evil.Pwn"):
            backend.prove(text, timeout=5)
        with pytest.raises(LeanImportError, match="Evil.Pwn"):
            backend.transport.check(text, timeout=5)
    assert read_log(log_path) == []  # nothing reached Lean


def test_statements_imports_are_checked_against_the_header(log_path: Path) -> None:
    from provers import check_equivalence
    from provers.backends.lean.backend import LeanBackend

    a = "import Mathlib\ntheorem t (x : ℕ) : x + 0 = x := by sorry"
    with LeanBackend(LeanReplPool(fake_config(header="import Aesop"), size=1)) as backend:
        with pytest.raises(LeanImportError, match="Mathlib"):
            check_equivalence(a, "theorem t (y : ℕ) : y = y + 0", backend=backend, timeout=5)
    assert read_log(log_path) == []


def test_comments_are_removed_before_sending(log_path: Path) -> None:
    text = ("/- a /- nested #eval 1 -/ comment -/\n/-- doc -/\n"
            "theorem t (x : ℕ) : OK x = x -- trailing #eval\n  := by decide")
    with LeanRepl(fake_config()) as repl:
        assert repl.check(text, timeout=5, allowed_proofs=[PROOF]).ok
    sent = read_log(log_path)[-1]["cmd"]
    assert "/-" not in sent and "--" not in sent and "eval" not in sent and "doc" not in sent
    assert sent.startswith("theorem t (x : ℕ) : OK x = x")


def test_repl_shutdown_never_races_its_stderr_reader(log_path: Path) -> None:
    """Killing REPL processes while they write to stderr: the readers are joined before the
    pipes close (no exception in any thread), and a crash report keeps the REPL's stderr."""
    errors: list[BaseException] = []
    old_hook = threading.excepthook
    threading.excepthook = lambda args: errors.append(args.exc_value)  # type: ignore[assignment]
    try:
        for _ in range(12):
            repl = LeanRepl(fake_config())
            assert repl.check(stmt("STDERR_SPAM"), timeout=5, allowed_proofs=[PROOF]).ok
            repl.close()
        for _ in range(6):
            with LeanRepl(fake_config()) as repl:
                with pytest.raises(ReplCrashError, match="lean panic: line 199"):
                    repl.check(stmt("STDERR_CRASH"), timeout=5, allowed_proofs=[PROOF])
    finally:
        threading.excepthook = old_hook
    assert errors == []


def _attacks() -> list[str]:
    from test_lean_commands import ATTACKS

    return [a for a, _, _ in ATTACKS]


@pytest.mark.parametrize("attack", _attacks())
def test_command_carrying_candidates_are_errors_and_never_reach_lean(log_path: Path, attack: str) -> None:
    """In check_equivalence (SMT only, and with a Lean backend) a candidate with a command is a
    ParseError, never a verdict; and nothing Lean receives ever holds a command."""
    from provers import check_equivalence
    from provers.backends.lean.backend import LeanBackend
    from provers.backends.lean.render import tactic_script
    from provers.backends.lean.security import screen_statement
    from provers.errors import ParseError
    from provers.lean4.commands import COMMAND_KEYWORDS

    plain = "theorem t (x : ℕ) (h : 0 < x) : x ≠ 0 := by sorry"
    with pytest.raises(ParseError):
        check_equivalence(attack, plain, timeout=3)
    with LeanBackend(LeanReplPool(fake_config(), size=1)) as backend:
        for a, b in ((attack, plain), (plain, attack)):
            with pytest.raises(ParseError):
                check_equivalence(a, b, backend=backend, timeout=5)
        other = "theorem u (y : ℕ) (hy : 1 ≤ y) : ¬ (y = 0) := by sorry"
        assert check_equivalence(plain, other, backend=backend, timeout=5).status == "equivalent"
        proof = tactic_script(backend.tactics)
    sent = [e["cmd"] for e in read_log(log_path)]
    assert sent and sent[0] == "import Mathlib" and len(sent) >= 2
    for cmd in sent[1:]:
        screen_statement(cmd, allowed_proofs=[proof])  # a header and one theorem, nothing else
        words = set(cmd.replace("(", " ").replace(")", " ").split())
        assert not (words & COMMAND_KEYWORDS) - {"theorem", "open"}, cmd
        assert "#" not in cmd
