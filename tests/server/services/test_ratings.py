"""Ratings from races (issue 51) over a real server: a finished race on a fresh deal
moves each member's rating at the game as openskill's Plackett–Luce says, from the
race's final order; and the fair-play rules of docs/protocol.md ("Fair play"), one
test each: accounts of one client address do not move each other's ratings, a member
who leaves is placed last, a solo race and a race on a chosen seed count for nothing,
and a race is rated once whichever instances see it end.

The clients come through a "load balancer" on loopback (``trusted_proxies``), which
forwards each one's address (``X-Forwarded-For``), as in test_limits.py."""

from __future__ import annotations

import uuid
from typing import Any

from openskill.models import PlackettLuce

from server.net import App
from server.services import FakeClock
from server.services.ratings import PROVISIONAL_RACES
from tests.support import TestClient, connect, eventually, running_app
from tests.support.fixtures import unique_name

#: clients at the addresses a load balancer says; races dealt 20 ms after their start
#: (the test servers' 0.2 s, eleven races: two seconds of waiting, issue 45)
BALANCED: dict[str, Any] = {"trusted_proxies": "127.0.0.1", "race_countdown": 0.02}
#: a deal of crescent with a card to found at once (the race's fresh deal is swapped
#: for it before the start, so that one member can found more cards than another)
SEED = 5
MODEL = PlackettLuce()
Row = dict[str, Any]


def at(address: str) -> dict[str, Any]:
    """A client whose load balancer says it comes from ``address``."""
    return {"additional_headers": {"X-Forwarded-For": address}}


def who(c: TestClient) -> str:
    assert c.player is not None
    return c.player


def value(mu: float, sigma: float) -> int:
    return round(1500 + 40 * (mu - 3 * sigma))


def library(ranks: list[float], who: int = 0) -> tuple[int, int]:
    """What openskill makes of new players finishing in ``ranks``: the displayed value
    of member ``who`` after the race, and its change."""
    teams = [[MODEL.rating()] for _ in ranks]
    new = MODEL.rate(teams, ranks=ranks)[who][0]
    return value(new.mu, new.sigma), value(new.mu, new.sigma) - value(MODEL.mu, MODEL.sigma)


async def race(
    app: App,
    clients: list[TestClient],
    *,
    found: tuple[TestClient, ...] = (),
    leave: tuple[TestClient, ...] = (),
    seed: int | None = None,
) -> tuple[str, dict[str, Row]]:
    """A race of ``clients`` (the first makes it): those in ``found`` found a card, the
    others none; everyone resigns but those in ``leave``, who stay away (the caller
    makes them leave). The race's id and its finished rows by player (none with ``leave``)."""
    assert app.store is not None
    host = clients[0]
    made = await host.call("race_create", game="crescent", **({"seed": seed} if seed else {}))
    rid = made["race"]["race_id"]
    if seed is None:
        await app.store.race_set_field(rid, "seed", SEED)
    for c in clients[1:]:
        await c.call("race_join", code=made["race"]["code"])
    await host.call("race_start", race_id=rid)
    states = {who(c): (await c.next_event("race_started"))["state"] for c in clients}
    for c in found:
        state = states[who(c)]
        move = next(m for m in state["legal"] if m["to"].startswith("F"))
        states[who(c)] = await c.move(state, move)
    for c in clients:
        if c not in leave:
            await c.call("resign", game_id=states[who(c)]["game_id"])
    if leave:
        return rid, {}
    done = await host.next_event("race", status="finished", race_id=rid)
    return rid, {p["player"]: p for p in done["players"]}


async def stats_rating(c: TestClient, who: str) -> Row | None:
    rated: dict[str, Row] = (await c.call("stats", player=who))["ratings"]
    return rated.get("crescent")


async def test_a_race_moves_ratings_as_the_library_says(redis_url: str) -> None:
    """Ann founds a card, Bob none: Ann first, Bob second; each rating moves as
    openskill says, shown in the race's rows, in stats and in friends; both are
    provisional ("?") until PROVISIONAL_RACES races, and then on the rating board."""
    async with running_app(redis_url, **BALANCED) as app:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with (
            connect(url, **at("198.51.100.1")) as a,
            connect(url, **at("198.51.100.2")) as b,
        ):
            await a.register(unique_name("ann"))
            await b.register(unique_name("bob"))
            _, rows = await race(app, [a, b], found=(a,))
            ann, bob = rows[who(a)], rows[who(b)]
            assert ann["foundation"] > bob["foundation"]
            assert (ann["rating"]["value"], ann["rating_change"]) == library([1, 2], 0)
            assert (bob["rating"]["value"], bob["rating_change"]) == library([1, 2], 1)
            assert ann["rating_change"] > 0 > bob["rating_change"]
            assert ann["rating"]["races"] == 1 and ann["rating"]["provisional"]
            assert await stats_rating(b, who(a)) == ann["rating"]
            await b.call("friend_add", name=who(a))
            friend = (await b.call("friends"))["friends"][0]
            assert friend["player"] == who(a) and friend["ratings"]["crescent"] == ann["rating"]
            board = await a.call("leaderboard", game="crescent", board="rating")
            assert board["board"] == "rating" and board["entries"] == [] and board["me"] is None
            for _ in range(PROVISIONAL_RACES - 1):
                _, rows = await race(app, [a, b], found=(a,))
            assert rows[who(a)]["rating"]["races"] == PROVISIONAL_RACES
            assert not rows[who(a)]["rating"]["provisional"]
            board = await a.call("leaderboard", game="crescent", board="rating")
            top = [(e["rank"], e["player"]) for e in board["entries"]]
            assert top == [(1, who(a)), (2, who(b))] and board["total"] == 2
            assert board["me"]["rating"] == rows[who(a)]["rating"]
            assert [e["rating"] for e in board["entries"]] == [
                rows[who(a)]["rating"],
                rows[who(b)]["rating"],
            ]
            among = await b.call("leaderboard", game="crescent", board="rating", friends=True)
            assert among["friends"] and among["total"] == 2
            assert [e["player"] for e in among["entries"]] == [who(a), who(b)]
            assert among["me"] == {"rank": 2, "player": who(b), "rating": rows[who(b)]["rating"]}


async def test_accounts_of_one_address_do_not_move_each_other(redis_url: str) -> None:
    """Ann and Bea join from one address, Cid from another: Ann's rating moves against
    Cid's only, Bea's against Cid's only, Cid's against both; a race of Ann and Bea
    alone moves nothing."""
    async with running_app(redis_url, **BALANCED) as app:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with (
            connect(url, **at("198.51.100.10")) as a,
            connect(url, **at("198.51.100.10")) as b,
            connect(url, **at("198.51.100.11")) as c,
        ):
            for client, name in ((a, "ann"), (b, "bea"), (c, "cid")):
                await client.register(unique_name(name))
            _, rows = await race(app, [a, b, c], found=(a,))
            assert rows[who(a)]["rating_change"] == library([1, 2], 0)[1]  # against Cid
            assert rows[who(b)]["rating_change"] == library([2, 2], 0)[1]  # tied with Cid
            assert rows[who(c)]["rating_change"] == library([2, 1, 2], 0)[1]  # both
            before = {p: rows[p]["rating"] for p in (who(a), who(b))}
            _, rows = await race(app, [a, b], found=(a,))
            for p in (who(a), who(b)):
                assert rows[p]["rating_change"] is None and rows[p]["rating"] == before[p]
                assert await stats_rating(c, p) == before[p]


async def test_a_member_who_leaves_is_placed_last(redis_url: str, clock: FakeClock) -> None:
    """Bob founds a card and then leaves: his game is given up when he has been away
    too long (``timed_out``), and he loses to Ann and Cid, who founded none."""
    async with running_app(redis_url, clock=clock, presence_interval=3600, **BALANCED) as app:
        assert app.services is not None and app.store is not None
        races, store, settings = app.services.races, app.store, app.settings
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with (
            connect(url, **at("198.51.100.20")) as a,
            connect(url, **at("198.51.100.22")) as c,
        ):
            await a.register(unique_name("ann"))
            await c.register(unique_name("cid"))
            async with connect(url, **at("198.51.100.21")) as b:
                await b.register(unique_name("bob"))
                rid, _ = await race(app, [a, b, c], found=(b,), leave=(b,))
            await eventually(lambda: rid in races._watched, what="the race watched here")
            await eventually(lambda: not app.hub.online(str(who(b))), what="bob gone")
            for _ in range(2):
                clock.advance(seconds=settings.race_absent_limit + settings.race_away_after + 1)
                await store.redis.delete(store.keys.race_watch(rid))
                await races.beat(app.hub.online, 1000)
            done = await a.next_event("race", status="finished", race_id=rid)
            rows = {p["player"]: p for p in done["players"]}
            assert rows[who(b)]["out"] == "timed_out"
            assert rows[who(b)]["foundation"] > rows[who(a)]["foundation"]
            assert rows[who(b)]["rating_change"] == library([2, 1, 1], 0)[1] < 0
            assert rows[who(a)]["rating_change"] == library([1, 2, 1], 0)[1] > 0


async def test_a_member_dropped_by_the_creator_is_placed_last(
    redis_url: str, clock: FakeClock
) -> None:
    """Bob founds a card and goes away; Ann, who made the race, drops him
    (``race_drop``): he loses to Ann and Cid, who founded none."""
    async with running_app(redis_url, clock=clock, presence_interval=3600, **BALANCED) as app:
        assert app.services is not None and app.store is not None
        races, store, settings = app.services.races, app.store, app.settings
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with (
            connect(url, **at("198.51.100.26")) as a,
            connect(url, **at("198.51.100.28")) as c,
        ):
            await a.register(unique_name("ann"))
            await c.register(unique_name("cid"))
            async with connect(url, **at("198.51.100.27")) as b:
                await b.register(unique_name("bob"))
                rid, _ = await race(app, [a, b, c], found=(b,), leave=(b,))
            await eventually(lambda: rid in races._watched, what="the race watched here")
            await eventually(lambda: not app.hub.online(who(b)), what="bob gone")
            clock.advance(seconds=settings.race_away_after + 1)
            await store.redis.delete(store.keys.race_watch(rid))
            await races.beat(app.hub.online, 1000)
            await a.call("race_drop", race_id=rid, player=who(b))
            done = await a.next_event("race", status="finished", race_id=rid)
            rows = {p["player"]: p for p in done["players"]}
            assert rows[who(b)]["out"] == "dropped"
            assert rows[who(b)]["foundation"] > rows[who(c)]["foundation"]
            assert rows[who(b)]["rating_change"] == library([2, 1, 1], 0)[1] < 0
            assert rows[who(c)]["rating_change"] == library([1, 2, 1], 0)[1] > 0


async def test_a_member_who_leaves_the_race_under_way_is_placed_last(redis_url: str) -> None:
    """Bob founds a card and leaves the running race (``race_leave``): no longer in
    its rows, he is rated all the same, below Ann and Cid, who founded none and
    resigned; the race ends as he leaves."""
    async with running_app(redis_url, **BALANCED) as app:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with (
            connect(url, **at("198.51.100.23")) as a,
            connect(url, **at("198.51.100.24")) as b,
            connect(url, **at("198.51.100.25")) as c,
        ):
            for client, name in ((a, "ann"), (b, "bob"), (c, "cid")):
                await client.register(unique_name(name))
            rid, _ = await race(app, [a, b, c], found=(b,), leave=(b,))
            assert await b.call("race_leave", race_id=rid) == {}
            done = await a.next_event("race", status="finished", race_id=rid)
            rows = {p["player"]: p for p in done["players"]}
            assert who(b) not in rows
            assert rows[who(a)]["rating_change"] == library([1, 2, 1], 0)[1] > 0
            bob = await stats_rating(a, who(b))
            assert bob is not None and bob["races"] == 1
            assert bob["value"] == library([2, 1, 1], 0)[0] < 1500


async def test_a_solo_race_a_chosen_deal_and_a_daily_count_for_nothing(redis_url: str) -> None:
    """Alone in a race, nobody is beaten: no rating moves (the row shows the rating as
    it is); on a chosen seed, or today's daily deal, which others could have played
    before, no rating at all."""
    async with running_app(redis_url, **BALANCED) as app:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with (
            connect(url, **at("198.51.100.30")) as a,
            connect(url, **at("198.51.100.31")) as b,
        ):
            await a.register(unique_name("ann"))
            await b.register(unique_name("bob"))
            _, rows = await race(app, [a], found=(a,))
            assert rows[who(a)]["rating_change"] is None
            assert rows[who(a)]["rating"] == {
                "value": 1500,
                "uncertainty": 333,
                "races": 0,
                "provisional": True,
            }
            assert await stats_rating(b, who(a)) is None
            _, rows = await race(app, [a, b], found=(a,), seed=SEED)
            assert all(r["rating"] is None and r["rating_change"] is None for r in rows.values())
            assert await stats_rating(b, who(a)) is None
            # today's daily deal: others may have played it already today
            made = (await a.call("race_create", game="short", daily=True))["race"]
            await b.call("race_join", code=made["code"])
            await a.call("race_start", race_id=made["race_id"])
            for c in (a, b):
                state = (await c.next_event("race_started"))["state"]
                await c.call("resign", game_id=state["game_id"])
            done = await a.next_event("race", status="finished", race_id=made["race_id"])
            assert all(p["rating"] is None for p in done["players"])
            assert (await b.call("stats", player=who(a)))["ratings"] == {}


async def test_a_race_is_rated_once_across_instances(redis_url: str) -> None:
    """Ann on one instance, Bob on another, sharing Redis: both instances see the race
    end and build its result; each rating moved once, and both tell the same change.
    Rating the race again (as an instance that saw it end late would) changes nothing."""
    shared: dict[str, Any] = {**BALANCED, "key_prefix": f"t{uuid.uuid4().hex[:10]}:"}
    async with running_app(redis_url, **shared) as one, running_app(redis_url, **shared) as two:
        assert two.services is not None and two.store is not None
        async with (
            connect(f"ws://127.0.0.1:{one.port}/ws", **at("198.51.100.40")) as a,
            connect(f"ws://127.0.0.1:{two.port}/ws", **at("198.51.100.41")) as b,
        ):
            await a.register(unique_name("ann"))
            await b.register(unique_name("bob"))
            _, rows = await race(one, [a, b], found=(a,))
            theirs = await b.next_event("race", status="finished")
            assert {p["player"]: p["rating"] for p in theirs["players"]} == {
                p: r["rating"] for p, r in rows.items()
            }
            assert rows[who(a)]["rating"]["races"] == 1
            assert two.services.ratings is not None
            again = await two.services.ratings.rate(
                "crescent", theirs["race_id"], theirs["players"], {}
            )
            assert again[who(a)]["rating"] == rows[who(a)]["rating"]
            assert (await stats_rating(b, who(a)) or {})["races"] == 1


async def test_a_ban_takes_a_rating_off_its_board_and_a_rename_carries_it(
    app: App, player: TestClient
) -> None:
    """Issue 49 with issue 51: a banned player leaves the rating boards too (their
    rating kept, and their places back on unban); a renamed one keeps ratings and
    places under the new name."""
    assert app.services is not None
    store, moderation = app.services.store, app.services.moderation
    name = who(player)
    rated = {"crescent": 1620.0, "parade": 1555.0}
    for slug, score in rated.items():
        await store.redis.hset(store.keys.ratings(slug), name.casefold(), "26.0|3.1|7")
        await store.redis.zadd(store.keys.rating_board(slug), {name: score})
    assert await store.rating_places(name, ["crescent", "parade", "short"]) == rated
    await moderation.ban(name, "cheating", "test")
    assert await store.rating_places(name, list(rated)) == {}
    assert await store.ratings("crescent", [name]) == ["26.0|3.1|7"]  # kept
    await moderation.unban(name, "test")
    assert await store.rating_places(name, list(rated)) == rated
    new = unique_name("renamed")
    await moderation.rename(name, new, "test")
    assert await store.rating_places(new, list(rated)) == rated
    assert await store.rating_places(name, list(rated)) == {}
    assert await store.ratings("parade", [new, name]) == ["26.0|3.1|7", ""]
