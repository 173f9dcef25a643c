"""Handlers for the Mathlib names of ``names.py`` marked ``("special", key)``.

Each ``sp_<key>(syn, args, expected)`` elaborates one application (``Finset.filter p s``,
``IsLeast S a``, ``Int.floor x``...) to IR, unfolding definitions where the IR can state them
(``IsLeast``, ``Irrational``, ``Nat.ModEq``...). A mixin of ``elaborate.Elaborator``: it uses
the elaborator's ``elab``, ``coerce``, ``mk``, ``unify`` and ``generic``.
"""

from __future__ import annotations

from collections.abc import Callable

from provers.ir import (
    BOOL,
    COMPLEX,
    INT,
    NAT,
    ORDERED,
    REAL,
    TRUE,
    BaseSort,
    BigOp,
    FunSort,
    Lam,
    ListSort,
    Num,
    OpaqueSort,
    Quant,
    SetSort,
    Sort,
    Term,
    Uninterpreted,
    Var,
    app,
    app_sorted,
    cast,
    is_numeric,
    substitute,
)
from provers.lean4.sorts import UNKNOWN, Res, apply, conj
from provers.lean4.syntax import Syn


class Specials:
    """Mixin: the ``sp_*`` handlers (see the module docstring)."""

    def one_arg(self, syn: Syn, args: list[Syn], n: int = 1) -> None:
        if len(args) != n:
            raise self.err(syn, f"{self.src(syn)!r}: expected {n} argument(s), got {len(args)}")

    def sp_opaque(self, syn: Syn, name: str, result: object, args: list[Syn], expected: Sort | None) -> Res:
        targs = tuple(self.elab(a, None)[0] for a in args)
        if result == "arg0-codomain":
            f = targs[0].sort if targs else None
            if isinstance(f, FunSort) and len(targs) == 1:
                sort = f  # `deriv f` alone is a function like f (`deriv (deriv f) x` is a value)
            else:
                sort = f.result if isinstance(f, FunSort) else (expected or UNKNOWN)
        elif result == "NNReal":
            sort = OpaqueSort("NNReal")
        elif result == "set-nat":
            sort = SetSort(NAT)
        elif result == "set-arg0":
            sort = SetSort(targs[0].sort) if targs else (expected or UNKNOWN)
        elif result == "set-expected":
            return Uninterpreted(name, targs, expected or UNKNOWN), expected is None
        elif result == "list-elem":
            sort = targs[0].sort.elem if targs and isinstance(targs[0].sort, ListSort) else UNKNOWN
        else:
            sort = result  # type: ignore[assignment]
        return Uninterpreted(name, targs, sort), False

    def _rounding(self, syn: Syn, args: list[Syn], op: str) -> Res:
        if len(args) != 1:
            return self.generic(syn, op, args, None)
        t, f = self.elab(args[0], None)
        if f:
            t, _ = self.elab(args[0], REAL)
        if op in ("nat_floor", "nat_ceil", "round", "frac") and t.sort in (NAT, INT):
            t = cast(t, REAL)
        return self.mk(op, (t,), syn, INT), False

    def sp_nat_sqrt(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        """Mathlib: ``Nat.sqrt n = ⌊√n⌋₊`` (``Real.floor_real_sqrt_eq_nat_sqrt``)."""
        self.one_arg(syn, args)
        n = self.coerce(self.elab(args[0], NAT)[0], NAT, args[0])
        return app("nat_floor", app("sqrt", cast(n, REAL))), False

    def sp_floor(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._rounding(syn, args, "floor")

    def sp_ceil(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._rounding(syn, args, "ceil")

    def sp_nat_floor(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._rounding(syn, args, "nat_floor")

    def sp_nat_ceil(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._rounding(syn, args, "nat_ceil")

    def sp_round(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._rounding(syn, args, "round")

    def sp_fract(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._rounding(syn, args, "frac")

    def _interval(self, syn: Syn, args: list[Syn], expected: Sort | None, op: str) -> Res:
        if len(args) != 2:
            return self.generic(syn, "Finset." + op, args, expected)
        elem = expected.elem if isinstance(expected, SetSort) else None
        terms, flex = self.unify(args, elem)
        return self.mk(op, tuple(terms), syn, SetSort(terms[0].sort)), flex

    def sp_Icc(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._interval(syn, args, expected, "Icc")

    def sp_Ico(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._interval(syn, args, expected, "Ico")

    def sp_Ioc(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._interval(syn, args, expected, "Ioc")

    def sp_Ioo(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._interval(syn, args, expected, "Ioo")

    def sp_card(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        if len(args) != 1:
            return self.generic(syn, "Finset.card", args, expected)
        s, _ = self.elab(args[0], None)
        if isinstance(s.sort, SetSort):
            return app("card", s), False
        return Uninterpreted("Fintype.card", (s,), NAT), False

    def sp_filter(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        if len(args) != 2:
            return self.generic(syn, "Finset.filter", args, expected)
        s, _ = self.elab(args[1], expected if isinstance(expected, SetSort) else None)
        if not isinstance(s.sort, SetSort):
            p, _ = self.elab(args[0], None)
            return Uninterpreted("Finset.filter", (p, s), expected or UNKNOWN), expected is None
        psort = FunSort((s.sort.elem,), BOOL)
        p, _ = self.elab(args[0], psort)
        return self.mk("filter", (p, s), syn, s.sort), False

    def sp_image(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        if len(args) != 2:
            return self.generic(syn, "Finset.image", args, expected)
        s, _ = self.elab(args[1], None)
        if isinstance(s.sort, SetSort):
            f, _ = self.elab(args[0], FunSort((s.sort.elem,), expected.elem) if isinstance(expected, SetSort) else None)
        else:
            f, _ = self.elab(args[0], None)
        if isinstance(f.sort, FunSort) and isinstance(s.sort, SetSort):
            return self.mk("image", (f, s), syn, SetSort(f.sort.result)), False
        return Uninterpreted("Finset.image", (f, s), expected or UNKNOWN), expected is None

    def _bigop_fn(self, syn: Syn, args: list[Syn], expected: Sort | None, kind: str) -> Res:
        if len(args) != 2:
            return self.generic(syn, "Finset." + kind, args, expected)
        s, _ = self.elab(args[0], None)
        if not isinstance(s.sort, SetSort):
            f, _ = self.elab(args[1], None)
            return Uninterpreted("Finset." + kind, (s, f), expected or UNKNOWN), expected is None
        elem = s.sort.elem
        fsyn = args[1]
        while fsyn.kind == "paren":
            fsyn = fsyn.args[0]
        if fsyn.kind == "binder" and fsyn.val == "fun" and sum(len(g.names) for g in fsyn.binders) == 1:
            g = fsyn.binders[0]
            ty = self.require_type(g.type) if g.type is not None else elem
            v = Var(g.names[0], ty)
            with self.bind([v]):
                body, flex = self.elab(fsyn.args[0], expected)
            if is_numeric(body.sort):
                self.check_finset_interval(s, args[0])
                return BigOp(kind, v, s, body), flex
            return Uninterpreted("Finset." + kind, (s, Lam((v,), body)), body.sort), flex
        if fsyn.kind == "ident" and fsyn.val == "id" and "id" not in self.scope and is_numeric(elem):
            v = Var(self.fresh("i"), elem)  # `s.sum id`: the identity, Mathlib's `id`
            self.check_finset_interval(s, args[0])
            return BigOp(kind, v, s, v), False
        f, _ = self.elab(fsyn, None)
        if isinstance(f.sort, FunSort) and f.sort.args == (elem,) and is_numeric(f.sort.result):
            self.check_finset_interval(s, args[0])
            if isinstance(f, Lam):
                return BigOp(kind, f.vars[0], s, f.body), False
            v = Var(self.fresh("i"), elem)
            return BigOp(kind, v, s, app("apply", f, v)), False
        return Uninterpreted("Finset." + kind, (s, f), expected or UNKNOWN), expected is None

    def sp_sum(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._bigop_fn(syn, args, expected, "sum")

    def sp_prod(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._bigop_fn(syn, args, expected, "prod")

    def sp_finite(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        if len(args) != 1:
            return self.generic(syn, "Set.Finite", args, BOOL)
        s, _ = self.elab(args[0], None)
        if isinstance(s.sort, SetSort):
            return app("finite", s), False
        return Uninterpreted("Finite", (s,), BOOL), False

    def sp_infinite(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        t, _ = self.sp_finite(syn, args, expected)
        return app("not", t), False

    def sp_identity_set(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        if len(args) != 1:
            return self.generic(syn, "Set.toFinset", args, expected)
        return self.elab(args[0], expected)

    def _extremum(self, syn: Syn, args: list[Syn], rel: str, name: str) -> Res:
        if len(args) != 2:
            return self.generic(syn, name, args, BOOL)
        s, sflex = self.elab(args[0], None)
        if not isinstance(s.sort, SetSort) or sflex:
            a, _ = self.elab(args[1], None)
            if not isinstance(s.sort, SetSort):
                s, _ = self.elab(args[0], SetSort(a.sort))
        else:
            a = self.coerce(self.elab(args[1], s.sort.elem)[0], s.sort.elem, args[1])
        if not isinstance(s.sort, SetSort) or s.sort.elem not in ORDERED or a.sort != s.sort.elem:
            return Uninterpreted(name, (s, a), BOOL), False
        y = Var(self.fresh("y"), a.sort)
        bound = Quant("forall", (y,), app("implies", app("mem", y, s), app(rel, a, y)))
        return conj(app("mem", a, s), bound), False

    def sp_is_least(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._extremum(syn, args, "le", "IsLeast")

    def sp_is_greatest(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._extremum(syn, args, "ge", "IsGreatest")

    def sp_dist(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        """``dist x y`` is real-valued in every metric space (``Dist.dist : α → α → ℝ``): on ℝ
        ``|x - y|`` (``Real.dist_eq``), on ℂ ``Complex.abs (x - y)`` (``Complex.dist_eq``);
        on a space the IR does not model a symbol, still of sort ℝ, so that ``∃ δ > 0, δ < dist
        p q`` binds a real δ (on ℕ / ℤ, where ``open Nat`` may mean ``Nat.dist``, as before)."""
        if len(args) != 2:
            return self.generic(syn, "dist", args, REAL)
        a, b = (self.elab(x, None)[0] for x in args)
        if a.sort == b.sort == REAL:
            return app("abs", app("sub", a, b)), False
        if a.sort == b.sort == COMPLEX:
            return app("cabs", app("sub", a, b)), False
        if a.sort in (NAT, INT) or b.sort in (NAT, INT):  # `open Nat`: `Nat.dist` is ℕ-valued
            return self.generic(syn, "dist", args, expected)
        return Uninterpreted("dist", (a, b), REAL), False

    def sp_nonempty(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        """``s.Nonempty`` (``Set.Nonempty``, ``Finset.Nonempty``) is ``∃ x, x ∈ s``: the
        definition, so that it meets ``s ≠ ∅`` and ``∃ x ∈ s, …``."""
        if len(args) != 1:
            return self.generic(syn, "Set.Nonempty", args, BOOL)
        s, _ = self.elab(args[0], None)
        if not isinstance(s.sort, SetSort):
            return Uninterpreted("Set.Nonempty", (s,), BOOL), False
        x = Var(self.fresh("x"), s.sort.elem)
        return Quant("exists", (x,), app("mem", x, s)), False

    def sp_disjoint(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        """``Disjoint s t`` of two sets is ``∀ x, x ∈ s → x ∉ t`` (``Set.disjoint_left``); of
        anything else (a lattice's ``⊓ = ⊥``) it stays uninterpreted."""
        if len(args) != 2:
            return self.generic(syn, "Disjoint", args, BOOL)
        s, _ = self.elab(args[0], None)
        t, _ = self.elab(args[1], s.sort if isinstance(s.sort, SetSort) else None)
        if not (isinstance(s.sort, SetSort) and s.sort == t.sort):
            return Uninterpreted("Disjoint", (s, t), BOOL), False
        x = Var(self.fresh("x"), s.sort.elem)
        return Quant("forall", (x,), app("implies", app("mem", x, s), app("not", app("mem", x, t)))), False

    def sp_injective(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        if len(args) != 1:
            return self.generic(syn, "Function.Injective", args, BOOL)
        f, _ = self.elab(args[0], None)
        injective = _injective_on(f, None, self.fresh)
        return (injective if injective is not None else Uninterpreted("Function.Injective", (f,), BOOL)), False

    def sp_bijective(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        """``Function.Bijective f`` is ``Injective f ∧ Surjective f``: injectivity written out
        (as ``Function.Injective``), surjectivity the uninterpreted ``Function.Surjective``
        (``semantics.inverses`` reads it for affine f)."""
        if len(args) != 1:
            return self.generic(syn, "Function.Bijective", args, BOOL)
        f, _ = self.elab(args[0], None)
        injective = _injective_on(f, None, self.fresh)
        if injective is None:
            return Uninterpreted("Function.Bijective", (f,), BOOL), False
        return app("and", injective, Uninterpreted("Function.Surjective", (f,), BOOL)), False

    def sp_inj_on(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        """``Set.InjOn f s``: ∀ a ∈ s, ∀ b ∈ s, f a = f b → a = b."""
        if len(args) != 2:
            return self.generic(syn, "Set.InjOn", args, BOOL)
        f, _ = self.elab(args[0], None)
        dom = f.sort.args[0] if isinstance(f.sort, FunSort) and len(f.sort.args) == 1 else None
        s, _ = self.elab(args[1], SetSort(dom) if dom is not None else None)
        injective = _injective_on(f, s, self.fresh)
        return (injective if injective is not None else Uninterpreted("Set.InjOn", (f, s), BOOL)), False

    def sp_irrational(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        """``Irrational x`` is ``x ∉ Set.range ((↑) : ℚ → ℝ)``: ¬ ∃ q : ℚ, ↑q = x."""
        self.one_arg(syn, args)
        x = self.coerce(self.elab(args[0], REAL)[0], REAL, args[0])
        q = Var(self.fresh("q"), BaseSort("Rat"))
        return app("not", Quant("exists", (q,), app("eq", cast(q, REAL), x))), False

    def sp_normsq(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        """``Complex.normSq z = re z ^ 2 + im z ^ 2``."""
        self.one_arg(syn, args)
        z = self.coerce(self.elab(args[0], COMPLEX)[0], COMPLEX, args[0])
        two = Num(2, NAT)
        return app("add", app("pow", app("re", z), two), app("pow", app("im", z), two)), False

    def sp_proper_divisors(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        """``Nat.properDivisors n = Nat.divisors n \\ {n}``."""
        self.one_arg(syn, args)
        n = self.coerce(self.elab(args[0], NAT)[0], NAT, args[0])
        return app("setdiff", app("divisors", n), app_sorted("set_of", SetSort(NAT), n)), False

    def sp_succ(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        self.one_arg(syn, args)
        n = self.coerce(self.elab(args[0], NAT)[0], NAT, args[0])
        return app("add", n, Num(1, NAT)), False

    def sp_pred(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        self.one_arg(syn, args)
        n = self.coerce(self.elab(args[0], NAT)[0], NAT, args[0])
        return app("sub", n, Num(1, NAT)), False

    def _modeq(self, syn: Syn, args: list[Syn], s: Sort, op: str) -> Res:
        self.one_arg(syn, args, 3)
        n, a, b = (self.coerce(self.elab(x, s)[0], s, x) for x in args)
        return app("eq", app(op, a, n), app(op, b, n)), False

    def sp_nat_modeq(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._modeq(syn, args, NAT, "mod")

    def sp_int_modeq(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._modeq(syn, args, INT, "emod")

    def sp_coprime(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        self.one_arg(syn, args, 2)
        a, b = (self.coerce(self.elab(x, NAT)[0], NAT, x) for x in args)
        return app("eq", app("gcd", a, b), Num(1, NAT)), False

    def _int_gl(self, syn: Syn, args: list[Syn], op: str) -> Res:
        self.one_arg(syn, args, 2)
        a, b = (self.coerce(self.elab(x, INT)[0], INT, x) for x in args)
        return app("to_nat", app(op, a, b)), False

    def sp_int_gcd(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._int_gl(syn, args, "gcd")

    def sp_int_lcm(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._int_gl(syn, args, "lcm")

    def _int_op(self, syn: Syn, args: list[Syn], op: str) -> Res:
        self.one_arg(syn, args, 2)
        a, b = (self.coerce(self.elab(x, INT)[0], INT, x) for x in args)
        return app(op, a, b), False

    def sp_emod(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._int_op(syn, args, "emod")

    def sp_ediv(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._int_op(syn, args, "ediv")

    def sp_fdiv(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._int_op(syn, args, "fdiv")

    def sp_fmod(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        return self._int_op(syn, args, "fmod")

    def sp_cast(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        self.one_arg(syn, args)
        fake = Syn("prefix", syn.pos, syn.end, "↑", (args[0],))
        return self.elab_prefix(fake, expected)

    def sp_int_ofnat(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        self.one_arg(syn, args)
        return cast(self.coerce(self.elab(args[0], NAT)[0], NAT, args[0]), INT), False

    def sp_ofReal(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        self.one_arg(syn, args)
        return cast(self.coerce(self.elab(args[0], REAL)[0], REAL, args[0]), COMPLEX), False

    def sp_list_sum(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        self.one_arg(syn, args)
        t, _ = self.elab(args[0], None)
        if isinstance(t.sort, ListSort) and is_numeric(t.sort.elem):
            return app("list_sum", t), False
        if isinstance(t.sort, SetSort):  # `s.sum f` on a Finset reaches here without f
            return Uninterpreted("Finset.sum", (t,), expected or UNKNOWN), expected is None
        return Uninterpreted("List.sum", (t,), expected or UNKNOWN), expected is None

    def _literal_elements(self, syn: Syn) -> list[Term] | None:
        t, _ = self.elab(syn, None)
        if isinstance(t, Uninterpreted) and t.symbol == "List.literal" and isinstance(t.sort, ListSort):
            return list(t.args)
        return None

    def sp_list_pairwise(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        """``List.Pairwise R [x₁, …, xₙ]`` is ⋀_{i<j} R xᵢ xⱼ (a literal list only)."""
        self.one_arg(syn, args, 2)
        xs = self._literal_elements(args[1])
        if xs is None or not xs:
            return self.generic(syn, "List.Pairwise", args, expected)
        rel, _ = self.elab(args[0], FunSort((xs[0].sort, xs[0].sort), BOOL))
        if not (isinstance(rel, Lam) and len(rel.vars) == 2):
            return self.generic(syn, "List.Pairwise", args, expected)
        p, q = rel.vars
        pairs = [substitute(rel.body, {p: a, q: b}) for i, a in enumerate(xs) for b in xs[i + 1:]]
        return (TRUE if not pairs else pairs[0] if len(pairs) == 1 else app("and", *pairs)), False

    def sp_list_nodup(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        """``List.Nodup [x₁, …, xₙ]``: the elements pairwise distinct."""
        self.one_arg(syn, args)
        xs = self._literal_elements(args[0])
        if xs is None:
            return self.generic(syn, "List.Nodup", args, expected)
        pairs = [app("ne", a, b) for i, a in enumerate(xs) for b in xs[i + 1:]]
        return (TRUE if not pairs else pairs[0] if len(pairs) == 1 else app("and", *pairs)), False

    def sp_list_length(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        self.one_arg(syn, args)
        t, _ = self.elab(args[0], None)
        if isinstance(t.sort, ListSort):
            return app("list_length", t), False
        return Uninterpreted("List.length", (t,), NAT), False

    def sp_ite(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        if len(args) != 3:
            return self.generic(syn, "ite", args, expected)
        c = self.prop(args[0])
        terms, flex = self.unify(args[1:], expected)
        return self.mk("ite", (c, *terms), syn, terms[0].sort), flex

    def sp_id(self, syn: Syn, args: list[Syn], expected: Sort | None) -> Res:
        self.one_arg(syn, args)
        return self.elab(args[0], expected)


def _injective_on(f: Term, domain: Term | None, fresh: Callable[[str], str]) -> Term | None:
    """∀ a b, [a ∈ s → b ∈ s →] f a = f b → a = b (``Function.Injective``, ``Set.InjOn``; the
    Isabelle frontend reads ``inj`` / ``inj_on`` alike); None when f is no unary function or s
    no set of its arguments."""
    if not isinstance(f.sort, FunSort) or len(f.sort.args) != 1:
        return None
    dom = f.sort.args[0]
    if domain is not None and domain.sort != SetSort(dom):
        return None
    a, b = Var(fresh("a"), dom), Var(fresh("b"), dom)
    body = app("implies", app("eq", apply(f, a), apply(f, b)), app("eq", a, b))
    if domain is not None:
        body = app("implies", app("and", app("mem", a, domain), app("mem", b, domain)), body)
    return Quant("forall", (a, b), body)
