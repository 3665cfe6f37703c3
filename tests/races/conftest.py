"""Two real ``pasyans-server`` processes on different ports sharing one real Redis
(and one key prefix), with a short race countdown: what the race tests run on."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from tests.support import RedisProcess, ServerProcess

#: seconds of countdown on the test servers (the default is 3)
COUNTDOWN = 0.5


class Cluster:
    """``redis``, and ``servers[0]``, ``servers[1]`` (``.url`` changes on a restart)."""

    def __init__(self, redis: RedisProcess, prefix: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self.servers = [self.server(), self.server()]

    def server(self) -> ServerProcess:
        return ServerProcess(
            "--key-prefix",
            self.prefix,
            "--race-countdown",
            str(COUNTDOWN),
            "--rate",
            "10000",
            "--burst",
            "10000",
            "--log-level",
            "warning",
            redis_url=self.redis.url,
        )

    def url(self, i: int) -> str:
        return self.servers[i].url


@pytest.fixture(scope="module")
def cluster() -> Iterator[Cluster]:
    with RedisProcess() as redis:
        c = Cluster(redis, f"r{uuid.uuid4().hex[:8]}:")
        try:
            for s in c.servers:
                s.start()
            yield c
        finally:
            for s in c.servers:
                s.kill()
