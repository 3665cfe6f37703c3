"""``pasyans-server``: the command line of the server.

pasyans-server serve [--host 127.0.0.1] [--port 8765] [--data-dir DIR]
                     [--redis-url URL | --redis-cluster HOST:PORT,...] ...
                     (every flag also a PASYANS_* variable)
pasyans-server prepare-dailies [--date YYYY-MM-DD] [--days N] [serve's storage flags]
pasyans-server solve GAME SEED [--seconds S] [--nodes N]
pasyans-server admin ACTION ... (ban, unban, remove-result, reports, log, backup, restore)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import errno
import logging
import os
import signal
import socket
import sys
from collections.abc import Coroutine, Sequence
from pathlib import Path
from typing import Any

from protocol import i18n
from protocol.i18n import N_

from .settings import PREPARE, Settings, env_name

log = logging.getLogger("pasyans.server")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="pasyans-server",
        description="The pasyans server: daily seeded Russian patiences over WebSocket.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    serve = commands.add_parser(
        "serve",
        help="serve ws://HOST:PORT/ws and /healthz (and /metrics on --metrics)",
        description=(
            "Serve the game over WebSocket (ws://HOST:PORT/ws, subprotocol pasyans.v1), "
            "with GET /healthz on the same port and GET /metrics on the operator's "
            "address --metrics only. Without --redis-url "
            "(or REDIS_URL) or --redis-cluster it starts its own redis-server on a unix "
            "socket in --data-dir, with append-only persistence. Every option can also be set "
            "with the environment variable shown; flags win. SIGTERM or SIGINT shuts "
            "down gracefully."
        ),
    )
    Settings.parser(serve)
    prepare = commands.add_parser(
        "prepare-dailies",
        help="choose (certify) the dailies of some days ahead of time",
        description=(
            "Choose every game's daily of --days days from --date (default: today, UTC) "
            "and store them, as the server would on first use: the first candidate the "
            "solver certifies within --candidate-nodes / --daily-nodes (the server's one "
            "budget by default). A running server keeps today's and the next days' "
            "prepared by itself; a daily already chosen is kept. Takes the same storage "
            "flags as serve."
        ),
    )
    prepare.add_argument("--date", default=None, help="first day, YYYY-MM-DD [today]")
    prepare.add_argument("--days", type=int, default=2, help="how many days [2]")
    Settings.parser(prepare, only=PREPARE)
    solve = commands.add_parser(
        "solve",
        help="search one deal for a winning line",
        description="Search GAME's deal SEED for a winning line and print the verdict "
        "(win, none: no win exists, unknown: the budget ran out), par and the line.",
    )
    solve.add_argument("game", help="a game slug (pasyans games lists them)")
    solve.add_argument("seed", type=int, help="the deal's seed, 0 <= SEED < 2**64")
    solve.add_argument("--seconds", type=float, default=30.0, help="time budget [30]")
    solve.add_argument("--nodes", type=int, default=None, help="node budget [none]")
    from .admin import add_parser

    add_parser(commands)
    return parser


def solve_command(args: argparse.Namespace) -> int:
    from .patience import registry
    from .patience.engine import UnknownGame
    from .solver import solve

    try:
        game = registry.get(args.game)
    except UnknownGame:
        raise SystemExit(
            f"pasyans-server: no game {args.game!r}; one of: {', '.join(registry.slugs())}"
        ) from None
    if not 0 <= args.seed < 1 << 64:
        raise SystemExit("pasyans-server: SEED must be 0 <= SEED < 2**64")
    result = solve(game, game.deal(args.seed), max_seconds=args.seconds, max_nodes=args.nodes)
    print(
        f"{game.slug} {args.seed}: {result.outcome} · {result.nodes} nodes in "
        f"{result.seconds:.1f} s · best {result.best_founded}/{game.total} founded"
    )
    if result.line is not None:
        print(f"par {result.par}: " + " ".join(str(m) for m in result.line))
    return 0 if result.outcome == "win" else 1


async def prepare_dailies(settings: Settings, first: str | None, days: int) -> None:
    from .services import SystemClock
    from .services.clock import day_after
    from .services.daily import Dailies
    from .solver.daily import Budget
    from .store import EmbeddedRedis, Store
    from .workers import SolverPool

    embedded = None
    url = settings.redis_cluster or settings.redis_url
    if url is None:
        embedded = EmbeddedRedis(settings.data_dir, binary=settings.redis_server)
        await embedded.start()
        url = embedded.url
    store = Store(url, cluster=bool(settings.redis_cluster), prefix=settings.key_prefix)
    # The operator waits for this one: its workers run at the normal priority.
    pool = SolverPool(settings.solver_workers, niceness=0, today_niceness=0, idle=False)
    try:
        dailies = Dailies(
            store,
            SystemClock(),
            budget=Budget(settings.candidate_nodes, settings.daily_nodes),
            pool=pool,
            first_day=settings.first_day,
        )
        date = first or dailies.today()
        from .patience import registry

        for _ in range(days):
            for slug in registry.slugs():
                choice = await dailies.choice(date, slug)
                verdict = (
                    f"certified, par {choice.par}"
                    if choice.certified
                    else f"NOT certified, best line founds {choice.best_founded}"
                )
                print(f"{date} {slug}: k={choice.k} ({choice.tried} tried) · {verdict}", flush=True)
            date = day_after(date)
    finally:
        await pool.close()
        await store.close()
        if embedded is not None:
            await embedded.stop()


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
        told = None
        if not settings.reuse_port:  # a worker of --workers: its supervisor tells
            where(settings.host, app.port)
            if settings.prepare_dailies and app.services is not None:
                told = asyncio.create_task(tell_dailies(app.services.dailies))
        await stop.wait()
        if told is not None:
            told.cancel()
        log.info(
            "shutting down: finishing the requests in flight (up to %g s), then closing "
            "the connections",
            settings.shutdown_timeout,
        )
    finally:
        await app.stop()


def operator_words() -> i18n.Words:
    """The operator's language: ``$PASYANS_LANG``, else the terminal's locale, as the
    terminal client's (docs/i18n.md)."""
    return i18n.words(i18n.pick([os.environ.get("PASYANS_LANG"), *i18n.from_environ(os.environ)]))


def say(msgid: str, **params: Any) -> str:
    """A line for the operator, in their language."""
    return operator_words()(msgid, **params)


#: the server the terminal client goes to unless told (client/config.py's DEFAULT_SERVER)
CLIENT_DEFAULT = "ws://127.0.0.1:8765/ws"


def client_command(url: str = "") -> str:
    """How to start the terminal client: the ``pasyans`` beside this one (``.venv/bin/
    pasyans`` from the source tree), else ``pasyans``; with ``--server URL`` when this
    server is not where the client goes by default (``PASYANS_PORT=8766 make run``:
    the bare command would reach another server, or none)."""
    command = "pasyans"
    beside = Path(sys.argv[0]).resolve().parent / "pasyans"
    if beside.exists():
        command = str(beside)
        with contextlib.suppress(ValueError):
            command = str(beside.relative_to(Path.cwd()))
    if url and url != CLIENT_DEFAULT:
        command += f" --server {url}"
    return command


def where(host: str, port: int) -> None:
    """Where players go: the web page and the terminal client."""
    shown = f"[{host}]" if ":" in host else host
    near = "127.0.0.1" if host in ("0.0.0.0", "::", "", "localhost") else shown
    url = f"ws://{near}:{port}/ws"  # every address: this machine's own reaches it
    print(say(N_("  web client:      http://{host}:{port}/"), host=shown, port=port), flush=True)
    print(say(N_("  terminal client: {command}"), command=client_command(url)), flush=True)


#: seconds between two lines on today's dailies while they are being certified
TELL_EVERY = 5.0


async def tell_dailies(dailies: Any) -> None:
    """Today's dailies being certified, in a line every few seconds until all are."""
    from .patience import registry

    total, last = len(registry.slugs()), -1
    date = dailies.today()
    while True:
        with contextlib.suppress(Exception):  # storage away: the next beat tells
            done = await dailies.chosen(date)
            if done >= total:
                print(say(N_("  today's dailies are ready ({n} games)"), n=total), flush=True)
                return
            if done != last:
                line = say(
                    N_(
                        "  certifying today's dailies winnable: {done} of {n} ready "
                        "(a minute or two; players meanwhile see their progress)"
                    ),
                    done=done,
                    n=total,
                )
                print(line, flush=True)
                last = done
        await asyncio.sleep(TELL_EVERY)


async def supervise(settings: Settings) -> None:
    """``--workers N``: N server processes on one port (SO_REUSEPORT) and one Redis,
    each restarted if it dies; SIGTERM/SIGINT is passed on to every worker."""
    from .store import EmbeddedRedis
    from .store.durability import Durability
    from .store.embedded import die_with_parent

    stop = _stop_event()
    embedded = None
    url = settings.redis_url
    if url is None and not settings.redis_cluster:
        fsync = Durability.parse(settings.durability).appendfsync
        embedded = EmbeddedRedis(settings.data_dir, binary=settings.redis_server, appendfsync=fsync)
        await embedded.start()
        url = embedded.url
    port = settings.port or _free_port(settings.host)
    worker = dataclasses.replace(settings, workers=1, reuse_port=True, redis_url=url, port=port)
    env = {**os.environ, **_as_env(worker)}
    cmd = [sys.executable, "-m", "server", "serve"]
    procs: list[asyncio.subprocess.Process] = []

    def metrics_of(i: int) -> dict[str, str]:
        """Worker ``i``'s operator address: --metrics's port plus ``i`` (each worker
        has its own metrics; port 0: each a free one)."""
        if not settings.metrics:
            return {}
        from .net.operator import parse_address

        host, first = parse_address(settings.metrics)
        shown = f"[{host}]" if ":" in host else host
        return {env_name("metrics"): f"{shown}:{first + i if first else 0}"}

    async def spawn(i: int) -> asyncio.subprocess.Process:
        # Its own session: a terminal's Ctrl-C (SIGINT to the foreground group) reaches
        # the supervisor alone, which passes SIGTERM on; a worker still starting up
        # would otherwise die of it mid-import, with a traceback, and be restarted.
        return await asyncio.create_subprocess_exec(
            *cmd,
            env={**env, **metrics_of(i)},
            stdin=asyncio.subprocess.DEVNULL,
            preexec_fn=die_with_parent,
            start_new_session=True,
        )

    async def keep(i: int) -> None:
        while not stop.is_set():
            code = await procs[i].wait()
            if stop.is_set():
                return
            log.error("worker %d exited with %s; restarting", i, code)
            await asyncio.sleep(0.5)
            procs[i] = await spawn(i)

    try:
        procs.extend([await spawn(i) for i in range(settings.workers)])
        keepers = [asyncio.create_task(keep(i)) for i in range(len(procs))]
        print(
            f"pasyans-server: {settings.workers} workers on ws://{settings.host}:{port}/ws",
            flush=True,
        )
        where(settings.host, port)
        await stop.wait()
        for task in keepers:
            task.cancel()
    finally:
        running = [proc for proc in procs if proc.returncode is None]
        if running:
            print(
                f"pasyans-server: stopping {len(running)} workers: each finishes its requests "
                f"in flight (up to {settings.shutdown_timeout:g} s) and closes its connections…",
                file=sys.stderr,
                flush=True,
            )
        for proc in running:
            with contextlib.suppress(ProcessLookupError):
                proc.send_signal(signal.SIGTERM)
        for proc in procs:
            with contextlib.suppress(ProcessLookupError):
                await proc.wait()
        if embedded is not None:
            print("pasyans-server: stopping the embedded Redis…", file=sys.stderr, flush=True)
            await embedded.stop()
        print("pasyans-server: stopped", file=sys.stderr, flush=True)


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
    args = i18n.translate_parser(build_parser(), operator_words()).parse_args(argv)
    if args.command == "solve":
        return solve_command(args)
    if args.command == "admin":
        from .admin import main as admin

        return admin(args)
    if args.command == "prepare-dailies":
        settings = Settings.from_namespace(args)
        asyncio.run(prepare_dailies(settings, args.date, args.days))
        return 0
    if args.command == "serve":
        settings = Settings.from_namespace(args)
        if settings.redis_cluster:
            from .store.cluster import ClusterSpec, check_prefix

            try:
                ClusterSpec.parse(settings.redis_cluster)
                check_prefix(settings.key_prefix)
            except ValueError as exc:
                raise SystemExit(f"pasyans-server: --redis-cluster: {exc}") from None
        if settings.first_day:
            import datetime as dt

            try:
                dt.date.fromisoformat(settings.first_day)
            except ValueError:
                raise SystemExit(
                    f"pasyans-server: --first-day: {settings.first_day!r} is not a date YYYY-MM-DD"
                ) from None
        from .net.address import parse_networks
        from .net.operator import parse_address

        try:
            parse_networks(settings.trusted_proxies)
        except ValueError as exc:
            raise SystemExit(f"pasyans-server: --trusted-proxies: {exc}") from None
        if settings.metrics:
            try:
                parse_address(settings.metrics)
            except ValueError as exc:
                raise SystemExit(f"pasyans-server: --metrics: {exc}") from None
        logging.basicConfig(
            level=settings.log_level.upper(),
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        )
        if settings.log_level.lower() != "debug":
            logging.getLogger("websockets").setLevel(logging.WARNING)
        entry = supervise(settings) if settings.workers > 1 else serve(settings)
        try:
            with contextlib.suppress(KeyboardInterrupt):
                run(entry, settings.loop)
        except OSError as exc:
            if exc.errno != errno.EADDRINUSE:
                raise
            print(
                f"pasyans-server: {settings.host}:{settings.port} is in use (another server?): "
                "pick another port with --port N or PASYANS_PORT=N "
                "(with make: PASYANS_PORT=N make run)",
                file=sys.stderr,
            )
            return 1
        except RuntimeError as exc:  # the embedded Redis could not start
            print(f"pasyans-server: {exc} (or pick another --data-dir)", file=sys.stderr)
            return 1
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
