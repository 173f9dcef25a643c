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

import functools
import itertools
import math
import threading
from collections.abc import Callable, Iterator
from fractions import Fraction
from typing import Any

from provers.deadline import Deadline
from provers.ir import (
    BOOL,
    COMPLEX,
    INT,
    NAT,
    NEGATED,
    RAT,
    REAL,
    TRUE,
    App,
    BigOp,
    FunSort,
    Lam,
    Num,
    OpTable,
    ProdSort,
    Quant,
    SetBuilder,
    SetSort,
    Sort,
    Term,
    Uninterpreted,
    Var,
    and_,
    app,
    beta_reduced,
    bound_variables,
    by_identity,
    cast,
    conjuncts,
    equated,
    free_vars,
    is_numeric,
    map_term,
    or_,
    provably_inhabited,
    size,
    substitute,
    subterms,
    unfold,
)
from provers.semantics import numeric, sets
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
from provers.semantics.closed_forms import PolynomialReader, closed_form
from provers.semantics.domains import (
    MAX_DOMAIN,
    MAX_INTERVAL,
    bound_domain,
    dense_interval_infinite,
    disjuncts,
    eliminate_components,
    guards,
    image_lower_bound,
    instance_solution,
    integer_interval,
    integer_ray_infinite,
    numeral_lower_bound,
    periodic_interval,
    pins_finitely,
    polynomial_cells,
    probe_values,
    pull_equated_binder,
    split_pair,
    split_tuple,
)
from provers.semantics.identities import polynomial_identity
from provers.semantics.interval import PRECISIONS, Enclosing, enclose, exact_point
from provers.semantics.interval import bounds as interval_bounds
from provers.semantics.library import LIBRARY, library_value
from provers.semantics.linear import decide_linear
from provers.semantics.memo import NESTED_PROBES_REASON, STEP_BUDGET_REASON, Memo, rememberable
from provers.semantics.pairs import components
from provers.semantics.rational_identities import rational_identity
from provers.semantics.sets import finite_elements
from provers.semantics.surds import form_of, form_term
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

_steps = threading.local()  # per thread: steps left and the deadline of the outermost call


#: Sign-cell computations (exact real-root isolation, sympy: 20–60 ms each uncached) per
#: evaluate call: a LEAST whose predicate reads ``∀x ≥ 2. x powr 2 ≠ m`` at m = 1 … 1000 (a
#: sequence's 1000th term, ``counting_and_probability/problem_1117``) asked one per m, 16 s
#: for that problem (5.3 s before ``_powr_pieces``; 5.9 s with this bound).
MAX_CELLS_PER_EVALUATION = 8


def _cells_of(v: Var, body: Term, env: Env) -> tuple[tuple[Fraction, ...], tuple[Any, ...]] | None:
    """``domains.polynomial_cells`` of ``body`` in v, within ``MAX_CELLS_PER_EVALUATION``."""
    used = getattr(_steps, "cells", 0) + 1
    _steps.cells = used
    if used > MAX_CELLS_PER_EVALUATION:
        return None
    return polynomial_cells(v, body, _exact_value(env))


def _tick() -> None:
    left = getattr(_steps, "left", None)
    if left is None:
        return  # outside evaluate() (a helper called directly): no budget to count, none to leave set
    left -= 1
    _steps.left = left
    if left < 0:
        raise Undecided(STEP_BUDGET_REASON)
    if left % DEADLINE_EVERY == 0:
        deadline = getattr(_steps, "deadline", None)
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
            return fn(t, [_ev(a, env) for a in t.args], env)

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
    outer = getattr(_steps, "left", None)
    if outer is None:
        _steps.left = STEP_BUDGET
        _steps.cells = 0
        _steps.deadline = deadline
    term, env = _witnesses_substituted(term, env or {})
    try:
        return _ev(term, env)
    except Undecided as e:
        return Undetermined(e.reason)
    except RecursionError:
        return Undetermined("term too deep")
    except (OverflowError, MemoryError, ValueError, ZeroDivisionError, TypeError) as e:
        return Undetermined(f"evaluation error: {type(e).__name__}: {e}")
    finally:
        if outer is None:
            del _steps.left
            _steps.deadline = None


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


def _ev(t: Term, env: Env) -> Any:
    if isinstance(t, Var):
        if t.name not in env:
            raise Undecided(f"no value for variable {t.name}")
        return _coerce(env[t.name], t.sort, t.name)
    if isinstance(t, Num):
        if t.sort is not REAL and t.sort is not INT and t.sort is not NAT and t.sort == COMPLEX:
            return ExactComplex(Fraction(t.value), Fraction(0))
        return t.value
    if isinstance(t, App):
        handler = OPERATIONS.get(t.op)
        if handler is None:
            raise Undecided(f"unsupported operation {t.op}")
        return handler(t, env)
    if isinstance(t, Quant):
        return _quant(t, env)
    if isinstance(t, Lam):
        return Closure(t.vars, t.body, env)
    if isinstance(t, BigOp):
        return _bigop(t, env)
    if isinstance(t, SetBuilder):
        return _closed_cached(t, env, _remembered_setbuilder)
    if isinstance(t, Uninterpreted):
        return _uninterpreted(t, env)
    raise Undecided(f"unknown term {type(t).__name__}")


def _tri(t: Term, env: Env) -> tuple[bool | None, bool, str]:
    """(value, exact, reason) of a subformula; never raises Undecided."""
    try:
        v = _ev(t, env)
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
    if isinstance(sort, FunSort) and isinstance(v, dict):
        return FunTable(dict(v), 0)
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
        return _least_or_greatest(t.args[0], t.symbol == "LEAST", env)
    if table is None and t.symbol == "UNIV" and not t.args and isinstance(t.sort, SetSort) \
            and t.sort.elem in (NAT, INT, RAT, REAL, COMPLEX):  # Isabelle's UNIV: the whole (infinite) type
        return PredSet(t.sort.elem, lambda x: True, True)
    if table is None and t.symbol == "Gcd" and len(t.args) == 1 and isinstance(t.args[0], SetBuilder):
        gcd = _gcd_of_polynomial_image(t.args[0], env)
        if gcd is not None:
            return gcd
    if table is None and t.symbol in LIBRARY:  # Rat.den, Nat.totient: computed exactly
        args = [_ev(a, env) for a in t.args]
        value = library_value(t.symbol, args, [a.sort for a in t.args])
        if value is None:
            raise Undecided(f"{t.symbol} at arguments it is not computed at")
        return value
    if table is None and t.symbol == "vector" and (parts := components(t)) is not None:
        return tuple(_ev(p, env) for p in parts)  # `vector [1, -3] :: real^2`: the point (1, -3)
    if table is None:
        raise Undecided(f"uninterpreted symbol {t.symbol} has no table")
    if not t.args:
        return table(*()) if isinstance(table, FunTable) else table
    return _call(table, [_ev(a, env) for a in t.args], t.symbol)


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
        if n not in free_vars(g) and _tri(g, env)[:2] == (True, True):
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
        _tick()
        v = _ev(image, {**env, n.name: k})
        if not (isinstance(v, int) and not isinstance(v, bool)):
            return None
        gcd = math.gcd(gcd, v)
    return gcd


#: Largest ℕ value ``LEAST n. P n`` is searched up to when P bounds no finite domain.
MAX_LEAST_SEARCH = 100_000


def _least_or_greatest(lam: Lam, least: bool, env: Env) -> Any:
    """Isabelle's ``LEAST x. P x`` / ``GREATEST x. P x`` over ℕ or ℤ: the extreme x where P
    holds exactly — over the finite domain P's conjuncts bound, or (LEAST over ℕ) the first n
    from 0 up. Where no such x exists the value is unspecified (THE of nothing): undecided."""
    if len(lam.vars) == 1 and isinstance(lam.body, App) and lam.body.op == "eq" \
            and (only := equated(lam.vars[0], lam.body)) is not None:
        # LEAST x. x = e: the one element of {e} (``Least (λx. E = x)``, ``intermediate_algebra/
        # problem_1838``, was the sign cells of E − x at every sampled point, 4 ms each)
        return _ev(only, env)
    if len(lam.vars) == 1 and lam.vars[0].sort in (REAL, RAT):
        return _real_extremum(lam.vars[0], lam.body, least, env)
    if len(lam.vars) != 1 or lam.vars[0].sort not in (NAT, INT):
        raise Undecided("LEAST/GREATEST over a sort other than ℕ, ℤ, ℚ or ℝ")
    v = lam.vars[0]
    dom = bound_domain(v, conjuncts(lam.body), frozenset(), _exact_value(env))
    start = 0
    if dom is None and least and v.sort == INT:
        # an image of bounded terms (``∃a b. n = a·b ∧ a, b > 1``) is searched from its least value
        start = image_lower_bound(v, lam.body)  # type: ignore[assignment]
        if start is None:
            return _integer_extremum(v, lam.body, least, env)
    elif dom is None and not (least and v.sort == NAT):
        return _integer_extremum(v, lam.body, least, env)
    candidates = sorted(dom, reverse=not least) if dom is not None else range(start, start + MAX_LEAST_SEARCH)
    for x in candidates:
        _tick()
        r, exact, why = _tri(lam.body, {**env, v.name: x})
        if r is None or not exact:  # an approximate False could hide the extreme x
            raise Undecided(why or "approximate")
        if r:
            return x
    raise Undecided(f"{'LEAST' if least else 'GREATEST'} of a predicate with no witness found")


def _integers_near(roots: tuple[Any, ...]) -> set[int] | None:
    """The integers next to each root (floor − 1 … floor + 2), or None when a root is too
    large to place: the least integer above a root is in the cell after it when that cell
    holds one, so every cell's integers are represented (floats err by far less than 1)."""
    if any(abs(float(r)) > 2.0**50 for r in roots):
        return None
    return {m + d for r in roots for m in (math.floor(float(r)),) for d in (-1, 0, 1, 2)}


def _integer_extremum(v: Var, body: Term, least: bool, env: Env) -> Any:
    """``LEAST z :: int. P z`` (``GREATEST`` from the other end; ℕ's ``GREATEST``) when P
    bounds no finite domain, by the sign cells of the polynomials P compares
    (``domains.polynomial_cells``; sums over ranges that depend on z in closed form): P is
    false on the outer cell at that end (else no extreme element: undecided), and the first
    integer where P holds, scanning the integers next to each root from there, is the
    extreme one — every cell's first integer is next to the root that opens it."""
    what = "LEAST" if least else "GREATEST"
    cells = _cells_of(v, body, env)
    if cells is None:
        raise Undecided(f"{what} over an unbounded domain of {v.sort}")
    samples, roots = cells
    near = _integers_near(roots)
    if near is None:
        raise Undecided(f"{what} over {v.sort}: a root too large to scan from")
    # a point of the outer cell (ℕ's GREATEST: the top one, above 0 too)
    outer = int(samples[0]) if least else max(int(samples[-1]), 0 if v.sort == NAT else int(samples[-1]))
    r, exact, _ = _tri(body, {**env, v.name: outer})
    if r is None or not exact:
        raise Undecided(f"{what} over {v.sort}: the predicate is undecided at {outer}")
    if r:
        raise Undecided(f"{what} over {v.sort} of a set with no {'least' if least else 'greatest'} element")
    points = sorted(z for z in near | ({0} if v.sort == NAT else set()) if v.sort == INT or z >= 0)
    for z in points if least else reversed(points):
        _tick()
        r, exact, why = _tri(body, {**env, v.name: z})
        if r is None or not exact:
            raise Undecided(why or f"{what} over {v.sort}: the predicate is undecided at {z}")
        if r:
            return z
    raise Undecided(f"{what} of a predicate that holds nowhere")


def _real_extremum(v: Var, body: Term, least: bool, env: Env) -> Any:
    """``LEAST x :: real. P x`` (ℚ likewise, ``GREATEST`` from the other end) by the sign cells
    of the polynomials P compares (``domains.polynomial_cells``): P has one truth value on each
    open cell, so scanning cells and roots upward, the first place P holds is the least
    element when it is a root; when it is an open cell (the unbounded one first, or one whose
    lower root fails P) the set has no least element and Isabelle's value is unspecified
    (THE of nothing): undecided, as for an empty set or an irrational least element."""
    what = "LEAST" if least else "GREATEST"
    cells = _cells_of(v, body, env)
    if cells is None:
        raise Undecided(f"{what} over {v.sort} of a predicate that is not polynomial in {v.name}")
    samples, roots = cells
    # samples[i] < roots[i] < samples[i + 1]: cells and roots alternate, from the lowest cell
    order = [("cell", samples[0])] + [item for r, q in zip(roots, samples[1:], strict=True)
                                      for item in (("root", r), ("cell", q))]
    for kind, x in order if least else reversed(order):
        _tick()
        if kind == "root" and not isinstance(x, Fraction):
            r = _at_irrational(body, env, v, x)
        else:
            r, exact, _ = _tri(body, {**env, v.name: _number(x)})
            r = r if exact else None
        if r is None:
            raise Undecided(f"{what} over {v.sort}: the predicate is undecided at {x}")
        if r and kind == "cell":
            raise Undecided(f"{what} over {v.sort} of a set with no {'least' if least else 'greatest'} element")
        if r:
            if not isinstance(x, Fraction):
                raise Undecided(f"{what} over {v.sort} is irrational")
            return _number(x)
    raise Undecided(f"{what} of a predicate that holds nowhere")


#: Largest index a recurrence is computed up to.
MAX_SEQUENCE_INDEX = 20_000


def _sequence_at(f: Sequence, m: Any) -> Any:
    if not isinstance(m, int) or isinstance(m, bool) or (m < 0 and f.var.sort == NAT):
        raise Undecided(f"{f.name} applied at {m!r}, not an index of the sequence")
    if m < f.start:
        return f.initial.get(m, 0)
    if m in f.memo:
        return f.memo[m]
    if m > MAX_SEQUENCE_INDEX:
        raise Undecided(f"{f.name} {m}: beyond the recurrence's computed range")
    first = f.start + len(f.memo)  # filled bottom-up from start: no gaps
    inner = dict(f.env)
    inner[f.name] = f
    deadline = getattr(_steps, "deadline", None)
    for i in range(first, m + 1):  # bounded by MAX_SEQUENCE_INDEX and memoized: no step budget
        if deadline is not None and i % DEADLINE_EVERY == 0:
            deadline.check("exact evaluation")
        if f.closed_terms:  # an initial value is a witness (`a 2 = 1/√3`): elements as closed terms
            term = _element_term(f, i)
            value = _ev(term, {})
            f.memo[i] = Witness(term) if is_approx(value) else value
        else:
            f.memo[i] = _ev(f.rule, {**inner, f.var.name: i})
    return f.memo[m]


def _call(f: Any, args: list[Any], what: str) -> Any:
    if isinstance(f, Sequence) and len(args) == 1:
        return _sequence_at(f, args[0])
    if any(is_approx(a) for a in args) and not isinstance(f, Closure):
        raise Undecided(f"table of {what} looked up at an approximate point")
    if isinstance(f, Closure):
        inner = dict(f.env)
        for v, a in zip(f.vars, args, strict=True):
            inner[v.name] = a
        return _ev(f.body, inner)
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
    v, ex, r = _tri(t.args[0], env)
    if v is None:
        raise Undecided(r)
    return truth_value(not v, ex)


@OPERATIONS.register("and", "or")
def _and_or(t: App, env: Env) -> Any:
    absorbing = t.op == "or"  # True absorbs a disjunction, False a conjunction
    seen_approx_abs, undecided, all_exact = False, "", True
    for a in t.args:
        v, ex, r = _tri(a, env)
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
    p, pe, pr = _tri(t.args[0], env)
    if p is False and pe:
        return True
    q, qe, qr = _tri(t.args[1], env)
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
        return _tri(t, env)
    key, got = IFF_SIDES.lookup(t, env)
    if got is not Memo.MISSING:
        return got
    out = _tri(t, env)
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
    c, ce, cr = _tri(t.args[0], env)
    if c is None:
        a, b = _ev(t.args[1], env), _ev(t.args[2], env)
        eq, approx = values_equal(a, b)
        if eq and not approx:
            return a
        raise Undecided(cr)
    v = _ev(t.args[1] if c else t.args[2], env)
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
            vals.append(_ev(a, env))
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
            return _witness_relation(t, vals, env)
        if undecided is not None or any(isinstance(v, Approx) for v in vals):
            s = certified_sign(t.args[0], t.args[1], lambda u: _ev(u, env))
            if s is None and (closed := _closed_arguments(t, env)) is not None:
                s = certified_sign(*closed, lambda u: _ev(u, {}))
            if s is not None:
                return _SIGN_RELATION[t.op](s)
            if undecided is not None:
                raise undecided
        return decide_exactly(t, vals, env)

    return handler


def _witness_relation(t: App, vals: list[Any], env: Env) -> bool:
    """A relation with an argument whose value is known as a closed term (a ``Witness`` a
    function returned): decided by the certified sign of the two closed terms (the other
    argument closed under ``env`` when its value is inexact: ``1 / √6``)."""
    closed = [_value_term(v, a.sort) or _closed_side(a, env) for v, a in zip(vals, t.args, strict=True)]
    if any(c is None for c in closed):
        raise Undecided("a value known only as its closed term compared with an inexact one")
    if t.op in ("eq", "ne") and closed[0] == closed[1]:
        return t.op == "eq"
    sign = certified_sign(closed[0], closed[1], lambda u: _ev(u, {}))  # type: ignore[arg-type]
    if sign is None:
        raise Undecided("the sign of a difference of closed terms is not certified")
    return _SIGN_RELATION[t.op](sign)


def _value_term(x: Any, sort: Sort) -> Term | None:
    """A value of ``sort`` as a closed term: a witness's own term, an exact number of the
    sort as a numeral; None for anything else."""
    if isinstance(x, Witness):
        return x.term if x.term.sort == sort else None
    if isinstance(x, (int, Fraction)) and not isinstance(x, bool) and is_numeric(sort) and sort != COMPLEX:
        if sort in (NAT, INT) and not isinstance(x, int) or sort == NAT and x < 0:
            return None
        return Num(x, sort)
    return None


def _closed_side(t: Term, env: Env) -> Term | None:
    """``t`` as a closed term: each application of a recurrence at an index replaced by that
    element's closed term (``a 1 + 2 · a 2``), the rest closed under ``env`` (``closed_term``)."""
    return closed_term(_elements_closed(t, env), env)


def _elements_closed(t: Term, env: Env) -> Term:
    """``t`` with each application ``u k`` of a recurrence (``env[u]`` a ``Sequence``) at an
    index it evaluates replaced by that element as a closed term, where it has one."""
    def element(s: Term) -> Term | None:
        if isinstance(s, App) and s.op == "apply" and len(s.args) == 2 and isinstance(s.args[0], Var) \
                and isinstance(env.get(s.args[0].name), Sequence):
            try:
                return _value_term(_sequence_at(env[s.args[0].name], _ev(s.args[1], env)), s.sort)
            except Undecided:
                return None
        return None

    return map_term(t, element)


#: Largest closed term a recurrence's element is kept as (``_sequence_at``).
MAX_WITNESS_TERM = 400


def _element_term(f: Sequence, m: int) -> Term:
    """Element m of a recurrence as a closed term: the rule at m with each earlier element
    it applies replaced by that element's value as a term (its witness's, or a numeral)."""
    term = _elements_closed(substitute(f.rule, {f.var: Num(m, f.var.sort)}), {**f.env, f.name: f})
    if any(isinstance(s, Var) and s.name == f.name for s in subterms(term)):
        raise Undecided(f"{f.name} {m}: an earlier element has no closed term")
    form = form_of(term, lambda u: _ev(u, {})) if term.sort == REAL else None
    compact = form_term(form, REAL) if form is not None else None
    term = compact if compact is not None else term  # ℚ(√3) stays a + b·√3: no blow-up
    if size(term) > MAX_WITNESS_TERM:
        raise Undecided(f"{f.name} {m}: its closed term grows past {MAX_WITNESS_TERM} nodes")
    return term


def _closed_arguments(t: App, env: Env) -> tuple[Term, Term] | None:
    """``t``'s two sides as closed terms: each variable replaced by its exact rational value,
    its ``Witness`` term or its λ (``Closure``), applications of a λ reduced. The closed forms
    (``surds``) see through what a value hides: p (3 + √7) = 0 at p = λx. x² − 6x + 2 is a
    certified zero, where p's value at the point is only an approximation."""
    if not any(isinstance(env.get(v.name), Closure) for v in _free_vars_of(t)):
        return None  # rationals and witnesses the closed forms read already: nothing to gain
    closed = [closed_term(a, env, CLOSURE_DEPTH) for a in t.args]
    if any(c is None for c in closed):
        return None
    return tuple(map_term(beta_reduced(c), _branch_taken) for c in closed)  # type: ignore[return-value,arg-type]


def _branch_taken(t: Term) -> Term | None:
    """A closed ``if c then a else b`` as the branch c's exact truth value selects (a
    piecewise function at a point: the closed forms have no ``if``)."""
    if isinstance(t, App) and t.op == "ite" and not free_vars(t.args[0]):
        try:
            c = _ev(t.args[0], {})
        except Undecided:
            return None
        if isinstance(c, bool):
            return t.args[1] if c else t.args[2]
    return None


#: How deep closures referring to closures are unfolded by ``closed_term``.
CLOSURE_DEPTH = 3
_MISSING = object()


def closed_term(t: Term, env: Env, closure_depth: int = 0) -> Term | None:
    """``t`` with each free variable replaced by its value in ``env`` as a term: an exact
    rational as a numeral, a ``Witness`` as its term, and — ``closure_depth`` levels deep — a
    closure as its λ (over its own captured values); None where a variable has another value.
    The closed forms then read what a value hides (√7 behind a witness, the λ behind p)."""
    mapping: dict[Var, Term] = {}
    for v in free_vars(t):
        x = env.get(v.name, _MISSING)
        as_term = _value_term(x, v.sort)
        if as_term is not None:
            mapping[v] = as_term
        elif isinstance(x, Closure) and closure_depth > 0:
            body = closed_term(Lam(x.vars, x.body), x.env, closure_depth - 1)
            if body is None or body.sort != v.sort:
                return None
            mapping[v] = body
        else:
            return None
    return substitute(t, mapping) if mapping else t


#: Each relation as a function of the sign of a − b.
_SIGN_RELATION: dict[str, Callable[[int], bool]] = {
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
    return truth_value(_SIGN_RELATION[t.op](s), not approx)


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
        point = exact_point(enclose(t, Enclosing(PRECISIONS[0], lambda u: _ev(u, env))))
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
                    n = _ev(u.args[1], env)
                except Undecided:
                    return None
                if b is None or not isinstance(n, int) or isinstance(n, bool) or n < 0:
                    return None
                return pow(b, n, m)
        try:
            v = _ev(u, env)
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
    f = _ev(t.args[0], env)
    if isinstance(f, FunTable) and not f.entries and f.fill is None:
        return f.default  # a constant function: its arguments need no value (`f 6 [5, 3, …]`)
    return _call(f, [_ev(a, env) for a in t.args[1:]], "function")


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
# Binders: enumerate finite domains, probe unbounded ones
# --------------------------------------------------------------------------------------


def _enclosure_bounds(env: Env) -> Callable[[Term], tuple[Fraction, Fraction] | None]:
    """Certified rational bounds of a real term under ``env`` (``interval``), or None."""

    def bounds_of(e: Term) -> tuple[Fraction, Fraction] | None:
        if e.sort not in (NAT, INT, RAT, REAL):
            return None
        try:
            return interval_bounds(enclose(e, Enclosing(PRECISIONS[0], lambda u: _ev(u, env))))
        except (Undecided, ArithmeticError, ValueError):
            return None

    return bounds_of


def _exact_truth(env: Env) -> Callable[[Term], bool | None]:
    """The exact truth of a formula under ``env``, or None (for ``linear.decide_linear``)."""

    def truth(p: Term) -> bool | None:
        r, exact, _ = _tri(p, env)
        return r if exact else None

    return truth


def _exact_value(env: Env) -> Callable[[Term], Any]:
    """The exact value of a term under ``env``, or None (for ``bound_domain``)."""

    def value_of(e: Term) -> Any:
        try:
            r = _ev(e, env)
        except Undecided:
            return None
        return None if is_approx(r) or isinstance(r, Undetermined) else r

    return value_of


#: Quantified subformulas' values by the values they read (``memo``): a pool's pairs and an
#: outer binder's probes evaluate the same premise at the same point again and again.
QUANTIFIER_VALUES = Memo()


def _quant(t: Quant, env: Env) -> Any:
    key, got = QUANTIFIER_VALUES.lookup(t, env)
    if got is not Memo.MISSING:
        return got
    try:
        value = _quant_value(t, env)
    except Undecided as e:
        # not when the budget ran out inside (another reason may hide it)
        if key is not None and getattr(_steps, "left", 0) >= 0:
            QUANTIFIER_VALUES.put_undecided(key, e)
        raise
    if key is not None:
        QUANTIFIER_VALUES.put(key, value)
    return value


def _quant_value(t: Quant, env: Env) -> Any:
    if t.kind == "exists1":
        return _exists_unique(t, env)
    want = t.kind == "exists"  # the value that settles the quantifier early
    restricting = guards(t.kind, t.body)
    for i, v in enumerate(t.vars):
        rest = t.vars[:i] + t.vars[i + 1 :]
        dom = bound_domain(v, restricting, frozenset(rest), _exact_value(env))
        if dom is not None:
            body = Quant(t.kind, rest, t.body) if rest else t.body
            return _enumerate(body, v, dom, want, env)
    tabled = _through_tables(t, want, env)  # no finite domain: the tables' points may do
    if tabled is not None:
        return tabled
    dom = _iff_domain(t, env) if want is False else None
    if dom is None and not want:
        dom = _counterexample_domain(t, env)
    if dom is not None:
        return _enumerate(t.body, t.vars[0], dom, want, env)
    if want:  # ∃ v̄. … ∧ ∀x. L = R: the instances of the ∀ may leave one candidate, or none
        solution = instance_solution(t.vars, restricting, _exact_value(env))
        if solution is False:
            return False
        if solution is not None:
            r, ex, why = _tri(t.body, {**env, **solution})
            if r is None:
                raise Undecided(why)
            return truth_value(r, ex)
    scoped = _miniscoped(t, want, env)
    if scoped is not None:
        return scoped
    pulled = pull_equated_binder(t)
    if pulled is not None:
        r, ex, _ = _tri(pulled, env)  # the same truth, perhaps over bounded domains
        if r is not None:
            return truth_value(r, ex)
    return _probe(t, want, env)


def _through_tables(t: Quant, want: bool, env: Env) -> Any:
    """``∀x. φ`` / ``∃x. φ`` over an infinite sort where x occurs only as the argument of
    functions given by settled tables (a model's ``f``, ``g``): off every listed point each
    table is at its default, so φ is decided at the listed points and at one point off them.
    Why: ``∀x. f x > 0`` at a solver's model of f was "∀ over an unbounded domain", no probe
    covers ℝ, and the model was thrown away. None when it does not apply or a point is
    undecided."""
    if len(t.vars) != 1:
        return None
    points = _tabled_points(t.vars[0], t.body, env)
    if points is None:
        return None
    for point in (*points, _off(points)):
        r, exact, _ = _tri(t.body, {**env, t.vars[0].name: point})
        if r is None or not exact:
            return None
        if r == want:
            return want
    return not want


def _tabled_points(x: Var, body: Term, env: Env) -> list[Any] | None:
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


def _off(points: list[Any]) -> int:
    """A natural number above every listed point: every table is at its default there."""
    return max([int(math.floor(p)) for p in points], default=-1) + 1


def _tabled_set(t: SetBuilder, env: Env) -> list[Any] | PredSet | None:
    """``{x | φ}`` with conjuncts of φ that read x only through settled tables: one false off
    the tables' listed points confines the set to those points (returned as the finite domain
    ``_setbuilder`` counts); all true there, they remove finitely many points from the set the
    other conjuncts give — infinite when those bound a non-degenerate interval of ℝ / ℚ
    (``digits`` a constant table in ``card {n. 10 ≤ n ≤ 99 ∧ sum_list (digits n) = 7}`` over
    ℝ: 0 or infinite). None when no conjunct is such, or this says nothing."""
    v = t.var
    parts = conjuncts(t.body)
    tabled = [(c, pts) for c in parts if v in free_vars(c) and (pts := _tabled_points(v, c, env)) is not None]
    if not tabled:
        return None
    points = sorted({p for _, listed in tabled for p in listed})
    at_off = [_tri(c, {**env, v.name: _off(points)}) for c, _ in tabled]
    if any(r is None or not ex for r, ex, _ in at_off):
        return None
    if not all(r for r, _, _ in at_off):  # off the listed points nothing belongs
        return points
    rest = [c for c in parts if all(c is not d for d, _ in tabled)]
    body = app("and", *rest) if len(rest) > 1 else (rest[0] if rest else TRUE)
    if v.sort in (RAT, REAL) and dense_interval_infinite(v, body, _exact_value(env), _enclosure_bounds(env)):
        return PredSet(v.sort, lambda x: _ev(t.body, {**env, v.name: x}), True)
    return None


def _miniscoped(t: Quant, want: bool, env: Env) -> Any:
    """``∀x̄. A ∨ B x̄`` with A not reading x̄ is ``A ∨ ∀x̄. B x̄`` (``∃x̄. A ∧ B x̄`` is
    ``A ∧ ∃x̄. B x̄``): the parts that read no binder are decided once, before any probe. Why:
    ``∀x. (∃a b. a + b = m ∧ a·b = 28) → P x = 0`` is true at m = 0 whatever P, yet no probe
    of x shows it, and a probe's counterexample is all an unbounded ∀ can otherwise find.
    None when no such part decides (the caller probes as before)."""
    bound = set(t.vars)
    parts = conjuncts(t.body) if want else disjuncts(t.body)
    outside = [p for p in parts if not free_vars(p) & bound]
    if not outside:
        return None
    settles = not want  # a true disjunct settles a ∀, a false conjunct an ∃
    for p in outside:
        r, ex, _ = _tri(p, env)
        if r is None or not ex:
            return None
        if r == settles:
            return settles
    inside = [p for p in parts if free_vars(p) & bound]
    if not inside:  # ∀x̄. False is True over an empty sort (Fin 0), ∃x̄. True False
        return not settles if all(provably_inhabited(v.sort) for v in t.vars) else None
    return _quant(Quant(t.kind, t.vars, and_(*inside) if want else or_(*inside)), env)


#: ¬(a ⋈ b) as one order atom, for ℕ and ℤ.
_NEGATED_ORDER = {"le": ("lt", True), "lt": ("le", True), "ge": ("lt", False), "gt": ("le", False)}


def _counterexample_domain(t: Quant, env: Env) -> list[Any] | None:
    """``∀x. g x → a ⋈ b`` (``∀ a ∈ S, 314 ≤ a``: IsLeast) where the negated conclusion
    bounds x (``a < 314``): a counterexample lies in that finite domain, so the ∀ is decided
    by enumerating it, whatever the guard."""
    if len(t.vars) != 1 or t.vars[0].sort not in (NAT, INT):
        return None
    body = t.body
    while isinstance(body, App) and body.op == "implies":
        body = body.args[1]
    if not (isinstance(body, App) and body.op in _NEGATED_ORDER):
        return None
    op, swap = _NEGATED_ORDER[body.op]
    a, b = body.args
    negated = app(op, *((b, a) if swap else (a, b)))
    dom = bound_domain(t.vars[0], [negated], frozenset(), _exact_value(env))
    return None if dom is None else list(dom)


def _iff_domain(t: Quant, env: Env) -> list[Any] | None:
    """``∀x. A x ↔ B x`` (``x ∈ S ↔ P x``, a set's definition) where each side holds only on
    a finite domain: both sides are false off the union of the two, so the iff holds there."""
    if len(t.vars) != 1 or not (isinstance(t.body, App) and t.body.op == "iff"):
        return None
    v, value_of = t.vars[0], _exact_value(env)
    funs = _closures(t, env)  # `f x < 9` with f the closure λx. |x + 4|: bounded once unfolded
    sides = unfold(t.body, funs).args if funs else t.body.args
    doms = [bound_domain(v, conjuncts(side), frozenset(), value_of) for side in sides]
    if any(d is None for d in doms):
        return None
    union = set(doms[0]) | set(doms[1])  # type: ignore[arg-type]
    return None if len(union) > MAX_DOMAIN else sorted(union, key=_sort_key)


def _exists_unique(t: Quant, env: Env) -> Any:
    v = t.vars[0]
    dom = bound_domain(v, conjuncts(t.body), frozenset(), _exact_value(env))
    if dom is None:
        raise Undecided(f"∃! over an unbounded domain of {v.sort}")
    count, exact = 0, True
    for x in dom:
        _tick()
        r, ex, why = _tri(t.body, {**env, v.name: x})
        if r is None:
            raise Undecided(why)
        exact &= ex
        count += bool(r)
    return truth_value(count == 1, exact)


def _enumerate(body: Term, v: Var, dom: Any, want: bool, env: Env) -> Any:
    """∀ (``want`` False) or ∃ (``want`` True) over the finite domain ``dom`` of ``v``."""
    undecided, exact = "", True
    for x in dom:
        _tick()
        r, ex, why = _tri(body, {**env, v.name: x})
        if r is None:
            undecided = undecided or why
            continue
        if r == want:
            if ex:
                return want
            exact = False
            undecided = undecided or "approximate"
        else:
            exact &= ex
    if undecided:
        if not exact and undecided == "approximate":
            return ApproxBool(want)
        raise Undecided(undecided)
    return truth_value(not want, exact)


def _probe(t: Quant, want: bool, env: Env) -> Any:
    """Unbounded: an exact witness (∃) or counterexample (∀) among probe values still decides;
    a polynomial identity is its coefficient equations."""
    vars_ = t.vars
    identity = None if want else polynomial_identity(t)
    if identity is None and not want:
        identity = _unfolded_identity(t, env)
    if identity is not None:
        r, ex, why = _tri(identity, env)
        if r is None:
            raise Undecided(why)
        return truth_value(r, ex)
    if want and (differs := _differs(t.body)) is not None:
        # ∃x̄. a ≠ b is ¬∀x̄. a = b: false exactly when that is a polynomial identity, true
        # when it is none (a nonzero polynomial has a non-root in an infinite domain)
        same = Quant("forall", vars_, app("eq", *differs))
        identity = polynomial_identity(same) or _unfolded_identity(same, env)
        if identity is not None:
            r, ex, _ = _tri(identity, env)
            if r is not None and ex:
                return not r
    if len(vars_) == 1 and vars_[0].sort in (NAT, INT):
        periodic = _periodic_quantifier(vars_[0], t.body, want, env)
        if periodic is not None:
            return periodic
    nested = getattr(_steps, "probing", 0)
    hints = dict(env.get(PROBES, ()))
    values = [[*hints.get(v.name, ()), *probe_values(v.sort)] for v in vars_]
    if len(vars_) == 1 and values[0]:
        values[0] += [x for x in _guard_points(vars_[0], t.body) if x not in values[0]]
    if all(values) and len(vars_) <= 3:
        values = [vs + _members_of_predsets(v, t.body, env) for v, vs in zip(vars_, values, strict=True)]
        positions = _small_first(tuple(len(v) for v in values))
        witness_only = None if want else _witness_only(t.body)
        _steps.probing = nested + 1
        try:
            for p in positions[:NESTED_PROBE_COMBINATIONS] if nested else positions:
                combo = tuple(v[k] for v, k in zip(values, p, strict=True))
                _tick()
                inner = {**env, **{v.name: x for v, x in zip(vars_, combo, strict=True)}}
                if witness_only is not None and _probed_only(witness_only, inner):
                    break  # the body is never false at a probe: no counterexample to find
                witness_only = None  # looked at the first combination only
                r, ex, _ = _tri(t.body, inner)
                if r == want and ex:
                    return want
        finally:
            _steps.probing = nested
    if not want and _meets_definitions(t, env):
        return True
    if not want:
        decided = _rational_identity(t, env)
        if decided is not None:
            return decided
    funs = _closures(t, env)
    if funs:  # the closures' bodies in place: `∃n. f n = n + 1987` at f = λx. x is `∃n. n = n + 1987`
        t = Quant(t.kind, t.vars, unfold(t.body, funs))
    decided = _by_cells(t, want, env)
    if decided is None:
        decided = decide_linear(t, want, _exact_truth(env), _exact_value(env))
    if decided is None:
        decided = _powr_pieces(t, want, env)
    if decided is None and not want:
        decided = _exponential_identity(t, env)
    if decided is None:
        decided = _at_finitely_many_points(t, env)
    if decided is not None:
        return decided
    names = ", ".join(f"{v.name} : {v.sort}" for v in vars_)
    fewer = f"; {NESTED_PROBES_REASON}" if nested else ""
    raise Undecided(f"{'∃' if want else '∀'} over an unbounded domain ({names}{fewer})")


def _negated_conjuncts(body: Term) -> list[Term] | None:
    """The conjuncts of ``¬body`` with the negation pushed onto atoms (``¬(A → B)`` is ``A ∧
    ¬B``, ``¬(A ∨ B)`` is ``¬A ∧ ¬B``), or None when some part does not negate that way."""
    if isinstance(body, App) and body.op == "implies":
        rest = _negated_conjuncts(body.args[1])
        return None if rest is None else [*conjuncts(body.args[0]), *rest]
    if isinstance(body, App) and body.op == "or":
        out: list[Term] = []
        for a in body.args:
            part = _negated_conjuncts(a)
            if part is None:
                return None
            out += part
        return out
    if isinstance(body, App) and body.op == "not":
        return conjuncts(body.args[0])
    if isinstance(body, App) and body.op in NEGATED and len(body.args) == 2:
        return [app(NEGATED[body.op], *body.args)]
    return None


def _periodic_quantifier(v: Var, body: Term, want: bool, env: Env) -> bool | None:
    """``∃v. φ`` as ``{v | φ} ≠ ∅`` and ``∀v. φ`` as ``{v | ¬φ} = ∅`` over ℕ / ℤ, when that set
    is an interval (bounded or not) cut by periodic conditions (``_periodic_set``: one period
    decides it); None otherwise. Why: ``∀z. z > x → z mod 11 ≠ 0`` has no counterexample among
    the small probes when x = 1001, yet one period past x holds one
    (``prealgebra/problem_1054``)."""
    parts = conjuncts(body) if want else _negated_conjuncts(body)
    if not parts:
        return None
    try:
        found = _periodic_set(v, and_(*parts), env)
    except Undecided:
        return None
    if found is None:
        return None
    nonempty = bool(found) if isinstance(found, frozenset) else True  # a PredSet only when infinite
    return nonempty if want else not nonempty


#: Most points ``_guard_points`` adds to a variable's probe values.
GUARD_POINTS = 16


@by_identity()
def _guard_points(v: Var, body: Term) -> list[Fraction | int]:
    """Points around the numerals ``body`` compares ``v`` with (c, c ± 1/2, c ± 1 and the
    midpoints between them), probed after the usual values: ``∀x. 0 ≤ x < 7 → f x = 2`` with
    a piecewise f is false at 6, which no small probe reaches. Remembered per quantifier: it
    is asked at every evaluation of one (read only, never changed by the caller)."""
    cs: set[Fraction] = set()
    for s in subterms(body):
        if isinstance(s, App) and s.op in ("lt", "le", "gt", "ge", "eq", "ne") and len(s.args) == 2:
            for a, b in (s.args, s.args[::-1]):
                if a == v and isinstance(b, Num) and isinstance(b.value, (int, Fraction)):
                    cs.add(Fraction(b.value))
    if not cs:
        return []
    ordered = sorted(cs)
    half = Fraction(1, 2)
    points = {p for c in ordered for p in (c - 1, c - half, c, c + half, c + 1)} | {(a + b) / 2 for a, b in zip(ordered, ordered[1:], strict=False)}
    if v.sort in (NAT, INT):
        points = {p for p in points if p.denominator == 1 and (v.sort == INT or p >= 0)}
    elif v.sort not in (RAT, REAL):
        return []
    out = sorted(points, key=lambda p: (abs(p), p))[:GUARD_POINTS]
    return [int(p) if p.denominator == 1 else p for p in out]


def _by_cells(t: Quant, want: bool, env: Env) -> bool | None:
    """A ∀ / ∃ over one number variable whose body compares polynomials in it, decided on the
    sign cells of those polynomials (``domains.polynomial_cells``): the body has one truth
    value on each open cell, so one rational point per cell and the roots (irrational ones
    by the field evaluator; none over ℚ) are every case; over ℕ / ℤ the integers next to each
    root (the least one above it stands for the cell after it) and the outer points (0 over ℕ). Why: a
    model's premise ``∀x. x² − m·x + n ≠ 0 ∨ x = p ∨ x = q`` was "∀ over an unbounded
    domain" whenever no probe refuted it. None when the body is not of that form, a root is
    too large for its integer neighbours to be found, or it is undecided at some point."""
    if len(t.vars) != 1:
        return None
    v = t.vars[0]
    cells = _cells_of(v, t.body, env)
    if cells is None:
        return None
    samples, roots = cells
    points: list[Any]
    if v.sort in (NAT, INT):
        near = _integers_near(roots)
        if near is None:
            return None
        points = sorted({int(samples[0]), int(samples[-1]), *near} | ({0} if v.sort == NAT else set()))
        points = [z for z in points if v.sort == INT or z >= 0]
    else:
        points = [*map(_number, samples), *(r for r in roots if v.sort == REAL or isinstance(r, Fraction))]
    undecided = False
    for x in points:
        if isinstance(x, AlgebraicReal):
            r = _at_irrational(t.body, env, v, x)
        else:
            _tick()
            r, exact, _ = _tri(t.body, {**env, v.name: x})
            r = r if exact else None
        if r is None:
            undecided = True
        elif r == want:
            return want
    return None if undecided else not want


#: Largest numeral exponent k of ``v powr k`` that ``_powr_pieces`` reads as a power.
MAX_POWR_PIECES_EXPONENT = 16
#: The unknown e = exp (Isabelle's ln at x ≤ 0): ``v powr k`` is eᵏ at every v < 0.
_EXP_LN_NEG = Var("exp(ln⁻)", REAL)


def _powr_pieces(t: Quant, want: bool, env: Env) -> bool | None:
    """A ∀ / ∃ over one number variable v whose body reads ``v powr k`` (k a positive integer
    numeral; the base v or v cast to ℝ), decided piece by piece: v > 0, where it is vᵏ (the
    quantifier over that half-line goes back to the evaluator: sign cells, identities); v = 0,
    where it is 0; and v < 0, where Isabelle's ``powr`` is exp (k · ln v) with ln one
    unspecified constant at every v ≤ 0 (``ln_neg_is_const``), so eᵏ for one e > 0 — its value
    when the assignment fixes ln there (``@ln``), else the piece is decided only when it is so
    for every e: a ∀ of an equation that is not an identity in v whatever e
    (``∀x. x² + 1 = x powr 2 + 1`` is false at x < 0: x² = e² fails somewhere). Why: GPT-4's
    Isabelle writes ``x powr 2`` for x², and every ∀ over such a body was "unbounded"."""
    if len(t.vars) != 1 or t.vars[0].sort not in (NAT, INT, RAT, REAL):
        return None
    v = t.vars[0]

    def exponent(s: Term) -> int | None:
        if isinstance(s, App) and s.op == "powr" and (s.args[0] == v or s.args[0] == cast(v, REAL)) \
                and isinstance(s.args[1], Num) and s.args[1].value == int(s.args[1].value) \
                and 0 < s.args[1].value <= MAX_POWR_PIECES_EXPONENT:
            return int(s.args[1].value)
        return None

    if not any(exponent(s) is not None for s in subterms(t.body)):
        return None

    def body_with(power: Callable[[Term, int], Term]) -> Term:
        return map_term(t.body, lambda s: power(s.args[0], k) if (k := exponent(s)) is not None else None)

    zero = Num(0, v.sort)

    def piece(guard: Term, body: Term) -> Term:
        return Quant(t.kind, (v,), and_(guard, body) if want else app("implies", guard, body))

    results: list[bool | None] = []
    r, exact, _ = _tri(piece(app("gt", v, zero), body_with(lambda b, k: app("pow", b, Num(k, NAT)))), env)
    results.append(r if exact else None)
    r, exact, _ = _tri(t.body, {**env, v.name: 0})
    results.append(r if exact else None)
    if v.sort != NAT:
        results.append(_negative_powr_piece(v, want, env, body_with, lambda body: piece(app("lt", v, zero), body)))
    if want in results:
        return want
    return None if None in results else not want


def _negative_powr_piece(v: Var, want: bool, env: Env, body_with: Callable[[Callable[[Term, int], Term]], Term],
                         piece: Callable[[Term], Term]) -> bool | None:
    """``_powr_pieces``' v < 0 piece, ``v powr k`` read as eᵏ (``piece``: the quantifier over
    v < 0 of a body). With ln fixed at x ≤ 0 by the assignment (a constant ``@ln`` table), e
    is known; otherwise only a ∀ of an equation that no e makes an identity in v is decided
    (False): an identity on the infinitely many v < 0 is one on every v."""
    fix = env.get("@ln")
    if isinstance(fix, FunTable) and not fix.entries and fix.fill is None:
        e = numeric.exp(fix.default)  # exactly 1 at ln = 0, else transcendental
        if not is_rational(e):
            return None
        r, exact, _ = _tri(piece(body_with(lambda b, k: Num(Fraction(e) ** k, REAL))), env)
        return r if exact else None
    if want:
        return None
    env = {k: x for k, x in env.items() if k != _EXP_LN_NEG.name}
    e_powers = body_with(lambda b, k: app("pow", _EXP_LN_NEG, Num(k, NAT)))
    if isinstance(e_powers, App) and e_powers.op == "implies" and _EXP_LN_NEG not in free_vars(e_powers.args[0]):
        # a guard no v < 0 meets (∀x. x > 0 → …): the piece holds whatever e
        r, exact, _ = _tri(Quant("exists", (v,), and_(app("lt", v, Num(0, v.sort)), e_powers.args[0])), env)
        if r is False and exact:
            return True
    if v not in free_vars(e_powers):  # a statement about e alone: true (false) for every e > 0?
        positive = app("gt", _EXP_LN_NEG, Num(0, REAL))
        for claim, answer in ((e_powers, True), (app("not", e_powers), False)):
            r, exact, _ = _tri(Quant("forall", (_EXP_LN_NEG,), app("implies", positive, claim)), env)
            if r is True and exact:
                return answer
        return None
    identity = polynomial_identity(Quant("forall", (v,), e_powers))
    if identity is None:
        return None
    r, exact, _ = _tri(identity, env)
    return r if exact else None


def _exponential_identity(t: Quant, env: Env) -> bool | None:
    """``∀n : ℕ. [c ≤ n →] L = R`` whose sides, with the other variables at their rational
    values, are the same exponential polynomial Σ cⱼ·n^dⱼ·rⱼⁿ (``closed_forms.PolynomialReader``,
    exact for n ≥ c): True (a geometric sequence's premise ``∀n ≥ 1. a·r^(n−1) = a / 3^(n−1)``
    with r = 1/3, probed and never refuted, was "∀ over an unbounded domain"). Two different
    ones give None, not False: a counterexample is the probes' to find."""
    if len(t.vars) != 1 or t.vars[0].sort != NAT:
        return None
    n, body, low = t.vars[0], t.body, 0
    if isinstance(body, App) and body.op == "implies":
        for g in conjuncts(body.args[0]):
            bound = numeral_lower_bound(g, n)
            if bound is None:
                return None
            low = max(low, bound)
        body = body.args[1]
    if not (isinstance(body, App) and body.op == "eq" and is_numeric(body.args[0].sort)) or body.args[0].sort == COMPLEX:
        return None
    scalars: dict[Var, Term] = {}
    for v in free_vars(body) - {n}:
        x = env.get(v.name)
        if isinstance(x, bool) or not isinstance(x, (int, Fraction)):
            return None
        scalars[v] = Num(x, v.sort)
    body = substitute(body, scalars) if scalars else body
    reader = PolynomialReader(n, low)
    sides = [reader.read(side) for side in body.args]
    if any(p is None or any(atoms or r == 0 for _, r, atoms in p) for p in sides):
        return None
    left, right = ({m: c for m, c in p.items() if c} for p in sides)  # type: ignore[union-attr]
    return True if left == right else None


def _at_finitely_many_points(t: Quant, env: Env) -> bool | None:
    """A ∀ / ∃ whose guard allows finitely many points, some irrational (``∀x. x² = 2 → x <
    a``), decided exactly at them by the algebraic evaluator (``algebraic._State.quantified``)
    when its free variables have number values; None otherwise."""
    point = {}
    for v in free_vars(t):
        x = env.get(v.name)
        if isinstance(x, bool) or not isinstance(x, (int, Fraction, AlgebraicReal)):
            return None
        point[v.name] = x
    _tick()
    return algebraic_truth(t, point)


def _witness_only(body: Term) -> Quant | None:
    """The ∃ a ∀'s body is false only where it is false (the body itself, or the conclusion
    of ``g → ∃ȳ. B``), or None."""
    while isinstance(body, App) and body.op == "implies":
        body = body.args[1]
    return body if isinstance(body, Quant) and body.kind == "exists" else None


def _probed_only(q: Quant, env: Env) -> bool:
    """No variable of the ∃ ``q`` has a finite domain under ``env``: ``q`` is then settled by
    a witness among probes or left undecided, never false, so a ∀ over it
    (``∀x. ∃a b c. p x = a·x² + b·x + c``) has no counterexample to find by probing. Asked at
    the ∀'s first probe only (a domain that appears at another is not looked for)."""
    restricting = guards("exists", q.body)
    value_of = _exact_value(env)
    return all(bound_domain(v, restricting, frozenset(q.vars) - {v}, value_of) is None for v in q.vars)


#: Probe combinations tried for a ∀/∃ over up to three unbounded variables.
PROBE_COMBINATIONS = 400
#: ... and for one probed inside another's probe: it is probed again at every outer probe
#: (``∀x. ∃a b c. p x = a·x² + b·x + c`` tried 400 × 400 combinations, ~40 s on one problem).
NESTED_PROBE_COMBINATIONS = 24


@functools.lru_cache(maxsize=256)
def _small_first(lengths: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """The first ``PROBE_COMBINATIONS`` position tuples for lists of ``lengths``, by increasing
    sum of positions: every variable runs over its small probes before any takes a large one
    (in ``itertools.product``'s order the first of three variables took only 3 of its 12
    values within the limit)."""
    def with_sum(ls: tuple[int, ...], total: int) -> Iterator[tuple[int, ...]]:
        if len(ls) == 1:
            if total < ls[0]:
                yield (total,)
            return
        for k in range(min(total, ls[0] - 1) + 1):
            for rest in with_sum(ls[1:], total - k):
                yield (k, *rest)

    if not lengths or any(n == 0 for n in lengths):
        return ()
    every = (p for total in range(sum(n - 1 for n in lengths) + 1) for p in with_sum(lengths, total))
    return tuple(itertools.islice(every, PROBE_COMBINATIONS))


#: ``_closures`` asks the free variables of the same ∀ at every probe of an outer binder.
_free_vars_of = by_identity()(free_vars)


def _rational_identity(t: Quant, env: Env) -> Any:
    """``∀x. [g →] L = R`` over ℝ with divisions: the zero rational function, checked exactly
    at each point where a divisor vanishes (``rational_identities``); None if not decided."""
    found = rational_identity(t, _exact_value(env))
    if found is None or not found.generic:
        return None
    v, exact = t.vars[0], True
    for r in found.exceptional:
        _tick()
        holds, ex, why = _tri(t.body, {**env, v.name: r})
        if holds is None:
            raise Undecided(why)
        if not holds:
            return truth_value(False, ex)
        exact &= ex
    return truth_value(True, exact)


def _closures(t: Quant, env: Env) -> dict[Var, tuple[tuple[Var, ...], Term]] | None:
    """The functions of ``t``'s body that ``env`` gives as closures, as definitions to unfold
    (``f`` → parameters and body), or None when one cannot be: its captured values differ
    from ``env``'s or the binder captures one of its free names."""
    bound = {v.name for v in t.vars}
    inner = t.body
    while isinstance(inner, Quant) and inner.kind == "forall":  # ∀x, ∀y, … binds them too
        bound |= {v.name for v in inner.vars}
        inner = inner.body
    funs: dict[Var, tuple[tuple[Var, ...], Term]] = {}
    for v in _free_vars_of(t.body):
        f = env.get(v.name)
        if not isinstance(f, Closure):
            continue
        params = {p.name for p in f.vars}
        others = {u.name for u in _free_vars_of(f.body)} - params
        if others & bound or any(n not in env or n not in f.env or f.env[n] != env[n] for n in others):
            return None
        funs[v] = (f.vars, f.body)
    return funs


def _differs(body: Term) -> tuple[Term, Term] | None:
    """(a, b) when ``body`` is ``a ≠ b`` or ``¬(a = b)``."""
    if isinstance(body, App) and body.op == "not" and isinstance(body.args[0], App) and body.args[0].op == "eq":
        body = app("ne", *body.args[0].args)
    if isinstance(body, App) and body.op == "ne" and len(body.args) == 2:
        return body.args[0], body.args[1]
    return None


def _unfolded_identity(t: Quant, env: Env) -> Term | None:
    """``∀x. f (x + 3) = 3x² + 7x + 4`` with ``f`` the closure λx. a·x² + b·x + c: a
    polynomial identity once the closure is unfolded (its coefficient equations in a, b, c)."""
    funs = _closures(t, env)
    return polynomial_identity(Quant(t.kind, t.vars, unfold(t.body, funs))) if funs else None


#: Members of a set known by its predicate that ``first_members`` finds, and how far it seeks.
PREDSET_MEMBERS, PREDSET_SCAN = 3, 10_000
#: First members per PredSet (scanned once, not at every evaluation of a ∀ over it); the set
#: itself is kept beside them, so that its id is not reused while cached.
_FIRST_MEMBERS: dict[int, tuple[PredSet, list[int]]] = {}


def first_members(pset: PredSet, tick: Callable[[], None] | None = None) -> list[int]:
    """The first ``PREDSET_MEMBERS`` naturals the set contains exactly, below ``PREDSET_SCAN``
    (fewer where it has fewer there, or where a membership is undecided: the scan stops).
    ``tick``: the evaluator's step counter, when called inside an evaluation."""
    hit = _FIRST_MEMBERS.get(id(pset))
    if hit is not None and hit[0] is pset:
        return hit[1]
    members: list[int] = []
    for n in range(PREDSET_SCAN):
        if tick is not None:
            tick()  # the step budget or the deadline: raised, nothing cached
        try:
            member = pset.contains(n)
        except Undecided:
            break
        if member is True:
            members.append(n)
            if len(members) == PREDSET_MEMBERS:
                break
    if len(_FIRST_MEMBERS) >= 64:
        _FIRST_MEMBERS.clear()
    _FIRST_MEMBERS[id(pset)] = (pset, members)
    return members


def _members_of_predsets(v: Var, body: Term, env: Env) -> list[Any]:
    """The first members of each set ``S`` (a ``PredSet`` of ℕ in ``env``) that ``body``
    tests ``v ∈ S`` against: where ``x ∈ S ↔ P x`` and ``x ∈ S ↔ P' x`` differ, if anywhere
    near (``14 n % 100 = 46`` holds first at 39, which the small probe values miss)."""
    if v.sort != NAT:
        return []
    out: list[Any] = []
    for s in subterms(body):
        if isinstance(s, App) and s.op == "mem" and s.args[0] == v and isinstance(s.args[1], Var):
            pset = env.get(s.args[1].name)
            if isinstance(pset, PredSet):
                out.extend(first_members(pset, _tick))
    return out


def _folded(t: Term) -> Term:
    """``t`` with its closed numeral arithmetic folded, as the normal form a recurrence's
    definition was read from folds it (``(3 / 5) * a n`` is ``3/5 * a n``)."""
    from provers.semantics.folding import fold_numerals  # folding evaluates: imported when asked

    return fold_numerals(t)


def _meets_definitions(t: Quant, env: Env) -> bool:
    """∀ȳ. [g →] f ȳ = e holds everywhere when ``env`` gives ``f`` the closure λȳ. e of that
    very definition (every term denotes in Lean and Isabelle, so e = e for every ȳ): with
    the closures unfolded the body reads ``g → e = e`` or ``e = e``. Only closures whose
    captured values agree with ``env`` and whose free names the binder does not capture."""
    for v in free_vars(t.body):
        f = env.get(v.name)
        if isinstance(f, PredSet) and f.definition is not None and f.definition == t:
            return True  # the set built from this very premise (its predicate closed)
        if isinstance(f, Sequence) and f.definition in (t, _folded(t)):
            others = {u.name for u in free_vars(t)} - {f.name}
            if all(n in env and n in f.env and f.env[n] == env[n] for n in others):
                return True  # the recurrence it was computed by
    funs = _closures(t, env)
    if not funs:
        return False
    # a closure λi. e[n := to_nat i] over ℤ applied at ↑n reads e again (to_nat (↑n) = n)
    body = map_term(unfold(t.body, funs), _natural_again)
    params = list(t.vars)
    while isinstance(body, Quant) and body.kind == "forall":  # `∀ x, ∀ y, y ≠ 0 → f x y = …`
        params += body.vars
        body = body.body
    if isinstance(body, App) and body.op == "implies":
        g, body = body.args
        if not any(isinstance(s, (Quant, SetBuilder, BigOp, Lam)) for s in subterms(body)):
            # under its guard (no binder in between), `if g then e else e'` is e
            body = map_term(body, lambda s: s.args[1] if isinstance(s, App) and s.op == "ite" and s.args[0] == g else None)
            if isinstance(body, App) and body.op == "eq" and body.args[0] != body.args[1]:
                # a piecewise closure: the branch its guard selects (`if x < 0 then … else if
                # 0 ≤ x ∧ x < 4 then 2 else …` is 2 wherever 0 ≤ x < 4)
                body = app("eq", *(_branch_under(a, g, tuple(params), env) for a in body.args))
    return isinstance(body, App) and body.op in ("eq", "iff") and len(body.args) == 2 and body.args[0] == body.args[1]


#: Most conditions of an ``if`` chain ``_branch_under`` decides.
MAX_GUARDED_BRANCHES = 8


def _branch_under(e: Term, g: Term, params: tuple[Var, ...], env: Env) -> Term:
    """``e``'s ``if c then a else b`` chain reduced where ``g`` holds: c is dropped as false
    when ∃ȳ. g ∧ c is exactly false, taken as true when ∃ȳ. g ∧ ¬c is."""
    for _ in range(MAX_GUARDED_BRANCHES):
        if not (isinstance(e, App) and e.op == "ite"):
            break
        c, a, b = e.args
        if c == g:
            e = a
            continue
        for branch, other in ((a, app("not", c)), (b, c)):
            r, exact, _ = _tri(Quant("exists", params, app("and", g, other)), env)
            if r is False and exact:
                e = branch
                break
        else:
            break
    return e


def _natural_again(t: Term) -> Term | None:
    """``to_nat (↑n)`` as ``n`` for a natural ``n``."""
    if isinstance(t, App) and t.op == "to_nat" and isinstance(t.args[0], App) and t.args[0].op == "cast" \
            and t.args[0].args[0].sort == NAT:
        return t.args[0].args[0]
    return None


#: Values of closed big operators and set-builders (no free variable, no uninterpreted
#: symbol): the same ``∑ k in Icc 1 1319, …`` or ``card {n | 100 ≤ n ≤ 999 ∧ 11 ∣ n}`` is
#: evaluated under every candidate model and sampled point of an obligation.
_CLOSED_VALUES: dict[Term, Any] = {}
_CLOSED_VALUES_MAX = 256


#: Closed terms whose evaluation ran out of steps, by (term, probing depth, probes) → the
#: most steps it was given: evaluation is deterministic, so given no more it fails again
#: (problem_880's ``card {x. 1000 ≤ x ≤ 9999 ∧ ∃a b c. …}`` ran to the budget at every
#: sampled point of a fingerprint, 2 s each).
_CLOSED_EXHAUSTED: dict[tuple, int] = {}


def _closed_cached(t: Term, env: Env, compute: Callable[[Term, Env], Any]) -> Any:
    closed = not free_vars(t) and not any(isinstance(s, Uninterpreted) for s in subterms(t))
    if not closed:
        return compute(t, env)
    if t in _CLOSED_VALUES:
        return _CLOSED_VALUES[t]
    key: tuple | None = (t, getattr(_steps, "probing", 0), env.get(PROBES))
    try:
        hash(key)
    except TypeError:
        key = None
    given = getattr(_steps, "left", STEP_BUDGET)
    if key is not None and _CLOSED_EXHAUSTED.get(key, -1) >= given:
        _steps.left = -1
        raise Undecided(STEP_BUDGET_REASON)
    try:
        value = compute(t, env)
    except Undecided:
        if key is not None and getattr(_steps, "left", 0) < 0:
            if len(_CLOSED_EXHAUSTED) >= _CLOSED_VALUES_MAX:
                _CLOSED_EXHAUSTED.clear()
            _CLOSED_EXHAUSTED[key] = max(given, _CLOSED_EXHAUSTED.get(key, -1))
        raise
    if len(_CLOSED_VALUES) >= _CLOSED_VALUES_MAX:
        _CLOSED_VALUES.clear()
    _CLOSED_VALUES[t] = value
    return value


#: ranges longer than this are summed through their closed form when there is one
CLOSED_FORM_FIRST = 64


@functools.lru_cache(maxsize=4096)
def _sums_inside(body: Term) -> bool:
    """Whether a big operator's body holds another one (asked at every evaluation of it)."""
    return any(isinstance(s, BigOp) for s in subterms(body))


def _bigop(t: BigOp, env: Env) -> Any:
    return _closed_cached(t, env, _bigop_value)


def _bigop_value(t: BigOp, env: Env) -> Any:
    try:
        domain = _ev(t.domain, env)
        if isinstance(domain, PredSet) and domain.infinite is True:
            # Isabelle's sum / prod over an infinite set is 0 / 1 (comm_monoid_set.F); a Lean
            # Finset is never infinite
            return numeric.zero(t.sort) if t.kind == "sum" else numeric.one(t.sort)
        dom = finite_elements(domain, f"domain of {'∑' if t.kind == 'sum' else '∏'}")
        if len(dom) > MAX_DOMAIN:
            raise Undecided("big operator over too large a domain")
    except Undecided:
        closed = closed_form(t)  # equal for every value of the bounds: exact on huge ranges
        if closed is None:
            raise
        return _ev(closed, env)
    if len(dom) > CLOSED_FORM_FIRST or _sums_inside(t.body):
        closed = closed_form(t)  # a sum of sums is quadratic in its range; the closed form is not
        if closed is not None:
            return _ev(closed, env)
    acc: Any = numeric.zero(t.sort) if t.kind == "sum" else numeric.one(t.sort)
    op = "add" if t.kind == "sum" else "mul"
    for x in sorted(dom, key=_sort_key):
        _tick()
        acc = numeric.arith(op, t.sort, [acc, _ev(t.body, {**env, t.var.name: x})])
    return normalized(acc)


def _sort_key(x: Any) -> Any:
    return (0, x) if is_rational(x) else (1, repr(x))


_ORDER_ATOMS = frozenset({"lt", "le", "gt", "ge"})


def _without_range_bounds(v: Var, body: Term, dom: range, env: Env) -> Term:
    """``body`` without its conjuncts ``v ⋈ e`` / ``e ⋈ v`` (e free of v) that hold at both
    ends of the integer range ``dom``, hence at every member (the solutions of v ⋈ e are an
    interval): ``card {n. 1000 ≤ n ∧ n < 10000 ∧ p n}`` tests only ``p n`` per member."""
    if len(dom) < 2:
        return body
    parts = conjuncts(body)
    keep = []
    for g in parts:
        if (isinstance(g, App) and g.op in _ORDER_ATOMS and v in g.args
                and not any(v in free_vars(a) for a in g.args if a != v)
                and all(_tri(g, {**env, v.name: x})[:2] == (True, True) for x in (dom[0], dom[-1]))):
            continue
        keep.append(g)
    if len(keep) == len(parts):
        return body
    return app("and", *keep) if len(keep) > 1 else keep[0] if keep else TRUE


def _polynomial_set(v: Var, body: Term, env: Env) -> Any:
    """``{v | body}`` decided by the sign cells of the polynomials ``body`` compares
    (``domains.polynomial_cells``): infinite (a ``PredSet``) when ``body`` is exactly true at
    a point of an open cell, so on the whole cell; when it is exactly false at every such
    point, the finite set of its members among the candidates left (the rational roots over
    ℝ / ℚ; over ℕ / ℤ the integers between the outer points); None otherwise."""
    cells = _cells_of(v, body, env)
    if cells is None:
        return None
    samples, roots = cells
    irrational = [r for r in roots if not isinstance(r, Fraction)]
    members: range | list[Any] | None
    if v.sort in (NAT, INT):
        # beyond every root (below too over ℤ) the body has one truth value; the set lies
        # between those outer points, from 0 over ℕ (whose lower cell is not sampled)
        low, high = int(samples[0]), int(samples[-1])
        probes = [max(high, 0)] if v.sort == NAT else [low, high]
        start = 0 if v.sort == NAT else low + 1
        members = range(start, high) if high - start <= MAX_DOMAIN else None
    else:
        probes = [_number(q) for q in samples]
        members = [_number(q) for q in roots if isinstance(q, Fraction)]

    def holds(x: Any) -> bool | None:
        _tick()
        r, ex, _ = _tri(body, {**env, v.name: x})
        return r if ex else None

    everywhere_false = True
    for x in probes:
        r = holds(x)
        if r:
            return PredSet(v.sort, lambda y: _ev(body, {**env, v.name: y}), True)
        everywhere_false = everywhere_false and r is False
    if not everywhere_false or members is None:
        return None
    if v.sort in (REAL, RAT) and any(_at_irrational(body, env, v, r) is not False for r in irrational):
        return None  # an irrational member (or one undecided): the set is not a set of numerals
    keep = []
    for x in members:
        r = holds(x)
        if r is None:
            return None
        if r:
            keep.append(x)
    return frozenset(keep)


def _at_irrational(body: Term, env: Env, v: Var, r: AlgebraicReal) -> bool | None:
    """``body`` at the irrational root ``r`` (exact, by the field evaluator); over ℚ it is no
    member whatever ``body`` says."""
    _tick()
    return False if v.sort == RAT else algebraic_truth(body, {**env, v.name: r})


def _number(q: Fraction) -> int | Fraction:
    return int(q) if q.denominator == 1 else q


#: Finite set-builder values by the values they read (``memo``): ``{n ∈ {1000..9999}. n =
#: reverse n}`` with ``reverse`` a closure was enumerated again at every sampled point of
#: every obligation (1103 times, most of ``problem_880``'s time; docs/benchmarks.md, stop 43).
SET_VALUES = Memo(max_entries=256)


def _image_set(t: SetBuilder, env: Env) -> frozenset | None:
    """``{x | (∃k̄. x = e k̄ ∧ φ k̄) ∧ ψ x}`` as the values of e at the k̄ that satisfy
    φ k̄ ∧ ψ (e k̄), when those k̄ lie in finite domains. Why: Isabelle's ``{(a, b). P a b}``
    is ``{p | ∃a b. p = (a, b) ∧ P a b}``, and a pair variable has no domain of its own to
    enumerate (``domains.bound_domain`` bounds it only through its components' guards
    written on p); nor has an x bounded only through k̄. None when the body has no such ∃ or
    some k is not bounded."""
    v = t.var
    parts = conjuncts(t.body)
    for i, part in enumerate(parts):
        if not (isinstance(part, Quant) and part.kind == "exists"):
            continue
        inner = conjuncts(part.body)
        for j, eq in enumerate(inner):
            e = _solved_for(v, eq)
            if e is None or not free_vars(e) & set(part.vars):
                continue
            conds = [substitute(c, {v: e}) for c in inner[:j] + inner[j + 1:] + parts[:i] + parts[i + 1:]]
            out: set[Any] = set()
            try:
                if _collect_images(part.vars, conds, e, env, out, [MAX_DOMAIN]):
                    return frozenset(out)
            except Undecided:
                return None
    return None


def _solved_for(v: Var, eq: Term) -> Term | None:
    """e when ``eq`` is ``v = e`` or ``e = v`` with v not in e."""
    if not (isinstance(eq, App) and eq.op == "eq"):
        return None
    a, b = eq.args
    if a == v and v not in free_vars(b):
        return b
    if b == v and v not in free_vars(a):
        return a
    return None


def _collect_images(ks: tuple[Var, ...], conds: list[Term], e: Term, env: Env, out: set[Any],
                    left: list[int]) -> bool:
    """Add to ``out`` the value of ``e`` at every k̄ (over finite domains) where all ``conds``
    hold exactly; False when some k has no finite domain. ``Undecided`` when a condition is,
    or past ``left[0]`` points (``domains.MAX_DOMAIN``: three witnesses over 0..10⁴ would
    spend the whole step budget before failing)."""
    if not ks:
        left[0] -= 1
        if left[0] < 0:
            raise Undecided("image set over more points than a domain may have")
        for c in conds:
            r, ex, why = _tri(c, env)
            if r is None or not ex:
                raise Undecided(why or "image-set condition decided only approximately")
            if not r:
                return True
        x = _ev(e, env)
        if is_approx(x) or isinstance(x, Undetermined):
            raise Undecided("an image known only approximately")  # equal images would not merge
        out.add(x)
        return True
    for i, k in enumerate(ks):
        others = ks[:i] + ks[i + 1:]
        dom = bound_domain(k, conds, frozenset(others), _exact_value(env), _enclosure_bounds(env))
        if dom is None:
            continue
        for x in dom:
            _tick()
            if not _collect_images(others, conds, e, {**env, k.name: x}, out, left):
                return False
        return True
    return False


def _remembered_setbuilder(t: SetBuilder, env: Env) -> Any:
    key, got = SET_VALUES.lookup(t, env)
    if got is not Memo.MISSING:
        return got
    value = _setbuilder(t, env)
    if key is not None and isinstance(value, frozenset):  # a set known by its predicate keeps its env
        SET_VALUES.put(key, value)
    return value


def _periodic_set(v: Var, body: Term, env: Env) -> frozenset | PredSet | None:
    """``{v | body}`` over an integer interval cut by periodic conditions
    (``domains.periodic_interval``): the conditions evaluated over one period, the members
    written out (up to ``MAX_INTERVAL``), or None. Over an interval unbounded on a side, a
    residue where they hold recurs forever: an infinite set (``{d :: int. d mod 10 = 3}``,
    whose card Isabelle takes as 0); none, the empty set."""
    found = periodic_interval(v, body, _exact_value(env))
    if found is None:
        return None
    lo, hi, removed, rest, period = found
    if lo is not None and hi is not None and hi < lo:
        return frozenset()
    if lo is not None and hi is not None and hi - lo + 1 > MAX_INTERVAL:
        return None
    condition = and_(*rest)
    start = lo if lo is not None else hi - period + 1 if hi is not None else 0
    end = min(hi, start + period - 1) if hi is not None else start + period - 1
    residues = []
    for x in range(start, end + 1):
        _tick()
        r, exact, why = _tri(condition, {**env, v.name: x})
        if r is None or not exact:
            raise Undecided(why or "a periodic condition decided only approximately")
        if r:
            residues.append(x)
    if lo is None or hi is None:
        if not residues:
            return frozenset()
        return PredSet(v.sort, lambda x: _ev(body, {**env, v.name: x}), True)
    return frozenset(y for x in residues for y in range(x, hi + 1, period)) - removed


def _setbuilder(t: SetBuilder, env: Env) -> Any:
    v = t.var
    parts = conjuncts(t.body)
    fixed = [g for g in parts if v not in free_vars(g)]
    if fixed:  # conjuncts v does not occur in: exactly false, the set is empty; true, they go
        r, exact, _ = _tri(and_(*fixed), env)
        if r is False and exact:
            return frozenset()
        if r is True and exact:  # ``{n | n. h0 ∧ h1}`` with h0, h1 hypothesis names (free truth values)
            return _setbuilder(SetBuilder(v, and_(*(g for g in parts if v in free_vars(g)))), env)
    dom = bound_domain(v, parts, frozenset(), _exact_value(env), _enclosure_bounds(env))
    if dom is None and (interval := integer_interval(v, t.body, _exact_value(env))) is not None:
        return interval
    if dom is None and (periodic := _periodic_set(v, t.body, env)) is not None:
        return periodic
    tabled = _tabled_set(t, env) if dom is None else None
    if isinstance(tabled, PredSet):
        return tabled
    if tabled is not None:
        dom = tabled  # no member off the tables' listed points: those are the domain
    if dom is not None:
        keep = []
        parts = split_pair(v, t.body) if isinstance(v.sort, ProdSort) else None
        body = _without_range_bounds(v, t.body, dom, env) if isinstance(dom, range) else t.body
        for x in dom:
            _tick()
            if parts is not None:  # a pair: its body over the components
                r, ex, why = _tri(parts[2], {**env, parts[0].name: x[0], parts[1].name: x[1]})
            else:
                r, ex, why = _tri(body, {**env, v.name: x})
            if r is None or not ex:
                raise Undecided(why or "set-builder membership decided only approximately")
            if r:
                keep.append(x)
        return frozenset(keep)
    image = _image_set(t, env)
    if image is not None:
        return image

    def contains(x: Any) -> Any:
        return _ev(t.body, {**env, v.name: x})

    infinite = dense_interval_infinite(v, t.body, _exact_value(env), _enclosure_bounds(env))
    if infinite is False:
        return frozenset()
    if infinite is None and integer_ray_infinite(v, t.body, _exact_value(env)):
        infinite = True  # {n. 1 ≤ n}: Isabelle's {1..}
    if infinite is None:  # {x. 0 < x ∧ x² + 4x + 4 < 20}: an open interval of ℝ or ℚ
        decided = _polynomial_set(v, t.body, env)
        if decided is not None:
            return decided
    if infinite is None and _infinite_slice(t, env):
        infinite = True
    return PredSet(v.sort, contains, infinite)


#: Values each other component of a tuple takes while one is looked at (``_infinite_slice``),
#: and the most such points per component (smallest first: a pair's other component takes
#: all six values, a triple's other two their first combinations).
SLICE_VALUES = 6
SLICE_POINTS = 12


def _infinite_slice(t: SetBuilder, env: Env) -> bool:
    """Whether a set of tuples ``{(a, b). φ a b}`` is infinite because one slice is: with the
    other components at small values, the polynomial cells of the one left
    (``_polynomial_set``) show φ true on an open interval, or beyond every root over ℕ / ℤ.
    Why: ``card {(a, b). 0 < a < 100 ∧ 0 < b < 100 ∧ a ≠ b}`` over ℝ × ℝ is 0 in Isabelle
    (card of an infinite set) and was "not a known finite set"; so was a set of triples one
    of whose disjuncts leaves two components free."""
    split = split_tuple(t.var, t.body) if isinstance(t.var.sort, ProdSort) else None
    if split is None:
        return False
    components, phi = split
    if t.var in free_vars(phi):
        return False  # still read as a whole tuple somewhere
    components, phi = eliminate_components(components, phi)
    if phi == TRUE and components:
        return True  # a component left free: a copy of ℕ, ℤ, ℚ or ℝ
    tops = conjuncts(phi)
    for free in components:
        if any(pins_finitely(free, g) for g in tops):
            continue  # every slice through free is finite (x + y − z = 0 fixes x)
        others = [c for c in components if c != free]
        values = [probe_values(c.sort)[:SLICE_VALUES] for c in others]
        points = sorted(itertools.product(*(range(len(vs)) for vs in values)), key=lambda ix: (sum(ix), ix))
        for ix in points[:SLICE_POINTS]:
            xs = [vs[i] for vs, i in zip(values, ix, strict=True)]
            _tick()
            at = {c: Num(x, c.sort) for c, x in zip(others, xs, strict=True)}
            found = _polynomial_set(free, substitute(phi, at), env)
            if isinstance(found, PredSet) and found.infinite:
                return True
    return False
