"""What the clustering learned about candidates beyond their classes, as plain data.

Most pairs of MATH-style candidates end ``inconclusive``: the engine could neither prove nor
refute them.  Class sizes then say nothing, and a selection that only counts classes falls
back on sample order.  This module reads the *partial* evidence the clusterer already has,
at no solver cost:

* per candidate: parse status, vacuity, canonical key (hashed), fingerprint (exact truth values at
  the diagonal points), and the *answer* of a numeric conclusion ``L ⋈ c`` (the closed
  value ``c``, e.g. ``7`` in ``shows "k = 7"``);
* per pair: how the clusterer settled it (:class:`rerank.cluster.PairDecision`), whether it
  could be separated without the engine (:func:`rerank.cluster.separated`), and whether the
  two answers agree.

:func:`problem_evidence` returns all of it as JSON-safe dicts, so that experiments can
cache it once and try scores without re-running the engine.
"""

from __future__ import annotations

import hashlib
import logging
from fractions import Fraction
from typing import Any

from provers.deadline import DeadlineExceeded
from provers.engine.profile import Profile
from provers.ir import IRError, Statement
from provers.semantics import evaluate
from rerank.cluster import Candidate, Clusterer, separated

log = logging.getLogger(__name__)

__all__ = ["answer_key", "answer_of", "candidate_evidence", "degenerate", "problem_evidence"]


def _json_value(v: Any) -> Any:
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, Fraction):
        return str(v)
    return repr(v)


def answer_of(c: Candidate) -> dict[str, Any] | None:
    """The numeric conclusion ``L ⋈ c`` of a parsed candidate: ``{"op", "value", "sort"}``
    with ``value`` the exact closed value of ``c`` as a string (None when not exact), or
    None when the conclusion is not such a comparison (read off the candidate's profile)."""
    if c.profile is None:
        return None
    std = c.profile.answer
    if std is None:
        return None
    lhs, op, rhs = std
    try:
        value = evaluate(rhs, {})
    except (DeadlineExceeded, ArithmeticError, ValueError) as e:  # not a value: no answer key
        log.debug("candidate %d: answer not evaluated: %s", c.index, e)
        value = None
    exact = isinstance(value, (int, Fraction)) and not isinstance(value, bool)
    return {"op": op, "value": str(value) if exact else None, "sort": str(lhs.sort)}


def answer_key(c: Candidate | dict[str, Any] | None) -> str | None:
    """``"eq 7"``: the comparison and exact value of a numeric conclusion, or None (also
    accepts the ``answer`` dict of :func:`answer_of`)."""
    a = answer_of(c) if isinstance(c, Candidate) else c
    if not a or a.get("value") is None:
        return None
    return f"{a['op']} {a['value']}"


def degenerate(statement: Statement | Profile) -> bool:
    """A statement that says nothing about its problem: its conclusion is ``True``, a
    comparison of a term with itself, or one of its own premises ("assumes k = 7 shows
    k = 7").  It is provable whatever the problem, so it is never a faithful formalization.
    (``Profile.degenerate``; a statement the engine cannot normalize is not called degenerate.)
    """
    if isinstance(statement, Profile):
        return statement.degenerate
    try:
        return Profile.of(statement, fingerprints=False).degenerate
    except (IRError, RecursionError, ValueError) as e:
        log.debug("degenerate: not normalized: %s", e)
        return False


def candidate_evidence(c: Candidate) -> dict[str, Any]:
    """One candidate's evidence as a JSON-safe dict."""
    fp = c.fingerprint
    return {
        "parsed": c.parsed,
        "error": c.error,
        "vacuous": c.vacuous,
        "holds": c.holds,
        "ill_formed": c.ill_formed,
        "key": None if c.key is None else hashlib.sha1(c.key.encode()).hexdigest()[:16],
        "flags": list(c.flags),
        "diagonal": None if fp is None or fp.diagonal is None else [list(p) for p in fp.diagonal],
        "answers": None if fp is None or fp.answers is None
        else [[_json_value(v), t] for v, t in fp.answers],
        "answer": answer_of(c),
        "degenerate": None if c.profile is None else c.profile.degenerate,
        "n_premises": None if c.statement is None
        else sum(1 for h in c.statement.hypotheses if h.style != "instance"),
    }


def problem_evidence(clusterer: Clusterer) -> dict[str, Any]:
    """Everything the clusterer knows about one problem's candidates (JSON-safe).

    ``separated[i][j]``: ``"signature"``/``"fingerprint"``/``"truth"`` when the pair is ruled out without
    the engine, ``None`` otherwise (also for unparsed candidates and the diagonal);
    ``decisions``: every pair the clusterer compared, in order."""
    cands = clusterer.candidates
    k = len(cands)
    sep: list[list[str | None]] = [[None] * k for _ in range(k)]
    for i in range(k):
        for j in range(i + 1, k):
            if cands[i].parsed and cands[j].parsed:
                sep[i][j] = sep[j][i] = separated(cands[i], cands[j])
    return {
        "candidates": [candidate_evidence(c) for c in cands],
        "decisions": [d.to_dict() for d in clusterer.decisions],
        "separated": sep,
    }
