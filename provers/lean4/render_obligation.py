"""Render proof obligations as Lean 4 theorems closed by a tactic portfolio.

Two sources:
- text parts (binders, premises, goal, `open` lines), e.g. the original Lean text of a
  candidate's components, so Mathlib's own definitions are used: `LeanObligation`;
- an IR formula (`provers.ir.Term`), printed fully parenthesized with Mathlib names:
  `obligation_from_ir`. Constructs with no faithful Lean rendering (uninterpreted symbols,
  opaque carriers, Isabelle-only operations such as `ln` on x ≤ 0) raise `NotRenderable`.

Every text part is screened (`check_safe_term`) when the obligation is built; the REPL
client screens the whole rendered theorem again, allowing only the portfolio as proof.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from provers import ir
from provers.lean4.security import (
    FORBIDDEN_WORDS,
    check_safe_header,
    check_safe_term,
    strip_comments,
)

__all__ = [
    "CORE_TACTICS", "MATHLIB_TACTICS", "DEFAULT_TACTICS", "NotRenderable", "LeanObligation",
    "portfolio_for", "tactic_script", "render_theorem", "obligation_from_ir", "render_term",
]

CORE_TACTICS = ("rfl", "omega", "decide", "simp")
MATHLIB_TACTICS = ("norm_num", "ring_nf", "linarith", "nlinarith", "positivity", "aesop", "tauto")
DEFAULT_TACTICS = ("rfl", "omega", "decide", "simp", "norm_num", "ring_nf", "linarith",
                   "nlinarith", "positivity", "aesop", "tauto")
_AESOP_TACTICS = ("aesop",)


def _clean(part: str) -> str:
    return " ".join(strip_comments(part).split())


class NotRenderable(ValueError):
    """The obligation has no faithful Lean rendering (says which construct)."""


def _has_import(header: str, root: str) -> bool:
    return re.search(rf"^\s*import\s+{root}(\.|\s|$)", header, flags=re.MULTILINE) is not None


def portfolio_for(header: str, tactics: Sequence[str] = DEFAULT_TACTICS) -> tuple[str, ...]:
    """Keep the tactics the header makes available: Mathlib ones only when Mathlib is imported."""
    mathlib = _has_import(header, "Mathlib")
    aesop = mathlib or _has_import(header, "Aesop")
    out = []
    for t in tactics:
        name = t.split()[0] if t.split() else t
        if name in _AESOP_TACTICS and not aesop:
            continue
        if name in MATHLIB_TACTICS and name not in _AESOP_TACTICS and not mathlib:
            continue
        out.append(t)
    return tuple(out)


def tactic_script(tactics: Sequence[str]) -> str:
    """`by intros; first | (t₁; done) | ...`: an alternative only counts if it closes the goal."""
    if not tactics:
        raise ValueError("empty tactic portfolio")
    alts = "\n".join(f"  | ({t}; done)" for t in tactics)
    return f"by\n  intros\n  first\n{alts}"


@dataclass(frozen=True)
class LeanObligation:
    """A theorem to prove, from (screened) Lean text parts.

    `binders` are binder groups as written (`(x y : ℝ)`, `{n : ℕ}`, `[Group G]`);
    `premises` are propositions, rendered as hypotheses; `goal` is the proposition to prove;
    `opens` are `open ...` lines placed before the theorem.
    """

    goal: str
    binders: tuple[str, ...] = ()
    premises: tuple[str, ...] = ()
    opens: tuple[str, ...] = ()
    name: str = "obligation"
    source: str = field(default="text", compare=False)

    def __post_init__(self) -> None:
        for part in (*self.binders, *self.premises, self.goal):
            check_safe_term(part)
        # Comments are dropped so that a trailing `--` cannot swallow what follows the part.
        for name in ("binders", "premises"):
            object.__setattr__(self, name, tuple(_clean(p) for p in getattr(self, name)))
        object.__setattr__(self, "goal", _clean(self.goal))
        if self.opens:
            check_safe_header("\n".join(self.opens))
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", self.name) or self.name in FORBIDDEN_WORDS:
            raise NotRenderable(f"bad theorem name {self.name!r}")

    def statement(self) -> str:
        """`theorem name binders (h_obl_i : premise) : goal` (no proof)."""
        hyps = [f"(h_obl_{i} : {p})" for i, p in enumerate(self.premises, 1)]
        parts = [f"theorem {self.name}", *self.binders, *hyps]
        head = " ".join(parts)
        return f"{head} :\n    {self.goal}"


def render_theorem(ob: LeanObligation, tactics: Sequence[str]) -> tuple[str, str]:
    """(text, proof): the Lean text to send and the exact proof part to allow in the screen."""
    proof = tactic_script(tactics)
    lines = [*ob.opens, f"{ob.statement()} := {proof}"]
    return "\n".join(lines), proof


# ------------------------------------------------------------------ IR -> Lean

_SORTS = {ir.BOOL: "Prop", ir.NAT: "ℕ", ir.INT: "ℤ", ir.RAT: "ℚ", ir.REAL: "ℝ", ir.COMPLEX: "ℂ"}
_SAFE_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*|[A-Za-z][A-Za-z0-9_]*[₀-₉']+")
_RESERVED = {"fun", "forall", "exists", "let", "have", "show", "from", "at", "if", "then", "else",
             "match", "with", "in", "by", "do", "sorry", "Type", "Prop", "Sort", "end", "open",
             "import", "theorem", "lemma", "example", "calc", "this", "λ", "π", "I", "e"}
_INFIX = {"eq": "=", "ne": "≠", "lt": "<", "le": "≤", "gt": ">", "ge": "≥", "add": "+",
          "mul": "*", "sub": "-", "div": "/", "mod": "%", "pow": "^", "zpow": "^", "rpow": "^",
          "implies": "→", "iff": "↔", "dvd": "∣", "mem": "∈", "subset": "⊆", "union": "∪",
          "inter": "∩", "setdiff": "\\"}
_NARY = {"and": "∧", "or": "∨"}
_PREFIX_FN = {"sqrt": "Real.sqrt", "exp": "Real.exp", "log": "Real.log", "logb": "Real.logb",
              "sin": "Real.sin", "cos": "Real.cos", "tan": "Real.tan", "arcsin": "Real.arcsin",
              "arccos": "Real.arccos", "arctan": "Real.arctan", "sinh": "Real.sinh",
              "cosh": "Real.cosh", "tanh": "Real.tanh", "fact": "Nat.factorial",
              "choose": "Nat.choose", "min": "min", "max": "max", "ediv": "Int.ediv",
              "emod": "Int.emod", "fdiv": "Int.fdiv", "fmod": "Int.fmod", "round": "round",
              "to_nat": "Int.toNat", "nat_abs": "Int.natAbs", "frac": "Int.fract",
              "re": "Complex.re", "im": "Complex.im", "conj": "(starRingEnd ℂ)",
              "digits": "Nat.digits", "list_sum": "List.sum", "list_length": "List.length",
              "divisors": "Nat.divisors", "finite": "Set.Finite", "even": "Even", "odd": "Odd"}
_CONSTS = {"true": "True", "false": "False", "pi": "Real.pi", "I": "Complex.I"}
_FINITE_SET_OPS = {"range", "divisors"}
_INTERVALS = {"Icc", "Ico", "Ioc", "Ioo"}


def _sort(s: ir.Sort) -> str:
    if s in _SORTS:
        return _SORTS[s]
    if isinstance(s, ir.FunSort):
        return "(" + " → ".join(_sort(a) for a in (*s.args, s.result)) + ")"
    if isinstance(s, ir.SetSort):
        return f"(Set {_sort(s.elem)})"
    if isinstance(s, ir.ListSort):
        return f"(List {_sort(s.elem)})"
    raise NotRenderable(f"sort {s} has no Lean rendering without the original text")


_LEAN_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_']*(\.[A-Za-z_][A-Za-z0-9_']*)*")


class _Printer:
    def __init__(self, lean_symbols: bool = False) -> None:
        self.names: dict[ir.Var, str] = {}
        self.taken: set[str] = set()
        self.lean_symbols = lean_symbols

    def bind(self, v: ir.Var) -> str:
        base = v.name if _SAFE_NAME.fullmatch(v.name) and v.name not in _RESERVED \
            and v.name not in FORBIDDEN_WORDS else "v"
        name = base
        i = 1
        while name in self.taken:
            name = f"{base}_{i}"
            i += 1
        self.taken.add(name)
        self.names[v] = name
        return name

    def binder(self, v: ir.Var) -> str:
        return f"({self.bind(v)} : {_sort(v.sort)})"

    def num(self, t: ir.Num) -> str:
        ty = _sort(t.sort)
        v = t.value
        if isinstance(v, Fraction):
            return f"(({v.numerator} : {ty}) / {v.denominator})"
        return f"({v} : {ty})"

    def finset(self, t: ir.Term) -> str:
        """A finite-set term as a `Finset` (BigOp domains, `card`)."""
        if isinstance(t, ir.App):
            if t.op == "range":
                return f"(Finset.range {self.term(t.args[0])})"
            if t.op in _INTERVALS:
                return f"(Finset.{t.op} {self.term(t.args[0])} {self.term(t.args[1])})"
            if t.op == "divisors":
                return f"(Nat.divisors {self.term(t.args[0])})"
            if t.op == "set_of":
                assert isinstance(t.sort, ir.SetSort)
                elems = ", ".join(self.term(a) for a in t.args)
                return f"({{{elems}}} : Finset {_sort(t.sort.elem)})" if t.args else \
                    f"(∅ : Finset {_sort(t.sort.elem)})"
            if t.op == "filter":
                return f"(Finset.filter {self.term(t.args[0])} {self.finset(t.args[1])})"
            if t.op == "image":
                return f"(Finset.image {self.term(t.args[0])} {self.finset(t.args[1])})"
            if t.op in ("union", "inter", "setdiff"):
                return f"({self.finset(t.args[0])} {_INFIX[t.op]} {self.finset(t.args[1])})"
        raise NotRenderable("finite set given by a set variable or formula (needs the original "
                            "Lean text to know it is a Finset)")

    def term(self, t: ir.Term) -> str:  # noqa: C901 - one case per IR construct
        if isinstance(t, ir.Var):
            if t not in self.names:
                raise NotRenderable(f"free variable {t.name} without a binder")
            return self.names[t]
        if isinstance(t, ir.Num):
            return self.num(t)
        if isinstance(t, ir.Uninterpreted):
            if not (self.lean_symbols and _LEAN_NAME.fullmatch(t.symbol)):
                raise NotRenderable(f"uninterpreted symbol {t.symbol!r} (needs the original "
                                    "Lean text)")
            _sort(t.sort)  # opaque carriers still need their binders: refuse those
            if not t.args:
                return t.symbol
            return "(" + " ".join((t.symbol, *(self.term(a) for a in t.args))) + ")"
        if isinstance(t, ir.Quant):
            q = {"forall": "∀", "exists": "∃", "exists1": "∃!"}[t.kind]
            saved = dict(self.names)
            bs = " ".join(self.binder(v) for v in t.vars)
            body = self.term(t.body)
            self.names = saved
            return f"({q} {bs}, {body})"
        if isinstance(t, ir.Lam):
            saved = dict(self.names)
            bs = " ".join(self.binder(v) for v in t.vars)
            body = self.term(t.body)
            self.names = saved
            return f"(fun {bs} => {body})"
        if isinstance(t, ir.BigOp):
            sym = {"sum": "∑", "prod": "∏"}[t.kind]
            dom = self.finset(t.domain)
            saved = dict(self.names)
            name = self.bind(t.var)
            body = self.term(t.body)
            self.names = saved
            return f"({sym} {name} ∈ {dom}, {body})"
        if isinstance(t, ir.SetBuilder):
            saved = dict(self.names)
            b = self.binder(t.var)
            body = self.term(t.body)
            self.names = saved
            return f"{{{b[1:-1]} | {body}}}"
        if not isinstance(t, ir.App):
            raise NotRenderable(f"unknown IR node {type(t).__name__}")
        return self.app(t)

    def app(self, t: ir.App) -> str:  # noqa: C901
        op, a = t.op, t.args
        if op in _CONSTS:
            return _CONSTS[op]
        if op == "cast":
            return f"(({self.term(a[0])} : {_sort(t.sort)}))"
        if op in _NARY:
            return "(" + f" {_NARY[op]} ".join(self.term(x) for x in a) + ")"
        if op in _INFIX:
            if op in ("div", "mod") and t.sort == ir.INT:
                raise NotRenderable(f"{op} on Int")  # the IR uses ediv/fdiv there
            return f"({self.term(a[0])} {_INFIX[op]} {self.term(a[1])})"
        if op == "not":
            return f"(¬ {self.term(a[0])})"
        if op == "neg":
            return f"(-{self.term(a[0])})"
        if op == "inv":
            return f"({self.term(a[0])})⁻¹"
        if op == "abs":
            return f"|{self.term(a[0])}|"
        if op == "cabs":
            return f"‖{self.term(a[0])}‖"
        if op == "ite":
            return f"(if {self.term(a[0])} then {self.term(a[1])} else {self.term(a[2])})"
        if op == "powr":
            x, y = self.term(a[0]), self.term(a[1])
            return f"(if {x} = 0 then (0 : ℝ) else Real.exp ({y} * Real.log {x}))"
        if op == "signed_sqrt":
            x = self.term(a[0])
            return f"(if 0 ≤ {x} then Real.sqrt {x} else -Real.sqrt (-{x}))"
        if op in ("floor", "ceil"):
            x = a[0]
            inner = self.term(ir.cast(x, ir.INT) if x.sort == ir.NAT else x)
            return f"⌊{inner}⌋" if op == "floor" else f"⌈{inner}⌉"
        if op in ("nat_floor", "nat_ceil"):
            inner = self.term(a[0])
            return f"⌊{inner}⌋₊" if op == "nat_floor" else f"⌈{inner}⌉₊"
        if op == "sign":
            if t.sort == ir.REAL:
                return f"(Real.sign {self.term(a[0])})"
            if t.sort == ir.INT:
                return f"(Int.sign {self.term(a[0])})"
            raise NotRenderable(f"sign on {t.sort}")
        if op in ("gcd", "lcm"):
            fn = f"{'Nat' if t.sort == ir.NAT else 'Int'}.{op}"
            out = f"({fn} {self.term(a[0])} {self.term(a[1])})"
            return out if t.sort == ir.NAT else f"(({out} : ℤ))"
        if op == "prime":
            x = self.term(a[0])
            return f"(Nat.Prime {x})" if a[0].sort == ir.NAT else f"(Nat.Prime (Int.natAbs {x}))"
        if op == "apply":
            return "(" + " ".join(self.term(x) for x in a) + ")"
        if op == "set_of":
            assert isinstance(t.sort, ir.SetSort)
            elems = ", ".join(self.term(x) for x in a)
            return f"({{{elems}}} : Set {_sort(t.sort.elem)})" if a else \
                f"(∅ : Set {_sort(t.sort.elem)})"
        if op in _INTERVALS:
            return f"(Set.{op} {self.term(a[0])} {self.term(a[1])})"
        if op == "range":
            return f"(↑(Finset.range {self.term(a[0])}) : Set ℕ)"
        if op == "card":
            x = a[0]
            if isinstance(x, ir.Var):
                return f"(Set.ncard {self.term(x)})"
            return f"(Finset.card {self.finset(x)})"
        if op == "image":
            return f"({self.term(a[0])} '' {self.term(a[1])})"
        if op == "filter":
            assert isinstance(t.sort, ir.SetSort)
            x = self.bind(ir.Var("x", t.sort.elem))  # fresh: cannot capture a free name
            return f"{{{x} ∈ {self.term(a[1])} | {self.term(a[0])} {x}}}"
        if op in _PREFIX_FN:
            fn = _PREFIX_FN[op]
            return f"({fn} " + " ".join(self.term(x) for x in a) + ")"
        raise NotRenderable(f"operation {op!r} has no faithful Lean rendering")


def render_term(t: ir.Term, binders: Iterable[ir.Var] = (), *,
                lean_symbols: bool = False) -> str:
    """Lean text of an IR term (free variables must be listed in `binders`)."""
    p = _Printer(lean_symbols)
    for v in binders:
        p.bind(v)
    return p.term(t)


def obligation_from_ir(formula: ir.Term, *, premises: Sequence[ir.Term] = (),
                       name: str = "obligation", lean_symbols: bool = False) -> LeanObligation:
    """A LeanObligation proving `premises ⊢ formula`, free variables as explicit binders.

    Raises NotRenderable for constructs with no faithful Lean meaning. With
    `lean_symbols=True`, an uninterpreted symbol that is a Lean name (`Nat.ofDigits`,
    `Pairwise`) is applied as such: only correct when the statements came from Lean, where
    the symbol *is* that Mathlib definition (an Isabelle `prime` is not Lean's).
    """
    if formula.sort != ir.BOOL:
        raise NotRenderable(f"obligation of sort {formula.sort}, expected a proposition")
    p = _Printer(lean_symbols)
    free: list[ir.Var] = []
    for term in (*premises, formula):
        for s in ir.subterms(term):
            if isinstance(s, ir.Var) and s in ir.free_vars(term) and s not in free:
                free.append(s)
    binders = tuple(p.binder(v) for v in free)
    prem = tuple(p.term(x) for x in premises)
    goal = p.term(formula)
    return LeanObligation(goal=goal, binders=binders, premises=prem, name=name, source="ir")
