"""Bytes on the wire per move reply: the whole state against a delta, every patience.

Starts a real server (embedded Redis in a temporary folder, on a free loopback port),
then plays each game twice on the same deal with the same moves (the n-th legal move,
drawn from a seeded generator), once asking for whole states and once for deltas, and
measures every encoded reply frame. Target (issue: delta replies): median ≤ 300 bytes
and p95 ≤ 1 KB over played games of every patience.

    python -m bench.replies [--moves 60] [--seed 1] [--games a,b] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import sys
import tempfile
import uuid
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Subprotocol

import protocol as P
from bench.load_server import spawn, wait_http
from server.patience import registry


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class Client:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.rid = 0

    async def call(self, op: str, **params: Any) -> tuple[dict[str, Any], int]:
        self.rid += 1
        await self.ws.send(P.encode(P.request(self.rid, op, **params)))
        while True:
            frame = await self.ws.recv()
            assert isinstance(frame, bytes)
            msg = P.decode(frame, max_size=1 << 24)
            if msg.get("re") == self.rid:
                assert msg["ok"], msg
                return msg, len(frame)


async def play(client: Client, slug: str, seed: int, moves: int, delta: bool) -> list[int]:
    """Reply sizes of up to ``moves`` moves of deal ``seed``, choosing the same moves
    whatever the reply form."""
    rnd = random.Random(f"{slug}:{seed}")
    start, _ = await client.call("start", game=slug, mode="deal", seed=seed)
    state = start["state"]
    legal, gid, seq = state["legal"], state["game_id"], state["seq"]
    sizes = []
    for _ in range(moves):
        if not legal:
            break
        move = legal[rnd.randrange(len(legal))]
        params: dict[str, Any] = {"game_id": gid, "seq": seq, "move": move}
        if delta:
            params["reply"] = "delta"
        reply, size = await client.call("move", **params)
        sizes.append(size)
        body = reply["delta"] if delta else reply["state"]
        legal = body["legal"] if body["status"] == "playing" else []
        seq = body["seq"]
    return sizes


def stats(sizes: list[int]) -> dict[str, float]:
    ordered = sorted(sizes)
    return {
        "median": statistics.median(ordered),
        "p95": ordered[max(0, -(-95 * len(ordered) // 100) - 1)],
        "moves": len(ordered),
    }


async def run(args: argparse.Namespace, slugs: list[str]) -> dict[str, Any]:
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        proc = spawn(
            [
                sys.executable,
                "-m",
                "server",
                "serve",
                "--port",
                str(port),
                "--data-dir",
                data,
                "--rate",
                "100000",
                "--burst",
                "100000",
                "--no-prepare-dailies",
                "--log-level",
                "warning",
            ]
        )
        try:
            await asyncio.to_thread(wait_http, port)
            async with connect(
                f"ws://127.0.0.1:{port}/ws",
                subprotocols=[Subprotocol(P.SUBPROTOCOL)],
                max_size=1 << 24,
                compression=None,
            ) as ws:
                client = Client(ws)
                await client.call("register", name=f"b{uuid.uuid4().hex[:10]}")
                rows: dict[str, Any] = {}
                every: dict[str, list[int]] = {"state": [], "delta": []}
                for slug in slugs:
                    full = await play(client, slug, args.seed, args.moves, False)
                    delta = await play(client, slug, args.seed, args.moves, True)
                    every["state"] += full
                    every["delta"] += delta
                    rows[slug] = {"state": stats(full), "delta": stats(delta)}
                    print(f"{slug}: {rows[slug]}", file=sys.stderr, flush=True)
                rows["all"] = {k: stats(v) for k, v in every.items()}
                return rows
        finally:
            proc.terminate()
            proc.wait(10)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.replies", description=__doc__)
    parser.add_argument("--moves", type=int, default=60, help="moves per game [60]")
    parser.add_argument("--seed", type=int, default=1, help="the deal of every game [1]")
    parser.add_argument("--games", default="", help="comma-separated slugs [all]")
    parser.add_argument("--json", action="store_true", help="print JSON, not a table")
    args = parser.parse_args(argv)
    slugs = [s for s in args.games.split(",") if s] or registry.slugs()
    rows = asyncio.run(run(args, slugs))
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    print("| game | moves | state median | state p95 | delta median | delta p95 |")
    print("|---|---:|---:|---:|---:|---:|")
    for slug, row in rows.items():
        s, d = row["state"], row["delta"]
        print(
            f"| {slug} | {d['moves']} | {s['median']:.0f} B | {s['p95']} B "
            f"| {d['median']:.0f} B | {d['p95']} B |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
