"""Server speed: validated, persisted moves per second and latency over WebSocket +
msgpack + Redis, next to a bare websockets + msgpack echo server measured in the same
run; and idle connections per process with memory per connection.

Each server runs in its own process (the pasyans server on a real redis-server with
AOF ``everysec`` on a unix socket, as the embedded default; the echo server bare);
the load client runs here, on the same cores.
Targets (DESIGN.md): throughput ≥ 0.5 × the echo's, p99 ≤ 2 × the echo's, at 1, 100
and 1,000 players; 10,000 idle connections at ≤ 20 KiB each.

    python bench/server.py [--seconds 4] [--players 1,100,1000] [--idle 10000]

The server gets ``--rate``/``--burst`` high enough that the per-connection rate limit
never bites (the bench measures the server, not the limiter).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import msgpack  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402

import protocol as P  # noqa: E402
from tests.support.redis import RedisProcess, free_port  # noqa: E402

GAME = "crescent"


# -- the echo server (run as a subprocess) ---------------------------------------------


async def echo_server(port: int) -> None:
    from websockets.asyncio.server import ServerConnection, serve

    async def handler(ws: ServerConnection) -> None:
        async for frame in ws:
            msg = msgpack.unpackb(frame)
            await ws.send(msgpack.packb({"re": msg.get("id"), "ok": True, "echo": msg}))

    async with serve(
        handler, "127.0.0.1", port, compression=None, ping_interval=None, max_size=P.MAX_FRAME
    ):
        await asyncio.Future()


# -- helpers ----------------------------------------------------------------------------


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def wait_http(port: int, path: str = "/healthz", timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=1):
                return
        except OSError as exc:
            if getattr(exc, "code", None):  # any HTTP answer means it is up
                return
            time.sleep(0.05)
    raise RuntimeError(f"nothing answers on port {port}")


def spawn(args: list[str]) -> subprocess.Popen[bytes]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen(
        args, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL
    )


async def open_many(url: str, n: int, *, parallel: int = 200) -> list[ClientConnection]:
    sem = asyncio.Semaphore(parallel)

    async def one() -> ClientConnection:
        async with sem:
            return await connect(
                url,
                subprotocols=[P.SUBPROTOCOL],  # type: ignore[list-item]
                compression=None,
                ping_interval=None,
                open_timeout=60,
            )

    return list(await asyncio.gather(*(one() for _ in range(n))))


async def close_all(conns: list[ClientConnection]) -> None:
    await asyncio.gather(*(c.close() for c in conns), return_exceptions=True)


# -- load -------------------------------------------------------------------------------


class Player:
    """One connection playing random-ish legal moves as fast as replies come."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.ids = 0
        self.state: dict[str, Any] = {}

    async def call(self, op: str, **params: Any) -> dict[str, Any]:
        self.ids += 1
        await self.ws.send(msgpack.packb(P.request(self.ids, op, **params)))
        reply: dict[str, Any] = msgpack.unpackb(await self.ws.recv())
        if not reply.get("ok"):
            raise RuntimeError(f"{op}: {reply}")
        return reply

    async def new_game(self) -> None:
        self.state = (await self.call("start", game=GAME, mode="practice"))["state"]

    async def step(self) -> bool:
        """One move; False when the game is over (a new one is started, not timed)."""
        legal = self.state["legal"]
        if not legal:
            await self.new_game()
            return False
        move = legal[self.state["seq"] % len(legal)]
        reply = await self.call(
            "move", game_id=self.state["game_id"], seq=self.state["seq"], move=move
        )
        self.state = reply["state"]
        return True


class Echoer:
    """The same request shape against the echo server."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.ids = 0

    async def step(self) -> bool:
        self.ids += 1
        msg = P.request(
            self.ids,
            "move",
            game_id="abcdefghijkl",
            seq=self.ids,
            move={"from": "T1", "to": "FA-S"},
        )
        await self.ws.send(msgpack.packb(msg))
        msgpack.unpackb(await self.ws.recv())
        return True


Step = Callable[[], Awaitable[bool]]


async def drive(steppers: list[Step], seconds: float) -> tuple[int, list[float]]:
    latencies: list[float] = []
    stop = time.perf_counter() + seconds

    async def loop(step: Step) -> None:
        while True:
            t0 = time.perf_counter()
            if t0 >= stop:
                return
            if await step():
                latencies.append(time.perf_counter() - t0)

    t0 = time.perf_counter()
    await asyncio.gather(*(loop(s) for s in steppers))
    return len(latencies), [x for x in latencies] + [time.perf_counter() - t0]


def summarise(count: int, latencies: list[float]) -> tuple[float, float, float]:
    elapsed = latencies.pop()
    lat = sorted(latencies)
    p50 = statistics.median(lat) * 1000 if lat else 0.0
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else 0.0
    return count / elapsed, p50, p99


async def run_pasyans(port: int, players: int, seconds: float) -> tuple[float, float, float]:
    url = f"ws://127.0.0.1:{port}/ws"
    conns = await open_many(url, players)
    try:
        first = Player(conns[0])
        name = f"bench{int(time.time() * 1000) % 10**9}"
        token = (await first.call("register", name=name))["token"]
        ps = [first] + [Player(c) for c in conns[1:]]
        await asyncio.gather(*(p.call("auth", token=token) for p in ps[1:]))
        await asyncio.gather(*(p.new_game() for p in ps))
        count, lat = await drive([p.step for p in ps], seconds)
        return summarise(count, lat)
    finally:
        await close_all(conns)


async def run_echo(port: int, players: int, seconds: float) -> tuple[float, float, float]:
    conns = await open_many(f"ws://127.0.0.1:{port}/", players)
    try:
        count, lat = await drive([Echoer(c).step for c in conns], seconds)
        return summarise(count, lat)
    finally:
        await close_all(conns)


async def idle(port: int, pid: int, n: int) -> tuple[int, float]:
    url = f"ws://127.0.0.1:{port}/ws"
    warm = await open_many(url, 50)
    await close_all(warm)
    await asyncio.sleep(0.5)
    before = rss_kib(pid)
    conns = await open_many(url, n)
    await asyncio.sleep(1.0)
    after = rss_kib(pid)
    # every connection still answers
    probe = Player(conns[-1])
    await probe.call("games")
    await close_all(conns)
    return len(conns), (after - before) / len(conns)


async def main_async(args: argparse.Namespace) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = min(hard, max(soft, args.idle * 2 + 1000))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))
    tmp = Path(tempfile.mkdtemp(prefix="pasyans-bench-"))
    redis = RedisProcess(appendonly=True, directory=tmp / "redis", unix=True).start()
    sport, eport = free_port(), free_port()
    server = spawn(
        [
            sys.executable,
            "-m",
            "server",
            "serve",
            "--port",
            str(sport),
            "--redis-url",
            redis.url,
            "--rate",
            "1000000000",
            "--burst",
            "1000000000",
            "--ping-interval",
            "0",
            "--log-level",
            "warning",
            "--loop",
            args.loop,
            "--workers",
            str(args.workers),
        ]
    )
    echo = spawn([sys.executable, __file__, "--echo-server", str(eport), "--loop", args.loop])
    rows = []
    try:
        wait_http(sport)
        wait_http(eport, "/")
        for n in args.players:
            await run_echo(eport, n, 0.5)  # warm-up
            await run_pasyans(sport, n, 0.5)
            e = await run_echo(eport, n, args.seconds)
            s = await run_pasyans(sport, n, args.seconds)
            rows.append((n, s, e))
            print(
                f"  {n} players: pasyans {s[0]:,.0f}/s p50 {s[1]:.2f} p99 {s[2]:.2f} ms; "
                f"echo {e[0]:,.0f}/s p50 {e[1]:.2f} p99 {e[2]:.2f} ms",
                file=sys.stderr,
            )
        solo = args.idle and args.workers == 1
        idle_row = await idle(sport, server.pid, args.idle) if solo else None
    finally:
        for proc in (server, echo):
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(15)
        redis.cleanup()

    print()
    print(
        "| players | pasyans moves/s | p50 ms | p99 ms | echo msgs/s | p50 ms | p99 ms "
        "| throughput ratio (≥ 0.5) | p99 ratio (≤ 2) |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for n, s, e in rows:
        ratio = s[0] / e[0] if e[0] else 0
        p99r = s[2] / e[2] if e[2] else 0
        print(
            f"| {n:,} | {s[0]:,.0f} | {s[1]:.2f} | {s[2]:.2f} | {e[0]:,.0f} | {e[1]:.2f} "
            f"| {e[2]:.2f} | {ratio:.2f} | {p99r:.2f} |"
        )
    if idle_row:
        count, kib = idle_row
        print()
        print(
            f"idle connections held by one server process: {count:,}, "
            f"{kib:.1f} KiB each (target 10,000 at ≤ 20 KiB)"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="seconds per measured row")
    parser.add_argument(
        "--players", default="1,100,1000", help="comma-separated concurrent players per row"
    )
    parser.add_argument(
        "--idle", type=int, default=10_000, help="idle connections to open (0 = skip)"
    )
    parser.add_argument(
        "--loop", default="auto", help="event loop of all three processes: auto, uvloop, asyncio"
    )
    parser.add_argument("--workers", type=int, default=1, help="pasyans server processes")
    parser.add_argument("--echo-server", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    from server.__main__ import run

    if args.echo_server:
        with contextlib.suppress(KeyboardInterrupt):
            run(echo_server(args.echo_server), args.loop)
        return
    args.players = [int(x) for x in args.players.split(",") if x]
    run(main_async(args), args.loop)


if __name__ == "__main__":
    main()
