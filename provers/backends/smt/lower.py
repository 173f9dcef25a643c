"""The ONE description of Lean/Isabelle semantics for SMT: IR → core terms + true facts.

Why: z3 and cvc5 must agree with the exact evaluator on every operation, so the meaning of
each IR op is written down once, as a rewrite into the core (``provers.backends.smt.core``)
that both emitters (``provers.backends.smt.emit``) translate mechanically. This module is the
machinery (scopes, facts, binders, dispatch, whole obligations); the rewrites themselves are
tables: ``rewrites.LOWERING`` (each operation), ``sets.MEMBERSHIP`` (membership in each set
former), ``complex_pairs.COMPLEX_PARTS`` (each Complex-valued operation), with the fresh
symbols of ``symbols``.

The lowering's fresh symbols have names starting with ``%``: ``%sqrt``, ``%exp``, ``%ln``
(log on x > 0), ``%ln_neg`` (Isabelle ln on x ≤ 0: one constant), ``%sin`` ..., ``%pi``, and ``%t<hash>``
for a whole subterm the solvers cannot model (a function of its free variables, so
congruence still holds).

Facts about fresh symbols are TRUE statements about the real functions (never more): they
can only rule out impossible interpretations, never make a false formula provable. A fact
whose free variables are bound by a quantifier is inserted at that quantifier (``fact → body``
under ∀, ``fact ∧ body`` under ∃, both equivalent under the intended meaning). A solver
model is only a candidate countermodel until the exact evaluator confirms it.

Lowering raises ``Unsupported(what)`` for what cannot be encoded soundly (complex-valued
functions, quantifiers over functions, existential ℚ).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from provers.backends.smt.complex_pairs import (
    COMPLEX_PARTS,
    big_operator_c,
    complex_parts,
    is_complex_fun,
)
from provers.backends.smt.core import (
    T,
    Unsupported,
    c_and,
    c_eq,
    c_imp,
    c_le,
    c_lt,
    c_not,
    c_or,
    c_ufun,
    cint,
    core_app,
    core_sort,
    creal,
    fresh_name,
    inhabited,
    representable,
)
from provers.backends.smt.rewrites import LOWERING
from provers.backends.smt.sets import MEMBERSHIP, big_operator
from provers.backends.smt.surd_split import split_surd_equations
from provers.ir import (
    BOOL,
    COMPLEX,
    FALSE,
    INT,
    INTERVALS,
    NAT,
    RAT,
    REAL,
    TRUE,
    App,
    BigOp,
    FunSort,
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
    bound_variables,
    canonical,
    free_vars,
    has_uninterpreted,
    map_term,
    shared_conjuncts_out,
    substitute,
    subterms,
    whole_hypotheses,
)
from provers.semantics import Approx, Undetermined, evaluate, pairs
from provers.semantics.algebraic import algebraic_value
from provers.semantics.folding import numeral, value_term
from provers.semantics.identities import polynomial_identity
from provers.semantics.library import LIBRARY, LIST_CONSTRUCTORS, library_value


@dataclass
class Lowered:
    """A validity question for the solvers: ``facts → formula`` over ``consts`` (Skolem
    constants for the obligation's outer ∀ variables and free variables). ``formula`` and
    ``facts`` are core terms: every application in them was built by ``core.core_app``
    (``core.check_core`` checks a whole term; the tests run it on lowered obligations)."""

    formula: Term
    facts: list[Term]
    consts: list[Var]  # original IR variables (names and sorts) for the model
    body: Term  # the original obligation body under the stripped outer ∀ (for validation)
    #: a quantifier's facts were hypotheses where ``constrain_facts=True`` conjoins them
    #: (``Lowerer.quantifier``): lowering again that way gives the solver another question
    constrainable: bool = False
    #: (Skolem constant, the name of the ∃ variable it stands for) (``Lowerer.witnessed``)
    witnesses: tuple[tuple[Var, str], ...] = ()
    #: an ∃ that ``witness_existentials=True`` turns into constants: another question
    witnessable: bool = False
    #: variables of a sort the solvers lack that a hypothesis gives a closed value (``scores =
    #: [17, 10, 9]``), substituted away (``literal_definitions``): (variable, its exact value)
    defined: tuple[tuple[Var, Any], ...] = ()
    #: list variables seen only through their sum and length (``summarized_lists``): (the
    #: list, the constant for its sum, the constant for its length)
    summarized: tuple[tuple[Var, Var, Var], ...] = ()
    #: set-valued function variables seen only through membership (``Lowerer.membership``):
    #: (the variable, the name of its membership predicate ``e ∈ f x̄``)
    set_functions: tuple[tuple[Var, str], ...] = ()
    #: function variables the solvers cannot declare, seen only applied, each application an
    #: opaque symbol of its variables (``Lowerer._opaque_head``): (f, the symbol, f x̄, the
    #: symbol's variables)
    opaque_heads: tuple[tuple[Var, str, Term, tuple[Var, ...]], ...] = ()
    #: a numeral's power with a symbolic exponent (``10 powr b``) was lowered: a spurious
    #: model may have guessed its value, and ``integral_exponents=True`` asks for one at an
    #: integer exponent, where the facts give it exactly (``rewrites._integer_exponent_values``)
    real_exponents: bool = False


#: Operations that take Complex arguments outside ``COMPLEX_PARTS``.
_ON_COMPLEX = frozenset({"eq", "ne", "re", "im", "cabs"})


class _Scope:
    def __init__(self, vars_: frozenset[Var], kind: str):
        self.vars = vars_
        self.kind = kind  # forall / exists / term (lambda, big operator, set-builder)
        self.facts: list[Term] = []


class Lowerer:
    """Rewrites one obligation; collects facts per scope. Use ``lower_obligation``."""

    def __init__(self, constrain_facts: bool = False, witness_existentials: bool = False,
                 integral_exponents: bool = False) -> None:
        self.constrain_facts = constrain_facts
        self.witness_existentials = witness_existentials
        self.integral_exponents = integral_exponents  # a restriction: models only, no proofs
        self.real_exponents = False  # a numeral's power with a symbolic exponent was lowered
        self.constrainable = False
        self.top_facts: list[Term] = []
        self.scopes: list[_Scope] = []
        self.seen_facts: set[Term] = set()
        self.monotone: dict[str, list[Term]] = {}  # strictly increasing symbol -> top-level args
        self.nat_valued: set[tuple[str, tuple[Sort, ...]]] = set()  # ℕ-valued user symbols
        self.witnesses: list[tuple[Var, str]] = []
        self.witnessable = False  # an ∃ ``witness_existentials`` would turn into constants
        self.set_functions: dict[Var, str] = {}  # f : σ̄ → Set τ -> its membership predicate
        self.opaque_heads: list[tuple[Var, str, Term, tuple[Var, ...]]] = []  # (f, symbol, f x̄, its variables)
        #: (body, its constants) whose ground terms an assumed ∀ is instantiated at
        #: (``ground_instances``; read on the first such ∀ only); None: no instances
        self.ground_source: tuple[Term, list[Var]] | None = None
        self._grounds: dict[Sort, list[Term]] | None = None
        self._instantiating = False

    def grounds(self) -> dict[Sort, list[Term]]:
        """``ground_terms`` of ``ground_source``, computed once per obligation when needed."""
        if self._grounds is None:
            self._grounds = ground_terms(*self.ground_source) if self.ground_source is not None else {}
        return self._grounds

    def fact(self, f: Term) -> None:
        """Record a TRUE fact at the innermost scope binding one of its variables."""
        if f == T:
            return
        fv = free_vars(f)
        for sc in reversed(self.scopes):
            if fv & sc.vars:
                if sc.kind == "term":
                    return  # cannot state a fact inside a term binder: drop it (sound)
                if f not in sc.facts:
                    sc.facts.append(f)
                return
        if f not in self.seen_facts:
            self.seen_facts.add(f)
            self.top_facts.append(f)

    def lower(self, t: Term, pol: int = 1) -> Term:
        """Lower ``t``; an unsupported subterm of a representable sort becomes opaque."""
        try:
            return self.lower_strict(t, pol)
        except Unsupported as e:
            if t.sort == BOOL or t.sort in (NAT, INT, RAT, REAL) or isinstance(t.sort, OpaqueSort):
                if all(v.sort == COMPLEX or representable(v.sort) or self._opaque_head(v, t)
                       for v in free_vars(t)) and not isinstance(t, Var):
                    return self.opaque(t)
            raise e

    def _opaque_head(self, f: Var, t: Term) -> bool:
        """``t`` is ``f x̄`` with f a function variable of the obligation that the solvers
        cannot declare (``average : real list → real``) but whose value is a number: such an
        application is an opaque unknown, and a model gives f back as a table
        (``Lowered.opaque_heads``)."""
        return (isinstance(t, App) and t.op == "apply" and t.args[0] == f and isinstance(f.sort, FunSort)
                and f not in t.args[1:] and representable(f.sort.result)
                and not any(f in sc.vars for sc in self.scopes))

    def opaque(self, t: Term) -> Term:
        """A subterm the solvers cannot model, as an uninterpreted function of its free
        variables (keyed by its alpha-canonical form, so equal subterms stay equal).

        A function variable of several arguments is no solver value: it cannot be an
        argument. Where it is a constant of the obligation (no binder inside it binds it: the
        solvers quantify over no such function) the term is a function of the others alone,
        and its name enters the key instead, so that the same term over another function is
        another unknown."""
        fv = sorted(free_vars(t), key=lambda v: (v.name, str(v.sort)))
        bound = {v.name for sc in self.scopes for v in sc.vars}
        constant_functions = [v for v in fv if isinstance(v.sort, FunSort) and not _unary_scalar_fun(v.sort)
                              and v.name not in bound]
        key = repr(canonical(t, free_prefix="_v")) + repr([(v.name, str(v.sort)) for v in constant_functions])
        order: list[Var] = []
        for s in subterms(t):
            if isinstance(s, Var) and s in fv and s not in order and s not in constant_functions:
                order.append(s)
        name = "%t" + hashlib.sha1(key.encode()).hexdigest()[:16]
        args = [p for v in order for p in (complex_parts(v) if v.sort == COMPLEX else (self.lower_strict(v, 0),))]
        out = c_ufun(name, core_sort(t.sort), *args)
        heads = [f for f in constant_functions if not representable(f.sort)]
        if heads and isinstance(t, App) and t.op == "apply" and t.args[0] in heads:
            self.opaque_heads.append((t.args[0], name, t, tuple(order)))
        if t.sort == NAT:
            self.fact(c_le(cint(0), out))
        return out

    def lower_strict(self, t: Term, pol: int) -> Term:
        if isinstance(t, Var):
            return Var(t.name, core_sort(t.sort))
        if isinstance(t, Num):
            if t.sort == COMPLEX:
                raise Unsupported("complex value outside an equation")
            return Num(t.value, core_sort(t.sort))
        if isinstance(t, Quant):
            return self.quantifier(t, pol)
        if isinstance(t, Uninterpreted):
            return self.uninterpreted(t)
        if isinstance(t, BigOp):
            return big_operator(self, t)
        if isinstance(t, (Lam, SetBuilder)):
            raise Unsupported(f"{type(t).__name__} outside an application")
        if isinstance(t, App):
            return self.operation(t, pol)
        raise Unsupported(f"term {type(t).__name__}")

    def operation(self, t: App, pol: int) -> Term:
        if t.op not in _ON_COMPLEX and (t.sort == COMPLEX or any(a.sort == COMPLEX for a in t.args)):
            raise Unsupported(f"complex numbers in {t.op}")
        handler = LOWERING.get(t.op)
        if handler is None:
            raise Unsupported(f"operation {t.op}")
        return handler(self, t, pol)

    def uninterpreted(self, t: Uninterpreted) -> Term:
        if any(not representable(a.sort) for a in t.args):
            raise Unsupported(f"uninterpreted {t.symbol} on unsupported sorts")
        args = [self.lower(a, 0) for a in t.args]
        out = c_ufun(t.symbol, core_sort(t.sort), *args)
        if t.sort == NAT:
            self.fact(c_le(cint(0), out))
            self.nat_valued.add((t.symbol, tuple(a.sort for a in t.args)))
        return out

    def binder_vars(self, v: Var) -> list[Var]:
        if isinstance(v.sort, SetSort) or isinstance(v.sort, FunSort) and not _unary_scalar_fun(v.sort):
            raise Unsupported(f"quantifier over {v.sort}")
        if v.sort == COMPLEX:
            return list(complex_parts(v))
        return [Var(v.name, core_sort(v.sort))]

    def quantifier(self, t: Quant, pol: int) -> Term:
        identity = polynomial_identity(t)
        if identity is not None:  # its coefficient equations: no quantifier for the solver
            return self.lower(identity, pol)
        if t.kind == "forall" and pol == -1 and not self.scopes and len(t.vars) == 1 \
                and self.ground_source is not None and not self._instantiating:
            instances = ground_instances(t, self.grounds())
            if instances:
                self._instantiating = True  # the ∀ and its instances are lowered without this branch
                try:
                    return c_and(self.quantifier(t, pol), *(self.lower(i, pol) for i in instances))
                finally:
                    self._instantiating = False
        if t.kind == "exists1":
            v = t.vars[0]
            w = Var(fresh_name(v.name, t), v.sort)
            unique = Quant("forall", (w,), app("implies", substitute(t.body, {v: w}), app("eq", w, v)))
            return self.lower_strict(Quant("exists", (v,), app("and", t.body, unique)), pol)
        if t.kind == "exists" and pol == -1 and not self.scopes and all(_witnessable(v.sort) for v in t.vars):
            self.witnessable = True
            if self.witness_existentials:
                return self.witnessed(t)
        if any(_mentions_rat(v.sort) for v in t.vars) and not ((t.kind == "forall" and pol == 1) or (t.kind == "exists" and pol == -1)):
            raise Unsupported("quantifier over ℚ in a position where ℝ would not be sound")
        cvars = tuple(cv for v in t.vars for cv in self.binder_vars(v))
        scope = _Scope(frozenset(cvars), t.kind)
        self.scopes.append(scope)
        try:
            body = self.lower(t.body, pol)
        finally:
            self.scopes.pop()
        guards = [c_le(cint(0), Var(v.name, INT)) for v in t.vars if v.sort == NAT]
        # a bound ℕ-valued function ranges over ℕ-valued arrays only: without this, ∃ f : ℕ → ℕ
        # could pick negative values and make every application fact below a vacuous guard
        guards += _nat_range_axioms([v for v in t.vars if isinstance(v.sort, FunSort)], set())
        # The scope's facts hold at every point of the domain, so stating them inside the
        # quantifier as hypotheses (``∀x. facts → body``) or conjoined (``∀x. facts ∧ body``)
        # is equivalent in every intended interpretation. Hypotheses by default: a proof may
        # use them. But the negated obligation makes the solver satisfy a ∀ at polarity -1 (a
        # premise) and an ∃ at polarity 1, and there it can make hypotheses false
        # (`%powr x (1/2) ≤ 0` at x > 0) and the premise vacuous: every model is then spurious.
        # ``constrain_facts`` conjoins them in those positions (``solve`` asks that way again
        # where the first answer is not definitive; asking that way first turned quick
        # spurious models into timeouts).
        facts = scope.facts
        constraining = (t.kind == "forall" and pol == -1) or (t.kind == "exists" and pol == 1)
        self.constrainable |= constraining and bool(facts)
        constrain = constraining and self.constrain_facts
        # SMT sorts are never empty, Lean's may be (`Fin 0`, a type variable): over an empty
        # sort ∀ is true and ∃ false, whatever the body
        nonempty = c_and(*(inhabited(v.sort) for v in t.vars))
        if t.kind == "forall":
            if constrain:
                return c_or(c_not(nonempty), Quant("forall", cvars, c_imp(c_and(*guards), c_and(*facts, body))))
            return c_or(c_not(nonempty), Quant("forall", cvars, c_imp(c_and(*guards, *facts), body)))
        if constrain:
            return c_and(nonempty, Quant("exists", cvars, c_and(*guards, c_imp(c_and(*facts), body))))
        return c_and(nonempty, Quant("exists", cvars, c_and(*guards, *facts, body)))

    def witnessed(self, t: Quant) -> Term:
        """An ∃ the negated obligation asserts outside every binder (a premise's ``∃k. k² =
        n``), its variables replaced by fresh constants (Skolem constants): satisfiable
        exactly when the ∃ form is, one quantifier less for the solvers, and their models
        name a witness, which the evaluator then tries first (``solve``: without it an ∃
        over an unbounded domain is only probed at small values)."""
        renamed: dict[Var, Term] = {}
        for v in t.vars:
            w = Var(f"{v.name}%ex{len(self.witnesses)}", v.sort)
            self.witnesses.append((Var(w.name, core_sort(v.sort)), v.name))
            renamed[v] = w
        guards = [c_le(cint(0), Var(w.name, INT)) for w in renamed.values() if w.sort == NAT]  # type: ignore[attr-defined]
        nonempty = c_and(*(inhabited(v.sort) for v in t.vars))
        return c_and(nonempty, *guards, self.lower(substitute(t.body, renamed), -1))

    def lower_c(self, t: Term) -> tuple[Term, Term]:
        """(re, im) of a Complex-sorted term, as core Real terms."""
        if isinstance(t, Var):
            return complex_parts(t)
        if isinstance(t, Num):
            return creal(t.value), creal(0)
        if isinstance(t, BigOp):
            return big_operator_c(self, t)
        if not isinstance(t, App):
            raise Unsupported(f"complex {type(t).__name__}")
        handler = COMPLEX_PARTS.get(t.op)
        if handler is None:
            raise Unsupported(f"complex operation {t.op}")
        return handler(self, t)

    def equality(self, a: Term, b: Term, pol: int) -> Term:
        s = a.sort
        if isinstance(s, FunSort):
            xs = tuple(Var(fresh_name(f"a{i}", a, b), srt) for i, srt in enumerate(s.args))
            return self.lower_strict(Quant("forall", xs, app("eq", app("apply", a, *xs), app("apply", b, *xs))), pol)
        if isinstance(s, SetSort):
            x = Var(fresh_name("x", a, b), s.elem)
            return self.lower_strict(Quant("forall", (x,), app("iff", app("mem", x, a), app("mem", x, b))), pol)
        return c_eq(self.lower(a, 0), self.lower(b, 0))

    def application(self, f: Term, args: tuple[Term, ...], pol: int) -> Term:
        if isinstance(f, Lam):
            return self.lower(substitute(f.body, dict(zip(f.vars, args, strict=True))), pol)
        if isinstance(f, Var):
            cargs = [self.lower(a, 0) for a in args]
            out = core_app("apply", core_sort(f.sort.result), Var(f.name, core_sort(f.sort)), *cargs)  # type: ignore[attr-defined]
            if f.sort.result == NAT:  # type: ignore[attr-defined]
                self.fact(c_le(cint(0), out))
            return out
        raise Unsupported("application of a function-valued expression")

    def membership(self, x: Term, s: Term, pol: int) -> Term:
        cx = self.lower(x, 0)
        if isinstance(s, Var):
            return core_app("mem", BOOL, cx, Var(s.name, core_sort(s.sort)))
        if isinstance(s, SetBuilder):
            return self.lower(substitute(s.body, {s.var: x}), pol)
        if isinstance(s, App) and s.op == "apply" and self._set_function(s.args[0]):
            # e ∈ f x̄, f a set-valued function of the obligation: one predicate of (e, x̄),
            # whose model ``solve.read_model`` reads back as f's table of finite sets
            f = s.args[0]
            name = self.set_functions.setdefault(f, "%member_" + hashlib.sha1(f.name.encode()).hexdigest()[:12])
            return c_ufun(name, BOOL, cx, *(self.lower(a, 0) for a in s.args[1:]))
        if not isinstance(s, App):
            raise Unsupported(f"membership in {type(s).__name__}")
        handler = MEMBERSHIP.get(s.op)
        if handler is None:
            raise Unsupported(f"membership in {s.op}")
        return handler(self, x, cx, s, pol)

    def _set_function(self, f: Term) -> bool:
        """``f`` a function variable into sets of numbers, over numbers or opaque elements,
        that no binder inside the obligation binds (the solvers quantify over no function)."""
        if not (isinstance(f, Var) and isinstance(f.sort, FunSort) and isinstance(f.sort.result, SetSort)):
            return False
        scalar = (BOOL, NAT, INT, RAT, REAL)
        return (f.sort.result.elem in scalar
                and all(a in scalar or isinstance(a, OpaqueSort) for a in f.sort.args)
                and not any(f in sc.vars for sc in self.scopes))

    def note_monotone(self, name: str, x: Term) -> None:
        bound = frozenset().union(*(sc.vars for sc in self.scopes)) if self.scopes else frozenset()
        args = self.monotone.setdefault(name, [])
        if not (free_vars(x) & bound) and x not in args and len(args) < 12:
            args.append(x)

    def monotone_facts(self) -> list[Term]:
        """x < y → f x < f y for exp (on ℝ) and ln (on x > 0), over top-level arguments."""
        out = []
        for name, args in self.monotone.items():
            for a in args:
                for b in args:
                    if a is b:
                        continue
                    pre = c_lt(a, b) if name == "%exp" else c_and(c_lt(creal(0), a), c_lt(a, b))
                    out.append(c_imp(pre, c_lt(c_ufun(name, REAL, a), c_ufun(name, REAL, b))))
        return out


def _witnessable(s: Sort) -> bool:
    """Sorts of ∃ variables ``Lowerer.witnessed`` turns into constants (whose model values
    the evaluator can take as they are)."""
    return s in (BOOL, NAT, INT, REAL) or isinstance(s, OpaqueSort)


def _mentions_rat(s: Sort) -> bool:
    if s == RAT:
        return True
    if isinstance(s, FunSort):
        return any(_mentions_rat(a) for a in s.args) or _mentions_rat(s.result)
    if isinstance(s, SetSort):
        return _mentions_rat(s.elem)
    return False


def _unary_scalar_fun(s: Sort) -> bool:
    """Functions the emitters represent as arrays (one scalar argument, scalar result)."""
    def scalar(x: Sort) -> bool:
        return x in (BOOL, NAT, INT, RAT, REAL) or isinstance(x, OpaqueSort)

    return isinstance(s, FunSort) and len(s.args) == 1 and scalar(s.args[0]) and scalar(s.result)


#: Operations folded to a numeral when all their arguments are numerals (exact results only).
_FOLDABLE = frozenset({
    "add", "sub", "mul", "neg", "div", "mod", "ediv", "emod", "fdiv", "fmod", "inv", "pow", "zpow",
    "abs", "min", "max", "sign", "cast", "floor", "ceil", "nat_floor", "nat_ceil", "round", "to_nat",
    "nat_abs", "frac", "fact", "choose", "gcd", "lcm", "dvd", "prime", "even", "odd", "sqrt",
    "signed_sqrt", "root", "eq", "ne", "lt", "le", "gt", "ge", "list_sum", "list_length", "rpow", "powr",
    "log", "logb", "exp", "card",
})


#: Ground set arguments a foldable operation may have (``card (range 5)``, ``list_sum (digits 10 n)``).
_GROUND_SETS = frozenset({"digits", "range", *INTERVALS, "set_of", "divisors", "filter"})


_MAX_FOLD_BITS = 4096

#: Relations folded to True / False when both sides are closed arithmetic (numerals and
#: operations only) and one side is transcendental: the evaluator certifies √2 < 3/2 or
#: √8 = 2·√2 exactly (``semantics.certify``), where a solver would need nonlinear reasoning
#: about fresh symbols. (Exact sides are folded by the ordinary rule, within its size limit.)
_CERTIFIED_RELATIONS = frozenset({"eq", "ne", "lt", "le", "gt", "ge"})


def _closed_transcendental_comparison(s: App) -> bool:
    if not (s.op in _CERTIFIED_RELATIONS and s.args[0].sort in (NAT, INT, RAT, REAL)):
        return False
    if not all(isinstance(u, (App, Num)) and u.sort != COMPLEX for u in subterms(s)):
        return False
    return any(isinstance(evaluate(a, {}), (Approx, Undetermined)) for a in s.args)


#: Operations the solvers see through fresh symbols and facts: a closed application of one
#: (``√7 powr 2``), or arithmetic on such applications (``√8 · √2``), is folded to its exact
#: rational value when the exact field evaluator (``algebraic_value``) gives it one.
_IRRATIONAL_OPS = frozenset({"sqrt", "signed_sqrt", "powr", "rpow", "root"})
_FIELD_OPS = frozenset({"add", "sub", "mul", "div", "neg", "pow"})


def _exact_rational(s: App) -> Num | None:
    """``s`` as a numeral when it is a closed application of ``_IRRATIONAL_OPS`` (or field
    arithmetic directly on one) with a rational value under the exact field evaluator
    (radicals, rational powers, Isabelle's and Lean's conventions at 0 and below)."""
    if s.sort not in (NAT, INT, RAT, REAL):
        return None
    if s.op not in _IRRATIONAL_OPS and not (
            s.op in _FIELD_OPS and any(isinstance(a, App) and a.op in _IRRATIONAL_OPS for a in s.args)):
        return None
    if free_vars(s) or has_uninterpreted(s):
        return None
    try:
        v = algebraic_value(s, {})
    except Exception:  # noqa: BLE001 - an evaluator failure leaves the term to the solver
        return None
    if isinstance(v, (int, Fraction)) and not isinstance(v, bool):
        if s.sort in (NAT, INT) and Fraction(v).denominator != 1 or s.sort == NAT and v < 0:
            return None
        return Num(v, core_sort(s.sort))
    return None


def _ground_list(a: Term) -> bool:
    """``[17, 10, 9]``, ``[1..<5]``: a list of numerals the evaluator builds (sum_list of it folds)."""
    return isinstance(a, Uninterpreted) and a.symbol in LIST_CONSTRUCTORS and all(isinstance(x, Num) for x in a.args)


def fold_ground(t: Term) -> Term:
    """Replace ground subterms whose exact value the evaluator knows by numerals.

    Sound because the evaluator is exact (approximate or undecided values are left alone);
    it spares the solvers e.g. gcd (20!) 200000 or the digits of 2^100.
    """

    def fn(s: Term) -> Term | None:
        if not isinstance(s, App) or s.op not in _FOLDABLE:
            return None
        if _closed_transcendental_comparison(s):
            v = evaluate(s, {})
            return (TRUE if v else FALSE) if isinstance(v, bool) else None
        if not all(isinstance(a, Num) or (isinstance(a, App) and a.op in _GROUND_SETS and not free_vars(a))
                   or _ground_list(a) for a in s.args):
            return _exact_rational(s)  # `√7 powr 2` is 7
        if s.sort == COMPLEX or any(a.sort == COMPLEX for a in s.args):
            return None
        v = evaluate(s, {})
        if isinstance(v, bool):
            return TRUE if v else FALSE
        return numeral(v, s.sort, _MAX_FOLD_BITS)

    return map_term(t, fn)


#: Instantiate each assumed top-level ∀ (a premise ``∀x. P x``) at the obligation's ground
#: terms of x's sort as well (``ground_instances``).
GROUND_INSTANCES = True
#: At most this many ground terms per sort, and instances per quantifier.
MAX_GROUND_TERMS = 8
#: Numerals larger than this are no instance points (a sum's bound, a year).
_MAX_GROUND_NUMERAL = 10 ** 6


def ground_terms(body: Term, consts: list[Var]) -> dict[Sort, list[Term]]:
    """The obligation's variables and numerals by sort (ℕ / ℤ / ℚ / ℝ), with 0 and 1: the
    points where an assumed ∀ is worth stating outright."""
    out: dict[Sort, list[Term]] = {}
    for v in consts:
        if v.sort in (NAT, INT, RAT, REAL):
            out.setdefault(v.sort, []).append(v)
    numerals = sorted({s for s in subterms(body) if isinstance(s, Num) and s.sort in (NAT, INT, RAT, REAL)
                       and abs(s.value) <= _MAX_GROUND_NUMERAL}, key=lambda n: (abs(n.value), n.value, str(n.sort)))
    for s in (NAT, INT, RAT, REAL):
        for n in [Num(0, s), Num(1, s), *(n for n in numerals if n.sort == s)]:
            terms = out.setdefault(s, [])
            if n not in terms:
                terms.append(n)
    return {s: ts[:MAX_GROUND_TERMS] for s, ts in out.items() if ts}


def ground_instances(t: Quant, grounds: dict[Sort, list[Term]]) -> list[Term]:
    """``P g`` for the ground terms g of a one-variable ∀'s sort that occur in the obligation
    (``Lowerer.quantifier`` asks only for one-variable ∀s).

    Why: a premise ``∀x. x · f x = k`` beside ``f 1500 = 15`` is contradictory at x = 0, and
    ``∀m ∈ {2..n−1}. n mod m ≠ 0`` beside ``n = p₁ p₂`` at m = p₁, but the solvers' trigger-based
    instantiation never tries a point no term of the formula applies ``f`` or ``mod`` to
    (algebra/problem_1332, prealgebra/problem_1441: their vacuity tests timed out). An assumed
    ∀ implies each instance, so stating them beside it changes no model and no proof."""
    (v,) = t.vars
    return [substitute(t.body, {v: g}) for g in grounds.get(v.sort, []) if g != v]


#: State each library function's value at the obligation's numerals (``library_facts``).
LIBRARY_FACTS = True
#: At most this many such facts per obligation, and elements in a set value.
MAX_LIBRARY_FACTS = 16
MAX_LIBRARY_SET = 32


def library_facts(body: Term, consts: list[Var]) -> list[Term]:
    """``t = c → f t = v`` (``f c = v`` when t is the numeral c) for each application ``f t``
    in ``body`` of a library function f (``semantics.library``) of one ℕ / ℤ argument whose
    free variables are the obligation's constants ``consts``, at each numeral c of that sort
    in ``body`` (and 0, 1), where f's value v at c is a number, a truth value or a finite set
    of at most ``MAX_LIBRARY_SET`` numbers.

    Why: the solvers see library functions as uninterpreted, so ``prime_factors n = {p}``
    beside ``n = 78`` has models (any set for ``prime_factors 78``), each rejected by the
    evaluator, which knows the one meaning ({2, 3, 13}): the vacuity test and every check of
    the pair ended "spurious model" (prealgebra/problem_878). A fact true of that meaning
    rules out only interpretations the semantics already rules out: a proof stays a proof,
    and every model is still re-checked by the evaluator. The fact names the application as
    it is written (``f t``, not ``f c``): a set-valued one is lowered as a membership
    predicate of the term's own free variables, which ``f c`` would not share."""
    known = set(consts)
    applied: dict[Uninterpreted, None] = {}
    for s in subterms(body):
        if isinstance(s, Uninterpreted) and s.symbol in LIBRARY and len(s.args) == 1 \
                and s.args[0].sort in (NAT, INT) and free_vars(s.args[0]) <= known:
            applied[s] = None
    if not applied:
        return []
    numerals = ground_terms(body, [])
    out: list[Term] = []
    for f in applied:
        (arg,) = f.args
        for c in numerals.get(arg.sort, []):
            if isinstance(arg, Num) and arg != c:
                continue
            value = _library_term(library_value(f.symbol, [c.value], [arg.sort]), f.sort)
            if value is None:
                continue
            claim = app("iff" if f.sort == BOOL else "eq", f, value)
            out.append(claim if isinstance(arg, Num) else app("implies", app("eq", arg, c), claim))
    return out[:MAX_LIBRARY_FACTS]


def _library_term(v: Any, sort: Sort) -> Term | None:
    """A library value as a closed term of ``sort``: ``value_term``'s literal, or a finite set
    of at most ``MAX_LIBRARY_SET`` such literals; None for anything else."""
    if isinstance(v, (set, frozenset)) and isinstance(sort, SetSort):
        elements = [value_term(x, sort.elem) for x in sorted(v)] if len(v) <= MAX_LIBRARY_SET else [None]
        return None if any(e is None for e in elements) else app_sorted("set_of", sort, *elements)
    return value_term(v, sort)


def _nat_range_axioms(consts: list[Var], symbols: set[tuple[str, tuple[Sort, ...]]]) -> list[Term]:
    """∀ args ∈ ℕ, f args ≥ 0 for ℕ-valued function variables and user symbols: true, and
    stated once globally (a per-application fact under a ∀ only guards that ∀)."""
    out: list[Term] = []
    sigs: list[tuple[Term | None, str, tuple[Sort, ...]]] = []
    for v in consts:
        if isinstance(v.sort, FunSort) and v.sort.result == NAT and all(representable(a) for a in v.sort.args):
            sigs.append((Var(v.name, core_sort(v.sort)), v.name, v.sort.args))
    for name, args in sorted(symbols, key=lambda k: (k[0], str(k[1]))):
        if args:
            sigs.append((None, name, args))
    for fvar, name, args in sigs:
        if any(isinstance(a, (FunSort, SetSort)) or a == COMPLEX for a in args):
            continue
        xs = tuple(Var(f"%a{i}", core_sort(a)) for i, a in enumerate(args))
        app_ = core_app("apply", INT, fvar, *xs) if fvar is not None else c_ufun(name, INT, *xs)
        guard = c_and(*(c_le(cint(0), x) for x, a in zip(xs, args, strict=True) if a == NAT))
        out.append(Quant("forall", xs, c_imp(guard, c_le(cint(0), app_))))
    return out


def lower_obligation(obligation: Term, fold: bool = True, constrain_facts: bool = False,
                     witness_existentials: bool = False, integral_exponents: bool = False) -> Lowered:
    """Lower a closed formula (free variables count as universally quantified).

    ``fold`` first replaces exactly-known ground subterms by numerals (``fold_ground``);
    tests of the encodings themselves turn it off. ``constrain_facts``: the facts of a
    quantifier the negated obligation asserts are conjoined, not hypotheses
    (``Lowerer.quantifier``). ``witness_existentials``: an ∃ it asserts outside binders
    becomes constants (``Lowerer.witnessed``). ``integral_exponents``: the symbolic exponents
    of numerals' powers are integers — not a fact but a restriction, so the question can only
    give models (``solve._other_questions``).
    """
    if obligation.sort != BOOL:
        raise Unsupported(f"obligation of sort {obligation.sort}, not a formula")
    consts: list[Var] = []
    body = obligation
    while isinstance(body, Quant) and body.kind == "forall":
        consts.extend(body.vars)
        body = body.body
    if len({v.name for v in consts}) != len(consts):
        raise Unsupported("outer ∀ rebinds a variable name")
    for v in sorted(free_vars(body) - set(consts), key=lambda v: v.name):
        consts.append(v)
    original_body = body
    body, defined = literal_definitions(body, consts)
    consts = [v for v in consts if v not in dict(defined)]
    body, summarized = summarized_lists(body, consts)
    consts = [v for v in consts if v not in {w for w, _, _ in summarized}] + [x for _, s, n in summarized for x in (s, n)]
    lw = Lowerer(constrain_facts, witness_existentials, integral_exponents)
    body = shared_conjuncts_out(body)
    body = pairs.simplify(body, isabelle=False)  # (x, y) = (0, 0): the solvers have no pairs
    if fold:
        body = fold_ground(body)
    body = split_surd_equations(body)
    if GROUND_INSTANCES:
        lw.ground_source = (body, consts)
    facts: list[Term] = []
    for v in consts:
        if v.sort != COMPLEX and not is_complex_fun(v.sort) and not representable(v.sort) and not (
                isinstance(v.sort, FunSort) and representable(v.sort.result)):
            raise Unsupported(f"variable {v.name} of sort {v.sort}")  # (f x̄ of a number sort: opaque, or unsupported there)
        if v.sort == NAT:
            facts.append(c_le(cint(0), Var(v.name, INT)))
        # an outer ∀ over an empty sort is vacuous: proving it for inhabited ones suffices
        if inhabited(v.sort) != T and inhabited(v.sort) not in facts:
            facts.append(inhabited(v.sort))
    formula = lw.lower(body, 1)
    if LIBRARY_FACTS:
        for fact in library_facts(body, consts):
            try:
                facts.append(lw.lower(fact, 0))
            except Unsupported:  # a sort the solvers lack: no fact, no harm
                continue
    facts.extend(lw.top_facts)
    facts.extend(lw.monotone_facts())
    facts.extend(_nat_range_axioms([], lw.nat_valued))
    # ℕ-valued function variables: ∀ args ∈ ℕ, f args ≥ 0. Without a binder every application
    # already has its fact (Lowerer.fact), and the ∀ only slowed z3 down (an array's range
    # under MBQI: `∑ i ∈ {490..751}, f i = 516` timed out at 5 s, and is satisfiable in 0.1 s
    # without it); a model's table is then made ℕ-valued where no application reads it
    # (``solve._in_range``)
    ranges = _nat_range_axioms(consts, set())
    if ranges and any(isinstance(s, (Quant, Lam)) for t in (formula, *facts) for s in subterms(t)):
        facts.extend(ranges)
    return Lowered(formula, facts, consts, original_body, lw.constrainable, tuple(lw.witnesses), lw.witnessable,
                   defined, summarized, tuple(lw.set_functions.items()), tuple(lw.opaque_heads),
                   lw.real_exponents)


def literal_definitions(body: Term, consts: list[Var]) -> tuple[Term, tuple[tuple[Var, Any], ...]]:
    """``body`` without the variables of a sort the solvers lack (a list) that a hypothesis
    gives a closed value (``scores = [17, 10, 9]``), and those (variable, value) pairs. The
    one-point rule keeps the question: ∀v. (v = t ∧ R v) → C v ⟺ R t → C t (likewise under ¬
    and for a conjunct common to both sides of ↔), and the evaluator folds what t makes
    ground (``sum_list [17, 10, 9]`` is 36). A model gets v = t back (``read_model``)."""
    defined: list[tuple[Var, Any]] = []
    for v in consts:
        if representable(v.sort) or v.sort == COMPLEX or is_complex_fun(v.sort):
            continue
        for h in whole_hypotheses(body):
            if isinstance(h, App) and h.op == "eq" and v in h.args:
                t = h.args[1] if h.args[0] == v else h.args[0]
                value = evaluate(t, {}) if not free_vars(t) else None
                if value is not None and not isinstance(value, (Undetermined, Approx)):
                    body = substitute(body, {v: t})
                    defined.append((v, value))
                    break
    return body, tuple(defined)


#: Element sorts of the lists ``summarized_lists`` reads as their sum and length.
_SUMMED = (NAT, INT, RAT, REAL)


def summarized_lists(body: Term, consts: list[Var]) -> tuple[Term, tuple[tuple[Var, Var, Var], ...]]:
    """``body`` with each list variable (of numbers) that occurs only as ``sum_list xs`` and
    ``length xs`` (appends ``xs @ ys`` split first: their sum and length add up) replaced by
    two constants s and ℓ, under the hypothesis ``ℓ = 0 → s = 0``.

    Why exact: the pairs (sum, length) of the lists of a number sort are exactly those with
    ℓ = 0 → s = 0 (``[s, 0, …, 0]`` has length ℓ ≥ 1 and sum s; over ℕ, s ≥ 0 by its sort), so
    ∀xs. P (sum xs) (length xs) ⟺ ∀s ℓ. (ℓ = 0 → s = 0) → P s ℓ. MATH states "her next three
    scores" as ``length next_scores = 3`` and asks for ``sum_list next_scores``; the solvers have
    no lists. A model gets ``xs = [s, 0, …, 0]`` back (``read_model``), so the evaluator checks
    it on the statement as written."""
    candidates = [v for v in consts if isinstance(v.sort, ListSort) and v.sort.elem in _SUMMED]
    if not candidates:
        return body, ()
    body = map_term(body, _split_append)
    out: list[tuple[Var, Var, Var]] = []
    for v in candidates:
        reads = [t for t in subterms(body) if isinstance(t, App) and t.op in ("list_sum", "list_length") and t.args[0] == v]
        if not reads or sum(1 for t in subterms(body) if t == v) != len(reads) or _rebinds(body, v):
            continue  # v is read some other way (an element, a set, an equation between lists)
        total = Var(fresh_name(f"{v.name}.sum", body), v.sort.elem)  # type: ignore[attr-defined]
        length = Var(fresh_name(f"{v.name}.length", body), NAT)
        body = map_term(body, lambda t, v=v, total=total, length=length: (
            (total if t.op == "list_sum" else length)
            if isinstance(t, App) and t.op in ("list_sum", "list_length") and t.args[0] == v else None))
        empty_sum = app("or", app("ne", length, Num(0, NAT)), app("eq", total, Num(0, total.sort)))
        body = app("implies", empty_sum, body)
        out.append((v, total, length))
    return body, tuple(out)


def _rebinds(body: Term, v: Var) -> bool:
    """Whether a binder inside ``body`` binds a variable equal to v (its occurrences there are
    not v's)."""
    return any(v in bound_variables(t) for t in subterms(body))


def _split_append(t: Term) -> Term | None:
    """``sum_list (xs @ ys)`` as ``sum_list xs + sum_list ys``; ``length`` likewise."""
    if isinstance(t, App) and t.op in ("list_sum", "list_length") and isinstance(a := t.args[0], Uninterpreted) \
            and a.symbol == "append" and len(a.args) == 2:
        return app("add", *(map_term(app(t.op, x), _split_append) for x in a.args))
    return None


def summary_list(total: Any, length: Any, elem: Sort) -> tuple | None:
    """The list ``[s, 0, …, 0]`` of length ℓ and sum s (``()`` for ℓ = 0), or None when the
    model's values are not exact numbers of the element sort or ℓ is huge."""
    if not isinstance(length, int) or isinstance(length, bool) or not 0 <= length <= 100_000:
        return None
    if length == 0:
        return ()
    if isinstance(total, bool) or not isinstance(total, (int, Fraction)):
        return None
    if elem in (NAT, INT) and (Fraction(total).denominator != 1 or (elem == NAT and total < 0)):
        return None
    return (total,) + (0,) * (length - 1)
