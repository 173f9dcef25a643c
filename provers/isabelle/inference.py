"""Sort inference for HOL terms: Hindley–Milner unification plus Isabelle's coercions.

``Inference`` holds the pending sorts of one statement (``types.HolSorts``) and answers the
questions the term parser and the constant builders ask while they build pre-terms: make two
sorts equal, require a class, bring two operands to one number type (inserting the
``of_nat``/``of_int``/``of_real`` coercions Isabelle would), type an application. It reads no
tokens; every failure is an ``ElabError`` at the position the caller gives.
"""

from __future__ import annotations

from provers.ir import (
    INT,
    NAT,
    NUMERIC_ORDER,
    RAT,
    REAL,
    FunSort,
    SetSort,
    Sort,
    SortClash,
    SortVar,
    is_numeric,
)
from provers.isabelle.preterm import (
    PreApp,
    PreLam,
    PreNum,
    PreSetBuilder,
    PreSym,
    PreTerm,
    PreVar,
    free_vars,
    show_short,
    substitute,
)
from provers.isabelle.types import CLASSES, HolSorts, Prod, show_sort


class ElabError(Exception):
    """Syntax or sort error at an offset of the decoded text."""

    def __init__(self, reason: str, pos: int, hints: dict[tuple[str, int], Sort] | None = None):
        super().__init__(reason)
        self.reason, self.pos = reason, pos
        #: sorts for unannotated variables that would make the statement typecheck (see
        #: ``Inference.untyped``): the parser retries with them, as Isabelle's coercion
        #: inference would have picked the narrower type for those variables
        self.hints = hints or {}


def widens(a: Sort, b: Sort) -> bool:
    """Is there a coercion from ``a`` to ``b`` (nat → int → rat → real → complex)?"""
    return NUMERIC_ORDER.index(a) < NUMERIC_ORDER.index(b)


class Inference:
    """The sort-inference state of one statement (all its quoted terms share it)."""

    def __init__(self, sorts: HolSorts | None = None, hints: dict[tuple[str, int], Sort] | None = None):
        self.sorts = sorts if sorts is not None else HolSorts()
        self.fresh_count = 0
        #: coercions inserted since the parser last collected them (for the statement's notes)
        self.coercions: list[str] = []
        #: (name, occurrence) -> sort for variables written without a type (filled by the
        #: parser's retry loop); the occurrence number keeps two different ∀n. apart
        self.hints: dict[tuple[str, int], Sort] = dict(hints or {})
        self.occurrences: dict[str, int] = {}
        self.untyped_keys: dict[PreVar, tuple[str, int]] = {}

    # ---- sorts -------------------------------------------------------------------------------
    def fresh(self, *classes: str) -> SortVar:
        return self.sorts.fresh(*classes)

    def shallow(self, s: Sort) -> Sort:
        return self.sorts.shallow(s)

    def unify(self, a: Sort, b: Sort, pos: int, what: str) -> None:
        try:
            self.sorts.unify(a, b)
        except SortClash as e:
            raise ElabError(f"type error in {what}: {e}", pos) from None

    def require(self, s: Sort, cls: str, pos: int, what: str) -> None:
        try:
            self.sorts.require(s, cls)
        except SortClash as e:
            raise ElabError(f"type error in {what}: {e}", pos) from None

    def fresh_var(self, base: str, sort: Sort) -> PreVar:
        self.fresh_count += 1
        return PreVar(f"{base}{self.fresh_count}'", sort)

    def untyped(self, name: str) -> Sort:
        """The sort of a variable written without a type: a fresh type variable, or the
        hint a previous attempt found for this occurrence of the name."""
        k = self.occurrences.get(name, 0)
        self.occurrences[name] = k + 1
        key = (name, k)
        if key in self.hints:
            return self.hints[key]
        s = self.sorts.fresh()
        self.untyped_keys[PreVar(name, s)] = key
        return s

    # ---- coercions (Isabelle's of_nat/of_int/of_real coercion inference, greedily) -------------
    def _narrowing_hint(self, t: PreTerm, target: Sort, pos: int, what: str) -> None:
        """``t`` is wider than ``target`` (int where nat is needed): if unannotated variables
        made it so, ask the parser to retry with them at ``target`` (Isabelle's coercion
        inference gives such a variable the narrower type and coerces it elsewhere)."""
        keys = {self.untyped_keys[v] for v in free_vars(t) if v in self.untyped_keys}
        if keys:
            raise ElabError(f"type error in {what}: {show_sort(self.shallow(t.sort))} vs {show_sort(target)}", pos,
                            hints={key: target for key in keys})

    def coerced(self, t: PreTerm, target: Sort) -> PreTerm:
        """A coercion Isabelle would insert (of_nat / of_int / of_real); recorded for the notes."""
        if not isinstance(t, PreNum):
            self.coercions.append(f"{show_short(t)} from {show_sort(self.shallow(t.sort))} to {show_sort(target)}")
        return PreApp("cast", (t,), target)

    def coerce(self, t: PreTerm, target: Sort, pos: int, what: str) -> PreTerm:
        """``t`` at sort ``target``: unify, or embed a narrower number type into a wider one."""
        a, b = self.shallow(t.sort), self.shallow(target)
        if a != b and is_numeric(a) and is_numeric(b) and widens(a, b):
            return self.coerced(t, b)
        if a != b and is_numeric(a) and is_numeric(b) and widens(b, a):
            self._narrowing_hint(t, b, pos, what)
        if is_numeric(a) and isinstance(b, SortVar):
            lifted = self._lift_sort(a, self.sorts.classes.get(b.id, {}))
            if lifted is not None and lifted != a:
                self.unify(b, lifted, pos, what)
                return self.coerced(t, lifted)
        self.unify(t.sort, target, pos, what)
        return t

    @staticmethod
    def _lift_sort(s: Sort, classes: dict[str, None] | set[str]) -> Sort | None:
        """The narrowest number type at or above ``s`` in every class (coercion target)."""
        for cand in NUMERIC_ORDER[NUMERIC_ORDER.index(s):]:
            if cand == RAT and s != RAT:
                continue  # Isabelle coerces nat → int → real (→ complex), never into rat
            if all(cand in CLASSES[c] for c in classes):
                return cand
        return None

    def lift(self, t: PreTerm, cls: str, pos: int, what: str) -> PreTerm:
        """Require class ``cls`` of ``t``'s sort, coercing a concrete number type upwards
        (``¦n - 3¦`` with n :: nat reads as ``¦int (n - 3)¦``, as Isabelle's coercions do)."""
        s = self.shallow(t.sort)
        if is_numeric(s) and s not in CLASSES[cls]:
            up = self._lift_sort(s, {cls})
            if up is not None:
                return self.coerced(t, up)
        self.require(t.sort, cls, pos, what)
        return t

    def join(self, a: PreTerm, b: PreTerm, pos: int, what: str) -> tuple[PreTerm, PreTerm]:
        """Bring two operands to one sort (casting the narrower number type up)."""
        sa, sb = self.shallow(a.sort), self.shallow(b.sort)
        if sa != sb and is_numeric(sa) and is_numeric(sb):
            if widens(sa, sb):
                return self.coerced(a, sb), b
            if widens(sb, sa):
                return a, self.coerced(b, sa)
        if is_numeric(sa) and isinstance(sb, SortVar):
            return self.coerce(a, sb, pos, what), b
        if is_numeric(sb) and isinstance(sa, SortVar):
            return a, self.coerce(b, sa, pos, what)
        self._builder_hint(a, sb, pos, what)
        self._builder_hint(b, sa, pos, what)
        self.unify(a.sort, b.sort, pos, what)
        return a, b

    def _builder_hint(self, t: PreTerm, other: Sort, pos: int, what: str) -> None:
        """``S = {n. n = 9 powr 3}`` with ``S :: nat set``: the builder's unannotated variable
        was read at real from its body; ask the parser to retry with it at nat (Isabelle infers
        n :: nat from S, then coerces it in the body: ``real n = 9 powr 3``)."""
        if not (isinstance(t, PreSetBuilder) and isinstance(other, SetSort)):
            return
        mine, theirs = self.shallow(t.var.sort), self.shallow(other.elem)
        key = self.untyped_keys.get(t.var)
        if key is not None and mine != theirs and is_numeric(mine) and is_numeric(theirs) and widens(theirs, mine):
            raise ElabError(f"type error in {what}: {show_sort(mine)} set vs {show_sort(theirs)} set", pos,
                            hints={key: theirs})

    def to_field(self, a: PreTerm, b: PreTerm, pos: int) -> tuple[PreTerm, PreTerm]:
        """Operands of ``/``: nat and int operands are coerced to real (as Isabelle does)."""
        a, b = self.join(a, b, pos, "the two sides of /")
        if self.shallow(a.sort) in (NAT, INT):
            return self.coerced(a, REAL), self.coerced(b, REAL)
        return a, b

    # ---- applications --------------------------------------------------------------------------
    @staticmethod
    def refuse_tuple_call(name: str, args: list[PreTerm], arity: int, pos: int) -> None:
        """``f(a, b)`` for a function of two arguments: HOL reads one pair argument."""
        if arity >= 2 and len(args) == 1 and isinstance(args[0], PreSym) and args[0].symbol == "Pair":
            raise ElabError(f"{name}(a, b) applies {name} to one pair: HOL applies functions by juxtaposition, "
                            f"write {name} a b", pos)

    def apply_term(self, head: PreTerm, args: list[PreTerm], pos: int) -> PreTerm:
        """``head args``: β-reduced when ``head`` is a λ, else an ``apply`` whose sort unification
        decides (arguments coerced to the parameter types already known)."""
        if isinstance(head, PreLam):
            n = min(len(head.vars), len(args))
            vals = [self.coerce(a, v.sort, pos, f"the argument of λ{v.name}") for v, a in zip(head.vars[:n], args[:n], strict=True)]
            body = substitute(head.body, dict(zip(head.vars[:n], vals, strict=True)))
            rest = head.vars[n:]
            out = PreLam(rest, body) if rest else body
            return self.apply_term(out, args[n:], pos) if args[n:] else out
        hs = self.sorts.resolve(head.sort)
        if isinstance(hs, FunSort) and not isinstance(self.shallow(hs.args[0]), Prod):
            self.refuse_tuple_call(show_short(head), args, 1 + isinstance(self.shallow(hs.result), FunSort), pos)
        if not isinstance(hs, (FunSort, SortVar)):
            raise ElabError(
                f"{show_short(head)} has type {show_sort(hs)}, not a function, so it cannot be applied to "
                f"{show_short(args[0])} (a missing operator, or a function missing from `fixes`?)", pos)
        coerced = []
        for a in args:
            if isinstance(hs, FunSort) and len(hs.args) == 1:
                a = self.coerce(a, hs.args[0], pos, f"the argument of {show_short(head)}")
                hs = self.sorts.resolve(hs.result)
            else:
                hs = None  # type: ignore[assignment]
            coerced.append(a)
        res: Sort = self.sorts.fresh()
        fsort: Sort = res
        for a in reversed(coerced):
            fsort = FunSort((a.sort,), fsort)
        self.unify(head.sort, fsort, pos, f"the application of {show_short(head)}")
        if isinstance(head, PreApp) and head.op == "apply":
            return PreApp("apply", (*head.args, *coerced), res)
        return PreApp("apply", (head, *coerced), res)
