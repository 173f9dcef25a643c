"""A guard dropped inside one side's ∀: ``(∀ȳ. G → P) ↔ (∀ȳ. P)`` is proved by the lemma
``∀ȳ. ¬G → P`` (formulas.dropped_guard_lemma), and never when the guard matters."""

from hypothesis import given, settings
from hypothesis import strategies as st

import provers
from provers.deadline import Deadline
from provers.engine.formulas import dropped_guard_lemma
from provers.engine.prover import Prover, default_backend
from provers.ir import INT, NAT, Quant, Var, app, num, show
from provers.status import Status

n, b = Var("n", NAT), Var("b", INT)


def _obligation(a: int, c: int):
    """∀ b. (∀ n ≥ a. ↑n + b ≥ c) ↔ (∀ n. ↑n + b ≥ c): equivalent exactly when a = 0."""
    body = app("ge", app("add", provers.ir.cast(n, INT), b), num(c, INT))
    guarded = Quant("forall", (n,), app("implies", app("ge", n, num(a, NAT)), body))
    return Quant("forall", (b,), app("iff", guarded, Quant("forall", (n,), body)))


def test_the_lemma_reads_the_guard_and_the_body():
    lemma, guard = dropped_guard_lemma(_obligation(0, 3))
    assert show(guard) == show(app("ge", n, num(0, NAT)))
    assert dropped_guard_lemma(Quant("forall", (b,), app("lt", b, num(0, INT)))) is None


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 3), st.integers(-2, 4))
def test_a_dropped_guard_is_proved_only_where_it_changes_nothing(a, c):
    prover = Prover(default_backend(), 2.0, Deadline.after(60))
    ob = prover("guard", _obligation(a, c), effort=1.0)
    if a == 0:  # n ≥ 0 holds for every ℕ: the two ∀s say the same
        assert ob.status == Status.PROVED, ob.detail
    else:  # b = c - a: the guarded ∀ holds, the bare one fails at n = 0
        assert ob.status != Status.PROVED, ob.detail


def test_gted_imo_1982_p1_premises_are_proved_equal():
    ref = ("theorem imo_1982_p1 (f : ℕ → ℕ) (h₀ : ∀ m n, 0 < m ∧ 0 < n → f (m + n) - f m - f n = 0 ∨ "
           "f (m + n) - f m - f n = 1) (h₁ : f 2 = 0) (h₂ : 0 < f 3) (h₃ : f 9999 = 3333) : f 1982 = 660 := by sorry")
    cand = ("theorem f1982 (f : ℕ → ℕ) (hf : f 2 = 0 ∧ f 3 > 0 ∧ f 9999 = 3333 ∧ ∀ m n, f (m + n) - f m - f n = 0 ∨ "
            "f (m + n) - f m - f n = 1) : f 1982 = 660 := by sorry")
    v = provers.check_equivalence(ref, cand, relation="sae", timeout=1.0)
    assert v.status == "equivalent", v.reason
    # the guard matters once ℕ's subtraction is not truncating the m = 0 case away
    wrong = cand.replace("f (m + n) - f m - f n = 0 ∨", "f (m + n) = f m + f n ∨")
    assert provers.check_equivalence(ref, wrong, relation="sae", timeout=1.0).status != "equivalent"
