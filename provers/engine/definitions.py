"""What the premises define: variables by closed terms, functions by closed bodies.

Why: MATH-style statements name their data (``r = 3/8``, ``h = 3/16``, ``∀x. f x = 2x + 1``)
and then ask for a value (``π r² h = …``, ``f 3 = …``). Substituting the definitions into the
answer expression closes it without any search, and Γ implies every definition, so
Γ ⊢ L = L[definitions] (``answers.pin_answer`` uses this before any solver).

A premise is a definition when it reads

* ``v = e`` or ``e = v`` (``↔`` for propositions), ``v`` a prefix variable not yet defined and
  every prefix variable of ``e`` already defined (so ``v`` is not in ``e``);
* ``∀ y₁ … yₙ. f y₁ … yₙ = e`` with ``f`` a prefix variable not yet defined, applied to exactly
  the bound variables in order, and every other prefix variable of ``e`` already defined;
* ``∀ x. x ∈ S ↔ P x`` (either side) with ``S`` a prefix set variable: ``S = {x | P x}`` by
  extensionality (sets and finsets alike), taken only when ``{x | P x}`` is closed and the
  evaluator finds it finite, so that it is a value of a ``Finset`` too (``complete`` stays true).

Definitions are found in rounds until none is left, so their order in Γ does not matter. When
every premise is a definition, Γ has a model (every term denotes in Lean and Isabelle, so
each variable can take its definition's value) as soon as the variables Γ leaves undefined
have provably inhabited sorts: ``Definitions.complete``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from provers.deadline import Deadline
from provers.engine.normal import NormalForm
from provers.ir import (
    BOOL,
    INT,
    NAT,
    NEGATED,
    RAT,
    REAL,
    App,
    FunSort,
    Lam,
    Num,
    Quant,
    SetBuilder,
    SetSort,
    Term,
    Uninterpreted,
    Var,
    and_,
    app,
    beta_reduced,
    bound_variables,
    canon_key,
    free_vars,
    fresh_name,
    is_numeric,
    map_term,
    provably_inhabited,
    show,
    strip_forall,
    substitute,
    subterms,
    unfold,
)
from provers.semantics.algebraic import AlgebraicReal, algebraic_truth, algebraic_value, is_root_of
from provers.semantics.approx import is_approx
from provers.semantics.closed_terms import closed_term
from provers.semantics.cyclotomic import rational_value
from provers.semantics.evaluate import evaluate, truth
from provers.semantics.folding import value_term
from provers.semantics.quantifiers import first_members
from provers.semantics.surds import algebraic_of_surds, form_of
from provers.semantics.values import Closure, ExactPoint, PredSet, Undecided, Witness

#: An exact value: irrational reals (√2, roots of the premises' polynomials) as ``AlgebraicReal``.
Value = int | Fraction | bool | AlgebraicReal


def exact_value(v: Any) -> Value | None:
    """``v`` if the evaluator returned an exact number or truth value, else None."""
    if isinstance(v, bool):
        return v
    if isinstance(v, int):
        return v
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else v
    if isinstance(v, tuple) and v:  # a pair (vector) of exact numbers: a point is one answer
        parts = tuple(exact_value(x) for x in v)
        return None if any(x is None or isinstance(x, bool) for x in parts) else ExactPoint(parts)
    return None


def value_of(t: Term, env: dict[str, Any], deadline: Deadline | None = None) -> Value | None:
    """The exact value of ``t`` under ``env`` (None when it is not exactly known), read back
    as a literal and confirmed by ``truth(t = value)``, a second path through the evaluator:
    a value mangled on the way out is never used."""
    v = exact_value(evaluate(t, env, deadline))
    if v is None and t.sort == REAL:  # √2, or a point with irrational coordinates
        v = algebraic_value(t, env)
        if isinstance(v, AlgebraicReal):
            return v if algebraic_truth(is_root_of(v, t), env) is True else None
        if v is None:
            v = _surd_value(t, env)  # cos θ at θ = arccos (-1/√10): a surd through the closed forms
        if v is None:  # cos (2π/7)·cos (4π/7)·cos (8π/7) = 1/8, in a cyclotomic field
            v = exact_value(rational_value(t, lambda s: evaluate(s, env, deadline)))
        if isinstance(v, AlgebraicReal):
            return v if truth(is_root_of(v, t), env, deadline) is True else None
    claim = answer_is(t, v) if v is not None else None
    if claim is None or truth(claim, env, deadline) is not True:
        return None
    return v


def _surd_value(t: Term, env: dict[str, Any]) -> Value | None:
    """The value of ``t`` where ``env`` gives variables as closed terms (``Witness``) or
    rationals, when its closed form (``surds``) is algebraic: Σ q·√m as a rational or an
    ``AlgebraicReal``; None otherwise."""
    if not any(isinstance(env.get(v.name), Witness) for v in free_vars(t)):
        return None
    closed = closed_term(t, env)
    if closed is None:
        return None
    try:
        form = form_of(closed, lambda s: evaluate(s, {}))
    except (Undecided, ArithmeticError, ValueError, RecursionError):
        return None
    if form is None or not form.is_algebraic():
        return None
    q = form.as_rational()
    return exact_value(q) if q is not None else algebraic_of_surds(form)


def answer_is(lhs: Term, v: Value) -> Term | None:
    """``L = v`` (``L ↔ v`` for truth values), or None when v has no literal of L's sort."""
    lit = value_term(v, lhs.sort)
    if lit is None:
        return None
    return app("iff", lhs, lit) if lhs.sort == BOOL else app("eq", lhs, lit)


@dataclass
class Definitions:
    """``terms``: variable → closed term; ``funs``: function variable → (parameters, body
    closed but for them); ``values``: exact values of the defined variables where the
    evaluator knows them; ``used``: indices of the premises that are definitions."""

    nf: NormalForm
    terms: dict[Var, Term] = field(default_factory=dict)
    funs: dict[Var, tuple[tuple[Var, ...], Term]] = field(default_factory=dict)
    values: dict[str, Value] = field(default_factory=dict)
    used: set[int] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)
    #: function variable → (parameters, guard, body) of the premises ``∀ȳ. g → f ȳ = e`` that
    #: define f only where g holds (``partial_value``); never in ``used`` nor in ``close``
    partial: dict[Var, list[tuple[tuple[Var, ...], Term, Term]]] = field(default_factory=dict)
    #: (t, e) of the premises ``t = e`` that equate a term t no definition closes (an
    #: application, ``prime_factors n``) with a closed e: ``close`` puts e for t (congruence)
    equated: list[tuple[Term, Term]] = field(default_factory=list)

    def defined(self, v: Var) -> bool:
        return v in self.terms or v in self.funs

    def partial_value(self, t: Term, deadline: Deadline | None = None) -> Value | None:
        """The exact value of ``t`` under every model of Γ, reading the partially defined
        functions (``partial``) only where a guard holds, or None. Each such f is read as
        λȳ. if g then e else f⁺ ȳ with f⁺ unknown (no table: an evaluation that reads it is
        undecided), so a value found never depended on f outside its guards. Only the value
        is given, never the term: it still mentions f⁺."""
        if not self.partial:
            return None
        lams: dict[Var, Term] = {}
        for f, pieces in self.partial.items():
            params = pieces[0][0]
            body: Term = Uninterpreted(f"{f.name}⁺outside", params, f.sort.result)  # type: ignore[attr-defined]
            for ps, g, e in reversed(pieces):
                onto = dict(zip(ps, params, strict=True))
                body = app("ite", substitute(g, onto), substitute(e, onto), body)
            lams[f] = Lam(params, body)
        # the other premises with those functions put in may define more (`p = ∑ n ∈ 1..100, f n`)
        premises = tuple(substitute(p, lams) for p in self.nf.premises)
        more = definitions(replace(self.nf, premises=premises), deadline, partial=False)
        closed = more.close(substitute(t, lams))
        return None if closed is None else value_of(closed, {}, deadline)

    @property
    def complete(self) -> bool:
        """Every premise is a definition and every undefined variable's sort is provably
        inhabited: then Γ has a model."""
        return len(self.used) == len(self.nf.premises) and all(
            self.defined(v) or provably_inhabited(v.sort) for v in self.nf.variables)

    def close(self, t: Term, equated: bool = False) -> Term | None:
        """``t`` with the definitions substituted (function applications beta-reduced), or
        None when a variable remains free or a binder of ``t`` shadows a defined function.
        ``equated``: a term a premise equates with a closed one (``Definitions.equated``) is
        replaced by it first — only where Γ is assumed (Γ ⊢ t = close(t)): a premise closed
        that way would prove itself, so no model of Γ may be read off such a closure."""
        for u, e in self.equated if equated else ():
            if not any(set(bound_variables(s)) & free_vars(u) for s in subterms(t)):
                t = map_term(t, lambda s, u=u, e=e: e if s == u else None)
        if self.funs:
            if any(set(bound_variables(s)) & self.funs.keys() for s in subterms(t)):
                return None  # a binder of t shadows a defined function
            t = unfold(t, self.funs)
            lams: dict[Var, Term] = {}
            for f, (params, body) in self.funs.items():
                lam = Lam(params, body)
                if lam.sort == f.sort:
                    lams[f] = lam
            t = substitute(t, lams)
        t = beta_reduced(substitute(t, self.terms))  # a variable defined as a λ, applied
        return None if free_vars(t) else t


def _definition(p: Term, defs: Definitions, prefix: set[Var]) -> tuple[str, Var, tuple[Var, ...], Term] | None:
    """``(kind, variable, parameters, right-hand side)`` when ``p`` defines something now."""

    def ready(e: Term, params: tuple[Var, ...] = ()) -> bool:
        return all(defs.defined(u) for u in free_vars(e) - set(params) if u in prefix)

    if isinstance(p, App) and p.op in ("eq", "iff") and len(p.args) == 2:
        for lhs, rhs in (p.args, p.args[::-1]):
            if isinstance(lhs, Var) and lhs in prefix and not defs.defined(lhs) and ready(rhs):
                return "var", lhs, (), rhs
        return None
    params, body = strip_forall(p)
    member = _membership_definition(list(params), body, defs, prefix)
    if member is not None:
        return member
    for f, ps, rhs in function_equations(p):
        if f in prefix and isinstance(f.sort, FunSort) and not defs.defined(f) and ready(rhs, ps):
            return "fun", f, ps, rhs
    return None


def function_equations(p: Term, guarded: bool = False) -> list[tuple[Var, tuple[Var, ...], Term]]:
    """``(f, ȳ, e)`` for each reading of ``p`` as ``∀ȳ. f ȳ = e`` (either side; ``↔`` for a
    predicate; with ``guarded`` also ``∀ȳ. g → f ȳ = e`` and ``∀n̄ : ℕ. f (↑n̄) = e``,
    ``_on_the_naturals``): ``f`` a variable applied to exactly the distinct bound variables,
    not free in ``e``."""
    params, body = strip_forall(p)
    if not params:
        return _lambda_equations(p)
    unguarded = not (isinstance(body, App) and body.op == "implies")
    if guarded and not unguarded:
        body = body.args[1]
    if not params or len(set(params)) != len(params) or not (
            isinstance(body, App) and body.op in ("eq", "iff") and len(body.args) == 2):
        return []
    out = []
    for lhs, rhs in (body.args, body.args[::-1]):
        f = lhs.args[0] if isinstance(lhs, App) and lhs.op == "apply" and lhs.args else None
        if isinstance(f, Var) and lhs.args[1:] == params and f not in free_vars(rhs):
            out.append((f, params, rhs))
        elif guarded and unguarded and isinstance(f, Var) and f not in free_vars(rhs):
            out.extend(_on_the_naturals(f, params, lhs.args[1:], rhs, body))
    return out


def _on_the_naturals(f: Var, params: tuple[Var, ...], args: tuple[Term, ...], rhs: Term,
                     body: Term) -> list[tuple[Var, tuple[Var, ...], Term]]:
    """``∀n̄ : ℕ. f (↑n̄) = e`` with f over ℤ (Isabelle's coercion ``a (int n)`` when ``a :: int
    ⇒ int`` is indexed by a natural ``n``): f is defined on the integers ≥ 0 only, and
    λī. e[n̄ := to_nat ī] meets the premise (``to_nat (↑n) = n``). A guarded reading: it says
    nothing of f at negative integers, so it only serves where any λ meeting the premise does
    (``function_definitions``' points), never unfolding."""
    if not params or len(args) != len(params) or any(
            not (isinstance(a, App) and a.op == "cast" and a.sort == INT and a.args[0] == v and v.sort == NAT)
            for a, v in zip(args, params, strict=True)):
        return []
    taken = {v.name for v in free_vars(body)} | {v.name for v in params}
    ints = []
    for v in params:
        ints.append(Var(fresh_name(v.name, taken), INT))
        taken.add(ints[-1].name)
    return [(f, tuple(ints), substitute(rhs, {v: app("to_nat", i) for v, i in zip(params, ints, strict=True)}))]


def _lambda_equations(p: Term) -> list[tuple[Var, tuple[Var, ...], Term]]:
    """``f = λȳ. e`` (either side; Isabelle's ``f ≡ λx y. …``): ``∀ȳ. f ȳ = e`` by
    extensionality, ``f`` not free in ``e``."""
    if not (isinstance(p, App) and p.op == "eq" and len(p.args) == 2):
        return []
    out = []
    for f, lam in (p.args, p.args[::-1]):
        if (isinstance(f, Var) and isinstance(f.sort, FunSort) and isinstance(lam, Lam)
                and len(lam.vars) == len(f.sort.args) and len(set(lam.vars)) == len(lam.vars)
                and f not in free_vars(lam.body)):
            out.append((f, lam.vars, lam.body))
    return out


def function_definitions(vs: tuple[Var, ...], body: Term) -> list[tuple[Var, tuple[Var, ...], Term]]:
    """``(f, ȳ, e)`` for each ``∀ȳ. [g →] f ȳ = e`` among the subterms of ``body`` with ``f``
    one of ``vs`` and ``e`` over ``vs`` and ȳ (the first per ``f``; none whose ``e`` mentions
    another defined function, so that unfolding terminates): for the fingerprint's points
    (``points.defined_points``), where a guard does not matter: λȳ. e meets the premise."""
    names = set(vs)
    found: dict[Var, tuple[tuple[Var, ...], Term]] = {}
    for q in subterms(body):
        if not (isinstance(q, Quant) and q.kind == "forall"):
            continue
        for f, params, rhs in function_equations(q, guarded=True):
            if f in names and f not in found and free_vars(rhs) <= names | set(params):
                found[f] = (params, rhs)
                break
    return [(f, ps, e) for f, (ps, e) in found.items() if not free_vars(e) & found.keys()]


def guarded_definitions(vs: tuple[Var, ...], body: Term) -> list[tuple[Var, tuple[Var, ...], Term, Term]]:
    """``(f, ȳ, g, e)`` for each ``∀ȳ. g → f ȳ = e`` among the subterms of ``body`` (``f`` one
    of the number-valued function ``vs``, ``g`` and ``e`` over ``vs`` and ȳ): a definition that
    says nothing where ``g`` fails. Two such premises with different guards differ at the
    closure λȳ. if g then e else e + 1, which meets one and not the other."""
    names = set(vs)
    out = []
    for q in subterms(body):
        params, inner = strip_forall(q) if isinstance(q, Quant) else ((), q)
        if not (params and isinstance(inner, App) and inner.op == "implies"):
            continue
        g = inner.args[0]
        for f, ps, rhs in function_equations(q, guarded=True):
            if (f in names and isinstance(f.sort, FunSort) and is_numeric(f.sort.result)
                    and free_vars(rhs) | free_vars(g) <= names | set(ps)):
                out.append((f, ps, g, rhs))
                break
    return out


#: Definitions per variable ``scalar_definitions`` keeps (each side of ``Γ ↔ Γ'`` may have its own).
MAX_SCALAR_DEFINITIONS = 2


def scalar_definitions(vs: tuple[Var, ...], body: Term) -> list[tuple[Var, Term]]:
    """``(v, e)`` for each atom ``v = e`` (or ``e = v``) among the subterms of ``body`` with
    ``v`` one of the number or truth-valued ``vs``, not in ``e``, and ``e`` over ``vs``: for
    the fingerprint's points (``points.defined_points``), where a sampled ``s`` almost never
    meets ``s = a / (a + b + d) + …`` but ``s`` computed from the sampled a, b, d does."""
    names = set(vs)
    found: dict[Var, list[Term]] = {}
    for q in subterms(body):
        if not (isinstance(q, App) and q.op == "eq" and len(q.args) == 2):
            continue
        for v, e in (q.args, q.args[::-1]):
            if (isinstance(v, Var) and v in names and not isinstance(v.sort, (FunSort, SetSort))
                    and v not in free_vars(e) and free_vars(e) <= names):
                options = found.setdefault(v, [])
                if e not in options and len(options) < MAX_SCALAR_DEFINITIONS:
                    options.append(e)
    return [(v, e) for v, es in found.items() for e in es]


def with_scalar_definitions(point: dict[str, Any], defs: list[tuple[Var, Term]],
                            deadline: Deadline | None = None) -> dict[str, Any] | None:
    """``point`` with each defined variable set to its first definition's exact value there
    (chains such as ``t = 2a``, ``s = t + 1`` settle over a few rounds), or None when that
    changes nothing."""
    options: dict[Var, list[Term]] = {}
    for v, e in defs:
        options.setdefault(v, []).append(e)
    q = dict(point)
    for _ in range(3):
        before = dict(q)
        for v, es in options.items():
            for e in es:
                # no second evaluation to confirm the value: a point is only a candidate, the
                # formula is evaluated exactly there before anything is concluded
                val = exact_value(evaluate(e, q, deadline))
                if _fits(val, v):
                    q[v.name] = val
                    break
                witness = closed_witness(e, q) if v.sort == REAL else None
                if witness is not None:
                    q[v.name] = witness  # x = Σ cos (n°) / Σ sin (n°): irrational, exact as its term
                    break
        if q == before:
            break
    return q if q != point else None


def closed_witness(e: Term, point: dict[str, Any]) -> Witness | None:
    """``e`` as a ``Witness`` (its closed term) where the point gives each of its variables an
    exact rational value, and its value is a real number the evaluator computes (so that the
    closed forms and enclosures decide comparisons with it exactly)."""
    rationals = {k: x for k, x in point.items() if not isinstance(x, Witness)}  # not a chain of witnesses
    closed = closed_term(e, rationals)
    if closed is None:
        return None
    return Witness(closed) if is_approx(evaluate(closed, {})) else None


def _fits(val: Any, v: Var) -> bool:
    """Whether ``val`` is a value the evaluator takes for a variable of ``v``'s sort."""
    if val is None or isinstance(val, AlgebraicReal) or isinstance(val, bool) != (v.sort == BOOL):
        return False
    if v.sort in (NAT, INT):
        return isinstance(val, int) and (v.sort == INT or val >= 0)
    return v.sort in (BOOL, RAT, REAL)


#: Most combinations of definitions ``definition_choices`` returns.
MAX_DEFINITION_CHOICES = 4


def definition_choices(vs: tuple[Var, ...], body: Term) -> list[dict[Var, tuple[tuple[Var, ...], Term]]]:
    """Ways to read the function variables of ``vs`` by the definitions ``∀ȳ. [g →] f ȳ = e``
    stated in ``body`` (each side of ``Γ ↔ Γ'`` may define f its own way, ``x + 2`` against
    ``x + 3``): one choice per combination, at most ``MAX_DEFINITION_CHOICES``; a definition
    mentioning another defined function is left out (unfolding stays one step)."""
    names = set(vs)
    options: dict[Var, list[tuple[tuple[Var, ...], Term]]] = {}
    for q in subterms(body):
        if isinstance(q, Quant) and q.kind == "forall":
            for f, params, rhs in function_equations(q, guarded=True):
                if f in names and free_vars(rhs) <= names | set(params) and (params, rhs) not in options.get(f, []):
                    options.setdefault(f, []).append((params, rhs))
    options = {f: [d for d in ds if not free_vars(d[1]) & options.keys()] for f, ds in options.items()}
    options = {f: ds for f, ds in options.items() if ds}
    choices: list[dict[Var, tuple[tuple[Var, ...], Term]]] = [{}]
    for f, ds in options.items():
        choices = [{**c, f: d} for c in choices for d in ds][:MAX_DEFINITION_CHOICES]
    return [c for c in choices if c]


def set_definitions(vs: tuple[Var, ...], body: Term,
                    env: dict[str, Any] | None = None) -> list[tuple[Var, frozenset | PredSet]]:
    """``(S, value)`` for each ``∀x. x ∈ S ↔ P x`` (or ``S = {x. P x}``, Isabelle's way, and
    ``S = e`` for any set-valued ``e``) among the subterms of ``body`` with ``S`` one of ``vs``
    and ``{x | P x}`` closed and finite by exact evaluation (``x ∣ 91``, ``171 ≡ 80 [MOD x]``
    bound x): the sets where two such premises are worth comparing.
    With ``env`` (a point giving the other variables, ``f`` as a closure), P may mention them."""
    env = env or {}
    out: list[tuple[Var, frozenset | PredSet]] = []
    for s, e in _set_equations(vs, body, env):
        try:
            value = evaluate(e, env)
        except (Undecided, ArithmeticError, ValueError, RecursionError):
            continue
        if isinstance(value, frozenset) and (s, value) not in out:
            out.append((s, value))
    for q in subterms(body):
        if not (isinstance(q, Quant) and q.kind == "forall" and len(q.vars) == 1):
            continue
        x, iff = q.vars[0], q.body
        if not (isinstance(iff, App) and iff.op == "iff"):
            continue
        for mem, pred in (iff.args, iff.args[::-1]):
            needs = free_vars(pred) - {x}
            if isinstance(mem, App) and mem.op == "mem" and mem.args[0] == x and mem.args[1] in vs \
                    and all(v.name in env and v != mem.args[1] for v in needs):
                # closures unfolded: `f x < 9` is `|x + 4| < 9`, which bounds x
                funs = {v: (f.vars, f.body) for v in free_vars(pred) if isinstance(f := env.get(v.name), Closure)
                        and f.env is env}
                try:
                    value = evaluate(SetBuilder(x, unfold(pred, funs)), env)
                except (Undecided, ArithmeticError, ValueError, RecursionError):
                    continue
                if isinstance(value, PredSet) and not needs:
                    # infinite (`0 < n ∧ 14 n % 100 = 46`): known by membership, and it meets
                    # the very premise it was read from (`quantifiers._meets_definitions`)
                    value = replace(value, definition=q)
                # PredSets compare by sort only: keep each (two sides define two sets)
                if isinstance(value, PredSet) or isinstance(value, frozenset) and (mem.args[1], value) not in out:
                    out.append((mem.args[1], value))  # type: ignore[arg-type]
    return out


def _set_equations(vs: tuple[Var, ...], body: Term, env: dict[str, Any]) -> list[tuple[Var, Term]]:
    """``(S, e)`` for each atom ``S = e`` (either way round) of ``body`` with ``S`` a set-sorted
    one of ``vs`` and ``e`` over ``env``'s variables only."""
    out = []
    for q in subterms(body):
        if isinstance(q, App) and q.op == "eq" and len(q.args) == 2:
            for s, e in (q.args, q.args[::-1]):
                if (isinstance(s, Var) and s in vs and isinstance(s.sort, SetSort)
                        and all(v.name in env for v in free_vars(e)) and (s, e) not in out):
                    out.append((s, e))
    return out


def _lower_bound_of(q: Term) -> tuple[Term, Term] | None:
    """``(u, T)`` when ``q`` reads ``∀y. y ∈ T → u ≤ y`` (u is a lower bound of T)."""
    if not (isinstance(q, Quant) and q.kind == "forall" and len(q.vars) == 1):
        return None
    y, body = q.vars[0], q.body
    if not (isinstance(body, App) and body.op == "implies" and isinstance(body.args[0], App)
            and body.args[0].op == "mem" and body.args[0].args[0] == y):
        return None
    t, bound = body.args[0].args[1], body.args[1]
    if not (isinstance(bound, App) and len(bound.args) == 2):
        return None
    if bound.op == "le" and bound.args[1] == y:
        return bound.args[0], t
    if bound.op == "ge" and bound.args[0] == y:
        return bound.args[1], t
    return None


def _least_premises(vs: set[Var], body: Term) -> list[tuple[Var, Term]]:
    """``(u, T)`` for each ``IsLeast T u`` that ``body`` states, u in vs over ℕ: the two
    conjuncts ``u ∈ T`` and ``∀y. y ∈ T → u ≤ y``, wherever the normal form put them."""
    members = {(q.args[0], q.args[1]) for q in subterms(body)
               if isinstance(q, App) and q.op == "mem" and q.args[0] in vs and q.args[0].sort == NAT}
    out = []
    for q in subterms(body):
        pair = _lower_bound_of(q)
        if pair is not None and pair in members and pair not in out:
            out.append(pair)
    return out  # type: ignore[return-value]


def least_points(vs: tuple[Var, ...], body: Term, point: dict[str, Any]) -> dict[str, Any] | None:
    """``point`` with each ℕ variable u that a premise ``IsLeast T u`` pins set to the least
    element of T there (``first_members``; T evaluated at the point: ``S``, ``S \\ {u}``), in as
    many rounds as they depend on each other; None when none is pinned. Why: a set given by a
    predicate is often infinite (`0 < n ∧ 14 n % 100 = 46`), and its least elements are what
    the statement is about; random values almost never are."""
    found = _least_premises(set(vs), body)
    if not found:
        return None
    out, changed = dict(point), False
    for _ in range(len(found)):
        for u, t in found:
            try:
                tv = evaluate(t, out)
            except (Undecided, ArithmeticError, ValueError, RecursionError):
                continue
            if isinstance(tv, frozenset):
                least = min((x for x in tv if isinstance(x, int)), default=None)
            elif isinstance(tv, PredSet):
                least = next(iter(first_members(tv)), None)
            else:
                least = None
            if least is not None and out.get(u.name) != least:
                out[u.name], changed = least, True
    return out if changed else None


def _membership_definition(params: list[Var], body: Term, defs: Definitions,
                           prefix: set[Var]) -> tuple[str, Var, tuple[Var, ...], Term] | None:
    """``∀ x. x ∈ S ↔ P x`` as ``("var", S, (), {x | P x})`` when ``{x | P x}`` is closed
    (given the definitions so far) and a finite set by exact evaluation."""
    if len(params) != 1 or not (isinstance(body, App) and body.op == "iff"):
        return None
    x = params[0]
    for mem, pred in (body.args, body.args[::-1]):
        if not (isinstance(mem, App) and mem.op == "mem" and mem.args[0] == x):
            continue
        s = mem.args[1]
        if not (isinstance(s, Var) and s in prefix and not defs.defined(s)) or s in free_vars(pred):
            continue
        builder = SetBuilder(x, pred)
        closed = defs.close(builder)
        if closed is not None and isinstance(evaluate(closed, {}), frozenset):
            return "var", s, (), builder
    return None


def complementary(g: Term, h: Term) -> bool:
    """``h`` is the negation of ``g`` up to the canonical key (bound names, the order of
    commutative arguments, ``>`` read as ``<``): ``¬g``, or the opposite relation."""
    negations = [app("not", g)]
    if isinstance(g, App) and g.op == "not":
        negations.append(g.args[0])
    elif isinstance(g, App) and g.op in NEGATED and len(g.args) == 2:
        negations.append(app(NEGATED[g.op], *g.args))
    key = canon_key(h)
    return any(canon_key(n) == key for n in negations)


def _guarded_equation(p: Term) -> tuple[Var, tuple[Var, ...], Term, Term] | None:
    """``(f, ȳ, g, e)`` when ``p`` reads ``∀ȳ. g → f ȳ = e``, or ``∀n̄ : ℕ. f (↑n̄) = e`` (the
    guard ``0 ≤ i`` for each of f's integer arguments, ``_on_the_naturals``)."""
    params, body = strip_forall(p)
    found = function_equations(p, guarded=True) if params else []
    if found and isinstance(body, App) and body.op == "implies":
        f, ps, rhs = found[0]
        return f, ps, body.args[0], rhs
    # the naturals reading: its parameters are f's integer arguments, new beside the ∀'s
    for f, ps, rhs in found:
        if ps != params:
            return f, ps, and_(*(app("le", Num(0, INT), i) for i in ps)), rhs
    return None


def piecewise_definitions(premises: tuple[Term, ...]) -> list[tuple[int, int, Term]]:
    """``(i, j, ∀ȳ. f ȳ = if g then e₁ else e₂)`` for each two premises ``∀ȳ. g → f ȳ = e₁``
    and ``∀ȳ. ¬g → f ȳ = e₂`` (``complementary`` guards): together they define f, as a
    piecewise function is stated (``Im z = 0 → f z = z + 2`` and ``Im z ≠ 0 → f z = z²``),
    while neither alone does. The conjunction of the two is that one equation."""
    return _piecewise([_guarded_equation(p) for p in premises])


def _piecewise(equations: list[tuple[Var, tuple[Var, ...], Term, Term] | None]) -> list[tuple[int, int, Term]]:
    """``piecewise_definitions`` from each premise's ``_guarded_equation`` (None: not one)."""
    guarded = [(i, q) for i, q in enumerate(equations) if q is not None]
    out = []
    for a, (i, (f, ps, g, e1)) in enumerate(guarded):
        for j, (f2, ps2, h, e2) in guarded[a + 1:]:
            if f2 != f or len(ps2) != len(ps) or any(x.sort != y.sort for x, y in zip(ps, ps2, strict=True)):
                continue
            onto = {y: x for x, y in zip(ps, ps2, strict=True) if x != y}
            h, e2 = substitute(h, onto), substitute(e2, onto)
            if complementary(g, h) and f.sort == FunSort(tuple(x.sort for x in ps), e1.sort):
                body = app("eq", app("apply", f, *ps), app("ite", g, e1, e2))
                out.append((i, j, Quant("forall", ps, body)))
                break
    return out


def _equated(p: Term, defs: Definitions) -> tuple[Term, Term] | None:
    """``(t, e)`` when ``p`` reads ``t = e`` (either way round) with ``e`` closed once the
    definitions are in and ``t`` an application they do not close (``prime_factors n =
    {2, 3, 13}``): Γ ⊢ L = L[t := e] for any answer L. Not for a variable (a definition) nor
    for a t that is a number (nothing to replace)."""
    if not (isinstance(p, App) and p.op in ("eq", "iff") and len(p.args) == 2):
        return None
    for t, e in (p.args, p.args[::-1]):
        if isinstance(t, (App, Uninterpreted)) and free_vars(t) and defs.close(t) is None:
            closed = defs.close(e)
            if closed is not None:
                return t, closed
    return None


def definitions(nf: NormalForm, deadline: Deadline | None = None, partial: bool = True) -> Definitions:
    """The definitions among ``nf``'s premises (see the module docstring); with ``partial``,
    also the functions guarded premises define where their guards hold (``Definitions.partial``)."""
    defs = Definitions(nf)
    prefix = set(nf.variables)
    guarded = [_guarded_equation(p) for p in nf.premises]
    # premise indices → the premise that defines (a piecewise definition stands for two)
    candidates: list[tuple[tuple[int, ...], Term]] = [((i,), p) for i, p in enumerate(nf.premises)]
    candidates += [((i, j), p) for i, j, p in _piecewise(guarded)]
    changed = True
    while changed:
        changed = False
        for used, p in candidates:
            if defs.used & set(used):
                continue
            d = _definition(p, defs, prefix)
            if d is None:
                continue
            kind, v, params, rhs = d
            closed = defs.close(rhs) if kind == "var" else defs.close(Lam(params, rhs))
            if closed is None:
                continue
            if kind == "var":
                defs.terms[v] = closed
                val = value_of(closed, {}, deadline)
                if val is not None:
                    defs.values[v.name] = val
                defs.notes.append(f"{v.name} = {val if val is not None else 'a closed term'}")
            else:
                assert isinstance(closed, Lam)
                defs.funs[v] = (closed.vars, closed.body)
                defs.notes.append(f"the function {v.name}" + (" (piecewise)" if len(used) > 1 else ""))
            defs.used.update(used)
            changed = True
    for i, p in enumerate(nf.premises):
        if i not in defs.used and (pair_ := _equated(p, defs)) is not None:
            defs.equated.append(pair_)
            defs.notes.append(f"{show(pair_[0])} = {show(pair_[1])}")
    for i, q in enumerate(guarded if partial else ()):
        if q is None or i in defs.used:
            continue
        f, ps, g, e = q
        if f not in prefix or defs.defined(f) or f.sort != FunSort(tuple(x.sort for x in ps), e.sort):
            continue
        closed_g, closed_e = defs.close(Lam(ps, g)), defs.close(Lam(ps, e))
        if isinstance(closed_g, Lam) and isinstance(closed_e, Lam):
            e_body = substitute(closed_e.body, dict(zip(closed_e.vars, closed_g.vars, strict=True)))
            defs.partial.setdefault(f, []).append((closed_g.vars, closed_g.body, e_body))
    return defs


__all__ = ["Definitions", "answer_is", "complementary", "definitions", "exact_value", "function_definitions",
           "function_equations", "guarded_definitions", "piecewise_definitions",
           "scalar_definitions", "value_of", "with_scalar_definitions"]
