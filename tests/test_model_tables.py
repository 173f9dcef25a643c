"""A z3 model's function interpretation read as its explicit entries (``Z3Emitter.table``)
is the same function as the general route's table over every combination of its literals."""

from fractions import Fraction

import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from provers.backends.smt.emit import Emitter, Z3Emitter
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
    assert fast == general and hash(fast) == hash(general)
    assert len(fast.entries) <= len(pts)  # the entries as z3 lists them, not their combinations
    for (a, b), v in pts.items():  # and both are the model's function at its points
        assert fast(a, b) == (v > 0 if boolean_result else v)


def test_equal_tables_listing_different_points_hash_alike():
    a = FunTable({(1,): Fraction(2), (3,): 0}, 0)
    b = FunTable({(1,): Fraction(2)}, 0)
    assert a == b and hash(a) == hash(b)
