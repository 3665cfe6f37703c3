"""A solver process killed in the middle of its work (issue 46, item 5): whatever the
player was waiting for — today's daily being chosen for a ``start`` or a
``race_create``, a hint, a searched ``finish`` — is answered ``unavailable`` with a
``retry_after``, never ``internal``; the server logs the death in one line, no
traceback; and the next ask is served by a fresh process.

The work runs until the test kills it: a chooser of dailies held until the test
releases it (``tests.support.jobs.held_choice``), a search on a budget it never
spends. Nothing waits on the clock."""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import signal
from pathlib import Path
from typing import Any

import pytest

from server.net import App
from tests.support import GUARD, connect, eventually, jobs
from tests.support.fixtures import redis_server, redis_url, unique_name
from tests.support.server import server_settings

__all__ = ["redis_server", "redis_url"]  # the fixtures of a real Redis, used here


async def kill_the_worker(app: App, release: Path) -> int:
    """SIGKILL the solver process once the held job ``release`` runs in it."""
    assert app.pool is not None
    marker = Path(f"{release}.started")
    await eventually(marker.exists, what="the held job started")
    marker.unlink()
    (victim,) = app.pool.pids()
    os.kill(victim, signal.SIGKILL)
    return victim


def unavailable(reply: dict[str, Any]) -> dict[str, Any]:
    assert reply["ok"] is False, reply
    err: dict[str, Any] = reply["error"]
    assert err["code"] == "unavailable" and err["retry_after"] > 0, err
    return err


def no_traceback(caplog: pytest.LogCaptureFixture) -> None:
    tracebacks = [r.getMessage() for r in caplog.records if r.exc_info]
    assert tracebacks == []
    assert not [r for r in caplog.records if "unexpected error" in r.getMessage()]


async def test_a_solver_killed_while_todays_daily_is_chosen(
    redis_url: str, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    release = tmp_path / "go"
    chooser = functools.partial(jobs.held_choice, str(release))
    app = App(server_settings(redis_url, solver_workers=1), chooser=chooser)
    await app.start()
    try:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with connect(url) as player:
            await player.register(unique_name("wd"))
            for op, params in (
                ("start", {"game": "crescent", "mode": "daily"}),
                ("race_create", {"game": "short", "daily": True}),
            ):
                asking = asyncio.create_task(player.request(op, **params))
                victim = await kill_the_worker(app, release)
                print("killed", op, victim, app.pool.snapshot() if app.pool else None)
                err = unavailable(await asking)
                assert err["key"] == "error.certifying", err
                assert app.pool is not None and victim not in app.pool.pids()
            # the next ask chooses again, in a fresh process, and is served
            release.touch()
            state = await player.start("crescent", "daily")
            assert state["mode"] == "daily"
            race = await player.call("race_create", game="short", daily=True)
            assert race["race"]["code"]
    finally:
        release.touch()
        await app.stop()
    deaths = [r for r in caplog.records if "solver worker pid" in r.getMessage()]
    assert len([r for r in deaths if "ended" in r.getMessage()]) == 2
    no_traceback(caplog)


async def test_a_solver_killed_mid_hint_or_finish(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    # searches that run until they are killed: a hard deal, budgets never spent
    budgets = {"hint_nodes": 10**9, "hint_seconds": 10 * GUARD}
    budgets |= {"finish_nodes": 10**9, "finish_seconds": 10 * GUARD}
    app = App(server_settings(redis_url, solver_workers=1, **budgets))
    await app.start()
    try:
        url = f"ws://127.0.0.1:{app.port}/ws"
        async with connect(url) as player:
            await player.register(unique_name("wd"))
            state = await player.start("crescent", "deal", seed=3)
            for op, params in (
                ("hint", {"game_id": state["game_id"]}),
                ("finish", {"game_id": state["game_id"], "seq": state["seq"], "check": True}),
                ("finish", {"game_id": state["game_id"], "seq": state["seq"]}),
            ):
                asking = asyncio.create_task(player.request(op, **params))
                await busy(app)
                assert app.pool is not None
                (victim,) = app.pool.pids()
                os.kill(victim, signal.SIGKILL)
                err = unavailable(await asking)
                assert err["key"] == "error.search_stopped", err
    finally:
        await app.stop()
    no_traceback(caplog)


async def busy(app: App) -> None:
    """Until the solver runs a player's search."""
    assert app.pool is not None
    pool = app.pool

    def running() -> bool:
        return pool.snapshot().running["player"] == 1 and bool(pool.pids())

    await eventually(running, what="a player's search running")
