"""Isabelle/HOL theorem statements -> ``Statement`` (the IR).

Reads the outer syntax of ``theorem``/``lemma`` (name, attributes, ``fixes``, ``assumes``,
``defines``, ``shows``, the short form ``theorem "P"`` with ``for``), drops a trailing proof
(``proof``/``by``/``sorry``/``oops``/``apply``), reads every quoted term into a pre-term with
one shared sort-inference state (``terms.TermParser`` over ``inference.Inference``), and
finishes all of them into IR at once (``finish.Finisher``), when every sort is known. Anything that is
not one statement raises ``ParseError`` with a position and a reason a user can act on.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace

from provers.errors import InputTooLargeError, ParseError
from provers.ir import BOOL, Hypothesis, IRError, Sort, Statement, Term, VarBinder, and_, app, show
from provers.isabelle.checker import IMPLICIT_NOTE, checker_errors
from provers.isabelle.constants import HOL_CONSTANTS, as_constants
from provers.isabelle.finish import Finisher
from provers.isabelle.inference import ElabError, Inference
from provers.isabelle.lexer import LexError, tokenize
from provers.isabelle.preterm import PreApp, PreLam, PreQuant, PreTerm, PreVar, height
from provers.isabelle.symbols import decode
from provers.isabelle.terms import Scope, TermParser
from provers.isabelle.types import TypeReader, show_sort

MAX_CHARS = 100_000  # one statement (the Lean frontend uses the same limit)
MAX_TOKENS = 5_000  # outer tokens (keywords, names, quoted strings)
MAX_TERM_TOKENS = 20_000  # tokens inside one quoted term
MAX_TREE_DEPTH = 1_000  # height of one term, e.g. an operator chain (the Lean frontend's limit)
# Later stages (type finishing, normal form) recurse a few frames per level of a term.
if sys.getrecursionlimit() < 10_000:
    sys.setrecursionlimit(10_000)

THEOREM_WORDS = ("theorem", "lemma", "corollary", "proposition", "schematic_goal")
ELEMENT_WORDS = ("fixes", "assumes", "defines", "shows", "obtains", "constrains", "notes", "includes")
PROOF_WORDS = ("proof", "by", "sorry", "oops", "apply", "using", "unfolding", "including", "supply", "done", "qed", "nitpick", "sledgehammer", "end", "text", "(*")
DEFINITION_WORDS = (
    "definition", "fun", "function", "primrec", "datatype", "abbreviation", "typedef",
    "type_synonym", "record", "locale", "consts", "axiomatization", "inductive", "class",
    "instantiation", "lift_definition", "codatatype", "inductive_set", "context", "interpretation",
)


@dataclass(frozen=True)
class OTok:
    """Outer-syntax token: a word, a symbol, or a quoted string (``start``/``end`` of its body)."""

    kind: str  # "word" | "sym" | "string" | "eof"
    text: str
    pos: int
    start: int = 0
    end: int = 0


def _outer_tokens(text: str) -> list[OTok]:
    toks: list[OTok] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
            continue
        if text.startswith("(*", i):
            j = text.find("*)", i + 2)
            i = n if j == -1 else j + 2
            continue
        if c == '"' or c == "‹":
            close = '"' if c == '"' else "›"
            j = i + 1
            while j < n and text[j] != close:
                j += 2 if (text[j] == "\\" and close == '"' and j + 1 < n and text[j + 1] == '"') else 1
            if j >= n:
                raise ParseError.at_offset(f"unterminated {c}…{close}: the statement is cut off", text, i)
            toks.append(OTok("string", text[i : j + 1], i, i + 1, j))
            i = j + 1
            continue
        if text.startswith("::", i):
            toks.append(OTok("sym", "::", i))
            i += 2
            continue
        if c.isalnum() or c in "_'⇩" or c.isalpha():
            j = i
            while j < n and (text[j].isalnum() or text[j] in "_'.⇩") and not text.startswith("(*", j):
                j += 1
            while j > i + 1 and text[j - 1] == ".":
                j -= 1
            toks.append(OTok("word", text[i:j], i))
            i = j
            continue
        toks.append(OTok("sym", c, i))
        i += 1
    toks.append(OTok("eof", "", n))
    return toks


class _Outer:
    def __init__(self, text: str, toks: list[OTok]):
        self.text, self.toks, self.i = text, toks, 0

    def peek(self, k: int = 0) -> OTok:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def next(self) -> OTok:
        t = self.toks[self.i]
        if t.kind != "eof":
            self.i += 1
        return t

    def err(self, reason: str, tok: OTok | None = None) -> ParseError:
        return ParseError.at_offset(reason, self.text, (tok or self.peek()).pos)

    def is_word(self, *words: str) -> bool:
        t = self.peek()
        return t.kind == "word" and t.text in words


def _first_line(text: str, offset: int) -> str:
    line = text[offset:].strip().split("\n", 1)[0]
    return line if len(line) <= 60 else line[:57] + "..."


def _strip_fences(text: str) -> str:
    """Blank Markdown code-fence lines (same length, so offsets stay valid)."""
    lines = text.split("\n")
    for k, line in enumerate(lines):
        if line.strip().startswith("```"):
            lines[k] = " " * len(line)
    return "\n".join(lines)


def parse_isabelle(text: str, imports: tuple[str, ...] = ()) -> Statement:
    """Parse one Isabelle/HOL ``theorem``/``lemma`` statement into the IR. ``imports``: the
    theories the caller checks it with beyond ``Complex_Main`` (``"HOL-Analysis.Analysis"``),
    for ``Statement.checker_errors``."""
    if not isinstance(text, str):
        raise ParseError(f"expected a string, got {type(text).__name__}")
    if len(text) > MAX_CHARS:
        raise InputTooLargeError(f"input is {len(text)} characters; the limit for one statement is {MAX_CHARS}")
    source = text
    decoded, offsets = decode(_strip_fences(text))  # positions of its errors are already in `text`
    try:
        statement = _parse(decoded, source)
    except RecursionError:  # a safety net: the limits above should come first
        raise InputTooLargeError("statement nested too deeply to read") from None
    except ParseError as e:
        # map the position from decoded text back to the user's text
        if e.text is decoded:
            off = _offset_of(decoded, e.line, e.column)
            cls = type(e)
            raise cls.at_offset(e.reason, source, offsets[min(off, len(offsets) - 1)]) from None
        raise
    errors = checker_errors(source, statement, imports)
    return replace(statement, checker_errors=errors) if errors else statement


def _height(res: object) -> int:
    """Height of the deepest pre-term in an elaboration result (in tuples and lists)."""
    stack, best = [res], 0
    while stack:
        x = stack.pop()
        if isinstance(x, PreTerm):
            best = max(best, height(x))
        elif isinstance(x, (tuple, list)):
            stack.extend(x)
    return best


def _offset_of(text: str, line: int, column: int) -> int:
    off = 0
    for _ in range(line - 1):
        off = text.index("\n", off) + 1
    return off + column - 1


def _parse(text: str, source: str) -> Statement:
    toks = _outer_tokens(text)
    if len(toks) > MAX_TOKENS:
        raise InputTooLargeError(f"input has {len(toks)} tokens; the limit for one statement is {MAX_TOKENS}")
    o = _Outer(text, toks)
    if o.peek().kind == "eof":
        raise o.err("empty input: expected an Isabelle `theorem` or `lemma`")
    if o.is_word("theory"):
        while not (o.is_word("begin") or o.peek().kind == "eof"):
            o.next()
        if o.peek().kind == "eof":
            raise o.err("`theory … imports …` header without `begin`")
        o.next()
    t = o.peek()
    if t.kind == "word" and t.text in DEFINITION_WORDS:
        nxt = o.peek(1)
        raise o.err(
            f"the candidate starts with `{t.text} {nxt.text}`: local definitions cannot be read into the IR; "
            "inline the definition or state it as an assumption (assumes \"∀x. f x = …\")"
        )
    if t.kind == "word" and t.text in PROOF_WORDS:
        raise o.err(f"this is a proof (starts with `{t.text}`), not a statement: expected `theorem` or `lemma`")
    if not (t.kind == "word" and t.text in THEOREM_WORDS):
        if t.kind == "word" and t.text in ELEMENT_WORDS:
            raise o.err(f"the statement starts with `{t.text}`: the `theorem` or `lemma` keyword is missing")
        raise o.err(
            f"prose, not an Isabelle statement (starts with {_first_line(text, t.pos)!r}); "
            "expected `theorem` or `lemma` at the start"
        )
    hints: dict = {}
    start = o.i

    def outer() -> _Outer:
        fresh = _Outer(text, toks)
        fresh.i = start
        return fresh

    for _attempt in range(4):
        try:
            return _Statement(outer(), text, source, hints).run()
        except _Retry as r:
            new = {k: v for k, v in r.hints.items() if k not in hints}
            if not new:
                raise r.error from None
            hints.update(new)
    return _Statement(outer(), text, source, hints).run()


class _Retry(Exception):
    """Elaboration found variable types that would make the statement typecheck."""

    def __init__(self, error: ParseError, hints: dict):
        super().__init__(error.reason)
        self.error, self.hints = error, hints


class _Statement:
    """Builds one Statement from the outer tokens after ``theorem``."""

    def __init__(self, o: _Outer, text: str, source: str, hints: dict | None = None):
        self.o, self.text, self.source = o, text, source
        self.inf = Inference(hints=hints)
        self.scope = Scope(fixed={}, implicit={})
        self.el = TermParser(self.inf, self.scope)
        self.fixes: list[PreVar] = []
        self.hyps: list[tuple[str | None, PreTerm, int]] = []
        self.defines: list[tuple[PreVar, PreTerm, str | None, int]] = []
        self.concls: list[tuple[PreTerm, int]] = []
        self.raw_concls: list[tuple[list[PreVar], list[PreTerm], PreTerm, int]] = []
        self.meta_vars: list[PreVar] = []
        self.name: str | None = None
        self.coercion_notes: list[str] = []

    def run(self) -> Statement:
        o = self.o
        o.next()  # theorem
        self.read_head()
        if o.peek().kind == "string":  # short form: theorem "P" "Q" [for x :: T]
            props = self.read_props()
            if o.is_word("for"):
                o.next()
                self.read_fixes()
            for prop_tok, _name in props:
                self.add_conclusion(prop_tok)
        else:
            self.read_elements()
        self.read_tail()
        return self.build()

    # ---- outer syntax -----------------------------------------------------------------------
    def read_head(self) -> None:
        o = self.o
        t = o.peek()
        if t.kind == "word" and t.text not in ELEMENT_WORDS:
            if o.peek(1).text in (":", "["):
                self.name = o.next().text
            elif o.peek(1).kind == "eof":
                raise o.err(f"half a statement: `{t.text}` is followed by nothing (no `shows`)", o.peek(1))
            else:
                raise o.err(f"unexpected {t.text!r} after the theorem keyword: expected a name, `fixes`, `assumes` or `shows`", t)
        if o.peek().text == "[":
            self.skip_attributes()
        if o.peek().text == ":":
            o.next()

    def skip_attributes(self) -> None:
        o = self.o
        start = o.next()
        depth = 1
        while depth:
            t = o.next()
            if t.kind == "eof":
                raise o.err("unclosed [ … ] attribute list", start)
            depth += {"[": 1, "]": -1}.get(t.text, 0)

    def read_elements(self) -> None:
        o = self.o
        seen_shows = False
        while True:
            t = o.peek()
            if t.kind != "word" or t.text not in ELEMENT_WORDS:
                break
            o.next()
            if t.text == "fixes":
                self.read_fixes()
            elif t.text == "assumes":
                self.read_named_props(self.add_hyp)
            elif t.text == "defines":
                self.read_named_props(self.add_define)
            elif t.text == "shows":
                seen_shows = True
                self.read_named_props(lambda p, n: self.add_conclusion(p))
            elif t.text == "obtains":
                raise o.err("`obtains` statements are not supported: state the conclusion with `shows \"∃x. …\"`", t)
            else:
                raise o.err(f"`{t.text}` is not supported in a statement", t)
        if not seen_shows:
            t = o.peek()
            if t.kind == "eof":
                raise o.err("half a statement: no `shows \"…\"` conclusion (the text ends after the assumptions)")
            raise o.err(f"expected `fixes`, `assumes`, `defines` or `shows`, found {t.text!r}" + (
                " (a proof before any `shows`?)" if t.text in PROOF_WORDS else ""))

    def read_fixes(self) -> None:
        o = self.o
        while True:
            names = []
            while o.peek().kind == "word" and o.peek().text not in ELEMENT_WORDS + ("and", "for") + PROOF_WORDS:
                names.append(o.next())
            if not names:
                raise o.err(f"expected variable names after `fixes`, found {o.peek().text or 'the end'!r}")
            sort = None
            if o.peek().text == "::":
                o.next()
                sort = self.read_type_token()
            elif o.peek().text == ":" and o.peek(1).text == ":":
                raise o.err("write `::` without a space for the type of a fixed variable")
            if o.peek().text == "(":
                raise o.err("mixfix annotations on `fixes` are not supported")
            for nt in names:
                if "." in nt.text:
                    raise o.err(f"{nt.text!r} is not a variable name", nt)
                v = PreVar(nt.text, sort if sort is not None else self.inf.fresh())
                if nt.text in self.scope.fixed:
                    raise o.err(f"variable {nt.text} is fixed twice", nt)
                self.scope.fixed[nt.text] = v
                self.fixes.append(v)
            if o.is_word("and"):  # `and` continues the fixes (an element keyword after it is an error)
                o.next()
                if o.peek().kind == "word" and o.peek().text in ELEMENT_WORDS:
                    raise o.err("dangling `and` before a new statement element")
                continue
            break

    def read_type_token(self):
        o = self.o
        t = o.next()
        if t.kind == "string":
            start, end = t.start, t.end
        elif t.kind == "word":
            start, end = t.pos, t.pos + len(t.text)
        else:
            raise o.err(f"expected a type after `::`, found {t.text!r}", t)
        try:
            toks = tokenize(self.text, start, end)
            r = TypeReader(toks, 0, self.inf.sorts)
            s = r.read()
            if toks[r.i].kind != "eof":
                raise LexError(f"unexpected {toks[r.i].text!r} in a type", toks[r.i].pos)
        except LexError as e:
            raise ParseError.at_offset(e.reason, self.text, e.pos) from None
        except ElabError as e:
            raise ParseError.at_offset(e.reason, self.text, e.pos) from None
        return s

    def read_props(self) -> list[tuple[OTok, str | None]]:
        out = []
        while self.o.peek().kind == "string":
            out.append((self.o.next(), None))
        return out

    def read_named_props(self, add) -> None:
        o = self.o
        while True:
            name = None
            t = o.peek()
            if t.kind == "word" and t.text not in ELEMENT_WORDS:
                nxt = o.peek(1)
                if nxt.text in (":", "["):
                    name = o.next().text
                    if o.peek().text == "[":
                        self.skip_attributes()
                    if o.peek().text != ":":
                        raise o.err("expected `:` after the name of an assumption")
                    o.next()
                else:
                    raise o.err(
                        f"expected a quoted proposition, found {t.text!r}: terms must be in double quotes (\"…\")", t)
            elif t.text == ":":
                o.next()
            if o.peek().kind != "string":
                raise o.err("expected a quoted proposition \"…\"" + (" (the text ends here: half a statement)" if o.peek().kind == "eof" else ""))
            while o.peek().kind == "string":
                add(o.next(), name)
            if o.is_word("and"):
                o.next()
                continue
            break

    def read_tail(self) -> None:
        o = self.o
        t = o.peek()
        if t.kind == "eof":
            return
        if t.kind == "word" and t.text in PROOF_WORDS:
            return  # the proof is not part of the statement
        if t.kind == "word" and t.text in THEOREM_WORDS:
            raise o.err("a second theorem follows: give one statement per candidate", t)
        if t.kind == "word" and t.text in ("where", "if", "for"):
            raise o.err(f"`{t.text} …` after `shows` is not part of a theorem statement: state it as an assumption (assumes \"…\")", t)
        if t.kind == "word" and t.text in DEFINITION_WORDS:
            raise o.err(f"a `{t.text}` follows the statement: give the statement alone (inline the definition or assume it)", t)
        raise o.err(f"unexpected text after the statement: {_first_line(self.text, t.pos)!r}", t)

    # ---- terms ------------------------------------------------------------------------------------
    def elaborate(self, tok: OTok, mode: str):
        try:
            toks = tokenize(self.text, tok.start, tok.end)
            if len(toks) > MAX_TERM_TOKENS:
                raise InputTooLargeError.at_offset(
                    f"a term of {len(toks)} tokens; the limit is {MAX_TERM_TOKENS}", self.text, tok.pos)
            if len(toks) == 1:
                raise ElabError("empty proposition \"\"", tok.pos)
            self.el.load(toks)
            if mode == "prop":
                res = self.el.parse_prop()
            elif mode == "define":
                res = self.read_define_body()
            else:
                res = self.el.formula(0)
            self.el.finish_input()
            height = _height(res)
            if height > MAX_TREE_DEPTH:
                raise InputTooLargeError.at_offset(
                    f"term {height} levels deep (an operator chain that long); the limit is {MAX_TREE_DEPTH}",
                    self.text, tok.pos)
            return res
        except ElabError as e:
            err = ParseError.at_offset(e.reason, self.text, e.pos)
            if e.hints:
                raise _Retry(err, e.hints) from None
            raise err from None
        except LexError as e:
            raise ParseError.at_offset(e.reason, self.text, e.pos) from None
        except InputTooLargeError as e:
            raise InputTooLargeError.at_offset(e.reason, self.text, tok.pos) from None
        except RecursionError:
            raise InputTooLargeError.at_offset("term nested too deeply", self.text, tok.pos) from None

    def note_coercions(self, where: str) -> None:
        if self.inf.coercions:
            self.coercion_notes.append(f"{where}: Isabelle coercions inserted for {', '.join(self.inf.coercions)}")
            self.inf.coercions = []

    def add_hyp(self, tok: OTok, name: str | None) -> None:
        vs, hyps, concl = self.elaborate(tok, "prop")
        self.note_coercions(f"assumption {name or '(unnamed)'}")
        self.hyps.append((name, _closed(vs, hyps, concl), tok.pos))

    def add_conclusion(self, tok: OTok) -> None:
        vs, hyps, concl = self.elaborate(tok, "prop")
        self.note_coercions("the conclusion")
        self.raw_concls.append((vs, hyps, concl, tok.pos))

    def settle_conclusions(self) -> None:
        """One ``shows "⋀x. A ⟹ C"``: x and A join the theorem's variables and premises.
        Several: each stays a closed conjunct ``∀x. A ⟶ C`` (premises of one conclusion
        must not become premises of the others)."""
        if len(self.raw_concls) == 1:
            vs, hyps, concl, pos = self.raw_concls[0]
            self.meta_vars.extend(vs)
            self.hyps.extend((None, h, pos) for h in hyps)
            self.concls.append((concl, pos))
            return
        for vs, hyps, concl, pos in self.raw_concls:
            self.concls.append((_closed(vs, hyps, concl), pos))

    def read_define_body(self) -> tuple[PreVar, PreTerm]:
        """``x ≡ t`` or ``f x y ≡ t`` (read as ``f ≡ λx y. t``)."""
        el = self.el
        t = el.next()
        if t.kind != "ident":
            raise ElabError("`defines` expects \"x ≡ t\" (a name, ≡, a term)", t.pos)
        params = []
        while el.peek().kind == "ident":
            params.append(el.next())
        if not el.at("≡", "=", "=="):
            raise ElabError("`defines` expects \"x ≡ t\": found no ≡ after the defined name", el.peek().pos)
        el.next()
        pvars = [PreVar(p.text, self.inf.fresh()) for p in params]
        el.bound.append({v.name: v for v in pvars})
        rhs = el.expr(0)
        el.bound.pop()
        for v in reversed(pvars):
            rhs = PreLam((v,), rhs)
        sort = rhs.sort
        if t.text in self.scope.fixed:
            var = self.scope.fixed[t.text]
            self.inf.unify(var.sort, sort, t.pos, "the definition")
        else:
            var = PreVar(t.text, sort)
            self.scope.fixed[t.text] = var
        return var, rhs

    def add_define(self, tok: OTok, name: str | None) -> None:
        var, rhs = self.elaborate(tok, "define")
        self.note_coercions(f"the definition of {var.name}")
        self.defines.append((var, rhs, name, tok.pos))

    # ---- assembly ---------------------------------------------------------------------------------
    def build(self) -> Statement:
        self.settle_conclusions()
        if not self.concls:
            raise ParseError.at_offset("no conclusion: expected `shows \"…\"`", self.text, len(self.text))
        fz = Finisher(self.inf.sorts)
        notes: list[str] = list(self.coercion_notes)

        def fin(t: PreTerm, pos: int, where: str) -> Term:
            before = set(fz.defaulted)
            try:
                out = fz.term(t)
            except IRError as e:
                raise ParseError.at_offset(f"ill-typed {where}: {e}", self.text, pos) from None
            new = {k: v for k, v in fz.defaulted.items() if k not in before}
            if new:
                sorts = sorted({show_sort(s) for s in new.values()})
                notes.append(f"{where}: a numeric type nothing fixes (polymorphic in Isabelle) defaulted to {', '.join(sorts)}")
            return out

        binders: list = []
        defined = {v.name for v, _, _, _ in self.defines}
        for v in self.fixes + self.meta_vars:
            binders.append(VarBinder(fin(v, 0, f"the type of {v.name}")))  # type: ignore[arg-type]
        constants: dict[str, Sort] = {}
        for v in self.scope.implicit.values():
            fv = fin(v, 0, f"the type of {v.name}")
            if v.name in HOL_CONSTANTS:
                constants[v.name] = fv.sort
                notes.append(f"{v.name} is not in `fixes`: read as the library constant {v.name} "
                             f"(uninterpreted, of type {show_sort(fv.sort)})")
                continue
            binders.append(VarBinder(fv))  # type: ignore[arg-type]
            notes.append(f"{v.name} {IMPLICIT_NOTE} of type {show_sort(fv.sort)}")
        for v in self.scope.fixed.values():  # variables introduced by `defines` come last
            if v.name in defined and v not in self.fixes:
                binders.append(VarBinder(fin(v, 0, f"the type of {v.name}")))  # type: ignore[arg-type]
        defs = []
        for var, rhs, name, pos in self.defines:
            fvar = fin(var, pos, f"the defined {var.name}")
            frhs = fin(rhs, pos, f"the definition of {var.name}")
            defs.append((fvar, frhs))
            binders.append(Hypothesis(name or f"{var.name}_def", app("eq", fvar, frhs)))
        for name, formula, pos in self.hyps:
            binders.append(Hypothesis(name, fin(formula, pos, f"assumption {name or '(unnamed)'}")))
        concls = [fin(c, pos, "the conclusion") for c, pos in self.concls]
        if constants:
            binders = [as_constants(b, constants) for b in binders]
            concls = [as_constants(c, constants) for c in concls]
            defs = [(v, as_constants(d, constants)) for v, d in defs]
        for c in concls:
            if c.sort != BOOL:
                raise ParseError.at_offset(f"the conclusion {show(c)} is not a proposition", self.text, self.concls[0][1])
        return Statement(
            binders=tuple(binders),
            conclusion=and_(*concls) if len(concls) > 1 else concls[0],
            language="isabelle",
            name=self.name,
            header="",
            source=self.source,
            notes=tuple(notes),
            defines=tuple(defs),
        )


def _closed(vs: list[PreVar], hyps: list[PreTerm], concl: PreTerm) -> PreTerm:
    """``⋀vs. ⟦hyps⟧ ⟹ concl`` as one object-level formula ``∀vs. hyps ⟶ concl``."""
    body = concl
    for h in reversed(hyps):
        body = PreApp("implies", (h, body), BOOL)
    return PreQuant("forall", tuple(vs), body) if vs else body
