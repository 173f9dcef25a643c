"""The candidate profile: one normal form per candidate, and one screen for the engine and the
clusterer (``provers.engine.profile``)."""

from __future__ import annotations

import sys
from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import provers.engine.normal as normal_module
from provers import check_equivalence
from provers.engine.profile import Profile
from provers.ir import NAT, REAL, Hypothesis, Statement, Var, VarBinder, app, cast, free_vars, num
from rerank.cluster import Clusterer, describe, separated

X, Y, N = Var("x", REAL), Var("y", REAL), Var("n", NAT)

CANDIDATES = [
    "theorem a (x : ℝ) (h : 0 < x) : x + 1 = 3 := by sorry",
    "theorem b (y : ℝ) (h : 0 < y) : y + 1 = 3 := by sorry",  # a renaming of a
    "theorem c (x : ℝ) (h : 0 < x) : x + 1 = 4 := by sorry",
    "theorem d (x : ℝ) (h : 0 < x) : 3 = x + 1 := by sorry",
    "theorem e (n : ℕ) (h : 0 < n) : n + 1 = 3 := by sorry",
    "theorem a (x : ℝ) (h : 0 < x) : x + 1 = 3 := by sorry",  # a again, same text
    "theorem f (x y : ℝ) (h : x = 2 * y) : x - y = y := by sorry",
    "theorem g (x : ℝ) (h : 0 < x) : 2 * (x + 1) = 6 := by sorry",  # a, by the engine
    "theorem h (z : ℝ) (h : z > 0) : z = 2 := by sorry",  # a, by the engine
]


@pytest.fixture
def normalize_calls(monkeypatch):
    """Counts ``normalize`` calls per statement, wherever the name was imported."""
    calls: Counter = Counter()
    original = normal_module.normalize

    def counting(statement, *args, **kwargs):
        calls[id(statement)] += 1
        return original(statement, *args, **kwargs)

    for name, module in list(sys.modules.items()):
        if name.split(".")[0] in ("provers", "rerank") and getattr(module, "normalize", None) is original:
            monkeypatch.setattr(module, "normalize", counting)
    return calls


@pytest.mark.parametrize("relation", ["sae", "symbolic"])
def test_each_candidate_is_normalized_once(normalize_calls, relation):
    """Profile, every pair check, vacuity, answer pinning and the evidence read one normal
    form per distinct candidate (it was three: canonical key, signature, fingerprint, plus one
    per check)."""
    from rerank.evidence import problem_evidence

    c = Clusterer(relation, "lean4", 2.0, cache={})
    c.extend(CANDIDATES)
    problem_evidence(c)
    assert c.stats.checks >= 2 and c.stats.merges >= 4  # the engine was asked, and merged
    distinct = {id(cand.statement) for cand in c.candidates}
    assert len(distinct) == len(CANDIDATES) - 1  # the repeated text is parsed once
    assert set(normalize_calls) == distinct
    assert set(normalize_calls.values()) == {1}, normalize_calls


def test_a_repeated_text_is_parsed_and_profiled_once():
    c = Clusterer("sae", "lean4", 2.0, cache={}, check_vacuous=False)
    c.extend(CANDIDATES)
    assert c.candidates[5].profile is c.candidates[0].profile
    assert c.class_of(5) == c.class_of(0)


def test_vacuity_is_decided_once_and_reused_by_the_profile():
    from provers.engine.equivalence import vacuous

    p = Profile.of(Statement((VarBinder(X), Hypothesis("h", app("lt", X, num(0, REAL))),
                              Hypothesis("h'", app("lt", num(0, REAL), X))), app("eq", X, X)))
    assert p.vacuity is None
    first = vacuous(p, timeout=2.0)
    assert first.status == "proved" and p.vacuity is first
    assert vacuous(p, timeout=2.0) is first  # no second proof


def test_premises_that_only_define_their_variables_have_a_model_by_construction():
    """`area = 2·(4·4) − π·2²` has no exact value and a solver's rational π is no model; that
    every premise defines a variable by earlier ones proves the premises satisfiable (MATH
    geometry/problem_1064's #0 against #1, whose premises r = √8/2 ∧ 2r² = 28 contradict)."""
    import provers
    from provers.engine.equivalence import vacuous

    defined = ('theorem fixes area_shaded :: real assumes h0 : "area_shaded = 2 * (4*4) - pi * (2^2)" '
               'shows "area_shaded = 28 - 2 * pi"')
    p = Profile.of(provers.parse(defined, "isabelle"))
    ob = vacuous(p, timeout=1.0)
    assert ob.status == "refuted" and ob.by == "propagation" and p.vacuity is ob
    contradictory = ('theorem fixes r :: real assumes h0 : "r = sqrt 8 / 2" and h1 : "2 * (r powr 2) = 28" '
                     'shows "2 * 4 powr 2 - pi * r powr 2 = 28 - 2 * pi"')
    v = check_equivalence(provers.parse(defined, "isabelle"), provers.parse(contradictory, "isabelle"),
                          relation="symbolic", timeout=1.0)
    assert v.status == "inequivalent" and "contradictory" in v.reason
    # the other premises at the definitions' values are closed: their exact truth decides
    # (MATH precalculus/problem_515: tan 22.5 ≠ 22.5; counting_and_probability/problem_486)
    tan = 'theorem fixes x :: real assumes h0 : "x = 22.5" and h1 : "x = tan x" shows "tan x = sqrt 2 - 1"'
    ob = vacuous(Profile.of(provers.parse(tan, "isabelle")), timeout=1.0)
    assert ob.status == "proved" and ob.by == "propagation"
    card = ('theorem fixes a b :: real assumes h0 : "a = 17 / 3" and h1 : "b = (17 / 3) powr 2" '
            'and h2 : "card {n. n \\<in> {ceiling a..<floor b}} = N" shows "card {n. n \\<in> {ceiling a..<floor b}} = 26"')
    assert vacuous(Profile.of(provers.parse(card.replace("N", "27"), "isabelle")), timeout=1.0).status == "proved"
    ob = vacuous(Profile.of(provers.parse(card.replace("N", "26"), "isabelle")), timeout=1.0)
    assert ob.status == "refuted" and ob.by == "propagation" and ob.model == {"a": Fraction(17, 3), "b": Fraction(289, 9)}
    # a variable defined twice, or two defined by each other, is no definition: solvers decide
    for text in ("theorem t (x : ℝ) (h : x = 1) (h' : x = 2) : x = 1 := by sorry",
                 "theorem t (x y : ℝ) (h : x = y + 1) (h' : y = x + 1) : x = 1 := by sorry"):
        ob = vacuous(Profile.of(provers.parse(text)), timeout=1.0)
        assert ob.status == "proved", (text, ob)


def test_an_undecided_vacuity_test_is_not_asked_again_at_a_smaller_effort():
    """A check that ends undecided asks the vacuity tests again (the vacuity route); a test the
    clusterer already left undecided at the whole limit is not asked again at a share of it."""
    import provers
    from provers.deadline import Deadline
    from provers.engine.prover import Prover, default_backend
    from provers.engine.verdict import FULL, QUICK

    # imo_1987_p4: no such f exists, which takes a proof by parity the engine does not find
    text = "theorem t (f : ℕ → ℕ) (h : ∀ n, f (f n) = n + 1987) : False := by sorry"
    p = Profile.of(provers.parse(text, "lean4"))
    prover = Prover(default_backend(), 1.0, Deadline.after(10))
    first = p.decide_vacuity(prover, effort=FULL)
    assert first.status == "unknown" and p.vacuity is None and p.vacuity_effort == FULL
    calls = prover.solver_calls
    again = p.decide_vacuity(prover, effort=QUICK)
    assert again.status == "unknown" and prover.solver_calls == calls
    assert "undecided before" in again.detail


@st.composite
def small_statements(draw):
    """Statements over x, y : ℝ and n : ℕ; many pairs equivalent (sides swapped, constants
    moved, unused variables), many not."""
    a, c = draw(st.integers(-2, 2)), draw(st.integers(-2, 2))
    lhs = app("add", app("mul", num(a, REAL), X), num(draw(st.integers(0, 2)), REAL))
    rhs = num(c, REAL)
    op = draw(st.sampled_from(["eq", "lt", "le", "gt", "ge"]))
    if draw(st.booleans()):
        lhs, rhs, op = rhs, lhs, {"eq": "eq", "lt": "gt", "le": "ge", "gt": "lt", "ge": "le"}[op]
    concl = app(op, lhs, rhs)
    if draw(st.booleans()):
        concl = app("or", concl, app("lt", Y, cast(N, REAL)))
    binders: list = [VarBinder(X)]
    for v in (Y, N):
        if draw(st.booleans()) or v in free_vars(concl):
            binders.append(VarBinder(v))
    if draw(st.booleans()):
        binders.append(Hypothesis("h", app(draw(st.sampled_from(["lt", "le"])), num(0, REAL), X)))
    return Statement(tuple(binders), concl)


@settings(max_examples=60, deadline=None)
@given(small_statements(), small_statements(), st.sampled_from(["sae", "symbolic", "syntactic"]))
def test_the_clusterer_screen_is_never_finer_than_the_engine(a, b, relation):
    """Every pair the clusterer skips without the engine, the engine (given the same
    profiles, as the clusterer gives them) answers ``inequivalent``."""
    ca, cb = describe(a, relation), describe(b, relation)
    why = separated(ca, cb)
    if why is not None:
        v = check_equivalence(ca.profile, cb.profile, relation=relation, timeout=2.0)
        assert v.status == "inequivalent", (why, v.explain())


def test_a_diagonal_point_refutes_every_alignment_in_both_names():
    a = Statement((VarBinder(X), VarBinder(Y), Hypothesis("h", app("lt", num(0, REAL), X))),
                  app("lt", X, Y))
    b = Statement((VarBinder(X), VarBinder(Y), Hypothesis("h", app("lt", X, num(0, REAL)))),
                  app("lt", X, Y))
    pa, pb = Profile.of(a, "sae"), Profile.of(b, "sae")
    sep = pa.separation(pb)
    assert sep is not None and sep.how == "fingerprint"
    v = check_equivalence(pa, pb, relation="sae", timeout=2.0)
    assert v.status == "inequivalent" and v.route == "fingerprint"
    assert set(v.countermodel["A"]) == {"x", "y"} and set(v.countermodel["B"]) == {"x", "y"}


def test_a_structural_separation_keeps_the_engines_precise_reason():
    a = Statement((VarBinder(N),), app("le", num(0, NAT), N))
    b = Statement((VarBinder(X),), app("le", num(0, REAL), X))
    pa, pb = Profile.of(a, "sae"), Profile.of(b, "sae")
    assert pa.separation(pb).how == "signature"
    v = check_equivalence(pa, pb, relation="sae", timeout=2.0)
    assert v.status == "inequivalent" and v.structural and "sorts differ" in v.reason


def test_profile_under_another_relation_reuses_the_normal_form():
    p = Profile.of(Statement((VarBinder(X), VarBinder(Y)), app("lt", X, num(1, REAL))), "sae")
    q = p.under("symbolic")
    assert q.normal_form is p.normal_form and q.relation == "symbolic"
    assert len(q.form.variables) == 1  # symbolic drops the unused y
    assert p.under("sae") is p


def test_answer_pinning_takes_a_whole_undecided_vacuity_test_but_not_a_quick_one():
    """A vacuity test left undecided at its whole (possibly shortened) limit is not asked
    again by a later check's answer pinning; one asked only quickly (the vacuity route of an
    undecided check) is, at the pin's larger share (``PIN_VACUITY`` of the limit)."""
    import re

    from oracles import AbstainingBackend

    import provers
    from provers.deadline import Deadline
    from provers.engine.equivalence import check_equivalence, vacuous
    from provers.engine.prover import Prover
    from provers.engine.verdict import PIN_VACUITY, QUICK

    a = "theorem t (f : ℕ → ℕ) (x : ℕ) (h : ∀ n, f (f n) = n + 1987) (h2 : x = f 0) : x = 5 := by sorry"
    b = ("theorem t (g : ℕ → ℕ) (y : ℕ) (h : ∀ n, g (g n) = n + 1987) (h2 : y = g 0) (h3 : y < 10000) : "
         "y = 5 := by sorry")

    def vacuity_limits(quick: bool) -> list[float]:
        pa, pb = (Profile.of(provers.parse(t), "symbolic") for t in (a, b))
        backend = AbstainingBackend()
        for p in (pa, pb):
            if quick:
                assert p.decide_vacuity(Prover(backend, 1.0, Deadline.after(10)), effort=QUICK).status == "unknown"
            else:
                assert vacuous(p, timeout=0.3, backend=backend).status == "unknown"
        v = check_equivalence(pa, pb, relation="symbolic", timeout=1.0, backend=backend)
        assert v.status == "inconclusive" and "value projections" in v.reason
        return [t for text, t in backend.asked if re.match(r"\(∀ \(\w+ : Nat → Nat\) \(\w+ : Nat\), ¬\(", text)]

    assert vacuity_limits(quick=False) == [0.3, 0.3]
    assert QUICK < PIN_VACUITY
    assert vacuity_limits(quick=True) == [0.15, 0.15, PIN_VACUITY, PIN_VACUITY]


CEILING = 'theorem\nfixes x :: real\nassumes h0 : "x = sqrt 20"\nand h1 : "ceiling x = 5"\nshows  "ceiling x ^ 2 = {}"'
CEILING_REAL = 'theorem\nfixes x :: real\nassumes h0 : "x = ceiling (sqrt 20)"\nshows  "x powr 2 = {}"'


@settings(max_examples=8, deadline=None)
@given(st.sampled_from([25, 24, 26, 36]))
def test_answers_of_different_number_sorts_are_compared_as_values(answer):
    """``⌈x⌉ ^ 2 = 25`` over ℤ against ``x powr 2 = 25`` over ℝ (algebra/problem_435): the
    value route embeds both answers into ℝ (L ⋈ c ⟺ ↑L ⋈ ↑c), so the two true statements are
    equivalent, and one stating another value is not; the screen, which used to separate
    answers of different sorts, leaves the pair to the engine (never finer than it)."""
    from provers import parse

    a = Profile.of(parse(CEILING.format(25), "isabelle"), "symbolic")
    b = Profile.of(parse(CEILING_REAL.format(answer), "isabelle"), "symbolic")
    if answer == 25:
        assert a.separation(b) is None
    v = check_equivalence(a, b, relation="symbolic", timeout=1.0)
    assert v.status == ("equivalent" if answer == 25 else "inequivalent"), v.reason


def _vacuous_profile(text: str) -> Profile:
    import provers
    from provers.engine.equivalence import vacuous

    p = Profile.of(provers.parse(text, "isabelle"))
    assert vacuous(p, timeout=1.0).status == "proved"
    return p


def test_two_statements_whose_premises_are_proved_contradictory_leave_the_conclusions_to_decide():
    """Both vacuity tests proved (MATH precalculus/problem_515, #0 and #8): ⋀Γ ↔ ⋀Γ' holds under
    every alignment, so no solver is asked it — it had timed out — and the conclusions decide:
    the same conclusion proves the pair equivalent, a different one still separates it."""
    tan = 'theorem fixes x :: real assumes h0 : "x = 22.5" and h1 : "x = tan x" shows "tan x = sqrt 2 - 1"'
    arctan = ('theorem fixes x :: real assumes h0 : "x = 22.5" and h1 : "x = arctan (sqrt 2 - 1)" '
              'shows "tan x = sqrt 2 - 1"')
    other = ('theorem fixes x :: real assumes h0 : "x = 22.5" and h1 : "x = arctan (sqrt 2 - 1)" '
             'shows "tan x = sqrt 2 + 1"')
    from oracles import RecordingBackend

    backend = RecordingBackend()
    v = check_equivalence(_vacuous_profile(tan), _vacuous_profile(arctan), relation="symbolic", timeout=1.0,
                          backend=backend)
    assert v.status == "equivalent", v.reason
    assert "both premise sets are contradictory" in v.reason
    assert [ob.status for ob in v.obligations[:2]] == ["proved", "proved"]  # the two vacuity tests, cited
    premises = [ob for ob, _ in backend.asked if "arctan" in ob and "22.5" in ob]
    assert not premises, premises  # ⋀Γ ↔ ⋀Γ' was never sent to a solver
    w = check_equivalence(_vacuous_profile(tan), _vacuous_profile(other), relation="symbolic", timeout=1.0)
    assert w.status != "equivalent", w.reason
