"""Provers behind one contract (``base.Backend.prove(obligation, timeout)``): the SMT portfolio
(``smt/``), Lean (``lean/``), the chain combinator and the verdict cache."""
