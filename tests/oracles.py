"""Ground-truth stand-ins for the equivalence engine, shared by the clusterer tests."""

from provers.backends.base import Backend, Unknown
from provers.ir import REAL, Statement, Var, VarBinder, app, num


class RecordingOracle:
    """The equivalence engine replaced by ground truth, to observe WHICH pairs the
    clusterer asks about (the real engine is exercised in test_rerank_api)."""

    def __init__(self, truth: list[int], inconclusive: frozenset = frozenset()):
        self.truth = truth
        self.inconclusive = inconclusive
        self.calls: list[tuple[int, int]] = []

    def __call__(self, a, b, relation, timeout):
        i, j = a.name, b.name
        self.calls.append((i, j))
        if frozenset((i, j)) in self.inconclusive:
            return "inconclusive"
        return "equivalent" if self.truth[i] == self.truth[j] else "inequivalent"


def distinct(i: int) -> Statement:
    # all distinct canonical forms, so every merge must come from the checker
    x = Var("x", REAL)
    return Statement((VarBinder(x),), app("eq", x, num(i, REAL)), name=i)


class AbstainingBackend(Backend):
    """A prover backend that answers every obligation Unknown and records what it was asked
    (obligation text, timeout): what the engine asks of the solvers when they decide nothing."""

    name = "abstaining"

    def __init__(self) -> None:
        self.asked: list[tuple[str, float]] = []

    def prove(self, obligation, timeout=5.0):
        self.asked.append((str(obligation), timeout))
        return Unknown("abstains", self.name)


class RecordingBackend(Backend):
    """The engine's default backend, recording what it is asked (obligation text, timeout)."""

    name = "recording"

    def __init__(self) -> None:
        from provers.engine.prover import default_backend

        self.inner = default_backend()
        self.asked: list[tuple[str, float]] = []

    def prove(self, obligation, timeout=5.0):
        self.asked.append((str(obligation), timeout))
        return self.inner.prove(obligation, timeout)
