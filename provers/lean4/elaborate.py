"""Elaboration of Lean 4 syntax trees into the typed IR, inferring sorts the way Lean does.

What is modelled (and why it matters for equivalence):

- ``binop%`` trees (``+ - * / %``, unary ``-``, the base of ``^``) and ``binrel%`` relations
  (``= ≠ < ≤ > ≥ ∣``): every leaf is elaborated without an expected type; the widest known
  leaf sort (and, for ``binop%``, the expected type) is the tree's sort; narrower leaves get a
  ``cast`` (Lean's ``↑``) and sort-less leaves (numerals, ``↑e``, unknown symbols) take the
  tree's sort. With no sort anywhere numerals default to ℕ (ℤ when a unary minus is present,
  Lean's ``Neg Int`` default instance), so ``1 / 2`` alone is ℕ division.
- ``^``: the exponent is elaborated on its own (ℕ by default, Lean's ``Monoid.npow``); an
  ℤ exponent over a field is ``zpow``, a real exponent over ℝ is ``rpow``.
- operation meaning by sort: ``/`` is ``div`` on ℕ and fields, ``ediv`` on ℤ; ``%`` is
  ``mod`` on ℕ and ``emod`` on ℤ; ``-`` on ℕ is the IR's truncated ``sub``.
- binders without a type (``∀ x, ...``, ``fun x => ...``) get their sort by unification with
  their uses (two passes: infer with the sort pending, then elaborate), defaulting to ℕ in
  arithmetic.

This module holds the elaborator's core (dispatch on the syntax kind, names, applications,
coercions); arithmetic trees are in ``arith.py``, set terms in ``sets.py``, binders in
``binders.py``, types in ``types.py`` and Mathlib's special names in ``specials.py``: mixins
of one ``Elaborator``.

Policy for ill-typed input: when every sort involved is one the IR models (numbers, Prop,
sets, functions of those), a term Lean would reject (``x ∈ 3`` with ``x : ℝ``, ``-n`` on ℕ,
``f x`` with ``x : ℝ`` for ``f : ℕ → ℝ``) raises ``ParseError`` with the position and reason.
When an unmodelled (opaque) sort is involved we cannot tell, so the term becomes
``Uninterpreted`` instead.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction

from provers.errors import InputTooLargeError, ParseError
from provers.ir import (
    BOOL,
    COMPLEX,
    FIELDS,
    INT,
    NAT,
    REAL,
    TYPE,
    BaseSort,
    FunSort,
    IRError,
    Lam,
    ListSort,
    Num,
    OpaqueSort,
    PendingSorts,
    SetSort,
    Sort,
    SortVar,
    Term,
    Uninterpreted,
    Var,
    app,
    app_sorted,
    cast,
    is_numeric,
)
from provers.lean4.arith import ARITH, LEAN_SYMBOL, RELS, ArithTrees
from provers.lean4.binders import Binders
from provers.lean4.names import NAMES
from provers.lean4.sets import SetTerms
from provers.lean4.sorts import (
    UNKNOWN,
    Res,
    beta,
    can_cast,
    flat,
    modelled,
    term_syn,
    unfixed,
)
from provers.lean4.specials import Specials
from provers.lean4.syntax import Syn
from provers.lean4.types import (
    AUTO_BOUND,
    CANONICAL_TYPE_NAMES,
    EQUIVALENCES,
    TYPE_NAMES,
    TypeExpressions,
)

MAX_STEPS = 300_000

LOGIC = {"∧": "and", "∨": "or", "↔": "iff", "<->": "iff", "→": "implies", "->": "implies"}
NAMESPACES_BY_SORT = {NAT: ("Nat",), INT: ("Int",), REAL: ("Real",), BaseSort("Rat"): ("Rat",),
                      COMPLEX: ("Complex",)}
RECV_INDEX = {"Finset.filter": 1, "Finset.image": 1, "Set.image": 1}
DEFAULT_OPENS = ("Real", "Nat", "Finset", "Set", "Int", "Complex", "Function", "List")
_BRACKETS = {"abs": "|abs|", "floor": "Int.floor", "ceil": "Int.ceil", "nfloor": "Nat.floor", "nceil": "Nat.ceil"}


class NeedAutoBound(Exception):
    """Raised when an auto-bound implicit is met outside the inference pass."""


class Elaborator(ArithTrees, SetTerms, Binders, TypeExpressions, Specials):
    """Elaborates one statement; holds the local context and the sort-inference state.
    Arithmetic trees are in ``arith.py``, set terms in ``sets.py``, binders in ``binders.py``,
    types in ``types.py``, Mathlib's special names in ``specials.py``."""

    def __init__(self, text: str, opens: tuple[str, ...] = (), definitions: dict | None = None):
        self.text = text
        self.opens = tuple(dict.fromkeys((*opens, *DEFAULT_OPENS)))
        #: name -> ``provers.lean4.definitions.Definition`` (the defs before the theorem)
        self.defs = definitions if definitions is not None else {}
        self.scope: dict[str, Var] = {}
        self._fresh = itertools.count()  # invented names and pending sorts, numbered together
        #: sorts of binders written without a type, while inference runs (class "num": the
        #: binder was used in defaulted arithmetic, so it defaults to ℕ)
        self.sorts = PendingSorts(self._fresh)
        self.infer_depth = 0
        self.steps = 0
        self.notes: list[str] = []
        #: None: auto-bound implicits not allowed (header); else name -> Var
        self.auto_bound: dict[str, Var] | None = None
        #: what an unbound single letter does (Lean's autoImplicit): "refuse" (raise
        #: NeedAutoBound: the caller starts over with inference), "infer" (pass 1: a variable
        #: of pending sort) or "default" (pass 2: a variable of its default sort, ``α_name``)
        self.auto_mode = "refuse"
        #: auto-bound implicit type variables (``(n : β)`` with β undeclared): a bare type,
        #: with no numerals, arithmetic, order or coercions (Lean finds no instance)
        self.type_variables: set[str] = set()
        #: names mentioned in the statement's instance binders (``[Field k]``)
        self.with_instances: set[str] = set()
        #: the two types of each bundled map read (``Equiv α β`` / ``α ≃ β``, ``α →+* β``, …; its
        #: opaque sort's name ↦ (α, β)): the domain of its coercion, of σ.1 and σ.2 (``equiv_sorts``)
        self.equiv_ends: dict[str, tuple[Sort, Sort]] = {}
        #: auto-bound names used as types (``(x : R)``, ``β → α``), in order: type variables,
        #: bound as such by the second pass (``{R : Type*}`` or ``{R : Sort*}``)
        self.type_names: dict[str, None] = {}

    def err(self, syn: Syn, reason: str) -> ParseError:
        return ParseError.at_offset(reason, self.text, syn.pos)

    def src(self, syn: Syn) -> str:
        return " ".join(self.text[syn.pos : syn.end].split())

    def fresh(self, base: str = "x") -> str:
        return f"{base}_{next(self._fresh)}"

    def no_instance(self, syn: Syn, *sorts: Sort | None) -> None:
        """Lean rejects arithmetic, order, numerals and coercions on a bare type variable."""
        for s in sorts:
            if isinstance(s, OpaqueSort) and s.name in self.type_variables and not self.infer_depth:
                raise self.err(
                    syn,
                    f"ill-typed {self.src(syn)!r}: {s} is an undeclared (auto-bound) type "
                    "variable: it has no numerals, arithmetic, order or coercions",
                )

    def mk(self, op: str, args: tuple[Term, ...], syn: Syn, fallback: Sort | None = None) -> Term:
        """``app(op, *args)``; an ill-sorted application is a ParseError when every sort is
        modelled (Lean would reject it) and an Uninterpreted node otherwise."""
        try:
            out = app(op, *args)
            if op in ("and", "or"):
                return flat(op, *out.args)
            return out
        except IRError as e:
            if all(modelled(a.sort) for a in args) and not self.infer_depth:
                raise self.err(syn, f"ill-typed {self.src(syn)!r}: {e}") from None
            self.no_instance(syn, *(a.sort for a in args))
            sort = fallback or (args[0].sort if args else UNKNOWN)
            return Uninterpreted(LEAN_SYMBOL.get(op, op), args, sort)

    def coerce(self, t: Term, target: Sort | None, syn: Syn) -> Term:
        """Lean's ``ensureHasType``: insert ``↑`` on a narrower numeric term, else insist."""
        if target is None or unfixed(target) or t.sort == target:
            return t
        if can_cast(t.sort, target):
            return cast(t, target)
        if self.infer_depth or unfixed(t.sort):
            return t
        self.no_instance(syn, t.sort, target)
        if not (modelled(t.sort) and modelled(target)):
            # a coercion into or out of a sort the IR does not model (ℕ → ZMod p, ℕ+ → ℕ)
            return Uninterpreted("↑", (t,), target)
        raise self.err(syn, f"type mismatch: {self.src(syn)!r} has sort {t.sort}, expected {target}")

    def ensure_prop(self, t: Term, syn: Syn) -> Term:
        if t.sort == BOOL:
            return t
        if not modelled(t.sort) or self.infer_depth:
            return Uninterpreted("coe_prop", (t,), BOOL)
        raise self.err(syn, f"expected a proposition, got {self.src(syn)!r} of sort {t.sort}")

    def prop(self, syn: Syn) -> Term:
        t, _ = self.elab(syn, BOOL)
        return self.ensure_prop(t, syn)

    def elab(self, syn: Syn, expected: Sort | None) -> Res:
        """Elaborate ``syn``; ``expected`` None means "no expected type" (a binop% leaf)."""
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise InputTooLargeError.at_offset("statement too complex to elaborate", self.text, syn.pos)
        if expected is not None and unfixed(expected):
            expected = None
        handler = _BY_KIND.get(syn.kind)
        if handler is None:
            return self.opaque_node(syn, expected)
        return handler(self, syn, expected)

    def elab_binop(self, syn: Syn, expected: Sort | None) -> Res:
        op = syn.val
        if op in ARITH:
            return self.elab_tree(syn, expected, rel=None)
        if op in RELS:
            return self.elab_tree(syn, None, rel=op), False
        if op in LOGIC:
            if op in ("→", "->"):
                ts, certain = self.type_or_prop(syn.args[0])
                if ts is not None and certain and ts != BOOL:
                    return Uninterpreted(self.type_name(syn), (), TYPE), False  # a function type as a term
            a, b = self.prop(syn.args[0]), self.prop(syn.args[1])
            return self.mk(LOGIC[op], (a, b), syn), False
        return self.elab_setop(syn, expected)

    def elab_ascription(self, syn: Syn, expected: Sort | None) -> Res:
        """``(t : T)``: ``t`` elaborated at ``T`` (a cast inserted when it is narrower)."""
        ty = self.elab_type(syn.args[1])
        if ty is None:
            raise self.err(syn.args[1], f"{self.src(syn.args[1])!r} is not a type")
        t, _ = self.elab(syn.args[0], ty)
        return self.coerce(t, ty, syn), False

    def elab_brackets(self, syn: Syn, expected: Sort | None) -> Res:
        """``|x|``, ``⌊x⌋``, ``⌈x⌉``, ``⌊x⌋₊``, ``⌈x⌉₊``: the Mathlib functions they denote."""
        key = _BRACKETS[syn.kind]
        return self.apply_spec(syn, key, NAMES[key], list(syn.args), expected)

    def elab_norm(self, syn: Syn, expected: Sort | None) -> Res:
        """``‖x‖``: Mathlib's norm is ``|x|`` on ℝ (``Real.norm_eq_abs``, and on ℕ, ℤ, ℚ through
        ℝ: ``‖n‖ = |(n : ℝ)|``) and ``Complex.abs`` on ℂ (``Complex.norm_eq_abs``); other
        normed spaces keep an uninterpreted ``norm``."""
        t, flex = self.elab(syn.args[0], None)
        if flex and is_numeric(t.sort):
            t, _ = self.elab(syn.args[0], REAL)
        if t.sort == COMPLEX:
            return app("cabs", t), False
        if is_numeric(t.sort):
            return app("abs", t if t.sort == REAL else cast(t, REAL)), False
        return Uninterpreted("norm", (t,), REAL), False

    def opaque_node(self, syn: Syn, expected: Sort | None, symbol: str | None = None) -> Res:
        """Anonymous constructors, tuples, holes, strings, lists...: Uninterpreted, args kept."""
        args: list[Term] = []
        for a in syn.args:
            if isinstance(a, Syn):
                args.append(self.elab(a, None)[0])
        if syn.kind == "other" and syn.val == "interval":  # ∫ x in a..b: real bounds
            args = [self.coerce(self.elab(a, REAL)[0], REAL, a) for a in syn.args]
        sym = symbol or {"anon": "⟨⟩", "tuple": "Prod.mk", "list": "List.literal", "hole": "_",
                         "cdot": "·", "str": "String"}.get(syn.kind, syn.val or syn.kind)
        if syn.kind == "tuple" and expected is None:
            if any(unfixed(a.sort) for a in args):  # its sort is not known either
                return Uninterpreted(sym, tuple(args), UNKNOWN), False
            return Uninterpreted(sym, tuple(args), OpaqueSort(" × ".join(str(a.sort) for a in args))), False
        if syn.kind == "list" and expected is None and args:
            return Uninterpreted(sym, tuple(args), ListSort(args[0].sort)), False
        return Uninterpreted(sym, tuple(args), expected or UNKNOWN), expected is None

    def elab_num(self, syn: Syn, expected: Sort | None) -> Res:
        text = syn.val.replace("_", "")
        try:
            if text.startswith(("0x", "0b", "0o")):
                value: int | Fraction = int(text, 0)
            elif any(c in text for c in ".eE"):
                value = Fraction(text)
            else:
                value = int(text)
        except ValueError:
            raise self.err(syn, f"malformed numeral {syn.val!r}") from None
        decimal = isinstance(value, Fraction) or "." in text
        if expected is None:
            return Num(value, REAL if decimal else NAT), True
        if is_numeric(expected):
            if decimal and expected in (NAT, INT):
                raise self.err(syn, f"decimal literal {syn.val} cannot have sort {expected}")
            return Num(value, expected), False
        if isinstance(expected, FunSort) and is_numeric(expected.result):
            # Pi.instOfNat: `f ≠ 0` for a function f compares with the constant function
            vs = tuple(Var(self.fresh("x"), s) for s in expected.args)
            return Lam(vs, Num(value, expected.result)), False
        if modelled(expected):
            raise self.err(syn, f"numeral {syn.val} used where a term of sort {expected} is expected")
        self.no_instance(syn, expected)
        return Uninterpreted(text if decimal else str(value), (), expected), False

    def lookup(self, name: str) -> tuple[str, tuple] | None:
        if name in NAMES:
            return name, NAMES[name]
        for ns in self.opens:
            full = f"{ns}.{name}"
            if full in NAMES:
                return full, NAMES[full]
        return None

    def local_prefix(self, name: str) -> tuple[Var, list[str]] | None:
        """``x.den.foo`` with a local ``x``: the variable and the fields."""
        parts = name.split(".")
        for i in range(len(parts) - 1, 0, -1):
            head = ".".join(parts[:i])
            if head in self.scope:
                return self.scope[head], parts[i:]
        return None

    def var_ref(self, v: Var, expected: Sort | None) -> Res:
        """A variable of a pending sort takes the first sort its uses expect."""
        if not isinstance(v.sort, SortVar):
            return v, False
        s = self.sorts.shallow(v.sort)
        if not isinstance(s, SortVar):
            return Var(v.name, s), False
        if expected is not None:
            self.sorts.unify(s, expected)
            return Var(v.name, expected), False
        return v, True

    def elab_ident(self, syn: Syn, name: str, args: tuple[Syn, ...], expected: Sort | None) -> Res:
        if name not in self.scope and self.auto_bound and name in self.auto_bound:
            v, flex = self.var_ref(self.auto_bound[name], expected if not args else None)
            if not args:
                return v, flex
            return self.apply_fn(syn, v, list(args), expected)
        if name in self.scope:
            v, flex = self.var_ref(self.scope[name], expected if not args else None)
            if not args:
                return v, flex
            return self.apply_fn(syn, v, list(args), expected)
        lp = self.local_prefix(name)
        if lp is not None:
            v, fields = lp
            recv: Syn = term_syn(self.var_ref(v, None)[0], syn)
            for f in fields[:-1]:
                t, _ = self.elab_proj(syn, recv, f, [], None)
                recv = term_syn(t, syn)
            return self.elab_proj(syn, recv, fields[-1], list(args), expected)
        if name in self.defs:
            return self.defined(syn, self.defs[name], args, expected)
        found = self.lookup(name)
        if found is not None:
            return self.apply_spec(syn, found[0], found[1], list(args), expected)
        if name == "∅" and not args:
            if isinstance(expected, SetSort):
                return app_sorted("set_of", expected), False
            return Uninterpreted("∅", (), expected or UNKNOWN), expected is None
        if name in TYPE_NAMES and not args:
            return Uninterpreted(CANONICAL_TYPE_NAMES.get(name, name), (), TYPE), False
        return self.generic(syn, name, args, expected)

    def defined(self, syn: Syn, d, args: tuple[Syn, ...], expected: Sort | None) -> Res:
        """A name defined before the theorem: its unfolded value, else its digest symbol."""
        if d.type_value is not None or d.type_refusal:
            return Uninterpreted(d.symbol, (), TYPE), False
        if d.value is not None:
            if not args:
                return d.value, False
            return self.apply_fn(syn, d.value, list(args), expected)
        sort = d.sort
        if not args:
            return Uninterpreted(d.symbol, (), sort), False
        if isinstance(sort, FunSort) and len(args) == len(sort.args):
            targs = tuple(self.coerce(self.elab(a, s)[0], s, a) for a, s in zip(args, sort.args, strict=False))
            return Uninterpreted(d.symbol, targs, sort.result), False
        return self.generic(syn, d.symbol, args, expected)

    def generic(self, syn: Syn, name: str, args: tuple[Syn, ...] | list[Syn], expected: Sort | None) -> Res:
        """An unknown function: Uninterpreted, its sort from the context (or still open)."""
        if self.auto_bound is not None and not args and AUTO_BOUND.match(name):
            if name not in self.auto_bound:
                if self.auto_mode == "refuse":
                    raise NeedAutoBound(name)
                sort = self.sorts.fresh(name=name) if self.auto_mode == "infer" else OpaqueSort(f"α_{name}")
                self.auto_bound[name] = Var(name, sort)
            return self.var_ref(self.auto_bound[name], expected)
        targs = tuple(self.elab(a, None)[0] for a in args)
        if expected is not None:
            return Uninterpreted(name, targs, expected), False
        return Uninterpreted(name, targs, UNKNOWN), True

    def elab_app(self, syn: Syn, expected: Sort | None) -> Res:
        head, *args = syn.args
        args = [a for a in args if not (a.kind == "other" and a.val.startswith("named:"))]
        if head.kind == "ident":
            return self.elab_ident(syn, head.val, tuple(args), expected)
        if head.kind == "proj":
            return self.elab_proj(syn, head.args[0], head.val, args, expected)
        if head.kind == "paren" and head.args[0].kind in ("ident", "proj", "app"):
            inner = head.args[0]
            if inner.kind == "ident":
                return self.elab_ident(syn, inner.val, tuple(args), expected)
        f, _ = self.elab(head, None)
        return self.apply_fn(syn, f, args, expected)

    def apply_fn(self, syn: Syn, f: Term, args: list[Syn], expected: Sort | None) -> Res:
        fs = f.sort
        if isinstance(fs, FunSort):
            n = len(fs.args)
            if len(args) < n:
                targs = tuple(self.coerce(self.elab(a, s)[0], s, a) for a, s in zip(args, fs.args, strict=False))
                return Uninterpreted("partial_apply", (f, *targs), FunSort(fs.args[len(args):], fs.result)), False
            targs = tuple(self.coerce(self.elab(a, s)[0], s, a) for a, s in zip(args[:n], fs.args, strict=False))
            if isinstance(f, Lam):
                out = beta(f, targs)
            else:
                out = self.mk("apply", (f, *targs), syn, fs.result)
            if len(args) > n:
                rest = tuple(self.elab(a, None)[0] for a in args[n:])
                return Uninterpreted("apply", (out, *rest), expected or UNKNOWN), expected is None
            return out, False
        ends = self.equiv_sorts(fs)
        if ends is not None and len(args) == 1:
            # `σ x` for σ : α ≃ β (or f : α →+* β, …) is `σ.toFun x`, the coercion to a function
            # α → β: x is read in α (with no sort, `∀ x, f x = x - 8` bound x over ℕ)
            arg = self.coerce(self.elab(args[0], ends[0])[0], ends[0], args[0])
            return Uninterpreted("Prod.fst", (f, arg), ends[1]), False
        targs = tuple(self.elab(a, None)[0] for a in args)
        return Uninterpreted("coe_fn", (f, *targs), expected or UNKNOWN), expected is None

    def apply_spec(self, syn: Syn, name: str, spec: tuple, args: list[Syn], expected: Sort | None) -> Res:
        kind = spec[0]
        if kind == "const":
            if args:
                return self.generic(syn, name, args, expected)
            return app(spec[1]), False
        if kind == "fixed":
            op, params = spec[1], spec[2]
            if len(args) != len(params):
                if not args and isinstance(expected, FunSort) and len(expected.args) == len(params):
                    return self.eta(syn, name, spec, expected)
                return self.generic(syn, name, args, expected)
            targs = tuple(self.coerce(self.elab(a, p)[0], p, a) for a, p in zip(args, params, strict=False))
            return self.mk(op, targs, syn), False
        if kind in ("poly", "pred"):
            op, n = spec[1], spec[2]
            if len(args) != n:
                if not args and isinstance(expected, FunSort) and len(expected.args) == n:
                    return self.eta(syn, name, spec, expected)
                return self.generic(syn, name, args, expected)
            terms, flex = self.unify(args, expected if kind == "poly" else None)
            if op == "abs" and terms[0].sort == COMPLEX:  # `open Complex`: abs z is Complex.abs z
                self.notes.append(f"{self.src(syn)!r}: abs of a complex number read as Complex.abs")
                return app("cabs", terms[0]), False
            out = self.mk(op, tuple(terms), syn, BOOL if kind == "pred" else None)
            return out, flex and kind == "poly"
        if kind == "opaque" and len(spec) > 2:  # argument sorts given: read against them, as Lean does
            if len(args) != len(spec[2]):
                return self.generic(syn, name, args, expected)
            targs = tuple(self.coerce(self.elab(a, p)[0], p, a) for a, p in zip(args, spec[2], strict=True))
            return Uninterpreted(name, targs, spec[1]), False
        if kind == "opaque":
            return self.sp_opaque(syn, name, spec[1], args, expected)
        if not args and isinstance(expected, FunSort) and spec[1] in ("id", "succ", "pred", "floor", "ceil", "card", "nat_floor", "nat_ceil"):
            return self.eta(syn, name, spec, expected)
        if not args:
            return self.generic(syn, name, [], expected)
        method: Callable[..., Res] = getattr(self, "sp_" + spec[1])
        return method(syn, args, expected)

    def eta(self, syn: Syn, name: str, spec: tuple, expected: FunSort) -> Res:
        """``Nat.Prime`` used as a function: ``fun x => Nat.Prime x``."""
        vs = tuple(Var(self.fresh("x"), s) for s in expected.args)
        body, _ = self.apply_spec(syn, name, spec, [term_syn(v, syn) for v in vs], expected.result)
        return Lam(vs, body), False

    def elab_prefix(self, syn: Syn, expected: Sort | None) -> Res:
        op, arg = syn.val, syn.args[0]
        if op == "-":
            return self.elab_tree(syn, expected, rel=None)  # type: ignore[return-value]
        if op == "¬":
            return app("not", self.prop(arg)), False
        if op in ("↑", "⇑", "↥"):
            t, f = self.elab(arg, None)
            if expected is None:
                return t, True
            if f and t.sort != expected:
                t, _ = self.elab(arg, expected)
            if can_cast(t.sort, expected):
                return cast(t, expected), False
            return self.coerce(t, expected, syn), False
        if op == "√":
            return self.apply_spec(syn, "Real.sqrt", NAMES["Real.sqrt"], [arg], expected)
        if op == "∛":
            t = self.coerce(self.elab(arg, REAL)[0], REAL, arg)
            return Uninterpreted("cbrt", (t,), REAL), False
        if op == "!":
            return app("not", self.prop(arg)), False
        return self.opaque_node(syn, expected)

    def elab_postfix(self, syn: Syn, expected: Sort | None) -> Res:
        op, arg = syn.val, syn.args[0]
        if op == "!":
            t = self.coerce(self.elab(arg, NAT)[0], NAT, arg)
            return self.mk("fact", (t,), syn), False
        if op == "⁻¹":
            t, flex = self.elab(arg, expected)
            if t.sort in FIELDS:
                return app("inv", t), flex
            if is_numeric(t.sort) and flex:
                t, _ = self.elab(arg, REAL)
                return app("inv", t), True
            if isinstance(t.sort, FunSort) and t.sort.result in FIELDS:
                # Pi.instInv: f⁻¹ is pointwise, (f⁻¹) x = (f x)⁻¹
                vs = tuple(Var(self.fresh("x"), s) for s in t.sort.args)
                return Lam(vs, app("inv", app("apply", t, *vs))), False
            if modelled(t.sort) and not self.infer_depth:
                raise self.err(syn, f"ill-typed {self.src(syn)!r}: no inverse in {t.sort}")
            if isinstance(t.sort, FunSort):
                return Uninterpreted("Function.invFun", (t,), t.sort), False
            return Uninterpreted("Inv.inv", (t,), t.sort), flex
        t, _ = self.elab(arg, expected)
        return Uninterpreted({"ᶜ": "compl", "ᵀ": "transpose", "†": "adjoint"}.get(op, op), (t,), t.sort), False

    def elab_modeq(self, syn: Syn) -> Res:
        a_syn, b_syn, n_syn = syn.args
        if syn.val == "MOD":
            s, op = NAT, "mod"
        elif syn.val == "ZMOD":
            s, op = INT, "emod"
        else:
            args = tuple(self.elab(x, None)[0] for x in syn.args)
            return Uninterpreted(syn.val + ".ModEq", args, BOOL), False
        a, b, n = (self.coerce(self.elab(x, s)[0], s, x) for x in (a_syn, b_syn, n_syn))
        return self.mk("eq", (self.mk(op, (a, n), syn), self.mk(op, (b, n), syn)), syn), False

    def equiv_sorts(self, s: Sort) -> tuple[Sort, Sort] | None:
        """(α, β) for the sort of an ``Equiv α β`` / ``α ≃ β`` whose two types the IR models,
        else None."""
        ends = self.equiv_ends.get(s.name) if isinstance(s, OpaqueSort) else None
        if ends is None or any(x in (TYPE, BOOL) or not modelled(x) for x in ends):
            return None
        return ends

    def elab_proj(self, syn: Syn, recv_syn: Syn, field: str, args: list[Syn], expected: Sort | None) -> Res:
        recv, _ = self.elab(recv_syn, None)
        rsyn = term_syn(recv, recv_syn)
        s = recv.sort
        if isinstance(s, SetSort):
            spaces: tuple[str, ...] = ("Finset", "Set")
        elif isinstance(s, ListSort):
            spaces = ("List",)
        elif isinstance(s, FunSort):
            spaces = ("Function",)
        else:
            spaces = NAMESPACES_BY_SORT.get(s, ())  # type: ignore[arg-type]
        ends = self.equiv_sorts(s)
        if ends is not None and not (isinstance(s, OpaqueSort) and s.name.split(" ")[0] in EQUIVALENCES):
            ends = None  # a bundled hom's fields are not σ.1 / σ.2 (its coercion is read in apply_fn)
        if ends is not None and field in EQUIV_FUNCTIONS and len(args) == 1:
            # `σ.1 x`, `σ.symm y` for σ : α ≃ β: the function from α to β or back, applied at
            # an argument of its domain (read with no sort, `∀ x, σ.1 x = x ^ 3 - 8` bound x
            # over ℕ); the two stay uninterpreted, unrelated: sound, the Equiv laws unused
            forward = EQUIV_FUNCTIONS[field]
            domain, codomain = ends if forward else ends[::-1]
            arg = self.coerce(self.elab(args[0], domain)[0], domain, args[0])
            name = "Prod.fst" if forward else "Prod.snd"
            return Uninterpreted(name, (recv, arg), codomain), False
        if ends is not None and args and s.name.startswith("Equiv ") and (field.isdigit() or field in EQUIV_PROOFS):
            # Equiv has four fields: σ.3 / σ.4 are proofs (left_inv, right_inv), σ.5 … none
            why = "a proof is no value" if field in ("3", "4") or field in EQUIV_PROOFS else f"it has no field .{field}"
            raise self.err(syn, f"ill-typed {self.src(syn)!r}: the fields of {recv.sort} are "
                                f"toFun (.1), invFun (.2) and the proofs left_inv (.3), right_inv (.4): {why}")
        if field in ("1", "2", "fst", "snd"):
            # a projection applied to arguments (``σ.2 2`` for an ``Equiv``) keeps them
            targs = tuple(self.elab(a, None)[0] for a in args)
            name = "Prod." + {"1": "fst", "2": "snd"}.get(field, field)
            return Uninterpreted(name, (recv, *targs), expected or UNKNOWN), expected is None
        for ns in spaces:
            full = f"{ns}.{field}"
            spec = NAMES.get(full) or (NAMES.get(field) if field in ("Prime",) else None)
            if spec is None and s in (NAT, INT) and field == "Prime":
                spec, full = NAMES["Nat.Prime" if s == NAT else "Int.Prime"], "Nat.Prime"
            if spec is not None:
                idx = RECV_INDEX.get(full, 0)
                all_args = list(args)
                all_args.insert(min(idx, len(all_args)), rsyn)
                return self.apply_spec(syn, full, spec, all_args, expected)
        targs = tuple(self.elab(a, None)[0] for a in args)
        return Uninterpreted(field, (recv, *targs), expected or UNKNOWN), expected is None


#: The fields of an ``Equiv`` that are its two functions: True for α → β, False for β → α.
EQUIV_FUNCTIONS = {"1": True, "toFun": True, "2": False, "invFun": False, "symm": False}
#: an ``Equiv``'s fields that are proofs (``σ.3``, ``σ.4``): applied, never a value
EQUIV_PROOFS = frozenset({"left_inv", "right_inv"})


#: how ``Elaborator.elab`` reads each kind of syntax node (anything else: ``opaque_node``)
_BY_KIND: dict[str, Callable[[Elaborator, Syn, Sort | None], Res]] = {
    "term": lambda el, syn, expected: (syn.extra["term"], False),
    "paren": lambda el, syn, expected: el.elab(syn.args[0], expected),
    "num": Elaborator.elab_num,
    "ident": lambda el, syn, expected: el.elab_ident(syn, syn.val, (), expected),
    "app": Elaborator.elab_app,
    "binop": Elaborator.elab_binop,
    "prefix": Elaborator.elab_prefix,
    "postfix": Elaborator.elab_postfix,
    "ascr": Elaborator.elab_ascription,
    **dict.fromkeys(_BRACKETS, Elaborator.elab_brackets),
    "binder": Elaborator.elab_binder,
    "setbuilder": Elaborator.elab_setbuilder,
    "setlit": Elaborator.elab_setlit,
    "proj": lambda el, syn, expected: el.elab_proj(syn, syn.args[0], syn.val, [], expected),
    "ite": lambda el, syn, expected: el.sp_ite(syn, list(syn.args), expected),
    "modeq": lambda el, syn, expected: el.elab_modeq(syn),
    "norm": Elaborator.elab_norm,
}
