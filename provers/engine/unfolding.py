"""Obligations with the functions their hypotheses define unfolded away.

Why: ``∀x. f x = a·x² + b·x + c`` beside ``∀x. f (x + 3) = 3x² + 7x + 4`` is the usual way a
MATH-style statement names a function. Handed to a solver as is, ``f`` is an uninterpreted
function under a quantifier and neither solver finds a model in a second; sampled points
give ``f`` its definition but almost never the a, b, c the other premise pins. With ``f``
replaced by its definition the second premise is a polynomial identity in x (coefficient
equations, ``identities.polynomial_identity``): linear in a, b, c, decided at once.

The rewrite is an equivalence. Functions are extensional, so ``∀ȳ. f ȳ = e`` (``f`` not in
``e``) says ``f = λȳ. e``, and for an obligation ``∀f x̄. (∀ȳ. f ȳ = e) → P f x̄``,

    ∀f x̄. f = (λȳ. e) → P f x̄    ⟺    ∀x̄. P (λȳ. e) x̄.

The definition must be a hypothesis of the whole obligation: a conjunct of H in ``H → X`` or
``¬H`` (the vacuity and uniqueness obligations), or a conjunct common to both sides of
``A ↔ B`` (two premise sets sharing it: ``(D ∧ A') ↔ (D ∧ B')`` is ``D → (A' ↔ B')``). A
countermodel of the reduced obligation is one of the original with ``f`` the closure λȳ. e
(it meets the definition by construction); ``Prover`` re-checks it with the exact evaluator.

A set variable named by a hypothesis ``S = e`` is substituted the same way (the one-point
rule, ``set_equations``): the solvers would build S as an array whose model the evaluator
reads only at sample points; a countermodel gets S as e's value there.

Two premise sets that define the same function differently (a mutated constant:
``(∀x. f x = x³ + 3x² + 4x − 11) ∧ P f`` against ``… − 14``) share no definition, so the
``A ↔ B`` obligation keeps ``f`` under a quantifier; its two directions ``A → B`` and
``B → A`` each have a hypothesis defining ``f`` (:func:`definitional_directions`), and the
iff holds when both do, fails when either fails.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from provers.engine.definitions import function_equations
from provers.engine.normal import NormalForm
from provers.ir import (
    TRUE,
    App,
    FunSort,
    Quant,
    SetSort,
    Term,
    Var,
    app,
    by_identity,
    conjuncts,
    free_vars,
    one_point,
    substitute,
    unfold,
    whole_hypotheses,
)
from provers.semantics.inverses import rewrite_inverses


@dataclass(frozen=True)
class Unfolded:
    """``formula`` is equivalent to the obligation it came from; ``functions`` are the
    eliminated variables with their definitions (``(f, ȳ, e)``: f = λȳ. e; a set: ȳ empty)."""

    formula: Term
    functions: tuple[tuple[Var, tuple[Var, ...], Term], ...]


def _conj(ts: list[Term]) -> Term:
    return TRUE if not ts else ts[0] if len(ts) == 1 else app("and", *ts)


def _without(body: Term, drop: set[Term]) -> Term:
    """``body`` with the hypotheses ``drop`` removed (each is implied where it is used)."""
    keep = lambda t: _conj([c for c in conjuncts(t) if c not in drop])  # noqa: E731
    if body.op == "implies":  # type: ignore[union-attr]
        return app("implies", keep(body.args[0]), body.args[1])  # type: ignore[union-attr]
    if body.op == "not":  # type: ignore[union-attr]
        return app("not", keep(body.args[0]))  # type: ignore[union-attr]
    return app("iff", keep(body.args[0]), keep(body.args[1]))  # type: ignore[union-attr]


def unfold_function_definitions(formula: Term) -> Unfolded | None:
    """The obligation ``∀v̄. body`` without the function variables its hypotheses define by
    ``∀ȳ. f ȳ = e`` (unguarded, ``e`` over the other variables), or None when there is none
    or some use of ``f`` is not a full application (``f '' S``, ``Injective f``)."""
    vs: list[Var] = []
    body = formula
    while isinstance(body, Quant) and body.kind == "forall":
        vs.extend(body.vars)
        body = body.body
    names = set(vs)
    chosen: dict[Var, tuple[tuple[Var, ...], Term]] = {}
    source: dict[Var, Term] = {}  # the hypothesis each definition was read from
    for h in whole_hypotheses(body):
        for f, params, e in function_equations(h) + set_equations(h):
            if (f in names and isinstance(f.sort, (FunSort, SetSort)) and f not in chosen
                    and free_vars(e) <= names | set(params)):
                chosen[f], source[f] = (params, e), h
                break
    # one round: a definition over another defined function waits for the next call
    chosen = {f: d for f, d in chosen.items() if not free_vars(d[1]) & chosen.keys()}
    if not chosen:
        return None
    functions = {f: d for f, d in chosen.items() if isinstance(f.sort, FunSort)}
    sets = {s: e for s, (_, e) in chosen.items() if isinstance(s.sort, SetSort)}
    # `inv f y`, `bij f` of an affine f: its meaning, so that f is only ever applied
    reduced = unfold(rewrite_inverses(_without(body, {source[f] for f in chosen}), functions), functions)
    reduced = substitute(reduced, sets) if sets else reduced
    if free_vars(reduced) & chosen.keys():
        return None
    rest = tuple(v for v in vs if v not in chosen)
    out = Quant("forall", rest, reduced) if rest else reduced
    return Unfolded(out, tuple((f, ps, e) for f, (ps, e) in chosen.items()))


@by_identity()  # the same normal form is compared with every other candidate's
def without_defined_functions(nf: NormalForm) -> NormalForm:
    """``nf`` with the functions (and sets) its premises define unfolded away and their
    variables dropped (``unfold_function_definitions``, round after round), or ``nf`` itself.
    The same theorem, ``∀v̄. ⋀Γ → C`` (every variable ∀-bound), over fewer variables: what an
    alignment needs against a statement that writes the definitions out (``P r = 0`` with
    ``∀x. P x = x² + 2x − 15`` beside ``r² + 2r − 15 = 0``)."""
    if not _universal_with_premises(nf):
        return nf
    formula, eliminated = nf.closed(), set()
    while (u := unfold_function_definitions(formula)) is not None:
        formula = u.formula
        eliminated |= {f for f, _, _ in u.functions}
    while isinstance(formula, Quant) and formula.kind == "forall":
        formula = formula.body
    premises, conclusion = ((), formula)
    if isinstance(formula, App) and formula.op == "implies":
        premises, conclusion = tuple(conjuncts(formula.args[0])), formula.args[1]
    return _dropping(nf, eliminated, premises, conclusion)


@by_identity()
def without_defined_scalars(nf: NormalForm) -> NormalForm:
    """``nf`` with each variable a premise equates to a term without it (``v = e``) replaced
    by that term and the premise dropped (the one-point rule: ``∀v x̄. v = e ∧ Γ → C`` is
    ``∀x̄. Γ[e] → C[e]``), or ``nf`` itself; every variable ∀-bound, as for
    ``without_defined_functions``."""
    if not _universal_with_premises(nf):
        return nf
    scalars = [v for v in nf.variables if not isinstance(v.sort, FunSort)]  # a λ is for without_defined_functions
    left, premises, (conclusion,) = one_point(scalars, list(nf.premises), [nf.conclusion])
    return _dropping(nf, set(scalars) - set(left), tuple(premises), conclusion)


def _universal_with_premises(nf: NormalForm) -> bool:
    return bool(nf.premises) and all(kind == "forall" for kind, _ in nf.prefix)


def _dropping(nf: NormalForm, eliminated: set[Var], premises: tuple[Term, ...], conclusion: Term) -> NormalForm:
    """``nf`` over the premises and conclusion given, without the ``eliminated`` variables
    (``nf`` itself when there are none)."""
    if not eliminated:
        return nf
    return replace(nf, prefix=tuple((k, v) for k, v in nf.prefix if v not in eliminated), premises=premises,
                   conclusion=conclusion, deps=tuple((v, d - eliminated) for v, d in nf.deps if v not in eliminated))


def set_equations(p: Term) -> list[tuple[Var, tuple[Var, ...], Term]]:
    """``(S, (), e)`` for ``S = e`` (either side) with ``S`` a set variable not free in ``e``:
    ``P = {p | prime p ∧ p ∣ n}`` names a set the solvers would otherwise have to build as an
    array, whose model the evaluator reads only at sample points (``prealgebra/problem_1441``:
    every model of its premises read as spurious)."""
    if not (isinstance(p, App) and p.op == "eq" and len(p.args) == 2):
        return []
    return [(s, (), e) for s, e in (p.args, p.args[::-1])
            if isinstance(s, Var) and isinstance(s.sort, SetSort) and s not in free_vars(e)]


def definitional_directions(formula: Term) -> tuple[Term, Term] | None:
    """``(∀v̄. A → B, ∀v̄. B → A)`` for an obligation ``∀v̄. A ↔ B`` that does not unfold as a
    whole but of which a direction does (a side defines a function the other side defines
    differently, or not at all); None otherwise."""
    vs: list[Var] = []
    body = formula
    while isinstance(body, Quant) and body.kind == "forall":
        vs.extend(body.vars)
        body = body.body
    if not (isinstance(body, App) and body.op == "iff" and len(body.args) == 2):
        return None
    if unfold_function_definitions(formula) is not None:
        return None
    a, b = body.args
    wrap = lambda t: Quant("forall", tuple(vs), t) if vs else t  # noqa: E731
    out = (wrap(app("implies", a, b)), wrap(app("implies", b, a)))
    if all(unfold_function_definitions(d) is None for d in out):
        return None
    return out


__all__ = ["Unfolded", "definitional_directions", "set_equations", "unfold_function_definitions"]
