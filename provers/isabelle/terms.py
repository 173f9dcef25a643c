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

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from provers.errors import InputTooLargeError
from provers.ir import (
    BOOL,
    COMPLEX,
    NAT,
    ORDER_OPS,
    REAL,
    RELATION_OPS,
    ListSort,
    OpaqueSort,
    SetSort,
    Sort,
)
from provers.isabelle.binders import BinderForms
from provers.isabelle.constants import BINARY, CONSTS, NULLARY, POLY_LITERAL
from provers.isabelle.inference import ElabError, Inference
from provers.isabelle.lexer import LexError, Token
from provers.isabelle.notation import (
    ATOM_START_OPS,
    BINDER_CONSTS,
    BINDERS,
    INFIX,
    KEYWORDS,
    OUTER_KEYWORDS,
)
from provers.isabelle.preterm import (
    PreApp,
    PreLam,
    PreNum,
    PreSym,
    PreTerm,
    PreVar,
    pairs,
)
from provers.isabelle.sets import SetNotation
from provers.isabelle.types import BASE_TYPES, TypeReader


@dataclass
class Scope:
    """Names a term can refer to: theorem variables and implicitly fixed free variables."""

    fixed: dict[str, PreVar]
    implicit: dict[str, PreVar]


MAX_DEPTH = 200
MAX_STEPS = 20_000  # Pratt-loop entries per statement (real candidates need < 200)
MAX_NUMERAL_DIGITS = 4_000  # Python refuses to convert longer digit strings to int


def _numeral(tok: Token) -> int | Fraction:
    """The value of a numeral token; a too-long one is an input error, not a ValueError."""
    digits = sum(ch.isdigit() for ch in tok.text)
    if digits > MAX_NUMERAL_DIGITS:
        raise InputTooLargeError(f"a numeral of {digits} digits; the limit is {MAX_NUMERAL_DIGITS}")
    return Fraction(tok.text) if "." in tok.text else int(tok.text)


class TermParser(BinderForms, SetNotation):
    """Parses one quoted term at a time; all terms of a statement share one ``Inference``.
    Binding forms are in ``binders.py``, what stands between braces in ``sets.py``."""

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

    def within(self, vs: list[PreVar], read: Callable[[], PreTerm]) -> PreTerm:
        """``read()`` with the variables ``vs`` in scope (the body of a binder)."""
        self.bound.append({v.name: v for v in vs})
        out = read()
        self.bound.pop()
        return out

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
                    if assoc == "none" and self.peek().text in INFIX and INFIX[self.peek().text][0] == prec and INFIX[self.peek().text][2] in ORDER_OPS:
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
                    target = self.read_type()
                    if isinstance(left, PreSym) and left.symbol == POLY_LITERAL and isinstance(target, OpaqueSort) \
                            and (base := BASE_TYPES.get(target.name.removesuffix(" poly"))) is not None:
                        for c in left.args:  # ([:k, 4, 5:] :: real poly): real coefficients
                            self.inf.unify(c.sort, base, t.pos, "the coefficients of a polynomial literal")
                        continue
                    left = self.inf.coerce(left, target, t.pos, "a type annotation")
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
        return t.kind == "op" and t.text in ATOM_START_OPS

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
            if head_tok.text == "poly" and args and isinstance(self.inf.shallow(args[0].sort), ListSort):
                return self.inf.apply_term(self._implicit("poly"), args, head_tok.pos)
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
        if t.text == "[:":
            return self.poly_literal(t)
        if t.text == ":]":
            raise ElabError(":] closes no polynomial literal [:a, b, c:]", t.pos)
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
        if t.text not in self.scope.implicit and t.text in OUTER_KEYWORDS:
            raise ElabError(f"`{t.text}` is a statement keyword, not a variable: is a closing quote missing?", t.pos)
        return self._implicit(t.text)

    def _implicit(self, name: str) -> PreVar:
        """The implicitly fixed free variable ``name`` (one per statement). ``poly`` of a list (``poly [1, 7, -11, -2]
        a``) is one: Complex_Main has no ``poly`` (HOL-Computational_Algebra's takes a ``'a
        poly``, never a list), so Isabelle reads the name as a variable and the statement is
        about every such function."""
        if name not in self.scope.implicit:
            self.scope.implicit[name] = PreVar(name, self.inf.untyped(name))
        return self.scope.implicit[name]

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
        return pairs(items)

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

    def poly_literal(self, open_tok: Token) -> PreTerm:
        """``[:c₀, c₁, …:]``: its coefficients, for ``poly`` to read (``constants._poly``)."""
        elem = self.inf.fresh("num")
        items: list[PreTerm] = []
        while not self.at(":]"):
            if items:
                self.expect(",", "between the coefficients of [:…:]")
            it = self.expr(0)
            self.inf.unify(it.sort, elem, open_tok.pos, "a polynomial literal")
            items.append(it)
        self.next()
        return PreSym(POLY_LITERAL, tuple(items), OpaqueSort("poly"))

    def ite(self) -> PreTerm:
        t = self.next()
        c = self.formula(0)
        self.expect("then", "in if … then … else")
        a = self.expr(0)
        self.expect("else", "in if … then … else")
        b = self.expr(0)
        a, b = self.inf.join(a, b, t.pos, "the branches of if-then-else")
        return PreApp("ite", (c, a, b), a.sort)

    # ---- operators ---------------------------------------------------------------------------------
    def binary(self, name: str, a: PreTerm, b: PreTerm, pos: int) -> PreTerm:
        handler = BINARY.get(name)
        if handler is None:
            raise ElabError(f"operator {name} is not supported", pos)
        try:
            return handler(self.inf, a, b, pos)
        except ElabError as e:
            if name in RELATION_OPS and isinstance(a, PreApp) and a.op in _REL_OPS and not e.hints:
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


_REL_OPS = frozenset({"isa:eq", "ne", "lt", "le", "gt", "ge"})

