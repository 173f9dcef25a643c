"""Neutral printing of IR terms (debugging, error messages, certificates)."""

from __future__ import annotations

from fractions import Fraction

from provers.ir.sorts import NAT
from provers.ir.statement import Statement, VarBinder
from provers.ir.terms import App, BigOp, Lam, Num, Quant, SetBuilder, Term, Uninterpreted, Var

# --------------------------------------------------------------------------------------
# Neutral printing (debugging, error messages, certificates)
# --------------------------------------------------------------------------------------

_INFIX = {
    "add": "+", "sub": "-", "mul": "*", "div": "/", "mod": "%", "ediv": "/ₑ", "emod": "%ₑ",
    "fdiv": "div", "fmod": "mod", "pow": "^", "zpow": "^", "rpow": "^ᵣ", "powr": "powr",
    "eq": "=", "ne": "≠", "lt": "<", "le": "≤", "gt": ">", "ge": "≥", "and": "∧", "or": "∨",
    "implies": "→", "iff": "↔", "mem": "∈", "subset": "⊆", "union": "∪", "inter": "∩",
    "dvd": "∣", "setdiff": "\\",
}


def show(t: Term) -> str:
    """A compact, language-neutral rendering (fully parenthesized, unambiguous)."""
    if isinstance(t, Var):
        return t.name
    if isinstance(t, Num):
        v = t.value
        return f"({v} : {t.sort})" if isinstance(v, Fraction) or t.sort != NAT else str(v)
    if isinstance(t, App):
        if t.op in _INFIX and len(t.args) >= 2:
            return "(" + f" {_INFIX[t.op]} ".join(show(a) for a in t.args) + ")"
        if t.op == "cast":
            return f"(↑{show(t.args[0])} : {t.sort})"
        if t.op == "not":
            return f"¬{show(t.args[0])}"
        if not t.args:
            return t.op
        return f"{t.op}(" + ", ".join(show(a) for a in t.args) + ")"
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
