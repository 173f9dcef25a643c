"""Reranking never merges statements that mean different things in Lean, and never picks a
candidate that carries commands (issue 12): the unsound pairs, one class each."""

from __future__ import annotations

import pytest

import rerank

PAIRS = [
    ("definitions differ",
     "def f (x : ℕ) : ℕ := x + 1\ntheorem t : f 1 = 2", "def f (x : ℕ) : ℕ := x + 5\ntheorem t : f 1 = 2"),
    ("abbrev types differ", "abbrev N := ℤ\ntheorem t (n : N) : n - 1 < n",
     "abbrev N := ℕ\ntheorem t (n : N) : n - 1 < n"),
    ("variable named as a known function", "theorem t : padicValNat 2 8 = 3",
     "theorem t (padicValNat : ℕ → ℕ → ℕ) : padicValNat 2 8 = 3"),
    ("defined constant vs variable", "def a : ℕ := 3\ntheorem t : a = 3", "theorem t (a : ℕ) : a = 3"),
    ("binder over an empty type", "theorem t (x : Fin 0) : (1 : ℕ) = 2", "theorem t : (1 : ℕ) = 2"),
    ("binder over Empty", "theorem t (x : Empty) : (1 : ℕ) = 2", "theorem t : (1 : ℕ) = 2"),
    ("function into an empty type", "theorem t (x : ℕ → Fin 0) : (1 : ℕ) = 2", "theorem t : (1 : ℕ) = 2"),
    ("untyped decimals are Float", "theorem t : 0.1 + 0.2 = 0.3", "theorem t : (0.1 : ℝ) + 0.2 = 0.3"),
    ("binder universes", "theorem t {α : Sort u} (x : α) : x = x", "theorem t {I : Type*} (x : I) : x = x"),
]


@pytest.mark.parametrize("relation", ["symbolic", "sae"])
@pytest.mark.parametrize("name, a, b", PAIRS, ids=[p[0] for p in PAIRS])
def test_unsound_pairs_form_two_classes(name: str, a: str, b: str, relation: str):
    informal = "a statement"
    r = rerank.rerank(informal, [a, b], informalizations=[informal, informal], n=1,
                      relation=relation, timeout=3)
    assert sorted(map(sorted, r.classes)) == [[0], [1]], (name, r.classes)
    assert not any(r.errors), r.errors


ATTACK = 'notation a " = " b => a ≠ b\ntheorem t : (1 : ℕ) = 2 := by sorry'


def test_a_candidate_with_a_command_is_unparseable_and_never_picked():
    informal = "1 equals 2"
    cands = [ATTACK, "theorem t : (1 : ℕ) = 2 := by sorry", "theorem u : (2 : ℕ) = 1 := by sorry",
             "theorem t : (1 : ℕ) = 2 := by sorry\n#eval IO.Process.exit 1"]
    r = rerank.rerank(informal, cands, informalizations=[informal] * 4, n=1, relation="symbolic")
    assert r.selected[0] in (1, 2)
    assert r.scores[0] == r.scores[3] == float("-inf")  # ranked after every parseable one
    assert "`notation`" in r.errors[0] and "`#eval`" in r.errors[3]
    assert "parse_error" in r.flags[0]
    assert [0] in r.classes and [3] in r.classes  # singletons: never merged with anything


def _attacks() -> list[tuple[str, str]]:
    from test_lean_commands import ATTACKS

    return [(a, names) for a, names, _ in ATTACKS]


@pytest.mark.parametrize("attack, names", _attacks(), ids=[n for _, n in _attacks()])
def test_every_attack_is_an_unparseable_singleton(attack: str, names: str):
    plain = "theorem t : (1 : ℕ) = 1 := by sorry"
    r = rerank.rerank("one equals one", [attack, plain], informalizations=["one equals one"] * 2,
                      n=1, relation="sae")
    assert r.selected == [1] and sorted(r.classes) == [[0], [1]]
    assert names in r.errors[0] and "parse_error" in r.flags[0]
