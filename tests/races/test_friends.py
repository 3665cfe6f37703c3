"""Issue 40's "done when", across two real server processes sharing one Redis: two
players on two instances see each other online, one invites the other to a race and
to a challenge, the other accepts each from the inbox, and both see the results."""

from __future__ import annotations

from typing import Any

from tests.support import TestClient, eventually

from .conftest import Cluster
from .test_races import member, name


async def online(c: TestClient, who: str) -> dict[str, Any] | None:
    rows = (await c.call("friends"))["friends"]
    row = next((r for r in rows if r["player"] == who), None)
    return row if row and row["online"] else None


async def test_friends_on_two_instances(cluster: Cluster) -> None:
    an, bo = name("an"), name("bo")
    async with member(cluster.url(0), an) as a, member(cluster.url(1), bo) as b:
        await a.call("friend_add", name=bo)
        await b.call("friend_add", name=an)
        assert (await eventually(lambda: online(a, bo), what="bo online"))["activity"] == "home"
        await eventually(lambda: online(b, an), what="an online")

        # a race: invited on the other instance, accepted from the inbox
        race = (await a.call("race_create", game="crescent", seed=9))["race"]
        assert (await eventually(lambda: online(b, an)))["race"] == race["code"]
        await a.call("invite", name=bo, race=race["code"])
        ev = await b.next_event("invited")
        (item,) = (await b.call("inbox"))["items"]
        assert item["id"] == ev["item"]["id"] and item["race"]["code"] == race["code"]
        await b.call("race_join", code=item["race"]["code"])
        assert (await b.call("inbox_read", item=item["id"]))["unread"] == 0
        await a.call("race_start", race_id=race["race_id"])
        for c in (a, b):
            state = (await c.next_event("race_started"))["state"]
            await c.call("resign", game_id=state["game_id"])
        done = await a.next_event("race", race_id=race["race_id"], status="finished")
        assert {p["player"] for p in done["players"]} == {an, bo}
        new = (await a.call("race_rematch", race_id=race["race_id"]))["race"]
        rematch = (await b.call("inbox"))["items"][0]
        assert rematch["kind"] == "rematch" and rematch["race"]["code"] == new["code"]

        # a challenge: the same, and its result in the creator's inbox
        made = (await a.call("challenge_create", game="crescent"))["challenge"]
        await a.call("invite", name=bo, challenge=made["code"])
        ev = await b.next_event("invited")
        code = ev["item"]["challenge"]["code"]
        accepted = await b.call("challenge_accept", code=code)
        await b.call("resign", game_id=accepted["state"]["game_id"])
        await a.next_event("challenge_result", code=code)
        news = (await a.call("inbox"))["items"][0]
        assert (news["kind"], news["sender"], news["challenge"]["code"]) == (
            "challenge_result",
            bo,
            code,
        )
        seen = (await b.call("challenge", code=code))["challenge"]
        assert [r["player"] for r in seen["results"]] == [bo]

    async def gone() -> bool:
        async with member(cluster.url(0), name("cy")) as c:
            await c.call("friend_add", name=an)
            return (await c.call("friends"))["friends"][0]["online"] is False

    await eventually(gone, what="an offline once gone")
