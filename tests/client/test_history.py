"""History in the client: ``pasyans history`` and the history screen (h on the home
screen), over a real server."""

from __future__ import annotations

import asyncio

import pytest

from client import config
from client.app import PasyansApp
from client.cli import EXIT_OK, EXIT_UNREACHABLE, main
from client.connection import Connection
from client.screens.board import BoardScreen
from client.screens.history import HistoryScreen
from client.screens.home import DailyScreen
from client.screens.replay import ReplayScreen
from protocol.messages import Mode

from .test_app import SIZE, until


async def three_games(url: str, token: str) -> list[str]:
    """Deals 1, 2 (both resigned) and 3 (in play), in that order: their ids."""
    ids = []
    async with Connection(url) as conn:
        await conn.auth(token)
        for seed in (1, 2, 3):
            state = await conn.start("crescent", Mode.DEAL, seed)
            state = await conn.move(state["game_id"], state["seq"], state["legal"][0])
            if seed < 3:
                await conn.resign(state["game_id"])
            ids.append(str(state["game_id"]))
    return ids


def test_history_lists_newest_first_with_pages(
    server_env: str, account: config.Credentials, capsys: pytest.CaptureFixture[str]
) -> None:
    one, two, three = asyncio.run(three_games(server_env, account.token))
    assert main(["history"]) == EXIT_OK
    out = capsys.readouterr().out
    assert out.index(three) < out.index(two) < out.index(one)
    assert "playing" in out and "lost" in out and "deal" in out and "/104" in out
    assert main(["history", "--limit", "2"]) == EXIT_OK
    out = capsys.readouterr().out
    assert three in out and two in out and one not in out and "more: --cursor 2" in out
    assert main(["history", "--limit", "2", "--cursor", "2"]) == EXIT_OK
    out = capsys.readouterr().out
    assert one in out and two not in out and "more:" not in out


def test_history_needs_an_account(server_env: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history"]) == 1
    assert "register" in capsys.readouterr().err
    assert main(["history", "--server", "ws://127.0.0.1:9/ws"]) == EXIT_UNREACHABLE


async def test_history_screen_replays_and_resumes(
    server_url: str, account: config.Credentials
) -> None:
    one, two, three = await three_games(server_url, account.token)
    app = PasyansApp(server_url)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
        await pilot.press("h")
        await until(
            pilot, lambda: isinstance(app.screen, HistoryScreen) and bool(app.screen.result)
        )
        history = app.screen
        assert isinstance(history, HistoryScreen)
        assert [g["game_id"] for g in history.games] == [three, two, one]
        await pilot.press("down", "enter")  # the second newest: finished, so a replay
        await until(
            pilot, lambda: isinstance(app.screen, ReplayScreen) and bool(app.screen.position)
        )
        replay = app.screen
        assert isinstance(replay, ReplayScreen) and replay.replay["game_id"] == two
        await pilot.press("q")
        await until(pilot, lambda: app.screen is history)
        await pilot.press("up", "enter")  # the newest is in play: it resumes
        await until(pilot, lambda: isinstance(app.screen, BoardScreen))
        board = app.screen
        assert isinstance(board, BoardScreen) and board.state["game_id"] == three
        await pilot.press("q")
        await until(pilot, lambda: app.screen is history)
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
