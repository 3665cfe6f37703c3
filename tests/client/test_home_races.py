"""Races from the home screen, under Pilot against the real server: ``n`` makes a race
on the chosen game (a fresh deal or today's daily), ``j`` joins one by its code, with
the server's refusals shown in the dialog; keys and clicks both work."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any, TypeVar

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static
from textual.widgets._footer import FooterKey

from client import config
from client.app import PasyansApp
from client.lang import current
from client.races import lobby_text
from client.screens.home import DailyScreen
from client.screens.race import RaceBoardScreen, RaceScreen
from client.screens.race_dialogs import JoinRaceScreen, RaceDealScreen, race_code
from tests.support import TestClient, connect

from .conftest import fresh_name
from .test_app import SIZE, until


def typing_in(app: Any) -> bool:
    """The dialog's code field has the keys (focused when the dialog is mounted: keys
    pressed before that, faster than any typist, go nowhere)."""
    return isinstance(app.focused, Input)


@pytest.fixture
async def friend(server_url: str) -> AsyncIterator[TestClient]:
    """Another player, on their own connection."""
    async with connect(server_url) as c:
        await c.register(fresh_name())
        yield c


S = TypeVar("S", bound=Screen[Any])


async def showing(pilot: Pilot[int], kind: type[S], part: str = "", every: float = 0.02) -> S:
    """The app's screen once it is a ``kind`` (with ``part`` composed, a selector),
    asked every ``every`` seconds."""
    app = pilot.app
    await until(
        pilot,
        lambda: isinstance(app.screen, kind) and (not part or bool(app.screen.query(part))),
        every=every,
    )
    screen = app.screen
    assert isinstance(screen, kind)
    return screen


async def at_home(pilot: Pilot[int]) -> DailyScreen:
    home = await showing(pilot, DailyScreen)
    await until(pilot, lambda: bool(home.daily))
    return home


async def in_lobby(pilot: Pilot[int]) -> RaceScreen:
    return await showing(pilot, RaceScreen, "#lobby")


async def on_race_board(pilot: Pilot[int]) -> RaceBoardScreen:
    return await showing(pilot, RaceBoardScreen, "#race-panel")


def text(screen: Widget, selector: str) -> str:
    """The text of the ``Static`` at ``selector`` on ``screen`` (any screen type)."""
    return str(screen.query_one(selector, Static).render())


async def click_footer(pilot: Pilot[int], key: str) -> None:
    """Click the footer's entry for ``key`` (the mouse path to a home-screen key)."""

    def entry() -> FooterKey | None:
        return next((k for k in pilot.app.screen.query(FooterKey) if k.key == key), None)

    await until(pilot, lambda: entry() is not None)  # the footer fills in after a frame
    await pilot.pause()  # and is laid out once the messages it brought are handled
    found = entry()
    assert found is not None
    region = found.region  # a click where it is on the screen (the footer may recompose)
    assert await pilot.click(offset=(region.x + 1, region.y))


def test_race_codes_are_checked_before_asking_the_server() -> None:
    assert race_code(" k7qx2m ") == "K7QX2M"
    assert race_code("K7Q X2M") == "K7QX2M"
    assert race_code("") is None
    assert race_code("K7") is None  # too short for a code
    assert race_code("K7QX-2M") is None


async def test_a_new_race_on_a_fresh_deal_then_back_to_it(
    server_url: str, account: config.Credentials, friend: TestClient
) -> None:
    """n → a fresh deal: the lobby with a code; a friend joins with it; s starts;
    q goes home; j and the code bring back the race and your game."""
    app = PasyansApp(server_url)
    async with app.run_test(size=SIZE) as pilot:
        home = await at_home(pilot)
        slug = home.selected()
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, RaceDealScreen))
        await pilot.press("escape")  # changed my mind: nothing is made
        await until(pilot, lambda: app.screen is home)
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, RaceDealScreen))
        await pilot.press("enter")  # the first choice: a fresh deal
        lobby = await in_lobby(pilot)
        race = lobby.race
        assert race["game"] == slug and lobby.creator
        assert race["code"] in text(lobby, "#lobby") and "Press s to start" in text(lobby, "#lobby")
        assert "daily deal" not in text(lobby, "#lobby")
        await friend.call("race_join", code=str(race["code"]).lower())
        await until(pilot, lambda: "2 players" in text(lobby, "#lobby"))
        await pilot.press("s")
        board = await on_race_board(pilot)
        assert board.state["game"] == slug and board.state["mode"] == "race"
        game_id = board.state["game_id"]
        await until(pilot, lambda: str(friend.player) in text(board, "#race-panel"))
        await pilot.press("q", "y")  # leave the race's board: back home, the game goes on
        await until(pilot, lambda: app.screen is home)
        await pilot.press("j")
        await until(pilot, lambda: isinstance(app.screen, JoinRaceScreen) and typing_in(app))
        await pilot.press(*str(race["code"]), "enter")
        board = await on_race_board(pilot)  # a member coming back gets the race's board
        assert board.state["game_id"] == game_id
        await pilot.press("q", "y")
        await until(pilot, lambda: app.screen is home)


async def test_a_new_race_on_the_daily_deal_by_mouse(
    server_url: str, account: config.Credentials
) -> None:
    """By mouse: the footer's "New race", the daily choice, the lobby's "Start". The
    race's game is today's deal of that game (seed hidden, the day's commitment) and
    counts as the player's daily attempt."""
    app = PasyansApp(server_url)
    async with app.run_test(size=SIZE) as pilot:
        home = await at_home(pilot)
        slug = home.selected()
        assert slug is not None
        commitment = home.daily["games"][slug]["commitment"]
        await click_footer(pilot, "n")
        await until(pilot, lambda: isinstance(app.screen, RaceDealScreen))
        options = app.screen.query_one(OptionList)
        await pilot.click(OptionList, offset=(2, 1 + options.get_option_index("daily")))
        lobby = await in_lobby(pilot)
        assert lobby.race["game"] == slug
        day = current().date(str(home.daily["date"]))  # as the player's language writes it
        assert f"daily deal of {day}" in text(lobby, "#lobby")
        await click_footer(pilot, "s")  # a race of one is a race too
        board = await on_race_board(pilot)
        deal = board.state["deal"]
        assert deal["seed"] is None and deal["commitment"] == commitment
        assert board.state.get("ranked") is True
        await pilot.press("q", "y")
        await until(pilot, lambda: app.screen is home)

        def mine() -> str | None:  # home again: the day's list has your daily attempt
            return (home.daily["games"][slug].get("mine") or {}).get("game_id")

        await until(pilot, lambda: mine() == board.state["game_id"])


async def test_join_checks_the_code_and_shows_the_servers_refusals(
    server_url: str, account: config.Credentials, friend: TestClient
) -> None:
    """j: a malformed code is refused in the dialog; a code no race has, and a race
    already started, come back from the server and reopen the dialog with its
    words and what to do; a good code (clicked Join) opens the lobby."""
    app = PasyansApp(server_url)
    async with app.run_test(size=SIZE) as pilot:
        home = await at_home(pilot)
        await click_footer(pilot, "j")
        await until(pilot, lambda: isinstance(app.screen, JoinRaceScreen) and typing_in(app))
        await pilot.press("enter")
        assert "type the race's code" in text(app.screen, "#why")
        await pilot.press("k", "7", "-", "enter")
        assert isinstance(app.screen, JoinRaceScreen)
        assert "'k7-' is not a race code" in text(app.screen, "#why")
        app.screen.query_one(Input).value = ""
        await pilot.press(*"zz99zz", "enter")  # no race has it: the server says so
        await until(
            pilot,
            lambda: (
                isinstance(app.screen, JoinRaceScreen)
                and "No race has the code ZZ99ZZ" in text(app.screen, "#why")
            ),
        )
        dialog = app.screen
        assert "not_found" not in text(dialog, "#why")  # words, never the code
        assert "check the code with your friend" in text(dialog, "#why")
        assert dialog.query_one(Input).value == "ZZ99ZZ"  # to correct, not to retype

        started = (await friend.call("race_create", game="crescent"))["race"]
        await friend.call("race_start", race_id=started["race_id"])
        dialog.query_one(Input).value = started["code"]
        await pilot.press("enter")
        await until(
            pilot,
            lambda: (
                app.screen is not dialog
                and isinstance(app.screen, JoinRaceScreen)
                and "already started" in text(app.screen, "#why")
            ),
        )
        assert "forbidden" not in text(app.screen, "#why")

        race = (await friend.call("race_create", game="short"))["race"]
        app.screen.query_one(Input).value = race["code"].lower()
        await pilot.click("#join")
        lobby = await in_lobby(pilot)
        assert lobby.race["race_id"] == race["race_id"] and not lobby.creator
        lobby_text = text(lobby, "#lobby")
        assert f"{account.player} (you)" in lobby_text
        assert "Waiting for the race's creator" in lobby_text
        await pilot.press("q", "y")  # leave the lobby: the race has one member again
        await until(pilot, lambda: app.screen is home)
        left = await friend.call("race_join", code=race["code"])
        assert [p["player"] for p in left["race"]["players"]] == [friend.player]
        await pilot.press("j")
        await until(pilot, lambda: isinstance(app.screen, JoinRaceScreen) and typing_in(app))
        await pilot.click("#cancel")
        await until(pilot, lambda: app.screen is home)


def test_the_script_lobby_names_the_daily_deal() -> None:
    race = {"code": "ABCDEF", "game": "short", "status": "lobby", "players": []}
    assert "daily" not in lobby_text(race)
    assert "daily deal of 2026-11-22" in lobby_text({**race, "date": "2026-11-22"})
