"""Normal form: presentation choices that do not change meaning are erased."""

from provers.engine.normal import normalize, simplify_logic
from provers.ir import (
    BOOL,
    FALSE,
    NAT,
    REAL,
    TYPE,
    Hypothesis,
    OpaqueSort,
    Quant,
    Statement,
    Uninterpreted,
    Var,
    VarBinder,
    and_,
    app,
    implies,
    not_,
    num,
)

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
    e = Quant("exists", (Var("k", NAT),), app("eq", n, app("mul", num(2, NAT), Var("k", NAT))))
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
    body = app("eq", app("mul", num(2, NAT), k), num(7, NAT))
    nf = normalize(st([], [], not_(Quant("exists", (k,), body))))
    assert nf.variables == (k,)
    assert nf.conclusion == app("ne", app("mul", num(2, NAT), k), num(7, NAT))


def test_isabelle_defines_is_one_premise():
    import provers

    st = provers.parse(
        'theorem t: fixes x y :: real defines "y \\<equiv> 2 * x" assumes "x = 1" shows "y = 2"',
        "isabelle",
    )
    assert len(normalize(st).premises) == 2
