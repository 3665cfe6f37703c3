"""Reusable test machinery: a real redis-server, a real pasyans server (in-process or
as a subprocess) on a free port, and a small async WebSocket client.

Use the pytest fixtures in :mod:`tests.support.fixtures` from a conftest::

    from tests.support.fixtures import *  # noqa: F403  (redis_server, app, client, ...)
"""

from __future__ import annotations

from .client import TestClient, connect
from .redis import RedisProcess, free_port
from .server import ServerProcess, redis_calls, running_app
from .wait import GUARD, eventually

__all__ = [
    "GUARD",
    "RedisProcess",
    "ServerProcess",
    "TestClient",
    "connect",
    "eventually",
    "free_port",
    "redis_calls",
    "running_app",
]
