"""Exact and approximate numbers together: conversion to mpmath, comparison within the
tolerance, and results that stay exact only while every input was.

Why: one operation may see an exact rational and an mpmath approximation of √2 side by side;
its answer is exact only when no approximate input could have changed it, and two
approximate values too close to tell apart are undecided, never equal.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from provers.semantics.values import (
    MP,
    MP_TOLERANCE,
    Approx,
    ApproxBool,
    Closure,
    ExactComplex,
    FunTable,
    PredSet,
    Undecided,
    Undetermined,
    same_closure,
)


def is_approx(v: Any) -> bool:
    return isinstance(v, (Approx, ApproxBool))


def is_rational(v: Any) -> bool:
    """An exact int or Fraction (never a bool)."""
    return isinstance(v, (int, Fraction)) and not isinstance(v, bool)


def to_mp(v: Any) -> Any:
    """An mpmath number for a numeric value."""
    if isinstance(v, Approx):
        return v.value
    if isinstance(v, bool):
        raise Undecided("boolean used as a number")
    if isinstance(v, int):
        return MP.mpf(v)
    if isinstance(v, Fraction):
        return MP.mpf(v.numerator) / v.denominator
    if isinstance(v, ExactComplex):
        return MP.mpc(to_mp(v.re), to_mp(v.im))
    raise Undecided(f"not a number: {v!r}")


def near(a: Any, b: Any) -> bool:
    """mpmath numbers within the tolerance of each other."""
    scale = max(MP.mpf(1), abs(a), abs(b))
    return abs(a - b) <= MP_TOLERANCE * scale


def exact_real(v: Any) -> int | Fraction:
    if not is_rational(v):
        raise Undecided(f"expected an exact rational, got {v!r}")
    return v


def as_int_arg(v: Any) -> tuple[int, bool]:
    """An integer argument (exact, or an integral approximate value) and its approx flag."""
    if isinstance(v, bool):
        raise Undecided("boolean used as a number")
    if isinstance(v, int):
        return v, False
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v), False
    if isinstance(v, Approx) and not isinstance(v.value, MP.mpc):
        r = int(MP.nint(v.value))
        if v.value == r:
            return r, True
    raise Undecided(f"expected an integer, got {v!r}")


def wrap(v: Any, approx: bool) -> Any:
    """``v`` flagged approximate when ``approx`` (a result computed from approximate inputs)."""
    if not approx:
        return v
    if isinstance(v, bool):
        return ApproxBool(v)
    if isinstance(v, (int, Fraction, ExactComplex)):
        return Approx(to_mp(v))
    if isinstance(v, (Approx, ApproxBool)):
        return v
    raise Undecided("a non-numeric value depends on an approximate decision")


def int_op(fn: Callable[..., Any], *vals: Any) -> Any:
    """``fn`` on integer arguments; approximate when an argument was."""
    args, approx = [], False
    for v in vals:
        i, a = as_int_arg(v)
        args.append(i)
        approx |= a
    return wrap(fn(*args), approx)


def real_result(x: Any) -> Approx:
    """An mpmath result that must be real (an imaginary part beyond the tolerance: undecided)."""
    if isinstance(x, MP.mpc):
        if abs(x.imag) > MP_TOLERANCE * max(1, abs(x.real)):
            raise Undecided("complex value where a real was expected")
        x = x.real
    return Approx(MP.mpf(x))


def truth_value(value: bool, exact: bool) -> Any:
    """A truth value, as ``ApproxBool`` unless exact."""
    return value if exact else ApproxBool(value)


def truthy(v: Any) -> tuple[bool, bool]:
    """(truth value, approx flag) of a Boolean value."""
    if isinstance(v, bool):
        return v, False
    if isinstance(v, ApproxBool):
        return v.value, True
    raise Undecided(f"not a truth value: {v!r}")


def compare(a: Any, b: Any) -> tuple[int, bool]:
    """Sign of a - b and whether it is approximate; undecided within the tolerance."""
    if isinstance(a, bool) or isinstance(b, bool):
        raise Undecided("boolean compared as a number")
    if isinstance(a, (int, Fraction)) and isinstance(b, (int, Fraction)):
        return (a > b) - (a < b), False
    x, y = to_mp(a), to_mp(b)
    if isinstance(x, MP.mpc) or isinstance(y, MP.mpc):
        raise Undecided("ordering of complex values")
    if near(x, y):
        raise Undecided(f"approximate values {MP.nstr(x, 12)} and {MP.nstr(y, 12)} agree within tolerance")
    return (1 if x > y else -1), True


def values_equal(a: Any, b: Any) -> tuple[bool, bool]:
    """Equality of two values of one sort: (result, approx)."""
    if isinstance(a, Undetermined) or isinstance(b, Undetermined):
        raise Undecided("equality of undetermined values")
    if isinstance(a, Approx) or isinstance(b, Approx):
        if near(to_mp(a), to_mp(b)):
            raise Undecided("approximate values agree within tolerance")
        return False, True
    if isinstance(a, (ApproxBool, bool)) and isinstance(b, (ApproxBool, bool)):
        va, vb = (a.value if isinstance(a, ApproxBool) else a), (b.value if isinstance(b, ApproxBool) else b)
        return va == vb, is_approx(a) or is_approx(b)
    if isinstance(a, PredSet) or isinstance(b, PredSet):
        raise Undecided("equality of sets not known to be finite")
    if isinstance(a, tuple) or isinstance(b, tuple):  # pairs: componentwise
        if not (isinstance(a, tuple) and isinstance(b, tuple)) or len(a) != len(b):
            raise Undecided("equality of a pair with a value that is not one")
        parts = [values_equal(x, y) for x, y in zip(a, b, strict=True)]
        if any(not eq and not approx for eq, approx in parts):
            return False, False
        return all(eq for eq, _ in parts), any(approx for _, approx in parts)
    if isinstance(a, Closure) and isinstance(b, Closure) and same_closure(a, b):
        return True, False
    if isinstance(a, Closure) or isinstance(b, Closure) or callable(a) and not isinstance(a, FunTable):
        raise Undecided("equality of functions given by lambdas")
    if isinstance(a, frozenset) and isinstance(b, frozenset):
        if any(is_approx(e) for e in a | b):
            raise Undecided("set of approximate values")
    if isinstance(a, FunTable) and isinstance(b, FunTable) and a.default != b.default:
        keys = set(a.entries) | set(b.entries)
        if keys and all(isinstance(c, bool) for k in keys for c in k):
            raise Undecided("tables over a finite domain with different defaults")
    return a == b, False


def normalized(v: Any) -> Any:
    """An integral Fraction as an int (the representation of exact integers)."""
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v)
    return v
