"""The numeric operations on values: arithmetic, powers, rounding, real analysis, complex
parts, number theory. Exact where the value is rational, ``Approx`` otherwise.

``HANDLERS`` maps each operation whose value depends only on its arguments' values to a
handler ``(term, argument values) -> value``; the evaluator registers them in its table.
The operations whose value an assignment may fix (Isabelle's ``ln`` at x ≤ 0, its
``arcsin``/``arccos`` outside [-1, 1]) take that fixing as an argument ``fix``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from provers.ir import COMPLEX, NAT, REAL, App, OpTable, Sort
from provers.semantics.approx import (
    as_int_arg,
    compare,
    exact_real,
    int_op,
    is_approx,
    is_rational,
    near,
    normalized,
    real_result,
    to_mp,
    wrap,
)
from provers.semantics.domains import MAX_DOMAIN
from provers.semantics.exact import (
    MAX_EXPONENT,
    digits,
    ediv,
    emod,
    fdiv,
    fmod,
    is_prime,
    log_ratio,
    nat_mod,
    rational_power,
    rational_root,
)
from provers.semantics.values import MP, Approx, ExactComplex, Undecided

Handler = Callable[[App, list[Any]], Any]
#: A value the assignment gives where the language leaves the function unspecified.
Fix = Callable[[Any], Any] | None

#: Handlers of the numeric operations whose value is a function of their arguments' values
#: (part of the evaluator's table ``evaluate.OPERATIONS``).
HANDLERS: OpTable[Handler] = OpTable("exact evaluator (numbers)")
_handles = HANDLERS.register


def zero(sort: Sort) -> Any:
    return ExactComplex(0, 0) if sort == COMPLEX else 0


def one(sort: Sort) -> Any:
    return ExactComplex(1, 0) if sort == COMPLEX else 1


# --------------------------------------------------------------------------------------
# Arithmetic
# --------------------------------------------------------------------------------------


def _approx_div(x: Any, y: Any) -> Any:
    if near(y, 0):
        raise Undecided("division by an approximate value near 0")
    return x / y


def _approx_inv(x: Any) -> Any:
    if near(x, 0):
        raise Undecided("inverse of an approximate value near 0")
    return 1 / x


_APPROX_ARITH: dict[str, Callable[..., Any]] = {
    "add": lambda x, y: x + y, "mul": lambda x, y: x * y, "neg": lambda x: -x,
    "sub": lambda x, y: x - y, "div": _approx_div, "inv": _approx_inv,
}
_COMPLEX_ARITH: dict[str, Callable[..., ExactComplex]] = {
    "add": lambda a, b: a + b, "mul": lambda a, b: a * b, "neg": lambda a: -a,
    "sub": lambda a, b: a - b, "div": lambda a, b: a * b.inv(), "inv": lambda a: a.inv(),
}
_EXACT_ARITH: dict[str, Callable[..., Any]] = {
    "add": lambda a, b: a + b, "mul": lambda a, b: a * b, "neg": lambda a: -a,
    "sub": lambda a, b: a - b, "div": lambda a, b: 0 if b == 0 else Fraction(a) / b,
    "inv": lambda a: 0 if a == 0 else 1 / Fraction(a),
}


def arith(op: str, sort: Sort, vals: list[Any]) -> Any:
    """+, *, -, neg, /, inv on one sort (Nat truncation and floor division, x / 0 = 0)."""
    if any(isinstance(v, Approx) for v in vals):
        if sort != COMPLEX and _exactly_zero_product(op, vals):
            return 0  # 0 · x = 0 / x = x / 0 = 0 for every number x, however well it is known
        if op == "div" and sort == NAT:
            return int_op(lambda a, b: 0 if b == 0 else a // b, *vals)
        r = _APPROX_ARITH[op](*(to_mp(v) for v in vals))
        if op == "sub" and sort == NAT:
            r = max(r, MP.mpf(0))
        return Approx(r)
    if sort == COMPLEX:
        return _COMPLEX_ARITH[op](*vals)
    xs = [exact_real(v) for v in vals]
    if op == "mul" and sum(_bits(x) for x in xs) > MAX_POWER_BITS:
        raise Undecided(f"product of {' and '.join(f'{_bits(x)}-bit' for x in xs)} numbers too large to evaluate exactly")
    if op == "sub" and sort == NAT:
        return max(xs[0] - xs[1], 0)
    if op == "div" and sort == NAT:
        return 0 if xs[1] == 0 else xs[0] // xs[1]
    return _EXACT_ARITH[op](*xs)


def _exactly_zero_product(op: str, vals: list[Any]) -> bool:
    """A product with an exact factor 0, or a quotient with an exact 0 on either side (x / 0 =
    0 in Lean and Isabelle): exactly 0 whatever the approximate operands are (the model
    p = λx. a x² + b x + c with a = b = c = 0 at x = 3 + √7)."""
    if not all(MP.isfinite(v.value) for v in vals if isinstance(v, Approx)):
        return False
    if op == "mul":
        return any(_is_exact_zero(v) for v in vals)
    if op == "div":
        return _is_exact_zero(vals[0]) or _is_exact_zero(vals[1])
    return False


def _is_exact_zero(v: Any) -> bool:
    return isinstance(v, (int, Fraction)) and not isinstance(v, bool) and v == 0


@_handles(*_EXACT_ARITH)
def _arithmetic(t: App, vals: list[Any]) -> Any:
    return normalized(arith(t.op, t.sort, vals))


@_handles("cast")
def _cast(t: App, vals: list[Any]) -> Any:
    v = vals[0]
    if t.sort == COMPLEX and not isinstance(v, ExactComplex):
        if isinstance(v, Approx):
            return Approx(MP.mpc(v.value))
        return ExactComplex(Fraction(v), Fraction(0))
    return v


_INT_DIVISION = {"mod": nat_mod, "ediv": ediv, "emod": emod, "fdiv": fdiv, "fmod": fmod}


@_handles(*_INT_DIVISION)
def _int_division(t: App, vals: list[Any]) -> Any:
    return int_op(_INT_DIVISION[t.op], *vals)


@_handles("abs")
def _abs(t: App, vals: list[Any]) -> Any:
    v = vals[0]
    return Approx(abs(v.value)) if isinstance(v, Approx) else abs(v)


@_handles("min", "max")
def _min_max(t: App, vals: list[Any]) -> Any:
    s, approx = compare(vals[0], vals[1])
    pick = vals[0] if (s <= 0) == (t.op == "min") else vals[1]
    return wrap(pick, approx)


@_handles("sign")
def _sign(t: App, vals: list[Any]) -> Any:
    s, approx = compare(vals[0], 0)
    return wrap(s, approx)


# --------------------------------------------------------------------------------------
# Powers
# --------------------------------------------------------------------------------------


#: Largest exact power or product computed, in bits of the result (one C-level ``**`` or
#: ``*``: not interruptible). 2¹⁸ bits (79,000 digits) is far past any number a statement
#: names (3⁴⁰⁹⁶ has 6,500 bits); at 2²² a sampled point of ``b = a⁹ + 4a + 6`` (FormalAlign
#: ``mathd_algebra_421``) made numbers of millions of bits whose sums alone overran the
#: check's 4 s budget by 6 s.
MAX_POWER_BITS = 1 << 18


def _bits(q: int | Fraction) -> int:
    if isinstance(q, int):  # every exact product asks: no Fraction built for an integer
        return q.bit_length()
    return max(q.numerator.bit_length(), q.denominator.bit_length())


def power(base: Any, n: int, sort: Sort) -> Any:
    """``base ^ n`` for an integer ``n`` (a negative one in a field: ``(base ^ -n)⁻¹``)."""
    if isinstance(base, Approx):
        return Approx(base.value**n)
    trivial = base in (0, 1, -1) or base == ExactComplex(0, 0)
    if abs(n) > MAX_EXPONENT and not trivial:  # negative too: (7/10⁷)^(-10⁹) hung a check
        raise Undecided(f"exponent {n} too large to evaluate exactly")
    if not trivial and isinstance(base, (int, Fraction)) and _bits(base) * abs(n) > MAX_POWER_BITS:
        raise Undecided(f"power of a {_bits(base)}-bit number to {n} too large to evaluate exactly")
    if sort == COMPLEX:
        out = ExactComplex(1, 0)
        b = base
        k = abs(n)
        while k:
            if k & 1:
                out = out * b
            b = b * b
            k >>= 1
        return out.inv() if n < 0 else out
    if n < 0:
        return 0 if base == 0 else Fraction(1) / Fraction(base) ** (-n)
    if base == 1:
        return 1
    if base == -1:
        return 1 if n % 2 == 0 else -1
    if base == 0:
        return 1 if n == 0 else 0
    return base**n


@_handles("pow", "zpow")
def _power(t: App, vals: list[Any]) -> Any:
    n, approx = as_int_arg(vals[1])
    if t.op == "zpow" and isinstance(vals[0], Approx) and n < 0 and near(vals[0].value, 0):
        raise Undecided("negative power of an approximate value near 0")
    return wrap(normalized(power(vals[0], n, t.sort)), approx)


def rpow_exact(x: Fraction, y: Fraction) -> Any:
    """Mathlib Real.rpow on exact arguments; Approx / Undecided when not rational."""
    x, y = Fraction(x), Fraction(y)
    if x == 0:
        return 1 if y == 0 else 0
    if y.denominator == 1:
        return normalized(power(x, int(y), REAL))
    if x > 0:
        r = rational_power(x, y)
        return normalized(r) if r is not None else real_result(MP.power(to_mp(x), to_mp(y)))
    # x < 0: exp(y log|x|) * cos(y π)
    if y.denominator == 2:
        return 0
    mag = rational_power(-x, y)
    if y.denominator == 3 and mag is not None:
        c = Fraction(1, 2) if (y.numerator % 6) in (1, 5) else Fraction(-1, 2)
        return normalized(mag * c)
    return real_result(MP.power(-to_mp(x), to_mp(y)) * MP.cospi(to_mp(y)))


@_handles("rpow")
def _rpow(t: App, vals: list[Any]) -> Any:
    x, y = vals
    if not is_approx(x) and not is_approx(y):
        return rpow_exact(x, y)
    sx, _ = compare(x, 0)
    if sx == 0:
        sy, _ = compare(y, 0)
        return Approx(MP.mpf(1 if sy == 0 else 0))
    if sx > 0:
        return Approx(MP.power(to_mp(x), to_mp(y)))
    return real_result(MP.power(-to_mp(x), to_mp(y)) * MP.cospi(to_mp(y)))


def powr(x: Any, y: Any, fix_ln: Fix) -> Any:
    """Isabelle ``x powr y``: 0 at x = 0, else exp(y ln x) (ln as Isabelle's, fixed by ``fix_ln``)."""
    sx, approx = compare(x, 0)
    if sx == 0:
        return 0
    if sx < 0:
        return exp(arith("mul", REAL, [y, ln(x, fix_ln)]))
    if not approx and not is_approx(y):
        return rpow_exact(x, y)
    return Approx(MP.power(to_mp(x), to_mp(y)))


# --------------------------------------------------------------------------------------
# Rounding and integer conversions
# --------------------------------------------------------------------------------------

#: Integer result of each rounding op from f = ⌊x⌋ (+ 1/2 for round) and whether x was integral.
_ROUND = {
    "floor": lambda f, whole: f,
    "round": lambda f, whole: f,
    "ceil": lambda f, whole: f if whole else f + 1,
    "nat_floor": lambda f, whole: max(f, 0),
    "nat_ceil": lambda f, whole: max(f if whole else f + 1, 0),
}


def rounded(op: str, v: Any) -> Any:
    """``v`` rounded by the rounding operation ``op``."""
    if is_rational(v):
        x = Fraction(v) + (Fraction(1, 2) if op == "round" else 0)
        f = math.floor(x)
        return _ROUND[op](f, f == x)
    m = to_mp(v)
    if isinstance(m, MP.mpc):
        raise Undecided("floor of a complex value")
    shifted = m + (MP.mpf(1) / 2 if op == "round" else 0)
    if near(shifted, MP.nint(shifted)):
        raise Undecided(f"{op} of an approximate value near an integer")
    return Approx(MP.mpf(_ROUND[op](int(MP.floor(shifted)), False)))


@_handles(*_ROUND)
def _rounding(t: App, vals: list[Any]) -> Any:
    return rounded(t.op, vals[0])


@_handles("frac")
def _frac(t: App, vals: list[Any]) -> Any:
    return normalized(arith("sub", t.sort, [vals[0], rounded("floor", vals[0])]))


@_handles("to_nat")
def _to_nat(t: App, vals: list[Any]) -> Any:
    return int_op(lambda a: max(a, 0), vals[0])


@_handles("nat_abs")
def _nat_abs(t: App, vals: list[Any]) -> Any:
    return int_op(abs, vals[0])


# --------------------------------------------------------------------------------------
# Real analysis: exact where the value is rational, else Approx
# --------------------------------------------------------------------------------------


def sqrt(x: Any) -> Any:
    """Mathlib ``Real.sqrt``: 0 for x < 0."""
    if is_rational(x):
        if x <= 0:
            return 0
        r = rational_root(x, 2)
        return normalized(r) if r is not None else Approx(MP.sqrt(to_mp(x)))
    s, _ = compare(x, 0)
    return 0 if s < 0 else Approx(MP.sqrt(to_mp(x)))


def signed_sqrt(x: Any) -> Any:
    """Isabelle ``sqrt``: sign(x)·√|x|."""
    if is_rational(x):
        r = rational_root(abs(x), 2)
        if r is not None:
            return normalized(r if x >= 0 else -r)
        m = MP.sqrt(to_mp(abs(x)))
        return Approx(m if x >= 0 else -m)
    m = to_mp(x)
    return Approx(MP.sqrt(m) if m >= 0 else -MP.sqrt(-m))


def exp(x: Any) -> Any:
    if is_rational(x) and x == 0:
        return 1
    return Approx(MP.exp(to_mp(x)))


def log(x: Any) -> Any:
    """Mathlib ``Real.log``: log |x|, log 0 = 0."""
    if is_rational(x):
        if x in (0, 1, -1):
            return 0
        return Approx(MP.log(abs(to_mp(x))))
    m = to_mp(x)
    if near(m, 0):
        raise Undecided("log of an approximate value near 0")
    return Approx(MP.log(abs(m)))


def ln(x: Any, fix: Fix) -> Any:
    """Isabelle ``ln``: unspecified for x ≤ 0 unless ``fix`` gives the value there."""
    s, approx = compare(x, 0)
    if s <= 0:
        if fix is None or approx:
            raise Undecided("Isabelle ln is unspecified for x ≤ 0")
        return fix(x)
    if is_rational(x) and x == 1:
        return 0
    return Approx(MP.log(to_mp(x)))


def _tan(m: Any) -> Any:
    c = MP.cos(m)
    if near(c, 0):
        raise Undecided("tan where cos is approximately 0")
    return MP.sin(m) / c


#: mpmath function and its (rational) value at 0.
_TRIG: dict[str, tuple[Callable[[Any], Any], int]] = {
    "sin": (MP.sin, 0), "cos": (MP.cos, 1), "tan": (_tan, 0), "arctan": (MP.atan, 0),
    "sinh": (MP.sinh, 0), "cosh": (MP.cosh, 1), "tanh": (MP.tanh, 0),
}


@_handles(*_TRIG)
def _trig(t: App, vals: list[Any]) -> Any:
    fn, at_zero = _TRIG[t.op]
    x = vals[0]
    if is_rational(x) and x == 0:
        return at_zero
    return Approx(fn(to_mp(x)))


def arc(op: str, x: Any, fix: Fix) -> Any:
    """arcsin / arccos: Mathlib clamps the argument to [-1, 1] (``Real.arcsin 2 = π/2``,
    ``Real.arccos 2 = 0``); Isabelle leaves them unspecified outside, where ``fix`` may give
    the value."""
    lean = not op.startswith("isa_")
    name = op.removeprefix("isa_")
    if is_rational(x) and x == (0 if name == "arcsin" else 1):
        return 0
    lo, approx = compare(x, -1)  # (undecided when x is approximately ±1)
    hi, _ = compare(x, 1)
    if lo < 0 or hi > 0:
        if not lean:
            if fix is None or approx:
                raise Undecided(f"Isabelle {name} is unspecified outside [-1, 1]")
            return fix(x)
        if name == "arccos":
            return wrap(0, approx) if hi > 0 else Approx(MP.pi)
        return Approx(MP.pi / 2 if hi > 0 else -MP.pi / 2)
    return Approx((MP.asin if name == "arcsin" else MP.acos)(to_mp(x)))


_ANALYTIC: dict[str, Callable[[Any], Any]] = {
    "sqrt": sqrt, "signed_sqrt": signed_sqrt, "exp": exp, "log": log,
    "arcsin": lambda x: arc("arcsin", x, None), "arccos": lambda x: arc("arccos", x, None),
}


@_handles(*_ANALYTIC)
def _analytic(t: App, vals: list[Any]) -> Any:
    return normalized(_ANALYTIC[t.op](vals[0]))


@_handles("root")
def _root(t: App, vals: list[Any]) -> Any:
    n, approx = as_int_arg(vals[0])
    x = vals[1]
    if n == 0:
        return wrap(0, approx)
    if is_rational(x):
        r = rational_root(abs(Fraction(x)), n)
        if r is not None:
            return wrap(normalized(r if x >= 0 else -r), approx)
    m = to_mp(x)
    mag = MP.root(abs(m), n)
    return Approx(mag if m >= 0 else -mag)


def log_quotient(x: Any, b: Any, log_fn: Callable[[Any], Any], mathlib: bool) -> Any:
    """log x / log b with / 0 = 0: Mathlib ``logb b x`` (``mathlib``: log |·|, log 0 = 0) or
    Isabelle ``log b x`` (``ln`` given as ``log_fn``)."""
    if is_rational(x) and is_rational(b):
        if mathlib and (x in (0, 1, -1) or b in (0, 1, -1)):
            return 0
        if not mathlib and (x == 1 or b == 1):
            return 0
        if x > 0 and b > 0:
            r = log_ratio(Fraction(x), Fraction(b))
            if r is not None:
                return normalized(r)
        elif mathlib and x != 0 and b != 0:
            r = log_ratio(abs(Fraction(x)), abs(Fraction(b)))
            if r is not None:
                return normalized(r)
    return normalized(arith("div", REAL, [log_fn(x), log_fn(b)]))


@_handles("logb")
def _logb(t: App, vals: list[Any]) -> Any:
    return log_quotient(vals[1], vals[0], log, mathlib=True)


@_handles("pi")
def _pi(t: App, vals: list[Any]) -> Any:
    return Approx(+MP.pi)


# --------------------------------------------------------------------------------------
# Complex numbers
# --------------------------------------------------------------------------------------


@_handles("I")
def _imaginary_unit(t: App, vals: list[Any]) -> Any:
    return ExactComplex(0, 1)


@_handles("cabs")
def _cabs(t: App, vals: list[Any]) -> Any:
    v = vals[0]
    if isinstance(v, ExactComplex):
        sq = v.re * v.re + v.im * v.im
        r = rational_root(sq, 2)
        return normalized(r) if r is not None else Approx(MP.sqrt(to_mp(sq)))
    return Approx(abs(to_mp(v)))


_PARTS = {
    "re": (lambda m: m.real, lambda z: normalized(z.re)),
    "im": (lambda m: m.imag, lambda z: normalized(z.im)),
    "conj": (MP.conj, lambda z: ExactComplex(z.re, -z.im)),
}


@_handles(*_PARTS)
def _complex_part(t: App, vals: list[Any]) -> Any:
    approximate, exact = _PARTS[t.op]
    v = vals[0]
    if isinstance(v, Approx):
        return Approx(approximate(MP.mpc(v.value)))
    return exact(v)


# --------------------------------------------------------------------------------------
# Number theory and lists
# --------------------------------------------------------------------------------------


def _factorial(n: int) -> int:
    if n > MAX_EXPONENT:
        raise Undecided(f"{n}! too large to evaluate")
    return math.factorial(n)


_INTEGER_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "fact": _factorial,
    "choose": lambda n, k: math.comb(n, k) if 0 <= k <= n else 0,
    "gcd": math.gcd,
    "lcm": lambda a, b: 0 if a == 0 or b == 0 else abs(a * b) // math.gcd(a, b),
    "dvd": lambda a, b: b == 0 if a == 0 else b % a == 0,
    "prime": is_prime,
    "even": lambda a: a % 2 == 0,
    "odd": lambda a: a % 2 == 1,
    "digits": lambda b, n: digits(b, n, MAX_DOMAIN),
}


@_handles(*_INTEGER_FUNCTIONS)
def _integer_function(t: App, vals: list[Any]) -> Any:
    return int_op(_INTEGER_FUNCTIONS[t.op], *vals)


@_handles("list_sum", "list_length")
def _list_fold(t: App, vals: list[Any]) -> Any:
    lst = vals[0]
    if not isinstance(lst, tuple):
        raise Undecided(f"{t.op} of a non-list {lst!r}")
    if t.op == "list_length":
        return len(lst)
    total: Any = zero(t.sort)
    for e in lst:
        total = arith("add", t.sort, [total, e])
    return normalized(total)
