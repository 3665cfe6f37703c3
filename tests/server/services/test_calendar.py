"""A month of dailies over a real server (issue 40): each day's status of the
player's ranked attempt, par and difficulty; counts across games; a past day's deal
played after its day, unranked, its seed public; and a daily's difficulty, the same
for a date however often it is asked."""

from __future__ import annotations

from server.net import App
from server.patience import registry
from server.services import FakeClock
from server.solver.daily import Choice
from server.solver.difficulty import MEDIAN_PAR, difficulty
from tests.support import TestClient

QUICK = "travellers_classic"


async def test_the_month_then_a_past_day_played_unranked(
    app: App, player: TestClient, clock: FakeClock
) -> None:
    state = await player.start(QUICK, "daily")
    day = state["date"]
    await player.call("resign", game_id=state["game_id"])
    month = day[:7]
    cal = await player.call("calendar", game=QUICK, month=month)
    assert cal["month"] == month and cal["game"] == QUICK
    (today,) = cal["days"]  # the deployment's first day is today
    assert today["date"] == day and today["status"] == "lost" and today["playable"] is False
    assert today["difficulty"] in (1, 2, 3)
    daily = (await player.call("daily"))["games"][QUICK]
    assert (today["par"], today["difficulty"]) == (daily["par"], daily["difficulty"])
    # the next day: yesterday is playable, after its day, unranked, its seed public
    clock.advance(days=1)
    cal = await player.call("calendar", game=QUICK, month=month)
    first = cal["days"][0]
    assert (first["date"], first["status"], first["playable"]) == (day, "lost", True)
    assert cal["days"][-1]["status"] == "not_played"
    past = await player.start(QUICK, "daily", date=day)
    assert past["mode"] == "daily" and past["date"] == day
    revealed = (await player.call("daily", date=day))["games"][QUICK]
    assert past["deal"]["seed"] == revealed["seed"] is not None
    # one game per player and day: the day's own attempt (lost) is that day's game
    assert past["game_id"] == state["game_id"] and past["status"] == "lost"
    cal = await player.call("calendar", game=QUICK, month=month)
    assert cal["days"][0]["status"] == "lost"  # the ranked attempt still tells the day
    every = await player.call("calendar", month=month)
    assert every["game"] is None and every["days"][0] == {"date": day, "won": 0, "played": 1}
    # refusals: a future day, a month before the first day (empty), a bad month
    assert (await player.error("start", game=QUICK, mode="daily", date="2099-01-01"))[
        "code"
    ] == "not_found"
    assert (await player.error("start", game=QUICK, mode="practice", date=day))[
        "code"
    ] == "bad_request"
    assert (await player.call("calendar", month="2020-01"))["days"] == []
    assert (await player.error("calendar", month="2026-13"))["code"] == "bad_request"


async def test_a_past_day_played_is_resumed(app: App, player: TestClient, clock: FakeClock) -> None:
    """A past day not played on the day: its game is dealt once, and every later
    start of it, the ``daily`` of that day, the calendar and the history tell of that
    one game, in play, until it ends (issue 47: each Enter dealt a new game at move 0,
    and the calendar said "not played")."""
    day = (await player.call("daily"))["date"]
    await player.start(QUICK, "practice")  # the day had dailies; this player skipped them
    clock.advance(days=1)
    past = await player.start(QUICK, "daily", date=day)
    assert past["ranked"] is False and past["moves"] == 0
    moved = await player.move(past, past["legal"][0])
    again = await player.start(QUICK, "daily", date=day)
    assert again["game_id"] == past["game_id"] and again["seq"] == moved["seq"] >= 1
    assert again["status"] == "playing"
    mine = (await player.call("daily", date=day))["games"][QUICK]["mine"]
    assert mine["game_id"] == past["game_id"] and mine["status"] == "playing"
    cal = await player.call("calendar", game=QUICK, month=day[:7])
    (first,) = [d for d in cal["days"] if d["date"] == day]
    assert first["status"] == "playing" and first["playable"] is True
    history = (await player.call("my_games", limit=20))["games"]
    assert [g["game_id"] for g in history if g.get("date") == day] == [past["game_id"]]
    # over, it stays that day's game
    await player.call("resign", game_id=past["game_id"])
    over = await player.start(QUICK, "daily", date=day)
    assert over["game_id"] == past["game_id"] and over["status"] == "lost"


async def test_a_dailys_difficulty_is_the_same_for_a_date(app: App, player: TestClient) -> None:
    first = (await player.call("daily"))["games"]
    assert app.services is not None
    app.services.dailies._cache.clear()  # read from Redis again
    second = (await player.call("daily"))["games"]
    for slug in registry.slugs():
        assert first[slug]["difficulty"] == second[slug]["difficulty"]
        assert first[slug]["difficulty"] in (1, 2, 3)


def test_the_method() -> None:
    median = int(MEDIAN_PAR["crescent"])
    short = Choice(1, 0, True, median // 2, 104, win_nodes=10)
    long = Choice(1, 0, True, median * 2, 104, win_nodes=3_000)
    assert difficulty(short, "crescent", 3_000) == 1
    assert difficulty(long, "crescent", 3_000) == 3
    assert difficulty(Choice(1, 0, False, None, 80), "crescent", 3_000) == 3
    middling = Choice(1, 0, True, median, 104, win_nodes=1_500)
    assert difficulty(middling, "crescent", 3_000) == 2
    assert set(MEDIAN_PAR) == set(registry.slugs())
