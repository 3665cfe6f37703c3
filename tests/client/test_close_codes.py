"""The close codes of issue 46, as the terminal client says them: a connection closed
for falling behind (4000) is a drop like any other, said in words; one closed for not
signing in (4001) is reconnected without a word; a handshake refused for too many
connections from the address (429) says so."""

from __future__ import annotations

import asyncio

import pytest

from client.connection import Connection, ServerUnavailable
from tests.support import eventually, running_app

from .conftest import fresh_name


async def test_a_connection_that_fell_behind_is_a_drop_said_in_words(redis_url: str) -> None:
    async with running_app(redis_url) as app:
        url = f"ws://127.0.0.1:{app.port}/ws"
        lost = asyncio.Event()
        conn = Connection(url, on_lost=lambda _: lost.set())
        async with conn:
            name = (await conn.register(fresh_name()))["player"]
            # the server's own bound, passed: what it does to a reader that stalls
            (server_side,) = [c for c in app.hub.conns if c.player == name]
            server_side.drop("outbox", "over 1048576 bytes waiting to be read")
            await lost.wait()
            assert conn.closed_why == "the server closed the connection: it fell behind reading"
            assert not conn.quiet
            again = await Connection.reopen(url)  # and it comes back as after any drop
            await again.close()


async def test_a_connection_not_signed_in_is_reconnected_quietly(redis_url: str) -> None:
    async with running_app(redis_url, auth_timeout=0.1) as app:
        lost = asyncio.Event()
        conn = Connection(f"ws://127.0.0.1:{app.port}/ws", on_lost=lambda _: lost.set())
        async with conn:
            await lost.wait()
            assert conn.quiet
            assert conn.closed_why == "the server closed the connection: it was not signed in"


async def test_too_many_connections_from_the_address_say_so(redis_url: str) -> None:
    async with running_app(redis_url, address_limits=True, address_connections=1) as app:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with Connection(url):
            with pytest.raises(ServerUnavailable, match="too many connections open"):
                await Connection(url).open()
        await eventually(lambda: app.sessions is not None and not app.sessions.per_address)
