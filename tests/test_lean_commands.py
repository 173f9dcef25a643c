"""A Lean statement is a header plus one declaration: every other command is a ParseError
that names the command, its line and column, and what to do (issue 12, item 1)."""

from __future__ import annotations

import pytest

from provers import parse
from provers.backends.lean.security import UnsafeLeanError, check_safe_statement
from provers.errors import ParseError
from provers.lean4.commands import (
    COMMAND_KEYWORDS,
    DECLARATIONS,
    HARMLESS_MODIFIERS,
    HEADER_COMMANDS,
    command_reason,
)

B = "theorem t : (1 : ℕ) = 1 := by sorry"

# (attack text, what the error must name, (line, column))
ATTACKS = [
    ('infix:50 " = " => Ne\n' + B, "`infix`", (1, 1)),
    ('notation a " = " b => a ≠ b\n' + B, "`notation`", (1, 1)),
    ("instance : OfNat ℝ 2 := ⟨3⟩\n" + B, "`instance`", (1, 1)),
    ("attribute [simp] Nat.add_comm\n" + B, "`attribute`", (1, 1)),
    ('syntax "foo" : term\nmacro_rules | `(foo) => `(1)\n' + B, "`syntax`", (1, 1)),
    ("namespace X\n#eval 1\nend X\n" + B, "`namespace`", (1, 1)),
    ("open Foo in run_cmd IO.println 1\n" + B, "`run_cmd`", (1, 13)),
    (B + "\n#eval IO.Process.exit 1", "`#eval`", (2, 1)),
    (B + "\nrun_cmd pure ()", "`run_cmd`", (2, 1)),
    (B + "\n#exit", "`#exit`", (2, 1)),
    (B + "; #eval 1", "`#eval`", (1, 38)),
    (B + " /- -/ #eval 1", "`#eval`", (1, 43)),
    (B + "\n/- a\n /- nested -/ -/\n#print axioms t", "`#print`", (4, 1)),
    ("import Evil.Pwn\n" + B, "Evil.Pwn", (1, 8)),
    ("@[implemented_by foo] " + B, "attribute", (1, 1)),
    ("unsafe " + B, "`unsafe`", (1, 1)),
    ("local notation \"π\" => 3\n" + B, "`local notation`", (1, 1)),
    ('postfix:max "!" => Nat.succ\n' + B, "`postfix`", (1, 1)),
    ("irreducible_def f : ℕ := 1\n" + B, "`irreducible_def`", (1, 1)),
    ("def Foo.f : ℕ := 1\n" + B, "namespaced", (1, 5)),
    ("section\n" + B + "\nend", "`section`", (1, 1)),
    ("initialize foo : IO.Ref Nat ← IO.mkRef 0\n" + B, "`initialize`", (1, 1)),
    ('elab "foo" : term => pure (Lean.mkNatLit 1)\n' + B, "`elab`", (1, 1)),
    ("axiom bad : False\n" + B, "`axiom`", (1, 1)),
    ("open IO.Process\n" + B, "IO", (1, 1)),
    ("open Lean.Elab.Command\n" + B, "Elab", (1, 1)),
    ("unif_hint (n : ℕ) where n =?= 1 ⊢ n + 0 =?= 1\n" + B, "`unif_hint`", (1, 1)),
    ("tactic_extension simp\n" + B, "`tactic_extension`", (1, 1)),
    ("recall Nat.add_comm (n m : ℕ) : n + m = m + n\n" + B, "`recall`", (1, 1)),
    (B + "\n/-- doc -/ @[simp] theorem u : True := trivial", "attribute", (2, 12)),
    ("open Real renaming sqrt → f\n" + B, "renaming", (1, 11)),
    ("set_option autoImplicit true\n" + B, "autoImplicit", (1, 1)),
    ("theorem t : (1 : ℕ) = 1 := by\n  sorry\nlemma u : True := trivial", "declarations", (3, 1)),
]


@pytest.mark.parametrize("text, names, where", ATTACKS, ids=[a[1] for a in ATTACKS])
def test_every_attack_is_a_parse_error_naming_the_command_and_where(text: str, names: str,
                                                                     where: tuple[int, int]):
    with pytest.raises(ParseError) as ei:
        parse(text)
    e = ei.value
    assert names in e.reason
    assert (e.line, e.column) == where
    # ... and the security screen refuses the same text before any Lean process sees it
    # (imports pass the screen; the Lean client checks them against its header: see below)
    if not text.startswith("import"):
        with pytest.raises(UnsafeLeanError):
            check_safe_statement(text)


def test_unknown_imports_never_reach_lean():
    from provers.backends.lean.repl import LeanImportError, prepare_candidate

    with pytest.raises(LeanImportError, match="Evil.Pwn"):
        prepare_candidate("import Evil.Pwn\n" + B, "import Mathlib")


_REFUSED = sorted(COMMAND_KEYWORDS - HEADER_COMMANDS - HARMLESS_MODIFIERS - DECLARATIONS)


@pytest.mark.parametrize("kw", _REFUSED)
def test_every_other_lean_command_is_refused_before_and_after_the_statement(kw: str):
    for text, line in ((f"{kw} foo\n{B}", 1), (f"{B}\n{kw} foo", 2)):
        with pytest.raises(ParseError) as ei:
            parse(text)
        assert f"`{kw}" in ei.value.reason, (text, ei.value.reason)
        assert (ei.value.line, ei.value.column) == (line, 1)
        with pytest.raises(UnsafeLeanError):
            check_safe_statement(text)


@pytest.mark.parametrize("kw", sorted(HEADER_COMMANDS | HARMLESS_MODIFIERS | DECLARATIONS))
def test_header_commands_and_declarations_after_the_proof_are_refused(kw: str):
    with pytest.raises(ParseError) as ei:
        parse(f"{B}\n{kw} foo")
    assert (ei.value.line, ei.value.column) == (2, 1)
    assert kw in ei.value.reason or "declarations" in ei.value.reason


@pytest.mark.parametrize("cmd", ["#eval 1", "#check Nat", "#print axioms t", "#reduce 1 + 1",
                                 "#synth Inhabited ℕ", "#exit", "#guard_msgs in", "#help tactic"])
def test_hash_commands_are_refused_wherever_they_are(cmd: str):
    word = cmd.split()[0]
    for text in (f"{cmd}\n{B}", f"{B}\n{cmd}", f"open Real in\n{cmd}\n{B}"):
        with pytest.raises(ParseError, match=word):
            parse(text)


def test_every_reason_says_what_to_do():
    for kw in _REFUSED:
        reason = command_reason(kw)
        assert reason.startswith(f"`{kw}` command: ") and len(reason) > 40


def test_the_accepted_header():
    st = parse(
        "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 400000\n"
        "open Real Nat Topology\nopen scoped BigOperators\nuniverse u\n"
        "variable (y : ℝ)\nnoncomputable section\n\n"
        "/-- a docstring -/\nset_option maxRecDepth 1000 in\nopen Finset in\n"
        "theorem t (x : ℝ) (h : 0 < x) : x + y > y := by\n  open Real in simp\n  linarith")
    assert [v.name for v in st.variables] == ["y", "x"]
    assert st.conclusion.op == "gt"
    assert st.header.startswith("import Mathlib")


def test_open_in_a_chain_ends_with_the_first_scope():
    # `open A in open B` is `section open A open B end`: B does not reach the theorem
    st = parse("open Nat in\nopen Real\ntheorem t : True := trivial")
    assert any("ends with the first" in n for n in st.notes)
    with pytest.raises(ParseError, match="followed by the statement"):
        parse("open Real in\n")


def test_tactic_combinators_in_a_proof_are_not_commands():
    assert parse("theorem t (x : ℝ) : x = x := by\n  set_option maxRecDepth 100 in rfl").name == "t"
    with pytest.raises(ParseError, match="`open`"):
        parse("theorem t (x : ℝ) : x = x := by rfl\nopen Real")


def test_meaning_neutral_options_only():
    assert parse("set_option linter.unusedVariables false\n" + B).name == "t"
    assert parse("set_option checkBinderAnnotations false\n" + B).name == "t"
    for opt in ("autoImplicit false", "relaxedAutoImplicit true", "pp.all true in #check 1"):
        with pytest.raises(ParseError):
            parse(f"set_option {opt}\n" + B)


def test_imports_are_mathlib_and_its_dependencies():
    for mod in ("Mathlib", "Mathlib.Data.Real.Basic", "Aesop", "Batteries.Data.List", "Init"):
        assert parse(f"import {mod}\n" + B).name == "t"
    with pytest.raises(ParseError, match="imports come first"):
        parse("open Real\nimport Mathlib\n" + B)


def test_a_line_at_column_zero_ends_a_term_as_in_lean():
    # `f` then a column-0 `x` is not an application in Lean (arguments need checkColGt) ...
    with pytest.raises(ParseError):
        parse("theorem t (f : ℕ → ℕ) (x : ℕ) : f\nx = 1")
    # ... but inside brackets it is, and indented continuation lines are too
    assert parse("theorem t (f : ℕ → ℕ) (x : ℕ) : (f\nx) = 1").conclusion.op == "eq"
    assert parse("theorem t (f : ℕ → ℕ) (x : ℕ) : f\n  x = 1").conclusion.op == "eq"
