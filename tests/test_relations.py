"""Relations under one alignment: obligations, tree matching, standardization."""

from provers.deadline import Deadline
from provers.engine.align import Alignment
from provers.engine.formulas import canon_key, standardize
from provers.engine.normal import normalize
from provers.engine.prover import Prover
from provers.engine.relations import (
    PROVED,
    REFUTED,
    STRUCTURAL,
    check_sae,
    check_symbolic,
    check_syntactic,
    rename_onto,
    syntactic_key,
)
from provers.ir import (
    INT,
    NAT,
    RAT,
    REAL,
    Hypothesis,
    Quant,
    Statement,
    Var,
    VarBinder,
    and_,
    app,
    num,
    or_,
)

x, y, z = (Var(s, REAL) for s in "xyz")
r = lambda v: num(v, REAL)  # noqa: E731


def nf(vs, hyps, concl):
    return normalize(Statement(tuple(VarBinder(v) for v in vs) + tuple(Hypothesis(None, h) for h in hyps), concl))


def prover():
    return Prover(backend=None, timeout=1.0, deadline=Deadline.after(30))


def test_canon_key_orders_commutative_operands_and_flips_gt():
    assert canon_key(app("gt", x, y)) == canon_key(app("lt", y, x))
    assert canon_key(app("eq", app("add", x, y), r(1))) == canon_key(app("eq", r(1), app("add", y, x)))
    assert canon_key(app("lt", x, y)) != canon_key(app("lt", y, x))
    assert canon_key(app("sub", x, y)) != canon_key(app("sub", y, x))
    q1 = Quant("exists", (Var("k", REAL),), app("eq", x, Var("k", REAL)))
    q2 = Quant("exists", (Var("m", REAL),), app("eq", x, Var("m", REAL)))
    assert canon_key(q1) == canon_key(q2)


def test_syntactic_relation_is_order_insensitive_for_premises():
    A = nf([x, y], [app("lt", x, y), app("lt", r(0), x)], app("lt", r(0), y))
    B = nf([x, y], [app("gt", x, r(0)), app("lt", x, y)], app("gt", y, r(0)))
    assert syntactic_key(A) == syntactic_key(B)
    assert check_syntactic(A, B).status == PROVED
    C = nf([x, y], [app("lt", x, y)], app("lt", r(0), y))
    assert check_syntactic(A, C).status == STRUCTURAL


def test_sae_tree_matching_is_unordered_on_conjunctions_and_uses_dual_relations():
    A = nf([x, y], [], and_(app("lt", x, y), app("eq", x, r(1)), app("le", y, r(5))))
    B = nf([x, y], [], and_(app("ge", r(5), y), app("eq", r(1), x), app("gt", y, x)))
    out = check_sae(A, B, prover())
    assert out.status == PROVED, out.reason


def test_sae_tree_matching_structural_failures():
    A = nf([x, y], [], and_(app("lt", x, y), app("eq", x, r(1))))
    B = nf([x, y], [], or_(app("lt", x, y), app("eq", x, r(1))))
    out = check_sae(A, B, prover())
    assert out.status in (STRUCTURAL, REFUTED)
    C = nf([x, y], [], and_(app("lt", x, y), app("eq", x, r(1)), app("le", x, y)))
    assert check_sae(A, C, prover()).ruled_out


def test_sae_leaf_rule_identifies_equal_values_of_the_same_sort():
    # Faithful to SAE's leaf rule: n + 0 = n and m = m match under n ↔ m (E1 = E1', E2 = E2').
    n, m = Var("n", NAT), Var("m", NAT)
    A = nf([n], [], app("eq", app("add", n, num(0, NAT)), n))
    B = nf([m], [], app("eq", m, m))
    out = check_sae(A, rename_onto(B, Alignment(((n, m),), 0.0)), prover())
    assert out.status != REFUTED and not out.ruled_out


def _closed(concl):
    return normalize(Statement((), concl))


def test_sae_leaf_compares_numbers_of_different_sorts_as_values():
    # `5 ^ 30 % 7 = 1` over ℕ against `(5 ^ 30 : ℤ) % 7 = 1 % 7` (`Int.ModEq`): equal values
    five = app("mod", app("pow", num(5, NAT), num(30, NAT)), num(7, NAT))
    A = _closed(app("eq", five, num(1, NAT)))
    five_z = app("emod", app("pow", num(5, INT), num(30, NAT)), num(7, INT))
    B = _closed(app("eq", five_z, app("emod", num(1, INT), num(7, INT))))
    assert check_sae(A, B, prover()).status == PROVED
    # the same fraction over ℚ and ℝ
    q = lambda s: app("div", num(7, s), num(3, s))  # noqa: E731
    assert check_sae(_closed(app("lt", q(RAT), num(3, RAT))), _closed(app("gt", num(3, REAL), q(REAL))),
                     prover()).status == PROVED


def test_sae_leaf_across_sorts_keeps_each_sorts_arithmetic():
    # ℕ's 7 / 3 is 2, ℝ's is 7/3: the values differ, the leaves do not match
    A = _closed(app("eq", app("div", num(7, NAT), num(3, NAT)), num(2, NAT)))
    B = _closed(app("eq", app("div", num(7, REAL), num(3, REAL)), num(2, REAL)))
    out = check_sae(A, B, prover())
    assert out.ruled_out, out.reason
    # both sides true, yet E1 = E1' fails: a sort change that moves a value is seen
    C = _closed(app("eq", app("div", num(7, REAL), num(3, REAL)), app("div", num(7, REAL), num(3, REAL))))
    assert check_sae(A, C, prover()).ruled_out


def test_sae_premises_refuted_by_fingerprint_with_a_model():
    A = nf([x], [app("lt", r(0), x)], app("lt", r(0), app("mul", x, x)))
    B = nf([x], [app("ne", x, r(0))], app("lt", r(0), app("mul", x, x)))
    out = check_sae(A, B, prover())
    assert out.status == REFUTED and out.model is not None
    assert out.model["x"] < 0


def test_symbolic_allows_premise_free_against_tautological_premises_only_by_proof():
    A = nf([x], [], app("le", r(0), app("mul", x, x)))
    out = check_symbolic(A, A, prover())
    assert out.status == PROVED


def test_standardize_reads_numeric_conclusions_either_way():
    A = nf([x], [app("eq", x, r(2))], app("eq", app("add", x, r(1)), r(3)))
    B = nf([x], [app("eq", x, r(2))], app("lt", r(3), app("add", x, r(1))))
    la, opa, ca = standardize(A)
    assert opa == "eq" and ca == r(3)
    lb, opb, cb = standardize(B)
    assert opb == "gt" and lb == app("add", x, r(1))
    assert standardize(nf([x, y], [], app("lt", x, y))) is None


def test_canon_key_is_stable_when_conjuncts_with_binders_are_reordered():
    k, m = Var("k", REAL), Var("m", REAL)
    p = Quant("forall", (k,), app("le", r(0), app("mul", k, k)))
    q = Quant("exists", (m,), app("eq", x, app("add", m, m)))
    assert canon_key(and_(p, q)) == canon_key(and_(q, p))
    # distinct binders stay distinct: ∀k ∃m. k < m is not ∀k ∃m. m < k
    f1 = Quant("forall", (k,), Quant("exists", (m,), app("lt", k, m)))
    f2 = Quant("forall", (k,), Quant("exists", (m,), app("lt", m, k)))
    assert canon_key(f1) != canon_key(f2)
