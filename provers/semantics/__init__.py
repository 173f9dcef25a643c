"""What IR terms mean: exact values, the exact evaluator, sampled assignments and fingerprints.

``evaluate(term, env)``, ``truth(formula, env)``, ``sample_assignments(vars, n, seed)``;
see docs/semantics.md for every operation's meaning in Lean, Isabelle, here and in SMT.
"""
