"""experiments/selection_eval.py: the evaluation replays the library's Selector exactly, and
the privileged-first simulation does what the protocol says."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "experiments"))

import selection_eval as se  # noqa: E402

from rerank.scoring import PoolEvidence  # noqa: E402


def random_pools(n: int, seed: int = 0) -> list[se.Pool]:
    rng = np.random.default_rng(seed)
    pools = []
    for j in range(n):
        k = int(rng.integers(2, 9))
        labels = rng.integers(0, 3, size=k)
        parsed = rng.random(k) > 0.15
        classes: dict[int, list[int]] = {}
        for i in range(k):
            key = int(labels[i]) if parsed[i] else 100 + i
            classes.setdefault(key, []).append(i)
        undecided = [(a, b) for a in range(k) for b in range(a + 1, k) if rng.random() < 0.2]
        ev = PoolEvidence(
            classes=list(classes.values()), parsed=parsed.tolist(),
            vacuous=[bool(x) for x in rng.random(k) < 0.1],
            degenerate=[bool(x) for x in rng.random(k) < 0.05],
            holds=[rng.choice([True, False, None]) for _ in range(k)],
            undecided=undecided,
            answers=[rng.choice(["eq 1", "eq 2", None]) for _ in range(k)],
        )
        correct = rng.random(k) < 0.4
        pools.append(se.Pool(
            id=f"p{j}", correct={"label": correct, "label+syntax": correct & (rng.random(k) < 0.9)},
            ev=ev, semantic={"s": np.round(rng.random(k), 1)},  # rounded: ties happen
            greedy=0 if j % 2 else None,
        ))
    return pools


def test_fast_path_equals_the_library_selector():
    pools = random_pools(60)
    grid = [se.Config(semantic=sem, rule=rule, normalize=norm, alpha=a, undecided_weight=u,
                      truth_weight=t, keep_first_margin=m, prior_weight=w, tie_break=tb)
            for sem in (None, "s") for rule in ("log", "linear") for norm in ("sum", "softmax")
            for a in (0.0, 0.5, 1.0) for u in (0.0, 0.5) for t in (0.0, 1.0)
            for m in (None, 0.1) for w in (0.0, 0.3) for tb in ("evidence", "index")]
    assert se.verify_fast_path(pools, grid, n=400, seed=1) == 400
    # and the hit matrix of the fast path is what the slow path computes
    bases = [se.Config(semantic="s", undecided_weight=0.5, truth_weight=1.0)]
    g, fast = se.grid_hits([pools], bases, (0.0, 0.5, 1.0), (None, 0.25))
    slow = se.hits_matrix([pools], se.config_order, g)
    for r in se.RULES_CORRECT:
        assert np.allclose(fast[r], slow[r])


def test_privileged_first_pools_hit_the_rate_and_keep_the_rest_in_order():
    pools = random_pools(400, seed=3)
    rates = []
    for seed in range(5):
        perms = se.privileged_perms(pools, seed)
        for p, perm in zip(pools, perms, strict=True):
            assert sorted(perm) == list(range(p.k))
            rest = perm[1:]
            assert rest == sorted(rest)  # the others keep their order
        rates.append(np.mean([p.correct["label"][perm[0]] for p, perm in zip(pools, perms, strict=True)]))
    assert np.mean(rates) == pytest.approx(se.PRIVILEGED_RATE, abs=0.03)
    # a permuted pool is the same pool: the pick follows its candidate (no index ties here)
    p = pools[0]
    p.semantic["u"] = np.linspace(0.1, 0.9, p.k)
    perm = list(reversed(range(p.k)))
    cfg = se.Config(semantic="u", alpha=0.0)
    assert perm[se.config_order(p.permuted(perm), cfg)[0]] == se.config_order(p, cfg)[0]


def test_cross_validation_picks_on_training_folds_only():
    ids = [f"p{i}" for i in range(50)]
    # row 1 is right exactly on the problems of fold 0 (of repeat 0), row 0 nowhere
    fold = se.folds(ids, se.N_FOLDS, seed=0)
    h = np.zeros((2, 50))
    h[1, fold == 0] = 1.0
    oof, chosen = se.cross_validate(lambda train, rule: se.argbest(h, train), {"label": h}, ids, 1)
    oof = oof["label"]
    # when fold 0 is the test fold, training sees row 1 as useless and picks row 0 (tie ->
    # earlier row): the perfect-on-fold-0 row never scores there
    assert oof[fold == 0].sum() == 0.0


def test_the_report_names_the_library_configuration_the_reranker_uses():
    import selection_tables as st

    from rerank import Reranker

    lib = st.library_config()
    assert lib.semantic in st.LIBRARY_SEMANTIC
    rr = Reranker(language="isabelle", informalizer="given")
    ours = lib.selector()
    for knob in ("rule", "alpha", "undecided_weight", "consensus_weight", "truth_weight", "keep_first_margin"):
        assert getattr(ours, knob) == getattr(rr.selector, knob), knob
