"""pytest fixtures for anything that needs a real Redis or a real server.

Import them into a conftest: ``from tests.support.fixtures import *  # noqa: F403``.

- ``redis_server`` (session): a real redis-server on a free port (no persistence).
- ``redis_url``: its URL.
- ``clock``: a :class:`~server.services.FakeClock` the app reads time from.
- ``app``: an in-process server on a free port with its own key prefix (so tests
  never see each other's data); ``ws_url`` is its WebSocket URL.
- ``client`` / ``client2``: connected :class:`~tests.support.client.TestClient`\\ s;
  ``player`` / ``player2`` the same, already registered.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Iterator

import pytest

from server.net import App
from server.services import FakeClock

from .client import TestClient, connect
from .redis import RedisProcess
from .server import running_app

__all__ = [
    "app",
    "client",
    "client2",
    "clock",
    "player",
    "player2",
    "redis_server",
    "redis_url",
    "ws_url",
]


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisProcess]:
    with RedisProcess() as server:
        yield server


@pytest.fixture
def redis_url(redis_server: RedisProcess) -> str:
    return redis_server.url


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock("2026-03-14T12:00:00")


@pytest.fixture
async def app(redis_url: str, clock: FakeClock) -> AsyncIterator[App]:
    async with running_app(redis_url, clock=clock) as server:
        yield server


@pytest.fixture
def ws_url(app: App) -> str:
    return f"ws://127.0.0.1:{app.port}/ws"


@pytest.fixture
async def client(ws_url: str) -> AsyncIterator[TestClient]:
    async with connect(ws_url) as c:
        yield c


@pytest.fixture
async def client2(ws_url: str) -> AsyncIterator[TestClient]:
    async with connect(ws_url) as c:
        yield c


def unique_name(stem: str = "p") -> str:
    return f"{stem}_{uuid.uuid4().hex[:8]}"


@pytest.fixture
async def player(client: TestClient) -> TestClient:
    await client.register(unique_name("alice"))
    return client


@pytest.fixture
async def player2(client2: TestClient) -> TestClient:
    await client2.register(unique_name("bob"))
    return client2
