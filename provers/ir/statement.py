"""A parsed theorem statement: ordered variable binders and hypotheses, and a conclusion."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from provers.ir.keys import canonical
from provers.ir.ops import app
from provers.ir.sorts import is_universe
from provers.ir.terms import Quant, Term, Var
from provers.ir.traverse import has_uninterpreted

# --------------------------------------------------------------------------------------
# Statements
# --------------------------------------------------------------------------------------

BINDER_STYLES = ("explicit", "implicit", "strict_implicit", "instance")


@dataclass(frozen=True)
class VarBinder:
    """A theorem variable ``(x : ℝ)`` / ``{n : ℕ}`` / Isabelle ``fixes x :: real``."""

    var: Var
    style: str = "explicit"
    #: the binder's type as written (``ℝ`` for ``(x y : ℝ)``) when it came from Lean text,
    #: else ""; not part of equality (the Lean backend renders obligations from it)
    source: str = field(default="", compare=False)
    #: the name as written when the IR renamed the variable (a Lean binder that shadows an
    #: earlier one, ``(n) (_ : n = 3)`` after ``(n : ℤ)``, is ``n'``), else ""
    written: str = field(default="", compare=False)


@dataclass(frozen=True)
class Hypothesis:
    """A named premise ``(h₀ : 0 < x)`` / ``assumes h0: "0 < x"``; instance binders
    ``[Group G]`` are hypotheses with style ``instance`` and an Uninterpreted formula."""

    name: str | None
    formula: Term
    style: str = "explicit"
    #: the proposition as written (``0 < x``, ``Group G``) when it came from Lean text, else ""
    source: str = field(default="", compare=False)


Binder = VarBinder | Hypothesis


@dataclass(frozen=True)
class Statement:
    """A parsed theorem statement: ordered binders (variables and hypotheses interleaved,
    as written, so dependency order is kept) and a conclusion.

    ``source``/``header`` keep the original text for printers and the Lean backend;
    ``notes`` records frontend decisions a user should know (defaulted polymorphic sorts);
    ``checker_errors`` what the prover's own checker would reject although this lenient
    frontend read it (``provers.isabelle.checker``: raw Unicode, a HOL-Analysis type).
    """

    binders: tuple[Binder, ...]
    conclusion: Term
    language: str = "lean4"
    name: str | None = None
    header: str = ""
    source: str = field(default="", compare=False)
    notes: tuple[str, ...] = field(default=(), compare=False)
    defines: tuple[tuple[Var, Term], ...] = ()
    #: the conclusion as written when it came from Lean text, else "" (not part of equality)
    conclusion_source: str = field(default="", compare=False)
    checker_errors: tuple[str, ...] = field(default=(), compare=False)

    @property
    def variables(self) -> tuple[Var, ...]:
        return tuple(b.var for b in self.binders if isinstance(b, VarBinder))

    @property
    def hypotheses(self) -> tuple[Hypothesis, ...]:
        return tuple(b for b in self.binders if isinstance(b, Hypothesis))

    def as_formula(self) -> Term:
        """The closed formula ``∀ vars, hyps → conclusion`` (binders kept in order)."""
        body = self.conclusion
        for b in reversed(self.binders):
            if isinstance(b, VarBinder):
                if is_universe(b.var.sort):
                    continue
                body = Quant("forall", (b.var,), body)
            else:
                body = app("implies", b.formula, body)
        return body

    def terms(self) -> Iterator[Term]:
        for b in self.binders:
            if isinstance(b, Hypothesis):
                yield b.formula
        yield self.conclusion

    def has_uninterpreted(self) -> bool:
        return any(has_uninterpreted(t) for t in self.terms())

    def canonical_key(self) -> str:
        """Hash key invariant under renaming of variables, hypotheses and bound variables."""
        return repr(canonical(self.as_formula(), free_prefix="_v"))
