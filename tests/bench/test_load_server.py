"""bench/load_server.py's floor-plus-engine server: the server its CPU and p99 figures
are compared with must do the engine's real work and the floor's real write, or the
comparison means nothing."""

from __future__ import annotations

import asyncio
import contextlib

import redis.asyncio as aioredis
from websockets.asyncio.client import connect

import protocol as P
from bench.load_server import GAME, Player, floor_engine_server
from deploy.procs import free_port
from server.patience import registry


async def test_the_floor_plus_engine_server_plays_the_engine_and_writes_each_move(
    redis_url: str,
) -> None:
    port = free_port()
    task = asyncio.create_task(floor_engine_server(port, redis_url))
    store = aioredis.from_url(redis_url)
    try:
        for _ in range(100):  # it listens within a few ms
            with contextlib.suppress(OSError):
                ws = await connect(
                    f"ws://127.0.0.1:{port}/",
                    subprotocols=[P.SUBPROTOCOL],  # type: ignore[list-item]
                    compression=None,
                )
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the floor-plus-engine server does not listen")
        async with ws:
            player = Player(ws)
            await player.call("register", name="bench")
            await player.new_game()
            game = registry.get(GAME)
            state = game.deal(100_001)  # the first deal of the first connection
            assert player.state["view"] == game.view(state)
            assert player.state["legal"] == [m.to_wire() for m in game.legal_moves(state)]
            logged = await store.llen("floor:{e1}:log")
            for played in range(1, 41):
                move = player.state["legal"][player.state["seq"] % len(player.state["legal"])]
                assert await player.step()
                state = game.apply(state, game.parse_move(move))
                # the delta it answered, applied as the load client applies pasyans's,
                # gives the engine's own position
                assert player.state["view"]["piles"] == game.view(state)["piles"]
                assert player.state["legal"] == [m.to_wire() for m in game.legal_moves(state)]
                assert player.state["seq"] == played
            # one script call a move, as the floor's and pasyans's
            assert await store.llen("floor:{e1}:log") == logged + 40
            stored = await store.hget("floor:{e1}", "state")
            assert stored == game.dumps(state)
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await store.aclose()
