"""The footer offers only keys that do something now: no undo, resign, auto, hint
or actions once the game is over, no hint in a race, ``s Start`` only for the
race's creator in its lobby, ``r Rematch`` only once the race is over; and the
player who makes a rematch is not told to press r to join it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest
from textual.pilot import Pilot
from textual.widgets._footer import FooterKey

from client import config
from client.app import PasyansApp
from client.launch import Launch
from client.screens.board import BoardScreen, EndScreen
from client.screens.race import RaceBoardScreen, RaceScreen, ResultScreen
from protocol.messages import Mode
from tests.support import TestClient, connect

from .conftest import fresh_name
from .test_app import SIZE, on_board, until

PLAY = {"u", "r", "a", "h", "x"}


def footer(pilot: Pilot[int]) -> set[str]:
    """The keys the footer of the current screen shows."""
    return {k.key for k in pilot.app.screen.query(FooterKey)}


async def shows(pilot: Pilot[int], check: Callable[[set[str]], bool]) -> None:
    """Wait until the footer's keys pass ``check`` (the footer follows a frame later)."""
    await until(pilot, lambda: bool(pilot.app.screen.query(FooterKey)) and check(footer(pilot)))


@pytest.fixture
async def friend(server_url: str) -> AsyncIterator[TestClient]:
    async with connect(server_url) as c:
        await c.register(fresh_name())
        yield c


async def test_a_finished_game_offers_no_play_keys(
    server_url: str, account: config.Credentials
) -> None:
    app = PasyansApp(server_url, launch=Launch(game="crescent", mode=Mode.DEAL, seed=0))
    async with app.run_test(size=SIZE) as pilot:
        await on_board(pilot)
        await shows(pilot, lambda keys: keys >= PLAY)
        await pilot.press("r", "y")
        await until(pilot, lambda: isinstance(app.screen, EndScreen))
        await pilot.press("enter")  # back to the board, to look at it
        await until(pilot, lambda: isinstance(app.screen, BoardScreen))
        await shows(pilot, lambda keys: "q" in keys and not keys & PLAY)
        moves = app.screen.state["moves"] if isinstance(app.screen, BoardScreen) else None
        await pilot.press("u")  # not offered, and it does nothing (a key's action is
        # over when press returns: it runs within the key's handling)
        assert isinstance(app.screen, BoardScreen) and app.screen.state["moves"] == moves


async def test_the_race_keys_follow_the_race(
    server_url: str, account: config.Credentials, friend: TestClient
) -> None:
    """A member who did not make the race sees no Start; nobody sees Rematch
    until the race is over; a race board has no Hint."""
    race = (await friend.call("race_create", game="crescent", seed=0))["race"]
    app = PasyansApp(server_url, launch=Launch(race=str(race["code"])))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, RaceScreen))
        await shows(pilot, lambda keys: "q" in keys and not keys & {"s", "r"})
        await friend.call("race_start", race_id=race["race_id"])
        await until(pilot, lambda: isinstance(app.screen, RaceBoardScreen))
        await shows(pilot, lambda keys: "u" in keys and "h" not in keys)
        dealt = await friend.call("race_join", code=race["code"])
        await friend.call("resign", game_id=dealt["state"]["game_id"])
        await pilot.press("r", "y")  # our resignation ends the race
        await until(pilot, lambda: isinstance(app.screen, ResultScreen))  # its text offers r
        lobby = next(s for s in app.screen_stack if isinstance(s, RaceScreen))
        assert lobby.check_action("rematch", ()) and not lobby.check_action("start", ())


async def test_the_creator_sees_start_in_the_lobby(
    server_url: str, account: config.Credentials
) -> None:
    app = PasyansApp(server_url, launch=Launch(game="crescent", mode=Mode.PRACTICE, race="new"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, RaceScreen))
        await shows(pilot, lambda keys: "s" in keys and "r" not in keys)
