"""Pure parts of ``server.net``: the token bucket, the session's cancellation helpers."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from server.net.ratelimit import TokenBucket
from server.net.session import being_cancelled, cancel
from tests.support import GUARD


def test_token_bucket() -> None:
    bucket = TokenBucket(rate=2.0, burst=3, now=0.0)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(0.5) and not bucket.take(0.5)
    assert [bucket.take(100.0) for _ in range(4)] == [True, True, True, False]
    # a refused request taken again after the wait the refusal tells (its retry_after)
    assert not bucket.take(100.0) and bucket.take(100.0 + bucket.wait())
    slow = TokenBucket(rate=0.01, burst=1, now=0.0)
    assert slow.take(0.0) and not slow.take(50.0)
    assert slow.wait() == pytest.approx(50.0) and slow.take(50.0 + slow.wait())


async def test_shutdown_asks_again_a_task_that_swallowed_its_cancellation() -> None:
    # A library may turn a cancellation into an error (a timeout firing at the same
    # moment): the task goes on; shutdown must not leave it to hang the loop's close.
    swallowed = 0

    async def stubborn() -> None:
        nonlocal swallowed
        while True:
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                if swallowed:
                    raise
                swallowed += 1  # the first one is lost

    task = asyncio.create_task(stubborn())
    await asyncio.sleep(0)
    await cancel([task], GUARD)  # its second cancellation ends it: the bound is a guard
    assert task.cancelled() and swallowed == 1


async def test_a_retrying_loop_sees_a_cancellation_turned_into_an_error() -> None:
    seen: list[bool] = []

    async def retrying() -> None:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            seen.append(being_cancelled())
            raise ConnectionError("converted") from None

    task = asyncio.create_task(retrying())
    await asyncio.sleep(0)
    task.cancel()
    with contextlib.suppress(ConnectionError):
        await task
    assert seen == [True]
