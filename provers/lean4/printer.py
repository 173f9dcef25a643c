"""Print IR as Lean 4 + Mathlib source: the one IR → Lean term printer.

Two uses, one printer (``LeanPrinter``):

- **round trip** (default, ``render``/``render_term``): explicit output that the Lean frontend
  reads back to the same IR (``parse(render(parse(s))) == parse(s)``): every compound subterm
  is parenthesized, every numeral carries its sort (``(2 : ℝ)``), every coercion is an
  explicit ``(↑(t) : ℝ)``, binders carry their types, names are kept. Operations that exist
  only in Isabelle's semantics (``powr``, ``signed_sqrt``, ``ln``...) raise ``PrintError``.
- **strict** (``LeanPrinter(strict=True)``, used for proof obligations by
  ``provers.backends.lean.render``): output whose meaning in real Lean + Mathlib is exactly
  the IR's, even where the frontend would not read it back: every variable must be bound
  (``bind``) and gets a unique safe name (no capture, no keyword), finite sets are ``Finset``
  where a sum or a count needs one and ``Set`` elsewhere, ``sign``/``conj``/``gcd`` on ℤ use
  Mathlib's definitions, opaque carriers only when the caller declared them (``carriers``),
  uninterpreted symbols only when ``lean_symbols`` says they are Lean constants, and, with
  ``isabelle=True``, Isabelle-only operations as their Lean definitional expansions
  (Isabelle's unspecified ``ln x`` for ``x ≤ 0`` becomes a function variable ``isa_ln``
  constrained to ``Real.log`` on ``x > 0``, its ``arcsin``/``arccos`` function variables
  constrained on [-1, 1]: the obligation then holds for every meaning).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from fractions import Fraction

from provers.ir import (
    BOOL,
    COMPLEX,
    INT,
    INTERVALS,
    ISABELLE_ONLY,
    NAT,
    RAT,
    REAL,
    SET_OPS,
    SORT,
    TYPE,
    App,
    BigOp,
    FunSort,
    Hypothesis,
    Lam,
    ListSort,
    Num,
    OpaqueSort,
    OpTable,
    Quant,
    SetBuilder,
    SetSort,
    Sort,
    Statement,
    Term,
    Uninterpreted,
    Var,
    VarBinder,
    cast,
    display_symbol,
    is_universe,
    opaque_numeral,
)


class PrintError(ValueError):
    """An IR term with no (faithful) Lean 4 spelling: says which construct."""


_IDENT = re.compile(r"^[A-Za-z_\u03b1-\u03c9\u0391-\u03a9][\w'₀-₉!?]*(\.[A-Za-z_][\w'₀-₉!?]*)*$")
#: names safe as binders in strict output (no `!`/`?`, no dots, no guillemets)
_SAFE_NAME = re.compile(r"[A-Za-z\u03b1-\u03ba\u03bc-\u03c9][A-Za-z0-9_\u03b1-\u03ba\u03bc-\u03c9]*[₀-₉']*")  # no λ
_LEAN_CONST = re.compile(r"[A-Za-z_][A-Za-z0-9_']*(\.[A-Za-z_][A-Za-z0-9_']*)*")
_RESERVED = frozenset({
    "fun", "forall", "exists", "let", "have", "show", "from", "at", "if", "then", "else",
    "match", "with", "in", "by", "do", "sorry", "Type", "Prop", "Sort", "end", "open", "import",
    "theorem", "lemma", "example", "calc", "this", "λ", "π", "I", "e", "Π", "Σ", "fun_prop",
})
_BASE = {NAT: "ℕ", INT: "ℤ", RAT: "ℚ", REAL: "ℝ", COMPLEX: "ℂ", BOOL: "Prop"}
#: Isabelle functions that are unspecified on part of ℝ, as function variables constrained to
#: Mathlib's function where Isabelle specifies them (strict mode): an obligation rendered so
#: holds for every meaning Isabelle could give them. kind -> (variable name, axiom)
ISABELLE_PARTIAL = {
    "ln": ("isa_ln", "∀ x : ℝ, 0 < x → {f} x = Real.log x"),
    "arcsin": ("isa_arcsin", "∀ x : ℝ, -1 ≤ x → x ≤ 1 → {f} x = Real.arcsin x"),
    "arccos": ("isa_arccos", "∀ x : ℝ, -1 ≤ x → x ≤ 1 → {f} x = Real.arccos x"),
}

Hook = Callable[[Term, "LeanPrinter"], "str | None"]
#: a numeral of a sort the IR does not model (``(3 : ZMod 5)``, ``(0.1 : Float)``)
_NUMERAL = re.compile(r"\d+(?:\.\d+)?")


def render_sort(s: Sort) -> str:
    """Round-trip spelling of a sort."""
    if s in _BASE:
        return _BASE[s]
    if s == TYPE:
        return "Type*"
    if s == SORT:
        return "Sort*"
    if isinstance(s, FunSort):
        parts = [_wrap_sort(a) for a in s.args] + [_wrap_sort(s.result)]
        return " → ".join(parts)
    if isinstance(s, SetSort):
        return f"Set {_wrap_sort(s.elem)}"
    if isinstance(s, ListSort):
        return f"List {_wrap_sort(s.elem)}"
    if isinstance(s, OpaqueSort):
        if s.name.startswith("?"):
            raise PrintError(f"sort {s.name} was never determined; it has no Lean spelling")
        shown = display_symbol(s.name)
        if shown.startswith("↥") and len(shown) > 1:
            return f"↥({shown[1:]})"
        return shown
    raise PrintError(f"no Lean spelling for sort {s}")


def _wrap_sort(s: Sort) -> str:
    text = render_sort(s)
    return f"({text})" if " " in text else text


def name(n: str) -> str:
    """A Lean identifier for ``n`` (guillemets when it is not a plain identifier)."""
    if _IDENT.match(n):
        return n
    if "»" in n:
        raise PrintError(f"name {n!r} cannot be written as a Lean identifier")
    return f"«{n}»"


def _decimal(v: Fraction) -> str | None:
    """``v`` as a finite decimal literal (no sign), or None."""
    d, twos, fives = v.denominator, 0, 0
    while d % 2 == 0:
        d, twos = d // 2, twos + 1
    while d % 5 == 0:
        d, fives = d // 5, fives + 1
    if d != 1:
        return None
    k = max(twos, fives)
    text = f"{abs(v.numerator) * 10**k // v.denominator}".rjust(k + 1, "0")
    return f"{text[:-k]}.{text[-k:]}" if k else text


def _inferred(s: Sort) -> bool:
    """Sorts mentioning one the frontend invented for a binder nothing constrained (``α_x``):
    they have no Lean spelling, so the binder is printed untyped and inference finds it again."""
    if isinstance(s, OpaqueSort):
        return s.name.startswith("α_")
    if isinstance(s, (SetSort, ListSort)):
        return _inferred(s.elem)
    if isinstance(s, FunSort):
        return any(_inferred(a) for a in (*s.args, s.result))
    return False


def _arg(s: str) -> str:
    """An application argument: atomic or parenthesized."""
    return s if s.startswith("(") or _IDENT.match(s) or s.startswith("«") else f"({s})"


class LeanPrinter:
    """IR → Lean text (see the module docstring for the two modes).

    Strict-mode options: ``isabelle`` expands Isabelle-only operations; ``lean_symbols``
    prints uninterpreted symbols that are Lean names as those constants (right only when the
    statements came from Lean); ``carriers`` maps opaque sort names to their Lean text
    (``{"G": "G"}`` once ``{G : Type*} [Group G]`` is among the binders); ``finsets`` are
    set-sorted variables whose binder is a ``Finset``; ``binder_types`` gives the Lean type of
    particular variables (``a ↦ "(ℕ → ℝ≥0)"``, from the original binder); ``projections``
    are field names the statements use with dot notation (never printed as constants); ``hook(term, printer)`` may return
    text for a term (the original Lean text of a component) or None to print it from the IR.
    """

    def __init__(self, *, strict: bool = False, isabelle: bool = False, lean_symbols: bool = False,
                 carriers: Mapping[str, str] | None = None, finsets: Iterable[Var] = (),
                 binder_types: Mapping[Var, str] | None = None, hook: Hook | None = None,
                 projections: Iterable[str] = ()) -> None:
        self.strict = strict
        self.isabelle = isabelle
        self.lean_symbols = lean_symbols
        self.carriers = dict(carriers or {})
        self.finsets = set(finsets)
        self.binder_types = dict(binder_types or {})
        self.projections = frozenset(projections)
        self.hook = hook
        self.names: dict[Var, str] = {}
        self.taken: set[str] = set()
        #: names of the function variables standing for Isabelle's partial functions
        self.partials: dict[str, str] = {}

    # -- names and sorts ---------------------------------------------------------------
    def fresh(self, base: str) -> str:
        """A name not used anywhere else in this printer's output."""
        out, i = base, 1
        while out in self.taken:
            out, i = f"{base}_{i}", i + 1
        self.taken.add(out)
        return out

    def bind(self, v: Var) -> str:
        """Declare ``v`` (strict: under a fresh safe name; round trip: its own name)."""
        if not self.strict:
            self.names[v] = name(v.name)
            return self.names[v]
        from provers.backends.lean.security import FORBIDDEN_WORDS

        ok = _SAFE_NAME.fullmatch(v.name) and v.name not in _RESERVED and v.name not in FORBIDDEN_WORDS
        self.names[v] = self.fresh(v.name if ok else "v")
        return self.names[v]

    def sort(self, s: Sort) -> str:
        if not self.strict:
            return render_sort(s)
        if s in _BASE:
            return _BASE[s]
        if isinstance(s, FunSort):
            return "(" + " → ".join(self.sort(a) for a in (*s.args, s.result)) + ")"
        if isinstance(s, SetSort):
            return f"(Set {self.sort(s.elem)})"
        if isinstance(s, ListSort):
            return f"(List {self.sort(s.elem)})"
        if isinstance(s, OpaqueSort) and s.name in self.carriers:
            return self.carriers[s.name]
        raise PrintError(f"sort {s} has no Lean rendering without the original text")

    def binder(self, v: Var) -> str:
        """``(x : T)`` for a new bound variable (a ``Finset`` binder when declared one)."""
        if not self.strict and _inferred(v.sort):
            return self.bind(v)
        if self.strict and v in self.binder_types:
            return f"({self.bind(v)} : {self.binder_types[v]})"
        ty = self.sort(v.sort)
        if v in self.finsets and isinstance(v.sort, SetSort):
            ty = f"(Finset {self.sort(v.sort.elem)})"
        return f"({self.bind(v)} : {ty})"

    def scoped(self, vs: Iterable[Var], body: Callable[[], str]) -> tuple[list[str], str]:
        """Binders for ``vs`` and the body printed with them in scope."""
        saved = dict(self.names)
        bs = [self.binder(v) for v in vs]
        try:
            return bs, body()
        finally:
            self.names = saved

    # -- terms -------------------------------------------------------------------------
    def num(self, t: Num) -> str:
        ty, v = self.sort(t.sort), t.value
        if isinstance(v, Fraction):
            lit = _decimal(v)
            if self.strict or lit is None:
                if not self.strict:
                    raise PrintError(f"numeral {v} has no finite decimal expansion")
                return f"(({v.numerator} : {ty}) / ({v.denominator} : {ty}))"
        else:
            lit = str(abs(v))
        return f"(-({lit} : {ty}))" if v < 0 else f"({lit} : {ty})"

    def term(self, t: Term) -> str:  # noqa: C901 - one case per IR construct
        if self.hook is not None:
            out = self.hook(t, self)
            if out is not None:
                return out
        if isinstance(t, Var):
            if t in self.names:
                if self.strict and t in self.finsets and isinstance(t.sort, SetSort):
                    return f"(↑{self.names[t]} : {self.sort(t.sort)})"  # a Finset used as a Set
                return self.names[t]
            if self.strict:
                raise PrintError(f"free variable {t.name} without a binder")
            return name(t.name)
        if isinstance(t, Num):
            return self.num(t)
        if isinstance(t, App):
            return self.app(t)
        if isinstance(t, Uninterpreted):
            return self.uninterpreted(t)
        if isinstance(t, Quant):
            q = {"forall": "∀", "exists": "∃", "exists1": "∃!"}[t.kind]
            vs = t.vars
            if self.strict and t.kind == "forall":
                # a type variable the caller binds at theorem level with its instances
                # (`{K : Type*} [MetricSpace K]`): the same ∀, with the instances in scope
                carriers = [v for v in vs if is_universe(v.sort) and self.carriers.get(v.name) == v.name]
                for v in carriers:
                    self.names[v] = v.name
                vs = tuple(v for v in vs if v not in carriers)
                if not vs:
                    return self.term(t.body)
            bs, body = self.scoped(vs, lambda: self.term(t.body))
            return f"({q} {' '.join(bs)}, {body})"
        if isinstance(t, Lam):
            bs, body = self.scoped(t.vars, lambda: self.term(t.body))
            return f"(fun {' '.join(bs)} => {body})"
        if isinstance(t, BigOp):
            op = "∑" if t.kind == "sum" else "∏"
            dom = self.finset(t.domain) if self.strict else self.term(t.domain)
            saved = dict(self.names)
            v = self.bind(t.var)
            try:
                body = self.term(t.body)
            finally:
                self.names = saved
            return f"({op} {v} ∈ {dom}, {body})"
        if isinstance(t, SetBuilder):
            bs, body = self.scoped((t.var,), lambda: self.term(t.body))
            b = bs[0][1:-1] if bs[0].startswith("(") else bs[0]
            return f"{{{b} | {body}}}"
        raise PrintError(f"cannot print {type(t).__name__}")

    def uninterpreted(self, t: Uninterpreted) -> str:
        if not self.strict:
            shown = display_symbol(t.symbol)
            head = shown if _NUMERAL.fullmatch(shown) and not t.args else name(shown)
            text = " ".join([head, *(_arg(self.term(a)) for a in t.args)])
            if (isinstance(t.sort, OpaqueSort) and t.sort.name.startswith("?")) or _inferred(t.sort):
                return f"({text})"
            return f"({text} : {render_sort(t.sort)})"
        if opaque_numeral(t) is not None:
            return f"({t.symbol} : {self.sort(t.sort)})"  # a numeral of a carrier (OfNat)
        if not (self.lean_symbols and _LEAN_CONST.fullmatch(t.symbol)):
            raise PrintError(f"uninterpreted symbol {t.symbol!r} (needs the original Lean text)")
        if t.symbol in self.projections:
            raise PrintError(f"field notation .{t.symbol} (not a Lean constant's name; needs "
                             "the original Lean text)")
        self.sort(t.sort)  # an opaque carrier still needs its binders
        if not t.args:
            return t.symbol
        finset = t.symbol.startswith("Finset.")  # its set arguments are Finsets
        args = [self.finset(a) if finset and isinstance(a.sort, SetSort) else self.term(a)
                for a in t.args]
        return "(" + " ".join((t.symbol, *map(_arg, args))) + ")"

    def finset(self, t: Term) -> str:
        """A finite-set term as a ``Finset`` (strict: the domain of a sum, the set counted)."""
        if isinstance(t, Var) and t in self.finsets and t in self.names:
            return self.names[t]
        if isinstance(t, App) and t.op in FINSETS:
            return FINSETS[t.op](self, t)
        if isinstance(t, Uninterpreted) and t.symbol.startswith("Finset."):
            return self.term(t)  # Finset.univ, Finset.Iio n: Finsets by their Lean name
        raise PrintError("finite set given by a set variable or formula (needs the original "
                         "Lean text to know it is a Finset)")

    def app(self, t: App) -> str:
        handler = LEAN_OPS.get(t.op)
        if handler is None:
            raise PrintError(f"operation {t.op!r} has no Lean 4 spelling in this printer")
        return handler(self, t)

    def args(self, t: App) -> list[str]:
        """The arguments of ``t``, printed in order."""
        return [self.term(a) for a in t.args]

    def partial(self, kind: str) -> str:
        """The function variable standing for Isabelle's ``kind`` (``ISABELLE_PARTIAL``)."""
        if kind not in self.partials:
            self.partials[kind] = self.fresh(ISABELLE_PARTIAL[kind][0])
        return self.partials[kind]


# --------------------------------------------------------------------------------------
# The table: each operation's Lean spelling (round trip, and strict where it differs)
# --------------------------------------------------------------------------------------

Handler = Callable[[LeanPrinter, App], str]
#: The Lean 4 + Mathlib spelling of each operation (``handler(printer, term)``).
LEAN_OPS: OpTable[Handler] = OpTable("Lean printer")


def _infix(symbol: str) -> Handler:
    def handler(p: LeanPrinter, t: App) -> str:
        r = p.args(t)
        if p.strict and t.op in ("div", "mod") and t.sort == INT:
            raise PrintError(f"{t.op} on Int (the IR uses ediv/fdiv there)")
        return f"({r[0]} {symbol} {r[1]})"

    return handler


def _function(name: str, strict_name: str | None = None) -> Handler:
    """``(name arg …)``; ``strict_name`` is Mathlib's own definition for strict output."""

    def handler(p: LeanPrinter, t: App) -> str:
        fn = strict_name if p.strict and strict_name else name
        return "(" + " ".join([fn, *map(_arg, p.args(t))]) + ")"

    return handler


def _strict_or(strict: Handler, round_trip: Handler) -> Handler:
    """``strict`` for strict output, else the round-trip spelling."""
    return lambda p, t: strict(p, t) if p.strict else round_trip(p, t)


for _op, _text in {"true": "True", "false": "False", "pi": "Real.pi", "I": "Complex.I"}.items():
    LEAN_OPS.add(_op, lambda p, t, text=_text: text)
for _op, _sym in {"add": "+", "sub": "-", "mul": "*", "div": "/", "mod": "%", "pow": "^",
                  "zpow": "^", "rpow": "^", "eq": "=", "ne": "≠", "lt": "<", "le": "≤", "gt": ">",
                  "ge": "≥", "dvd": "∣", "mem": "∈", "subset": "⊆", "union": "∪", "inter": "∩",
                  "setdiff": "\\", "implies": "→", "iff": "↔"}.items():
    LEAN_OPS.add(_op, _infix(_sym))
for _op, _name in {
    "sqrt": "Real.sqrt", "exp": "Real.exp", "log": "Real.log", "logb": "Real.logb",
    "sin": "Real.sin", "cos": "Real.cos", "tan": "Real.tan", "arcsin": "Real.arcsin",
    "arccos": "Real.arccos", "arctan": "Real.arctan", "sinh": "Real.sinh", "cosh": "Real.cosh",
    "tanh": "Real.tanh", "re": "Complex.re", "im": "Complex.im", "fact": "Nat.factorial",
    "choose": "Nat.choose", "nat_ceil": "Nat.ceil", "round": "round",
    "frac": "Int.fract", "to_nat": "Int.toNat", "nat_abs": "Int.natAbs", "min": "min",
    "max": "max", "digits": "Nat.digits", "list_sum": "List.sum", "list_length": "List.length",
    "finite": "Set.Finite", "even": "Even", "odd": "Odd", "fdiv": "Int.fdiv", "fmod": "Int.fmod",
}.items():
    LEAN_OPS.add(_op, _function(_name))
LEAN_OPS.add("conj", _function("Complex.conj", "(starRingEnd ℂ)"))


@LEAN_OPS.register("nat_floor")
def _nat_floor(p: LeanPrinter, t: App) -> str:
    """``⌊√↑n⌋₊`` is how ``Nat.sqrt n`` is read: printed back as ``Nat.sqrt n``."""
    x = t.args[0]
    if isinstance(x, App) and x.op == "sqrt":
        n = x.args[0]
        if isinstance(n, App) and n.op == "cast" and n.args[0].sort == NAT:
            return f"(Nat.sqrt {_arg(p.term(n.args[0]))})"
        if isinstance(n, Num) and Fraction(n.value).denominator == 1 and n.value >= 0:
            return f"(Nat.sqrt {_arg(p.term(Num(int(n.value), NAT)))})"
    return _function("Nat.floor")(p, t)


@LEAN_OPS.register("not")
def _not(p: LeanPrinter, t: App) -> str:
    return f"(¬{p.term(t.args[0])})"


@LEAN_OPS.register("and", "or")
def _junction(p: LeanPrinter, t: App) -> str:
    return "(" + (" ∧ " if t.op == "and" else " ∨ ").join(p.args(t)) + ")"


@LEAN_OPS.register("neg")
def _neg(p: LeanPrinter, t: App) -> str:
    return f"(-{p.term(t.args[0])})"


@LEAN_OPS.register("inv")
def _inv(p: LeanPrinter, t: App) -> str:
    return f"({p.term(t.args[0])}⁻¹)"


@LEAN_OPS.register("abs")
def _abs(p: LeanPrinter, t: App) -> str:
    return f"|{_arg(p.term(t.args[0]))}|"  # never `||`: Lean lexes it as one token


@LEAN_OPS.register("cast")
def _cast(p: LeanPrinter, t: App) -> str:
    return f"(↑{p.term(t.args[0])} : {p.sort(t.sort)})"


@LEAN_OPS.register("ite")
def _ite(p: LeanPrinter, t: App) -> str:
    c, a, b = p.args(t)
    return f"(if {c} then {a} else {b})"


@LEAN_OPS.register("set_of")
def _set_literal(p: LeanPrinter, t: App) -> str:
    body = f"{{{', '.join(p.args(t))}}}" if t.args else "∅"
    ty = p.sort(t.sort) if p.strict else render_sort(t.sort)
    return f"({body} : {ty})"


@LEAN_OPS.register("apply")
def _apply(p: LeanPrinter, t: App) -> str:
    return "(" + " ".join(_arg(x) for x in p.args(t)) + ")"


def _strict_floor(p: LeanPrinter, t: App) -> str:
    a = t.args[0]
    x = cast(a, INT) if a.sort == NAT else a  # no FloorRing ℕ
    return f"({'Int.floor' if t.op == 'floor' else 'Int.ceil'} {_arg(p.term(x))})"


LEAN_OPS.add("floor", _strict_or(_strict_floor, _function("Int.floor")))
LEAN_OPS.add("ceil", _strict_or(_strict_floor, _function("Int.ceil")))


def _strict_sign(p: LeanPrinter, t: App) -> str:
    if t.sort in (REAL, INT):
        return f"({'Real' if t.sort == REAL else 'Int'}.sign {_arg(p.term(t.args[0]))})"
    raise PrintError(f"sign on {t.sort}")


LEAN_OPS.add("sign", _strict_or(_strict_sign, _function("SignType.sign")))
LEAN_OPS.add("cabs", _strict_or(lambda p, t: f"‖{p.term(t.args[0])}‖", _function("Complex.abs")))


def _strict_euclidean(p: LeanPrinter, t: App) -> str:  # Lean's `/`, `%` on ℤ, spelled out
    a, b = t.args
    return f"({'Int.ediv' if t.op == 'ediv' else 'Int.emod'} {_arg(p.term(a))} {_arg(p.term(b))})"


LEAN_OPS.add("ediv", _strict_or(_strict_euclidean, _infix("/")))
LEAN_OPS.add("emod", _strict_or(_strict_euclidean, _infix("%")))


@LEAN_OPS.register("gcd", "lcm")
def _gcd_lcm(p: LeanPrinter, t: App) -> str:
    if p.strict and t.sort == INT:
        a, b = t.args
        return f"(↑(Int.{t.op} {_arg(p.term(a))} {_arg(p.term(b))}) : ℤ)"
    r = p.args(t)
    fn = f"Nat.{t.op}" if t.args[0].sort == NAT else t.op
    return f"({fn} {_arg(r[0])} {_arg(r[1])})"


@LEAN_OPS.register("prime")
def _prime(p: LeanPrinter, t: App) -> str:
    if p.strict and t.args[0].sort == INT:
        return f"(Nat.Prime (Int.natAbs {_arg(p.term(t.args[0]))}))"
    fn = "Nat.Prime" if t.args[0].sort == NAT else "Prime"
    return f"({fn} {_arg(p.term(t.args[0]))})"


def _strict_interval(p: LeanPrinter, t: App) -> str:
    a, b = t.args
    return f"(Set.{t.op} {_arg(p.term(a))} {_arg(p.term(b))})"


for _op in INTERVALS:
    LEAN_OPS.add(_op, _strict_or(_strict_interval, _function(f"Finset.{_op}")))


def _strict_finite_as_set(p: LeanPrinter, t: App) -> str:
    assert isinstance(t.sort, SetSort)
    return f"(↑{p.finset(t)} : Set {p.sort(t.sort.elem)})"


LEAN_OPS.add("range", _strict_or(_strict_finite_as_set, _function("Finset.range")))
LEAN_OPS.add("divisors", _strict_or(_strict_finite_as_set, _function("Nat.divisors")))


def _strict_card(p: LeanPrinter, t: App) -> str:
    x = t.args[0]
    if isinstance(x, Var) and x not in p.finsets:
        return f"(Set.ncard {p.term(x)})"
    return f"(Finset.card {p.finset(x)})"


LEAN_OPS.add("card", _strict_or(_strict_card, _function("Finset.card")))
LEAN_OPS.add("image", _strict_or(lambda p, t: f"({_arg(p.term(t.args[0]))} '' {_arg(p.term(t.args[1]))})",
                                  _function("Finset.image")))


def _strict_filter(p: LeanPrinter, t: App) -> str:
    assert isinstance(t.sort, SetSort)
    x = p.fresh("x")  # never captures a free name: fresh in the whole output
    return f"{{{x} ∈ {p.term(t.args[1])} | {_arg(p.term(t.args[0]))} {x}}}"


LEAN_OPS.add("filter", _strict_or(_strict_filter, _function("Finset.filter")))


# -- Isabelle-only operations: their Lean definitional expansions (strict, on request) --


def _isabelle_only(expansion: Handler) -> Handler:
    def handler(p: LeanPrinter, t: App) -> str:
        if not (p.strict and p.isabelle):
            raise PrintError(f"operation {t.op!r} (Isabelle semantics) has no Lean 4 spelling")
        return expansion(p, t)

    return handler


def _signed_sqrt(p: LeanPrinter, t: App) -> str:
    x = p.term(t.args[0])
    return f"(if (0 : ℝ) ≤ {x} then Real.sqrt {x} else -Real.sqrt (-{x}))"


def _root(p: LeanPrinter, t: App) -> str:
    n, x = p.term(t.args[0]), p.term(t.args[1])
    e = f"((1 : ℝ) / (↑{n} : ℝ))"
    return f"(if {n} = (0 : ℕ) then (0 : ℝ) else if (0 : ℝ) ≤ {x} then {x} ^ {e} else -((-{x}) ^ {e}))"


def _isabelle_arc(p: LeanPrinter, t: App) -> str:
    return f"({p.partial(t.op.removeprefix('isa_'))} {_arg(p.term(t.args[0]))})"


def _ln(p: LeanPrinter, t: App) -> str:
    return f"({p.partial('ln')} {_arg(p.term(t.args[0]))})"


def _isabelle_log(p: LeanPrinter, t: App) -> str:
    ln = p.partial("ln")
    b, x = _arg(p.term(t.args[0])), _arg(p.term(t.args[1]))
    return f"(({ln} {x}) / ({ln} {b}))"


def _powr(p: LeanPrinter, t: App) -> str:
    ln = p.partial("ln")
    x, y = p.term(t.args[0]), p.term(t.args[1])
    return f"(if {x} = (0 : ℝ) then (0 : ℝ) else Real.exp ({y} * {ln} {_arg(x)}))"


_EXPANSIONS: dict[str, Handler] = {
    "signed_sqrt": _signed_sqrt, "root": _root, "isa_arcsin": _isabelle_arc, "isa_arccos": _isabelle_arc,
    "ln": _ln, "isa_log": _isabelle_log, "powr": _powr,
}
for _op in ISABELLE_ONLY:
    LEAN_OPS.add(_op, _isabelle_only(_EXPANSIONS[_op]))


# -- finite sets as Finsets (strict output: the domain of a sum, the set counted) -------

_SET_SYMBOL = {"union": "∪", "inter": "∩", "setdiff": "\\"}


def _finset_literal(p: LeanPrinter, t: App) -> str:
    assert isinstance(t.sort, SetSort)
    elems = ", ".join(p.term(x) for x in t.args)
    ty = f"Finset {p.sort(t.sort.elem)}"
    return f"({{{elems}}} : {ty})" if t.args else f"(∅ : {ty})"


#: Finite sets spelled as ``Finset``s, for each set former that gives one.
FINSETS: dict[str, Handler] = {
    "range": lambda p, t: f"(Finset.range {_arg(p.term(t.args[0]))})",
    **dict.fromkeys(INTERVALS, lambda p, t: f"(Finset.{t.op} {_arg(p.term(t.args[0]))} {_arg(p.term(t.args[1]))})"),
    "divisors": lambda p, t: f"(Nat.divisors {_arg(p.term(t.args[0]))})",
    "set_of": _finset_literal,
    "filter": lambda p, t: f"(Finset.filter {_arg(p.term(t.args[0]))} {p.finset(t.args[1])})",
    "image": lambda p, t: f"(Finset.image {_arg(p.term(t.args[0]))} {p.finset(t.args[1])})",
    **dict.fromkeys(SET_OPS, lambda p, t: f"({p.finset(t.args[0])} {_SET_SYMBOL[t.op]} {p.finset(t.args[1])})"),
}


def render_term(t: Term) -> str:
    """Lean 4 source for an IR term, explicit enough to elaborate back to the same term."""
    return LeanPrinter().term(t)


def _binder(p: LeanPrinter, b: VarBinder | Hypothesis) -> str:
    if isinstance(b, VarBinder):
        if _inferred(b.var.sort):
            return "(" + name(b.var.name) + ")" if b.style == "explicit" else "{" + name(b.var.name) + "}"
        open_, close = {"explicit": "()", "implicit": "{}", "strict_implicit": "⦃⦄", "instance": "[]"}[b.style]
        return f"{open_}{name(b.var.name)} : {render_sort(b.var.sort)}{close}"
    f = p.term(b.formula)
    if b.style == "instance":
        return f"[{name(b.name)} : {f}]" if b.name else f"[{f}]"
    open_, close = {"explicit": "()", "implicit": "{}", "strict_implicit": "⦃⦄"}.get(b.style, "()")
    return f"{open_}{name(b.name) if b.name else '_'} : {f}{close}"


def render(statement: Statement, proof: str = "by sorry") -> str:
    """A complete Lean 4 theorem (header, binders, hypotheses, ``:= by sorry``)."""
    p = LeanPrinter()
    head = f"theorem {name(statement.name)}" if statement.name else "example"
    binders = "".join(f"\n    {_binder(p, b)}" for b in statement.binders)
    text = f"{head}{binders} :\n    {p.term(statement.conclusion)} := {proof}"
    if statement.header:
        text = statement.header.rstrip() + "\n\n" + text
    return text
