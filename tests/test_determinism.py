"""``--workers 2`` writes the same bytes as ``--workers 1`` (issue 16: scores differed in the
8th-9th digit). The cause: a float32 forward pass gives different last bits with a different
number of torch threads, and batch workers ran with one thread while a local run used all."""

from __future__ import annotations

import json

import numpy as np
import pytest

from embeddings import Embedder

# a text whose embedding differed between 1 and 2 torch threads (examples/problems.jsonl)
TEXT = "A proof by induction."


def test_embeddings_do_not_depend_on_torchs_thread_count():
    """Whatever thread count the process had, the embedder sets its own (once) and gets the
    same bits."""
    torch = pytest.importorskip("torch")
    before = torch.get_num_threads()
    vecs = []
    try:
        for n in (2, 1, 3):
            torch.set_num_threads(n)
            vecs.append(Embedder(cache=False).encode(TEXT))
            assert torch.get_num_threads() == 1  # the embedder's count (threads=1), set again
        torch.set_num_threads(2)
        Embedder(cache=False, threads=None).encode(TEXT)
        assert torch.get_num_threads() == 2  # threads=None leaves torch alone
    finally:
        torch.set_num_threads(before)
    assert np.array_equal(vecs[0], vecs[1]) and np.array_equal(vecs[1], vecs[2])


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_two_workers_write_the_bytes_of_one(tmp_path):
    from rerank.batch import run_batch

    rec = {"id": "odd_sum", "informal": "Show that for every positive integer n, the sum of the "
           "first n odd numbers is n^2.",
           "candidates": ["theorem odd_sum (n : ℕ) (h₀ : 0 < n) : ∑ k in Finset.range n, (2 * k + 1) = n ^ 2",
                          "theorem odd_sum (n : ℕ) (h₀ : 0 < n) : ∑ k in Finset.range n, 2 * k + 1 = n ^ 2",
                          "Proof: by induction on n, adding 2n + 1 at each step."],
           "informalizations": [None, "For positive n, the sum of 2k over k < n, plus 1, is n squared.",
                                TEXT]}
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps(rec) + "\n" + json.dumps({**rec, "id": "again"}) + "\n")
    params = {"timeout": 2.0}
    run_batch(inp, tmp_path / "one.jsonl", params, workers=1, progress=False)
    run_batch(inp, tmp_path / "two.jsonl", params, workers=2, progress=False)
    one = (tmp_path / "one.jsonl").read_bytes()
    assert json.loads(one.splitlines()[0])["semantic"][2] != 0.0  # the text was embedded
    assert (tmp_path / "two.jsonl").read_bytes() == one
