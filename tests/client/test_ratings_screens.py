"""Ratings (issue 51) on the terminal client's screens, in both languages at 80×24:
the stats screen's rating column, the friends screen's ratings, and a game's rating
board reached from its leaderboard (``r``); a value with "?" while provisional. The
ratings come from real races between accounts of different addresses
(tests/support/ratings.py) on a server that trusts loopback as its load balancer."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator

import pytest

from client import config
from client.app import PasyansApp
from client.connection import Connection
from client.screens.friends import FriendsScreen
from client.screens.home import DailyScreen
from client.screens.leaderboard import LeaderboardScreen
from client.screens.stats import StatsScreen
from protocol.messages import Op
from server.services.ratings import PROVISIONAL_RACES
from tests.support import ServerProcess
from tests.support.ratings import RATED_SERVER_ARGS, rated_players

from .test_80x24 import SMALL, all_keys_shown, on_screen, screen_text
from .test_app import until


@pytest.fixture(scope="module")
def rated(redis_url: str) -> Iterator[tuple[str, dict[str, tuple[str, str]]]]:
    """A server with ann, past provisional at crescent (PROVISIONAL_RACES races
    against bob), and cid, provisional (one race against ann): its url and players."""
    prefix = {"PASYANS_KEY_PREFIX": f"rated{uuid.uuid4().hex[:8]}:"}
    args = ("--rate", "10000", "--burst", "10000", "--log-level", "warning")
    with ServerProcess(*args, *RATED_SERVER_ARGS, redis_url=redis_url, env=prefix) as server:
        stem = uuid.uuid4().hex[:6]
        names = {f"ann{stem}": 0, f"bob{stem}": PROVISIONAL_RACES, f"cid{stem}": 1}
        yield server.url, asyncio.run(rated_players(server.url, names))


def rating_of(value: dict[str, object]) -> str:
    return f"{value['value']}{'?' if value.get('provisional') else ''}"


async def test_ratings_on_stats_friends_and_the_rating_board(
    rated: tuple[str, dict[str, tuple[str, str]]], config_dir: object, language: str
) -> None:
    url, players = rated
    (ann, token), (bob, _), (cid, _) = players.values()
    async with Connection(url) as conn:
        await conn.auth(token)
        await conn.call(Op.FRIEND_ADD, name=cid)
        mine = (await conn.call(Op.STATS))["ratings"]["crescent"]
        theirs = (await conn.call(Op.STATS, player=cid))["ratings"]["crescent"]
    assert not mine["provisional"] and theirs["provisional"]
    config.save(url, config.Credentials(ann, token))
    ru = language == "ru"
    app = PasyansApp(url)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
        await pilot.press("s")
        await until(pilot, lambda: isinstance(app.screen, StatsScreen) and bool(app.screen.result))
        shown = await on_screen(pilot, "рейтинг" if ru else "rating", rating_of(mine))
        row = next(line for line in shown.splitlines() if rating_of(mine) in line)
        assert ("Полумесяц" if ru else "Crescent") in row, shown
        assert "?" in screen_text(pilot)  # the legend says what "?" means
        await all_keys_shown(pilot)
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
        await pilot.press("f")
        await until(pilot, lambda: isinstance(app.screen, FriendsScreen) and bool(app.screen.rows))
        shown = await on_screen(pilot, cid, rating_of(theirs))
        assert f"{'Полумесяц' if ru else 'Crescent'} {rating_of(theirs)}" in shown, shown
        await all_keys_shown(pilot)
        await pilot.press("q")
        await until(pilot, lambda: isinstance(app.screen, DailyScreen))
        app.push_screen(LeaderboardScreen("crescent"))
        await until(pilot, lambda: isinstance(app.screen, LeaderboardScreen))
        await pilot.press("r")  # the game's rating board
        shown = await on_screen(pilot, "рейтинги в гонках" if ru else "ratings from races", bob)
        rows = [line for line in shown.splitlines() if ann in line or bob in line]
        assert len(rows) == 2, shown
        assert any(rating_of(mine) in r for r in rows if ann in r), shown
        assert cid not in shown  # provisional: not on the board yet
        assert ("вы: место" if ru else "you: rank") in shown
        await all_keys_shown(pilot)
        await pilot.press("r")  # back to the daily board
        await on_screen(pilot, "расклад дня" if ru else "daily")
