"""Pratt parser for Lean 4 terms, with Lean's own precedence levels.

Levels come from the Lean core / Mathlib notation declarations: ``↔`` 20, ``→`` 25 (right),
``∨`` 30 (right), ``∧`` 35 (right), ``¬`` takes its argument at 40, relations 50
(non-associative), ``+ -`` 65, ``* / %`` 70, unary ``-`` 75 (argument at 75, so ``-x^2`` is
``-(x^2)``), ``^`` 75 (right), ``∘`` 90, ``√`` 100, application 1023 (``leadPrec``),
``↑``/``⁻¹``/field access at max (1024), ``!`` (factorial) 10000, big operators' bodies at 67
(so ``∑ i in s, f i + 1`` is ``(∑ i in s, f i) + 1``).
"""

from __future__ import annotations

from provers.errors import InputTooLargeError, ParseError
from provers.lean4.commands import AROUND_COMMANDS, COMMAND_KEYWORDS, command_reason
from provers.lean4.lexer import Token
from provers.lean4.syntax import BinderGroup, Syn

MAX_DEPTH = 200
#: Height limit of a syntax tree: ``1 + 1 + … + 1`` is a left spine as deep as it is long.
MAX_TREE_DEPTH = 1000
MAX = 1024
APP = 1023

# symbol -> (left binding power, right binding power)
INFIX: dict[str, tuple[int, int]] = {
    "↔": (20, 21), "<->": (20, 21),
    "→": (25, 25), "->": (25, 25),
    "$": (10, 10), "<|": (10, 10), "|>": (10, 11),
    "∨": (30, 30), "∧": (35, 35), "||": (30, 30), "&&": (35, 35),
    "×": (35, 35),
    "=": (50, 51), "≠": (50, 51), "!=": (50, 51), "<": (50, 51), ">": (50, 51),
    "≤": (50, 51), "<=": (50, 51), "≥": (50, 51), ">=": (50, 51), "∈": (50, 51),
    "∉": (50, 51), "⊆": (50, 51), "⊂": (50, 51), "⊇": (50, 51), "⊃": (50, 51),
    "∣": (50, 51), "≈": (50, 51), "∤": (50, 51), "≃": (25, 25), "≅": (25, 25), "⊊": (50, 51),
    "+": (65, 66), "-": (65, 66), "∪": (65, 66), "++": (65, 66), "::": (67, 67),
    "⊔": (68, 69), "⊓": (69, 70),
    "*": (70, 71), "/": (70, 71), "/.": (70, 71), "%": (70, 71), "∩": (70, 71), "\\": (70, 71),
    "•": (73, 73), "^": (75, 75), "''": (80, 81), "⁻¹'": (80, 81), "×ˢ": (82, 82),
    "∘": (90, 90), "∆": (100, 101), "⬝": (75, 76), "⧸": (35, 36),
    "≃*": (25, 25), "≃+*": (25, 25), "≃+": (25, 25), "→ₗ": (25, 25), "≃ₗ": (25, 25), "→L": (25, 25),
    "≃ₜ": (25, 25), "→ᵃ": (25, 25), "→+*": (25, 25), "→*": (25, 25), "→+": (25, 25),
}
RELATIONS = {"=", "≠", "!=", "<", ">", "≤", "<=", "≥", ">=", "∈", "∉", "⊆", "⊂", "⊇", "⊃", "∣"}
POSTFIX = {"⁻¹": MAX, "!": 10000, "ᶜ": MAX, "ᵀ": MAX, "†": MAX}
KEYWORDS = {
    "by", "in", "then", "else", "with", "at", "from", "if", "let", "have", "show", "do",
    "match", "where", "using", "calc", "fun", "sorry", *COMMAND_KEYWORDS, *AROUND_COMMANDS,
}
BIGOPS = {"∑", "∏", "⋃", "⋂", "⨆", "⨅", "∑'", "∏'"}
QUANTS = {"∀", "∃", "∃!", "∀ᶠ", "∃ᶠ", "Π"}
BINDER_PREDS = {"∈", "∉", ">", "<", "≥", "≤", "≠", "⊆", "⊂", ">=", "<="}


def _cdots_to_idents(e: Syn) -> list[str]:
    """Rename the ``·`` holes of ``e`` (outside nested parentheses) to fresh identifiers."""
    names: list[str] = []
    stack = [e]
    order: list[Syn] = []
    while stack:
        s = stack.pop()
        if s.kind == "cdot":
            order.append(s)
            continue
        if s.kind == "paren":
            continue
        stack.extend(reversed([a for a in s.args if isinstance(a, Syn)]))
    for s in sorted(order, key=lambda s: s.pos):
        s.kind, s.val = "ident", f"x_cdot{len(names)}"
        names.append(s.val)
    return names


_OPEN = frozenset("([{⟨⦃⌊⌈")
_CLOSE = frozenset(")]}⟩⦄⌋⌉") | {"⌋₊", "⌉₊"}


def _bracket_depths(toks: list[Token]) -> list[int]:
    """Bracket nesting depth before each token."""
    out, depth = [], 0
    for t in toks:
        out.append(depth)
        if t.kind == "sym" and t.text in _OPEN:
            depth += 1
        elif t.kind == "sym" and t.text in _CLOSE:
            depth = max(0, depth - 1)
    return out


#: opening symbols of enclosed terms -> their closer (``TermParser.enclosed``)
_ENCLOSING = {"⟨": "⟩", "[": "]", "⟪": "⟫", "⁅": "⁆", "|": "|", "‖": "‖", "⌊": "⌋", "⌈": "⌉"}


class TermParser:
    """Parses tokens ``toks[i:]`` into ``Syn`` trees; ``text`` is only for error positions."""

    def __init__(self, toks: list[Token], text: str, i: int = 0):
        self.toks = toks
        self.text = text
        self.i = i
        self.depth = 0
        self._depths: list[int] | None = None

    # -- token helpers ---------------------------------------------------------------
    @property
    def tok(self) -> Token:
        return self.toks[self.i]

    def peek(self, k: int = 1) -> Token:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def at(self, *texts: str) -> bool:
        t = self.tok
        return t.kind in ("sym", "ident") and t.text in texts

    def advance(self) -> Token:
        t = self.tok
        if t.kind != "eof":
            self.i += 1
        return t

    def error(self, reason: str, tok: Token | None = None) -> ParseError:
        t = tok or self.tok
        return ParseError.at_offset(reason, self.text, t.pos)

    def expect(self, text: str, what: str = "") -> Token:
        if not self.at(text):
            found = self.tok.text or "end of input"
            raise self.error(f"expected {text!r}{' ' + what if what else ''}, found {found!r}")
        return self.advance()

    # -- expressions -----------------------------------------------------------------
    def expr(self, min_bp: int = 0) -> Syn:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise InputTooLargeError.at_offset(
                f"term nested deeper than {MAX_DEPTH} levels", self.text, self.tok.pos
            )
        try:
            lhs = self.nud()
            while True:
                t = self.tok
                if t.kind == "proj":
                    self.advance()
                    lhs = self.grown(Syn("proj", lhs.pos, t.end, t.text, (lhs,)))
                    continue
                if t.kind == "sym" and t.text in POSTFIX and POSTFIX[t.text] >= min_bp:
                    self.advance()
                    lhs = self.grown(Syn("postfix", lhs.pos, t.end, t.text, (lhs,)))
                    continue
                if t.kind == "sym" and t.text == "≡" and 50 >= min_bp:
                    lhs = self.modeq(lhs)
                    continue
                if t.kind == "sym" and t.text in INFIX:
                    lbp, rbp = INFIX[t.text]
                    if lbp < min_bp:
                        break
                    self.advance()
                    lhs = self.infix(t, lhs, rbp)
                    continue
                if APP >= min_bp and (self.starts_arg() or self.abs_arg_ahead()):
                    args = self.arguments()
                    if not args:
                        break
                    lhs = self.grown(Syn("app", lhs.pos, args[-1].end, "", (lhs, *args)))
                    continue
                break
            return lhs
        finally:
            self.depth -= 1

    def infix(self, t: Token, lhs: Syn, rbp: int) -> Syn:
        """``lhs op rhs`` after the operator token ``t``; ``$``, ``<|``, ``|>`` are application
        and ``a /. b`` is ``((a / b : ℚ))``."""
        field = None
        if t.text in ("→ₗ", "≃ₗ", "→L", "→ᵃ") and self.at("["):  # V →ₗ[F] W
            self.advance()
            field = self.expr(0)
            self.expect("]")
        rhs = self.expr(rbp)
        if field is not None:
            return self.grown(Syn("binop", lhs.pos, rhs.end, t.text, (lhs, rhs), extra={"field": field}))
        if t.text in ("$", "<|"):  # f $ x is application
            args = (*lhs.args, rhs) if lhs.kind == "app" else (lhs, rhs)
            return Syn("app", lhs.pos, rhs.end, "", args)
        if t.text == "|>":
            return Syn("app", lhs.pos, rhs.end, "", (rhs, lhs))
        if t.text == "/.":  # Rat.divInt: (a /. b) = ((a : ℚ) / b)
            div = Syn("binop", lhs.pos, rhs.end, "/", (lhs, rhs))
            return Syn("ascr", lhs.pos, rhs.end, "", (div, Syn("ident", t.pos, t.end, "ℚ")))
        return self.grown(Syn("binop", lhs.pos, rhs.end, t.text, (lhs, rhs)))

    def arguments(self) -> list[Syn]:
        """The arguments of an application (``f x (y + 1) |z|``), as many as there are."""
        args: list[Syn] = []
        while self.starts_arg() or self.abs_arg_ahead():
            if self.at("fun", "λ"):
                args.append(self.expr(0))
            elif self.at("|"):
                save = self.i
                try:
                    args.append(self.expr(MAX))
                except ParseError as e:
                    if isinstance(e, InputTooLargeError):
                        raise
                    self.i = save
                    break
            else:
                args.append(self.named_arg() or self.expr(MAX))
        return args

    def grown(self, s: Syn) -> Syn:
        """Record the height of a new node; refuse trees too deep to elaborate safely."""
        if s.depth > MAX_TREE_DEPTH:
            raise InputTooLargeError.at_offset(
                f"term deeper than {MAX_TREE_DEPTH} levels (an operator chain that long)", self.text, s.pos)
        return s

    def named_arg(self) -> Syn | None:
        """``(x := e)`` named arguments are kept as ``other`` nodes (rare in statements)."""
        if self.at("(") and self.peek().kind == "ident" and self.peek(2).text == ":=":
            start = self.advance()
            name = self.advance().text
            self.advance()
            e = self.expr(0)
            end = self.expect(")")
            return Syn("other", start.pos, end.end, f"named:{name}", (e,))
        return None

    def abs_arg_ahead(self) -> bool:
        """``μ |s - t|``: Lean's ``|`` opens an argument only when a term follows without
        whitespace (``atomic("|" noWs) term noWs "|"``); a closing ``|`` is followed by space,
        an operator or the end."""
        if not self.at("|") or self.column0():
            return False
        nxt = self.peek()
        if nxt.space_before or nxt.kind == "eof":
            return False
        if nxt.kind in ("ident", "num"):
            return nxt.text not in KEYWORDS
        return nxt.kind == "sym" and nxt.text in ("(", "-", "↑", "√", "⌊", "⌈", "π", "∑", "∏")

    def column0(self) -> bool:
        """The token starts a line outside brackets: Lean never reads it as an application
        argument (arguments need ``checkColGt``; brackets lift the check), so it ends the term."""
        pos = self.tok.pos
        if not (pos == 0 or self.text[pos - 1] == "\n"):
            return False
        if self._depths is None:
            self._depths = _bracket_depths(self.toks)
        return self._depths[self.i] == 0

    def starts_arg(self) -> bool:
        t = self.tok
        if self.column0():
            return False
        if t.kind in ("num", "str"):
            return True
        if t.kind == "ident":
            return t.text not in KEYWORDS or t.text in ("fun", "sorry")
        if t.kind == "sym":
            return t.text in ("(", "⟨", "{", "[", "⌊", "⌈", "↑", "⇑", "↥", "_", "·", "@", "∅", "λ", "⊤", "⊥", "∞", "π")
        return False

    def nud(self) -> Syn:
        t = self.tok
        if t.kind == "eof":
            raise self.error("unexpected end of input, expected a term")
        if t.kind == "num":
            self.advance()
            return Syn("num", t.pos, t.end, t.text)
        if t.kind == "str":
            self.advance()
            return Syn("str", t.pos, t.end, t.text)
        if t.kind == "ident":
            if t.text == "fun":
                return self.lam()
            if t.text == "if":
                return self.ite()
            if t.text in COMMAND_KEYWORDS:
                raise self.error(command_reason(t.text))
            if t.text in KEYWORDS and t.text != "sorry":
                raise self.error(f"unexpected keyword {t.text!r} in a term")
            self.advance()
            return Syn("ident", t.pos, t.end, t.text)
        if t.kind == "proj":
            raise self.error(f"unexpected field access .{t.text}")
        s = t.text
        if s == "(":
            return self.paren()
        if s == "{":
            return self.brace()
        if s in _ENCLOSING:
            return self.enclosed(t)
        if s in ("-", "¬", "↑", "√", "∛", "!", "@", "⇑", "↥"):
            self.advance()
            if s == "@":
                return self.expr(MAX)
            rbp = {"-": 75, "¬": 40, "↑": MAX, "√": 100, "∛": 100, "!": MAX, "⇑": MAX, "↥": MAX}[s]
            e = self.expr(rbp)
            return Syn("prefix", t.pos, e.end, s, (e,))
        if s in QUANTS or s in BIGOPS:
            return self.binder_notation()
        if s == "λ":
            return self.lam()
        if s in ("_", "·", "∅", "⊤", "⊥", "∞", "π"):
            self.advance()
            kind = {"_": "hole", "·": "cdot"}.get(s, "ident")
            return Syn(kind, t.pos, t.end, s)
        if s == "∫":
            return self.integral()
        if s in ("⋃₀", "⋂₀"):
            self.advance()
            e = self.expr(110)
            return Syn("other", t.pos, e.end, s, (e,))
        raise self.error(f"unexpected {s!r}, expected a term")

    def enclosed(self, t: Token) -> Syn:
        """A term between an opening symbol and its closer: ``⟨a, b⟩``, ``[a, b]``, ``|x|``,
        ``‖x‖``, ``⌊x⌋``/``⌊x⌋₊``, ``⌈x⌉``/``⌈x⌉₊``, ``⟪x, y⟫_ℝ``, ``⁅x, y⁆``."""
        s = t.text
        self.advance()
        if s in ("⟨", "[", "⟪", "⁅"):
            closer = _ENCLOSING[s]
            items = self.comma_list(closer)
            end = self.expect(closer)
            if s == "⟨":
                return Syn("anon", t.pos, end.end, "", tuple(items))
            if s == "[":
                return Syn("list", t.pos, end.end, "", tuple(items))
            if self.tok.kind == "ident" and self.tok.text.startswith("_") and not self.tok.space_before:
                end = self.advance()
            return Syn("other", t.pos, end.end, "inner" if s == "⟪" else "bracket", tuple(items))
        e = self.expr(0)
        if s in ("|", "‖"):
            end = self.expect(s, "to close " + s)
            return Syn("abs" if s == "|" else "norm", t.pos, end.end, "", (e,))
        closers = ("⌋", "⌋₊") if s == "⌊" else ("⌉", "⌉₊")
        if not self.at(*closers):
            raise self.error(f"expected {closers[0]!r} to close {s!r}")
        end = self.advance()
        kind = ("floor" if s == "⌊" else "ceil") if end.text in ("⌋", "⌉") else ("nfloor" if s == "⌊" else "nceil")
        return Syn(kind, t.pos, end.end, "", (e,))

    def comma_list(self, closer: str) -> list[Syn]:
        items: list[Syn] = []
        if self.at(closer):
            return items
        items.append(self.expr(0))
        while self.at(","):
            self.advance()
            items.append(self.expr(0))
        return items

    def paren(self) -> Syn:
        start = self.advance()
        if self.at(")"):
            end = self.advance()
            return Syn("ident", start.pos, end.end, "Unit.unit")
        if self.at("↑") and self.peek().text == ")":
            self.advance()
            end = self.advance()
            return Syn("ident", start.pos, end.end, "↑")
        e = self.expr(0)
        if self.at(":"):
            self.advance()
            ty = self.expr(0)
            end = self.expect(")", "to close the type ascription")
            return Syn("ascr", start.pos, end.end, "", (e, ty))
        if self.at(","):
            items = [e]
            while self.at(","):
                self.advance()
                items.append(self.expr(0))
            end = self.expect(")")
            return Syn("tuple", start.pos, end.end, "", tuple(items))
        end = self.expect(")", "to close '('")
        names = _cdots_to_idents(e)
        if names:  # (· + 1) is fun x => x + 1 (one argument per ·, left to right)
            return Syn("binder", start.pos, end.end, "fun", (e,), (BinderGroup(tuple(names), None, pos=start.pos),))
        return Syn("paren", start.pos, end.end, "", (e,))

    def brace(self) -> Syn:
        start = self.advance()
        if self.at("}"):
            end = self.advance()
            return Syn("setlit", start.pos, end.end, "", ())
        # {x | p}, {x : T | p}, {x ∈ s | p}, {(a, b) | p}
        save = self.i
        if self.tok.kind == "ident" and self.peek().text in ("|", ":", "∈", "//") or self.at("("):
            try:
                group = self.setbuilder_binder()
                if self.at("|"):
                    self.advance()
                    body = self.expr(0)
                    end = self.expect("}", "to close the set-builder")
                    return Syn("setbuilder", start.pos, end.end, "", (body,), (group,))
                if self.at("//"):
                    self.advance()
                    body = self.expr(0)
                    end = self.expect("}")
                    return Syn("other", start.pos, end.end, "subtype", (body,))
            except ParseError:
                pass
            self.i = save
        # structure instance { x := 1, ... }
        if self.tok.kind == "ident" and self.peek().text == ":=":
            depth = 1
            while depth and self.tok.kind != "eof":
                if self.at("{"):
                    depth += 1
                elif self.at("}"):
                    depth -= 1
                self.advance()
            return Syn("other", start.pos, self.toks[self.i - 1].end, "structure instance")
        items = self.comma_list("}")
        if self.at("//"):  # subtype {x // p}
            self.advance()
            body = self.expr(0)
            end = self.expect("}")
            return Syn("other", start.pos, end.end, "subtype", (*items, body))
        if len(items) == 1 and self.at("|"):
            # {f x | x ∈ s}-style image set: keep as uninterpreted
            self.advance()
            body = self.expr(0)
            end = self.expect("}")
            return Syn("other", start.pos, end.end, "image set-builder", (items[0], body))
        end = self.expect("}", "to close the set literal")
        return Syn("setlit", start.pos, end.end, "", tuple(items))

    def setbuilder_binder(self) -> BinderGroup:
        t = self.tok
        if self.at("("):
            self.advance()
            e = self.expr(0)
            if self.at(":"):
                self.advance()
                ty = self.expr(0)
                self.expect(")")
                if e.kind == "ident":
                    return BinderGroup((e.val,), ty, pos=t.pos)
                return BinderGroup(("⟨pattern⟩",), ty, pos=t.pos, pred=("pattern", e))
            self.expect(")")
            return BinderGroup(("⟨pattern⟩",), None, pos=t.pos, pred=("pattern", e))
        name = self.advance().text
        if self.at(":"):
            self.advance()
            ty = self.expr(0)
            return BinderGroup((name,), ty, pos=t.pos)
        if self.at("∈"):
            self.advance()
            s = self.expr(51)
            return BinderGroup((name,), None, pos=t.pos, pred=("∈", s))
        return BinderGroup((name,), None, pos=t.pos)

    def modeq(self, lhs: Syn) -> Syn:
        self.advance()
        rhs = self.expr(51)
        if not self.at("[MOD", "[ZMOD", "[PMOD", "[SMOD"):
            raise self.error(f"expected [MOD n] or [ZMOD n] after ≡, found {self.tok.text!r}")
        kind = self.advance().text[1:]
        n = self.expr(0)
        end = self.expect("]")
        return Syn("modeq", lhs.pos, end.end, kind, (lhs, rhs, n))

    def ite(self) -> Syn:
        start = self.advance()
        c = self.expr(0)
        if self.at(":"):  # if h : c then ...
            self.advance()
            c = self.expr(0)
        self.expect("then")
        a = self.expr(0)
        self.expect("else")
        b = self.expr(0)
        return Syn("ite", start.pos, b.end, "", (c, a, b))

    def integral(self) -> Syn:
        start = self.advance()
        groups = self.binder_groups(stop=(",", "in"))
        dom = None
        if self.at("in"):
            self.advance()
            dom = self.expr(0)
            if self.at(".."):
                self.advance()
                hi = self.expr(0)
                dom = Syn("other", dom.pos, hi.end, "interval", (dom, hi))
        self.expect(",")
        body = self.expr(67)
        args = (body,) if dom is None else (dom, body)
        return Syn("binder", start.pos, body.end, "∫", args, tuple(groups))

    # -- binders ---------------------------------------------------------------------
    def binder_groups(self, stop: tuple[str, ...]) -> list[BinderGroup]:
        """Binders of ``∀``/``∃``/``fun``/``∑`` up to one of ``stop`` (not consumed)."""
        groups: list[BinderGroup] = []
        while not self.at(*stop):
            t = self.tok
            if t.kind == "eof":
                raise self.error(f"unexpected end of input in binders, expected {stop[0]!r}")
            if self.at("(", "{", "⦃", "["):
                groups.append(self.bracketed_binder())
                continue
            if self.at("⟨"):
                pat = self.nud()
                groups.append(BinderGroup(("⟨pattern⟩",), None, pos=t.pos, pred=("pattern", pat)))
                continue
            names: list[str] = []
            while self.tok.kind == "ident" and self.tok.text not in KEYWORDS or self.at("_"):
                names.append(self.advance().text)
            if not names:
                raise self.error(f"expected a binder name, found {self.tok.text or 'end of input'!r}")
            if self.at(":"):
                self.advance()
                ty = self.expr(0)  # `in` is a keyword: a type stops before it (∑ k : ℤ in s, …)
                groups.append(BinderGroup(tuple(names), ty, pos=t.pos))
            elif self.tok.kind == "sym" and self.tok.text in BINDER_PREDS:
                op = self.advance().text
                rhs = self.expr(51)
                groups.append(BinderGroup(tuple(names), None, pos=t.pos, pred=(op, rhs)))
            else:
                groups.append(BinderGroup(tuple(names), None, pos=t.pos))
        return groups

    def bracketed_binder(self) -> BinderGroup:
        t = self.advance()
        closer = {"(": ")", "{": "}", "⦃": "⦄", "[": "]"}[t.text]
        style = {"(": "explicit", "{": "implicit", "⦃": "strict_implicit", "[": "instance"}[t.text]
        if style == "instance":
            # [inst : C α] or [C α]
            name: tuple[str, ...] = ()
            if self.tok.kind == "ident" and self.peek().text == ":":
                name = (self.advance().text,)
                self.advance()
            ty = self.expr(0)
            self.expect(closer, "to close the instance binder")
            return BinderGroup(name, ty, style, pos=t.pos)
        names: list[str] = []
        while self.tok.kind == "ident" and self.tok.text not in KEYWORDS or self.at("_"):
            names.append(self.advance().text)
        if not names:
            raise self.error(f"expected a binder name after {t.text!r}")
        ty = None
        pred = None
        if self.at(":"):
            self.advance()
            ty = self.expr(0)
        elif self.tok.kind == "sym" and self.tok.text in BINDER_PREDS:
            op = self.advance().text
            pred = (op, self.expr(51))
        if self.at(":="):
            self.advance()
            self.expr(0)  # default value: ignored
        self.expect(closer, f"to close the binder {t.text}{' '.join(names)} ...")
        return BinderGroup(tuple(names), ty, style, pred, pos=t.pos)

    def binder_notation(self) -> Syn:
        start = self.advance()
        q = start.text
        if q in BIGOPS:
            groups = self.binder_groups(stop=(",", "in", "with"))
            dom = None
            if self.at("in"):
                self.advance()
                dom = self.expr(0)
            cond = None
            if self.at("with"):
                self.advance()
                cond = self.expr(0)
            self.expect(",", f"after the binders of {q}")
            body = self.expr(67)
            return Syn("binder", start.pos, body.end, q, (body,), tuple(groups),
                       {"domain": dom, "cond": cond})
        groups = self.binder_groups(stop=(",",))
        if not groups:
            raise self.error(f"expected binders after {q!r}")
        self.expect(",", f"after the binders of {q}")
        body = self.expr(0)
        return Syn("binder", start.pos, body.end, q, (body,), tuple(groups))

    def lam(self) -> Syn:
        start = self.advance()
        groups = self.binder_groups(stop=("=>", "↦", "|"))
        if self.at("|"):
            raise self.error("pattern-matching lambdas (fun | ...) are not supported")
        self.advance()
        body = self.expr(0)
        return Syn("binder", start.pos, body.end, "fun", (body,), tuple(groups))
