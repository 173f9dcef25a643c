"""What Isabelle's own checker rejects that the lenient frontend reads past
(``provers.isabelle.checker``), and how the selection uses it (the ``ill_formed`` demotion)."""

from __future__ import annotations

import pytest

from provers.isabelle.parser import parse_isabelle
from rerank.cluster import Clusterer
from rerank.scoring import DEMOTIONS, PoolEvidence, Selector

ASCII = '''theorem
fixes x :: real
assumes h0 : "x \\<noteq> 2"
shows "x + 1 \\<noteq> 3"'''


def test_ascii_symbols_are_well_formed():
    assert parse_isabelle(ASCII).checker_errors == ()


def test_a_raw_unicode_symbol_is_flagged_where_it_is_with_its_spelling():
    raw = ASCII.replace('"x \\<noteq> 2"', '"x ≠ 2"')
    st = parse_isabelle(raw)
    assert st == parse_isabelle(ASCII)  # the same meaning: it still clusters with the ASCII one
    (err,) = st.checker_errors
    assert "'≠' at line 3, column 17" in err and "\\<noteq>" in err


def test_unicode_inside_a_comment_is_not_flagged():
    st = parse_isabelle(ASCII.replace("theorem", "theorem (* x ≠ 2, λ *)"))
    assert st.checker_errors == ()


@pytest.mark.parametrize("fixes", ['"real^2"', '"real^3 set"', '"nat \\<Rightarrow> real^2"'])
def test_a_vector_type_needs_hol_analysis(fixes):
    st = parse_isabelle(f'theorem\nfixes v :: {fixes}\nshows "v = v"')
    assert any("HOL-Analysis" in e for e in st.checker_errors), st.checker_errors


def test_a_real_candidate_with_a_vector_type():
    # isabelle_math_400, precalculus/problem_357 candidate 4 (Isabelle rejects it in Complex_Main)
    st = parse_isabelle('''theorem
fixes v1 v2 :: "real^3"
assumes h0 : "v1 = vector [1, 4, -6]"
and h1 : "v2 = vector [2, -1, 3]"
shows  "v1 + v2 = vector [3, 3, -3]"''')
    assert [e for e in st.checker_errors if "real^3" in e]


@pytest.mark.parametrize(("fixes", "why"), [
    ('"int poly"', "HOL-Computational_Algebra"),
    ("point", "not defined in Complex_Main"),
    ("real2", "not defined in Complex_Main"),
    ('"nat multiset"', "HOL-Library"),
])
def test_a_type_complex_main_does_not_have(fixes, why):
    st = parse_isabelle(f'theorem\nfixes p :: {fixes}\nshows "p = p"')
    assert any(why in e for e in st.checker_errors), st.checker_errors


def test_complex_main_types_and_type_variables_are_fine():
    st = parse_isabelle('theorem\nfixes p :: "nat option" and q :: "\'a set" and r :: "int list"\nshows "p = p \\<and> q = q \\<and> r = r"')
    assert st.checker_errors == ()


def test_dist_on_pairs_needs_hol_analysis_but_not_on_reals():
    # isabelle_math_400, algebra/problem_24307 candidate 9 (rejected by the data's check)
    pairs = parse_isabelle('''theorem
fixes a b :: real
assumes h0 : "dist (0,0) (a,11) = dist (a,11) (b,37)"
and h1 : "dist (b,37) (0,0) = dist (0,0) (a,11)"
shows  "a * b = 315"''')
    assert any("Product_Vector" in e for e in pairs.checker_errors), pairs.checker_errors
    reals = parse_isabelle('theorem\nfixes a b :: real\nshows "dist a b = \\<bar>a - b\\<bar>"')
    assert reals.checker_errors == ()
    # a variable the user calls dist is theirs, whatever its type
    own = parse_isabelle('theorem\nfixes A B :: "real * real" and dist :: "real * real \\<Rightarrow> real * real \\<Rightarrow> real"\n'
                         'shows "dist A B = dist A B"')
    assert own.checker_errors == ()


@pytest.mark.parametrize("name", ["o", "O"])
def test_hol_composition_names_cannot_be_variables(name):
    st = parse_isabelle(f'theorem\nfixes e {name} :: "real \\<Rightarrow> real"\nassumes "\\<forall>x. e x = {name} x"\nshows "e 1 = {name} 1"')
    assert any("composition" in e for e in st.checker_errors), st.checker_errors


def test_pairs_and_powers_are_not_vector_types():
    st = parse_isabelle('theorem\nfixes p :: "real \\<times> real" and x :: real\nshows "x^2 \\<ge> 0 \\<and> fst p = fst p"')
    assert st.checker_errors == ()


def test_an_ill_formed_candidate_never_wins_but_still_supports_its_class():
    assert "ill_formed" in DEMOTIONS
    ev = PoolEvidence(classes=[[0, 1, 2], [3]], parsed=[True] * 4, ill_formed=[True, False, False, False])
    sem = [0.9, 0.1, 0.1, 0.2]
    out = Selector(alpha=1.0).select(ev, sem)
    assert out.order[0] in (1, 2)  # its class (size 3) still wins, through a well-formed member
    assert out.demoted[0] == "ill_formed"
    assert Selector(alpha=1.0, demote=()).select(ev, sem).order[0] in (0, 1, 2)


def test_the_clusterer_flags_it_and_the_evidence_keeps_it():
    c = Clusterer("syntactic", "isabelle", 1.0, check_vacuous=False, check_truth=False)
    c.extend([ASCII.replace('"x \\<noteq> 2"', '"x ≠ 2"'), ASCII])
    assert c.classes == [[0, 1]]
    assert [f for f in c.candidates[0].flags if f.startswith("ill_formed: raw Unicode")]
    assert c.candidates[0].ill_formed and not c.candidates[1].ill_formed
    assert PoolEvidence.from_clusterer(c).ill_formed == [True, False]


def test_records_without_the_field_take_it_from_a_reparse():
    cands = [{"parsed": True, "vacuous": None, "holds": None} for _ in range(2)]
    statements = [parse_isabelle(ASCII.replace('"x \\<noteq> 2"', '"x ≠ 2"')), parse_isabelle(ASCII)]
    ev = PoolEvidence.from_evidence({"candidates": cands, "decisions": []}, [[0, 1]], statements)
    assert ev.ill_formed == [True, False]


def test_a_theory_header_that_imports_hol_analysis_allows_its_types():
    body = 'theorem\nfixes v :: "real^2" and p q :: "real * real"\nshows "dist p q = dist q p \\<and> v = v"\n'
    assert len(parse_isabelle(body).checker_errors) == 2  # the vector type, dist on pairs
    own = parse_isabelle('theory Scratch\n  imports Complex_Main\nbegin\n' + body + 'end\n')
    assert len(own.checker_errors) == 2
    analysis = parse_isabelle('theory Scratch\n  imports Complex_Main "HOL-Analysis.Analysis"\nbegin\n' + body + 'end\n')
    assert analysis.checker_errors == ()
    assert analysis == parse_isabelle(body)  # the same statement either way


def test_set_functions_take_one_set():
    # isabelle_math_400 number_theory/problem_818: `Gcd (2*m) (3*n)` (rejected by the data's check)
    binary = parse_isabelle('theorem\nfixes m n :: nat\nassumes h0 : "m = 24*n + 51"\nshows "Gcd (2*m) (3*n) = 102"')
    assert any("Gcd takes one set" in e for e in binary.checker_errors), binary.checker_errors
    ok = parse_isabelle('theorem\nfixes m n :: nat\nshows "Gcd {2*m, 3*n} = gcd (2*m) (3*n) \\<and> Max {m, n} = max m n"')
    assert ok.checker_errors == ()


def test_a_verdict_says_when_a_statement_is_equivalent_in_meaning_but_rejected_as_text():
    import provers

    raw = ASCII.replace('"x \\<noteq> 2"', '"x ≠ 2"')
    v = provers.check_equivalence(ASCII, raw, relation="symbolic", timeout=1.0, language="isabelle")
    assert str(v.status) == "equivalent"
    (w,) = v.warnings
    assert w.startswith("B: Isabelle would reject the text: raw Unicode '≠'")
    assert "warning: B: Isabelle" in v.explain() and v.to_dict()["warnings"] == [w]
    assert provers.check_equivalence(ASCII, ASCII, relation="symbolic", timeout=1.0, language="isabelle").warnings == []


def test_continuous_takes_a_filter_first():
    # isabelle_math_400 algebra/problem_753 candidate 6 (rejected by the data's check)
    st = parse_isabelle('theorem\nfixes a :: real and f :: "real \\<Rightarrow> real"\nassumes h0 : "continuous f"\n'
                        'shows "a = 1 / 5"')
    assert any("continuous takes a filter first" in e for e in st.checker_errors), st.checker_errors
    ok = parse_isabelle('theorem\nfixes f :: "real \\<Rightarrow> real"\nassumes h0 : "continuous_on UNIV f"\nshows "f 0 = f 0"')
    assert ok.checker_errors == ()


def test_mod_and_gcd_on_declared_reals_are_type_errors_but_not_on_inferred_variables():
    # isabelle_math_400 algebra/problem_1900 candidate 5 (rejected by the data's check)
    st = parse_isabelle('theorem\nfixes ny_time travel_time :: real\nassumes h0 : "ny_time = 14"\n'
                        'shows "((ny_time + travel_time) mod 24) - 2 = 9"')
    assert any("mod on real" in e and "modulo" in e for e in st.checker_errors), st.checker_errors
    # algebra/problem_2792 candidate 2 (accepted: Isabelle types the free A, C as integers)
    free = parse_isabelle('theorem\nfixes a :: real\nassumes h0 : "a = (A + B * sqrt 3) / C"\nand h1 : "gcd A C = 1"\n'
                          'shows "A + B + C = 112"')
    assert free.checker_errors == ()
    # `div` on reals is a field's division (`/` abbreviates it): accepted, and read as such
    div = parse_isabelle('theorem\nfixes a b :: real\nshows "a div b = a / b"')
    assert div.checker_errors == () and div.conclusion.args[0] == div.conclusion.args[1]
    # counting_and_probability/problem_940 candidate 6 (accepted): a nat coerced to real in a mod
    nat = parse_isabelle('theorem\nfixes n :: nat\nassumes h0 : "n = 9 powr 3"\n'
                         'shows "card {x. x > 9 powr 4 \\<and> x < 9 powr 5 \\<and> x mod n = 0} = 71"')
    assert nat.checker_errors == ()


#: one statement per rule that only that rule flags (a new rule needs an example here)
RULE_EXAMPLES = {
    "raw_unicode": 'theorem\nfixes x :: real\nshows "x ≤ x"',
    "types": 'theorem\nfixes v :: "real^2"\nshows "v = v"',
    "polynomial_literal": 'theorem\nfixes a :: real\nassumes "poly [:5, 4, 3, 2:] a = 0"\nshows "a < 0"',
    "reserved_names": 'theorem\nfixes o :: real\nshows "o = o"',
    "constant_arguments": 'theorem\nfixes a b :: nat\nshows "Gcd a b = 1"',
    "class_instances": 'theorem\nfixes x :: real\nshows "x mod 2 = 0"',
}


def test_a_polynomial_literal_needs_computational_algebra_but_poly_of_a_list_parses():
    """``intermediate_algebra/problem_1749``: the paper's Isabelle (Complex_Main) rejected the
    two candidates writing ``[:5, 4, 3, 2:]`` and accepted the five applying ``poly`` to a list."""
    import provers

    literal = RULE_EXAMPLES["polynomial_literal"]
    (err,) = parse_isabelle(literal).checker_errors
    assert "HOL-Computational_Algebra" in err
    assert provers.parse(literal, "isabelle", imports=("HOL-Computational_Algebra.Polynomial",)).checker_errors == ()
    listed = literal.replace("[:5, 4, 3, 2:]", "[5, 4, 3, 2]")
    assert parse_isabelle(listed).checker_errors == ()
    commented = literal.replace("theorem", "theorem (* p = [:5, 4:] *)").replace("[:5, 4, 3, 2:]", "[5, 4, 3, 2]")
    assert parse_isabelle(commented).checker_errors == ()


def test_every_rule_has_an_example_that_only_it_flags():
    from provers.isabelle.checker import RULES

    assert sorted(r.__name__ for r in RULES) == sorted(RULE_EXAMPLES)
    for rule in RULES:
        text = RULE_EXAMPLES[rule.__name__]
        st = parse_isabelle(text)
        fired = [r.__name__ for r in RULES if r(text, st)]
        assert fired == [rule.__name__], (rule.__name__, fired, st.checker_errors)


def test_imports_given_by_the_caller_extend_the_context():
    import provers
    from rerank import Reranker

    vec = 'theorem\nfixes v :: "real^2"\nshows "v = v"'
    assert provers.parse(vec, "isabelle").checker_errors
    assert provers.parse(vec, "isabelle", imports=("HOL-Analysis.Analysis",)).checker_errors == ()
    c = Clusterer("syntactic", "isabelle", 1.0, check_vacuous=False, check_truth=False,
                  imports=("HOL-Analysis.Analysis",))
    c.extend([vec])
    assert not c.candidates[0].ill_formed
    with pytest.raises(ValueError, match="imports"):
        Reranker(language="isabelle", imports="HOL-Analysis.Analysis")
    rr = Reranker(language="isabelle", relation="syntactic", informalizer="none", check_vacuous=False,
                  check_truth=False, imports=("HOL-Analysis.Analysis",))
    r = rr.rerank("v equals itself", [vec, ASCII])
    assert not any(f.startswith("ill_formed") for f in r.flags[0])


@pytest.mark.parametrize(("text", "line", "column"), [
    (ASCII.replace('"x \\<noteq> 2"', '"x ≠ 2"'), 3, 17),
    ('theorem\nfixes x :: real and v :: "real ^ 2"\nshows "v = v"', 2, 27),
    ('theorem\nfixes p :: "int poly"\nshows "p = p"', 2, 17),
    ('theorem\nfixes a b :: nat\nshows "Gcd a b = 1"', 3, 8),
    ('theorem\nfixes x :: real\nshows "x mod 2 = 0"', 3, 10),
    ('theorem\nfixes a :: real\nassumes "poly [:5, 4, 3, 2:] a = 0"\nshows "a < 0"', 3, 15),
])
def test_strict_parsing_rejects_such_text_where_it_is(text, line, column):
    import provers
    from provers.errors import ParseError

    assert provers.parse(text, "isabelle").checker_errors  # lenient: read, with the errors listed
    with pytest.raises(ParseError, match="Isabelle would reject it") as e:
        provers.parse(text, "isabelle", strict=True)
    assert (e.value.line, e.value.column) == (line, column), str(e.value)
    assert provers.parse(ASCII, "isabelle", strict=True) == parse_isabelle(ASCII)


@pytest.mark.parametrize("text, says", [
    # intermediate_algebra/problem_835 #0: Complex_Main's measure is Wellfounded.measure
    ('theorem\nfixes S :: "complex set"\nshows "measure S = 2 * pi + 4"', "measure takes a function"),
    # …/problem_1930 #5: the measure of a set needs HOL-Analysis
    ('theorem\nfixes S :: "(real * real) set"\nshows "measure lborel S = 1 / 4"', "needs HOL-Analysis"),
    # number_theory/problem_981 #2: `a powr 2` with a :: nat is `real a powr 2`, so the mod is on real
    ('theorem\nfixes a b :: nat\nshows "((a powr 2 + b powr 2) mod 3) = 2"', "mod on real"),
    # number_theory/problem_818 #3 and problem_1260 #0: GCD is the binder `GCD x∈A. f x`
    ('theorem\nfixes m n :: nat\nshows "GCD (2*m) (3*n) = 102"', "binder GCD"),
    # number_theory/problem_373 #6: `next` starts an Isar command in `fixes`
    ('theorem\nfixes next :: "real \\<Rightarrow> real"\nshows "next 0 = 0"', "Isar command"),
    # precalculus/problem_892 #3: real_inner is HOL-Analysis's class
    ('theorem\nfixes a b :: "\'a::real_inner"\nshows "a = b"', "real_inner needs HOL-Analysis"),
    # precalculus/problem_357 #3: a vector type over a type variable
    ('theorem\nfixes a b :: "\'a^3"\nshows "a = b"', "needs HOL-Analysis"),
])
def test_what_the_papers_isabelle_rejected_and_this_checker_now_sees(text, says):
    """Each a candidate of isabelle_math_400 the paper's Isabelle rejected (``paper_syntax_ok``
    0) that the checker read as well-formed before stop 66."""
    errors = parse_isabelle(text).checker_errors
    assert any(says in e for e in errors), errors


@pytest.mark.parametrize("text", [
    # counting_and_probability/problem_940 #6 (accepted): x untyped, polymorphic in ln and modulo
    'theorem\nshows "card {x. x > 9 powr 4 \\<and> x mod 9 powr 3 = 0} = 71"',
    # a `next` or `show` only used, not fixed, is a free variable (problem_1054 #9, problem_771 #2)
    'theorem\nfixes x :: int\nassumes h0 : "next (x mod 11) > 0"\nshows "x > 0"',
    # emeasure: a free variable in Complex_Main (the paper's Isabelle accepted it)
    'theorem\nfixes S :: "real set"\nshows "emeasure lborel S = 2"',
    # a binary gcd, and Gcd of a set, are fine
    'theorem\nfixes m n :: nat\nshows "gcd m n = Gcd {m, n}"',
])
def test_what_the_papers_isabelle_accepted_stays_well_formed(text):
    assert parse_isabelle(text).checker_errors == ()
