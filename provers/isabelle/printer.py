"""IR ``Statement`` -> Isabelle/HOL source (``theorem … fixes … assumes … shows``).

The output re-parses to the same IR (``parse_isabelle(render(st)) == st`` for statements
the Isabelle frontend produces): every theorem variable is in ``fixes`` with its type, bound
variables carry their types, and a numeral gets an annotation ``(3::real)`` exactly when no
typed neighbour (a variable, a typed function) would fix its type on re-reading.
Operations with no Isabelle meaning (Lean's ``ediv``, Mathlib's ``sqrt`` …) raise ValueError.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from provers.ir import (
    BOOL,
    COMPLEX,
    INT,
    INTERVALS,
    NAT,
    RAT,
    REAL,
    RELATION_OPS,
    SET_OPS,
    App,
    BigOp,
    Hypothesis,
    Lam,
    Num,
    OpTable,
    Quant,
    SetBuilder,
    Sort,
    Statement,
    Term,
    Uninterpreted,
    Var,
    VarBinder,
    is_numeric,
)
from provers.isabelle.symbols import ESCAPES
from provers.isabelle.types import show_sort

# op -> (symbol, priority, assoc) for infix printing (Isabelle's priorities)
_INFIX = {
    "implies": ("⟶", 25, "right"), "iff": ("⟷", 25, "right"), "or": ("∨", 30, "right"),
    "and": ("∧", 35, "right"), "eq": ("=", 50, "none"), "ne": ("≠", 50, "none"),
    "lt": ("<", 50, "none"), "le": ("≤", 50, "none"), "gt": (">", 50, "none"), "ge": ("≥", 50, "none"),
    "mem": ("∈", 50, "none"), "subset": ("⊆", 50, "none"), "dvd": ("dvd", 50, "none"),
    "add": ("+", 65, "left"), "sub": ("-", 65, "left"), "union": ("∪", 65, "left"),
    "setdiff": ("-", 65, "left"), "choose": ("choose", 65, "left"),
    "mul": ("*", 70, "left"), "fdiv": ("div", 70, "left"), "fmod": ("mod", 70, "left"),
    "mod": ("mod", 70, "left"), "inter": ("∩", 70, "left"), "pow": ("^", 80, "right"),
    "powr": ("powr", 80, "right"), "image": ("`", 90, "right"),
}
_UNINT_INFIX = {
    "div": ("div", 70, "left"), "mod": ("mod", 70, "left"), "divide": ("/", 70, "left"),
    "minus": ("-", 65, "left"), "dvd": ("dvd", 50, "none"), "powr": ("powr", 80, "right"),
    "nth": ("!", 100, "left"), "Cons": ("#", 65, "right"), "append": ("@", 65, "right"),
    "Times": ("×", 80, "right"), "inner": ("∙", 70, "left"), "add": ("+", 65, "left"),
    "mul": ("*", 70, "left"), "sub": ("-", 65, "left"), "scaleR": ("*⇩R", 75, "right"),
    # order atoms over a type the IR does not model stay uninterpreted under the IR op's name
    "lt": ("<", 50, "none"), "le": ("≤", 50, "none"), "gt": (">", 50, "none"), "ge": ("≥", 50, "none"),
}
_FUNCS = {
    "signed_sqrt": "sqrt", "ln": "ln", "exp": "exp", "isa_log": "log", "root": "root",
    "sin": "sin", "cos": "cos", "tan": "tan", "isa_arcsin": "arcsin", "isa_arccos": "arccos",
    "arctan": "arctan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "cabs": "cmod",
    "sign": "sgn", "inv": "inverse", "min": "min", "max": "max", "round": "round", "frac": "frac",
    "to_nat": "nat", "re": "Re", "im": "Im", "conj": "cnj", "gcd": "gcd", "lcm": "lcm",
    "prime": "prime", "even": "even", "odd": "odd", "card": "card", "finite": "finite",
    "list_sum": "sum_list", "list_length": "length",
}
_SAME = frozenset({"add", "sub", "mul", "div", "fdiv", "fmod", "mod", "neg", "abs", "sign", "inv",
                   "min", "max", "gcd", "lcm"})
_REL = frozenset({*RELATION_OPS, "dvd"})
_FORCED = frozenset({"signed_sqrt", "ln", "exp", "sin", "cos", "tan", "isa_arcsin", "isa_arccos", "arctan",
                     "sinh", "cosh", "tanh", "isa_log", "root", "powr", "fact", "choose", "apply",
                     "cast", "to_nat", "re", "im", "conj", "cabs", "list_sum", "list_length", "range"})
_SET_LINKED = frozenset({"set_of", *INTERVALS, *SET_OPS})
_BINDER_PREC = 10
_ATOM = 1001  # variables, numerals, bracketed forms: usable as function arguments


#: how ``render`` spells Isabelle's symbols: ``ascii`` (``\\<forall>``, what Isabelle reads in a
#: theory file) or ``unicode`` (the glyphs its editor shows, for display only: Isabelle rejects
#: raw ``∀``, ``provers.isabelle.checker``)
SYMBOL_STYLES = ("ascii", "unicode")


def render(statement: Statement, symbols: str = "ascii") -> str:
    """Isabelle source for ``statement`` (re-parses to the same IR); ``symbols``: one of
    ``SYMBOL_STYLES``."""
    return _spelled(_render(statement), symbols)


def _spelled(text: str, symbols: str) -> str:
    if symbols not in SYMBOL_STYLES:
        raise ValueError(f"symbols must be one of {SYMBOL_STYLES}, got {symbols!r}")
    return "".join(ESCAPES.get(c, c) for c in text) if symbols == "ascii" else text


def _render(statement: Statement) -> str:
    defined = {v.name for v, _ in statement.defines}
    def_eqs = {(v, rhs) for v, rhs in statement.defines}
    lines = ["theorem" + (f" {statement.name}:" if statement.name else "")]
    fixes = [b.var for b in statement.binders if isinstance(b, VarBinder)]
    while fixes and fixes[-1].name in defined:  # trailing defined variables: `defines` fixes them
        fixes.pop()
    if fixes:
        lines.append("  fixes " + " and ".join(f"{v.name} :: {_type(v.sort)}" for v in fixes))
    defs, assms = [], []
    for b in statement.binders:
        if not isinstance(b, Hypothesis):
            continue
        f = b.formula
        if isinstance(f, App) and f.op == "eq" and (f.args[0], f.args[1]) in def_eqs:
            v, rhs = f.args
            name = f"{b.name}: " if b.name else ""
            defs.append(f'{name}"{v.name} ≡ {_term(rhs, 0, _anchored(rhs))}"')  # type: ignore[attr-defined]
        else:
            name = f"{b.name}: " if b.name else ""
            assms.append(f'{name}"{_prop(f)}"')
    if defs:
        lines.append("  defines " + "\n    and ".join(defs))
    if assms:
        lines.append("  assumes " + "\n    and ".join(assms))
    lines.append(f'  shows "{_prop(statement.conclusion)}"')
    return "\n".join(lines)


def render_term(t: Term, symbols: str = "ascii") -> str:
    """Isabelle syntax for one IR term (numerals annotated where their type is not fixed)."""
    return _spelled(_term(t, 0, _anchored(t)), symbols)


def _type(s: Sort) -> str:
    text = show_sort(s)
    return text if text.replace("_", "").replace("'", "").isalnum() else f'"{text}"'


def _prop(t: Term) -> str:
    return _term(t, 0, True)


def _decimal(q: Fraction) -> str | None:
    d, k2, k5 = q.denominator, 0, 0
    while d % 2 == 0:
        d //= 2
        k2 += 1
    while d % 5 == 0:
        d //= 5
        k5 += 1
    if d != 1:
        return None
    k = max(k2, k5)
    n = abs(q.numerator) * (10**k // q.denominator)
    digits = str(n).rjust(k + 1, "0")
    return ("-" if q < 0 else "") + digits[:-k] + "." + digits[-k:]


def _anchored(t: Term) -> bool:
    """Would re-reading ``t`` fix its numeric type without annotations?"""
    if isinstance(t, Num):
        return False
    if isinstance(t, App):
        if t.op in _SAME or t.op in ("pow", "ite"):
            kids = t.args[1:] if t.op == "ite" else (t.args[:1] if t.op == "pow" else t.args)
            return any(_anchored(a) for a in kids)
        if t.op in _SET_LINKED:
            return any(_anchored(a) for a in t.args)
        return True
    if isinstance(t, BigOp):
        return _anchored(t.body)
    return True


def _paren(text: str, prec: int, need: int) -> str:
    return f"({text})" if prec < need else text


def _binder_vars(vs: tuple[Var, ...]) -> str:
    return " ".join(f"({v.name}::{show_sort(v.sort)})" for v in vs)


def _term(t: Term, need: int, anchored: bool) -> str:
    text, prec = _show(t, anchored)
    return _paren(text, prec, need)


def _show(t: Term, anchored: bool) -> tuple[str, int]:
    if isinstance(t, Var):
        return t.name, _ATOM
    if isinstance(t, Num):
        return _num(t, anchored)
    if isinstance(t, Quant):
        q = {"forall": "∀", "exists": "∃", "exists1": "∃!"}[t.kind]
        return f"{q}{_binder_vars(t.vars)}. {_prop(t.body)}", _BINDER_PREC
    if isinstance(t, Lam):
        return f"λ{_binder_vars(t.vars)}. {_term(t.body, 0, _anchored(t.body))}", _BINDER_PREC
    if isinstance(t, BigOp):
        s = "∑" if t.kind == "sum" else "∏"
        dom = _term(t.domain, 51, _anchored(t.domain))
        return f"({s}{t.var.name}∈{dom}. {_term(t.body, 0, _anchored(t.body))})", _ATOM
    if isinstance(t, SetBuilder):
        return f"{{{t.var.name}::{show_sort(t.var.sort)}. {_prop(t.body)}}}", _ATOM
    if isinstance(t, Uninterpreted):
        return _unint(t)
    if isinstance(t, App):
        return _app(t, anchored)
    raise ValueError(f"cannot render {type(t).__name__} in Isabelle syntax")


def _num(t: Num, anchored: bool) -> tuple[str, int]:
    v = t.value
    if isinstance(v, Fraction):
        dec = _decimal(v)
        text = dec if dec is not None else f"{v.numerator} / {v.denominator}"
        if dec is None:
            return f"({text} :: {show_sort(t.sort)})", _ATOM
    else:
        text = str(v)
    if not anchored:
        return f"({text}::{show_sort(t.sort)})", _ATOM
    if text.startswith("-"):
        return "- " + text[1:], 80
    return text, _ATOM


def _infix(sym: str, prec: int, assoc: str, args: tuple[Term, ...], flags: list[bool]) -> tuple[str, int]:
    lneed = prec if assoc == "left" else prec + 1
    rneed = prec if assoc == "right" else prec + 1
    if len(args) > 2:  # n-ary ∧ / ∨ (right-assoc)
        parts = [_term(a, prec + 1, f) for a, f in zip(args[:-1], flags[:-1], strict=True)]
        parts.append(_term(args[-1], prec, flags[-1]))
        return f" {sym} ".join(parts), prec
    a, b = args
    return f"{_term(a, lneed, flags[0])} {sym} {_term(b, rneed, flags[1])}", prec


def _isabelle_prime(args: tuple[Term, ...]) -> tuple[Term, ...]:
    """Undo the frontend's reading of Isabelle ``prime p`` on int as ``0 < p ∧ prime p``:
    the adjacent pair prints as ``prime p`` again."""
    out: list[Term] = []
    i = 0
    while i < len(args):
        a = args[i]
        nxt = args[i + 1] if i + 1 < len(args) else None
        if (isinstance(a, App) and a.op == "lt" and a.args[0] == Num(0, INT)
                and isinstance(nxt, App) and nxt.op == "prime" and nxt.args == (a.args[1],)):
            out.append(Uninterpreted("prime", nxt.args, BOOL))
            i += 2
            continue
        out.append(a)
        i += 1
    return tuple(out)


def _app(t: App, anchored: bool) -> tuple[str, int]:
    handler = ISABELLE_OPS.get(t.op)
    if handler is None:
        raise ValueError(f"operation {t.op!r} has no Isabelle/HOL rendering "
                         f"({ISABELLE_OPS.why_unsupported(t.op)})")
    return handler(t, anchored)


def _flags(op: str, args: tuple[Term, ...], anchored: bool) -> list[bool]:
    """For each argument: is its numeric type fixed on re-reading without an annotation?"""
    if op in _SAME or op in _SET_LINKED:
        return [anchored or any(_anchored(b) for j, b in enumerate(args) if j != i) for i in range(len(args))]
    if op in _REL:
        return [any(_anchored(b) for j, b in enumerate(args) if j != i) for i in range(len(args))]
    if op in _FORCED:
        return [True] * len(args)
    return [_anchored(a) for a in args]


# --------------------------------------------------------------------------------------
# The table: each operation's Isabelle/HOL spelling, ``handler(term, anchored) -> (text, priority)``
# --------------------------------------------------------------------------------------

Handler = Callable[[App, bool], tuple[str, int]]
_NO_SPELLING = "no Isabelle spelling that the frontend reads back to this operation"
ISABELLE_OPS: OpTable[Handler] = OpTable("Isabelle printer", unsupported={
    "ediv": "Lean's Euclidean Int.ediv; Isabelle's div on int is floor division (fdiv)",
    "emod": "Lean's Euclidean Int.emod; Isabelle's mod on int has the divisor's sign (fmod)",
    "sqrt": "Mathlib's Real.sqrt (0 below 0); Isabelle's sqrt is odd (signed_sqrt)",
    "log": "Mathlib's Real.log (log |x|, log 0 = 0); Isabelle's ln is unspecified for x ≤ 0",
    "logb": "Mathlib's Real.logb; Isabelle's log b x is isa_log",
    "rpow": "Mathlib's Real.rpow; Isabelle's powr differs at 0 and below",
    "arcsin": "Mathlib's clamped Real.arcsin; Isabelle's is unspecified outside [-1, 1]",
    "arccos": "Mathlib's clamped Real.arccos; Isabelle's is unspecified outside [-1, 1]",
    **dict.fromkeys(("zpow", "nat_floor", "nat_ceil", "nat_abs", "digits", "filter",
                     "divisors"), _NO_SPELLING),
})


def _infix_op(symbol: str, prec: int, assoc: str) -> Handler:
    return lambda t, anchored: _infix(symbol, prec, assoc, t.args, _flags(t.op, t.args, anchored))


def _function(name: str) -> Handler:
    def handler(t: App, anchored: bool) -> tuple[str, int]:
        flags = _flags(t.op, t.args, anchored)
        return " ".join([name, *(_term(a, 1001, f) for a, f in zip(t.args, flags, strict=True))]), 1000

    return handler


for _op, (_sym, _prec, _assoc) in _INFIX.items():
    if _op not in ("and", "pow"):  # their own handlers below
        ISABELLE_OPS.add(_op, _infix_op(_sym, _prec, _assoc))
for _op, _name in _FUNCS.items():
    if _op != "prime":
        ISABELLE_OPS.add(_op, _function(_name))
for _op, _text in {"true": "True", "false": "False", "pi": "pi", "I": "ii"}.items():
    ISABELLE_OPS.add(_op, lambda t, anchored, text=_text: (text, _ATOM))


@ISABELLE_OPS.register("and")
def _and(t: App, anchored: bool) -> tuple[str, int]:
    args = _isabelle_prime(t.args)
    if len(args) == 1:
        return _show(args[0], anchored)
    return _infix(*_INFIX["and"], args, _flags("and", args, anchored))


@ISABELLE_OPS.register("prime")
def _prime(t: App, anchored: bool) -> tuple[str, int]:
    if t.args[0].sort == INT:  # the IR's (Lean's) meaning: |p| is prime
        return f"prime ¦{_term(t.args[0], 0, True)}¦", _ATOM
    return _function("prime")(t, anchored)


@ISABELLE_OPS.register("div")
def _div(t: App, anchored: bool) -> tuple[str, int]:
    sym = "div" if t.args[0].sort in (NAT, INT) else "/"
    return _infix(sym, 70, "left", t.args, _flags("div", t.args, anchored))


@ISABELLE_OPS.register("pow")
def _pow(t: App, anchored: bool) -> tuple[str, int]:
    base = _term(t.args[0], 81, anchored or _anchored(t.args[0]))
    return f"{base} ^ {_term(t.args[1], 80, True)}", 80


@ISABELLE_OPS.register("not")
def _not(t: App, anchored: bool) -> tuple[str, int]:
    return f"¬ {_term(t.args[0], 40, True)}", 40


@ISABELLE_OPS.register("neg")
def _neg(t: App, anchored: bool) -> tuple[str, int]:
    return f"- {_term(t.args[0], 81, _flags('neg', t.args, anchored)[0])}", 80


@ISABELLE_OPS.register("ite")
def _ite(t: App, anchored: bool) -> tuple[str, int]:
    c, a, b = t.args
    return (f"if {_prop(c)} then {_term(a, 0, anchored or _anchored(b))} "
            f"else {_term(b, 0, anchored or _anchored(a))}"), _BINDER_PREC


@ISABELLE_OPS.register("abs")
def _abs(t: App, anchored: bool) -> tuple[str, int]:
    return f"¦{_term(t.args[0], 0, _flags('abs', t.args, anchored)[0])}¦", 1000  # ¦…¦ cannot be a bare argument


@ISABELLE_OPS.register("floor", "ceil")
def _floor_ceil(t: App, anchored: bool) -> tuple[str, int]:
    left, right = ("⌊", "⌋") if t.op == "floor" else ("⌈", "⌉")
    return f"{left}{_term(t.args[0], 0, _flags(t.op, t.args, anchored)[0])}{right}", _ATOM


@ISABELLE_OPS.register("cast")
def _cast_op(t: App, anchored: bool) -> tuple[str, int]:
    return _cast(t.args[0], t.sort)


@ISABELLE_OPS.register("fact")
def _fact(t: App, anchored: bool) -> tuple[str, int]:
    return f"(fact {_term(t.args[0], 1001, True)} :: nat)", _ATOM


@ISABELLE_OPS.register("apply")
def _apply(t: App, anchored: bool) -> tuple[str, int]:
    return " ".join(_term(a, 1001, True) for a in t.args), 1000


@ISABELLE_OPS.register("set_of")
def _set_literal(t: App, anchored: bool) -> tuple[str, int]:
    if not t.args:
        return f"({{}} :: {show_sort(t.sort)})", _ATOM
    flags = _flags("set_of", t.args, anchored)
    return "{" + ", ".join(_term(a, 0, f) for a, f in zip(t.args, flags, strict=True)) + "}", _ATOM


_INTERVAL_SYMBOL = {"Icc": "..", "Ico": "..<", "Ioc": "<..", "Ioo": "<..<"}


@ISABELLE_OPS.register(*INTERVALS)
def _interval(t: App, anchored: bool) -> tuple[str, int]:
    flags = _flags(t.op, t.args, anchored)
    lo, hi = _term(t.args[0], 51, flags[0]), _term(t.args[1], 51, flags[1])
    return "{" + f"{lo}{_INTERVAL_SYMBOL[t.op]}{hi}" + "}", _ATOM


@ISABELLE_OPS.register("range")
def _range(t: App, anchored: bool) -> tuple[str, int]:
    return "{..<" + _term(t.args[0], 51, True) + "}", _ATOM


def _cast(a: Term, target: Sort) -> tuple[str, int]:
    src = a.sort
    inner = _term(a, 1001, True)
    named = {(NAT, REAL): "real", (INT, REAL): "real_of_int", (NAT, INT): "int", (REAL, COMPLEX): "complex_of_real"}
    if (src, target) in named:
        return f"{named[(src, target)]} {inner}", 1000
    fn = {NAT: "of_nat", INT: "of_int", REAL: "of_real", RAT: "of_rat"}.get(src)  # type: ignore[call-overload]
    if fn is None or not is_numeric(target):
        raise ValueError(f"no Isabelle coercion from {src} to {target}")
    return f"({fn} {inner} :: {show_sort(target)})", _ATOM


def _unint(t: Uninterpreted) -> tuple[str, int]:
    sym, args = t.symbol, t.args
    if sym == "Pair":
        return f"({_term(args[0], 0, True)}, {_term(args[1], 0, True)})", _ATOM
    if sym == "list":
        if not args:
            return f"([] :: {show_sort(t.sort)})", _ATOM
        return "[" + ", ".join(_term(a, 0, True) for a in args) + "]", _ATOM
    if sym in ("upt", "upto"):
        return f"[{_term(args[0], 0, True)}{'..<' if sym == 'upt' else '..'}{_term(args[1], 0, True)}]", _ATOM
    if sym in ("Ints", "Nats", "Rats", "Reals") and not args:
        glyph = {"Ints": "ℤ", "Nats": "ℕ", "Rats": "ℚ", "Reals": "ℝ"}[sym]
        return f"({glyph} :: {show_sort(t.sort)})", _ATOM
    if sym in ("GREATEST", "LEAST", "THE", "SOME", "INF", "SUP", "suminf") and len(args) == 1 and isinstance(args[0], Lam):
        lam = args[0]
        head = "∑" if sym == "suminf" else sym + " "
        return f"({head}{_binder_vars(lam.vars)}. {_term(lam.body, 0, _anchored(lam.body))})", _ATOM
    if sym in ("atLeast", "greaterThan"):
        return "{" + _term(args[0], 51, True) + ("..}" if sym == "atLeast" else "<..}"), _ATOM
    if sym in ("lessThan", "atMost"):
        return "{" + ("..<" if sym == "lessThan" else "..") + _term(args[0], 51, True) + "}", _ATOM
    if sym == "UNIV" and not args:
        return f"(UNIV :: {show_sort(t.sort)})", _ATOM
    if not args and sym.replace(".", "", 1).isdigit():  # a numeral of a type the IR does not model
        return f"({sym} :: {show_sort(t.sort)})", _ATOM
    if sym in _UNINT_INFIX and len(args) == 2:
        return _infix(*_UNINT_INFIX[sym], args, [True, True])
    if sym == "uminus" and len(args) == 1:
        return f"- {_term(args[0], 81, True)}", 80
    if sym == "abs" and len(args) == 1:
        return f"¦{_term(args[0], 0, True)}¦", 1000
    if not args:
        return sym, _ATOM
    return " ".join([sym, *(_term(a, 1001, True) for a in args)]), 1000


__all__ = ["render", "render_term"]
