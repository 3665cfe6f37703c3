"""What every part of the store shares: the client, the key names, the bound on
concurrent calls, their timing, and the ways a script reaches Redis (chosen here,
once: :mod:`.transport`).

A semaphore bounds concurrent Redis calls (redis-py's asyncio pool raises past its
``max_connections`` instead of waiting). Every call is timed into the
``pasyans_redis_seconds`` histogram when metrics are on: a block of redis-py calls by
:meth:`Connection._call` (once it holds its place under the bound), a script on a
transport by :class:`~.transport.Timed` around it.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any, overload

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from .channels import Listening, choose
from .cluster import ClusterSpec, NodePipes, Subscribers, check_prefix
from .durability import Durability, Replicated
from .keys import Keys
from .pipe import ScriptPipe, supports
from .transport import (
    Library,
    NodePiped,
    Observer,
    Piped,
    Replicas,
    Script,
    Semaphore,
    Timed,
    Transport,
    Value,
)

Fields = dict[str, bytes]
POOL_HEADROOM = 8  # connections beyond the semaphore (pub/sub listeners)

__all__ = ["POOL_HEADROOM", "Connection", "Fields", "Lua", "Observer", "Value"]


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
        pubsub: str = "auto",
    ) -> None:
        self.keys = Keys(prefix)
        #: the pub/sub kind asked for (``--pubsub``); :meth:`choose_pubsub` decides
        self._pubsub_wanted = pubsub
        #: whether the per-entity channels are sharded (:mod:`.channels`): classic
        #: until :meth:`choose_pubsub` says otherwise
        self.sharded = False
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
        self._sem = Semaphore(max_connections)
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
        # Scripts go through one lean pipelined connection (see ``pipe``) when it can
        # reach the URL (one Redis, not a cluster); on a cluster without TLS, through
        # one such connection per primary (``NodePipes``); redis-py otherwise.
        self._pipe = ScriptPipe(url) if not cluster and supports(url) else None
        self._nodes = (
            NodePipes(self.redis, spec)
            if isinstance(self.redis, RedisCluster) and spec is not None and not spec.ssl
            else None
        )
        library = Library(self.redis, self._sem)
        #: how scripts go: those of a game's start and end (and, but for
        #: ``replicated``, its moves)
        self._scripts: Transport = library
        if self._pipe is not None:
            self._scripts = Piped(self._pipe)
        elif self._nodes is not None:
            self._scripts = NodePiped(self._nodes, library)
        #: how the writes a player is told of go (moves, new games): as the other
        #: scripts, or acknowledged by replicas
        self._writes: Transport = self._scripts
        if self._replicated is not None:
            self._writes = Replicas(self._replicated, self._sem, self._scripts)
        if observe is not None:
            self._writes = Timed(self._writes, observe)
            self._scripts = Timed(self._scripts, observe)

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

    @asynccontextmanager
    async def _call(self, name: str) -> AsyncIterator[None]:
        """A place under the bound for the block's redis-py calls, timed as ``name``."""
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

    # -- pub/sub ----------------------------------------------------------------------

    async def choose_pubsub(self) -> bool:
        """Decide, once at start, whether the per-entity channels are sharded
        (:func:`.channels.choose`); returns it."""
        self.sharded = await choose(self.redis, self._pubsub_wanted)
        return self.sharded

    def pubsub(self) -> Listening:
        """Fresh pub/sub connections (subscribe messages ignored) for the news
        listener: classic ones (on a cluster, to one node, another one at each call),
        and the sharded ones when :attr:`sharded`."""
        if self._subscribers is not None:
            classic = self._subscribers.pubsub()
        else:
            assert isinstance(self.redis, aioredis.Redis)
            classic = self.redis.pubsub(ignore_subscribe_messages=True)
        if self.sharded and isinstance(self.redis, RedisCluster):
            return Listening(classic, self.redis.pubsub(ignore_subscribe_messages=True))
        return Listening(classic)

    async def publish(self, channel: str, data: bytes) -> None:
        """On a channel for every instance (classic ``PUBLISH``)."""
        async with self._call("publish"):
            # Not ``publish()``: the asyncio cluster client has it only from redis-py 8.
            await self.redis.execute_command("PUBLISH", channel, data)

    async def spublish(self, channel: str, data: bytes) -> None:
        """On a per-entity channel (a race's, a player's): ``SPUBLISH`` to the shard
        of its slot when :attr:`sharded`, else as :meth:`publish`."""
        async with self._call("publish"):
            command = "SPUBLISH" if self.sharded else "PUBLISH"
            await self.redis.execute_command(command, channel, data)


class Lua:
    """A script of :mod:`.scripts` as an attribute of a concept's class
    (``_race_join = Lua(scripts.RACE_JOIN)``): on a store, the :class:`~.transport.Script`
    registered on its client, made at first use."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.name = ""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, store: None, owner: type) -> Lua: ...
    @overload
    def __get__(self, store: Connection, owner: type) -> Script: ...

    def __get__(self, store: Connection | None, owner: type) -> Lua | Script:
        if store is None:
            return self
        script = Script(store.redis, self.source)
        store.__dict__[self.name] = script  # this store's own from now on: no more lookups
        return script
