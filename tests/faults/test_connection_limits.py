"""Connections per address, the operator's port and HTTP/1.1 (issue 46, items 2, 4
and 7), tried as an attacker would over raw sockets.

- One address holds at most ``--address-connections`` (32) WebSocket connections: the
  33rd handshake is refused with HTTP 429 while another address connects, and a place
  freed is taken again. The address is the one issue 36 defined: behind a trusted
  balancer the forwarded one, an IPv6 address by its /64, and from any other peer its
  own, whatever ``X-Forwarded-For`` it writes.
- ``/metrics`` is not on the players' port, only on the operator's (``--metrics``).
- Every HTTP answer closes its connection and says ``Connection: close``, so a client
  that keeps connections alive sends its next request on a new one.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.client
from collections.abc import AsyncIterator

import pytest
from websockets.exceptions import InvalidStatus

from server.net import App
from tests.support import ServerProcess, eventually, running_app
from tests.support.fixtures import redis_server, redis_url

from .raw import RawClient

__all__ = ["redis_server", "redis_url"]  # the fixtures of a real Redis, used here

CAP = 32


@contextlib.asynccontextmanager
async def opened(
    url: str, n: int, *, source: str = "127.0.0.1", claims: str | None = None
) -> AsyncIterator[list[RawClient]]:
    """``n`` connections from ``source`` (each writing ``X-Forwarded-For: claims``),
    closed at the end."""
    headers = {"X-Forwarded-For": claims} if claims else {}
    clients: list[RawClient] = []
    try:
        for _ in range(n):
            clients.append(await RawClient.open(url, source=source, headers=headers))
        yield clients
    finally:
        for client in clients:
            client.abort()


async def refused(url: str, *, source: str = "127.0.0.1", claims: str | None = None) -> int:
    """The HTTP status a handshake is refused with (fails if it is accepted)."""
    headers = {"X-Forwarded-For": claims} if claims else {}
    try:
        client = await RawClient.open(url, source=source, headers=headers)
    except InvalidStatus as exc:
        assert exc.response.headers.get("Connection") == "close"
        return exc.response.status_code
    client.abort()
    raise AssertionError("the handshake was accepted")


def held(app: App, address: str) -> int:
    """The connections ``address`` holds on ``app``, as it counts them."""
    assert app.sessions is not None
    return app.sessions.per_address.get(address, 0)


@contextlib.asynccontextmanager
async def limited(redis_url: str, cap: int = CAP) -> AsyncIterator[tuple[App, str]]:
    """A server counting ``cap`` connections per address behind a balancer at
    127.0.0.1."""
    async with running_app(
        redis_url, address_limits=True, trusted_proxies="127.0.0.1", address_connections=cap
    ) as app:
        yield app, f"ws://127.0.0.1:{app.port}/ws"


async def test_the_33rd_connection_of_an_address_is_refused_and_another_address_connects(
    redis_url: str,
) -> None:
    async with limited(redis_url) as (app, url):
        attacker = "198.51.100.7"
        async with opened(url, CAP, claims=attacker) as mine:
            assert await refused(url, claims=attacker) == 429
            # another address, through the same balancer, connects and is answered
            async with opened(url, 1, claims="198.51.100.8") as (other,):
                assert (await other.call("games"))["ok"]
            # a place freed is a place taken again
            mine.pop().abort()
            await eventually(lambda: held(app, attacker) == CAP - 1 or None)
            async with opened(url, 1, claims=attacker) as (again,):
                assert (await again.call("games"))["ok"]
                assert await refused(url, claims=attacker) == 429
        await eventually(lambda: held(app, attacker) == 0 or None)
        assert app.metrics.address_refusals._value.get() == 2


async def test_an_untrusted_peer_counts_as_itself_whatever_it_forwards(redis_url: str) -> None:
    async with limited(redis_url, 3) as (_, url):
        # 127.0.0.2 is no trusted proxy: its header is ignored, and every loopback
        # address is one machine's (issue 36)
        claims = [f"203.0.113.{i}" for i in range(4)]
        async with (
            opened(url, 1, source="127.0.0.2", claims=claims[0]),
            opened(url, 1, source="127.0.0.3", claims=claims[1]),
            opened(url, 1, source="127.0.0.2", claims=claims[2]),
        ):
            assert await refused(url, source="127.0.0.4", claims=claims[3]) == 429


async def test_an_ipv6_address_counts_by_its_64(redis_url: str) -> None:
    async with (
        limited(redis_url, 2) as (_, url),
        opened(url, 1, claims="2001:db8::1"),
        opened(url, 1, claims="2001:db8::2"),
    ):
        assert await refused(url, claims="2001:db8::ffff:3") == 429
        async with opened(url, 1, claims="2001:db8:0:1::1") as (other,):
            assert (await other.call("games"))["ok"]


def get(conn: http.client.HTTPConnection, path: str) -> tuple[int, str, bytes]:
    conn.request("GET", path)
    response = conn.getresponse()
    return response.status, response.getheader("Connection", ""), response.read()


@pytest.mark.parametrize("paths", [["/protocol.json", "/healthz", "/", "/nowhere", "/ws"]])
async def test_a_keep_alive_client_gets_every_answer(redis_url: str, paths: list[str]) -> None:
    async with running_app(redis_url) as app:

        def ask_all() -> list[tuple[int, str]]:
            # one HTTPConnection, as a client that reuses connections: each answer says
            # it closes, so the next request goes on a new socket (http.client opens
            # it); without the header the second request fails (RemoteDisconnected)
            conn = http.client.HTTPConnection("127.0.0.1", app.port, timeout=30)
            operator = http.client.HTTPConnection("127.0.0.1", app.metrics_port, timeout=30)
            try:
                answers = [get(conn, path)[:2] for path in paths]
                answers += [get(operator, "/metrics")[:2] for _ in range(2)]
                return answers
            finally:
                conn.close()
                operator.close()

        answers = await asyncio.to_thread(ask_all)
        assert [status for status, _ in answers] == [200, 200, 200, 404, 400, 200, 200]
        assert {connection for _, connection in answers} == {"close"}


async def test_metrics_are_not_on_the_players_port(redis_url: str) -> None:
    # as `make run` starts a server: no operator's address, no /metrics anywhere
    async with running_app(redis_url, metrics="") as app:
        assert app.operator is None

        def metrics() -> tuple[int, bytes]:
            conn = http.client.HTTPConnection("127.0.0.1", app.port, timeout=30)
            try:
                status, _, body = get(conn, "/metrics")
                return status, body
            finally:
                conn.close()

        status, body = await asyncio.to_thread(metrics)
        assert status == 404 and b"pasyans_" not in body


def test_a_server_process_serves_metrics_on_its_operators_port_only() -> None:
    # a real `pasyans-server serve` (its own event loop, uvloop when installed), with
    # --metrics 127.0.0.1:PORT as ServerProcess starts it
    with ServerProcess("--no-prepare-dailies", "--log-level", "warning") as server:
        players = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        operator = http.client.HTTPConnection("127.0.0.1", server.metrics_port, timeout=30)
        try:
            assert get(players, "/metrics")[:2] == (404, "close")
            for _ in range(3):  # one after another, each on a new connection
                status, connection, body = get(operator, "/metrics")
                assert (status, connection) == (200, "close")
                assert b"pasyans_connections " in body
            assert get(operator, "/healthz")[0] == 404
        finally:
            players.close()
            operator.close()
        assert "Traceback" not in server.output()
