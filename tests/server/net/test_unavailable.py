"""A storage outage is a distinct, retryable error: ``unavailable`` with a
``retry_after`` (not ``internal``), and the terminal client's connection sends such a
request again by itself, with backoff, until the storage is back."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from client.connection import UNAVAILABLE_MAX_PAUSE, Connection, ServerError, backoff
from protocol.messages import Mode
from tests.support import GUARD, RedisProcess, connect, eventually, running_app


def test_backoff_grows_from_the_servers_pause_up_to_the_cap() -> None:
    pauses = [backoff(n, 0.5, cap=UNAVAILABLE_MAX_PAUSE) for n in range(6)]
    assert pauses == [0.5, 1.0, 2.0, 4.0, 4.0, 4.0]
    assert backoff(0, 0.5, cap=4.0, jitter=1.0) == 0.625  # a quarter longer at most
    assert backoff(5, 0.5, cap=4.0, jitter=1.0) == 4.0  # never past the cap
    assert backoff(3, 9.0, cap=4.0) == 4.0  # the cap wins over a long retry_after
    assert backoff(10_000, 0.1, cap=2.0) == 2.0  # no overflow on a long outage


async def test_a_move_during_an_outage_is_unavailable_and_the_client_retries_it(
    tmp_path: Path,
) -> None:
    with RedisProcess(appendonly=True, directory=tmp_path / "redis") as redis:
        async with running_app(redis.url, unavailable_retry=0.2) as app:
            url = f"ws://127.0.0.1:{app.port}/ws"
            # patience beyond any restart of Redis, however loaded the machine
            patient = Connection(url, unavailable_patience=GUARD)
            async with connect(url) as raw, patient as conn:
                token = await raw.register("outage")
                await conn.auth(token)
                state = await conn.start("crescent", Mode.DEAL, seed=7)
                move = state["legal"][0]

                await asyncio.to_thread(redis.stop)  # SIGTERM: the AOF is complete
                err = await raw.error("move", game_id=state["game_id"], seq=state["seq"], move=move)
                assert err["code"] == "unavailable"
                assert err["retry_after"] == 0.2 and "try again" in err["message"]

                # The client's own call rides through the outage: it is answered
                # 'unavailable' until Redis is back, then played.
                refused = app.metrics.ops[("move", "unavailable")]
                playing = asyncio.create_task(conn.play(state, move))
                # refused, and sent again: the server answers it 'unavailable' twice
                await eventually(
                    lambda: app.metrics.ops[("move", "unavailable")] >= refused + 2,
                    what="the client's move refused and sent again",
                )
                assert not playing.done()
                await asyncio.to_thread(redis.start)  # same port, same AOF
                after = await playing
                assert after["seq"] == state["seq"] + 1
                again = await conn.resume(state["game_id"])
                assert again["seq"] == after["seq"] and again["view"] == after["view"]


async def test_the_client_gives_up_after_its_patience(tmp_path: Path) -> None:
    with RedisProcess(directory=tmp_path / "redis") as redis:
        async with running_app(redis.url, unavailable_retry=0.05) as app:
            url = f"ws://127.0.0.1:{app.port}/ws"
            async with Connection(url, unavailable_patience=0.3) as conn:
                await conn.register("patient")
                redis.kill()
                with pytest.raises(ServerError) as refused:
                    # the guard only stops a client that would never give up
                    await asyncio.wait_for(conn.my_games(), GUARD)
                assert refused.value.code == "unavailable"
                # it tried again within its patience before it gave up
                assert app.metrics.ops[("my_games", "unavailable")] >= 2
