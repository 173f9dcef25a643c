"""Thin emitters: core IR (``provers.backends.smt.lower``) → z3 / cvc5 terms, and models back.

Both solvers are driven through the z3py-style API (``z3`` and ``cvc5.pythonic``), so one
class does the translation; ``Z3Emitter`` and ``Cvc5Emitter`` only differ in solver set-up
and in how a function's interpretation is read from a model. All semantics live in the
lowering (``lower.py``); here every core operation (``core.CORE_OPS``) has its SMT-LIB
counterpart in ``EMITTERS`` (SMT-LIB ``div``/``mod`` on Int are Euclidean, exactly Lean's
``ediv``/``emod`` away from 0, and 0 is guarded here).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from provers.backends.smt.core import CORE_OPS, Unsupported
from provers.backends.smt.lower import Lowered
from provers.backends.smt.model_values import from_cvc5_text, from_z3
from provers.ir import (
    BOOL,
    INT,
    NAT,
    RAT,
    REAL,
    App,
    FunSort,
    Num,
    OpaqueSort,
    OpTable,
    Quant,
    SetSort,
    Sort,
    Term,
    Uninterpreted,
    Var,
)
from provers.semantics import FunTable, Opaque
from provers.semantics.algebraic import AlgebraicReal
from provers.semantics.values import NOT_READ

#: Kinds of solver functions (``Emitter.func``).
SYMBOL, VARIABLE = "symbol", "variable"


class Untranslatable(Exception):
    """A model value with no exact IR counterpart (an algebraic irrational, a cofinite set)."""


#: Characters of a solver value quoted in a reason (z3 prints some model values as pages of
#: nested terms: a reason is read by people and stored per decision).
BRIEF_CHARS = 80
#: A unary function of an integer is tabulated at every integer between its model's least and
#: greatest literal points when there are at most this many (``Emitter.span``).
MAX_SPAN = 512
#: Points at which a model's function is read on demand while its model is checked
#: (``Emitter.filler``): a sum over a range of a few hundred integers reads each once.
MAX_FILLED = 512


def _brief(v: object) -> str:
    text = " ".join(str(v).split())
    return text if len(text) <= BRIEF_CHARS else text[:BRIEF_CHARS] + f"… ({len(text)} characters)"


class Emitter:
    """Translate one lowered obligation for the solver API module ``Z``."""

    name = "smt"

    def __init__(self, Z: Any):
        self.Z = Z
        self.consts: dict[tuple[str, Sort], Any] = {}
        #: (SYMBOL | VARIABLE, name, argument sorts, result sort) -> solver declaration
        self.funcs: dict[tuple[str, str, tuple[Sort, ...], Sort], Any] = {}
        self.func_names: dict[str, int] = {}
        self.sorts: dict[str, Any] = {}
        self.depth = 0  # quantifier nesting depth while emitting
        self.memo: dict[tuple[int, int], Any] = {}
        #: (opaque sort, solver value text) -> index of the ``Opaque`` element read back
        self.opaque_elements: dict[tuple[str, str], int] = {}

    # -- sorts and symbols ------------------------------------------------------------

    def sort(self, s: Sort) -> Any:
        Z = self.Z
        if s == BOOL:
            return Z.BoolSort()
        if s == INT:
            return Z.IntSort()
        if s == REAL:
            return Z.RealSort()
        if isinstance(s, OpaqueSort):
            if s.name not in self.sorts:
                self.sorts[s.name] = Z.DeclareSort(_sym(s.name))
            return self.sorts[s.name]
        if isinstance(s, SetSort):
            return Z.ArraySort(self.sort(s.elem), Z.BoolSort())
        if is_array_fun(s):  # unary function variables are arrays: first-class values
            return Z.ArraySort(self.sort(s.args[0]), self.sort(s.result))  # type: ignore[attr-defined]
        raise Unsupported(f"sort {s} in the solver")

    def const(self, v: Var) -> Any:
        key = (v.name, v.sort)
        if key not in self.consts:
            if isinstance(v.sort, FunSort) and not is_array_fun(v.sort):
                raise Unsupported("function variable of several arguments used as a value")
            self.consts[key] = self.Z.Const(_sym(v.name), self.sort(v.sort))
        return self.consts[key]

    def func(self, name: str, args: tuple[Sort, ...], result: Sort, kind: str = SYMBOL) -> Any:
        """The solver function for a symbol (``kind`` SYMBOL: an ``Uninterpreted`` symbol or a
        lowering's ``%`` symbol) or for a function variable (``kind`` VARIABLE). The two kinds
        never share a solver name: a variable ``f`` and a known function ``f`` stay apart."""
        key = (kind, name, args, result)
        if key not in self.funcs:
            text = name if kind == VARIABLE or name.startswith("%") else f"?{name}"
            k = self.func_names.get(text, 0)
            self.func_names[text] = k + 1
            sym = _sym(text if k == 0 else f"{text}@{k}")
            if not args:
                self.funcs[key] = self.Z.Const(sym, self.sort(result))
            else:
                self.funcs[key] = self.Z.Function(sym, *(self.sort(a) for a in args), self.sort(result))
        return self.funcs[key]

    # -- terms ------------------------------------------------------------------------

    def emit(self, t: Term, env: dict[Var, Any] | None = None) -> Any:
        env = env or {}
        key = (id(t), id(env))
        hit = self.memo.get(key)
        if hit is not None and hit[0] is t:
            return hit[1]
        out = self._emit(t, env)
        self.memo[key] = (t, out)
        return out

    def _emit(self, t: Term, env: dict[Var, Any]) -> Any:
        Z = self.Z
        if isinstance(t, Var):
            return env[t] if t in env else self.const(t)
        if isinstance(t, Num):
            if t.sort == INT:
                return Z.IntVal(int(t.value))
            v = Fraction(t.value)
            return Z.RealVal(f"{v.numerator}/{v.denominator}") if v.denominator != 1 else Z.RealVal(v.numerator)
        if isinstance(t, Quant):
            # Bound names depend only on position, so alpha-equivalent quantifiers become the
            # same solver term (z3 and cvc5 hash-cons them; P ↔ P' is then immediate).
            inner = dict(env)
            bvs = []
            self.depth += 1
            try:
                for k, v in enumerate(t.vars):
                    b = Z.Const(f"!b{self.depth}_{k}", self.sort(v.sort))
                    inner[v] = b
                    bvs.append(b)
                body = self.emit(t.body, inner)
            finally:
                self.depth -= 1
            return Z.ForAll(bvs, body) if t.kind == "forall" else Z.Exists(bvs, body)
        if isinstance(t, Uninterpreted):
            f = self.func(t.symbol, tuple(a.sort for a in t.args), t.sort)
            return f(*(self.emit(a, env) for a in t.args)) if t.args else f
        if not isinstance(t, App):
            raise Unsupported(f"core term {type(t).__name__}")
        handler = EMITTERS.get(t.op)
        if handler is None:
            raise Unsupported(f"core operation {t.op}")
        return handler(self, t, env)

    # -- models -----------------------------------------------------------------------

    def value(self, v: Any, sort: Sort) -> Any:
        """An exact Python value for a solver value of core sort ``sort``."""
        Z = self.Z
        if sort == BOOL:
            if Z.is_true(v):
                return True
            if Z.is_false(v):
                return False
            raise Untranslatable(f"boolean value {_brief(v)}")
        if sort in (INT, NAT):
            if Z.is_int_value(v):
                return v.as_long()
            raise Untranslatable(f"integer value {_brief(v)}")
        if sort in (REAL, RAT):
            if Z.is_rational_value(v):
                return _norm(Fraction(v.numerator_as_long(), v.denominator_as_long()))
            if Z.is_int_value(v):
                return v.as_long()
            raise Untranslatable(f"irrational or symbolic real {_brief(v)}")
        if isinstance(sort, OpaqueSort):
            return Opaque(sort.name, self._opaque_index(sort.name, str(v)))
        raise Untranslatable(f"value of sort {sort}")

    def scalar_value(self, v: Any, sort: Sort) -> Any:
        """``value``, except that an irrational algebraic real (nlsat, cvc5's coverings) comes
        back as an ``AlgebraicReal``: the model is then re-checked by ``algebraic_truth``."""
        try:
            return self.value(v, sort)
        except Untranslatable:
            if sort not in (REAL, RAT):
                raise
            try:
                return self.algebraic(v)
            except (ValueError, TypeError, AttributeError) as e:
                raise Untranslatable(f"irrational or symbolic real {_brief(v)} ({_brief(e)})") from e

    def algebraic(self, v: Any) -> AlgebraicReal:
        raise ValueError("no algebraic numbers")

    def _opaque_index(self, sort: str, text: str) -> int:
        table = self.opaque_elements
        key = (sort, text)
        if key not in table:
            table[key] = sum(1 for k in table if k[0] == sort)
        return table[key]

    def literals(self, model: Any, decl: Any) -> list[Any]:
        """Value literals in a function's interpretation (points worth tabulating)."""
        raise NotImplementedError

    def table(self, model: Any, decl: Any, args: tuple[Sort, ...], result: Sort) -> FunTable:
        """A finite table agreeing with the model's interpretation at its literal points."""
        lits = self.literals(model, decl)
        per_pos = [self.literal_points(model, lits, s) for s in args]
        filled = self.span(per_pos[0], args[0]) if len(args) == 1 else set()
        if filled:
            per_pos[0] = per_pos[0] + [self.Z.IntVal(k) for k in sorted(filled)]
        # each point's value once per position (not once per combination: over 13 opaque
        # points a ternary function has 2000 combinations, and z3 prints each point to name it)
        keys = [[self.value(x, s) for x in pts] for pts, s in zip(per_pos, args, strict=True)]
        entries: dict[tuple, Any] = {}
        for idx in itertools.islice(itertools.product(*(range(len(p)) for p in per_pos)), 2000):
            val = model.eval(decl(*(per_pos[i][j] for i, j in enumerate(idx))), model_completion=True)
            entries[tuple(keys[i][j] for i, j in enumerate(idx))] = self.value(val, result)
        outside = []
        for s, pts in zip(args, per_pos, strict=True):
            outside.append(self.outside(s, pts))
        default = self.value(model.eval(decl(*outside), model_completion=True), result)
        return FunTable(_without_filled_defaults(entries, default, filled), default,
                        self.filler(model, decl, args, result))

    def literal_points(self, model: Any, lits: list[Any], s: Sort) -> list[Any]:
        """The distinct values of sort ``s`` among a function's literals ``lits`` (the points
        worth reading at one argument position); every element the model has of an opaque
        sort."""
        if isinstance(s, (FunSort, SetSort)):
            raise Untranslatable(f"table over {s}")
        if isinstance(s, OpaqueSort):
            pts = self.opaque_points(model, s)
        else:
            cs = self.sort(s)
            pts = [x for x in lits if x.sort() == cs]
        uniq: dict[str, Any] = {}
        for x in pts:
            uniq.setdefault(str(x), x)
        return list(uniq.values())

    def set_table(self, model: Any, decl: Any, elem: Sort, args: tuple[Sort, ...]) -> FunTable:
        """A set-valued function given by its membership predicate ``decl(e, x̄)``: at each
        literal point x̄ of the interpretation (and at one point outside them, the default)
        the set of literal elements e where it holds; ``Untranslatable`` where it also holds
        at an element outside them (an infinite set)."""
        Z = self.Z
        lits = self.literals(model, decl)
        elems = self.literal_points(model, lits, elem)
        beyond = self.outside(elem, elems)
        per_pos = [self.literal_points(model, lits, s) for s in args]

        def members(at: list[Any]) -> frozenset:
            if Z.is_true(model.eval(decl(beyond, *at), model_completion=True)):
                raise Untranslatable("set model is not finite")
            return frozenset(self.value(e, elem) for e in elems
                             if Z.is_true(model.eval(decl(e, *at), model_completion=True)))

        entries = {}
        for idx in itertools.islice(itertools.product(*(range(len(p)) for p in per_pos)), 200):
            at = [per_pos[i][j] for i, j in enumerate(idx)]
            entries[tuple(self.value(x, s) for x, s in zip(at, args, strict=True))] = members(at)
        default = members([self.outside(s, pts) for s, pts in zip(args, per_pos, strict=True)])
        return FunTable({k: v for k, v in entries.items() if v != default}, default)

    def array_table(self, model: Any, arr: Any, arg: Sort, result: Sort) -> FunTable:
        """A unary function variable's array value as a table."""
        Z = self.Z
        val = model.eval(arr, model_completion=True)
        lits: list[Any] = []
        walk_literals(Z, val, lits)
        if isinstance(arg, OpaqueSort):
            pts = self.opaque_points(model, arg)
        else:
            cs = self.sort(arg)
            pts = list({str(x): x for x in lits if x.sort() == cs}.values())
        filled = self.span(pts, arg)
        pts += [Z.IntVal(k) for k in sorted(filled)]
        entries = {}
        for p in pts[:2000]:
            entries[(self.value(p, arg),)] = self.value(model.eval(Z.Select(arr, p), model_completion=True), result)
        out = self.outside(arg, pts)
        default = self.value(model.eval(Z.Select(arr, out), model_completion=True), result)
        return FunTable(_without_filled_defaults(entries, default, filled), default,
                        self.filler(model, lambda p: Z.Select(arr, p), (arg,), result))

    def filler(self, model: Any, apply: Callable[..., Any], args: tuple[Sort, ...],
               result: Sort) -> Callable[[tuple], Any]:
        """``FunTable.fill`` for a function of the model: its value at a point of Booleans,
        integers and rationals, read by the solver (``NOT_READ`` elsewhere, and after
        ``MAX_FILLED`` points: the table's default then stands there)."""
        read = 0

        def fill(point: tuple) -> Any:
            nonlocal read
            if read >= MAX_FILLED or len(point) != len(args):
                return NOT_READ
            try:
                solver_point = [self.literal(x, s) for x, s in zip(point, args, strict=True)]
                read += 1
                return self.value(model.eval(apply(*solver_point), model_completion=True), result)
            except Exception:  # noqa: BLE001 - a point the solver cannot read stays at the default
                return NOT_READ

        return fill

    def literal(self, x: Any, s: Sort) -> Any:
        """The solver's literal for the exact value ``x`` of core sort ``s``."""
        Z = self.Z
        if s == BOOL and isinstance(x, bool):
            return Z.BoolVal(x)
        if s in (INT, NAT) and isinstance(x, int) and not isinstance(x, bool):
            return Z.IntVal(x)
        if s in (REAL, RAT) and isinstance(x, (int, Fraction)) and not isinstance(x, bool):
            q = Fraction(x)
            return Z.RealVal(f"{q.numerator}/{q.denominator}")
        raise Untranslatable(f"no solver literal for {_brief(x)} of sort {s}")

    def span(self, pts: list[Any], s: Sort) -> set[int]:
        """Over the integers, the integers between the least and the greatest of the literal
        points ``pts`` that they miss, when the range has at most ``MAX_SPAN``: a model's
        function is often piecewise over ranges with literal bounds (z3: ``λb. if 82 ≤ b ≤ 125
        then 1 else 0``), which the literal points alone tabulate as 1 at 82 and 125 and the
        default elsewhere."""
        if s not in (INT, NAT) or len(pts) < 2:
            return set()
        try:
            vals = {self.value(p, s) for p in pts}
        except Untranslatable:
            return set()
        lo, hi = min(vals), max(vals)
        if hi - lo + 1 > MAX_SPAN:
            return set()
        return set(range(lo, hi + 1)) - vals

    def opaque_points(self, model: Any, s: OpaqueSort) -> list[Any]:
        """Elements of an opaque sort worth tabulating: the model's universe when the API
        gives it, else the values of the constants of that sort."""
        cs = self.sort(s)
        try:
            uni = model.get_universe(cs)
            if uni is not None:
                return list(uni)
        except Exception:  # noqa: BLE001 - cvc5.pythonic has no universes
            pass
        pts = []
        for (_name, srt), c in self.consts.items():
            if srt == s:
                pts.append(model.eval(c, model_completion=True))
        for (_kind, _name, fargs, res), f in self.funcs.items():
            if not fargs and res == s:
                pts.append(model.eval(f, model_completion=True))
        return pts

    def outside(self, s: Sort, pts: list[Any]) -> Any:
        Z = self.Z
        if isinstance(s, OpaqueSort) and pts:
            return pts[0]
        if isinstance(s, OpaqueSort):
            # no element of the sort in the model (no constant of it): a fresh constant, which
            # the model completes to one of its elements, reads the function's default
            try:
                return Z.Const("%outside", self.sort(s))
            except Exception as e:  # noqa: BLE001 - an API without uninterpreted constants
                raise Untranslatable(f"table over {s}") from e
        if s == BOOL:
            return Z.BoolVal(False)
        if s in (INT, REAL):
            vals = [self.value(p, s) for p in pts]
            big = (max(vals) if vals else 0) + 1 + 10**6
            return Z.IntVal(int(big)) if s == INT else Z.RealVal(int(big))
        raise Untranslatable(f"table over {s}")


def _without_filled_defaults(entries: dict[tuple, Any], default: Any, filled: set[int]) -> dict[tuple, Any]:
    """A unary table without the points ``Emitter.span`` filled in at the default value (the
    literal points stay as they were)."""
    if not filled:
        return entries
    return {k: v for k, v in entries.items() if v != default or k[0] not in filled}


def is_array_fun(s: Sort) -> bool:
    """Unary functions between scalar sorts are emitted as SMT arrays (so they can be passed
    to uninterpreted symbols and quantified); wider ones as SMT functions."""
    scalar = (BOOL, INT, REAL)
    return (
        isinstance(s, FunSort) and len(s.args) == 1
        and (s.args[0] in scalar or isinstance(s.args[0], OpaqueSort))
        and (s.result in scalar or isinstance(s.result, OpaqueSort))
    )


# --------------------------------------------------------------------------------------
# The table: each core operation's SMT-LIB counterpart
# --------------------------------------------------------------------------------------

EmitHandler = Callable[[Emitter, App, dict[Var, Any]], Any]
#: The emitters' translation of each core operation (``handler(emitter, term, env)``).
EMITTERS: OpTable[EmitHandler] = OpTable("SMT emitter", universe=CORE_OPS)


def _of_args(*ops: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register ``fn(Z, *solver args)`` for ``ops``: the arguments are emitted first."""

    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        def handler(em: Emitter, t: App, env: dict[Var, Any]) -> Any:
            return fn(em.Z, *(em.emit(x, env) for x in t.args))

        for op in ops:
            EMITTERS.add(op, handler)
        return fn

    return deco


@EMITTERS.register("apply")
def _apply(em: Emitter, t: App, env: dict[Var, Any]) -> Any:
    fv = t.args[0]
    assert isinstance(fv, Var) and isinstance(fv.sort, FunSort)
    if is_array_fun(fv.sort):
        return em.Z.Select(em.emit(fv, env), em.emit(t.args[1], env))
    f = em.func(fv.name, fv.sort.args, fv.sort.result, VARIABLE)
    return f(*(em.emit(a, env) for a in t.args[1:]))


@EMITTERS.register("mem")
def _mem(em: Emitter, t: App, env: dict[Var, Any]) -> Any:
    arr = em.emit(t.args[1], env)
    return em.Z.Select(arr, em.emit(t.args[0], env))


_of_args("true")(lambda Z: Z.BoolVal(True))
_of_args("false")(lambda Z: Z.BoolVal(False))
_of_args("not")(lambda Z, a: Z.Not(a))
_of_args("and")(lambda Z, *a: Z.And(*a))
_of_args("or")(lambda Z, *a: Z.Or(*a))
_of_args("implies")(lambda Z, a, b: Z.Implies(a, b))
_of_args("iff", "eq")(lambda Z, a, b: a == b)
_of_args("ite")(lambda Z, c, a, b: Z.If(c, a, b))
_of_args("lt")(lambda Z, a, b: a < b)
_of_args("le")(lambda Z, a, b: a <= b)
_of_args("add")(lambda Z, a, b: a + b)
_of_args("sub")(lambda Z, a, b: a - b)
_of_args("mul")(lambda Z, a, b: a * b)
_of_args("neg")(lambda Z, a: -a)
_of_args("div")(lambda Z, a, b: Z.If(b == 0, Z.RealVal(0), a / b))  # real division, x / 0 = 0
_of_args("ediv")(lambda Z, a, b: Z.If(b == 0, Z.IntVal(0), a / b))  # SMT-LIB div is Euclidean
_of_args("emod")(lambda Z, a, b: Z.If(b == 0, a, a % b))
_of_args("cast")(lambda Z, a: Z.ToReal(a))
_of_args("floor")(lambda Z, a: Z.ToInt(a))


def _norm(v: Fraction) -> int | Fraction:
    return int(v) if v.denominator == 1 else v


def _sym(name: str) -> str:
    return name.replace(" ", "_").replace("|", "_") or "_"


def walk_literals(Z: Any, e: Any, out: list[Any], depth: int = 0) -> None:
    if depth > 200:
        return
    try:
        if Z.is_int_value(e) or Z.is_rational_value(e) or Z.is_true(e) or Z.is_false(e):
            out.append(e)
            return
    except Exception:  # noqa: BLE001 - solver API probing
        return
    try:
        kids = e.children()
    except Exception:  # noqa: BLE001
        return
    for k in kids:
        walk_literals(Z, k, out, depth + 1)


class _Z3Context:
    """Whether z3's main context is a fresh one no obligation has used yet."""

    fresh = False


def fresh_z3_context(ahead: bool = False) -> None:
    """Give the next obligation a fresh z3 context: within a time limit z3's answer depends on
    the terms and search history already in its context, so one long-lived context made a
    verdict depend on the checks run before it (a proof found in 0.03 s alone timed out after
    29 other pairs). Objects of the old context stay valid; new ones use the new one.

    ``ahead=True`` creates it now: creating a context costs about 2 ms, a sixth of a typical
    call, so a solver worker makes the next one after answering, while its caller is busy
    (``pool``); the next ``Z3Emitter`` then takes it as it is."""
    import z3

    if not ahead and _Z3Context.fresh:
        _Z3Context.fresh = False  # made ahead for this obligation
        return
    if hasattr(z3.z3, "_main_ctx"):
        z3.z3._main_ctx = None
    _Z3Context.fresh = ahead
    if ahead:
        z3.main_ctx()


class Z3Emitter(Emitter):
    name = "z3"

    def __init__(self) -> None:
        import z3

        fresh_z3_context()  # one context per obligation (see there)
        super().__init__(z3)

    def literals(self, model: Any, decl: Any) -> list[Any]:
        Z = self.Z
        out: list[Any] = []
        try:
            interp = model[decl]
            if interp is None:
                return out
            if isinstance(interp, Z.FuncInterp):
                for entry in interp.as_list()[:-1]:
                    for x in entry[:-1]:
                        out.append(x)
                walk_literals(Z, interp.else_value(), out)
            else:
                walk_literals(Z, interp, out)
        except Z.Z3Exception:
            return out  # no interpretation: the default alone describes it
        return out

    def table(self, model: Any, decl: Any, args: tuple[Sort, ...], result: Sort) -> FunTable:
        """z3 gives most interpretations as explicit entries and a constant else-value: read
        them as they are (one value per entry) instead of evaluating the function at every
        combination of its literals (up to 2000 ``model.eval`` calls: a quarter of the time
        a worker spent on spurious models). Anything else takes the general route."""
        Z = self.Z
        # over functions or sets (`is_arith_seq a`, a free predicate on sequences) there is no
        # table, but a constant interpretation (no entries) is a value all the same
        over_functions = any(isinstance(a, (FunSort, SetSort)) for a in args)
        try:
            interp = model[decl]
            els = interp.else_value() if isinstance(interp, Z.FuncInterp) else None
            if (els is not None and els.num_args() == 0 and not Z.is_var(els)
                    and not (over_functions and interp.num_entries())):
                entries: dict[tuple, Any] = {}
                for entry in interp.as_list()[:-1]:
                    key = tuple(self.value(x, a) for x, a in zip(entry[:-1], args, strict=True))
                    entries.setdefault(key, self.value(entry[-1], result))  # z3: the first entry wins
                # the whole interpretation: no point of it is left to read (at an irrational
                # point, too, the table is its else-value unless an entry says otherwise)
                return FunTable(entries, self.value(els, result))
        except (Z.Z3Exception, Untranslatable):
            pass  # no interpretation, an irrational entry …: the general route says which
        return super().table(model, decl, args, result)

    def algebraic(self, v: Any) -> AlgebraicReal:
        if not self.Z.is_algebraic_value(v):
            raise ValueError("not an algebraic number")
        return from_z3(v)

    def solver(self, timeout_ms: int, lowered: Lowered) -> Any:
        s = self.Z.Solver()
        s.set("timeout", max(1, timeout_ms))
        return s


class Cvc5Emitter(Emitter):
    name = "cvc5"

    def __init__(self) -> None:
        import cvc5.pythonic as cp

        super().__init__(cp)

    def literals(self, model: Any, decl: Any) -> list[Any]:
        out: list[Any] = []
        try:
            interp = model[decl]
        except Exception:  # noqa: BLE001
            return out
        if interp is None:
            return out
        try:
            walk_literals(self.Z, interp.body(), out)
        except Exception:  # noqa: BLE001
            walk_literals(self.Z, interp, out)
        return out

    def algebraic(self, v: Any) -> AlgebraicReal:
        return from_cvc5_text(str(v))

    def solver(self, timeout_ms: int, lowered: Lowered) -> Any:
        logic = real_logic(lowered)
        s = self.Z.SolverFor(logic or "ALL")
        s.setOption("tlimit-per", max(1, timeout_ms))
        if logic is not None:
            # complete cylindrical algebraic coverings for QF_NRA; with quantifiers (NRA) the
            # same configuration answers "incomplete" at once where ALL could run far past
            # tlimit-per (∃ x, x² = 2 ∧ x > 0 took 8 s under a 3 s limit)
            s.setOption("nl-cov", True)
        return s


def real_logic(lowered: Lowered) -> str | None:
    """``QF_NRA`` / ``NRA`` when the obligation is over the reals alone (no integers,
    functions, sets or uninterpreted symbols), without / with quantifiers; else None."""
    from provers.ir import subterms

    quantified = False
    for t in [lowered.formula, *lowered.facts]:
        for s in subterms(t):
            if isinstance(s, Uninterpreted):
                return None
            if isinstance(s, Quant):
                quantified = True
                if any(v.sort != REAL for v in s.vars):
                    return None
            if isinstance(s, (Var, Num, App)) and s.sort not in (BOOL, REAL):
                return None
            if isinstance(s, App) and s.op in ("floor", "cast", "mem", "apply"):
                return None
    for v in lowered.consts:
        if v.sort not in (REAL, BOOL):
            return None
    return "NRA" if quantified else "QF_NRA"
