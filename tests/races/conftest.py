"""Two real ``pasyans-server`` processes on different ports sharing one real Redis
(and one key prefix), with a short race countdown: what the race tests run on, one
pair for the session. The presence tests start their own pair with short presence
limits (:data:`PRESENCE`), the tournament's its own too."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from tests.support import RedisProcess, ServerProcess

#: seconds of countdown on the test servers (the default is 3)
COUNTDOWN = 0.5
#: presence on the presence tests' servers, in seconds: shown away after AWAY (the
#: default is 5), given up after ABSENT away (the default is 120), a beat every BEAT.
#: AWAY is short, so the tests take seconds, yet far above what a loaded machine may
#: delay a beat by (a connected member must never look away); ABSENT leaves a minute
#: to come back or be dropped once shown away. No test here waits it out: a game given
#: up after the limit is tested by the clock in tests/server/services/test_race.py.
AWAY, ABSENT, BEAT = 1.0, 60.0, 0.1
PRESENCE = (
    "--race-away-after",
    str(AWAY),
    "--race-absent-limit",
    str(ABSENT),
    "--presence-interval",
    str(BEAT),
)


class Cluster:
    """``redis``, and ``servers[0]``, ``servers[1]`` (``.url`` changes on a restart)."""

    def __init__(self, redis: RedisProcess, prefix: str, *extra: str) -> None:
        self.redis = redis
        self.prefix = prefix
        self.extra = extra
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
            *self.extra,
            redis_url=self.redis.url,
        )

    def url(self, i: int) -> str:
        return self.servers[i].url


def running(*extra: str) -> Iterator[Cluster]:
    with RedisProcess() as redis:
        c = Cluster(redis, f"r{uuid.uuid4().hex[:8]}:", *extra)
        try:
            for s in c.servers:
                s.start()
            yield c
        finally:
            for s in c.servers:
                s.kill()


@pytest.fixture(scope="session")
def cluster() -> Iterator[Cluster]:
    """Kept for the worker's session: test_races, test_ban and test_friends share it
    (each test its own players and races), even when other files ran between."""
    yield from running()


@pytest.fixture(scope="module")
def presence_cluster() -> Iterator[Cluster]:
    """Two servers whose races show a member away after AWAY s and give up an absent
    member's game after ABSENT s."""
    yield from running(*PRESENCE)
