"""The equivalence engine: normal form → alignments → relation obligations → verdict.

``check_equivalence(a, b, relation=...)`` (re-exported as ``provers.check_equivalence``)
answers ``equivalent`` / ``inequivalent`` / ``inconclusive`` with a certificate.
"""
