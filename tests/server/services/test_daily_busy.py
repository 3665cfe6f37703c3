"""Choosing a daily is slow work off the event loop: moves are answered meanwhile."""

from __future__ import annotations

import asyncio
import dataclasses
import time
import uuid

from server.net import App
from server.patience import registry
from server.services import FakeClock
from server.solver.daily import Budget, Choice, candidate_seed
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


async def test_daily_says_preparing_until_the_choice_is_made(redis_url: str) -> None:
    settings = server_settings(redis_url)
    settings = dataclasses.replace(settings, daily_wait=0.2, prepare_dailies=False)
    app = App(settings, clock=FakeClock(), chooser=slow_chooser)
    await app.start()
    try:
        async with connect(f"ws://127.0.0.1:{app.port}/ws") as client:
            began = time.monotonic()
            first = await client.call("daily")
            assert time.monotonic() - began < SLOW  # answered without waiting for it
            games = first["games"]
            assert set(games) == set(registry.slugs())
            assert all(g["preparing"] and g["commitment"] is None for g in games.values())
            for _ in range(100):  # the choice went on; asked again, it is there
                await asyncio.sleep(0.1)
                again = (await client.call("daily"))["games"]
                if not any(g.get("preparing") for g in again.values()):
                    break
            assert all(g["commitment"] and g["certified"] is False for g in again.values())
    finally:
        await app.stop()
