"""Evaluation metrics: n@k, pass@k, labeling cost, judge calibration, SA-PASS.

Every function works on plain Python / numpy values so that experiments, the CLI and
tests can call it without building a reranker.  Per-problem functions return one number;
a benchmark figure is the mean over problems (and :func:`bootstrap_ci` gives its
interval by resampling problems).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from itertools import combinations

import numpy as np

__all__ = [
    "BootstrapResult",
    "JudgeReport",
    "bootstrap_ci",
    "class_rank_fn",
    "cohen_kappa",
    "judge_report",
    "labeling_cost",
    "mean_n_at_k",
    "n_at_k",
    "paired_bootstrap_ci",
    "pass_at_k",
    "ppv",
    "relative_efficiency",
    "sa_pass",
    "sa_pass_soft",
]

RankFn = Callable[[np.ndarray], Sequence[int]]


def _check_int(name: str, value: object, low: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__}")
    if value < low:
        raise ValueError(f"{name} must be >= {low}, got {value}")
    return int(value)


# --------------------------------------------------------------------------- pass@k


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k from ``n`` samples of which ``c`` are correct (Codex paper).

    ``1 - C(n-c, k) / C(n, k)`` computed as ``1 - prod_{i=n-c+1}^{n} (1 - k/i)``, which
    never forms the (huge) binomial coefficients.
    """
    n = _check_int("n", n, 1)
    c = _check_int("c", c, 0)
    k = _check_int("k", k, 1)
    if c > n:
        raise ValueError(f"c (correct samples) must be <= n, got c={c}, n={n}")
    if k > n:
        raise ValueError(f"k must be <= n, got k={k}, n={n}")
    if n - c < k:
        return 1.0
    return float(1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1, dtype=np.float64)))


# --------------------------------------------------------------------------- n@k


def _as_bool_vector(correct: Sequence[bool] | np.ndarray) -> np.ndarray:
    arr = np.asarray(correct)
    if arr.ndim != 1:
        raise ValueError(f"correct must be one-dimensional, got shape {arr.shape}")
    if arr.size and not (arr.dtype == bool or np.isin(arr, (0, 1)).all()):
        raise ValueError("correct must hold booleans or 0/1 values")
    return arr.astype(bool)


def _hit(correct: np.ndarray, ranked: Sequence[int], n: int, pool: np.ndarray | None) -> bool:
    top = [int(i) for i in list(ranked)[:n]]
    if pool is not None:
        allowed = set(pool.tolist())
        bad = [i for i in top if i not in allowed]
        if bad:
            raise ValueError(f"rank_fn returned indices {bad} outside the subset {sorted(allowed)}")
    for i in top:
        if not 0 <= i < correct.size:
            raise ValueError(f"ranked index {i} out of range for {correct.size} candidates")
    return bool(correct[top].any()) if top else False


def n_at_k(
    correct: Sequence[bool] | np.ndarray,
    n: int = 1,
    k: int | None = None,
    *,
    ranking: Sequence[int] | None = None,
    rank_fn: RankFn | None = None,
    method: str = "auto",
    max_exact_subsets: int = 5000,
    n_subsets: int = 2000,
    seed: int | None = 0,
) -> float:
    """n@k for one problem: chance that one of the top ``n`` picks out of ``k`` is correct.

    ``correct[i]`` says whether candidate ``i`` of the ``N = len(correct)`` samples is right.

    * ``k == N`` (the default): deterministic.  Pass ``ranking`` (candidate indices, best
      first, as returned by the selector) or ``rank_fn``; the result is 0.0 or 1.0.
    * ``k < N``: the unbiased estimator averages the hit indicator over k-subsets of the
      N samples, re-running ``rank_fn`` on each subset (a fixed ranking of the full pool
      would leak information from samples the subset does not have).  ``rank_fn``
      receives the subset as a sorted array of original indices and returns original
      indices, best first.  With ``method="auto"`` all ``C(N, k)`` subsets are enumerated
      when there are at most ``max_exact_subsets`` of them (exact), otherwise
      ``n_subsets`` subsets are drawn uniformly with ``seed`` (Monte Carlo).
    """
    corr = _as_bool_vector(correct)
    big_n = corr.size
    if big_n == 0:
        raise ValueError("correct is empty: n@k needs at least one candidate")
    n = _check_int("n", n, 1)
    k = big_n if k is None else _check_int("k", k, 1)
    if k > big_n:
        raise ValueError(f"k={k} exceeds the number of samples N={big_n}")
    if n > k:
        raise ValueError(f"n={n} exceeds k={k}: at most k candidates can be selected")
    if method not in ("auto", "exact", "monte_carlo"):
        raise ValueError(f"method must be 'auto', 'exact' or 'monte_carlo', got {method!r}")

    if k == big_n:
        if ranking is not None and rank_fn is not None:
            raise ValueError("pass either ranking or rank_fn, not both")
        if ranking is None:
            if rank_fn is None:
                raise ValueError("n@k needs ranking= (k == N) or rank_fn=")
            ranking = rank_fn(np.arange(big_n))
        return float(_hit(corr, ranking, n, None))

    if rank_fn is None:
        raise ValueError(
            "k < N needs rank_fn= so the ranking is recomputed on every k-subset; "
            "a ranking of the full pool cannot be reused"
        )
    if ranking is not None:
        raise ValueError("ranking= is only meaningful when k == N; use rank_fn=")
    total = math.comb(big_n, k)
    exact = method == "exact" or (method == "auto" and total <= max_exact_subsets)
    if exact:
        hits = sum(
            _hit(corr, rank_fn(np.array(sub)), n, np.array(sub))
            for sub in combinations(range(big_n), k)
        )
        return hits / total
    n_subsets = _check_int("n_subsets", n_subsets, 1)
    rng = np.random.default_rng(seed)
    hits = 0
    for _ in range(n_subsets):
        sub = np.sort(rng.choice(big_n, size=k, replace=False))
        hits += _hit(corr, rank_fn(sub), n, sub)
    return hits / n_subsets


def class_rank_fn(
    classes: Sequence[Sequence[int]],
    semantic: Sequence[float] | np.ndarray | None = None,
    *,
    rule: str = "log",
    alpha: float = 0.5,
    normalize: str = "sum",
    temperature: float = 1.0,
) -> RankFn:
    """A ``rank_fn`` for :func:`n_at_k` that re-ranks each subset without re-proving.

    Equivalence is a property of pairs, so the classes of a k-subset are the full-pool
    ``classes`` restricted to it: the symbolic score (class size / k), its normalization
    and the combination with the ``semantic`` scores are recomputed inside the subset, then
    :func:`rerank.select.select_top_n` ranks it.  ``semantic=None`` ranks by the symbolic
    score alone.  (Candidates joined only through an excluded one stay joined: they are
    equivalent by transitivity.)
    """
    from .combine import combine
    from .select import class_of, select_top_n

    all_members = [int(i) for c in classes for i in c]
    big_n = max(all_members, default=-1) + 1
    if semantic is not None:
        sem_all = np.asarray(semantic, dtype=np.float64)
        big_n = max(big_n, sem_all.size)
    labels = class_of(classes, big_n)

    def rank(sub: np.ndarray) -> list[int]:
        sub = np.asarray(sub, dtype=np.int64)
        lab = labels[sub]
        _, inverse, counts = np.unique(lab, return_inverse=True, return_counts=True)
        sym = counts[inverse] / sub.size
        if semantic is None:
            scores = sym
        else:
            scores = combine(
                sym,
                sem_all[sub],
                rule=rule,
                alpha=alpha,
                normalize=normalize,
                temperature=temperature,
            )
        local = [np.flatnonzero(inverse == c).tolist() for c in range(counts.size)]
        return [int(sub[i]) for i in select_top_n(scores, local, n=None)]

    return rank


def mean_n_at_k(
    correct: Sequence[Sequence[bool]],
    rankings: Sequence[Sequence[int]],
    n: int = 1,
) -> float:
    """Benchmark n@k with k = N: the mean of the per-problem :func:`n_at_k` values."""
    if len(correct) != len(rankings):
        raise ValueError(f"{len(correct)} correctness vectors but {len(rankings)} rankings")
    if not correct:
        raise ValueError("no problems given")
    return float(np.mean([n_at_k(c, n, ranking=r) for c, r in zip(correct, rankings, strict=True)]))


# --------------------------------------------------------------------------- labeling cost


def labeling_cost(n_at_k_values: Sequence[float], formula: str = "design") -> float:
    """Labeling cost sigma from the curve ``[1@k, 2@k, ..., k@k]`` (index 0 is n = 1).

    The values may be per-problem (0/1) or benchmark means: both formulas are linear in
    them, so the cost of the means is the mean of the costs.  With ``d_n = n@k - (n-1)@k``
    (and ``0@k = 0``):

    * ``"design"`` (default; the formula of the project's DESIGN.md):
      ``sigma = sum_{n=2}^{k-1} n * d_n + (1 - k@k)``.
    * ``"expected_checks"``: the expected number of candidates a labeler reads going down
      the ranking until the first correct one, reading all ``k`` when none is:
      ``sigma = sum_{n=1}^{k} n * d_n + k * (1 - k@k)``.

    Note: the ``"design"`` formula is the one this project specifies for the
    symbolic-equivalence paper's labeling cost; the paper's own text could not be
    consulted when this was written, so compare relative efficiencies with its table
    before relying on the exact definition.  The first position (``1 * 1@k``) and the last
    (``k * d_k``) are not in it, and a miss costs 1; ``"expected_checks"`` is the plain
    expected-effort reading and gives much smaller relative differences.
    """
    v = np.asarray(n_at_k_values, dtype=np.float64)
    if v.ndim != 1 or v.size == 0:
        raise ValueError("n_at_k_values must be a non-empty 1-D sequence [1@k, ..., k@k]")
    if np.isnan(v).any() or (v < 0).any() or (v > 1).any():
        raise ValueError("n@k values must lie in [0, 1]")
    if (np.diff(v) < -1e-12).any():
        raise ValueError("n@k must be non-decreasing in n")
    k = v.size
    d = np.diff(np.concatenate([[0.0], v]))  # d[n-1] = n@k - (n-1)@k
    ns = np.arange(1, k + 1, dtype=np.float64)
    if formula == "design":
        inner = float(np.dot(ns[1 : k - 1], d[1 : k - 1])) if k > 2 else 0.0
        return inner + (1.0 - float(v[-1]))
    if formula == "expected_checks":
        return float(np.dot(ns, d)) + k * (1.0 - float(v[-1]))
    raise ValueError(f"formula must be 'design' or 'expected_checks', got {formula!r}")


def relative_efficiency(sigma: float, sigma_baseline: float) -> float:
    """Relative efficiency ``E = 1 - sigma / sigma_baseline`` (positive: cheaper than baseline)."""
    if not sigma_baseline > 0:
        raise ValueError(f"sigma_baseline must be > 0, got {sigma_baseline}")
    return 1.0 - float(sigma) / float(sigma_baseline)


# --------------------------------------------------------------------------- bootstrap


@dataclass(frozen=True)
class BootstrapResult:
    """A point estimate and its percentile bootstrap interval."""

    estimate: float
    low: float
    high: float
    confidence: float
    n_resamples: int

    def to_dict(self) -> dict:
        return asdict(self)


def bootstrap_ci(
    *arrays: Sequence[float] | np.ndarray,
    statistic: Callable[..., float] | None = None,
    n_resamples: int = 2000,
    confidence: float = 0.95,
    seed: int | None = 0,
) -> BootstrapResult:
    """Percentile bootstrap CI, resampling problems (rows) jointly across ``arrays``.

    All arrays are indexed by problem and resampled with the SAME indices, so a
    statistic of several methods (e.g. a difference of means) keeps their pairing.
    ``statistic(*resampled_arrays)`` defaults to the mean of a single array.
    """
    if not arrays:
        raise ValueError("give at least one array of per-problem values")
    arrs = [np.asarray(a, dtype=np.float64) for a in arrays]
    m = arrs[0].shape[0] if arrs[0].ndim else 0
    if m == 0:
        raise ValueError("bootstrap needs at least one problem")
    if any(a.ndim == 0 or a.shape[0] != m for a in arrs):
        raise ValueError("all arrays must have the same number of problems (first axis)")
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be in (0, 1), got {confidence}")
    n_resamples = _check_int("n_resamples", n_resamples, 1)
    if statistic is None:
        if len(arrs) != 1:
            raise ValueError("statistic= is required with more than one array")

        def statistic(a: np.ndarray) -> float:
            return float(np.mean(a))

    estimate = float(statistic(*arrs))
    rng = np.random.default_rng(seed)
    stats = np.empty(n_resamples)
    for b in range(n_resamples):
        idx = rng.integers(0, m, size=m)
        stats[b] = statistic(*(a[idx] for a in arrs))
    alpha = (1.0 - confidence) / 2.0
    low, high = np.quantile(stats, [alpha, 1.0 - alpha])
    return BootstrapResult(estimate, float(low), float(high), confidence, n_resamples)


def paired_bootstrap_ci(
    a: Sequence[float] | np.ndarray,
    b: Sequence[float] | np.ndarray,
    n_resamples: int = 2000,
    confidence: float = 0.95,
    seed: int | None = 0,
) -> BootstrapResult:
    """CI of ``mean(a) - mean(b)`` for two methods scored on the same problems."""
    return bootstrap_ci(
        a,
        b,
        statistic=lambda x, y: float(np.mean(x) - np.mean(y)),
        n_resamples=n_resamples,
        confidence=confidence,
        seed=seed,
    )


# --------------------------------------------------------------------------- judge vs labels

_POSITIVE = {"equivalent", "equiv", "yes", "true", "1", "pass", "correct"}
_NEGATIVE = {"inequivalent", "not_equivalent", "no", "false", "0", "fail", "incorrect"}
_INCONCLUSIVE = {"inconclusive", "unknown", "none", "timeout", ""}


def _verdict_value(v: object) -> bool | None:
    """Map a verdict (bool, 0/1, None, status string or object with .status) to bool/None."""
    if v is None:
        return None
    status = getattr(v, "status", None)
    if status is not None:
        v = status
    if isinstance(v, (bool, np.bool_)):
        return bool(v)
    if isinstance(v, (int, np.integer)) and v in (0, 1):
        return bool(v)
    if isinstance(v, float) and math.isnan(v):
        return None
    if isinstance(v, str):
        s = v.strip().lower()
        if s in _POSITIVE:
            return True
        if s in _NEGATIVE:
            return False
        if s in _INCONCLUSIVE:
            return None
    raise ValueError(f"cannot read verdict {v!r} as equivalent / inequivalent / inconclusive")


def _ratio(num: float, den: float) -> float:
    return num / den if den else float("nan")


def cohen_kappa(a: Sequence[bool], b: Sequence[bool]) -> float:
    """Cohen's kappa of two binary raters; NaN when chance agreement is 1 (undefined)."""
    x = np.asarray(a, dtype=bool)
    y = np.asarray(b, dtype=bool)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError("cohen_kappa needs two 1-D sequences of equal length")
    if x.size == 0:
        return float("nan")
    p_o = float(np.mean(x == y))
    p_e = float(np.mean(x) * np.mean(y) + np.mean(~x) * np.mean(~y))
    if p_e >= 1.0:
        return float("nan")
    return (p_o - p_e) / (1.0 - p_e)


@dataclass(frozen=True)
class JudgeReport:
    """Confusion counts and rates of an automatic judge against human labels.

    ``precision`` = P(label correct | judge says equivalent); ``negative_confirmation``
    = P(label incorrect | judge says inequivalent) (the negative predictive value);
    ``recall`` = P(judge says equivalent | label correct).  Undefined rates are NaN.
    """

    n: int
    n_inconclusive: int
    coverage: float
    tp: int
    fp: int
    tn: int
    fn: int
    agreement: float
    precision: float
    recall: float
    negative_confirmation: float
    specificity: float
    kappa: float
    inconclusive: str

    def to_dict(self) -> dict:
        return asdict(self)


def judge_report(
    verdicts: Sequence[object],
    labels: Sequence[bool],
    inconclusive: str = "exclude",
) -> JudgeReport:
    """Agreement, precision, recall, negative-confirmation rate and kappa of a judge.

    ``verdicts`` are bools, 0/1, ``None``, status strings (``"equivalent"``,
    ``"inequivalent"``, ``"inconclusive"``) or objects with a ``.status``.  ``labels`` are
    the human truths (True = correct / equivalent).  ``inconclusive`` says what an
    undecided verdict counts as:

    * ``"exclude"`` (default): dropped from every rate; ``coverage`` reports the decided share.
    * ``"negative"``: counted as inequivalent (a judge that only accepts what it proved).
    * ``"positive"``: counted as equivalent.
    """
    if inconclusive not in ("exclude", "negative", "positive"):
        raise ValueError(
            f"inconclusive must be 'exclude', 'negative' or 'positive', got {inconclusive!r}"
        )
    if len(verdicts) != len(labels):
        raise ValueError(f"{len(verdicts)} verdicts but {len(labels)} labels")
    vals = [_verdict_value(v) for v in verdicts]
    labs = [_verdict_value(lab) for lab in labels]
    if any(lab is None for lab in labs):
        raise ValueError("labels must all be decided (True/False)")
    n_inc = sum(v is None for v in vals)
    pairs: list[tuple[bool, bool]] = []
    for v, lab in zip(vals, labs, strict=True):
        if v is None:
            if inconclusive == "exclude":
                continue
            v = inconclusive == "positive"
        pairs.append((bool(v), bool(lab)))
    judge = np.array([p[0] for p in pairs], dtype=bool)
    truth = np.array([p[1] for p in pairs], dtype=bool)
    tp = int(np.sum(judge & truth))
    fp = int(np.sum(judge & ~truth))
    tn = int(np.sum(~judge & ~truth))
    fn = int(np.sum(~judge & truth))
    total = len(vals)
    return JudgeReport(
        n=total,
        n_inconclusive=n_inc,
        coverage=_ratio(total - n_inc, total),
        tp=tp,
        fp=fp,
        tn=tn,
        fn=fn,
        agreement=_ratio(tp + tn, len(pairs)),
        precision=_ratio(tp, tp + fp),
        recall=_ratio(tp, tp + fn),
        negative_confirmation=_ratio(tn, tn + fn),
        specificity=_ratio(tn, tn + fp),
        kappa=cohen_kappa(judge, truth),
        inconclusive=inconclusive,
    )


def ppv(e: float, m: float, f: float) -> float:
    """Positive predictive value of an accept: ``e(1-m) / (e(1-m) + (1-e)f)``.

    ``e``: base rate of correct items; ``m``: miss rate (correct items the judge rejects);
    ``f``: false-accept rate (incorrect items the judge accepts).  NaN if nothing is accepted.
    """
    for name, x in (("e", e), ("m", m), ("f", f)):
        if not 0.0 <= float(x) <= 1.0:
            raise ValueError(f"{name} must be a probability in [0, 1], got {x}")
    num = e * (1.0 - m)
    return _ratio(num, num + (1.0 - e) * f)


# --------------------------------------------------------------------------- SA-PASS


def _checks(forward: Sequence[bool]) -> list[bool]:
    out = []
    for x in forward:
        if not isinstance(x, (bool, np.bool_)) and x is not None:
            raise TypeError(f"forward check results must be bool (or None), got {x!r}")
        out.append(x is True or x is np.True_)
    return out


def sa_pass(forward: Sequence[bool | None], backward: bool | None) -> bool:
    """SA-PASS: every forward check ``T_hat => S_i`` and the backward ``AND S_i => T_hat`` pass.

    Only ``True`` passes; ``False`` and ``None`` (inconclusive) fail.  An empty shadow
    set has all forward checks passed vacuously.
    """
    return all(_checks(forward)) and backward is True


def sa_pass_soft(forward: Sequence[bool | None], backward: bool | None) -> float:
    """SA-PASS_soft = 1/2 * (fraction of forward checks passed) + 1/2 * [backward passed].

    Same pass rule as :func:`sa_pass`; an empty shadow set counts as fraction 1.
    """
    fw = _checks(forward)
    frac = sum(fw) / len(fw) if fw else 1.0
    return 0.5 * frac + 0.5 * float(backward is True)
