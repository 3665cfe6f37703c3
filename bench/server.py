"""Server speed: validated, persisted moves per second and latency over WebSocket +
msgpack + Redis, next to a bare websockets + msgpack echo server measured in the same
run; and idle connections per process with memory per connection.

Each server runs in its own process (the pasyans server on a real redis-server with
AOF ``everysec`` on a unix socket, as the embedded default; the echo server bare);
the load client runs here, on the same cores.
Targets (DESIGN.md): throughput ≥ 0.5 × the echo's, p99 ≤ 2 × the echo's, at 1, 100
and 1,000 players; 10,000 idle connections at ≤ 20 KiB each.

    python bench/server.py [--seconds 4] [--players 1,100,1000] [--idle 10000] [--save]

A third server, the *floor*, is measured in the same run: it does per move only what
any server of this design must (read the frame, persist a real state with one Lua
script call on the same pipelined Redis connection, answer with a real ~2 KB state),
with no validation and no engine. Its ratio to the echo bounds what the pasyans
server can reach on this machine; the gap between the floor and pasyans is the cost
of our own code (rules, validation, bookkeeping).

Each run is compared with the saved baseline ``bench/server_baseline.json`` when present
(the ratios to the echo count: absolute figures move with the machine's load);
``--save`` makes this run the baseline.

Fairness, checked: the load client is not the bottleneck of the pasyans rows (the
server process is at ~100 % of a core while the client uses ~30–40 %); in the echo
rows both processes share the two cores, which if anything flatters pasyans. The
echo answers each request with the request itself (~90 bytes), a move's reply carries
the whole ~2 KB state: that difference is the server's real work and stays in. The
time a player spends starting a new game after one ends is in the elapsed time, not
in the move count or the latencies.

The server gets ``--rate``/``--burst`` high enough that the per-connection rate limit
never bites (the bench measures the server, not the limiter).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
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
from server.net.app import GC_THRESHOLDS  # noqa: E402
from tests.support.redis import RedisProcess, free_port  # noqa: E402

GAME = "crescent"
BASELINE = Path(__file__).with_name("server_baseline.json")


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


# -- the floor server (run as a subprocess) --------------------------------------------

FLOOR_SCRIPT = """
redis.call('HSET', KEYS[1], 'seq', ARGV[1], 'state', ARGV[2])
redis.call('RPUSH', KEYS[2], ARGV[3])
return 1
"""


async def floor_server(port: int, redis_url: str) -> None:
    """What any server of this architecture must do per move, and nothing more: read
    the frame, persist a real state with one script call on the same pipelined Redis
    connection the pasyans server uses, answer with a real (canned) ~2 KB state. No
    validation, no engine: the pasyans row over this row is what our own code costs."""
    from websockets.asyncio.server import ServerConnection, serve

    from server.patience import registry
    from server.store.pipe import ScriptPipe, sha1

    game = registry.get(GAME)
    state = game.deal(1)
    dumped = game.dumps(state)
    canned = {
        "game_id": "abcdefghijkl",
        "game": GAME,
        "mode": "practice",
        "seq": 1,
        "status": "playing",
        "moves": 1,
        "time_ms": 1000,
        "foundation": 8,
        "total": game.total,
        "deal": {"seed": 1, "commitment": None},
        "view": game.view(state),
        "legal": [m.to_wire() for m in game.legal_moves(state)],
        "clean": True,
        "ranked": False,
        "date": None,
    }
    pipe = ScriptPipe(redis_url)
    script, sha = FLOOR_SCRIPT.encode(), sha1(FLOOR_SCRIPT)
    count = 0

    async def handler(ws: ServerConnection) -> None:
        nonlocal count
        count += 1
        keys = [f"floor:{{{count}}}", f"floor:{{{count}}}:log"]
        async for frame in ws:
            msg = msgpack.unpackb(frame)
            seq = msg.get("seq", 0)
            await pipe.evalsha(script, sha, keys, [seq, dumped, frame])
            await ws.send(msgpack.packb({"re": msg.get("id"), "ok": True, "state": canned}))

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


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process and its children still running (workers)."""
    total = 0.0
    pids = [pid]
    with contextlib.suppress(OSError):
        pids += [int(c) for c in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    for p in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


Row = tuple[float, float, float, float, float]


async def drive(
    steppers: list[Step], seconds: float, pid: int
) -> tuple[int, list[float], float, float]:
    """Run the steppers for ``seconds``: (messages, latencies + [elapsed], CPU seconds
    of the server process ``pid`` and of this load client meanwhile)."""
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
    server0, client0 = cpu_seconds(pid), time.process_time()
    await asyncio.gather(*(loop(s) for s in steppers))
    server, client = cpu_seconds(pid) - server0, time.process_time() - client0
    return len(latencies), [x for x in latencies] + [time.perf_counter() - t0], server, client


def summarise(count: int, latencies: list[float], server: float, client: float) -> Row:
    """(messages/s, p50 ms, p99 ms, server CPU µs per message, client CPU µs per message)."""
    elapsed = latencies.pop()
    lat = sorted(latencies)
    p50 = statistics.median(lat) * 1000 if lat else 0.0
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000 if lat else 0.0
    per = 1e6 / count if count else 0.0
    return count / elapsed, p50, p99, server * per, client * per


async def run_pasyans(port: int, pid: int, players: int, seconds: float) -> Row:
    url = f"ws://127.0.0.1:{port}/ws"
    conns = await open_many(url, players)
    try:
        first = Player(conns[0])
        name = f"bench{int(time.time() * 1000) % 10**9}"
        token = (await first.call("register", name=name))["token"]
        ps = [first] + [Player(c) for c in conns[1:]]
        await asyncio.gather(*(p.call("auth", token=token) for p in ps[1:]))
        await asyncio.gather(*(p.new_game() for p in ps))
        return summarise(*await drive([p.step for p in ps], seconds, pid))
    finally:
        await close_all(conns)


async def run_echo(port: int, pid: int, players: int, seconds: float) -> Row:
    conns = await open_many(f"ws://127.0.0.1:{port}/", players)
    try:
        return summarise(*await drive([Echoer(c).step for c in conns], seconds, pid))
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
    # The load client keeps every player's last state (a few hundred objects each)
    # alive: with CPython's default thresholds the cyclic collector walks all of them
    # every few replies, CPU taken from the servers on the same cores. The server
    # raises its thresholds the same way (server.net.app.GC_THRESHOLDS).
    gc.set_threshold(*GC_THRESHOLDS)
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
    fport = free_port()
    floor = spawn(
        [
            sys.executable,
            __file__,
            "--floor-server",
            str(fport),
            "--redis-url",
            redis.url,
            "--loop",
            args.loop,
        ]
    )
    if args.pin:
        # The servers on the first CPU, the load client and redis-server on the others:
        # each server then competes with its own load for nothing.
        cpus = sorted(os.sched_getaffinity(0))
        first, rest = {cpus[0]}, set(cpus[1:]) or {cpus[0]}
        for proc in (server, echo, floor):
            os.sched_setaffinity(proc.pid, first)
        if redis.process is not None:
            os.sched_setaffinity(redis.process.pid, rest)
        os.sched_setaffinity(0, rest)
    rows = []
    try:
        wait_http(sport)
        wait_http(eport, "/")
        wait_http(fport, "/")
        for n in args.players:
            await run_echo(eport, echo.pid, n, 0.5)  # warm-up
            await run_echo(fport, floor.pid, n, 0.5)
            await run_pasyans(sport, server.pid, n, 0.5)
            e = await run_echo(eport, echo.pid, n, args.seconds)
            f = await run_echo(fport, floor.pid, n, args.seconds)
            s = await run_pasyans(sport, server.pid, n, args.seconds)
            rows.append((n, s, e, f))
            print(
                f"  {n} players: pasyans {s[0]:,.0f}/s p50 {s[1]:.2f} p99 {s[2]:.2f} ms; "
                f"echo {e[0]:,.0f}/s p50 {e[1]:.2f} p99 {e[2]:.2f} ms; "
                f"floor {f[0]:,.0f}/s p50 {f[1]:.2f} p99 {f[2]:.2f} ms; CPU µs per message: "
                f"server {s[3]:.0f} (client {s[4]:.0f}), echo {e[3]:.0f} (client {e[4]:.0f}), "
                f"floor {f[3]:.0f} (client {f[4]:.0f})",
                file=sys.stderr,
            )
        solo = args.idle and args.workers == 1
        idle_row = await idle(sport, server.pid, args.idle) if solo else None
    finally:
        for proc in (server, echo, floor):
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(15)
        redis.cleanup()

    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    print()
    print(
        "| players | pasyans moves/s | p50 ms | p99 ms | echo msgs/s | p50 ms | p99 ms "
        "| throughput ratio (≥ 0.5) | p99 ratio (≤ 2) | baseline ratio | baseline p99 ratio "
        "| floor msgs/s | floor p99 ms | floor ratio | floor p99 ratio "
        "| server CPU µs/move | echo CPU µs/msg | floor CPU µs/msg | baseline server µs/move |"
    )
    print("|---:" * 19 + "|")
    saved: dict[str, dict[str, float]] = {}
    for n, s, e, f in rows:
        ratio = s[0] / e[0] if e[0] else 0
        p99r = s[2] / e[2] if e[2] else 0
        fratio = f[0] / e[0] if e[0] else 0
        fp99r = f[2] / e[2] if e[2] else 0
        base = baseline.get(str(n))
        was = f"{base['ratio']:.2f} | {base['p99_ratio']:.2f}" if base else "– | –"
        was_cpu = f"{base['server_us']:.0f}" if base and "server_us" in base else "–"
        print(
            f"| {n:,} | {s[0]:,.0f} | {s[1]:.2f} | {s[2]:.2f} | {e[0]:,.0f} | {e[1]:.2f} "
            f"| {e[2]:.2f} | {ratio:.2f} | {p99r:.2f} | {was} "
            f"| {f[0]:,.0f} | {f[2]:.2f} | {fratio:.2f} | {fp99r:.2f} "
            f"| {s[3]:.0f} | {e[3]:.0f} | {f[3]:.0f} | {was_cpu} |"
        )
        saved[str(n)] = {
            "moves_per_s": round(s[0]),
            "p50_ms": round(s[1], 2),
            "p99_ms": round(s[2], 2),
            "echo_per_s": round(e[0]),
            "echo_p50_ms": round(e[1], 2),
            "echo_p99_ms": round(e[2], 2),
            "ratio": round(ratio, 3),
            "p99_ratio": round(p99r, 3),
            "server_us": round(s[3], 1),
            "client_us": round(s[4], 1),
            "echo_us": round(e[3], 1),
            "echo_client_us": round(e[4], 1),
            "floor_per_s": round(f[0]),
            "floor_p99_ms": round(f[2], 2),
            "floor_ratio": round(fratio, 3),
            "floor_p99_ratio": round(fp99r, 3),
            "floor_us": round(f[3], 1),
        }
    if args.save:
        BASELINE.write_text(json.dumps(saved, indent=2) + "\n")
        print(f"\nsaved as the baseline: {BASELINE.relative_to(ROOT)}")
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
        "--loop", default="auto", help="event loop of every process: auto, uvloop, asyncio"
    )
    parser.add_argument("--workers", type=int, default=1, help="pasyans server processes")
    parser.add_argument(
        "--pin",
        action="store_true",
        help="pin the servers to the first CPU, the load client and redis to the others",
    )
    parser.add_argument("--save", action="store_true", help="save this run as the baseline")
    parser.add_argument("--echo-server", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--floor-server", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--redis-url", default="", help=argparse.SUPPRESS)
    args = parser.parse_args()
    from server.__main__ import run

    if args.echo_server:
        with contextlib.suppress(KeyboardInterrupt):
            run(echo_server(args.echo_server), args.loop)
        return
    if args.floor_server:
        with contextlib.suppress(KeyboardInterrupt):
            run(floor_server(args.floor_server, args.redis_url), args.loop)
        return
    args.players = [int(x) for x in args.players.split(",") if x]
    run(main_async(args), args.loop)


if __name__ == "__main__":
    main()
