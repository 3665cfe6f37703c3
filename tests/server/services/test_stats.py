"""Statistics over a real server with a fake clock: counted once per finished game,
per game and overall, dailies and streaks, the chart of the last 30 days."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from server.net import App
from server.services import FakeClock
from tests.support import TestClient, connect, running_app
from tests.support.fixtures import unique_name

TODAY = "2026-03-14"
WON_GAME = "travellers_classic"  # its daily is certified within the budget below


@pytest.fixture
async def solving_app(redis_url: str, clock: FakeClock) -> AsyncIterator[App]:
    """A server whose solver budget certifies travellers_classic's daily (ms)."""
    async with running_app(
        redis_url, clock=clock, candidate_nodes=5_000, daily_nodes=50_000, rate=10_000, burst=10_000
    ) as app:
        yield app


async def won_daily(app: App, c: TestClient, clock: FakeClock) -> dict[str, Any]:
    """Today's travellers_classic daily, won along its par line in 65 s of play (two
    pauses of 32.5 s: a game's time is its active time, a pause counting at most 60 s)."""
    assert app.services is not None
    choice = await app.services.dailies.choice(app.services.dailies.today(), WON_GAME)
    state = await c.start(WON_GAME, "daily")
    for i, move in enumerate(choice.line):
        if i >= len(choice.line) - 2:
            clock.advance(seconds=32.5)
        state = await c.move(state, dict(move))
    assert state["status"] == "won"
    return state


async def resigned(c: TestClient, slug: str, mode: str = "practice", moves: int = 2) -> Any:
    state = await c.start(slug, mode)
    for _ in range(moves):
        state = await c.move(state, state["legal"][0])
    return (await c.call("resign", game_id=state["game_id"]))["state"]


async def test_statistics_per_game_and_overall(solving_app: App, clock: FakeClock) -> None:
    url = f"ws://127.0.0.1:{solving_app.port}/ws"
    async with connect(url) as c, connect(url) as other:
        await c.register(unique_name("stat"))
        await other.register(unique_name("peek"))
        empty = await c.call("stats")
        assert empty["overall"]["played"] == 0 and empty["overall"]["win_pct"] is None
        assert empty["games"] == {} and len(empty["days"]) == 30

        won = await won_daily(solving_app, c, clock)
        lost = await resigned(c, "crescent")
        stats = await c.call("stats")
        overall = stats["overall"]
        assert (overall["played"], overall["won"], overall["win_pct"]) == (2, 1, 50.0)
        assert overall["best_moves"] == won["moves"] and overall["best_time_ms"] == won["time_ms"]
        assert overall["best_time_ms"] >= 65_000
        assert overall["founded_avg"] == (104 + lost["foundation"]) / 2
        assert (overall["daily_played"], overall["daily_won"]) == (1, 1)
        assert (overall["streak"], overall["best_streak"]) == (1, 1)
        assert set(stats["games"]) == {WON_GAME, "crescent"}
        crescent = stats["games"]["crescent"]
        assert (crescent["played"], crescent["won"], crescent["best_moves"]) == (1, 0, None)
        assert crescent["daily_played"] == 0 and crescent["streak"] == 0
        assert stats["games"][WON_GAME]["streak"] == 1
        assert stats["days"][-1] == {"date": TODAY, "won": 1, "lost": 1}

        # a finished game seen again (resume) is not counted again
        await c.call("resume", game_id=won["game_id"])
        await c.call("resume", game_id=lost["game_id"])
        assert (await c.call("stats"))["overall"]["played"] == 2

        # one game, and someone else's by name (no account needed)
        one = await other.call("stats", player=c.player, game="crescent")
        assert list(one["games"]) == ["crescent"] and one["player"] == c.player
        assert one["overall"]["played"] == 2
        unplayed = await c.call("stats", game="short")
        assert unplayed["games"]["short"]["played"] == 0

        # the next day: a resigned daily keeps no streak alive; the won game's
        # streak still stands (yesterday), and is gone a day later
        clock.advance(days=1)
        await resigned(c, "picture_gallery", "daily")
        next_day = await c.call("stats")
        assert next_day["overall"]["daily_played"] == 2 and next_day["overall"]["daily_won"] == 1
        assert next_day["games"]["picture_gallery"]["streak"] == 0
        assert next_day["games"][WON_GAME]["streak"] == 1
        assert next_day["days"][-2:] == [
            {"date": TODAY, "won": 1, "lost": 1},
            {"date": "2026-03-15", "won": 0, "lost": 1},
        ]
        clock.advance(days=1)
        later = await c.call("stats")
        assert later["games"][WON_GAME]["streak"] == 0
        assert later["games"][WON_GAME]["best_streak"] == 1
        assert (later["overall"]["streak"], later["overall"]["best_streak"]) == (0, 1)


async def test_stats_errors(client2: TestClient, player: TestClient) -> None:
    assert (await client2.error("stats"))["code"] == "unauthorized"
    assert (await client2.error("stats", player="nobody_here"))["code"] == "not_found"
    assert (await player.error("stats", game="solitaire"))["code"] == "not_found"
    assert (await player.error("stats", player="x"))["code"] == "bad_request"


async def test_a_daily_streak_of_one_game_counts_days_in_a_row(
    solving_app: App, clock: FakeClock
) -> None:
    url = f"ws://127.0.0.1:{solving_app.port}/ws"
    async with connect(url) as c:
        await c.register(unique_name("row"))
        for _ in range(3):
            await won_daily(solving_app, c, clock)
            clock.advance(days=1)
        stats = await c.call("stats", game=WON_GAME)
        assert stats["games"][WON_GAME]["streak"] == 3
        assert stats["overall"]["streak"] == 3
        assert [d["won"] for d in stats["days"][-4:]] == [1, 1, 1, 0]
