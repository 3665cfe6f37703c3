"""A fresh server's dailies: how long until every game's daily of today is decided.

Starts a real ``pasyans-server serve`` as ``make run`` does (its own embedded Redis in
a new data directory, so nothing is prepared; the server's default budget and solver
workers unless flags say otherwise), then asks ``daily`` every ``--every`` seconds
with the terminal client's connection and notes, per game, when its daily was first
decided and how (certified with par, or not proven winnable), with the scan's last
progress seen. A ``games`` request each time measures how quickly the event loop
answers while the solver works. Issue 24's target: 16 of 16 certified within 180 s
on this two-core machine; issue 35's: within 300 s with two CPU hogs running beside
it (``--hogs 2``: processes spinning at the normal priority for the whole run, as
another tenant of a busy host would).

    python -m bench.fresh [--timeout 600] [--every 1] [--hogs N] [--json] [-- serve flags]

Progress goes to stderr; the table (or ``--json``) to stdout.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from client.connection import Connection
from deploy.procs import ROOT, free_port
from server.patience import registry

#: every daily certified within this many seconds of the server's start (issue 24)
TARGET_SECONDS = 180.0
#: …and with CPU hogs beside it (issue 35)
TARGET_HOGS_SECONDS = 300.0


def start_hogs(n: int) -> list[subprocess.Popen[bytes]]:
    """``n`` processes that spin at the normal priority until stopped."""
    spin = "while True: pass"
    return [subprocess.Popen([sys.executable, "-c", spin]) for _ in range(n)]


def start_server(port: int, data_dir: str, extra: list[str]) -> subprocess.Popen[bytes]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PASYANS_")}
    env["PYTHONPATH"] = str(ROOT)
    cmd = [sys.executable, "-m", "server", "serve", "--port", str(port)]
    cmd += ["--data-dir", data_dir, *extra]
    return subprocess.Popen(
        cmd,
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=open(Path(data_dir) / "server.log", "wb"),
    )


def cpu_seconds(pid: int) -> float:
    """CPU seconds (user + system) of a process and its children so far (Linux /proc)."""
    tick = os.sysconf("SC_CLK_TCK")
    total = 0.0
    pids = [pid]
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            pids += [int(p) for p in f.read().split()]
    except OSError:
        pass
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / tick
        except (OSError, IndexError, ValueError):
            pass
    return total


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
            return bool(r.status == 200)
    except OSError:
        return False


async def watch(port: int, pid: int, began: float, timeout: float, every: float) -> dict[str, Any]:
    decided: dict[str, dict[str, Any]] = {}
    last: dict[str, Any] = {}
    #: (seconds since start, slug, the server's estimate_ms) of every answer that had one
    estimates: list[tuple[float, str, int]] = []
    #: seconds since start → the games still waiting in that answer
    waiting: dict[float, int] = {}
    pings: list[float] = []
    async with Connection(f"ws://127.0.0.1:{port}/ws") as conn:
        while time.monotonic() - began < timeout:
            sent = time.monotonic()
            await conn.games()
            pings.append(time.monotonic() - sent)
            daily = await conn.daily()
            now = time.monotonic() - began
            waiting[now] = sum(1 for e in (daily.get("games") or {}).values() if e.get("preparing"))
            for slug, entry in (daily.get("games") or {}).items():
                if entry.get("preparing"):
                    last[slug] = entry["preparing"]
                    if entry["preparing"].get("estimate_ms") is not None:
                        estimates.append((now, slug, int(entry["preparing"]["estimate_ms"])))
                elif slug not in decided:
                    decided[slug] = {
                        "game": slug,
                        "seconds": round(now, 1),
                        "certified": entry.get("certified"),
                        "par": entry.get("par"),
                        "best_founded": entry.get("best_founded"),
                        "tried": (last.get(slug) or {}).get("tried"),
                        "server_cpu_s": round(cpu_seconds(pid), 1),
                    }
                    print(f"{now:6.1f} s {slug}: {decided[slug]}", file=sys.stderr, flush=True)
            if len(decided) == len(registry.slugs()):
                break
            await asyncio.sleep(every)
    rows = [decided.get(s) or {"game": s, "seconds": None} for s in registry.slugs()]
    done = [r["seconds"] for r in rows if r.get("seconds") is not None]
    return {
        "estimates": honesty(estimates, decided, every, waiting),
        "rows": rows,
        "certified": sum(1 for r in rows if r.get("certified")),
        "decided": len(done),
        "all_decided_s": max(done) if len(done) == len(rows) else None,
        "server_cpu_s": round(cpu_seconds(pid), 1),
        "games_op_ms": {
            "median": round(1000 * statistics.median(pings), 1) if pings else None,
            "max": round(1000 * max(pings), 1) if pings else None,
        },
    }


def honesty(
    estimates: list[tuple[float, str, int]],
    decided: dict[str, dict[str, Any]],
    grain: float,
    waiting: dict[float, int],
) -> dict[str, Any]:
    """How the server's estimates compare with the waits they foretold: per game, the
    estimate over the real rest (decided − asked; ≥ ``grain``, the asks' pace), the
    largest and the median ratio, and the same of the figure the terminal client
    shows (the largest estimate of an answer, when every daily waiting in it has one:
    "all in about") against the wait for the last daily of that answer. Issue 47's
    bound: never more than 3 × the real wait."""
    ratios = [
        est / 1000 / max(grain, decided[slug]["seconds"] - at)
        for at, slug, est in estimates
        if slug in decided
    ]
    shown: dict[float, tuple[int, float]] = {}
    for at, slug, est in estimates:
        if slug in decided:
            best, until = shown.get(at, (0, 0.0))
            shown[at] = (max(best, est), max(until, decided[slug]["seconds"]))
    counted: dict[float, int] = {}
    for at, _slug, _est in estimates:
        counted[at] = counted.get(at, 0) + 1
    overall = [
        est / 1000 / max(grain, until - at)
        for at, (est, until) in shown.items()
        if counted.get(at) == waiting.get(at)
    ]
    worst = sorted(
        (
            (est / 1000 / max(grain, decided[slug]["seconds"] - at), slug, at, est)
            for at, slug, est in estimates
            if slug in decided
        ),
        reverse=True,
    )[:5]
    return {
        #: the largest ratios: (ratio, game, asked at s, estimate ms, the real rest s)
        "worst": [
            (round(r, 2), slug, round(at, 1), est, round(decided[slug]["seconds"] - at, 1))
            for r, slug, at, est in worst
        ],
        "samples": len(ratios),
        "max_ratio": round(max(ratios), 2) if ratios else None,
        "median_ratio": round(statistics.median(ratios), 2) if ratios else None,
        "shown_max_ratio": round(max(overall), 2) if overall else None,
        "shown_median_ratio": round(statistics.median(overall), 2) if overall else None,
        "shown_samples": len(overall),
        "largest_estimate_s": round(max(e for _, _, e in estimates) / 1000) if estimates else None,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fresh", description=__doc__)
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds at most [600]")
    parser.add_argument("--every", type=float, default=1.0, help="seconds between asks [1]")
    parser.add_argument("--hogs", type=int, default=0, help="CPU hogs to run beside the server [0]")
    parser.add_argument("--json", action="store_true", help="print JSON, not a table")
    parser.add_argument("serve", nargs="*", help="extra flags for pasyans-server serve")
    args = parser.parse_args(argv)
    port = free_port()
    load_before = os.getloadavg()
    target = TARGET_HOGS_SECONDS if args.hogs else TARGET_SECONDS
    hogs = start_hogs(args.hogs)
    with tempfile.TemporaryDirectory(prefix="pasyans-fresh-") as data_dir:
        began = time.monotonic()
        proc = start_server(port, data_dir, args.serve)
        try:
            while not healthy(port):
                if proc.poll() is not None:
                    raise SystemExit((Path(data_dir) / "server.log").read_text())
                time.sleep(0.05)
            listening = round(time.monotonic() - began, 2)
            result = asyncio.run(watch(port, proc.pid, began, args.timeout, args.every))
        finally:
            proc.terminate()
            proc.wait(20)
            for hog in hogs:
                hog.kill()
                hog.wait()
    result |= {
        "listening_s": listening,
        "load_before": [round(x, 2) for x in load_before],
        "load_after": [round(x, 2) for x in os.getloadavg()],
        "target_s": target,
        "hogs": args.hogs,
    }
    if args.json:
        print(json.dumps(result, indent=1))
        return 0
    print(
        "| game | decided after s | certified | par | candidates tried (last seen) "
        "| server CPU s by then |"
    )
    print("|---|---:|---|---:|---:|---:|")
    for r in result["rows"]:
        par = r.get("par") if r.get("par") is not None else f"– ({r.get('best_founded')})"
        print(
            f"| {r['game']} | {r.get('seconds')} | {'yes' if r.get('certified') else 'NO'} "
            f"| {par} | {r.get('tried') if r.get('tried') is not None else '–'} "
            f"| {r.get('server_cpu_s')} |"
        )
    print(
        f"\n{result['certified']} of {len(result['rows'])} certified; all decided after "
        f"{result['all_decided_s']} s (target ≤ {target:.0f} s, {args.hogs} hogs); listening after "
        f"{listening} s; server CPU {result['server_cpu_s']} s (workers included); "
        f"'games' answered in {result['games_op_ms']['median']} ms median, "
        f"{result['games_op_ms']['max']} ms max; load {result['load_before'][0]} → "
        f"{result['load_after'][0]}"
    )
    print(f"estimates (server's estimate_ms over the real rest): {result['estimates']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
