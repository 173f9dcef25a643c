"""Exact evaluation of IR terms under an assignment, and cheap fingerprints.

Why: every solver countermodel is re-checked here before it counts, and truth values on
sampled assignments refute most inequivalent pairs before any solver runs. So the evaluator
must give every operation of ``provers.ir.OPS`` its one documented meaning, and must say
when it does NOT know: a wrong exact answer is worse than none.

Values (what ``evaluate`` returns and what an assignment ``env`` holds, keyed by variable
name):

* ``bool``; ``int`` (Nat, Int); ``Fraction`` or ``int`` (Rat, Real); ``ExactComplex``;
* ``Approx`` – a real or complex number computed with mpmath at ``PRECISION_DPS`` digits
  (sqrt 2, exp 1, π, ...); ``ApproxBool`` – a truth value decided on approximate numbers
  whose difference exceeded the tolerance ``TOLERANCE`` (reliable in practice, not exact);
* ``frozenset`` (finite sets), ``PredSet`` (sets known only by membership), ``tuple`` (lists),
  ``FunTable`` (finite table with a default), ``Closure`` (a lambda), ``Opaque`` elements;
* ``Undetermined(reason)`` – the evaluator cannot decide (unbounded quantifier, comparison
  of approximate values within the tolerance, Isabelle ``ln`` at x ≤ 0, missing table...).

Uninterpreted symbols are looked up in ``env`` by symbol name (a ``FunTable`` or, for
0-ary symbols, a value). Values the languages leave unspecified can be fixed by a table:
``env["@ln"]`` gives Isabelle ``ln`` at x ≤ 0.

Public API::

    evaluate(term, env) -> Value                 # may be Undetermined / Approx / ApproxBool
    decide(term, env) -> Decision(value, exact, reason)
    truth(term, env) -> True | False | None      # None unless EXACTLY decided

Each of the three takes ``deadline=`` (a ``provers.deadline.Deadline``): binder enumeration
checks it and raises ``DeadlineExceeded`` once it has passed (the caller that set it decides
what that means; without a deadline only the step budget bounds an evaluation).
    sample_assignments(variables, n, seed) -> list[dict[str, Value]]
    fingerprint(formula, variables, samples) -> tuple[bool | None, ...]
"""

from __future__ import annotations

import itertools
import math
import random
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import mpmath

from provers.deadline import Deadline
from provers.ir import (
    BOOL,
    COMPLEX,
    INT,
    NAT,
    RAT,
    REAL,
    App,
    BigOp,
    FunSort,
    Lam,
    ListSort,
    Num,
    OpaqueSort,
    Quant,
    SetBuilder,
    SetSort,
    Sort,
    Term,
    Uninterpreted,
    Var,
    free_vars,
    subterms,
)

#: Decimal digits mpmath works with for transcendental values.
PRECISION_DPS = 50
#: Approximate values closer than this (relative to max(1, |a|, |b|)) compare as undecided.
TOLERANCE = Fraction(1, 10**30)
#: Largest finite domain a quantifier, set or big operator is enumerated over.
MAX_DOMAIN = 20_000
#: Largest exponent / factorial argument computed exactly (beyond: undecided).
MAX_EXPONENT = 4096
#: Binder iterations (quantifier / big operator / set-builder steps, probes) per evaluate
#: call; nested bounded quantifiers multiply, and a batch must not stall on one formula.
STEP_BUDGET = 30_000
#: Binder iterations between two looks at the caller's deadline.
DEADLINE_EVERY = 64

_steps = threading.local()  # per thread: steps left and the deadline of the outermost call


def _tick() -> None:
    left = getattr(_steps, "left", STEP_BUDGET) - 1
    _steps.left = left
    if left < 0:
        raise Undecided("evaluation step budget exhausted")
    if left % DEADLINE_EVERY == 0:
        deadline = getattr(_steps, "deadline", None)
        if deadline is not None:
            deadline.check("exact evaluation")

_ctx = mpmath.MPContext()
_ctx.dps = PRECISION_DPS
_TOL = _ctx.mpf(TOLERANCE.numerator) / TOLERANCE.denominator


# --------------------------------------------------------------------------------------
# Values
# --------------------------------------------------------------------------------------


class Undecided(Exception):
    """Raised internally when a value cannot be determined; surfaces as ``Undetermined``."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Undetermined:
    reason: str

    def __bool__(self) -> bool:
        raise TypeError(f"undetermined truth value ({self.reason})")


@dataclass(frozen=True)
class Approx:
    """A number known to ``PRECISION_DPS`` digits (mpf or mpc), never treated as exact."""

    value: Any

    def __repr__(self) -> str:
        return f"Approx({_ctx.nstr(self.value, 20)})"


@dataclass(frozen=True)
class ApproxBool:
    value: bool


@dataclass(frozen=True)
class ExactComplex:
    re: Fraction
    im: Fraction

    def __post_init__(self) -> None:
        object.__setattr__(self, "re", Fraction(self.re))
        object.__setattr__(self, "im", Fraction(self.im))

    def __add__(self, o: ExactComplex) -> ExactComplex:
        return ExactComplex(self.re + o.re, self.im + o.im)

    def __sub__(self, o: ExactComplex) -> ExactComplex:
        return ExactComplex(self.re - o.re, self.im - o.im)

    def __mul__(self, o: ExactComplex) -> ExactComplex:
        return ExactComplex(self.re * o.re - self.im * o.im, self.re * o.im + self.im * o.re)

    def __neg__(self) -> ExactComplex:
        return ExactComplex(-self.re, -self.im)

    def inv(self) -> ExactComplex:
        d = self.re * self.re + self.im * self.im
        return ExactComplex(0, 0) if d == 0 else ExactComplex(self.re / d, -self.im / d)

    def __repr__(self) -> str:
        return f"({self.re}+{self.im}i)"


@dataclass(frozen=True)
class Opaque:
    """An element of an opaque carrier (the ``index``-th element of sort ``sort``)."""

    sort: str
    index: int


@dataclass
class FunTable:
    """A function given by finitely many points and a default: ``entries[(a1, …)] = v``."""

    entries: dict[tuple, Any] = field(default_factory=dict)
    default: Any = 0

    def __call__(self, *args: Any) -> Any:
        return self.entries.get(tuple(args), self.default)

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, FunTable)
            and self.default == other.default
            and all(self(*k) == other(*k) for k in set(self.entries) | set(other.entries))
        )

    def __hash__(self) -> int:
        return hash(("FunTable", self.default, len(self.entries)))


@dataclass(frozen=True)
class Closure:
    vars: tuple[Var, ...]
    body: Term
    env: Any = field(compare=False, hash=False)


@dataclass(frozen=True)
class PredSet:
    """A set known by its membership test (``infinite``: True / False / None = unknown)."""

    elem: Sort
    contains: Callable[[Any], Any] = field(compare=False, hash=False)
    infinite: bool | None = None


@dataclass(frozen=True)
class Decision:
    """``value`` is True/False/None; ``exact`` tells an exact answer from an approximate one."""

    value: bool | None
    exact: bool
    reason: str = ""


Value = Any


# --------------------------------------------------------------------------------------
# Number helpers
# --------------------------------------------------------------------------------------


def _is_approx(v: Any) -> bool:
    return isinstance(v, (Approx, ApproxBool))


def _mp(v: Any) -> Any:
    if isinstance(v, Approx):
        return v.value
    if isinstance(v, bool):
        raise Undecided("boolean used as a number")
    if isinstance(v, int):
        return _ctx.mpf(v)
    if isinstance(v, Fraction):
        return _ctx.mpf(v.numerator) / v.denominator
    if isinstance(v, ExactComplex):
        return _ctx.mpc(_mp(v.re), _mp(v.im))
    raise Undecided(f"not a number: {v!r}")


def _near(a: Any, b: Any) -> bool:
    scale = max(_ctx.mpf(1), abs(a), abs(b))
    return abs(a - b) <= _TOL * scale


def _exact_real(v: Any) -> int | Fraction:
    if isinstance(v, bool) or not isinstance(v, (int, Fraction)):
        raise Undecided(f"expected an exact rational, got {v!r}")
    return v


def _as_int_arg(v: Any) -> tuple[int, bool]:
    """An integer argument (exact, or an integral approximate value) and its approx flag."""
    if isinstance(v, bool):
        raise Undecided("boolean used as a number")
    if isinstance(v, int):
        return v, False
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v), False
    if isinstance(v, Approx) and not isinstance(v.value, _ctx.mpc):
        r = int(_ctx.nint(v.value))
        if v.value == r:
            return r, True
    raise Undecided(f"expected an integer, got {v!r}")


def _wrap(v: Any, approx: bool) -> Any:
    if not approx:
        return v
    if isinstance(v, bool):
        return ApproxBool(v)
    if isinstance(v, (int, Fraction, ExactComplex)):
        return Approx(_mp(v))
    if isinstance(v, (Approx, ApproxBool)):
        return v
    raise Undecided("a non-numeric value depends on an approximate decision")


def _int_op(fn: Callable[..., Any], *vals: Any) -> Any:
    args, approx = [], False
    for v in vals:
        i, a = _as_int_arg(v)
        args.append(i)
        approx |= a
    return _wrap(fn(*args), approx)


def _real_result(x: Any) -> Approx:
    if isinstance(x, _ctx.mpc):
        if abs(x.imag) > _TOL * max(1, abs(x.real)):
            raise Undecided("complex value where a real was expected")
        x = x.real
    return Approx(_ctx.mpf(x))


def _cmp(a: Any, b: Any) -> tuple[int, bool]:
    """Sign of a - b and whether it is approximate; undecided within the tolerance."""
    if isinstance(a, bool) or isinstance(b, bool):
        raise Undecided("boolean compared as a number")
    if isinstance(a, (int, Fraction)) and isinstance(b, (int, Fraction)):
        return (a > b) - (a < b), False
    x, y = _mp(a), _mp(b)
    if isinstance(x, _ctx.mpc) or isinstance(y, _ctx.mpc):
        raise Undecided("ordering of complex values")
    if _near(x, y):
        raise Undecided(f"approximate values {_ctx.nstr(x, 12)} and {_ctx.nstr(y, 12)} agree within tolerance")
    return (1 if x > y else -1), True


def _values_equal(a: Any, b: Any) -> tuple[bool, bool]:
    """Equality of two values of one sort: (result, approx)."""
    if isinstance(a, Undetermined) or isinstance(b, Undetermined):
        raise Undecided("equality of undetermined values")
    if isinstance(a, (Approx,)) or isinstance(b, (Approx,)):
        x, y = _mp(a), _mp(b)
        if _near(x, y):
            raise Undecided("approximate values agree within tolerance")
        return False, True
    if isinstance(a, (ApproxBool, bool)) and isinstance(b, (ApproxBool, bool)):
        va, vb = (a.value if isinstance(a, ApproxBool) else a), (b.value if isinstance(b, ApproxBool) else b)
        return va == vb, _is_approx(a) or _is_approx(b)
    if isinstance(a, PredSet) or isinstance(b, PredSet):
        raise Undecided("equality of sets not known to be finite")
    if isinstance(a, (Closure,)) or isinstance(b, (Closure,)) or callable(a) and not isinstance(a, FunTable):
        raise Undecided("equality of functions given by lambdas")
    if isinstance(a, frozenset) and isinstance(b, frozenset):
        if any(_is_approx(e) for e in a | b):
            raise Undecided("set of approximate values")
    if isinstance(a, FunTable) and isinstance(b, FunTable) and a.default != b.default:
        keys = set(a.entries) | set(b.entries)
        if keys and all(isinstance(c, bool) for k in keys for c in k):
            raise Undecided("tables over a finite domain with different defaults")
    return a == b, False


def _isqrt_exact(n: int) -> int | None:
    if n < 0:
        return None
    r = math.isqrt(n)
    return r if r * r == n else None


def _iroot_exact(n: int, k: int) -> int | None:
    """Exact k-th root of n >= 0, or None."""
    if n < 0:
        return None
    if n < 2:
        return n
    r = int(round(n ** (1.0 / k))) if n.bit_length() < 1000 else int(_ctx.nint(_ctx.root(n, k)))
    for c in (r - 1, r, r + 1):
        if c >= 0 and c**k == n:
            return c
    return None


def _rational_root(x: Fraction, k: int) -> Fraction | None:
    """Exact k-th root of a rational x >= 0, or None."""
    x = Fraction(x)
    p, q = _iroot_exact(x.numerator, k), _iroot_exact(x.denominator, k)
    return None if p is None or q is None else Fraction(p, q)


def _rational_power(b: Fraction, e: Fraction) -> Fraction | None:
    """b ^ e for b > 0 and rational e when the result is rational, else None."""
    e = Fraction(e)
    if abs(e.numerator) > MAX_EXPONENT or e.denominator > 64:
        return None
    r = _rational_root(Fraction(b), e.denominator)
    if r is None:
        return None
    return r**e.numerator


def _log_ratio(x: Fraction, b: Fraction) -> Fraction | None:
    """log x / log b as an exact rational when x = b^(p/q) for x, b > 0, b != 1."""
    lx, lb = _ctx.log(_mp(x)), _ctx.log(_mp(b))
    ratio = lx / lb
    guess = Fraction(str(_ctx.nstr(ratio, 30))).limit_denominator(64)
    if guess == 0:
        return None
    if guess.numerator > 0:
        ok = Fraction(x) ** guess.denominator == Fraction(b) ** guess.numerator
    else:
        ok = Fraction(x) ** guess.denominator * Fraction(b) ** (-guess.numerator) == 1
    return guess if ok else None


def _fdiv(a: int, b: int) -> int:
    return 0 if b == 0 else a // b


def _fmod(a: int, b: int) -> int:
    return a if b == 0 else a % b


def _ediv(a: int, b: int) -> int:
    if b == 0:
        return 0
    q = a // abs(b)  # floor(a / |b|)
    return q if b > 0 else -q


def _emod(a: int, b: int) -> int:
    return a if b == 0 else a - b * _ediv(a, b)


def _is_prime(n: int) -> bool:
    n = abs(n)
    if n < 2:
        return False
    if n < 4:
        return True
    if n % 2 == 0:
        return False
    if n > 10**12:
        raise Undecided(f"primality of {n} is not checked")
    return all(n % d for d in range(3, math.isqrt(n) + 1, 2))


def _digits(b: int, n: int) -> tuple[int, ...]:
    """Mathlib ``Nat.digits``: b = 0 → [n] (n ≠ 0); b = 1 → n ones; else little-endian."""
    if n == 0:
        return ()
    if b == 0:
        return (n,)
    if b == 1:
        if n > MAX_DOMAIN:
            raise Undecided("unary digits list too long")
        return (1,) * n
    out = []
    while n:
        out.append(n % b)
        n //= b
    return tuple(out)


# --------------------------------------------------------------------------------------
# The evaluator
# --------------------------------------------------------------------------------------


def evaluate(term: Term, env: dict[str, Value] | None = None, deadline: Deadline | None = None) -> Value:
    """Value of ``term`` under ``env``; ``Undetermined(reason)`` when it cannot be decided.
    Raises ``DeadlineExceeded`` when ``deadline`` passes during the evaluation."""
    outer = getattr(_steps, "left", None)
    if outer is None:
        _steps.left = STEP_BUDGET
        _steps.deadline = deadline
    try:
        return _ev(term, dict(env or {}))
    except Undecided as e:
        return Undetermined(e.reason)
    except RecursionError:
        return Undetermined("term too deep")
    except (OverflowError, MemoryError, ValueError, ZeroDivisionError, TypeError) as e:
        return Undetermined(f"evaluation error: {type(e).__name__}: {e}")
    finally:
        if outer is None:
            del _steps.left
            _steps.deadline = None


def decide(term: Term, env: dict[str, Value] | None = None, deadline: Deadline | None = None) -> Decision:
    """Truth value of a formula, saying whether it is exact."""
    v = evaluate(term, env, deadline)
    if isinstance(v, Undetermined):
        return Decision(None, False, v.reason)
    if isinstance(v, bool):
        return Decision(v, True)
    if isinstance(v, ApproxBool):
        return Decision(v.value, False, "decided on approximate values")
    return Decision(None, False, f"not a truth value: {v!r}")


def truth(term: Term, env: dict[str, Value] | None = None, deadline: Deadline | None = None) -> bool | None:
    """True / False when the formula's value is EXACTLY known under ``env``, else None."""
    d = decide(term, env, deadline)
    return d.value if d.exact else None


def _tri(t: Term, env: dict) -> tuple[bool | None, bool, str]:
    """(value, exact, reason) of a subformula; never raises Undecided."""
    try:
        v = _ev(t, env)
    except Undecided as e:
        return None, False, e.reason
    if isinstance(v, bool):
        return v, True, ""
    if isinstance(v, ApproxBool):
        return v.value, False, ""
    return None, False, f"not a truth value: {v!r}"


def _result(value: bool, exact: bool) -> Any:
    return value if exact else ApproxBool(value)


def _coerce(v: Any, sort: Sort, name: str) -> Any:
    """Bring a user-supplied value to the evaluator's representation of ``sort``."""
    if isinstance(v, (Approx, ApproxBool, Undetermined)):
        return v
    if sort == BOOL:
        if not isinstance(v, bool):
            raise Undecided(f"variable {name}: expected a bool, got {v!r}")
        return v
    if sort in (NAT, INT):
        if isinstance(v, bool) or not isinstance(v, (int, Fraction)) or Fraction(v).denominator != 1:
            raise Undecided(f"variable {name}: expected an integer, got {v!r}")
        if sort == NAT and v < 0:
            raise Undecided(f"variable {name}: negative value {v} for a Nat")
        return int(v)
    if sort in (RAT, REAL):
        if isinstance(v, float):
            return Fraction(v)
        if isinstance(v, (int, Fraction)) and not isinstance(v, bool):
            return v
        raise Undecided(f"variable {name}: expected a rational, got {v!r}")
    if sort == COMPLEX:
        if isinstance(v, ExactComplex):
            return v
        if isinstance(v, tuple) and len(v) == 2:
            return ExactComplex(Fraction(v[0]), Fraction(v[1]))
        if isinstance(v, complex):
            return ExactComplex(Fraction(v.real), Fraction(v.imag))
        if isinstance(v, (int, Fraction)) and not isinstance(v, bool):
            return ExactComplex(Fraction(v), Fraction(0))
        raise Undecided(f"variable {name}: expected a complex value, got {v!r}")
    if isinstance(sort, SetSort) and isinstance(v, (set, frozenset, list, tuple)):
        return frozenset(_coerce(e, sort.elem, name) for e in v)
    if isinstance(sort, FunSort) and isinstance(v, dict):
        return FunTable(dict(v), 0)
    return v


def _zero(sort: Sort) -> Any:
    return ExactComplex(0, 0) if sort == COMPLEX else 0


def _one(sort: Sort) -> Any:
    return ExactComplex(1, 0) if sort == COMPLEX else 1


def _ev(t: Term, env: dict) -> Any:
    if isinstance(t, Var):
        if t.name not in env:
            raise Undecided(f"no value for variable {t.name}")
        return _coerce(env[t.name], t.sort, t.name)
    if isinstance(t, Num):
        if t.sort == COMPLEX:
            return ExactComplex(Fraction(t.value), Fraction(0))
        return t.value
    if isinstance(t, App):
        return _app(t, env)
    if isinstance(t, Quant):
        return _quant(t, env)
    if isinstance(t, Lam):
        return Closure(t.vars, t.body, env)
    if isinstance(t, BigOp):
        return _bigop(t, env)
    if isinstance(t, SetBuilder):
        return _setbuilder(t, env)
    if isinstance(t, Uninterpreted):
        return _uninterpreted(t, env)
    raise Undecided(f"unknown term {type(t).__name__}")


def _uninterpreted(t: Uninterpreted, env: dict) -> Any:
    table = env.get(t.symbol)
    if table is None:
        raise Undecided(f"uninterpreted symbol {t.symbol} has no table")
    if not t.args:
        return table(*()) if isinstance(table, FunTable) else table
    return _call(table, [_ev(a, env) for a in t.args], t.symbol)


def _call(f: Any, args: list[Any], what: str) -> Any:
    if any(_is_approx(a) for a in args) and not isinstance(f, Closure):
        raise Undecided(f"table of {what} looked up at an approximate point")
    if isinstance(f, Closure):
        inner = dict(f.env)
        for v, a in zip(f.vars, args, strict=True):
            inner[v.name] = a
        return _ev(f.body, inner)
    if isinstance(f, FunTable) or callable(f):
        return f(*args)
    raise Undecided(f"{what} is not a function: {f!r}")


# ---------------------------------------------------------------------------- logic


def _logic(t: App, env: dict) -> Any:
    op = t.op
    if op == "not":
        v, ex, r = _tri(t.args[0], env)
        if v is None:
            raise Undecided(r)
        return _result(not v, ex)
    if op in ("and", "or"):
        absorbing = op == "or"  # True absorbs a disjunction, False a conjunction
        seen_approx_abs, undecided, all_exact = False, "", True
        for a in t.args:
            v, ex, r = _tri(a, env)
            if v is None:
                undecided = undecided or r
                continue
            if v == absorbing:
                if ex:
                    return absorbing
                seen_approx_abs = True
            all_exact &= ex
        if seen_approx_abs:
            return ApproxBool(absorbing)
        if undecided:
            raise Undecided(undecided)
        return _result(not absorbing, all_exact)
    if op == "implies":
        p, pe, pr = _tri(t.args[0], env)
        if p is False and pe:
            return True
        q, qe, qr = _tri(t.args[1], env)
        if q is True and qe:
            return True
        if p is False or q is True:
            return ApproxBool(True)
        if p is None or q is None:
            raise Undecided(pr or qr)
        return _result(False, pe and qe)  # p true, q false
    if op == "iff":
        p, pe, pr = _tri(t.args[0], env)
        q, qe, qr = _tri(t.args[1], env)
        if p is None or q is None:
            raise Undecided(pr or qr)
        return _result(p == q, pe and qe)
    if op == "ite":
        c, ce, cr = _tri(t.args[0], env)
        if c is None:
            a, b = _ev(t.args[1], env), _ev(t.args[2], env)
            eq, approx = _values_equal(a, b)
            if eq and not approx:
                return a
            raise Undecided(cr)
        v = _ev(t.args[1] if c else t.args[2], env)
        return v if ce else _wrap(v, True)
    raise Undecided(f"unknown connective {op}")


# ---------------------------------------------------------------------------- arithmetic


def _arith(op: str, sort: Sort, vals: list[Any]) -> Any:
    """+, *, -, neg, /, inv on one sort (Nat truncation, x / 0 = 0)."""
    if any(isinstance(v, Approx) for v in vals):
        xs = [_mp(v) for v in vals]
        if op == "add":
            r = xs[0] + xs[1]
        elif op == "mul":
            r = xs[0] * xs[1]
        elif op == "neg":
            r = -xs[0]
        elif op == "sub":
            r = xs[0] - xs[1]
            if sort == NAT:
                r = max(r, _ctx.mpf(0))
        elif op == "div":
            if sort == NAT:
                return _int_op(lambda a, b: 0 if b == 0 else a // b, *vals)
            if _near(xs[1], 0):
                raise Undecided("division by an approximate value near 0")
            r = xs[0] / xs[1]
        elif op == "inv":
            if _near(xs[0], 0):
                raise Undecided("inverse of an approximate value near 0")
            r = 1 / xs[0]
        else:
            raise Undecided(op)
        return Approx(r)
    if sort == COMPLEX:
        a = vals[0]
        b = vals[1] if len(vals) > 1 else None
        if op == "add":
            return a + b
        if op == "mul":
            return a * b
        if op == "neg":
            return -a
        if op == "sub":
            return a - b
        if op == "div":
            return a * b.inv()
        if op == "inv":
            return a.inv()
    a = _exact_real(vals[0])
    b = _exact_real(vals[1]) if len(vals) > 1 else None
    if op == "add":
        return a + b
    if op == "mul":
        return a * b
    if op == "neg":
        return -a
    if op == "sub":
        return max(a - b, 0) if sort == NAT else a - b
    if op == "div":
        if sort == NAT:
            return 0 if b == 0 else a // b
        return 0 if b == 0 else Fraction(a) / b
    if op == "inv":
        return 0 if a == 0 else 1 / Fraction(a)
    raise Undecided(op)


def _norm(v: Any) -> Any:
    if isinstance(v, Fraction) and v.denominator == 1:
        return int(v)
    return v


def _pow(base: Any, n: int, sort: Sort) -> Any:
    if isinstance(base, Approx):
        return Approx(base.value**n)
    if n > MAX_EXPONENT and not (base in (0, 1, -1) or base == ExactComplex(0, 0)):
        raise Undecided(f"exponent {n} too large to evaluate exactly")
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
    if base in (1,):
        return 1
    if base == -1:
        return 1 if n % 2 == 0 else -1
    if base == 0:
        return 1 if n == 0 else 0
    return base**n


def _rpow_exact(x: Fraction, y: Fraction) -> Any:
    """Mathlib Real.rpow on exact arguments; Approx / Undecided when not rational."""
    x, y = Fraction(x), Fraction(y)
    if x == 0:
        return 1 if y == 0 else 0
    if y.denominator == 1:
        return _norm(_pow(x, int(y), REAL))
    if x > 0:
        r = _rational_power(x, y)
        return _norm(r) if r is not None else _real_result(_ctx.power(_mp(x), _mp(y)))
    # x < 0: exp(y log|x|) * cos(y π)
    if y.denominator == 2:
        return 0
    mag = _rational_power(-x, y)
    if y.denominator == 3 and mag is not None:
        c = Fraction(1, 2) if (y.numerator % 6) in (1, 5) else Fraction(-1, 2)
        return _norm(mag * c)
    return _real_result(_ctx.power(-_mp(x), _mp(y)) * _ctx.cospi(_mp(y)))


def _analytic(op: str, vals: list[Any], env: dict) -> Any:
    """sqrt, exp, log, trig, ...: exact where the value is rational, else Approx."""
    x = vals[0]
    exact = isinstance(x, (int, Fraction)) and not isinstance(x, bool)
    if op == "sqrt":
        if exact:
            if x <= 0:
                return 0
            r = _rational_root(x, 2)
            return _norm(r) if r is not None else Approx(_ctx.sqrt(_mp(x)))
        s, _ = _cmp(x, 0)
        return 0 if s < 0 else Approx(_ctx.sqrt(_mp(x)))
    if op == "signed_sqrt":
        if exact:
            r = _rational_root(abs(x), 2)
            if r is not None:
                return _norm(r if x >= 0 else -r)
            m = _ctx.sqrt(_mp(abs(x)))
            return Approx(m if x >= 0 else -m)
        m = _mp(x)
        return Approx(_ctx.sqrt(m) if m >= 0 else -_ctx.sqrt(-m))
    if op == "exp":
        if exact and x == 0:
            return 1
        return Approx(_ctx.exp(_mp(x)))
    if op == "log":
        if exact:
            if x in (0, 1, -1):
                return 0
            return Approx(_ctx.log(abs(_mp(x))))
        m = _mp(x)
        if _near(m, 0):
            raise Undecided("log of an approximate value near 0")
        return Approx(_ctx.log(abs(m)))
    if op == "ln":
        s, approx = _cmp(x, 0)
        if s <= 0:
            table = env.get("@ln")
            if table is None or approx:
                raise Undecided("Isabelle ln is unspecified for x ≤ 0")
            return _call(table, [x], "@ln")
        if exact and x == 1:
            return 0
        return Approx(_ctx.log(_mp(x)))
    if op in ("sin", "tan", "arctan", "sinh", "tanh", "arcsin", "isa_arcsin") and exact and x == 0:
        return 0
    if op in ("cos", "cosh") and exact and x == 0:
        return 1
    if op in ("arccos", "isa_arccos") and exact and x == 1:
        return 0
    if op in ("arcsin", "arccos", "isa_arcsin", "isa_arccos"):
        return _arc(op, x, env)
    m = _mp(x)
    if op == "tan":
        c = _ctx.cos(m)
        if _near(c, 0):
            raise Undecided("tan where cos is approximately 0")
        return Approx(_ctx.sin(m) / c)
    fn = {"sin": _ctx.sin, "cos": _ctx.cos, "arctan": _ctx.atan, "sinh": _ctx.sinh,
          "cosh": _ctx.cosh, "tanh": _ctx.tanh}[op]
    return Approx(fn(m))


def _arc(op: str, x: Any, env: dict) -> Any:
    """arcsin / arccos: Mathlib clamps the argument to [-1, 1] (``Real.arcsin 2 = π/2``,
    ``Real.arccos 2 = 0``); Isabelle leaves them unspecified outside (``env["@arcsin"]`` /
    ``env["@arccos"]`` may fix them, as ``@ln`` does for ``ln``)."""
    lean = not op.startswith("isa_")
    name = op.removeprefix("isa_")
    lo, approx = _cmp(x, -1)  # (undecided when x is approximately ±1)
    hi, _ = _cmp(x, 1)
    if lo < 0 or hi > 0:
        if not lean:
            table = env.get("@" + name)
            if table is None or approx:
                raise Undecided(f"Isabelle {name} is unspecified outside [-1, 1]")
            return _call(table, [x], "@" + name)
        if name == "arccos":
            return _wrap(0, approx) if hi > 0 else Approx(_ctx.pi)
        return Approx(_ctx.pi / 2 if hi > 0 else -_ctx.pi / 2)
    m = _mp(x)
    return Approx(getattr(_ctx, "asin" if name == "arcsin" else "acos")(m))


def _floorlike(op: str, v: Any) -> Any:
    if isinstance(v, (int,)) and not isinstance(v, bool):
        q = v
        fr = 0
    elif isinstance(v, Fraction):
        q = math.floor(v)
        fr = v - q
    else:
        m = _mp(v)
        if isinstance(m, _ctx.mpc):
            raise Undecided("floor of a complex value")
        shifted = m + (_ctx.mpf(1) / 2 if op == "round" else 0)
        near = _ctx.nint(shifted)
        if _near(shifted, near):
            raise Undecided(f"{op} of an approximate value near an integer")
        f = int(_ctx.floor(shifted))
        if op == "floor" or op == "round":
            res = f
        elif op == "ceil":
            res = f + 1
        elif op == "nat_floor":
            res = max(f, 0)
        elif op == "nat_ceil":
            res = max(f + 1, 0)
        else:
            raise Undecided(op)
        return Approx(_ctx.mpf(res))
    if op == "floor":
        return q
    if op == "ceil":
        return q if fr == 0 else q + 1
    if op == "nat_floor":
        return max(q, 0)
    if op == "nat_ceil":
        return max(q if fr == 0 else q + 1, 0)
    if op == "round":
        return math.floor(Fraction(v) + Fraction(1, 2))
    raise Undecided(op)


def _app(t: App, env: dict) -> Any:
    op = t.op
    if op in ("not", "and", "or", "implies", "iff", "ite"):
        return _logic(t, env)
    if op == "true":
        return True
    if op == "false":
        return False
    if op in ("pi", "I"):
        return Approx(+_ctx.pi) if op == "pi" else ExactComplex(0, 1)
    vals = [_ev(a, env) for a in t.args]
    sort = t.sort
    asort = t.args[0].sort if t.args else None
    if op in ("eq", "ne"):
        eq, approx = _values_equal(vals[0], vals[1])
        return _result(eq if op == "eq" else not eq, not approx)
    if op in ("lt", "le", "gt", "ge"):
        s, approx = _cmp(vals[0], vals[1])
        r = {"lt": s < 0, "le": s <= 0, "gt": s > 0, "ge": s >= 0}[op]
        return _result(r, not approx)
    if op in ("add", "mul", "neg", "sub", "div", "inv"):
        return _norm(_arith(op, sort, vals))
    if op == "cast":
        v = vals[0]
        if sort == COMPLEX and not isinstance(v, ExactComplex):
            if isinstance(v, Approx):
                return Approx(_ctx.mpc(v.value))
            return ExactComplex(Fraction(v), Fraction(0))
        return v
    if op in ("mod", "ediv", "emod", "fdiv", "fmod"):
        fn = {"mod": lambda a, b: a if b == 0 else a % b, "ediv": _ediv, "emod": _emod,
              "fdiv": _fdiv, "fmod": _fmod}[op]
        return _int_op(fn, *vals)
    if op == "pow":
        n, approx = _as_int_arg(vals[1])
        return _wrap(_norm(_pow(vals[0], n, sort)), approx)
    if op == "zpow":
        n, approx = _as_int_arg(vals[1])
        if isinstance(vals[0], Approx) and n < 0:
            if _near(vals[0].value, 0):
                raise Undecided("negative power of an approximate value near 0")
        return _wrap(_norm(_pow(vals[0], n, sort)), approx)
    if op == "rpow":
        x, y = vals
        if not _is_approx(x) and not _is_approx(y):
            return _rpow_exact(x, y)
        sx, _ = _cmp(x, 0)
        if sx == 0:
            sy, _ = _cmp(y, 0)
            return Approx(_ctx.mpf(1 if sy == 0 else 0))
        if sx > 0:
            return Approx(_ctx.power(_mp(x), _mp(y)))
        return _real_result(_ctx.power(-_mp(x), _mp(y)) * _ctx.cospi(_mp(y)))
    if op == "powr":
        x, y = vals
        sx, approx = _cmp(x, 0)
        if sx == 0:
            return 0
        if sx < 0:
            ln = _analytic("ln", [x], env)
            return _analytic("exp", [_arith("mul", REAL, [y, ln])], env)
        if not approx and not _is_approx(y):
            return _rpow_exact(x, y)
        return Approx(_ctx.power(_mp(x), _mp(y)))
    if op == "abs":
        v = vals[0]
        return Approx(abs(v.value)) if isinstance(v, Approx) else abs(v)
    if op == "cabs":
        v = vals[0]
        if isinstance(v, ExactComplex):
            sq = v.re * v.re + v.im * v.im
            r = _rational_root(sq, 2)
            return _norm(r) if r is not None else Approx(_ctx.sqrt(_mp(sq)))
        return Approx(abs(_mp(v)))
    if op in ("min", "max"):
        s, approx = _cmp(vals[0], vals[1])
        pick = vals[0] if (s <= 0) == (op == "min") else vals[1]
        return _wrap(pick, approx)
    if op == "sign":
        s, approx = _cmp(vals[0], 0)
        return _wrap(s, approx)
    if op in ("floor", "ceil", "nat_floor", "nat_ceil", "round"):
        return _floorlike(op, vals[0])
    if op == "frac":
        fl = _floorlike("floor", vals[0])
        return _norm(_arith("sub", sort, [vals[0], fl]))
    if op == "to_nat":
        return _int_op(lambda a: max(a, 0), vals[0])
    if op == "nat_abs":
        return _int_op(abs, vals[0])
    if op in ("sqrt", "signed_sqrt", "exp", "log", "ln", "sin", "cos", "tan", "arcsin",
              "arccos", "isa_arcsin", "isa_arccos", "arctan", "sinh", "cosh", "tanh"):
        return _norm(_analytic(op, vals, env))
    if op == "root":
        n, approx = _as_int_arg(vals[0])
        x = vals[1]
        if n == 0:
            return _wrap(0, approx)
        if isinstance(x, (int, Fraction)) and not isinstance(x, bool):
            r = _rational_root(abs(Fraction(x)), n)
            if r is not None:
                return _wrap(_norm(r if x >= 0 else -r), approx)
        m = _mp(x)
        mag = _ctx.root(abs(m), n)
        return Approx(mag if m >= 0 else -mag)
    if op == "logb":
        return _logquot(vals[1], vals[0], "log", env)
    if op == "isa_log":
        return _logquot(vals[1], vals[0], "ln", env)
    if op in ("re", "im", "conj"):
        v = vals[0]
        if isinstance(v, Approx):
            m = _ctx.mpc(v.value)
            return Approx(m.real if op == "re" else m.imag if op == "im" else _ctx.conj(m))
        if op == "conj":
            return ExactComplex(v.re, -v.im)
        return _norm(v.re if op == "re" else v.im)
    if op == "fact":
        def fact(n: int) -> int:
            if n > MAX_EXPONENT:
                raise Undecided(f"{n}! too large to evaluate")
            return math.factorial(n)
        return _int_op(fact, vals[0])
    if op == "choose":
        return _int_op(lambda n, k: math.comb(n, k) if 0 <= k <= n else 0, *vals)
    if op == "gcd":
        return _int_op(math.gcd, *vals)
    if op == "lcm":
        return _int_op(lambda a, b: 0 if a == 0 or b == 0 else abs(a * b) // math.gcd(a, b), *vals)
    if op == "dvd":
        return _int_op(lambda a, b: b == 0 if a == 0 else b % a == 0, *vals)
    if op == "prime":
        return _int_op(_is_prime, vals[0])
    if op == "even":
        return _int_op(lambda a: a % 2 == 0, vals[0])
    if op == "odd":
        return _int_op(lambda a: a % 2 == 1, vals[0])
    if op == "digits":
        return _int_op(_digits, *vals)
    if op in ("list_sum", "list_length"):
        lst = vals[0]
        if not isinstance(lst, tuple):
            raise Undecided(f"{op} of a non-list {lst!r}")
        if op == "list_length":
            return len(lst)
        total: Any = _zero(sort)
        for e in lst:
            total = _arith("add", sort, [total, e])
        return _norm(total)
    if op == "apply":
        return _call(vals[0], vals[1:], "function")
    return _set_op(op, t, vals, asort, env)


def _logquot(x: Any, b: Any, which: str, env: dict) -> Any:
    """log x / log b (``which`` = Mathlib ``log`` or Isabelle ``ln``), with / 0 = 0."""
    if all(isinstance(v, (int, Fraction)) and not isinstance(v, bool) for v in (x, b)):
        if which == "log" and (x in (0, 1, -1) or b in (0, 1, -1)):
            return 0
        if which == "ln" and (x == 1 or b == 1):
            return 0
        if x > 0 and b > 0:
            r = _log_ratio(Fraction(x), Fraction(b))
            if r is not None:
                return _norm(r)
        elif which == "log" and x != 0 and b != 0:
            r = _log_ratio(abs(Fraction(x)), abs(Fraction(b)))
            if r is not None:
                return _norm(r)
    lx = _analytic(which, [x], env)
    lb = _analytic(which, [b], env)
    return _norm(_arith("div", REAL, [lx, lb]))


# ---------------------------------------------------------------------------- sets


def _finite_elements(s: Any, what: str) -> frozenset:
    if isinstance(s, frozenset):
        return s
    raise Undecided(f"{what} is not a known finite set")


def _member(x: Any, s: Any) -> Any:
    if isinstance(s, frozenset):
        if _is_approx(x) or any(_is_approx(e) for e in s):
            raise Undecided("membership with approximate values")
        return x in s
    if isinstance(s, PredSet):
        return s.contains(x)
    raise Undecided(f"membership in a non-set {s!r}")


def _truthy(v: Any) -> tuple[bool, bool]:
    if isinstance(v, bool):
        return v, False
    if isinstance(v, ApproxBool):
        return v.value, True
    raise Undecided(f"not a truth value: {v!r}")


def _interval(op: str, lo: Any, hi: Any, elem: Sort) -> Any:
    inc_lo, inc_hi = op in ("Icc", "Ico"), op in ("Icc", "Ioc")
    if elem in (NAT, INT) and not _is_approx(lo) and not _is_approx(hi):
        a = lo if inc_lo else lo + 1
        b = hi if inc_hi else hi - 1
        if b - a + 1 > MAX_DOMAIN:
            raise Undecided(f"interval of {b - a + 1} elements is too large to enumerate")
        return frozenset(range(a, b + 1))

    def contains(x: Any) -> Any:
        s1, a1 = _cmp(x, lo)
        s2, a2 = _cmp(x, hi)
        ok = (s1 > 0 or (inc_lo and s1 == 0)) and (s2 < 0 or (inc_hi and s2 == 0))
        return _result(ok, not (a1 or a2))

    s, approx = _cmp(lo, hi)
    empty = s > 0 or (s == 0 and not (inc_lo and inc_hi))
    if empty and not approx:
        return frozenset()
    if s == 0 and not approx:
        return frozenset({lo})
    return PredSet(elem, contains, None if approx else True)


def _set_op(op: str, t: App, vals: list[Any], asort: Sort | None, env: dict) -> Any:
    if op == "set_of":
        if any(_is_approx(v) for v in vals):
            raise Undecided("set literal with approximate elements")
        return frozenset(vals)
    if op == "range":
        n, approx = _as_int_arg(vals[0])
        if approx:
            raise Undecided("range of an approximate bound")
        if n > MAX_DOMAIN:
            raise Undecided(f"range {n} too large to enumerate")
        return frozenset(range(n))
    if op in ("Icc", "Ico", "Ioc", "Ioo"):
        return _interval(op, vals[0], vals[1], asort)  # type: ignore[arg-type]
    if op == "divisors":
        n, approx = _as_int_arg(vals[0])
        if approx or n > 10**7:
            raise Undecided("divisors of an approximate or huge number")
        return frozenset(d for d in range(1, n + 1) if n % d == 0) if n else frozenset()
    if op == "mem":
        return _member(vals[0], vals[1])
    a = vals[0]
    b = vals[1] if len(vals) > 1 else None
    if op in ("union", "inter", "setdiff"):
        if isinstance(a, frozenset) and isinstance(b, frozenset):
            return {"union": a | b, "inter": a & b, "setdiff": a - b}[op]
        if op in ("inter", "setdiff") and isinstance(a, frozenset):
            keep = []
            for e in a:
                m, approx = _truthy(_member(e, b))
                if approx:
                    raise Undecided("membership decided only approximately")
                if m == (op == "inter"):
                    keep.append(e)
            return frozenset(keep)

        def contains(x: Any) -> Any:
            ma, aa = _truthy(_member(x, a))
            mb, ab = _truthy(_member(x, b))
            r = {"union": ma or mb, "inter": ma and mb, "setdiff": ma and not mb}[op]
            return _result(r, not (aa or ab))

        return PredSet(t.sort.elem, contains)  # type: ignore[attr-defined]
    if op == "subset":
        elems = _finite_elements(a, "left side of ⊆")
        approx = False
        for e in elems:
            m, ap = _truthy(_member(e, b))
            approx |= ap
            if not m:
                return _result(False, not ap)
        return _result(True, not approx)
    if op == "card":
        if isinstance(a, PredSet) and a.infinite:
            return 0
        return len(_finite_elements(a, "argument of card"))
    if op == "finite":
        if isinstance(a, frozenset):
            return True
        if isinstance(a, PredSet) and a.infinite is not None:
            return not a.infinite
        raise Undecided("finiteness of a set known only by membership")
    if op == "image":
        elems = _finite_elements(b, "argument of image")
        out = [_call(a, [e], "image function") for e in elems]
        if any(_is_approx(v) for v in out):
            raise Undecided("image with approximate values")
        return frozenset(out)
    if op == "filter":
        elems = _finite_elements(b, "argument of filter")
        keep = []
        for e in elems:
            m, approx = _truthy(_call(a, [e], "filter predicate"))
            if approx:
                raise Undecided("filter predicate decided only approximately")
            if m:
                keep.append(e)
        return frozenset(keep)
    raise Undecided(f"unsupported operation {op}")


# ---------------------------------------------------------------------------- binders


def _conjuncts(t: Term) -> list[Term]:
    if isinstance(t, App) and t.op == "and":
        out: list[Term] = []
        for a in t.args:
            out.extend(_conjuncts(a))
        return out
    return [t]


def _guards(kind: str, body: Term) -> list[Term]:
    """Conjuncts that restrict a bound variable: antecedents of ∀, conjuncts of ∃."""
    out: list[Term] = []
    if kind == "forall":
        while isinstance(body, App) and body.op == "implies":
            out.extend(_conjuncts(body.args[0]))
            body = body.args[1]
        if isinstance(body, App) and body.op == "or":  # ¬g ∨ P
            for a in body.args:
                if isinstance(a, App) and a.op == "not":
                    out.extend(_conjuncts(a.args[0]))
    else:
        out.extend(_conjuncts(body))
    return out


def _bound_domain(v: Var, guards: list[Term], env: dict, others: frozenset[Var]) -> Iterable[Any] | None:
    """A finite set of values outside of which the guards fail, or None."""
    if v.sort == BOOL:
        return (False, True)
    lo: Any = 0 if v.sort == NAT else None
    hi: Any = None
    finite: frozenset | None = None

    def value(e: Term) -> Any:
        if v in free_vars(e) or free_vars(e) & others:
            return None
        try:
            r = _ev(e, env)
        except Undecided:
            return None
        return None if _is_approx(r) or isinstance(r, Undetermined) else r

    for g in guards:
        if not isinstance(g, App) or len(g.args) != 2:
            continue
        a, b = g.args
        op = g.op
        if op == "mem" and a == v:
            s = value(b)
            if isinstance(s, frozenset):
                finite = s if finite is None else finite & s
            continue
        if op == "eq" and (a == v or b == v):
            w = value(b if a == v else a)
            if w is not None:
                finite = frozenset({w}) if finite is None else finite & {w}
            continue
        if op in ("gt", "ge"):
            op, a, b = {"gt": "lt", "ge": "le"}[op], b, a
        if op not in ("lt", "le") or v.sort not in (NAT, INT):
            continue
        if a == v:
            w = value(b)
            if isinstance(w, (int, Fraction)) and not isinstance(w, bool):
                c = math.ceil(w) - 1 if op == "lt" else math.floor(w)
                hi = c if hi is None else min(hi, c)
        elif b == v:
            w = value(a)
            if isinstance(w, (int, Fraction)) and not isinstance(w, bool):
                c = math.floor(w) + 1 if op == "lt" else math.ceil(w)
                lo = c if lo is None else max(lo, c)
    if finite is not None:
        return finite
    if lo is not None and hi is not None:
        if hi - lo + 1 > MAX_DOMAIN:
            return None
        return range(lo, hi + 1) if hi >= lo else ()
    return None


def _probe_values(sort: Sort) -> list[Any]:
    if sort == NAT:
        return list(range(0, 12))
    if sort == INT:
        return [0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 10, -10]
    if sort in (RAT, REAL):
        return [0, 1, -1, 2, -2, Fraction(1, 2), Fraction(-1, 2), 3, -3, Fraction(1, 3), 10, -10]
    return []


def _quant(t: Quant, env: dict) -> Any:
    kind = t.kind
    if kind == "exists1":
        v = t.vars[0]
        dom = _bound_domain(v, _conjuncts(t.body), env, frozenset())
        if dom is None:
            raise Undecided(f"∃! over an unbounded domain of {v.sort}")
        count, exact = 0, True
        for x in dom:
            _tick()
            r, ex, why = _tri(t.body, {**env, v.name: x})
            if r is None:
                raise Undecided(why)
            exact &= ex
            count += bool(r)
        return _result(count == 1, exact)
    vars_ = t.vars
    guards = _guards(kind, t.body)
    want = kind == "exists"  # the value that settles the quantifier early
    for i, v in enumerate(vars_):
        rest = vars_[:i] + vars_[i + 1 :]
        dom = _bound_domain(v, guards, env, frozenset(rest))
        if dom is None:
            continue
        body = Quant(kind, rest, t.body) if rest else t.body
        undecided, exact = "", True
        for x in dom:
            _tick()
            r, ex, why = _tri(body, {**env, v.name: x})
            if r is None:
                undecided = undecided or why
                continue
            if r == want:
                if ex:
                    return want
                exact = False
                undecided = undecided or "approximate"
            else:
                exact &= ex
        if undecided:
            if not exact and undecided == "approximate":
                return ApproxBool(want)
            raise Undecided(undecided)
        return _result(not want, exact)
    # Unbounded: an exact witness (∃) or counterexample (∀) among probe values still decides.
    if all(_probe_values(v.sort) for v in vars_) and len(vars_) <= 3:
        for combo in itertools.islice(itertools.product(*(_probe_values(v.sort) for v in vars_)), 400):
            _tick()
            inner = {**env, **{v.name: x for v, x in zip(vars_, combo, strict=True)}}
            r, ex, _ = _tri(t.body, inner)
            if r == want and ex:
                return want
    names = ", ".join(f"{v.name} : {v.sort}" for v in vars_)
    raise Undecided(f"{'∃' if want else '∀'} over an unbounded domain ({names})")


def _bigop(t: BigOp, env: dict) -> Any:
    dom = _finite_elements(_ev(t.domain, env), f"domain of {'∑' if t.kind == 'sum' else '∏'}")
    if len(dom) > MAX_DOMAIN:
        raise Undecided("big operator over too large a domain")
    acc: Any = _zero(t.sort) if t.kind == "sum" else _one(t.sort)
    op = "add" if t.kind == "sum" else "mul"
    for x in sorted(dom, key=_sort_key):
        _tick()
        acc = _arith(op, t.sort, [acc, _ev(t.body, {**env, t.var.name: x})])
    return _norm(acc)


def _sort_key(x: Any) -> Any:
    return (0, x) if isinstance(x, (int, Fraction)) and not isinstance(x, bool) else (1, repr(x))


def _setbuilder(t: SetBuilder, env: dict) -> Any:
    v = t.var
    dom = _bound_domain(v, _conjuncts(t.body), env, frozenset())
    if dom is not None:
        keep = []
        for x in dom:
            _tick()
            r, ex, why = _tri(t.body, {**env, v.name: x})
            if r is None or not ex:
                raise Undecided(why or "set-builder membership decided only approximately")
            if r:
                keep.append(x)
        return frozenset(keep)

    def contains(x: Any) -> Any:
        return _ev(t.body, {**env, v.name: x})

    return PredSet(v.sort, contains)


# --------------------------------------------------------------------------------------
# Sampling and fingerprints
# --------------------------------------------------------------------------------------

_BOUNDARY = (0, 1, -1, 2)


def _sample_value(sort: Sort, rng: random.Random, boundary: int | None) -> Any:
    if sort == BOOL:
        return rng.random() < 0.5 if boundary is None else boundary % 2 == 1
    if sort in (NAT, INT, RAT, REAL, COMPLEX):
        if boundary is not None:
            b = _BOUNDARY[boundary]
            if sort == NAT and b < 0:
                b = 3
            return ExactComplex(b, 0) if sort == COMPLEX else b
        if sort == NAT:
            return rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 10, 12, rng.randint(0, 100)])
        if sort == INT:
            return rng.choice([0, 1, -1, 2, -2, 3, -3, 5, -7, 10, rng.randint(-100, 100)])
        frac = rng.choice([
            Fraction(rng.randint(-10, 10)), Fraction(rng.randint(-20, 20), rng.randint(1, 6)),
            Fraction(1, 2), Fraction(-3, 2), Fraction(rng.randint(-1000, 1000), rng.randint(1, 50)),
        ])
        if sort == COMPLEX:
            return ExactComplex(frac, Fraction(rng.randint(-4, 4), rng.randint(1, 3)))
        return _norm(frac)
    if isinstance(sort, FunSort):
        default = _sample_value(sort.result, rng, None)
        entries = {}
        for _ in range(rng.randint(0, 4)):
            key = tuple(_sample_value(a, rng, rng.choice([None, 0, 1, 2])) for a in sort.args)
            entries[key] = _sample_value(sort.result, rng, None)
        return FunTable(entries, default)
    if isinstance(sort, SetSort):
        return frozenset(_sample_value(sort.elem, rng, None) for _ in range(rng.randint(0, 4)))
    if isinstance(sort, ListSort):
        return tuple(_sample_value(sort.elem, rng, None) for _ in range(rng.randint(0, 4)))
    if isinstance(sort, OpaqueSort):
        return Opaque(sort.name, rng.randint(0, 2))
    raise ValueError(f"cannot sample values of sort {sort}")


def numeral_probes(
    variables: Sequence[Var], terms: Iterable[Term], base: dict[str, Value] | None = None, limit: int = 12
) -> list[dict[str, Value]]:
    """Assignments putting every numeric variable at each numeral c of ``terms`` and at c ± 1:
    the boundary cases (``x < 1`` vs ``x ≤ 1``) that random points rarely hit. ``base`` gives
    the values of the other variables; a point where some variable gets no value is skipped."""
    values: list[Fraction] = []
    for t in terms:
        for s in subterms(t):
            if isinstance(s, Num):
                for d in (0, 1, -1):
                    c = Fraction(s.value) + d
                    if c not in values:
                        values.append(c)
    out: list[dict[str, Value]] = []
    for c in values[:limit]:
        env: dict[str, Value] = dict(base or {})
        for v in variables:
            if v.sort in (NAT, INT) and c.denominator == 1 and (v.sort == INT or c >= 0):
                env[v.name] = int(c)
            elif v.sort in (RAT, REAL):
                env[v.name] = c
        if all(v.name in env for v in variables):
            out.append(env)
    return out


def sample_assignments(variables: Sequence[Var], n: int = 32, seed: int = 0) -> list[dict[str, Value]]:
    """``n`` assignments of the right sorts: first the boundary points (all 0, all 1, all -1
    (3 for Nat), all 2), then random small integers, fractions, tables and finite sets."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        boundary = i if i < len(_BOUNDARY) else None
        out.append({v.name: _sample_value(v.sort, rng, boundary) for v in variables})
    return out


def fingerprint(formula: Term, variables: Sequence[Var], samples: Sequence[dict[str, Value]]) -> tuple[bool | None, ...]:
    """Exact truth values of ``formula`` on each sample (None where not exactly decided).

    Two formulas over aligned variables whose fingerprints differ at a position where both
    are exact are inequivalent, and that sample is a countermodel.
    """
    names = {v.name for v in variables}
    missing = {v.name for v in free_vars(formula)} - names
    if missing:
        raise ValueError(f"fingerprint: free variables {sorted(missing)} are not among the given variables")
    return tuple(truth(formula, s) for s in samples)


def numerals(t: Term) -> list[int | Fraction]:
    """Numerals occurring in ``t`` (useful extra probe points for samplers)."""
    return [s.value for s in subterms(t) if isinstance(s, Num)]
