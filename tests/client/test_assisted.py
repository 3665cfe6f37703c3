"""An assisted game says so in words wherever its result shows (issue 36, point 5):
the board's title and end screen, the home screen and ``pasyans daily``, history,
friends, replays and the shared result — over a real server."""

from __future__ import annotations

import asyncio

import pytest

from client import config
from client.app import PasyansApp
from client.cli import EXIT_OK, main
from client.connection import Connection
from client.launch import Launch
from client.screens.board import EndScreen
from client.screens.dialogs import ConfirmScreen
from client.screens.home import DailyScreen
from protocol.messages import Mode, Op

from .conftest import fresh_name
from .test_app import on_board, until

#: a daily whose hint the solver finds at once
QUICK = "travellers_classic"


async def assisted_daily(url: str, token: str) -> str:
    """Today's QUICK daily of the player of ``token``, hinted then resigned: its id."""
    async with Connection(url) as conn:
        await conn.auth(token)
        state = await conn.start(QUICK, Mode.DAILY)
        await conn.hint(str(state["game_id"]))
        await conn.resign(str(state["game_id"]))
        return str(state["game_id"])


def test_every_command_says_assisted(
    server_env: str, account: config.Credentials, capsys: pytest.CaptureFixture[str]
) -> None:
    gid = asyncio.run(assisted_daily(server_env, account.token))

    async def friend() -> str:
        async with Connection(server_env) as other:
            registered = await other.register(fresh_name())
        await assisted_daily(server_env, str(registered["token"]))
        async with Connection(server_env) as conn:
            await conn.auth(account.token)
            await conn.call(Op.FRIEND_ADD, name=registered["player"])
        return str(registered["player"])

    name = asyncio.run(friend())
    capsys.readouterr()
    assert main(["daily"]) == EXIT_OK
    row = next(line for line in capsys.readouterr().out.splitlines() if line.startswith(QUICK))
    assert "assisted (the solver helped: not ranked)" in row
    assert main(["history"]) == EXIT_OK
    assert "assisted" in next(ln for ln in capsys.readouterr().out.splitlines() if gid in ln)
    assert main(["share", gid]) == EXIT_OK
    assert "assisted (the solver helped: not ranked)" in capsys.readouterr().out.splitlines()[1]
    assert main(["replay", gid, "--text"]) == EXIT_OK
    assert "assisted" in capsys.readouterr().out.splitlines()[0]
    assert main(["friends"]) == EXIT_OK
    row = next(line for line in capsys.readouterr().out.splitlines() if name in line)
    assert "assisted (not ranked)" in row


async def test_the_board_the_end_screen_and_home_say_assisted(
    server_url: str, account: config.Credentials
) -> None:
    app = PasyansApp(server_url, launch=Launch(game=QUICK, mode=Mode.DAILY))
    async with app.run_test(size=(80, 24)) as pilot:
        board = await on_board(pilot)
        title = board.query_one("#title")
        assert "assisted" not in str(title.render())
        await pilot.press("h")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: "daily, assisted" in str(title.render()))
        await pilot.press("r", "y")
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        assert "assisted: the solver helped" in str(app.screen.query_one("#end").render())
    home = PasyansApp(server_url)
    async with home.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(home.screen, DailyScreen) and bool(home.screen.rows))
        screen = home.screen
        assert isinstance(screen, DailyScreen)
        assert "assisted" in screen.rows[QUICK][4]
