"""Pub/sub between server instances: classic, or sharded on a Redis Cluster of Redis 7.

Each per-entity channel — a race's (``ch:race:{rid}``), its spectators' boards
(``ch:watch:{rid}``) and a player's (``ch:pl:{name}``, which also carries their
invites and challenge results) — is published with
:meth:`~.connection.Connection.spublish`; the bans' channel (``ch:ban``, rare, for
every instance) always classic (``publish``).

Which pub/sub a store uses is chosen once, at start (:func:`choose`):

- **sharded** (``SPUBLISH``/``SSUBSCRIBE``) on a Redis Cluster whose every primary is
  Redis 7 or later: a message goes to the one shard that owns its channel's slot (and
  its replicas) and reaches only the instances subscribed there, so a cluster's
  pub/sub grows with its masters. An instance subscribes only to the races its own
  players and spectators are in (``News``).
- **classic** (``PUBLISH``/``SUBSCRIBE``, and patterns) on Redis 6, on a cluster with a
  primary older than 7, and on one Redis (not a cluster) whatever its version: one
  Redis has no shards to spread over, and patterns spare an instance a subscription a
  race. In a cluster, a classic ``PUBLISH`` is broadcast to every node over the
  cluster bus, and every instance receives every race's news.

``--pubsub classic`` pins the classic kind (and ``sharded`` insists, failing at start
when a primary cannot). Every instance of a deployment must use the same kind: they
agree when they ask the same cluster; after upgrading Redis to 7, restart them.

The sharded subscriptions are redis-py's asyncio ``ClusterPubSub`` (one connection
per node owning a subscribed slot; it moves a channel to its slot's new owner after a
failover or a slot migration). The classic ones, on a cluster, use a plain connection
to any one node (:class:`~.cluster.Subscribers`).
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import RedisCluster

if TYPE_CHECKING:  # redis-py's asyncio cluster client has pub/sub from 8.0 on
    from redis.asyncio.cluster import ClusterPubSub

#: the kinds ``--pubsub`` names
KINDS = ("auto", "classic", "sharded")
#: the first Redis with sharded pub/sub
SHARDED_SINCE = (7, 0)
#: seconds between two looks at the classic channels while sharded ones are followed
#: (they carry only bans: a look per sharded message would cost a read each)
CLASSIC_EVERY = 0.05

Message = dict[str, Any]


def _version(text: bytes | str | None) -> tuple[int, ...]:
    raw = text.decode() if isinstance(text, bytes) else str(text or "0")
    parts = []
    for part in raw.split(".")[:2]:
        digits = "".join(ch for ch in part if ch.isdigit())
        parts.append(int(digits or 0))
    return tuple(parts)


async def versions(redis: aioredis.Redis | RedisCluster) -> list[str]:
    """``redis_version`` of every primary (of the one Redis, if not a cluster)."""
    if isinstance(redis, RedisCluster):
        found = await redis.execute_command("INFO", "server", target_nodes=RedisCluster.PRIMARIES)
        infos = list(found.values()) if isinstance(found, dict) else [found]
        if infos and not isinstance(infos[0], dict):  # one node answered: its info
            infos = [found]
    else:
        infos = [await redis.info("server")]
    return [str(_text(info.get("redis_version"))) for info in infos]


def _text(value: Any) -> Any:
    return value.decode() if isinstance(value, bytes) else value


async def choose(redis: aioredis.Redis | RedisCluster, wanted: str = "auto") -> bool:
    """Whether this store's per-entity channels are sharded (see the module's doc).
    ``wanted`` is one of :data:`KINDS`; ``sharded`` raises ``ValueError`` where it
    cannot be."""
    if wanted not in KINDS:
        raise ValueError(f"--pubsub is one of {', '.join(KINDS)}, not {wanted!r}")
    if wanted == "classic":
        return False
    cluster = isinstance(redis, RedisCluster)
    found = await versions(redis)
    able = cluster and bool(found) and all(_version(v) >= SHARDED_SINCE for v in found)
    # redis-py's asyncio cluster client has pub/sub (``ClusterPubSub``) from 8.0 on
    able = able and hasattr(redis, "pubsub")
    if wanted == "sharded" and not able:
        why = "not a Redis Cluster" if not cluster else f"primaries of Redis {', '.join(found)}"
        raise ValueError(f"--pubsub sharded needs a Redis Cluster of Redis 7 or later: {why}")
    return able


class Listening:
    """The news listener's subscriptions: ``subscribe``/``psubscribe`` are classic;
    ``follow``/``unfollow`` take per-entity channels, sharded when ``sharded`` is given
    (a ``ClusterPubSub``), else classic too. :meth:`get_message` returns the next
    published message of either (``message``, ``pmessage`` or ``smessage``), or None
    after ``timeout`` seconds."""

    def __init__(self, classic: PubSub, sharded: ClusterPubSub | None = None) -> None:
        self.classic = classic
        self.sharded = sharded
        self._classic_due = 0.0

    async def subscribe(self, *channels: str) -> None:
        await self.classic.subscribe(*channels)

    async def psubscribe(self, *patterns: str) -> None:
        await self.classic.psubscribe(*patterns)

    async def follow(self, *channels: str) -> None:
        if not channels:
            return
        if self.sharded is None:
            await self.classic.subscribe(*channels)
            return
        for channel in channels:  # SSUBSCRIBE takes channels of one slot only
            await self.sharded.ssubscribe(channel)

    async def unfollow(self, *channels: str) -> None:
        if not channels:
            return
        if self.sharded is None:
            await self.classic.unsubscribe(*channels)
            return
        for channel in channels:
            await self.sharded.sunsubscribe(channel)

    async def get_message(self, timeout: float) -> Message | None:
        sharded = self.sharded
        if sharded is None or not sharded.shard_channels:
            msg: Message | None = await self.classic.get_message(timeout=timeout)
            return msg
        now = time.monotonic()
        if now >= self._classic_due:  # the classic channels (bans) now and then
            self._classic_due = now + CLASSIC_EVERY
            msg = await self.classic.get_message(timeout=0.0)
            if msg is not None:
                self._classic_due = now  # more may be waiting
                return msg
        msg = await sharded.get_sharded_message(ignore_subscribe_messages=True, timeout=timeout)
        return msg

    async def aclose(self) -> None:
        try:
            if self.sharded is not None:
                await self.sharded.aclose()
        finally:
            await self.classic.aclose()
