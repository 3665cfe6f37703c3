"""The deployment's load balancers tell the servers each client's address, and the
servers believe no more than that (issue 22, item 10): deploy/haproxy.cfg and
deploy/nginx.conf as they are, in front of a real server whose only trusted proxy is
the balancer's address, 127.0.0.1. The players connect from other loopback addresses
(127.0.0.2, 127.0.0.3), each writing an X-Forwarded-For of its own to pass as someone
else: their registrations still count against their real address, and every loopback
address is one machine's (issue 36)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from deploy.local import start_balancer
from tests.support import GUARD, TestClient, connect, running_app
from tests.support.fixtures import redis_server, redis_url, unique_name

from .conftest import need_balancer

__all__ = ["redis_server", "redis_url"]  # the fixtures of a real Redis, used here


@contextlib.asynccontextmanager
async def behind(kind: str, redis_url: str, directory: Path) -> AsyncIterator[str]:
    """A server allowing one registration an address, behind ``kind``: its URL."""
    async with running_app(
        redis_url, address_limits=True, address_registrations=1, trusted_proxies="127.0.0.1"
    ) as app:
        balancer, port = await asyncio.to_thread(start_balancer, kind, [app.port], directory)
        try:
            yield f"ws://127.0.0.1:{port}/ws"
        finally:
            await asyncio.to_thread(balancer.stop)


@pytest.mark.parametrize("kind", ["haproxy", "nginx"])
async def test_the_balancer_forwards_the_real_address(
    kind: str, redis_url: str, tmp_path: Path
) -> None:
    need_balancer(kind)
    async with behind(kind, redis_url, tmp_path) as url:

        def player(source: str, claims: str) -> contextlib.AbstractAsyncContextManager[TestClient]:
            return connect(
                url,
                local_addr=(source, 0),
                additional_headers={"X-Forwarded-For": claims},
            )

        async with player("127.0.0.2", "198.51.100.1") as c:
            await c.register(unique_name())
        async with player("127.0.0.2", "198.51.100.2") as c:
            err = await c.error("register", name=unique_name())
            assert err["code"] == "rate_limited", err
        async with player("127.0.0.3", "198.51.100.3") as c:  # the same machine
            err = await c.error("register", name=unique_name())
            assert err["code"] == "rate_limited", err


@pytest.mark.parametrize("kind", ["haproxy", "nginx"])
async def test_the_web_client_is_served_through_the_balancer(
    kind: str, redis_url: str, tmp_path: Path
) -> None:
    """Issue 26: the page and its files, and the page's WebSocket (same origin, so its
    Origin header names the balancer's host and port), pass through the balancer."""
    import urllib.request

    need_balancer(kind)
    async with behind(kind, redis_url, tmp_path) as url:
        root = url.removeprefix("ws://").removesuffix("/ws")

        def get(path: str) -> tuple[int, str, bytes]:
            with urllib.request.urlopen(f"http://{root}{path}", timeout=GUARD) as r:
                return r.status, r.headers.get("Content-Type", ""), r.read()

        status, kind_, body = await asyncio.to_thread(get, "/")
        assert status == 200 and kind_.startswith("text/html") and b"<script" in body
        status, kind_, _ = await asyncio.to_thread(get, "/app.mjs")
        assert status == 200 and "javascript" in kind_
        async with connect(url, origin=f"http://{root}") as page:
            await page.register(unique_name())
