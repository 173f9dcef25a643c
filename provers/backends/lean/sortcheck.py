"""Check the Lean frontend's sorts against Lean itself.

Why: the Python frontend re-implements Lean's elaboration of binders (numerals default to ℕ,
auto-bound implicits, `Finset` vs `Set`, ...). With a Lean REPL at hand, the statement can be
elaborated for real: sent as ``theorem ... := by sorry``, Lean answers with the goal of the
``sorry``, whose local context lists every binder with the type Lean gave it
(``x y : ℝ``, ``f : ℕ → ℝ``, ``h₀ : 0 < x``). ``check_sorts`` compares those types with the
IR's sorts, printed the way Lean prints them, and lists every disagreement.

Only the statement's own binders and types reach Lean: the text goes through the same security
screen as every other candidate text (``screen_statement``), its ``open`` lines are kept, its
proof is replaced by ``by sorry``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from provers.backends.lean.repl import LeanError, LeanTransport
from provers.backends.lean.security import UnsafeLeanError, screen_statement
from provers.ir import (
    BOOL,
    SORT,
    TYPE,
    FunSort,
    Hypothesis,
    ListSort,
    OpaqueSort,
    SetSort,
    Sort,
    Statement,
    VarBinder,
)
from provers.lean4.printer import render_sort

__all__ = ["SortCheck", "check_sorts", "lean_context", "lean_type", "statement_text"]

#: Mathlib notations Lean's pretty printer uses for sorts the frontend names otherwise
_NOTATION = {"NNReal": "ℝ≥0", "ENNReal": "ℝ≥0∞", "PNat": "ℕ+", "ENat": "ℕ∞"}
_MODELLED = {"ℕ", "ℤ", "ℚ", "ℝ", "ℂ"}


@dataclass(frozen=True)
class SortCheck:
    """Outcome of one check. ``ok``: Lean elaborated the statement and every binder agrees.

    ``lean``: binder name → the type Lean printed; ``ours``: binder name → the frontend's sort
    printed as Lean would; ``mismatches``: one line per disagreement; ``error``: why there is
    no comparison (Lean rejected the statement, the screen refused it, a transport failure).
    """

    ok: bool
    lean: dict[str, str] = field(default_factory=dict)
    ours: dict[str, str] = field(default_factory=dict)
    mismatches: tuple[str, ...] = ()
    error: str = ""


def lean_type(s: Sort, finset: bool = False) -> str:
    """A sort printed the way Lean's pretty printer prints the type (``ℕ → ℝ``, ``Set ℝ``)."""
    if isinstance(s, FunSort):
        args = [f"({lean_type(a)})" if isinstance(a, FunSort) else lean_type(a) for a in s.args]
        return " → ".join([*args, lean_type(s.result)])
    if isinstance(s, (SetSort, ListSort)):
        inner = lean_type(s.elem)
        inner = f"({inner})" if " " in inner else inner
        head = "List" if isinstance(s, ListSort) else ("Finset" if finset else "Set")
        return f"{head} {inner}"
    if isinstance(s, OpaqueSort) and s.name in _NOTATION:
        return _NOTATION[s.name]
    if s == BOOL:
        return "Prop"
    return render_sort(s)


def lean_context(goal: str) -> dict[str, str]:
    """Binder name → type text from a goal as the REPL prints it (``x y : ℝ\\n⊢ ...``); names
    Lean made inaccessible (``x✝``, instance binders) are left out."""
    entries: list[str] = []
    for line in goal.splitlines():
        if line.startswith("⊢"):
            break
        if line[:1].isspace() and entries:
            entries[-1] += " " + line.strip()
        elif line.strip():
            entries.append(line.strip())
    out: dict[str, str] = {}
    for e in entries:
        names, sep, ty = e.partition(" : ")
        if not sep:
            continue
        for n in names.split():
            if "✝" not in n:
                out[n] = " ".join(ty.split())
    return out


_BRACKETS = {"explicit": "()", "implicit": "{}", "strict_implicit": "⦃⦄", "instance": "[]"}


def statement_text(statement: Statement) -> str:
    """The statement rebuilt from its components' source texts (`open` lines, one binder per
    variable, hypotheses, conclusion) with the proof `by sorry`: the candidate's own proof,
    `variable` commands or definitions never reach Lean."""
    opens = [ln.strip() for ln in statement.header.splitlines() if ln.strip().startswith("open ")]
    parts = [f"theorem {statement.name}" if statement.name else "example"]
    for b in statement.binders:
        o, c = _BRACKETS.get(b.style, "()")
        if isinstance(b, VarBinder):
            name = b.written or b.var.name  # a shadowing binder as written: the texts after it read it
            parts.append(f"{o}{name} : {b.source}{c}" if b.source else f"{o}{name}{c}")
        elif b.style == "instance":
            parts.append(f"[{b.name} : {b.source}]" if b.name else f"[{b.source}]")
        else:
            parts.append(f"{o}{b.name or '_'} : {b.source}{c}")
    return "\n".join([*opens, " ".join(parts) + f" :\n    {statement.conclusion_source} := by sorry"])


def check_sorts(statement: Statement, transport: LeanTransport, timeout: float = 60.0) -> SortCheck:
    """Elaborate ``statement`` (a Lean-frontend ``Statement``, which keeps its source text) with
    Lean and compare each binder's type with the frontend's sort."""
    if statement.language != "lean4" or not statement.conclusion_source or any(
            isinstance(b, Hypothesis) and not b.source for b in statement.binders):
        return SortCheck(False, error="needs a statement parsed from Lean text")
    try:
        text = statement_text(statement)
        screen_statement(text, allowed_proofs=["by sorry"])
        result = transport.check(text, timeout, allowed_proofs=["by sorry"])
    except UnsafeLeanError as e:
        return SortCheck(False, error=f"refused before Lean: {e}")
    except LeanError as e:
        return SortCheck(False, error=f"Lean failure: {e}")
    if result.errors or result.timed_out or result.error or not result.sorries:
        return SortCheck(False, error=f"Lean did not elaborate the statement: {result.reason}")
    lean = lean_context(result.sorries[0].goal)
    ours: dict[str, str] = {}
    hyps: set[str] = set()
    for b in statement.binders:
        if isinstance(b, VarBinder):
            ours[b.var.name] = lean_type(b.var.sort, finset=b.source.startswith("Finset"))
        elif isinstance(b, Hypothesis) and b.name:
            hyps.add(b.name)
    bad: list[str] = []
    for n, ty in ours.items():
        if n not in lean:
            bad.append(f"{n}: bound by the frontend ({ty}) but not in Lean's context")
        elif not _same(lean[n], ty):
            bad.append(f"{n}: Lean {lean[n]}, frontend {ty}")
    for n, ty in lean.items():
        if n in ours:
            continue
        if n in hyps:
            if ty in _MODELLED or ty.startswith(("Set ", "Finset ")):
                bad.append(f"{n}: a variable of type {ty} in Lean, a hypothesis for the frontend")
        else:
            bad.append(f"{n}: Lean binds {n} : {ty}, the frontend does not")
    return SortCheck(not bad, lean, ours, tuple(bad))


def _same(lean: str, ours: str) -> bool:
    if ours == render_sort(TYPE):  # `{α : Type*}`: Lean prints `Type u_1`
        return lean.startswith("Type")
    if ours == render_sort(SORT):  # `{α : Sort*}`: Lean prints `Sort u_1`
        return lean.startswith("Sort")
    return lean == ours
