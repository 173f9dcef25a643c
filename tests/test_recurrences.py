"""Sequences given by a recurrence, ``∀n ≥ c. u (n + k) = e``: the premise is met by the
sequence computed from it, so two premise sets that differ in an initial value or in the
recurrence get a countermodel the solvers cannot find (FormalAlign's amc12a_2002_p21)."""

from fractions import Fraction

import provers
from provers.engine import equivalence
from provers.engine.normal import normalize
from provers.engine.recurrences import initial_values, recurrences
from provers.ir import NAT, REAL, Num, app, num
from provers.semantics import Sequence, truth

REF = """theorem amc12a_2002_p21 (u : ℕ → ℕ) (h₀ : u 0 = 4) (h₁ : u 1 = 7)
  (h₂ : ∀ n ≥ 2, u (n + 2) = (u n + u (n + 1)) % 10) :
  ∀ n, ∑ k in Finset.range (n), u k > 10000 → 1999 ≤ n := sorry"""


def hyps(text: str, language: str = "lean4"):
    return [h.formula for h in provers.parse(text, language).hypotheses]


def sequence_of(text: str, language: str = "lean4", **initial):
    s = provers.parse(text, language)
    body = app("and", *(h.formula for h in s.hypotheses))
    (u, m, start, rule, premise), *_ = recurrences(tuple(s.variables), body)
    return u, Sequence(u.name, m, start, rule, {int(k[1:]): v for k, v in initial.items()}, premise, {}), body


def test_a_recurrence_is_read_and_computed():
    u, seq, body = sequence_of(REF, i0=4, i1=7, i2=1, i3=2)
    assert seq.start == 4
    env = {"u": seq, "n": 5}
    # u 4 = (u 2 + u 3) % 10 = 3, u 5 = (u 3 + u 4) % 10 = 5, u 6 = 8, u 7 = 3
    values = [truth(app("eq", app("apply", u, Num(i, NAT)), Num(v, NAT)), env)
              for i, v in ((4, 3), (5, 5), (6, 8), (7, 3))]
    assert values == [True, True, True, True]
    # the premise holds for the sequence computed by it, exactly, over all n
    assert all(truth(h, env) for h in hyps(REF))


def test_another_recurrence_is_not_met_by_definition():
    _, seq, _ = sequence_of(REF, i0=4, i1=7, i2=1, i3=2)
    other = hyps(REF.replace("% 10", "% 9"))[2]
    # u 6 = (u 4 + u 5) % 10 = 8 = (3 + 5) % 9, but u 7 = (5 + 8) % 10 = 3 ≠ (5 + 8) % 9 = 4:
    # a counterexample among the probes, not the definition shortcut
    assert truth(other, {"u": seq}) is False


def test_initial_values_per_side_of_a_premise_comparison():
    a, b = hyps(REF), hyps(REF.replace("u 0 = 4", "u 0 = 7"))
    u = provers.parse(REF, "lean4").variables[0]
    body = app("iff", app("and", *a), app("and", *b))
    assert initial_values(u, 4, body, {}) == [{0: 4, 1: 7}, {0: 7, 1: 7}]


def test_changed_initial_values_and_recurrences_are_refuted():
    for old, new in (("u 0 = 4", "u 0 = 7"), ("u 1 = 7", "u 2 = 7"), ("% 10", "% 12")):
        v = provers.check_equivalence(REF, REF.replace(old, new), relation="sae", timeout=1.0, language="lean4")
        assert v.status == "inequivalent", (new, v.explain())
    v = provers.check_equivalence(REF, REF, relation="sae", timeout=1.0, language="lean4")
    assert v.status == "equivalent"


def test_an_isabelle_sequence_answer_is_decided():
    from provers.engine.equivalence import provable

    text = ('theorem fixes a :: "nat \\<Rightarrow> rat" assumes h0 : "a 1 = 27 / 125" '
            'and h1 : "\\<forall>n \\<ge> 1. a (n + 1) = (3 / 5) * a n" shows "a 6 = {}"')
    assert provable(text.format("6561 / 390625"), 1.0, "isabelle").status != "refuted"  # (27/125)(3/5)^5
    refuted = provable(text.format("25 / 9"), 1.0, "isabelle")
    assert refuted.status == "refuted", refuted
    a = refuted.model["a"]
    assert truth(hyps(text.format("25 / 9"), "isabelle")[1], {"a": a}) is True
    assert Fraction(27, 125) * Fraction(3, 5) ** 5 == Fraction(6561, 390625)
    assert a.initial[1] == Fraction(27, 125)


ARITH = """theorem amc12a_2010_p10 (p q : ℝ) (a : ℕ → ℝ)
  (h₀ : ∀ n, a (n + 2) - a (n + 1) = a (n + 1) - a n)
  (h₁ : a 1 = p) (h₂ : a 2 = 9) (h₃ : a 3 = 3 * p - q) (h₄ : a 4 = 3 * p + q) :
  a 2010 = 8041 := sorry"""


def test_a_recurrence_linear_in_its_latest_term_is_solved_for_it():
    s = provers.parse(ARITH, "lean4")
    body = app("and", *(h.formula for h in s.hypotheses))
    (u, m, start, rule, _), = recurrences(tuple(s.variables), body)
    assert (u.name, start) == ("a", 2)
    seq = Sequence("a", m, start, rule, {0: 1, 1: 5}, s.hypotheses[0].formula, {})
    assert truth(s.hypotheses[0].formula, {"a": seq}) is True
    assert truth(app("eq", app("apply", u, Num(4, NAT)), Num(17, provers.ir.REAL)), {"a": seq}) is True  # 1 + 4·4


def test_a_changed_recurrence_is_refuted_through_a_relaxed_model():
    """a (n + 5) - a (n + 1) = a (n + 1) - a n: the solvers time out on the ∀; the model of
    the first instances (p = 5, q = 2, a 0 = 1), extended by the arithmetic recurrence,
    refutes the premise comparison exactly."""
    mutant = ARITH.replace("a (n + 2) - a (n + 1)", "a (n + 5) - a (n + 1)")
    v = provers.check_equivalence(ARITH, mutant, relation="sae", timeout=1.0, language="lean4")
    assert v.status == "inequivalent", v.explain()


# ---- functions given by their definitions: models through the unfolded obligation -------

COMPOSE = """theorem mathd_algebra_132 (x : ℝ) (f g : ℝ → ℝ) (h₀ : ∀ x, f x = x + 2)
  (h₁ : ∀ x, g x = x^2) (h₂ : f (g x) = g (f x)) : x = - 1/2 := sorry"""


def test_definition_choices_read_each_sides_definition():
    from provers.engine.definitions import definition_choices

    a, b = hyps(COMPOSE), hyps(COMPOSE.replace("x + 2", "x + 3"))
    s = provers.parse(COMPOSE, "lean4")
    body = app("iff", app("and", *a), app("and", *b))
    choices = definition_choices(tuple(s.variables), body)
    assert len(choices) == 2  # f by x + 2 or by x + 3; g by x²
    assert all(len(c) == 2 for c in choices)


def test_premises_over_defined_functions_are_refuted_through_their_definitions():
    """x² + 2 = (x + 2)² holds at x = -1/2 only; with f x = x + 3 it is x = -1: the solvers
    time out on the ∀ over f and g, the unfolded obligation has a model at once."""
    for old, new in (("x + 2", "x + 3"), ("x^2", "x^5")):
        v = provers.check_equivalence(COMPOSE, COMPOSE.replace(old, new), relation="sae", timeout=1.0,
                                      language="lean4")
        assert v.status == "inequivalent", (new, v.explain())
    v = provers.check_equivalence(COMPOSE, COMPOSE, relation="sae", timeout=1.0, language="lean4")
    assert v.status == "equivalent"


PROD = """theorem numbertheory_aneqprodakp4_anmsqrtanp1eq2 (a : ℕ → ℝ) (h₀ : a 0 = 1)
  (h₁ : ∀ n, a (n + 1) = (∏ k in Finset.range (n + 1), (a k)) + 4) :
  ∀ n ≥ 1, a n - Real.sqrt (a (n + 1)) = 2 := by sorry"""


def test_a_recurrence_over_all_earlier_terms_is_computed():
    """a (n + 1) = ∏ k < n + 1, a k + 4 uses only earlier terms (the product's indices stay
    below n + 1): a = 1, 5, 9, 49, …, and the FormalAlign mutants changing 4 or a 0 are refuted."""
    u, seq, body = sequence_of(PROD, i0=1)
    env = {"a": seq}
    assert [truth(app("eq", app("apply", u, Num(i, NAT)), num(v, REAL)), env)
            for i, v in ((0, 1), (1, 5), (2, 9), (3, 49))] == [True] * 4
    assert truth(body, env) is True
    for mutant in (PROD.replace(") + 4)", ") + 7)"), PROD.replace("a 0 = 1", "a 0 = 2")):
        v = provers.check_equivalence(PROD, mutant, relation="sae", timeout=1.0)
        assert v.status == "inequivalent", v.explain()
    # a product up to n + 1 is not earlier than a (n + 1): no recurrence is read
    late = PROD.replace("Finset.range (n + 1)", "Finset.range (n + 2)")
    s = provers.parse(late, "lean4")
    assert recurrences(tuple(s.variables), app("and", *(h.formula for h in s.hypotheses))) == []


ARITHMETIC = """theorem
fixes a :: "nat \\<Rightarrow> real" and d :: real
assumes h0 : "\\<forall> n. n \\<ge> 1 \\<longrightarrow> a (n + 1) = a n + d"
and h1 : "a 4 / a 2 = 3"
shows  "a 5 / a 3 = 2"
"""


def test_a_renamed_model_still_satisfies_the_renamed_recurrence():
    """Renaming a model renames inside its sequences: the recurrence premise holds of the
    sequence read from it only word for word, and the value route renames one side's
    variables apart (``a`` → ``a_1``)."""
    from provers.ir import Var, substitute
    from provers.semantics.values import renamed_model

    s = provers.parse(ARITHMETIC, "isabelle")
    body = app("and", *(h.formula for h in s.hypotheses))
    (u, m, start, rule, premise), *_ = recurrences(tuple(s.variables), body)
    env: dict = {"d": Fraction(-1)}
    env["a"] = Sequence(u.name, m, start, rule, {0: Fraction(-1), 1: Fraction(0)}, premise, env)
    assert truth(body, env) is True
    names = {"a": "a_1", "d": "d_1"}
    renamed = substitute(body, {v: Var(names[v.name], v.sort) for v in s.variables if v.name in names})
    assert truth(renamed, renamed_model(env, names)) is True
    keys_only = {names.get(k, k): x for k, x in env.items()}  # what the engine did before
    assert truth(renamed, keys_only) is not True


def test_two_arithmetic_sequences_are_equivalent_after_the_clusterers_vacuity_tests():
    """algebra/problem_2017 (MATH): two statements of the same arithmetic sequence, their
    vacuity tests decided first (as the clusterer does), each model a sequence: the value
    route pins both answers to 2. With the model of B renamed by its keys alone, B's
    premises were not confirmed and the pair stayed inconclusive."""
    from provers.engine import equivalence
    from provers.engine.profile import Profile

    other = ARITHMETIC.replace('fixes a :: "nat \\<Rightarrow> real" and d :: real',
                               'fixes a :: "nat \\<Rightarrow> real"\nand d :: real').replace(
        "\\<forall> n. n \\<ge> 1 \\<longrightarrow> a (n + 1)", "\\<forall>n. a (n + 1)")
    profiles = [Profile.of(provers.parse(t, "isabelle"), "symbolic") for t in (ARITHMETIC, other)]
    for p in profiles:
        assert equivalence.vacuous(p, timeout=1.0, language="isabelle").status.value == "refuted"
    v = equivalence.check_equivalence(*profiles, relation="symbolic", timeout=1.0, answer_cache={})
    assert v.status == "equivalent", v.reason


BOUNDED = """theorem
fixes n :: nat and w :: "nat \\<Rightarrow> real"
assumes h0 : "n = 10"
and h1 : "w 0 = 244"
and h2 : "\\<forall>k < n. w (Suc k) = 0.99 * w k"
shows  "round (w n) = 221"
"""


def test_a_recurrence_bounded_above_is_read_and_its_statement_pinned():
    """``∀k < n. w (k + 1) = 0.99 · w k`` is a recurrence from 0 (the sequence that follows the
    rule at every index meets the bounded premise too): the premises get a model and the
    answer is pinned, so the statement is equivalent to its closed form (algebra/problem_749:
    six correct candidates, four stated with a bounded recurrence, were never merged)."""
    s = provers.parse(BOUNDED, "isabelle")
    body = app("and", *(h.formula for h in s.hypotheses))
    ((u, m, start, rule, premise),) = recurrences(tuple(s.variables), body)
    assert u.name == "w" and start == 1
    closed = """theorem
fixes initial_weight final_weight :: real
assumes h0 : "initial_weight = 244"
and h1 : "final_weight = initial_weight * (1 - 0.01) powr 10"
shows  "round final_weight = 221"
"""
    v = provers.check_equivalence(BOUNDED, closed, relation="symbolic", language="isabelle", timeout=1.0)
    assert v.status == "equivalent", v.reason
    wrong = closed.replace("powr 10", "powr 11")  # 244 · 0.99¹¹ rounds to 218
    v = provers.check_equivalence(BOUNDED, wrong, relation="symbolic", language="isabelle", timeout=1.0)
    assert v.status == "inequivalent", v.reason


FACTORIAL = r"""theorem
fixes x :: nat and fact :: "nat \<Rightarrow> nat"
assumes h0 : "\<forall> n. fact n = (if n = 0 then 1 else n * fact (n - 1))"
shows  "fact %d = %d"
"""

FIBONACCI = r"""theorem
fixes fib :: "nat \<Rightarrow> int"
assumes h0 : "\<forall> n. fib n = (if n \<le> 1 then int n else fib (n - 1) + fib (n - 2))"
shows  "fib %d = %d"
"""


def test_a_recurrence_written_with_if_is_read_branch_by_branch():
    """``fact n = (if n = 0 then 1 else n · fact (n − 1))`` uses fact (n − 1) only where n ≥ 1
    (``counting_and_probability/problem_214``: its premises had no model, so its candidates
    were never compared by their answers); ``if n ≤ 1 … else fib (n − 1) + fib (n − 2)`` at
    n ≥ 2 only. Each is a recurrence from 0, its statements decided exactly."""
    for text, (k, value) in ((FACTORIAL, (5, 120)), (FIBONACCI, (10, 55))):
        s = provers.parse(text % (k, value), "isabelle")
        ((u, _, start, _, _),) = recurrences(tuple(s.variables), s.hypotheses[0].formula)
        assert start == 0
        for claimed, status in ((value, "proved"), (value + 1, "refuted")):
            ob = equivalence.provable(text % (k, claimed), timeout=1.0, language="isabelle")
            assert ob.status == status, (u.name, claimed, ob.detail)
    # a use at the index itself is no recurrence, whatever the branch
    s = provers.parse((FACTORIAL % (5, 120)).replace("fact (n - 1)", "fact n"), "isabelle")
    assert recurrences(tuple(s.variables), s.hypotheses[0].formula) == []


def test_a_recursive_factorial_is_equivalent_to_the_library_one():
    """The MATH pair: a factorial defined by its recursion against ``f = (λn. fact n)``
    (Isabelle's own): both answers are 1, so the statements are equivalent; a perturbed
    answer is not."""
    ours = r"""theorem
fixes x :: nat and fact :: "nat \<Rightarrow> nat"
assumes h0 : "\<forall> n. fact n = (if n = 0 then 1 else n * fact (n - 1))"
shows  "(fact (x + 1 - x)) div (fact (x - x + 1)) = %d"
"""
    library = r"""theorem
fixes x :: nat and f :: "nat \<Rightarrow> nat"
assumes h0 : "f = (\<lambda> n. fact n)"
shows  "f (x + 1 - x) div f (x - x + 1) = 1"
"""
    assert provers.check_equivalence(ours % 1, library, relation="symbolic", language="isabelle",
                                     timeout=1.0).status == "equivalent"
    assert provers.check_equivalence(ours % 2, library, relation="symbolic", language="isabelle",
                                     timeout=1.0).status == "inequivalent"


INTEGER_INDEXED = '''theorem
fixes a :: "int \\<Rightarrow> real" and d :: real
assumes h0 : "\\<forall> n. n \\<ge> 1 \\<longrightarrow> a n = a (n-1) + d"
and h1 : "a 4 / a 2 = 3"
shows  "a 5 / a 3 = 2"'''


def test_a_recurrence_over_the_integers_is_read_from_its_lower_bound():
    """``a :: int ⇒ real`` with ∀n ≥ 1. a n = a (n − 1) + d (algebra/problem_2017): a
    sequence over ℤ, computed from index 1 on; below it, the values listed (0 elsewhere),
    negative indices included. Without a lower bound no index comes first: not read."""
    s = provers.parse(INTEGER_INDEXED, "isabelle")
    body = app("and", *(h.formula for h in s.hypotheses))
    (u, m, start, rule, premise), = recurrences(tuple(s.variables), body)
    assert u.name == "a" and start == 1 and m.sort.name == "Int"
    seq = Sequence("a", m, start, rule, {0: Fraction(-2)}, premise, {"d": Fraction(2)})
    env = {"a": seq, "d": Fraction(2)}
    for i, v in ((0, -2), (1, 0), (2, 2), (5, 8), (-3, 0)):
        assert truth(app("eq", app("apply", u, Num(i, m.sort)), Num(v, REAL)), env) is True, i
    assert truth(premise, env) is True  # met by construction, over all of ℤ
    two_sided = INTEGER_INDEXED.replace("\\<forall> n. n \\<ge> 1 \\<longrightarrow> a n = a (n-1) + d",
                                        "\\<forall> n. a (n + 1) - a n = d")
    s2 = provers.parse(two_sided, "isabelle")
    assert recurrences(tuple(s2.variables), app("and", *(h.formula for h in s2.hypotheses))) == []


def test_an_integer_indexed_sequence_has_the_answer_of_a_natural_one():
    """The ℤ-indexed statement's premises get a model (the solver's instances extended by the
    recurrence) and its answer is pinned to 2, the answer of the ℕ-indexed one; another
    answer is not equivalent."""
    natural = INTEGER_INDEXED.replace('"int \\<Rightarrow> real"', '"nat \\<Rightarrow> real"').replace(
        "\\<forall> n. n \\<ge> 1 \\<longrightarrow> a n = a (n-1) + d", "\\<forall>n. a (n + 1) = a n + d")
    a, b = provers.parse(INTEGER_INDEXED, "isabelle"), provers.parse(natural, "isabelle")
    assert equivalence.vacuous(a, timeout=1.0, language="isabelle").status.value == "refuted"
    v = equivalence.check_equivalence(a, b, relation="symbolic", timeout=1.0)
    assert v.status == "equivalent", v.reason
    wrong = provers.parse(INTEGER_INDEXED.replace('"a 5 / a 3 = 2"', '"a 5 / a 3 = 3"'), "isabelle")
    assert equivalence.check_equivalence(a, wrong, relation="symbolic", timeout=1.0).status != "equivalent"


STOPPING_CAR = '''theorem
fixes s :: "nat \\<Rightarrow> real" and k :: nat
assumes h0 : "s 0 = 45"
and h1 : "\\<forall> n. s (n+1) = s n - 5"
and h2 : "s k = 0"
shows  "(\\<Sum>i<k. s i) = 225"'''


def test_the_index_a_sequence_is_read_at_is_searched_after_the_solvers_model():
    """MATH algebra/problem_248: s 0 = 45, s (n + 1) = s n − 5 and s k = 0. A model of the
    recurrence's first instances leaves s free beyond them and puts k there (z3: k = 7719),
    where the computed sequence is not 0; k is searched among the first indices instead: k = 9
    is a model of the premises, validated exactly, and the statement (Σ_{i<9} s i = 225) is
    pinned by its model — while a premise s k = 1 (no such index) has none."""
    v = equivalence.vacuous(provers.parse(STOPPING_CAR, "isabelle"), timeout=1.0, language="isabelle")
    assert v.status.value == "refuted", v.detail
    assert v.model["k"] == 9 and "index variables searched" in v.detail
    other = STOPPING_CAR.replace('"s k = 0"', '"s k = 1"')
    assert equivalence.vacuous(provers.parse(other, "isabelle"), timeout=1.0, language="isabelle").status.value != "refuted"


RECURSIVE_LAMBDA = '''theorem
fixes x :: nat and fact :: "nat \\<Rightarrow> nat"
assumes h0 : "fact = (\\<lambda>n. if n = 0 then 1 else n * fact (n - 1))"
shows  "fact (x + 1 - x) div fact (x - x + 1) = 1"'''


POINTWISE = '''theorem
fixes x :: nat and fact :: "nat \\<Rightarrow> nat"
assumes h0 : "\\<forall> n. fact n = (if n = 0 then 1 else n * fact (n - 1))"
shows  "fact (x + 1 - x) div fact (x - x + 1) = 1"'''


def test_a_recursive_lambda_is_read_as_its_recurrence():
    """``fact = (λn. if n = 0 then 1 else n * fact (n − 1))`` is no definition to substitute
    (fact is in its own body): pointwise, it is the recurrence the ∀ form states, so its
    premises get a model and the statement is the ∀ form's equal (MATH
    counting_and_probability/problem_214's candidates 3 and 8; were inconclusive)."""
    pointwise = POINTWISE
    assert pointwise != RECURSIVE_LAMBDA
    nf = normalize(provers.parse(RECURSIVE_LAMBDA, "isabelle"))
    assert nf.premises == normalize(provers.parse(pointwise, "isabelle")).premises
    v = provers.check_equivalence(RECURSIVE_LAMBDA, pointwise, relation="symbolic", timeout=1.0, language="isabelle")
    assert v.status == "equivalent", v.explain()
