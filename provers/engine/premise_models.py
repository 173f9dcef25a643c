"""Models of a normal form's premises, as answer pinning needs them.

Why a module of its own: a pin is only as good as its models — a solver's model counts only
once the exact evaluator finds ⋀Γ exactly true there (``premises_model``, ``validated``: a
solver's choice for an uninterpreted symbol is no model, and a variable whose sort may be empty
needs a value), variables Γ never mentions take a default (``complete_model``), an answer read
through a function the statement never defines is shown free by another constant for it
(``other_value``), and premises such as ``gcd a b = 9 ∧ lcm a b = 5040`` get their models
from small integers when the solvers, which see gcd and lcm through a few axioms, give none
(``enumerated_model``). ``answers.pin_answer`` asks these; nothing here asks a solver.
"""

from __future__ import annotations

import collections
import itertools
import time
from typing import Any

from provers.deadline import Deadline
from provers.engine.definitions import Value, value_of
from provers.engine.normal import NormalForm
from provers.ir import (
    BOOL,
    INT,
    NAT,
    RAT,
    REAL,
    App,
    FunSort,
    ListSort,
    Num,
    Sort,
    Term,
    Var,
    free_vars,
    provably_inhabited,
    subterms,
)
from provers.semantics.approx import is_rational
from provers.semantics.domains import probe_values
from provers.semantics.evaluate import Closure, truth
from provers.semantics.values import FunTable

#: A value of a base sort that every such sort has (for variables Γ does not mention).
_DEFAULT = {NAT: 0, INT: 0, RAT: 0, REAL: 0, BOOL: False}

Model = dict[str, Any]


def complete_model(model: Model, vs: tuple[Var, ...] | list[Var]) -> Model | None:
    """``model`` with a default value for each variable of ``vs`` it lacks (None if a lacking
    variable's sort has no default: its values cannot be invented). A function into a sort
    with a default defaults to that constant function."""
    out = dict(model)
    for v in vs:
        if v.name not in out:
            if v.sort in _DEFAULT:
                out[v.name] = _DEFAULT[v.sort]
            elif isinstance(v.sort, FunSort) and _has_constants(v.sort.result):
                out[v.name] = FunTable({}, _constants(v.sort.result)[0])
            else:
                return None
    return out


def _has_constants(s: Sort) -> bool:
    """A sort whose values a constant function may take without asking a solver: the number
    sorts and truth values, and lists of numbers (``digits n``)."""
    return s in _DEFAULT or (isinstance(s, ListSort) and s.elem in (NAT, INT, RAT, REAL))


def _constants(s: Sort, mentioned: tuple = ()) -> list[Any]:
    """The default value of sort ``s`` first, then the others tried (``OTHER_CONSTANTS`` and
    the numerals ``mentioned``; as one-element lists for a list sort)."""
    if s == BOOL:
        return [False, True]
    numbers = [c for c in dict.fromkeys((*OTHER_CONSTANTS, *mentioned)) if s != NAT or c >= 0]
    if isinstance(s, ListSort):
        return [(), *((c,) for c in numbers if s.elem != NAT or c >= 0)]
    return [_DEFAULT[s], *(c for c in numbers if c != _DEFAULT[s])]


def unconstrained_functions(nf: NormalForm, lhs: Term) -> tuple[Var, ...]:
    """The function variables L mentions and no premise does, into a sort with a default
    (``area S``, ``card {x. P x ∧ digit_sum x = 7}`` with ``area``, ``digit_sum`` never
    defined): Γ holds whatever they are, so each constant function is a model's value."""
    in_premises: set[Var] = set()
    for p in nf.premises:
        in_premises |= free_vars(p)
    return tuple(v for v in nf.variables if isinstance(v.sort, FunSort) and _has_constants(v.sort.result)
                 and v not in in_premises and v in free_vars(lhs))


#: Constant values tried for an unconstrained function besides its default (with the
#: numerals L mentions: ``digit_sum x = 7`` needs 7).
OTHER_CONSTANTS = (1, 2)
#: Points where a free unary function is tried apart from its default (1, then L's numerals).
ONE_POINT_PLACES = 3


def other_value(nf: NormalForm, lhs: Term, witness: tuple[Model, Value],
                deadline: Deadline | None = None) -> tuple[Model, Value] | None:
    """A validated model where L has another value than at ``witness``, or None: an
    unconstrained function (``unconstrained_functions``) given other constant values
    (``_constants``), or for a unary one a single point apart from its default; then a solver
    table L applies given other defaults, its listed points kept and Γ checked again. Why: an
    answer read through a function the statement never defines (``area S = 12``) is not
    determined by the premises, and a solver rarely finds the function that shows it (a
    model over uninterpreted sorts)."""
    env, v = witness
    free = unconstrained_functions(nf, lhs)
    # then the functions L applies that the premises mention but the model does not give by a
    # definition (a solver's table): its listed points kept, the others at the constant, Γ
    # checked again (``∀x. f x > 0 ⊢ f 3 = 7`` is free)
    tabled = tuple(f for f in nf.variables if f not in free and f in free_vars(lhs) and isinstance(f.sort, FunSort)
                   and f.sort.result in _DEFAULT and isinstance(env.get(f.name), FunTable)
                   and env[f.name].fill is None)
    mentioned = tuple(sorted({s.value for s in subterms(lhs) if isinstance(s, Num) and is_rational(s.value)
                              and not isinstance(s.value, bool)}))
    for f in (*free, *tabled):
        listed = dict(env[f.name].entries) if f in tabled else {}
        constants = _constants(f.sort.result, mentioned)  # type: ignore[attr-defined]
        tables = [FunTable(dict(listed), c) for c in constants]
        if f in free and len(f.sort.args) == 1 and f.sort.args[0] in (NAT, INT, RAT, REAL):  # type: ignore[attr-defined]
            # one point apart from the default (1, or a numeral of L): a predicate true at 1
            # only makes ``card {x. p x}`` 1 where every constant makes it 0 (empty or infinite)
            points = list(dict.fromkeys((1, *mentioned)))[:ONE_POINT_PLACES]
            tables += [FunTable({(p,): c}, constants[0]) for p in points for c in constants[1:]]
        for table in tables:
            other = validated(nf, lhs, {**env, f.name: table}, deadline)
            if other is not None and other[1] != v:
                return other
    return None


def premises_model(nf: NormalForm, model: Model | None, extra: tuple[Var, ...] = (),
                   deadline: Deadline | None = None) -> Model | None:
    """``model`` restricted to ``nf``'s variables (a solver's choice for an uninterpreted symbol
    is no model: its meaning is fixed, only unknown), completed with defaults for the
    variables of ``extra`` it lacks, when it gives a value to every variable whose sort may be
    empty and ⋀Γ is EXACTLY true there; else None."""
    if model is None:
        return None
    names = {v.name for v in nf.variables}
    env = complete_model({k: x for k, x in model.items() if k in names}, extra)
    if env is None or any(v.name not in env for v in nf.variables if not provably_inhabited(v.sort)):
        return None  # over ``Fin 0`` there is no model at all, whatever Γ says
    if truth(nf.premise(), env, deadline) is not True:
        return None
    return env


def validated(nf: NormalForm, lhs: Term, model: Model | None, deadline: Deadline | None) -> tuple[Model, Value] | None:
    """``(model, L at model)`` when ⋀Γ is EXACTLY true at the model and L's value is exact.
    The model also gives a default to each variable the statement binds but never uses, so a
    witness is a point of the whole prefix (a certificate a reader can substitute as is)."""
    env = premises_model(nf, model, mentioned_variables(nf, lhs), deadline)
    if env is None:
        return None
    env.update({v.name: _DEFAULT[v.sort] for v in nf.variables if v.name not in env and v.sort in _DEFAULT})
    val = value_of(lhs, env, deadline)
    return None if val is None else (env, val)


#: Probe points of a premise-free answer: the default point, then these indexes into each
#: variable's ``probe_values`` (1, 2, -1 or 2, 1/2 or 3, ...).
PROBES = (1, 2, 3, 5)


def probe_points(vs: tuple[Var, ...]) -> list[Model]:
    values = {v.name: probe_values(v.sort) for v in vs}
    points = [{name: vals[i] for name, vals in values.items() if len(vals) > i} for i in PROBES]
    return [{}, *(p for p in points if p)]


def mentioned_variables(nf: NormalForm, lhs: Term) -> tuple[Var, ...]:
    fv = free_vars(lhs)
    for p in nf.premises:
        fv |= free_vars(p)
    return tuple(v for v in nf.variables if v in fv)



#: A model of Γ the solver did not give is searched among small integers for the (at most
#: two) integer variables Γ leaves open once its definitions are applied: |v| ≤ bound each,
#: smallest first, for at most ``ENUMERATION_SECONDS`` of exact evaluation. Why: MATH premises
#: such as ``gcd a b = 9 ∧ lcm a b = 5040 ∧ a = 315`` have small integer models that solvers,
#: which see gcd and lcm through a few axioms, return wrongly or not at all. With none open,
#: the definitions' values are the one point tried (a model where L mentions a variable the
#: definitions do not give, ``area S``: it takes its default, ``complete_model``).
ENUMERATION_BOUND = {0: 0, 1: 300, 2: 30}
ENUMERATION_SECONDS = 0.25


def enumerated_model(nf: NormalForm, defs: Any, extra: tuple[Var, ...] = (),
                     deadline: Deadline | None = None, avoid: tuple[Term, Value] | None = None) -> Model | None:
    """A model of Γ (⋀Γ exactly True) with the definitions' values (``defs``: a
    ``definitions.Definitions``) and small integers for the open variables, or None. A
    function Γ neither defines nor otherwise constrains than by its values (``N = f 6 L``, f a
    helper the statement never defines) is tried as a constant function, its constant one of
    the enumerated integers. ``avoid = (L, v)``: only a model where L has another value than v."""
    if not nf.premises:
        return None
    needed: set[Var] = set()
    for p in nf.premises:
        needed |= free_vars(p)
    needed &= set(nf.variables)
    known: Model = dict(defs.values)
    for f, (params, body) in defs.funs.items():
        known.setdefault(f.name, Closure(params, body, {}))
    constants = {f: Var(f"{f.name}⁺constant", INT if f.sort.result != NAT else NAT)  # type: ignore[attr-defined]
                 for f in constant_helpers(nf.premises) if f in needed and f.name not in known}
    computed = _computed_from_others(nf, needed, known)
    open_vars = sorted((v for v in needed if v.name not in known and v not in computed and v not in constants),
                       key=lambda v: v.name) + sorted(constants.values(), key=lambda v: v.name)
    bound = ENUMERATION_BOUND.get(len(open_vars))
    if bound is None or any(v.sort not in (INT, NAT) for v in open_vars):
        return None
    values = [[0, *(x for i in range(1, bound + 1) for x in ((i,) if v.sort == NAT else (i, -i)))]
              for v in open_vars]
    stop = time.perf_counter() + ENUMERATION_SECONDS
    premise = nf.premise()
    for ranks in sorted(itertools.product(*(range(len(vs)) for vs in values)), key=sum):
        if time.perf_counter() > stop:
            return None
        env = {**known, **{v.name: values[i][r] for i, (v, r) in enumerate(zip(open_vars, ranks, strict=True))}}
        for f, c in constants.items():
            env[f.name] = FunTable({}, env.pop(c.name))
        try:
            for _ in range(len(computed)):  # in dependency order, whatever the premises' order
                for v, t in computed.items():
                    if v.name not in env and (x := value_of(t, env, deadline)) is not None:
                        env[v.name] = x
            holds = truth(premise, env, deadline)
            if holds is True and avoid is not None and value_of(avoid[0], env, deadline) in (None, avoid[1]):
                holds = None  # L has the value to avoid there (or none exactly)
        except (ArithmeticError, ValueError, RecursionError):
            holds = None
        if holds is True:
            return premises_model(nf, env, extra, deadline)
    return None


def constant_helpers(premises: tuple[Term, ...]) -> frozenset[Var]:
    """The number-valued function variables the premises apply only to closed arguments (a
    helper read at a few given points, `f 6 [5, 3, 1]`): a model may take each constant.
    Applied under a binder one is constrained at every point, and enumerating constants for
    it cost time for nothing (held out). One walk over the premises."""
    uses: collections.Counter = collections.Counter()  # every occurrence, applied or not
    applied: collections.Counter = collections.Counter()  # occurrences as an applied function
    closed: dict[Var, bool] = {}
    for p in premises:
        for s in subterms(p):
            if isinstance(s, Var) and isinstance(s.sort, FunSort):
                uses[s] += 1
            elif isinstance(s, App) and s.op == "apply" and isinstance(s.args[0], Var):
                f = s.args[0]
                applied[f] += 1
                closed[f] = closed.get(f, True) and not any(free_vars(a) for a in s.args[1:])
    return frozenset(f for f, ok in closed.items()
                     if ok and uses[f] == applied[f] and f.sort.result in (INT, NAT, REAL, RAT))  # type: ignore[attr-defined]


def _computed_from_others(nf: NormalForm, needed: set[Var], known: Model) -> dict[Var, Term]:
    """Variables a premise ``v = t`` gives in terms of other variables (``y = x + 3``): they
    are computed from the enumerated ones instead of enumerated themselves."""
    out: dict[Var, Term] = {}
    for p in nf.premises:
        if isinstance(p, App) and p.op == "eq":
            for v, t in (p.args, p.args[::-1]):
                if isinstance(v, Var) and v in needed and v.name not in known and v not in out \
                        and v not in free_vars(t):
                    out[v] = t
                    break
    return out


__all__ = [
    "ENUMERATION_BOUND",
    "ENUMERATION_SECONDS",
    "Model",
    "complete_model",
    "constant_helpers",
    "enumerated_model",
    "mentioned_variables",
    "other_value",
    "premises_model",
    "probe_points",
    "unconstrained_functions",
    "validated",
]
