"""An instance behind HAProxy drained (SIGTERM) under load: it stops taking
handshakes (``/healthz`` 503, HAProxy sends new ones to the other instance), finishes
the requests in flight, says ``bye`` and closes with 1001; its players' clients
reconnect through HAProxy and resume by ``seq`` without an error reaching the player,
and no acknowledged move is lost. The test prints how long players were without an
acknowledged move."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Iterator

import pytest

from bench.load import make_players
from deploy.local import LocalDeployment
from tests.faults.conftest import lost_moves, need_balancer, server_args
from tests.support import GUARD, eventually

PLAYERS = 60
MOVES = 12
DRAIN_AFTER = PLAYERS * 4  # acknowledged moves before the SIGTERM
#: the load's hang guard: players stop at it unfinished (they finish in seconds)
SECONDS = 120.0
SHUTDOWN_TIMEOUT = 2.0  # server_args' --shutdown-timeout


@pytest.fixture(scope="module")
def deployment() -> Iterator[LocalDeployment]:
    need_balancer("haproxy")
    with LocalDeployment(
        instances=2, masters=1, lb="haproxy", server_args=server_args(), fork=True
    ) as d:
        yield d


async def test_drain_an_instance_under_load_without_errors_or_loss(
    deployment: LocalDeployment,
) -> None:
    url = deployment.url
    players = make_players(url, PLAYERS, stem="drain")
    deadline = time.monotonic() + SECONDS
    load = asyncio.gather(*(p.play(MOVES, deadline=deadline) for p in players))

    def acked_moves() -> int:
        return sum(p.moves for p in players)

    await eventually(lambda: acked_moves() >= DRAIN_AFTER, what=f"{DRAIN_AFTER} moves")
    drained = deployment.servers[0].child.process
    began = time.monotonic()
    drained.send_signal(signal.SIGTERM)
    await load
    code = await asyncio.to_thread(drained.wait, SHUTDOWN_TIMEOUT + GUARD)
    stopped = time.monotonic() - began

    errors = [f"{p.name}: {p.error}" for p in players if p.error]
    assert not errors, errors[:5]
    failed = [f"{p.name}: {p.moves} moves" for p in players if p.moves < MOVES]
    assert not failed, f"{len(failed)} players did not finish: {failed[:5]}"
    moved = [p for p in players if p.reconnects]
    # leastconn spreads the players over both instances: the drained one had its share
    assert len(moved) >= PLAYERS // 5, f"only {len(moved)} players lost their instance"
    assert code == 0, deployment.servers[0].child.tail()
    acknowledged, lost, problems = await lost_moves(url, players)
    gaps = sorted(g for p in players for g in p.gaps)
    print(
        f"\ninstance drained (SIGTERM): it exited {stopped:.2f} s later (code {code}); "
        f"{len(moved)} players reconnected through HAProxy, none saw an error; from the "
        f"lost connection to the next acknowledged move: median {gaps[len(gaps) // 2]:.2f} s, "
        f"worst {gaps[-1]:.2f} s; {acknowledged} moves acknowledged, {lost} lost"
    )
    assert acknowledged >= PLAYERS * MOVES
    assert lost == 0 and not problems, problems[:10]
