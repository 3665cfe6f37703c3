"""Keys in bursts (a paste, fast typing) on every screen that loads from the server:
each screen draws only the answer to its latest request, for what that request asked,
and reads keys while the server is busy (issue 47: ``c`` ``a`` from home crashed the
calendar with ``KeyError: 'won'``; ``q`` waited half a minute behind a load)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot
from textual.widgets import DataTable

from client import config
from client.app import PasyansApp
from client.connection import Connection
from client.screens.calendar import CalendarScreen
from client.screens.friends import FriendsScreen
from client.screens.history import HistoryScreen
from client.screens.home import DailyScreen
from client.screens.inbox import InboxScreen
from client.screens.leaderboard import LeaderboardScreen
from client.screens.stats import StatsScreen
from protocol.messages import Mode

from .test_80x24 import SMALL, at_home, screen_text
from .test_app import until


def columns(pilot: Pilot[int]) -> list[str]:
    table = pilot.app.screen.query_one(DataTable)
    return [str(c.label) for c in table.columns.values()]


def idle(pilot: Pilot[int]) -> bool:
    """Whether the screen in front has no load under way (its latest answer drawn)."""
    screen = pilot.app.screen
    return not any(w.node is screen and not w.is_finished for w in pilot.app.workers)


async def home(pilot: Pilot[int]) -> DailyScreen:
    await until(pilot, lambda: at_home(pilot))
    screen = pilot.app.screen
    assert isinstance(screen, DailyScreen)
    return screen


class Gate:
    """Holds a connection's op until :meth:`open` (the request then goes to the real
    server): the server busy for as long as the test wants."""

    def __init__(self, conn: Connection, op: str) -> None:
        self.opened = asyncio.Event()
        self.asked = asyncio.Event()
        real: Callable[..., Awaitable[Any]] = getattr(conn, op)

        async def held(*args: Any, **kwargs: Any) -> Any:
            self.asked.set()
            await self.opened.wait()
            return await real(*args, **kwargs)

        setattr(conn, op, held)

    def open(self) -> None:
        self.opened.set()


async def test_calendar_c_a_in_one_burst(server_url: str, account: config.Credentials) -> None:
    app = PasyansApp(server_url)
    async with app.run_test(size=SMALL) as pilot:
        await home(pilot)
        await pilot.press("c", "a")  # a month of one game asked, then of every game
        await until(pilot, lambda: isinstance(app.screen, CalendarScreen) and idle(pilot))
        assert "dailies won" in columns(pilot)
        assert "every game" in screen_text(pilot)
        await pilot.press("a", "a", "a", "left_square_bracket", "right_square_bracket", "a")
        await until(pilot, lambda: idle(pilot))
        calendar = app.screen
        assert isinstance(calendar, CalendarScreen) and calendar.game is None
        assert "dailies won" in columns(pilot) and "every game" in screen_text(pilot)
        await pilot.press("a")
        await until(pilot, lambda: idle(pilot))
        assert "difficulty" in columns(pilot) and "Crescent" in screen_text(pilot)
        await pilot.press("q")
        await home(pilot)


async def test_keys_are_read_while_the_server_is_busy(
    server_url: str, account: config.Credentials
) -> None:
    """A calendar whose month the server has not answered yet leaves with ``q`` at
    once; its late answer, when it comes, draws nothing."""
    app = PasyansApp(server_url)
    async with app.run_test(size=SMALL) as pilot:
        shown = await home(pilot)
        gate = Gate(app.conn, "calendar")
        await pilot.press("c")
        await until(pilot, lambda: isinstance(app.screen, CalendarScreen))
        await until(pilot, gate.asked.is_set)
        await pilot.press("q")  # the server has still not answered
        await until(pilot, lambda: app.screen is shown)
        gate.open()
        await pilot.press("c")  # and again, answered this time
        await until(pilot, lambda: isinstance(app.screen, CalendarScreen) and idle(pilot))
        assert "difficulty" in columns(pilot)
        # the home screen too: [ asked, the server busy, ] and [ again read at once
        await pilot.press("q")
        await home(pilot)
        gate = Gate(app.conn, "daily")
        today = shown.daily["date"]
        await pilot.press("left_square_bracket")
        await until(pilot, gate.asked.is_set)
        await pilot.press("left_square_bracket", "question_mark")  # the rules open meanwhile
        await until(pilot, lambda: app.screen is not shown)
        await pilot.press("escape")
        await until(pilot, lambda: app.screen is shown)
        gate.open()
        await until(pilot, lambda: idle(pilot) and shown.daily["date"] != today)
        # two days back: the burst's two [ went on from the day asked, not the one shown
        assert shown.date is not None and shown.date < today
        assert shown.wanted == shown.date


async def test_every_screen_takes_a_burst(server_url: str, account: config.Credentials) -> None:
    """Each screen opened and its keys pressed in one burst, before its first answer:
    it ends showing what the last keys asked for, and the app is still there."""
    async with Connection(server_url) as conn:  # a game or two to list
        await conn.auth(account.token)
        for seed in (1, 2):
            state = await conn.start("crescent", Mode.DEAL, seed=seed)
            await conn.resign(state["game_id"])
    app = PasyansApp(server_url)
    async with app.run_test(size=SMALL) as pilot:
        await home(pilot)
        bursts: list[tuple[str, type, list[str]]] = [
            ("h", HistoryScreen, ["n", "p", "n", "p", "down", "up"]),
            ("l", LeaderboardScreen, ["a", "f", "m", "a", "n", "p", "f", "m"]),
            ("i", InboxScreen, ["r", "down", "r"]),
            ("f", FriendsScreen, ["h", "down", "b"]),
            ("s", StatsScreen, ["down", "down", "up"]),
            ("c", CalendarScreen, ["a", "left_square_bracket", "a", "right_square_bracket"]),
        ]
        for key, kind, keys in bursts:
            await pilot.press(key, *keys)

            def there(kind: type = kind) -> bool:
                return isinstance(app.screen, kind) and idle(pilot)

            await until(pilot, there)
            screen = app.screen
            if isinstance(screen, LeaderboardScreen):  # a f m a n p f m: the daily
                # board (a twice), everyone's (f twice), around you (the last m)
                assert screen.shown is not None and screen.shown.board == screen.board
                assert not screen.shown.friends and screen.shown.around_me
                assert "· daily " in screen_text(pilot) and "around you" in screen_text(pilot)
            if isinstance(screen, FriendsScreen):  # h: shown offline
                assert screen.result.get("hidden")
            if isinstance(screen, CalendarScreen):  # a twice: one game again
                assert screen.game == "crescent" and "difficulty" in columns(pilot)
            if isinstance(screen, HistoryScreen):
                assert screen.pages == [None] and "page 1" in screen_text(pilot)
            await pilot.press("q")
            await home(pilot)
