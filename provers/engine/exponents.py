"""Equations between products of powers of positive numerals, as equations of their exponents.

``2 ^ x = 8`` is ``x = 3``, ``4 ^ n = 2 ^ (n + 3)`` is ``2n = n + 3``, ``(1/4) ^ (n + 1) * 2 ^ (2n)
= 1/4`` holds for every n: what a person sees by writing each side as a product of prime powers.
The solvers cannot (an exponent that is a variable makes the power a non-polynomial function),
so the normal form states the exponents' equations instead (``exponent_equation``).

Why it is exact:
- With integer exponents (``pow`` with a ℕ exponent, ``zpow`` with a ℤ one), each side is a
  positive rational ``Π pᵏᵖ`` with integer ``kₚ``, and two such are equal iff every ``kₚ`` is
  (unique factorization over ℚ): the equation is the conjunction over the primes.
- With real exponents (``rpow``, Isabelle's ``powr``) that splitting is wrong (``2 ^ x = 3 ^ y``
  has real solutions); only when every base and constant is a power of one prime p is
  ``p ^ A = p ^ B`` the same as ``A = B`` (``t ↦ p ^ t`` is injective for p > 1).
- Only positive numeral bases and positive rational constants, products and (in a field)
  quotients of them: every factor is positive, on ℕ, ℤ, ℚ, ℝ and ℂ alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from provers.ir import FIELDS, INT, REAL, TRUE, App, Num, Sort, Term, and_, app, cast, not_, num
from provers.ir.traverse import map_term
from provers.semantics.exact import prime_factors

#: largest numeral factored (trial division up to its square root stays instant)
MAX_FACTORED = 10 ** 8
#: largest numeral exponent folded into the constant (2 ^ 3 is 8; 2 ^ 1000 stays a power)
MAX_FOLDED = 64

#: powers whose exponent is an integer, and those whose exponent is real
INTEGER_POWERS = frozenset({"pow", "zpow"})
REAL_POWERS = frozenset({"rpow", "powr"})


@dataclass
class _Monomial:
    """``constant · Π baseᵉ`` with a positive rational constant and positive numeral bases."""

    constant: Fraction = Fraction(1)
    powers: list[tuple[Fraction, Fraction, Term]] = field(default_factory=list)  # (base, scale, exponent)
    real: bool = False  # some exponent is real

    def times(self, other: _Monomial, sign: int = 1) -> _Monomial:
        return _Monomial(self.constant * other.constant ** sign,
                         self.powers + [(b, s * sign, e) for b, s, e in other.powers],
                         self.real or other.real)


def numeral_value(t: Term) -> Fraction | None:
    """The value of a numeral or of a quotient of numerals in a field (``1 / 4``), else None."""
    if isinstance(t, Num):
        return Fraction(t.value)
    if isinstance(t, App) and t.op == "div" and t.sort in FIELDS and all(isinstance(a, Num) for a in t.args):
        a, b = (Fraction(x.value) for x in t.args)  # type: ignore[attr-defined]
        return a / b if b != 0 else None
    return None


def _monomial(t: Term) -> _Monomial | None:
    """``t`` as a monomial of positive numeral powers, or None."""
    c = numeral_value(t)
    if c is not None:
        return _Monomial(c) if c > 0 else None
    if not isinstance(t, App):
        return None
    if t.op == "mul":
        out = _Monomial()
        for a in t.args:
            m = _monomial(a)
            if m is None:
                return None
            out = out.times(m)
        return out
    if t.op == "div" and t.sort in FIELDS:
        a, b = (_monomial(x) for x in t.args)
        return a.times(b, -1) if a is not None and b is not None else None
    if t.op in INTEGER_POWERS or t.op in REAL_POWERS:
        base, exponent = t.args
        b = numeral_value(base)
        if b is None or b <= 0:
            return None
        k = numeral_value(exponent)
        if k is not None and t.op in INTEGER_POWERS and abs(k) <= MAX_FOLDED:  # part of the constant
            return _Monomial(b ** int(k))
        return _Monomial(Fraction(1), [(b, Fraction(1), exponent)], t.op in REAL_POWERS)
    return None


def _factor(q: Fraction) -> dict[int, int]:
    """Prime exponents of a positive rational (its numerator's minus its denominator's)."""
    out: dict[int, int] = {}
    for n, sign in ((q.numerator, 1), (q.denominator, -1)):
        for p in prime_factors(n) or ():  # numbers are bounded by MAX_FACTORED before this
            out[p] = out.get(p, 0) + sign
    return out


def _linear(terms: list[tuple[int, Term]], constant: int, sort: Sort) -> Term:
    """``Σ k·e + constant`` at ``sort`` (exponents cast up to it)."""
    out: Term | None = None
    for k, e in terms:
        term = cast(e, sort)
        if k != 1:
            term = app("mul", num(k, sort), term)
        out = term if out is None else app("add", out, term)
    if out is None:
        return num(constant, sort)
    return app("add", out, num(constant, sort)) if constant else out




def exponent_equation(t: App) -> Term | None:
    """``a = b`` between monomials of positive numeral powers with at least one exponent that
    is not a numeral, as the equations of their prime exponents (module docstring); None when
    ``t`` is not such an equation."""
    if t.op != "eq":
        return None
    sides = [_monomial(a) for a in t.args]
    if any(m is None for m in sides) or not any(m.powers for m in sides):  # type: ignore[union-attr]
        return None
    left, right = sides
    whole = left.times(right, -1)  # left / right = 1
    numbers = [whole.constant] + [b for b, _, _ in whole.powers]
    if any(max(q.numerator, q.denominator) > MAX_FACTORED for q in numbers):
        return None
    powers: dict[int, list[tuple[Fraction, Term]]] = {}
    constants = _factor(whole.constant)
    for p in constants:
        powers.setdefault(p, [])
    for b, scale, e in whole.powers:
        for p, k in _factor(b).items():
            powers.setdefault(p, []).append((scale * k, e))
    if whole.real and len(powers) > 1:
        return None  # 2 ^ x = 3 ^ y over ℝ: no splitting
    sort = REAL if whole.real else INT
    equations: list[Term] = []
    for p in sorted(powers):
        terms, c = powers[p], constants.get(p, 0)
        if any(k.denominator != 1 for k, _ in terms):
            return None
        pos = [(int(k), e) for k, e in terms if k > 0]
        neg = [(int(-k), e) for k, e in terms if k < 0]
        lhs = _linear(pos, max(c, 0), sort)
        rhs = _linear(neg, max(-c, 0), sort)
        equations.append(TRUE if lhs == rhs else app("eq", lhs, rhs))
    return and_(*equations) if equations else TRUE


def exponent_equations(t: Term) -> Term:
    """``t`` with every such equation (and disequation) rewritten by ``exponent_equation``."""

    def rw(s: Term) -> Term | None:
        if isinstance(s, App) and s.op == "eq":
            return exponent_equation(s)
        if isinstance(s, App) and s.op == "ne":
            same = exponent_equation(app("eq", *s.args))
            return None if same is None else not_(same)
        return None

    return map_term(t, rw)
