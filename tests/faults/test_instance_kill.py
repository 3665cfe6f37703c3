"""200 players through HAProxy to 3 instances; one instance is SIGKILLed mid-load:
every player reconnects through the balancer and resumes its game by ``seq``, and
every move acknowledged before (and after) the kill is in the state after."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator

import pytest

from bench.load import Player, make_players
from deploy.local import LocalDeployment, start_balancer
from tests.faults.conftest import lost_moves, need_balancer, server_args
from tests.support import GUARD, eventually

PLAYERS = 200
MOVES = 6  # each player's acknowledged moves in all
KILL_AFTER = PLAYERS  # acknowledged moves before the kill: most players mid-game
SECONDS = 120.0  # the whole load's hang guard (it takes seconds)


@pytest.fixture(scope="module")
def deployment() -> Iterator[LocalDeployment]:
    need_balancer("haproxy")
    with LocalDeployment(
        instances=3, masters=3, lb="haproxy", server_args=server_args(), fork=True
    ) as d:
        yield d


async def test_kill_an_instance_under_load_loses_no_acknowledged_move(
    deployment: LocalDeployment,
) -> None:
    url = deployment.url
    players = make_players(url, PLAYERS, stem="kill")
    deadline = time.monotonic() + SECONDS
    load = asyncio.gather(*(p.play(MOVES, deadline=deadline) for p in players))

    def acked_moves() -> int:
        return sum(p.moves for p in players)

    await eventually(lambda: acked_moves() >= KILL_AFTER, what=f"{KILL_AFTER} moves")
    before = acked_moves()
    assert before >= KILL_AFTER, f"only {before} moves acknowledged before the kill"
    victim = deployment.servers[0].child
    victim.process.kill()  # SIGKILL: no goodbye to its players
    # On a loaded machine the poll above can see the kill's moment late; whoever had
    # finished by then loses nothing, so the kill is judged by who was still playing.
    playing = {id(p) for p in players if p.moves < MOVES}  # (a name may change)
    await load

    failed = [f"{p.name}: {p.error or f'{p.moves} moves'}" for p in players if p.moves < MOVES]
    assert not failed, f"{len(failed)} players did not finish: {failed[:5]}"
    moved = [p for p in players if p.reconnects]
    assert {id(p) for p in moved} <= playing, "a player who had finished reconnected"
    # leastconn spreads the players over 3 instances: the killed one had about a third
    # of those still playing (half of that share leaves room for an uneven spread)
    assert len(moved) >= max(1, len(playing) // 6), (
        f"only {len(moved)} of {len(playing)} players still playing lost their instance"
    )
    acknowledged, lost, problems = await lost_moves(url, players)
    gaps = sorted(g for p in players for g in p.gaps)
    print(
        f"\ninstance killed with {len(playing)} players still playing: {len(moved)} "
        f"reconnected through HAProxy; from the lost connection to the next acknowledged "
        f"move: median {gaps[len(gaps) // 2]:.2f} s, worst {gaps[-1]:.2f} s; "
        f"{acknowledged} moves acknowledged, {lost} lost"
    )
    assert acknowledged >= PLAYERS * MOVES
    assert lost == 0 and not problems, problems[:10]


async def test_nginx_carries_players_too(deployment: LocalDeployment) -> None:
    need_balancer("nginx")
    alive = [s.port for s in deployment.servers if s.child.alive()]
    nginx, port = start_balancer("nginx", alive, deployment.directory / "nginx")
    try:
        url = f"ws://127.0.0.1:{port}/ws"
        players: list[Player] = make_players(url, 10, stem="nginx")
        await asyncio.gather(*(p.play(3, deadline=time.monotonic() + GUARD) for p in players))
        assert all(p.moves == 3 for p in players), [p.error for p in players]
        acknowledged, lost, problems = await lost_moves(url, players)
        assert acknowledged >= 30 and lost == 0 and not problems
    finally:
        nginx.stop()
