"""A server restart mid-game: the board reconnects and carries on where the server
(Redis) has the game — nothing is lost, nothing is played twice."""

from __future__ import annotations

import asyncio

import pytest

from client import config
from client.app import PasyansApp
from client.connection import Connection
from client.launch import Launch
from protocol.messages import Mode
from tests.support import RedisProcess, ServerProcess

from .conftest import fresh_name
from .test_app import SIZE, moves, on_board, until


async def test_a_server_restart_mid_game(monkeypatch: pytest.MonkeyPatch) -> None:
    with RedisProcess() as redis:
        server = await asyncio.to_thread(
            ServerProcess("--log-level", "warning", redis_url=redis.url).start
        )
        port = server.port
        try:
            async with Connection(server.url) as conn:
                result = await conn.register(fresh_name())
            config.save(server.url, config.Credentials(result["player"], result["token"]))
            app = PasyansApp(server.url, launch=Launch(game="crescent", mode=Mode.DEAL, seed=0))
            async with app.run_test(size=SIZE) as pilot:
                board = await on_board(pilot)
                await pilot.press("T", "3", "F", "A", "-", "H")
                await until(pilot, lambda: moves(app) == 1)
                await asyncio.to_thread(server.terminate)
                # the same port again, as a restarted deployment would have
                monkeypatch.setattr("deploy.procs.free_port", lambda: port)
                await asyncio.to_thread(server.start)
                await pilot.press("u")  # the connection is gone: reconnect, resume
                status = app.screen.query_one("#status")
                await until(pilot, lambda: "reconnected" in str(status.render()))
                assert moves(app) == 1  # the undo was not sent twice, the move kept
                assert board.state["foundation"] == 9
                await pilot.press("u")
                await until(pilot, lambda: moves(app) == 2)
                assert board.state["foundation"] == 8
        finally:
            server.kill()
