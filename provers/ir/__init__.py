"""The one typed intermediate representation (IR) of formal statements.

Modules: ``sorts`` (sorts, inhabitation), ``terms`` (term nodes), ``ops`` (the operation table
``OPS`` and the constructors that check it), ``traverse`` (walking, substitution, renaming),
``keys`` (canonical forms), ``statement`` (theorem statements), ``display`` (neutral printing).
Import from ``provers.ir``; the submodules are its layout, not separate APIs.

Every frontend (Lean 4, Isabelle) produces it and every backend (evaluator, z3, cvc5, Lean
REPL) consumes it. Terms are immutable and hashable. Each operation name has exactly ONE
meaning (see ``OPS`` and docs/semantics.md); where Lean and Isabelle disagree the IR has two
operations, so a term never needs to know which language it came from.

Quick reference::

    x = Var("x", REAL)
    t = app("lt", app("add", x, num(1, REAL)), num(2, REAL))   # x + 1 < 2
    forall_([x], t)
"""


from __future__ import annotations

from provers.errors import IRError
from provers.ir.display import (
    show,
    show_statement,
)
from provers.ir.keys import (
    canonical,
)
from provers.ir.ops import (
    FALSE,
    OPS,
    TRUE,
    OpInfo,
    and_,
    app,
    app_sorted,
    cast,
    display_symbol,
    exists_,
    forall_,
    implies,
    not_,
    num,
    or_,
    uninterpreted,
)
from provers.ir.pending import PendingSorts, SortClash, SortVar, is_ground  # noqa: F401
from provers.ir.sorts import (
    BOOL,
    COMPLEX,
    FIELDS,
    FLOAT,
    INT,
    MANY,
    NAT,
    NUMERIC_ORDER,
    ORDERED,
    RAT,
    REAL,
    SORT,
    TYPE,
    BaseSort,
    FunSort,
    ListSort,
    OpaqueSort,
    SetSort,
    Sort,
    is_numeric,
    is_universe,
    known_elements,
    provably_inhabited,
    widest,
)
from provers.ir.statement import (
    BINDER_STYLES,
    Binder,
    Hypothesis,
    Statement,
    VarBinder,
)
from provers.ir.terms import (
    BIG_OPS,
    QUANTIFIERS,
    App,
    BigOp,
    Lam,
    Num,
    Quant,
    SetBuilder,
    Term,
    Uninterpreted,
    Var,
)
from provers.ir.traverse import (
    children,
    depth,
    free_vars,
    fresh_name,
    has_uninterpreted,
    map_term,
    rebind,
    rebuild,
    rename_apart,
    size,
    substitute,
    subterms,
    symbol_names,
)

__all__ = [
    "App",
    "BIG_OPS",
    "BINDER_STYLES",
    "BOOL",
    "BaseSort",
    "BigOp",
    "Binder",
    "COMPLEX",
    "FALSE",
    "FIELDS",
    "FLOAT",
    "FunSort",
    "Hypothesis",
    "INT",
    "IRError",
    "Lam",
    "ListSort",
    "MANY",
    "NAT",
    "NUMERIC_ORDER",
    "Num",
    "OPS",
    "ORDERED",
    "OpInfo",
    "OpaqueSort",
    "QUANTIFIERS",
    "Quant",
    "RAT",
    "REAL",
    "SORT",
    "SetBuilder",
    "SetSort",
    "Sort",
    "Statement",
    "TRUE",
    "TYPE",
    "Term",
    "Uninterpreted",
    "Var",
    "VarBinder",
    "and_",
    "app",
    "app_sorted",
    "canonical",
    "cast",
    "children",
    "depth",
    "display_symbol",
    "exists_",
    "forall_",
    "free_vars",
    "fresh_name",
    "has_uninterpreted",
    "implies",
    "is_numeric",
    "is_universe",
    "known_elements",
    "map_term",
    "not_",
    "num",
    "or_",
    "provably_inhabited",
    "rebind",
    "rebuild",
    "rename_apart",
    "show",
    "show_statement",
    "size",
    "substitute",
    "subterms",
    "symbol_names",
    "uninterpreted",
    "widest",
]
