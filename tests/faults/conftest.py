"""Fault tests: a whole deployment (Redis Cluster, several ``pasyans-server``
processes, the real HAProxy or nginx from the system's packages) started by
``deploy.local``, load from :mod:`bench.load`, and a part killed under it.

They need the balancers' binaries. ``.ci/run`` installs them (apt-get) when missing,
so in CI (``CI`` set) a missing binary fails; elsewhere the tests that need one skip,
saying how to get it.
"""

from __future__ import annotations

import os
import uuid

import pytest

from deploy.local import find_balancer
from tests.support.server import SOLVER


def need_balancer(kind: str) -> None:
    if find_balancer(kind) is not None:
        return
    package = "haproxy" if kind == "haproxy" else "nginx-light"
    why = (
        f"{kind} is not installed: install it with `apt-get install {package}` "
        "(.ci/run does so when it is missing)"
    )
    if os.environ.get("CI"):
        pytest.fail(why)
    pytest.skip(why)


def server_args(*extra: str) -> list[str]:
    """Flags of every test server: generous rate limits (one process plays for 200
    players), short countdowns, no dailies chosen in the background."""
    return [
        "--key-prefix",
        f"f{uuid.uuid4().hex[:8]}:",
        "--rate",
        "10000",
        "--burst",
        "10000",
        "--unavailable-retry",
        "0.2",
        "--log-level",
        "warning",
        "--shutdown-timeout",
        "2",
        *(f"--{k.replace('_', '-')}={v}" for k, v in SOLVER.items() if k != "prepare_dailies"),
        "--no-prepare-dailies",
        "--no-address-limits",  # every player comes from 127.0.0.1
        *extra,
    ]
