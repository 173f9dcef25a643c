"""Lean 4 + Mathlib frontend: ``parser.parse_lean`` (text → IR ``Statement``) and
``printer.render`` (IR → Lean source). Kept import-free so ``import provers.lean4`` is cheap;
see docs/parsing.md for what is accepted and how sorts are decided."""
