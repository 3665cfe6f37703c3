"""Who is online over a real server (issue 40): a followed player's ``online`` and
``activity`` in ``friends`` (the race's code only while its lobby is open), hidden
when they hide it, offline once gone. Across two instances: tests/races/test_friends.py."""

from __future__ import annotations

from typing import Any

from tests.support import TestClient, connect, eventually
from tests.support.fixtures import unique_name


async def row(c: TestClient) -> dict[str, Any]:
    (friend,) = (await c.call("friends"))["friends"]
    return {k: friend[k] for k in ("online", "activity", "race")}


async def test_online_doing_what_hidden_and_gone(ws_url: str, player: TestClient) -> None:
    async with connect(ws_url) as b:
        name = unique_name("pb")
        await b.register(name)
        await player.call("friend_add", name=name)
        assert await row(player) == {"online": True, "activity": "home", "race": None}
        await b.start("crescent", "practice")
        assert await row(player) == {"online": True, "activity": "playing", "race": None}
        race = (await b.call("race_create", game="crescent"))["race"]
        assert await row(player) == {"online": True, "activity": "racing", "race": race["code"]}
        await b.call("race_start", race_id=race["race_id"])
        await b.next_event("race_started")
        assert await row(player) == {"online": True, "activity": "racing", "race": None}
        assert await b.call("presence") == {"hidden": False}
        assert await b.call("presence", hidden=True) == {"hidden": True}
        assert (await b.call("friends"))["hidden"] is True
        assert await row(player) == {"online": False, "activity": None, "race": None}
        await b.call("presence", hidden=False)
        assert (await row(player))["online"] is True

    async def gone() -> bool:
        return (await row(player))["online"] is False

    await eventually(gone, what="a player gone shows offline")
