"""Redis Cluster: what ``--redis-cluster`` names, and the clients that talk to it.

A cluster is given either as its startup nodes, ``host:port[,host:port...]``, or as
one ``redis://`` / ``rediss://`` URL of a node (``rediss://user:secret@10.0.0.5:7000``):
the URL's user, password and TLS then apply to every node. redis-py learns the rest of
the cluster (every node, which slots each serves) from whichever startup node answers.

How the server's Redis work maps onto slots:

- Every key of one game, player, leaderboard or race carries the same hash tag
  (:mod:`.keys`), so each Lua script's ``KEYS`` lie in one slot and run on one node.
- Pipelines are not transactions (``transaction=False``); redis-py's cluster pipeline
  sends each command to the node of its key. No command names keys of two slots.
- Moves go through a :class:`~.pipe.ScriptPipe` per primary (:class:`NodePipes`), the
  single Redis's pipelined connection, to the node redis-py's slot map names; what
  that map got wrong (``MOVED``, ``ASK``, a node gone) is left to redis-py's own call.
- Pub/sub (:mod:`.channels`): in Redis Cluster a classic ``PUBLISH`` reaches the
  subscribers of every node (the cluster bus broadcasts it), so the news listener's
  classic subscriptions are on a plain connection to any one node (:class:`Subscribers`).
  The asyncio cluster client has ``pubsub()`` and ``publish()`` only from redis-py 8.0;
  a plain node connection, and ``PUBLISH`` sent as a raw command, work with every
  redis-py from 5.0 on. On a cluster of Redis 7 the per-entity channels are sharded
  (``SPUBLISH``, routed by the channel's slot; ``SSUBSCRIBE`` through redis-py's
  ``ClusterPubSub``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, unquote, urlsplit

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.exceptions import AskError, MovedError, SlotNotCoveredError

from .pipe import NotConnected, ScriptPipe


@dataclass(frozen=True)
class ClusterSpec:
    """Where a cluster is: ``ClusterSpec.parse("127.0.0.1:7000,127.0.0.1:7001")``."""

    nodes: tuple[tuple[str, int], ...]
    username: str | None = None
    password: str | None = field(default=None, repr=False)
    ssl: bool = False

    @classmethod
    def parse(cls, spec: str) -> ClusterSpec:
        """Raises ``ValueError`` (naming the bad part) on anything else."""
        spec = spec.strip()
        if "://" in spec:
            return cls._from_url(spec)
        nodes = tuple(_host_port(item.strip()) for item in spec.split(",") if item.strip())
        if not nodes:
            raise ValueError("no Redis Cluster node given (want host:port[,host:port...])")
        return cls(nodes)

    @classmethod
    def _from_url(cls, given: str) -> ClusterSpec:
        parts = urlsplit(given)
        url = _redacted(given, parts.password)  # for messages
        if parts.scheme not in ("redis", "rediss"):
            raise ValueError(f"a Redis Cluster URL is redis:// or rediss://, not {url!r}")
        if parts.path.strip("/") not in ("", "0") or parts.query:
            raise ValueError(f"a Redis Cluster has only database 0 and no options: {url!r}")
        try:
            port = parts.port or 6379
        except ValueError:
            raise ValueError(f"bad port in {url!r}") from None
        if not parts.hostname:
            raise ValueError(f"no host in {url!r}")
        return cls(
            ((parts.hostname, port),),
            username=unquote(parts.username) if parts.username else None,
            password=unquote(parts.password) if parts.password else None,
            ssl=parts.scheme == "rediss",
        )

    def __str__(self) -> str:
        """The nodes, without credentials (for logs)."""
        return ",".join(f"[{h}]:{p}" if ":" in h else f"{h}:{p}" for h, p in self.nodes)

    def options(self) -> dict[str, Any]:
        """Connection options shared by every node."""
        return {
            "username": self.username,
            "password": self.password,
            "ssl": self.ssl,
            "decode_responses": False,
        }

    def client(self, *, max_connections: int) -> RedisCluster:
        """The cluster client; ``max_connections`` is per node."""
        return RedisCluster(
            startup_nodes=[ClusterNode(host, port) for host, port in self.nodes],
            max_connections=max_connections,
            **self.options(),
        )


def _redacted(url: str, password: str | None) -> str:
    return url.replace(f":{password}@", ":***@", 1) if password else url


def check_prefix(prefix: str) -> None:
    """A key prefix with braces would change (or, with ``{}``, void) the hash tags
    that keep a script's keys in one slot: refused on a cluster."""
    if "{" in prefix or "}" in prefix:
        raise ValueError(f"a key prefix on Redis Cluster must not contain braces: {prefix!r}")


def _host_port(item: str) -> tuple[str, int]:
    host, sep, port = item.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")  # [::1]:7000
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"a Redis Cluster node is host:port, not {item!r}")
    return host, int(port)


class Subscribers:
    """Pub/sub connections to one node of a cluster, another node at each call.

    ``pubsub()`` is what the race listener subscribes on; when that connection fails
    the listener asks again and gets the next node the cluster knows (the startup
    nodes until the cluster client has met the cluster). One small client per node
    is kept; ``aclose()`` closes them all.
    """

    def __init__(self, cluster: RedisCluster, spec: ClusterSpec) -> None:
        self.cluster = cluster
        self.spec = spec
        self._clients: dict[tuple[str, int], aioredis.Redis] = {}
        self._turn = 0

    def pubsub(self) -> PubSub:
        known = [(n.host, int(n.port)) for n in self.cluster.get_nodes()]
        nodes = sorted(known) or list(self.spec.nodes)
        node = nodes[self._turn % len(nodes)]
        self._turn += 1
        client = self._clients.get(node)
        if client is None:
            client = aioredis.Redis(host=node[0], port=node[1], **self.spec.options())
            self._clients[node] = client
        return client.pubsub(ignore_subscribe_messages=True)

    async def aclose(self) -> None:
        clients, self._clients = list(self._clients.values()), {}
        for client in clients:
            await client.aclose()


class NodePipes:
    """Moves on a cluster through the single Redis's pipelined connection
    (:class:`~.pipe.ScriptPipe`), one per primary: redis-py's slot map names the node
    of the game's slot; whatever that map got wrong goes to redis-py's own call
    (``fallback``), which follows ``MOVED``/``ASK``, retries and refreshes the map.

    Handed to redis-py: a redirection (the script did not run there) and a node that
    cannot be reached (nothing was sent). A connection lost with the script in flight
    is raised (the move may or may not be written, as on one Redis: the caller answers
    'unavailable' and the client's retry finds out which).
    """

    def __init__(self, cluster: RedisCluster, spec: ClusterSpec) -> None:
        self.cluster = cluster
        self.spec = spec
        self._pipes: dict[str, ScriptPipe] = {}

    def _pipe(self, key: str) -> ScriptPipe | None:
        """The pipe of the primary serving ``key``; None when the map has no node for
        it (redis-py's call then refreshes the map, or fails as an outage)."""
        try:
            node = self.cluster.get_node_from_key(key)
        except SlotNotCoveredError:
            return None
        if node is None:
            return None
        pipe = self._pipes.get(node.name)
        if pipe is None:
            auth = ""
            if self.spec.password:
                user = quote(self.spec.username or "", safe="")
                auth = f"{user}:{quote(self.spec.password, safe='')}@"
            host = f"[{node.host}]" if ":" in node.host else node.host
            pipe = self._pipes[node.name] = ScriptPipe(f"redis://{auth}{host}:{node.port}")
        return pipe

    async def evalsha(
        self,
        script: bytes,
        sha: str,
        keys: list[str],
        args: list[Any],
        fallback: Callable[[], Awaitable[Any]],
    ) -> Any:
        """``script`` (its text, and ``sha``) on the pipe of the primary serving
        ``keys``, as :meth:`.pipe.ScriptPipe.evalsha`; else ``fallback()``."""
        await self.cluster.initialize()  # once; a no-op afterwards
        pipe = self._pipe(keys[0])
        if pipe is None:
            return await fallback()
        try:
            return await pipe.evalsha(script, sha, keys, args)
        except (MovedError, AskError, NotConnected):
            return await fallback()

    async def aclose(self) -> None:
        pipes, self._pipes = list(self._pipes.values()), {}
        for pipe in pipes:
            await pipe.close()
