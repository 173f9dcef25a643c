"""Candidates -> classes -> scores -> selection.

::

    import rerank
    r = rerank.rerank(informal, candidates, n=1)     # -> rerank.Ranking
    r.selected, r.classes, r.symbolic, r.semantic, r.scores

``Reranker`` configures once and reranks many problems; ``Reranker.start(informal)`` gives
a session for generation loops.  Metrics live in ``rerank.metrics``.
"""

from rerank.api import Reranker, RerankSession, rerank
from rerank.cluster import RELATIONS, Clusterer, ClusterStats, cluster
from rerank.ranking import Ranking

__all__ = [
    "RELATIONS",
    "ClusterStats",
    "Clusterer",
    "Ranking",
    "RerankSession",
    "Reranker",
    "cluster",
    "rerank",
]
