"""Original Lean text reused in obligations: renaming is safe or refused, never wrong."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from provers.backends.lean.source_text import SourceIndex, rename_text
from provers.errors import ParseError
from provers.ir import Hypothesis, Var, VarBinder, canonical, substitute
from provers.lean4.parser import parse_lean

ROOT = Path(__file__).resolve().parent.parent
TEXTS = [json.loads(line)["text"] for line in (ROOT / "tests/fixtures/lean/statements.jsonl").open(encoding="utf-8")]


def _usable(text: str):
    """Statements whose variables have closed binder types (so a renamed context can be
    written) and whose hypotheses/conclusion have source text."""
    try:
        s = parse_lean(text)
    except ParseError:
        return None
    vs = [b for b in s.binders if isinstance(b, VarBinder)]
    names = {b.var.name for b in vs}
    if not vs or any(not b.source or any(n in b.source.split() for n in names) for b in vs):
        return None
    return s


STATEMENTS = [s for s in map(_usable, TEXTS) if s is not None]
POOL = ["a", "b", "c", "i", "k", "n", "x", "y", "z", "x_1", "m"]


def test_fixtures_give_enough_statements() -> None:
    assert len(STATEMENTS) >= 15


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_renamed_text_means_the_renamed_ir(data: st.DataObject) -> None:
    """Whenever rename_text renames a component, the Lean frontend reads the renamed text (in
    the renamed context) as the original IR with the variables substituted (up to alpha)."""
    s = data.draw(st.sampled_from(STATEMENTS))
    vs = [b for b in s.binders if isinstance(b, VarBinder)]
    targets = data.draw(st.permutations(POOL + [b.var.name for b in vs]))
    new = {b.var.name: t for b, t in zip(vs, targets, strict=False)}
    if len(set(new.values())) < len(new):
        return
    subst = {b.var: Var(new[b.var.name], b.var.sort) for b in vs}
    variables = frozenset(new)
    context = " ".join(f"({new[b.var.name]} : {b.source})" for b in vs)
    header = s.header + "\n\n" if s.header else ""
    comps = [(h.source, h.formula) for h in s.binders if isinstance(h, Hypothesis) and h.source and h.style != "instance"]
    comps.append((s.conclusion_source, s.conclusion))
    for text, formula in comps:
        renamed = rename_text(text, new, variables)
        if renamed is None:
            continue
        back = parse_lean(f"{header}theorem t {context} (hyp : {renamed}) : True := sorry")
        got = next(b.formula for b in back.binders if isinstance(b, Hypothesis) and b.name == "hyp")
        # equal up to the names of bound variables (the elaborator invents some: IsLeast)
        assert canonical(got) == canonical(substitute(formula, subst)), (text, renamed)


def test_identity_renaming_keeps_most_texts() -> None:
    kept = total = 0
    for s in STATEMENTS:
        names = {b.var.name: b.var.name for b in s.binders if isinstance(b, VarBinder)}
        for h in s.binders:
            if isinstance(h, Hypothesis) and h.source:
                total += 1
                kept += rename_text(h.source, names, frozenset(names)) == " ".join(h.source.split())
    assert total and kept >= 0.8 * total


def test_index_matches_up_to_renaming_and_only_within_one_statement() -> None:
    a = parse_lean("theorem t (x y : ℝ) (h : 0 < x ∧ x < y) : x ^ 2 < y ^ 2 := sorry")
    b = parse_lean("theorem u (p q : ℝ) (h : 0 < p ∧ p < q) : p ^ 2 < q ^ 2 := sorry")
    index = SourceIndex((a, b))
    x, y = Var("x", a.variables[0].sort), Var("y", a.variables[0].sort)
    conjuncts = tuple(substitute(h, {b.variables[0]: x, b.variables[1]: y})
                      for h in b.hypotheses[0].formula.args)
    comp, free, _ = index.find(conjuncts, 1)
    assert comp.text == "0 < p ∧ p < q" and free == {"p": x, "q": y}
    assert index.rename(comp, {"p": "x", "q": "y"}) == "0 < x ∧ x < y"
    assert index.find(conjuncts, 0)[0].text == "0 < x ∧ x < y"  # A's own text on A's side
    assert index.find(conjuncts[::-1], 1) is None  # order of conjuncts matters


def test_statement_rebuilt_from_component_texts_means_the_same() -> None:
    """The text the sort check sends (components' source texts, proof `by sorry`) passes the
    security screen and reads back as the same binders and conclusion."""
    from provers.backends.lean.security import screen_statement
    from provers.backends.lean.sortcheck import statement_text

    checked = 0
    for text in TEXTS:
        try:
            s = parse_lean(text)
        except ParseError:
            continue
        rebuilt = statement_text(s)
        screen_statement(rebuilt, allowed_proofs=["by sorry"])
        back = parse_lean(rebuilt)
        assert (back.binders, back.conclusion) == (s.binders, s.conclusion), rebuilt
        checked += 1
    assert checked >= 25


def test_lifted_conclusion_parts_are_components() -> None:
    """`∀ x y, P → Q → C`: the normal form makes P, Q premises and C the conclusion; each part
    keeps its text (the bound names count as variables of the part)."""
    s = parse_lean("theorem t : ∀ x y : ℝ, x < y ∧ 0 < x → ∀ z, z > 0 → x + z < y + z := sorry")
    parts = {c.text: (c.kind, len(c.pattern), sorted(c.lifted)) for c in SourceIndex((s,)).components}
    assert parts["x < y ∧ 0 < x"] == ("hypothesis", 2, ["x", "y"])
    assert parts["z > 0"] == ("hypothesis", 1, ["x", "y", "z"])
    assert parts["x + z < y + z"] == ("conclusion", 1, ["x", "y", "z"])
    # a binder predicate or an arrow that is not an implication stops the walk
    s = parse_lean("theorem t : ∀ x > 0, x + 1 > (1:ℝ) := sorry")
    assert [c.text for c in SourceIndex((s,)).components] == ["∀ x > 0, x + 1 > (1:ℝ)"]


def test_a_statement_with_a_shadowing_binder_lends_no_texts() -> None:
    """``(n : ℤ) … (n) (_ : n = 3)``: the IR calls the second n ``n'`` while the text says
    ``n``, so a component text would read the other variable; the obligation is printed from
    the IR instead (and the sort check's rebuilt text writes the binder as written)."""
    from provers.backends.lean.sortcheck import statement_text

    s = parse_lean("theorem t (n : ℤ) (h : n = 2) (n) (_ : n = 3) : n = 3 := by sorry")
    assert SourceIndex((s,)).components == []
    assert "(n) (_ : n = 3)" in statement_text(s)
    back = parse_lean(statement_text(s))
    assert (back.binders, back.conclusion) == (s.binders, s.conclusion)
