"""The selection defaults, chosen by cross-validation on isabelle_math_400 (docs/experiments.md,
"Selection on unseen problems"; ``experiments/selection_eval.py``): the configuration the
default's tuning procedure picks on all problems.  One place, so that the API, the CLI and
the docs cannot disagree; a light module, so that the CLI starts without the engine."""

from __future__ import annotations

#: weight of the symbolic score against the semantic one (log rule)
DEFAULT_ALPHA = 0.8
#: support per member of a class the engine could neither merge nor separate
DEFAULT_UNDECIDED_WEIGHT = 0.0
#: the same, times how alike the two statements are (rerank.consensus)
DEFAULT_CONSENSUS_WEIGHT = 0.5
DEFAULT_TRUTH_WEIGHT = 0.0
DEFAULT_SEMANTIC_TEXT = "whole"
DEFAULT_ANSWER_WEIGHT = 0.1
#: keep the first sample unless the best score beats it by more than this (None: only exact
#: ties keep it); the procedure on all problems picks 0.25 since stage 1 v9 (it left it off
#: on v6–v8: the curve is flat, docs/experiments.md)
DEFAULT_KEEP_FIRST_MARGIN: float | None = 0.25
