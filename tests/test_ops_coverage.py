"""Every operation of ``OPS`` means something to every consumer of the IR, or the consumer says
why not: an operation cannot be half-added.

Adding an operation to ``OPS`` makes the parametrized test below fail once per consumer that
neither handles it nor lists it as unsupported with a reason; the failure names the table.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from embeddings.rule_informalizer import CLAUSES, EXPRESSIONS
from provers import ir
from provers.backends.smt.core import CORE_OPS
from provers.backends.smt.emit import EMITTERS
from provers.backends.smt.lower import COMPLEX_PARTS, LOWERING, MEMBERSHIP
from provers.ir import OPS, OpTable
from provers.ir.display import DISPLAY
from provers.isabelle.printer import ISABELLE_OPS
from provers.lean4.printer import FINSETS, LEAN_OPS
from provers.semantics import OPERATIONS

ROOT = Path(__file__).resolve().parents[1]

#: consumer -> (where its table lives, the table)
CONSUMERS: dict[str, tuple[str, OpTable]] = {
    "exact evaluator": ("provers.semantics.evaluate.OPERATIONS", OPERATIONS),
    "SMT lowering": ("provers.backends.smt.lower.LOWERING", LOWERING),
    "Lean printer": ("provers.lean4.printer.LEAN_OPS", LEAN_OPS),
    "Isabelle printer": ("provers.isabelle.printer.ISABELLE_OPS", ISABELLE_OPS),
    "rule-based informalizer": ("embeddings.rule_informalizer.EXPRESSIONS", EXPRESSIONS),
    "neutral display": ("provers.ir.display.DISPLAY", DISPLAY),
}


@pytest.mark.parametrize("op", sorted(OPS))
@pytest.mark.parametrize("consumer", sorted(CONSUMERS))
def test_every_consumer_handles_each_operation_or_says_why_not(consumer: str, op: str) -> None:
    where, table = CONSUMERS[consumer]
    handled, refused = op in table.handlers, op in table.unsupported
    assert handled or refused, f"{op!r} is in OPS but {where} neither handles it nor lists it as unsupported"
    assert not (handled and refused), f"{where} both handles {op!r} and lists it as unsupported"
    if refused:
        assert table.unsupported[op].strip(), f"{where} lists {op!r} as unsupported without a reason"


@pytest.mark.parametrize("consumer", sorted(CONSUMERS))
def test_no_consumer_handles_an_operation_outside_ops(consumer: str) -> None:
    where, table = CONSUMERS[consumer]
    assert set(table.handlers) | set(table.unsupported) <= set(OPS), where
    assert table.missing() == set(), where


def test_a_new_operation_is_reported_missing_by_every_consumer(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(OPS, "frobnicate", ir.OpInfo("frobnicate", 1, "a new operation", lambda s: s[0]))
    for where, table in CONSUMERS.values():
        assert table.missing() == {"frobnicate"}, where


def test_tables_refuse_unknown_names_and_double_registration() -> None:
    table: OpTable[int] = OpTable("test consumer", unsupported={"ediv": "a reason"})
    table.add("add", 1)
    with pytest.raises(ir.IRError, match="unknown operation"):
        table.add("frobnicate", 2)
    with pytest.raises(ir.IRError, match="registered twice"):
        table.add("add", 3)
    with pytest.raises(ir.IRError, match="registered twice"):
        table.add("ediv", 4)
    with pytest.raises(ir.IRError, match="without a reason"):
        OpTable("test consumer", unsupported={"sub": " "})


def test_the_emitters_translate_exactly_the_core_operations() -> None:
    assert CORE_OPS <= set(OPS)
    assert set(EMITTERS.handlers) == CORE_OPS and not EMITTERS.unsupported


def test_the_lowering_reaches_every_set_former_through_membership() -> None:
    assert set(MEMBERSHIP) == ir.SET_FORMERS and MEMBERSHIP.missing() == set()
    assert {op for op, why in LOWERING.unsupported.items() if "membership" in why} == ir.SET_FORMERS


def test_the_lowering_reaches_every_complex_valued_operation_as_a_pair() -> None:
    complex_valued = {op for op, why in LOWERING.unsupported.items() if "Complex-valued" in why}
    assert complex_valued and complex_valued <= set(COMPLEX_PARTS)
    assert set(COMPLEX_PARTS) <= set(OPS)


def test_sub_tables_name_only_operations() -> None:
    assert set(FINSETS) == ir.SET_FORMERS  # every set former has a Finset spelling
    assert set(CLAUSES) <= set(OPS)


def test_op_families_name_only_operations_and_the_relation_maps_are_consistent() -> None:
    families = {
        "CONNECTIVES": ir.CONNECTIVES, "RELATION_OPS": set(ir.RELATION_OPS), "ORDER_OPS": ir.ORDER_OPS,
        "COMMUTATIVE": ir.COMMUTATIVE, "ARITHMETIC": ir.ARITHMETIC, "INT_DIVISION": ir.INT_DIVISION,
        "ROUNDING": ir.ROUNDING, "ANALYTIC": ir.ANALYTIC, "INTERVALS": set(ir.INTERVALS),
        "SET_OPS": ir.SET_OPS, "SET_FORMERS": ir.SET_FORMERS, "ISABELLE_ONLY": ir.ISABELLE_ONLY,
        "DUAL": set(ir.DUAL) | set(ir.DUAL.values()), "FLIPPED": set(ir.FLIPPED) | set(ir.FLIPPED.values()),
        "STRICTNESS": set(ir.STRICTNESS) | set(ir.STRICTNESS.values()),
    }
    for name, ops in families.items():
        assert ops and set(ops) <= set(OPS), name
    assert set(ir.DUAL) == set(ir.RELATION_OPS) and all(ir.DUAL[ir.DUAL[r]] == r for r in ir.DUAL)
    assert all(ir.STRICTNESS[ir.STRICTNESS[r]] == r for r in ir.STRICTNESS)
    assert all(ir.DUAL[op] == flipped for op, flipped in ir.FLIPPED.items())
    assert ir.ORDER_OPS == set(ir.STRICTNESS) == set(ir.RELATION_OPS) - {"eq", "ne"}


# -- application nodes are built by the checking constructors only ---------------------

#: The only module that builds application nodes directly: the checking constructors.
DIRECT_APP_BUILDERS = {"provers/ir/ops.py"}


def _direct_app_calls(path: Path) -> list[int]:
    tree = ast.parse(path.read_text(), filename=str(path))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name == "App":
                lines.append(node.lineno)
    return lines


def test_application_nodes_are_built_only_by_the_checking_constructors() -> None:
    offenders = []
    for top in ("provers", "rerank", "embeddings", "experiments", "tests"):
        for path in sorted((ROOT / top).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if rel in DIRECT_APP_BUILDERS:
                continue
            offenders += [f"{rel}:{line}" for line in _direct_app_calls(path)]
    assert not offenders, "build App nodes with ir.app / ir.app_sorted: " + ", ".join(offenders)


def test_the_checking_constructors_refuse_ill_sorted_applications() -> None:
    x, n = ir.Var("x", ir.REAL), ir.Var("n", ir.NAT)
    with pytest.raises(ir.IRError, match="unknown operation"):
        ir.app("frobnicate", x)
    with pytest.raises(ir.IRError, match="takes 2 arguments"):
        ir.app("add", x)
    with pytest.raises(ir.IRError):
        ir.app("add", x, n)
    with pytest.raises(ir.IRError, match="not of sort"):
        ir.app_sorted("add", ir.INT, x, x)
    with pytest.raises(ir.IRError, match="not a strict embedding"):
        ir.app_sorted("cast", ir.NAT, x)
    assert ir.app_sorted("add", ir.REAL, x, x) == ir.app("add", x, x)
    assert ir.app_sorted("cast", ir.REAL, n).args == (n,)  # exactly the node asked for
