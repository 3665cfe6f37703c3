"""Issue 49: a ban on a two-instance deployment. The banned player's connections on
both instances are closed, and their results are off every board of both at once
(the moment ``pasyans-server admin ban`` returns); their token is refused on either."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from tests.support import TestClient, eventually

from .conftest import Cluster
from .test_races import member, name


async def play_daily(c: TestClient) -> None:
    """Start today's daily of crescent (once it is certified) and give it up."""

    async def started() -> dict[str, Any] | None:
        reply = await c.request("start", game="crescent", mode="daily")
        return reply["state"] if reply["ok"] else None

    state = await eventually(started, what="today's crescent daily", every=0.2)
    await c.call("resign", game_id=state["game_id"])


async def players(c: TestClient, **params: Any) -> set[str]:
    board = await c.call("leaderboard", game="crescent", **params)
    return {e["player"] for e in board["entries"]}


async def closed(c: TestClient) -> None:
    with pytest.raises(ConnectionClosed):
        while True:
            await c.recv()


async def test_a_ban_reaches_both_instances_at_once(cluster: Cluster) -> None:
    cheat, honest = name("cheat"), name("honest")
    async with member(cluster.url(0), cheat) as c0, member(cluster.url(1), honest) as h1:
        assert c0.token is not None
        async with (
            member(cluster.url(1), token=c0.token) as c1,
            member(cluster.url(0), token=h1.token) as h0,
        ):
            await play_daily(c0)
            await play_daily(h1)
            await h1.call("friend_add", name=cheat)
            for h in (h0, h1):
                assert {cheat, honest} <= await players(h)
            assert cheat in await players(h1, friends=True)

            proc = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "server",
                "admin",
                "ban",
                cheat,
                "--reason",
                "bot",
                "--redis-url",
                cluster.redis.url,
                "--key-prefix",
                cluster.prefix,
                stdout=asyncio.subprocess.PIPE,
            )
            out, _ = await proc.communicate()
            assert proc.returncode == 0 and b"2 results taken off" in out
            for h in (h0, h1):  # at once: asked right after the command returned
                assert cheat not in await players(h)
                assert cheat not in await players(h, board="alltime")
            assert await players(h1, friends=True) == {honest}
            await asyncio.gather(closed(c0), closed(c1))  # both instances closed them
    for i in (0, 1):
        async with member(cluster.url(i), name("look")) as other:
            err = await other.error("auth", token=c0.token)
            assert (err["key"], err["params"]["reason"]) == ("error.banned", "bot")
