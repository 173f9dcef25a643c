"""Exact closed forms of real constants: Σ q·√m·L with q rational, m squarefree, and L one
of 1, π, log p (p prime) — enough to decide EQUALITY of values like √2·√3 and √6,
(√2)² and 2, log 8 and 3·log 2, sin(π/6) and 1/2 at a point.

Why a canonical form decides equality: the square roots of distinct squarefree integers are
linearly independent over ℚ, and by Baker's theorem 1, π (= -i·log(-1)) and the logarithms
of distinct primes are linearly independent over the algebraic numbers. So a form is zero iff
all its coefficients are, and two values are equal iff their forms are identical. Intervals
(``interval``) can only ever separate values; this module is the only place where an
equality of irrational values is certified.

A form is built bottom-up from the term: each operation with a handler in ``FORMS`` combines
its arguments' forms (following the evaluator's semantics: Mathlib ``Real.sqrt`` is 0 below 0,
``Real.log`` is log |x|, x / 0 = 0 …) or gives up (None): a product of two transcendental
parts, the inverse of a transcendental value, a root of an irrational value. Subterms without
a handler take the exact (rational) value the evaluator gives them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from provers.ir import COMPLEX, RAT, REAL, App, Num, OpTable, Term, app
from provers.semantics.approx import is_rational

#: Forms with more terms than this are not built (products multiply term counts).
MAX_TERMS = 64
#: Integers are factored by trial division up to this bound (a cofactor below its square is prime).
TRIAL_BOUND = 10**4
#: Largest integer exponent of a form.
MAX_FORM_EXPONENT = 64
#: Largest size (bits of numerator and denominator) of a form's coefficient, and of a power's
#: estimate: past it a form is not computed (None), as a term past ``MAX_TERMS`` is not. Why:
#: a sampled point of ``b = a⁹ + 4a + 6 ∧ b = a²/2 + a + 6`` gave b a coefficient of
#: thousands of digits, and ``b⁹`` in the next comparison ran for minutes, past every deadline
#: (the deadline is looked at between evaluation steps, not inside one product).
MAX_COEFFICIENT_BITS = 20_000

#: The transcendental part L of a basis element √m·L: 1, π, or log p for a prime p (> 1).
ONE, PI = 0, -1

Key = tuple[int, Any]  # (m, L): L is ONE, PI, a prime p (log p) or an atom (op, u) (``ATOMS``)


class Form:
    """Σ coefficient·√m·L over keys (m, L); zero coefficients are never stored."""

    __slots__ = ("terms",)

    def __init__(self, terms: Mapping[Key, Fraction]) -> None:
        self.terms = {k: Fraction(c) for k, c in terms.items() if c != 0}

    @staticmethod
    def rational(q: int | Fraction) -> Form:
        return Form({(1, ONE): Fraction(q)})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Form) and self.terms == other.terms

    def __hash__(self) -> int:
        return hash(frozenset(self.terms.items()))

    def __repr__(self) -> str:
        return f"Form({self.terms})"

    def as_rational(self) -> Fraction | None:
        if not self.terms:
            return Fraction(0)
        if set(self.terms) == {(1, ONE)}:
            return self.terms[(1, ONE)]
        return None

    def is_algebraic(self) -> bool:
        return all(L == ONE for _, L in self.terms)

    def __add__(self, other: Form) -> Form:
        out = dict(self.terms)
        for k, c in other.terms.items():
            out[k] = out.get(k, Fraction(0)) + c
        return Form(out)

    def __neg__(self) -> Form:
        return Form({k: -c for k, c in self.terms.items()})

    def __sub__(self, other: Form) -> Form:
        return self + -other

    def scaled(self, q: Fraction) -> Form:
        return Form({k: c * q for k, c in self.terms.items()})

    def __mul__(self, other: Form) -> Form | None:
        if len(self.terms) * len(other.terms) > MAX_TERMS * 4:
            return None
        out: dict[Key, Fraction] = {}
        for (m1, l1), c1 in self.terms.items():
            for (m2, l2), c2 in other.terms.items():
                if l1 != ONE and l2 != ONE:
                    return None  # π², π·log 2, … are outside the forms
                g = math.gcd(m1, m2)
                key = ((m1 // g) * (m2 // g), l1 if l1 != ONE else l2)
                out[key] = out.get(key, Fraction(0)) + c1 * c2 * g
        return _bounded(Form(out))

    def inverse(self) -> Form | None:
        """1 / self for an algebraic nonzero form, by multiplying by conjugates
        (a = u + v√p ↦ u - v√p removes √p) until the denominator is rational."""
        if not self.terms or not self.is_algebraic():
            return None
        numerator, denominator = Form.rational(1), self
        while (d := denominator.as_rational()) is None:
            p = _some_prime_factor(max(m for m, _ in denominator.terms if m > 1))
            if p is None:
                return None
            conjugate = Form({(m, L): (-c if m % p == 0 else c) for (m, L), c in denominator.terms.items()})
            numerator, denominator = numerator * conjugate, denominator * conjugate
            if numerator is None or denominator is None:
                return None
        return numerator.scaled(1 / d)

    def power(self, n: int) -> Form | None:
        if abs(n) > MAX_FORM_EXPONENT or _bits(self) * abs(n) > MAX_COEFFICIENT_BITS:
            return None
        base = self if n >= 0 else self.inverse()
        out: Form | None = Form.rational(1)
        for _ in range(abs(n)):
            if base is None or out is None:
                return None
            out = out * base
        return out


def sign(f: Form) -> int | None:
    """The exact sign of ``f``'s value, or None (an atom, or 0 not excluded at 200 bits).
    A form with a term is nonzero (its basis is linearly independent), so a rigorous
    enclosure (mpmath's interval arithmetic) that excludes 0 decides."""
    if not f.terms:
        return 0
    if len(f.terms) == 1:
        (m, L), c = next(iter(f.terms.items()))
        if L in (ONE, PI):
            return 1 if c > 0 else -1
    import mpmath

    iv = mpmath.iv
    with mpmath.workprec(200):
        total = iv.mpf(0)
        for (m, L), c in f.terms.items():
            if L == ONE:
                part = iv.mpf(1)
            elif L == PI:
                part = iv.pi
            elif isinstance(L, int) and L > 1:
                part = iv.log(L)
            else:
                return None
            total += iv.mpf([c.numerator, c.numerator]) / c.denominator * iv.sqrt(m) * part
        if total.a > 0:
            return 1
        if total.b < 0:
            return -1
    return None


def algebraic_of_surds(f: Form) -> Any:
    """An algebraic form Σ q·√m as an exact value (``algebraic.AlgebraicReal``, or a rational),
    or None (beyond the field evaluator's degree bound)."""
    if not f.is_algebraic():
        return None
    import sympy

    from provers.semantics.algebraic import algebraic_number

    expr = sum((sympy.Rational(c.numerator, c.denominator) * sympy.sqrt(m) for (m, _), c in f.terms.items()),
               sympy.Integer(0))
    return algebraic_number(expr)


def _bounded(f: Form) -> Form | None:
    return f if len(f.terms) <= MAX_TERMS and _bits(f) <= MAX_COEFFICIENT_BITS else None


def _bits(f: Form) -> int:
    """The size of ``f``'s largest coefficient (bits of its numerator and denominator)."""
    return max((c.numerator.bit_length() + c.denominator.bit_length() for c in f.terms.values()), default=0)


def _some_prime_factor(n: int) -> int | None:
    for d in range(2, min(math.isqrt(n), TRIAL_BOUND) + 1):
        if n % d == 0:
            return d
    return n if n < TRIAL_BOUND**2 else None


def factor(n: int) -> dict[int, int] | None:
    """Prime factorization of n ≥ 1 by trial division, or None when it is not certain."""
    out: dict[int, int] = {}
    d = 2
    while d * d <= n and d <= TRIAL_BOUND:
        while n % d == 0:
            out[d] = out.get(d, 0) + 1
            n //= d
        d += 1
    if n > 1:
        if n >= TRIAL_BOUND**2:
            return None  # the cofactor might still be composite
        out[n] = out.get(n, 0) + 1
    return out


def sqrt_of_rational(q: Fraction) -> Form | None:
    """√q as s·√m (m squarefree) for q ≥ 0."""
    if q == 0:
        return Form({})
    n = q.numerator * q.denominator  # √(a/b) = √(ab) / b
    fs = factor(n)
    if fs is None:
        return None
    square, free = 1, 1
    for p, e in fs.items():
        square *= p ** (e // 2)
        free *= p ** (e % 2)
    return Form({(free, ONE): Fraction(square, q.denominator)})


def log_of_rational(q: Fraction) -> Form | None:
    """log q for q > 0 as Σ e·log p."""
    num, den = factor(q.numerator), factor(q.denominator)
    if num is None or den is None:
        return None
    out: dict[Key, Fraction] = {}
    for fs, s in ((num, 1), (den, -1)):
        for p, e in fs.items():
            out[(1, p)] = out.get((1, p), Fraction(0)) + s * e
    return Form(out)


# --------------------------------------------------------------------------------------
# Forms of terms
# --------------------------------------------------------------------------------------

Handler = Callable[[App, list[Form], Callable[[Term], Any]], "Form | None"]

#: The closed form of each operation (``handler(term, argument forms, exact)``).
FORMS: OpTable[Handler] = OpTable("closed forms (surds)")
_forms = FORMS.register


def _within(lo: int | None, hi: int | None, open_below: bool = False) -> Callable[[Fraction | Form], bool]:
    """Whether a rational or a closed form u lies in [lo, hi] ((lo, hi] with ``open_below``),
    by certified signs; an undecided sign is "no"."""
    def holds(u: Fraction | Form) -> bool:
        f = u if isinstance(u, Form) else Form.rational(u)
        if lo is not None:
            s = sign(f - Form.rational(lo))
            if s is None or s < 0 or (open_below and s == 0):
                return False
        if hi is not None:
            s = sign(Form.rational(hi) - f)
            if s is None or s < 0:
                return False
        return True

    return holds


#: f (g u) = u where the condition holds, for a rational u or a closed form (both languages'
#: definitions): tan (arctan u) = u; sin (arcsin u) = u and cos (arccos u) = u on [-1, 1]
#: (Mathlib's and Isabelle's inverses agree there); exp (log u) = |u| (Mathlib) and
#: exp (ln u) = u for u > 0; ln (exp u) = log (exp u) = u. How a witness B = arctan (3/2) of
#: ``tan B = 3/2`` is certified (``values.Witness``), and V = arccos (-1/√10) of
#: ``cos V = -1/√10``.
INVERSE_PAIRS: dict[tuple[str, str], Callable[[Fraction | Form], bool]] = {
    ("tan", "arctan"): lambda u: True,
    ("sin", "arcsin"): _within(-1, 1),
    ("sin", "isa_arcsin"): _within(-1, 1),
    ("cos", "arccos"): _within(-1, 1),
    ("cos", "isa_arccos"): _within(-1, 1),
    ("exp", "log"): _within(0, None, open_below=True),
    ("exp", "ln"): _within(0, None, open_below=True),
    ("ln", "exp"): lambda u: True,
    ("log", "exp"): lambda u: True,
}


def _inner_op(t: App) -> str:
    a = t.args[0] if len(t.args) == 1 else None
    return a.op if isinstance(a, App) and len(a.args) == 1 else ""


def form_term(f: Form, sort: Any) -> Term | None:
    """An algebraic form Σ q·√m as a term of ``sort`` (ℝ), None for a transcendental one: the
    compact closed term of a value (a recurrence's elements in ℚ(√3) stay a + b·√3)."""
    if not f.is_algebraic():
        return None
    parts: list[Term] = []
    for (m, _), q in sorted(f.terms.items()):
        c = Num(q, sort)
        parts.append(c if m == 1 else app("mul", c, app("sqrt", Num(m, sort))))
    if not parts:
        return Num(0, sort)
    out = parts[0]
    for p in parts[1:]:
        out = app("add", out, p)
    return out


def form_of(t: Term, exact: Callable[[Term], Any]) -> Form | None:
    """The closed form of the real-valued term ``t`` (``exact`` evaluates subterms without a
    handler), or None."""
    if isinstance(t, Num):
        return Form.rational(t.value) if is_rational(t.value) else None
    if isinstance(t, App) and t.op in _COMPLEX_PARTS and len(t.args) == 1 and t.args[0].sort == COMPLEX:
        parts = complex_form(t.args[0], exact)
        return None if parts is None else _COMPLEX_PARTS[t.op](*parts)
    holds_at = INVERSE_PAIRS.get((t.op, _inner_op(t))) if isinstance(t, App) and t.sort in (RAT, REAL) else None
    if holds_at is not None:
        u = form_of(t.args[0].args[0], exact)
        if u is not None and holds_at(u):
            return u
    if isinstance(t, App) and t.sort in (RAT, REAL) and t.op in FORMS.handlers:
        args = []
        for a in t.args:
            f = form_of(a, exact)
            if f is None:
                return None
            args.append(f)
        return FORMS.handlers[t.op](t, args, exact)
    v = exact(t)
    return Form.rational(v) if is_rational(v) else None


def complex_form(z: Term, exact: Callable[[Term], Any]) -> tuple[Form, Form] | None:
    """The closed forms of the real and imaginary parts of the complex term ``z``, built from
    numerals, 𝑖, real terms cast to ℂ and + - · (``‖3 - ↑c·𝑖‖`` at c = √40 is √(9 + 40) = 7
    exactly; the evaluator's complex values are rational or approximate), or None."""
    if isinstance(z, Num):
        return (Form.rational(z.value), Form({})) if is_rational(z.value) else None
    if not isinstance(z, App):
        return _exact_parts(z, exact)
    if z.op == "I":
        return Form({}), Form.rational(1)
    if z.op == "cast":  # a real (or integer) value cast to ℂ
        f = form_of(z.args[0], exact)
        return None if f is None else (f, Form({}))
    parts = [complex_form(a, exact) for a in z.args] if z.op in ("add", "sub", "neg", "mul") else [None]
    if any(p is None for p in parts):
        return _exact_parts(z, exact)
    if z.op == "neg":
        return -parts[0][0], -parts[0][1]  # type: ignore[index]
    (a, b), (c, d) = parts  # type: ignore[misc]
    if z.op == "add":
        return _pair(a + c, b + d)
    if z.op == "sub":
        return _pair(a - c, b - d)
    ac, bd, ad, bc = a * c, b * d, a * d, b * c
    if ac is None or bd is None or ad is None or bc is None:
        return None
    return _pair(ac - bd, ad + bc)


def _exact_parts(z: Term, exact: Callable[[Term], Any]) -> tuple[Form, Form] | None:
    """The parts of the evaluator's value of ``z`` when it is an exact complex number."""
    v = exact(z)
    re, im = getattr(v, "re", None), getattr(v, "im", None)
    return (Form.rational(re), Form.rational(im)) if is_rational(re) and is_rational(im) else None


def _pair(re: Form | None, im: Form | None) -> tuple[Form, Form] | None:
    re, im = (None if re is None else _bounded(re)), (None if im is None else _bounded(im))
    return None if re is None or im is None else (re, im)


def _modulus(re: Form, im: Form) -> Form | None:
    """‖re + im·𝑖‖ = √(re² + im²), when re² + im² is rational."""
    r2, i2 = re * re, im * im
    q = None if r2 is None or i2 is None else (r2 + i2).as_rational()
    return None if q is None else sqrt_of_rational(q)


#: The real-valued functions of a complex argument with closed forms from its parts.
_COMPLEX_PARTS: dict[str, Callable[[Form, Form], Form | None]] = {
    "re": lambda re, im: re,
    "im": lambda re, im: im,
    "cabs": _modulus,
}


@_forms("add")
def _add(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    return _bounded(fs[0] + fs[1])


@_forms("sub")
def _sub(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    return _bounded(fs[0] - fs[1])


@_forms("neg")
def _neg(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    return -fs[0]


@_forms("cast")
def _cast(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    return fs[0]


@_forms("mul")
def _mul(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    return fs[0] * fs[1]


def quotient(a: Form, b: Form) -> Form | None:
    """a / b with x / 0 = 0; a transcendental divisor only when a is a rational multiple of it
    (with an atom, only a divisor of one term: atoms may sum to 0, arcsin u + arccos u = π/2)."""
    if not b.terms:
        return Form({})
    inv = b.inverse()
    if inv is not None:
        return a * inv
    if len(b.terms) > 1 and any(isinstance(L, tuple) for _, L in b.terms):
        return None
    k = next(iter(b.terms))
    ratio = a.terms.get(k, Fraction(0)) / b.terms[k]
    return Form.rational(ratio) if b.scaled(ratio) == a else None


@_forms("div")
def _div(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    return quotient(fs[0], fs[1])


@_forms("inv")
def _inv(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    return quotient(Form.rational(1), fs[0])


@_forms("pow", "zpow")
def _pow(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    n = fs[1].as_rational()
    if n is None or n.denominator != 1:
        return None
    if n < 0 and not fs[0].terms:
        return Form({})  # 0⁻ⁿ = 0
    return fs[0].power(int(n))


@_forms("rpow")
def _rpow(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    """x ^ (p/2) for a rational x > 0 (an integer exponent is the monoid power)."""
    x, y = fs[0].as_rational(), fs[1].as_rational()
    if x is None or y is None:
        return None
    if y.denominator == 1:
        return _pow(t, fs, exact)  # Real.rpow at an integer exponent is the power (0⁻¹ = 0)
    if x <= 0 or y.denominator != 2:
        return None
    root = sqrt_of_rational(x)
    return None if root is None else root.power(y.numerator)


@_forms("powr")
def _powr(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    """Isabelle x powr y: 0 at x = 0; at an integer y (half-integer for a rational x) 1 at
    y = 0 and the power for x > 0 (exp (y ln x) = xʸ); for x < 0 ln x is unspecified (None)."""
    s = sign(fs[0])
    if s == 0:
        return Form({})  # 0 powr y = 0, whatever y is
    y = fs[1].as_rational()
    if s is None or y is None:
        return None
    if y == 0:
        return Form.rational(1)  # exp (0 · ln x), whatever ln x is
    if s < 0:
        return None
    if y.denominator == 1:
        return fs[0].power(int(y))
    x = fs[0].as_rational()
    if x is None or y.denominator != 2:
        return None
    root = sqrt_of_rational(x)
    return None if root is None else root.power(y.numerator)


@_forms("sqrt")
def _sqrt(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    q = fs[0].as_rational()
    if q is None:
        return None
    return Form({}) if q <= 0 else sqrt_of_rational(q)  # Real.sqrt x = 0 for x < 0


@_forms("signed_sqrt")
def _signed_sqrt(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    q = fs[0].as_rational()
    if q is None:
        return None
    root = sqrt_of_rational(abs(q))
    return None if root is None else (root if q >= 0 else -root)


def _log_of(f: Form) -> Form | None:
    """log |x| for x = c·√m (nonzero): log |c| + ½ log m."""
    if len(f.terms) != 1:
        return None
    (m, L), c = next(iter(f.terms.items()))
    if L != ONE:
        return None
    a, b = log_of_rational(abs(c)), log_of_rational(Fraction(m))
    return None if a is None or b is None else a + b.scaled(Fraction(1, 2))


@_forms("log")
def _log(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    return Form({}) if not fs[0].terms else _log_of(fs[0])  # Real.log: log |x|, log 0 = 0


def _isabelle_ln(f: Form) -> Form | None:
    q = f.as_rational()
    return _log_of(f) if q is not None and q > 0 else None  # only x > 0 is specified


@_forms("ln")
def _ln(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    return _isabelle_ln(fs[0])


@_forms("logb")
def _logb(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    b, x = fs
    lb = Form({}) if not b.terms else _log_of(b)
    lx = Form({}) if not x.terms else _log_of(x)
    return None if lb is None or lx is None else quotient(lx, lb)


@_forms("isa_log")
def _isa_log(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    lb, lx = _isabelle_ln(fs[0]), _isabelle_ln(fs[1])
    return None if lb is None or lx is None else quotient(lx, lb)


@_forms("exp")
def _exp(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    """exp (Σ e_p log p) = Π p^e_p when every e_p is an integer or half an integer."""
    out = Form.rational(1)
    for (m, L), e in fs[0].terms.items():
        if m != 1 or not isinstance(L, int) or L in (ONE, PI) or e.denominator > 2 or abs(e) > MAX_FORM_EXPONENT:
            return None
        factor_ = sqrt_of_rational(Fraction(L)) if e.denominator == 2 else Form.rational(1)
        factor_ = None if factor_ is None else factor_.scaled(Fraction(L) ** math.floor(e))
        out = None if factor_ is None else out * factor_
        if out is None:
            return None
    return out


def _sin_table() -> dict[int, Form]:
    """sin(kπ/12) for k = 0 … 23."""
    r2, r3, r6 = (Form({(m, ONE): Fraction(1)}) for m in (2, 3, 6))
    quarter = Fraction(1, 4)
    first = [Form({}), (r6 - r2).scaled(quarter), Form.rational(Fraction(1, 2)), r2.scaled(Fraction(1, 2)),
             r3.scaled(Fraction(1, 2)), (r6 + r2).scaled(quarter), Form.rational(1)]
    table = {k: first[k] for k in range(7)}
    for k in range(7, 13):
        table[k] = table[12 - k]  # sin(π - x) = sin x
    for k in range(13, 24):
        table[k] = -table[k - 12]  # sin(π + x) = -sin x
    return table


_SIN = _sin_table()


def _sin_multiple_of_pi(f: Form, shift: Fraction) -> Form | None:
    """sin(qπ + shift·π) when the argument is a rational multiple q of π with 12q integral."""
    if set(f.terms) - {(1, PI)}:
        return None
    q = f.terms.get((1, PI), Fraction(0)) + shift
    k = q * 12
    return None if k.denominator != 1 else _SIN[int(k) % 24]


#: Inverse trigonometric functions at a rational u where their value is not 0, each a basis
#: element of its own (L = (op, u)): a witness V = arccos (2/3) put into 24·V and into V·24
#: gives equal forms, and cos of it gives 2/3 back (``INVERSE_PAIRS``). Sound because equal
#: forms are equal expressions; an atom is never multiplied by π or another atom, and divided
#: by only as a divisor of one term (known nonzero). Isabelle's inverses only on [-1, 1]
#: (unspecified outside); Mathlib's arccos is 0 from 1 on.
#: Per function: (where it is 0 — arcsin 0, arccos 1, Mathlib's arccos from 1 on; where it is
#: an atom, a nonzero value known by its definition).
ATOMS: dict[str, tuple[Callable[[Fraction], bool], Callable[[Fraction], bool]]] = {
    "arctan": (lambda u: u == 0, lambda u: u != 0),
    "arcsin": (lambda u: u == 0, lambda u: u != 0),
    "arccos": (lambda u: u >= 1, lambda u: u < 1),
    "isa_arcsin": (lambda u: u == 0, lambda u: u != 0 and -1 <= u <= 1),
    "isa_arccos": (lambda u: u == 1, lambda u: -1 <= u < 1),
}


def _principal_values() -> dict[str, dict[Form, Fraction]]:
    """The inverse functions' values at the sines, cosines and tangents of the multiples of
    π/12 in their principal ranges, as multiples of π: arcsin (1/2) = π/6, arccos (-1) = π,
    arctan (√3) = π/3 (Isabelle's and Mathlib's inverses agree there)."""
    arcsin = {_SIN[k % 24]: Fraction(k, 12) for k in range(-6, 7)}
    arccos = {_SIN[(k + 6) % 24]: Fraction(k, 12) for k in range(0, 13)}
    arctan: dict[Form, Fraction] = {}
    for k in range(-5, 6):
        tan = quotient(_SIN[k % 24], _SIN[(k + 6) % 24])
        if tan is not None:
            arctan[tan] = Fraction(k, 12)
    return {"arcsin": arcsin, "isa_arcsin": arcsin, "arccos": arccos, "isa_arccos": arccos, "arctan": arctan}


_PRINCIPAL = _principal_values()


@_forms(*ATOMS)
def _atom(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    q = _PRINCIPAL[t.op].get(fs[0])
    if q is not None:  # arcsin (1/2) = π/6: a multiple of π, not an atom of its own
        return Form({(1, PI): q})
    u = fs[0].as_rational()
    if u is None:
        return None
    zero, atom = ATOMS[t.op]
    if zero(u):
        return Form({})
    return Form({(1, (t.op, u)): Fraction(1)}) if atom(u) else None


def _inverse_at(op: str, f: Form) -> Form | None:
    """f (g u) = u where the form is the atom g u alone (``INVERSE_PAIRS``)."""
    if len(f.terms) != 1:
        return None
    (m, L), c = next(iter(f.terms.items()))
    if m != 1 or c != 1 or not isinstance(L, tuple):
        return None
    holds_at = INVERSE_PAIRS.get((op, L[0]))
    return Form.rational(L[1]) if holds_at is not None and holds_at(L[1]) else None


@_forms("sin")
def _sin(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    f = _sin_multiple_of_pi(fs[0], Fraction(0))
    return f if f is not None else _inverse_at("sin", fs[0])


@_forms("cos")
def _cos(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    f = _sin_multiple_of_pi(fs[0], Fraction(1, 2))  # cos x = sin(x + π/2)
    return f if f is not None else _inverse_at("cos", fs[0])


@_forms("tan")
def _tan(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    s, c = _sin_multiple_of_pi(fs[0], Fraction(0)), _sin_multiple_of_pi(fs[0], Fraction(1, 2))
    if s is None or c is None:
        return _inverse_at("tan", fs[0])
    return quotient(s, c)  # sin / cos, / 0 = 0


@_forms("pi")
def _pi(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    return Form({(1, PI): Fraction(1)})


@_forms("abs")
def _abs(t: App, fs: list[Form], exact: Callable[[Term], Any]) -> Form | None:
    """|c·√m·L| for one term with L = 1 or π (both positive); a rational's absolute value."""
    if len(fs[0].terms) > 1:
        return None
    if not fs[0].terms:
        return fs[0]
    (m, L), c = next(iter(fs[0].terms.items()))
    return Form({(m, L): abs(c)}) if L in (ONE, PI) else None
