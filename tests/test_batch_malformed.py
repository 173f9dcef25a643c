"""Property: whatever the records, ``rerank batch`` writes exactly one strict-JSON output record
per input record (a result, or an error naming the record and the field), exits 0, and a
rerun recomputes nothing (issue 16)."""

from __future__ import annotations

import json
import math
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import provers.lean4.parser  # noqa: F401 - raises the recursion limit at import: before hypothesis runs
from rerank.cli import app

# no hypotheses: nothing for the vacuity check to send to a solver, so examples stay fast
POOL = ["theorem t (x : ℝ) : x + 0 = x", "theorem u (y : ℝ) : y + 0 = y",
        "theorem v (n : ℕ) : n * 1 = n", "The answer is 2."]
FAST = ["--relation", "syntactic", "--informalizer", "none", "--no-progress"]

JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False, allow_infinity=False),
                      st.text(max_size=20))
JSON_VALUE = st.recursive(JSON_LEAF, lambda inner: st.one_of(st.lists(inner, max_size=3),
                                                              st.dictionaries(st.text(max_size=5), inner, max_size=3)),
                          max_leaves=10)
WRONG = {  # a value of the wrong type for each field
    "informal": st.one_of(st.integers(), st.lists(st.text(max_size=3), max_size=2), st.none(), st.booleans()),
    "candidates": st.one_of(st.text(max_size=10), st.just([]), st.lists(st.integers(), min_size=1, max_size=2),
                            st.just([None]), st.dictionaries(st.text(max_size=3), st.text(max_size=3), max_size=2)),
    "informalizations": st.one_of(st.text(max_size=5), st.just([1])),
    "logprobs": st.one_of(st.just(["-1"]), st.just([True]), st.just([[0.5]])),
    "labels": st.one_of(st.just(["yes"]), st.just([2]), st.just([0.5]), st.just([None]), st.just([[1]])),
    "id": st.one_of(st.lists(st.integers(), max_size=2), st.floats(allow_nan=False), st.booleans(),
                    st.dictionaries(st.text(max_size=3), st.integers(), max_size=1)),
}


def nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@st.composite
def case(draw) -> tuple[str, str | None, object]:
    """(kind, field, detail): what to do to one otherwise valid record."""
    kind = draw(st.sampled_from([
        "valid", "extra", "wrong_type", "missing", "non_finite", "huge_informal", "huge_candidate",
        "bad_utf8", "not_json", "too_deep", "not_object", "deep_field",
    ]))
    if kind == "wrong_type":
        name = draw(st.sampled_from(sorted(WRONG)))
        return kind, name, draw(WRONG[name])
    if kind == "missing":
        return kind, draw(st.sampled_from(["informal", "candidates"])), None
    if kind == "non_finite":
        return kind, draw(st.sampled_from(["logprobs", "labels"])), draw(st.sampled_from([math.nan, math.inf, -math.inf]))
    if kind == "extra":
        return kind, draw(st.text(min_size=1, max_size=8).filter(lambda k: k not in WRONG)), draw(JSON_VALUE)
    if kind == "bad_utf8":
        return kind, draw(st.sampled_from(["informal", "candidates", "informalizations", "id"])), None
    return kind, None, None


def build(i: int, kind: str, name: str | None, detail: object, k: int) -> tuple[bytes, str | None, str | None]:
    """The input line, the id the output record must carry (None: ``line-N``) and the text
    its error must contain (None: a result)."""
    rid = f"r{i}"
    rec: dict = {"id": rid, "informal": f"problem {i}", "candidates": POOL[:k],
                 "informalizations": [f"say {j}" for j in range(k)],
                 "logprobs": [-0.5 * (j + 1) for j in range(k)], "labels": [j % 2 for j in range(k)]}
    if kind == "valid":
        return json.dumps(rec).encode(), rid, None
    if kind == "extra":
        rec[name] = detail
        return json.dumps(rec).encode(), rid, None
    if kind == "wrong_type":
        rec[name] = detail
        if name == "id":
            return json.dumps(rec).encode(), None, "field 'id'"
        return json.dumps(rec).encode(), rid, f"'{name}"
    if kind == "missing":
        del rec[name]
        return json.dumps(rec).encode(), rid, f"'{name}'"
    if kind == "non_finite":
        rec[name][k - 1] = detail
        return json.dumps(rec).encode(), rid, f"'{name}[{k - 1}]'"  # NaN / Infinity literals
    if kind == "huge_informal":
        rec["informal"] = "x" * 200_001
        return json.dumps(rec).encode(), rid, "'informal' is 200001 characters"
    if kind == "huge_candidate":
        rec["candidates"][0] = "theorem t : " + "1 + " * 60_000 + "1 = 1"
        return json.dumps(rec).encode(), rid, None  # a result whose candidate 0 failed to parse
    if kind == "bad_utf8":
        marker = "@@BAD@@"
        if name == "informal":
            rec["informal"] = marker
        elif name == "id":
            rec["id"] = marker
        else:
            rec[name][k - 1] = marker
        line = json.dumps(rec).encode().replace(marker.encode(), b"caf\xe9 \xff")
        field = {"informal": "'informal'", "id": "field 'id'"}.get(name, f"'{name}[{k - 1}]'")
        return line, (None if name == "id" else rid), field
    if kind == "not_json":
        return b'{"id": "' + rid.encode() + b'", "informal": ', None, "invalid JSON"
    if kind == "too_deep":
        return f'{{"id": "{rid}", "x": {nested(100_000)}}}'.encode(), None, "nested too deeply"
    if kind == "not_object":
        return b"[1, 2, 3]", None, "expected a JSON object"
    if kind == "deep_field":  # deep but readable: the reranker never looks inside it
        line = f'{{"id": "{rid}", "informal": "p", "candidates": ["{POOL[0]}"], "extra": {nested(300)}}}'
        return line.encode(), rid, None
    raise AssertionError(kind)


def strict(line: str) -> dict:
    def no_constant(name: str):
        raise AssertionError(f"{name} in the output is not JSON")

    return json.loads(line, parse_constant=no_constant)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(cases=st.lists(st.tuples(case(), st.integers(1, 3)), min_size=1, max_size=6))
def test_every_malformed_record_becomes_exactly_one_output_record(tmp_path_factory, cases):
    tmp: Path = tmp_path_factory.mktemp("malformed")
    inp, out = tmp / "in.jsonl", tmp / "out.jsonl"
    lines, expected = [], []
    for i, ((kind, name, detail), k) in enumerate(cases):
        line, rid, needle = build(i, kind, name, detail, k)
        lines.append(line)
        expected.append((rid or f"line-{i + 1}", needle, kind))
    inp.write_bytes(b"\n".join(lines) + b"\n")

    runner = CliRunner()
    r = runner.invoke(app, ["batch", str(inp), str(out), *FAST], catch_exceptions=False)
    assert r.exit_code == 0, r.output
    text = out.read_text(encoding="utf-8")  # strict UTF-8
    got = [strict(x) for x in text.splitlines()]
    assert [g["id"] for g in got] == [rid for rid, _, _ in expected]  # one each, input order
    for g, (rid, needle, kind) in zip(got, expected, strict=True):
        if needle is None:
            assert g["status"] == "ok", (kind, g)
            if kind == "huge_candidate":
                assert "limit" in g["errors"][0]
        else:
            assert g["status"] == "error", (kind, g)
            assert needle in g["error"], (kind, needle, g["error"])
            names_record = f"record {rid}" in g["error"] or f"{inp}:{rid.removeprefix('line-')}" in g["error"]
            assert names_record, (kind, g["error"])

    again = runner.invoke(app, ["batch", str(inp), str(out), *FAST], catch_exceptions=False)
    assert again.exit_code == 0, again.output
    assert f"{len(cases)} records: 0 reranked, 0 errors, {len(cases)} already done" in again.output
    assert out.read_text(encoding="utf-8") == text
