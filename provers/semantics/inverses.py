"""Inverses of the affine functions a statement defines: ``inv f``, ``bij f`` made exact.

Why: MATH's inverse-function problems ("if f(x) = (4x + 1)/3, what is f⁻¹(1)?") are written
``inv f 1`` (Isabelle), ``Function.invFun f 1`` (Mathlib) beside ``∀x. f x = (4x + 1)/3``.
The IR keeps these library symbols uninterpreted, and a symbol applied to a function is a
table over functions that neither solver nor the evaluator can give a value: every such pair
ended inconclusive (``algebra/problem_1967``: 20 of 45 pairs).

Where ``f`` is known as ``λx. c₁·x + c₀`` over ℚ or ℝ with numerals c₁ ≠ 0, f is a bijection
of the field and every meaning of its inverse agrees: Isabelle's ``inv f y = (SOME x. f x =
y)`` and ``the_inv f y = (THE x. f x = y)`` both denote the one x with f x = y, (y − c₀)/c₁;
``bij f``, ``inj f``, ``surj f`` (and Mathlib's ``Function.Bijective`` …) are true. (Mathlib's
``Function.invFun f y`` is elaborated as a generic application whose sort is not inferred:
left alone.) Any other f (a table, a non-affine or partial definition,
a coefficient that is a variable and may be 0) leaves the symbol as it was: undecided, never
guessed.

Two users, one reading: the evaluator (``LIBRARY`` entries, f a ``Closure``) and the
unfolding of defined functions before a solver call (``rewrite_inverses``, f a definition).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from provers.ir import (
    RAT,
    REAL,
    TRUE,
    Num,
    Sort,
    Term,
    Uninterpreted,
    Var,
    app,
    map_term,
    symbol_names,
)
from provers.semantics.polynomials import affine_coefficients
from provers.semantics.values import Closure

#: symbols ``inv f y``: the x with f x = y (arguments: the function, the point)
INVERSE_AT = frozenset({"inv", "the_inv"})
#: properties every affine bijection of a field has (argument: the function)
BIJECTIVITY = frozenset({"bij", "inj", "surj", "Function.Bijective", "Function.Injective",
                         "Function.Surjective"})
SYMBOLS = INVERSE_AT | BIJECTIVITY


def affine_map(params: tuple[Var, ...], body: Term) -> tuple[Fraction, Fraction] | None:
    """(c₁, c₀) when ``λparams. body`` is x ↦ c₁·x + c₀ on ℚ or ℝ with numerals c₁ ≠ 0 (a
    bijection of the field), else None."""
    if len(params) != 1 or params[0].sort not in (RAT, REAL) or body.sort != params[0].sort:
        return None
    return affine_coefficients(params[0], body)


def inverse_term(c1: Fraction, c0: Fraction, y: Term) -> Term:
    """(y − c₀)/c₁: the point where x ↦ c₁·x + c₀ takes the value y."""
    return app("div", app("sub", y, Num(c0, y.sort)), Num(c1, y.sort))


def rewrite_inverses(t: Term, funs: dict[Var, tuple[tuple[Var, ...], Term]]) -> Term:
    """``t`` with each inverse or bijectivity symbol over a function of ``funs`` (f ↦ its
    parameters and body, a definition) that is an affine bijection replaced by its meaning:
    ``inv f y`` by (y − c₀)/c₁, ``bij f`` by True."""
    if not symbol_names(t) & SYMBOLS:
        return t  # the usual case: read no definition
    affine = {f: m for f, (ps, e) in funs.items() if (m := affine_map(ps, e)) is not None}
    if not affine:
        return t

    def meaning(s: Term) -> Term | None:
        if not (isinstance(s, Uninterpreted) and s.args and s.args[0] in affine):
            return None
        c1, c0 = affine[s.args[0]]  # type: ignore[index]
        if s.symbol in INVERSE_AT and len(s.args) == 2:
            return inverse_term(c1, c0, s.args[1])
        if s.symbol in BIJECTIVITY and len(s.args) == 1:
            return TRUE
        return None

    return map_term(t, meaning)


def _closure_map(f: Any) -> tuple[Fraction, Fraction] | None:
    return affine_map(f.vars, f.body) if isinstance(f, Closure) else None


def _inverse_at(args: list[Any], sorts: list[Sort]) -> Any:
    m, y = _closure_map(args[0]), args[1]
    if m is None or isinstance(y, bool) or not isinstance(y, (int, Fraction)):
        return None
    return (Fraction(y) - m[1]) / m[0]


def _bijective(args: list[Any], sorts: list[Sort]) -> Any:
    return True if _closure_map(args[0]) is not None else None


#: the evaluator's entries (``library.LIBRARY``): symbol → (arity, value at exact arguments)
LIBRARY_ENTRIES = {
    **{s: (2, _inverse_at) for s in INVERSE_AT},
    **{s: (1, _bijective) for s in BIJECTIVITY},
}

__all__ = ["BIJECTIVITY", "INVERSE_AT", "LIBRARY_ENTRIES", "affine_map", "inverse_term", "rewrite_inverses"]
