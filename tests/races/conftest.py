"""Two real ``pasyans-server`` processes on different ports sharing one real Redis
(and one key prefix), with a short race countdown: what the race tests run on, one
pair for the session. The presence tests start their own pair with short presence
limits (:data:`PRESENCE`), the tournament's its own too."""

from __future__ import annotations

import uuid
from collections.abc import Generator, Iterator
from pathlib import Path

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


def running(*extra: str) -> Generator[Cluster]:
    with RedisProcess() as redis:
        c = Cluster(redis, f"r{uuid.uuid4().hex[:8]}:", *extra)
        try:
            for s in c.servers:
                s.start()
            yield c
        finally:
            for s in c.servers:
                s.kill()


class Shared:
    """The pair most files here share, started when a test first asks for it;
    :meth:`stop` stops it (a later test starts another)."""

    def __init__(self) -> None:
        self.running: Generator[Cluster] | None = None
        self.cluster: Cluster | None = None

    def get(self) -> Cluster:
        if self.cluster is None:
            self.running = running()
            self.cluster = next(self.running)
        return self.cluster

    def stop(self) -> None:
        if self.running is not None:
            self.running.close()  # its finally: the servers killed, the Redis stopped
        self.running = self.cluster = None


SHARED = Shared()
HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def shared() -> Iterator[Shared]:
    try:
        yield SHARED
    finally:
        SHARED.stop()


@pytest.fixture(scope="module")
def cluster(shared: Shared) -> Cluster:
    """Shared by test_races, test_ban and test_friends (each test its own players and
    races) while they run one after another in this worker; stopped once the worker's
    next test is none of this directory's (:func:`pytest_runtest_teardown`)."""
    return shared.get()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After a test's own teardown: the shared pair stops when this worker's next test
    is outside this directory, rather than idle beside the rest of the suite."""
    if nextitem is None or HERE not in nextitem.path.resolve().parents:
        SHARED.stop()


@pytest.fixture(scope="module")
def presence_cluster() -> Iterator[Cluster]:
    """Two servers whose races show a member away after AWAY s and give up an absent
    member's game after ABSENT s."""
    yield from running(*PRESENCE)
