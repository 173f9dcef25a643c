"""Lean as a backend: REPL and Kimina clients, ``LeanBackend``, obligations rendered from the
statements' own text, the frontend's sorts checked by Lean, and the security screen that keeps
commands out of everything sent to Lean. See docs/lean.md."""
