"""Library functions the solvers see as uninterpreted and the evaluator computes exactly
(``semantics.library``): their values follow Mathlib's definitions (checked against brute-
force readings of those definitions, conventions at 0 included), and a countermodel through
them is now confirmed instead of dropped as "depends on an interpretation"."""

import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.ir import INT, NAT, RAT
from provers.isabelle.parser import parse_isabelle
from provers.semantics import decide
from provers.semantics.library import LIBRARY, library_value


def sae(a: str, b: str):
    return provers.check_equivalence(a, b, relation="sae", timeout=1.0)


@given(st.integers(0, 3000))
def test_totient_counts_the_coprime_residues(n):
    expected = sum(1 for k in range(1, n + 1) if math.gcd(k, n) == 1)  # φ 0 = 0
    assert library_value("Nat.totient", [n], [NAT]) == expected


@given(st.integers(-500, 500))
def test_squarefree_and_is_square_follow_their_definitions(n):
    m = abs(n)
    squarefree = m != 0 and all(m % (d * d) for d in range(2, m + 1) if d * d <= m)
    assert library_value("Squarefree", [n], [INT]) is squarefree
    assert library_value("IsSquare", [n], [INT]) is any(r * r == n for r in range(0, m + 1))


@given(st.fractions(max_denominator=50))
def test_num_and_den_are_the_reduced_fraction(q):
    num, den = library_value("Rat.num", [q], [RAT]), library_value("Rat.den", [q], [RAT])
    assert den > 0 and math.gcd(num, den) == 1 and Fraction(num, den) == q


def test_conventions_at_zero_and_below():
    assert library_value("Nat.primeFactors", [0], [NAT]) == frozenset()
    assert library_value("Nat.primeFactors", [360], [NAT]) == frozenset({2, 3, 5})
    assert library_value("Nat.primeFactorsList", [360], [NAT]) == (2, 2, 2, 3, 3, 5)
    assert library_value("Int.sqrt", [-7], [INT]) == 0 and library_value("Int.sqrt", [17], [INT]) == 4
    assert library_value("Nat.ofDigits", [10, (3, 2, 1)], [NAT, NAT]) == 123
    assert library_value("Squarefree", [0], [NAT]) is False and library_value("Squarefree", [1], [NAT]) is True
    # not exact, or the wrong number of arguments: not computed (the symbol stays undecided)
    assert library_value("Rat.den", [0.5], [RAT]) is None
    assert library_value("Nat.totient", [1, 2], [NAT, NAT]) is None
    assert set(LIBRARY) >= {"Rat.num", "Rat.den", "Nat.totient", "Squarefree", "IsSquare"}


def test_a_rational_denominator_premise_is_refuted_through_its_value():
    a = "theorem t (x : ℚ) (h : x.den = 2) : x.num ≠ 0 := sorry"
    v = sae(a, a.replace("x.den = 2", "x.den = 3"))
    assert v.status == "inequivalent", v.reason
    assert Fraction(v.countermodel["A"]["x"]).denominator in (2, 3)


@settings(max_examples=8, deadline=None)
@given(st.sampled_from([1, 2, 4, 6, 8, 10, 12, 16, 18, 20]), st.sampled_from([2, 4, 6, 8]))
def test_a_perturbed_totient_value_is_refuted(c, d):
    """c is a totient (of some n ≤ 2000): the first premise has models, none of the second's."""
    a = f"theorem t (n : ℕ) (h : Nat.totient n = {c}) : n ≤ 100 := sorry"
    v = sae(a, a.replace(f"= {c})", f"= {c + d})"))
    assert v.status == "inequivalent", v.reason
    n = v.countermodel["A"]["n"]
    assert library_value("Nat.totient", [n], [NAT]) in (c, c + d)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-50, 50), min_size=1, max_size=8))
def test_isabelle_max_and_min_of_a_finite_set_are_its_extremes(xs):
    items = ", ".join(str(x) for x in xs)
    for name, want in (("Max", max(xs)), ("Min", min(xs))):
        text = f'theorem\nshows "{name} {{{items}::int}} = {want}"'
        assert decide(parse_isabelle(text).conclusion, {}).value is True
        wrong = f'theorem\nshows "{name} {{{items}::int}} = {want + 1}"'
        assert decide(parse_isabelle(wrong).conclusion, {}).value is False


def test_isabelle_max_of_the_empty_set_is_unspecified():
    d = decide(parse_isabelle('theorem\nshows "Max ({}::int set) = 0"').conclusion, {})
    assert d.value is None and not d.exact


@settings(max_examples=40, deadline=None)
@given(st.integers(-2000, 2000), st.sampled_from(["nat", "int"]))
def test_isabelle_prime_factors_are_the_positive_primes_dividing_the_number(n, sort):
    if sort == "nat":
        n = abs(n)
    want = {p for p in range(2, abs(n) + 1) if abs(n) % p == 0 and all(p % q for q in range(2, math.isqrt(p) + 1))}
    text = f'theorem\nfixes n :: {sort}\nassumes "n = {n}"\nshows "card (prime_factors n) = {len(want)}"'
    st_ = parse_isabelle(text)
    env = {"n": n}
    assert decide(st_.conclusion, env).value is True
    wrong = parse_isabelle(text.replace(f"= {len(want)}\"", f"= {len(want) + 1}\""))
    assert decide(wrong.conclusion, env).value is False
    if want:
        member = parse_isabelle(f'theorem\nfixes n :: {sort}\nshows "{max(want)} \\<in> prime_factors n"')
        assert decide(member.conclusion, env).value is True


def test_isabelle_prime_factors_of_a_real_stay_undecided():
    st_ = parse_isabelle('theorem\nfixes x :: real\nshows "card (prime_factors x) = 0"')
    assert decide(st_.conclusion, {"x": 6}).value is None


@settings(max_examples=40, deadline=None)
@given(st.integers(-40, 40), st.integers(-40, 40))
def test_isabelle_integer_ranges_are_the_integers_between_their_ends(a, b):
    total = sum(range(a, b + 1))
    text = f'theorem\nfixes n :: int\nshows "sum_list [{a}..n] = {total}"'
    assert decide(parse_isabelle(text).conclusion, {"n": b}).value is True
    assert decide(parse_isabelle(text.replace(f"= {total}\"", f"= {total + 1}\"")).conclusion, {"n": b}).value is False
    lo, hi = abs(a), abs(b)
    count = max(0, hi - lo)
    upt = parse_isabelle(f'theorem\nfixes n :: nat\nshows "length [{lo}..<n] = {count}"')
    assert decide(upt.conclusion, {"n": hi}).value is True


@settings(max_examples=10, deadline=None)
@given(st.integers(-12, 12), st.integers(1, 3))
def test_the_sum_of_an_integer_range_with_a_symbolic_end_is_its_closed_form(a, k):
    """``sum_list [a..n]`` reaches the solvers as Σ i ∈ {a..n}. i (``rewrites._list_of_range``):
    Gauss's formula is proved for every n, a perturbed one refuted with a witness."""
    from provers.engine.equivalence import provable

    text = (f'theorem\nfixes n :: int\nassumes "n \\<ge> {a} - 1"\n'
            f'shows "2 * sum_list [{a}..n] = (n - {a} + 1) * ({a} + n){{}}"')
    assert provable(text.format(""), timeout=2.0, language="isabelle").status == "proved"
    bad = provable(text.format(f" + {k}"), timeout=2.0, language="isabelle")
    assert bad.status == "refuted"
    n = bad.model["n"]
    assert 2 * sum(range(a, n + 1)) != (n - a + 1) * (a + n) + k
    length = f'theorem\nfixes n :: nat\nassumes "n \\<ge> {abs(a)}"\nshows "length [{abs(a)}..<n] = n - {abs(a)}"'
    assert provable(length, timeout=2.0, language="isabelle").status == "proved"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(-9, 9), max_size=7))
def test_isabelle_list_literals_and_their_functions(xs):
    """``[a, b, c]`` is a list the evaluator holds as a tuple: sum_list, length, set, distinct,
    sorted, rev, hd and last of it are exact; hd and last of [] are unspecified (undecided)."""
    lit = "[" + ", ".join(str(x) for x in xs) + "]::int list" if xs else "[]::int list"
    facts = {f"sum_list ({lit}) = {sum(xs)}": True, f"length ({lit}) = {len(xs)}": True,
             f"distinct ({lit})": len(set(xs)) == len(xs), f"sorted ({lit})": xs == sorted(xs),
             f"rev ({lit}) = ({lit})": xs == xs[::-1], f"sum_list ({lit}) = {sum(xs) + 1}": False}
    if xs:
        facts[f"hd ({lit}) = {xs[0]}"] = True
        facts[f"last ({lit}) = {xs[-1]}"] = True
        facts[f"{xs[0]} \\<in> set ({lit})"] = True
        facts[f"{max(xs) + 1} \\<in> set ({lit})"] = False
    for text, want in facts.items():
        assert decide(parse_isabelle(f'theorem\nshows "{text}"').conclusion, {}).value is want, text
    if not xs:
        assert decide(parse_isabelle('theorem\nshows "hd ([]::int list) = 0"').conclusion, {}).value is None


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(0, 30), min_size=2, max_size=6), st.integers(1, 4))
def test_a_list_variable_defined_by_a_literal_reaches_the_solvers(xs, m):
    """``scores = [17, 10, 9]`` gives the list its value (``lower.literal_definitions``): the
    solvers see the sums it makes ground, and a countermodel carries the list back."""
    from provers.engine.equivalence import provable

    lit = ", ".join(str(x) for x in xs)
    total, k = sum(xs), len(xs)
    # (total + n) div (k + m) = q holds for the k + m values of n from q·(k + m) - total on
    q = (total + 2 * (k + m)) // (k + m)
    lo = q * (k + m) - total
    text = (f'theorem\nfixes scores :: "nat list" and n :: nat\nassumes "scores = [{lit}]"\n'
            f'and "{q} = (sum_list scores + n) div (length scores + {m})"\nshows "n \\<ge> {lo}"')
    assert provable(text, timeout=2.0, language="isabelle").status == "proved"
    bad = provable(text.replace(f"\\<ge> {lo}", f"\\<ge> {lo + 1}"), timeout=2.0, language="isabelle")
    assert bad.status == "refuted" and bad.model["n"] == lo and tuple(bad.model["scores"]) == tuple(xs)


def test_a_list_variable_without_a_literal_value_is_sampled_not_substituted():
    """No literal to substitute: a true statement is never refuted, a false one only at a
    sampled list the evaluator checks."""
    from provers.engine.equivalence import provable

    true = 'theorem\nfixes xs :: "nat list"\nassumes "length xs = 3"\nshows "sum_list xs \\<ge> 0"'
    assert provable(true, timeout=1.0, language="isabelle").status != "refuted"
    false = provable(true.replace("\\<ge> 0", "= 6"), timeout=1.0, language="isabelle")
    assert false.status == "refuted" and len(false.model["xs"]) == 3 and sum(false.model["xs"]) != 6


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=1, max_size=6), st.integers(1, 3))
def test_mathlib_list_literals_are_lists_too(xs, k):
    """Mathlib's ``[a, b, c]`` (``List.literal``) folds like Isabelle's: its sum and length are
    exact, and a list variable equal to one reaches the solvers by its value."""
    from provers.engine.equivalence import provable

    lit = ", ".join(str(x) for x in xs)
    closed = provers.parse(f"theorem t : [{lit}].sum = {sum(xs)} ∧ [{lit}].length = {len(xs)} := sorry", "lean4")
    assert decide(closed.conclusion, {}).value is True
    text = f"theorem t (l : List ℕ) (n : ℕ) (h₀ : l = [{lit}]) (h₁ : n = l.sum + {k}) : n = {sum(xs) + k} := sorry"
    assert provable(text, timeout=2.0, language="lean4").status == "proved"
    bad = provable(text.replace(f": n = {sum(xs) + k} :=", f": n = {sum(xs)} :="), timeout=2.0, language="lean4")
    assert bad.status == "refuted" and bad.model["n"] == sum(xs) + k


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 40), st.integers(0, 5000))
def test_nat_log_and_clog_are_mathlibs(b, n):
    """``Nat.log b n``: the largest k with b ^ k ≤ n (0 when b ≤ 1 or n < b); ``Nat.clog b n``:
    the least k with n ≤ b ^ k (0 when b ≤ 1 or n ≤ 1)."""
    log = library_value("Nat.log", [b, n], [NAT, NAT])
    clog = library_value("Nat.clog", [b, n], [NAT, NAT])
    if b <= 1 or n < b:
        assert log == 0
    else:
        assert b ** log <= n < b ** (log + 1)
    if b <= 1 or n <= 1:
        assert clog == 0
    else:
        assert b ** (clog - 1) < n <= b ** clog


@settings(max_examples=300, deadline=None)
@given(st.integers(-1000, 1000), st.integers(-50, 50))
def test_int_tdiv_and_tmod_round_toward_zero(a, b):
    q = library_value("Int.tdiv", [a, b], [INT, INT])
    r = library_value("Int.tmod", [a, b], [INT, INT])
    if b == 0:
        assert (q, r) == (0, a)
        return
    assert a == b * q + r and abs(r) < abs(b)
    assert r == 0 or (r > 0) == (a > 0)  # the remainder has the dividend's sign


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 3000))
def test_min_fac_fib_and_neg_succ(n):
    m = library_value("Nat.minFac", [n], [NAT])
    if n <= 1:
        assert m == (2 if n == 0 else 1)  # Nat.minFac_zero, Nat.minFac_one
    else:
        assert n % m == 0 and all(m % d for d in range(2, m)) and all(n % d for d in range(2, m))
    assert library_value("Int.negSucc", [n], [NAT]) == -(n + 1)
    if n <= 300:
        fib = [0, 1]
        while len(fib) <= n:
            fib.append(fib[-1] + fib[-2])
        assert library_value("Nat.fib", [n], [NAT]) == fib[n]
