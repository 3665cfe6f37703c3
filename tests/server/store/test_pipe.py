"""The pipelined script connection that carries every move (``server.store.pipe``):
concurrent compare-and-sets still let exactly one writer win, a Redis that forgot its
scripts or dropped the connection is handled, and nothing is retried blindly."""

from __future__ import annotations

import asyncio
import uuid

import pytest
import redis.exceptions

from server.store import Store


def _store(url: str) -> Store:
    return Store(url, prefix=f"pipe{uuid.uuid4().hex[:8]}:")


async def _game(store: Store, gid: str) -> None:
    fields: dict[str, bytes | str | int] = {
        "slug": "crescent",
        "seq": 0,
        "state": b"s0",
        "created": 1,
        "player": "p",
    }
    assert await store.create_game(gid, fields, "p")


async def _cas(store: Store, gid: str, seq: int, state: bytes = b"s") -> tuple[int, int]:
    return await store.cas_game(
        gid,
        seq=seq,
        state=state,
        entry=b"m",
        status="playing",
        moves=seq + 1,
        foundation=0,
        now_ms=2,
        finished=False,
        clean=True,
    )


async def test_moves_use_the_pipe_and_racing_writers_get_one_win(redis_url: str) -> None:
    store = _store(redis_url)
    try:
        assert store._pipe is not None
        await _game(store, "g1")
        results = await asyncio.gather(*(_cas(store, "g1", 0, b"w%d" % i) for i in range(20)))
        assert sorted(results) == [(0, 1)] * 19 + [(1, 1)]
        raw = await store.game("g1")
        assert raw is not None and raw["seq"] == b"1"
        assert await store.game_log("g1") == [b"m"]
        # In order on one connection: seq 1, 2, 3 … each sees the previous write.
        assert [await _cas(store, "g1", s) for s in (1, 2, 3)] == [(1, 2), (1, 3), (1, 4)]
        assert await _cas(store, "missing", 0) == (-1, 0)
    finally:
        await store.close()


async def test_a_flushed_script_cache_is_reloaded(redis_url: str) -> None:
    store = _store(redis_url)
    try:
        await _game(store, "g2")
        assert await _cas(store, "g2", 0) == (1, 1)
        await store.redis.script_flush()
        assert await _cas(store, "g2", 1) == (1, 2)
        assert await store.game_log("g2") == [b"m", b"m"]
    finally:
        await store.close()


async def test_a_dropped_connection_reconnects_on_the_next_move(redis_url: str) -> None:
    store = _store(redis_url)
    try:
        await _game(store, "g3")
        assert await _cas(store, "g3", 0) == (1, 1)
        killed = await store.redis.client_kill_filter(_type="normal", skipme=True)
        assert killed >= 1
        # The move after the drop either fails loudly or (once reconnected) lands;
        # it is never silently retried, so at most one write happens.
        try:
            first = await _cas(store, "g3", 1)
        except redis.exceptions.ConnectionError:
            first = await _cas(store, "g3", 1)
        assert first == (1, 2)
        assert await _cas(store, "g3", 2) == (1, 3)
    finally:
        await store.close()


async def test_a_closed_store_refuses_moves(redis_url: str) -> None:
    store = _store(redis_url)
    await _game(store, "g4")
    await store.close()
    with pytest.raises(redis.exceptions.ConnectionError):
        await _cas(store, "g4", 0)


@pytest.mark.parametrize(
    ("reply", "error"),
    [
        ("LOADING Redis is loading the dataset in memory", redis.exceptions.BusyLoadingError),
        ("READONLY You can't write against a read only replica.", redis.exceptions.ReadOnlyError),
        ("MASTERDOWN Link with MASTER is down", redis.exceptions.MasterDownError),
        ("TRYAGAIN Multiple keys request during rehashing", redis.exceptions.TryAgainError),
    ],
)
def test_an_outage_reply_is_an_outage_not_a_bug(
    reply: str, error: type[redis.exceptions.RedisError]
) -> None:
    """A Redis restarted a moment ago answers LOADING while it reads its AOF: the move
    is answered 'unavailable' (an OUTAGE), not 'internal' (seen when the embedded Redis
    was SIGKILLed under load)."""
    import hiredis

    from server.store.errors import OUTAGE
    from server.store.pipe import ScriptPipe

    with pytest.raises(error) as raised:
        ScriptPipe._check(hiredis.ReplyError(reply))
    assert isinstance(raised.value, OUTAGE)
    with pytest.raises(redis.exceptions.ResponseError) as other:
        ScriptPipe._check(hiredis.ReplyError("ERR wrong number of arguments"))
    assert not isinstance(other.value, OUTAGE)
