"""The benchmark's processes: starting a server, waiting for it to answer, and reading
what a process spends (CPU, memory) and which processes it started."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from deploy.local import LocalDeployment

ROOT = Path(__file__).resolve().parents[2]


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


def reference_command(flag: str, port: int, loop: str, redis_url: str = "") -> list[str]:
    """The process of one reference server of :mod:`.servers` (``flag``:
    ``--echo-server``, ``--floor-server`` or ``--floor-engine-server``), on the Redis at
    ``redis_url`` (none for the echo)."""
    redis = ["--redis-url", redis_url] if redis_url else []
    return [sys.executable, "-m", "bench.load_server", flag, str(port), *redis, "--loop", loop]


def cpu_seconds(pid: int, *, children: bool = True) -> float:
    """User + system CPU time of a process and (``children``) of its children still
    running (server workers; not wanted when the children are solver processes)."""
    total = 0.0
    pids = [pid]
    with contextlib.suppress(OSError):
        if children:
            text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
            pids += [int(c) for c in text.split()]
    for p in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def child_pids(pid: int) -> list[int]:
    """The processes ``pid`` started (any of its threads), still running."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in Path(f"/proc/{pid}/task").iterdir():
            with contextlib.suppress(OSError):
                found += [int(c) for c in (task / "children").read_text().split()]
    return found


def server_command(
    port: int, redis_url: str, args: argparse.Namespace, *, prepare: bool = False
) -> list[str]:
    """The pasyans server of the single-Redis rows (``prepare``: preparing dailies)."""
    return [
        sys.executable,
        "-m",
        "server",
        "serve",
        "--port",
        str(port),
        "--redis-url",
        redis_url,
        "--rate",
        "1000000000",
        "--burst",
        "1000000000",
        "--ping-interval",
        "0",
        "--log-level",
        "warning",
        "--prepare-dailies" if prepare else "--no-prepare-dailies",
        "--no-address-limits",  # every player registers from 127.0.0.1
        "--loop",
        args.loop,
        "--workers",
        "1" if prepare else str(args.workers),
    ]


async def start_cluster(args: argparse.Namespace) -> LocalDeployment | None:
    """A local Redis Cluster of three primaries, each with a replica (deploy/local.py),
    and one pasyans server on it, for the rows at ``--cluster-players``; None (said)
    if the cluster cannot start."""
    from deploy.local import LaunchError, LocalDeployment

    server_args = [
        *("--rate", "1000000000", "--burst", "1000000000", "--ping-interval", "0"),
        *("--log-level", "warning", "--loop", args.loop, "--no-prepare-dailies"),
        "--no-address-limits",  # every player registers from 127.0.0.1
    ]
    deployment = LocalDeployment(instances=1, masters=3, replicas=1, server_args=server_args)
    try:
        return await asyncio.to_thread(deployment.start)
    except (LaunchError, OSError) as exc:
        print(f"  no Redis Cluster row: {exc}", file=sys.stderr)
        return None
