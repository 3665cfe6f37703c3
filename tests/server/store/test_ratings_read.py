"""Reading many players' ratings at once (``RatingsStore.players_ratings``, a ``friends``
look and ``stats``): one HMGET a game, each player's row their own, in the games' order,
names read regardless of case, a player with no rating an empty row."""

from __future__ import annotations

import uuid

from server.store import Store


async def test_many_players_ratings_each_in_their_own_row(redis_url: str) -> None:
    store = Store(redis_url, prefix=f"rr{uuid.uuid4().hex[:8]}:")
    try:
        ratings = {
            "crescent": {"ann": "25.5|8.0|1", "cy": "20.0|5.0|9"},
            "klondike": {"bob": "24.5|8.0|5", "cy": "30.0|4.0|12"},
            "spider": {"ann": "26.0|7.0|2"},
        }
        for slug, rows in ratings.items():
            for name, value in rows.items():
                await store.redis.hset(store.keys.ratings(slug), name, value)
        players = ["Ann", "bob", "Dee", "CY"]
        got = await store.players_ratings(players, ["crescent", "klondike", "spider"])
        assert got == [
            {"crescent": "25.5|8.0|1", "spider": "26.0|7.0|2"},
            {"klondike": "24.5|8.0|5"},
            {},
            {"crescent": "20.0|5.0|9", "klondike": "30.0|4.0|12"},
        ]
        assert [list(r) for r in got] == [
            ["crescent", "spider"],
            ["klondike"],
            [],
            ["crescent", "klondike"],
        ]
        assert await store.players_ratings(["Ann"], ["spider", "crescent"]) == [
            {"spider": "26.0|7.0|2", "crescent": "25.5|8.0|1"}
        ]
        assert await store.players_ratings([], ["crescent"]) == []
        assert await store.players_ratings(["Ann", "bob"], []) == [{}, {}]
    finally:
        await store.close()
