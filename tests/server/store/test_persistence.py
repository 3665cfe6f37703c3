"""Nothing is lost when the server dies: kill -9 mid-game, start a new server, resume.
And the embedded Redis: started, persisted (AOF), stopped cleanly, started again."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

from server.store.embedded import aof_bytes
from tests.support import RedisProcess, ServerProcess, connect, eventually


async def test_kill_the_server_mid_game_and_resume(tmp_path: Path) -> None:
    with RedisProcess(appendonly=True, directory=tmp_path / "redis") as redis:
        with ServerProcess(redis_url=redis.url) as first:
            async with connect(first.url) as c:
                token = await c.register("survivor")
                state = await c.start("crescent", "deal", seed=99)
                for _ in range(5):
                    if not state["legal"]:
                        break
                    state = await c.move(state, state["legal"][-1])
                first.kill()  # SIGKILL: no goodbye, no flush in the server
        with ServerProcess(redis_url=redis.url) as second:
            async with connect(second.url) as c:
                await c.call("auth", token=token)
                again = (await c.call("resume", game_id=state["game_id"]))["state"]
                assert again["seq"] == state["seq"] and again["view"] == state["view"]
                assert again["legal"] == state["legal"] and again["moves"] == state["moves"]
                if again["legal"]:
                    await c.move(again, again["legal"][0])


async def test_sigterm_is_graceful(tmp_path: Path) -> None:
    with RedisProcess() as redis, ServerProcess(redis_url=redis.url) as server:
        async with connect(server.url) as c:
            await c.call("games")
            code = await asyncio.to_thread(server.terminate)
            msg = await c.recv()
            assert msg["ev"] == "bye"
        assert code == 0


async def test_embedded_redis_persists_and_stops_cleanly(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with ServerProcess("--data-dir", str(data)) as server:
        async with connect(server.url) as c:
            token = await c.register("embedded")
            state = await c.start("crescent", "deal", seed=5)
            state = await c.move(state, state["legal"][0])
        assert (data / "redis.sock").exists()
        code = await asyncio.to_thread(server.terminate)
        assert code == 0
    assert aof_bytes(data) > 0  # appendonly.aof up to Redis 6, appendonlydir/ from 7
    assert not _redis_alive(data)
    with ServerProcess("--data-dir", str(data)) as server:
        async with connect(server.url) as c:
            await c.call("auth", token=token)
            again = (await c.call("resume", game_id=state["game_id"]))["state"]
            assert again["seq"] == 1 and again["view"] == state["view"]
        await asyncio.to_thread(server.terminate)


def _redis_alive(data: Path) -> bool:
    from server.store.embedded import ping

    return ping(str(data / "redis.sock"))


async def test_embedded_redis_is_restarted_when_it_dies(tmp_path: Path) -> None:
    from server.store import EmbeddedRedis

    embedded = EmbeddedRedis(tmp_path / "d")
    await embedded.start()
    try:
        assert embedded.process is not None
        first = embedded.process.pid
        os.kill(first, 9)

        def restarted() -> bool:
            process = embedded.process  # a new one once restarted
            return process is not None and process.pid != first and _redis_alive(tmp_path / "d")

        await eventually(
            restarted,
            every=0.05,
            what="the embedded redis-server restarted",
        )
        assert embedded.restarts == 1 and embedded.process.pid != first
    finally:
        await embedded.stop()
    assert not _redis_alive(tmp_path / "d")


async def test_workers_share_one_port_and_one_redis(tmp_path: Path) -> None:
    with ServerProcess("--data-dir", str(tmp_path / "w"), "--workers", "2") as server:
        async with connect(server.url) as a, connect(server.url) as b:
            token = await a.register("twin")
            await b.call("auth", token=token)
            state = await a.start("crescent", "deal", seed=3)
            again = (await b.call("resume", game_id=state["game_id"]))["state"]
            assert again["view"] == state["view"]
        assert await asyncio.to_thread(server.terminate) == 0
    assert not _redis_alive(tmp_path / "w")


async def test_kill_9_with_the_embedded_redis_loses_nothing(tmp_path: Path) -> None:
    data = tmp_path / "k"
    with ServerProcess("--data-dir", str(data)) as server:
        async with connect(server.url) as c:
            token = await c.register("hardkill")
            state = await c.start("crescent", "deal", seed=8)
            state = await c.move(state, state["legal"][0])
        server.kill()  # the embedded redis-server gets SIGTERM from the kernel
    with ServerProcess("--data-dir", str(data)) as server:
        async with connect(server.url) as c:
            await c.call("auth", token=token)
            again = (await c.call("resume", game_id=state["game_id"]))["state"]
            assert again["seq"] == state["seq"] and again["view"] == state["view"]
        await asyncio.to_thread(server.terminate)
