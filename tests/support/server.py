"""A real pasyans server on a free port: in-process (:func:`running_app`, fast, same
event loop) or as a subprocess (:class:`ServerProcess`, for kill/restart tests)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
import uuid
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

from server.net import App
from server.services import Clock
from server.settings import Settings

from .redis import free_port

ROOT = Path(__file__).resolve().parents[2]
#: a tiny solver budget for test servers: a daily is chosen in milliseconds (tests of
#: the choice itself set their own budgets)
SOLVER: dict[str, Any] = {
    "candidate_nodes": 40,
    "daily_nodes": 80,
    "solver_workers": 0,
    "prepare_dailies": False,
    # a loaded machine may take seconds for sixteen tiny choices: tests see a daily
    # "preparing" only when they ask for it (tests/server/test_daily_busy.py)
    "daily_wait": 60.0,
}


def server_settings(redis_url: str, **overrides: Any) -> Settings:
    """Settings for a test server: loopback, any free port, a unique key prefix."""
    base = Settings(
        host="127.0.0.1",
        port=0,
        redis_url=redis_url,
        key_prefix=f"t{uuid.uuid4().hex[:10]}:",
        ping_interval=0,
        shutdown_timeout=5,
        race_countdown=0.2,
        # a SCAN of the whole shared test Redis at every start: only the tests of it
        backfill_look_alikes=False,
        # every test client comes from 127.0.0.1: only the tests of them count
        address_limits=False,
        **SOLVER,
    )
    return replace(base, **overrides)


@contextlib.asynccontextmanager
async def running_app(
    redis_url: str, *, clock: Clock | None = None, **overrides: Any
) -> AsyncIterator[App]:
    """An :class:`App` serving on ``ws://127.0.0.1:{app.port}/ws`` for the block."""
    app = App(server_settings(redis_url, **overrides), clock=clock)
    await app.start()
    try:
        yield app
    finally:
        await app.stop()


class ServerProcess:
    """``pasyans-server serve`` in a subprocess on a free port.

    ``start()`` waits for ``/healthz``; ``terminate()`` sends SIGTERM (graceful),
    ``kill()`` SIGKILL.
    """

    def __init__(self, *args: str, redis_url: str | None = None, env: dict[str, str] | None = None):
        self.args = list(args)
        self.redis_url = redis_url
        self.env = env or {}
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.log: Any = None

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, timeout: float = 20.0, *, port: int | None = None) -> ServerProcess:
        """Start on ``port`` (a restart on the port it had: pass ``self.port``), by
        default a free one."""
        self.port = port if port is not None else free_port()
        cmd = [
            sys.executable,
            "-m",
            "server",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            *self.args,
        ]
        if self.redis_url:
            cmd += ["--redis-url", self.redis_url]
        solver = {f"PASYANS_{k.upper()}": str(v) for k, v in SOLVER.items()}
        # Every client of a test or bench comes from 127.0.0.1: no limits per address
        # (a flag or self.env turns them on).
        unlimited = {"PASYANS_ADDRESS_LIMITS": "false"}
        env = {**os.environ, "PYTHONPATH": str(ROOT), **solver, **unlimited, **self.env}
        # A file, not a pipe: nobody reads while it runs, and a full pipe would block it.
        self.log = tempfile.TemporaryFile()  # noqa: SIM115  (closed in _close)
        self.process = subprocess.Popen(
            cmd,
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=self.log,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"pasyans-server exited: {self.output()}")
            if self.healthy():
                return self
            time.sleep(0.05)
        self.kill()
        raise RuntimeError("pasyans-server did not become healthy")

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=1) as r:
                return bool(r.status == 200)
        except OSError:
            return False

    def terminate(self, timeout: float = 15.0) -> int:
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            output = self.output()
            self.kill()
            raise RuntimeError(f"pasyans-server ignored SIGTERM:\n{output}") from None
        self._close()
        return code

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self._close()

    def output(self) -> str:
        """What the server wrote to stderr so far."""
        if self.log is None or self.log.closed:
            return ""
        self.log.seek(0)
        data: bytes = self.log.read()
        return data.decode(errors="replace")

    def _close(self) -> None:
        if self.log is not None:
            self.log.close()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.kill()
