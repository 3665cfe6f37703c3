"""The friends' side tells nothing it should not (issue 46, item 6), tried over the
wire as the one it should not tell would: a blocked player cannot learn the block
(their ``friend_add`` answers and their ``friends`` rows are those of a follow of
anyone who hides their presence); a player who hides their presence shows followers
nothing live — no daily in play, no time finer than the day; and strangers' invites,
however many accounts send them, never push a followed player's invite out of the
inbox."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest

from server.net import App
from server.services import FakeClock
from server.services.friends import FRESH_MS
from server.store.inbox import MOST, MOST_APART
from tests.support import TestClient, connect, running_app
from tests.support.fixtures import redis_server, redis_url, unique_name

__all__ = ["redis_server", "redis_url"]  # the fixtures of a real Redis, used here

DAY_MS = 86_400_000


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
async def app(redis_url: str, clock: FakeClock) -> AsyncIterator[App]:
    async with running_app(redis_url, clock=clock) as app:
        yield app


@contextlib.asynccontextmanager
async def players(app: App, n: int) -> AsyncIterator[list[TestClient]]:
    """``n`` signed-in players."""
    url = f"ws://127.0.0.1:{app.port}/ws"
    async with contextlib.AsyncExitStack() as stack:
        out = [await stack.enter_async_context(connect(url)) for _ in range(n)]
        for c in out:
            await c.register(unique_name("sp"))
        yield out


def shape(rows: list[dict[str, Any]]) -> list[tuple[str, ...]]:
    """What a ``friends`` row looks like, names left out."""
    return [tuple(sorted(r)) for r in rows]


async def test_a_blocked_player_learns_nothing(app: App) -> None:
    async with players(app, 6) as (blocked, blocker, fan, idol, late, early_blocker):
        assert blocker.player and idol.player and early_blocker.player
        # a hidden idol: what a blocker must look like to the one it blocks
        await idol.call("presence", hidden=True)
        answers: dict[str, list[Any]] = {"blocked": [], "fan": [], "late": []}
        answers["blocked"].append(await blocked.call("friend_add", name=blocker.player))
        answers["fan"].append(await fan.call("friend_add", name=idol.player))
        await blocker.call("block", name=blocked.player)
        await early_blocker.call("block", name=late.player)  # before any follow
        answers["late"].append(await late.call("friend_add", name=early_blocker.player))
        for who, c, name in (
            ("blocked", blocked, blocker.player),
            ("fan", fan, idol.player),
            ("late", late, early_blocker.player),
        ):
            answers[who].append(await c.call("friend_add", name=name))
        added = {who: [a["added"] for a in got] for who, got in answers.items()}
        assert added == {"blocked": [True, False], "fan": [True, False], "late": [True, False]}
        seen = {}
        for who, c in (("blocked", blocked), ("fan", fan), ("late", late)):
            rows = (await c.call("friends"))["friends"]
            assert len(rows) == 1
            seen[who] = rows[0]
        assert seen["blocked"]["player"] == blocker.player
        assert seen["late"]["player"] == early_blocker.player
        for who in ("blocked", "late"):  # the row of a hidden player, online or not
            row = seen[who] | {"player": None}
            assert row == seen["fan"] | {"player": None}, (who, row)
        # and a follow of a blocker stays where a follow of anyone stays
        assert shape([seen["blocked"]]) == shape([seen["fan"]])


async def test_a_hidden_player_shows_nothing_live(app: App, clock: FakeClock) -> None:
    async with players(app, 3) as (hidden, shown, follower):
        assert hidden.player and shown.player
        await hidden.call("presence", hidden=True)
        for c in (hidden, shown):
            await follower.call("friend_add", name=c.player)
            await c.start("crescent", "daily")
        rows = {r["player"]: r for r in (await follower.call("friends"))["friends"]}
        assert rows[shown.player]["today"] == {"crescent": {"status": "playing"}}
        assert rows[shown.player]["online"] is True
        assert rows[hidden.player]["today"] == {} and rows[hidden.player]["online"] is False
        state = await hidden.start("crescent", "daily")
        await hidden.call("resign", game_id=state["game_id"])
        clock.advance(seconds=FRESH_MS / 1000)  # past what friends shows again as read
        # once over, the game as a leaderboard shows it, its times to the day only
        rows = {r["player"]: r for r in (await follower.call("friends"))["friends"]}
        over = rows[hidden.player]["today"]["crescent"]
        assert over["status"] == "lost"
        assert over["updated"] % DAY_MS == 0 and over["created"] % DAY_MS == 0


async def test_strangers_invites_never_push_out_a_friends(app: App) -> None:
    strangers = 4
    async with players(app, 2 + strangers) as (me, friend, *others):
        assert me.player and friend.player
        await me.call("friend_add", name=friend.player)
        code = (await friend.call("race_create", game="crescent"))["race"]["code"]
        await friend.call("invite", name=me.player, race=code)
        sent = 0
        for other in others:  # each a fresh account, within --invites-per-hour (30)
            theirs = (await other.call("race_create", game="crescent"))["race"]["code"]
            for _ in range(30):
                await other.call("invite", name=me.player, race=theirs)
                sent += 1
        assert sent > MOST
        items = (await me.call("inbox"))["items"]
        assert [i["race"]["code"] for i in items if i["sender"] == friend.player] == [code]
        assert len([i for i in items if i["sender"] != friend.player]) == MOST_APART
