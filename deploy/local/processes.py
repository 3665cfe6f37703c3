"""Child processes of the launcher: spawned with their log, given SIGTERM when the
launcher dies, stopped by PID; free loopback ports for Redis nodes."""

from __future__ import annotations

import random
import socket
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from deploy.forked import Forked
from server.store.embedded import die_with_parent

ROOT = Path(__file__).resolve().parents[2]
SLOTS = 16384  # hash slots of a Redis Cluster
BUS_OFFSET = 10000  # Redis 6.2 puts a node's cluster bus on its port + 10000
#: node ports come from here, so that port and bus port are both below the usual
#: ephemeral range (32768+) where outgoing connections take their ports
PORT_RANGE = (12000, 22700)
NODE_TIMEOUT = 10.0  # seconds for a fresh redis-server to answer PING
CLUSTER_TIMEOUT = 20.0  # seconds for the joined nodes to agree the cluster is ok
SERVER_TIMEOUT = 30.0  # seconds for a pasyans server to answer /healthz
STOP_TIMEOUT = 10.0  # seconds between SIGTERM and SIGKILL
START_ATTEMPTS = 3  # tries per Redis node (a free port can be taken meanwhile)
#: what --durability takes (server.store.durability.Durability)
DURABILITY = ("default", "fsync", "replicated")


class LaunchError(RuntimeError):
    """Something the launcher started did not come up in time (the message says what,
    with the end of its log)."""


@dataclass
class Child:
    """A process this launcher started, with the file its output goes to."""

    name: str
    process: subprocess.Popen[bytes] | Forked
    log: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return self.process.poll() is None

    def stop(self, timeout: float = STOP_TIMEOUT) -> None:
        """SIGTERM to this PID, SIGKILL if it is still there after ``timeout`` s."""
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout)

    def tail(self, lines: int = 20) -> str:
        try:
            text = self.log.read_text(errors="replace")
        except OSError:
            return ""
        return "\n".join(text.splitlines()[-lines:])


def spawn(name: str, cmd: Sequence[str], log: Path, *, cwd: Path, env: dict[str, str]) -> Child:
    """Start ``cmd`` with its output in ``log``, in its own session (a Ctrl-C in the
    terminal reaches the launcher only, which then stops it in order), set to get
    SIGTERM when the launcher dies."""
    with log.open("wb") as out:  # a fresh log: an old one could announce an old port
        process = subprocess.Popen(
            list(cmd),
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=die_with_parent,
        )
    return Child(name, process, log)


def _bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def node_port(taken: set[int], attempts: int = 200) -> int:
    """A loopback port free together with its cluster bus port (port + 10000)."""
    for _ in range(attempts):
        port = random.randrange(*PORT_RANGE)
        if {port, port + BUS_OFFSET} & taken:
            continue
        if _bindable(port) and _bindable(port + BUS_OFFSET):
            return port
    raise LaunchError(f"no free port pair (port, port + {BUS_OFFSET}) in {PORT_RANGE}")


# -- Redis Cluster ---------------------------------------------------------------------
