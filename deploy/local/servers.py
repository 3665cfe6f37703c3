"""pasyans servers sharing the cluster, each on its own loopback port."""

from __future__ import annotations

import os
import re
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from deploy import forked
from deploy.procs import healthy

from .processes import ROOT, SERVER_TIMEOUT, Child, LaunchError, spawn

_ANNOUNCED = re.compile(rb"pasyans-server: (ws://127\.0\.0\.1:(\d+)/ws)")


@dataclass
class Instance:
    """A pasyans server process; ``url`` once it is up."""

    child: Child
    url: str = ""
    port: int = 0

    def healthy(self) -> bool:
        return healthy(self.port)


def start_servers(
    spec: str,
    directory: Path,
    *,
    instances: int = 2,
    server_args: Sequence[str] = (),
    timeout: float = SERVER_TIMEOUT,
    fork: bool = False,
) -> list[Instance]:
    """``instances`` ``pasyans-server serve`` processes on the cluster ``spec``, each on
    a free loopback port (``--port 0``; the port is read from what it prints), returned
    once every one answers ``/healthz``. Logs go to ``directory``/server-N.log.
    ``fork``: forked from a process that has imported the server (:mod:`deploy.forked`,
    the tests' deployments) rather than executed."""
    directory.mkdir(parents=True, exist_ok=True)
    path = [str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(path)}
    cmd = [sys.executable, "-m", "server", "serve", "--redis-cluster", spec]
    servers: list[Instance] = []
    try:
        for i in range(instances):
            # Our host and port come last: they win over any in server_args.
            args = [*cmd, *server_args, "--host", "127.0.0.1", "--port", "0"]
            log = directory / f"server-{i}.log"
            if fork:
                log.write_bytes(b"")  # a fresh log: an old one could announce an old port
                child = Child(
                    f"server {i}", forked.spawn(args[3:], env, str(log), launched=True), log
                )
            else:
                child = spawn(f"server {i}", args, log, cwd=ROOT, env=env)
            servers.append(Instance(child))
        deadline = time.monotonic() + timeout
        for server in servers:
            while not (server.port and server.healthy()):
                if not server.child.alive():
                    raise LaunchError(f"{server.child.name} exited:\n{server.child.tail()}")
                if time.monotonic() > deadline:
                    raise LaunchError(
                        f"{server.child.name} not up after {timeout} s:\n{server.child.tail()}"
                    )
                if not server.port:
                    found = _ANNOUNCED.search(server.child.log.read_bytes())
                    if found:
                        server.url, server.port = found[1].decode(), int(found[2])
                time.sleep(0.02)
        return servers
    except BaseException:
        for server in servers:
            server.child.stop()
        raise
