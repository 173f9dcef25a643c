"""Generators of labelled rewrites and perturbations (provers.perturb) and the `rerank perturb` CLI.

The rewrites are checked to be really applied (the IR edit each kind promises), well typed,
closed, printable back to Lean (the printer's text parses to the same statement) and
SAE-equivalent by the real engine; perturbations to change what they say they change, and
their `effective` label to follow the engine and the exact-evaluation witness.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import provers
from provers.ir import (
    BOOL,
    NAT,
    OPS,
    App,
    Hypothesis,
    Num,
    Quant,
    Statement,
    Term,
    Var,
    VarBinder,
    app,
    free_vars,
    is_numeric,
    subterms,
)
from provers.perturb import (
    PERTURBATION_KINDS,
    REWRITE_KINDS,
    Variant,
    component_witness,
    label_effect,
    perturbations,
    render,
    rewrites,
)

S1 = ("theorem t1 {a : ℝ} (x y : ℝ) (h₀ : 0 < x ∧ 0 < y) (h₁ : x + y = 3) (h₂ : x * y ≤ a) :"
      " x < a + 1 := by sorry")
S2 = "theorem t2 (n : ℕ) (h₀ : n % 5 = 3) : (2 * n) % 5 = 1 := by sorry"
S3 = "theorem t3 (f : ℕ → ℕ) (h₀ : ∀ n, f n = 2 * n + 1) : f 3 = 7 := by sorry"
S4 = "theorem t4 (a b : ℝ) (h₀ : a < b) : ∃ c : ℝ, a < c ∧ c < b := by sorry"
S5 = "theorem t5 (x : ℤ) (h₀ : 2 < x) (h₁ : 0 < x) : x ≠ 0 := by sorry"
S6 = "theorem t6 (x y : ℤ) (h₀ : 0 < y) (h₁ : y < x) (h₂ : x + y + x * y = 80) : x = 26 := by sorry"
S7 = "theorem t7 (x : ℝ) (h₀ : 0 ≤ x) : x ≥ 1 → x ^ 2 ≥ x := by sorry"
TEXTS = (S1, S2, S3, S4, S5, S6, S7)


def P(text: str) -> Statement:
    return provers.parse(text, "lean4")


STATEMENTS = {t: P(t) for t in TEXTS}


def well_typed(t: Term) -> bool:
    """Every application's sort is what its operation's rule computes from its arguments."""
    for s in subterms(t):
        if isinstance(s, App):
            if s.op == "cast":
                if not (is_numeric(s.args[0].sort) and is_numeric(s.sort)):
                    return False
            elif s.op != "set_of" and OPS[s.op].sort_rule(tuple(a.sort for a in s.args)) != s.sort:
                return False
        if isinstance(s, Quant) and s.body.sort != BOOL:
            return False
    return True


def closed_and_typed(stmt: Statement) -> bool:
    """Hypotheses only use variables bound before them; everything is a typed proposition."""
    bound: set[Var] = set()
    for b in stmt.binders:
        if isinstance(b, VarBinder):
            bound.add(b.var)
        else:
            if not (free_vars(b.formula) <= bound and well_typed(b.formula) and b.formula.sort == BOOL):
                return False
    return free_vars(stmt.conclusion) <= bound and well_typed(stmt.conclusion) and stmt.conclusion.sort == BOOL


def ops(t: Term) -> Counter:
    return Counter(s.op for s in subterms(t) if isinstance(s, App))


def all_terms(stmt: Statement) -> list[Term]:
    return list(stmt.terms())


# --------------------------------------------------------------------------------------
# rewrites: each kind really applied
# --------------------------------------------------------------------------------------


def one(stmt: Statement, kind: str, seed: int = 0, preserving: bool = True) -> Variant:
    vs = rewrites(stmt, seed=seed, kinds=[kind]) if preserving else perturbations(stmt, seed=seed, kinds=[kind], check=False)
    assert len(vs) == 1, f"{kind} not applicable"
    v = vs[0]
    assert v.kind == kind and v.preserving is preserving and v.description and v.site
    assert v.statement != stmt
    assert closed_and_typed(v.statement), v.description
    return v


def test_rename_uses_fresh_names_everywhere():
    st0 = STATEMENTS[S3]
    v = one(st0, "rename")
    old = {x.name for t in all_terms(st0) for x in subterms(t) if isinstance(x, Var)} | {"f"}
    new_vars = [x for t in all_terms(v.statement) for x in subterms(t) if isinstance(x, Var)]
    assert not ({x.name for x in new_vars} & old)  # theorem AND bound variables renamed
    assert {h.name for h in v.statement.hypotheses}.isdisjoint({h.name for h in st0.hypotheses})
    assert [x.sort for x in v.statement.variables] == [x.sort for x in st0.variables]
    assert v.statement.canonical_key() == st0.canonical_key()


def test_reorder_keeps_hypotheses_and_dependencies():
    st0 = STATEMENTS[S1]
    v = one(st0, "reorder_hypotheses", seed=3)
    assert Counter(h.formula for h in v.statement.hypotheses) == Counter(h.formula for h in st0.hypotheses)
    assert [h.name for h in v.statement.hypotheses] != [h.name for h in st0.hypotheses]


def test_swap_eq_flip_dual_commute_edit_one_site():
    st0 = STATEMENTS[S1]
    v = one(st0, "swap_eq")
    eqs = lambda s: sorted(frozenset(map(str, x.args)) for t in all_terms(s) for x in subterms(t) if isinstance(x, App) and x.op == "eq")  # noqa: E731
    assert eqs(v.statement) == eqs(st0)
    v = one(st0, "flip_dual")
    new = sum((ops(t) for t in all_terms(v.statement)), Counter())
    old = sum((ops(t) for t in all_terms(st0)), Counter())
    assert new["lt"] == old["lt"] - 1 and new["gt"] == old["gt"] + 1
    v = one(st0, "commute")
    assert sum((ops(t) for t in all_terms(v.statement)), Counter()) == old


def test_curry_uncurry_and_explicit():
    st0 = STATEMENTS[S1]
    v = one(st0, "curry")
    assert len(v.statement.hypotheses) == len(st0.hypotheses) - 1
    v = one(st0, "uncurry")
    assert len(v.statement.hypotheses) == len(st0.hypotheses) + 1
    assert all(not (isinstance(h.formula, App) and h.formula.op == "and") for h in v.statement.hypotheses)
    v = one(st0, "implicit_to_explicit")
    assert all(b.style == "explicit" for b in v.statement.binders)
    assert v.text.count("{") == 0 and "(a : ℝ)" in v.text


@pytest.mark.parametrize("text", TEXTS)
def test_rewrites_are_sae_equivalent_and_print_back(text):
    st0 = STATEMENTS[text]
    vs = rewrites(st0, seed=1)
    assert vs and all(v.preserving and v.effective is None for v in vs)
    for v in vs:
        assert v.language == "lean4", v.text
        assert P(v.text).canonical_key() == v.statement.canonical_key(), v.text
        verdict = provers.check_equivalence(st0, v.statement, relation="sae", timeout=3.0)
        assert verdict.status == "equivalent", (v.description, verdict.explain())


# --------------------------------------------------------------------------------------
# perturbations
# --------------------------------------------------------------------------------------


def test_perturbation_kinds_change_what_they_say():
    st0 = STATEMENTS[S1]
    v = one(st0, "change_domain", preserving=False)
    changed = [x for x, y in zip(v.statement.variables, st0.variables, strict=True) if x.sort != y.sort]
    assert len(changed) == 1 and changed[0].sort == NAT
    v = one(st0, "drop_hypothesis", preserving=False)
    assert len(v.statement.hypotheses) == len(st0.hypotheses) - 1
    v = one(st0, "add_hypothesis", preserving=False)
    assert len(v.statement.hypotheses) == len(st0.hypotheses) + 1
    v = one(st0, "weaken_strengthen", preserving=False)
    old = sum((ops(t) for t in all_terms(st0)), Counter())
    new = sum((ops(t) for t in all_terms(v.statement)), Counter())
    assert abs(new["lt"] - old["lt"]) == 1 and abs(new["le"] - old["le"]) == 1
    v = one(st0, "change_numeral", preserving=False)
    nums = lambda s: sorted(str(x) for t in all_terms(s) for x in subterms(t) if isinstance(x, Num))  # noqa: E731
    assert nums(v.statement) != nums(st0) and len(nums(v.statement)) == len(nums(st0))
    v = one(st0, "replace_conclusion", preserving=False)
    assert v.statement.binders == st0.binders and v.statement.conclusion != st0.conclusion
    v = one(STATEMENTS[S4], "swap_quantifier", preserving=False)
    assert isinstance(v.statement.conclusion, Quant) and v.statement.conclusion.kind == "forall"
    v = one(STATEMENTS[S7], "reverse_implication", preserving=False)
    c0, c1 = STATEMENTS[S7].conclusion, v.statement.conclusion
    assert isinstance(c0, App) and isinstance(c1, App) and c1.op == "implies"
    assert c1.args == (c0.args[1], c0.args[0])
    v = one(STATEMENTS[S2], "reverse_implication", preserving=False)  # no inner →: swap with a hypothesis
    assert v.statement.conclusion == STATEMENTS[S2].hypotheses[0].formula


def test_redundant_hypothesis_change_is_labelled_not_effective():
    st0 = STATEMENTS[S5]  # h₁ : 0 < x follows from h₀ : 2 < x
    h0, h1 = st0.binders[1], st0.binders[2]
    assert isinstance(h1, Hypothesis) and isinstance(h0, Hypothesis)
    weaker = replace(st0, binders=(st0.binders[0], h0, replace(h1, formula=app("lt", Num(1, h1.formula.args[0].sort), st0.variables[0]))), source="")
    v = label_effect(st0, Variant(weaker, render(weaker)[0], "change_numeral", False, "0 → 1 in h₁"))
    assert v.effective is False and "SAE-equivalent" in v.evidence
    assert v.verdict is not None and v.verdict.status == "equivalent"
    stronger = replace(st0, binders=(st0.binders[0], replace(h0, formula=app("lt", Num(3, h1.formula.args[0].sort), st0.variables[0])), h1), source="")
    v = label_effect(st0, Variant(stronger, render(stronger)[0], "change_numeral", False, "2 → 3 in h₀"))
    assert v.effective is True and v.verdict.status == "inequivalent"
    assert component_witness(st0, stronger) is not None  # x = 3 separates the premises
    same = rewrites(st0, seed=0, kinds=["rename"])[0]
    assert label_effect(st0, replace(same, preserving=False)).effective is False


def test_effective_labels_on_a_statement_with_forced_values():
    st0 = STATEMENTS[S6]  # the premises force x = 26, y = 2
    vs = perturbations(st0, seed=0, n=len(PERTURBATION_KINDS) * 2, timeout=3.0)
    assert {v.kind for v in vs} >= {"drop_hypothesis", "add_hypothesis", "change_numeral", "replace_conclusion"}
    for v in vs:
        assert "CONFLICT" not in v.evidence, v.evidence
        if v.effective is False:
            assert v.verdict is None or v.verdict.status == "equivalent"
        if v.verdict is not None and v.verdict.status == "inequivalent":
            assert v.effective is True
        if v.kind == "replace_conclusion":
            assert v.effective is True


def test_conflicting_engine_verdict_is_kept_as_a_change(monkeypatch):
    """A wrong `equivalent` against an exact witness is a soundness bug: never relabelled."""
    from provers.engine import verdict as vd

    st0 = STATEMENTS[S5]
    h0 = st0.binders[1]
    stronger = replace(st0, binders=(st0.binders[0], replace(h0, formula=app("lt", Num(5, st0.variables[0].sort), st0.variables[0])), st0.binders[2]), source="")
    lie = vd.Verdict("equivalent", "sae", alignment=[("x", "x")])
    monkeypatch.setattr(provers, "check_equivalence", lambda *a, **k: lie)
    v = label_effect(st0, Variant(stronger, "", "change_numeral", False, "2 → 5"))
    assert v.effective is True and v.evidence.startswith("CONFLICT")


# --------------------------------------------------------------------------------------
# seeds, kinds, properties
# --------------------------------------------------------------------------------------


def test_seed_reproducible_and_varied():
    st0 = STATEMENTS[S1]
    a = [(v.kind, v.description, v.text) for v in rewrites(st0, seed=5, n=6)]
    b = [(v.kind, v.description, v.text) for v in rewrites(st0, seed=5, n=6)]
    assert a == b and len(a) == 6
    pa = [(v.kind, v.description) for v in perturbations(st0, seed=5, n=6, check=False)]
    assert pa == [(v.kind, v.description) for v in perturbations(st0, seed=5, n=6, check=False)]
    seen = {tuple(v.description for v in rewrites(st0, seed=s, n=4)) for s in range(6)}
    assert len(seen) > 1


def test_n_and_kinds():
    st0 = STATEMENTS[S1]
    assert len(rewrites(st0, seed=0, n=3)) == 3
    vs = rewrites(st0, seed=0, n=20)
    assert len({v.statement for v in vs}) == len(vs)  # no duplicates
    assert len({v.kind for v in rewrites(st0, seed=0)}) == len(rewrites(st0, seed=0))  # default: one per kind
    assert {v.kind for v in perturbations(st0, seed=0, kinds=["drop_hypothesis"], n=5, check=False)} == {"drop_hypothesis"}
    assert rewrites(STATEMENTS[S2], kinds=["curry"]) == []  # not applicable: nothing, no crash
    with pytest.raises(ValueError, match="unknown kind"):
        rewrites(st0, kinds=["nonsense"])
    with pytest.raises(TypeError, match="provers.parse"):
        rewrites(S1)  # text, not a Statement
    with pytest.raises(ValueError, match="n must be"):
        perturbations(st0, n=-1, check=False)
    assert [v.kind for v in rewrites(st0, kinds="commute")] == ["commute"]
    assert set(REWRITE_KINDS) >= {v.kind for v in vs}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.sampled_from(TEXTS), seed=st.integers(0, 10_000))
def test_property_rename_keeps_canonical_key(text, seed):
    st0 = STATEMENTS[text]
    (v,) = rewrites(st0, seed=seed, kinds=["rename"])
    assert v.statement.canonical_key() == st0.canonical_key()
    names = [x.name for x in v.statement.variables]
    assert len(set(names)) == len(names)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.sampled_from(TEXTS), seed=st.integers(0, 10_000), n=st.integers(1, 12))
def test_property_variants_are_closed_well_typed_and_labelled(text, seed, n):
    st0 = STATEMENTS[text]
    for v in rewrites(st0, seed=seed, n=n) + perturbations(st0, seed=seed, n=n, check=False):
        assert closed_and_typed(v.statement), v.description
        assert v.kind in (REWRITE_KINDS if v.preserving else PERTURBATION_KINDS)
        assert v.statement.source == ""  # the original text no longer describes the variant
    for v in rewrites(st0, seed=seed, n=n):
        # a rewrite never changes a component at any sampled point (identity alignment) ...
        if v.kind not in ("rename",):
            assert component_witness(st0, v.statement, points=12, seed=seed) is None, v.description


# --------------------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------------------


def test_cli_jsonl(tmp_path):
    from typer.testing import CliRunner

    from rerank.perturb_cli import app

    f = tmp_path / "s.lean"
    f.write_text(S6)
    res = CliRunner().invoke(app, [str(f), "--seed", "2", "--rewrites", "3", "--perturbations", "3", "--jsonl"])
    assert res.exit_code == 0, res.output
    rows = [json.loads(line) for line in res.output.splitlines() if line.strip()]
    assert len(rows) == 6 and sum(r["preserving"] for r in rows) == 3
    assert all(r["text"].startswith("theorem") for r in rows)
    assert all(r["effective"] in (True, False, None) for r in rows if not r["preserving"])
    res = CliRunner().invoke(app, ["-", "--no-check"], input=S2)
    assert res.exit_code == 0 and "drop_hypothesis" in res.output
    res = CliRunner().invoke(app, ["-"], input="this is prose, not a theorem")
    assert res.exit_code == 1 and "cannot parse" in res.output
    res = CliRunner().invoke(app, [str(tmp_path / "missing.lean")])
    assert res.exit_code == 1 and "does not exist" in res.output


ISA = '''theorem
  fixes x y :: real
  assumes h0: "x + y = 10" and h1: "0 < y \\<and> y < x"
  shows "x = 6 \\<or> x * y \\<le> 24"'''


def test_isabelle_variants_print_back_as_isabelle():
    st0 = provers.parse(ISA, "isabelle")
    vs = rewrites(st0, seed=4, n=12) + perturbations(st0, seed=4, n=12, check=False)
    assert {v.kind for v in vs} >= {"rename", "reorder_hypotheses", "uncurry", "flip_dual", "drop_hypothesis"}
    for v in vs:
        assert v.language == "isabelle" and "shows" in v.text
        assert provers.parse(v.text, "isabelle").canonical_key() == v.statement.canonical_key(), v.text
    for v in vs:
        if v.preserving:
            assert provers.check_equivalence(st0, v.statement, relation="sae", timeout=3.0).status == "equivalent", v.description
