"""Typed clients for checking Lean 4 text: a local leanprover-community REPL, or a Kimina server.

Local REPL protocol (https://github.com/leanprover-community/repl): JSON commands on stdin,
each followed by a blank line; each reply is a (pretty-printed) JSON object on stdout followed
by a blank line. `{"cmd": "import Mathlib"}` (no `env`) builds an environment once and answers
`{"env": N}`; later `{"cmd": "...", "env": N}` reuse it, so Mathlib is imported once per
process. Replies carry `messages` (severity trace/info/warning/error) and `sorries`; empty
lists are omitted. A command the REPL cannot run is answered `{"message": "..."}`.

Every candidate-derived text goes through `provers.backends.lean.security.screen_statement` before it
can reach a process or server; only the configured header (from the user) is trusted.

A result is accepted (`LeanResult.ok`) only when Lean reported no error and no `sorry`.
"""

from __future__ import annotations

import json
import math
import os
import queue
import re
import resource
import shlex
import shutil
import subprocess
import threading
import time
import uuid
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlparse

from provers.backends.lean.security import screen_statement
from provers.lean4.commands import MATHLIB_PACKAGES

__all__ = [
    "ENV_PROJECT", "ENV_REPL", "ENV_KIMINA", "ENV_KIMINA_KEY", "ENV_MEMORY",
    "LeanError", "LeanConfigError", "LeanHeaderError", "LeanImportError",
    "ReplProtocolError", "ReplCrashError",
    "Pos", "LeanMessage", "LeanSorry", "LeanResult", "LeanConfig",
    "LeanTransport", "LeanRepl", "LeanReplPool", "KiminaClient", "connect",
]

ENV_PROJECT = "LEAN_PROJECT"
ENV_REPL = "LEAN_REPL"
ENV_KIMINA = "KIMINA_URL"
ENV_KIMINA_KEY = "KIMINA_API_KEY"
ENV_MEMORY = "LEAN_REPL_MEMORY_MB"

DEFAULT_MEMORY_MB = 16 * 1024  # RLIMIT_AS counts mmapped .olean files: Mathlib needs ~10 GB
DEFAULT_TIMEOUT = 30.0

# Packages Mathlib depends on: importing Mathlib makes their modules available too.
_MATHLIB_DEPS = MATHLIB_PACKAGES
#: Lean's warning for a declaration that uses `sorry` (quote style varies across versions)
_SORRY_WARNINGS = ("declaration uses 'sorry'", "declaration uses `sorry`")


def _sorry_warning(data: str) -> bool:
    return any(w in data for w in _SORRY_WARNINGS)


# --------------------------------------------------------------------------- errors

class LeanError(RuntimeError):
    """Base class: something went wrong talking to Lean (not: Lean rejected a proof)."""


class LeanConfigError(LeanError):
    """LEAN_PROJECT / LEAN_REPL / KIMINA_URL (or arguments) point at nothing usable."""


class LeanHeaderError(LeanError):
    """The trusted header (e.g. `import Mathlib`) did not elaborate: the project is not built."""


class LeanImportError(LeanError):
    """A candidate imports a module the configured header does not provide."""


class ReplProtocolError(LeanError):
    """The REPL or server answered something that is not a valid reply."""


class ReplCrashError(LeanError):
    """The REPL process died on this command, also on the one retry."""


# --------------------------------------------------------------------------- results

@dataclass(frozen=True)
class Pos:
    line: int
    column: int


@dataclass(frozen=True)
class LeanMessage:
    severity: str  # "trace" | "info" | "warning" | "error"
    data: str
    pos: Pos | None = None
    end_pos: Pos | None = None


@dataclass(frozen=True)
class LeanSorry:
    goal: str
    pos: Pos | None = None
    end_pos: Pos | None = None
    proof_state: int | None = None


@dataclass(frozen=True)
class LeanResult:
    """What Lean said about one command.

    `ok` is True only when Lean reported no error, no `sorry`, and the command was neither
    cut off (`timed_out`) nor refused by the REPL/server (`error`).
    """

    ok: bool
    messages: tuple[LeanMessage, ...] = ()
    sorries: tuple[LeanSorry, ...] = ()
    env: int | None = None
    time: float = 0.0
    timed_out: bool = False
    error: str | None = None

    @property
    def errors(self) -> tuple[LeanMessage, ...]:
        return tuple(m for m in self.messages if m.severity == "error")

    @property
    def has_sorry(self) -> bool:
        return bool(self.sorries) or any(_sorry_warning(m.data) for m in self.messages)

    @property
    def reason(self) -> str:
        """One line saying why the result is not ok ("" when it is)."""
        if self.ok:
            return ""
        if self.timed_out:
            return self.error or "timeout"
        if self.error:
            return self.error
        if self.errors:
            return "Lean error: " + self.errors[0].data.splitlines()[0]
        if self.has_sorry:
            return "proof uses sorry"
        return "not accepted"

    @classmethod
    def from_reply(cls, reply: Any, elapsed: float = 0.0) -> LeanResult:
        """Build from a REPL CommandResponse (or `{"message": ...}`); ReplProtocolError if malformed."""
        if not isinstance(reply, dict):
            raise ReplProtocolError(f"reply is not a JSON object: {_short(reply)}")
        if "env" not in reply and isinstance(reply.get("message"), str):
            return cls(ok=False, time=elapsed, error="REPL error: " + reply["message"])
        env = reply.get("env")
        if env is not None and (not isinstance(env, int) or isinstance(env, bool)):
            raise ReplProtocolError(f"reply field 'env' is not an integer: {_short(reply)}")
        messages = tuple(_message(m) for m in _list(reply, "messages"))
        sorries = tuple(_sorry(s) for s in _list(reply, "sorries"))
        if env is None and not messages and not sorries:
            raise ReplProtocolError(f"reply has neither 'env' nor messages: {_short(reply)}")
        ok = not any(m.severity == "error" for m in messages) and not sorries and not any(
            _sorry_warning(m.data) for m in messages)
        return cls(ok=ok, messages=messages, sorries=sorries, env=env, time=elapsed)


def _short(obj: Any, n: int = 200) -> str:
    s = obj if isinstance(obj, str) else repr(obj)
    return s if len(s) <= n else s[:n] + "..."


def _list(reply: dict, key: str) -> list:
    value = reply.get(key, [])
    if value is None:
        return []
    if not isinstance(value, list):
        raise ReplProtocolError(f"reply field {key!r} is not a list: {_short(reply)}")
    return value


def _pos(obj: Any) -> Pos | None:
    if obj is None:
        return None
    if (not isinstance(obj, dict) or not isinstance(obj.get("line"), int)
            or not isinstance(obj.get("column"), int)):
        raise ReplProtocolError(f"bad position {_short(obj)}")
    return Pos(obj["line"], obj["column"])


def _message(obj: Any) -> LeanMessage:
    if (not isinstance(obj, dict) or obj.get("severity") not in ("trace", "info", "warning", "error")
            or not isinstance(obj.get("data"), str)):
        raise ReplProtocolError(f"bad message {_short(obj)}")
    return LeanMessage(obj["severity"], obj["data"], _pos(obj.get("pos")), _pos(obj.get("endPos")))


def _sorry(obj: Any) -> LeanSorry:
    if not isinstance(obj, dict) or not isinstance(obj.get("goal", ""), str):
        raise ReplProtocolError(f"bad sorry {_short(obj)}")
    ps = obj.get("proofState")
    return LeanSorry(obj.get("goal", ""), _pos(obj.get("pos")), _pos(obj.get("endPos")),
                     ps if isinstance(ps, int) else None)


# --------------------------------------------------------------------------- configuration

@dataclass(frozen=True)
class LeanConfig:
    """Where Lean lives and how to run it.

    `command` starts a REPL (cwd `project`); `kimina_url` names a Kimina Lean server.
    `header` is trusted text (imports, opens) run once per process and shared by all commands.
    `memory_limit_mb` caps each REPL's address space (None: no cap).
    """

    command: tuple[str, ...] | None = None
    project: Path | None = None
    kimina_url: str | None = None
    kimina_api_key: str | None = None
    header: str = ""
    memory_limit_mb: int | None = DEFAULT_MEMORY_MB
    startup_timeout: float = 900.0
    max_commands: int | None = None  # restart a process after this many commands (memory)
    extra_env: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def from_env(cls, project: str | os.PathLike[str] | None = None, repl: str | None = None,
                 kimina_url: str | None = None, *, header: str = "",
                 memory_limit_mb: int | None | str = "env",
                 environ: Mapping[str, str] | None = None) -> LeanConfig:
        """Resolve arguments, falling back to LEAN_PROJECT / LEAN_REPL / KIMINA_URL.

        Raises LeanConfigError naming the variable when a value points at nothing, or when
        nothing at all is configured.
        """
        env = os.environ if environ is None else environ
        src_project = "argument project" if project is not None else ENV_PROJECT
        src_repl = "argument repl" if repl is not None else ENV_REPL
        project = project if project is not None else env.get(ENV_PROJECT) or None
        repl = repl if repl is not None else env.get(ENV_REPL) or None
        kimina_url = kimina_url if kimina_url is not None else env.get(ENV_KIMINA) or None
        if memory_limit_mb == "env":
            raw = env.get(ENV_MEMORY)
            try:
                memory_limit_mb = DEFAULT_MEMORY_MB if raw is None else int(raw) or None
            except ValueError:
                raise LeanConfigError(f"{ENV_MEMORY}={raw!r} is not an integer (MB)") from None
        if project is None and repl is None and kimina_url is None:
            raise LeanConfigError(f"no Lean configured: set {ENV_PROJECT} (a Lean project with "
                                  f"the REPL built), {ENV_REPL} (a REPL command) or "
                                  f"{ENV_KIMINA} (a Kimina Lean server URL)")
        proj_path = _check_project(Path(project), src_project) if project is not None else None
        command: tuple[str, ...] | None = None
        if repl is not None:
            command = tuple(shlex.split(repl))
            if not command:
                raise LeanConfigError(f"{src_repl} is empty")
            _check_executable(command[0], proj_path, src_repl)
        elif proj_path is not None:
            command = _default_command(proj_path, src_project)
        if kimina_url is not None:
            parsed = urlparse(kimina_url)
            if parsed.scheme not in ("http", "https") or not parsed.netloc:
                raise LeanConfigError(f"{ENV_KIMINA}={kimina_url!r} is not an http(s) URL")
        return cls(command=command, project=proj_path, kimina_url=kimina_url,
                   kimina_api_key=env.get(ENV_KIMINA_KEY) or None, header=header,
                   memory_limit_mb=memory_limit_mb)  # type: ignore[arg-type]

    def with_header(self, header: str) -> LeanConfig:
        return replace(self, header=header)


def _check_project(path: Path, source: str) -> Path:
    if not path.is_dir():
        raise LeanConfigError(f"{source}={str(path)!r}: no such directory")
    if not any((path / f).exists() for f in ("lakefile.lean", "lakefile.toml", "lean-toolchain")):
        raise LeanConfigError(f"{source}={str(path)!r} is not a Lean project "
                              "(no lakefile.lean, lakefile.toml or lean-toolchain)")
    return path.resolve()


def _check_executable(exe: str, cwd: Path | None, source: str) -> None:
    if os.sep in exe:
        p = Path(exe) if Path(exe).is_absolute() else (cwd or Path.cwd()) / exe
        if not (p.is_file() and os.access(p, os.X_OK)):
            raise LeanConfigError(f"{source}: {exe!r} is not an executable file")
    elif shutil.which(exe) is None:
        raise LeanConfigError(f"{source}: {exe!r} is not on PATH")


def _default_command(project: Path, source: str) -> tuple[str, ...]:
    """`lake env <repl>` with the REPL built inside the project, else `lake env repl`."""
    if shutil.which("lake") is None:
        raise LeanConfigError(f"{source} is set but `lake` is not on PATH (install elan)")
    for rel in (".lake/packages/REPL/.lake/build/bin/repl", ".lake/packages/repl/.lake/build/bin/repl",
                ".lake/build/bin/repl"):
        if (project / rel).is_file():
            return ("lake", "env", str(project / rel))
    if shutil.which("repl") is not None:
        return ("lake", "env", "repl")
    raise LeanConfigError(f"{source}={str(project)!r}: no REPL binary found (looked in "
                          ".lake/packages/REPL/.lake/build/bin/repl and .lake/build/bin/repl, "
                          f"and `repl` on PATH); build it or set {ENV_REPL}")


def header_imports(header: str) -> tuple[str, ...]:
    """Module names imported by a (trusted) header."""
    return tuple(re.findall(r"^\s*import\s+([^\s-]+)", header, flags=re.MULTILINE))


def _import_covered(module: str, provided: Iterable[str]) -> bool:
    provided = tuple(provided)
    root = module.split(".")[0]
    if root == "Init":
        return True
    for p in provided:
        if module == p or module.startswith(p + "."):
            return True
    return any(p.split(".")[0] == "Mathlib" for p in provided) and root in _MATHLIB_DEPS


def prepare_candidate(text: str, header: str, allowed_proofs: Iterable[str] = ()) -> str:
    """Screen `text` and return the command body to run on top of `header`'s environment.

    The candidate's own imports must already be provided by the header (one import per
    process); its `open` lines are kept in front of the declaration.
    Raises UnsafeLeanError or LeanImportError.
    """
    screened = screen_statement(text, allowed_proofs=allowed_proofs)
    _check_modules(screened.imports, header)
    return "\n".join((*screened.opens, screened.declaration))


def check_imports(text: str, header: str) -> None:
    """Raise LeanImportError unless every ``import`` of ``text`` (a statement's header) is
    provided by the trusted ``header``."""
    _check_modules(header_imports(text), header)


def _check_modules(modules: Iterable[str], header: str) -> None:
    provided = header_imports(header)
    for module in modules:
        if not _import_covered(module, provided):
            raise LeanImportError(f"candidate imports {module!r}, which the configured header "
                                  f"does not import ({', '.join(provided) or 'no imports'})")


# --------------------------------------------------------------------------- transports

class LeanTransport(Protocol):
    """What LeanBackend needs: check one screened candidate-derived text."""

    @property
    def header(self) -> str: ...

    def check(self, text: str, timeout: float = DEFAULT_TIMEOUT, *,
              allowed_proofs: Iterable[str] = ()) -> LeanResult: ...

    def close(self) -> None: ...


class _Crashed(Exception):
    pass


class _TimedOut(Exception):
    pass


def _limit_memory(limit_bytes: int) -> Any:
    setrlimit, kind = resource.setrlimit, resource.RLIMIT_AS

    def preexec() -> None:  # runs in the child between fork and exec: no imports, no locks
        setrlimit(kind, (limit_bytes, limit_bytes))
    return preexec


class LeanRepl:
    """One REPL process with the trusted header imported once; commands are serialized
    (a lock), so use a LeanReplPool for parallelism.

    A command that exceeds its timeout kills the process group; the next command starts a
    new process and re-runs the header. A process that dies during a command is restarted
    and the command retried once.
    """

    def __init__(self, config: LeanConfig) -> None:
        if not config.command:
            raise LeanConfigError(f"no REPL command configured (set {ENV_PROJECT} or {ENV_REPL})")
        self.config = config
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._stderr: deque[str] = deque(maxlen=40)
        self._env: int | None = None
        self._commands = 0
        self._lock = threading.Lock()
        self._pumps: tuple[threading.Thread, ...] = ()  # stdout and stderr readers
        self.starts = 0  # processes started so far (restarts = starts - 1)

    # -- lifecycle
    @property
    def header(self) -> str:
        return self.config.header

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc is not None else None

    @property
    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self) -> None:
        """Start the process and import the header (no-op when already running)."""
        if self.alive:
            return
        self._kill()
        cfg = self.config
        env = {**os.environ, **cfg.extra_env}
        preexec = (_limit_memory(cfg.memory_limit_mb * 1024 * 1024)
                   if cfg.memory_limit_mb else None)
        try:
            self._proc = subprocess.Popen(
                list(cfg.command or ()), cwd=cfg.project, env=env, stdin=subprocess.PIPE,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=preexec,
                start_new_session=True)
        except OSError as e:
            raise LeanConfigError(f"cannot start REPL {shlex.join(cfg.command or ())!r}: {e}") from e
        self.starts += 1
        self._commands = 0
        self._lines = queue.Queue()
        self._stderr = deque(maxlen=40)  # fresh per process: a dying one cannot write here
        proc = self._proc
        self._pumps = (
            threading.Thread(target=self._pump_stdout, args=(proc, self._lines), daemon=True),
            threading.Thread(target=self._pump_stderr, args=(proc, self._stderr), daemon=True),
        )
        for t in self._pumps:
            t.start()
        self._env = None
        if cfg.header.strip():
            self._import_header()

    def _import_header(self) -> None:
        """Run the trusted header once; its env is the base of every later command."""
        timeout = self.config.startup_timeout
        try:
            result = LeanResult.from_reply(self._roundtrip({"cmd": self.config.header}, timeout))
        except _TimedOut:
            self._kill()
            raise LeanHeaderError(f"header did not elaborate within {timeout:g}s") from None
        except _Crashed as e:
            self._kill()
            raise LeanHeaderError(f"REPL died while importing the header: {e}") from None
        except ReplProtocolError:
            self._kill()
            raise
        if result.error or result.errors or result.env is None:
            self._kill()
            raise LeanHeaderError("header failed: " + (result.reason or "no env in reply"))
        self._env = result.env

    def close(self) -> None:
        """Stop the process: close stdin (the REPL exits at end of input), then kill."""
        proc = self._proc
        if proc is not None and proc.poll() is None and proc.stdin is not None:
            try:
                proc.stdin.close()
                proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self._kill()

    def __enter__(self) -> LeanRepl:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _kill(self) -> None:
        proc, self._proc = self._proc, None
        pumps, self._pumps = self._pumps, ()
        if proc is None:
            return
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, 9)
            except (ProcessLookupError, PermissionError):
                proc.kill()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        try:
            if proc.stdin:
                proc.stdin.close()
        except OSError:
            pass
        # The readers end at end of file once the process is gone; close their pipes only
        # after they have (closing a pipe a thread still reads raises in that thread and can
        # lose the REPL's last words). A reader still blocked (a grandchild holds the pipe)
        # keeps its pipe: the garbage collector closes it.
        for stream, pump in zip((proc.stdout, proc.stderr), pumps or (None, None), strict=True):
            if pump is not None:
                pump.join(timeout=2)
                if pump.is_alive():
                    continue
            try:
                if stream:
                    stream.close()
            except OSError:
                pass

    @staticmethod
    def _pump_stdout(proc: subprocess.Popen[bytes], lines: queue.Queue[str | None]) -> None:
        assert proc.stdout is not None
        try:
            for raw in proc.stdout:
                lines.put(raw.decode("utf-8", errors="replace"))
        except (OSError, ValueError):  # the pipe was closed under us: the process is gone
            pass
        lines.put(None)

    @staticmethod
    def _pump_stderr(proc: subprocess.Popen[bytes], sink: deque[str]) -> None:
        assert proc.stderr is not None
        try:
            for raw in proc.stderr:
                sink.append(raw.decode("utf-8", errors="replace").rstrip())
        except (OSError, ValueError):
            pass

    # -- protocol
    def _roundtrip(self, payload: dict[str, Any], timeout: float) -> Any:
        proc = self._proc
        if proc is None or proc.stdin is None:
            raise _Crashed("process not running")
        data = json.dumps(payload, ensure_ascii=False) + "\n\n"
        try:
            proc.stdin.write(data.encode("utf-8"))
            proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise _Crashed(f"cannot write to REPL: {e}") from None
        return self._read_reply(time.monotonic() + timeout)

    def _read_reply(self, deadline: float) -> Any:
        buf: list[str] = []
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise _TimedOut()
            try:
                line = self._lines.get(timeout=remaining)
            except queue.Empty:
                raise _TimedOut() from None
            if line is None:
                code = self._proc.poll() if self._proc else None
                if code is None and self._proc is not None:
                    try:
                        code = self._proc.wait(timeout=1)
                    except subprocess.TimeoutExpired:
                        code = None
                if len(self._pumps) == 2:  # let the stderr reader drain what the REPL said
                    self._pumps[1].join(timeout=1)
                tail = " | ".join(list(self._stderr)[-5:])
                raise _Crashed(f"REPL exited (code {code})" + (f": {tail}" if tail else ""))
            if line.strip():
                buf.append(line)
                continue
            if not buf:
                continue  # blank lines between replies
            text = "".join(buf)
            try:
                return json.loads(text)
            except json.JSONDecodeError as e:
                raise ReplProtocolError(f"malformed reply from REPL ({e.msg}): {_short(text)}") from None

    def _run(self, body: str, timeout: float) -> LeanResult:
        """Send screened `body` on top of the header env; restart/retry as documented."""
        with self._lock:
            return self._run_locked(body, timeout)

    def _run_locked(self, body: str, timeout: float) -> LeanResult:
        last: _Crashed | None = None
        for _attempt in range(2):
            if self.config.max_commands and self._commands >= self.config.max_commands:
                self._kill()
            self.start()
            payload: dict[str, Any] = {"cmd": body}
            if self._env is not None:
                payload["env"] = self._env
            t0 = time.monotonic()
            try:
                reply = self._roundtrip(payload, timeout)
            except _TimedOut:
                self._kill()  # the next command starts a fresh process and re-imports
                return LeanResult(ok=False, time=time.monotonic() - t0, timed_out=True,
                                  error=f"timeout after {timeout:g}s")
            except _Crashed as e:
                self._kill()
                last = e
                continue
            except ReplProtocolError:
                self._kill()  # state unknown after garbage: never reuse this process
                raise
            self._commands += 1
            try:
                return LeanResult.from_reply(reply, time.monotonic() - t0)
            except ReplProtocolError:
                self._kill()
                raise
        raise ReplCrashError(f"REPL crashed twice on this command: {last}")

    def check(self, text: str, timeout: float = DEFAULT_TIMEOUT, *,
              allowed_proofs: Iterable[str] = ()) -> LeanResult:
        """Screen candidate-derived `text`, then elaborate it on top of the header.

        Raises UnsafeLeanError / LeanImportError before anything is sent.
        """
        body = prepare_candidate(text, self.config.header, allowed_proofs)
        return self._run(body, timeout)


class LeanReplPool:
    """N REPL processes shared by threads; `check` borrows one for the duration of a command."""

    def __init__(self, config: LeanConfig, size: int = 1) -> None:
        if size < 1:
            raise ValueError("pool size must be >= 1")
        self.config = config
        self.workers = [LeanRepl(config) for _ in range(size)]
        self._free: queue.Queue[LeanRepl] = queue.Queue()
        for w in self.workers:
            self._free.put(w)
        self._closed = False

    @property
    def header(self) -> str:
        return self.config.header

    @contextmanager
    def checkout(self, timeout: float | None = None) -> Iterator[LeanRepl]:
        """Borrow a worker (blocks until one is free; LeanError after `timeout` seconds)."""
        if self._closed:
            raise LeanError("pool is closed")
        try:
            worker = self._free.get(timeout=timeout)
        except queue.Empty:
            raise LeanError(f"no free Lean REPL within {timeout}s") from None
        try:
            yield worker
        finally:
            self._free.put(worker)

    def check(self, text: str, timeout: float = DEFAULT_TIMEOUT, *,
              allowed_proofs: Iterable[str] = ()) -> LeanResult:
        body = prepare_candidate(text, self.config.header, allowed_proofs)  # screen first
        with self.checkout() as worker:
            return worker._run(body, timeout)

    def close(self) -> None:
        self._closed = True
        for w in self.workers:
            w.close()

    def __enter__(self) -> LeanReplPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class KiminaClient:
    """Talks to a Kimina Lean server (`POST /api/check`), which runs REPLs for us.

    Request: `{"snippet": {"id", "code"}, "timeout", "debug", "reuse"}` (Kimina 2.x); the
    1.x batch field `snippets` is sent as well so either server version accepts it.
    Reply: `{"id", "time", "error"?, "response"?: <REPL CommandResponse>}` or
    `{"results": [that]}`.
    """

    def __init__(self, url: str, *, header: str = "", api_key: str | None = None,
                 path: str = "/api/check", http_slack: float = 10.0,
                 client: Any = None) -> None:
        import httpx

        parsed = urlparse(url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise LeanConfigError(f"Kimina URL {url!r} is not an http(s) URL")
        self.url = url.rstrip("/")
        self.path = path
        self.header = header
        self.http_slack = http_slack
        headers = {"Authorization": f"Bearer {api_key}"} if api_key else {}
        self._httpx = httpx
        self._client = client or httpx.Client(headers=headers)

    @classmethod
    def from_config(cls, config: LeanConfig) -> KiminaClient:
        if not config.kimina_url:
            raise LeanConfigError(f"no Kimina server configured (set {ENV_KIMINA})")
        return cls(config.kimina_url, header=config.header, api_key=config.kimina_api_key)

    def check(self, text: str, timeout: float = DEFAULT_TIMEOUT, *,
              allowed_proofs: Iterable[str] = ()) -> LeanResult:
        """Screen candidate-derived `text`, then have the server elaborate header + text."""
        body = prepare_candidate(text, self.header, allowed_proofs)
        code = (self.header.rstrip() + "\n\n" + body) if self.header.strip() else body
        snippet = {"id": uuid.uuid4().hex, "code": code}
        payload = {"snippet": snippet, "snippets": [snippet], "timeout": max(1, math.ceil(timeout)),
                   "debug": False, "reuse": True}
        t0 = time.monotonic()
        try:
            resp = self._client.post(self.url + self.path, json=payload,
                                      timeout=timeout + self.http_slack)
        except self._httpx.TimeoutException:
            return LeanResult(ok=False, time=time.monotonic() - t0, timed_out=True,
                              error=f"Kimina server did not answer within {timeout:g}s")
        except self._httpx.TransportError as e:
            raise LeanConfigError(f"cannot reach Kimina server at {self.url}: {e}") from e
        elapsed = time.monotonic() - t0
        if resp.status_code >= 400:
            raise ReplProtocolError(f"Kimina server answered HTTP {resp.status_code}: "
                                    f"{_short(resp.text)}")
        try:
            data = resp.json()
        except ValueError:
            raise ReplProtocolError(f"Kimina reply is not JSON: {_short(resp.text)}") from None
        if isinstance(data, dict) and isinstance(data.get("results"), list) and data["results"]:
            data = data["results"][0]
        if not isinstance(data, dict):
            raise ReplProtocolError(f"Kimina reply is not an object: {_short(data)}")
        error = data.get("error")
        if error:
            timed_out = "timed out" in str(error).lower() or "timeout" in str(error).lower()
            return LeanResult(ok=False, time=elapsed, timed_out=timed_out, error=str(error))
        if "response" not in data:
            raise ReplProtocolError(f"Kimina reply has neither 'response' nor 'error': "
                                    f"{_short(data)}")
        return LeanResult.from_reply(data["response"], elapsed)

    def close(self) -> None:
        self._client.close()

    def __enter__(self) -> KiminaClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def connect(config: LeanConfig | None = None, *, workers: int = 1,
            prefer: str = "repl") -> LeanTransport:
    """A transport for `config` (default: from the environment): a REPL pool or Kimina."""
    config = config or LeanConfig.from_env()
    use_repl = bool(config.command) and (prefer == "repl" or not config.kimina_url)
    if use_repl:
        return LeanReplPool(config, size=workers)
    if config.kimina_url:
        return KiminaClient.from_config(config)
    raise LeanConfigError(f"no Lean configured: set {ENV_PROJECT}, {ENV_REPL} or {ENV_KIMINA}")
