"""``pasyans-server``: the command line of the server.

pasyans-server serve [--host 127.0.0.1] [--port 8765] [--data-dir DIR]
                     [--redis-url URL | --redis-cluster HOST:PORT,...] ...
                     (every flag also a PASYANS_* variable)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import logging
import os
import signal
import socket
import sys
from collections.abc import Coroutine, Sequence
from typing import Any

from .settings import Settings, env_name

log = logging.getLogger("pasyans.server")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pasyans-server",
        description="The pasyans server: daily seeded Russian patiences over WebSocket.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    serve = commands.add_parser(
        "serve",
        help="serve ws://HOST:PORT/ws, /healthz and /metrics",
        description=(
            "Serve the game over WebSocket (ws://HOST:PORT/ws, subprotocol pasyans.v1), "
            "with GET /healthz and GET /metrics on the same port. Without --redis-url "
            "(or REDIS_URL) or --redis-cluster it starts its own redis-server on a unix "
            "socket in --data-dir, with append-only persistence. Every option can also be set "
            "with the environment variable shown; flags win. SIGTERM or SIGINT shuts "
            "down gracefully."
        ),
    )
    Settings.parser(serve)
    return parser


def _stop_event() -> asyncio.Event:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    return stop


async def serve(settings: Settings) -> None:
    """One server process until SIGTERM/SIGINT."""
    from .net import App

    app = App(settings)
    stop = _stop_event()
    try:
        await app.start()
        print(f"pasyans-server: ws://{settings.host}:{app.port}/ws", flush=True)
        await stop.wait()
        log.info("shutting down")
    finally:
        await app.stop()


async def supervise(settings: Settings) -> None:
    """``--workers N``: N server processes on one port (SO_REUSEPORT) and one Redis,
    each restarted if it dies; SIGTERM/SIGINT is passed on to every worker."""
    from .store import EmbeddedRedis
    from .store.embedded import die_with_parent

    stop = _stop_event()
    embedded = None
    url = settings.redis_url
    if url is None and not settings.redis_cluster:
        embedded = EmbeddedRedis(settings.data_dir, binary=settings.redis_server)
        await embedded.start()
        url = embedded.url
    port = settings.port or _free_port(settings.host)
    worker = dataclasses.replace(settings, workers=1, reuse_port=True, redis_url=url, port=port)
    env = {**os.environ, **_as_env(worker)}
    cmd = [sys.executable, "-m", "server", "serve"]
    procs: list[asyncio.subprocess.Process] = []

    async def spawn() -> asyncio.subprocess.Process:
        return await asyncio.create_subprocess_exec(
            *cmd, env=env, stdin=asyncio.subprocess.DEVNULL, preexec_fn=die_with_parent
        )

    async def keep(i: int) -> None:
        while not stop.is_set():
            code = await procs[i].wait()
            if stop.is_set():
                return
            log.error("worker %d exited with %s; restarting", i, code)
            await asyncio.sleep(0.5)
            procs[i] = await spawn()

    try:
        procs.extend([await spawn() for _ in range(settings.workers)])
        keepers = [asyncio.create_task(keep(i)) for i in range(len(procs))]
        print(
            f"pasyans-server: {settings.workers} workers on ws://{settings.host}:{port}/ws",
            flush=True,
        )
        await stop.wait()
        for task in keepers:
            task.cancel()
    finally:
        for proc in procs:
            if proc.returncode is None:
                proc.send_signal(signal.SIGTERM)
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                await proc.wait()
        if embedded is not None:
            await embedded.stop()


def _free_port(host: str) -> int:
    with socket.socket() as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def _as_env(settings: Settings) -> dict[str, str]:
    env = {}
    for f in dataclasses.fields(settings):
        value = getattr(settings, f.name)
        if value is not None:
            env[env_name(f.name)] = str(int(value)) if isinstance(value, bool) else str(value)
    return env


def run(main: Coroutine[Any, Any, None], loop: str) -> None:
    """Run ``main`` on uvloop (when chosen or, for ``auto``, installed) or asyncio."""
    if loop in ("auto", "uvloop"):
        try:
            import uvloop
        except ImportError:
            if loop == "uvloop":
                main.close()
                raise SystemExit("pasyans-server: uvloop is not installed") from None
        else:
            uvloop.run(main)
            return
    asyncio.run(main)


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "serve":
        settings = Settings.from_namespace(args)
        if settings.redis_cluster:
            from .store.cluster import ClusterSpec, check_prefix

            try:
                ClusterSpec.parse(settings.redis_cluster)
                check_prefix(settings.key_prefix)
            except ValueError as exc:
                raise SystemExit(f"pasyans-server: --redis-cluster: {exc}") from None
        logging.basicConfig(
            level=settings.log_level.upper(),
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        )
        if settings.log_level.lower() != "debug":
            logging.getLogger("websockets").setLevel(logging.WARNING)
        entry = supervise(settings) if settings.workers > 1 else serve(settings)
        with contextlib.suppress(KeyboardInterrupt):
            run(entry, settings.loop)
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
