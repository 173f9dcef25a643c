"""Binding forms of HOL terms: ``∀ ∃ ∃! ∄``, ``λ``, ``∑ ∏``, ``THE``/``LEAST``/``GREATEST``/
``SOME``/``INF``/``SUP``, ``let``, and tuple patterns ``(a, b)`` in binder position.

A mixin of ``terms.TermParser`` (it uses the parser's token helpers, ``expr``/``formula``,
``within`` and ``inf``); each method reads one form and returns its pre-term.
"""

from __future__ import annotations

from provers.ir import BOOL, NAT, SetSort, Sort
from provers.ir.traverse import fresh_name
from provers.isabelle.inference import ElabError
from provers.isabelle.lexer import Token
from provers.isabelle.notation import BINDERS, INFIX, KEYWORDS
from provers.isabelle.preterm import (
    PreApp,
    PreBigOp,
    PreLam,
    PreQuant,
    PreSetBuilder,
    PreSym,
    PreTerm,
    PreVar,
    free_vars,
    pairs,
    substitute,
)


class BinderForms:
    """Mixin of ``terms.TermParser``: the binding forms (see the module docstring)."""

    # ---- variables and patterns ------------------------------------------------------------
    def binder_vars(self, pos: int) -> list[PreVar]:
        """``x y::real (z::nat)`` after a binder: names, each with a type or a fresh one."""
        vs: list[PreVar] = []
        while True:
            t = self.peek()
            if t.kind == "ident" and t.text not in KEYWORDS:
                self.next()
                vs.append(PreVar(t.text, self.annotation(self.inf.untyped(t.text))))
                continue
            if t.text == "(" and self.peek(1).kind == "ident":
                self.next()
                names = []
                while self.peek().kind == "ident" and self.peek().text not in KEYWORDS:
                    names.append(self.next().text)
                s = self.annotation(self.inf.fresh())
                if self.at(","):
                    raise ElabError("a tuple pattern (x, y) must be the only binder here: bind x and y separately", self.peek().pos)
                self.expect(")", "to close a typed binder (x::T)")
                vs.extend(PreVar(n, s) for n in names)
                continue
            break
        if not vs:
            raise ElabError("expected a variable after the binder", self.peek().pos)
        return vs

    def annotation(self, otherwise: Sort) -> Sort:
        """The type after ``::`` if there is one, else ``otherwise``."""
        if self.at("::"):
            self.next()
            return self.read_type()
        return otherwise

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
            vs.append(PreVar(t.text, self.annotation(self.inf.untyped(t.text))))
            if self.at(","):
                self.next()
                continue
            self.expect(")", "to close the tuple pattern (a, b)")
            break
        return vs, pairs(vs)

    @staticmethod
    def projections(pattern: PreTerm, p: PreTerm) -> dict[PreVar, PreTerm]:
        """Each variable of a tuple pattern as fst/snd of ``p``."""
        out: dict[PreVar, PreTerm] = {}
        while isinstance(pattern, PreSym) and pattern.symbol == "Pair":
            a, rest = pattern.args
            out[a] = PreSym("fst", (p,), a.sort)  # type: ignore[index]
            p = PreSym("snd", (p,), rest.sort)
            pattern = rest
        out[pattern] = p  # type: ignore[index]
        return out

    @staticmethod
    def apart(vs: list[PreVar], body: PreTerm, outside: PreTerm) -> tuple[list[PreVar], PreTerm]:
        """``vs`` and ``body`` with the bound variables renamed whose names ``outside`` (a term
        read outside their scope, such as the set of ``∀x∈A. P``) uses: the desugared
        ``∀x. x ∈ A ⟶ P`` must not capture the ``x`` of ``A``."""
        used = {v.name for v in free_vars(outside)}
        if not used & {v.name for v in vs}:
            return vs, body
        taken = used | {v.name for v in free_vars(body)} | {v.name for v in vs}
        renamed: dict[PreVar, PreTerm] = {}
        for v in vs:
            if v.name in used:
                name = fresh_name(v.name, taken)
                taken.add(name)
                renamed[v] = PreVar(name, v.sort)
        return [renamed.get(v, v) for v in vs], substitute(body, renamed)  # type: ignore[misc]

    # ---- quantifiers and λ ---------------------------------------------------------------------
    def quantifier(self) -> PreTerm:
        t = self.next()
        kind = BINDERS[t.text]
        tup = self.tuple_pattern()
        if tup is not None:
            return self.quantifier_tuple(t, kind, *tup)
        vs = self.binder_vars(t.pos)
        guard_op = None
        if self.at("∈", "<", "≤", ">", "≥", "≠", "⊆", "<=", ">="):
            guard_op = self.next()
            # ∀x∈A. P is `Ball A (λx. P)`: A is outside the binder. ∀x<y. P is the syntax
            # translation ∀x. x < y ⟶ P: y is read under the binder, so its x is the bound one.
            bound_t = self.expr(51) if guard_op.text == "∈" else self.within(vs, lambda: self.expr(51))
        self.expect(".", f"after the variables of {t.text}")
        body = self.within(vs, lambda: self.formula(0))
        if guard_op is not None and guard_op.text == "∈":
            vs, body = self.apart(vs, body, bound_t)
        if guard_op is not None:  # ∀x > 0. P  ==  ∀x. x > 0 ⟶ P;  ∃x > 0. P  ==  ∃x. x > 0 ∧ P
            guards = [self.binary(INFIX[guard_op.text][2], v, bound_t, guard_op.pos) for v in vs]
            g = guards[0] if len(guards) == 1 else PreApp("and", tuple(guards), BOOL)
            body = PreApp("implies" if kind == "forall" else "and", (g, body), BOOL)
        if kind == "exists1":
            if len(vs) != 1:
                raise ElabError("∃! binds exactly one variable here; nest ∃!x. ∃!y. … explicitly", t.pos)
            return PreQuant("exists1", tuple(vs), body)
        if kind == "nexists":
            return PreApp("not", (PreQuant("exists", tuple(vs), body),), BOOL)
        return PreQuant(kind, tuple(vs), body)

    def quantifier_tuple(self, t: Token, kind: str, vs: list[PreVar], pattern: PreTerm) -> PreTerm:
        """``∀(x, y) ∈ A. P``  ==  ``∀x y. (x, y) ∈ A ⟶ P`` (and ``∃`` with ``∧``); A is outside
        the binder (``Ball A (λ(x, y). P)``)."""
        dom = None
        if self.at("∈"):
            gpos = self.next().pos
            dom = self.expr(51)
        self.expect(".", f"after the pattern of {t.text}")
        body = self.within(vs, lambda: self.formula(0))
        if kind not in ("forall", "exists"):
            raise ElabError(f"a tuple pattern after {t.text} is not supported", t.pos)
        if dom is not None:
            vs, body = self.apart(vs, body, dom)
            guard = self.binary("mem", pairs(vs), dom, gpos)
            body = PreApp("implies" if kind == "forall" else "and", (guard, body), BOOL)
        return PreQuant(kind, tuple(vs), body)

    def lam(self) -> PreTerm:
        t = self.next()
        tup = self.tuple_pattern()
        if tup is not None:  # λ(x, y). t  ==  λp. t[x := fst p, y := snd p]
            comps, pattern = tup
            self.expect(".", "after the pattern of λ")
            body = self.within(comps, lambda: self.expr(0))
            p = self.inf.fresh_var("p", pattern.sort)
            return PreLam((p,), substitute(body, self.projections(pattern, p)))
        vs = self.binder_vars(t.pos)
        self.expect(".", "after the variables of λ")
        out = self.within(vs, lambda: self.expr(0))
        for v in reversed(vs):
            out = PreLam((v,), out)
        return out

    # ---- sums and products -------------------------------------------------------------------
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
            body = self.within([v], lambda: self.expr(0))
            self.inf.unify(v.sort, NAT, pos, "∑n. f n (a series is indexed by nat)")
            return PreSym("suminf", (PreLam((v,), body),), body.sort)
        dom = self.bigop_range(t, v, pos)
        self.expect(".", f"after the range of {t.text}")
        body = self.within([v], lambda: self.expr(0))
        self.inf.require(body.sort, "num", t.pos, f"the body of {t.text}")
        return PreBigOp(kind, v, dom, body)

    def bigop_range(self, t: Token, v: PreVar, pos: int) -> PreTerm:
        """What ``v`` ranges over: ``∈ A``, ``= a..b``, ``< n`` / ``≤ n``, or ``| P``."""
        if self.at("∈"):
            self.next()
            dom = self.expr(51)
            self.inf.unify(dom.sort, SetSort(v.sort), pos, f"{t.text}x∈A")
            return dom
        if self.at("="):
            self.next()
            lo = self.expr(51)
            if not self.at(".."):
                raise ElabError(f"expected .. in {t.text}i=a..b", self.peek().pos)
            self.next()
            hi = self.expr(51)
            self.inf.unify(lo.sort, v.sort, pos, "a summation range")
            self.inf.unify(hi.sort, v.sort, pos, "a summation range")
            self.inf.require(v.sort, "ord", pos, "a summation range")
            return PreApp("Icc", (lo, hi), SetSort(v.sort))
        if self.at("<", "≤", "<="):
            op = self.next().text
            hi = self.expr(51)
            self.inf.unify(hi.sort, v.sort, pos, "a summation bound")
            self.inf.require(v.sort, "ord", pos, "a summation bound")
            return PreApp("isa:lessThan" if op == "<" else "isa:atMost", (hi,), SetSort(v.sort))
        if self.at("|"):
            self.next()
            return PreSetBuilder(v, self.within([v], lambda: self.formula(31)))
        raise ElabError(f"{t.text} needs a range: {t.text}i∈A. …, {t.text}i=a..b. … or {t.text}i<n. …", self.peek().pos)

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
            dom = PreSetBuilder(p, substitute(self.within(comps, lambda: self.formula(31)), proj))
        else:
            raise ElabError(f"{t.text} over a tuple pattern needs ∈ A or | P", self.peek().pos)
        self.expect(".", f"after the range of {t.text}")
        body = self.within(comps, lambda: self.expr(0))
        self.inf.require(body.sort, "num", t.pos, f"the body of {t.text}")
        return PreBigOp(kind, p, dom, substitute(body, proj))

    # ---- description operators and let -------------------------------------------------------
    def binder_const(self) -> PreTerm:
        t = self.next()
        vs = self.binder_vars(t.pos)
        if t.text in ("INF", "SUP"):  # INF x y. f x y: the infimum of the values (a number)
            self.expect(".", f"after the variables of {t.text}")
            body = self.within(vs, lambda: self.expr(0))
            self.inf.require(body.sort, "ord", t.pos, t.text)
            return PreSym(t.text, (PreLam(tuple(vs), body),), body.sort)
        if len(vs) != 1:
            raise ElabError(f"{t.text} binds one variable", t.pos)
        v = vs[0]
        self.expect(".", f"after the variable of {t.text}")
        body = self.within([v], lambda: self.formula(0))
        if t.text in ("GREATEST", "LEAST"):
            self.inf.require(v.sort, "ord", t.pos, t.text)
        return PreSym(t.text, (PreLam((v,), body),), v.sort)

    def let(self) -> PreTerm:
        """``let x = a; y = b in t``: ``t`` with ``x``, ``y`` replaced."""
        self.next()
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
        body = self.within([v for v, _ in binds], lambda: self.expr(0))
        for v, val in reversed(binds):
            body = substitute(body, {v: val})
        return body
