"""Series and limits of exponential polynomials: ``suminf``, ``summable``, ``sums``, ``convergent``.

Why: MATH's "compute ∑_{n=1}^∞ n / 10ⁿ" is written with Isabelle's ``suminf`` (``∑n. f n``),
``summable``, ``sums`` and ``convergent``, which no solver lowers, so every candidate stayed
an uninterpreted symbol and every pair inconclusive. A term of the form
f(n) = Σⱼ cⱼ · n^dⱼ · rⱼⁿ (rational cⱼ, rⱼ; read by ``closed_forms.PolynomialReader``, which
keeps each geometric base apart) is decided exactly:

* ``summable f`` ⟺ every monomial with cⱼ ≠ 0 has |rⱼ| < 1. If one has |r| ≥ 1, the dominant
  part (largest |r|, then largest degree) is n^D·Rⁿ·(c₊ + c₋·(−1)ⁿ) with c₊ or c₋ nonzero, so
  the terms do not tend to 0;
* ``suminf f`` = Σⱼ cⱼ · S_dⱼ(rⱼ) with S_d(r) = Σ_{n≥0} n^d rⁿ, from S₀ = 1 / (1 − r) and
  S_d · (1 − r) = r · Σ_{j<d} C(d, j) · S_j (shift n = m + 1); 0 when f is not summable
  (Isabelle: ``suminf f = (if summable f then THE l. f sums l else 0)``, Mathlib's ``tsum``
  alike). The sum starts at n = 0, as both define it;
* ``f sums s`` ⟺ summable f ∧ suminf f = s;
* ``convergent f`` (the sequence) ⟺ no monomial with cⱼ ≠ 0 has |r| > 1, or |r| = 1 with
  degree ≥ 1, or r = −1 (by the same dominant part).

Anything else (a table from a solver's model, an irrational coefficient, a body the reader
does not take as that form) gives None: the symbol stays undecided.
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from math import comb
from typing import Any

from provers.ir import NAT, Num, Term, Var, free_vars, substitute, unfold
from provers.semantics.approx import is_rational
from provers.semantics.closed_forms import Poly, PolynomialReader
from provers.semantics.values import Closure

#: Rounds of unfolding function values inside a function's body (``λn. f n − g n``).
MAX_UNFOLD = 4


def exponential_polynomial(f: Any) -> Poly | None:
    """The function value ``f`` of one ℕ argument as Σ cⱼ · n^dⱼ · rⱼⁿ (monomials without
    atoms), or None."""
    if not (isinstance(f, Closure) and len(f.vars) == 1 and f.vars[0].sort == NAT):
        return None
    n, body, env = f.vars[0], f.body, f.env or {}
    for _ in range(MAX_UNFOLD):
        funs = {v: (g.vars, g.body) for v in free_vars(body) - {n}
                if isinstance(g := env.get(v.name), Closure) and free_vars(g.body) <= set(g.vars)}
        if not funs:
            break
        body = unfold(body, funs)
    scalars: dict[Var, Term] = {}
    for v in free_vars(body) - {n}:
        value = env.get(v.name)
        if not is_rational(value) or isinstance(value, bool):
            return None
        scalars[v] = Num(value, v.sort)
    poly = PolynomialReader(n, 0).read(substitute(body, scalars) if scalars else body)
    if poly is None or any(atoms for _, _, atoms in poly):
        return None
    return {m: c for m, c in poly.items() if c}


@lru_cache(maxsize=256)
def power_sum(d: int, r: Fraction) -> Fraction:
    """S_d(r) = Σ_{n≥0} n^d · rⁿ for |r| < 1."""
    if d == 0:
        return 1 / (1 - r)
    return r * sum(comb(d, j) * power_sum(j, r) for j in range(d)) / (1 - r)


def summable(p: Poly) -> bool:
    return all(abs(r) < 1 for _, r, _ in p)


def series_sum(p: Poly) -> Fraction:
    """Σ_{n≥0} of the terms (0 when they are not summable, as ``suminf`` and ``tsum`` are)."""
    if not summable(p):
        return Fraction(0)
    return sum((c * power_sum(d, r) for (d, r, _), c in p.items()), Fraction(0))


def convergent(p: Poly) -> bool:
    return not any(abs(r) > 1 or (abs(r) == 1 and d >= 1) or r == -1 for d, r, _ in p)


def _suminf(args: list[Any], sorts: list[Any]) -> Any:
    p = exponential_polynomial(args[0])
    return None if p is None else series_sum(p)


def _summable(args: list[Any], sorts: list[Any]) -> Any:
    p = exponential_polynomial(args[0])
    return None if p is None else summable(p)


def _sums(args: list[Any], sorts: list[Any]) -> Any:
    p = exponential_polynomial(args[0])
    if p is None or not is_rational(args[1]) or isinstance(args[1], bool):
        return None
    return summable(p) and series_sum(p) == args[1]


def _convergent(args: list[Any], sorts: list[Any]) -> Any:
    p = exponential_polynomial(args[0])
    return None if p is None else convergent(p)


#: Library entries (``semantics.library.LIBRARY``): symbol → (arity, function of the values).
SERIES = {"suminf": (1, _suminf), "summable": (1, _summable), "sums": (2, _sums), "convergent": (1, _convergent)}
