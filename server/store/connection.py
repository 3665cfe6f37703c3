"""What every part of the store shares: the client, the key names, the bound on
concurrent calls and their timing, and the pipelined connections scripts take.

A semaphore bounds concurrent Redis calls (redis-py's asyncio pool raises past its
``max_connections`` instead of waiting). Every call is timed into the
``pasyans_redis_seconds`` histogram when metrics are on.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import asynccontextmanager
from typing import Any, overload

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript

from . import scripts
from .cluster import ClusterSpec, NodePipes, Subscribers, check_prefix
from .durability import Durability, Replicated
from .keys import Keys
from .pipe import ScriptPipe, sha1, supports

Fields = dict[str, bytes]
Value = bytes | str | int | float
Observer = Callable[[str, float], None]
POOL_HEADROOM = 8  # connections beyond the semaphore (pub/sub listeners)


def _text(value: bytes | str | None) -> str | None:
    if value is None:
        return None
    return value.decode() if isinstance(value, bytes) else value


def _fields(raw: Mapping[Any, Any]) -> Fields:
    return {(k.decode() if isinstance(k, bytes) else str(k)): v for k, v in raw.items()}


class Connection:
    """The Redis side of pasyans, less its questions (those are the concepts' classes
    that :class:`~.store.Store` gathers). ``url`` is any redis-py URL (``redis://``,
    ``unix://``); with ``cluster=True`` it names a Redis Cluster instead, as
    :class:`~.cluster.ClusterSpec` reads it (``host:port,host:port`` or one
    ``redis://`` URL of a node). ``prefix`` goes before every key.

    ``durability`` :attr:`~.durability.Durability.REPLICATED` acknowledges a move
    (and a new game) only once ``wait_replicas`` replicas confirmed it within
    ``replica_timeout`` seconds (:class:`~.durability.Replicated`); the other modes
    change nothing here (the move takes the lean path below)."""

    def __init__(
        self,
        url: str,
        *,
        cluster: bool = False,
        prefix: str = "",
        max_connections: int = 64,
        observe: Observer | None = None,
        durability: Durability = Durability.DEFAULT,
        wait_replicas: int = 1,
        replica_timeout: float = 1.0,
    ) -> None:
        self.keys = Keys(prefix)
        spec: ClusterSpec | None = None
        self.redis: aioredis.Redis | RedisCluster
        self._subscribers: Subscribers | None = None
        if cluster:
            spec = ClusterSpec.parse(url)
            check_prefix(prefix)
            # A bound per node; the semaphore bounds the sum (the headroom is for the
            # few calls made outside it). The listener has clients of its own.
            self.redis = spec.client(max_connections=max_connections + POOL_HEADROOM)
            self._subscribers = Subscribers(self.redis, spec)
        else:
            # Headroom over the semaphore: the pub/sub listener holds a connection too.
            self.redis = aioredis.Redis.from_url(
                url, max_connections=max_connections + POOL_HEADROOM, decode_responses=False
            )
        self._sem = _Semaphore(max_connections)
        self._observe = observe
        self._replicated: Replicated | None = None
        if durability is Durability.REPLICATED:
            self._replicated = Replicated(
                self.redis,
                spec=spec,
                replicas=wait_replicas,
                timeout=replica_timeout,
                max_connections=max_connections,
            )
        # Moves go through one lean pipelined connection (see ``pipe``) when it can
        # reach the URL (one Redis, not a cluster); on a cluster without TLS, through
        # one such connection per primary (``NodePipes``); redis-py otherwise.
        self._pipe = ScriptPipe(url) if not cluster and supports(url) else None
        self._nodes = (
            NodePipes(self.redis, spec, scripts.MOVE)
            if isinstance(self.redis, RedisCluster) and spec is not None and not spec.ssl
            else None
        )
        #: the scripts run on the pipelined connection, encoded once (by sha)
        self._texts: dict[str, bytes] = {}
        self._move_sha = sha1(scripts.MOVE)
        self._move_script = scripts.MOVE.encode()

    async def close(self) -> None:
        if self._replicated is not None:
            await self._replicated.close()
        if self._pipe is not None:
            await self._pipe.close()
        if self._nodes is not None:
            await self._nodes.aclose()
        if self._subscribers is not None:
            await self._subscribers.aclose()
        await self.redis.aclose()

    def pubsub(self) -> PubSub:
        """A fresh pub/sub connection (subscribe messages ignored) for the race
        listener; on a cluster, to one node, another one at each call."""
        if self._subscribers is not None:
            return self._subscribers.pubsub()
        assert isinstance(self.redis, aioredis.Redis)
        return self.redis.pubsub(ignore_subscribe_messages=True)

    @asynccontextmanager
    async def _call(self, name: str) -> AsyncIterator[None]:
        async with self._sem.held():
            start = time.perf_counter()
            try:
                yield
            finally:
                if self._observe is not None:
                    self._observe(name, time.perf_counter() - start)

    async def ping(self) -> bool:
        async with self._call("ping"):
            return bool(await self.redis.ping())

    @property
    def _piped_scripts(self) -> bool:
        """Whether scripts run on pipelined connections: one Redis's (:mod:`.pipe`) or
        each primary's of a cluster (``NodePipes``)."""
        return self._pipe is not None or self._nodes is not None

    async def _piped(
        self, name: str, script: AsyncScript, keys: list[str], args: list[Value]
    ) -> Any:
        """``script`` on a pipelined connection (:attr:`_piped_scripts`); on a cluster,
        what the slot map got wrong goes to redis-py's call, as a move's does."""
        start = time.perf_counter()
        try:
            text = self._texts.get(script.sha)
            if text is None:
                code = script.script
                text = self._texts[script.sha] = (
                    code.encode() if isinstance(code, str) else bytes(code)
                )
            if self._pipe is not None:
                return await self._pipe.evalsha(text, script.sha, keys, args)
            assert self._nodes is not None

            async def fallback() -> Any:
                async with self._call(name):
                    return await script(keys=keys, args=args)

            return await self._nodes.evalsha(keys, args, fallback, (text, script.sha))
        finally:
            if self._observe is not None:
                self._observe(name, time.perf_counter() - start)

    async def _piped_command(self, name: str, *args: Value) -> Any:
        """A command on the pipelined connection (one Redis, see :mod:`.pipe`)."""
        assert self._pipe is not None
        start = time.perf_counter()
        try:
            return await self._pipe.command(*args)
        finally:
            if self._observe is not None:
                self._observe(name, time.perf_counter() - start)

    async def publish(self, channel: str, data: bytes) -> None:
        async with self._call("publish"):
            # Not ``publish()``: the asyncio cluster client has it only from redis-py 8.
            await self.redis.execute_command("PUBLISH", channel, data)


class _Semaphore:
    """An asyncio.Semaphore created lazily in the running loop."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._sem: Any = None

    def get(self) -> asyncio.Semaphore:
        if self._sem is None:
            self._sem = asyncio.Semaphore(self.size)
        sem: asyncio.Semaphore = self._sem
        return sem

    @asynccontextmanager
    async def held(self) -> AsyncIterator[None]:
        async with self.get():
            yield


class Lua:
    """A script of :mod:`.scripts` as an attribute of a concept's class
    (``_race_join = Lua(scripts.RACE_JOIN)``): on a store, the script registered on
    its client, made at first use."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, store: None, owner: type) -> Lua: ...
    @overload
    def __get__(self, store: Connection, owner: type) -> AsyncScript: ...

    def __get__(self, store: Connection | None, owner: type) -> Lua | AsyncScript:
        if store is None:
            return self
        script = store.redis.register_script(self.source)
        store.__dict__[self.name] = script  # this store's own from now on: no more lookups
        return script
