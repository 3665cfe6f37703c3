"""CPU per move of the store alone: ``Store.cas_game`` from N concurrent movers in
this one process, on one Redis (the pipelined connection, unix socket) and on a local
Redis Cluster of three primaries with a replica each (deploy/local), side by side.

    python -m bench.store_moves [--players 100,1000] [--seconds 3]

Prints, per row, calls per second and this process's CPU µs per call (the server's
share of a move's Redis work, without WebSocket, engine or client), and the cluster's
ratio to one Redis at the same N. No clocks in tests: speed is measured here.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import tempfile
import time
import uuid
from pathlib import Path

from deploy.procs import RedisProcess
from server.store import Store


async def movers(store: Store, n: int, seconds: float) -> tuple[float, float]:
    """(calls/s, CPU µs per call) of n tasks each moving its own game as fast as it can."""
    gids = [f"b{uuid.uuid4().hex[:12]}" for _ in range(n)]
    for gid in gids:
        await store.create_game(gid, {"state": b"s", "seq": 0, "created": 1}, "bench")
    state, entry = b"x" * 600, b"m" * 12
    count = 0
    stop = 0.0

    async def one(gid: str) -> None:
        nonlocal count
        seq = 0
        while time.perf_counter() < stop:
            _, current = await store.cas_game(
                gid,
                seq=seq,
                state=state,
                entry=entry,
                status="playing",
                moves=seq + 1,
                foundation=0,
                now_ms=1,
                finished=False,
                clean=True,
            )
            seq = current
            count += 1

    stop = time.perf_counter() + 0.5  # warm-up: connections, scripts loaded
    await asyncio.gather(*(one(g) for g in gids))
    count = 0
    t0, c0 = time.perf_counter(), time.process_time()
    stop = t0 + seconds
    await asyncio.gather(*(one(g) for g in gids))
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    return count / wall, cpu / count * 1e6


async def main_async(args: argparse.Namespace) -> None:
    from deploy.local import LocalDeployment

    tmp = Path(tempfile.mkdtemp(prefix="pasyans-store-bench-"))
    redis = RedisProcess(appendonly=True, directory=tmp / "redis", unix=True).start()
    deployment = await asyncio.to_thread(LocalDeployment(instances=0, masters=3, replicas=1).start)
    try:
        assert deployment.cluster is not None
        one = Store(redis.url, max_connections=64)
        many = Store(deployment.cluster.spec, cluster=True, max_connections=64)
        try:
            for n in args.players:
                for _ in range(args.repeat):
                    r = await movers(one, n, args.seconds)
                    c = await movers(many, n, args.seconds)
                    print(
                        f"{n:>5} movers: one Redis {r[0]:8,.0f}/s {r[1]:6.1f} µs CPU; "
                        f"cluster {c[0]:8,.0f}/s {c[1]:6.1f} µs CPU; ratio {c[1] / r[1]:.2f}",
                        flush=True,
                    )
        finally:
            await one.close()
            await many.close()
    finally:
        await asyncio.to_thread(deployment.stop)
        redis.cleanup()
        shutil.rmtree(tmp, ignore_errors=True)  # its data too: a bench keeps nothing


def main() -> None:
    parser = argparse.ArgumentParser(
        prog=f"python -m bench.{Path(__file__).stem}",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    parser.add_argument("--players", default="100,1000", help="comma-separated movers per row")
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measured row")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each row")
    args = parser.parse_args()
    args.players = [int(x) for x in args.players.split(",") if x]
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
