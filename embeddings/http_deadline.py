"""A total deadline per HTTP request for an ``httpx.Client``.

Why: httpx timeouts apply to each socket operation, so a server that sends one byte every
0.8 s (in the headers or in the body) keeps a request alive forever under a 60 s timeout.
Here every connect / read / write of a request gets at most the time left until the
request's deadline, so the whole request ends by then with an ``httpx.TimeoutException``.

How: the client's connection pools get a network backend whose streams clamp each
operation's timeout to the deadline of the calling thread (set with :func:`deadline`;
httpx's sync client does its socket I/O in the calling thread). Connections are reused as
before; proxies and TLS settings are untouched.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import httpcore
import httpx

__all__ = ["deadline", "install"]

_local = threading.local()


@contextmanager
def deadline(seconds: float) -> Iterator[None]:
    """Requests made by this thread inside the block end within ``seconds`` in total."""
    before = getattr(_local, "at", None)
    _local.at = time.monotonic() + seconds
    try:
        yield
    finally:
        _local.at = before


def _clamp(timeout: float | None, error: type[Exception]) -> float | None:
    at = getattr(_local, "at", None)
    if at is None:
        return timeout
    left = at - time.monotonic()
    if left <= 0:
        raise error("total deadline of the request passed")
    return left if timeout is None else min(timeout, left)


class _Stream(httpcore.NetworkStream):
    def __init__(self, inner: httpcore.NetworkStream) -> None:
        self._inner = inner

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._inner.read(max_bytes, _clamp(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._inner.write(buffer, _clamp(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._inner.close()

    def start_tls(self, ssl_context: Any, server_hostname: str | None = None,
                  timeout: float | None = None) -> httpcore.NetworkStream:
        inner = self._inner.start_tls(ssl_context, server_hostname, _clamp(timeout, httpcore.ConnectTimeout))
        return _Stream(inner)

    def get_extra_info(self, info: str) -> Any:
        return self._inner.get_extra_info(info)


class _Backend(httpcore.NetworkBackend):
    def __init__(self, inner: httpcore.NetworkBackend) -> None:
        self._inner = inner

    def connect_tcp(self, host: str, port: int, timeout: float | None = None,
                    local_address: str | None = None, socket_options: Any = None) -> httpcore.NetworkStream:
        stream = self._inner.connect_tcp(host, port, _clamp(timeout, httpcore.ConnectTimeout),
                                         local_address, socket_options)
        return _Stream(stream)

    def connect_unix_socket(self, path: str, timeout: float | None = None,
                            socket_options: Any = None) -> httpcore.NetworkStream:
        stream = self._inner.connect_unix_socket(path, _clamp(timeout, httpcore.ConnectTimeout), socket_options)
        return _Stream(stream)

    def sleep(self, seconds: float) -> None:
        self._inner.sleep(seconds)


def install(client: httpx.Client) -> bool:
    """Put the deadline backend under every connection pool of ``client`` (its transport and
    proxy mounts). False when this httpx keeps its pools elsewhere: then only the per-operation
    timeouts apply (the test suite pins the behaviour)."""
    transports = [client._transport, *client._mounts.values()]  # noqa: SLF001 - see docstring
    done = False
    for transport in transports:
        pool = getattr(transport, "_pool", None)
        backend = getattr(pool, "_network_backend", None)
        if backend is None:
            continue
        if not isinstance(backend, _Backend):
            pool._network_backend = _Backend(backend)  # type: ignore[union-attr]
        done = True
    return done
