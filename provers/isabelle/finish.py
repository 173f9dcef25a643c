"""Pre-term -> IR: resolve every sort, pick the one IR operation, build with the IR's checks.

A pseudo-operation (``preterm.PSEUDO_OPS``) names an HOL operator whose IR meaning depends
on the sort (``isa:div`` is ``div`` on nat and ``fdiv`` on int; ``isa:eq`` on bool is
``iff``); ``_FINISH`` has one handler for each. ``Finisher.term`` rebuilds the term bottom-up
with the IR's validating constructors only (``app``, ``cast``, ``Num`` ...), so an ill-sorted
result raises ``IRError`` (the parser reports it as a ParseError).
"""

from __future__ import annotations

from collections.abc import Callable

from provers.ir import (
    BOOL,
    COMPLEX,
    INT,
    NAT,
    NUMERIC_ORDER,
    RAT,
    REAL,
    App,
    BigOp,
    FunSort,
    IRError,
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
    and_,
    app,
    app_sorted,
    cast,
    is_numeric,
    map_term,
    show,
    substitute,
)
from provers.isabelle.preterm import (
    PreApp,
    PreBigOp,
    PreLam,
    PreNum,
    PreQuant,
    PreSetBuilder,
    PreSym,
    PreTerm,
    PreVar,
)
from provers.isabelle.types import HolSorts


class Finisher:
    """Turns pre-terms into IR terms (no pending sorts, no pseudo-operations)."""

    def __init__(self, sorts: HolSorts):
        self.sorts = sorts
        #: type variable id -> the default it got (a numeric one nothing fixed), for the notes
        self.defaulted: dict[int, Sort] = {}
        self.count = 0

    def sort(self, s: Sort) -> Sort:
        return self.sorts.finish(s, self.defaulted)

    def term(self, t: PreTerm) -> Term:
        return _TERM[type(t)](self, t)

    def var(self, t: PreVar) -> Var:
        return Var(t.name, self.sort(t.sort))

    def num(self, t: PreNum) -> Term:
        s = self.sort(t.sort)
        if isinstance(s, OpaqueSort) and isinstance(t.value, int) and t.value >= 0:
            return Uninterpreted(str(t.value), (), s)  # a numeral of a type the IR does not model
        try:
            return Num(t.value, s)
        except IRError as e:
            raise IRError(f"numeral {t.value}: {e}") from None

    def sym(self, t: PreSym) -> Term:
        args = tuple(self.term(a) for a in t.args)
        if t.symbol in ("fst", "snd") and isinstance(args[0], Uninterpreted) and args[0].symbol == "Pair":
            return args[0].args[0 if t.symbol == "fst" else 1]  # fst (a, b) = a
        if t.symbol in _UNBOUNDED and len(args) == 1 and args[0].sort in (NAT, INT, RAT, REAL):
            return self.unbounded(t.symbol, args[0])
        if t.symbol in _NUMBER_SETS and not args:
            number_set = self.number_set(t.symbol, self.sort(t.sort))
            if number_set is not None:
                return number_set
        scalar = _scalar_metric(t.symbol, args)
        if scalar is not None:
            return scalar
        return Uninterpreted(t.symbol, args, self.sort(t.sort))

    def unbounded(self, kind: str, bound: Term) -> Term:
        """``{a..}`` / ``{a<..}`` / ``{..b}`` / ``{..<b}`` as the set-builder they abbreviate."""
        self.count += 1
        x = Var(f"x{self.count}'", bound.sort)
        op, left = _UNBOUNDED[kind]
        return SetBuilder(x, app(op, *((bound, x) if left else (x, bound))))

    def number_set(self, name: str, s: Sort) -> Term | None:
        self.count += 1
        return number_set(name, s, str(self.count))

    def quant(self, t: PreQuant) -> Term:
        return Quant(t.kind, tuple(self.var(v) for v in t.vars), self.term(t.body))

    def lam(self, t: PreLam) -> Term:
        vs = [self.var(v) for v in t.vars]
        body = self.term(t.body)
        if isinstance(body, Lam):
            return Lam((*vs, *body.vars), body.body)
        return Lam(tuple(vs), body)

    def bigop(self, t: PreBigOp) -> Term:
        return BigOp(t.kind, self.var(t.var), self.term(t.domain), self.term(t.body))

    def set_builder(self, t: PreSetBuilder) -> Term:
        return SetBuilder(self.var(t.var), self.term(t.body))

    def application(self, t: PreApp) -> Term:
        return self.app(t.op, tuple(self.term(a) for a in t.args), t.sort)

    def app(self, op: str, args: tuple[Term, ...], raw_sort: Sort) -> Term:
        s = self.sort(raw_sort)
        special = _FINISH.get(op)
        if special is not None:
            return special(self, args, s)
        if op == "apply":
            return self.apply(args[0], list(args[1:]))
        if op == "cast":
            return cast(args[0], s)
        if op == "set_of":
            return app_sorted("set_of", s, *args)
        if op in ("and", "or"):  # n-ary, flattened (a ∧ b ∧ c is one node), True/False kept
            flat: list[Term] = []
            for a in args:
                flat.extend(a.args if isinstance(a, App) and a.op == op else (a,))
            return app(op, *flat)
        try:
            return app(op, *args)
        except IRError:
            if any(isinstance(a.sort, OpaqueSort) for a in args):
                return Uninterpreted(op, args, s)
            raise

    def apply(self, f: Term, xs: list[Term]) -> Term:
        if isinstance(f, Lam):
            n = min(len(f.vars), len(xs))
            body = map_term(substitute(f.body, dict(zip(f.vars[:n], xs[:n], strict=False))), _project)
            if n < len(f.vars):
                return Lam(f.vars[n:], body)
            return self.apply(body, xs[n:]) if xs[n:] else body
        fs = f.sort
        if not isinstance(fs, FunSort):
            raise IRError(f"{show(f)} is applied to arguments but is not a function")
        n = len(fs.args)
        if len(xs) < n:
            extra = []
            for s in fs.args[len(xs):]:
                self.count += 1
                extra.append(Var(f"x{self.count}'", s))
            return Lam(tuple(extra), app("apply", f, *xs, *extra))
        if len(xs) > n:
            raise IRError(f"{show(f)} is applied to too many arguments")
        return app("apply", f, *xs)


def _project(t: Term) -> Term | None:
    """fst (a, b) = a, snd (a, b) = b (after a substitution put a pair under fst/snd)."""
    if isinstance(t, Uninterpreted) and t.symbol in ("fst", "snd") and len(t.args) == 1:
        p = t.args[0]
        if isinstance(p, Uninterpreted) and p.symbol == "Pair":
            return p.args[0 if t.symbol == "fst" else 1]
    return None


def _fin_div(fz: Finisher, args: tuple[Term, ...], s: Sort) -> Term:
    sort = args[0].sort
    if sort == NAT:
        return app("div", *args)
    if sort == INT:
        return app("fdiv", *args)
    if sort in (RAT, REAL, COMPLEX):  # `div` is class divide's own notation; `/` abbreviates it
        return app("div", *args)
    return Uninterpreted("div", args, s)


def _fin_mod(fz: Finisher, args: tuple[Term, ...], s: Sort) -> Term:
    sort = args[0].sort
    if sort == NAT:
        return app("mod", *args)
    if sort == INT:
        return app("fmod", *args)
    return Uninterpreted("mod", args, s)


def _fin_divide(fz: Finisher, args: tuple[Term, ...], s: Sort) -> Term:
    try:
        return app("div", *args)
    except IRError:
        return Uninterpreted("divide", args, s)


def _fin_dvd(fz: Finisher, args: tuple[Term, ...], s: Sort) -> Term:
    a, b = args
    if a.sort in (NAT, INT):
        return app("dvd", a, b)
    if is_numeric(a.sort):  # in a field: a dvd b ⟷ a ≠ 0 ∨ b = 0
        zero = Num(0, a.sort)
        return app("or", app("ne", a, zero), app("eq", b, zero))
    return Uninterpreted("dvd", args, BOOL)


def _fin_abs(fz: Finisher, args: tuple[Term, ...], s: Sort) -> Term:
    (a,) = args
    if a.sort == COMPLEX:
        return cast(app("cabs", a), COMPLEX)
    if is_numeric(a.sort):
        return app("abs", a)
    return Uninterpreted("abs", args, s)


def _fin_eq(fz: Finisher, args: tuple[Term, ...], s: Sort) -> Term:
    if args[0].sort == BOOL:
        return app("iff", *args)
    return app("eq", *args)


def _fin_minus(fz: Finisher, args: tuple[Term, ...], s: Sort) -> Term:
    if isinstance(s, SetSort):
        return app("setdiff", *args)
    if is_numeric(s):
        return app("sub", *args)
    return Uninterpreted("minus", args, s)


def _fin_negnum(fz: Finisher, args: tuple[Term, ...], s: Sort) -> Term:
    (a,) = args
    if isinstance(a, Num):
        return Num(-a.value, a.sort)
    if isinstance(a.sort, OpaqueSort):
        return Uninterpreted("uminus", args, s)
    return app("neg", a)


def _fin_fact(fz: Finisher, args: tuple[Term, ...], s: Sort) -> Term:
    return cast(app("fact", *args), s)


def _fin_by_sort(op_by_sort: dict[Sort, str], symbol: str):
    def fin(fz: Finisher, args: tuple[Term, ...], s: Sort) -> Term:
        op = op_by_sort.get(args[0].sort)
        if op is not None:
            return app(op, *args)
        return Uninterpreted(symbol, args, s)

    return fin


def _scalar_metric(symbol: str, args: tuple[Term, ...]) -> Term | None:
    """``norm``/``dist`` on ℝ and ℂ: ``norm x = |x|`` (real_norm_def), ``norm z = cmod z``
    (complex_norm_def), ``dist a b = norm (a - b)`` (dist_real_def, dist_complex_def)."""
    if symbol == "norm" and len(args) == 1:
        x = args[0]
    elif symbol == "dist" and len(args) == 2 and args[0].sort == args[1].sort:
        x = app("sub", *args) if args[0].sort in (REAL, COMPLEX) else None
    else:
        return None
    if x is None:
        return None
    if x.sort == REAL:
        return app("abs", x)
    if x.sort == COMPLEX:
        return app("cabs", x)
    return None


#: HOL's sets of numbers (``Ints = range of_int``, …) and the type each is the range of.
_NUMBER_SETS = {"Nats": NAT, "Ints": INT, "Rats": RAT, "Reals": REAL}


def number_set(name: str, s: Sort, tag: str = "") -> Term | None:
    """``ℤ``, ``ℕ``, ``ℚ``, ``ℝ`` (``Ints``, …) at a numeric element type as the set-builder they
    are (``Ints = range of_int``: {x | ∃n :: int. x = of_int n}; the whole type when it is the
    source type itself); None where HOL has no such embedding (a type error there). ``tag``
    makes the bound names distinct."""
    source = _NUMBER_SETS[name]
    elem = s.elem if isinstance(s, SetSort) else None
    if elem not in NUMERIC_ORDER or NUMERIC_ORDER.index(elem) < NUMERIC_ORDER.index(source):
        return None
    x = Var(f"x{tag}'", elem)
    if elem == source:
        return SetBuilder(x, app("true"))
    if source == RAT:
        n = Var(f"n{tag}'", source)
        return SetBuilder(x, Quant("exists", (n,), app("eq", x, cast(n, elem))))
    # otherwise the range of the embedding as a condition on x (the evaluator and the solvers
    # then need no ∃ over the source type): ℝ in ℂ is {z | Im z = 0}, ℤ the x with ⌊x⌋ = x
    # (of Re z in ℂ), ℕ also x ≥ 0
    part = app("re", x) if elem == COMPLEX else x
    conditions = [app("eq", app("im", x), Num(0, REAL))] if elem == COMPLEX else []
    if source in (NAT, INT) and part.sort != INT:
        conditions.append(app("eq", cast(app("floor", part), part.sort), part))
    if source == NAT:
        conditions.append(app("le", Num(0, part.sort), part))
    return SetBuilder(x, and_(*conditions))


#: Isabelle's one-sided intervals: the relation and whether the bound is on its left.
_UNBOUNDED = {"atLeast": ("le", True), "greaterThan": ("lt", True), "atMost": ("le", False),
              "lessThan": ("lt", False)}


def _fin_interval(kind: str):
    def fin(fz: Finisher, args: tuple[Term, ...], s: Sort) -> Term:
        (hi,) = args
        if hi.sort == NAT:
            if kind == "lessThan":
                return app("range", hi)
            return app("Icc", Num(0, NAT), hi)
        if hi.sort in (INT, RAT, REAL):
            return fz.unbounded(kind, hi)
        return Uninterpreted(kind, args, s)

    return fin


def _fin_prime(fz: Finisher, args: tuple[Term, ...], s: Sort) -> Term:
    """Isabelle's ``prime`` is normalized: on int it also needs ``p > 0`` (the IR ``prime``
    on Int is Lean's, true of -3)."""
    (p,) = args
    if p.sort == NAT:
        return app("prime", p)
    if p.sort == INT:
        return and_(app("lt", Num(0, INT), p), app("prime", p))
    return Uninterpreted("prime", args, s)


_FINISH: dict[str, Callable[[Finisher, tuple[Term, ...], Sort], Term]] = {
    "isa:div": _fin_div, "isa:mod": _fin_mod, "isa:divide": _fin_divide, "isa:dvd": _fin_dvd,
    "isa:abs": _fin_abs, "isa:eq": _fin_eq, "isa:minus": _fin_minus, "isa:negnum": _fin_negnum, "neg": _fin_negnum,
    "isa:fact": _fin_fact,
    "isa:sgn": _fin_by_sort({INT: "sign", RAT: "sign", REAL: "sign"}, "sgn"),
    "isa:inverse": _fin_by_sort({RAT: "inv", REAL: "inv", COMPLEX: "inv"}, "inverse"),
    "isa:exp": _fin_by_sort({REAL: "exp"}, "exp"),
    "isa:sin": _fin_by_sort({REAL: "sin"}, "sin"),
    "isa:cos": _fin_by_sort({REAL: "cos"}, "cos"),
    "isa:gcd": _fin_by_sort({NAT: "gcd", INT: "gcd"}, "gcd"),
    "isa:lcm": _fin_by_sort({NAT: "lcm", INT: "lcm"}, "lcm"),
    "isa:prime": _fin_prime,
    "isa:even": _fin_by_sort({NAT: "even", INT: "even"}, "even"),
    "isa:odd": _fin_by_sort({NAT: "odd", INT: "odd"}, "odd"),
    "isa:lessThan": _fin_interval("lessThan"), "isa:atMost": _fin_interval("atMost"),
}

_TERM: dict[type, Callable] = {
    PreVar: Finisher.var, PreNum: Finisher.num, PreSym: Finisher.sym, PreQuant: Finisher.quant,
    PreLam: Finisher.lam, PreBigOp: Finisher.bigop, PreSetBuilder: Finisher.set_builder,
    PreApp: Finisher.application,
}
