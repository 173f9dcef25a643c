"""`LeanInteractBackend`: obligations checked on a user's own LeanInteract server.

Many users already drive Lean through [LeanInteract](https://pypi.org/project/lean-interact/)
(``pip install autoformal-rerank[lean]``): a ``LeanServer`` / ``AutoLeanServer`` over a
``LeanREPLConfig`` of their project. ``LeanInteractBackend(server, header="import Mathlib")``
proves obligations on that server with the same contract as ``LeanBackend`` over our own REPL
client: every text is screened first (``security.screen_statement``), the candidate's imports
must come from the header, comments are removed, and LeanInteract's typed responses are mapped
with the REPL client's rules (``LeanResult.from_reply``): ``Proved`` only when Lean reported no
error, no ``sorry`` and no "declaration uses sorry" warning; everything else is ``Unknown`` with
the reason. The server is the user's: ``close()`` leaves it running.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterable, Sequence
from typing import Any

from provers import ir
from provers.backends.lean.backend import LeanBackend
from provers.backends.lean.render import DEFAULT_TACTICS
from provers.backends.lean.repl import (
    DEFAULT_TIMEOUT,
    LeanConfigError,
    LeanHeaderError,
    LeanResult,
    ReplProtocolError,
    prepare_candidate,
)

__all__ = ["LeanInteractBackend", "LeanInteractTransport", "result_from_response"]

#: What LeanInteract raises when its REPL process dies or is gone.
_SERVER_FAILURES = (ConnectionAbortedError, ChildProcessError, BrokenPipeError, EOFError)


def result_from_response(response: Any, elapsed: float = 0.0) -> LeanResult:
    """A LeanInteract ``CommandResponse`` / ``LeanError`` as a ``LeanResult`` (the REPL client's
    rules: any error message, ``sorry`` or sorry warning makes it not ok)."""
    if hasattr(response, "model_dump"):  # pydantic models: the REPL's own JSON
        reply = response.model_dump(by_alias=True, exclude_none=True)
    elif isinstance(response, dict):
        reply = response
    else:
        raise ReplProtocolError(f"unexpected LeanInteract response {type(response).__name__}")
    return LeanResult.from_reply(reply, elapsed)


class LeanInteractTransport:
    """The ``LeanTransport`` protocol (``header``, ``check``, ``close``) over a LeanInteract
    server: the header is run once and its environment reused by every command."""

    name = "lean-interact"

    def __init__(self, server: Any, header: str = "import Mathlib") -> None:
        if not callable(getattr(server, "run", None)):
            raise LeanConfigError("LeanInteractBackend needs a lean_interact server object "
                                  "(LeanServer / AutoLeanServer) with a run(request) method")
        try:
            from lean_interact import Command
        except ImportError as e:  # pragma: no cover - the server came from the package
            raise LeanConfigError("lean-interact is not installed: pip install "
                                  "'autoformal-rerank[lean]'") from e
        self._command = Command
        self.server = server
        self._header = header
        self._env: int | None = None
        self._lock = threading.Lock()

    @property
    def header(self) -> str:
        return self._header

    def check(self, text: str, timeout: float = DEFAULT_TIMEOUT, *,
              allowed_proofs: Iterable[str] = ()) -> LeanResult:
        """Screen candidate-derived ``text``, then elaborate it on top of the header."""
        body = prepare_candidate(text, self.header, allowed_proofs)  # raises before sending
        with self._lock:
            env = self._header_env(timeout)
            return self._send(body, env, timeout)

    def _header_env(self, timeout: float) -> int | None:
        alive = getattr(self.server, "is_alive", None)
        if callable(alive) and not alive() and callable(getattr(self.server, "restart", None)):
            self.server.restart()  # killed by a timeout: a fresh process, the header again
            self._env = None
        if self._env is None and self.header.strip():
            result = self._send(self.header, None, max(timeout, 60.0))
            if not result.ok or result.env is None:
                raise LeanHeaderError("header failed on the LeanInteract server: "
                                      + (result.reason or "no environment in the reply"))
            self._env = result.env
        return self._env

    def _send(self, cmd: str, env: int | None, timeout: float) -> LeanResult:
        request = self._command(cmd=cmd, env=env) if env is not None else self._command(cmd=cmd)
        t0 = time.monotonic()
        try:
            response = self.server.run(request, timeout=timeout)
        except TimeoutError:
            self._env = None  # LeanInteract kills a server that timed out
            return LeanResult(ok=False, time=time.monotonic() - t0, timed_out=True,
                              error=f"timeout after {timeout:g}s")
        except _SERVER_FAILURES as e:
            self._env = None
            return LeanResult(ok=False, time=time.monotonic() - t0,
                              error=f"LeanInteract server failure: {type(e).__name__}: {e}")
        return result_from_response(response, time.monotonic() - t0)

    def close(self) -> None:
        """The server belongs to the caller: nothing to stop here."""


class LeanInteractBackend(LeanBackend):
    """``LeanBackend`` over a user's LeanInteract server (see the module docstring)::

        from lean_interact import AutoLeanServer, LeanREPLConfig, LocalProject
        server = AutoLeanServer(LeanREPLConfig(project=LocalProject("~/leancheck")))
        backend = LeanInteractBackend(server, header="import Mathlib")
        check_equivalence(a, b, backend=BackendChain(Portfolio(), backend))
    """

    name = "lean-interact"

    def __init__(self, server: Any, *, header: str = "import Mathlib",
                 tactics: Sequence[str] = DEFAULT_TACTICS, lean_symbols: bool = False,
                 sources: Sequence[ir.Statement] = ()) -> None:
        super().__init__(LeanInteractTransport(server, header), tactics=tactics,
                         lean_symbols=lean_symbols, sources=sources)
