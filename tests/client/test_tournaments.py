"""Tournaments on the terminal client (issue 51), under Pilot against a real server
whose minute lasts a few seconds (``--tournament-minute``): the lobby from the home
screen (``t``), joining by the code a friend shares (``j``), the countdown, the deal on
the board with the standings beside it at 80×24, the next deal dealt once one is over,
the podium at the end and the tournament's game in the history; a tournament made
from the lobby (``n``) shows its code and link; a friend invited from the friends
screen (``t``) finds it in their inbox."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from client import config
from client import tournaments as tours
from client.app import PasyansApp
from client.screens.friends import FriendsScreen
from client.screens.history import HistoryScreen
from client.screens.home import DailyScreen
from client.screens.tournament import PodiumScreen, TournamentBoardScreen, TournamentScreen
from client.screens.tournaments import JoinTournamentScreen, NewTournamentScreen, TournamentsScreen
from tests.support import ServerProcess, TestClient, connect

from .conftest import fresh_name
from .test_80x24 import SMALL, on_screen
from .test_app import until
from .test_home_races import showing

#: seconds a tournament's minute lasts on this module's server: a 5-minute one runs in
#: 10 s, room for its first deal dealt, resigned and the next one dealt on a loaded
#: machine (under 2 s on a quiet one: the screen notices the start at its next tick)
MINUTE = 2.0
#: seconds ahead the test's tournament starts: room for the lobby, ``j`` and the code
#: typed, and the tournament's screen counting down (a second on a quiet machine)
LEAD = 5.0
#: seconds between two looks while the test waits for the start or the end (the
#: screen notices either at its once-a-second tick)
SLOW = 0.2


@pytest.fixture(scope="module")
def tour_url(redis_url: str) -> Iterator[str]:
    """A server whose tournaments may start at once and whose minutes are short."""
    with ServerProcess(
        "--rate",
        "10000",
        "--burst",
        "10000",
        "--log-level",
        "warning",
        "--tournament-lead",
        "0",
        "--tournament-minute",
        str(MINUTE),
        redis_url=redis_url,
    ) as server:
        yield server.url


@pytest.fixture
async def me(tour_url: str, config_dir: Path) -> config.Credentials:
    async with connect(tour_url) as conn:
        await conn.register(fresh_name())
        creds = config.Credentials(str(conn.player), str(conn.token))
    config.save(tour_url, creds)
    return creds


@pytest.fixture
async def friend(tour_url: str) -> AsyncIterator[TestClient]:
    async with connect(tour_url) as c:
        await c.register(fresh_name())
        yield c


def sample(status: str = "running", you: str = "anna") -> dict[str, Any]:
    now = tours.now_ms()
    rows = [
        {"rank": i + 1, "player": p, "points": pts, "won": pts // 2, "played": 3,
         "founded": 40, "streak": 0, "playing": False, "left": False}
        for i, (p, pts) in enumerate([("boris", 9), ("vera", 7), ("gleb", 4), ("dima", 2)])
    ]  # fmt: skip
    me = {**rows[-1], "rank": 12, "player": you, "points": 1}
    return {
        "tournament_id": "t1", "code": "K7QM2XH", "game": "crescent", "status": status,
        "starts_at": now - 60_000, "ends_at": now + 600_000, "minutes": 30, "entrants": 41,
        "creator": "boris", "public": False, "joined": True, "url": "http://x/#tournament/K7QM2XH",
        "standings": rows, "me": me, "deal": 3,
    }  # fmt: skip


def test_the_standings_and_the_podium_in_words() -> None:
    t = sample()
    lines = tours.standings_rows(t, "anna", most=3, width=24)
    assert lines[0].split() == ["1.", "boris", "9"]
    assert lines[-2:] == ["…", lines[-1]] and lines[-1].split() == ["12.", "anna", "*", "1"]
    assert all(len(line) <= 24 for line in lines)
    podium = tours.podium_lines({**t, "status": "finished"}, "anna")
    assert podium[:3] == ["1. boris — 9 points", "2. vera — 7 points", "3. gleb — 4 points"]
    assert podium[-1] == "You finished 12th of 41 with 1 point."
    assert [tours.nth(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"
    ]  # fmt: skip
    assert tours.when_words(t).endswith("left")
    assert tours.when_words({**t, "status": "upcoming", "starts_at": t["starts_at"] + 200_000})
    row = tours.lobby_row({**t, "place": 2, "status": "finished"}, "anna")
    assert row[0] == "K7QM2XH" and "your place: 2" in row[-1]


async def create(
    conn: TestClient, *, game: str = "crescent", lead: float = 2.5, minutes: int = 5
) -> dict[str, Any]:
    """A tournament of ``conn``'s, starting ``lead`` seconds from now."""
    starts = int((time.time() + lead) * 1000)
    reply = await conn.call("tournament_create", game=game, starts_at=starts, minutes=minutes)
    return dict(reply["tournament"])


async def test_lobby_countdown_deals_and_podium_at_80x24(
    tour_url: str, me: config.Credentials, friend: TestClient
) -> None:
    app = PasyansApp(tour_url)
    async with app.run_test(size=SMALL) as pilot:
        await showing(pilot, DailyScreen)
        await pilot.press("t")
        await showing(pilot, TournamentsScreen)
        made = await create(friend, lead=LEAD)
        code = str(made["code"])
        await pilot.press("j")
        await showing(pilot, JoinTournamentScreen)
        await pilot.press(*code.lower(), "enter")
        screen = await showing(pilot, TournamentScreen, "#body")
        assert screen.tournament["joined"] and screen.tournament["status"] == "upcoming"
        shown = await on_screen(pilot, "Starts in", code, "2 players")
        assert f"#tournament/{code}" in shown
        # the start: deal 1 on the board, the standings beside it, all at 80×24
        board = await showing(pilot, TournamentBoardScreen, "#tour-panel", every=SLOW)
        assert board.deal == 1 and board.state["mode"] == "tournament"
        shown = await on_screen(pilot, f"Tournament {code}", "deal 1", "you: 0 points")
        assert me.player in shown and str(friend.player) in shown
        assert all(len(line) <= SMALL[0] for line in shown.splitlines())
        first = board.state["game_id"]
        # resigned: the next deal is dealt on the same board
        await pilot.press("r", "y")
        await until(pilot, lambda: board.deal == 2 and board.state["game_id"] != first)
        await on_screen(pilot, "deal 2")
        # the end: the podium, the player's place among the two
        podium = await showing(pilot, PodiumScreen, "#podium", every=SLOW)
        shown = await on_screen(pilot, "the podium", "You finished")
        assert "1. " in shown and "2. " in shown and "of 2 with" in shown
        assert podium.tournament["status"] == "finished"
        await pilot.press("enter")
        await pilot.press("q")
        await pilot.press("q")
        await showing(pilot, DailyScreen)
        await pilot.press("h")
        await showing(pilot, HistoryScreen)
        await on_screen(pilot, "tournament")
        await pilot.press("q")
        await showing(pilot, DailyScreen)
        await pilot.press("s")
        await on_screen(pilot, "tournaments: 1 played", wrapped=True)


async def test_a_tournament_made_from_the_lobby_shows_its_code_and_link(
    tour_url: str, me: config.Credentials
) -> None:
    app = PasyansApp(tour_url)
    async with app.run_test(size=SMALL) as pilot:
        await showing(pilot, DailyScreen)
        await pilot.press("t")
        await showing(pilot, TournamentsScreen)
        await pilot.press("n")
        await showing(pilot, NewTournamentScreen)
        await pilot.press("s", "l", "enter")  # in 15 minutes, for 45
        screen = await showing(pilot, TournamentScreen, "#body")
        t = screen.tournament
        assert t["minutes"] == 45 and t["status"] == "upcoming" and t["creator"] == me.player
        assert 14 * 60_000 < t["starts_at"] - tours.now_ms() <= 15 * 60_000
        shown = await on_screen(pilot, "Starts in 14:", str(t["code"]))
        assert str(t["url"]) in shown.replace("\n", "") or f"#tournament/{t['code']}" in shown
        await pilot.press("q")
        lobby = await showing(pilot, TournamentsScreen)
        await until(pilot, lambda: any(r["code"] == t["code"] for r in lobby.rows))
        await on_screen(pilot, str(t["code"]), "you are in")


async def test_a_friend_invited_from_the_friends_screen_opens_it_from_the_inbox(
    tour_url: str, me: config.Credentials, friend: TestClient
) -> None:
    await friend.call("friend_add", name=me.player)
    async with connect(tour_url) as mine:
        await mine.call("auth", token=me.token)
        await mine.call("friend_add", name=str(friend.player))
        made = await create(mine, lead=600)
    app = PasyansApp(tour_url)
    async with app.run_test(size=SMALL) as pilot:
        await showing(pilot, DailyScreen)
        await pilot.press("f")
        await showing(pilot, FriendsScreen)
        await on_screen(pilot, str(friend.player))
        await pilot.press("t")
        await on_screen(pilot, f"invited to your tournament {made['code']}", wrapped=True)
    event = await friend.next_event("invited")
    assert event["item"]["tournament"]["code"] == made["code"]
    inbox = await friend.call("inbox")
    assert inbox["items"][0]["kind"] == "invite"
