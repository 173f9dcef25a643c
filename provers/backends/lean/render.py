"""Render proof obligations as Lean 4 theorems closed by a tactic portfolio.

Two sources:
- text parts (binders, premises, goal, `open` lines): `LeanObligation`;
- an IR formula (`provers.ir.Term`): `obligation_from_ir`, printed by the one IR → Lean
  printer (`provers.lean4.printer.LeanPrinter` in strict mode: fully parenthesized, Mathlib
  names, Isabelle-only operations as their Lean expansions). Given the statements it came
  from (`sources`), every hypothesis or conclusion of a Lean statement that the obligation
  contains (up to the alignment's renaming) is printed from its original text instead
  (`provers.backends.lean.source_text`), so Lean checks Mathlib's definitions rather than our
  reading, and opaque carriers get their original binders (`{G : Type*} [Group G]`).
  Constructs with no faithful Lean rendering raise `NotRenderable` (= `PrintError`).

Every text part is screened (`check_safe_term`) when the obligation is built; the REPL
client screens the whole rendered theorem again, allowing only the portfolio as proof.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from provers import ir
from provers.backends.lean.security import (
    FORBIDDEN_WORDS,
    UnsafeLeanError,
    check_safe_header,
    check_safe_term,
    strip_comments,
)
from provers.backends.lean.source_text import SourceIndex, mentions
from provers.lean4.printer import ISABELLE_PARTIAL, Hook, LeanPrinter, PrintError

__all__ = [
    "CORE_TACTICS", "MATHLIB_TACTICS", "DEFAULT_TACTICS", "NotRenderable", "LeanObligation",
    "portfolio_for", "tactic_script", "render_theorem", "obligation_from_ir", "SourceIndex",
]

CORE_TACTICS = ("rfl", "omega", "decide", "simp")
MATHLIB_TACTICS = ("norm_num", "ring_nf", "linarith", "nlinarith", "positivity", "aesop", "tauto")
DEFAULT_TACTICS = ("rfl", "omega", "decide", "simp", "norm_num", "ring_nf", "linarith",
                   "nlinarith", "positivity", "aesop", "tauto")
_AESOP_TACTICS = ("aesop",)


def _clean(part: str) -> str:
    return " ".join(strip_comments(part).split())


#: The obligation has no faithful Lean rendering (says which construct); the printer's error.
NotRenderable = PrintError


def _has_import(header: str, root: str) -> bool:
    return re.search(rf"^\s*import\s+{root}(\.|\s|$)", header, flags=re.MULTILINE) is not None


def portfolio_for(header: str, tactics: Sequence[str] = DEFAULT_TACTICS) -> tuple[str, ...]:
    """Keep the tactics the header makes available: Mathlib ones only when Mathlib is imported."""
    mathlib = _has_import(header, "Mathlib")
    aesop = mathlib or _has_import(header, "Aesop")
    out = []
    for t in tactics:
        name = t.split()[0] if t.split() else t
        if name in _AESOP_TACTICS and not aesop:
            continue
        if name in MATHLIB_TACTICS and name not in _AESOP_TACTICS and not mathlib:
            continue
        out.append(t)
    return tuple(out)


def tactic_script(tactics: Sequence[str]) -> str:
    """`by intros; first | (t₁; done) | ...`: an alternative only counts if it closes the goal."""
    if not tactics:
        raise ValueError("empty tactic portfolio")
    alts = "\n".join(f"  | ({t}; done)" for t in tactics)
    return f"by\n  intros\n  first\n{alts}"


@dataclass(frozen=True)
class LeanObligation:
    """A theorem to prove, from (screened) Lean text parts.

    `binders` are binder groups as written (`(x y : ℝ)`, `{n : ℕ}`, `[Group G]`);
    `premises` are propositions, rendered as hypotheses; `goal` is the proposition to prove;
    `opens` are `open ...` lines placed before the theorem.
    """

    goal: str
    binders: tuple[str, ...] = ()
    premises: tuple[str, ...] = ()
    opens: tuple[str, ...] = ()
    name: str = "obligation"
    source: str = field(default="text", compare=False)

    def __post_init__(self) -> None:
        for part in (*self.binders, *self.premises, self.goal):
            check_safe_term(part)
        # Comments are dropped so that a trailing `--` cannot swallow what follows the part.
        for name in ("binders", "premises"):
            object.__setattr__(self, name, tuple(_clean(p) for p in getattr(self, name)))
        object.__setattr__(self, "goal", _clean(self.goal))
        if self.opens:
            check_safe_header("\n".join(self.opens))
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", self.name) or self.name in FORBIDDEN_WORDS:
            raise NotRenderable(f"bad theorem name {self.name!r}")

    def statement(self) -> str:
        """`theorem name binders (h_obl_i : premise) : goal` (no proof)."""
        hyps = [f"(h_obl_{i} : {p})" for i, p in enumerate(self.premises, 1)]
        parts = [f"theorem {self.name}", *self.binders, *hyps]
        head = " ".join(parts)
        return f"{head} :\n    {self.goal}"


def render_theorem(ob: LeanObligation, tactics: Sequence[str]) -> tuple[str, str]:
    """(text, proof): the Lean text to send and the exact proof part to allow in the screen."""
    proof = tactic_script(tactics)
    lines = [*ob.opens, f"{ob.statement()} := {proof}"]
    return "\n".join(lines), proof


# ------------------------------------------------------------------ IR -> Lean


def _sides(formula: ir.Term) -> ir.App | None:
    """The two-sided body of an equivalence obligation `∀ x̄, L ↔ R` / `∀ x̄, E = E'`: its left
    side comes from statement A, its right side from statement B (`provers.engine.relations`)."""
    while isinstance(formula, ir.Quant) and formula.kind == "forall":
        formula = formula.body
    if isinstance(formula, ir.App) and formula.op in ("iff", "eq") and len(formula.args) == 2:
        return formula
    return None


def _source_hook(index: SourceIndex, sides: ir.App | None) -> Hook:
    """Printer hook: a term (or a run of conjuncts) that is a component of a source statement
    up to renaming is printed as that component's original text, variables renamed.

    Only a component of the statement a side comes from is used there: the text of A in B's
    side would make Lean check our reading of B instead of B. With one source statement it is
    used anywhere; with two, only inside the sides of `∀ x̄, L ↔ R` (or `=`)."""
    side: list[int | None] = [0 if len(index.sources) == 1 else None]

    def text_for(terms: tuple[ir.Term, ...], p: LeanPrinter) -> str | None:
        if side[0] is None:
            return None
        found = index.find(terms, side[0])
        if found is None:
            return None
        comp, free, sorts = found
        names: dict[str, str] = {}
        for old, v in free.items():
            if v not in p.names:
                return None
            names[old] = p.names[v]
        for old, new in sorts.items():
            if p.carriers.get(new) != new:
                return None
            names[old] = new
        text = index.rename(comp, names)
        if text is None:
            return None
        try:
            check_safe_term(text)  # text the screen refuses (`by`, a literal): print the IR
        except UnsafeLeanError:
            return None
        return f"({text})"

    def hook(t: ir.Term, p: LeanPrinter) -> str | None:
        if t is sides and len(index.sources) == 2:
            assert sides is not None
            parts = []
            for i, arg in enumerate(sides.args):
                side[0] = i
                try:
                    parts.append(p.term(arg))
                finally:
                    side[0] = None
            return f"({parts[0]} {'↔' if sides.op == 'iff' else '='} {parts[1]})"
        if t.sort != ir.BOOL or isinstance(t, ir.Var) or side[0] is None:
            return None
        whole = text_for((t,), p)
        if whole is not None or not (isinstance(t, ir.App) and t.op == "and"):
            return whole
        # a run of conjuncts may be one hypothesis (the normal form splits conjunctions)
        parts = []
        args, i, hit = t.args, 0, False
        while i < len(args):
            for k in range(len(args) - i, 1, -1):
                text = text_for(tuple(args[i : i + k]), p)
                if text is not None:
                    parts.append(text)
                    i, hit = i + k, True
                    break
            else:
                parts.append(p.term(args[i]))
                i += 1
        if not hit:
            return None
        return parts[0] if len(parts) == 1 else "(" + " ∧ ".join(parts) + ")"

    return hook


def _declared_types(binders: Sequence[str]) -> set[str]:
    """Names declared by type-variable binders such as `{G : Type*}`."""
    return {b[1:].split(" : ")[0] for b in binders if not b.startswith("[")}


def obligation_from_ir(formula: ir.Term, *, premises: Sequence[ir.Term] = (),
                       name: str = "obligation", lean_symbols: bool = False,
                       sources: Sequence[ir.Statement] | SourceIndex = (),
                       isabelle: bool = True) -> LeanObligation:
    """A LeanObligation proving `premises ⊢ formula`, free variables as explicit binders.

    `sources`: the statements the obligation was built from. Where the obligation contains
    a Lean statement's hypothesis or conclusion (up to the alignment's renaming), that
    component's original text is used; opaque carriers get the statements' own binders
    (`{G : Type*} [Group G]`); `open` lines come from their headers. With `lean_symbols=True`
    an uninterpreted symbol that is a Lean name (`Nat.ofDigits`) is applied as that constant:
    right only when the statements came from Lean. Isabelle-only operations are rendered as
    their Lean definitional expansions (`isabelle=False`: refused). Raises NotRenderable for
    constructs with no faithful Lean meaning.
    """
    if formula.sort != ir.BOOL:
        raise NotRenderable(f"obligation of sort {formula.sort}, expected a proposition")
    index = sources if isinstance(sources, SourceIndex) else SourceIndex(sources)
    carriers = {n: n for n in index.type_binders}
    carriers.update(index.type_texts)
    p = LeanPrinter(strict=True, isabelle=isabelle, lean_symbols=lean_symbols,
                    carriers=carriers, finsets=index.finsets, binder_types=index.binder_types,
                    projections=index.projections,
                    hook=_source_hook(index, _sides(formula)) if index else None)
    terms = (*premises, formula)
    type_binders: list[str] = []
    for t in terms:
        used = mentions(t) | {v.name for v in ir.free_vars(t) if ir.is_universe(v.sort)}
        for carrier in sorted(used):
            closed = index.closed_type(carrier) if carrier not in p.carriers else None
            if closed is not None:
                check_safe_term(closed)
                p.carriers[carrier] = closed
            for b in index.type_binders.get(carrier, ()):
                if b not in type_binders:
                    type_binders.append(b)
                    p.taken.add(carrier)
    free: list[ir.Var] = []
    for term in terms:
        fv = ir.free_vars(term)
        for s in ir.subterms(term):
            if isinstance(s, ir.Var) and s in fv and s not in free:
                free.append(s)
    binders = []
    for v in free:
        if v.name in index.type_binders and v.name in _declared_types(type_binders):
            p.names[v] = v.name  # a type variable used as a term: bound by its own binder
        else:
            binders.append(p.binder(v))
    prem = [p.term(x) for x in premises]
    goal = p.term(formula)
    for kind, f in reversed(list(p.partials.items())):
        # Isabelle's ln / arcsin / arccos: any function that is Mathlib's where Isabelle's is fixed
        axiom = ISABELLE_PARTIAL[kind][1].format(f=f)
        binders[:0] = [f"({f} : ℝ → ℝ)", f"(h_{f} : {axiom})"]
    return LeanObligation(goal=goal, binders=(*type_binders, *binders), premises=tuple(prem),
                          opens=index.opens, name=name, source="ir")
