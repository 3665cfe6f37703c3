"""Fault tests: a whole deployment (Redis Cluster, several ``pasyans-server``
processes, the real HAProxy or nginx from the system's packages) started by
``deploy.local``, load from :mod:`bench.load`, and a part killed under it.

They need the balancers' binaries. ``.ci/run`` installs them (apt-get) when missing,
so in CI (``CI`` set) a missing binary fails; elsewhere the tests that need one skip,
saying how to get it.
"""

from __future__ import annotations

import asyncio
import os
import uuid

import pytest

from bench import load
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


async def lost_moves(
    url: str, players: list[load.Player], *, connections: int = 20
) -> tuple[int, int, list[str]]:
    """:func:`bench.load.lost_moves` (acknowledged, lost, problems) with ``connections``
    auditors at once, each checking a share of the players: each sign-in waits for
    its subscriptions, which the server applies between two polls of its listener
    (up to 50 ms), so one auditor signing in as 200 players in turn took 13 s."""
    shares = [players[i::connections] for i in range(connections)]
    found = await asyncio.gather(*(load.lost_moves(url, share) for share in shares if share))
    acknowledged = sum(f[0] for f in found)
    lost = sum(f[1] for f in found)
    return acknowledged, lost, [problem for f in found for problem in f[2]]
