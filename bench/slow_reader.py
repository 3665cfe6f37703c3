"""A connection that stops reading, and a flood of ``/metrics``: do the others notice?

Starts a real ``pasyans-server serve`` (its defaults: ``--outbox-bytes``,
``--write-timeout``, the rate limits; ``/metrics`` on an operator's port of its own,
``--metrics``), then runs phases of ``--seconds`` each, in this order:

- **idle**: honest players only;
- **stalled reader**: an attacking account keeps ``--stalled`` connections that each
  sign in, ask for 300 rules pages (25 KB each) and never read, opening a new one
  whenever the server closes one (4000); the account is the creator of the race the
  event probe runs in, so every event of it goes to the stalled connections too
  (issue 46: before, that froze every player's events until the attacker closed);
- **metrics flood**: ``--scrapers`` clients ``GET /metrics`` back to back on the
  operator's port (the players' port answers it 404);
- **idle** again.

Honest players play paced moves (``--pause`` between two) on the terminal client's
own connection: their move latencies. The **event probe** measures an event's
latency: a member of the attacker's race (``watcher``) is connected; another player
leaves and joins that race again every ``--probe-every`` seconds, and the probe times
from sending ``race_join`` to the watcher's ``race`` event that shows the joiner in
(the joiner's own reply is not waited for). The attacks run in processes of their own
(``--attack``), so that their sockets slow the server only, not the honest clients.

    python -m bench.slow_reader [--seconds 6] [--players 4] [--json] [--save]

The table (or ``--json``) goes to stdout and is compared with the saved baseline
``bench/slow_reader_baseline.json`` (``--save`` writes it). Targets (issue 46): each
attack phase's honest move p99 and event p99 ≤ 2 × the idle phases'; no event lost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from typing import Any

from client.connection import Connection
from deploy.procs import ServerProcess
from protocol import Push, encode, request

from .load import Player
from .load_server.procs import cpu_seconds

BASELINE = Path(__file__).with_name("slow_reader_baseline.json")
#: an attack phase's honest p99 (moves, events) at most this many times the idle one's
TARGET = 2.0
#: the rules pages a stalled connection asks for
FLOOD = 300


def p(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(1000 * ordered[int(q * (len(ordered) - 1))], 2)


# -- the attacks (each in its own process: ``--attack KIND ...``) ---------------------------


async def stalled_connection(host: str, port: int, token: str, deadline: float) -> bool:
    """One connection that signs in, asks for :data:`FLOOD` rules pages and never
    reads; True once the server closed it (a send fails), False at ``deadline``."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    loop = asyncio.get_running_loop()
    await loop.sock_connect(sock, (host, port))
    reader, writer = await asyncio.open_connection(sock=sock)
    from websockets.client import ClientProtocol
    from websockets.protocol import State
    from websockets.typing import Subprotocol
    from websockets.uri import parse_uri

    proto = ClientProtocol(
        parse_uri(f"ws://{host}:{port}/ws"), subprotocols=[Subprotocol("pasyans.v1")]
    )
    proto.send_request(proto.connect())

    def send(msg: dict[str, Any] | None = None) -> None:
        if msg is not None:
            proto.send_binary(encode(msg))
        for data in proto.data_to_send():
            writer.write(data)

    try:
        send()
        await writer.drain()
        while proto.state is State.CONNECTING:  # the handshake's answer, the last read
            proto.receive_data(await reader.read(4096))
        send(request(1, "auth", token=token))
        for i in range(FLOOD):
            send(request(2 + i, "rules", game="carpet", lang="ru"))
        await writer.drain()
        rid = FLOOD + 2
        while time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            rid += 1
            send(request(rid, "games"))  # a send to a socket the server closed fails
            await writer.drain()
    except (ConnectionError, OSError):
        return True
    finally:
        writer.transport.abort()
    return False


async def stall(url: str, token: str, seconds: float, connections: int) -> dict[str, int]:
    host, port = url.split("//", 1)[1].split("/", 1)[0].rsplit(":", 1)
    deadline = time.monotonic() + seconds
    closed = opened = 0

    async def keep() -> None:
        nonlocal closed, opened
        while time.monotonic() < deadline:
            opened += 1
            if await stalled_connection(host, int(port), token, deadline):
                closed += 1

    await asyncio.gather(*(keep() for _ in range(connections)))
    return {"opened": opened, "closed_by_server": closed}


async def scrape(url: str, seconds: float, scrapers: int) -> dict[str, int]:
    """``scrapers`` clients GET ``url`` back to back for ``seconds``."""
    deadline = time.monotonic() + seconds
    counts = {"answered": 0, "failed": 0}

    def one() -> None:
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(url, timeout=10) as reply:
                    reply.read()
                counts["answered"] += 1
            except (urllib.error.URLError, OSError):
                counts["failed"] += 1

    await asyncio.gather(*(asyncio.to_thread(one) for _ in range(scrapers)))
    return counts


async def attack_process(args: list[str]) -> dict[str, int]:
    """An attack in a process of its own: what it got."""
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bench.slow_reader", "--attack", *args, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await proc.communicate()
    got: dict[str, int] = json.loads(out)
    return got


# -- the honest side ------------------------------------------------------------------------


class Probe:
    """Event latency: ``joiner`` leaves and joins the attacker's race, ``watcher`` (a
    member) times each ``race`` event that shows the joiner in."""

    def __init__(self, url: str, code: str) -> None:
        self.url, self.code = url, code
        self.latencies: list[float] = []
        self.lost = 0
        self._sent = 0.0
        self._joiner = ""
        self._arrived = asyncio.Event()

    def heard(self, push: Push) -> None:
        if push.name != "race" or not self._sent:
            return
        if any(row["player"] == self._joiner for row in push.fields.get("players", [])):
            self.latencies.append(time.monotonic() - self._sent)
            self._sent = 0.0
            self._arrived.set()

    async def run(self, watcher: Connection, deadline: float, every: float) -> None:
        async with Connection(self.url) as joiner:
            self._joiner = str((await joiner.register(f"j{uuid.uuid4().hex[:8]}"))["player"])
            watcher.on_event = self.heard
            while time.monotonic() < deadline:
                self._arrived.clear()
                self._sent = time.monotonic()
                race = (await joiner.race_join(self.code))["race"]
                try:  # the watcher's event (sent before the join's reply came, or after)
                    await asyncio.wait_for(self._arrived.wait(), 30)
                except TimeoutError:
                    self.lost += 1
                    self._sent = 0.0
                await joiner.race_leave(str(race["race_id"]))
                await asyncio.sleep(every)


async def phase(
    args: argparse.Namespace,
    server: ServerProcess,
    name: str,
    attacker: str,
    code: str,
    watcher: Connection,
) -> dict[str, Any]:
    url = server.url
    honest = [Player(url, f"h{uuid.uuid4().hex[:8]}", seed=7000 + i) for i in range(args.players)]
    for player in honest:  # signed in before the phase begins: only moves are timed
        await player.connect()
    seconds = args.seconds
    if name == "stalled reader":
        attack = ["stall", url, attacker, str(seconds + 1), str(args.stalled)]
    elif name == "metrics flood":
        metrics = f"http://127.0.0.1:{server.metrics_port}/metrics"
        attack = ["scrape", metrics, str(seconds + 1), str(args.scrapers)]
    else:
        attack = []
    attacking = asyncio.create_task(attack_process(attack)) if attack else None
    await asyncio.sleep(1 if attack else 0)  # the attack under way before timing starts
    deadline = time.monotonic() + seconds
    probe = Probe(url, code)
    assert server.process is not None
    cpu = cpu_seconds(server.process.pid, children=False)
    began = time.monotonic()
    await asyncio.gather(
        probe.run(watcher, deadline, args.probe_every),
        *(pl.play(1 << 30, deadline=deadline, pause=args.pause) for pl in honest),
    )
    cpu = cpu_seconds(server.process.pid, children=False) - cpu
    elapsed = time.monotonic() - began
    got = await attacking if attacking is not None else {}
    moves = [x for pl in honest for x in pl.latencies]
    return {
        "phase": name,
        "moves": len(moves),
        "move_p50_ms": p(moves, 0.5),
        "move_p99_ms": p(moves, 0.99),
        "events": len(probe.latencies),
        "events_lost": probe.lost,
        "event_p50_ms": p(probe.latencies, 0.5),
        "event_p99_ms": p(probe.latencies, 0.99),
        "attack": got,
        "server_cpu_ms_s": round(1000 * cpu / elapsed, 1),
        "errors": [pl.error for pl in honest if pl.error],
    }


async def run(args: argparse.Namespace, server: ServerProcess) -> dict[str, Any]:
    url = server.url
    attacker = Connection(url)
    await attacker.open()
    watcher = Connection(url)
    await watcher.open()
    try:
        token = str((await attacker.register(f"a{uuid.uuid4().hex[:8]}"))["token"])
        race = await attacker.race_create("crescent")
        await watcher.register(f"w{uuid.uuid4().hex[:8]}")
        await watcher.race_join(str(race["code"]))
        rows = []
        for name in ("idle", "stalled reader", "metrics flood", "idle"):
            load = os.getloadavg()[0]
            row = await phase(args, server, name, token, str(race["code"]), watcher)
            row["load"] = round(load, 2)
            rows.append(row)
            print(f"{name}: {row}", flush=True, file=sys.stderr)
    finally:
        await attacker.close()
        await watcher.close()
    idle = [r for r in rows if r["phase"] == "idle"]
    for key in ("move_p99_ms", "event_p99_ms"):
        base = [r[key] for r in idle if r[key]]
        mean = statistics.mean(base) if base else None
        for r in rows:
            r[key.replace("_ms", "_vs_idle")] = (
                round(r[key] / mean, 2) if mean and r[key] is not None else None
            )
    # what a scrape costs the server: the flood phase's CPU over the idle phases'
    idle_cpu = statistics.mean(r["server_cpu_ms_s"] for r in idle)
    for r in rows:
        answered = r["attack"].get("answered")
        if answered:
            extra_ms = (r["server_cpu_ms_s"] - idle_cpu) * args.seconds
            r["server_cpu_us_per_scrape"] = round(1000 * extra_ms / answered, 1)
    return {"rows": rows, "target": TARGET}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.slow_reader", description=__doc__)
    parser.add_argument("--seconds", type=float, default=6.0, help="seconds a phase [6]")
    parser.add_argument("--players", type=int, default=4, help="honest players [4]")
    parser.add_argument(
        "--pause", type=float, default=0.05, help="an honest player's pause between moves [0.05]"
    )
    parser.add_argument(
        "--probe-every", type=float, default=0.1, help="seconds between two event probes [0.1]"
    )
    parser.add_argument("--stalled", type=int, default=4, help="stalled connections at once [4]")
    parser.add_argument("--scrapers", type=int, default=4, help="/metrics clients at once [4]")
    parser.add_argument("--json", action="store_true", help="print JSON, not a table")
    parser.add_argument("--save", action="store_true", help="save the figures as the baseline")
    parser.add_argument("--attack", nargs="+", help="(internal) run one attack, print JSON")
    args = parser.parse_args(argv)
    if args.attack:
        kind, url, *rest = args.attack
        if kind == "stall":
            token, seconds, n = rest
            got = asyncio.run(stall(url, token, float(seconds), int(n)))
        else:
            seconds, n = rest
            got = asyncio.run(scrape(url, float(seconds), int(n)))
        print(json.dumps(got))
        return 0
    # the server's own defaults, an embedded Redis of its own; no dailies meanwhile
    with tempfile.TemporaryDirectory(prefix="pasyans-slow-reader-") as data:
        server = ServerProcess("--no-prepare-dailies", "--log-level", "warning", "--data-dir", data)
        with server:
            result = asyncio.run(run(args, server))
    result["machine_load_after"] = [round(x, 2) for x in os.getloadavg()]
    if args.save:
        BASELINE.write_text(json.dumps(result, indent=1) + "\n")
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    before = {r["phase"] + str(i): r for i, r in enumerate(baseline.get("rows", []))}
    print(
        "| phase | moves | move p99 ms | ÷ idle | events (lost) | event p50 / p99 ms | ÷ idle "
        "| baseline move / event ÷ idle | server CPU ms/s | attack | load |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---|---:|---|---:|")
    for i, r in enumerate(result["rows"]):
        b = before.get(r["phase"] + str(i), {})
        print(
            f"| {r['phase']} | {r['moves']} | {r['move_p99_ms']} | {r['move_p99_vs_idle']} | "
            f"{r['events']} ({r['events_lost']}) | {r['event_p50_ms']} / {r['event_p99_ms']} | "
            f"{r['event_p99_vs_idle']} | {b.get('move_p99_vs_idle', '–')} / "
            f"{b.get('event_p99_vs_idle', '–')} | {r['server_cpu_ms_s']} | {r['attack']} "
            f"| {r['load']} |"
        )
    for r in result["rows"]:
        if "server_cpu_us_per_scrape" in r:
            print(
                "\nserver CPU a /metrics scrape (operator's port): "
                f"{r['server_cpu_us_per_scrape']} µs"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
