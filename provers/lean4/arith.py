"""Arithmetic trees and relations, elaborated the way Lean's ``binop%`` / ``binrel%`` do.

Every leaf of a tree of ``+ - * / %``, unary ``-`` and the bases of ``^`` is elaborated without
an expected type; the widest known leaf sort (and, for ``binop%``, the expected type) is the
tree's sort; narrower leaves get a ``cast`` (Lean's ``↑``) and sort-less leaves (numerals,
``↑e``, unknown symbols) are elaborated again at the tree's sort. With no sort anywhere,
numerals default to ℕ (ℤ under a unary minus). Then each node picks the one IR operation its
sort means (``/`` is ``ediv`` on ℤ, ``^`` with an ℤ exponent is ``zpow``...).

A mixin of ``elaborate.Elaborator`` (it uses ``elab``, ``mk``, ``err``, ``src``, ``notes``).
"""

from __future__ import annotations

from provers.ir import (
    BOOL,
    COMPLEX,
    FIELDS,
    FLOAT,
    INT,
    NAT,
    NUMERIC_ORDER,
    ORDER_OPS,
    ORDERED,
    REAL,
    FunSort,
    Num,
    SetSort,
    Sort,
    SortVar,
    Term,
    Uninterpreted,
    Var,
    app,
    cast,
    is_numeric,
)
from provers.lean4.sorts import Res, can_cast, conj, modelled, unfixed
from provers.lean4.syntax import Syn

ARITH = {"+", "-", "*", "/", "%", "^"}
RELS = {"=": "eq", "≠": "ne", "!=": "ne", "<": "lt", ">": "gt", "≤": "le", "<=": "le",
        "≥": "ge", ">=": "ge", "∣": "dvd"}
#: the Lean name of an operation, for an application kept uninterpreted
LEAN_SYMBOL = {
    "add": "HAdd.hAdd", "sub": "HSub.hSub", "mul": "HMul.hMul", "div": "HDiv.hDiv",
    "mod": "HMod.hMod", "neg": "Neg.neg", "pow": "HPow.hPow", "inv": "Inv.inv",
    "lt": "LT.lt", "le": "LE.le", "gt": "GT.gt", "ge": "GE.ge", "eq": "Eq", "ne": "Ne",
    "dvd": "Dvd.dvd", "abs": "abs", "mem": "Membership.mem", "subset": "HasSubset.Subset",
    "union": "Union.union", "inter": "Inter.inter", "setdiff": "SDiff.sdiff",
}
_ARITH_OPS = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod"}


def _untyped_binder(s: Syn) -> bool:
    """A set-builder ``{x | P}`` whose binder has neither a type nor a domain (``{x ∈ S | P}``)."""
    group = s.binders[0] if s.binders else None
    return group is not None and group.type is None and not group.pred


def _tuple(s: Syn) -> Syn | None:
    while s.kind == "paren":
        s = s.args[0]
    return s if s.kind == "tuple" else None


class _Tree:
    """The leaves of one arithmetic tree, its exponents (elaborated on their own) and
    whether a unary minus occurs (numerals then default to ℤ)."""

    def __init__(self) -> None:
        self.leaves: list[Syn] = []
        self.exponents: dict[int, Term] = {}
        self.negated = False


class ArithTrees:
    """Mixin of ``elaborate.Elaborator``: ``binop%`` trees and ``binrel%`` relations."""

    # ---- binop%: one sort for a group of leaves ----------------------------------------------
    def unify(self, args: list[Syn], expected: Sort | None, neg: bool = False) -> tuple[list[Term], bool]:
        """binop%-style: elaborate leaves without expected type, coerce to the widest sort."""
        first = [self.elab(a, None) for a in args]
        mx, uncomparable = self.max_sort(first, expected)
        flex = mx is None
        if mx is None:
            mx = self.default_sort([t for t, f in first], neg)
        return [self.at_sort(a, t, f, mx, flex, uncomparable) for a, (t, f) in zip(args, first, strict=False)], flex

    def at_sort(self, syn: Syn, t: Term, flexible: bool, mx: Sort, defaulted: bool, uncomparable: bool) -> Term:
        """Leaf ``t`` (read from ``syn``) brought to the group's sort ``mx``: elaborated again
        if its sort was only a default, cast up if it is narrower."""
        if flexible and defaulted and self.infer_depth:
            self.mark_numeric(t)  # inference pass: defaults never decide a binder's sort
        elif flexible and t.sort != mx:
            t, _ = self.elab(syn, mx)
        if not uncomparable and t.sort != mx and can_cast(t.sort, mx):
            t = cast(t, mx)
        return t

    def mark_numeric(self, t: Term) -> None:
        """Binders of unknown sort used directly in defaulted arithmetic default to ℕ."""
        if isinstance(t, Var) and isinstance(t.sort, SortVar):
            self.sorts.require(t.sort, "num")

    @staticmethod
    def max_sort(first: list[Res], expected: Sort | None) -> tuple[Sort | None, bool]:
        mx = expected if expected is not None and expected != BOOL else None
        uncomparable = False
        # leaves of sorts the IR models first: an opaque leaf (x : NNReal) never decides the
        # tree's sort before a modelled one does, whichever side it stands on (Lean's binop%
        # takes the maximal type of all leaves: ``36 * x * Real.sqrt y`` and
        # ``Real.sqrt y * (36 * x)`` are both real)
        for t, f in sorted(first, key=lambda r: not modelled(r[0].sort)):
            if f or unfixed(t.sort) or (not modelled(t.sort) and mx is not None and is_numeric(mx)):
                continue
            s = t.sort
            if not modelled(s) and mx is not None:
                continue
            if mx is None:
                mx = s
            elif s == mx or can_cast(s, mx):
                continue
            elif can_cast(mx, s):
                mx = s
            else:
                uncomparable = True
        return mx, uncomparable

    @staticmethod
    def default_sort(terms: list[Term], neg: bool) -> Sort:
        sorts = [t.sort for t in terms if is_numeric(t.sort)]
        if neg:
            sorts.append(INT)
        if not sorts:
            return NAT
        return max(sorts, key=NUMERIC_ORDER.index)

    # ---- trees ---------------------------------------------------------------------------------
    def elab_tree(self, syn: Syn, expected: Sort | None, rel: str | None) -> Term | Res:
        """An arithmetic tree (``rel`` None: a term and its flexibility) or a relation between
        two trees (``rel`` the relation's token: a proposition)."""
        if rel in ("=", "≠") and self._tuple_sides(syn):
            return self.tuple_equation(syn, rel)
        tree = _Tree()
        for side in (syn.args if rel is not None else (syn,)):
            self._collect(side, tree)
        first = {id(lf): self.elab(lf, None) for lf in tree.leaves}
        if rel in ("=", "≠") and len(tree.leaves) == 2:
            # `f = fun x => c`: the lambda takes the other side's function sort (binders and body)
            for lam, other in (tree.leaves, tree.leaves[::-1]):
                if lam.kind == "binder" and lam.val == "fun" and isinstance(first[id(other)][0].sort, FunSort):
                    first[id(lam)] = self.elab(lam, first[id(other)][0].sort)
            # `S = {x | 0 < x}` with `S : Set ℝ`: the set-builder's untyped binder is ℝ (Lean
            # unifies both sides first; elaborated alone it would default to ℕ)
            for built, other in (tree.leaves, tree.leaves[::-1]):
                if built.kind == "setbuilder" and _untyped_binder(built) \
                        and isinstance(first[id(other)][0].sort, SetSort) \
                        and first[id(built)][0].sort != first[id(other)][0].sort \
                        and not (other.kind == "setbuilder" and _untyped_binder(other)):
                    first[id(built)] = self.elab(built, first[id(other)][0].sort)
        mx, uncomparable, flex = self._tree_sort(syn, list(first.values()), tree, expected)
        final = {id(lf): self.at_sort(lf, *first[id(lf)], mx, flex, uncomparable) for lf in tree.leaves}
        if rel is None:
            return self._build(syn, tree, final), flex
        a, b = self._build(syn.args[0], tree, final), self._build(syn.args[1], tree, final)
        return self.relation(RELS[rel], a, b, syn)

    @staticmethod
    def _tuple_sides(syn: Syn) -> bool:
        left, right = _tuple(syn.args[0]), _tuple(syn.args[1])
        return bool(left and right and len(left.args) == len(right.args))

    def tuple_equation(self, syn: Syn, rel: str) -> Term:
        """``(a, b) = (c, d)`` is ``a = c ∧ b = d`` (``Prod.mk.injEq``); ``≠`` its negation."""
        pairs = zip(_tuple(syn.args[0]).args, _tuple(syn.args[1]).args, strict=False)  # type: ignore[union-attr]
        parts = [Syn("binop", syn.pos, syn.end, "=", (x, y)) for x, y in pairs]
        cj = conj(*(self.elab_tree(p, None, rel="=") for p in parts))  # type: ignore[misc]
        return cj if rel == "=" else app("not", cj)

    def _collect(self, s: Syn, tree: _Tree) -> None:
        """The leaves of the tree under ``s``; an exponent is elaborated on its own now (ℕ by
        default, Lean's ``Monoid.npow``; a real one stays real)."""
        if s.kind == "paren":
            self._collect(s.args[0], tree)
        elif s.kind == "binop" and s.val in ARITH:
            self._collect(s.args[0], tree)
            if s.val == "^":
                e, ef = self.elab(s.args[1], None)
                if ef:
                    e = e if e.sort == REAL else self.elab(s.args[1], NAT)[0]
                tree.exponents[id(s)] = e
            else:
                self._collect(s.args[1], tree)
        elif s.kind == "prefix" and s.val == "-":
            tree.negated = True
            self._collect(s.args[0], tree)
        else:
            tree.leaves.append(s)

    def _tree_sort(self, syn: Syn, first: list[Res], tree: _Tree, expected: Sort | None) -> tuple[Sort, bool, bool]:
        """The tree's sort, whether two leaves have sorts no cast relates, and whether the sort
        is only a default."""
        mx, uncomparable = self.max_sort(first, expected)
        if any(e.sort == REAL for e in tree.exponents.values()) and mx is None:
            mx = REAL  # lenient: `2 ^ x` with x : ℝ is read as rpow (Lean wants (2 : ℝ) ^ x)
            self.notes.append(f"{self.src(syn)!r}: numerals taken as ℝ because of a real exponent")
        if mx is None and any(isinstance(t, Num) and t.sort == REAL and f for t, f in first):
            # nothing fixes the sort and a decimal literal is there: Lean's default
            # `OfScientific` instance is Float, which the IR does not model
            mx = FLOAT
            self.notes.append(f"{self.src(syn)!r}: untyped decimal literals elaborate at Float "
                              "(write (0.1 : ℝ) for a real number)")
        if mx is None:
            return self.default_sort([t for t, _ in first], tree.negated), uncomparable, True
        return mx, uncomparable, False

    def _build(self, s: Syn, tree: _Tree, final: dict[int, Term]) -> Term:
        """The IR of the tree under ``s`` from its elaborated leaves."""
        if s.kind == "paren":
            return self._build(s.args[0], tree, final)
        if s.kind == "binop" and s.val in ARITH:
            a = self._build(s.args[0], tree, final)
            if s.val == "^":
                return self.power(s, a, tree.exponents[id(s)])
            return self.arith(s, a, self._build(s.args[1], tree, final))
        if s.kind == "prefix" and s.val == "-":
            a = self._build(s.args[0], tree, final)
            if a.sort == NAT and not self.infer_depth:
                raise self.err(s, f"ill-typed {self.src(s)!r}: ℕ has no negation")
            return self.mk("neg", (a,), s)
        return final[id(s)]

    # ---- one node: the IR operation its sort means ----------------------------------------------
    def relation(self, op: str, a: Term, b: Term, syn: Syn) -> Term:
        if op not in ("eq", "ne"):
            self.no_instance(syn, a.sort, b.sort)
        if op in ORDER_OPS and a.sort == b.sort and a.sort not in ORDERED:
            return Uninterpreted(LEAN_SYMBOL[op], (a, b), BOOL)
        if op == "dvd" and a.sort == b.sort and a.sort not in (NAT, INT):
            return Uninterpreted("Dvd.dvd", (a, b), BOOL)
        return self.mk(op, (a, b), syn, BOOL)

    def arith(self, s: Syn, a: Term, b: Term) -> Term:
        self.no_instance(s, a.sort, b.sort)
        sort = a.sort
        op = _ARITH_OPS[s.val]
        if op == "div" and sort == INT:
            op = "ediv"
        elif op == "mod" and sort == INT:
            op = "emod"
        elif op == "mod" and sort not in (NAT, INT) and a.sort == b.sort:
            if is_numeric(sort) and not self.infer_depth:
                raise self.err(s, f"ill-typed {self.src(s)!r}: no % on {sort} (Lean has no Mod instance)")
            return Uninterpreted("HMod.hMod", (a, b), sort)
        if a.sort == b.sort and not is_numeric(sort):
            return Uninterpreted(LEAN_SYMBOL[op], (a, b), sort)
        # an opaque operand beside a number (x : NNReal in ``x + y``, y : ℝ): the result has
        # the number's sort on either side, as the tree's sort (binop%) would give it
        known = [x.sort for x in (a, b) if modelled(x.sort) and is_numeric(x.sort)]
        return self.mk(op, (a, b), s, known[0] if len(known) == 1 else None)

    def power(self, s: Syn, base: Term, e: Term) -> Term:
        self.no_instance(s, base.sort, e.sort)
        bs, es = base.sort, e.sort
        if es == NAT:
            if is_numeric(bs):
                return app("pow", base, e)
            return Uninterpreted("HPow.hPow", (base, e), bs)
        if es == INT and bs in FIELDS:
            return app("zpow", base, e)
        if es == REAL and bs == REAL:
            return app("rpow", base, e)
        if modelled(bs) and modelled(es) and bs != COMPLEX and not self.infer_depth:
            raise self.err(s, f"ill-typed {self.src(s)!r}: no power {bs} ^ {es} (Lean: failed to synthesize HPow)")
        return Uninterpreted("HPow.hPow", (base, e), bs)
