"""Deterministic, offline back-translation: read a parsed statement (the IR) as English.

    For all real numbers x and y, if x ≠ 0 and 2x = y, then x / y = 1/2.

Logic is written in words (for all, there exists, if ... then, and, or, not), arithmetic
in compact math notation, which is also how informal competition statements read.  The
text is a faithful reading of the IR, not a paraphrase: it never guesses at intent, so two
statements with the same meaning (up to variable names) read alike.  Only the public API
of ``provers.ir`` is used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import provers
from provers import ir

from .informalize import InformalizationError, Informalizer

__all__ = ["RuleInformalizer", "describe_statement", "describe_term"]

# ----------------------------------------------------------------------------- sorts

_SORT_NAMES = {
    ir.NAT: ("natural number", "natural numbers"),
    ir.INT: ("integer", "integers"),
    ir.RAT: ("rational number", "rational numbers"),
    ir.REAL: ("real number", "real numbers"),
    ir.COMPLEX: ("complex number", "complex numbers"),
    ir.BOOL: ("proposition", "propositions"),
}


def _sort_parts(sort: ir.Sort, plural: bool) -> tuple[str, str]:
    """(head noun, qualifier) for values of ``sort``: names go between the two, as in
    "functions f and g from real numbers to real numbers"."""
    if sort in _SORT_NAMES:
        return _SORT_NAMES[sort][1 if plural else 0], ""
    if isinstance(sort, ir.FunSort):
        head = "functions" if plural else "function"
        dom = " × ".join(_sort_noun(a, True) for a in sort.args)
        return head, f" from {dom} to {_sort_noun(sort.result, True)}"
    if isinstance(sort, ir.SetSort):
        return ("sets" if plural else "set"), f" of {_sort_noun(sort.elem, True)}"
    if isinstance(sort, ir.ListSort):
        return ("lists" if plural else "list"), f" of {_sort_noun(sort.elem, True)}"
    if isinstance(sort, ir.OpaqueSort):
        return ("elements" if plural else "element"), f" of {sort.name}"
    return "objects", f" of sort {sort}"  # pragma: no cover - no other sorts exist


def _sort_noun(sort: ir.Sort, plural: bool) -> str:
    """English noun phrase for values of ``sort`` ("real numbers", "sets of integers")."""
    head, tail = _sort_parts(sort, plural)
    return head + tail


def _join(items: Sequence[str], word: str = "and") -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def _binder_phrase(variables: Sequence[ir.Var], quantifier: str) -> str:
    """``for all real numbers x and y and every natural number n`` (grouped by sort)."""
    groups: dict[ir.Sort, list[str]] = {}
    for v in variables:
        groups.setdefault(v.sort, []).append(v.name)
    parts = []
    for sort, names in groups.items():
        many = len(names) > 1
        if quantifier == "forall":
            det = "all" if many else "every"
        elif quantifier == "exists":
            det = "" if many else _article(_sort_noun(sort, False))
        else:  # exists1
            det = "exactly one"
        head, tail = _sort_parts(sort, many)
        parts.append(f"{det} {head} {_join(names)}{tail}".strip())
    return " and ".join(parts)


def _article(noun: str) -> str:
    return "an" if noun[:1] in "aeiou" else "a"


# ----------------------------------------------------------------------------- terms

_REL = dict(zip(ir.RELATION_OPS, ("=", "≠", "<", "≤", ">", "≥"), strict=True))
#: Operations read as a clause ("x divides y", "P and Q"), also inside an expression.
_PROP_OPS = frozenset(
    {"true", "false", "and", "or", "implies", "iff", "not", "dvd", "prime", "even", "odd"}
    | {"finite", "mem", "subset", *_REL}
)
_SET_INFIX = {"mem": "∈", "subset": "⊆", "union": "∪", "inter": "∩", "setdiff": "\\"}
_FUNC_NAMES = {
    "exp": "exp", "log": "log", "ln": "ln", "sin": "sin", "cos": "cos", "tan": "tan",
    "arcsin": "arcsin", "arccos": "arccos", "isa_arcsin": "arcsin", "isa_arccos": "arccos",
    "arctan": "arctan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh", "gcd": "gcd",
    "lcm": "lcm", "min": "min", "max": "max", "sign": "sign", "round": "round", "re": "Re",
    "im": "Im", "conj": "conj", "frac": "frac", "to_nat": "toNat",
}

# precedence levels of the math notation
_P_REL, _P_SET, _P_ADD, _P_MUL, _P_NEG, _P_POW, _P_POST, _P_ATOM = 50, 55, 65, 70, 72, 75, 80, 100


class _Reader:
    """Renders IR terms; one instance per statement."""

    def prop(self, t: ir.Term, nested: bool = False) -> str:
        """A Bool term as an English clause (parenthesized when ``nested`` and compound)."""
        text, compound = self._prop(t)
        return f"({text})" if nested and compound else text

    def _prop(self, t: ir.Term) -> tuple[str, bool]:
        if isinstance(t, ir.Quant):
            return self._quant(t), True
        if isinstance(t, ir.App) and t.op in CLAUSES:
            return CLAUSES[t.op](self, t)
        return self.expr(t), False

    def antecedent(self, p: ir.Term) -> str:
        """Parenthesize an antecedent only when "if ..., then" would be ambiguous."""
        if isinstance(p, ir.Quant) or (isinstance(p, ir.App) and p.op in ("implies", "iff")):
            return f"({self.prop(p)})"
        return self.prop(p)

    def premise(self, p: ir.Term) -> str:
        """One hypothesis in a list joined by "and"."""
        if isinstance(p, ir.App) and p.op == "or":
            return f"({self.prop(p)})"
        return self.antecedent(p)

    def negation(self, p: ir.Term) -> str:
        if isinstance(p, ir.App):
            if p.op == "eq" and p.args[0].sort != ir.BOOL:
                return self.expr(ir.app("ne", *p.args))
            if p.op in ("prime", "even", "odd", "finite"):
                return f"{self.expr(p.args[0], _P_REL + 1)} is not {p.op}"
            if p.op == "dvd":
                a, b = p.args
                return f"{self.expr(a, _P_REL + 1)} does not divide {self.expr(b, _P_REL + 1)}"
            if p.op == "mem":
                return f"{self.expr(p.args[0], _P_SET + 1)} ∉ {self.expr(p.args[1], _P_SET + 1)}"
        return f"it is not the case that {self.prop(p, True)}"

    def _quant(self, q: ir.Quant) -> str:
        body = q.body
        if q.kind == "forall":
            # "for every x in S, P" for the bounded form ∀ x, x ∈ S → P
            if (
                len(q.vars) == 1
                and isinstance(body, ir.App)
                and body.op == "implies"
                and isinstance(body.args[0], ir.App)
                and body.args[0].op == "mem"
                and body.args[0].args[0] == q.vars[0]
            ):
                dom = self.expr(body.args[0].args[1], _P_SET + 1)
                return f"for every {q.vars[0].name} in {dom}, {self.prop(body.args[1])}"
            # a quantifier's scope runs to the end of the clause: no parentheses needed
            return f"for {_binder_phrase(q.vars, 'forall')}, {self.prop(body)}"
        verb = "exist" if q.kind == "exists" and len(q.vars) > 1 else "exists"
        if q.kind == "exists1":
            return f"there is {_binder_phrase(q.vars, 'exists1')} such that {self.prop(body)}"
        return f"there {verb} {_binder_phrase(q.vars, 'exists')} such that {self.prop(body)}"

    def rel(self, t: ir.App) -> str:
        left, right = t.args
        return f"{self.expr(left, _P_REL + 1)} {_REL[t.op]} {self.expr(right, _P_REL + 1)}"

    # -- values ------------------------------------------------------------------------

    def expr(self, t: ir.Term, ctx: int = 0) -> str:
        """Math notation for a value; parenthesized when its precedence is below ``ctx``."""
        text, prec = self._expr(t)
        return f"({text})" if prec < ctx else text

    def _expr(self, t: ir.Term) -> tuple[str, int]:
        if isinstance(t, ir.Var):
            return t.name, _P_ATOM
        if isinstance(t, ir.Num):
            return _numeral(t.value)
        if isinstance(t, ir.Uninterpreted):
            shown = ir.display_symbol(t.symbol)
            if not t.args:
                return shown, _P_ATOM
            return f"{shown}({', '.join(self.expr(a) for a in t.args)})", _P_ATOM
        if isinstance(t, ir.Quant):
            return self.bool_in_expr(t)
        if isinstance(t, ir.Lam):
            names = ", ".join(v.name for v in t.vars)
            return f"the function {names} ↦ {self.expr(t.body)}", 0
        if isinstance(t, ir.BigOp):
            word = "sum" if t.kind == "sum" else "product"
            dom = self.domain(t.domain)
            body = self.expr(t.body, _P_ADD)
            return f"the {word} of {body} over {t.var.name} in {dom}", 0
        if isinstance(t, ir.SetBuilder):
            noun = _sort_noun(t.var.sort, True)
            return f"the set of {noun} {t.var.name} such that {self.prop(t.body)}", 0
        if isinstance(t, ir.App):
            handler = EXPRESSIONS.get(t.op)
            if handler is None:
                raise InformalizationError(EXPRESSIONS.why_unsupported(t.op))
            return handler(self, t)
        return str(t), _P_ATOM  # pragma: no cover - all term classes handled

    def bool_in_expr(self, t: ir.Term) -> tuple[str, int]:
        """A proposition where a value is expected (an operand of ``=``, an ``if`` branch)."""
        if isinstance(t, ir.App) and t.op in _REL and t.args[0].sort != ir.BOOL:
            return self.rel(t), _P_REL
        if isinstance(t, ir.App) and t.op in ("mem", "subset"):
            a, b = t.args
            sym = _SET_INFIX[t.op]
            return f"{self.expr(a, _P_SET + 1)} {sym} {self.expr(b, _P_SET + 1)}", _P_SET
        text, compound = self._prop(t)
        return text, (0 if compound else _P_REL)

    def filtered(self, pred: ir.Term, dom: ir.Term) -> str:
        d = self.domain(dom)
        if isinstance(pred, ir.Lam) and len(pred.vars) == 1:
            v = pred.vars[0].name
            return f"{{{v} ∈ {d} | {self.prop(pred.body)}}}"
        return f"{{x ∈ {d} | {self.expr(pred, _P_ATOM)}(x)}}"

    def domain(self, t: ir.Term) -> str:
        """Finite sets and intervals: ``{0, …, n - 1}``, ``[a, b]``, ``{a, …, b}``."""
        if isinstance(t, ir.App):
            op, a = t.op, t.args
            discrete = isinstance(t.sort, ir.SetSort) and t.sort.elem in (ir.NAT, ir.INT)
            if op == "range":
                return f"{{0, …, {self.expr(a[0], _P_ADD)} - 1}}"
            if op in ir.INTERVALS:
                lo, hi = self.expr(a[0]), self.expr(a[1])
                if discrete:
                    lo_t = lo if op in ("Icc", "Ico") else f"{self.expr(a[0], _P_ADD)} + 1"
                    hi_t = hi if op in ("Icc", "Ioc") else f"{self.expr(a[1], _P_ADD)} - 1"
                    return f"{{{lo_t}, …, {hi_t}}}"
                left = "[" if op in ("Icc", "Ico") else "("
                right = "]" if op in ("Icc", "Ioc") else ")"
                return f"{left}{lo}, {hi}{right}"
            if op == "divisors":
                return f"the set of divisors of {self.expr(a[0], _P_ATOM)}"
        return self.expr(t, _P_ATOM)


# ----------------------------------------------------------------------------- clauses

ClauseHandler = Callable[[_Reader, ir.App], tuple[str, bool]]


def _junction(r: _Reader, t: ir.App) -> tuple[str, bool]:
    parts = [r.prop(x, nested=True) for x in _flatten(t, t.op)]
    return _join(parts, t.op), True


def _relation_clause(r: _Reader, t: ir.App) -> tuple[str, bool]:
    a = t.args
    if a[0].sort == ir.BOOL:
        word = "if and only if" if t.op == "eq" else "is not equivalent to"
        return f"{r.prop(a[0], True)} {word} {r.prop(a[1], True)}", True
    return r.rel(t), False


#: Propositions read as English clauses: ``handler(reader, term) -> (text, compound)``;
#: any other Bool-valued term is read as its math notation.
CLAUSES: dict[str, ClauseHandler] = {
    "true": lambda r, t: ("true", False),
    "false": lambda r, t: ("false", False),
    "and": _junction,
    "or": _junction,
    # the consequent runs to the end of the clause: no parentheses needed
    "implies": lambda r, t: (f"if {r.antecedent(t.args[0])}, then {r.prop(t.args[1])}", True),
    "iff": lambda r, t: (f"{r.prop(t.args[0], True)} if and only if {r.prop(t.args[1], True)}", True),
    "not": lambda r, t: (r.negation(t.args[0]), True),
    **dict.fromkeys(_REL, _relation_clause),
    "dvd": lambda r, t: (f"{r.expr(t.args[0], _P_REL + 1)} divides {r.expr(t.args[1], _P_REL + 1)}", False),
    **dict.fromkeys(("prime", "even", "odd"), lambda r, t: (f"{r.expr(t.args[0], _P_REL + 1)} is {t.op}", False)),
    "finite": lambda r, t: (f"{r.expr(t.args[0], _P_REL + 1)} is finite", False),
}

# ----------------------------------------------------------------------------- expressions

Handler = Callable[[_Reader, ir.App], tuple[str, int]]
#: Each operation in math notation: ``handler(reader, term) -> (text, precedence)``.
EXPRESSIONS: ir.OpTable[Handler] = ir.OpTable("rule-based informalizer")

for _op in _PROP_OPS:
    EXPRESSIONS.add(_op, lambda r, t: r.bool_in_expr(t))


def _binary(symbol: str, prec: int) -> Handler:
    """Left-associative ``a symbol b`` at precedence ``prec``."""
    return lambda r, t: (f"{r.expr(t.args[0], prec)} {symbol} {r.expr(t.args[1], prec + 1)}", prec)


def _wrapped(left: str, right: str) -> Handler:
    return lambda r, t: (f"{left}{r.expr(t.args[0])}{right}", _P_ATOM)


def _phrase(template: str, prec: int = 0) -> Handler:
    """English for a value: ``template`` with ``{0}``, ``{1}`` for the atomic arguments."""
    return lambda r, t: (template.format(*(r.expr(a, _P_ATOM) for a in t.args)), prec)


def _named_function(name: str) -> Handler:
    return lambda r, t: (f"{name}({', '.join(r.expr(x) for x in t.args)})", _P_ATOM)


@EXPRESSIONS.register("mul")
def _mul(r: _Reader, t: ir.App) -> tuple[str, int]:
    left, right = t.args
    coef = _strip_cast(left)
    if isinstance(coef, ir.Num) and _juxtaposable(_strip_cast(right)):
        if coef.value < 0:
            return f"-{_numeral(-coef.value)[0]}{r.expr(right, _P_POW)}", _P_NEG
        return f"{r.expr(left, _P_POW)}{r.expr(right, _P_POW)}", _P_MUL
    return f"{r.expr(left, _P_MUL)} * {r.expr(right, _P_MUL + 1)}", _P_MUL


@EXPRESSIONS.register("div", "ediv", "fdiv")
def _div(r: _Reader, t: ir.App) -> tuple[str, int]:
    text = f"{r.expr(t.args[0], _P_MUL)} / {r.expr(t.args[1], _P_MUL + 1)}"
    if t.sort in (ir.NAT, ir.INT):  # integer division
        return f"⌊{text}⌋", _P_ATOM
    return text, _P_MUL


@EXPRESSIONS.register("ite")
def _ite(r: _Reader, t: ir.App) -> tuple[str, int]:
    c, x, y = t.args
    return f"(if {r.prop(c, True)} then {r.expr(x)} else {r.expr(y)})", _P_ATOM


EXPRESSIONS.add("cast", lambda r, t: r._expr(t.args[0]))
EXPRESSIONS.add("add", _binary("+", _P_ADD))
EXPRESSIONS.add("sub", _binary("-", _P_ADD))
for _op in ("mod", "emod", "fmod"):
    EXPRESSIONS.add(_op, _binary("mod", _P_MUL))
EXPRESSIONS.add("neg", lambda r, t: (f"-{r.expr(t.args[0], _P_NEG)}", _P_NEG))
EXPRESSIONS.add("inv", lambda r, t: (f"1 / {r.expr(t.args[0], _P_MUL + 1)}", _P_MUL))
for _op in ("pow", "zpow", "rpow", "powr"):
    EXPRESSIONS.add(_op, lambda r, t: (f"{r.expr(t.args[0], _P_POW + 1)}^{r.expr(t.args[1], _P_ATOM)}", _P_POW))
for _op in ("abs", "cabs", "nat_abs"):
    EXPRESSIONS.add(_op, _wrapped("|", "|"))
for _op in ("sqrt", "signed_sqrt"):
    EXPRESSIONS.add(_op, lambda r, t: (f"√{r.expr(t.args[0], _P_ATOM)}", _P_POW))
for _op in ("floor", "nat_floor"):
    EXPRESSIONS.add(_op, _wrapped("⌊", "⌋"))
for _op in ("ceil", "nat_ceil"):
    EXPRESSIONS.add(_op, _wrapped("⌈", "⌉"))
EXPRESSIONS.add("root", _phrase("the {0}-th root of {1}"))
EXPRESSIONS.add("fact", lambda r, t: (f"{r.expr(t.args[0], _P_ATOM)}!", _P_POST))
EXPRESSIONS.add("choose", lambda r, t: (f"C({r.expr(t.args[0])}, {r.expr(t.args[1])})", _P_ATOM))
for _op in ("logb", "isa_log"):
    EXPRESSIONS.add(_op, lambda r, t: (f"log_{r.expr(t.args[0], _P_ATOM)}({r.expr(t.args[1])})", _P_ATOM))
EXPRESSIONS.add("pi", lambda r, t: ("π", _P_ATOM))
EXPRESSIONS.add("I", lambda r, t: ("i", _P_ATOM))
EXPRESSIONS.add("apply", lambda r, t: (f"{r.expr(t.args[0], _P_ATOM)}({', '.join(r.expr(x) for x in t.args[1:])})", _P_ATOM))
for _op in ir.SET_OPS:
    EXPRESSIONS.add(_op, lambda r, t: (f"{r.expr(t.args[0], _P_SET + 1)} {_SET_INFIX[t.op]} {r.expr(t.args[1], _P_SET + 1)}", _P_SET))
EXPRESSIONS.add("set_of", lambda r, t: ("{" + ", ".join(r.expr(x) for x in t.args) + "}", _P_ATOM))
for _op in ("range", *ir.INTERVALS, "divisors"):
    EXPRESSIONS.add(_op, lambda r, t: (r.domain(t), _P_ATOM))
EXPRESSIONS.add("card", lambda r, t: (f"the number of elements of {r.domain(t.args[0])}", 0))
EXPRESSIONS.add("image", lambda r, t: (f"the image of {r.domain(t.args[1])} under {r.expr(t.args[0], _P_ATOM)}", 0))
EXPRESSIONS.add("filter", lambda r, t: (r.filtered(t.args[0], t.args[1]), _P_ATOM))
EXPRESSIONS.add("digits", lambda r, t: (f"the digits of {r.expr(t.args[1], _P_ATOM)} in base {r.expr(t.args[0], _P_ATOM)}", 0))
EXPRESSIONS.add("list_sum", _phrase("the sum of {0}"))
EXPRESSIONS.add("list_length", _phrase("the length of {0}"))
for _op, _name in _FUNC_NAMES.items():
    EXPRESSIONS.add(_op, _named_function(_name))


def _flatten(t: ir.Term, op: str) -> list[ir.Term]:
    """Operands of a chain of the same associative connective: (a or (b or c)) -> a, b, c."""
    if isinstance(t, ir.App) and t.op == op:
        return [x for arg in t.args for x in _flatten(arg, op)]
    return [t]


def _strip_cast(t: ir.Term) -> ir.Term:
    while isinstance(t, ir.App) and t.op == "cast":
        t = t.args[0]
    return t


def _juxtaposable(t: ir.Term) -> bool:
    """``2x``, ``3x^2``, ``2(x + 1)`` read naturally; ``2 * 3`` does not."""
    if isinstance(t, ir.Var):
        return True
    if isinstance(t, ir.App) and t.op in ("pow", "zpow", "rpow") and isinstance(t.args[0], ir.Var):
        return True
    return isinstance(t, ir.App) and t.op in ("sqrt", "pi")


def _numeral(v: int | Fraction) -> tuple[str, int]:
    if isinstance(v, Fraction):
        text = f"{v.numerator}/{v.denominator}"
        return (f"-{-v.numerator}/{v.denominator}", _P_NEG) if v < 0 else (text, _P_MUL)
    return (str(v), _P_NEG) if v < 0 else (str(v), _P_ATOM)


# ----------------------------------------------------------------------------- statements


def describe_term(term: ir.Term) -> str:
    """English reading of one IR term (a proposition or a value)."""
    reader = _Reader()
    return reader.prop(term) if term.sort == ir.BOOL else reader.expr(term)


def describe_statement(statement: ir.Statement) -> str:
    """One English sentence for a parsed statement: variables, hypotheses, conclusion."""
    reader = _Reader()
    variables = [v for v in statement.variables if not ir.is_universe(v.sort)]
    hyps = [reader.premise(h.formula) for h in statement.hypotheses]
    defines = [
        f"{v.name} = {reader.expr(t)}" if t.sort != ir.BOOL else f"{v.name} means {reader.prop(t)}"
        for v, t in statement.defines
    ]
    conclusion = reader.prop(statement.conclusion)
    text = f"if {_join(hyps)}, then {conclusion}" if hyps else conclusion
    if variables:
        text = f"for {_binder_phrase(variables, 'forall')}, {text}"
    if defines:
        text = f"{text}, where {_join(defines)}"
    text = text.strip()
    return (text[:1].upper() + text[1:] + ".") if text else ""


class RuleInformalizer(Informalizer):
    """Reads statements back as English from the IR: deterministic, offline, free.

    ``informalize`` takes parsed ``Statement`` objects or statement texts; texts are parsed
    with ``parser`` (default ``provers.parse(text, language)``).  A statement that cannot
    be parsed raises :class:`InformalizationError`, or yields ``""`` (no evidence) with
    ``on_error="empty"``.
    """

    def __init__(
        self,
        language: str = "lean4",
        parser: Callable[[str], ir.Statement] | None = None,
        on_error: str = "raise",
    ) -> None:
        if on_error not in ("raise", "empty"):
            raise ValueError(f"on_error must be 'raise' or 'empty', got {on_error!r}")
        self.language = language
        self.parser = parser
        self.on_error = on_error

    def __repr__(self) -> str:
        return f"RuleInformalizer(language={self.language!r}, on_error={self.on_error!r})"

    def _parse(self, text: str) -> ir.Statement:
        if self.parser is not None:
            return self.parser(text)
        return provers.parse(text, language=self.language)

    def describe(self, statement: ir.Statement | str) -> str:
        """English for one statement (parsing it first when it is text)."""
        if isinstance(statement, ir.Statement):
            return describe_statement(statement)
        if not isinstance(statement, str):
            raise TypeError(f"expected a Statement or text, got {type(statement).__name__}")
        try:
            parsed = self._parse(statement)
        except Exception as exc:  # parse errors of any frontend
            raise InformalizationError(f"cannot read the statement: {exc}") from exc
        return describe_statement(parsed)

    def informalize(self, statements: Sequence[Any]) -> list[str]:
        out = []
        for s in statements:
            try:
                out.append(self.describe(s))
            except InformalizationError:
                if self.on_error == "raise":
                    raise
                out.append("")
        return out
