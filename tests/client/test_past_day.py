"""A past day's daily played from the home screen is one game (issue 47): Enter
deals it, Enter again resumes it where it was, and the home screen, the calendar,
`pasyans daily --date` and `pasyans history` all say it is in play."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from client import config
from client.app import PasyansApp
from client.cli import main
from client.screens.board import BoardScreen
from client.screens.calendar import CalendarScreen
from client.screens.home import DailyScreen

from .test_80x24 import SMALL, at_home, screen_text
from .test_app import until


async def test_a_past_day_resumes(
    server_url: str,
    server_env: str,
    account: config.Credentials,
    capsys: pytest.CaptureFixture[str],
) -> None:
    yesterday = (dt.datetime.now(dt.UTC).date() - dt.timedelta(days=1)).isoformat()
    app = PasyansApp(server_url)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: at_home(pilot))
        shown = app.screen
        assert isinstance(shown, DailyScreen)
        home: DailyScreen = shown
        await pilot.press("left_square_bracket")
        await until(pilot, lambda: home.date == yesterday and not home.running())
        await pilot.press("enter")  # crescent, the first row
        await until(pilot, lambda: isinstance(app.screen, BoardScreen))
        board = app.screen
        assert isinstance(board, BoardScreen)
        assert board.state["date"] == yesterday and board.state["moves"] == 0
        gid = board.state["game_id"]
        await board.play(board.state["legal"][0])
        await until(pilot, lambda: board.state["moves"] == 1)
        await pilot.press("q")
        await until(pilot, lambda: app.screen is home and not home.running())
        mine = home.daily["games"]["crescent"]["mine"]
        assert mine["game_id"] == gid and mine["status"] == "playing"
        assert "playing" in screen_text(pilot)  # its row: in play, not "not played"
        await pilot.press("enter")  # the same game, where it was
        await until(pilot, lambda: isinstance(app.screen, BoardScreen))
        again = app.screen
        assert isinstance(again, BoardScreen)
        assert again.state["game_id"] == gid and again.state["moves"] == 1
        await pilot.press("q")
        await until(pilot, lambda: app.screen is home)
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CalendarScreen) and bool(app.screen.days))
        calendar = app.screen
        assert isinstance(calendar, CalendarScreen)
        (day,) = [d for d in calendar.days if d["date"] == yesterday]
        assert day["status"] == "playing"
    # the commands (each runs its own event loop: in a thread of their own here)
    assert await asyncio.to_thread(main, ["daily", "--date", yesterday]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "Crescent" in x)
    assert "playing" in line, out
    assert await asyncio.to_thread(main, ["history"]) == 0
    assert capsys.readouterr().out.count(gid) == 1
