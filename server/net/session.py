"""One loop per WebSocket connection, and who is connected.

A connection's loop reads a frame, decodes and validates it at the edge
(``protocol``), rate-limits it, hands the request to the routes and sends exactly one
reply. Requests of one connection are answered in order; connections are
independent. A connection that sends too many bad frames in a row is told ``bye``
and closed.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections.abc import Awaitable, Callable, Collection
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request

import protocol as P
from protocol import ErrorCode, ProtocolError
from protocol.errors import BYE_BAD_FRAMES, BYE_SHUTDOWN, BYE_SIGNED_OUT

from ..settings import Settings
from .address import client_address, parse_networks
from .conn import Conn
from .metrics import Metrics
from .ratelimit import TokenBucket

log = logging.getLogger("pasyans.server")

#: a reply: a map to encode, or bytes already encoded
Reply = dict[str, Any] | bytes

__all__ = ["ANSWERING", "Conn", "Hub", "Reply", "Sessions"]


#: the connection whose request is being answered (set once in each connection's own
#: task: whatever that request causes runs there): an event about a change it made
#: goes to the player's other connections, not back to it with its reply
ANSWERING: contextvars.ContextVar[Conn | None] = contextvars.ContextVar("answering", default=None)


class Hub:
    """Who is connected: every connection, and each player's connections (for events).
    ``arrived`` and ``left`` are told of a player's first connection here and of the
    last one closing (``News.arrived``/``left``: their channel is followed meanwhile).
    A player's connections share one token bucket (``rate`` a second, ``burst`` at
    once; none by default): an account's twelfth connection adds no requests."""

    def __init__(
        self,
        *,
        arrived: Callable[[str], None] | None = None,
        left: Callable[[str], None] | None = None,
        rate: float = 0.0,
        burst: int = 0,
    ) -> None:
        self.conns: set[Conn] = set()
        self.players: dict[str, set[Conn]] = {}
        self.buckets: dict[str, TokenBucket] = {}
        self.arrived = arrived
        self.left = left
        self.rate = rate
        self.burst = burst

    def add(self, conn: Conn) -> None:
        self.conns.add(conn)

    def login(self, conn: Conn, player: str) -> None:
        if conn.player is not None:
            self._forget(conn)
        conn.player = player
        key = player.casefold()
        mine = self.players.setdefault(key, set())
        mine.add(conn)
        if self.burst > 0:
            bucket = self.buckets.get(key)
            if bucket is None:
                bucket = self.buckets[key] = TokenBucket(self.rate, self.burst, time.monotonic())
            conn.account = bucket
        if len(mine) == 1 and self.arrived is not None:
            self.arrived(player)

    def remove(self, conn: Conn) -> None:
        self.conns.discard(conn)
        self._forget(conn)

    def _forget(self, conn: Conn) -> None:
        if conn.player is not None:
            mine = self.players.get(conn.player.casefold())
            if mine is not None:
                mine.discard(conn)
                if not mine:
                    del self.players[conn.player.casefold()]
                    self.buckets.pop(conn.player.casefold(), None)
                    if self.left is not None:
                        self.left(conn.player)

    def online(self, player: str) -> bool:
        return bool(self.players.get(player.casefold()))

    def sign_out(self, player: str, *, keep: Conn | None = None) -> int:
        """Close every connection of ``player`` here but ``keep`` (``bye``, then
        ``4002``): the token they signed in with is refused now. How many."""
        conns = [c for c in self.players.get(player.casefold(), ()) if c is not keep]
        for conn in conns:
            self.sign_out_one(conn)
        return len(conns)

    def sign_out_one(self, conn: Conn) -> None:
        """Tell ``conn`` ``bye`` and close it with ``4002``: its token is refused now."""
        self._forget(conn)
        conn.player = None
        bye = P.event(
            P.Event.BYE, reason="signed out by the account", key=BYE_SIGNED_OUT, params={}
        )
        conn.push(bye)
        conn.close(P.CLOSE_SIGNED_OUT, "signed out")

    def logout(self, conn: Conn) -> None:
        """``conn`` signs out (its account was deleted)."""
        self._forget(conn)
        conn.player = None
        conn.digest = ""

    def send_to(self, player: str, msg: dict[str, Any], *, skip: Conn | None = None) -> None:
        """Queue ``msg`` to every connection of ``player`` here (but ``skip``): never
        waits on any of them (each writes its own outbox, :mod:`.conn`)."""
        conns = self.players.get(player.casefold())
        if not conns:
            return
        frame = P.encode(msg)
        for conn in list(conns):
            if conn is not skip:
                conn.send(frame)


async def bounded(what: str, aw: Awaitable[Any], seconds: float) -> None:
    """Await ``aw`` for at most ``seconds`` (a step of shutdown that must not hang)."""
    try:
        await asyncio.wait_for(aw, seconds)
    except TimeoutError:
        log.warning("shutdown: %s took over %s s; going on", what, seconds)


def being_cancelled() -> bool:
    """Whether the running task has a cancellation pending. A library may turn a
    cancellation into another error (a timeout that fires at the same moment, a
    connection error); a loop that retries on errors asks this before retrying."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def cancel(tasks: Collection[asyncio.Task[Any]], seconds: float) -> None:
    """Cancel ``tasks`` and wait for them, for at most ``seconds``. A cancellation
    swallowed by a library is asked again (every 0.1 s): a task left running would
    keep its event loop from closing."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    pending = {t for t in tasks if not t.done()}
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=0.1)
        if pending and loop.time() >= deadline:
            names = ", ".join(sorted(t.get_name() for t in pending))
            log.error("shutdown: tasks %s ignore cancellation; leaving them", names)
            return


class Sessions:
    """Every connection's loop, and the requests in flight (a shutdown lets them
    finish: :meth:`drain`)."""

    def __init__(
        self,
        settings: Settings,
        metrics: Metrics,
        hub: Hub,
        dispatch: Callable[[Conn, P.Request], Awaitable[Reply]],
        *,
        refused: Callable[[Conn, object, int | None], Awaitable[Reply | None]] | None = None,
    ) -> None:
        """``refused`` is told of every request refused here, before it reaches
        ``dispatch`` (malformed, or past the connection's bucket), with its ``op`` as
        sent: what such a request still spends of its address's limits (a refused
        ``register`` counts, docs/protocol.md "Limits per address"); a reply it
        returns (the address's limit is reached) answers the request instead."""
        self.settings = settings
        self.metrics = metrics
        self.hub = hub
        self.dispatch = dispatch
        self.refused = refused
        self.draining = False
        self.inflight = 0
        self._idle = asyncio.Event()
        self.proxies = parse_networks(settings.trusted_proxies)
        #: connections open (or opening) per client address
        self.per_address: dict[str, int] = {}

    def address_of(self, ws: ServerConnection, request: Request | None = None) -> str:
        """The client address of a connection: its peer's, or the one a trusted load
        balancer forwards (``X-Forwarded-For``, :func:`~.address.client_address`)."""
        peer = ws.remote_address[0] if ws.remote_address else None
        request = request or ws.request
        forwarded = request.headers.get_all("X-Forwarded-For") if request else []
        return client_address(str(peer) if peer else None, forwarded, self.proxies)

    def admit(self, ws: ServerConnection, request: Request) -> bool:
        """At the handshake: whether the client address may open one more connection
        (``address_connections``, counted with the other limits per address:
        ``address_limits``); if so it is counted until the connection's task ends (the
        handshake failing after this, or the connection closing)."""
        address = self.address_of(ws, request)
        s = self.settings
        cap = s.address_connections if s.address_limits else 0
        held = self.per_address.get(address, 0)
        if cap and held >= cap:
            self.metrics.address_refusals.inc()
            return False
        self.per_address[address] = held + 1
        task = asyncio.current_task()  # websockets' task of this connection, to its end
        if task is not None:
            task.add_done_callback(lambda _: self._release(address))
        return True

    def _release(self, address: str) -> None:
        left = self.per_address.get(address, 0) - 1
        if left > 0:
            self.per_address[address] = left
        else:
            self.per_address.pop(address, None)

    async def handler(self, ws: ServerConnection) -> None:
        s = self.settings
        conn = Conn(ws, TokenBucket(s.rate, s.burst, time.monotonic()), self.address_of(ws))
        ANSWERING.set(conn)  # this task answers this connection alone
        conn.start(
            limit=s.outbox_bytes,
            write_timeout=s.write_timeout,
            ping_interval=s.ping_interval,
            ping_timeout=s.ping_timeout,
            auth_timeout=s.auth_timeout,
        )
        self.hub.add(conn)
        self.metrics.connections.inc()
        self.metrics.connections_total.inc()
        try:
            async for frame in ws:
                if self.draining or conn.closed:
                    break
                self.inflight += 1
                conn.busy += 1
                try:
                    reply = await self.answer(conn, frame)
                    conn.send(reply if isinstance(reply, bytes) else P.encode(reply))
                finally:
                    self.inflight -= 1
                    conn.busy -= 1
                    if self.draining and not self.inflight:
                        self._idle.set()
                if conn.bad >= s.max_bad_frames:
                    self.metrics.policy_closes.inc()
                    reason = f"{conn.bad} bad frames in a row"
                    bye = P.event(
                        P.Event.BYE, reason=reason, key=BYE_BAD_FRAMES, params={"n": conn.bad}
                    )
                    conn.push(bye)
                    conn.close(P.CLOSE_POLICY, reason)
                    break
        except ConnectionClosed:
            pass
        finally:
            self.hub.remove(conn)
            self.metrics.connections.dec()
            await conn.stop()
            if conn.dropped:
                self.metrics.slow_closes.labels(conn.dropped).inc()

    async def answer(self, conn: Conn, frame: bytes | str) -> Reply:
        """Exactly one reply to one frame; never raises."""
        try:
            msg = P.decode(frame, max_size=self.settings.max_frame)
        except ProtocolError as exc:
            rid = P.peek_id(frame) if isinstance(frame, bytes) else None
            return self._bad(conn, rid, exc)
        rid = P.usable_id(msg.get("id"))
        now = time.monotonic()
        account = conn.account
        if not conn.bucket.take(now) or (account is not None and not account.take(now)):
            self.metrics.rate_limited.inc()
            waits = conn.bucket.wait(), account.wait() if account is not None else 0.0
            retry = round(max(waits) + 0.001, 3)
            return await self._counted(conn, msg, rid) or P.error(
                rid,
                ErrorCode.RATE_LIMITED,
                f"too many requests: retry after {retry:g} s",
                params={"seconds": max(1, round(retry))},
                retry_after=retry,
            )
        try:
            req = P.parse_request(msg)
        except ProtocolError as exc:
            bad = self._bad(conn, rid, exc)
            return await self._counted(conn, msg, rid) or bad
        conn.bad = 0
        return await self.dispatch(conn, req)

    async def _counted(self, conn: Conn, msg: dict[str, Any], rid: int | None) -> Reply | None:
        """What a request refused here spends of its address (see ``refused``)."""
        if self.refused is None:
            return None
        return await self.refused(conn, msg.get("op"), rid)

    def _bad(self, conn: Conn, rid: int | None, exc: ProtocolError) -> Reply:
        conn.bad += 1
        self.metrics.bad_frames.labels(str(exc.code)).inc()
        return P.error(rid, exc.code, exc.message, key=exc.key, params=exc.params)

    async def drain(self, limit: float) -> None:
        """Take no more requests, let those in flight finish, tell everyone ``bye``."""
        self.draining = True
        if self.inflight:
            self._idle.clear()
            await bounded("in-flight requests", self._idle.wait(), limit)
        bye = P.event(P.Event.BYE, reason="server shutting down", key=BYE_SHUTDOWN, params={})
        conns = list(self.hub.conns)
        for conn in conns:
            conn.push(bye)
            conn.close(P.CLOSE_GOING_AWAY, "server shutting down")
        writers = [c.writer for c in conns if c.writer is not None and not c.writer.done()]
        if writers:
            await bounded("bye", asyncio.wait(writers), limit)
