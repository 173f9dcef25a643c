"""∃ over a function variable: the solvers must see the function's codomain (a soundness bug).

``∃ f : ℕ → ℕ, (∀ x, f x = x²+1) ∧ (∀ x, f x ≤ 50 → x = 1 ∨ x = 2)`` is false (f 0 = 1 ≤ 50).
ℕ is lowered to Int, and the fact ``0 ≤ f x`` of each application used to be stated only as a
guard of the ∀ x around it; nothing said at the ∃ f binder that f is ℕ-valued, so z3 chose
f x = -1, every ∀ held vacuously and the false statement was "proved" (negation unsat). The
range of a bound ℕ-valued function is now stated at its binder (``lower.Lowerer.quantifier``).
Every verdict below was wrong on main 658fa11: `equivalent` from that proof.
"""

import pytest

import provers
from provers.backends.base import Proved
from provers.backends.smt import Cvc5Backend, Portfolio, WorkerPool, Z3Backend
from provers.backends.smt.core import cint, core_app
from provers.backends.smt.lower import lower_obligation
from provers.deadline import Deadline
from provers.engine.answers import pin_answer
from provers.engine.equivalence import Prover, check_equivalence, default_backend
from provers.engine.formulas import trivial_obligation
from provers.engine.normal import normalize
from provers.ir import BOOL, INT, NAT, FunSort, Quant, Var, app, exists_, num, subterms

BODY = "(∀ x, f x = x*x+1) ∧ (∀ x, f x ≤ 50 → x = 1 ∨ x = 2)"
FALSE_EXISTS = f"theorem t : ∃ f : ℕ → ℕ, {BODY} := by sorry"
TRUE_STATEMENT = "theorem t : 1 = 1 := by sorry"
# a contradictory premise (the false ∃) next to a definition that pins y
WITH_FALSE_PREMISE = f"theorem t (y : ℕ) (h : ∃ f : ℕ → ℕ, {BODY}) (h2 : y = 3) : y = 3 := by sorry"
WITHOUT_IT = "theorem t (y : ℕ) (h2 : y = 3) : y = 3 := by sorry"


@pytest.fixture(scope="module")
def pool():
    p = WorkerPool(max_workers=2)
    yield p
    p.close()


def _obligation(text: str):
    return trivial_obligation(normalize(provers.parse(text, "lean4")))


@pytest.mark.parametrize("backend_cls", [Z3Backend, Cvc5Backend, Portfolio])
def test_a_false_existential_over_functions_is_never_proved(pool, backend_cls):
    r = backend_cls(pool=pool, use_cache=False).prove(_obligation(FALSE_EXISTS), 2.0)
    assert not isinstance(r, Proved), r


def test_the_binder_states_the_range_of_a_bound_nat_function():
    lowered = lower_obligation(_obligation(FALSE_EXISTS))
    (ex,) = [s for s in subterms(lowered.formula) if isinstance(s, Quant) and s.kind == "exists"]
    f = ex.vars[0]
    assert f.sort == FunSort((INT,), INT)
    # ∀ a ≥ 0, 0 ≤ f a is a conjunct of the ∃ body (not only a guard under the inner ∀ x)
    def is_range(c) -> bool:
        if not (isinstance(c, Quant) and c.kind == "forall" and len(c.vars) == 1):
            return False
        a = c.vars[0]
        nonneg = lambda t: core_app("le", BOOL, cint(0), t)  # noqa: E731
        return c.body == core_app("implies", BOOL, nonneg(a), nonneg(core_app("apply", INT, f, a)))

    assert any(is_range(c) for c in ex.body.args)


def test_an_existential_over_nat_functions_that_holds_is_still_proved(pool):
    f = Var("f", FunSort((NAT,), NAT))
    claim = exists_([f], app("eq", app("apply", f, num(0, NAT)), num(1, NAT)))
    assert isinstance(Z3Backend(pool=pool, use_cache=False).prove(claim, 5.0), Proved)


@pytest.mark.parametrize("relation", ["symbolic", "sae"])
def test_a_false_existential_premise_does_not_make_statements_equivalent(relation):
    v = check_equivalence(WITH_FALSE_PREMISE, WITHOUT_IT, relation=relation, language="lean4", timeout=2)
    assert v.status != "equivalent", v.reason


def test_a_false_existential_is_not_equivalent_to_a_true_statement():
    for relation in ("symbolic", "sae"):
        v = check_equivalence(FALSE_EXISTS, TRUE_STATEMENT, relation=relation, language="lean4", timeout=2)
        assert v.status != "equivalent", (relation, v.reason)


def test_pinning_finds_the_false_existential_premise_contradictory():
    """On main the pin was `pinned 3` with "premises not contradictory" proved by z3."""
    nf = normalize(provers.parse(WITH_FALSE_PREMISE, "lean4"))
    pin = pin_answer(nf, Prover(default_backend(), 3.0, Deadline.after(60), 24), "A")
    assert not pin.satisfiable
    assert pin.status == "vacuous", (pin.status, pin.reason)
