"""Restricted prenex normal form of a statement: ``NormalForm(prefix, premises, conclusion)``.

Why: equivalence relations (SAE, symbolic) compare premises with premises and conclusions with
conclusions, so the presentation choices that do not change meaning have to be erased first:

* theorem binders ``(x : ℝ)`` / ``{x : ℝ}`` and leading ``∀ x, …`` of the conclusion become the
  prefix (``∀`` only; an ``∃`` stays inside the conclusion, nothing moves across a component
  boundary); a lifted variable that clashes with an existing name is renamed apart;
* hypotheses ``(h : P)`` and antecedents of the conclusion (``P → Q → R``, ``P ∧ Q → R``) become
  premises, with conjunctions split, so curried and conjoined premises look alike; so is a ∀
  over a conjunction (``∀n, P n ∧ Q n`` is the premises ``∀n, P n`` and ``∀n, Q n``);
* a leading ``¬∃ x, P`` is read as ``∀ x, ¬P`` (and then lifted);
* ``P → False`` is written ``¬P`` and ``¬(a = b)`` is written ``a ≠ b`` everywhere; ``¬P`` is
  never lifted into a premise (so ``: ¬P`` and ``: P → False`` have the same normal form, while
  ``(h : P) : False`` keeps ``P`` as a premise — SAE treats those two as structurally different);
* a variable of a product sort (``A :: real × real``) becomes one variable per component,
  and the pair operations with a fixed meaning reduce to them (``engine.products``);
* ``Type`` variables and instance binders ``[Group G]`` are kept aside: two statements must
  agree on them exactly (up to renaming of the type variables).

``deps`` records binder dependencies: which prefix variables a variable's sort (a type
variable) or range premise (``∀ x ∈ S``, ``∀ x < n``) mentions.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction

from provers.engine.algebra import algebra_normal
from provers.engine.elimination import eliminate_linear_exists
from provers.engine.exponents import exponent_equations, numeral_value
from provers.engine.products import split_normal_form
from provers.ir import (
    BOOL,
    COMPLEX,
    FALSE,
    FIELDS,
    INT,
    NAT,
    ORDER_OPS,
    ORDERED,
    TRUE,
    App,
    BigOp,
    FunSort,
    Hypothesis,
    IRError,
    Lam,
    ListSort,
    Num,
    OpaqueSort,
    ProdSort,
    Quant,
    SetBuilder,
    SetSort,
    Sort,
    Statement,
    Term,
    Uninterpreted,
    Var,
    VarBinder,
    and_,
    app,
    canon_key,
    children,
    conjuncts,
    free_vars,
    fresh_name,
    is_universe,
    map_term,
    opaque_numeral,
    provably_inhabited,
    rebuild,
    rename_apart,
    strip_forall,
    substitute,
    subterms,
    symbol_names,
)
from provers.semantics.folding import FOLDED_OPS, folded_numerals

FORALL = "forall"
EXISTS = "exists"

#: Relations whose second argument bounds a freshly bound variable (``∀ x < n``, ``∀ x ∈ S``).
_RANGE_OPS = ORDER_OPS | {"mem"}


@dataclass(frozen=True)
class NormalForm:
    """``prefix`` in binding order, ``premises`` (conjunction-split), ``conclusion``.

    ``types``: type variables (sort ``Type``) kept aside; ``instances``: instance-binder
    formulas kept aside; ``deps``: ``(var, frozenset(vars it depends on))`` per prefix var.
    """

    prefix: tuple[tuple[str, Var], ...]
    premises: tuple[Term, ...]
    conclusion: Term
    types: tuple[Var, ...] = ()
    instances: tuple[Term, ...] = ()
    deps: tuple[tuple[Var, frozenset[Var]], ...] = ()
    source: Statement | None = field(default=None, compare=False, repr=False)
    #: ``(premises, conclusion)`` before closed numeral arithmetic was folded: the statement
    #: as written, where ``3 + 4 = 7`` is a computation, not a term compared with itself
    #: (``Profile.degenerate``)
    before_folding: tuple[tuple[Term, ...], Term] | None = field(default=None, compare=False, repr=False)
    #: names of the prefix variables the conclusion bound (its leading ∀, a ¬∃): how many
    #: there are depends on how the conclusion is written (``¬ 7 ∣ n`` / ``∀c, n ≠ 7c``)
    peeled: frozenset[str] = field(default=frozenset(), compare=False)

    @property
    def variables(self) -> tuple[Var, ...]:
        return tuple(v for _, v in self.prefix)

    @functools.cached_property
    def opaque_sorts(self) -> frozenset[str]:
        """Names of the opaque sorts its variables and terms have (``Fin n``, ``ZMod p``):
        where a dependent sort names a variable (``sort_match``)."""
        out = {n for v in self.variables for n in sort_mentions(v.sort)}
        for t in (*self.premises, self.conclusion):
            for sub in subterms(t):
                out |= sort_mentions(sub.sort)
        return frozenset(out)

    def body(self) -> Term:
        """``⋀Γ → C`` (open: the prefix variables are free)."""
        if not self.premises:
            return self.conclusion
        return app("implies", and_(*self.premises), self.conclusion)

    def premise(self) -> Term:
        """``⋀Γ`` (``True`` when there are no premises)."""
        return and_(*self.premises)

    def closed(self, body: Term | None = None) -> Term:
        """``body`` (default: ``⋀Γ → C``) closed by the prefix quantifiers."""
        t = self.body() if body is None else body
        for kind, v in reversed(self.prefix):
            t = Quant(kind, (v,), t)
        return t

    def used_variables(self) -> frozenset[Var]:
        """Prefix variables that occur in a premise or the conclusion."""
        return _occurring(self.variables, [*self.premises, self.conclusion])

    def blocks(self) -> tuple[tuple[str, tuple[Var, ...]], ...]:
        """Maximal runs of the prefix with the same quantifier kind (reordering happens only
        inside one block)."""
        out: list[tuple[str, list[Var]]] = []
        for kind, v in self.prefix:
            if out and out[-1][0] == kind:
                out[-1][1].append(v)
            else:
                out.append((kind, [v]))
        return tuple((k, tuple(vs)) for k, vs in out)

    def dependencies(self) -> dict[Var, frozenset[Var]]:
        return dict(self.deps)


def premise_exists_lifted(nf: NormalForm) -> NormalForm:
    """``nf`` with the variables of its ∃ premises moved into the prefix as ∀ variables
    (renamed apart from every name ``nf`` uses), their bodies split into premises; ``nf``
    itself when no premise is an ∃.

    Why: ``(∃ȳ. P x̄ ȳ) → C x̄`` is ``∀ȳ. P x̄ ȳ → C x̄``, so the models of Γ and the value of
    an answer under Γ do not change, while a solver's model now names the witnesses ȳ and the
    exact evaluator checks P at them (it cannot search an ∃ over an unbounded domain). Not
    part of ``normalize``: SAE compares ``(h : ∃ a, P a)`` and ``(a) (h : P a)`` as different
    structures; answer pinning (``engine.answers``) uses it."""
    if not any(isinstance(p, Quant) and p.kind == EXISTS for p in nf.premises):
        return nf
    taken = {v.name for v in nf.variables}
    for t in (*nf.premises, nf.conclusion):
        taken |= {s.name for s in subterms(t) if isinstance(s, Var)}
    prefix = list(nf.prefix)
    premises: list[Term] = []
    todo = list(nf.premises)
    while todo:
        p = todo.pop(0)
        if not (isinstance(p, Quant) and p.kind == EXISTS):
            premises.append(p)
            continue
        mapping: dict[Var, Term] = {}
        for v in p.vars:
            nv = Var(fresh_name(v.name, taken), v.sort)
            taken.add(nv.name)
            mapping[v] = nv
            prefix.append((FORALL, nv))
        todo[:0] = conjuncts(substitute(p.body, mapping))
    return replace(nf, prefix=tuple(prefix), premises=tuple(premises))


def forall_conjuncts(p: Term) -> list[Term]:
    """``∀x̄. [G →] P ∧ Q`` as ``∀x̄. [G →] P`` and ``∀x̄. [G →] Q`` (∀ distributes over ∧), each
    over the bound variables it uses (an unused one dropped only over an inhabited sort): one
    premise per fact, so that two statements writing the same facts in one ∀ or in several
    share them (GTED mathd_numbertheory_435: three coprimality premises against one)."""
    vs, body = strip_forall(p)
    guard = None
    if isinstance(body, App) and body.op == "implies":
        guard, body = body.args
    parts = conjuncts(body)
    if not vs or len(parts) < 2:
        return [p]
    out = []
    for c in parts:
        inner = c if guard is None else app("implies", guard, c)
        used = free_vars(inner)
        keep = tuple(v for v in vs if v in used or not provably_inhabited(v.sort))
        out.append(Quant("forall", keep, inner) if keep else inner)
    return out


def simplify_logic(t: Term, memberships_at_top: bool = True) -> Term:
    """Meaning-preserving rewrites that erase notation: ``P → False`` ⇒ ``¬P``,
    ``¬¬P`` ⇒ ``P`` (classical, as Lean and Isabelle/HOL are), ``¬(a = b)`` ⇒ ``a ≠ b``,
    ``¬(a ≠ b)`` ⇒ ``a = b``, nested ``∧``/``∨`` flattened, ``True`` conjuncts dropped;
    Isabelle's radicals of a positive numeral written one way (``radical``); membership in a
    set-builder ``t ∈ {y | P y}`` ⇒ ``P t`` (``set_memberships``); ``a mod a`` ⇒ ``0``.

    ``memberships_at_top=False`` (a conclusion): memberships only inside a term binder. ``sae``
    compares a premise-free conclusion leaf by leaf through its connectives, and ``18 ∈ S``
    against ``18 ∈ S'`` is one leaf, proved by ``S = S'``; unfolded, ``0 < 18`` against
    ``7 < 18`` is a leaf that fails (the FormalAlign mutant ``IsLeast {t | 7 < t ∧ …} 18`` of
    ``mathd_numbertheory_629``, whose set is the reference's). Inside a set-builder, λ or big
    operator a membership is inside one leaf, so unfolding it changes no leaf."""

    def rw(s: Term) -> Term | None:
        if isinstance(s, Uninterpreted):
            return unread_relation(s) or monoid_square(s)
        if isinstance(s, Quant):
            return divisibility(s)
        if not isinstance(s, App):
            return None
        if s.op in ("powr", "root"):
            return radical(s)
        if s.op in ("mod", "emod", "fmod") and s.args[0] == s.args[1]:
            return Num(0, s.sort)  # a mod a = 0, at a = 0 too (x mod 0 = x): mod_self, Nat.mod_self, Int.emod_self
        if s.op in ("inv", "mul") and s.sort in FIELDS:
            return quotient(s)
        if s.op == "implies" and s.args[1] == FALSE:
            return _not(s.args[0])
        if s.op == "not":
            return _not(s.args[0])
        if s.op in ("and", "or"):
            flat: list[Term] = []
            for a in s.args:
                if isinstance(a, App) and a.op == s.op:
                    flat.extend(a.args)
                else:
                    flat.append(a)
            if s.op == "and":
                return and_(*_implications_as_iffs(flat))
            if len(flat) != len(s.args):
                return app("or", *flat)
        return None

    t = set_memberships(t) if memberships_at_top else _under_binders(t, set_memberships)
    return map_term(t, rw)


def _implications_as_iffs(conjuncts_: list[Term]) -> list[Term]:
    """``(a → b) ∧ (b → a)`` as ``a ↔ b`` (``iff_iff_implies_and_implies``), for each such pair
    of conjuncts: the two spellings of one biconditional are then one formula."""
    out = list(conjuncts_)
    for i, c in enumerate(out):
        if not (isinstance(c, App) and c.op == "implies"):
            continue
        for j in range(i + 1, len(out)):
            d = out[j]
            if isinstance(d, App) and d.op == "implies" and d.args == (c.args[1], c.args[0]):
                out[i] = app("iff", *c.args)
                del out[j]
                break
    return out


#: Lean's relations by their converses (``GT.gt a b`` is ``LT.lt b a``) and its symmetric ones.
_CONVERSE_RELATIONS = {"GT.gt": "LT.lt", "GE.ge": "LE.le"}


def unread_relation(s: Uninterpreted) -> Term | None:
    """A relation the Lean frontend kept uninterpreted (its operands' sorts are not modelled
    or disagree) in one spelling: ``>`` / ``≥`` as ``<`` / ``≤`` with the operands swapped,
    ``a ≠ b`` as ``¬(a = b)`` (``Ne``), the operands of ``=`` in a fixed order, so that
    ``a = b`` and ``b = a`` are one formula (Eq is symmetric whatever the sort)."""
    if len(s.args) != 2:
        return None
    a, b = s.args
    if s.symbol in _CONVERSE_RELATIONS:
        return Uninterpreted(_CONVERSE_RELATIONS[s.symbol], (b, a), s.sort)
    ordered = (b, a) if _operand_key(b) < _operand_key(a) else (a, b)
    if s.symbol == "Ne":  # ``Ne a b`` is ``¬(a = b)`` by definition
        return app("not", Uninterpreted("Eq", ordered, s.sort))
    if s.symbol == "Eq" and ordered != (a, b):
        return Uninterpreted("Eq", ordered, s.sort)
    return None


def divisibility(q: Quant) -> Term | None:
    """``∃ c, b = a * c`` over ℕ or ℤ (c in neither a nor b) as ``a ∣ b``: that is the
    definition of divisibility (Lean's ``Dvd.dvd`` on a monoid, Isabelle's ``dvd_def``), so
    the two spellings are one term, compared without a solver (which times out on the ∃)."""
    if q.kind != "exists" or len(q.vars) != 1 or not (isinstance(q.body, App) and q.body.op == "eq"):
        return None
    c = q.vars[0]
    if c.sort not in (NAT, INT):
        return None
    for product, other in (q.body.args, q.body.args[::-1]):
        if not (isinstance(product, App) and product.op == "mul" and len(product.args) == 2 and c in product.args):
            continue
        a = product.args[1] if product.args[0] == c else product.args[0]
        if a.sort == c.sort == other.sort and c not in free_vars(a) and c not in free_vars(other):
            return app("dvd", a, other)
    return None


def monoid_square(s: Uninterpreted) -> Term | None:
    """``x ^ 2`` on a sort the IR does not model (a group, a ring, matrices) as ``x * x``:
    Lean's ``^`` with a ℕ exponent there is ``Monoid.npow``, and ``pow_two`` holds in every
    monoid; so ``g ^ 2 = 1`` and ``g * g = 1`` are one formula."""
    if s.symbol != "HPow.hPow" or len(s.args) != 2:
        return None
    x, e = s.args
    if not (isinstance(e, Num) and e.sort == NAT and e.value == 2) or x.sort != s.sort:
        return None
    return Uninterpreted("HMul.hMul", (x, x), s.sort)


def folded(t: Term) -> Term:
    """``t`` with its closed numeral arithmetic folded (``semantics.folding``), Isabelle's
    complex ``z powr n`` at a folded natural ``n`` read as ``z ^ n`` (``complex_power``) and
    its extrema of a set that names its extreme element as that element (``known_extremum``)."""
    def rw(s: Term) -> Term | None:  # one bottom-up pass: a power's exponent is folded first
        if isinstance(s, App) and s.op in FOLDED_OPS:
            return folded_numerals(s)
        if not isinstance(s, Uninterpreted):
            return None
        return complex_power(s) or opaque_numerals(s) or known_extremum(s)

    return map_term(t, rw)


#: Lean's addition and multiplication on a sort the IR does not model, by the natural
#: arithmetic its numerals follow (``opaque_numerals``).
_NUMERAL_ARITHMETIC: dict[str, Callable[[int, int], int]] = {"HAdd.hAdd": operator.add, "HMul.hMul": operator.mul}
#: Numerals folded on such a sort stay below this (Lean's ``Float`` adds and multiplies its
#: numerals exactly only up to 2⁵³).
_OPAQUE_NUMERAL_LIMIT = 2 ** 53


def opaque_numerals(s: Uninterpreted) -> Term | None:
    """``2 + 3`` (or ``2 * 3``) on a sort the IR does not model (``ZMod 7``, ``NNReal``,
    ``Polynomial ℝ``, ``Fin 5``, ``ℕ+``) as the numeral ``5`` (``6``): a Lean numeral there is
    the cast of a natural (``Nat.cast_ofNat``), and the cast adds and multiplies
    (``Nat.cast_add``, ``Nat.cast_mul``: every semiring; ``Fin`` and ``ZMod`` wrap their numerals
    and their sums alike). So ``1 + 4`` and ``5`` are one term, as they are on ℕ or ℝ."""
    fn = _NUMERAL_ARITHMETIC.get(s.symbol)
    if fn is None or len(s.args) != 2 or not isinstance(s.sort, OpaqueSort):
        return None
    values = [opaque_numeral(a) if a.sort == s.sort else None for a in s.args]
    if any(v is None or v >= _OPAQUE_NUMERAL_LIMIT for v in values):
        return None
    value = fn(*values)
    return Uninterpreted(str(value), (), s.sort) if value < _OPAQUE_NUMERAL_LIMIT else None


def quotient(s: App) -> Term | None:
    """In a field, ``b⁻¹`` as ``1 / b`` (``one_div``) and ``a * (1 / b)`` as ``a / b``
    (``div_eq_mul_inv``): Lean and Isabelle both make ``0⁻¹`` and ``a / 0`` zero, so the
    spellings of one quotient are one term."""
    if s.op == "inv":
        return app("div", Num(1, s.sort), s.args[0])
    for a, b in (s.args, s.args[::-1]):
        if isinstance(b, App) and b.op == "div" and b.args[0] == Num(1, s.sort):
            return app("div", a, b.args[1])
    return None


def complex_power(s: Uninterpreted) -> Term | None:
    """Isabelle's complex ``z powr n`` at a natural numeral ``n ≥ 1`` (one folded from ``1 + 1``)
    as ``z ^ n``, which the frontend reads a written numeral as: ``exp (n · Ln z) = zⁿ`` for
    z ≠ 0 and ``0 powr n = 0 = 0ⁿ``."""
    if s.symbol != "powr" or len(s.args) != 2 or s.sort != COMPLEX:
        return None
    z, e = s.args
    if not (isinstance(e, Num) and isinstance(e.value, int) and e.value >= 1) or z.sort != COMPLEX:
        return None
    return app("pow", z, Num(e.value, NAT))


#: Isabelle's extrema of a finite set (``Lattices_Big``) by the binary operation they fold.
_SET_EXTREMA = {"Min": "min", "Max": "max"}
#: ``LEAST`` / ``GREATEST``: the relation ``x ⋈ e`` whose solutions have e as their extreme
#: element (``LEAST x. e ≤ x`` is e; ``x = e`` is one for either).
_BOUND_OF_EXTREMUM = {"LEAST": {"ge": 0, "le": 1, "eq": None}, "GREATEST": {"le": 0, "ge": 1, "eq": None}}


def known_extremum(s: Uninterpreted) -> Term | None:
    """Isabelle's ``Min {a, b, c}`` as ``min a (min b c)`` (``Min_insert``, ``Min_singleton``:
    a literal set is finite and nonempty), ``Max`` likewise, and ``LEAST x. e ≤ x`` /
    ``LEAST x. x = e`` (x not in e) as ``e``, ``GREATEST x. x ≤ e`` too (``Least_equality``:
    e is a solution below every solution). Why: the solvers read these constants as unknown
    functions, so ``Min {E} = c``, ``Least (λx. E = x) = c`` and ``E = c`` stayed apart
    (``intermediate_algebra/problem_1838``), as did ``2 = (LEAST x. x ≥ E)`` and ``E = 2``
    (``intermediate_algebra/problem_363``). Only on ℕ, ℤ, ℚ, ℝ (linear orders)."""
    if s.sort not in ORDERED or len(s.args) != 1:
        return None
    (arg,) = s.args
    if s.symbol in _SET_EXTREMA and isinstance(arg, App) and arg.op == "set_of" and arg.args \
            and all(a.sort == s.sort for a in arg.args):
        return functools.reduce(lambda acc, a: app(_SET_EXTREMA[s.symbol], a, acc), reversed(arg.args[:-1]),
                                arg.args[-1])
    sides = _BOUND_OF_EXTREMUM.get(s.symbol)
    if sides is None or not (isinstance(arg, Lam) and len(arg.vars) == 1) or arg.vars[0].sort != s.sort:
        return None
    x, body = arg.vars[0], arg.body
    if not (isinstance(body, App) and body.op in sides and len(body.args) == 2):
        return None
    where = sides[body.op]
    for i in ((0, 1) if where is None else (where,)):  # the position x takes
        e = body.args[1 - i]
        if body.args[i] == x and x not in free_vars(e) and e.sort == x.sort:
            return e
    return None


def _operand_key(t: Term) -> tuple[str, str]:
    return str(t.sort), canon_key(t)  # alpha-canonical: a bound variable's name orders nothing


def set_memberships(t: Term) -> Term:
    """``t`` with every ``a ∈ {y | P y}`` as ``P a`` (``Set.mem_setOf_eq``, ``mem_Collect_eq``):
    ``x ∈ {1..}`` and ``1 ≤ x`` are one term, and a set whose body holds such a membership is
    read by its comparisons (its sign cells)."""

    def rw(s: Term) -> Term | None:
        if isinstance(s, App) and s.op == "mem" and isinstance(s.args[1], SetBuilder) \
                and s.args[0].sort == s.args[1].var.sort:
            return map_term(substitute(s.args[1].body, {s.args[1].var: s.args[0]}), rw)
        return None

    return map_term(t, rw)


def _occurring(variables: Iterable[Var], terms: list[Term]) -> frozenset[Var]:
    """Those of ``variables`` that occur free in ``terms``."""
    occ = frozenset().union(*(free_vars(t) for t in terms))
    return frozenset(v for v in variables if v in occ)


def _under_binders(t: Term, fn: Callable[[Term], Term]) -> Term:
    """``t`` with ``fn`` applied to the body of each outermost term binder: a set-builder, a λ,
    a big operator (its domain is outside its binder). Not a ∀/∃: the normal form peels a
    conclusion's ∀ into the prefix, and its body's leaves become ``sae``'s leaves."""
    if isinstance(t, (Lam, SetBuilder)):
        return replace(t, body=fn(t.body))
    if isinstance(t, BigOp):
        return replace(t, domain=_under_binders(t.domain, fn), body=fn(t.body))
    kids = children(t)
    return rebuild(t, tuple(_under_binders(c, fn) for c in kids)) if kids else t


def function_extensionality(t: App) -> Term | None:
    """``f = λx. e`` as ``∀x. f x = e`` (``funext``, true in Lean and Isabelle/HOL): the same
    statement written pointwise, as candidates write it as often; None for other equations.

    Not for an eta-redex ``λȳ. g ȳ``, which is the function ``g`` itself: ``f = g`` is a
    function equality (Isabelle's ``inv_h = inv h`` reaches here as
    ``inv_h = (λx1'. inv h x1')``, the frontend's eta-expansion of a partially applied
    constant)."""
    lam, other = (t.args[1], t.args[0]) if isinstance(t.args[1], Lam) else (t.args[0], t.args[1])
    if not isinstance(lam, Lam) or isinstance(other, Lam) or not isinstance(other.sort, FunSort) \
            or len(other.sort.args) != len(lam.vars) or _eta_redex(lam):
        return None
    taken = {v.name for v in free_vars(other) | free_vars(lam)}
    fresh = [Var(fresh_name(v.name, taken | {v.name}), v.sort) if v.name in taken else v for v in lam.vars]
    body = substitute(lam.body, dict(zip(lam.vars, fresh, strict=True))) if fresh != list(lam.vars) else lam.body
    try:
        return Quant(FORALL, tuple(fresh), app("eq", app("apply", other, *fresh), body))
    except IRError:
        return None


def _recursive_definition(p: Term) -> Term | None:
    """``f = λȳ. e`` with f free in e, pointwise (``function_extensionality``); else None."""
    if not (isinstance(p, App) and p.op == "eq" and len(p.args) == 2):
        return None
    for f, lam in (p.args, p.args[::-1]):
        if isinstance(f, Var) and isinstance(lam, Lam) and f in free_vars(lam.body):
            return function_extensionality(p)
    return None


def _eta_redex(lam: Lam) -> bool:
    """``λȳ. g a… ȳ``: an application (of a function variable or an uninterpreted symbol)
    whose last arguments are ȳ, free nowhere else in it."""
    body, n = lam.body, len(lam.vars)
    if not (isinstance(body, Uninterpreted) or isinstance(body, App) and body.op == "apply"):
        return False
    args = body.args  # for `apply`, the function first
    if len(args) < n or tuple(args[len(args) - n:]) != lam.vars:
        return False
    bound = set(lam.vars)
    return not any(free_vars(a) & bound for a in args[:len(args) - n])


def radical(t: App) -> Term | None:
    """One spelling of Isabelle's radicals: ``c powr (p/q)`` with a numeral c > 0 and a
    rational exponent p/q > 0 is ``root q c ^ p`` (``root_powr_inverse``: root n x = x powr (1/n)
    for n > 0 < x, and x powr (p/q) = (x powr (1/q))^p), and ``root 2 x`` is ``sqrt x`` (its
    definition): ``root 4 5`` and ``5 powr (1/4)`` are the same term. None: not such a radical."""
    if t.op == "root":
        n, x = t.args
        return app("signed_sqrt", x) if isinstance(n, Num) and n.value == 2 else None
    base, exponent = t.args
    c, e = numeral_value(base), numeral_value(exponent)
    if c is None or e is None or c <= 0 or e <= 0:
        return None
    e = Fraction(e)
    root = app("signed_sqrt", base) if e.denominator == 2 else \
        base if e.denominator == 1 else app("root", Num(e.denominator, NAT), base)
    return root if e.numerator == 1 else app("pow", root, Num(e.numerator, NAT))


def _not(p: Term) -> Term:
    if isinstance(p, App):
        if p.op == "not":
            return p.args[0]
        if p.op == "eq":
            return app("ne", *p.args)
        if p.op == "ne":
            return app("eq", *p.args)
        if p == TRUE:
            return FALSE
        if p == FALSE:
            return TRUE
    return app("not", p)


def is_type_var(v: Var) -> bool:
    return is_universe(v.sort)


def sort_mentions(s: Sort) -> frozenset[str]:
    """Names of opaque carriers mentioned by a sort (``G`` in ``G → G``); a product mentions
    its components' (a pair of reals is a value the evaluator has: a tuple)."""
    if isinstance(s, ProdSort) and s.parts:
        return frozenset().union(*(sort_mentions(p) for p in s.parts))
    if isinstance(s, OpaqueSort):
        return frozenset({s.name})
    if isinstance(s, FunSort):
        out: frozenset[str] = sort_mentions(s.result)
        for a in s.args:
            out |= sort_mentions(a)
        return out
    if isinstance(s, (SetSort, ListSort)):
        return sort_mentions(s.elem)
    return frozenset()


def statement_symbols(statement: Statement) -> frozenset[str]:
    """Uninterpreted symbols of a statement (its hypotheses, conclusion and definitions)."""
    out: frozenset[str] = frozenset()
    for t in (*statement.terms(), *(v for _, v in statement.defines)):
        out |= symbol_names(t)
    return out


def apart_from_symbols(statement: Statement, reserved: frozenset[str]) -> Statement:
    """``statement`` with every variable (theorem binder or bound) whose name is one of the
    ``reserved`` symbols renamed: a variable ``padicValNat`` and Mathlib's ``padicValNat`` must
    never become one solver symbol, one evaluator table or one Lean name. Type variables
    keep their names (they name sorts, a separate namespace everywhere)."""
    if not reserved:
        return statement
    taken = set(reserved)
    for t in statement.terms():
        taken |= {v.name for v in subterms(t) if isinstance(v, Var)}
    mapping: dict[Var, Var] = {}
    for b in statement.binders:
        if isinstance(b, VarBinder) and b.var.name in reserved and not is_type_var(b.var):
            mapping[b.var] = Var(fresh_name(b.var.name, taken), b.var.sort)
            taken.add(mapping[b.var].name)

    def fix(t: Term) -> Term:
        return rename_apart(t, reserved, mapping)

    binders = tuple(
        replace(b, var=mapping.get(b.var, b.var)) if isinstance(b, VarBinder)
        else replace(b, formula=fix(b.formula)) for b in statement.binders)
    defines = tuple((mapping.get(v, v), fix(val)) for v, val in statement.defines)
    out = replace(statement, binders=binders, conclusion=fix(statement.conclusion), defines=defines)
    return statement if out == statement and not mapping else out


class _Prefix:
    """The ∀-prefix being built: variables in order, the type variables each one's sort
    mentions (its dependencies), and every name taken so far (for fresh names)."""

    def __init__(self, taken: set[str]) -> None:
        self.binders: list[tuple[str, Var]] = []
        self.types: list[Var] = []
        self.deps: dict[Var, set[Var]] = {}
        self.taken = taken

    def add(self, v: Var) -> None:
        self.binders.append((FORALL, v))
        self.taken.add(v.name)
        mentioned = sort_mentions(v.sort)
        self.deps[v] = {tv for tv in self.types if tv.name in mentioned}

    def variables(self) -> set[Var]:
        return {v for _, v in self.binders}


def normalize(statement: Statement, reserved: frozenset[str] = frozenset()) -> NormalForm:
    """The restricted prenex normal form of ``statement`` (see the module docstring).

    ``reserved``: symbol names no variable may carry (``apart_from_symbols``); by default the
    statement's own uninterpreted symbols. Pass the symbols of both statements of a pair.
    Closed numeral arithmetic is folded last; ``before_folding`` keeps the form as it was
    (``3 + 4 = 7`` is no comparison of a term with itself: ``Profile.degenerate`` reads that)."""
    statement = apart_from_symbols(statement, reserved | statement_symbols(statement))
    prefix = _Prefix({s.name for t in statement.terms() for s in subterms(t) if isinstance(s, Var)})
    premises: list[Term] = []
    instances: list[Term] = []
    _read_binders(statement, prefix, premises, instances)
    written = {v.name for v in prefix.variables()}
    concl = _peel_conclusion(simplify_logic(statement.conclusion, memberships_at_top=False), prefix, premises,
                             instances)
    # `∃ c, f = λx. c` as `∃ c, ∀x. f x = c`, in the conclusion only: a premise `f = λx. e` is a
    # definition, which answer pinning substitutes whole (stated pointwise, it is a quantified
    # premise the solvers must satisfy)
    pointwise = map_term(concl, lambda s: function_extensionality(s) if isinstance(s, App) and s.op == "eq" else None)
    if pointwise != concl:  # its new leading ∀ joins the prefix, as a written one does
        concl = _peel_conclusion(pointwise, prefix, premises, instances)
    # `2 ^ x = 8` as `x = 3` (exponents.py), in the premises, and in the conclusion of a statement
    # with premises: a premise-free conclusion is compared leaf by leaf under `sae`, where
    # `2 ^ x = 8` and `x = 3` are different expressions
    # a recursive `f = λn. if n = 0 then 1 else n * f (n - 1)` is no definition to substitute:
    # pointwise, it is the recurrence `∀n. f n = …` that `recurrences.recurrences` reads
    premises = [pointwise if (pointwise := _recursive_definition(p)) is not None else p for p in premises]
    premises = [s for p in premises for c in conjuncts(exponent_equations(p)) for s in forall_conjuncts(c)]
    if premises:
        concl = exponent_equations(concl)
    # `∃k:ℝ. 60 + n = k * n` as `n ≠ 0 ∨ 60 + n = 0` (elimination.py): in the premises, and
    # in the conclusion only inside term binders (`{n | … ∧ ∃k. 60 + n = k·n}`: at its own
    # level an ∃ is one of sae's leaves, `(∃k, n = 2k) ∧ n = n`); and only where no variable
    # of the prefix loses its last occurrence (symbolic aligns the variables that occur) and
    # premises are left if there were any (sae and symbolic compare premise-free statements
    # only with premise-free ones) — else a wrong `inequivalent` against the same statement
    # written another way
    eliminated = [c for p in premises for c in conjuncts(eliminate_linear_exists(p))]
    eliminated_concl = _under_binders(concl, eliminate_linear_exists)
    if bool(eliminated) == bool(premises) and _occurring(prefix.variables(), [*eliminated, eliminated_concl]) \
            == _occurring(prefix.variables(), [*premises, concl]):
        premises, concl = eliminated, eliminated_concl
    if instances:  # `[Group G]`: products on G left-nested, `IsConj` unfolded (algebra.py)
        premises = [q for p in premises for q in conjuncts(algebra_normal(p, instances))]
        concl = algebra_normal(concl, instances)
    before_folding = (tuple(premises), concl)
    # `2 * 3` is 6, `10 / 3` on ℕ is 3: one term, compared without a solver
    premises = [q for p in premises for q in conjuncts(folded(p))]
    concl = folded(concl)
    nf = split_normal_form(NormalForm(
        prefix=tuple(prefix.binders),
        premises=tuple(premises),
        conclusion=concl,
        types=tuple(prefix.types),
        instances=tuple(instances),
        deps=tuple((v, frozenset(prefix.deps.get(v, ()))) for _, v in prefix.binders),
        source=statement,
        peeled=frozenset(v.name for v in prefix.variables()) - written,
        before_folding=before_folding,
    ))
    # a pair split under a ∀ is a conjunction there (`∀t. v t = (a·t + b, c·t + d)`): one
    # premise per component, each a definition of its function (`∀t. v₁ t = a·t + b`)
    split = tuple(s for p in nf.premises for s in forall_conjuncts(p))
    return nf if split == nf.premises else replace(nf, premises=split)


def conclusion_binders_kept(nf: NormalForm, k: int) -> NormalForm | None:
    """``nf`` with ``k`` of the variables its conclusion bound (``peeled``; the last ones no
    premise mentions and no variable depends on) bound there again by one ∀, or None when
    there are fewer. Why: ``symbolic`` aligns the statements' variables, and
    ``∀n, ¬ 7 ∣ 2ⁿ + 1`` against ``∀n, ¬∃c, 2ⁿ + 1 = 7c`` had 1 variable against 2 (the ∃
    read as a ∀ of the statement): "inequivalent" by structure, though one is the other by
    the definition of ∣."""
    if k <= 0 or len(nf.peeled) < k:
        return None  # most statements: nothing their conclusion bound, nothing to walk
    used = _occurring(nf.variables, list(nf.premises))
    needed = {u for _, ds in nf.deps for u in ds}
    free = [v for _, v in nf.prefix if v.name in nf.peeled and v not in used and v not in needed]
    if len(free) < k:
        return None
    kept = tuple(free[-k:])
    return replace(nf, prefix=tuple((q, v) for q, v in nf.prefix if v not in kept),
                   conclusion=Quant(FORALL, kept, nf.conclusion),
                   deps=tuple((v, ds) for v, ds in nf.deps if v not in kept),
                   peeled=nf.peeled - {v.name for v in kept})


def binders_kept_could_align(a: NormalForm, b: NormalForm) -> bool:
    """Whether binding the surplus variables of one side in its conclusion again
    (``conclusion_binders_kept``) leaves both with the same sorts of variables: then a
    different count is no structural difference (the screen must let the engine look)."""
    d = len(a.variables) - len(b.variables)
    if d == 0:
        return False
    big, small = (a, b) if d > 0 else (b, a)
    kept = conclusion_binders_kept(big, abs(d))
    return kept is not None and sorted(str(v.sort) for v in kept.variables) == sorted(str(v.sort) for v in small.variables)


def _read_binders(statement: Statement, prefix: _Prefix, premises: list[Term], instances: list[Term]) -> None:
    """Binders in order: type variables, variables, instance hypotheses and premises (split
    into conjuncts); then the statement's local definitions as variables with ``x = value``."""
    for b in statement.binders:
        if isinstance(b, VarBinder):
            if is_type_var(b.var):
                prefix.types.append(b.var)
                prefix.taken.add(b.var.name)
            else:
                prefix.add(b.var)
        elif isinstance(b, Hypothesis):
            if (fact := _fact(b.formula)) is not None:  # `[Fact p.Prime]`, `(h : Fact (1 < p))`
                premises.extend(conjuncts(simplify_logic(fact)))
            elif b.style == "instance":
                instances.append(b.formula)
            else:
                for c in conjuncts(simplify_logic(b.formula)):
                    (instances if _class_of_types(c, prefix) else premises).append(c)
    for v, value in statement.defines:
        if v not in prefix.variables():
            prefix.add(v)
        definition = app("eq", v, value)
        if definition not in premises:  # the Isabelle frontend also states it as `x_def`
            premises.append(definition)


def _fact(p: Term) -> Term | None:
    """``Fact P`` is ``P`` (Mathlib ``fact_iff``; a class wrapping a proposition so that
    instance search finds it), else None."""
    if isinstance(p, Uninterpreted) and p.symbol == "Fact" and len(p.args) == 1 and p.args[0].sort == BOOL:
        return p.args[0]
    return None


def _class_of_types(p: Term, prefix: _Prefix) -> bool:
    """``MetricSpace X``, ``Module F V``: a class applied to type variables only. Written as a
    hypothesis (``(h : T2Space X)``, ``∀ {X} [MetricSpace X], …``) it states what an instance
    binder states, so it is read as one (the proposition is the same; only Lean's instance
    search differs)."""
    types = set(prefix.types)
    return (isinstance(p, Uninterpreted) and p.sort == BOOL and bool(p.args)
            and all(isinstance(a, Var) and a in types for a in p.args))


def _peel_conclusion(concl: Term, prefix: _Prefix, premises: list[Term], instances: list[Term]) -> Term:
    """Move the conclusion's leading ∀ (renamed apart from the prefix; a type variable joins
    the type variables), ¬∃ (as ∀¬) and implications (as premises, a class of type variables as
    an instance) out; what is left is the conclusion C."""
    prefix_vars = prefix.variables()
    while True:
        if (isinstance(concl, Quant) and concl.kind == FORALL and is_type_var(concl.vars[0])
                and concl.vars[0].name not in {v.name for v in [*prefix.types, *prefix.variables()]}):
            # `∀ {X : Type*}, …` as `{X : Type*}` (a name already taken stays a variable)
            tv, rest = concl.vars[0], concl.vars[1:]
            prefix.types.append(tv)
            prefix.taken.add(tv.name)
            concl = Quant(FORALL, rest, concl.body) if rest else concl.body
            continue
        if isinstance(concl, Quant) and concl.kind == FORALL:
            ren: dict[Var, Term] = {}
            fresh: list[Var] = []
            for v in concl.vars:
                nv = v
                if v.name in {pv.name for pv in prefix_vars} or v in prefix_vars:
                    nv = Var(fresh_name(v.name, prefix.taken), v.sort)
                    ren[v] = nv
                fresh.append(nv)
                prefix.add(nv)
                prefix_vars.add(nv)
            body = substitute(concl.body, ren) if ren else concl.body
            # a range premise right after the binder: ∀ x ∈ S / ∀ x < n
            if isinstance(body, App) and body.op == "implies":
                for p in conjuncts(body.args[0]):
                    if isinstance(p, App) and p.op in _RANGE_OPS:
                        fv = free_vars(p)
                        for nv in fresh:
                            if nv in fv:
                                prefix.deps[nv] |= {u for u in fv if u != nv and u in prefix_vars}
            concl = body
        elif (
            isinstance(concl, App)
            and concl.op == "not"
            and isinstance(concl.args[0], Quant)
            and concl.args[0].kind == EXISTS
        ):
            inner = concl.args[0]
            concl = Quant(FORALL, inner.vars, simplify_logic(_not(inner.body)))
        elif isinstance(concl, App) and concl.op == "implies":
            for c in conjuncts(concl.args[0]):
                (instances if _class_of_types(c, prefix) else premises).append(c)
            concl = concl.args[1]
        else:
            return concl
