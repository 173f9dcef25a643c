"""What IR terms mean: exact values, the exact evaluator, sampled assignments and fingerprints.

Modules: ``values`` (what terms evaluate to), ``approx`` (exact and approximate numbers
together), ``exact`` (exact arithmetic shared with the SMT lowering), ``domains`` (finite
domains of bound variables), ``evaluate`` (the evaluator and its table ``OPERATIONS``),
``samplers`` (assignments and fingerprints), ``algebraic`` (irrational algebraic values and
exact truth at them), ``interval``, ``surds`` and ``certify`` (certified comparisons of
transcendental values), ``closed_forms`` (sums with symbolic bounds). Import the public API
from here; see docs/semantics.md for every operation's meaning in Lean, Isabelle, here and in SMT.
"""

from provers.semantics.evaluate import OPERATIONS, PROBES, decide, evaluate, truth
from provers.semantics.samplers import (
    angle_points,
    fingerprint,
    integer_points,
    numeral_probes,
    sample_assignments,
)
from provers.semantics.values import (
    PRECISION_DPS,
    TOLERANCE,
    Approx,
    ApproxBool,
    Closure,
    Decision,
    ExactComplex,
    FunTable,
    Opaque,
    PredSet,
    Sequence,
    Undetermined,
    Value,
)

__all__ = [
    "OPERATIONS",
    "PRECISION_DPS",
    "PROBES",
    "TOLERANCE",
    "Approx",
    "ApproxBool",
    "Closure",
    "Decision",
    "ExactComplex",
    "FunTable",
    "Opaque",
    "PredSet",
    "Sequence",
    "Undetermined",
    "Value",
    "decide",
    "evaluate",
    "fingerprint",
    "numeral_probes",
    "integer_points",
    "angle_points",
    "sample_assignments",
    "truth",
]
