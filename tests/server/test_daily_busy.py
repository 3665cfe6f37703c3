"""Choosing a daily is slow work off the event loop: moves are answered meanwhile."""

from __future__ import annotations

import asyncio
import time
import uuid

from server.net import App
from server.services import FakeClock
from server.services.daily import Budget, Choice, candidate_seed
from tests.support import connect
from tests.support.server import server_settings

SLOW = 1.5  # seconds the stand-in solver takes per daily


def slow_chooser(slug: str, secret: bytes, date: str, budget: Budget) -> Choice:
    time.sleep(SLOW)  # in the worker thread, as a real scan would be in a process
    return Choice(candidate_seed(secret, date, slug, 0), 0, False, None, 10)


async def test_moves_are_answered_while_a_daily_is_chosen(redis_url: str) -> None:
    app = App(server_settings(redis_url), clock=FakeClock(), chooser=slow_chooser)
    await app.start()
    try:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with connect(url) as waiting, connect(url) as player:
            await waiting.register(f"w{uuid.uuid4().hex[:8]}")
            await player.register(f"p{uuid.uuid4().hex[:8]}")
            daily = asyncio.create_task(waiting.start("crescent", "daily"))
            await asyncio.sleep(0.1)  # the daily is being chosen now
            began = time.monotonic()
            state = await player.start("short", "deal", seed=3)
            for _ in range(5):
                state = await player.move(state, state["legal"][0])
            assert time.monotonic() - began < SLOW / 2 and not daily.done()
            chosen = await daily
            assert chosen["mode"] == "daily" and chosen["ranked"] is True
    finally:
        await app.stop()
