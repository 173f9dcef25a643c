"""Binders of Lean statements: ``∀ ∃ ∃! Π``, ``fun``, ``∑ ∏`` and other big operators
(``⋃ ⨆ ∫ ∑'``...), and the sort inference for binders written without a type.

A binder without a type gets its sort in two passes: the body is first elaborated with the
binder's sort pending (``provers.ir.SortVar``; errors are ignored, only what unification
learns counts), then for real with the sort ``settle`` decided. Binder predicates expand as
Lean does (``∀ x > 0, P`` is ``∀ x, x > 0 → P``).

A mixin of ``elaborate.Elaborator``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager

from provers.errors import InputTooLargeError, ParseError
from provers.ir import (
    BOOL,
    COMPLEX,
    INTERVALS,
    NAT,
    RAT,
    REAL,
    App,
    BigOp,
    FunSort,
    IRError,
    Lam,
    OpaqueSort,
    Quant,
    SetSort,
    Sort,
    SortVar,
    Term,
    Uninterpreted,
    Var,
    app,
    is_numeric,
)
from provers.lean4.sorts import UNKNOWN, Res, conj, modelled
from provers.lean4.syntax import BinderGroup, Syn

_QUANTIFIERS = {"∀": "forall", "∃": "exists", "∃!": "exists1", "Π": "forall"}


class Binders:
    """Mixin of ``elaborate.Elaborator``: binders and their sort inference."""

    @contextmanager
    def bind(self, vs: list[Var]) -> Iterator[None]:
        """The variables ``vs`` in scope (shadowing), for the body of a binder."""
        saved = dict(self.scope)
        for v in vs:
            self.scope[v.name] = v
        try:
            yield
        finally:
            self.scope = saved

    # ---- sorts of untyped binders ----------------------------------------------------------------
    def infer_binder_sort(self, name: str, body: Callable[[], object], names: list[str] | None = None) -> Sort:
        """Pass 1 of two: elaborate ``body`` with ``name`` of unknown sort and read off the
        sort unification gave it (ℕ if only used in defaulted arithmetic)."""
        return self.infer_sorts(names or [name], body)[0]

    def settle(self, v: SortVar, name: str) -> Sort:
        """The sort inference gave the binder ``name``, every pending part grounded: ℕ for a
        binder only defaulted arithmetic used, else an opaque ``α_name``."""

        def default(u: SortVar) -> Sort:
            label = self.sorts.names.get(u.id, name)
            if "num" in self.sorts.classes.get(u.id, {}):
                self.notes.append(f"binder {label}: sort defaulted to ℕ (numerals only)")
                return NAT
            return OpaqueSort(f"α_{label}")

        s = self.sorts.ground(v, default)
        return default(v) if s == UNKNOWN else s

    def infer_sorts(self, names: list[str], body: Callable[[], object]) -> list[Sort]:
        pending = [self.sorts.fresh(name=n) for n in names]
        vs = [Var(n, v) for n, v in zip(names, pending, strict=True)]
        self.infer_depth += 1
        try:
            with self.bind(vs):
                body()
        except (ParseError, IRError) as e:  # pass 1 only infers; pass 2 reports errors
            if isinstance(e, InputTooLargeError):
                raise
        finally:
            self.infer_depth -= 1
        return [self.settle(v, n) for v, n in zip(pending, names, strict=True)]

    def group_vars(self, groups: tuple[BinderGroup, ...], body: Callable[[], object],
                   fun_args: tuple[Sort, ...] = ()) -> list[tuple[Var, list[tuple[str, Syn]]]]:
        """Variables of binder groups, with sorts from types, ``fun_args`` or inference."""
        names: list[tuple[str, Sort | None, list[tuple[str, Syn]]]] = []
        for g in groups:
            sort = None
            if g.style == "instance" and g.type is not None:  # `∀ {X : Type*} [MetricSpace X], …`
                if not names:
                    raise self.err(g.type, f"the instance binder [{self.src(g.type)}] binds no variable's type")
                names[-1][2].append(("prop", g.type))
                continue
            if g.type is not None:
                sort, _ = self.type_or_prop(g.type)
                if sort is None and g.names and g.names != ("_",):
                    sort = self.coe_sort(g.type)
                if sort is None:  # `∀ (x) (_ : x ≠ 0), ...`: an anonymous hypothesis
                    if not names:
                        raise self.err(g.type, f"{self.src(g.type)!r} is not a type")
                    names[-1][2].append(("prop", g.type))
                    continue
            for nm in g.names:
                names.append((nm if nm != "_" else self.fresh("_"), sort, [g.pred] if g.pred else []))
        for i, (nm, s, p) in enumerate(names):
            if s is None and i < len(fun_args):
                names[i] = (nm, fun_args[i], p)
        unknown = [nm for nm, s, _ in names if s is None]
        if unknown:
            known = [Var(nm, s) for nm, s, _ in names if s is not None]

            def run() -> object:
                with self.bind(known):
                    for nm, _, ps in names:
                        for p in ps:
                            if p[0] != "pattern":
                                self.binder_pred(self.scope[nm], p, groups[0])
                    return body()

            sorts = dict(zip(unknown, self.infer_sorts(unknown, run), strict=False))
            names = [(nm, s if s is not None else sorts[nm], p) for nm, s, p in names]
        return [(Var(nm, s), p) for nm, s, p in names]  # type: ignore[arg-type]

    def binder_pred(self, v: Var, pred: tuple[str, Syn], at: BinderGroup) -> Term:
        op, rhs = pred
        if op == "prop":
            return self.prop(rhs)
        fake = Syn("binop", at.pos, rhs.end, op, (Syn("ident", at.pos, at.pos, v.name), rhs))
        if op in ("∈", "∉", "⊆", "⊂"):
            return self.elab_setop(fake, BOOL)[0]
        return self.elab_tree(fake, None, rel=op)  # type: ignore[return-value]


    # ---- quantifiers, fun, big operators -----------------------------------------------------------
    def elab_binder(self, syn: Syn, expected: Sort | None) -> Res:
        q = syn.val
        if q in _QUANTIFIERS:
            return self.quantifier(syn, _QUANTIFIERS[q]), False
        if q == "fun":
            return self.function(syn, expected), False
        if q in ("∑", "∏"):
            return self.elab_bigop(syn, expected)
        # ⋃ ⋂ ⨆ ⨅ ∫ ∑' and friends: uninterpreted over a lambda (and the domain, if any)
        body_syn = syn.args[-1]
        dom_syn = syn.args[0] if len(syn.args) > 1 else syn.extra.get("domain")
        vp = self.group_vars(syn.binders, lambda: self.elab(body_syn, None))
        vs = [v for v, _ in vp]
        with self.bind(vs):
            body, _ = self.elab(body_syn, None)
        dom = (self.elab(dom_syn, None)[0],) if dom_syn is not None else ()
        return Uninterpreted(q, (*dom, Lam(tuple(vs), body)), expected or body.sort), False

    def quantifier(self, syn: Syn, kind: str) -> Term:
        body_syn = syn.args[0]
        if any(g.pred and g.pred[0] == "pattern" for g in syn.binders):
            return Uninterpreted(syn.val + "⟨pattern⟩", (), BOOL)
        vp = self.group_vars(syn.binders, lambda: self.prop(body_syn))
        vs = [v for v, _ in vp]
        preds = []
        with self.bind(vs):
            for v, ps in vp:
                preds.extend((v, self.binder_pred(v, p, syn.binders[0])) for p in ps)
            body = self.prop(body_syn)
        return self.quantify(kind, vs, preds, body)

    def function(self, syn: Syn, expected: Sort | None) -> Term:
        """``fun x => t``; an expected function sort gives the binders' and the body's sorts."""
        body_syn = syn.args[0]
        fargs = expected.args if isinstance(expected, FunSort) else ()
        vp = self.group_vars(syn.binders, lambda: self.elab(body_syn, None), fargs)
        vs = [v for v, _ in vp]
        res_exp = expected.result if isinstance(expected, FunSort) and len(fargs) == len(vs) else None
        with self.bind(vs):
            body, _ = self.elab(body_syn, res_exp)
            if res_exp is not None:
                body = self.coerce(body, res_exp, body_syn)
        return Lam(tuple(vs), body)

    def quantify(self, kind: str, vs: list[Var], preds: list[tuple[Var, Term]], body: Term) -> Term:
        """Lean's expansion: ``∀ x > 0, P`` is ``∀ x, x > 0 → P``; ``∃ x > 0, P`` is
        ``∃ x, x > 0 ∧ P``; ``∃! x y, P`` is ``∃! x, ∃! y, P``."""
        if kind == "exists1":
            out = body
            for v in reversed(vs):
                ps = [p for w, p in preds if w == v]
                out = Quant("exists1", (v,), conj(*ps, out) if ps else out)
            return out
        if not preds:
            return Quant(kind, tuple(vs), body)
        out = body
        for v in reversed(vs):
            ps = [p for w, p in preds if w == v]
            for p in reversed(ps):
                out = app("implies", p, out) if kind == "forall" else conj(p, out)
            out = Quant(kind, (v,), out)
        return out

    def elab_bigop(self, syn: Syn, expected: Sort | None) -> Res:
        kind = "sum" if syn.val == "∑" else "prod"
        body_syn = syn.args[0]
        groups = syn.binders
        if len(groups) != 1 or len(groups[0].names) != 1:
            if len(groups) == 1 and len(groups[0].names) > 1 and syn.extra.get("domain") is None:
                return self.elab_bigop(_nested(syn), expected)  # ∑ i j, f i j: ∑ i, ∑ j, f i j
            return Uninterpreted(syn.val, (), expected or UNKNOWN), expected is None
        g = groups[0]
        name = g.names[0]
        ty = self.require_type(g.type) if g.type is not None else None
        dom, dom_syn = self.bigop_domain(syn, g, ty)
        if not isinstance(dom.sort, SetSort):
            if modelled(dom.sort) and not self.infer_depth:
                raise self.err(dom_syn or syn, f"the domain of {syn.val} is not a finite set: sort {dom.sort}")
            v = Var(name, ty or OpaqueSort(f"α_{name}"))
            with self.bind([v]):
                body, _ = self.elab(body_syn, expected)
            return Uninterpreted("Finset." + kind, (dom, Lam((v,), body)), expected or body.sort), False
        v = Var(name, dom.sort.elem)
        with self.bind([v]):
            cond = syn.extra.get("cond")
            if cond is not None:
                dom = self.mk("filter", (Lam((v,), self.prop(cond)), dom), syn, dom.sort)
            body, flex = self.elab(body_syn, expected)
            if expected is not None:
                body = self.coerce(body, expected, body_syn)
        if not is_numeric(body.sort):
            return Uninterpreted("Finset." + kind, (dom, Lam((v,), body)), body.sort), flex
        self.check_finset_interval(dom, dom_syn or syn)
        return BigOp(kind, v, dom, body), flex

    def check_finset_interval(self, dom: Term, syn: Syn) -> None:
        """A big operator's interval domain must be a ``Finset``: ``Finset.Icc a b`` needs
        ``LocallyFiniteOrder``, which ℚ, ℝ and ℂ do not have (Lean rejects the statement;
        Isabelle's ``{1..3::real}`` is an infinite set, whose sum is 0)."""
        if isinstance(dom, App) and dom.op in INTERVALS and dom.sort.elem in (RAT, REAL, COMPLEX):
            raise self.err(syn, f"Finset.{dom.op} over {dom.sort.elem} does not elaborate: "
                                f"{dom.sort.elem} has no LocallyFiniteOrder instance")

    def bigop_domain(self, syn: Syn, g: BinderGroup, ty: Sort | None) -> tuple[Term, Syn | None]:
        """What the index of ``∑ i ∈ s, …`` / ``∑ i < n, …`` / ``∑ i in s, …`` / ``∑ i : T, …``
        ranges over (``Finset.univ`` of its type when nothing says), and its syntax."""
        dom_syn = syn.extra.get("domain")
        if dom_syn is None and g.pred is not None:
            op, rhs = g.pred
            if op == "∈":
                dom_syn = rhs
            elif op == "<":
                n = self.coerce(self.elab(rhs, ty or NAT)[0], ty or NAT, rhs)
                return (app("range", n) if n.sort == NAT else Uninterpreted("Finset.Iio", (n,), SetSort(n.sort))), None
        if dom_syn is not None:
            return self.elab(dom_syn, SetSort(ty) if ty is not None else None)[0], dom_syn
        return Uninterpreted("Finset.univ", (), SetSort(ty or OpaqueSort(f"α_{g.names[0]}"))), None


def _nested(syn: Syn) -> Syn:
    """``∑ i j, f i j`` as ``∑ i, ∑ j, f i j``."""
    g = syn.binders[0]
    inner = Syn("binder", syn.pos, syn.end, syn.val, syn.args,
                (BinderGroup(g.names[1:], g.type, g.style, g.pred, g.pos),), dict(syn.extra))
    return Syn("binder", syn.pos, syn.end, syn.val, (inner,),
               (BinderGroup(g.names[:1], g.type, g.style, g.pred, g.pos),), {})
