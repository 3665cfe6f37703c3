"""bench/load_server's floor-plus-engine server: the server its CPU and p99 figures
are compared with must do the engine's real work and the floor's real write, or the
comparison means nothing."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc

import pytest
import redis.asyncio as aioredis
from websockets.asyncio.client import ClientConnection, connect

import protocol as P
from bench.load_server import GAME, Player, floor_engine_server, reference_server
from deploy.procs import free_port
from server.net.app import GC_THRESHOLDS
from server.patience import registry
from tests.support import eventually


async def test_the_floor_plus_engine_server_plays_the_engine_and_writes_each_move(
    redis_url: str,
) -> None:
    port = free_port()
    task = asyncio.create_task(floor_engine_server(port, redis_url))
    store = aioredis.from_url(redis_url)
    try:

        async def listening() -> ClientConnection | None:
            with contextlib.suppress(OSError):
                return await connect(
                    f"ws://127.0.0.1:{port}/",
                    subprotocols=[P.SUBPROTOCOL],  # type: ignore[list-item]
                    compression=None,
                )
            return None

        ws = await eventually(listening, every=0.05, what="the floor-plus-engine server listens")
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


@pytest.mark.parametrize("which", ["echo_server", "floor_server", "floor_engine_server"])
def test_a_reference_server_collects_garbage_as_pasyans_does(which: str) -> None:
    """The reference servers' CPU a move is what pasyans's is divided by: with CPython's
    default collector thresholds the floor plus the engine paid for collections that
    pasyans, which raises them, does not."""
    flags = dict.fromkeys(("echo_server", "floor_server", "floor_engine_server"), 0)
    args = argparse.Namespace(**(flags | {which: 1}), redis_url="redis://unused")
    before = gc.get_threshold()
    gc.set_threshold(700, 10, 10)  # CPython's defaults, as a fresh process has them
    try:
        served = reference_server(args)
        assert served is not None
        served.close()  # never started
        assert gc.get_threshold() == GC_THRESHOLDS
    finally:
        gc.set_threshold(*before)
    assert reference_server(argparse.Namespace(**flags)) is None
