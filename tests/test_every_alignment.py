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
        assert "definitions fix" in v.reason and "5040" in v.reason
        a, b = v.countermodel["A"], v.countermodel["B"]
        assert a["s"] == 42 and b["s"] == 42  # A's model, B's variables aligned onto it


def test_the_same_pinned_values_under_other_names_are_never_refuted_this_way():
    # the values B pins are A's, spelled in another order: some alignment matches them
    a = _isabelle([1, 2, 3, 4, 5, 6], "a + b + c + d + e + f = 21")
    b = _isabelle([6, 5, 4, 3, 2, 1], "a + b + c + d + e + f = 21")
    v = check_equivalence(a, b, relation="symbolic", language="isabelle", timeout=1.0)
    assert v.status != "inequivalent", v.reason


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-3, 3), min_size=6, max_size=6), st.lists(st.integers(-3, 3), min_size=6, max_size=6))
def test_pinned_values_that_differ_as_multisets_refute_and_equal_ones_never_do(xs, ys):
    # the conclusions agree under every alignment (a symmetric sum): only the premises can differ
    a = _isabelle(xs, "a + b + c + d + e + f = 0")
    b = _isabelle(ys, "a + b + c + d + e + f = 0")
    v = check_equivalence(a, b, relation="symbolic", language="isabelle", timeout=1.0)
    if sorted(xs) == sorted(ys):
        assert v.status != "inequivalent", v.reason
    else:
        assert v.status == "inequivalent", v.reason
        point = sorted(v.countermodel["A"].values())
        # a model of one side (A's own, or B's aligned onto A's names), or a diagonal point
        assert point in (sorted(xs), sorted(ys)) or len(set(point)) == 1, point
