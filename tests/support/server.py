"""A real pasyans server on a free port: in-process (:func:`running_app`, fast, same
event loop) or as a process of its own (:class:`ServerProcess`, for kill/restart tests;
forked from one that has imported the server: :mod:`deploy.forked`)."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

from deploy import procs
from deploy.procs import QUICK_DAILIES, ROOT
from server.net import App
from server.services import Clock
from server.settings import Settings

__all__ = ["ROOT", "SOLVER", "ServerProcess", "redis_calls", "running_app", "server_settings"]

#: a tiny solver budget for test servers: a daily is chosen in milliseconds (tests of
#: the choice itself set their own budgets)
SOLVER = QUICK_DAILIES


class ServerProcess(procs.ServerProcess):
    """:class:`deploy.procs.ServerProcess`, forked: the same ``serve`` in a process of
    its own, started without importing the server again (:mod:`deploy.forked`)."""

    fork = True


def server_settings(redis_url: str, **overrides: Any) -> Settings:
    """Settings for a test server: loopback, any free port, a unique key prefix."""
    base = Settings(
        host="127.0.0.1",
        port=0,
        redis_url=redis_url,
        key_prefix=f"t{uuid.uuid4().hex[:10]}:",
        ping_interval=0,
        shutdown_timeout=5,
        race_countdown=0.2,
        # a SCAN of the whole shared test Redis at every start: only the tests of it
        backfill_look_alikes=False,
        # every test client comes from 127.0.0.1: only the tests of them count
        address_limits=False,
        # /metrics on an operator's port of its own (app.metrics_port)
        metrics="127.0.0.1:0",
        **SOLVER,
    )
    return replace(base, **overrides)


@contextlib.asynccontextmanager
async def running_app(
    redis_url: str, *, clock: Clock | None = None, **overrides: Any
) -> AsyncIterator[App]:
    """An :class:`App` serving on ``ws://127.0.0.1:{app.port}/ws`` for the block."""
    app = App(server_settings(redis_url, **overrides), clock=clock)
    await app.start()
    try:
        yield app
    finally:
        await app.stop()


def redis_calls(app: App, name: str) -> int:
    """How many Redis calls named ``name`` the app's store made so far (as
    ``pasyans_redis_seconds_count{call}`` counts them: a pipeline is one): a test's
    count of round trips."""
    timings = app.metrics.redis_seconds.get(name)
    return sum(timings.counts) if timings is not None else 0
