"""Normal form: presentation choices that do not change meaning are erased."""

from hypothesis import given, settings
from hypothesis import strategies as hst

import provers
from provers.engine.normal import known_extremum, normalize, simplify_logic
from provers.ir import (
    BOOL,
    FALSE,
    INT,
    NAT,
    RAT,
    REAL,
    TYPE,
    Hypothesis,
    Lam,
    Num,
    OpaqueSort,
    Quant,
    SetSort,
    Statement,
    Uninterpreted,
    Var,
    VarBinder,
    and_,
    app,
    app_sorted,
    implies,
    not_,
    num,
)
from provers.semantics.evaluate import evaluate

x, y, n = Var("x", REAL), Var("y", REAL), Var("n", NAT)
P = app("lt", num(0, REAL), x)
Q = app("lt", x, y)
R = app("le", y, num(3, REAL))


def st(vs, hyps, concl, implicit=False):
    style = "implicit" if implicit else "explicit"
    return Statement(tuple(VarBinder(v, style) for v in vs) + tuple(Hypothesis(f"h{i}", h) for i, h in enumerate(hyps)), concl)


def test_hypotheses_and_curried_antecedents_become_the_same_premises():
    a = normalize(st([x, y], [P, Q], R))
    b = normalize(st([x, y], [], implies(P, implies(Q, R))))
    c = normalize(st([x, y], [], implies(and_(P, Q), R)))
    d = normalize(st([x, y], [and_(P, Q)], R))
    assert a.premises == b.premises == c.premises == d.premises == (P, Q)
    assert a.conclusion == b.conclusion == c.conclusion == d.conclusion == R
    assert a.variables == (x, y)


def test_leading_forall_is_lifted_and_renamed_apart_on_clash():
    inner_x = Var("x", REAL)
    concl = Quant("forall", (inner_x,), implies(app("lt", num(0, REAL), inner_x), app("lt", y, inner_x)))
    nf = normalize(st([x, y], [], concl))
    assert len(nf.variables) == 3
    fresh = nf.variables[2]
    assert fresh.name != "x" and fresh.sort == REAL
    assert nf.premises == (app("lt", num(0, REAL), fresh),)
    assert nf.conclusion == app("lt", y, fresh)


def test_not_and_implies_false_agree_and_are_not_lifted():
    a = normalize(st([x], [], not_(P)))
    b = normalize(st([x], [], implies(P, FALSE)))
    assert a == b or (a.premises, a.conclusion) == (b.premises, b.conclusion)
    assert a.premises == () and a.conclusion == not_(P)
    ne = normalize(st([x], [], not_(app("eq", x, num(1, REAL)))))
    assert ne.conclusion == app("ne", x, num(1, REAL))


def test_existential_conclusion_stays_inside():
    # (∃ k, n = 2 * k alone is 2 ∣ n: ``normal.divisibility``)
    e = Quant("exists", (Var("k", NAT),), app("eq", n, app("add", app("mul", num(2, NAT), Var("k", NAT)), num(1, NAT))))
    nf = normalize(st([n], [], e))
    assert nf.conclusion == e and nf.variables == (n,)


def test_type_variables_and_instances_are_kept_aside():
    G = Var("G", TYPE)
    g = Var("g", OpaqueSort("G"))
    inst = Uninterpreted("Group", (G,), BOOL)
    s = Statement((VarBinder(G, "implicit"), Hypothesis(None, inst, "instance"), VarBinder(g)), app("eq", g, g))
    nf = normalize(s)
    assert nf.types == (G,) and nf.instances == (inst,)
    assert nf.variables == (g,) and nf.premises == ()
    assert nf.dependencies()[g] == frozenset({G})


def test_simplify_logic_keeps_meaning_of_double_negation_and_flattening():
    assert simplify_logic(not_(not_(P))) == P
    assert simplify_logic(and_(P, and_(Q, R))) == and_(P, Q, R)


def test_leading_not_exists_is_read_as_forall_not():
    k = Var("k", NAT)
    twice = app("add", app("mul", num(2, NAT), k), num(1, NAT))  # (∃ k, 2 * k = 7 alone is 2 ∣ 7)
    body = app("eq", twice, num(8, NAT))
    nf = normalize(st([], [], not_(Quant("exists", (k,), body))))
    assert nf.variables == (k,)
    assert nf.conclusion == app("ne", twice, num(8, NAT))


def test_isabelle_defines_is_one_premise():
    import provers

    st = provers.parse(
        'theorem t: fixes x y :: real defines "y \\<equiv> 2 * x" assumes "x = 1" shows "y = 2"',
        "isabelle",
    )
    assert len(normalize(st).premises) == 2


# ------------------------------------------------------------------ Isabelle's radicals


def _premise(text: str):
    import provers

    (p,) = normalize(provers.parse(f'theorem\nfixes x :: real\nassumes "x = {text}"\nshows "x = 1"', "isabelle")).premises
    return p.args[1]


def test_a_radical_of_a_numeral_has_one_spelling():
    # isabelle_math_400 algebra/problem_1928: two classes of the same statement before
    assert _premise("root 4 5") == _premise("5 powr (1/4)") == _premise("5 powr 0.25")
    assert _premise("sqrt 5") == _premise("root 2 5") == _premise("5 powr (1/2)")
    assert _premise("8 powr (2/3)") == _premise("(root 3 8) ^ 2")
    assert _premise("3 powr 2") == _premise("3 ^ 2")


def test_radicals_of_what_may_be_negative_or_zero_are_left_alone():
    for text in ("x powr (1/3)", "(-8) powr (1/3)", "0 powr (1/2)", "5 powr (-1/2)", "5 powr 0"):
        assert _premise(text).op == "powr", text
    assert _premise("root 3 x").op == "root"


def test_the_radical_spelling_keeps_the_value():
    """A wrong rewrite (exponent inverted, root index off by one) changes the number."""
    from hypothesis import given
    from hypothesis import strategies as st_

    from provers.semantics.evaluate import evaluate

    @given(st_.integers(1, 60), st_.integers(1, 5), st_.integers(1, 7))
    def check(c, p, q):
        def number(v):
            return float(getattr(v, "value", v))

        written = number(evaluate(app("powr", num(c, REAL), app("div", num(p, REAL), num(q, REAL))), {}))
        got = number(evaluate(_premise(f"{c} powr ({p}/{q})"), {}))
        assert abs(got - written) <= 1e-9 * max(1.0, written), (c, p, q, got, written)

    check()


def test_notations_of_one_radical_are_one_class():
    import provers

    a = 'theorem\nfixes x :: real\nassumes h0 : "x = 4 / ((sqrt 5 + 1) * (root 4 5 + 1))"\nshows "(x + 1) powr 48 = 125"'
    b = a.replace("root 4 5", "5 powr (1/4)")
    v = provers.check_equivalence(provers.parse(a, "isabelle"), provers.parse(b, "isabelle"), relation="symbolic", timeout=1)
    assert str(v.status) == "equivalent", v


def test_a_universal_premise_over_a_conjunction_is_one_premise_per_fact():
    import provers
    from provers.ir import canon_key

    one = provers.parse("theorem t (k : ℕ) (h : ∀ n : ℕ, Nat.Coprime (6 * n + k) (6 * n + 3) ∧ "
                        "Nat.Coprime (6 * n + k) (6 * n + 1)) : 5 ≤ k := by sorry", "lean4")
    three = provers.parse("theorem t (k : ℕ) (h₁ : ∀ n, Nat.gcd (6 * n + k) (6 * n + 3) = 1) "
                          "(h₂ : ∀ n : ℕ, Nat.gcd (6 * n + k) (6 * n + 1) = 1) : 5 ≤ k := by sorry", "lean4")
    a, b = normalize(one).premises, normalize(three).premises
    assert len(a) == 2 and sorted(map(canon_key, a)) == sorted(map(canon_key, b))
    # a guard stays with each fact; an unused bound variable over an inhabited sort is dropped
    zero = num(0, REAL)
    guarded = normalize(st([x], [Quant("forall", (y,), implies(app("lt", zero, y), and_(Q, P)))], R)).premises
    assert [canon_key(p) for p in guarded] == [canon_key(Quant("forall", (y,), implies(app("lt", zero, y), f)))
                                               for f in (Q, P)]
    free = normalize(st([x], [Quant("forall", (y,), and_(P, Q))], R)).premises
    assert [canon_key(p) for p in free] == [canon_key(P), canon_key(Quant("forall", (y,), Q))]


@settings(max_examples=60, deadline=None)
@given(hst.integers(-50, 50), hst.sampled_from([("mod", NAT), ("emod", INT), ("fmod", INT)]))
def test_a_remainder_by_itself_is_zero_as_the_evaluator_computes_it(a, op_sort):
    """``a mod a`` is written 0 (``mod_self``, ``Nat.mod_self``, ``Int.emod_self``): the
    evaluator computes the unrewritten remainder as 0 at every a, 0 included (x mod 0 = x)."""
    op, sort = op_sort
    a = abs(a) if sort == NAT else a
    x = Var("x", sort)
    t = app(op, x, x)
    assert simplify_logic(t) == Num(0, sort)
    assert evaluate(t, {"x": a}) == 0


def test_a_remainder_by_itself_decides_a_set_of_the_real_data():
    """``card {n. 60 + n mod n = 0}`` (``prealgebra/problem_862``: ``mod`` binds tighter than
    ``+``) is the card of the empty set: it was "not a known finite set"."""
    s = provers.parse('theorem fixes n :: int shows "card {n. 60 + n mod n = 0} = 0"', "isabelle")
    assert evaluate(normalize(s).conclusion, {}) is True



@settings(max_examples=60, deadline=None)
@given(hst.lists(hst.fractions(min_value=-20, max_value=20, max_denominator=7), min_size=1, max_size=5),
       hst.sampled_from(["Min", "Max"]))
def test_the_extremum_of_a_literal_set_is_the_one_the_evaluator_computes(values, symbol):
    literal = app_sorted("set_of", SetSort(RAT), *[num(v, RAT) for v in values])
    written = Uninterpreted(symbol, (literal,), RAT)
    read = known_extremum(written)
    assert read is not None and not isinstance(read, Uninterpreted)
    assert evaluate(read, {}) == evaluate(written, {}) == (min if symbol == "Min" else max)(values)


@settings(max_examples=40, deadline=None)
@given(hst.fractions(min_value=-20, max_value=20, max_denominator=7),
       hst.sampled_from([("LEAST", "ge", 0), ("LEAST", "le", 1), ("GREATEST", "le", 0), ("GREATEST", "ge", 1),
                         ("LEAST", "eq", 0), ("GREATEST", "eq", 1)]))
def test_least_and_greatest_of_a_closed_ray_are_its_end_as_the_evaluator_computes(value, case):
    symbol, op, position = case
    v = Var("v", REAL)
    args = [num(value, REAL)] * 2
    args[position] = v
    written = Uninterpreted(symbol, (Lam((v,), app(op, *args)),), REAL)
    read = known_extremum(written)
    assert read == num(value, REAL)
    assert evaluate(written, {}) == value


def test_an_open_ray_or_the_wrong_end_has_no_extremum_to_read():
    v = Var("v", REAL)
    for symbol, body in (("LEAST", app("gt", v, num(2, REAL))),  # (2, ∞) has no least element
                         ("GREATEST", app("ge", v, num(2, REAL))),  # [2, ∞) has no greatest
                         ("LEAST", app("le", v, num(2, REAL)))):
        assert known_extremum(Uninterpreted(symbol, (Lam((v,), body),), REAL)) is None


def test_min_of_a_singleton_and_least_of_its_equation_are_the_value_itself():
    """``intermediate_algebra/problem_1838``: ``Min {E} = c``, ``Least (λx. E = x) = c`` and
    ``E = c`` say the same; ``problem_363``: ``2 = (LEAST x. x ≥ E)`` is ``E = 2``."""
    head = 'theorem fixes a b :: real assumes h0 : "a > 0" and h1 : "b > 0" shows '
    e = "(1 + a) * (1 + b) * (1 / a + 1 / b)"
    spellings = [f'"Min {{ {e} }} = 16"', f'"Least (\\<lambda>x. {e} = x) = 16"', f'"{e} = 16"']
    for other in spellings[:2]:
        v = provers.check_equivalence(head + other, head + spellings[2], relation="symbolic", language="isabelle")
        assert v.status == "equivalent", (other, v.reason)
    least = head + f'"2 = (LEAST x. x \\<ge> {e})"'
    assert provers.check_equivalence(least, head + f'"{e} = 2"', relation="symbolic",
                                     language="isabelle").status == "equivalent"
    wrong = provers.check_equivalence(least, head + f'"{e} = 3"', relation="symbolic", language="isabelle")
    assert wrong.status == "inequivalent"
