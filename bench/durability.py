"""What each ``--durability`` mode costs: moves a second and move latency of one
server process, with the same players, under each mode.

    python -m bench.durability [--players 20] [--seconds 4]

Rows: ``default`` and ``fsync`` on the embedded Redis (AOF ``everysec`` / ``always``,
on this machine's disk); ``default`` and ``replicated`` on a Redis with one replica
on loopback (``--redis-url``; ``replicated`` sends ``WAIT 1`` after every move).
Each player plays as fast as its replies come (:mod:`bench.load`'s player, no pause).
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bench.load import Player, make_players
from deploy.procs import RedisProcess, ServerProcess


async def measure(url: str, players: int, seconds: float) -> tuple[float, float, float]:
    """``(moves a second, p50 ms, p99 ms)`` of ``players`` playing for ``seconds``."""
    crowd: list[Player] = make_players(url, players, stem="dur")
    deadline = time.monotonic() + seconds
    began = time.monotonic()
    await asyncio.gather(*(p.play(1_000_000, deadline=deadline, pause=0) for p in crowd))
    took = time.monotonic() - began
    latencies = sorted(x for p in crowd for x in p.latencies)
    if not latencies:
        return 0.0, 0.0, 0.0
    p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
    return len(latencies) / took, statistics.median(latencies) * 1000, p99 * 1000


def row(name: str, result: tuple[float, float, float]) -> None:
    rate, p50, p99 = result
    print(f"| {name:<38} | {rate:>8.0f} | {p50:>7.2f} | {p99:>7.2f} |", flush=True)


async def main_async(args: argparse.Namespace) -> None:
    print("| mode (one server process)              |  moves/s | p50 ms  | p99 ms  |")
    print("|---|---:|---:|---:|")
    for mode in ("default", "fsync"):
        with tempfile.TemporaryDirectory(prefix="pasyans-dur-") as tmp:
            server = ServerProcess("--data-dir", str(Path(tmp) / "data"), "--durability", mode)
            flags = ["--rate", "100000", "--burst", "100000", "--log-level", "warning"]
            server.args += flags
            with server:
                result = await measure(server.url, args.players, args.seconds)
            row(
                f"{mode}, embedded Redis (AOF {'always' if mode == 'fsync' else 'everysec'})",
                result,
            )
    with RedisProcess(appendonly=True) as primary, RedisProcess(replica_of=primary.port) as replica:
        replica.synced()
        for mode in ("default", "replicated"):
            flags = ["--rate", "100000", "--burst", "100000", "--log-level", "warning"]
            with ServerProcess("--durability", mode, *flags, redis_url=primary.url) as server:
                result = await measure(server.url, args.players, args.seconds)
            row(f"{mode}, a Redis with 1 replica (loopback)", result)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=20, help="players at once")
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds per row")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
