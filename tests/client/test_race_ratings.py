"""The rating a race moved, on the terminal client's race end screen (issue 51): each
member's rating after the race and its change, ``?`` while provisional, ``-`` when
the race did not count for the member (docs/races.md, "Ratings")."""

from __future__ import annotations

from client import config
from client.app import PasyansApp
from client.launch import Launch
from client.races import result_table
from client.screens.race import RaceBoardScreen, RaceScreen, ResultScreen
from tests.support import connect

from .conftest import fresh_name
from .test_80x24 import on_screen
from .test_app import SIZE, until


def row(player: str, rating: dict[str, object] | None, change: int | None) -> dict[str, object]:
    return {
        "player": player,
        "status": "lost",
        "foundation": 8,
        "total": 52,
        "moves": 3,
        "time_ms": 61_000,
        "place": None,
        "out": "resigned",
        "rating": rating,
        "rating_change": change,
    }


def test_the_result_shows_each_rating_and_its_change() -> None:
    race = {
        "players": [
            row("ann", {"value": 1637, "uncertainty": 322, "races": 1, "provisional": True}, 137),
            row("bob", {"value": 1427, "uncertainty": 80, "races": 40, "provisional": False}, -73),
            row("cid", {"value": 1500, "uncertainty": 333, "races": 0, "provisional": True}, None),
        ]
    }
    lines = result_table(race).splitlines()
    assert lines[-5].split() == ["player", "rating", "change"]
    assert lines[-4].split() == ["ann", "1637?", "+137"]
    assert lines[-3].split() == ["bob", "1427", "\u221273"]
    assert lines[-2].split() == ["cid", "1500?", "-"]
    assert lines[-1] == "? provisional: fewer than 5 rated races"
    unrated = {"players": [row("ann", None, None), row("bob", None, None)]}
    assert "rating" not in result_table(unrated)  # a chosen seed, a daily deal


async def test_the_race_end_screen_shows_the_ratings(
    server_url: str, account: config.Credentials
) -> None:
    """A race on a fresh deal against a friend on this machine: one address, so the
    race moves neither rating (``-``), and the end screen shows both, provisional."""
    async with connect(server_url) as friend:
        await friend.register(fresh_name())
        race = (await friend.call("race_create", game="crescent"))["race"]
        app = PasyansApp(server_url, launch=Launch(race=str(race["code"])))
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: isinstance(app.screen, RaceScreen))
            await friend.call("race_start", race_id=race["race_id"])
            await until(pilot, lambda: isinstance(app.screen, RaceBoardScreen))
            started = (await friend.next_event("race_started"))["state"]
            await friend.call("resign", game_id=started["game_id"])
            await pilot.press("r", "y")
            await until(pilot, lambda: isinstance(app.screen, ResultScreen))
            shown = await on_screen(pilot, "rating", "change", "1500?")
            mine = next(line for line in shown.splitlines() if "1500?" in line)
            assert account.player in mine or str(friend.player) in mine
            assert "? provisional" in shown
