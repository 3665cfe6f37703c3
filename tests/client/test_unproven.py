"""A daily the server could not prove winnable says so on the home screen, in the
board's title and on the end screen (issue 24). The test server's solver budget is
tiny (tests/support/server.py): Crescent's par is over a hundred moves, so its daily
there is never certified."""

from __future__ import annotations

from client import config
from client.app import PasyansApp
from client.launch import Launch
from client.screens.board import EndScreen
from client.screens.home import DailyScreen
from protocol.messages import Mode

from .test_app import SIZE, on_board, until

LABEL = "not proven winnable (best line founds "


async def test_the_home_screen_says_a_daily_is_not_proven(
    server_url: str, account: config.Credentials
) -> None:
    app = PasyansApp(server_url)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen) and bool(app.screen.rows))
        home = app.screen
        assert isinstance(home, DailyScreen) and home.selected() == "crescent"
        status = home.query_one("#status")
        await until(pilot, lambda: f"Crescent: {LABEL}" in str(status.render()))
        assert str(status.render()).endswith(" of 104)")


async def test_the_board_and_the_end_say_a_daily_is_not_proven(
    server_url: str, account: config.Credentials
) -> None:
    app = PasyansApp(server_url, launch=Launch(game="crescent", mode=Mode.DAILY))
    async with app.run_test(size=SIZE) as pilot:
        board = await on_board(pilot)
        title = board.query_one("#title")
        await until(pilot, lambda: LABEL in str(title.render()))
        await pilot.press("r")
        await pilot.press("y")
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        assert LABEL in str(app.screen.query_one("#end").render())
