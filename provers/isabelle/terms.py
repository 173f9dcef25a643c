"""The HOL term parser: inner-syntax tokens -> pre-terms (``preterm.py``).

A Pratt parser with Isabelle's priorities (HOL.thy, Orderings.thy, Groups.thy, Rings.thy,
Set.thy): ``⟹`` 1, ``⟶``/``⟷`` 25 right, ``∨`` 30 right, ``∧`` 35 right, ``¬`` 40,
``=``/``≠``/``<``/``≤``/``∈``/``⊆``/``dvd`` 50, ``∘`` 55, ``+``/``-``/``∪`` 65 left,
``*``/``/``/``div``/``mod``/``∩`` 70 left, ``^``/``powr`` 80 right, unary ``-`` 80,
`` ` `` 90, application 1000. Binders (``∀ ∃ ∃! λ ∑ ∏ THE GREATEST LEAST``) extend as
far right as possible.

It reads syntax and names (bound variables, ``fixes``, constants, implicitly fixed free
variables); sorts are the business of ``inference.Inference``, which it asks at each node,
and what each constant means is in ``constants.py``. The pre-terms it returns may still have
pending sorts and pseudo-operations; ``finish.py`` makes them IR.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from provers.errors import InputTooLargeError
from provers.ir import BOOL, COMPLEX, NAT, REAL, ListSort, SetSort, Sort
from provers.isabelle.constants import BINARY, CONSTS, NULLARY
from provers.isabelle.inference import ElabError, Inference
from provers.isabelle.lexer import LexError, Token
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
    pair,
    substitute,
)
from provers.isabelle.types import TypeReader

# infix operators: token -> (priority, associativity, handler name)
INFIX: dict[str, tuple[int, str, str]] = {
    "⟶": (25, "right", "implies"), "-->": (25, "right", "implies"), "→": (25, "right", "implies"),
    "⟷": (25, "right", "iff"), "<->": (25, "right", "iff"), "<-->": (25, "right", "iff"),
    "↔": (25, "right", "iff"),
    "∨": (30, "right", "or"), "|": (30, "right", "or"), "\\/": (30, "right", "or"),
    "∧": (35, "right", "and"), "&": (35, "right", "and"), "/\\": (35, "right", "and"),
    "=": (50, "left", "eq"), "≠": (50, "left", "ne"), "~=": (50, "left", "ne"),
    "<": (50, "none", "lt"), "≤": (50, "none", "le"), "<=": (50, "none", "le"),
    ">": (50, "none", "gt"), "≥": (50, "none", "ge"), ">=": (50, "none", "ge"),
    "∈": (50, "none", "mem"), "∉": (50, "none", "notmem"), "⊆": (50, "none", "subset"),
    "⊂": (50, "none", "psubset"), "⊇": (50, "none", "supset"), "⊃": (50, "none", "psupset"),
    "dvd": (50, "none", "dvd"), "∘": (55, "left", "comp"),
    "+": (65, "left", "add"), "-": (65, "left", "minus"), "∪": (65, "left", "union"),
    "#": (65, "right", "cons"), "@": (65, "right", "append"), "choose": (65, "left", "choose"),
    "*": (70, "left", "mul"), "/": (70, "left", "divide"), "div": (70, "left", "div"),
    "mod": (70, "left", "mod"), "∩": (70, "left", "inter"), "∙": (70, "left", "inner"),
    "^": (80, "right", "pow"), "powr": (80, "right", "powr"), "×": (80, "right", "times_set"),
    "`": (90, "right", "image"), "!": (100, "left", "nth"), "*⇩R": (75, "right", "scaleR"),
}
KEYWORDS = frozenset({"if", "then", "else", "let", "in", "case", "of", "div", "mod", "dvd", "powr", "choose", "and", "where", "for"})
BINDERS = {"∀": "forall", "∃": "exists", "∃!": "exists1", "∄": "nexists", "ALL": "forall", "EX": "exists", "EX!": "exists1"}
BINDER_CONSTS = ("THE", "GREATEST", "LEAST", "SOME", "INF", "SUP")
_ATOM_START_OPS = frozenset({"(", "[", "[:", "{", "⌊", "⌈", "ℤ", "ℕ", "ℚ", "ℝ", "ℂ", "ⅈ", "π", "∅"})


@dataclass
class Scope:
    """Names a term can refer to: theorem variables and implicitly fixed free variables."""

    fixed: dict[str, PreVar]
    implicit: dict[str, PreVar]


#: Outer-syntax words that cannot name an implicitly fixed variable (they could not be
#: declared in `fixes`, and in LLM output they mean a quote went missing).
OUTER_KEYWORDS = frozenset({"theorem", "lemma", "fixes", "assumes", "defines", "shows", "obtains", "and", "where"})

MAX_DEPTH = 200
MAX_STEPS = 20_000  # Pratt-loop entries per statement (real candidates need < 200)
MAX_NUMERAL_DIGITS = 4_000  # Python refuses to convert longer digit strings to int


def _numeral(tok: Token) -> int | Fraction:
    """The value of a numeral token; a too-long one is an input error, not a ValueError."""
    digits = sum(ch.isdigit() for ch in tok.text)
    if digits > MAX_NUMERAL_DIGITS:
        raise InputTooLargeError(f"a numeral of {digits} digits; the limit is {MAX_NUMERAL_DIGITS}")
    return Fraction(tok.text) if "." in tok.text else int(tok.text)


class TermParser:
    """Parses one quoted term at a time; all terms of a statement share one ``Inference``."""

    def __init__(self, inf: Inference, scope: Scope):
        self.inf, self.scope = inf, scope
        self.toks: list[Token] = []
        self.i = 0
        self.bound: list[dict[str, PreVar]] = []
        self.depth = 0
        self.steps = 0

    # ---- token helpers -----------------------------------------------------------------
    def load(self, toks: list[Token]) -> None:
        self.toks, self.i, self.bound, self.depth = toks, 0, [], 0

    def peek(self, k: int = 0) -> Token:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def next(self) -> Token:
        t = self.toks[self.i]
        if t.kind != "eof":
            self.i += 1
        return t

    def at(self, *texts: str) -> bool:
        t = self.peek()
        return t.kind in ("op", "ident") and t.text in texts

    def expect(self, text: str, what: str) -> Token:
        t = self.peek()
        if not (t.kind in ("op", "ident") and t.text == text):
            found = repr(t.text) if t.kind != "eof" else "the end of the term"
            raise ElabError(f"expected {text!r} {what}, found {found}", t.pos)
        return self.next()

    # ---- entry points --------------------------------------------------------------------
    def finish_input(self) -> None:
        t = self.peek()
        if t.kind == "ident" and t.text == "and":
            raise ElabError("`and` inside a quoted term: write ∧ (or close the quote: \"A\" and \"B\")", t.pos)
        if t.kind != "eof":
            raise ElabError(f"unexpected {t.text!r}: the term should end here (missing operator or parenthesis?)", t.pos)

    def parse_prop(self) -> tuple[list[PreVar], list[PreTerm], PreTerm]:
        """``⋀x. ⟦A; B⟧ ⟹ C`` -> (meta-bound variables, premises, conclusion)."""
        vars_: list[PreVar] = []
        hyps: list[PreTerm] = []
        while True:
            if self.at("⋀"):
                pos = self.next().pos
                vs = self.binder_vars(pos)
                self.expect(".", "after the variables of ⋀")
                self.bound.append({v.name: v for v in vs})
                vars_.extend(vs)
                continue
            if self.at("⟦"):
                self.next()
                while True:
                    hyps.append(self.formula(0))
                    if self.at(";"):
                        self.next()
                        continue
                    break
                self.expect("⟧", "to close ⟦")
                self.expect_meta_imp()
                continue
            f = self.formula(2)
            if self.at("⟹", "==>"):
                self.next()
                hyps.append(f)
                continue
            return vars_, hyps, f

    def expect_meta_imp(self) -> None:
        if not self.at("⟹", "==>"):
            raise ElabError("expected ⟹ after ⟦…⟧", self.peek().pos)
        self.next()

    def formula(self, min_bp: int) -> PreTerm:
        pos = self.peek().pos
        t = self.expr(min_bp)
        self.inf.unify(t.sort, BOOL, pos, "a proposition (it must be a bool)")
        return t

    # ---- Pratt loop ----------------------------------------------------------------------
    def expr(self, min_bp: int, left: PreTerm | None = None) -> PreTerm:
        """Pratt loop; ``left`` resumes it after an operand that was already read."""
        self.depth += 1
        self.steps += 1
        if self.depth > MAX_DEPTH or self.steps > MAX_STEPS:
            what = f"nested deeper than {MAX_DEPTH} levels" if self.depth > MAX_DEPTH else f"needs more than {MAX_STEPS} parse steps"
            raise InputTooLargeError(f"the term is too large: {what}")
        try:
            if left is None:
                left = self.prefix()
            while True:
                t = self.peek()
                if t.kind in ("op", "ident") and t.text in INFIX:
                    prec, assoc, name = INFIX[t.text]
                    if prec < min_bp:
                        break
                    self.next()
                    if t.text == "!" and not self.starts_atom(self.peek()):
                        raise ElabError("n! is not HOL syntax for the factorial: write fact n", t.pos)
                    rbp = prec if assoc == "right" else prec + 1
                    right = self.expr(rbp)
                    left = self.binary(name, left, right, t.pos)
                    if assoc == "none" and self.peek().text in INFIX and INFIX[self.peek().text][0] == prec and INFIX[self.peek().text][2] in ("lt", "le", "gt", "ge"):
                        nt = self.peek()
                        raise ElabError(f"chained comparison {t.text} … {nt.text} is not HOL syntax: write a {t.text} b ∧ b {nt.text} c", nt.pos)
                    continue
                if t.kind == "op" and t.text in ("≡",) and min_bp <= 2:
                    self.next()
                    right = self.expr(3)
                    left = self.binary("eq", left, right, t.pos)
                    continue
                if t.kind == "op" and t.text == "::" and min_bp <= 3:  # t :: T ("_::_" [4, 0] 3)
                    self.next()
                    left = self.inf.coerce(left, self.read_type(), t.pos, "a type annotation")
                    continue
                break
            return left
        finally:
            self.depth -= 1

    def starts_atom(self, t: Token) -> bool:
        if t.kind in ("num", "tvar"):
            return t.kind == "num"
        if t.kind == "ident":
            return t.text not in KEYWORDS and t.text not in INFIX
        return t.kind == "op" and t.text in _ATOM_START_OPS

    def prefix(self) -> PreTerm:
        t = self.peek()
        if t.kind == "op" and t.text in ("¬", "~"):
            self.next()
            a = self.expr(40)
            self.inf.unify(a.sort, BOOL, t.pos, "¬")
            return PreApp("not", (a,), BOOL)
        if t.kind == "op" and t.text == "-":
            self.next()
            a = self.expr(81)
            if self.at("^", "powr"):  # "- _" [81] 80 cannot be the base of an infixr-80 operator
                raise ElabError(
                    f"Isabelle does not parse - x {self.peek().text} y (unary minus cannot be the base of "
                    f"{self.peek().text}): write -(x {self.peek().text} y) or (-x) {self.peek().text} y", t.pos)
            a = self.inf.lift(a, "neg", t.pos, "unary minus")  # -n with n :: nat is -(int n)
            if isinstance(a, PreNum) and a.value >= 0:
                return a if a.value == 0 else PreApp("isa:negnum", (a,), a.sort)
            return PreApp("neg", (a,), a.sort)
        if (t.kind == "op" or t.kind == "ident") and t.text in BINDERS:
            return self.quantifier()
        if t.kind == "op" and t.text in ("λ", "%"):
            return self.lam()
        if t.kind == "op" and t.text in ("∑", "∏"):
            return self.bigop()
        if t.kind == "ident" and t.text in BINDER_CONSTS:
            return self.binder_const()
        if t.kind == "ident" and t.text == "if":
            return self.ite()
        if t.kind == "ident" and t.text == "let":
            return self.let()
        if t.kind == "ident" and t.text == "case":
            raise ElabError("`case` expressions are not supported: state the cases as separate assumptions", t.pos)
        return self.application()

    # ---- application -------------------------------------------------------------------------
    def application(self) -> PreTerm:
        head_tok = self.peek()
        if head_tok.kind == "ident" and head_tok.text not in KEYWORDS and self._is_constant(head_tok.text):
            self.next()
            args = self.arguments()
            return self.apply_const(head_tok.text, args, head_tok.pos)
        head = self.atom()
        args = self.arguments()
        return self.inf.apply_term(head, args, head_tok.pos) if args else head

    def arguments(self) -> list[PreTerm]:
        args: list[PreTerm] = []
        while self.starts_atom(self.peek()):
            t = self.peek()
            if t.kind == "ident" and self._is_constant(t.text) and t.text not in NULLARY:
                self.next()
                args.append(self.apply_const(t.text, [], t.pos))
                args[-1] = self.postfix(args[-1])
            else:
                args.append(self.atom())
        return args

    def postfix(self, t: PreTerm) -> PreTerm:
        while self.at("⇧"):
            pos = self.next().pos
            n = self.next()
            if n.kind != "num":
                raise ElabError("expected a number after ⇧ (x\\<^sup>2)", n.pos)
            self.inf.require(t.sort, "num", pos, "a power")
            t = PreApp("pow", (t, PreNum(_numeral(n), NAT)), t.sort)
        return t

    # ---- atoms ---------------------------------------------------------------------------------
    def atom(self) -> PreTerm:
        return self.postfix(self._atom())

    def _atom(self) -> PreTerm:
        t = self.next()
        if t.kind == "num":
            value = _numeral(t)
            if isinstance(value, Fraction):
                return PreNum(value, self.inf.fresh("num", "field"))
            return PreNum(value, self.inf.fresh("num"))
        if t.kind == "ident":
            if t.text in INFIX:
                raise ElabError(f"`{t.text}` is an infix operator in HOL: write a {t.text} b", t.pos)
            if t.text in KEYWORDS:
                raise ElabError(f"unexpected keyword {t.text!r}", t.pos)
            return self.name(t)
        if t.kind == "op":
            if t.text == "(":
                return self.paren(t)
            if t.text == "{":
                return self.set_expr(t)
            if t.text == "[":
                return self.list_expr(t)
            if t.text in ("⌊", "⌈"):
                close = "⌋" if t.text == "⌊" else "⌉"
                a = self.expr(0)
                self.expect(close, f"to close {t.text}")
                return self.apply_const("floor" if close == "⌋" else "ceiling", [a], t.pos)
            if t.text == "¦":
                a = self.expr(0)
                self.expect("¦", "to close ¦")
                return self.apply_const("abs", [a], t.pos)
            if t.text in ("ℤ", "ℕ", "ℚ", "ℝ"):
                name = {"ℤ": "Ints", "ℕ": "Nats", "ℚ": "Rats", "ℝ": "Reals"}[t.text]
                return PreSym(name, (), SetSort(self.inf.fresh("num")))
            if t.text == "ⅈ":
                return PreApp("I", (), COMPLEX)
            if t.text == "π":
                return PreApp("pi", (), REAL)
            if t.text == "∅":
                return PreApp("set_of", (), SetSort(self.inf.fresh()))
        if t.kind == "eof":
            raise ElabError("the term ends too early (a missing operand?)", t.pos)
        if t.kind == "tvar":
            raise ElabError(
                f"{t.text} is a type variable, not a term (HOL has no 'x' string or character literals here: use a name)", t.pos)
        if t.text in ("[:", ":]"):
            raise ElabError("polynomial literals [:a, b, c:] are not supported: write the polynomial as a term in x", t.pos)
        if t.text in ("...", "…"):
            raise ElabError("an ellipsis … is not a HOL term: write the sum or product with ∑ / ∏", t.pos)
        if t.text == "∞":
            raise ElabError("∞ (extended reals) is not supported", t.pos)
        raise ElabError(f"unexpected {t.text!r} where a term was expected", t.pos)

    def name(self, t: Token) -> PreTerm:
        for frame in reversed(self.bound):
            if t.text in frame:
                return frame[t.text]
        if t.text in self.scope.fixed:
            return self.scope.fixed[t.text]
        if t.text in CONSTS:
            return self.apply_const(t.text, [], t.pos)
        if t.text not in self.scope.implicit:
            if t.text in OUTER_KEYWORDS:
                raise ElabError(f"`{t.text}` is a statement keyword, not a variable: is a closing quote missing?", t.pos)
            self.scope.implicit[t.text] = PreVar(t.text, self.inf.untyped(t.text))
        return self.scope.implicit[t.text]

    def _is_constant(self, name: str) -> bool:
        if name not in CONSTS:
            return False
        if any(name in f for f in self.bound) or name in self.scope.fixed:
            return False
        return True

    def paren(self, open_tok: Token) -> PreTerm:
        if self.at(")"):
            raise ElabError("() (unit) is not supported", open_tok.pos)
        items = [self.expr(0)]
        while self.at(","):
            self.next()
            items.append(self.expr(0))
        self.expect(")", "to close (")
        if len(items) == 1:
            return items[0]
        out = items[-1]
        for a in reversed(items[:-1]):
            out = pair(a, out)
        return out

    def read_type(self) -> Sort:
        r = TypeReader(self.toks, self.i, self.inf.sorts)
        try:
            s = r.read()
        except LexError as e:
            raise ElabError(e.reason, e.pos) from None
        self.i = r.i
        return s

    def list_expr(self, open_tok: Token) -> PreTerm:
        elem = self.inf.fresh()
        if self.at("]"):
            self.next()
            return PreSym("list", (), ListSort(elem))
        first = self.expr(0)
        self.inf.unify(first.sort, elem, open_tok.pos, "a list")
        if self.at("..<", ".."):
            op = self.next().text
            hi = self.expr(0)
            self.expect("]", "to close [")
            self.inf.unify(hi.sort, elem, open_tok.pos, "a list range")
            self.inf.require(elem, "integral", open_tok.pos, "a list range")
            return PreSym("upt" if op == "..<" else "upto", (first, hi), ListSort(elem))
        if self.at("."):
            raise ElabError("list comprehensions [… . x ← xs] are not supported", self.peek().pos)
        items = [first]
        while self.at(","):
            self.next()
            it = self.expr(0)
            self.inf.unify(it.sort, elem, open_tok.pos, "a list literal")
            items.append(it)
        self.expect("]", "to close [")
        return PreSym("list", tuple(items), ListSort(elem))

    # ---- sets ------------------------------------------------------------------------------------
    def set_expr(self, open_tok: Token) -> PreTerm:
        pos = open_tok.pos
        if self.at("}"):
            self.next()
            return PreApp("set_of", (), SetSort(self.inf.fresh()))
        if self.at("..", "..<"):
            op = self.next().text
            hi = self.expr(0)
            self.expect("}", "to close {")
            self.inf.require(hi.sort, "ord", pos, "an interval")
            return PreApp("isa:lessThan" if op == "..<" else "isa:atMost", (hi,), SetSort(hi.sort))
        bar = self._comprehension_bar()
        if bar is not None:
            return self._comprehension(bar, pos)
        builder = self._try_set_builder(pos)
        if isinstance(builder, PreSetBuilder):
            return builder
        first = builder if builder is not None else self.expr(31)
        if self.at("::"):
            tpos = self.next().pos
            first = self.inf.coerce(first, self.read_type(), tpos, "a type annotation")
        for ops, kind in ((("..",), "Icc"), (("..<",), "Ico"), (("<..",), "Ioc"), (("<..<",), "Ioo")):
            if self.at(*ops):
                self.next()
                if self.at("}") and kind in ("Icc", "Ioc"):
                    self.next()
                    self.inf.require(first.sort, "ord", pos, "an interval")
                    sym = "atLeast" if kind == "Icc" else "greaterThan"
                    return PreSym(sym, (first,), SetSort(first.sort))
                hi = self.expr(0)
                self.expect("}", "to close {")
                self.inf.unify(first.sort, hi.sort, pos, "an interval")
                self.inf.require(first.sort, "ord", pos, "an interval")
                return PreApp(kind, (first, hi), SetSort(first.sort))
        if self.at(",") and self.peek(1).kind == "num" and self.peek(2).text == "..":
            raise ElabError("stepped ranges {a, b..c} are not HOL syntax", self.peek().pos)
        items = [first]
        while self.at(","):
            self.next()
            it = self.expr(0)
            self.inf.unify(it.sort, first.sort, pos, "a set literal")
            items.append(it)
        self.expect("}", "to close {")
        return PreApp("set_of", tuple(items), SetSort(first.sort))

    def _try_set_builder(self, pos: int) -> PreTerm | None:
        """``{x. P}``, ``{x::T. P}``, ``{x ∈ A. P}``, ``{(a, b). P}`` as a SetBuilder; for ``{x ∈ A …}``
        that is no builder, the first element (read once, never re-read); None otherwise."""
        t0, t1 = self.peek(), self.peek(1)
        if t0.kind == "ident" and t1.text in (".", "::") and t0.text not in KEYWORDS:
            if t1.text == "::":  # {x::T. P} vs {x :: T} (a singleton): look for the dot
                start = self.i
                self.next()
                self.next()
                s = self.read_type()
                if not self.at("."):
                    self.i = start
                    return None
                self.next()
                v = PreVar(t0.text, s)
            else:
                self.next()
                self.next()
                v = PreVar(t0.text, self.inf.fresh())
            self.bound.append({v.name: v})
            body = self.formula(0)
            self.bound.pop()
            self.expect("}", "to close {x. P}")
            return PreSetBuilder(v, body)
        if t0.kind == "ident" and t1.text == "∈":
            self.next()
            mem_pos = self.next().pos
            dom = self.expr(51)
            if not self.at("."):  # not a builder: {x ∈ A, …} or {x ∈ A ∧ …}; keep what was read
                return self.expr(31, left=self.binary("mem", self.name(t0), dom, mem_pos))
            self.next()
            v = PreVar(t0.text, self.inf.fresh())
            self.inf.unify(dom.sort, SetSort(v.sort), pos, "{x ∈ A. P}")
            self.bound.append({v.name: v})
            body = self.formula(0)
            self.bound.pop()
            self.expect("}", "to close {x ∈ A. P}")
            return PreSetBuilder(v, PreApp("and", (PreApp("mem", (v, dom), BOOL), body), BOOL))
        if t0.text == "(":
            # {(a, b). P}: a tuple of plain names followed by "."
            j, names = 1, []
            while self.peek(j).kind == "ident" and self.peek(j + 1).text in (",", ")"):
                names.append(self.peek(j).text)
                if self.peek(j + 1).text == ")":
                    break
                j += 2
            if len(names) >= 2 and self.peek(j + 1).text == ")" and self.peek(j + 2).text in (".", "∈"):
                self.i += j + 2
                vs = [PreVar(n, self.inf.fresh()) for n in names]
                dom = None
                if self.at("∈"):
                    self.next()
                    dom = self.expr(51)
                self.expect(".", "after the pattern of {(a, b). P}")
                self.bound.append({v.name: v for v in vs})
                body = self.formula(0)
                self.bound.pop()
                self.expect("}", "to close {(a, b). P}")
                pattern: PreTerm = vs[-1]
                for v in reversed(vs[:-1]):
                    pattern = pair(v, pattern)
                if dom is not None:
                    self.inf.unify(dom.sort, SetSort(pattern.sort), pos, "{(a, b) ∈ A. P}")
                    body = PreApp("and", (PreApp("mem", (pattern, dom), BOOL), body), BOOL)
                z = self.inf.fresh_var("p", pattern.sort)
                eq = PreApp("eq", (z, pattern), BOOL)
                return PreSetBuilder(z, PreQuant("exists", tuple(vs), PreApp("and", (eq, body), BOOL)))
        return None

    def _comprehension_bar(self) -> int | None:
        """Index of the ``|`` of ``{t | x y. P}`` when the braces hold one (a depth-0 ``|``
        followed by variable names and ``.``), found by scanning tokens, so ``t`` is read once
        with ``x y`` already bound."""
        if self.peek().kind == "ident" and self.peek(1).text in (".", "::"):
            return None  # {x. P} / {x::T. P}
        depth, j = 0, self.i
        while j < len(self.toks):
            t = self.toks[j]
            if t.kind == "eof":
                return None
            if t.kind == "op" and t.text in ("(", "[", "{", "⟦"):
                depth += 1
            elif t.kind == "op" and t.text in (")", "]", "}", "⟧"):
                if depth == 0:
                    return None
                depth -= 1
            elif depth == 0 and t.kind == "op" and t.text == ",":
                return None
            elif depth == 0 and t.kind == "op" and t.text == "|":
                k = j + 1
                while self.toks[k].kind == "ident" or self.toks[k].text in ("::", "(", ")") or self.toks[k].kind == "tvar":
                    k += 1
                return j if k > j + 1 and self.toks[k].text == "." else None
            j += 1
        return None

    def _comprehension(self, bar: int, pos: int) -> PreTerm:
        """``{t | x y. P}`` = ``{z. ∃x y. z = t ∧ P}`` (``{x | x. P}`` is ``{x. P}``)."""
        start = self.i
        self.i = bar + 1
        vs = self.binder_vars(pos)
        self.expect(".", "after the variables of {t | x. P}")
        body_start = self.i
        self.i = start
        self.bound.append({v.name: v for v in vs})
        pattern = self.expr(31)
        if self.i != bar:
            self.expect("|", "in {t | x. P}")
        self.i = body_start
        body = self.formula(0)
        self.bound.pop()
        self.expect("}", "to close {t | x. P}")
        if len(vs) == 1 and pattern == vs[0]:
            return PreSetBuilder(vs[0], body)
        z = self.inf.fresh_var("z", pattern.sort)
        return PreSetBuilder(z, PreQuant("exists", tuple(vs), PreApp("and", (PreApp("eq", (z, pattern), BOOL), body), BOOL)))

    # ---- binders -----------------------------------------------------------------------------------
    def binder_vars(self, pos: int) -> list[PreVar]:
        vs: list[PreVar] = []
        while True:
            t = self.peek()
            if t.kind == "ident" and t.text not in KEYWORDS:
                self.next()
                s: Sort = self.inf.untyped(t.text)
                if self.at("::"):
                    self.next()
                    s = self.read_type()
                vs.append(PreVar(t.text, s))
                continue
            if t.text == "(" and self.peek(1).kind == "ident":
                self.next()
                names = []
                while self.peek().kind == "ident" and self.peek().text not in KEYWORDS:
                    names.append(self.next().text)
                s = self.inf.fresh()
                if self.at("::"):
                    self.next()
                    s = self.read_type()
                if self.at(","):
                    raise ElabError("a tuple pattern (x, y) must be the only binder here: bind x and y separately", self.peek().pos)
                self.expect(")", "to close a typed binder (x::T)")
                vs.extend(PreVar(n, s) for n in names)
                continue
            break
        if not vs:
            raise ElabError("expected a variable after the binder", self.peek().pos)
        return vs

    def tuple_pattern(self) -> tuple[list[PreVar], PreTerm] | None:
        """``(a, b, c)`` in binder position: its variables and the pattern term (nested pairs)."""
        if not (self.at("(") and self.peek(1).kind == "ident" and self.peek(2).text == ","):
            return None
        self.next()
        vs: list[PreVar] = []
        while True:
            t = self.next()
            if t.kind != "ident" or t.text in KEYWORDS:
                raise ElabError("expected a variable name in the tuple pattern (a, b)", t.pos)
            s: Sort = self.inf.untyped(t.text)
            if self.at("::"):
                self.next()
                s = self.read_type()
            vs.append(PreVar(t.text, s))
            if self.at(","):
                self.next()
                continue
            self.expect(")", "to close the tuple pattern (a, b)")
            break
        pattern: PreTerm = vs[-1]
        for v in reversed(vs[:-1]):
            pattern = pair(v, pattern)
        return vs, pattern

    def projections(self, pattern: PreTerm, p: PreTerm) -> dict[PreVar, PreTerm]:
        """Each variable of a tuple pattern as fst/snd of ``p``."""
        out: dict[PreVar, PreTerm] = {}
        while isinstance(pattern, PreSym) and pattern.symbol == "Pair":
            a, rest = pattern.args
            out[a] = PreSym("fst", (p,), a.sort)  # type: ignore[index]
            p = PreSym("snd", (p,), rest.sort)
            pattern = rest
        out[pattern] = p  # type: ignore[index]
        return out

    def quantifier(self) -> PreTerm:
        t = self.next()
        kind = BINDERS[t.text]
        tup = self.tuple_pattern()
        if tup is not None:  # ∀(x, y) ∈ A. P  ==  ∀x y. (x, y) ∈ A ⟶ P
            vs, pattern = tup
            guard = None
            if self.at("∈"):
                gpos = self.next().pos
                guard = self.binary("mem", pattern, self.expr(51), gpos)
            self.expect(".", f"after the pattern of {t.text}")
            self.bound.append({v.name: v for v in vs})
            body = self.formula(0)
            self.bound.pop()
            if kind not in ("forall", "exists"):
                raise ElabError(f"a tuple pattern after {t.text} is not supported", t.pos)
            if guard is not None:
                body = PreApp("implies" if kind == "forall" else "and", (guard, body), BOOL)
            return PreQuant(kind, tuple(vs), body)
        vs = self.binder_vars(t.pos)
        guard_op = None
        if self.at("∈", "<", "≤", ">", "≥", "≠", "⊆", "<=", ">="):
            guard_op = self.next()
            bound_t = self.expr(51)
        self.expect(".", f"after the variables of {t.text}")
        self.bound.append({v.name: v for v in vs})
        body = self.formula(0)
        self.bound.pop()
        if guard_op is not None:
            guards = [self.binary(INFIX[guard_op.text][2], v, bound_t, guard_op.pos) for v in vs]
            g = guards[0] if len(guards) == 1 else PreApp("and", tuple(guards), BOOL)
            if kind in ("forall",):
                body = PreApp("implies", (g, body), BOOL)
            elif kind == "exists1" and len(vs) == 1:
                body = PreApp("and", (g, body), BOOL)
            else:
                body = PreApp("and", (g, body), BOOL)
        if kind == "exists1":
            if len(vs) != 1:
                raise ElabError("∃! binds exactly one variable here; nest ∃!x. ∃!y. … explicitly", t.pos)
            return PreQuant("exists1", tuple(vs), body)
        if kind == "nexists":
            return PreApp("not", (PreQuant("exists", tuple(vs), body),), BOOL)
        return PreQuant(kind, tuple(vs), body)

    def lam(self) -> PreTerm:
        t = self.next()
        tup = self.tuple_pattern()
        if tup is not None:  # λ(x, y). t  ==  λp. t[x := fst p, y := snd p]
            comps, pattern = tup
            self.expect(".", "after the pattern of λ")
            self.bound.append({v.name: v for v in comps})
            body = self.expr(0)
            self.bound.pop()
            p = self.inf.fresh_var("p", pattern.sort)
            return PreLam((p,), substitute(body, self.projections(pattern, p)))
        vs = self.binder_vars(t.pos)
        self.expect(".", "after the variables of λ")
        self.bound.append({v.name: v for v in vs})
        body = self.expr(0)
        self.bound.pop()
        out: PreTerm = body
        for v in reversed(vs):
            out = PreLam((v,), out)
        return out

    def bigop(self) -> PreTerm:
        t = self.next()
        kind = "sum" if t.text == "∑" else "prod"
        if self.at("_"):
            raise ElabError(f"{t.text}_ is not HOL syntax", self.peek().pos)
        tup = self.tuple_pattern()
        if tup is not None:
            return self.bigop_tuple(t, kind, *tup)
        vs = self.binder_vars(t.pos)
        if len(vs) != 1:
            raise ElabError(f"{t.text} binds one variable here", t.pos)
        v = vs[0]
        pos = self.peek().pos
        if self.at(".") and kind == "sum":  # ∑n. f n: an infinite series (suminf)
            self.next()
            self.bound.append({v.name: v})
            body = self.expr(0)
            self.bound.pop()
            self.inf.unify(v.sort, NAT, pos, "∑n. f n (a series is indexed by nat)")
            return PreSym("suminf", (PreLam((v,), body),), body.sort)
        if self.at("∈"):
            self.next()
            dom = self.expr(51)
            self.inf.unify(dom.sort, SetSort(v.sort), pos, f"{t.text}x∈A")
        elif self.at("="):
            self.next()
            lo = self.expr(51)
            if not self.at(".."):
                raise ElabError(f"expected .. in {t.text}i=a..b", self.peek().pos)
            self.next()
            hi = self.expr(51)
            self.inf.unify(lo.sort, v.sort, pos, "a summation range")
            self.inf.unify(hi.sort, v.sort, pos, "a summation range")
            self.inf.require(v.sort, "ord", pos, "a summation range")
            dom = PreApp("Icc", (lo, hi), SetSort(v.sort))
        elif self.at("<", "≤", "<="):
            op = self.next().text
            hi = self.expr(51)
            self.inf.unify(hi.sort, v.sort, pos, "a summation bound")
            self.inf.require(v.sort, "ord", pos, "a summation bound")
            dom = PreApp("isa:lessThan" if op == "<" else "isa:atMost", (hi,), SetSort(v.sort))
        elif self.at("|"):
            self.next()
            self.bound.append({v.name: v})
            cond = self.formula(31)
            self.bound.pop()
            dom = PreSetBuilder(v, cond)
        else:
            raise ElabError(f"{t.text} needs a range: {t.text}i∈A. …, {t.text}i=a..b. … or {t.text}i<n. …", self.peek().pos)
        self.expect(".", f"after the range of {t.text}")
        self.bound.append({v.name: v})
        body = self.expr(0)
        self.bound.pop()
        self.inf.require(body.sort, "num", t.pos, f"the body of {t.text}")
        return PreBigOp(kind, v, dom, body)

    def bigop_tuple(self, t: Token, kind: str, comps: list[PreVar], pattern: PreTerm) -> PreTerm:
        """``∑(a, b) ∈ A. f a b`` and ``∑(a, b) | P a b. f a b``: a sum over pairs."""
        p = self.inf.fresh_var("p", pattern.sort)
        proj = self.projections(pattern, p)
        pos = self.peek().pos
        if self.at("∈"):
            self.next()
            dom = self.expr(51)
            self.inf.unify(dom.sort, SetSort(p.sort), pos, f"{t.text}(a, b)∈A")
        elif self.at("|"):
            self.next()
            self.bound.append({v.name: v for v in comps})
            cond = self.formula(31)
            self.bound.pop()
            dom = PreSetBuilder(p, substitute(cond, proj))
        else:
            raise ElabError(f"{t.text} over a tuple pattern needs ∈ A or | P", self.peek().pos)
        self.expect(".", f"after the range of {t.text}")
        self.bound.append({v.name: v for v in comps})
        body = self.expr(0)
        self.bound.pop()
        self.inf.require(body.sort, "num", t.pos, f"the body of {t.text}")
        return PreBigOp(kind, p, dom, substitute(body, proj))

    def binder_const(self) -> PreTerm:
        t = self.next()
        vs = self.binder_vars(t.pos)
        if t.text in ("INF", "SUP"):  # INF x y. f x y: the infimum of the values (a number)
            self.expect(".", f"after the variables of {t.text}")
            self.bound.append({v.name: v for v in vs})
            body = self.expr(0)
            self.bound.pop()
            self.inf.require(body.sort, "ord", t.pos, t.text)
            return PreSym(t.text, (PreLam(tuple(vs), body),), body.sort)
        if len(vs) != 1:
            raise ElabError(f"{t.text} binds one variable", t.pos)
        v = vs[0]
        self.expect(".", f"after the variable of {t.text}")
        self.bound.append({v.name: v})
        body = self.formula(0)
        self.bound.pop()
        if t.text in ("GREATEST", "LEAST"):
            self.inf.require(v.sort, "ord", t.pos, t.text)
        return PreSym(t.text, (PreLam((v,), body),), v.sort)

    def ite(self) -> PreTerm:
        t = self.next()
        c = self.formula(0)
        self.expect("then", "in if … then … else")
        a = self.expr(0)
        self.expect("else", "in if … then … else")
        b = self.expr(0)
        a, b = self.inf.join(a, b, t.pos, "the branches of if-then-else")
        return PreApp("ite", (c, a, b), a.sort)

    def let(self) -> PreTerm:
        t = self.next()
        binds: list[tuple[PreVar, PreTerm]] = []
        while True:
            n = self.next()
            if n.kind != "ident":
                raise ElabError("expected a name after let", n.pos)
            self.expect("=", "in let x = t in …")
            val = self.expr(0)
            binds.append((PreVar(n.text, val.sort), val))
            if self.at(";"):
                self.next()
                continue
            break
        self.expect("in", "after let x = t")
        self.bound.append({v.name: v for v, _ in binds})
        body = self.expr(0)
        self.bound.pop()
        for v, val in reversed(binds):
            body = substitute(body, {v: val})
        del t
        return body

    # ---- operators ---------------------------------------------------------------------------------
    def binary(self, name: str, a: PreTerm, b: PreTerm, pos: int) -> PreTerm:
        handler = BINARY.get(name)
        if handler is None:
            raise ElabError(f"operator {name} is not supported", pos)
        try:
            return handler(self.inf, a, b, pos)
        except ElabError as e:
            if name in _RELATIONS and isinstance(a, PreApp) and a.op in _REL_OPS and not e.hints:
                raise ElabError(
                    f"{e.reason} — a chained relation a = b = c (or a < b = c) reads as (a = b) = c in "
                    "Isabelle: write a = b ∧ b = c", e.pos) from None
            raise

    def apply_const(self, name: str, args: list[PreTerm], pos: int) -> PreTerm:
        arity, build = CONSTS[name]
        self.inf.refuse_tuple_call(name, args, arity, pos)
        if len(args) < arity:
            extra = [self.inf.fresh_var("x", self.inf.fresh()) for _ in range(arity - len(args))]
            body = build(self.inf, [*args, *extra], pos)
            out: PreTerm = body
            for v in reversed(extra):
                out = PreLam((v,), out)
            return out
        t = build(self.inf, args[:arity], pos)
        rest = args[arity:]
        return self.inf.apply_term(t, rest, pos) if rest else t


_RELATIONS = frozenset({"eq", "ne", "lt", "le", "gt", "ge"})
_REL_OPS = frozenset({"isa:eq", "ne", "lt", "le", "gt", "ge"})

