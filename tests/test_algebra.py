"""Algebraic instance binders in the normal form (engine.algebra): products of a type whose
instance makes ``*`` associative are written one way, ``IsConj`` is unfolded in a group, and
nothing changes without such an instance."""

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.engine.normal import normalize
from provers.ir import canon_key

HEAD = "theorem t {G : Type*} [%s G] (a b c d : G) : "
provers.parse(HEAD % "Group" + "a = b := by sorry", "lean4")  # the parser raises the recursion limit once


def _conclusion_key(cls: str, expr: str) -> str:
    return canon_key(normalize(provers.parse(HEAD % cls + expr + " := by sorry", "lean4")).conclusion)


leaves = st.lists(st.sampled_from("abc"), min_size=1, max_size=5)


@st.composite
def products(draw):
    """A product of the drawn leaves, parenthesized at random: (text, leaves)."""
    names = draw(leaves)

    def build(xs):
        if len(xs) == 1:
            return xs[0]
        k = draw(st.integers(1, len(xs) - 1))
        return f"({build(xs[:k])} * {build(xs[k:])})"

    return build(names), names


# S3 as permutations of (0, 1, 2): associative, not commutative
S3 = list(itertools.permutations(range(3)))


def _value(names, env):
    out = (0, 1, 2)
    for n in names:
        out = tuple(env[n][i] for i in out)
    return out


@settings(max_examples=60, deadline=None)
@given(products(), products())
def test_one_key_exactly_for_one_product_in_a_semigroup(p, q):
    (text_p, names_p), (text_q, names_q) = p, q
    same = _conclusion_key("Semigroup", f"{text_p} = d") == _conclusion_key("Semigroup", f"{text_q} = d")
    assert same == (names_p == names_q)
    if same:  # sound: equal in a real non-commutative group under every assignment tried
        rng = random.Random(0)
        for _ in range(10):
            env = {n: rng.choice(S3) for n in "abc"}
            assert _value(names_p, env) == _value(names_q, env)


def test_without_an_associative_instance_nothing_is_regrouped():
    assert _conclusion_key("Mul", "a * b * c = d") != _conclusion_key("Mul", "a * (b * c) = d")
    # beside a bare `[Mul G]` Lean may take that instance's `*`, which need not be associative
    assert _conclusion_key("Group G] [Mul", "a * b * c = d") != _conclusion_key("Group G] [Mul", "a * (b * c) = d")
    assert _conclusion_key("Group", "a * b * c = d") == _conclusion_key("Group", "a * (b * c) = d")
    # sums of an additive group likewise, and not products of it
    assert _conclusion_key("AddGroup", "a + b + c = d") == _conclusion_key("AddGroup", "a + (b + c) = d")


def test_is_conj_is_unfolded_in_a_group_only():
    group = normalize(provers.parse(HEAD % "Group" + "IsConj a b := by sorry", "lean4")).conclusion
    assert "IsConj" not in repr(group) and "Inv.inv" in repr(group)
    monoid = normalize(provers.parse(HEAD % "Monoid" + "IsConj a b := by sorry", "lean4")).conclusion
    assert "IsConj" in repr(monoid)


def test_gted_exercise_2_3_2_is_proved_equal_to_its_reference():
    ref = "theorem exercise_2_3_2 {G : Type*} [Group G] (a b : G) : ∃ g : G, b* a = g * a * b * g⁻¹ := by sorry"
    cand = "theorem isConj_mul_comm (a b : G) [Group G] : IsConj (a * b) (b * a) := by sorry"
    v = provers.check_equivalence(ref, cand, relation="sae", timeout=1.0)
    assert v.status == "equivalent", v.reason
    # conjugating the other way round is another statement
    other = cand.replace("IsConj (a * b) (b * a)", "IsConj (a * b) (b * b)")
    assert provers.check_equivalence(ref, other, relation="sae", timeout=1.0).status != "equivalent"
