"""Informalizers; the HTTP one against a real chat-completions server on 127.0.0.1."""

from __future__ import annotations

import json
import logging
import pickle
import threading
import traceback
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from embeddings import (
    GivenInformalizer,
    InformalizationError,
    InformalizerConfigError,
    OpenAIInformalizer,
)

KEY = "sk-test-TOPSECRET-0123456789"

Behaviour = Callable[["_Handler", dict], None]


class ChatServer:
    """A scripted OpenAI-compatible server: each request takes the next behaviour."""

    def __init__(self, script: list[Behaviour] | None = None, default: Behaviour | None = None):
        self.script = list(script or [])
        self.default = default or reply_back
        self.requests: list[dict] = []
        self.lock = threading.Lock()
        self.in_flight = 0
        self.max_in_flight = 0
        self.release = threading.Event()
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self.httpd.daemon_threads = True
        self.httpd.chat = self  # type: ignore[attr-defined]
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def next_behaviour(self) -> Behaviour:
        with self.lock:
            return self.script.pop(0) if self.script else self.default

    def __enter__(self) -> ChatServer:
        self.thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()  # let hanging handlers finish
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join(timeout=5)


class _Handler(BaseHTTPRequestHandler):
    def log_message(self, *args: object) -> None:  # keep test output quiet
        pass

    def do_POST(self) -> None:  # noqa: N802 (http.server naming)
        chat: ChatServer = self.server.chat  # type: ignore[attr-defined]
        length = int(self.headers.get("Content-Length", 0))
        body = json.loads(self.rfile.read(length) or b"{}")
        record = {"path": self.path, "headers": dict(self.headers), "body": body}
        with chat.lock:
            chat.requests.append(record)
            chat.in_flight += 1
            chat.max_in_flight = max(chat.max_in_flight, chat.in_flight)
        try:
            if self.path != "/v1/chat/completions":
                send(self, 404, {"error": "not found"})
                return
            chat.next_behaviour()(self, record)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (timeout test)
        finally:
            answered(self)


def answered(h: BaseHTTPRequestHandler) -> None:
    """The request stops counting as in flight once its answer starts (before the client can
    read it and send its next request), once per request."""
    if getattr(h, "_answered", False):
        return
    h._answered = True  # type: ignore[attr-defined]
    chat: ChatServer = h.server.chat  # type: ignore[attr-defined]
    with chat.lock:
        chat.in_flight -= 1


def send(h: BaseHTTPRequestHandler, status: int, payload: object, headers: dict | None = None):
    answered(h)
    data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    h.send_response(status)
    h.send_header("Content-Type", "application/json")
    h.send_header("Content-Length", str(len(data)))
    for k, v in (headers or {}).items():
        h.send_header(k, v)
    h.end_headers()
    h.wfile.write(data)


def completion(content: str) -> dict:
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}],
    }


def statement_of(record: dict) -> str:
    return record["body"]["messages"][-1]["content"].rsplit("\n\n", 1)[-1]


def reply_back(h, record):
    send(h, 200, completion(f"In words: {statement_of(record)}"))


def status(code: int, headers: dict | None = None) -> Behaviour:
    return lambda h, record: send(h, code, {"error": {"message": f"status {code}"}}, headers)


def hang(h, record):
    """Answer only when the test is over: the client's timeout always fires first."""
    h.server.chat.release.wait(timeout=30)
    reply_back(h, record)


def drip(where: str, seconds: float = 60.0, every: float = 0.25) -> Behaviour:
    """A server that never stops sending: one byte every ``every`` seconds for ``seconds``,
    in the headers or in the body. Each read gets a byte long before a per-read timeout."""

    def run(h, record):
        stop = h.server.chat.release
        n = int(seconds / every)
        if where == "headers":
            h.wfile.write(b"HTTP/1.1 200 OK\r\nX-Slow: ")
            chunks = [b"a"] * n
        else:
            body = json.dumps(completion("x" * n)).encode()
            h.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                          b"Content-Length: " + str(len(body)).encode() + b"\r\n\r\n")
            chunks = [body[i:i + 1] for i in range(len(body))]
        for c in chunks:
            if stop.wait(every):
                return
            h.wfile.write(c)
            h.wfile.flush()

    return run


def echo_auth(code: int) -> Behaviour:
    def run(h, record):
        auth = record["headers"].get("Authorization", "")
        if code == 200:
            send(h, 200, completion(f"header was {auth}"))
        else:
            send(h, code, {"error": {"message": f"bad request with {auth}"}})

    return run


def client(server: ChatServer, **kw) -> OpenAIInformalizer:
    kw.setdefault("backoff", 0.0)
    return OpenAIInformalizer(model="test-model", base_url=server.url, api_key=KEY, **kw)


@pytest.fixture(autouse=True)
def _no_env(monkeypatch):
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_MODEL"):
        monkeypatch.delenv(name, raising=False)


# ----------------------------------------------------------------------------- happy path


def test_chat_completions_request_and_ordering():
    statements = [f"theorem t{i} : {i} + 0 = {i}" for i in range(6)]
    with ChatServer() as server, client(server, max_workers=3) as inf:
        out = inf.informalize(statements)
    assert out == [f"In words: {s}" for s in statements]
    assert len(server.requests) == 6
    req = server.requests[0]
    assert req["path"] == "/v1/chat/completions"
    assert req["headers"]["Authorization"] == f"Bearer {KEY}"
    body = req["body"]
    assert body["model"] == "test-model"
    assert body["temperature"] == 0.0
    assert body["messages"][0]["role"] == "system"
    assert "natural-language sentence" in body["messages"][1]["content"]


def test_concurrency_limit_is_used_and_respected():
    workers = 2
    barrier = threading.Barrier(workers, timeout=10)

    def meet_then_reply(h, record):
        try:
            barrier.wait()  # only passes if `workers` requests are in flight together
        except threading.BrokenBarrierError:
            send(h, 400, {"error": "requests were not concurrent"})
            return
        reply_back(h, record)

    with ChatServer(default=meet_then_reply) as server, client(server, max_workers=workers) as inf:
        out = inf.informalize(["a", "b", "c", "d"])
    assert out == ["In words: a", "In words: b", "In words: c", "In words: d"]
    assert server.max_in_flight == workers


def test_env_configuration_and_argument_override(monkeypatch):
    with ChatServer() as server:
        monkeypatch.setenv("OPENAI_BASE_URL", server.url)
        monkeypatch.setenv("OPENAI_MODEL", "env-model")
        monkeypatch.setenv("OPENAI_API_KEY", KEY)
        inf = OpenAIInformalizer(backoff=0.0)
        assert inf.informalize(["x = 1"]) == ["In words: x = 1"]
        assert server.requests[-1]["body"]["model"] == "env-model"
        assert server.requests[-1]["headers"]["Authorization"] == f"Bearer {KEY}"
        over = OpenAIInformalizer(model="arg-model", api_key="other-key", backoff=0.0)
        over.informalize(["y = 2"])
        assert server.requests[-1]["body"]["model"] == "arg-model"
        assert server.requests[-1]["headers"]["Authorization"] == "Bearer other-key"
        inf.close()
        over.close()


def test_no_key_sends_no_authorization_header():
    with ChatServer() as server:
        inf = OpenAIInformalizer(model="m", base_url=server.url)
        assert not inf.has_api_key
        inf.informalize(["z"])
        assert "Authorization" not in server.requests[0]["headers"]


def test_model_is_required():
    with pytest.raises(ValueError, match="OPENAI_MODEL"):
        OpenAIInformalizer(base_url="http://127.0.0.1:9/v1")


# ----------------------------------------------------------------------------- retries


def test_retries_500_and_429_then_succeeds():
    script = [status(500), status(429, {"Retry-After": "0"}), reply_back]
    with ChatServer(script) as server, client(server, max_retries=3) as inf:
        assert inf.informalize(["p"]) == ["In words: p"]
        assert inf.n_requests == 3
    assert len(server.requests) == 3


def test_gives_up_after_max_retries():
    with ChatServer(default=status(503)) as server, client(server, max_retries=2) as inf:
        with pytest.raises(InformalizationError, match="after 3 attempts: HTTP 503"):
            inf.informalize(["p"])
    assert len(server.requests) == 3


def test_client_errors_are_not_retried():
    with ChatServer(default=status(400)) as server, client(server, max_retries=5) as inf:
        with pytest.raises(InformalizationError, match="HTTP 400"):
            inf.informalize(["p"])
    assert len(server.requests) == 1


def test_timeout_is_retried():
    script = [hang, reply_back]
    with ChatServer(script) as server, client(server, timeout=1.5, max_retries=1) as inf:
        assert inf.informalize(["slow"]) == ["In words: slow"]
        assert inf.n_requests == 2
    assert len(server.requests) == 2


def test_timeouts_exhausted_raise_a_clear_error():
    server = ChatServer(default=hang)
    with server, client(server, timeout=0.5, max_retries=1) as inf:
        with pytest.raises(InformalizationError, match="timeout after 0.5s"):
            inf.informalize(["slow"])


def test_on_error_empty_keeps_the_batch_going():
    def fail_on_bad(h, record):
        if statement_of(record) == "bad":
            send(h, 422, {"error": "unprocessable"})
        else:
            reply_back(h, record)

    with ChatServer(default=fail_on_bad) as server:
        inf = client(server, on_error="empty", max_workers=2)
        assert inf.informalize(["good", "bad", "fine"]) == ["In words: good", "", "In words: fine"]


def test_malformed_responses():
    def not_json(h, record):
        send(h, 200, b"<html>oops</html>")

    def no_choices(h, record):
        send(h, 200, {"choices": []})

    with ChatServer([not_json, no_choices]) as server, client(server) as inf:
        with pytest.raises(InformalizationError, match="not JSON"):
            inf.informalize(["a"])
        with pytest.raises(InformalizationError, match="malformed"):
            inf.informalize(["b"])


def test_answer_is_cleaned_to_one_sentence():
    def fenced(h, record):
        send(h, 200, completion('```\n"For all  x,\n x = x."\n```'))

    with ChatServer([fenced]) as server, client(server) as inf:
        assert inf.informalize(["t"]) == ["For all x, x = x."]


# ----------------------------------------------------------------------------- key secrecy


def test_key_never_leaks(caplog):
    caplog.set_level(logging.DEBUG)  # httpx/httpcore debug logs included
    script = [echo_auth(500), echo_auth(500), echo_auth(401)]
    with ChatServer(script) as server, client(server, max_retries=3) as inf:
        assert KEY not in repr(inf)
        assert KEY not in str(vars(inf))
        assert "***" in repr(inf)
        with pytest.raises(InformalizationError) as info:
            inf.informalize(["leak?"])
        # the server really received the key (and echoed it into its error body)
        assert server.requests[0]["headers"]["Authorization"] == f"Bearer {KEY}"
        err = info.value
        text = "".join(traceback.format_exception(type(err), err, err.__traceback__))
        assert "bad request with Bearer ***" in str(err)
        assert KEY not in text
        # a success body echoing the key is redacted in the output record too
        server.script.append(echo_auth(200))
        out = inf.informalize(["echo"])
        assert out == ["header was Bearer ***"]
        assert KEY not in pickle.dumps(inf).decode("latin-1")
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "retrying" in logged  # the retries were logged ...
    assert KEY not in logged  # ... without the key
    assert KEY not in caplog.text


def test_pickled_informalizer_rereads_env_key(monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    inf = OpenAIInformalizer(model="m", base_url="http://127.0.0.1:9/v1")
    blob = pickle.dumps(inf)
    assert KEY.encode() not in blob
    assert pickle.loads(blob).has_api_key
    # a key passed as an argument is not written into the pickle at all ...
    explicit = OpenAIInformalizer(model="m", base_url="http://127.0.0.1:9/v1", api_key="k-arg")
    blob = pickle.dumps(explicit)
    assert b"k-arg" not in blob
    # ... it comes back from this process's keyring, not from the pickle
    assert pickle.loads(blob).has_api_key


def test_an_explicit_key_that_did_not_reach_a_process_fails_loudly(monkeypatch):
    """What a worker process that was not handed the key sees: no silent 401s."""
    from embeddings import informalize

    with ChatServer() as server:
        inf, lenient = client(server), client(server, on_error="empty")
        monkeypatch.setattr(informalize, "_KEYRING", {})  # a fresh process
        there = pickle.loads(pickle.dumps(inf))
        assert not there.has_api_key
        with pytest.raises(InformalizerConfigError, match="api_key= did not reach this process"):
            there.informalize(["a"])
        with pytest.raises(InformalizerConfigError):  # on_error="empty" does not hide it either
            pickle.loads(pickle.dumps(lenient)).informalize(["a"])
        assert server.requests == []  # nothing was sent without the key
        # the worker-side installation brings it back
        monkeypatch.setattr(informalize, "_KEYRING", {})
        informalize.install_worker_keys(informalize.worker_keys(inf))
        assert pickle.loads(pickle.dumps(inf)).informalize(["b"]) == ["In words: b"]
        assert server.requests[-1]["headers"]["Authorization"] == f"Bearer {KEY}"


def test_a_rejected_key_is_an_error_of_the_problem_not_a_silent_zero():
    from rerank import Reranker

    with ChatServer(default=status(401)) as server:
        rr = Reranker(informalizer=client(server), relation="syntactic", check_vacuous=False)
        with pytest.raises(InformalizerConfigError, match="HTTP 401"):
            rr.rerank("x = 1", ["theorem t (x : ℕ) (h : x = 1) : x = 1"])


def test_error_body_is_redacted_before_it_is_cut(caplog):
    """The body is cut at 200 characters: a key straddling the cut leaked its first characters
    into the exception, the retry log and the batch output."""
    caplog.set_level(logging.DEBUG)

    def key_at_the_cut(h, record):
        send(h, 500, {"e": "x" * 183 + KEY + " more"})  # the key spans characters 190..217

    with ChatServer(default=key_at_the_cut) as server, client(server, max_retries=1) as inf:
        with pytest.raises(InformalizationError) as info:
            inf.informalize(["p"])
        from rerank import Reranker

        r = Reranker(informalizer=client(server, max_retries=0), relation="syntactic",
                     check_vacuous=False).rerank("x = 1", ["theorem t (x : ℕ) : x = x"])
    record = json.dumps(r.to_dict())
    assert "informalization failed" in record
    for text in (str(info.value), caplog.text, record):
        assert KEY[:6] not in text  # "sk-tes": not even the start of the key
    assert "***" in str(info.value)


@pytest.mark.timeout(40)
@pytest.mark.parametrize("where", ["body", "headers"])
def test_a_slow_drip_server_times_out_after_the_total_deadline(where):
    """One byte every 0.25 s for 60 s: each read succeeds, only a total deadline ends it
    (without one this test would run into its 40 s pytest timeout)."""
    with ChatServer(default=drip(where)) as server, client(server, timeout=1.0, max_retries=1) as inf:
        with pytest.raises(InformalizationError, match="timeout after 1s"):
            inf.informalize(["slow"])
        assert len(server.requests) == 2  # the retry got its own deadline
    # the client stays usable for the next statement (connections are not left behind)
    with ChatServer() as server, client(server, timeout=1.0) as inf:
        assert inf.informalize(["fast"]) == ["In words: fast"]


# ----------------------------------------------------------------------------- given texts


def test_given_informalizer_sequence_and_mapping():
    g = GivenInformalizer(["one", "two"])
    assert g.informalize(["s1", "s2"]) == ["one", "two"]
    with pytest.raises(InformalizationError, match="2 back-translations given for 3"):
        g.informalize(["a", "b", "c"])
    m = GivenInformalizer({"s1": "first", "s2": "second"})
    assert m(["s2", "s1"]) == ["second", "first"]
    with pytest.raises(InformalizationError, match="no back-translation"):
        m.informalize(["s3"])
    with pytest.raises(TypeError):
        GivenInformalizer("just one string")
    with pytest.raises(TypeError):
        GivenInformalizer(["ok", None])


def test_parsed_statements_are_sent_as_text():
    from provers.ir import NAT, REAL, Statement, Var, VarBinder, app, num

    x = Var("x", REAL)
    bare = Statement(
        (VarBinder(x),),
        app("le", num(0, REAL), app("pow", x, num(2, NAT))),
    )
    with_source = Statement(
        (VarBinder(x),), bare.conclusion, source="theorem t (x : ℝ) : 0 ≤ x ^ 2"
    )
    with ChatServer() as server, client(server) as inf:
        out = inf.informalize([with_source, bare])
    assert out[0] == "In words: theorem t (x : ℝ) : 0 ≤ x ^ 2"
    # no source text: the IR's neutral rendering is sent
    assert out[1].startswith("In words: (x : Real) ⊢ ")


def only_with_the_key(h, record):
    if record["headers"].get("Authorization") != f"Bearer {KEY}":
        send(h, 401, {"error": {"message": "missing or wrong key"}})
    else:
        reply_back(h, record)


@pytest.mark.timeout(240)
def test_an_explicit_key_reaches_batch_worker_processes(tmp_path):
    """``--workers 2`` used to drop a key passed as api_key=: every request got 401 and the
    batch reported "0 errors"."""
    from rerank.batch import run_batch

    inp = tmp_path / "in.jsonl"
    inp.write_text("".join(json.dumps({"id": f"p{i}", "informal": f"x = {i}",
                                       "candidates": [f"theorem t (x : ℕ) : x + {i} = {i} + x"]}) + "\n"
                           for i in range(4)))
    with ChatServer(default=only_with_the_key) as server:
        params = {"informalizer": client(server), "relation": "syntactic", "check_vacuous": False}
        s = run_batch(inp, tmp_path / "out.jsonl", params, workers=2, progress=False)
        assert (s.ok, s.errors) == (4, 0)
        auth = {r["headers"].get("Authorization") for r in server.requests}
        assert auth == {f"Bearer {KEY}"} and len(server.requests) == 4
        got = [json.loads(line) for line in (tmp_path / "out.jsonl").read_text().splitlines()]
        assert all(g["back_translations"][0].startswith("In words: theorem t") for g in got)
        with pytest.raises(ValueError, match="does not travel to Dask workers.*OPENAI_API_KEY"):
            run_batch(inp, tmp_path / "dask.jsonl", params, scheduler="tcp://127.0.0.1:1", progress=False)
