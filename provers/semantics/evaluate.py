"""Exact evaluation of IR terms under an assignment.

Why: every solver countermodel is re-checked here before it counts, and truth values on
sampled assignments refute most inequivalent pairs before any solver runs. So the evaluator
must give every operation of ``provers.ir.OPS`` its one documented meaning, and must say
when it does NOT know: a wrong exact answer is worse than none.

An assignment ``env`` maps variable names to values (``provers.semantics.values``).
Uninterpreted symbols are looked up in ``env`` by symbol name (a ``FunTable`` or, for 0-ary
symbols, a value). Values the languages leave unspecified can be fixed by a table:
``env["@ln"]`` gives Isabelle ``ln`` at x ≤ 0, ``env["@arcsin"]``/``env["@arccos"]`` Isabelle
``arcsin``/``arccos`` outside [-1, 1].

Public API::

    evaluate(term, env) -> Value                 # may be Undetermined / Approx / ApproxBool
    decide(term, env) -> Decision(value, exact, reason)
    truth(term, env) -> True | False | None      # None unless EXACTLY decided

Each of the three takes ``deadline=`` (a ``provers.deadline.Deadline``): binder enumeration
checks it and raises ``DeadlineExceeded`` once it has passed (the caller that set it decides
what that means; without a deadline only the step budget bounds an evaluation).

Each operation's meaning is one entry of ``OPERATIONS`` (an ``OpTable``): a handler
``(term, env) -> value``. The connectives are lazy (a decided operand may settle them while
another is undecided); every other operation is registered with ``@_strict``, which evaluates
the arguments first: the numeric and set operations come from ``numeric.HANDLERS`` and
``sets.HANDLERS``, those that need the assignment itself (function values, Isabelle's
unspecified values) are defined here.
"""

from __future__ import annotations

import itertools
import math
import threading
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from provers.deadline import Deadline
from provers.ir import (
    BOOL,
    COMPLEX,
    INT,
    NAT,
    RAT,
    REAL,
    App,
    BigOp,
    FunSort,
    Lam,
    Num,
    OpTable,
    Quant,
    SetBuilder,
    SetSort,
    Sort,
    Term,
    Uninterpreted,
    Var,
    bound_variables,
    by_identity,
    conjuncts,
    free_vars,
    substitute,
    subterms,
)
from provers.semantics import numeric, sets, zmod
from provers.semantics.algebraic import AlgebraicReal, algebraic_truth
from provers.semantics.approx import (
    compare,
    is_approx,
    is_rational,
    normalized,
    truth_value,
    truthy,
    values_equal,
    wrap,
)
from provers.semantics.certify import certified_sign
from provers.semantics.closed_forms import PolynomialReader
from provers.semantics.domains import probe_values
from provers.semantics.integer_bounds import numeral_lower_bound
from provers.semantics.interval import PRECISIONS, Enclosing, enclose, exact_point
from provers.semantics.interval import bounds as interval_bounds
from provers.semantics.library import LIBRARY, library_value
from provers.semantics.memo import STEP_BUDGET_REASON, Memo, rememberable
from provers.semantics.pairs import components
from provers.semantics.polynomials import polynomial_cells
from provers.semantics.sets import finite_elements
from provers.semantics.values import (
    Approx,
    ApproxBool,
    Closure,
    Decision,
    ExactComplex,
    FunTable,
    PredSet,
    Sequence,
    Undecided,
    Undetermined,
    Value,
    Witness,
)

#: Binder iterations (quantifier / big operator / set-builder steps, probes) per evaluate
#: call; nested bounded quantifiers multiply, and a batch must not stall on one formula.
STEP_BUDGET = 30_000
#: Binder iterations between two looks at the caller's deadline.
DEADLINE_EVERY = 64

step_state = threading.local()  # per thread: steps left and the deadline of the outermost call


#: Sign-cell computations (exact real-root isolation, sympy: 20–60 ms each uncached) per
#: evaluate call: a LEAST whose predicate reads ``∀x ≥ 2. x powr 2 ≠ m`` at m = 1 … 1000 (a
#: sequence's 1000th term, ``counting_and_probability/problem_1117``) asked one per m, 16 s
#: for that problem (5.3 s before ``_powr_pieces``; 5.9 s with this bound).
MAX_CELLS_PER_EVALUATION = 8


def cells_of(v: Var, body: Term, env: Env) -> tuple[tuple[Fraction, ...], tuple[Any, ...]] | None:
    """``polynomials.polynomial_cells`` of ``body`` in v, within ``MAX_CELLS_PER_EVALUATION``."""
    used = getattr(step_state, "cells", 0) + 1
    step_state.cells = used
    if used > MAX_CELLS_PER_EVALUATION:
        return None
    return polynomial_cells(v, body, exact_value(env))


def count_step() -> None:
    """One binder step: raises ``Undecided`` when the evaluation's step budget is spent and
    ``DeadlineExceeded`` when its deadline has passed (the binder modules call it per step)."""
    left = getattr(step_state, "left", None)
    if left is None:
        return  # outside evaluate() (a helper called directly): no budget to count, none to leave set
    left -= 1
    step_state.left = left
    if left < 0:
        raise Undecided(STEP_BUDGET_REASON)
    if left % DEADLINE_EVERY == 0:
        deadline = getattr(step_state, "deadline", None)
        if deadline is not None:
            deadline.check("exact evaluation")


Env = dict[str, Value]
#: The ``env`` entry of values an unbounded binder is probed at first, by variable name (a
#: solver model's witnesses of an ∃, ``smt.solve``): a tuple of (name, values) pairs, keyed
#: by the memo like the other ``@`` entries. Only where to look: a probe decides the binder
#: exactly or not at all, whatever its values.
PROBES = "@probes"
Handler = Callable[[App, Env], Value]

#: The evaluator's meaning of every operation.
OPERATIONS: OpTable[Handler] = OpTable("exact evaluator")


def _strict(*ops: str) -> Callable[[Callable[[App, list[Value], Env], Value]], Handler]:
    """Register a handler of the argument VALUES (evaluated left to right) for ``ops``."""

    def deco(fn: Callable[[App, list[Value], Env], Value]) -> Handler:
        def handler(t: App, env: Env) -> Value:
            return fn(t, [term_value(a, env) for a in t.args], env)

        for op in ops:
            OPERATIONS.add(op, handler)
        return handler

    return deco


# --------------------------------------------------------------------------------------
# Entry points
# --------------------------------------------------------------------------------------


def evaluate(term: Term, env: Env | None = None, deadline: Deadline | None = None) -> Value:
    """Value of ``term`` under ``env``; ``Undetermined(reason)`` when it cannot be decided.
    Raises ``DeadlineExceeded`` when ``deadline`` passes during the evaluation."""
    outer = getattr(step_state, "left", None)
    if outer is None:
        step_state.left = STEP_BUDGET
        step_state.cells = 0
        step_state.deadline = deadline
    term, env = _witnesses_substituted(term, env or {})
    try:
        return term_value(term, env)
    except Undecided as e:
        return Undetermined(e.reason)
    except RecursionError:
        return Undetermined("term too deep")
    except (OverflowError, MemoryError, ValueError, ZeroDivisionError, TypeError) as e:
        return Undetermined(f"evaluation error: {type(e).__name__}: {e}")
    finally:
        if outer is None:
            del step_state.left
            step_state.deadline = None


def _witnesses_substituted(term: Term, env: Env) -> tuple[Term, dict]:
    """``term`` with each variable whose value is a ``Witness`` replaced by its closed term,
    and the rest of ``env`` (a copy)."""
    given = {k: w.term for k, w in env.items() if isinstance(w, Witness)}
    if not given:
        return term, dict(env)
    mapping = {v: given[v.name] for v in free_vars(term) if v.name in given and v.sort == given[v.name].sort}
    return substitute(term, mapping), {k: x for k, x in env.items() if k not in given}


def decide(term: Term, env: Env | None = None, deadline: Deadline | None = None) -> Decision:
    """Truth value of a formula, saying whether it is exact."""
    v = evaluate(term, env, deadline)
    if isinstance(v, Undetermined):
        return Decision(None, False, v.reason)
    if isinstance(v, bool):
        return Decision(v, True)
    if isinstance(v, ApproxBool):
        return Decision(v.value, False, "decided on approximate values")
    return Decision(None, False, f"not a truth value: {v!r}")


def truth(term: Term, env: Env | None = None, deadline: Deadline | None = None) -> bool | None:
    """True / False when the formula's value is EXACTLY known under ``env``, else None.
    ``env`` may hold irrational ``AlgebraicReal`` values (solver models): formulas of the
    field fragment are then decided exactly by ``algebraic.algebraic_truth``."""
    d = decide(term, env, deadline)
    if d.exact:
        return d.value
    if env and any(isinstance(v, AlgebraicReal) for v in env.values()):
        return _irrational_truth(term, env, deadline)
    return None


def _irrational_truth(term: Term, env: Env, deadline: Deadline | None) -> bool | None:
    """``truth`` at a point with irrational values: the field fragment decides, else each
    part of a propositional combination on its own (``P x y ∧ f = λx y. …`` with y = √(5/3):
    the field evaluator has no functions, the general one no irrationals; each has a part)."""
    whole = algebraic_truth(term, env)
    if whole is not None or not (isinstance(term, App) and term.op in _CONNECTIVES):
        return whole
    parts = [truth(a, env, deadline) for a in term.args]
    return _CONNECTIVES[term.op](parts)


def _all(parts: list[bool | None]) -> bool | None:
    return False if False in parts else True if all(p is True for p in parts) else None


def _any(parts: list[bool | None]) -> bool | None:
    return True if True in parts else False if all(p is False for p in parts) else None


#: three-valued connectives over parts that may be undecided (None)
_CONNECTIVES: dict[str, Callable[[list[bool | None]], bool | None]] = {
    "and": _all,
    "or": _any,
    "not": lambda ps: None if ps[0] is None else not ps[0],
    "implies": lambda ps: _any([None if ps[0] is None else not ps[0], ps[1]]),
    "iff": lambda ps: None if None in ps else ps[0] == ps[1],
}


# --------------------------------------------------------------------------------------
# Terms
# --------------------------------------------------------------------------------------


def term_value(t: Term, env: Env) -> Any:
    """The value of ``t`` under ``env``, raising ``Undecided``: the recursion every handler and
    binder module goes through (``evaluate`` is its public entry, with the budget set)."""
    kind = type(t)  # applications and variables first, by identity: most of the nodes evaluated
    if kind is App:
        handler = OPERATIONS.get(t.op)
        if handler is None:
            raise Undecided(f"unsupported operation {t.op}")
        return handler(t, env)
    if kind is Var:
        if t.name not in env:
            raise Undecided(f"no value for variable {t.name}")
        return _coerce(env[t.name], t.sort, t.name)
    if kind is Num:
        if t.sort is not REAL and t.sort is not INT and t.sort is not NAT and t.sort == COMPLEX:
            return ExactComplex(Fraction(t.value), Fraction(0))
        return t.value
    if isinstance(t, Quant):
        return quantifier_value(t, env)
    if isinstance(t, Lam):
        return Closure(t.vars, t.body, env)
    if isinstance(t, BigOp):
        return big_operator_value(t, env)
    if isinstance(t, SetBuilder):
        return closed_cached(t, env, set_builder_value)
    if isinstance(t, Uninterpreted):
        return _uninterpreted(t, env)
    raise Undecided(f"unknown term {type(t).__name__}")


def truth_triple(t: Term, env: Env) -> tuple[bool | None, bool, str]:
    """(value, exact, reason) of a subformula; never raises Undecided."""
    try:
        v = term_value(t, env)
    except Undecided as e:
        return None, False, e.reason
    if isinstance(v, bool):
        return v, True, ""
    if isinstance(v, ApproxBool):
        return v.value, False, ""
    return None, False, f"not a truth value: {v!r}"


def _coerce(v: Any, sort: Sort, name: str) -> Any:
    """Bring a user-supplied value to the evaluator's representation of ``sort``."""
    # every bound-variable lookup: no Fraction built; both identities before either == (a
    # dataclass comparison costs ~6× an identity test)
    if type(v) is int and (sort is INT or (sort is NAT and v >= 0) or sort is REAL or sort is RAT
                           or sort == INT or (sort == NAT and v >= 0)):
        return v
    if (type(v) is Fraction and (sort is REAL or sort is RAT)) or (type(v) is bool and sort is BOOL):
        return v
    if isinstance(sort, FunSort):  # a function variable: its table, closure or sampled values
        return FunTable(dict(v), 0) if isinstance(v, dict) else v
    if isinstance(v, (Approx, ApproxBool, Undetermined)):
        return v
    if sort == BOOL:
        if not isinstance(v, bool):
            raise Undecided(f"variable {name}: expected a bool, got {v!r}")
        return v
    if sort in (NAT, INT):
        if isinstance(v, bool) or not isinstance(v, (int, Fraction)) or Fraction(v).denominator != 1:
            raise Undecided(f"variable {name}: expected an integer, got {v!r}")
        if sort == NAT and v < 0:
            raise Undecided(f"variable {name}: negative value {v} for a Nat")
        return int(v)
    if sort in (RAT, REAL):
        if isinstance(v, float):
            return Fraction(v)
        if is_rational(v):
            return v
        raise Undecided(f"variable {name}: expected a rational, got {v!r}")
    if sort == COMPLEX:
        return _coerce_complex(v, name)
    if isinstance(sort, SetSort) and isinstance(v, (set, frozenset, list, tuple)):
        return frozenset(_coerce(e, sort.elem, name) for e in v)
    return v


def _coerce_complex(v: Any, name: str) -> ExactComplex:
    if isinstance(v, ExactComplex):
        return v
    if isinstance(v, tuple) and len(v) == 2:
        return ExactComplex(Fraction(v[0]), Fraction(v[1]))
    if isinstance(v, complex):
        return ExactComplex(Fraction(v.real), Fraction(v.imag))
    if is_rational(v):
        return ExactComplex(Fraction(v), Fraction(0))
    raise Undecided(f"variable {name}: expected a complex value, got {v!r}")


def _uninterpreted(t: Uninterpreted, env: Env) -> Any:
    table = env.get(t.symbol)
    if table is None and t.symbol in ("LEAST", "GREATEST") and len(t.args) == 1 and isinstance(t.args[0], Lam):
        return least_or_greatest(t.args[0], t.symbol == "LEAST", env)
    if table is None and t.symbol == "UNIV" and not t.args and isinstance(t.sort, SetSort) \
            and t.sort.elem in (NAT, INT, RAT, REAL, COMPLEX):  # Isabelle's UNIV: the whole (infinite) type
        return PredSet(t.sort.elem, lambda x: True, True)
    if table is None and t.symbol == "Gcd" and len(t.args) == 1 and isinstance(t.args[0], SetBuilder):
        gcd = _gcd_of_polynomial_image(t.args[0], env)
        if gcd is not None:
            return gcd
    if table is None and t.symbol in LIBRARY:  # Rat.den, Nat.totient: computed exactly
        args = [term_value(a, env) for a in t.args]
        value = library_value(t.symbol, args, [a.sort for a in t.args])
        if value is None:
            raise Undecided(f"{t.symbol} at arguments it is not computed at")
        return value
    if table is None and zmod.interprets(t):  # `(2 + 3 : ZMod 7)⁻¹`: residues
        return zmod.value(t, [term_value(a, env) for a in t.args])
    if table is None and t.symbol == "vector" and (parts := components(t)) is not None:
        return tuple(term_value(p, env) for p in parts)  # `vector [1, -3] :: real^2`: the point (1, -3)
    if table is None:
        raise Undecided(f"uninterpreted symbol {t.symbol} has no table")
    if not t.args:
        return table(*()) if isinstance(table, FunTable) else table
    return _call(table, [term_value(a, env) for a in t.args], t.symbol)


def _gcd_of_polynomial_image(t: SetBuilder, env: Env) -> int | None:
    """``Gcd {p n | n. a ≤ n}`` for a polynomial p of degree d with integer values: the gcd
    of p a, …, p (a + d). Why: p n = Σₖ Δᵏp(a)·C(n − a, k), so the values are the integer
    combinations of the finite differences Δᵏp(a), which are in turn combinations of p a …
    p (a + d) (and the same holds for every n ∈ ℤ, where C(n − a, k) is an integer too).
    ``number_theory/problem_1260``: the products of four consecutive integers have Gcd 24.
    None unless the set is ``{z | ∃n. z = p n ∧ guards}`` over ℕ / ℤ with guards that only
    bound n below (by a numeral) or say ``n ∈ UNIV``."""
    if t.var.sort not in (NAT, INT) or not (isinstance(t.body, Quant) and t.body.kind == "exists"
                                             and len(t.body.vars) == 1):
        return None
    n = t.body.vars[0]
    if n.sort not in (NAT, INT):
        return None
    image, low = None, 0 if n.sort == NAT else None
    for g in conjuncts(t.body.body):
        if isinstance(g, App) and g.op == "eq" and t.var in g.args and image is None:
            image = g.args[1] if g.args[0] == t.var else g.args[0]
            continue
        if isinstance(g, App) and g.op == "mem" and g.args[0] == n and isinstance(g.args[1], Uninterpreted) \
                and g.args[1].symbol == "UNIV":
            continue
        if n not in free_vars(g) and truth_triple(g, env)[:2] == (True, True):
            continue  # a condition that holds whatever n is
        bound = numeral_lower_bound(g, n)
        if bound is None:
            return None
        low = bound if low is None else max(low, bound)
    if image is None or t.var in free_vars(image):
        return None
    poly = PolynomialReader(n, low).read(image)
    if poly is None or any(atoms or r != 1 for (_, r, atoms) in poly):
        return None
    degree = max((deg for (deg, _, _), c in poly.items() if c), default=0)
    start = low if low is not None else 0
    gcd = 0
    for k in range(start, start + degree + 1):
        count_step()
        v = term_value(image, {**env, n.name: k})
        if not (isinstance(v, int) and not isinstance(v, bool)):
            return None
        gcd = math.gcd(gcd, v)
    return gcd


def _call(f: Any, args: list[Any], what: str) -> Any:
    if isinstance(f, Sequence) and len(args) == 1:
        return sequence_at(f, args[0])
    if any(is_approx(a) for a in args) and not isinstance(f, Closure):
        raise Undecided(f"table of {what} looked up at an approximate point")
    if isinstance(f, Closure):
        inner = dict(f.env)
        for v, a in zip(f.vars, args, strict=True):
            inner[v.name] = a
        return term_value(f.body, inner)
    if isinstance(f, FunTable) or callable(f):
        return f(*args)
    raise Undecided(f"{what} is not a function: {f!r}")


# --------------------------------------------------------------------------------------
# Logic (lazy: a decided operand may settle the connective while another is undecided)
# --------------------------------------------------------------------------------------


@OPERATIONS.register("true")
def _true(t: App, env: Env) -> Any:
    return True


@OPERATIONS.register("false")
def _false(t: App, env: Env) -> Any:
    return False


@OPERATIONS.register("not")
def _not(t: App, env: Env) -> Any:
    v, ex, r = truth_triple(t.args[0], env)
    if v is None:
        raise Undecided(r)
    return truth_value(not v, ex)


@OPERATIONS.register("and", "or")
def _and_or(t: App, env: Env) -> Any:
    absorbing = t.op == "or"  # True absorbs a disjunction, False a conjunction
    seen_approx_abs, undecided, all_exact = False, "", True
    for a in t.args:
        v, ex, r = truth_triple(a, env)
        if v is None:
            undecided = undecided or r
            continue
        if v == absorbing:
            if ex:
                return absorbing
            seen_approx_abs = True
        all_exact &= ex
    if seen_approx_abs:
        return ApproxBool(absorbing)
    if undecided:
        raise Undecided(undecided)
    return truth_value(not absorbing, all_exact)


@OPERATIONS.register("implies")
def _implies(t: App, env: Env) -> Any:
    p, pe, pr = truth_triple(t.args[0], env)
    if p is False and pe:
        return True
    q, qe, qr = truth_triple(t.args[1], env)
    if q is True and qe:
        return True
    if p is False or q is True:
        return ApproxBool(True)
    if p is None or q is None:
        raise Undecided(pr or qr)
    return truth_value(False, pe and qe)  # p true, q false


#: The sides of an iff by the values they read: an obligation ``Γ ↔ Γ'`` is evaluated at the
#: same sampled points once per alignment, and Γ (one side's premises) is the same formula
#: each time (intermediate_algebra/problem_1403: the alignments of five interchangeable roots).
IFF_SIDES = Memo()


def _iff_side(t: Term, env: Env) -> tuple[bool | None, bool, str]:
    if not isinstance(t, App):  # a quantifier has its own memo (QUANTIFIER_VALUES)
        return truth_triple(t, env)
    key, got = IFF_SIDES.lookup(t, env)
    if got is not Memo.MISSING:
        return got
    out = truth_triple(t, env)
    if key is not None and (out[0] is not None or rememberable(out[2])):
        IFF_SIDES.put(key, out)
    return out


@OPERATIONS.register("iff")
def _iff(t: App, env: Env) -> Any:
    p, pe, pr = _iff_side(t.args[0], env)
    q, qe, qr = _iff_side(t.args[1], env)
    if p is None or q is None:
        raise Undecided(pr or qr)
    return truth_value(p == q, pe and qe)


@OPERATIONS.register("ite")
def _ite(t: App, env: Env) -> Any:
    c, ce, cr = truth_triple(t.args[0], env)
    if c is None:
        a, b = term_value(t.args[1], env), term_value(t.args[2], env)
        eq, approx = values_equal(a, b)
        if eq and not approx:
            return a
        raise Undecided(cr)
    v = term_value(t.args[1] if c else t.args[2], env)
    return v if ce else wrap(v, True)


# --------------------------------------------------------------------------------------
# Relations
# --------------------------------------------------------------------------------------


def _argument_values(t: App, env: Env) -> tuple[list[Value], Undecided | None]:
    """``t``'s argument values left to right, None where one is undecided, and the first
    reason: for handlers that may decide without every argument."""
    vals: list[Value] = []
    undecided: Undecided | None = None
    for a in t.args:
        try:
            vals.append(term_value(a, env))
        except Undecided as e:
            undecided = undecided or e
            vals.append(None)
    return vals, undecided


def _relation(decide_exactly: Callable[[App, list[Any], Env], Any]) -> Handler:
    """A relation on argument values that is first CERTIFIED (``certify``: enclosures and
    closed forms) when an argument is approximate or could not be evaluated exactly, so that
    √2 < 3/2 is exactly false instead of approximately."""

    def handler(t: App, env: Env) -> Value:
        if t.op in ("eq", "ne") and t.args[0] == t.args[1]:
            return t.op == "eq"  # one term, one value, whatever it is (x = e at x = Witness(e))
        vals, undecided = _argument_values(t, env)
        if any(isinstance(v, Witness) for v in vals):  # `a 2 = 1/√6` at a sequence with a 2 = 1/√3
            return witness_relation(t, vals, env)
        if undecided is not None or any(isinstance(v, Approx) for v in vals):
            s = certified_sign(t.args[0], t.args[1], lambda u: term_value(u, env))
            if s is None and (closed := closed_arguments(t, env)) is not None:
                s = certified_sign(*closed, lambda u: term_value(u, {}))
            if s is not None:
                return SIGN_RELATION[t.op](s)
            if undecided is not None:
                raise undecided
        return decide_exactly(t, vals, env)

    return handler


#: Each relation as a function of the sign of a − b.
SIGN_RELATION: dict[str, Callable[[int], bool]] = {
    "eq": lambda s: s == 0, "ne": lambda s: s != 0,
    "lt": lambda s: s < 0, "le": lambda s: s <= 0, "gt": lambda s: s > 0, "ge": lambda s: s >= 0,
}


#: Points at which two functions, one of them given by a lambda, are compared before their
#: equality is left undecided (besides the points a table lists).
FUNCTION_PROBES = 4


def _functions_differ(sort: FunSort, a: Any, b: Any) -> bool:
    """Two function values differ at a point where both are exactly known (the points a table
    lists, then a few probe values of each argument sort): f ≠ g needs one such point, while
    f = g over an infinite domain stays undecided."""
    points: list[tuple] = [k for f in (a, b) if isinstance(f, FunTable) for k in f.entries]
    probes = [probe_values(s)[:FUNCTION_PROBES] for s in sort.args]
    points += list(itertools.islice(itertools.product(*probes), FUNCTION_PROBES ** 2))
    for point in dict.fromkeys(points):
        try:
            x, y = _call(a, list(point), "a function"), _call(b, list(point), "a function")
            eq, approx = values_equal(x, y)
        except Undecided:
            continue
        if not eq and not approx:
            return True
    return False


def _equality(t: App, vals: list[Any], env: Env) -> Any:
    if isinstance(t.args[0].sort, SetSort) and any(isinstance(v, PredSet) for v in vals):
        extra = [v for v in env.values() if is_rational(v)]
        if sets.separated(vals[0], vals[1], t.args[0].sort.elem, extra):
            return t.op == "ne"
    if isinstance(t.args[0].sort, FunSort) and any(isinstance(v, Closure) for v in vals) \
            and _functions_differ(t.args[0].sort, vals[0], vals[1]):
        return t.op == "ne"
    eq, approx = values_equal(vals[0], vals[1])
    return truth_value(eq if t.op == "eq" else not eq, not approx)


def _order(t: App, vals: list[Any], env: Env) -> Any:
    s, approx = compare(vals[0], vals[1])
    return truth_value(SIGN_RELATION[t.op](s), not approx)


for _op, _decide in (("eq", _equality), ("ne", _equality), ("lt", _order), ("le", _order),
                     ("gt", _order), ("ge", _order)):
    OPERATIONS.add(_op, _relation(_decide))


# --------------------------------------------------------------------------------------
# Values of arguments only: numbers and sets
# --------------------------------------------------------------------------------------


#: Operations with an integer value that an approximate argument leaves approximate
#: (``⌈√20⌉``), while its certified enclosure is one integer: that integer, exactly.
_ROUNDINGS = frozenset({"floor", "ceil", "round", "nat_floor", "nat_ceil"})
#: Operations whose value is 0 when their first argument is exactly 0, whatever the others:
#: every operation is total (x / 0 = 0; Isabelle's ``ln`` at x ≤ 0 is some real number), so
#: ``0 · x powr 2`` at x < 0 and ``(123 div 999) mod 10 ^ 123999`` are 0. For ``mul`` any
#: argument may be the 0. (Not for a remainder's divisor: x mod 0 = x.) Their handler,
#: ``_zero_absorbing``, evaluates the arguments itself.
_ZERO_ABSORBING = ("mul", "div", "mod", "ediv", "emod", "fdiv", "fmod")


def _register_value_handlers(handlers: OpTable[Callable[[App, list[Value]], Value]]) -> None:
    for op, fn in handlers.handlers.items():
        if op in _ZERO_ABSORBING:
            continue
        if op in _ROUNDINGS:
            _strict(op)(lambda t, vals, env, fn=fn: _certified_integer(t, env, fn(t, vals)))
        else:
            _strict(op)(lambda t, vals, env, fn=fn: fn(t, vals))


def _certified_integer(t: App, env: Env, value: Value) -> Value:
    """``value`` (a rounding's), made exact when it is approximate and the rigorous enclosure
    of ``t`` is a single point (both ends of the argument's enclosure round alike)."""
    if not isinstance(value, Approx):
        return value
    try:
        point = exact_point(enclose(t, Enclosing(PRECISIONS[0], lambda u: term_value(u, env))))
    except (Undecided, ArithmeticError, ValueError):
        return value
    return int(point) if point is not None and point.denominator == 1 else value


_register_value_handlers(numeric.HANDLERS)
_register_value_handlers(sets.HANDLERS)
_NUMERIC = {op: numeric.HANDLERS.handlers[op] for op in _ZERO_ABSORBING}
#: remainders whose value at a positive divisor m is Python's ``% m``
_REMAINDERS = frozenset({"mod", "emod", "fmod"})


@OPERATIONS.register(*_ZERO_ABSORBING)
def _zero_absorbing(t: App, env: Env) -> Value:
    """The operation's value, 0 where a 0 argument decides it though another is undecided
    (``_ZERO_ABSORBING``), and a remainder of a power too large to compute reduced modulo
    its divisor (``_remainder``)."""
    vals, undecided = _argument_values(t, env)
    if undecided is None:
        return _NUMERIC[t.op](t, vals)
    if t.sort in (NAT, INT, RAT, REAL):
        zeros = vals if t.op == "mul" else vals[:1]
        if any(is_rational(v) and not isinstance(v, bool) and v == 0 for v in zeros):
            return 0
        if t.op in _REMAINDERS and vals[0] is None:
            reduced = _remainder(t.args[0], vals[1], env)
            if reduced is not None:
                return reduced
    raise undecided


def _remainder(e: Term, m: Value, env: Env) -> int | None:
    """``e mod m`` for an integer m > 0 computed modulo m (``(123 · 10 ^ 123999) mod 999``:
    the power is too large to compute, its residue is not), through numerals, +, ·, natural
    powers (``pow(b, n, m)``), casts between ℕ and ℤ, and − on ℤ; None elsewhere."""
    if not (isinstance(m, int) and not isinstance(m, bool) and m > 0):
        return None

    def residue(u: Term) -> int | None:
        if u.sort not in (NAT, INT):
            return None
        if isinstance(u, App):
            if u.op in ("add", "mul") or (u.op == "sub" and u.sort == INT):
                parts = [residue(a) for a in u.args]
                if any(p is None for p in parts):
                    return None
                out = parts[0]
                for p in parts[1:]:
                    out = out + p if u.op == "add" else out * p if u.op == "mul" else out - p
                return out % m
            if u.op == "neg" and u.sort == INT:
                r = residue(u.args[0])
                return None if r is None else -r % m
            if u.op == "cast" and u.args[0].sort in (NAT, INT):
                return residue(u.args[0])
            if u.op == "pow":
                b = residue(u.args[0])
                try:
                    n = term_value(u.args[1], env)
                except Undecided:
                    return None
                if b is None or not isinstance(n, int) or isinstance(n, bool) or n < 0:
                    return None
                return pow(b, n, m)
        try:
            v = term_value(u, env)
        except Undecided:
            return None
        return v % m if isinstance(v, int) and not isinstance(v, bool) else None

    return residue(e)


# --------------------------------------------------------------------------------------
# Isabelle's unspecified values (the assignment may fix them: "@ln", "@arcsin", "@arccos")
# --------------------------------------------------------------------------------------


def _fix(env: Env, name: str) -> numeric.Fix:
    table = env.get(name)
    return None if table is None else (lambda x: _call(table, [x], name))


@_strict("ln")
def _ln(t: App, vals: list[Any], env: Env) -> Any:
    return normalized(numeric.ln(vals[0], _fix(env, "@ln")))


@_strict("isa_arcsin", "isa_arccos")
def _isa_arc(t: App, vals: list[Any], env: Env) -> Any:
    return normalized(numeric.arc(t.op, vals[0], _fix(env, "@" + t.op.removeprefix("isa_"))))


@_strict("powr")
def _powr(t: App, vals: list[Any], env: Env) -> Any:
    return numeric.powr(vals[0], vals[1], _fix(env, "@ln"))


@_strict("isa_log")
def _isa_log(t: App, vals: list[Any], env: Env) -> Any:
    fix = _fix(env, "@ln")
    return numeric.log_quotient(vals[1], vals[0], lambda y: numeric.ln(y, fix), mathlib=False)


# --------------------------------------------------------------------------------------
# Function values
# --------------------------------------------------------------------------------------


@OPERATIONS.register("apply")
def _apply(t: App, env: Env) -> Any:
    f = term_value(t.args[0], env)
    if isinstance(f, FunTable) and not f.entries and f.fill is None:
        return f.default  # a constant function: its arguments need no value (`f 6 [5, 3, …]`)
    return _call(f, [term_value(a, env) for a in t.args[1:]], "function")


@_strict("image")
def _image(t: App, vals: list[Any], env: Env) -> Any:
    f, s = vals
    out = [_call(f, [e], "image function") for e in finite_elements(s, "argument of image")]
    if any(is_approx(v) for v in out):
        raise Undecided("image with approximate values")
    return frozenset(out)


@_strict("filter")
def _filter(t: App, vals: list[Any], env: Env) -> Any:
    p, s = vals
    keep = []
    for e in finite_elements(s, "argument of filter"):
        m, approx = truthy(_call(p, [e], "filter predicate"))
        if approx:
            raise Undecided("filter predicate decided only approximately")
        if m:
            keep.append(e)
    return frozenset(keep)


# --------------------------------------------------------------------------------------
# Helpers the binders' modules share (``quantifiers``, ``comprehensions``)
# --------------------------------------------------------------------------------------


def enclosure_bounds(env: Env) -> Callable[[Term], tuple[Fraction, Fraction] | None]:
    """Certified rational bounds of a real term under ``env`` (``interval``), or None."""

    def bounds_of(e: Term) -> tuple[Fraction, Fraction] | None:
        if e.sort not in (NAT, INT, RAT, REAL):
            return None
        try:
            return interval_bounds(enclose(e, Enclosing(PRECISIONS[0], lambda u: term_value(u, env))))
        except (Undecided, ArithmeticError, ValueError):
            return None

    return bounds_of


def exact_truth(env: Env) -> Callable[[Term], bool | None]:
    """The exact truth of a formula under ``env``, or None (for ``linear.decide_linear``)."""

    def truth(p: Term) -> bool | None:
        r, exact, _ = truth_triple(p, env)
        return r if exact else None

    return truth


def exact_value(env: Env) -> Callable[[Term], Any]:
    """The exact value of a term under ``env``, or None (for ``bound_domain``)."""

    def value_of(e: Term) -> Any:
        try:
            r = term_value(e, env)
        except Undecided:
            return None
        return None if is_approx(r) or isinstance(r, Undetermined) else r

    return value_of


def tabled_points(x: Var, body: Term, env: Env) -> list[Any] | None:
    """The tables' listed points (all rational) when ``x`` (a number) occurs in ``body`` only
    as the argument of settled tables (``_through_tables``); else None."""
    if x.sort not in (NAT, INT, RAT, REAL):
        return None
    tables: list[FunTable] = []
    occurrences = 0
    for s in subterms(body):
        if s == x:
            occurrences += 1
        elif isinstance(s, App) and s.op == "apply" and s.args[1:] == (x,) and isinstance(s.args[0], Var):
            table = env.get(s.args[0].name)
            if not (isinstance(table, FunTable) and table.fill is None):
                return None
            tables.append(table)
        elif isinstance(s, (Quant, SetBuilder, BigOp, Lam)) and x in bound_variables(s):
            return None  # x bound again inside: its occurrences there are another variable
    if not tables or occurrences != len(tables):
        return None  # x read other than as a table's argument
    keys = [k for table in tables for k in table.entries]
    if not all(len(k) == 1 and is_rational(k[0]) and not isinstance(k[0], bool) for k in keys):
        return None  # an irrational listed point (a solver's algebraic model) would be missed
    return sorted({k[0] for k in keys if x.sort != NAT or (k[0] == int(k[0]) and k[0] >= 0)})


def past_points(points: list[Any]) -> int:
    """A natural number above every listed point: every table is at its default there."""
    return max([int(math.floor(p)) for p in points], default=-1) + 1


#: ``free_vars`` remembered per term object: the quantifiers ask it of the same ∀ at every
#: probe of an outer binder.
free_vars_by_identity = by_identity()(free_vars)


def value_sort_key(x: Any) -> Any:
    """An order on mixed values: exact rationals by value first, the rest by their text."""
    return (0, x) if is_rational(x) else (1, repr(x))


def at_irrational(body: Term, env: Env, v: Var, r: AlgebraicReal) -> bool | None:
    """``body`` at the irrational root ``r`` (exact, by the field evaluator); over ℚ it is no
    member whatever ``body`` says."""
    count_step()
    return False if v.sort == RAT else algebraic_truth(body, {**env, v.name: r})


def as_number(q: Fraction) -> int | Fraction:
    """``q`` as an ``int`` when it is whole, the evaluator's form of integer values."""
    return int(q) if q.denominator == 1 else q


# Every quantifier, big operator and set-builder, every LEAST / GREATEST and every value known
# only as a closed term is decided in its own module, which reads the helpers above: imported
# last, once everything they take from here is defined.
from provers.semantics.closed_terms import closed_arguments, sequence_at, witness_relation  # noqa: E402
from provers.semantics.comprehensions import big_operator_value, closed_cached, set_builder_value  # noqa: E402
from provers.semantics.extrema import least_or_greatest  # noqa: E402
from provers.semantics.quantifiers import quantifier_value  # noqa: E402
