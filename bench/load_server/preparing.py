"""The rows at ``--preparing-players``: a pasyans server certifying dailies while it
is measured (:class:`Preparing`), its solver processes frozen outside its own turns
(:class:`Solvers`), and how far its preparation got (:func:`daily_progress`)."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from pathlib import Path

from deploy.procs import RedisProcess, free_port

from .procs import child_pids, cpu_seconds, server_command, spawn, wait_http

#: days after today whose dailies the preparation row's server prepares: more work
#: than the row lasts, so that the solver is busy throughout (checked before and after)
PREPARE_DAYS = 30


async def daily_progress(redis_url: str, port: int, pid: int) -> dict[str, float]:
    """How far the preparation row's server got: dailies chosen (of every day) and
    candidates tried by the scans under way, read from its Redis; dailies it is
    choosing now (``pasyans_dailies_preparing``, from its operator's ``port``, its
    ``--metrics``); CPU seconds its solver processes spent so far."""
    from server.services.clock import day_after, utc_date
    from server.store import Store

    store = Store(redis_url)
    try:
        chosen = tried = 0
        date = utc_date(int(time.time() * 1000))
        for _ in range(PREPARE_DAYS + 1):
            fields = await store.daily(date)
            chosen += sum(1 for k in fields if k.startswith("seed:"))
            for k, v in fields.items():
                if k.startswith("progress:"):
                    tried += int(bytes(v).split(b":")[0])
            date = day_after(date)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as reply:
            metrics = reply.read().decode()
        preparing = next(
            float(line.split()[-1])
            for line in metrics.splitlines()
            if line.startswith("pasyans_dailies_preparing ")
        )
        solver = cpu_seconds(pid) - cpu_seconds(pid, children=False)
        return {"chosen": chosen, "tried": tried, "preparing": preparing, "solver_cpu_s": solver}
    finally:
        await store.close()


class Solvers:
    """A preparing server's solver processes, frozen (SIGSTOP) outside that server's
    turns: running on, they would take the CPU of the other servers' turns. While
    frozen, a watch freezes any the server starts meanwhile."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self._watch: asyncio.Task[None] | None = None

    def _signal(self, sig: signal.Signals) -> None:
        for child in child_pids(self.pid):
            with contextlib.suppress(ProcessLookupError):
                os.kill(child, sig)

    def freeze(self) -> None:
        self._signal(signal.SIGSTOP)
        if self._watch is None:
            self._watch = asyncio.create_task(self._keep_frozen())

    async def _keep_frozen(self) -> None:
        while True:
            await asyncio.sleep(0.02)
            self._signal(signal.SIGSTOP)

    def thaw(self) -> None:
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        self._signal(signal.SIGCONT)

    def turn(self, starts: bool) -> None:
        """:attr:`Load.on_turn`: thawed for the server's own turn only."""
        if starts:
            self.thaw()
        else:
            self.freeze()


class Preparing:
    """A pasyans server preparing dailies, for the rows at ``--preparing-players``: on
    a fresh Redis (no daily stored), so it starts choosing today's at once, then the
    next :data:`PREPARE_DAYS` days'; its solver workers as the server's settings (or
    ``--prepare-args``) put them. Its rows' CPU figure is the server process's own,
    without the solver's. An async context manager: the server and its Redis stop at
    the end."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.tmp = Path(tempfile.mkdtemp(prefix="pasyans-bench-prep-"))
        self.redis = RedisProcess(appendonly=True, directory=self.tmp / "redis", unix=True)
        self.port = free_port()
        #: its operator's port (``--metrics``), where its /metrics are
        self.metrics_port = free_port()
        self.command = server_command(self.port, "", args, prepare=True)
        self.command += ["--prepare-days", str(PREPARE_DAYS), *shlex.split(args.prepare_args)]
        self.command += ["--metrics", f"127.0.0.1:{self.metrics_port}"]
        self.server: subprocess.Popen[bytes] | None = None
        self.solvers: Solvers | None = None

    async def __aenter__(self) -> Preparing:
        self.redis.start()
        self.command[self.command.index("--redis-url") + 1] = self.redis.url
        self.server = spawn(self.command)
        self.solvers = Solvers(self.server.pid)
        try:
            wait_http(self.port)
        except BaseException:
            await self.__aexit__()
            raise
        return self

    @property
    def pid(self) -> int:
        assert self.server is not None
        return self.server.pid

    async def progress(self) -> dict[str, float]:
        return await daily_progress(self.redis.url, self.metrics_port, self.pid)

    async def __aexit__(self, *exc: object) -> None:
        if self.solvers is not None:
            self.solvers.thaw()  # a frozen process would not hear SIGTERM
        if self.server is not None:
            self.server.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.server.wait(15)
        self.redis.cleanup()
        shutil.rmtree(self.tmp, ignore_errors=True)
