"""The operator's port: ``GET /metrics`` (Prometheus text), never on the players' port.

``--metrics HOST:PORT`` (off by default) opens it, e.g. ``127.0.0.1:9765``: only the
operator's address, a Prometheus scraping each server itself (deploy/prometheus.yml).
Rendering the metrics costs a few milliseconds of the event loop's CPU, so a flood of
scrapes on the players' port slowed every move (issue 46); here only whoever reaches
the operator's address can ask, one request a connection, each answered with
``Connection: close``. A request must arrive whole within :data:`READ_TIMEOUT`
seconds and fit in :data:`MAX_HEAD` bytes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

log = logging.getLogger("pasyans.server")

#: seconds a request's head may take to arrive
READ_TIMEOUT = 5.0
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


class OperatorPort:
    """An HTTP listener answering ``GET /metrics`` with ``render()``, and 404 else."""

    def __init__(self, address: str, render: Callable[[], bytes]) -> None:
        self.host, self.wanted = parse_address(address)
        self.render = render
        self.server: asyncio.Server | None = None

    async def start(self) -> None:
        self.server = await asyncio.start_server(
            self._answer, self.host, self.wanted, limit=MAX_HEAD
        )
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

    async def _answer(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            async with asyncio.timeout(READ_TIMEOUT):
                head = await reader.readuntil(b"\r\n\r\n")
            method, _, rest = head.split(b"\r\n", 1)[0].decode("latin-1").partition(" ")
            path = rest.split(" ", 1)[0].split("?", 1)[0]
            if method == "GET" and path == "/metrics":
                out = response("200 OK", self.render(), CONTENT_TYPE)
            else:
                out = response("404 Not Found", b"not found: this port serves GET /metrics\n")
            writer.write(out)
            async with asyncio.timeout(READ_TIMEOUT):
                await writer.drain()
        except (TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError, OSError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                async with asyncio.timeout(READ_TIMEOUT):
                    await writer.wait_closed()
