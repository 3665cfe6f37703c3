"""A real Redis Cluster (3 masters on loopback) and two real ``pasyans-server``
processes on it, started by the local launcher ``deploy.local`` once for the package
(about 3 s)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator

import pytest

from deploy.local import LocalDeployment
from tests.support.server import SOLVER

#: seconds of race countdown on the test servers (the default is 3)
COUNTDOWN = 0.5


@pytest.fixture(scope="package")
def deployment() -> Iterator[LocalDeployment]:
    args = [
        "--key-prefix",
        f"c{uuid.uuid4().hex[:8]}:",
        "--race-countdown",
        str(COUNTDOWN),
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
    with LocalDeployment(instances=2, masters=3, server_args=args) as d:
        yield d
