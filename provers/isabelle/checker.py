"""What Isabelle's own checker rejects that this frontend reads past.

The parser is lenient on purpose: a candidate that writes ``≠`` for ``\\<noteq>`` or declares
``x :: "real^2"`` still has a meaning, and clustering uses it. But Isabelle itself rejects
such a text in a theory importing ``Complex_Main`` (the usual context of MATH-style
statements), and a statement Isabelle rejects is not a correct formalization: the selection
demotes it (``rerank.scoring.DEMOTIONS``, reason ``ill_formed``) while its meaning still
counts for its class.

Each rule is a fact about Isabelle, not about one dataset (one function per rule, ``RULES``):

* ``raw_unicode``: Isabelle source writes its symbols in ASCII, ``\\<noteq>``, ``\\<alpha>``;
  the editor only renders them as glyphs. A raw non-ASCII character (outside a comment) is
  not a symbol of the inner syntax.
* ``types``: a type ``Complex_Main`` does not have: the vector type ``real^2`` and ``dist``,
  ``norm``, ``*\\<^sub>R`` on pairs (HOL-Analysis: ``Finite_Cartesian_Product``,
  ``Product_Vector``), ``int poly`` (HOL-Computational_Algebra), or a name no theory defines
  (``point``, ``real2``); a type variable of a HOL-Analysis class (``'a::real_inner``).
* ``polynomial_literal``: ``[:c₀, …, cₙ:]`` is HOL-Computational_Algebra's notation for a
  polynomial (``pCons``); Complex_Main has no such syntax, so the text does not parse there
  (the paper's Isabelle rejected every candidate that wrote one, and accepted ``poly`` applied
  to a list, where ``poly`` is a free variable).
* ``reserved_names``: ``o`` and ``O`` are HOL's infix compositions (``f o g``, ``r O s``), and
  ``GCD`` / ``LCM`` binders (``GCD x∈A. f x``), not names a statement can fix or bind; an Isar
  command (``next``) cannot be named in ``fixes``.
* ``constant_arguments``: ``Gcd``, ``Lcm``, ``Max``, ``Min``, ``Sup``, ``Inf`` take one set
  (``'a set ⇒ 'a``); ``Gcd a b`` is a type error (``gcd a b`` is the binary one); and
  ``continuous`` takes a filter first (``continuous (at x) f``), so ``continuous f`` is one too;
  ``measure`` is ``Wellfounded.measure :: ('a ⇒ nat) ⇒ ('a × 'a) set`` in Complex_Main (and
  takes a measure first in HOL-Analysis), so ``measure S`` of a set is a type error.
* ``class_instances``: ``mod``, ``gcd``, ``lcm`` on a variable the statement fixes as real or
  complex (or a function to them): ``real`` is in neither class ``modulo`` nor
  ``semiring_gcd`` (``div`` is fine: it is a field's ``/``). Only fixed variables count: a
  free one Isabelle may type ``int`` there and coerce elsewhere (``gcd A C = 1`` with ``A``,
  ``C`` free is accepted), and a ``nat`` coerced to real is not one — unless Isabelle had to
  place that coercion (under ``powr``, ``exp``, ``ln`` …) or the operand is made of a
  real-valued constant (``sqrt``, ``pi``).

A rule's message names the library that would provide the construct, so that a theory
header importing it drops the message (``IMPORTS``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator

from provers.ir.sorts import COMPLEX, REAL, FunSort, ListSort, OpaqueSort, ProdSort, SetSort, Sort
from provers.ir.statement import Statement
from provers.ir.terms import App, Lam, Quant, Term, Uninterpreted, Var
from provers.ir.traverse import free_vars, subterms
from provers.isabelle.symbols import ESCAPES

#: type constructors of Complex_Main the IR keeps opaque (nat, real, set, list … have sorts)
COMPLEX_MAIN_TYPES = frozenset({"option", "unit", "char", "string", "filter"})
#: where a type constructor comes from when it is not Complex_Main's
TYPE_THEORIES = {"poly": "HOL-Computational_Algebra", "multiset": "HOL-Library", "mat": "the AFP",
                 "vec": "HOL-Analysis", "fps": "HOL-Computational_Algebra"}
#: operations whose instance on pairs is HOL-Analysis's ``Product_Vector``
PAIR_INSTANCES = {"dist": "dist", "norm": "norm", "scaleR": "*\\<^sub>R"}
#: names HOL's inner syntax reserves (infix constants)
RESERVED_NAMES = {"o": "function composition f o g", "O": "relation composition r O s",
                  "GCD": "binder GCD x∈A. f x (Gcd of an image; gcd a b is the binary one)",
                  "LCM": "binder LCM x∈A. f x (Lcm of an image; lcm a b is the binary one)"}
#: Isar commands: in ``fixes`` (outer syntax) such a word starts a command, not a name
ISAR_COMMANDS = frozenset({"next", "show", "have", "fix", "assume", "obtain", "note", "then", "hence", "thus",
                           "from", "with", "using", "proof", "qed", "done", "apply", "by", "sorry", "oops"})
#: type classes HOL-Analysis defines (a type variable constrained to one, ``'a::real_inner``)
ANALYSIS_CLASSES = frozenset({"real_inner", "euclidean_space", "ordered_euclidean_space"})
_CLASS_CONSTRAINT = re.compile(r"'\w+\s*::\s*\"?\s*(\w+)")
#: what a theory's imports provide beyond Complex_Main: a substring of an import -> the
#: library names (``TYPE_THEORIES`` values, ``Product_Vector``) it makes available
IMPORTS = {"Analysis": ("HOL-Analysis", "HOL-Library"), "Computational_Algebra": ("HOL-Computational_Algebra",),
           "Polynomial": ("HOL-Computational_Algebra",), "Library": ("HOL-Library",), "Multiset": ("HOL-Library",)}


def checker_errors(source: str, statement: Statement, imports: Iterable[str] = ()) -> tuple[str, ...]:
    """Why Isabelle would reject ``source``, which parsed as ``statement``, in its theory
    context: ``Complex_Main``, plus what a ``theory … imports … begin`` header in the text
    imports, plus ``imports`` (theory names the caller checks candidates with, such as
    ``"HOL-Analysis.Analysis"``); empty when it would not, as far as these rules see."""
    errors = [e for rule in RULES for e in rule(source, statement)]
    have = imported(source) | libraries(" ".join(imports))
    return tuple(e for e in errors if not any(lib in e for lib in have))


def locate(source: str, message: str) -> int:
    """Offset in ``source`` of what a ``checker_errors`` message is about (0 if not found):
    the position a raw-Unicode message gives, else the first whole-word occurrence of the
    construct it names (the type's constructor, the operation or the variable)."""
    if message.startswith("raw Unicode"):
        raw = _first_raw_unicode(source)
        return raw if raw is not None else 0
    if message == POLY_LITERAL_MESSAGE:
        return _first_outside_comments(source, _POLY_LITERAL) or 0
    t = re.match(r"the type (.+?) (needs|is not defined)", message)
    if t:
        name = t.group(1).split()[-1]
        pattern = r"\s*\^\s*".join(re.escape(p) for p in name.split("^"))
    else:
        pattern = re.escape(message.split()[0])
    found = re.search(rf"(?<![\w']){pattern}(?![\w'])", source)
    return found.start() if found else 0


def imported(source: str) -> frozenset[str]:
    """The libraries beyond Complex_Main the text's theory header imports (``IMPORTS``)."""
    m = re.search(r"\btheory\s+\S+\s+imports\s+(.*?)\s+begin\b", source, re.DOTALL)
    return frozenset() if m is None else libraries(m.group(1))


def libraries(imports: str) -> frozenset[str]:
    """The libraries beyond Complex_Main that theory names such as ``"HOL-Analysis.Analysis"``
    provide (``IMPORTS``)."""
    return frozenset(lib for key, libs in IMPORTS.items() if key in imports for lib in libs)


def raw_unicode(source: str, statement: Statement) -> list[str]:
    i = _first_raw_unicode(source)
    if i is None:
        return []
    ch = source[i]
    line = source.count("\n", 0, i) + 1
    column = i - (source.rfind("\n", 0, i) + 1) + 1
    spelled = ESCAPES.get(ch)
    fix = f"; Isabelle writes {spelled}" if spelled else ""
    return [f"raw Unicode {ch!r} at line {line}, column {column}: not an Isabelle symbol{fix}"]


def types(source: str, statement: Statement) -> list[str]:
    out = []
    seen: set[Sort] = set()
    for name in dict.fromkeys(n for s in _sorts(statement) for n in _opaque_names(s, seen)):
        why = _foreign_type(name)
        if why:
            out.append(f"the type {name} {why}")
    for t in _terms(statement):
        if isinstance(t, Uninterpreted) and t.symbol in PAIR_INSTANCES and \
                any(isinstance(a.sort, ProdSort) and "^" not in a.sort.name for a in t.args):
            out.append(f"{PAIR_INSTANCES[t.symbol]} on pairs needs HOL-Analysis (Product_Vector), "
                       "which Complex_Main does not import")
            break
    classes = sorted({m.group(1) for m in _CLASS_CONSTRAINT.finditer(source)} & ANALYSIS_CLASSES)
    out += [f"the type class {c} needs HOL-Analysis, which Complex_Main does not import" for c in classes]
    return out


#: the ``polynomial_literal`` message, and the literal's opening bracket
POLY_LITERAL_MESSAGE = ("[:…:] (a polynomial literal) needs HOL-Computational_Algebra, "
                        "which Complex_Main does not import")
_POLY_LITERAL = re.compile(r"\[:")


def polynomial_literal(source: str, statement: Statement) -> list[str]:
    return [POLY_LITERAL_MESSAGE] if _first_outside_comments(source, _POLY_LITERAL) is not None else []


def reserved_names(source: str, statement: Statement) -> list[str]:
    names = [v.name for v in statement.variables]
    for t in _terms(statement):
        if isinstance(t, (Quant, Lam)):
            names += [v.name for v in t.vars]
        elif isinstance(t, Var):
            names.append(t.name)
    out = [f"{n} names a variable, but it is HOL's {RESERVED_NAMES[n]}"
           for n in dict.fromkeys(names) if n in RESERVED_NAMES]
    implicit = _implicit(statement)  # used, not fixed
    return out + [f"{v.name} is an Isar command: fixes cannot name a variable {v.name}"
                  for v in statement.variables if v.name in ISAR_COMMANDS and v.name not in implicit]


#: constants of type ``'a set ⇒ 'a`` and the binary function a candidate usually meant
SET_FUNCTIONS = {"Gcd": "gcd", "Lcm": "lcm", "Max": "max", "Min": "min", "Sup": "sup", "Inf": "inf"}


def constant_arguments(source: str, statement: Statement) -> list[str]:
    for t in _terms(statement):
        if not isinstance(t, Uninterpreted):
            continue
        if t.symbol in SET_FUNCTIONS and (len(t.args) != 1 or not isinstance(t.args[0].sort, SetSort)):
            return [f"{t.symbol} takes one set ('a set ⇒ 'a); the binary function is {SET_FUNCTIONS[t.symbol]}"]
        if t.symbol == "continuous" and t.args and isinstance(t.args[0].sort, FunSort):
            return ["continuous takes a filter first (continuous (at x) f); for a function on a set, "
                    "continuous_on S f"]
        if t.symbol == "measure" and t.args and isinstance(t.args[0].sort, SetSort):
            return ["measure takes a function in Complex_Main (Wellfounded.measure :: ('a ⇒ nat) ⇒ "
                    "('a × 'a) set) and a measure first in HOL-Analysis (measure lborel S), not a set"]
        if t.symbol == "measure" and len(t.args) >= 2:
            return ["measure M S (the measure of a set) needs HOL-Analysis, which Complex_Main does not "
                    "import: there measure is Wellfounded.measure :: ('a ⇒ nat) ⇒ ('a × 'a) set"]
    return []


#: operations real and complex numbers have no instance of, and the class they lack
NO_FIELD_INSTANCE = {"mod": "modulo", "gcd": "semiring_gcd", "lcm": "semiring_gcd"}
#: how the parser notes a variable the statement does not fix (``parser._Statement.build``
#: writes ``f"{name} {IMPLICIT_NOTE} …"``)
IMPLICIT_NOTE = "is not in `fixes`: read as an implicitly fixed variable"
_IMPLICIT = re.compile(rf"^(\S+) {re.escape(IMPLICIT_NOTE)}")


def _implicit(statement: Statement) -> set[str]:
    """The variables the statement uses without fixing them (the parser's notes say which)."""
    return {m.group(1) for n in statement.notes if (m := _IMPLICIT.match(n))}


def class_instances(source: str, statement: Statement) -> list[str]:
    implicit = _implicit(statement)
    declared = {v for v in statement.variables if v.name not in implicit and _real_valued(v.sort)}
    for t in _terms(statement):
        if isinstance(t, Uninterpreted) and t.symbol in NO_FIELD_INSTANCE and t.args and \
                t.args[0].sort in (REAL, COMPLEX) and (any(v in declared for a in t.args for v in free_vars(a))
                                                      or any(_field_only(a) for a in t.args)):
            return [f"{t.symbol} on {str(t.args[0].sort).lower()}: Isabelle's {str(t.args[0].sort).lower()} "
                    f"is not in class {NO_FIELD_INSTANCE[t.symbol]}"]
    return []


#: operations whose value is ``real`` itself, not a type variable of some class (``sqrt ::
#: real ⇒ real``, ``pi :: real``, ``log``, ``root``, ``arctan``, ``arcsin``, ``arccos``)
_REAL_VALUED = frozenset({"signed_sqrt", "pi", "root", "isa_log", "arctan", "isa_arcsin", "isa_arccos"})
#: operations whose value has their arguments' type (``+``, ``abs`` …), and among them those of a
#: class nat and int are not in (``powr :: 'a::ln ⇒ 'a ⇒ 'a``, ``exp``, ``ln``, ``sin`` …):
#: Isabelle must coerce a nat or int argument of these, so such a coercion fixes the type
_SAME_TYPE = frozenset({"add", "sub", "mul", "neg", "div", "abs", "min", "max"})
_NOT_ON_INTEGERS = frozenset({"powr", "exp", "ln", "sin", "cos", "tan"})


def _field_only(t: Term, forced: bool = False) -> bool:
    """Whether ``t`` has the concrete type real or complex: a real-valued constant (``sqrt``,
    ``pi``), or a coercion Isabelle had to place (``a powr 2`` with a :: nat is ``real a powr 2``),
    through operations that keep their argument's type. A coercion the frontend placed where
    Isabelle could have typed the other side instead is no witness (``x mod n`` with n :: nat and
    x untyped: Isabelle types x nat; counting_and_probability/problem_940 #6), nor is a
    variable nothing fixes (``x mod 9 powr 3`` is polymorphic in a type of classes ``ln`` and
    ``modulo``, which Isabelle accepts)."""
    if not isinstance(t, App):
        return False
    if t.op == "cast":
        return forced and t.sort in (REAL, COMPLEX) and t.args[0].sort not in (REAL, COMPLEX)
    if t.op in _REAL_VALUED:
        return True
    if t.op == "pow":
        return _field_only(t.args[0], forced)
    if t.op in _NOT_ON_INTEGERS:
        return any(_field_only(a, True) for a in t.args)
    return t.op in _SAME_TYPE and any(_field_only(a) for a in t.args)


def _real_valued(s: Sort) -> bool:
    """A real or complex number, or a function to one (``P :: real ⇒ real``)."""
    return s in (REAL, COMPLEX) or (isinstance(s, FunSort) and s.result in (REAL, COMPLEX))


RULES: tuple[Callable[[str, Statement], list[str]], ...] = (raw_unicode, types, polynomial_literal, reserved_names,
                                                            constant_arguments, class_instances)


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _first_raw_unicode(source: str) -> int | None:
    """Offset of the first non-ASCII character outside ``(* … *)`` comments, or None."""
    return _first_outside_comments(source, _NON_ASCII)


def _first_outside_comments(source: str, pattern: re.Pattern) -> int | None:
    """Offset of the first match of ``pattern`` outside ``(* … *)`` comments (nested, as
    Isabelle's), or None: one pass blanks the comments (offsets kept), one search."""
    if "(*" not in source:
        m = pattern.search(source)
        return None if m is None else m.start()
    kept, depth, i, n = [], 0, 0, len(source)
    while i < n:
        if source.startswith("(*", i):
            depth, i = depth + 1, i + 2
            kept.append("  ")
        elif depth and source.startswith("*)", i):
            depth, i = depth - 1, i + 2
            kept.append("  ")
        else:
            kept.append(" " if depth else source[i])
            i += 1
    m = pattern.search("".join(kept))
    return None if m is None else m.start()


def _foreign_type(name: str) -> str:
    """Why the opaque type ``name`` (as the parser wrote it) is not Complex_Main's, or ""."""
    if "^" in name:  # real^2, 'a^3
        return "needs HOL-Analysis (Finite_Cartesian_Product), which Complex_Main does not import"
    if name.startswith("'"):
        return ""  # a type variable
    constructor = name.split()[-1]
    if constructor in COMPLEX_MAIN_TYPES:
        return ""
    theory = TYPE_THEORIES.get(constructor)
    if theory:
        return f"needs {theory}, which Complex_Main does not import"
    return "is not defined in Complex_Main"


def _terms(statement: Statement) -> Iterator[Term]:
    for t in statement.terms():
        yield from subterms(t)


def _sorts(statement: Statement) -> Iterator[Sort]:
    for v in statement.variables:
        yield v.sort
    for t in _terms(statement):
        yield t.sort


def _opaque_names(s: Sort, seen: set[Sort] | None = None) -> Iterator[str]:
    """Names of the opaque types in ``s`` (a pair's own name only when written ``real^2``)."""
    seen = set() if seen is None else seen
    if s in seen:
        return
    seen.add(s)
    if isinstance(s, ProdSort):
        if "^" in s.name:
            yield s.name
        parts: tuple[Sort, ...] = s.parts
    elif isinstance(s, OpaqueSort):
        yield s.name
        parts = ()
    elif isinstance(s, FunSort):
        parts = s.args + (s.result,)
    elif isinstance(s, (SetSort, ListSort)):
        parts = (s.elem,)
    else:
        parts = ()
    for p in parts:
        yield from _opaque_names(p, seen)
