"""The backend pass over alignments stops at the first one it leaves undecided
(``equivalence.BACKEND_UNDECIDED_ALIGNMENTS``): the verdict can then only be inconclusive,
and it says how many alignments were not sent to the solvers."""

from __future__ import annotations

from provers import check_equivalence
from provers.isabelle.parser import parse_isabelle

# precalculus/problem_27 of isabelle_math_400: three complex variables (six alignments, none
# refuted by sampling), premises on cmod and arg that the solvers time out on
A = """theorem
fixes a b c :: complex
assumes h0 : "cmod a = cmod b"
and h1 : "cmod b = cmod c"
and h2 : "arg a = arg b - pi/2"
and h3 : "arg b = arg c - pi/2"
shows  "(a * c + b\\<^sup>2) / (a * b) = Complex (Re (3/2)) (Im (3/2))"
"""
B = """theorem
fixes a b c :: complex
assumes h0 : "cmod (a - 0) = cmod (b - a)"
and h1 : "cmod (b - c) = cmod (c - 0)"
and h2 : "arg (a - 0) = arg (b - a) - pi / 2"
and h3 : "arg (b - c) = arg (c - 0) - pi / 2"
shows  "(c * a + b * b) / (a * b) = Complex (Re (3/2)) (Im (3/2))"
"""


def test_the_backend_pass_stops_at_an_undecided_alignment_and_says_so():
    v = check_equivalence(parse_isabelle(A), parse_isabelle(B), relation="symbolic", timeout=1.0)
    assert v.status == "inconclusive"
    assert "more alignment(s) not sent to the backend after an undecided one" in v.reason, v.reason
    assert v.solver_calls <= 12  # six alignments with two obligations each would be more


def test_a_proof_on_the_first_alignment_is_unaffected():
    a = 'theorem\nfixes x y :: real\nassumes h0 : "x * y = 6"\nand h1 : "x + y = 5"\nshows "x * x + y * y = 13"'
    b = 'theorem\nfixes u v :: real\nassumes h0 : "u + v = 5"\nand h1 : "u * v = 6"\nshows "u * u + v * v = 13"'
    assert check_equivalence(parse_isabelle(a), parse_isabelle(b), relation="symbolic", timeout=2.0).status == "equivalent"
