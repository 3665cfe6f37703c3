"""Issue 35: a daily the server is still certifying says so on the home screen, with
its progress and an estimate, in one line at 80x24; Enter on it waits, and the game
opens by itself once the daily is certified. Another instance's lease holds the
choice (as on a deployment of several servers) until the test lets go of it."""

from __future__ import annotations

import datetime as dt
import time
import uuid
from collections.abc import Iterator

import pytest
import redis

from client import config
from client.app import PasyansApp
from client.connection import Connection
from client.screens.board import BoardScreen
from client.screens.home import DailyScreen
from client.text import preparing
from tests.client.test_80x24 import SMALL, screen_text
from tests.client.test_app import until
from tests.support import ServerProcess

#: a hang guard only: the refresh every 3 s and a tiny choice take a few seconds
GUARD = 120.0


@pytest.fixture
def held(redis_url: str) -> Iterator[tuple[ServerProcess, redis.Redis, str]]:
    """A server on a fresh key prefix whose daily of ``short`` another instance is
    choosing: it has tried 3 candidates and thinks it has a while to go."""
    prefix = f"c{uuid.uuid4().hex[:8]}:"
    today = dt.datetime.now(dt.UTC).date().isoformat()
    store = redis.Redis.from_url(redis_url)
    lease = f"{prefix}daily:{{{today}}}:lease:short"
    store.set(lease, "another-instance", px=600_000)
    began = int(time.time() * 1000) - 20_000
    store.hset(f"{prefix}daily:{{{today}}}", "progress:short", f"3:{began}:600:1200")
    env = {"PASYANS_KEY_PREFIX": prefix, "PASYANS_DAILY_WAIT": "0.1"}
    try:
        with ServerProcess(redis_url=redis_url, env=env) as server:
            yield server, store, lease
    finally:
        store.close()


async def test_enter_on_a_daily_being_certified_opens_it_when_ready(
    held: tuple[ServerProcess, redis.Redis, str],
) -> None:
    server, store, lease = held
    async with Connection(server.url) as conn:
        result = await conn.register("t" + uuid.uuid4().hex[:12])
    config.save(server.url, config.Credentials(result["player"], result["token"]))
    app = PasyansApp(server.url)
    async with app.run_test(size=SMALL) as pilot:
        await until(pilot, lambda: isinstance(app.screen, DailyScreen) and bool(app.screen.rows))
        home = app.screen
        assert isinstance(home, DailyScreen)
        # the other fifteen are chosen here meanwhile (the home asks every 3 s)
        await until(pilot, lambda: preparing(home.daily) == ["short"], GUARD)
        await pilot.pause(0.1)
        shown = screen_text(pilot)
        assert "certifying winnable deals: 15 of 16 games ready, all in about" in shown, shown
        assert "certifying… ~" in shown  # the row's par cell
        for _ in range(3):  # crescent, picture_gallery, first_and_last, then short
            await pilot.press("down")
        await until(pilot, lambda: home.selected() == "short")
        await pilot.press("enter")
        status = str(home.query_one("#status").render())
        assert "certifying a winnable deal (3 deals tried, ready in about" in status, status
        assert "opens when ready" in status
        assert isinstance(app.screen, DailyScreen)  # nothing opened, no error
        store.delete(lease)  # the other instance is gone: this server chooses it
        await until(pilot, lambda: isinstance(app.screen, BoardScreen), GUARD)
        board = app.screen
        assert isinstance(board, BoardScreen)
        assert board.state["game"] == "short" and board.state["mode"] == "daily"
