"""How a script reaches Redis: one small object per way, chosen once when the store is
made (:class:`~.connection.Connection`). Its method ``run(name, script, keys, args)``
returns the script's reply; ``command(name, *args)`` sends a plain command the same
way where one goes with a script (a new game's place in its player's list).

=================  ==============================================================
:class:`Piped`     one Redis over ``redis://`` or ``unix://``: the lean pipelined
                   connection of :mod:`.pipe` (no pool, so no bound to wait for)
:class:`NodePiped` a cluster without TLS: the pipelined connection of the primary
                   redis-py's slot map names (:class:`~.cluster.NodePipes`); what
                   that map got wrong goes to :class:`Library`
:class:`Library`   anything else (TLS, a ``rediss://`` URL): redis-py's own call,
                   which follows a cluster's redirections and retries, on a
                   connection of its pool, under the store's bound
:class:`Replicas`  ``--durability replicated``, for the writes a player is told
                   of (moves, new games): the script and ``WAIT`` on one
                   connection (:class:`~.durability.Replicated`), under the bound
=================  ==============================================================

With metrics on, the store's transports are wrapped in :class:`Timed`, which times
each call as its ``name`` (the others ignore it): so an unobserved store pays nothing
for the timing. None retries a script that may have run (a compare-and-set on ``seq``
makes the client's own retry safe).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, Protocol

import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster
from redis.commands.core import AsyncScript

from .cluster import NodePipes
from .durability import Replicated
from .pipe import ScriptPipe

Value = bytes | str | int | float
Observer = Callable[[str, float], None]


class Script(AsyncScript):
    """A script of :mod:`.scripts` registered on the store's client: redis-py runs it
    when called (``await script(keys=…, args=…)``); the others send its sha, and its
    ``text`` (encoded once) to a Redis that has not seen it."""

    def __init__(self, client: aioredis.Redis | RedisCluster, source: str) -> None:
        super().__init__(client, source)
        self.text = source.encode()


class Transport(Protocol):
    def run(self, name: str, script: Script, keys: list[str], args: list[Value]) -> Awaitable[Any]:
        """The script's reply (an error reply raised as redis-py raises it), the call
        named ``name`` in the metrics."""
        ...

    def command(self, name: str, *args: Value) -> Awaitable[Any]:
        """A command's reply (on a cluster, on the node of its key)."""
        ...


class Semaphore:
    """The bound on the store's concurrent calls through redis-py's pool (which raises
    past its ``max_connections`` instead of waiting): an asyncio.Semaphore, made in
    the running loop at first use."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._sem: asyncio.Semaphore | None = None

    def get(self) -> asyncio.Semaphore:
        if self._sem is None:
            self._sem = asyncio.Semaphore(self.size)
        return self._sem

    @asynccontextmanager
    async def held(self) -> AsyncIterator[None]:
        async with self.get():
            yield


class Library:
    """redis-py's call on a pooled connection, within the store's bound."""

    def __init__(self, redis: aioredis.Redis | RedisCluster, bound: Semaphore) -> None:
        self.redis = redis
        self.bound = bound

    async def run(self, name: str, script: Script, keys: list[str], args: list[Value]) -> Any:
        async with self.bound.get():
            return await script(keys=keys, args=args)

    async def command(self, name: str, *args: Value) -> Any:
        async with self.bound.get():
            return await self.redis.execute_command(*args)


class Piped:
    """The lean pipelined connection to one Redis (:class:`~.pipe.ScriptPipe`)."""

    def __init__(self, pipe: ScriptPipe) -> None:
        self.pipe = pipe

    # No coroutines of their own: the caller awaits the pipe's directly.
    def run(self, name: str, script: Script, keys: list[str], args: list[Value]) -> Awaitable[Any]:
        return self.pipe.evalsha(script.text, script.sha, keys, args)

    def command(self, name: str, *args: Value) -> Awaitable[Any]:
        return self.pipe.command(*args)


class NodePiped:
    """Each primary's pipelined connection (:class:`~.cluster.NodePipes`); a script
    its node refused unrun (``MOVED``, ``ASK``), or one no node was found or reached
    for, goes through ``library``, as every command does."""

    def __init__(self, nodes: NodePipes, library: Library) -> None:
        self.nodes = nodes
        self.library = library

    def run(self, name: str, script: Script, keys: list[str], args: list[Value]) -> Awaitable[Any]:
        def fallback() -> Awaitable[Any]:
            return self.library.run(name, script, keys, args)

        return self.nodes.evalsha(script.text, script.sha, keys, args, fallback)

    def command(self, name: str, *args: Value) -> Awaitable[Any]:
        return self.library.command(name, *args)


class Replicas:
    """The script and ``WAIT`` (:class:`~.durability.Replicated`), within the store's
    bound: its reply once enough replicas have it, else
    :class:`~.errors.NotReplicated`. Commands go as ``others`` sends them."""

    def __init__(self, replicated: Replicated, bound: Semaphore, others: Transport) -> None:
        self.replicated = replicated
        self.bound = bound
        self.others = others

    async def run(self, name: str, script: Script, keys: list[str], args: list[Value]) -> Any:
        async with self.bound.get():
            return await self.replicated.run(script.text, script.sha, keys, args)

    def command(self, name: str, *args: Value) -> Awaitable[Any]:
        return self.others.command(name, *args)


class Timed:
    """Another transport's calls, each timed into ``observe`` as its ``name`` (from
    before it waits for the bound, if it has one, to its reply): the one place a
    script's time is taken."""

    def __init__(self, inner: Transport, observe: Observer) -> None:
        self.inner = inner
        self.observe = observe

    def run(self, name: str, script: Script, keys: list[str], args: list[Value]) -> Awaitable[Any]:
        return self._timed(name, self.inner.run(name, script, keys, args))

    def command(self, name: str, *args: Value) -> Awaitable[Any]:
        return self._timed(name, self.inner.command(name, *args))

    async def _timed(self, name: str, call: Awaitable[Any]) -> Any:
        start = time.perf_counter()
        try:
            return await call
        finally:
            self.observe(name, time.perf_counter() - start)
