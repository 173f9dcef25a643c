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
  their uses (two passes: infer, then elaborate), defaulting to ℕ in arithmetic.

Policy for ill-typed input: when every sort involved is one the IR models (numbers, Prop,
sets, functions of those), a term Lean would reject (``x ∈ 3`` with ``x : ℝ``, ``-n`` on ℕ,
``f x`` with ``x : ℝ`` for ``f : ℕ → ℝ``) raises ``ParseError`` with the position and reason.
When an unmodelled (opaque) sort is involved we cannot tell, so the term becomes
``Uninterpreted`` instead.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable
from fractions import Fraction

from provers.errors import InputTooLargeError, ParseError
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
    SORT,
    TYPE,
    BaseSort,
    BigOp,
    FunSort,
    IRError,
    Lam,
    ListSort,
    Num,
    OpaqueSort,
    Quant,
    SetBuilder,
    SetSort,
    Sort,
    Term,
    Uninterpreted,
    Var,
    app,
    app_sorted,
    cast,
    is_numeric,
    is_universe,
)
from provers.lean4.names import NAMES, PROP_HEADS, TYPE_HEADS
from provers.lean4.sorts import (
    UNKNOWN,
    Res,
    apply,
    beta,
    can_cast,
    conj,
    flat,
    is_meta,
    modelled,
    term_syn,
)
from provers.lean4.specials import Specials
from provers.lean4.syntax import BinderGroup, Syn

MAX_STEPS = 300_000

ARITH = {"+", "-", "*", "/", "%", "^"}
RELS = {"=": "eq", "≠": "ne", "!=": "ne", "<": "lt", ">": "gt", "≤": "le", "<=": "le",
        "≥": "ge", ">=": "ge", "∣": "dvd"}
LOGIC = {"∧": "and", "∨": "or", "↔": "iff", "<->": "iff", "→": "implies", "->": "implies"}
LEAN_SYMBOL = {
    "add": "HAdd.hAdd", "sub": "HSub.hSub", "mul": "HMul.hMul", "div": "HDiv.hDiv",
    "mod": "HMod.hMod", "neg": "Neg.neg", "pow": "HPow.hPow", "inv": "Inv.inv",
    "lt": "LT.lt", "le": "LE.le", "gt": "GT.gt", "ge": "GE.ge", "eq": "Eq", "ne": "Ne",
    "dvd": "Dvd.dvd", "abs": "abs", "mem": "Membership.mem", "subset": "HasSubset.Subset",
    "union": "Union.union", "inter": "Inter.inter", "setdiff": "SDiff.sdiff",
}
TYPE_NAMES = {
    "ℕ": NAT, "Nat": NAT, "ℤ": INT, "Int": INT, "ℚ": BaseSort("Rat"), "Rat": BaseSort("Rat"),
    "ℝ": REAL, "Real": REAL, "ℂ": COMPLEX, "Complex": COMPLEX, "Prop": BOOL, "Bool": BOOL,
    "Type": TYPE, "Type*": TYPE, "Type _": TYPE, "Sort*": SORT, "Sort": BOOL,
}
NAMESPACES_BY_SORT = {NAT: ("Nat",), INT: ("Int",), REAL: ("Real",), BaseSort("Rat"): ("Rat",),
                      COMPLEX: ("Complex",)}
RECV_INDEX = {"Finset.filter": 1, "Finset.image": 1, "Set.image": 1}
DEFAULT_OPENS = ("Real", "Nat", "Finset", "Set", "Int", "Complex", "Function", "List")

#: Lean's (non-relaxed) autoImplicit: an unbound single letter, optionally with a numeric
#: or subscript suffix or primes, in a theorem signature becomes an implicit variable.
AUTO_BOUND = re.compile(r"^[A-Za-z\u03b1-\u03c9](?:[0-9₀-₉]*)'*$")


class NeedAutoBound(Exception):
    """Raised when an auto-bound implicit is met outside the inference pass."""


def _sort_level(level: Syn) -> Sort:
    """``Sort 0`` is Prop, ``Sort (u + 1)`` / ``Sort 2`` are ``Type _``, any other level may
    be 0: a universe containing Prop."""
    while level.kind == "paren":
        level = level.args[0]
    if level.kind == "num":
        return BOOL if level.val == "0" else TYPE
    if level.kind == "binop" and level.val == "+" and level.args[1].kind == "num" and level.args[1].val != "0":
        return TYPE
    return SORT


def _tuple(s: Syn) -> Syn | None:
    while s.kind == "paren":
        s = s.args[0]
    return s if s.kind == "tuple" else None


class Elaborator(Specials):
    """Elaborates one statement; holds the local context and the sort-inference state."""

    def __init__(self, text: str, opens: tuple[str, ...] = (), definitions: dict | None = None):
        self.text = text
        self.opens = tuple(dict.fromkeys((*opens, *DEFAULT_OPENS)))
        #: name -> ``provers.lean4.definitions.Definition`` (the defs before the theorem)
        self.defs = definitions if definitions is not None else {}
        self.scope: dict[str, Var] = {}
        self.metas: dict[str, Sort | None] = {}
        self.meta_numeric: set[str] = set()
        self.infer_depth = 0
        self.steps = 0
        self.notes: list[str] = []
        self._fresh = itertools.count()
        #: None: auto-bound implicits not allowed (header); else name -> Var (meta sort in pass 1)
        self.auto_bound: dict[str, Var] | None = None
        self.collect_auto = False

    # -- utilities -------------------------------------------------------------------
    def err(self, syn: Syn, reason: str) -> ParseError:
        return ParseError.at_offset(reason, self.text, syn.pos)

    def src(self, syn: Syn) -> str:
        return " ".join(self.text[syn.pos : syn.end].split())

    def fresh(self, base: str = "x") -> str:
        return f"{base}_{next(self._fresh)}"

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
            sort = fallback or (args[0].sort if args else UNKNOWN)
            return Uninterpreted(LEAN_SYMBOL.get(op, op), args, sort)

    def coerce(self, t: Term, target: Sort | None, syn: Syn) -> Term:
        """Lean's ``ensureHasType``: insert ``↑`` on a narrower numeric term, else insist."""
        if target is None or is_meta(target) or t.sort == target:
            return t
        if can_cast(t.sort, target):
            return cast(t, target)
        if self.infer_depth or is_meta(t.sort) or t.sort == UNKNOWN:
            return t
        if not (modelled(t.sort) and modelled(target)):
            # a coercion into or out of a sort the IR does not model (ℕ → ZMod p, ℕ+ → ℕ)
            return Uninterpreted("↑", (t,), target)
        raise self.err(syn, f"type mismatch: {self.src(syn)!r} has sort {t.sort}, expected {target}")

    def ensure_prop(self, t: Term, syn: Syn) -> Term:
        if t.sort == BOOL:
            return t
        if not modelled(t.sort) or self.infer_depth:
            return Uninterpreted("coe_prop", (t,), BOOL) if t.sort != BOOL else t
        raise self.err(syn, f"expected a proposition, got {self.src(syn)!r} of sort {t.sort}")

    def prop(self, syn: Syn) -> Term:
        t, _ = self.elab(syn, BOOL)
        return self.ensure_prop(t, syn)

    # -- entry -----------------------------------------------------------------------
    def elab(self, syn: Syn, expected: Sort | None) -> Res:
        """Elaborate ``syn``; ``expected`` None means "no expected type" (a binop% leaf)."""
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise InputTooLargeError.at_offset("statement too complex to elaborate", self.text, syn.pos)
        if expected is not None and is_meta(expected):
            expected = None
        k = syn.kind
        if k == "term":
            return syn.extra["term"], False
        if k == "paren":
            return self.elab(syn.args[0], expected)
        if k == "num":
            return self.elab_num(syn, expected)
        if k == "ident":
            return self.elab_ident(syn, syn.val, (), expected)
        if k == "app":
            return self.elab_app(syn, expected)
        if k == "binop":
            op = syn.val
            if op in ARITH:
                return self.elab_tree(syn, expected, rel=None)
            if op in RELS:
                return self.elab_tree(syn, None, rel=op), False
            if op in LOGIC:
                if op in ("→", "->"):
                    ts, certain = self.type_or_prop(syn.args[0])
                    if ts is not None and certain and ts != BOOL:
                        return Uninterpreted(self.src(syn), (), TYPE), False  # a function type as a term
                a, b = self.prop(syn.args[0]), self.prop(syn.args[1])
                return self.mk(LOGIC[op], (a, b), syn), False
            return self.elab_setop(syn, expected)
        if k == "prefix":
            return self.elab_prefix(syn, expected)
        if k == "postfix":
            return self.elab_postfix(syn, expected)
        if k == "ascr":
            ty = self.elab_type(syn.args[1])
            if ty is None:
                raise self.err(syn.args[1], f"{self.src(syn.args[1])!r} is not a type")
            t, _ = self.elab(syn.args[0], ty)
            return self.coerce(t, ty, syn), False
        if k in ("abs", "floor", "ceil", "nfloor", "nceil"):
            key = {"abs": "|abs|", "floor": "Int.floor", "ceil": "Int.ceil", "nfloor": "Nat.floor", "nceil": "Nat.ceil"}[k]
            return self.apply_spec(syn, key, NAMES[key], list(syn.args), expected)
        if k == "binder":
            return self.elab_binder(syn, expected)
        if k == "setbuilder":
            return self.elab_setbuilder(syn, expected)
        if k == "setlit":
            return self.elab_setlit(syn, expected)
        if k == "proj":
            return self.elab_proj(syn, syn.args[0], syn.val, [], expected)
        if k == "ite":
            return self.sp_ite(syn, list(syn.args), expected)
        if k == "modeq":
            return self.elab_modeq(syn)
        if k == "norm":
            t, _ = self.elab(syn.args[0], None)
            return Uninterpreted("norm", (t,), REAL), False
        return self.opaque_node(syn, expected)

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
            return Uninterpreted(sym, tuple(args), OpaqueSort(" × ".join(str(a.sort) for a in args))), False
        if syn.kind == "list" and expected is None and args:
            return Uninterpreted(sym, tuple(args), ListSort(args[0].sort)), False
        return Uninterpreted(sym, tuple(args), expected or UNKNOWN), expected is None

    # -- numerals, identifiers -------------------------------------------------------
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
        if is_meta(v.sort):
            m = v.sort.name  # type: ignore[attr-defined]
            assigned = self.metas.get(m)
            if assigned is not None:
                return Var(v.name, assigned), False
            if expected is not None:
                self.metas[m] = expected
                return Var(v.name, expected), False
            return v, True
        return v, False

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
            return Uninterpreted(name, (), TYPE), False
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
                if not self.collect_auto:
                    raise NeedAutoBound(name)
                m = f"?{name}#{next(self._fresh)}"
                self.metas[m] = None
                self.auto_bound[name] = Var(name, OpaqueSort(m))
            return self.var_ref(self.auto_bound[name], expected)
        targs = tuple(self.elab(a, None)[0] for a in args)
        if expected is not None:
            return Uninterpreted(name, targs, expected), False
        return Uninterpreted(name, targs, UNKNOWN), True

    # -- applications ----------------------------------------------------------------
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
            if op in ("and", "or"):
                return self.mk(op, targs, syn), False
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

    def unify(self, args: list[Syn], expected: Sort | None, neg: bool = False) -> tuple[list[Term], bool]:
        """binop%-style: elaborate leaves without expected type, coerce to the widest sort."""
        first = [self.elab(a, None) for a in args]
        mx, uncomparable = self.max_sort(first, expected)
        flex = False
        if mx is None:
            flex = True
            mx = self.default_sort([t for t, f in first], neg)
        out = []
        for a, (t, f) in zip(args, first, strict=False):
            if f and flex and self.infer_depth:
                self.mark_numeric(t)  # inference pass: defaults never decide a binder's sort
            elif f and t.sort != mx:
                t, _ = self.elab(a, mx)
            if not uncomparable and can_cast(t.sort, mx) and t.sort != mx:
                t = cast(t, mx)
            out.append(t)
        return out, flex

    def mark_numeric(self, t: Term) -> None:
        """Binders of unknown sort used directly in defaulted arithmetic default to ℕ."""
        if isinstance(t, Var) and is_meta(t.sort):
            self.meta_numeric.add(t.sort.name)  # type: ignore[attr-defined]

    @staticmethod
    def max_sort(first: list[Res], expected: Sort | None) -> tuple[Sort | None, bool]:
        mx = expected if expected is not None and expected != BOOL else None
        uncomparable = False
        for t, f in first:
            if f or is_meta(t.sort) or t.sort == UNKNOWN or (not modelled(t.sort) and mx is not None and is_numeric(mx)):
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

    # -- arithmetic trees and relations ------------------------------------------------
    def elab_tree(self, syn: Syn, expected: Sort | None, rel: str | None) -> Term | Res:
        leaves: list[Syn] = []
        exps: dict[int, Term] = {}
        has_neg = [False]

        def collect(s: Syn) -> None:
            if s.kind == "paren":
                collect(s.args[0])
            elif s.kind == "binop" and s.val in ARITH:
                collect(s.args[0])
                if s.val == "^":
                    e, ef = self.elab(s.args[1], None)
                    if ef:
                        e = e if e.sort == REAL else self.elab(s.args[1], NAT)[0]
                    exps[id(s)] = e
                else:
                    collect(s.args[1])
            elif s.kind == "prefix" and s.val == "-":
                has_neg[0] = True
                collect(s.args[0])
            else:
                leaves.append(s)

        if rel in ("=", "≠") and _tuple(syn.args[0]) and _tuple(syn.args[1]) and len(_tuple(syn.args[0]).args) == len(_tuple(syn.args[1]).args):
            # (a, b) = (c, d) is a = c ∧ b = d (Prod.mk.injEq)
            parts = [Syn("binop", syn.pos, syn.end, "=", (x, y)) for x, y in zip(_tuple(syn.args[0]).args, _tuple(syn.args[1]).args, strict=False)]
            cj = conj(*(self.elab_tree(p, None, rel="=") for p in parts))  # type: ignore[misc]
            return cj if rel == "=" else app("not", cj)
        if rel is not None:
            collect(syn.args[0])
            collect(syn.args[1])
        else:
            collect(syn)
        first = {id(lf): self.elab(lf, None) for lf in leaves}
        mx, uncomparable = self.max_sort(list(first.values()), expected)
        if any(e.sort == REAL for e in exps.values()) and mx is None:
            mx = REAL  # lenient: `2 ^ x` with x : ℝ is read as rpow (Lean wants (2 : ℝ) ^ x)
            self.notes.append(f"{self.src(syn)!r}: numerals taken as ℝ because of a real exponent")
        flex = False
        if mx is None and any(isinstance(t, Num) and t.sort == REAL and f for t, f in first.values()):
            # nothing fixes the sort and a decimal literal is there: Lean's default
            # `OfScientific` instance is Float, which the IR does not model
            mx = FLOAT
            self.notes.append(f"{self.src(syn)!r}: untyped decimal literals elaborate at Float "
                              "(write (0.1 : ℝ) for a real number)")
        if mx is None:
            flex = True
            mx = self.default_sort([t for t, _ in first.values()], has_neg[0])
        final: dict[int, Term] = {}
        for lf in leaves:
            t, f = first[id(lf)]
            if f and flex and self.infer_depth:
                self.mark_numeric(t)  # inference pass: defaults never decide a binder's sort
            elif f and t.sort != mx:
                t, _ = self.elab(lf, mx)
            if not uncomparable and t.sort != mx and can_cast(t.sort, mx):
                t = cast(t, mx)
            final[id(lf)] = t

        def build(s: Syn) -> Term:
            if s.kind == "paren":
                return build(s.args[0])
            if s.kind == "binop" and s.val in ARITH:
                a = build(s.args[0])
                if s.val == "^":
                    return self.power(s, a, exps[id(s)])
                b = build(s.args[1])
                return self.arith(s, a, b)
            if s.kind == "prefix" and s.val == "-":
                a = build(s.args[0])
                if a.sort == NAT and not self.infer_depth:
                    raise self.err(s, f"ill-typed {self.src(s)!r}: ℕ has no negation")
                return self.mk("neg", (a,), s)
            return final[id(s)]

        if rel is None:
            return build(syn), flex
        a, b = build(syn.args[0]), build(syn.args[1])
        op = RELS[rel]
        if op in ORDER_OPS and a.sort == b.sort and a.sort not in ORDERED:
            return Uninterpreted(LEAN_SYMBOL[op], (a, b), BOOL)
        if op == "dvd" and a.sort == b.sort and a.sort not in (NAT, INT):
            return Uninterpreted("Dvd.dvd", (a, b), BOOL)
        return self.mk(op, (a, b), syn, BOOL)

    def arith(self, s: Syn, a: Term, b: Term) -> Term:
        sort = a.sort
        op = {"+": "add", "-": "sub", "*": "mul", "/": "div", "%": "mod"}[s.val]
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
        return self.mk(op, (a, b), s)

    def power(self, s: Syn, base: Term, e: Term) -> Term:
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

    # -- prefix / postfix --------------------------------------------------------------
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

    # -- sets --------------------------------------------------------------------------
    def elab_setop(self, syn: Syn, expected: Sort | None) -> Res:
        op = syn.val
        lhs, rhs = syn.args
        if op in ("∈", "∉"):
            s, sflex = self.elab(rhs, None)
            if isinstance(s.sort, SetSort) and not sflex:
                x, _ = self.elab(lhs, s.sort.elem)
                x = self.coerce(x, s.sort.elem, lhs)
            else:
                x, xflex = self.elab(lhs, None)
                if not (xflex and isinstance(s.sort, SetSort)):
                    s, _ = self.elab(rhs, SetSort(x.sort) if not is_meta(x.sort) else None)
                if isinstance(s.sort, SetSort) and x.sort != s.sort.elem:
                    x = self.coerce(self.elab(lhs, s.sort.elem)[0], s.sort.elem, lhs)
            if isinstance(s.sort, ListSort):
                out: Term = Uninterpreted("List.Mem", (self.coerce(x, s.sort.elem, lhs), s), BOOL)
            elif not isinstance(s.sort, SetSort):
                if modelled(s.sort) and not self.infer_depth:
                    raise self.err(rhs, f"ill-typed membership: {self.src(rhs)!r} of sort {s.sort} is not a set")
                out: Term = Uninterpreted("Membership.mem", (x, s), BOOL)
            else:
                out = self.mk("mem", (x, s), syn, BOOL)
            return (app("not", out) if op == "∉" else out), False
        if op in ("⊆", "⊂", "⊇", "⊃", "∪", "∩", "\\", "⊊"):
            (a, b), flex = self.unify_sets([lhs, rhs], expected if op in ("∪", "∩", "\\") else None)
            if op in ("⊇", "⊃"):
                a, b = b, a
            if op in ("⊆", "⊇"):
                return self.mk("subset", (a, b), syn, BOOL), False
            if op in ("⊂", "⊃", "⊊"):
                return conj(self.mk("subset", (a, b), syn, BOOL), self.mk("ne", (a, b), syn, BOOL)), False
            name = {"∪": "union", "∩": "inter", "\\": "setdiff"}[op]
            return self.mk(name, (a, b), syn, a.sort), flex
        if op == "''":
            f, _ = self.elab(lhs, None)
            if isinstance(f.sort, FunSort) and len(f.sort.args) == 1:
                s = self.coerce(self.elab(rhs, SetSort(f.sort.args[0]))[0], SetSort(f.sort.args[0]), rhs)
                return self.mk("image", (f, s), syn, SetSort(f.sort.result)), False
            s, _ = self.elab(rhs, None)
            return Uninterpreted("Set.image", (f, s), expected or UNKNOWN), expected is None
        if op == "⁻¹'":
            f, _ = self.elab(lhs, None)
            if isinstance(f.sort, FunSort) and len(f.sort.args) == 1:
                s = self.coerce(self.elab(rhs, SetSort(f.sort.result))[0], SetSort(f.sort.result), rhs)
                x = Var(self.fresh("x"), f.sort.args[0])
                return SetBuilder(x, self.mk("mem", (apply(f, x), s), syn, BOOL)), False
            s, _ = self.elab(rhs, None)
            return Uninterpreted("Set.preimage", (f, s), expected or UNKNOWN), expected is None
        if op == "∘":
            f, _ = self.elab(lhs, None)
            g, _ = self.elab(rhs, None)
            if isinstance(f.sort, FunSort) and isinstance(g.sort, FunSort) and len(f.sort.args) == 1 and f.sort.args[0] == g.sort.result:
                vs = tuple(Var(self.fresh("x"), s) for s in g.sort.args)
                return Lam(vs, apply(f, apply(g, *vs))), False
            return Uninterpreted("Function.comp", (f, g), expected or UNKNOWN), expected is None
        args = tuple(self.elab(a, None)[0] for a in syn.args)
        return Uninterpreted(op, args, expected or (args[-1].sort if op in ("•", "$", "<|") else UNKNOWN)), False

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

    # -- binders -----------------------------------------------------------------------
    class _Bind:
        def __init__(self, el: Elaborator, vs: list[Var]):
            self.el, self.vs = el, vs

        def __enter__(self) -> None:
            self.saved = dict(self.el.scope)
            for v in self.vs:
                self.el.scope[v.name] = v

        def __exit__(self, *exc: object) -> None:
            self.el.scope = self.saved

    def bind(self, vs: list[Var]) -> Elaborator._Bind:
        return Elaborator._Bind(self, vs)

    def require_type(self, syn: Syn) -> Sort:
        s = self.elab_type(syn)
        if s is None:
            s = self.coe_sort(syn)
        if s is None:
            raise self.err(syn, f"{self.src(syn)!r} is not a type")
        return s

    def coe_sort(self, syn: Syn) -> Sort | None:
        """A set / subgroup / ideal used as a type (``∀ x : S``, ``(z : I)``): ``↥S``."""
        try:
            t, _ = self.elab(syn, None)
        except ParseError:
            return None
        if isinstance(t.sort, SetSort) or not modelled(t.sort) or is_universe(t.sort):
            return OpaqueSort(f"↥{self.src(syn)}")
        return None

    def infer_binder_sort(self, name: str, body: Callable[[], object], names: list[str] | None = None) -> Sort:
        """Pass 1 of two: elaborate ``body`` with ``name`` of unknown sort and read off the
        sort unification gave it (ℕ if only used in defaulted arithmetic)."""
        return self.infer_sorts(names or [name], body)[0]

    def resolve_meta(self, m: str, name: str) -> Sort:
        """The sort inference gave meta ``m`` (ℕ if only defaulted arithmetic used it)."""
        s = self.metas.pop(m, None)
        if s is None or is_meta(s) or s == UNKNOWN:
            s = NAT if m in self.meta_numeric else OpaqueSort(f"α_{name}")
            if s == NAT:
                self.notes.append(f"binder {name}: sort defaulted to ℕ (numerals only)")
        return s

    def infer_sorts(self, names: list[str], body: Callable[[], object]) -> list[Sort]:
        metas = []
        vs = []
        for n in names:
            m = f"?{n}#{next(self._fresh)}"
            self.metas[m] = None
            metas.append(m)
            vs.append(Var(n, OpaqueSort(m)))
        self.infer_depth += 1
        try:
            with self.bind(vs):
                body()
        except (ParseError, IRError) as e:  # pass 1 only infers; pass 2 reports errors
            if isinstance(e, InputTooLargeError):
                raise
        finally:
            self.infer_depth -= 1
        return [self.resolve_meta(m, n) for m, n in zip(metas, names, strict=False)]

    def group_vars(self, groups: tuple[BinderGroup, ...], body: Callable[[], object],
                   fun_args: tuple[Sort, ...] = ()) -> list[tuple[Var, tuple[str, Syn] | None]]:
        """Variables of binder groups, with sorts from types, ``fun_args`` or inference."""
        names: list[tuple[str, Sort | None, list[tuple[str, Syn]]]] = []
        for g in groups:
            sort = None
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
                                self.binder_pred(self.scope[nm] if nm in self.scope else Var(nm, UNKNOWN), p, groups[0])
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

    def elab_binder(self, syn: Syn, expected: Sort | None) -> Res:
        q = syn.val
        body_syn = syn.args[0]
        if q in ("∀", "∃", "∃!", "Π"):
            kind = {"∀": "forall", "∃": "exists", "∃!": "exists1", "Π": "forall"}[q]
            pats = [g for g in syn.binders if g.pred and g.pred[0] == "pattern"]
            if pats:
                return Uninterpreted(q + "⟨pattern⟩", (), BOOL), False
            vp = self.group_vars(syn.binders, lambda: self.prop(body_syn))
            vs = [v for v, _ in vp]
            preds = []
            with self.bind(vs):
                for v, ps in vp:
                    preds.extend((v, self.binder_pred(v, p, syn.binders[0])) for p in ps)
                body = self.prop(body_syn)
            return self.quantify(kind, vs, preds, body), False
        if q == "fun":
            fargs = expected.args if isinstance(expected, FunSort) else ()
            vp = self.group_vars(syn.binders, lambda: self.elab(body_syn, None), fargs)
            vs = [v for v, _ in vp]
            res_exp = expected.result if isinstance(expected, FunSort) and len(fargs) == len(vs) else None
            with self.bind(vs):
                body, flex = self.elab(body_syn, res_exp)
                if res_exp is not None:
                    body = self.coerce(body, res_exp, body_syn)
            return Lam(tuple(vs), body), False
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
        dom_syn = syn.extra.get("domain")
        cond = syn.extra.get("cond")
        groups = syn.binders
        if len(groups) != 1 or len(groups[0].names) != 1:
            # ∑ i j, f i j: nest
            if len(groups) == 1 and len(groups[0].names) > 1 and dom_syn is None:
                g = groups[0]
                inner = Syn("binder", syn.pos, syn.end, syn.val, syn.args,
                            (BinderGroup(g.names[1:], g.type, g.style, g.pred, g.pos),), dict(syn.extra))
                outer = Syn("binder", syn.pos, syn.end, syn.val, (inner,),
                            (BinderGroup(g.names[:1], g.type, g.style, g.pred, g.pos),), {})
                return self.elab_bigop(outer, expected)
            return Uninterpreted(syn.val, (), expected or UNKNOWN), expected is None
        g = groups[0]
        name = g.names[0]
        ty = self.require_type(g.type) if g.type is not None else None
        dom: Term | None = None
        if dom_syn is None and g.pred is not None:
            op, rhs = g.pred
            if op == "∈":
                dom_syn = rhs
            elif op == "<":
                n = self.coerce(self.elab(rhs, ty or NAT)[0], ty or NAT, rhs)
                dom = app("range", n) if n.sort == NAT else Uninterpreted("Finset.Iio", (n,), SetSort(n.sort))
        if dom_syn is not None:
            d, dflex = self.elab(dom_syn, SetSort(ty) if ty is not None else None)
            dom = d
        if dom is None:
            elem = ty or OpaqueSort(f"α_{name}")
            dom = Uninterpreted("Finset.univ", (), SetSort(elem))
        if not isinstance(dom.sort, SetSort):
            if modelled(dom.sort) and not self.infer_depth:
                raise self.err(dom_syn or syn, f"the domain of {syn.val} is not a finite set: sort {dom.sort}")
            v = Var(name, ty or OpaqueSort(f"α_{name}"))
            with self.bind([v]):
                body, _ = self.elab(body_syn, expected)
            return Uninterpreted("Finset." + kind, (dom, Lam((v,), body)), expected or body.sort), False
        v = Var(name, dom.sort.elem)
        with self.bind([v]):
            if cond is not None:
                dom = self.mk("filter", (Lam((v,), self.prop(cond)), dom), syn, dom.sort)
            body, flex = self.elab(body_syn, expected)
            if expected is not None:
                body = self.coerce(body, expected, body_syn)
        if not is_numeric(body.sort):
            return Uninterpreted("Finset." + kind, (dom, Lam((v,), body)), body.sort), flex
        return BigOp(kind, v, dom, body), flex

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

    # -- field notation ----------------------------------------------------------------
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
        if field in ("1", "2", "fst", "snd"):
            return Uninterpreted("Prod." + {"1": "fst", "2": "snd"}.get(field, field), (recv,), expected or UNKNOWN), expected is None
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

    # -- types -------------------------------------------------------------------------
    def elab_type(self, syn: Syn) -> Sort | None:
        """The sort a type expression denotes, or None when ``syn`` is not a type."""
        s, _ = self.type_or_prop(syn)
        return s

    def type_or_prop(self, syn: Syn) -> tuple[Sort | None, bool]:
        """(sort, certain): ``certain`` False when only naming conventions decided."""
        k = syn.kind
        if k == "paren":
            return self.type_or_prop(syn.args[0])
        if k == "ident":
            name = syn.val
            if name in TYPE_NAMES:
                return TYPE_NAMES[name], True
            if name in ("ℝ≥0", "NNReal"):
                return OpaqueSort("NNReal"), True
            if name in ("ℝ≥0∞", "ENNReal", "EReal", "ℕ∞", "ENat", "ℕ+", "PNat"):
                return OpaqueSort(name), True
            if name in self.scope:
                v = self.scope[name]
                if is_universe(v.sort):
                    return OpaqueSort(name), True
                if isinstance(v.sort, SetSort) or not modelled(v.sort):
                    return OpaqueSort(f"↥{name}"), True
                return None, True
            if name in self.defs:
                d = self.defs[name]
                if d.type_refusal:
                    raise self.err(syn, d.type_refusal)
                if d.type_value is not None:
                    return d.type_value, True
                if d.sort == TYPE:
                    return OpaqueSort(d.symbol), True
                if isinstance(d.sort, SetSort):
                    return OpaqueSort(f"↥{d.symbol}"), True
                return None, True
            if name in TYPE_HEADS:
                return OpaqueSort(name), True
            if name.split(".")[-1] in PROP_HEADS or name in PROP_HEADS:
                return None, True
            if name[:1].isupper() and not name.startswith("Is"):
                return OpaqueSort(name), False
            if AUTO_BOUND.match(name) and self.auto_bound is not None and name not in self.auto_bound:
                return OpaqueSort(name), True  # an auto-bound implicit type variable (autoImplicit)
            return None, True
        if k == "app":
            head = syn.args[0]
            hname = head.val if head.kind == "ident" else ""
            if hname in ("Set", "Finset") and len(syn.args) == 2:
                e = self.elab_type(syn.args[1])
                return (SetSort(e) if e is not None else None), True
            if hname == "List" and len(syn.args) == 2:
                e = self.elab_type(syn.args[1])
                return (ListSort(e) if e is not None else None), True
            if hname == "Type":
                return TYPE, True
            if hname == "Sort":
                return _sort_level(syn.args[1]), True
            if len(syn.args) == 2 and syn.args[1].kind == "list" and self.elab_type(head) is not None:
                return OpaqueSort(self.src(syn)), True  # R[X]: polynomials over R
            if hname in TYPE_HEADS or hname.split(".")[-1] in TYPE_HEADS:
                return OpaqueSort(self.src(syn)), True
            if hname in PROP_HEADS or hname.split(".")[-1] in PROP_HEADS or hname in NAMES:
                return None, True
            if hname in self.scope or hname in self.defs or hname.startswith("Is"):
                return None, True
            if hname[:1].isupper():
                return OpaqueSort(self.src(syn)), False
            if head.kind == "ident" and head.val in TYPE_NAMES:  # ℝ[X] and friends
                return OpaqueSort(self.src(syn)), True
            return None, True
        if k == "binop" and syn.val in ("→", "->"):
            a, ca = self.type_or_prop(syn.args[0])
            b, cb = self.type_or_prop(syn.args[1])
            if a is None and b is not None and syn.args[0].kind in ("ascr", "app", "ident"):
                a, ca = self.coe_sort(syn.args[0]), True
            if a is None or b is None:
                return None, True
            if isinstance(b, FunSort):
                return FunSort((a, *b.args), b.result), ca and cb
            return FunSort((a,), b), ca and cb
        if k == "binder" and syn.val == "Π":
            return OpaqueSort(self.src(syn)), True
        if k == "binder" and syn.val == "∀":
            # `(f_def : ∀ x, f x = 2 * x - 3)` is a hypothesis whatever its name; a ∀ whose
            # body is a type (a dependent function type) is rare in theorem statements.
            return None, True
        if k == "binop" and syn.val in ("×", "≃", "→+*", "→*", "→+", "≃*", "≃+*", "≃+", "→ₗ", "≃ₗ", "→L", "≃ₜ", "→ᵃ", "⧸"):
            a = self.elab_type(syn.args[0])
            b = self.elab_type(syn.args[1])
            if a is None or b is None:
                return None, True
            return OpaqueSort(self.src(syn)), True
        if k == "prefix" and syn.val == "↥":
            inner = syn.args[0]
            while inner.kind == "paren":
                inner = inner.args[0]
            if inner.kind == "ident" and inner.val in self.defs:
                return OpaqueSort("↥" + self.defs[inner.val].symbol), True
            return OpaqueSort("↥" + self.src(inner)), True
        if k == "other" and syn.val == "subtype":
            return OpaqueSort(self.src(syn)), True
        return None, True
