"""What a message between instances costs on a Redis Cluster: classic ``PUBLISH``
against sharded ``SPUBLISH`` (issue 50; ``server/store/channels.py``).

Starts a local 3-master cluster of Redis 7 (``deploy.local``; Debian's ``redis-server``,
or ``--redis-server``) and, for each kind, ``--instances`` listeners made as the server
makes its news listener (``Store.pubsub()``): under classic pub/sub each subscribes to
the race channels' pattern, as every server instance does; under sharded pub/sub each
follows its own races only. ``--channels`` race channels, each followed by
``--followers`` of the listeners (a race's members are on a few instances). Then two
phases a kind:

- **paced**: ``--rate`` messages a second for ``--seconds``, on channels drawn at
  random, through ``Store.spublish`` (the server's own call): the delivery latency
  (publish to the listener's read, p50/p99, over the deliveries a follower wants),
  each node's CPU (``INFO cpu``, user + sys, ms per second of the phase) and the
  messages every listener had to read (classic: every one; sharded: its own);
- **flood**: ``--burst`` messages from ``--publishers`` concurrent publishers as fast
  as they go: messages a second, and each node's CPU per 1,000 messages.

Everything runs in one process (publishers and listeners on one event loop, as in a
server), so its latencies include the loop's own turns; the bench's own CPU is
reported apart. The machine's load (``os.getloadavg``) goes with every row.

    python -m bench.pubsub [--seconds 4] [--rate 300] [--burst 10000] [--json] [--save]

The table (or ``--json``) goes to stdout, compared with the saved baseline
``bench/pubsub_baseline.json`` (``--save`` writes it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import struct
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

import redis

from deploy.local.cluster import LocalCluster, find_redis_7, start_cluster
from server.store import Store
from server.store.channels import Listening

BASELINE = Path(__file__).with_name("pubsub_baseline.json")
KINDS = ("classic", "sharded")


def pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[int(q * (len(ordered) - 1))] * 1000, 2)


def node_cpu(cluster: LocalCluster) -> list[float]:
    """CPU seconds (user + sys) each master has used so far."""
    out = []
    for port in cluster.ports[: cluster.masters]:
        client = redis.Redis(host="127.0.0.1", port=port, socket_timeout=5)
        try:
            info = client.info("cpu")
            out.append(float(info["used_cpu_user"]) + float(info["used_cpu_sys"]))
        finally:
            client.close()
    return out


class Listener:
    """One instance's news listener: counts what it reads, times what it wanted."""

    def __init__(self, store: Store, wanted: set[str], pattern: bool) -> None:
        self.store = store
        self.wanted = wanted
        self.pattern = pattern
        self.read = 0
        self.latencies: list[float] = []
        self.listening: Listening | None = None

    async def start(self) -> None:
        self.listening = self.store.pubsub()
        await self.listening.subscribe(self.store.keys.ban_channel())
        if self.pattern:
            await self.listening.psubscribe(self.store.keys.race_channels())
        else:
            await self.listening.follow(*sorted(self.wanted))

    async def run(self) -> None:
        assert self.listening is not None
        while True:
            msg = await self.listening.get_message(timeout=0.05)
            if msg is None or msg["type"] not in ("message", "pmessage", "smessage"):
                continue
            now = time.perf_counter()
            self.read += 1
            channel = msg["channel"].decode()
            if channel in self.wanted:
                (sent,) = struct.unpack("d", msg["data"][:8])
                self.latencies.append(now - sent)

    async def close(self) -> None:
        if self.listening is not None:
            await self.listening.aclose()


async def run_kind(
    kind: str, cluster: LocalCluster, args: argparse.Namespace
) -> list[dict[str, Any]]:
    prefix = f"b{uuid.uuid4().hex[:6]}:"
    rng = random.Random(50)
    stores = [
        Store(cluster.spec, cluster=True, prefix=prefix, pubsub=kind)
        for _ in range(args.instances + 1)
    ]
    publisher = stores[-1]
    for s in stores:
        await s.choose_pubsub()
    assert publisher.sharded == (kind == "sharded")
    channels = [publisher.keys.race_channel(f"r{i}") for i in range(args.channels)]
    wanted: list[set[str]] = [set() for _ in range(args.instances)]
    for channel in channels:
        for i in rng.sample(range(args.instances), args.followers):
            wanted[i].add(channel)
    listeners = [
        Listener(stores[i], wanted[i], pattern=kind == "classic") for i in range(args.instances)
    ]
    tasks: list[asyncio.Task[None]] = []
    rows = []
    try:
        for listener in listeners:
            await listener.start()
        tasks = [asyncio.create_task(listener.run()) for listener in listeners]
        await asyncio.sleep(0.5)  # every subscription answered

        pad: bytes = b"x" * (int(args.size) - 8)

        def payload() -> bytes:
            return bytes(struct.pack("d", time.perf_counter())) + pad

        async def settle(expected: int) -> None:
            deadline = time.monotonic() + 10
            while (
                sum(len(x.latencies) for x in listeners) < expected and time.monotonic() < deadline
            ):
                await asyncio.sleep(0.05)

        def reset() -> None:
            for x in listeners:
                x.read, x.latencies = 0, []

        # paced
        reset()
        cpu0, own0, t0 = node_cpu(cluster), time.process_time(), time.perf_counter()
        total = int(args.rate * args.seconds)
        expected = 0
        start = time.perf_counter()
        flying: set[asyncio.Task[None]] = set()
        for n in range(total):
            channel = rng.choice(channels)
            expected += sum(1 for w in wanted if channel in w)
            task = asyncio.create_task(publisher.spublish(channel, payload()))
            flying.add(task)
            task.add_done_callback(flying.discard)
            ahead = start + (n + 1) / args.rate - time.perf_counter()
            if ahead > 0:
                await asyncio.sleep(ahead)
        await asyncio.gather(*flying)
        elapsed = time.perf_counter() - t0
        await settle(expected)
        cpu1, own1 = node_cpu(cluster), time.process_time()
        lat = [v for x in listeners for v in x.latencies]
        rows.append(
            {
                "kind": kind,
                "phase": "paced",
                "messages": total,
                "msgs_s": round(total / elapsed),
                "deliveries_wanted": expected,
                "delivered": len(lat),
                "read_per_listener": round(statistics.mean(x.read for x in listeners)),
                "p50_ms": pct(lat, 0.5),
                "p99_ms": pct(lat, 0.99),
                "node_cpu_ms_s": [
                    round((b - a) * 1000 / elapsed, 1) for a, b in zip(cpu0, cpu1, strict=True)
                ],
                "bench_cpu_ms_s": round((own1 - own0) * 1000 / elapsed, 1),
                "load": round(os.getloadavg()[0], 2),
            }
        )

        # flood
        reset()
        cpu0, own0, t0 = node_cpu(cluster), time.process_time(), time.perf_counter()
        each = args.burst // args.publishers
        picks = [rng.choice(channels) for _ in range(each * args.publishers)]
        expected = sum(sum(1 for w in wanted if c in w) for c in picks)

        async def flood(part: list[str]) -> None:
            for channel in part:
                await publisher.spublish(channel, payload())

        await asyncio.gather(*(flood(picks[i :: args.publishers]) for i in range(args.publishers)))
        elapsed = time.perf_counter() - t0
        await settle(expected)
        cpu1, own1 = node_cpu(cluster), time.process_time()
        lat = [v for x in listeners for v in x.latencies]
        sent = len(picks)
        rows.append(
            {
                "kind": kind,
                "phase": "flood",
                "messages": sent,
                "msgs_s": round(sent / elapsed),
                "deliveries_wanted": expected,
                "delivered": len(lat),
                "read_per_listener": round(statistics.mean(x.read for x in listeners)),
                "p50_ms": pct(lat, 0.5),
                "p99_ms": pct(lat, 0.99),
                "node_cpu_ms_per_1k": [
                    round((b - a) * 1e6 / sent, 1) for a, b in zip(cpu0, cpu1, strict=True)
                ],
                "bench_cpu_ms_per_1k": round((own1 - own0) * 1e6 / sent, 1),
                "load": round(os.getloadavg()[0], 2),
            }
        )
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for listener in listeners:
            await listener.close()
        for s in stores:
            await s.close()
    return rows


def table(rows: list[dict[str, Any]], baseline: dict[str, Any]) -> str:
    old = {(r["kind"], r["phase"]): r for r in baseline.get("rows", [])}
    lines = [
        f"{'kind':<8} {'phase':<6} {'msgs/s':>8} {'wanted':>7} {'got':>7} {'read/inst':>9} "
        f"{'p50 ms':>7} {'p99 ms':>7}  {'node CPU':<24} {'bench CPU':>9} {'load':>5}  "
        "baseline msgs/s, p99"
    ]
    for r in rows:
        cpu: list[float] = r.get("node_cpu_ms_s") or r.get("node_cpu_ms_per_1k") or []
        unit = "ms/s" if "node_cpu_ms_s" in r else "ms/1k"
        bench = r.get("bench_cpu_ms_s", r.get("bench_cpu_ms_per_1k"))
        b = old.get((r["kind"], r["phase"]))
        was = f"{b['msgs_s']}, {b['p99_ms']}" if b else "-"
        lines.append(
            f"{r['kind']:<8} {r['phase']:<6} {r['msgs_s']:>8} {r['deliveries_wanted']:>7} "
            f"{r['delivered']:>7} {r['read_per_listener']:>9} {r['p50_ms']!s:>7} "
            f"{r['p99_ms']!s:>7}  "
            f"{'/'.join(str(c) for c in cpu) + ' ' + unit:<24} {bench!s:>9} {r['load']:>5}  {was}"
        )
    return "\n".join(lines)


def parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.pubsub", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("--seconds", type=float, default=4.0, help="length of the paced phase")
    parser.add_argument("--rate", type=int, default=300, help="messages a second, paced")
    parser.add_argument("--burst", type=int, default=10000, help="messages of the flood")
    parser.add_argument(
        "--publishers", type=int, default=16, help="concurrent publishers of the flood"
    )
    parser.add_argument("--instances", type=int, default=6, help="listeners (server instances)")
    parser.add_argument("--channels", type=int, default=600, help="race channels")
    parser.add_argument("--followers", type=int, default=2, help="listeners following each channel")
    parser.add_argument("--size", type=int, default=400, help="bytes a message (a race's news)")
    parser.add_argument("--redis-server", help="a redis-server of Redis 7 or later")
    parser.add_argument("--json", action="store_true", help="JSON instead of the table")
    parser.add_argument("--save", action="store_true", help="save the figures as the baseline")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    binary = args.redis_server or find_redis_7()
    if binary is None:
        print("no redis-server of Redis 7 or later (apt-get install redis-server)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="pasyans-pubsub-") as tmp:
        cluster = start_cluster(Path(tmp), masters=3, binary=binary)
        try:
            rows: list[dict[str, Any]] = []
            for kind in KINDS:
                rows += asyncio.run(run_kind(kind, cluster, args))
        finally:
            cluster.stop()
    result = {
        "rows": rows,
        "setup": {k: v for k, v in vars(args).items() if k not in ("json", "save")},
        "cpus": os.cpu_count(),
    }
    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(table(rows, baseline))
    if args.save:
        BASELINE.write_text(json.dumps(result, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
