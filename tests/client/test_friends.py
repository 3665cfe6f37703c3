"""Friends in the client: ``pasyans friend add/remove``, ``pasyans friends``,
``pasyans leaderboard --friends`` and the friends screen (f on the home screen), with
two players on a real server."""

from __future__ import annotations

import asyncio

import pytest

from client import config
from client.app import PasyansApp
from client.cli import EXIT_OK, EXIT_REFUSED, main
from client.connection import Connection
from client.screens.friends import FollowScreen, FriendsScreen
from client.screens.home import DailyScreen
from protocol.messages import Mode

from .conftest import fresh_name
from .test_app import SIZE, until


async def other_player(url: str) -> str:
    """A second player, who resigns today's crescent daily: their name."""
    async with Connection(url) as conn:
        name = str((await conn.register(fresh_name()))["player"])
        state = await conn.start("crescent", Mode.DAILY)
        await conn.resign(state["game_id"])
    return name


def test_friend_commands(
    server_env: str, account: config.Credentials, capsys: pytest.CaptureFixture[str]
) -> None:
    bob = asyncio.run(other_player(server_env))
    assert main(["friends"]) == EXIT_OK
    assert "you follow nobody yet" in capsys.readouterr().out
    assert main(["friend", "add", bob.upper()]) == EXIT_OK
    assert capsys.readouterr().out == f"you follow {bob}\n"
    assert main(["friend", "add", bob]) == EXIT_OK
    assert "already" in capsys.readouterr().out
    assert main(["friends"]) == EXIT_OK
    out = capsys.readouterr().out
    assert bob in out and "Crescent lost" in out
    assert main(["leaderboard", "crescent", "--friends"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "you and your friends" in out and bob in out
    assert main(["friend", "remove", bob]) == EXIT_OK
    assert capsys.readouterr().out == f"you no longer follow {bob}\n"
    assert main(["friend", "add", "nobody_at_all"]) == EXIT_REFUSED
    assert "No player is called" in capsys.readouterr().err


async def test_friends_screen_follows_and_unfollows(
    server_url: str, account: config.Credentials
) -> None:
    bob = await other_player(server_url)
    app = PasyansApp(server_url)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
        await pilot.press("f")
        await until(
            pilot, lambda: isinstance(app.screen, FriendsScreen) and bool(app.screen.result)
        )
        screen = app.screen
        assert isinstance(screen, FriendsScreen) and screen.rows == []
        await pilot.press("a")
        await until(pilot, lambda: isinstance(app.screen, FollowScreen))
        await pilot.press(*bob, "enter")
        await until(pilot, lambda: [r["player"] for r in screen.rows] == [bob])
        assert "you follow" in str(screen.query_one("#status").render())
        await pilot.press("d")
        await until(pilot, lambda: screen.rows == [])
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
