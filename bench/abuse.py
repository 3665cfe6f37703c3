"""Abuse of one server process, and what a normal player notices of it:

- connections that never finish the opening handshake (a TCP connect, then nothing or
  half an HTTP request): the server closes them after ``--handshake-timeout``;
- idle authenticated connections, held open;
- one player starting practice games and creating races in a loop: only the newest
  100 games of a player stay in play and only 5 empty lobbies (docs/protocol.md), so
  the Redis keys stay bounded.

A normal player's move latency is measured before and during the abuse, with the
server's resident memory, open file descriptors and the number of Redis keys::

    python -m bench.abuse [--half-open 5000] [--idle 3000] [--starts 1000] [--races 100]

starts a ``pasyans-server`` (embedded Redis in a temporary directory);
``tests/faults/test_abuse.py`` runs a small version through :func:`abuse`.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import redis.asyncio as aioredis
from websockets.asyncio.client import ClientConnection
from websockets.asyncio.client import connect as ws_connect
from websockets.typing import Subprotocol

import protocol as P
from bench.load import Player, make_players
from deploy.procs import ServerProcess, open_fds, rss_kib

#: moves the normal player plays before the abuse, and again during it
MOVES = 40
#: file descriptors the server may hold after the abuse beyond those before it: its
#: Redis pool grows with the load it served (up to --redis-connections, 64) and keeps
#: its connections
FD_SLACK = 80


@dataclass
class Figures:
    p99_before: float = 0.0
    p99_during: float = 0.0
    #: the normal player's moves answered while the abuse went on
    moves_during: int = 0
    rss_before_kib: int = 0
    rss_during_kib: int = 0
    fds_before: int = 0
    fds_during: int = 0
    fds_after: int = 0
    keys_before: int = 0
    keys_after: int = 0
    #: the abuser's games kept (in play or not), practice games in play, races it
    #: made still kept, and the Redis keys of races (all of them the abuser's)
    games_kept: int = 0
    in_play: int = 0
    lobbies: int = 0
    race_keys: int = 0
    #: half-open connections the server closed, and seconds until the last was
    half_open_closed: int = 0
    half_open_seconds: float = 0.0
    idle_alive: int = 0
    player_error: str | None = None
    notes: list[str] = field(default_factory=list)

    def report(self, args: dict[str, int]) -> str:
        ms = 1000
        return (
            f"{args['half_open']} half-open connections, {args['idle']} idle signed-in ones, "
            f"{args['starts']} games started and {args['races']} races created in a loop by "
            f"one player:\n"
            f"  normal player's move p99 {self.p99_before * ms:.1f} ms before, "
            f"{self.p99_during * ms:.1f} ms during\n"
            f"  server RSS {self.rss_before_kib / 1024:.1f} MiB -> "
            f"{self.rss_during_kib / 1024:.1f} MiB during; open fds {self.fds_before} -> "
            f"{self.fds_during} during -> {self.fds_after} after\n"
            f"  Redis keys {self.keys_before} -> {self.keys_after}; the abuser's games kept "
            f"{self.games_kept} ({self.in_play} in play), races kept {self.lobbies} "
            f"({self.race_keys} race keys)\n"
            f"  half-open connections closed by the server: {self.half_open_closed}, at most "
            f"{self.half_open_seconds:.1f} s after one opened; idle ones still open: "
            f"{self.idle_alive}"
        )


def raise_fd_limit(need: int) -> None:
    """Raise this process's soft limit of open files to ``need`` (up to the hard one)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < need:
        target = need if hard == resource.RLIM_INFINITY else min(need, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))


def p99(xs: list[float]) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(len(s) * 0.99))] if s else 0.0


HalfOpen = tuple[asyncio.StreamReader, asyncio.StreamWriter, float]


async def _half_open(port: int, i: int) -> HalfOpen:
    """A connection that never finishes its handshake: nothing sent, or (odd ``i``)
    half an HTTP upgrade; with the time it was opened."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    if i % 2:
        writer.write(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n")
    return reader, writer, time.monotonic()


async def _closed_after(reader: asyncio.StreamReader, began: float, limit: float) -> float | None:
    """Seconds from ``began`` until the server closed the connection (None: not
    within ``limit``)."""
    try:
        while await asyncio.wait_for(reader.read(4096), limit):
            pass
    except TimeoutError:
        return None
    except OSError:
        pass
    return time.monotonic() - began


async def _signed_in(url: str, token: str) -> ClientConnection:
    ws = await ws_connect(url, subprotocols=[Subprotocol(P.SUBPROTOCOL)], compression=None)
    await ws.send(P.encode(P.request(1, "auth", token=token)))
    if P.decode(await ws.recv()).get("ok") is not True:
        raise RuntimeError("auth failed")
    return ws


async def _loop(url: str, starts: int, races: int) -> str:
    """One player starting ``starts`` practice games and creating ``races`` races, one
    request after another; its name."""
    name = f"abuser{uuid.uuid4().hex[:6]}"
    async with ws_connect(url, subprotocols=[Subprotocol(P.SUBPROTOCOL)]) as ws:
        rid = 1
        await ws.send(P.encode(P.request(rid, "register", name=name)))
        await ws.recv()
        for i in range(starts + races):
            rid += 1
            if i % max(1, (starts + races) // max(1, races)) == 0 and races:
                races -= 1
                req = P.request(rid, "race_create", game="crescent")
            else:
                req = P.request(rid, "start", game="crescent", mode="practice")
            await ws.send(P.encode(req))
            while "ev" in (reply := P.decode(await ws.recv(), max_size=1 << 24)):
                pass
            if reply.get("ok") is not True:
                raise RuntimeError(f"the abuser was refused: {reply}")
    return name


async def abuse(
    server: ServerProcess,
    redis_url: str,
    prefix: str,
    *,
    half_open: int,
    idle: int,
    starts: int,
    races: int,
    handshake_timeout: float,
) -> Figures:
    """Abuse ``server`` (whose Redis is ``redis_url``, keys under ``prefix``) and
    measure; see the module's docstring."""
    assert server.process is not None
    pid, url, port = server.process.pid, server.url, server.port
    raise_fd_limit(half_open + idle + 1024)
    f = Figures()
    store = aioredis.Redis.from_url(redis_url)
    player: Player = make_players(url, 1, stem="normal")[0]
    opened: list[HalfOpen] = []
    idle_conns: list[ClientConnection] = []
    try:
        await player.play(MOVES, deadline=time.monotonic() + 30, pause=0.0)
        f.p99_before = p99(player.latencies)
        f.rss_before_kib, f.fds_before = rss_kib(pid), open_fds(pid)
        f.keys_before = await store.dbsize()

        for i in range(0, half_open, 100):
            chunk = range(i, min(half_open, i + 100))
            opened += await asyncio.gather(*(_half_open(port, j) for j in chunk))
        # (a generous limit: it only stops a wait for a server that never closes them)
        closing = [
            asyncio.create_task(_closed_after(r, at, handshake_timeout + 60)) for r, _, at in opened
        ]
        owner = make_players(url, 1, stem="idle")[0]
        await owner.connect()  # registers
        await owner.drop()
        for i in range(0, idle, 100):
            chunk = range(i, min(idle, i + 100))
            idle_conns += await asyncio.gather(*(_signed_in(url, owner.token) for _ in chunk))

        f.rss_during_kib, f.fds_during = rss_kib(pid), open_fds(pid)  # every connection open
        done = len(player.latencies)
        loop = asyncio.create_task(_loop(url, starts, races))
        # the normal player plays all the while the loop runs (and MOVES moves at least)
        deadline = time.monotonic() + 60
        while (not loop.done() or player.moves < 2 * MOVES) and time.monotonic() < deadline:
            await player.play(player.moves + 10, deadline=deadline, pause=0.0)
            if player.error:
                break
        f.p99_during = p99(player.latencies[done:])
        f.moves_during = len(player.latencies) - done
        f.player_error = player.error
        abuser = await loop
        f.rss_during_kib = max(f.rss_during_kib, rss_kib(pid))

        waits = await asyncio.gather(*closing)
        closed = [w for w in waits if w is not None]
        f.half_open_closed = len(closed)
        f.half_open_seconds = max(closed, default=0.0)
        f.idle_alive = sum(1 for ws in idle_conns if ws.close_code is None)
        f.keys_after = await store.dbsize()
        keys = f"{prefix}pl:{{{abuser}}}"
        f.games_kept = await store.zcard(f"{keys}:games")
        f.in_play = await store.zcard(f"{keys}:inplay")
        f.lobbies = await store.zcard(f"{keys}:races")
        # (a race's ``watch`` lease lives for one presence beat: not counted)
        race_keys = [k async for k in store.scan_iter(match=f"{prefix}race*")]
        f.race_keys = sum(1 for k in race_keys if not k.endswith(b":watch"))
    finally:
        for _, writer, _ in opened:
            writer.close()
        await asyncio.gather(*(ws.close() for ws in idle_conns), return_exceptions=True)
        await store.aclose()
    deadline = time.monotonic() + 60  # given back at once: a loaded machine takes longer
    while open_fds(pid) > f.fds_before + FD_SLACK and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    f.fds_after = open_fds(pid)
    return f


async def main_async(args: argparse.Namespace) -> None:
    prefix = f"ab{uuid.uuid4().hex[:6]}:"
    with tempfile.TemporaryDirectory(prefix="pasyans-abuse-") as tmp:
        data = Path(tmp) / "data"
        flags = [
            "--key-prefix",
            prefix,
            "--rate",
            "100000",
            "--burst",
            "100000",
            "--log-level",
            "warning",
            "--handshake-timeout",
            str(args.handshake_timeout),
            "--no-prepare-dailies",
        ]
        with ServerProcess("--data-dir", str(data), *flags) as server:
            sizes = {
                "half_open": args.half_open,
                "idle": args.idle,
                "starts": args.starts,
                "races": args.races,
            }
            figures = await abuse(
                server,
                f"unix://{data / 'redis.sock'}",
                prefix,
                handshake_timeout=args.handshake_timeout,
                **sizes,
            )
            print(figures.report(sizes))
            log = server.output()
            print("traceback in the server log" if "Traceback" in log else "no traceback")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--half-open", type=int, default=5_000)
    parser.add_argument("--idle", type=int, default=3_000)
    parser.add_argument("--starts", type=int, default=1_000)
    parser.add_argument("--races", type=int, default=100)
    parser.add_argument("--handshake-timeout", type=float, default=10.0)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
