"""Reuse the original Lean text of statement components inside proof obligations.

Why: an obligation built from the IR is our *reading* of a statement; Lean should check the
statement's own text, so that Mathlib's definitions are used. ``SourceIndex`` remembers, for
each Lean statement, the text of every hypothesis and of the conclusion (``Hypothesis.source``,
``Statement.conclusion_source``, filled by the Lean frontend) together with the IR it denotes
(the conjuncts the normal form makes of it). When an obligation contains that IR again — up to
a renaming of the free variables and type variables, which is what an alignment does — the
text is used instead, with the variables renamed.

Renaming is done on tokens and only when it is safe: the text is parsed again, and it is
refused (the IR printer is used instead) when it binds a name that is renamed or that a
renamed variable becomes (capture), when it binds by pattern, or when it mentions a variable
of its statement that the matched IR does not contain (the text would mean something else
in the obligation's context).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from provers.engine.normal import folded, is_type_var, simplify_logic
from provers.errors import ParseError
from provers.ir import (
    App,
    BigOp,
    FunSort,
    Hypothesis,
    Lam,
    ListSort,
    Num,
    OpaqueSort,
    Quant,
    SetBuilder,
    SetSort,
    Sort,
    Statement,
    Term,
    Uninterpreted,
    Var,
    VarBinder,
    conjuncts,
)
from provers.lean4.lexer import strip_comments, tokenize
from provers.lean4.pratt import TermParser
from provers.lean4.syntax import BinderGroup, Syn


@dataclass(frozen=True)
class Component:
    """Original text of one hypothesis (``pattern`` = its conjuncts) or of the conclusion."""

    kind: str
    text: str
    pattern: tuple[Term, ...]
    statement: int  # index of the statement in the SourceIndex
    lifted: frozenset[str] = frozenset()  # names bound by quantifiers the normal form lifted


@dataclass(frozen=True)
class _Source:
    variables: frozenset[str]   # names of the statement's variables (type variables too)
    type_vars: frozenset[str]


class SourceIndex:
    """Components of Lean statements, and the binders of their type variables.

    ``carrier_binders(name)``: the original binder texts (``{G : Type*}``, ``[Group G]``) that
    declare an opaque carrier; ``finsets``: variables declared ``Finset``.
    """

    def __init__(self, statements: Iterable[Statement]) -> None:
        self.components: list[Component] = []
        self.sources: list[_Source] = []
        self.type_binders: dict[str, list[str]] = {}
        self.type_texts: dict[str, str] = {}
        self.finsets: set[Var] = set()
        self.binder_types: dict[Var, str] = {}
        #: field names used with dot notation (``x.den``, ``(f x).foo``): the frontend keeps
        #: them as bare uninterpreted symbols, which are not the Lean constants' names
        self.projections: set[str] = set()
        statements = tuple(statements)
        #: the `open` lines of the statements' headers, in order, without duplicates
        self.opens: tuple[str, ...] = tuple(dict.fromkeys(
            line.strip() for st in statements for line in st.header.splitlines()
            if line.strip().startswith("open ") and not line.strip().endswith(" in")))
        for i, st in enumerate(statements):
            if st.language != "lean4" or any(isinstance(b, VarBinder) and b.written for b in st.binders):
                # a shadowing binder (IR `n'`, written `n`): its texts read a name the IR does
                # not, so the obligation is printed from the IR, never from those texts
                self.sources.append(_Source(frozenset(), frozenset()))
                continue
            self._add(i, st)

    def _add(self, i: int, st: Statement) -> None:
        self.projections |= _projections(st.source or "")
        tvars = {b.var.name for b in st.binders if isinstance(b, VarBinder) and is_type_var(b.var)}
        names = {b.var.name for b in st.binders if isinstance(b, VarBinder)}
        self.sources.append(_Source(frozenset(names), frozenset(tvars)))
        for b in st.binders:
            if isinstance(b, VarBinder):
                if is_type_var(b.var) and b.source and b.var.name not in self.type_binders:
                    brackets = {"explicit": "()", "implicit": "{}", "strict_implicit": "⦃⦄"}
                    o, c = brackets.get(b.style, "{}")
                    self.type_binders[b.var.name] = [f"{o}{b.var.name} : {b.source}{c}"]
                    for h in st.binders:  # the instance binders about this type variable
                        if isinstance(h, Hypothesis) and h.style == "instance" and h.source:
                            words = _idents(h.source)
                            if words is not None and b.var.name in words and not (words & (names - tvars)):
                                self.type_binders[b.var.name].append(f"[{h.source}]")
                elif isinstance(b.var.sort, SetSort) and b.source.startswith("Finset "):
                    self.finsets.add(b.var)
                elif mentions_opaque(b.var.sort) and b.source and not is_type_var(b.var):
                    words = _idents(b.source)
                    if words is not None and not (words & names):  # a closed type: ZMod 7, ℝ≥0
                        self.binder_types.setdefault(b.var, f"({b.source})")
                        if isinstance(b.var.sort, OpaqueSort):
                            self.type_texts.setdefault(b.var.sort.name, f"({b.source})")
            elif isinstance(b, Hypothesis) and b.style != "instance" and b.source:
                parts = tuple(c for p in conjuncts(simplify_logic(b.formula)) for c in conjuncts(folded(p)))
                if parts:
                    self.components.append(Component("hypothesis", b.source, parts, i))
        if st.conclusion_source:
            concl = folded(simplify_logic(st.conclusion))
            self.components.append(Component("conclusion", st.conclusion_source, (concl,), i))
            self._lifted(i, st.conclusion_source, concl)

    def _lifted(self, i: int, text: str, concl: Term) -> None:
        """Components for what the normal form lifts out of the conclusion: the antecedents of
        ``∀ x y, P → Q → C`` become premises and ``C`` the conclusion. The text and the IR are
        walked in lockstep (a ``→`` that is not an IR implication, a binder predicate or a
        quantifier over other variables stops the walk), so each text denotes its IR."""
        syn = _parse(text)
        if syn is None:
            return
        clean = " ".join(strip_comments(text).split())
        lifted, bound = False, frozenset[str]()
        while True:
            syn = _unparen(syn)
            if syn.kind == "binder" and syn.val == "∀" and isinstance(concl, Quant) \
                    and concl.kind == "forall":
                names = [n for g in syn.binders for n in g.names]
                if any(g.pred is not None for g in syn.binders):
                    return
                got: list[str] = []
                while isinstance(concl, Quant) and concl.kind == "forall" and len(got) < len(names):
                    got.extend(v.name for v in concl.vars)
                    concl = concl.body
                if got != names:
                    return
                syn, lifted, bound = syn.args[0], True, bound | frozenset(names)
            elif syn.kind == "binop" and syn.val in ("→", "->") and isinstance(concl, App) \
                    and concl.op == "implies":
                ante = tuple(conjuncts(concl.args[0]))
                if ante:
                    self.components.append(
                        Component("hypothesis", _text(clean, syn.args[0]), ante, i, bound))
                syn, concl, lifted = syn.args[1], concl.args[1], True
            else:
                break
        if lifted:
            self.components.append(Component("conclusion", _text(clean, syn), (concl,), i, bound))

    def closed_type(self, sort_name: str) -> str | None:
        """Lean text for an opaque sort that the frontend named by its type expression
        (``NNReal``, ``ZMod 7``, ``{p : ℤ // Squarefree p}``) when it mentions no variable
        of the statements (then it means the same type in the obligation), else None."""
        if not self.sources or sort_name in self.type_binders or sort_name[:1] in "?↥" \
                or sort_name.startswith("α_") or sort_name in ("Type", "Sort"):
            return None
        words = _idents(sort_name)
        if words is None or any(words & (src.variables | src.type_vars) for src in self.sources):
            return None
        return f"({sort_name})"

    def __bool__(self) -> bool:
        return bool(self.components or self.type_binders or self.type_texts or self.binder_types)

    # -- matching ------------------------------------------------------------------------
    def find(self, terms: tuple[Term, ...], statement: int) -> tuple[Component, dict[str, Var], dict[str, str]] | None:
        """A component of statement number ``statement`` whose pattern is ``terms`` up to
        renaming: (component, free-variable map name → obligation variable, type-variable
        map name → obligation type name)."""
        for c in self.components:
            if c.statement != statement or len(c.pattern) != len(terms):
                continue
            m = _Matcher(self.sources[c.statement].type_vars)
            if all(m.term(p, t) for p, t in zip(c.pattern, terms, strict=True)):
                return c, m.free, m.sorts
        return None

    def rename(self, c: Component, names: dict[str, str]) -> str | None:
        """``c.text`` with its variables renamed by ``names`` (old → new), or None when that
        cannot be done safely (see the module docstring)."""
        src = self.sources[c.statement]
        return rename_text(c.text, names, src.variables | c.lifted)


class _Matcher:
    """Structural matching of a pattern against a term up to renaming of free variables and
    of the pattern statement's type variables (bound variables up to alpha)."""

    def __init__(self, type_vars: frozenset[str]) -> None:
        self.type_vars = type_vars
        self.free: dict[str, Var] = {}
        self.sorts: dict[str, str] = {}
        self.bound: dict[Var, Var] = {}
        self.t_bound: set[Var] = set()

    def sort(self, p: Sort, t: Sort) -> bool:
        if isinstance(p, OpaqueSort) and p.name in self.type_vars:
            if not isinstance(t, OpaqueSort):
                return False
            return self.sorts.setdefault(p.name, t.name) == t.name
        if type(p) is not type(t):
            return False
        if isinstance(p, FunSort):
            assert isinstance(t, FunSort)
            return len(p.args) == len(t.args) and all(
                self.sort(a, b) for a, b in zip((*p.args, p.result), (*t.args, t.result), strict=True))
        if isinstance(p, (SetSort, ListSort)):
            return self.sort(p.elem, t.elem)  # type: ignore[union-attr]
        return p == t

    def binders(self, ps: tuple[Var, ...], ts: tuple[Var, ...]) -> list[tuple[Var, Var | None]] | None:
        if len(ps) != len(ts) or not all(self.sort(a.sort, b.sort) for a, b in zip(ps, ts, strict=True)):
            return None
        saved = [(p, self.bound.get(p)) for p in ps]
        for p, t in zip(ps, ts, strict=True):
            self.bound[p] = t
            self.t_bound.add(t)
        return saved

    def unbind(self, saved: list[tuple[Var, Var | None]], ts: tuple[Var, ...]) -> None:
        for p, old in saved:
            if old is None:
                self.bound.pop(p, None)
            else:
                self.bound[p] = old
        self.t_bound -= set(ts) - set(self.bound.values())

    def scoped(self, ps: tuple[Var, ...], ts: tuple[Var, ...], body: Term, tbody: Term) -> bool:
        saved = self.binders(ps, ts)
        if saved is None:
            return False
        try:
            return self.term(body, tbody)
        finally:
            self.unbind(saved, ts)

    def term(self, p: Term, t: Term) -> bool:  # noqa: C901 - one case per IR node
        if isinstance(p, Var):
            if p in self.bound:
                return t == self.bound[p]
            if not isinstance(t, Var) or t in self.t_bound or not self.sort(p.sort, t.sort):
                return False
            return self.free.setdefault(p.name, t) == t
        if type(p) is not type(t):
            return False
        if isinstance(p, Num):
            return p.value == t.value and self.sort(p.sort, t.sort)  # type: ignore[attr-defined]
        if isinstance(p, (App, Uninterpreted)):
            head = p.op if isinstance(p, App) else p.symbol
            thead = t.op if isinstance(t, App) else t.symbol  # type: ignore[attr-defined]
            return (head == thead and len(p.args) == len(t.args)  # type: ignore[attr-defined]
                    and self.sort(p.sort, t.sort)
                    and all(self.term(a, b) for a, b in zip(p.args, t.args, strict=True)))  # type: ignore[attr-defined]
        if isinstance(p, Quant):
            assert isinstance(t, Quant)
            return p.kind == t.kind and self.scoped(p.vars, t.vars, p.body, t.body)
        if isinstance(p, Lam):
            assert isinstance(t, Lam)
            return self.scoped(p.vars, t.vars, p.body, t.body)
        if isinstance(p, BigOp):
            assert isinstance(t, BigOp)
            return (p.kind == t.kind and self.term(p.domain, t.domain)
                    and self.scoped((p.var,), (t.var,), p.body, t.body))
        if isinstance(p, SetBuilder):
            assert isinstance(t, SetBuilder)
            return self.scoped((p.var,), (t.var,), p.body, t.body)
        return False


# ------------------------------------------------------------------ safe renaming of text

_NO_RENAME_WORDS = frozenset({"let", "match", "have", "show", "do", "fun_prop", "this"})


def _idents(text: str) -> set[str] | None:
    """First components of the identifiers of ``text`` (None when it does not lex)."""
    try:
        clean = strip_comments(text)
        toks = tokenize(clean, 0, len(clean))
    except ParseError:
        return None
    return {t.text.split(".")[0] for t in toks if t.kind == "ident"}


def _projections(text: str) -> set[str]:
    """Fields written with dot notation in ``text`` (``x.den`` gives ``den``)."""
    try:
        clean = strip_comments(text)
        toks = tokenize(clean, 0, len(clean))
    except ParseError:
        return set()
    out: set[str] = set()
    for t in toks:
        if t.kind == "proj":
            out.add(t.text)
        elif t.kind == "ident" and "." in t.text and t.text[:1].islower():
            out.update(t.text.split(".")[1:])
    return out


def _bound_names(syn: Syn, out: set[str]) -> bool:
    """Collect every name bound anywhere in ``syn``; False for a pattern binder."""
    stack: list[Syn] = [syn]
    while stack:
        s = stack.pop()
        for g in s.binders:
            if not _group(g, out, stack):
                return False
        for a in s.args:
            if isinstance(a, Syn):
                stack.append(a)
        for v in s.extra.values():
            if isinstance(v, Syn):
                stack.append(v)
    return True


def _group(g: BinderGroup, out: set[str], stack: list[Syn]) -> bool:
    if g.pred is not None and g.pred[0] == "pattern":
        return False
    out.update(g.names)
    if g.type is not None:
        stack.append(g.type)
    if g.pred is not None and isinstance(g.pred[1], Syn):
        stack.append(g.pred[1])
    return True


def _parse(text: str) -> Syn | None:
    clean = " ".join(strip_comments(text).split())
    try:
        toks = tokenize(clean, 0, len(clean))
        p = TermParser(toks, clean)
        syn = p.expr(0)
    except (ParseError, RecursionError):
        return None
    return syn if p.tok.kind == "eof" else None


def _unparen(syn: Syn) -> Syn:
    while syn.kind == "paren" and syn.args:
        syn = syn.args[0]
    return syn


def _text(clean: str, syn: Syn) -> str:
    return clean[syn.pos : syn.end].strip()


def rename_text(text: str, names: dict[str, str], variables: frozenset[str]) -> str | None:
    """``text`` with the free identifiers in ``names`` replaced (old → new), or None when
    that is not provably safe. ``variables``: the names of the statement's variables; each one
    the text mentions freely must be renamed (listed in ``names``)."""
    clean = " ".join(strip_comments(text).split())
    try:
        toks = tokenize(clean, 0, len(clean))
        p = TermParser(toks, clean)
        syn = p.expr(0)
        if p.tok.kind != "eof":
            return None
    except (ParseError, RecursionError):
        return None
    bound: set[str] = set()
    if not _bound_names(syn, bound):
        return None
    if bound & (set(names) | set(names.values())):
        return None
    out: list[str] = []
    last = 0
    for t in toks:
        if t.kind != "ident":
            continue
        if t.text in _NO_RENAME_WORDS:
            return None
        head, dot, rest = t.text.partition(".")
        if head in bound:
            if head in variables:
                return None  # shadows a statement variable: which occurrence is which?
            continue
        if head in names:
            out.append(clean[last : t.pos])
            out.append(names[head] + dot + rest)
            last = t.pos + len(t.text)
        elif head in variables:
            return None  # a variable the matched IR does not mention
    out.append(clean[last:])
    return "".join(out)


def mentions_opaque(s: Sort) -> bool:
    """Does the sort involve a carrier the IR does not model?"""
    if isinstance(s, OpaqueSort):
        return True
    if isinstance(s, FunSort):
        return any(mentions_opaque(a) for a in (*s.args, s.result))
    if isinstance(s, (SetSort, ListSort)):
        return mentions_opaque(s.elem)
    return False


def mentions(t: Term) -> set[str]:
    """Names of the opaque carriers occurring in the sorts of ``t``'s subterms."""
    from provers.ir import subterms

    out: set[str] = set()

    def walk(s: Sort) -> None:
        if isinstance(s, OpaqueSort):
            out.add(s.name)
        elif isinstance(s, FunSort):
            for a in (*s.args, s.result):
                walk(a)
        elif isinstance(s, (SetSort, ListSort)):
            walk(s.elem)

    for s in subterms(t):
        walk(s.sort)
    return out


__all__ = ["Component", "SourceIndex", "mentions", "rename_text"]
