"""CPU a frame a server writes to one WebSocket connection, three ways: websockets'
own ``send`` awaited in the handler (how replies were written before issue 46), the
connection's outbox and writer task (``server.net.conn.Conn`` with the write at once
switched off: issue 46's way), and ``Conn.send`` as it is (a small frame written at
once when nothing waits before it: issue 50).

    python -m bench.conn_writes [--frames 20000] [--rounds 3] [--size 200] [--json]

One process, uvloop, a real connection on loopback; the server side sends one frame a
loop turn (as a move's reply goes out, one per request), the client reads them all.
The CPU is the process's over the frames: both ends, so compare the ways, not the
figure with a server's per move."""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

import uvloop
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve

from server.net.conn import Conn
from server.net.ratelimit import TokenBucket

WAYS = ("websockets_send", "outbox_writer", "conn_send")


class OutboxOnly(Conn):
    """A :class:`Conn` whose every frame goes through the outbox and its writer."""

    __slots__ = ()

    def _write_now(self, frame: bytes) -> bool:
        return False


async def once(way: str, frames: int, size: int) -> float:
    """CPU µs a frame, this process, ``frames`` frames of ``size`` bytes."""
    frame = b"x" * size
    done = asyncio.Event()
    result: list[float] = []

    async def handler(ws: ServerConnection) -> None:
        conn = (OutboxOnly if way == "outbox_writer" else Conn)(ws, TokenBucket(1e9, 10**9, 0.0))
        conn.start(limit=1 << 20, write_timeout=10.0)
        await ws.recv()
        t0 = time.process_time()
        for _ in range(frames):
            if way == "websockets_send":
                await ws.send(frame)
            else:
                conn.send(frame)
            await asyncio.sleep(0)
        await done.wait()
        result.append(time.process_time() - t0)
        await conn.stop()

    async with serve(handler, "127.0.0.1", 0, compression=None, ping_interval=None) as server:
        port = server.sockets[0].getsockname()[1]
        url = f"ws://127.0.0.1:{port}"
        async with connect(url, compression=None, ping_interval=None) as client:
            await client.send(b"go")
            for _ in range(frames):
                await client.recv()
            done.set()
            while not result:
                await asyncio.sleep(0.01)
    return result[0] / frames * 1e6


def main() -> None:
    ap = argparse.ArgumentParser(
        prog="python -m bench.conn_writes",
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    ap.add_argument("--frames", type=int, default=20000, help="frames a measurement")
    ap.add_argument("--rounds", type=int, default=3, help="measurements of each way, in turns")
    ap.add_argument("--size", type=int, default=200, help="bytes a frame (a move's delta)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    got: dict[str, list[float]] = {w: [] for w in WAYS}
    for _ in range(args.rounds):
        for way in WAYS:
            got[way].append(uvloop.run(once(way, args.frames, args.size)))
    med = {w: statistics.median(v) for w, v in got.items()}
    if args.json:
        print(json.dumps({"median_us": med, "runs_us": got}, indent=1))
        return
    for way in WAYS:
        runs = ", ".join(f"{x:.1f}" for x in got[way])
        print(f"{way:16} median {med[way]:6.1f} µs a frame  ({runs})")


if __name__ == "__main__":
    main()
