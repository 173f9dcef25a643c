"""Bad input through the command line: one clear error line (or the correct result), never
a traceback, and a batch that goes on (issue 16, each item with exactly its input)."""

from __future__ import annotations

import json
import socket
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from rerank.cli import app

runner = CliRunner()

GOOD = "theorem t (x : ℝ) (h : 2 * x + 3 = 7) : x = 2 := by sorry"
SAME = "theorem t (y : ℝ) (h : 3 + 2 * y = 7) : 2 = y := by sorry"
INFORMAL = "Find x with 2x + 3 = 7; show that x = 2."
FAST = ["--relation", "syntactic", "--informalizer", "none"]


def invoke(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input, catch_exceptions=False)


def one_clear_error(r, *needles: str) -> None:
    assert r.exit_code == 1, r.output
    assert "Traceback" not in r.output
    text = " ".join(r.output.split())  # rich wraps long lines
    assert text.startswith("error:"), r.output
    for needle in needles:
        assert needle in text, r.output


def strict_json(line: str) -> dict:
    def no_constants(name: str):
        raise AssertionError(f"{name} in the output: not valid JSON")

    return json.loads(line, parse_constant=no_constants)


# ------------------------------------------------------------------ files that are not UTF-8 text


@pytest.fixture
def latin1(tmp_path) -> Path:
    f = tmp_path / "latin1.lean"
    f.write_bytes("theorem t (x : ℕ) : x = x -- café\n".encode().replace(b"\xc3\xa9", b"\xe9"))
    return f


def test_select_on_a_file_that_is_not_utf8(tmp_path):
    f = tmp_path / "p.json"
    f.write_bytes(b'{"informal": "caf\xe9", "candidates": ["theorem t : 1 = 1"]}')
    one_clear_error(invoke("select", str(f), *FAST), "p.json is not UTF-8 text", "byte 0xe9")


def test_equiv_on_a_file_that_is_not_utf8(latin1):
    one_clear_error(invoke("equiv", str(latin1), "theorem b (y : ℕ) : y = y"),
                    "statement A", "latin1.lean is not UTF-8 text")


def test_perturb_on_a_file_that_is_not_utf8(latin1):
    r = invoke("perturb", str(latin1), "--no-check")
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "latin1.lean is not UTF-8 text" in " ".join(r.output.split())


def test_select_on_a_directory(tmp_path):
    one_clear_error(invoke("select", str(tmp_path), *FAST), "is a directory, not a file")


# ------------------------------------------------------------------ Isabelle parser limits


def test_equiv_on_a_500_term_isabelle_sum_answers():
    chain = 'theorem t: fixes x :: nat shows "' + " + ".join(["x"] * 500) + ' = x"'
    r = invoke("equiv", chain, chain, "--language", "isabelle", "--json")
    assert r.exit_code == 0, r.output  # equivalent: the same statement
    assert json.loads(r.stdout)["status"] == "equivalent"


def test_equiv_on_too_deep_or_too_long_isabelle_input_is_a_parse_error():
    chain = 'theorem t: fixes x :: nat shows "' + " + ".join(["x"] * 5000) + ' = x"'
    one_clear_error(invoke("equiv", chain, chain, "--language", "isabelle"),
                    "does not parse as isabelle", "levels deep", "limit is 1000")
    huge = 'theorem t: fixes x :: nat shows "x = ' + "9" * 5000 + '"'
    one_clear_error(invoke("equiv", huge, huge, "--language", "isabelle"),
                    "does not parse as isabelle", "a numeral of 5000 digits; the limit is 4000")


# ------------------------------------------------------------------ scheduler and model


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_batch_with_an_unreachable_scheduler(tmp_path):
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": "a", "informal": INFORMAL, "candidates": [GOOD]}) + "\n")
    port = _free_port()
    r = invoke("batch", str(inp), str(tmp_path / "out.jsonl"), *FAST, "--no-progress",
               "--scheduler", f"tcp://127.0.0.1:{port}")
    one_clear_error(r, f"cannot reach the Dask scheduler at tcp://127.0.0.1:{port}")
    assert not (tmp_path / "out.jsonl").exists() or not (tmp_path / "out.jsonl").read_text()


def test_batch_with_an_address_that_is_not_a_dask_scheduler(tmp_path):
    """What the guide's tcp://10.0.0.5:8786 hit: something answered, and distributed read its
    reply as a frame length ("MemoryError: Unable to allocate 3.07 EiB")."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    port = server.getsockname()[1]

    def answer_garbage():
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            with conn:
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n" * 4)

    threading.Thread(target=answer_garbage, daemon=True).start()
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": "a", "informal": INFORMAL, "candidates": [GOOD]}) + "\n")
    try:
        r = invoke("batch", str(inp), str(tmp_path / "out.jsonl"), *FAST, "--no-progress",
                   "--scheduler", f"tcp://127.0.0.1:{port}")
    finally:
        server.close()
    one_clear_error(r, f"cannot use the Dask scheduler at tcp://127.0.0.1:{port}")


def test_batch_with_the_guides_example_scheduler_address(tmp_path):
    """The guide's own tcp://10.0.0.5:8786: unreachable, or something that is not Dask."""
    inp = tmp_path / "in.jsonl"
    inp.write_text(json.dumps({"id": "a", "informal": INFORMAL, "candidates": [GOOD]}) + "\n")
    r = invoke("batch", str(inp), str(tmp_path / "out.jsonl"), *FAST, "--no-progress",
               "--scheduler", "tcp://10.0.0.5:8786")
    one_clear_error(r, "the Dask scheduler at tcp://10.0.0.5:8786")


def test_an_unavailable_model_is_one_line(tmp_path):
    f = tmp_path / "p.json"
    f.write_text(json.dumps({"informal": INFORMAL, "candidates": [GOOD, SAME]}))
    for cmd in (["select", str(f)], ["batch", str(f), str(tmp_path / "o.jsonl"), "--no-progress"]):
        r = invoke(*cmd, "--relation", "syntactic", "--model", "no-such-model-xyz")
        one_clear_error(r, "--model no-such-model-xyz: cannot load it", "not available locally")


# ------------------------------------------------------------------ arguments


def test_flags_are_shown_and_accepted_as_flags():
    r = invoke("equiv", "--help")
    assert r.exit_code == 0
    assert "<bool>" not in r.output
    assert "--json" in r.output and "--no-json" in r.output
    a, b = "theorem a (x : ℝ) : x = x", "theorem b (y : ℝ) : y = y"
    assert json.loads(invoke("equiv", a, b, "--json").stdout)["status"] == "equivalent"
    r = invoke("equiv", a, b, "--no-json")
    assert r.exit_code == 0 and r.stdout.startswith("equivalent")
    for cmd in ("select", "batch", "eval", "filter", "demo", "perturb"):
        assert "<bool>" not in invoke(cmd, "--help").output, cmd
    assert "<bool>" not in invoke("--help").output


@pytest.mark.parametrize("bad", ["0", "-1", "nan", "inf"])
def test_timeouts_must_be_finite_and_positive(bad):
    for cmd in (["equiv", "theorem a : 1 = 1", "theorem b : 1 = 1"], ["select", "-"]):
        r = invoke(*cmd, "--timeout", bad, input="{}")
        assert r.exit_code == 2 and "Traceback" not in r.output
        assert "Invalid value for '--timeout'" in r.output


def test_version():
    from importlib.metadata import version

    r = invoke("--version")
    assert r.exit_code == 0
    assert r.stdout.strip() == f"autoformal-rerank {version('autoformal-rerank')}"


def test_select_and_filter_show_progress(tmp_path):
    rec = {"id": "p", "informal": INFORMAL, "candidates": [GOOD, SAME, "Clearly x = 2."]}
    f = tmp_path / "p.json"
    f.write_text(json.dumps(rec))
    r = invoke("select", str(f), *FAST, "--progress", "--json")
    assert r.exit_code == 0, r.output
    assert "select: 100%" in r.stderr and "3/3" in r.stderr
    assert json.loads(r.stdout)["classes"] == [[0, 1], [2]]
    r = invoke("filter", str(f), str(tmp_path / "kept.jsonl"), *FAST, "--dedup", "1", "--progress")
    assert r.exit_code == 0, r.output
    assert "filter: 100%" in r.stderr and "1/1" in r.stderr
    r = invoke("select", str(f), *FAST, "--no-progress", "--json")
    assert "select:" not in r.stderr


# ------------------------------------------------------------------ batch records and paths


def write_lines(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_nan_and_non_binary_labels_are_errors_naming_record_and_field(tmp_path):
    good = json.dumps({"id": "ok", "informal": INFORMAL, "candidates": [GOOD], "labels": [1],
                       "logprobs": [-0.5]})
    inp = write_lines(tmp_path / "in.jsonl", [
        '{"id":"a","informal":"x","candidates":["theorem t : 1 = 1"],"logprobs":[NaN]}',
        '{"id":"b","informal":"x","candidates":["theorem t : 1 = 1"],"labels":[NaN]}',
        '{"id":"c","informal":"x","candidates":["theorem t : 1 = 1"],"labels":["yes"]}',
        '{"id":"d","informal":"x","candidates":["theorem t : 1 = 1"],"logprobs":[-Infinity]}',
        good,
    ])
    out = tmp_path / "out.jsonl"
    r = invoke("batch", str(inp), str(out), *FAST, "--no-progress")
    assert r.exit_code == 0, r.output
    got = [strict_json(line) for line in out.read_text().splitlines()]
    assert [g["id"] for g in got] == ["a", "b", "c", "d", "ok"]
    err = {g["id"]: g["error"] for g in got if g["status"] == "error"}
    assert err["a"] == "record a: field 'logprobs[0]' must be a finite number or null, got NaN"
    assert err["b"] == "record b: field 'labels[0]' must be 0, 1, true or false, got NaN"
    assert err["c"] == 'record c: field \'labels[0]\' must be 0, 1, true or false, got "yes"'
    assert err["d"] == "record d: field 'logprobs[0]' must be a finite number or null, got -Infinity"
    assert got[-1]["status"] == "ok" and got[-1]["labels"] == [1]
    assert "4 errors" in r.output
    # `eval` never counts "yes" as correct: that record is an error and is skipped
    r = invoke("eval", str(out), "--json")
    rep = json.loads(r.stdout)
    assert rep["problems"] == 1 and rep["skipped_errors"] == 4


def test_the_input_file_as_output_is_refused(tmp_path):
    inp = write_lines(tmp_path / "in.jsonl", [json.dumps({"id": f"p{i}", "informal": INFORMAL,
                                                          "candidates": [GOOD]}) for i in range(4)])
    before = inp.read_bytes()
    one_clear_error(invoke("batch", str(inp), str(inp), *FAST, "--no-progress"),
                    "is the input file")
    one_clear_error(invoke("batch", str(inp), str(tmp_path / "." / "in.jsonl"), *FAST),
                    "is the input file")
    one_clear_error(invoke("filter", str(inp), str(inp), *FAST), "is the input file")
    assert inp.read_bytes() == before


def test_an_output_with_a_garbage_first_line_is_repaired_with_a_warning(tmp_path):
    inp = write_lines(tmp_path / "in.jsonl", [json.dumps({"id": f"p{i}", "informal": INFORMAL,
                                                          "candidates": [GOOD, SAME]}) for i in range(3)])
    out = write_lines(tmp_path / "out.jsonl", ["garbage {{{"])
    r = invoke("batch", str(inp), str(out), *FAST, "--no-progress")
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert f"warning: {out}:1: not JSON" in text and f"moved to {out}.corrupt" in text
    assert (tmp_path / "out.jsonl.corrupt").read_text() == "garbage {{{\n"
    got = [strict_json(line) for line in out.read_text().splitlines()]
    assert [(g["id"], g["status"]) for g in got] == [("p0", "ok"), ("p1", "ok"), ("p2", "ok")]
    r = invoke("batch", str(inp), str(out), *FAST, "--no-progress")  # the rerun: nothing to do
    assert r.exit_code == 0 and "warning" not in r.output and "3 already done" in r.output
