"""The SMT core: the fragment of the IR that both emitters translate mechanically.

Why: the lowering (``provers.backends.smt.lower``) writes each operation's Lean/Isabelle
meaning as core terms once; z3 and cvc5 then only need one SMT counterpart per core
operation (``provers.backends.smt.emit``). The core is IR (no second term language),
restricted to:

* sorts Bool, Int, Real, opaque sorts, and ``FunSort`` / ``SetSort`` of those
  (``is_core_sort``; ``core_sort`` maps ℕ to Int and ℚ to Real);
* the operations ``CORE_OPS``, each with its IR meaning at core sorts: ``div`` on Real
  (x / 0 = 0), ``ediv``/``emod`` on Int (Euclidean, x / 0 = 0, x % 0 = x), ``cast`` Int → Real,
  ``floor`` Real → Int, ``apply`` of a function variable, ``mem`` in a set variable;
* ``Quant`` (forall/exists) over variables of core sorts, ``Uninterpreted`` symbols of core
  sorts (the user's own and the lowering's fresh ``%`` symbols), numerals of Int and Real.

Every core application is built by ``core_app``, which checks all of this and the operation's
sort rule; the leaves get core sorts from ``core_sort``. ``check_core`` checks a whole term.
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from provers.errors import IRError
from provers.ir import (
    BOOL,
    INT,
    NAT,
    RAT,
    REAL,
    App,
    BigOp,
    FunSort,
    Lam,
    Num,
    OpaqueSort,
    Quant,
    SetBuilder,
    SetSort,
    Sort,
    Term,
    Uninterpreted,
    Var,
    app_sorted,
    provably_inhabited,
    subterms,
)

#: The operations of the core (each has one SMT-LIB counterpart in the emitters).
CORE_OPS = frozenset({
    "true", "false", "not", "and", "or", "implies", "iff", "ite", "eq", "lt", "le",
    "add", "sub", "mul", "neg", "div", "ediv", "emod", "cast", "floor", "apply", "mem",
})

#: Core operations restricted to fewer sorts than the IR allows: op -> (argument sorts, result).
_NARROWED = {
    "div": ((REAL, REAL), REAL),
    "ediv": ((INT, INT), INT),
    "emod": ((INT, INT), INT),
    "cast": ((INT,), REAL),
    "floor": ((REAL,), INT),
}


class Unsupported(Exception):
    """A construct the SMT encoding cannot represent soundly."""

    def __init__(self, what: str):
        super().__init__(what)
        self.what = what


@cache
def is_core_sort(s: Sort) -> bool:
    if s in (BOOL, INT, REAL) or isinstance(s, OpaqueSort):
        return True
    if isinstance(s, FunSort):
        return all(is_core_sort(a) for a in (*s.args, s.result))
    if isinstance(s, SetSort):
        return is_core_sort(s.elem)
    return False


def core_sort(s: Sort) -> Sort:
    """Nat → Int, Rat → Real; functions/sets of those; Complex and lists are unsupported."""
    if s == NAT:
        return INT
    if s == RAT:
        return REAL
    if s in (BOOL, INT, REAL) or isinstance(s, OpaqueSort):
        return s
    if isinstance(s, FunSort):
        return FunSort(tuple(core_sort(a) for a in s.args), core_sort(s.result))
    if isinstance(s, SetSort):
        return SetSort(core_sort(s.elem))
    raise Unsupported(f"sort {s}")


def representable(s: Sort) -> bool:
    """Whether ``s`` has a core sort."""
    try:
        core_sort(s)
        return True
    except Unsupported:
        return False


def core_app(op: str, sort: Sort, *args: Term) -> App:
    """The core application ``op(args) : sort``, checked (see the module docstring)."""
    if op not in CORE_OPS:
        raise IRError(f"{op} is not a core operation")
    for s in (sort, *(a.sort for a in args)):
        if not (s is BOOL or s is INT or s is REAL or is_core_sort(s)):  # the common sorts first
            raise IRError(f"{op}: sort {s} is not a core sort")
    narrowed = _NARROWED.get(op)
    if narrowed is not None and (tuple(a.sort for a in args), sort) != narrowed:
        raise IRError(f"core {op} is {narrowed}, not on ({', '.join(str(a.sort) for a in args)})")
    if op == "apply" and not isinstance(args[0], Var):
        raise IRError("core apply needs a function variable")
    if op == "mem" and not isinstance(args[1], Var):
        raise IRError("core membership needs a set variable")
    return app_sorted(op, sort, *args)


def check_core(t: Term) -> None:
    """Raise IRError unless every node of ``t`` is in the core fragment."""
    for s in subterms(t):
        if isinstance(s, App):
            core_app(s.op, s.sort, *s.args)
        elif isinstance(s, (Lam, BigOp, SetBuilder)):
            raise IRError(f"{type(s).__name__} in a core term")
        elif isinstance(s, Quant) and s.kind not in ("forall", "exists"):
            raise IRError(f"quantifier {s.kind} in a core term")
        elif isinstance(s, (Var, Uninterpreted)) and not is_core_sort(s.sort):
            raise IRError(f"{s} of non-core sort {s.sort}")
        elif isinstance(s, Num) and s.sort not in (INT, REAL):
            raise IRError(f"numeral {s.value} of non-core sort {s.sort}")


# ---------------------------------------------------------------------------- builders
# (simplifying where a constant operand decides the result)

T = core_app("true", BOOL)
F = core_app("false", BOOL)


def cint(v: int) -> Num:
    return Num(v, INT)


def creal(v: int | Fraction) -> Num:
    return Num(v, REAL)


def c_num(v: int | Fraction, sort: Sort) -> Num:
    return Num(v, sort)


def c_and(*xs: Term) -> Term:
    xs2 = [x for x in xs if x != T]
    if any(x == F for x in xs2):
        return F
    return T if not xs2 else xs2[0] if len(xs2) == 1 else core_app("and", BOOL, *xs2)


def c_or(*xs: Term) -> Term:
    xs2 = [x for x in xs if x != F]
    if any(x == T for x in xs2):
        return T
    return F if not xs2 else xs2[0] if len(xs2) == 1 else core_app("or", BOOL, *xs2)


def c_not(x: Term) -> Term:
    return F if x == T else T if x == F else core_app("not", BOOL, x)


def c_imp(a: Term, b: Term) -> Term:
    return b if a == T else T if a == F or b == T else core_app("implies", BOOL, a, b)


def c_iff(a: Term, b: Term) -> Term:
    return core_app("iff", BOOL, a, b)


def c_eq(a: Term, b: Term) -> Term:
    return c_iff(a, b) if a.sort == BOOL else core_app("eq", BOOL, a, b)


def c_lt(a: Term, b: Term) -> Term:
    return core_app("lt", BOOL, a, b)


def c_le(a: Term, b: Term) -> Term:
    return core_app("le", BOOL, a, b)


def c_ite(c: Term, a: Term, b: Term) -> Term:
    if c == T:
        return a
    if c == F:
        return b
    return core_app("ite", a.sort, c, a, b)


def c_add(a: Term, b: Term) -> Term:
    return core_app("add", a.sort, a, b)


def c_sub(a: Term, b: Term) -> Term:
    return core_app("sub", a.sort, a, b)


def c_mul(a: Term, b: Term) -> Term:
    return core_app("mul", a.sort, a, b)


def c_neg(a: Term) -> Term:
    return Num(-a.value, a.sort) if isinstance(a, Num) else core_app("neg", a.sort, a)


def c_div(a: Term, b: Term) -> Term:
    """Real division, x / 0 = 0."""
    return core_app("div", REAL, a, b)


def c_ediv(a: Term, b: Term) -> Term:
    return core_app("ediv", INT, a, b)


def c_emod(a: Term, b: Term) -> Term:
    return core_app("emod", INT, a, b)


def c_to_real(a: Term) -> Term:
    return core_app("cast", REAL, a)


def c_floor(a: Term) -> Term:
    return core_app("floor", INT, a)


def c_dvd(a: Term, b: Term) -> Term:
    """``a ∣ b`` on Int: ``b = 0`` when ``a = 0``, else ``b emod a = 0``."""
    return c_ite(c_eq(a, cint(0)), c_eq(b, cint(0)), c_eq(c_emod(b, a), cint(0)))


def c_abs(a: Term) -> Term:
    return c_ite(c_le(c_num(0, a.sort), a), a, c_neg(a))


def c_ufun(name: str, sort: Sort, *args: Term) -> Uninterpreted:
    return Uninterpreted(name, tuple(args), sort)


def c_power(b: Term, n: int, sort: Sort) -> Term:
    """b^n as a balanced product (shared subterms; n = 0 gives 1)."""
    if n == 0:
        return c_num(1, sort)
    if isinstance(b, Num):
        return c_num(Fraction(b.value) ** n, sort)
    if n == 1:
        return b
    half = c_power(b, n // 2, sort)
    sq = c_mul(half, half)
    return c_mul(sq, b) if n % 2 else sq


def fresh_name(base: str, *ts: Term) -> str:
    """A variable name ``base%i`` for a binder the lowering introduces, free in ``ts`` (the
    ``%`` keeps it apart from every name a statement can use)."""
    taken = set()
    for t in ts:
        taken |= {s.name for s in subterms(t) if isinstance(s, Var)}
    i = 0
    while f"{base}%{i}" in taken:
        i += 1
    return f"{base}%{i}"


def inhabited(s: Sort) -> Term:
    """A core formula true exactly when sort ``s`` has an element: ``true`` for the sorts that
    provably do (``ir.known_elements``), the Boolean constant ``%nonempty[S]`` for an opaque
    sort ``S`` that may be empty, and for a function sort "the codomain is inhabited or the
    domain is empty"."""
    if provably_inhabited(s):
        return T
    if isinstance(s, FunSort):
        return c_or(inhabited(s.result), c_not(c_and(*(inhabited(a) for a in s.args))))
    if isinstance(s, OpaqueSort):
        return c_ufun(f"%nonempty[{s.name}]", BOOL)
    return T
