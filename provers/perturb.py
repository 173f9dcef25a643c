"""Labelled variants of a formal statement: meaning-preserving rewrites and meaning-changing
perturbations, to test equivalence checkers (ours and others') on exactly the cases that matter.

Why: a good evaluator accepts harmless reformulations and rejects small meaning changes.
Every variant is an IR ``Statement`` built from the original by one local, well-typed edit,
printed back to the source language, and labelled with what was done and where.

* ``rewrites(st, seed, n, kinds)``: rename variables (fresh names, never a clash or capture),
  reorder hypotheses (respecting dependencies), swap the sides of ``=``/``≠``, flip a relation
  to its dual (``a < b`` → ``b > a``), commute ``+``/``*``, curry or uncurry hypotheses, make an
  implicit binder explicit. Each is SAE-equivalent to the original by construction.
* ``perturbations(st, seed, n, kinds, check=True)``: change a numeral, drop or add a hypothesis,
  weaken or strengthen a relation (``<`` ↔ ``≤``), change a variable's domain (ℝ/ℚ/ℤ → ℕ; the
  variable is cast back where used, so the statement stays well-typed), swap ``∀``/``∃``,
  reverse an implication, replace the conclusion by a provable unrelated one.

A perturbation may turn out not to change the meaning (a numeral in a redundant hypothesis,
``0 ≤ x²`` → ``-1 ≤ x²``). With ``check=True`` each perturbation is labelled ``effective``:
``False`` when the engine proves it SAE-equivalent (or it is the same statement up to
renaming), ``True`` when it is SAE-inequivalent or an exact evaluation separates the edited
component, ``None`` when undecided. An exact witness against an engine ``equivalent`` verdict
under the identity alignment is kept as ``effective=True`` with the conflict in ``evidence``:
that is an engine soundness bug, never silently relabelled.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from provers.ir import (
    DUAL,
    INT,
    NAT,
    ORDER_OPS,
    ORDERED,
    RAT,
    REAL,
    STRICTNESS,
    App,
    BigOp,
    Hypothesis,
    Lam,
    Num,
    Quant,
    SetBuilder,
    Statement,
    Term,
    Var,
    VarBinder,
    and_,
    app,
    cast,
    children,
    free_vars,
    is_universe,
    map_term,
    rebuild,
    show,
    show_statement,
    substitute,
    subterms,
)
from provers.status import VerdictStatus

REWRITE_KINDS: tuple[str, ...] = (
    "rename", "reorder_hypotheses", "swap_eq", "flip_dual", "commute", "curry", "uncurry",
    "implicit_to_explicit",
)
PERTURBATION_KINDS: tuple[str, ...] = (
    "change_numeral", "drop_hypothesis", "add_hypothesis", "weaken_strengthen", "change_domain",
    "swap_quantifier", "reverse_implication", "replace_conclusion",
)

_NAME_POOL = ("a", "b", "c", "d", "m", "n", "p", "q", "r", "s", "t", "u", "v", "w", "x", "y", "z", "k", "j")
#: Lean/Isabelle words a fresh variable must never be called.
_RESERVED = frozenset({"fun", "at", "by", "in", "if", "then", "else", "let", "have", "show", "from",
                       "and", "or", "not", "o", "e", "i", "I", "π", "pi", "exp", "log", "sqrt"})


@dataclass(frozen=True)
class Variant:
    """One labelled variant of a statement.

    ``preserving``: built to keep the meaning (a rewrite) or to change it (a perturbation).
    ``effective``: for perturbations, whether the meaning really changed (``None``: undecided or
    not checked; always ``None`` for rewrites). ``evidence`` says how that was decided;
    ``verdict`` is the engine's SAE verdict behind it (when checked); ``language`` is the
    language ``text`` is written in (``ir`` when no printer could render the statement).
    """

    statement: Statement
    text: str
    kind: str
    preserving: bool
    description: str
    effective: bool | None = None
    site: str = ""
    language: str = "lean4"
    evidence: str = ""
    verdict: Any = field(default=None, compare=False, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "preserving": self.preserving,
            "effective": self.effective,
            "description": self.description,
            "site": self.site,
            "language": self.language,
            "text": self.text,
            "evidence": self.evidence,
        }


# --------------------------------------------------------------------------------------
# printing
# --------------------------------------------------------------------------------------


def render(statement: Statement) -> tuple[str, str]:
    """``(text, language)``: the statement printed by its language's printer, or the neutral
    IR rendering (language ``ir``) when that printer is missing or cannot render it."""
    module = {"lean4": "provers.lean4.printer", "isabelle": "provers.isabelle.printer"}.get(statement.language)
    if module is not None:
        try:
            import importlib

            printer = importlib.import_module(module)
            return printer.render(statement), statement.language
        except Exception:  # noqa: BLE001 - missing printer or unrenderable construct: fall back
            pass
    return show_statement(statement), "ir"


# --------------------------------------------------------------------------------------
# sites: where a node sits in a statement
# --------------------------------------------------------------------------------------

#: A component of a statement: index into ``binders`` (a hypothesis) or -1 (the conclusion).
CONCLUSION = -1


@dataclass(frozen=True)
class _Site:
    loc: int
    path: tuple[int, ...]
    node: Term


def _component(st: Statement, loc: int) -> Term:
    if loc == CONCLUSION:
        return st.conclusion
    b = st.binders[loc]
    assert isinstance(b, Hypothesis)
    return b.formula


def _where(st: Statement, loc: int) -> str:
    if loc == CONCLUSION:
        return "the conclusion"
    b = st.binders[loc]
    return f"hypothesis {b.name or '#' + str(loc)}" if isinstance(b, Hypothesis) else f"binder #{loc}"


def _sites(st: Statement, pred: Callable[[Term], bool], hyps: bool = True) -> list[_Site]:
    """Nodes satisfying ``pred`` in the hypotheses (not instance binders) and the conclusion."""
    locs = [i for i, b in enumerate(st.binders) if hyps and isinstance(b, Hypothesis) and b.style != "instance"]
    out: list[_Site] = []
    for loc in [*locs, CONCLUSION]:
        stack: list[tuple[tuple[int, ...], Term]] = [((), _component(st, loc))]
        while stack:
            path, t = stack.pop()
            if pred(t):
                out.append(_Site(loc, path, t))
            for i, c in reversed(list(enumerate(children(t)))):
                if not isinstance(t, (Quant, Lam, BigOp, SetBuilder)) or not isinstance(c, Var):
                    stack.append(((*path, i), c))
    out.sort(key=lambda s: (s.loc == CONCLUSION, s.loc, s.path))
    return out


def _replace_at(t: Term, path: tuple[int, ...], new: Term) -> Term:
    if not path:
        return new
    kids = list(children(t))
    kids[path[0]] = _replace_at(kids[path[0]], path[1:], new)
    return rebuild(t, tuple(kids))


def _edit(st: Statement, site: _Site, new: Term) -> Statement:
    whole = _replace_at(_component(st, site.loc), site.path, new)
    if site.loc == CONCLUSION:
        return _fresh(st, conclusion=whole)
    binders = list(st.binders)
    h = binders[site.loc]
    assert isinstance(h, Hypothesis)
    binders[site.loc] = replace(h, formula=whole)
    return _fresh(st, binders=tuple(binders))


def _fresh(st: Statement, **changes: Any) -> Statement:
    """A derived statement: the original source text no longer describes it."""
    return replace(st, source="", notes=(), **changes)


def _names(st: Statement) -> set[str]:
    """Every variable and hypothesis name used anywhere in the statement."""
    out = {b.var.name for b in st.binders if isinstance(b, VarBinder)}
    out |= {b.name for b in st.binders if isinstance(b, Hypothesis) and b.name}
    for t in st.terms():
        out |= {s.name for s in subterms(t) if isinstance(s, Var)}
    return out


def _fresh_name(base: str, taken: set[str]) -> str:
    i = 1
    while f"{base}{i}" in taken:
        i += 1
    return f"{base}{i}"


# --------------------------------------------------------------------------------------
# meaning-preserving rewrites: each returns candidate (statement, description, site)
# --------------------------------------------------------------------------------------

Candidate = tuple[Statement, str, str]


def _rename_bound(t: Term, taken: set[str], rng: random.Random, log: list[str]) -> Term:
    """Alpha-rename every bound variable of ``t`` to a fresh name (outermost first)."""
    if isinstance(t, (Quant, Lam, SetBuilder, BigOp)):
        bound = t.vars if isinstance(t, (Quant, Lam)) else (t.var,)
        mapping: dict[Var, Term] = {}
        for b in bound:
            name = _pick_name(rng, taken)
            taken.add(name)
            mapping[b] = Var(name, b.sort)
            log.append(f"{b.name}→{name}")
        if isinstance(t, BigOp):
            dom = _rename_bound(t.domain, taken, rng, log)
            body = _rename_bound(substitute(t.body, mapping), taken, rng, log)
            return replace(t, var=mapping[t.var], domain=dom, body=body)  # type: ignore[arg-type]
        body = _rename_bound(substitute(t.body, mapping), taken, rng, log)
        new_vars = tuple(mapping[b] for b in bound)
        if isinstance(t, SetBuilder):
            return replace(t, var=new_vars[0], body=body)  # type: ignore[arg-type]
        return replace(t, vars=new_vars, body=body)  # type: ignore[arg-type]
    kids = children(t)
    if not kids:
        return t
    return rebuild(t, tuple(_rename_bound(c, taken, rng, log) for c in kids))


def _pick_name(rng: random.Random, taken: set[str]) -> str:
    free = [n for n in _NAME_POOL if n not in taken and n not in _RESERVED]
    if free:
        return rng.choice(free)
    base = rng.choice(_NAME_POOL)
    return _fresh_name(base + "_", taken)


def rw_rename(st: Statement, rng: random.Random) -> list[Candidate]:
    """Rename every theorem variable, hypothesis and bound variable to fresh names."""
    taken = _names(st) | set(_RESERVED)
    mapping: dict[Var, Term] = {}
    log: list[str] = []
    for b in st.binders:
        if isinstance(b, VarBinder) and not is_universe(b.var.sort):
            name = _pick_name(rng, taken)
            taken.add(name)
            mapping[b.var] = Var(name, b.var.sort)
            log.append(f"{b.var.name}→{name}")
    binders: list[VarBinder | Hypothesis] = []
    for b in st.binders:
        if isinstance(b, VarBinder):
            binders.append(replace(b, var=mapping.get(b.var, b.var)))  # type: ignore[arg-type]
        else:
            f = _rename_bound(substitute(b.formula, mapping), taken, rng, log)
            name = b.name
            if name and b.style != "instance":
                name = _fresh_name("h", taken)
                taken.add(name)
                log.append(f"{b.name}→{name}")
            binders.append(replace(b, name=name, formula=f))
    concl = _rename_bound(substitute(st.conclusion, mapping), taken, rng, log)
    if not log:
        return []
    new = _fresh(st, binders=tuple(binders), conclusion=concl)
    return [(new, "rename " + ", ".join(log), "all binders")]


def _movable(b: object) -> bool:
    return isinstance(b, Hypothesis) and b.style != "instance"


def rw_reorder(st: Statement, rng: random.Random) -> list[Candidate]:
    """Permute the hypotheses; each lands right after the variables it mentions (and after the
    hypotheses placed before it), so every binder still comes before its uses."""
    hyps = [b for b in st.binders if _movable(b)]
    if len(hyps) < 2:
        return []
    order = list(range(len(hyps)))
    for _ in range(8):
        rng.shuffle(order)
        if order != sorted(order):
            break
    else:
        order = order[1:] + order[:1]
    fixed = [b for b in st.binders if not _movable(b)]
    out: list[VarBinder | Hypothesis] = list(fixed)
    last = 0
    for i in order:
        h = hyps[i]
        assert isinstance(h, Hypothesis)
        fv = free_vars(h.formula)
        # after the variables it mentions, and after every type variable and instance binder
        needed = [j + 1 for j, b in enumerate(out)
                  if (isinstance(b, VarBinder) and (b.var in fv or is_universe(b.var.sort)))
                  or (isinstance(b, Hypothesis) and b.style == "instance")]
        # Isabelle writes every ``fixes`` before the ``assumes``: keep that shape there
        pos = len(out) if st.language == "isabelle" else max([last, *needed])
        out.insert(pos, h)
        last = pos + 1
    if tuple(out) == st.binders:
        return []
    names = [hyps[i].name or f"#{i}" for i in order]  # type: ignore[union-attr]
    return [(_fresh(st, binders=tuple(out)), "reorder hypotheses to " + ", ".join(names), "hypotheses")]


def _site_candidates(st: Statement, pred: Callable[[Term], bool], make: Callable[[App], tuple[Term, str] | None]) -> list[Candidate]:
    out = []
    for s in _sites(st, pred):
        r = make(s.node)  # type: ignore[arg-type]
        if r is None:
            continue
        new, what = r
        out.append((_edit(st, s, new), f"{what} in {_where(st, s.loc)}", _where(st, s.loc)))
    return out


def _is_app(*ops: str) -> Callable[[Term], bool]:
    return lambda t: isinstance(t, App) and t.op in ops and len(t.args) == 2


def rw_swap_eq(st: Statement, rng: random.Random) -> list[Candidate]:
    def make(t: App) -> tuple[Term, str] | None:
        a, b = t.args
        if a == b:
            return None
        return app(t.op, b, a), f"swap sides of {show(t)}"

    return _site_candidates(st, _is_app("eq", "ne"), make)


def rw_flip_dual(st: Statement, rng: random.Random) -> list[Candidate]:
    def make(t: App) -> tuple[Term, str]:
        a, b = t.args
        new = app(DUAL[t.op], b, a)
        return new, f"rewrite {show(t)} as {show(new)}"

    return _site_candidates(st, _is_app(*ORDER_OPS), make)


def rw_commute(st: Statement, rng: random.Random) -> list[Candidate]:
    def make(t: App) -> tuple[Term, str] | None:
        a, b = t.args
        if a == b:
            return None
        return app(t.op, b, a), f"commute {show(t)}"

    return _site_candidates(st, _is_app("add", "mul"), make)


def rw_curry(st: Statement, rng: random.Random) -> list[Candidate]:
    """``(h₁ : P) (h₂ : Q)`` → ``(h : P ∧ Q)`` for two consecutive explicit hypotheses."""
    out = []
    idx = [i for i, b in enumerate(st.binders) if _movable(b) and b.style == "explicit"]  # type: ignore[union-attr]
    taken = _names(st)
    for i, j in zip(idx, idx[1:], strict=False):
        hi, hj = st.binders[i], st.binders[j]
        assert isinstance(hi, Hypothesis) and isinstance(hj, Hypothesis)
        name = _fresh_name("h", taken)
        merged = Hypothesis(name, and_(hi.formula, hj.formula), "explicit")
        binders = [b for k, b in enumerate(st.binders) if k != i]
        binders[j - 1] = merged
        what = f"merge {hi.name} and {hj.name} into {name} : {show(merged.formula)}"
        out.append((_fresh(st, binders=tuple(binders)), what, f"hypotheses {hi.name}, {hj.name}"))
    return out


def rw_uncurry(st: Statement, rng: random.Random) -> list[Candidate]:
    """``(h : P ∧ Q)`` → ``(h₁ : P) (h₂ : Q)``."""
    out = []
    taken = _names(st)
    for i, b in enumerate(st.binders):
        if not (_movable(b) and isinstance(b, Hypothesis) and isinstance(b.formula, App) and b.formula.op == "and"):
            continue
        parts = []
        local = set(taken)
        for f in b.formula.args:
            name = _fresh_name((b.name or "h") + "_", local)
            local.add(name)
            parts.append(Hypothesis(name, f, b.style))
        binders = list(st.binders[:i]) + parts + list(st.binders[i + 1:])
        what = f"split {b.name} into " + ", ".join(p.name or "_" for p in parts)
        out.append((_fresh(st, binders=tuple(binders)), what, f"hypothesis {b.name}"))
    return out


def rw_explicit(st: Statement, rng: random.Random) -> list[Candidate]:
    out = []
    for i, b in enumerate(st.binders):
        if isinstance(b, VarBinder) and b.style in ("implicit", "strict_implicit"):
            binders = list(st.binders)
            binders[i] = replace(b, style="explicit")
            out.append((_fresh(st, binders=tuple(binders)), f"make {{{b.var.name}}} explicit", f"binder {b.var.name}"))
    return out


# --------------------------------------------------------------------------------------
# meaning-changing perturbations
# --------------------------------------------------------------------------------------


def pt_numeral(st: Statement, rng: random.Random) -> list[Candidate]:
    def make(t: Num) -> tuple[Term, str] | None:
        v = t.value
        choices = [v + 1, v + 2, 2 * v if v not in (0,) else 3]
        if t.sort != NAT or v >= 1:
            choices.append(v - 1)
        new_v = rng.choice([c for c in choices if c != v])
        new = Num(new_v, t.sort)
        return new, f"change numeral {show(t)} to {show(new)}"

    return _site_candidates(st, lambda t: isinstance(t, Num), make)  # type: ignore[arg-type]


def pt_drop(st: Statement, rng: random.Random) -> list[Candidate]:
    out = []
    for i, b in enumerate(st.binders):
        if _movable(b):
            assert isinstance(b, Hypothesis)
            binders = st.binders[:i] + st.binders[i + 1:]
            out.append((_fresh(st, binders=binders), f"drop hypothesis {b.name} : {show(b.formula)}", f"hypothesis {b.name}"))
    return out


def _numeric_vars(st: Statement) -> list[Var]:
    return [b.var for b in st.binders if isinstance(b, VarBinder) and b.var.sort in ORDERED]


def pt_add(st: Statement, rng: random.Random) -> list[Candidate]:
    """Add ``c < v`` or ``v ≠ c`` for a theorem variable ``v`` of an ordered numeric sort."""
    out = []
    taken = _names(st)
    name = _fresh_name("h_extra", taken)
    for v in _numeric_vars(st):
        c = Num(rng.choice([0, 1, 2, 3]), v.sort)
        for f in (app("lt", c, v), app("ne", v, c)):
            binders = (*st.binders, Hypothesis(name, f, "explicit"))
            out.append((_fresh(st, binders=binders), f"add hypothesis {name} : {show(f)}", "hypotheses"))
    return out


def pt_strictness(st: Statement, rng: random.Random) -> list[Candidate]:
    def make(t: App) -> tuple[Term, str]:
        new = app(STRICTNESS[t.op], *t.args)
        verb = "weaken" if t.op in ("lt", "gt") else "strengthen"
        return new, f"{verb} {show(t)} to {show(new)}"

    return _site_candidates(st, _is_app(*STRICTNESS), make)


_DOMAIN = {REAL: NAT, RAT: NAT, INT: NAT}
_SORT_NAME = {REAL: "ℝ", RAT: "ℚ", INT: "ℤ", NAT: "ℕ"}


def _fold_casts(t: Term) -> Term:
    """``↑(↑x : ℚ) : ℝ`` is ``↑x : ℝ`` (the IR's ``cast`` folds nested embeddings)."""
    return map_term(t, lambda u: cast(u.args[0], u.sort) if isinstance(u, App) and u.op == "cast" else None)


def pt_domain(st: Statement, rng: random.Random) -> list[Candidate]:
    """Re-sort a theorem variable ``x : ℝ`` (ℚ, ℤ) as ``x : ℕ``, cast back at every use: the
    statement stays well-typed and now only speaks about natural ``x``."""
    out = []
    for b in st.binders:
        if not (isinstance(b, VarBinder) and b.var.sort in _DOMAIN):
            continue
        old = b.var
        new = Var(old.name, _DOMAIN[old.sort])  # type: ignore[index]
        mapping: dict[Var, Term] = {old: cast(new, old.sort)}
        binders: list[VarBinder | Hypothesis] = []
        for c in st.binders:
            if c is b:
                binders.append(replace(b, var=new))
            elif isinstance(c, Hypothesis):
                binders.append(replace(c, formula=substitute(c.formula, mapping)))
            else:
                binders.append(c)
        concl = _fold_casts(substitute(st.conclusion, mapping))
        binders = [replace(c, formula=_fold_casts(c.formula)) if isinstance(c, Hypothesis) else c for c in binders]
        what = f"change the domain of {old.name} from {_SORT_NAME[old.sort]} to {_SORT_NAME[new.sort]}"  # type: ignore[index]
        out.append((_fresh(st, binders=tuple(binders), conclusion=concl), what, f"binder {old.name}"))
    return out


def pt_quantifier(st: Statement, rng: random.Random) -> list[Candidate]:
    def make(t: Quant) -> tuple[Term, str]:
        kind = "exists" if t.kind in ("forall", "exists1") else "forall"
        new = replace(t, kind=kind)
        sym = {"forall": "∀", "exists": "∃", "exists1": "∃!"}
        return new, f"swap {sym[t.kind]} to {sym[kind]} over {', '.join(v.name for v in t.vars)}"

    return _site_candidates(st, lambda t: isinstance(t, Quant), make)  # type: ignore[arg-type]


def pt_reverse(st: Statement, rng: random.Random) -> list[Candidate]:
    """``P → Q`` → ``Q → P`` inside a formula; with none, swap the last hypothesis and the
    conclusion (the theorem's own implication)."""
    out = _site_candidates(
        st, _is_app("implies"),
        lambda t: (app("implies", t.args[1], t.args[0]), f"reverse {show(t)}") if t.args[0] != t.args[1] else None,
    )
    if out:
        return out
    idx = [i for i, b in enumerate(st.binders) if _movable(b)]
    if not idx:
        return []
    i = idx[-1]
    h = st.binders[i]
    assert isinstance(h, Hypothesis)
    fv_c = free_vars(st.conclusion)
    # the conclusion becomes a hypothesis at i: every variable it mentions must be bound before
    if any(isinstance(b, VarBinder) and b.var in fv_c for b in st.binders[i + 1:]):
        return []
    binders = list(st.binders)
    binders[i] = replace(h, formula=st.conclusion)
    what = f"swap hypothesis {h.name} : {show(h.formula)} with the conclusion {show(st.conclusion)}"
    return [(_fresh(st, binders=tuple(binders), conclusion=h.formula), what, f"hypothesis {h.name} and the conclusion")]


def pt_replace_conclusion(st: Statement, rng: random.Random) -> list[Candidate]:
    """A provable conclusion unrelated to the problem: ``1 + 1 = 2`` or ``0 ≤ v * v``."""
    options: list[Term] = [app("eq", app("add", Num(1, NAT), Num(1, NAT)), Num(2, NAT))]
    for v in _numeric_vars(st):
        options.append(app("le", Num(0, v.sort), app("mul", v, v)))
    out = []
    for f in options:
        if f != st.conclusion:
            out.append((_fresh(st, conclusion=f), f"replace the conclusion {show(st.conclusion)} by {show(f)}", "the conclusion"))
    return out


_REWRITERS: dict[str, Callable[[Statement, random.Random], list[Candidate]]] = {
    "rename": rw_rename, "reorder_hypotheses": rw_reorder, "swap_eq": rw_swap_eq,
    "flip_dual": rw_flip_dual, "commute": rw_commute, "curry": rw_curry, "uncurry": rw_uncurry,
    "implicit_to_explicit": rw_explicit,
}
_PERTURBERS: dict[str, Callable[[Statement, random.Random], list[Candidate]]] = {
    "change_numeral": pt_numeral, "drop_hypothesis": pt_drop, "add_hypothesis": pt_add,
    "weaken_strengthen": pt_strictness, "change_domain": pt_domain, "swap_quantifier": pt_quantifier,
    "reverse_implication": pt_reverse, "replace_conclusion": pt_replace_conclusion,
}


# --------------------------------------------------------------------------------------
# selection
# --------------------------------------------------------------------------------------


def _select(st: Statement, table: dict[str, Callable], kinds: Sequence[str] | None, seed: int, n: int | None) -> list[tuple[str, Candidate]]:
    """Round-robin over the applicable kinds (in a seeded order), one random candidate each
    time, until ``n`` (default: one per applicable kind). Duplicates and no-ops are skipped."""
    if not isinstance(st, Statement):
        raise TypeError(f"expected a provers.ir.Statement, got {type(st).__name__} (parse text first with provers.parse)")
    if n is not None and n < 0:
        raise ValueError(f"n must be >= 0, got {n}")
    if isinstance(kinds, str):
        kinds = [kinds]
    kinds = tuple(kinds) if kinds is not None else tuple(table)
    unknown = [k for k in kinds if k not in table]
    if unknown:
        raise ValueError(f"unknown kind(s) {unknown}; expected some of {tuple(table)}")
    rng = random.Random(seed)
    pools: dict[str, list[Candidate]] = {}
    for k in kinds:
        cands = table[k](st, random.Random(rng.random()))
        rng.shuffle(cands)
        pools[k] = cands
    order = [k for k in kinds if pools[k]]
    rng.shuffle(order)
    limit = len(order) if n is None else n
    out: list[tuple[str, Candidate]] = []
    seen = {st}
    while len(out) < limit and any(pools[k] for k in order):
        for k in order:
            while pools[k]:
                cand = pools[k].pop()
                if cand[0] not in seen:
                    seen.add(cand[0])
                    out.append((k, cand))
                    break
            if len(out) >= limit:
                break
    return out


def rewrites(statement: Statement, seed: int = 0, n: int | None = None, kinds: Sequence[str] | None = None) -> list[Variant]:
    """Meaning-preserving variants of ``statement`` (default: one per applicable kind)."""
    out = []
    for kind, (st, what, where) in _select(statement, _REWRITERS, kinds, seed, n):
        text, lang = render(st)
        out.append(Variant(st, text, kind, True, what, None, where, lang))
    return out


def perturbations(
    statement: Statement,
    seed: int = 0,
    n: int | None = None,
    kinds: Sequence[str] | None = None,
    check: bool = True,
    timeout: float = 2.0,
) -> list[Variant]:
    """Meaning-changing variants of ``statement``; with ``check`` each is labelled
    ``effective`` by the engine (SAE) and an exact-evaluation witness (see ``label_effect``)."""
    out = []
    for kind, (st, what, where) in _select(statement, _PERTURBERS, kinds, seed, n):
        text, lang = render(st)
        v = Variant(st, text, kind, False, what, None, where, lang)
        if check:
            v = label_effect(statement, v, timeout=timeout)
        out.append(v)
    return out


# --------------------------------------------------------------------------------------
# did the perturbation change the meaning?
# --------------------------------------------------------------------------------------


def _premises(st: Statement) -> Term:
    return and_(*(h.formula for h in st.hypotheses if h.style != "instance"))


def component_witness(a: Statement, b: Statement, points: int = 32, seed: int = 0) -> dict[str, Any] | None:
    """An assignment where the premises (as a conjunction) or the conclusions of ``a`` and
    ``b`` get different EXACT truth values, reading both over the same variables (identity
    alignment). None when there is none among the sampled points, or the variables differ."""
    from provers.semantics import numeral_probes, sample_assignments, truth

    va = tuple(v for v in a.variables if not is_universe(v.sort))
    if va != tuple(v for v in b.variables if not is_universe(v.sort)):
        return None
    pairs = [("premises", _premises(a), _premises(b)), ("conclusion", a.conclusion, b.conclusion)]
    try:
        samples = sample_assignments(list(va), points, seed)
    except Exception:  # noqa: BLE001 - a sort the sampler cannot draw from
        samples = []
    samples = numeral_probes(va, [t for _, p, q in pairs for t in (p, q)]) + samples
    for what, p, q in pairs:
        if p == q:
            continue
        for env in samples:
            x, y = truth(p, env), truth(q, env)
            if x is not None and y is not None and x != y:
                return {"component": what, "assignment": dict(env), "original": x, "variant": y}
    return None


def _identity_alignment(verdict: Any) -> bool:
    return all(x == y for x, y in getattr(verdict, "alignment", []) or [])


def label_effect(original: Statement, variant: Variant, timeout: float = 2.0) -> Variant:
    """``variant`` with ``effective``/``evidence``/``verdict`` filled in (see module doc)."""
    from provers import check_equivalence

    st = variant.statement
    if st.canonical_key() == original.canonical_key():
        return replace(variant, effective=False, evidence="same statement up to renaming")
    witness = component_witness(original, st)
    try:
        v = check_equivalence(original, st, relation="sae", timeout=timeout)
    except Exception as e:  # noqa: BLE001 - an engine crash leaves the label undecided
        eff = True if witness else None
        why = f"engine error {type(e).__name__}: {e}"
        return replace(variant, effective=eff, evidence=why + (f"; exact witness {_fmt_witness(witness)}" if witness else ""))
    if v.status == VerdictStatus.EQUIVALENT:
        if witness is not None and _identity_alignment(v):
            return replace(variant, effective=True, verdict=v,
                           evidence=f"CONFLICT: engine says SAE-equivalent but exact evaluation separates {_fmt_witness(witness)}")
        return replace(variant, effective=False, verdict=v, evidence=f"engine: SAE-equivalent ({v.reason or 'all obligations proved'})")
    if v.status == VerdictStatus.INEQUIVALENT:
        return replace(variant, effective=True, verdict=v, evidence=f"engine: SAE-inequivalent ({v.reason})")
    if witness is not None:
        return replace(variant, effective=True, verdict=v, evidence=f"exact witness {_fmt_witness(witness)}; engine inconclusive ({v.reason})")
    return replace(variant, effective=None, verdict=v, evidence=f"undecided: engine inconclusive ({v.reason})")


def _fmt_witness(w: dict[str, Any]) -> str:
    env = ", ".join(f"{k} = {x}" for k, x in w["assignment"].items())
    return f"the {w['component']} at {{{env}}} ({w['original']} vs {w['variant']})"


def variants(statement: Statement, seed: int = 0, n_rewrites: int | None = None, n_perturbations: int | None = None,
             check: bool = True, timeout: float = 2.0) -> list[Variant]:
    """Rewrites then perturbations of ``statement`` (the CLI's and the experiment's entry)."""
    return rewrites(statement, seed=seed, n=n_rewrites) + perturbations(
        statement, seed=seed, n=n_perturbations, check=check, timeout=timeout
    )


__all__ = [
    "PERTURBATION_KINDS", "REWRITE_KINDS", "Variant", "component_witness", "label_effect",
    "perturbations", "render", "rewrites", "variants",
]
