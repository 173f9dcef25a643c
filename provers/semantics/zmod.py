"""Lean's ``ZMod n`` for a numeral n ≥ 1: the residues 0, …, n − 1, computed exactly.

Why: the IR keeps ``ZMod 7`` an opaque sort and its arithmetic (``HAdd.hAdd``, ``Inv.inv``,
numerals) uninterpreted, so a solver may read ``(2 + 3)⁻¹`` as anything and a countermodel
"depends on an interpretation" — miniF2F's ``mathd_numbertheory_668`` (``l = (2 + 3)⁻¹``) and
its meaning-changing mutants stayed undecided. Its elements are ``Opaque("ZMod n", r)`` with r
the residue (the samplers' and the solvers' opaque elements, whose indices are below n by
``ir.known_elements``, are such residues), so the evaluator computes each operation here, and a
statement whose variables all range over such sorts is decided by visiting the points where
it can fail (``engine.finite_sorts``).

Mathlib's meanings: numerals, ``+ − ×``, negation and ``↑`` of ℕ / ℤ reduce mod n; ``a ^ k``
for k : ℕ is repeated multiplication (``a ^ 0 = 1``); ``a⁻¹`` is ``Nat.gcdA a.val n``, the
inverse of a unit and ``0⁻¹ = 0`` (``ZMod.inv_zero``) — for any other non-unit the value is
Bezout's coefficient, left undecided here; ``a / b = a * b⁻¹`` only for a prime n (where
``ZMod n`` is a field); ``a.val`` the residue as a natural. ``ZMod 0`` is ℤ: not modelled here.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

from provers.ir import (
    INT,
    NAT,
    Sort,
    Term,
    Uninterpreted,
    opaque_numeral,
    subterms,
    zmod_modulus,
)
from provers.semantics.exact import is_prime
from provers.semantics.values import Opaque, Undecided


def modulus(sort: Sort) -> int | None:
    """n for the sort ``ZMod n`` with n ≥ 1 a numeral (or one operation on two numerals,
    ``ZMod (11 ^ 2)``: ``ir.zmod_modulus``), else None."""
    return zmod_modulus(sort) or None


def _residue(v: Any, name: str, n: int) -> int:
    if isinstance(v, Opaque) and v.sort == name and 0 <= v.index < n:
        return v.index
    raise Undecided(f"{v!r} is not an element of {name}")


def _natural(v: Any) -> int:
    if isinstance(v, int) and not isinstance(v, bool) and v >= 0:
        return v
    raise Undecided(f"exponent {v!r} is not a natural number")


def _inverse(a: int, n: int) -> int:
    if a == 0 or n == 1:
        return 0
    if math.gcd(a, n) != 1:
        raise Undecided("the inverse of a non-unit of ZMod n is Bezout's coefficient: not computed")
    return pow(a, -1, n)


@functools.lru_cache(maxsize=64)
def _prime_modulus(n: int) -> bool:
    """``exact.is_prime`` (undecided above its bound), asked once per modulus, not per point."""
    return is_prime(n)


def _divide(a: int, b: int, n: int) -> int:
    if not _prime_modulus(n):
        raise Undecided("/ on ZMod n is read only for a prime n (a field)")
    return a * _inverse(b, n) % n


#: symbol → (arity, residues and the modulus → residue); the ZMod arguments come first
_RING: dict[str, tuple[int, Callable[..., int]]] = {
    "HAdd.hAdd": (2, lambda a, b, n: (a + b) % n),
    "HSub.hSub": (2, lambda a, b, n: (a - b) % n),
    "HMul.hMul": (2, lambda a, b, n: a * b % n),
    "Neg.neg": (1, lambda a, n: -a % n),
    "Inv.inv": (1, _inverse),
    "HDiv.hDiv": (2, _divide),
}
#: casts into ``ZMod n`` from ℕ / ℤ (the elaborator's ``↑``, Mathlib's names)
_CASTS = frozenset({"↑", "Nat.cast", "Int.cast"})


def interprets(t: Uninterpreted) -> bool:
    """Whether ``value`` computes ``t`` (given its arguments' values)."""
    n = modulus(t.sort)
    if n is not None:
        if opaque_numeral(t) is not None:
            return True
        if t.symbol in _RING:
            return len(t.args) == _RING[t.symbol][0] and all(a.sort == t.sort for a in t.args)
        if t.symbol == "HPow.hPow":
            return len(t.args) == 2 and t.args[0].sort == t.sort and t.args[1].sort == NAT
        return t.symbol in _CASTS and len(t.args) == 1 and t.args[0].sort in (NAT, INT)
    return t.symbol == "val" and t.sort == NAT and len(t.args) == 1 and modulus(t.args[0].sort) is not None


def value(t: Uninterpreted, args: Sequence[Any]) -> Any:
    """The value of ``t`` (``interprets(t)``) at its arguments' values ``args``."""
    if t.symbol == "val":
        n = modulus(t.args[0].sort)
        assert n is not None
        return _residue(args[0], t.args[0].sort.name, n)  # type: ignore[attr-defined]
    n = modulus(t.sort)
    assert n is not None
    name = t.sort.name  # type: ignore[attr-defined]
    k = opaque_numeral(t)
    if k is not None:
        return Opaque(name, k % n)
    if t.symbol in _CASTS:
        x = args[0]
        if not isinstance(x, int) or isinstance(x, bool):
            raise Undecided(f"↑{x!r} into {name}: not an integer")
        return Opaque(name, x % n)
    if t.symbol == "HPow.hPow":
        return Opaque(name, pow(_residue(args[0], name, n), _natural(args[1]), n))
    residues = [_residue(a, name, n) for a in args]
    return Opaque(name, _RING[t.symbol][1](*residues, n))


def computed(body: Term) -> bool:
    """Whether ``body`` has symbols the IR keeps uninterpreted and all of them are computed
    here (a statement of ``ZMod n`` arithmetic and nothing else unknown)."""
    symbols = [s for s in subterms(body) if isinstance(s, Uninterpreted)]
    return bool(symbols) and all(interprets(s) for s in symbols)


def elements(sort: Sort) -> list[Opaque]:
    """Every element of ``ZMod n`` (``modulus(sort)`` not None), by residue."""
    n = modulus(sort)
    assert n is not None
    return [Opaque(sort.name, r) for r in range(n)]  # type: ignore[attr-defined]


__all__ = ["computed", "elements", "interprets", "modulus", "value"]
