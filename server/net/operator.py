"""The operator's port: ``GET /metrics`` (Prometheus text), never on the players' port.

``--metrics HOST:PORT`` (off by default) opens it, e.g. ``127.0.0.1:18765``: only the
operator's address, a Prometheus scraping each server itself (deploy/prometheus.yml).
Rendering the metrics costs a few milliseconds of the event loop's CPU, so a flood of
scrapes on the players' port slowed every move (issue 46); here only whoever reaches
the operator's address can ask, one request a connection (a plain asyncio protocol:
no task, a few callbacks), each answered with ``Connection: close``, and a rendering
serves every request of the next :data:`FRESH_FOR` seconds. A request must arrive
whole within :data:`READ_TIMEOUT` seconds and fit in :data:`MAX_HEAD` bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import cast

log = logging.getLogger("pasyans.server")

#: seconds a request's head may take to arrive
READ_TIMEOUT = 5.0
#: seconds a rendering of the metrics is answered again: a scrape costs the event loop
#: a few milliseconds, so a flood of them gets at most four a second (a scrape is at
#: most this old; Prometheus asks every 15 s)
FRESH_FOR = 0.25
#: the largest request head read, in bytes
MAX_HEAD = 8192
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"


def parse_address(spec: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:9765`` for IPv6) as (host, port); ``ValueError`` if not."""
    host, sep, port = spec.strip().rpartition(":")
    if not sep or not host or not port.isdigit() or int(port) > 65535:
        raise ValueError(f"{spec!r} is not HOST:PORT")
    return host.strip("[]"), int(port)


def response(status: str, body: bytes, content_type: str = "text/plain; charset=utf-8") -> bytes:
    head = (
        f"HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\n"
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    return head.encode() + body


class _Request(asyncio.Protocol):
    """One connection of the operator's port: its request head, one answer, closed.
    A plain protocol, no task: a scrape costs the loop a few callbacks."""

    def __init__(self, port: OperatorPort) -> None:
        self.port = port
        self.head = b""
        self.transport: asyncio.Transport | None = None
        self.timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # (uvloop's transports are no subclass of asyncio's: cast, not checked)
        self.transport = transport = cast(asyncio.Transport, transport)
        loop = asyncio.get_running_loop()
        self.timer = loop.call_later(READ_TIMEOUT, transport.abort)

    def data_received(self, data: bytes) -> None:
        assert self.transport is not None
        self.head += data
        if b"\r\n\r\n" not in self.head:
            if len(self.head) > MAX_HEAD:
                self.transport.abort()
            return
        self.transport.pause_reading()
        method, _, rest = self.head.split(b"\r\n", 1)[0].decode("latin-1").partition(" ")
        path = rest.split(" ", 1)[0].split("?", 1)[0]
        if method == "GET" and path == "/metrics":
            out = response("200 OK", self.port.body(), CONTENT_TYPE)
        else:
            out = response("404 Not Found", b"not found: this port serves GET /metrics\n")
        self.transport.write(out)
        self.transport.close()  # once what is written is sent (READ_TIMEOUT at most)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.timer is not None:
            self.timer.cancel()


class OperatorPort:
    """An HTTP listener answering ``GET /metrics`` with ``render()``, and 404 else."""

    def __init__(self, address: str, render: Callable[[], bytes]) -> None:
        self.host, self.wanted = parse_address(address)
        self.render = render
        self.server: asyncio.Server | None = None
        #: the last rendering and when it was made (loop time)
        self._body = b""
        self._made = float("-inf")

    def body(self) -> bytes:
        """The metrics, rendered at most every :data:`FRESH_FOR` seconds."""
        now = asyncio.get_running_loop().time()
        if now - self._made >= FRESH_FOR:
            self._body, self._made = self.render(), now
        return self._body

    async def start(self) -> None:
        loop = asyncio.get_running_loop()
        self.server = await loop.create_server(lambda: _Request(self), self.host, self.wanted)
        log.info("metrics on http://%s:%d/metrics", self.host, self.port)

    @property
    def port(self) -> int:
        assert self.server is not None
        port: int = self.server.sockets[0].getsockname()[1]
        return port

    async def close(self) -> None:
        if self.server is not None:
            self.server.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.server.wait_closed(), 2)
            self.server = None
