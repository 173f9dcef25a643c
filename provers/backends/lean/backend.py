"""`LeanBackend`: obligations proved by Lean (local REPL pool or Kimina server).

Same contract as the SMT backends (`provers.backends.base.Backend`): `prove(obligation, timeout)`
answers `Proved` when Lean accepted the rendered theorem (no error, no `sorry`), else
`Unknown(reason)`. It never answers `Refuted`: a failed tactic portfolio proves nothing.

`obligation` may be
- an IR formula (`provers.ir.Term`), printed with Mathlib names (`obligation_from_ir`);
- a `LeanObligation` built from original Lean text parts;
- a string: a Lean proposition (`"∀ n : ℕ, n + 0 = n"`) or a whole theorem statement
  (`"theorem t (x : ℝ) : x ^ 2 ≥ 0 := by sorry"`), whose `:= ...` tail is replaced by the
  portfolio.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Sequence

from provers import ir
from provers.backends.base import Backend, ProofResult, Proved, Unknown
from provers.backends.lean.render import (
    DEFAULT_TACTICS,
    LeanObligation,
    NotRenderable,
    SourceIndex,
    obligation_from_ir,
    portfolio_for,
    render_theorem,
    tactic_script,
)
from provers.backends.lean.repl import (
    LeanConfig,
    LeanError,
    LeanImportError,
    LeanTransport,
    check_imports,
    connect,
)
from provers.backends.lean.security import UnsafeLeanError, screen_statement

__all__ = ["LeanBackend"]

_DECL_START = ("theorem", "lemma", "example", "import", "open", "/-", "--")


class LeanBackend(Backend):
    """Prove obligations with Lean; every failure mode is an `Unknown` with its reason.

    `transport`: a LeanReplPool / LeanRepl / KiminaClient; by default one is made from
    `config` (default: LEAN_PROJECT / LEAN_REPL / KIMINA_URL, raising LeanConfigError when
    they point at nothing). `tactics` is the portfolio; Mathlib-only tactics are dropped
    unless the header imports Mathlib. `lean_symbols=True` renders uninterpreted symbols
    that are Lean names as those Lean constants: use it only when both statements are Lean.
    `sources`: the statements (A, B) the IR obligations come from, so that their components
    are rendered from the original Lean text (`bind` makes such a copy per pair).
    """

    name = "lean"

    def __init__(self, transport: LeanTransport | None = None, *,
                 config: LeanConfig | None = None, header: str | None = None,
                 tactics: Sequence[str] = DEFAULT_TACTICS, workers: int = 1,
                 lean_symbols: bool = False, sources: Sequence[ir.Statement] = ()) -> None:
        if transport is None:
            config = config or LeanConfig.from_env()
            if header is not None:
                config = config.with_header(header)
            transport = connect(config, workers=workers)
        elif header is not None or config is not None:
            raise ValueError("give either a transport or a config/header, not both")
        self.transport = transport
        self.header = transport.header
        self.lean_symbols = lean_symbols
        self.sources = SourceIndex(sources)
        self.tactics = portfolio_for(self.header, tactics)
        if not self.tactics:
            raise ValueError("no tactic of the portfolio is available with this header")

    def render(self, obligation: ir.Term | LeanObligation | str) -> tuple[str, str]:
        """(Lean text, allowed proof) for `obligation`; NotRenderable / UnsafeLeanError."""
        if isinstance(obligation, LeanObligation):
            return render_theorem(obligation, self.tactics)
        if isinstance(obligation, ir.Term):
            ob = obligation_from_ir(obligation, lean_symbols=self.lean_symbols,
                                    sources=self.sources)
            return render_theorem(ob, self.tactics)
        if isinstance(obligation, str):
            stripped = obligation.lstrip()
            if stripped.startswith(_DECL_START):
                screened = screen_statement(obligation)
                proof = tactic_script(self.tactics)
                # the candidate's imports stay: the transport checks them against its header
                # (LeanImportError), as `pool.check` does with the same text
                text = "\n".join((*(f"import {m}" for m in screened.imports), *screened.opens,
                                   f"{screened.head} := {proof}"))
                return text, proof
            return render_theorem(LeanObligation(goal=obligation), self.tactics)
        raise TypeError(f"cannot prove a {type(obligation).__name__}")

    def bind(self, a: ir.Statement, b: ir.Statement | None = None) -> LeanBackend:
        """This backend (same transport and portfolio) rendering IR obligations with the
        original Lean text of `a` and `b` — the two statements of one `check_equivalence`
        call, in that order — wherever the obligation contains their components, and their
        binders for opaque carriers. Uninterpreted symbols are then rendered as Lean
        constants when both statements are Lean. Cheap: the transport is shared."""
        out = copy.copy(self)
        stmts = (a,) if b is None else (a, b)
        for st in stmts:  # a statement's imports must be provided by this Lean's header
            check_imports(st.header if st.language == "lean4" else "", self.header)
        out.sources = SourceIndex(stmts)
        out.lean_symbols = self.lean_symbols or all(s.language == "lean4" for s in stmts)
        return out

    def prove(self, obligation: ir.Term | LeanObligation | str,
              timeout: float = 5.0) -> ProofResult:
        t0 = time.monotonic()
        try:
            text, proof = self.render(obligation)
            result = self.transport.check(text, timeout, allowed_proofs=[proof])
        except NotRenderable as e:
            return Unknown(f"not renderable in Lean: {e}", self.name, time.monotonic() - t0)
        except UnsafeLeanError as e:
            return Unknown(f"refused before Lean: {e}", self.name, time.monotonic() - t0)
        except LeanImportError:
            raise  # the statement needs modules this Lean does not have: an error, no verdict
        except LeanError as e:
            return Unknown(f"Lean failure: {e}", self.name, time.monotonic() - t0)
        if result.ok:
            return Proved(self.name, result.time, "Lean accepted the tactic portfolio")
        return Unknown(result.reason, self.name, result.time)

    def close(self) -> None:
        self.transport.close()

    def __enter__(self) -> LeanBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
