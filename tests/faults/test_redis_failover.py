"""100 players through HAProxy to 3 instances on a Redis Cluster whose primaries each
have a replica, moves acknowledged only once a replica has them (``--durability
replicated``); a primary is SIGKILLed mid-load: its replica takes over, the dead node
is started again (as a supervisor would) and rejoins as the new primary's replica,
play goes on, and no acknowledged move is lost. The test prints how long moves were
refused."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from bench.load import make_players
from deploy.local import LocalDeployment
from server.store.keys import Keys
from tests.faults.conftest import lost_moves, need_balancer, server_args
from tests.support import eventually

PLAYERS = 100
MOVES = 6
KILL_AFTER = PLAYERS * 2
#: the load's hang guard: players stop at it unfinished (they finish in seconds)
SECONDS = 120.0
NODE_TIMEOUT_MS = 1000  # a silent primary counts as failed after this long


@pytest.fixture(scope="module")
def deployment() -> Iterator[LocalDeployment]:
    need_balancer("haproxy")
    with LocalDeployment(
        instances=3,
        masters=3,
        replicas=1,
        durability="replicated",
        node_timeout_ms=NODE_TIMEOUT_MS,
        lb="haproxy",
        fork=True,
        server_args=server_args("--replica-timeout", "0.5"),
    ) as d:
        yield d


async def test_kill_a_redis_primary_under_load_loses_no_acknowledged_move(
    deployment: LocalDeployment,
) -> None:
    cluster = deployment.cluster
    assert cluster is not None
    url = deployment.url
    players = make_players(url, PLAYERS, stem="failover")
    deadline = time.monotonic() + SECONDS
    load = asyncio.gather(*(p.play(MOVES, deadline=deadline) for p in players))

    def acked_moves() -> int:
        return sum(p.moves for p in players)

    await eventually(lambda: acked_moves() >= KILL_AFTER, what=f"{KILL_AFTER} moves")
    # The primary of the first player's game: its players are refused for a while.
    gid = next(gid for p in players for gid in p.acked)
    prefix = deployment.server_args[deployment.server_args.index("--key-prefix") + 1]
    victim = cluster.primary_of(Keys(prefix).game(gid))
    replica = victim + cluster.masters  # replica i follows primary i % masters
    killed = time.monotonic()
    cluster.nodes[victim].process.kill()
    await eventually(lambda: cluster.role(replica) == "master", what="the replica promoted")
    failover = time.monotonic() - killed
    # The new primary has no replica left to confirm writes, so its moves are refused
    # ('unavailable') until the dead node is back, as its supervisor would bring it:
    # it rejoins as the new primary's replica.
    await asyncio.to_thread(cluster.restart, victim)
    await load
    back = time.monotonic() - killed

    failed = [f"{p.name}: {p.error or f'{p.moves} moves'}" for p in players if p.moves < MOVES]
    assert not failed, f"{len(failed)} players did not finish: {failed[:5]}"
    acknowledged, lost, problems = await lost_moves(url, players)
    refused = max(max(p.latencies, default=0.0) for p in players)
    print(
        f"\nfailover: replica promoted {failover:.2f} s after the kill, the dead node back "
        f"as its replica; the slowest move (refused 'unavailable' and retried until a "
        f"replica confirmed it) took {refused:.2f} s; load done {back:.2f} s after the "
        f"kill; {acknowledged} moves acknowledged, {lost} lost"
    )
    assert acknowledged >= PLAYERS * MOVES
    assert lost == 0 and not problems, problems[:10]
