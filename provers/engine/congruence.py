"""Equal by congruence: two terms that differ only at a few positions are equal where the
subterms at those positions are.

Why: every IR operation, binder and uninterpreted symbol is a function of its arguments'
values (HOL and Lean are extensional: a set is its predicate, ``card`` a function of the set),
so ``∀c. P c ↔ Q c`` makes ``card {c | P c} = card {c | Q c}``. A solver sees the two set-
builders as unrelated arrays and answers with a spurious model; the differing predicates
alone are a quantifier-free question it settles (``intermediate_algebra/problem_1069``:
``norm (3 - ↑c * 𝑖)`` against ``norm (Complex 3 (-c))`` under ``card {c. … = 7}``).

``differences`` reads the two terms in parallel (bound variables named by position, so equal
binders match) and returns the maximal subterm pairs where they differ, each with the
variables the binders above it bind; the caller proves each pair equal for all values of its
free variables. Proving a pair for all values is stronger than needed (a binder's guard, the
domain of a big operator), so a refuted pair says nothing about the whole.
"""

from __future__ import annotations

from dataclasses import dataclass

from provers.ir import (
    BOOL,
    COMMUTATIVE,
    App,
    BigOp,
    FunSort,
    Lam,
    Quant,
    SetBuilder,
    Term,
    Uninterpreted,
    Var,
    app,
    bound_variables,
    canonical,
    free_vars,
)

#: More differing positions than this and the pairs are not worth a solver call each.
MAX_DIFFERENCES = 3


@dataclass(frozen=True)
class Difference:
    """``left`` and ``right`` at one position; ``bound``: the variables binders above bind."""

    bound: tuple[Var, ...]
    left: Term
    right: Term

    def claim(self) -> Term:
        """``left = right`` (``↔`` for propositions), with the bound variables free."""
        return app("iff" if self.left.sort == BOOL else "eq", self.left, self.right)


def differences(left: Term, right: Term, limit: int = MAX_DIFFERENCES) -> list[Difference] | None:
    """The positions where ``left`` and ``right`` differ (empty when they are equal up to
    bound-variable names), or None when the roots themselves differ, a differing pair has two
    sorts or is a function, or there are more than ``limit`` pairs.

    A difference inside a proposition is taken at the nearest proposition around it below the
    roots (``c·(1 + x) = 0`` against ``2c·(1 + x) = 0``: the two equations, which are
    equivalent, not the numerals 1 and 2, which are not); a difference in a term with no
    proposition between it and the root stays where it is (``f (x + 1)`` against ``f (1 + x)``)."""
    if any(v.name.startswith("_b") for v in free_vars(left) | free_vars(right)):
        return None  # a free name like the canonical bound ones (``_b0.0``) would be captured
    a, b = canonical(left), canonical(right)
    out: list[Difference] = []
    if not _walk(a, b, (), None, out, limit, root=True):
        return None
    if len(out) == 1 and out[0].left is a:
        return None  # different at the root: congruence says nothing
    return out


#: The nearest proposition above a position, below the roots: (bound there, left, right).
_Anchor = tuple[tuple[Var, ...], Term, Term] | None


def _walk(a: Term, b: Term, bound: tuple[Var, ...], anchor: _Anchor, out: list[Difference], limit: int,
          root: bool = False) -> bool:
    if a == b:
        return True
    if a.sort == BOOL and b.sort == BOOL and not root:
        anchor = (bound, a, b)
    if _same_head(a, b):
        if isinstance(a, App) and a.op in COMMUTATIVE and isinstance(b, App):
            return _walk_reordered(a, b, bound, anchor, out, limit)
        if isinstance(a, BigOp) and isinstance(b, BigOp) and not _walk(a.domain, b.domain, bound, anchor, out, limit):
            return False  # a big operator's domain lies outside its binder
        binds = bound_variables(a)
        if binds:  # the same binders on both sides (``_same_head``)
            return _walk(a.body, b.body, (*bound, *binds), anchor, out, limit)  # type: ignore[attr-defined]
        return all(_walk(x, y, bound, anchor, out, limit)
                   for x, y in zip(a.args, b.args, strict=True))  # type: ignore[attr-defined]
    where, x, y = anchor if anchor is not None else (bound, a, b)
    if x.sort != y.sort or isinstance(x.sort, FunSort):
        return False
    d = Difference(where, x, y)
    if d not in out:
        out.append(d)
    return len(out) <= limit


def _same_head(a: Term, b: Term) -> bool:
    """Same node with the same binders (names too: both sides are alpha-canonical)."""
    if type(a) is not type(b) or a.sort != b.sort:
        return False
    if isinstance(a, App):
        return a.op == b.op and len(a.args) == len(b.args)  # type: ignore[attr-defined]
    if isinstance(a, Uninterpreted):
        return a.symbol == b.symbol and len(a.args) == len(b.args)  # type: ignore[attr-defined]
    if isinstance(a, Quant):
        return a.kind == b.kind and a.vars == b.vars  # type: ignore[attr-defined]
    if isinstance(a, Lam):
        return a.vars == b.vars  # type: ignore[attr-defined]
    if isinstance(a, BigOp):
        return a.kind == b.kind and a.var == b.var  # type: ignore[attr-defined]
    if isinstance(a, SetBuilder):
        return a.var == b.var  # type: ignore[attr-defined]
    return False


def _walk_reordered(a: App, b: App, bound: tuple[Var, ...], anchor: _Anchor, out: list[Difference],
                    limit: int) -> bool:
    """A commutative operation: the arguments both sides share set aside, the rest matched in
    order (the fewest differences of the orders a binary one has)."""
    rest_a, rest_b = list(a.args), list(b.args)
    for x in a.args:
        if x in rest_b:
            rest_b.remove(x)
            rest_a.remove(x)
    if len(rest_a) != len(rest_b):
        return False
    orders = [rest_b] if len(rest_b) != 2 else [rest_b, rest_b[::-1]]
    best: list[Difference] | None = None
    for order in orders:
        trial = list(out)
        if all(_walk(x, y, bound, anchor, trial, limit) for x, y in zip(rest_a, order, strict=True)) \
                and (best is None or len(trial) < len(best)):
            best = trial
    if best is None:
        return False
    out[:] = best
    return len(out) <= limit
