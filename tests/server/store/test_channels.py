"""The pub/sub kind on one Redis (``server/store/channels.py``): classic whatever its
version — one node has no shards to spread messages over — and ``--pubsub sharded``
refused; a message followed classic arrives, one not followed does not."""

from __future__ import annotations

import asyncio
import uuid

import pytest

from server.store import Store
from server.store.channels import KINDS, _version, choose, versions
from tests.support import GUARD, eventually


async def test_one_redis_is_classic_and_refuses_sharded(redis_url: str) -> None:
    store = Store(redis_url, prefix=f"k{uuid.uuid4().hex[:6]}:")
    try:
        assert len(await versions(store.redis)) == 1
        assert await store.choose_pubsub() is False
        assert await choose(store.redis, "classic") is False
        with pytest.raises(ValueError, match="not a Redis Cluster"):
            await choose(store.redis, "sharded")
        with pytest.raises(ValueError, match="--pubsub is one of"):
            await choose(store.redis, "fast")
    finally:
        await store.close()
    assert KINDS == ("auto", "classic", "sharded")
    assert _version("7.0.15") == (7, 0) and _version(b"6.2.12") == (6, 2)
    assert _version("7.2-rc1") >= (7, 0) and _version(None) < (7, 0)


async def test_a_followed_channel_is_heard_and_an_unfollowed_one_is_not(redis_url: str) -> None:
    store = Store(redis_url, prefix=f"k{uuid.uuid4().hex[:6]}:")
    await store.choose_pubsub()
    here, there = store.keys.player_channel("ann"), store.keys.player_channel("bob")
    listening = store.pubsub()
    try:
        await listening.subscribe(store.keys.ban_channel())
        await listening.follow(here)

        async def heard() -> bool:
            await store.spublish(here, b"ping")
            msg = await listening.get_message(timeout=0.2)
            return msg is not None and msg["data"] == b"ping"

        await eventually(heard, every=0, what="the channel followed")
        await store.spublish(there, b"not for us")
        await store.publish(store.keys.ban_channel(), b"ban")
        await listening.unfollow(here)
        await store.spublish(here, b"after")
        await store.publish(store.keys.ban_channel(), b"last")
        got: list[bytes] = []
        async with asyncio.timeout(GUARD):
            while not got or got[-1] != b"last":
                msg = await listening.get_message(timeout=0.2)
                if msg is not None and msg["data"] != b"ping":
                    got.append(msg["data"])
        assert got == [b"ban", b"last"]
    finally:
        await listening.aclose()
        await store.close()
