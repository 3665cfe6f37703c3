"""Single node: the embedded redis-server is SIGKILLed under load. The server restarts
it from its AOF (``appendfsync everysec``: Redis has written every acknowledged move to
the file, in the kernel's page cache, before it replied, so a process kill loses none);
meanwhile every refused request is answered the retryable ``unavailable`` (never
``internal``), the players' clients retry by themselves, and moves are played again
(the test prints how soon after the kill: about a second, quiet)."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bench.load import make_players
from tests.faults.conftest import lost_moves, server_args
from tests.faults.procs import children, command, op_counts
from tests.support import GUARD, ServerProcess, connect, eventually

PLAYERS = 30
MOVES = 20
KILL_AFTER = PLAYERS * 6  # acknowledged moves before the kill
#: the load's hang guard: players stop at it unfinished (they finish in seconds)
SECONDS = 120.0


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with ServerProcess(*server_args("--data-dir", str(tmp_path / "data"))) as s:
        yield s


def embedded_redis(server: ServerProcess) -> int:
    assert server.process is not None
    found = [p for p in children(server.process.pid) if command(p) == "redis-server"]
    assert len(found) == 1, found
    return found[0]


async def probe(
    url: str,
    ready: asyncio.Event,
    killed: asyncio.Event,
    out: dict[str, float],
    log: Callable[[], str],
) -> None:
    """One raw player (no retry of its own) moving every 20 ms: when its moves were
    first refused after the kill, and when one was played again. ``ready`` once it has
    its game: the kill waits for it (on a loaded machine the load may reach the kill
    first)."""
    async with connect(url) as c:
        await c.register(f"probe{os.getpid()}")
        state = await c.start("crescent", "deal", seed=5)
        ready.set()
        await killed.wait()
        deadline = time.monotonic() + GUARD
        while time.monotonic() < deadline:
            reply = await c.request(
                "move", game_id=state["game_id"], seq=state["seq"], move=state["legal"][0]
            )
            if reply["ok"]:
                state = reply["state"]
                if "refused" in out:
                    out["back"] = time.monotonic()
                    return
                if not state["legal"]:
                    state = await c.start("crescent", "deal", seed=int(time.time()))
            else:
                assert reply["error"]["code"] == "unavailable", (reply, log()[-3000:])
                assert reply["error"]["retry_after"] > 0
                out.setdefault("refused", time.monotonic())
            await asyncio.sleep(0.02)


async def test_kill_the_embedded_redis_under_load_loses_no_acknowledged_move(
    server: ServerProcess,
) -> None:
    url = server.url
    players = make_players(url, PLAYERS, stem="redis9")
    deadline = time.monotonic() + SECONDS
    load = asyncio.gather(*(p.play(MOVES, deadline=deadline) for p in players))
    ready, killed = asyncio.Event(), asyncio.Event()
    seen: dict[str, float] = {}
    probing = asyncio.create_task(probe(url, ready, killed, seen, server.output))

    def acked_moves() -> int:
        return sum(p.moves for p in players)

    await eventually(lambda: acked_moves() >= KILL_AFTER, what=f"{KILL_AFTER} moves")
    waiting = asyncio.create_task(ready.wait())
    await asyncio.wait({waiting, probing}, timeout=GUARD, return_when=asyncio.FIRST_COMPLETED)
    if probing.done():  # it failed before the kill: say why
        await probing
    assert ready.is_set(), "the probe had no game after the hang guard"
    redis = embedded_redis(server)
    at = time.monotonic()
    os.kill(redis, signal.SIGKILL)
    killed.set()
    await probing
    await load

    failed = [f"{p.name}: {p.error or f'{p.moves} moves'}" for p in players if p.moves < MOVES]
    assert not failed, f"{len(failed)} players did not finish: {failed[:5]}"
    assert embedded_redis(server) != redis  # restarted by the server
    assert "refused" in seen and "back" in seen, seen
    back = seen["back"] - at
    counts = await asyncio.to_thread(op_counts, server.metrics_port)
    refused = sum(n for (_, result), n in counts.items() if result == "unavailable")
    internal = {k: n for k, n in counts.items() if k[1] == "internal"}
    acknowledged, lost, problems = await lost_moves(url, players)
    slowest = max(max(p.latencies) for p in players)
    print(
        f"\nembedded redis-server SIGKILLed after {KILL_AFTER}+ moves: {refused:.0f} requests "
        f"answered 'unavailable', 0 'internal'; moves played again {back:.2f} s after the "
        f"kill; the slowest move of a player (refused and retried by its client) took "
        f"{slowest:.2f} s; {acknowledged} moves acknowledged, {lost} lost"
    )
    assert refused >= 1 and not internal, (counts, server.output()[-3000:])
    assert acknowledged >= PLAYERS * MOVES
    assert lost == 0 and not problems, problems[:10]
    assert "Traceback" not in server.output()
