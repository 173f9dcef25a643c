"""The commands before a Lean 4 declaration: read exactly, or refused.

A statement is a header plus one declaration. The header may contain

* ``import M`` lines (first, as Lean requires);
* ``open A B``, ``open scoped A``, ``open A (x y)``, ``open A hiding x`` — and ``open ... in``
  applied to the next command (the theorem, or a definition). ``open ... renaming`` (it renames
  names) and namespaces that bring IO or the elaborators into scope are refused;
* ``universe u v``; ``variable`` binders (they join the statement when it uses them);
* ``set_option`` with a meaning-neutral option (``provers.lean4.commands``), also ``... in``;
* ``noncomputable section`` (it changes compilation only);
* ``def`` / ``abbrev`` (optionally ``noncomputable``) definitions: see
  ``provers.lean4.definitions`` for how they are unfolded or named.

Every other command anywhere — notation, instances, attributes, namespaces and sections,
``#``-commands, ``run_cmd``, ``macro``, ... — is a ``ParseError`` naming the command, its line
and column, and what to do (``commands.command_reason``). Nothing is skipped: each command is
consumed token by token, so a command cannot hide inside another one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from provers.errors import ParseError
from provers.lean4.commands import (
    COMMAND_KEYWORDS,
    DECLARATIONS,
    HARMLESS_MODIFIERS,
    MATHLIB_PACKAGES,
    command_reason,
    meaning_neutral_option,
    meta_namespace,
)
from provers.lean4.definitions import Definition, define
from provers.lean4.elaborate import Elaborator
from provers.lean4.lexer import Token
from provers.lean4.names import NAMES
from provers.lean4.pratt import TermParser
from provers.lean4.syntax import BinderGroup, Syn
from provers.lean4.types import TYPE_NAMES


@dataclass
class Header:
    """What the commands before the declaration established."""

    imports: list[str] = field(default_factory=list)
    opens: list[str] = field(default_factory=list)
    variables: list[BinderGroup] = field(default_factory=list)
    definitions: dict[str, Definition] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    decl: int = 0  # first token of the declaration (its modifiers)
    keyword: int = 0  # the theorem / lemma / example / def keyword


class HeaderReader:
    """Reads the commands of ``toks`` up to the declaration (``read``)."""

    def __init__(self, text: str, clean: str, toks: list[Token]):
        self.text = text
        self.clean = clean
        self.toks = toks
        self.h = Header()
        self.pending: list[str] = []  # opens of `open ... in`, for the next command only
        self.pending_variables: list[BinderGroup] = []

    # -- helpers -------------------------------------------------------------------------
    def error(self, reason: str, tok: Token) -> ParseError:
        return ParseError.at_offset(reason, self.text, tok.pos)

    def refuse(self, tok: Token, word: str | None = None) -> ParseError:
        return self.error(command_reason(word or tok.text), tok)

    def tok(self, i: int) -> Token:
        return self.toks[min(i, len(self.toks) - 1)]

    def word(self, i: int) -> str:
        t = self.tok(i)
        return t.text if t.kind == "ident" else ""

    def line_of(self, i: int) -> int:
        return self.text.count("\n", 0, self.tok(i).pos)

    def column0(self, i: int) -> bool:
        """At column 0: Lean ends a list of names there (``checkColGt``)."""
        pos = self.tok(i).pos
        return pos == 0 or self.text[pos - 1] == "\n"

    def name_at(self, i: int, stop: frozenset[str] | set[str] = frozenset()) -> bool:
        t = self.tok(i)
        return (t.kind == "ident" and t.text not in COMMAND_KEYWORDS and t.text not in stop
                and not self.column0(i))

    def has_declaration(self, i: int) -> bool:
        return any(t.kind == "ident" and t.text in DECLARATIONS for t in self.toks[i:])

    def elaborator(self, opens: list[str]) -> Elaborator:
        return Elaborator(self.text, tuple(opens), self.h.definitions)

    # -- the walk ------------------------------------------------------------------------
    def read(self) -> Header | None:
        """The header; None when the text has no declaration (the caller explains why)."""
        i = 0
        seen_other = False
        while True:
            t = self.tok(i)
            if t.kind == "eof":
                if self.pending or self.pending_variables:
                    raise self.error("`open ... in` / `variable ... in` is not followed by the "
                                     "statement", t)
                return None
            self.refuse_directive(i)
            if self.word(i) == "import":
                if seen_other:
                    raise self.error("`import` after other commands: imports come first", t)
                i = self.import_(i)
                continue
            seen_other = True
            k = self.declaration_at(i)
            if k is not None:
                self.h.decl, self.h.keyword = i, k
                self.h.opens.extend(self.pending)
                self.h.variables.extend(self.pending_variables)
                return self.h
            nxt = self.command(i)
            if nxt is None:
                return None  # prose or a proof script: the caller says which
            i = nxt

    def refuse_directive(self, i: int) -> None:
        """``#eval``-like commands and ``@[attributes]`` run code or change the declaration."""
        t = self.tok(i)
        if t.kind == "sym" and t.text == "#":
            nxt = self.tok(i + 1)
            word = "#" + (nxt.text if nxt.kind == "ident" and nxt.pos == t.end else "")
            raise self.refuse(t, word)
        if t.kind == "sym" and t.text == "@" and self.tok(i + 1).text == "[":
            raise self.error("attribute `@[...]`: attributes change how Lean uses the "
                             "declaration and can run code; remove it", t)

    def command(self, i: int) -> int | None:
        """Read the command at ``i`` (not a declaration); the index after it, None when what
        follows has no declaration at all, or a ParseError naming the command."""
        t, w = self.tok(i), self.word(i)
        reader = {"open": self.open_, "set_option": self.set_option, "universe": self.universe,
                  "variable": self.variable}.get(w)
        if reader is not None:
            return reader(i)
        if w in ("universes", "variables"):
            raise self.error(f"`{w}` is Lean 3: in Lean 4 + Mathlib it declares nothing (a "
                             f"stub that warns); write `{w[:-1]}`", t)
        if w == "noncomputable" and self.word(i + 1) == "section":
            self.no_scoped(i)
            if self.tok(i + 2).kind == "ident" and self.word(i + 2) not in COMMAND_KEYWORDS:
                raise self.error("a named section: sections change how names resolve; "
                                 "remove it", self.tok(i + 2))
            return i + 2
        if self.word(self.skip_modifiers(i)) in ("def", "abbrev"):
            return self.definition(i)
        if w in ("local", "scoped") and self.word(i + 1) in COMMAND_KEYWORDS:
            nxt = self.word(i + 1)
            raise self.error(command_reason(nxt).replace(f"`{nxt}`", f"`{w} {nxt}`", 1), t)
        if w in COMMAND_KEYWORDS:
            raise self.refuse(t)
        if t.kind == "ident" and self.word(i + 1) in ("def", "abbrev", "theorem", "lemma", "example"):
            raise self.error(f"`{w}` before a declaration is not a modifier Lean knows", t)
        if not self.has_declaration(i):
            return None
        raise self.error(f"unexpected {t.text or t.kind!r} before the theorem: only import, "
                         "open, universe, variable, set_option and def/abbrev commands may "
                         "precede it (prose or an unknown command?)", t)

    def skip_modifiers(self, i: int) -> int:
        while self.word(i) in HARMLESS_MODIFIERS:
            i += 1
        return i

    def declaration_at(self, i: int) -> int | None:
        """Index of the declaration keyword when the declaration starts at ``i``."""
        j = self.skip_modifiers(i)
        w = self.word(j)
        if w in DECLARATIONS:
            return j
        if w == "def" and self.body_less_def(j):
            return j
        return None

    def body_less_def(self, j: int) -> bool:
        """``def name binders : T :=`` with nothing (or ``sorry``) after ``:=``: ProofNet states
        some exercises so (the statement is that ``T`` is inhabited)."""
        depth = 0
        k = j + 1
        while self.tok(k).kind != "eof":
            t = self.tok(k)
            if t.text in ("(", "[", "{", "⦃", "⟨"):
                depth += 1
            elif t.text in (")", "]", "}", "⦄", "⟩"):
                depth -= 1
            elif t.text == ":=" and depth == 0:
                rest = [x.text for x in self.toks[k + 1:] if x.kind != "eof"]
                return rest in ([], ["sorry"], ["by", "sorry"])
            elif depth == 0 and (t.text == "|" or t.kind == "ident" and t.text in COMMAND_KEYWORDS):
                return False  # equations, or the next command: a definition, not a statement
            k += 1
        return False

    def no_scoped(self, i: int) -> None:
        if self.pending or self.pending_variables:
            raise self.error("`open ... in` / `variable ... in` must be followed by the theorem "
                             "or a def", self.tok(i))

    # -- commands ------------------------------------------------------------------------
    def import_(self, i: int) -> int:
        t = self.tok(i + 1)
        if t.kind != "ident" or t.text in COMMAND_KEYWORDS:
            raise self.error("`import` must name a module", self.tok(i))
        if self.line_of(i + 1) != self.line_of(i):
            raise self.error("`import` must name its module on the same line", self.tok(i))
        if t.text.split(".")[0] not in MATHLIB_PACKAGES:
            raise self.error(f"`import {t.text}`: the frontend reads statements in Lean + Mathlib; "
                             "a module outside Mathlib and its dependencies can add notation or "
                             "instances that change what the statement means: remove it", t)
        self.h.imports.append(t.text)
        return i + 2

    def open_(self, i: int) -> int:
        j = i + 1
        names: list[str] = []
        if self.word(j) == "scoped":
            j += 1
        while self.name_at(j, {"in", "hiding", "renaming"}):
            names.append(self.tok(j).text)
            j += 1
        if not names:
            raise self.error("`open` must name a namespace", self.tok(i))
        if self.word(j) == "renaming":
            raise self.error("`open ... renaming` gives names a new meaning: not modelled; "
                             "write the full names instead", self.tok(j))
        if self.word(j) == "hiding" or self.tok(j).text == "(":
            closing = self.tok(j).text == "("
            j += 1
            while self.name_at(j, {"in"}):
                j += 1
            if closing:
                if self.tok(j).text != ")":
                    raise self.error("expected `)` closing the names of `open`", self.tok(j))
                j += 1
        for n in names:
            meta = meta_namespace(n)
            if meta is not None:
                raise self.error(f"`open {n}` brings meta-programming or IO (`{meta}`) into "
                                 "scope; a statement never needs it: remove it", self.tok(i))
        if self.word(j) == "in":
            self.pending.extend(names)
            return j + 1
        if self.pending:
            # `open A in open B`: Lean reads `in` as `section open A open B end`, so B is
            # closed again with A's scope and does not reach the theorem
            self.h.notes.append(f"`open {' '.join(self.pending)} in open {' '.join(names)}`: "
                                "the second open ends with the first one's scope")
            self.pending = []
            return j
        self.no_scoped(i)
        self.h.opens.extend(names)
        return j

    def set_option(self, i: int) -> int:
        name, value = self.tok(i + 1), self.tok(i + 2)
        if name.kind != "ident":
            raise self.error("`set_option` must name an option", self.tok(i))
        if not meaning_neutral_option(name.text):
            raise self.error(f"`set_option {name.text}` can change how the statement is "
                             "elaborated; only resource limits, linters and printing options "
                             "(e.g. maxHeartbeats) are accepted: remove it", self.tok(i))
        if not (value.kind == "num" or value.text in ("true", "false")):
            raise self.error(f"`set_option {name.text}` needs a number or true/false", value)
        j = i + 3
        if self.word(j) == "in":
            return j + 1
        self.no_scoped(i)
        return j

    def universe(self, i: int) -> int:
        self.no_scoped(i)
        j = i + 1
        while self.name_at(j):
            j += 1
        if j == i + 1:
            raise self.error("`universe` must name universe variables", self.tok(i))
        return j

    def variable(self, i: int) -> int:
        p = TermParser(self.toks, self.text, i + 1)
        groups: list[BinderGroup] = []
        while p.at("(", "{", "[", "⦃"):
            groups.append(p.bracketed_binder())
        if not groups:
            raise self.error("`variable` must declare bracketed binders", self.tok(i))
        for g in groups:
            if g.type is None and g.style != "instance":
                raise self.error("a `variable` binder without a type (it changes an earlier "
                                 "variable's binder): not modelled", self.tok(i))
        if self.word(p.i) == "in":
            self.pending_variables.extend(groups)
            return p.i + 1
        self.no_scoped(i)
        self.h.variables.extend(groups)
        return p.i

    def definition(self, i: int) -> int:
        """``def``/``abbrev`` before the theorem: its meaning (``definitions.define``) is
        recorded under its name; the index after it."""
        opens = self.h.opens + self.pending
        self.pending = []
        if self.pending_variables:
            raise self.error("`variable ... in` before a definition: not modelled", self.tok(i))
        i = self.skip_modifiers(i)
        kind = self.word(i)
        name_tok = self.definition_name(i, kind, opens)
        name = name_tok.text
        el = self.elaborator(opens)
        p = TermParser(self.toks, self.text, i + 2)
        groups, type_syn, body, equations = self.definition_parts(p, name)
        after = p.tok
        if after.kind == "ident" and after.text in ("where", "termination_by", "decreasing_by",
                                                    "deriving"):
            raise self.error(f"`{after.text}` after the definition of {name}: not modelled",
                             after)
        end = p.i
        roots = {t.text.split(".")[0] for t in self.toks[i + 2:end] if t.kind == "ident"}
        used_vars = {n for g in self.h.variables for n in g.names}
        if used_vars & roots:
            v = sorted(used_vars & roots)[0]
            raise self.error(f"definition {name} uses the `variable` {v}: not modelled; make it "
                             "an explicit parameter of the definition", name_tok)
        context = self.clean[self.toks[0].pos: after.pos]
        d = define(el, name, kind, groups, type_syn, body, context, equations=equations,
                   self_reference=name in roots, at=name_tok.pos)
        self.h.definitions[name] = d
        if d.note:
            self.h.notes.append(d.note)
        return end

    def definition_name(self, i: int, kind: str, opens: list[str]) -> Token:
        """The name after ``def``/``abbrev`` at ``i``: new, top level, not a Mathlib name."""
        name_tok = self.tok(i + 1)
        if name_tok.kind != "ident" or name_tok.text in COMMAND_KEYWORDS:
            raise self.error(f"expected a name after `{kind}`", self.tok(i))
        name = name_tok.text
        if "." in name:
            raise self.error(f"`{kind} {name}`: a namespaced definition is not modelled (its "
                             "short name resolves differently under `open`); define it at top "
                             "level", name_tok)
        if name in self.h.definitions:
            raise self.error(f"`{name}` is already defined", name_tok)
        if name in TYPE_NAMES or name in NAMES or any(f"{ns}.{name}" in NAMES for ns in opens):
            raise self.error(f"`{kind} {name}` reuses the name of a Mathlib definition the "
                             "frontend interprets: Lean's reading would be ambiguous; rename it",
                             name_tok)
        return name_tok

    def definition_parts(self, p: TermParser, name: str) -> tuple[list[BinderGroup], Syn | None, Syn | None, bool]:
        """Binders, type, body (or pattern-matching equations: read, not kept) of a definition."""
        groups: list[BinderGroup] = []
        while True:
            if p.at("(", "{", "[", "⦃"):
                groups.append(p.bracketed_binder())
            elif p.tok.kind == "ident" and p.tok.text not in COMMAND_KEYWORDS:
                t = p.advance()
                groups.append(BinderGroup((t.text,), None, "explicit", pos=t.pos))
            else:
                break
        type_syn = None
        if p.at(":"):
            p.advance()
            type_syn = p.expr(0)
        if p.at(":="):
            p.advance()
            return groups, type_syn, p.expr(0), False
        if not p.at("|"):
            raise self.error(f"expected `:=` and the body of `{name}`", p.tok)
        while p.at("|"):
            p.advance()
            p.comma_list("=>")
            p.expect("=>", "in a pattern-matching equation")
            p.expr(0)
        return groups, type_syn, None, True


__all__ = ["Header", "HeaderReader"]
