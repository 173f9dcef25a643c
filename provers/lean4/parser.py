"""Lean 4 theorem statements → IR ``Statement``: the frontend's entry point ``parse_lean``.

Accepted input: an optional header (``import``, ``open ... [in]``, ``set_option``,
``namespace``/``section``/``end``, ``universe``, ``variable``, and auxiliary ``def``/``abbrev``
declarations whose names become uninterpreted constants), then exactly one
``theorem``/``lemma``/``example`` with its binders and type, ending at the type, at ``:=`` or
at ``:= <proof>`` (the proof is ignored). A statement inside a markdown code fence is
extracted. Anything else (prose, a ``def`` alone, a proof script alone, several theorems)
raises ``ParseError`` with a line, a column and a one-line reason.

Decisions: prose around the statement outside a code fence is rejected (we do not guess
where the statement starts). ``variable`` binders are added to the statement when it uses
them, as Lean does.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from provers.errors import InputTooLargeError, ParseError
from provers.ir import (
    BOOL,
    SORT,
    TYPE,
    Hypothesis,
    IRError,
    OpaqueSort,
    Sort,
    Statement,
    Var,
    VarBinder,
)
from provers.lean4.commands import COMMAND_KEYWORDS, DECLARATIONS, command_reason
from provers.lean4.definitions import Definition
from provers.lean4.elaborate import Elaborator, NeedAutoBound
from provers.lean4.header import HeaderReader
from provers.lean4.lexer import MAX_CHARS, Token, strip_comments, tokenize
from provers.lean4.pratt import TermParser
from provers.lean4.syntax import BinderGroup, Syn

#: classes whose argument is ``Sort u`` (Prop included), so they leave an auto-bound type
#: variable in ``Sort u``; the others (algebra, order, topology) need ``Type u``
SORT_CLASSES = frozenset({"Nonempty", "Inhabited", "Subsingleton", "Unique", "Finite", "Infinite",
                          "DecidableEq", "Countable", "IsEmpty", "Small", "Decidable"})
#: the words of an instance binder (`Module F V` -> Module, F, V)
_WORD = re.compile(r"[^\s()\[\]{},:]+")
HYP_NAME = re.compile(r"^(h|H\d|hyp|this)[\w₀-₉'.]*$")
# Nesting is capped (pratt.MAX_DEPTH); the elaborator recurses a few frames per level.
if sys.getrecursionlimit() < 10_000:
    sys.setrecursionlimit(10_000)

_FENCE = re.compile(r"```[^\n`]*\n(.*?)```", re.S)


def parse_lean(text: str) -> Statement:
    """Parse one Lean 4 theorem statement (optionally with its header) into the IR."""
    if not isinstance(text, str):
        raise ParseError(f"expected a string, got {type(text).__name__}")
    if len(text) > MAX_CHARS:
        raise InputTooLargeError(f"input of {len(text)} characters exceeds the limit of {MAX_CHARS}")
    start, end = _fenced_span(text)
    clean = strip_comments(text)
    toks = tokenize(clean, start, end)
    return _StatementParser(text, clean, toks).parse()


def _fenced_span(text: str) -> tuple[int, int]:
    """The span of the one fenced code block holding a declaration, or the whole text."""
    if "```" not in text:
        return 0, len(text)
    blocks = [m for m in _FENCE.finditer(text)]
    if not blocks:
        raise ParseError.at_offset("unterminated markdown code fence", text, text.index("```"))
    with_decl = [m for m in blocks if re.search(r"\b(theorem|lemma|example)\b", m.group(1))]
    if not with_decl:
        raise ParseError.at_offset("no theorem, lemma or example inside the code fence", text, blocks[0].start())
    if len(with_decl) > 1:
        raise ParseError.at_offset(
            f"{len(with_decl)} code fences contain declarations; expected exactly one statement",
            text, with_decl[1].start())
    return with_decl[0].start(1), with_decl[0].end(1)


class _StatementParser:
    def __init__(self, text: str, clean: str, toks: list[Token]):
        self.text = text
        self.clean = clean
        self.toks = toks
        self.p = TermParser(toks, text)
        self.opens: list[str] = []
        self.definitions: dict[str, Definition] = {}
        self.variables: list[BinderGroup] = []
        self.notes: list[str] = []

    def error(self, reason: str, tok: Token) -> ParseError:
        return ParseError.at_offset(reason, self.text, tok.pos)

    def span(self, syn) -> str:
        """The source text of a syntax node, comments removed, whitespace collapsed (kept on
        the IR so the Lean backend can render Lean's own text instead of our reading). Empty
        when the text uses a name defined before the theorem: Lean would read it in its own
        environment (where that name is unknown, or the trusted header's definition of it),
        not as the definition this statement made."""
        if syn is None:
            return ""
        if self.definitions and any(t.kind == "ident" and t.text.split(".")[0] in self.definitions
                                    for t in self.toks if syn.pos <= t.pos < syn.end):
            return ""
        return " ".join(self.clean[syn.pos : syn.end].split())

    def parse(self) -> Statement:
        header = HeaderReader(self.text, self.clean, self.toks).read()
        if header is None:
            raise self._no_statement()
        self.opens = header.opens
        self.definitions = header.definitions
        self.variables = header.variables
        self.notes = list(header.notes)
        return self._theorem(header.keyword, header.decl)

    def _no_statement(self) -> ParseError:
        toks = self.toks
        first = toks[0]
        if first.kind == "eof":
            return self.error("empty input: no theorem statement", first)
        words = [t.text for t in toks if t.kind == "ident"]
        for t in toks:
            if t.kind == "ident" and t.text in ("def", "abbrev", "instance", "structure", "inductive"):
                return self.error(f"a {t.text} declaration, not a theorem statement", t)
        tactics = {"intro", "intros", "apply", "exact", "simp", "rw", "linarith", "nlinarith",
                   "norm_num", "omega", "ring", "field_simp", "have", "refine", "constructor",
                   "use", "cases", "rcases", "induction", "calc", "by", "sorry", "positivity"}
        if words and words[0] in tactics:
            return self.error("a proof script without a theorem statement", first)
        return self.error(
            "no theorem, lemma or example declaration found (prose or other text?)", first)

    # -- the theorem -------------------------------------------------------------------
    def _theorem(self, d: int, header_end: int) -> Statement:
        toks = self.toks
        kw = toks[d]
        p = self.p
        p.i = d + 1
        name = None
        if kw.text != "example":
            if toks[p.i].kind != "ident" or toks[p.i].text in COMMAND_KEYWORDS:
                raise self.error(f"expected a name after {kw.text!r}", toks[p.i])
            name = p.advance().text
        groups: list[BinderGroup] = []
        while p.at("(", "{", "[", "⦃"):
            groups.append(p.bracketed_binder())
        if not p.at(":"):
            found = p.tok.text or "end of input"
            if p.tok.kind == "ident" and p.tok.text in COMMAND_KEYWORDS:
                raise self.error(command_reason(p.tok.text), p.tok)
            raise self.error(f"expected ':' and the statement after the binders, found {found!r}", p.tok)
        p.advance()
        concl_syn = p.expr(0)
        self._check_tail(p.i)
        if kw.text == "def":
            self.notes.append(f"def {name}: a body-less def; the statement is that its type is inhabited")
        header = self.text[toks[0].pos : toks[header_end].pos].strip() if header_end > 0 else ""

        used = {tk.text.split(".")[0] for tk in toks[d:p.i] if tk.kind == "ident"}
        all_groups = [g for g in self.variables if any(n in used for n in g.names)] + groups
        untyped = any(g.type is None and g.style != "instance" for g in all_groups)
        try:
            if untyped:
                raise NeedAutoBound("")
            el = self._new_elaborator()
            binders, conclusion = self._build(el, all_groups, concl_syn, {})
        except NeedAutoBound:
            binders, conclusion, el = self._build_inferred(all_groups, concl_syn)
        return Statement(
            binders=tuple(binders),
            conclusion=conclusion,
            language="lean4",
            name=name,
            header=header,
            source=self.text,
            conclusion_source=self.span(concl_syn),
            notes=tuple(dict.fromkeys((*el.notes, *self.notes))),
        )

    def _check_tail(self, i: int) -> None:
        """After the statement: nothing, ``:= sorry``, ``:= by sorry`` or a proof (ignored) —
        and never a command: Lean would run it, or read the statement differently."""
        toks = self.toks
        t = toks[i]
        if t.kind == "eof":
            return
        if t.text not in (":=", "where", "|", "by"):
            if t.kind == "ident" and t.text in COMMAND_KEYWORDS:
                self._refuse_in_tail(i)
            if t.kind == "sym" and t.text in ("#", "@"):
                self._refuse_in_tail(i)
            raise self.error(f"unexpected {t.text!r} after the statement (expected ':=' or the end)", t)
        for k in range(i + 1, len(toks) - 1):
            self._refuse_in_tail(k)

    def _refuse_in_tail(self, k: int) -> None:
        toks = self.toks
        t = toks[k]
        if t.kind == "sym" and t.text == "#":
            nxt = toks[k + 1]
            if nxt.text == "(" and nxt.pos == t.end:
                return  # `#(s.filter p)`: Mathlib's Finset.card notation, a term
            word = "#" + (nxt.text if nxt.kind == "ident" and nxt.pos == t.end else "")
            raise self.error(command_reason(word) + " (it comes after the statement)", t)
        if t.kind == "sym" and t.text == "@" and toks[k + 1].text == "[":
            raise self.error("attribute `@[...]` after the statement: it starts another "
                             "declaration; remove it", t)
        if t.kind != "ident" or t.text not in COMMAND_KEYWORDS:
            return
        if t.text in ("open", "set_option") and not self._at_column0(t) and self._tactic_in(k):
            return  # `open Real in simp`, `set_option maxRecDepth 1000 in ring`: tactic combinators
        if t.text in DECLARATIONS or t.text in ("def", "abbrev"):
            n = 1 + sum(1 for x in toks[k:] if x.kind == "ident" and x.text in DECLARATIONS)
            raise self.error(f"{n} declarations (theorem/lemma/example/def); expected exactly one "
                             f"statement: `{t.text}` after the statement", t)
        raise self.error(command_reason(t.text) + " (it comes after the statement)", t)

    def _tactic_in(self, k: int) -> bool:
        """``open ... in`` / ``set_option ... in`` inside a proof, on one line."""
        toks = self.toks
        line = self.text.count("\n", 0, toks[k].pos)
        j = k + 1
        while toks[j].kind != "eof" and self.text.count("\n", 0, toks[j].pos) == line:
            if toks[j].kind == "ident" and toks[j].text == "in":
                return True
            if toks[j].kind == "ident" and toks[j].text in COMMAND_KEYWORDS:
                return False
            j += 1
        return False

    def _at_column0(self, t: Token) -> bool:
        return t.pos == 0 or self.text[t.pos - 1] == "\n"

    def _new_elaborator(self) -> Elaborator:
        el = Elaborator(self.text, tuple(self.opens), self.definitions)
        el.auto_bound = {}
        return el

    def _build(self, el: Elaborator, groups: list[BinderGroup], concl_syn, untyped: dict[str, Sort]):
        binders: list[VarBinder | Hypothesis] = []
        # `(a : k) [Field k]`: an auto-bound type with an instance binder is not bare
        el.with_instances = {w for g in groups if g.style == "instance" and g.type is not None
                             for w in _WORD.findall(self.span(g.type))}
        for g in groups:
            with _ill_typed_at(self.text, g.pos):
                binders.extend(self._binder(el, g, untyped))
        with _ill_typed_at(self.text, concl_syn.pos):
            return binders, el.prop(concl_syn)

    def _build_inferred(self, groups: list[BinderGroup], concl_syn):
        """Two passes for untyped binders ``(n)`` and auto-bound implicits (Lean's
        autoImplicit): infer their sorts from their uses, then elaborate for real."""
        el1 = self._new_elaborator()
        el1.auto_mode = "infer"
        el1.infer_depth = 1
        pending = {n: el1.sorts.fresh(name=n) for g in groups if g.type is None and g.style != "instance" for n in g.names}
        try:
            self._build(el1, groups, concl_syn, dict(pending))
        except ParseError as e:  # (IRError is converted by _build)
            if isinstance(e, InputTooLargeError):
                raise
        sorts = {n: el1.settle(v, n) for n, v in pending.items()}
        auto = {n: el1.settle(v.sort, n) for n, v in (el1.auto_bound or {}).items()}  # type: ignore[arg-type]
        for n in el1.type_names:  # an auto-bound name used as a type is a type variable
            auto[n] = self._auto_universe(n, groups)
        auto = dict(sorted(auto.items(), key=lambda kv: self._first_use(kv[0])))  # Lean binds them in order of use
        el = self._new_elaborator()
        el.auto_mode = "default"
        el.auto_bound = {n: Var(n, s) for n, s in auto.items()}
        el.notes.extend(el1.notes)
        for n in auto:
            el.notes.append(f"{n} is not bound: an auto-bound implicit variable (Lean autoImplicit)")
        auto_binders = [VarBinder(v, "implicit") for v in el.auto_bound.values()]
        binders, conclusion = self._build(el, groups, concl_syn, sorts)
        extra = [VarBinder(v, "implicit") for n, v in el.auto_bound.items() if n not in auto]
        return auto_binders + extra + binders, conclusion, el

    def _first_use(self, name: str) -> int:
        m = re.search(rf"(?<![\w.']){re.escape(name)}(?![\w'.₀-₉])", self.text)
        return m.start() if m else len(self.text)

    def _auto_universe(self, name: str, groups: list[BinderGroup]) -> Sort:
        """Lean gives an auto-bound type variable ``Sort u``; a class or type family that takes
        ``Type u`` (``[Ring R]``, ``Set R``) makes it ``Type u``."""
        for g in groups:
            if g.style == "instance" and g.type is not None:
                head, *args = _WORD.findall(self.span(g.type)) or [""]
                if name in args and head not in SORT_CLASSES:
                    return TYPE
        if re.search(rf"\b(?:Set|Finset|List|Multiset|Polynomial)\s+{re.escape(name)}(?![\w'])", self.text):
            return TYPE
        return SORT

    def _unshadowed(self, el: Elaborator, name: str) -> str:
        """The IR name of a theorem binder: its own, or — when an earlier binder has that name
        (``(n : ℤ) (h : n = 2) (n) (_ : n = 3)``: Lean's later ``n`` shadows the first, which
        is still a variable of the theorem) — a fresh one, so that the two stay two variables
        (one name for both made ``n = 2`` and ``n = 3`` premises about one n)."""
        if not isinstance(el.scope.get(name), Var):
            return name
        fresh = name + "'"
        while isinstance(el.scope.get(fresh), Var) or re.search(rf"(?<![\w.']){re.escape(fresh)}(?![\w'])", self.text):
            fresh += "'"
        return fresh

    def _binder(self, el: Elaborator, g: BinderGroup, untyped: dict[str, Sort] | None = None) -> list[VarBinder | Hypothesis]:
        out: list[VarBinder | Hypothesis] = []
        if g.style == "instance":
            formula = el.prop(g.type) if g.type is not None else None
            if formula is not None:
                out.append(Hypothesis(g.names[0] if g.names else None, formula, "instance",
                                      source=self.span(g.type)))
            return out
        if g.type is None:
            if g.pred is not None:
                raise el.err(Syn("other", g.pos, g.pos), "binder predicates are not allowed in theorem binders")
            for n in g.names:
                v = Var(self._unshadowed(el, n), (untyped or {}).get(n) or OpaqueSort(f"α_{n}"))
                el.scope[n] = v
                out.append(VarBinder(v, g.style, written=n if v.name != n else ""))
            return out
        sort, certain = el.type_or_prop(g.type)
        hyp_like = all(HYP_NAME.match(n) for n in g.names)
        if sort is not None and (certain or not hyp_like):
            for n in g.names:
                v = Var(self._unshadowed(el, n), sort)
                el.scope[n] = v
                out.append(VarBinder(v, g.style, source=self.span(g.type), written=n if v.name != n else ""))
            return out
        formula = el.prop(g.type)
        if formula.sort != BOOL:
            raise el.err(g.type, "hypothesis is not a proposition")
        for n in g.names:
            out.append(Hypothesis(n if n != "_" else None, formula, g.style,
                                  source=self.span(g.type)))
        return out


@contextmanager
def _ill_typed_at(text: str, offset: int) -> Iterator[None]:
    """An IR sort error the elaborator did not anticipate is still a ParseError, located at
    the binder or statement it came from (never an exception of another type)."""
    try:
        yield
    except IRError as e:
        raise ParseError.at_offset(f"ill-typed: {e}", text, offset) from None
