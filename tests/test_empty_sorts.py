"""A binder is dropped only over a provably inhabited sort, and no countermodel invents
elements of a type the IR does not model (issue 12, item 2: empty sorts)."""

from __future__ import annotations

import pytest

from provers import check_equivalence, parse
from provers.backends.base import Proved, Refuted
from provers.backends.smt.backends import Cvc5Backend, Z3Backend
from provers.backends.smt.solve import solve
from provers.deadline import Deadline
from provers.engine.align import drop_unused
from provers.engine.normal import normalize
from provers.engine.prover import Prover
from provers.ir import (
    NAT,
    TRUE,
    FunSort,
    OpaqueSort,
    Quant,
    Var,
    app,
    known_elements,
    provably_inhabited,
)


@pytest.mark.parametrize("name, n", [("Fin 0", 0), ("Fin 3", 3), ("Fin (n + 1)", 1),
                                     ("Fin (k+2)", 2), ("ZMod 5", 5), ("ZMod p", 1),
                                     ("Empty", 0), ("G", 0), ("{n : ℕ // n < 0}", 0),
                                     ("'a", 1)])
def test_known_elements_of_opaque_sorts(name: str, n: int):
    assert known_elements(OpaqueSort(name)) == n


def test_function_sorts_into_possibly_empty_types_may_be_empty():
    assert not provably_inhabited(FunSort((NAT,), OpaqueSort("Fin 0")))
    assert provably_inhabited(FunSort((OpaqueSort("Fin 0"),), NAT))
    assert provably_inhabited(NAT)


@pytest.mark.parametrize("binder, dropped", [
    ("(x : Fin 0)", False), ("(x : Empty)", False), ("(x : {n : ℕ // n < 0})", False),
    ("(x : ℕ → Fin 0)", False), ("{α : Type} (x : α)", False),
    ("(x : ℕ)", True), ("(x : Fin 3)", True), ("(x : ℕ → Fin 3)", True), ("(x : Set ℕ)", True),
])
def test_only_provably_inhabited_binders_are_dropped(binder: str, dropped: bool):
    nf = normalize(parse(f"theorem t {binder} : (1 : ℕ) = 2"))
    assert (not drop_unused(nf).variables) == dropped


# one statement vacuously true (no element to quantify over), the other false
@pytest.mark.parametrize("binder", ["(x : Fin 0)", "(x : Empty)", "(x : {n : ℕ // n < 0})",
                                    "(x : ℕ → Fin 0)"])
@pytest.mark.parametrize("relation", ["symbolic", "logical", "sae"])
def test_a_binder_over_an_empty_type_is_never_ignored(binder: str, relation: str):
    v = check_equivalence(f"theorem t {binder} : (1 : ℕ) = 2", "theorem t : (1 : ℕ) = 2",
                          relation=relation, timeout=3)
    assert v.status != "equivalent", v.explain()


def test_two_vacuous_statements_are_never_called_inequivalent():
    for rel in ("symbolic", "sae", "logical"):
        v = check_equivalence("theorem t (x : Fin 0) : (1 : ℕ) = 2",
                              "theorem t (x : Fin 0) : (1 : ℕ) = 1", relation=rel, timeout=3)
        assert v.status != "inequivalent", (rel, v.explain())


def test_inhabited_binders_are_still_dropped():
    v = check_equivalence("theorem t (x : Fin 3) : (1 : ℕ) = 2", "theorem t : (1 : ℕ) = 2",
                          relation="symbolic", timeout=3)
    assert v.status == "equivalent"


def test_countermodels_never_invent_elements_of_a_fixed_type():
    # In Fin 1 every two elements are equal: `x = y` and `x = x` agree for all x y
    v = check_equivalence("theorem t (x y : Fin 1) : x = y", "theorem t (x y : Fin 1) : x = x",
                          relation="sae", timeout=3)
    assert v.status != "inequivalent", v.explain()
    # with three elements (Fin 3) or a type variable (any type) the countermodel is genuine
    for ty in ("Fin 3", "α"):
        pre = "{α : Type} " if ty == "α" else ""
        v = check_equivalence(f"theorem t {pre}(x y : {ty}) : x = y",
                              f"theorem t {pre}(x y : {ty}) : x = x", relation="sae", timeout=3)
        assert v.status == "inequivalent", (ty, v.explain())


@pytest.mark.parametrize("solver", ["z3", "cvc5"])
def test_smt_sorts_that_may_be_empty_are_guarded(solver: str):
    x = Var("x", OpaqueSort("Fin 0"))
    # SMT sorts are never empty; Lean's may be: ∃ x : Fin 0, True must not be "proved" ...
    assert not isinstance(solve(solver, Quant("exists", (x,), TRUE), timeout=5), Proved)
    # ... and ∀ x : Fin 0, False (true: vacuous) must not be refuted by the engine: the
    # solver's model names an element of Fin 0, which the engine does not accept
    vacuous = Quant("forall", (x,), app("not", TRUE))
    assert isinstance(solve(solver, vacuous, timeout=5), Refuted)  # the solver's reading
    backend = Z3Backend(use_cache=False) if solver == "z3" else Cvc5Backend(use_cache=False)
    prover = Prover(backend, 5.0, Deadline.after(10))
    ob = prover("vacuous", vacuous)
    assert ob.status == "unknown" and "Fin 0" in ob.detail
    # an inhabited sort keeps its meaning
    y = Var("y", NAT)
    assert isinstance(solve(solver, Quant("exists", (y,), TRUE), timeout=5), Proved)
