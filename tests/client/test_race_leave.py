"""Leaving a race is never silent (issue 23, item 9): ``q`` asks first, with the code
to come back with and, while your game is in play, when it is given up; the reminder
is printed once ``pasyans race`` quits. The race panel, even the slim one of an 80×24
terminal, shows the time left before an away member's game is given up."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from client import config
from client.app import PasyansApp
from client.launch import Launch
from client.races import leave_question, leave_reminder, member_status
from client.screens.dialogs import ConfirmScreen
from client.screens.race import RaceBoardScreen, RaceScreen, panel_text
from protocol.messages import Mode
from tests.support import TestClient, connect

from .conftest import fresh_name
from .test_80x24 import SMALL, screen_text
from .test_app import until


def said(pilot: Pilot[int]) -> str:
    """The words on screen, run together (a dialog's border and wrapped lines aside)."""
    return " ".join(screen_text(pilot).replace("█", " ").split())


def race(status: str, mine: str = "playing", **extra: Any) -> dict[str, Any]:
    players = [
        {"player": "alice", "status": mine, "foundation": 8, "total": 104},
        {"player": "bob", "status": "playing", "away": True, "away_ms": 30_000, "total": 104},
    ]
    return {
        "code": "K7QX2M",
        "status": status,
        "players": players,
        "absent_limit_ms": 120_000,
        **extra,
    }


def test_the_question_says_how_to_come_back_and_when_the_game_is_given_up() -> None:
    running = race("running")
    quit_ = leave_question(running, "alice", quitting=True)
    assert "`pasyans race join K7QX2M`" in quit_ and "2:00 after you quit" in quit_
    assert "given up" in quit_
    home = leave_question(running, "alice", quitting=False)
    assert "j on the home screen" in home and "pasyans race join K7QX2M" in home
    assert "2:00 later" in home
    lobby = leave_question(race("lobby"), "alice", quitting=True)
    assert "pasyans race join K7QX2M" in lobby and "lobby" in lobby
    done = leave_question(race("running", mine="won"), "alice", quitting=True)
    assert "given up" not in done and "pasyans race join K7QX2M" in done
    reminder = leave_reminder(running, "alice")
    assert "pasyans race join K7QX2M" in reminder and "2:00" in reminder


def test_the_panel_says_when_an_away_members_game_is_given_up() -> None:
    bob = race("running")["players"][1]
    assert member_status(bob, limit_ms=120_000) == "playing, away 0:30 (given up in 1:30)"
    assert member_status(bob, later_ms=10_000, limit_ms=120_000).endswith("(given up in 1:20)")
    assert "given up" not in member_status({**bob, "status": "lost"}, limit_ms=120_000)
    for narrow in (False, True):
        text = panel_text(race("running"), "alice", narrow=narrow)
        assert "given up in 1:30" in text, (narrow, text)
        if narrow:  # the slim panel: every line fits its 21 columns
            assert max(len(line) for line in text.split("\n")[2:]) <= 21, text


async def test_q_in_a_race_asks_then_reminds_the_code(
    server_url: str, account: config.Credentials
) -> None:
    """`pasyans race new`, at 80×24: q in the lobby asks (n stays); on the board with
    the game in play it says the code and the 2:00 before the game is given up; y
    quits with status 0 and the reminder to print."""
    app = PasyansApp(server_url, launch=Launch(game="crescent", mode=Mode.PRACTICE, race="new"))
    async with app.run_test(size=SMALL) as pilot:
        await until(
            pilot, lambda: isinstance(app.screen, RaceScreen) and bool(app.screen.query("#lobby"))
        )
        lobby = app.screen
        assert isinstance(lobby, RaceScreen)
        code = str(lobby.race["code"])
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        # the dialog's words a frame or more after it is pushed
        await until(pilot, lambda: f"pasyans race join {code}" in said(pilot))
        await pilot.press("n")
        await until(pilot, lambda: app.screen is lobby)
        friend: TestClient
        async with connect(server_url) as friend:
            await friend.register(fresh_name())
            await friend.call("race_join", code=code)
            await until(pilot, lambda: str(friend.player) in screen_text(pilot))
            await pilot.press("s")
            await until(pilot, lambda: isinstance(app.screen, RaceBoardScreen))
            await friend.next_event("race_started")
        assert isinstance(app.screen, RaceBoardScreen)
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        await until(pilot, lambda: f"pasyans race join {code}" in said(pilot))
        shown = said(pilot)
        assert "2:00 after you quit" in shown, shown
        await pilot.press("y")
        await until(pilot, lambda: app.return_value is not None)
    assert app.return_value == 0
    assert f"pasyans race join {code}" in app.farewell and "2:00" in app.farewell
