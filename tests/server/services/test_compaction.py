"""Finished games kept compact (issue 50): a packed game reads back the same in every
way a player sees it (its replay at every step, its last board, its history line, its
statistics, the boards, the export), a practice game summarised past its retention
still shows in history and statistics, and two instances compacting at once do it
once. Real Redis, a real server (``server/services/compaction.py``)."""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from protocol import Mode
from server.net import App
from server.patience import registry
from server.services import FakeClock, Services
from server.services.records import effective_moves
from server.services.replay import Replays
from server.store import Store
from tests.support import TestClient, running_app
from tests.support.redis import RedisProcess

TODAY = "2026-03-14"


async def raw_game(store: Store, gid: str) -> tuple[dict[Any, Any], int, Any, bool]:
    """The game's hash as Redis holds it, whether its log list exists, its hash's
    encoding, whether its packed string exists."""
    r = store.redis
    fields = await r.hgetall(store.keys.game(gid))
    log = await r.exists(store.keys.game_log(gid))
    encoding = await r.object("encoding", store.keys.game(gid))
    blob = await r.exists(store.keys.game_packed(gid))
    return fields, log, encoding, bool(blob)


async def replay_steps(services: Services, player: str, gid: str) -> list[dict[str, Any]]:
    """The game's replay, read afresh (no cached line or position), at every step."""
    services.games.cache.clear()
    replays = Replays(services.games)
    head = await replays.replay(player, game_id=gid)
    n = len(head["replay"]["line"])
    steps = [head]
    for k in range(n + 1):
        steps.append(await replays.replay(player, game_id=gid, step=k))
    return steps


async def played_and_packed(url: str, slug: str, seed: int, picks: list[int]) -> None:
    store = Store(url, prefix=f"cp{uuid.uuid4().hex[:8]}:")
    services = Services.build(store, FakeClock(f"{TODAY}T12:00:00"))
    assert services.compaction is not None
    services.compaction.at_finish = False
    games = services.games
    try:
        await services.accounts.register("packer")
        state = await games.start("packer", slug, Mode.DEAL, seed)
        gid = state["game_id"]
        in_force = 0
        for i, pick in enumerate(picks):
            rec = games.cache[gid]
            if rec.status != "playing":
                break
            if pick % 7 == 0 and in_force:  # now and then an undo
                await games.undo("packer", gid, rec.seq)
                in_force -= 1
                continue
            legal = rec.game.legal_moves(rec.state)
            if not legal:
                break
            wire = legal[pick % len(legal)].to_wire()
            await games.move("packer", gid, rec.seq, wire)
            in_force += 1
            games.clock.advance(seconds=1 + i % 5)  # type: ignore[attr-defined]
        if games.cache[gid].status == "playing":
            await games.resign("packer", gid)
        fields = await store.game(gid)
        assert fields is not None
        log = await store.game_log(gid)
        steps = await replay_steps(services, "packer", gid)
        listed = await games.my_games("packer", 10, None)
        stats = await services.stats.stats("packer", None)

        assert await services.compaction.compact(gid) == 1
        held, log_list, encoding, blob = await raw_game(store, gid)
        assert b"state" not in held and held[b"packed"] == b"1" and blob
        assert not log_list and encoding in (b"ziplist", b"listpack")

        assert await store.game(gid) == fields | {"packed": b"1"}
        assert await store.game_log(gid) == log
        assert await replay_steps(services, "packer", gid) == steps
        assert await games.my_games("packer", 10, None) == listed
        assert await services.stats.stats("packer", None) == stats
        # and the positions are the rules' own: the seed plus the moves in force
        game = registry.get(slug)
        position = game.deal(seed)
        line = effective_moves(log)
        assert steps[1]["position"]["view"] == game.view(position)
        for k, wire in enumerate(line, start=2):
            position = game.apply(position, game.parse_move(wire))
            assert steps[k]["position"]["view"] == game.view(position)
        assert game.dumps(position) == fields["state"]
    finally:
        await store.close()


@settings(
    max_examples=24,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    slug=st.sampled_from(registry.slugs()),
    seed=st.integers(0, 2**64 - 1),
    picks=st.lists(st.integers(0, 10**6), max_size=40),
)
def test_a_packed_game_replays_to_the_same_positions_at_every_step(
    redis_server: RedisProcess, slug: str, seed: int, picks: list[int]
) -> None:
    asyncio.run(played_and_packed(redis_server.url, slug, seed, picks))


async def seen(app: App, client: TestClient, gids: list[str], slug: str) -> dict[str, Any]:
    """Everything the player is shown of their games, read afresh."""
    assert app.services is not None
    app.services.games.cache.clear()
    out: dict[str, Any] = {
        "games": await client.call("my_games"),
        "stats": await client.call("stats"),
        "board": await client.call("leaderboard", game=slug),
        "all": await client.call("leaderboard", game=slug, board="alltime"),
        "daily": await client.call("daily"),
        "export": await client.call("account_export"),
    }
    for gid in gids:
        out[gid] = await client.call("resume", game_id=gid)
        out[f"{gid}:replay"] = await client.call("replay", game_id=gid)
        out[f"{gid}:end"] = await client.call(
            "replay", game_id=gid, step=len(out[f"{gid}:replay"]["replay"]["line"])
        )
    return out


async def play(client: TestClient, state: dict[str, Any], moves: int) -> dict[str, Any]:
    for _ in range(moves):
        if state["status"] != "playing" or not state["legal"]:
            break
        state = await client.move(state, state["legal"][0])
    if state["status"] == "playing":
        state = (await client.call("resign", game_id=state["game_id"]))["state"]
    return state


async def test_history_statistics_and_boards_are_unchanged_by_packing(
    app: App, player: TestClient
) -> None:
    assert app.services is not None and app.services.compaction is not None
    app.services.compaction.at_finish = False
    slug = "crescent"
    daily = await play(player, await player.start(slug, "daily"), 12)
    practice = await play(player, await player.start(slug, "practice"), 8)
    deal = await play(player, await player.start("short", "deal", seed=5), 20)
    gids = [daily["game_id"], practice["game_id"], deal["game_id"]]
    before = await seen(app, player, gids, slug)
    assert before["board"]["entries"], "the ranked daily is on the day's board"
    for gid in gids:
        assert await app.services.compaction.compact(gid) == 1
        assert await app.services.compaction.compact(gid) == 0  # once
    assert await seen(app, player, gids, slug) == before


async def test_a_game_is_packed_as_it_ends(app: App, player: TestClient) -> None:
    assert app.store is not None
    state = await player.start("crescent", "practice")
    held, log_list, _, _ = await raw_game(app.store, state["game_id"])
    assert b"state" in held  # in play: whole
    state = await play(player, state, 5)
    held, log_list, encoding, blob = await raw_game(app.store, state["game_id"])
    assert b"state" not in held and not log_list and blob
    assert encoding in (b"ziplist", b"listpack")
    # the end board is there, as it was sent
    assert (await player.call("resume", game_id=state["game_id"]))["state"] == state


async def test_a_summarised_practice_game_still_shows_in_history_and_statistics(
    app: App, player: TestClient, clock: FakeClock
) -> None:
    assert app.services is not None and app.services.compaction is not None
    assert app.store is not None
    compaction = app.services.compaction
    old = await play(player, await player.start("crescent", "practice"), 9)
    deal = await play(player, await player.start("crescent", "deal", seed=4), 3)
    clock.advance(days=20)
    young = await play(player, await player.start("short", "practice"), 6)
    clock.advance(days=11)  # the first two ended 31 days ago, the last 11
    games, stats = await player.call("my_games"), await player.call("stats")
    assert await compaction.sweep() == 1
    assert await compaction.sweep() == 0
    assert await player.call("my_games") == games
    assert await player.call("stats") == stats
    err = await player.error("resume", game_id=old["game_id"])
    assert err["code"] == "not_found" and err["key"] == "error.game_summarised"
    err = await player.error("replay", game_id=old["game_id"])
    assert err["key"] == "error.game_summarised"
    held, log_list, _, blob = await raw_game(app.store, old["game_id"])
    assert held[b"summary"] == b"1" and b"state" not in held and not log_list and not blob
    # a deal game and a younger practice game are kept whole
    for kept in (deal, young):
        assert (await player.call("resume", game_id=kept["game_id"]))["state"] == kept
    exported = (await player.call("account_export"))["account"]["games"]
    mine = {g["game_id"]: g for g in exported}
    assert mine[old["game_id"]]["moves"] == old["moves"]
    assert mine[old["game_id"]]["status"] == old["status"]


async def test_two_instances_compacting_at_once_do_it_once(
    app: App, player: TestClient, clock: FakeClock, redis_url: str
) -> None:
    assert app.services is not None and app.services.compaction is not None
    one = app.services.compaction
    one.at_finish = False
    ended = [
        await play(player, await player.start("crescent", "practice"), 4 + i) for i in range(6)
    ]
    gids = [s["game_id"] for s in ended]
    async with running_app(redis_url, clock=clock, key_prefix=app.settings.key_prefix) as other:
        assert other.services is not None and other.services.compaction is not None
        two = other.services.compaction
        for gid in gids:
            done = await asyncio.gather(one.compact(gid), two.compact(gid))
            assert sorted(done) == [0, 1]
        clock.advance(days=31)
        counts = await asyncio.gather(one.sweep(), two.sweep(), one.sweep())
        assert sum(counts) == len(gids)
        assert app.store is not None
        assert await app.store.redis.zcard(app.store.keys.practice_done()) == 0
        for gid in gids:
            err = await player.error("resume", game_id=gid)
            assert err["key"] == "error.game_summarised"
    listed = (await player.call("my_games"))["games"]
    assert {g["game_id"] for g in listed} == set(gids)


async def test_a_game_in_play_is_never_packed(app: App, player: TestClient) -> None:
    assert app.services is not None and app.services.compaction is not None
    state = await player.start("crescent", "practice")
    state = await player.move(state, state["legal"][0])
    assert await app.services.compaction.compact(state["game_id"]) == -2
    state = await player.move(state, state["legal"][0])  # and it plays on
    assert state["seq"] == 2
