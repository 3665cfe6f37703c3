"""Choosing a daily is slow work off the event loop: moves are answered meanwhile.

The stand-in solver does not sleep for a while: it blocks until the test lets it go
(a gate), so "meanwhile" means while it is certainly still choosing, however fast or
loaded the machine is."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
import uuid
from collections.abc import AsyncIterator

import pytest

from server.net import App
from server.patience import registry
from server.services import FakeClock
from server.solver.daily import Budget, Choice, candidate_seed
from tests.support import GUARD, connect, eventually
from tests.support.server import server_settings


class Gate:
    """A chooser that blocks in its worker thread (as a real scan would be busy in its
    process) until :meth:`open`; ``entered`` once it is choosing."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.opened = threading.Event()
        #: choices that gave up waiting: the test never opened the gate (it hung)
        self.stuck = 0
        #: the games it was asked to choose, in order
        self.calls: list[str] = []

    def __call__(self, slug: str, secret: bytes, date: str, budget: Budget) -> Choice:
        self.calls.append(slug)
        self.entered.set()
        if not self.opened.wait(GUARD):
            self.stuck += 1
        return Choice(candidate_seed(secret, date, slug, 0), 0, False, None, 10)

    def open(self) -> None:
        self.opened.set()


@pytest.fixture
async def gate() -> AsyncIterator[Gate]:
    gate = Gate()
    yield gate
    gate.open()  # never leave a worker thread blocked behind a failed test


async def test_moves_are_answered_while_a_daily_is_chosen(redis_url: str, gate: Gate) -> None:
    app = App(server_settings(redis_url), clock=FakeClock(), chooser=gate)
    await app.start()
    try:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with connect(url) as waiting, connect(url) as player:
            await waiting.register(f"w{uuid.uuid4().hex[:8]}")
            await player.register(f"p{uuid.uuid4().hex[:8]}")
            daily = asyncio.create_task(waiting.start("crescent", "daily"))
            await eventually(gate.entered.is_set, what="the daily's choice began")
            state = await player.start("short", "deal", seed=3)
            for _ in range(5):
                state = await player.move(state, state["legal"][0])
            assert not daily.done()  # the choice is held at the gate: still waiting
            gate.open()
            chosen = await daily
            assert chosen["mode"] == "daily" and chosen["ranked"] is True
        # a loop blocked by the choice would have answered the moves only after the
        # chooser gave up waiting for the gate
        assert gate.stuck == 0
    finally:
        await app.stop()


async def test_daily_says_preparing_until_the_choice_is_made(redis_url: str, gate: Gate) -> None:
    settings = server_settings(redis_url)
    settings = dataclasses.replace(settings, daily_wait=0.2, prepare_dailies=False)
    app = App(settings, clock=FakeClock(), chooser=gate)
    await app.start()
    try:
        async with connect(f"ws://127.0.0.1:{app.port}/ws") as client:
            first = await client.call("daily")  # answered without waiting for the choice
            games = first["games"]
            assert set(games) == set(registry.slugs())
            assert all(g["preparing"] and g["commitment"] is None for g in games.values())
            gate.open()

            async def chosen() -> dict[str, dict[str, object]] | None:
                again: dict[str, dict[str, object]] = (await client.call("daily"))["games"]
                return None if any(g.get("preparing") for g in again.values()) else again

            # the choice went on; asked again, it is there
            again = await eventually(chosen, every=0.05, what="every daily chosen")
            assert all(g["commitment"] and g["certified"] is False for g in again.values())
        assert gate.stuck == 0
    finally:
        await app.stop()
