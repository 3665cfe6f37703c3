"""A run of the benchmark: the engine measured first, the servers started
(:class:`Servers`), the rows measured in turn (single Redis, paced, the cluster's and
the preparing server's alone), then the report."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import resource
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from deploy.procs import RedisProcess, free_port
from server.net.app import GC_THRESHOLDS

from .game import Engines, engines
from .players import echo_load, idle, pasyans_load
from .preparing import Preparing
from .procs import reference_command, server_command, spawn, start_cluster, wait_http
from .report import Results, report, say_cluster, say_engines, say_paced, say_preparing, say_row
from .rounds import Load, measure_alone, measure_rounds, opened

if TYPE_CHECKING:
    from deploy.local import LocalDeployment


class Servers:
    """The servers of the single-Redis and paced rows, each in its own process: pasyans
    on a real redis-server (AOF ``everysec`` on a unix socket, as the embedded default),
    the echo, the floor and the floor plus the engine; and pasyans on a local Redis
    Cluster for the rows at ``--cluster-players`` (:meth:`start_cluster`)."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="pasyans-bench-"))
        self.redis = RedisProcess(appendonly=True, directory=self.tmp / "redis", unix=True).start()
        url, loop = self.redis.url, args.loop
        self.port, self.echo_port = free_port(), free_port()
        self.server = spawn(server_command(self.port, url, args))
        self.echo = spawn(reference_command("--echo-server", self.echo_port, loop))
        self.floor_port = free_port()
        self.floor = spawn(reference_command("--floor-server", self.floor_port, loop, url))
        self.floor_engine_port = free_port()
        self.floor_engine = spawn(
            reference_command("--floor-engine-server", self.floor_engine_port, loop, url)
        )
        self.processes = (self.server, self.echo, self.floor, self.floor_engine)
        self.cluster: LocalDeployment | None = None

    def pin(self) -> None:
        """The servers on the first CPU, the load client and redis-server on the others:
        each server then competes with its own load for nothing."""
        cpus = sorted(os.sched_getaffinity(0))
        first, rest = {cpus[0]}, set(cpus[1:]) or {cpus[0]}
        for proc in self.processes:
            os.sched_setaffinity(proc.pid, first)
        if self.redis.process is not None:
            os.sched_setaffinity(self.redis.process.pid, rest)
        os.sched_setaffinity(0, rest)

    async def start_cluster(self, args: argparse.Namespace) -> None:
        self.cluster = await start_cluster(args)

    def wait(self) -> None:
        wait_http(self.port)
        wait_http(self.echo_port, "/")
        wait_http(self.floor_port, "/")
        wait_http(self.floor_engine_port, "/")

    async def stop(self) -> None:
        for proc in self.processes:
            proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(15)
        self.redis.cleanup()
        shutil.rmtree(self.tmp, ignore_errors=True)  # its data too: a bench keeps nothing
        if self.cluster is not None:
            await asyncio.to_thread(self.cluster.stop)


async def main_async(args: argparse.Namespace) -> None:
    # The load client keeps every player's last state (a few hundred objects each)
    # alive: with CPython's default thresholds the cyclic collector walks all of them
    # every few replies, CPU taken from the servers on the same cores. The server
    # raises its thresholds the same way (server.net.app.GC_THRESHOLDS).
    gc.set_threshold(*GC_THRESHOLDS)
    counts = {*args.players, *args.cluster_players, *args.preparing_players} - {0}
    counts |= set(args.paced_players)
    eng = engines(args.engine_seconds, counts)  # first, with nothing else of ours running
    say_engines(eng)
    open_files(args)
    results = Results()
    servers = Servers(args)
    if args.pin:
        servers.pin()
    # The cluster's server takes its turns in the same rounds as the single Redis's
    # (its rows at counts of --players): "vs_redis" then compares the two in one phase
    # of the machine.
    try:
        if args.cluster_players:
            await servers.start_cluster(args)
        servers.wait()
        for n in args.players:
            await single_redis_row(servers, args, eng, n, results)
        for n in args.paced_players:
            await paced_row(servers, args, eng, n, results)
        await cluster_rows_alone(servers, args, eng, results)
        if args.idle and args.workers == 1:
            results.idle = await idle(servers.port, servers.server.pid, args.idle)
    finally:
        await servers.stop()
    await preparing_rows_alone(args, eng, results)
    report(args, results, eng)


def open_files(args: argparse.Namespace) -> None:
    """Raise this process's limit of open files to what the rows need: a row keeps four
    servers' players connected at once, the idle row its connections."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    most = max(*args.players, *args.paced_players, 0)
    want = min(hard, max(soft, args.idle * 2 + 1000, 8 * most + 1000))
    resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


async def single_redis_row(
    servers: Servers, args: argparse.Namespace, eng: Engines, n: int, results: Results
) -> None:
    """The row of ``n`` players: the echo, the floor, the floor plus the engine and
    pasyans take turns, with pasyans on the Redis Cluster and the preparing server when
    ``n`` is among their counts."""
    cluster = servers.cluster if n in args.cluster_players else None
    async with contextlib.AsyncExitStack() as row_stack:
        loads = await opened(
            row_stack,
            echo_load(servers.echo_port, servers.echo.pid, n),
            echo_load(servers.floor_port, servers.floor.pid, n),
            pasyans_load(servers.floor_engine_port, servers.floor_engine.pid, n),
            pasyans_load(servers.port, servers.server.pid, n),
        )
        if cluster is not None:
            node = cluster.servers[0]
            loads += await opened(row_stack, pasyans_load(node.port, node.child.pid, n))
        prep = None
        if n in args.preparing_players:
            prep = await row_stack.enter_async_context(Preparing(args))
            loads += await opened(row_stack, pasyans_load(prep.port, prep.pid, n, children=False))
        await measure_row(loads, args, eng, n, prep, results)
    e, f = loads[0].row(), loads[1].row()
    fe, s = loads[2].row(eng, n), loads[3].row(eng, n)
    results.rows.append((n, s, e, f))
    results.floor_engines[n] = fe
    say_row(n, s, e, f, fe)
    if cluster is not None:
        results.cluster.append((n, loads[4].row(eng, n)))
        say_cluster(n, results.cluster[-1][1])
    if results.preparing and results.preparing[-1][0] == n:
        say_preparing(*results.preparing[-1])


async def measure_row(
    loads: list[Load],
    args: argparse.Namespace,
    eng: Engines,
    n: int,
    prep: Preparing | None,
    results: Results,
) -> None:
    """Warm every load, then measure them in rounds; the preparing server (the last
    load, when ``prep``) with its solvers thawed in its own turns only, and its
    progress before and after kept with its row."""
    for load in loads:
        await load.warm(0.5)
    if prep is None:
        await measure_rounds(loads, args.seconds, args.rounds)
        return
    assert prep.solvers is not None
    before = await prep.progress()
    prep.solvers.freeze()
    loads[-1].on_turn = prep.solvers.turn
    await measure_rounds(loads, args.seconds, args.rounds)
    after = await prep.progress()
    results.preparing.append((n, loads[-1].row(eng, n), before, after))


async def paced_row(
    servers: Servers, args: argparse.Namespace, eng: Engines, n: int, results: Results
) -> None:
    """The paced row of ``n`` players: the floor, the floor plus the engine and pasyans
    take turns, each player thinking ``--pace`` seconds between its moves."""
    async with contextlib.AsyncExitStack() as row_stack:
        loads = await opened(
            row_stack,
            echo_load(servers.floor_port, servers.floor.pid, n),
            pasyans_load(servers.floor_engine_port, servers.floor_engine.pid, n),
            pasyans_load(servers.port, servers.server.pid, n),
        )
        for load in loads:
            load.pause = args.pace
        for load in loads:
            await load.warm(args.pace)
        await measure_rounds(loads, args.seconds, args.rounds)
    f, fe, s = loads[0].row(), loads[1].row(eng, n), loads[2].row(eng, n)
    results.paced.append((n, s, f, fe))
    say_paced(n, args.pace, s, f, fe)


async def cluster_rows_alone(
    servers: Servers, args: argparse.Namespace, eng: Engines, results: Results
) -> None:
    """The Redis Cluster's rows at counts of ``--cluster-players`` alone."""
    for n in sorted(set(args.cluster_players) - set(args.players)):
        if servers.cluster is not None:
            node = servers.cluster.servers[0]
            load = await pasyans_load(node.port, node.child.pid, n)
            await measure_alone(load, args.seconds, args.rounds)
            results.cluster.append((n, load.row(eng, n)))
            say_cluster(n, results.cluster[-1][1])


async def preparing_rows_alone(args: argparse.Namespace, eng: Engines, results: Results) -> None:
    """The preparing server's rows at counts of ``--preparing-players`` alone."""
    for n in sorted(set(args.preparing_players) - set(args.players)):
        async with Preparing(args) as prep:
            load = await pasyans_load(prep.port, prep.pid, n, children=False)
            before = await prep.progress()
            await measure_alone(load, args.seconds, args.rounds)
            results.preparing.append((n, load.row(eng, n), before, await prep.progress()))
            say_preparing(*results.preparing[-1])
