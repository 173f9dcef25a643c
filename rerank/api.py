"""Rerank k candidate formalizations of one informal statement: the public entry points.

::

    import rerank
    r = rerank.rerank(informal, candidates, n=1)            # one problem, defaults
    rr = rerank.Reranker(relation="symbolic", rule="log", alpha=0.5)
    r = rr(informal, candidates, informalizations=texts)    # configure once, call per problem
    s = rr.start(informal)                                  # generation loop
    s.add(candidate); s.ranking(n=3)

Scores: symbolic = size of the candidate's equivalence class / k (:mod:`rerank.cluster`);
semantic = cosine(embed(back-translation), embed(informal)) where the back-translation is
the given informalization, else the configured informalizer's (rule-based by default).
Both are normalized and combined (:mod:`rerank.combine`); the top n are picked one class at
a time (:mod:`rerank.select`).

Selection (:mod:`rerank.scoring`): a candidate that does not parse never comes before one
that does (its combined score is ``-inf``); a vacuous, degenerate or refuted candidate never
comes before a sound one; classes the engine could not separate lend each other support
(``undecided_weight``, plus ``consensus_weight`` times how alike their statements are:
:mod:`rerank.consensus`) and a proved statement counts more (``truth_weight``); ties go to
the evidence, then to the sample order; where the best candidate's score beats the first
sample's by no more than ``keep_first_margin``, the first sample stands.  An optional
prior per candidate (log-probabilities, sample order, a greedy flag: :mod:`rerank.prior`)
is a third score weighted by ``prior_weight``.
"""

from __future__ import annotations

import inspect
import math
import time
from collections.abc import Hashable, MutableMapping, Sequence
from fractions import Fraction
from typing import Any

import numpy as np

from embeddings import DEFAULT_MODEL, shared_embedder
from embeddings.embed import PRECISIONS
from embeddings.rule_informalizer import RuleInformalizer
from provers.deadline import check_seconds
from provers.ir import Statement
from rerank.cluster import RELATIONS, Clusterer, check_ill_formed_mode
from rerank.combine import NORMALIZERS, RULES, ScoreCombiner
from rerank.defaults import (
    DEFAULT_ALPHA,
    DEFAULT_ANSWER_WEIGHT,
    DEFAULT_CONSENSUS_WEIGHT,
    DEFAULT_KEEP_FIRST_MARGIN,
    DEFAULT_SEMANTIC_TEXT,
    DEFAULT_TRUTH_WEIGHT,
    DEFAULT_UNDECIDED_WEIGHT,
)
from rerank.prior import prior_vector
from rerank.ranking import Ranking
from rerank.schedule import AnytimeClusterer, check_budget
from rerank.scoring import DEMOTIONS, PoolEvidence, Selector
from rerank.select import behind

__all__ = ["Reranker", "RerankSession", "rerank"]


INFORMALIZERS = ("rule", "given", "none")
SEMANTIC_TEXTS = ("whole", "question")



class Reranker:
    """Configure once, rerank many problems (scikit-learn style: parameters are the
    constructor arguments, :meth:`get_params` returns them).

    Parameters
    ----------
    n: how many candidates to select (best first, one per class while classes remain).
    rule, alpha: combination rule (``log``, ``linear``, ``quadratic``) and the weight of the
        symbolic score (1 = symbolic only, 0 = semantic only).
    normalize, temperature: per-pool normalization of both scores (``sum`` or ``softmax``).
    relation: equivalence relation for the classes (``symbolic``, ``sae``, ``logical``,
        ``syntactic``).
    language: ``lean4`` or ``isabelle``.
    imports: (Isabelle) theories beyond ``Complex_Main`` the candidates are checked with
        (``("HOL-Analysis.Analysis",)``): text they make valid (``real^2``, ``dist`` on pairs)
        is not flagged ``ill_formed`` nor demoted.
    compare_ill_formed: what becomes of a candidate the prover's own checker rejects.
        ``"identical"`` (default): it joins the class of the same statement (a pool repeats
        itself) and is separated by the solver-free screens, but the engine is never asked
        about it: what it would prove is our reading of text the prover gives no meaning.
        ``True``: compared like any other, its meaning as we read it counting for its class;
        ``False``: left apart like an unparsed one (a class of its own, flagged, no engine
        work, no vacuity test). On ``isabelle_math_400`` (docs/benchmarks.md, stop 67; True →
        "identical" → False): inconclusive checks 2.565 → 1.935 → 1.9375 per problem; 1@k of
        the default's procedure 53.5 → 53.6 → 53.9 under ``label+syntax``, 56.2 → 55.5 → 54.6
        under ``label``.
    timeout: seconds of the longest solver call: the obligations of a check get 0.15 ×
        timeout (``provers.engine.verdict.QUICK``: measured, solvers that answer do so early),
        a candidate's vacuity test 0.3 × timeout (``rerank.cluster.VACUITY_SHARE``); a whole
        equivalence check gets 4 × timeout, a candidate's fingerprint ``timeout``.
    problem_timeout: seconds of engine time for one problem (parsing, fingerprints, vacuity
        and equivalence checks); once spent, later pairs are left unchecked (the candidates
        stay apart and are flagged). None: no limit beyond the per-check budgets.
    informalizer: ``"rule"`` (read the IR back as English), ``"given"`` (only the
        informalizations passed in), ``"none"``, or an ``embeddings.Informalizer`` instance.
    embedder: a sentence-transformers model name/path or an ``embeddings.Embedder``
        (default: the packaged all-MiniLM-L6-v2, loaded once per process);
        ``embeddings.STATIC_MODEL`` is its static distillation, built locally on first use:
        about 60x faster per problem with the same 1@k out of fold, where the procedure
        chose this class's default selector settings (docs/experiments.md).
    embed_precision: ``"float32"`` (default) or ``"bfloat16"``, the arithmetic of the model
        ``embedder`` names (about 2x faster on a CPU with native bfloat16,
        ``embeddings.embed.native_bfloat16()``; its own vectors and cache key); not used
        when ``embedder`` is an object.
    fingerprints: refute pairs by sampled exact evaluation before any solver runs.
    check_vacuous: ask the engine whether each candidate's premises are contradictory.
    check_truth: ask the engine whether each candidate holds outright (one short prover
        call per candidate, a shorter one where the vacuity test left the premises undecided:
        ``rerank.cluster.UNDECIDED_PREMISES_TRUTH_SHARE``): a refuted statement is never a
        faithful formalization of a true problem, a proved one counts ``1 + truth_weight`` times.
        With ``truth_weight`` 0 only refutations are used and the call is cut to
        ``rerank.cluster.REFUTE_TRUTH_SHARE`` of its budget.
    penalize_vacuous: vacuous, degenerate (conclusion ``True``, ``t = t``, or one of its
        own premises) and refuted candidates never come before a sound one.
    exclude_unparsed: an unparseable candidate is ranked after every parseable one.
    undecided_weight: support a class gets from each class the engine could neither merge
        with it nor separate from it, per member (0: plain class sizes).
    consensus_weight: further support per member of such an undecided class, times the
        similarity of the two statements' canonical forms (Jaccard of their tokens, in
        [0, 1]): among candidates nothing separates, the ones most samples resemble win.
    truth_weight: extra weight of a class whose statement was proved outright.
    semantic_text: ``"question"`` embeds the informal text and each back-translation
        without their trailing "The final answer is ..." sentence (answers are compared
        exactly instead, with ``answer_weight``); ``"whole"`` embeds the whole texts.
    answer_weight: added to the semantic score when the candidate's numeric answer equals
        the one stated in the informal text, subtracted when it differs.
    prior_weight: weight of the per-candidate prior passed to :meth:`rerank` (0: ignored).
    keep_first_margin: keep candidate 0 when the best combined score beats its score by
        no more than this (None: off).
    tie_break: ``"evidence"`` (support, then semantic score, then sample order) or
        ``"index"`` (sample order) among equal combined scores.
    cache: a mapping shared across problems for verdicts keyed by canonical forms
        (default: a fresh dict per Reranker).
    budget: seconds of work per problem for an *anytime* ranking (:mod:`rerank.schedule`):
        cheap screens first, then equivalence checks between the representatives of the
        largest classes, then the rest, until the budget is spent; pairs left unchecked are
        undecided (the candidates stay apart) and ``Ranking.complete`` is False. A decided
        pair has the same verdict as without a budget. ``math.inf``: the anytime order, no
        limit (same result as None). None: no budget (``problem_timeout`` still applies).
    """

    def __init__(
        self,
        n: int = 1,
        rule: str = "log",
        alpha: float = DEFAULT_ALPHA,
        normalize: str = "sum",
        temperature: float = 1.0,
        relation: str = "symbolic",
        language: str = "lean4",
        timeout: float = 5.0,
        informalizer: str | Any = "rule",
        embedder: str | Any = DEFAULT_MODEL,
        embed_precision: str = "float32",
        fingerprints: bool = True,
        check_vacuous: bool = True,
        check_truth: bool = True,
        penalize_vacuous: bool = True,
        exclude_unparsed: bool = True,
        undecided_weight: float = DEFAULT_UNDECIDED_WEIGHT,
        consensus_weight: float = DEFAULT_CONSENSUS_WEIGHT,
        truth_weight: float = DEFAULT_TRUTH_WEIGHT,
        semantic_text: str = DEFAULT_SEMANTIC_TEXT,
        answer_weight: float = DEFAULT_ANSWER_WEIGHT,
        prior_weight: float = 0.0,
        keep_first_margin: float | None = DEFAULT_KEEP_FIRST_MARGIN,
        tie_break: str = "evidence",
        cache: MutableMapping[Hashable, str] | None = None,
        problem_timeout: float | None = None,
        budget: float | None = None,
        imports: tuple[str, ...] = (),
        compare_ill_formed: bool | str = "identical",
    ) -> None:
        self.n = n
        self.rule = rule
        self.alpha = alpha
        self.normalize = normalize
        self.temperature = temperature
        self.relation = relation
        self.language = language
        self.timeout = timeout
        self.informalizer = informalizer
        self.embedder = embedder
        self.embed_precision = embed_precision
        self.fingerprints = fingerprints
        self.check_vacuous = check_vacuous
        self.check_truth = check_truth
        self.penalize_vacuous = penalize_vacuous
        self.exclude_unparsed = exclude_unparsed
        self.undecided_weight = undecided_weight
        self.consensus_weight = consensus_weight
        self.truth_weight = truth_weight
        self.semantic_text = semantic_text
        self.answer_weight = answer_weight
        self.prior_weight = prior_weight
        self.keep_first_margin = keep_first_margin
        self.tie_break = tie_break
        self.cache = cache
        self.problem_timeout = problem_timeout
        self.budget = budget
        self.imports = imports
        self.compare_ill_formed = compare_ill_formed
        self._validate()
        self._cache: MutableMapping[Hashable, str] = {} if cache is None else cache
        self._informalizer_obj: Any = None
        self._informalizer_ready = False

    def _validate(self) -> None:
        if isinstance(self.n, bool) or not isinstance(self.n, int) or self.n < 1:
            raise ValueError(f"n must be a positive integer, got {self.n!r}")
        if self.relation not in RELATIONS:
            raise ValueError(f"relation must be one of {RELATIONS}, got {self.relation!r}")
        check_ill_formed_mode(self.compare_ill_formed)
        if self.rule not in RULES:
            raise ValueError(f"rule must be one of {RULES}, got {self.rule!r}")
        if self.normalize not in NORMALIZERS:
            raise ValueError(f"normalize must be one of {NORMALIZERS}, got {self.normalize!r}")
        if self.language not in ("lean4", "isabelle"):
            raise ValueError(f"language must be 'lean4' or 'isabelle', got {self.language!r}")
        if isinstance(self.imports, str) or not all(isinstance(x, str) for x in self.imports):
            raise ValueError(f"imports must be a tuple of theory names, got {self.imports!r}")
        check_seconds("timeout", self.timeout)
        if self.problem_timeout is not None:
            check_seconds("problem_timeout", self.problem_timeout)
        if self.budget is not None:
            check_budget(self.budget)
        if isinstance(self.informalizer, str) and self.informalizer not in INFORMALIZERS:
            raise ValueError(
                f"informalizer must be one of {INFORMALIZERS} or an Informalizer, "
                f"got {self.informalizer!r}"
            )
        if self.embed_precision not in PRECISIONS:
            raise ValueError(f"embed_precision must be one of {PRECISIONS}, got {self.embed_precision!r}")
        if self.semantic_text not in SEMANTIC_TEXTS:
            raise ValueError(f"semantic_text must be one of {SEMANTIC_TEXTS}, got {self.semantic_text!r}")
        if isinstance(self.answer_weight, bool) or not isinstance(self.answer_weight, (int, float)) \
                or not self.answer_weight >= 0:
            raise ValueError(f"answer_weight must be a number >= 0, got {self.answer_weight!r}")
        self.combiner = ScoreCombiner(self.rule, self.alpha, self.normalize, self.temperature)
        self.selector = Selector(
            rule=self.rule,
            alpha=self.alpha,
            normalize=self.normalize,
            temperature=self.temperature,
            undecided_weight=self.undecided_weight,
            consensus_weight=self.consensus_weight,
            truth_weight=self.truth_weight,
            prior_weight=self.prior_weight,
            keep_first_margin=self.keep_first_margin,
            exclude_unparsed=self.exclude_unparsed,
            demote=DEMOTIONS if self.penalize_vacuous else (),
            tie_break=self.tie_break,
        )

    # ------------------------------------------------------------------ sklearn-style

    def get_params(self, deep: bool = False) -> dict[str, Any]:
        """The constructor arguments (objects such as a custom informalizer included)."""
        names = [p for p in inspect.signature(type(self).__init__).parameters if p != "self"]
        return {name: getattr(self, name) for name in names}

    def set_params(self, **params: Any) -> Reranker:
        """Change parameters; an invalid value leaves the Reranker as it was."""
        valid = self.get_params()
        for key in params:
            if key not in valid:
                raise ValueError(f"unknown parameter {key!r}; valid: {sorted(valid)}")
        for key, value in params.items():
            setattr(self, key, value)
        try:
            self._validate()
        except (ValueError, TypeError):
            for key in params:
                setattr(self, key, valid[key])
            self._validate()
            raise
        if "cache" in params:
            self._cache = {} if self.cache is None else self.cache
        if "informalizer" in params:
            self._informalizer_ready = False
        return self

    def __repr__(self) -> str:
        default = Reranker.__new__(Reranker)
        Reranker.__init__(default)
        changed = {
            k: v for k, v in self.get_params().items() if k != "cache" and v != getattr(default, k)
        }
        return "Reranker(" + ", ".join(f"{k}={v!r}" for k, v in changed.items()) + ")"

    def params_dict(self) -> dict[str, Any]:
        """The JSON-safe parameters recorded in every :class:`Ranking`."""
        out = {}
        for k, v in self.get_params().items():
            if k == "cache":
                continue
            if isinstance(v, float) and not math.isfinite(v):
                v = str(v)  # JSON has no infinity
            out[k] = v if isinstance(v, (str, int, float, bool, type(None))) else type(v).__name__
        return out

    # ------------------------------------------------------------------ components

    @property
    def cache_(self) -> MutableMapping[Hashable, str]:
        """The verdict cache in use: ``cache`` if given, else this reranker's own dict."""
        return self._cache

    @property
    def informalizer_(self) -> Any:
        """The back-translator ``informalizer`` names, made once (None for ``given``/``none``)."""
        if not self._informalizer_ready:
            spec = self.informalizer
            if spec == "rule":
                self._informalizer_obj = RuleInformalizer()
            elif isinstance(spec, str):
                self._informalizer_obj = None
            else:
                self._informalizer_obj = spec
            self._informalizer_ready = True
        return self._informalizer_obj

    @property
    def embedder_(self) -> Any:
        """The sentence embedder ``embedder`` names (one per model and process), or the object given."""
        if isinstance(self.embedder, str):
            return shared_embedder(self.embedder, self.embed_precision)
        return self.embedder

    # ------------------------------------------------------------------ entry points

    def start(
        self, informal: str, cache: MutableMapping[Hashable, str] | None = None
    ) -> RerankSession:
        """A session for a generation loop: ``add`` candidates as they arrive, ask for the
        ``ranking`` at any time.  ``cache`` replaces the Reranker's shared verdict cache for
        this problem (the batch runner passes a fresh one, so a record's statistics do not
        depend on which records ran before it in the same worker)."""
        return RerankSession(self, informal, cache)

    def rerank(
        self,
        informal: str,
        candidates: Sequence[str | Statement],
        informalizations: Sequence[str | None] | None = None,
        n: int | None = None,
        cache: MutableMapping[Hashable, str] | None = None,
        prior: Sequence[float | None] | None = None,
    ) -> Ranking:
        """Rerank one problem's candidates; ``n`` overrides the configured ``n``, ``cache``
        the shared verdict cache (see :meth:`start`); ``prior``: one log-weight per
        candidate (e.g. ``rerank.prior.from_logprobs(...)``), used with ``prior_weight``."""
        if isinstance(candidates, str):
            raise TypeError("candidates must be a list of statements, not one string")
        cands = list(candidates)
        if informalizations is not None:
            if isinstance(informalizations, str):
                raise TypeError("informalizations must be a list aligned with candidates")
            infs = list(informalizations)
            if len(infs) != len(cands):
                raise ValueError(
                    f"{len(infs)} informalizations given for {len(cands)} candidates"
                )
        else:
            infs = None
        session = self.start(informal, cache)
        session.extend(cands, infs, prior)
        return session.ranking(n)

    __call__ = rerank


class RerankSession:
    """Candidates for one informal statement, merged into classes as they arrive.

    Each :meth:`add` compares the new candidate only with class representatives; pairs
    settled earlier are never checked again.  :meth:`ranking` at any moment equals what
    ``Reranker.rerank`` returns on the candidates added so far (same order).  With a
    ``budget`` the engine work waits for :meth:`ranking` and the budget is shared by all of
    the session's rankings; they equal the one-shot result whenever they are ``complete``.
    """

    def __init__(
        self,
        reranker: Reranker,
        informal: str,
        cache: MutableMapping[Hashable, str] | None = None,
    ) -> None:
        if not isinstance(informal, str):
            raise TypeError(f"informal must be a string, got {type(informal).__name__}")
        self.reranker = reranker
        self.informal = informal
        anytime = {} if reranker.budget is None else {"budget": reranker.budget}
        self.clusterer = (Clusterer if reranker.budget is None else AnytimeClusterer)(
            reranker.relation,
            reranker.language,
            reranker.timeout,
            fingerprints=reranker.fingerprints,
            check_vacuous=reranker.check_vacuous,
            # with truth_weight 0 only a refutation moves the ranking: the check is cut short
            check_truth=reranker.check_truth and (True if reranker.truth_weight > 0 else "refute"),
            cache=reranker.cache_ if cache is None else cache,
            problem_timeout=reranker.problem_timeout,
            imports=reranker.imports,
            compare_ill_formed=reranker.compare_ill_formed,
            **anytime,
        )
        self.priors: list[float | None] = []
        self.back_translations: list[str | None] = []
        self.informalization_errors: list[str | None] = []
        self._semantic: list[float | None] = []
        self._informal_vec: np.ndarray | None = None
        self.timing = {"parse_cluster": 0.0, "informalize": 0.0, "embed": 0.0}

    @property
    def k(self) -> int:
        return len(self.clusterer.candidates)

    @property
    def classes(self) -> list[list[int]]:
        return self.clusterer.classes

    def add(
        self,
        candidate: str | Statement,
        informalization: str | None = None,
        prior: float | None = None,
    ) -> int:
        """Add one candidate (optionally its back-translation and its prior log-weight, e.g.
        a log-probability); return its index."""
        return self.extend([candidate], [informalization], [prior])[0]

    def extend(
        self,
        candidates: Sequence[str | Statement],
        informalizations: Sequence[str | None] | None = None,
        priors: Sequence[float | None] | None = None,
    ) -> list[int]:
        """Add several candidates in order (back-translations computed in one call)."""
        cands = list(candidates)
        infs = list(informalizations) if informalizations is not None else [None] * len(cands)
        pri = list(priors) if priors is not None else [None] * len(cands)
        if len(infs) != len(cands):
            raise ValueError(f"{len(infs)} informalizations given for {len(cands)} candidates")
        if len(pri) != len(cands):
            raise ValueError(f"{len(pri)} prior values given for {len(cands)} candidates")
        for given in infs:  # validate before anything is added, so a session stays consistent
            if given is not None and not isinstance(given, str):
                raise TypeError(f"an informalization must be a string, got {type(given).__name__}")
        for v in pri:
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))
                                  or math.isnan(v) or v == math.inf):
                raise ValueError(f"a prior must be a finite number (or -inf), got {v!r}")
        self.priors.extend(None if v is None else float(v) for v in pri)
        t0 = time.perf_counter()
        idx = [self.clusterer.add(c) for c in cands]
        self.timing["parse_cluster"] += time.perf_counter() - t0
        self._back_translate(idx, infs)
        return idx

    def _back_translate(self, idx: list[int], given: list[str | None]) -> None:
        t0 = time.perf_counter()
        texts: list[str | None] = list(given)
        errors: list[str | None] = [None] * len(idx)
        informalizer = self.reranker.informalizer_
        todo = [
            j for j, i in enumerate(idx)
            if texts[j] is None and self.clusterer.candidates[i].parsed
        ]
        if informalizer is not None and todo:
            sts = [self.clusterer.candidates[idx[j]].statement for j in todo]
            try:
                out = list(informalizer.informalize(sts))
                if len(out) != len(sts):
                    raise ValueError(f"{len(out)} back-translations for {len(sts)} statements")
            except Exception as e:
                from embeddings.informalize import InformalizerConfigError

                if isinstance(e, InformalizerConfigError):
                    raise  # a missing or rejected key: the problem fails loudly, not with 0 scores
                out = [None] * len(sts)
                for j in todo:
                    errors[j] = f"informalization failed: {type(e).__name__}: {e}"
            for j, t in zip(todo, out, strict=True):
                texts[j] = t if isinstance(t, str) and t.strip() else None
        self.back_translations.extend(texts)
        self.informalization_errors.extend(errors)
        self._semantic.extend([None] * len(idx))
        self.timing["informalize"] += time.perf_counter() - t0

    def _semantic_scores(self) -> list[float]:
        """Per candidate: cosine of its back-translation with the informal text (with
        ``semantic_text="question"``: of their question parts, each without its trailing
        final-answer sentence), plus ``answer_weight`` times the exact answer agreement
        (+1 / -1 / 0, :func:`answer_agreement`); 0.0 without a back-translation.

        The informal text and every new back-translation go to the embedder in one call; a
        vector depends on its text alone (:mod:`embeddings.embed`) and is cached per text, so
        incremental and one-shot rankings give identical scores and a problem ranked again
        is not encoded again.
        """
        t0 = time.perf_counter()
        rr = self.reranker
        missing = [i for i, s in enumerate(self._semantic) if s is None]
        if missing:
            texts = [semantic_text(self.back_translations[i], rr.semantic_text) for i in missing]
            need = [(i, t) for i, t in zip(missing, texts, strict=True) if t is not None]
            if need:
                emb = rr.embedder_
                batch = [t for _, t in need]
                if self._informal_vec is None:
                    batch.insert(0, semantic_text(self.informal, rr.semantic_text) or self.informal)
                vecs = np.asarray(emb.encode(batch))
                if self._informal_vec is None:
                    self._informal_vec = _unit(vecs[0])
                    vecs = vecs[1:]
                for (i, _), v in zip(need, vecs, strict=True):
                    self._semantic[i] = float(np.clip(np.dot(_unit(v), self._informal_vec), -1.0, 1.0))
            for i in missing:
                if self._semantic[i] is None:
                    self._semantic[i] = 0.0
        self.timing["embed"] += time.perf_counter() - t0
        out = [float(s) for s in self._semantic]  # type: ignore[arg-type]
        if rr.answer_weight:
            agree = answer_agreement(self.informal, self.clusterer.candidates)
            out = [s + rr.answer_weight * a for s, a in zip(out, agree, strict=True)]
        return out

    def ranking(self, n: int | None = None) -> Ranking:
        """The ranking of the candidates added so far (``n`` defaults to the configured n)."""
        rr = self.reranker
        n = rr.n if n is None else n
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            raise ValueError(f"n must be a positive integer, got {n!r}")
        k = self.k
        if isinstance(self.clusterer, AnytimeClusterer):
            t0 = time.perf_counter()
            self.clusterer.resolve()  # the engine work a budget defers to here
            self.timing["parse_cluster"] += time.perf_counter() - t0
        classes = self.clusterer.classes
        cands = self.clusterer.candidates
        semantic = self._semantic_scores()
        evidence = PoolEvidence.from_clusterer(self.clusterer)
        prior = prior_vector(self.priors, k) if rr.prior_weight > 0 else None
        chosen = rr.selector.select(evidence, semantic, prior)
        flags = [list(c.flags) for c in cands]
        for i, c in enumerate(cands):
            if chosen.demoted[i] is not None:
                flags[i].append(f"demoted_{chosen.demoted[i]}")
            if self.back_translations[i] is None:
                flags[i].append("no_back_translation")
            if self.informalization_errors[i]:
                flags[i].append(self.informalization_errors[i])  # type: ignore[arg-type]
            if not c.parsed and rr.exclude_unparsed:
                flags[i].append("excluded_unparsed")
        if chosen.kept_first:
            flags[0].append("kept_first")
        order = chosen.order
        if rr.exclude_unparsed:  # unparseable ones after EVERY parseable one, in any round
            order = behind(order, [not c.parsed for c in cands])
        selected = order[: min(n, k)]
        symbolic, scores = chosen.symbolic, chosen.scores
        stats = self.clusterer.stats.to_dict()
        stats["n_classes"] = len(classes)
        stats["ideal_checks"] = k - len(classes)
        return Ranking(
            selected=selected,
            classes=classes,
            symbolic=symbolic,
            semantic=semantic,
            scores=[float(s) for s in scores],
            order=order,
            candidates=[c.text for c in cands],
            back_translations=list(self.back_translations),
            flags=flags,
            errors=[c.error for c in cands],
            stats=stats,
            params={**rr.params_dict(), "n": n},
            timing=dict(self.timing),
            unparsed_selected=[i for i in selected if not cands[i].parsed],
            complete=stats["budget_skips"] == 0 and not getattr(self.clusterer, "tests_skipped", 0),
            pairs_undecided=stats["budget_skips"],
        )


def semantic_text(back_translation: str | None, part: str) -> str | None:
    """The part of a text (a back-translation or the informal statement) that is embedded:
    all of it, or its question part without the final-answer sentence (None: nothing)."""
    if back_translation is None or not back_translation.strip():
        return None
    if part == "question":
        from embeddings.answer import split_answer

        return split_answer(back_translation)[0] or None
    return back_translation


def answer_agreement(informal: str, candidates: Sequence[Any]) -> list[float]:
    """+1 / -1 / 0 per candidate: its numeric conclusion's exact value equals / differs from
    the answer the informal text states ("... The final answer is 7", "Show that it is 36");
    0 when either is unknown or the conclusion is not an equation."""
    from embeddings.answer import answer_value, split_answer
    from rerank.evidence import answer_of

    ref = answer_value(split_answer(informal)[1])
    out = [0.0] * len(candidates)
    if ref is None:
        return out
    for i, c in enumerate(candidates):
        a = answer_of(c)
        if a and a.get("op") == "eq" and a.get("value") is not None:
            out[i] = 1.0 if Fraction(a["value"]) == ref else -1.0
    return out


def _unit(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, dtype=np.float64)
    norm = float(np.linalg.norm(v))
    return v / norm if norm > 0 else v


def rerank(
    informal: str,
    candidates: Sequence[str | Statement],
    informalizations: Sequence[str | None] | None = None,
    n: int = 1,
    rule: str = "log",
    alpha: float = DEFAULT_ALPHA,
    relation: str = "symbolic",
    language: str = "lean4",
    **options: Any,
) -> Ranking:
    """Rerank one problem's candidates with a one-off :class:`Reranker` (see its options)."""
    rr = Reranker(n=n, rule=rule, alpha=alpha, relation=relation, language=language, **options)
    return rr.rerank(informal, candidates, informalizations)
