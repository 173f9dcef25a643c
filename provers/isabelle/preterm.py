"""Pre-terms: what the Isabelle term parser builds before sorts are known.

A pre-term has the shape of an IR term, with two liberties, each explicit and checked when
the node is built:

- its sorts may be pending (``provers.ir.SortVar``, or a pair ``types.Prod``);
- an application may name a *pseudo-operation* (``PSEUDO_OPS``): an HOL operator whose IR
  meaning depends on a sort not known yet (``div`` is ``div`` on nat and ``fdiv`` on int).
  Every other operation name must be one of ``provers.ir.OPS``, with its arity.

``finish.Finisher`` turns a pre-term into IR once every sort is known, through the IR's
validating constructors only; nothing else builds IR in this frontend.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from fractions import Fraction
from functools import cache

from provers.ir import BIG_OPS, BOOL, OPS, QUANTIFIERS, FunSort, IRError, SetSort, Sort, fresh_name
from provers.isabelle.types import Prod

#: HOL operators whose IR operation depends on sorts still pending: name -> (arity, meaning).
#: ``finish.py`` has one handler for each.
PSEUDO_OPS: dict[str, tuple[int, str]] = {
    "isa:eq": (2, "= : iff on bool, eq otherwise"),
    "isa:minus": (2, "- : setdiff on sets, sub on numbers, else uninterpreted"),
    "isa:divide": (2, "/ : div in a field, else uninterpreted"),
    "isa:div": (2, "div: div on nat, fdiv on int, else uninterpreted"),
    "isa:mod": (2, "mod: mod on nat, fmod on int, else uninterpreted"),
    "isa:dvd": (2, "dvd: dvd on nat/int, a ≠ 0 ∨ b = 0 in a field"),
    "isa:abs": (1, "¦x¦: abs, cabs (cast back to complex) on complex"),
    "isa:sgn": (1, "sgn: sign on int/rat/real"),
    "isa:inverse": (1, "inverse: inv in a field"),
    "isa:exp": (1, "exp on real"),
    "isa:sin": (1, "sin on real"),
    "isa:cos": (1, "cos on real"),
    "isa:gcd": (2, "gcd on nat/int"),
    "isa:lcm": (2, "lcm on nat/int"),
    "isa:prime": (1, "prime on nat; on int also p > 0"),
    "isa:even": (1, "even on nat/int"),
    "isa:odd": (1, "odd on nat/int"),
    "isa:fact": (1, "fact n cast to its (polymorphic) result type"),
    "isa:negnum": (1, "a negative numeral -n (folded into the numeral)"),
    "isa:lessThan": (1, "{..<n}: range on nat"),
    "isa:atMost": (1, "{..n}: {0..n} on nat"),
}


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def _check_sort(s: object, what: str) -> None:
    if not isinstance(s, Sort):
        raise IRError(f"{what}: {s!r} is not a sort")


class PreTerm:
    """Base class of pre-terms; every one knows its (possibly pending) ``sort``."""

    sort: Sort


@dataclass(frozen=True)
class PreVar(PreTerm):
    name: str
    sort: Sort

    def __post_init__(self) -> None:
        _check_sort(self.sort, f"variable {self.name}")


@dataclass(frozen=True)
class PreNum(PreTerm):
    """A numeral; its sort is checked by ``ir.Num`` once known (``1`` may become a real)."""

    value: int | Fraction
    sort: Sort

    def __post_init__(self) -> None:
        if isinstance(self.value, bool) or not isinstance(self.value, (int, Fraction)):
            raise IRError(f"numeral value must be int or Fraction, got {self.value!r}")
        _check_sort(self.sort, f"numeral {self.value}")


@dataclass(frozen=True)
class PreApp(PreTerm):
    """An operation of ``OPS`` or ``PSEUDO_OPS`` applied to pre-terms."""

    op: str
    args: tuple[PreTerm, ...]
    sort: Sort

    def __post_init__(self) -> None:
        if self.op in PSEUDO_OPS:
            arity: int | None = PSEUDO_OPS[self.op][0]
        elif self.op in OPS:
            arity = OPS[self.op].arity
        else:
            raise IRError(f"unknown operation {self.op!r}")
        if arity is not None and len(self.args) != arity:
            raise IRError(f"{self.op} takes {arity} arguments, got {len(self.args)}")
        _check_sort(self.sort, self.op)


@dataclass(frozen=True)
class PreSym(PreTerm):
    """An HOL constant the IR does not interpret (``Pair``, ``fst``, ``Max``): ``Uninterpreted``."""

    symbol: str
    args: tuple[PreTerm, ...]
    sort: Sort

    def __post_init__(self) -> None:
        _check_sort(self.sort, self.symbol)


@dataclass(frozen=True)
class PreQuant(PreTerm):
    kind: str
    vars: tuple[PreVar, ...]
    body: PreTerm

    def __post_init__(self) -> None:
        if self.kind not in QUANTIFIERS:
            raise IRError(f"unknown quantifier {self.kind!r}")

    @property
    def sort(self) -> Sort:  # type: ignore[override]
        return BOOL


@dataclass(frozen=True)
class PreLam(PreTerm):
    vars: tuple[PreVar, ...]
    body: PreTerm

    @property
    def sort(self) -> Sort:  # type: ignore[override]
        return FunSort(tuple(v.sort for v in self.vars), self.body.sort)


@dataclass(frozen=True)
class PreBigOp(PreTerm):
    kind: str
    var: PreVar
    domain: PreTerm
    body: PreTerm

    def __post_init__(self) -> None:
        if self.kind not in BIG_OPS:
            raise IRError(f"unknown big operator {self.kind!r}")

    @property
    def sort(self) -> Sort:  # type: ignore[override]
        return self.body.sort


@dataclass(frozen=True)
class PreSetBuilder(PreTerm):
    var: PreVar
    body: PreTerm

    @property
    def sort(self) -> Sort:  # type: ignore[override]
        return SetSort(self.var.sort)


def pairs(items: list[PreTerm] | list[PreVar]) -> PreTerm:
    """The HOL tuple ``(a, b, c)``: nested pairs ``(a, (b, c))``; one item is itself."""
    out = items[-1]
    for a in reversed(items[:-1]):
        out = PreSym("Pair", (a, out), Prod(a.sort, out.sort))
    return out


# --------------------------------------------------------------------------------------
# Walking pre-terms (the elaborator substitutes while it reads: let, β, tuple patterns)
# --------------------------------------------------------------------------------------


def children(t: PreTerm) -> tuple[PreTerm, ...]:
    """The pre-terms right under ``t`` (bound variables included), in field order."""
    out: list[PreTerm] = []
    for name in _field_names(type(t)):
        value = getattr(t, name)
        if isinstance(value, PreTerm):
            out.append(value)
        elif isinstance(value, tuple):  # args, vars
            out.extend(value)
    return tuple(out)


def height(t: PreTerm) -> int:
    """Levels of ``t`` (counted level by level: a long operator chain is deep, and it must be
    measured before anything recurses on it)."""
    level, n = [t], 0
    while level:
        n += 1
        level = [c for s in level for c in children(s)]
    return n


def bound_by(t: PreTerm) -> tuple[PreVar, ...]:
    if isinstance(t, (PreQuant, PreLam)):
        return t.vars
    if isinstance(t, (PreBigOp, PreSetBuilder)):
        return (t.var,)
    return ()


def free_vars(t: PreTerm) -> frozenset[PreVar]:
    if isinstance(t, PreVar):
        return frozenset({t})
    if isinstance(t, PreBigOp):  # its domain is outside the scope of its variable
        return free_vars(t.domain) | (free_vars(t.body) - {t.var})
    return frozenset().union(*map(free_vars, children(t))) - frozenset(bound_by(t))


def substitute(t: PreTerm, mapping: dict[PreVar, PreTerm]) -> PreTerm:
    """Capture-avoiding substitution (a bound variable that would capture is renamed)."""
    if not mapping:
        return t
    if isinstance(t, PreVar):
        return mapping.get(t, t)
    bound = bound_by(t)
    if not bound:
        if isinstance(t, (PreApp, PreSym)) and t.args:
            return replace(t, args=tuple(substitute(a, mapping) for a in t.args))
        return t
    inner = {k: v for k, v in mapping.items() if k not in bound}
    incoming = frozenset().union(*(free_vars(v) for v in inner.values())) if inner else frozenset()
    taken = {v.name for v in incoming} | {v.name for v in free_vars(t)}
    renames: dict[PreVar, PreTerm] = {}
    for b in bound:
        if b in incoming:
            name = fresh_name(b.name, taken)
            taken.add(name)
            renames[b] = PreVar(name, b.sort)
    inner.update(renames)
    new = tuple(renames.get(b, b) for b in bound)
    if isinstance(t, PreBigOp):
        return PreBigOp(t.kind, new[0], substitute(t.domain, mapping), substitute(t.body, inner))  # type: ignore[arg-type]
    if isinstance(t, PreSetBuilder):
        return PreSetBuilder(new[0], substitute(t.body, inner))  # type: ignore[arg-type]
    return replace(t, vars=new, body=substitute(t.body, inner))  # type: ignore[call-arg]


# --------------------------------------------------------------------------------------
# Naming a pre-term in a message
# --------------------------------------------------------------------------------------

_SHORT_INFIX = {"add": "+", "sub": "-", "isa:minus": "-", "mul": "*", "isa:divide": "/", "pow": "^",
                "isa:div": "div", "isa:mod": "mod", "powr": "powr"}


def show_short(t: PreTerm) -> str:
    """A few characters naming ``t`` in an error message or note."""
    if isinstance(t, PreVar):
        return "its argument" if t.name.endswith("'") else t.name  # x1' etc. are invented names
    if isinstance(t, PreSym):
        return t.symbol
    if isinstance(t, PreNum):
        return str(t.value)
    if isinstance(t, PreApp) and len(t.args) == 2 and t.op in _SHORT_INFIX:
        text = f"{show_short(t.args[0])} {_SHORT_INFIX[t.op]} {show_short(t.args[1])}"
        return text if len(text) < 40 else "a term"
    if isinstance(t, PreApp) and t.args:
        return f"{t.op.removeprefix('isa:')} …"
    return "a term"
