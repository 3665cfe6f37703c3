"""Races: lobby, countdown, the same deal for everyone, progress events, across two
server instances sharing one Redis."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from protocol import Mode
from server.net import App
from server.services import FakeClock, Services
from server.services.games import find_game
from server.services.ids import race_game_id
from server.store import Store
from tests.support import TestClient, connect, eventually, running_app
from tests.support.fixtures import unique_name
from tests.support.server import server_settings

Row = dict[str, Any]


async def test_a_race_from_lobby_to_progress(player: TestClient, player2: TestClient) -> None:
    race = (await player.call("race_create", game="crescent", seed=11))["race"]
    assert race["status"] == "lobby" and race["game"] == "crescent" and race["date"] is None
    assert [p["player"] for p in race["players"]] == [player.player]
    await player.next_event("race", status="lobby")
    joined = (await player2.call("race_join", code=race["code"].lower()))["race"]
    assert {p["player"] for p in joined["players"]} == {player.player, player2.player}
    ev = await player.next_event("race", status="lobby")
    assert len(ev["players"]) == 2
    err = await player2.error("race_start", race_id=race["race_id"])
    assert err["code"] == "forbidden"
    started = (await player.call("race_start", race_id=race["race_id"]))["race"]
    assert started["status"] == "countdown" and started["starts_at"]
    assert (await player.error("race_start", race_id=race["race_id"]))["code"] == "forbidden"
    mine = await player.next_event("race_started")
    theirs = await player2.next_event("race_started")
    a, b = mine["state"], theirs["state"]
    assert a["mode"] == "race" and a["view"] == b["view"] and a["game_id"] != b["game_id"]
    assert a["deal"]["seed"] is None
    await player.move(a, a["legal"][0])
    ev = await player2.next_event("race", status="running")
    progress = {p["player"]: p for p in ev["players"]}
    assert progress[player.player]["moves"] == 1 and progress[player2.player]["moves"] == 0
    late = await player2.error("race_join", code="ZZZZZZ")
    assert late["code"] == "not_found"
    await player.call("resign", game_id=a["game_id"])
    await player2.call("resign", game_id=b["game_id"])
    ev = await player.next_event("race", status="finished")
    assert all(p["place"] is None for p in ev["players"])
    assert await player2.call("race_leave", race_id=race["race_id"]) == {}
    assert (await player2.error("race_leave", race_id=race["race_id"]))["code"] == "not_found"


async def test_race_errors(player: TestClient, client2: TestClient) -> None:
    assert (await client2.error("race_create", game="crescent"))["code"] == "unauthorized"
    assert (await player.error("race_create", game="nope"))["code"] == "not_found"
    assert (await player.error("race_start", race_id="nope"))["code"] == "not_found"
    assert (await player.error("race_join", code="12"))["code"] == "bad_request"
    race = (await player.call("race_create", game="crescent"))["race"]
    await player.call("race_start", race_id=race["race_id"])
    await client2.register("latecomer")
    assert (await client2.error("race_join", code=race["code"]))["code"] == "forbidden"


async def test_race_events_cross_instances(redis_url: str, app: App) -> None:
    prefix = app.settings.key_prefix
    async with running_app(redis_url, key_prefix=prefix) as other:
        assert server_settings(redis_url).key_prefix != prefix
        async with (
            connect(f"ws://127.0.0.1:{app.port}/ws") as a,
            connect(f"ws://127.0.0.1:{other.port}/ws") as b,
        ):
            await a.register("here")
            await b.register("there")
            race = (await a.call("race_create", game="crescent"))["race"]
            await b.call("race_join", code=race["code"])
            await a.next_event("race", status="lobby")
            await a.call("race_start", race_id=race["race_id"])
            sa = (await a.next_event("race_started"))["state"]
            sb = (await b.next_event("race_started"))["state"]
            assert sa["view"] == sb["view"]
            await b.move(sb, sb["legal"][0])
            ev = await a.next_event("race", status="running")
            assert {p["player"]: p["moves"] for p in ev["players"]}["there"] == 1


async def test_concurrent_joins_never_pass_the_cap(redis_url: str) -> None:
    """Twenty players joining one lobby at once (as from several instances): exactly
    the free places are taken, and nobody joins once the race has left its lobby."""
    store = Store(redis_url, prefix=f"joins{uuid.uuid4().hex[:8]}:")
    try:
        assert await store.create_race("r1", "ABCDEF", {"status": "lobby", "game": "short"})
        assert await store.race_join("r1", "creator", 10) == 1
        results = await asyncio.gather(*(store.race_join("r1", f"p{i}", 10) for i in range(20)))
        assert sorted(results).count(1) == 9 and results.count(-2) == 11
        assert len((await store.race("r1"))[1]) == 10
        assert await store.race_join("r1", "p3", 10) in (0, -2)
        assert await store.race_join("r1", "creator", 10) == 0
        assert await store.race_status("r1", "lobby", "countdown", {})
        assert await store.race_join("r1", "late", 99) == -1
    finally:
        await store.close()


async def test_a_race_on_the_daily_deal_is_the_members_daily_attempt(
    player: TestClient, player2: TestClient
) -> None:
    """`race_create daily` deals today's daily: the race game carries the daily's
    commitment, its seed stays hidden even after it ends (the day is not over), and it
    is the member's one ranked attempt of the daily: a player who already played it
    may not join (no second look at the deal before the day is over), and after the
    race `start daily` gives back the same game, never a practice copy."""
    daily = (await player.call("daily"))["games"]["short"]
    before = (await player2.call("start", game="short", mode="daily"))["state"]
    await player2.call("resign", game_id=before["game_id"])
    race = (await player.call("race_create", game="short", daily=True))["race"]
    assert race["date"] == (await player.call("daily"))["date"]
    both = await player.error("race_create", game="short", daily=True, seed=3)
    assert both["code"] == "bad_request"
    refused = await player2.error("race_join", code=race["code"])
    assert refused["code"] == "forbidden" and "daily" in refused["message"]
    await player.call("race_start", race_id=race["race_id"])
    mine = (await player.next_event("race_started"))["state"]
    assert mine["deal"] == {"seed": None, "commitment": daily["commitment"]}
    assert mine["view"] == before["view"]
    assert mine["ranked"] is True
    again = (await player.call("start", game="short", mode="daily"))["state"]
    assert again["game_id"] == mine["game_id"]  # the race game is the daily attempt
    over = (await player.call("resign", game_id=mine["game_id"]))["state"]
    assert over["status"] == "lost" and over["deal"]["seed"] is None
    same = (await player.call("start", game="short", mode="daily"))["state"]
    assert same["game_id"] == mine["game_id"] and same["status"] == "lost"
    assert same["deal"]["seed"] is None
    board = await player.call("leaderboard", game="short", board="daily")
    assert player.player in [e["player"] for e in board["entries"]]


async def test_a_deal_left_halfway_by_a_dead_instance_is_finished_once(redis_url: str) -> None:
    """An instance claimed the dealer lease, dealt one member's game and died: while
    its lease holds nobody deals; once it runs out, the member who comes back gets
    the race dealt, and the half-dealt game is the one they play (no second game)."""
    store = Store(redis_url, prefix=f"deal{uuid.uuid4().hex[:8]}:")
    services = Services.build(store)
    races, games = services.races, services.games
    try:
        race = await races.create("ann", "crescent", 7)
        rid = race["race_id"]
        await races.join("bob", race["code"])
        long_ago = services.clock.now_ms() - 60_000
        assert await store.race_status(rid, "lobby", "countdown", {"starts_at": long_ago})
        # The dead instance: its lease (long: it holds whatever the machine's speed),
        # and Ann's game dealt before it died.
        assert await store.claim_race_dealer(rid, 60_000)
        game = find_game("crescent")
        first = await games.create(
            "ann", game, 7, Mode.RACE, gid=race_game_id(rid, "ann"), race=rid
        )
        assert (await races.join("bob", race["code"]))["status"] == "countdown"
        # The lease runs out: Redis expires its key, done here at once rather than
        # waited for
        assert await store.redis.delete(store.keys.race_dealer(rid)) == 1
        dealt = await races.join("bob", race["code"])
        assert dealt["status"] == "running"
        _, _, ids, _ = await store.race(rid)
        assert ids == {"ann": first.gid, "bob": race_game_id(rid, "bob")}
        assert await store.player_game_ids("ann", 0, 10) == [first.gid]
        bob = await races.my_game("bob", rid)
        assert bob is not None and bob["view"] == games.views.wire(first)["view"]
        assert not await store.claim_race_dealer(rid, 300)  # the new dealer holds it
    finally:
        await services.races.close()
        await store.close()


async def test_a_lobby_evicted_while_its_presence_is_checked_is_forgotten(
    app: App, player: TestClient
) -> None:
    """A race removed between the presence check's read and its news (a player's
    newer lobbies evict the oldest: seen under load in tests/faults/test_abuse.py)
    is dropped from the watch without an error, and the beat goes on."""
    assert app.services is not None and app.store is not None
    races = app.services.races
    race = (await player.call("race_create", game="crescent"))["race"]
    rid = race["race_id"]
    await player.next_event("race", status="lobby")
    assert rid in races._watched
    build = races.build
    calls = 0

    async def build_then_evict(race_id: str) -> dict[str, Any]:
        nonlocal calls
        calls += 1
        built = await build(race_id)
        if calls == 1:  # the check has read it; now it goes
            assert app.store is not None
            assert await app.store.drop_lobby_race(race_id)
        return built

    races.build = build_then_evict  # type: ignore[method-assign,assignment]
    races._shown.pop(rid, None)  # its news is due
    try:
        await races.check(rid)
    finally:
        races.build = build  # type: ignore[method-assign]
    assert calls == 2 and rid not in races._watched and rid not in races._shown


async def test_an_absent_member_is_away_then_given_up_by_the_clock(
    redis_url: str, clock: FakeClock
) -> None:
    """Presence by the injectable clock: a member who disconnects is shown away once
    ``race_away_after`` has passed, and their game is given up (``timed_out``) once
    ``race_absent_limit`` has, however long the machine takes. The test moves the clock
    and beats the presence itself (the server's own beat is an hour apart); the race
    goes on, and the member back later finds it over. (Across two instances, in real
    time: tests/races/test_presence.py.)"""
    async with running_app(redis_url, clock=clock, presence_interval=3600) as app:
        assert app.services is not None and app.store is not None
        races, store, settings = app.services.races, app.store, app.settings
        url = f"ws://127.0.0.1:{app.port}/ws"

        async def beat(rid: str) -> None:
            await store.redis.delete(store.keys.race_watch(rid))  # the last beat's lease: over
            await races.beat(app.hub.online, 1000)

        async def row_of(who: str | None, wanted: dict[str, Any]) -> tuple[Row, dict[str, Any]]:
            """The first race event whose row of ``who`` has the ``wanted`` fields."""
            while True:
                ev = await a.next_event("race")
                row = {p["player"]: p for p in ev["players"]}[who]
                if all(row[k] == v for k, v in wanted.items()):
                    return row, ev

        async with connect(url) as a:
            await a.register(unique_name("ann"))
            async with connect(url) as b:
                token = await b.register(unique_name("bob"))
                race = (await a.call("race_create", game="crescent", seed=6))["race"]
                rid = race["race_id"]
                await b.call("race_join", code=race["code"])
                await a.call("race_start", race_id=rid)
                mine = (await a.next_event("race_started"))["state"]
                theirs = (await b.next_event("race_started"))["state"]
                theirs = await b.move(theirs, theirs["legal"][0])
            await eventually(lambda: rid in races._watched, what="the race watched here")
            await eventually(lambda: not app.hub.online(str(b.player)), what="bob gone")
            await beat(rid)  # a beat in time: nobody away yet
            clock.advance(seconds=settings.race_away_after + 1)
            await beat(rid)
            row, ev = await row_of(b.player, {"away": True})
            assert row["status"] == "playing" and row["away_ms"] > settings.race_away_after * 1000
            assert not {p["player"]: p for p in ev["players"]}[a.player]["away"]  # beaten here
            clock.advance(seconds=settings.race_absent_limit)
            await beat(rid)
            row, ev = await row_of(b.player, {"status": "lost"})
            assert row["out"] == "timed_out" and row["moves"] == 1
            assert row["away_ms"] > settings.race_absent_limit * 1000
            assert ev["status"] == "running"  # a still plays
            await a.call("resign", game_id=mine["game_id"])
            done = await a.next_event("race", status="finished")
            rows = {p["player"]: p for p in done["players"]}
            assert rows[b.player]["out"] == "timed_out" and rows[a.player]["out"] == "resigned"
        # b, back later, finds the race over and their game lost
        async with connect(url) as back:
            await back.call("auth", token=token)
            again = await back.call("race_join", code=race["code"])
            assert again["race"]["status"] == "finished" and again["state"]["status"] == "lost"
            err = await back.error(
                "move", game_id=theirs["game_id"], seq=theirs["seq"], move=theirs["legal"][0]
            )
            assert err["code"] == "stale_seq" and err["state"]["status"] == "lost"
