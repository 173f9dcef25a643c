"""Assignments to evaluate at, and fingerprints (truth values at those assignments).

Why: two formulas over aligned variables whose exact truth values differ at some assignment
are inequivalent, and that assignment is the countermodel; sampling finds most such pairs
before any solver runs. Boundary points (0, ±1, 2) and the numerals a statement mentions
(``x < 1`` against ``x ≤ 1``) are where formalizations most often differ.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any

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
    ListSort,
    Num,
    OpaqueSort,
    ProdSort,
    Quant,
    SetBuilder,
    SetSort,
    Sort,
    Term,
    Var,
    app,
    conjuncts,
    free_vars,
    num,
    subterms,
)
from provers.semantics.approx import normalized
from provers.semantics.evaluate import evaluate, truth
from provers.semantics.pairs import components
from provers.semantics.polynomials import linear_solutions
from provers.semantics.values import ExactComplex, FunTable, Opaque, Undecided, Value, Witness

_BOUNDARY = (0, 1, -1, 2)


def _sample_value(sort: Sort, rng: random.Random, boundary: int | None) -> Any:
    if sort == BOOL:
        return rng.random() < 0.5 if boundary is None else boundary % 2 == 1
    if sort in (NAT, INT, RAT, REAL, COMPLEX):
        return _sample_number(sort, rng, boundary)
    if isinstance(sort, FunSort):
        default = _sample_value(sort.result, rng, None)
        entries = {}
        for _ in range(rng.randint(0, 4)):
            key = tuple(_sample_value(a, rng, rng.choice([None, 0, 1, 2])) for a in sort.args)
            entries[key] = _sample_value(sort.result, rng, None)
        return FunTable(entries, default)
    if isinstance(sort, SetSort):
        return frozenset(_sample_value(sort.elem, rng, None) for _ in range(rng.randint(0, 4)))
    if isinstance(sort, ListSort):
        return tuple(_sample_value(sort.elem, rng, None) for _ in range(rng.randint(0, 4)))
    if isinstance(sort, ProdSort) and sort.parts:  # a pair (a point of ℝ²): its components
        return tuple(_sample_value(p, rng, boundary) for p in sort.parts)
    if isinstance(sort, OpaqueSort):
        return Opaque(sort.name, rng.randint(0, 2))
    raise ValueError(f"cannot sample values of sort {sort}")


def _sample_number(sort: Sort, rng: random.Random, boundary: int | None) -> Any:
    if boundary is not None:
        b = _BOUNDARY[boundary]
        if sort == NAT and b < 0:
            b = 3
        return ExactComplex(b, 0) if sort == COMPLEX else b
    if sort == NAT:
        return rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 10, 12, rng.randint(0, 100)])
    if sort == INT:
        return rng.choice([0, 1, -1, 2, -2, 3, -3, 5, -7, 10, rng.randint(-100, 100)])
    frac = rng.choice([
        Fraction(rng.randint(-10, 10)), Fraction(rng.randint(-20, 20), rng.randint(1, 6)),
        Fraction(1, 2), Fraction(-3, 2), Fraction(rng.randint(-1000, 1000), rng.randint(1, 50)),
    ])
    if sort == COMPLEX:
        return ExactComplex(frac, Fraction(rng.randint(-4, 4), rng.randint(1, 3)))
    return normalized(frac)


#: Largest numeral c at which a finite set variable is also probed as {0, …, c − 1}.
MAX_CARD_PROBE = 1000


def numeral_probes(
    variables: Sequence[Var], terms: Iterable[Term], base: dict[str, Value] | None = None, limit: int = 12
) -> list[dict[str, Value]]:
    """Assignments putting every numeric variable at each numeral c of ``terms`` and at c ± 1:
    the boundary cases (``x < 1`` vs ``x ≤ 1``) that random points rarely hit. ``base`` gives
    the values of the other variables; a point where some variable gets no value is skipped."""
    values: list[Fraction] = []
    for t in terms:
        for s in subterms(t):
            if isinstance(s, Num):
                for d in (0, 1, -1):
                    c = Fraction(s.value) + d
                    if c not in values:
                        values.append(c)
    out: list[dict[str, Value]] = []
    for c in values[:limit]:
        env: dict[str, Value] = dict(base or {})
        for v in variables:
            if v.sort in (NAT, INT) and c.denominator == 1 and (v.sort == INT or c >= 0):
                env[v.name] = int(c)
            elif v.sort in (RAT, REAL):
                env[v.name] = c
            elif isinstance(v.sort, SetSort) and v.sort.elem in (NAT, INT) and c.denominator == 1 \
                    and (v.sort.elem == INT or c >= 0):
                env[v.name] = frozenset({int(c)})  # `∑ k in S, k = 24` holds at S = {24}
        if all(v.name in env for v in variables):
            out.append(env)
    sets = [v for v in variables if isinstance(v.sort, SetSort) and v.sort.elem in (NAT, INT)]
    point = out[0] if out else dict(base or {})
    out += _point_probes(variables, terms, point, limit)
    for c in values[:limit] if sets else []:
        if c.denominator == 1 and 1 <= c <= MAX_CARD_PROBE:  # `S.card = 8` holds at S = {0, …, 7}
            env = {**point, **{v.name: frozenset(range(int(c))) for v in sets}}
            if all(v.name in env for v in variables):
                out.append(env)
    return out


def _point_probes(variables: Sequence[Var], terms: Iterable[Term], point: dict[str, Value],
                  limit: int) -> list[dict[str, Value]]:
    """Assignments putting every pair variable at each closed pair of ``terms`` with an exact
    value (``α = (3/5, 57/5)``: the point a "find the vector" answer names)."""
    pairs = [v for v in variables if isinstance(v.sort, ProdSort)]
    if not pairs:
        return []
    values: list[tuple] = []
    for t in terms:
        for s in subterms(t):
            if isinstance(s.sort, ProdSort) and components(s) is not None and not free_vars(s):
                try:
                    value = evaluate(s, {})
                except (Undecided, ArithmeticError, ValueError):
                    continue
                if isinstance(value, tuple) and value not in values:
                    values.append(value)
    out = []
    for value in values[:limit]:
        env = {**point, **{v.name: value for v in pairs if len(v.sort.parts) == len(value)}}  # type: ignore[union-attr]
        if all(v.name in env for v in variables):
            out.append(env)
    return out


def sample_assignments(variables: Sequence[Var], n: int = 32, seed: int = 0) -> list[dict[str, Value]]:
    """``n`` assignments of the right sorts: first the boundary points (all 0, all 1, all -1
    (3 for Nat), all 2), then random small integers, fractions, tables and finite sets.

    Remembered by (variables, n, seed), which fix the points: a problem's checks ask for the
    same variables' points again and again (2087 of 2256 calls on the 40-problem sample, 0.8 s
    of Fraction arithmetic). Each call gets its own dicts; the values (numbers, frozensets,
    tuples, tables without a ``fill``) are not changed by their readers."""
    return [dict(p) for p in _assignments(tuple(variables), n, seed)]


@functools.lru_cache(maxsize=1024)
def _assignments(variables: tuple[Var, ...], n: int, seed: int) -> tuple[dict[str, Value], ...]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        boundary = i if i < len(_BOUNDARY) else None
        out.append({v.name: _sample_value(v.sort, rng, boundary) for v in variables})
    return tuple(out)


def _unrounded(t: Term) -> Term:
    """``⌊e⌋ = c`` holds where e = c (c an integer): the rounding and casts stripped."""
    while isinstance(t, App) and t.op in ("floor", "ceil", "cast") and len(t.args) == 1:
        t = t.args[0]
    return t


def solution_points(formula: Term) -> list[dict[str, Value]]:
    """Points where the equations among ``formula``'s conjuncts hold, each linear in one
    variable (``x = 6``, ``100 * r = 743``, ``⌊100 * r⌋ = 743``): a conclusion's answer. At
    such a point a faithful statement's premises usually hold too, so two premise sets are
    worth comparing there (random points almost never meet ``∑ k in Icc 19 91, ⌊r + k/100⌋ =
    546``). All the solutions together first, then each alone."""
    found: dict[str, Value] = {}
    for atom in conjuncts(formula):
        if not (isinstance(atom, App) and atom.op == "eq" and len(atom.args) == 2):
            continue
        vs = free_vars(atom)
        if len(vs) != 1:
            continue
        v = next(iter(vs))
        if v.name in found:
            continue
        a, b = atom.args
        sols = linear_solutions(v, _unrounded(a), _unrounded(b)) if v.sort in (NAT, INT, RAT, REAL) else None
        if sols and len(sols) == 1:
            found[v.name] = next(iter(sols))
    if not found:
        return []
    return [found] + ([{k: x} for k, x in found.items()] if len(found) > 1 else [])


#: Largest |value| per variable ``integer_points`` enumerates, by number of variables.
INTEGER_BOX = {1: 2000, 2: 40, 3: 12}
#: ... and with a real (or rational) variable among them: its integer points are a sample,
#: not a search of the whole domain (`(x·√x³)⁴ = x powr 10` at 4001 points cost 1.3 s)
REAL_BOX = 12


def integer_points(variables: Sequence[Var]) -> list[dict[str, Value]]:
    """Every assignment of small integers to ℕ/ℤ/ℚ/ℝ ``variables`` (|value| ≤ ``INTEGER_BOX``),
    smallest first (by the sum of the values' ranks 0, 1, −1, 2, −2, …): where a system like
    ``x·y + x + y = 71 ∧ x²·y + x·y² = 880`` has its model (5, 11), which neither sampling nor
    a nonlinear-integer solver within a second finds; and where a real countermodel of an
    identity with π or ``powr`` lies (``h·π·r powr 2 = 40π`` at h = 10, r = 2), which the
    solvers give only at irrational points the exact evaluator cannot confirm. Empty for
    other sorts or too many variables."""
    if len(variables) not in INTEGER_BOX or any(v.sort not in (NAT, INT, RAT, REAL) for v in variables):
        return []
    names = [v.name for v in variables]
    bound = INTEGER_BOX[len(variables)]
    if any(v.sort in (RAT, REAL) for v in variables):
        bound = min(bound, REAL_BOX)
    return [dict(zip(names, combo, strict=True)) for combo in _integer_box(tuple(v.sort == NAT for v in variables), bound)]


#: Trigonometric operations whose values at multiples of π/12 are exact surds (``surds``).
TRIGONOMETRIC = frozenset({"sin", "cos", "tan"})
#: Multiples k of π/12 ``angle_points`` tries, the common angles first (0, π/6, π/4, π/3, …).
ANGLE_STEPS = (0, 2, 3, 4, 6, 8, 9, 10, 12, 14, 15, 16, 18, 20, 21, 22, 1, 5, 7, 11, 13, 17, 19, 23)
#: How many of them per variable, by number of angle variables.
ANGLES_PER_VARIABLE = {1: 24, 2: 7}


def angle_points(variables: Sequence[Var], body: Term) -> list[dict[str, Value]] | None:
    """Assignments of common angles kπ/12 (as ``Witness`` terms, exact through ``surds``) to
    ``variables`` when every one is real and occurs in ``body`` only inside the argument of
    sin / cos / tan (``(sin x) powr 4 + …``): where such a statement's models lie (π/4), which
    the solvers know only through approximations and integer points only through interval
    certificates. None when the variables are not all such angles."""
    if not variables or len(variables) not in ANGLES_PER_VARIABLE or any(v.sort != REAL for v in variables):
        return None
    angles = set(variables)
    inside: set[Var] = set()
    stack: list[tuple[Term, bool]] = [(body, False)]
    while stack:
        t, under_trig = stack.pop()
        if isinstance(t, Var):
            if t in angles and not under_trig:
                return None
            inside.add(t)
        elif isinstance(t, App):
            trig = under_trig or t.op in TRIGONOMETRIC
            stack.extend((a, trig) for a in t.args)
        elif isinstance(t, (Quant, Lam, BigOp, SetBuilder)):
            return None  # a binder: keep to the plain trigonometric identities
    if not angles <= inside:
        return None
    steps = ANGLE_STEPS[:ANGLES_PER_VARIABLE[len(variables)]]
    values = [0 if k == 0 else Witness(app("mul", num(Fraction(k, 12), REAL), app("pi"))) for k in steps]
    names = [v.name for v in variables]
    ranks = sorted(itertools.product(range(len(values)), repeat=len(names)), key=sum)
    return [{n: values[i] for n, i in zip(names, combo, strict=True)} for combo in ranks]


@functools.lru_cache(maxsize=16)
def _integer_box(naturals: tuple[bool, ...], bound: int) -> list[tuple[int, ...]]:
    values = [[0, *(x for i in range(1, bound + 1) for x in ((i,) if nat else (i, -i)))] for nat in naturals]
    ranks = sorted(itertools.product(*(range(len(vs)) for vs in values)), key=sum)
    return [tuple(values[i][r] for i, r in enumerate(combo)) for combo in ranks]


def fingerprint(formula: Term, variables: Sequence[Var], samples: Sequence[dict[str, Value]]) -> tuple[bool | None, ...]:
    """Exact truth values of ``formula`` on each sample (None where not exactly decided).

    Two formulas over aligned variables whose fingerprints differ at a position where both
    are exact are inequivalent, and that sample is a countermodel.
    """
    names = {v.name for v in variables}
    missing = {v.name for v in free_vars(formula)} - names
    if missing:
        raise ValueError(f"fingerprint: free variables {sorted(missing)} are not among the given variables")
    return tuple(truth(formula, s) for s in samples)
