"""The Store on a real Redis Cluster: every method once (each script and each pipeline
runs where its keys live; redis-py refuses keys of two slots in one script), and
race events published on any node reach the listener's node."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis
import redis.asyncio as aioredis
from redis.asyncio.cluster import RedisCluster

from deploy.local import LocalDeployment
from server.store import Store
from tests.support import GUARD, eventually

pytestmark = pytest.mark.cluster


@pytest.fixture
async def store(deployment: LocalDeployment) -> AsyncIterator[Store]:
    assert deployment.cluster is not None
    s = Store(deployment.cluster.spec, cluster=True, prefix=f"s{uuid.uuid4().hex[:8]}:")
    try:
        yield s
    finally:
        await s.close()


async def test_the_store_runs_on_a_cluster(store: Store) -> None:
    assert isinstance(store.redis, RedisCluster)
    assert store._pipe is None  # moves go through redis-py on a cluster
    assert await store.ping()
    assert len(store.redis.get_nodes()) == 3

    # players
    assert await store.create_player("Alice_c", "d" * 64, 1000, ["alice_c"]) == ""
    assert await store.create_player("alice_C", "e" * 64, 1001, ["alice_c"]) == "Alice_c"
    # a look-alike: refused, and the key it took first given back
    assert await store.create_player("Аlice_c", "e" * 64, 1001, ["x", "alice_c"]) == "Alice_c"
    assert await store.redis.get(store.keys.look_alike("x")) is None
    # a player with no look-alike key yet (registered before they were kept)
    await store.redis.hset(store.keys.player("Old_c"), mapping={"name": "Old_c", "token": "x"})
    names = [n async for batch in store.player_names() for n in batch]
    assert sorted(names) == ["Alice_c", "Old_c"]
    assert await store.claim_look_alikes({"alice_c": "Alice_c", "old_c": "Old_c"}) == 1
    assert not await store.look_alikes_backfilled()
    await store.mark_look_alikes_backfilled(1002)
    assert await store.look_alikes_backfilled()
    # limits per client address
    assert await store.count_address("2001:db8::/64", "register", 7, 60_000) == 1
    assert await store.count_address("2001:db8::/64", "register", 7, 60_000) == 2
    assert await store.address_count("2001:db8::/64", "register", 7) == 2
    assert await store.address_count("198.51.100.1", "register", 7) == 0
    assert await store.player_of_token("d" * 64) == "Alice_c"
    assert await store.player_of_token("e" * 64) is None
    assert (await store.player("alice_c"))["name"] == b"Alice_c"
    assert await store.count_streak("Alice_c", "2026-03-14", "2026-03-13") == 1
    assert await store.count_streak("Alice_c", "2026-03-15", "2026-03-14") == 2
    stat: list[bytes | str | int | float] = ["g1", "crescent", 1, 90, 60_000, 104, 1, 1]
    stat += ["2026-03-15", "2026-03-14", "2026-03-15"]
    assert await store.count_game("Alice_c", stat)
    assert not await store.count_game("alice_C", stat)  # once per game
    counted = await store.player_stats("Alice_c")
    assert counted["played:all"] == b"1" and counted["streak:crescent"] == b"1"
    assert await store.follow("Alice_c", "Bob_c", add=True)
    assert not await store.follow("alice_C", "Bob_c", add=True)
    assert await store.follows("Alice_c") == ["Bob_c"] and await store.follow_count("Alice_c") == 1
    assert await store.follow("Alice_c", "Bob_c", add=False)

    # games: create, compare-and-set moves, log, fields, listing
    gids = [f"g{i}{uuid.uuid4().hex[:6]}" for i in range(6)]  # spread over the nodes
    for i, gid in enumerate(gids):
        fields: dict[str, bytes | str | int] = {
            "slug": "crescent",
            "seq": 0,
            "state": b"s0",
            "created": 2000 + i,
        }
        assert await store.create_game(gid, fields, "Alice_c")
    assert not await store.create_game(gids[0], {"created": 1}, "Alice_c")
    for gid in gids:
        done = await store.cas_game(
            gid,
            seq=0,
            state=b"s1",
            entry=b"m1",
            status="playing",
            moves=1,
            foundation=9,
            now_ms=3000,
            finished=False,
            clean=True,
        )
        assert done == (1, 1)
    stale = await store.cas_game(
        gids[0],
        seq=0,
        state=b"x",
        entry=b"x",
        status="playing",
        moves=1,
        foundation=0,
        now_ms=3001,
        finished=False,
        clean=True,
    )
    assert stale == (0, 1)
    assert await store.game_log(gids[0]) == [b"m1"]
    await store.set_game_fields(gids[1], {"status": "lost"})
    rows = await store.games(gids, ["seq", "status"])
    assert rows[0] == [b"1", b"playing"] and rows[1] == [b"1", b"lost"]
    assert await store.player_game_ids("Alice_c", 0, 2) == gids[::-1][:2]
    missing = await store.game("nope")
    assert missing is None

    # dailies and leaderboards
    secret = await store.secret()
    assert len(secret) == 32 and await store.secret() == secret
    await store.put_daily("2026-03-14", {"seed:crescent": 7, "par:crescent": 90})
    await store.put_daily("2026-03-14", {"seed:crescent": 8})
    assert (await store.daily("2026-03-14"))["seed:crescent"] == b"7"
    assert await store.claim_daily("Alice_c", "2026-03-14", "crescent", gids[0]) == gids[0]
    assert await store.claim_daily("Alice_c", "2026-03-14", "crescent", gids[1]) == gids[0]
    assert await store.player_dailies("Alice_c", "2026-03-14") == {"crescent": gids[0]}
    assert await store.board_put("crescent", "2026-03-14", "Alice_c", "b|Alice_c", "first")
    assert await store.board_put("crescent", "2026-03-14", "Bob_c", "a|Bob_c", "first")
    assert not await store.board_put("crescent", "2026-03-14", "Alice_c", "0|Alice_c", "first")
    assert await store.board_put("crescent", "all", "Alice_c", "c|Alice_c", "best")
    assert await store.board_put("crescent", "all", "Alice_c", "a|Alice_c", "best")
    assert await store.board_page("crescent", "2026-03-14", 0, -1) == ["a|Bob_c", "b|Alice_c"]
    assert await store.board_size("crescent", "all") == 1
    assert await store.board_entry("crescent", "2026-03-14", "Alice_c") == (1, "b|Alice_c")
    assert await store.board_entry("crescent", "2026-03-14", "Carol_c") is None

    # races
    rid = f"r{uuid.uuid4().hex[:8]}"
    assert await store.create_race(rid, "ABC123", {"status": "lobby", "game": "crescent"})
    assert not await store.create_race("other", "abc123", {"status": "lobby"})
    assert await store.race_by_code("abc123") == rid
    assert await store.race_join(rid, "Alice_c", 2) == 1
    assert await store.race_join(rid, "Alice_c", 2) == 0
    assert await store.race_member(rid, "Bob_c", add=True)
    assert await store.race_join(rid, "Carol_c", 2) == -2
    assert await store.race_status(rid, "lobby", "running", {"starts_at": 5})
    assert not await store.race_status(rid, "lobby", "running", {})
    assert await store.race_join(rid, "Carol_c", 5) == -1
    await store.race_set_games(rid, {"Alice_c": gids[0], "Bob_c": gids[1]})
    assert await store.claim_race_dealer(rid, 5000)
    assert not await store.claim_race_dealer(rid, 5000)
    assert await store.race_place(rid, "Bob_c") == 1
    assert await store.race_place(rid, "Alice_c") == 2
    assert await store.race_place(rid, "Bob_c") == 1
    info, members, games, places = await store.race(rid)
    assert info["status"] == b"running" and members == ["Alice_c", "Bob_c"]
    assert games == {"Alice_c": gids[0], "Bob_c": gids[1]}
    assert places == {"Bob_c": 1, "Alice_c": 2}
    assert await store.race_member(rid, "Bob_c", add=False)

    # ratings (issue 51): one script on the game's slot, once a race
    moves = [
        ("alice_c", "", "25.5|8.0|1", "", "Alice_c"),
        ("bob_c", "", "24.5|8.0|5", "1400", "Bob_c"),
    ]
    assert await store.rate_race("crescent", rid, "{}", moves, 60_000) == (1, "{}")
    assert await store.rate_race("crescent", rid, "{...}", moves, 60_000) == (0, "{}")
    assert await store.rate_race("crescent", "r2", "{}", moves, 60_000) == (-1, "")  # moved
    assert await store.ratings("crescent", ["Alice_c", "Nobody"]) == ["25.5|8.0|1", ""]
    assert await store.players_ratings(["Bob_c"], ["crescent", "klondike"]) == [
        {"crescent": "24.5|8.0|5"}
    ]
    assert await store.rating_page("crescent", 0, -1) == [("Bob_c", 1400.0)]
    assert await store.rating_rank("crescent", "Bob_c") == 0
    assert await store.rating_outcome("crescent", rid) == "{}"


async def test_race_events_published_on_any_node_reach_the_listener(
    store: Store, deployment: LocalDeployment
) -> None:
    """The listener subscribes on one node; a PUBLISH on any node (the store's own,
    routed by the channel's slot, or each node directly) reaches it."""
    assert deployment.cluster is not None
    await store.ping()
    pubsub = store.pubsub().classic
    try:
        await pubsub.psubscribe(store.keys.race_channels())
        # Subscribed once the node has answered a PING sent after it (one connection
        # answers in order): a message published before then would be lost.
        await pubsub.ping(b"subscribed")

        async def answered() -> bool:
            msg = await pubsub.get_message(timeout=1.0)
            return msg is not None and msg["type"] == "pong" and msg["data"] == b"subscribed"

        await eventually(answered, every=0, what="the PING after PSUBSCRIBE answered")
        sent = [b"via-store"]
        await store.publish(store.keys.race_channel("r1"), sent[0])
        for port in deployment.cluster.ports:
            node = aioredis.Redis(host="127.0.0.1", port=port)
            try:
                data = f"via-{port}".encode()
                await node.publish(store.keys.race_channel("r2"), data)
                sent.append(data)
            finally:
                await node.aclose()
        got: list[bytes] = []
        async with asyncio.timeout(GUARD):
            while len(got) < len(sent):
                msg = await pubsub.get_message(timeout=1.0)
                if msg is not None and msg["type"] == "pmessage":
                    got.append(msg["data"])
        assert sorted(got) == sorted(sent)
    finally:
        await pubsub.aclose()


async def test_the_listener_moves_to_another_node_on_each_reconnect(store: Store) -> None:
    await store.ping()
    seen: set[int] = set()
    for _ in range(3):
        pubsub = store.pubsub().classic
        try:
            await pubsub.psubscribe(store.keys.race_channels())
            conn = pubsub.connection
            assert conn is not None
            seen.add(conn.port)
        finally:
            await pubsub.aclose()
    assert len(seen) == 3


def _cmd(client: redis.Redis, *args: str | int) -> Any:
    return client.execute_command(*args)  # type: ignore[no-untyped-call]


async def _move_game(store: Store, seq: int) -> tuple[int, int]:
    return await store.cas_game(
        "gmig",
        seq=seq,
        state=f"s{seq + 1}".encode(),
        entry=f"m{seq + 1}".encode(),
        status="playing",
        moves=seq + 1,
        foundation=0,
        now_ms=1,
        finished=False,
        clean=True,
    )


async def test_moves_follow_a_slot_that_migrates(store: Store, deployment: LocalDeployment) -> None:
    """Moves go on a pipelined connection to the node redis-py's slot map names; while
    the game's slot migrates (``ASK``) and once it has moved (``MOVED``) that node
    refuses the script, and redis-py's own call follows the redirection."""
    cluster = deployment.cluster
    assert cluster is not None
    # A game alone in its slot (keys of other tests are not carried along).
    gid_keys = [store.keys.game("gmig"), store.keys.game_log("gmig")]
    assert await store.create_game("gmig", {"seq": 0, "created": 1}, "Mig")
    assert await _move_game(store, 0) == (1, 1)
    assert store._nodes is not None and store._nodes._pipes  # the pipelined path
    source = cluster.client(cluster.ports[cluster.primary_of(gid_keys[0])])
    target_index = next(
        i
        for i in range(cluster.masters)
        if cluster.ports[i] != source.connection_pool.connection_kwargs["port"]
    )
    target = cluster.client(cluster.ports[target_index])
    slot = int(_cmd(source, "CLUSTER", "KEYSLOT", gid_keys[0]))
    assert int(_cmd(source, "CLUSTER", "COUNTKEYSINSLOT", slot)) == len(gid_keys)
    source_id = _cmd(source, "CLUSTER", "MYID")
    target_id = _cmd(target, "CLUSTER", "MYID")
    port = cluster.ports[target_index]
    try:
        # Migrating: the keys are on the target already, the source answers ASK.
        _cmd(target, "CLUSTER", "SETSLOT", slot, "IMPORTING", source_id)
        _cmd(source, "CLUSTER", "SETSLOT", slot, "MIGRATING", target_id)
        _cmd(source, "MIGRATE", "127.0.0.1", port, "", 0, 5000, "KEYS", *gid_keys)
        assert await _move_game(store, 1) == (1, 2)
        assert _cmd(target, "ASKING") and target.hget(gid_keys[0], "seq") == "2"
        # Moved: every primary says the slot is the target's; the source answers MOVED.
        for i in range(cluster.masters):
            node = cluster.client(cluster.ports[i])
            _cmd(node, "CLUSTER", "SETSLOT", slot, "NODE", target_id)
            node.close()
        assert await _move_game(store, 2) == (1, 3)
        assert await _move_game(store, 3) == (1, 4)  # the map was refreshed
        assert target.hget(gid_keys[0], "seq") == "4"
        assert [bytes(x) for x in await store.game_log("gmig")] == [b"m1", b"m2", b"m3", b"m4"]
        # A stale seq is still refused, whichever node answers.
        assert await _move_game(store, 1) == (0, 4)
    finally:
        # Back where it was, for the other tests of the package.
        with contextlib.suppress(redis.RedisError):
            _cmd(source, "CLUSTER", "SETSLOT", slot, "IMPORTING", target_id)
            _cmd(target, "CLUSTER", "SETSLOT", slot, "MIGRATING", source_id)
            _cmd(
                target,
                "MIGRATE",
                "127.0.0.1",
                source.connection_pool.connection_kwargs["port"],
                "",
                0,
                5000,
                "KEYS",
                *gid_keys,
            )
            for i in range(cluster.masters):
                node = cluster.client(cluster.ports[i])
                _cmd(node, "CLUSTER", "SETSLOT", slot, "NODE", source_id)
                node.close()
        source.close()
        target.close()
