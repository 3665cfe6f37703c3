"""The rows of :mod:`bench.paced`: a fresh Redis and server per count, the load in
processes of its own, the figures read around the measured seconds, the report."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import redis

from bench.load_server.procs import child_pids, cpu_seconds, rss_kib, wait_http
from deploy.procs import RedisProcess, free_port

from . import __doc__ as DOC

ROOT = Path(__file__).resolve().parents[2]
BASELINE = ROOT / "bench" / "paced_baseline.json"
#: descriptors a server process needs besides its players' (Redis pool, files, listeners)
FD_SPARE = 300


def pct(xs: list[float], q: float) -> float:
    if not xs:
        return math.nan
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def server_command(port: int, redis_url: str, args: argparse.Namespace) -> list[str]:
    if args.profile:
        runner = ["-m", "cProfile", "-o", args.profile, "-m", "server"]
    elif args.sample:
        runner = ["-m", "bench.paced.sampler", args.sample, "--"]
    else:
        runner = ["-m", "server"]
    return [
        sys.executable,
        *runner,
        *("serve", "--port", str(port), "--redis-url", redis_url),
        # a row's players all come from 127.0.0.1: no per-address limits; paced
        # players stay far inside the per-connection rate anyway
        *("--rate", "1000000", "--burst", "1000000", "--no-address-limits"),
        *("--log-level", "warning", "--no-prepare-dailies", "--workers", str(args.workers)),
    ]


def worker_command(
    args: argparse.Namespace, port: int, first: int, count: int, stamp: str
) -> list[str]:
    return [
        sys.executable,
        *("-m", "bench.paced.worker", "--url", f"ws://127.0.0.1:{port}/ws"),
        *("--first", str(first), "--count", str(count), "--stamp", stamp),
        *("--pace", str(args.pace), "--friends-every", str(args.friends_every)),
        *("--follows", str(args.follows), "--racing", str(args.racing)),
        *("--race-size", str(args.race_size), "--warm", str(args.warm)),
        *("--seconds", str(args.seconds)),
    ]


def server_rss_kib(pid: int) -> int:
    """The server process's resident memory and its workers' (not solver processes':
    none run with --no-prepare-dailies until a hint is asked)."""
    return rss_kib(pid) + sum(rss_kib(c) for c in child_pids(pid))


def redis_info(client: redis.Redis) -> dict[str, float]:
    info: dict[str, Any] = client.info()
    return {
        k: float(info[k])
        for k in (
            "used_memory",
            "total_commands_processed",
            "total_net_input_bytes",
            "total_net_output_bytes",
        )
    }


def workers_for(args: argparse.Namespace, n: int) -> int:
    """Server processes for ``n`` players: ``--workers``, or more when one process
    would need more descriptors than the hard limit (``ulimit -Hn``) allows (each
    holds one a player, and :data:`FD_SPARE`). The soft limit is raised to the hard
    one here (the server and the load processes inherit it)."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    need = max(int(args.workers), math.ceil(n / max(1, hard - FD_SPARE)))
    if need > args.workers:
        print(
            f"  {n} players: {need} server processes (--workers), the hard limit of open "
            f"files being {hard}",
            file=sys.stderr,
        )
    return need


async def row(args: argparse.Namespace, n: int) -> dict[str, Any]:
    args = argparse.Namespace(**{**vars(args), "workers": workers_for(args, n)})
    tmp = Path(tempfile.mkdtemp(prefix="pasyans-paced-"))
    store = RedisProcess(appendonly=True, directory=tmp / "redis", unix=True).start()
    port = free_port()
    log = (tmp / "server.log").open("wb")
    server = subprocess.Popen(
        server_command(port, store.url, args),
        cwd=ROOT,
        env=env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    workers: list[subprocess.Popen[str]] = []
    try:
        wait_http(port, timeout=60)
        assert store.process is not None
        client = redis.Redis(unix_socket_path=str(store.socket_path))
        rss_idle = server_rss_kib(server.pid)
        stamp = f"p{int(time.time()) % 10**6}"
        per = math.ceil(n / math.ceil(n / args.per_process))
        began = time.monotonic()
        for first in range(0, n, per):
            workers.append(
                subprocess.Popen(
                    worker_command(args, port, first, min(per, n - first), stamp),
                    cwd=ROOT,
                    env=env(),
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                )
            )
        for w in workers:  # each says "ready" once its players are signed in and racing
            assert w.stdout is not None
            line = await asyncio.to_thread(w.stdout.readline)
            if line.strip() != "ready":
                raise RuntimeError(f"a load process failed before its players were ready: {line!r}")
        setup_s = time.monotonic() - began
        print(f"  {n} players connected, signed in and racing in {setup_s:.0f} s", file=sys.stderr)
        load0 = os.getloadavg()[0]
        for w in workers:
            assert w.stdin is not None
            w.stdin.write("go\n")
            w.stdin.flush()
        await asyncio.sleep(args.warm)
        t0 = time.perf_counter()
        if args.sample:
            server.send_signal(signal.SIGUSR1)
        cpu0, rcpu0 = cpu_seconds(server.pid), cpu_seconds(store.process.pid, children=False)
        info0 = redis_info(client)
        await asyncio.sleep(args.seconds)
        elapsed = time.perf_counter() - t0
        cpu1, rcpu1 = cpu_seconds(server.pid), cpu_seconds(store.process.pid, children=False)
        if args.sample:
            server.send_signal(signal.SIGUSR2)
        info1 = redis_info(client)
        rss = server_rss_kib(server.pid)
        load1 = os.getloadavg()[0]
        outs = []
        for w in workers:
            assert w.stdout is not None
            line = await asyncio.wait_for(asyncio.to_thread(w.stdout.readline), 120)
            outs.append(json.loads(line))
        client.close()
    except BaseException:
        log.flush()
        tail = (tmp / "server.log").read_text(errors="replace").splitlines()[-15:]
        print("the server's log ended:", *tail, sep="\n  ", file=sys.stderr)
        raise
    finally:
        for w in workers:
            with contextlib.suppress(subprocess.TimeoutExpired):
                w.wait(30)
            if w.poll() is None:
                w.kill()
        server.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            server.wait(20)
        if server.poll() is None:
            server.kill()
        store.cleanup()
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)
    return figures(
        n,
        args,
        outs,
        elapsed,
        cpu1 - cpu0,
        rcpu1 - rcpu0,
        info0,
        info1,
        rss,
        rss_idle,
        (load0, load1),
        setup_s,
    )


def figures(
    n: int,
    args: argparse.Namespace,
    outs: list[dict[str, Any]],
    elapsed: float,
    server_cpu: float,
    redis_cpu: float,
    info0: dict[str, float],
    info1: dict[str, float],
    rss: int,
    rss_idle: int,
    load: tuple[float, float],
    setup_s: float,
) -> dict[str, Any]:
    moves = [x for o in outs for x in o["moves"]]
    events = [x for o in outs for x in o["events"]]
    friends = [x for o in outs for x in o["friends"]]
    seconds = statistics.mean(o["seconds"] for o in outs)
    d = {k: info1[k] - info0[k] for k in info0}
    return {
        "players": n,
        "workers": args.workers,
        "racing": sum(o["racing"] for o in outs),
        "load_processes": len(outs),
        "pace_s": args.pace,
        "seconds": round(elapsed, 1),
        "setup_s": round(setup_s, 1),
        "moves_s": round(len(moves) / seconds, 1),
        "move_p50_ms": round(pct(moves, 0.5), 2),
        "move_p99_ms": round(pct(moves, 0.99), 2),
        "move_max_ms": round(max(moves, default=math.nan), 1),
        "events": len(events),
        "event_p50_ms": round(pct(events, 0.5), 2),
        "event_p99_ms": round(pct(events, 0.99), 2),
        "friends_looks": len(friends),
        "friends_p99_ms": round(pct(friends, 0.99), 2),
        "server_cpu": round(server_cpu / elapsed, 3),
        "server_us_move": round(server_cpu / max(1, len(moves)) * 1e6 * seconds / elapsed, 1),
        "server_rss_mib": round(rss / 1024, 1),
        "rss_kib_player": round((rss - rss_idle) / n, 2),
        "redis_cpu": round(redis_cpu / elapsed, 3),
        "redis_mib": round(info1["used_memory"] / 2**20, 1),
        "redis_ops_s": round(d["total_commands_processed"] / elapsed, 1),
        "redis_net_in_s": round(d["total_net_input_bytes"] / elapsed),
        "redis_net_out_s": round(d["total_net_output_bytes"] / elapsed),
        "net_in_player_s": round(sum(o["received"] for o in outs) / seconds / n, 1),
        "net_out_player_s": round(sum(o["sent"] for o in outs) / seconds / n, 1),
        "client_cpu": round(sum(o["cpu_s"] for o in outs) / seconds, 3),
        "load": [round(x, 2) for x in load],
        "errors": sum(o["error_count"] for o in outs),
        "error_sample": [e for o in outs for e in o["errors"]][:5],
    }


COLUMNS = [
    ("N", "players", "{:>6}"),
    ("mv/s", "moves_s", "{:>6.0f}"),
    ("p50", "move_p50_ms", "{:>6.1f}"),
    ("p99", "move_p99_ms", "{:>6.1f}"),
    ("ev p99", "event_p99_ms", "{:>6.1f}"),
    ("fr p99", "friends_p99_ms", "{:>6.1f}"),
    ("srv cpu", "server_cpu", "{:>7.2f}"),
    ("µs/mv", "server_us_move", "{:>6.0f}"),
    ("RSS MiB", "server_rss_mib", "{:>7.0f}"),
    ("KiB/pl", "rss_kib_player", "{:>6.1f}"),
    ("rd cpu", "redis_cpu", "{:>6.2f}"),
    ("rd MiB", "redis_mib", "{:>6.0f}"),
    ("rd op/s", "redis_ops_s", "{:>7.0f}"),
    ("B/s/pl", "net_in_player_s", "{:>6.0f}"),
    ("cl cpu", "client_cpu", "{:>6.2f}"),
    ("errs", "errors", "{:>4}"),
]


def print_table(rows: list[dict[str, Any]], baseline: dict[str, Any]) -> None:
    print(" ".join(f"{h:>{len(f.format(0)) if 'f' not in f else 7}}" for h, _, f in COLUMNS))
    for r in rows:
        print(" ".join(f.format(r[k]) for _, k, f in COLUMNS), end="")
        print(f"  load {r['load'][0]:.1f}→{r['load'][1]:.1f}")
    print(
        "p50/p99: a move's ms (send to reply); ev: a race move to each other member's event; "
        "fr: friends; cpu in cores; B/s/pl: server→client bytes a second a player"
    )
    for r in rows:
        base = baseline.get(str(r["players"]))
        if base:
            print(
                f"vs baseline at {r['players']}: "
                f"p99 × {r['move_p99_ms'] / base['move_p99_ms']:.2f}, "
                f"server µs a move × {r['server_us_move'] / base['server_us_move']:.2f} "
                f"(baseline load {base['load'][0]:.1f})"
            )
        if r["error_sample"]:
            print(f"errors at {r['players']}: {r['error_sample']}")


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(
        prog="python -m bench.paced",
        description=DOC.split("\n\n")[0] if DOC else None,
        formatter_class=argparse.ArgumentDefaultsHelpFormatter,
    )
    ap.add_argument("--players", default="1000,5000,10000,20000", help="comma-separated counts")
    ap.add_argument("--seconds", type=float, default=30.0, help="measured seconds a row")
    ap.add_argument("--warm", type=float, default=10.0, help="seconds played before measuring")
    ap.add_argument("--pace", type=float, default=5.0, help="seconds between a player's moves")
    ap.add_argument(
        "--friends-every",
        type=float,
        default=60.0,
        help="seconds between looks at friends (0: none)",
    )
    ap.add_argument("--follows", type=int, default=3, help="players each player follows")
    ap.add_argument("--racing", type=float, default=0.2, help="share of players in races")
    ap.add_argument("--race-size", type=int, default=4, help="members of a race")
    ap.add_argument("--per-process", type=int, default=5000, help="players a load process")
    ap.add_argument(
        "--workers",
        type=int,
        default=1,
        help="server processes (--workers of serve); more when a count needs more open "
        "files than the hard limit gives one process",
    )
    ap.add_argument(
        "--profile",
        metavar="PATH",
        help="run the server under cProfile, its stats written to PATH when it stops "
        "(read with python -m pstats PATH; slows the server: no figures from such a run)",
    )
    ap.add_argument(
        "--sample",
        metavar="PATH",
        help="sample the server's stacks over the measured seconds (bench.paced.sampler: "
        "PATH collapsed stacks, PATH.top by function; --workers 1 only)",
    )
    ap.add_argument("--json", action="store_true", help="print the rows as JSON")
    ap.add_argument(
        "--save", action="store_true", help=f"make this run the baseline ({BASELINE.name})"
    )
    return ap


def main() -> None:
    args = parser().parse_args()
    counts = [int(x) for x in args.players.split(",") if x.strip()]
    rows = []
    for n in counts:
        print(f"row of {n} players …", file=sys.stderr)
        rows.append(asyncio.run(row(args, n)))
    baseline = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    if args.json:
        print(json.dumps({"rows": rows}, indent=1))
    else:
        print_table(rows, baseline)
    if args.save:
        saved = {**baseline, **{str(r["players"]): r for r in rows}}
        BASELINE.write_text(json.dumps(saved, indent=1, sort_keys=True) + "\n")
