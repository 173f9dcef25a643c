"""Neutral printing of IR terms (debugging, error messages, certificates)."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from provers.ir.handlers import OpTable
from provers.ir.sorts import NAT
from provers.ir.statement import Statement, VarBinder
from provers.ir.terms import App, BigOp, Lam, Num, Quant, SetBuilder, Term, Uninterpreted, Var

#: Operations written infix between their (two or more) arguments.
_INFIX = {
    "add": "+", "sub": "-", "mul": "*", "div": "/", "mod": "%", "ediv": "/ₑ", "emod": "%ₑ",
    "fdiv": "div", "fmod": "mod", "pow": "^", "zpow": "^", "rpow": "^ᵣ", "powr": "powr",
    "eq": "=", "ne": "≠", "lt": "<", "le": "≤", "gt": ">", "ge": "≥", "and": "∧", "or": "∨",
    "implies": "→", "iff": "↔", "mem": "∈", "subset": "⊆", "union": "∪", "inter": "∩",
    "dvd": "∣", "setdiff": "\\",
}
#: Operations written as their name applied to the arguments: ``op(a, b)`` (constants: ``op``).
_PREFIX = (
    "true", "false", "ite", "neg", "inv", "abs", "cabs", "min", "max", "sign", "floor", "ceil",
    "nat_floor", "nat_ceil", "round", "to_nat", "nat_abs", "frac", "sqrt", "signed_sqrt", "root",
    "exp", "log", "logb", "ln", "isa_log", "sin", "cos", "tan", "arctan", "sinh", "cosh", "tanh",
    "arcsin", "arccos", "isa_arcsin", "isa_arccos", "pi", "I", "re", "im", "conj", "fact",
    "choose", "gcd", "lcm", "prime", "even", "odd", "digits", "list_sum", "list_length", "apply",
    "set_of", "range", "Icc", "Ico", "Ioc", "Ioo", "card", "image", "filter", "divisors", "finite",
)

Handler = Callable[[App], str]
#: The neutral spelling of each operation.
DISPLAY: OpTable[Handler] = OpTable("neutral display")
for _op, _sym in _INFIX.items():
    DISPLAY.add(_op, lambda t, sym=_sym: "(" + f" {sym} ".join(show(a) for a in t.args) + ")")
for _op in _PREFIX:
    DISPLAY.add(_op, lambda t: f"{t.op}(" + ", ".join(show(a) for a in t.args) + ")" if t.args else t.op)
DISPLAY.add("cast", lambda t: f"(↑{show(t.args[0])} : {t.sort})")
DISPLAY.add("not", lambda t: f"¬{show(t.args[0])}")


def show(t: Term) -> str:
    """A compact, language-neutral rendering (fully parenthesized, unambiguous)."""
    if isinstance(t, Var):
        return t.name
    if isinstance(t, Num):
        v = t.value
        return f"({v} : {t.sort})" if isinstance(v, Fraction) or t.sort != NAT else str(v)
    if isinstance(t, App):
        return DISPLAY.handlers[t.op](t)
    if isinstance(t, Uninterpreted):
        return f"?{t.symbol}(" + ", ".join(show(a) for a in t.args) + ")"
    if isinstance(t, Quant):
        q = {"forall": "∀", "exists": "∃", "exists1": "∃!"}[t.kind]
        vs = " ".join(f"({v.name} : {v.sort})" for v in t.vars)
        return f"({q} {vs}, {show(t.body)})"
    if isinstance(t, Lam):
        vs = " ".join(f"({v.name} : {v.sort})" for v in t.vars)
        return f"(fun {vs} => {show(t.body)})"
    if isinstance(t, BigOp):
        s = "∑" if t.kind == "sum" else "∏"
        return f"({s} {t.var.name} ∈ {show(t.domain)}, {show(t.body)})"
    if isinstance(t, SetBuilder):
        return f"{{{t.var.name} : {t.var.sort} | {show(t.body)}}}"
    return repr(t)


def show_statement(st: Statement) -> str:
    parts = []
    for b in st.binders:
        if isinstance(b, VarBinder):
            parts.append(f"({b.var.name} : {b.var.sort})")
        else:
            parts.append(f"({b.name or '_'} : {show(b.formula)})")
    return " ".join(parts) + " ⊢ " + show(st.conclusion)
