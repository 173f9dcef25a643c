"""Print IR back to Lean 4 + Mathlib source.

The output is deliberately explicit so that the Lean frontend reads it back to the same IR
(``parse(render(parse(s))) == parse(s)``): every compound subterm is parenthesized, every
numeral carries its sort (``(2 : ℝ)``), every coercion is an explicit ``(↑(t) : ℝ)`` and
binders carry their types. Operations that exist only in Isabelle's semantics (``powr``,
``signed_sqrt``, ``ln``...) have no Lean spelling and raise ``PrintError``.
"""

from __future__ import annotations

import re
from fractions import Fraction

from provers.ir import (
    BOOL,
    COMPLEX,
    INT,
    NAT,
    RAT,
    REAL,
    TYPE,
    App,
    BigOp,
    FunSort,
    Hypothesis,
    Lam,
    ListSort,
    Num,
    OpaqueSort,
    Quant,
    SetBuilder,
    SetSort,
    Sort,
    Statement,
    Term,
    Uninterpreted,
    Var,
    VarBinder,
)


class PrintError(ValueError):
    """An IR term with no Lean 4 spelling (an Isabelle-only operation, an unnamed sort)."""


_IDENT = re.compile(r"^[A-Za-z_\u03b1-\u03c9\u0391-\u03a9][\w'₀-₉!?]*(\.[A-Za-z_][\w'₀-₉!?]*)*$")
_BASE = {NAT: "ℕ", INT: "ℤ", RAT: "ℚ", REAL: "ℝ", COMPLEX: "ℂ", BOOL: "Prop"}
_INFIX = {
    "add": "+", "sub": "-", "mul": "*", "div": "/", "ediv": "/", "mod": "%", "emod": "%",
    "pow": "^", "zpow": "^", "rpow": "^", "eq": "=", "ne": "≠", "lt": "<", "le": "≤",
    "gt": ">", "ge": "≥", "dvd": "∣", "mem": "∈", "subset": "⊆", "union": "∪", "inter": "∩",
    "setdiff": "\\", "implies": "→", "iff": "↔",
}
_FUNC = {
    "sqrt": "Real.sqrt", "exp": "Real.exp", "log": "Real.log", "logb": "Real.logb",
    "sin": "Real.sin", "cos": "Real.cos", "tan": "Real.tan", "arcsin": "Real.arcsin",
    "arccos": "Real.arccos", "arctan": "Real.arctan", "sinh": "Real.sinh", "cosh": "Real.cosh",
    "tanh": "Real.tanh", "cabs": "Complex.abs", "re": "Complex.re", "im": "Complex.im",
    "conj": "Complex.conj", "fact": "Nat.factorial", "choose": "Nat.choose", "floor": "Int.floor",
    "ceil": "Int.ceil", "nat_floor": "Nat.floor", "nat_ceil": "Nat.ceil", "round": "round",
    "frac": "Int.fract", "to_nat": "Int.toNat", "nat_abs": "Int.natAbs", "min": "min",
    "max": "max", "sign": "SignType.sign", "digits": "Nat.digits", "list_sum": "List.sum",
    "list_length": "List.length", "range": "Finset.range", "Icc": "Finset.Icc",
    "Ico": "Finset.Ico", "Ioc": "Finset.Ioc", "Ioo": "Finset.Ioo", "card": "Finset.card",
    "image": "Finset.image", "filter": "Finset.filter", "divisors": "Nat.divisors",
    "finite": "Set.Finite", "even": "Even", "odd": "Odd", "fdiv": "Int.fdiv", "fmod": "Int.fmod",
}
_NO_LEAN = {"powr", "signed_sqrt", "root", "ln", "isa_log"}


def render_sort(s: Sort) -> str:
    if s in _BASE:
        return _BASE[s]
    if s == TYPE:
        return "Type*"
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
        if s.name.startswith("↥") and len(s.name) > 1:
            return f"↥({s.name[1:]})"
        return s.name
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


def _num(t: Num) -> str:
    v = t.value
    if isinstance(v, Fraction):
        d, twos, fives = v.denominator, 0, 0
        while d % 2 == 0:
            d, twos = d // 2, twos + 1
        while d % 5 == 0:
            d, fives = d // 5, fives + 1
        if d != 1:
            raise PrintError(f"numeral {v} has no finite decimal expansion")
        k = max(twos, fives)
        text = f"{abs(v.numerator) * 10**k // v.denominator}"
        text = text.rjust(k + 1, "0")
        lit = f"{text[:-k]}.{text[-k:]}" if k else text
        lit = ("-" if v < 0 else "") + lit
    else:
        lit = str(v)
    if lit.startswith("-"):
        return f"(-({lit[1:]} : {render_sort(t.sort)}))"
    return f"({lit} : {render_sort(t.sort)})"


def render_term(t: Term) -> str:
    """Lean 4 source for an IR term, explicit enough to elaborate back to the same term."""
    if isinstance(t, Var):
        return name(t.name)
    if isinstance(t, Num):
        return _num(t)
    if isinstance(t, App):
        return _app(t)
    if isinstance(t, Uninterpreted):
        head = name(t.symbol)
        text = " ".join([head, *(_arg(render_term(a)) for a in t.args)])
        if (isinstance(t.sort, OpaqueSort) and t.sort.name.startswith("?")) or _inferred(t.sort):
            return f"({text})"
        return f"({text} : {render_sort(t.sort)})"
    if isinstance(t, Quant):
        q = {"forall": "∀", "exists": "∃", "exists1": "∃!"}[t.kind]
        bs = " ".join(_typed(v) for v in t.vars)
        return f"({q} {bs}, {render_term(t.body)})"
    if isinstance(t, Lam):
        bs = " ".join(_typed(v) for v in t.vars)
        return f"(fun {bs} => {render_term(t.body)})"
    if isinstance(t, BigOp):
        op = "∑" if t.kind == "sum" else "∏"
        return f"({op} {name(t.var.name)} ∈ {render_term(t.domain)}, {render_term(t.body)})"
    if isinstance(t, SetBuilder):
        if _inferred(t.var.sort):
            return f"{{{name(t.var.name)} | {render_term(t.body)}}}"
        return f"{{{name(t.var.name)} : {render_sort(t.var.sort)} | {render_term(t.body)}}}"
    raise PrintError(f"cannot print {type(t).__name__}")


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


def _typed(v: Var) -> str:
    """A binder: untyped when its sort was only inferred (inference gives it back)."""
    if _inferred(v.sort):
        return name(v.name)
    return f"({name(v.name)} : {render_sort(v.sort)})"


def _arg(s: str) -> str:
    """An application argument: atomic or parenthesized."""
    return s if s.startswith("(") or _IDENT.match(s) or s.startswith("«") else f"({s})"


def _app(t: App) -> str:
    op, args = t.op, t.args
    r = [render_term(a) for a in args]
    if op in _NO_LEAN:
        raise PrintError(f"operation {op!r} (Isabelle semantics) has no Lean 4 spelling")
    if op == "true":
        return "True"
    if op == "false":
        return "False"
    if op == "pi":
        return "Real.pi"
    if op == "I":
        return "Complex.I"
    if op == "not":
        return f"(¬{r[0]})"
    if op in ("and", "or"):
        sym = " ∧ " if op == "and" else " ∨ "
        return "(" + sym.join(r) + ")"
    if op in _INFIX:
        return f"({r[0]} {_INFIX[op]} {r[1]})"
    if op == "neg":
        return f"(-{r[0]})"
    if op == "inv":
        return f"({r[0]}⁻¹)"
    if op == "abs":
        return f"|{_arg(r[0])}|"  # never `||`: Lean lexes it as one token
    if op == "cast":
        return f"(↑{r[0]} : {render_sort(t.sort)})"
    if op == "ite":
        return f"(if {r[0]} then {r[1]} else {r[2]})"
    if op == "set_of":
        inner = ", ".join(r)
        body = f"{{{inner}}}" if args else "∅"
        return f"({body} : {render_sort(t.sort)})"
    if op == "apply":
        return "(" + " ".join([_arg(x) for x in r]) + ")"
    if op == "prime":
        fn = "Nat.Prime" if args[0].sort == NAT else "Prime"
        return f"({fn} {_arg(r[0])})"
    if op in ("gcd", "lcm"):
        fn = f"Nat.{op}" if args[0].sort == NAT else op
        return f"({fn} {_arg(r[0])} {_arg(r[1])})"
    if op in _FUNC:
        return "(" + " ".join([_FUNC[op], *map(_arg, r)]) + ")"
    raise PrintError(f"operation {op!r} has no Lean 4 spelling in this printer")


def _binder(b: VarBinder | Hypothesis) -> str:
    if isinstance(b, VarBinder):
        if _inferred(b.var.sort):
            return "(" + name(b.var.name) + ")" if b.style == "explicit" else "{" + name(b.var.name) + "}"
        open_, close = {"explicit": "()", "implicit": "{}", "strict_implicit": "⦃⦄", "instance": "[]"}[b.style]
        return f"{open_}{name(b.var.name)} : {render_sort(b.var.sort)}{close}"
    f = render_term(b.formula)
    if b.style == "instance":
        return f"[{name(b.name)} : {f}]" if b.name else f"[{f}]"
    open_, close = {"explicit": "()", "implicit": "{}", "strict_implicit": "⦃⦄"}.get(b.style, "()")
    return f"{open_}{name(b.name) if b.name else '_'} : {f}{close}"


def render(statement: Statement, proof: str = "by sorry") -> str:
    """A complete Lean 4 theorem (header, binders, hypotheses, ``:= by sorry``)."""
    head = f"theorem {name(statement.name)}" if statement.name else "example"
    binders = "".join(f"\n    {_binder(b)}" for b in statement.binders)
    text = f"{head}{binders} :\n    {render_term(statement.conclusion)} := {proof}"
    if statement.header:
        text = statement.header.rstrip() + "\n\n" + text
    return text
