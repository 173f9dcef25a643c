"""Exact arithmetic on int and Fraction that the IR's operations need beyond Python's own:
rational roots and powers, the four integer divisions, primality, digits.

Why a module: the exact evaluator and the SMT lowering (which folds literal roots into
numerals) must compute these the same way, so both import them from here.
"""

from __future__ import annotations

import math
from fractions import Fraction

from provers.semantics.values import MP, Undecided

#: Largest exponent / factorial argument computed exactly (beyond: undecided).
MAX_EXPONENT = 4096
#: Numbers above this are not tested for primality (trial division would stall).
MAX_PRIME_TEST = 10**12


def iroot_exact(n: int, k: int) -> int | None:
    """Exact k-th root of n >= 0, or None."""
    if n < 0:
        return None
    if n < 2:
        return n
    r = int(round(n ** (1.0 / k))) if n.bit_length() < 1000 else int(MP.nint(MP.root(n, k)))
    for c in (r - 1, r, r + 1):
        if c >= 0 and c**k == n:
            return c
    return None


def rational_root(x: Fraction | int, k: int) -> Fraction | None:
    """Exact k-th root of a rational x >= 0, or None."""
    x = Fraction(x)
    p, q = iroot_exact(x.numerator, k), iroot_exact(x.denominator, k)
    return None if p is None or q is None else Fraction(p, q)


def rational_power(b: Fraction | int, e: Fraction | int) -> Fraction | None:
    """b ^ e for b > 0 and rational e when the result is rational, else None."""
    e = Fraction(e)
    if abs(e.numerator) > MAX_EXPONENT or e.denominator > 64:
        return None
    r = rational_root(Fraction(b), e.denominator)
    if r is None:
        return None
    return r**e.numerator


def log_ratio(x: Fraction, b: Fraction) -> Fraction | None:
    """log x / log b as an exact rational when x = b^(p/q) for x, b > 0, b != 1."""
    ratio = MP.log(MP.mpf(x.numerator) / x.denominator) / MP.log(MP.mpf(b.numerator) / b.denominator)
    guess = Fraction(str(MP.nstr(ratio, 30))).limit_denominator(64)
    if guess == 0:
        return None
    if guess.numerator > 0:
        ok = Fraction(x) ** guess.denominator == Fraction(b) ** guess.numerator
    else:
        ok = Fraction(x) ** guess.denominator * Fraction(b) ** (-guess.numerator) == 1
    return guess if ok else None


def nat_mod(a: int, b: int) -> int:
    """``a % b`` on ℕ, with ``a % 0 = a``."""
    return a if b == 0 else a % b


def fdiv(a: int, b: int) -> int:
    """Isabelle ``div`` on int: floor division, ``x div 0 = 0``."""
    return 0 if b == 0 else a // b


def fmod(a: int, b: int) -> int:
    """Isabelle ``mod`` on int: the remainder has the divisor's sign, ``x mod 0 = x``."""
    return a if b == 0 else a % b


def ediv(a: int, b: int) -> int:
    """Lean ``Int.ediv``: Euclidean division (remainder ≥ 0), ``x / 0 = 0``."""
    if b == 0:
        return 0
    q = a // abs(b)  # floor(a / |b|)
    return q if b > 0 else -q


def emod(a: int, b: int) -> int:
    """Lean ``Int.emod``: ``0 ≤ r < |b|``, ``x % 0 = x``."""
    return a if b == 0 else a - b * ediv(a, b)


def tdiv(a: int, b: int) -> int:
    """Lean ``Int.tdiv``: the quotient rounded toward zero, ``tdiv x 0 = 0``."""
    if b == 0:
        return 0
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def tmod(a: int, b: int) -> int:
    """Lean ``Int.tmod``: ``a - b * tdiv a b`` (the dividend's sign), ``tmod x 0 = x``."""
    return a - b * tdiv(a, b)


def is_prime(n: int) -> bool:
    """Whether ``|n|`` is prime; undecided above ``MAX_PRIME_TEST``."""
    n = abs(n)
    if n < 2:
        return False
    if n < 4:
        return True
    if n % 2 == 0:
        return False
    if n > MAX_PRIME_TEST:
        raise Undecided(f"primality of {n} is not checked")
    return all(n % d for d in range(3, math.isqrt(n) + 1, 2))


#: Largest number factored into primes (trial division up to its square root).
MAX_FACTOR = 10**12


def prime_factors(n: int) -> list[int] | None:
    """The prime factors of n ≥ 1 with multiplicity, ascending (None above ``MAX_FACTOR``)."""
    if n > MAX_FACTOR:
        return None
    out, p = [], 2
    while p * p <= n:
        while n % p == 0:
            out.append(p)
            n //= p
        p += 1 if p == 2 else 2
    return out + ([n] if n > 1 else [])


def digits(b: int, n: int, max_length: int) -> tuple[int, ...]:
    """Mathlib ``Nat.digits``: b = 0 → [n] (n ≠ 0); b = 1 → n ones; else little-endian.
    Undecided when the unary list would be longer than ``max_length``."""
    if n == 0:
        return ()
    if b == 0:
        return (n,)
    if b == 1:
        if n > max_length:
            raise Undecided("unary digits list too long")
        return (1,) * n
    out = []
    while n:
        out.append(n % b)
        n //= b
    return tuple(out)
