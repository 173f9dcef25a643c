"""The Lean screen refuses every candidate that could make Lean run a command."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from provers.backends.lean.security import (
    UnsafeLeanError,
    check_safe_header,
    check_safe_statement,
    check_safe_term,
    screen_statement,
    strip_comments,
)

DATA = Path(__file__).resolve().parents[2] / "shared" / "data"

SAFE = [
    "theorem t (x : ℝ) (h₀ : 0 < x) : x ^ 2 > 0 := by sorry",
    "theorem t (n : ℕ) : n + 0 = n := sorry",
    "theorem t (n : ℕ) : n + 0 = n :=",
    "theorem t (n : ℕ) : n + 0 = n",
    "lemma foo {a b : ℤ} (h : a ∣ b) : a ∣ 2 * b := by\n  sorry",
    "example : (2 : ℕ) + 2 = 4 := by sorry",
    "import Mathlib\nopen Real\n\ntheorem t (x : ℝ) : Real.sqrt (x ^ 2) = |x| := by sorry",
    "import Mathlib\nopen scoped BigOperators\ntheorem t (n : ℕ) :\n"
    "  ∑ i in Finset.range n, i = n * (n - 1) / 2 := by sorry",
    "/-- A docstring with `#eval` inside is only a comment. -/\ntheorem t : True := by sorry",
    "-- a line comment mentioning run_cmd\ntheorem t : True := by sorry",
    "theorem t (f : ℕ → ℕ) (s : Set ℕ) (h : f ⁻¹' s = ∅) : f '' s ⊆ s := by sorry",
    "theorem t (f : ℕ → ℝ) : ∑' i, f i = 0 := by sorry",
    "open Finset in\ntheorem t (s : Finset ℕ) : #(s.filter (· < 3)) ≤ s.card := by sorry",
    "import Mathlib\nset_option maxHeartbeats 400000\nopen Nat\ntheorem t (n : ℕ) : n ! > 0 := by sorry",
    "theorem t (a : ℤ) (f_a := fun n : ℕ => a ^ n) : f_a 0 = 1 := by sorry",
    "theorem t (p : Polynomial ℝ) : p.eval 0 = p.coeff 0 := by sorry",
]

UNSAFE = [
    # commands in or after the statement
    ("theorem t : True := by sorry\n#eval IO.println \"pwned\"", "#"),
    ("theorem t : True := by sorry\nrun_cmd Lean.logInfo \"x\"", "string literal"),
    ("theorem t : True\nrun_cmd do IO.Process.run {cmd := \"sh\"}\n:= by sorry", "string literal"),
    ("theorem t : True\nrun_cmd pure ()\n:= by sorry", "run_cmd"),
    ("theorem t : True\nalias bad := t", "alias"),
    ("theorem t : True := by\n  run_tac pure ()", "only `:= by sorry`"),
    ("theorem t : True := by native_decide", "only `:= by sorry`"),
    ("theorem t (h : (by exact trivial : True)) : True := by sorry", "`by`"),
    ("#eval 1\ntheorem t : True := by sorry", "#"),
    ("#exit\ntheorem t : True := by sorry", "#"),
    ("set_option maxRecDepth 100000 in\ntheorem t : True := by sorry", "set_option"),
    ("theorem t : True := by sorry\nset_option trace.Meta true", "only"),
    ("@[extern \"system\"] theorem t : True := by sorry", "attribute"),
    ("@[implemented_by foo] theorem t : True := by sorry", "attribute"),
    ("unsafe def f : IO Unit := pure ()\ntheorem t : True := by sorry", "expected `theorem`"),
    ("initialize IO.println \"x\"\ntheorem t : True := by sorry", "string literal"),
    ("initialize pure ()\ntheorem t : True := by sorry", "expected `theorem`"),
    ("builtin_initialize pure ()\ntheorem t : True := by sorry", "expected `theorem`"),
    ("macro \"x\" : term => `(1)\ntheorem t : True := by sorry", "string literal"),
    ("macro_rules | x => y\ntheorem t : True := by sorry", "expected `theorem`"),
    ("syntax \"foo\" : term\ntheorem t : True := by sorry", "string literal"),
    ("theorem t : True\nsyntax ident : term", "syntax"),
    ("notation \"ℵ\" => 1\ntheorem t : True := by sorry", "string literal"),
    ("theorem t (x : ℕ) : x = x\ninfixl:65 x => x", "infixl"),
    ("elab \"x\" : term => pure (Lean.mkConst ``True)\ntheorem t : True := by sorry", "string"),
    ("theorem t : True\nelab x : term => pure 1", "elab"),
    ("theorem t : True\nwhatsnew in pure 1", "whatsnew"),
    ("theorem t (x : ℕ) : x = x\nunknown_cmd foo", "looks like a command"),
    ("local instance : Inhabited ℕ := ⟨0⟩\ntheorem t : True := by sorry", "expected"),
    ("theorem t : True := by sorry\nimport Lean", "only"),
    ("theorem t : True := by sorry\ntheorem u : False := by sorry", "only"),
    ("open Lean in\n#eval 1", "#"),
    ("open Lean Elab in\nrun_cmd pure ()", "not followed by the statement"),
    ("open in\ntheorem t : True := by sorry", "without a namespace"),
    ("open Real renaming exp → e\ntheorem t : True := by sorry", "unexpected"),
    # comment / docstring tricks
    ("/-- doc -/ #eval 1\ntheorem t : True := by sorry", "#"),
    ("/-- doc -/-/ #eval 1 -/\ntheorem t : True := by sorry", "#"),
    ("/- /- nested -/ -/ #eval 1\ntheorem t : True := by sorry", "#"),
    ("/- unterminated /- nested -/ \ntheorem t : True := by sorry", "unterminated"),
    ("-- line comment /-\n#eval 1\ntheorem t : True := by sorry", "#"),
    ("theorem t : True := by sorry -/ #eval 1", "#"),
    ("theorem t : True /- -/ := by sorry\n/-- -/ run_cmd pure ()", "only"),
    # string / char / quotation / escaped identifiers
    ("theorem t : \"/-\" = \"-/\" := by sorry", "comment marker right after"),
    ("theorem t : \"x\" = \"-/\" := by sorry", "string literal"),
    # a comment opener glued to a symbol may be part of a token for Lean (`//`, `\\/`)
    ("theorem t : {x : ℕ //-\nrun_cmd pure ()\n--/ True} := by sorry", "comment marker"),
    ("theorem t : True \\/-\nrun_cmd pure ()\n--/ True := by sorry", "comment marker"),
    # words split exactly where Lean splits them
    ("theorem t : 2run_cmd = 2 := by sorry", "run_cmd"),
    ("theorem t : xérun_cmd = 2 := by sorry", "run_cmd"),
    ("theorem t : x = 2\nvariable? (y : ℕ)", "variable?"),
    ("theorem t : eval%x = 2 := by sorry", "eval%"),
    ("theorem t : True :=\u00a0by sorry", "unusual space"),
    ("theorem t : 'a' = 'a' := by sorry", "character literal"),
    ("theorem t : `(1) = `(1) := by sorry", "quotation"),
    ("theorem t : «run_cmd» = 1 := by sorry", "escaped identifier"),
    # dangerous names inside terms
    ("theorem t : unsafeBaseIO (pure 1) = 1 := by sorry", "unsafeBaseIO"),
    ("theorem t : (IO.println 1 : IO Unit) = pure () := by sorry", "IO"),
    ("theorem t : Lean.ofReduceBool a b h = 1 := by sorry", "ofReduceBool"),
    ("theorem t : (eval% 1 + 1) = 2 := by sorry", "eval%"),
    ("theorem t : True := sorry\nderiving instance Repr for Nat", "only"),
    ("theorem t : True\nwhere foo := 1", "where"),
    ("theorem t (x : ℕ) : x = x\n:= by sorry\ndecreasing_by simp", "only"),
    # invisible characters (trojan source)
    ("theorem t : True := by sorry\u202e", "bidirectional"),
    ("theorem t : True := by sorry\x00", "control"),
    # not a statement
    ("def f := 1", "expected `theorem`"),
    ("", "no theorem"),
    ("import Mathlib\n", "no theorem"),
    ("theorem t : (1 = 1 := by sorry", "`by`"),
    ("theorem t : (1 = 1) ) := by sorry", "unbalanced"),
]


@pytest.mark.parametrize("text", SAFE)
def test_safe_statements_pass(text: str) -> None:
    check_safe_statement(text)


@pytest.mark.parametrize("text,why", UNSAFE)
def test_unsafe_statements_rejected(text: str, why: str) -> None:
    with pytest.raises(UnsafeLeanError) as info:
        check_safe_statement(text)
    assert why in str(info.value)


def test_error_names_position() -> None:
    with pytest.raises(UnsafeLeanError) as info:
        check_safe_statement("theorem t : True := by sorry\n\n  #eval 1")
    err = info.value
    assert (err.line, err.column) == (3, 2)
    assert "#eval" in err.snippet


def test_screened_parts() -> None:
    s = screen_statement("import Mathlib\nimport Aesop\nopen Real Nat\nopen scoped BigOperators\n"
                         "/-- doc -/\ntheorem foo (x : ℝ) : x = x := by sorry")
    assert s.imports == ("Mathlib", "Aesop")
    assert s.opens == ("open Real Nat", "open scoped BigOperators")
    assert s.keyword == "theorem" and s.name == "foo"
    # comments are removed from what Lean is sent (safety never rests on our comment reader)
    assert s.declaration.startswith("theorem foo") and "doc" not in s.declaration
    assert s.head == "theorem foo (x : ℝ) : x = x"
    nested = screen_statement("/- a /- nested #eval 1 -/ still a comment -/\n"
                              "theorem t : True := by sorry /- /- -/ #eval 2 -/")
    assert "#" not in nested.declaration + nested.head and "eval" not in nested.declaration


def test_allowed_proofs_exact_match_only() -> None:
    proof = "by\n  first\n  | rfl\n  | omega"
    check_safe_statement("theorem t : 1 = 1 := " + proof, allowed_proofs=[proof])
    check_safe_statement("theorem t : 1 = 1 := by first | rfl | omega",
                         allowed_proofs=[proof])  # whitespace-insensitive
    with pytest.raises(UnsafeLeanError):
        check_safe_statement("theorem t : 1 = 1 := by first | rfl | omega | run_tac pure ()",
                             allowed_proofs=[proof])


def test_strip_comments_matches_lean_nesting() -> None:
    text = "a /- b /- c -/ d -/ e -- f\ng"
    out = strip_comments(text)
    assert len(out) == len(text)
    assert out.split() == ["a", "e", "g"]


def test_header_screen() -> None:
    check_safe_header("import Mathlib\nopen Finset in\nopen Finset Int in\n\n")
    check_safe_header("import Mathlib\nopen scoped MeasureTheory ENNReal NNReal\nopen MeasureTheory\n")
    for bad in ("import Mathlib\ndef f := 1\n", "open Foo\nimport Bar\n",
                "set_option maxRecDepth 99999\n", "open Lean in\n#eval 1\n"):
        with pytest.raises(UnsafeLeanError):
            check_safe_header(bad)


def test_term_screen() -> None:
    check_safe_term("(x : ℝ) (h₀ : 0 < x)")
    check_safe_term("∀ n : ℕ, n ^ 2 ≥ 0")
    check_safe_term("{ x : ℕ | x > 0 }")
    for bad in ("x) : True := by sorry\n#eval (1", "x := 1", "by simp", "sorry",
                "theorem", "(x", "#eval 1"):
        with pytest.raises(UnsafeLeanError):
            check_safe_term(bad)


@pytest.mark.skipif(not (DATA / "lean_pairs_gted.jsonl").exists(), reason="shared data absent")
def test_benchmark_statements_pass_the_screen() -> None:
    """No false alarms on real statements: every gted / miniF2F statement passes."""
    texts = []
    for line in (DATA / "lean_pairs_gted.jsonl").read_text().splitlines():
        row = json.loads(line)
        # a few ProofNet headers define helpers (`def`, `abbrev`): those must be given as the
        # trusted header, so only their statement is candidate text
        header = "" if re.search(r"^(def|abbrev|noncomputable) ", row["header"], re.M) \
            else row["header"]
        texts += [header + row["reference"], row["candidate_header"] + row["candidate"]]
    for line in (DATA / "minif2f_lean4.jsonl").read_text().splitlines():
        row = json.loads(line)
        texts.append(row["header"] + row["formal"])
    assert len(texts) > 500
    for text in texts:
        check_safe_statement(text)


def test_set_option_in_right_before_the_statement() -> None:
    s = screen_statement("set_option maxHeartbeats 400000 in\ntheorem t : True := by sorry")
    assert s.opens == ("set_option maxHeartbeats 400000 in",) and s.declaration.startswith("theorem t")
    for bad in ("set_option maxHeartbeats 400000 in\n#eval 1",
                "set_option autoImplicit true in\ntheorem t : True := by sorry",
                "set_option maxHeartbeats 1 in\nrun_cmd pure ()"):
        with pytest.raises(UnsafeLeanError):
            check_safe_statement(bad)


@pytest.mark.parametrize("ns", ["IO.Process", "IO", "System.FilePath", "Lean.Elab.Command",
                                "Lean.Elab.Tactic", "Lean.Parser", "Mathlib.Tactic"])
def test_opening_io_or_elaborator_namespaces_is_refused(ns: str) -> None:
    for text in (f"open {ns}\ntheorem t : True := by sorry", f"open {ns} in\ntheorem t : True := by sorry"):
        with pytest.raises(UnsafeLeanError):
            check_safe_statement(text)


def test_prover_header_boilerplate_still_passes() -> None:
    # DeepSeek-Prover-style headers open Lean's meta namespaces: names only, nothing runs
    check_safe_statement("import Mathlib\nopen Lean Meta Qq Function\ntheorem t : True := by sorry")
