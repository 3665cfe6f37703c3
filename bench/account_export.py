"""What ``account_export`` (issue 49) costs the server: a player with GAMES games of
MOVES moves each exports their data (3 times: an account's limit an hour); the server
process's CPU per export (its idle CPU not subtracted: read the order of magnitude),
the reply's size and the wall time, against a move's CPU on the same server.

    python -m bench.account_export [--games 200] [--moves 30] [--exports 3]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
import uuid
from typing import Any

from deploy.procs import RedisProcess, ServerProcess

from .op_costs import Wire, cpu


async def measure(url: str, pid: int, games: int, moves: int, exports: int) -> dict[str, Any]:
    rnd = random.Random(49)
    async with Wire.open(url) as c:
        await c.ok("register", name=f"ex{uuid.uuid4().hex[:8]}")
        played = 0
        t0 = cpu(pid)
        for _ in range(games):
            state = (await c.ok("start", game="crescent", mode="practice"))["state"]
            for _ in range(moves):
                if state["status"] != "playing" or not state["legal"]:
                    break
                move = rnd.choice(state["legal"])
                gid, seq = state["game_id"], state["seq"]
                state = (await c.ok("move", game_id=gid, seq=seq, move=move))["state"]
                played += 1
        per_move = (cpu(pid) - t0) / max(1, played + games)
        times: list[float] = []
        sizes: list[int] = []
        own = cpu(pid)
        for _ in range(exports):
            start = time.perf_counter()
            reply, size = await c.call("account_export")
            times.append(time.perf_counter() - start)
            assert reply.get("ok"), reply
            sizes.append(size)
        per_export = (cpu(pid) - own) / exports
    return {
        "games": games,
        "moves_played": played,
        "server_cpu_ms_per_export": round(per_export * 1e3, 1),
        "server_cpu_us_per_move_or_start": round(per_move * 1e6),
        "export_vs_move": round(per_export / per_move) if per_move else None,
        "wall_ms_median": round(sorted(times)[len(times) // 2] * 1e3, 1),
        "reply_bytes": sizes[0],
        "load_after": [round(x, 2) for x in os.getloadavg()],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.account_export", description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="the player's games [200]")
    parser.add_argument("--moves", type=int, default=30, help="moves a game, at most [30]")
    parser.add_argument(
        "--exports", type=int, default=3, help="exports measured (an account's 3 an hour) [3]"
    )
    args = parser.parse_args(argv)
    env = {"PASYANS_MAX_IN_PLAY": str(args.games + 10)}
    lifted = ["--rate", "1000000", "--burst", "1000000", "--log-level", "warning"]
    lifted += ["--account-rate", "1000000", "--account-burst", "1000000"]
    with RedisProcess() as redis, ServerProcess(*lifted, redis_url=redis.url, env=env) as server:
        assert server.process is not None
        pid = server.process.pid
        result = asyncio.run(measure(server.url, pid, args.games, args.moves, args.exports))
    print(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
