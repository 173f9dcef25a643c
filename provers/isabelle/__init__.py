"""Isabelle/HOL frontend: ``parse_isabelle(text) -> Statement`` and ``render(statement) -> str``.

See docs/parsing_isabelle.md for what is accepted, the meanings, and the sort inference.
"""
