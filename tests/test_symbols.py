"""Solver symbols are unique per binding: a variable never aliases a known function of the
same name (issue 12, item 2), in the SMT encoding, the engine and the verdict caches."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provers import check_equivalence, parse
from provers.backends.cache import cache_key
from provers.backends.smt.solve import solve
from provers.engine.formulas import canon_key
from provers.engine.normal import normalize, statement_symbols
from provers.ir import (
    NAT,
    FunSort,
    Hypothesis,
    Num,
    Quant,
    Statement,
    Uninterpreted,
    Var,
    VarBinder,
    app,
    map_term,
    subterms,
)

a_var = Var("a", NAT)
a_sym = Uninterpreted("a", (), NAT)
f2 = FunSort((NAT, NAT), NAT)


@pytest.mark.parametrize("solver", ["z3", "cvc5"])
def test_a_variable_and_a_symbol_of_one_name_are_two_solver_symbols(solver: str):
    # ∀ a, ?a = a is false (take a ≠ ?a); with one shared symbol it would be "proved"
    res = solve(solver, Quant("forall", (a_var,), app("eq", a_sym, a_var)), timeout=5)
    assert type(res).__name__ != "Proved"
    g = Var("padicValNat", f2)
    known = Uninterpreted("padicValNat", (Num(2, NAT), Num(8, NAT)), NAT)
    ob = Quant("forall", (g,), app("eq", known, app("apply", g, Num(2, NAT), Num(8, NAT))))
    assert type(solve(solver, ob, timeout=5)).__name__ != "Proved"


# the unsound pairs of the issue: one statement true in Lean, the other false
PAIRS = [
    ("theorem t : padicValNat 2 8 = 3", "theorem t (padicValNat : ℕ → ℕ → ℕ) : padicValNat 2 8 = 3"),
    ("def a : ℕ := 3\ntheorem t : a = 3", "theorem t (a : ℕ) : a = 3"),
    ("theorem t : orderOf (2 : ℕ) = 3", "theorem t : ∀ orderOf : ℕ → ℕ, orderOf 2 = 3"),
]


@pytest.mark.parametrize("a, b", PAIRS)
@pytest.mark.parametrize("relation", ["sae", "symbolic", "logical"])
def test_the_aliasing_pairs_are_never_equivalent(a: str, b: str, relation: str):
    v = check_equivalence(a, b, relation=relation, timeout=3)
    assert v.status != "equivalent", v.explain()


def test_variables_are_renamed_apart_from_the_symbols_of_both_statements():
    sa, sb = parse(PAIRS[0][0]), parse(PAIRS[0][1])
    reserved = statement_symbols(sa) | statement_symbols(sb)
    nb = normalize(sb, reserved)
    assert [v.name for v in nb.variables] == ["padicValNat_1"]
    names = {s.name for s in subterms(nb.conclusion) if isinstance(s, Var)}
    assert names == {"padicValNat_1"}
    # canonical forms and cache keys keep a variable and a symbol apart too
    na = normalize(sa, reserved)
    assert canon_key(na.closed()) != canon_key(nb.closed())
    assert cache_key(na.closed(), "z3") != cache_key(nb.closed(), "z3")
    assert cache_key(app("eq", a_sym, Num(3, NAT)), "z3") != cache_key(
        Quant("forall", (a_var,), app("eq", a_var, Num(3, NAT))), "z3")


# -- property: renaming a bound variable to a known function's name changes no verdict ---

CASES = [
    ("theorem t : padicValNat 2 8 = 3", "theorem t (g : ℕ → ℕ → ℕ) : g 2 8 = 3", "symbolic"),
    ("theorem t : padicValNat 2 8 = 3", "theorem t (g : ℕ → ℕ → ℕ) : g 2 8 = 3", "sae"),
    ("theorem t (n : ℕ) (h : 0 < n) : Nat.totient n ≤ n",
     "theorem t (m : ℕ) (h : m > 0) : Nat.totient m ≤ m", "sae"),
    ("theorem t (x : ℝ) : deriv (fun y => y ^ 2) x = 2 * x",
     "theorem t (z : ℝ) : deriv (fun w => w ^ 2) z = 2 * z", "sae"),
    ("theorem t (n : ℕ) : ∃ k, Nat.totient n = k + 1",
     "theorem t (n : ℕ) : ∃ j, Nat.totient n = j + 2", "sae"),
    ("theorem t (c : ℕ) (h : orderOf c = 2) : c + 1 > 1",
     "theorem t (d : ℕ) (h : orderOf d = 2) : d + 1 > 1", "symbolic"),
]
_VERDICTS: dict[int, str] = {}


def _verdict(i: int) -> str:
    if i not in _VERDICTS:
        a, b, rel = CASES[i]
        _VERDICTS[i] = check_equivalence(a, b, relation=rel, timeout=2).status
    return _VERDICTS[i]


def _variables(s: Statement) -> list[Var]:
    out = [b.var for b in s.binders if isinstance(b, VarBinder)]
    for t in s.terms():
        out += [v for v in subterms(t) if isinstance(v, Var) and v not in out]
    return out


def _rename(s: Statement, old: Var, new: str) -> Statement:
    def fix(t):
        return Var(new, t.sort) if isinstance(t, Var) and t == old else None

    binders = tuple(VarBinder(Var(new, b.var.sort), b.style) if isinstance(b, VarBinder) and b.var == old
                    else Hypothesis(b.name, map_term(b.formula, fix), b.style) if isinstance(b, Hypothesis)
                    else b for b in s.binders)
    return Statement(binders, map_term(s.conclusion, fix), s.language, s.name)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(CASES) - 1), st.booleans(), st.integers(0, 10), st.integers(0, 10))
def test_renaming_a_variable_to_a_known_function_name_never_changes_a_verdict(i, side, k, m):
    a, b, rel = (parse(x) if isinstance(x, str) and x.startswith("theorem") else x for x in CASES[i])
    symbols = sorted(statement_symbols(a) | statement_symbols(b))
    if not _variables(b if side else a):
        side = not side
    target = b if side else a
    vs = _variables(target)
    old, new = vs[k % len(vs)], symbols[m % len(symbols)]
    renamed = _rename(target, old, new)
    assert any(isinstance(x, Var) and x.name == new for t in renamed.terms() for x in subterms(t)) or \
        any(isinstance(x, VarBinder) and x.var.name == new for x in renamed.binders)
    pair = (a, renamed) if side else (renamed, b)
    v = check_equivalence(*pair, relation=rel, timeout=2)
    assert v.status == _verdict(i), (old, new, v.explain())
