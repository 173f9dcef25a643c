"""Set notation of HOL terms between braces: ``{}``, ``{a, b}``, intervals ``{a..b}`` /
``{..<n}`` / ``{a<..}``, builders ``{x. P}`` / ``{x::T. P}`` / ``{x ∈ A. P}`` / ``{(a, b). P}``,
and comprehensions ``{t | x y. P}``.

A mixin of ``terms.TermParser`` (it uses the parser's token helpers, ``expr``/``formula``,
``within``, ``binder_vars`` and ``inf``).
"""

from __future__ import annotations

from provers.ir import BOOL, SetSort
from provers.isabelle.inference import ElabError
from provers.isabelle.lexer import Token
from provers.isabelle.notation import KEYWORDS
from provers.isabelle.preterm import (
    PreApp,
    PreQuant,
    PreSetBuilder,
    PreSym,
    PreTerm,
    PreVar,
    free_vars,
    pairs,
)

#: interval notations after the first element: tokens -> IR operation (``{a..b}`` is ``Icc``)
_INTERVALS = (("..", "Icc"), ("..<", "Ico"), ("<..", "Ioc"), ("<..<", "Ioo"))


class SetNotation:
    """Mixin of ``terms.TermParser``: what may stand between braces."""

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
        for op, kind in _INTERVALS:
            if self.at(op):
                return self._interval(first, kind, pos)
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

    def _interval(self, first: PreTerm, kind: str, pos: int) -> PreTerm:
        """``{a..b}`` and friends; ``{a..}`` / ``{a<..}`` are unbounded (uninterpreted)."""
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

    # ---- builders ------------------------------------------------------------------------------
    def _try_set_builder(self, pos: int) -> PreTerm | None:
        """``{x. P}``, ``{x::T. P}``, ``{x ∈ A. P}``, ``{(a, b). P}`` as a set builder; for ``{x ∈ A …}``
        that is no builder, the first element (read once, never re-read); None otherwise."""
        t0, t1 = self.peek(), self.peek(1)
        if t0.kind == "ident" and t1.text in (".", "::") and t0.text not in KEYWORDS:
            return self._builder_of_name(t0, t1)
        if t0.kind == "ident" and t1.text == "∈":
            return self._builder_in(t0, pos)
        if t0.text == "(":
            return self._builder_of_pattern(pos)
        return None

    def _builder_of_name(self, t0: Token, t1: Token) -> PreTerm | None:
        """``{x. P}`` or ``{x::T. P}`` (None for a singleton ``{x :: T}``)."""
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
            v = PreVar(t0.text, self.inf.untyped(t0.text))  # a retry may give it a narrower type
        body = self.within([v], lambda: self.formula(0))
        self.expect("}", "to close {x. P}")
        return PreSetBuilder(v, body)

    def _builder_in(self, t0: Token, pos: int) -> PreTerm:
        """``{x ∈ A. P}``; ``{x ∈ A, …}`` or ``{x ∈ A ∧ …}`` is no builder: what was read is kept."""
        self.next()
        mem_pos = self.next().pos
        dom = self.expr(51)
        if not self.at("."):
            return self.expr(31, left=self.binary("mem", self.name(t0), dom, mem_pos))
        self.next()
        if any(u.name == t0.text for u in free_vars(dom)):
            # `{x ∈ A. P}` is the translation `{x. x ∈ A ∧ P}`: Isabelle reads A's x as the bound one
            raise ElabError(f"{{{t0.text} ∈ A. P}} with {t0.text} in A: Isabelle reads that {t0.text} as the bound one; rename it", pos)
        v = PreVar(t0.text, self.inf.fresh())
        self.inf.unify(dom.sort, SetSort(v.sort), pos, "{x ∈ A. P}")
        body = self.within([v], lambda: self.formula(0))
        self.expect("}", "to close {x ∈ A. P}")
        return PreSetBuilder(v, PreApp("and", (PreApp("mem", (v, dom), BOOL), body), BOOL))

    def _builder_of_pattern(self, pos: int) -> PreTerm | None:
        """``{(a, b). P}`` / ``{(a, b) ∈ A. P}`` = ``{p. ∃a b. p = (a, b) ∧ P}`` (None when the
        parenthesis holds no tuple of plain names followed by ``.`` or ``∈``)."""
        j, names = 1, []
        while self.peek(j).kind == "ident" and self.peek(j + 1).text in (",", ")"):
            names.append(self.peek(j).text)
            if self.peek(j + 1).text == ")":
                break
            j += 2
        if not (len(names) >= 2 and self.peek(j + 1).text == ")" and self.peek(j + 2).text in (".", "∈")):
            return None
        self.i += j + 2
        vs = [PreVar(n, self.inf.fresh()) for n in names]
        dom = None
        if self.at("∈"):
            self.next()
            dom = self.expr(51)
        self.expect(".", "after the pattern of {(a, b). P}")
        body = self.within(vs, lambda: self.formula(0))
        self.expect("}", "to close {(a, b). P}")
        pattern = pairs(vs)
        if dom is not None:
            self.inf.unify(dom.sort, SetSort(pattern.sort), pos, "{(a, b) ∈ A. P}")
            body = PreApp("and", (PreApp("mem", (pattern, dom), BOOL), body), BOOL)
        z = self.inf.fresh_var("p", pattern.sort)
        eq = PreApp("eq", (z, pattern), BOOL)
        return PreSetBuilder(z, PreQuant("exists", tuple(vs), PreApp("and", (eq, body), BOOL)))

    # ---- comprehensions ------------------------------------------------------------------------
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
