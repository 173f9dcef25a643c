"""Irrational model values from the solvers, read exactly as ``AlgebraicReal``.

z3's nlsat gives an ``AlgebraicNumRef`` (a polynomial and approximations), cvc5's coverings a
``real_algebraic_number`` term (a polynomial and an isolating interval); both become the
polynomial and an isolating interval with rational ends, which ``provers.semantics.algebraic``
re-checks obligations at exactly.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from provers.semantics.algebraic import AlgebraicReal


def from_z3(v: Any) -> AlgebraicReal:
    """A z3 ``AlgebraicNumRef`` (from nlsat) as an ``AlgebraicReal``."""
    coeffs = tuple(int(c.as_long()) if hasattr(c, "as_long") else int(c) for c in v.poly())
    for digits in (6, 20, 40):  # the shortest interval ends that isolate the root
        approx = v.approx(digits)
        r = Fraction(approx.numerator_as_long(), approx.denominator_as_long()).limit_denominator(10**digits)
        eps = Fraction(1, 10**digits)
        try:
            return AlgebraicReal(coeffs, r - eps, r + eps)
        except ValueError:
            continue
    raise ValueError(f"no isolating interval for {v}")


_CVC5 = re.compile(r"real_algebraic_number\s*<(?P<poly>[^,]+),\s*\((?P<lo>[^,]+),\s*(?P<hi>[^)]+)\)>")


def from_cvc5_text(text: str) -> AlgebraicReal:
    """cvc5's ``(_ real_algebraic_number <1*x^2 + (-2), (5/4, 3/2)>)`` as an ``AlgebraicReal``."""
    import sympy

    m = _CVC5.search(text)
    if m is None:
        raise ValueError(f"not an algebraic number: {text[:200]}")
    x = sympy.Symbol("x")
    p = sympy.Poly(sympy.sympify(m["poly"].replace("^", "**"), locals={"x": x}), x)
    coeffs = tuple(int(c) for c in reversed(p.all_coeffs()))
    return AlgebraicReal(coeffs, Fraction(m["lo"].strip()), Fraction(m["hi"].strip()))

__all__ = ["from_cvc5_text", "from_z3"]
