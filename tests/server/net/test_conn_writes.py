"""A connection's frames (``server.net.conn.Conn``) over a real WebSocket: small ones
are written at once when nothing waits before them (issue 50: no writer task a frame),
large ones through the outbox and its writer, and the peer reads them all in the order
they were sent; a peer that stops reading still fills the bounded outbox, small frames
too, and is closed for it (4000)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from websockets.asyncio.client import ClientConnection, connect
from websockets.asyncio.server import ServerConnection, serve

from server.net.conn import WRITE_NOW_BYTES, Conn
from server.net.ratelimit import TokenBucket
from tests.support import GUARD, eventually


@contextlib.asynccontextmanager
async def pair(limit: int) -> AsyncIterator[tuple[Conn, ClientConnection]]:
    """A server-side :class:`Conn` (outbox bound ``limit``) and its client."""
    made: asyncio.Future[Conn] = asyncio.get_running_loop().create_future()
    done = asyncio.Event()

    async def handler(ws: ServerConnection) -> None:
        conn = Conn(ws, TokenBucket(1e9, 10**9, 0.0))
        conn.start(limit=limit, write_timeout=60.0)
        made.set_result(conn)
        await done.wait()
        await conn.stop()

    async with serve(handler, "127.0.0.1", 0, compression=None, ping_interval=None) as server:
        port = server.sockets[0].getsockname()[1]
        # close_timeout: a client that stopped reading never reads the server's close
        # frame (its queue of unread frames is full), so its closing handshake can only
        # time out (websockets' default: 10 s); nothing is checked of it
        async with connect(
            f"ws://127.0.0.1:{port}",
            compression=None,
            ping_interval=None,
            max_size=None,
            close_timeout=0.2,
        ) as client:
            conn = await asyncio.wait_for(made, GUARD)
            try:
                yield conn, client
            finally:
                done.set()


async def test_small_and_large_frames_arrive_in_the_order_sent() -> None:
    async with pair(limit=1 << 20) as (conn, client):
        small = [bytes([i]) * 100 for i in range(50)]
        large = [bytes([i]) * (WRITE_NOW_BYTES + 1) for i in range(50, 60)]
        # small, then a large one (the writer), then small ones behind it, ...
        order = [*small[:10], large[0], *small[10:20], *large[1:5], *small[20:], *large[5:]]
        conn.send(small[0])
        assert conn.writer is None and conn.queued == 0  # written at once, no task
        for frame in order[1:]:
            conn.send(frame)
        assert conn.writer is not None  # the large ones went through the outbox
        got = [await asyncio.wait_for(client.recv(), GUARD) for _ in order]
        assert got == order
        await eventually(lambda: conn.writer is None or None, what="the writer done")
        conn.send(small[1])  # nothing waits again: at once
        assert conn.writer is None and await asyncio.wait_for(client.recv(), GUARD) == small[1]


async def test_a_peer_that_stops_reading_fills_the_outbox_with_small_frames_and_is_closed() -> None:
    limit = 256 * 1024
    async with pair(limit=limit) as (conn, client):
        client.transport.pause_reading()  # the peer reads nothing from now on
        frame = b"e" * 1000  # an event's size: written at once while the socket takes it
        sent = 0

        async def flood() -> bool | None:
            nonlocal sent
            for _ in range(200):
                conn.send(frame)
                sent += 1
            await asyncio.sleep(0)  # let the loop write what it can
            return conn.dropped == "outbox" or None

        await eventually(flood, what="the outbox's bound closing the connection")
        assert conn.closed and conn.queued == 0  # what waited is dropped at once
        # it took more than the outbox: the kernel's and websockets' buffers first
        assert sent * len(frame) > limit
        client.transport.resume_reading()
