"""A race's end on the terminal client (issue 36, point 6), over a real server: when
the creator ends the race, every member's board shows its game over at once, with no
key pressed; End race (``e``) and Drop (``d``) ask first."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from client import config
from client.app import PasyansApp
from client.launch import Launch
from client.screens.dialogs import ConfirmScreen
from client.screens.race import RaceBoardScreen, RaceScreen
from protocol.messages import Mode
from tests.support import TestClient, connect

from .conftest import fresh_name
from .test_app import SIZE, until


@pytest.fixture
async def friend(server_url: str) -> AsyncIterator[TestClient]:
    async with connect(server_url) as c:
        await c.register(fresh_name())
        yield c


def board_of(app: PasyansApp) -> RaceBoardScreen:
    board = next(s for s in app.screen_stack if isinstance(s, RaceBoardScreen))
    return board


async def test_the_race_end_reaches_a_members_board_at_once(
    server_url: str, account: config.Credentials, friend: TestClient
) -> None:
    race = (await friend.call("race_create", game="crescent"))["race"]
    app = PasyansApp(server_url, launch=Launch(race=str(race["code"])))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, RaceScreen))
        await friend.call("race_start", race_id=race["race_id"])
        await until(pilot, lambda: isinstance(app.screen, RaceBoardScreen))
        board = board_of(app)
        assert board.playing
        ended = (await friend.call("race_end", race_id=race["race_id"]))["race"]
        assert ended["status"] == "finished"
        await until(pilot, lambda: board.state.get("status") == "lost")
        assert board.state.get("out") == "ended" and not board.check_action("undo", ())


async def test_end_race_and_drop_ask_first(
    server_url: str, account: config.Credentials, friend: TestClient
) -> None:
    app = PasyansApp(server_url, launch=Launch(game="crescent", mode=Mode.PRACTICE, race="new"))
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: isinstance(app.screen, RaceScreen))
        lobby = app.screen
        assert isinstance(lobby, RaceScreen)
        await friend.call("race_join", code=lobby.race["code"])
        await until(pilot, lambda: len(lobby.race.get("players") or []) == 2)
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, RaceBoardScreen))
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        question = app.screen
        assert isinstance(question, ConfirmScreen) and "End the race now?" in question.question
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, RaceBoardScreen))
        still = (await friend.call("race_join", code=lobby.race["code"]))["race"]
        assert still["status"] == "running"
        # a member shown away: d asks before dropping them (n: nothing is sent)
        friend_name = str(friend.player)
        away = [
            {**p, "away": True, "away_ms": 9_000} if p["player"] == friend_name else p
            for p in lobby.race["players"]
        ]
        lobby.set_race({**lobby.race, "players": away})
        await pilot.press("d")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        question = app.screen
        assert isinstance(question, ConfirmScreen)
        assert f"Drop {friend_name}?" in question.question
        await pilot.press("n")
        await until(pilot, lambda: isinstance(app.screen, RaceBoardScreen))
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await pilot.press("y")
        await until(pilot, lambda: lobby.race.get("status") == "finished")
