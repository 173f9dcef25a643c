"""Formulas built from normal forms: closing, the canonical key, the single-statement
obligations (vacuity, triviality, satisfiability of the premises).

Answer pinning, the relations and the candidate profile all ask these same questions of one
normal form; they live here, below all three, so each is written once.
"""

from __future__ import annotations

from provers.engine.normal import NormalForm, premise_exists_lifted
from provers.ir import (
    DUAL,
    FALSE,
    RELATION_OPS,
    App,
    FunSort,
    ListSort,
    Num,
    Quant,
    SetSort,
    Sort,
    Term,
    Var,
    app,
    canon_key,
    conjuncts,
    free_vars,
    provably_inhabited,
    shared_conjuncts_out,
    strip_forall,
)

VACUITY_NAME = "premises prove False"
SAT_NAME = "premises not contradictory"

def close(body: Term, order: tuple[Var, ...] = ()) -> Term:
    """``∀`` over the free variables of ``body`` (in ``order`` first, then by name), and over
    the variables of ``order`` that ``body`` does not use but whose sort may be empty: over
    ``Fin 0`` every ``∀`` is true, so such a binder is never dropped."""
    fv = free_vars(body)
    vs = [v for v in order if v in fv or not provably_inhabited(v.sort)]
    vs += sorted((v for v in fv if v not in set(vs)), key=lambda v: v.name)
    return Quant("forall", tuple(vs), body) if vs else body


def iff(p: Term, q: Term) -> Term:
    return app("iff", p, q)


def dropped_guard_lemma(formula: Term) -> tuple[Term, Term] | None:
    """``(lemma, guard)`` for an obligation ``∀v̄. [X →] (∀ȳ. G → P) ↔ (∀ȳ. P)`` (either side
    with the guard; shared conjuncts out, ``shared_conjuncts_out``): the lemma ``∀v̄. [X →]
    ∀ȳ. ¬G → P`` proves it (where G fails P holds anyway, so the guard changes nothing), and
    is quantifier-free for the solvers where the iff of two ∀s is not. Sufficient only: a
    refuted lemma says nothing of the obligation. None when the shape differs.

    GTED imo_1982_p1: ``∀ m n, 0 < m ∧ 0 < n → f (m + n) - f m - f n ∈ {0, 1}`` against the
    unguarded ∀ (ℕ's truncated subtraction makes the m = 0 case 0)."""
    vs, body = strip_forall(formula)
    if not (isinstance(body, App) and body.op == "iff" and any(
            _guarded_forall(c) is not None for side in body.args for c in conjuncts(side))):
        return None  # the common case, before the canonical keys of every conjunct are computed
    body = shared_conjuncts_out(body)
    shared = None
    if isinstance(body, App) and body.op == "implies":
        shared, body = body.args
    if not (isinstance(body, App) and body.op == "iff"):
        return None
    for guarded, bare in (body.args, body.args[::-1]):
        split = _guarded_forall(guarded)
        if split is None or not (isinstance(bare, Quant) and bare.kind == "forall"):
            continue
        ys, g, p = split
        if canon_key(Quant("forall", ys, p)) != canon_key(bare):
            continue
        lemma: Term = Quant("forall", ys, app("implies", app("not", g), p))
        if shared is not None:
            lemma = app("implies", shared, lemma)
        return (Quant("forall", vs, lemma) if vs else lemma), g
    return None


def _guarded_forall(t: Term) -> tuple[tuple[Var, ...], Term, Term] | None:
    """``(ȳ, G, P)`` for ``∀ȳ. G → P``, else None."""
    if isinstance(t, Quant) and t.kind == "forall" and isinstance(t.body, App) and t.body.op == "implies":
        return t.vars, t.body.args[0], t.body.args[1]
    return None


def same_term(p: Term, q: Term) -> bool:
    return p == q or canon_key(p) == canon_key(q)


def vacuous_obligation(nf: NormalForm) -> Term:
    """∀x̄. ¬⋀Γ: proved, the premises are contradictory; refuted, its model is one of Γ.

    Stated with the witnesses of ∃ premises as variables (``normal.premise_exists_lifted``:
    ¬∃ȳ. P is ∀ȳ. ¬P), so that a countermodel names them and the exact evaluator checks the
    premises at them instead of searching an unbounded domain."""
    nf = premise_exists_lifted(nf)
    return close(app("not", nf.premise()) if nf.premises else FALSE, nf.variables)


def trivial_obligation(nf: NormalForm) -> Term:
    """∀x̄. C: the conclusion holds without the premises."""
    return close(nf.conclusion, nf.variables)


def satisfiable_obligation(nf: NormalForm) -> Term:
    """∃x̄. ⋀Γ over the variables Γ uses and those whose sort may be empty (with the ∃
    premises' witnesses among them, as in ``vacuous_obligation``)."""
    nf = premise_exists_lifted(nf)
    fv = free_vars(nf.premise())
    used = tuple(v for v in nf.variables if v in fv or not provably_inhabited(v.sort))
    return Quant("exists", used, nf.premise()) if used else nf.premise()


def higher_order(s: Sort) -> bool:
    """A sort of functions or sets (or containing one): an ∃ over it is beyond what the SMT
    lowering decides soundly (z3 has "proved" false ∃ statements over function variables)."""
    if isinstance(s, (FunSort, SetSort)):
        return True
    return isinstance(s, ListSort) and higher_order(s.elem)


def solver_may_prove(exists: Term) -> bool:
    """Whether a backend may be asked to prove the satisfiability formula ``exists``
    (``satisfiable_obligation``): only when it binds no higher-order variable."""
    return not (isinstance(exists, Quant) and any(higher_order(v.sort) for v in exists.vars))




def standardize(nf: NormalForm) -> tuple[Term, str, Term] | None:
    """The numeric-conclusion standardization: a conclusion ``L ⋈ c`` with ``c`` closed reads
    as "the value L satisfies ⋈ c" (``relations.value_route`` compares two statements' values
    without aligning their other variables; ``answers`` pins L).

    ``(L, ⋈, c)`` when the conclusion is ``L ⋈ c`` (or ``c ⋈ L``, read with the dual) with
    ``c`` closed (no prefix variable); when both sides are closed, the numeral side is ``c``.
    None when both sides mention variables."""
    c = nf.conclusion
    if not (isinstance(c, App) and c.op in RELATION_OPS):
        return None
    lhs, rhs = c.args
    pv = set(nf.variables)
    lc, rc = not (free_vars(lhs) & pv), not (free_vars(rhs) & pv)
    if rc and not lc:
        return lhs, c.op, rhs
    if lc and not rc:
        return rhs, DUAL[c.op], lhs
    if lc and rc:  # a closed computation "E = c": the numeral, if any, is the answer
        if isinstance(lhs, Num) and not isinstance(rhs, Num):
            return rhs, DUAL[c.op], lhs
        return lhs, c.op, rhs
    return None


__all__ = [
    "SAT_NAME",
    "VACUITY_NAME",
    "canon_key",
    "close",
    "higher_order",
    "iff",
    "same_term",
    "satisfiable_obligation",
    "solver_may_prove",
    "standardize",
    "trivial_obligation",
    "vacuous_obligation",
]
