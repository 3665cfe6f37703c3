"""Replays in the client: ``pasyans replay`` (board and text) over a real server."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import DataTable

from client import config
from client.app import PasyansApp
from client.cli import EXIT_OK, EXIT_REFUSED, EXIT_USAGE, main
from client.connection import Connection
from client.launch import Launch
from client.records import ReplayOf
from client.screens.leaderboard import LeaderboardScreen
from client.screens.replay import ReplayScreen
from client.widgets import BoardView
from protocol.messages import Mode
from server.services import FakeClock
from tests.support import running_app

from .test_app import SIZE, until

DAY = "2026-03-14"


async def finished_game(url: str, token: str, moves: int = 4) -> dict[str, Any]:
    """A crescent deal 0 game: ``moves`` moves (the first legal one each), resigned."""
    async with Connection(url) as conn:
        await conn.auth(token)
        state = await conn.start("crescent", Mode.DEAL, 0)
        for _ in range(moves):
            state = await conn.move(state["game_id"], state["seq"], state["legal"][0])
        return await conn.resign(state["game_id"])


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_replay_prints_the_moves_and_the_board(
    server_env: str, account: config.Credentials, capsys: pytest.CaptureFixture[str]
) -> None:
    over = asyncio.run(finished_game(server_env, account.token))
    gid = over["game_id"]
    code, out, _ = run(capsys, "replay", gid)
    assert code == EXIT_OK
    assert f"{account.player}'s deal game" in out and "deal 0" in out and "lost" in out
    assert "1. " in out and "4. " in out and "5. " not in out
    assert "step 4/4" in out
    code, out, _ = run(capsys, "replay", gid, "--step", "0")
    assert code == EXIT_OK and "step 0/4 · the deal" in out
    code, _, err = run(capsys, "replay", gid, "--step", "9")
    assert code == EXIT_USAGE and "past the end" in err
    code, _, err = run(capsys, "replay", "no-such-game")
    assert code == EXIT_REFUSED and "No such game." in err
    code, _, err = run(capsys, "replay", gid, "--player", "bob")
    assert code == EXIT_USAGE and "--date" in err


async def test_replay_screen_steps_forward_and_back(
    server_url: str, account: config.Credentials
) -> None:
    over = await finished_game(server_url, account.token, moves=3)
    app = PasyansApp(server_url, launch=Launch(replay=ReplayOf(game_id=over["game_id"])))
    async with app.run_test(size=SIZE) as pilot:
        await until(
            pilot, lambda: isinstance(app.screen, ReplayScreen) and bool(app.screen.position)
        )
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert screen.step == 3  # opens on the final position
        assert screen.position["view"] == over["view"]
        await pilot.press("home")
        await until(pilot, lambda: screen.step == 0)
        deal = screen.query_one(BoardView).drawing.plain()
        await pilot.press("right")
        await until(pilot, lambda: screen.step == 1)
        assert screen.query_one(BoardView).drawing.plain() != deal
        await pilot.press("left")
        await until(pilot, lambda: screen.step == 0)
        assert screen.query_one(BoardView).drawing.plain() == deal
        await pilot.press("left")  # before the deal: stays (handled when press returns)
        assert screen.step == 0
        await pilot.press("end")
        await until(pilot, lambda: screen.step == 3)
        await pilot.press("q")
    assert app.return_value == 0


async def test_replay_of_a_past_dailys_par_line(
    redis_url: str, config_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``pasyans replay GAME --date D``: secret during the day, the certified line once
    it is over (an in-process server with a fake clock; the command runs in a thread)."""
    clock = FakeClock(f"{DAY}T12:00:00")
    async with running_app(redis_url, clock=clock, candidate_nodes=5_000, daily_nodes=50_000) as a:
        url = f"ws://127.0.0.1:{a.port}/ws"
        argv = ["replay", "travellers_classic", "--date", DAY, "--server", url]
        code = await asyncio.to_thread(main, argv)
        out, err = capsys.readouterr()
        assert code == EXIT_REFUSED and "secret until the day is over" in err
        assert a.services is not None  # chosen during its day, as the background does
        await a.services.dailies.choice(DAY, "travellers_classic")
        clock.advance(days=1)
        code = await asyncio.to_thread(main, argv)
        out, err = capsys.readouterr()
        assert code == EXIT_OK, err
        assert f"par line of the daily of {DAY}" in out and "won 104/104" in out
        code = await asyncio.to_thread(main, [*argv[:4], "--step", "1", *argv[4:]])
        out, _ = capsys.readouterr()
        assert code == EXIT_OK and "step 1/" in out
        code = await asyncio.to_thread(main, ["replay", "nope", "--date", DAY, "--server", url])
        _, err = capsys.readouterr()
        assert code == EXIT_USAGE and "pasyans games" in err


async def test_enter_on_a_daily_board_row_replays_it(
    server_url: str, account: config.Credentials
) -> None:
    app = PasyansApp(server_url, launch=Launch(game="short", mode=Mode.DAILY))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: type(app.screen).__name__ == "BoardScreen")
        await pilot.press("r", "y")
        await until(pilot, lambda: type(app.screen).__name__ == "EndScreen")
        await pilot.press("l")
        await until(
            pilot, lambda: isinstance(app.screen, LeaderboardScreen) and bool(app.screen.result)
        )
        board = app.screen
        assert isinstance(board, LeaderboardScreen)
        row = [e["player"] for e in board.result["entries"]].index(account.player)
        board.query_one(DataTable).move_cursor(row=row)
        await pilot.press("enter")
        await until(
            pilot, lambda: isinstance(app.screen, ReplayScreen) and bool(app.screen.position)
        )
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        assert replay.replay["player"] == account.player and replay.replay["mode"] == "daily"
        await pilot.press("q")  # back to the board it came from, not out of the app
        await until(pilot, lambda: app.screen is board)
