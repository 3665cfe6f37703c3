"""Processes on this machine, for the tests, the benchmarks and the local launcher:
a free loopback port, a real redis-server (found as the embedded one is), a
``pasyans-server serve`` subprocess that is waited for until ``/healthz`` answers,
and what can be read of a process from outside (children, resident memory, open
files, ``/metrics`` counters). Every process listens on 127.0.0.1 only.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any, Self

from server.store.embedded import die_with_parent, find_redis_server, redis_command, wait_ready

from . import forked

ROOT = Path(__file__).resolve().parents[1]
#: a tiny solver budget for servers that do not measure the dailies: a daily is
#: chosen in milliseconds (what tests and benchmarks of the rest start servers with)
QUICK_DAILIES: dict[str, Any] = {
    "candidate_nodes": 40,
    "daily_nodes": 80,
    "solver_workers": 0,
    "prepare_dailies": False,
    # a loaded machine may take seconds for sixteen tiny choices: tests see a daily
    # "preparing" only when they ask for it (tests/server/services/test_daily_busy.py)
    "daily_wait": 60.0,
    # a hint's or finish's verdict by its nodes alone, however loaded the machine
    "hint_seconds": 600.0,
    "finish_seconds": 600.0,
}


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


class RedisProcess:
    """``RedisProcess().start()``; ``.url``; ``.stop()`` (SIGTERM) or ``.kill()``.

    ``appendonly=True`` turns AOF on (``appendfsync everysec``) for persistence tests;
    ``directory`` keeps the data between a stop and a new start; ``replica_of`` (a
    port on loopback) makes it a replica of that Redis (:meth:`synced` says when it
    has caught up).
    """

    def __init__(
        self,
        *,
        appendonly: bool = False,
        directory: Path | None = None,
        unix: bool = False,
        replica_of: int | None = None,
    ) -> None:
        self.appendonly = appendonly
        self.replica_of = replica_of
        self.unix = unix
        self._tmp = None if directory else tempfile.mkdtemp(prefix="pasyans-redis-")
        self.directory = Path(directory or self._tmp or ".")
        self.port = 0
        #: the operator's port, where its /metrics are (``--metrics``)
        self.metrics_port = 0
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def socket_path(self) -> Path:
        return self.directory / "redis.sock"

    @property
    def url(self) -> str:
        """TCP on loopback, or the unix socket when ``unix=True``."""
        if self.unix:
            return f"unix://{self.socket_path}"
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisProcess:
        self.directory.mkdir(parents=True, exist_ok=True)
        self.port = self.port or free_port()
        cmd = redis_command(
            find_redis_server(),
            self.directory,
            port=self.port,
            appendonly=self.appendonly,
            unixsocket=self.socket_path if self.unix else None,
        )
        # a replica's first sync starts at once (Redis waits 5 s by default for more
        # replicas to share one diskless transfer)
        cmd += ["--repl-diskless-sync-delay", "0"]
        if self.replica_of is not None:
            cmd += ["--replicaof", "127.0.0.1", str(self.replica_of)]
        self.process = subprocess.Popen(
            cmd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=die_with_parent,
        )
        wait_ready(("127.0.0.1", self.port))
        return self

    def synced(self, timeout: float = 60.0) -> RedisProcess:
        """Wait (bounded: a hang guard, generous for a loaded machine) until this
        replica's link to its primary is up."""
        import redis

        client = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=2)
        try:
            deadline = time.monotonic() + timeout
            while client.info("replication").get("master_link_status") != "up":
                if time.monotonic() > deadline:
                    raise RuntimeError(f"replica on port {self.port} not in sync in {timeout} s")
                time.sleep(0.02)
        finally:
            client.close()
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait()
        self.process = None

    def cleanup(self) -> None:
        self.stop()
        if self._tmp:
            with contextlib.suppress(OSError):
                shutil.rmtree(self._tmp)

    def __enter__(self) -> RedisProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.cleanup()


def healthy(port: int) -> bool:
    """Whether a pasyans server on loopback ``port`` answers ``/healthz`` with 200."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
            return bool(r.status == 200)
    except OSError:
        return False


#: how many free ports :meth:`ServerProcess.start` tries when one is taken meanwhile
PORT_TRIES = 5


class PortTaken(RuntimeError):
    """The port a server was to bind was taken before it did."""


class ServerProcess:
    """``pasyans-server serve`` in a subprocess on a free loopback port, with the
    dailies chosen on :data:`QUICK_DAILIES`' tiny budget unless ``env`` says otherwise.

    ``start()`` waits for ``/healthz``; ``terminate()`` sends SIGTERM (graceful),
    ``kill()`` SIGKILL.

    With :attr:`fork` (the tests' servers: ``tests.support.ServerProcess``) the server
    is forked from a process that has imported it once (:mod:`deploy.forked`) rather
    than executed: the same ``serve`` with the same flags and environment, started in
    a fifth of the time and a sixth of the CPU.
    """

    #: fork the server (:mod:`deploy.forked`) rather than execute ``python -m server``
    fork = False

    def __init__(self, *args: str, redis_url: str | None = None, env: dict[str, str] | None = None):
        self.args = list(args)
        self.redis_url = redis_url
        self.env = env or {}
        self.port = 0
        #: the operator's port, where its /metrics are (``--metrics``)
        self.metrics_port = 0
        self.process: subprocess.Popen[bytes] | forked.Forked | None = None
        self.log: Any = None
        self._log_path = ""

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self, timeout: float = 60.0, *, port: int | None = None) -> Self:
        """Start on ``port`` (a restart on the port it had: pass ``self.port``), by
        default a free one; ``timeout``: a hang guard (it is up in a second or two,
        longer on a loaded machine). A free port found here can be taken by another
        process before the server binds it (beside other servers and browsers on one
        machine, it was): then another one is tried, a few times."""
        ours = not self.metrics_port  # its operator's port too, chosen here
        for _ in range(PORT_TRIES - 1):
            try:
                return self._start(timeout, port)
            except PortTaken:
                if port is not None:
                    raise
                if ours:
                    self.metrics_port = 0
        return self._start(timeout, port)

    def _start(self, timeout: float, port: int | None) -> Self:
        self.port = port if port is not None else free_port()
        self.metrics_port = self.metrics_port or free_port()
        cmd = [
            sys.executable,
            "-m",
            "server",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--metrics",
            f"127.0.0.1:{self.metrics_port}",
            *self.args,
        ]
        if self.redis_url:
            cmd += ["--redis-url", self.redis_url]
        solver = {f"PASYANS_{k.upper()}": str(v) for k, v in QUICK_DAILIES.items()}
        # Every client of a test or bench comes from 127.0.0.1: no limits per address
        # (a flag or self.env turns them on).
        unlimited = {"PASYANS_ADDRESS_LIMITS": "false"}
        env = {**os.environ, "PYTHONPATH": str(ROOT), **solver, **unlimited, **self.env}
        # A file, not a pipe: nobody reads while it runs, and a full pipe would block it.
        if self.fork:
            fd, self._log_path = tempfile.mkstemp(prefix="pasyans-server-", suffix=".log")
            self.log = os.fdopen(fd, "w+b")
            self.process = forked.spawn(cmd[3:], env, self._log_path)
        else:
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
                output = self.output()
                self._close()
                if f"{self.port} is in use" in output:
                    raise PortTaken(f"pasyans-server exited: {output}")
                raise RuntimeError(f"pasyans-server exited: {output}")
            if self.healthy():
                return self
            time.sleep(0.02)
        self.kill()
        raise RuntimeError("pasyans-server did not become healthy")

    def healthy(self) -> bool:
        return healthy(self.port)

    def terminate(self, timeout: float = 60.0) -> int:
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
        if self._log_path:
            with contextlib.suppress(OSError):
                os.unlink(self._log_path)
            self._log_path = ""

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.kill()


def children(pid: int) -> list[int]:
    """The process ids of ``pid``'s children (Linux: every thread's ``children``)."""
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text()
        found += [int(x) for x in text.split()]
    return found


def command(pid: int) -> str:
    """The process's command name (``comm``), '' once it is gone."""
    try:
        return Path(f"/proc/{pid}/comm").read_text().strip()
    except OSError:
        return ""


def rss_kib(pid: int) -> int:
    """The process's resident set size (``VmRSS``) in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def open_fds(pid: int) -> int:
    return sum(1 for _ in Path(f"/proc/{pid}/fd").iterdir())


def op_counts(port: int) -> dict[tuple[str, str], float]:
    """``pasyans_ops_total`` of a server on loopback whose operator's port (its
    ``--metrics``) is ``port``: (op, result) → count."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5) as r:
        body = r.read().decode()
    counts: dict[tuple[str, str], float] = {}
    pattern = r'^pasyans_ops_total\{op="([^"]*)",result="([^"]*)"\} (\S+)$'
    for op, result, value in re.findall(pattern, body, re.MULTILINE):
        counts[op, result] = float(value)
    return counts
