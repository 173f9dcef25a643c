"""The IR's invariants: sorts are checked, numerals are exact, alpha-renaming is invisible."""

from fractions import Fraction

import pytest

from provers.ir import (
    INT,
    NAT,
    REAL,
    App,
    Hypothesis,
    IRError,
    Num,
    Quant,
    Statement,
    Var,
    VarBinder,
    app,
    canonical,
    cast,
    free_vars,
    num,
    substitute,
)


def test_sorts_are_checked():
    x, n = Var("x", REAL), Var("n", NAT)
    with pytest.raises(IRError):
        app("add", x, n)
    assert app("add", x, cast(n, REAL)).sort == REAL
    with pytest.raises(IRError):
        app("ediv", n, n)  # Int division only: Nat uses div
    with pytest.raises(IRError):
        cast(x, NAT)


def test_numerals_are_exact():
    assert num("0.5", REAL).value == Fraction(1, 2)
    assert num("4/2", REAL).value == 2 and isinstance(num("4/2", REAL).value, int)
    with pytest.raises(IRError):
        Num(-1, NAT)
    assert cast(num(3, NAT), INT) == Num(3, INT)


def test_canonical_form_ignores_bound_names():
    a = Quant("forall", (Var("x", REAL),), app("lt", Var("x", REAL), Var("c", REAL)))
    b = Quant("forall", (Var("y", REAL),), app("lt", Var("y", REAL), Var("c", REAL)))
    c = Quant("forall", (Var("y", REAL),), app("lt", Var("y", REAL), Var("d", REAL)))
    assert canonical(a) == canonical(b)
    assert canonical(a) != canonical(c)
    assert canonical(a, "_v") == canonical(c, "_v")


def test_substitution_avoids_capture():
    x, y = Var("x", REAL), Var("y", REAL)
    t = Quant("forall", (x,), app("eq", x, y))
    out = substitute(t, {y: x})
    assert isinstance(out, Quant) and out.vars[0] != x
    assert free_vars(out) == {x}


def test_statement_key_invariant_under_renaming():
    def mk(v: str, h: str) -> Statement:
        n = Var(v, NAT)
        return Statement((VarBinder(n), Hypothesis(h, app("lt", num(0, NAT), n))),
                         app("eq", app("sub", n, n), num(0, NAT)))

    assert mk("n", "h").canonical_key() == mk("m", "h0").canonical_key()
    assert isinstance(mk("n", "h").as_formula(), Quant)
    assert isinstance(mk("n", "h").as_formula().body, App)


def test_a_cache_by_identity_answers_the_same_object_and_recomputes_an_equal_copy():
    from provers.ir import by_identity

    calls = []

    @by_identity(maxsize=2)
    def names(t):
        calls.append(t)
        return frozenset(v.name for v in free_vars(t))

    x = Var("x", REAL)
    t = app("lt", x, num(1, REAL))
    copy = app("lt", Var("x", REAL), num(1, REAL))  # equal, another object
    assert names(t) == names(t) == names(copy) == {"x"}
    assert len(calls) == 2 and calls[0] is t and calls[1] is copy
    names.cache_clear()
    names(t)
    assert len(calls) == 3


def test_a_cache_by_identity_of_several_terms_needs_every_argument_to_be_the_same_object():
    from provers.ir import by_identity

    calls = []

    @by_identity()
    def both(s, t):
        calls.append((s, t))
        return frozenset(v.name for v in free_vars(s) | free_vars(t))

    x, y = Var("x", REAL), Var("y", REAL)
    s, t = app("lt", x, num(1, REAL)), app("lt", y, num(2, REAL))
    assert both(s, t) == both(s, t) == {"x", "y"}
    assert len(calls) == 1
    both(s, app("lt", Var("y", REAL), num(2, REAL)))  # the second one a copy: asked again
    both(t, s)  # another order: asked again
    assert len(calls) == 3


def test_the_node_classes_have_no_subclasses():
    """The walks and the evaluator dispatch on a node's exact class (``type(t) is App``): a
    subclass of a node class would be walked as a leaf."""
    from provers.ir import BigOp, Lam, SetBuilder, Uninterpreted

    for cls in (Var, Num, App, Uninterpreted, Quant, Lam, BigOp, SetBuilder):
        assert cls.__subclasses__() == [], cls


_PICKLED_IN = """
import pickle, sys
from provers.ir import INT, REAL, Quant, SetBuilder, Var, app, free_vars, num
x, n = Var("x", REAL), Var("n", INT)
t = Quant("forall", (x,), app("and", app("lt", x, num(1, REAL)), app("mem", n, SetBuilder(n, app("eq", n, n)))))
hash(t), free_vars(t)  # both remembered on the nodes
sys.stdout.buffer.write(pickle.dumps(t))
"""

_READ_IN = """
import pickle, sys
from provers.ir import INT, REAL, Quant, SetBuilder, Var, app, num
x, n = Var("x", REAL), Var("n", INT)
fresh = Quant("forall", (x,), app("and", app("lt", x, num(1, REAL)), app("mem", n, SetBuilder(n, app("eq", n, n)))))
read = pickle.loads(sys.stdin.buffer.read())
assert "_hash" not in read.__dict__ and "_free_vars" not in read.__dict__, read.__dict__
assert hash(read) == hash(fresh) and read == fresh and {fresh: 1}[read] == 1
print("ok")
"""


def test_a_term_pickled_in_one_process_is_found_by_hash_in_another():
    """A node keeps its hash once computed; a solver worker reads pickled terms with another
    string-hash seed, so the kept hash must not travel (a term would not be found in a dict)."""
    import os
    import subprocess
    import sys

    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

    def run(code: str, seed: str, data: bytes | None = None) -> bytes:
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": root}
        return subprocess.run([sys.executable, "-c", code], input=data, env=env, capture_output=True,
                              check=True, timeout=120).stdout

    assert run(_READ_IN, "2", run(_PICKLED_IN, "1")).strip() == b"ok"


def _reference_free_vars(t, bound=frozenset()):
    """Free variables by a plain walk, nothing remembered (applications, ∀ / ∃): what
    ``free_vars`` must agree with."""
    from provers.ir import children
    from provers.ir.traverse import bound_variables

    if isinstance(t, Var):
        return frozenset() if t in bound else frozenset({t})
    inner = bound | frozenset(bound_variables(t))
    out = frozenset()
    for c in children(t):
        if c in bound_variables(t):
            continue
        out |= _reference_free_vars(c, inner)
    return out


_X, _Y, _Z = Var("x", REAL), Var("y", REAL), Var("z", REAL)


def _real_terms():
    from hypothesis import strategies as st

    leaf = st.one_of(st.sampled_from([_X, _Y, _Z]), st.integers(-3, 3).map(lambda v: num(v, REAL)))
    return st.recursive(leaf, lambda sub: st.tuples(st.sampled_from(["add", "mul", "sub"]), sub, sub)
                        .map(lambda t: app(t[0], t[1], t[2])), max_leaves=8)


def _formulas():
    from hypothesis import strategies as st

    atom = st.tuples(st.sampled_from(["eq", "lt"]), _real_terms(), _real_terms()).map(lambda t: app(t[0], t[1], t[2]))
    return st.recursive(atom, lambda sub: st.one_of(
        st.tuples(sub, sub).map(lambda t: app("and", t[0], t[1])),
        st.tuples(st.sampled_from(["forall", "exists"]), st.sampled_from([_X, _Y]), sub)
        .map(lambda t: Quant(t[0], (t[1],), t[2]))), max_leaves=6)


def test_remembered_free_variables_and_hashes_agree_with_fresh_ones():
    """A node keeps its free variables and hash once computed; a term built from it by
    substitution (shared subterms, new nodes above them) still agrees with a plain walk, and
    with a copy whose nodes were never asked."""
    import pickle

    from hypothesis import given, settings
    from hypothesis import strategies as st

    @settings(max_examples=150, deadline=None)
    @given(_formulas(), st.sampled_from([_X, _Y, _Z]), _real_terms())
    def check(f, v, e):
        assert free_vars(f) == _reference_free_vars(f)
        hash(f)
        g = substitute(f, {v: e})
        assert free_vars(g) == _reference_free_vars(g) == free_vars(g)
        fresh = pickle.loads(pickle.dumps(g))
        assert fresh == g and hash(fresh) == hash(g) and free_vars(fresh) == free_vars(g)

    check()
