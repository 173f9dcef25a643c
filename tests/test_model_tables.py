"""A z3 model's function interpretation read as its explicit entries (``Z3Emitter.table``)
is the same function as the general route's table over every combination of its literals."""

from fractions import Fraction

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.backends.smt.emit import Emitter, Z3Emitter
from provers.deadline import Deadline
from provers.engine.answers import pin_answer
from provers.engine.normal import normalize
from provers.engine.prover import Prover, default_backend
from provers.ir import BOOL, INT, REAL
from provers.semantics.values import FunTable

points = st.dictionaries(
    st.tuples(st.integers(-5, 5), st.integers(-5, 5)),
    st.fractions(min_value=-9, max_value=9, max_denominator=4),
    min_size=1, max_size=6,
)


@settings(max_examples=40, deadline=None)
@given(points, st.booleans())
def test_the_entries_of_an_interpretation_are_the_function_the_literals_give(pts, boolean_result):
    em = Z3Emitter()
    result = BOOL if boolean_result else REAL
    f = z3.Function("f", z3.IntSort(), z3.IntSort(), z3.BoolSort() if boolean_result else z3.RealSort())
    s = z3.Solver()
    for (a, b), v in pts.items():
        s.add(f(a, b) == (v > 0 if boolean_result else z3.RealVal(v)))
    assert s.check() == z3.sat
    model = s.model()
    fast = em.table(model, f, (INT, INT), result)
    general = Emitter.table(em, model, f, (INT, INT), result)
    assert len(fast.entries) <= len(pts)  # the entries as z3 lists them, not their combinations
    assert fast == general and hash(fast) == hash(general)  # (reads each one's points in the model)
    for (a, b), v in pts.items():  # and both are the model's function at its points
        assert fast(a, b) == (v > 0 if boolean_result else v)


def test_equal_tables_listing_different_points_hash_alike():
    a = FunTable({(1,): Fraction(2), (3,): 0}, 0)
    b = FunTable({(1,): Fraction(2)}, 0)
    assert a == b and hash(a) == hash(b)


@settings(max_examples=30, deadline=None)
@given(st.integers(-40, 40), st.integers(0, 60), st.integers(-3, 3), st.integers(-3, 3))
def test_a_function_given_on_a_range_is_tabulated_at_every_integer_of_it(lo, width, inside, outside):
    """z3 gives ``λb. if lo ≤ b ≤ hi then c else d`` for a function constrained on a range:
    the table is that function at every integer (its literal points alone missed the inside)."""
    em = Z3Emitter()
    hi = lo + width
    f = z3.Array("f", z3.IntSort(), z3.IntSort())
    b = z3.Int("b")
    s = z3.Solver()
    s.add(f == z3.Lambda([b], z3.If(z3.And(lo <= b, b <= hi), inside, outside)))
    assert s.check() == z3.sat
    table = em.array_table(s.model(), f, INT, INT).settle()  # as read, without the model behind it
    for k in range(lo - 2, hi + 3):
        assert table(k) == (inside if lo <= k <= hi else outside)
    assert len(table.entries) <= 4 + (width + 1 if inside != outside else 0)


def test_premises_on_a_range_of_a_function_get_a_validated_model():
    """``f n = 6 n`` and ``∀ n ∈ {82..125}. f n = n - (n - 1)``: satisfiable (n = 0), which z3
    shows with a function piecewise on 82..125; read at its literal points only, the model
    was rejected by the exact evaluator and the premises' satisfiability left undecided."""
    import provers
    from provers.engine import equivalence
    from provers.ir import strip_forall
    from provers.semantics import truth

    st_ = provers.parse('theorem\nfixes f :: "int \\<Rightarrow> int"\nassumes h0 : "f(n) = 6 * n"\n'
                        'and h1 : "\\<forall>n \\<in> {82..125}. f(n) = n - (n-1)"\n'
                        'shows  "sum f {82..125} = 516"', "isabelle")
    ob = equivalence.vacuous(st_, timeout=2.0, language="isabelle")
    assert ob.status.value == "refuted", ob.detail
    assert truth(strip_forall(ob.formula)[1], ob.model) is False


def test_a_table_reads_the_model_at_points_its_literals_do_not_reach():
    """A function piecewise on a range wider than ``MAX_SPAN``: while its model is at hand the
    table reads it wherever the evaluator looks; settled, it keeps those points (and pickles)."""
    import pickle

    from provers.backends.smt.emit import MAX_SPAN

    em = Z3Emitter()
    f = z3.Array("f", z3.IntSort(), z3.IntSort())
    b = z3.Int("b")
    s = z3.Solver()
    s.add(f == z3.Lambda([b], z3.If(z3.And(0 <= b, b <= 2 * MAX_SPAN), 7, 0)))
    assert s.check() == z3.sat
    table = em.array_table(s.model(), f, INT, INT)
    assert table(MAX_SPAN + 3) == 7 and table(-5) == 0
    table.settle()
    assert table.fill is None and table(MAX_SPAN + 3) == 7
    assert pickle.loads(pickle.dumps(table))(MAX_SPAN + 3) == 7


def test_a_sum_over_hundreds_of_integers_is_unrolled_and_its_model_validated():
    """``∑ i ∈ {490..751}, f i = 516`` (262 terms) was an opaque total: every model of it was
    spurious. Unrolled, the premises get a model the exact evaluator confirms."""
    import provers
    from provers.engine import equivalence
    from provers.ir import strip_forall
    from provers.semantics import truth

    st_ = provers.parse('theorem\nfixes f :: "int \\<Rightarrow> int"\nassumes h1 : "sum f {490..751} = 516"\n'
                        'shows "f 500 = 2"', "isabelle")
    ob = equivalence.vacuous(st_, timeout=2.0, language="isabelle")
    assert ob.status.value == "refuted", ob.detail
    assert truth(strip_forall(ob.formula)[1], ob.model) is False


@settings(max_examples=40, deadline=None)
@given(st.dictionaries(st.integers(-4, 4), st.frozensets(st.integers(-6, 6), max_size=4), min_size=1, max_size=4),
       st.frozensets(st.integers(-6, 6), max_size=3))
def test_a_set_valued_function_is_read_back_from_its_membership_predicate(sets, elsewhere):
    """f : ℤ → Set ℤ lowered as ``e ∈ f a`` (``Lowerer.membership``): at each point the
    model's members, elsewhere its default set."""
    em = Z3Emitter()
    mem = z3.Function("mem", z3.IntSort(), z3.IntSort(), z3.BoolSort())
    e, a = z3.Ints("e a")

    def member(xs):
        return z3.Or(*[e == x for x in xs]) if xs else z3.BoolVal(False)

    s = z3.Solver()
    body = member(elsewhere)
    for k, xs in sets.items():
        body = z3.If(a == k, member(xs), body)
    s.add(z3.ForAll([e, a], mem(e, a) == body))
    assert s.check() == z3.sat
    table = em.set_table(s.model(), mem, INT, (INT,))
    for k in range(-6, 7):
        assert table(k) == sets.get(k, elsewhere)


def test_a_constant_function_of_functions_is_read_as_its_value():
    """A free predicate on sequences (``is_arith_seq a``) whose model is a constant: its
    value at every argument, although no table over function-valued points exists."""
    from provers.ir import NAT, FunSort

    em = Z3Emitter()
    seq = z3.ArraySort(z3.IntSort(), z3.RealSort())
    p = z3.Function("p", seq, z3.BoolSort())
    s = z3.Solver()
    s.add(p(z3.K(z3.IntSort(), z3.RealVal(1))))
    assert s.check() == z3.sat
    table = em.table(s.model(), p, (FunSort((NAT,), REAL),), BOOL)
    assert table.entries == {} and table.default is True


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(-9, 9), min_size=1, max_size=4), st.integers(-20, 20), st.booleans())
def test_a_model_through_an_opaque_application_satisfies_the_premise_exactly(items, target, twice):
    from provers.backends.smt.solve import solve
    from provers.engine.formulas import vacuous_obligation
    from provers.engine.normal import normalize
    from provers.isabelle.parser import parse_isabelle
    from provers.semantics import truth

    listed = ", ".join(map(str, [*items, "a"]))
    extra = f' and h1 : "f [{listed}] + f [a] = {2 * target}"' if twice else ""
    text = f'theorem fixes a :: int and f :: "int list \\<Rightarrow> int" assumes h0 : "f [{listed}] = {target}"{extra} shows "a = 0"'
    nf = normalize(parse_isabelle(text))
    result = solve("z3", vacuous_obligation(nf), 2.0)
    assert type(result).__name__ == "Refuted", result  # a model of the premises: f constant, say
    assert truth(nf.premise(), dict(result.model)) is True


#: (MATH problem, a statement whose free function variable leaves its answer free once the
#: model gives that variable back, the other statement, which pins the answer)
FREE_FUNCTION_PAIRS = [
    # a set-valued function seen through membership (`Emitter.set_table`): x = 0 is a model
    ("number_theory/problem_660",
     'theorem fixes x :: int assumes h0 : "set_of_digits x = {3, 4, 6, 7, 8, 9}" and h1 : "x mod 4 = 0" '
     'shows  "x = 987436"',
     'theorem fixes n :: int assumes h0 : "n > 987435" and h1 : "n < 987437" and h2 : "n mod 4 = 0" '
     'shows  "n = 987436"'),
    # a predicate on sequences, constant in the model (`Z3Emitter.table`): a 5 / a 3 = 1 there
    ("algebra/problem_2017",
     'theorem fixes a :: "nat \\<Rightarrow> real" assumes h0 : "is_arith_seq a" and h1 : "a 4 / a 2 = 3" '
     'shows  "a 5 / a 3 = 2"',
     'theorem fixes a :: "nat \\<Rightarrow> real" and d :: real assumes h0 : "\\<forall> n. n \\<ge> 1 '
     '\\<longrightarrow> a (n + 1) = a n + d" and h1 : "a 4 / a 2 = 3" shows  "a 5 / a 3 = 2"'),
    # a function no solver declares (`Lowered.opaque_heads`): read back at the list the model makes
    ("prealgebra/problem_1405",
     'theorem fixes a b c :: real assumes h0 : "average [17, 10, 9, 14, 16, 8, 10, a, b, c] = 14" '
     'shows "a + b + c = 56"',
     'theorem fixes s x :: real assumes h0 : "s = 17 + 10 + 9 + 14 + 16 + 8 + 10" and h1 : "((s + x) / 10) = 14" '
     'shows "x = 56"'),
    # the same at a list the premises fix outright: the application's symbol is a constant
    # (no arguments), read as one (a solver error at 78c2b6b)
    ("prealgebra/problem_1837",
     'theorem fixes xs :: "real list" assumes h0 : "xs = [8,12,16,20,24]" shows  "mean xs = 16"',
     'theorem fixes x1 x2 :: real assumes h0 : "x1 = 8" and h1 : "x2 = 24" and h2 : "m = (x1 + x2) / 2" '
     'shows "m = 16"'),
]


@pytest.mark.parametrize("problem, free, pinned", FREE_FUNCTION_PAIRS, ids=[p[0] for p in FREE_FUNCTION_PAIRS])
def test_a_free_function_variable_read_back_from_a_model_leaves_the_answer_free(problem, free, pinned):
    from provers import check_equivalence

    v = check_equivalence(free, pinned, relation="symbolic", language="isabelle", timeout=1.0)
    assert v.status == "inequivalent", v.reason
    assert "at a model of Γ" in v.reason  # the free side's answer at a validated model of its premises


def test_a_set_of_naturals_read_back_holds_no_negative_member():
    # the membership predicate is over ℤ: a model may put -1 in, which no Set ℕ holds
    from provers.backends.smt.lower import lower_obligation
    from provers.backends.smt.solve import read_model
    from provers.engine.normal import normalize
    from provers.isabelle.parser import parse_isabelle

    nf = normalize(parse_isabelle('theorem fixes f :: "nat \\<Rightarrow> nat set" assumes h0: "3 \\<in> f 0" shows "4 \\<in> f 0"'))
    lowered = lower_obligation(nf.closed())
    em = Z3Emitter()
    s = em.solver(1000, lowered)
    for fact in lowered.facts:
        s.add(em.emit(fact))
    s.add(z3.Not(em.emit(lowered.formula)))
    (member,) = [d for (kind, name, _, _), d in em.funcs.items() if name.startswith("%member_")]
    s.add(member(z3.IntVal(-1), z3.IntVal(0)))
    e, x = z3.Ints("e x")  # and nothing else: a finite set at every point
    s.add(z3.ForAll([e, x], z3.Implies(member(e, x), z3.And(x == 0, z3.Or(e == 3, e == -1)))))
    assert s.check() == z3.sat
    table = read_model(em, s.model(), lowered)["f"]
    assert 3 in table(0) and -1 not in table(0)


def test_a_countermodel_is_checked_again_with_its_tables_settled():
    """A table still reading the solver's model lists only the points read so far. Read
    lazily, ``(∃v. f v = 6) ∨ f 5 ≠ 6`` is false: the ∃ looks among the points listed (none
    is 6, the default is 0) before ``f 5`` is read and found to be 6. The settled table
    f = {5 ↦ 6, else 0} makes it true, so the model must not count as a countermodel
    (``solve._still_false``; before it, the lazy answer was returned as a refutation)."""
    from provers.backends.smt.solve import _exactly_false, _still_false
    from provers.ir import FunSort, Quant, Var, app, num, or_
    from provers.semantics.values import NOT_READ

    f, v = Var("f", FunSort((INT,), INT)), Var("v", INT)
    body = or_(Quant("exists", (v,), app("eq", app("apply", f, v), num(6, INT))),
               app("ne", app("apply", f, num(5, INT)), num(6, INT)))

    def reading(answer: int) -> FunTable:
        return FunTable({}, default=0, fill=lambda k: answer if k == (5,) else NOT_READ)

    env = {"f": reading(6)}
    assert _exactly_false(body, env)  # the lazy reading
    assert not _still_false(env, lambda e: _exactly_false(body, e))
    assert env["f"] == FunTable({(5,): 6}, default=0)  # the table now settled
    nine = or_(Quant("exists", (v,), app("eq", app("apply", f, v), num(9, INT))),
               app("ne", app("apply", f, num(5, INT)), num(6, INT)))
    other = {"f": reading(6)}  # no point is 9: false for the settled table too, and kept
    assert _exactly_false(nine, other) and _still_false(other, lambda e: _exactly_false(nine, e))


UNFIXED_GRID = '''theorem
fixes max_colors :: nat
assumes h0 : "\\<forall> square. (square \\<in> grid) \\<longrightarrow> (square_has_two_symmetry_lines square)"
shows  "max_colors = 3"'''


def test_a_function_over_a_sort_without_elements_in_the_model_is_read():
    """``grid`` and ``square_has_two_symmetry_lines`` are over a schematic type of which the
    model names no element: the function's table is read at an element the model completes
    (was: 'not exact (table over 't1)', no model of the premises), so the answer, which no
    premise constrains, is free (MATH counting_and_probability/problem_288)."""
    nf = normalize(provers.parse(UNFIXED_GRID, "isabelle"))
    pin = pin_answer(nf, Prover(default_backend(), 1.0, Deadline.after(30.0)))
    assert pin.status == "free", pin
    assert len({v for _, v in pin.witnesses}) == 2
