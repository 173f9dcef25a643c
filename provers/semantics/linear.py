"""∃ / ∀ over several number variables, decided where the body is linear in them.

Why: a model's premise ``¬(∃x y. 6x + 4y = 7 ∧ K·x + 8y = 7)`` at K = 12
(``algebra/problem_1884``), a set ``{n. ∃a b c :: int. n = 100a + 10b + c ∧ (a = 6 ∧ b = 6 ∨
…)}`` (``counting_and_probability/problem_994``) and a congruence ``∀a b. a − b = 0 → f a =
f b`` were "over an unbounded domain": no probe gives a witness of a false ∃ or a
counterexample of a true ∀.

Method (exact; None wherever a step does not apply): the body (its negation for a ∀) in
negation normal form and then disjunctive normal form (at most ``MAX_DISJUNCTS``); in each
disjunct the binders an equation solves are replaced (the one-point rule, generalized to
equations affine in the binder with a coefficient invertible in its sort: any nonzero
rational over ℚ / ℝ, ±1 over ℤ; over ℕ only ``v = e`` itself, as ℕ has no subtraction to
solve with); literals left without binders are decided by the caller's evaluator, and what
is left over ℚ / ℝ, every literal a comparison of terms affine in the binders with rational
coefficients, by Fourier–Motzkin elimination with strictness tracked. Over ℚ and ℝ the
answers agree: a system of rational linear constraints that has a real solution has a
rational one. A disjunct left in any other shape goes back to the evaluator, smaller.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from provers.ir import (
    FALSE,
    NEGATED,
    TRUE,
    App,
    Num,
    Quant,
    Term,
    Var,
    and_,
    app,
    equated,
    free_vars,
    one_point,
)
from provers.ir.sorts import INT, NAT, ORDERED, RAT, REAL
from provers.semantics.closed_forms import PolynomialReader, affine_terms, polynomial_term

__all__ = ["decide_linear", "MAX_DISJUNCTS"]

#: Disjuncts the normal form may have before the procedure gives up (``iff`` doubles them).
MAX_DISJUNCTS = 32
#: Constraints Fourier–Motzkin may hold at once (each elimination multiplies them).
MAX_CONSTRAINTS = 400
#: ``≠`` literals of one disjunct split into ``<`` or ``>`` (2ⁿ systems).
MAX_DISEQUALITIES = 6

_NUMBERS = (NAT, INT, RAT, REAL)
#: Comparisons of a term with itself: every term denotes one value, so their truth is fixed.
_REFLEXIVE = {"eq": True, "le": True, "ge": True, "ne": False, "lt": False, "gt": False}

#: A literal's truth under the caller's assignment: True / False exactly, else None.
Truth = Callable[[Term], "bool | None"]
#: A term's exact value under the caller's assignment (None when it has none).
ValueOf = Callable[[Term], Any]
#: Σ cᵥ·v + c₀, ``None`` keying c₀.
Linear = dict[Var | None, Fraction]


def decide_linear(t: Quant, want: bool, truth: Truth, value_of: ValueOf) -> bool | None:
    """The truth of the ∃ (``want`` True) or ∀ quantifier ``t``, or None (module docstring)."""
    if t.kind not in ("exists", "forall") or not all(v.sort in _NUMBERS for v in t.vars):
        return None
    if not _may_apply(t, want):
        return None
    disjuncts = _dnf(_nnf(t.body, want))
    if disjuncts is None:
        return None
    undecided = False
    for literals in disjuncts:
        r = _disjunct(list(t.vars), literals, truth, value_of)
        if r is None:
            undecided = True
        elif r:
            return want  # a witness of the ∃ (of ∃¬ for a ∀: a counterexample)
    return None if undecided else not want


def _may_apply(t: Quant, want: bool) -> bool:
    """A cheap look at the atoms before any normal form is built: an equation over a binder
    that the normal form will hold as an equation (``=`` where the ∃ — or the ∀'s negation —
    asserts it, ``≠`` where it denies it), or — with every binder in ℚ / ℝ and more than one
    of them (one is the sign cells') — every atom over them a comparison of field terms,
    which Fourier–Motzkin may take."""
    binders = set(t.vars)
    atoms = [(a, positive) for a, positive in _atoms(t.body, want) if free_vars(a) & binders]
    if any(isinstance(a, App) and a.op == ("eq" if positive else "ne") for a, positive in atoms):
        return True
    return len(t.vars) > 1 and all(v.sort in (RAT, REAL) for v in t.vars) and all(
        isinstance(a, App) and a.op in NEGATED and len(a.args) == 2 and a.args[0].sort in (RAT, REAL)
        for a, _ in atoms)


def _atoms(t: Term, positive: bool) -> list[tuple[Term, bool]]:
    """The atoms of a formula with the polarity each has in it (both under ``iff``)."""
    if isinstance(t, App) and t.op in ("and", "or"):
        return [x for a in t.args for x in _atoms(a, positive)]
    if isinstance(t, App) and t.op == "not":
        return _atoms(t.args[0], not positive)
    if isinstance(t, App) and t.op == "implies":
        return [*_atoms(t.args[0], not positive), *_atoms(t.args[1], positive)]
    if isinstance(t, App) and t.op == "iff":
        return [x for a in t.args for p in (True, False) for x in _atoms(a, p)]
    return [(t, positive)]


def _disjunct(binders: list[Var], literals: list[Term], truth: Truth, value_of: ValueOf) -> bool | None:
    """∃ binders. ⋀ literals; what is left after the one-point rule goes back to the
    evaluator only when a binder is gone (a split alone would double its work for nothing)."""
    binders, literals, progress = _one_point(binders, literals)
    left: list[Term] = []
    undecided = False
    for lit in literals:
        if isinstance(lit, App) and lit.op in _REFLEXIVE and len(lit.args) == 2 and lit.args[0] == lit.args[1]:
            if _REFLEXIVE[lit.op]:
                continue
            return False  # x ≠ x, x < x: false whatever x is
        if free_vars(lit) & set(binders):
            left.append(lit)
            continue
        r = truth(lit)
        if r is False:
            return False  # one false literal settles the disjunct, whatever the others
        undecided |= r is None
    if undecided:
        return None
    used = [v for v in binders if any(v in free_vars(lit) for lit in left)]
    progress |= len(used) < len(binders)
    binders = used
    if not binders:
        return True  # ℕ, ℤ, ℚ, ℝ are inhabited
    if all(v.sort in (RAT, REAL) for v in binders):
        system = [_constraint(lit, binders, value_of) for lit in left]
        if all(c is not None for c in system):
            return _feasible(system, binders)  # type: ignore[arg-type]
    if not progress:
        return None
    return truth(Quant("exists", tuple(binders), and_(*left)))


def _one_point(binders: list[Var], literals: list[Term]) -> tuple[list[Var], list[Term], bool]:
    """Binders an equation among the literals solves, substituted away (module docstring);
    whether any was."""
    left, literals, _ = one_point(binders, literals, solve=solved_for)
    return left, literals, len(left) < len(binders)


def solved_for(v: Var, eq: App) -> Term | None:
    """e with ``eq`` exactly ``v = e`` (e free of v) over v's sort, or None: the equation
    itself, or ``c₁·v + c₀ = 0`` with c₁ a nonzero numeral (±1 over ℤ; never over ℕ). The
    solver of ``one_point`` here and in ``domains.eliminate_components``."""
    if (e := equated(v, eq)) is not None:
        return e
    if v.sort == NAT or v not in free_vars(eq):
        return None
    line = affine_terms(v, eq)  # c₁·v + c₀ = 0
    if line is None or not isinstance(line[0], Num):
        return None
    c1 = Fraction(line[0].value)
    if v.sort == INT and abs(c1) != 1:
        return None
    rest = PolynomialReader(None, None).read(line[1])
    if rest is None:
        return None
    value, facts = polynomial_term({m: -c / c1 for m, c in rest.items()}, v.sort)
    return None if facts else value


# --------------------------------------------------------------------------------------
# Normal forms


def _nnf(t: Term, positive: bool) -> Term:
    """``t`` (``¬t`` when not ``positive``) with negations at comparisons and other atoms."""
    if t == TRUE or t == FALSE:
        return t if positive else (FALSE if t == TRUE else TRUE)
    if isinstance(t, App):
        if t.op == "not":
            return _nnf(t.args[0], not positive)
        if t.op in ("and", "or"):
            op = t.op if positive else ("or" if t.op == "and" else "and")
            return app(op, *(_nnf(a, positive) for a in t.args))
        if t.op == "implies":
            a, b = t.args
            if positive:
                return app("or", _nnf(a, False), _nnf(b, True))
            return app("and", _nnf(a, True), _nnf(b, False))
        if t.op == "iff" and len(t.args) == 2:
            a, b = t.args
            same = app("and", _nnf(a, True), _nnf(b, positive))
            other = app("and", _nnf(a, False), _nnf(b, not positive))
            return app("or", same, other)
        if t.op in NEGATED and not positive and len(t.args) == 2 \
                and (t.op in ("eq", "ne") or t.args[0].sort in ORDERED):
            return app(NEGATED[t.op], *t.args)  # a linear order: ¬(a < b) is a ≥ b
    return t if positive else app("not", t)


def _dnf(t: Term) -> list[list[Term]] | None:
    """The disjuncts of ``t`` (in negation normal form), each a list of literals; None past
    ``MAX_DISJUNCTS``."""
    if t == FALSE:
        return []
    if t == TRUE:
        return [[]]
    if isinstance(t, App) and t.op == "or":
        out: list[list[Term]] = []
        for a in t.args:
            d = _dnf(a)
            if d is None or len(out) + len(d) > MAX_DISJUNCTS:
                return None
            out.extend(d)
        return out
    if isinstance(t, App) and t.op == "and":
        out = [[]]
        for a in t.args:
            d = _dnf(a)
            if d is None or len(out) * len(d) > MAX_DISJUNCTS:
                return None
            out = [x + y for x in out for y in d]
        return out
    return [[t]]


# --------------------------------------------------------------------------------------
# Fourier–Motzkin over ℚ / ℝ

#: A constraint Σ cᵥ·v + c₀ ⋈ 0, ⋈ one of eq, ne, lt, le.
Constraint = tuple[Linear, str]


def _constraint(lit: Term, binders: list[Var], value_of: ValueOf) -> Constraint | None:
    if not (isinstance(lit, App) and lit.op in NEGATED and len(lit.args) == 2
            and lit.args[0].sort in (RAT, REAL)):
        return None
    a, b = (_linear(s, binders, value_of) for s in lit.args)
    if a is None or b is None:
        return None
    diff: Linear = dict(a)
    for k, c in b.items():
        diff[k] = diff.get(k, Fraction(0)) - c
    if lit.op in ("gt", "ge"):  # a > b is b − a < 0
        return {k: -c for k, c in diff.items()}, "lt" if lit.op == "gt" else "le"
    return diff, lit.op


def _linear(t: Term, binders: list[Var], value_of: ValueOf) -> Linear | None:
    """``t`` as Σ cᵥ·v + c₀ over the binders, coefficients the exact values of the rest."""
    poly = PolynomialReader(None, None).read(t)
    if poly is None:
        return None
    out: Linear = {}
    for (deg, ratio, atoms), c in poly.items():
        if deg or ratio != 1:
            return None
        mine = [x for x in atoms if isinstance(x, Var) and x in binders]
        rest = [x for x in atoms if not (isinstance(x, Var) and x in binders)]
        if len(mine) > 1 or any(free_vars(x) & set(binders) for x in rest):
            return None
        coefficient = Fraction(c)
        for x in rest:
            value = value_of(x)
            if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
                return None
            coefficient *= value
        key = mine[0] if mine else None
        out[key] = out.get(key, Fraction(0)) + coefficient
    return out


def _feasible(system: list[Constraint], binders: list[Var]) -> bool | None:
    """Whether some rational point meets every constraint; None past the size bounds."""
    unequal = [i for i, (_, op) in enumerate(system) if op == "ne"]
    if len(unequal) > MAX_DISEQUALITIES:
        return None
    undecided = False
    for sides in itertools.product((1, -1), repeat=len(unequal)):
        split = list(system)
        for i, s in zip(unequal, sides, strict=True):
            split[i] = ({k: s * c for k, c in system[i][0].items()}, "lt")
        r = _eliminate(split, binders)
        if r:
            return True
        undecided |= r is None
    return None if undecided else False


def _eliminate(system: list[Constraint], binders: list[Var]) -> bool | None:
    cons = [({k: c for k, c in lin.items() if c}, op) for lin, op in system]
    for v in binders:
        pivot = next((i for i, (lin, op) in enumerate(cons) if op == "eq" and v in lin), None)
        if pivot is not None:  # v = −(rest) / a, substituted everywhere
            lin, _ = cons.pop(pivot)
            a = lin[v]
            cons = [(_substituted(c, v, lin, a), op) for c, op in cons]
            continue
        lower, upper, other = [], [], []
        for lin, op in cons:
            a = lin.get(v, Fraction(0))
            if not a:
                other.append((lin, op))
                continue
            scaled = {k: c / abs(a) for k, c in lin.items()}
            (upper if a > 0 else lower).append((scaled, op))
        if len(other) + len(lower) * len(upper) > MAX_CONSTRAINTS:
            return None  # checked before the products are built, not after
        for (lo, op1), (up, op2) in itertools.product(lower, upper):
            both: Linear = dict(lo)
            for k, c in up.items():
                both[k] = both.get(k, Fraction(0)) + c
            other.append(({k: c for k, c in both.items() if c}, "lt" if "lt" in (op1, op2) else "le"))
        cons = other
    for lin, op in cons:
        if any(k is not None for k in lin):
            return None  # a binder the loop did not see (cannot happen with the caller's list)
        c = lin.get(None, Fraction(0))
        if not {"eq": c == 0, "lt": c < 0, "le": c <= 0}[op]:
            return False
    return True


def _substituted(lin: Linear, v: Var, pivot: Linear, a: Fraction) -> Linear:
    """``lin`` with v replaced by its value from ``pivot`` (a·v + rest = 0)."""
    b = lin.get(v)
    if not b:
        return lin
    out = {k: c for k, c in lin.items() if k != v}
    for k, c in pivot.items():
        if k != v:
            out[k] = out.get(k, Fraction(0)) - b * c / a
    return {k: c for k, c in out.items() if c}
