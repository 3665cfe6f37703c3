"""One client connection and its outbox: nothing the server sends ever waits on a peer.

Every frame for a connection — its replies, and the events any other task delivers
(``race``, ``race_started``, ``race_end``'s news, ``invited``, a spectator's boards,
``bye``) — goes into the connection's **outbox**, a queue of encoded frames, and is
written by the connection's own **writer** task (one runs while the outbox holds
frames: an idle connection holds no task here, only timers). :meth:`Conn.push` and
:meth:`Conn.send` never wait: whoever delivers an event to a thousand players hands a
frame to a thousand outboxes and goes on. A small frame (up to ``WRITE_NOW_BYTES``: a
move's delta, an event) with nothing waiting before it is written at once instead, when
websockets' own ``send`` would not wait either (its buffer under its high water mark):
a writer task and a timeout for each frame cost a move 30–40 µs of CPU (issue 50).

A connection that does not keep up is closed with ``4000`` (``P.CLOSE_TOO_SLOW``),
its games untouched (the client reconnects and resumes, as after any drop):

- its outbox holds more than ``outbox_bytes`` (``--outbox-bytes``): the frames
  waiting are dropped at once, so a peer that never reads holds at most that much of
  the server's memory, beyond websockets' own write buffer (``write_limit``, 32 KiB)
  and the kernel's;
- one write waits longer than ``write_timeout`` for the peer to read
  (``--write-timeout``: websockets' ``send`` waits while its buffer is over its high
  water mark);
- a keepalive ping is not answered within ``ping_timeout``: the ping's own wait for a
  full buffer counts in it (websockets' keepalive would wait for the buffer first, with
  no limit, so the server runs its own).

Closing tries the closing handshake for ``CLOSE_GRACE`` seconds (a peer that is only
slow reads the code and the reason), then aborts the socket (``transport.abort``).
"""

from __future__ import annotations

import asyncio
import collections
import logging
from typing import TYPE_CHECKING, Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

import protocol as P
from protocol import ErrorCode, ProtocolError

if TYPE_CHECKING:
    from .ratelimit import TokenBucket

log = logging.getLogger("pasyans.server")

#: seconds a closing handshake is given before the socket is aborted
CLOSE_GRACE = 2.0
#: a frame up to this size (a move's delta, an event) is written at once when nothing
#: waits before it (:meth:`Conn._write_now`); a larger one (a rules page, a page of an
#: export, a whole state) always goes through the outbox and its writer
WRITE_NOW_BYTES = 4096


class Conn:
    """One client connection: its socket, player (once authenticated), rate-limit
    bucket, count of bad frames in a row, the client address its limits per address
    count against (:func:`~.address.client_address`), and its outbox. :meth:`push`
    queues an event, :meth:`send` a reply; :meth:`start` starts its writer (and its
    keepalive); :meth:`close` closes it after what is queued."""

    __slots__ = (
        "_closing",
        "_keepalive",
        "_loop",
        "_ping_timer",
        "_timer",
        "_writer",
        "account",
        "address",
        "bad",
        "bucket",
        "busy",
        "closed",
        "digest",
        "dropped",
        "limit",
        "outbox",
        "ping_interval",
        "ping_timeout",
        "player",
        "queued",
        "write_timeout",
        "ws",
    )

    def __init__(self, ws: ServerConnection, bucket: TokenBucket, address: str = "") -> None:
        self.ws = ws
        self.player: str | None = None
        #: the sha256 of the token it signed in with ("" before): ``token_rotate``
        #: replaces that token only while it is still the account's
        self.digest = ""
        self.bucket = bucket
        #: the bucket the player's connections here share (set at sign-in by the hub)
        self.account: TokenBucket | None = None
        self.bad = 0
        #: requests of it being answered now
        self.busy = 0
        self.address = address
        #: encoded frames waiting for the writer, and a close after them ((code, reason))
        self.outbox: collections.deque[bytes | tuple[int, str]] = collections.deque()
        #: bytes of frames in the outbox
        self.queued = 0
        #: the most bytes the outbox may hold (0: no bound) and a write's longest wait
        self.limit = 0
        self.write_timeout: float | None = None
        #: why it is being closed ("" while open); ``dropped``: what it did not keep up
        #: with ("outbox", "write" or "ping"; "" if it did)
        self.closed = ""
        self.dropped = ""
        self.ping_interval = 0.0
        self.ping_timeout: float | None = None
        #: the sign-in deadline's and the next ping's timers
        self._timer: asyncio.TimerHandle | None = None
        self._ping_timer: asyncio.TimerHandle | None = None
        #: the loop, once :meth:`start` was called (before it nothing is written)
        self._loop: asyncio.AbstractEventLoop | None = None
        #: the writer while the outbox holds frames, a ping while one is under way, the
        #: close of a connection dropped
        self._writer: asyncio.Task[None] | None = None
        self._keepalive: asyncio.Task[None] | None = None
        self._closing: asyncio.Task[None] | None = None

    # -- what goes out ------------------------------------------------------------------

    def push(self, msg: dict[str, Any]) -> None:
        """Queue an event; never waits."""
        self.send(P.encode(msg))

    def send(self, frame: bytes) -> None:
        """Queue an encoded frame (a reply, an event); never waits. Past the outbox's
        bound the connection is closed (4000) and what it had waiting is dropped."""
        if self.closed:
            return
        if (
            len(frame) <= WRITE_NOW_BYTES
            and not self.outbox
            and self._writer is None
            and self._write_now(frame)
        ):
            return
        self.outbox.append(frame)
        self.queued += len(frame)
        if self.limit and self.queued > self.limit:
            self.drop("outbox", f"over {self.limit} bytes waiting to be read")
            return
        if self._writer is None and self._loop is not None:
            self._writer = self._loop.create_task(self._write())

    def _write_now(self, frame: bytes) -> bool:
        """Write ``frame`` to the socket at once, when nothing waits before it and
        websockets' ``send`` would not wait (its buffer under its high water mark, the
        connection open, no fragmented message under way): what that ``send`` does
        then, without a writer task and a timeout a frame (issue 50: they were most of
        what the outbox added to a move's CPU: 30–40 µs a frame). False when it would
        wait: the frame goes to the outbox and its writer. The bounds hold as before:
        a peer that stops reading fills the kernel's buffers and websockets' (its
        ``paused``), and from then on every frame waits in the bounded outbox."""
        ws = self.ws
        if (
            self._loop is None
            or ws.paused
            or ws.send_in_progress is not None
            or ws.protocol.state is not State.OPEN
        ):
            return False
        ws.protocol.send_binary(frame)
        try:
            ws.send_data()
        except Exception:  # as websockets' send: the connection is lost, its loop ends
            ws.transport.abort()
        return True

    def close(self, code: int, reason: str) -> None:
        """Close the connection with ``code`` once what is queued before is written."""
        if self.closed:
            return
        self.closed = reason
        self.outbox.append((code, reason))
        if self._writer is None and self._loop is not None:
            self._writer = self._loop.create_task(self._write())

    def drop(self, kind: str, why: str) -> None:
        """Close at once with 4000 (the outbox dropped): the peer does not keep up with
        ``kind`` (``outbox``, ``write``, ``ping``)."""
        if self.dropped:
            return
        self.closed, self.dropped = why, kind
        self.outbox.clear()
        self.queued = 0
        if self._ping_timer is not None:
            self._ping_timer.cancel()
        for task in (self._writer, self._keepalive):
            if task is not None and task is not asyncio.current_task():
                task.cancel()
        shut = self._shut(P.CLOSE_TOO_SLOW, why)
        self._closing = asyncio.get_running_loop().create_task(shut)

    @property
    def writer(self) -> asyncio.Task[None] | None:
        """The writer task while it has frames to write (None when the outbox is empty)."""
        return self._writer

    # -- its tasks ------------------------------------------------------------------------

    def start(
        self,
        *,
        limit: int,
        write_timeout: float,
        ping_interval: float = 0.0,
        ping_timeout: float = 0.0,
        auth_timeout: float = 0.0,
    ) -> None:
        """Write from now on (a writer task runs while the outbox holds frames); with
        ``ping_interval``, ping the peer; with ``auth_timeout``, close it unsigned.
        An idle connection holds no task of its own here, only timers."""
        self.limit = limit
        self.write_timeout = write_timeout or None
        self.ping_interval, self.ping_timeout = ping_interval, ping_timeout or None
        self._loop = loop = asyncio.get_running_loop()
        if ping_interval > 0:
            self._ping_timer = loop.call_later(ping_interval, self._ping_now)
        if auth_timeout > 0:
            self._timer = loop.call_later(auth_timeout, self._signed_in, auth_timeout)

    def _signed_in(self, seconds: float) -> None:
        if self.player is not None:
            return
        if self.busy and self._loop is not None:  # a register or auth may be under way
            self._timer = self._loop.call_later(1.0, self._signed_in, seconds)
            return
        self.close(P.CLOSE_NO_SIGN_IN, f"not signed in within {seconds:g} s")

    async def stop(self) -> None:
        """The connection's loop is over: a close queued is let finish (bounded), then
        its tasks end."""
        for timer in (self._timer, self._ping_timer):
            if timer is not None:
                timer.cancel()
        writer = self._writer
        if writer is not None and self.closed and not self.dropped:
            await asyncio.wait([writer], timeout=(self.write_timeout or 10.0) + CLOSE_GRACE)
        tasks = [t for t in (writer, self._keepalive, self._closing) if t is not None]
        for task in tasks:
            if task is not self._closing:
                task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=CLOSE_GRACE + 1)

    async def _write(self) -> None:
        """Write the outbox until it is empty (then the task ends: the next frame
        starts another)."""
        outbox, ws = self.outbox, self.ws
        try:
            while outbox:
                item = outbox.popleft()
                if isinstance(item, tuple):
                    await self._shut(*item)
                    return
                self.queued -= len(item)
                try:
                    async with asyncio.timeout(self.write_timeout):
                        await ws.send(item)
                except TimeoutError:
                    self.drop("write", f"a write waited over {self.write_timeout:g} s")
                    return
        except ConnectionClosed:
            return
        finally:
            if self._writer is asyncio.current_task():
                self._writer = None

    def _ping_now(self) -> None:
        assert self._loop is not None
        self._ping_timer = None
        self._keepalive = self._loop.create_task(self._ping())

    async def _ping(self) -> None:
        """One keepalive ping: its pong within ``ping_timeout`` (the ping's own wait
        for a full buffer counted in it), else the connection is dropped."""
        try:
            async with asyncio.timeout(self.ping_timeout):
                pong = await self.ws.ping()
                await pong
        except TimeoutError:
            self.drop("ping", f"no answer to a keepalive ping within {self.ping_timeout:g} s")
            return
        except ConnectionClosed:
            return
        finally:
            self._keepalive = None
        if not self.closed and self._loop is not None:
            self._ping_timer = self._loop.call_later(self.ping_interval, self._ping_now)

    async def _shut(self, code: int, reason: str) -> None:
        """Close with ``code``: the closing handshake for :data:`CLOSE_GRACE` seconds,
        then the socket is aborted."""
        try:
            async with asyncio.timeout(CLOSE_GRACE):
                await self.ws.close(code, reason)
        except TimeoutError:
            self.ws.transport.abort()
        except ConnectionClosed:
            pass
        if self.dropped:
            log.info("closed a connection of %s (%s): %s", self.player, self.address, reason)

    def need_player(self) -> str:
        """The signed-in player; ``unauthorized`` before ``register`` or ``auth``."""
        if self.player is None:
            raise ProtocolError(
                ErrorCode.UNAUTHORIZED, "register or auth first", key="error.login_first"
            )
        return self.player
