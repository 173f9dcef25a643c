"""Concrete syntax tree of Lean 4 terms: what the parser produces and the elaborator consumes.

This is surface syntax only (no sorts, no resolved names); it never leaves ``provers.lean4``.
The output of the frontend is always the IR (``provers.ir``).
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(eq=False)
class Syn:
    """One syntax node.

    ``kind`` is one of: ident, num, str, app, binop, prefix, postfix, paren, ascr, tuple,
    anon, abs, floor, ceil, nfloor, nceil, binder, setbuilder, setlit, proj, ite, modeq,
    hole, cdot, norm, other. ``val`` is the identifier / operator / literal text; ``args``
    the children; ``binders`` the binder groups of a ``binder``/``setbuilder`` node.
    """

    kind: str
    pos: int
    end: int
    val: str = ""
    args: tuple[Syn, ...] = ()
    binders: tuple[BinderGroup, ...] = ()
    extra: dict = field(default_factory=dict)
    depth: int = 1  # height of the tree (long operator chains are deep without nesting)

    def __post_init__(self) -> None:
        if self.args:
            self.depth = 1 + max(a.depth for a in self.args)


@dataclass(eq=False)
class BinderGroup:
    """``(x y : T)``, ``{n : ℕ}``, ``[Group G]``, ``x ∈ s``, ``ε > 0``.

    ``names`` may be empty for an anonymous instance binder. ``pred`` is a binder predicate
    (``("∈", s)``, ``(">", 0)``) applied to every name.
    """

    names: tuple[str, ...]
    type: Syn | None
    style: str = "explicit"
    pred: tuple[str, Syn] | None = None
    pos: int = 0
