"""How alike two candidates' statements are: evidence for the pairs the engine left undecided.

Most MATH-style pairs end ``inconclusive``, so class sizes rarely separate candidates. Among
the candidates nothing rules out, the ones whose statements look like many others' are the
ones the samples agree on (minimum-Bayes-risk selection, with a textual risk). The
similarity is the weighted Jaccard index (Σ min / Σ max of the counts) of the token
multisets of each statement's alpha-canonical closed
formula (``∀ vars, hyps → conclusion`` with every variable renamed by position), so renaming
variables or hypotheses, or writing the same term in Lean or Isabelle notation, changes
nothing. It is only ever used as a weight on undecided pairs (:func:`rerank.scoring.support`):
it never merges classes and never outweighs a proof.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

from provers.ir import Statement
from provers.ir.display import show
from provers.ir.keys import canonical

__all__ = ["similarity_matrix", "statement_tokens"]

_TOKEN = re.compile(r"[^\W\d]\w*|\d+(?:/\d+)?|[^\s\w()]")


def statement_tokens(st: Statement) -> Counter[str]:
    """The multiset of names, numerals and operator symbols of ``st``'s canonical closed
    formula (a premise stated twice, or a term repeated, counts twice)."""
    return Counter(_tokens(st))


@lru_cache(maxsize=4096)
def _tokens(st: Statement) -> Counter[str]:
    # cached: an incremental session re-ranks the same statements after every new candidate
    # (hashing a statement costs ~1/10 of printing it); callers must not mutate the result
    return Counter(_TOKEN.findall(show(canonical(st.as_formula(), free_prefix="_v"))))


def similarity_matrix(statements: Sequence[Statement | None]) -> np.ndarray:
    """k × k weighted Jaccard similarities of the statements' token multisets (0 on the
    diagonal and for candidates that did not parse)."""
    toks = []
    for st in statements:
        try:
            toks.append(None if st is None else _tokens(st))
        except RecursionError:  # an enormous term: no similarity rather than no ranking
            toks.append(None)
    k = len(toks)
    out = np.zeros((k, k))
    rows = [i for i, t in enumerate(toks) if t]
    if len(rows) < 2:
        return out
    vocab = {w: j for j, w in enumerate({w for i in rows for w in toks[i]})}
    counts = np.zeros((len(rows), len(vocab)))
    for r, i in enumerate(rows):
        for w, c in toks[i].items():
            counts[r, vocab[w]] = c
    lo = np.minimum(counts[:, None, :], counts[None, :, :]).sum(-1)
    hi = np.maximum(counts[:, None, :], counts[None, :, :]).sum(-1)
    sim = lo / hi
    np.fill_diagonal(sim, 0.0)
    out[np.ix_(rows, rows)] = sim
    return out
