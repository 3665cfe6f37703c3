"""A lean, pipelined Redis connection for the hot path (one ``EVALSHA`` per move; the
few commands of starting and ending a game).

redis-py spends ~80 µs of Python per command (pool checkout, retry wrapper, argument
encoding, parser plumbing, observability hooks). Moves only ever run one Lua script,
so this connection does little more: each call packs its command with hiredis, writes
it (alone when nothing else is in flight; otherwise batched with the other commands of
the same event-loop turn into one write) and awaits a future. Redis answers a
connection's commands in order, so replies are matched to futures first in, first
out. Nothing is retried: a lost connection fails every call in
flight with ``redis.exceptions.ConnectionError`` (the caller answers "storage
unavailable"; whether such a move was written is what ``resume`` shows), and the next
call reconnects. A reply is returned only once Redis has run the script, so the
guarantees of the script (compare-and-set on ``seq``) are untouched.

Only ``redis://`` and ``unix://`` URLs (optional password and db); :func:`supports`
says whether a URL qualifies (the store falls back to redis-py otherwise).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections import deque
from typing import Any

import hiredis
import redis.exceptions
from redis.connection import parse_url

#: error replies that mean the storage is out for a while (loading its data after a
#: restart, a failover under way), raised as the class redis-py raises for them so
#: that the server answers them 'unavailable' (``server.store.errors.OUTAGE``)
OUTAGE_REPLIES: dict[str, type[redis.exceptions.RedisError]] = {
    "LOADING": redis.exceptions.BusyLoadingError,
    "MASTERDOWN": redis.exceptions.MasterDownError,
    "READONLY": redis.exceptions.ReadOnlyError,
    "TRYAGAIN": redis.exceptions.TryAgainError,
}


#: the cluster's redirections (the script did not run: the slot is served elsewhere),
#: raised as redis-py raises them (the text after the word, ``"<slot> <host>:<port>"``)
REDIRECTS: dict[str, type[redis.exceptions.ResponseError]] = {
    "MOVED": redis.exceptions.MovedError,
    "ASK": redis.exceptions.AskError,
}


class NotConnected(redis.exceptions.ConnectionError):
    """No connection could be made: the command was not sent."""


def supports(url: str) -> bool:
    return url.startswith(("redis://", "unix://"))


class _Protocol(asyncio.Protocol):
    def __init__(self, pipe: ScriptPipe) -> None:
        self.pipe = pipe
        self.reader = hiredis.Reader()
        self.waiting: deque[asyncio.Future[Any]] = deque()

    def data_received(self, data: bytes) -> None:
        reader = self.reader
        waiting = self.waiting
        reader.feed(data)
        while True:
            reply = reader.gets()
            if reply is False:
                return
            fut = waiting.popleft()
            if not fut.done():  # a cancelled caller still consumes its reply
                fut.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.pipe._lost(self, exc)


class ScriptPipe:
    """``await pipe.call(sha_args)`` runs a registered script on one shared connection."""

    def __init__(self, url: str) -> None:
        if not supports(url):
            raise ValueError(f"ScriptPipe cannot connect to {url!r}")
        self._options: dict[str, Any] = dict(parse_url(url))  # type: ignore[no-untyped-call]
        self._proto: _Protocol | None = None
        self._transport: asyncio.Transport | None = None
        self._connecting: asyncio.Future[None] | None = None
        self._out: list[bytes] = []
        self._flush_scheduled = False
        self._closed = False

    # -- connection -----------------------------------------------------------------

    async def _connect(self) -> None:
        loop = asyncio.get_running_loop()
        opts = self._options
        path = opts.get("path")
        transport: Any
        if path:
            transport, proto = await loop.create_unix_connection(lambda: _Protocol(self), path)
        else:
            transport, proto = await loop.create_connection(
                lambda: _Protocol(self), opts.get("host", "localhost"), opts.get("port", 6379)
            )
        self._transport, self._proto = transport, proto
        setup: list[tuple[Any, ...]] = []
        if opts.get("password"):
            user = opts.get("username")
            auth = ("AUTH", user, opts["password"]) if user else ("AUTH", opts["password"])
            setup.append(auth)
        if opts.get("db"):
            setup.append(("SELECT", opts["db"]))
        for command in setup:
            self._check(await self._send(hiredis.pack_command(command)))

    async def _ready(self) -> _Protocol:
        if self._closed:
            raise redis.exceptions.ConnectionError("the script connection is closed")
        proto = self._proto
        if proto is not None and self._connecting is None:
            return proto
        if self._connecting is None:
            self._connecting = asyncio.get_running_loop().create_future()
            try:
                await self._connect()
            except BaseException as exc:
                self._drop()
                self._connecting.set_exception(NotConnected(f"cannot connect to redis: {exc!r}"))
                self._connecting.exception()  # retrieved: waiters re-raise it themselves
                self._connecting = None
                if isinstance(exc, asyncio.CancelledError):
                    raise  # the caller was cancelled: never turn that into an error
                raise NotConnected(f"cannot connect to redis: {exc!r}") from exc
            connecting, self._connecting = self._connecting, None
            connecting.set_result(None)
        else:
            await asyncio.shield(self._connecting)
        assert self._proto is not None
        return self._proto

    def _drop(self) -> None:
        if self._transport is not None:
            self._transport.abort()
        self._transport = self._proto = None
        self._out.clear()

    def _lost(self, proto: _Protocol, exc: Exception | None) -> None:
        if self._proto is proto:
            self._transport = self._proto = None
            self._out.clear()
        err = redis.exceptions.ConnectionError(f"connection to redis lost: {exc!r}")
        while proto.waiting:
            fut = proto.waiting.popleft()
            if not fut.done():
                fut.set_exception(err)

    async def close(self) -> None:
        self._closed = True
        if self._transport is not None:
            self._transport.close()
        self._transport = self._proto = None

    # -- commands -------------------------------------------------------------------

    def _send(self, packed: bytes) -> asyncio.Future[Any]:
        proto = self._proto
        if proto is None:
            raise NotConnected("connection to redis lost")
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Any] = loop.create_future()
        proto.waiting.append(fut)
        if len(proto.waiting) == 1 and not self._out and self._transport is not None:
            # Nothing else in flight: no one to batch with, write at once.
            self._transport.write(packed)
            return fut
        # Others are in flight: batch with whatever else this loop turn sends. Bytes
        # still leave in the order of ``waiting`` (the buffer is written before any
        # later command).
        self._out.append(packed)
        if not self._flush_scheduled:
            self._flush_scheduled = True
            loop.call_soon(self._flush)
        return fut

    async def command(self, *args: Any) -> Any:
        """Any other command, on the same connection (``ZADD`` after a game's creation:
        the commands of starting a game cost ~80 µs of Python each through redis-py)."""
        if self._proto is None or self._connecting is not None:
            await self._ready()
        return self._check(await self._send(hiredis.pack_command(args)))

    def _flush(self) -> None:
        self._flush_scheduled = False
        if self._out and self._transport is not None:
            out = self._out
            self._out = []
            self._transport.write(out[0] if len(out) == 1 else b"".join(out))

    @staticmethod
    def _check(reply: Any) -> Any:
        if isinstance(reply, hiredis.ReplyError):
            text = str(reply)
            word, _, rest = text.partition(" ")
            redirect = REDIRECTS.get(word)
            if redirect is not None:
                raise redirect(rest)
            outage = OUTAGE_REPLIES.get(word)
            raise outage(text) if outage else redis.exceptions.ResponseError(text)
        return reply

    async def evalsha(self, script: bytes, sha: str, keys: list[str], args: list[Any]) -> Any:
        """``EVALSHA sha``; on ``NOSCRIPT`` (Redis restarted or flushed its scripts)
        ``EVAL`` of the whole script, which is safe: the first command did not run."""
        if self._proto is None or self._connecting is not None:
            await self._ready()
        reply = await self._send(hiredis.pack_command(("EVALSHA", sha, len(keys), *keys, *args)))
        if isinstance(reply, hiredis.ReplyError) and str(reply).startswith("NOSCRIPT"):
            await self._ready()
            reply = await self._send(
                hiredis.pack_command(("EVAL", script, len(keys), *keys, *args))
            )
        return self._check(reply)


def sha1(script: str) -> str:
    return hashlib.sha1(script.encode()).hexdigest()
