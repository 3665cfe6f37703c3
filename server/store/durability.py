"""How durable an acknowledged move is: ``--durability default|fsync|replicated``.

- ``default``: a move is acknowledged once Redis ran its script. The embedded Redis
  keeps an append-only file synced every second (``appendfsync everysec``): a crash
  of the server process or of Redis loses nothing (the kernel still has the file), a
  power cut or kernel crash may lose the last second.
- ``fsync``: the embedded Redis syncs the file on every write (``appendfsync
  always``), so an acknowledged move survives a power cut of its machine. With an
  external Redis or a cluster, that Redis must be started so (the server cannot
  change another's configuration); the server only checks what it can.
- ``replicated``: after the move's script, the same connection sends ``WAIT
  <replicas> <timeout>``; the move is acknowledged only when that many replicas have
  it. When the timeout passes first the move is answered ``unavailable`` (not
  acknowledged) although it *is* on the primary: it reaches the replicas when they
  catch up, or is lost if the primary dies before — in either case it was never
  acknowledged, and the client's retry (same ``seq``) finds out which (``stale_seq``
  with the game as it is, or the move played now). Game creation waits the same way;
  other writes (accounts, leaderboards, races) replicate asynchronously, as Redis
  does, and a failover may lose the last few milliseconds of them.

:class:`Replicated` sends a script and its ``WAIT`` pipelined on one connection to
the node that owns the key (on a cluster, a small client per node; the slot map is
refreshed when a node fails or a slot moved), so the extra cost is the replica's
acknowledgement, not another round trip of Python.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

import redis.asyncio as aioredis
import redis.exceptions as rx
from redis.asyncio.cluster import RedisCluster

from .cluster import ClusterSpec
from .errors import NotReplicated

log = logging.getLogger(__name__)

#: seconds between two refreshes of a cluster's slot map after node failures
REFRESH_EVERY = 0.2


class Durability(StrEnum):
    DEFAULT = "default"
    FSYNC = "fsync"
    REPLICATED = "replicated"

    @classmethod
    def parse(cls, value: str) -> Durability:
        try:
            return cls(value.strip().lower())
        except ValueError:
            names = ", ".join(m.value for m in cls)
            raise ValueError(f"durability is one of {names}, not {value!r}") from None

    @property
    def appendfsync(self) -> str:
        """The embedded Redis's ``appendfsync`` under this mode."""
        return "always" if self is Durability.FSYNC else "everysec"


class Replicated:
    """Scripts acknowledged only once ``replicas`` replicas have them (``WAIT``).

    ``redis`` is the store's client: one Redis (its pool) or a cluster, in which case
    ``spec`` gives the options of the per-node clients. ``timeout`` is in seconds.
    """

    def __init__(
        self,
        redis: aioredis.Redis | RedisCluster,
        *,
        spec: ClusterSpec | None = None,
        replicas: int = 1,
        timeout: float = 1.0,
        max_connections: int = 64,
    ) -> None:
        if replicas < 1:
            raise ValueError("replicated durability waits for at least one replica")
        self.redis = redis
        self.spec = spec
        self.replicas = replicas
        self.timeout_ms = max(1, round(timeout * 1000))
        self.max_connections = max_connections
        self._nodes: dict[tuple[str, int], aioredis.Redis] = {}
        self._refresh: asyncio.Task[None] | None = None
        self._refreshed = 0.0

    async def close(self) -> None:
        if self._refresh is not None:
            self._refresh.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._refresh
        clients, self._nodes = list(self._nodes.values()), {}
        for client in clients:
            await client.aclose()

    async def _client(self, key: str) -> aioredis.Redis:
        """The client of the node that serves ``key`` (the store's own for one Redis)."""
        if isinstance(self.redis, aioredis.Redis):
            return self.redis
        assert self.spec is not None
        await self.redis.initialize()  # once; a no-op afterwards
        node = self.redis.get_node_from_key(key)
        if node is None:
            raise rx.ClusterDownError(f"no node serves {key!r}")
        where = (str(node.host), int(node.port))
        client = self._nodes.get(where)
        if client is None:
            client = aioredis.Redis(
                host=where[0],
                port=where[1],
                max_connections=self.max_connections,
                **self.spec.options(),
            )
            self._nodes[where] = client
        return client

    def _stale_map(self) -> None:
        """A node failed or a slot moved: refresh the cluster's slot map (in the
        background, at most one at a time and one every REFRESH_EVERY s)."""
        if not isinstance(self.redis, RedisCluster):
            return
        if self._refresh is not None and not self._refresh.done():
            return
        if time.monotonic() - self._refreshed < REFRESH_EVERY:
            return
        self._refreshed = time.monotonic()
        self._refresh = asyncio.create_task(self._reload(self.redis), name="cluster-refresh")

    @staticmethod
    async def _reload(cluster: RedisCluster) -> None:
        try:
            # The cluster client's own refresh (what it runs after its own errors).
            await cluster.nodes_manager.initialize()
        except (rx.RedisError, rx.RedisClusterException, OSError) as exc:
            log.warning("cannot refresh the cluster's slot map: %r", exc)

    async def run(self, script: bytes, sha: str, keys: Sequence[str], args: Sequence[Any]) -> Any:
        """The reply of ``script`` (its text, and ``sha``, its SHA-1) once ``replicas``
        replicas confirmed it within the timeout; :class:`~.errors.NotReplicated` when
        they did not (the script ran)."""
        try:
            client = await self._client(keys[0])
            reply, acked = await self._pipelined(client, ("EVALSHA", sha), keys, args)
            if isinstance(reply, rx.NoScriptError):
                # Not run: this node has not seen the script yet. Send it whole.
                reply, acked = await self._pipelined(client, ("EVAL", script), keys, args)
        except (rx.ConnectionError, rx.TimeoutError, rx.ClusterDownError):
            self._stale_map()
            raise
        if isinstance(reply, rx.AskError):  # MovedError too (redis-py strips the word)
            self._stale_map()  # the script did not run: the slot is elsewhere now
            raise rx.TryAgainError(f"the slot of {keys[0]!r} moved: {reply}")
        if isinstance(reply, Exception):
            raise reply
        if isinstance(acked, Exception):
            raise acked
        if int(acked) < self.replicas:
            raise NotReplicated(
                f"{acked} of {self.replicas} replicas confirmed the write within "
                f"{self.timeout_ms} ms"
            )
        return reply

    async def _pipelined(
        self,
        client: aioredis.Redis,
        head: tuple[str, str | bytes],
        keys: Sequence[str],
        args: Sequence[Any],
    ) -> tuple[Any, Any]:
        """``head`` (EVALSHA sha / EVAL script) and ``WAIT`` in one write on one
        connection: WAIT counts the replicas that have this connection's writes."""
        pipe = client.pipeline(transaction=False)
        pipe.execute_command(*head, len(keys), *keys, *args)
        pipe.execute_command("WAIT", self.replicas, self.timeout_ms)
        reply, acked = await pipe.execute(raise_on_error=False)
        return reply, acked
