"""HOL inner syntax -> IR terms, elaborated with Hindley–Milner sort inference.

A Pratt parser with Isabelle's priorities (HOL.thy, Orderings.thy, Groups.thy, Rings.thy,
Set.thy): ``⟹`` 1, ``⟶``/``⟷`` 25 right, ``∨`` 30 right, ``∧`` 35 right, ``¬`` 40,
``=``/``≠``/``<``/``≤``/``∈``/``⊆``/``dvd`` 50, ``∘`` 55, ``+``/``-``/``∪`` 65 left,
``*``/``/``/``div``/``mod``/``∩`` 70 left, ``^``/``powr`` 80 right, unary ``-`` 80,
`` ` `` 90, application 1000. Binders (``∀ ∃ ∃! λ ∑ ∏ THE GREATEST LEAST``) extend as
far right as possible.

Terms are built directly as IR nodes whose sorts may still contain type variables; a few
operations whose IR meaning depends on the sort (``div``, ``mod``, ``/``, ``dvd``, ``abs``,
``=`` on bool, ``-`` on sets) carry a provisional ``isa:`` name until ``Elaborator.finish``
resolves every sort and picks the one IR operation (``fdiv``/``fmod`` on int, ...).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from provers.ir import (
    BOOL,
    COMPLEX,
    INT,
    NAT,
    ORDER_OPS,
    RAT,
    REAL,
    RELATION_OPS,
    App,
    BigOp,
    FunSort,
    Lam,
    ListSort,
    Num,
    Quant,
    SetBuilder,
    SetSort,
    Sort,
    Term,
    Uninterpreted,
    Var,
    is_numeric,
    substitute,
)
from provers.isabelle.lexer import LexError, Token
from provers.isabelle.types import Prod, TVar, TypeClash, TypeReader, Unifier, show_sort

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


def pending_num(value: int | Fraction, sort: Sort) -> Num:
    """A numeral whose sort is still a type variable: ``Num`` validates its sort on
    construction, so the check is deferred to ``Finisher`` (which builds a checked Num)."""
    if not isinstance(sort, TVar):
        return Num(value, sort)
    n = object.__new__(Num)
    object.__setattr__(n, "value", value)
    object.__setattr__(n, "sort", sort)
    return n


class ElabError(Exception):
    """Syntax or sort error at an offset of the decoded text."""

    def __init__(self, reason: str, pos: int, hints: dict[tuple[str, int], Sort] | None = None):
        super().__init__(reason)
        self.reason, self.pos = reason, pos
        #: sorts for unannotated variables that would make the statement typecheck (see
        #: ``Elaborator.hints``): the parser retries with them, as Isabelle's coercion
        #: inference would have picked the narrower type for those variables
        self.hints = hints or {}


@dataclass
class Scope:
    """Names a term can refer to: theorem variables and implicitly fixed free variables."""

    fixed: dict[str, Var]
    implicit: dict[str, Var]


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
        from provers.errors import InputTooLargeError

        raise InputTooLargeError(f"a numeral of {digits} digits; the limit is {MAX_NUMERAL_DIGITS}")
    return Fraction(tok.text) if "." in tok.text else int(tok.text)


class Elaborator:
    """Parses one quoted term at a time; all terms of a statement share one ``Unifier``."""

    def __init__(self, text: str, uni: Unifier, scope: Scope):
        self.text, self.uni, self.scope = text, uni, scope
        self.toks: list[Token] = []
        self.i = 0
        self.bound: list[dict[str, Var]] = []
        self.depth = 0
        self.steps = 0
        self.fresh_count = 0
        self.coercions: list[str] = []
        #: (name, occurrence) -> sort for variables written without a type (filled by the
        #: parser's retry loop); the occurrence number keeps two different ∀n. apart
        self.hints: dict[tuple[str, int], Sort] = {}
        self.occurrences: dict[str, int] = {}
        self.untyped_keys: dict[Var, tuple[str, int]] = {}

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

    def unify(self, a: Sort, b: Sort, pos: int, what: str) -> None:
        try:
            self.uni.unify(a, b)
        except TypeClash as e:
            raise ElabError(f"type error in {what}: {e}", pos) from None

    def require(self, s: Sort, cls: str, pos: int, what: str) -> None:
        try:
            self.uni.require(s, cls)
        except TypeClash as e:
            raise ElabError(f"type error in {what}: {e}", pos) from None

    # ---- coercions (Isabelle's of_nat/of_int/of_real coercion inference, greedily) -------------
    def untyped(self, name: str) -> Sort:
        """The sort of a variable written without a type: a fresh type variable, or the
        hint a previous attempt found for this occurrence of the name."""
        k = self.occurrences.get(name, 0)
        self.occurrences[name] = k + 1
        key = (name, k)
        if key in self.hints:
            return self.hints[key]
        s = self.uni.fresh()
        self.untyped_keys[Var(name, s)] = key
        return s

    def _narrowing_hint(self, t: Term, target: Sort, pos: int, what: str) -> None:
        """``t`` is wider than ``target`` (int where nat is needed): if unannotated variables
        made it so, ask the parser to retry with them at ``target`` (Isabelle's coercion
        inference gives such a variable the narrower type and coerces it elsewhere)."""
        from provers.ir import free_vars

        keys = {self.untyped_keys[v] for v in free_vars(t) if v in self.untyped_keys}
        if keys:
            raise ElabError(f"type error in {what}: {show_sort(self._base(t.sort))} vs {show_sort(target)}", pos,
                            hints={key: target for key in keys})

    def _coerced(self, t: Term, target: Sort) -> Term:
        """A coercion Isabelle would insert (of_nat / of_int / of_real); recorded for the notes."""
        if not isinstance(t, Num):
            self.coercions.append(f"{show_short(t)} from {show_sort(self._base(t.sort))} to {show_sort(target)}")
        return App("cast", (t,), target)

    def _base(self, s: Sort) -> Sort:
        return self.uni.shallow(s)

    def coerce(self, t: Term, target: Sort, pos: int, what: str) -> Term:
        """``t`` at sort ``target``: unify, or embed a narrower number type into a wider one."""
        a, b = self._base(t.sort), self._base(target)
        if a != b and is_numeric(a) and is_numeric(b) and _widens(a, b):
            return self._coerced(t, b)
        if a != b and is_numeric(a) and is_numeric(b) and _widens(b, a):
            self._narrowing_hint(t, b, pos, what)
        if is_numeric(a) and isinstance(b, TVar):
            lifted = self._lift_sort(a, self.uni.classes.get(b.id, set()))
            if lifted is not None and lifted != a:
                self.unify(b, lifted, pos, what)
                return self._coerced(t, lifted)
        self.unify(t.sort, target, pos, what)
        return t

    def _lift_sort(self, s: Sort, classes: set[str]) -> Sort | None:
        """The narrowest number type at or above ``s`` in every class (coercion target)."""
        from provers.ir import NUMERIC_ORDER
        from provers.isabelle.types import CLASSES

        for cand in NUMERIC_ORDER[NUMERIC_ORDER.index(s):]:
            if cand == RAT and s != RAT:
                continue  # Isabelle coerces nat → int → real (→ complex), never into rat
            if all(cand in CLASSES[c] for c in classes):
                return cand
        return None

    def lift(self, t: Term, cls: str, pos: int, what: str) -> Term:
        """Require class ``cls`` of ``t``'s sort, coercing a concrete number type upwards
        (``¦n - 3¦`` with n :: nat reads as ``¦int (n - 3)¦``, as Isabelle's coercions do)."""
        s = self._base(t.sort)
        if is_numeric(s):
            from provers.isabelle.types import CLASSES

            if s not in CLASSES[cls]:
                up = self._lift_sort(s, {cls})
                if up is not None:
                    return self._coerced(t, up)
        self.require(t.sort, cls, pos, what)
        return t

    def join(self, a: Term, b: Term, pos: int, what: str) -> tuple[Term, Term]:
        """Bring two operands to one sort (casting the narrower number type up)."""
        sa, sb = self._base(a.sort), self._base(b.sort)
        if sa != sb and is_numeric(sa) and is_numeric(sb):
            if _widens(sa, sb):
                return self._coerced(a, sb), b
            if _widens(sb, sa):
                return a, self._coerced(b, sa)
        if is_numeric(sa) and isinstance(sb, TVar):
            return self.coerce(a, sb, pos, what), b
        if is_numeric(sb) and isinstance(sa, TVar):
            return a, self.coerce(b, sa, pos, what)
        self.unify(a.sort, b.sort, pos, what)
        return a, b

    def to_field(self, a: Term, b: Term, pos: int) -> tuple[Term, Term]:
        """Operands of ``/``: nat and int operands are coerced to real (as Isabelle does)."""
        a, b = self.join(a, b, pos, "the two sides of /")
        s = self._base(a.sort)
        if s in (NAT, INT):
            return self._coerced(a, REAL), self._coerced(b, REAL)
        return a, b

    def fresh_var(self, base: str, sort: Sort) -> Var:
        self.fresh_count += 1
        return Var(f"{base}{self.fresh_count}'", sort)

    # ---- entry points --------------------------------------------------------------------
    def finish_input(self) -> None:
        t = self.peek()
        if t.kind == "ident" and t.text == "and":
            raise ElabError("`and` inside a quoted term: write ∧ (or close the quote: \"A\" and \"B\")", t.pos)
        if t.kind != "eof":
            raise ElabError(f"unexpected {t.text!r}: the term should end here (missing operator or parenthesis?)", t.pos)

    def parse_prop(self) -> tuple[list[Var], list[Term], Term]:
        """``⋀x. ⟦A; B⟧ ⟹ C`` -> (meta-bound variables, premises, conclusion)."""
        vars_: list[Var] = []
        hyps: list[Term] = []
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

    def formula(self, min_bp: int) -> Term:
        pos = self.peek().pos
        t = self.expr(min_bp)
        self.unify(t.sort, BOOL, pos, "a proposition (it must be a bool)")
        return t

    # ---- Pratt loop ----------------------------------------------------------------------
    def expr(self, min_bp: int, left: Term | None = None) -> Term:
        """Pratt loop; ``left`` resumes it after an operand that was already read."""
        self.depth += 1
        self.steps += 1
        if self.depth > MAX_DEPTH or self.steps > MAX_STEPS:
            from provers.errors import InputTooLargeError

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
                    left = self.coerce(left, self.read_type(), t.pos, "a type annotation")
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

    def prefix(self) -> Term:
        t = self.peek()
        if t.kind == "op" and t.text in ("¬", "~"):
            self.next()
            a = self.expr(40)
            self.unify(a.sort, BOOL, t.pos, "¬")
            return App("not", (a,), BOOL)
        if t.kind == "op" and t.text == "-":
            self.next()
            a = self.expr(81)
            if self.at("^", "powr"):  # "- _" [81] 80 cannot be the base of an infixr-80 operator
                raise ElabError(
                    f"Isabelle does not parse - x {self.peek().text} y (unary minus cannot be the base of "
                    f"{self.peek().text}): write -(x {self.peek().text} y) or (-x) {self.peek().text} y", t.pos)
            a = self.lift(a, "neg", t.pos, "unary minus")  # -n with n :: nat is -(int n)
            if isinstance(a, Num) and a.value >= 0:
                return a if a.value == 0 else App("isa:negnum", (a,), a.sort)
            return App("neg", (a,), a.sort)
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
    def application(self) -> Term:
        head_tok = self.peek()
        if head_tok.kind == "ident" and head_tok.text not in KEYWORDS and self._is_constant(head_tok.text):
            self.next()
            args = self.arguments()
            return self.apply_const(head_tok.text, args, head_tok.pos)
        head = self.atom()
        args = self.arguments()
        return self.apply_term(head, args, head_tok.pos) if args else head

    def arguments(self) -> list[Term]:
        args: list[Term] = []
        while self.starts_atom(self.peek()):
            t = self.peek()
            if t.kind == "ident" and self._is_constant(t.text) and t.text not in NULLARY:
                self.next()
                args.append(self.apply_const(t.text, [], t.pos))
                args[-1] = self.postfix(args[-1])
            else:
                args.append(self.atom())
        return args

    def apply_term(self, head: Term, args: list[Term], pos: int) -> Term:
        if isinstance(head, Lam):  # beta-reduce (λx. t) a
            n = min(len(head.vars), len(args))
            vals = [self.coerce(a, v.sort, pos, f"the argument of λ{v.name}") for v, a in zip(head.vars[:n], args[:n], strict=True)]
            body = substitute(head.body, dict(zip(head.vars[:n], vals, strict=True)))
            rest = head.vars[n:]
            out = Lam(rest, body) if rest else body
            return self.apply_term(out, args[n:], pos) if args[n:] else out
        hs = self.uni.resolve(head.sort)
        if isinstance(hs, FunSort) and not isinstance(self.uni.shallow(hs.args[0]), Prod):
            self._tuple_call(show_short(head), args, 1 + isinstance(self.uni.shallow(hs.result), FunSort), pos)
        if not isinstance(hs, (FunSort, TVar)):
            raise ElabError(
                f"{show_short(head)} has type {show_sort(hs)}, not a function, so it cannot be applied to "
                f"{show_short(args[0])} (a missing operator, or a function missing from `fixes`?)", pos)
        coerced = []
        for a in args:
            if isinstance(hs, FunSort) and len(hs.args) == 1:
                a = self.coerce(a, hs.args[0], pos, f"the argument of {show_short(head)}")
                hs = self.uni.resolve(hs.result)
            else:
                hs = None  # type: ignore[assignment]
            coerced.append(a)
        args = coerced
        res: Sort = self.uni.fresh()
        fsort: Sort = res
        for a in reversed(args):
            fsort = FunSort((a.sort,), fsort)
        what = f"the application of {show_short(head)}"
        self.unify(head.sort, fsort, pos, what)
        if isinstance(head, App) and head.op == "apply":
            return App("apply", (*head.args, *args), res)
        return App("apply", (head, *args), res)

    def postfix(self, t: Term) -> Term:
        while self.at("⇧"):
            pos = self.next().pos
            n = self.next()
            if n.kind != "num":
                raise ElabError("expected a number after ⇧ (x\\<^sup>2)", n.pos)
            self.require(t.sort, "num", pos, "a power")
            t = App("pow", (t, Num(_numeral(n), NAT)), t.sort)
        return t

    # ---- atoms ---------------------------------------------------------------------------------
    def atom(self) -> Term:
        return self.postfix(self._atom())

    def _atom(self) -> Term:
        t = self.next()
        if t.kind == "num":
            value = _numeral(t)
            if isinstance(value, Fraction):
                return pending_num(value, self.uni.fresh("num", "field"))
            return pending_num(value, self.uni.fresh("num"))
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
                return Uninterpreted(name, (), SetSort(self.uni.fresh("num")))
            if t.text == "ⅈ":
                return App("I", (), COMPLEX)
            if t.text == "π":
                return App("pi", (), REAL)
            if t.text == "∅":
                return App("set_of", (), SetSort(self.uni.fresh()))
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

    def name(self, t: Token) -> Term:
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
            self.scope.implicit[t.text] = Var(t.text, self.untyped(t.text))
        return self.scope.implicit[t.text]

    def _is_constant(self, name: str) -> bool:
        if name not in CONSTS:
            return False
        if any(name in f for f in self.bound) or name in self.scope.fixed:
            return False
        return True

    def paren(self, open_tok: Token) -> Term:
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
            out = Uninterpreted("Pair", (a, out), Prod(a.sort, out.sort))
        return out

    def read_type(self) -> Sort:
        r = TypeReader(self.toks, self.i, self.uni)
        try:
            s = r.read()
        except LexError as e:
            raise ElabError(e.reason, e.pos) from None
        self.i = r.i
        return s

    def list_expr(self, open_tok: Token) -> Term:
        elem = self.uni.fresh()
        if self.at("]"):
            self.next()
            return Uninterpreted("list", (), ListSort(elem))
        first = self.expr(0)
        self.unify(first.sort, elem, open_tok.pos, "a list")
        if self.at("..<", ".."):
            op = self.next().text
            hi = self.expr(0)
            self.expect("]", "to close [")
            self.unify(hi.sort, elem, open_tok.pos, "a list range")
            self.require(elem, "integral", open_tok.pos, "a list range")
            return Uninterpreted("upt" if op == "..<" else "upto", (first, hi), ListSort(elem))
        if self.at("."):
            raise ElabError("list comprehensions [… . x ← xs] are not supported", self.peek().pos)
        items = [first]
        while self.at(","):
            self.next()
            it = self.expr(0)
            self.unify(it.sort, elem, open_tok.pos, "a list literal")
            items.append(it)
        self.expect("]", "to close [")
        return Uninterpreted("list", tuple(items), ListSort(elem))

    # ---- sets ------------------------------------------------------------------------------------
    def set_expr(self, open_tok: Token) -> Term:
        pos = open_tok.pos
        if self.at("}"):
            self.next()
            return App("set_of", (), SetSort(self.uni.fresh()))
        if self.at("..", "..<"):
            op = self.next().text
            hi = self.expr(0)
            self.expect("}", "to close {")
            self.require(hi.sort, "ord", pos, "an interval")
            return App("isa:lessThan" if op == "..<" else "isa:atMost", (hi,), SetSort(hi.sort))
        bar = self._comprehension_bar()
        if bar is not None:
            return self._comprehension(bar, pos)
        builder = self._try_set_builder(pos)
        if isinstance(builder, SetBuilder):
            return builder
        first = builder if builder is not None else self.expr(31)
        if self.at("::"):
            tpos = self.next().pos
            first = self.coerce(first, self.read_type(), tpos, "a type annotation")
        for ops, kind in ((("..",), "Icc"), (("..<",), "Ico"), (("<..",), "Ioc"), (("<..<",), "Ioo")):
            if self.at(*ops):
                self.next()
                if self.at("}") and kind in ("Icc", "Ioc"):
                    self.next()
                    self.require(first.sort, "ord", pos, "an interval")
                    sym = "atLeast" if kind == "Icc" else "greaterThan"
                    return Uninterpreted(sym, (first,), SetSort(first.sort))
                hi = self.expr(0)
                self.expect("}", "to close {")
                self.unify(first.sort, hi.sort, pos, "an interval")
                self.require(first.sort, "ord", pos, "an interval")
                return App(kind, (first, hi), SetSort(first.sort))
        if self.at(",") and self.peek(1).kind == "num" and self.peek(2).text == "..":
            raise ElabError("stepped ranges {a, b..c} are not HOL syntax", self.peek().pos)
        items = [first]
        while self.at(","):
            self.next()
            it = self.expr(0)
            self.unify(it.sort, first.sort, pos, "a set literal")
            items.append(it)
        self.expect("}", "to close {")
        return App("set_of", tuple(items), SetSort(first.sort))

    def _try_set_builder(self, pos: int) -> Term | None:
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
                v = Var(t0.text, s)
            else:
                self.next()
                self.next()
                v = Var(t0.text, self.uni.fresh())
            self.bound.append({v.name: v})
            body = self.formula(0)
            self.bound.pop()
            self.expect("}", "to close {x. P}")
            return SetBuilder(v, body)
        if t0.kind == "ident" and t1.text == "∈":
            self.next()
            mem_pos = self.next().pos
            dom = self.expr(51)
            if not self.at("."):  # not a builder: {x ∈ A, …} or {x ∈ A ∧ …}; keep what was read
                return self.expr(31, left=self.binary("mem", self.name(t0), dom, mem_pos))
            self.next()
            v = Var(t0.text, self.uni.fresh())
            self.unify(dom.sort, SetSort(v.sort), pos, "{x ∈ A. P}")
            self.bound.append({v.name: v})
            body = self.formula(0)
            self.bound.pop()
            self.expect("}", "to close {x ∈ A. P}")
            return SetBuilder(v, App("and", (App("mem", (v, dom), BOOL), body), BOOL))
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
                vs = [Var(n, self.uni.fresh()) for n in names]
                dom = None
                if self.at("∈"):
                    self.next()
                    dom = self.expr(51)
                self.expect(".", "after the pattern of {(a, b). P}")
                self.bound.append({v.name: v for v in vs})
                body = self.formula(0)
                self.bound.pop()
                self.expect("}", "to close {(a, b). P}")
                pattern: Term = vs[-1]
                for v in reversed(vs[:-1]):
                    pattern = Uninterpreted("Pair", (v, pattern), Prod(v.sort, pattern.sort))
                if dom is not None:
                    self.unify(dom.sort, SetSort(pattern.sort), pos, "{(a, b) ∈ A. P}")
                    body = App("and", (App("mem", (pattern, dom), BOOL), body), BOOL)
                z = self.fresh_var("p", pattern.sort)
                eq = App("eq", (z, pattern), BOOL)
                return SetBuilder(z, Quant("exists", tuple(vs), App("and", (eq, body), BOOL)))
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

    def _comprehension(self, bar: int, pos: int) -> Term:
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
            return SetBuilder(vs[0], body)
        z = self.fresh_var("z", pattern.sort)
        return SetBuilder(z, Quant("exists", tuple(vs), App("and", (App("eq", (z, pattern), BOOL), body), BOOL)))

    # ---- binders -----------------------------------------------------------------------------------
    def binder_vars(self, pos: int) -> list[Var]:
        vs: list[Var] = []
        while True:
            t = self.peek()
            if t.kind == "ident" and t.text not in KEYWORDS:
                self.next()
                s: Sort = self.untyped(t.text)
                if self.at("::"):
                    self.next()
                    s = self.read_type()
                vs.append(Var(t.text, s))
                continue
            if t.text == "(" and self.peek(1).kind == "ident":
                self.next()
                names = []
                while self.peek().kind == "ident" and self.peek().text not in KEYWORDS:
                    names.append(self.next().text)
                s = self.uni.fresh()
                if self.at("::"):
                    self.next()
                    s = self.read_type()
                if self.at(","):
                    raise ElabError("a tuple pattern (x, y) must be the only binder here: bind x and y separately", self.peek().pos)
                self.expect(")", "to close a typed binder (x::T)")
                vs.extend(Var(n, s) for n in names)
                continue
            break
        if not vs:
            raise ElabError("expected a variable after the binder", self.peek().pos)
        return vs

    def tuple_pattern(self) -> tuple[list[Var], Term] | None:
        """``(a, b, c)`` in binder position: its variables and the pattern term (nested pairs)."""
        if not (self.at("(") and self.peek(1).kind == "ident" and self.peek(2).text == ","):
            return None
        self.next()
        vs: list[Var] = []
        while True:
            t = self.next()
            if t.kind != "ident" or t.text in KEYWORDS:
                raise ElabError("expected a variable name in the tuple pattern (a, b)", t.pos)
            s: Sort = self.untyped(t.text)
            if self.at("::"):
                self.next()
                s = self.read_type()
            vs.append(Var(t.text, s))
            if self.at(","):
                self.next()
                continue
            self.expect(")", "to close the tuple pattern (a, b)")
            break
        pattern: Term = vs[-1]
        for v in reversed(vs[:-1]):
            pattern = Uninterpreted("Pair", (v, pattern), Prod(v.sort, pattern.sort))
        return vs, pattern

    def projections(self, pattern: Term, p: Term) -> dict[Var, Term]:
        """Each variable of a tuple pattern as fst/snd of ``p``."""
        out: dict[Var, Term] = {}
        while isinstance(pattern, Uninterpreted) and pattern.symbol == "Pair":
            a, rest = pattern.args
            out[a] = Uninterpreted("fst", (p,), a.sort)  # type: ignore[index]
            p = Uninterpreted("snd", (p,), rest.sort)
            pattern = rest
        out[pattern] = p  # type: ignore[index]
        return out

    def quantifier(self) -> Term:
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
                body = App("implies" if kind == "forall" else "and", (guard, body), BOOL)
            return Quant(kind, tuple(vs), body)
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
            g = guards[0] if len(guards) == 1 else App("and", tuple(guards), BOOL)
            if kind in ("forall",):
                body = App("implies", (g, body), BOOL)
            elif kind == "exists1" and len(vs) == 1:
                body = App("and", (g, body), BOOL)
            else:
                body = App("and", (g, body), BOOL)
        if kind == "exists1":
            if len(vs) != 1:
                raise ElabError("∃! binds exactly one variable here; nest ∃!x. ∃!y. … explicitly", t.pos)
            return Quant("exists1", tuple(vs), body)
        if kind == "nexists":
            return App("not", (Quant("exists", tuple(vs), body),), BOOL)
        return Quant(kind, tuple(vs), body)

    def lam(self) -> Term:
        t = self.next()
        tup = self.tuple_pattern()
        if tup is not None:  # λ(x, y). t  ==  λp. t[x := fst p, y := snd p]
            comps, pattern = tup
            self.expect(".", "after the pattern of λ")
            self.bound.append({v.name: v for v in comps})
            body = self.expr(0)
            self.bound.pop()
            p = self.fresh_var("p", pattern.sort)
            return Lam((p,), substitute(body, self.projections(pattern, p)))
        vs = self.binder_vars(t.pos)
        self.expect(".", "after the variables of λ")
        self.bound.append({v.name: v for v in vs})
        body = self.expr(0)
        self.bound.pop()
        out: Term = body
        for v in reversed(vs):
            out = Lam((v,), out)
        return out

    def bigop(self) -> Term:
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
            self.unify(v.sort, NAT, pos, "∑n. f n (a series is indexed by nat)")
            return Uninterpreted("suminf", (Lam((v,), body),), body.sort)
        if self.at("∈"):
            self.next()
            dom = self.expr(51)
            self.unify(dom.sort, SetSort(v.sort), pos, f"{t.text}x∈A")
        elif self.at("="):
            self.next()
            lo = self.expr(51)
            if not self.at(".."):
                raise ElabError(f"expected .. in {t.text}i=a..b", self.peek().pos)
            self.next()
            hi = self.expr(51)
            self.unify(lo.sort, v.sort, pos, "a summation range")
            self.unify(hi.sort, v.sort, pos, "a summation range")
            self.require(v.sort, "ord", pos, "a summation range")
            dom = App("Icc", (lo, hi), SetSort(v.sort))
        elif self.at("<", "≤", "<="):
            op = self.next().text
            hi = self.expr(51)
            self.unify(hi.sort, v.sort, pos, "a summation bound")
            self.require(v.sort, "ord", pos, "a summation bound")
            dom = App("isa:lessThan" if op == "<" else "isa:atMost", (hi,), SetSort(v.sort))
        elif self.at("|"):
            self.next()
            self.bound.append({v.name: v})
            cond = self.formula(31)
            self.bound.pop()
            dom = SetBuilder(v, cond)
        else:
            raise ElabError(f"{t.text} needs a range: {t.text}i∈A. …, {t.text}i=a..b. … or {t.text}i<n. …", self.peek().pos)
        self.expect(".", f"after the range of {t.text}")
        self.bound.append({v.name: v})
        body = self.expr(0)
        self.bound.pop()
        self.require(body.sort, "num", t.pos, f"the body of {t.text}")
        return BigOp(kind, v, dom, body)

    def bigop_tuple(self, t: Token, kind: str, comps: list[Var], pattern: Term) -> Term:
        """``∑(a, b) ∈ A. f a b`` and ``∑(a, b) | P a b. f a b``: a sum over pairs."""
        p = self.fresh_var("p", pattern.sort)
        proj = self.projections(pattern, p)
        pos = self.peek().pos
        if self.at("∈"):
            self.next()
            dom = self.expr(51)
            self.unify(dom.sort, SetSort(p.sort), pos, f"{t.text}(a, b)∈A")
        elif self.at("|"):
            self.next()
            self.bound.append({v.name: v for v in comps})
            cond = self.formula(31)
            self.bound.pop()
            dom = SetBuilder(p, substitute(cond, proj))
        else:
            raise ElabError(f"{t.text} over a tuple pattern needs ∈ A or | P", self.peek().pos)
        self.expect(".", f"after the range of {t.text}")
        self.bound.append({v.name: v for v in comps})
        body = self.expr(0)
        self.bound.pop()
        self.require(body.sort, "num", t.pos, f"the body of {t.text}")
        return BigOp(kind, p, dom, substitute(body, proj))

    def binder_const(self) -> Term:
        t = self.next()
        vs = self.binder_vars(t.pos)
        if t.text in ("INF", "SUP"):  # INF x y. f x y: the infimum of the values (a number)
            self.expect(".", f"after the variables of {t.text}")
            self.bound.append({v.name: v for v in vs})
            body = self.expr(0)
            self.bound.pop()
            self.require(body.sort, "ord", t.pos, t.text)
            return Uninterpreted(t.text, (Lam(tuple(vs), body),), body.sort)
        if len(vs) != 1:
            raise ElabError(f"{t.text} binds one variable", t.pos)
        v = vs[0]
        self.expect(".", f"after the variable of {t.text}")
        self.bound.append({v.name: v})
        body = self.formula(0)
        self.bound.pop()
        if t.text in ("GREATEST", "LEAST"):
            self.require(v.sort, "ord", t.pos, t.text)
        return Uninterpreted(t.text, (Lam((v,), body),), v.sort)

    def ite(self) -> Term:
        t = self.next()
        c = self.formula(0)
        self.expect("then", "in if … then … else")
        a = self.expr(0)
        self.expect("else", "in if … then … else")
        b = self.expr(0)
        a, b = self.join(a, b, t.pos, "the branches of if-then-else")
        return App("ite", (c, a, b), a.sort)

    def let(self) -> Term:
        t = self.next()
        binds: list[tuple[Var, Term]] = []
        while True:
            n = self.next()
            if n.kind != "ident":
                raise ElabError("expected a name after let", n.pos)
            self.expect("=", "in let x = t in …")
            val = self.expr(0)
            binds.append((Var(n.text, val.sort), val))
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
    def binary(self, name: str, a: Term, b: Term, pos: int) -> Term:
        handler = BINARY.get(name)
        if handler is None:
            raise ElabError(f"operator {name} is not supported", pos)
        try:
            return handler(self, a, b, pos)
        except ElabError as e:
            if name in RELATION_OPS and isinstance(a, App) and a.op in _REL_OPS and not e.hints:
                raise ElabError(
                    f"{e.reason} — a chained relation a = b = c (or a < b = c) reads as (a = b) = c in "
                    "Isabelle: write a = b ∧ b = c", e.pos) from None
            raise

    def _tuple_call(self, name: str, args: list[Term], arity: int, pos: int) -> None:
        if arity >= 2 and len(args) == 1 and isinstance(args[0], Uninterpreted) and args[0].symbol == "Pair":
            raise ElabError(f"{name}(a, b) applies {name} to one pair: HOL applies functions by juxtaposition, "
                            f"write {name} a b", pos)

    def apply_const(self, name: str, args: list[Term], pos: int) -> Term:
        arity, build = CONSTS[name]
        self._tuple_call(name, args, arity, pos)
        if len(args) < arity:
            extra = [self.fresh_var("x", self.uni.fresh()) for _ in range(arity - len(args))]
            body = build(self, [*args, *extra], pos)
            out: Term = body
            for v in reversed(extra):
                out = Lam((v,), out)
            return out
        t = build(self, args[:arity], pos)
        rest = args[arity:]
        return self.apply_term(t, rest, pos) if rest else t


_REL_OPS = frozenset({"isa:eq", "ne", "lt", "le", "gt", "ge"})


def _widens(a: Sort, b: Sort) -> bool:
    """Is there a coercion from ``a`` to ``b`` (nat → int → rat → real → complex)?"""
    from provers.ir import NUMERIC_ORDER

    return NUMERIC_ORDER.index(a) < NUMERIC_ORDER.index(b)


def show_short(t: Term) -> str:
    """A few characters naming ``t`` in an error message or note."""
    if isinstance(t, Var):
        return "its argument" if t.name.endswith("'") else t.name  # x1' etc. are invented names
    if isinstance(t, Uninterpreted):
        return t.symbol
    if isinstance(t, Num):
        return str(t.value)
    if isinstance(t, App) and len(t.args) == 2 and t.op in _SHORT_INFIX:
        text = f"{show_short(t.args[0])} {_SHORT_INFIX[t.op]} {show_short(t.args[1])}"
        return text if len(text) < 40 else "a term"
    if isinstance(t, App) and t.args:
        return f"{t.op.removeprefix('isa:')} …"
    return "a term"


_SHORT_INFIX = {"add": "+", "sub": "-", "isa:minus": "-", "mul": "*", "isa:divide": "/", "pow": "^",
                "isa:div": "div", "isa:mod": "mod", "powr": "powr"}




from provers.isabelle.constants import BINARY, CONSTS, NULLARY  # noqa: E402  (builders need Elaborator)
