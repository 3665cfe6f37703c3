"""Friends over a real server: following by name (one-way), today's results of those
you follow, and friends-only leaderboards (daily and all-time) with the global order,
cursors and around_me."""

from __future__ import annotations

from typing import Any

from server.net import App
from server.services import FakeClock
from server.services.friends import FRESH_MS
from tests.support import TestClient, connect, redis_calls
from tests.support.fixtures import unique_name


async def finish_daily(c: TestClient, moves: int) -> dict[str, Any]:
    state = await c.start("crescent", "daily")
    for _ in range(moves):
        state = await c.move(state, state["legal"][0])
    over: dict[str, Any] = (await c.call("resign", game_id=state["game_id"]))["state"]
    return over


async def test_follow_unfollow_and_todays_results(player: TestClient, player2: TestClient) -> None:
    assert player.player is not None and player2.player is not None
    assert (await player.error("friend_add", name="nobody_here"))["code"] == "not_found"
    assert (await player.error("friend_add", name=player.player))["code"] == "bad_request"
    assert (await player.error("friend_add", name="x"))["code"] == "bad_request"
    added = await player.call("friend_add", name=player2.player.upper())
    assert added == {"friend": player2.player, "added": True}
    assert (await player.call("friend_add", name=player2.player))["added"] is False
    await finish_daily(player2, 2)
    listed = await player.call("friends")
    assert [f["player"] for f in listed["friends"]] == [player2.player]
    today = listed["friends"][0]["today"]
    assert list(today) == ["crescent"] and today["crescent"]["status"] == "lost"
    assert (await player2.call("friends"))["friends"] == []  # following is one-way
    removed = await player.call("friend_remove", name=player2.player)
    assert removed == {"friend": player2.player, "removed": True}
    assert (await player.call("friend_remove", name=player2.player))["removed"] is False
    assert (await player.call("friends"))["friends"] == []


async def test_friends_leaderboards(ws_url: str) -> None:
    names = [unique_name(s) for s in ("me", "fa", "fb", "out")]
    async with (
        connect(ws_url) as me,
        connect(ws_url) as fa,
        connect(ws_url) as fb,
        connect(ws_url) as out,
    ):
        for c, name in zip((me, fa, fb, out), names, strict=True):
            await c.register(name)
        # four different results: the friends board keeps the global order among them
        for c, moves in ((fa, 0), (me, 2), (fb, 4), (out, 6)):
            await finish_daily(c, moves)
        for friend in names[1:3]:
            await me.call("friend_add", name=friend)
        everyone = await me.call("leaderboard", game="crescent")
        order = [e["player"] for e in everyone["entries"] if e["player"] in names]
        assert len(order) == 4
        friends = await me.call("leaderboard", game="crescent", friends=True)
        assert friends["friends"] is True and friends["total"] == 3
        expected = [p for p in order if p != names[3]]
        assert [e["player"] for e in friends["entries"]] == expected
        # losses founding as many cards share a rank, on the friends board as on the
        # whole one
        ranks = {e["player"]: e["rank"] for e in everyone["entries"]}
        among = sorted(ranks[p] for p in expected)
        assert [e["rank"] for e in friends["entries"]] == [1 + among.index(r) for r in among]
        assert friends["me"]["rank"] == 1 + among.index(ranks[names[0]])
        first = await me.call("leaderboard", game="crescent", friends=True, limit=2)
        assert [e["player"] for e in first["entries"]] == expected[:2]
        assert first["cursor"] == "2"
        rest = await me.call("leaderboard", game="crescent", friends=True, limit=2, cursor="2")
        assert [e["player"] for e in rest["entries"]] == expected[2:] and rest["cursor"] is None
        near = await me.call("leaderboard", game="crescent", friends=True, limit=1, around_me=True)
        assert [e["player"] for e in near["entries"]] == [names[0]]
        alltime = await me.call("leaderboard", game="crescent", board="alltime", friends=True)
        assert [e["player"] for e in alltime["entries"]] == expected
        # someone who follows nobody sees only themselves
        alone = await out.call("leaderboard", game="crescent", friends=True)
        assert [e["player"] for e in alone["entries"]] == [names[3]]
        assert alone["me"]["rank"] == 1


async def test_a_friends_board_needs_a_player(client: TestClient) -> None:
    err = await client.error("leaderboard", game="crescent", friends=True)
    assert err["code"] == "unauthorized"


async def test_following_is_not_watching(
    player: TestClient, player2: TestClient, clock: FakeClock
) -> None:
    """A followed player's daily still in play shows only that it is being played: no
    moves, foundation count, seq or game id a follower could watch it by. Once over
    it shows whole (as its leaderboard entry does)."""
    assert player2.player is not None
    await player.call("friend_add", name=player2.player)
    state = await player2.start("crescent", "daily")
    for _ in range(2):
        state = await player2.move(state, state["legal"][0])
    today = (await player.call("friends"))["friends"][0]["today"]
    assert today == {"crescent": {"status": "playing"}}
    await player2.call("resign", game_id=state["game_id"])
    clock.advance(ms=FRESH_MS)  # what was read is shown again for a moment
    over = (await player.call("friends"))["friends"][0]["today"]["crescent"]
    assert over["status"] == "lost" and over["moves"] == 2
    assert over["game_id"] == state["game_id"]


async def test_a_flood_of_friends_reads_the_followed_games_once_a_moment(
    app: App, clock: FakeClock, player: TestClient, player2: TestClient
) -> None:
    """What a followed player did today is read once and shown again for FRESH_MS: a
    flood of ``friends`` (200 followed: 40 moves' worth of the server's CPU each, 50
    a second from one connection) reads the followed players' games once a moment.
    Whom one follows is read every time."""
    assert player2.player is not None
    await player.call("friend_add", name=player2.player)
    state = await player2.start("crescent", "daily")

    def reads() -> int:
        return redis_calls(app, "player_dailies") + redis_calls(app, "games")

    first = await player.call("friends")
    assert first["friends"][0]["today"] == {"crescent": {"status": "playing"}}
    await player2.call("resign", game_id=state["game_id"])
    # (the resign reads its followers' dailies itself: a better daily goes to their inbox)
    before = reads()
    for _ in range(5):
        assert await player.call("friends") == first
    assert reads() == before
    clock.advance(ms=FRESH_MS)
    over = (await player.call("friends"))["friends"][0]["today"]["crescent"]
    assert over["status"] == "lost" and reads() == before + 2
    await player.call("friend_remove", name=player2.player)
    assert (await player.call("friends"))["friends"] == []
