"""Invites and the inbox over a real server (issue 40): an invite to a race or a
challenge reaches every connection of the friend (``invited``) and their inbox, with
read marks and an unread count; accepting joins; a block drops invites
silently and tells nothing; a player's invites an hour are limited; challenge results and rematches
come to the inbox too, and every race and challenge carries its full ``url``."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from server.net import App
from server.services import FakeClock
from tests.server.services.test_fair_play import QUICK, daily_line, play
from tests.support import TestClient, connect
from tests.support.fixtures import unique_name
from tests.support.server import running_app


@pytest.fixture
async def app(redis_url: str, clock: FakeClock) -> AsyncIterator[App]:
    """The test server with a burst that takes a line played at once (test_fair_play's
    ``play`` sends a move as soon as the last is answered)."""
    async with running_app(redis_url, clock=clock, burst=2_000) as server:
        yield server


async def test_an_invite_to_a_race_reaches_every_connection_and_the_inbox(
    app: App, ws_url: str, player: TestClient, player2: TestClient
) -> None:
    assert player.player and player2.player and player2.token
    race = (await player.call("race_create", game="crescent"))["race"]
    assert race["url"] == f"http://127.0.0.1:{app.port}/#race/{race['code']}"
    async with connect(ws_url) as tab:
        await tab.call("auth", token=player2.token)
        sent = await player.call("invite", name=player2.player.upper(), race=race["code"])
        assert sent == {"invited": player2.player}
        for c in (player2, tab):
            ev = await c.next_event("invited")
            assert ev["unread"] == 1
            item = ev["item"]
            assert item["kind"] == "invite" and item["sender"] == player.player
            assert item["race"] == {"code": race["code"], "url": race["url"]}
            assert item["game"] == "crescent" and item["read"] is False
    inbox = await player2.call("inbox")
    assert inbox["unread"] == 1 and [i["id"] for i in inbox["items"]] == [item["id"]]
    # accepting is joining the race; the item then reads as read
    joined = await player2.call("race_join", code=inbox["items"][0]["race"]["code"])
    assert [p["player"] for p in joined["race"]["players"]] == sorted(
        [player.player, player2.player]
    )
    assert await player2.call("inbox_read", item=item["id"]) == {"unread": 0}
    assert (await player2.call("inbox"))["items"][0]["read"] is True
    assert (await player2.error("inbox_read", item="nope"))["code"] == "not_found"
    # refusals: a race you are not in, a started one, yourself, nobody
    other = (await player2.call("race_create", game="crescent"))["race"]
    assert (await player.error("invite", name=player2.player, race=other["code"]))[
        "code"
    ] == "forbidden"
    assert (await player.error("invite", name=player.player, race=race["code"]))[
        "code"
    ] == "bad_request"
    assert (await player.error("invite", name="nobody_x", race=race["code"]))["code"] == "not_found"
    assert (await player.error("invite", name=player2.player))["code"] == "bad_request"


async def test_an_invite_to_a_challenge_and_its_result_in_the_creators_inbox(
    player: TestClient, player2: TestClient
) -> None:
    assert player.player and player2.player
    made = (await player.call("challenge_create", game="crescent"))["challenge"]
    assert made["url"].endswith(f"/#challenge/{made['code']}") and made["url"].startswith("http")
    await player.call("invite", name=player2.player, challenge=made["code"].lower())
    ev = await player2.next_event("invited")
    assert ev["item"]["challenge"] == {"code": made["code"], "url": made["url"]}
    accepted = await player2.call("challenge_accept", code=ev["item"]["challenge"]["code"])
    await player2.call("resign", game_id=accepted["state"]["game_id"])
    await player.next_event("challenge_result")
    inbox = await player.call("inbox")
    kinds = [(i["kind"], i["sender"]) for i in inbox["items"]]
    assert kinds == [("challenge_result", player2.player)]
    assert inbox["items"][0]["challenge"]["code"] == made["code"]
    assert (await player.call("inbox_read"))["unread"] == 0
    rows = (await player.call("challenges"))["challenges"]
    assert rows[0]["url"] == made["url"]


async def test_a_block_drops_invites_and_follows_silently(
    player: TestClient, player2: TestClient
) -> None:
    assert player.player and player2.player
    await player.call("friend_add", name=player2.player)
    assert await player2.call("block", name=player.player) == {
        "player": player.player,
        "blocked": True,
    }
    # the follow stays, as if nothing happened (its end would tell), and shows nothing
    rows = (await player.call("friends"))["friends"]
    assert [r["player"] for r in rows] == [player2.player] and rows[0]["online"] is False
    assert (await player.call("friend_add", name=player2.player))["added"] is False
    race = (await player.call("race_create", game="crescent"))["race"]
    assert await player.call("invite", name=player2.player, race=race["code"]) == {
        "invited": player2.player
    }
    assert (await player2.call("inbox"))["items"] == []
    assert (await player2.call("friends"))["blocked"] == [player.player]
    assert (await player2.call("unblock", name=player.player))["unblocked"] is True
    await player.call("invite", name=player2.player, race=race["code"])
    assert (await player2.call("inbox"))["unread"] == 1


async def test_invites_an_hour_are_limited(redis_url: str, clock: FakeClock) -> None:
    async with running_app(redis_url, clock=clock, invites_per_hour=2) as app:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with connect(url) as a, connect(url) as b:
            await a.register(unique_name("inv"))
            friend = await b.register(unique_name("inv"))
            assert friend
            race = (await a.call("race_create", game="crescent"))["race"]
            for _ in range(2):
                await a.call("invite", name=b.player, race=race["code"])
            refused = await a.error("invite", name=b.player, race=race["code"])
            assert refused["code"] == "rate_limited" and refused["retry_after"] > 0
            clock.advance(seconds=3600)
            await a.call("invite", name=b.player, race=race["code"])


async def test_a_rematch_comes_to_the_inbox_and_keeps_the_spectators(
    ws_url: str, player: TestClient, player2: TestClient
) -> None:
    assert player.player and player2.player
    race = (await player.call("race_create", game="crescent", seed=5))["race"]
    await player2.call("race_join", code=race["code"])
    async with connect(ws_url) as fan:
        await fan.register(unique_name("fan"))
        await fan.call("race_watch", code=race["code"])
        await player.call("race_start", race_id=race["race_id"])
        for c in (player, player2):
            state = (await c.next_event("race_started"))["state"]
            await c.call("resign", game_id=state["game_id"])
        await player.next_event("race", status="finished")
        new = (await player.call("race_rematch", race_id=race["race_id"]))["race"]
        inbox = await player2.call("inbox")
        assert [(i["kind"], i["sender"]) for i in inbox["items"]] == [("rematch", player.player)]
        assert inbox["items"][0]["race"]["code"] == new["code"]
        assert (await player.call("inbox"))["items"] == []  # who asked is not told
        ev = await fan.next_event("race", race_id=new["race_id"])
        assert ev["watchers"] == 1


async def test_links_start_with_the_public_url(redis_url: str, clock: FakeClock) -> None:
    public = "https://pasyans.example/play"
    async with running_app(redis_url, clock=clock, public_url=public) as app:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with connect(url) as a:
            await a.register(unique_name("url"))
            race = (await a.call("race_create", game="crescent"))["race"]
            assert race["url"] == f"{public}/#race/{race['code']}"
            made = (await a.call("challenge_create", game="crescent"))["challenge"]
            assert made["url"] == f"{public}/#challenge/{made['code']}"


async def test_a_followed_player_beating_your_daily_comes_to_your_inbox(
    app: App, player: TestClient, player2: TestClient
) -> None:
    """player follows player2; player resigns today's daily at once, player2 wins it:
    player's inbox says so (and player2's, who is beaten by nobody, stays empty)."""
    assert player.player and player2.player
    await player.call("friend_add", name=player2.player)
    assert app.services is not None
    game, _, line = await daily_line(app, QUICK, app.services.dailies.today())
    mine = await player.start(QUICK, "daily")
    await player.call("resign", game_id=mine["game_id"])
    state = await player2.start(QUICK, "daily")
    await play(player2, state, line)
    inbox = await player.call("inbox")
    assert [(i["kind"], i["sender"], i["game"], i["date"]) for i in inbox["items"]] == [
        ("daily_beaten", player2.player, QUICK, mine["date"])
    ]
    assert (await player2.call("inbox"))["items"] == []
    assert game.slug == QUICK
