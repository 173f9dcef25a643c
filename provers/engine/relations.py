"""Equivalence relations between two normal forms, as proof obligations under one alignment.

Every check takes A's normal form, B's normal form with B's variables already renamed onto A's
by the alignment (``rename_onto``), and ``prove(name, formula, cheap=False) -> Obligation``
(fingerprints first, then a backend; ``cheap`` = fingerprints and syntactic identity only).
It returns an ``Outcome``: ``proved`` (all obligations proved), ``refuted`` (a validated
countermodel of an obligation), ``structural`` (the shapes cannot match) or ``unknown``.

* ``syntactic``: equal canonical forms (alpha-renaming, ``>``/``≥`` flipped to ``<``/``≤``,
  sides of commutative operations and premises ordered).
* ``sae`` (Structure-Aware Equivalence): with premises on both sides ⊢ ∀x̄. ⋀Γ ↔ ⋀Γ' and
  ⊢ ∀x̄. C ↔ C' (premises NOT assumed); with premises on neither side, the conclusion trees must
  match: same connective at each node (∧/∨ runs as unordered n-ary nodes, matched by bipartite
  matching of the children), each relational leaf matched directly (same relation, E1 = E1',
  E2 = E2') or reversed (dual relation: < with >, ≤ with ≥; = and ≠ self-dual) — numbers of
  different sorts compared as values, both embedded into the wider sort — any other atom
  (∃-formula, Prime n, x ∈ S, ...) by ⊢ ∀x̄. L ↔ L'. Premises on one side only: structural.
* ``symbolic`` (symbolic-equivalence paper, NeurIPS 2024): premises and conclusions equivalent
  under one alignment (as SAE with premises, but premise-free sides are compared the same way),
  OR the numeric-conclusion standardization ``value_route``: both conclusions read ``L ⋈ c``
  with ``c`` closed; with a fresh α, ``α = L`` joins the premises and ``α ⋈ c`` is the
  conclusion (answers of different number sorts are both embedded into the wider sort, as
  the sae leaves compare them: L ⋈ c ⟺ ↑L ⋈ ↑c). The route needs (i) ⊢ ∀α. (α ⋈ c) ↔ (α ⋈' c'), (ii) the value projections agree
  without aligning the other variables: ⊢ ∀x̄ ȳ. ⋀Γ(x̄) ∧ ⋀Γ'(ȳ) → L(x̄) = L'(ȳ), and (iii) both
  premise sets are satisfiable (⊢ ∃x̄. ⋀Γ, over every variable whose sort may be empty even
  without premises). (i)–(iii) imply T ↔ T', so the route is sound. (ii) and (iii) are first
  settled per side by answer pinning (``provers.engine.answers``): Γ ⊢ L = v and Γ' ⊢ L' = v
  (equal exact values, or closed forms proved equal) proves (ii); a validated model of Γ and
  one of Γ' where L and L' differ refutes it (the combined model re-checked by the exact
  evaluator); a pin's model or its all-definitions premises prove (iii); a pin that proves Γ
  contradictory, or finds two models of Γ where L differs (``free``: (ii) then fails for
  every model of Γ', and (iii) needs one), or two pins with different exact values (each
  proved and satisfiable) make the route structural. Otherwise the obligations go to ``prove``.
* ``logical``: whole statements, ⊢ T ↔ T' (BEq+-style; identifies unrelated provable
  statements). Sufficient check first: pointwise ⊢ ∀x̄. (⋀Γ → C) ↔ (⋀Γ' → C') under an
  alignment. Refutation only when one statement is proved and the other refuted.

``vacuous`` (⊢ ∀x̄. ¬⋀Γ) and ``trivial`` (⊢ ∀x̄. C) are single obligations.
"""

from __future__ import annotations

from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np

from provers.engine.align import Alignment
from provers.engine.answers import (
    AnswerPin,
    combined_by,
    pin_answer,
    pinned_claim,
    prove_satisfiable,
)
from provers.engine.formulas import (
    close,
    iff,
    same_term,
    satisfiable_obligation,
    standardize,
)
from provers.engine.normal import NormalForm
from provers.engine.sort_match import rename_types, sorts_name_variables
from provers.engine.verdict import BRIEF, Obligation
from provers.ir import (
    BOOL,
    CONNECTIVES,
    DUAL,
    NUMERIC_ORDER,
    ORDERED,
    RELATION_OPS,
    App,
    Num,
    Quant,
    SetSort,
    Term,
    Uninterpreted,
    Var,
    and_,
    app,
    canon_key,
    cast,
    free_vars,
    fresh_name,
    provably_inhabited,
    rename_sort,
    show,
    substitute,
    subterms,
    widest,
)
from provers.semantics.evaluate import truth
from provers.semantics.values import renamed_model
from provers.status import PinStatus, Status

RELATIONS = ("syntactic", "sae", "symbolic", "logical")

ProveFn = Callable[..., Obligation]

PROVED, REFUTED, STRUCTURAL, UNKNOWN = Status.PROVED, Status.REFUTED, Status.STRUCTURAL, Status.UNKNOWN

@dataclass
class Outcome:
    """Result of one relation under one alignment."""

    status: Status
    obligations: list[Obligation] = field(default_factory=list)
    reason: str = ""
    #: how the outcome was reached, for ``Verdict.route`` (``answer value (propagation)``, ...)
    route: str = ""
    #: models of each side's premises found on the way (``value_route``: ``{"A": [...],
    #: "B": [...]}``, B's in its renamed-apart names), good probe points for other checks
    witnesses: dict[str, list[dict]] = field(default_factory=dict)

    @property
    def model(self) -> dict | None:
        for o in self.obligations:
            if o.status == REFUTED and o.model is not None:
                return o.model
        return None

    @property
    def ruled_out(self) -> bool:
        return self.status in (REFUTED, STRUCTURAL)


# --------------------------------------------------------------------------------------
# helpers
# --------------------------------------------------------------------------------------


def rename_onto(b: NormalForm, alignment: Alignment) -> NormalForm:
    """B with its aligned variables renamed to A's (simultaneous, capture-avoiding)."""
    pairs = alignment.pairs
    if sorts_name_variables(b):  # `x : Fin m` onto `x : Fin n`: the names inside sorts first, everywhere
        names = {vb.name: va.name for va, vb in pairs if va.name != vb.name}
        b = rename_types(b, names)
        pairs = tuple((va, Var(vb.name, rename_sort(vb.sort, names))) for va, vb in pairs)
    mapping: dict[Var, Term] = {vb: va for va, vb in pairs if va != vb}
    if not mapping:
        return b
    inv = {vb: va for va, vb in pairs}
    return replace(
        b,
        prefix=tuple((k, inv.get(v, v)) for k, v in b.prefix),
        premises=tuple(substitute(p, mapping) for p in b.premises),
        conclusion=substitute(b.conclusion, mapping),
        deps=tuple((inv.get(v, v), frozenset(inv.get(u, u) for u in d)) for v, d in b.deps),
    )


def _combine(obs: list[Obligation], reason_ok: str = "") -> Outcome:
    if any(o.status == REFUTED for o in obs):
        bad = next(o for o in obs if o.status == REFUTED)
        return Outcome(REFUTED, obs, f"{bad.name} refuted")
    if all(o.status == PROVED for o in obs):
        return Outcome(PROVED, obs, reason_ok)
    unk = [o for o in obs if o.status != PROVED]
    return Outcome(UNKNOWN, obs, "; ".join(f"{o.name}: {o.detail or 'not proved'}" for o in unk))


def _run(prove: ProveFn, items: list[tuple[str, Term]], order: tuple[Var, ...], cheap: bool) -> list[Obligation]:
    """Prove in order, stopping at the first refutation (the rest would not change it)."""
    out: list[Obligation] = []
    for name, body in items:
        ob = prove(name, close(body, order), cheap=cheap)
        out.append(ob)
        if ob.status == REFUTED:
            break
    return out


# --------------------------------------------------------------------------------------
# syntactic
# --------------------------------------------------------------------------------------


def syntactic_key(nf: NormalForm) -> tuple[tuple[str, ...], str]:
    return tuple(sorted(canon_key(p) for p in nf.premises)), canon_key(nf.conclusion)


def check_syntactic(a: NormalForm, b: NormalForm, prove: ProveFn | None = None, cheap: bool = False) -> Outcome:
    if syntactic_key(a) == syntactic_key(b):
        return Outcome(PROVED, [Obligation("canonical forms equal", a.closed(), PROVED, "syntactic")])
    return Outcome(STRUCTURAL, [], "canonical forms differ")


# --------------------------------------------------------------------------------------
# SAE
# --------------------------------------------------------------------------------------


def check_sae(a: NormalForm, b: NormalForm, prove: ProveFn, cheap: bool = False) -> Outcome:
    order = a.variables
    if bool(a.premises) != bool(b.premises):
        side = "A" if a.premises else "B"
        return Outcome(STRUCTURAL, [], f"premises on one side only (statement {side})")
    if a.premises:
        obs = _run(
            prove,
            [("premises ⋀Γ ↔ ⋀Γ'", iff(a.premise(), b.premise())), ("conclusions C ↔ C'", iff(a.conclusion, b.conclusion))],
            order,
            cheap,
        )
        return _combine(obs)
    # premise-free: a fingerprint difference of the whole conclusions already rules the
    # alignment out (a successful tree match implies ⊢ C ↔ C')
    whole = prove("conclusions C ↔ C'", close(iff(a.conclusion, b.conclusion), order), cheap=True)
    if whole.status == REFUTED:
        return Outcome(REFUTED, [whole], "conclusions differ at a sampled point")
    return _match(a.conclusion, b.conclusion, prove, order, cheap, "C")


#: Relations a frontend kept uninterpreted because it could not type their operands (``x = y``
#: with x : ℝ≥0 and y : ℝ): still relations in the text, whose structure is not known.
UNREAD_RELATIONS = frozenset({"Eq", "Ne", "LT.lt", "LE.le", "GT.gt", "GE.ge"})


def _kind(t: Term) -> str:
    if isinstance(t, App) and t.op in CONNECTIVES:
        return t.op
    if isinstance(t, App) and t.op in RELATION_OPS:
        return "rel"
    if isinstance(t, Uninterpreted) and t.symbol in UNREAD_RELATIONS:
        return "unread rel"
    return "atom"


def _match(p: Term, q: Term, prove: ProveFn, order: tuple[Var, ...], cheap: bool, path: str) -> Outcome:
    kp, kq = _kind(p), _kind(q)
    if same_term(p, q):
        return Outcome(PROVED, [Obligation(f"{path} identical up to renaming", close(iff(p, q), order), PROVED, "syntactic")])
    if kp in CONNECTIVES or kq in CONNECTIVES:
        if kp != kq:
            return Outcome(STRUCTURAL, [], f"{path}: connective {kp} vs {kq}")
        assert isinstance(p, App) and isinstance(q, App)
        if kp in ("and", "or"):
            return _match_unordered(p.args, q.args, prove, order, cheap, f"{path}.{kp}")
        if kp == "iff":
            return _match_unordered(p.args, q.args, prove, order, cheap, f"{path}.iff")
        subs = [_match(x, y, prove, order, cheap, f"{path}.{kp}{i}") for i, (x, y) in enumerate(zip(p.args, q.args, strict=False))]
        return _all(subs)
    if kp == "rel" and kq == "rel":
        assert isinstance(p, App) and isinstance(q, App)
        tries: list[tuple[Term, Term, Term, Term, str]] = []
        if p.op == q.op:
            tries.append((p.args[0], q.args[0], p.args[1], q.args[1], "direct"))
        if DUAL[p.op] == q.op:
            tries.append((p.args[0], q.args[1], p.args[1], q.args[0], "reversed"))
        if not tries:
            return Outcome(STRUCTURAL, [], f"{path}: relation {p.op} vs {q.op}")
        outs: list[Outcome] = []
        for e1, f1, e2, f2, how in tries:
            first, second = _as_numbers(e1, f1, p.op), _as_numbers(e2, f2, p.op)
            if first is None or second is None:
                outs.append(Outcome(STRUCTURAL, [], f"{path}: sorts differ ({how})"))
                continue
            (e1, f1), (e2, f2) = first, second
            items = []
            for lhs, rhs, side in ((e1, f1, "E1"), (e2, f2, "E2")):
                if not same_term(lhs, rhs):
                    items.append((f"{path} {how} {side} = {side}'", app("eq", lhs, rhs)))
            outs.append(_combine(_run(prove, items, order, cheap)) if items else Outcome(PROVED))
            if outs[-1].status == PROVED:
                return outs[-1]
        return _any(outs, f"{path}: no orientation matches")
    if {kp, kq} == {"rel", "unread rel"}:  # no structural difference can be read off
        return Outcome(UNKNOWN, [], f"{path}: a relation whose operands the frontend could not type")
    if kp in ("atom", "unread rel") and kp == kq:
        if p.sort != q.sort:
            return Outcome(STRUCTURAL, [], f"{path}: sorts differ")
        return _combine(_run(prove, [(f"{path} atom L ↔ L'", iff(p, q))], order, cheap))
    return Outcome(STRUCTURAL, [], f"{path}: {kp} vs {kq}")


def _as_numbers(e: Term, f: Term, op: str) -> tuple[Term, Term] | None:
    """E and E' of a relational leaf in one sort: as they are when their sorts agree; both
    embedded into the wider sort when they are numbers of different sorts, since the
    embeddings ℕ → ℤ → ℚ → ℝ (→ ℂ for = and ≠) preserve the relation, so E = E' as numbers
    still gives C ↔ C' (``5 ^ 30 % 7 = 1`` over ℕ and ``(5 ^ 30 : ℤ) % 7 = 1 % 7``); None
    otherwise. The equations are about values: ℕ's ``7 / 2`` is 3, never 7/2."""
    if e.sort == f.sort:
        return e, f
    allowed = NUMERIC_ORDER if op in ("eq", "ne") else ORDERED
    if e.sort not in allowed or f.sort not in allowed:
        return None
    wide = widest(e.sort, f.sort)
    return cast(e, wide), cast(f, wide)


def _all(subs: list[Outcome]) -> Outcome:
    obs = [o for s in subs for o in s.obligations]
    for s in subs:
        if s.ruled_out:
            return Outcome(s.status, obs, s.reason)
    if all(s.status == PROVED for s in subs):
        return Outcome(PROVED, obs)
    return Outcome(UNKNOWN, obs, "; ".join(s.reason for s in subs if s.status == UNKNOWN))


def _any(outs: list[Outcome], reason: str) -> Outcome:
    obs = [o for s in outs for o in s.obligations]
    if any(s.status == PROVED for s in outs):
        return Outcome(PROVED, obs)
    if all(s.ruled_out for s in outs):
        st = REFUTED if any(s.status == REFUTED for s in outs) else STRUCTURAL
        return Outcome(st, obs, reason + ": " + "; ".join(s.reason for s in outs))
    return Outcome(UNKNOWN, obs, "; ".join(s.reason for s in outs if s.status == UNKNOWN))


def _match_unordered(ps: tuple[Term, ...], qs: tuple[Term, ...], prove: ProveFn, order: tuple[Var, ...], cheap: bool, path: str) -> Outcome:
    if len(ps) != len(qs):
        return Outcome(STRUCTURAL, [], f"{path}: {len(ps)} vs {len(qs)} operands")
    n = len(ps)
    grid = [[_match(p, q, prove, order, cheap, f"{path}[{i},{j}]") for j, q in enumerate(qs)] for i, p in enumerate(ps)]
    obs = [o for row in grid for s in row for o in s.obligations]

    def perfect(ok: Callable[[Outcome], bool]) -> list[tuple[int, int]] | None:
        from scipy.optimize import linear_sum_assignment  # slow to import: see align._assign

        cost = np.array([[0.0 if ok(grid[i][j]) else 1.0 for j in range(n)] for i in range(n)])
        rows, cols = linear_sum_assignment(cost)
        if cost[rows, cols].sum() > 0:
            return None
        return list(zip(rows.tolist(), cols.tolist(), strict=False))

    m = perfect(lambda s: s.status == PROVED)
    if m is not None:
        return Outcome(PROVED, [o for i, j in m for o in grid[i][j].obligations])
    if perfect(lambda s: not s.ruled_out) is not None:
        return Outcome(UNKNOWN, obs, f"{path}: operands not all matched by proofs")
    refuted = any(s.status == REFUTED for row in grid for s in row)
    return Outcome(REFUTED if refuted else STRUCTURAL, obs, f"{path}: no matching of the operands")


# --------------------------------------------------------------------------------------
# symbolic
# --------------------------------------------------------------------------------------


def check_symbolic(a: NormalForm, b: NormalForm, prove: ProveFn, cheap: bool = False) -> Outcome:
    """The aligned part of the symbolic relation: ⋀Γ ↔ ⋀Γ' and C ↔ C' under one alignment."""
    items = []
    if a.premises or b.premises:
        items.append(("premises ⋀Γ ↔ ⋀Γ'", iff(a.premise(), b.premise())))
    items.append(("conclusions C ↔ C'", iff(a.conclusion, b.conclusion)))
    return _combine(_run(prove, items, a.variables, cheap))


def _rename_apart(b: NormalForm, taken: set[str]) -> tuple[NormalForm, dict[str, str]]:
    """B with every prefix variable renamed away from ``taken``; returns map new → old name."""
    mapping: dict[Var, Term] = {}
    back: dict[str, str] = {}
    used = set(taken) | {v.name for v in b.variables}
    for v in b.variables:
        if v.name in taken:
            nv = Var(fresh_name(v.name, used), v.sort)
            used.add(nv.name)
            mapping[v] = nv
            back[nv.name] = v.name
        else:
            back[v.name] = v.name
    if not mapping:
        return b, back
    return replace(
        b,
        prefix=tuple((k, mapping.get(v, v)) for k, v in b.prefix),  # type: ignore[misc]
        premises=tuple(substitute(p, mapping) for p in b.premises),
        conclusion=substitute(b.conclusion, mapping),
    ), back


def value_route(a: NormalForm, b: NormalForm, prove: ProveFn, cheap: bool = False,
                pins: MutableMapping[Any, AnswerPin] | None = None,
                vacuity: dict[str, Obligation] | None = None) -> tuple[Outcome, dict[str, str]] | None:
    """The numeric-conclusion standardization (see the module docstring); None when it does not
    apply. Also returns B's renaming (new name → B's own name) for countermodels.

    Obligations (ii) and (iii) are first settled by answer pinning (``provers.engine.answers``):
    one pin per side, from ``pins`` (a cache keyed by ``answers.pin_key``) when given;
    ``vacuity``: already decided vacuity obligations by side (``"A"``, ``"B"``)."""
    sa, sb = standardize(a), standardize(b)
    if sa is None or sb is None:
        return None
    (la, opa, ca), (lb, opb, cb) = sa, sb
    taken = {s.name for t in (*a.premises, a.conclusion) for s in subterms(t) if isinstance(s, Var)}
    taken |= {v.name for v in a.variables}
    b2, back = _rename_apart(b, taken)
    sb2 = standardize(b2)
    assert sb2 is not None
    lb = sb2[0]
    if la.sort != lb.sort or ca.sort != cb.sort:
        wider = _wider_value_sort((la, ca, lb, cb), (opa, opb))
        if wider is None:
            return Outcome(STRUCTURAL, [], "standardized values have different sorts", route="structure"), back
        # numbers of different sorts compared as values: the embedding into the wider sort is
        # injective and order-preserving, so L ⋈ c ⟺ ↑L ⋈ ↑c (`⌈x⌉ ^ 2 = 25` over ℤ against
        # `↑⌈x⌉ powr 2 = 25` over ℝ)
        la, ca, lb, cb = (cast(t, wider) for t in (la, ca, lb, cb))
    alpha = Var(fresh_name("α", taken | {v.name for v in b2.variables}), la.sort)
    pred = iff(app(opa, alpha, ca), app(opb, alpha, cb))
    obs: list[Obligation] = []
    ob = prove("answer predicates α ⋈ c ↔ α ⋈' c'", Quant("forall", (alpha,), pred), cheap=cheap)
    obs.append(ob)
    if ob.status == REFUTED:
        return Outcome(REFUTED, obs, f"{ob.name} refuted", route="answer predicates"), back

    cache = pins if pins is not None else {}
    vac = dict(vacuity or {})
    if "B" in vac:  # its model in B's names: onto the renamed-apart ones
        onto = {old: new for new, old in back.items()}
        ob = vac["B"]
        vac["B"] = replace(ob, model=None if ob.model is None else renamed_model(ob.model, onto))
    pin = {side: pin_answer(nf, prove, side, vac.get(side), cache, cheap)
           for side, nf in (("A", a), ("B", b2))}
    out = _pinned_route(a, b2, la, lb, pin, obs, prove, cheap)
    out.witnesses = {side: [m for m, _ in pin[side].witnesses] for side in ("A", "B")}
    return out, back


def _wider_value_sort(terms: tuple[Term, ...], ops: tuple[str, str]) -> Any:
    """The widest numeric sort of the standardized values, when every one of them is numeric
    and their relations mean the same there (only = and ≠ in ℂ, which has no order); else None."""
    if not all(t.sort in NUMERIC_ORDER for t in terms):
        return None
    wider = widest(*(t.sort for t in terms))
    if wider not in ORDERED and any(op not in ("eq", "ne") for op in ops):
        return None
    return wider


#: Operations the solvers know only as uninterpreted symbols or through approximations
#: (transcendental functions, π, real powers). Where the joint value obligation involves one,
#: its brief solver call decided 1 of 287 on 120 MATH problems (0 of 154 on the 60 problems the
#: rule was read off, 1 of 133 on 60 others, a refutation at 0.048 s of its 0.05 s), against 31
#: of 255 without one: it is not asked there (docs/benchmarks.md, stop 43). A power with an
#: integer numeral exponent is lowered exactly and does not count (`k powr 3`: three
#: refutations on all 400 problems).
TRANSCENDENTAL = frozenset({
    "powr", "exp", "ln", "log", "logb", "isa_log", "sin", "cos", "tan", "arctan", "sinh", "cosh",
    "tanh", "arcsin", "arccos", "isa_arcsin", "isa_arccos", "pi",
})


def _over_sets(t: Term) -> bool:
    """``t`` is a set (``card {x. …}``, ``x ∈ Icc a b``, a set variable): the solvers know
    sets through arrays and membership facts, and a model of them is rarely exact. Where the
    joint value obligation involves one, its brief call decided 2 of 319 on all 400 MATH
    problems (0 of 105 on the 60 problems the rule was read off, 0 of 81 on 60 held-out ones,
    2 of 133 on the other 280), for 3.4 % of their time (docs/benchmarks.md, stop 44)."""
    return isinstance(t.sort, SetSort)


def _beyond_a_brief_call(formula: Term) -> list[str]:
    """What in ``formula`` makes the joint value obligation's brief call almost never decide:
    its transcendental operations, else ``["sets"]``, else nothing (one pass over the terms)."""
    ops: set[str] = set()
    sets = False
    for t in subterms(formula):
        if _transcendental(t):
            ops.add(t.op)  # type: ignore[attr-defined]
        elif not sets and _over_sets(t):
            sets = True
    return sorted(ops) if ops else ["sets"] if sets else []


def _transcendental(t: Term) -> bool:
    """``t`` applies a ``TRANSCENDENTAL`` operation; ``x powr k`` with an integer numeral k is
    lowered exactly (``x ^ k`` for x > 0, one constant's k-th power for x < 0), so it is not."""
    if not isinstance(t, App) or t.op not in TRANSCENDENTAL:
        return False
    exponent = t.args[1] if t.op == "powr" else None
    return not (isinstance(exponent, Num) and Fraction(exponent.value).denominator == 1)


def _pinned_route(a: NormalForm, b2: NormalForm, la: Term, lb: Term, pin: dict[str, AnswerPin],
                  obs: list[Obligation], prove: ProveFn, cheap: bool) -> Outcome:
    """(ii) and (iii) of the value route, given both sides' pins."""
    how = combined_by(*pin.values())
    for side in ("A", "B"):
        if pin[side].status == PinStatus.VACUOUS:
            obs += [o for o in pin[side].obligations if o.status == PROVED]
            return Outcome(STRUCTURAL, obs, f"premises of {side} are contradictory", route=f"answer value ({how})")

    name = "value projections L = L' under Γ, Γ'"
    value = app("implies", and_(a.premise(), b2.premise()), app("eq", la, lb))
    vform = close(value, (*a.variables, *b2.variables))
    ob, extra = _value_by_pins(name, vform, value, pin["A"], pin["B"], prove, cheap)
    if ob is None:
        ruled_out = _route_ruled_out_by_pins(pin, extra)
        if ruled_out is not None:
            reason, proofs = ruled_out
            obs += proofs
            return Outcome(STRUCTURAL, obs, reason, route=f"answer value ({how})")
        ob, extra = _value_without_joint(name, vform, value, {"A": (a, la), "B": (b2, lb)}, pin, prove, cheap, extra)
    by_pins = ob is not None
    if ob is None:  # neither side pinned nor free: the joint obligation itself (briefly: BRIEF)
        beyond = _beyond_a_brief_call(vform)
        if beyond:
            ob = Obligation(name, vform, UNKNOWN, detail=f"not asked: the answers and premises involve "
                            f"{', '.join(beyond)} (a brief solver call there almost never decides)")
        else:
            ob = prove(name, vform, cheap=cheap, effort=BRIEF)
    obs.append(ob)
    if by_pins and ob.status == PROVED:
        obs += [o for side in ("A", "B") for o in pin[side].obligations if o.status == PROVED] + extra
    if ob.status == REFUTED:
        route = f"answer value ({how})" if by_pins else "value projections"
        return Outcome(REFUTED, obs, f"{name} refuted" + (f": {ob.detail}" if by_pins else ""), route=route)
    joint_proved = ob.status == PROVED
    for side, nf in (("A", a), ("B", b2)):
        if not nf.premises and all(provably_inhabited(v.sort) for v in nf.variables):
            continue
        sat_name = f"premises of {side} not contradictory"
        known = pin[side].sat
        if known is not None and known.status == PROVED:
            ob = Obligation(sat_name, satisfiable_obligation(nf), PROVED, known.by, known.detail)
        elif not joint_proved and pin[side].vacuity is not None:
            # with the values undecided only a contradiction would still decide, and the pin
            # asked that very question (the vacuity obligation) already: left undecided, or a
            # model. Asking again decided 12 of 154 on 60 MATH problems, never a contradiction
            continue
        else:
            ob = prove_satisfiable(nf, prove, pin[side].vacuity, cheap, getattr(prove, "deadline", None), sat_name)
        obs.append(ob)
        if ob.status == REFUTED:
            return Outcome(STRUCTURAL, obs, f"premises of {side} are contradictory", route="structure")
    out = _combine(obs)
    if out.status == PROVED:
        out.route = f"answer value ({how})" if by_pins else "value projections"
    elif out.status == UNKNOWN:
        notes = [f"{side}: {pin[side].status}" + (f" ({pin[side].reason})" if pin[side].reason else "")
                 for side in ("A", "B") if pin[side].status != PinStatus.PINNED]
        if notes:
            out.reason += "; answer pins " + "; ".join(notes)
    return out


#: the name of the obligation ⊢ t = t' between two pinned closed forms
AGREE = "pinned answers agree t = t'"


def _route_ruled_out_by_pins(pin: dict[str, AnswerPin],
                             asked: Sequence[Obligation] = ()) -> tuple[str, list[Obligation]] | None:
    """Why no model pair can satisfy (ii) and (iii), by facts the pins proved (None: they do
    not say), and the obligations that prove it. Like contradictory premises, these rule the
    route out without a combined countermodel:

    * a ``free`` side: two validated models of its premises with different answers, so (ii)
      fails at one of them for every model of the other side's premises, and (iii) needs one;
    * two ``pinned`` sides, both satisfiable, with different exact values v ≠ w, or closed
      forms t, t' whose equation ``_value_by_pins`` asked (``asked``) and the exact evaluator
      refuted (certified enclosures: ``9 (1 − 225π / 400π)`` against 5): (ii) fails at every
      combined model, and there is one."""
    for side in ("A", "B"):
        if pin[side].status == PinStatus.FREE:
            return (f"the answer of {side} is not determined by its premises ({pin[side].reason})",
                    [o for o in pin[side].obligations if o.status in (PROVED, REFUTED)])
    pa, pb = pin["A"], pin["B"]
    if (pa.status == pb.status == PinStatus.PINNED and pa.satisfiable and pb.satisfiable
            and pa.value is not None and pb.value is not None and pa.value != pb.value):
        return (f"the answers are determined and differ: Γ ⊢ L = {pa.value}, Γ' ⊢ L' = {pb.value}",
                [o for side in ("A", "B") for o in pin[side].obligations if o.status == PROVED])
    ta, tb = pa.closed_form, pb.closed_form
    differ = next((o for o in asked if o.name == AGREE and o.status == REFUTED), None)
    if (differ is not None and pa.satisfiable and pb.satisfiable and ta is not None and tb is not None
            and ta.sort != BOOL and not free_vars(ta) and not free_vars(tb)):
        return (f"the answers are determined and differ: Γ ⊢ L = {show(ta)}, Γ' ⊢ L' = {show(tb)} "
                "(different values, certified by the exact evaluator)",
                [o for side in ("A", "B") for o in pin[side].obligations if o.status == PROVED] + [differ])
    return None


def _combined_countermodel(value: Term, ma: dict[str, Any], mb: dict[str, Any], deadline: Any) -> dict[str, Any] | None:
    """``ma`` ∪ ``mb`` when it falsifies (ii) ``value``: each side's model was re-checked on its
    own (its premises exactly true, its answer exactly known and different from the other's)
    and they share no variable, so the union falsifies (ii); the whole formula is re-checked
    too where the evaluator reaches it (mixed rational and irrational points may leave it
    undecided, never True)."""
    if any(ma[k] != mb[k] for k in ma.keys() & mb.keys()):
        return None
    model = {**ma, **mb}
    return model if truth(value, model, deadline) is not True else None


def _value_by_pins(name: str, vform: Term, value: Term, pa: AnswerPin, pb: AnswerPin, prove: ProveFn,
                   cheap: bool) -> tuple[Obligation | None, list[Obligation]]:
    """Obligation (ii) settled by the two pins (None: not settled), and the obligations that
    settled it. Pinned to equal exact values, or to closed forms proved equal (⊢ t = t'): proved.
    A model of Γ and one of Γ' where the answers differ: refuted, once the exact evaluator
    confirms that the combined model falsifies (ii). Not settled: ``(None, [⊢ t = t'])``
    when that equation was asked (its refutation rules the route out)."""
    agree = None
    if pa.status == PinStatus.PINNED and pb.status == PinStatus.PINNED:
        if pa.value is not None and pb.value is not None:
            if pa.value == pb.value:
                return Obligation(name, vform, PROVED, "answer pinning",
                                  f"Γ ⊢ L = {pa.value} and Γ' ⊢ L' = {pb.value}"), []
        elif (forms := _comparable(pa.closed_form, pb.closed_form)) is not None:
            ta, tb = forms
            same = iff(ta, tb) if ta.sort == BOOL else app("eq", ta, tb)
            agree = prove(AGREE, close(same), cheap=cheap)
            if agree.status == PROVED:
                return Obligation(name, vform, PROVED, "answer pinning",
                                  "Γ ⊢ L = t, Γ' ⊢ L' = t' and ⊢ t = t'"), [agree]
    deadline = getattr(prove, "deadline", None)
    for ma, va in pa.witnesses:
        for mb, vb in pb.witnesses:
            model = _combined_countermodel(value, ma, mb, deadline) if va != vb else None
            if model is not None:
                return Obligation(name, vform, REFUTED, "answer pinning",
                                  f"L = {va} at a model of Γ, L' = {vb} at a model of Γ' "
                                  "(each side re-checked by the exact evaluator)", model), []
    return None, [agree] if agree is not None else []


def _comparable(ta: Term | None, tb: Term | None) -> tuple[Term, Term] | None:
    """Two pinned closed forms as terms of one sort: as they are, or numbers cast into the
    wider sort (``0 : ℤ`` against ``(-5) powr 3 + … : ℝ``; the embedding is injective)."""
    if ta is None or tb is None:
        return None
    if ta.sort == tb.sort:
        return ta, tb
    wider = _wider_value_sort((ta, tb), ("eq", "eq"))
    return None if wider is None else (cast(ta, wider), cast(tb, wider))


def _not_proved_equal(pin: dict[str, AnswerPin], asked: Sequence[Obligation]) -> str:
    """Why two pinned answers were left uncompared: the closed forms, and what ⊢ t = t' ran
    into (Isabelle's unspecified ``ln`` of a negative ``powr`` base, say), so that a user sees
    the obstacle instead of a bare "not proved"."""
    forms = [f"{side}: {show(p.closed_form) if p.closed_form is not None else p.value}" for side, p in pin.items()]
    agree = next((o for o in asked if o.name == AGREE), None)
    why = f"; {AGREE}: {agree.detail}" if agree is not None and agree.detail else ""
    return f"the pinned answers are not proved equal ({', '.join(forms)}{why})"


def _value_without_joint(name: str, vform: Term, value: Term, sides: dict[str, tuple[NormalForm, Term]],
                         pin: dict[str, AnswerPin], prove: ProveFn,
                         cheap: bool, asked: Sequence[Obligation] = ()) -> tuple[Obligation | None, list[Obligation]]:
    """Obligation (ii) when the pins did not settle it but say enough to avoid the joint
    obligation over both sides' variables (None: they do not; ask the joint one).

    * both ``pinned`` and not settled: (ii) is t = t', already asked: unknown;
    * one side P pinned to t, the other U not: (ii) follows from Γ_P ⊢ L_P = t and the
      one-sided ⊢ ∀ȳ. ⋀Γ_U → L_U = t, over U's variables only. Refuted at a validated model
      of Γ_U (where L_U ≠ t) combined with a witness of P: (ii) refuted;
    * one side with a model whose answer's uniqueness is undecided, the other without a
      model of its premises: unknown, not asked (the joint obligation needs both)."""
    status = {side: pin[side].status for side in ("A", "B")}
    if status["A"] == status["B"] == PinStatus.PINNED:
        return Obligation(name, vform, UNKNOWN, "answer pinning", _not_proved_equal(pin, asked)), []
    for p_side, u_side in (("A", "B"), ("B", "A")):
        if status[p_side] != PinStatus.PINNED or status[u_side] != PinStatus.UNKNOWN:
            continue
        nf_u, l_u = sides[u_side]
        claim = pinned_claim(nf_u, l_u, pin[p_side])
        if claim is None:
            return None, []
        ob = prove(f"answer of {u_side} = the pinned answer of {p_side}, under the premises of {u_side}",
                   claim, cheap=cheap)
        if ob.status == PROVED:
            return Obligation(name, vform, PROVED, "answer pinning",
                              f"{p_side}'s premises pin its answer; {u_side}'s premises prove the same answer"), [ob]
        if ob.status == REFUTED and ob.model is not None:
            deadline = getattr(prove, "deadline", None)
            for m, v in pin[p_side].witnesses:
                model = _combined_countermodel(value, m, ob.model, deadline) if not m.keys() & ob.model.keys() else None
                if model is not None:
                    return Obligation(name, vform, REFUTED, "answer pinning",
                                      f"the answer of {p_side} is {v} at a model of its premises; a model of "
                                      f"{u_side}'s premises gives its answer another value (both re-checked "
                                      "by the exact evaluator)", model), [ob]
        return Obligation(name, vform, UNKNOWN, "answer pinning",
                          f"{ob.name}: {ob.detail or ob.status}"), [ob]
    # one side U has a validated model but the uniqueness of its answer was left undecided,
    # the other side N no model of its premises: the joint obligation (over disjoint
    # variables) needs what those calls did not find, since a proof of it proves U's
    # uniqueness once N's premises have a model, and a countermodel of it is a model of N's
    # premises (0 of 160 such joint calls decided on isabelle_math_400, docs/benchmarks.md)
    for u_side, n_side in (("A", "B"), ("B", "A")):
        pu, pn = pin[u_side], pin[n_side]
        if (pu.status == PinStatus.UNKNOWN and pu.witnesses and pn.status == PinStatus.UNKNOWN
                and not pn.witnesses and not pn.satisfiable):
            return Obligation(name, vform, UNKNOWN, "answer pinning",
                              f"not asked: the uniqueness of {u_side}'s answer and a model of {n_side}'s "
                              "premises, which it needs, were not found"), []
    return None, []


# --------------------------------------------------------------------------------------
# logical, vacuous, trivial
# --------------------------------------------------------------------------------------


def check_logical_pointwise(a: NormalForm, b: NormalForm, prove: ProveFn, cheap: bool = False) -> Outcome:
    """Sufficient for logical equivalence: ⊢ ∀x̄. (⋀Γ → C) ↔ (⋀Γ' → C') under an alignment.
    A refutation here does NOT refute logical equivalence (reported as unknown)."""
    ob = prove("pointwise (⋀Γ → C) ↔ (⋀Γ' → C')", close(iff(a.body(), b.body()), a.variables), cheap=cheap)
    if ob.status == PROVED:
        return Outcome(PROVED, [ob])
    return Outcome(UNKNOWN, [ob], "pointwise equivalence not proved")


__all__ = [
    "RELATIONS",
    "Outcome",
    "check_logical_pointwise",
    "check_sae",
    "check_symbolic",
    "check_syntactic",
    "rename_onto",
    "syntactic_key",
    "value_route",
]
