"""Set terms of Lean statements: membership, ``⊆ ⊂ ∪ ∩ \\``, images and preimages
(``f '' s``, ``f ⁻¹' s``), composition ``∘``, set literals and set-builder notation.

A mixin of ``elaborate.Elaborator`` (it uses ``elab``, ``coerce``, ``mk``, ``unify``, ``bind``).
"""

from __future__ import annotations

from provers.ir import (
    BOOL,
    FunSort,
    Lam,
    ListSort,
    SetBuilder,
    SetSort,
    Sort,
    Term,
    Uninterpreted,
    Var,
    app,
    app_sorted,
)
from provers.lean4.sorts import UNKNOWN, Res, apply, can_cast, conj, modelled, unfixed
from provers.lean4.syntax import Syn

_SET_OPS = {"∪": "union", "∩": "inter", "\\": "setdiff"}


class SetTerms:
    """Mixin of ``elaborate.Elaborator``: set terms (see the module docstring)."""

    def elab_setop(self, syn: Syn, expected: Sort | None) -> Res:
        op = syn.val
        lhs, rhs = syn.args
        if op in ("∈", "∉"):
            out = self.membership(syn, lhs, rhs)
            return (app("not", out) if op == "∉" else out), False
        if op in ("⊆", "⊂", "⊇", "⊃", "∪", "∩", "\\", "⊊"):
            return self.set_relation(syn, op, lhs, rhs, expected)
        if op == "''":
            return self.image(syn, lhs, rhs, expected)
        if op == "⁻¹'":
            return self.preimage(syn, lhs, rhs, expected)
        if op == "∘":
            return self.composition(lhs, rhs, expected)
        args = tuple(self.elab(a, None)[0] for a in syn.args)
        return Uninterpreted(op, args, expected or (args[-1].sort if op in ("•", "$", "<|") else UNKNOWN)), False

    def membership(self, syn: Syn, lhs: Syn, rhs: Syn) -> Term:
        """``x ∈ s``: the set decides the element's sort, else the element the set's."""
        s, sflex = self.elab(rhs, None)
        if isinstance(s.sort, SetSort) and not sflex:
            x, _ = self.elab(lhs, s.sort.elem)
            x = self.coerce(x, s.sort.elem, lhs)
        else:
            x, xflex = self.elab(lhs, None)
            if not (xflex and isinstance(s.sort, SetSort)):
                s, _ = self.elab(rhs, SetSort(x.sort) if not unfixed(x.sort) else None)
            if isinstance(s.sort, SetSort) and x.sort != s.sort.elem:
                x = self.coerce(self.elab(lhs, s.sort.elem)[0], s.sort.elem, lhs)
        if isinstance(s.sort, ListSort):
            return Uninterpreted("List.Mem", (self.coerce(x, s.sort.elem, lhs), s), BOOL)
        if not isinstance(s.sort, SetSort):
            if modelled(s.sort) and not self.infer_depth:
                raise self.err(rhs, f"ill-typed membership: {self.src(rhs)!r} of sort {s.sort} is not a set")
            return Uninterpreted("Membership.mem", (x, s), BOOL)
        return self.mk("mem", (x, s), syn, BOOL)

    def set_relation(self, syn: Syn, op: str, lhs: Syn, rhs: Syn, expected: Sort | None) -> Res:
        """``⊆ ⊂ ⊊ ⊇ ⊃`` (``s ⊂ t`` is ``s ⊆ t ∧ s ≠ t``) and ``∪ ∩ \\`` on one set sort."""
        (a, b), flex = self.unify_sets([lhs, rhs], expected if op in _SET_OPS else None)
        if op in ("⊇", "⊃"):
            a, b = b, a
        if op in ("⊆", "⊇"):
            return self.mk("subset", (a, b), syn, BOOL), False
        if op in ("⊂", "⊃", "⊊"):
            return conj(self.mk("subset", (a, b), syn, BOOL), self.mk("ne", (a, b), syn, BOOL)), False
        return self.mk(_SET_OPS[op], (a, b), syn, a.sort), flex

    def image(self, syn: Syn, lhs: Syn, rhs: Syn, expected: Sort | None) -> Res:
        """``f '' s``."""
        f, _ = self.elab(lhs, None)
        if isinstance(f.sort, FunSort) and len(f.sort.args) == 1:
            s = self.coerce(self.elab(rhs, SetSort(f.sort.args[0]))[0], SetSort(f.sort.args[0]), rhs)
            return self.mk("image", (f, s), syn, SetSort(f.sort.result)), False
        s, _ = self.elab(rhs, None)
        return Uninterpreted("Set.image", (f, s), expected or UNKNOWN), expected is None

    def preimage(self, syn: Syn, lhs: Syn, rhs: Syn, expected: Sort | None) -> Res:
        """``f ⁻¹' s`` is ``{x | f x ∈ s}``."""
        f, _ = self.elab(lhs, None)
        if isinstance(f.sort, FunSort) and len(f.sort.args) == 1:
            s = self.coerce(self.elab(rhs, SetSort(f.sort.result))[0], SetSort(f.sort.result), rhs)
            x = Var(self.fresh("x"), f.sort.args[0])
            return SetBuilder(x, self.mk("mem", (apply(f, x), s), syn, BOOL)), False
        s, _ = self.elab(rhs, None)
        return Uninterpreted("Set.preimage", (f, s), expected or UNKNOWN), expected is None

    def composition(self, lhs: Syn, rhs: Syn, expected: Sort | None) -> Res:
        """``f ∘ g`` is ``fun x => f (g x)``."""
        f, _ = self.elab(lhs, None)
        g, _ = self.elab(rhs, None)
        if isinstance(f.sort, FunSort) and isinstance(g.sort, FunSort) and len(f.sort.args) == 1 and f.sort.args[0] == g.sort.result:
            vs = tuple(Var(self.fresh("x"), s) for s in g.sort.args)
            return Lam(vs, apply(f, apply(g, *vs))), False
        return Uninterpreted("Function.comp", (f, g), expected or UNKNOWN), expected is None

    def unify_sets(self, args: list[Syn], expected: Sort | None) -> tuple[list[Term], bool]:
        first = [self.elab(a, None) for a in args]
        target = expected if isinstance(expected, SetSort) else None
        for t, f in first:
            if not f and isinstance(t.sort, SetSort):
                target = target or t.sort
                if target != t.sort and isinstance(target, SetSort) and can_cast(target.elem, t.sort.elem):
                    target = t.sort
        out = []
        for a, (t, f) in zip(args, first, strict=False):
            if target is not None and t.sort != target and f:
                t, _ = self.elab(a, target)
            out.append(t)
        return out, all(f for _, f in first) and target is None

    def elab_setlit(self, syn: Syn, expected: Sort | None) -> Res:
        elem = expected.elem if isinstance(expected, SetSort) else None
        if not syn.args:
            if elem is None:
                return Uninterpreted("∅", (), UNKNOWN), True
            return app_sorted("set_of", SetSort(elem)), False
        terms, flex = self.unify(list(syn.args), elem)
        s = terms[0].sort
        if any(t.sort != s for t in terms):
            if all(modelled(t.sort) for t in terms) and not self.infer_depth:
                raise self.err(syn, f"set literal mixes sorts {', '.join(str(t.sort) for t in terms)}")
            return Uninterpreted("Insert.insert", tuple(terms), SetSort(s)), flex
        return app_sorted("set_of", SetSort(s), *terms), flex

    def elab_setbuilder(self, syn: Syn, expected: Sort | None) -> Res:
        group = syn.binders[0]
        name = group.names[0]
        if group.pred and group.pred[0] == "pattern":
            return Uninterpreted("setOf_pattern", (), expected or UNKNOWN), expected is None
        elem: Sort | None = None
        dom: Term | None = None
        if group.type is not None:
            elem = self.require_type(group.type)
        elif group.pred and group.pred[0] == "∈":
            dom, _ = self.elab(group.pred[1], None)
            if isinstance(dom.sort, SetSort):
                elem = dom.sort.elem
        elif isinstance(expected, SetSort):
            elem = expected.elem
        if elem is None:
            elem = self.infer_binder_sort(name, lambda: self.prop(syn.args[0]))
        v = Var(name, elem)
        with self.bind([v]):
            body = self.prop(syn.args[0])
        if dom is not None:
            body = conj(self.mk("mem", (v, dom), syn, BOOL), body)
        return SetBuilder(v, body), False
