"""Refuting every alignment at one point: a model one side's definitions fix, against the
values the other side's definitions pin (``provers.engine.every_alignment``)."""

from hypothesis import given, settings
from hypothesis import strategies as st

from provers import check_equivalence

# geometry/problem_138 (isabelle_math_400), candidates 2 and 4: seven real variables, 5040
# alignments; s is 42 in one and 4·5·6·8·9·10/√3 in the other
SUM = """theorem fixes a b c d e f s :: real assumes h0 : "a = 4" and h1 : "b = 5" and h2 : "c = 6"
and h3 : "d = 8" and h4 : "e = 9" and h5 : "f = 10" and h6 : "s = a + b + c + d + e + f" shows  "s = 0\""""
PRODUCT = SUM.replace('"s = a + b + c + d + e + f"', '"s = (a * b * c * d * e * f) / (sqrt 3)"')


def _isabelle(values: list[int], conclusion: str) -> str:
    names = "abcdef"[: len(values)]
    assumes = " and ".join(f'h{i} : "{v} = {x}"' for i, (v, x) in enumerate(zip(names, values, strict=True)))
    return f'theorem fixes {" ".join(names)} :: int assumes {assumes} shows "{conclusion}"'


def test_a_model_fixed_by_definitions_refutes_all_5040_alignments():
    for relation in ("symbolic", "sae"):
        v = check_equivalence(SUM, PRODUCT, relation=relation, language="isabelle", timeout=1.0)
        assert v.status == "inequivalent", (relation, v.reason)
        assert "definitions fix" in v.reason and "5040" in v.reason, v.reason
        a, b = v.countermodel["A"], v.countermodel["B"]
        assert a["s"] == 42 and b["s"] == 42  # A's model, B's variables aligned onto it


def test_a_model_against_premises_that_fail_at_each_placement_of_its_values():
    # candidates 1 and 6: side_length is not pinned; p1…p6 must take 4…10 and side_length
    # then gets 7.25…, where side_length² = (4² + … + 10²)/6 fails
    other = """theorem fixes p1 p2 p3 p4 p5 p6 side_length :: real assumes h0 : "p1 = 4" and h1 : "p2 = 5"
and h2 : "p3 = 6" and h3 : "p4 = 8" and h4 : "p5 = 9" and h5 : "p6 = 10"
and h6 : "side_length ^ 2 = (p1 ^ 2 + p2 ^ 2 + p3 ^ 2 + p4 ^ 2 + p5 ^ 2 + p6 ^ 2) / 6" shows "side_length = 0\""""
    v = check_equivalence(PRODUCT.replace("(sqrt 3)", "3"), other, relation="sae", language="isabelle", timeout=1.0)
    assert v.status == "inequivalent", v.reason
    assert "fail wherever an alignment puts its variables" in v.reason
    assert v.countermodel["A"]["s"] == 28800  # 4·5·6·8·9·10/3: the model is the first side's


def test_the_same_pinned_values_under_other_names_are_never_refuted_this_way():
    # the values B pins are A's, spelled in another order: some alignment matches them
    a = _isabelle([1, 2, 3, 4, 5, 6], "a + b + c + d + e + f = 21")
    b = _isabelle([6, 5, 4, 3, 2, 1], "a + b + c + d + e + f = 21")
    v = check_equivalence(a, b, relation="symbolic", language="isabelle", timeout=1.0)
    assert v.status != "inequivalent", v.reason


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=6, max_size=6), st.lists(st.integers(-3, 3), min_size=6, max_size=6))
def test_pinned_values_that_differ_as_multisets_refute_and_equal_ones_never_do(xs, ys):
    # the conclusions agree under every alignment (a symmetric sum): only the premises can
    # differ (under `sae`: `symbolic` would also compare the sums as answers)
    a = _isabelle(xs, "a + b + c + d + e + f = 0")
    b = _isabelle(ys, "a + b + c + d + e + f = 0")
    v = check_equivalence(a, b, relation="sae", language="isabelle", timeout=1.0)
    if sorted(xs) == sorted(ys):
        assert v.status != "inequivalent", v.reason
    else:
        assert v.status == "inequivalent", v.reason
        point = sorted(v.countermodel["A"].values())
        # a model of one side (A's own, or B's aligned onto A's names), or a diagonal point
        assert point in (sorted(xs), sorted(ys)) or len(set(point)) == 1, point


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 3), min_size=5, max_size=5),
       st.dictionaries(st.sampled_from("pqrst"), st.integers(0, 3), max_size=5))
def test_the_placements_are_exactly_the_pin_respecting_permutations(values, pins):
    # brute force: every one-to-one placement of the point's values on p…t, kept when it
    # gives each pinned variable its value, deduplicated
    import itertools

    from provers.engine.every_alignment import aligned_assignments
    from provers.engine.normal import NormalForm
    from provers.ir import INT, TRUE, Var

    side = NormalForm(tuple(("forall", Var(n, INT)) for n in "abcde"), (), TRUE)
    other = NormalForm(tuple(("forall", Var(n, INT)) for n in "pqrst"), (), TRUE)
    point = dict(zip("abcde", values, strict=True))
    expected = {tuple(perm) for perm in itertools.permutations(values)
                if all(perm["pqrst".index(k)] == x for k, x in pins.items())}
    got = aligned_assignments(point, side, other, pins)
    assert got is not None
    assert {tuple(a[n] for n in "pqrst") for a in got} == expected
    assert len(got) == len(expected)  # no placement twice
