"""check_equivalence: the required equivalent / inequivalent cases, with certificates.

Each case is stated twice: built directly in the IR, and as Lean 4 source text.
"""

import json
from fractions import Fraction

import pytest

from provers.backends.base import Backend
from provers.engine.equivalence import check_equivalence, trivial, vacuous
from provers.ir import (
    FALSE,
    NAT,
    REAL,
    Hypothesis,
    Statement,
    Var,
    VarBinder,
    and_,
    app,
    implies,
    not_,
    num,
)

x, y, a, b = (Var(s, REAL) for s in "xyab")
r = lambda v: num(v, REAL)  # noqa: E731


def st(vs, hyps, concl, style="explicit", names=None):
    binders = tuple(VarBinder(v, style) for v in vs)
    binders += tuple(Hypothesis((names or [f"h{i}" for i in range(len(hyps))])[i], h) for i, h in enumerate(hyps))
    return Statement(binders, concl)


BASE = st([x, y], [app("lt", r(0), x), app("eq", y, app("add", x, r(1)))], app("lt", x, y))


def eq(A, B, relation="sae"):
    v = check_equivalence(A, B, relation=relation, timeout=2.0)
    assert v.status == "equivalent", v.explain()
    assert v.obligations and all(o.status == "proved" for o in v.obligations)
    return v


def ineq(A, B, relation="sae", countermodel=True):
    v = check_equivalence(A, B, relation=relation, timeout=2.0)
    assert v.status == "inequivalent", v.explain()
    if countermodel:
        assert v.countermodel is not None, v.explain()
    return v


# ---- equivalent -----------------------------------------------------------------------


def test_alpha_renaming():
    B = st([a, b], [app("lt", r(0), a), app("eq", b, app("add", a, r(1)))], app("lt", a, b), names=["p", "q"])
    v = eq(BASE, B)
    assert dict(v.alignment) == {"x": "a", "y": "b"}
    eq(BASE, B, "syntactic")


def test_reordering_hypotheses():
    B = st([y, x], [app("eq", y, app("add", x, r(1))), app("lt", r(0), x)], app("lt", x, y))
    eq(BASE, B)


def test_swapping_sides_of_equality():
    A = st([x], [app("lt", r(0), x)], app("eq", app("mul", x, x), r(4)))
    B = st([x], [app("lt", r(0), x)], app("eq", r(4), app("mul", x, x)))
    eq(A, B)
    eq(st([x], [], A.conclusion), st([x], [], B.conclusion))  # premise-free: reversed leaf


def test_lt_versus_flipped_gt():
    eq(BASE, st([x, y], list(h.formula for h in BASE.hypotheses), app("gt", y, x)))
    eq(st([x, y], [], app("lt", x, y)), st([x, y], [], app("gt", y, x)))


def test_not_versus_implies_false():
    P = app("eq", app("mul", x, x), r(2))
    eq(st([x], [], not_(P)), st([x], [], implies(P, FALSE)))


def test_implicit_versus_explicit_binders():
    B = st([x, y], [h.formula for h in BASE.hypotheses], BASE.conclusion, style="implicit")
    eq(BASE, B)


def test_hypothesis_versus_implication_in_the_conclusion():
    P, Q = app("lt", r(0), x), app("lt", r(0), app("mul", x, x))
    eq(st([x], [P], Q), st([x], [], implies(P, Q)))
    eq(st([x], [P, app("lt", x, r(3))], Q), st([x], [], implies(and_(P, app("lt", x, r(3))), Q)))


# ---- inequivalent, with a validated countermodel ------------------------------------


def _check_countermodel(v, A_names, B_names):
    cm = v.countermodel
    assert set(cm["A"]) <= set(A_names) and set(cm["B"]) <= set(B_names)
    assert cm["A"] and cm["B"]


def test_changed_numeral():
    A = st([x], [app("eq", x, r(2))], app("eq", app("add", x, r(1)), r(3)))
    B = st([x], [app("eq", x, r(2))], app("eq", app("add", x, r(1)), r(4)))
    v = ineq(A, B)
    _check_countermodel(v, {"x"}, {"x"})


def test_dropped_hypothesis():
    B = st([a, b], [app("lt", r(0), a)], app("lt", a, b))
    v = ineq(BASE, B)
    _check_countermodel(v, {"x", "y"}, {"a", "b"})
    assert v.alignments_tried == 2 and not v.budget_exhausted


def test_nat_versus_real_domain_is_structural_under_sae():
    n = Var("n", NAT)
    A = st([n], [], app("le", num(0, NAT), n))
    B = st([x], [], app("le", r(0), x))
    v = ineq(A, B, countermodel=False)
    assert v.structural and "sorts differ" in v.reason


def test_lt_versus_le():
    v = ineq(st([x], [app("lt", r(0), x)], app("lt", x, r(1))), st([x], [app("lt", r(0), x)], app("le", x, r(1))))
    assert v.countermodel["A"]["x"] == 1
    ineq(st([x, y], [], app("lt", x, y)), st([x, y], [], app("le", x, y)))


def test_reversed_implication():
    P, Q = app("lt", r(0), x), app("lt", r(1), x)
    ineq(st([x], [P], Q), st([x], [Q], P))


def test_premises_on_one_side_only_is_structural_under_sae():
    P, Q = app("lt", r(0), x), app("lt", r(0), app("add", x, r(1)))
    v = check_equivalence(st([x], [P], Q), st([x], [], Q))
    assert v.status == "inequivalent" and v.structural


def test_unrelated_provable_statements_sae_vs_logical():
    n = Var("n", NAT)
    A = st([n], [], app("eq", app("add", n, num(0, NAT)), n))
    B = st([Var("s", REAL)], [], app("eq", Var("s", REAL), Var("s", REAL)))
    assert check_equivalence(A, B, relation="sae").status == "inequivalent"
    smt = pytest.importorskip("provers.backends.smt")
    if not hasattr(smt, "Portfolio"):
        pytest.skip("SMT portfolio not landed yet")
    v = check_equivalence(A, B, relation="logical", timeout=5.0)
    assert v.status == "equivalent", v.explain()


# ---- certificates and API behaviour ----------------------------------------------------


def test_explain_and_json_round_trip():
    v = check_equivalence(BASE, st([a, b], [app("lt", r(0), a)], app("lt", a, b)))
    text = v.explain()
    assert "INEQUIVALENT" in text and "countermodel A" in text
    d = json.loads(v.to_json())
    assert d["status"] == "inequivalent" and d["countermodel"]["B"]


def test_unknown_relation_and_bad_input_are_clear_errors():
    with pytest.raises(ValueError, match="unknown relation"):
        check_equivalence(BASE, BASE, relation="fuzzy")
    with pytest.raises(TypeError, match="statement B"):
        check_equivalence(BASE, 42)


def test_identical_statements_are_equivalent_under_every_relation():
    for rel in ("syntactic", "sae", "symbolic"):
        eq(BASE, BASE, rel)


def test_vacuous_and_trivial():
    contradictory = st([x], [app("lt", x, r(0)), app("lt", r(1), x)], app("eq", x, r(5)))
    assert vacuous(contradictory).status in ("proved", "unknown")
    assert vacuous(BASE).status != "proved"
    assert trivial(st([x], [app("lt", r(0), x)], app("le", r(0), app("mul", x, x)))).status != "refuted"
    assert trivial(BASE).status == "refuted"


# ---- the same cases written as Lean 4 source ------------------------------------------

EQUIVALENT_LEAN = [
    ("alpha-renaming + reordered hypotheses",
     "theorem t (x y : ℝ) (h₀ : 0 < x) (h₁ : x < y) : x ^ 2 < y ^ 2",
     "theorem u (a b : ℝ) (h : a < b) (hpos : 0 < a) : a ^ 2 < b ^ 2"),
    ("sides of =", "theorem t (x : ℝ) (h₀ : x + 1 = 3) : x = 2", "theorem t (x : ℝ) (h₀ : x + 1 = 3) : 2 = x"),
    ("< vs flipped >", "theorem t (a b : ℝ) (h : 0 < a) : a < b + a ∨ b ≤ 0", "theorem t (a b : ℝ) (h : 0 < a) : b + a > a ∨ b ≤ 0"),
    ("premise-free < vs >", "theorem t (a b : ℝ) : a < b ∨ a = b", "theorem t (a b : ℝ) : b = a ∨ b > a"),
    ("¬P vs P → False", "theorem t (x : ℝ) : ¬ (x ^ 2 < 0)", "theorem t (x : ℝ) : x ^ 2 < 0 → False"),
    ("implicit vs explicit", "theorem t {n : ℕ} (h : 0 < n) : 1 ≤ n", "theorem t (n : ℕ) (h : 0 < n) : 1 ≤ n"),
    ("(h : P) : Q vs : P → Q", "theorem t (x : ℝ) (h : 0 < x) : 0 < x ^ 3", "theorem t (x : ℝ) : 0 < x → 0 < x ^ 3"),
    ("curried vs conjoined", "theorem t (x : ℝ) : 0 < x → x < 1 → x ^ 2 < x", "theorem t (x : ℝ) (h : 0 < x ∧ x < 1) : x ^ 2 < x"),
]

INEQUIVALENT_LEAN = [
    ("changed numeral", "theorem t (x : ℝ) (h : 2 * x = 6) : x = 3", "theorem t (x : ℝ) (h : 2 * x = 6) : x = 4"),
    ("dropped hypothesis", "theorem t (x : ℝ) (h₀ : 0 < x) (h₁ : x < 1) : x ^ 2 < 1", "theorem t (x : ℝ) (h₀ : 0 < x) : x ^ 2 < 1"),
    ("< vs ≤", "theorem t (x : ℝ) (h : 0 < x) : x < 1", "theorem t (x : ℝ) (h : 0 < x) : x ≤ 1"),
    ("reversed implication", "theorem t (x : ℝ) (h : 0 < x) : 1 < x", "theorem t (x : ℝ) (h : 1 < x) : 0 < x"),
]


@pytest.fixture(scope="module")
def lean():
    parser = pytest.importorskip("provers.lean4.parser")
    return parser.parse_lean


@pytest.mark.parametrize("what,a,b", EQUIVALENT_LEAN, ids=[c[0] for c in EQUIVALENT_LEAN])
def test_lean_equivalent(lean, what, a, b):
    for rel in ("sae", "symbolic", "logical"):
        v = check_equivalence(a, b, relation=rel, timeout=3.0)
        assert v.status == "equivalent", (rel, v.explain())


@pytest.mark.parametrize("what,a,b", INEQUIVALENT_LEAN, ids=[c[0] for c in INEQUIVALENT_LEAN])
def test_lean_inequivalent_with_validated_countermodel(lean, what, a, b):
    from provers.engine.normal import normalize
    from provers.semantics import truth

    v = check_equivalence(a, b, relation="sae", timeout=3.0)
    assert v.status == "inequivalent", v.explain()
    cm = v.countermodel
    assert cm and cm["A"] and cm["B"], v.explain()
    # the countermodel really separates the two statements' bodies (exact evaluation)
    na, nb = normalize(lean(a)), normalize(lean(b))
    assert truth(na.body(), cm["A"]) != truth(nb.body(), cm["B"]) or truth(na.premise(), cm["A"]) != truth(nb.premise(), cm["B"])


def test_lean_nat_versus_real_domain(lean):
    a = "theorem t (x : ℕ) : 2 * x ≠ 3"
    b = "theorem t (x : ℝ) : 2 * x ≠ 3"
    v = check_equivalence(a, b, relation="sae")
    assert v.status == "inequivalent" and v.structural and "sorts differ" in v.reason
    v = check_equivalence(a, b, relation="logical", timeout=5.0)
    assert v.status == "inequivalent", v.explain()
    assert v.countermodel["B"]["x"] == Fraction(3, 2)


def test_lean_unrelated_provable_statements(lean):
    a, b = "theorem t (n : ℕ) : n + 0 = n", "theorem t (s : ℝ) : s = s"
    assert check_equivalence(a, b, relation="sae").status == "inequivalent"
    assert check_equivalence(a, b, relation="logical", timeout=5.0).status == "equivalent"


def test_lean_parse_error_names_the_side(lean):
    from provers import ParseError

    with pytest.raises(ParseError, match="statement B"):
        check_equivalence("theorem t (x : ℝ) : x = x", "this is prose, not a theorem")
    with pytest.raises(ParseError, match="statement A"):
        check_equivalence("theorem t (x : ℝ) : x = ", "theorem t (x : ℝ) : x = x")


def test_countermodels_never_rely_on_a_chosen_meaning_of_uninterpreted_symbols():
    from provers.ir import BOOL, uninterpreted

    foo, bar = uninterpreted("IsFoo", [x], BOOL), uninterpreted("IsBar", [x], BOOL)
    A = st([x], [foo], app("eq", x, r(1)))
    B = st([x], [bar], app("eq", x, r(1)))
    v = check_equivalence(A, B, timeout=2.0)
    assert v.status == "inconclusive", v.explain()
    assert "uninterpreted" in v.reason
    # a difference that holds whatever IsFoo means is still a certificate
    C = st([x], [foo], app("eq", x, r(2)))
    v = check_equivalence(A, C, timeout=2.0)
    assert v.status == "inequivalent", v.explain()


def test_symbolic_numeric_conclusion_standardization():
    """Same answer, different variables: symbolic (value projections) yes, SAE no."""
    A = st([x, y], [app("eq", x, r(3)), app("eq", y, r(4))], app("eq", app("add", x, y), r(7)))
    B = st([a], [app("eq", a, r(7))], app("eq", a, r(7)))
    closed = st([], [], app("eq", app("add", r(3), r(4)), r(7)))
    v = check_equivalence(A, B, relation="symbolic", timeout=5.0)
    assert v.status == "equivalent", v.explain()
    assert "standardization" in v.reason
    assert check_equivalence(A, closed, relation="symbolic", timeout=5.0).status == "equivalent"
    assert check_equivalence(A, B, relation="sae").status == "inequivalent"
    wrong = st([a], [app("eq", a, r(8))], app("eq", a, r(8)))
    v = check_equivalence(A, wrong, relation="symbolic", timeout=5.0)
    assert v.status == "inequivalent", v.explain()


def test_budget_cut_still_refutes_at_points_every_alignment_fixes():
    vs = [Var(f"x{i}", REAL) for i in range(6)]
    ws = [Var(f"y{i}", REAL) for i in range(6)]
    hyps = lambda zs: [app("lt", r(0), z) for z in zs]  # noqa: E731

    def total(zs, c):
        acc = zs[0]
        for z in zs[1:]:
            acc = app("add", acc, z)
        return app("eq", acc, r(c))

    A = st(vs, hyps(vs), total(vs, 6))
    B = st(ws, hyps(ws), total(ws, 7))  # answer changed; 720 alignments, budget 5
    v = check_equivalence(A, B, timeout=2.0, max_alignments=5)
    assert v.status == "inequivalent", v.explain()
    assert not v.budget_exhausted and len(set(v.countermodel["A"].values())) == 1
    # a difference only visible off the diagonal cannot be certified within the budget
    C = st(ws, hyps(ws[:5]), total(ws, 6))
    v = check_equivalence(A, C, timeout=1.0, max_alignments=5)
    assert v.status == "inconclusive" and v.budget_exhausted


@pytest.mark.parametrize("relation", ["sae", "symbolic"])
def test_renaming_a_carrier_and_its_instance_is_equivalent(relation):
    a = "theorem t {G : Type*} [Group G] (g : G) : g * 1 = g := by sorry"
    b = "theorem t {H : Type*} [Group H] (k : H) : k * 1 = k := by sorry"
    c = "theorem t {H : Type*} [CommGroup H] (k : H) : k * 1 = k := by sorry"
    assert check_equivalence(a, b, relation=relation).status == "equivalent"
    assert check_equivalence(a, c, relation=relation).status == "inequivalent"


def test_backend_is_bound_to_both_statements():
    """A Lean backend renders obligations from each statement's own text: the engine binds the
    backend to the two parsed statements of the call before any obligation."""
    from provers.backends.base import Backend, Unknown

    class Recording(Backend):
        name = "recording"

        def __init__(self, sources=()):
            self.sources = sources

        def bind(self, a, b=None):
            return Recording((a, b))

        def prove(self, obligation, timeout=5.0):
            seen.append(self.sources)
            return Unknown("recording only", self.name)

    seen: list = []
    a = "theorem t (x : ℝ) (h : 0 < x) : x ^ 2 > 0 := by sorry"
    b = "theorem t (y : ℝ) (hy : y > 0) : y * y > 0 := by sorry"
    check_equivalence(a, b, relation="sae", backend=Recording(), fingerprint_points=0)
    assert seen and all(s[0].variables[0].name == "x" and s[1].variables[0].name == "y" for s in seen)


def test_a_backend_must_follow_the_contract():
    """An object with only ``prove`` is refused with a message saying what to subclass."""

    class Bare:
        name = "bare"

        def prove(self, obligation, timeout=5.0):
            raise AssertionError("never called")

    with pytest.raises(TypeError, match="provers.backends.base.Backend"):
        check_equivalence("theorem t (x : ℕ) : x = x := by sorry", "theorem t (y : ℕ) : y = y := by sorry",
                          backend=Bare())


def test_provable_decides_whole_statements():
    from provers.engine.equivalence import provable

    assert provable("theorem t (n : ℕ) (h : n > 2) : n ≥ 3 := by sorry").status == "proved"
    assert provable("theorem t (n : ℕ) (h : n > 2) : n ≥ 4 := by sorry").status == "refuted"


class _Counting(Backend):
    """Answers unknown and counts the calls (a raising backend would be read as unknown)."""

    name = "counting"

    def __init__(self):
        self.calls = 0

    def prove(self, obligation, timeout=5.0):
        from provers.backends.base import Unknown

        self.calls += 1
        return Unknown("not asked to decide", self.name)


def test_the_truth_check_reuses_a_decided_vacuity_test_without_a_solver_call():
    from provers import parse
    from provers.engine.equivalence import provable
    from provers.engine.profile import Profile

    # contradictory premises: the statement holds, by the vacuity proof
    p = Profile.of(parse("theorem t (x : ℝ) (h₀ : x < 0) (h₁ : 1 < x) : x = 5 := by sorry", "lean4"),
                   fingerprints=False)
    assert provable(p, backend=_Counting()).status == "unknown"  # nothing to reuse yet
    assert vacuous(p).status == "proved"
    counting = _Counting()
    ob = provable(p, backend=counting)
    assert ob.status == "proved" and "contradictory" in ob.detail and counting.calls == 0
    # a wrong answer is false at the premises' model (x = 7), which no sampled point hits
    p = Profile.of(parse("theorem t (x : ℝ) (h₀ : x ^ 3 + 2 = 345) : x = 4 := by sorry", "lean4"),
                   fingerprints=False)
    assert vacuous(p).status == "refuted"
    counting = _Counting()
    ob = provable(p, backend=counting)
    assert ob.status == "refuted" and ob.model == {"x": 7} and counting.calls == 0


def test_solver_calls_get_their_effort_share_of_the_limit():
    """Obligations of a check get ``QUICK`` × timeout per solver call and the vacuity test
    the whole limit (decisions past 0.3 s were only ever the vacuity test's, measured); an
    unknown found at the quick share is asked again when the full limit is requested."""
    from provers.backends.base import Backend, Unknown
    from provers.deadline import Deadline
    from provers.engine.equivalence import vacuous
    from provers.engine.prover import Prover
    from provers.engine.verdict import FULL, QUICK
    from provers.ir import Quant

    class Recording(Backend):
        name = "recording"

        def prove(self, obligation, timeout=5.0):
            limits.append(timeout)
            return Unknown("recording only", self.name)

    limits: list[float] = []
    a = "theorem t (x y : ℝ) (h : x ^ 3 + y ^ 3 = 7) : x * y = 2 := by sorry"
    b = "theorem t (u v : ℝ) (h : (u + v) * (u ^ 2 - u * v + v ^ 2) = 7) : v * u = 2 := by sorry"
    verdict = check_equivalence(a, b, relation="sae", backend=Recording(), timeout=2.0)
    assert limits and limits == [pytest.approx(2.0 * QUICK)] * len(limits)

    limits.clear()
    vacuous(a, timeout=2.0, backend=Recording())
    assert limits == [pytest.approx(2.0 * FULL)]

    limits.clear()
    prover = Prover(Recording(), 2.0, Deadline.after(60), points=0)
    st = next(o.formula for o in verdict.obligations if o.by == "recording")
    assert isinstance(st, Quant)
    prover("x", st)
    prover("x", st)  # cached unknown at the same effort
    prover("x", st, effort=FULL)  # asked again with the whole limit
    prover("x", st)
    # each ask is one call for the whole and one for the pair where the sides differ
    # (``congruence``), both at the ask's share; the cached ask makes none
    half = len(limits) // 2
    assert half >= 1 and limits == [pytest.approx(2.0 * QUICK)] * half + [pytest.approx(2.0 * FULL)] * half


def test_premises_defining_a_function_get_a_model_without_a_solver():
    """"For a positive integer m, let f(m) = m² + m + 1": random function tables never meet
    such a premise, the definition's own closure always does, so the vacuity test is refuted
    by exact evaluation (a fingerprint point, before any solver) with f given by its definition."""
    from provers.engine.equivalence import vacuous
    from provers.semantics import Closure

    st = """theorem
fixes f :: "int \\<Rightarrow> int" and n :: int
assumes h0 : "\\<forall>m. m > 0 \\<longrightarrow> f m = m^2 + m + 1"
and h1 : "1000 * (\\<Prod>i=1..n. f (i^2)) \\<ge> (\\<Prod>i=1..n. f i)^2"
shows  "n \\<le> 31"
"""
    ob = vacuous(st, language="isabelle")
    assert ob.status == "refuted" and ob.by == "fingerprint"
    f = ob.model["f"]
    assert isinstance(f, Closure) and str(f).startswith("(λ m. ") and "m ^ 2" in str(f)
    lean = "theorem t (f : ℕ → ℕ) (h : ∀ n, f n = 2 * n + 3) (k : ℕ) (hk : f k > 4) : k ≥ 1 := by sorry"
    assert vacuous(lean).status == "refuted"


def test_closed_formulas_are_decided_by_exact_evaluation_without_a_solver():
    """A closed obligation (two pinned closed forms: √5 · √5 = 5, card of an interval) is
    proved or refuted by the exact evaluator: no backend is asked."""
    from provers.backends.base import Backend
    from provers.deadline import Deadline
    from provers.engine.prover import Prover
    from provers.ir import SetBuilder
    from provers.status import Status

    class Refusing(Backend):
        name = "refusing"

        def prove(self, obligation, timeout=5.0):
            raise AssertionError("a closed formula reached the backend")

    prover = Prover(Refusing(), 2.0, Deadline.after(60), points=0)
    root5 = app("sqrt", num(5, REAL))
    assert prover("t = t'", app("eq", app("mul", root5, root5), num(5, REAL))).status == Status.PROVED
    ob = prover("t = t'", app("eq", app("mul", root5, root5), num(6, REAL)))
    assert ob.status == Status.REFUTED and ob.model == {}
    k = Var("k", NAT)
    card = app("card", SetBuilder(k, app("and", app("le", num(1, NAT), k), app("le", k, num(99, NAT)))))
    assert prover("card", app("eq", card, num(99, NAT))).status == Status.PROVED


IMO_1974_P5 = """theorem imo_1974_p5 (a b c d s : ℝ) (h₀ : 0 < a ∧ 0 < b ∧ 0 < c ∧ 0 < d)
  (h₁ : s = a / (a + b + d) + b / (a + b + c) + c / (b + c + d) + d / (a + c + d)) :
  1 < s ∧ s < 2 := by sorry"""


@pytest.mark.parametrize("bound", ["1", "7"])
def test_a_variable_defined_by_a_premise_is_computed_at_sampled_points(bound):
    """FormalAlign mutant of imo_1974_p5 (0 < a → 1 < a, 7 < a): a sampled s never meets
    s = a/(a+b+d) + …, s computed from the sampled a, b, c, d does, and that point refutes
    the premise equivalence; it refutes all 120 alignments of the five reals (only 24 fit
    the alignment budget: the rest go through the cheap checks too)."""
    mutant = IMO_1974_P5.replace("(h₀ : 0 < a", f"(h₀ : {bound} < a")
    v = check_equivalence(IMO_1974_P5, mutant, relation="sae", timeout=1.0)
    assert v.status == "inequivalent", v.explain()
    assert "120" in v.reason
    m = v.countermodel["A"]
    assert m["s"] == sum(Fraction(x) / y for x, y in (
        (m["a"], m["a"] + m["b"] + m["d"]), (m["b"], m["a"] + m["b"] + m["c"]),
        (m["c"], m["b"] + m["c"] + m["d"]), (m["d"], m["a"] + m["c"] + m["d"])))
    assert check_equivalence(IMO_1974_P5, IMO_1974_P5, relation="sae", timeout=1.0).status == "equivalent"


def test_scalar_definitions_settle_chains_and_respect_sorts():
    from provers.engine.definitions import scalar_definitions, with_scalar_definitions

    n, t, s = Var("n", NAT), Var("t", REAL), Var("s", REAL)
    body = and_(app("eq", s, app("add", t, r(1))), app("eq", t, app("mul", r(2), x)),
                app("eq", n, app("sub", num(3, NAT), num(5, NAT))))
    defs = scalar_definitions((x, t, s, n), body)
    assert {(v.name, e) for v, e in defs} >= {("s", app("add", t, r(1))), ("t", app("mul", r(2), x))}
    q = with_scalar_definitions({"x": Fraction(3, 2), "t": 0, "s": 0, "n": 7}, defs)
    assert q == {"x": Fraction(3, 2), "t": 3, "s": 4, "n": 0}  # ℕ subtraction truncates
    assert with_scalar_definitions(q, defs) is None  # already met: nothing changes


def test_counting_with_dvd_over_an_untyped_variable_counts_integers():
    """``counting_and_probability/problem_997`` #0 and #3 (both labelled correct): the set of
    #3 has an untyped ``n`` under ``11 dvd n``, read on int as div/mod make it; on ℝ it was an
    infinite interval (card 0), so #3 sat with the wrong ``{n. 100 ≤ 11 n ≤ 999}`` over ℝ."""
    nat = ('theorem fixes count :: nat assumes h0 : "count = card {n :: nat. 100 \\<le> n \\<and> n \\<le> 999 '
           '\\<and> n mod 11 = 0}" shows "count = 81"')
    untyped = ('theorem fixes n :: nat assumes h0 : "n \\<ge> 100" and h1 : "n \\<le> 999" and h2 : "11 dvd n" '
               'shows "card {n. n \\<ge> 100 \\<and> n \\<le> 999 \\<and> 11 dvd n} = 81"')
    real_interval = ('theorem fixes n :: nat assumes h0 : "11 * n \\<ge> 100" and h1 : "11 * n \\<le> 999" '
                     'shows "card {n. 11 * n \\<ge> 100 \\<and> 11 * n \\<le> 999} = 81"')
    v = check_equivalence(nat, untyped, relation="symbolic", language="isabelle", timeout=2.0)
    assert v.status == "equivalent", v.reason
    v = check_equivalence(untyped, real_interval, relation="symbolic", language="isabelle", timeout=2.0)
    assert v.status == "inequivalent", v.reason
